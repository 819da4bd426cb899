//! A game searched from its rules reports what the same game written out reports: the
//! statistics of NegaScout and MTD(f) searched to the end, the tied best moves and the
//! principal variation; iterative deepening stops when every line it searched ended; a depth
//! short of the end of a game without a heuristic is refused before the search.

use prune::game::run::{self as game_run, GameRunError};
use prune::game::{self, Game, Outcome, Turn, best, nim, pig, tic_tac_toe::TicTacToe};
use prune::search::{self, Algorithm, Params};
use prune::tree::{Meta, Tree};

fn algorithm(spec: &str) -> Algorithm {
    Algorithm::parse(spec, &Params::default()).expect(spec)
}

/// Tic-tac-toe without its length ([`Game::longest`]): a search to depth 30 cannot know that
/// every game is over by move 9.
struct Untold;

impl Game for Untold {
    type Position = <TicTacToe as Game>::Position;
    type Move = <TicTacToe as Game>::Move;
    fn name(&self) -> String {
        "tic-tac-toe (length untold)".into()
    }
    fn meta(&self) -> Meta {
        TicTacToe.meta()
    }
    fn start(&self) -> Self::Position {
        TicTacToe.start()
    }
    fn outcome(&self, p: &Self::Position) -> Option<Outcome> {
        TicTacToe.outcome(p)
    }
    fn turn(&self, p: &Self::Position) -> Turn {
        TicTacToe.turn(p)
    }
    fn moves(&self, p: &Self::Position, moves: &mut Vec<Self::Move>) {
        TicTacToe.moves(p, moves)
    }
    fn play(&self, p: &Self::Position, m: &Self::Move) -> Self::Position {
        TicTacToe.play(p, m)
    }
    fn label(&self, p: &Self::Position, m: &Self::Move) -> String {
        TicTacToe.label(p, m)
    }
    fn heuristic(&self, p: &Self::Position) -> Option<f64> {
        TicTacToe.heuristic(p)
    }
    fn key(&self, p: &Self::Position) -> Option<u64> {
        TicTacToe.key(p)
    }
}

/// Tic-tac-toe's outcomes are integers though its heuristic's values are not: searched to the
/// end, NegaScout's and MTD(f)'s minimal windows step by 1 on the game as on its tree written
/// out, and their statistics are the same.
#[test]
fn searched_to_the_end_tic_tac_toe_counts_as_written_out() {
    let tree = game::tree(&TicTacToe, None).unwrap();
    for spec in [
        "negascout",
        "mtdf",
        "mtdf:id",
        "negascout:id",
        "negascout-ab",
    ] {
        let algo = algorithm(spec);
        let stored = search::run(&tree, &algo).unwrap();
        for depth in [9, 12, u32::MAX] {
            let lazy = game_run::run(&TicTacToe, &algo, depth).unwrap();
            assert_eq!(lazy.value, stored.value, "{spec} to depth {depth}");
            assert_eq!(lazy.stats, stored.stats, "{spec} to depth {depth}");
        }
    }
}

/// Iterative deepening to depth 30 on a game whose games all end by move 9: the iteration that
/// stopped at no horizon position is the last, with or without a transposition table.
#[test]
fn iterative_deepening_stops_when_the_game_has_ended() {
    for spec in [
        "alphabeta:id",
        "negascout:id",
        "alphabeta:tt:id",
        "mtdf:id",
        "mtdf:tt:id",
        "alphabeta:id:aspiration=0.5",
    ] {
        let algo = algorithm(&format!("{spec}:depth=30"));
        let run = game_run::run(&Untold, &algo, 30).unwrap();
        let iterations = run.stats.iteration_nodes.len();
        assert!(
            (1..=9).contains(&iterations),
            "{spec}: {iterations} iterations"
        );
        assert_eq!(
            run.value.scalar(),
            Some(0.0),
            "{spec}: tic-tac-toe is a draw"
        );
    }
    // Where the horizon cuts lines, every iteration runs.
    let run = game_run::run(&Untold, &algorithm("alphabeta:id:depth=4"), 4).unwrap();
    assert_eq!(run.stats.iteration_nodes.len(), 4);
}

/// A game that says how long it lasts ([`Game::longest`]) is searched at most that deep: a
/// deeper `--depth` is the end.
#[test]
fn a_depth_beyond_the_end_is_the_end() {
    let algo = algorithm("alphabeta:id:depth=30");
    let run = game_run::run(&TicTacToe, &algo, 30).unwrap();
    assert!(run.stats.iteration_nodes.len() <= 9);
    let nim = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    assert_eq!(nim.longest(), Some(6));
    let to_end = game_run::run(&nim, &algorithm("alphabeta"), u32::MAX).unwrap();
    let six = game_run::run(&nim, &algorithm("alphabeta"), 6).unwrap();
    assert_eq!(to_end.stats, six.stats);
}

#[test]
fn a_depth_short_of_the_end_without_a_heuristic_is_refused_up_front() {
    let nim = nim::Nim::new(&[1, 2, 3, 4], 2).unwrap();
    for spec in ["sss", "alphabeta:tt", "maxn", "negascout:killers"] {
        match game_run::run(&nim, &algorithm(spec), 2) {
            Err(GameRunError::Refused(why)) => {
                assert!(
                    why.contains("no heuristic") && why.contains("10 moves"),
                    "{why}"
                )
            }
            other => panic!("{spec}: {other:?}"),
        }
    }
    // Pig's horizon counts decisions; a search counts the die's rolls too: 2H − 1 moves.
    let pig = pig::Pig::new(6, 3, 8).unwrap();
    assert_eq!(pig.longest(), Some(15));
    match game_run::run(&pig, &algorithm("expectiminimax"), 8) {
        Err(GameRunError::Refused(why)) => assert!(why.contains("15 moves"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(game_run::run(&pig, &algorithm("expectiminimax"), 15).is_ok());
}

/// The labels of `moves` (child positions) from the root of `tree`, down a path.
fn labels(tree: &Tree, pv: &[prune::tree::NodeId]) -> Vec<String> {
    pv.iter()
        .skip(1)
        .map(|&n| tree.label(n).unwrap_or_default().to_owned())
        .collect()
}

/// The best moves and principal variation of a game's search are those of its tree written out,
/// for every family's reference rule.
fn same_principal<G: Game>(game: &G, spec: &str, depth: Option<u32>) {
    let algo = match depth {
        Some(d) => algorithm(&format!("{spec}:depth={d}")),
        None => algorithm(spec),
    };
    let tree = game::tree(game, depth).unwrap();
    let stored = search::run(&tree, &algo).unwrap();
    let found = best::principal(game, &algo, depth.unwrap_or(u32::MAX)).unwrap();
    let what = format!("{spec} on {} to {depth:?}", game.name());
    let best: Vec<usize> = found.best_moves.iter().map(|(i, _)| *i).collect();
    assert_eq!(best, stored.best_moves, "{what}: best moves");
    let pv: Vec<String> = found.pv.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(pv, labels(&tree, &stored.pv), "{what}: principal variation");
    let indices: Vec<usize> = found.pv.iter().map(|(i, _)| *i).collect();
    let stored_indices: Vec<usize> = stored
        .pv
        .iter()
        .skip(1)
        .map(|&n| n.0 as usize - tree.child(tree.parent(n).unwrap(), 0).0 as usize)
        .collect();
    assert_eq!(indices, stored_indices, "{what}: variation's moves");
}

#[test]
fn best_moves_and_principal_variation_are_the_written_out_trees() {
    same_principal(&TicTacToe, "alphabeta", None);
    same_principal(&TicTacToe, "negascout", Some(3));
    same_principal(&TicTacToe, "mtdf:id", Some(4));
    let nim2 = nim::Nim::new(&[1, 2, 4], 2).unwrap();
    same_principal(&nim2, "alphabeta", None);
    let nim3 = nim::Nim::new(&[1, 2, 3], 3).unwrap();
    same_principal(&nim3, "maxn", None);
    same_principal(&nim3, "paranoid", None);
    let pig = pig::Pig::new(4, 2, 4).unwrap();
    same_principal(&pig, "expectiminimax", None);
    same_principal(&pig, "star1", None);
    // Heuristic values at the horizon, where one table answers many questions: connect-four's
    // and chess's (from a position with captures, checks and a promotion in reach).
    let c4 = game::connect_four::ConnectFour::new(&game::connect_four::Moves::NONE).unwrap();
    same_principal(&c4, "alphabeta:tt", Some(5));
    let chess = game::chess::Chess::new(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    same_principal(&chess, "alphabeta", Some(3));
    same_principal(&game::chess::Chess::default(), "negascout", Some(4));
    // Every first move of tic-tac-toe draws: all nine tie.
    let found = best::principal(&TicTacToe, &algorithm("alphabeta"), 9).unwrap();
    assert_eq!(found.best_moves.len(), 9);
    assert_eq!(found.pv.len(), 9, "a draw fills the board");
}

/// An estimate of a tree's size is exact where it counts to the end, and near it beyond.
#[test]
fn estimates_count_then_extrapolate() {
    let chess = game::chess::Chess::new(game::chess::START).unwrap();
    let e = game::estimate(&chess, 3, 1 << 20);
    assert_eq!((e.nodes, e.exact), (1 + 20 + 400 + 8902, true));
    // Depth 5 from the first 4 levels: 5,072,213 nodes; chess branches more as it opens.
    let e = game::estimate(&chess, 5, 1 << 18);
    assert!(!e.exact && e.counted == 4);
    assert!(
        (4_000_000..5_072_213).contains(&e.nodes),
        "{} nodes estimated",
        e.nodes
    );
}
