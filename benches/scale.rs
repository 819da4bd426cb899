//! Issue 30's whole-process rows: what `prune info FILE` costs as a process, which criterion's
//! in-process loops cannot show — the kernel's share of the time (fresh pages, faults) and the
//! peak resident memory, file pages mapped from the page cache included.
//!
//! `cargo bench --bench scale` measures the `.efg` row: Pig(8, 4, 10) as OpenSpiel's
//! `EFGWriter` writes it (docs/DESIGN.md gives the same recipe by hand), its load against a
//! plain C tokenizer pass over the same bytes (benches/reference/tokenize.c, built with `cc`
//! when there is one) and its peak memory a node. `cargo bench --bench scale -- big` adds the
//! 10⁸-node row (`prune gen uniform -b 10 -d 8`: 852 MB of text in the temporary directory,
//! about 4 GiB of memory while it loads, a few minutes in all).
//!
//! Each figure comes from the child's own resource usage (`wait4`): user and system CPU time
//! and its maximum resident set, free of whatever else the machine runs; wall time is shown
//! too but does depend on it. Runs are interleaved, and the table shows the least and the
//! greatest of each figure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const PRUNE: &str = env!("CARGO_BIN_EXE_prune");

/// What one run of a child cost.
#[derive(Copy, Clone, Debug)]
struct Usage {
    user: f64,
    sys: f64,
    wall: f64,
    /// Maximum resident set, bytes.
    peak: u64,
}

impl Usage {
    fn cpu(&self) -> f64 {
        self.user + self.sys
    }
}

/// Runs `program args…` with its output discarded; what it cost. Panics (the bench's way of
/// failing) when it cannot start or does not succeed.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by `wait4`, not `Child::wait`"
)]
fn measure(program: &Path, args: &[&str]) -> Usage {
    let start = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let (status, usage) = wait4(child.id() as libc::pid_t);
    let wall = start.elapsed().as_secs_f64();
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{} {args:?} failed (wait status {status})",
        program.display()
    );
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Usage {
        user: secs(usage.ru_utime),
        sys: secs(usage.ru_stime),
        wall,
        // Linux reports kibibytes.
        peak: usage.ru_maxrss as u64 * 1024,
    }
}

/// Reaps child `pid` and returns its wait status and its own resource usage (std's `Child`
/// gives neither the CPU time nor the peak of one child).
fn wait4(pid: libc::pid_t) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; the pointers are valid for the call.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return (status, usage);
        }
        let e = std::io::Error::last_os_error();
        assert_eq!(e.kind(), std::io::ErrorKind::Interrupted, "wait4: {e}");
    }
}

/// The least and the greatest of `f` over `runs`, as "a–b" (or "a" when they are equal at
/// the precision shown).
fn span(runs: &[Usage], f: impl Fn(&Usage) -> f64, digits: usize) -> String {
    let lo = runs.iter().map(&f).fold(f64::INFINITY, f64::min);
    let hi = runs.iter().map(&f).fold(f64::NEG_INFINITY, f64::max);
    let (a, b) = (format!("{lo:.digits$}"), format!("{hi:.digits$}"));
    if a == b { a } else { format!("{a}–{b}") }
}

fn least(runs: &[Usage], f: impl Fn(&Usage) -> f64) -> f64 {
    runs.iter().map(f).fold(f64::INFINITY, f64::min)
}

/// Runs `prune` with `args`, panicking on failure: the bench's set-up steps.
fn prune(args: &[&str]) {
    let status = Command::new(PRUNE)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot start prune: {e}"));
    assert!(status.success(), "prune {args:?} failed");
}

/// Rewrites prune's own `.efg` of Pig (`from`) the way OpenSpiel's `EFGWriter` writes the
/// game, into `to`: its title and player names, no comment lines, and chance outcomes named
/// `Roll N` with decimal probabilities (the recipe of docs/DESIGN.md's load table, without
/// `sed`). Returns the text's length and its nodes (player, chance and terminal lines).
///
/// Line by line: the bench's own peak memory must stay small, because a child started by
/// `posix_spawn` shares the parent's memory until it runs the program, and Linux counts the
/// parent's peak into the child's `ru_maxrss`.
fn openspiel_style(from: &Path, to: &Path, dice: u32) -> (u64, u64) {
    use std::io::{BufRead, BufReader, BufWriter, Write};
    let input = BufReader::new(std::fs::File::open(from).expect("read the generated game"));
    let file = std::fs::File::create(to).expect("write the OpenSpiel-style game");
    let mut out = BufWriter::new(file);
    let (mut bytes, mut nodes) = (0, 0);
    for (i, line) in input.lines().enumerate() {
        let mut line = line.expect("read the generated game");
        match i {
            0 => {
                line = "EFG 2 R \"pig(diceoutcomes=4,horizon=10,winscore=8)\" \
                        { \"Player 1\" \"Player 2\" }"
                    .into();
            }
            1 | 2 => continue,
            _ => {
                for n in 1..=dice {
                    let (rolled, roll) =
                        (format!("\"rolled {n}\" 1/4"), format!("\"Roll {n}\" 0.25"));
                    line = line.replace(&rolled, &roll);
                }
            }
        }
        nodes += u64::from(matches!(line.as_bytes(), [b'p' | b'c' | b't', b' ', ..]));
        bytes += line.len() as u64 + 1;
        writeln!(out, "{line}").expect("write the OpenSpiel-style game");
    }
    out.flush().expect("write the OpenSpiel-style game");
    (bytes, nodes)
}

/// The C tokenizer, built into `dir`, where the machine has a C compiler.
fn tokenizer(dir: &Path) -> Option<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/reference/tokenize.c");
    let out = dir.join("tokenize");
    let built = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&out)
        .arg(&source)
        .status()
        .is_ok_and(|s| s.success());
    built.then_some(out)
}

const RUNS: usize = 5;

fn efg_row(dir: &Path) {
    let raw = dir.join("pig-prune.efg");
    let raw_name = raw.to_str().expect("a UTF-8 temporary path");
    prune(&[
        "gen",
        "game",
        "pig",
        "--win",
        "8",
        "--dice",
        "4",
        "--horizon",
        "10",
        "-o",
        raw_name,
    ]);
    let file = dir.join("pig.efg");
    let (bytes, nodes) = openspiel_style(&raw, &file, 4);
    std::fs::remove_file(&raw).expect("remove the generated game");
    let name = file.to_str().expect("a UTF-8 temporary path");
    let tok = tokenizer(dir);
    let (mut loads, mut toks) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        if let Some(t) = &tok {
            toks.push(measure(t, &[name]));
        }
        loads.push(measure(Path::new(PRUNE), &["info", name]));
    }
    println!(
        "Pig(8, 4, 10), OpenSpiel-style .efg: {:.1} MB, {nodes} nodes; `prune info`, {RUNS} runs",
        bytes as f64 / 1e6
    );
    println!(
        "  CPU {} s (user {} + sys {}), wall {} s, peak {} MB = {} B a node (goal ≤ 64)",
        span(&loads, Usage::cpu, 2),
        span(&loads, |u| u.user, 2),
        span(&loads, |u| u.sys, 2),
        span(&loads, |u| u.wall, 2),
        span(&loads, |u| u.peak as f64 / 1e6, 1),
        span(&loads, |u| u.peak as f64 / nodes as f64, 1),
    );
    if toks.is_empty() {
        println!("  (no C compiler: the tokenizer's ratio is not measured)");
    } else {
        println!(
            "  C tokenizer CPU {} s; load / tokenizer, least of each: {:.2}× (goal ≤ 3×)",
            span(&toks, Usage::cpu, 2),
            least(&loads, Usage::cpu) / least(&toks, Usage::cpu),
        );
    }
}

fn big_row(dir: &Path) {
    let file = dir.join("u8.ron");
    let name = file.to_str().expect("a UTF-8 temporary path");
    prune(&[
        "gen", "uniform", "-b", "10", "-d", "8", "--seed", "1", "-o", name,
    ]);
    let bytes = std::fs::metadata(&file).expect("the generated tree").len();
    let runs: Vec<Usage> = (0..3)
        .map(|_| measure(Path::new(PRUNE), &["info", name]))
        .collect();
    std::fs::remove_file(&file).expect("remove the generated tree");
    println!(
        "uniform b = 10, d = 8 (111 111 111 nodes), RON: {:.0} MB; `prune info`, 3 runs",
        bytes as f64 / 1e6
    );
    println!(
        "  wall {} s (goal ≤ 5), user {} s, sys {} s (goal: sys ≤ user), peak {} GiB",
        span(&runs, |u| u.wall, 2),
        span(&runs, |u| u.user, 2),
        span(&runs, |u| u.sys, 2),
        span(&runs, |u| u.peak as f64 / (1u64 << 30) as f64, 2),
    );
}

fn main() {
    // Cargo passes `--bench` (and criterion-style filters) to every bench target.
    let big = std::env::args().skip(1).any(|a| a == "big");
    let dir = tempfile::tempdir().expect("a temporary directory");
    efg_row(dir.path());
    if big {
        big_row(dir.path());
    } else {
        println!("(the 10⁸-node row: cargo bench --bench scale -- big)");
    }
}
