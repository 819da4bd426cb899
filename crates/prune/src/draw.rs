//! The tree drawn as the papers draw it: top-down, each node a small card under its parent,
//! with a run's state at any step — the picture behind `prune draw`, the explorer's diagram
//! view and the DOT export.
//!
//! [`picture`] lays a (sub)tree out in character cells ([`layout`]): each node's [`Card`]
//! holds its kind (`+ − *`, `@1`… for the players of an n-player tree), label, leaf value, the
//! value backed up with its bound mark (`=` exact, `≥` lower, `≤` upper), the window α..β it
//! was entered with (Star1/Star2's A..B under a chance node), its status in the run (`●`
//! done, `▸` open, `◆` probed, `↻` re-searched, `✂` pruned, `·` not reached) and whether the
//! current step touched it; at a run's end, the principal variation is marked in every format
//! and named in its legend ([`PV_LEGEND`]). Below `--depth` and beyond `--width` subtrees are elided into one
//! card saying how many nodes it stands for (`…(40 nodes)`); nothing is drawn wider than the
//! width asked for, except that the width never elides the current step's node, the principal
//! variation (at every step) or the paths down to them. The same picture is then written as [`text`] (what the explorer shows),
//! [`svg`], [`tikz`] or [`dot`]. A run drawn step by step ([`steps`]) is a numbered sequence
//! of these, one [`beamer`] document with an overlay a step, or one [`html`] page that steps
//! through the search.

pub mod beamer;
pub mod dot;
pub mod html;
pub mod layout;
pub mod steps;
pub mod svg;
pub mod text;
pub mod tikz;

use crate::search::Run;
use crate::text::{readable_number, readable_vector};
use crate::trace::narrate::{probe_bound, settled};
use crate::trace::{NodeState, Replay, Shown, Status, StepIndex, Trace};
use crate::tree::names::kind_glyph;
use crate::tree::{Kind, NodeId, Tree};

pub use layout::{Card, Picture, Placed};

/// At most this many levels are ever laid out: deeper pictures are elided (and the layout,
/// which recurses on the tree's shape, stays shallow).
pub const MOST_LEVELS: usize = 200;

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The node at the top of the picture.
    pub root: NodeId,
    /// Levels drawn below the root; deeper subtrees become "…(n nodes)".
    pub depth: Option<usize>,
    /// Columns (text) or character cells (SVG, TikZ, DOT) the picture may take.
    pub width: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            root: NodeId::ROOT,
            depth: None,
            width: 100,
        }
    }
}

/// A run's state after its first `step` steps, for drawing.
pub struct At<'a> {
    /// The run drawn.
    pub run: &'a Run,
    /// Its trace.
    pub trace: &'a Trace,
    /// The trace's replay, to read each node's state.
    pub replay: Replay<'a>,
    /// Steps applied (the trace's length: the run's end).
    pub step: usize,
}

impl<'a> At<'a> {
    /// Indexes `trace` (one pass) to draw it at `step`.
    pub fn new(tree: &'a Tree, run: &'a Run, trace: &'a Trace, step: usize) -> Self {
        At {
            run,
            trace,
            replay: Replay::new(tree, trace),
            step,
        }
    }

    /// Draws `trace` at `step` through an index built before (the explorer's).
    pub fn with_index(
        tree: &'a Tree,
        run: &'a Run,
        trace: &'a Trace,
        index: &'a StepIndex,
        step: usize,
    ) -> Self {
        At {
            run,
            trace,
            replay: Replay::with_index(tree, trace, index),
            step,
        }
    }

    /// The node the last applied step touched: the one highlighted.
    pub fn current(&self) -> Option<NodeId> {
        let k = self.step.checked_sub(1)?;
        (k < self.trace.len()).then(|| self.trace.event(k).node())
    }

    /// Whether the picture shows the run's end (the principal variation is then known).
    pub fn at_end(&self) -> bool {
        self.step >= self.trace.len()
    }

    /// `id`'s state, from `all` (every node's, [`Replay::states`]) when given.
    fn state(&self, tree: &Tree, id: NodeId, all: Option<&[NodeState]>) -> NodeState {
        let raw = match all {
            Some(all) => all[id.index()].clone(),
            None => self.replay.state(id, self.step),
        };
        settled(tree, self.run, self.trace, id, self.step, raw)
    }
}

/// The status glyph of a node in a run: distinct shapes, so that colour is never needed (the
/// explorer's outline shows the same ones).
pub fn status_glyph(st: &NodeState) -> &'static str {
    match st.status {
        Status::Pruned => "✂",
        Status::Done if st.table.is_some_and(|(_, _, cut)| cut) => "⇄",
        _ if st.researches > 0 => "↻",
        _ if st.probed || st.probe_target => "◆",
        Status::Done => "●",
        Status::Open => "▸",
        Status::NotReached => "·",
    }
}

/// A node's kind as the pictures write it: `+ − *`, and `@1`, `@2`… for the players of an
/// n-player tree.
pub fn kind_mark(k: Kind) -> String {
    match k {
        Kind::Player(p) => format!("@{}", u32::from(p) + 1),
        k => kind_glyph(k),
    }
}

fn shown(tree: &Tree, trace: &Trace, id: NodeId, v: Shown) -> String {
    match v {
        Shown::Scalar(x) => readable_number(x, false),
        Shown::Vector(i) => readable_vector(trace.vector(i), false),
        Shown::Payoff => readable_vector(tree.payoff(id), false),
    }
}

/// A leaf's value from the tree: a number, or its payoff vector.
fn leaf_text(tree: &Tree, id: NodeId) -> String {
    if tree.is_multiplayer() {
        readable_vector(tree.payoff(id), false)
    } else {
        readable_number(tree.value(id), false)
    }
}

/// The card of node `id`: what the picture says about it, in `at`'s run if there is one.
pub fn card(tree: &Tree, at: Option<&At>, id: NodeId) -> Card {
    card_in(tree, at, id, None)
}

/// [`card`], the node's state taken from `all` (every node's) when given.
fn card_in(tree: &Tree, at: Option<&At>, id: NodeId, all: Option<&[NodeState]>) -> Card {
    let label = tree
        .label(id)
        .map(|l| crate::text::terminal_safe(l).into_owned());
    let leaf = tree.is_leaf(id);
    let head = match (leaf, label) {
        (true, Some(l)) => format!("{l} {}", leaf_text(tree, id)),
        (true, None) => leaf_text(tree, id),
        (false, Some(l)) => format!("{} {l}", kind_mark(tree.kind(id))),
        (false, None) => kind_mark(tree.kind(id)),
    };
    let prob = tree
        .parent(id)
        .filter(|&p| tree.kind(p) == Kind::Chance && !tree.is_uniform(p))
        .map(|_| format!("p {}", readable_number(tree.prob(id), false)));
    let mut c = Card {
        node: Some(id),
        kind: Some(tree.kind(id)),
        prob,
        lines: vec![head],
        ..Card::default()
    };
    let Some(at) = at else {
        return c;
    };
    let st = at.state(tree, id, all);
    c.status = Some(st.status);
    c.glyph = status_glyph(&st);
    c.probed = st.probed || st.probe_target;
    c.current = at.current() == Some(id);
    if !leaf {
        let value = match st.value {
            Some(v) if st.status == Status::Done => Some(format!(
                "{}{}",
                st.bound.symbol(),
                shown(tree, at.trace, id, v)
            )),
            // Probed by Star2, not yet searched: the bound its probes give.
            _ if st.probed && st.status != Status::Pruned => {
                probe_bound(tree, &at.replay, id, at.step).map(|(x, min)| {
                    format!(
                        "{}{}",
                        if min { "≤" } else { "≥" },
                        readable_number(x, false)
                    )
                })
            }
            _ => None,
        };
        c.lines.extend(value);
    }
    if matches!(st.status, Status::Open | Status::Done)
        && let Some((a, b)) = st.chance_bounds.or(st.window)
    {
        c.lines.push(format!(
            "{}..{}",
            readable_number(a, false),
            readable_number(b, false)
        ));
    }
    c
}

/// Lays out the subtree under `opts.root` at most `opts.width` cells wide, with `at`'s run:
/// wider only when its current node and principal variation, never elided, need more.
/// `sizes` are the tree's subtree sizes ([`Tree::subtree_sizes`]), for the elisions' counts.
pub fn picture(tree: &Tree, sizes: &[u32], at: Option<&At>, opts: &Options) -> Picture {
    let limit = opts.depth.unwrap_or(MOST_LEVELS).min(MOST_LEVELS);
    let current = at.and_then(At::current);
    // A picture as wide as the whole tree has nodes may draw them all: every state in one pass
    // ([`Replay::states`], over the whole tree) costs less than a replay per node. A narrower
    // one (the explorer's diagram of a big tree) replays only the nodes it draws.
    let all = at
        .filter(|_| tree.len() <= opts.width)
        .map(|a| a.replay.states(a.step));
    // The principal variation is kept at every step, not only where it is marked: a picture
    // of the search under way shows where it will end.
    let keep = at.map_or(&[][..], |a| &a.run.pv[..]);
    let mut pic = layout::lay_out(
        tree,
        sizes,
        opts.root,
        limit,
        opts.width,
        current,
        keep,
        |id| card_in(tree, at, id, all.as_deref()),
    );
    if let Some(at) = at.filter(|a| a.at_end()) {
        let on_pv: std::collections::HashSet<NodeId> = at.run.pv.iter().copied().collect();
        for p in &mut pic.placed {
            p.pv = p.card.node.is_some_and(|n| on_pv.contains(&n));
        }
    }
    pic
}

/// What every format's legend says of the principal variation's marks, after the mark's own
/// description (`┃` in text, red in the figures).
pub const PV_LEGEND: &str = "principal variation";

impl Picture {
    /// Whether the picture marks a principal variation (a run drawn at its end).
    pub fn has_pv(&self) -> bool {
        self.placed.iter().any(|p| p.pv)
    }

    /// Whether an edge of the principal variation is drawn (the text picture marks only
    /// edges: a variation whose next move is elided shows no mark to explain).
    pub fn has_pv_edge(&self) -> bool {
        self.placed
            .iter()
            .any(|p| p.pv && p.parent.is_some_and(|q| self.placed[q].pv))
    }
}

/// A title for the picture: the run and its step, or the tree's name.
pub fn title(tree: &Tree, at: Option<&At>) -> String {
    let name = &tree.meta().name;
    let on = if name.is_empty() {
        String::new()
    } else {
        format!(" on {name}")
    };
    match at {
        Some(at) => format!(
            "{}{on}, step {} of {}",
            at.run.algorithm.label(),
            at.step,
            at.trace.len()
        ),
        None if name.is_empty() => "tree".into(),
        None => name.clone(),
    }
}

/// Every picture format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    /// Box-drawing text.
    Text,
    /// SVG.
    Svg,
    /// TikZ, for LaTeX.
    Tikz,
    /// Graphviz DOT.
    Dot,
}

impl PictureFormat {
    /// The format a file's extension names: `.txt`, `.svg`, `.tex`/`.tikz`, `.dot`/`.gv`.
    pub fn from_extension(path: &std::path::Path) -> Option<PictureFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "txt" | "text" => PictureFormat::Text,
            "svg" => PictureFormat::Svg,
            "tex" | "tikz" => PictureFormat::Tikz,
            "dot" | "gv" => PictureFormat::Dot,
            _ => return None,
        })
    }

    /// The picture in this format.
    pub fn render(self, pic: &Picture, title: &str) -> String {
        match self {
            PictureFormat::Text => text::render(pic),
            PictureFormat::Svg => svg::render(pic, title),
            PictureFormat::Tikz => tikz::render(pic, title),
            PictureFormat::Dot => dot::render(pic, title),
        }
    }
}

#[cfg(test)]
mod tests;
