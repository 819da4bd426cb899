//! The `prune` binary end to end: commands, exit codes, stdout/stderr, files.

use std::path::Path;
use std::process::{Command, Output};

fn prune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .expect("run prune")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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
