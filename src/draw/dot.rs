//! The picture in Graphviz DOT: the same cards (elisions included) as nodes, laid out by
//! `dot` itself. Max nodes are triangles, Min inverted triangles, chance nodes circles, player
//! nodes ellipses, leaves boxes; filled light blue when done, yellow when open, grey and dashed
//! when pruned (their edge dashed and cut, `✂`), white and dotted when not reached; the current
//! step's node outlined thick in orange, the principal variation bold red at the run's end.
//!
//! Unlike prune's first DOT export, nothing is folded: every node down to the depth limit is
//! drawn with its own state, so Star2's probed leaves under a pruned node and the values of
//! pruned leaves show.

use std::fmt::Write as _;

use crate::trace::Status;
use crate::tree::Kind;

use super::layout::{Picture, Placed};

const VISITED: &str = "lightblue";
const OPEN: &str = "lightyellow";
const PRUNED: &str = "gray85";
const UNREACHED: &str = "white";
const PV: &str = "red";
const CURRENT: &str = "darkorange";

pub fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn shape(p: &Placed) -> &'static str {
    match p.card.kind {
        None => "plaintext",
        Some(Kind::Max) => "triangle",
        Some(Kind::Min) => "invtriangle",
        Some(Kind::Chance) => "circle",
        Some(Kind::Player(_)) => "ellipse",
        Some(Kind::Leaf) => "box",
    }
}

/// A card's DOT name: `n` and the arena id for a node (as in the JSON trace), `e` and its
/// place in the picture for an elision.
fn name(pic: &Picture, i: usize) -> String {
    match pic.placed[i].card.node {
        Some(id) => format!("n{}", id.0),
        None => format!("e{i}"),
    }
}

/// The picture as a DOT digraph.
pub fn render(pic: &Picture, title: &str) -> String {
    let mut s = String::new();
    let t = dot_escape(title);
    let _ = writeln!(s, "digraph \"{t}\" {{");
    let _ = writeln!(s, "  label=\"{t}\"; labelloc=t;");
    let _ = writeln!(
        s,
        "  node [fontname=\"Helvetica\", style=filled, fillcolor={UNREACHED}];"
    );
    let _ = writeln!(s, "  edge [arrowhead=none];");
    for (i, p) in pic.placed.iter().enumerate() {
        let mut lines: Vec<String> = p.card.prob.iter().cloned().collect();
        for (k, l) in p.card.lines.iter().enumerate() {
            lines.push(if k == 0 {
                format!("{}{l}", p.card.glyph)
            } else {
                l.clone()
            });
        }
        let label = dot_escape(&lines.join("\n"));
        let (fill, style) = match (p.card.node, p.card.status) {
            (None, _) => (UNREACHED, "solid"),
            (_, None) | (_, Some(Status::Done)) => (VISITED, "filled"),
            (_, Some(Status::Open)) => (OPEN, "filled"),
            (_, Some(Status::Pruned)) => (PRUNED, "filled,dashed"),
            (_, Some(Status::NotReached)) => (UNREACHED, "filled,dotted"),
        };
        let mut extra = String::new();
        if p.card.current {
            let _ = write!(extra, ", color={CURRENT}, penwidth=3");
        } else if p.pv {
            let _ = write!(extra, ", color={PV}, penwidth=3");
        }
        let _ = writeln!(
            s,
            "  {} [label=\"{label}\", shape={}, fillcolor={fill}, style=\"{style}\"{extra}];",
            name(pic, i),
            shape(p)
        );
    }
    for (i, p) in pic.placed.iter().enumerate() {
        for &c in &p.children {
            let child = &pic.placed[c];
            let mut attrs: Vec<String> = Vec::new();
            if child.pv && p.pv {
                attrs.push(format!("color={PV}, penwidth=3"));
            }
            match (child.card.node, child.card.status) {
                (_, Some(Status::Pruned)) => {
                    attrs.push("style=dashed, label=\"✂\", fontcolor=red".into());
                }
                (None, _) | (_, Some(Status::NotReached)) => attrs.push("style=dotted".into()),
                _ => {}
            }
            let attrs = if attrs.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attrs.join(", "))
            };
            let _ = writeln!(s, "  {} -> {}{attrs};", name(pic, i), name(pic, c));
        }
    }
    s.push_str("}\n");
    s
}

/// The widest `prune run --dot` draws, in character cells: a few hundred leaves side by side,
/// more than Graphviz lays out legibly, while a 10^6-node tree stays a small file.
pub const RUN_WIDTH: usize = 2000;

/// The tree after the whole search, as DOT (`prune run --dot`, the explorer's DOT export): at
/// most [`RUN_WIDTH`] cells wide and [`MOST_LEVELS`](super::MOST_LEVELS) levels deep, what does
/// not fit elided with its size.
pub fn write_run(
    out: &mut dyn std::io::Write,
    tree: &crate::tree::Tree,
    run: &crate::search::Run,
    trace: &crate::trace::Trace,
) -> std::io::Result<()> {
    let at = super::At::new(tree, run, trace, trace.len());
    let opts = super::Options {
        width: RUN_WIDTH,
        ..super::Options::default()
    };
    let pic = super::picture(tree, &tree.subtree_sizes(), Some(&at), &opts);
    out.write_all(render(&pic, &super::title(tree, Some(&at))).as_bytes())
}
