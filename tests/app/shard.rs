//! `prune experiment NAME --shard K/N` and `prune experiment merge`: the merged parts print the
//! unsharded run's table, CSV and JSON and draw its chart, byte for byte, for every experiment;
//! parts that do not belong together are refused with exit code 2.

use std::path::{Path, PathBuf};

use crate::common::{prune, stderr, stdout};
use prune_cli::experiment::EXPERIMENTS;

/// Each experiment's options, small enough for a test; the trial counts leave some shards
/// uneven and, at N = 4, some rows without a trial in a shard.
fn small(name: &str) -> &'static [&'static str] {
    match name {
        "ballard-best" => &["--sizes", "2,4,6,10"],
        "ballard-average" => &["--trials", "5", "--sizes", "2,4,10"],
        "ballard-variants" => &["--trials", "3", "--sizes", "4,10"],
        "knuth-moore" => &["--trials", "3", "--sizes", "2,3"],
        "reinefeld-marsland" | "reinefeld-marsland-regions" | "win-loss-map" => &[],
        "reinefeld-marsland-measured" => &["--trials", "2", "--sizes", "5"],
        "win-loss" => &["--trials", "3", "--sizes", "2"],
        "convergence" => &["--trials", "5", "--sizes", "2"],
        "pathology" => &["--trials", "40"],
        "pathology-games" => &["--trials", "6"],
        "improvements" => &["--sizes", "1,2"],
        "eval-learning" => &["--trials", "30", "--sizes", "1"],
        "maxn" => &["--trials", "3", "--sizes", "3"],
        other => panic!("{other}: give it small options here, so its shards are checked too"),
    }
}

/// Runs prune with `args`, expecting success: its standard output.
fn ok(args: &[&str]) -> String {
    let o = prune(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Runs prune with `args`, expecting a refusal with exit code 2: its message.
fn refused(args: &[&str]) -> String {
    let o = prune(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
    let msg = stderr(&o);
    assert!(!msg.contains("panicked"), "{msg}");
    msg
}

/// The table, CSV, JSON and chart of a run (`run` gives the command before its output flags).
fn outputs(dir: &Path, tag: &str, run: &[&str]) -> [String; 4] {
    let svg = dir.join(format!("{tag}.svg"));
    let with = |extra: &[&str]| ok(&[run, extra].concat());
    let table = with(&["--plot", svg.to_str().unwrap()]);
    let csv = with(&["--format", "csv"]);
    let json = with(&["--format", "json"]);
    let svg = std::fs::read_to_string(&svg).unwrap();
    [table, csv, json, svg]
}

/// Writes the N parts of `name` run with `opts` (and `extra`) into `dir`: their paths.
fn shards(dir: &Path, name: &str, opts: &[&str], n: u32, extra: &[&str]) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let path = dir.join(format!("{name}-{k}of{n}{}.json", extra.concat()));
            let shard = format!("{k}/{n}");
            let args = [
                &["experiment", name][..],
                opts,
                extra,
                &["--shard", &shard, "-o", path.to_str().unwrap()],
            ]
            .concat();
            assert_eq!(ok(&args), "", "{args:?}: the part goes to its file");
            path
        })
        .collect()
}

fn merge_args(parts: &[PathBuf]) -> Vec<&str> {
    let mut args = vec!["experiment", "merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    args
}

#[test]
fn every_experiment_merged_from_shards_prints_and_draws_its_unsharded_output() {
    let dir = tempfile::tempdir().unwrap();
    for info in EXPERIMENTS {
        let opts = small(info.name);
        let whole = outputs(
            dir.path(),
            info.name,
            &[&["experiment", info.name][..], opts].concat(),
        );
        for n in [1, 3, 4] {
            let mut parts = shards(dir.path(), info.name, opts, n, &[]);
            // The order of the parts on the command line does not matter.
            parts.reverse();
            let merged = outputs(
                dir.path(),
                &format!("{}-merged-{n}", info.name),
                &merge_args(&parts),
            );
            for (what, (a, b)) in ["table", "CSV", "JSON", "chart"]
                .iter()
                .zip(whole.iter().zip(&merged))
            {
                assert!(a == b, "{} in {n} shards: the {what} differs", info.name);
            }
        }
    }
}

/// The experiments whose refusals are checked: one split by random trials, and those whose
/// units of work are trees, searches, or shares and chess candidates.
const REFUSING: [&str; 4] = [
    "ballard-average",
    "ballard-best",
    "improvements",
    "eval-learning",
];

/// The closed-form models the merge computes: their parts carry no results, but are checked
/// like any other.
const MODELS: [&str; 3] = [
    "reinefeld-marsland",
    "reinefeld-marsland-regions",
    "win-loss-map",
];

#[test]
fn parts_that_do_not_make_one_run_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in REFUSING.into_iter().chain(MODELS) {
        refuses_parts_of_other_runs(d, name);
    }
}

fn refuses_parts_of_other_runs(d: &Path, name: &str) {
    let opts = small(name);
    let parts = shards(d, name, opts, 3, &[]);
    let p = |i: usize| parts[i].to_str().unwrap();

    let msg = refused(&["experiment", "merge", p(0), p(2)]);
    assert!(msg.contains("shard 2/3 is missing"), "{name}: {msg}");
    let msg = refused(&["experiment", "merge", p(0), p(1), p(1), p(2)]);
    assert!(msg.contains("both shard 2/3"), "{name}: {msg}");

    let other_seed = shards(d, name, opts, 3, &["--seed", "2"]);
    let msg = refused(&[
        "experiment",
        "merge",
        p(0),
        p(1),
        other_seed[2].to_str().unwrap(),
    ]);
    assert!(
        msg.contains("--seed 2") && msg.contains("not a part of the same run"),
        "{name}: {msg}"
    );

    let other_n = shards(d, name, opts, 4, &[]);
    let msg = refused(&[
        "experiment",
        "merge",
        p(0),
        p(1),
        other_n[2].to_str().unwrap(),
    ]);
    assert!(msg.contains("shards 4, not 3"), "{name}: {msg}");

    let other = shards(d, "ballard-variants", small("ballard-variants"), 3, &[]);
    let msg = refused(&[
        "experiment",
        "merge",
        p(0),
        p(1),
        other[2].to_str().unwrap(),
    ]);
    assert!(
        msg.contains(&format!("experiment ballard-variants, not {name}")),
        "{msg}"
    );

    let not_a_part = d.join("tree.json");
    std::fs::write(&not_a_part, "{\"root\": 1}").unwrap();
    let msg = refused(&["experiment", "merge", not_a_part.to_str().unwrap()]);
    assert!(msg.contains("not a part"), "{msg}");
    let msg = refused(&[
        "experiment",
        "merge",
        d.join("absent.json").to_str().unwrap(),
    ]);
    assert!(msg.contains("cannot read"), "{msg}");
}

/// A part edited by hand: a trial taken out, given twice, or moved to another shard's part.
#[test]
fn a_part_missing_or_repeating_a_trial_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in REFUSING {
        refuses_edited_parts(dir.path(), name);
    }
}

fn refuses_edited_parts(d: &Path, name: &str) {
    let parts = shards(d, name, small(name), 2, &[]);
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    let part: serde_json::Value = serde_json::from_str(&text).unwrap();
    let edited = |f: &dyn Fn(&mut Vec<serde_json::Value>)| {
        let mut p = part.clone();
        f(p["results"].as_array_mut().unwrap());
        std::fs::write(&parts[1], serde_json::to_string(&p).unwrap()).unwrap();
        refused(&merge_args(&parts))
    };
    let msg = edited(&|r| {
        r.pop();
    });
    assert!(msg.contains("is in no part"), "{name}: {msg}");
    let msg = edited(&|r| r.push(r[0].clone()));
    assert!(msg.contains("is there twice"), "{name}: {msg}");
    // Trial 0 of row 0 is shard 1's (round-robin from the first trial).
    let msg = edited(&|r| {
        r[0][0] = 0.into();
        r[0][1] = 0.into();
    });
    assert!(
        msg.contains("trial 0 of row 0 is not shard 2/2's"),
        "{name}: {msg}"
    );
    let msg = edited(&|r| {
        r[0][0] = 0.into();
        r[0][1] = 99.into();
    });
    assert!(msg.contains("row 0 has no trial 99"), "{name}: {msg}");
    std::fs::write(&parts[1], &text).unwrap();
    ok(&merge_args(&parts));
}

#[test]
fn a_shard_refuses_what_a_run_refuses_and_bad_shards() {
    let msg = refused(&[
        "experiment",
        "ballard-average",
        "--sizes",
        "1",
        "--shard",
        "1/2",
    ]);
    assert!(!msg.contains("written"), "{msg}");
    for bad in ["0/2", "3/2", "2", "1/0"] {
        refused(&["experiment", "ballard-average", "--shard", bad]);
    }
    refused(&[
        "experiment",
        "ballard-average",
        "--shard",
        "1/2",
        "--plot",
        "x.svg",
    ]);
    refused(&["experiment", "ballard-average", "-o", "x.json"]);
    refused(&["experiment", "merge"]);
}

/// Without -o the part goes to standard output; an experiment the merge computes writes a part
/// with no trials.
#[test]
fn a_part_on_standard_output_and_a_part_of_an_experiment_the_merge_computes() {
    let out = ok(&[
        "experiment",
        "ballard-average",
        "--trials",
        "2",
        "--sizes",
        "2",
        "--shard",
        "2/2",
    ]);
    let part: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(part["experiment"], "ballard-average");
    assert_eq!(part["shard"], 2);
    assert_eq!(part["results"].as_array().unwrap().len(), 1);
    let out = ok(&["experiment", "win-loss-map", "--shard", "1/2"]);
    let part: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(part["results"].as_array().unwrap().len(), 0);
}

/// A number edited into a part that no trial can give (a root value of 10³⁰⁸ where values are
/// drawn from 0..=1, a leaf count above the tree's leaves) is refused, not averaged.
#[test]
fn a_result_no_trial_can_give_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    type Edit = dyn Fn(&mut serde_json::Value);
    let edits: [(&str, &Edit); 3] = [
        ("convergence", &|r| r[2] = serde_json::json!(1e308)),
        ("convergence", &|r| r[2] = serde_json::json!(-0.5)),
        ("knuth-moore", &|r| r[2][0] = serde_json::json!(u64::MAX)),
    ];
    for (name, edit) in edits {
        let parts = shards(dir.path(), name, small(name), 2, &[]);
        let text = std::fs::read_to_string(&parts[1]).unwrap();
        let mut part: serde_json::Value = serde_json::from_str(&text).unwrap();
        edit(&mut part["results"][0]);
        std::fs::write(&parts[1], serde_json::to_string(&part).unwrap()).unwrap();
        let msg = refused(&merge_args(&parts));
        assert!(
            msg.contains("not a result this experiment gives"),
            "{name}: {msg}"
        );
        std::fs::write(&parts[1], &text).unwrap();
        ok(&merge_args(&parts));
    }
}

/// Each experiment's check of a part's results knows what that experiment can give: a value
/// within the loose bounds of before (no more than the tree's leaves, a share in 0..=1) but
/// impossible for the row's parameters — fewer leaves than the minimal tree, max^n skipping a
/// leaf, a share of correct moves no tie of b moves gives, two games with the same winner and
/// one win each side said to differ, a table hit without a table — is refused with the file, row and trial named; the part
/// as the shard wrote it passes.
#[test]
fn a_result_impossible_for_its_row_is_refused() {
    use serde_json::{Value, json};
    let dir = tempfile::tempdir().unwrap();
    /// Edits a record of the part's results: the index of the one edited.
    type Edit = dyn Fn(&mut [Value]) -> usize;
    let first = |f: fn(&mut Value)| {
        move |r: &mut [Value]| -> usize {
            f(&mut r[0][2]);
            0
        }
    };
    let informative = |r: &[Value]| r.iter().position(|x| !x[2].is_null()).unwrap();
    let edits: Vec<(&str, Box<Edit>, &str)> = vec![
        (
            "knuth-moore",
            Box::new(first(|x| x[0] = json!(0))),
            "'s leaves 0, fewer than the",
        ),
        (
            "knuth-moore",
            // A perfectly ordered row (best, random, worst a depth): the minimal tree exactly.
            Box::new(|r: &mut [Value]| {
                let i = r
                    .iter()
                    .position(|x| x[0].as_u64().unwrap() % 3 == 0)
                    .unwrap();
                let ab = r[i][2][0].as_u64().unwrap();
                r[i][2][0] = json!(ab + 1);
                i
            }),
            "where this row always counts",
        ),
        (
            "maxn",
            Box::new(first(|x| x[0] = json!(x[0].as_u64().unwrap() - 1))),
            "max^n's leaves",
        ),
        (
            "win-loss",
            Box::new(first(|x| x[1] = json!(1))),
            "alpha-beta's leaves 1, fewer than the",
        ),
        (
            "reinefeld-marsland-measured",
            Box::new(first(|x| x[0] = json!(1))),
            "alpha-beta's leaves 1, fewer than the",
        ),
        (
            "ballard-best",
            Box::new(first(|x| x[0] = json!(1))),
            "Star1's leaves 1, fewer than the",
        ),
        (
            "ballard-average",
            Box::new(first(|x| x["star2"] = json!(0))),
            "Star2's leaves 0, fewer than the",
        ),
        (
            "ballard-variants",
            Box::new(first(|x| x[3] = json!(1))),
            "Star2's leaves 1, fewer than the",
        ),
        (
            "pathology",
            Box::new(move |r: &mut [Value]| {
                let i = informative(r);
                r[i][2][0][0] = json!(0.3);
                i
            }),
            "not a share of 2 moves or fewer",
        ),
        (
            "pathology",
            Box::new(move |r: &mut [Value]| {
                let i = informative(r);
                let last = r[i][2].as_array().unwrap().len() - 1;
                r[i][2][last][1] = json!(0.5);
                i
            }),
            "where every rule chooses right",
        ),
        (
            "improvements",
            Box::new(first(|x| x[0]["tt_hits"] = json!(1))),
            "1 TT hits by alphabeta, which has no table",
        ),
        (
            "improvements",
            Box::new(first(|x| x[1]["researches"] = json!(1))),
            "1 re-searches by alphabeta:tt, which never searches again",
        ),
        (
            "pathology-games",
            Box::new(first(|x| x[1][0] = json!([1, false]))),
            "1 wins of two games, said to have another winner",
        ),
    ];
    for (name, edit, why) in edits {
        let parts = shards(dir.path(), name, small(name), 2, &[]);
        let text = std::fs::read_to_string(&parts[1]).unwrap();
        let mut part: Value = serde_json::from_str(&text).unwrap();
        let results = part["results"].as_array_mut().unwrap();
        let i = edit(results);
        let (row, trial) = (results[i][0].clone(), results[i][1].clone());
        std::fs::write(&parts[1], serde_json::to_string(&part).unwrap()).unwrap();
        let msg = refused(&merge_args(&parts));
        let at = format!("{}: trial {trial} of row {row}: ", parts[1].display());
        assert!(msg.contains(&at) && msg.contains(why), "{name}: {msg}");
        std::fs::write(&parts[1], &text).unwrap();
        ok(&merge_args(&parts));
    }
}

/// N above the units of work is refused by the shard; a part claiming a huge N is refused by
/// the merge, which names a few missing shards and counts the rest (it once built every name).
#[test]
fn more_shards_than_units_are_refused_and_missing_ones_counted() {
    let msg = refused(&[
        "experiment",
        "knuth-moore",
        "--trials",
        "3",
        "--sizes",
        "2",
        "--shard",
        "1/4294967295",
    ]);
    assert!(msg.contains("units of work"), "{msg}");
    let dir = tempfile::tempdir().unwrap();
    let parts = shards(dir.path(), "knuth-moore", small("knuth-moore"), 2, &[]);
    for p in &parts {
        let mut part: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        part["shards"] = 100_000_000.into();
        std::fs::write(p, serde_json::to_string(&part).unwrap()).unwrap();
    }
    let msg = refused(&merge_args(&parts));
    assert!(msg.contains("shards 3/100000000, 4/100000000"), "{msg}");
    assert!(msg.contains("(99999998 in all)"), "{msg}");
    assert!(msg.len() < 1000, "{} bytes", msg.len());
}
