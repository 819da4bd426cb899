//! `prune run ALGO --game NAME --depth D`: a game searched from its rules ([`crate::game::run`]).

use serde_json::json;

use super::search::{CompareArgs, RunArgs, value_json};
use super::{CliError, GameFlags, TuiArgs, print};
use crate::game::connect_four::{ConnectFour, Moves};
use crate::game::run::{self as game_run, GameRun};
use crate::game::{Game, chess::Chess, nim::Nim, pig::Pig, tic_tac_toe::TicTacToe};
use crate::generate::game::GameSpec;
use crate::search::Algorithm;
use crate::text::{number_text, terminal_safe};
use crate::tui::RunView;

/// Something to do with a game, whichever it is (a game's type is known only at run time).
trait WithGame {
    type Out;
    fn with<G: Game>(self, game: &G) -> Self::Out;
}

/// Builds the game `flags` names and does `f` with it.
fn with_game<F: WithGame>(flags: &GameFlags, f: F) -> Result<F::Out, CliError> {
    let name = flags.game.as_deref().expect("--game");
    let usage = |e: &dyn std::fmt::Display| CliError::Usage(e.to_string());
    Ok(match name {
        "tic-tac-toe" => f.with(&TicTacToe),
        "nim" => {
            let heaps = flags.heaps.clone().unwrap_or_else(|| vec![1, 2, 3, 4]);
            f.with(&Nim::new(&heaps, flags.players.unwrap_or(2)).map_err(|e| usage(&e))?)
        }
        "pig" => {
            let pig = Pig::new(
                flags.win.unwrap_or(6),
                flags.dice.unwrap_or(3),
                flags.horizon.unwrap_or(8),
            )
            .map_err(|e| usage(&e))?;
            f.with(&pig)
        }
        "connect-four" => {
            let moves =
                Moves::parse(flags.moves.as_deref().unwrap_or("")).map_err(|e| usage(&e))?;
            f.with(&ConnectFour::new(&moves).map_err(|e| usage(&e))?)
        }
        "chess" => {
            let fen = flags.fen.as_deref().unwrap_or(crate::game::chess::START);
            f.with(&Chess::new(fen).map_err(|e| usage(&e))?)
        }
        other => return Err(unknown_game(other)),
    })
}

/// The horizon: `--depth`, which a game needs.
fn depth_of(flags: &GameFlags, depth: Option<u32>) -> Result<u32, CliError> {
    depth.ok_or_else(|| {
        CliError::Usage(format!(
            "--game {} needs --depth D: a search from the rules stops D moves on (positions there valued by the game's heuristic)",
            flags.game.as_deref().unwrap_or("")
        ))
    })
}

/// Runs each algorithm on the game, in order: each run, or why it could not, and the game's
/// name.
struct Runs<'a> {
    algos: &'a [Algorithm],
    depth: u32,
}

impl WithGame for Runs<'_> {
    type Out = (Vec<Result<GameRun, String>>, String);
    fn with<G: Game>(self, game: &G) -> Self::Out {
        let runs = self
            .algos
            .iter()
            .map(|al| game_run::run(game, al, self.depth).map_err(|e| e.to_string()))
            .collect();
        (runs, game.name())
    }
}

/// Runs `algo` on the game `a` names, to the depth `a` gives, and prints the result.
pub fn run(a: &RunArgs, flags: &GameFlags, algo: &Algorithm) -> Result<(), CliError> {
    let depth = depth_of(flags, a.params.params()?.improvements.depth)?;
    if a.trace.is_some() || a.dot.is_some() || a.stats_csv.is_some() {
        return record_to_files(a, flags, algo, depth);
    }
    let algos = std::slice::from_ref(algo);
    let (mut runs, game) = with_game(flags, Runs { algos, depth })?;
    let run = runs.pop().expect("one run").map_err(CliError::Usage)?;
    if a.json {
        let text = serde_json::to_string_pretty(&run_json(&run, &game, depth))
            .map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(crate::text::json_safe(text) + "\n"));
    }
    print(&summary(&run, &game, depth))
}

/// `run --game` with a trace, a picture or the statistics' CSV: the search recorded, and what
/// was asked written on the tree it searched ([`game_run::record`]: positions never expanded
/// are leaves labelled "(not expanded)"); the summary or JSON printed as without them.
fn record_to_files(
    a: &RunArgs,
    flags: &GameFlags,
    algo: &Algorithm,
    depth: u32,
) -> Result<(), CliError> {
    if a.trace_format == super::search::TraceFormat::Protocol {
        crate::protocol::write::protocol_claim(algo).map_err(CliError::usage)?;
    }
    let algos = std::slice::from_ref(algo);
    let (recorded, game) = with_game(flags, Record { algos, depth })?;
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
    if a.json {
        let text = serde_json::to_string_pretty(&run_json(&summary_run, &game, depth))
            .map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(crate::text::json_safe(text) + "\n"));
    }
    print(&summary(&summary_run, &game, depth))
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
    let depth = depth_of(flags, a.params.params()?.improvements.depth)?;
    let (runs, game) = with_game(flags, Runs { algos, depth })?;
    if a.json {
        let rows: Vec<serde_json::Value> = algos
            .iter()
            .zip(&runs)
            .map(|(al, r)| match r {
                Ok(run) => run_json(run, &game, depth),
                Err(why) => json!({"algorithm": al.name(), "parameters": al.label(), "error": why}),
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::Internal(e.to_string()))?;
        print(&(crate::text::json_safe(text) + "\n"))?;
    } else {
        print(&compare_table(algos, &runs, &game, depth))?;
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
    depth: u32,
) -> String {
    let header = [
        "algorithm",
        "value",
        "best move",
        "leaves",
        "nodes",
        "cutoffs",
        "tt hits",
        "generated",
        "seconds",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    let mut notes = String::new();
    for (al, r) in algos.iter().zip(runs) {
        match r {
            Ok(run) => rows.push(vec![
                al.label(),
                value_text(run),
                run.best
                    .as_ref()
                    .map_or("—".into(), |(_, l)| terminal_safe(l).into_owned()),
                run.stats.leaves.to_string(),
                (run.stats.leaves + run.stats.interior).to_string(),
                run.stats.cutoffs.to_string(),
                run.stats.tt_hits.to_string(),
                run.generated.to_string(),
                format!("{:.3}", run.seconds),
            ]),
            Err(why) => notes += &format!("{}: {}\n", al.label(), terminal_safe(why)),
        }
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!(
        "{} from its rules, {depth} moves deep\n",
        terminal_safe(game)
    );
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                let pad = w - cell.chars().count();
                if c < 3 {
                    format!("{cell}{}", " ".repeat(pad))
                } else {
                    format!("{}{cell}", " ".repeat(pad))
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
    }
    out + &notes
}

fn value_text(run: &GameRun) -> String {
    match &run.value {
        crate::search::Value::Scalar(x) => number_text(*x),
        crate::search::Value::Vector(xs) => {
            let parts: Vec<String> = xs.iter().map(|&x| number_text(x)).collect();
            format!("({})", parts.join(", "))
        }
    }
}

fn run_json(run: &GameRun, game: &str, depth: u32) -> serde_json::Value {
    json!({
        "algorithm": run.algorithm.name(),
        "parameters": run.algorithm.label(),
        "game": game,
        "depth": depth,
        "value": value_json(&run.value),
        "bound": run.bound,
        "best_move": run.best.as_ref().map(|(_, label)| label),
        "best_move_index": run.best.as_ref().map(|(i, _)| i),
        "stats": run.stats,
        "generated_nodes": run.generated,
        "search_seconds": run.seconds,
    })
}

fn summary(run: &GameRun, game: &str, depth: u32) -> String {
    let s = &run.stats;
    let value = value_text(run);
    let mut out = format!(
        "{} on {} from its rules, {depth} moves deep\nvalue: {value} ({})\n",
        run.algorithm.label(),
        terminal_safe(game),
        format!("{:?}", run.bound).to_lowercase(),
    );
    if let Some((_, label)) = &run.best {
        out += &format!("best move: {}\n", terminal_safe(label));
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
        "generated: {} nodes (searched ones and their siblings)\nsearch: {:.3} s\n",
        run.generated, run.seconds
    );
    out
}

/// Records each search of `tui --game`'s `--run` on one lazy tree ([`game_run::record`]): the
/// searched tree, what the title bar calls it, and the runs (a refusal ends the command, as
/// `tui --run` does on a stored tree).
pub fn record(a: &TuiArgs) -> Result<(crate::tree::Tree, String, Vec<RunView>), CliError> {
    let flags = &a.tree.input.game;
    let depth = depth_of(flags, a.depth)?;
    let mut params = crate::search::Params::default();
    params.improvements.depth = Some(depth);
    let algos = a
        .run
        .iter()
        .map(|spec| Algorithm::parse(spec, &params))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    let (recorded, game) = with_game(
        flags,
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
    let source = format!("{game} from its rules, depth {depth} (searched tree)");
    Ok((recorded.tree, source, runs))
}

struct Record<'a> {
    algos: &'a [Algorithm],
    depth: u32,
}

impl WithGame for Record<'_> {
    type Out = (Result<game_run::Recorded, game_run::GameRunError>, String);
    fn with<G: Game>(self, game: &G) -> Self::Out {
        (game_run::record(game, self.algos, self.depth), game.name())
    }
}

/// The tree of the game `flags` names, written out from its rules to `depth` moves (the whole
/// game without one): what `prune gen game` writes, with its size checks.
pub fn written_out(flags: &GameFlags, depth: Option<u32>) -> Result<crate::tree::Tree, CliError> {
    use crate::generate::game::{Fen, Heaps, generate};
    let name = flags.game.as_deref().expect("--game");
    let usage = |e: &dyn std::fmt::Display| CliError::Usage(e.to_string());
    let needs_depth = || {
        depth.ok_or_else(|| {
            CliError::Usage(format!(
                "--game {name} needs --depth D, the depth the engine searched to"
            ))
        })
    };
    let spec = match name {
        "tic-tac-toe" => GameSpec::TicTacToe { depth },
        "nim" => GameSpec::Nim {
            heaps: Heaps::new(flags.heaps.as_deref().unwrap_or(&[1, 2, 3, 4]))
                .map_err(|e| usage(&e))?,
            players: flags.players.unwrap_or(2),
        },
        "pig" => GameSpec::Pig {
            win: flags.win.unwrap_or(6),
            dice: flags.dice.unwrap_or(3),
            horizon: flags.horizon.unwrap_or(8),
        },
        "connect-four" => GameSpec::ConnectFour {
            depth: needs_depth()?,
            moves: Moves::parse(flags.moves.as_deref().unwrap_or("")).map_err(|e| usage(&e))?,
        },
        "chess" => GameSpec::Chess {
            depth: needs_depth()?,
            fen: Fen::parse(flags.fen.as_deref().unwrap_or(crate::game::chess::START))
                .map_err(|e| usage(&e))?,
        },
        other => return Err(unknown_game(other)),
    };
    if depth.is_some() && matches!(spec, GameSpec::Nim { .. } | GameSpec::Pig { .. }) {
        return Err(CliError::Usage(format!(
            "--game {name} has no heuristic to stop at a depth: give no --depth (the whole game)"
        )));
    }
    generate(&spec).map_err(|e| usage(&e))
}

/// An unknown game's name refused: the closest game's name, and all of them.
fn unknown_game(typed: &str) -> CliError {
    let typed_shown = terminal_safe(typed);
    let all = GameSpec::NAMES.join(", ");
    CliError::Usage(match crate::text::closest_name(typed, GameSpec::NAMES) {
        Some(n) => {
            format!("unknown game \"{typed_shown}\"; did you mean \"{n}\"? The games are {all}")
        }
        None => format!("unknown game \"{typed_shown}\"; the games are {all}"),
    })
}
