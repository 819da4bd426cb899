//! The reference values: every node's exact value by the algorithm family's naive rule, which
//! every pruning algorithm of the family must agree with.

use std::sync::{Arc, Mutex};

use super::chance::ChanceSum;
use super::{Algorithm, Value, players, product};
use crate::tree::{Kind, NodeId, Tree};

/// The naive rule a family's reference values follow: algorithms with the same rule share them.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Rule {
    /// max^n vectors.
    Vectors,
    /// The paranoid reduction for this player.
    Paranoid(u8),
    /// Product propagation.
    Product,
    /// The k-rule, by the bits of `k`.
    K(u64),
    /// Minimax with expectations at chance nodes, to a depth limit if any.
    Plain(Option<u32>),
}

impl Rule {
    fn of(tree: &Tree, algo: &Algorithm) -> Rule {
        match algo {
            Algorithm::Paranoid { player } => Rule::Paranoid(*player),
            Algorithm::Maxn | Algorithm::MaxnShallow => Rule::Vectors,
            // A two-player game with payoff vectors is searched by two-player algorithms as
            // Max/Min (run::searched): its plain rules apply.
            _ if tree.is_multiplayer() && tree.players() != 2 => Rule::Vectors,
            Algorithm::Product => Rule::Product,
            Algorithm::KRule { k } => Rule::K(k.to_bits()),
            _ => Rule::Plain(algo.improvements().and_then(|w| w.depth)),
        }
    }
}

/// A tree's reference values, computed on first use and at most once per rule: `prune run`
/// and `compare` ask for them after every search, and one bottom-up pass over a large tree
/// costs far more than a pruning search.
pub struct References<'t> {
    tree: &'t Tree,
    computed: Mutex<Vec<(Rule, Arc<Reference>)>>,
}

impl<'t> References<'t> {
    /// Reference values of `tree`, each family's computed when first asked.
    pub fn new(tree: &'t Tree) -> References<'t> {
        References {
            tree,
            computed: Mutex::new(Vec::new()),
        }
    }

    /// The tree the values are of.
    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    /// The reference values `algo` is checked against (computed now if not yet).
    pub fn of(&self, algo: &Algorithm) -> Arc<Reference> {
        let rule = Rule::of(self.tree, algo);
        let mut computed = self.computed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, r)) = computed.iter().find(|(r, _)| *r == rule) {
            return Arc::clone(r);
        }
        let r = Arc::new(Reference::of(self.tree, algo));
        computed.push((rule, Arc::clone(&r)));
        r
    }

    /// The minimax values (expectations at chance nodes) of a two-player tree.
    pub fn minimax(&self) -> Arc<Reference> {
        self.of(&Algorithm::Minimax)
    }
}

/// The family's exact value of every node (with a depth limit, of every node down to it, in the
/// tree cut there): minimax/expectiminimax, max^n, the probabilistic
/// rule or the paranoid reduction. Computed bottom-up over the arena — children come after
/// their parents and sit side by side — so it takes one pass and no recursion.
pub enum Reference {
    /// One value a node (two-player and chance trees).
    Scalars(Vec<f64>),
    /// max^n vectors, `players` values a node.
    Vectors(Vec<f64>, usize),
}

impl Reference {
    /// Every node's value by the naive rule of `algo`'s family (minimax, expectiminimax,
    /// max^n …), for checking a search and choosing best moves.
    ///
    /// ```
    /// use prune::search::{Algorithm, Reference};
    ///
    /// let tree = prune::format::parse_expr("(*(1,5),(2,4))", false)?;
    /// let values = Reference::of(&tree, &Algorithm::Expectiminimax);
    /// assert_eq!(values.get(tree.root()).scalar(), Some(3.0));
    /// assert_eq!(values.get(tree.child(tree.root(), 1)).scalar(), Some(2.0));
    /// # Ok::<(), prune::format::LoadError>(())
    /// ```
    pub fn of(tree: &Tree, algo: &Algorithm) -> Reference {
        let tree = &*super::run::searched(tree, algo);
        // max^n and shallow pruning read any tree as n-player (a two-player one as (v, −v)).
        let vectors = match algo {
            Algorithm::Paranoid { .. } => false,
            Algorithm::Maxn | Algorithm::MaxnShallow => true,
            _ => tree.is_multiplayer(),
        };
        if vectors {
            return maxn_values(tree);
        }
        let mut v = vec![0.0; tree.len()];
        for id in (0..tree.len() as u32).rev().map(NodeId) {
            let kids = tree.children(id);
            let (a, b) = (kids.clone().next().map_or(0, |c| c.index()), kids.len());
            let x = &v[a..a + b];
            v[id.index()] = match (tree.kind(id), algo) {
                (Kind::Leaf, Algorithm::Paranoid { player }) => {
                    players::payoff(tree, id)[usize::from(*player)]
                }
                (Kind::Leaf, _) => tree.value(id),
                (Kind::Player(_) | Kind::Max | Kind::Min, Algorithm::Paranoid { player }) => {
                    if players::mover(tree, id) == Some(usize::from(*player)) {
                        x.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        x.iter().copied().fold(f64::INFINITY, f64::min)
                    }
                }
                (Kind::Player(_), _) => x.iter().copied().fold(f64::INFINITY, f64::min),
                (Kind::Max, Algorithm::Product) => {
                    1.0 - product::min_rule(&x.iter().map(|p| 1.0 - p).collect::<Vec<_>>(), 1.0)
                }
                (Kind::Min, Algorithm::Product) => product::min_rule(x, 1.0),
                (Kind::Max, Algorithm::KRule { k }) => {
                    1.0 - product::min_rule(&x.iter().map(|p| 1.0 - p).collect::<Vec<_>>(), *k)
                }
                (Kind::Min, Algorithm::KRule { k }) => product::min_rule(x, *k),
                (Kind::Max, _) => x.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                (Kind::Min, _) => x.iter().copied().fold(f64::INFINITY, f64::min),
                (Kind::Chance, _) => {
                    let mut sum = ChanceSum::new(tree, id);
                    for (c, &xv) in tree.children(id).zip(x) {
                        sum.add(tree, c, xv);
                    }
                    sum.value()
                }
            };
        }
        Reference::Scalars(v)
    }

    /// The scalar values, node by node (`None` for max^n vectors).
    pub fn scalars(&self) -> Option<&[f64]> {
        match self {
            Reference::Scalars(v) => Some(v),
            Reference::Vectors(..) => None,
        }
    }

    /// The value of node `id`.
    pub fn get(&self, id: NodeId) -> Value {
        match self {
            Reference::Scalars(v) => Value::Scalar(v[id.index()]),
            Reference::Vectors(v, n) => {
                Value::Vector(v[id.index() * n..id.index() * n + n].to_vec())
            }
        }
    }
}

fn maxn_values(tree: &Tree) -> Reference {
    let n = tree.players();
    let mut v = vec![0.0; tree.len() * n];
    for id in (0..tree.len() as u32).rev().map(NodeId) {
        let at = id.index() * n;
        match tree.kind(id) {
            Kind::Leaf => v[at..at + n].copy_from_slice(&players::payoff(tree, id)),
            Kind::Player(_) | Kind::Max | Kind::Min => {
                let p = players::mover(tree, id).expect("a player moves here");
                let mut best = tree.child(id, 0).index();
                for c in tree.children(id).skip(1) {
                    if v[c.index() * n + p] > v[best * n + p] {
                        best = c.index();
                    }
                }
                v.copy_within(best * n..best * n + n, at);
            }
            _ => {
                for k in 0..n {
                    let mut sum = ChanceSum::new(tree, id);
                    for c in tree.children(id) {
                        sum.add(tree, c, v[c.index() * n + k]);
                    }
                    v[at + k] = sum.value();
                }
            }
        }
    }
    Reference::Vectors(v, n)
}
