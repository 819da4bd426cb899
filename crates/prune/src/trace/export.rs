//! Writing what a search did: the trace as JSON Lines, statistics as CSV. The JSON Lines schema
//! is documented in `docs/TRACE.md`; keep the two in step. (Pictures of the searched tree,
//! DOT included, are [`crate::draw`]'s.)
//!
//! Writers take any `io::Write` and stream, so a 10^7-event trace never exists as one string.

use std::io::{self, Write};

use serde::{Serialize, Serializer};

use crate::search::{Run, Value};
use crate::text::number_text;
use crate::tree::Tree;

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

/// Writes `trace` of `run` on `tree` as JSON Lines: a header object, then one object per event.
/// Event lines are written by hand into one reused buffer (serde's map machinery for the
/// flattened fields cost more than the bytes); the test below holds them to the serde
/// structures they replaced, byte for byte.
pub fn write_jsonl(out: &mut dyn Write, tree: &Tree, run: &Run, trace: &Trace) -> io::Result<()> {
    const CHUNK: usize = 1 << 16;
    let mut buf = Vec::with_capacity(CHUNK + 4096);
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
    let header = serde_json::to_string(&header)?;
    buf.extend_from_slice(crate::text::json_safe(header).as_bytes());
    buf.push(b'\n');
    for (step, e) in trace.events().iter().enumerate() {
        push_line(&mut buf, tree, trace, step, &e.view());
        buf.push(b'\n');
        if buf.len() >= CHUNK {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    out.flush()
}

/// One event as a JSON object (no newline).
pub fn event_json(tree: &Tree, trace: &Trace, step: usize, e: &EventView) -> String {
    let mut buf = Vec::new();
    push_line(&mut buf, tree, trace, step, e);
    String::from_utf8(buf).expect("JSON is UTF-8")
}

/// Appends one event line (docs/TRACE.md): `step`, `event`, `node`, `label` when the node has
/// one, then the fields of the event's kind.
fn push_line(b: &mut Vec<u8>, tree: &Tree, trace: &Trace, step: usize, e: &EventView) {
    let node = e.node();
    let mut digits = itoa::Buffer::new();
    b.extend_from_slice(b"{\"step\":");
    b.extend_from_slice(digits.format(step).as_bytes());
    b.extend_from_slice(b",\"event\":");
    push_str(b, e.name());
    b.extend_from_slice(b",\"node\":");
    b.extend_from_slice(digits.format(node.0).as_bytes());
    if let Some(l) = tree.label(node) {
        b.extend_from_slice(b",\"label\":");
        push_str(b, l);
    }
    let field = |b: &mut Vec<u8>, name: &str| {
        b.extend_from_slice(b",\"");
        b.extend_from_slice(name.as_bytes());
        b.extend_from_slice(b"\":");
    };
    let mut integer = |b: &mut Vec<u8>, x: u32| b.extend_from_slice(digits.format(x).as_bytes());
    match *e {
        EventView::Enter { alpha, beta, .. } | EventView::Research { alpha, beta, .. } => {
            field(b, "alpha");
            push_number(b, alpha);
            field(b, "beta");
            push_number(b, beta);
            if let EventView::Research {
                aspiration: true, ..
            } = e
            {
                field(b, "aspiration");
                b.extend_from_slice(b"true");
            }
        }
        EventView::Iteration { depth } => {
            field(b, "depth");
            integer(b, depth);
        }
        EventView::TableHit {
            value, bound, cut, ..
        } => {
            field(b, "value");
            push_number(b, value);
            field(b, "bound");
            push_str(b, bound_name(bound));
            field(b, "cut");
            b.extend_from_slice(if cut { b"true" } else { b"false" });
        }
        EventView::Leaf { node, value } => {
            field(b, "value");
            if value.is_nan() {
                push_numbers(b, tree.payoff(node));
            } else {
                push_number(b, value);
            }
        }
        EventView::ChanceBounds { child, a, b: hi } => {
            field(b, "parent");
            integer(b, tree.parent(child).map_or(0, |p| p.0));
            field(b, "a");
            push_number(b, a);
            field(b, "b");
            push_number(b, hi);
        }
        EventView::Probe { child } => {
            field(b, "parent");
            integer(b, tree.parent(child).map_or(0, |p| p.0));
        }
        EventView::Cutoff {
            after,
            rank,
            skipped,
            kind,
            ..
        } => {
            field(b, "after");
            integer(b, after);
            if rank != after {
                field(b, "rank");
                integer(b, rank);
            }
            field(b, "skipped");
            integer(b, skipped);
            field(b, "kind");
            push_str(b, kind.name());
        }
        EventView::Exit { value, bound, .. } => {
            field(b, "value");
            push_number(b, value);
            field(b, "bound");
            push_str(b, bound_name(bound));
        }
        EventView::ExitVector { index, bound, .. } => {
            field(b, "value");
            push_numbers(b, trace.vector(index));
            field(b, "bound");
            push_str(b, bound_name(bound));
        }
        EventView::Fallback { .. } => {}
    }
    b.push(b'}');
}

/// A JSON string, escaped by serde_json.
fn push_str(b: &mut Vec<u8>, s: &str) {
    if s.chars().any(crate::text::is_unsafe_char) {
        let quoted = serde_json::to_string(s).expect("a string serialises");
        b.extend_from_slice(crate::text::json_safe(quoted).as_bytes());
    } else {
        serde_json::to_writer(b, s).expect("a string serialises into memory");
    }
}

/// A number as [`Num`] serialises it: integers below 10^15 through `itoa`, other finite numbers
/// through serde_json (`ryu`), ±∞ as strings, NaN as `null`.
fn push_number(b: &mut Vec<u8>, x: f64) {
    if x.is_nan() {
        b.extend_from_slice(b"null");
    } else if x.is_infinite() {
        b.extend_from_slice(if x > 0.0 { b"\"inf\"" } else { b"\"-inf\"" });
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        b.extend_from_slice(itoa::Buffer::new().format(x as i64).as_bytes());
    } else {
        serde_json::to_writer(b, &x).expect("a number serialises into memory");
    }
}

/// An array of numbers, as [`Val::Vector`] serialises it.
fn push_numbers(b: &mut Vec<u8>, xs: &[f64]) {
    b.push(b'[');
    for (i, &x) in xs.iter().enumerate() {
        if i > 0 {
            b.push(b',');
        }
        push_number(b, x);
    }
    b.push(b']');
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

#[cfg(test)]
mod tests {
    //! The event lines as serde wrote them before `push_line`: the reference the hand-written
    //! lines must match byte for byte.

    use super::*;
    use crate::format::parse_expr;
    use crate::search::Algorithm;
    use crate::trace::record;
    use crate::tree::NodeId;

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
            #[serde(skip_serializing_if = "Option::is_none")]
            aspiration: Option<bool>,
        },
        Iteration {
            depth: u32,
        },
        TableHit {
            value: Num,
            bound: &'static str,
            cut: bool,
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
            #[serde(skip_serializing_if = "Option::is_none")]
            rank: Option<u32>,
            skipped: u32,
            kind: &'static str,
        },
        Exit {
            value: Val<'a>,
            bound: &'static str,
        },
        Nothing {},
    }

    fn line<'a>(tree: &'a Tree, trace: &'a Trace, step: usize, e: &EventView) -> Line<'a> {
        let (name, node) = (e.name(), e.node());
        let parent = |child: NodeId| tree.parent(child).map_or(0, |p| p.0);
        let fields = match *e {
            EventView::Enter { alpha, beta, .. } => Fields::Window {
                alpha: Num(alpha),
                beta: Num(beta),
                aspiration: None,
            },
            EventView::Research {
                alpha,
                beta,
                aspiration,
                ..
            } => Fields::Window {
                alpha: Num(alpha),
                beta: Num(beta),
                aspiration: aspiration.then_some(true),
            },
            EventView::Iteration { depth } => Fields::Iteration { depth },
            EventView::TableHit {
                value, bound, cut, ..
            } => Fields::TableHit {
                value: Num(value),
                bound: bound_name(bound),
                cut,
            },
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
                rank,
                skipped,
                kind,
                ..
            } => Fields::Cutoff {
                after,
                rank: (rank != after).then_some(rank),
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

    /// Compares every line of `spec`'s trace on `tree`; false when `spec` refuses the tree.
    fn check(tree: &Tree, spec: &str) -> bool {
        let algo = Algorithm::parse(spec, &Default::default()).expect("algorithm");
        let Ok((_, trace)) = record(tree, &algo, &Default::default()) else {
            return false;
        };
        assert!(!trace.is_empty());
        for (step, e) in trace.events().iter().enumerate() {
            let e = e.view();
            let reference = serde_json::to_string(&line(tree, &trace, step, &e)).expect("serde");
            assert_eq!(
                event_json(tree, &trace, step, &e),
                reference,
                "{spec} step {step}"
            );
        }
        true
    }

    #[test]
    fn hand_written_lines_match_serde() {
        let scalar = [
            "((3,12,8),(2,4,6),(14,5,2))",
            "(a=(x=3.25,\"q\\\"uo\\\\te\"=-12.5,0),b=(-0,1e300,0.1),c=(1e-7,1e15,-999999999999999))",
            "*(0.5:(3,-1.5),0.25:(2,4),0.25:+(8.125,9))",
            "*(*(1,2,3),*(4,0.3333333333333333,6))",
        ];
        for expr in scalar {
            let tree = parse_expr(expr, false).expect("tree");
            let specs = [
                "minimax",
                "alphabeta",
                "negascout",
                "expectiminimax",
                "star1",
                "star2",
            ];
            let ran = specs.iter().filter(|s| check(&tree, s)).count();
            assert!(ran >= 2, "{expr}: {ran} runs");
        }
        let players =
            parse_expr("@1(@2([1,2,3],[4.5,0,1e20]),@2([0,0,7],x=[1,1,1]))", false).expect("tree");
        assert!(check(&players, "maxn") && check(&players, "paranoid"));
        // Runs that order children at search time: table hits, iterations, ranked cutoffs and
        // aspiration failures.
        let game = crate::generate::game::generate(&crate::generate::game::GameSpec::TicTacToe {
            depth: Some(4),
        })
        .expect("tic-tac-toe");
        for spec in [
            "alphabeta:tt:id:killers",
            "negascout:tt:history",
            "mtdf:tt:id",
            "alphabeta:id:aspiration=0.05",
        ] {
            assert!(check(&game, spec), "{spec}");
        }
    }
}
