//! `prune gen game`: the trees of real games against figures known from elsewhere — tic-tac-toe's
//! node count and value (OpenSpiel's game tree), nim's values (the Sprague–Grundy rule), Pig's
//! node counts and values (OpenSpiel's `pig`).

use std::process::Command;

use prune::generate::Spec;
use prune::generate::game::{Game, Heaps};
use prune::search::{self, Algorithm, Value};
use prune::tree::Tree;

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
    let t = Spec::Game(Game::TicTacToe).build(1).unwrap();
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
