//! Laying a tree out top-down in character cells, within a width.
//!
//! Every node is a [`Card`] of a few lines. A subtree takes the width of its children's
//! subtrees side by side, or of its own card if that is wider, plus one column of gap; a parent
//! is centred over its children. When the children do not fit the width they are given, the
//! nodes that must be seen (the current step's node, the principal variation, and the paths
//! down to them: [`lay_out`]'s `keep`) are kept first, then the leftmost others that fit; each
//! run of children left out becomes one elision card, `…(n nodes)`. The width left is shared
//! among the kept children by "water-filling" (each gets what it needs, up to an equal share
//! of what is left, until nothing is left). A picture is wider than asked only when what must
//! be kept needs more. Below the depth limit a node's children are one elision card, kept
//! nodes or not: a depth is asked for explicitly. A card never takes more than [`MAX_CARD`]
//! columns.
//!
//! Levels are rows of cards: level `d` starts at [`Picture::top`]`(d)`; between two levels
//! there are two rows of connectors (the bar joining siblings, then each edge's mark).

use crate::hash::{FastMap, FastSet};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::trace::Status;
use crate::tree::{Kind, NodeId, Tree};

/// Columns between sibling subtrees.
pub const GAP: usize = 2;
/// The widest a card may be: longer lines end in "…".
pub const MAX_CARD: usize = 24;
/// Rows between a level's cards and the next level's: the bar, the edge marks.
pub const CONNECTOR_ROWS: usize = 2;

/// What the picture shows of one node, or of an elided group of nodes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Card {
    /// The node; `None` for an elision card.
    pub node: Option<NodeId>,
    /// The node's kind (`None` for an elision card).
    pub kind: Option<Kind>,
    /// The node's status in the run drawn (`None` without a run).
    pub status: Option<Status>,
    /// The status glyph written before the first line (empty without a run).
    pub glyph: &'static str,
    /// Star2 probed this node.
    pub probed: bool,
    /// The current step touched this node.
    pub current: bool,
    /// Below a chance node with uneven probabilities: `p 1/4`, above the card.
    pub prob: Option<String>,
    /// The head (kind and label, or a leaf's value), then the value and the window.
    pub lines: Vec<String>,
    /// For an elision card: how many nodes it stands for.
    pub elided: u32,
}

impl Card {
    /// What the text picture writes before the head line: the current step's marker and the
    /// status glyph.
    pub fn prefix(&self) -> String {
        format!("{}{}", if self.current { "▶" } else { "" }, self.glyph)
    }

    /// The columns [`Card::prefix`] takes.
    fn prefix_width(&self) -> usize {
        usize::from(self.current) + self.glyph.width()
    }

    /// The card's lines as the text picture writes them.
    pub fn text_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.prob.iter().cloned().collect();
        for (i, l) in self.lines.iter().enumerate() {
            out.push(if i == 0 {
                format!("{}{l}", self.prefix())
            } else {
                l.clone()
            });
        }
        out
    }

    /// Columns the card takes in the text picture (the widest of [`Card::text_lines`],
    /// measured without writing them).
    pub fn width(&self) -> usize {
        let lines = self.lines.iter().enumerate().map(|(i, l)| {
            let prefix = if i == 0 { self.prefix_width() } else { 0 };
            prefix + l.width()
        });
        self.prob
            .iter()
            .map(|p| p.width())
            .chain(lines)
            .max()
            .unwrap_or(0)
    }

    /// The card's height in lines (its probability line included).
    pub fn height(&self) -> usize {
        self.lines.len() + usize::from(self.prob.is_some())
    }

    /// Cuts every line so that the card is at most `w` columns wide.
    pub fn truncate(&mut self, w: usize) {
        let room = w.saturating_sub(self.prefix_width()).max(1);
        let fit = |s: &mut String, w: usize| {
            if s.width() > w {
                *s = cut(s, w);
            }
        };
        for (i, l) in self.lines.iter_mut().enumerate() {
            fit(l, if i == 0 { room } else { w.max(1) });
        }
        if let Some(p) = &mut self.prob {
            fit(p, w.max(1));
        }
    }

    /// An elision card for `n` nodes, in at most `room` columns (at least "…"); `current`
    /// when it hides the current step's node (marked `▶` like a node).
    pub fn elision(n: u32, room: usize, current: bool) -> Card {
        let room = room.saturating_sub(usize::from(current));
        let long = format!("…({})", crate::text::nodes(n));
        let text = [long, format!("…({n})"), format!("…{n}")]
            .into_iter()
            .find(|t| t.width() <= room)
            .unwrap_or_else(|| "…".into());
        Card {
            lines: vec![text],
            elided: n,
            current,
            ..Card::default()
        }
    }
}

/// The width of the shortest elision card that still counts `n` nodes: `…12` (`▶…12` when
/// it hides the current step's node).
fn count_width(n: u32, current: bool) -> usize {
    1 + n.to_string().len() + usize::from(current)
}

/// `s` cut to `w` display columns, ending in "…" when something was cut.
pub fn cut(s: &str, w: usize) -> String {
    if s.width() <= w {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw + 1 > w {
            break;
        }
        out.push(c);
        used += cw;
    }
    out.push('…');
    out
}

/// One card in the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// What the card shows.
    pub card: Card,
    /// Level below the picture's root.
    pub depth: usize,
    /// The column of the card's middle (absolute).
    pub center: usize,
    /// The card's first column (absolute).
    pub left: usize,
    /// The parent card's index in [`Picture::placed`].
    pub parent: Option<usize>,
    /// The children cards' indices in [`Picture::placed`].
    pub children: Vec<usize>,
    /// On the principal variation (drawn only at the run's end).
    pub pv: bool,
}

/// A laid-out picture: the cards in preorder (a parent before its children).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The cards, in preorder.
    pub placed: Vec<Placed>,
    /// Columns used.
    pub width: usize,
    /// Lines of the tallest card of each level.
    pub level_lines: Vec<usize>,
}

impl Picture {
    /// The first row of level `d`.
    pub fn top(&self, d: usize) -> usize {
        self.level_lines[..d]
            .iter()
            .map(|h| h + CONNECTOR_ROWS)
            .sum()
    }

    /// Rows used.
    pub fn height(&self) -> usize {
        let n = self.level_lines.len();
        if n == 0 {
            0
        } else {
            self.top(n - 1) + self.level_lines[n - 1]
        }
    }

    /// The nodes drawn (elision cards excluded).
    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &Placed)> {
        self.placed
            .iter()
            .filter_map(|p| p.card.node.map(|n| (n, p)))
    }

    /// The nodes the elision cards stand for.
    pub fn elided(&self) -> u64 {
        self.placed.iter().map(|p| u64::from(p.card.elided)).sum()
    }
}

/// A card in the making: its place relative to its parent's subtree.
struct Item {
    card: Card,
    depth: usize,
    /// The subtree's first column, from its parent subtree's first column.
    rel_left: usize,
    /// Columns the subtree takes, gap included.
    width: usize,
    /// The card's middle, from the subtree's first column.
    center: usize,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// One part of a node's row of children: a child drawn, or a run of them elided.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    /// The child of this index.
    Child(usize),
    /// A run of children, this many nodes in all, in one elision card.
    Elided(u32),
}

/// How a node's children share its width: `parts` in order, the drawn children's least and
/// natural widths in the same order, and the columns the elision cards need.
struct Fit {
    parts: Vec<Part>,
    naturals: Vec<usize>,
    mins: Vec<usize>,
    reserve: usize,
}

/// The children that must be drawn, and the nodes before each (`pre[i]`: the nodes under
/// the first `i` children), as far as the elisions around them need counting.
struct Row {
    kept: Vec<usize>,
    pre: Vec<u32>,
    below: u32,
}

impl Row {
    /// The columns the elision cards take when the first `k` children and the kept ones are
    /// drawn: one card for each run of the others, wide enough for its count and a gap.
    fn reserve(&self, k: usize, count: usize) -> usize {
        self.runs(k, count)
            .map(|n| count_width(n, false) + GAP)
            .sum()
    }

    /// The node counts of the runs left out when the first `k` children and the kept ones
    /// are drawn, in order; `pre` must reach past `k` and the last kept child.
    fn runs(&self, k: usize, count: usize) -> impl Iterator<Item = u32> + '_ {
        let mut start = k;
        let mut out = Vec::new();
        for &p in self.kept.iter().filter(|&&p| p >= k) {
            if p > start {
                out.push(self.pre[p] - self.pre[start]);
            }
            start = p + 1;
        }
        if start < count {
            out.push(self.below - self.pre[start]);
        }
        out.into_iter()
    }
}

struct Builder<'a, F> {
    tree: &'a Tree,
    sizes: &'a [u32],
    limit: usize,
    /// The current step's node and its ancestors: an elision hiding one of them is marked.
    on_path: FastSet<NodeId>,
    current: Option<NodeId>,
    /// Each node's children that must be drawn (indices, in order): those on the way to a
    /// node kept.
    kept: FastMap<NodeId, Vec<usize>>,
    make: F,
    /// Cards made to measure a subtree, until their node is placed.
    cards: NodeCache<Card>,
    /// Measured widths, and whether each is whole (not cut short at a cap).
    naturals: NodeCache<(usize, bool)>,
    out: Vec<Item>,
}

/// What the layout remembers of some nodes: in a vector over the whole tree when the picture
/// is as wide as the tree has nodes (it may then visit them all, and a vector is read without
/// a hash table's cache misses), in a hash map when it is narrower (the explorer's diagram of
/// a big tree touches a few hundred).
enum NodeCache<T> {
    Dense(Vec<Option<T>>),
    Sparse(FastMap<NodeId, T>),
}

impl<T> NodeCache<T> {
    fn new(tree: &Tree, width: usize) -> Self {
        if tree.len() <= width {
            NodeCache::Dense(std::iter::repeat_with(|| None).take(tree.len()).collect())
        } else {
            NodeCache::Sparse(FastMap::default())
        }
    }

    fn get(&self, id: NodeId) -> Option<&T> {
        match self {
            NodeCache::Dense(v) => v[id.index()].as_ref(),
            NodeCache::Sparse(m) => m.get(&id),
        }
    }

    fn insert(&mut self, id: NodeId, x: T) {
        match self {
            NodeCache::Dense(v) => v[id.index()] = Some(x),
            NodeCache::Sparse(m) => {
                m.insert(id, x);
            }
        }
    }

    fn remove(&mut self, id: NodeId) -> Option<T> {
        match self {
            NodeCache::Dense(v) => v[id.index()].take(),
            NodeCache::Sparse(m) => m.remove(&id),
        }
    }
}

/// Lays out the subtree of `root` to `limit` levels in at most `width` columns — more only if
/// the nodes of `keep` (the current step's node, the principal variation's), which width
/// never elides, need more; `make` gives each node's card; an elision that hides `current`
/// (below the depth limit) is marked.
#[allow(clippy::too_many_arguments)]
pub fn lay_out(
    tree: &Tree,
    sizes: &[u32],
    root: NodeId,
    limit: usize,
    width: usize,
    current: Option<NodeId>,
    keep: &[NodeId],
    make: impl FnMut(NodeId) -> Card,
) -> Picture {
    let budget = width.max(1).saturating_add(GAP);
    let on_path = current.map_or_else(Default::default, |c| tree.path_to(c).into_iter().collect());
    let mut kept: FastMap<NodeId, Vec<usize>> = FastMap::default();
    let mut seen = FastSet::default();
    for &k in keep.iter().chain(current.iter()) {
        let mut n = k;
        while n != root && seen.insert(n) {
            let Some(p) = tree.parent(n) else { break };
            kept.entry(p).or_default().push(tree.child_index(n));
            n = p;
        }
    }
    for v in kept.values_mut() {
        v.sort_unstable();
    }
    let mut b = Builder {
        tree,
        sizes,
        limit,
        on_path,
        current,
        kept,
        make,
        cards: NodeCache::new(tree, width),
        naturals: NodeCache::new(tree, width),
        out: Vec::new(),
    };
    // The last subtree's gap may fall beyond the width: it is never drawn.
    b.place(root, 0, budget, None);
    b.finish()
}

impl<F: FnMut(NodeId) -> Card> Builder<'_, F> {
    /// Whether the current step's node is below `id` (so an elision of its descendants hides it).
    fn hides_current(&self, id: NodeId) -> bool {
        self.current != Some(id) && self.on_path.contains(&id)
    }

    fn card(&mut self, id: NodeId) -> &Card {
        if self.cards.get(id).is_none() {
            let mut c = (self.make)(id);
            c.truncate(MAX_CARD);
            self.cards.insert(id, c);
        }
        self.cards.get(id).expect("just made")
    }

    fn card_width(&mut self, id: NodeId) -> usize {
        self.card(id).width()
    }

    /// The width the subtree of `id` takes with no limit but the depth — or, when that is more
    /// than `cap`, some width above `cap`: how much wider does not matter to a parent that can
    /// give no more, so a wide subtree is measured only as far as `cap`.
    fn natural(&mut self, id: NodeId, depth: usize, cap: usize) -> usize {
        if let Some(&(w, whole)) = self.naturals.get(id)
            && (whole || w > cap)
        {
            return w;
        }
        let own = self.card_width(id) + GAP;
        let (w, whole) = if self.tree.child_count(id) == 0 {
            (own, true)
        } else if depth >= self.limit {
            let n = self.sizes[id.index()] - 1;
            let e = Card::elision(n, usize::MAX, self.hides_current(id)).width() + GAP;
            (own.max(e), true)
        } else {
            let mut sum = 0usize;
            let mut whole = true;
            for k in self.tree.children(id) {
                sum = sum.saturating_add(self.natural(k, depth + 1, cap));
                if sum > cap {
                    whole = false;
                    break;
                }
            }
            (own.max(sum), whole)
        };
        self.naturals.insert(id, (w, whole));
        w
    }

    /// The least width the subtree of `id` can be drawn in: its card, or what its children
    /// need if that is wider — the elision card counting them all, or the children that must
    /// be kept with a card for each run of the others.
    fn least(&mut self, id: NodeId, depth: usize) -> usize {
        let card = self.card_width(id) + GAP;
        let count = self.tree.child_count(id);
        if count == 0 {
            return card;
        }
        if depth >= self.limit || !self.kept.contains_key(&id) {
            return card.max(count_width(self.sizes[id.index()] - 1, self.hides_current(id)) + GAP);
        }
        let row = self.row(id, 0);
        let mut kids = row.reserve(0, count);
        for &i in &row.kept {
            let k = self.tree.child(id, i);
            kids = kids.saturating_add(self.least(k, depth + 1));
        }
        card.max(kids)
    }

    /// The children of `id` that must be kept, and the node counts before each child up to
    /// past the last of them and the first `k`.
    fn row(&self, id: NodeId, k: usize) -> Row {
        let kept = self.kept.get(&id).cloned().unwrap_or_default();
        let reach = kept.last().map_or(0, |&p| p + 1).max(k);
        let mut pre = Vec::with_capacity(reach + 1);
        pre.push(0u32);
        for i in 0..reach {
            let c = self.tree.child(id, i);
            pre.push(pre[i] + self.sizes[c.index()]);
        }
        Row {
            kept,
            pre,
            below: self.sizes[id.index()] - 1,
        }
    }

    fn push(&mut self, card: Card, depth: usize, parent: Option<usize>) -> usize {
        let width = card.width() + GAP;
        self.out.push(Item {
            card,
            depth,
            rel_left: 0,
            width,
            center: 0,
            parent,
            children: Vec::new(),
        });
        self.out.len() - 1
    }

    /// Places `id`'s subtree in at most `budget` columns; returns its item.
    fn place(&mut self, id: NodeId, depth: usize, budget: usize, parent: Option<usize>) -> usize {
        // Each node is placed once: its card leaves the measuring cache.
        self.card(id);
        let mut card = self.cards.remove(id).expect("just made");
        card.truncate(budget.saturating_sub(GAP).clamp(1, MAX_CARD));
        let me = self.push(card, depth, parent);
        let count = self.tree.child_count(id);
        if count == 0 {
            // A leaf: its card is all.
        } else if depth >= self.limit {
            let n = self.sizes[id.index()] - 1;
            let marked = self.hides_current(id);
            self.elide(n, depth + 1, budget, me, marked);
        } else {
            let fit = self.measure(id, depth, budget);
            let alloc = water_fill(&fit.mins, &fit.naturals, budget.saturating_sub(fit.reserve));
            // What the parts after each one are given: an elision card may take what they
            // leave.
            let mut ahead: usize = alloc.iter().sum::<usize>() + fit.reserve;
            let mut used = 0usize;
            let mut next = alloc.iter();
            for part in fit.parts {
                match part {
                    Part::Child(i) => {
                        let w = *next.next().expect("one width a child");
                        ahead -= w;
                        let c = self.place(self.tree.child(id, i), depth + 1, w, Some(me));
                        used = used.saturating_add(self.out[c].width);
                    }
                    Part::Elided(n) => {
                        // At least the room measured for its count, even when what must be
                        // kept overflows the budget.
                        let least = count_width(n, false) + GAP;
                        ahead -= least;
                        let room = budget.saturating_sub(used).saturating_sub(ahead).max(least);
                        let c = self.elide(n, depth + 1, room, me, false);
                        used = used.saturating_add(self.out[c].width);
                    }
                }
            }
        }
        self.settle(me);
        me
    }

    /// Which children of `id` fit in `budget` columns: the kept ones, then the others from
    /// the left, measured in order only until their least widths overflow it; the rest are
    /// elided unmeasured, so that a node of 40,000 children costs what the few drawn cost,
    /// not a pass (or, finding how many fit, a pass per child) over all of them.
    fn measure(&mut self, id: NodeId, depth: usize, budget: usize) -> Fit {
        let count = self.tree.child_count(id);
        let mut row = self.row(id, 0);
        let mut widths: FastMap<usize, (usize, usize)> = FastMap::default();
        // `least`: the least width of the kept children and the first `k` others.
        let mut least = 0usize;
        for &i in &row.kept {
            let w = self.widths(id, i, depth, budget);
            least = least.saturating_add(w.0);
            widths.insert(i, w);
        }
        let mut k = 0;
        while k < count {
            if row.kept.binary_search(&k).is_err() {
                let w = self.widths(id, k, depth, budget);
                if least.saturating_add(w.0) > budget {
                    break;
                }
                least = least.saturating_add(w.0);
                widths.insert(k, w);
            }
            k += 1;
        }
        if row.pre.len() <= k {
            row = self.row(id, k);
        }
        // Children left out need elision cards: give back the last ones drawn (never a kept
        // one) until the cards fit too.
        while k > 0 && least.saturating_add(row.reserve(k, count)) > budget {
            k -= 1;
            if row.kept.binary_search(&k).is_err() {
                least -= widths.remove(&k).map_or(0, |w| w.0);
            }
        }
        let mut fit = Fit {
            parts: Vec::new(),
            naturals: Vec::new(),
            mins: Vec::new(),
            reserve: row.reserve(k, count),
        };
        let mut runs = row.runs(k, count);
        let child = |fit: &mut Fit, i: usize| {
            let (min, natural) = widths[&i];
            fit.parts.push(Part::Child(i));
            fit.mins.push(min);
            fit.naturals.push(natural);
        };
        for i in 0..k {
            child(&mut fit, i);
        }
        let mut start = k;
        for &p in row.kept.iter().filter(|&&p| p >= k) {
            if p > start {
                fit.parts
                    .push(Part::Elided(runs.next().expect("a run before")));
            }
            child(&mut fit, p);
            start = p + 1;
        }
        if start < count {
            fit.parts
                .push(Part::Elided(runs.next().expect("the last run")));
        }
        fit
    }

    /// The least and natural widths of `id`'s child `i`, measured as far as `budget`.
    fn widths(&mut self, id: NodeId, i: usize, depth: usize, budget: usize) -> (usize, usize) {
        let k = self.tree.child(id, i);
        let natural = self.natural(k, depth + 1, budget);
        (self.least(k, depth + 1).min(natural), natural)
    }

    /// Adds an elision card for `n` nodes under `parent`, in at most `budget` columns.
    fn elide(
        &mut self,
        n: u32,
        depth: usize,
        budget: usize,
        parent: usize,
        current: bool,
    ) -> usize {
        let card = Card::elision(n, budget.saturating_sub(GAP), current);
        let c = self.push(card, depth, Some(parent));
        self.settle(c);
        c
    }

    /// With the children placed: the subtree's width, the children's places, the card's middle.
    fn settle(&mut self, me: usize) {
        let kids = self.out[me].children.clone();
        let own = self.out[me].width;
        let cw = own - GAP;
        let span: usize = kids.iter().map(|&c| self.out[c].width).sum();
        let shift = own.saturating_sub(span) / 2;
        let mut x = shift;
        for &c in &kids {
            self.out[c].rel_left = x;
            x += self.out[c].width;
        }
        let width = own.max(span);
        let center = match (kids.first(), kids.last()) {
            (Some(&a), Some(&z)) => {
                let ca = self.out[a].rel_left + self.out[a].center;
                let cz = self.out[z].rel_left + self.out[z].center;
                (ca + cz) / 2
            }
            _ => cw / 2,
        };
        let center = center.clamp(cw / 2, (width - GAP).saturating_sub(cw - cw / 2));
        let item = &mut self.out[me];
        item.width = width;
        item.center = center;
        if let Some(p) = item.parent {
            self.out[p].children.push(me);
        }
    }

    fn finish(self) -> Picture {
        let mut lefts = vec![0usize; self.out.len()];
        for i in 0..self.out.len() {
            for &c in &self.out[i].children {
                lefts[c] = lefts[i] + self.out[c].rel_left;
            }
        }
        let mut level_lines = Vec::new();
        let mut width = 0;
        let placed: Vec<Placed> = self
            .out
            .into_iter()
            .zip(lefts)
            .map(|(it, left)| {
                let center = left + it.center;
                let cw = it.card.width();
                if level_lines.len() <= it.depth {
                    level_lines.resize(it.depth + 1, 0);
                }
                level_lines[it.depth] = level_lines[it.depth].max(it.card.height());
                width = width.max(center - cw / 2 + cw);
                Placed {
                    left: center - cw / 2,
                    card: it.card,
                    depth: it.depth,
                    center,
                    parent: it.parent,
                    children: it.children,
                    pv: false,
                }
            })
            .collect();
        Picture {
            placed,
            width,
            level_lines,
        }
    }
}

/// Shares `budget` among children that need at least `mins` and at most `wants`: each gets its
/// minimum, then the rest is shared out equally among those that want more, until none does
/// or nothing is left.
pub fn water_fill(mins: &[usize], wants: &[usize], budget: usize) -> Vec<usize> {
    let mut alloc = mins.to_vec();
    let mut left = budget.saturating_sub(mins.iter().fold(0usize, |s, &m| s.saturating_add(m)));
    loop {
        let needy: Vec<usize> = (0..alloc.len()).filter(|&i| alloc[i] < wants[i]).collect();
        if needy.is_empty() || left == 0 {
            return alloc;
        }
        let share = (left / needy.len()).max(1);
        for i in needy {
            let give = share.min(wants[i] - alloc[i]).min(left);
            alloc[i] += give;
            left -= give;
            if left == 0 {
                break;
            }
        }
    }
}
