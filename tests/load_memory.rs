//! The memory a load is estimated to need against what it really takes, over every generator
//! family in every format, each at two sizes (the second about ten times the first, so the
//! estimate is a bound on what a load allocates, not a fit to one size): never less (the
//! estimate refuses what would not fit), and at most [`MARGIN`] times as much (it refuses
//! nothing that would). One test in this binary: the allocator's counter sees every thread.

use std::sync::Arc;

use prune::format::{self, Format, Text};

/// The binary's allocator (its counter is what `peak_during` reads).
#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

/// Each family at a small size and at about ten times as many nodes (tic-tac-toe has one).
const FAMILIES: &[&[&str]] = &[
    &["uniform -b 10 -d 3 --seed 1", "uniform -b 10 -d 4 --seed 1"],
    &["uniform -b 2 -d 13 --seed 1", "uniform -b 2 -d 16 --seed 1"],
    &["random -b 5 -d 6 --seed 3", "random -b 5 -d 8 --seed 3"],
    &["ordered -b 5 -d 5 --seed 2", "ordered -b 5 -d 6 --seed 2"],
    &[
        "star-complete -b 3 -d 2",
        "star-complete -b 3 -d 3 --order random --seed 1",
    ],
    &[
        "star-complete -b 3 -d 2 --labels",
        "star-complete -b 3 -d 3 --labels",
    ],
    &[
        "win-loss -b 2 -d 10 --seed 1",
        "win-loss -b 2 -d 13 --seed 1",
    ],
    &[
        "win-loss -b 2 -d 10 --board --seed 1",
        "win-loss -b 2 -d 14 --board --seed 1",
    ],
    &[
        "chance -b 4 -c 4 -d 3 --seed 5",
        "chance -b 4 -c 4 -d 4 --seed 5",
    ],
    &[
        "chance -b 4 -c 4 -d 3 --uneven --seed 5",
        "chance -b 4 -c 4 -d 4 --uneven --seed 5",
    ],
    &[
        "multiplayer --players 3 -b 5 -d 5 --seed 4",
        "multiplayer --players 3 -b 5 -d 6 --seed 4",
    ],
    &[
        "multiplayer --players 8 -b 4 -d 4 --seed 4",
        "multiplayer --players 8 -b 4 -d 6 --seed 4",
    ],
    &["game nim --heaps 1,2,3", "game nim --heaps 1,2,3,3"],
    &["game connect-four -d 4", "game connect-four -d 5"],
    &[
        "game pig --win 6 --dice 3 --horizon 7",
        "game pig --win 6 --dice 3 --horizon 10",
    ],
    &["game tic-tac-toe"],
];

/// How many times the peak an estimate may be, in every format.
const MARGIN: f64 = 1.5;

#[test]
fn load_estimates_bound_the_peak_closely() {
    let mut report = Vec::new();
    let mut bad = Vec::new();
    for line in FAMILIES.iter().copied().flatten() {
        let (tree, _) =
            prune_cli::cli::generate::from_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        for format in [Format::Ron, Format::Efg, Format::Bracket] {
            let text: Arc<str> = Arc::from(format::write(&tree, format));
            let estimate = format::load_estimate(&text, format);
            let (loaded, peak) =
                prune::memory::peak_during(|| format::parse("t", Text::from(&text), format));
            let loaded = loaded.unwrap_or_else(|e| panic!("{line} as {format}: {e}"));
            assert_eq!(loaded.len(), tree.len());
            drop(loaded);
            let ratio = estimate as f64 / peak as f64;
            report.push(format!(
                "{line:50} {format:18} nodes {:>8} text {:>10} peak {peak:>11} estimate {estimate:>11} ×{ratio:.2}",
                tree.len(),
                text.len()
            ));
            if !(1.0..=MARGIN).contains(&ratio) {
                bad.push(format!("{line} as {format}: ×{ratio:.2}"));
            }
        }
    }
    println!("{}", report.join("\n"));
    assert!(
        bad.is_empty(),
        "{}\n\n{}",
        bad.join("\n"),
        report.join("\n")
    );
}
