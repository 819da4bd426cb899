//! `prune draw`: the tree drawn top-down as in the papers, at any step of a run.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;

use clap::{Args, ValueEnum};

use super::{CliError, TreeSource, emit, refuse_output_over_input};
use crate::draw::{self, At, Options, PictureFormat};
use crate::format;
use crate::search::Algorithm;
use crate::tree::{NodeId, Tree};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DrawFormat {
    /// Box-drawing characters, at most --width columns (what the explorer's diagram shows).
    Text,
    /// A standalone SVG figure.
    Svg,
    /// One tikzpicture (plain TikZ) for LaTeX: \input it.
    Tikz,
    /// Graphviz DOT.
    Dot,
}

impl From<DrawFormat> for PictureFormat {
    fn from(f: DrawFormat) -> Self {
        match f {
            DrawFormat::Text => PictureFormat::Text,
            DrawFormat::Svg => PictureFormat::Svg,
            DrawFormat::Tikz => PictureFormat::Tikz,
            DrawFormat::Dot => PictureFormat::Dot,
        }
    }
}

#[derive(Debug, Args)]
pub struct DrawArgs {
    #[command(flatten)]
    pub source: TreeSource,
    /// Draw this run's state: an algorithm, parameters inline (`star2:probes=2`).
    #[arg(long, value_name = "ALGO[:PARAMS]")]
    pub run: Option<String>,
    /// The state after this many steps of the run (default: the end; 0: before the search).
    #[arg(long, value_name = "K", requires = "run")]
    pub step: Option<usize>,
    /// The picture's format (default: from OUT's extension — .txt, .svg, .tex, .dot — or text on
    /// standard output; another extension, or none, is refused).
    #[arg(long, value_enum)]
    pub format: Option<DrawFormat>,
    /// Write the picture here (`-`: standard output, the default).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The widest the picture may be, in columns (character cells for svg, tikz and dot);
    /// subtrees that do not fit are elided with their size.
    #[arg(long, value_name = "W", default_value_t = 100)]
    pub width: usize,
    /// Levels drawn below the top node; deeper subtrees are elided with their size.
    #[arg(long, value_name = "D")]
    pub depth: Option<usize>,
    /// The node at the top: a path of child numbers from 1 (`2.1`: the root's second child's
    /// first child), or a label.
    #[arg(long, value_name = "NODE")]
    pub node: Option<String>,
}

pub fn run(a: &DrawArgs) -> Result<(), CliError> {
    if a.width < 8 {
        return Err(CliError::Usage(format!(
            "--width {}: a picture needs at least 8 columns",
            a.width
        )));
    }
    let algo = a
        .run
        .as_deref()
        .map(|spec| Algorithm::parse(spec, &Default::default()))
        .transpose()
        .map_err(CliError::usage)?;
    let format = picture_format(a.format, a.output.as_deref())?;
    refuse_output_over_input(a.source.file.as_deref(), [a.output.as_ref()])?;
    let tree = a.source.load()?;
    let root = match &a.node {
        Some(n) => find_node(&tree, n)?,
        None => tree.root(),
    };
    let opts = Options {
        root,
        depth: a.depth,
        width: a.width,
    };
    let sizes = tree.subtree_sizes();
    let text = match &algo {
        None => {
            let pic = draw::picture(&tree, &sizes, None, &opts);
            format.render(&pic, &draw::title(&tree, None))
        }
        Some(algo) => {
            if let Some(why) = algo.refusal(&tree) {
                return Err(CliError::Usage(format!("cannot run {algo}: {why}")));
            }
            let (run, trace) =
                crate::trace::record(&tree, algo, &AtomicU64::new(0)).map_err(CliError::usage)?;
            let step = a.step.unwrap_or(trace.len());
            if step > trace.len() {
                return Err(CliError::Usage(format!(
                    "--step {step}: {} made {} steps; choose a step from 0 to {}",
                    algo.label(),
                    trace.len(),
                    trace.len()
                )));
            }
            let at = At::new(&tree, &run, &trace, step);
            let pic = draw::picture(&tree, &sizes, Some(&at), &opts);
            format.render(&pic, &draw::title(&tree, Some(&at)))
        }
    };
    emit(a.output.as_ref(), &text)
}

/// `format` when given; else the one OUT's extension names; text on standard output and other
/// streams. A file name that names no picture format is refused rather than drawn as text.
fn picture_format(
    format: Option<DrawFormat>,
    out: Option<&Path>,
) -> Result<PictureFormat, CliError> {
    if let Some(f) = format {
        return Ok(f.into());
    }
    let Some(out) = format::save::output_file(out) else {
        return Ok(PictureFormat::Text);
    };
    PictureFormat::from_extension(out).ok_or_else(|| {
        CliError::Usage(format!(
            "{}: {}; name it .txt, .text, .svg, .tex, .tikz, .dot or .gv, or give --format text, svg, tikz or dot",
            out.display(),
            format::unnamed_format(out)
        ))
    })
}

/// A node named by its path of 1-based child numbers (`2.1`), or by its label.
fn find_node(tree: &Tree, name: &str) -> Result<NodeId, CliError> {
    let name = name.trim();
    let by_path = name.trim_start_matches('#');
    if by_path.split('.').all(|p| p.parse::<usize>().is_ok()) && !by_path.is_empty() {
        let mut id = tree.root();
        for part in by_path.split('.') {
            let i: usize = part.parse().expect("checked");
            if i == 0 || i > tree.child_count(id) {
                return Err(CliError::Usage(format!(
                    "--node {name}: {} has {} children (counted from 1)",
                    crate::tree::names::node_name(tree, id),
                    tree.child_count(id)
                )));
            }
            id = tree.child(id, i - 1);
        }
        return Ok(id);
    }
    tree.ids()
        .find(|&id| tree.label(id) == Some(name))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--node {name}: no node has this label, and it is not a path like 2.1"
            ))
        })
}
