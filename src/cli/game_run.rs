//! `prune run ALGO --game NAME --depth D`: a game searched from its rules ([`crate::game::run`]).

use serde_json::json;

use super::search::{RunArgs, value_json};
use super::{CliError, GameFlags, print};
use crate::game::connect_four::{ConnectFour, Moves};
use crate::game::run::{self as game_run, GameRun};
use crate::game::{Game, chess::Chess, nim::Nim, pig::Pig, tic_tac_toe::TicTacToe};
use crate::generate::game::GameSpec;
use crate::search::Algorithm;
use crate::text::{number_text, terminal_safe};

/// Runs `algo` on the game `a` names, to the depth `a` gives, and prints the result.
pub fn run(a: &RunArgs, flags: &GameFlags, algo: &Algorithm) -> Result<(), CliError> {
    if a.trace.is_some() || a.dot.is_some() || a.stats_csv.is_some() {
        return Err(CliError::Usage(
            "--trace, --dot and --stats-csv are not available with --game yet: write the tree out with --gen 'game NAME …' to trace its search".into(),
        ));
    }
    let name = flags.game.as_deref().expect("--game");
    let depth = a.params.params()?.improvements.depth.ok_or_else(|| {
        CliError::Usage(format!(
            "--game {name} needs --depth D: a search from the rules stops D moves on (positions there valued by the game's heuristic)"
        ))
    })?;
    let usage = |e: &dyn std::fmt::Display| CliError::Usage(e.to_string());
    let result = match name {
        "tic-tac-toe" => search(&TicTacToe, algo, depth),
        "nim" => {
            let heaps = flags.heaps.clone().unwrap_or_else(|| vec![1, 2, 3, 4]);
            search(
                &Nim::new(&heaps, flags.players.unwrap_or(2)).map_err(|e| usage(&e))?,
                algo,
                depth,
            )
        }
        "pig" => {
            let pig = Pig::new(
                flags.win.unwrap_or(6),
                flags.dice.unwrap_or(3),
                flags.horizon.unwrap_or(8),
            )
            .map_err(|e| usage(&e))?;
            search(&pig, algo, depth)
        }
        "connect-four" => {
            let moves =
                Moves::parse(flags.moves.as_deref().unwrap_or("")).map_err(|e| usage(&e))?;
            search(
                &ConnectFour::new(&moves).map_err(|e| usage(&e))?,
                algo,
                depth,
            )
        }
        "chess" => {
            let fen = flags.fen.as_deref().unwrap_or(crate::game::chess::START);
            search(&Chess::new(fen).map_err(|e| usage(&e))?, algo, depth)
        }
        other => {
            return Err(CliError::Usage(format!(
                "unknown game \"{}\"; the games are {}",
                terminal_safe(other),
                GameSpec::NAMES.join(", ")
            )));
        }
    };
    let (run, game) = result?;
    if a.json {
        let text = serde_json::to_string_pretty(&run_json(&run, &game, depth))
            .map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(crate::text::json_safe(text) + "\n"));
    }
    print(&summary(&run, &game, depth))
}

/// The run, and the game's name.
fn search<G: Game>(game: &G, algo: &Algorithm, depth: u32) -> Result<(GameRun, String), CliError> {
    let run = game_run::run(game, algo, depth).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((run, game.name()))
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
    let value = match &run.value {
        crate::search::Value::Scalar(x) => number_text(*x),
        crate::search::Value::Vector(xs) => {
            let parts: Vec<String> = xs.iter().map(|&x| number_text(x)).collect();
            format!("({})", parts.join(", "))
        }
    };
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
