//! The picture as a standalone SVG figure, for slides and web pages: the text picture's layout,
//! one character cell to [`CELL_W`]×[`LINE_H`] pixels, each card a rounded box filled by its
//! status, straight edges, pruned edges dashed and cut (`✂`), the current step's node outlined
//! in orange, the principal variation in red at the run's end.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthStr;

use crate::trace::Status;

use super::layout::{Picture, Placed};

/// The width of a character cell, in SVG units.
pub const CELL_W: f64 = 8.0;
/// The height of a line, in SVG units.
pub const LINE_H: f64 = 16.0;
const MARGIN: f64 = 8.0;

/// `s` fit for XML text and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids, and every other control, separator or bidi
            // character: written as their escape.
            c if crate::text::is_unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn class(p: &Placed) -> &'static str {
    match (p.card.node, p.card.status) {
        (None, _) => "elided",
        (_, None) => "plain",
        (_, Some(Status::Pruned)) => "pruned",
        (_, Some(Status::NotReached)) => "unreached",
        (_, Some(Status::Open)) => "open",
        (_, Some(Status::Done)) => "done",
    }
}

/// The figures' style sheet: in each standalone SVG, once in a page of many ([`inline`]).
pub const STYLE: &str = "\
text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 13px; text-anchor: middle; dominant-baseline: central; fill: #111; }
rect { stroke: #555; stroke-width: 1; }
rect.plain, rect.done { fill: #dbeafe; }
rect.open { fill: #fef3c7; }
rect.pruned { fill: #eeeeee; stroke: #999; stroke-dasharray: 4 3; }
rect.unreached { fill: #ffffff; stroke: #bbb; stroke-dasharray: 1 3; }
rect.elided { fill: none; stroke: none; }
rect.current { stroke: #ea580c; stroke-width: 3; }
rect.pv { stroke: #dc2626; stroke-width: 2; }
line { stroke: #555; stroke-width: 1.2; }
line.pruned { stroke: #999; stroke-dasharray: 5 4; }
line.unreached, line.elided { stroke: #bbb; stroke-dasharray: 1 3; }
line.pv { stroke: #dc2626; stroke-width: 2.5; }
text.cut { fill: #b91c1c; }
text.pruned, text.unreached, text.elided { fill: #666; }
text.legend { text-anchor: start; fill: #dc2626; }";

/// The picture as an SVG document.
pub fn render(pic: &Picture, title: &str) -> String {
    figure(pic, title, true)
}

/// The picture as an `<svg>` element for an HTML page that holds [`STYLE`] once: no XML
/// declaration, no style sheet of its own, and as wide as the page at most.
pub fn inline(pic: &Picture, title: &str) -> String {
    figure(pic, title, false)
}

fn figure(pic: &Picture, title: &str, standalone: bool) -> String {
    let legend = pic.has_pv();
    let w = pic.width as f64 * CELL_W + 2.0 * MARGIN;
    let rows = pic.height().max(1) + if legend { 2 } else { 0 };
    let h = rows as f64 * LINE_H + 2.0 * MARGIN;
    let mut s = String::new();
    if standalone {
        let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    }
    // An SVG inside HTML needs no namespace (and the page names no address at all).
    let ns = if standalone {
        r#" xmlns="http://www.w3.org/2000/svg""#
    } else {
        ""
    };
    let _ = writeln!(
        s,
        r#"<svg{ns} width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(s, "<title>{}</title>", xml_escape(title));
    if standalone {
        let _ = writeln!(s, "<style>\n{STYLE}\n</style>");
    }
    let x = |col: f64| MARGIN + col * CELL_W;
    let y = |row: f64| MARGIN + row * LINE_H;
    // Edges first, under the cards.
    for p in &pic.placed {
        for &c in &p.children {
            let child = &pic.placed[c];
            let (x1, y1) = (
                x(p.center as f64 + 0.5),
                y((pic.top(p.depth) + p.card.height()) as f64),
            );
            let (x2, y2) = (x(child.center as f64 + 0.5), y(pic.top(child.depth) as f64));
            let cls = if child.pv && p.pv { "pv" } else { class(child) };
            let _ = writeln!(
                s,
                r#"<line class="{cls}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#
            );
            if child.card.status == Some(Status::Pruned) {
                let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
                let _ = writeln!(s, r#"<text class="cut" x="{mx}" y="{my}">✂</text>"#);
            }
        }
    }
    for p in &pic.placed {
        let top = pic.top(p.depth);
        let cw = p.card.width() as f64;
        let lines = svg_lines(p);
        let mut cls = class(p).to_owned();
        if p.card.current {
            cls.push_str(" current");
        } else if p.pv {
            cls.push_str(" pv");
        }
        // `data-node`: the node's number, by which a page's script or a test finds its card.
        let node = p
            .card
            .node
            .map(|n| format!(r#" data-node="{}""#, n.index()))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            r#"<rect class="{cls}"{node} x="{}" y="{}" width="{}" height="{}" rx="4"/>"#,
            x(p.left as f64) - 2.0,
            y(top as f64),
            cw * CELL_W + 4.0,
            lines.len() as f64 * LINE_H
        );
        // Each line is drawn in exactly the cells it takes in the text picture
        // (`textLength`), centred in the box: whatever widths the viewer's font gives `−`,
        // `∞` or `●`, the text stays inside its box.
        for (i, l) in lines.iter().enumerate() {
            let cells = l.width() as f64;
            let _ = writeln!(
                s,
                r#"<text class="{}" x="{}" y="{}" textLength="{}" lengthAdjust="spacingAndGlyphs">{}</text>"#,
                class(p),
                x(p.left as f64 + cw / 2.0),
                y(top as f64 + i as f64 + 0.5),
                cells * CELL_W,
                xml_escape(l)
            );
        }
    }
    if legend {
        let ly = y(pic.height() as f64 + 1.0);
        let _ = writeln!(
            s,
            r#"<line class="pv" x1="{}" y1="{ly}" x2="{}" y2="{ly}"/>"#,
            x(0.0),
            x(3.0)
        );
        let _ = writeln!(
            s,
            r#"<text class="legend" x="{}" y="{ly}">{}</text>"#,
            x(4.0),
            xml_escape(super::PV_LEGEND)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A card's lines in the figure: the status glyph stays (it says pruned, probed…), the current
/// step's marker is the orange outline instead.
fn svg_lines(p: &Placed) -> Vec<String> {
    let mut c = p.card.clone();
    c.current = false;
    c.text_lines()
}
