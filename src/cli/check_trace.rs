//! `prune check-trace`: an engine's trace (docs/PROTOCOL.md) judged by the rules of the
//! algorithm it claims, and, with the game it searched, against prune's textbook search.
//!
//! Exit 0 when consistent, 1 at the first departure (reported on stdout), 2 on bad input.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value as Json, json};

use super::{CliError, GameFlags, STDIN, load_file, print};
use prune::format;
use prune::protocol::check::{self, Departure, Report, num};
use prune::protocol::compare::{self, Textbook};
use prune::protocol::{SCREEN, Trace, elide, path_text, read, write};
use prune::tree::Tree;

#[derive(Debug, Args)]
pub struct CheckTraceArgs {
    /// The engine's trace, JSON Lines in the protocol of docs/PROTOCOL.md; `-` for stdin.
    #[arg(value_name = "ENGINE.jsonl")]
    pub trace: PathBuf,
    #[command(flatten)]
    pub game: GameSource,
    /// Print one JSON object: consistent, the departure (path, did, requires, lines), the
    /// tree's verdict and both root values.
    #[arg(long)]
    pub json: bool,
}

/// What the engine searched, when the user says: the moves resolve in it, its leaves are the
/// truth, and prune's textbook search runs on it: a tree file, or a game written out from its
/// rules to a depth (its tree must fit: the engine's search is checked against all of it).
#[derive(Debug, Args)]
pub struct GameSource {
    /// The tree the engine searched (RON, .efg or bracket notation).
    #[arg(long, value_name = "FILE", conflicts_with = "game")]
    pub tree: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameFlags,
    /// With --game: the depth the engine searched to (positions there valued by the game's
    /// heuristic); the whole game when absent (nim, pig).
    #[arg(long, value_name = "D", requires = "game")]
    pub depth: Option<u32>,
}

impl GameSource {
    /// The game, if one was given.
    fn load(&self) -> Result<Option<Tree>, CliError> {
        if self.game.game.is_some() {
            return super::game_run::written_out(&self.game, self.depth).map(Some);
        }
        match &self.tree {
            Some(path) => Ok(Some(load_file(path, None)?)),
            None => Ok(None),
        }
    }
}

/// Everything the check found, for the text and the JSON reports.
pub(super) struct Verdict {
    pub(super) trace: Trace,
    report: Report,
    /// The first departure, from the rules, the tree or the textbook search.
    pub(super) departure: Option<Departure>,
    textbook: Option<Textbook>,
}

pub fn run(a: &CheckTraceArgs) -> Result<(), CliError> {
    let name = if a.trace.as_os_str() == "-" {
        STDIN.to_owned()
    } else {
        a.trace.display().to_string()
    };
    let trace = read_trace(&name, &a.trace)?;
    let tree = a.game.load()?;
    let verdict = judge(trace, tree.as_ref())?;
    if a.json {
        let text = serde_json::to_string_pretty(&json_report(&name, &verdict))
            .map_err(|e| CliError::Internal(e.to_string()))?;
        print(&(prune::text::json_safe(text) + "\n"))?;
    } else {
        print(&text_report(&name, &verdict))?;
    }
    match verdict.departure {
        Some(_) => Err(CliError::Departed),
        None => Ok(()),
    }
}

/// The trace judged by its claim's rules, and with the tree by the tree and the textbook
/// search: the first departure of all (`prune tui --import` opens the explorer there).
pub(super) fn judge(trace: Trace, tree: Option<&Tree>) -> Result<Verdict, CliError> {
    let report = check::check(&trace);
    let mut departure = report.departure.clone();
    let mut textbook = None;
    if let Some(tree) = tree {
        // The rules' departure and the tree's are both real: the earlier line is the first.
        if let Some(d) = compare::against_tree(tree, &trace) {
            if departure.as_ref().is_none_or(|r| d.at() < r.at()) {
                departure = Some(d);
            }
        }
        let t = compare::textbook(tree, &trace).map_err(CliError::usage)?;
        if departure.is_none() {
            departure = t.difference.clone();
        }
        textbook = Some(t);
    }
    Ok(Verdict {
        trace,
        report,
        departure,
        textbook,
    })
}

pub(super) fn read_trace(name: &str, path: &Path) -> Result<Trace, CliError> {
    let text = format::read_input(name, path)?;
    Ok(read::parse(name, &text)?)
}

fn text_report(name: &str, v: &Verdict) -> String {
    let h = &v.trace.header;
    let mut out = format!(
        "{name}: {} ({} values) by {}: {} events, {} nodes entered, {} leaves\n",
        h.algorithm,
        h.values.name(),
        h.engine,
        v.trace.lines.len(),
        count(&v.trace, "enter"),
        count(&v.trace, "leaf")
    );
    match &v.departure {
        None => {
            out += &format!(
                "consistent: every event follows {}'s rules\n",
                h.claim.name()
            );
            if let Some(t) = &v.textbook {
                out += &textbook_line(h.claim.name(), t);
            }
        }
        Some(d) => {
            out += &format!("departure at {}\n", path_text(&d.path));
            out += &format!("  the engine   {}\n", d.did);
            out += &format!("  the rule     {}\n", d.requires);
            out += "  proof\n";
            for l in &d.lines {
                if let Some(line) = v.trace.lines.iter().find(|x| x.number == *l) {
                    out += &format!("    {name}:{l}: {}\n", elide(&line.text, SCREEN));
                }
            }
        }
    }
    if let Some(t) = &v.textbook {
        let engine = v.report.root.map_or("not reached".into(), |(x, b)| {
            format!("{}{}", b.symbol(), num(x))
        });
        let theirs = t.run.value.scalar().map_or("none".into(), |x| {
            format!("{}{}", t.run.bound.symbol(), num(x))
        });
        out += &format!("root value: engine {engine}, textbook {theirs} (Max's point of view)\n");
    }
    crate::cli::message_safe(&out).into_owned()
}

/// What the engine did beside the textbook search: its visits and table answers, and the
/// visits of prune's run (in the tree's order, without a table) they stand for.
fn textbook_line(claim: &str, t: &Textbook) -> String {
    let did = format!(
        "{} visit{}{}",
        t.engine_visits,
        if t.engine_visits == 1 { "" } else { "s" },
        match t.answers {
            0 => String::new(),
            1 => " and 1 table answer".into(),
            a => format!(" and {a} table answers"),
        }
    );
    let stand = if t.engine_visits + t.answers == 1 {
        "stands"
    } else {
        "stand"
    };
    let leaves = match t.engine_leaves {
        None => "leaves agree".to_owned(),
        Some((known, 0)) => format!(
            "the engine scores its own leaves (\"leaves\":\"engine\"), and the {known} the tree has agree with it"
        ),
        Some((known, differ)) => format!(
            "the engine scores its own leaves (\"leaves\":\"engine\"): {differ} of the {known} the tree has differ from it, and the comparison replays the engine's values"
        ),
    };
    let selective = match t.selective {
        0 => String::new(),
        1 => "; 1 selective step (reductions, extensions, quiescence, null moves) taken at the engine's word".into(),
        k => format!("; {k} selective steps (reductions, extensions, quiescence, null moves) taken at the engine's word"),
    };
    match &t.not_compared {
        Some(why) => format!(
            "the tree: {leaves}; the visits are not lined up with textbook {claim}'s ({why}); the engine's {did} {stand} for its {}{selective}\n",
            t.visits
        ),
        None => format!(
            "the tree: {leaves}; textbook {claim}, replayed in the engine's move order, agrees: {did} {stand} for the textbook's {}{selective}\n",
            t.visits
        ),
    }
}

/// Events of one kind in the whole trace (the check stops at a departure).
fn count(trace: &Trace, event: &str) -> usize {
    trace
        .lines
        .iter()
        .filter(|l| l.event.name() == event)
        .count()
}

fn json_report(name: &str, v: &Verdict) -> Json {
    let h = &v.trace.header;
    let departure = v.departure.as_ref().map(|d| {
        let lines: Vec<Json> = d
            .lines
            .iter()
            .filter_map(|l| v.trace.lines.iter().find(|x| x.number == *l))
            .map(|l| json!({"line": l.number, "text": l.text}))
            .collect();
        json!({
            "path": write::path_json(&d.path),
            "path_text": path_text(&d.path),
            "did": d.did,
            "requires": d.requires,
            "lines": lines,
        })
    });
    let mut out = json!({
        "file": name,
        "engine": h.engine,
        "algorithm": h.claim.name(),
        "values": h.values.name(),
        "events": v.trace.lines.len(),
        "entered": count(&v.trace, "enter"),
        "leaves": count(&v.trace, "leaf"),
        "consistent": v.departure.is_none(),
        "departure": departure,
        "root_value": v.report.root.map(|(x, _)| write::value_json(x)),
        "root_bound": v.report.root.map(|(_, b)| write::bound_name(b)),
    });
    if let Some(t) = &v.textbook {
        out["textbook"] = json!({
            "value": t.run.value.scalar().map(write::value_json),
            "bound": write::bound_name(t.run.bound),
            "visits": t.visits,
            "engine_visits": t.engine_visits,
            "table_answers": t.answers,
            "selective_steps": t.selective,
            "engine_leaves": t.engine_leaves.map(|(known, differ)| json!({"known": known, "differ": differ})),
            "not_compared": t.not_compared,
        });
    }
    out
}
