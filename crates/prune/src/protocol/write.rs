//! prune's own runs in the protocol (`prune run … --trace-format protocol`).
//!
//! A recorded [`crate::trace::Trace`] is keyed by arena ids and values from Max's point of
//! view; here each node becomes its path of moves and the header says `"values":"minimax"`.
//! Every `enter` says its `player`, since prune's trees need not alternate Max and Min.
//! `research` events are dropped: in the protocol a re-search is the node entered again.
//! Algorithms whose events have no counterpart in the protocol are refused ([`protocol_claim`]).

use std::io::{self, Write};

use serde_json::{Map, Value as Json};

use super::{Claim, Event, Move, PROTOCOL, Path, Selective, Side, VERSION, Values};
use crate::search::{Algorithm, Bound, Run};
use crate::trace::{EventView, Trace};
use crate::tree::{Kind, NodeId, Tree};

/// Why an algorithm's run cannot be written in the protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{algorithm} cannot be written in the trace protocol: {reason}")]
pub struct Unwritable {
    /// The algorithm's name.
    pub algorithm: &'static str,
    /// Why, in words.
    pub reason: &'static str,
}

/// The header's claim for prune's `algo`, or why its trace has no protocol form: the protocol
/// knows depth-first two-player searches whose values are numbers (docs/PROTOCOL.md).
pub fn protocol_claim(algo: &Algorithm) -> Result<Claim, Unwritable> {
    let refuse = |reason| Unwritable {
        algorithm: algo.name(),
        reason,
    };
    // The improvements that order children search by one fail-soft negamax (`improved.rs`).
    let reordered = algo.improvements().is_some_and(|w| w.reorders());
    match algo.base() {
        Algorithm::AlphaBeta { .. } if reordered => Ok(Claim::FailSoft),
        Algorithm::Minimax => Ok(Claim::Minimax),
        Algorithm::AlphaBeta { fail_soft: false } => Ok(Claim::FailHard),
        Algorithm::AlphaBeta { fail_soft: true } => Ok(Claim::FailSoft),
        Algorithm::NegaScout => Ok(Claim::Pvs),
        Algorithm::NegaScoutAb => Ok(Claim::PvsAb),
        Algorithm::Mtdf { .. } => Ok(Claim::Mtdf),
        Algorithm::Sss => Err(refuse(
            "SSS* is best-first: it expands nodes in the order of their merit, not as a call stack, so its enters and exits do not nest as the protocol's do",
        )),
        Algorithm::Expectiminimax | Algorithm::Star1 { .. } | Algorithm::Star2 { .. } => {
            Err(refuse(
                "the protocol has no chance nodes yet (no probabilities, no Star1/Star2 bounds or probes)",
            ))
        }
        Algorithm::Product | Algorithm::KRule { .. } => Err(refuse(
            "its values are probabilities of a win combined by its own rule, not a game search an engine claims",
        )),
        Algorithm::Maxn | Algorithm::MaxnShallow | Algorithm::Paranoid { .. } => Err(refuse(
            "n-player values are vectors; the protocol's values are numbers",
        )),
        Algorithm::Improved { .. } => unreachable!("base() is never Improved"),
    }
}

/// The protocol's move from `c`'s parent to `c`: its label when it has one no sibling shares,
/// else its position. A game's searched tree marks the positions it never expanded by
/// ending their labels with "(not expanded)": that is no part of the move, which is named as
/// the game names it.
pub fn move_to(tree: &Tree, c: NodeId) -> Move {
    let index = tree.child_index(c);
    if let (Some(label), Some(parent)) = (move_label(tree, c), tree.parent(c)) {
        let shared = tree
            .children(parent)
            .filter(|&s| s != c)
            .any(|s| move_label(tree, s) == Some(label));
        if !shared {
            return Move::Label(label.into());
        }
    }
    Move::Index(index as u32)
}

/// The label of the move to `c`, without the mark of a position never expanded.
fn move_label(tree: &Tree, c: NodeId) -> Option<&str> {
    let label = tree.label(c)?;
    match label.strip_suffix(crate::game::lazy::NOT_EXPANDED) {
        Some(l) => Some(l.trim_end()).filter(|l| !l.is_empty()),
        None => Some(label),
    }
}

/// The path of moves from the root to `node`.
pub fn path_of(tree: &Tree, node: NodeId) -> Path {
    tree.path_to(node)
        .into_iter()
        .skip(1)
        .map(|n| move_to(tree, n))
        .collect()
}

/// The player to move at an interior node of a two-player tree (a chance node has been
/// refused by [`protocol_claim`] before this is asked).
fn side(tree: &Tree, node: NodeId) -> Side {
    if tree.kind(node) == Kind::Min {
        Side::Min
    } else {
        Side::Max
    }
}

/// prune's recorded trace as protocol events (values from Max's point of view), in order.
/// Depth-limited runs' horizon nodes are leaves worth their heuristic, as in the trace.
pub fn events(tree: &Tree, trace: &Trace) -> Vec<Event> {
    stamped_events(tree, trace, None)
}

/// [`events`], each `enter` and `tt-hit` stamped with its node's `depth` when `stamp` says
/// so (`Some` of the run's depth limit, if any): the draft prune's table files it under
/// (`search::tt`), the plies left to the iteration's horizon or to the end of the node's
/// subtree, whichever is nearer — a subtree that ends sooner is searched whole either way.
pub fn stamped_events(tree: &Tree, trace: &Trace, stamp: Option<Option<u32>>) -> Vec<Event> {
    let heights = stamp.map(|_| tree.heights());
    let height = tree.height() as u32;
    let mut limit = stamp.flatten().map_or(height, |d| d.min(height));
    let draft = |node: NodeId, limit: u32| {
        heights.as_ref().map(|h| {
            let ply = tree.depth_of(node) as u32;
            let d = limit.saturating_sub(ply).min(h[node.index()]);
            i32::try_from(d).unwrap_or(i32::MAX)
        })
    };
    let key = |node: NodeId| tree.key(node).map(|k| format!("{k:016x}"));
    let mut out = Vec::with_capacity(trace.len());
    for e in trace.events() {
        let event = match e.view() {
            EventView::Enter { node, alpha, beta } => Event::Enter {
                path: path_of(tree, node),
                alpha,
                beta,
                player: Some(side(tree, node)),
                depth: draft(node, limit),
                key: key(node),
                selective: None,
                stand_pat: None,
            },
            EventView::Leaf { node, value } => Event::Leaf {
                path: path_of(tree, node),
                value,
                depth: None,
                key: None,
                selective: None,
            },
            EventView::Exit { node, value, bound } => Event::Exit {
                path: path_of(tree, node),
                value,
                bound,
            },
            EventView::Cutoff { node, after, .. } => Event::Cutoff {
                path: path_of(tree, node),
                after: move_to(tree, tree.child(node, after as usize)),
            },
            EventView::TableHit {
                node, value, bound, ..
            } => Event::TtHit {
                path: path_of(tree, node),
                value,
                bound,
                depth: draft(node, limit),
                key: key(node),
            },
            EventView::Iteration { depth } => {
                limit = depth;
                Event::Iteration { depth }
            }
            // A re-search is the node entered again; the events of chance and n-player
            // searches do not occur in the algorithms `protocol_claim` accepts.
            EventView::Research { .. }
            | EventView::ChanceBounds { .. }
            | EventView::Probe { .. }
            | EventView::ExitVector { .. }
            | EventView::Fallback { .. } => continue,
        };
        out.push(event);
    }
    out
}

/// Writes `run`'s `trace` on `tree` in the protocol: the header, then an event a line.
pub fn write_jsonl(
    out: &mut dyn Write,
    tree: &Tree,
    run: &Run,
    trace: &Trace,
) -> Result<(), WriteError> {
    let claim = protocol_claim(&run.algorithm)?;
    let mut header = Map::new();
    header.insert("protocol".into(), PROTOCOL.into());
    header.insert("version".into(), VERSION.into());
    header.insert(
        "engine".into(),
        concat!("prune ", env!("CARGO_PKG_VERSION")).into(),
    );
    header.insert("algorithm".into(), claim.name().into());
    header.insert("values".into(), Values::Minimax.name().into());
    header.insert("parameters".into(), run.algorithm.label().into());
    header.insert("tree".into(), tree.meta().name.clone().into());
    let mut w = io::BufWriter::new(out);
    write_line(&mut w, &Json::Object(header))?;
    let stamp = run
        .algorithm
        .improvements()
        .filter(|w| w.tt)
        .map(|w| w.depth);
    for e in stamped_events(tree, trace, stamp) {
        write_line(&mut w, &event_json(&e))?;
    }
    w.flush()?;
    Ok(())
}

/// What can go wrong writing a protocol trace.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The algorithm has no protocol form.
    #[error(transparent)]
    Unwritable(#[from] Unwritable),
    /// The output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

fn write_line(w: &mut dyn Write, line: &Json) -> io::Result<()> {
    let text = serde_json::to_string(line)?;
    w.write_all(crate::text::json_safe(text).as_bytes())?;
    w.write_all(b"\n")
}

/// One event as the JSON object of its line (docs/PROTOCOL.md).
pub fn event_json(e: &Event) -> Json {
    let mut m = Map::new();
    m.insert("event".into(), e.name().into());
    if let Some(path) = e.path() {
        m.insert("path".into(), path_json(path));
    }
    match e {
        Event::Enter {
            alpha,
            beta,
            player,
            depth,
            key,
            selective,
            stand_pat,
            ..
        } => {
            m.insert("alpha".into(), window_end(*alpha));
            m.insert("beta".into(), window_end(*beta));
            if let Some(p) = player {
                m.insert("player".into(), p.name().into());
            }
            node_fields(&mut m, *depth, key.as_deref(), *selective);
            if let Some(v) = stand_pat {
                m.insert("stand_pat".into(), value_json(*v));
            }
        }
        Event::Leaf {
            value,
            depth,
            key,
            selective,
            ..
        } => {
            m.insert("value".into(), value_json(*value));
            node_fields(&mut m, *depth, key.as_deref(), *selective);
        }
        Event::Exit { value, bound, .. } => {
            m.insert("value".into(), value_json(*value));
            m.insert("bound".into(), bound_name(*bound).into());
        }
        Event::Cutoff { after, .. } => {
            m.insert("after".into(), move_json(after));
        }
        Event::TtHit {
            value,
            bound,
            depth,
            key,
            ..
        } => {
            m.insert("value".into(), value_json(*value));
            m.insert("bound".into(), bound_name(*bound).into());
            node_fields(&mut m, *depth, key.as_deref(), None);
        }
        Event::Iteration { depth } => {
            m.insert("depth".into(), (*depth).into());
        }
    }
    Json::Object(m)
}

/// The optional fields a node's event carries: its depth, key and selective step.
fn node_fields(
    m: &mut Map<String, Json>,
    depth: Option<i32>,
    key: Option<&str>,
    selective: Option<Selective>,
) {
    if let Some(d) = depth {
        m.insert("depth".into(), d.into());
    }
    if let Some(k) = key {
        m.insert("key".into(), k.into());
    }
    if let Some(s) = selective {
        m.insert("selective".into(), s.name().into());
    }
}

/// A path as its JSON array.
pub fn path_json(path: &[Move]) -> Json {
    path.iter().map(move_json).collect()
}

/// A move: a label as a string, a position as a number.
fn move_json(m: &Move) -> Json {
    match m {
        Move::Label(l) => Json::String(l.to_string()),
        Move::Index(i) => (*i).into(),
        Move::Null => Json::Null,
    }
}

/// The bound's name in the protocol (as in docs/TRACE.md).
pub fn bound_name(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

/// A window's end: ±∞ as `null` (the side it stands on says which).
fn window_end(x: f64) -> Json {
    if x.is_infinite() {
        Json::Null
    } else {
        value_json(x)
    }
}

/// A value: integers without a fraction, ±∞ as the strings `"inf"` and `"-inf"`.
pub fn value_json(x: f64) -> Json {
    if x.is_infinite() {
        return (if x > 0.0 { "inf" } else { "-inf" }).into();
    }
    if x.abs() < 1e15 && (x as i64) as f64 == x {
        return (x as i64).into();
    }
    serde_json::Number::from_f64(x).map_or(Json::Null, Json::Number)
}
