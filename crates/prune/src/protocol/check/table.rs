//! Transposition-table hits, judged by what the trace itself stored.
//!
//! An engine's table holds what earlier searches of a position returned, so every entry a
//! hit reads must be an earlier `exit` of the same position — named by its `key`, or without
//! one by its path (a node is its own position) — with the hit's value and bound. The
//! entry's depth is that exit's `enter`'s. An entry may be *used* (Marsland 1986, the
//! transposition-table version of alpha-beta) only when it was searched at least as deep as
//! the node has left, and then only as far as its bound goes: an exact value, a lower bound
//! ≥ β or an upper bound ≤ α answers the node; any other entry at most narrows the window it
//! is searched with (a lower bound raises α, an upper bound lowers β). A depth or a key the
//! engine does not write is not judged: the rule needs both ends of the comparison.

use std::collections::HashMap;

use super::{Bound, Claim, Frame, Move, Path, Side, Step, Walk, departure, num, window_text};
use crate::protocol::Header;
use crate::protocol::{path_text, write::bound_name};

/// A position: the engine's key, or the node's path when it gives none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Position {
    Key(String),
    Path(Path),
}

impl Position {
    pub(super) fn of(path: &[Move], key: Option<&str>) -> Position {
        match key {
            Some(k) => Position::Key(k.to_owned()),
            None => Position::Path(path.to_vec()),
        }
    }

    fn text(&self) -> String {
        match self {
            Position::Key(k) => format!("key {k}"),
            Position::Path(p) => format!("{} (no key: its path)", path_text(p)),
        }
    }
}

/// One exit, as a table would keep it.
#[derive(Clone, Debug)]
pub(super) struct Stored {
    /// The value and bound as written: in negamax form from the side to move, in minimax form
    /// from Max's; either way the same wherever the position is reached, so they compare as
    /// written.
    written: (f64, Bound),
    depth: Option<i32>,
    /// The plies from the root where it was stored: a mate score read elsewhere is moved by
    /// the difference.
    ply: usize,
    enter_line: usize,
    exit_line: usize,
}

/// Every exit so far, by position.
#[derive(Default)]
pub(super) struct Table {
    entries: HashMap<Position, Vec<Stored>>,
}

impl Table {
    /// Files the exit of `f` on line `n`.
    pub(super) fn store(&mut self, f: &Frame, n: usize, written: (f64, Bound)) {
        self.entries
            .entry(f.position.clone())
            .or_default()
            .push(Stored {
                written,
                depth: f.depth,
                ply: f.path.len(),
                enter_line: f.enter_line,
                exit_line: n,
            });
    }

    /// Files a leaf evaluated on line `n` (a node at the horizon, or a game's end): an exact
    /// entry under its key (or path), at its depth.
    pub(super) fn store_leaf(
        &mut self,
        path: &[Move],
        key: Option<&str>,
        depth: Option<i32>,
        n: usize,
        written: (f64, Bound),
    ) {
        self.entries
            .entry(Position::of(path, key))
            .or_default()
            .push(Stored {
                written,
                depth,
                ply: path.len(),
                enter_line: n,
                exit_line: n,
            });
    }

    /// The entry a hit of `written` at `ply` reads: of the position's earlier exits with
    /// that value and bound, the deepest (the latest among equals). A mate score (the
    /// header's `mate`) counts plies from the root, so an engine moves it by the difference
    /// in plies when it reads it elsewhere: it is compared as a distance from the position.
    fn entry(
        &self,
        position: &Position,
        written: (f64, Bound),
        ply: usize,
        header: &Header,
    ) -> Option<&Stored> {
        let from_here = |(v, b): (f64, Bound), at: usize| match header.mate_distance(v) {
            Some(d) => (v.signum(), d - at as f64, b),
            None => (v, f64::NAN, b),
        };
        let same = |s: &Stored| {
            let (a, b) = (from_here(s.written, s.ply), from_here(written, ply));
            a.0 == b.0 && a.2 == b.2 && (a.1 == b.1 || (a.1.is_nan() && b.1.is_nan()))
        };
        self.entries
            .get(position)?
            .iter()
            .filter(|s| same(s))
            .max_by_key(|s| (s.depth, s.exit_line))
    }

    fn latest(&self, position: &Position) -> Option<&Stored> {
        self.entries.get(position)?.last()
    }
}

/// A table hit, with the entry the trace stored for it.
pub(super) struct Hit {
    pub(super) path: Path,
    /// The value and bound as written.
    pub(super) value: f64,
    bound: Bound,
    /// The same, from Max's point of view.
    pub(super) max: (f64, Bound),
    pub(super) side: Side,
    pub(super) line: usize,
    /// The node's remaining depth: the hit's own, or its parent's less one.
    depth: Option<i32>,
    entry: Option<Stored>,
}

impl Hit {
    /// The window `want` narrowed by the entry's bound, when it is one.
    pub(super) fn narrowed(&self, (alpha, beta): (f64, f64)) -> Option<(f64, f64)> {
        match self.max {
            (v, Bound::Lower) => Some((alpha.max(v), beta)),
            (v, Bound::Upper) => Some((alpha, beta.min(v))),
            (_, Bound::Exact) => None,
        }
    }
}

/// Whether an entry (Max's point of view) answers a node searched with `(alpha, beta)`.
fn settles((v, b): (f64, Bound), (alpha, beta): (f64, f64)) -> bool {
    match b {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    }
}

impl Walk<'_> {
    /// A `tt-hit` on line `n`: the entry it reads must be one the trace stored.
    pub(super) fn look_up(
        &self,
        n: usize,
        path: &Path,
        written: (f64, Bound),
        depth: Option<i32>,
        key: Option<&str>,
    ) -> Result<Hit, Box<super::Departure>> {
        let position = Position::of(path, key);
        let parent = self.stack.last();
        let entry = self
            .table
            .entry(&position, written, path.len(), &self.trace.header)
            .cloned();
        if entry.is_none() {
            let mut lines: Vec<usize> = self
                .table
                .latest(&position)
                .map(|s| vec![s.enter_line, s.exit_line])
                .unwrap_or_default();
            lines.push(n);
            let stored = self.table.latest(&position).map_or(
                "the trace has no earlier exit of it".to_owned(),
                |s| {
                    format!(
                        "its last exit returned {} ({})",
                        num(s.written.0),
                        bound_name(s.written.1)
                    )
                },
            );
            return Err(departure(
                path,
                format!(
                    "reads a table entry for {}, {} ({}), that no search stored",
                    path_text(path),
                    num(written.0),
                    bound_name(written.1)
                ),
                format!(
                    "an entry is what an earlier search of the same position ({}) returned: {stored}",
                    position.text()
                ),
                lines,
            ));
        }
        // An entry holds the value as written: in negamax form the position's value for the
        // side to move, whoever that is where it is read (an impartial game's key may leave the
        // side out), so it is read in the frame of the node that reads it.
        let side = parent.map_or(Side::Max, |f| f.side.other());
        Ok(Hit {
            path: path.clone(),
            value: written.0,
            bound: written.1,
            max: (self.conv(side, written.0), self.conv_bound(side, written.1)),
            side,
            line: n,
            depth: depth.or_else(|| Some(parent?.depth? - 1)),
            entry,
        })
    }

    /// The window the hit's node would be searched with, from Max's point of view: the one
    /// its parent gives this child (none at the root, and for minimax, which has none).
    fn hit_window(&self) -> (f64, f64) {
        let full = (f64::NEG_INFINITY, f64::INFINITY);
        match self.stack.last() {
            Some(f) if self.claim != Claim::Minimax => self.window_settled(f),
            _ => full,
        }
    }

    /// Whether a hit followed by its node's `enter` with `window` (Max's point of view) is an
    /// answer and then a search of the node again (PVS's re-search after a null-window search
    /// the entry answered), rather than an entry that narrows the window: the entry settles
    /// the window it was read for, and the node is entered with a window it does not narrow
    /// to.
    pub(super) fn answer_then_search(&self, hit: &Hit, window: (f64, f64)) -> bool {
        let Some(f) = self.stack.last() else {
            return false;
        };
        settles(hit.max, self.hit_window())
            && hit.narrowed(self.window_wanted(f)) != Some(window)
            && !self.window_fits(f, window)
    }

    /// A hit that answered its node: its entry must settle the node's window.
    pub(super) fn settles(&self, hit: &Hit) -> Step {
        let window = self.hit_window();
        if settles(hit.max, window) {
            return Ok(());
        }
        let mut lines: Vec<usize> = self
            .stack
            .last()
            .map(|f| f.enter_line)
            .into_iter()
            .collect();
        lines.extend(hit.entry.as_ref().map(|s| s.exit_line));
        lines.push(hit.line);
        Err(departure(
            &hit.path,
            format!(
                "takes {}'s value from the table, {} ({}), without searching it",
                path_text(&hit.path),
                num(hit.value),
                bound_name(hit.bound)
            ),
            format!(
                "an entry answers a node only when it is exact, a lower bound ≥ β or an upper bound ≤ α of the node's window {}; this one can only narrow it",
                window_text(self.values().window_to_max(hit.side, window))
            ),
            lines,
        ))
    }

    /// A hit whose entry is used (`verb`: answers, narrows the window of): the entry must
    /// have been searched at least as deep as the node has left.
    pub(super) fn deep_enough(&self, hit: &Hit, verb: &str) -> Step {
        let (Some(entry), Some(left)) = (&hit.entry, hit.depth) else {
            return Ok(());
        };
        match entry.depth {
            Some(stored) if stored < left => Err(departure(
                &hit.path,
                format!(
                    "{verb} {} with an entry stored at depth {stored}",
                    path_text(&hit.path),
                ),
                format!(
                    "an entry is used only at a node with no more depth left than it was searched to: {} has depth {left} left, the entry {stored}",
                    path_text(&hit.path)
                ),
                vec![entry.enter_line, entry.exit_line, hit.line],
            )),
            _ => Ok(()),
        }
    }
}
