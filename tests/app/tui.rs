//! The explorer on `TestBackend`: whole screens after key sequences (insta snapshots), and what
//! its forms and commands do to files and runs.

use std::path::Path;

use prune::format;
use prune::search::{Algorithm, Value};
use prune::tree::Tree;
use prune_cli::cli::default_tree;
use prune_cli::tui::App;
use prune_cli::tui::app::{Event, FieldValue, Mode};
use prune_cli::tui::keymap::Action;
use prune_cli::tui::keymap::{Key, Keymap};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn app(tree: Tree) -> App {
    crate::common::explorer(tree)
}

fn sample(name: &str) -> Tree {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("trees")
        .join(name);
    format::load(&path, None).unwrap()
}

/// Draws `app` on a `w`×`h` test terminal and returns the screen as text.
fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        let hit = prune_cli::tui::draw::draw(f, app);
        app.update(Event::Drawn(hit));
    })
    .unwrap();
    crate::common::buffer_text(term.backend().buffer())
}

use crate::common::{keys, run_at_end};

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.key(Key::parse(&c.to_string()).unwrap());
    }
}

#[test]
fn the_outline_of_the_default_tree() {
    let mut a = app(default_tree());
    insta::assert_snapshot!(screen(&mut a, 110, 30));
}

#[test]
fn an_alphabeta_run() {
    let mut a = app(default_tree());
    keys(&mut a, &["r", "down", "enter", "enter"]);
    assert_eq!(a.runs().len(), 1, "{:?}", a.status());
    assert_eq!(a.runs()[0].algo, Algorithm::AlphaBeta { fail_soft: false });
    // A run opens at its first step, before the search, so that stepping and jumping go
    // forward through it.
    assert_eq!(a.runs()[0].step, 0);
    let opened = screen(&mut a, 110, 30);
    assert!(opened.contains("Step 0/29"), "{opened}");
    assert!(
        opened.contains("before the search: alphabeta starts at the root"),
        "{opened}"
    );
    insta::assert_snapshot!(opened);
    keys(&mut a, &["]"]);
    let step = a.runs()[0].step;
    assert!(step > 0, "] goes to the first cutoff: {:?}", a.status());
    assert!(
        matches!(
            a.runs()[0].trace.event(step - 1).view(),
            prune::trace::EventView::Cutoff { .. }
        ),
        "{:?}",
        a.status()
    );
}

#[test]
fn two_runs_side_by_side_with_differences() {
    let mut a = app(default_tree());
    run_at_end(
        &mut a,
        &[
            Algorithm::AlphaBeta { fail_soft: false },
            Algorithm::NegaScout,
        ],
    );
    keys(&mut a, &["d"]);
    insta::assert_snapshot!(screen(&mut a, 120, 30));
}

#[test]
fn stepping_forwards_and_backwards() {
    let mut a = app(default_tree());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(
        &mut a,
        &["home", "right", "right", "right", "right", "right"],
    );
    assert_eq!(a.runs()[0].step, 5);
    let forward = screen(&mut a, 110, 30);
    keys(&mut a, &["]", "left"]);
    let first_cut = a.runs()[0].step + 1;
    keys(&mut a, &["home", "]"]);
    assert_eq!(a.runs()[0].step, first_cut, "] lands on the first cutoff");
    keys(&mut a, &["home"]);
    for _ in 0..5 {
        keys(&mut a, &["right"]);
    }
    keys(&mut a, &["end"]);
    for _ in 0..(a.runs()[0].trace.len() - 5) {
        keys(&mut a, &["left"]);
    }
    assert_eq!(
        screen(&mut a, 110, 30),
        forward,
        "backwards reaches the same screen"
    );
    insta::assert_snapshot!(forward);
}

#[test]
fn star2_on_ballard_figure_6() {
    let mut a = app(sample("ballard-figure-6.ron"));
    a.run_now(&[Algorithm::Star2 {
        probes: 1,
        probe_always: false,
        rightmost: false,
    }]);
    keys(&mut a, &["home", "}"]);
    let s = screen(&mut a, 120, 34);
    assert!(s.contains("probe"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn the_help_overlay() {
    let mut a = app(default_tree());
    keys(&mut a, &["?"]);
    insta::assert_snapshot!(screen(&mut a, 110, 34));
    keys(&mut a, &["j"]);
    assert_eq!(*a.mode(), Mode::Help, "scrolling keys keep the help open");
    keys(&mut a, &["q"]);
    assert_eq!(*a.mode(), Mode::Normal, "q closes the help");
    assert!(!a.quitting());
}

#[test]
fn the_help_scrolls_at_80x24() {
    let mut a = app(default_tree());
    keys(&mut a, &["?"]);
    let top = screen(&mut a, 80, 24);
    assert!(top.contains("q/Esc close · ↑↓ scroll"), "{top}");
    keys(
        &mut a,
        &["pagedown", "pagedown", "pagedown", "pagedown", "end"],
    );
    let bottom = screen(&mut a, 80, 24);
    // The legend ends the help, with every mark the screen draws (the table hit's too).
    assert!(
        bottom.contains("⇄ answered by the transposition table")
            && bottom.contains("…17 └─ depth 17"),
        "{bottom}"
    );
    insta::assert_snapshot!(bottom);
    keys(&mut a, &["home"]);
    assert_eq!(screen(&mut a, 80, 24), top);
    keys(&mut a, &["esc"]);
    assert_eq!(*a.mode(), Mode::Normal);
}

const SIX: [Algorithm; 6] = [
    Algorithm::Minimax,
    Algorithm::AlphaBeta { fail_soft: false },
    Algorithm::AlphaBeta { fail_soft: true },
    Algorithm::NegaScout,
    Algorithm::Sss,
    Algorithm::Mtdf { guess: None },
];

fn six_runs() -> App {
    let mut a = app(default_tree());
    run_at_end(&mut a, &SIX);
    a
}

#[test]
fn layouts_at_80x24_and_200x60() {
    for (w, h) in [(80, 24), (200, 60)] {
        for n in [1, 2, 6] {
            // The first `n` of the six, the first current (Tab goes round from the last).
            let mut a = app(default_tree());
            run_at_end(&mut a, &SIX[..n]);
            if n > 1 {
                keys(&mut a, &["tab"]);
            }
            assert_eq!(a.current(), 0);
            let s = screen(&mut a, w, h);
            insta::assert_snapshot!(format!("layout_{w}x{h}_{n}_runs"), s);
        }
    }
}

/// The Stats panel on a tree of thousands of leaves: every count grouped in thousands as
/// Detail writes it (`2,486`, never `2486`), and at 200 columns every column as wide as its
/// content (no `…` with room to spare); at 80 columns what does not fit is narrowed or left
/// out, never silently clipped.
#[test]
fn stats_numbers_are_whole_and_grouped() {
    use prune::generate::Values;
    use prune::generate::uniform::{self, Order, Uniform};
    use prune::text::thousands;
    let p = Uniform {
        branching: 5,
        depth: 7,
        values: Values::integers(0, 99),
        order: Order::Random,
    };
    let mut a = app(uniform::generate(&p, 7).unwrap());
    run_at_end(
        &mut a,
        &[
            Algorithm::Minimax,
            Algorithm::AlphaBeta { fail_soft: false },
        ],
    );
    let ab = a.runs()[1].run.stats.clone();
    assert!(ab.leaves >= 1000, "{ab:?}");
    let stats_rows = |s: &str| -> Vec<String> {
        let lines: Vec<&str> = s.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("╭ Stats"))
            .expect("Stats");
        lines[at + 1..at + 4]
            .iter()
            .map(|l| l.to_string())
            .collect()
    };
    let wide = screen(&mut a, 200, 60);
    let rows = stats_rows(&wide);
    assert!(!wide.contains("columns cut"), "{wide}");
    for r in &rows {
        assert!(!r.contains('…'), "cut with room to spare: {r}");
    }
    let row = &rows[2];
    for n in [ab.leaves, ab.nodes] {
        assert!(row.contains(&format!(" {} ", thousands(n))), "{n} in {row}");
    }
    assert!(
        row.contains(&format!(" {} (", thousands(ab.cutoffs))),
        "{row}"
    );
    assert!(!row.contains(&format!(" {} ", ab.leaves)), "{row}");
    insta::assert_snapshot!("stats_200x60", rows.join("\n"));
    let narrow = screen(&mut a, 80, 24);
    let rows = stats_rows(&narrow);
    assert!(
        rows[2].contains(&format!(" {} ", thousands(ab.leaves))),
        "{narrow}"
    );
    insta::assert_snapshot!("stats_80x24", rows.join("\n"));
}

#[test]
fn the_current_run_stays_in_view_at_80_columns() {
    let mut a = six_runs();
    assert_eq!(a.current(), 5);
    let s = screen(&mut a, 80, 24);
    let header = s.lines().nth(2).unwrap();
    assert!(header.contains("▶ mtdf"), "{s}");
    assert!(header.contains("◂ ") && header.contains(" more"), "{s}");
    let stats: Vec<&str> = s.lines().filter(|l| l.contains("▶ mtdf")).collect();
    assert_eq!(stats.len(), 2, "in the outline and in Stats: {s}");
    // Back to the first run: the window follows.
    keys(&mut a, &["tab"]);
    let s = screen(&mut a, 80, 24);
    let header = s.lines().nth(2).unwrap();
    assert!(header.contains("▶ minimax"), "{s}");
    assert!(header.contains("more ▸"), "{s}");
    // Detail instead of the outline, with the current run first.
    keys(&mut a, &["i"]);
    let s = screen(&mut a, 80, 24);
    assert!(
        s.contains("Detail") && s.contains("▶ minimax · step"),
        "{s}"
    );
}

#[test]
fn deep_rows_show_their_depth() {
    let mut expr = String::new();
    for _ in 0..40 {
        expr.push('(');
    }
    expr.push('2');
    expr.push_str(&",1)".repeat(40));
    let tree = prune::format::parse_expr(&expr, false).unwrap();
    let mut a = app(tree);
    a.update(Action::ExpandDepth(41));
    screen(&mut a, 80, 24);
    for _ in 0..40 {
        keys(&mut a, &["j"]);
    }
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("…40 "), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn readable_numbers_and_full_precision() {
    let tree =
        prune::format::parse_expr("((8.333333333333334,9),(0.3333333333333333,2))", false).unwrap();
    let mut a = app(tree);
    a.run_now(&[Algorithm::Minimax]);
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("8.333") && !s.contains("8.3333"), "{s}");
    keys(&mut a, &["#"]);
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("8.333333333333334"), "{s}");
}

#[test]
fn a_too_small_terminal() {
    let mut a = app(default_tree());
    insta::assert_snapshot!(screen(&mut a, 40, 10));
}

#[test]
fn the_picker_greys_out_what_does_not_apply() {
    let mut a = app(sample("ballard-figure-6.ron"));
    keys(&mut a, &["r"]);
    let s = screen(&mut a, 120, 30);
    assert!(s.contains("alphabeta cannot search chance nodes"), "{s}");
    // Choosing a refused algorithm says why and runs nothing.
    while *a.mode() != Mode::Picker(0) {
        keys(&mut a, &["k"]);
    }
    keys(&mut a, &["enter"]);
    assert!(a.runs().is_empty());
    assert!(
        a.status()
            .is_some_and(|(m, err)| err && m.contains("minimax"))
    );
}

/// The picker's text as read: each row inside the box's borders, joined with spaces.
fn picker_text(screen: &str) -> String {
    let inside: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("Run an algorithm"))
        .skip(1)
        .take_while(|l| !l.contains('╰'))
        // The box may sit inside a panel's borders: its row is the longest piece between them.
        .filter_map(|l| l.split('│').max_by_key(|piece| piece.chars().count()))
        .collect();
    inside
        .join(" ")
        .replace('▶', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_pickers_descriptions_wrap_instead_of_being_cut() {
    let mut a = app(default_tree());
    keys(&mut a, &["r"]);
    let descriptions: Vec<String> = prune::search::ALGORITHMS
        .iter()
        .zip(a.refusals())
        .map(|(info, why)| match why {
            Some(w) => w.to_string(),
            None => info.source.to_owned(),
        })
        .collect();
    let longest = descriptions
        .iter()
        .map(|d| d.chars().count())
        .max()
        .unwrap();
    assert!(longest > 100, "a description longer than a narrow box");
    // Narrow, the long ones take several lines; wide, each takes one. Every word is there.
    for (w, h, wraps) in [(80, 60, true), (220, 40, false)] {
        let s = screen(&mut a, w, h);
        let text = picker_text(&s);
        assert!(!text.contains('…'), "{w}×{h}: nothing cut\n{s}");
        for d in &descriptions {
            let d = d.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(text.contains(&d), "{w}×{h}: {d}\n{s}");
        }
        let rows = s
            .lines()
            .skip_while(|l| !l.contains("Run an algorithm"))
            .skip(1)
            .take_while(|l| !l.contains('╰'))
            .count();
        assert_eq!(rows > descriptions.len(), wraps, "{w}×{h}\n{s}");
    }
    // On a short screen the selected entry stays in view.
    keys(&mut a, &["k"]);
    let s = screen(&mut a, 80, 16);
    let last = prune::search::ALGORITHMS.last().unwrap().name;
    assert!(s.contains(&format!("▶ {last}")), "{s}");
}

#[test]
fn star2_parameters_come_from_the_form() {
    let mut a = app(sample("ballard-figure-6.ron"));
    keys(&mut a, &["r"]);
    let star2 = prune::search::ALGORITHMS
        .iter()
        .position(|i| i.name == "star2")
        .unwrap();
    while *a.mode() != Mode::Picker(star2) {
        keys(&mut a, &["j"]);
    }
    keys(&mut a, &["enter", "backspace"]);
    typed(&mut a, "2");
    keys(&mut a, &["enter"]);
    assert_eq!(
        a.runs()[0].algo,
        Algorithm::Star2 {
            probes: 2,
            probe_always: false,
            rightmost: false
        }
    );
}

#[test]
fn visited_only_and_folding_hide_what_the_search_skipped() {
    let mut a = app(default_tree());
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["z"]);
    let folded = screen(&mut a, 110, 30);
    assert!(
        folded.contains("✂ 3 nodes") && folded.contains("✂ 1 node\n")
            || folded.contains("✂ 1 node "),
        "{folded}"
    );
    keys(&mut a, &["z", "v"]);
    let visited = screen(&mut a, 110, 30);
    assert!(!visited.contains("✂"), "{visited}");
    insta::assert_snapshot!(folded);
}

#[test]
fn export_writes_the_three_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app(default_tree());
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["e"]);
    let Mode::Form(form) = a.mode() else {
        panic!("export form")
    };
    assert_eq!(form.fields.len(), 4);
    let base = dir.path().join("out").display().to_string();
    for (i, ext) in ["jsonl", "csv", "dot", "svg"].iter().enumerate() {
        if i > 0 {
            keys(&mut a, &["tab"]);
        }
        // Clear the default path, type ours.
        for _ in 0..80 {
            keys(&mut a, &["backspace"]);
        }
        typed(&mut a, &format!("{base}.{ext}"));
    }
    keys(&mut a, &["enter"]);
    assert_eq!(*a.mode(), Mode::Normal, "{:?}", a.status());
    let trace = std::fs::read_to_string(format!("{base}.jsonl")).unwrap();
    assert!(trace.starts_with("{\"prune_trace\":1,\"algorithm\":\"alphabeta\""));
    assert_eq!(trace.lines().count(), a.runs()[0].trace.len() + 1);
    assert!(
        std::fs::read_to_string(format!("{base}.csv"))
            .unwrap()
            .contains("alphabeta,7,")
    );
    assert!(
        std::fs::read_to_string(format!("{base}.dot"))
            .unwrap()
            .starts_with("digraph")
    );
    let svg = std::fs::read_to_string(format!("{base}.svg")).unwrap();
    assert!(
        svg.contains("step 29 of 29"),
        "the picture of this step: {svg}"
    );
}

#[test]
fn the_picture_of_this_step_follows_the_step_and_its_extension() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app(default_tree());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(
        &mut a,
        &["home", "right", "right", "right", "right", "right", "e"],
    );
    let Mode::Form(form) = a.mode() else {
        panic!("export form")
    };
    assert_eq!(
        form.fields[3].value,
        FieldValue::Text("first-steps-alphabeta-step5.svg".into())
    );
    // Skip the first three files; name the picture .txt, then a name with no picture format.
    let clear = |a: &mut App| {
        for _ in 0..80 {
            keys(a, &["backspace"]);
        }
    };
    for _ in 0..3 {
        clear(&mut a);
        keys(&mut a, &["tab"]);
    }
    clear(&mut a);
    let out = dir.path().join("step5.pic");
    typed(&mut a, &out.display().to_string());
    keys(&mut a, &["enter"]);
    let Mode::Form(form) = a.mode() else {
        panic!("an unknown extension keeps the form open")
    };
    assert!(
        form.error.as_deref().unwrap_or("").contains(".svg"),
        "{:?}",
        form.error
    );
    clear(&mut a);
    let out = dir.path().join("step5.txt");
    typed(&mut a, &out.display().to_string());
    keys(&mut a, &["enter"]);
    assert_eq!(*a.mode(), Mode::Normal, "{:?}", a.status());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains('▸') && text.contains('▶'), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 100));
}

#[test]
fn the_diagram_at_80x24() {
    let mut a = app(default_tree());
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D"]);
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("Diagram"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn the_diagram_at_200x60_follows_the_selection_and_the_step() {
    let mut a = app(default_tree());
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D"]);
    let whole = screen(&mut a, 200, 60);
    insta::assert_snapshot!("the_diagram_at_200x60", whole);
    // The root's second child, b, found by its label, at step 14: stepping keeps the subtree
    // chosen and marks the step's node in it.
    keys(&mut a, &["/", "b", "enter", "home"]);
    for _ in 0..14 {
        keys(&mut a, &["right"]);
    }
    let b = screen(&mut a, 200, 60);
    assert_ne!(b, whole);
    assert!(b.contains("Diagram · b · alphabeta, step 14/29"), "{b}");
    assert!(b.contains('▶'), "{b}");
    insta::assert_snapshot!("the_diagram_of_a_subtree_at_step_14", b);
    // D again: the outline is back.
    keys(&mut a, &["D"]);
    assert!(!screen(&mut a, 200, 60).contains("Diagram"));
}

#[test]
fn the_diagram_compares_two_runs_with_differences_on() {
    let mut a = app(default_tree());
    run_at_end(
        &mut a,
        &[
            Algorithm::AlphaBeta { fail_soft: false },
            Algorithm::NegaScout,
        ],
    );
    keys(&mut a, &["D", "d"]);
    let s = screen(&mut a, 120, 60);
    assert_eq!(s.matches("Diagram").count(), 2, "{s}");
    assert!(s.contains("negascout"), "{s}");
    insta::assert_snapshot!(s);
    // The cards that differ are underlined (the monochrome theme's difference style): NegaScout
    // re-searches c, alpha-beta does not.
    let mut term = Terminal::new(TestBackend::new(120, 60)).unwrap();
    term.draw(|f| {
        prune_cli::tui::draw::draw(f, &a);
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    let underlined: String = (0..60)
        .flat_map(|y| (0..120).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            buf[(x, y)]
                .modifier
                .contains(ratatui::style::Modifier::UNDERLINED)
        })
        .map(|(x, y)| buf[(x, y)].symbol().to_owned())
        .collect();
    assert!(underlined.contains('↻'), "{underlined}");
    assert!(
        !underlined.contains("a1"),
        "a1 is the same in both: {underlined}"
    );
}

#[test]
fn a_bad_file_shows_the_diagnostic_and_keeps_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "(version: 1, root: Max([1, 2,, 3]))").unwrap();
    let mut a = app(default_tree());
    keys(&mut a, &["o"]);
    typed(&mut a, &bad.display().to_string());
    keys(&mut a, &["enter"]);
    let Mode::Popup(p) = a.mode() else {
        panic!("a popup, not {:?}", a.mode())
    };
    assert!(p.error && p.text.contains("bad.ron:1:"), "{}", p.text);
    assert_eq!(a.tree().meta().name, "first steps");
    keys(&mut a, &["q"]);
    assert!(!a.quitting(), "the first key closes the popup");
}

#[test]
fn opening_a_file_reruns_what_applies() {
    let mut a = app(default_tree());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["o"]);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/alphabeta-worst-case.ron");
    typed(&mut a, &path.display().to_string());
    keys(&mut a, &["enter"]);
    assert_eq!(*a.mode(), Mode::Normal);
    assert_eq!(a.runs().len(), 1);
    assert_eq!(a.runs()[0].run.stats.leaves, a.tree().leaf_count() as u64);
}

#[test]
fn reordering_best_first_gives_the_minimal_tree() {
    let p = prune::generate::uniform::Uniform {
        branching: 3,
        depth: 4,
        values: prune::generate::Values::integers(0, 99),
        order: prune::generate::uniform::Order::Random,
    };
    let mut a = app(prune::generate::uniform::generate(&p, 5).unwrap());
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    let random = a.runs()[0].run.stats.clone();
    keys(&mut a, &["s", "enter"]);
    // The run on the new order, and the one from before kept beside it for comparison.
    assert_eq!(a.runs().len(), 2);
    assert_eq!(a.current(), 0, "the new run is selected");
    let leaves = a.runs()[0].run.stats.leaves;
    assert_eq!(
        leaves,
        9 + 9 - 1,
        "best first: Knuth and Moore's minimal tree"
    );
    assert_eq!(a.runs()[1].name(), "alphabeta (before reorder)");
    assert_eq!(a.runs()[1].run.stats, random);
    assert_eq!(a.runs()[1].run.value, a.runs()[0].run.value);
    let s = screen(&mut a, 160, 40);
    assert!(s.contains("alphabeta (before reorder)"), "{s}");
    insta::assert_snapshot!("reordered_beside_the_run_before", s);
    // Another order: the best-first run is now the one kept; the random order's goes.
    keys(&mut a, &["s", "right", "enter"]);
    assert_eq!(a.runs().len(), 2);
    assert!(a.runs()[0].run.stats.leaves > leaves);
    assert_eq!(a.runs()[1].run.stats.leaves, leaves);
    // u: the order before, searched again; kept runs belong to the order they were kept on.
    keys(&mut a, &["u"]);
    assert_eq!(a.runs().len(), 1);
    assert_eq!(a.runs()[0].run.stats.leaves, leaves);
}

#[test]
fn generating_a_tree_from_the_form() {
    let mut a = app(default_tree());
    keys(&mut a, &["c", "tab", "backspace"]);
    typed(&mut a, "2");
    keys(&mut a, &["tab", "backspace"]);
    typed(&mut a, "5");
    keys(&mut a, &["tab", "right", "enter"]);
    assert_eq!(*a.mode(), Mode::Normal, "{:?}", a.status());
    assert_eq!(a.tree().leaf_count(), 32);
    assert!(a.source().contains("--order best"), "{}", a.source());
    // Bad parameters keep the form open with clap's message.
    keys(&mut a, &["c", "tab"]);
    typed(&mut a, "x");
    keys(&mut a, &["enter"]);
    let Mode::Form(f) = a.mode() else {
        panic!("the form stays")
    };
    assert!(f.error.is_some());
}

#[test]
fn searching_labels_and_mouse_selection() {
    let mut a = app(default_tree());
    keys(&mut a, &["/"]);
    typed(&mut a, "c2");
    keys(&mut a, &["enter"]);
    assert_eq!(a.tree().label(a.selected()), Some("c2"));
    keys(&mut a, &["n"]);
    assert_eq!(
        a.tree().label(a.selected()),
        Some("c2"),
        "the only match, wrapping"
    );
    screen(&mut a, 110, 30);
    let (id, _) = a.hit().rows[2];
    a.click(a.hit().x + 5, a.hit().y + 2);
    assert_eq!(a.selected(), id);
    let (id, marker) = a.hit().rows[2];
    a.click(marker, a.hit().y + 2);
    assert!(!a.outline().is_expanded(id), "a click on the marker folds");
}

#[test]
fn playing_advances_with_time_and_stops_at_the_end() {
    let mut a = app(default_tree());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["space"]);
    assert!(a.player().playing());
    assert_eq!(a.runs()[0].step, 0, "play from the end starts over");
    let later = std::time::Instant::now() + std::time::Duration::from_secs(60);
    a.tick(later);
    assert_eq!(a.runs()[0].step, a.runs()[0].trace.len());
    assert!(!a.player().playing());
}

#[test]
fn big_trees_are_searched_in_the_background() {
    let p = prune::generate::uniform::Uniform {
        branching: 4,
        depth: 9,
        values: prune::generate::Values::integers(0, 99),
        order: prune::generate::uniform::Order::Random,
    };
    let mut a = app(prune::generate::uniform::generate(&p, 1).unwrap());
    a.run_all(&[Algorithm::Minimax]);
    let (what, _, _) = a
        .pending()
        .expect("a search of 349,525 nodes runs in the background");
    assert!(what.contains("minimax"), "{what}");
    let s = screen(&mut a, 110, 30);
    assert!(s.contains("running minimax"), "{s}");
    a.wait();
    assert!(a.pending().is_none());
    assert_eq!(a.runs().len(), 1);
    assert_eq!(a.runs()[0].run.stats.nodes, a.tree().len() as u64);
}

#[test]
fn progress_is_published_every_65536_visits() {
    let p = prune::generate::uniform::Uniform {
        branching: 2,
        depth: 17,
        values: prune::generate::Values::integers(0, 99),
        order: prune::generate::uniform::Order::Random,
    };
    let tree = prune::generate::uniform::generate(&p, 1).unwrap();
    let visits = std::sync::atomic::AtomicU64::new(0);
    let mut obs = prune::search::Progress::new(prune::search::Quiet, &visits);
    prune::search::search(&tree, &Algorithm::Minimax, &mut obs).unwrap();
    let n = tree.len() as u64;
    assert_eq!(
        visits.load(std::sync::atomic::Ordering::Relaxed),
        n / 65536 * 65536
    );
}

#[test]
fn without_a_run_export_remove_and_jump_say_so_at_once() {
    let mut a = app(default_tree());
    for k in ["e", "x", "]", "right"] {
        keys(&mut a, &[k]);
        assert_eq!(*a.mode(), Mode::Normal, "{k} opened nothing");
        let (msg, _) = a.status().expect("a message");
        assert!(
            msg.starts_with("no run yet") && msg.contains("press r"),
            "{k}: {msg}"
        );
    }
}

#[test]
fn esc_cancels_a_search_and_never_quits() {
    let p = prune::generate::uniform::Uniform {
        branching: 10,
        depth: 6,
        values: prune::generate::Values::integers(0, 99),
        order: prune::generate::uniform::Order::Random,
    };
    let mut a = app(prune::generate::uniform::generate(&p, 1).unwrap());
    a.run_all(&[Algorithm::Minimax]);
    assert!(a.pending().is_some(), "the search runs in the background");
    a.key(Key::parse("esc").unwrap());
    assert!(a.pending().is_none());
    assert!(!a.quitting());
    assert!(a.runs().is_empty());
    let (msg, _) = a.status().unwrap();
    assert!(msg.starts_with("cancelled: running minimax"), "{msg}");
    a.key(Key::parse("esc").unwrap());
    assert!(!a.quitting(), "Esc with nothing to cancel does not quit");
    assert_eq!(a.status(), None, "and clears the message");
}

#[test]
fn opening_a_tree_says_which_runs_were_dropped() {
    let mut a = app(default_tree());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["o"]);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/ballard-figure-6.ron");
    typed(&mut a, &path.display().to_string());
    keys(&mut a, &["enter"]);
    assert!(a.runs().is_empty());
    let (msg, error) = a.status().expect("a message");
    assert!(error && msg.contains("dropped alphabeta"), "{msg}");
}

#[test]
fn messages_last_until_the_next_key() {
    let mut a = app(default_tree());
    keys(&mut a, &["+"]);
    assert!(a.status().is_some());
    keys(&mut a, &["j"]);
    assert_eq!(a.status(), None);
}

#[test]
fn exports_name_the_parameters_and_ask_before_overwriting() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = app(sample("ballard-figure-6.ron"));
    a.run_now(&[Algorithm::Star2 {
        probes: 2,
        probe_always: false,
        rightmost: false,
    }]);
    keys(&mut a, &["e"]);
    let Mode::Form(form) = a.mode() else {
        panic!("export form")
    };
    let trace = form.fields[0].shown();
    assert!(trace.ends_with("-star2-probes-2.jsonl"), "{trace}");
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, "keep me").unwrap();
    for _ in 0..80 {
        keys(&mut a, &["backspace"]);
    }
    typed(&mut a, &path.display().to_string());
    for f in 1..4 {
        keys(&mut a, &["tab"]);
        for _ in 0..80 {
            keys(&mut a, &["backspace"]);
        }
        let _ = f;
    }
    keys(&mut a, &["enter"]);
    let Mode::Form(form) = a.mode() else {
        panic!("the form stays open to ask")
    };
    assert!(
        form.error
            .as_ref()
            .unwrap()
            .contains("Enter again overwrites")
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
    keys(&mut a, &["enter"]);
    assert_eq!(*a.mode(), Mode::Normal, "{:?}", a.status());
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.starts_with("{\"prune_trace\""), "{written}");
}

#[test]
fn a_reordered_tree_says_so_in_its_name_and_traces() {
    let mut a = app(default_tree());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["s", "enter"]);
    assert_eq!(a.tree().meta().name, "first steps (children best first)");
    let mut buf = Vec::new();
    let r = &a.runs()[0];
    prune::trace::export::write_jsonl(&mut buf, a.tree(), &r.run, &r.trace).unwrap();
    let header: serde_json::Value =
        serde_json::from_str(String::from_utf8(buf).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["tree"], "first steps (children best first)");
}

#[test]
fn light_themes_paint_the_whole_screen() {
    let (themes, _) = prune_cli::tui::theme::available(None);
    let light = themes.into_iter().find(|t| t.name == "light").unwrap();
    let bg = light.background;
    let mut a = App::new(
        default_tree(),
        "(test)".into(),
        Keymap::default(),
        vec![light],
    );
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["?"]);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| {
        prune_cli::tui::draw::draw(f, &a);
    })
    .unwrap();
    let buf = term.backend().buffer();
    for y in 0..24 {
        for x in 0..80 {
            let c = &buf[(x, y)];
            assert!(
                c.bg == bg || c.bg != ratatui::style::Color::Reset,
                "({x},{y}) {c:?}"
            );
        }
    }
}

#[test]
fn a_star2_probe_cutoff_shows_each_probe_and_their_mean() {
    let mut a = app(sample("ballard-figure-6.ron"));
    a.run_now(&[Algorithm::Star2 {
        probes: 1,
        probe_always: false,
        rightmost: false,
    }]);
    keys(&mut a, &["home"]);
    let mut found = false;
    for _ in 0..40 {
        keys(&mut a, &["]"]);
        let r = &a.runs()[0];
        if r.describe(a.tree(), r.step).contains("(probe)") {
            found = true;
            break;
        }
    }
    assert!(found, "Ballard's Figure 6 has a probe cutoff");
    let s = screen(&mut a, 200, 60);
    assert!(
        s.contains("probes' mean ≤") || s.contains("probes' mean ≥"),
        "{s}"
    );
    assert!(s.contains("probe ≤") || s.contains("probe ≥"), "{s}");
    assert!(s.contains("is spared"), "{s}");
}

/// A constant-sum two-player game written with payoff vectors runs two-player algorithms too:
/// every step of an alpha-beta run draws, and the run's value is player 1's payoff.
#[test]
fn a_two_player_game_with_payoff_vectors_runs_alphabeta() {
    let tree = format::parse_expr("@1(@2([1,-1],[3,-3]),@2([0,0],[2,-2]))", false).unwrap();
    let mut a = app(tree);
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }, Algorithm::Maxn]);
    assert_eq!(a.runs().len(), 2, "{:?}", a.status());
    for _ in 0..12 {
        keys(&mut a, &["right"]);
        let s = screen(&mut a, 100, 30);
        assert!(s.contains("alphabeta"), "{s}");
    }
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("(1, -1)"), "{s}");
}

/// Issue 14 §2: Detail says where each bound came from and why a cutoff fired, `P` goes from a
/// pruned node to the cutoff that pruned it, and `L` shows the log of the steps so far.
#[test]
fn detail_explains_an_alpha_beta_cutoff() {
    let tree = format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let second = tree.child(tree.root(), 1);
    let pruned = tree.child(second, 1);
    let mut a = app(tree);
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    a.select(second);
    let s = screen(&mut a, 110, 34);
    assert!(s.contains("α = 3: the value of #1,"), "{s}");
    assert!(s.contains("#2.1 returned 2 ≤ α = 3"), "{s}");
    insta::assert_snapshot!(s);
    // From a pruned leaf, P goes to the step of the cutoff at its parent.
    a.select(pruned);
    keys(&mut a, &["P"]);
    let step = a.runs()[0].step;
    let e = a.runs()[0].trace.event(step - 1).view();
    assert!(
        matches!(e, prune::trace::EventView::Cutoff { node, .. } if node == second),
        "{e:?}"
    );
    // Halfway, the statistics so far; and the log ends at the current step.
    let s = screen(&mut a, 110, 34);
    assert!(s.contains("so far"), "{s}");
    keys(&mut a, &["L"]);
    let log = screen(&mut a, 110, 34);
    assert!(
        log.contains(&format!("Log · alphabeta · step {step}/")),
        "{log}"
    );
    assert!(log.contains("cutoff"), "{log}");
    insta::assert_snapshot!(log);
}

/// Detail at a Star2 probe cutoff: each probe's bound and the mean that decided it.
#[test]
fn detail_explains_a_star2_probe_cutoff() {
    let tree = sample("ballard-figure-6.ron");
    let mut a = app(tree);
    a.run_now(&[Algorithm::Star2 {
        probes: 1,
        rightmost: false,
        probe_always: false,
    }]);
    keys(&mut a, &["home"]);
    // To the first probe cutoff, and select the chance node where it fired.
    let events = a.runs()[0].trace.events().to_vec();
    let (k, node) = events
        .iter()
        .enumerate()
        .find_map(|(k, e)| match e.view() {
            prune::trace::EventView::Cutoff {
                node,
                kind: prune::search::Cutoff::Probe,
                ..
            } => Some((k + 1, node)),
            _ => None,
        })
        .expect("figure 6 has a probe cutoff");
    for _ in 0..k {
        keys(&mut a, &["right"]);
    }
    a.select(node);
    let s = screen(&mut a, 120, 56);
    assert!(s.contains("probes' mean"), "{s}");
    // The probing phase's bounds with their numbers: (7)–(8) from the probes so far.
    assert!(s.contains("A2 = 3·α − W1 − U·1 = 3·4 − 2 − 10·1"), "{s}");
    insta::assert_snapshot!(s);
}

/// Practice (issue 14 §3): `T` on an alpha-beta run hides its results and asks the questions
/// of its search one by one; right and wrong answers are scored, a wrong one is explained, Esc
/// leaves, and the report is written as JSON.
#[test]
fn practice_asks_scores_and_reports() {
    let mut a = app(default_tree());
    a.run_all(&[Algorithm::AlphaBeta { fail_soft: false }]);
    a.wait();
    keys(&mut a, &["T"]);
    let first = screen(&mut a, 110, 30);
    insta::assert_snapshot!("a_practice_question", first);
    let p = a.practice().expect("practising");
    let q = p.session().current().unwrap().clone();
    assert_eq!(
        a.runs()[0].step,
        q.step,
        "the stepper stands where the question is asked"
    );
    // Right, then wrong: the score follows, and the wrong answer shows the right one.
    typed(&mut a, &q.answer.text());
    keys(&mut a, &["enter"]);
    let second = a.practice().unwrap().session().current().unwrap().clone();
    let wrong = match second.answer {
        prune::trace::practice::Answer::Searched(true) => "p",
        prune::trace::practice::Answer::Searched(false) => "s",
        prune::trace::practice::Answer::Window(..) => "12345 0",
        _ => "12345",
    };
    typed(&mut a, wrong);
    keys(&mut a, &["enter"]);
    let s = screen(&mut a, 110, 30);
    assert!(s.contains("1/2 correct"), "{s}");
    assert!(s.contains("the answer is"), "{s}");
    insta::assert_snapshot!("a_practice_question_after_a_wrong_answer", s);
    assert!(
        !s.contains(" Stats "),
        "the statistics give the answers away: {s}"
    );
    assert!(
        !s.contains('★'),
        "the principal variation gives the answers away: {s}"
    );
    // An unreadable answer is not counted.
    typed(&mut a, "x");
    keys(&mut a, &["enter"]);
    assert_eq!(a.practice().unwrap().session().given.len(), 2);
    // The report.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    keys(&mut a, &["ctrl-s"]);
    assert!(matches!(a.mode(), Mode::Form(_)), "no report form");
    clear_field(&mut a);
    typed(&mut a, &path.display().to_string());
    keys(&mut a, &["enter"]);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(report["score"], "1/2 correct");
    assert_eq!(report["items"][1]["answer"], wrong);
    assert_eq!(report["items"][1]["right"], false);
    assert_eq!(report["items"][1]["correct_answer"], second.answer.text());
    assert_eq!(report["source"], "(test)");
    assert_eq!(
        report["items"][1]["step"],
        second.step + 1,
        "steps count from 1, as the Step bar and the why do"
    );
    // A second Ctrl-S to the same file asks first, as `w` and `e` do.
    let right = a
        .practice()
        .unwrap()
        .session()
        .current()
        .unwrap()
        .answer
        .text();
    clear_field(&mut a);
    typed(&mut a, &right);
    keys(&mut a, &["enter"]);
    keys(&mut a, &["ctrl-s"]);
    assert!(matches!(a.mode(), Mode::Form(_)), "no report form");
    clear_field(&mut a);
    typed(&mut a, &path.display().to_string());
    keys(&mut a, &["enter"]);
    let Mode::Form(form) = a.mode() else {
        panic!("the form stays open")
    };
    assert!(
        form.error
            .as_ref()
            .unwrap()
            .contains("already exists: Enter again overwrites"),
        "{:?}",
        form.error
    );
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(kept["score"], "1/2 correct", "not overwritten yet");
    keys(&mut a, &["enter"]);
    let rewritten: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(rewritten["score"], "2/3 correct");
    // Esc leaves practice; the run is whole again.
    keys(&mut a, &["esc"]);
    assert!(a.practice().is_none());
}

/// The first question asks for the leaves never evaluated, marked on the outline with Space;
/// the next ones offer choices that Tab picks, and the picked choice is the answer given.
#[test]
fn practice_marks_leaves_and_picks_choices() {
    use prune::trace::practice::{Answer, Ask};
    let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let mut a = app(tree.clone());
    a.run_all(&[Algorithm::AlphaBeta { fail_soft: false }]);
    a.wait();
    keys(&mut a, &["T"]);
    let q = a.practice().unwrap().session().current().unwrap().clone();
    assert_eq!(q.ask, Ask::Unevaluated);
    let Answer::Leaves { never, .. } = &q.answer else {
        panic!("{q:?}")
    };
    assert_eq!(never, &["#2.2", "#2.3"]);
    // Space on an interior node says what it marks; on a leaf it marks it, twice unmarks it.
    keys(&mut a, &["space"]);
    assert_eq!(a.practice().unwrap().input(), "");
    let leaf = |i: usize, j: usize| tree.child(tree.child(tree.root(), i), j);
    a.select(leaf(0, 0));
    keys(&mut a, &["space", "space"]);
    assert_eq!(a.practice().unwrap().input(), "");
    a.select(leaf(1, 1));
    keys(&mut a, &["space"]);
    a.select(leaf(1, 2));
    keys(&mut a, &["space"]);
    assert_eq!(a.practice().unwrap().input(), "#2.2, #2.3");
    let marked = screen(&mut a, 110, 30);
    insta::assert_snapshot!("practice_leaves_marked", marked);
    keys(&mut a, &["enter"]);
    assert_eq!(a.practice().unwrap().session().score(), "1/1 correct");
    // The root's window: Tab goes through the choices, each put in the input.
    let q = a.practice().unwrap().session().current().unwrap().clone();
    assert_eq!(q.ask, Ask::Window);
    for (i, c) in q.choices.iter().enumerate() {
        keys(&mut a, &["tab"]);
        let p = a.practice().unwrap();
        assert_eq!((p.picked(), p.input()), (Some(i), c.as_str()));
    }
    let s = screen(&mut a, 110, 30);
    assert!(
        s.contains("Tab picks: -inf 14 · -inf inf · 2 14 · 2 inf"),
        "{s}"
    );
    insta::assert_snapshot!("practice_choices", s);
    keys(&mut a, &["backtab", "backtab"]);
    assert_eq!(a.practice().unwrap().input(), "-inf inf");
    keys(&mut a, &["enter"]);
    assert_eq!(a.practice().unwrap().session().score(), "2/2 correct");
}

/// At 80 columns a wrong answer's long why never pushes the next question or its answer line
/// out of the panel: they always show, and the why scrolls (80×24 and 80×40).
#[test]
fn practice_keeps_the_question_in_view_after_a_long_why() {
    let (tree, _) =
        prune_cli::cli::generate::from_line("uniform -b 3 -d 3 --order random --seed 42").unwrap();
    for h in [24, 40] {
        let mut a = app(tree.clone());
        a.run_all(&[Algorithm::AlphaBeta { fail_soft: false }]);
        a.wait();
        keys(&mut a, &["T"]);
        // "none" is wrong: the why names every group of leaves never evaluated, and its cutoff.
        typed(&mut a, "none");
        keys(&mut a, &["enter"]);
        let p = a.practice().unwrap();
        let (right, why) = p.feedback().unwrap();
        assert!(!right);
        assert!(why.chars().count() > 4 * 78, "a why of many lines: {why}");
        let next = p.session().current().unwrap().text.clone();
        let s = screen(&mut a, 80, h);
        let words: Vec<&str> = next.split_whitespace().collect();
        assert!(
            s.contains(&words[..4].join(" ")),
            "the next question shows at 80×{h}: {next}\n{s}"
        );
        assert!(s.contains("│> ▏"), "the answer line shows at 80×{h}:\n{s}");
        assert!(s.contains("wrong (none)"), "{s}");
        // The why scrolls, the question stays.
        assert!(s.contains("more · C-n C-p scroll"), "{s}");
        keys(&mut a, &["ctrl-n"]);
        let scrolled = screen(&mut a, 80, h);
        assert!(!scrolled.contains("wrong (none)"), "{scrolled}");
        assert!(scrolled.contains("│> ▏"), "{scrolled}");
        keys(&mut a, &["ctrl-p"]);
        assert_eq!(screen(&mut a, 80, h), s);
        if h == 24 {
            insta::assert_snapshot!("practice_after_a_long_why_at_80x24", s);
        }
    }
}

/// Practice is for trees a student can follow: a run longer than the limit is refused with a
/// message, and the explorer stays as it was.
#[test]
fn practice_refuses_a_long_run() {
    let tree = prune::format::parse_expr(
        &format!(
            "({})",
            (0..prune_cli::tui::practice::MAX_STEPS)
                .map(|i| (i % 7).to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        false,
    )
    .unwrap();
    let mut a = app(tree);
    a.run_all(&[Algorithm::Minimax]);
    a.wait();
    keys(&mut a, &["T"]);
    assert!(a.practice().is_none());
    let (msg, error) = a.status().unwrap();
    assert!(
        error && msg.starts_with("practice is for small trees"),
        "{msg}"
    );
}
/// Max over two Min nodes: worth 3; its first leaf is the 3.
fn small() -> Tree {
    format::parse_expr("((3,12,8),(2,4,6))", false).unwrap()
}

fn clear_field(app: &mut App) {
    for _ in 0..200 {
        app.key(Key::parse("backspace").unwrap());
    }
}

fn first_leaf(t: &Tree) -> prune::tree::NodeId {
    t.child(t.child(t.root(), 0), 0)
}

#[test]
fn editing_a_leaf_searches_again_and_undo_redo_follow() {
    let mut a = app(small());
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    assert_eq!(a.runs()[0].run.value, Value::Scalar(3.0));
    let before = format::write(a.tree(), format::Format::Ron);
    a.select(first_leaf(a.tree()));
    keys(&mut a, &["E", "tab", "tab"]);
    clear_field(&mut a);
    typed(&mut a, "5");
    keys(&mut a, &["enter"]);
    assert_eq!(*a.mode(), Mode::Normal);
    assert_eq!(a.runs().len(), 1, "the run is searched again");
    assert_eq!(a.runs()[0].run.value, Value::Scalar(5.0));
    assert_eq!(
        a.selected(),
        first_leaf(a.tree()),
        "the edited node stays selected"
    );
    assert_eq!(a.tree().value(a.selected()), 5.0);
    let s = screen(&mut a, 110, 30);
    assert!(s.contains("edited #1.1"), "{s}");
    assert!(s.contains("(test) (unsaved changes) · 9 nodes"), "{s}");
    let after = format::write(a.tree(), format::Format::Ron);
    assert_ne!(after, before);

    keys(&mut a, &["u"]);
    assert_eq!(format::write(a.tree(), format::Format::Ron), before);
    assert_eq!(a.runs()[0].run.value, Value::Scalar(3.0));
    keys(&mut a, &["ctrl-r"]);
    assert_eq!(format::write(a.tree(), format::Format::Ron), after);
    assert_eq!(a.runs()[0].run.value, Value::Scalar(5.0));
    keys(&mut a, &["ctrl-r"]);
    assert_eq!(a.status().unwrap().0, "nothing to redo");
}

#[test]
fn adding_and_deleting_children_and_undoing_a_reorder() {
    let mut a = app(small());
    a.run_now(&[
        Algorithm::Minimax,
        Algorithm::AlphaBeta { fail_soft: false },
    ]);
    let before = format::write(a.tree(), format::Format::Ron);
    a.select(a.tree().child(a.tree().root(), 1));
    keys(&mut a, &["A"]);
    assert_eq!(a.tree().len(), 10);
    assert!(a.tree().is_leaf(a.selected()), "the new leaf is selected");
    // The new leaf is worth 0: the second Min node is now worth 0, the root still 3.
    assert_eq!(a.runs()[0].run.value, Value::Scalar(3.0));
    // Searched again after the edit, the runs show their ends (a new run opens at step 0).
    for r in a.runs() {
        assert_eq!(r.step, r.trace.len(), "{}", r.name());
    }
    keys(&mut a, &["p", "X"]);
    assert_eq!(a.tree().len(), 5);
    assert_eq!(a.selected(), a.tree().root());
    keys(&mut a, &["X"]);
    assert_eq!(a.status().unwrap().0, "the root cannot be deleted");
    keys(&mut a, &["u", "u"]);
    assert_eq!(format::write(a.tree(), format::Format::Ron), before);
    keys(&mut a, &["s", "right", "enter"]);
    assert_ne!(format::write(a.tree(), format::Format::Ron), before);
    assert_eq!(
        a.status().unwrap().0,
        "reordered worst first (u: original order): minimax 6 leaves, was 6; alphabeta 6 leaves, was 4"
    );
    keys(&mut a, &["u"]);
    assert_eq!(
        format::write(a.tree(), format::Format::Ron),
        before,
        "u gives the original order back"
    );
}

#[test]
fn saving_writes_a_file_that_loads_as_the_same_tree() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.ron");
    let mut a = app(small());
    a.select(first_leaf(a.tree()));
    keys(&mut a, &["E"]);
    clear_field(&mut a);
    typed(&mut a, "the three");
    keys(&mut a, &["enter"]);
    assert_eq!(a.tree().label(a.selected()), Some("the three"));
    // Not from a file: w asks for a path.
    keys(&mut a, &["w"]);
    assert!(matches!(a.mode(), Mode::Form(_)));
    clear_field(&mut a);
    typed(&mut a, &path.display().to_string());
    keys(&mut a, &["enter"]);
    assert_eq!(
        a.status().unwrap().0,
        format!("saved 9 nodes to {}", path.display())
    );
    assert!(!a.unsaved());
    let loaded = format::load(&path, None).unwrap();
    assert_eq!(
        format::write(&loaded, format::Format::Ron),
        format::write(a.tree(), format::Format::Ron)
    );
    // Now w saves there at once, with the next edit.
    keys(&mut a, &["X", "w"]);
    assert_eq!(*a.mode(), Mode::Normal);
    assert_eq!(format::load(&path, None).unwrap().len(), 8);
    // Save as: another existing file is not overwritten without a second Enter.
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "keep").unwrap();
    keys(&mut a, &["W"]);
    clear_field(&mut a);
    typed(&mut a, &other.display().to_string());
    keys(&mut a, &["enter"]);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep");
    keys(&mut a, &["enter"]);
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        format::write(a.tree(), format::Format::Bracket),
        "the extension chooses the format"
    );
    // A new name that names no format is refused, not written as RON by guess.
    let unnamed = dir.path().join("unnamed.xyz");
    keys(&mut a, &["W"]);
    clear_field(&mut a);
    typed(&mut a, &unnamed.display().to_string());
    keys(&mut a, &["enter"]);
    assert!(!unnamed.exists());
    let Mode::Form(f) = a.mode() else {
        panic!("the form stays open with the refusal")
    };
    let said = f.error.as_deref().unwrap_or("");
    assert!(said.contains("`.xyz` names no format"), "{said}");
}

#[test]
fn an_invalid_edit_is_refused_with_the_loaders_message() {
    let mut a = app(sample("ballard-figure-1.ron"));
    run_at_end(&mut a, &[Algorithm::Expectiminimax]);
    let before = format::write(a.tree(), format::Format::Ron);
    let y = a.tree().child(a.tree().root(), 1);
    a.select(a.tree().child(y, 0));
    keys(&mut a, &["E"]);
    insta::assert_snapshot!(screen(&mut a, 100, 24));
    keys(&mut a, &["up"]);
    typed(&mut a, "0.5");
    keys(&mut a, &["enter"]);
    let Mode::Form(f) = a.mode() else {
        panic!("the form stays open")
    };
    let err = f.error.clone().unwrap();
    assert!(
        err.contains("some children of this chance node have a probability and this one has none"),
        "{err}"
    );
    assert_eq!(format::write(a.tree(), format::Format::Ron), before);
    // A value out of the file's bounds, and a non-number.
    keys(&mut a, &["esc", "E", "tab", "tab"]);
    clear_field(&mut a);
    typed(&mut a, "99");
    keys(&mut a, &["enter"]);
    let Mode::Form(f) = a.mode() else {
        panic!("the form stays open")
    };
    assert!(
        f.error
            .as_ref()
            .unwrap()
            .contains("outside the declared bounds")
    );
    clear_field(&mut a);
    typed(&mut a, "abc");
    keys(&mut a, &["enter"]);
    let Mode::Form(f) = a.mode() else {
        panic!("the form stays open")
    };
    assert!(f.error.as_ref().unwrap().contains("not a number"));
    keys(&mut a, &["esc"]);
    assert_eq!(format::write(a.tree(), format::Format::Ron), before);
    assert_eq!(a.runs().len(), 1);
}

/// A Stats cell too long for its column ends in "…" and is never cut inside a number: a
/// table clips silently, and "β12" would read as 12 cutoffs where there are 1,234. With room
/// (200 columns) the cell is whole.
#[test]
fn a_cut_stats_cell_never_shows_part_of_a_number() {
    use prune::trace::columns::{PANEL, Scope};
    let (tree, _) =
        prune_cli::cli::generate::from_line("uniform -b 6 -d 6 --order random --seed 3").unwrap();
    let mut a = app(tree);
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    let col = PANEL.iter().find(|c| c.heading() == "cutoffs").unwrap();
    let scope = Scope {
        tree: a.tree(),
        minimal_leaves: None,
    };
    // The cell as the panel writes it: every count in thousands.
    let full = grouped(&col.of(&scope, &a.runs()[0].run).text());
    let w = usize::from(col.width);
    assert!(
        full.chars().count() > w,
        "a cell longer than its column's hint: {full}"
    );
    let row_of = |s: &str| {
        s.lines()
            .rfind(|l| l.contains("▶ alphabeta"))
            .unwrap()
            .to_owned()
    };
    let wide = row_of(&screen(&mut a, 200, 40));
    assert!(wide.contains(&format!(" {full} ")), "{wide}");
    let row = row_of(&screen(&mut a, 60, 30));
    let shown = (1..full.chars().count())
        .rev()
        .map(|n| prune_cli::tui::cut::cut(&full, n).into_owned())
        .find(|c| c.ends_with('…') && row.contains(&format!(" {c} ")))
        .unwrap_or_else(|| panic!("{full} cut visibly in {row}"));
    let kept = shown.trim_end_matches('…');
    assert!(
        !(full[kept.len()..].starts_with(|c: char| c.is_ascii_digit() || c == ',')
            && kept.ends_with(|c: char| c.is_ascii_digit() || c == ',')),
        "{kept} splits a number of {full}"
    );
}

/// `text` with every run of digits grouped in thousands (the Stats panel's counts).
fn grouped(text: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(&prune::text::thousands(digits.parse().unwrap()));
            digits.clear();
        }
        out.push(c);
    }
    out.pop();
    out
}

/// Six alpha-beta variants read `alphabeta -…` six times when cut from the end; the headers
/// say what differs instead.
#[test]
fn run_headers_stay_distinct_when_cut() {
    let specs = [
        "alphabeta",
        "alphabeta:fail-soft",
        "alphabeta:tt",
        "alphabeta:id",
        "alphabeta:killers",
        "alphabeta:history",
    ];
    let algos: Vec<Algorithm> = specs
        .iter()
        .map(|s| Algorithm::parse(s, &Default::default()).unwrap())
        .collect();
    use prune::generate::game::{GameSpec, generate};
    let mut a = app(generate(&GameSpec::TicTacToe { depth: Some(2) }).unwrap());
    a.run_now(&algos);
    assert_eq!(a.runs().len(), 6, "{:?}", a.status());
    let s = screen(&mut a, 200, 60);
    let header = s.lines().nth(2).unwrap();
    for h in [
        "αβ",
        "αβ:fail-soft",
        "αβ:tt",
        "αβ:id",
        "αβ:killers",
        "αβ:history",
    ] {
        assert!(header.contains(&format!(" {h} ")), "{h} in {header}");
    }
}

/// A chance node's probabilities are edited together (they must sum to 1, so one alone could
/// never change): `E` on the chance node or on any child shows them all with their sum as it
/// is typed; the even key (from the keymap) makes them equal; a bad sum is refused with the
/// loader's message and the tree unchanged.
#[test]
fn a_chance_nodes_probabilities_are_edited_together() {
    let tree = format::parse_expr("*(1/4:(1,2), 3/4:(3,4))", false).unwrap();
    let halves = format::parse_expr("*(1/2:(1,2), 1/2:(3,4))", false).unwrap();
    let mut a = app(tree);
    run_at_end(&mut a, &[Algorithm::Expectiminimax]);
    let before = format::write(a.tree(), format::Format::Bracket);
    // From a child: its label, kind, then both probabilities; 1/2 in the first breaks the sum.
    a.select(a.tree().child(a.tree().root(), 0));
    keys(&mut a, &["E", "tab", "tab"]);
    clear_field(&mut a);
    typed(&mut a, "1/2");
    let s = screen(&mut a, 100, 24);
    assert!(s.contains("sum 1.25, not 1 · C-e even"), "{s}");
    insta::assert_snapshot!("probabilities_as_typed", s);
    keys(&mut a, &["enter"]);
    let Mode::Form(f) = a.mode() else {
        panic!("the form stays open")
    };
    let err = f.error.clone().unwrap();
    assert!(
        err.contains("the probabilities of this chance node sum to 1.25, not 1"),
        "{err}"
    );
    assert_eq!(format::write(a.tree(), format::Format::Bracket), before);
    // The second one too: 1/2:1/2.
    keys(&mut a, &["tab"]);
    clear_field(&mut a);
    typed(&mut a, "0.5");
    assert!(screen(&mut a, 100, 24).contains("sum 1 · C-e even"));
    keys(&mut a, &["enter"]);
    assert_eq!(*a.mode(), Mode::Normal, "{:?}", a.status());
    assert_eq!(
        format::write(a.tree(), format::Format::Bracket),
        format::write(&halves, format::Format::Bracket)
    );
    assert_eq!(a.runs()[0].run.value, Value::Scalar(3.0));
    // From the chance node: the even key, whatever was there.
    keys(&mut a, &["u"]);
    a.select(a.tree().root());
    keys(&mut a, &["E", "ctrl-e", "enter"]);
    assert_eq!(*a.mode(), Mode::Normal, "{:?}", a.status());
    assert_eq!(
        format::write(a.tree(), format::Format::Bracket),
        format::write(&halves, format::Format::Bracket)
    );
}

/// The screen while the file named on the command line loads, with what the loader has done.
fn loading_app() -> App {
    let mut a = app(prune::examples::loading_tree("big.efg"));
    let progress = std::sync::Arc::new(format::LoadProgress::new(70_100_000));
    progress.read_bytes(70_100_000);
    progress.parsed_to(23_400_000);
    a.show_loading("big.efg".into(), progress);
    a
}

#[test]
fn the_loading_screen() {
    let mut a = loading_app();
    let s = screen(&mut a, 100, 24);
    assert!(
        s.contains("Loading big.efg — 23.4 MB of 70.1 MB (33 %)"),
        "{s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn esc_and_q_quit_the_loading_screen_and_other_keys_do_nothing() {
    for quit in ["esc", "q"] {
        let mut a = loading_app();
        for k in ["j", "enter", "a", "o"] {
            a.key(Key::parse(k).unwrap());
            assert!(!a.quitting(), "{k} quit");
            assert_eq!(*a.mode(), Mode::Normal, "{k} opened something");
        }
        a.key(Key::parse(quit).unwrap());
        assert!(a.quitting(), "{quit} did not quit");
    }
}

#[test]
fn the_first_load_ends_the_loading_screen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.ron");
    std::fs::write(&path, format::write(&default_tree(), format::Format::Ron)).unwrap();
    let mut a = app(prune::examples::loading_tree("t.ron"));
    a.load_first(path.clone(), vec![Algorithm::Minimax]);
    assert_eq!(a.first_load().map(|(p, _)| p.to_path_buf()), Some(path));
    a.wait();
    assert!(a.first_load().is_none());
    assert_eq!(a.tree().len(), default_tree().len());
    assert!(!screen(&mut a, 100, 24).contains("Loading"));
}

/// Issue 17: a run with iterative deepening steps iteration by iteration (`)` and `(`), and a
/// run with the transposition table jumps from hit to hit (`'`), each shown on the node.
#[test]
fn iterations_and_table_hits_are_steppable() {
    use prune::generate::game::{GameSpec, Heaps, generate};
    let game = generate(&GameSpec::TicTacToe { depth: Some(3) }).unwrap();
    let mut a = app(game);
    let id = Algorithm::parse("alphabeta:id:killers", &Default::default()).unwrap();
    a.run_now(&[id]);
    keys(&mut a, &["home", ")", ")"]);
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("iteration 2/3, depth 2"), "{s}");
    assert!(
        s.contains("iteration 2 of 3 begins: search to depth 2: positions there are valued by their heuristic"),
        "{s}"
    );
    keys(&mut a, &["("]);
    assert!(screen(&mut a, 100, 30).contains("iteration 1/3, depth 1"));
    keys(&mut a, &["end"]);
    insta::assert_snapshot!(screen(&mut a, 80, 24));

    let heaps = Heaps::new(&[1, 2, 3]).unwrap();
    let mut a = app(generate(&GameSpec::Nim { heaps, players: 2 }).unwrap());
    let tt = Algorithm::parse("alphabeta:tt", &Default::default()).unwrap();
    a.run_now(&[tt]);
    keys(&mut a, &["home", "'"]);
    let s = screen(&mut a, 120, 40);
    assert!(s.contains("the transposition table"), "{s}");
    // Up to the first hit that spares a search: the node shows ⇄ and Detail says why.
    for _ in 0..20 {
        if screen(&mut a, 120, 40).contains("settles the window") {
            break;
        }
        keys(&mut a, &["'"]);
    }
    let s = screen(&mut a, 120, 40);
    assert!(s.contains("settles the window; not searched"), "{s}");
    assert!(s.contains("⇄"), "{s}");
    assert!(s.contains("answered by the transposition table"), "{s}");
    insta::assert_snapshot!("table_hit", s);
}

/// The step in words is wrapped, not cut at the panel's edge: at 80×24 (two lines) and 120×40
/// (four), every step's narration of Star2 on Ballard's Figure 6 and of alpha-beta with a table,
/// iterative deepening and aspiration on connect-four is on screen whole wherever it fits in
/// those lines, and its beginning is there where it does not.
#[test]
fn the_narration_wraps_instead_of_being_cut() {
    use prune::generate::game::connect_four::Moves;
    use prune::generate::game::{GameSpec, generate};
    use prune::search::Params;
    use ratatui::widgets::{Paragraph, Wrap};
    let four = generate(&GameSpec::ConnectFour {
        depth: 3,
        moves: Moves::parse("44").unwrap(),
    })
    .unwrap();
    let improved = Algorithm::parse("alphabeta:tt:id:aspiration=1", &Params::default()).unwrap();
    let star2 = Algorithm::Star2 {
        probes: 1,
        rightmost: false,
        probe_always: false,
    };
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (mut whole, mut long) = (0, 0);
    for (tree, algo) in [(sample("ballard-figure-6.ron"), star2), (four, improved)] {
        let mut a = app(tree);
        a.run_now(&[algo]);
        keys(&mut a, &["home"]);
        let steps = a.runs()[0].trace.len();
        for k in 0..=steps {
            for (w, h, most) in [(80u16, 24u16, 2usize), (120, 40, 4)] {
                let said = a.runs()[0].describe(a.tree(), a.runs()[0].step);
                let s = screen(&mut a, w, h);
                // The stepper's rows, between its top border ("╭ Step") and its bottom one.
                let rows: Vec<&str> = s
                    .lines()
                    .skip_while(|l| !l.starts_with("╭ Step"))
                    .skip(1)
                    .take_while(|l| !l.starts_with('╰'))
                    .map(|l| l.trim_start_matches('│').trim_end_matches('│'))
                    .collect();
                let shown = words(&rows.join(" "));
                let lines = Paragraph::new(said.as_str())
                    .wrap(Wrap { trim: true })
                    .line_count(w - 2);
                if lines <= most {
                    assert_eq!(shown, words(&said), "step {k} at {w}×{h}");
                    whole += 1;
                } else {
                    assert_eq!(rows.len(), most, "step {k} at {w}×{h}");
                    let first = words(&said)
                        .split(' ')
                        .take(6)
                        .collect::<Vec<_>>()
                        .join(" ");
                    assert!(shown.starts_with(&first), "step {k} at {w}×{h}: {shown}");
                    long += 1;
                }
            }
            keys(&mut a, &["right"]);
        }
    }
    assert!(whole > 100, "{whole} whole narrations");
    eprintln!("{whole} narrations whole, {long} longer than the panel");
}

/// prune's alpha-beta run on `tree` as an engine's protocol lines (numbered from 2, after the
/// header).
fn engine_lines(tree: &Tree) -> Vec<prune::protocol::Line> {
    let algo = Algorithm::AlphaBeta { fail_soft: false };
    let (_, recorded) =
        prune::trace::record(tree, &algo, &std::sync::atomic::AtomicU64::new(0)).unwrap();
    prune::protocol::write::events(tree, &recorded)
        .into_iter()
        .enumerate()
        .map(|(i, event)| prune::protocol::Line {
            number: i + 2,
            text: String::new(),
            event,
        })
        .collect()
}

/// A trace of `lines` headed as "my-engine 0.3"'s fail-hard alpha-beta.
fn engine_trace(lines: Vec<prune::protocol::Line>) -> prune::protocol::Trace {
    prune::protocol::Trace {
        header: prune::protocol::Header {
            engine: "my-engine 0.3".into(),
            algorithm: "alphabeta".into(),
            claim: prune::protocol::Claim::FailHard,
            values: prune::protocol::Values::Minimax,
            leaves: prune::protocol::Leaves::Tree,
            mate: None,
        },
        lines,
    }
}

/// An engine's trace imported (`prune tui --import`): the run is named for the engine and its
/// claim, and opens at its first departure, the exit it got wrong; `!` comes back to it after
/// stepping away, and Detail says it on the departing node in the checker's words.
#[test]
fn an_imported_trace_opens_at_its_departure() {
    use prune::protocol::{check, import, write};
    use prune::trace::EventView;
    let tree = default_tree();
    let c1 = tree
        .ids()
        .find(|&n| tree.label(n) == Some("c1"))
        .expect("c1");
    let mut lines = engine_lines(&tree);
    // c1 returns 7: the engine says 6.
    let altered = lines
        .iter_mut()
        .find(|l| {
            matches!(&l.event, prune::protocol::Event::Exit { path, .. } if *path == write::path_of(&tree, c1))
        })
        .expect("c1's exit");
    if let prune::protocol::Event::Exit { value, .. } = &mut altered.event {
        *value = 6.0;
    }
    let trace = engine_trace(lines);
    let departure = check::check(&trace).departure.expect("a departure");
    let engine = import::import(&tree, &trace);
    let sentence = import::sentence(&departure);
    let run = prune_cli::tui::RunView::imported(
        &tree,
        engine,
        &trace.header,
        Some((departure.at(), sentence.clone())),
    );
    let mut a = app(tree.clone());
    a.push_run(run);
    a.say(import::sentence(&departure), true);
    let r = &a.runs()[0];
    assert_eq!(r.name(), "engine: my-engine 0.3 (alphabeta)");
    // It opens on the departing node, not on the root.
    assert_eq!(a.selected(), c1);
    // The last event applied is the departing exit.
    assert!(r.step > 0);
    match r.trace.event(r.step - 1).view() {
        EventView::Exit { node, value, .. } => assert_eq!((node, value), (c1, 6.0)),
        e => panic!("{e:?}"),
    }
    let s = screen(&mut a, 120, 30);
    assert!(s.contains("engine: my-engine 0.3 (alphabeta)"), "{s}");
    assert!(s.contains("departure at c › c1"), "{s}");
    // Away to the end and to the root, then `!`: back at the departing exit, c1 selected,
    // and Detail (the status bar now empty) quotes the checker's sentence.
    let at = a.runs()[0].step;
    keys(&mut a, &["end", "g"]);
    assert_eq!(a.runs()[0].step, a.runs()[0].trace.len());
    let away = screen(&mut a, 120, 40);
    assert!(!away.contains("departure at c › c1"), "{away}");
    keys(&mut a, &["!"]);
    assert_eq!(a.runs()[0].step, at);
    assert_eq!(a.selected(), c1);
    assert_eq!(a.status(), None);
    let back: String = screen(&mut a, 120, 40)
        .lines()
        .map(|l| l.rsplit('│').nth(1).unwrap_or("").trim().to_owned() + " ")
        .collect();
    assert!(
        back.contains("departure at c › c1: the engine returns 6 (exact); the rule: fail-hard"),
        "{back}"
    );
    assert!(sentence.starts_with("departure at c › c1: the engine returns 6 (exact)"));
}

/// An engine's imported run beside prune's run of the same algorithm: both headers name the
/// algorithm the same way (the engine's adds its name), never `alphabeta` beside `αβ`.
#[test]
fn an_imported_run_names_its_algorithm_as_prunes_run_does() {
    use prune::protocol::import;
    let tree = default_tree();
    let algo = Algorithm::AlphaBeta { fail_soft: false };
    let trace = engine_trace(engine_lines(&tree));
    let engine = import::import(&tree, &trace);
    let mut a = app(tree.clone());
    run_at_end(&mut a, std::slice::from_ref(&algo));
    a.push_run(prune_cli::tui::RunView::imported(
        &tree,
        engine,
        &trace.header,
        None,
    ));
    // No departure: it opens at step 0 on the root.
    assert_eq!(a.selected(), tree.root());
    for (w, h) in [(200, 60), (80, 24)] {
        let s = screen(&mut a, w, h);
        let header = s.lines().nth(2).unwrap();
        assert!(!header.contains("alphabeta"), "{header}");
        assert!(header.contains("  αβ "), "prune's run: {header}");
        assert!(header.contains("▶ αβ (my-eng"), "the engine's: {header}");
    }
}

/// `!` on a run of prune's own, which has no departure, says so and moves nothing.
#[test]
fn the_departure_key_without_an_imported_run_says_so() {
    let mut a = app(default_tree());
    keys(&mut a, &["r", "down", "enter", "enter"]);
    assert_eq!(a.runs().len(), 1, "{:?}", a.status());
    keys(&mut a, &["!"]);
    assert_eq!(a.runs()[0].step, 0);
    let said = a.status().expect("a message").0;
    assert!(said.starts_with("no departure here"), "{said}");
}

/// `prune tui --check-config` refuses a keymap.ron that binds a key twice in one context (the
/// same name twice, or two spellings of one key), naming the file, the line and column, the
/// key and both actions; the same key in another context is no conflict.
#[test]
fn check_config_refuses_a_key_bound_twice() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("prune");
    std::fs::create_dir_all(&config).unwrap();
    let check = |keymap: &str| {
        std::fs::write(config.join("keymap.ron"), keymap).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
            .args(["tui", "--check-config"])
            .env("XDG_CONFIG_HOME", dir.path())
            .output()
            .unwrap()
    };
    for (keymap, want) in [
        (
            "{\n    \"x\": Up,\n    \"n\": StepForward,\n    \"x\": Down,\n}\n",
            "keymap.ron: 4:",
        ),
        (
            "{\n    \"pgdn\": Down,\n    \"pagedown\": PageDown,\n}\n",
            "keymap.ron: 3:",
        ),
    ] {
        let out = check(keymap);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{keymap}: {err}");
        assert!(err.contains(want), "{keymap}: {err}");
        assert!(
            err.contains("bound twice in the outline"),
            "{keymap}: {err}"
        );
    }
    let err = String::from_utf8_lossy(&check("{ \"x\": Up, \"x\": Down }").stderr).into_owned();
    assert!(err.contains("`x` to Up, then `x` to Down"), "{err}");
    let out = check("{ \"x\": Up, \"list:x\": Down, \"input:x\": Confirm }");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
