//! `prune draw` end to end: the picture in each format, steps, limits and refusals.

use std::process::{Command, Output};

use unicode_width::UnicodeWidthStr;

fn prune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run prune")
}

fn ok(args: &[&str]) -> String {
    let o = prune(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The leaves of trees/default.ron, left to right, and which alpha-beta prunes.
const LEAVES: [(&str, bool); 12] = [
    ("3", false),
    ("5", false),
    ("6", false),
    ("9", true),
    ("1", false),
    ("2", false),
    ("0", true),
    ("-1", true),
    ("7", false),
    ("4", false),
    ("8", false),
    ("6", true),
];

/// The words of a text picture's last line (above the legend): its leaves, each with its
/// status glyph.
fn leaf_row(text: &str) -> Vec<String> {
    text.lines()
        .rfind(|l| !l.starts_with("┃ "))
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn text_fits_the_width_shows_every_leaf_and_marks_the_pruned() {
    let text = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--format",
        "text",
    ]);
    for line in text.lines() {
        assert!(line.width() <= 100, "{line}");
    }
    let row = leaf_row(&text);
    let expected: Vec<String> = LEAVES
        .iter()
        .map(|(v, pruned)| format!("{}{v}", if *pruned { "✂" } else { "●" }))
        .collect();
    assert_eq!(row, expected, "{text}");
    assert!(text.contains("=7"), "the root's value: {text}");
    assert!(text.contains("−∞..+∞"), "the root's window: {text}");
    // The run is drawn at its end: its principal variation is marked, and the legend says so.
    assert_eq!(text.lines().last(), Some("┃ principal variation"), "{text}");
}

#[test]
fn narrow_pictures_elide_with_counts_and_stay_narrow() {
    for w in ["10", "24", "40"] {
        let text = ok(&[
            "draw",
            "trees/default.ron",
            "--run",
            "alphabeta",
            "--width",
            w,
        ]);
        let w: usize = w.parse().unwrap();
        assert!(text.lines().all(|l| l.width() <= w), "{text}");
        assert!(text.contains('…'), "{text}");
    }
    let text = ok(&["draw", "trees/default.ron", "--depth", "1"]);
    assert_eq!(text.matches("…(6 nodes)").count(), 3, "{text}");
}

/// Checks that tags nest and close, attributes are quoted, and entities are XML's.
fn well_formed(xml: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(['<', '&']) {
        let text = &rest[..i];
        if text.contains('>') {
            return Err(format!("a bare > in {text:?}"));
        }
        rest = &rest[i..];
        if rest.starts_with('&') {
            let end = rest.find(';').ok_or("an unterminated entity")?;
            let name = &rest[1..end];
            if !["amp", "lt", "gt", "quot", "apos"].contains(&name) {
                return Err(format!("unknown entity &{name};"));
            }
            rest = &rest[end + 1..];
            continue;
        }
        let end = rest.find('>').ok_or("an unterminated tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if tag.matches('"').count() % 2 != 0 || tag.contains('<') {
            return Err(format!("a malformed tag <{tag}>"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_owned());
        }
    }
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed {stack:?}"))
    }
}

#[test]
fn svg_is_well_formed_with_every_leaf_value() {
    let svg = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--format",
        "svg",
    ]);
    well_formed(&svg).unwrap();
    assert!(svg.starts_with("<?xml"));
    assert!(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    for (v, pruned) in LEAVES {
        let glyph = if pruned { "✂" } else { "●" };
        assert!(svg.contains(&format!(">{glyph}{v}</text>")), "{v}: {svg}");
    }
    // A label that is markup stays text.
    let svg = ok(&["draw", "--expr", "(\"<b>&\"=(1,2),x=3)", "--format", "svg"]);
    well_formed(&svg).unwrap();
    assert!(svg.contains("&lt;b&gt;&amp;"), "{svg}");
    assert!(
        well_formed("<a><b></a></b>").is_err(),
        "the checker can fail"
    );
}

#[test]
fn tikz_is_one_tikzpicture() {
    let tex = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--format",
        "tikz",
    ]);
    assert_eq!(tex.matches("\\begin{tikzpicture}").count(), 1, "{tex}");
    assert_eq!(tex.matches("\\end{tikzpicture}").count(), 1, "{tex}");
    assert_eq!(tex.matches('{').count(), tex.matches('}').count());
    assert!(tex.contains("\\node[pruned"), "{tex}");
    assert!(tex.contains("$\\times$"), "a cut edge: {tex}");
}

#[test]
fn dot_draws_the_step_with_a_depth_limit() {
    let dot = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--format",
        "dot",
        "--depth",
        "1",
        "--step",
        "5",
    ]);
    assert!(dot.starts_with("digraph"));
    assert!(dot.contains("step 5 of 29"), "{dot}");
    assert_eq!(dot.matches("…(6 nodes)").count(), 3, "{dot}");
    // The current node (a leaf) is elided: the card hiding it is marked instead.
    let marked: Vec<&str> = dot.lines().filter(|l| l.contains("darkorange")).collect();
    assert_eq!(marked.len(), 1, "{dot}");
    assert!(
        marked[0].starts_with("  e") && marked[0].contains("…(6 nodes)"),
        "{dot}"
    );
    let dot = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--format",
        "dot",
        "--step",
        "5",
    ]);
    assert_eq!(
        dot.matches("darkorange").count(),
        1,
        "the current node: {dot}"
    );
}

#[test]
fn a_step_draws_a_different_picture_from_the_end() {
    let end = ok(&["draw", "trees/default.ron", "--run", "alphabeta"]);
    let five = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--step",
        "5",
    ]);
    assert_ne!(five, end);
    assert!(five.contains('▸'), "open nodes at step 5: {five}");
    assert!(!end.contains('▸'), "{end}");
    let start = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--step",
        "0",
    ]);
    assert!(
        !start.contains('●'),
        "nothing done before the search: {start}"
    );
}

#[test]
fn a_step_beyond_the_trace_is_refused_with_its_length() {
    let o = prune(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--step",
        "999",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("29 steps"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(o.stdout.is_empty());
    // A step needs a run; a refused tree is said so.
    assert_eq!(
        prune(&["draw", "trees/default.ron", "--step", "3"])
            .status
            .code(),
        Some(2)
    );
    let o = prune(&["draw", "trees/default.ron", "--run", "product"]);
    assert_eq!(o.status.code(), Some(2));
    let o = prune(&["draw", "trees/default.ron", "--run", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    let o = prune(&["draw", "trees/default.ron", "--node", "4"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_node_can_head_the_picture_and_the_picture_goes_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.svg");
    let out = out.to_str().unwrap();
    ok(&[
        "draw",
        "trees/default.ron",
        "--node",
        "b",
        "--format",
        "svg",
        "-o",
        out,
    ]);
    let svg = std::fs::read_to_string(out).unwrap();
    well_formed(&svg).unwrap();
    // Without --format, the extension decides.
    let tex = dir.path().join("b.tex");
    ok(&["draw", "trees/default.ron", "-o", tex.to_str().unwrap()]);
    let tex = std::fs::read_to_string(tex).unwrap();
    assert!(tex.contains("\\begin{tikzpicture}"), "{tex}");
    let by_path = ok(&["draw", "trees/default.ron", "--node", "2"]);
    let by_label = ok(&["draw", "trees/default.ron", "--node", "b"]);
    assert_eq!(by_path, by_label);
    assert!(by_path.lines().next().unwrap().contains("− b"), "{by_path}");
    assert_eq!(
        ok(&["draw", "trees/default.ron", "-o", "-"]),
        ok(&["draw", "trees/default.ron"])
    );
}
