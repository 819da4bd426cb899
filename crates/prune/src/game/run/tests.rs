//! Tests of the lazy search (the arena is the crate's own): a game searched from its rules agrees with the same game written out: for every algorithm
//! that applies, the lazy search and the search of `game::tree` at the same depth return the
//! same value, the same statistics and the same trace, event for event, the nodes named by
//! their paths from the root (the two trees number their nodes differently: breadth first,
//! and in the order the search reached them).

use crate::game::run::{self as game_run, GameRunError};
use crate::game::{self, Game, Lazy, connect_four, nim, pig, tic_tac_toe};
use crate::search::{Algorithm, Params};
use crate::trace::Recorder;
use crate::tree::{NodeId, Nodes, Tree};

/// Node `id`'s path: its child positions from the root.
fn path<T: Nodes>(tree: &T, mut id: NodeId) -> Vec<u32> {
    let mut path = Vec::new();
    while let Some(p) = tree.parent(id) {
        path.push(id.0 - tree.child(p, 0).0);
        id = p;
    }
    path.reverse();
    path
}

/// The trace as (node path, event with its node ids blanked), comparable across numberings.
fn told<T: Nodes>(tree: &T, trace: &crate::trace::Trace) -> Vec<(Vec<u32>, String)> {
    let ids = regex_free_blank;
    trace
        .events()
        .iter()
        .map(|e| (path(tree, e.node()), ids(&format!("{:?}", e.view()))))
        .collect()
}

/// `NodeId(17)` → `NodeId(_)`.
fn regex_free_blank(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("NodeId(") {
        out.push_str(&rest[..i + 7]);
        rest = &rest[i + 7..];
        let j = rest.find(')').expect("closing parenthesis");
        out.push('_');
        rest = &rest[j..];
    }
    out.push_str(rest);
    out
}

fn algorithm(spec: &str) -> Algorithm {
    Algorithm::parse(spec, &Params::default()).expect(spec)
}

/// Checks every spec on `game` at `depth`: lazily and written out.
fn agree<G: Game>(game: &G, depth: u32, specs: &[&str]) {
    let tree: Tree = game::tree(game, Some(depth)).expect("the game's tree");
    for spec in specs {
        let algo = algorithm(spec);
        let lazy = match game_run::prepare(game, &algo, depth) {
            Ok(l) => l,
            Err(e) => panic!("{spec} on {}: {e}", game.name()),
        };
        let mut lazy_obs = Recorder::new(0);
        let (found, _) = game_run::search(&lazy, &algo, &mut lazy_obs).expect("lazy search");
        let mut stored_obs = Recorder::new(tree.len());
        let (stored, _) = crate::search::search(&tree, &algo, &mut stored_obs).expect(spec);
        let what = format!("{spec} on {} to depth {depth}", game.name());
        assert_eq!(found, stored, "{what}: value");
        let (lazy_trace, lazy_stats) = lazy_obs.finish();
        let (stored_trace, stored_stats) = stored_obs.finish();
        assert_eq!(lazy_stats, stored_stats, "{what}: statistics");
        let (a, b) = (told(&lazy, &lazy_trace), told(&tree, &stored_trace));
        if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
            panic!(
                "{what}: traces differ at event {i}: {:?} vs {:?}",
                a[i], b[i]
            );
        }
        assert_eq!(a.len(), b.len(), "{what}: trace lengths");
        assert!(
            lazy.len() <= tree.len(),
            "{what}: the lazy tree generated {} nodes, more than the game's {}",
            lazy.len(),
            tree.len()
        );
    }
}

/// The drafts of a transposition table's entries and of the history heuristic's rewards are
/// capped by the subtree's height on a stored tree, which a lazy tree cannot know before the
/// search: on games whose lines all reach the depth limit (tic-tac-toe and connect-four at the
/// depths below) the two agree; on nim, whose games end early, only the value must (below).
const TWO_PLAYER: &[&str] = &[
    "minimax",
    "alphabeta",
    "alphabeta:fail-soft",
    "negascout",
    "negascout-ab",
    "sss",
    "mtdf",
    "alphabeta:killers",
    "negascout:killers",
];

const ORDERED: &[&str] = &["alphabeta:history", "negascout:killers:history"];

#[test]
fn tic_tac_toe_agrees() {
    agree(&tic_tac_toe::TicTacToe, 4, TWO_PLAYER);
    agree(&tic_tac_toe::TicTacToe, 4, ORDERED);
    agree(
        &tic_tac_toe::TicTacToe,
        4,
        &["alphabeta:id", "negascout:id", "mtdf:id"],
    );
}

/// SSS* numbers a move in as few bits as the game's most moves take (tic-tac-toe's 9: 4 bits),
/// so it solves tic-tac-toe and nim from their rules and searches connect-four past 8 plies
/// (it stopped at 8, numbering every game's moves in 8 bits): the same trace as on the
/// written-out tree to the end of tic-tac-toe, alpha-beta's value on the others.
#[test]
fn sss_searches_as_deep_as_the_games_moves_allow() {
    agree(&tic_tac_toe::TicTacToe, 9, &["sss"]);
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let nim = nim::Nim::new(&[1, 2, 3, 4, 2], 2).unwrap();
    for (value, sss) in [
        (
            game_run::run(&c4, &algorithm("alphabeta"), 10),
            game_run::run(&c4, &algorithm("sss"), 10),
        ),
        (
            game_run::run(&nim, &algorithm("alphabeta"), u32::MAX),
            game_run::run(&nim, &algorithm("sss"), u32::MAX),
        ),
    ] {
        assert_eq!(sss.unwrap().value, value.unwrap().value);
    }
}

#[test]
fn connect_four_agrees_to_depth_6() {
    let game = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    agree(&game, 6, TWO_PLAYER);
    agree(&game, 6, ORDERED);
    agree(&game, 6, &["alphabeta:id:killers:history", "negascout:id"]);
}

#[test]
fn nim_agrees() {
    let game = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    agree(&game, 6, TWO_PLAYER);
}

#[test]
fn n_player_nim_agrees() {
    let game = nim::Nim::new(&[1, 2, 3], 3).unwrap();
    agree(&game, 6, &["maxn", "maxn-shallow", "paranoid"]);
}

#[test]
fn pig_agrees() {
    let game = pig::Pig::new(4, 2, 4).unwrap();
    agree(&game, 40, &["expectiminimax", "star1", "star2"]);
}

/// A transposition table keys its entries by position and draft. A stored tree's draft is
/// capped by the subtree's height, which a lazy tree cannot know (as are the history
/// heuristic's rewards), and a written-out tree mixes the depth into the keys of positions met
/// at several depths: the two tables hit at different times, so only the value must agree.
#[test]
fn a_transposition_table_finds_the_same_value() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let nim = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    let specs = [
        "alphabeta:tt",
        "alphabeta:tt:id",
        "negascout:tt:id:killers",
        "mtdf:tt:id",
    ];
    for spec in specs {
        same_value(&c4, spec, 5);
    }
    same_value(&nim, "alphabeta:tt", 6);
    same_value(&nim, "negascout:tt:killers", 6);
    same_value(&nim, "alphabeta:history", 6);
    same_value(&nim, "negascout:killers:history", 6);
}

fn same_value<G: Game>(game: &G, spec: &str, depth: u32) {
    let algo = algorithm(&format!("{spec}:depth={depth}"));
    let lazy = game_run::run(game, &algo, depth).expect("lazy run");
    let tree = game::tree(game, Some(depth)).unwrap();
    let stored = crate::search::run(&tree, &algo).expect("stored run");
    assert_eq!(lazy.value, stored.value, "{spec} on {}", game.name());
}

#[test]
fn a_lazy_search_generates_only_what_it_reaches() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let algo = algorithm("alphabeta");
    let lazy: Lazy<'_, _> = game_run::prepare(&c4, &algo, 6).unwrap();
    game_run::search(&lazy, &algo, &mut crate::search::Quiet).unwrap();
    let whole = game::count(&c4, Some(6), u64::MAX).unwrap() as usize;
    // Alpha-beta reaches a small share of the 137,257 positions six moves deep.
    assert!(lazy.len() * 4 < whole, "{} of {whole}", lazy.len());
    assert!(
        lazy.waiting() > 0,
        "pruned children keep their positions, unexpanded"
    );
}

#[test]
fn a_game_search_names_its_move() {
    let game = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    let run = game_run::run(&game, &algorithm("alphabeta"), 6).unwrap();
    // 1 ^ 2 ^ 3 = 0: the first player loses whatever it does, and every move is worth −1.
    assert_eq!(run.value.scalar(), Some(-1.0));
    assert_eq!(run.best.map(|(i, _)| i), Some(0));
    let game = nim::Nim::new(&[1, 2, 4], 2).unwrap();
    let run = game_run::run(&game, &algorithm("alphabeta"), 7).unwrap();
    assert_eq!(run.value.scalar(), Some(1.0));
    let (_, label) = run.best.expect("a winning move");
    assert!(
        label.contains("heap 3"),
        "take from the heap of 4 to leave 1 ^ 2 ^ 3: {label}"
    );
}

#[test]
fn refusals_say_why() {
    fn refused<G: Game>(game: &G, spec: &str, depth: u32) -> String {
        match game_run::run(game, &algorithm(spec), depth) {
            Err(GameRunError::Refused(why)) => why,
            other => panic!("{spec}: {other:?}"),
        }
    }
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    assert!(refused(&c4, "product", 2).contains("not built yet"));
    // Connect-four's 7 moves a position take 3 bits: 21 plies in 64; chess's 8 bits, 8 plies.
    assert!(refused(&c4, "sss", 22).contains("at most 21 plies"));
    let chess = crate::game::chess::Chess::default();
    assert!(refused(&chess, "sss", 9).contains("at most 8 plies"));
    let pig = pig::Pig::new(4, 2, 4).unwrap();
    // Pig's first position is a decision: its chance positions show up during the search.
    match game_run::run(&pig, &algorithm("alphabeta"), 40) {
        Err(GameRunError::Game(e)) => assert!(e.to_string().contains("chance"), "{e}"),
        other => panic!("{other:?}"),
    }
    let nim3 = nim::Nim::new(&[1, 2], 3).unwrap();
    assert!(refused(&nim3, "alphabeta", 4).contains("3 players"));
}

/// Nim's games last at most 6 moves (it says so: `Game::longest`), so a horizon of 3 is
/// refused before the search.
#[test]
fn a_game_without_a_heuristic_must_be_over_at_the_horizon() {
    let nim = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    match game_run::run(&nim, &algorithm("minimax"), 3) {
        Err(GameRunError::Refused(why)) => assert!(why.contains("no heuristic value"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// Lazy SMP (`run_threads`): on every game, at several depths (tic-tac-toe and nim to the
/// end; nim has only its end), 2 and 4 threads return the serial search's value, a best move among the moves tied
/// for the best, and statistics that add up (summed over the threads). Threads race, so each
/// case runs three times. Pig's chance positions stop the walk: the parallel run says what
/// the serial one says.
#[test]
fn lazy_smp_finds_the_serial_value() {
    let ttt = tic_tac_toe::TicTacToe;
    let nims = [
        nim::Nim::new(&[1, 2, 4], 2).unwrap(),
        nim::Nim::new(&[2, 2, 3], 2).unwrap(),
    ];
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let chess = game::chess::Chess::new(game::chess::START).unwrap();
    let ending = game::chess::Chess::new("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1").unwrap();
    let specs = [
        "alphabeta:tt",
        "alphabeta:fail-soft:tt:id",
        "alphabeta:tt:id:killers:history",
        "negascout:tt:id:killers",
        "mtdf:tt:id",
        "alphabeta:tt:id:aspiration=1",
    ];
    let mut ran = 0;
    for spec in specs {
        for depth in [3, 5, 9] {
            ran += usize::from(same_in_parallel(&ttt, spec, depth));
        }
        for nim in &nims {
            // To the end: nim has no heuristic value for iterative deepening to stop at.
            ran += usize::from(same_in_parallel(nim, spec, 7));
        }
        for depth in [4, 7] {
            ran += usize::from(same_in_parallel(&c4, spec, depth));
        }
        for depth in [2, 3] {
            ran += usize::from(same_in_parallel(&chess, spec, depth));
        }
        // Few pieces, moving back and forth: positions met again two plies deeper, where a
        // deeper entry's value would differ from the fixed-depth one.
        ran += usize::from(same_in_parallel(&ending, spec, 6));
    }
    // Every case but iterative deepening on nim (5 of the specs, 2 heaps each).
    assert_eq!(ran, specs.len() * 10 - 10);
    let pig = pig::Pig::new(4, 2, 4).unwrap();
    let algo = algorithm("alphabeta:tt");
    let serial = game_run::run(&pig, &algo, 40).map(|r| r.value);
    let parallel = game_run::run_threads(&pig, &algo, 40, 2, 1.0, None).map(|r| r.value);
    assert!(serial.is_err(), "pig has chance positions");
    assert_eq!(
        serial.map_err(|e| e.to_string()),
        parallel.map_err(|e| e.to_string())
    );
}

/// Whether the parallel runs of `spec` agree with the serial run; `false` when the serial run is
/// refused (iterative deepening on nim), and the parallel ones are refused alike.
fn same_in_parallel<G: Game + Sync>(game: &G, spec: &str, depth: u32) -> bool {
    let algo = algorithm(spec);
    let serial = match game_run::run(game, &algo, depth) {
        Ok(run) => run,
        Err(why) => {
            let parallel = game_run::run_threads(game, &algo, depth, 2, 1.0, None);
            assert_eq!(parallel.map(|_| ()), Err(why), "{spec}");
            return false;
        }
    };
    let tied = game::best::principal(game, &algo, depth)
        .expect("best moves")
        .best_moves;
    for threads in [2, 4] {
        for _ in 0..3 {
            let what = format!(
                "{spec} on {} to depth {depth}, {threads} threads",
                game.name()
            );
            let run = game_run::run_threads(game, &algo, depth, threads, 1.0, None).expect(&what);
            assert_eq!(run.value, serial.value, "{what}: value");
            assert_eq!(run.bound, serial.bound, "{what}: bound");
            let best = run.best.expect("a best move");
            assert!(tied.contains(&best), "{what}: {best:?} not among {tied:?}");
            let s = &run.stats;
            assert_eq!(s.nodes, s.interior + s.leaves, "{what}: nodes");
            if !s.iteration_nodes.is_empty() {
                assert_eq!(s.iteration_nodes.iter().sum::<u64>(), s.nodes, "{what}");
            }
        }
    }
    true
}

/// `--threads` applies to the walked searches with a table only, and says so.
#[test]
fn lazy_smp_needs_a_walked_search_with_a_table() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    for spec in [
        "alphabeta",
        "alphabeta:killers",
        "sss",
        "negascout:id",
        "mtdf",
    ] {
        match game_run::run_threads(&c4, &algorithm(spec), 3, 2, 1.0, None) {
            Err(GameRunError::Refused(why)) => assert!(why.contains("--tt"), "{spec}: {why}"),
            other => panic!("{spec}: {other:?}"),
        }
        // One thread is the serial search, whatever the algorithm.
        assert!(game_run::run_threads(&c4, &algorithm(spec), 3, 1, 1.0, None).is_ok());
    }
}
