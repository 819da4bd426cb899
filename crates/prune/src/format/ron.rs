//! prune's native format: a tree written in RON (Rusty Object Notation).
//!
//! ```ron
//! // Knuth & Moore's three-by-three example.
//! (
//!     version: 1,
//!     name: "three by three",
//!     bounds: (0, 20),
//!     root: Max([
//!         Min("a", [3, 12, 8]),
//!         Min("b", [2, 4, 6]),
//!         Min("c", [14, 5, 2]),
//!     ]),
//! )
//! ```
//!
//! Leaves are bare numbers (`3`), payoff tuples in n-player trees (`(3, 1, 8)`), or
//! `Leaf("label", 3)`. Interior nodes are `Max`, `Min`, `Chance` and `Player(i, …)`, with an
//! optional label before the child list. A chance node's children are equally likely unless
//! each is wrapped as `Prob(0.25, node)` or `Prob("1/3", node)`. The full grammar is in
//! `docs/FORMAT.md`.
//!
//! Every file this module writes is valid RON (a test reads them back with the `ron` crate). It
//! is read by its own parser rather than through serde because a tree file's errors must point
//! at the node at fault — "these probabilities sum to 0.9" at the chance node's line and column —
//! and serde's data model gives no positions after parsing; the parser is also a loop over an
//! explicit stack, so nesting depth is limited only by memory.

use std::fmt::Write as _;
use std::ops::Range;

use super::diag::Diagnostic;
use super::lex::{
    Lexer, Tok, Token, did_you_mean, plain_integer, plain_number, plain_string, skip_blanks,
};
use super::text::RELEASE_EVERY;
use super::{Format, ROOM_MIN, Text, invalid_to_diagnostic, node_estimate, number_text};
use crate::text::push_number;
use crate::tree::{Bounds, Draft, DraftNode, Kind, NodeId, Room, Tree};

/// The format version this build reads and writes.
pub const VERSION: u64 = 1;

const FIELDS: &[&str] = &[
    "version",
    "name",
    "description",
    "source",
    "players",
    "bounds",
    "payoff_floor",
    "payoff_sum",
    "root",
];
/// The optional facts of a node, written `(key: 1234, heuristic: 0.5)` after its value or
/// children.
const NODE_FIELDS: &[&str] = &["key", "heuristic"];
const NODE_KINDS: &[&str] = &["Max", "Min", "Chance", "Player", "Leaf", "Prob"];

/// Reads a tree from RON text. `file` names the input in messages.
pub fn parse(file: &str, src: Text) -> Result<Tree, Diagnostic> {
    // Room for every node up front: growing by doubling would copy the draft several times.
    let nodes = node_estimate(&src, Format::Ron) as usize;
    // Node positions only serve the message of a semantic error: they are not kept, and the
    // text is read again for them when there is one.
    let mut p = Parser::new(file, src.clone(), nodes, false);
    let room = (nodes >= ROOM_MIN).then(|| Room::prepare(&p.draft, nodes));
    p.file()?;
    let Parser { lx, draft, .. } = p;
    match draft.validated() {
        Ok(valid) => {
            // Free the text before the arena grows.
            drop((lx, src));
            Ok(match room {
                Some(room) => valid.layout_in(room),
                None => valid.layout(),
            })
        }
        Err(e) => {
            drop((lx, room));
            let mut p = Parser::new(file, src, nodes, true);
            p.file()?;
            Err(invalid_to_diagnostic(&p.lx, &p.spans, e))
        }
    }
}

struct Parser<'a> {
    lx: Lexer<'a>,
    draft: Draft,
    /// Whether to keep the spans.
    keep_spans: bool,
    /// Source span of every draft node, for semantic errors (when kept).
    spans: Vec<Range<usize>>,
}

/// An interior node whose children are being read.
struct Frame {
    index: usize,
    children: u32,
    /// The node was written as `Prob(p, node)`: one more `)` closes it.
    wrapped: bool,
}

impl<'a> Parser<'a> {
    fn new(file: &'a str, src: Text, nodes: usize, keep_spans: bool) -> Self {
        let mut draft = Draft::with_capacity(Default::default(), nodes);
        draft.expect_label_text(src.len());
        Parser {
            lx: Lexer::new(file, src, true),
            draft,
            keep_spans,
            spans: Vec::with_capacity(if keep_spans { nodes } else { 0 }),
        }
    }

    fn file(&mut self) -> Result<(), Diagnostic> {
        let first = self.lx.peek()?.clone();
        if first.tok == Tok::Eof {
            return Err(self
                .lx
                .error(first.span, "the file is empty")
                .with_hint("a tree file looks like `(version: 1, root: Max([1, 2]))`"));
        }
        if first.tok == Tok::Ident && self.lx.text(&first) == "Tree" {
            self.lx.next_token()?;
        }
        let open = self.lx.next_token()?;
        if open.tok != Tok::Punct('(') {
            return Err(self
                .lx
                .unexpected(&open, "`(` to start the tree")
                .with_hint("a tree file looks like `(version: 1, root: Max([1, 2]))`"));
        }
        // Each field given: its canonical name, and where it was written as what.
        let mut seen: Vec<(&str, Token)> = Vec::new();
        let given = |seen: &[(&str, Token)], name: &str| seen.iter().any(|(f, _)| *f == name);
        loop {
            let t = self.lx.next_token()?;
            match t.tok {
                Tok::Punct(')') => {
                    if !given(&seen, "root") {
                        return Err(self
                            .lx
                            .error(t.span, "missing field `root`")
                            .with_hint("add `root: Max([...])`"));
                    }
                    break;
                }
                Tok::Ident => {}
                _ => return Err(self.lx.unexpected(&t, "a field name or `)`")),
            }
            let name = self.lx.text(&t).to_owned();
            let Some(&field) = FIELDS.iter().find(|&&f| f == name) else {
                let mut e = self
                    .lx
                    .error(t.span.clone(), format!("unknown field `{name}`"));
                e = match did_you_mean(&name, FIELDS) {
                    Some(s) => e.with_hint(format!("did you mean `{s}`?")),
                    None => e.with_hint(format!("the fields are {}", FIELDS.join(", "))),
                };
                return Err(e);
            };
            let canonical = if field == "source" {
                "description"
            } else {
                field
            };
            if let Some((_, first)) = seen.iter().find(|(f, _)| *f == canonical) {
                let (line, col) = super::diag::line_col(&self.lx.src, first.span.start);
                let before = self.lx.text(first);
                let message = if before == name {
                    format!("field `{name}` appears twice")
                } else {
                    format!(
                        "field `{name}` gives `{before}` again: `source` is another name for `description`"
                    )
                };
                return Err(self.lx.error(t.span, message).with_hint(format!(
                    "`{before}` is given at line {line}, column {col}; keep one"
                )));
            }
            seen.push((canonical, t.clone()));
            self.lx.expect(':', &format!("after `{field}`"))?;
            match canonical {
                "version" => {
                    let v = self.lx.next_token()?;
                    let n = self.lx.integer(&v, "a version number")?;
                    if n != VERSION {
                        return Err(self
                            .lx
                            .error(v.span, format!("unsupported version {n}"))
                            .with_hint(format!("this prune reads version {VERSION}")));
                    }
                }
                "name" => self.draft.meta.name = self.string("the tree's name")?,
                "description" => self.draft.meta.description = self.string("a description")?,
                "players" => {
                    let v = self.lx.next_token()?;
                    let n = self.lx.integer(&v, "a number of players")?;
                    if !(2..=255).contains(&n) {
                        return Err(self
                            .lx
                            .error(v.span, format!("{n} players: prune handles 2 to 255")));
                    }
                    self.draft.meta.players = n as u8;
                }
                "bounds" => {
                    let start = self.lx.expect('(', "to open `bounds: (L, U)`")?.span.start;
                    let (lo, _) = self.lx.expect_number("the lower bound L")?;
                    self.lx.expect(',', "between the bounds")?;
                    let (hi, _) = self.lx.expect_number("the upper bound U")?;
                    self.lx.eat(',')?;
                    let end = self.lx.expect(')', "to close `bounds: (L, U)`")?.span.end;
                    if lo > hi {
                        return Err(self
                            .lx
                            .error(start..end, format!("bounds ({lo}, {hi}) have L > U")));
                    }
                    self.draft.meta.bounds = Some(Bounds { lo, hi });
                }
                "payoff_floor" => {
                    self.draft.meta.payoff_floor = Some(self.lx.expect_number("a payoff floor")?.0)
                }
                "payoff_sum" => {
                    self.draft.meta.payoff_sum =
                        Some(self.lx.expect_number("a maximum payoff sum")?.0)
                }
                "root" => self.tree()?,
                _ => unreachable!("every field is handled"),
            }
            let sep = self.lx.next_token()?;
            match sep.tok {
                Tok::Punct(',') => {}
                Tok::Punct(')') => {
                    if !given(&seen, "root") {
                        return Err(self
                            .lx
                            .error(sep.span, "missing field `root`")
                            .with_hint("add `root: Max([...])`"));
                    }
                    break;
                }
                _ => return Err(self.lx.unexpected(&sep, "`,` or `)` after a field")),
            }
        }
        let end = self.lx.next_token()?;
        if end.tok != Tok::Eof {
            return Err(self
                .lx
                .unexpected(&end, "the end of the file after the tree"));
        }
        Ok(())
    }

    fn string(&mut self, what: &str) -> Result<String, Diagnostic> {
        let t = self.lx.next_token()?;
        if t.tok != Tok::Str {
            return Err(self.lx.unexpected(&t, &format!("a string for {what}")));
        }
        self.lx.string(&t)
    }

    /// Reads the root node and everything below it, iteratively.
    fn tree(&mut self) -> Result<(), Diagnostic> {
        let mut stack: Vec<Frame> = Vec::new();
        if let Some(frame) = self.node_start()? {
            stack.push(frame);
        } else {
            return Ok(());
        }
        let src = self.lx.src.clone();
        let b = src.as_bytes();
        // A payoff tuple being read by `fast_node`.
        let mut payoff: Vec<f64> = Vec::new();
        // The text behind is given back as the parser goes: a big load's peak is then its draft
        // and arena (faulted in meanwhile: `Room`), not those and the text.
        let mut release_at = RELEASE_EVERY;
        while !stack.is_empty() {
            // Most nodes read straight from the bytes (see `fast_node`), and so does `])`
            // closing a node. Anything else is left to the general way below, from the same
            // place.
            if let Some(at) = self.lx.offset() {
                let p = skip_blanks(b, at);
                if p >= release_at {
                    src.release_before(p);
                    release_at = p + RELEASE_EVERY;
                }
                let top = stack.len() - 1;
                // The commonest node, a plain integer, first and without a `Node`.
                if let Some((value, end)) = plain_integer(b, p) {
                    self.count_child(&mut stack[top], p..end)?;
                    self.draft.push_leaf(value);
                    if self.keep_spans {
                        self.spans.push(p..end);
                    }
                    self.lx.advance_to(end);
                    self.fast_after_child(b)?;
                    continue;
                }
                payoff.clear();
                if let Some(node) = fast_node(&src, p, &mut payoff) {
                    self.count_child(&mut stack[top], node.span.clone())?;
                    let index = self.draft.len();
                    match node.head {
                        Head::Leaf(value) => self.draft.push_leaf(value),
                        Head::Payoff => self.draft.push_payoff(&payoff),
                        Head::Interior(kind) => self.draft.push_interior(kind),
                    }
                    if let Some(p) = node.prob {
                        self.draft.prob_last(p);
                    }
                    if let Some(label) = node.label {
                        self.draft.label_last(super::lex::slice(&src, label));
                    }
                    if self.keep_spans {
                        self.spans.push(node.span);
                    }
                    self.set_positions(index, &node.positions);
                    self.lx.advance_to(node.positions.end);
                    if let Head::Interior(_) = node.head {
                        stack.push(Frame {
                            index,
                            children: 0,
                            wrapped: node.prob.is_some(),
                        });
                    } else {
                        self.fast_after_child(b)?;
                    }
                    continue;
                }
                if b.get(p) == Some(&b']')
                    && let Some(end) = node_end(b, p + 1)
                {
                    self.lx.advance_to(end.end);
                    self.set_positions(stack[top].index, &end);
                    if self.close_node(&mut stack)? {
                        return Ok(());
                    }
                    self.fast_after_child(b)?;
                    continue;
                }
                self.lx.advance_to(p);
            }
            let top = stack.last_mut().expect("non-empty");
            // Most nodes are bare numbers: read those without making tokens.
            if let Some((t, value)) = self.lx.plain_number(&[])? {
                self.count_child(top, t.span.clone())?;
                self.draft.push_leaf(value);
                if self.keep_spans {
                    self.spans.push(t.span);
                }
                self.after_child()?;
                continue;
            }
            let t = self.lx.peek()?.clone();
            if t.tok == Tok::Punct(']') {
                self.lx.next_token()?;
                let index = top.index;
                self.node_end(index, "to close the node")?;
                if self.close_node(&mut stack)? {
                    return Ok(());
                }
                self.after_child()?;
                continue;
            }
            self.count_child(top, t.span.clone())?;
            match self.node_start()? {
                Some(frame) => stack.push(frame),
                None => self.after_child()?,
            }
        }
        Ok(())
    }

    /// Gives the node at `index` the key and heuristic value read from the bytes.
    fn set_positions(&mut self, index: usize, read: &End) {
        if let Some(k) = read.key {
            self.draft.set_key(index, k);
        }
        if let Some(h) = read.heuristic {
            self.draft.set_heuristic(index, h);
        }
    }

    /// Ends the node on top of `stack`, its `])` read: its child count, and the `)` of a
    /// `Prob(p, node)` around it. Whether that was the root.
    fn close_node(&mut self, stack: &mut Vec<Frame>) -> Result<bool, Diagnostic> {
        let done = stack.pop().expect("non-empty");
        self.draft.set_children(done.index, done.children);
        if done.wrapped {
            self.close_prob()?;
        }
        Ok(stack.is_empty())
    }

    /// One more child for the node of `frame`; `span` is the child's, for the error.
    #[inline]
    fn count_child(&self, frame: &mut Frame, span: Range<usize>) -> Result<(), Diagnostic> {
        frame.children = frame
            .children
            .checked_add(1)
            .ok_or_else(|| self.lx.error(span, "too many children"))?;
        Ok(())
    }

    /// [`Parser::after_child`], reading a plain `,` or `]` from the bytes `b` of the text.
    #[inline]
    fn fast_after_child(&mut self, b: &[u8]) -> Result<(), Diagnostic> {
        if let Some(at) = self.lx.offset() {
            let p = skip_blanks(b, at);
            match b.get(p) {
                Some(b',') => {
                    self.lx.advance_to(p + 1);
                    return Ok(());
                }
                Some(b']') => {
                    self.lx.advance_to(p);
                    return Ok(());
                }
                _ => {}
            }
        }
        self.after_child()
    }

    /// After a child: `,` or the `]` that ends the list (left for the caller).
    fn after_child(&mut self) -> Result<(), Diagnostic> {
        if self.lx.eat_byte(b',')? {
            return Ok(());
        }
        let t = self.lx.peek()?.clone();
        match t.tok {
            Tok::Punct(',') => {
                self.lx.next_token()?;
                Ok(())
            }
            Tok::Punct(']') => Ok(()),
            _ => Err(self.lx.unexpected(&t, "`,` or `]` after a child")),
        }
    }

    fn close_prob(&mut self) -> Result<(), Diagnostic> {
        if let Some(end) = self
            .lx
            .offset()
            .and_then(|at| prob_close(self.lx.src.as_bytes(), at))
        {
            self.lx.advance_to(end);
            return Ok(());
        }
        self.lx.eat(',')?;
        self.lx.expect(')', "to close `Prob(p, node)`")?;
        Ok(())
    }

    /// Reads one node up to its child list. Returns the frame of an interior node whose
    /// children follow, or `None` for a finished leaf.
    fn node_start(&mut self) -> Result<Option<Frame>, Diagnostic> {
        let mut t = self.lx.next_token()?;
        let mut prob = None;
        if t.tok == Tok::Ident && self.lx.text(&t) == "Prob" {
            self.lx.expect('(', "after `Prob`")?;
            prob = Some(self.probability()?);
            self.lx
                .expect(',', "between the probability and the node")?;
            t = self.lx.next_token()?;
        }
        let start = t.span.start;
        let mut node = match t.tok {
            Tok::Number => DraftNode::leaf(self.lx.number(&t)?),
            Tok::Punct('(') => DraftNode::payoff(self.payoff_rest()?),
            Tok::Ident => match self.lx.text(&t) {
                "Leaf" => {
                    self.lx.expect('(', "after `Leaf`")?;
                    let label = self.optional_label()?;
                    let v = self.lx.next_token()?;
                    let mut leaf = match v.tok {
                        Tok::Number => DraftNode::leaf(self.lx.number(&v)?),
                        Tok::Punct('(') => DraftNode::payoff(self.payoff_rest()?),
                        _ => return Err(self.lx.unexpected(&v, "a leaf value or a payoff tuple")),
                    };
                    leaf.label = label;
                    let index = self.draft.len();
                    self.push(leaf, start..t.span.end);
                    self.node_end(index, "to close `Leaf(...)`")?;
                    if let Some(p) = prob {
                        self.draft.set_prob(index, p);
                        self.close_prob()?;
                    }
                    return Ok(None);
                }
                "Max" | "Min" | "Chance" | "Player" => return self.interior(t, prob).map(Some),
                "Prob" => {
                    return Err(self
                        .lx
                        .error(t.span, "`Prob` inside `Prob`")
                        .with_hint("write one probability per child"));
                }
                "inf" | "NaN" | "nan" => {
                    return Err(self
                        .lx
                        .error(
                            t.span.clone(),
                            format!("leaf value `{}` is not a finite number", self.lx.text(&t)),
                        )
                        .with_hint("NaN and infinities are not values prune can search"));
                }
                other => {
                    let mut e = self
                        .lx
                        .error(t.span.clone(), format!("unknown node kind `{other}`"));
                    e = match did_you_mean(other, NODE_KINDS) {
                        Some(s) => e.with_hint(format!("did you mean `{s}`?")),
                        None => e.with_hint("a node is a number, a payoff tuple, or Max(...), Min(...), Chance(...), Player(i, ...), Leaf(...), Prob(p, node)"),
                    };
                    return Err(e);
                }
            },
            _ => {
                return Err(self.lx.unexpected(
                    &t,
                    "a node (a number, or Max(...), Min(...), Chance(...), ...)",
                ));
            }
        };
        node.prob = prob;
        self.push(node, start..t.span.end);
        if prob.is_some() {
            self.close_prob()?;
        }
        Ok(None)
    }

    /// `Max(` [label `,`] `[` — the children follow.
    fn interior(&mut self, t: Token, prob: Option<f64>) -> Result<Frame, Diagnostic> {
        let (name, kind) = match self.lx.text(&t) {
            "Max" => ("Max", Some(Kind::Max)),
            "Min" => ("Min", Some(Kind::Min)),
            "Chance" => ("Chance", Some(Kind::Chance)),
            _ => ("Player", None),
        };
        let open = self.lx.next_token()?;
        if open.tok != Tok::Punct('(') {
            return Err(self.lx.unexpected(&open, &format!("`(` after `{name}`")));
        }
        let kind = match kind {
            Some(k) => k,
            None => {
                let v = self.lx.next_token()?;
                let p = self.lx.integer(&v, "the player's number (from 1)")?;
                if !(1..=255).contains(&p) {
                    return Err(self
                        .lx
                        .error(v.span, format!("player {p}: players are numbered 1 to 255")));
                }
                self.lx.expect(',', "after the player's number")?;
                Kind::Player((p - 1) as u8)
            }
        };
        let label = self.optional_label()?;
        let open = self.lx.next_token()?;
        if open.tok != Tok::Punct('[') {
            return Err(self
                .lx
                .unexpected(&open, &format!("`[` to open the children of `{name}`")));
        }
        let mut node = DraftNode::interior(kind, 0);
        node.label = label;
        node.prob = prob;
        let index = self.draft.len();
        self.push(node, t.span);
        Ok(Frame {
            index,
            children: 0,
            wrapped: prob.is_some(),
        })
    }

    /// The end of a node after its value or child list: `)`, or `, (key: K, heuristic: H))`
    /// when the node carries position facts.
    fn node_end(&mut self, index: usize, closing: &str) -> Result<(), Diagnostic> {
        if self.lx.eat(',')? && self.lx.peek()?.tok == Tok::Punct('(') {
            self.positions(index)?;
            self.lx.eat(',')?;
        }
        self.lx.expect(')', closing)?;
        Ok(())
    }

    /// `(key: 1234, heuristic: 0.5)`, either field optional, for the node at `index`.
    fn positions(&mut self, index: usize) -> Result<(), Diagnostic> {
        self.lx.expect('(', "to open `(key: K, heuristic: H)`")?;
        let mut seen: Vec<&str> = Vec::new();
        while !self.lx.eat(')')? {
            let t = self.lx.next_token()?;
            let name = self.lx.text(&t).to_owned();
            let Some(&field) = NODE_FIELDS.iter().find(|&&f| f == name) else {
                let e = if t.tok == Tok::Ident {
                    self.lx
                        .error(t.span.clone(), format!("unknown node field `{name}`"))
                } else {
                    self.lx.unexpected(&t, "`key` or `heuristic`")
                };
                return Err(match did_you_mean(&name, NODE_FIELDS) {
                    Some(s) if t.tok == Tok::Ident => e.with_hint(format!("did you mean `{s}`?")),
                    _ => e.with_hint("a node's fields are `key: 1234` and `heuristic: 0.5`"),
                });
            };
            if seen.contains(&field) {
                return Err(self
                    .lx
                    .error(t.span, format!("node field `{field}` appears twice")));
            }
            seen.push(field);
            self.lx.expect(':', &format!("after `{field}`"))?;
            if field == "key" {
                let v = self.lx.next_token()?;
                let k = self
                    .lx
                    .integer(&v, "a position key (an integer from 0 to 2^64 - 1)")?;
                self.draft.set_key(index, k);
            } else {
                let (h, _) = self.lx.expect_number("a heuristic value")?;
                self.draft.set_heuristic(index, h);
            }
            if !self.lx.eat(',')? {
                self.lx.expect(')', "to close the node's fields")?;
                break;
            }
        }
        Ok(())
    }

    fn push(&mut self, node: DraftNode, span: Range<usize>) {
        self.draft.push(node);
        if self.keep_spans {
            self.spans.push(span);
        }
    }

    /// `"label",` if the next token is a string.
    fn optional_label(&mut self) -> Result<Option<String>, Diagnostic> {
        if self.lx.peek()?.tok != Tok::Str {
            return Ok(None);
        }
        let t = self.lx.next_token()?;
        let s = self.lx.string(&t)?;
        self.lx.expect(',', "after the label")?;
        Ok(Some(s))
    }

    /// A probability: a number, or a string holding a fraction such as `"1/3"`.
    fn probability(&mut self) -> Result<f64, Diagnostic> {
        if self.lx.peek()?.tok != Tok::Str {
            return Ok(self.lx.expect_number("a probability (0.25 or \"1/3\")")?.0);
        }
        let t = self.lx.next_token()?;
        let s = self.lx.string(&t)?;
        parse_fraction(&s).ok_or_else(|| {
            self.lx
                .error(t.span, format!("\"{s}\" is not a probability"))
                .with_hint("write a decimal like 0.25 or a fraction like \"1/3\"")
        })
    }

    /// The rest of a payoff tuple after its `(`.
    fn payoff_rest(&mut self) -> Result<Vec<f64>, Diagnostic> {
        let mut v = Vec::new();
        loop {
            if self.lx.eat(')')? {
                break;
            }
            v.push(self.lx.expect_number("a payoff")?.0);
            if !self.lx.eat(',')? {
                self.lx.expect(')', "to close the payoff tuple")?;
                break;
            }
        }
        if v.is_empty() {
            let t = self.lx.peek()?.clone();
            return Err(self.lx.error(t.span, "empty payoff tuple"));
        }
        Ok(v)
    }
}

/// What a node is, read from the bytes by [`fast_node`].
#[derive(Copy, Clone)]
enum Head {
    Leaf(f64),
    /// A payoff tuple, its values in the caller's buffer.
    Payoff,
    /// `Max(`, `Min(`, `Chance(` or `Player(i,` [label `,`] `[`: the children follow.
    Interior(Kind),
}

/// A node read from the bytes by [`fast_node`].
struct Node {
    prob: Option<f64>,
    label: Option<Range<usize>>,
    head: Head,
    /// The node's span as the general way keeps it: its number, the `(` of its payoff tuple,
    /// or its kind's name.
    span: Range<usize>,
    /// A `Leaf`'s key and heuristic value, and where the node ends: after its value and any
    /// `Prob(…)` around it, or after the `[` of its children.
    positions: End,
}

/// The end of a node read from the bytes by [`node_end`]: its key and heuristic value if it
/// has them, and where it ends.
#[derive(Default)]
struct End {
    key: Option<u64>,
    heuristic: Option<f64>,
    end: usize,
}

/// A node at `p` read from the bytes, as [`Parser::node_start`] reads it, when its strings have
/// no escapes, its numbers are plain (see [`plain_number`]), no comment sits inside it and a
/// `Leaf(…)` has no key or heuristic: a number, a payoff tuple, `Leaf([label,] value)`, or the
/// start of `Max`, `Min`, `Chance` or `Player(i,` with an optional label, each perhaps
/// wrapped in `Prob(p, …)`; a payoff tuple's values are pushed on `payoff`. The tokens are those
/// the lexer finds, each followed by what the general way expects there. `None` (nothing read)
/// leaves the node to the general way, which reads the same or reports the error.
#[inline]
fn fast_node(src: &str, p: usize, payoff: &mut Vec<f64>) -> Option<Node> {
    let b = src.as_bytes();
    // What no node starts with (`]` above all) is left at once.
    if !b
        .get(p)
        .is_some_and(|c| c.is_ascii_digit() || b"-+(PLMC".contains(c))
    {
        return None;
    }
    if let Some((x, end)) = plain_number(b, p) {
        return Some(Node {
            prob: None,
            label: None,
            head: Head::Leaf(x),
            span: p..end,
            positions: End {
                end,
                ..End::default()
            },
        });
    }
    let mut q = p;
    let mut prob = None;
    if let Some(r) = open_word(b, q, "Prob") {
        let (x, end) = match plain_string(b, r) {
            Some((text, end)) => (parse_fraction(super::lex::slice(src, text))?, end),
            None => plain_number(b, r)?,
        };
        q = skip_blanks(b, end);
        if b.get(q) != Some(&b',') {
            return None;
        }
        q = skip_blanks(b, q + 1);
        prob = Some(x);
    }
    // A leaf's value, with the `Prob(…)` around it closed.
    let leaf = |head: Head, span: Range<usize>, label, mut positions: End| {
        if prob.is_some() {
            positions.end = prob_close(b, positions.end)?;
        }
        Some(Node {
            prob,
            label,
            head,
            span,
            positions,
        })
    };
    let plain = |end| End {
        end,
        ..End::default()
    };
    if let Some((x, end)) = plain_number(b, q) {
        return leaf(Head::Leaf(x), q..end, None, plain(end));
    }
    if b.get(q) == Some(&b'(') {
        let end = payoff_tuple(b, q + 1, payoff)?;
        return leaf(Head::Payoff, q..q + 1, None, plain(end));
    }
    if let Some(r) = open_word(b, q, "Leaf") {
        let (label, r) = label_before(b, r)?;
        let (head, end) = match plain_number(b, r) {
            Some((x, end)) => (Head::Leaf(x), end),
            None if b.get(r) == Some(&b'(') => (Head::Payoff, payoff_tuple(b, r + 1, payoff)?),
            None => return None,
        };
        return leaf(head, q..q + 4, label, node_end(b, end)?);
    }
    let (kind, name, mut r) = if let Some(r) = open_word(b, q, "Max") {
        (Kind::Max, 3, r)
    } else if let Some(r) = open_word(b, q, "Min") {
        (Kind::Min, 3, r)
    } else if let Some(r) = open_word(b, q, "Chance") {
        (Kind::Chance, 6, r)
    } else {
        let r = open_word(b, q, "Player")?;
        if !b.get(r).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let (n, end) = plain_integer(b, r)?;
        let comma = skip_blanks(b, end);
        if !(1.0..=255.0).contains(&n) || b.get(comma) != Some(&b',') {
            return None;
        }
        (Kind::Player((n - 1.0) as u8), 6, skip_blanks(b, comma + 1))
    };
    let label;
    (label, r) = label_before(b, r)?;
    if b.get(r) != Some(&b'[') {
        return None;
    }
    Some(Node {
        prob,
        label,
        head: Head::Interior(kind),
        span: q..q + name,
        positions: plain(r + 1),
    })
}

/// The identifier `word` at `q`, then `(`: where what follows the `(` starts.
#[inline]
fn open_word(b: &[u8], q: usize, word: &str) -> Option<usize> {
    let end = q + word.len();
    // Byte by byte: these words are short, and a call to compare them cost more.
    if !word
        .bytes()
        .enumerate()
        .all(|(k, c)| b.get(q + k) == Some(&c))
        || b.get(end)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return None;
    }
    let open = skip_blanks(b, end);
    (b.get(open) == Some(&b'(')).then(|| skip_blanks(b, open + 1))
}

/// An optional label `"…",` at `r` ([`Parser::optional_label`]) whose string has no escapes:
/// its text's range and where what follows starts. `None`: a label to leave to the general way.
#[inline]
fn label_before(b: &[u8], r: usize) -> Option<(Option<Range<usize>>, usize)> {
    if b.get(r) != Some(&b'"') {
        return Some((None, r));
    }
    let (text, end) = plain_string(b, r)?;
    let comma = skip_blanks(b, end);
    (b.get(comma) == Some(&b',')).then(|| (Some(text), skip_blanks(b, comma + 1)))
}

/// The rest of a payoff tuple after its `(` at `r` ([`Parser::payoff_rest`]), plain numbers
/// only, pushed on `payoff`: where it ends. `None` for anything else, an empty tuple too.
#[inline]
fn payoff_tuple(b: &[u8], mut r: usize, payoff: &mut Vec<f64>) -> Option<usize> {
    loop {
        r = skip_blanks(b, r);
        if b.get(r) == Some(&b')') && !payoff.is_empty() {
            return Some(r + 1);
        }
        let (x, end) = plain_number(b, r)?;
        payoff.push(x);
        r = skip_blanks(b, end);
        match b.get(r) {
            Some(b',') => r += 1,
            Some(b')') => return Some(r + 1),
            _ => return None,
        }
    }
}

/// The end of a node at `at`, after its value or its children's `]` ([`Parser::node_end`]):
/// `)`, or `, (key: K, heuristic: H))` with either field or none, the key plain digits and
/// the heuristic value a plain number, each field once.
#[inline]
fn node_end(b: &[u8], at: usize) -> Option<End> {
    let mut read = End::default();
    let mut q = skip_blanks(b, at);
    if b.get(q) == Some(&b',') {
        q = skip_blanks(b, q + 1);
        if b.get(q) == Some(&b'(') {
            q += 1;
            loop {
                q = skip_blanks(b, q);
                if b.get(q) == Some(&b')') {
                    q += 1;
                    break;
                }
                let word = b[q..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                let colon = skip_blanks(b, q + word);
                if b.get(colon) != Some(&b':') {
                    return None;
                }
                let value = skip_blanks(b, colon + 1);
                let end = match &b[q..q + word] {
                    b"key" if read.key.is_none() => {
                        let digits = b[value..].iter().take_while(|c| c.is_ascii_digit()).count();
                        let end = value + digits;
                        if b.get(end)
                            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
                        {
                            return None;
                        }
                        read.key = Some(std::str::from_utf8(&b[value..end]).ok()?.parse().ok()?);
                        end
                    }
                    b"heuristic" if read.heuristic.is_none() => {
                        let (h, end) = plain_number(b, value)?;
                        read.heuristic = Some(h);
                        end
                    }
                    _ => return None,
                };
                q = skip_blanks(b, end);
                match b.get(q) {
                    Some(b',') => q += 1,
                    Some(b')') => {
                        q += 1;
                        break;
                    }
                    _ => return None,
                }
            }
            q = skip_blanks(b, q);
            if b.get(q) == Some(&b',') {
                q = skip_blanks(b, q + 1);
            }
        }
    }
    read.end = q + 1;
    (b.get(q) == Some(&b')')).then_some(read)
}

/// The `)` closing `Prob(p, node)` at `at`, perhaps after a `,` ([`Parser::close_prob`]):
/// where it ends.
#[inline]
fn prob_close(b: &[u8], at: usize) -> Option<usize> {
    let mut q = skip_blanks(b, at);
    if b.get(q) == Some(&b',') {
        q = skip_blanks(b, q + 1);
    }
    (b.get(q) == Some(&b')')).then_some(q + 1)
}

/// `"1/3"`, `"0.25"` or `"1"` as a number.
pub fn parse_fraction(s: &str) -> Option<f64> {
    let s = s.trim();
    let x = match s.split_once('/') {
        Some((a, b)) => a.trim().parse::<f64>().ok()? / b.trim().parse::<f64>().ok()?,
        None => s.parse::<f64>().ok()?,
    };
    x.is_finite().then_some(x)
}

/// Writes `tree` as RON. Small trees are indented; a node whose children are all plain leaves
/// goes on one line; indentation stops growing past depth 24 so deep chains stay compact.
pub fn write(tree: &Tree) -> String {
    let m = tree.meta();
    let mut out = String::with_capacity(tree.len() * 4 + 256);
    out.push_str("(\n");
    let _ = writeln!(out, "    version: {VERSION},");
    if !m.name.is_empty() {
        let _ = writeln!(out, "    name: {},", quote(&m.name));
    }
    if !m.description.is_empty() {
        let _ = writeln!(out, "    description: {},", quote(&m.description));
    }
    if tree.is_multiplayer() {
        let _ = writeln!(out, "    players: {},", tree.players());
    }
    if let Some(b) = m.bounds {
        let _ = writeln!(
            out,
            "    bounds: ({}, {}),",
            number_text(b.lo),
            number_text(b.hi)
        );
    }
    if let Some(f) = m.payoff_floor {
        let _ = writeln!(out, "    payoff_floor: {},", number_text(f));
    }
    if let Some(s) = m.payoff_sum {
        let _ = writeln!(out, "    payoff_sum: {},", number_text(s));
    }
    out.push_str("    root: ");
    write_nodes(tree, &mut out);
    out.push_str(",\n)\n");
    out
}

/// What comes before a node in the output: nothing (the root), a newline (a first child) or a
/// comma and a newline (a later child).
#[derive(Copy, Clone)]
enum Lead {
    None,
    First,
    Next,
}

/// A node to write at a depth, with what comes before it and whether its parent gives it a
/// probability (`Prob(p, …)`, below a chance node with uneven ones): known when the parent
/// pushes it, so no node looks its parent up.
enum Step {
    Open(NodeId, usize, Lead, bool),
    Close(NodeId, usize, bool),
}

fn write_nodes(tree: &Tree, out: &mut String) {
    let mut stack = vec![Step::Open(NodeId::ROOT, 1, Lead::None, false)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(id, depth, lead, wrapped) => {
                match lead {
                    Lead::None => {}
                    Lead::First => out.push('\n'),
                    Lead::Next => out.push_str(",\n"),
                }
                if !matches!(lead, Lead::None) {
                    indent(out, depth);
                }
                if wrapped {
                    out.push_str("Prob(");
                    push_number(out, tree.prob(id));
                    out.push_str(", ");
                }
                if tree.is_leaf(id) {
                    write_leaf(tree, id, out);
                    if wrapped {
                        out.push(')');
                    }
                    continue;
                }
                match tree.kind(id) {
                    Kind::Max => out.push_str("Max("),
                    Kind::Min => out.push_str("Min("),
                    Kind::Chance => out.push_str("Chance("),
                    Kind::Player(p) => {
                        out.push_str("Player(");
                        out.push_str(itoa::Buffer::new().format(u32::from(p) + 1));
                        out.push_str(", ");
                    }
                    Kind::Leaf => unreachable!("handled above"),
                }
                if let Some(l) = tree.label(id) {
                    push_quoted(out, l);
                    out.push_str(", ");
                }
                out.push('[');
                let probs = tree.kind(id) == Kind::Chance && !tree.is_uniform(id);
                let inline = !probs
                    && tree.children(id).all(|c| {
                        tree.is_leaf(c) && tree.label(c).is_none() && tree.key(c).is_none()
                    });
                if inline {
                    for (i, c) in tree.children(id).enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        write_leaf(tree, c, out);
                    }
                    out.push(']');
                    write_positions(tree, id, out);
                    out.push(')');
                    if wrapped {
                        out.push(')');
                    }
                    continue;
                }
                stack.push(Step::Close(id, depth, wrapped));
                for (i, c) in tree.children(id).enumerate().rev() {
                    let lead = if i == 0 { Lead::First } else { Lead::Next };
                    stack.push(Step::Open(c, depth + 1, lead, probs));
                }
            }
            Step::Close(id, depth, wrapped) => {
                out.push_str(",\n");
                indent(out, depth);
                out.push(']');
                write_positions(tree, id, out);
                out.push(')');
                if wrapped {
                    out.push(')');
                }
            }
        }
    }
}

/// `, (key: K, heuristic: H)` when the node has either.
fn write_positions(tree: &Tree, id: NodeId, out: &mut String) {
    let (key, heuristic) = (tree.key(id), tree.heuristic(id));
    if key.is_none() && heuristic.is_none() {
        return;
    }
    out.push_str(", (");
    if let Some(k) = key {
        out.push_str("key: ");
        out.push_str(itoa::Buffer::new().format(k));
    }
    if let Some(h) = heuristic {
        if key.is_some() {
            out.push_str(", ");
        }
        out.push_str("heuristic: ");
        push_number(out, h);
    }
    out.push(')');
}

fn write_leaf(tree: &Tree, id: NodeId, out: &mut String) {
    let label = tree.label(id);
    let wrapped = label.is_some() || tree.key(id).is_some();
    if wrapped {
        out.push_str("Leaf(");
    }
    if let Some(l) = label {
        push_quoted(out, l);
        out.push_str(", ");
    }
    if tree.is_multiplayer() {
        out.push('(');
        for (i, x) in tree.payoff(id).iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            push_number(out, *x);
        }
        out.push(')');
    } else {
        push_number(out, tree.value(id));
    }
    if wrapped {
        write_positions(tree, id, out);
        out.push(')');
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth.min(24) {
        out.push_str("    ");
    }
}

/// A RON string literal.
pub fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    push_quoted(&mut q, s);
    q
}

/// Appends [`quote`]`(s)` to `out`.
pub fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            // Every control, separator and bidi character escaped: the label reads back the
            // same, and nothing raw reaches an editor or a terminal.
            c if crate::text::is_unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> Result<Tree, Diagnostic> {
        parse("t.ron", Text::from(src))
    }

    const SAMPLE: &str = r#"
// A comment.
(
    version: 1,
    name: "sample",
    description: "for tests",
    bounds: (-10, 20),
    root: Max([
        Min("a", [3, 12, 8]),
        Chance("b", [Prob(0.25, 2), Prob("3/4", Leaf("x", -4.5))]),
        Chance([Min([1, 2]), 7]),
    ]),
)
"#;

    #[test]
    fn reads_labels_probabilities_and_metadata() {
        let t = read(SAMPLE).unwrap();
        assert_eq!(t.meta().name, "sample");
        assert_eq!(
            t.meta().bounds,
            Some(Bounds {
                lo: -10.0,
                hi: 20.0
            })
        );
        let kids: Vec<_> = t.children(t.root()).collect();
        assert_eq!(t.label(kids[0]), Some("a"));
        assert_eq!(t.kind(kids[1]), Kind::Chance);
        assert!(!t.is_uniform(kids[1]));
        let x = t.child(kids[1], 1);
        assert_eq!((t.prob(x), t.value(x), t.label(x)), (0.75, -4.5, Some("x")));
        assert!(t.is_uniform(kids[2]));
        assert_eq!(t.prob(t.child(kids[2], 0)), 0.5);
    }

    #[test]
    fn round_trip_is_lossless_and_valid_ron() {
        let t = read(SAMPLE).unwrap();
        let text = write(&t);
        let back = read(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render()));
        assert_eq!(back, t);
        let _: ::ron::Value =
            ::ron::from_str(&text).unwrap_or_else(|e| panic!("not RON: {e}\n{text}"));
    }

    #[test]
    fn multiplayer_round_trip() {
        let src = "(players: 3, payoff_floor: 0, payoff_sum: 10, root: Player(1, [Player(2, \"l\", [(3, 1, 6), (2, 8, 0)]), Leaf(\"r\", (7, 3, 0))]))";
        let t = read(src).unwrap();
        assert!(t.is_multiplayer());
        assert_eq!(t.payoff(t.child(t.child(t.root(), 0), 1)), &[2.0, 8.0, 0.0]);
        assert_eq!(read(&write(&t)).unwrap(), t);
    }

    #[test]
    fn deep_chains_read_and_write_without_recursion() {
        let depth = 100_000;
        let mut src = String::from("(root: ");
        for _ in 0..depth {
            src.push_str("Max([");
        }
        src.push('1');
        for _ in 0..depth {
            src.push_str("])");
        }
        src.push(')');
        let t = read(&src).unwrap();
        assert_eq!(t.len(), depth + 1);
        assert_eq!(read(&write(&t)).unwrap(), t);
    }

    #[test]
    fn keys_and_heuristics_round_trip() {
        let src = "(root: Max(\"m\", [Min([1, Leaf(2, (key: 7))], (heuristic: -0.5)), Leaf(\"x\", 3, (key: 18446744073709551615,)), Chance([Prob(0.25, Leaf(4, (key: 9))), Prob(0.75, Min([5], (key: 7, heuristic: 5)))])], (key: 0, heuristic: 1.25)))";
        let t = read(src).unwrap_or_else(|e| panic!("{}", e.render()));
        assert!(t.has_keys() && t.has_heuristics());
        assert_eq!(
            (t.key(t.root()), t.heuristic(t.root())),
            (Some(0), Some(1.25))
        );
        let min = t.child(t.root(), 0);
        assert_eq!((t.key(min), t.heuristic(min)), (None, Some(-0.5)));
        assert_eq!(t.key(t.child(min, 1)), Some(7));
        assert_eq!(t.key(t.child(t.root(), 1)), Some(u64::MAX));
        assert_eq!(t.label(t.child(t.root(), 1)), Some("x"));
        let chance = t.child(t.root(), 2);
        assert_eq!(t.prob(t.child(chance, 0)), 0.25);
        assert_eq!(t.key(t.child(chance, 0)), Some(9));
        assert_eq!(t.distinct_keys(), Some(4));
        let text = write(&t);
        let back = read(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render()));
        assert_eq!(back, t);
        let _: ::ron::Value =
            ::ron::from_str(&text).unwrap_or_else(|e| panic!("not RON: {e}\n{text}"));
        // Without any, nothing is stored or written.
        let plain = read(SAMPLE).unwrap();
        assert!(!plain.has_keys() && !plain.has_heuristics());
        assert!(!write(&plain).contains("key"));
    }

    #[test]
    fn node_fields_are_checked() {
        assert_eq!(
            err("(root: Max([1], (heuristics: 1)))"),
            "t.ron:1:18: unknown node field `heuristics` (hint: did you mean `heuristic`?)"
        );
        assert!(err("(root: Max([1], (key: 1, key: 2)))").contains("appears twice"));
        assert!(err("(root: Max([1], (key: -1)))").contains("a position key"));
        assert!(err("(root: Max([1], (heuristic: NaN)))").contains("not a finite number"));
        assert!(
            err("(root: Max([Leaf(1, (heuristic: 2))]))").contains("heuristic value on a leaf")
        );
    }

    fn err(src: &str) -> String {
        read(src).unwrap_err().to_string()
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(
            err("(root: Max([1, 2)"),
            "t.ron:1:17: expected `,` or `]` after a child, found `)`"
        );
        assert_eq!(
            err("(root: Maxx([1]))"),
            "t.ron:1:8: unknown node kind `Maxx` (hint: did you mean `Max`?)"
        );
        assert_eq!(
            err("(rot: 1)"),
            "t.ron:1:2: unknown field `rot` (hint: did you mean `root`?)"
        );
        assert!(err("(version: 7, root: 1)").contains("unsupported version 7"));
        assert!(err("(name: \"x\")").contains("missing field `root`"));
        assert!(err("(root: 1, root: 2)").contains("appears twice"));
        // `source` is `description` under another name: the message names what is under the
        // caret, the hint where the first one is.
        assert_eq!(
            err("(description: \"x\",\n source: \"y\", root: 1)"),
            "t.ron:2:2: field `source` gives `description` again: `source` is another name for `description` (hint: `description` is given at line 1, column 2; keep one)"
        );
        assert!(err("(name: \"a\", name: \"b\", root: 1)").contains("line 1, column 2"));
        assert_eq!(
            err("(root: Max([\n  Chance([Prob(0.5, 1), Prob(0.4, 2)]),\n]))"),
            "t.ron:2:3: the probabilities of this chance node sum to 0.9, not 1 (hint: fractions like \"1/3\" are exact)"
        );
        assert!(
            err("(bounds: (0, 5), root: Max([1, 6]))")
                .starts_with("t.ron:1:32: leaf value 6 is outside")
        );
        assert!(err("(root: Max([NaN]))").contains("not a finite number"));
        assert!(err("(root: Max([1e999]))").contains("too large"));
        assert!(err("(root: Chance([]))").contains("chance node with no children"));
        assert!(err("").contains("empty"));
        assert!(err("(root: 1) trailing").contains("expected the end of the file"));
    }
}
