//! Games searched from their rules (issue 26): connect-four from the empty board to depth 12
//! with alpha-beta and the improvements, and chess to depth 5 from the start, generating
//! positions as the search reaches them.
//!
//! `cargo bench --bench games`. Throughput is per node generated, so criterion prints
//! generated nodes/s; before the timed runs each search is run once and its size printed:
//! nodes generated and the nodes the search visited.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prune::game::connect_four::{ConnectFour, Moves};
use prune::game::run::run;
use prune::game::{Game, chess::Chess};
use prune::search::{Algorithm, Params};

#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

fn bench_game<G: Game>(c: &mut Criterion, group: &str, game: &G, depth: u32, specs: &[&str]) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for spec in specs {
        let algo = Algorithm::parse(spec, &Params::default()).expect(spec);
        let once = run(game, &algo, depth).expect("applicable, and the game keeps its rules");
        eprintln!(
            "{group} {spec}: {} nodes generated, {} visited",
            once.generated, once.stats.nodes,
        );
        g.throughput(Throughput::Elements(once.generated as u64));
        g.bench_function(*spec, |b| {
            b.iter(|| black_box(run(game, &algo, depth).expect("rules kept")))
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
