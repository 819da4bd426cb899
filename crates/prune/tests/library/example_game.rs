//! The game of crates/prune/examples/kalah.rs, a game prune does not know, written against the `Game`
//! trait: its tree is built and searched by every two-player algorithm and improvement, and
//! its values agree with a search written here over the trait alone.

#[path = "../../examples/kalah.rs"]
mod kalah;

use kalah::Kalah;
use prune::game::{self, Game, Outcome, Turn};
use prune::search::{Algorithm, Params};

use crate::common::{IMPROVED, scalar_value as value};

/// Depth-limited minimax straight from the rules, with no tree: the value the tree's searches
/// must find.
fn rules_minimax(g: &Kalah, b: &kalah::Board, depth: Option<u32>) -> f64 {
    if let Some(Outcome::Value(v)) = g.outcome(b) {
        return v;
    }
    if depth == Some(0) {
        return g.heuristic(b).expect("kalah has a heuristic");
    }
    let mut moves = Vec::new();
    g.moves(b, &mut moves);
    let values = moves
        .iter()
        .map(|m| rules_minimax(g, &g.play(b, m), depth.map(|d| d - 1)));
    match g.turn(b) {
        Turn::Max => values.fold(f64::NEG_INFINITY, f64::max),
        _ => values.fold(f64::INFINITY, f64::min),
    }
}

#[test]
fn a_users_game_is_built_and_searched_by_every_algorithm() {
    let p = Params::default();
    for (pits, seeds, depth) in [
        (2, 2, None),
        (3, 2, Some(6)),
        (3, 3, Some(8)),
        (4, 3, Some(6)),
    ] {
        let g = Kalah { pits, seeds };
        let tree = game::tree(&g, depth).unwrap();
        let want = rules_minimax(&g, &g.start(), depth);
        assert_eq!(value(&tree, &Algorithm::Minimax), want, "{pits}×{seeds}");
        let plain = [
            "alphabeta",
            "alphabeta:fail-soft",
            "negascout",
            "negascout-ab",
            "sss",
            "mtdf",
        ];
        for name in plain.iter().chain(IMPROVED) {
            let spec = name.replace('W', "1");
            let algo = Algorithm::parse(&spec, &p).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(
                value(&tree, &algo),
                want,
                "{spec} on {pits}×{seeds} to {depth:?}"
            );
        }
    }
}

/// Extra moves make a position recur at two depths of a cut tree, with different subtrees: the
/// keys tell them apart, so a transposition table is not refused and finds the value.
#[test]
fn a_position_met_at_two_depths_gets_two_keys() {
    let g = Kalah { pits: 3, seeds: 3 };
    let tree = game::tree(&g, Some(8)).unwrap();
    assert!(tree.key_clash().is_none(), "{:?}", tree.key_clash());
    let full = game::tree(&Kalah { pits: 2, seeds: 2 }, None).unwrap();
    assert!(full.key_clash().is_none());
}
