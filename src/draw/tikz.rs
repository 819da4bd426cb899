//! The picture as one `tikzpicture`, for LaTeX lecture notes: plain TikZ, every node at the
//! absolute coordinates of the text layout (one unit a character cell across, a line down), so
//! nothing but the `tikz` package is needed.
//!
//! Use it with
//!
//! ```latex
//! \usepackage{tikz}          % in the preamble
//! ...
//! \begin{figure}\centering
//!   \input{alphabeta-step5.tex}   % the file `prune draw --format tikz -o` wrote
//! \end{figure}
//! ```
//!
//! The picture sets its own scale (`x=0.18cm, y=-0.42cm`); wrap it in
//! `\resizebox{\linewidth}{!}{...}` to fit a wide tree to the page. Labels are escaped
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

/// The picture as a `tikzpicture` environment (with a comment saying how to use it).
pub fn render(pic: &Picture, title: &str) -> String {
    let mut s = String::new();
    // A line break of any kind would end the comment and run the rest: every control and
    // separator character is written as its escape, which a comment holds harmlessly.
    let _ = writeln!(s, "% {}", crate::text::terminal_safe(title));
    let _ = writeln!(
        s,
        "% Drawn by prune. Needs \\usepackage{{tikz}}; include with \\input{{this file}}."
    );
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
            "  \\node[{}, anchor=north] (n{i}) at ({}, {}) {{{text}}};",
            style(p),
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
            let _ = writeln!(s, "  \\draw[{kind}] (n{i}.south) --{mid} (n{c}.north);");
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
