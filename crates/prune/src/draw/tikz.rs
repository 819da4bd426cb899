//! The picture as one `tikzpicture`, for LaTeX lecture notes: plain TikZ, every node at the
//! absolute coordinates of the text layout (one unit a character cell across, a line down), so
//! nothing but the `tikz` package is needed.
//!
//! Use it with
//!
//! ```latex
//! \usepackage{tikz,graphicx} % in the preamble
//! ...
//! \begin{figure}\centering
//!   \input{alphabeta-step5.tex}   % the file `prune draw --format tikz -o` wrote
//! \end{figure}
//! ```
//!
//! The picture sets its own scale (`x=0.18cm, y=-0.42cm`) and fits itself to the page: it is
//! set in a box first, and scaled down (never up) to `\linewidth` when wider, and to
//! [`MOST_HEIGHT`] of `\textheight` when taller — a small tree keeps its natural size, a wide
//! one does not run off the page. What keeps it readable is the width it is drawn at: `prune
//! draw` elides to 100 cells (18 cm) unless told otherwise, so on a 12–16 cm text width the
//! scale stays above about 2/3 and the `\scriptsize` labels above 5 pt; a wider `--width` is
//! the user's choice of smaller text. Each node is named by its number (`v12`: node 12), so
//! that a document can draw on it. Labels are escaped
//! (`\ { } $ & # ^ _ % ~`), and `≥ ≤ − ∞ …` become math. Status is a style, not a glyph:
//! done nodes filled blue, pruned ones grey and dashed with their edge crossed (`×`), unreached
//! ones dotted, the current step's node drawn thick in orange, the principal variation red.

use std::fmt::Write as _;

use crate::trace::Status;

use super::layout::{Picture, Placed};

/// `s` as LaTeX text: special characters escaped, the maths symbols prune writes as maths.
pub fn tex(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            '−' => out.push_str("$-$"),
            '∞' => out.push_str("$\\infty$"),
            '≥' => out.push_str("$\\geq$"),
            '≤' => out.push_str("$\\leq$"),
            '…' => out.push_str("\\dots{}"),
            // What the narration writes (Beamer's overlays say each step in words).
            'α' => out.push_str("$\\alpha$"),
            'β' => out.push_str("$\\beta$"),
            'Σ' => out.push_str("$\\Sigma$"),
            'ᵢ' => out.push_str("$_i$"),
            '·' => out.push_str("$\\cdot$"),
            '×' => out.push_str("$\\times$"),
            '—' => out.push_str("---"),
            '–' => out.push_str("--"),
            '§' => out.push_str("\\S{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            c if crate::text::is_unsafe_char(c) => {}
            c => out.push(c),
        }
    }
    out
}

fn style(p: &Placed) -> String {
    let base = match (p.card.node, p.card.status) {
        (None, _) => "elided",
        (_, None) | (_, Some(Status::Done)) => "done",
        (_, Some(Status::Open)) => "open",
        (_, Some(Status::Pruned)) => "pruned",
        (_, Some(Status::NotReached)) => "unreached",
    };
    let mut s = base.to_owned();
    if p.card.current {
        s.push_str(", current");
    } else if p.pv {
        s.push_str(", pv");
    }
    s
}

/// The most of `\textheight` a picture may take before it is scaled down.
pub const MOST_HEIGHT: &str = "0.78";

/// The picture as a `tikzpicture` environment, fitted to the page (with a comment saying how
/// to use it).
pub fn render(pic: &Picture, title: &str) -> String {
    let mut s = String::new();
    // A line break of any kind would end the comment and run the rest: every control and
    // separator character is written as its escape, which a comment holds harmlessly.
    let _ = writeln!(s, "% {}", crate::text::terminal_safe(title));
    let _ = writeln!(
        s,
        "% Drawn by prune. Needs \\usepackage{{tikz,graphicx}}; include with \\input{{this file}}."
    );
    let _ = writeln!(
        s,
        "% Scaled down (never up) to \\linewidth and {MOST_HEIGHT}\\textheight: draw with a smaller --width for larger text."
    );
    // Box 0 is TeX's scratch box, used inside a group: the file can be input any number of
    // times, with no register to allocate.
    s.push_str("\\begingroup\n\\setbox0=\\hbox{%\n");
    // `%` ends each line the box holds: a line's end would be a space, and widen it.
    s.push_str(picture(pic).trim_end());
    s.push_str("%\n}%\n");
    s.push_str(
        "\\ifdim\\wd0>\\linewidth \\setbox0=\\hbox{\\resizebox{\\linewidth}{!}{\\copy0}}\\fi\n",
    );
    let _ = writeln!(
        s,
        "\\ifdim\\ht0>{MOST_HEIGHT}\\textheight \\setbox0=\\hbox{{\\resizebox{{!}}{{{MOST_HEIGHT}\\textheight}}{{\\copy0}}}}\\fi"
    );
    s.push_str("\\box0\n\\endgroup\n");
    s
}

/// The TikZ name of the `i`th card: `v12` for node 12 (the tree's own numbering, so that a
/// picture can be annotated by node), `e3` for the elision card placed third.
fn name(pic: &Picture, i: usize) -> String {
    match pic.placed[i].card.node {
        Some(n) => format!("v{}", n.index()),
        None => format!("e{i}"),
    }
}

/// The `tikzpicture` environment itself.
fn picture(pic: &Picture) -> String {
    let mut s = String::new();
    s.push_str("\\begin{tikzpicture}[x=0.18cm, y=-0.42cm,\n");
    s.push_str("  every node/.style={font=\\scriptsize, align=center, inner sep=1.5pt, rounded corners=2pt},\n");
    s.push_str("  done/.style={draw, fill=blue!12}, open/.style={draw, fill=yellow!25},\n");
    s.push_str("  pruned/.style={draw=gray, dashed, fill=gray!12, text=gray!70!black},\n");
    s.push_str(
        "  unreached/.style={draw=gray!60, dotted, text=gray}, elided/.style={text=gray},\n",
    );
    s.push_str(
        "  current/.style={draw=orange!90!black, very thick}, pv/.style={draw=red, thick},\n",
    );
    s.push_str("  edge/.style={draw=gray!70!black}, cut/.style={draw=gray, dashed},\n");
    s.push_str("  far/.style={draw=gray!60, dotted}, pvedge/.style={draw=red, thick}]\n");
    for (i, p) in pic.placed.iter().enumerate() {
        let mut lines: Vec<String> = p.card.prob.iter().map(|x| tex(x)).collect();
        lines.extend(p.card.lines.iter().map(|l| tex(l)));
        let text = if lines.is_empty() {
            String::new()
        } else {
            lines.join("\\\\")
        };
        let _ = writeln!(
            s,
            "  \\node[{}, anchor=north] ({}) at ({}, {}) {{{text}}};",
            style(p),
            name(pic, i),
            p.center,
            pic.top(p.depth)
        );
    }
    for (i, p) in pic.placed.iter().enumerate() {
        for &c in &p.children {
            let child = &pic.placed[c];
            let (kind, mid) = match (child.card.node, child.card.status) {
                _ if child.pv && p.pv => ("pvedge", ""),
                (None, _) | (_, Some(Status::NotReached)) => ("far", ""),
                (_, Some(Status::Pruned)) => (
                    "cut",
                    " node[midway, fill=white, inner sep=0pt] {$\\times$}",
                ),
                _ => ("edge", ""),
            };
            let _ = writeln!(
                s,
                "  \\draw[{kind}] ({}.south) --{mid} ({}.north);",
                name(pic, i),
                name(pic, c)
            );
        }
    }
    if pic.has_pv() {
        let _ = writeln!(
            s,
            "  \\draw[pvedge] (0, {0}) -- (3, {0}) node[right, text=red] {{{1}}};",
            pic.height() + 1,
            tex(super::PV_LEGEND)
        );
    }
    s.push_str("\\end{tikzpicture}\n");
    s
}
