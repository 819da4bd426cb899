//! Under an address-space limit, every load ends in a refusal or a clear message with exit code
//! 2 — never Rust's abort on a failed allocation (SIGABRT, no word of what was too big).
#![cfg(target_os = "linux")]

use std::os::unix::process::CommandExt;
use std::process::Command;

/// A chain of 60 000 decisions among 255 players, each with a leaf: 2.3 MB of `.efg` whose
/// loading keeps a frame of 255 running sums for every open ancestor.
fn many_player_chain() -> String {
    let players: Vec<String> = (1..=255).map(|i| format!("\"P{i}\"")).collect();
    let mut out = format!("EFG 2 R \"chain\" {{ {} }}\n\"\"\n", players.join(" "));
    let payoffs = vec!["1"; 255].join(" ");
    for i in 0..60_000 {
        out.push_str(&format!(
            "p \"\" {} {} \"\" {{ \"a\" \"b\" }} 0\n",
            i % 255 + 1,
            i + 1
        ));
        if i == 0 {
            out.push_str(&format!("t \"\" 1 \"o\" {{ {payoffs} }}\n"));
        } else {
            out.push_str("t \"\" 1\n");
        }
    }
    out + "t \"\" 1\n"
}

/// Runs prune with its address space limited to `mib` MiB.
fn limited(mib: u64, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_prune"));
    cmd.args(args);
    let bytes = mib << 20;
    // SAFETY: setrlimit is async-signal-safe and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            let limit = rustix::process::Rlimit {
                current: Some(bytes),
                maximum: Some(bytes),
            };
            rustix::process::setrlimit(rustix::process::Resource::As, limit)?;
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[test]
fn a_load_that_runs_out_of_memory_ends_with_a_message_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let chain = dir.path().join("chain.efg");
    std::fs::write(&chain, many_player_chain()).unwrap();
    let chain = chain.to_str().unwrap();
    let mut refused = 0;
    for mib in (250..=700).step_by(25) {
        for args in [
            vec!["info", chain],
            vec!["info", "--ignore-memory-estimate", chain],
        ] {
            let o = limited(mib, &args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                matches!(o.status.code(), Some(0 | 2)),
                "{mib} MiB, {args:?}: {}\n{err}",
                o.status
            );
            if o.status.code() == Some(2) {
                refused += 1;
                assert!(err.starts_with("error: "), "{mib} MiB, {args:?}: {err}");
            }
        }
    }
    assert!(refused > 0, "no limit was tight enough to refuse");
}
