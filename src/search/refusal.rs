//! Why an algorithm cannot search a tree: the typed [`Refusal`]s of the catalogue
//! ([`super::catalogue`]) and of the improvements ([`super::improvements`]), below both so that
//! the improvements, which the catalogue's algorithms carry, do not import the catalogue.

/// Why an algorithm cannot search a tree.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("{algo} searches two-player trees; this one has {players} players (try maxn)")]
    MultiPlayerTree { algo: &'static str, players: usize },
    #[error(
        "{algo} searches two-player games whose payoffs sum to the same number at every leaf (zero-sum or constant-sum); in this one leaf {} pays {} in all and leaf {} pays {} (try maxn)",
        a, crate::text::number_text(*sum_a), b, crate::text::number_text(*sum_b)
    )]
    NotConstantSum {
        algo: &'static str,
        a: String,
        sum_a: f64,
        b: String,
        sum_b: f64,
    },
    #[error("{algo} cannot search chance nodes{}", hint.map_or(String::new(), |h| format!(" ({h})")))]
    ChanceNodes {
        algo: &'static str,
        hint: Option<&'static str>,
    },
    #[error(
        "{algo} needs leaves that are probabilities of a win, in [0, 1]; the leaf at {leaf} is {value}"
    )]
    NotAProbability {
        algo: &'static str,
        /// The leaf, by path (labels need not be unique).
        leaf: String,
        value: f64,
    },
    #[error("there is no player {player} in this {players}-player tree")]
    NoSuchPlayer { player: u32, players: usize },
    #[error("the k-rule needs k > 0, not {0}")]
    BadK(f64),
    #[error("star2 needs at least one probe (Star1 is star2 without probing)")]
    NoProbes,
    #[error(
        "{algo} to depth {depth} values the positions there by their heuristic, and the node at {node} has none (generate the tree with `prune gen game`, or search it without --depth)"
    )]
    NoHeuristic {
        algo: &'static str,
        depth: u32,
        /// The node, by path.
        node: String,
    },
    #[error(
        "{algo} with iterative deepening values the positions at the horizon of each iteration by their heuristic, and the node at {node} (depth {depth}) has none (search it without --id)"
    )]
    NoHeuristicForIteration {
        algo: &'static str,
        depth: usize,
        /// The node, by path.
        node: String,
    },
    #[error(
        "the transposition table needs position keys, and this tree has none (`prune gen game` trees have them; see docs/FORMAT.md)"
    )]
    NoKeys,
    #[error(
        "the transposition table takes nodes with equal keys for the same position, but {a} and {b} share a key and differ ({why})"
    )]
    KeysDisagree { a: String, b: String, why: String },
    #[error(
        "aspiration windows surround the previous iteration's value: they need --id (`{algo}:id:aspiration=W`)"
    )]
    AspirationWithoutId { algo: &'static str },
    #[error(
        "this tree is {height} levels deep; searching it needs a stack of {} MB, which the system refused ({why})",
        stack / (1 << 20)
    )]
    TooDeep {
        height: usize,
        stack: usize,
        why: String,
    },
}
