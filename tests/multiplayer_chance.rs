//! max^n with shallow pruning and the paranoid reduction search n-player trees with chance
//! nodes, and agree exactly with their references (max^n; minimax on the reduction with
//! expected values at chance nodes) on many seeded random trees.

use prune::generate::Rng;
use prune::search::{self, Algorithm, Reference, Value};
use prune::tree::{Draft, DraftNode, Kind, Meta, Tree};

const PLAYERS: usize = 3;
const SUM: i64 = 9;

fn node(d: &mut Draft, rng: &mut Rng, depth: u32, mover: usize) {
    if depth == 0 || (depth < 3 && rng.chance(0.25)) {
        // Non-negative integers summing to at most SUM.
        let a = rng.int(0, SUM);
        let b = rng.int(0, SUM - a);
        let c = rng.int(0, SUM - a - b);
        d.push(DraftNode::payoff(vec![a as f64, b as f64, c as f64]));
        return;
    }
    let n = 1 + rng.below(3) as u32;
    if rng.chance(0.3) {
        d.push(DraftNode::interior(Kind::Chance, n));
        let uneven = rng.chance(0.5);
        let weights: Vec<f64> = (0..n).map(|_| 1.0 + rng.below(3) as f64).collect();
        let total: f64 = weights.iter().sum();
        for w in weights {
            // Record the probability on the child that follows.
            let at = d.nodes.len();
            node(d, rng, depth - 1, mover);
            if uneven {
                d.nodes[at].prob = Some(w / total);
            }
        }
    } else {
        d.push(DraftNode::interior(Kind::Player(mover as u8), n));
        for _ in 0..n {
            node(d, rng, depth - 1, (mover + 1) % PLAYERS);
        }
    }
}

fn tree(seed: u64) -> Tree {
    let mut rng = Rng::new(seed);
    let mut d = Draft::new(Meta {
        name: format!("n-player chance tree {seed}"),
        players: PLAYERS as u8,
        payoff_floor: Some(0.0),
        payoff_sum: Some(SUM as f64),
        ..Meta::default()
    });
    node(&mut d, &mut rng, 1 + (seed % 5) as u32, 0);
    d.finish().unwrap()
}

#[test]
fn shallow_pruning_and_paranoid_search_chance_nodes_exactly() {
    let mut with_chance = 0;
    for seed in 0..2_000 {
        let t = tree(seed);
        with_chance += usize::from(t.has_chance());
        let maxn = search::run(&t, &Algorithm::Maxn).unwrap().value;
        let shallow =
            search::run(&t, &Algorithm::MaxnShallow).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(shallow.value, maxn, "seed {seed}");
        for player in 0..PLAYERS as u8 {
            let algo = Algorithm::Paranoid { player };
            let got = search::run(&t, &algo).unwrap().value;
            let want = Reference::of(&t, &algo).get(t.root());
            assert_eq!(got, want, "seed {seed}, player {player}");
            assert!(matches!(got, Value::Scalar(_)));
        }
    }
    assert!(with_chance > 500, "{with_chance} trees had chance nodes");
}
