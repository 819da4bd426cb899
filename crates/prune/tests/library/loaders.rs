//! Loaders under stress: mutated valid inputs never panic any loader, and whatever a loader
//! accepts is a valid tree that survives its own format's round trip. Generated trees of every
//! family round-trip through RON exactly and through .efg and bracket notation structurally.

use proptest::prelude::*;
use prune::format::{self, Format, Text};
use prune::generate::{self, Values};
use prune::tree::{NodeId, Tree};

/// Valid inputs in all three formats: the sample trees, written in each format.
fn seeds() -> Vec<(Vec<u8>, Format)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(crate::common::repo("trees")).expect("trees/") {
        let path = entry.expect("entry").path();
        let tree = format::load(&path, None).expect("sample trees load");
        for f in [Format::Ron, Format::Efg, Format::Bracket] {
            out.push((format::write(&tree, f).into_bytes(), f));
        }
    }
    out
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(f64, usize),
    Insert(f64, Vec<u8>),
    Replace(f64, u8),
    Duplicate(f64, usize, f64),
    Truncate(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pos = 0.0..1.0f64;
    prop_oneof![
        (pos.clone(), 1..8usize).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (
            pos.clone(),
            prop::collection::vec(
                prop_oneof![
                    Just(b'('),
                    Just(b')'),
                    Just(b'['),
                    Just(b']'),
                    Just(b','),
                    Just(b'"'),
                    Just(b'-'),
                    Just(b'9'),
                    Just(b'/'),
                    any::<u8>()
                ],
                1..6
            )
        )
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        (pos.clone(), any::<u8>()).prop_map(|(p, b)| Mutation::Replace(p, b)),
        (pos.clone(), 1..40usize, pos.clone()).prop_map(|(p, n, q)| Mutation::Duplicate(p, n, q)),
        pos.prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let at = |f: f64, len: usize| ((f * len as f64) as usize).min(len);
    match m {
        Mutation::Delete(p, n) => {
            let a = at(*p, bytes.len());
            let b = (a + n).min(bytes.len());
            bytes.drain(a..b);
        }
        Mutation::Insert(p, ins) => {
            let a = at(*p, bytes.len());
            bytes.splice(a..a, ins.iter().copied());
        }
        Mutation::Replace(p, b) => {
            if !bytes.is_empty() {
                let a = at(*p, bytes.len() - 1);
                bytes[a] = *b;
            }
        }
        Mutation::Duplicate(p, n, q) => {
            let a = at(*p, bytes.len());
            let chunk: Vec<u8> = bytes[a..(a + n).min(bytes.len())].to_vec();
            let to = at(*q, bytes.len());
            bytes.splice(to..to, chunk);
        }
        Mutation::Truncate(p) => {
            let a = at(*p, bytes.len());
            bytes.truncate(a);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_files_never_panic_any_loader(seed in any::<prop::sample::Index>(), muts in prop::collection::vec(mutation(), 1..4)) {
        let seeds = seeds();
        let (bytes, native) = &seeds[seed.index(seeds.len())];
        let mut bytes = bytes.clone();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let Ok(text) = format::decode("mutant", bytes) else { return Ok(()) };
        for f in [Format::Ron, Format::Efg, Format::Bracket] {
            match format::parse("mutant", Text::from(&text), f) {
                Ok(tree) => {
                    // Accepted: then it is a valid tree that its own format writes back.
                    if f == *native || f == Format::Ron {
                        let again = format::parse("again", Text::from(format::write(&tree, f)), f);
                        prop_assert!(again.is_ok(), "{f:?} rejects its own output");
                    }
                }
                Err(e) => {
                    let d = e.diagnostic().expect("parse errors carry a position");
                    prop_assert!(d.span.end <= text.len());
                    prop_assert!(!d.message.is_empty());
                }
            }
        }
    }
}

fn samples() -> Vec<Tree> {
    let mut trees = Vec::new();
    for seed in 0..40 {
        let values = if seed % 2 == 0 {
            Values::integers(-9, 9)
        } else {
            Values {
                lo: -1.0,
                hi: 1.0,
                real: true,
            }
        };
        trees.push(
            generate::random::generate(
                &generate::random::RandomShape {
                    min_branching: 1,
                    max_branching: 4,
                    depth: 6,
                    leaf_probability: 0.3,
                    values,
                    mixed: seed % 3 == 0,
                },
                seed,
            )
            .unwrap(),
        );
        trees.push(
            generate::chance::generate(
                &generate::chance::ChanceTree {
                    branching: 3,
                    chance_branching: 3,
                    depth: 4,
                    values,
                    uneven: seed % 2 == 1,
                    irregular: seed % 4 < 2,
                },
                seed,
            )
            .unwrap(),
        );
        trees.push(
            generate::multiplayer::generate(
                &generate::multiplayer::Multiplayer {
                    players: 3 + (seed % 3) as u32,
                    branching: 2,
                    depth: 4,
                    sum: 12,
                },
                seed,
            )
            .unwrap(),
        );
    }
    trees.push(
        generate::star::generate(
            &generate::star::StarComplete {
                branching: 4,
                depth: 2,
                order: generate::star::StarOrder::Random,
                critical: false,
                labels: true,
            },
            1,
        )
        .unwrap(),
    );
    trees.push(
        generate::winloss::generate(
            &generate::winloss::WinLoss {
                branching: 3,
                depth: 4,
                p0: 0.4,
                board: true,
            },
            1,
        )
        .unwrap(),
    );
    trees
}

/// Same shape, kinds, values, probabilities and labels, node by node.
fn same_structure(a: &Tree, b: &Tree) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} nodes, then {}", a.len(), b.len()));
    }
    for id in a.ids() {
        let same = a.kind(id) == b.kind(id)
            && a.child_count(id) == b.child_count(id)
            && (a.prob(id) - b.prob(id)).abs() < 1e-15
            && a.label(id) == b.label(id)
            && if a.is_leaf(id) && a.is_multiplayer() {
                a.payoff(id) == b.payoff(id)
            } else {
                a.value(id) == b.value(id) || !a.is_leaf(id)
            };
        if !same {
            return Err(format!(
                "node {id} differs: {:?} vs {:?}",
                a.draft_node(id),
                b.draft_node(NodeId(id.0))
            ));
        }
    }
    Ok(())
}

#[test]
fn ron_round_trip_is_exact() {
    for t in samples() {
        let back =
            format::parse("t", Text::from(format::write(&t, Format::Ron)), Format::Ron).unwrap();
        assert_eq!(back, t, "{}", t.meta().name);
    }
}

#[test]
fn efg_and_bracket_round_trips_keep_the_game() {
    for t in samples() {
        for f in [Format::Efg, Format::Bracket] {
            let text = format::write(&t, f);
            let back = format::parse("t", Text::from(text.as_str()), f)
                .unwrap_or_else(|e| panic!("{f:?}: {}\n{text}", e.render()));
            same_structure(&t, &back).unwrap_or_else(|e| panic!("{f:?} {}: {e}", t.meta().name));
        }
    }
}

#[test]
fn a_tree_ten_thousand_levels_deep_loads_in_every_format() {
    let chain = format::parse_expr(
        &format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000)),
        false,
    )
    .unwrap();
    assert_eq!(chain.len(), 10_001);
    for f in [Format::Ron, Format::Efg, Format::Bracket] {
        let back = format::parse("deep", Text::from(format::write(&chain, f)), f).unwrap();
        assert_eq!(back.len(), chain.len());
    }
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let tree = format::parse_expr("((3,12,8),(2,4,6))", false).unwrap();
    for (f, name) in [
        (Format::Ron, "t.ron"),
        (Format::Efg, "t.efg"),
        (Format::Bracket, "t.txt"),
        (Format::Efg, "sniffed"),
        (Format::Ron, "sniffed-ron"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("\u{feff}{}", format::write(&tree, f))).unwrap();
        let back = format::load(&path, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.leaf_count(), 6, "{name}");
    }
    // Only at the start: elsewhere it is an invisible character, refused with its position.
    let e = format::parse("t", Text::from("((3,\u{feff}12),(2,4))"), Format::Bracket).unwrap_err();
    assert!(e.to_string().contains("U+FEFF"), "{e}");
}

/// Trees big enough that the layout gives back the draft's columns as it walks past them
/// (every 2¹⁹ nodes, in blocks of their own): the plain walk with and without labels, and the
/// general one with probabilities; each must come back exactly.
#[test]
fn big_trees_come_back_exactly_with_the_draft_given_back_as_it_is_laid_out() {
    use prune::generate::chance::{self, ChanceTree};
    use prune::generate::game::{self, GameSpec};
    let uneven = ChanceTree {
        branching: 8,
        chance_branching: 5,
        depth: 4,
        values: Values::integers(-50, 50),
        uneven: true,
        irregular: false,
    };
    let trees = [
        generate::uniform::generate(
            &generate::uniform::Uniform {
                branching: 4,
                depth: 10,
                values: Values::integers(0, 99),
                order: generate::uniform::Order::Random,
            },
            3,
        )
        .unwrap(),
        game::generate(&GameSpec::TicTacToe { depth: None }).unwrap(),
        chance::generate(&uneven, 5).unwrap(),
    ];
    for t in trees {
        assert!(t.len() > 1 << 19, "{} nodes: too few to give back", t.len());
        let back =
            format::parse("t", Text::from(format::write(&t, Format::Ron)), Format::Ron).unwrap();
        assert!(back == t, "{} ({} nodes)", t.meta().name, t.len());
    }
}
