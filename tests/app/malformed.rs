//! The corpus of bad inputs: every file under `tests/malformed/` must be refused with exactly the
//! one-line message in its `.expected` file (path, line, column, what was expected, hint), and
//! the binary must exit with code 2 on it, without panicking.
//!
//! `PRUNE_BLESS=1 cargo test --test malformed` rewrites the `.expected` files; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/malformed")
        .expect("the corpus directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e != "expected"))
        .collect();
    files.sort();
    files
}

fn expected_path(p: &Path) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(".expected");
    PathBuf::from(s)
}

#[test]
fn corpus_is_large_enough() {
    assert!(
        corpus().len() >= 30,
        "the issue asks for at least 30 malformed files"
    );
}

#[test]
fn every_malformed_file_is_refused_with_its_message() {
    let bless = std::env::var_os("PRUNE_BLESS").is_some();
    let mut failures = Vec::new();
    for path in corpus() {
        let got = match prune::format::load(&path, None) {
            Ok(_) => format!("ACCEPTED (should have been refused): {}", path.display()),
            Err(e) => e.to_string(),
        };
        let exp_path = expected_path(&path);
        if bless {
            std::fs::write(&exp_path, format!("{got}\n")).expect("write .expected");
            continue;
        }
        let expected = std::fs::read_to_string(&exp_path).unwrap_or_default();
        if got != expected.trim_end() {
            failures.push(format!(
                "{}\n  expected: {}\n  got:      {got}",
                path.display(),
                expected.trim_end()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_binary_exits_2_with_a_positioned_report() {
    for path in corpus() {
        let out = Command::new(env!("CARGO_BIN_EXE_prune"))
            .arg("info")
            .arg(&path)
            .output()
            .expect("run prune");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", path.display());
        assert!(stderr.starts_with("error"), "{}: {stderr}", path.display());
        assert!(!stderr.contains("panicked"), "{}: {stderr}", path.display());
        assert!(
            !stderr
                .chars()
                .any(|c| c != '\n' && prune::text::is_unsafe_char(c)),
            "{}: control or invisible characters reach the terminal: {stderr:?}",
            path.display()
        );
        assert!(
            stderr.contains('^'),
            "{}: a caret: {stderr}",
            path.display()
        );
        assert!(
            out.stdout.is_empty(),
            "{}: nothing on stdout",
            path.display()
        );
    }
}
