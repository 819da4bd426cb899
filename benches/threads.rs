//! Lazy SMP (`--threads N`, `prune::game::run::run_threads`): the speed-up at 2 threads and the
//! node overhead, as the `minimax` crate's `ParallelSearch` reports its own (threads, time,
//! nodes, nodes/s), on connect-four from the empty board to depth 12 and chess from the start
//! to depth 6, alpha-beta + tt + id + killers + history; the crate's `ParallelSearch` on its
//! connect-four example beside, at 1 and 2 threads (its node count is printed only on its
//! verbose stderr, so the time alone).
//!
//! `cargo bench --bench threads` prints, for each search and thread count, the best wall time
//! of `PRUNE_BENCH_RUNS` runs (default 3), the nodes (summed over the threads), nodes per
//! second, the speed-up (serial time / this time) and the overhead (nodes / serial nodes).
//! Each parallel value is checked against the serial one. Threads race: node counts vary from
//! run to run; the row shows the fastest run's.

#[path = "peer_connect4/mod.rs"]
mod peer_connect4;

use std::hint::black_box;
use std::time::Instant;

use minimax::{IterativeOptions, ParallelOptions, ParallelSearch, Strategy};
use prune::game::Game;
use prune::game::chess::Chess;
use prune::game::connect_four::{ConnectFour, Moves};
use prune::game::run::run_threads;
use prune::search::{Algorithm, Params};

struct Row {
    work: &'static str,
    who: String,
    threads: usize,
    seconds: f64,
    nodes: Option<u64>,
}

/// The fastest of `runs` runs of `f`, which returns its nodes.
fn best_of(runs: usize, mut f: impl FnMut() -> Option<u64>) -> (f64, Option<u64>) {
    let mut best = (f64::INFINITY, None);
    for _ in 0..runs {
        let start = Instant::now();
        let nodes = black_box(f());
        let s = start.elapsed().as_secs_f64();
        if s < best.0 {
            best = (s, nodes);
        }
    }
    best
}

fn prune_rows<G: Game + Sync>(
    rows: &mut Vec<Row>,
    work: &'static str,
    game: &G,
    depth: u32,
    runs: usize,
) {
    let spec = "alphabeta:tt:id:killers:history";
    let algo = Algorithm::parse(spec, &Params::default()).expect(spec);
    let mut value = None;
    for threads in [1, 2] {
        let (seconds, nodes) = best_of(runs, || {
            let r = run_threads(game, &algo, depth, threads, 1.0, None).expect("the search runs");
            match &value {
                None => value = Some(r.value.clone()),
                Some(v) => assert_eq!(&r.value, v, "{work}: {threads} threads, the serial value"),
            }
            Some(r.stats.nodes)
        });
        rows.push(Row {
            work,
            who: format!("prune {spec}"),
            threads,
            seconds,
            nodes,
        });
    }
}

/// The crate's `ParallelSearch` set up as its connect-four example's `IterativeSearch` (a 64 MB
/// table, double-step deepening, aspiration window 5), to depth 12.
fn crate_rows(rows: &mut Vec<Row>, work: &'static str, runs: usize) {
    for threads in [1, 2] {
        let (seconds, nodes) = best_of(runs, || {
            let opts = IterativeOptions::new()
                .with_table_byte_size(64_000_000)
                .with_double_step_increment()
                .with_aspiration_window(5);
            let par = ParallelOptions::new().with_num_threads(threads);
            let mut search = ParallelSearch::new(peer_connect4::BasicEvaluator, opts, par);
            search.set_max_depth(12);
            black_box(search.choose_move(&peer_connect4::Board::default()));
            None
        });
        rows.push(Row {
            work,
            who: "minimax crate ParallelSearch (its connect-four example)".into(),
            threads,
            seconds,
            nodes,
        });
    }
}

fn main() {
    let runs = std::env::var("PRUNE_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let mut rows = Vec::new();
    let c4 = ConnectFour::new(&Moves::NONE).expect("the empty board");
    prune_rows(&mut rows, "connect-four, depth 12", &c4, 12, runs);
    crate_rows(&mut rows, "connect-four, depth 12", runs);
    prune_rows(
        &mut rows,
        "chess, start, depth 6",
        &Chess::default(),
        6,
        runs,
    );
    println!(
        "{:<24} {:<56} {:>7} {:>9} {:>12} {:>12} {:>9} {:>9}",
        "work", "search", "threads", "seconds", "nodes", "nodes/s", "speed-up", "overhead"
    );
    for (i, r) in rows.iter().enumerate() {
        // The serial row of the same search: the one before a 2-thread row.
        let serial = if r.threads == 1 { r } else { &rows[i - 1] };
        let overhead = match (r.nodes, serial.nodes) {
            (Some(n), Some(s)) => format!("{:.2}", n as f64 / s as f64),
            _ => "—".into(),
        };
        println!(
            "{:<24} {:<56} {:>7} {:>9.3} {:>12} {:>12} {:>9.2} {:>9}",
            r.work,
            r.who,
            r.threads,
            r.seconds,
            r.nodes.map_or("—".into(), |n| n.to_string()),
            r.nodes
                .map_or("—".into(), |n| format!("{:.0}", n as f64 / r.seconds)),
            serial.seconds / r.seconds,
            overhead
        );
    }
}
