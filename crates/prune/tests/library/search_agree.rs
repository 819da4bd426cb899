//! Every pruning algorithm returns exactly its reference's value — minimax, expectiminimax,
//! max^n, the paranoid reduction — on many seeded random trees of every family: integer values
//! with ties, real values, single leaves, unary chains, kinds that do not alternate, uneven
//! probabilities, irregular chance trees, n-player trees.
//!
//! `PRUNE_TREES=100000 cargo test --release --test search_agree` runs more trees per family.

use prune::generate::{self, Values};
use prune::search::{self, Algorithm, Bound, Value};
use prune::tree::Tree;

fn trees_per_family() -> u64 {
    std::env::var("PRUNE_TREES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

const TWO_PLAYER: &[Algorithm] = &[
    Algorithm::AlphaBeta { fail_soft: false },
    Algorithm::AlphaBeta { fail_soft: true },
    Algorithm::NegaScout,
    Algorithm::NegaScoutAb,
    Algorithm::Sss,
    Algorithm::Mtdf { guess: None },
    Algorithm::Mtdf {
        guess: Some(-1000.0),
    },
    Algorithm::MT_SSS,
    Algorithm::Expectiminimax,
    Algorithm::Star1 { rightmost: false },
    Algorithm::Star2 {
        probes: 1,
        probe_always: false,
        rightmost: false,
    },
    Algorithm::Star2 {
        probes: 2,
        probe_always: false,
        rightmost: false,
    },
];

const CHANCE: &[Algorithm] = &[
    Algorithm::Star1 { rightmost: false },
    Algorithm::Star2 {
        probes: 1,
        probe_always: false,
        rightmost: false,
    },
    Algorithm::Star2 {
        probes: 2,
        probe_always: false,
        rightmost: false,
    },
    Algorithm::Star2 {
        probes: 3,
        probe_always: false,
        rightmost: false,
    },
    Algorithm::Star2 {
        probes: 1,
        probe_always: true,
        rightmost: false,
    },
    Algorithm::Star2 {
        probes: 2,
        probe_always: true,
        rightmost: false,
    },
];

fn value(tree: &Tree, algo: &Algorithm) -> search::Run {
    search::run(tree, algo).unwrap_or_else(|e| panic!("{algo} refused: {e}"))
}

/// Whether two values agree: bit for bit on trees without chance nodes, where every value is a
/// leaf's; to 1e-12 relative on trees with chance nodes, where equal rationals reached by
/// different sums (13/9 as (a + b + c) / 3 for two different a, b, c) can differ in the last
/// bit, and a pruning search that stops on such a tie keeps the earlier of the two.
fn agree(tree: &Tree, a: &Value, b: &Value) -> bool {
    let close = |x: f64, y: f64| {
        x == y || (tree.has_chance() && (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0))
    };
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => close(*x, *y),
        (Value::Vector(x), Value::Vector(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(*x, *y))
        }
        _ => false,
    }
}

/// Checks `algos` against `reference` on `tree`.
fn check(tree: &Tree, reference: &Algorithm, algos: &[Algorithm], what: &str, seed: u64) {
    let want = value(tree, reference);
    for algo in algos {
        let got = value(tree, algo);
        assert!(
            agree(tree, &got.value, &want.value) && got.bound == Bound::Exact,
            "{what}, seed {seed}: {algo} gives {} ({:?}), {reference} gives {}\n{}",
            got.value,
            got.bound,
            want.value,
            prune::format::write(tree, prune::format::Format::Bracket)
        );
    }
}

fn random_shape(seed: u64, values: Values, mixed: bool, min_b: u32) -> Tree {
    let depth = 1 + (seed % 7) as u32;
    let p = generate::random::RandomShape {
        min_branching: min_b,
        max_branching: 1 + (seed % 4) as u32,
        depth,
        leaf_probability: 0.2,
        values,
        mixed,
    };
    generate::random::generate(&p, seed).unwrap()
}

#[test]
fn two_player_integer_trees_with_ties() {
    for seed in 0..trees_per_family() {
        let t = random_shape(seed, Values::integers(0, 4), seed % 3 == 0, 1);
        check(&t, &Algorithm::Minimax, TWO_PLAYER, "integers 0..=4", seed);
    }
}

#[test]
fn two_player_real_trees() {
    for seed in 0..trees_per_family() {
        let t = random_shape(
            seed,
            Values {
                lo: -1.0,
                hi: 1.0,
                real: true,
            },
            seed % 2 == 0,
            1,
        );
        check(&t, &Algorithm::Minimax, TWO_PLAYER, "reals", seed);
    }
}

#[test]
fn uniform_trees_in_every_order() {
    use generate::uniform::{Order, Uniform};
    for seed in 0..trees_per_family() / 10 {
        let order = [Order::Random, Order::Best, Order::Worst][(seed % 3) as usize];
        let values = if order == Order::Worst {
            Values::integers(0, 10_000)
        } else {
            Values::integers(0, 9)
        };
        let p = Uniform {
            branching: 2 + (seed % 3) as u32,
            depth: 1 + (seed % 5) as u32,
            values,
            order,
        };
        let t = generate::uniform::generate(&p, seed).unwrap();
        check(&t, &Algorithm::Minimax, TWO_PLAYER, "uniform", seed);
    }
}

#[test]
fn single_leaves_and_unary_chains() {
    for (src, v) in [
        ("7", 7.0),
        ("(((((3)))))", 3.0),
        ("-(((-2)))", -2.0),
        ("*(((5)))", 5.0),
    ] {
        let t = prune::format::parse_expr(src, false).unwrap();
        let algos: &[Algorithm] = if t.has_chance() { CHANCE } else { TWO_PLAYER };
        for algo in algos.iter().chain([&Algorithm::Expectiminimax]) {
            assert_eq!(value(&t, algo).value, Value::Scalar(v), "{algo} on {src}");
        }
    }
    for seed in 0..trees_per_family() / 10 {
        let t = random_shape(seed, Values::integers(-3, 3), true, 1);
        check(&t, &Algorithm::Minimax, TWO_PLAYER, "unary chains", seed);
    }
}

fn chance_tree(seed: u64, irregular: bool, uneven: bool, real: bool) -> Tree {
    let values = if real {
        Values {
            lo: -5.0,
            hi: 5.0,
            real: true,
        }
    } else {
        Values::integers(-5, 5)
    };
    let p = generate::chance::ChanceTree {
        branching: 1 + (seed % 3) as u32,
        chance_branching: 1 + (seed % 4) as u32,
        depth: if irregular {
            2 + (seed % 5) as u32
        } else {
            1 + (seed % 3) as u32
        },
        values,
        uneven,
        irregular,
    };
    generate::chance::generate(&p, seed).unwrap()
}

#[test]
fn regular_chance_trees() {
    for seed in 0..trees_per_family() {
        let t = chance_tree(seed, false, false, seed % 2 == 1);
        check(
            &t,
            &Algorithm::Expectiminimax,
            CHANCE,
            "regular chance",
            seed,
        );
    }
}

#[test]
fn uneven_probabilities() {
    for seed in 0..trees_per_family() {
        let t = chance_tree(seed, seed % 2 == 0, true, seed % 3 == 0);
        check(
            &t,
            &Algorithm::Expectiminimax,
            CHANCE,
            "uneven probabilities",
            seed,
        );
    }
}

#[test]
fn irregular_chance_trees() {
    for seed in 0..trees_per_family() {
        let t = chance_tree(seed, true, false, seed % 2 == 0);
        check(
            &t,
            &Algorithm::Expectiminimax,
            CHANCE,
            "irregular chance",
            seed,
        );
    }
}

#[test]
fn star_complete_trees_in_both_orders() {
    use generate::star::{StarComplete, StarOrder};
    for seed in 0..200 {
        let order = if seed % 2 == 0 {
            StarOrder::Random
        } else {
            StarOrder::Best
        };
        let p = StarComplete {
            branching: 2 + (seed % 5) as u32,
            depth: 1 + (seed % 2) as u32,
            order,
            critical: seed % 3 == 0,
            labels: false,
        };
        let t = generate::star::generate(&p, seed).unwrap();
        check(&t, &Algorithm::Expectiminimax, CHANCE, "*-complete", seed);
    }
}

#[test]
fn rightmost_cutoff_keeps_the_best_move() {
    // §7.2 stops early below the root's last child: the value becomes a bound, the choice stays.
    for seed in 0..trees_per_family() / 5 {
        let t = chance_tree(seed, false, seed % 2 == 0, false);
        let exact = value(&t, &Algorithm::Expectiminimax);
        for algo in [
            Algorithm::Star1 { rightmost: true },
            Algorithm::Star2 {
                probes: 1,
                probe_always: false,
                rightmost: true,
            },
        ] {
            let got = value(&t, &algo);
            let (g, e) = (got.value.scalar().unwrap(), exact.value.scalar().unwrap());
            match got.bound {
                Bound::Exact => assert!(agree(&t, &got.value, &exact.value), "seed {seed}: {algo}"),
                Bound::Lower => assert!(
                    g <= e + 1e-12,
                    "seed {seed}: {algo} claims ≥ {g}, value {e}"
                ),
                Bound::Upper => assert!(
                    g >= e - 1e-12,
                    "seed {seed}: {algo} claims ≤ {g}, value {e}"
                ),
            }
        }
    }
}

#[test]
fn multiplayer_trees() {
    for seed in 0..trees_per_family() {
        let players = 2 + (seed % 4) as u32;
        let p = generate::multiplayer::Multiplayer {
            players,
            branching: 1 + (seed % 4) as u32,
            depth: 1 + (seed % 5) as u32,
            sum: (seed % 12) as u32,
        };
        let t = generate::multiplayer::generate(&p, seed).unwrap();
        check(
            &t,
            &Algorithm::Maxn,
            &[Algorithm::MaxnShallow],
            "n-player",
            seed,
        );
        for player in 0..players as u8 {
            let got = value(&t, &Algorithm::Paranoid { player }).value;
            assert_eq!(
                got,
                Value::Scalar(search::paranoid::value(&t, t.root(), player)),
                "seed {seed}, paranoid player {player}"
            );
        }
    }
}

#[test]
fn probabilistic_rules() {
    for seed in 0..trees_per_family() / 10 {
        let t = random_shape(
            seed,
            Values {
                lo: 0.0,
                hi: 1.0,
                real: true,
            },
            seed % 2 == 0,
            1,
        );
        let minimax = value(&t, &Algorithm::Minimax).value;
        assert_eq!(
            value(&t, &Algorithm::KRule { k: f64::INFINITY }).value,
            minimax,
            "k = ∞ is minimax, seed {seed}"
        );
        assert_eq!(
            value(&t, &Algorithm::KRule { k: 1.0 }).value,
            value(&t, &Algorithm::Product).value,
            "k = 1 is product propagation"
        );
    }
}

#[test]
fn a_chain_a_hundred_thousand_deep_searches_without_overflow() {
    let depth = 100_000;
    let expr = format!("{}4{}", "(".repeat(depth), ")".repeat(depth));
    let t = prune::format::parse_expr(&expr, false).unwrap();
    assert_eq!(t.height(), depth);
    for algo in TWO_PLAYER.iter().chain([&Algorithm::Minimax]) {
        assert_eq!(value(&t, algo).value, Value::Scalar(4.0), "{algo}");
    }
    let star = format!("{}4{}", "*(".repeat(depth), ")".repeat(depth));
    let t = prune::format::parse_expr(&star, false).unwrap();
    for algo in CHANCE {
        assert_eq!(value(&t, algo).value, Value::Scalar(4.0), "{algo}");
    }
}

/// Star2 probing two (three) children of each − node before the next (the node-by-node reading
/// of Ballard §6.2.1.3 that `ballard-average` reports) returns the expectiminimax value too, on
/// regular, uneven and irregular chance trees.
#[test]
fn star2_probing_node_by_node_keeps_the_value() {
    for seed in 0..trees_per_family() {
        let t = chance_tree(seed, seed % 3 == 0, seed % 2 == 0, seed % 5 == 0);
        let want = value(&t, &Algorithm::Expectiminimax);
        for probes in [2, 3] {
            let mut counter = search::Counter::new(t.len());
            let got = search::star2::search_node_major(&t, probes, seed % 4 == 1, &mut counter);
            assert!(
                agree(&t, &got.value, &want.value) && got.bound == Bound::Exact,
                "seed {seed}, {probes} probes: {} against {}",
                got.value,
                want.value
            );
        }
    }
}
