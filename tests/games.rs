//! `prune gen game`: the trees of real games against figures known from elsewhere — tic-tac-toe's
//! node count and value (OpenSpiel's game tree), nim's values (the Sprague–Grundy rule), Pig's
//! node counts and values (OpenSpiel's `pig`).

use std::process::Command;

use prune::format::{self, Format};
use prune::generate::Spec;
use prune::generate::game::{Game, Heaps};
use prune::search::{self, Algorithm, Value};
use prune::tree::{NodeId, Tree};

fn root_value(tree: &Tree, algo: &Algorithm) -> f64 {
    match search::run(tree, algo).expect("search").value {
        Value::Scalar(v) => v,
        v => panic!("not a scalar: {v}"),
    }
}

fn prune(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .expect("run prune");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn tic_tac_toe_has_openspiels_549946_nodes_and_value_0() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ron");
    let file = file.to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "game", "tic-tac-toe", "-o", file])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let info = prune(&["info", "--json", file]);
    assert_eq!(info["nodes"], 549_946);
    assert_eq!(info["leaves"], 255_168);
    assert_eq!(info["depth"], 9);
    let run = prune(&["run", "alphabeta", file, "--json"]);
    assert_eq!(run["value"], 0.0);
}

#[test]
fn tic_tac_toe_leaves_by_outcome() {
    let t = Spec::Game(Game::TicTacToe { depth: None })
        .build(1)
        .unwrap();
    let count = |v: f64| t.ids().filter(|&i| t.is_leaf(i) && t.value(i) == v).count();
    // The well-known counts of finished games: 131,184 won by X, 77,904 by O, 46,080 drawn.
    assert_eq!(count(1.0), 131_184);
    assert_eq!(count(-1.0), 77_904);
    assert_eq!(count(0.0), 46_080);
    // After X in a corner and O on the adjacent edge, X wins.
    let a1 = t.child(t.root(), 0);
    let b1 = t.child(a1, 0);
    assert_eq!(t.label(b1), Some("O b1"));
    fn minimax(t: &Tree, id: prune::tree::NodeId) -> f64 {
        if t.is_leaf(id) {
            return t.value(id);
        }
        let vs = t.children(id).map(|c| minimax(t, c));
        if t.kind(id) == prune::tree::Kind::Max {
            vs.fold(f64::NEG_INFINITY, f64::max)
        } else {
            vs.fold(f64::INFINITY, f64::min)
        }
    }
    assert_eq!(minimax(&t, b1), 1.0);
    assert_eq!(minimax(&t, t.root()), 0.0);
}

#[test]
fn nim_values_follow_sprague_grundy() {
    let sets: &[&[u32]] = &[
        &[1, 2, 3, 4],
        &[1, 2, 3],
        &[3, 5],
        &[2, 2],
        &[1, 4, 5],
        &[7],
        &[1, 1, 1],
        &[2, 3, 3],
        &[1, 5, 6],
        &[0, 3, 3],
    ];
    for heaps in sets {
        let t = Spec::Game(Game::Nim {
            heaps: Heaps::new(heaps).unwrap(),
        })
        .build(1)
        .unwrap();
        let xor = heaps.iter().fold(0, |a, &h| a ^ h);
        let want = if xor != 0 { 1.0 } else { -1.0 };
        for algo in [
            Algorithm::AlphaBeta { fail_soft: false },
            Algorithm::NegaScout,
        ] {
            assert_eq!(root_value(&t, &algo), want, "{heaps:?} with {algo}");
        }
    }
}

#[test]
fn nim_refuses_what_cannot_fit_before_building() {
    let err = Spec::Game(Game::Nim {
        heaps: Heaps::new(&[10, 10, 10, 10]).unwrap(),
    })
    .build(1)
    .unwrap_err();
    assert!(err.to_string().contains("2^40"), "{err}");
}

/// Pig against OpenSpiel 2.0.2: for each `pig(winscore, diceoutcomes, horizon)`, the number of
/// states of the full game tree (terminal and chance states included) and player 0's expected
/// return under expectiminimax, both from a traversal of `pyspiel.load_game("pig", {...})`
/// (the script is in docs/FORMAT.md, "Games").
const OPENSPIEL_PIG: &[((u32, u32, u32), usize, f64)] = &[
    ((6, 3, 8), 31940, 0.20484682213077277),
    ((2, 2, 6), 220, 0.34375),
    ((4, 2, 10), 32860, 0.142578125),
    ((5, 4, 7), 13802, 0.3818359375),
    ((3, 6, 6), 1444, 0.6745113168724279),
];

#[test]
fn pig_matches_openspiel() {
    for &((win, dice, horizon), nodes, want) in OPENSPIEL_PIG {
        let t = Spec::Game(Game::Pig { win, dice, horizon })
            .build(1)
            .unwrap();
        assert_eq!(t.len(), nodes, "pig({win}, {dice}, {horizon})");
        for algo in [
            Algorithm::Expectiminimax,
            Algorithm::Star1 { rightmost: false },
            Algorithm::Star2 {
                probes: 1,
                probe_always: false,
                rightmost: false,
            },
        ] {
            let got = root_value(&t, &algo);
            assert!(
                (got - want).abs() < 1e-12,
                "pig({win}, {dice}, {horizon}) with {algo}: {got}, OpenSpiel gives {want}"
            );
        }
    }
}

/// The node reached from the root by the moves labelled `path`.
fn follow(t: &Tree, path: &[&str]) -> NodeId {
    path.iter().fold(t.root(), |at, want| {
        t.children(at)
            .find(|&c| t.label(c) == Some(want))
            .unwrap_or_else(|| panic!("no move {want} below {at}"))
    })
}

fn tic_tac_toe(depth: Option<u32>) -> Tree {
    Spec::Game(Game::TicTacToe { depth }).build(1).unwrap()
}

#[test]
fn tic_tac_toe_transpositions_share_keys() {
    let t = tic_tac_toe(None);
    assert!(t.has_keys());
    let a = follow(&t, &["X a1", "O b1", "X c1", "O b2"]);
    let b = follow(&t, &["X c1", "O b2", "X a1", "O b1"]);
    assert_ne!(a, b);
    assert_eq!(t.key(a), t.key(b));
    assert_ne!(t.key(a), t.key(t.parent(a).unwrap()));
    // The same cells with the marks swapped are another position.
    let c = follow(&t, &["X b1", "O a1", "X b2", "O c1"]);
    assert_ne!(t.key(a), t.key(c));
    // Every node has a key, and the keys are the 5,478 legal positions of tic-tac-toe.
    assert!(t.ids().all(|i| t.key(i).is_some()));
    assert_eq!(t.distinct_keys(), Some(5478));
}

#[test]
fn tic_tac_toe_heuristic_counts_open_lines() {
    let t = tic_tac_toe(None);
    assert!(t.has_heuristics());
    for id in t.ids() {
        assert_eq!(t.heuristic(id).is_some(), !t.is_leaf(id), "{id}");
    }
    assert_eq!(t.heuristic(t.root()), Some(0.0));
    // X in the centre: X keeps all 8 lines open, O only the 4 not through it.
    assert_eq!(t.heuristic(follow(&t, &["X b2"])), Some(0.4));
    assert_eq!(t.heuristic(follow(&t, &["X a1"])), Some(0.3));
    assert_eq!(t.heuristic(follow(&t, &["X a1", "O b2"])), Some(-0.1));
    // Wins (±1) outweigh every heuristic value.
    assert!(
        t.ids()
            .filter_map(|i| t.heuristic(i))
            .all(|h| h.abs() <= 0.8)
    );
}

#[test]
fn depth_limited_tic_tac_toe() {
    // 1, 9, 9·8, … positions per level until the first win (X's third mark, move 5).
    for (depth, nodes) in [(0, 1), (1, 10), (2, 82), (3, 586), (4, 3610), (5, 18730)] {
        let t = tic_tac_toe(Some(depth));
        assert_eq!(t.len(), nodes, "depth {depth}");
        assert_eq!(t.height(), depth as usize);
    }
    let t = tic_tac_toe(Some(2));
    // A position at the cut is a leaf worth its heuristic value, and keeps its key.
    let cut = follow(&t, &["X a1", "O b2"]);
    assert!(t.is_leaf(cut));
    assert_eq!(t.value(cut), -0.1);
    assert_eq!(t.heuristic(cut), None);
    assert_eq!(t.key(cut), Some(1 | 1 << (9 + 4)));
    assert_eq!(t.heuristic(follow(&t, &["X a1"])), Some(0.3));
    // Deep enough, the limit changes nothing.
    let full = tic_tac_toe(None);
    let nine = tic_tac_toe(Some(9));
    assert_eq!(nine.len(), full.len());
    assert_eq!(
        nine.ids().map(|i| nine.value(i)).collect::<Vec<_>>(),
        full.ids().map(|i| full.value(i)).collect::<Vec<_>>()
    );
    // Minimax to depth 6 already sees X's wins after 5 moves; the root is even at 0.
    let six = tic_tac_toe(Some(6));
    assert!(six.ids().any(|i| six.is_leaf(i) && six.value(i) == 1.0));
    assert_eq!(
        root_value(&six, &Algorithm::AlphaBeta { fail_soft: false }),
        root_value(&six, &Algorithm::Minimax)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "game", "tic-tac-toe", "--depth", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let t = format::parse(
        "-",
        String::from_utf8(out.stdout).unwrap().into(),
        Format::Ron,
    )
    .unwrap();
    assert_eq!((t.len(), t.leaf_count()), (10, 9));
}

#[test]
fn nim_and_pig_positions_have_keys() {
    let t = Spec::Game(Game::Nim {
        heaps: Heaps::new(&[1, 2, 3]).unwrap(),
    })
    .build(1)
    .unwrap();
    // 1,2,3 → 1,2,2 → 1,1,2 and 1,2,3 → 1,1,3 → 1,1,2: the same heaps, Max to move.
    let a = follow(&t, &["take 1 from heap 3", "take 1 from heap 2"]);
    let b = follow(&t, &["take 1 from heap 2", "take 1 from heap 3"]);
    assert_eq!(t.key(a), t.key(b));
    // 1,2,1 and 1,0,3 differ; 0,2,2 (via heap 1 then 3) and 0,2,2 (via heap 3 then 1) do not.
    let c = follow(&t, &["take 2 from heap 3"]);
    let d = follow(&t, &["take 2 from heap 2"]);
    assert_ne!(t.key(c), t.key(d));
    let e = follow(&t, &["take 1 from heap 1", "take 1 from heap 3"]);
    let f = follow(&t, &["take 1 from heap 3", "take 1 from heap 1"]);
    assert_eq!(t.key(e), t.key(f));
    assert_ne!(t.key(a), t.key(e));
    // The side to move is part of the position.
    let g = follow(&t, &["take 3 from heap 3"]);
    let h = follow(&t, &["take 1 from heap 3", "take 2 from heap 3"]);
    assert_ne!(t.key(g), t.key(h));
    assert!(!t.has_heuristics());
    let pig = Spec::Game(Game::Pig {
        win: 6,
        dice: 3,
        horizon: 8,
    })
    .build(1)
    .unwrap();
    assert!(pig.has_keys() && !pig.has_heuristics());
    // Stop, stop: player 1 to move with nothing banked, as at the start, but two decisions
    // nearer the horizon: another position.
    let ss = follow(&pig, &["stop", "stop"]);
    assert_ne!(pig.key(ss), pig.key(pig.root()));
    // Player 1 rolls a 1 and player 2 stops, or player 1 stops and player 2 rolls a 1: the same
    // position (player 1 to move, nothing banked, two decisions made).
    let x = follow(&pig, &["roll", "rolled 1", "stop"]);
    let y = follow(&pig, &["stop", "roll", "rolled 1"]);
    assert_eq!(pig.key(x), pig.key(y));
    assert!(pig.distinct_keys().unwrap() < pig.len());
}

#[test]
fn keys_and_heuristics_survive_ron_and_reordering() {
    let t = tic_tac_toe(Some(4));
    let text = format::write(&t, Format::Ron);
    let back = format::parse("t.ron", text.into(), Format::Ron).unwrap();
    assert_eq!(back, t);
    let r = t.reordered(|t, id| (0..t.child_count(id)).rev().collect());
    let moved = follow(&r, &["X c3", "O b3"]);
    let orig = follow(&t, &["X c3", "O b3"]);
    assert_eq!(
        (r.key(moved), r.heuristic(moved)),
        (t.key(orig), t.heuristic(orig))
    );
    // `.efg` has no place for them: the export works and reads back without them.
    let efg = format::parse("t.efg", format::write(&t, Format::Efg).into(), Format::Efg).unwrap();
    assert_eq!(efg.len(), t.len());
    assert!(!efg.has_keys() && !efg.has_heuristics());
}

#[test]
fn trees_without_keys_are_unchanged() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/trees");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let t = format::parse("t.ron", text.into(), Format::Ron).unwrap();
        assert!(!t.has_keys() && !t.has_heuristics(), "{path:?}");
        assert_eq!(t.distinct_keys(), None);
        let written = format::write(&t, Format::Ron);
        assert!(!written.contains("key:") && !written.contains("heuristic:"));
        assert_eq!(
            format::parse("t.ron", written.into(), Format::Ron).unwrap(),
            t
        );
        n += 1;
    }
    assert!(n >= 10);
    let info = prune(&["info", "--json", &format!("{dir}/default.ron")]);
    assert_eq!(info["keyed_nodes"], 0);
    assert_eq!(info["distinct_keys"], serde_json::Value::Null);
    assert_eq!(info["heuristic_nodes"], 0);
}

#[test]
fn info_counts_transpositions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.ron");
    let file = file.to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "game", "tic-tac-toe", "--depth", "4", "-o", file])
        .output()
        .unwrap();
    assert!(out.status.success());
    let info = prune(&["info", "--json", file]);
    assert_eq!(info["nodes"], 3610);
    assert_eq!(info["keyed_nodes"], 3610);
    // Positions after k moves: C(9,⌈k/2⌉)·C(9−⌈k/2⌉,⌊k/2⌋) = 1 + 9 + 72 + 252 + 756.
    assert_eq!(info["distinct_keys"], 1090);
    assert_eq!(info["heuristic_nodes"], 1 + 9 + 72 + 504);
}
