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

/// prune's run of `algo` on `tree` with every node's children searched in another order
/// (reversed, or rotated by the node's depth), written as an engine that orders its moves
/// writes it: each move named on `tree` itself, by its label or its position in the tree's
/// own order, whatever order it was searched in.
fn reordered_run(tree: &Tree, algo: &Algorithm, rotate: bool) -> Trace {
    let (searched, map) = tree.reordered_map(|t, id| {
        let n = t.child_count(id);
        if rotate {
            let r = t.depth_of(id) % n + 1;
            (0..n).map(|i| (i + r) % n).collect()
        } else {
            (0..n).rev().collect()
        }
    });
    let mut back = vec![NodeId::ROOT; tree.len()];
    for old in tree.ids() {
        back[map[old.index()].index()] = old;
    }
    let (_, recorded) = trace::record(&searched, algo, &AtomicU64::new(0)).expect("run");
    let on_tree = |p: &prune::protocol::Path| {
        let n = resolve(&searched, p).expect("path");
        write::path_of(tree, back[n.index()])
    };
    let lines = write::events(&searched, &recorded)
        .into_iter()
        .enumerate()
        .map(|(i, mut event)| {
            match &mut event {
                Event::Cutoff { path, after } => {
                    let mut child = path.clone();
                    child.push(after.clone());
                    let child = on_tree(&child);
                    *after = child.last().expect("a move").clone();
                    *path = on_tree(path);
                }
                Event::Enter { path, .. }
                | Event::Leaf { path, .. }
                | Event::Exit { path, .. }
                | Event::TtHit { path, .. } => *path = on_tree(path),
                Event::Iteration { .. } => {}
            }
            prune::protocol::Line {
                number: i + 2,
                text: write::event_json(&event).to_string(),
                event,
            }
        })
        .collect();
    let claim = write::protocol_claim(algo).expect("a protocol claim");
    Trace {
        header: prune::protocol::Header::new("reordering", claim, Values::Minimax),
        lines,
    }
}

/// The side-by-side comparison follows the engine's move order: the same searches with
/// every node's children taken in another order agree with the textbook search replayed in
/// that order, in both conventions; and an exit altered in them is still caught at its node.
#[test]
fn the_comparison_follows_the_engines_move_order() {
    let mut compared = 0;
    for (seed, tree) in trees(200) {
        for algo in &CHECKED {
            for rotate in [false, true] {
                let t = reordered_run(&tree, algo, rotate);
                for t in [negamax(&t), t] {
                    assert_eq!(check(&t).departure, None, "seed {seed} {algo:?}");
                    assert_eq!(against_tree(&tree, &t), None, "seed {seed} {algo:?}");
                    let tb = textbook(&tree, &t).expect("textbook");
                    assert_eq!(tb.not_compared, None, "seed {seed} {algo:?}");
                    assert_eq!(tb.difference, None, "seed {seed} {algo:?} {rotate}");
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 200 * 6 * 4);
}

/// The textbook replayed in the engine's order names the node where the engine stops before
/// a cutoff is due, and where it goes on past one it owes.
#[test]
fn the_replayed_textbook_names_where_the_engine_leaves_it() {
    let tree = prune::examples::default_tree();
    let algo = Algorithm::AlphaBeta { fail_soft: false };
    let t = reordered_run(&tree, &algo, false);
    assert_eq!(textbook(&tree, &t).expect("textbook").difference, None);
    // A node's last leaf left out (no cutoff there): the textbook goes on to search it.
    let mut stopped = 0;
    for (i, l) in t.lines.iter().enumerate() {
        let (Event::Leaf { path, .. }, Some(Event::Exit { path: parent, .. })) =
            (&l.event, t.lines.get(i + 1).map(|n| &n.event))
        else {
            continue;
        };
        let mut short = t.clone();
        short.lines.remove(i);
        let d = textbook(&tree, &short)
            .expect("textbook")
            .difference
            .expect("a difference");
        assert_eq!(&d.path, parent, "{d:?}");
        let leaf = prune::protocol::path_text(path);
        assert!(
            d.requires.ends_with(&format!("goes on to search {leaf}")),
            "{d:?}"
        );
        assert_eq!(d.at(), t.lines[i + 1].number, "{d:?}");
        stopped += 1;
    }
    assert!(stopped >= 3, "{stopped}");
    // A cutoff replaced by a search of the next leaf: the textbook cuts off there.
    let (_, _, t, _) = protocol_run(&tree, &algo);
    let mut past = 0;
    for (i, l) in t.lines.iter().enumerate() {
        let Event::Cutoff { path, .. } = &l.event else {
            continue;
        };
        let node = resolve(&tree, path).expect("node");
        let visited: Vec<NodeId> = t.lines[..i]
            .iter()
            .filter_map(|l| match &l.event {
                Event::Leaf { path: p, .. } if p.len() == path.len() + 1 && p.starts_with(path) => {
                    resolve(&tree, p)
                }
                _ => None,
            })
            .collect();
        let Some(skipped) = tree
            .children(node)
            .find(|&c| tree.is_leaf(c) && !visited.contains(&c))
        else {
            continue;
        };
        let mut on = t.clone();
        let leaf_path = write::path_of(&tree, skipped);
        on.lines[i].event = Event::Leaf {
            path: leaf_path.clone(),
            value: tree.value(skipped),
            depth: None,
            key: None,
            selective: None,
        };
        let d = textbook(&tree, &on)
            .expect("textbook")
            .difference
            .expect("a difference");
        assert_eq!(d.path, leaf_path, "{d:?}");
        assert!(d.requires.contains("cuts off at"), "{d:?}");
        assert_eq!(d.at(), t.lines[i].number, "{d:?}");
        past += 1;
    }
    assert_eq!(past, 2, "a2 and c2 cut off before a leaf");
}

/// Every algorithm and improvement `--trace-format protocol` writes.
const SWEPT: [&str; 22] = [
    "minimax",
    "alphabeta",
    "alphabeta:fail-soft",
    "negascout",
    "negascout-ab",
    "mtdf",
    "mtdf:guess=0",
    "mtdf:guess=-5",
    "mtdf:guess=7",
    "alphabeta:tt",
    "alphabeta:id",
    "alphabeta:killers",
    "alphabeta:history",
    "alphabeta:id:aspiration=0.05",
    "alphabeta:tt:id:killers:history",
    "alphabeta:fail-soft:tt:id",
    "negascout:tt",
    "negascout:id:killers",
    "negascout:tt:id:history",
    "mtdf:tt",
    "mtdf:tt:id",
    "mtdf:guess=-5:tt:id",
];

/// prune's own traces, every algorithm × improvement, check clean against the tree they
/// searched: the rules, the tree and the textbook replayed in their order (0 departures).
#[test]
fn every_own_trace_checks_clean_against_its_tree() {
    let mut games: Vec<(String, Tree)> = Vec::new();
    for spec in [
        generate::game::GameSpec::TicTacToe { depth: Some(3) },
        generate::game::GameSpec::ConnectFour {
            depth: 3,
            moves: prune::game::connect_four::Moves::parse("").expect("no moves"),
        },
    ] {
        games.push((
            format!("{spec:?}"),
            generate::game::generate(&spec).expect("game"),
        ));
    }
    for (seed, tree) in trees(40) {
        games.push((format!("seed {seed}"), tree));
    }
    let mut swept = 0;
    for (name, tree) in &games {
        for spec in SWEPT {
            // A table needs positions' keys and iterative deepening a heuristic to stop at:
            // a random tree has neither.
            if spec.contains("tt") && !tree.has_keys()
                || spec.contains("id") && !tree.has_heuristics()
            {
                continue;
            }
            swept += 1;
            let algo = Algorithm::parse(spec, &Default::default()).expect("algorithm");
            let (_, _, protocol, text) = protocol_run(tree, &algo);
            assert!(!text.contains("not expanded"), "{name} {spec}");
            let report = check(&protocol);
            assert_eq!(report.departure, None, "{name} {spec}");
            assert_eq!(against_tree(tree, &protocol), None, "{name} {spec}");
            let t = textbook(tree, &protocol).expect("textbook");
            assert_eq!(t.difference, None, "{name} {spec}");
        }
    }
    assert_eq!(swept, 2 * SWEPT.len() + 40 * (SWEPT.len() - 11));
}

/// The same through the command line on games (`run --game … --trace-format protocol`, then
/// `check-trace --game`): exit 0, and no move named "(not expanded)".
#[test]
fn every_own_game_trace_checks_clean_against_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().expect("UTF-8 path");
    // nim is searched whole: `run` takes a depth beyond its end, `check-trace` none.
    let games: [(&[&str], &[&str]); 3] = [
        (
            &["--game", "tic-tac-toe", "--depth", "3"],
            &["--game", "tic-tac-toe", "--depth", "3"],
        ),
        (
            &["--game", "nim", "--heaps", "3,2", "--depth", "6"],
            &["--game", "nim", "--heaps", "3,2"],
        ),
        (
            &["--game", "connect-four", "--depth", "3"],
            &["--game", "connect-four", "--depth", "3"],
        ),
    ];
    for (game, check) in games {
        for spec in SWEPT {
            // nim has no heuristic for iterative deepening's shallower iterations to stop at.
            if game[1] == "nim" && spec.contains(":id") {
                continue;
            }
            let mut args = vec!["run", spec];
            args.extend_from_slice(game);
            args.extend(["--trace", t, "--trace-format", "protocol"]);
            let run = prune(&args);
            assert!(
                run.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let text = std::fs::read_to_string(t).expect("trace");
            assert!(!text.contains("not expanded"), "{args:?}");
            let mut args = vec!["check-trace", t];
            args.extend_from_slice(check);
            let checked = prune(&args);
            assert_eq!(
                checked.status.code(),
                Some(0),
                "{args:?} {spec}: {}{}",
                String::from_utf8_lossy(&checked.stdout),
                String::from_utf8_lossy(&checked.stderr)
            );
        }
    }
}

/// prune's own trace format gets a one-line hint to write the protocol; the reader has a tree
/// file's bounds: devices, FIFOs and NUL files refused at once, `--max-file-size` obeyed.
#[test]
fn the_reader_is_bounded_and_hints_at_the_protocol() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = dir.path().join("own.jsonl");
    let t = t.to_str().expect("UTF-8 path");
    let tree = concat!(env!("CARGO_MANIFEST_DIR"), "/trees/default.ron");
    let run = prune(&["run", "alphabeta", tree, "--trace", t]);
    assert!(run.status.success());
    let own = prune(&["check-trace", t]);
    let err = String::from_utf8_lossy(&own.stderr);
    assert_eq!(own.status.code(), Some(2), "{err}");
    assert!(err.contains("`--trace-format protocol`"), "{err}");
    let started = std::time::Instant::now();
    let zero = prune(&["check-trace", "/dev/zero"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&zero.stderr).contains("a character device"),
        "{}",
        String::from_utf8_lossy(&zero.stderr)
    );
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let no_writer = prune(&["check-trace", fifo.to_str().expect("UTF-8 path")]);
    assert_eq!(no_writer.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_writer.stderr).contains("a FIFO"));
    assert!(
        started.elapsed().as_secs_f64() < 2.0,
        "{:?}",
        started.elapsed()
    );
    let nul = dir.path().join("nul.jsonl");
    std::fs::write(&nul, vec![0u8; 1 << 20]).expect("written");
    let binary = prune(&["check-trace", nul.to_str().expect("UTF-8 path")]);
    assert_eq!(binary.status.code(), Some(2));
    let protocol = dir.path().join("p.jsonl");
    let protocol = protocol.to_str().expect("UTF-8 path");
    let run = prune(&[
        "run",
        "alphabeta",
        tree,
        "--trace",
        protocol,
        "--trace-format",
        "protocol",
    ]);
    assert!(run.status.success());
    // A line costs memory in proportion to it: fields the protocol does not read are skipped
    // whatever their size, and a path of more than a million moves is refused.
    let text = std::fs::read_to_string(protocol).expect("trace");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let zeros = vec!["0"; 3 << 20].join(",");
    lines[1] = lines[1].replacen('{', &format!("{{\"mine\":[{zeros}],"), 1);
    let padded = dir.path().join("padded.jsonl");
    std::fs::write(&padded, lines.join("\n") + "\n").expect("written");
    let ok = prune(&["check-trace", padded.to_str().expect("UTF-8 path")]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    lines[1] = lines[1].replacen("\"mine\"", "\"path\"", 1);
    let deep = dir.path().join("deep.jsonl");
    std::fs::write(&deep, lines.join("\n") + "\n").expect("written");
    let refused = prune(&["check-trace", deep.to_str().expect("UTF-8 path")]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err:.300}");
    assert!(
        err.contains("more than 1048576 values in one line"),
        "{err:.300}"
    );
    let limited = prune(&["--max-file-size", "100", "check-trace", protocol]);
    let err = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(limited.status.code(), Some(2), "{err}");
    assert!(err.contains("up to 100 bytes"), "{err}");
}

/// A departure report prints no path, and quotes no line, longer than a screen: the middle
/// is elided, the ends and the number of moves kept.
#[test]
fn a_long_path_is_elided_in_the_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = dir.path().join("long.jsonl");
    let path: Vec<String> = (0..5000).map(|i| format!("\"move{i}\"")).collect();
    let label = "x".repeat(100_000);
    let text = format!(
        "{}\n{}\n{{\"event\":\"enter\",\"path\":[{}],\"alpha\":null,\"beta\":null}}\n{{\"event\":\"leaf\",\"path\":[\"{label}\"],\"value\":1}}\n",
        r#"{"protocol":"prune-trace","version":1,"engine":"e","algorithm":"alphabeta","values":"minimax"}"#,
        r#"{"event":"enter","path":[],"alpha":null,"beta":null}"#,
        path.join(",")
    );
    std::fs::write(&t, text).expect("written");
    for (second, leaf) in [(false, "move0"), (true, "xxxxx")] {
        let mut body = std::fs::read_to_string(&t).expect("trace");
        if second {
            // Only the long label: a leaf evaluated with no node open.
            let lines: Vec<&str> = body.lines().collect();
            body = [lines[0], lines[3]].join("\n") + "\n";
        }
        let file = dir.path().join(format!("t{second}.jsonl"));
        std::fs::write(&file, body).expect("written");
        let o = prune(&["check-trace", file.to_str().expect("UTF-8 path")]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains(leaf), "{out}");
        assert!(out.contains(" … "), "{out}");
        for line in out.lines() {
            assert!(
                line.chars().count() <= 500,
                "{} chars: {line:.300}",
                line.len()
            );
        }
    }
}

/// Deeper game searches with a table reach positions the lazy game never expands (the
/// table answers them): their moves are named as the game names them, never
/// "X a1 (not expanded)", and the traces check clean against the game written out.
#[test]
fn a_never_expanded_position_is_named_by_its_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().expect("UTF-8 path");
    for spec in [
        "alphabeta:tt",
        "alphabeta:tt:id",
        "mtdf:tt",
        "negascout:tt:id",
    ] {
        for game in ["tic-tac-toe", "connect-four"] {
            let args = ["--game", game, "--depth", "5"];
            let mut run = vec!["run", spec];
            run.extend(args);
            run.extend(["--trace", t, "--trace-format", "protocol"]);
            assert!(prune(&run).status.success(), "{run:?}");
            let text = std::fs::read_to_string(t).expect("trace");
            assert!(!text.contains("not expanded"), "{run:?}");
            let mut check = vec!["check-trace", t];
            check.extend(args);
            let o = prune(&check);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{run:?}: {}",
                String::from_utf8_lossy(&o.stdout)
            );
        }
    }
}
