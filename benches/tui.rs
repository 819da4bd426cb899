//! The explorer on a 10^6-leaf tree (issue targets: first frame ≤ 1 s after load, each keypress
//! redrawn in ≤ 16 ms, stepping backward as fast as forward; the diagram at its `whole` zoom
//! ≤ 100 ms a key).
//!
//! `cargo bench --bench tui`. A "keypress" is the action plus a full redraw on a 200×60
//! `TestBackend`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use prune::generate::{Values, uniform};
use prune::search::Algorithm;
use prune_cli::tui::app::Event;
use prune_cli::tui::keymap::{Action, Keymap};
use prune_cli::tui::theme::Theme;
use prune_cli::tui::{App, RunView};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The binary's allocator (huge pages, as the measured runs of `prune` have them).
#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

fn big_tree() -> prune::tree::Tree {
    // b = 10, d = 6: 1 111 111 nodes, 10^6 leaves.
    let p = uniform::Uniform {
        branching: 10,
        depth: 6,
        values: Values::integers(0, 999),
        order: uniform::Order::Random,
    };
    uniform::generate(&p, 3).expect("generate")
}

fn themes() -> Vec<Theme> {
    prune_cli::tui::theme::available(None).0
}

fn draw(term: &mut Terminal<TestBackend>, app: &mut App) {
    term.draw(|f| {
        let hit = prune_cli::tui::draw::draw(f, app);
        app.update(Event::Drawn(hit));
    })
    .expect("draw");
}

fn bench(c: &mut Criterion) {
    let tree = big_tree();
    let mut g = c.benchmark_group("explorer 1.1e6 nodes");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("first frame (App::new + draw)", |b| {
        b.iter(|| {
            let mut app = App::new(tree.clone(), "bench".into(), Keymap::default(), themes());
            let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
            draw(&mut term, &mut app);
            black_box(app.hit().height)
        })
    });
    let mut app = App::new(tree.clone(), "bench".into(), Keymap::default(), themes());
    // At their ends, as these figures were first measured (a run opens at step 0).
    for algo in [
        Algorithm::AlphaBeta { fail_soft: false },
        Algorithm::NegaScout,
        Algorithm::Minimax,
    ] {
        let mut r = RunView::new(app.tree(), algo).expect("it applies");
        r.step = r.trace.len();
        app.push_run(r);
    }
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    draw(&mut term, &mut app);
    g.bench_function("redraw, 3 runs", |b| b.iter(|| draw(&mut term, &mut app)));
    // Pairs of actions that undo each other, so every iteration starts from the same state.
    let pairs: [(&str, Action, Action); 5] = [
        ("down/up", Action::Down, Action::Up),
        ("page down/up", Action::PageDown, Action::PageUp),
        ("step back/forward", Action::StepBack, Action::StepForward),
        ("last/first row", Action::Bottom, Action::Top),
        ("collapse/expand", Action::Collapse, Action::Expand),
    ];
    assert_eq!(app.current(), 2, "minimax: 2.2·10^6 events");
    app.update(Action::StepStart);
    for _ in 0..1_000 {
        app.update(Action::StepForward);
    }
    for (name, a, b) in pairs {
        g.bench_function(format!("2 keypresses: {name}"), |bch| {
            bch.iter(|| {
                app.update(a);
                draw(&mut term, &mut app);
                app.update(b);
                draw(&mut term, &mut app);
            })
        });
    }
    app.update(Action::NextRun); // round to alpha-beta
    app.update(Action::StepStart);
    g.bench_function("2 keypresses: next/previous cutoff", |bch| {
        bch.iter(|| {
            app.update(Action::NextCutoff);
            draw(&mut term, &mut app);
            app.update(Action::PrevCutoff);
            draw(&mut term, &mut app);
        })
    });
    app.update(Action::VisitedOnly);
    app.update(Action::FoldPruned);
    g.bench_function("2 keypresses: page down/up, visited only + folded", |bch| {
        bch.iter(|| {
            app.update(Action::PageDown);
            draw(&mut term, &mut app);
            app.update(Action::PageUp);
            draw(&mut term, &mut app);
        })
    });
    g.finish();
}

/// The diagram of a root of 40,000 leaves (once 8 s, the explorer frozen): laid out in what
/// the panel shows, not in the children.
fn wide_diagram(c: &mut Criterion) {
    let p = uniform::Uniform {
        branching: 40_000,
        depth: 1,
        values: Values::integers(0, 999),
        order: uniform::Order::Random,
    };
    let tree = uniform::generate(&p, 3).expect("generate");
    let mut app = App::new(tree, "bench".into(), Keymap::default(), themes());
    app.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    app.update(Action::StepEnd);
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    app.update(Action::Diagram);
    let mut g = c.benchmark_group("explorer, a root of 40,000 children");
    g.sample_size(10);
    g.bench_function("diagram redraw", |b| b.iter(|| draw(&mut term, &mut app)));
    g.finish();
}

/// The diagram at the `whole` zoom on the 1.1·10^6-node tree at 200×60, alpha-beta at its end:
/// a pan (the kept picture sliced), the same pan with the picture laid out again at every key
/// (as before pictures were kept), a step (a new picture), and where a step's time goes —
/// laying the picture out and writing it as text. Issue target: ≤ 100 ms a key.
fn whole_diagram(c: &mut Criterion) {
    use prune_cli::tui::keymap::Key;
    let mut app = App::new(big_tree(), "bench".into(), Keymap::default(), themes());
    app.run_now(&[Algorithm::AlphaBeta { fail_soft: false }]);
    let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut press = |app: &mut App, k: &str| {
        app.key(Key::parse(k).expect("a key"));
        app.wait();
        draw(&mut term, app);
    };
    for k in ["D", "Z", "Z", "end"] {
        press(&mut app, k);
    }
    let mut g = c.benchmark_group("explorer 1.1e6 nodes, diagram at whole zoom");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("2 keypresses: pan right/left, picture kept", |b| {
        b.iter(|| {
            press(&mut app, "ctrl-right");
            press(&mut app, "ctrl-left");
        })
    });
    g.bench_function(
        "2 keypresses: pan right/left, picture laid out again",
        |b| {
            b.iter(|| {
                app.forget_diagram_pictures();
                press(&mut app, "ctrl-right");
                app.forget_diagram_pictures();
                press(&mut app, "ctrl-left");
            })
        },
    );
    g.bench_function("2 keypresses: step back/forward, pictures kept", |b| {
        b.iter(|| {
            press(&mut app, "left");
            press(&mut app, "right");
        })
    });
    // A step to where no picture is kept (the first visit of a step) lays one out.
    g.bench_function("2 keypresses: step back/forward, each a new picture", |b| {
        b.iter(|| {
            app.forget_diagram_pictures();
            press(&mut app, "left");
            app.forget_diagram_pictures();
            press(&mut app, "right");
        })
    });
    let r = &app.runs()[0];
    let at = prune::draw::At::with_index(app.tree(), &r.run, &r.trace, &r.index, r.step);
    let opts = prune::draw::Options {
        root: app.tree().root(),
        depth: Some(prune_cli::tui::zoom::DEEPEST.min(app.tree().height())),
        width: prune_cli::tui::zoom::WHOLE_WIDTH,
    };
    let sizes = app.tree().subtree_sizes();
    g.bench_function("a step's picture: laid out", |b| {
        b.iter(|| black_box(prune::draw::picture(app.tree(), &sizes, Some(&at), &opts).width))
    });
    let pic = prune::draw::picture(app.tree(), &sizes, Some(&at), &opts);
    g.bench_function("a step's picture: written as text", |b| {
        b.iter(|| black_box(prune::draw::text::lines(&pic).len()))
    });
    g.finish();
}

criterion_group!(benches, bench, wide_diagram, whole_diagram);
criterion_main!(benches);
