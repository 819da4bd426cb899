//! The preorder form of a tree, validated and then laid out as an arena.
//!
//! Loaders read nodes in preorder (a node, then its children's subtrees in order); they push one
//! [`DraftNode`] each, with its number of children. [`Draft::validate`] reports the first problem
//! as the preorder index of the offending node, which the loader turns into a file position.

use super::{Bounds, Columns, Kind, Labels, MAX_NODES, Meta, NO_PARENT, Positions, Tree};
use crate::text::number_text;

/// Probabilities of a chance node may be off by this much in total (decimal input such as
/// `0.333333` three times, or ten probabilities rounded to six places); they are then rescaled to
/// sum to 1.
pub const PROB_TOLERANCE: f64 = 1e-5;

/// One node in preorder.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftNode {
    pub kind: Kind,
    /// Value of a two-player leaf.
    pub value: f64,
    /// Payoff vector of an n-player leaf (empty otherwise).
    pub payoff: Vec<f64>,
    /// Probability of the edge from the parent, when written (chance children only).
    pub prob: Option<f64>,
    pub label: Option<String>,
    /// Static evaluation of the position (interior nodes of two-player trees).
    pub heuristic: Option<f64>,
    /// Position key: equal positions have equal keys.
    pub key: Option<u64>,
    /// Number of children that follow in preorder.
    pub children: u32,
}

impl DraftNode {
    pub fn leaf(value: f64) -> Self {
        DraftNode {
            kind: Kind::Leaf,
            value,
            payoff: Vec::new(),
            prob: None,
            label: None,
            heuristic: None,
            key: None,
            children: 0,
        }
    }

    pub fn payoff(payoff: Vec<f64>) -> Self {
        DraftNode {
            payoff,
            ..Self::leaf(0.0)
        }
    }

    pub fn interior(kind: Kind, children: u32) -> Self {
        DraftNode {
            kind,
            children,
            ..Self::leaf(0.0)
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn with_prob(mut self, p: f64) -> Self {
        self.prob = Some(p);
        self
    }

    pub fn with_key(mut self, key: u64) -> Self {
        self.key = Some(key);
        self
    }

    pub fn with_heuristic(mut self, h: f64) -> Self {
        self.heuristic = Some(h);
        self
    }
}

/// A semantic problem at a node, given by its preorder index.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub node: usize,
    pub message: String,
    pub hint: Option<String>,
}

fn invalid(node: usize, message: impl Into<String>, hint: Option<&str>) -> Invalid {
    Invalid {
        node,
        message: message.into(),
        hint: hint.map(str::to_owned),
    }
}

/// A tree in preorder, not yet validated. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    pub meta: Meta,
    pub nodes: Vec<DraftNode>,
}

impl Draft {
    pub fn new(meta: Meta) -> Self {
        Draft {
            meta,
            nodes: Vec::new(),
        }
    }

    pub fn with_capacity(meta: Meta, n: usize) -> Self {
        Draft {
            meta,
            nodes: Vec::with_capacity(n),
        }
    }

    pub fn push(&mut self, node: DraftNode) {
        self.nodes.push(node);
    }

    /// Whether the draft is an n-player tree: any `Player` node or payoff vector makes it one.
    pub fn is_multiplayer(&self) -> bool {
        self.meta.players > 2
            || self
                .nodes
                .iter()
                .any(|n| matches!(n.kind, Kind::Player(_)) || !n.payoff.is_empty())
    }

    /// Checks everything a tree must satisfy, fixing up what is only a matter of representation:
    /// the number of players of an n-player tree when not declared, uniform flags, and chance
    /// probabilities within [`PROB_TOLERANCE`] of summing to 1 (rescaled exactly to 1).
    pub fn validate(&mut self) -> Result<(), Invalid> {
        let multiplayer = self.is_multiplayer();
        self.check_meta(multiplayer)?;
        self.check_shape()?;
        let players = usize::from(self.meta.players);
        self.check_stray_player(multiplayer)?;
        for (i, n) in self.nodes.iter().enumerate() {
            match n.kind {
                Kind::Max | Kind::Min if multiplayer => {
                    return Err(invalid(
                        i,
                        format!("a {} node in an n-player tree", n.kind.name()),
                        Some(
                            "n-player trees use `Player(i, [...])` nodes; Max/Min belong to two-player trees",
                        ),
                    ));
                }
                Kind::Player(p) if !multiplayer => {
                    return Err(invalid(
                        i,
                        format!("a player {} node in a two-player tree", p + 1),
                        None,
                    ));
                }
                Kind::Player(p) if usize::from(p) >= players => {
                    return Err(invalid(
                        i,
                        format!(
                            "player {} does not exist: the tree has {players} players",
                            p + 1
                        ),
                        Some("players are numbered from 1"),
                    ));
                }
                Kind::Leaf if n.heuristic.is_some() => {
                    return Err(invalid(
                        i,
                        "a heuristic value on a leaf",
                        Some(
                            "heuristic values belong to interior nodes; a leaf's value is its own",
                        ),
                    ));
                }
                Kind::Leaf => self.check_leaf(i, n, multiplayer)?,
                _ if n.heuristic.is_some_and(|h| !h.is_finite()) => {
                    return Err(invalid(
                        i,
                        format!(
                            "heuristic value {} is not a finite number",
                            number_text(n.heuristic.unwrap_or(0.0))
                        ),
                        None,
                    ));
                }
                _ if n.children == 0 => {
                    let what = if n.kind == Kind::Chance {
                        "a chance node"
                    } else {
                        "an interior node"
                    };
                    return Err(invalid(
                        i,
                        format!("{what} with no children"),
                        Some("give it at least one child, or make it a leaf with a value"),
                    ));
                }
                _ => {}
            }
        }
        self.check_probabilities()
    }

    /// A `Player` node among Max/Min nodes and plain-number leaves is the mistake, not the Max
    /// nodes around it: only `Player` nodes made the tree n-player.
    fn check_stray_player(&self, multiplayer: bool) -> Result<(), Invalid> {
        if !multiplayer
            || self.meta.players > 2
            || self.nodes.iter().any(|n| !n.payoff.is_empty())
            || !self
                .nodes
                .iter()
                .any(|n| matches!(n.kind, Kind::Max | Kind::Min))
        {
            return Ok(());
        }
        match self
            .nodes
            .iter()
            .position(|n| matches!(n.kind, Kind::Player(_)))
        {
            Some(i) => {
                let Kind::Player(p) = self.nodes[i].kind else {
                    unreachable!("found a player node")
                };
                Err(invalid(
                    i,
                    format!(
                        "a player {} node in a two-player tree of Max/Min nodes and single values",
                        p + 1
                    ),
                    Some(
                        "use Max or Min here; Player(i, [...]) nodes belong to n-player trees, whose leaves are payoff vectors",
                    ),
                ))
            }
            None => Ok(()),
        }
    }

    fn check_meta(&mut self, multiplayer: bool) -> Result<(), Invalid> {
        if let Some(Bounds { lo, hi }) = self.meta.bounds {
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(invalid(
                    0,
                    format!(
                        "bounds {}..{} are not a finite range L <= U",
                        number_text(lo),
                        number_text(hi)
                    ),
                    None,
                ));
            }
        }
        if multiplayer {
            let width = self
                .nodes
                .iter()
                .find(|n| !n.payoff.is_empty())
                .map(|n| n.payoff.len());
            match (self.meta.players, width) {
                (0, Some(w)) => self.meta.players = u8::try_from(w).unwrap_or(u8::MAX),
                (0, None) => self.meta.players = 2,
                _ => {}
            }
            if self.meta.players < 2 {
                // Blame the first one-value payoff vector when there is one, not the root.
                let (at, what) = match self.nodes.iter().position(|n| n.payoff.len() == 1) {
                    Some(i) => (i, "a payoff vector of 1 value"),
                    None => (0, "a tree of 1 player"),
                };
                return Err(invalid(
                    at,
                    format!("{what}: an n-player tree needs at least 2 players"),
                    Some(
                        "give each leaf one payoff per player, such as (3, 1); a two-player zero-sum leaf is a plain number",
                    ),
                ));
            }
        } else if self.meta.players == 0 {
            self.meta.players = 2;
        } else if self.meta.players != 2 {
            return Err(invalid(
                0,
                format!(
                    "the tree declares {} players but has no payoff vectors",
                    self.meta.players
                ),
                Some("leaves of an n-player tree are payoff vectors such as (3, 1, 8)"),
            ));
        }
        Ok(())
    }

    /// The child counts must describe exactly one tree.
    fn check_shape(&self) -> Result<(), Invalid> {
        if self.nodes.is_empty() {
            return Err(invalid(
                0,
                "the tree has no nodes",
                Some("a tree needs at least a root"),
            ));
        }
        if self.nodes.len() > MAX_NODES {
            return Err(invalid(
                MAX_NODES,
                format!("more than {MAX_NODES} nodes"),
                None,
            ));
        }
        let mut open: u64 = 1; // nodes still expected
        for (i, n) in self.nodes.iter().enumerate() {
            if open == 0 {
                return Err(invalid(i, "node after the end of the tree", None));
            }
            open = open - 1 + u64::from(n.children);
        }
        if open != 0 {
            return Err(invalid(
                self.nodes.len() - 1,
                format!("{open} children missing at the end of the tree"),
                None,
            ));
        }
        Ok(())
    }

    fn check_leaf(&self, i: usize, n: &DraftNode, multiplayer: bool) -> Result<(), Invalid> {
        if !multiplayer {
            if !n.value.is_finite() {
                return Err(invalid(
                    i,
                    format!("leaf value {} is not a finite number", number_text(n.value)),
                    None,
                ));
            }
            if let Some(b) = self.meta.bounds {
                if n.value < b.lo || n.value > b.hi {
                    return Err(invalid(
                        i,
                        format!(
                            "leaf value {} is outside the declared bounds {}..{}",
                            number_text(n.value),
                            number_text(b.lo),
                            number_text(b.hi)
                        ),
                        Some("widen `bounds`, or fix the value"),
                    ));
                }
            }
            return Ok(());
        }
        let players = usize::from(self.meta.players);
        if n.payoff.len() != players {
            return Err(invalid(
                i,
                format!(
                    "payoff vector of {} values in a {players}-player tree",
                    n.payoff.len()
                ),
                Some("every leaf of an n-player tree has one payoff per player"),
            ));
        }
        if let Some(x) = n.payoff.iter().find(|x| !x.is_finite()) {
            return Err(invalid(
                i,
                format!("payoff {} is not a finite number", number_text(*x)),
                None,
            ));
        }
        if let Some(floor) = self.meta.payoff_floor {
            if let Some(x) = n.payoff.iter().find(|&&x| x < floor) {
                return Err(invalid(
                    i,
                    format!(
                        "payoff {} is below the declared floor {}",
                        number_text(*x),
                        number_text(floor)
                    ),
                    None,
                ));
            }
        }
        if let Some(max) = self.meta.payoff_sum {
            let sum: f64 = n.payoff.iter().sum();
            if sum > max + 1e-9 * max.abs().max(1.0) {
                return Err(invalid(
                    i,
                    format!(
                        "payoffs sum to {}, above the declared maximum sum {}",
                        number_text(sum),
                        number_text(max)
                    ),
                    None,
                ));
            }
        }
        Ok(())
    }

    /// Probabilities: only under chance nodes, all or none of a node's children, each in (0, 1],
    /// summing to 1.
    fn check_probabilities(&mut self) -> Result<(), Invalid> {
        let mut stack: Vec<(usize, u32)> = Vec::new(); // (parent preorder index, children left)
        let mut kids: Vec<usize> = Vec::new();
        for i in 0..self.nodes.len() {
            let parent = stack.last().map(|&(p, _)| p);
            let parent_is_chance = parent.is_some_and(|p| self.nodes[p].kind == Kind::Chance);
            if let Some(p) = self.nodes[i].prob {
                if !parent_is_chance {
                    return Err(invalid(
                        i,
                        "a probability on a node whose parent is not a chance node",
                        Some("only the children of a chance node carry probabilities"),
                    ));
                }
                if !(p.is_finite() && p > 0.0 && p <= 1.0) {
                    return Err(invalid(
                        i,
                        format!("probability {} is not in (0, 1]", number_text(p)),
                        Some("write probabilities as decimals like 0.25 or fractions like \"1/3\""),
                    ));
                }
            }
            if let Some(top) = stack.last_mut() {
                top.1 -= 1;
            }
            if self.nodes[i].children > 0 {
                stack.push((i, self.nodes[i].children));
            }
            while stack.last().is_some_and(|&(_, left)| left == 0) {
                stack.pop();
            }
        }
        // Second pass per chance node: gather its children's preorder indices via subtree sizes
        // (nothing to check or rescale when no node has a probability).
        if self.nodes.iter().all(|n| n.prob.is_none()) {
            return Ok(());
        }
        let sizes = self.subtree_sizes();
        for i in 0..self.nodes.len() {
            if self.nodes[i].kind != Kind::Chance {
                continue;
            }
            kids.clear();
            let mut c = i + 1;
            for _ in 0..self.nodes[i].children {
                kids.push(c);
                c += sizes[c] as usize;
            }
            let given = kids
                .iter()
                .filter(|&&k| self.nodes[k].prob.is_some())
                .count();
            if given == 0 {
                continue;
            }
            if given != kids.len() {
                let missing = kids
                    .iter()
                    .copied()
                    .find(|&k| self.nodes[k].prob.is_none())
                    .unwrap_or(i);
                return Err(invalid(
                    missing,
                    "some children of this chance node have a probability and this one has none",
                    Some(
                        "give every child of a chance node a probability, or none to make them equally likely",
                    ),
                ));
            }
            let sum: f64 = kids
                .iter()
                .map(|&k| self.nodes[k].prob.unwrap_or(0.0))
                .sum();
            if (sum - 1.0).abs() > PROB_TOLERANCE {
                return Err(invalid(
                    i,
                    format!(
                        "the probabilities of this chance node sum to {}, not 1",
                        number_text(sum)
                    ),
                    Some("fractions like \"1/3\" are exact"),
                ));
            }
            if (sum - 1.0).abs() > 1e-12 {
                for &k in &kids {
                    self.nodes[k].prob = self.nodes[k].prob.map(|p| p / sum);
                }
            }
        }
        Ok(())
    }

    /// Subtree size of every preorder entry (assumes `check_shape` passed).
    fn subtree_sizes(&self) -> Vec<u32> {
        let parents = self.parents();
        let mut size = vec![1u32; self.nodes.len()];
        for i in (1..self.nodes.len()).rev() {
            size[parents[i] as usize] += size[i];
        }
        size
    }

    /// Preorder index of every entry's parent (`NO_PARENT` for the root).
    fn parents(&self) -> Vec<u32> {
        let mut parents = vec![NO_PARENT; self.nodes.len()];
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(top) = stack.last_mut() {
                parents[i] = top.0;
                top.1 -= 1;
            }
            if n.children > 0 {
                stack.push((i as u32, n.children));
            }
            while stack.last().is_some_and(|&(_, left)| left == 0) {
                stack.pop();
            }
        }
        parents
    }

    /// Validates, then lays the tree out in breadth-first order — the one layout every tree has,
    /// so two equal trees have equal arenas and node ids mean the same thing everywhere: `#0` is
    /// the root, its children follow, then the grandchildren, level by level.
    pub fn finish(mut self) -> Result<Tree, Invalid> {
        self.validate()?;
        let multiplayer = self.is_multiplayer();
        let n = self.nodes.len();
        let sizes = self.subtree_sizes();
        // order[arena id] = preorder index; a node's children are enqueued together.
        let mut order: Vec<u32> = Vec::with_capacity(n);
        order.push(0);
        let mut nodes = Columns::with_capacity(n);
        let mut head = 0;
        while head < order.len() {
            let p = order[head] as usize;
            let d = &self.nodes[p];
            let first = order.len() as u32;
            let mut c = p + 1;
            for _ in 0..d.children {
                order.push(c as u32);
                c += sizes[c] as usize;
            }
            nodes.kind.push(d.kind);
            nodes
                .first
                .push(if d.kind == Kind::Leaf { 0 } else { first });
            nodes.len.push(d.children);
            nodes.value.push(d.value);
            head += 1;
        }
        nodes.parent = vec![NO_PARENT; n];
        nodes.prob = vec![1.0; n];
        nodes.uniform = vec![false; n];
        let mut payoffs = Vec::new();
        let players = usize::from(self.meta.players);
        for id in 0..n {
            let (kind, first, len) = (
                nodes.kind[id],
                nodes.first[id] as usize,
                nodes.len[id] as usize,
            );
            if kind == Kind::Leaf {
                if multiplayer {
                    nodes.first[id] = (payoffs.len() / players) as u32;
                    payoffs.extend_from_slice(&self.nodes[order[id] as usize].payoff);
                }
                continue;
            }
            let given = |c: usize| self.nodes[order[c] as usize].prob;
            let equal = (first..first + len).all(|c| given(c) == given(first));
            for k in 0..len {
                nodes.parent[first + k] = id as u32;
                nodes.prob[first + k] = match (kind, given(first + k)) {
                    (Kind::Chance, Some(pr)) if !equal => pr,
                    (Kind::Chance, _) => 1.0 / len as f64,
                    _ => 1.0,
                };
            }
            nodes.uniform[id] = kind == Kind::Chance && equal;
        }
        let labels = if self.nodes.iter().any(|d| d.label.is_some()) {
            let mut l = Labels {
                starts: Vec::with_capacity(n + 1),
                text: String::new(),
            };
            for &p in &order {
                l.starts.push(l.text.len() as u32);
                if let Some(s) = &self.nodes[p as usize].label {
                    l.text.push_str(s);
                }
            }
            l.starts.push(l.text.len() as u32);
            l
        } else {
            Labels::default()
        };
        let positions = if self
            .nodes
            .iter()
            .any(|d| d.key.is_some() || d.heuristic.is_some())
        {
            Positions::new(
                order.iter().map(|&p| self.nodes[p as usize].key).collect(),
                order
                    .iter()
                    .map(|&p| self.nodes[p as usize].heuristic)
                    .collect(),
            )
        } else {
            Positions::default()
        };
        Ok(Tree {
            nodes,
            payoffs,
            labels,
            positions,
            meta: self.meta,
            multiplayer,
            height: 0,
            integral: false,
            leaves: 0,
            chance: false,
            fractions: Default::default(),
        }
        .sealed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_player() -> Meta {
        Meta {
            players: 2,
            ..Meta::default()
        }
    }

    fn chance(probs: &[Option<f64>]) -> Draft {
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Chance, probs.len() as u32));
        for (i, p) in probs.iter().enumerate() {
            let mut leaf = DraftNode::leaf(i as f64);
            leaf.prob = *p;
            d.push(leaf);
        }
        d
    }

    #[test]
    fn uniform_chance_gets_exact_one_over_n() {
        let t = chance(&[None, None, None]).finish().unwrap();
        assert!(t.is_uniform(t.root()));
        assert_eq!(t.prob(t.child(t.root(), 2)), 1.0 / 3.0);
        let t = chance(&[Some(0.333333), Some(0.333333), Some(0.333333)])
            .finish()
            .unwrap();
        assert!(t.is_uniform(t.root()), "equal probabilities are uniform");
    }

    #[test]
    fn uneven_probabilities_are_rescaled_within_tolerance() {
        let t = chance(&[Some(0.2), Some(0.3), Some(0.4999999)])
            .finish()
            .unwrap();
        assert!(!t.is_uniform(t.root()));
        let sum: f64 = t.children(t.root()).map(|c| t.prob(c)).sum();
        assert!((sum - 1.0).abs() < 1e-15);
    }

    #[test]
    fn bad_probabilities_name_the_node() {
        let e = chance(&[Some(0.5), Some(0.4)]).finish().unwrap_err();
        assert_eq!(e.node, 0);
        assert!(e.message.contains("sum to 0.9"), "{}", e.message);
        let e = chance(&[Some(0.5), None]).finish().unwrap_err();
        assert_eq!(e.node, 2);
        let e = chance(&[Some(-0.5), Some(1.5)]).finish().unwrap_err();
        assert_eq!(e.node, 1);
        let e = chance(&[Some(f64::NAN), Some(1.0)]).finish().unwrap_err();
        assert!(e.message.contains("NaN"), "{}", e.message);
    }

    #[test]
    fn probability_under_max_is_rejected() {
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Max, 1));
        d.push(DraftNode::leaf(1.0).with_prob(1.0));
        assert_eq!(d.finish().unwrap_err().node, 1);
    }

    #[test]
    fn leaf_checks() {
        let mut d = Draft::new(Meta {
            bounds: Some(Bounds { lo: 0.0, hi: 10.0 }),
            ..two_player()
        });
        d.push(DraftNode::interior(Kind::Min, 2));
        d.push(DraftNode::leaf(3.0));
        d.push(DraftNode::leaf(11.0));
        let e = d.finish().unwrap_err();
        assert_eq!(e.node, 2);
        assert!(e.message.contains("outside the declared bounds"));
        let mut d = Draft::new(two_player());
        d.push(DraftNode::leaf(f64::INFINITY));
        assert!(d.finish().unwrap_err().message.contains("not a finite"));
    }

    #[test]
    fn shape_checks() {
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Chance, 0));
        assert!(
            d.finish()
                .unwrap_err()
                .message
                .contains("chance node with no children")
        );
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Max, 2));
        d.push(DraftNode::leaf(1.0));
        assert!(d.finish().unwrap_err().message.contains("missing"));
        assert!(Draft::new(two_player()).finish().is_err());
    }

    #[test]
    fn multiplayer_checks() {
        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Player(0), 2));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        d.push(DraftNode::payoff(vec![1.0, 2.0]));
        let e = d.finish().unwrap_err();
        assert_eq!(e.node, 2);
        assert!(e.message.contains("2 values in a 3-player tree"));

        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Player(3), 1));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        assert!(
            d.finish()
                .unwrap_err()
                .message
                .contains("player 4 does not exist")
        );

        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Max, 1));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        assert!(
            d.finish()
                .unwrap_err()
                .message
                .contains("max node in an n-player tree")
        );

        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Player(1), 2));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        d.push(DraftNode::payoff(vec![0.0, 0.0, 6.0]));
        let t = d.finish().unwrap();
        assert_eq!(t.players(), 3);
        assert_eq!(t.payoff(t.child(t.root(), 1)), &[0.0, 0.0, 6.0]);
        assert_eq!(t.payoff_limits(), Some((0.0, 6.0, false)));
    }
}
