//! Writing what a search did: the trace as JSON Lines, statistics as CSV, the searched tree as
//! Graphviz DOT. The JSON Lines schema is documented in `docs/TRACE.md`; keep the two in step.
//!
//! Writers take any `io::Write` and stream, so a 10^7-event trace never exists as one string.

use std::io::{self, Write};

use serde::{Serialize, Serializer};

use crate::search::{Bound, Run, Value};
use crate::text::number_text;
use crate::tree::{Kind, NodeId, Tree};

use super::columns::{self, Scope, bound_name};
use super::{EventView, Replay, Status, Trace};

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

/// Colours of the DOT picture (Graphviz X11 names).
const VISITED: &str = "lightblue";
const PRUNED: &str = "gray85";
const UNREACHED: &str = "white";
const PV: &str = "red";

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tree after the whole `trace`, as Graphviz DOT: visited nodes filled blue with their
/// values, pruned subtrees drawn as one grey dashed box "✂ n nodes" under the node whose cutoff
/// pruned them, unreached ones white, the principal variation in bold red.
pub fn write_dot(out: &mut dyn Write, tree: &Tree, run: &Run, trace: &Trace) -> io::Result<()> {
    let replay = Replay::new(tree, trace);
    let states = replay.states(trace.len());
    let sizes = tree.subtree_sizes();
    let mut on_pv = vec![false; tree.len()];
    for &n in &run.pv {
        on_pv[n.index()] = true;
    }
    writeln!(out, "digraph \"{}\" {{", dot_escape(&run.algorithm.label()))?;
    writeln!(
        out,
        "  label=\"{} on {}\"; labelloc=t;",
        dot_escape(&run.algorithm.label()),
        dot_escape(&tree.meta().name)
    )?;
    writeln!(
        out,
        "  node [fontname=\"Helvetica\", style=filled, fillcolor={UNREACHED}];"
    )?;
    writeln!(out, "  edge [arrowhead=none];")?;
    // Preorder, skipping below the first pruned node of each pruned subtree.
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        let st = &states[id.index()];
        let collapsed = st.status == Status::Pruned && tree.child_count(id) > 0;
        let shape = match tree.kind(id) {
            Kind::Max | Kind::Player(_) => "triangle",
            Kind::Min => "invtriangle",
            Kind::Chance => "circle",
            Kind::Leaf => "box",
        };
        // Escaped piece by piece: the line break `\n` is DOT's own escape.
        let mut text = match tree.label(id) {
            Some(l) => format!("{} {}", tree.kind(id).glyph(), dot_escape(l)),
            None => tree.kind(id).glyph(),
        };
        if collapsed {
            text = format!("✂ {} nodes", sizes[id.index()]);
        } else if let Some(v) = node_value(tree, trace, id, st) {
            text.push_str(&format!("\\n{}", dot_escape(&v)));
        }
        let (fill, style) = match st.status {
            Status::Done | Status::Open => (VISITED, "filled"),
            Status::Pruned => (PRUNED, "filled,dashed"),
            Status::NotReached => (UNREACHED, "filled,dotted"),
        };
        let shape = if collapsed { "box" } else { shape };
        let pv = if on_pv[id.index()] {
            format!(", color={PV}, penwidth=3")
        } else {
            String::new()
        };
        writeln!(
            out,
            "  n{} [label=\"{text}\", shape={shape}, fillcolor={fill}, style=\"{style}\"{pv}];",
            id.0
        )?;
        if let Some(p) = tree.parent(id) {
            let mut attrs = Vec::new();
            if tree.kind(p) == Kind::Chance && !tree.is_uniform(p) {
                attrs.push(format!("label=\"{}\"", number_text(tree.prob(id))));
            }
            if on_pv[id.index()] && on_pv[p.index()] {
                attrs.push(format!("color={PV}, penwidth=3"));
            }
            if st.status == Status::Pruned {
                attrs.push("style=dashed".into());
            }
            let attrs = if attrs.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attrs.join(", "))
            };
            writeln!(out, "  n{} -> n{}{attrs};", p.0, id.0)?;
        }
        if !collapsed {
            let kids: Vec<NodeId> = tree.children(id).collect();
            stack.extend(kids.into_iter().rev());
        }
    }
    writeln!(out, "}}")
}

fn node_value(tree: &Tree, trace: &Trace, id: NodeId, st: &super::NodeState) -> Option<String> {
    use super::replay::Shown;
    let mark = match st.bound {
        Bound::Exact => "",
        Bound::Lower => "≥",
        Bound::Upper => "≤",
    };
    let text = match st.value? {
        Shown::Scalar(x) => number_text(x),
        Shown::Vector(i) => Value::Vector(trace.vector(i).to_vec()).to_string(),
        Shown::Payoff => Value::Vector(tree.payoff(id).to_vec()).to_string(),
    };
    Some(format!("{mark}{text}"))
}
