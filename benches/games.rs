//! Games searched from their rules (issue 26): connect-four from the empty board to depth 12
//! with alpha-beta and the improvements, and chess to depth 5 from the start, generating
//! positions as the search reaches them.
//!
//! `cargo bench --bench games`. Throughput is per node generated, so criterion prints
//! generated nodes/s; before the timed runs each search is run once and its size printed:
//! nodes generated, the nodes the search visited, and the lazy tree's bytes per generated node.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prune::game::connect_four::{ConnectFour, Moves};
use prune::game::run::{prepare, search};
use prune::game::{Game, chess::Chess};
use prune::search::{Algorithm, Counter, Params};
use prune::tree::Nodes;

#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

fn bench_game<G: Game>(c: &mut Criterion, group: &str, game: &G, depth: u32, specs: &[&str]) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for spec in specs {
        let algo = Algorithm::parse(spec, &Params::default()).expect(spec);
        let lazy = prepare(game, &algo, depth).expect("applicable");
        let mut counter = Counter::new(0);
        search(&lazy, &algo, &mut counter).expect("the game keeps its rules");
        let stats = counter.finish();
        eprintln!(
            "{group} {spec}: {} nodes generated, {} visited, {:.1} bytes a generated node",
            lazy.len(),
            stats.nodes,
            lazy.bytes() as f64 / lazy.len() as f64
        );
        g.throughput(Throughput::Elements(lazy.len() as u64));
        g.bench_function(*spec, |b| {
            b.iter(|| {
                let lazy = prepare(game, &algo, depth).expect("applicable");
                let mut counter = Counter::new(0);
                black_box(search(&lazy, &algo, &mut counter).expect("rules kept"));
                black_box(counter.finish())
            })
        });
    }
    g.finish();
}

fn games(c: &mut Criterion) {
    let c4 = ConnectFour::new(&Moves::NONE).expect("the empty board");
    bench_game(
        c,
        "connect-four depth 12",
        &c4,
        12,
        &["alphabeta:tt:id", "alphabeta:tt:id:killers:history"],
    );
    let chess = Chess::new(prune::game::chess::START).expect("the start position");
    bench_game(
        c,
        "chess depth 5",
        &chess,
        5,
        &["alphabeta:tt:id:killers:history"],
    );
}

criterion_group!(benches, games);
criterion_main!(benches);
