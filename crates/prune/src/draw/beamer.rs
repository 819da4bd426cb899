//! A run as one LaTeX Beamer document: a single frame whose overlays are the steps
//! (`\only<k>{…}`, one per step drawn), so that a lecture animates the search by paging
//! through one slide. Each overlay is the step's [`tikz`] picture, fitted to the
//! slide, above the step in words. The document is complete — `pdflatex` it as it is, or copy
//! its frame into a talk (it needs `tikz` and `graphicx`).

use std::fmt::Write as _;

use super::steps::Frame;
use super::tikz;

/// The whole document: preamble, one frame titled `title`, one overlay per frame.
pub fn render(frames: &[Frame], title: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "% {}", crate::text::terminal_safe(title));
    let _ = writeln!(
        s,
        "% Drawn by prune: one overlay per step, {} in all. Compile with pdflatex.",
        frames.len()
    );
    s.push_str("\\documentclass{beamer}\n");
    s.push_str("\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n");
    s.push_str("\\usepackage{tikz}\n\\usepackage{graphicx}\n");
    s.push_str("\\setbeamertemplate{navigation symbols}{}\n");
    s.push_str("\\begin{document}\n");
    let _ = writeln!(s, "\\begin{{frame}}{{{}}}", tikz::tex(title));
    // Paragraphs end with `\endgraf` (TeX's `\par` under another name): an overlay's
    // argument then holds no `\par` token, whether or not the overlay command is `\long`.
    for (i, f) in frames.iter().enumerate() {
        let _ = writeln!(s, "\\only<{}>{{%", i + 1);
        let _ = writeln!(
            s,
            "\\centering\\footnotesize {}\\endgraf",
            tikz::tex(&f.title)
        );
        s.push_str(&tikz::render(&f.pic, &f.title));
        let _ = writeln!(s, "\\endgraf\\footnotesize {}%", tikz::tex(&f.narration));
        s.push_str("}%\n");
    }
    s.push_str("\\end{frame}\n\\end{document}\n");
    s
}
