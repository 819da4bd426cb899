//! The trace protocol: what any engine, in any language, writes while it searches, so that
//! prune can check it (docs/PROTOCOL.md is the specification; keep the two in step).
//!
//! It is a dialect of prune's own trace (docs/TRACE.md) keyed by move paths from the root
//! instead of node ids, since an engine has no arena. [`write`](mod@write) writes prune's own runs in it;
//! [`read`] parses a file into [`Header`] and [`Line`]s, refusing a malformed one with its
//! line and column; [`check`] judges the events by the rules of the algorithm the header
//! claims and reports the first departure; [`compare`] resolves the paths in a tree, checks
//! the leaves and lines the engine's search up against prune's textbook run.

pub mod check;
pub mod compare;
pub mod import;
pub mod read;
pub mod write;

use std::fmt;

/// The protocol's name, the first field of its header.
pub const PROTOCOL: &str = "prune-trace";

/// The protocol version this prune writes and reads.
pub const VERSION: u64 = 1;

/// One move of a path: the child's label, or its 0-based position among its siblings when the
/// engine (or the tree) has no unique label for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A move label: a JSON string (shared: a path is cloned wherever the checker keeps it,
    /// and a label may be long).
    Label(std::sync::Arc<str>),
    /// A child's position among its siblings, from 0: a JSON number.
    Index(u32),
    /// The null move, JSON `null`: the side to move passes (null-move pruning). The node it
    /// leads to is its parent's position with the other side to move; no tree has it.
    Null,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Label(l) => f.write_str(l),
            // Counted from 1 on screen, as the explorer counts children (`#1` is the first,
            // the position 0 of the trace).
            Move::Index(i) => write!(f, "#{}", u64::from(*i) + 1),
            Move::Null => f.write_str("(null move)"),
        }
    }
}

/// A node, named by the moves from the root to it; the root is the empty path.
pub type Path = Vec<Move>;

/// A path as people read it: `root`, or the moves joined by ` › ` (positions counted from 1,
/// as the explorer counts children: position 0 is `#1`); one longer than a screen line keeps
/// its ends, the middle elided ([`elide`]).
pub fn path_text(path: &[Move]) -> String {
    if path.is_empty() {
        return "root".into();
    }
    let mut text = String::new();
    for (i, m) in path.iter().enumerate() {
        if i > 0 {
            text.push_str(" › ");
        }
        text.push_str(&move_text(m));
        // The middle goes anyway: stop once both ends are known to be past a screen.
        if text.len() > 8 * SCREEN && i + 1 < path.len() {
            let tail: Vec<String> = path[path.len().saturating_sub(8).max(i + 1)..]
                .iter()
                .map(move_text)
                .collect();
            text.push_str(" › … › ");
            text.push_str(&tail.join(" › "));
            break;
        }
    }
    let moves = path.len();
    let short = elide(&text, SCREEN);
    if short.len() < text.len() {
        return format!("{short} ({moves} moves)");
    }
    short
}

/// A move as [`path_text`] shows it, a long label elided without being copied whole.
fn move_text(m: &Move) -> String {
    match m {
        Move::Label(l) => elide(l, SCREEN / 2),
        Move::Index(_) | Move::Null => m.to_string(),
    }
}

/// The characters of a screen line, the most a path or a quoted line takes in a message.
pub const SCREEN: usize = 160;

/// `text` if it has at most `most` characters, else its first and last characters with
/// ` … ` between, `most` in all.
pub fn elide(text: &str, most: usize) -> String {
    let count = text.chars().count();
    if count <= most {
        return text.to_owned();
    }
    let keep = most.saturating_sub(3);
    let head: String = text.chars().take(keep / 2).collect();
    let tail: String = text.chars().skip(count - (keep - keep / 2)).collect();
    format!("{head} … {tail}")
}

/// Whose point of view the header's values take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// Every value, window and bound from the side to move at that node.
    Negamax,
    /// Every value, window and bound from Max's point of view (the root's player).
    Minimax,
}

impl Values {
    /// The header's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Values::Negamax => "negamax",
            Values::Minimax => "minimax",
        }
    }

    /// A value written at a node of `side`, from Max's point of view (and back: the same
    /// map, a negation at Min in negamax form).
    pub fn to_max(self, side: Side, v: f64) -> f64 {
        match self {
            Values::Minimax => v,
            Values::Negamax => side.sign() * v,
        }
    }

    /// A window written at a node of `side`, from Max's point of view: negated and swapped
    /// at Min in negamax form.
    pub fn window_to_max(self, side: Side, (a, b): (f64, f64)) -> (f64, f64) {
        match (self, side) {
            (Values::Negamax, Side::Min) => (-b, -a),
            _ => (a, b),
        }
    }

    /// A bound written at a node of `side`, from Max's point of view: a negamax lower bound
    /// at Min is an upper bound for Max.
    pub fn bound_to_max(self, side: Side, b: Bound) -> Bound {
        match (self, side, b) {
            (Values::Negamax, Side::Min, Bound::Lower) => Bound::Upper,
            (Values::Negamax, Side::Min, Bound::Upper) => Bound::Lower,
            _ => b,
        }
    }
}

/// The player to move at a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// The root's player, who maximises.
    Max,
    /// The opponent.
    Min,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::Max => Side::Min,
            Side::Min => Side::Max,
        }
    }

    /// +1 for Max, −1 for Min: a Max-relative value times this is the side's own.
    pub fn sign(self) -> f64 {
        match self {
            Side::Max => 1.0,
            Side::Min => -1.0,
        }
    }

    /// The spelling of the `player` field.
    pub fn name(self) -> &'static str {
        match self {
            Side::Max => "max",
            Side::Min => "min",
        }
    }
}

/// A search the header can claim: what the checker's rules are and what prune runs beside it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Every child searched, no window.
    Minimax,
    /// Knuth & Moore's F2: values clamped to the window.
    FailHard,
    /// Fail-soft alpha-beta: the best child's value, wherever it lies.
    FailSoft,
    /// Principal variation search (prune's NegaScout, Figure 2): null windows after the
    /// first child, re-searches where they fail inside the window.
    Pvs,
    /// NegaScout whose re-search is alpha-beta (prune's NS^αβ).
    PvsAb,
    /// MTD(f): null-window passes at the root until its bounds meet.
    Mtdf,
}

/// The algorithm names of the header, each with its aliases.
const CLAIMS: [(&str, Claim, &[&str]); 6] = [
    ("minimax", Claim::Minimax, &["negamax"]),
    (
        "alphabeta-fail-hard",
        Claim::FailHard,
        &["alphabeta", "negamax-fail-hard"],
    ),
    (
        "alphabeta-fail-soft",
        Claim::FailSoft,
        &["negamax-fail-soft"],
    ),
    ("pvs", Claim::Pvs, &["negascout"]),
    ("pvs-ab", Claim::PvsAb, &["negascout-ab"]),
    ("mtdf", Claim::Mtdf, &[]),
];

impl Claim {
    /// The claim a header's `algorithm` names, by its name or an alias.
    pub fn parse(name: &str) -> Option<Claim> {
        CLAIMS
            .iter()
            .find(|(n, _, aliases)| *n == name || aliases.contains(&name))
            .map(|&(_, c, _)| c)
    }

    /// The canonical name, as prune writes it.
    pub fn name(self) -> &'static str {
        CLAIMS
            .iter()
            .find(|&&(_, c, _)| c == self)
            .map_or("", |&(n, _, _)| n)
    }

    /// Every canonical name, for messages.
    pub fn names() -> Vec<&'static str> {
        CLAIMS.iter().map(|&(n, _, _)| n).collect()
    }

    /// prune's algorithm of this name, the textbook search run beside the engine's.
    pub fn algorithm(self) -> crate::search::Algorithm {
        use crate::search::Algorithm;
        match self {
            Claim::Minimax => Algorithm::Minimax,
            Claim::FailHard => Algorithm::AlphaBeta { fail_soft: false },
            Claim::FailSoft => Algorithm::AlphaBeta { fail_soft: true },
            Claim::Pvs => Algorithm::NegaScout,
            Claim::PvsAb => Algorithm::NegaScoutAb,
            Claim::Mtdf => Algorithm::Mtdf { guess: None },
        }
    }
}

/// The first line of a protocol trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Who wrote it: free text.
    pub engine: String,
    /// The algorithm claimed, as written.
    pub algorithm: String,
    /// The claim it names.
    pub claim: Claim,
    /// The value convention.
    pub values: Values,
    /// Whose values the leaves carry: the tree's, or the engine's own evaluation (`"leaves":
    /// "engine"`), which the comparison then takes as the truth.
    pub leaves: Leaves,
    /// The engine's mate score (`"mate"`), when it scores a game won `p` plies from the root
    /// as `mate − p` (and lost as its negation) instead of the tree's value of the end.
    pub mate: Option<f64>,
}

impl Header {
    /// A header of `claim` in `values` form, leaves the tree's, no mate scores.
    pub fn new(engine: &str, claim: Claim, values: Values) -> Header {
        Header {
            engine: engine.into(),
            algorithm: claim.name().into(),
            claim,
            values,
            leaves: Leaves::Tree,
            mate: None,
        }
    }

    /// How far a value is from a mate score: `Some(p)` when `v` is a mate `p` plies from the
    /// root (`mate − p` won, its negation lost), for `p` up to [`MATE_PLIES`].
    pub fn mate_distance(&self, v: f64) -> Option<f64> {
        let m = self.mate?;
        let p = m - v.abs();
        (v != 0.0 && (0.0..=MATE_PLIES).contains(&p)).then_some(p)
    }
}

/// How many plies from the root a mate score may lie: values within this of the header's
/// `mate` are mate scores.
pub const MATE_PLIES: f64 = 1024.0;

/// Whose values a trace's leaves carry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// The tree's (or the game's heuristic at the horizon): checked against it.
    Tree,
    /// The engine's own evaluation: the ground truth of the comparison.
    Engine,
}

/// A step the engine takes outside the textbook search, declared on the `enter` or `leaf` of
/// the node it concerns (`"selective"`): checked for what the rules can check (the window
/// passed, the value used), never a departure by itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Selective {
    /// Searched to less depth than its parent's less one (late-move reductions, futility).
    Reduced,
    /// Searched deeper than its parent's less one (check extensions and the like).
    Extended,
    /// A quiescence search at or past the horizon: captures only, its static evaluation
    /// standing for the moves not searched (`stand_pat`).
    Quiescence,
    /// The search after a null move (the node's last move is `null`).
    NullMove,
}

impl Selective {
    /// The spelling of the `selective` field.
    pub fn name(self) -> &'static str {
        match self {
            Selective::Reduced => "reduced",
            Selective::Extended => "extended",
            Selective::Quiescence => "quiescence",
            Selective::NullMove => "null-move",
        }
    }

    /// The step a `selective` field names.
    pub fn parse(name: &str) -> Option<Selective> {
        [
            Selective::Reduced,
            Selective::Extended,
            Selective::Quiescence,
            Selective::NullMove,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// What a value returned says about the node's true value (docs/TRACE.md's bounds).
pub use crate::search::Bound;

/// One event of the protocol, its numbers as written (in the header's convention); ±∞ as
/// `f64` infinities.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The search enters an interior node with the window `(alpha, beta)`.
    Enter {
        /// The node.
        path: Path,
        /// The window's low end.
        alpha: f64,
        /// The window's high end.
        beta: f64,
        /// The player to move, when the engine says (else Max and Min alternate from the root).
        player: Option<Side>,
        /// The remaining depth, when the engine says (negative in a quiescence search).
        depth: Option<i32>,
        /// The position's key, when the engine says.
        key: Option<String>,
        /// A selective step the engine declares at this node.
        selective: Option<Selective>,
        /// A quiescence node's static evaluation, which stands for the moves it does not
        /// search: its running value starts there.
        stand_pat: Option<f64>,
    },
    /// A leaf (or a node at the horizon) evaluated.
    Leaf {
        /// The node.
        path: Path,
        /// Its value.
        value: f64,
        /// The remaining depth, when the engine says (0 at the horizon).
        depth: Option<i32>,
        /// The position's key, when the engine says: the table may store the leaf's value
        /// under it, and a later `tt-hit` read it.
        key: Option<String>,
        /// A selective step the engine declares at this node (a reduced search that ends
        /// here, a quiescence node that stands pat).
        selective: Option<Selective>,
    },
    /// The search leaves an interior node.
    Exit {
        /// The node.
        path: Path,
        /// The value returned.
        value: f64,
        /// Exact, or a lower or upper bound.
        bound: Bound,
    },
    /// The node stops searching its children after `after`.
    Cutoff {
        /// The node.
        path: Path,
        /// The child after which it stopped (a null move: [`Move::Null`]).
        after: Move,
    },
    /// The transposition table has an entry for the node.
    TtHit {
        /// The node.
        path: Path,
        /// The entry's value.
        value: f64,
        /// What kind of bound the entry is.
        bound: Bound,
        /// The node's remaining depth (as `enter`'s), when the engine says; the entry's own
        /// depth is that of the earlier search that stored it.
        depth: Option<i32>,
        /// The node's position key (as `enter`'s), when the engine says.
        key: Option<String>,
    },
    /// Iterative deepening begins its iteration to `depth`.
    Iteration {
        /// The iteration's depth.
        depth: u32,
    },
}

impl Event {
    /// The event's name in the protocol.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Enter { .. } => "enter",
            Event::Leaf { .. } => "leaf",
            Event::Exit { .. } => "exit",
            Event::Cutoff { .. } => "cutoff",
            Event::TtHit { .. } => "tt-hit",
            Event::Iteration { .. } => "iteration",
        }
    }

    /// The selective step an `enter` or a `leaf` declares.
    pub fn selective(&self) -> Option<Selective> {
        match self {
            Event::Enter { selective, .. } | Event::Leaf { selective, .. } => *selective,
            _ => None,
        }
    }

    /// The node the event concerns (none for an iteration).
    pub fn path(&self) -> Option<&Path> {
        match self {
            Event::Enter { path, .. }
            | Event::Leaf { path, .. }
            | Event::Exit { path, .. }
            | Event::Cutoff { path, .. }
            | Event::TtHit { path, .. } => Some(path),
            Event::Iteration { .. } => None,
        }
    }
}

/// An event with the line it stands on (from 1) and that line's text, to quote as proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The line number in the file, from 1.
    pub number: usize,
    /// The line as written.
    pub text: String,
    /// The event.
    pub event: Event,
}

/// A whole trace: the header and the events in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// What the engine claims.
    pub header: Header,
    /// The events.
    pub lines: Vec<Line>,
}
