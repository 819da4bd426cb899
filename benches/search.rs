//! Search speed (issue 3 targets: a stats-only alpha-beta or minimax run at ≥ 10^8 nodes/s on a
//! 10^7-leaf uniform tree; a traced run at ≥ 2·10^7 events/s; replay to any step of a 10^7-event
//! trace in ≤ 50 ms).
//!
//! `cargo bench --bench search`. Throughput is reported per node visit (or per event), so
//! criterion prints nodes/s directly.

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prune::generate::chance::{self, ChanceTree};
use prune::generate::star::{self, StarComplete, StarOrder};
use prune::generate::{Values, uniform};
use prune::search::{self, Algorithm, Counter, Quiet};
use prune::trace::{Recorder, Replay, StepIndex};
use prune::tree::Tree;

/// The binary's allocator (huge pages, as the measured runs of `prune` have them).
#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

/// Visits of one stats-only run: the throughput unit of every group.
fn visits(tree: &Tree, algo: &Algorithm) -> u64 {
    search::run(tree, algo).expect("applicable").stats.nodes
}

fn bench_stats_only(c: &mut Criterion, group: &str, tree: &Tree, algos: &[Algorithm]) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for algo in algos {
        g.throughput(Throughput::Elements(visits(tree, algo)));
        // The statistics-only search `prune run` makes (without the reference pass that finds
        // every best move), and the bare search for comparison.
        g.bench_function(format!("{} stats", algo.label()), |b| {
            b.iter(|| {
                let mut counter = Counter::new(tree.len());
                black_box(search::search(tree, algo, &mut counter).expect("applicable"));
                black_box(counter.finish())
            })
        });
        g.bench_function(format!("{} quiet", algo.label()), |b| {
            b.iter(|| black_box(search::search(tree, algo, &mut Quiet).expect("applicable")))
        });
    }
    g.finish();
}

fn two_player(c: &mut Criterion) {
    let random = common::uniform_1e7(uniform::Order::Random);
    bench_stats_only(
        c,
        "uniform 1e7 leaves random order",
        &random,
        &[
            Algorithm::Minimax,
            Algorithm::AlphaBeta { fail_soft: false },
            Algorithm::AlphaBeta { fail_soft: true },
            Algorithm::NegaScout,
            Algorithm::Sss,
            Algorithm::MT_SSS,
            Algorithm::Mtdf { guess: None },
            Algorithm::Expectiminimax,
        ],
    );
}

fn chance_trees(c: &mut Criterion) {
    let p = ChanceTree {
        branching: 6,
        chance_branching: 6,
        depth: 4,
        values: Values::integers(-100, 100),
        uneven: true,
        irregular: false,
    };
    let tree = chance::generate(&p, 3).expect("generate");
    bench_stats_only(
        c,
        "chance tree b=6 d=4 uneven",
        &tree,
        &[
            Algorithm::Expectiminimax,
            Algorithm::Star1 { rightmost: false },
            Algorithm::Star2 {
                probes: 1,
                probe_always: false,
                rightmost: false,
            },
        ],
    );
    let p = StarComplete {
        branching: 10,
        depth: 3,
        order: StarOrder::Random,
        critical: false,
        labels: false,
    };
    let tree = star::generate(&p, 3).expect("generate");
    bench_stats_only(
        c,
        "star-complete N=10 D=3 random",
        &tree,
        &[
            Algorithm::Expectiminimax,
            Algorithm::Star1 { rightmost: false },
            Algorithm::Star2 {
                probes: 1,
                probe_always: false,
                rightmost: false,
            },
        ],
    );
}

fn traced(c: &mut Criterion) {
    let tree = common::uniform_1e7(uniform::Order::Random);
    // Minimax records every node twice (22·10^6 events), alpha-beta what it visits.
    for algo in [
        Algorithm::Minimax,
        Algorithm::AlphaBeta { fail_soft: false },
    ] {
        let record = || {
            let mut rec = Recorder::new(tree.len());
            search::search(&tree, &algo, &mut rec).expect("applicable");
            rec.finish().0
        };
        let trace = record();
        let mut g = c.benchmark_group(format!("trace {} uniform 1e7 leaves", algo.label()));
        g.sample_size(10).measurement_time(Duration::from_secs(15));
        g.throughput(Throughput::Elements(trace.len() as u64));
        g.bench_function("record", |b| b.iter(|| black_box(record())));
        g.bench_function("index", |b| {
            b.iter(|| black_box(StepIndex::new(&tree, &trace)))
        });
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        // What the explorer asks at a step: the 60 outline rows on screen, here consecutive
        // rows from the middle of the tree, at steps spread over the whole trace (forwards and
        // backwards cost the same).
        let rows: Vec<_> = tree.preorder().skip(tree.len() / 2).take(60).collect();
        let steps: Vec<usize> = (0..16)
            .map(|i| (i * 7919 * trace.len() / 16) % trace.len())
            .collect();
        g.throughput(Throughput::Elements(steps.len() as u64));
        g.bench_function("60 rows at 16 steps", |b| {
            b.iter(|| {
                for &k in &steps {
                    for &row in &rows {
                        black_box(replay.state(row, k));
                    }
                }
            })
        });
        g.finish();
        eprintln!(
            "{}: {} events for {} nodes",
            algo.label(),
            trace.len(),
            tree.len()
        );
    }
}

/// The same searches on a tree that fits in the caches (10^5 leaves), for the cost of a visit
/// when memory latency is out of the picture.
fn in_cache(c: &mut Criterion) {
    let p = uniform::Uniform {
        branching: 10,
        depth: 5,
        values: Values::integers(0, 999),
        order: uniform::Order::Random,
    };
    let tree = uniform::generate(&p, 7).expect("generate");
    bench_stats_only(
        c,
        "uniform 1e5 leaves random order",
        &tree,
        &[
            Algorithm::Minimax,
            Algorithm::AlphaBeta { fail_soft: false },
            Algorithm::NegaScout,
        ],
    );
}

criterion_group!(benches, two_player, in_cache, chance_trees, traced);
criterion_main!(benches);
