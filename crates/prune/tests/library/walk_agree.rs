//! A game searched by the walk (depth first over positions, keeping only the path) and on the
//! lazy tree (every node kept, as a recorded search) finds the same value, statistics and best
//! move: on every built-in game, with every algorithm the walk takes, at several depths. Where
//! the game breaks a rule for the algorithm (a chance position, no heuristic at the horizon),
//! both report the same error.

use prune::game::run::{self as game_run, GameRun, GameRunError, run_lazy, walks};
use prune::game::{Game, chess::Chess, connect_four, nim::Nim, pig::Pig, tic_tac_toe::TicTacToe};
use prune::search::{Algorithm, Params};

/// Every algorithm the walk takes, plain and improved (`W`: the aspiration half-width).
const WALKED: &[&str] = &[
    "minimax",
    "alphabeta",
    "alphabeta:fail-soft",
    "negascout",
    "negascout-ab",
    "alphabeta:tt",
    "alphabeta:fail-soft:tt",
    "alphabeta:killers",
    "alphabeta:history",
    "alphabeta:tt:killers:history",
    "alphabeta:tt:id",
    "alphabeta:tt:id:aspiration=W",
    "alphabeta:tt:id:killers:history",
    "alphabeta:tt:id:aspiration=W:killers:history",
    "negascout:tt",
    "negascout:killers:history",
    "negascout:tt:id",
    "negascout:tt:id:aspiration=W:killers:history",
    "mtdf:tt",
    "mtdf:tt:id",
    "mt-sss:tt",
];

fn algorithm(spec: &str, w: f64) -> Algorithm {
    let spec = spec.replace('W', &w.to_string());
    Algorithm::parse(&spec, &Params::default()).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// What a run says, the time and the positions generated aside.
fn said(r: Result<GameRun, GameRunError>) -> Result<String, GameRunError> {
    r.map(|run| {
        format!(
            "{} {:?} {:?} {:?}",
            run.value, run.bound, run.stats, run.best
        )
    })
}

fn agree<G: Game>(game: &G, depths: &[u32], w: f64) {
    agree_on(game, WALKED, depths, w);
}

fn agree_on<G: Game>(game: &G, specs: &[&str], depths: &[u32], w: f64) {
    for spec in specs {
        let algo = algorithm(spec, w);
        assert!(walks(&algo), "{spec} is walked");
        for &depth in depths {
            let walked = said(game_run::run(game, &algo, depth));
            let lazy = said(run_lazy(game, &algo, depth));
            assert_eq!(walked, lazy, "{spec} on {} to depth {depth}", game.name());
        }
    }
}

#[test]
fn tic_tac_toe_to_every_depth() {
    agree(&TicTacToe, &[1, 2, 3, 4, 5, 9], 3.0);
}

#[test]
fn connect_four_from_the_empty_board_and_a_midgame() {
    let empty = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    agree(&empty, &[1, 2, 3, 5, 6], 10.0);
    // Wins and losses a few moves ahead: leaves where the game is over, before the horizon.
    let moves = connect_four::Moves::parse("4453344").unwrap();
    let mid = connect_four::ConnectFour::new(&moves).unwrap();
    agree(&mid, &[2, 4, 6], 10.0);
}

#[test]
fn chess_from_the_start_and_a_mate_in_two() {
    agree(&Chess::default(), &[1, 2, 3], 50.0);
    // Mates and draws before the horizon.
    let mate =
        Chess::new("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
    agree(&mate, &[1, 2, 3], 50.0);
}

/// The plain searches, which search a game that breaks a rule to the end on the lazy tree
/// (the improved ones stop there, on a node it turned into a leaf).
const PLAIN: &[&str] = &[
    "minimax",
    "alphabeta",
    "alphabeta:fail-soft",
    "negascout",
    "negascout-ab",
];

#[test]
fn nim_to_the_end_and_short_of_it() {
    let nim = Nim::new(&[1, 2, 3], 2).unwrap();
    agree(&nim, &[6, 7], 1.0);
    // Nim has no heuristic: short of the end both ways report it alike.
    agree_on(&nim, PLAIN, &[2, 3], 1.0);
}

#[test]
fn pig_breaks_the_two_player_rule_alike() {
    // Chance positions deep in the game: the walk stops and the lazy tree reports them.
    let pig = Pig::new(4, 2, 4).unwrap();
    agree_on(&pig, PLAIN, &[3, 6], 1.0);
}

/// Iterative deepening without a table remembers every node's best move; plain MTD(f) a bound
/// pair for every node: both stay on the lazy tree, and `run` gives what it did.
#[test]
fn node_keyed_memories_stay_on_the_lazy_tree() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    for spec in [
        "mtdf",
        "alphabeta:id",
        "negascout:id:killers",
        "sss",
        "mtdf:id",
    ] {
        let algo = algorithm(spec, 1.0);
        assert!(!walks(&algo), "{spec}");
        let run = game_run::run(&c4, &algo, 4).unwrap();
        let lazy = run_lazy(&c4, &algo, 4).unwrap();
        assert_eq!(
            run.generated, lazy.generated,
            "{spec}: the lazy tree's count"
        );
    }
}

/// A walked search reports as it goes: nodes growing, the depth of each iteration, the best move
/// of the last depth finished; and it finds what it finds without reports.
#[test]
fn a_walk_reports_its_progress() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let algo = algorithm("alphabeta:tt:id:killers:history", 1.0);
    let mut reports = Vec::new();
    let run =
        game_run::run_reporting(&c4, &algo, 12, 0.0, &mut |r| reports.push(r.clone())).unwrap();
    assert_eq!(said(Ok(run.clone())), said(game_run::run(&c4, &algo, 12)));
    // A report every 2^16 visits.
    assert_eq!(reports.len() as u64, run.stats.nodes >> 16, "{reports:?}");
    assert!(
        reports
            .windows(2)
            .all(|w| w[0].nodes < w[1].nodes && w[0].depth <= w[1].depth)
    );
    let last = reports.last().expect("reports");
    assert!(last.depth > 1 && last.depth <= 12);
    assert!(
        last.best
            .as_deref()
            .is_some_and(|b| b.starts_with("drop col")),
        "{last:?}"
    );
}

/// With Lazy SMP the reports count every thread's visits: the main thread reports at each 2^16
/// of its own, and the helpers' count is added to it.
#[test]
fn a_parallel_walk_reports_every_threads_visits() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let algo = algorithm("alphabeta:tt:id", 1.0);
    let mut reports = Vec::new();
    let run = game_run::run_threads(
        &c4,
        &algo,
        12,
        2,
        0.0,
        Some(&mut |r: &game_run::Report| reports.push(r.clone())),
    )
    .unwrap();
    assert!(!reports.is_empty());
    // Report k comes at the main thread's (k + 1)·2^16th visit; a helper searching the same
    // iterations beside it has passed 2^16 visits of its own long before the search ends.
    let main = |k: usize| (k as u64 + 1) << 16;
    assert!(
        reports.iter().enumerate().all(|(k, r)| r.nodes >= main(k)),
        "{reports:?}"
    );
    assert!(
        reports.iter().enumerate().any(|(k, r)| r.nodes > main(k)),
        "no report counted the helper: {reports:?}"
    );
    assert!(reports.iter().all(|r| r.nodes <= run.stats.nodes));
}

/// Searches of the lazy tree report as walks do — a search the walk does not take (plain
/// MTD(f)), and a recorded one — one report for each 2^16 visits, the nodes growing, at the
/// horizon's depth; and they find what they find without reports.
#[test]
fn searches_of_the_lazy_tree_report_their_progress() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let check = |reports: &[game_run::Report], nodes: u64| {
        assert!(!reports.is_empty());
        assert_eq!(reports.len() as u64, nodes >> 16, "{reports:?}");
        assert!(reports.windows(2).all(|w| w[0].nodes < w[1].nodes));
        assert!(reports.iter().all(|r| r.depth == 8 && r.best.is_none()));
    };
    let mtdf = algorithm("mtdf", 1.0);
    assert!(!walks(&mtdf));
    let mut reports = Vec::new();
    let run =
        game_run::run_reporting(&c4, &mtdf, 8, 0.0, &mut |r| reports.push(r.clone())).unwrap();
    assert_eq!(said(Ok(run.clone())), said(game_run::run(&c4, &mtdf, 8)));
    check(&reports, run.stats.nodes);

    let algos = [algorithm("alphabeta", 1.0), algorithm("negascout", 1.0)];
    let mut told: Vec<(String, game_run::Report)> = Vec::new();
    let recorded = game_run::record_reporting(&c4, &algos, 8, 0.0, &mut |a, r| {
        told.push((a.label(), r.clone()))
    })
    .unwrap();
    let silent = game_run::record(&c4, &algos, 8).unwrap();
    for (algo, run) in &recorded.runs {
        let (run, _) = run.as_ref().unwrap();
        let quiet = silent.runs.iter().find(|(a, _)| a == algo).unwrap();
        assert_eq!(run.stats, quiet.1.as_ref().unwrap().0.stats);
        let mine: Vec<_> = told
            .iter()
            .filter(|(a, _)| *a == algo.label())
            .map(|(_, r)| r.clone())
            .collect();
        check(&mine, run.stats.nodes);
    }
}
