//! The search algorithms of the papers, one file each, and what a run produces.
//!
//! | CLI name | file | source |
//! |---|---|---|
//! | `minimax` | [`minimax`] | the reference for two-player trees |
//! | `alphabeta` | [`alphabeta`] | Knuth & Moore's F2 (fail-hard); `--fail-soft`: Schaeffer's slides |
//! | `negascout`, `negascout-ab` | [`negascout`] | Reinefeld & Marsland 1987, Figure 2 and NS^αβ |
//! | `sss` | [`sss`] | Stockman's SSS* (beyond the papers) |
//! | `mtdf` | [`mtdf`] | Plaat et al.'s MTD(f) with a node-keyed memory (beyond the papers) |
//! | `expectiminimax` | [`expectiminimax`] | the reference for trees with chance nodes |
//! | `star1` | [`star1`] | Ballard 1982, §4 (equations 1–4), §7.2, §7.3 (22) |
//! | `star2` | [`star2`] | Ballard 1982, §5 (equations 5–8), cyclic probing |
//! | `product`, `krule` | [`product`] | Tzeng & Purdom 1982, rules (6.3)/(6.4) and (7.1) |
//! | `maxn` | [`maxn`] | the slides' max^n, the reference for n-player trees |
//! | `maxn-shallow` | [`shallow`] | the slides' `Shallow(Node, Player, Bound)` |
//! | `paranoid` | [`paranoid`] | Sturtevant & Korf's paranoid reduction (beyond the papers) |
//!
//! Every algorithm is a function generic over an [`Observer`]; [`run`] adds what the views
//! need around it: the statistics, the time of the search alone, the tied best moves and the
//! principal variation (from the algorithm family's reference values, so every algorithm of a
//! family reports the same ones), and a thread with a big enough stack for deep trees.

pub mod alphabeta;
pub mod expectiminimax;
pub mod maxn;
pub mod minimax;
pub mod mtdf;
pub mod negascout;
pub mod observer;
pub mod paranoid;
pub mod product;
pub mod shallow;
pub mod sss;
pub mod star1;
pub mod star2;

use std::fmt;
use std::time::Instant;

use serde::Serialize;

pub use observer::{Bound, Counter, Cutoff, Observer, Progress, Quiet, Stats};

use crate::tree::{Kind, NodeId, Tree};

/// An algorithm with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Algorithm {
    Minimax,
    AlphaBeta {
        fail_soft: bool,
    },
    /// Figure 2: the re-search is a self-call.
    NegaScout,
    /// NS^αβ: the re-search is a (fail-hard) alpha-beta search.
    NegaScoutAb,
    Sss,
    /// `guess`: the first guess; by default the middle of the value bounds.
    Mtdf {
        guess: Option<f64>,
    },
    Expectiminimax,
    /// `rightmost`: Ballard §7.2's cutoff below the root's last child.
    Star1 {
        rightmost: bool,
    },
    /// `probes`: rounds of cyclic probing before the regular phase (Ballard's Star2 is 1).
    Star2 {
        probes: u32,
        rightmost: bool,
    },
    Product,
    /// Equation (7.1); `k = ∞` is minimax.
    KRule {
        k: f64,
    },
    Maxn,
    MaxnShallow,
    /// `player`: the paranoid player, from 0.
    Paranoid {
        player: u8,
    },
}

/// What an algorithm searches, and what its values are compared with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// Max/Min trees without chance nodes; reference: minimax.
    TwoPlayer,
    /// Max/Min trees with or without chance nodes; reference: expectiminimax.
    Chance,
    /// Max/Min trees whose leaves are probabilities of a win; the rule is its own reference.
    Probabilistic,
    /// n-player trees; reference: max^n (paranoid: its own two-player reduction).
    MultiPlayer,
}

/// One line of `prune algos`.
pub struct AlgorithmInfo {
    pub name: &'static str,
    pub family: Family,
    pub applies_to: &'static str,
    pub parameters: &'static str,
    pub source: &'static str,
}

pub const ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "minimax",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        parameters: "",
        source: "the reference: every node searched",
    },
    AlgorithmInfo {
        name: "alphabeta",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        parameters: "--fail-soft",
        source: "Knuth & Moore 1975, procedure F2 (fail-hard); fail-soft as in Schaeffer's slides",
    },
    AlgorithmInfo {
        name: "negascout",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        parameters: "",
        source: "Reinefeld & Marsland 1987, Figure 2 (re-search by self-call)",
    },
    AlgorithmInfo {
        name: "negascout-ab",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        parameters: "",
        source: "Reinefeld & Marsland 1987, NS^αβ (re-search by alpha-beta)",
    },
    AlgorithmInfo {
        name: "sss",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        parameters: "",
        source: "Stockman 1979, SSS* (beyond the papers)",
    },
    AlgorithmInfo {
        name: "mtdf",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        parameters: "--guess F",
        source: "Plaat, Schaeffer, Pijls & de Bruin 1996, MTD(f) with a node-keyed memory (beyond the papers)",
    },
    AlgorithmInfo {
        name: "expectiminimax",
        family: Family::Chance,
        applies_to: "two-player trees, chance nodes allowed",
        parameters: "",
        source: "the reference for *-minimax trees: every node searched",
    },
    AlgorithmInfo {
        name: "star1",
        family: Family::Chance,
        applies_to: "two-player trees, chance nodes allowed; uses the bounds L..U",
        parameters: "--rightmost",
        source: "Ballard 1982, §4 (equations 1–4), §7.3 (22) for uneven probabilities, §7.2 with --rightmost",
    },
    AlgorithmInfo {
        name: "star2",
        family: Family::Chance,
        applies_to: "two-player trees, chance nodes allowed (Star1 where a chance node's children are not all + or all −)",
        parameters: "--probes K, --rightmost",
        source: "Ballard 1982, §5 (equations 5–8), cyclic probing (§5, §6.2.1.3)",
    },
    AlgorithmInfo {
        name: "product",
        family: Family::Probabilistic,
        applies_to: "two-player trees without chance nodes, leaves in [0, 1]",
        parameters: "",
        source: "Tzeng & Purdom 1982, rules (6.3) MIN: Π p, (6.4) MAX: 1 − Π(1 − p)",
    },
    AlgorithmInfo {
        name: "krule",
        family: Family::Probabilistic,
        applies_to: "two-player trees without chance nodes, leaves in [0, 1]",
        parameters: "--k K",
        source: "Tzeng & Purdom 1982, equation (7.1): k = 1 product propagation, k = ∞ minimax",
    },
    AlgorithmInfo {
        name: "maxn",
        family: Family::MultiPlayer,
        applies_to: "n-player trees, chance nodes allowed",
        parameters: "",
        source: "the slides' max^n (Luckhardt & Irani), ties to the leftmost child",
    },
    AlgorithmInfo {
        name: "maxn-shallow",
        family: Family::MultiPlayer,
        applies_to: "n-player trees without chance nodes; uses the payoff floor and sum",
        parameters: "",
        source: "the slides' Shallow(Node, Player, Bound): immediate and shallow pruning (Korf 1991)",
    },
    AlgorithmInfo {
        name: "paranoid",
        family: Family::MultiPlayer,
        applies_to: "n-player trees without chance nodes",
        parameters: "--player I",
        source: "Sturtevant & Korf 2000: player I against a coalition of the others, by alpha-beta (beyond the papers)",
    },
];

impl Algorithm {
    /// The CLI name.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta { .. } => "alphabeta",
            Algorithm::NegaScout => "negascout",
            Algorithm::NegaScoutAb => "negascout-ab",
            Algorithm::Sss => "sss",
            Algorithm::Mtdf { .. } => "mtdf",
            Algorithm::Expectiminimax => "expectiminimax",
            Algorithm::Star1 { .. } => "star1",
            Algorithm::Star2 { .. } => "star2",
            Algorithm::Product => "product",
            Algorithm::KRule { .. } => "krule",
            Algorithm::Maxn => "maxn",
            Algorithm::MaxnShallow => "maxn-shallow",
            Algorithm::Paranoid { .. } => "paranoid",
        }
    }

    pub fn info(&self) -> &'static AlgorithmInfo {
        ALGORITHMS
            .iter()
            .find(|i| i.name == self.name())
            .expect("every algorithm is listed")
    }

    pub fn family(&self) -> Family {
        self.info().family
    }

    /// Why the algorithm cannot search `tree`, if it cannot.
    pub fn refusal(&self, tree: &Tree) -> Option<String> {
        let multi = tree.is_multiplayer();
        let chance = tree.has_chance();
        let name = self.name();
        match self.family() {
            Family::TwoPlayer | Family::Probabilistic if multi => Some(format!(
                "{name} searches two-player trees; this one has {} players (try maxn)",
                tree.players()
            )),
            Family::TwoPlayer if chance => Some(format!(
                "{name} cannot search chance nodes (try expectiminimax, star1 or star2)"
            )),
            Family::Probabilistic if chance => Some(format!("{name} cannot search chance nodes")),
            Family::Probabilistic => {
                let outside = tree
                    .ids()
                    .find(|&i| tree.is_leaf(i) && !(0.0..=1.0).contains(&tree.value(i)));
                outside.map(|i| format!("{name} needs leaves that are probabilities of a win, in [0, 1]; leaf {i} is {}", tree.value(i)))
            }
            Family::Chance if multi => Some(format!(
                "{name} searches two-player trees; this one has {} players (try maxn)",
                tree.players()
            )),
            Family::MultiPlayer if !multi => Some(format!(
                "{name} searches n-player trees with payoff vectors; this is a two-player tree (try minimax or expectiminimax)"
            )),
            Family::MultiPlayer if chance && !matches!(self, Algorithm::Maxn) => {
                Some(format!("{name} cannot search chance nodes (max^n can)"))
            }
            _ => match self {
                Algorithm::Paranoid { player } if usize::from(*player) >= tree.players() => {
                    Some(format!(
                        "there is no player {} in this {}-player tree",
                        u32::from(*player) + 1,
                        tree.players()
                    ))
                }
                Algorithm::KRule { k } if k.is_nan() || *k <= 0.0 => {
                    Some(format!("the k-rule needs k > 0, not {k}"))
                }
                Algorithm::Star2 { probes: 0, .. } => {
                    Some("star2 needs at least one probe (Star1 is star2 without probing)".into())
                }
                _ => None,
            },
        }
    }

    /// The name with its non-default parameters, as a table heading.
    pub fn label(&self) -> String {
        match self {
            Algorithm::AlphaBeta { fail_soft: true } => "alphabeta --fail-soft".into(),
            Algorithm::Mtdf { guess: Some(g) } => format!("mtdf --guess {g}"),
            Algorithm::Star1 { rightmost: true } => "star1 --rightmost".into(),
            Algorithm::Star2 { probes, rightmost } => {
                let mut s = "star2".to_owned();
                if *probes != 1 {
                    s.push_str(&format!(" --probes {probes}"));
                }
                if *rightmost {
                    s.push_str(" --rightmost");
                }
                s
            }
            Algorithm::KRule { k } => format!("krule --k {k}"),
            Algorithm::Paranoid { player } => {
                format!("paranoid --player {}", u32::from(*player) + 1)
            }
            other => other.name().into(),
        }
    }
}

/// Default parameters for [`Algorithm::parse`]: what the command-line flags set.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub fail_soft: bool,
    pub probes: u32,
    pub rightmost: bool,
    pub k: f64,
    /// The paranoid player, from 0.
    pub player: u8,
    pub guess: Option<f64>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            fail_soft: false,
            probes: 1,
            rightmost: false,
            k: 2.0,
            player: 0,
            guess: None,
        }
    }
}

impl Algorithm {
    /// The algorithm named `name` with the parameters `p`.
    pub fn with_params(name: &str, p: &Params) -> Result<Algorithm, String> {
        Ok(match name {
            "minimax" => Algorithm::Minimax,
            "alphabeta" | "alpha-beta" => Algorithm::AlphaBeta {
                fail_soft: p.fail_soft,
            },
            "negascout" | "pvs" => Algorithm::NegaScout,
            "negascout-ab" => Algorithm::NegaScoutAb,
            "sss" | "sss*" => Algorithm::Sss,
            "mtdf" | "mtd(f)" => Algorithm::Mtdf { guess: p.guess },
            "expectiminimax" => Algorithm::Expectiminimax,
            "star1" => Algorithm::Star1 {
                rightmost: p.rightmost,
            },
            "star2" => Algorithm::Star2 {
                probes: p.probes,
                rightmost: p.rightmost,
            },
            "product" => Algorithm::Product,
            "krule" | "k-rule" => Algorithm::KRule { k: p.k },
            "maxn" => Algorithm::Maxn,
            "maxn-shallow" => Algorithm::MaxnShallow,
            "paranoid" => Algorithm::Paranoid { player: p.player },
            other => {
                let names: Vec<&str> = ALGORITHMS.iter().map(|i| i.name).collect();
                return Err(format!(
                    "unknown algorithm `{other}`; the algorithms are {}",
                    names.join(", ")
                ));
            }
        })
    }

    /// Parses `NAME` or `NAME:PARAM[=VALUE][:…]`, e.g. `star2:probes=2`, `alphabeta:fail-soft`,
    /// `krule:k=4`, `paranoid:player=2` (players from 1), `mtdf:guess=5`, `star1:rightmost`;
    /// parameters not given come from `defaults`.
    pub fn parse(spec: &str, defaults: &Params) -> Result<Algorithm, String> {
        let mut parts = spec.trim().split(':');
        let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let mut p = defaults.clone();
        for param in parts {
            let (key, value) = match param.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (param.trim(), None),
            };
            let number = |what: &str| -> Result<f64, String> {
                let v =
                    value.ok_or_else(|| format!("`{key}` needs a value: `{name}:{key}={what}`"))?;
                v.parse::<f64>()
                    .map_err(|_| format!("`{key}={v}`: expected a number"))
            };
            let count = |x: f64, lo: f64, hi: f64| -> Result<f64, String> {
                if x.fract() == 0.0 && (lo..=hi).contains(&x) {
                    Ok(x)
                } else {
                    Err(format!(
                        "`{key}` must be a whole number from {lo} to {hi}, not {x}"
                    ))
                }
            };
            match key {
                "fail-soft" | "failsoft" => p.fail_soft = true,
                "rightmost" => p.rightmost = true,
                "probes" => p.probes = count(number("K")?, 0.0, 1e9)? as u32,
                "k" => p.k = number("K")?,
                "player" => p.player = (count(number("I")?, 1.0, 255.0)? - 1.0) as u8,
                "guess" => p.guess = Some(number("F")?),
                other => return Err(format!("unknown parameter `{other}` in `{spec}`")),
            }
        }
        Algorithm::with_params(&name, &p)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// A search's value: a number, or a payoff vector in n-player trees.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Scalar(f64),
    Vector(Vec<f64>),
}

impl Value {
    pub fn scalar(&self) -> Option<f64> {
        match self {
            Value::Scalar(v) => Some(*v),
            Value::Vector(_) => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Scalar(v) => f.write_str(&crate::format::number_text(*v)),
            Value::Vector(v) => {
                let parts: Vec<String> = v.iter().map(|&x| crate::format::number_text(x)).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}

/// What an algorithm's search function returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub value: Value,
    pub bound: Bound,
}

impl Found {
    pub fn exact(v: f64) -> Self {
        Found {
            value: Value::Scalar(v),
            bound: Bound::Exact,
        }
    }
}

/// Everything one run of one algorithm produced, but its trace.
#[derive(Clone, Debug)]
pub struct Run {
    pub algorithm: Algorithm,
    pub value: Value,
    pub bound: Bound,
    /// Root moves (child positions, from 0) whose value equals the best, by the family's
    /// reference values; empty when the root is a leaf or a chance node.
    pub best_moves: Vec<usize>,
    /// The principal variation: from the root, the first best child each time, by the family's
    /// reference values, down to a leaf or a chance node.
    pub pv: Vec<NodeId>,
    pub stats: Stats,
    /// The search alone, not loading nor the reference values.
    pub seconds: f64,
}

/// Runs `algo` on `tree` with statistics only.
pub fn run(tree: &Tree, algo: &Algorithm) -> Result<Run, String> {
    let mut counter = Counter::new(tree.len());
    let (found, seconds) = search(tree, algo, &mut counter)?;
    Ok(finish(tree, algo, found, counter.finish(), seconds))
}

/// Runs `algo` reporting to `obs`; returns the result and the time of the search.
pub fn search<O: Observer + Send>(
    tree: &Tree,
    algo: &Algorithm,
    obs: &mut O,
) -> Result<(Found, f64), String> {
    if let Some(why) = algo.refusal(tree) {
        return Err(why);
    }
    Ok(with_stack(tree, || {
        let start = Instant::now();
        let found = dispatch(tree, algo, obs);
        (found, start.elapsed().as_secs_f64())
    }))
}

/// Adds the reference-based best moves and principal variation.
pub fn finish(tree: &Tree, algo: &Algorithm, found: Found, stats: Stats, seconds: f64) -> Run {
    let (best_moves, pv) = principal(tree, algo);
    Run {
        algorithm: algo.clone(),
        value: found.value,
        bound: found.bound,
        best_moves,
        pv,
        stats,
        seconds,
    }
}

fn dispatch<O: Observer>(tree: &Tree, algo: &Algorithm, obs: &mut O) -> Found {
    match algo {
        Algorithm::Minimax => minimax::search(tree, obs),
        Algorithm::AlphaBeta { fail_soft } => alphabeta::search(tree, *fail_soft, obs),
        Algorithm::NegaScout => negascout::search(tree, negascout::ReSearch::SelfCall, obs),
        Algorithm::NegaScoutAb => negascout::search(tree, negascout::ReSearch::AlphaBeta, obs),
        Algorithm::Sss => sss::search(tree, obs),
        Algorithm::Mtdf { guess } => mtdf::search(tree, *guess, obs),
        Algorithm::Expectiminimax => expectiminimax::search(tree, obs),
        Algorithm::Star1 { rightmost } => star1::search(tree, *rightmost, obs),
        Algorithm::Star2 { probes, rightmost } => star2::search(tree, *probes, *rightmost, obs),
        Algorithm::Product => product::search(tree, 1.0, obs),
        Algorithm::KRule { k } => product::search(tree, *k, obs),
        Algorithm::Maxn => maxn::search(tree, obs),
        Algorithm::MaxnShallow => shallow::search(tree, obs),
        Algorithm::Paranoid { player } => paranoid::search(tree, *player, obs),
    }
}

/// Runs `f` on a thread whose stack fits the tree's height when the tree is deep: every
/// algorithm recurses once or twice per level, like the papers' pseudocode.
pub fn with_stack<T: Send>(tree: &Tree, f: impl FnOnce() -> T + Send) -> T {
    const INLINE_HEIGHT: usize = 2_000;
    if tree.height() < INLINE_HEIGHT {
        return f();
    }
    let bytes = (64 << 20) + tree.height() * 4096;
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("prune-search".into())
            .stack_size(bytes)
            .spawn_scoped(s, f)
            .expect("spawning the search thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// The family's exact value of every node: minimax/expectiminimax, max^n, the probabilistic
/// rule or the paranoid reduction. Computed bottom-up over the arena — children come after
/// their parents and sit side by side — so it takes one pass and no recursion.
pub enum Reference {
    Scalars(Vec<f64>),
    /// max^n vectors, `players` values a node.
    Vectors(Vec<f64>, usize),
}

impl Reference {
    pub fn of(tree: &Tree, algo: &Algorithm) -> Reference {
        if tree.is_multiplayer() && !matches!(algo, Algorithm::Paranoid { .. }) {
            return maxn_values(tree);
        }
        let mut v = vec![0.0; tree.len()];
        for id in tree.ids().collect::<Vec<_>>().into_iter().rev() {
            let kids = tree.children(id);
            let (a, b) = (kids.clone().next().map_or(0, |c| c.index()), kids.len());
            let x = &v[a..a + b];
            v[id.index()] = match (tree.kind(id), algo) {
                (Kind::Leaf, Algorithm::Paranoid { player }) => {
                    tree.payoff(id)[usize::from(*player)]
                }
                (Kind::Leaf, _) => tree.value(id),
                (Kind::Player(p), Algorithm::Paranoid { player }) if p == *player => {
                    x.iter().copied().fold(f64::NEG_INFINITY, f64::max)
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
                    let mut sum = expectiminimax::ChanceSum::new(tree, id);
                    for (c, &xv) in tree.children(id).zip(x) {
                        sum.add(tree, c, xv);
                    }
                    sum.value()
                }
            };
        }
        Reference::Scalars(v)
    }

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
    for id in tree.ids().collect::<Vec<_>>().into_iter().rev() {
        let at = id.index() * n;
        match tree.kind(id) {
            Kind::Leaf => v[at..at + n].copy_from_slice(tree.payoff(id)),
            Kind::Player(p) => {
                let p = usize::from(p);
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
                    let mut sum = expectiminimax::ChanceSum::new(tree, id);
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

/// How good a child's reference value is for the player to move at its parent.
fn score(tree: &Tree, algo: &Algorithm, parent: NodeId, v: &Value) -> f64 {
    match (tree.kind(parent), v, algo) {
        (Kind::Min, Value::Scalar(x), _) => -x,
        (Kind::Player(p), Value::Scalar(x), Algorithm::Paranoid { player }) => {
            if p == *player {
                *x
            } else {
                -x
            }
        }
        (Kind::Player(p), Value::Vector(x), _) => x[usize::from(p)],
        (_, Value::Scalar(x), _) => *x,
        (_, Value::Vector(x), _) => x[0],
    }
}

/// The tied best root moves and the principal variation.
fn principal(tree: &Tree, algo: &Algorithm) -> (Vec<usize>, Vec<NodeId>) {
    let reference = Reference::of(tree, algo);
    let best_children = |node: NodeId| -> Vec<usize> {
        let scores: Vec<f64> = tree
            .children(node)
            .map(|c| score(tree, algo, node, &reference.get(c)))
            .collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (0..scores.len()).filter(|&i| scores[i] == top).collect()
    };
    let decides = |n: NodeId| !tree.is_leaf(n) && tree.kind(n) != Kind::Chance;
    let root = tree.root();
    let best_moves = if decides(root) {
        best_children(root)
    } else {
        Vec::new()
    };
    let mut pv = vec![root];
    let mut node = root;
    while decides(node) {
        let i = if node == root {
            best_moves[0]
        } else {
            best_children(node)[0]
        };
        node = tree.child(node, i);
        pv.push(node);
    }
    (best_moves, pv)
}

/// Facts about the tree that turn counts into ratios.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Ratios {
    /// `leaves^(1/height)`: the branching factor of a uniform tree of the same height with as
    /// many leaves as the search evaluated.
    pub effective_branching: f64,
    /// Leaf evaluations over the tree's leaves (an exhaustive search evaluates each once).
    pub share_of_exhaustive: f64,
}

impl Ratios {
    pub fn of(tree: &Tree, stats: &Stats) -> Ratios {
        let h = tree.height().max(1) as f64;
        Ratios {
            effective_branching: (stats.leaves as f64).powf(1.0 / h),
            share_of_exhaustive: stats.leaves as f64 / tree.leaf_count() as f64,
        }
    }
}

/// Shared by the negamax algorithms: +1 at Max nodes, −1 at Min nodes.
#[inline]
pub(crate) fn sign(kind: Kind) -> f64 {
    if kind == Kind::Min { -1.0 } else { 1.0 }
}
