//! Puts the git commit prune is built from into `prune --version` (`PRUNE_VERSION`), so that a
//! user can tell this prune from another on the PATH (Graphviz ships one) and say which build a
//! report comes from. Without git, or outside a checkout (a packaged crate), the version is the
//! crate's alone: the build never fails for want of git.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    let full = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            watch_head();
            format!("{version} (commit {commit}) — game-tree search explorer")
        }
        None => format!("{version} — game-tree search explorer"),
    };
    println!("cargo:rustc-env=PRUNE_VERSION={full}");
    println!("cargo:rerun-if-changed=build.rs");
}

/// Rebuilds when HEAD moves: a commit, a checkout, a pull (the branch's ref, or packed refs).
fn watch_head() {
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for path in ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref()) {
        // A file that does not exist would make cargo run this script on every build.
        let watched = git(&["rev-parse", "--git-path", path]).map(|p| absolute(&p));
        if let Some(p) = watched.filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
}

/// git's relative paths are from the package's folder, where build scripts run.
fn absolute(p: &str) -> PathBuf {
    let p = PathBuf::from(p);
    if p.is_absolute() {
        return p;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// One line of git's output, or `None` when git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let line = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!line.is_empty()).then_some(line)
}
