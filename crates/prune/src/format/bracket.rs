//! Bracket notation, for trees typed on the command line: `((3,12,8),(2,4,6),(14,5,2))`.
//!
//! ```text
//! tree   := item
//! item   := [label "="] [prob ":"] node
//! node   := number | "[" number ("," number)* "]" | [sigil] "(" item ("," item)* ")"
//! sigil  := "+" (max) | "-" (min) | "*" (chance) | "@" n (player n, from 1)
//! label  := identifier | "quoted string"
//! prob   := number | number "/" number
//! ```
//!
//! A group without a sigil is the opponent of the nearest decision node above it (skipping
//! chance nodes): levels alternate Max, Min, Max … from a Max root (Min with `min_root`), or cycle
//! through the players in an n-player tree. A tree is n-player when a leaf is a payoff vector
//! `[3,1,8]` or a node carries an `@n` sigil. Children of `*` are equally likely unless each has
//! a probability: `*(1/4:3, 3/4:(1,2))`. Labels name moves: `(a=3, b=(1,2))`.
//!
//! Bracket notation carries no metadata (name, bounds); `prune convert` to RON adds a place for it.

use std::ops::Range;

use super::diag::Diagnostic;
use super::lex::{Lexer, Tok, plain_integer, plain_number, plain_string, skip_blanks};
use super::text::RELEASE_EVERY;
use super::{Format, ROOM_MIN, Text, invalid_to_diagnostic, node_estimate};
use crate::text::push_number;
use crate::tree::{Draft, Invalid, Kind, Meta, NodeId, Room, Tree, Valid};

/// Reads bracket notation. `min_root` makes an unmarked root a Min node.
pub fn parse(file: &str, src: Text, min_root: bool) -> Result<Tree, Diagnostic> {
    // Room for every node up front: growing by doubling would copy the draft several times.
    let nodes = node_estimate(&src, Format::Bracket) as usize;
    let mut lx = Lexer::new(file, src.clone(), false);
    let Read {
        draft,
        sigils,
        multiplayer,
        room,
        ..
    } = read(&mut lx, nodes, min_root, false)?;
    match finish(draft, &sigils, multiplayer, min_root) {
        Ok(valid) => {
            // Free the text before the arena grows.
            drop((lx, src, sigils));
            Ok(match room {
                Some(room) => valid.layout_in(room),
                None => valid.layout(),
            })
        }
        Err(e) => {
            drop(room);
            // Node positions only serve this message: read the text again, keeping them.
            let mut lx = Lexer::new(file, src, false);
            let spans = self::read(&mut lx, nodes, min_root, true)?.spans;
            Err(invalid_to_diagnostic(&lx, &spans, e))
        }
    }
}

/// What [`read`] returns.
struct Read {
    /// Every node, with the kinds of a two-player tree.
    draft: Draft,
    /// Every node's span (only when kept).
    spans: Vec<Range<usize>>,
    /// (preorder index, kind) of every group with a sigil, in preorder: the turns of an
    /// n-player tree depend on its number of players, known only at the end (see [`finish`]).
    sigils: Vec<(u32, Kind)>,
    /// Whether a payoff vector or a player sigil makes the tree n-player.
    multiplayer: bool,
    /// The arena's room, made ahead for a big tree (not when spans are kept: an error's
    /// second reading).
    room: Option<Room>,
}

/// The kind of an unmarked group whose nearest decision node above is `decider`, in a
/// two-player tree.
fn opposite(decider: Kind) -> Kind {
    if decider == Kind::Max {
        Kind::Min
    } else {
        Kind::Max
    }
}

/// Reads the text into a draft, with room for `nodes` nodes, giving unmarked groups the
/// alternating kinds of a two-player tree and keeping the sigils; `keep` keeps every node's
/// span.
fn read(lx: &mut Lexer<'_>, nodes: usize, min_root: bool, keep: bool) -> Result<Read, Diagnostic> {
    let src = lx.src.clone();
    let b = src.as_bytes();
    let mut draft = Draft::with_capacity(Meta::default(), nodes);
    draft.expect_label_text(b.len());
    let room = (nodes >= ROOM_MIN && !keep).then(|| Room::prepare(&draft, nodes));
    // The text behind is given back as the reader goes (see the RON reader's `tree`).
    let mut release_at = RELEASE_EVERY;
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(if keep { nodes } else { 0 });
    let mut sigils: Vec<(u32, Kind)> = Vec::new();
    let mut multiplayer = false;
    // The decision node the root alternates from.
    let root_decider = if min_root { Kind::Max } else { Kind::Min };
    // Open groups: (draft index, children so far, the decider for its children).
    let mut stack: Vec<(usize, u32, Kind)> = Vec::new();
    // A payoff vector being read by `fast_item`.
    let mut payoff: Vec<f64> = Vec::new();
    loop {
        // Most items read straight from the bytes (see `fast_item`); anything else is left to
        // the general way, from the same place.
        let fast = match lx.offset() {
            Some(at) => {
                let p = skip_blanks(b, at);
                if p >= release_at {
                    src.release_before(p);
                    release_at = p + RELEASE_EVERY;
                }
                // The commonest items first: a plain integer leaf (before `,` or `)`, else a
                // probability could follow it) and a group without label, probability or sigil.
                if let Some((value, end)) = plain_integer(b, p)
                    && matches!(b.get(skip_blanks(b, end)), Some(b',' | b')'))
                {
                    Some(Item {
                        label: None,
                        prob: None,
                        head: Head::Leaf(value),
                        span: p..end,
                        end,
                    })
                } else if b.get(p) == Some(&b'(') {
                    Some(Item {
                        label: None,
                        prob: None,
                        head: Head::Group(None),
                        span: p..p + 1,
                        end: p + 1,
                    })
                } else {
                    payoff.clear();
                    fast_item(&src, p, &mut payoff)
                }
            }
            None => None,
        };
        let (label, prob, head, span) = match fast {
            Some(item) => {
                lx.advance_to(item.end);
                let label = item.label.map(|l| super::lex::slice(&src, l));
                (label.map(Label::Text), item.prob, item.head, item.span)
            }
            None => {
                let (label, prob) = item_prefix(lx)?;
                let (head, span) = item_head(lx, &mut payoff)?;
                (label.map(Label::Owned), prob, head, span)
            }
        };
        let decider = stack.last().map_or(root_decider, |top| top.2);
        if let Some(top) = stack.last_mut() {
            top.1 += 1;
        }
        match head {
            Head::Leaf(value) => draft.push_leaf(value),
            Head::Payoff => {
                multiplayer = true;
                draft.push_payoff(&payoff);
            }
            Head::Group(sigil) => {
                let kind = sigil.unwrap_or(opposite(decider));
                if let Some(k) = sigil {
                    multiplayer |= matches!(k, Kind::Player(_));
                    sigils.push((draft.len() as u32, k));
                }
                draft.push_interior(kind);
            }
        }
        if let Some(p) = prob {
            draft.prob_last(p);
        }
        if let Some(l) = &label {
            draft.label_last(l.as_str());
        }
        if keep {
            spans.push(span);
        }
        if let Head::Group(sigil) = head {
            let kind = sigil.unwrap_or(opposite(decider));
            let next = if kind == Kind::Chance { decider } else { kind };
            stack.push((draft.len() - 1, 0, next));
            continue; // its first item follows
        }
        // After a finished node: `,` (another item) or `)` (closing groups).
        loop {
            let Some(&(index, children, _)) = stack.last() else {
                let end = lx.next_token()?;
                if end.tok != Tok::Eof {
                    return Err(lx.unexpected(&end, "the end of the tree"));
                }
                return Ok(Read {
                    draft,
                    spans,
                    sigils,
                    multiplayer,
                    room,
                });
            };
            if let Some(at) = lx.offset() {
                let q = skip_blanks(b, at);
                match b.get(q) {
                    Some(b')') => {
                        lx.advance_to(q + 1);
                        draft.set_children(index, children);
                        stack.pop();
                        continue;
                    }
                    Some(b',') => {
                        lx.advance_to(q + 1);
                        if b.get(skip_blanks(b, q + 1)) == Some(&b')') {
                            continue; // trailing comma
                        }
                        break;
                    }
                    _ => lx.advance_to(q),
                }
            }
            if lx.eat_byte(b',')? {
                if lx.at_byte(b')')? {
                    continue; // trailing comma
                }
                break;
            }
            let sep = lx.next_token()?;
            match sep.tok {
                Tok::Punct(',') => {
                    if lx.peek()?.tok == Tok::Punct(')') {
                        continue; // trailing comma
                    }
                    break;
                }
                Tok::Punct(')') => {
                    draft.set_children(index, children);
                    stack.pop();
                }
                Tok::Eof => {
                    return Err(lx
                        .unexpected(&sep, "`)` to close the group")
                        .with_hint("a `(` is never closed"));
                }
                _ => return Err(lx.unexpected(&sep, "`,` or `)`")),
            }
        }
    }
}

/// A label as the general way reads it, or as the bytes give it.
enum Label<'t> {
    Owned(String),
    Text(&'t str),
}

impl Label<'_> {
    fn as_str(&self) -> &str {
        match self {
            Label::Owned(s) => s,
            Label::Text(s) => s,
        }
    }
}

/// What an item is after its label and probability.
#[derive(Copy, Clone)]
enum Head {
    Leaf(f64),
    /// A payoff vector, its values in the caller's buffer.
    Payoff,
    /// A group, with its sigil's kind if it has one; its items follow.
    Group(Option<Kind>),
}

/// An item read from the bytes by [`fast_item`].
struct Item {
    label: Option<Range<usize>>,
    prob: Option<f64>,
    head: Head,
    /// The node's span: the number, the `[` or the `(`, as the general way keeps it.
    span: Range<usize>,
    /// Where the item's head ends (after the `(` of a group).
    end: usize,
}

/// An item at `p` read from the bytes, when its label is an identifier or a string without
/// escapes, its numbers are plain (see [`plain_number`]) and a sigil is right before its `(`;
/// a payoff vector's values are pushed on `payoff`. The tokens are those the lexer finds, each
/// followed by what [`item_prefix`] and [`item_head`] expect there. `None` (nothing read)
/// leaves the item to them, which read the same or report the error.
#[inline]
fn fast_item(src: &str, p: usize, payoff: &mut Vec<f64>) -> Option<Item> {
    let b = src.as_bytes();
    let mut q = p;
    let mut label = None;
    if let Some((text, end)) = plain_string(b, q) {
        label = Some(text);
        q = end;
    } else if b
        .get(q)
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
    {
        let end = q + b[q..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if matches!(super::lex::slice(src, q..end), "inf" | "NaN" | "nan") {
            return None;
        }
        label = Some(q..end);
        q = end;
    }
    if label.is_some() {
        q = skip_blanks(b, q);
        if b.get(q) != Some(&b'=') {
            return None;
        }
        q = skip_blanks(b, q + 1);
    }
    let mut prob = None;
    if let Some((x, end)) = plain_number(b, q) {
        let after = skip_blanks(b, end);
        match b.get(after) {
            Some(b'/') => {
                let (d, end) = plain_number(b, skip_blanks(b, after + 1))?;
                let colon = skip_blanks(b, end);
                if d == 0.0 || b.get(colon) != Some(&b':') {
                    return None;
                }
                prob = Some(x / d);
                q = skip_blanks(b, colon + 1);
            }
            Some(b':') => {
                prob = Some(x);
                q = skip_blanks(b, after + 1);
            }
            _ => {
                let head = Head::Leaf(x);
                return Some(Item {
                    label,
                    prob,
                    head,
                    span: q..end,
                    end,
                });
            }
        }
    }
    let (head, open) = match *b.get(q)? {
        b'(' => (Head::Group(None), q),
        b'[' => {
            let mut r = q + 1;
            loop {
                let (x, end) = plain_number(b, skip_blanks(b, r))?;
                payoff.push(x);
                r = skip_blanks(b, end);
                match b.get(r) {
                    Some(b',') => r += 1,
                    Some(b']') => break,
                    _ => return None,
                }
            }
            return Some(Item {
                label,
                prob,
                head: Head::Payoff,
                span: q..q + 1,
                end: r + 1,
            });
        }
        c @ (b'+' | b'-' | b'*' | b'@') => {
            let mut r = skip_blanks(b, q + 1);
            let kind = match c {
                b'+' => Kind::Max,
                b'-' => Kind::Min,
                b'*' => Kind::Chance,
                _ => {
                    let (n, end) = plain_integer(b, r)?;
                    if !b[r].is_ascii_digit() || !(1.0..=255.0).contains(&n) {
                        return None;
                    }
                    r = skip_blanks(b, end);
                    Kind::Player((n - 1.0) as u8)
                }
            };
            if b.get(r) != Some(&b'(') {
                return None;
            }
            (Head::Group(Some(kind)), r)
        }
        // A leaf is a number (a probability before it, read above, then a number).
        _ => {
            let (x, end) = plain_number(b, q)?;
            return Some(Item {
                label,
                prob,
                head: Head::Leaf(x),
                span: q..end,
                end,
            });
        }
    };
    Some(Item {
        label,
        prob,
        head,
        span: open..open + 1,
        end: open + 1,
    })
}

/// The node of an item after its label and probability, read the general way: its head
/// (a payoff vector's values pushed on `payoff`) and its span.
fn item_head(
    lx: &mut Lexer<'_>,
    payoff: &mut Vec<f64>,
) -> Result<(Head, Range<usize>), Diagnostic> {
    let mut t = lx.next_token()?;
    let mut sigil = None;
    if let Tok::Punct(c @ ('+' | '-' | '*' | '@')) = t.tok {
        sigil = Some(match c {
            '+' => Kind::Max,
            '-' => Kind::Min,
            '*' => Kind::Chance,
            _ => {
                let n = lx.next_token()?;
                let p = lx.integer(&n, "a player number after `@`")?;
                if !(1..=255).contains(&p) {
                    return Err(
                        lx.error(n.span, format!("player {p}: players are numbered 1 to 255"))
                    );
                }
                Kind::Player((p - 1) as u8)
            }
        });
        let open = lx.next_token()?;
        if open.tok != Tok::Punct('(') {
            return Err(lx.unexpected(&open, &format!("`(` after the sigil `{c}`")));
        }
        t = open;
    }
    let head = match t.tok {
        Tok::Number => Head::Leaf(lx.number(&t)?),
        Tok::Punct('[') => {
            payoff.clear();
            loop {
                payoff.push(lx.expect_number("a payoff")?.0);
                let sep = lx.next_token()?;
                match sep.tok {
                    Tok::Punct(',') => {}
                    Tok::Punct(']') => break,
                    _ => return Err(lx.unexpected(&sep, "`,` or `]` in a payoff vector")),
                }
            }
            Head::Payoff
        }
        Tok::Punct('(') => Head::Group(sigil),
        Tok::Ident if matches!(lx.text(&t), "inf" | "NaN" | "nan") => {
            return Err(lx.error(
                t.span.clone(),
                format!("leaf value `{}` is not a finite number", lx.text(&t)),
            ));
        }
        _ => return Err(lx.unexpected(&t, "a number or `(`")),
    };
    Ok((head, t.span))
}

/// `label=` and `prob:` before a node, both optional.
fn item_prefix(lx: &mut Lexer<'_>) -> Result<(Option<String>, Option<f64>), Diagnostic> {
    let mut label = None;
    let t = lx.peek()?.clone();
    if t.tok == Tok::Str || (t.tok == Tok::Ident && !matches!(lx.text(&t), "inf" | "NaN" | "nan")) {
        lx.next_token()?;
        label = Some(if t.tok == Tok::Str {
            lx.string(&t)?
        } else {
            lx.text(&t).to_owned()
        });
        let eq = lx.next_token()?;
        if eq.tok != Tok::Punct('=') {
            return Err(lx.unexpected(&eq, "`=` after the label"));
        }
    }
    let t = lx.peek()?.clone();
    if t.tok != Tok::Number {
        return Ok((label, None));
    }
    // A number is a probability only when `:` or `/` follows it.
    lx.next_token()?;
    let mut p = lx.number(&t)?;
    if lx.eat('/')? {
        let (d, dt) = lx.expect_number("the denominator of the probability")?;
        if d == 0.0 {
            return Err(lx.error(dt.span, "division by zero in a probability"));
        }
        p /= d;
        lx.expect(':', "after the probability")?;
        return Ok((label, Some(p)));
    }
    if lx.eat(':')? {
        return Ok((label, Some(p)));
    }
    lx.unread(t);
    Ok((label, None))
}

/// Gives every unmarked group of an n-player tree its turn (those of a two-player tree have
/// theirs), then validates.
fn finish(
    mut draft: Draft,
    sigils: &[(u32, Kind)],
    multiplayer: bool,
    min_root: bool,
) -> Result<Valid, Invalid> {
    if !multiplayer {
        return draft.validated();
    }
    debug_assert_eq!(
        multiplayer,
        draft.first_payoff_len().is_some()
            || sigils.iter().any(|(_, k)| matches!(k, Kind::Player(_)))
    );
    let players = draft.first_payoff_len().map_or(2, |n| n).min(255);
    if multiplayer {
        draft.meta.players = players as u8;
    }
    // The decision node a group alternates from: (kind of nearest non-chance ancestor).
    let root_decider = if multiplayer {
        Kind::Player((players - 1) as u8)
    } else if min_root {
        Kind::Max
    } else {
        Kind::Min
    };
    let mut stack: Vec<(Kind, u32)> = Vec::new(); // (decider for children, children left)
    let mut sigils = sigils.iter().peekable();
    for i in 0..draft.len() {
        // A leaf is one; a group has its sigil's kind, or alternates.
        let explicit = if draft.kind(i) == Kind::Leaf {
            Some(Kind::Leaf)
        } else {
            sigils
                .next_if(|&&(at, _)| at as usize == i)
                .map(|&(_, k)| k)
        };
        let decider = stack.last().map_or(root_decider, |&(d, _)| d);
        if let Some(top) = stack.last_mut() {
            top.1 -= 1;
        }
        let kind = explicit.unwrap_or(match decider {
            Kind::Max => Kind::Min,
            Kind::Min => Kind::Max,
            Kind::Player(p) => Kind::Player(((usize::from(p) + 1) % players) as u8),
            _ => unreachable!("deciders are decision nodes"),
        });
        draft.set_kind(i, kind);
        let children = draft.children(i);
        if children > 0 {
            let next = if kind == Kind::Chance { decider } else { kind };
            stack.push((next, children));
        }
        while stack.last().is_some_and(|&(_, left)| left == 0) {
            stack.pop();
        }
    }
    draft.validated()
}

/// Writes `tree` in bracket notation, marking only the nodes that do not alternate.
pub fn write(tree: &Tree) -> String {
    let players = tree.players();
    let multi = tree.is_multiplayer();
    let mut out = String::with_capacity(tree.len() * 3);
    let root_decider = if multi {
        Kind::Player((players - 1) as u8)
    } else {
        Kind::Min
    };
    /// A node to write, with the decider above it, whether a comma goes first and whether its
    /// parent gives it a probability (a chance node with uneven ones): known when the parent
    /// pushes it, so no node looks its parent up.
    enum Step {
        Open(NodeId, Kind, bool, bool),
        Close,
    }
    let mut stack = vec![Step::Open(NodeId::ROOT, root_decider, false, false)];
    while let Some(step) = stack.pop() {
        let (id, decider, comma, prob) = match step {
            Step::Close => {
                out.push(')');
                continue;
            }
            Step::Open(id, d, c, p) => (id, d, c, p),
        };
        if comma {
            out.push(',');
        }
        if let Some(l) = tree.label(id) {
            if is_plain_label(l) {
                out.push_str(l);
            } else {
                super::ron::push_quoted(&mut out, l);
            }
            out.push('=');
        }
        if prob {
            push_number(&mut out, tree.prob(id));
            out.push(':');
        }
        let kind = tree.kind(id);
        if kind == Kind::Leaf {
            if multi {
                out.push('[');
                for (i, &x) in tree.payoff(id).iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_number(&mut out, x);
                }
                out.push(']');
            } else {
                push_number(&mut out, tree.value(id));
            }
            continue;
        }
        let expected = match decider {
            Kind::Max => Kind::Min,
            Kind::Min => Kind::Max,
            Kind::Player(p) => Kind::Player(((usize::from(p) + 1) % players) as u8),
            _ => unreachable!("deciders are decision nodes"),
        };
        match kind {
            Kind::Chance => out.push('*'),
            k if k == expected => {}
            Kind::Max => out.push('+'),
            Kind::Min => out.push('-'),
            Kind::Player(p) => {
                out.push('@');
                out.push_str(itoa::Buffer::new().format(u32::from(p) + 1));
            }
            Kind::Leaf => unreachable!("handled above"),
        }
        out.push('(');
        let next = if kind == Kind::Chance { decider } else { kind };
        let probs = kind == Kind::Chance && !tree.is_uniform(id);
        stack.push(Step::Close);
        for (i, c) in tree.children(id).enumerate().rev() {
            stack.push(Step::Open(c, next, i > 0, probs));
        }
    }
    out
}

fn is_plain_label(l: &str) -> bool {
    let mut chars = l.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(l, "inf" | "NaN" | "nan")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> Tree {
        parse("--expr", Text::from(src), false).unwrap_or_else(|e| panic!("{}", e.render()))
    }

    fn err(src: &str) -> String {
        parse("--expr", Text::from(src), false)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn levels_alternate_from_a_max_root() {
        let t = read("((3,12,8),(2,4,6),(14,5,2))");
        assert_eq!(t.kind(t.root()), Kind::Max);
        let b = t.child(t.root(), 1);
        assert_eq!(t.kind(b), Kind::Min);
        assert_eq!(t.value(t.child(b, 2)), 6.0);
        let m = parse("--expr", Text::from("((1,2),(3,4))"), true).unwrap();
        assert_eq!(t.kind(m.child(m.root(), 0)), Kind::Min);
        assert_eq!(m.kind(m.root()), Kind::Min);
        assert_eq!(m.kind(m.child(m.root(), 0)), Kind::Max);
    }

    #[test]
    fn chance_labels_probabilities_and_sigils() {
        let t = read("(a=*(1/4:(1,2), 3/4:(3,4)), b=+(5, 6), \"c d\"=7)");
        let a = t.child(t.root(), 0);
        assert_eq!((t.kind(a), t.label(a)), (Kind::Chance, Some("a")));
        let first = t.child(a, 0);
        // Chance nodes are transparent to alternation: below the Max root's chance node, Min.
        assert_eq!((t.kind(first), t.prob(first)), (Kind::Min, 0.25));
        assert_eq!(t.kind(t.child(t.root(), 1)), Kind::Max);
        assert_eq!(t.label(t.child(t.root(), 2)), Some("c d"));
    }

    #[test]
    fn multiplayer_from_vectors() {
        let t = read("(([3,1,8],[2,8,1]),([1,7,2],[5,6,3]))");
        assert!(t.is_multiplayer());
        assert_eq!(t.kind(t.root()), Kind::Player(0));
        assert_eq!(t.kind(t.child(t.root(), 1)), Kind::Player(1));
    }

    #[test]
    fn round_trips() {
        for src in [
            "((3,12,8),(2,4,6),(14,5,2))",
            "-(-(1,2),3)",
            "-((1,2),3)",
            "*(0.25:(1,2),0.75:(3,*(4,5)))",
            "(a=*(1,2),\"x y\"=3)",
            "(([3,1,8],[2,8,1]),@3([1,7,2],[5,6,3]))",
            "7",
        ] {
            let t = read(src);
            assert_eq!(write(&t), src, "canonical form");
            assert_eq!(read(&write(&t)), t);
        }
    }

    #[test]
    fn errors() {
        assert_eq!(
            err("((1,2),(3,4)"),
            "--expr:1:13: expected `)` to close the group, found the end of the input (hint: a `(` is never closed)"
        );
        assert_eq!(
            err("((1,2) (3,4))"),
            "--expr:1:8: expected `,` or `)`, found `(`"
        );
        assert!(err("*(0.5:1, 0.6:2)").contains("sum to 1.1"));
        assert!(err("(1/0:3)").contains("division by zero"));
        assert!(err("(x 3)").contains("expected `=` after the label"));
        assert!(
            err("([1,2],[1,2,3])").contains("2 values in a 3-player tree")
                || err("([1,2],[1,2,3])").contains("3 values in a 2-player")
        );
        assert!(err("(1,2))").contains("expected the end of the tree"));
        assert!(err("(inf)").contains("not a finite"));
    }
}
