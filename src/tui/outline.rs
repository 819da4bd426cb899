//! The outline: which nodes are expanded, which is selected, which rows are on screen.
//!
//! UI-free and lazy: nothing is computed for a node that is not on screen. The visible rows are
//! never listed; moving is a walk in preorder that skips collapsed subtrees and nodes a
//! [`Filter`] hides, so scrolling a 10^6-node tree costs what scrolling a 10-node one does.

use prune::tree::{NodeId, Tree};

/// What a view hides: nodes left out of the outline ("visited only"), and nodes shown but not
/// opened (a pruned subtree folded to one row).
pub trait Filter {
    fn hidden(&self, _id: NodeId) -> bool {
        false
    }
    fn folded(&self, _id: NodeId) -> bool {
        false
    }
}

/// Hides nothing.
pub struct All;

impl Filter for All {}

/// The outline's state.
#[derive(Clone, Debug)]
pub struct Outline {
    expanded: Vec<bool>,
    /// Each node's distance from the root, by id. Not derived from the ids: a stored tree's
    /// are breadth-first, but a game's searched tree numbers its nodes in the order the search
    /// generated them, so a shallow node may come after a deeper line.
    depths: Vec<u32>,
    /// How many nodes each depth holds.
    level_sizes: Vec<usize>,
    pub(crate) selected: NodeId,
    /// The first row on screen.
    pub(crate) top: NodeId,
    /// The selected node's row on screen, counted from `top`.
    pub(crate) cursor_row: usize,
}

/// How many rows the outline opens with, at most (whole levels are opened).
const INITIAL_ROWS: usize = 300;

impl Outline {
    pub fn new(tree: &Tree) -> Self {
        // Depths from the root down, level by level, whatever order the ids come in.
        let mut depths = vec![0u32; tree.len()];
        let mut level_sizes = Vec::new();
        let mut level: Vec<NodeId> = if tree.is_empty() {
            Vec::new()
        } else {
            vec![tree.root()]
        };
        while !level.is_empty() {
            let d = level_sizes.len() as u32;
            level_sizes.push(level.len());
            let mut next = Vec::new();
            for &id in &level {
                depths[id.index()] = d;
                next.extend(tree.children(id));
            }
            level = next;
        }
        let mut o = Outline {
            expanded: vec![false; tree.len()],
            depths,
            level_sizes,
            selected: tree.root(),
            top: tree.root(),
            cursor_row: 0,
        };
        // Open whole levels while the open part stays small.
        let mut depth = 1;
        let mut above: usize = o.level_sizes.iter().take(2).sum();
        while depth < o.levels() && above <= INITIAL_ROWS {
            depth += 1;
            above += o.level_sizes.get(depth).copied().unwrap_or(0);
        }
        o.expand_to_depth(depth.max(1));
        o
    }

    /// Number of depths (the root alone is 1).
    pub fn levels(&self) -> usize {
        self.level_sizes.len()
    }

    pub fn depth(&self, id: NodeId) -> usize {
        self.depths[id.index()] as usize
    }

    pub fn is_expanded(&self, id: NodeId) -> bool {
        self.expanded[id.index()]
    }

    /// Opens every node above depth `depth` (1: the root's children show) and closes the rest.
    pub fn expand_to_depth(&mut self, depth: usize) {
        for (e, &d) in self.expanded.iter_mut().zip(&self.depths) {
            *e = (d as usize) < depth;
        }
    }

    pub fn set_expanded(&mut self, id: NodeId, open: bool) {
        self.expanded[id.index()] = open;
    }

    /// Shown with its children below it.
    pub fn is_open(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> bool {
        self.expanded[id.index()] && tree.child_count(id) > 0 && !f.folded(id)
    }

    fn first_shown_child(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> Option<NodeId> {
        tree.children(id).find(|&c| !f.hidden(c))
    }

    fn last_shown_child(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> Option<NodeId> {
        let n = tree.child_count(id);
        (0..n)
            .rev()
            .map(|i| tree.child(id, i))
            .find(|&c| !f.hidden(c))
    }

    /// The next shown sibling after `id`.
    pub fn next_sibling(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> Option<NodeId> {
        let p = tree.parent(id)?;
        let n = tree.child_count(p);
        (tree.child_index(id) + 1..n)
            .map(|i| tree.child(p, i))
            .find(|&c| !f.hidden(c))
    }

    fn prev_sibling(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> Option<NodeId> {
        let p = tree.parent(id)?;
        (0..tree.child_index(id))
            .rev()
            .map(|i| tree.child(p, i))
            .find(|&c| !f.hidden(c))
    }

    /// The row after `id`'s.
    pub fn next(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> Option<NodeId> {
        if self.is_open(tree, f, id) {
            if let Some(c) = self.first_shown_child(tree, f, id) {
                return Some(c);
            }
        }
        let mut cur = id;
        loop {
            if let Some(s) = self.next_sibling(tree, f, cur) {
                return Some(s);
            }
            cur = tree.parent(cur)?;
        }
    }

    /// The row before `id`'s.
    pub fn prev(&self, tree: &Tree, f: &impl Filter, id: NodeId) -> Option<NodeId> {
        match self.prev_sibling(tree, f, id) {
            Some(s) => Some(self.last_row_in(tree, f, s)),
            None => tree.parent(id),
        }
    }

    /// The last row of `id`'s shown subtree.
    fn last_row_in(&self, tree: &Tree, f: &impl Filter, mut id: NodeId) -> NodeId {
        while self.is_open(tree, f, id) {
            match self.last_shown_child(tree, f, id) {
                Some(c) => id = c,
                None => break,
            }
        }
        id
    }

    /// The rows on a screen of `height` rows.
    pub fn rows(&self, tree: &Tree, f: &impl Filter, height: usize) -> Vec<NodeId> {
        let mut rows = Vec::with_capacity(height);
        let mut cur = Some(self.top);
        while let Some(id) = cur {
            if rows.len() == height {
                break;
            }
            rows.push(id);
            cur = self.next(tree, f, id);
        }
        rows
    }

    /// Moves the selection `n` rows down (negative: up), scrolling a screen of `height` rows.
    pub fn move_by(&mut self, tree: &Tree, f: &impl Filter, n: isize, height: usize) {
        let height = height.max(1);
        for _ in 0..n.unsigned_abs() {
            if n > 0 {
                let Some(next) = self.next(tree, f, self.selected) else {
                    break;
                };
                self.selected = next;
                if self.cursor_row + 1 < height {
                    self.cursor_row += 1;
                } else if let Some(t) = self.next(tree, f, self.top) {
                    self.top = t;
                }
            } else {
                let Some(prev) = self.prev(tree, f, self.selected) else {
                    break;
                };
                self.selected = prev;
                if self.cursor_row > 0 {
                    self.cursor_row -= 1;
                } else {
                    self.top = prev;
                }
            }
        }
    }

    /// Selects the last row.
    pub fn select_last(&mut self, tree: &Tree, f: &impl Filter, height: usize) {
        let last = self.last_row_in(tree, f, tree.root());
        self.select(tree, f, last, height);
    }

    /// Selects `id`, opening its ancestors (and un-hiding nothing: a hidden node's nearest
    /// shown ancestor is selected instead), and scrolls it into view a third of the way down.
    pub fn select(&mut self, tree: &Tree, f: &impl Filter, id: NodeId, height: usize) {
        let mut target = id;
        let mut cur = id;
        while let Some(p) = tree.parent(cur) {
            if f.hidden(cur) || f.folded(p) {
                target = p;
            }
            cur = p;
        }
        let mut cur = target;
        while let Some(p) = tree.parent(cur) {
            self.expanded[p.index()] = true;
            cur = p;
        }
        self.selected = target;
        self.top = target;
        self.cursor_row = 0;
        let above = height.max(1) / 3;
        while self.cursor_row < above {
            match self.prev(tree, f, self.top) {
                Some(p) => {
                    self.top = p;
                    self.cursor_row += 1;
                }
                None => break,
            }
        }
    }

    /// Keeps the selection valid after the filter or expansion changed.
    pub fn refresh(&mut self, tree: &Tree, f: &impl Filter, height: usize) {
        let sel = self.selected;
        self.select(tree, f, sel, height);
    }

    /// `h`: closes an open node, or else goes to the parent.
    pub fn collapse_or_parent(&mut self, tree: &Tree, f: &impl Filter, height: usize) {
        let id = self.selected;
        if self.is_open(tree, f, id) {
            self.expanded[id.index()] = false;
        } else if let Some(p) = tree.parent(id) {
            self.select_keeping_row(tree, f, p, height);
        }
    }

    /// `l`: opens a closed node, or else goes to its first child.
    pub fn expand_or_child(&mut self, tree: &Tree, f: &impl Filter, height: usize) {
        let id = self.selected;
        if tree.child_count(id) == 0 || f.folded(id) {
            return;
        }
        if !self.expanded[id.index()] {
            self.expanded[id.index()] = true;
        } else {
            self.move_by(tree, f, 1, height);
        }
    }

    pub fn toggle(&mut self, tree: &Tree, id: NodeId) {
        if tree.child_count(id) > 0 {
            self.expanded[id.index()] = !self.expanded[id.index()];
        }
    }

    /// Selects `id` moving the cursor as little as possible (when it is at or above the cursor
    /// on screen, e.g. the parent).
    fn select_keeping_row(&mut self, tree: &Tree, f: &impl Filter, id: NodeId, height: usize) {
        // Walk up from the selection to `id` on screen; if it is above the top, re-centre.
        let mut cur = self.selected;
        let mut row = self.cursor_row;
        while cur != id {
            match self.prev(tree, f, cur) {
                Some(p) if row > 0 => {
                    cur = p;
                    row -= 1;
                }
                _ => return self.select(tree, f, id, height),
            }
        }
        self.selected = id;
        self.cursor_row = row;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune::format::parse_expr;

    fn tree() -> Tree {
        parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap()
    }

    #[test]
    fn levels_and_depths_of_a_stored_tree() {
        let t = tree();
        let o = Outline::new(&t);
        assert_eq!(o.levels(), 3);
        assert_eq!(o.depth(NodeId(0)), 0);
        assert_eq!(o.depth(NodeId(3)), 1);
        assert_eq!(o.depth(NodeId(4)), 2);
        // Small trees open whole.
        assert_eq!(o.rows(&t, &All, 100).len(), 13);
    }

    #[test]
    fn rows_follow_preorder_and_skip_collapsed_nodes() {
        let t = tree();
        let mut o = Outline::new(&t);
        let pre: Vec<NodeId> = t.preorder().collect();
        assert_eq!(o.rows(&t, &All, 100), pre);
        o.set_expanded(NodeId(2), false);
        let rows = o.rows(&t, &All, 100);
        assert_eq!(rows.len(), 10);
        assert!(!rows.contains(&NodeId(7)));
        assert_eq!(o.rows(&t, &All, 4).len(), 4);
    }

    #[test]
    fn moving_scrolls_and_comes_back() {
        let t = tree();
        let mut o = Outline::new(&t);
        o.move_by(&t, &All, 12, 5);
        assert_eq!(
            o.selected,
            *t.preorder().collect::<Vec<_>>().last().unwrap()
        );
        assert_eq!(o.cursor_row, 4);
        assert_eq!(o.rows(&t, &All, 5).last(), Some(&o.selected));
        o.move_by(&t, &All, -12, 5);
        assert_eq!(o.selected, t.root());
        assert_eq!(o.top, t.root());
        o.move_by(&t, &All, -1, 5);
        assert_eq!(o.selected, t.root(), "stops at the first row");
    }

    struct HideOdd;
    impl Filter for HideOdd {
        fn hidden(&self, id: NodeId) -> bool {
            id.0 % 2 == 1
        }
    }

    #[test]
    fn hidden_nodes_are_skipped_both_ways() {
        let t = tree();
        let mut o = Outline::new(&t);
        let rows = o.rows(&t, &HideOdd, 100);
        assert!(rows.iter().all(|id| id.0 % 2 == 0), "{rows:?}");
        o.move_by(&t, &HideOdd, rows.len() as isize, 100);
        assert_eq!(Some(&o.selected), rows.last());
        o.move_by(&t, &HideOdd, -(rows.len() as isize), 100);
        assert_eq!(o.selected, t.root());
    }

    #[test]
    fn select_opens_ancestors_and_h_l_navigate() {
        let t = tree();
        let mut o = Outline::new(&t);
        o.expand_to_depth(1);
        assert_eq!(o.rows(&t, &All, 100).len(), 4);
        o.select(&t, &All, NodeId(12), 10);
        assert!(o.is_expanded(NodeId(3)));
        assert!(o.rows(&t, &All, 100).contains(&NodeId(12)));
        o.collapse_or_parent(&t, &All, 10);
        assert_eq!(o.selected, NodeId(3));
        o.collapse_or_parent(&t, &All, 10);
        assert!(!o.is_expanded(NodeId(3)));
        o.expand_or_child(&t, &All, 10);
        assert!(o.is_expanded(NodeId(3)));
        o.expand_or_child(&t, &All, 10);
        assert_eq!(o.selected, NodeId(10));
    }

    #[test]
    fn a_deep_chain_scrolls() {
        let mut expr = String::from("1");
        for _ in 0..3000 {
            expr = format!("({expr})");
        }
        let t = parse_expr(&expr, false).unwrap();
        let mut o = Outline::new(&t);
        o.expand_to_depth(t.height() + 1);
        o.select_last(&t, &All, 20);
        assert!(t.is_leaf(o.selected));
        assert_eq!(o.rows(&t, &All, 20).len(), 20 / 3 + 1);
    }

    /// Every node's depth as the outline draws it is its distance from the root, also in a
    /// game's searched tree, whose ids come in the order the search generated the nodes (a
    /// deep line first, then its shallow siblings) rather than level by level.
    fn assert_depths(t: &Tree) {
        let o = Outline::new(t);
        for id in t.ids() {
            assert_eq!(o.depth(id), t.depth_of(id), "node {id:?}");
        }
        assert_eq!(o.levels(), t.height() + 1);
    }

    #[test]
    fn depths_are_distances_from_the_root() {
        assert_depths(&tree());
        // A deep subtree followed by a shallow sibling.
        assert_depths(&parse_expr("((((1,2),3),4),5,(6,(7,8)))", false).unwrap());
        let nim = prune::game::nim::Nim::new(&[2, 3], 2).unwrap();
        let algos = [prune::search::Algorithm::AlphaBeta { fail_soft: false }];
        let recorded = prune::game::run::record(&nim, &algos, 64).unwrap();
        let t = &recorded.tree;
        let depths: Vec<usize> = t.ids().map(|id| t.depth_of(id)).collect();
        assert!(
            depths.windows(2).any(|w| w[1] < w[0]),
            "the searched tree is not laid out level by level: {depths:?}"
        );
        assert_depths(t);
    }

    #[test]
    fn opening_to_a_depth_opens_by_distance_from_the_root() {
        let nim = prune::game::nim::Nim::new(&[2, 3], 2).unwrap();
        let algos = [prune::search::Algorithm::AlphaBeta { fail_soft: false }];
        let t = prune::game::run::record(&nim, &algos, 64).unwrap().tree;
        let mut o = Outline::new(&t);
        o.expand_to_depth(2);
        for id in t.ids() {
            assert_eq!(o.is_expanded(id), t.depth_of(id) < 2, "node {id:?}");
        }
    }
}
