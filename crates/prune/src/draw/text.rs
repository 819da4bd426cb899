//! The picture as text, with box-drawing characters: what the explorer's diagram view shows
//! and `prune draw --format text` prints. Lines never exceed the picture's width in display
//! columns (a wide character that would cross it is left out).
//!
//! ```text
//!           ●+
//!           =7
//!         −∞..+∞
//!   ┌────────┴──────┐
//!   │        ✂      │
//! ```
//!
//! Under each bar, an edge's mark: `│` searched, `✂` pruned (the edge cut), `┆` not reached
//! or elided, `┃` on the principal variation (drawn at the run's end, down from its node's
//! card too, and named in a legend line below the picture). The current step's node is marked
//! `▶`.

use unicode_width::UnicodeWidthChar;

use crate::trace::Status;

use super::layout::{CONNECTOR_ROWS, Picture, Placed};

/// A grid of cells, each a character (or empty after a wide one).
struct Grid {
    cells: Vec<Vec<String>>,
    width: usize,
}

impl Grid {
    fn new(width: usize, height: usize) -> Grid {
        Grid {
            cells: vec![vec![" ".to_owned(); width]; height],
            width,
        }
    }

    /// Writes `s` from column `x` of row `y`, stopping at the grid's edge.
    fn put(&mut self, x: usize, y: usize, s: &str) {
        let mut x = x;
        for c in s.chars() {
            let w = c.width().unwrap_or(0);
            if w == 0 {
                // A combining mark joins the character before it.
                if x > 0 {
                    self.cells[y][x - 1].push(c);
                }
                continue;
            }
            if x + w > self.width {
                return;
            }
            self.cells[y][x] = c.to_string();
            for k in 1..w {
                self.cells[y][x + k] = String::new();
            }
            x += w;
        }
    }

    fn lines(self) -> Vec<String> {
        self.cells
            .into_iter()
            .map(|row| row.concat().trim_end().to_owned())
            .collect()
    }
}

/// The box-drawing character joining what meets at a cell of the bar row.
fn junction(up: bool, down: bool, left: bool, right: bool) -> &'static str {
    match (up, down, left, right) {
        (true, true, true, true) => "┼",
        (true, true, false, true) => "├",
        (true, true, true, false) => "┤",
        (true, false, true, true) => "┴",
        (true, false, true, false) => "┘",
        (true, false, false, true) => "└",
        (false, true, true, true) => "┬",
        (false, true, false, true) => "┌",
        (false, true, true, false) => "┐",
        (false, false, true, true) => "─",
        (false, false, true, false) | (false, false, false, true) => "─",
        _ => "│",
    }
}

/// The mark on the edge down to `child` (under `parent`).
pub fn edge_mark(parent: &Placed, child: &Placed) -> &'static str {
    match (child.card.node, child.card.status) {
        _ if parent.pv && child.pv => PV_EDGE,
        (None, _) => "┆",
        (_, Some(Status::Pruned)) => "✂",
        (_, Some(Status::NotReached)) => "┆",
        _ => "│",
    }
}

/// The picture as lines of text (no line ends).
pub fn lines(pic: &Picture) -> Vec<String> {
    let mut g = Grid::new(pic.width, pic.height());
    for p in &pic.placed {
        let top = pic.top(p.depth);
        let cw = p.card.width();
        let lines = p.card.text_lines();
        for (i, l) in lines.iter().enumerate() {
            let lw = unicode_width::UnicodeWidthStr::width(l.as_str());
            g.put(p.left + (cw - lw) / 2, top + i, l);
        }
        if p.children.is_empty() {
            continue;
        }
        let bar = top + pic.level_lines[p.depth];
        let on_pv = p.pv && p.children.iter().any(|&c| pic.placed[c].pv);
        for y in top + lines.len()..bar {
            g.put(p.center, y, if on_pv { PV_EDGE } else { "│" });
        }
        let centers: Vec<usize> = p.children.iter().map(|&c| pic.placed[c].center).collect();
        let lo = centers
            .iter()
            .copied()
            .min()
            .unwrap_or(p.center)
            .min(p.center);
        let hi = centers
            .iter()
            .copied()
            .max()
            .unwrap_or(p.center)
            .max(p.center);
        for x in lo..=hi {
            let j = junction(x == p.center, centers.contains(&x), x > lo, x < hi);
            g.put(x, bar, j);
        }
        for &c in &p.children {
            let child = &pic.placed[c];
            g.put(child.center, bar + CONNECTOR_ROWS - 1, edge_mark(p, child));
        }
    }
    g.lines()
}

/// The edge mark of the principal variation.
pub const PV_EDGE: &str = "┃";

/// The legend line under a picture that marks a principal variation, cut to its width.
pub fn legend(pic: &Picture) -> Option<String> {
    pic.has_pv_edge()
        .then(|| super::layout::cut(&format!("{PV_EDGE} {}", super::PV_LEGEND), pic.width.max(1)))
}

/// The picture as text, a line each, and its legend.
pub fn render(pic: &Picture) -> String {
    let mut out = String::new();
    for l in lines(pic).into_iter().chain(legend(pic)) {
        out.push_str(&l);
        out.push('\n');
    }
    out
}
