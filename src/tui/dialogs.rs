//! The explorer's forms — run, open, generate, reorder, export — and what submitting each does.
//! The forms themselves are plain data ([`super::form`]); this is where each is built and read:
//! [`Dialogs::submit`] reads a submitted form: files written (an export, a report, the tree
//! saved) are done here; an algorithm, a path, work or a tree come back as [`Submitted`], which
//! `App::update` starts. [`Dialogs`] is also what the forms remember between openings.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use prune::draw::{At, Options, PictureFormat};
use prune::format;
use prune::search::{Algorithm, AlgorithmInfo, Control, Params, Reference, Value, find_param};
use prune::trace::export;
use prune::tree::{Kind, NodeId, Tree};

use super::doc::{Doc, Replacement, file_stem};
use super::edit::{History, Replacing};
use super::form::{Field, FieldId, Form, MissingField, Purpose};
use super::layout::Layout;
use super::practice::Practice;
use super::runs::RunView;
use super::scene::Scene;
use super::worker::Done;

/// The form of an algorithm's parameters, from the catalogue's descriptions.
pub fn run_form(info: &'static AlgorithmInfo, players: usize) -> Form {
    Form::new(
        format!("Run {} on this {players}-player tree", info.name),
        Purpose::Run(info.name),
        info.params.iter().map(Field::param).collect(),
    )
}

/// What the forms remember between openings.
#[derive(Default)]
pub struct Dialogs {
    /// The last generator settings, so the form reopens as it was left.
    pub(super) gen_form: Option<Form>,
    /// Export files the user was told exist; a second Enter on the same names overwrites them.
    overwrite_confirmed: Option<Vec<String>>,
}

impl Dialogs {
    /// The generate form as it was left, or with the defaults.
    pub fn generate_form(&self) -> Form {
        self.gen_form.clone().unwrap_or_else(|| {
            super::generate_form::form(
                &prune::generate::Spec::default_for("uniform").expect("uniform is a family"),
                1,
            )
        })
    }

    /// An earlier file among `paths` (empty ones skipped) is not overwritten without a second
    /// Enter on the same names: the first says so, as the form's error.
    pub fn confirm_overwrite(&mut self, paths: &[String]) -> Result<(), String> {
        let existing: Vec<String> = paths
            .iter()
            .filter(|p| !p.is_empty() && Path::new(p.as_str()).is_file())
            .cloned()
            .collect();
        if !existing.is_empty() && self.overwrite_confirmed.as_ref() != Some(&existing) {
            let msg = format!(
                "{} already exist{}: Enter again overwrites, or change the name",
                existing.join(", "),
                if existing.len() == 1 { "s" } else { "" }
            );
            self.overwrite_confirmed = Some(existing);
            return Err(msg);
        }
        self.overwrite_confirmed = None;
        Ok(())
    }

    /// Reads a confirmed form and does what it asks that is the forms' own — writing the
    /// export, the report or the tree — or says what the explorer must start; an error keeps
    /// the form open with the message. The export draws its picture from the selected node
    /// in the diagram view (`layout`), from the root otherwise.
    pub fn submit(
        &mut self,
        form: &Form,
        scene: &mut Scene,
        layout: &Layout,
        practice: Option<&Practice>,
    ) -> Result<Submitted, String> {
        let doc = &scene.doc;
        Ok(match &form.purpose {
            Purpose::Run(name) => Submitted::Run(run_algorithm(form, name, &doc.tree)?),
            Purpose::Open => Submitted::Open(open_path(form)?),
            Purpose::Generate => {
                let (what, work) = super::generate_form::job(form)?;
                self.gen_form = Some(form.clone());
                Submitted::Work(what, Box::new(work))
            }
            Purpose::Reorder => {
                let (r, algos) = reordered(form, doc, &scene.runs)?;
                Submitted::Replace(r, algos)
            }
            Purpose::Export => {
                let root = if layout.diagram {
                    scene.outline.selected
                } else {
                    doc.tree.root()
                };
                Submitted::Said(export(form, doc, scene.current_run(), root, self)?)
            }
            Purpose::PracticeReport => {
                // The tree as the title bar names it: its file, or the --expr / --gen that
                // built it.
                let source = if doc.unsaved {
                    format!("{} (unsaved changes)", doc.source)
                } else {
                    doc.source.clone()
                };
                Submitted::Said(super::practice::save_report(practice, form, &source, self)?)
            }
            Purpose::Edit(path) => {
                let edit = super::edit::edit_of(form)?;
                let target = super::edit::node_at(&doc.tree, path);
                Submitted::Replace(doc.edit(target, &edit)?, scene.algos())
            }
            Purpose::Save => {
                // A file other than the tree's own is not overwritten without a second Enter.
                let path = Doc::save_target(form)?;
                if doc.file.as_ref() != Some(&path) {
                    self.confirm_overwrite(&[path.display().to_string()])?;
                }
                Submitted::Said(scene.doc.save_to(&path)?)
            }
        })
    }
}

/// What a submitted form asks the explorer to start, or what it did.
pub enum Submitted {
    /// Search the tree with this algorithm, in the background.
    Run(Algorithm),
    /// Load this file, in the background.
    Open(PathBuf),
    /// Start this work (what it is called, and the work), in the background.
    Work(String, Box<dyn FnOnce(&Control) -> Done + Send>),
    /// Replace the tree by this once the runs of these algorithms are searched again on it.
    Replace(Replacement, Vec<Algorithm>),
    /// Done; the status bar says this.
    Said(String),
}

pub fn open_form() -> Form {
    Form::new(
        "Open a tree (RON, .efg or bracket notation)",
        Purpose::Open,
        vec![Field::text(FieldId::File, "file", "")],
    )
}

pub fn reorder_form() -> Form {
    Form::new(
        "Reorder every node's children, then re-run",
        Purpose::Reorder,
        vec![
            Field::choice(
                FieldId::Order,
                "order",
                &["best first", "worst first", "random"],
                0,
            ),
            Field::text(FieldId::Seed, "seed", "1"),
        ],
    )
}

/// The export form of `run` (the current run) on `tree`.
pub fn export_form(tree: &Tree, run: Option<&RunView>) -> Form {
    // The run's parameters are part of the name: `star2 --probes 2` and `star2` differ.
    let stem = match run {
        Some(r) => format!("{}-{}", file_stem(&tree.meta().name), file_stem(&r.name())),
        None => file_stem(&tree.meta().name),
    };
    let step = run.map_or(0, |r| r.step);
    Form::new(
        "Export the selected run (empty: skip)",
        Purpose::Export,
        vec![
            Field::text(FieldId::TraceFile, "trace (JSONL)", format!("{stem}.jsonl")),
            Field::text(FieldId::StatsFile, "stats (CSV)", format!("{stem}.csv")),
            Field::text(FieldId::PictureFile, "picture (DOT)", format!("{stem}.dot")),
            Field::text(
                FieldId::StepPictureFile,
                "picture of this step (.txt .svg .tex .dot)",
                format!("{stem}-step{step}.svg"),
            ),
        ],
    )
}

fn missing(e: MissingField) -> String {
    e.to_string()
}

/// The algorithm `name` with the parameters the run form gives, if it can search `tree`.
pub fn run_algorithm(form: &Form, name: &str, tree: &Tree) -> Result<Algorithm, String> {
    let mut p = Params::default();
    for f in &form.fields {
        let FieldId::Param(param) = f.id else {
            continue;
        };
        let text = form.text(f.id).map_err(missing)?;
        let spec = find_param(param);
        let text = (!text.is_empty()).then_some(text);
        if text.is_some() || spec.kind == prune::search::ParamKind::OptionalReal {
            p.set(spec, name, text).map_err(|e| e.to_string())?;
        }
    }
    let algo = Algorithm::with_params(name, &p).map_err(|e| e.to_string())?;
    match algo.refusal(tree) {
        Some(why) => Err(why.to_string()),
        None => Ok(algo),
    }
}

/// The file the open form names.
pub fn open_path(form: &Form) -> Result<PathBuf, String> {
    let path = PathBuf::from(form.text(FieldId::File).map_err(missing)?);
    if path.as_os_str().is_empty() {
        return Err("type the path of a tree file".into());
    }
    Ok(path)
}

/// The tree the reorder form asks for, to replace `doc`'s once the runs (the algorithms
/// returned) are searched again on it.
pub fn reordered(
    form: &Form,
    doc: &Doc,
    runs: &[RunView],
) -> Result<(Replacement, Vec<Algorithm>), String> {
    let seed = parse_num::<u64>(form.text(FieldId::Seed).map_err(missing)?, "seed")?;
    let how = form.choice(FieldId::Order).map_err(missing)?;
    let (tree, map) = reorder_map(&doc.tree, &doc.reference, how, seed);
    let fresh = || runs.iter().filter(|r| r.kept.is_none());
    let algos: Vec<Algorithm> = fresh().map(|r| r.algo.clone()).collect();
    // The runs searched on the order before stay, told on the new order, so that before and
    // after are side by side (runs kept from an older order go).
    let kept = fresh()
        .map(|r| r.kept_on(&doc.tree, &tree, &map, "before reorder"))
        .collect();
    // The reordered tree is not what the file holds: `w` asks where to save it, and `u`
    // gives the original order back.
    let replacing = Replacing {
        message: Some(format!("reordered {how} (u: original order)")),
        before: fresh()
            .map(|r| (r.algo.label(), r.run.stats.leaves))
            .collect(),
        changed: true,
        kept,
        ..Replacing::new(History::Change)
    };
    let tree = Arc::new(tree);
    let source = doc.source.clone();
    Ok((
        Replacement {
            tree,
            source,
            replacing,
        },
        algos,
    ))
}

/// Writes the files the export form names for `run` (the picture of its step drawn from
/// `root`), and says which; existing files are not overwritten without a second Enter.
pub fn export(
    form: &Form,
    doc: &Doc,
    run: Option<&RunView>,
    root: NodeId,
    dialogs: &mut Dialogs,
) -> Result<String, String> {
    if run.is_none() {
        return Err("no run to export: run an algorithm first (r)".into());
    }
    let targets: Vec<String> = EXPORTS
        .into_iter()
        .map(|id| form.text(id).unwrap_or("").to_owned())
        .collect();
    dialogs.confirm_overwrite(&targets)?;
    let Some(r) = run else {
        return Err("no run to export".into());
    };
    let tree = &doc.tree;
    let mut written = Vec::new();
    for (id, path) in EXPORTS.into_iter().zip(&targets) {
        if path.is_empty() {
            continue;
        }
        if path == "-" {
            return Err("the explorer is drawing on standard output: give a file name".into());
        }
        let picture = if id == FieldId::StepPictureFile {
            let Some(format) = PictureFormat::from_extension(Path::new(path)) else {
                return Err(format!(
                    "{path}: name the picture .txt, .svg, .tex (TikZ) or .dot"
                ));
            };
            Some(step_picture(doc, r, root, format))
        } else {
            None
        };
        // Like the command line's outputs: FIFOs and devices written in place, links
        // followed, read-only files refused.
        let result = format::save_with(Path::new(path), |w| match id {
            FieldId::TraceFile => export::write_jsonl(w, tree, &r.run, &r.trace),
            FieldId::StatsFile => w.write_all(export::stats_csv(tree, &[&r.run]).as_bytes()),
            FieldId::StepPictureFile => w.write_all(picture.unwrap_or_default().as_bytes()),
            _ => prune::draw::dot::write_run(w, tree, &r.run, &r.trace),
        });
        result.map_err(|e| format!("cannot write {path}: {e}"))?;
        written.push(path.to_string());
    }
    Ok(format!("wrote {}", written.join(", ")))
}

/// The export form's files, in its order.
const EXPORTS: [FieldId; 4] = [
    FieldId::TraceFile,
    FieldId::StatsFile,
    FieldId::PictureFile,
    FieldId::StepPictureFile,
];

/// Run `r` at its step, as `prune draw` writes it (its default width), from `root`: the whole
/// tree, or the selected subtree when the diagram view is on.
fn step_picture(doc: &Doc, r: &RunView, root: NodeId, format: PictureFormat) -> String {
    let tree = &*doc.tree;
    let at = At::with_index(tree, &r.run, &r.trace, &r.index, r.step);
    let opts = Options {
        root,
        ..Options::default()
    };
    let pic = prune::draw::picture(tree, &doc.sizes, Some(&at), &opts);
    format.render(&pic, &prune::draw::title(tree, Some(&at)))
}

pub(super) fn parse_num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{what}: `{}` is not a valid number", s.trim()))
}

/// A copy of `tree` whose children are sorted by their true values: best first (for the
/// player to move), worst first, or shuffled with a seed.
///
/// The copy's name says so (`first steps (best first)`), so that its title and every trace
/// exported from it record the tree actually searched.
pub fn reorder(tree: &Tree, reference: &Reference, how: &str, seed: u64) -> Tree {
    reorder_map(tree, reference, how, seed).0
}

/// [`reorder`], and where each node went (`map[old id]` is its new id).
pub fn reorder_map(
    tree: &Tree,
    reference: &Reference,
    how: &str,
    seed: u64,
) -> (Tree, Vec<NodeId>) {
    let mut rng = prune::generate::Rng::new(seed);
    let (mut reordered, map) = tree.reordered_map(|t, id| {
        let n = t.child_count(id);
        let mut order: Vec<usize> = (0..n).collect();
        if how == "random" {
            for i in (1..n).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                order.swap(i, j);
            }
            return order;
        }
        // The mover's preference: larger is better at Max (and chance) nodes, smaller at Min,
        // the mover's own component at an n-player node.
        let score = |i: usize| -> f64 {
            let c = t.child(id, i);
            match (reference.get(c), t.kind(id)) {
                (Value::Scalar(v), Kind::Min) => -v,
                (Value::Scalar(v), _) => v,
                (Value::Vector(v), Kind::Player(p)) => v[usize::from(p)],
                (Value::Vector(v), _) => v.iter().sum(),
            }
        };
        order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
        if how == "worst first" {
            order.reverse();
        }
        order
    });
    let what = if how == "random" {
        format!("children shuffled, seed {seed}")
    } else {
        format!("children {how}")
    };
    let meta = reordered.meta_mut();
    meta.name = format!("{} ({what})", meta.name);
    (reordered, map)
}
