//! prune's alpha-beta against a peer: the `minimax` crate's `Negamax` (0.6), on the same
//! explicit tree.
//!
//! `cargo bench --bench peer`. The tree is the one of `cargo bench --bench search` (random
//! uniform, b = 10, d = 7: 10^7 leaves, values 0..999, seed 7). The crate searches it through
//! its `Game` trait: a position is a node, its moves are the node's children in the tree's order,
//! and a leaf's evaluation is its value from the side to move's point of view. Both searches
//! are full-width alpha-beta to the leaves, with no transposition table and no move ordering:
//! the crate's `Negamax` is fail-soft alpha-beta (`best = max(best, v); alpha = max(alpha, v);
//! if alpha ≥ beta: break`), so it visits exactly the nodes prune's fail-soft alpha-beta does,
//! checked once before timing along with the root's value.
//!
//! The crate shuffles the root's moves (it picks at random among equal moves): it is given a
//! start position before the root with the root as its only move, so the root is searched with
//! the full window and its children in order. Throughput is node visits per second: prune's
//! `stats.nodes` (interior nodes entered plus leaves evaluated), the crate's calls to
//! `Game::apply` (every node it enters, counted in a separate run: the timed runs count
//! nothing). prune's runs count their statistics, as `prune run` does; the crate's run keeps
//! none.

mod common;

use std::cell::Cell;
use std::hint::black_box;
use std::marker::PhantomData;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use minimax::{Evaluation, Evaluator, Game, Negamax, Strategy, Winner};
use prune::generate::uniform;
use prune::search::{self, Algorithm, Counter};
use prune::tree::{Kind, NodeId, Tree};

/// The binary's allocator (huge pages, as the measured runs of `prune` have them).
#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

/// A position for the crate: a node of the tree (or the start, before the root), and whether
/// Max is to move there.
#[derive(Clone, Copy)]
struct Pos<'t> {
    tree: &'t Tree,
    /// `None`: the start position, whose only move is the root.
    node: Option<NodeId>,
    max_to_move: bool,
}

thread_local! {
    /// `Game::apply` calls when counting: one per node entered.
    static APPLIED: Cell<u64> = const { Cell::new(0) };
}

/// The tree as the crate's game. `COUNT`: count the nodes entered (not in timed runs).
struct Explicit<'t, const COUNT: bool>(PhantomData<&'t Tree>);

impl<'t, const COUNT: bool> Game for Explicit<'t, COUNT> {
    type S = Pos<'t>;
    type M = NodeId;

    fn generate_moves(s: &Pos<'t>, moves: &mut Vec<NodeId>) -> Option<Winner> {
        match s.node {
            None => moves.push(s.tree.root()),
            Some(n) => moves.extend(s.tree.children(n)),
        }
        None
    }

    fn apply(s: &mut Pos<'t>, m: NodeId) -> Option<Pos<'t>> {
        if COUNT {
            APPLIED.with(|a| a.set(a.get() + 1));
        }
        // The tree alternates Max and Min (checked): the side to move changes with every move.
        Some(Pos {
            tree: s.tree,
            node: Some(m),
            max_to_move: !s.max_to_move,
        })
    }

    fn get_winner(_: &Pos<'t>) -> Option<Winner> {
        None
    }
}

/// A leaf's value from the side to move's point of view.
struct LeafValue<'t, const COUNT: bool>(PhantomData<&'t Tree>);

impl<'t, const COUNT: bool> Evaluator for LeafValue<'t, COUNT> {
    type G = Explicit<'t, COUNT>;

    fn evaluate(&self, s: &Pos<'t>) -> Evaluation {
        let node = s.node.expect("the search evaluates leaves only");
        let v = s.tree.value(node) as Evaluation;
        if s.max_to_move { v } else { -v }
    }
}

/// The crate's search of the whole tree; the root's value from Max's point of view.
fn crate_search<'t, const COUNT: bool>(
    tree: &'t Tree,
    negamax: &mut Negamax<LeafValue<'t, COUNT>>,
) -> i16 {
    // Before the root: the side not to move at the root.
    let start = Pos {
        tree,
        node: None,
        max_to_move: tree.kind(tree.root()) != Kind::Max,
    };
    let m = negamax.choose_move(&start);
    assert_eq!(m, Some(tree.root()));
    // The start's value is the root's from the other side.
    let v = -negamax.root_value();
    if tree.kind(tree.root()) == Kind::Max {
        v
    } else {
        -v
    }
}

fn peer(c: &mut Criterion) {
    let tree = common::uniform_1e7(uniform::Order::Random);
    // What the crate can search as given: alternating Max and Min, every leaf at full depth,
    // integer values an `i16` holds.
    let alternates = tree.ids().filter(|&n| !tree.is_leaf(n)).all(|n| {
        tree.children(n)
            .all(|c| tree.is_leaf(c) || tree.kind(c) != tree.kind(n))
    });
    assert!(alternates);
    let depth = tree.height();
    let leaves_at_depth = tree
        .ids()
        .filter(|&n| tree.is_leaf(n))
        .all(|n| tree.depth_of(n) == depth && tree.value(n).abs() < 10_000.0);
    assert!(leaves_at_depth && tree.is_integral());
    let plies = u8::try_from(depth + 1).expect("depth");

    let algo = Algorithm::AlphaBeta { fail_soft: true };
    let mut counter = Counter::new(tree.len());
    let (found, _) = search::search(&tree, &algo, &mut counter).expect("applicable");
    let ours = counter.finish();

    APPLIED.with(|a| a.set(0));
    let mut counting = Negamax::new(LeafValue::<true>(PhantomData), plies);
    let theirs_value = crate_search(&tree, &mut counting);
    let theirs_nodes = APPLIED.with(Cell::get);
    let ours_value = match found.value {
        search::Value::Scalar(v) => v,
        _ => unreachable!("a two-player tree"),
    };
    assert_eq!(f64::from(theirs_value), ours_value, "the root's value");
    eprintln!(
        "root value {ours_value}; nodes visited: prune alpha-beta {}, minimax crate Negamax {theirs_nodes}",
        ours.nodes
    );
    assert_eq!(
        ours.nodes, theirs_nodes,
        "both are fail-soft alpha-beta in the same order"
    );

    let mut g = c.benchmark_group("peer uniform 1e7 leaves random order");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(ours.nodes));
    for algo in [
        Algorithm::AlphaBeta { fail_soft: false },
        Algorithm::AlphaBeta { fail_soft: true },
    ] {
        g.bench_function(format!("prune {} stats", algo.label()), |b| {
            b.iter(|| {
                let mut counter = Counter::new(tree.len());
                black_box(search::search(&tree, &algo, &mut counter).expect("applicable"));
                black_box(counter.finish())
            })
        });
    }
    g.throughput(Throughput::Elements(theirs_nodes));
    let mut negamax = Negamax::new(LeafValue::<false>(PhantomData), plies);
    g.bench_function("minimax crate Negamax", |b| {
        b.iter(|| black_box(crate_search(&tree, &mut negamax)))
    });
    g.finish();
}

criterion_group!(benches, peer);
criterion_main!(benches);
