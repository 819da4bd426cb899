//! `prune run ALGO --game NAME --depth D`: a game searched from its rules ([`prune::game::run`]).

use serde_json::json;

use super::search::{CompareArgs, RunArgs, value_json};
use super::{CliError, GameFlags, TuiArgs, print};
use crate::tui::RunView;
use prune::game::Game;
use prune::game::run::{self as game_run, GameRun};
use prune::generate::game::{Depth, GameSpec, WithGame};
use prune::search::Algorithm;
use prune::text::terminal_safe;

/// The game `flags` names, its options over `prune gen game`'s defaults
/// ([`GameSpec::default_for`]), and `depth` for the games whose spec has one (tic-tac-toe,
/// and connect-four and chess when given): one reading of the flags for the lazy searches
/// ([`with_game`]) and the written-out tree ([`written_out`]).
fn spec(flags: &GameFlags, depth: Option<u32>) -> Result<GameSpec, CliError> {
    let name = flags.game.as_deref().expect("--game");
    let mut spec = GameSpec::default_for(name).ok_or_else(|| unknown_game(name))?;
    refuse_other_games_options(flags, &spec)?;
    spec.set_depth(depth);
    for (param, value) in &flags.values {
        spec.set(param, value)
            .map_err(|e| CliError::Usage(e.to_string()))?;
    }
    Ok(spec)
}

/// Refuses the options of a game other than `spec`'s (`--fen` with tic-tac-toe): ignored, they
/// would leave the user believing the search started where it did not.
fn refuse_other_games_options(flags: &GameFlags, spec: &GameSpec) -> Result<(), CliError> {
    let game = spec.built_in();
    let own = |name: &str| game.params.iter().any(|p| p.name == name);
    let whose = |name: &str| {
        prune::generate::game::GAMES
            .iter()
            .filter(|g| g.params.iter().any(|p| p.name == name))
            .map(|g| g.name)
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let wrong: Vec<String> = flags
        .values
        .iter()
        .filter(|(name, _)| !own(name))
        .map(|(name, _)| format!("--{name} is {}'s", whose(name)))
        .collect();
    if wrong.is_empty() {
        return Ok(());
    }
    let name = game.name;
    let takes = match game.params {
        [] => format!("{name} takes no options"),
        params => {
            let flags: Vec<String> = params.iter().map(|p| format!("--{}", p.name)).collect();
            format!("{name} takes {}", flags.join(", "))
        }
    };
    Err(CliError::Usage(format!(
        "--game {name}: {} ({takes})",
        wrong.join(", ")
    )))
}

/// Builds the game of `spec` from its rules and does `f` with it.
fn with_game<F: WithGame>(spec: &GameSpec, f: F) -> Result<F::Out, CliError> {
    spec.with(f).map_err(|e| CliError::Usage(e.to_string()))
}

/// What a search of a game needs to know of it before it starts: the most moves its games
/// last ([`Game::longest`]) and whether it has no heuristic value to stop at.
struct Facts;

impl WithGame for Facts {
    type Out = (Option<u32>, bool);
    fn with<G: Game + Sync>(self, game: &G) -> Self::Out {
        let start = game.start();
        let no_heuristic = game.outcome(&start).is_none() && game.heuristic(&start).is_none();
        (game.longest(), no_heuristic)
    }
}

/// How deep a game is searched.
#[derive(Copy, Clone, Debug)]
struct Horizon {
    /// The depth searched: `--depth`, never beyond the game's longest.
    depth: u32,
    /// Whether that is the end of every game (the search solves it).
    to_the_end: bool,
}

impl Horizon {
    /// "4 moves deep", "to the end (9 moves at most)".
    fn text(&self) -> String {
        if self.to_the_end {
            format!("to the end ({} moves at most)", self.depth)
        } else {
            format!("{} moves deep", self.depth)
        }
    }
}

/// The horizon of a search of the game `spec`: `--depth` (never beyond the game's longest), or
/// without it the end of every game for the games small enough to solve (tic-tac-toe, nim,
/// pig). A game without a heuristic cannot stop short of its end.
fn horizon_of(spec: &GameSpec, depth: Option<u32>) -> Result<Horizon, CliError> {
    let name = spec.name();
    let (longest, no_heuristic) = with_game(spec, Facts)?;
    let solvable = !matches!(spec.built_in().depth, Depth::Needed(_));
    let depth = match depth {
        Some(d) => d,
        None if solvable => longest.unwrap_or(u32::MAX),
        None => {
            let last = longest.map_or(String::new(), |l| {
                format!(" (its games last up to {l} moves, far beyond reach)")
            });
            return Err(CliError::Usage(format!(
                "--game {name} needs --depth D: a search from the rules stops D moves on, positions there valued by the game's heuristic; it is not searched to the end{last}"
            )));
        }
    };
    if let Some(l) = longest.filter(|&l| no_heuristic && depth < l) {
        let pig = match spec {
            GameSpec::Pig { horizon, .. } => format!(
                "; pig counts a roll of the die as a move: its horizon of {horizon} decisions is up to {l} moves"
            ),
            _ => String::new(),
        };
        return Err(CliError::Usage(format!(
            "--game {name} has no heuristic value to stop at depth {depth}: search it to the end, without --depth (or with --depth {l} or more){pig}"
        )));
    }
    Ok(Horizon {
        depth: longest.map_or(depth, |l| depth.min(l)),
        to_the_end: depth == u32::MAX || longest.is_some_and(|l| depth >= l),
    })
}

/// Runs each algorithm on the game, in order: each run, or why it could not, and the game's
/// name. With `principal`, each run's best moves and principal variation too, by its family's
/// reference values (found once for the runs that share them).
struct Runs<'a> {
    algos: &'a [Algorithm],
    depth: u32,
    principal: bool,
    /// `--threads` (more than one runs Lazy SMP) and `--hash`.
    resources: game_run::Resources,
}

/// The runs, the game's name, and each run's best moves and principal variation.
type RunsOut = (
    Vec<Result<GameRun, String>>,
    String,
    Vec<Option<prune::game::best::Principal>>,
);

impl WithGame for Runs<'_> {
    type Out = RunsOut;
    fn with<G: Game + Sync>(self, game: &G) -> Self::Out {
        let runs: Vec<_> = self
            .algos
            .iter()
            .map(|al| {
                run_showing_progress(game, al, self.depth, self.resources)
                    .map_err(|e| e.to_string())
            })
            .collect();
        let mut found: Vec<(_, Option<prune::game::best::Principal>)> = Vec::new();
        let principals = self
            .algos
            .iter()
            .zip(&runs)
            .map(|(al, run)| {
                if !self.principal || run.is_err() {
                    return None;
                }
                let rule = prune::game::best::Rule::of(al, usize::from(game.players()));
                if let Some((_, p)) = found.iter().find(|(r, _)| *r == rule) {
                    return p.clone();
                }
                let bytes = self.resources.serial_bytes();
                let p = prune::game::best::principal_within(game, al, self.depth, bytes).ok();
                found.push((rule, p.clone()));
                p
            })
            .collect();
        (runs, game.name(), principals)
    }
}

/// [`game_run::run`], with its progress on standard error when that is a terminal
/// ([`ProgressLine`], twice a second), erased when the search ends.
/// On more than one thread ([`game_run::run_threads`]), the nodes are every thread's.
fn run_showing_progress<G: Game + Sync>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
    resources: game_run::Resources,
) -> Result<GameRun, game_run::GameRunError> {
    use std::io::Write;
    if let Some(warning) = out_of_reach(game, algo, depth) {
        let _ = std::io::stderr().write_all(warning.as_bytes());
    }
    let Some(mut line) = ProgressLine::on_terminal() else {
        return game_run::run_threads(game, algo, depth, resources, 0.5, None);
    };
    let every = line.every;
    let mut show = |r: &game_run::Report| line.show(algo, r);
    game_run::run_threads(game, algo, depth, resources, every, Some(&mut show))
}

/// A search's progress on standard error, when that is a terminal: after the search's first
/// second, one line rewritten in place (the depth being searched, nodes, nodes per second, the
/// best move of the last depth finished when the search says one), erased when it is dropped.
struct ProgressLine {
    shown: bool,
    /// Seconds before the first line, and between lines: 1 and 0.5; in debug builds with
    /// `PRUNE_TEST_PROGRESS_AT_ONCE` set, 0 and 0 (a line every 2^16 nodes from the start), so
    /// that the end-to-end tests see it whatever the machine's speed.
    after: f64,
    every: f64,
}

impl ProgressLine {
    /// A progress line, if standard error is a terminal.
    fn on_terminal() -> Option<ProgressLine> {
        use std::io::IsTerminal;
        let at_once =
            cfg!(debug_assertions) && std::env::var_os("PRUNE_TEST_PROGRESS_AT_ONCE").is_some();
        let (after, every) = if at_once { (0.0, 0.0) } else { (1.0, 0.5) };
        std::io::stderr().is_terminal().then_some(ProgressLine {
            shown: false,
            after,
            every,
        })
    }

    /// Shows `r`, the progress of `algo`'s search.
    fn show(&mut self, algo: &Algorithm, r: &game_run::Report) {
        use std::io::Write;
        if r.seconds < self.after {
            return;
        }
        let best = r
            .best
            .as_deref()
            .map(|b| format!(", best so far {}", terminal_safe(b)))
            .unwrap_or_default();
        let line = format!(
            "\r\x1b[K{}: depth {}, {} nodes, {:.2} M nodes/s{best}",
            algo.label(),
            r.depth,
            r.nodes,
            r.nodes as f64 / r.seconds / 1e6
        );
        let _ = std::io::stderr().write_all(line.as_bytes());
        self.shown = true;
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        use std::io::Write;
        if self.shown {
            let _ = std::io::stderr().write_all(b"\r\x1b[K");
        }
    }
}

/// The fewest positions a search must visit for prune to warn: two minutes and more at the ten
/// to twenty million positions a second a walked search makes on one core.
const WITHIN_REACH: f64 = 2.4e9;

/// A warning, before the search starts, when even its best case is beyond reach: the positions
/// a search of `algo` to `depth` must visit at the least, from the game's branching factor
/// measured on its first three plies. A search that visits every position visits b^d of them;
/// alpha-beta and its relatives with perfect move ordering b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves (Knuth
/// & Moore 1975, the minimal tree); so the warning never fires for a search that could finish
/// soon, and a search it warns of cannot.
fn out_of_reach<G: Game>(game: &G, algo: &Algorithm, depth: u32) -> Option<String> {
    if depth <= 3 || depth == u32::MAX {
        return None;
    }
    // Nodes to plies 1, 2 and 3 (each a few thousand at most in the built-in games).
    let nodes = |d| prune::game::count(game, Some(d), 1_000_000);
    let (n1, n2, n3) = (nodes(1)?, nodes(2)?, nodes(3)?);
    let (ply2, ply3) = (n2.checked_sub(n1)?, n3.checked_sub(n2)?);
    if ply2 == 0 || ply3 == 0 {
        return None;
    }
    let b = ply3 as f64 / ply2 as f64;
    if b <= 1.5 {
        return None;
    }
    let d = f64::from(depth);
    let every = matches!(
        algo,
        Algorithm::Minimax | Algorithm::Expectiminimax | Algorithm::Maxn
    ) || matches!(algo, Algorithm::Improved { base, .. } if **base == Algorithm::Minimax);
    let least = if every {
        b.powf(d)
    } else {
        b.powf((d / 2.0).ceil()) + b.powf((d / 2.0).floor()) - 1.0
    };
    if least < WITHIN_REACH {
        return None;
    }
    let how = if every {
        "it searches every position"
    } else {
        "even with every move ordered best first"
    };
    // The search's name without its options (the depth is said).
    let name = match algo {
        Algorithm::Improved { base, .. } => base.label(),
        a => a.label(),
    };
    Some(format!(
        "warning: {name} to depth {depth} visits at least {} positions ({how}; the game branches about {b:.0} ways a move on its first plies): at ten to twenty million positions a second that is more than {}. Ctrl-C stops it.\n",
        count_text(least),
        duration_text(least / 2e7),
    ))
}

/// A large count as people read it: digits grouped by thousands, or past 10^15 in exponent form.
fn count_text(x: f64) -> String {
    if x >= 1e15 {
        return format!("{x:.1e}");
    }
    prune::text::thousands(x.round() as u64)
}

/// Seconds as people say them: minutes, hours, days or years.
fn duration_text(seconds: f64) -> String {
    let (n, unit) = if seconds < 3600.0 {
        (seconds / 60.0, "minute")
    } else if seconds < 86_400.0 {
        (seconds / 3600.0, "hour")
    } else if seconds < 3.156e7 {
        (seconds / 86_400.0, "day")
    } else {
        (seconds / 3.156e7, "year")
    };
    let n = n.floor().max(1.0);
    if n >= 1e6 {
        return format!("a million {unit}s");
    }
    format!("{n} {unit}{}", if n == 1.0 { "" } else { "s" })
}

/// Runs `algo` on the game `a` names, to the depth `a` gives, and prints the result.
pub fn run(a: &RunArgs, flags: &GameFlags, algo: &Algorithm) -> Result<(), CliError> {
    let spec = spec(flags, None)?;
    let horizon = horizon_of(&spec, a.params.params()?.improvements.depth)?;
    if a.trace.is_some() || a.dot.is_some() || a.stats_csv.is_some() {
        flags.refuse_walk_flags("a recorded search (--trace, --dot, --stats-csv)")?;
        return record_to_files(a, &spec, algo, horizon);
    }
    refuse_walk_flags_for(flags, std::slice::from_ref(algo))?;
    let algos = std::slice::from_ref(algo);
    let (mut runs, game, mut principals) = with_game(
        &spec,
        Runs {
            algos,
            depth: horizon.depth,
            principal: true,
            resources: flags.resources(),
        },
    )?;
    let run = runs.pop().expect("one run").map_err(CliError::Usage)?;
    let principal = principals.pop().flatten();
    if a.json {
        let mut obj = run_json(&run, &game, horizon);
        add_principal(&mut obj, principal.as_ref());
        add_resources(&mut obj, flags);
        let text =
            serde_json::to_string_pretty(&obj).map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(prune::text::json_safe(text) + "\n"));
    }
    print(&(summary(&run, &game, horizon, principal.as_ref()) + &threads_note(flags.threads())))
}

/// The line a text summary ends with on more than one thread.
fn threads_note(threads: usize) -> String {
    if threads > 1 {
        format!(
            "threads: {threads} (Lazy SMP; nodes, leaves, cutoffs, table counts and positions generated are summed over the threads)\n"
        )
    } else {
        String::new()
    }
}

/// On more than one thread, a run's JSON says how many, and that its statistics are their sum;
/// with `--hash`, the table's memory in MB.
fn add_resources(obj: &mut serde_json::Value, flags: &GameFlags) {
    if flags.threads() > 1 {
        obj["threads"] = json!(flags.threads());
        obj["stats_summed_over_threads"] = json!(true);
    }
    if let Some(mb) = flags.hash {
        obj["hash_mb"] = json!(mb);
    }
}

/// Refuses `--threads N` (N > 1) and `--hash` when one of `algos` does not run on threads nor
/// has a table of its own ([`game_run::parallel`]): the first such one, and why.
fn refuse_walk_flags_for(flags: &GameFlags, algos: &[Algorithm]) -> Result<(), CliError> {
    match algos.iter().find(|al| !game_run::parallel(al)) {
        Some(al) if flags.threads() > 1 => Err(CliError::Usage(game_run::threads_refusal(al))),
        Some(al) if flags.hash.is_some() => Err(CliError::Usage(format!(
            "--hash sizes the transposition table of a search walked depth first: it needs alphabeta, negascout or mtdf with --tt, not {}",
            al.label()
        ))),
        _ => Ok(()),
    }
}

/// The best moves and the principal variation in a run's JSON, under the names a stored
/// tree's run gives them: moves as positions among their siblings, and their labels.
fn add_principal(obj: &mut serde_json::Value, principal: Option<&prune::game::best::Principal>) {
    let Some(p) = principal else { return };
    let index = |ms: &[(usize, String)]| ms.iter().map(|(i, _)| *i).collect::<Vec<_>>();
    let label = |ms: &[(usize, String)]| ms.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>();
    obj["best_moves"] = json!(index(&p.best_moves));
    obj["best_move_labels"] = json!(label(&p.best_moves));
    obj["pv"] = json!(index(&p.pv));
    obj["pv_labels"] = json!(label(&p.pv));
}

/// `run --game` with a trace, a picture or the statistics' CSV: the search recorded, and what
/// was asked written on the tree it searched ([`game_run::record`]: positions never expanded
/// are leaves labelled "(not expanded)"); the summary or JSON printed as without them.
fn record_to_files(
    a: &RunArgs,
    spec: &GameSpec,
    algo: &Algorithm,
    horizon: Horizon,
) -> Result<(), CliError> {
    if a.trace_format == super::search::TraceFormat::Protocol {
        prune::protocol::write::protocol_claim(algo).map_err(CliError::usage)?;
    }
    let algos = std::slice::from_ref(algo);
    let depth = horizon.depth;
    let (recorded, game) = with_game(spec, Record { algos, depth })?;
    let mut recorded = recorded.map_err(|e| CliError::Usage(e.to_string()))?;
    let (_, result) = recorded.runs.pop().expect("one run");
    let (run, trace) = result.map_err(CliError::Usage)?;
    super::search::write_outputs(a, &recorded.tree, &run, Some(&trace))?;
    let best = run.best_moves.first().and_then(|&i| {
        Some((
            i,
            recorded
                .tree
                .label(recorded.tree.child(recorded.tree.root(), i))?
                .to_owned(),
        ))
    });
    let summary_run = GameRun {
        algorithm: run.algorithm.clone(),
        value: run.value.clone(),
        bound: run.bound,
        stats: run.stats.clone(),
        generated: recorded.tree.len(),
        best,
        seconds: run.seconds,
    };
    let principal = with_game(spec, Principal { algos, depth })?;
    if a.json {
        let mut obj = run_json(&summary_run, &game, horizon);
        add_principal(&mut obj, principal.as_ref());
        let text =
            serde_json::to_string_pretty(&obj).map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(prune::text::json_safe(text) + "\n"));
    }
    print(&summary(&summary_run, &game, horizon, principal.as_ref()))
}

/// The best moves and principal variation of the first of `algos` on the game
/// ([`prune::game::best::principal`]), if they can be found.
struct Principal<'a> {
    algos: &'a [Algorithm],
    depth: u32,
}

impl WithGame for Principal<'_> {
    type Out = Option<prune::game::best::Principal>;
    fn with<G: Game + Sync>(self, game: &G) -> Self::Out {
        prune::game::best::principal(game, self.algos.first()?, self.depth).ok()
    }
}

/// `prune compare --game NAME --depth D --algos …`: each algorithm's search of the game, side
/// by side; exit 2 when none could search it.
pub fn compare(a: &CompareArgs, algos: &[Algorithm]) -> Result<(), CliError> {
    let flags = &a.source.input.game;
    if a.stats_csv.is_some() {
        return Err(CliError::Usage(
            "--stats-csv is not available with --game yet; use --json".into(),
        ));
    }
    let spec = spec(flags, None)?;
    let horizon = horizon_of(&spec, a.params.params()?.improvements.depth)?;
    refuse_walk_flags_for(flags, algos)?;
    let (runs, game, principals) = with_game(
        &spec,
        Runs {
            algos,
            depth: horizon.depth,
            principal: true,
            resources: flags.resources(),
        },
    )?;
    if a.json {
        let rows: Vec<serde_json::Value> = algos
            .iter()
            .zip(&runs)
            .zip(&principals)
            .map(|((al, r), principal)| match r {
                Ok(run) => {
                    let mut obj = run_json(run, &game, horizon);
                    add_principal(&mut obj, principal.as_ref());
                    add_resources(&mut obj, flags);
                    obj
                }
                Err(why) => json!({"algorithm": al.name(), "parameters": al.label(), "error": why}),
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::Internal(e.to_string()))?;
        print(&(prune::text::json_safe(text) + "\n"))?;
    } else {
        print(
            &(compare_table(algos, &runs, &game, horizon)
                + &compared_principals(algos, &principals)
                + &threads_note(flags.threads())),
        )?;
    }
    if runs.iter().all(|r| r.is_err()) {
        return Err(CliError::Usage(
            "no algorithm could search this game (each one's reason is above)".into(),
        ));
    }
    Ok(())
}

/// The side-by-side table of a game's runs, and each refusal under it.
fn compare_table(
    algos: &[Algorithm],
    runs: &[Result<GameRun, String>],
    game: &str,
    horizon: Horizon,
) -> String {
    use prune::report::{Cell, Table, col};
    let mut table = Table::new(vec![
        col("algorithm", "algorithm").left(),
        col("value", "value").left(),
        col("best_move", "best move").left(),
        col("leaves", "leaves"),
        col("nodes", "nodes"),
        col("cutoffs", "cutoffs"),
        col("tt_hits", "tt hits"),
        col("generated", "generated"),
        col("seconds", "seconds"),
    ]);
    let mut notes = String::new();
    for (al, r) in algos.iter().zip(runs) {
        match r {
            Ok(run) => table.rows.push(vec![
                Cell::Text(al.label()),
                Cell::Text(run.value.to_string()),
                run.best.as_ref().map_or(Cell::None, |(_, l)| {
                    Cell::Text(terminal_safe(l).into_owned())
                }),
                Cell::Int(run.stats.leaves as i64),
                Cell::Int((run.stats.leaves + run.stats.interior) as i64),
                Cell::Int(run.stats.cutoffs as i64),
                Cell::Int(run.stats.tt_hits as i64),
                Cell::Int(run.generated as i64),
                Cell::Real(run.seconds, 3),
            ]),
            Err(why) => notes += &format!("{}: {}\n", al.label(), terminal_safe(why)),
        }
    }
    format!(
        "{} from its rules, {}\n{}{notes}",
        terminal_safe(game),
        horizon.text(),
        table.text()
    )
}

/// Under a comparison's table: the tied best moves and the principal variation by the runs'
/// reference values (the table's "best move" is each search's own); once when every run
/// shares them, else a line for each run.
fn compared_principals(
    algos: &[Algorithm],
    principals: &[Option<prune::game::best::Principal>],
) -> String {
    let shown: Vec<(&Algorithm, String)> = algos
        .iter()
        .zip(principals)
        .filter_map(|(al, p)| Some((al, principal_lines(p.as_ref()?))))
        .filter(|(_, text)| !text.is_empty())
        .collect();
    match shown.as_slice() {
        [] => String::new(),
        [(_, text), rest @ ..] if rest.iter().all(|(_, t)| t == text) => text.clone(),
        _ => shown
            .iter()
            .map(|(al, text)| {
                let indented = text.lines().collect::<Vec<_>>().join("; ");
                format!("{}: {indented}\n", al.label())
            })
            .collect(),
    }
}

/// "best moves: X a1, X b2\npv: X b2 → O a1 → …\n", or nothing where the root has no move to
/// choose (a finished game, a chance position).
fn principal_lines(p: &prune::game::best::Principal) -> String {
    if p.best_moves.is_empty() {
        return String::new();
    }
    let shown = |ms: &[(usize, String)], sep: &str| {
        ms.iter()
            .map(|(_, l)| terminal_safe(l).into_owned())
            .collect::<Vec<_>>()
            .join(sep)
    };
    let best = if p.best_moves.len() > 1 {
        "best moves"
    } else {
        "best move"
    };
    let mut out = format!("{best}: {}\n", shown(&p.best_moves, ", "));
    if !p.pv.is_empty() {
        out += &format!("pv: {}\n", shown(&p.pv, " → "));
    }
    out
}

fn run_json(run: &GameRun, game: &str, horizon: Horizon) -> serde_json::Value {
    json!({
        "algorithm": run.algorithm.name(),
        "parameters": run.algorithm.label(),
        "game": game,
        "depth": horizon.depth,
        "to_the_end": horizon.to_the_end,
        "value": value_json(&run.value),
        "bound": run.bound,
        "best_move": run.best.as_ref().map(|(_, label)| label),
        "best_move_index": run.best.as_ref().map(|(i, _)| i),
        "stats": run.stats,
        "generated_nodes": run.generated,
        "search_seconds": run.seconds,
    })
}

fn summary(
    run: &GameRun,
    game: &str,
    horizon: Horizon,
    principal: Option<&prune::game::best::Principal>,
) -> String {
    let s = &run.stats;
    let value = run.value.to_string();
    let mut out = format!(
        "{} on {} from its rules, {}\nvalue: {value} ({})\n",
        run.algorithm.label(),
        terminal_safe(game),
        horizon.text(),
        format!("{:?}", run.bound).to_lowercase(),
    );
    match principal.filter(|p| !p.best_moves.is_empty()) {
        Some(p) => out += &principal_lines(p),
        None => {
            if let Some((_, label)) = &run.best {
                out += &format!("best move: {}\n", terminal_safe(label));
            }
        }
    }
    out += &format!(
        "leaves evaluated: {}   interior nodes: {}   cutoffs: {}\n",
        s.leaves, s.interior, s.cutoffs
    );
    if s.tt_probes > 0 {
        out += &format!(
            "table: {} probes, {} hits, {} cutoffs\n",
            s.tt_probes, s.tt_hits, s.tt_cutoffs
        );
    }
    out += &format!(
        "generated: {} positions\nsearch: {:.3} s\n",
        run.generated, run.seconds
    );
    out
}

/// Records each search of `tui --game`'s `--run` on one lazy tree ([`game_run::record`]): the
/// searched tree, what the title bar calls it, and the runs (a refusal ends the command, as
/// `tui --run` does on a stored tree).
pub fn record(a: &TuiArgs) -> Result<(prune::tree::Tree, String, Vec<RunView>), CliError> {
    let flags = &a.tree.input.game;
    flags.refuse_walk_flags("the explorer, which records the searched tree")?;
    let spec = spec(flags, None)?;
    let horizon = horizon_of(&spec, a.depth)?;
    let depth = horizon.depth;
    let mut params = prune::search::Params::default();
    params.improvements.depth = a.depth.map(|_| depth);
    let algos = a
        .run
        .iter()
        .map(|spec| Algorithm::parse(spec, &params))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    let (recorded, game) = with_game(
        &spec,
        Record {
            algos: &algos,
            depth,
        },
    )?;
    let recorded = recorded.map_err(|e| CliError::Usage(e.to_string()))?;
    let mut runs = Vec::new();
    for (algo, r) in recorded.runs {
        let (run, trace) = r.map_err(|why| CliError::Usage(format!("cannot run {algo}: {why}")))?;
        runs.push(RunView::recorded(&recorded.tree, algo, run, trace));
    }
    let source = format!("{game} from its rules, {} (searched tree)", horizon.text());
    Ok((recorded.tree, source, runs))
}

struct Record<'a> {
    algos: &'a [Algorithm],
    depth: u32,
}

impl WithGame for Record<'_> {
    type Out = (Result<game_run::Recorded, game_run::GameRunError>, String);
    /// The recording, its progress shown on a terminal ([`ProgressLine`]).
    fn with<G: Game + Sync>(self, game: &G) -> Self::Out {
        let recorded = match ProgressLine::on_terminal() {
            Some(mut line) => {
                let every = line.every;
                let mut show = |algo: &Algorithm, r: &game_run::Report| line.show(algo, r);
                game_run::record_reporting(game, self.algos, self.depth, every, &mut show)
            }
            None => game_run::record(game, self.algos, self.depth),
        };
        (recorded, game.name())
    }
}

/// The tree of the game `flags` names, written out from its rules to `depth` moves (the whole
/// game without one): what `prune gen game` writes, with its size checks.
pub fn written_out(flags: &GameFlags, depth: Option<u32>) -> Result<prune::tree::Tree, CliError> {
    let name = flags.game.as_deref().expect("--game");
    flags.refuse_walk_flags("a game's tree written out")?;
    let spec = spec(flags, depth)?;
    match spec.built_in().depth {
        Depth::Needed(_) if depth.is_none() => {
            return Err(CliError::Usage(format!(
                "--game {name} needs --depth D, the depth the engine searched to"
            )));
        }
        Depth::ToTheEnd if depth.is_some() => {
            return Err(CliError::Usage(format!(
                "--game {name} has no heuristic to stop at a depth: give no --depth (the whole game)"
            )));
        }
        _ => {}
    }
    prune::generate::game::generate(&spec).map_err(|e| CliError::Usage(e.to_string()))
}

/// An unknown game's name refused: the closest game's name, and all of them.
fn unknown_game(typed: &str) -> CliError {
    let typed_shown = terminal_safe(typed);
    let all = GameSpec::NAMES.join(", ");
    CliError::Usage(match prune::text::closest_name(typed, GameSpec::NAMES) {
        Some(n) => {
            format!("unknown game \"{typed_shown}\"; did you mean \"{n}\"? The games are {all}")
        }
        None => format!("unknown game \"{typed_shown}\"; the games are {all}"),
    })
}
