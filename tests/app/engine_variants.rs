//! Correct engines never raise a false alarm, and planted bugs are caught at the first wrong
//! node: tests/engines/variants.py, written from docs/PROTOCOL.md alone (no code shared
//! with the checker), searches 60 seeded trees with 19 legitimate variants — minimax,
//! fail-hard and fail-soft alpha-beta, PVS fail-hard and fail-soft with and without a leaf's
//! re-search, aspiration windows at the root with their re-searches, a table that answers,
//! narrows or forgets (any replacement), MTD(f) from first guesses 0, −5, 9, 2 and −2 with
//! no memory, a table, or one that forgets — every engine ordering its moves itself (a fresh
//! shuffle at each visit) and naming them by label or by position in the tree's own order.
//! Each is checked with `check-trace --tree`: exit 0. The same engines with one of 14 bugs
//! planted: each trace that differs from the correct one is reported (exit 1) at the node of
//! the first event where the two differ (for PVS's two bugs, that node or its parent, which
//! chose the child's window and its re-search; likewise a stand-pat cutoff not taken, at
//! the node that should have cut); one that does not differ is consistent.
//!
//! tests/engines/habits.py (written the same way) holds real engines' habits to the same
//! standard on the same trees: leaves scored by the engine's own evaluation, a horizon
//! (iterative deepening's) with quiescence past it, null-move pruning, late-move reductions
//! with their re-searches (alpha-beta and PVS), extensions, mate scores by distance (with a
//! table that moves them by ply), a table that keeps leaves and answers from them, and all
//! of them at once: 14 correct engines, exit 0; 4 planted bugs (a null move's window, a
//! stand-pat cutoff not taken, a mate score a ply off, a table answer at a leaf that no
//! search stored), each caught at the first wrong node.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const ENGINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/variants.py");
const HABITS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/habits.py");
const TREES: u64 = 60;

fn python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("python3 not found: the engine variants' tests are skipped");
    }
    ok
}

fn check(trace: &Path, tree: &Path) -> (i32, Value) {
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["check-trace", "--json", "--tree"])
        .arg(tree)
        .arg(trace)
        .output()
        .expect("prune runs");
    let report = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code().expect("an exit code"), report)
}

/// The events of a trace, cutoffs aside.
fn events(text: &str) -> Vec<Value> {
    text.lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
        .filter(|e| e["event"] != "cutoff")
        .collect()
}

/// The path of the first event where the buggy trace differs from the correct one (the
/// correct trace's event; the buggy one's where the correct trace has ended).
fn first_difference(correct: &str, buggy: &str) -> Option<Value> {
    let (c, b) = (events(correct), events(buggy));
    match c.iter().zip(&b).position(|(x, y)| x != y) {
        Some(i) => Some(c[i]["path"].clone()),
        None if c.len() < b.len() => Some(b[c.len()]["path"].clone()),
        None if b.len() < c.len() => Some(c[b.len()]["path"].clone()),
        None => None,
    }
}

#[test]
fn correct_variants_raise_no_false_alarm_and_planted_bugs_are_caught_where_they_start() {
    if !python() {
        return;
    }
    let caught = engines_on_trees(ENGINE, 19);
    assert_eq!(caught.len(), 14, "{caught:?}");
    // Every bug shows on many trees: a bug that never showed would test nothing.
    for (bug, n) in &caught {
        assert!(*n >= 20, "{bug} was caught on only {n} trees");
    }
}

#[test]
fn real_engines_habits_raise_no_false_alarm_and_their_bugs_are_caught_where_they_start() {
    if !python() {
        return;
    }
    let caught = engines_on_trees(HABITS, 14);
    assert_eq!(caught.len(), 4, "{caught:?}");
    for (bug, n) in &caught {
        assert!(*n >= 15, "{bug} was caught on only {n} trees");
    }
}

/// Runs `engine` on the seeded trees: each of its `variants` correct traces must check clean
/// (exit 0), each planted bug be reported at the first node where its trace leaves the
/// correct one's. Returns how many trees each bug was caught on.
fn engines_on_trees(engine: &str, variants: usize) -> std::collections::BTreeMap<String, usize> {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut correct = 0;
    let mut caught: std::collections::BTreeMap<String, usize> = Default::default();
    for seed in 0..TREES {
        let out = dir.path().join(seed.to_string());
        let o = Command::new("python3")
            .arg(engine)
            .arg(seed.to_string())
            .arg(&out)
            .output()
            .expect("python3 runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let tree = out.join("tree.txt");
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .expect("traces")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".jsonl"))
            .collect();
        names.sort();
        for name in names {
            let trace = out.join(&name);
            let (code, report) = check(&trace, &tree);
            let parts: Vec<&str> = name.split('.').collect();
            if parts[0] == "ok" {
                assert_eq!(code, 0, "seed {seed} {name}: {report:#}");
                correct += 1;
                continue;
            }
            let (bug, variant) = (parts[1], parts[2]);
            let good = std::fs::read_to_string(out.join(format!("ok.{variant}.jsonl")))
                .expect("the correct trace");
            let bad = std::fs::read_to_string(&trace).expect("trace");
            let entry = caught.entry(bug.to_owned()).or_default();
            let Some(want) = first_difference(&good, &bad) else {
                assert_eq!(code, 0, "seed {seed} {name}: no difference, {report:#}");
                continue;
            };
            assert_eq!(code, 1, "seed {seed} {name}: {report:#}");
            let got = report["departure"]["path"]
                .as_array()
                .expect("a path")
                .clone();
            let want = want.as_array().expect("a path").clone();
            let parent = &want[..want.len().saturating_sub(1)];
            let at = got == want
                || ((bug.starts_with("pvs-") || bug == "stand-pat-no-cut") && got == parent);
            assert!(
                at,
                "seed {seed} {name}: first wrong node {want:?}, {report:#}"
            );
            *entry += 1;
        }
    }
    assert_eq!(correct, TREES as usize * variants);
    caught
}

/// easyAI (a game-AI library from PyPI, MIT) searches its own Nim with its own Negamax,
/// unchanged, traced by examples/easyai/trace_easyai.py: with and without its table (keyed
/// by the heaps alone, without the side to move) and at several depths, the trace checks
/// clean against the game written out as a tree; a bug planted in a copy of its `negamax`
/// (a strict cutoff test, a window not negated) is caught. `.ci/run` installs easyAI into
/// target/easyai; where it is not there, the test says so and is skipped.
#[test]
fn a_third_party_libraries_search_checks_clean_and_its_planted_bugs_are_caught() {
    let site = concat!(env!("CARGO_MANIFEST_DIR"), "/target/easyai");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/easyai/trace_easyai.py"
    );
    if !python() || !Path::new(site).join("easyAI").is_dir() {
        eprintln!("easyAI is not installed in {site} (.ci/run installs it): skipped");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (tree, trace) = (dir.path().join("tree.txt"), dir.path().join("trace.jsonl"));
    let mut runs = 0;
    for bug in [None, Some("cutoff-strict"), Some("window-not-negated")] {
        for tt in [false, true] {
            for (piles, depth) in [("1,2,3", "5"), ("2,2,2", "4"), ("3,4", "7")] {
                let mut py = Command::new("python3");
                py.env("PYTHONPATH", site)
                    .arg(script)
                    .args(["--piles", piles, "--depth", depth]);
                if tt {
                    py.arg("--tt");
                }
                if let Some(b) = bug {
                    py.args(["--bug", b]);
                }
                let o = py.arg(&tree).arg(&trace).output().expect("python3 runs");
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                let (code, report) = check(&trace, &tree);
                let want = if bug.is_some() { 1 } else { 0 };
                assert_eq!(
                    code, want,
                    "{bug:?} tt {tt} piles {piles} depth {depth}: {report:#}"
                );
                if tt && bug.is_none() {
                    assert!(report["textbook"]["table_answers"].as_u64() > Some(0));
                }
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 18);
}

/// The same engines on two games written out by prune (nim to its end, connect-four to depth
/// 3, horizon positions valued by the game's heuristic), checked with `--game`: every
/// correct trace exit 0, every planted bug that changes a trace caught (exit 1).
#[test]
fn the_engines_check_clean_against_games_from_their_rules() {
    if !python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let games: [(&str, &[&str], &str); 2] = [
        (
            "game nim --heaps 1,2,3",
            &["--game", "nim", "--heaps", "1,2,3"],
            "1",
        ),
        (
            "game connect-four --depth 3",
            &["--game", "connect-four", "--depth", "3"],
            "1000",
        ),
    ];
    let (mut correct, mut caught) = (0, 0);
    for (spec, game, win) in games {
        let tree = dir.path().join("game.txt");
        let o = Command::new(env!("CARGO_BIN_EXE_prune"))
            .args(["convert", "--gen", spec])
            .arg(&tree)
            .args(["--to", "bracket"])
            .output()
            .expect("prune runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        for (engine, seed) in [(ENGINE, 1), (ENGINE, 2), (HABITS, 1), (HABITS, 2)] {
            let out = dir.path().join(format!("{seed}-{}", correct + caught));
            let o = Command::new("python3")
                .arg(engine)
                .arg(seed.to_string())
                .arg(&out)
                .arg(&tree)
                .arg(win)
                .output()
                .expect("python3 runs");
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            for entry in std::fs::read_dir(&out).expect("traces") {
                let name = entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned();
                if !name.ends_with(".jsonl") {
                    continue;
                }
                let trace = out.join(&name);
                let o = Command::new(env!("CARGO_BIN_EXE_prune"))
                    .args(["check-trace", "--json"])
                    .args(game)
                    .arg(&trace)
                    .output()
                    .expect("prune runs");
                let code = o.status.code().expect("an exit code");
                let report = String::from_utf8_lossy(&o.stdout);
                let parts: Vec<&str> = name.split('.').collect();
                if parts[0] == "ok" {
                    assert_eq!(code, 0, "{spec} seed {seed} {name}: {report}");
                    correct += 1;
                    continue;
                }
                let good = std::fs::read_to_string(out.join(format!("ok.{}.jsonl", parts[2])))
                    .expect("the correct trace");
                let bad = std::fs::read_to_string(&trace).expect("trace");
                let want = if first_difference(&good, &bad).is_some() {
                    1
                } else {
                    0
                };
                assert_eq!(code, want, "{spec} seed {seed} {name}: {report}");
                caught += want as usize;
            }
        }
    }
    assert_eq!(correct, 2 * 2 * (19 + 14));
    assert!(caught >= 40, "{caught} bugs caught");
}
