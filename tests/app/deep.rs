//! A tree that loads is searched or refused with a reason: never a panic, even when the system
//! refuses the stack a deep chain needs.

#![cfg(unix)]

use std::process::Command;

#[test]
fn a_deep_chain_under_a_memory_limit_is_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let levels = 1_000_000;
    let chain = format!("{}1{}", "(".repeat(levels), ")".repeat(levels));
    let path = dir.path().join("chain.txt");
    std::fs::write(&path, chain).unwrap();
    // 3 GB of address space: the 10^6-level chain's 4 GB search stack cannot be had.
    let script = format!(
        "ulimit -v 3000000 && exec {} run alphabeta --from bracket {}",
        env!("CARGO_BIN_EXE_prune"),
        path.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "a panic: {stderr}");
    if out.status.success() {
        // A system generous enough to give the stack: the value must be right.
        assert!(String::from_utf8_lossy(&out.stdout).contains("value"));
    } else {
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("levels deep"), "{stderr}");
    }
}
