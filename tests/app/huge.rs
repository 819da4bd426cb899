//! Impossible sizes are refused at once, arithmetically, before any work or allocation.

use std::process::Command;
use std::time::{Duration, Instant};

fn prune(args: &[&str]) -> (i32, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .unwrap();
    // Far above the cost of an arithmetic check, far below building anything that size.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{args:?} took {:?}",
        start.elapsed()
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn huge_depths_and_trial_counts_are_refused_before_any_work() {
    let d = "4294967295";
    for args in [
        &["gen", "uniform", "-b", "2", "-d", d][..],
        &["gen", "uniform", "-b", "1", "-d", d],
        &["gen", "win-loss", "-b", "1", "-d", d],
        &["gen", "multiplayer", "-b", "1", "-d", d],
        &["gen", "ordered", "-b", "2", "-g", "0", "-r", "0", "-d", d],
        &["gen", "star-complete", "-d", "2147483647"],
        &["gen", "star-complete", "-b", "1", "-d", "2147483647"],
        &["gen", "chance", "-b", "1", "-d", d],
        &["gen", "chance", "--irregular", "-b", "1", "-d", d],
        &[
            "gen",
            "random",
            "-b",
            "1",
            "--leaf-probability",
            "0",
            "-d",
            d,
        ],
        &["experiment", "convergence", "--trials", d],
        &["experiment", "ballard-average", "--trials", d],
    ] {
        let (code, err) = prune(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    }
}

#[test]
fn an_address_space_limit_is_honoured_up_front() {
    // 10^7 nodes need more than 1 GB of address space: refused with the limit named, not
    // killed or aborted half-way.
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "ulimit -v 1000000 && exec {} gen uniform -b 10 -d 7 -o {}",
        env!("CARGO_BIN_EXE_prune"),
        dir.path().join("t.ron").display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ulimit -v"), "{err}");
    assert!(!dir.path().join("t.ron").exists());
}

#[test]
fn an_efg_naming_one_big_outcome_many_times_is_refused_with_an_estimate() {
    // 255 players, 200,000 leaves all naming outcome 1: 3 MB of file, about 1.2 GB of payoffs.
    let leaves = 200_000;
    let players: Vec<String> = (1..=255).map(|i| format!("\"P{i}\"")).collect();
    let mut efg = format!(
        "EFG 2 R \"amplified\" {{ {} }}\n\"\"\n\n",
        players.join(" ")
    );
    efg.push_str(&format!(
        "p \"\" 1 1 \"\" {{ {} }} 0\n",
        "\"\" ".repeat(leaves)
    ));
    let payoffs: Vec<String> = (0..255).map(|i| i.to_string()).collect();
    efg.push_str(&format!("t \"\" 1 \"\" {{ {} }}\n", payoffs.join(" ")));
    for _ in 1..leaves {
        efg.push_str("t \"\" 1\n");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("amplified.efg");
    std::fs::write(&path, efg).unwrap();
    let script = format!(
        "ulimit -v 800000 && exec {} info {}",
        env!("CARGO_BIN_EXE_prune"),
        path.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("leaves with 255 payoffs each need about"),
        "{err}"
    );
}

#[test]
fn a_tree_file_too_big_for_memory_is_refused_before_loading() {
    // 1.1 million nodes in 8 MB of RON take about 52 MB to load: refused when 50 MB of address
    // space is all there is, with the estimate and the flag that overrides it, not aborted
    // half-way; loaded when 250 MB is (an estimate of 256 bytes a node refused it).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.ron");
    let (code, err) = prune(&[
        "gen",
        "uniform",
        "-b",
        "10",
        "-d",
        "6",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let info = |kib: u32| {
        let script = format!(
            "ulimit -v {kib} && exec {} info {}",
            env!("CARGO_BIN_EXE_prune"),
            path.display()
        );
        Command::new("sh").arg("-c").arg(&script).output().unwrap()
    };
    let out = info(50_000);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs about"), "{err}");
    assert!(err.contains("--ignore-memory-estimate"), "{err}");
    assert!(!err.contains("memory allocation"), "{err}");
    let out = info(250_000);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1111111"));
}
