//! What the edit keys do to the explorer: an edit, undo and redo replace the tree once its runs
//! are searched again; save writes it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::search::Algorithm;
use crate::tree::{NodeId, Tree};
use crate::tui::app::App;
use crate::tui::form::{Field, FieldId, Form, Purpose};

use super::{Edit, History, Replacing, UNDO_DEPTH, Version, apply, edit_form, path_of};

impl App {
    /// The algorithms of the runs on screen.
    /// The algorithms of the runs searched on this tree (not those kept from before a reorder).
    fn algos(&self) -> Vec<Algorithm> {
        self.runs
            .iter()
            .filter(|r| r.kept.is_none())
            .map(|r| r.algo.clone())
            .collect()
    }

    /// Replaces the tree by `tree` once the runs in `wanted` that apply to it are searched
    /// again on it (in the background); says which do not apply.
    pub(in crate::tui) fn rerun_on(
        &mut self,
        tree: Arc<Tree>,
        source: String,
        wanted: Vec<Algorithm>,
        replacing: Replacing,
    ) {
        if self.worker.is_busy() {
            self.status = Some(("busy: wait for the work in progress".into(), true));
            return;
        }
        let (algos, dropped): (Vec<Algorithm>, Vec<Algorithm>) =
            wanted.into_iter().partition(|a| a.refusal(&tree).is_none());
        if !dropped.is_empty() {
            let why: Vec<String> = dropped
                .iter()
                .filter_map(|a| a.refusal(&tree).map(|r| format!("{a}: {r}")))
                .collect();
            self.status = Some((format!("dropped {}", why.join("; ")), true));
        }
        self.replacing = Some(replacing);
        self.start_runs(tree, algos, Some(source));
    }

    /// Applies `edit` to the selected node: the new tree replaces this one when its runs are
    /// searched again; a refused edit changes nothing and says why.
    pub(in crate::tui) fn edit(&mut self, target: NodeId, edit: &Edit) -> Result<(), String> {
        let tree = apply(&self.tree, target, edit)?;
        let path = path_of(&self.tree, target);
        let (select, message) = match edit {
            Edit::Delete => (
                path[..path.len().saturating_sub(1)].to_vec(),
                format!(
                    "deleted {} node{}",
                    self.sizes[target.index()],
                    if self.sizes[target.index()] == 1 {
                        ""
                    } else {
                        "s"
                    }
                ),
            ),
            Edit::AddChild => {
                let mut p = path.clone();
                p.push(self.tree.child_count(target));
                (p, "added a leaf".to_owned())
            }
            Edit::Set { .. } => (
                path,
                format!("edited {}", crate::text::node_name(&self.tree, target)),
            ),
        };
        let replacing = Replacing {
            file: self.file.clone(),
            select: Some(select),
            history: History::Change,
            message: Some(message),
            before: Vec::new(),
            changed: true,
            kept: Vec::new(),
        };
        let algos = self.algos();
        self.rerun_on(Arc::new(tree), self.source.clone(), algos, replacing);
        Ok(())
    }

    pub(in crate::tui) fn edit_action(&mut self, action: crate::tui::keymap::Action) {
        use crate::tui::keymap::Action;
        let sel = self.outline.selected;
        match action {
            Action::EditNode => self.mode = crate::tui::app::Mode::Form(edit_form(&self.tree, sel)),
            Action::AddChild | Action::DeleteNode => {
                let e = if action == Action::AddChild {
                    Edit::AddChild
                } else {
                    Edit::Delete
                };
                if let Err(why) = self.edit(sel, &e) {
                    self.status = Some((why, true));
                }
            }
            Action::Undo | Action::Redo => self.undo_redo(action == Action::Undo),
            Action::Save => match self.file.clone() {
                Some(f) => {
                    if let Err(e) = self.save_to(&f) {
                        self.status = Some((e, true));
                    }
                }
                None => self.mode = crate::tui::app::Mode::Form(self.save_form()),
            },
            Action::SaveAs => self.mode = crate::tui::app::Mode::Form(self.save_form()),
            _ => {}
        }
    }

    fn undo_redo(&mut self, undo: bool) {
        let stack = if undo { &self.undo } else { &self.redo };
        let Some(v) = stack.last().cloned() else {
            let what = if undo { "undo" } else { "redo" };
            self.status = Some((format!("nothing to {what}"), false));
            return;
        };
        let select = path_of(&self.tree, self.outline.selected);
        let replacing = Replacing {
            file: v.file,
            select: Some(select),
            history: if undo { History::Undo } else { History::Redo },
            message: Some(if undo { "undone" } else { "redone" }.to_owned()),
            before: Vec::new(),
            changed: true,
            kept: Vec::new(),
        };
        let algos = self.algos();
        self.rerun_on(v.tree, v.source, algos, replacing);
    }

    /// The tree now on screen, for the history.
    pub(in crate::tui) fn version(&self) -> Version {
        Version {
            tree: Arc::clone(&self.tree),
            source: self.source.clone(),
            file: self.file.clone(),
        }
    }

    /// Records the tree being replaced in the history, as `how` asks.
    pub(in crate::tui) fn record(&mut self, how: History) {
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

    pub(in crate::tui) fn save_form(&self) -> Form {
        let path = match &self.file {
            Some(f) => f.display().to_string(),
            None => format!(
                "{}.ron",
                crate::tui::dialogs::file_stem(&self.tree.meta().name)
            ),
        };
        Form::new(
            "Save the tree (RON, or .efg / .txt by extension)",
            Purpose::Save,
            vec![Field::text(FieldId::SavePath, "file", path)],
        )
    }

    /// Carries out the save form: a file other than the tree's own is not overwritten without
    /// a second Enter.
    pub(in crate::tui) fn submit_save(&mut self, form: &Form) -> Result<(), String> {
        let path = form.text(FieldId::SavePath).map_err(|e| e.to_string())?;
        if path.is_empty() {
            return Err("type the path to save the tree to".into());
        }
        let path = PathBuf::from(path);
        if self.file.as_ref() != Some(&path) {
            self.confirm_overwrite(&[path.display().to_string()])?;
        }
        self.save_to(&path)
    }

    /// The format a save to `path` writes: the one its extension names; for the file the tree
    /// came from, the one its text is in (as the loader read it); RON on a stream.
    fn save_format(&self, path: &Path) -> Result<crate::format::Format, String> {
        use crate::format::Format;
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
        match crate::format::save::output_file(Some(path)) {
            None => Ok(Format::Ron),
            Some(file) => Err(format!(
                "{}: {}; name it .ron, .efg, .txt, .tree or .bracket",
                crate::text::terminal_safe(&file.display().to_string()),
                crate::format::unnamed_format(file)
            )),
        }
    }

    /// Writes the tree to `path` the way the command line writes (atomically; devices in
    /// place), in the format its extension names. The file the tree was read from keeps the
    /// format it was read in whatever its name; any other name that names no format is refused
    /// rather than guessed, as the command line refuses it.
    pub(in crate::tui) fn save_to(&mut self, path: &Path) -> Result<(), String> {
        if path.as_os_str() == "-" {
            return Err("the explorer is drawing on standard output: give a file name".into());
        }
        let format = self.save_format(path)?;
        crate::format::check_text_room(&self.tree, format)?;
        crate::format::save(&self.tree, path, Some(format))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.file = Some(path.to_path_buf());
        self.source = path.display().to_string();
        self.unsaved = false;
        self.status = Some((
            format!("saved {} nodes to {}", self.tree.len(), path.display()),
            false,
        ));
        Ok(())
    }
}
