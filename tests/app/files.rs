//! What prune does to the files the user names, end to end with the real binary: outputs go to
//! what was named (FIFOs and devices in place, links followed and kept, read-only files
//! refused), a signal mid-write leaves no temporary file, and only regular files are read.
//!
//! Nothing here may create a file in /dev: the only device written is /dev/full, and only by a
//! private copy of the binary that has just been seen to write a FIFO in place. (With a target
//! directory shared between checkouts, `target/debug/prune` may be another checkout's build: an
//! older prune would replace /dev/full with a regular file.)
#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A private copy of the binary, checked to be this checkout's (it knows --max-file-size).
fn binary() -> &'static Path {
    static COPY: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = COPY.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prune");
        fs::copy(env!("CARGO_BIN_EXE_prune"), &path).unwrap();
        // Another test's child, forked while the copy was open for writing, holds it open until
        // it execs: running the copy fails with "text file busy" meanwhile. Wait that out.
        let mut tries = 0;
        let help = loop {
            match Command::new(&path).args(["info", "--help"]).output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                other => break other.unwrap(),
            }
        };
        assert!(
            String::from_utf8_lossy(&help.stdout).contains("--max-file-size"),
            "{} is not this checkout's prune (a shared target directory?)",
            env!("CARGO_BIN_EXE_prune")
        );
        (dir, path)
    });
    path
}

fn prune() -> Command {
    Command::new(binary())
}

fn run(args: &[&str]) -> Output {
    prune().args(args).output().expect("run prune")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The small tree every test writes, as `prune gen` prints it.
const GEN: &[&str] = &["gen", "uniform", "-b", "2", "-d", "2", "--seed", "3"];

fn expected_tree() -> Vec<u8> {
    let o = run(GEN);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    o.stdout
}

fn gen_to(path: &Path) -> Output {
    let mut args = GEN.to_vec();
    args.extend(["-o", path.to_str().unwrap()]);
    run(&args)
}

fn temporaries(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".prune-") && n.ends_with(".tmp"))
        .collect()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Waits for `child` at most `limit`; kills it and fails if it is still running.
fn wait_at_most(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// [`wait_at_most`], then what `child` wrote on its piped standard error.
fn stderr_at_exit(
    child: &mut Child,
    limit: Duration,
    what: &str,
) -> (std::process::ExitStatus, String) {
    let status = wait_at_most(child, limit, what);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("standard error piped")
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}

#[test]
fn a_fifo_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.ron");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            fs::File::open(fifo)
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            bytes
        })
    };
    let mut child = prune()
        .args(GEN)
        .args(["-o", fifo.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(20), "prune writing a FIFO");
    // Replaced by a regular file, the FIFO would never feed the reader: fail instead of waiting.
    assert!(is_fifo(&fifo), "the FIFO was replaced");
    assert!(status.success());
    assert_eq!(reader.join().unwrap(), expected_tree());
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_symlink_gets_the_output_in_its_target_and_survives() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.ron");
    fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.ron");
    std::os::unix::fs::symlink("real.ron", &link).unwrap();
    let o = gen_to(&link);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&target).unwrap(), expected_tree());
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_read_only_file_is_refused_and_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("mine.ron");
    fs::write(&target, "mine").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o444)).unwrap();
    let o = gen_to(&target);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is read-only; prune does not replace it"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
    assert_eq!(
        fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o444
    );
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_hard_link_stays_shared() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.ron");
    let b = dir.path().join("b.ron");
    fs::write(
        &a,
        "a longer old content than the new tree could ever be, ".repeat(20),
    )
    .unwrap();
    fs::hard_link(&a, &b).unwrap();
    let o = gen_to(&a);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(fs::read(&b).unwrap(), expected_tree());
    assert_eq!(
        fs::metadata(&a).unwrap().ino(),
        fs::metadata(&b).unwrap().ino()
    );
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_full_device_is_a_plain_error() {
    // This binary must write a FIFO in place before it may be pointed at /dev.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("probe");
    mkfifo(&fifo);
    let reader = std::thread::spawn({
        let fifo = fifo.clone();
        move || fs::read(fifo).unwrap()
    });
    let mut child = prune().args(GEN).arg("-o").arg(&fifo).spawn().unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(20), "prune writing a FIFO");
    assert!(
        status.success() && is_fifo(&fifo),
        "not safe to write /dev/full"
    );
    assert_eq!(reader.join().unwrap(), expected_tree());

    let before: Vec<_> = fs::read_dir("/dev")
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let meta = fs::metadata("/dev/full").unwrap();
    let o = run(&["gen", "uniform", "-b", "2", "-d", "2", "-o", "/dev/full"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write /dev/full: No space left on device"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("internal error"));
    let after = fs::metadata("/dev/full").unwrap();
    assert_eq!(
        (meta.ino(), meta.rdev()),
        (after.ino(), after.rdev()),
        "/dev/full replaced"
    );
    let now: Vec<_> = fs::read_dir("/dev")
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        now.iter().all(|n| before.contains(n)),
        "a file appeared in /dev"
    );

    // Standard output redirected to it.
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = prune().args(GEN).stdout(full).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("No space left on device"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("internal error"));
}

/// The help and the version are output like any other: standard output that cannot take them
/// (a full disk) is exit code 2 with the system's message, not a silent 0.
#[test]
fn help_that_cannot_be_written_is_an_error() {
    for args in [
        &["--help"][..],
        &["run", "--help"],
        &["--version"],
        &["help", "draw"],
    ] {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = prune().args(args).stdout(full).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write standard output: No space left on device"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Usage"));
}

#[test]
fn dash_is_standard_output_and_standard_input() {
    let o = run(&["convert", "--expr", "(1,(2,3))", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ron = o.stdout;
    let mut child = prune()
        .args(["info", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &ron).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["nodes"], 5);
}

#[test]
fn a_character_device_is_not_read() {
    let start = Instant::now();
    let mut child = prune()
        .args(["info", "/dev/zero"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, err) = stderr_at_exit(&mut child, Duration::from_secs(10), "info /dev/zero");
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains("/dev/zero is a character device, not a tree file"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_fifo_without_a_writer_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.ron");
    mkfifo(&fifo);
    let mut child = prune()
        .args(["info", fifo.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, err) = stderr_at_exit(&mut child, Duration::from_secs(10), "info on a FIFO");
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains("is a FIFO (named pipe), not a tree file"),
        "{err}"
    );
}

#[test]
fn reading_stops_at_the_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ron");
    fs::write(&file, expected_tree()).unwrap();
    let path = file.to_str().unwrap();
    let o = run(&["info", path, "--max-file-size", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("prune reads tree files up to 10 bytes"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        run(&["info", path, "--max-file-size", "1K"]).status.code(),
        Some(0)
    );
    // Standard input has no size to check beforehand: the reading of an endless text stops.
    let mut child = prune()
        .args(["info", "-", "--max-file-size", "1M"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let text = b"(1, 2), ".repeat(1 << 12);
        while stdin.write_all(&text).is_ok() {}
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("standard input: is larger than 1048576 bytes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_signal_mid_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("big.ron");
    crate::common::write_million_leaves(&tree);
    let trace = dir.path().join("trace.jsonl");
    fs::write(&trace, "old").unwrap();
    // The trace of a million visits takes seconds to write: long enough to be interrupted.
    let mut child = prune()
        .args(["run", "minimax", tree.to_str().unwrap(), "--trace"])
        .arg(&trace)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let writing = temporaries(dir.path())
            .iter()
            .any(|n| fs::metadata(dir.path().join(n)).is_ok_and(|m| m.len() > 0));
        if writing {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before it was interrupted"
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary file appeared"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(20), "prune after SIGTERM");
    assert_eq!(status.code(), Some(143));
    assert_eq!(temporaries(dir.path()), Vec::<String>::new());
    assert_eq!(fs::read_to_string(&trace).unwrap(), "old");
}

#[test]
fn max_file_size_works_before_the_command_too() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["--max-file-size", "100", "info"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/trees/default.ron"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("up to 100 bytes"), "{err}");
}

/// Interrupts `prune convert` over a hard-linked target at many points, by SIGINT, SIGTERM and
/// SIGHUP in turn: each time the shared file holds either all of its old text or all of the
/// new one, never the start of the new text alone.
#[test]
fn an_interrupted_write_over_a_hard_link_leaves_old_or_new() {
    use rustix::process::{Pid, Signal, kill_process};
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("big.ron");
    let o = run(&[
        "gen",
        "uniform",
        "-b",
        "8",
        "-d",
        "6",
        "-o",
        tree.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let fresh = dir.path().join("fresh.efg");
    let o = run(&["convert", tree.to_str().unwrap(), fresh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let new = fs::read(&fresh).unwrap();
    let old = b"the old text, shared by two names\n".repeat(1000);
    let target = dir.path().join("out.efg");
    let other = dir.path().join("other.efg");
    let signals = [Signal::INT, Signal::TERM, Signal::HUP];
    let mut interrupted = 0;
    for i in 0..30u64 {
        let _ = fs::remove_file(&target);
        let _ = fs::remove_file(&other);
        fs::write(&target, &old).unwrap();
        fs::hard_link(&target, &other).unwrap();
        let mut child = prune()
            .args(["convert", tree.to_str().unwrap(), target.to_str().unwrap()])
            .spawn()
            .unwrap();
        // The copy into the target starts once the temporary holds the whole new text; the
        // signal comes from a little before that to well after.
        let start = Instant::now();
        while !temporaries(dir.path()).iter().any(|n| {
            fs::metadata(dir.path().join(n)).is_ok_and(|m| m.len() as usize >= new.len() / 2)
        }) {
            if child.try_wait().unwrap().is_some() || start.elapsed() > Duration::from_secs(60) {
                break;
            }
            std::hint::spin_loop();
        }
        std::thread::sleep(Duration::from_micros(i * 400));
        let signal = signals[i as usize % 3];
        let _ = kill_process(Pid::from_child(&child), signal);
        let status = wait_at_most(&mut child, Duration::from_secs(30), "prune after a signal");
        let now = fs::read(&other).unwrap();
        assert!(
            now == old || now == new,
            "try {i} ({signal:?}, {status}): the shared file holds {} bytes, neither old ({}) nor new ({})",
            now.len(),
            old.len(),
            new.len()
        );
        interrupted += usize::from(now == old);
        assert_eq!(
            fs::metadata(&target).unwrap().ino(),
            fs::metadata(&other).unwrap().ino()
        );
        assert!(temporaries(dir.path()).is_empty(), "try {i}");
    }
    assert!(interrupted > 0, "no try was interrupted before the copy");
}

/// A stream of NUL bytes on standard input is refused at its first block, not read to the size
/// limit first.
#[test]
fn a_binary_stream_is_refused_at_its_first_block() {
    use std::io::Write;
    let mut child = prune()
        .args(["info", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = [0u8; 1 << 16];
        let mut written = 0usize;
        // Far less than the 1 GiB limit, far more than a block and a pipe's buffer.
        while written < 64 << 20 {
            match stdin.write(&block) {
                Ok(n) => written += n,
                Err(_) => break,
            }
        }
        written
    });
    let (status, err) = stderr_at_exit(&mut child, Duration::from_secs(60), "prune reading NULs");
    let written = writer.join().unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("binary"), "{err}");
    assert!(
        written < 4 << 20,
        "{written} bytes were taken before the refusal"
    );
}

#[test]
fn no_output_is_written_over_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("same.ron");
    assert_eq!(gen_to(&tree).status.code(), Some(0));
    let link = dir.path().join("link.ron");
    fs::hard_link(&tree, &link).unwrap();
    let t = tree.to_str().unwrap();
    let dotted = format!("{}/./same.ron", dir.path().display());
    let l = link.to_str().unwrap();
    let cases: [&[&str]; 6] = [
        &["draw", t, "-o", t, "--format", "text"],
        &["draw", t, "-o", &dotted, "--format", "svg"],
        &["run", "alphabeta", t, "--trace", l],
        &["run", "alphabeta", t, "--dot", t, "--stats-csv", "-"],
        &["compare", t, "--algos", "alphabeta", "--stats-csv", t],
        &["convert", t, &dotted],
    ];
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is the input file"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(fs::read(&tree).unwrap(), expected_tree(), "{args:?}");
    }
    // A new output, or one that is another file, is written.
    let other = dir.path().join("other.txt");
    let o = run(&["draw", t, "-o", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["draw", t, "-o", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Every output counts, not only the one named: `draw --steps` writes OUT-001.svg, … and the
/// merge's chart may name one of its parts. Each is checked against every input before the
/// first is written (a hard link and a symbolic link to the input alike).
#[test]
fn no_numbered_picture_or_chart_is_written_over_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for ext in ["txt", "svg"] {
        let input = d.join(format!("pic-001.{ext}"));
        // The tree in the bracket format, whatever the name says: --from reads it.
        let o = run(&[GEN, &["--to", "bracket", "-o", input.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let before = fs::read(&input).unwrap();
        let linked = d.join(format!("linked.{ext}"));
        fs::hard_link(&input, &linked).unwrap();
        let symlinked = d.join(format!("sym.{ext}"));
        std::os::unix::fs::symlink(&input, &symlinked).unwrap();
        for tree in [&input, &linked, &symlinked] {
            let out = d.join(format!("pic.{ext}"));
            let args = [
                "draw",
                tree.to_str().unwrap(),
                "--from",
                "bracket",
                "--run",
                "alphabeta",
                "--steps",
                "all",
                "-o",
                out.to_str().unwrap(),
            ];
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("is the input file"), "{}", stderr(&o));
            assert_eq!(fs::read(&input).unwrap(), before, "{args:?}");
            assert!(!d.join(format!("pic-002.{ext}")).exists(), "{args:?}");
        }
    }
    let part = |k: u32| {
        let path = d.join(format!("p{k}.json"));
        let shard = format!("{k}/2");
        let o = run(&[
            "experiment",
            "knuth-moore",
            "--trials",
            "2",
            "--sizes",
            "2",
            "--shard",
            &shard,
            "-o",
            path.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        path
    };
    let (p1, p2) = (part(1), part(2));
    let before = fs::read(&p1).unwrap();
    let (a, b) = (p1.to_str().unwrap(), p2.to_str().unwrap());
    let o = run(&["experiment", "merge", a, b, "--plot", a]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input file"), "{}", stderr(&o));
    assert_eq!(fs::read(&p1).unwrap(), before);
    let chart = d.join("chart.svg");
    let o = run(&[
        "experiment",
        "merge",
        a,
        b,
        "--plot",
        chart.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Two outputs of one run that name one file: the second would replace the first, so the run is
/// refused before it writes either (new names, other spellings and standard output alike).
#[test]
fn two_outputs_naming_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("t.ron");
    assert_eq!(gen_to(&tree).status.code(), Some(0));
    let t = tree.to_str().unwrap();
    let out = dir.path().join("out.txt");
    let o = out.to_str().unwrap();
    let dotted = format!("{}/./out.txt", dir.path().display());
    let cases: [&[&str]; 3] = [
        &["run", "alphabeta", t, "--trace", o, "--dot", o],
        &["run", "alphabeta", t, "--trace", o, "--stats-csv", &dotted],
        &["run", "alphabeta", t, "--trace", "-", "--dot", "-"],
    ];
    for args in cases {
        let r = run(args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(
            stderr(&r).contains("name one file"),
            "{args:?}: {}",
            stderr(&r)
        );
        assert!(!out.exists(), "{args:?}: nothing is written");
    }
    let dot = dir.path().join("out.dot");
    let r = run(&[
        "run",
        "alphabeta",
        t,
        "--trace",
        o,
        "--dot",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
}

#[test]
fn a_sparse_file_of_zeros_is_refused_as_binary() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = dir.path().join("z.ron");
    fs::File::create(&zeros).unwrap().set_len(1 << 30).unwrap();
    let o = run(&["info", zeros.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("binary file"), "{}", stderr(&o));
}

#[test]
fn an_output_name_without_a_format_is_refused_not_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("t.ron");
    assert_eq!(gen_to(&tree).status.code(), Some(0));
    let t = tree.to_str().unwrap();
    let pic = dir.path().join("pic.xyz");
    let bare = dir.path().join("out");
    let cases: [(&[&str], &Path, &str); 4] = [
        (&["draw", t, "-o", pic.to_str().unwrap()], &pic, "--format"),
        (
            &["draw", t, "-o", bare.to_str().unwrap()],
            &bare,
            "--format",
        ),
        (&["convert", t, bare.to_str().unwrap()], &bare, "--to"),
        (
            &["gen", "uniform", "-o", bare.to_str().unwrap()],
            &bare,
            "--to",
        ),
    ];
    for (args, out, flag) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{args:?}: {}", stderr(&o));
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    // Naming the format writes any name; streams take the default.
    let o = run(&["draw", t, "-o", bare.to_str().unwrap(), "--format", "svg"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["convert", t, "/dev/stdout"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, expected_tree());
}

/// A tree file rewritten in place while it loads (an editor saving over it, a script writing
/// it again): prune reads a mapped file under a read lease, so the writer's `open` is held back
/// until prune has said so and ended with exit code 2 — no byte changes under the text being
/// read (it used to: undefined behaviour, a panic or an abort) — or, when the load was done
/// first, the load stands. Each try writes invalid UTF-8 into the middle of the file.
#[test]
fn a_file_rewritten_in_place_while_it_loads_ends_with_a_message_never_a_crash() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.efg");
    let mut stopped_mid_load = 0;
    for _ in 0..3 {
        // 10^6 leaves, 31 MB of .efg: a load long enough to be caught half-way.
        crate::common::write_million_leaves(&big);
        let mut child = prune()
            .args(["info", big.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Once prune has mapped the file (and so holds its lease), a writer comes.
        let maps = format!("/proc/{}/maps", child.id());
        let start = Instant::now();
        while !fs::read_to_string(&maps).is_ok_and(|m| m.contains("big.efg"))
            && child.try_wait().unwrap().is_none()
            && start.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut file = fs::File::options().write(true).open(&big).unwrap();
        // Held back until prune let the file go: it has ended, or loaded the tree.
        // Near the end, where the readers have not been yet.
        let len = file.metadata().unwrap().len();
        file.seek(SeekFrom::Start(len - (64 << 10))).unwrap();
        file.write_all(&[0xff; 4096]).unwrap();
        drop(file);
        let (status, err) = stderr_at_exit(&mut child, Duration::from_secs(60), "prune info");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            None,
            "{err}"
        );
        match status.code() {
            // The load was done before the writer got the file.
            Some(0) => {}
            Some(2) => {
                assert!(
                    err.contains(
                        "big.efg: another program is changing or shortening the file while prune reads it"
                    ),
                    "{err}"
                );
                stopped_mid_load += 1;
            }
            other => panic!("exit {other:?}: {err}"),
        }
    }
    assert!(stopped_mid_load > 0, "no try caught the load half-way");
}
