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

/// `s` as a DOT string's contents: quotes, backslashes and line breaks escaped, characters
/// unsafe for a terminal dropped.
pub fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends [`dot_escape`]`(s)` to `out`.
fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if crate::text::is_unsafe_char(c) => {}
            c => out.push(c),
        }
    }
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

/// Appends a card's DOT name: `n` and the arena id for a node (as in the JSON trace), `e` and
/// its place in the picture for an elision.
fn push_name(out: &mut String, pic: &Picture, i: usize) {
    let mut digits = itoa::Buffer::new();
    match pic.placed[i].card.node {
        Some(id) => {
            out.push('n');
            out.push_str(digits.format(id.0));
        }
        None => {
            out.push('e');
            out.push_str(digits.format(i));
        }
    }
}

/// The picture as a DOT digraph, appended to one string (a 10^6-node picture is 100 MB: no
/// `String` per card, line or attribute).
pub fn render(pic: &Picture, title: &str) -> String {
    let mut s = String::with_capacity(pic.placed.len() * 100 + 256);
    let t = dot_escape(title);
    let _ = writeln!(s, "digraph \"{t}\" {{");
    if pic.has_pv() {
        let _ = writeln!(
            s,
            "  label=\"{t}\\n{PV} bold: {}\"; labelloc=t;",
            super::PV_LEGEND
        );
    } else {
        let _ = writeln!(s, "  label=\"{t}\"; labelloc=t;");
    }
    let _ = writeln!(
        s,
        "  node [fontname=\"Helvetica\", style=filled, fillcolor={UNREACHED}];"
    );
    let _ = writeln!(s, "  edge [arrowhead=none];");
    for (i, p) in pic.placed.iter().enumerate() {
        s.push_str("  ");
        push_name(&mut s, pic, i);
        s.push_str(" [label=\"");
        // The card's lines joined by newlines, escaped: the probability, then the head line
        // after the status glyph, then the value and the window.
        let mut first = true;
        for l in p.card.prob.iter() {
            push_escaped(&mut s, l);
            first = false;
        }
        for (k, l) in p.card.lines.iter().enumerate() {
            if !first {
                s.push_str("\\n");
            }
            first = false;
            if k == 0 {
                push_escaped(&mut s, p.card.glyph);
            }
            push_escaped(&mut s, l);
        }
        let (fill, style) = match (p.card.node, p.card.status) {
            (None, _) => (UNREACHED, "solid"),
            (_, None) | (_, Some(Status::Done)) => (VISITED, "filled"),
            (_, Some(Status::Open)) => (OPEN, "filled"),
            (_, Some(Status::Pruned)) => (PRUNED, "filled,dashed"),
            (_, Some(Status::NotReached)) => (UNREACHED, "filled,dotted"),
        };
        for part in [
            "\", shape=",
            shape(p),
            ", fillcolor=",
            fill,
            ", style=\"",
            style,
            "\"",
        ] {
            s.push_str(part);
        }
        if p.card.current {
            s.push_str(", color=");
            s.push_str(CURRENT);
            s.push_str(", penwidth=3");
        } else if p.pv {
            s.push_str(", color=");
            s.push_str(PV);
            s.push_str(", penwidth=3");
        }
        s.push_str("];\n");
    }
    for (i, p) in pic.placed.iter().enumerate() {
        for &c in &p.children {
            let child = &pic.placed[c];
            s.push_str("  ");
            push_name(&mut s, pic, i);
            s.push_str(" -> ");
            push_name(&mut s, pic, c);
            let pv = child.pv && p.pv;
            let style = match (child.card.node, child.card.status) {
                (_, Some(Status::Pruned)) => Some("style=dashed, label=\"✂\", fontcolor=red"),
                (None, _) | (_, Some(Status::NotReached)) => Some("style=dotted"),
                _ => None,
            };
            if pv || style.is_some() {
                s.push_str(" [");
                if pv {
                    s.push_str("color=");
                    s.push_str(PV);
                    s.push_str(", penwidth=3");
                }
                if let Some(style) = style {
                    if pv {
                        s.push_str(", ");
                    }
                    s.push_str(style);
                }
                s.push(']');
            }
            s.push_str(";\n");
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
