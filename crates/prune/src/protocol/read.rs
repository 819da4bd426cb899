//! Reading a protocol trace: each line a JSON object, refused at the first one that is not
//! what docs/PROTOCOL.md says, with its line and column (at the offending field when the
//! line is JSON but the field is wrong) and what was expected.
//!
//! Unknown fields are ignored, so an engine may add its own; blank lines are skipped.

use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};

use super::Values;
use super::{
    Bound, Claim, Event, Header, Leaves, Line, MATE_PLIES, Move, PROTOCOL, Path, Selective, Side,
    Trace, VERSION,
};
use crate::format::LoadError;
use crate::format::diag::Diagnostic;

/// Parses a whole trace; `file` is what the user calls it (for the messages).
pub fn parse(file: &str, text: &Arc<str>) -> Result<Trace, LoadError> {
    let mut lines = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l.trim_end_matches(['\n', '\r'])))
        })
        .enumerate()
        .filter(|(_, (_, l))| !l.trim().is_empty());
    let Some((_, (start, first))) = lines.next() else {
        return Err(whole(file, "is empty: expected a header line"));
    };
    let at = Place {
        file,
        text,
        start,
        line: first,
    };
    let header = header(&at, &object(&at, first)?.fields)?;
    let mut events = Vec::new();
    for (i, (start, line)) in lines {
        let at = Place {
            file,
            text,
            start,
            line,
        };
        let event = event(&at, object(&at, line)?)?;
        events.push(Line {
            number: i + 1,
            // What a report quotes: a line longer than a screen is quoted with its middle
            // elided, so a long line is not held twice.
            text: super::elide(line, super::SCREEN),
            event,
        });
    }
    Ok(Trace {
        header,
        lines: events,
    })
}

fn whole(file: &str, message: &str) -> LoadError {
    LoadError::Whole {
        path: file.to_owned(),
        message: message.to_owned(),
    }
}

/// A line being read: where it starts in the file, for the diagnostics' positions.
struct Place<'a> {
    file: &'a str,
    text: &'a Arc<str>,
    start: usize,
    line: &'a str,
}

impl Place<'_> {
    /// A problem at byte `offset` of the line.
    fn at(&self, offset: usize, len: usize, message: String) -> LoadError {
        let from = self.start + offset.min(self.line.len());
        let d = Diagnostic::new(self.file, self.text, from..from + len.max(1), message);
        LoadError::Invalid(Box::new(d))
    }

    /// A problem with field `name`: at its key when the line has it, else at the line's start.
    fn field(&self, name: &str, message: String) -> LoadError {
        let key = format!("\"{name}\"");
        match self.line.find(&key) {
            Some(o) => self.at(o, key.len(), message),
            None => self.at(0, self.line.len(), message),
        }
    }
}

/// The line as a JSON object: only the fields the protocol reads are kept (the others are
/// skipped as they are read, whatever their size), and at most [`MAX_VALUES`] values in all,
/// so a line costs memory in proportion to its length.
fn object(at: &Place<'_>, line: &str) -> Result<Object, LoadError> {
    if !line.trim_start().starts_with('{') {
        return Err(at.at(0, line.len(), "expected a JSON object `{…}`".into()));
    }
    let budget = Cell::new(MAX_VALUES);
    let mut de = serde_json::Deserializer::from_str(line);
    let parsed = Fields(&budget)
        .deserialize(&mut de)
        .and_then(|m| de.end().map(|()| m));
    match parsed {
        Ok(m) => Ok(m),
        Err(e) => {
            let col = e.column().saturating_sub(1);
            Err(at.at(col, 1, format!("not JSON: {e}")))
        }
    }
}

/// The most values (numbers, strings, array elements) one line may hold in the fields read:
/// a path a million moves deep is no search's.
pub const MAX_VALUES: usize = 1 << 20;

/// The protocol's fields, in a header or an event (and the mark of prune's own trace format,
/// for its hint).
const FIELDS: [&str; 20] = [
    "prune_trace",
    "protocol",
    "version",
    "engine",
    "algorithm",
    "values",
    "event",
    "path",
    "alpha",
    "beta",
    "player",
    "depth",
    "key",
    "value",
    "bound",
    "after",
    "leaves",
    "mate",
    "selective",
    "stand_pat",
];

/// A line's object, its known fields parsed within a budget of values.
struct Fields<'b>(&'b Cell<usize>);

/// A line's fields: the path read apart, each label held once and shared.
struct Object {
    fields: Map<String, Json>,
    /// The `path` field: `None` when absent; `Some(None)` when not an array; an element
    /// `None` when it is not a move.
    path: Option<Option<Vec<Option<Move>>>>,
}

impl<'de> DeserializeSeed<'de> for Fields<'_> {
    type Value = Object;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Fields<'_> {
    type Value = Object;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut m = Map::new();
        let mut path = None;
        while let Some(k) = a.next_key::<String>()? {
            if k == "path" {
                path = Some(a.next_value_seed(PathSeed(self.0))?);
            } else if FIELDS.contains(&k.as_str()) {
                let v = a.next_value_seed(Bounded(self.0))?;
                m.insert(k, v);
            } else {
                a.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Object { fields: m, path })
    }
}

/// A `path`, read straight into moves: a label goes from the line to its shared string in
/// one copy (through a JSON string it would take two, and a label may be 100 MiB).
struct PathSeed<'b>(&'b Cell<usize>);

/// Not an array: the caller says what a path is.
fn not_a_path<'de, A: MapAccess<'de>>(mut a: A) -> Result<Option<Vec<Option<Move>>>, A::Error> {
    while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(None)
}

impl<'de> DeserializeSeed<'de> for PathSeed<'_> {
    type Value = Option<Vec<Option<Move>>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PathSeed<'_> {
    type Value = Option<Vec<Option<Move>>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a path: an array of moves")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut moves = Vec::new();
        while let Some(m) = a.next_element_seed(MoveSeed(self.0))? {
            moves.push(m);
        }
        Ok(Some(moves))
    }

    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Self::Value, A::Error> {
        not_a_path(a)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// One move of a path: a label, a position, `null`; anything else is not a move (`None`).
struct MoveSeed<'b>(&'b Cell<usize>);

impl<'de> DeserializeSeed<'de> for MoveSeed<'_> {
    type Value = Option<Move>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MoveSeed<'_> {
    type Value = Option<Move>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a move")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Bounded(self.0).spend()?;
        Ok(Some(Move::Label(v.into())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Bounded(self.0).spend()?;
        Ok(u32::try_from(v).ok().map(Move::Index))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Bounded(self.0).spend()?;
        Ok(u32::try_from(v).ok().map(Move::Index))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Bounded(self.0).spend()?;
        Ok(None)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Bounded(self.0).spend()?;
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Bounded(self.0).spend()?;
        Ok(Some(Move::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_element_seed(Bounded(self.0))?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_key_seed(Bounded(self.0))?.is_some() {
            a.next_value_seed(Bounded(self.0))?;
        }
        Ok(None)
    }
}

/// A JSON value, each scalar and element taken from the budget.
struct Bounded<'b>(&'b Cell<usize>);

impl Bounded<'_> {
    fn spend<E: de::Error>(&self) -> Result<(), E> {
        match self.0.get() {
            0 => Err(E::custom(format!(
                "more than {MAX_VALUES} values in one line (a path a million moves deep is no search's)"
            ))),
            n => {
                self.0.set(n - 1);
                Ok(())
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Bounded<'_> {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        self.spend()?;
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        self.spend()?;
        Ok(Json::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        self.spend()?;
        Ok(Json::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        self.spend()?;
        Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        self.spend()?;
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        self.spend()?;
        Ok(Json::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        self.spend()?;
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
        self.spend()?;
        let mut items = Vec::new();
        while let Some(v) = a.next_element_seed(Bounded(self.0))? {
            items.push(v);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
        self.spend()?;
        let mut m = Map::new();
        while let Some(k) = a.next_key::<String>()? {
            let v = a.next_value_seed(Bounded(self.0))?;
            m.insert(k, v);
        }
        Ok(Json::Object(m))
    }
}

/// A required string field.
fn string<'m>(at: &Place<'_>, m: &'m Map<String, Json>, name: &str) -> Result<&'m str, LoadError> {
    match m.get(name) {
        Some(Json::String(s)) => Ok(s),
        Some(_) => Err(at.field(name, format!("`{name}` must be a string"))),
        None => Err(at.field(name, format!("expected a field `{name}`"))),
    }
}

fn header(at: &Place<'_>, m: &Map<String, Json>) -> Result<Header, LoadError> {
    if m.contains_key("prune_trace") && !m.contains_key("protocol") {
        return Err(at.field(
            "prune_trace",
            "this is prune's own trace format (docs/TRACE.md, keyed by node ids), not the protocol: write it with `--trace-format protocol` (prune run ALGO TREE --trace FILE --trace-format protocol) to check it".into(),
        ));
    }
    if m.get("protocol").and_then(Json::as_str) != Some(PROTOCOL) {
        return Err(at.field(
            "protocol",
            format!("expected a header with \"protocol\":\"{PROTOCOL}\" on the first line"),
        ));
    }
    match m.get("version").and_then(Json::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(at.field(
                "version",
                format!("version {v} is not known: this prune reads version {VERSION}"),
            ));
        }
        None => return Err(at.field("version", format!("expected \"version\":{VERSION}"))),
    }
    let engine = string(at, m, "engine")?.to_owned();
    let algorithm = string(at, m, "algorithm")?.to_owned();
    let claim = Claim::parse(&algorithm).ok_or_else(|| {
        at.field(
            "algorithm",
            format!(
                "unknown algorithm `{algorithm}`: expected one of {}",
                Claim::names().join(", ")
            ),
        )
    })?;
    let values = match string(at, m, "values")? {
        "negamax" => Values::Negamax,
        "minimax" => Values::Minimax,
        other => {
            return Err(at.field(
                "values",
                format!("`{other}`: expected \"negamax\" or \"minimax\""),
            ));
        }
    };
    let leaves = match m.get("leaves") {
        None => Leaves::Tree,
        Some(Json::String(s)) if s == "tree" => Leaves::Tree,
        Some(Json::String(s)) if s == "engine" => Leaves::Engine,
        Some(_) => {
            return Err(at.field(
                "leaves",
                "expected \"tree\" (the leaves carry the tree's values) or \"engine\" (the engine's own evaluation)".into(),
            ));
        }
    };
    let mate = match m.get("mate") {
        None | Some(Json::Null) => None,
        Some(j) => Some(
            number(j)
                .filter(|v| v.is_finite() && *v > MATE_PLIES)
                .ok_or_else(|| {
                    at.field(
                        "mate",
                        format!("expected `mate`: the engine's mate score, a number above {MATE_PLIES} (a game won p plies from the root scores mate − p)"),
                    )
                })?,
        ),
    };
    Ok(Header {
        engine,
        algorithm,
        claim,
        values,
        leaves,
        mate,
    })
}

/// The optional position key: a string (a number is taken as its digits).
fn key(at: &Place<'_>, m: &Map<String, Json>) -> Result<Option<String>, LoadError> {
    match m.get("key") {
        None => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.clone())),
        Some(Json::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(at.field("key", "expected a string".into())),
    }
}

fn event(at: &Place<'_>, object: Object) -> Result<Event, LoadError> {
    let moves = object.path;
    let fields = object.fields;
    let m = &fields;
    let name = string(at, m, "event")?;
    let mut moves = Some(moves);
    let mut path = |_: &Map<String, Json>| path(at, moves.take().flatten());
    Ok(match name {
        "enter" => Event::Enter {
            path: path(m)?,
            alpha: window_end(at, m, "alpha", f64::NEG_INFINITY)?,
            beta: window_end(at, m, "beta", f64::INFINITY)?,
            player: match m.get("player") {
                None => None,
                Some(Json::String(s)) if s == "max" => Some(Side::Max),
                Some(Json::String(s)) if s == "min" => Some(Side::Min),
                Some(_) => {
                    return Err(at.field("player", "expected \"max\" or \"min\"".into()));
                }
            },
            depth: optional_depth(at, m)?,
            key: key(at, m)?,
            selective: selective(at, m)?,
            stand_pat: match m.get("stand_pat") {
                None | Some(Json::Null) => None,
                Some(j) => Some(number(j).ok_or_else(|| {
                    at.field("stand_pat", "expected `stand_pat`: a number".into())
                })?),
            },
        },
        "leaf" => Event::Leaf {
            path: path(m)?,
            value: value(at, m, "value")?,
            depth: optional_depth(at, m)?,
            key: key(at, m)?,
            selective: selective(at, m)?,
        },
        "exit" => Event::Exit {
            path: path(m)?,
            value: value(at, m, "value")?,
            bound: bound(at, m)?,
        },
        "cutoff" => Event::Cutoff {
            path: path(m)?,
            after: match m.get("after") {
                Some(j) => step(j).ok_or_else(|| {
                    at.field(
                        "after",
                        "expected a move: a label (string), a position (number from 0) or null (the null move)".into(),
                    )
                })?,
                None => return Err(at.field("after", "expected a field `after`".into())),
            },
        },
        "tt-hit" => Event::TtHit {
            path: path(m)?,
            value: value(at, m, "value")?,
            bound: bound(at, m)?,
            depth: optional_depth(at, m)?,
            key: key(at, m)?,
        },
        "iteration" => Event::Iteration {
            depth: optional_count(at, m, "depth")?
                .ok_or_else(|| at.field("depth", "expected a field `depth`".into()))?,
        },
        other => {
            return Err(at.field(
                "event",
                format!(
                    "unknown event `{other}`: expected enter, leaf, exit, cutoff, tt-hit or iteration"
                ),
            ));
        }
    })
}

/// A path element: a label (string), a position (a whole number from 0), or `null`, the
/// null move.
fn step(j: &Json) -> Option<Move> {
    match j {
        Json::Null => Some(Move::Null),
        Json::String(s) => Some(Move::Label(s.as_str().into())),
        Json::Number(n) => n
            .as_u64()
            .and_then(|i| u32::try_from(i).ok())
            .map(Move::Index),
        _ => None,
    }
}

fn path(at: &Place<'_>, moves: Option<Option<Vec<Option<Move>>>>) -> Result<Path, LoadError> {
    let expected = "expected `path`: an array of moves, labels (strings), positions (numbers from 0) or null (the null move)";
    moves
        .flatten()
        .and_then(|ms| ms.into_iter().collect::<Option<Path>>())
        .ok_or_else(|| at.field("path", expected.into()))
}

/// A number, or `"inf"`/`"-inf"`.
fn number(j: &Json) -> Option<f64> {
    match j {
        Json::Number(n) => n.as_f64(),
        Json::String(s) if s == "inf" => Some(f64::INFINITY),
        Json::String(s) if s == "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

fn value(at: &Place<'_>, m: &Map<String, Json>, name: &str) -> Result<f64, LoadError> {
    m.get(name)
        .and_then(number)
        .ok_or_else(|| at.field(name, format!("expected `{name}`: a number")))
}

/// A window's end: a number, or `null` (or absent) for `infinite`.
fn window_end(
    at: &Place<'_>,
    m: &Map<String, Json>,
    name: &str,
    infinite: f64,
) -> Result<f64, LoadError> {
    match m.get(name) {
        None | Some(Json::Null) => Ok(infinite),
        Some(j) => number(j).ok_or_else(|| {
            at.field(
                name,
                format!("expected `{name}`: a number, or null for an infinite end"),
            )
        }),
    }
}

fn bound(at: &Place<'_>, m: &Map<String, Json>) -> Result<Bound, LoadError> {
    match m.get("bound").and_then(Json::as_str) {
        Some("exact") => Ok(Bound::Exact),
        Some("lower") => Ok(Bound::Lower),
        Some("upper") => Ok(Bound::Upper),
        _ => Err(at.field(
            "bound",
            "expected `bound`: \"exact\", \"lower\" or \"upper\"".into(),
        )),
    }
}

/// The optional `depth` of a node: a whole number, negative in a quiescence search.
fn optional_depth(at: &Place<'_>, m: &Map<String, Json>) -> Result<Option<i32>, LoadError> {
    match m.get("depth") {
        None => Ok(None),
        Some(j) => j
            .as_i64()
            .and_then(|d| i32::try_from(d).ok())
            .map(Some)
            .ok_or_else(|| at.field("depth", "expected `depth`: a whole number".into())),
    }
}

/// The optional `selective` step an `enter` or a `leaf` declares.
fn selective(at: &Place<'_>, m: &Map<String, Json>) -> Result<Option<Selective>, LoadError> {
    match m.get("selective") {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) if Selective::parse(s).is_some() => Ok(Selective::parse(s)),
        Some(_) => Err(at.field(
            "selective",
            "expected `selective`: \"reduced\", \"extended\", \"quiescence\" or \"null-move\""
                .into(),
        )),
    }
}

fn optional_count(
    at: &Place<'_>,
    m: &Map<String, Json>,
    name: &str,
) -> Result<Option<u32>, LoadError> {
    match m.get(name) {
        None => Ok(None),
        Some(j) => j
            .as_u64()
            .and_then(|d| u32::try_from(d).ok())
            .map(Some)
            .ok_or_else(|| at.field(name, format!("expected `{name}`: a whole number from 0"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Trace, String> {
        parse("t.jsonl", &Arc::from(text)).map_err(|e| e.to_string())
    }

    const HEADER: &str = r#"{"protocol":"prune-trace","version":1,"engine":"e","algorithm":"negamax-fail-hard","values":"negamax"}"#;

    #[test]
    fn reads_events_with_their_lines() {
        let t = read(&format!(
            "{HEADER}\n{}\n\n{}\n",
            r#"{"event":"enter","path":[],"alpha":null,"beta":3}"#,
            r#"{"event":"cutoff","path":["e4",1],"after":"x"}"#
        ))
        .expect("trace");
        assert_eq!(t.header.claim, Claim::FailHard);
        assert_eq!(t.header.values, Values::Negamax);
        assert_eq!(t.lines[1].number, 4);
        assert_eq!(
            t.lines[1].event,
            Event::Cutoff {
                path: vec![Move::Label("e4".into()), Move::Index(1)],
                after: Move::Label("x".into())
            }
        );
        match &t.lines[0].event {
            Event::Enter { alpha, beta, .. } => {
                assert_eq!((*alpha, *beta), (f64::NEG_INFINITY, 3.0))
            }
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn refuses_with_line_column_and_what_was_expected() {
        let bad = |line: &str| read(&format!("{HEADER}\n{line}\n")).expect_err(line);
        assert_eq!(
            bad(r#"{"event":"exit","path":[],"value":3,"bound":"exakt"}"#),
            "t.jsonl:2:37: expected `bound`: \"exact\", \"lower\" or \"upper\""
        );
        assert!(
            bad(r#"{"event":"leaf","path":[-1],"value":3}"#)
                .starts_with("t.jsonl:2:17: expected `path`")
        );
        assert!(bad(r#"{"event":"leaf","path":[],"value":3"#).starts_with("t.jsonl:2:"));
        assert!(bad(r#"{"event":"jump","path":[]}"#).contains("unknown event `jump`"));
        let header = read(r#"{"protocol":"prune-trace","version":1,"engine":"e","algorithm":"bogo","values":"minimax"}"#)
            .expect_err("algorithm");
        assert!(
            header.starts_with("t.jsonl:1:52: unknown algorithm `bogo`"),
            "{header}"
        );
        assert!(read("").expect_err("empty").contains("header"));
    }
}
