//! The tree on screen and the facts the explorer keeps about it: where it came from, its
//! subtree sizes, its true values, its Knuth–Moore types, why each algorithm refuses it, the
//! file `w` saves to, whether it changed since, and the earlier trees undo goes back to. Every
//! fact is computed once when the tree arrives ([`Doc::replace`]), never per frame.
//!
//! The edit keys are answered here too: an edit, undo or redo gives the [`Replacement`] that
//! takes this tree's place once its runs are searched again (the app starts that search), and
//! save writes the tree.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use prune::analyze::{self, Analysis};
use prune::format::Format;
use prune::search::{ALGORITHMS, Algorithm, Params, Reference, Refusal};
use prune::tree::{NodeId, Tree};

use super::edit::{Edit, History, Replacing, UNDO_DEPTH, Version, apply, path_of};
use super::form::{Field, FieldId, Form, Purpose};

pub struct Doc {
    pub(crate) tree: Arc<Tree>,
    /// Where the tree came from: a path or "(built-in example)".
    pub(crate) source: String,
    pub(crate) sizes: Vec<u32>,
    /// Knuth–Moore types, for two-player trees without chance nodes.
    pub(crate) analysis: Option<Analysis>,
    pub(crate) reference: Reference,
    /// How many positions below each node a game's search never expanded
    /// ([`prune::game::lazy::unexpanded_below`]); empty for every other tree.
    pub(crate) unexpanded: Vec<u32>,
    refusals: Vec<Option<Refusal>>,
    /// The file the tree was loaded from or last saved to: where `w` saves. `None` for a
    /// generated, reordered or built-in tree, which `w` asks a path for.
    pub(crate) file: Option<PathBuf>,
    /// The tree was edited (or reordered) since it was opened, generated or saved.
    pub(crate) unsaved: bool,
    /// Earlier trees (undo) and undone ones (redo), the latest last.
    pub(super) undo: Vec<Version>,
    pub(super) redo: Vec<Version>,
}

impl Doc {
    pub fn new(tree: Tree, source: String) -> Doc {
        let mut doc = Doc {
            tree: Arc::new(tree),
            source,
            sizes: Vec::new(),
            analysis: None,
            reference: Reference::Scalars(Vec::new()),
            unexpanded: Vec::new(),
            refusals: Vec::new(),
            file: None,
            unsaved: false,
            undo: Vec::new(),
            redo: Vec::new(),
        };
        doc.analyse();
        doc
    }

    /// `tree` in place of this one, its facts computed again; the history is the caller's
    /// ([`Doc::record`]).
    pub fn replace(&mut self, tree: Tree, source: String) {
        self.tree = Arc::new(tree);
        self.source = source;
        self.analyse();
    }

    fn analyse(&mut self) {
        self.sizes = self.tree.subtree_sizes();
        self.reference = if self.tree.is_multiplayer() {
            Reference::of(&self.tree, &Algorithm::Maxn)
        } else {
            Reference::of(&self.tree, &Algorithm::Expectiminimax)
        };
        self.analysis = analyze::analyze(&self.tree).ok();
        self.unexpanded = prune::game::lazy::unexpanded_below(&self.tree);
        // Some refusals scan every leaf: computed once per tree, not per frame.
        self.refusals = ALGORITHMS
            .iter()
            .map(|i| {
                Algorithm::with_params(i.name, &Params::default())
                    .ok()
                    .and_then(|a| a.refusal(&self.tree))
            })
            .collect();
    }

    /// Why each algorithm cannot search this tree, in [`ALGORITHMS`] order.
    pub fn refusals(&self) -> &[Option<Refusal>] {
        &self.refusals
    }

    /// The first algorithm that can search this tree, where the picker opens.
    pub fn first_applicable(&self) -> usize {
        self.refusals.iter().position(Option::is_none).unwrap_or(0)
    }

    /// The tree now on screen, for the history.
    pub fn version(&self) -> Version {
        Version {
            tree: Arc::clone(&self.tree),
            source: self.source.clone(),
            file: self.file.clone(),
        }
    }

    /// The last tree undo (or redo) goes back to.
    pub fn last(&self, undo: bool) -> Option<&Version> {
        if undo { &self.undo } else { &self.redo }.last()
    }

    /// Records the tree being replaced in the history, as `how` asks.
    pub fn record(&mut self, how: History) {
        let now = self.version();
        match how {
            History::Keep => {}
            History::Change => {
                self.undo.push(now);
                self.redo.clear();
            }
            History::Undo => {
                self.undo.pop();
                self.redo.push(now);
            }
            History::Redo => {
                self.redo.pop();
                self.undo.push(now);
            }
        }
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
    }
}

/// A tree to replace this one once its runs are searched again on it.
pub struct Replacement {
    pub tree: Arc<Tree>,
    pub source: String,
    pub replacing: Replacing,
}

/// The edit keys: each answers with the tree that replaces this one, or says why not.
impl Doc {
    /// `edit` applied to `target`; a refused edit changes nothing and says why.
    pub fn edit(&self, target: NodeId, edit: &Edit) -> Result<Replacement, String> {
        let tree = apply(&self.tree, target, edit)?;
        let path = path_of(&self.tree, target);
        let (select, message) = match edit {
            Edit::Delete => {
                let n = self.sizes[target.index()];
                let s = if n == 1 { "" } else { "s" };
                (
                    path[..path.len().saturating_sub(1)].to_vec(),
                    format!("deleted {n} node{s}"),
                )
            }
            Edit::AddChild => {
                let mut p = path.clone();
                p.push(self.tree.child_count(target));
                (p, "added a leaf".to_owned())
            }
            Edit::Set { .. } => (
                path,
                format!(
                    "edited {}",
                    prune::tree::names::node_name(&self.tree, target)
                ),
            ),
        };
        Ok(Replacement {
            tree: Arc::new(tree),
            source: self.source.clone(),
            replacing: Replacing {
                file: self.file.clone(),
                select: Some(select),
                message: Some(message),
                changed: true,
                ..Replacing::new(History::Change)
            },
        })
    }

    /// The tree undo (or redo) goes back to, `selected` kept by its path; what to say when
    /// there is none.
    pub fn undo_redo(&self, undo: bool, selected: NodeId) -> Result<Replacement, String> {
        let Some(v) = self.last(undo).cloned() else {
            let what = if undo { "undo" } else { "redo" };
            return Err(format!("nothing to {what}"));
        };
        Ok(Replacement {
            tree: v.tree,
            source: v.source,
            replacing: Replacing {
                file: v.file,
                select: Some(path_of(&self.tree, selected)),
                message: Some(if undo { "undone" } else { "redone" }.to_owned()),
                changed: true,
                ..Replacing::new(if undo { History::Undo } else { History::Redo })
            },
        })
    }

    pub fn save_form(&self) -> Form {
        let path = match &self.file {
            Some(f) => f.display().to_string(),
            None => format!("{}.ron", file_stem(&self.tree.meta().name)),
        };
        Form::new(
            "Save the tree (RON, or .efg / .txt by extension)",
            Purpose::Save,
            vec![Field::text(FieldId::SavePath, "file", path)],
        )
    }

    /// The path the save form names.
    pub fn save_target(form: &Form) -> Result<PathBuf, String> {
        let path = form.text(FieldId::SavePath).map_err(|e| e.to_string())?;
        if path.is_empty() {
            return Err("type the path to save the tree to".into());
        }
        Ok(PathBuf::from(path))
    }

    /// The format a save to `path` writes: the one its extension names; for the file the tree
    /// came from, the one its text is in (as the loader read it); RON on a stream.
    fn save_format(&self, path: &Path) -> Result<Format, String> {
        if let Some(format) = Format::from_path(path) {
            return Ok(format);
        }
        if self.file.as_deref() == Some(path) {
            let mut head = Vec::new();
            let read = std::fs::File::open(path).and_then(|f| {
                std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head)
            });
            if read.is_ok() {
                return Ok(Format::sniff(&String::from_utf8_lossy(&head)));
            }
        }
        match prune::format::save::output_file(Some(path)) {
            None => Ok(Format::Ron),
            Some(file) => Err(format!(
                "{}: {}; name it .ron, .efg, .txt, .tree or .bracket",
                prune::text::terminal_safe(&file.display().to_string()),
                prune::format::unnamed_format(file)
            )),
        }
    }

    /// Writes the tree to `path` the way the command line writes (atomically; devices in
    /// place), in the format its extension names, and says so. The file the tree was read from
    /// keeps the format it was read in whatever its name; any other name that names no format
    /// is refused rather than guessed, as the command line refuses it.
    pub fn save_to(&mut self, path: &Path) -> Result<String, String> {
        if path.as_os_str() == "-" {
            return Err("the explorer is drawing on standard output: give a file name".into());
        }
        let format = self.save_format(path)?;
        prune::format::check_text_room(&self.tree, format)?;
        prune::format::save(&self.tree, path, Some(format))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.file = Some(path.to_path_buf());
        self.source = path.display().to_string();
        self.unsaved = false;
        Ok(format!(
            "saved {} nodes to {}",
            self.tree.len(),
            path.display()
        ))
    }
}

/// A name for files: lowercase letters and digits, everything else one dash.
pub fn file_stem(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    let s = s.trim_matches('-').to_owned();
    if s.is_empty() { "tree".into() } else { s }
}
