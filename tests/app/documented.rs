//! The documented commands as a test (issue 40): every fenced command block of README.md and
//! docs/*.md (```` ```sh ````, `bash`, `shell`, `console`) runs with this build's binary, and
//! where a document shows what a command prints (a ```` ```console ```` block: `$ command`
//! lines, each followed by its output) the output must be what the document shows. The
//! explorer's screenshots are compared with the snapshots they come from. docs/DESIGN.md
//! ("The documented commands") states the convention for writers of documents.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::pty_session::Session;

/// Command blocks that are not prune's commands, skipped whole: (document, the block's first
/// line, why). A listed block that no longer exists fails the test.
const SKIP_BLOCKS: &[(&str, &str, &str)] = &[
    (
        "docs/EXPERIMENTS.md",
        "#!/bin/bash",
        "a Slurm job script (sbatch), 10^6 trials a shard",
    ),
    (
        "docs/EXPERIMENTS.md",
        "jobid=$(sbatch --parsable shards.sh)",
        "Slurm's sbatch",
    ),
    (
        "docs/EXPERIMENTS.md",
        "parallel prune experiment pathology --trials 100000",
        "GNU parallel and other machines, 10^5 boards",
    ),
];

/// Lines of command blocks that are not prune's commands, skipped: (document, how the line
/// starts, why). Every other line runs. A listed line that no longer exists fails the test.
const SKIP_LINES: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "cargo test",
        "the test suite this test is part of",
    ),
    (
        "README.md",
        "cargo install --path .",
        "installs into ~/.cargo/bin",
    ),
    (
        "README.md",
        "cargo run --example kalah",
        "the library's example, built by cargo (crates/prune/tests/library/example_game.rs searches its game)",
    ),
    ("docs/TRACE.md", "dot -Tsvg", "Graphviz's dot, not prune"),
];

/// The elision marker: in a shown output line, `…` stands for any text (timings, temporary
/// paths, the version), as readers are told. A line equal to the output's needs none.
const ELIDED: &str = "…";

#[derive(Debug)]
struct Block {
    /// The line of the opening fence, from 1.
    line: usize,
    info: String,
    body: Vec<String>,
    /// `<!-- snapshot: NAME -->` on the line before the fence: the screenshot's snapshot.
    snapshot: Option<String>,
}

/// The fenced blocks of a Markdown text.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].strip_prefix("```") else {
            i += 1;
            continue;
        };
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or(lines.len());
        let snapshot = i
            .checked_sub(1)
            .and_then(|p| lines[p].strip_prefix("<!-- snapshot: "))
            .and_then(|s| s.strip_suffix(" -->"))
            .map(str::to_owned);
        out.push(Block {
            line: i + 1,
            info: info.trim().to_owned(),
            body: lines[i + 1..end].iter().map(|l| l.to_string()).collect(),
            snapshot,
        });
        i = end + 1;
    }
    out
}

/// One command of a block, as the shell gets it, with what the document expects of it.
#[derive(Debug)]
struct Step {
    /// Its line in the document, from 1.
    line: usize,
    /// As written, `\` continuations joined.
    written: String,
    /// What runs: `cargo run --release --` and `cargo run --release` become `prune`.
    shell: String,
    /// `# exit N` in the line's comment, else 0.
    exit: i32,
    /// The output shown after it (console blocks), its first line's number.
    output: Option<(usize, Vec<String>)>,
}

/// The commands of a command block: `sh`-like blocks line by line (comments and blank lines
/// dropped), `console` blocks their `$` lines with the lines after each as its output.
fn steps(block: &Block) -> Result<Vec<Step>, String> {
    let console = block.info == "console";
    let mut out: Vec<Step> = Vec::new();
    let mut i = 0;
    while i < block.body.len() {
        let line = block.line + 1 + i;
        let raw = &block.body[i];
        i += 1;
        let first = if console {
            match raw.strip_prefix("$ ") {
                Some(c) => c.to_owned(),
                None => {
                    match out.last_mut().and_then(|s| s.output.as_mut()) {
                        Some((_, lines)) => lines.push(raw.clone()),
                        None => return Err(format!("line {line}: output before any `$ ` command")),
                    }
                    continue;
                }
            }
        } else {
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            t.to_owned()
        };
        let mut written = first;
        while written.ends_with('\\') && i < block.body.len() {
            written.pop();
            written = format!("{} {}", written.trim_end(), block.body[i].trim());
            i += 1;
        }
        out.push(Step {
            line,
            exit: expected_exit(&written),
            shell: as_prune(&written).unwrap_or_else(|| written.clone()),
            output: console.then(|| (block.line + 1 + i, Vec::new())),
            written,
        });
    }
    Ok(out)
}

/// `cargo run --release -- ARGS` and `cargo run --release` as the binary under test; `None`
/// for a line that is not `cargo run --release`.
fn as_prune(line: &str) -> Option<String> {
    let rest = line.strip_prefix("cargo run --release")?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let rest = match rest.strip_prefix(" --") {
        Some(r) if r.is_empty() || r.starts_with(' ') => r,
        _ => rest,
    };
    Some(format!("prune{rest}"))
}

/// The exit code a command's comment promises (`# exit 1: …`), 0 without one.
fn expected_exit(line: &str) -> i32 {
    line.find("# exit ")
        .and_then(|i| {
            let n: String = line[i + 7..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            n.parse().ok()
        })
        .unwrap_or(0)
}

/// Whether a prune command opens the explorer: `prune` alone, `prune tui …` (but not its
/// `--check-config`), or `prune FILE`.
fn opens_the_explorer(shell: &str) -> bool {
    let words: Vec<&str> = shell
        .split('#')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    match words.as_slice() {
        ["prune"] => true,
        ["prune", "tui", rest @ ..] => !rest.contains(&"--check-config"),
        ["prune", file, ..] => !file.starts_with('-') && (file.contains('.') || file.contains('/')),
        _ => false,
    }
}

/// Whether `got` is the `shown` line: equal, or equal with each `…` standing for any text.
fn line_matches(shown: &str, got: &str) -> bool {
    if shown == got {
        return true;
    }
    let parts: Vec<&str> = shown.split(ELIDED).collect();
    if parts.len() == 1 {
        return false;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    let Some(mut rest) = got.strip_prefix(first) else {
        return false;
    };
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(k) => rest = &rest[k + middle.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Why `got` is not the output `shown` (from the document's line `at`), or `None` when it is.
fn output_drift(at: usize, shown: &[String], got: &str) -> Option<String> {
    let got: Vec<&str> = got.trim_end_matches('\n').lines().collect();
    let shown: Vec<&str> = {
        let mut s: Vec<&str> = shown.iter().map(String::as_str).collect();
        while s.last() == Some(&"") {
            s.pop();
        }
        s
    };
    for k in 0..shown.len().max(got.len()) {
        let (s, g) = (shown.get(k), got.get(k));
        if !matches!((s, g), (Some(s), Some(g)) if line_matches(s, g)) {
            let show =
                |l: Option<&&str>| l.map_or("(no more lines)".to_owned(), |l| format!("{l:?}"));
            let (s, g) = (show(s), show(g));
            return Some(format!(
                "output drifts at line {}:\n  the doc shows {s}\n  prune prints  {g}\nthe whole output:\n{}",
                at + k,
                got.join("\n")
            ));
        }
    }
    None
}

/// A fresh directory for one document's commands: `trees/` and `examples/` copied in, a
/// `prune` on the PATH that is this build's binary, and a home of its own (so `~/…` outputs
/// such as the manual pages land inside it).
struct Sandbox {
    dir: tempfile::TempDir,
    path: String,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for sub in ["trees", "examples"] {
            copy_dir(&root.join(sub), &dir.path().join(sub));
        }
        let bin = dir.path().join(".bin");
        std::fs::create_dir(&bin).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_prune"), bin.join("prune")).unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Sandbox { dir, path }
    }

    /// `bash -c` on `script` in the sandbox, its environment the sandbox's.
    fn bash(&self, script: &str) -> Command {
        let home = self.dir.path();
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(script)
            .current_dir(home)
            .env("PATH", &self.path)
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("NO_COLOR", "1")
            .env_remove("MANPATH");
        cmd
    }

    /// Runs a command that prints and ends: its exit code and what it printed (standard
    /// output and error together, as a terminal shows them).
    fn run(&self, shell: &str) -> (Option<i32>, String) {
        let o = self
            .bash(&format!("exec 2>&1\n{shell}"))
            .stdin(Stdio::null())
            .output()
            .expect("run bash");
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    }

    /// Runs a command that opens the explorer in a pseudo-terminal: it must draw its screen
    /// (the key hints' `q quit`) and end with exit code 0 when `q` is pressed.
    fn explore(&self, shell: &str) -> Result<(), String> {
        let mut cmd = self.bash(&format!("exec {shell}"));
        cmd.env("TERM", "xterm-256color");
        let mut s = Session::spawn(cmd);
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.wait_for("q quit")));
        if drawn.is_err() {
            let _ = s.child.kill();
            s.hang_up();
            return Err(format!(
                "the explorer never drew its screen:\n{}",
                s.screen()
            ));
        }
        s.send("q");
        let status = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.wait_exit()));
        let result = match status {
            Ok(st) if st.success() => Ok(()),
            Ok(st) => Err(format!("`q` ended the explorer with {st}:\n{}", s.screen())),
            Err(_) => {
                let _ = s.child.kill();
                Err(format!("`q` did not end the explorer:\n{}", s.screen()))
            }
        };
        // Lets the session's reader thread go.
        s.hang_up();
        result
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A snapshot's screen (after its header) as the real command draws it: the tests open the
/// built-in tree under the source name `(test)`, the command under `(built-in example)`.
fn snapshot_screen(name: &str) -> Result<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/app/snapshots")
        .join(format!("{name}.snap"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let body = text
        .splitn(3, "---\n")
        .nth(2)
        .ok_or_else(|| format!("{}: no snapshot header", path.display()))?;
    Ok(body.replacen(" (test) ", " (built-in example) ", 1))
}

const COMMAND_BLOCKS: &[&str] = &["sh", "bash", "shell", "console"];

/// Runs one document's blocks in order in a sandbox of its own; every failure, with its line.
fn check_document(doc: &str, used: &std::sync::Mutex<Vec<(String, String)>>) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(doc)).expect("read the document");
    let sandbox = Sandbox::new();
    let mut failures = Vec::new();
    let mut fail = |line: usize, what: String| failures.push(format!("{doc}:{line}: {what}"));
    for block in blocks(&text) {
        if let Some(name) = &block.snapshot {
            match snapshot_screen(name) {
                Ok(snap) => {
                    if let Some(d) = output_drift(block.line + 1, &block.body, &snap) {
                        fail(
                            block.line,
                            format!("the screenshot is not snapshot {name}: {d}"),
                        );
                    }
                }
                Err(e) => fail(block.line, e),
            }
            continue;
        }
        if !COMMAND_BLOCKS.contains(&block.info.as_str()) {
            if block.body.first().is_some_and(|l| l.starts_with("$ ")) {
                fail(
                    block.line,
                    "a block of `$ ` commands must be ```console".into(),
                );
            }
            continue;
        }
        let first = block.body.first().map(String::as_str).unwrap_or("");
        if let Some(skip) = SKIP_BLOCKS
            .iter()
            .find(|(d, start, _)| *d == doc && first.starts_with(start))
        {
            used.lock().unwrap().push((doc.into(), skip.1.into()));
            continue;
        }
        let steps = match steps(&block) {
            Ok(s) => s,
            Err(e) => {
                fail(block.line, e);
                continue;
            }
        };
        for step in steps {
            if let Some(skip) = SKIP_LINES
                .iter()
                .find(|(d, start, _)| *d == doc && step.written.starts_with(start))
            {
                used.lock().unwrap().push((doc.into(), skip.1.into()));
                continue;
            }
            let started = Instant::now();
            if opens_the_explorer(&step.shell) {
                if let Err(e) = sandbox.explore(&step.shell) {
                    fail(step.line, format!("`{}`: {e}", step.written));
                }
            } else {
                let (code, out) = sandbox.run(&step.shell);
                if code != Some(step.exit) {
                    fail(
                        step.line,
                        format!(
                            "`{}` exited with {code:?}, the doc expects {}:\n{out}",
                            step.written, step.exit
                        ),
                    );
                } else if let Some((at, shown)) = &step.output {
                    if let Some(d) = output_drift(*at, shown, &out) {
                        fail(step.line, format!("`{}`: {d}", step.written));
                    }
                }
            }
            if std::env::var_os("PRUNE_DOC_TIMES").is_some() {
                eprintln!(
                    "{:7.2}s {doc}:{} {}",
                    started.elapsed().as_secs_f64(),
                    step.line,
                    step.written
                );
            }
        }
    }
    failures
}

/// README.md and every docs/*.md, or those `PRUNE_DOCS` names (`PRUNE_DOCS=docs/TRACE.md,README.md`)
/// when a writer checks one document.
fn documents() -> Vec<String> {
    if let Ok(only) = std::env::var("PRUNE_DOCS") {
        return only.split(',').map(str::to_owned).collect();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    std::iter::once("README.md".to_owned())
        .chain(
            docs.iter()
                .map(|p| format!("docs/{}", p.file_name().unwrap().to_string_lossy())),
        )
        .collect()
}

/// Every documented command runs, exits as the document says, prints what it shows; each
/// document in a thread of its own (`PRUNE_DOC_TIMES=1` prints each command's time,
/// `PRUNE_DOCS` chooses the documents).
#[test]
fn the_documented_commands_run_and_print_what_the_docs_show() {
    let used = std::sync::Mutex::new(Vec::new());
    let docs = documents();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = docs
            .iter()
            .map(|doc| (doc, s.spawn(|| check_document(doc, &used))))
            .collect();
        handles
            .into_iter()
            .flat_map(|(doc, h)| {
                h.join()
                    .unwrap_or_else(|_| vec![format!("{doc}: the check panicked")])
            })
            .collect()
    });
    let used = used.into_inner().unwrap();
    let mut stale: Vec<String> = SKIP_BLOCKS
        .iter()
        .chain(SKIP_LINES)
        .filter(|(d, start, _)| {
            docs.iter().any(|doc| doc == d) && !used.iter().any(|(ud, us)| ud == d && us == start)
        })
        .map(|(d, start, why)| {
            format!("{d}: the skip list names `{start}` ({why}), which is no longer there")
        })
        .collect();
    stale.extend(failures);
    assert!(stale.is_empty(), "{}", stale.join("\n\n"));
}

#[test]
fn blocks_and_their_commands_are_read_as_a_reader_reads_them() {
    let text = "x\n<!-- snapshot: s -->\n```console\n$ prune a \\\n  b   # exit 2\nout …\n\n$ cargo run --release -- c\n```\n```sh\n# c\ncargo run --release   # tui\n```\n";
    let b = blocks(text);
    assert_eq!(b.len(), 2);
    assert_eq!(
        (b[0].line, b[0].info.as_str(), b[0].snapshot.as_deref()),
        (3, "console", Some("s"))
    );
    let s = steps(&b[0]).unwrap();
    assert_eq!(s[0].shell, "prune a b   # exit 2");
    assert_eq!((s[0].exit, s[0].line), (2, 4));
    assert_eq!(
        s[0].output,
        Some((6, vec!["out …".to_owned(), String::new()]))
    );
    assert_eq!(s[1].shell, "prune c");
    let t = steps(&b[1]).unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].shell, "prune   # tui");
    assert!(opens_the_explorer(&t[0].shell));
    assert!(opens_the_explorer("prune tui --game chess --depth 2"));
    assert!(opens_the_explorer("prune trees/default.ron"));
    assert!(!opens_the_explorer("prune tui --check-config"));
    assert!(!opens_the_explorer("prune run alphabeta trees/default.ron"));
    assert!(!opens_the_explorer("prune --version"));
    assert!(line_matches("took … s, … nodes", "took 1.2 s, 900 nodes"));
    assert!(!line_matches("took … s, 9 nodes", "took 1.2 s, 900 nodes"));
    assert!(!line_matches("value 7", "value 8"));
    assert!(output_drift(1, &["a".into(), "b".into()], "a\nb\n").is_none());
    assert!(output_drift(1, &["a".into()], "a\nb\n").is_some());
}
