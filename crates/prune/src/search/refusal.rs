//! Why an algorithm cannot search a tree: the typed [`Refusal`]s of the catalogue
//! ([`super::catalogue`]) and of the improvements ([`super::improvements`]), below both so that
//! the improvements, which the catalogue's algorithms carry, do not import the catalogue.

/// Why an algorithm cannot search a tree.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// A two-player, chance or probabilistic algorithm given a tree of more than two players.
    #[error("{algo} searches two-player trees; this one has {players} players (try maxn)")]
    MultiPlayerTree {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// The tree's number of players.
        players: usize,
    },
    /// A Max-against-Min algorithm (two-player, chance or probabilistic) given a two-player tree
    /// of payoff vectors whose sums differ, so that one player's gain is not the other's loss.
    #[error(
        "{algo} searches two-player games whose payoffs sum to the same number at every leaf (zero-sum or constant-sum); in this one leaf {} pays {} in all and leaf {} pays {} (try maxn)",
        a, crate::text::number_text(*sum_a), b, crate::text::number_text(*sum_b)
    )]
    NotConstantSum {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// A leaf, by path.
        a: String,
        /// The sum of `a`'s payoffs.
        sum_a: f64,
        /// A leaf whose payoffs sum to something else, by path.
        b: String,
        /// The sum of `b`'s payoffs.
        sum_b: f64,
    },
    /// An algorithm without chance nodes (a two-player one, or Tzeng & Purdom's rules) given a
    /// tree with some.
    #[error("{algo} cannot search chance nodes{}", hint.map_or(String::new(), |h| format!(" ({h})")))]
    ChanceNodes {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// What to try instead, or why, appended to the message in parentheses.
        hint: Option<&'static str>,
    },
    /// Product propagation or the k-rule given a leaf outside [0, 1].
    #[error(
        "{algo} needs leaves that are probabilities of a win, in [0, 1]; the leaf at {leaf} is {value}"
    )]
    NotAProbability {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// The leaf, by path (labels need not be unique).
        leaf: String,
        /// Its value.
        value: f64,
    },
    /// The paranoid algorithm given a player the tree does not have.
    #[error("there is no player {player} in this {players}-player tree")]
    NoSuchPlayer {
        /// The player asked for, from 1 as the user typed it.
        player: u32,
        /// The tree's number of players.
        players: usize,
    },
    /// The k-rule with k ≤ 0 or NaN: equation (7.1) needs k > 0.
    #[error("the k-rule needs k > 0, not {0}")]
    BadK(f64),
    /// Star2 with zero rounds of probing.
    #[error("star2 needs at least one probe (Star1 is star2 without probing)")]
    NoProbes,
    /// A depth limit reaching an interior node that has no heuristic value.
    #[error(
        "{algo} to depth {depth} values the positions there by their heuristic, and the node at {node} has none (generate the tree with `prune gen game`, or search it without --depth)"
    )]
    NoHeuristic {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// The depth limit.
        depth: u32,
        /// The node, by path.
        node: String,
    },
    /// Iterative deepening, whose shallower iterations stop at an interior node that has no
    /// heuristic value.
    #[error(
        "{algo} with iterative deepening values the positions at the horizon of each iteration by their heuristic, and the node at {node} (depth {depth}) has none (search it without --id)"
    )]
    NoHeuristicForIteration {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// The node's depth, the root at 0: the iteration to this depth stops there.
        depth: usize,
        /// The node, by path.
        node: String,
    },
    /// A transposition table on a tree without position keys.
    #[error(
        "the transposition table needs position keys, and this tree has none (`prune gen game` trees have them; see docs/FORMAT.md)"
    )]
    NoKeys,
    /// A transposition table on a tree where two nodes share a key but their subtrees differ.
    #[error(
        "the transposition table takes nodes with equal keys for the same position, but {a} and {b} share a key and differ ({why})"
    )]
    KeysDisagree {
        /// One node, by path.
        a: String,
        /// The other, by path.
        b: String,
        /// Where their subtrees first differ and how.
        why: String,
    },
    /// Aspiration windows without iterative deepening, which gives them their centre.
    #[error(
        "aspiration windows surround the previous iteration's value: they need --id (`{algo}:id:aspiration=W`)"
    )]
    AspirationWithoutId {
        /// The algorithm's catalogue name.
        algo: &'static str,
    },
    /// A tree too deep for the stack the system grants: [`super::with_stack`] could not start
    /// the recursive search.
    #[error(
        "this tree is {height} levels deep; searching it needs a stack of {} MB, which the system refused ({why})",
        stack / (1 << 20)
    )]
    TooDeep {
        /// The tree's height, in levels.
        height: usize,
        /// The stack asked for, in bytes (`usize::MAX` when its size overflowed).
        stack: usize,
        /// The system's reason.
        why: String,
    },
}
