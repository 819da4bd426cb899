//! A game searched from its rules on the command line: what once panicked exits 0 or 2 with a
//! message; a game's options are its own; the depth is optional where the game can be solved;
//! the run reports its best moves and principal variation; check-trace refuses a chess tree it
//! cannot write out at once.

use std::time::{Duration, Instant};

/// The command line: its exit code, standard output and standard error.
fn prune(args: &[&str]) -> (i32, String, String) {
    let out = crate::common::prune(args);
    let code = out.status.code().unwrap_or(-1);
    (
        code,
        crate::common::stdout(&out),
        crate::common::stderr(&out),
    )
}

/// Exit 0, or 2 with a message: never a panic.
fn runs_or_says_why(args: &[&str]) {
    let (code, out, err) = prune(args);
    let shown = args.join(" ");
    assert!(!err.contains("panicked"), "{shown}: {err}");
    match code {
        0 => assert!(out.contains("value"), "{shown}: {out}"),
        2 => assert!(
            err.starts_with("error: ") && err.len() > 20,
            "{shown}: {err}"
        ),
        _ => panic!("{shown}: exit {code}\n{out}{err}"),
    }
}

/// The cases that panicked: SSS*, max^n and shallow max^n, and the improved searches, on nim
/// and pig short of their end.
#[test]
fn the_panics_on_nim_and_pig_exit_0_or_2() {
    for game in ["nim", "pig"] {
        for depth in ["2", "3"] {
            let base = ["run", "--game", game, "--depth", depth];
            for algo in ["sss", "maxn", "maxn-shallow"] {
                runs_or_says_why(&[&[algo][..], &base].concat());
            }
            for algo in ["alphabeta", "negascout", "negascout-ab", "mtdf"] {
                for with in ["--tt", "--killers"] {
                    runs_or_says_why(&[&[algo, with][..], &base].concat());
                }
            }
        }
    }
    let (code, _, err) = prune(&["run", "sss", "--game", "nim", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no heuristic") && err.contains("--depth 10"),
        "{err}"
    );
    let (code, _, err) = prune(&["run", "alphabeta", "--game", "pig", "--depth", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("counts a roll of the die as a move"), "{err}");
    // An improvement the algorithm does not take is refused on a game as on a tree.
    let (code, _, err) = prune(&["run", "negascout-ab", "--tt", "--game", "nim"]);
    assert_eq!(code, 2);
    assert!(err.contains("takes no --tt"), "{err}");
}

#[test]
fn another_games_options_are_refused() {
    for args in [
        &[
            "run",
            "alphabeta",
            "--game",
            "tic-tac-toe",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ][..],
        &[
            "run",
            "alphabeta",
            "--game",
            "chess",
            "--depth",
            "2",
            "--heaps",
            "1,2",
        ],
        &["run", "alphabeta", "--game", "nim", "--moves", "44"],
        &[
            "compare",
            "--game",
            "connect-four",
            "--depth",
            "2",
            "--algos",
            "alphabeta",
            "--dice",
            "4",
        ],
        &["run", "expectiminimax", "--game", "pig", "--players", "3"],
    ] {
        let (code, _, err) = prune(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(" is ") && err.contains("'s"),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = prune(&[
        "run",
        "minimax",
        "--game",
        "nim",
        "--heaps",
        "1,2",
        "--players",
        "2",
    ]);
    assert_eq!(code, 0, "nim's own options: {err}");
}

/// Every reader of a game's parameters reads them from the registry (`generate::game::GAMES`):
/// each parameter is a flag of `gen game NAME` with the registry's help, a `--game` flag of the
/// searching commands with the same help, and the same value given either way builds the same
/// tree; a parameter of another game is refused, naming the game it belongs to.
#[test]
fn every_games_parameters_come_from_the_registry() {
    use prune::generate::game::{GAMES, GameSpec};
    for game in &GAMES {
        let (code, help, err) = prune(&["gen", "game", game.name, "--help"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            help.contains(game.about.split(';').next().unwrap()),
            "{help}"
        );
        let (_, run_help, _) = prune(&["run", "--help"]);
        let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        for p in game.params {
            let flag = format!("--{} <{}>", p.name, p.value_name);
            assert!(
                help.contains(&flag),
                "gen game {}: {flag}\n{help}",
                game.name
            );
            let first = p.help.split(' ').take(4).collect::<Vec<_>>().join(" ");
            assert!(
                flat(&help).to_lowercase().contains(&first.to_lowercase()),
                "{help}"
            );
            // The --game flag exists, with the help of the first game that has it.
            assert!(run_help.contains(&flag), "run --help: {flag}");
            // Another game refuses it, naming whose it is.
            let other = GAMES
                .iter()
                .find(|o| !o.params.iter().any(|q| q.name == p.name))
                .unwrap();
            let value = GameSpec::default_for(game.name)
                .unwrap()
                .value(p.name)
                .unwrap();
            let (code, _, err) = prune(&[
                "run",
                "minimax",
                "--game",
                other.name,
                "--depth",
                "1",
                &format!("--{}", p.name),
                &value,
            ]);
            assert_eq!(code, 2, "{err}");
            assert!(
                err.contains(&format!("--{} is {}'s", p.name, game.name)),
                "{err}"
            );
        }
    }
    // The command line a generated tree is rebuilt by (the explorer's title) is the registry's
    // too, and `gen game` reads it back to the same game.
    let mut pig = GameSpec::default_for("pig").unwrap();
    pig.set("win", "4").unwrap();
    pig.set("horizon", "5").unwrap();
    let line = prune::generate::Spec::Game(pig).command(1);
    assert_eq!(line, "prune gen game pig --win 4 --horizon 5");
    let (code, from_line, err) = prune(&["info", "--json", "--gen", &line]);
    assert_eq!(code, 0, "{err}");
    let (_, direct, _) = prune(&["info", "--json", "--gen", "game pig --horizon 5 --win 4"]);
    assert_eq!(from_line, direct);
}

/// `info`, `draw`, `analyze` and `convert` read stored trees only: their help does not offer a
/// game's flags, and `--game` is refused with the way to a game's tree.
#[test]
fn commands_that_cannot_take_a_game_do_not_offer_it() {
    for command in ["info", "draw", "analyze", "convert"] {
        let (code, out, _) = prune(&[command, "--help"]);
        assert_eq!(code, 0);
        for flag in ["--game", "--fen", "--heaps", "--horizon"] {
            assert!(!out.contains(flag), "{command} --help offers {flag}");
        }
    }
    for command in ["run", "compare", "tui", "check-trace"] {
        let (_, out, _) = prune(&[command, "--help"]);
        assert!(out.contains("--game"), "{command} --help");
    }
    let (code, _, err) = prune(&["info", "--game", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("--gen 'game chess"), "{err}");
}

#[test]
fn games_that_end_are_solved_without_a_depth() {
    let (code, out, err) = prune(&["run", "negascout", "--game", "tic-tac-toe"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to the end (9 moves at most)"), "{out}");
    let (code, out, err) = prune(&["run", "expectiminimax", "--game", "pig", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["depth"], 15);
    assert_eq!(json["to_the_end"], true);
    let (code, out, err) = prune(&["run", "alphabeta", "--game", "nim", "--heaps", "1,2,3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value: -1"), "{out}");
    // A depth beyond the end is the end; iterative deepening stops there.
    let (code, out, err) = prune(&[
        "run",
        "alphabeta",
        "--id",
        "--game",
        "tic-tac-toe",
        "--depth",
        "40",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["depth"], 9);
    assert!(json["stats"]["iteration_nodes"].as_array().unwrap().len() <= 9);
    // Connect-four and chess last too long to be searched to the end.
    for game in ["connect-four", "chess"] {
        let (code, _, err) = prune(&["run", "alphabeta", "--game", game]);
        assert_eq!(code, 2);
        assert!(err.contains("needs --depth"), "{err}");
    }
}

#[test]
fn a_run_on_a_game_reports_its_best_moves_and_principal_variation() {
    let (code, out, err) = prune(&["run", "alphabeta", "--game", "tic-tac-toe"]);
    assert_eq!(code, 0, "{err}");
    // Every first move draws.
    assert!(out.contains("best moves: X a1, X b1, X c1"), "{out}");
    assert!(out.contains("pv: X a1 → "), "{out}");
    let (code, out, err) = prune(&[
        "run",
        "negascout",
        "--game",
        "connect-four",
        "--depth",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pv = json["pv"].as_array().unwrap();
    assert_eq!(pv.len(), 4, "{json}");
    assert_eq!(json["pv_labels"].as_array().unwrap().len(), 4);
    assert!(!json["best_moves"].as_array().unwrap().is_empty());
    assert_eq!(
        json["best_move_labels"][0], json["pv_labels"][0],
        "the variation starts with the first best move"
    );
}

/// `compare --game` reports the tied best moves and the principal variation under its table
/// (the table's "best move" is each search's own), once when the runs share their reference
/// values, a line a run when they do not; each JSON row carries them.
#[test]
fn a_comparison_on_a_game_reports_the_best_moves_and_principal_variation() {
    let (code, out, err) = prune(&[
        "compare",
        "--game",
        "tic-tac-toe",
        "--algos",
        "alphabeta,negascout:tt,mtdf:tt:id",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.matches("best moves: X a1, X b1, X c1").count(),
        1,
        "{out}"
    );
    assert_eq!(out.matches("pv: X a1 → ").count(), 1, "{out}");
    let (code, out, err) = prune(&[
        "compare",
        "--game",
        "nim",
        "--heaps",
        "1,2",
        "--players",
        "3",
        "--algos",
        "maxn,paranoid",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("maxn: best moves: "), "{out}");
    assert!(out.contains("paranoid --player 1: best moves: "), "{out}");
    let (code, out, err) = prune(&[
        "compare",
        "--game",
        "connect-four",
        "--depth",
        "3",
        "--algos",
        "alphabeta,minimax",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    for row in &rows {
        assert_eq!(row["pv"].as_array().unwrap().len(), 3, "{row}");
        assert_eq!(
            row["best_moves"], rows[0]["best_moves"],
            "one family, one answer"
        );
    }
}

#[test]
fn check_trace_refuses_a_chess_tree_too_large_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().unwrap();
    let (code, _, err) = prune(&[
        "run",
        "alphabeta",
        "--gen",
        "game chess --depth 1",
        "--trace",
        t,
        "--trace-format",
        "protocol",
    ]);
    assert_eq!(code, 0, "{err}");
    for depth in ["6", "7", "10"] {
        let start = Instant::now();
        let (code, _, err) = prune(&["check-trace", t, "--game", "chess", "--depth", depth]);
        let took = start.elapsed();
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("estimated"), "{err}");
        assert!(took < Duration::from_secs(1), "depth {depth}: {took:?}");
    }
    let (code, out, err) = prune(&["check-trace", t, "--game", "chess", "--depth", "1"]);
    assert_eq!(code, 0, "{out}{err}");
}
