//! Experiment speed (issue target: all of `ballard-average` — 1000 trees × 8 sizes, Star1,
//! Star2 and 2-probe Star2 — in ≤ 5 s on 2 cores; issue 30: the row
//! `ballard-average --trials 1000 --seed 1982` in ≤ 3 s of CPU, its exact sums at float speed).
//!
//! `cargo bench --bench experiments` (issue 30's row alone: `-- "seed 1982"`)

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use prune_cli::experiment::{self, Options};

/// The binary's allocator (huge pages, as the measured runs of `prune` have them).
#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("experiments");
    g.sample_size(10).measurement_time(Duration::from_secs(12));
    for name in ["ballard-average", "ballard-best", "knuth-moore", "win-loss"] {
        let info = experiment::find(name).expect("listed");
        let opts = Options {
            seed: 1,
            ..Options::default()
        };
        g.bench_function(format!("{name} (defaults)"), |b| {
            b.iter(|| black_box((info.run)(&opts, &|_| {}).expect("runs")))
        });
    }
    // Issue 30's row, as `prune experiment ballard-average --trials 1000 --seed 1982` runs it.
    let info = experiment::find("ballard-average").expect("listed");
    let opts = Options {
        trials: Some(1000),
        seed: 1982,
        ..Options::default()
    };
    g.bench_function("ballard-average (1000 trials, seed 1982)", |b| {
        b.iter(|| black_box((info.run)(&opts, &|_| {}).expect("runs")))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
