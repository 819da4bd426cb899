//! The root's last `exit` in the trace agrees with the run's result (issue: the JSON said one
//! bound and the trace another).

use std::sync::atomic::AtomicU64;

use prune::format;
use prune::search::{Algorithm, Bound};
use prune::trace::{EventView, record};

fn last_root_exit(trace: &prune::trace::Trace, root: prune::tree::NodeId) -> Bound {
    trace
        .events()
        .iter()
        .rev()
        .find_map(|e| match e.view() {
            EventView::Exit { node, bound, .. } | EventView::ExitVector { node, bound, .. }
                if node == root =>
            {
                Some(bound)
            }
            _ => None,
        })
        .expect("the root exits")
}

#[test]
fn star1_rightmost_ends_with_a_lower_bound_in_the_trace_too() {
    let tree = format::ron::parse(
        "rightmost",
        format::Text::from(
            "(version: 1, bounds: (0, 10), root: Max([Min([5, 6]), Chance([9, 9, 9])]))",
        ),
    )
    .unwrap();
    let algo = Algorithm::Star1 { rightmost: true };
    let (run, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
    assert_eq!(run.value.scalar(), Some(6.0));
    assert_eq!(run.bound, Bound::Lower);
    assert_eq!(last_root_exit(&trace, tree.root()), Bound::Lower);
}

#[test]
fn maxn_shallow_immediate_pruning_at_the_root_is_exact() {
    let tree = format::ron::parse(
        "immediate",
        format::Text::from(
            "(version: 1, players: 2, payoff_floor: 0, payoff_sum: 5, root: Player(1, [(5, 0), (3, 2)]))",
        ),
    )
    .unwrap();
    let (run, trace) = record(&tree, &Algorithm::MaxnShallow, &AtomicU64::new(0)).unwrap();
    assert_eq!(run.bound, Bound::Exact);
    assert_eq!(last_root_exit(&trace, tree.root()), Bound::Exact);
}

#[test]
fn product_propagation_explains_why_it_refuses_chance_nodes() {
    let tree = prune::format::parse_expr("*(0.5,1)", false).unwrap();
    let why = Algorithm::Product.refusal(&tree).unwrap().to_string();
    assert!(why.contains("Max and Min nodes only"), "{why}");
}
