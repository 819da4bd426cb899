//! A transposition table is sound only where nodes with equal keys head equal subtrees. prune
//! checks that in full before a search with `tt`: on random trees whose keys are partly honest
//! and partly lies, every search with a table either is refused — exactly when two nodes of one
//! key differ somewhere below, as a naive comparison finds — or returns the reference value.
//! Children in another order are the same position (nim's keys make such twins).

use std::collections::HashMap;

use proptest::prelude::*;
use prune::search::{self, Algorithm, Params, Quiet, Refusal, Value};
use prune::tree::{Draft, DraftNode, Kind, Meta, Tree};

/// A node of a generated tree, before it is laid out.
struct Node {
    kind: Kind,
    value: f64,
    heuristic: Option<f64>,
    /// The probability of each child, for uneven chance nodes.
    probs: Option<Vec<f64>>,
    children: Vec<Node>,
    key: u64,
}

/// A small, seeded generator: the trees are reproducible from the seed proptest shrinks.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A random tree of Max and Min nodes (`chance`: and chance nodes) to depth `depth`, with few
/// distinct leaf and heuristic values, so that equal subtrees are common.
fn grow(rng: &mut Rng, depth: u32, max: bool, chance: bool) -> Node {
    if depth == 0 || (depth < 3 && rng.below(4) == 0) {
        return Node {
            kind: Kind::Leaf,
            value: rng.below(3) as f64,
            heuristic: None,
            probs: None,
            children: Vec::new(),
            key: 0,
        };
    }
    let kind = if chance && rng.below(3) == 0 {
        Kind::Chance
    } else if max {
        Kind::Max
    } else {
        Kind::Min
    };
    let n = 1 + rng.below(3) as usize;
    let probs = (kind == Kind::Chance && n == 2 && rng.below(2) == 0).then(|| {
        let p = [0.25, 0.75][rng.below(2) as usize];
        vec![p, 1.0 - p]
    });
    let next = if kind == Kind::Chance { max } else { !max };
    Node {
        kind,
        value: 0.0,
        heuristic: Some(rng.below(2) as f64),
        probs,
        children: (0..n).map(|_| grow(rng, depth - 1, next, chance)).collect(),
        key: 0,
    }
}

/// What a search can read of a subtree, as text: equal texts, equal subtrees (keys aside, and
/// the children's order, which changes no value).
fn text(node: &Node) -> String {
    let mut children: Vec<String> = (node.children.iter().enumerate())
        .map(|(i, c)| format!("{:?}:{}", node.probs.as_ref().map(|p| p[i]), text(c)))
        .collect();
    children.sort();
    format!(
        "{:?}/{}/{:?}[{}]",
        node.kind,
        node.value,
        node.heuristic,
        children.join(",")
    )
}

/// Honest keys (one per distinct subtree), then a lie at about one node in `lies`.
fn key(node: &mut Node, rng: &mut Rng, ids: &mut HashMap<String, u64>, lies: u64) {
    for c in &mut node.children {
        key(c, rng, ids, lies);
    }
    let next = ids.len() as u64;
    node.key = *ids.entry(text(node)).or_insert(next);
    if rng.below(lies) == 0 {
        node.key = rng.below(next + 1);
    }
}

/// Whether two nodes share a key and differ: the naive check.
fn lies(root: &Node) -> bool {
    fn walk(n: &Node, seen: &mut HashMap<u64, String>, found: &mut bool) {
        let t = text(n);
        if seen.entry(n.key).or_insert_with(|| t.clone()) != &t {
            *found = true;
        }
        n.children.iter().for_each(|c| walk(c, seen, found));
    }
    let mut found = false;
    walk(root, &mut HashMap::new(), &mut found);
    found
}

fn lay_out(root: &Node) -> Tree {
    fn push(d: &mut Draft, n: &Node, prob: Option<f64>) {
        let mut node = match n.kind {
            Kind::Leaf => DraftNode::leaf(n.value),
            k => DraftNode::interior(k, n.children.len() as u32),
        }
        .with_key(n.key);
        if let Some(h) = n.heuristic {
            node = node.with_heuristic(h);
        }
        if let Some(p) = prob {
            node = node.with_prob(p);
        }
        d.push(node);
        for (i, c) in n.children.iter().enumerate() {
            push(d, c, n.probs.as_ref().map(|p| p[i]));
        }
    }
    let mut d = Draft::new(Meta {
        players: 2,
        ..Meta::default()
    });
    push(&mut d, root, None);
    d.finish().expect("a valid tree")
}

fn value(tree: &Tree, spec: &str) -> Result<f64, Refusal> {
    let algo = Algorithm::parse(spec, &Params::default()).expect("a known algorithm");
    let (found, _) = search::search(tree, &algo, &mut Quiet)?;
    match found.value {
        Value::Scalar(v) => Ok(v),
        v => panic!("{spec}: not a scalar: {v}"),
    }
}

/// Every search with a table on `tree`: refused exactly when keys lie, else the reference's value.
fn check(tree: &Tree, lying: bool, pairs: &[(&str, &str)]) -> Result<(), TestCaseError> {
    for &(with_table, reference) in pairs {
        match value(tree, with_table) {
            Err(Refusal::KeysDisagree { .. }) => {
                prop_assert!(lying, "{with_table} refused honest keys")
            }
            Err(other) => prop_assert!(false, "{with_table}: {other}"),
            Ok(v) => {
                prop_assert!(!lying, "{with_table} searched lying keys (value {v})");
                let want = value(tree, reference).expect("the reference searches any tree");
                prop_assert_eq!(v, want, "{} against {}", with_table, reference);
            }
        }
    }
    Ok(())
}

const TWO_PLAYER: &[(&str, &str)] = &[
    ("alphabeta:tt", "minimax"),
    ("negascout:tt", "minimax"),
    ("mtdf:tt", "minimax"),
    ("alphabeta:tt:id", "minimax"),
    ("alphabeta:tt:depth=2", "minimax:depth=2"),
    ("negascout:tt:depth=2", "minimax:depth=2"),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn lying_keys_are_refused_and_honest_keys_give_the_reference_value(seed in 1u64.., lie_rate in 2u64..40, chance in any::<bool>()) {
        let mut rng = Rng(seed);
        let mut root = grow(&mut rng, 4, true, chance);
        key(&mut root, &mut rng, &mut HashMap::new(), lie_rate);
        let tree = lay_out(&root);
        let lying = lies(&root);
        if chance {
            check(&tree, lying, &[("expectiminimax:tt", "expectiminimax")])?;
        } else {
            check(&tree, lying, TWO_PLAYER)?;
        }
    }
}

/// The tree: two Min nodes of one key over leaves without keys, worth 1 and 3.
#[test]
fn a_lie_below_the_keyed_nodes_is_refused_naming_both_by_path() {
    let text = "(version: 1, root: Max([Min([1], (key: 5)), Min([3], (key: 5))]))";
    let tree = prune::format::parse("lie", text.into(), prune::format::Format::Ron).unwrap();
    for algo in [
        "alphabeta:tt",
        "negascout:tt",
        "mtdf:tt",
        "expectiminimax:tt",
    ] {
        let refused = value(&tree, algo).expect_err(algo);
        assert_eq!(
            refused.to_string(),
            "the transposition table takes nodes with equal keys for the same position, but #1 and #2 share a key and differ (at #1.1 and #2.1: values 1 and 3)",
            "{algo}"
        );
    }
}

/// Heuristic values and probabilities are part of a position too.
#[test]
fn heuristics_and_probabilities_are_compared() {
    let parse = |text: &str| prune::format::parse("t", text.into(), prune::format::Format::Ron);
    let heuristic = parse(
        "(version: 1, root: Max([Min([Max([1, 2], (heuristic: 1))], (key: 5)), Min([Max([1, 2], (heuristic: 2))], (key: 5))]))",
    )
    .unwrap();
    let refused = value(&heuristic, "alphabeta:tt:depth=2").expect_err("heuristics differ");
    assert!(
        refused
            .to_string()
            .ends_with("(at #1.1 and #2.1: heuristic values 1 and 2)"),
        "{refused}"
    );
    let probs = parse(
        "(version: 1, root: Chance([Prob(0.5, Chance([Prob(0.25, 0), Prob(0.75, 4)], (key: 9))), Prob(0.5, Chance([Prob(0.75, 0), Prob(0.25, 4)], (key: 9)))]))",
    )
    .unwrap();
    let refused = value(&probs, "expectiminimax:tt").expect_err("probabilities differ");
    assert!(
        refused
            .to_string()
            .ends_with("(probabilities 0.25 and 0.75 of child 1)"),
        "{refused}"
    );
    // The same children in another order: the same position.
    let swapped = parse(
        "(version: 1, root: Chance([Prob(0.5, Chance([Prob(0.25, 0), Prob(0.75, 4)], (key: 9))), Prob(0.5, Chance([Prob(0.75, 4), Prob(0.25, 0)], (key: 9)))]))",
    )
    .unwrap();
    assert_eq!(value(&swapped, "expectiminimax:tt"), Ok(3.0));
}
