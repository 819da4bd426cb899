//! Chess from its rules (`cozy-chess`): written-out trees checked against perft, the move
//! generator's standard counts, and every two-player algorithm and improvement checked against
//! minimax on positions from seeded random games.

use std::process::Command;

use prune::game::chess::{Chess, START};
use prune::game::{self, Game};
use prune::generate::Rng;
use prune::search::{self, Algorithm, Params};
use prune::tree::Tree;

use crate::common::{IMPROVED, scalar_value as value};

/// Kiwipete, the perft position with castling, en passant and promotions in reach.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn tree(fen: &str, depth: u32) -> Tree {
    game::tree(&Chess::new(fen).unwrap(), Some(depth)).unwrap()
}

/// The leaves minimax evaluates.
fn minimax_leaves(tree: &Tree) -> u64 {
    search::run(tree, &Algorithm::Minimax)
        .expect("minimax runs")
        .stats
        .leaves
}

#[test]
fn minimax_leaves_are_perft_from_the_start() {
    let counts: Vec<u64> = (1..=4).map(|d| minimax_leaves(&tree(START, d))).collect();
    assert_eq!(counts, [20, 400, 8_902, 197_281]);
}

#[test]
fn minimax_leaves_are_perft_from_kiwipete() {
    let counts: Vec<u64> = (1..=3)
        .map(|d| minimax_leaves(&tree(KIWIPETE, d)))
        .collect();
    assert_eq!(counts, [48, 2_039, 97_862]);
}

/// Positions of seeded random games: `count` of them, 4 to 40 plies from the start.
fn positions(count: usize, seed: u64) -> Vec<String> {
    let chess = Chess::default();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = 4 + rng.below(37);
        let board = game::play_out(&chess, chess.start(), plies, |n| {
            rng.below(n as u64) as usize
        });
        if chess.outcome(&board).is_none() {
            out.push(format!("{board}"));
        }
    }
    out
}

/// Every two-player algorithm and every improvement returns minimax's value at the same depth,
/// on 100 positions (depth 2; every tenth to depth 3).
#[test]
fn every_algorithm_and_improvement_returns_minimaxs_value() {
    let p = Params::default();
    let plain = [
        "alphabeta",
        "alphabeta:fail-soft",
        "negascout",
        "negascout-ab",
        "sss",
        "mtdf",
    ];
    for (i, fen) in positions(100, 2026).iter().enumerate() {
        let depth = if i % 10 == 0 { 3 } else { 2 };
        let t = tree(fen, depth);
        let want = value(&t, &Algorithm::Minimax);
        for name in plain.iter().chain(IMPROVED) {
            // Aspiration windows of half a pawn around the guess.
            let spec = name.replace('W', "50");
            let algo = Algorithm::parse(&spec, &p).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(value(&t, &algo), want, "{spec} at depth {depth} from {fen}");
        }
    }
}

#[test]
fn gen_writes_a_position_and_says_how_to_rebuild_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "gen", "game", "chess", "--depth", "2", "--fen", KIWIPETE, "-o",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["run", "minimax", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["stats"]["leaves"], 2_039);
    // A position that is not one is refused with the reason, exit 2.
    let bad = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(["gen", "game", "chess", "--fen", "8/8/8 w - - 0 1"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a chess position"));
}

#[test]
fn labels_are_san_and_keys_are_zobrist() {
    let t = tree(START, 2);
    let chess = Chess::default();
    let labels: Vec<&str> = t.children(t.root()).filter_map(|c| t.label(c)).collect();
    assert!(
        labels.contains(&"Nf3") && labels.contains(&"e4"),
        "{labels:?}"
    );
    assert_eq!(t.key(t.root()), chess.key(&chess.start()));
    let e4 = t
        .children(t.root())
        .find(|&c| t.label(c) == Some("e4"))
        .unwrap();
    assert_eq!(t.child_count(e4), 20);
}
