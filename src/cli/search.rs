//! `prune run`, `prune compare` and `prune algos`: searching from the command line.

use std::cell::OnceCell;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, value_parser};
use serde_json::{Value as Json, json};

use super::experiment::OutputFormat;
use super::{
    CliError, Offered, TreeSource, algorithm_names, print, refuse_output_over_input, write_output,
};
use prune::analyze;
use prune::protocol;
use prune::report::{Cell, Column, Table, col};
use prune::search::{
    self, ALGORITHMS, Algorithm, Cutoff, PARAMS, Param, ParamKind, ParamSpec, Params, Ratios,
    References, Run, Value,
};
use prune::text::terminal_safe;
use prune::trace::columns::{self, Scope, StatColumn};
use prune::trace::{Trace, export};
use prune::tree::names::move_name;
use prune::tree::{NodeId, Tree};

/// The algorithms' parameters as flags, built from the parameter table [`PARAMS`]: each flag's
/// name, placeholder and default are its parameter's, and its help is the parameter's line
/// after the algorithms that take it ([`flag_help`]), so nothing about a parameter is typed here.
#[derive(Debug, Clone)]
pub struct ParamArgs {
    /// Each parameter with a value (given, or its default), as text for the table to check.
    texts: Vec<(&'static ParamSpec, String)>,
    /// The parameters given on the command line.
    given: Vec<Param>,
}

/// A parameter's flag. The whole numbers and k stay text for the table's one check, as it
/// checks `star2:probes=K` (clap's u32 would take other ranges and spellings, its f64 no `∞`);
/// a finite real is read by clap, whose message names a non-number. A negative number is a
/// value where the table refuses it with its range or a guess may be one; before `--k` and
/// `--aspiration` it stays an unknown flag, as clap reads one.
fn flag(spec: &'static ParamSpec) -> Arg {
    let arg = Arg::new(spec.key)
        .long(spec.key)
        .help(flag_help(spec.param));
    let arg = match spec.kind {
        ParamKind::Toggle => return arg.action(ArgAction::SetTrue),
        ParamKind::Whole { .. } => arg
            .value_parser(value_parser!(String))
            .allow_negative_numbers(true),
        ParamKind::Real { infinite: true, .. } => arg.value_parser(value_parser!(String)),
        ParamKind::Real {
            infinite: false, ..
        } => arg.value_parser(value_parser!(f64)),
        ParamKind::OptionalReal => arg
            .value_parser(value_parser!(f64))
            .allow_negative_numbers(true),
    };
    let arg = arg.value_name(spec.placeholder).action(ArgAction::Set);
    if spec.default.is_empty() {
        arg
    } else {
        arg.default_value(spec.default)
    }
}

/// A parameter flag's help: the algorithms that take it, from the catalogue, then its line of
/// help (`alphabeta, negascout, mtdf: iterative deepening …`), so neither is typed twice.
fn flag_help(param: Param) -> String {
    let spec = search::find_param(param);
    format!(
        "{}: {}.",
        search::catalogue::taking(param).join(", "),
        spec.help
    )
}

impl Args for ParamArgs {
    fn augment_args(cmd: Command) -> Command {
        cmd.args(PARAMS.iter().map(flag))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for ParamArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut texts = Vec::new();
        let mut given = Vec::new();
        for spec in PARAMS {
            let text = match spec.kind {
                ParamKind::Toggle => m.get_flag(spec.key).then(|| "true".to_owned()),
                ParamKind::Real {
                    infinite: false, ..
                }
                | ParamKind::OptionalReal => m.get_one::<f64>(spec.key).map(f64::to_string),
                ParamKind::Whole { .. } | ParamKind::Real { .. } => {
                    m.get_one::<String>(spec.key).cloned()
                }
            };
            if let Some(text) = text {
                texts.push((spec, text));
            }
            if m.value_source(spec.key) == Some(ValueSource::CommandLine) {
                given.push(spec.param);
            }
        }
        Ok(ParamArgs { texts, given })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl ParamArgs {
    /// The flags' values, each checked by its parameter's description in the catalogue.
    pub(crate) fn params(&self) -> Result<Params, CliError> {
        let mut p = Params::default();
        for (spec, text) in &self.texts {
            // The catalogue's message spells the inline form (`ALGO:depth=D`), which
            // names an algorithm a flag does not have.
            if text.trim().is_empty() {
                return Err(CliError::Usage(format!(
                    "--{key} needs a value: `--{key}={placeholder}`",
                    key = spec.key,
                    placeholder = spec.placeholder
                )));
            }
            p.set(spec, "", Some(text))
                .map_err(|e| CliError::Usage(format!("--{}: {e}", spec.key)))?;
        }
        Ok(p)
    }

    /// Whether `param`'s flag was given on the command line.
    fn given(&self, param: Param) -> bool {
        self.given.contains(&param)
    }
}

#[derive(Debug, Args)]
// clap lists the tree's group before the positional algorithm; the algorithm comes first.
#[command(
    override_usage = "prune run [OPTIONS] <ALGO> <FILE|--expr <TREE>|--gen <FAMILY ARGS…>|--game <NAME>>"
)]
pub struct RunArgs {
    /// The algorithm (see `prune algos`); parameters inline work too: `star2:probes=2`.
    #[arg(
        value_name = "ALGO",
        value_parser = Offered::checked(algorithm_names, known_algorithm),
        hide_possible_values = true
    )]
    pub algorithm: String,
    #[command(flatten)]
    pub source: TreeSource,
    #[command(flatten)]
    pub params: ParamArgs,
    /// Print one JSON object: algorithm, value, bound, best_moves, pv, stats, search_seconds.
    #[arg(long)]
    pub json: bool,
    /// Write every event of the search as JSON Lines (schema: docs/TRACE.md).
    #[arg(long, value_name = "OUT.jsonl")]
    pub trace: Option<PathBuf>,
    /// The trace's schema: prune's own, keyed by node ids (docs/TRACE.md), or the protocol
    /// keyed by move paths that any engine can write and `prune check-trace` reads
    /// (docs/PROTOCOL.md).
    #[arg(long, value_enum, default_value_t = TraceFormat::Prune, requires = "trace")]
    pub trace_format: TraceFormat,
    /// Write the statistics as a CSV row under a header.
    #[arg(long, value_name = "OUT.csv")]
    pub stats_csv: Option<PathBuf>,
    /// Write the searched tree as Graphviz DOT: visited, pruned and principal-variation nodes.
    #[arg(long, value_name = "OUT.dot")]
    pub dot: Option<PathBuf>,
}

/// The schema of `prune run --trace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// prune's trace, keyed by node ids (docs/TRACE.md).
    Prune,
    /// The trace protocol, keyed by move paths (docs/PROTOCOL.md).
    Protocol,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub source: TreeSource,
    /// Comma-separated algorithms, each optionally with inline parameters:
    /// `alphabeta,alphabeta:fail-soft,negascout,star2:probes=2`.
    #[arg(
        long,
        value_name = "A,B,…",
        value_delimiter = ',',
        required = true,
        value_parser = Offered::any(algorithm_names),
        hide_possible_values = true
    )]
    pub algos: Vec<String>,
    #[command(flatten)]
    pub params: ParamArgs,
    /// Print a JSON array, an object per algorithm with everything `run --json` prints (an
    /// `error` field when it cannot run).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// The table as an aligned table, CSV, or a JSON array of row objects. CSV and JSON rows
    /// have the columns algorithm, value (a number; `(a; b; c)` for n players), bound (exact,
    /// lower, upper), leaves, distinct_leaves, nodes, cutoffs, probes, researches,
    /// effective_branching, share_of_exhaustive (a fraction), minimal_ratio (when the
    /// minimal tree applies) and refused: empty (JSON null) when the algorithm ran, otherwise
    /// why it refused the tree, its statistics then empty (null).
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Write the statistics of every run as CSV.
    #[arg(long, value_name = "OUT.csv")]
    pub stats_csv: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct AlgosArgs {
    /// Print a JSON array instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// What every run on one tree shares, each computed once and only when first asked for: the
/// reference values (best moves, principal variation) and the minimal tree's size.
pub struct Known<'t> {
    refs: References<'t>,
    minimal: OnceCell<Option<u64>>,
}

impl<'t> Known<'t> {
    pub fn new(tree: &'t Tree) -> Known<'t> {
        Known {
            refs: References::new(tree),
            minimal: OnceCell::new(),
        }
    }

    fn tree(&self) -> &'t Tree {
        self.refs.tree()
    }

    /// Leaves of the Knuth–Moore minimal tree, when the analysis applies.
    fn minimal_leaves(&self) -> Option<u64> {
        *self.minimal.get_or_init(|| {
            analyze::minimal_tree(&self.refs)
                .ok()
                .map(|(leaves, _)| leaves)
        })
    }

    fn scope(&self) -> Scope<'t> {
        Scope {
            tree: self.tree(),
            minimal_leaves: self.minimal_leaves(),
        }
    }
}

/// `--dot OUT` where OUT's name says another format (`out.svg`): DOT written into it would
/// be read as what it is not, so it is refused, as `draw` refuses a name that names no format.
/// Standard output and other streams take DOT.
fn refuse_misnamed_dot(out: Option<&std::path::Path>) -> Result<(), CliError> {
    let Some(out) = prune::format::save::output_file(out) else {
        return Ok(());
    };
    if prune::draw::PictureFormat::from_extension(out) == Some(prune::draw::PictureFormat::Dot) {
        return Ok(());
    }
    let named = match out.extension() {
        Some(ext) => format!(
            "`.{}` is not DOT's extension",
            prune::text::terminal_safe(&ext.to_string_lossy())
        ),
        None => "no extension names DOT".to_owned(),
    };
    Err(CliError::Usage(format!(
        "--dot {}: {named}; --dot writes Graphviz DOT: name it .dot or .gv (`dot -Tsvg` draws it), or draw the run with `prune draw --run ALGO -o OUT.svg`",
        prune::text::terminal_safe(&out.display().to_string())
    )))
}

/// An algorithm's name checked while the command line is read, before clap asks for the tree:
/// `prune run alphabta` says the name is unknown rather than that FILE is missing.
fn known_algorithm(spec: &str) -> Result<String, String> {
    match Algorithm::parse(spec, &Default::default()) {
        Err(e @ prune::search::ParamError::UnknownAlgorithm { .. }) => Err(e.to_string()),
        _ => Ok(spec.to_owned()),
    }
}

pub fn run(a: &RunArgs) -> Result<(), CliError> {
    let algo = Algorithm::parse(&a.algorithm, &a.params.params()?).map_err(CliError::usage)?;
    let game = a.source.input.game.game.is_some();
    refuse_output_over_input(
        a.source.file.as_deref(),
        [a.trace.as_ref(), a.stats_csv.as_ref(), a.dot.as_ref()],
    )?;
    refuse_misnamed_dot(a.dot.as_deref())?;
    // A depth limit or an improvement asked for and silently dropped would change what the
    // value means: say that this algorithm does not take it. Every algorithm takes --depth on
    // a game: it is the horizon of the game's tree.
    let improvements = [
        Param::Depth,
        Param::Tt,
        Param::Id,
        Param::Aspiration,
        Param::Killers,
        Param::History,
    ];
    for param in improvements {
        if game && param == Param::Depth {
            continue;
        }
        if a.params.given(param) && !algo.info().params.iter().any(|s| s.param == param) {
            let takes: Vec<&str> = ALGORITHMS
                .iter()
                .filter(|i| i.params.iter().any(|s| s.param == param))
                .map(|i| i.name)
                .collect();
            return Err(CliError::Usage(format!(
                "{} takes no --{}; {} do",
                algo.name(),
                search::find_param(param).key,
                takes.join(", ")
            )));
        }
    }
    if game {
        return super::game_run::run(a, &a.source.input.game, &algo);
    }
    if a.trace_format == TraceFormat::Protocol {
        protocol::write::protocol_claim(&algo).map_err(CliError::usage)?;
    }
    let tree = a.source.load()?;
    let known = Known::new(&tree);
    let traced = a.trace.is_some() || a.dot.is_some();
    let (run, trace) = if traced {
        let (run, trace) = prune::trace::record_in(&known.refs, &algo, &AtomicU64::new(0))
            .map_err(CliError::usage)?;
        (run, Some(trace))
    } else {
        (
            search::run_with(&known.refs, &algo).map_err(CliError::usage)?,
            None,
        )
    };
    write_outputs(a, &tree, &run, trace.as_ref())?;
    if a.json {
        let text = serde_json::to_string_pretty(&run_json(&known, &run))
            .map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(prune::text::json_safe(text) + "\n"));
    }
    print(&summary(&known, &run, trace.as_ref()))
}

/// Writes what `a` asks of `run` on `tree`: its trace (prune's or the protocol), its DOT
/// picture (both need `trace`) and its statistics as CSV.
pub(crate) fn write_outputs(
    a: &RunArgs,
    tree: &Tree,
    run: &Run,
    trace: Option<&Trace>,
) -> Result<(), CliError> {
    if let (Some(path), Some(trace)) = (&a.trace, trace) {
        match a.trace_format {
            TraceFormat::Prune => write_output(path, |w| export::write_jsonl(w, tree, run, trace))?,
            TraceFormat::Protocol => write_output(path, |w| {
                protocol::write::write_jsonl(w, tree, run, trace).map_err(std::io::Error::other)
            })?,
        }
    }
    if let (Some(path), Some(trace)) = (&a.dot, trace) {
        write_output(path, |w| prune::draw::dot::write_run(w, tree, run, trace))?;
    }
    if let Some(path) = &a.stats_csv {
        let csv = export::stats_csv(tree, &[run]);
        write_output(path, |w| w.write_all(csv.as_bytes()))?;
    }
    Ok(())
}

/// The `--json` object of a run.
pub fn run_json(known: &Known<'_>, run: &Run) -> Json {
    let tree = known.tree();
    let moves = pv_moves(tree, &run.pv);
    let mut obj = json!({
        "algorithm": run.algorithm.name(),
        "parameters": run.algorithm.label(),
        "value": value_json(&run.value),
        "bound": run.bound,
        "best_moves": run.best_moves,
        "pv": moves,
        "pv_nodes": run.pv.iter().map(|n| n.0).collect::<Vec<_>>(),
        "stats": stats_json(known, run),
        "search_seconds": run.seconds,
    });
    if let Some(d) = depth_of(run) {
        obj["depth"] = json!(d);
        obj["reference"] = Json::from(format!("minimax to depth {d}"));
    }
    if let Some(a) = search::run::assumption(tree, &run.algorithm) {
        obj["assumed"] = Json::from(a);
    }
    if tree.has_labels() {
        let root = tree.root();
        let best: Vec<Option<&str>> = run
            .best_moves
            .iter()
            .map(|&i| tree.label(tree.child(root, i)))
            .collect();
        obj["best_move_labels"] = json!(best);
        let pv: Vec<Option<&str>> = run.pv.iter().skip(1).map(|&n| tree.label(n)).collect();
        obj["pv_labels"] = json!(pv);
    }
    obj
}

pub(crate) fn value_json(v: &Value) -> Json {
    let num = |x: f64| -> Json {
        if x.is_finite() {
            json!(x)
        } else {
            json!(export::json_number(x).trim_matches('"'))
        }
    };
    match v {
        Value::Scalar(x) => num(*x),
        Value::Vector(xs) => Json::Array(xs.iter().map(|&x| num(x)).collect()),
    }
}

fn stats_json(known: &Known<'_>, run: &Run) -> Json {
    let depth = depth_of(run);
    let view = search::run::searched(known.tree(), &run.algorithm);
    let tree = &*view;
    let mut s = serde_json::to_value(&run.stats).expect("stats serialise");
    let kinds: serde_json::Map<String, Json> = Cutoff::ALL
        .iter()
        .map(|&k| (k.name().to_owned(), json!(run.stats.cutoffs_of(k))))
        .collect();
    s["cutoffs_by_kind"] = Json::Object(kinds);
    let r = Ratios::of(tree, &run.stats);
    s["effective_branching"] = json!(r.effective_branching);
    s["share_of_exhaustive"] = json!(r.share_of_exhaustive);
    if let Some(m) = known.minimal_leaves().filter(|_| depth.is_none()) {
        s["minimal_tree_leaves"] = json!(m);
    }
    s
}

/// The depth limit of a run, if it has one short of the tree's height.
fn depth_of(run: &Run) -> Option<u32> {
    run.algorithm.improvements().and_then(|w| w.depth)
}

/// What a depth-limited run is compared with, in one sentence.
fn depth_note(d: u32) -> String {
    format!(
        "the tree cut at depth {d}, positions there valued by their heuristic; value, best moves and pv are checked against minimax to depth {d}"
    )
}

/// The principal variation as moves: each node's position among its parent's children.
fn pv_moves(tree: &Tree, pv: &[NodeId]) -> Vec<usize> {
    pv.iter().skip(1).map(|&n| tree.child_index(n)).collect()
}

/// The readable summary of one run.
pub fn summary(known: &Known<'_>, run: &Run, trace: Option<&Trace>) -> String {
    let tree = known.tree();
    let s = &run.stats;
    let depth = depth_of(run);
    let view = search::run::searched(tree, &run.algorithm);
    let r = Ratios::of(&view, s);
    let mut out = String::new();
    let mut line = |k: &str, v: String| {
        let _ = writeln!(out, "{k:<14} {v}");
    };
    let name = if tree.meta().name.is_empty() {
        String::new()
    } else {
        format!(" on {}", terminal_safe(&tree.meta().name))
    };
    line("algorithm", format!("{}{name}", run.algorithm.label()));
    let bound = match run.bound {
        search::Bound::Exact => String::new(),
        b => format!(
            " ({} bound)",
            if b == search::Bound::Lower {
                "lower"
            } else {
                "upper"
            }
        ),
    };
    line("value", format!("{}{bound}", run.value));
    if let Some(a) = search::run::assumption(tree, &run.algorithm) {
        line("assumed", a);
    }
    if let Some(d) = depth {
        line("searched", depth_note(d));
    }
    if !run.best_moves.is_empty() {
        let root = tree.root();
        let names: Vec<String> = run
            .best_moves
            .iter()
            .map(|&i| move_name(tree, tree.child(root, i)))
            .collect();
        line(
            if names.len() > 1 {
                "best moves"
            } else {
                "best move"
            },
            names.join(", "),
        );
    }
    if run.pv.len() > 1 {
        const SHOWN: usize = 12;
        let mut moves: Vec<String> = run
            .pv
            .iter()
            .skip(1)
            .take(SHOWN)
            .map(|&n| move_name(tree, n))
            .collect();
        if run.pv.len() - 1 > SHOWN {
            moves.push(format!("… ({} moves)", run.pv.len() - 1));
        }
        line("pv", moves.join(" → "));
    }
    let leaves = if s.leaves == s.distinct_leaves {
        format!("{} of {}", s.leaves, view.leaf_count())
    } else {
        format!(
            "{} evaluations of {} distinct leaves, of {}",
            s.leaves,
            s.distinct_leaves,
            view.leaf_count()
        )
    };
    line("leaves", leaves);
    line(
        "nodes",
        format!("{} visits ({} interior)", s.nodes, s.interior),
    );
    if s.cutoffs > 0 {
        let kinds: Vec<String> = s
            .cutoff_kinds()
            .iter()
            .map(|(k, n)| format!("{} {n}", k.name()))
            .collect();
        line(
            "cutoffs",
            format!(
                "{} ({}); {} children pruned",
                s.cutoffs,
                kinds.join(", "),
                s.pruned_children
            ),
        );
    } else {
        line("cutoffs", "0".into());
    }
    if s.probes > 0 {
        line(
            "probes",
            format!("{} ({} probe cutoffs)", s.probes, s.probe_cutoffs),
        );
    }
    if s.researches > 0 {
        line("re-searches", s.researches.to_string());
    }
    if s.fallbacks > 0 {
        line("star1 fallback", format!("{} chance nodes", s.fallbacks));
    }
    if s.tt_probes > 0 {
        line(
            "tt",
            format!(
                "{} probes, {} hits, {} cutoffs",
                s.tt_probes, s.tt_hits, s.tt_cutoffs
            ),
        );
    }
    if s.aspiration_researches > 0 {
        line(
            "aspiration",
            format!("{} failed windows searched again", s.aspiration_researches),
        );
    }
    if !s.iteration_nodes.is_empty() {
        let each: Vec<String> = s
            .iteration_nodes
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}: {n}", i + 1))
            .collect();
        line("iterations", format!("nodes by depth {}", each.join(", ")));
    }
    line(
        "EBF",
        format!(
            "{:.3}   share of exhaustive {:.1}%",
            r.effective_branching,
            100.0 * r.share_of_exhaustive
        ),
    );
    if let Some(m) = known.minimal_leaves().filter(|_| depth.is_none()) {
        line(
            "minimal tree",
            format!("{} leaves ({:.2}× that)", m, s.leaves as f64 / m as f64),
        );
    }
    let traced = trace.map_or(String::new(), |t| format!(" (traced: {} events)", t.len()));
    line("search", format!("{}{traced}", seconds_text(run.seconds)));
    out
}

fn seconds_text(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

pub fn compare(a: &CompareArgs) -> Result<(), CliError> {
    let params = a.params.params()?;
    let algos: Vec<Algorithm> = a
        .algos
        .iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| Algorithm::parse(s, &params))
        .collect::<Result<_, _>>()
        .map_err(CliError::usage)?;
    if algos.is_empty() {
        return Err(CliError::Usage("--algos names no algorithm".into()));
    }
    refuse_output_over_input(a.source.file.as_deref(), [a.stats_csv.as_ref()])?;
    if a.source.input.game.game.is_some() {
        return super::game_run::compare(a, &algos);
    }
    let tree = a.source.load()?;
    let known = Known::new(&tree);
    let results: Vec<(Algorithm, Result<Run, String>)> = algos
        .into_iter()
        .map(|al| {
            let r = search::run_with(&known.refs, &al).map_err(|e| e.to_string());
            (al, r)
        })
        .collect();
    if let Some(path) = &a.stats_csv {
        let runs: Vec<&Run> = results
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok())
            .collect();
        let csv = export::stats_csv(&tree, &runs);
        write_output(path, |w| w.write_all(csv.as_bytes()))?;
    }
    if a.json {
        let rows: Vec<Json> = results
            .iter()
            .map(|(al, r)| match r {
                Ok(run) => run_json(&known, run),
                Err(why) => json!({"algorithm": al.name(), "parameters": al.label(), "error": why}),
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::Internal(e.to_string()))?;
        print(&(prune::text::json_safe(text) + "\n"))?;
        return all_failed(&results);
    }
    let scope = known.scope();
    print(&match a.format {
        OutputFormat::Table => compare_text(&scope, &results),
        OutputFormat::Csv => compare_data(&scope, &results).csv(),
        OutputFormat::Json => compare_data(&scope, &results).json(),
    })?;
    all_failed(&results)
}

/// A comparison whose every algorithm failed compared nothing: after the table and its notes,
/// a usage error (exit 2), as `run` gives for an algorithm that cannot search the tree.
fn all_failed(results: &[(Algorithm, Result<Run, String>)]) -> Result<(), CliError> {
    if results.iter().any(|(_, r)| r.is_ok()) {
        return Ok(());
    }
    Err(CliError::Usage(
        "no algorithm could search this tree (each one's reason is above)".into(),
    ))
}

/// The columns of the `compare` table: [`columns::TABLE`], without the ratio to the minimal
/// tree when the analysis does not apply.
fn compare_columns<'c>(scope: &Scope, list: &'c [StatColumn]) -> &'c [StatColumn] {
    if scope.minimal_leaves.is_some() {
        list
    } else {
        &list[..list.len() - 1]
    }
}

/// The `compare` table: a row per algorithm.
pub fn compare_table(tree: &Tree, results: &[(Algorithm, Result<Run, String>)]) -> String {
    compare_text(&Scope::analyzed(tree), results)
}

/// The trees the depth-limited runs among `results` searched, one per depth (the tree cut
/// there, positions valued by their heuristic): their rows' shares, branching factors and
/// minimal trees are those trees'.
fn cut_trees(tree: &Tree, results: &[(Algorithm, Result<Run, String>)]) -> Vec<(u32, Tree)> {
    let mut cuts: Vec<(u32, Tree)> = Vec::new();
    for (al, r) in results {
        if let (Some(d), Ok(_)) = (al.improvements().and_then(|w| w.depth), r)
            && !cuts.iter().any(|(e, _)| *e == d)
            && let std::borrow::Cow::Owned(cut) = prune::search::run::searched(tree, al)
        {
            cuts.push((d, cut));
        }
    }
    cuts
}

/// The scope a run's row is measured in: its cut tree's when it has one (see [`cut_trees`]).
fn scope_for<'s>(
    scope: &'s Scope<'s>,
    cuts: &'s [(u32, Scope<'s>)],
    al: &Algorithm,
) -> &'s Scope<'s> {
    al.improvements()
        .and_then(|w| w.depth)
        .and_then(|d| cuts.iter().find(|(e, _)| *e == d))
        .map_or(scope, |(_, s)| s)
}

fn compare_text(scope: &Scope, results: &[(Algorithm, Result<Run, String>)]) -> String {
    let cut = cut_trees(scope.tree, results);
    let cuts: Vec<(u32, Scope)> = cut.iter().map(|(d, t)| (*d, Scope::analyzed(t))).collect();
    let cols = compare_columns(scope, &columns::TABLE);
    let mut table = Table::new(cols.iter().map(|c| c.column).collect());
    let mut notes = Vec::new();
    for (al, r) in results {
        let scope = scope_for(scope, &cuts, al);
        table.rows.push(match r {
            Ok(run) => cols.iter().map(|c| c.of(scope, run)).collect(),
            Err(why) => {
                notes.push(format!("{}: {why}", al.label()));
                let mut row = vec![Cell::Text(al.label()), Cell::None];
                row.resize(cols.len(), Cell::Text(String::new()));
                row
            }
        });
    }
    let mut out = table.text();
    if let Some(m) = scope.minimal_leaves {
        let _ = writeln!(
            out,
            "\nminimal tree (Knuth–Moore, in the given order): {m} leaves of {}",
            scope.tree.leaf_count()
        );
    }
    let mut depths: Vec<u32> = results
        .iter()
        .filter_map(|(al, _)| al.improvements().and_then(|w| w.depth))
        .collect();
    depths.sort_unstable();
    depths.dedup();
    for d in depths {
        match cuts.iter().find(|(e, _)| *e == d) {
            Some((_, c)) => {
                let _ = write!(out, "depth {d}: {}", depth_note(d));
                let _ = write!(
                    out,
                    "; its rows' shares and branching factors are of the cut tree's {} leaves",
                    c.tree.leaf_count()
                );
                if let Some(m) = c.minimal_leaves {
                    let _ = write!(out, ", whose minimal tree has {m}");
                }
                out.push('\n');
            }
            None => {
                let _ = writeln!(
                    out,
                    "depth {d}: the tree is no deeper than {d} plies, so nothing is cut and those rows are the whole tree's"
                );
            }
        }
    }
    for n in notes {
        let _ = writeln!(out, "cannot run {n}");
    }
    out
}

/// The column saying why an algorithm refused the tree.
const REFUSED: Column = col("refused", "refused");

/// The `compare` table as data ([`columns::TABLE_DATA`] and `refused`).
fn compare_data(scope: &Scope, results: &[(Algorithm, Result<Run, String>)]) -> Table {
    let cut = cut_trees(scope.tree, results);
    let cuts: Vec<(u32, Scope)> = cut.iter().map(|(d, t)| (*d, Scope::analyzed(t))).collect();
    let cols = compare_columns(scope, &columns::TABLE_DATA);
    let mut table = Table::new(cols.iter().map(|c| c.column).chain([REFUSED]).collect());
    for (al, r) in results {
        let scope = scope_for(scope, &cuts, al);
        let mut row: Vec<Cell> = match r {
            Ok(run) => cols.iter().map(|c| c.of(scope, run)).collect(),
            Err(_) => {
                let mut row = vec![Cell::Text(al.label())];
                row.resize(cols.len(), Cell::None);
                row
            }
        };
        row.push(
            r.as_ref()
                .err()
                .map_or(Cell::None, |why| Cell::Text(why.clone())),
        );
        table.rows.push(row);
    }
    table
}

pub fn algos(a: &AlgosArgs) -> Result<(), CliError> {
    if a.json {
        let rows: Vec<Json> = ALGORITHMS
            .iter()
            .map(|i| json!({"name": i.name, "applies_to": i.applies_to, "parameters": i.parameters(), "source": i.source}))
            .collect();
        let text =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(prune::text::json_safe(text) + "\n"));
    }
    let mut out = String::new();
    for i in ALGORITHMS {
        let _ = writeln!(out, "{}", i.name);
        let _ = writeln!(out, "    applies to  {}", i.applies_to);
        if !i.parameters().is_empty() {
            let _ = writeln!(out, "    parameters  {}", i.parameters());
        }
        let _ = writeln!(out, "    source      {}", i.source);
    }
    out.push_str("\nInline parameters work in `run` and `compare`: star2:probes=2, alphabeta:fail-soft, krule:k=4,\nparanoid:player=2, mtdf:guess=5, star1:rightmost, star2:probe-always.\n");
    print(&out)
}
