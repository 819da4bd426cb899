//! A new user's first minutes with the binary: telling this prune from Graphviz's, the manual
//! pages, and "did you mean" for a misspelt algorithm, experiment, game or subcommand.

use std::path::Path;
use std::process::Command;

use crate::common::{prune, stderr, stdout};

use clap::CommandFactory;
use prune_cli::cli::Cli;

#[test]
fn the_version_says_which_prune_this_is() {
    let o = prune(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    let line = stdout(&o);
    assert!(
        line.starts_with(&format!("prune {}", env!("CARGO_PKG_VERSION"))),
        "{line}"
    );
    assert!(line.contains("game-tree search explorer"), "{line}");
}

/// Every command and subcommand, nested ones included, with the name of its page
/// (`prune-gen-game-nim`).
fn commands() -> Vec<(String, clap::Command)> {
    fn walk(prefix: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands() {
            let name = format!("{prefix}-{}", sub.get_name());
            walk(&name, sub, out);
            out.push((name, sub.clone()));
        }
    }
    let root = Cli::command();
    let mut out = vec![("prune".to_owned(), root.clone())];
    walk("prune", &root, &mut out);
    out
}

/// A page's text as a reader sees it, near enough to find the help strings in: roff's escapes
/// undone, font changes dropped, whitespace collapsed.
fn unroff(page: &str) -> String {
    let mut text = page
        .replace("\\-", "-")
        .replace("\\fB", "")
        .replace("\\fI", "")
        .replace("\\fR", "")
        .replace("\\*(Aq", "'");
    while let Some(at) = text.find("\\[u") {
        let end = at + text[at..].find(']').expect("a closed escape");
        let code = u32::from_str_radix(&text[at + 3..end], 16).expect("hex");
        let c = char::from_u32(code).expect("a character");
        text.replace_range(at..=end, &c.to_string());
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn collapsed(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_subcommand_has_a_manual_page_with_its_help() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let o = prune(&["man", "--dir", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Where the pages went, and the MANPATH entry that makes `man prune` find them.
    let parent = std::fs::canonicalize(dir.path()).unwrap();
    let said = stderr(&o);
    assert!(said.contains("manual pages in"), "{said}");
    assert!(
        said.contains(&format!(
            "export MANPATH=\"{}:$(manpath)\"",
            parent.display()
        )),
        "{said}"
    );
    let elsewhere = dir.path().join("pages");
    let o = prune(&["man", "--dir", elsewhere.to_str().unwrap()]);
    assert!(stderr(&o).contains("folders named man1"), "{}", stderr(&o));
    let commands = commands();
    assert!(commands.len() > 20, "the subcommands and gen's families");
    let written = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(written, commands.len(), "one page a command, no more");
    for (name, cmd) in &commands {
        let path = out.join(format!("{name}.1"));
        let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}.1: {e}"));
        let first_macro = page
            .lines()
            .find(|l| l.starts_with('.') && !l.starts_with(".ie") && !l.starts_with(".el"))
            .unwrap_or_default();
        assert!(first_macro.starts_with(".TH "), "{name}.1: {first_macro}");
        assert!(page.is_ascii(), "{name}.1 escapes what is not ASCII");
        let text = unroff(&page);
        if let Some(about) = cmd.get_about() {
            assert!(
                text.contains(&collapsed(&about.to_string())),
                "{name}: {about}"
            );
        }
        // Hidden arguments (a game's flags on the commands that cannot take one) are not shown.
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(help) = arg.get_help() {
                let help = collapsed(&help.to_string());
                assert!(text.contains(&help), "{name}: {:?}: {help}", arg.get_id());
            }
        }
        groff_reads(&path);
    }
    let main = unroff(&std::fs::read_to_string(out.join("prune.1")).unwrap());
    assert!(main.contains("Graphviz ships an unrelated prune(1)"));
}

/// groff, where installed, formats the page without a warning.
fn groff_reads(path: &Path) {
    let Ok(o) = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .arg(path)
        .output()
    else {
        eprintln!("groff is not installed: the pages' roff is not checked by it");
        return;
    };
    assert!(o.status.success(), "{}", path.display());
    assert_eq!(stderr(&o), "", "{}", path.display());
}

#[test]
fn man_without_a_folder_prints_the_main_page() {
    let o = prune(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(page.contains(".TH prune 1"), "{page}");
    assert!(
        page.contains("prune\\-run"),
        "it names the subcommands' pages"
    );
}

/// A refusal of an unknown name: exit 2, one message naming the typed word and the guess.
fn refused_with(args: &[&str], typed: &str, guess: &str) -> String {
    let o = prune(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = stderr(&o);
    assert!(err.contains(typed), "{args:?}: {err}");
    assert!(
        err.contains(&format!("`{guess}`")) || err.contains(&format!("'{guess}'")),
        "{args:?}: {err}"
    );
    assert!(stdout(&o).is_empty());
    err
}

#[test]
fn a_misspelt_algorithm_is_suggested() {
    let expr = ["--expr", "((3,12,8),(2,4,6),(14,5,2))"];
    let err = refused_with(
        &["run", "alphabta", expr[0], expr[1]],
        "alphabta",
        "alphabeta",
    );
    assert!(err.contains("did you mean `alphabeta`?"), "{err}");
    assert!(
        err.contains("negascout, negascout-ab"),
        "the list stays: {err}"
    );
    refused_with(
        &["compare", expr[0], expr[1], "--algos", "minimax,negscout"],
        "negscout",
        "negascout",
    );
    let o = prune(&["run", "zzzz", expr[0], expr[1]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        !stderr(&o).contains("did you mean"),
        "no guess for nothing near"
    );
}

/// Without a tree the misspelt algorithm is still what is said (it once was "FILE required",
/// hiding the typo), and the usage shows what stands in for FILE.
#[test]
fn a_misspelt_algorithm_is_said_before_a_missing_tree() {
    let err = refused_with(&["run", "alphabta"], "alphabta", "alphabeta");
    assert!(!err.contains("required"), "{err}");
    let o = prune(&["run", "alphabeta"]);
    assert_eq!(o.status.code(), Some(2));
    let usage = "<ALGO> <FILE|--expr <TREE>|--gen <FAMILY ARGS…>|--game <NAME>>";
    assert!(stderr(&o).contains(usage), "{}", stderr(&o));
    let help = stdout(&prune(&["compare", "--help"]));
    assert!(
        help.contains("<FILE|--expr <TREE>|--gen <FAMILY ARGS…>|--game <NAME>>"),
        "compare: {help}"
    );
    // The commands that read stored trees only do not offer a game (tests/app/game_options.rs).
    for cmd in ["info", "draw", "analyze"] {
        let help = stdout(&prune(&[cmd, "--help"]));
        assert!(
            help.contains("<FILE|--expr <TREE>|--gen <FAMILY ARGS…>>"),
            "{cmd}: {help}"
        );
    }
}

#[test]
fn a_misspelt_experiment_is_suggested() {
    let err = refused_with(
        &["experiment", "ballard-bst"],
        "ballard-bst",
        "ballard-best",
    );
    assert!(err.contains("The experiments are ballard-best"), "{err}");
}

#[test]
fn a_misspelt_game_is_suggested() {
    // clap's own guess misses a swapped pair; ours finds it.
    refused_with(&["gen", "game", "nmi"], "nmi", "nim");
    refused_with(
        &["gen", "game", "conect-four"],
        "conect-four",
        "connect-four",
    );
    refused_with(
        &["run", "minimax", "--gen", "game tic-tac-teo"],
        "tic-tac-teo",
        "tic-tac-toe",
    );
}

#[test]
fn a_misspelt_subcommand_is_suggested() {
    let err = refused_with(&["rn"], "rn", "prune run");
    assert!(err.contains("neither a file nor a subcommand"), "{err}");
    refused_with(&["gen", "unifrom"], "unifrom", "uniform");
    refused_with(&["experimnet"], "experimnet", "prune experiment");
    // A file that exists is a file, whatever its name.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rn"), "((3,12,8),(2,4,6),(14,5,2))").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .arg("rn")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("did you mean"));
}

/// `run --dot out.svg` would write DOT into a file named SVG: refused, as `draw` refuses a name
/// that names no format; and a file that is not a tree (README.md) is said to be one whose
/// extension names no tree format.
#[test]
fn a_dot_named_svg_and_a_readme_are_refused_with_why() {
    let dir = tempfile::tempdir().unwrap();
    let expr = ["--expr", "((3,12,8),(2,4,6),(14,5,2))"];
    for name in ["out.svg", "out"] {
        let out = dir.path().join(name);
        let o = prune(&[
            "run",
            "alphabeta",
            expr[0],
            expr[1],
            "--dot",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(stderr(&o).contains("name it .dot or .gv"), "{}", stderr(&o));
        assert!(!out.exists(), "{name}: nothing written");
    }
    let out = dir.path().join("out.gv");
    let o = prune(&[
        "run",
        "alphabeta",
        expr[0],
        expr[1],
        "--dot",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("digraph")
    );
    let readme = dir.path().join("README.md");
    std::fs::write(&readme, "# prune\n\nA tree explorer.\n").unwrap();
    let o = prune(&["run", "alphabeta", readme.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`.md` is not a tree file's extension"),
        "{}",
        stderr(&o)
    );
}
