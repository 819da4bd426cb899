//! The diagram view's own state: its zoom level, the window on the picture (where it is panned
//! to) and, while practising, the leaf its cursor is on.
//!
//! A zoom level is how many columns the picture may take: the panel's (`fit`, as deep as the
//! panel is tall — nothing to pan), four panels' or the whole subtree's (every level down to
//! [`DEEPEST`]), the rest panned into view. The pan keys move the window by half of it; the
//! drawing clamps it to the picture and, when the node it follows (the practice cursor, or the
//! step's node) is not the one it followed at the last frame and is out of view, centres it.
//! So the window is written back by the drawing, in `Cell`s like `Layout::run_offset`, and a pan away from a node
//! stays until the node moves.

use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::rc::Rc;
use std::sync::{Arc, Weak};

use prune::draw::Picture;
use prune::tree::{NodeId, Tree};

use super::keymap::Action;

/// Columns of the `wide` level, in panels.
pub const WIDE: usize = 4;
/// The most columns the `whole` level lays out: a wider subtree is elided beyond them, with its
/// size, and is read a subtree at a time (select one, as in the outline).
pub const WHOLE_WIDTH: usize = 8192;
/// The most levels the panned levels draw below the diagram's root.
pub const DEEPEST: usize = 24;

/// How much of the tree the diagram lays out.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Zoom {
    /// As wide as the panel and as deep as it is tall.
    #[default]
    Fit,
    /// [`WIDE`] panels wide, every level.
    Wide,
    /// The whole subtree, up to [`WHOLE_WIDTH`] columns and [`DEEPEST`] levels.
    Whole,
}

impl Zoom {
    /// The next level, round to `fit` again.
    pub fn next(self) -> Zoom {
        match self {
            Zoom::Fit => Zoom::Wide,
            Zoom::Wide => Zoom::Whole,
            Zoom::Whole => Zoom::Fit,
        }
    }

    /// The level as the status bar and the diagram's hint name it.
    pub fn name(self) -> &'static str {
        match self {
            Zoom::Fit => "fit",
            Zoom::Wide => "4× wide",
            Zoom::Whole => "whole",
        }
    }

    /// Columns the picture may take in a panel `w` wide.
    pub fn width(self, w: usize) -> usize {
        match self {
            Zoom::Fit => w,
            Zoom::Wide => w.saturating_mul(WIDE).min(WHOLE_WIDTH),
            Zoom::Whole => WHOLE_WIDTH,
        }
    }
}

/// The diagram's zoom, window and practice cursor.
#[derive(Clone, Debug, Default)]
pub struct DiagramView {
    pub(crate) zoom: Zoom,
    /// The picture's first column and row on screen at the last draw (or as a pan key left it).
    pub(crate) offset: Cell<(usize, usize)>,
    /// The window's columns and rows at the last draw: a pan key moves half of it.
    pub(crate) window: Cell<(usize, usize)>,
    /// The node the window followed at the last draw.
    pub(crate) followed: Cell<Option<NodeId>>,
    /// Practising on the diagram: the leaf Space marks, if one was chosen.
    pub(crate) cursor: Option<NodeId>,
}

impl DiagramView {
    pub fn zoom(&self) -> Zoom {
        self.zoom
    }

    /// The picture's first column and row on screen at the last draw (or as a pan key left it).
    pub fn offset(&self) -> (usize, usize) {
        self.offset.get()
    }

    /// The window's columns and rows at the last draw.
    pub fn window(&self) -> (usize, usize) {
        self.window.get()
    }

    /// Practising on the diagram: the leaf Space marks, if one was chosen.
    pub fn cursor(&self) -> Option<NodeId> {
        self.cursor
    }

    /// The zoom and pan keys; what the status bar should say.
    pub fn action(&mut self, a: Action) -> Option<String> {
        let (x, y) = self.offset.get();
        let (w, h) = self.window.get();
        let (dx, dy) = ((w / 2).max(1), (h / 2).max(1));
        let moved = match a {
            Action::Zoom => {
                self.zoom = self.zoom.next();
                self.offset.set((0, 0));
                self.followed.set(None);
                return Some(format!("diagram zoom: {}", self.zoom.name()));
            }
            Action::PanLeft => (x.saturating_sub(dx), y),
            Action::PanRight => (x.saturating_add(dx), y),
            Action::PanUp => (x, y.saturating_sub(dy)),
            Action::PanDown => (x, y.saturating_add(dy)),
            _ => return None,
        };
        self.offset.set(moved);
        None
    }

    /// The window's first column and row for a picture of `size` (columns, rows) in a window
    /// of `window`, showing `focus` (the node, its card's columns and rows) if it is not the
    /// node followed at the last draw; remembered for the next draw.
    pub fn place(
        &self,
        size: (usize, usize),
        window: (usize, usize),
        focus: Option<(NodeId, Range<usize>, Range<usize>)>,
    ) -> (usize, usize) {
        let (mut x, mut y) = self.offset.get();
        if let Some((id, cols, rows)) = focus
            && self.followed.get() != Some(id)
        {
            x = into_view(x, window.0, &cols);
            y = into_view(y, window.1, &rows);
            self.followed.set(Some(id));
        }
        let x = x.min(size.0.saturating_sub(window.0));
        let y = y.min(size.1.saturating_sub(window.1));
        self.offset.set((x, y));
        self.window.set(window);
        (x, y)
    }

    /// The leaf under `root` the cursor is on: the one chosen, or the first.
    pub fn cursor_in(&self, tree: &Tree, root: NodeId) -> Option<NodeId> {
        let leaves = leaves_under(tree, root);
        self.cursor
            .filter(|c| leaves.contains(c))
            .or_else(|| leaves.first().copied())
    }

    /// The cursor to the next (previous) leaf under `root`, from left to right.
    pub fn move_cursor(&mut self, tree: &Tree, root: NodeId, forward: bool) {
        let leaves = leaves_under(tree, root);
        let n = leaves.len();
        if n == 0 {
            return;
        }
        let at = self
            .cursor_in(tree, root)
            .and_then(|c| leaves.iter().position(|&l| l == c))
            .unwrap_or(0);
        let next = if forward {
            (at + 1).min(n - 1)
        } else {
            at.saturating_sub(1)
        };
        self.cursor = Some(leaves[next]);
    }
}

/// What a diagram's picture is drawn of: the tree (the very one, not an equal one), the
/// subtree's root, the zoom in force and the window (the `fit` and `4×` levels depend on its
/// size), the run and its step, the run compared with (differences on) and its step, and
/// whether the principal variation is marked.
#[derive(Clone, Debug)]
pub struct PictureKey {
    pub tree: Weak<Tree>,
    pub root: NodeId,
    pub zoom: Zoom,
    pub window: (usize, usize),
    /// The run's [`crate::tui::runs::RunView::serial`] and its step.
    pub run: Option<(u64, usize)>,
    pub other: Option<(u64, usize)>,
    pub pv: bool,
}

impl PictureKey {
    pub fn of_tree(tree: &Arc<Tree>) -> Weak<Tree> {
        Arc::downgrade(tree)
    }
}

impl PartialEq for PictureKey {
    fn eq(&self, o: &PictureKey) -> bool {
        // A weak pointer keeps the tree's place taken: another tree never has this address
        // while the key lives.
        Weak::ptr_eq(&self.tree, &o.tree)
            && (
                self.root,
                self.zoom,
                self.window,
                self.run,
                self.other,
                self.pv,
            ) == (o.root, o.zoom, o.window, o.run, o.other, o.pv)
    }
}

/// A diagram's picture and what is made of it once: its lines of text, and which cards
/// differ from the other run's (differences on).
#[derive(Debug)]
pub struct Drawn {
    pub pic: Picture,
    pub lines: Vec<String>,
    /// By card, in [`Picture::placed`] order.
    pub differs: Vec<bool>,
}

/// The diagrams drawn at the last frame (two with differences on), kept for the next frames:
/// a pan or any key that changes none of a [`PictureKey`]'s parts draws a slice of the same
/// picture instead of laying out a subtree of up to [`WHOLE_WIDTH`] columns again. A copy of
/// the layout starts empty.
#[derive(Default)]
pub struct PictureCache {
    kept: RefCell<Vec<(PictureKey, Rc<Drawn>)>>,
    /// Pictures laid out so far (what a test of the cache counts).
    made: Cell<usize>,
}

/// How many pictures the cache keeps: the two diagrams of a comparison.
const CACHED: usize = 2;

impl PictureCache {
    /// The picture for `key`: the one kept, or `make`'s, then kept.
    pub fn get(&self, key: PictureKey, make: impl FnOnce() -> Drawn) -> Rc<Drawn> {
        if let Some((_, d)) = self.kept.borrow().iter().find(|(k, _)| *k == key) {
            return Rc::clone(d);
        }
        let d = Rc::new(make());
        self.made.set(self.made.get() + 1);
        let mut kept = self.kept.borrow_mut();
        kept.push((key, Rc::clone(&d)));
        let n = kept.len();
        if n > CACHED {
            kept.drain(..n - CACHED);
        }
        d
    }

    /// Forgets every picture (the next frame lays them out again).
    pub fn clear(&self) {
        self.kept.borrow_mut().clear();
    }

    /// How many pictures were laid out so far.
    pub fn made(&self) -> usize {
        self.made.get()
    }
}

impl Clone for PictureCache {
    fn clone(&self) -> PictureCache {
        PictureCache::default()
    }
}

impl std::fmt::Debug for PictureCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let keys: Vec<PictureKey> = self.kept.borrow().iter().map(|(k, _)| k.clone()).collect();
        write!(f, "PictureCache({keys:?}, {} made)", self.made.get())
    }
}

/// The first of `width` columns (or rows) from `start`: unchanged while `span` is in view,
/// else moved to centre it (its start, when it is wider) — a node that left the window is
/// shown with what lies on both sides of it.
fn into_view(start: usize, width: usize, span: &Range<usize>) -> usize {
    if span.start >= start && span.end <= start + width {
        start
    } else if span.len() > width {
        span.start
    } else {
        (span.start + span.end)
            .div_ceil(2)
            .saturating_sub(width / 2)
    }
}

/// The leaves of `root`'s subtree, from left to right.
fn leaves_under(tree: &Tree, root: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if tree.is_leaf(n) {
            out.push(n);
        } else {
            let children: Vec<NodeId> = tree.children(n).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_follows_a_node_only_when_it_moves() {
        let v = DiagramView::default();
        // A node at columns 100..110, out of view: the window centres it.
        let far = Some((NodeId::ROOT, 100..110, 0..3));
        assert_eq!(v.place((300, 20), (40, 10), far.clone()), (85, 0));
        // In view, it moves nothing.
        v.followed.set(None);
        assert_eq!(v.place((300, 20), (40, 10), far.clone()), (85, 0));
        // Panned away by hand, the same node does not pull the window back.
        v.offset.set((0, 0));
        assert_eq!(v.place((300, 20), (40, 10), far), (0, 0));
        // The window never passes the picture's end.
        v.offset.set((290, 50));
        assert_eq!(v.place((300, 20), (40, 10), None), (260, 10));
    }

    #[test]
    fn pan_keys_move_half_a_window_and_zoom_starts_again() {
        let mut v = DiagramView::default();
        v.window.set((40, 10));
        v.action(Action::PanRight);
        v.action(Action::PanDown);
        assert_eq!(v.offset.get(), (20, 5));
        v.action(Action::PanLeft);
        v.action(Action::PanLeft);
        assert_eq!(v.offset.get(), (0, 5));
        assert_eq!(
            v.action(Action::Zoom).as_deref(),
            Some("diagram zoom: 4× wide")
        );
        assert_eq!(v.offset.get(), (0, 0));
        assert_eq!(v.zoom.width(80), 320);
        v.action(Action::Zoom);
        assert_eq!(v.zoom, Zoom::Whole);
        v.action(Action::Zoom);
        assert_eq!(v.zoom, Zoom::Fit);
    }

    #[test]
    fn the_cursor_walks_the_leaves_left_to_right() {
        let tree = crate::cli::default_tree();
        let mut v = DiagramView::default();
        let root = tree.root();
        let leaves = leaves_under(&tree, root);
        assert_eq!(leaves.len(), tree.leaf_count());
        assert_eq!(v.cursor_in(&tree, root), Some(leaves[0]));
        v.move_cursor(&tree, root, false);
        assert_eq!(v.cursor, Some(leaves[0]));
        v.move_cursor(&tree, root, true);
        v.move_cursor(&tree, root, true);
        assert_eq!(v.cursor, Some(leaves[2]));
        // Under another root, the cursor starts at its first leaf.
        let b = tree.child(root, 1);
        assert_eq!(
            v.cursor_in(&tree, b),
            leaves_under(&tree, b).first().copied()
        );
    }
}
