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
            let at = d.len();
            node(d, rng, depth - 1, mover);
            if uneven {
                d.set_prob(at, w / total);
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

/// The slides call minimax the two-player case of max^n: on a Max/Min tree (with chance nodes
/// or not) max^n and shallow pruning give (v, −v) for expectiminimax's v, and the paranoid
/// reduction gives v for player 1 and −v for player 2.
#[test]
fn the_max_n_family_searches_two_player_trees_as_their_two_player_case() {
    for seed in 0..1_000u64 {
        let t = if seed % 2 == 0 {
            let p = prune::generate::random::RandomShape {
                min_branching: 1,
                max_branching: 1 + (seed % 4) as u32,
                depth: 1 + (seed % 6) as u32,
                leaf_probability: 0.2,
                values: prune::generate::Values::integers(-5, 5),
                mixed: seed % 3 == 0,
            };
            prune::generate::random::generate(&p, seed).unwrap()
        } else {
            let c = prune::generate::chance::ChanceTree {
                branching: 1 + (seed % 3) as u32,
                chance_branching: 1 + (seed % 4) as u32,
                depth: 1 + (seed % 3) as u32,
                values: prune::generate::Values::integers(-5, 5),
                uneven: seed % 4 == 1,
                irregular: seed % 3 == 0,
            };
            prune::generate::chance::generate(&c, seed).unwrap()
        };
        let v = search::run(&t, &Algorithm::Expectiminimax)
            .unwrap()
            .value
            .scalar()
            .unwrap();
        let neg = if v == 0.0 { 0.0 } else { -v };
        for algo in [Algorithm::Maxn, Algorithm::MaxnShallow] {
            let got = search::run(&t, &algo).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(
                got.value,
                Value::Vector(vec![v, neg]),
                "seed {seed}: {algo}"
            );
        }
        for (player, want) in [(0u8, v), (1, neg)] {
            let got = search::run(&t, &Algorithm::Paranoid { player })
                .unwrap()
                .value;
            assert_eq!(got, Value::Scalar(want), "seed {seed}: paranoid {player}");
        }
    }
}

/// The other way round: a two-player game written with payoff vectors whose components always
/// sum to the same number is a two-player tree. Every two-player algorithm searches it as the
/// Max/Min tree of player 1's payoffs — same value, same statistics — and says so; a game whose
/// sums differ is refused with the two leaves that show it.
#[test]
fn two_player_algorithms_search_constant_sum_vector_trees() {
    let trees = [
        ("@1(@2([1,-1],[3,-3]),@2([0,0],[2,-2]))", "+(-(1,3),-(0,2))"),
        ("@1(@2([1,4],[3,2]),@2([0,5],[2,3]))", "+(-(1,3),-(0,2))"),
        (
            "@2(*(@1([4,0],[1,3]),@1([2,2],[0,4])),@1([3,1]))",
            "-(*(+(4,1),+(2,0)),+(3))",
        ),
    ];
    for (vectors, scalars) in trees {
        let v = prune::format::parse_expr(vectors, false).unwrap();
        let s = prune::format::parse_expr(scalars, false).unwrap();
        assert!(v.is_multiplayer());
        for info in prune::search::ALGORITHMS {
            let algo = Algorithm::with_params(info.name, &Default::default()).unwrap();
            if algo.family() == prune::search::Family::MultiPlayer {
                continue;
            }
            match (search::run(&v, &algo), search::run(&s, &algo)) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.value, b.value, "{algo} on {vectors}");
                    assert_eq!(a.stats, b.stats, "{algo} on {vectors}");
                    assert_eq!(a.best_moves, b.best_moves, "{algo} on {vectors}");
                    let note = search::run::assumption(&v, &algo).expect("an assumption");
                    assert!(note.contains("Max (player 1)"), "{note}");
                }
                (Err(a), Err(b)) => assert_eq!(
                    std::mem::discriminant(&a),
                    std::mem::discriminant(&b),
                    "{algo}: {a} / {b}"
                ),
                (a, b) => panic!("{algo} on {vectors}: {:?} against {:?}", a.err(), b.err()),
            }
        }
    }
    let uneven =
        prune::format::parse_expr("@1(@2([1,-1],[3,-3]),@2([0,1],[2,-2]))", false).unwrap();
    let why = search::run(&uneven, &Algorithm::Minimax)
        .unwrap_err()
        .to_string();
    assert!(
        why.contains("leaf #1.1 pays 0") && why.contains("leaf #2.1 pays 1"),
        "{why}"
    );
    let three = prune::format::parse_expr("@1([1,-1,0],[0,0,0])", false).unwrap();
    let why = search::run(&three, &Algorithm::Minimax)
        .unwrap_err()
        .to_string();
    assert!(why.contains("3 players"), "{why}");
}
