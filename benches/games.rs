//! Games searched from their rules, beside the peers that set the pace: connect-four from the
//! empty board to depth 12 with alpha-beta, a transposition table and iterative deepening (with
//! and without killers and history) beside the `minimax` crate's `IterativeSearch` on its own
//! connect-four example; and chess minimax from the start to depth 5 beside cozy-chess
//! generating and playing every move to depth 5 (the move generator prune's chess uses), and
//! the same from Kiwipete, a middle game of captures and special moves, to depth 4.
//!
//! `cargo bench --bench games` prints one table from one run: for each search the best wall
//! time of three runs, the nodes it visited (prune: `stats.nodes`, interior nodes entered plus
//! leaves evaluated; the crate: its own count of nodes explored; cozy-chess: positions made, the
//! start included), nodes per second, and the most heap it held at once. prune's searches run
//! both ways: walked (`prune::game::run::run`, depth first over positions, keeping the path and
//! the table) and on the lazy tree (`run_lazy`, every node generated kept, as a recorded search
//! is), which must agree on the value and statistics (checked here too).
//!
//! The two goals of the table: connect-four walked no slower than the crate; chess minimax
//! walked within 3× of cozy-chess. `PRUNE_BENCH_DEEP=1` adds the deep rows (chess alpha-beta
//! + tt + id + killers + history to depth 8, connect-four to depth 16), one run each.

#[path = "peer_connect4/mod.rs"]
mod peer_connect4;

use std::hint::black_box;
use std::time::Instant;

use cozy_chess::Board;
use minimax::{IterativeOptions, IterativeSearch, Strategy};
use prune::game::chess::Chess;
use prune::game::connect_four::{ConnectFour, Moves};
use prune::game::run::{GameRun, run, run_lazy};
use prune::memory::peak_during;
use prune::search::{Algorithm, Params};

#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

/// One row: what was searched, by whom, best seconds, nodes, peak heap bytes.
struct Row {
    work: String,
    who: String,
    seconds: f64,
    nodes: u64,
    peak: u64,
}

/// The best of `runs` runs of `f` (which returns its node count), and the peak heap of the
/// first.
fn measure(runs: usize, mut f: impl FnMut() -> u64) -> (f64, u64, u64) {
    let start = Instant::now();
    let (nodes, peak) = peak_during(&mut f);
    let mut best = start.elapsed().as_secs_f64();
    for _ in 1..runs {
        let start = Instant::now();
        black_box(f());
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best, nodes, peak)
}

fn algorithm(spec: &str) -> Algorithm {
    Algorithm::parse(spec, &Params::default()).expect(spec)
}

/// prune's search of `game` by `spec` to `depth`, walked and on the lazy tree; both rows.
fn prune_rows<G: prune::game::Game>(
    rows: &mut Vec<Row>,
    work: &str,
    game: &G,
    spec: &str,
    depth: u32,
    runs: usize,
    lazy_too: bool,
) {
    let algo = algorithm(spec);
    let mut walked: Option<GameRun> = None;
    let (seconds, nodes, peak) = measure(runs, || {
        let r = run(game, &algo, depth).expect("the search runs");
        let n = r.stats.nodes;
        walked = Some(r);
        n
    });
    let walked = walked.expect("ran");
    rows.push(Row {
        work: work.into(),
        who: format!("prune {spec} (walked)"),
        seconds,
        nodes,
        peak,
    });
    if lazy_too {
        let mut lazy: Option<GameRun> = None;
        let (seconds, nodes, peak) = measure(runs, || {
            let r = run_lazy(game, &algo, depth).expect("the search runs");
            let n = r.stats.nodes;
            lazy = Some(r);
            n
        });
        let lazy = lazy.expect("ran");
        assert_eq!(
            (&walked.value, &walked.stats, &walked.best),
            (&lazy.value, &lazy.stats, &lazy.best),
            "{spec}: walked and lazy agree"
        );
        rows.push(Row {
            work: work.into(),
            who: format!("prune {spec} (lazy tree)"),
            seconds,
            nodes,
            peak,
        });
    }
}

/// The `minimax` crate's `IterativeSearch` as its connect-four example sets it up for its
/// depth-12 player (a 64 MB table, double-step deepening, aspiration window 5), from the empty
/// board to `depth`; nodes explored.
fn crate_connect_four(depth: u8) -> u64 {
    let opts = IterativeOptions::new()
        .with_table_byte_size(64_000_000)
        .with_double_step_increment()
        .with_aspiration_window(5);
    let mut search = IterativeSearch::new(peer_connect4::BasicEvaluator, opts);
    search.set_max_depth(depth);
    let mut board = peer_connect4::Board::default();
    black_box(search.choose_move(&board));
    // "Explored N nodes to depth D…": the crate's count, from its statistics line.
    let stats = search.stats(&mut board);
    stats
        .split("Explored ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the crate's statistics name the nodes explored")
}

/// cozy-chess generating and playing every move to `depth` (copy-make, as prune's chess
/// does); positions made, the start included.
fn cozy_tree(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 1;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            n += cozy_tree(&next, depth - 1);
        }
        false
    });
    n
}

/// The row of cozy-chess generating and playing every move from `board` to `depth`.
fn cozy_row(rows: &mut Vec<Row>, work: &str, board: &Board, depth: u32) {
    let (seconds, nodes, peak) = measure(3, || cozy_tree(board, depth));
    rows.push(Row {
        work: work.into(),
        who: "cozy-chess generate + play every move".into(),
        seconds,
        nodes,
        peak,
    });
}

fn main() {
    let deep = std::env::var_os("PRUNE_BENCH_DEEP").is_some();
    let mut rows = Vec::new();
    let c4 = ConnectFour::new(&Moves::NONE).expect("the empty board");
    let work = "connect-four, empty board, depth 12";
    for spec in ["alphabeta:tt:id", "alphabeta:tt:id:killers:history"] {
        prune_rows(&mut rows, work, &c4, spec, 12, 3, true);
    }
    let (seconds, nodes, peak) = measure(3, || crate_connect_four(12));
    rows.push(Row {
        work: work.into(),
        who: "minimax crate IterativeSearch (its connect-four example)".into(),
        seconds,
        nodes,
        peak,
    });
    let chess = Chess::default();
    let work = "chess, start, depth 5, every leaf";
    prune_rows(&mut rows, work, &chess, "minimax", 5, 3, true);
    cozy_row(&mut rows, work, &Board::default(), 5);
    // A middle game rich in captures, checks, castling and promotions in reach ("Kiwipete"),
    // where more moves change the evaluation than at the start.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let work = "chess, Kiwipete, depth 4, every leaf";
    prune_rows(
        &mut rows,
        work,
        &Chess::new(kiwipete).expect("a position"),
        "minimax",
        4,
        3,
        false,
    );
    let board = Board::from_fen(kiwipete, false).expect("a position");
    cozy_row(&mut rows, work, &board, 4);
    if deep {
        let spec = "alphabeta:tt:id:killers:history";
        prune_rows(
            &mut rows,
            "chess, start, depth 8",
            &chess,
            spec,
            8,
            1,
            false,
        );
        prune_rows(&mut rows, "connect-four, depth 16", &c4, spec, 16, 1, false);
    }
    println!(
        "{:<36} {:<58} {:>9} {:>12} {:>13} {:>10}",
        "work", "search", "seconds", "nodes", "nodes/s", "peak MB"
    );
    for r in &rows {
        println!(
            "{:<36} {:<58} {:>9.3} {:>12} {:>13.0} {:>10.2}",
            r.work,
            r.who,
            r.seconds,
            r.nodes,
            r.nodes as f64 / r.seconds,
            r.peak as f64 / 1e6
        );
    }
}
