//! A game searched from its rules agrees with the same game written out: for every algorithm
//! that applies, the lazy search and the search of `game::tree` at the same depth return the
//! same value, the same statistics and the same trace, event for event, the nodes named by
//! their paths from the root (the two trees number their nodes differently: breadth first,
//! and in the order the search reached them).

use prune::game::run::{self as game_run, GameRunError};
use prune::game::{self, Game, Lazy, connect_four, nim, pig, tic_tac_toe};
use prune::search::{Algorithm, Params};
use prune::trace::Recorder;
use prune::tree::{NodeId, Nodes, Tree};

/// Node `id`'s path: its child positions from the root.
fn path<T: Nodes>(tree: &T, mut id: NodeId) -> Vec<u32> {
    let mut path = Vec::new();
    while let Some(p) = tree.parent(id) {
        path.push(id.0 - tree.child(p, 0).0);
        id = p;
    }
    path.reverse();
    path
}

/// The trace as (node path, event with its node ids blanked), comparable across numberings.
fn told<T: Nodes>(tree: &T, trace: &prune::trace::Trace) -> Vec<(Vec<u32>, String)> {
    let ids = regex_free_blank;
    trace
        .events()
        .iter()
        .map(|e| (path(tree, e.node()), ids(&format!("{:?}", e.view()))))
        .collect()
}

/// `NodeId(17)` → `NodeId(_)`.
fn regex_free_blank(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("NodeId(") {
        out.push_str(&rest[..i + 7]);
        rest = &rest[i + 7..];
        let j = rest.find(')').expect("closing parenthesis");
        out.push('_');
        rest = &rest[j..];
    }
    out.push_str(rest);
    out
}

fn algorithm(spec: &str) -> Algorithm {
    Algorithm::parse(spec, &Params::default()).expect(spec)
}

/// Checks every spec on `game` at `depth`: lazily and written out.
fn agree<G: Game>(game: &G, depth: u32, specs: &[&str]) {
    let tree: Tree = game::tree(game, Some(depth)).expect("the game's tree");
    for spec in specs {
        let algo = algorithm(spec);
        let lazy = match game_run::prepare(game, &algo, depth) {
            Ok(l) => l,
            Err(e) => panic!("{spec} on {}: {e}", game.name()),
        };
        let mut lazy_obs = Recorder::new(0);
        let (found, _) = game_run::search(&lazy, &algo, &mut lazy_obs).expect("lazy search");
        let mut stored_obs = Recorder::new(tree.len());
        let (stored, _) = prune::search::search(&tree, &algo, &mut stored_obs).expect(spec);
        let what = format!("{spec} on {} to depth {depth}", game.name());
        assert_eq!(found, stored, "{what}: value");
        let (lazy_trace, lazy_stats) = lazy_obs.finish();
        let (stored_trace, stored_stats) = stored_obs.finish();
        assert_eq!(lazy_stats, stored_stats, "{what}: statistics");
        let (a, b) = (told(&lazy, &lazy_trace), told(&tree, &stored_trace));
        if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
            panic!(
                "{what}: traces differ at event {i}: {:?} vs {:?}",
                a[i], b[i]
            );
        }
        assert_eq!(a.len(), b.len(), "{what}: trace lengths");
        assert!(
            lazy.len() <= tree.len(),
            "{what}: the lazy tree generated {} nodes, more than the game's {}",
            lazy.len(),
            tree.len()
        );
    }
}

/// The drafts of a transposition table's entries and of the history heuristic's rewards are
/// capped by the subtree's height on a stored tree, which a lazy tree cannot know before the
/// search: on games whose lines all reach the depth limit (tic-tac-toe and connect-four at the
/// depths below) the two agree; on nim, whose games end early, only the value must (below).
const TWO_PLAYER: &[&str] = &[
    "minimax",
    "alphabeta",
    "alphabeta:fail-soft",
    "negascout",
    "negascout-ab",
    "sss",
    "mtdf",
    "alphabeta:killers",
    "negascout:killers",
];

const ORDERED: &[&str] = &["alphabeta:history", "negascout:killers:history"];

#[test]
fn tic_tac_toe_agrees() {
    agree(&tic_tac_toe::TicTacToe, 4, TWO_PLAYER);
    agree(&tic_tac_toe::TicTacToe, 4, ORDERED);
    agree(
        &tic_tac_toe::TicTacToe,
        4,
        &["alphabeta:id", "negascout:id", "mtdf:id"],
    );
}

#[test]
fn connect_four_agrees_to_depth_6() {
    let game = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    agree(&game, 6, TWO_PLAYER);
    agree(&game, 6, ORDERED);
    agree(&game, 6, &["alphabeta:id:killers:history", "negascout:id"]);
}

#[test]
fn nim_agrees() {
    let game = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    agree(&game, 6, TWO_PLAYER);
}

#[test]
fn n_player_nim_agrees() {
    let game = nim::Nim::new(&[1, 2, 3], 3).unwrap();
    agree(&game, 6, &["maxn", "maxn-shallow", "paranoid"]);
}

#[test]
fn pig_agrees() {
    let game = pig::Pig::new(4, 2, 4).unwrap();
    agree(&game, 40, &["expectiminimax", "star1", "star2"]);
}

/// A transposition table keys its entries by position and draft. A stored tree's draft is
/// capped by the subtree's height, which a lazy tree cannot know (as are the history
/// heuristic's rewards), and a written-out tree mixes the depth into the keys of positions met
/// at several depths: the two tables hit at different times, so only the value must agree.
#[test]
fn a_transposition_table_finds_the_same_value() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let nim = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    let specs = [
        "alphabeta:tt",
        "alphabeta:tt:id",
        "negascout:tt:id:killers",
        "mtdf:tt:id",
    ];
    for spec in specs {
        same_value(&c4, spec, 5);
    }
    same_value(&nim, "alphabeta:tt", 6);
    same_value(&nim, "negascout:tt:killers", 6);
    same_value(&nim, "alphabeta:history", 6);
    same_value(&nim, "negascout:killers:history", 6);
}

fn same_value<G: Game>(game: &G, spec: &str, depth: u32) {
    let algo = algorithm(&format!("{spec}:depth={depth}"));
    let lazy = game_run::run(game, &algo, depth).expect("lazy run");
    let tree = game::tree(game, Some(depth)).unwrap();
    let stored = prune::search::run(&tree, &algo).expect("stored run");
    assert_eq!(lazy.value, stored.value, "{spec} on {}", game.name());
}

#[test]
fn a_lazy_search_generates_only_what_it_reaches() {
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    let algo = algorithm("alphabeta");
    let lazy: Lazy<'_, _> = game_run::prepare(&c4, &algo, 6).unwrap();
    game_run::search(&lazy, &algo, &mut prune::search::Quiet).unwrap();
    let whole = game::count(&c4, Some(6), u64::MAX).unwrap() as usize;
    // Alpha-beta reaches a small share of the 137,257 positions six moves deep.
    assert!(lazy.len() * 4 < whole, "{} of {whole}", lazy.len());
    assert!(
        lazy.waiting() > 0,
        "pruned children keep their positions, unexpanded"
    );
}

#[test]
fn a_game_search_names_its_move() {
    let game = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    let run = game_run::run(&game, &algorithm("alphabeta"), 6).unwrap();
    // 1 ^ 2 ^ 3 = 0: the first player loses whatever it does, and every move is worth −1.
    assert_eq!(run.value.scalar(), Some(-1.0));
    assert_eq!(run.best.map(|(i, _)| i), Some(0));
    let game = nim::Nim::new(&[1, 2, 4], 2).unwrap();
    let run = game_run::run(&game, &algorithm("alphabeta"), 7).unwrap();
    assert_eq!(run.value.scalar(), Some(1.0));
    let (_, label) = run.best.expect("a winning move");
    assert!(
        label.contains("heap 3"),
        "take from the heap of 4 to leave 1 ^ 2 ^ 3: {label}"
    );
}

#[test]
fn refusals_say_why() {
    fn refused<G: Game>(game: &G, spec: &str, depth: u32) -> String {
        match game_run::run(game, &algorithm(spec), depth) {
            Err(GameRunError::Refused(why)) => why,
            other => panic!("{spec}: {other:?}"),
        }
    }
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    assert!(refused(&c4, "product", 2).contains("not built yet"));
    assert!(refused(&c4, "sss", 9).contains("at most 8 plies"));
    let pig = pig::Pig::new(4, 2, 4).unwrap();
    // Pig's first position is a decision: its chance positions show up during the search.
    match game_run::run(&pig, &algorithm("alphabeta"), 40) {
        Err(GameRunError::Game(e)) => assert!(e.to_string().contains("chance"), "{e}"),
        other => panic!("{other:?}"),
    }
    let nim3 = nim::Nim::new(&[1, 2], 3).unwrap();
    assert!(refused(&nim3, "alphabeta", 4).contains("3 players"));
}

/// Nim's games last at most 6 moves (it says so: `Game::longest`), so a horizon of 3 is
/// refused before the search.
#[test]
fn a_game_without_a_heuristic_must_be_over_at_the_horizon() {
    let nim = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    match game_run::run(&nim, &algorithm("minimax"), 3) {
        Err(GameRunError::Refused(why)) => assert!(why.contains("no heuristic value"), "{why}"),
        other => panic!("{other:?}"),
    }
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
        app.scene.push_run(r);
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
    let tree = std::sync::Arc::clone(&app.scene.doc.tree);
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
