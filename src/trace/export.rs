//! Writing what a search did: the trace as JSON Lines, statistics as CSV. The JSON Lines schema
//! is documented in `docs/TRACE.md`; keep the two in step. (Pictures of the searched tree,
//! DOT included, are [`crate::draw`]'s.)
//!
//! Writers take any `io::Write` and stream, so a 10^7-event trace never exists as one string.

use std::io::{self, Write};

use serde::{Serialize, Serializer};

use crate::search::{Run, Value};
use crate::text::number_text;
use crate::tree::{NodeId, Tree};

use super::columns::{self, Scope, bound_name};
use super::{EventView, Trace};

/// The schema version in the first line of a JSON Lines trace.
pub const TRACE_VERSION: u32 = 1;

/// A number in JSON: finite numbers as numbers, ±∞ as the strings `"inf"` and `"-inf"` (JSON
/// has no infinity), NaN as `null`.
pub fn json_number(x: f64) -> String {
    if x.is_nan() {
        "null".into()
    } else if x == f64::INFINITY {
        "\"inf\"".into()
    } else if x == f64::NEG_INFINITY {
        "\"-inf\"".into()
    } else {
        number_text(x)
    }
}

/// A number in a JSON line, as [`json_number`] writes it: integers without `.0`, ±∞ as strings,
/// NaN as `null`.
struct Num(f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        if x.is_nan() {
            s.serialize_none()
        } else if x.is_infinite() {
            s.serialize_str(if x > 0.0 { "inf" } else { "-inf" })
        } else if x.fract() == 0.0 && x.abs() < 1e15 {
            s.serialize_i64(x as i64)
        } else {
            s.serialize_f64(x)
        }
    }
}

/// A value: a number, or an array of numbers for n players.
enum Val<'a> {
    Scalar(f64),
    Vector(&'a [f64]),
}

impl Serialize for Val<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Val::Scalar(x) => Num(x).serialize(s),
            Val::Vector(xs) => s.collect_seq(xs.iter().map(|&x| Num(x))),
        }
    }
}

impl<'a> From<&'a Value> for Val<'a> {
    fn from(v: &'a Value) -> Self {
        match v {
            Value::Scalar(x) => Val::Scalar(*x),
            Value::Vector(xs) => Val::Vector(xs),
        }
    }
}

/// The first line of a trace (docs/TRACE.md); the fields in this order.
#[derive(Serialize)]
struct Header<'a> {
    prune_trace: u32,
    algorithm: &'static str,
    parameters: String,
    tree: &'a str,
    nodes: usize,
    players: usize,
    events: usize,
    value: Val<'a>,
    bound: &'static str,
}

/// One event line: the common fields, then those of its kind.
#[derive(Serialize)]
struct Line<'a> {
    step: usize,
    event: &'static str,
    node: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    #[serde(flatten)]
    fields: Fields<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Fields<'a> {
    Window {
        alpha: Num,
        beta: Num,
    },
    Leaf {
        value: Val<'a>,
    },
    ChanceBounds {
        parent: u32,
        a: Num,
        b: Num,
    },
    Probe {
        parent: u32,
    },
    Cutoff {
        after: u32,
        skipped: u32,
        kind: &'static str,
    },
    Exit {
        value: Val<'a>,
        bound: &'static str,
    },
    Nothing {},
}

/// Writes `trace` of `run` on `tree` as JSON Lines: a header object, then one object per event.
pub fn write_jsonl(out: &mut dyn Write, tree: &Tree, run: &Run, trace: &Trace) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let header = Header {
        prune_trace: TRACE_VERSION,
        algorithm: run.algorithm.name(),
        parameters: run.algorithm.label(),
        tree: &tree.meta().name,
        nodes: tree.len(),
        players: tree.players(),
        events: trace.len(),
        value: (&run.value).into(),
        bound: bound_name(run.bound),
    };
    serde_json::to_writer(&mut out, &header)?;
    out.write_all(b"\n")?;
    for (step, e) in trace.events().iter().enumerate() {
        serde_json::to_writer(&mut out, &line(tree, trace, step, &e.view()))?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// One event as a JSON object (no newline).
pub fn event_json(tree: &Tree, trace: &Trace, step: usize, e: &EventView) -> String {
    serde_json::to_string(&line(tree, trace, step, e)).expect("an event serialises")
}

fn line<'a>(tree: &'a Tree, trace: &'a Trace, step: usize, e: &EventView) -> Line<'a> {
    let (name, node) = (e.name(), e.node());
    let parent = |child: NodeId| tree.parent(child).map_or(0, |p| p.0);
    let fields = match *e {
        EventView::Enter { alpha, beta, .. } | EventView::Research { alpha, beta, .. } => {
            Fields::Window {
                alpha: Num(alpha),
                beta: Num(beta),
            }
        }
        EventView::Leaf { node, value } => Fields::Leaf {
            value: if value.is_nan() {
                Val::Vector(tree.payoff(node))
            } else {
                Val::Scalar(value)
            },
        },
        EventView::ChanceBounds { child, a, b } => Fields::ChanceBounds {
            parent: parent(child),
            a: Num(a),
            b: Num(b),
        },
        EventView::Probe { child } => Fields::Probe {
            parent: parent(child),
        },
        EventView::Cutoff {
            after,
            skipped,
            kind,
            ..
        } => Fields::Cutoff {
            after,
            skipped,
            kind: kind.name(),
        },
        EventView::Exit { value, bound, .. } => Fields::Exit {
            value: Val::Scalar(value),
            bound: bound_name(bound),
        },
        EventView::ExitVector { index, bound, .. } => Fields::Exit {
            value: Val::Vector(trace.vector(index)),
            bound: bound_name(bound),
        },
        EventView::Fallback { .. } => Fields::Nothing {},
    };
    Line {
        step,
        event: name,
        node: node.0,
        label: tree.label(node),
        fields,
    }
}

/// The header of the statistics CSV: the names of [`columns::CSV`].
pub fn csv_header() -> String {
    columns::CSV.map(|c| c.name()).join(",")
}

/// One run as a CSV row matching [`csv_header`]. A vector value is written `(a; b; c)`.
pub fn csv_row(tree: &Tree, run: &Run) -> String {
    let scope = Scope::new(tree);
    let cells: Vec<String> = columns::CSV
        .iter()
        .map(|c| c.of(&scope, run).csv())
        .collect();
    cells.join(",")
}

/// The statistics of several runs on one tree as CSV, a row per run ([`columns::CSV`]).
pub fn stats_csv(tree: &Tree, runs: &[&Run]) -> String {
    columns::table(&columns::CSV, &Scope::new(tree), runs).csv()
}
