//! The explorer's diagram view on `TestBackend` (issue 28 §2): the principal variation marked
//! without colour, zoom levels and panning over a tree wider and taller than the screen, and
//! practice's leaves never evaluated marked on the diagram with its cursor.

use prune::search::Algorithm;
use prune::tree::Tree;
use prune_cli::cli::default_tree;
use prune_cli::tui::App;
use prune_cli::tui::app::Event;
use prune_cli::tui::keymap::Keymap;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

fn app(tree: Tree) -> App {
    crate::common::explorer(tree)
}

/// Draws `app` on a `w`×`h` test terminal: the buffer, and the screen as text.
fn draw(app: &mut App, w: u16, h: u16) -> (Buffer, String) {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        let hit = prune_cli::tui::draw::draw(f, app);
        app.update(prune_cli::tui::app::Event::Drawn(hit));
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    let out = crate::common::buffer_text(&buf);
    (buf, out)
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    draw(app, w, h).1
}

use crate::common::{keys, run_at_end};

/// A uniform tree of `b` children a node, `d` levels deep.
fn uniform(b: u32, d: u32) -> Tree {
    let p = prune::generate::uniform::Uniform {
        branching: b,
        depth: d,
        values: prune::generate::Values::integers(0, 99),
        order: prune::generate::uniform::Order::Random,
    };
    prune::generate::uniform::generate(&p, 7).unwrap()
}

/// The text of the cells `x0..x1` of row `y`.
fn cells(buf: &Buffer, y: u16, xs: std::ops::Range<u16>) -> String {
    xs.map(|x| buf[(x, y)].symbol()).collect()
}

/// Where `text` first starts on the screen from row `top`: (column, row).
fn find(buf: &Buffer, text: &str, top: u16) -> Option<(u16, u16)> {
    let n = text.chars().count() as u16;
    (top..buf.area.height).find_map(|y| {
        (0..buf.area.width.saturating_sub(n))
            .find(|&x| cells(buf, y, x..x + n) == text)
            .map(|x| (x, y))
    })
}

/// Whether every cell of `text`, found on the screen, has `m`.
fn all_have(buf: &Buffer, text: &str, m: Modifier) -> bool {
    let (x, y) = find(buf, text, 0).unwrap_or_else(|| panic!("{text} not on screen"));
    (x..x + text.chars().count() as u16).all(|x| buf[(x, y)].modifier.contains(m))
}

/// The principal variation (root, c, c1, its leaf 7 on the default tree) is drawn
/// with `┃` edges and bold cards — no colour needed — as the outline marks it: at every step,
/// not while practising.
#[test]
fn the_principal_variation_is_marked_without_colour() {
    let mut a = app(default_tree());
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D"]);
    let pv = a.runs()[0].run.pv.clone();
    assert_eq!(pv.len(), 4, "{pv:?}");
    let (buf, small) = draw(&mut a, 80, 24);
    insta::assert_snapshot!("pv_at_80x24", small);
    // The root and c are bold, a and b are not; one edge (root to c) is drawn `┃`.
    assert!(all_have(&buf, "▶●+", Modifier::BOLD), "{small}");
    assert!(all_have(&buf, "●− c", Modifier::BOLD), "{small}");
    assert!(!all_have(&buf, "●− a", Modifier::BOLD), "{small}");
    assert!(!all_have(&buf, "●− b", Modifier::BOLD), "{small}");
    // (The title's legend has one more.)
    assert_eq!(small.matches('┃').count(), 2, "{small}");
    let (x, y) = find(&buf, "┃", 2).unwrap();
    assert!(cells(&buf, y + 1, x - 3..x + 2).contains("− c"), "{small}");
    assert!(
        small.contains("· ┃ PV "),
        "the title names the mark: {small}"
    );
    // The whole tree: three edges down to the leaf, the legend in full.
    let (buf, big) = draw(&mut a, 200, 60);
    insta::assert_snapshot!("pv_at_200x60", big);
    assert_eq!(big.matches('┃').count(), 4, "{big}");
    assert!(big.contains("· ┃ principal variation "), "{big}");
    assert!(all_have(&buf, "●+ c1", Modifier::BOLD), "{big}");
    assert!(!all_have(&buf, "●+ c2", Modifier::BOLD), "{big}");
    // Halfway through the search the outline marks it, and so does the diagram.
    keys(&mut a, &["home", "right", "right", "right"]);
    let (buf, mid) = draw(&mut a, 200, 60);
    assert!(mid.contains("step 3/29"), "{mid}");
    // The three edges, and the lines down from cards shorter than their level's.
    assert!(mid.matches('┃').count() >= 4, "{mid}");
    assert!(all_have(&buf, "− c", Modifier::BOLD), "{mid}");
    assert!(!all_have(&buf, "− b", Modifier::BOLD), "{mid}");
    // Practising, it would give the answers away.
    keys(&mut a, &["T"]);
    assert!(a.practice().is_some());
    let s = screen(&mut a, 200, 60);
    assert!(!s.contains('┃'), "{s}");
}

/// The rows of the diagram panel's inside, `w`×`rows` from the screen's second row and column.
fn panel(buf: &Buffer, w: usize, rows: usize) -> Vec<String> {
    (2..2 + rows as u16)
        .map(|y| cells(buf, y, 1..1 + w as u16))
        .collect()
}

/// A b=10 d=3 tree, 1,000 leaves: at the `whole` zoom, every node is in the picture, and
/// panning right shows it all, each window the very columns of `prune draw`'s picture.
#[test]
fn panning_reads_a_tree_wider_than_the_screen() {
    for (w, h) in [(80u16, 24u16), (200, 60)] {
        let tree = uniform(10, 3);
        let sizes = tree.subtree_sizes();
        let whole = prune::draw::picture(
            &tree,
            &sizes,
            None,
            &prune::draw::Options {
                root: tree.root(),
                depth: Some(3),
                width: prune_cli::tui::zoom::WHOLE_WIDTH,
            },
        );
        assert_eq!(whole.elided(), 0);
        assert_eq!(whole.nodes().count(), 1111);
        let n = whole.width;
        assert!(n > 4 * usize::from(w), "{n}");
        let lines: Vec<Vec<char>> = prune::draw::text::lines(&whole)
            .iter()
            .map(|l| l.chars().collect())
            .collect();
        let mut a = app(tree);
        keys(&mut a, &["D", "Z"]);
        assert_eq!(a.status().map(|s| s.0), Some("diagram zoom: 4× wide"));
        keys(&mut a, &["Z"]);
        draw(&mut a, w, h);
        // The panel's inside, as the last frame laid it out (Detail beside it when wide).
        let (inner, rows) = a.diagram_view().window();
        assert!(inner < n && rows >= 10, "{inner}×{rows}");
        let mut seen = vec![false; n];
        let mut x = 0;
        loop {
            let (buf, s) = draw(&mut a, w, h);
            let hint = format!(
                "Z zoom: whole · columns {}–{} of {n} · C-←→↑↓ pan",
                x + 1,
                (x + inner).min(n)
            );
            assert!(s.contains(&hint), "{hint}\n{s}");
            for (row, got) in panel(&buf, inner, rows).iter().enumerate() {
                let want: String = lines
                    .get(row)
                    .map(|l| l.iter().skip(x).take(inner).collect())
                    .unwrap_or_default();
                assert_eq!(got.trim_end(), want.trim_end(), "row {row} from column {x}");
            }
            seen[x..(x + inner).min(n)].fill(true);
            if x + inner >= n {
                break;
            }
            keys(&mut a, &["ctrl-right"]);
            x = (x + inner / 2).min(n - inner);
        }
        assert!(seen.iter().all(|&s| s));
        // Back to the start, the other way.
        while a.diagram_view().offset().0 > 0 {
            keys(&mut a, &["ctrl-b"]);
        }
        assert!(screen(&mut a, w, h).contains(&format!("columns 1–{inner} of {n}")));
    }
}

/// With a run, cards take three lines and the picture is taller than the panel: the window
/// pans down; stepping through the whole search, the step's node `▶` is always in view.
#[test]
fn the_window_pans_down_and_follows_the_step() {
    let mut a = app(uniform(10, 3));
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D", "Z", "Z", "end"]);
    // At the end the step's node is the root, in the middle of the top row: the window
    // centres it. (docs/EXPLORER.md quotes this line.)
    let s = screen(&mut a, 80, 24);
    assert!(
        s.contains("╰ Z zoom: whole · columns 2407–2484 of 4892 · rows 1–13 of 16 · C-←→↑↓ pan ─"),
        "{s}"
    );
    keys(&mut a, &["ctrl-down"]);
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("rows 4–16 of 16"), "{s}");
    keys(&mut a, &["home"]);
    let steps = a.runs()[0].trace.len();
    for k in 1..=steps {
        keys(&mut a, &["right"]);
        let (buf, s) = draw(&mut a, 80, 24);
        let (w, rows) = a.diagram_view().window();
        assert!(
            panel(&buf, w, rows).iter().any(|r| r.contains('▶')),
            "step {k}: {s}"
        );
    }
}

#[test]
fn zoom_and_pan_need_the_diagram() {
    let mut a = app(default_tree());
    keys(&mut a, &["Z"]);
    assert_eq!(
        a.status().map(|s| s.0),
        Some("zoom and pan move the diagram view: D shows it")
    );
    assert_eq!(a.diagram_view().zoom(), prune_cli::tui::zoom::Zoom::Fit);
    // The help lists the new keys, from the keymap.
    let help = Keymap::default().help();
    let view: Vec<(String, &str)> = help.into_iter().find(|(g, _)| *g == "View").unwrap().1;
    for (keys, what) in [
        ("Z", "diagram zoom: fit, 4× wide, whole"),
        ("C-b C-←", "diagram: pan left"),
        ("C-f C-→", "diagram: pan right"),
        ("C-p C-↑", "diagram: pan up"),
        ("C-n C-↓", "diagram: pan down"),
    ] {
        assert!(view.contains(&(keys.to_owned(), what)), "{keys}: {view:?}");
    }
}

/// Practice's first question, the leaves alpha-beta never evaluates, answered on the diagram:
/// ← → move the cursor (reverse video) from leaf to leaf, Space (or a click) marks one (`✗`),
/// and the answer is judged as the outline's marks are.
#[test]
fn practice_marks_leaves_on_the_diagram() {
    let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
    let mut a = app(tree);
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D", "T"]);
    let (buf, s) = draw(&mut a, 80, 24);
    assert!(
        s.contains("Enter answer · ← → choose a leaf · Space mark it"),
        "{s}"
    );
    assert!(s.contains("╰ zoom: whole ─"), "{s}");
    // The cursor starts on the first leaf.
    assert!(all_have(&buf, "·3", Modifier::REVERSED), "{s}");
    assert!(!all_have(&buf, "·12", Modifier::REVERSED), "{s}");
    keys(&mut a, &["right", "right", "right", "right", "space"]);
    keys(
        &mut a,
        &["right", "space", "right", "space", "space", "left"],
    );
    let p = a.practice().unwrap();
    assert_eq!(p.input(), "#2.2, #2.3");
    let (buf, s) = draw(&mut a, 80, 24);
    insta::assert_snapshot!("practice_on_the_diagram_at_80x24", s);
    assert!(s.contains("✗4  ✗6  ·14"), "{s}");
    assert!(all_have(&buf, "✗6", Modifier::REVERSED), "{s}");
    assert!(s.contains("> #2.2, #2.3"), "{s}");
    // A click on a leaf, as in the Berkeley tool, marks it too and moves the cursor there; a
    // second click unmarks it.
    let (x, y) = find(&buf, "·12", 0).unwrap();
    a.update(Event::Click(x + 1, y));
    assert_eq!(a.practice().unwrap().input(), "#2.2, #2.3, #1.2");
    let (buf, s) = draw(&mut a, 80, 24);
    assert!(all_have(&buf, "✗12", Modifier::REVERSED), "{s}");
    a.update(Event::Click(x, y));
    assert_eq!(a.practice().unwrap().input(), "#2.2, #2.3");
    // A click beside the cards does nothing.
    a.update(Event::Click(x, y + 3));
    assert_eq!(a.practice().unwrap().input(), "#2.2, #2.3");
    let big = screen(&mut a, 200, 60);
    insta::assert_snapshot!("practice_on_the_diagram_at_200x60", big);
    keys(&mut a, &["enter"]);
    let s = screen(&mut a, 80, 24);
    assert_eq!(a.practice().unwrap().session().score(), "1/1 correct");
    assert!(s.contains("right: #2.2, #2.3"), "{s}");
    // The next question is not about leaves: no cursor, no marks, the outline's hint.
    assert!(!s.contains('✗') && !s.contains("choose a leaf"), "{s}");
}

/// 64 leaves, five screens wide at 80 columns: the cursor walks them all and the window keeps
/// it in view; a wrong set of marks is judged wrong.
#[test]
fn the_practice_cursor_stays_in_view() {
    let mut a = app(uniform(4, 3));
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D", "T"]);
    assert!(a.practice().unwrap().leaves_asked().is_some());
    for k in 0..64 {
        let (buf, s) = draw(&mut a, 80, 24);
        let reversed = (2..15u16)
            .flat_map(|y| (1..79u16).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(x, y)].modifier.contains(Modifier::REVERSED))
            .count();
        assert!(reversed >= 2, "leaf {k}: {s}");
        keys(&mut a, &["right"]);
    }
    let last = a.diagram_view().cursor().unwrap();
    assert_eq!(
        Some(last),
        a.tree().ids().filter(|&n| a.tree().is_leaf(n)).last()
    );
    keys(&mut a, &["space", "enter"]);
    assert_eq!(a.practice().unwrap().session().score(), "0/1 correct");
}

/// Two runs compared (`d`), two diagrams: the current run's leads the window (the other's
/// step's node elsewhere), the other shows the same columns, and a pan stays from frame to
/// frame.
#[test]
fn with_two_diagrams_a_pan_stays() {
    let mut a = app(uniform(10, 3));
    run_at_end(&mut a, &[Algorithm::AlphaBeta { fail_soft: false }]);
    // The other run halfway, its step's node not the root.
    let mut other = prune_cli::tui::RunView::new(a.tree(), Algorithm::NegaScout).unwrap();
    other.step = other.trace.len() / 2;
    a.push_run(other);
    keys(&mut a, &["D", "d", "Z", "Z"]);
    let s = screen(&mut a, 80, 24);
    assert_eq!(s.matches("Diagram").count(), 2, "{s}");
    let (x0, _) = a.diagram_view().offset();
    let (w, _) = a.diagram_view().window();
    keys(&mut a, &["ctrl-right"]);
    let s = screen(&mut a, 80, 24);
    screen(&mut a, 80, 24);
    assert_eq!(a.diagram_view().offset().0, x0 + w / 2);
    let hint = format!("columns {}–{} of", x0 + w / 2 + 1, x0 + w / 2 + w);
    assert_eq!(s.matches(&hint).count(), 2, "{hint}\n{s}");
}

/// A pan at the `whole` zoom draws a slice of the picture kept from the frame before, laid out
/// once (issue 40: every frame laid out a subtree of up to 8,192 columns again); what it
/// draws is what laying the picture out again draws. A step, a zoom or another subtree lays
/// out a new picture.
#[test]
fn a_pan_slices_the_picture_kept() {
    let mut a = app(uniform(10, 3));
    a.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    keys(&mut a, &["D", "Z", "Z", "end"]);
    screen(&mut a, 80, 24);
    let pans = [
        "ctrl-right",
        "ctrl-right",
        "ctrl-down",
        "ctrl-left",
        "ctrl-up",
    ];
    for pan in pans {
        let made = a.diagram_pictures_made();
        keys(&mut a, &[pan]);
        let kept = screen(&mut a, 80, 24);
        assert_eq!(a.diagram_pictures_made(), made, "{pan} laid out a picture");
        // Laid out again, the picture draws the same.
        a.forget_diagram_pictures();
        assert_eq!(screen(&mut a, 80, 24), kept, "after {pan}");
        assert_eq!(a.diagram_pictures_made(), made + 1);
    }
    let made = a.diagram_pictures_made();
    let before = screen(&mut a, 80, 24);
    keys(&mut a, &["left"]);
    let stepped = screen(&mut a, 80, 24);
    assert_eq!(
        a.diagram_pictures_made(),
        made + 1,
        "a step lays out its picture"
    );
    assert_ne!(stepped, before);
    keys(&mut a, &["Z"]);
    screen(&mut a, 80, 24);
    assert_eq!(a.diagram_pictures_made(), made + 2, "so does a zoom");
}
