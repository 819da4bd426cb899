//! A game searched from its rules, through the command line and the explorer (the lazy search
//! itself is tested beside it, in the library: crates/prune/src/game/run/tests.rs).

use prune::game::run as game_run;
use prune::game::{self, connect_four};
use prune::search::{Algorithm, Params};
use prune::trace::Recorder;
use prune::tree::NodeId;

fn algorithm(spec: &str) -> Algorithm {
    Algorithm::parse(spec, &Params::default()).expect(spec)
}

/// The command line: its exit code, standard output and standard error.
fn prune(args: &[&str]) -> (i32, String, String) {
    let out = crate::common::prune(args);
    let code = out.status.code().unwrap_or(-1);
    (
        code,
        crate::common::stdout(&out),
        crate::common::stderr(&out),
    )
}

#[test]
fn run_searches_chess_from_its_rules() {
    let (code, out, err) = prune(&[
        "run", "minimax", "--game", "chess", "--depth", "3", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // perft(3) from the start position.
    assert_eq!(json["stats"]["leaves"], 8902);
    assert_eq!(json["game"], "chess");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, err) = prune(&[
        "run",
        "alphabeta",
        "--game",
        "chess",
        "--fen",
        kiwipete,
        "--depth",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("best move: ") || out.contains("best moves: "),
        "{out}"
    );
}

#[test]
fn run_on_a_game_says_what_it_needs() {
    let (code, _, err) = prune(&["run", "alphabeta", "--game", "connect-four"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --depth"), "{err}");
    let (code, _, err) = prune(&["run", "alphabeta", "--game", "checkers", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown game") && err.contains("connect-four"),
        "{err}"
    );
    let (code, _, err) = prune(&["run", "alphabeta", "--game", "conect-four", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean \"connect-four\"?"), "{err}");
    let (code, _, err) = prune(&["info", "--game", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("--gen 'game chess"), "{err}");
    let (code, out, err) = prune(&[
        "run",
        "maxn",
        "--game",
        "nim",
        "--players",
        "3",
        "--heaps",
        "1,2",
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value: ("), "{out}");
}

#[test]
fn compare_puts_a_games_searches_side_by_side() {
    let args = [
        "compare",
        "--game",
        "connect-four",
        "--depth",
        "5",
        "--algos",
    ];
    let algos = "minimax,alphabeta:tt,negascout:tt:id,sss,mtdf:tt:id,product";
    let (code, out, err) = prune(&[&args[..], &[algos]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("connect-four from its rules, 5 moves deep"),
        "{out}"
    );
    assert!(
        out.contains("product: product on a game"),
        "the refusal under the table: {out}"
    );
    let (code, out, err) = prune(&[&args[..], &[algos, "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    let minimax = &rows[0];
    for row in &rows[1..5] {
        assert_eq!(row["value"], minimax["value"], "{row}");
        assert!(
            row["stats"]["leaves"].as_u64() < minimax["stats"]["leaves"].as_u64(),
            "{row}"
        );
    }
    assert!(rows[5]["error"].is_string());
}

/// The searched tree keeps the lazy tree's ids: a search that needs no draft (every one but
/// those with a transposition table, history or iterative deepening) replays on it event for
/// event, and no run enters a position whose moves were never generated (iterative deepening
/// evaluates some by their heuristic, at the value the searched tree gives them, and a
/// transposition table answers some).
#[test]
fn the_searched_tree_replays_every_run() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let specs = [
        "alphabeta",
        "negascout",
        "sss",
        "mtdf",
        "alphabeta:tt:id:killers:history",
    ];
    let algos: Vec<Algorithm> = specs
        .iter()
        .map(|s| algorithm(&format!("{s}:depth=6")))
        .collect();
    let recorded = game_run::record(&c4, &algos, 6).unwrap();
    let tree = &recorded.tree;
    assert!(
        tree.meta().description.contains("not expanded"),
        "{}",
        tree.meta().description
    );
    let stub = |id: NodeId| {
        tree.label(id)
            .is_some_and(|l| l.ends_with("(not expanded)"))
    };
    assert!(
        tree.ids().any(stub),
        "alpha-beta prunes: some positions are never expanded"
    );
    for (algo, r) in &recorded.runs {
        let (run, trace) = r.as_ref().expect("connect-four takes them all");
        for e in trace.events() {
            match e.view() {
                prune::trace::EventView::Leaf { node, value } if stub(node) => {
                    assert_eq!(value, tree.value(node), "{algo}: a heuristic evaluation");
                }
                // A transposition-table entry may answer a position without its moves.
                prune::trace::EventView::TableHit { cut: true, .. } => {}
                v => assert!(
                    !stub(e.node()),
                    "{algo}: {v:?} names a position not expanded"
                ),
            }
        }
        assert_eq!(run.pv.first(), Some(&tree.root()));
        // SSS*'s and MTD(f)'s traces leave few nodes with an exact value: their variations
        // may stop at the move.
        let least = if ["sss", "mtdf"].contains(&algo.name()) {
            2
        } else {
            3
        };
        assert!(
            run.pv.len() >= least,
            "{algo}: a principal variation {:?}",
            run.pv
        );
        for w in run.pv.windows(2) {
            assert_eq!(
                tree.parent(w[1]),
                Some(w[0]),
                "{algo}: the variation is a path"
            );
        }
        if algo.improvements().is_some_and(|w| w.reorders()) {
            continue;
        }
        let mut again = Recorder::new(tree.len());
        let (found, _) = prune::search::search(tree, algo, &mut again)
            .expect("the searched tree takes what the game took");
        let (trace_again, stats) = again.finish();
        assert_eq!(found.value, run.value, "{algo}");
        assert_eq!(stats, run.stats, "{algo}");
        assert_eq!(trace_again.events(), trace.events(), "{algo}");
    }
}

#[test]
fn the_explorer_opens_a_games_searched_tree() {
    use prune_cli::tui::{App, RunView, keymap::Keymap, theme::Theme};
    use ratatui::{Terminal, backend::TestBackend};
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let algos = [
        algorithm("alphabeta:depth=4"),
        algorithm("negascout:tt:depth=4"),
    ];
    let recorded = game_run::record(&c4, &algos, 4).unwrap();
    let runs: Vec<RunView> = recorded
        .runs
        .into_iter()
        .map(|(a, r)| {
            let (run, trace) = r.unwrap();
            RunView::recorded(&recorded.tree, a, run, trace)
        })
        .collect();
    let mut app = App::new(
        recorded.tree,
        "connect-four from its rules, depth 4 (searched tree)".into(),
        Keymap::default(),
        vec![Theme::monochrome()],
    );
    for r in runs {
        app.push_run(r);
    }
    let screen = |app: &App| {
        let mut term = Terminal::new(TestBackend::new(200, 40)).unwrap();
        term.draw(|f| {
            prune_cli::tui::draw::draw(f, app);
        })
        .unwrap();
        let buf = term.backend().buffer().clone();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    + "\n"
            })
            .collect::<String>()
    };
    let text = screen(&app);
    assert!(text.contains("from its rules"), "{text}");
    assert!(
        text.contains("drop col"),
        "the moves label the outline: {text}"
    );
    assert!(
        text.contains("alphabeta") && text.contains("negascout"),
        "{text}"
    );
    // Detail's value of a node with unexpanded positions below is the searched tree's, and says
    // so with their number; a node whose subtree was searched in full has its true value.
    let tree = app.tree();
    let stubs = |id: prune::tree::NodeId| {
        tree.ids()
            .filter(|&n| {
                tree.is_leaf(n)
                    && tree
                        .label(n)
                        .is_some_and(|l| l.ends_with(game::lazy::NOT_EXPANDED))
                    && tree.path_to(n).contains(&id)
            })
            .count()
    };
    let root = tree.root();
    let full = tree
        .ids()
        .find(|&n| !tree.is_leaf(n) && stubs(n) == 0)
        .expect("alpha-beta searched some node to the end");
    let partial = stubs(root);
    assert!(partial > 0, "alpha-beta left some positions unexpanded");
    app.select(root);
    let text = screen(&app);
    assert!(
        text.contains("tree value") && text.contains(&format!("{partial} unexpanded below")),
        "{text}"
    );
    app.select(full);
    let text = screen(&app);
    assert!(
        text.contains("true value") && !text.contains("unexpanded below"),
        "{text}"
    );
}

/// check-trace takes a game too: its tree written out to the engine's depth.
#[test]
fn check_trace_takes_a_game_written_out() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().unwrap();
    let (code, _, err) = prune(&[
        "run",
        "alphabeta",
        "--gen",
        "game connect-four --depth 3",
        "--trace",
        t,
        "--trace-format",
        "protocol",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = prune(&["check-trace", t, "--game", "connect-four", "--depth", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    // The same trace against a deeper search of the game: its leaves are not the game's leaves.
    let (code, out, err) = prune(&["check-trace", t, "--game", "connect-four", "--depth", "4"]);
    assert_eq!(code, 1, "{out}{err}");
    let (code, _, err) = prune(&["check-trace", t, "--game", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --depth"), "{err}");
}

/// A game's search from its rules writes its trace on the tree it searched: prune's own schema,
/// or the protocol, which check-trace then finds consistent with the game written out.
#[test]
fn run_on_a_game_writes_its_trace() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().unwrap();
    let search = [
        "run",
        "alphabeta",
        "--game",
        "connect-four",
        "--depth",
        "4",
        "--trace",
        t,
    ];
    let (code, out, err) = prune(&[&search[..], &["--trace-format", "protocol"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("best move: drop col") || out.contains("best moves: drop col"),
        "{out}"
    );
    let (code, out, err) = prune(&["check-trace", t, "--game", "connect-four", "--depth", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, err) = prune(&search);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(t).unwrap();
    assert!(
        text.lines().count() > 100,
        "prune's own trace, a line an event"
    );
}

/// `--threads N` runs Lazy SMP: the serial value, and says its statistics are summed over the
/// threads (text and JSON); `compare` too.
#[test]
fn threads_search_the_serial_value_and_say_the_counts_are_summed() {
    let args = [
        "run",
        "alphabeta",
        "--game",
        "connect-four",
        "--depth",
        "6",
        "--tt",
        "--id",
        "--killers",
        "--history",
        "--json",
    ];
    let (code, serial, err) = prune(&args);
    assert_eq!(code, 0, "{err}");
    let serial: serde_json::Value = serde_json::from_str(&serial).unwrap();
    assert!(serial.get("threads").is_none());
    let mut threaded = args.to_vec();
    threaded.extend(["--threads", "2"]);
    let (code, out, err) = prune(&threaded);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["value"], serial["value"]);
    assert_eq!(json["threads"], 2);
    assert_eq!(json["stats_summed_over_threads"], true);
    threaded.pop();
    threaded.pop();
    threaded.retain(|a| *a != "--json");
    threaded.extend(["--threads", "4"]);
    let (code, out, err) = prune(&threaded);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value: 0 (exact)"), "{out}");
    assert!(
        out.contains("threads: 4 (Lazy SMP;") && out.contains("summed"),
        "{out}"
    );
    let (code, out, err) = prune(&[
        "compare",
        "--game",
        "tic-tac-toe",
        "--algos",
        "alphabeta,mtdf",
        "--tt",
        "--id",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("threads: 2 (Lazy SMP;"), "{out}");
}

/// Each command exits 2 with one message that says what it is paired with.
fn each_refused(cases: &[(&[&str], &str)]) {
    for (args, says) in cases {
        let (code, out, err) = prune(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one message: {err}");
    }
}

/// `--threads` is refused, with exit 2 and one message, where it does not apply: algorithms
/// the walk does not run on a shared table, recorded runs, a game written out.
#[test]
fn threads_are_refused_where_they_do_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.jsonl");
    let t = t.to_str().unwrap();
    let (code, _, err) = prune(&[
        "run",
        "alphabeta",
        "--gen",
        "game tic-tac-toe --depth 2",
        "--trace",
        t,
        "--trace-format",
        "protocol",
    ]);
    assert_eq!(code, 0, "{err}");
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "run",
                "alphabeta",
                "--game",
                "connect-four",
                "--depth",
                "4",
                "--threads",
                "2",
            ],
            "it needs alphabeta, negascout or mtdf with --tt",
        ),
        (
            &["run", "sss", "--game", "tic-tac-toe", "--threads", "2"],
            "not sss",
        ),
        (
            &[
                "compare",
                "--game",
                "tic-tac-toe",
                "--algos",
                "alphabeta,minimax",
                "--tt",
                "--threads",
                "2",
            ],
            "not minimax",
        ),
        (
            &[
                "run",
                "alphabeta",
                "--game",
                "tic-tac-toe",
                "--tt",
                "--threads",
                "2",
                "--dot",
                "-",
            ],
            "--threads does not apply to a recorded search",
        ),
        (
            &[
                "check-trace",
                t,
                "--game",
                "tic-tac-toe",
                "--threads",
                "2",
                "--depth",
                "2",
            ],
            "--threads does not apply to a game's tree written out",
        ),
    ];
    each_refused(&cases);
    // One thread is the serial search, recorded or not.
    let (code, _, err) = prune(&[
        "run",
        "alphabeta",
        "--game",
        "tic-tac-toe",
        "--depth",
        "3",
        "--threads",
        "1",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
}

/// `--hash MB` bounds the table of a walked search with a table, on one thread or shared: the
/// value and the best moves are the same at any size (a small table only searches more), the
/// JSON says the size; it is refused, with one message, where no walked table takes it.
#[test]
fn hash_bounds_the_table_and_never_changes_the_value() {
    let args = [
        "run",
        "alphabeta",
        "--game",
        "connect-four",
        "--depth",
        "9",
        "--tt",
        "--id",
        "--json",
    ];
    let json = |extra: &[&str]| {
        let mut all = args.to_vec();
        all.extend(extra);
        let (code, out, err) = prune(&all);
        assert_eq!(code, 0, "{extra:?}: {err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let roomy = json(&[]);
    assert!(roomy.get("hash_mb").is_none());
    for extra in [&["--hash", "1"][..], &["--hash", "1", "--threads", "2"]] {
        let small = json(extra);
        assert_eq!(small["hash_mb"], 1, "{extra:?}");
        for field in ["value", "best_moves", "pv"] {
            assert_eq!(small[field], roomy[field], "{extra:?}: {field}");
        }
    }
    // 1 MB holds about 7,000 entries: this search stores more, forgets, and searches again.
    let small = json(&["--hash", "1"]);
    assert!(small["stats"]["nodes"].as_u64() > roomy["stats"]["nodes"].as_u64());
    let cases: [(&[&str], &str); 3] = [
        (
            &["run", "alphabeta", "--game", "tic-tac-toe", "--hash", "8"],
            "--hash sizes the transposition table of a search walked depth first: it needs alphabeta, negascout or mtdf with --tt, not alphabeta",
        ),
        (
            &[
                "compare",
                "--game",
                "tic-tac-toe",
                "--algos",
                "alphabeta,sss",
                "--tt",
                "--hash",
                "8",
            ],
            "not sss",
        ),
        (
            &[
                "run",
                "alphabeta",
                "--game",
                "tic-tac-toe",
                "--tt",
                "--hash",
                "8",
                "--dot",
                "-",
            ],
            "--hash does not apply to a recorded search",
        ),
    ];
    each_refused(&cases);
}
