//! The real binary in a pseudo-terminal: start the explorer, run and step searches, export a
//! trace, quit — and check that the terminal was given back as it was found.

#![cfg(unix)]

#[path = "app/pty_session.rs"]
mod pty_session;

use std::os::unix::process::ExitStatusExt;
use std::process::Command;
use std::time::{Duration, Instant};

use rustix::process::Signal;
use rustix::termios::{Winsize, tcsetwinsize};

use pty_session::{Session, parser};

#[test]
fn explore_run_step_compare_export_quit() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(&[], dir.path());
    s.wait_for("first steps");
    s.wait_for("No run yet");

    // Run alpha-beta from the picker (minimax is highlighted first), with its form.
    s.send("r");
    s.wait_for("Run an algorithm");
    s.send("j");
    s.send("\r");
    s.wait_for("fail-soft");
    s.send("\r");
    s.wait_for("▶ alphabeta");
    // A run opens at its first step, before the search.
    s.wait_for("before the search: alphabeta starts at the root");

    // Step from the start.
    s.send("\x1b[H");
    s.wait_for("Step 0/29");
    s.send("...");
    let screen = s.wait_for("Step 3/29");
    assert!(screen.contains("enter"), "{screen}");
    s.send("]");
    s.wait_for("cutoff at");

    // A second run beside the first.
    s.send("r");
    s.wait_for("Run an algorithm");
    s.send("jj\r");
    // NegaScout takes parameters now (depth, transposition table, …): Enter keeps the defaults.
    s.wait_for("Run negascout on this");
    s.send("\r");
    s.wait_for("▶ negascout");
    let screen = s.screen();
    assert!(
        screen.contains("alphabeta") && screen.contains("negascout"),
        "{screen}"
    );

    // Export the selected run's trace, stats and picture with the default names.
    s.send("e");
    s.wait_for("Export the selected run");
    s.send("\r");
    s.wait_for("wrote");
    let trace = std::fs::read_to_string(dir.path().join("first-steps-negascout.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(trace.lines().next().unwrap()).unwrap();
    assert_eq!(header["algorithm"], "negascout");
    assert_eq!(header["events"], trace.lines().count() as u64 - 1);
    assert!(dir.path().join("first-steps-negascout.csv").exists());
    assert!(dir.path().join("first-steps-negascout.dot").exists());
    let step_pictures: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("first-steps-negascout-step") && n.ends_with(".svg"))
        .collect();
    assert_eq!(step_pictures.len(), 1, "the picture of this step");

    // A pan key as a real terminal sends it (xterm's Ctrl-→), then the diagram and its zoom.
    s.send("\x1b[1;5C");
    s.wait_for("zoom and pan move the diagram view: D shows it");
    s.send("DZ");
    s.wait_for("Z zoom: 4× wide");

    s.send("q");
    let status = s.wait_exit();
    assert!(status.success(), "{status:?}");
    s.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let tree = concat!(env!("CARGO_MANIFEST_DIR"), "/trees/ballard-figure-6.ron");
    let mut s = Session::start(&["tui", tree, "--run", "star1,star2"], dir.path());
    s.wait_for("▶ star2");
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&s.child),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    s.wait_exit();
    s.assert_restored();
}

#[test]
fn a_panic_restores_the_terminal_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start_with(&[], dir.path(), &[("PRUNE_TEST_PANIC", "1")]);
    let status = s.wait_exit();
    assert!(!status.success());
    s.assert_restored();
    let out = String::from_utf8_lossy(&s.output.lock().unwrap()).into_owned();
    let left = out.find("\x1b[?1049l").unwrap();
    assert!(
        out[left..].contains("PRUNE_TEST_PANIC"),
        "the panic message comes after the restore"
    );
}

/// What was printed after the terminal last left the alternate screen: where a message
/// written as the process ends is seen.
fn after_the_screen(out: &str) -> &str {
    &out[out
        .rfind("\x1b[?1049l")
        .expect("the alternate screen was left")..]
}

#[test]
fn memory_running_out_restores_the_terminal_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    // A real failed allocation (of 2^60 bytes) after the first frame: prune's allocator ends
    // the process with exit code 2, and gives the terminal back before its message.
    let mut s = Session::start_with(&[], dir.path(), &[("PRUNE_TEST_OUT_OF_MEMORY", "1")]);
    assert_eq!(s.wait_exit().code(), Some(2));
    s.assert_restored();
    let out = s.wait_printed(|out| out.contains("bytes could not be had"));
    assert!(
        after_the_screen(&out)
            .contains("error: out of memory: a block of 1152921504606846976 bytes"),
        "the message comes after the restore:\n{out:?}"
    );
}

#[test]
fn a_mapped_file_shortened_under_the_explorer_restores_the_terminal_and_reports() {
    // The explorer maps a tree file it opens; a page of it gone (the file shortened by another
    // program) raises SIGBUS at the next read. Sent here as a signal, at a moment the test
    // chooses; `a_file_shortened_while_it_loads_restores_the_terminal` shortens a real file.
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("t.ron");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/trees/default.ron"),
        &tree,
    )
    .unwrap();
    let mut s = Session::start(&["tui", "t.ron", "--run", "alphabeta"], dir.path());
    s.wait_for("▶ alphabeta");
    s.signal(Signal::BUS);
    assert_eq!(s.wait_exit().code(), Some(2));
    s.assert_restored();
    let out = s.wait_printed(|out| out.contains("load it again"));
    assert!(
        after_the_screen(&out).contains(
            "t.ron: another program is changing or shortening the file while prune reads it"
        ),
        "the message comes after the restore:\n{out:?}"
    );
}

#[test]
fn an_abort_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(&[], dir.path());
    s.wait_for("first steps");
    s.signal(Signal::ABORT);
    assert_eq!(
        s.wait_exit().signal(),
        Some(6),
        "the abort goes on after the restore"
    );
    s.assert_restored();
}

#[test]
fn a_tiny_terminal_gets_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(&[], dir.path());
    s.wait_for("first steps");
    tcsetwinsize(
        &s.slave,
        Winsize {
            ws_row: 10,
            ws_col: 40,
            ws_xpixel: 0,
            ws_ypixel: 0,
        },
    )
    .unwrap();
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&s.child),
        rustix::process::Signal::WINCH,
    )
    .unwrap();
    let start = Instant::now();
    loop {
        let mut parser = parser(10, 40);
        parser.process(&s.output.lock().unwrap());
        if parser.screen().contents().contains("Enlarge the window") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no message for a tiny terminal"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    s.send("q");
    s.wait_exit();
    s.assert_restored();
}

#[test]
fn losing_the_terminal_ends_the_explorer() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(&[], dir.path());
    s.wait_for("first steps");
    s.hang_up();
    let status = s.exits_within(Duration::from_secs(2));
    assert_eq!(status.code(), Some(129), "{status:?}");
}

#[test]
fn sigterm_and_sigint_end_it_with_the_conventional_status() {
    let dir = tempfile::tempdir().unwrap();
    for (sig, code) in [(Signal::TERM, 143), (Signal::INT, 130), (Signal::HUP, 129)] {
        let mut s = Session::start(&[], dir.path());
        s.wait_for("first steps");
        s.signal(sig);
        let status = s.exits_within(Duration::from_secs(2));
        assert_eq!(status.code(), Some(code), "{sig:?}: {status:?}");
        assert!(status.signal().is_none());
        s.assert_restored();
    }
}

#[test]
fn esc_cancels_a_load_and_never_quits() {
    let dir = tempfile::tempdir().unwrap();
    // A tree big enough that loading it takes a while: 8^7 leaves.
    let big = dir.path().join("big.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "uniform", "-b", "8", "-d", "7", "-o"])
        .arg(&big)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut s = Session::start(&[], dir.path());
    s.wait_for("first steps");
    s.send("o");
    s.wait_for("Open a tree");
    s.send("big.ron\r");
    s.send("\x1b");
    s.wait_for("cancelled: loading big.ron");
    // Esc again, with nothing to cancel, does not quit either.
    s.send("\x1b");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        s.child.try_wait().unwrap().is_none(),
        "Esc quit the explorer"
    );
    assert!(s.screen().contains("first steps"));
    s.send("q");
    assert!(s.wait_exit().success());
    s.assert_restored();
}

#[test]
fn a_big_file_opens_the_screen_at_once_and_a_bad_one_ends_with_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "uniform", "-b", "8", "-d", "7", "-o"])
        .arg(&big)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut s = Session::start(&["big.ron"], dir.path());
    // The first frame says what is loading, before the tree is there.
    let first = s.wait_for("loading big.ron");
    assert!(first.contains("loading big.ron"), "{first}");
    s.wait_for("uniform");
    s.send("q");
    assert!(s.wait_exit().success());
    s.assert_restored();

    std::fs::write(
        dir.path().join("bad.ron"),
        "(version: 1, root: Max([1,, 2]))",
    )
    .unwrap();
    let mut s = Session::start(&["bad.ron"], dir.path());
    let status = s.exits_within(Duration::from_secs(20));
    assert_eq!(status.code(), Some(2), "{status:?}");
    s.assert_restored();
    let out = String::from_utf8_lossy(&s.output.lock().unwrap()).into_owned();
    let left = out.rfind("\x1b[?1049l").unwrap();
    assert!(
        out[left..].contains("bad.ron:1:"),
        "the report follows the restore: {out}"
    );
}

#[test]
fn opening_dev_zero_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(&[], dir.path());
    s.wait_for("first steps");
    s.send("o");
    s.wait_for("Open a tree");
    s.send("/dev/zero\r");
    let screen = s.wait_for("character device");
    assert!(screen.contains("cannot open"), "{screen}");
    s.send("q");
    s.send("q");
    assert!(s.wait_exit().success());
}

#[test]
fn bad_config_files_are_shown_together_in_a_message_box() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("prune");
    std::fs::create_dir_all(config.join("themes")).unwrap();
    std::fs::write(config.join("keymap.ron"), "{ \"w\": Fly }").unwrap();
    std::fs::write(config.join("themes/bad.ron"), "(name: \"x\", bad").unwrap();
    let mut s = Session::start(&[], dir.path());
    let screen = s.wait_for("configuration");
    assert!(
        screen.contains("keymap.ron") && screen.contains("bad.ron"),
        "{screen}"
    );
    s.send("q");
    s.send("q");
    assert!(s.wait_exit().success());

    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["tui", "--check-config"])
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("keymap.ron: 1:") && err.contains("bad.ron: 1:"),
        "{err}"
    );
}

/// `prune tui FILE --practice alphabeta` opens on the first question; the whole exercise is
/// answered, every third answer wrong, the score on screen follows each answer, and the report
/// saved at the end has the same score. The answers come from the library, from the same trace.
#[test]
fn practice_a_whole_exercise() {
    use prune::trace::practice::{Answer, Session as Practice};
    let dir = tempfile::tempdir().unwrap();
    let tree_path = concat!(env!("CARGO_MANIFEST_DIR"), "/trees/default.ron");
    let tree = prune::format::load(std::path::Path::new(tree_path), None).unwrap();
    let algo = prune::search::Algorithm::AlphaBeta { fail_soft: false };
    let (run, trace) = prune::trace::record(&tree, &algo, &Default::default()).unwrap();
    let replay = prune::trace::Replay::new(&tree, &trace);
    let questions = Practice::new(&tree, &run, &trace, &replay).questions;
    let n = questions.len();
    assert!(n > 10);

    let mut s = Session::start(&["tui", tree_path, "--practice", "alphabeta"], dir.path());
    s.wait_for(&format!("question 1/{n} · 0/0 correct"));
    s.wait_for("never evaluate?");
    let mut right = 0;
    for (i, q) in questions.iter().enumerate() {
        let answer = if i % 3 == 1 {
            match &q.answer {
                Answer::Searched(true) => "p".to_owned(),
                Answer::Searched(false) => "s".to_owned(),
                Answer::Window(..) => "12345 0".to_owned(),
                Answer::Leaves { never, leaves } if never.is_empty() => leaves[0].clone(),
                Answer::Leaves { .. } => "none".to_owned(),
                _ => "12345".to_owned(),
            }
        } else if i % 3 == 2 && q.choices.len() > 1 {
            // Picked with Tab instead of typed: the right choice is Tab pressed k + 1 times.
            let k = q
                .choices
                .iter()
                .position(|c| q.answer.check(c).unwrap())
                .unwrap();
            right += 1;
            s.send(&"\t".repeat(k + 1));
            s.wait_for(&format!("> {}", q.choices[k]));
            String::new()
        } else {
            right += 1;
            q.answer.text()
        };
        s.send(&answer);
        s.send("\r");
        let screen = s.wait_for(&format!("· {right}/{} correct", i + 1));
        if i % 3 == 1 {
            assert!(
                screen.contains(&format!("the answer is {}", q.answer.text())),
                "{screen}"
            );
        }
    }
    s.wait_for(&format!("Done: {right}/{n} correct"));
    // Enter at the end offers the report; Enter again saves it.
    s.send("\r");
    s.wait_for("Save the practice report");
    s.send("\r");
    s.wait_for("wrote practice-alphabeta.json");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("practice-alphabeta.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["score"], format!("{right}/{n} correct"));
    assert_eq!(report["answered"], n);
    s.send("\x1b");
    s.wait_for(&format!("practice over: {right}/{n} correct"));
    s.send("q");
    assert!(s.wait_exit().success());
    s.assert_restored();
}

/// A teacher hands out a seed: `prune tui --gen '…' --practice alphabeta` opens practice on
/// the generated tree in one command, on the same questions as the tree `prune gen` writes.
#[test]
fn practice_on_a_seed_in_one_command() {
    use prune::trace::practice::Session as Practice;
    let dir = tempfile::tempdir().unwrap();
    let args = "uniform -b 3 -d 3 --order random --seed 42";
    let (tree, _) = prune_cli::cli::generate::from_line(args).unwrap();
    let algo = prune::search::Algorithm::AlphaBeta { fail_soft: true };
    let (run, trace) = prune::trace::record(&tree, &algo, &Default::default()).unwrap();
    let replay = prune::trace::Replay::new(&tree, &trace);
    let first = Practice::new(&tree, &run, &trace, &replay);
    let n = first.questions.len();
    let mut s = Session::start(
        &["tui", "--gen", args, "--practice", "alphabeta:fail-soft"],
        dir.path(),
    );
    s.wait_for(&format!("question 1/{n} · 0/0 correct"));
    s.send(&first.questions[0].answer.text());
    s.send("\r");
    s.wait_for(&format!("question 2/{n} · 1/1 correct"));
    s.send("\x1b");
    s.wait_for("practice over: 1/1 correct");
    s.send("q");
    assert!(s.wait_exit().success());
    s.assert_restored();
}

#[test]
fn a_big_file_shows_its_loading_progress_and_q_quits_during_the_load() {
    let dir = tempfile::tempdir().unwrap();
    // 10^6 leaves, 1.1 M nodes, 31 MB of .efg: long enough to load that the screen shows it.
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "uniform", "-b", "10", "-d", "6", "-o", "big.efg"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut s = Session::start(&["big.efg"], dir.path());
    // "23.4 MB of 31.4 MB (74 %)", or "0 B of 31.4 MB (0 %)" when the screen catches the
    // moment the file is read and the parse has not yet reported (a fast load).
    let loading = s.wait_for("Loading big.efg — ");
    assert!(
        loading.contains(" of 31.") && loading.contains(" MB (") && loading.contains(" %)"),
        "{loading}"
    );
    assert!(loading.contains("q: quit"), "{loading}");
    s.wait_for("uniform b=10 d=6");
    s.send("q");
    assert!(s.wait_exit().success());
    s.assert_restored();

    // Quitting while the file loads ends the explorer at once and gives the terminal back.
    let mut s = Session::start(&["big.efg"], dir.path());
    s.wait_for("Loading big.efg — ");
    s.send("q");
    assert!(s.wait_exit().success());
    s.assert_restored();

    // The file shortened by another program while it loads: the mapped pages past the new end
    // are gone and the next read of one raises SIGBUS. The terminal is given back and the
    // message follows it; a load that had passed the cut already shows the tree, and quits.
    let mut s = Session::start(&["big.efg"], dir.path());
    s.wait_for("Loading big.efg — ");
    std::fs::File::options()
        .write(true)
        .open(dir.path().join("big.efg"))
        .unwrap()
        .set_len(1 << 12)
        .unwrap();
    let out = s.wait_printed(|out| out.contains("load it again") || out.contains("d=6"));
    if !out.contains("load it again") {
        s.send("q");
    }
    let status = s.wait_exit();
    s.assert_restored();
    if status.code() == Some(2) {
        let out = s.wait_printed(|out| out.contains("load it again"));
        assert!(
            after_the_screen(&out).contains(
                "big.efg: another program is changing or shortening the file while prune reads it"
            ),
            "the message comes after the restore:\n{out:?}"
        );
    } else {
        assert!(status.success(), "{status:?}");
    }
}

impl Session {
    /// Everything the program wrote to the terminal, as text.
    fn printed(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// Waits until what was printed passes `done` (the terminal's last bytes may still be on
    /// their way when the program has ended); a slow machine gets 20 s.
    fn wait_printed(&self, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let printed = self.printed();
            if done(&printed) || start.elapsed() > Duration::from_secs(20) {
                return printed;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn gen_refuses_to_flood_a_terminal_without_o() {
    let dir = tempfile::tempdir().unwrap();
    // 942 lines of RON: more than gen prints to a terminal unasked.
    let big = ["gen", "ordered", "-b", "5", "-d", "5", "-g", "1", "-r", "2"];
    let mut s = Session::start(&big, dir.path());
    assert_eq!(s.wait_exit().code(), Some(2));
    let printed = s.wait_printed(|p| p.contains("-o -"));
    assert!(printed.contains("too long for the terminal"), "{printed}");
    assert!(printed.contains("-o FILE"), "{printed}");
    assert!(printed.contains("-o -"), "{printed}");
    assert!(!printed.contains("Max(["), "nothing of the tree: {printed}");

    // `-o -` prints it anyway, every line.
    let mut s = Session::start(&[&big[..], &["-o", "-"]].concat(), dir.path());
    assert_eq!(s.wait_exit().code(), Some(0));
    let printed = s.wait_printed(|p| p.matches('\n').count() >= 942);
    assert!(
        printed.matches('\n').count() >= 942,
        "{} lines",
        printed.lines().count()
    );

    // A small tree is printed as it always was.
    let mut s = Session::start(&["gen", "uniform", "-b", "2", "-d", "3"], dir.path());
    assert_eq!(s.wait_exit().code(), Some(0));
    let printed = s.wait_printed(|p| p.contains("Max(["));
    assert!(printed.contains("Max(["), "{printed}");

    // Through a pipe, the big tree comes out whole, as before.
    let piped = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(big)
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), 942);
}

/// `prune tui` without a tree opens the built-in one, as `prune` alone does (it once refused,
/// "FILE required"), with the runs asked for.
#[test]
fn tui_without_a_file_opens_the_built_in_tree() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["tui"][..], &["tui", "--run", "alphabeta"]] {
        let mut s = Session::start(args, dir.path());
        let screen = s.wait_for("built-in example");
        assert!(!screen.contains("required"), "{args:?}: {screen}");
        if args.len() > 1 {
            s.wait_for("alphabeta");
        }
        s.send("q");
        s.wait_exit();
        s.assert_restored();
    }
}

/// A recorded search of a game (`--trace`: the lazy tree) shows its progress on a terminal as a
/// walked one does: one line with the algorithm, the depth, the nodes and the rate, rewritten in
/// place and erased before the summary. (`PRUNE_TEST_PROGRESS_AT_ONCE`: the line from the first
/// 2^16 nodes, not after a second, whatever the machine's speed.)
#[test]
fn game_searches_show_their_progress_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start_with(
        &[
            "run",
            "alphabeta",
            "--game",
            "connect-four",
            "--depth",
            "8",
            "--trace",
            "t.jsonl",
        ],
        dir.path(),
        &[("PRUNE_TEST_PROGRESS_AT_ONCE", "1")],
    );
    assert_eq!(s.wait_exit().code(), Some(0));
    let printed = s.wait_printed(|p| p.contains("search: "));
    let line = "\r\x1b[Kalphabeta --depth 8: depth 8, ";
    let Some(shown) = printed.find(line) else {
        panic!("{printed:?}");
    };
    assert!(printed[shown..].contains(" nodes, ") && printed[shown..].contains("M nodes/s"));
    // Erased before the summary, which comes after the last line.
    let summary = printed
        .find("\r\x1b[Kalphabeta --depth 8 on connect-four from its rules")
        .expect("the line erased before the summary");
    assert!(summary > shown, "{printed:?}");
    assert!(dir.path().join("t.jsonl").exists());

    // A walked search with iterative deepening names the best move of the last depth finished.
    let mut s = Session::start_with(
        &[
            "run",
            "alphabeta:tt:id",
            "--game",
            "connect-four",
            "--depth",
            "10",
        ],
        dir.path(),
        &[("PRUNE_TEST_PROGRESS_AT_ONCE", "1")],
    );
    assert_eq!(s.wait_exit().code(), Some(0));
    let printed = s.wait_printed(|p| p.contains("search: "));
    assert!(printed.contains(", best so far drop col "), "{printed:?}");
}
