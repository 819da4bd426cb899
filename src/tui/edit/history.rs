//! The edit history: the trees undo and redo go back to, and what a tree on its way in (its
//! runs searched again) does to the history when it arrives.

use std::path::PathBuf;
use std::sync::Arc;

use crate::tui::runs::RunView;
use prune::tree::Tree;

/// How many earlier trees undo keeps.
pub const UNDO_DEPTH: usize = 100;

/// A tree as it was: what undo and redo go back to.
#[derive(Clone)]
pub struct Version {
    pub tree: Arc<Tree>,
    pub source: String,
    pub file: Option<PathBuf>,
}

/// What a replacement of the tree does to the history.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum History {
    /// The first tree: nothing to go back to.
    Keep,
    /// A change: the old tree can be undone to, redo is forgotten.
    Change,
    Undo,
    Redo,
}

/// A tree on its way in (its runs are being searched again): what to do when it arrives.
pub struct Replacing {
    pub file: Option<PathBuf>,
    /// The node to select, by path; `None` selects the root.
    pub select: Option<Vec<usize>>,
    pub history: History,
    pub message: Option<String>,
    /// The leaves each run (by label) evaluated on the tree before, to compare with after
    /// (a reorder says what it changed).
    pub before: Vec<(String, u64)>,
    /// The new tree differs from what its file (or generator) gave: edits, undo, reorder.
    pub changed: bool,
    /// Runs of the tree before, told on the new one (a reorder), shown after the new runs.
    pub kept: Vec<RunView>,
}

impl Replacing {
    /// A replacement that does `history` and nothing else: no file, the root selected, no
    /// message, nothing to compare or keep.
    pub fn new(history: History) -> Replacing {
        Replacing {
            file: None,
            select: None,
            history,
            message: None,
            before: Vec::new(),
            changed: false,
            kept: Vec::new(),
        }
    }
}

/// The message after a replacement: `message`, then each run's leaves now and before.
pub fn compared(message: &str, before: &[(String, u64)], runs: &[RunView]) -> String {
    let changes: Vec<String> = runs
        .iter()
        .filter_map(|r| {
            if r.kept.is_some() {
                return None;
            }
            let label = r.algo.label();
            let (_, was) = before.iter().find(|(l, _)| *l == label)?;
            Some(format!("{label} {} leaves, was {was}", r.run.stats.leaves))
        })
        .collect();
    if changes.is_empty() {
        message.to_owned()
    } else {
        format!("{message}: {}", changes.join("; "))
    }
}
