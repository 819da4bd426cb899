//! `prune draw`: the tree drawn top-down as in the papers, at any step of a run, or at many
//! steps (a numbered sequence of files, a Beamer document, a web page).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;

use clap::{Args, ValueEnum};

use super::{CliError, TreeSource, emit, refuse_output_over_input};
use prune::draw::steps::{self, Steps};
use prune::draw::{self, Options, PictureFormat};
use prune::format;
use prune::search::Algorithm;
use prune::tree::{NodeId, Tree};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DrawFormat {
    /// Box-drawing characters, at most --width columns (what the explorer's diagram shows).
    Text,
    /// A standalone SVG figure.
    Svg,
    /// One tikzpicture (plain TikZ) for LaTeX, fitted to \linewidth: \input it.
    Tikz,
    /// Graphviz DOT.
    Dot,
    /// A LaTeX Beamer document: one slide, an overlay for each step (--steps; default all).
    Beamer,
    /// One self-contained web page that steps through the run (--steps; default all).
    Html,
}

/// What `prune draw` writes: one picture a step drawn, or one file for all of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Output {
    Picture(PictureFormat),
    Beamer,
    Html,
}

impl From<DrawFormat> for Output {
    fn from(f: DrawFormat) -> Self {
        match f {
            DrawFormat::Text => Output::Picture(PictureFormat::Text),
            DrawFormat::Svg => Output::Picture(PictureFormat::Svg),
            DrawFormat::Tikz => Output::Picture(PictureFormat::Tikz),
            DrawFormat::Dot => Output::Picture(PictureFormat::Dot),
            DrawFormat::Beamer => Output::Beamer,
            DrawFormat::Html => Output::Html,
        }
    }
}

/// The width of an SVG, TikZ or HTML picture when none is asked for: they scale (SVG and HTML
/// with their viewBox, TikZ down to `\linewidth`), so the tree is drawn whole — up to this many cells (80,000 SVG units), beyond
/// which a figure is no longer read but only scrolled, and its file grows without bound.
pub const SCALABLE_WIDTH: usize = 10_000;

/// The width of the other pictures when none is asked for: a terminal's, or (Beamer) 18 cm of
/// a slide, which fits it at a legible scale.
pub const DEFAULT_WIDTH: usize = 100;

#[derive(Debug, Args)]
// A game's flags are parsed (to refuse them with the way to its tree) but not offered.
#[command(mut_args(super::hide_game_flags))]
// The usage line without the hidden game flags (clap lists a group's hidden members too).
#[command(override_usage = "prune draw [OPTIONS] <FILE|--expr <TREE>|--gen <FAMILY ARGS…>>")]
pub struct DrawArgs {
    #[command(flatten)]
    pub source: TreeSource,
    /// Draw this run's state: an algorithm, parameters inline (`star2:probes=2`).
    #[arg(
        long,
        value_name = "ALGO[:PARAMS]",
        value_parser = super::Offered::any(super::algorithm_names),
        hide_possible_values = true
    )]
    pub run: Option<String>,
    /// The state after this many steps of the run (default: the end; 0: before the search).
    #[arg(long, value_name = "K", requires = "run", conflicts_with = "steps")]
    pub step: Option<usize>,
    /// Draw many steps: `all` (0 to the end), `A..B` (both included) or `cutoffs` (each step
    /// that cuts off). With -o OUT.svg the pictures go to OUT-001.svg, OUT-002.svg… in the
    /// order drawn (each titled with its step); beamer and html put them all in one file.
    #[arg(long, value_name = "all|A..B|cutoffs", requires = "run")]
    pub steps: Option<String>,
    /// The picture's format (default: from OUT's extension — .txt, .svg, .tex, .dot, .html — or
    /// text on standard output; another extension, or none, is refused).
    #[arg(long, value_enum)]
    pub format: Option<DrawFormat>,
    /// Write the picture here (`-`: standard output, the default).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The widest the picture may be, in columns of text (character cells in the figures); subtrees
    /// that do not fit are elided with their size — never the current step's node, the
    /// principal variation or the paths down to them. Default: 100; svg, tikz and html, which
    /// scale, draw the whole tree (up to 10,000 cells).
    #[arg(long, value_name = "W")]
    pub width: Option<usize>,
    /// Levels drawn below the top node; deeper subtrees are elided with their size.
    #[arg(long, value_name = "D")]
    pub depth: Option<usize>,
    /// The node at the top: a path of child numbers from 1 (`2.1`: the root's second child's
    /// first child), or a label.
    #[arg(long, value_name = "NODE")]
    pub node: Option<String>,
}

pub fn run(a: &DrawArgs) -> Result<(), CliError> {
    if let Some(w) = a.width.filter(|&w| w < 8) {
        return Err(CliError::Usage(format!(
            "--width {w}: a picture needs at least 8 columns"
        )));
    }
    let algo = a
        .run
        .as_deref()
        .map(|spec| Algorithm::parse(spec, &Default::default()))
        .transpose()
        .map_err(CliError::usage)?;
    let output = output_format(a.format, a.output.as_deref())?;
    let steps = a
        .steps
        .as_deref()
        .map(Steps::parse)
        .transpose()
        .map_err(CliError::Usage)?;
    refuse_before_loading(a, output, steps.is_some())?;
    refuse_output_over_input(a.source.file.as_deref(), [a.output.as_ref()])?;
    let tree = a.source.load()?;
    let root = match &a.node {
        Some(n) => find_node(&tree, n)?,
        None => tree.root(),
    };
    let scalable = matches!(
        output,
        Output::Html | Output::Picture(PictureFormat::Svg | PictureFormat::Tikz)
    );
    let opts = Options {
        root,
        depth: a.depth,
        width: a.width.unwrap_or(if scalable {
            SCALABLE_WIDTH
        } else {
            DEFAULT_WIDTH
        }),
    };
    let sizes = tree.subtree_sizes();
    let Some(algo) = &algo else {
        let pic = draw::picture(&tree, &sizes, None, &opts);
        let Output::Picture(format) = output else {
            unreachable!("refused before loading")
        };
        return emit(
            a.output.as_ref(),
            &format.render(&pic, &draw::title(&tree, None)),
        );
    };
    if let Some(why) = algo.refusal(&tree) {
        return Err(CliError::Usage(format!("cannot run {algo}: {why}")));
    }
    let (run, trace) =
        prune::trace::record(&tree, algo, &AtomicU64::new(0)).map_err(CliError::usage)?;
    if let Some(step) = a.step.filter(|&k| k > trace.len()) {
        return Err(CliError::Usage(format!(
            "--step {step}: {} made {} steps; choose a step from 0 to {}",
            algo.label(),
            trace.len(),
            trace.len()
        )));
    }
    let chosen = match (steps, output) {
        (Some(st), _) => st.select(&trace).map_err(CliError::Usage)?,
        (None, Output::Picture(_)) => vec![a.step.unwrap_or(trace.len())],
        // One file for the whole run: every step unless one is named.
        (None, _) => match a.step {
            Some(k) => vec![k],
            None => (0..=trace.len()).collect(),
        },
    };
    if chosen.is_empty() {
        return Err(CliError::Usage(format!(
            "--steps cutoffs: {} makes no cutoff on this tree; nothing to draw",
            algo.label()
        )));
    }
    if chosen.len() > 1 {
        // The end's picture is the largest a run draws (every node reached): its cards times
        // the pictures bound what would be written.
        let end = draw::At::new(&tree, &run, &trace, trace.len());
        let cards = draw::picture(&tree, &sizes, Some(&end), &opts).placed.len();
        refuse_too_many_cards(chosen.len(), cards)?;
    }
    let frames = steps::frames(&tree, &sizes, &run, &trace, &chosen, &opts);
    let name = format!("{}{}", algo.label(), on_tree(&tree));
    match output {
        Output::Beamer => emit(a.output.as_ref(), &draw::beamer::render(&frames, &name)),
        Output::Html => emit(
            a.output.as_ref(),
            &draw::html::render(&frames, &name, trace.len()),
        ),
        Output::Picture(format) if steps.is_none() => {
            let f = &frames[0];
            emit(a.output.as_ref(), &format.render(&f.pic, &f.title))
        }
        Output::Picture(format) => write_sequence(
            a.source.file.as_deref(),
            a.output.as_deref(),
            format,
            &frames,
        ),
    }
}

/// " on NAME" for a tree with a name.
fn on_tree(tree: &Tree) -> String {
    let name = &tree.meta().name;
    if name.is_empty() {
        String::new()
    } else {
        format!(" on {name}")
    }
}

/// The most cards a run drawn step by step may hold, its pictures together: about 300 MB of
/// SVG, already more than a page or a slide show is read from.
pub const MOST_CARDS: usize = 1_000_000;

/// Refuses `pictures` pictures of up to `cards` cards each when they would hold more than
/// [`MOST_CARDS`], saying how to draw fewer.
fn refuse_too_many_cards(pictures: usize, cards: usize) -> Result<(), CliError> {
    if pictures.saturating_mul(cards) <= MOST_CARDS {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "{} pictures of up to {} cards: more than {} cards in all; choose fewer steps (--steps A..B, --steps cutoffs) or smaller pictures (--width, --depth, --node)",
        prune::text::thousands(pictures as u64),
        prune::text::thousands(cards as u64),
        prune::text::thousands(MOST_CARDS as u64)
    )))
}

/// What the arguments alone show to be wrong, said before a tree is loaded.
fn refuse_before_loading(a: &DrawArgs, output: Output, steps: bool) -> Result<(), CliError> {
    let one_file = match output {
        Output::Beamer => Some("beamer"),
        Output::Html => Some("html"),
        Output::Picture(_) => None,
    };
    if let Some(f) = one_file
        && a.run.is_none()
    {
        return Err(CliError::Usage(format!(
            "--format {f} steps through a search: give the run to draw, e.g. --run alphabeta"
        )));
    }
    if steps && one_file.is_none() && format::save::output_file(a.output.as_deref()).is_none() {
        return Err(CliError::Usage(
            "--steps writes one picture a step: give -o OUT.svg (they go to OUT-001.svg, \
             OUT-002.svg, …), or --format beamer or html for a single file"
                .into(),
        ));
    }
    Ok(())
}

/// Each frame to its numbered file ([`steps::numbered`]), and a line on standard error
/// saying where they went. None is written when one of them is the input file.
fn write_sequence(
    input: Option<&Path>,
    out: Option<&Path>,
    format: PictureFormat,
    frames: &[steps::Frame],
) -> Result<(), CliError> {
    let out = format::save::output_file(out).expect("refused before loading");
    let n = frames.len();
    let paths: Vec<PathBuf> = (1..=n).map(|i| steps::numbered(out, i, n)).collect();
    refuse_output_over_input(input, paths.iter().map(Some))?;
    for (path, f) in paths.iter().zip(frames) {
        emit(Some(path), &format.render(&f.pic, &f.title))?;
    }
    eprintln!(
        "{n} pictures: {} to {}",
        steps::numbered(out, 1, n).display(),
        steps::numbered(out, n, n).display()
    );
    Ok(())
}

/// `format` when given; else the one OUT's extension names; text on standard output and other
/// streams. A file name that names no format is refused rather than drawn as text.
fn output_format(format: Option<DrawFormat>, out: Option<&Path>) -> Result<Output, CliError> {
    if let Some(f) = format {
        return Ok(f.into());
    }
    let Some(out) = format::save::output_file(out) else {
        return Ok(Output::Picture(PictureFormat::Text));
    };
    let html = out
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if html {
        return Ok(Output::Html);
    }
    PictureFormat::from_extension(out)
        .map(Output::Picture)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: {}; name it .txt, .text, .svg, .tex, .tikz, .dot, .gv or .html, or give --format text, svg, tikz, dot, beamer or html",
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
                    prune::tree::names::node_name(tree, id),
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
