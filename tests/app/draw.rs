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
    for w in ["24", "40"] {
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
    // Too narrow for the principal variation (root, c, c1, the leaf 7): it is drawn anyway,
    // as narrow as it goes, everything else elided.
    let text = ok(&[
        "draw",
        "trees/default.ron",
        "--run",
        "alphabeta",
        "--width",
        "10",
    ]);
    assert!(
        text.contains("●− c") && text.contains("●+ c1") && text.contains("●7"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.width() <= 16), "{text}");
    assert_eq!(text.matches('…').count(), 3, "{text}");
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

/// TikZ scales to `\linewidth` as SVG scales with its viewBox: by default it draws the whole
/// tree up to SVG's limit, a 27-leaf tree with all of its 40 nodes (it once elided 9).
#[test]
fn tikz_draws_the_whole_tree_by_default() {
    let tex = ok(&[
        "draw",
        "--gen",
        "uniform -b 3 -d 3 --seed 1",
        "--format",
        "tikz",
    ]);
    assert!(!tex.contains("node[elided"), "{tex}");
    let nodes = tex.lines().filter(|l| l.contains("\\node[")).count();
    assert_eq!(nodes, 40, "{tex}");
    // An asked-for width still elides.
    let narrow = ok(&[
        "draw",
        "--gen",
        "uniform -b 3 -d 3 --seed 1",
        "--format",
        "tikz",
        "--width",
        "40",
    ]);
    assert!(narrow.contains("node[elided"), "{narrow}");
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

/// The 27-leaf tree of docs/TEACHING.md (`gen uniform -b 3 -d 3 --order random --seed 42`),
/// written into `dir`.
fn teaching_tree(dir: &std::path::Path) -> String {
    let path = dir.join("ex42.ron");
    let path = path.to_str().unwrap().to_owned();
    ok(&[
        "gen", "uniform", "-b", "3", "-d", "3", "--order", "random", "--seed", "42", "-o", &path,
    ]);
    path
}

/// The SVG card of node `id`: its rect's class, if the node is drawn.
fn svg_class(svg: &str, id: usize) -> Option<String> {
    let key = format!(r#"data-node="{id}""#);
    let line = svg
        .lines()
        .find(|l| l.starts_with("<rect") && l.contains(&key))?;
    let start = line.find(r#"class=""#)? + 7;
    Some(line[start..][..line[start..].find('"')?].to_owned())
}

/// The TikZ node named for node `id`: its style list, if the node is drawn.
fn tikz_style(tex: &str, id: usize) -> Option<String> {
    let key = format!("(v{id}) at");
    let line = tex
        .lines()
        .find(|l| l.contains("\\node[") && l.contains(&key))?;
    let start = line.find("\\node[")? + 6;
    Some(line[start..][..line[start..].find(']')?].to_owned())
}

/// Issue 28's promise: at every step of a search of a 27-leaf tree, the default SVG and TikZ
/// pictures show the step's current node (marked), the path down to it and the principal
/// variation down to its leaf — whatever the width makes the layout elide.
#[test]
fn every_step_shows_the_current_node_and_the_principal_variation() {
    use prune::search::Algorithm;
    let dir = tempfile::tempdir().unwrap();
    let file = teaching_tree(dir.path());
    let tree = prune::format::load(std::path::Path::new(&file), None).unwrap();
    assert_eq!(tree.ids().filter(|&id| tree.is_leaf(id)).count(), 27);
    for algo in ["alphabeta", "negascout"] {
        let parsed = Algorithm::parse(algo, &Default::default()).unwrap();
        let (run, trace) =
            prune::trace::record(&tree, &parsed, &std::sync::atomic::AtomicU64::new(0)).unwrap();
        assert!(
            tree.is_leaf(*run.pv.last().unwrap()),
            "{algo}: {:?}",
            run.pv
        );
        for (format, ext) in [("svg", "svg"), ("tikz", "tex")] {
            let out = dir.path().join(format!("{algo}.{ext}"));
            let out = out.to_str().unwrap();
            ok(&["draw", &file, "--run", algo, "--steps", "all", "-o", out]);
            for step in 0..=trace.len() {
                let path = dir.path().join(format!("{algo}-{:03}.{ext}", step + 1));
                let pic = std::fs::read_to_string(&path).unwrap();
                let mark = |id: prune::tree::NodeId| match format {
                    "svg" => svg_class(&pic, id.index()),
                    _ => tikz_style(&pic, id.index()),
                };
                let here = format!("{algo} {format} step {step}");
                for &id in &run.pv {
                    assert!(mark(id).is_some(), "{here}: PV node {id:?} hidden\n{pic}");
                }
                if step > 0 {
                    let current = trace.event(step - 1).node();
                    for id in tree.path_to(current) {
                        assert!(mark(id).is_some(), "{here}: path node {id:?} hidden\n{pic}");
                    }
                    let m = mark(current).unwrap();
                    assert!(m.contains("current"), "{here}: current {current:?} is {m}");
                }
            }
        }
    }
}

#[test]
fn a_sequence_is_numbered_and_each_file_is_that_step_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = teaching_tree(dir.path());
    let out = dir.path().join("s.svg");
    let o = prune(&[
        "draw",
        &file,
        "--run",
        "alphabeta",
        "--steps",
        "3..5",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("3 pictures"));
    let names: Vec<String> = {
        let mut v: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("s-"))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names, ["s-001.svg", "s-002.svg", "s-003.svg"]);
    for (i, step) in (3..=5).enumerate() {
        let seq = std::fs::read_to_string(dir.path().join(&names[i])).unwrap();
        let one = ok(&[
            "draw",
            &file,
            "--run",
            "alphabeta",
            "--step",
            &step.to_string(),
            "--format",
            "svg",
        ]);
        assert_eq!(seq, one, "step {step}");
    }
    // Cutoffs: one picture per cutoff event, each just after it.
    let cut = dir.path().join("c.txt");
    ok(&[
        "draw",
        &file,
        "--run",
        "alphabeta",
        "--steps",
        "cutoffs",
        "-o",
        cut.to_str().unwrap(),
    ]);
    let cut_files = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("c-")
        })
        .count();
    let tree = prune::format::load(std::path::Path::new(&file), None).unwrap();
    let algo = prune::search::Algorithm::parse("alphabeta", &Default::default()).unwrap();
    let (_, trace) =
        prune::trace::record(&tree, &algo, &std::sync::atomic::AtomicU64::new(0)).unwrap();
    let cutoffs = (0..trace.len())
        .filter(|&k| trace.event(k).kind() == prune::trace::EventKind::Cutoff)
        .count();
    assert!(
        cut_files > 0 && cut_files == cutoffs,
        "{cut_files} files, {cutoffs} cutoffs"
    );
}

#[test]
fn steps_without_a_file_and_one_file_formats_without_a_run_are_refused() {
    for args in [
        &[
            "draw",
            "trees/default.ron",
            "--run",
            "alphabeta",
            "--steps",
            "all",
        ][..],
        &["draw", "trees/default.ron", "--format", "beamer"],
        &["draw", "trees/default.ron", "--format", "html"],
        &[
            "draw",
            "trees/default.ron",
            "--run",
            "alphabeta",
            "--steps",
            "5..2",
            "--format",
            "html",
        ],
        &[
            "draw",
            "trees/default.ron",
            "--run",
            "alphabeta",
            "--steps",
            "0..9999",
            "--format",
            "html",
        ],
        &[
            "draw",
            "trees/default.ron",
            "--run",
            "alphabeta",
            "--steps",
            "some",
            "--format",
            "html",
        ],
    ] {
        let o = prune(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// The LaTeX structure of a Beamer document: environments opened and closed in order, braces
/// balanced (escaped ones aside), comments skipped.
fn balanced_tex(tex: &str) -> Result<(), String> {
    let mut envs: Vec<String> = Vec::new();
    let mut depth = 0i64;
    for (n, line) in tex.lines().enumerate() {
        let mut chars = line.chars().peekable();
        let mut code = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    code.push(c);
                    if let Some(&d) = chars.peek()
                        && "{}%$&#_".contains(d)
                    {
                        chars.next();
                        code.push('x');
                    }
                }
                '%' => break,
                '{' => {
                    depth += 1;
                    code.push(c);
                }
                '}' => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(format!("line {}: unmatched }}", n + 1));
                    }
                    code.push(c);
                }
                c => code.push(c),
            }
        }
        for (word, open) in [("\\begin{", true), ("\\end{", false)] {
            let mut rest = code.as_str();
            while let Some(i) = rest.find(word) {
                rest = &rest[i + word.len()..];
                let name = rest[..rest.find('}').unwrap_or(rest.len())].to_owned();
                if open {
                    envs.push(name);
                } else if envs.pop().as_deref() != Some(name.as_str()) {
                    return Err(format!(
                        "line {}: \\end{{{name}}} closes nothing open",
                        n + 1
                    ));
                }
            }
        }
    }
    if depth != 0 || !envs.is_empty() {
        return Err(format!("{depth} braces and {envs:?} left open"));
    }
    Ok(())
}

#[test]
fn beamer_is_one_document_with_an_overlay_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = teaching_tree(dir.path());
    let tree = prune::format::load(std::path::Path::new(&file), None).unwrap();
    let algo = prune::search::Algorithm::parse("alphabeta", &Default::default()).unwrap();
    let (_, trace) =
        prune::trace::record(&tree, &algo, &std::sync::atomic::AtomicU64::new(0)).unwrap();
    let tex = ok(&["draw", &file, "--run", "alphabeta", "--format", "beamer"]);
    balanced_tex(&tex).unwrap();
    assert!(tex.contains("\\documentclass{beamer}"));
    assert!(tex.contains("\\usepackage{tikz}"));
    assert_eq!(tex.matches("\\begin{frame}").count(), 1);
    // Every step from 0 to the end, each its own overlay in order, each one picture.
    let steps = trace.len() + 1;
    for k in 1..=steps {
        assert_eq!(
            tex.matches(&format!("\\only<{k}>{{")).count(),
            1,
            "overlay {k}"
        );
    }
    assert!(!tex.contains(&format!("\\only<{}>", steps + 1)));
    assert_eq!(tex.matches("\\begin{tikzpicture}").count(), steps);
    // A broken brace is caught.
    assert!(balanced_tex(&tex.replacen("\\only<2>{", "\\only<2>", 1)).is_err());
    assert!(balanced_tex(&tex.replacen("\\end{tikzpicture}", "", 1)).is_err());
    // The cutoffs alone: fewer overlays, as many as cutoffs.
    let cut = ok(&[
        "draw",
        &file,
        "--run",
        "alphabeta",
        "--steps",
        "cutoffs",
        "--format",
        "beamer",
    ]);
    balanced_tex(&cut).unwrap();
    let n = cut.matches("\\begin{tikzpicture}").count();
    assert!(n > 0 && n < steps, "{n} of {steps}");
    if let Ok(status) = Command::new("pdflatex").arg("--version").output() {
        assert!(status.status.success());
        let out = dir.path().join("b.tex");
        std::fs::write(&out, &tex).unwrap();
        let o = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", "b.tex"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    }
}

#[test]
fn html_is_one_page_with_nothing_fetched_and_a_figure_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let file = teaching_tree(dir.path());
    let out = dir.path().join("steps.html");
    ok(&[
        "draw",
        &file,
        "--run",
        "alphabeta",
        "-o",
        out.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for fetch in ["src=", "href=", "http:", "https:", "@import", "url("] {
        assert!(!html.contains(fetch), "the page fetches: {fetch}");
    }
    let figures = html.matches("<figure ").count();
    let hidden = html.matches("<figure ").count() - html.matches("\" hidden>").count();
    assert!(figures > 10);
    assert_eq!(hidden, 1, "one figure shown before the script runs");
    assert_eq!(html.matches("<svg ").count(), figures);
    for id in ["first", "back", "forward", "last", "counter", "narration"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(html.contains("ArrowRight") && html.contains("ArrowLeft"));
}

/// Every step of a search of a big tree, each drawn whole, would write gigabytes: refused with
/// what to do instead, before anything is drawn.
#[test]
fn too_many_cards_in_all_are_refused() {
    let o = prune(&[
        "draw",
        "--gen",
        "uniform -b 4 -d 7 --seed 1",
        "--run",
        "alphabeta",
        "--format",
        "html",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--steps A..B") && err.contains("cards"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
    // A few steps of the same are drawn.
    let html = ok(&[
        "draw",
        "--gen",
        "uniform -b 4 -d 7 --seed 1",
        "--run",
        "alphabeta",
        "--steps",
        "10..12",
        "--format",
        "html",
    ]);
    assert_eq!(html.matches("<figure ").count(), 3);
}
