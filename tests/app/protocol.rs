//! Issue 27 §4: prune's own traces, written in the trace protocol and read back, are judged
//! consistent and rebuild the run exactly (visited and pruned nodes, values, statistics);
//! one altered exit value is reported at its node; the same trace in negamax form is judged
//! consistent too; and the command line does what the issue's "done means" says.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use prune::generate::{self, Values as Range};
use prune::protocol::check::{Report, check};
use prune::protocol::compare::{against_tree, resolve, textbook};
use prune::protocol::{Bound, Event, Side, Trace, Values, read, write};
use prune::search::{Algorithm, Run};
use prune::trace::{self, EventView, Replay, Status};
use prune::tree::{NodeId, Tree};

/// Seeded random two-player trees: ties, kinds that do not always alternate, unary chains.
fn trees(count: u64) -> impl Iterator<Item = (u64, Tree)> {
    (0..count).map(|seed| {
        let p = generate::random::RandomShape {
            min_branching: 1,
            max_branching: 2 + (seed % 3) as u32,
            depth: 1 + (seed % 5) as u32,
            leaf_probability: 0.2,
            values: Range::integers(0, 5),
            mixed: seed % 3 == 0,
        };
        (seed, generate::random::generate(&p, seed).expect("tree"))
    })
}

/// `algo` run on `tree`, its trace, and that trace written in the protocol and read back.
fn protocol_run(tree: &Tree, algo: &Algorithm) -> (Run, trace::Trace, Trace, String) {
    let (run, recorded) = trace::record(tree, algo, &AtomicU64::new(0)).expect("run");
    let mut bytes = Vec::new();
    write::write_jsonl(&mut bytes, tree, &run, &recorded).expect("written");
    let text = String::from_utf8(bytes).expect("UTF-8");
    let read = read::parse("t.jsonl", &Arc::from(text.as_str())).expect("read back");
    (run, recorded, read, text)
}

const CHECKED: [Algorithm; 6] = [
    Algorithm::Minimax,
    Algorithm::AlphaBeta { fail_soft: false },
    Algorithm::AlphaBeta { fail_soft: true },
    Algorithm::NegaScout,
    Algorithm::NegaScoutAb,
    Algorithm::Mtdf { guess: None },
];

/// The run rebuilt from the protocol's events: the statistics, recounted with the tree. A
/// cutoff skips the children after the one that fired it (these searches do not reorder; in
/// MTD(f) a child its memory answers is not searched, and has no event, but is not skipped).
fn recount(tree: &Tree, report: &Report) -> [u64; 5] {
    let pruned: usize = report
        .cutoffs
        .iter()
        .map(|(p, _, after)| {
            let node = resolve(tree, p).expect("path");
            let mut fired = p.clone();
            fired.push(after.clone());
            let index = tree.child_index(resolve(tree, &fired).expect("child"));
            tree.child_count(node) - index - 1
        })
        .sum();
    [
        report.leaves.len() as u64,
        report.entered.len() as u64,
        report.cutoffs.len() as u64,
        pruned as u64,
        report.researches as u64,
    ]
}

fn stats(run: &Run) -> [u64; 5] {
    let s = &run.stats;
    [
        s.leaves,
        s.interior,
        s.cutoffs,
        s.pruned_children,
        s.researches,
    ]
}

#[test]
fn own_traces_are_consistent_and_rebuild_the_run() {
    let mut checked = 0;
    for (seed, tree) in trees(400) {
        for algo in &CHECKED {
            let (run, recorded, protocol, text) = protocol_run(&tree, algo);
            let report = check(&protocol);
            assert_eq!(report.departure, None, "seed {seed} {algo:?}\n{text}");
            assert_eq!(against_tree(&tree, &protocol), None, "seed {seed} {algo:?}");
            let t = textbook(&tree, &protocol).expect("textbook");
            assert_eq!(t.difference, None, "seed {seed} {algo:?}");
            assert_eq!(recount(&tree, &report), stats(&run), "seed {seed} {algo:?}");
            let root = run.value.scalar().expect("a number");
            assert_eq!(report.root, Some((root, run.bound)), "seed {seed} {algo:?}");
            // Visited, pruned and every exit's value: those of prune's own trace.
            let ids = |paths: &[prune::protocol::Path]| -> Vec<NodeId> {
                paths
                    .iter()
                    .map(|p| resolve(&tree, p).expect("path"))
                    .collect()
            };
            let mut visited = ids(&report.entered);
            visited.extend(ids(&report.leaves));
            let mut theirs: Vec<NodeId> = Vec::new();
            let mut exits = Vec::new();
            for e in recorded.events() {
                match e.view() {
                    EventView::Enter { node, .. } | EventView::Leaf { node, .. } => {
                        theirs.push(node)
                    }
                    EventView::Exit { node, value, bound } => exits.push((node, value, bound)),
                    _ => {}
                }
            }
            visited.sort();
            theirs.sort();
            assert_eq!(visited, theirs, "seed {seed} {algo:?}");
            let ours: Vec<(NodeId, f64, Bound)> = report
                .exits
                .iter()
                .map(|(p, v, b)| (resolve(&tree, p).expect("path"), *v, *b))
                .collect();
            assert_eq!(ours, exits, "seed {seed} {algo:?}");
            let replay = Replay::new(&tree, &recorded);
            for id in tree.ids() {
                let pruned = replay.state(id, recorded.len()).status == Status::Pruned;
                assert_eq!(
                    pruned,
                    !visited.contains(&id),
                    "seed {seed} {algo:?}: node {id}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2400);
}

/// Searches that order children as they go (a transposition table, iterative deepening,
/// aspiration windows, killers) on tic-tac-toe, written as the fail-soft alpha-beta prune's
/// improvements search by: its rules hold of them too, the table's answers standing for the
/// nodes they spare.
#[test]
fn improved_alphabeta_follows_the_rules() {
    let game = generate::game::generate(&generate::game::GameSpec::TicTacToe { depth: Some(4) })
        .expect("tic-tac-toe");
    for spec in [
        "alphabeta:tt",
        "alphabeta:tt:killers",
        "alphabeta:id:history",
        "alphabeta:tt:id:killers",
        "alphabeta:fail-soft:tt:id",
        "alphabeta:id:aspiration=0.05",
    ] {
        let algo = Algorithm::parse(spec, &Default::default()).expect("algorithm");
        let (run, _, protocol, _) = protocol_run(&game, &algo);
        assert_eq!(protocol.header.algorithm, "alphabeta-fail-soft");
        let report = check(&protocol);
        assert_eq!(report.departure, None, "{spec}");
        assert_eq!(report.tt_hits.len() as u64, run.stats.tt_hits, "{spec}");
        let answered = report.tt_hits.iter().filter(|(_, cut)| *cut).count() as u64;
        assert_eq!(answered, run.stats.tt_cutoffs, "{spec}");
        assert_eq!(report.leaves.len() as u64, run.stats.leaves, "{spec}");
    }
}

/// PVS and MTD(f) with the improvements (fail-soft, children ordered as they go, the table's
/// answers as events): their null windows, re-searches and passes follow the rules, and the
/// table's hits are judged by the entries the trace stored, at their depths.
#[test]
fn improved_pvs_and_mtdf_follow_the_rules() {
    let game = generate::game::generate(&generate::game::GameSpec::TicTacToe { depth: Some(4) })
        .expect("tic-tac-toe");
    for (spec, claim) in [
        ("negascout:tt", "pvs"),
        ("negascout:tt:killers:history", "pvs"),
        ("negascout:id", "pvs"),
        ("negascout:tt:id", "pvs"),
        ("mtdf:tt", "mtdf"),
        ("mtdf:tt:id", "mtdf"),
    ] {
        let algo = Algorithm::parse(spec, &Default::default()).expect("algorithm");
        let (run, _, protocol, text) = protocol_run(&game, &algo);
        assert_eq!(protocol.header.algorithm, claim);
        // With a table, every enter says its depth (its draft).
        let stamped = text.contains(r#""player":"max","depth":"#);
        assert_eq!(stamped, spec.contains("tt"), "{spec}");
        let report = check(&protocol);
        assert_eq!(report.departure, None, "{spec}");
        assert_eq!(report.tt_hits.len() as u64, run.stats.tt_hits, "{spec}");
        assert_eq!(report.leaves.len() as u64, run.stats.leaves, "{spec}");
    }
}

/// Every exit's value changed, one at a time (by ½, which no integer tree's rule allows), is
/// reported at that exit's node.
#[test]
fn an_altered_exit_is_reported_at_its_node() {
    let mut altered = 0;
    for (seed, tree) in trees(60) {
        for algo in &CHECKED {
            let (_, _, protocol, _) = protocol_run(&tree, algo);
            for (i, line) in protocol.lines.iter().enumerate() {
                let Event::Exit { path, value, bound } = &line.event else {
                    continue;
                };
                let mut bad = protocol.clone();
                bad.lines[i].event = Event::Exit {
                    path: path.clone(),
                    value: value + 0.5,
                    bound: *bound,
                };
                let d = check(&bad).departure.expect("a departure");
                assert_eq!(&d.path, path, "seed {seed} {algo:?} line {}", line.number);
                assert_eq!(d.at(), line.number, "seed {seed} {algo:?}");
                altered += 1;
            }
        }
    }
    assert!(altered > 500, "{altered} exits altered");
}

/// The same trace as a negamax engine writes it: values, windows and bounds from the side to
/// move (a leaf's side is the opposite of its parent's).
fn negamax(t: &Trace) -> Trace {
    let mut out = t.clone();
    out.header.values = Values::Negamax;
    let mut sides: Vec<Side> = Vec::new();
    for line in &mut out.lines {
        match &mut line.event {
            Event::Enter {
                alpha,
                beta,
                player,
                ..
            } => {
                let side = player.expect("prune says the player");
                if side == Side::Min {
                    (*alpha, *beta) = (-*beta, -*alpha);
                }
                sides.push(side);
            }
            Event::Leaf { value, .. } => {
                *value *= sides.last().map_or(Side::Max, |s| s.other()).sign();
            }
            Event::Exit { value, bound, .. } => {
                let at_min = sides.pop() == Some(Side::Min);
                if at_min {
                    *value = -*value;
                    *bound = match *bound {
                        Bound::Lower => Bound::Upper,
                        Bound::Upper => Bound::Lower,
                        b => b,
                    };
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn negamax_form_is_judged_alike() {
    for (seed, tree) in trees(300) {
        for algo in &CHECKED {
            let (_, _, protocol, _) = protocol_run(&tree, algo);
            let n = negamax(&protocol);
            assert_eq!(check(&n).departure, None, "seed {seed} {algo:?}");
            assert_eq!(against_tree(&tree, &n), None, "seed {seed} {algo:?}");
            assert_eq!(check(&n).root, check(&protocol).root, "seed {seed}");
        }
    }
}

fn prune(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .expect("prune runs")
}

#[test]
fn done_means() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().expect("UTF-8 path");
    let tree = concat!(env!("CARGO_MANIFEST_DIR"), "/trees/default.ron");
    let run = prune(&[
        "run",
        "alphabeta",
        tree,
        "--trace",
        t,
        "--trace-format",
        "protocol",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let ok = prune(&["check-trace", t, "--tree", tree]);
    let out = String::from_utf8_lossy(&ok.stdout);
    assert_eq!(ok.status.code(), Some(0), "{out}");
    assert!(out.contains("consistent"), "{out}");
    assert!(out.contains("root value: engine =7, textbook =7"), "{out}");
    // c1 returns 7; say 6.
    let text = std::fs::read_to_string(t).expect("trace");
    let needle = r#"{"event":"exit","path":["c","c1"],"value":7,"bound":"exact"}"#;
    assert!(text.contains(needle), "{text}");
    std::fs::write(
        t,
        text.replace(needle, &needle.replace("\"value\":7", "\"value\":6")),
    )
    .expect("written");
    let bad = prune(&["check-trace", t, "--tree", tree]);
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("departure at c › c1"), "{out}");
    let json = prune(&["check-trace", t, "--json"]);
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(v["consistent"], false);
    assert_eq!(v["departure"]["path"], serde_json::json!(["c", "c1"]));
    // b's cutoff left out: b1 alone searched, and nothing says why b2 is not.
    let uncut: String = text
        .lines()
        .filter(|l| !l.contains(r#""cutoff","path":["b"]"#))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(t, uncut).expect("written");
    let bad = prune(&["check-trace", t, "--tree", tree]);
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("departure at b\n"), "{out}");
    assert!(out.contains("1 of its 2 children"), "{out}");
    // A malformed line: file, line, column, what was expected; exit 2.
    std::fs::write(t, text.replace(r#""bound":"lower""#, r#""bound":"lowish""#)).expect("written");
    let malformed = prune(&["check-trace", t]);
    let err = String::from_utf8_lossy(&malformed.stderr);
    assert_eq!(malformed.status.code(), Some(2), "{err}");
    assert!(err.contains("t.jsonl:11:"), "{err}");
    assert!(err.contains("expected `bound`"), "{err}");
    // PVS and MTD(f) have rules too: prune's own traces of them are consistent, and agree
    // with the textbook search.
    for algo in ["negascout", "negascout-ab", "mtdf"] {
        let run = prune(&[
            "run",
            algo,
            tree,
            "--trace",
            t,
            "--trace-format",
            "protocol",
        ]);
        assert!(run.status.success());
        let checked = prune(&["check-trace", t, "--tree", tree]);
        let out = String::from_utf8_lossy(&checked.stdout);
        assert_eq!(checked.status.code(), Some(0), "{algo}: {out}");
        assert!(out.contains("consistent"), "{algo}: {out}");
    }
    // Algorithms without a protocol form are refused, saying why.
    let sss = prune(&[
        "run",
        "sss",
        tree,
        "--trace",
        t,
        "--trace-format",
        "protocol",
    ]);
    assert_eq!(sss.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&sss.stderr).contains("best-first"));
}

/// `prune tui --import` reads and judges the trace before it asks for a terminal: a bad file
/// is refused with its line and column (exit 2) even in a script.
#[test]
fn tui_import_refuses_a_bad_file_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = dir.path().join("bad.jsonl");
    std::fs::write(
        &t,
        concat!(
            r#"{"protocol":"prune-trace","version":1,"engine":"e","algorithm":"alphabeta","values":"minimax"}"#,
            "\n",
            r#"{"event":"exit","path":[],"value":3,"bound":"exakt"}"#,
            "\n"
        ),
    )
    .expect("written");
    let t = t.to_str().expect("UTF-8 path");
    let tree = concat!(env!("CARGO_MANIFEST_DIR"), "/trees/default.ron");
    let bad = prune(&["tui", "--import", t, "--tree", tree]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{t}:2:37")), "{err}");
    assert!(err.contains("expected `bound`"), "{err}");
    // A good file gets as far as the terminal, which a test does not have.
    let good = dir.path().join("good.jsonl");
    let good = good.to_str().expect("UTF-8 path");
    let run = prune(&[
        "run",
        "alphabeta",
        tree,
        "--trace",
        good,
        "--trace-format",
        "protocol",
    ]);
    assert!(run.status.success());
    let out = prune(&["tui", "--import", good, "--tree", tree]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
    // --import needs its tree.
    let alone = prune(&["tui", "--import", good]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&alone.stderr).contains("--tree FILE, or --game NAME"),
        "{}",
        String::from_utf8_lossy(&alone.stderr)
    );
}

/// `prune tui --import` with `--game NAME --depth D` writes the game out as `check-trace
/// --game` does: a trace of nim's tree gets as far as the terminal, and the game's own
/// refusals (a depth where nim has no heuristic, none where chess needs one) are its.
#[test]
fn tui_import_takes_a_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nim = dir.path().join("nim.ron");
    let nim = nim.to_str().expect("UTF-8 path");
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().expect("UTF-8 path");
    let written = prune(&["gen", "game", "nim", "--heaps", "3,2", "-o", nim]);
    assert!(written.status.success());
    let run = prune(&[
        "run",
        "alphabeta",
        nim,
        "--trace",
        t,
        "--trace-format",
        "protocol",
    ]);
    assert!(run.status.success());
    let checked = prune(&["check-trace", t, "--game", "nim", "--heaps", "3,2"]);
    assert!(checked.status.success(), "{:?}", checked);
    let stderr = |args: &[&str]| {
        let o = prune(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = stderr(&["tui", "--import", t, "--game", "nim", "--heaps", "3,2"]);
    assert!(err.contains("needs a terminal"), "{err}");
    let err = stderr(&["tui", "--import", t, "--game", "nim", "--depth", "2"]);
    assert!(err.contains("no heuristic to stop at a depth"), "{err}");
    let err = stderr(&["tui", "--import", t, "--game", "chess"]);
    assert!(err.contains("needs --depth D"), "{err}");
    let err = stderr(&["tui", "--import", t, "--game", "nim", "--tree", nim]);
    assert!(err.contains("cannot be used with"), "{err}");
}
