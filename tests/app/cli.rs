//! The `prune` binary end to end: commands, exit codes, stdout/stderr, files.

use std::path::Path;
use std::process::Output;

use crate::common::{prune, stderr, stdout};

#[test]
fn no_arguments_describes_the_built_in_tree() {
    let o = prune(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("first steps"));
    assert!(stdout(&o).contains("22 (10 interior, 12 leaves)"));
}

#[test]
fn info_json_has_the_documented_fields() {
    let o = prune(&["info", "--json", "--expr", "((3,12,8),(2,4,6),(14,5,2))"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 13);
    assert_eq!(v["leaves"], 9);
    assert_eq!(v["depth"], 2);
    assert_eq!(v["players"], 2);
    let o = prune(&["info", "--json", "trees/ballard-figure-6.ron"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["bounds"], serde_json::json!([-10.0, 10.0]));
    assert_eq!(v["bounds_declared"], true);
    assert_eq!(v["regular"], false);
}

#[test]
fn the_same_seed_gives_the_same_tree() {
    let a = prune(&["gen", "chance", "--uneven", "--seed", "9"]);
    let b = prune(&["gen", "chance", "--uneven", "--seed", "9"]);
    let c = prune(&["gen", "chance", "--uneven", "--seed", "10"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    assert_ne!(stdout(&a), stdout(&c));
}

#[test]
fn generated_trees_are_pinned() {
    // A change here changes every seeded tree users have generated: a breaking change.
    let o = prune(&[
        "gen", "uniform", "-b", "2", "-d", "3", "--seed", "42", "--to", "bracket",
    ]);
    assert_eq!(stdout(&o).trim(), "(((19,9),(96,72)),((2,25),(74,68)))");
}

#[test]
fn convert_round_trips_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let efg = dir.path().join("t.efg");
    let ron = dir.path().join("t.ron");
    let o = prune(&[
        "convert",
        "trees/ballard-figure-6.ron",
        efg.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&efg)
            .unwrap()
            .starts_with("EFG 2 R \"Ballard Figure 6\"")
    );
    let o = prune(&["convert", efg.to_str().unwrap(), ron.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = prune(&["convert", "--expr", "(a=1,b=*(2,3))", "--to", "efg"]);
    assert!(
        stdout(&o).contains("c \"\" 1 \"\" { \"\" 1/2 \"\" 1/2 } 0"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ron");
    let o = prune(&[
        "convert",
        "tests/malformed/ron-prob-sum.ron",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("tests/malformed/ron-prob-sum.ron:2:5"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists(), "no partial output file");
    let o = prune(&[
        "gen",
        "uniform",
        "-b",
        "1000",
        "-d",
        "9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more nodes than can be counted"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    assert_eq!(
        dir.path().read_dir().unwrap().count(),
        0,
        "no temporary files left behind"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(prune(&["info"]).status.code(), Some(2));
    assert_eq!(prune(&["info", "--bogus"]).status.code(), Some(2));
    assert_eq!(
        prune(&["gen", "uniform", "--order", "sideways"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        prune(&["info", "x.ron", "--expr", "(1)"]).status.code(),
        Some(2)
    );
    let o = prune(&["info", "does-not-exist.ron"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read does-not-exist.ron"));
}

#[test]
fn help_version_and_completions() {
    for args in [
        &["--help"][..],
        &["gen", "star-complete", "--help"],
        &["convert", "--help"],
        &["--version"],
    ] {
        let o = prune(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(!stdout(&o).is_empty());
    }
    let o = prune(&["completions", "bash"]);
    assert!(stdout(&o).contains("prune"));
}

/// The bash completions offer the catalogue's algorithms (the run's ALGO, `--algos`, `--run`,
/// `--practice`), the experiments and the games, while the help does not list them (each
/// names where the list is) and a typo still gets the command's own suggestion.
#[test]
fn completions_offer_algorithms_experiments_and_games() {
    let script = stdout(&prune(&["completions", "bash"]));
    let words = |names: Vec<&str>| names.join(" ");
    let algos = words(prune::search::ALGORITHMS.iter().map(|a| a.name).collect());
    let games = words(prune::generate::game::GameSpec::NAMES.to_vec());
    for flag in ["--algos", "--run", "--practice"] {
        let offer = format!("{flag})\n                    COMPREPLY=($(compgen -W \"{algos}\"");
        assert!(script.contains(&offer), "{flag} offers {algos}");
    }
    assert!(script.contains(&format!(
        "--game)\n                    COMPREPLY=($(compgen -W \"{games}\""
    )));
    let experiments = words(
        prune_cli::experiment::EXPERIMENTS
            .iter()
            .map(|e| e.name)
            .collect(),
    );
    assert!(
        script.contains(&format!("--help {experiments}")),
        "prune experiment NAME offers {experiments}"
    );
    assert!(
        script.contains(&format!("--help {algos}\"")),
        "prune run ALGO offers {algos}"
    );
    for args in [
        &["run", "--help"][..],
        &["compare", "--help"],
        &["experiment", "--help"],
        &["tui", "--help"],
    ] {
        let help = stdout(&prune(args));
        for first in ["minimax", "tic-tac-toe", "ballard-best"] {
            let listed = format!("possible values: {first}");
            assert!(!help.contains(&listed), "{args:?}: {listed}");
        }
    }
    let o = prune(&["experiment", "eval-learnin"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `eval-learning`?"));
}

#[test]
fn every_sample_tree_loads() {
    for entry in std::fs::read_dir("trees").unwrap() {
        let path = entry.unwrap().path();
        let o = prune(&["info", path.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {}",
            path.display(),
            stderr(&o)
        );
    }
    assert!(Path::new("trees/default.ron").exists());
}

const CLASSIC: &str = "((3,12,8),(2,4,6),(14,5,2))";

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn run_json_has_the_documented_fields() {
    let v = json(&prune(&["run", "alphabeta", "--json", "--expr", CLASSIC]));
    assert_eq!(v["algorithm"], "alphabeta");
    assert_eq!(v["value"], 3.0);
    assert_eq!(v["bound"], "exact");
    assert_eq!(v["best_moves"], serde_json::json!([0]));
    assert_eq!(v["pv"], serde_json::json!([0, 0]));
    let s = &v["stats"];
    assert_eq!(s["leaves"], 7);
    assert_eq!(s["distinct_leaves"], 7);
    assert_eq!(s["nodes"], 11, "every visit, leaves included");
    assert_eq!(s["cutoffs"], 2);
    assert_eq!(s["cutoffs_by_kind"]["alpha"], 2);
    assert_eq!(s["minimal_tree_leaves"], 5);
    assert!(v["search_seconds"].as_f64().unwrap() >= 0.0);

    // Ties: both root moves are best; n-player values are vectors.
    let v = json(&prune(&[
        "run",
        "minimax",
        "--json",
        "--expr",
        "((5,7),(6,5))",
    ]));
    assert_eq!(v["best_moves"], serde_json::json!([0, 1]));
    let v = json(&prune(&[
        "run",
        "maxn",
        "--json",
        "trees/maxn-deep-pruning-failure.ron",
    ]));
    assert_eq!(v["value"], serde_json::json!([6.0, 1.0, 2.0]));
}

#[test]
fn run_parameters_reach_the_algorithm() {
    let v = json(&prune(&[
        "run",
        "star2",
        "--probes",
        "2",
        "--json",
        "trees/ballard-figure-6.ron",
    ]));
    assert_eq!(v["parameters"], "star2 --probes 2");
    let v = json(&prune(&[
        "run",
        "alphabeta",
        "--fail-soft",
        "--json",
        "--expr",
        CLASSIC,
    ]));
    assert_eq!(v["parameters"], "alphabeta --fail-soft");
}

#[test]
fn run_refuses_what_an_algorithm_cannot_search() {
    let o = prune(&["run", "alphabeta", "trees/ballard-figure-6.ron"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("chance"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let o = prune(&["run", "no-such-algorithm", "--expr", CLASSIC]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("minimax, alphabeta"), "{}", stderr(&o));
}

#[test]
fn run_writes_trace_stats_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.jsonl");
    let csv = dir.path().join("s.csv");
    let dot = dir.path().join("t.dot");
    let o = prune(&[
        "run",
        "star2",
        "trees/ballard-figure-6.ron",
        "--trace",
        trace.to_str().unwrap(),
        "--stats-csv",
        csv.to_str().unwrap(),
        "--dot",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["prune_trace"], 1);
    assert_eq!(lines[0]["events"], lines.len() as u64 - 1);
    assert_eq!(lines[1]["event"], "enter");
    assert_eq!(lines[1]["node"], 0);
    assert!(lines.iter().any(|l| l["event"] == "chance_bounds"));
    assert!(lines.iter().any(|l| l["event"] == "probe"));
    assert_eq!(lines.last().unwrap()["event"], "exit");
    assert_eq!(lines.last().unwrap()["node"], 0);
    for (i, l) in lines[1..].iter().enumerate() {
        assert_eq!(l["step"], i as u64);
    }

    let csv = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2);
    assert!(rows[0].starts_with("algorithm,value,bound,leaves,distinct_leaves"));
    assert!(rows[1].starts_with("star2,"));

    let dot = std::fs::read_to_string(&dot).unwrap();
    assert!(dot.starts_with("digraph"));
    assert!(dot.contains("penwidth"), "the principal variation is drawn");
}

#[test]
fn compare_puts_every_algorithm_in_one_table() {
    let o = prune(&[
        "compare",
        "--expr",
        CLASSIC,
        "--algos",
        "minimax,alphabeta,negascout,star1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for name in ["minimax", "alphabeta", "negascout", "star1"] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "{name} row in\n{out}"
        );
    }
    let v = json(&prune(&[
        "compare",
        "--json",
        "trees/ballard-figure-6.ron",
        "--algos",
        "expectiminimax,star1,star2:probes=2,alphabeta",
    ]));
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["value"], rows[2]["value"]);
    assert!(
        rows[3]["error"].as_str().unwrap().contains("chance"),
        "{}",
        rows[3]
    );
}

#[test]
fn algos_lists_every_algorithm_with_its_paper() {
    let v = json(&prune(&["algos", "--json"]));
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    for name in [
        "minimax",
        "alphabeta",
        "negascout",
        "negascout-ab",
        "sss",
        "mtdf",
        "expectiminimax",
        "star1",
        "star2",
        "product",
        "krule",
        "maxn",
        "maxn-shallow",
        "paranoid",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .all(|a| !a["source"].as_str().unwrap().is_empty())
    );
}

#[test]
fn analyze_types_every_node() {
    let v = json(&prune(&["analyze", "--json", "--expr", CLASSIC]));
    assert_eq!(v["minimal_leaves"], 5);
    let types = v["types"].as_array().unwrap();
    assert_eq!(types.len(), 13);
    assert_eq!(types[0], "pv");
    let o = prune(&[
        "gen", "uniform", "-b", "3", "-d", "5", "--order", "best", "--seed", "4",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("best.ron");
    std::fs::write(&file, &o.stdout).unwrap();
    let v = json(&prune(&["analyze", "--json", file.to_str().unwrap()]));
    assert_eq!(v["minimal_leaves"], 27 + 9 - 1);
}

#[test]
fn gen_ordered_follows_reinefeld_and_marsland() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("o.ron");
    let o = prune(&[
        "gen",
        "ordered",
        "-b",
        "3",
        "-d",
        "4",
        "-g",
        "0",
        "-r",
        "0",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&prune(&[
        "run",
        "alphabeta",
        "--json",
        file.to_str().unwrap(),
    ]));
    assert_eq!(
        v["stats"]["leaves"],
        9 + 9 - 1,
        "g = r = 0: the minimal tree"
    );
    let o = prune(&["gen", "ordered", "-b", "3", "-g", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("below the width"), "{}", stderr(&o));
}

#[test]
fn expr_accepts_a_leading_minus_for_a_min_root() {
    let o = prune(&["info", "--expr", "-((1,2),(3,4))"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("2 max, 1 min"), "{}", stdout(&o));
    let o = prune(&["run", "minimax", "--expr", "-((1,2),(3,4))"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("value          2"), "{}", stdout(&o));
}

#[test]
fn names_and_labels_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evil.ron");
    std::fs::write(
        &path,
        "(name: \"t\\u{1b}]0;pwned\\u{7}\\u{202e}\", description: \"d\\u{9b}2J\", \
         root: Max([Leaf(\"a\\u{1b}[2J\", 3), Leaf(\"b\\u{200b}\", 1)]))",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["info", p],
        vec!["run", "alphabeta", p],
        vec!["compare", "--algos", "alphabeta,negascout", p],
        vec!["analyze", p],
    ] {
        let o = prune(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            !out.chars()
                .any(|c| c != '\n' && prune::text::is_unsafe_char(c)),
            "{args:?}: {out:?}"
        );
        if args[0] != "compare" {
            assert!(out.contains("\\u{1b}"), "{args:?}: {out}");
        }
    }
    let o = prune(&["info", p]);
    assert!(
        stdout(&o).contains("t\\u{1b}]0;pwned\\u{7}\\u{202e}"),
        "{}",
        stdout(&o)
    );
    let o = prune(&["run", "alphabeta", p]);
    assert!(
        stdout(&o).contains("best move      a\\u{1b}[2J"),
        "{}",
        stdout(&o)
    );
    // JSON keeps the exact text, escaped by serde.
    let o = prune(&["info", "--json", p]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["name"], "t\u{1b}]0;pwned\u{7}\u{202e}");
    assert!(!stdout(&o).contains('\u{1b}'));
}

#[test]
fn large_numbers_are_printed_in_exponent_form() {
    let o = prune(&["info", "--expr", "(1e308, -1e300)"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("-1e300..1e308"), "{}", stdout(&o));
    let o = prune(&["run", "minimax", "--expr", "(1e308, 5)"]);
    assert!(
        stdout(&o).contains("value          1e308"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn errors_quoting_control_characters_are_escaped() {
    let o = prune(&["info", "--expr", "(3, 4 \"x\u{1b}]0;t\u{7}\")"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        !err.chars()
            .any(|c| c != '\n' && prune::text::is_unsafe_char(c)),
        "{err:?}"
    );
    assert!(err.contains("x\\u{1b}]0;t\\u{7}"), "{err}");
}

/// `prune tui --practice ALGO` checks its algorithm as `--run` does: an unknown name or one
/// that does not apply to the tree is a usage error, before any terminal is needed.
#[test]
fn tui_practice_checks_its_algorithm() {
    let o = prune(&["tui", "--expr", "(1,2)", "--practice", "star9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("star9"), "{}", stderr(&o));
    let four = concat!(env!("CARGO_MANIFEST_DIR"), "/trees/four-players.ron");
    let o = prune(&["tui", four, "--practice", "alphabeta"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot run alphabeta"),
        "{}",
        stderr(&o)
    );
    // A good one gets as far as asking for a terminal.
    let o = prune(&[
        "tui",
        "--expr",
        "(1,2)",
        "--practice",
        "alphabeta:fail-soft",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a terminal"), "{}", stderr(&o));
}

/// `--gen` takes `prune gen`'s arguments: the same seed gives the same tree as the file `gen`
/// writes, so a class handed "seed 42" searches one tree; output flags and bad families are
/// refused with exit code 2.
#[test]
fn gen_flag_builds_the_tree_prune_gen_writes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ron");
    let args = "uniform -b 3 -d 4 --order random --seed 42";
    let mut gen_args = vec!["gen"];
    gen_args.extend(args.split(' '));
    gen_args.extend(["-o", file.to_str().unwrap()]);
    assert_eq!(prune(&gen_args).status.code(), Some(0));
    let from_file = prune(&["run", "alphabeta", "--json", file.to_str().unwrap()]);
    let from_flag = prune(&["run", "alphabeta", "--json", "--gen", args]);
    assert_eq!(from_flag.status.code(), Some(0), "{}", stderr(&from_flag));
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&stdout(&from_file)).unwrap(),
        serde_json::from_str(&stdout(&from_flag)).unwrap(),
    );
    assert_eq!(a["value"], b["value"]);
    assert_eq!(a["stats"]["leaves"], b["stats"]["leaves"]);
    // `prune gen` in front is allowed; the tree is the same.
    let info = prune(&["info", "--json", "--gen", &format!("prune gen {args}")]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&info)).unwrap();
    assert_eq!(v["leaves"], 81);
    for (bad, says) in [
        ("uniform -b 3 -o x.ron", "-o and --to write a file"),
        ("uniformly -b 3", "unrecognized subcommand 'uniformly'"),
        ("uniform -b 0", "--gen 'uniform -b 0'"),
    ] {
        let o = prune(&["info", "--gen", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains(says), "{bad}: {}", stderr(&o));
    }
    let o = prune(&["info", "t.ron", "--gen", args]);
    assert_eq!(o.status.code(), Some(2));
}

/// `compare` whose every algorithm failed has nothing to compare: it still prints the table and
/// its notes, then exits 2, as `run` does for an algorithm that cannot search the tree.
#[test]
fn compare_fails_when_every_algorithm_failed() {
    let chance = "trees/ballard-figure-6.ron";
    let o = prune(&["compare", chance, "--algos", "alphabeta,negascout"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stdout(&o).contains("alphabeta"), "{}", stdout(&o));
    assert!(stderr(&o).contains("no algorithm"), "{}", stderr(&o));
    let o = prune(&["compare", "--json", chance, "--algos", "alphabeta"]);
    assert_eq!(o.status.code(), Some(2));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(rows[0]["error"].is_string(), "{rows}");
    let o = prune(&["compare", chance, "--algos", "alphabeta,star1"]);
    assert_eq!(o.status.code(), Some(0), "one of them ran: {}", stderr(&o));
}

#[test]
fn an_output_extension_that_names_no_format_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xyz");
    let o = prune(&["convert", "trees/default.ron", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains(".ron, .efg") && err.contains("--to"), "{err}");
    assert!(!out.exists());
    let o = prune(&["gen", "uniform", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    let o = prune(&[
        "convert",
        "trees/default.ron",
        out.to_str().unwrap(),
        "--to",
        "efg",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("EFG"));
}

/// `--depth D` and `depth=D` are one parameter: the same values pass, the same are refused.
#[test]
fn depth_flag_and_inline_depth_take_the_same_values() {
    let tree = "--gen=game connect-four -d 3";
    for d in [
        "0",
        "2",
        "+2",
        "02",
        "2.0",
        " 2",
        "1000000000",
        "1000000001",
        "4294967296",
        "-1",
        "x",
        "",
    ] {
        let flag = prune(&["run", "alphabeta", tree, &format!("--depth={d}")]);
        let inline = prune(&["run", &format!("alphabeta:depth={d}"), tree]);
        assert_eq!(
            flag.status.code(),
            inline.status.code(),
            "depth {d:?}: {} | {}",
            stderr(&flag),
            stderr(&inline)
        );
        // The same report but for the time it took.
        let report = |o: &Output| {
            let out = stdout(o);
            out.lines()
                .filter(|l| !l.starts_with("search "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(report(&flag), report(&inline), "depth {d:?}");
        if flag.status.code() != Some(0) {
            let tail = |o: &Output| stderr(o).rsplit("depth").next().unwrap_or("").to_owned();
            assert_eq!(
                tail(&flag),
                tail(&inline),
                "depth {d:?}: {} | {}",
                stderr(&flag),
                stderr(&inline)
            );
        }
    }
}

/// What the user typed is echoed escaped in every error, clap's own included.
#[test]
fn arguments_echoed_in_errors_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("x\u{1b}]0;T\u{7}.ron");
    let evil = evil.to_str().unwrap();
    for args in [
        vec!["info", evil],
        vec!["info", "x\u{1b}]0;T\u{7}.ron"],
        vec!["draw", "trees/default.ron", "--node", "\u{1b}[2J"],
        vec!["run", "a\u{1b}[2J", "trees/default.ron"],
        vec!["gen", "game", "connect-four", "--moves", "4\u{1b}[2J"],
        vec!["gen", "uniform", "-b", "\u{1b}[2J"],
        vec!["info", "--bogus\u{1b}[2J"],
        vec!["x", "frobnicate\u{1b}[2J"],
        vec!["convert", "trees/default.ron", "out.x\u{1b}[2J"],
        vec![
            "run",
            "alphabeta",
            "trees/default.ron",
            "--depth",
            "\u{2028}\u{1b}[2J",
        ],
        vec!["run", "a\n\u{1b}[2J", "trees/default.ron"],
        vec!["info", "--gen", "uniform -b \u{1b}[2J"],
    ] {
        let o = prune(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            !err.chars()
                .any(|c| c != '\n' && prune::text::is_unsafe_char(c)),
            "{args:?}: {err:?}"
        );
        assert!(err.contains("\\u{1b}"), "{args:?}: {err}");
        assert!(
            !err.contains("a\n"),
            "{args:?}: a line break typed is escaped: {err}"
        );
    }
}

/// Every parameter flag of `run` and `compare` names, before its help, exactly the algorithms
/// the catalogue gives that parameter (`--id` left out mtdf, `--tt` expectiminimax).
#[test]
fn parameter_flags_list_the_algorithms_that_take_them() {
    use clap::CommandFactory;
    use prune::search::{ALGORITHMS, PARAMS};
    let cli = prune_cli::cli::Cli::command();
    for sub in ["run", "compare"] {
        let cmd = cli.find_subcommand(sub).expect("a subcommand");
        for spec in PARAMS {
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_long() == Some(spec.key))
                .unwrap_or_else(|| panic!("{sub} has no --{}", spec.key));
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            let listed: Vec<&str> = help.split(':').next().unwrap_or("").split(", ").collect();
            let takes: Vec<&str> = ALGORITHMS
                .iter()
                .filter(|a| a.params.iter().any(|s| s.param == spec.param))
                .map(|a| a.name)
                .collect();
            assert_eq!(listed, takes, "{sub} --{}: {help}", spec.key);
        }
    }
    let help = stdout(&prune(&["run", "--help"]));
    assert!(
        help.contains("alphabeta, negascout, mtdf: iterative deepening"),
        "{help}"
    );
}

/// `prune algos` documents k = ∞ (minimax); the flag and the inline parameter take it.
#[test]
fn the_k_rule_takes_an_infinite_k() {
    let tree = "+(-(0.2,0.9),-(0.5,0.6))";
    let minimax = json(&prune(&["run", "minimax", "--expr", tree, "--json"]));
    for args in [
        ["krule", "--k", "inf"],
        ["krule", "--k", "∞"],
        ["krule:k=inf", "--k", "2"],
        ["krule:k=∞", "--k", "2"],
    ] {
        let o = prune(&["run", args[0], args[1], args[2], "--expr", tree, "--json"]);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(json(&o)["value"], minimax["value"], "{args:?}");
    }
    let o = prune(&["run", "krule", "--k=-inf", "--expr", tree]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("greater than 0 (or inf, ∞)"),
        "{}",
        stderr(&o)
    );
}

/// A general-sum refusal names its two leaves by path: labels need not be unique.
#[test]
fn the_general_sum_refusal_names_leaves_by_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("general-sum.ron");
    std::fs::write(
        &file,
        r#"(version: 1, players: 2, root: Player(1, [Player(2, "x", [Leaf("y", (1, 0)), Leaf("y", (2, 0))]), Leaf("y", (2, 2))]))"#,
    )
    .unwrap();
    let o = prune(&["run", "alphabeta", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("leaf #2 pays 4 in all and leaf #1.1 pays 1"),
        "{}",
        stderr(&o)
    );
}

/// Refusals about one node name it by path, as every other message does: arena ids (`#4`) are
/// not what the outline or the drawings show.
#[test]
fn node_refusals_name_the_node_by_path() {
    let o = prune(&["run", "krule", "--expr", "((0.5,1),(0.25,2))"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the leaf at #2.2 is 2"),
        "{}",
        stderr(&o)
    );
    let o = prune(&[
        "run",
        "alphabeta",
        "--depth",
        "1",
        "--expr",
        "((1,2),(3,4))",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the node at #1 has none"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn typed_text_is_echoed_as_typed_escaped() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["info", "--gen", "uniform -b 3\u{1b} -d 2"],
            "invalid value '3\\u{1b}'",
        ),
        (
            &["info", "--gen", "uniform -b \u{1b} -d 2"],
            "invalid value '\\u{1b}'",
        ),
        (
            &["run", "a\u{1b}[2J", "--expr", "(1,2)"],
            "unknown algorithm `a\\u{1b}[2J`",
        ),
        (
            &["run", "AlphaBetaX\u{2029}", "--expr", "(1,2)"],
            "unknown algorithm `AlphaBetaX\\u{2029}`",
        ),
        (
            &["run", "alphabeta", "--expr", "(1,2)", "--depth", ""],
            "--depth needs a value: `--depth=D`",
        ),
        (
            &["run", "ALPHABETA:depth", "--expr", "(1,2)"],
            "`alphabeta:depth=D`",
        ),
    ];
    for (args, echo) in cases {
        let o = prune(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(echo), "{args:?}: {}", stderr(&o));
    }
}
