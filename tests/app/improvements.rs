//! Issue 17 §2: every improvement of Schaeffer's slides — a transposition table, iterative
//! deepening, aspiration windows, killer moves, the history heuristic — alone and together, on
//! alpha-beta, NegaScout and MTD(f), returns the root value of plain alpha-beta at the same depth,
//! which is depth-limited minimax's (the reference values): on 1,000 positions of each built-in
//! game with an evaluation or keys (tic-tac-toe positions from the full tree's nodes,
//! connect-four from move prefixes searched to depth 3–5, nim positions from a tree's nodes).

use prune::generate::game::connect_four::Moves;
use prune::generate::game::{GameSpec, Heaps, generate};
use prune::search::{self, Algorithm, Counter, Params, References, Refusal, Stats, Value};
use prune::tree::{NodeId, Tree};

use crate::common::{IMPROVED, subtree};

/// The plain algorithms, which take only the depth limit.
const PLAIN: &[&str] = &["minimax", "negascout", "negascout-ab", "sss", "mtdf"];

fn value(tree: &Tree, algo: &Algorithm) -> (f64, Stats) {
    let mut counter = Counter::new(tree.len());
    let (found, _) =
        search::search(tree, algo, &mut counter).unwrap_or_else(|e| panic!("{algo}: {e}"));
    match found.value {
        Value::Scalar(v) => (v, counter.finish()),
        v => panic!("{algo}: not a scalar: {v}"),
    }
}

/// Totals over a game's positions, per improvement.
#[derive(Default)]
struct Totals {
    plain_nodes: u64,
    nodes: Vec<u64>,
    stats: Vec<Stats>,
}

/// Checks every improvement against plain alpha-beta (and the reference) on `tree` to `depth`.
fn check(tree: &Tree, depth: Option<u32>, w: f64, iterate: bool, totals: &mut Totals) {
    let suffix = depth.map_or(String::new(), |d| format!(":depth={d}"));
    let p = Params::default();
    let parse = |s: &str| {
        let s = s.replace('W', &w.to_string()) + &suffix;
        Algorithm::parse(&s, &p).unwrap_or_else(|e| panic!("{s}: {e}"))
    };
    let plain = parse("alphabeta");
    let (want, stats) = value(tree, &plain);
    totals.plain_nodes += stats.nodes;
    let refs = References::new(tree);
    let reference = refs.of(&plain).get(tree.root());
    assert_eq!(reference, Value::Scalar(want), "{plain}: the reference");
    for name in PLAIN {
        let algo = parse(name);
        assert_eq!(value(tree, &algo).0, want, "{algo}");
    }
    totals.nodes.resize(IMPROVED.len(), 0);
    totals.stats.resize(IMPROVED.len(), Stats::default());
    for (k, name) in IMPROVED.iter().enumerate() {
        let algo = parse(name);
        if !iterate && name.contains("id") && tree.height() >= 2 {
            assert!(
                matches!(
                    algo.refusal(tree),
                    Some(Refusal::NoHeuristicForIteration { .. })
                ),
                "{algo}"
            );
            continue;
        }
        if !iterate && name.contains("id") {
            continue;
        }
        let (got, s) = value(tree, &algo);
        assert_eq!(got, want, "{algo} on a tree of {} nodes", tree.len());
        totals.nodes[k] += s.nodes;
        let t = &mut totals.stats[k];
        t.tt_probes += s.tt_probes;
        t.tt_hits += s.tt_hits;
        t.tt_cutoffs += s.tt_cutoffs;
        t.aspiration_researches += s.aspiration_researches;
        t.researches += s.researches;
        if name.contains("id") {
            // One count per iteration; an iteration that valued no position by its heuristic
            // (every line it searched ended) is the last, so a game that ends sooner has fewer.
            let d = depth.map_or(tree.height(), |d| (d as usize).min(tree.height()));
            assert!(
                (1..=d.max(1)).contains(&s.iteration_nodes.len()),
                "{algo}: {} iterations, one count each, to depth {d}",
                s.iteration_nodes.len()
            );
            assert_eq!(s.iteration_nodes.iter().sum::<u64>(), s.nodes, "{algo}");
        } else {
            assert!(s.iteration_nodes.is_empty(), "{algo}");
        }
        if !name.contains("tt") {
            assert_eq!(s.tt_probes, 0, "{algo}");
        }
    }
}

/// What every game's totals must show: the improvements were at work.
fn at_work(game: &str, totals: &Totals, iterate: bool) {
    let k = |name: &str| IMPROVED.iter().position(|n| *n == name).unwrap();
    let tt = &totals.stats[k("alphabeta:tt")];
    assert!(tt.tt_hits > 0 && tt.tt_cutoffs > 0, "{game}: no table hits");
    assert!(
        totals.nodes[k("alphabeta:tt")] < totals.plain_nodes,
        "{game}: the table saved no nodes"
    );
    assert_ne!(
        totals.nodes[k("alphabeta:killers")],
        totals.plain_nodes,
        "{game}: killers changed nothing"
    );
    assert_ne!(
        totals.nodes[k("alphabeta:history")],
        totals.plain_nodes,
        "{game}: history changed nothing"
    );
    if iterate {
        let asp = &totals.stats[k("alphabeta:id:aspiration=W")];
        assert!(
            asp.aspiration_researches > 0,
            "{game}: no aspiration failed"
        );
        assert!(asp.researches >= asp.aspiration_researches);
    }
}

/// Interior nodes of `t`, evenly spread over the arena, `n` of them, each with at most
/// `max_nodes` below it.
fn positions(t: &Tree, n: usize, max_nodes: u32) -> Vec<NodeId> {
    let sizes = t.subtree_sizes();
    let all: Vec<NodeId> = t
        .ids()
        .filter(|&i| !t.is_leaf(i) && sizes[i.index()] <= max_nodes && t.height() > 0)
        .collect();
    assert!(all.len() >= n, "only {} positions", all.len());
    let step = all.len() / n;
    all.into_iter().step_by(step).take(n).collect()
}

#[test]
fn tic_tac_toe_positions_agree_with_alpha_beta_at_every_depth() {
    let t = generate(&GameSpec::TicTacToe { depth: None }).unwrap();
    let mut totals = Totals::default();
    for (i, node) in positions(&t, 1000, 20_000).into_iter().enumerate() {
        let sub = subtree(&t, node);
        let depth = [None, Some(2), Some(3), Some(1)][i % 4];
        check(&sub, depth, 0.05, true, &mut totals);
    }
    at_work("tic-tac-toe", &totals, true);
}

#[test]
fn connect_four_prefixes_agree_with_alpha_beta_at_depths_3_to_5() {
    let mut totals = Totals::default();
    let mut checked = 0;
    let mut i = 0u32;
    while checked < 1000 {
        // Move prefixes of 0 to 4 moves, in order of length, every fourth of the 4-move ones.
        let (len, index) = match i {
            0 => (0, 0),
            1..=7 => (1, i - 1),
            8..=56 => (2, i - 8),
            57..=399 => (3, i - 57),
            _ => (4, (i - 400) * 4),
        };
        i += 1;
        let mut text = String::new();
        let mut x = index;
        for _ in 0..len {
            text.push(char::from(b'1' + (x % 7) as u8));
            x /= 7;
        }
        let depth = 3 + checked % 3;
        let game = GameSpec::ConnectFour {
            depth,
            moves: Moves::parse(&text).unwrap(),
        };
        let Ok(t) = generate(&game) else { continue };
        if t.is_leaf(t.root()) {
            continue;
        }
        // Searched to the generator's depth, and one less.
        let limit = [None, Some(depth - 1)][checked as usize % 2];
        check(&t, limit, 3.0, true, &mut totals);
        checked += 1;
    }
    at_work("connect-four", &totals, true);
}

#[test]
fn nim_positions_agree_with_alpha_beta() {
    let heaps = Heaps::new(&[1, 2, 3, 4]).unwrap();
    let t = generate(&GameSpec::Nim { heaps, players: 2 }).unwrap();
    let mut totals = Totals::default();
    for node in positions(&t, 1000, 5_000) {
        // Nim has no evaluation: no depth limit, and iterative deepening is refused.
        check(&subtree(&t, node), None, 1.0, false, &mut totals);
    }
    at_work("nim", &totals, false);
}

/// `compare` measures a depth-limited row on the tree it searched: its share of the leaves is
/// of the cut tree's, and the note under the table gives that tree's size and minimal tree.
#[test]
fn compare_measures_depth_limited_rows_on_their_cut_tree() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "compare",
            "--gen",
            "game connect-four --depth 5",
            "--algos",
            "alphabeta,alphabeta:depth=3",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let share = |i: usize| rows[i]["share_of_exhaustive"].as_f64().unwrap();
    let leaves = |i: usize| rows[i]["leaves"].as_f64().unwrap();
    // 7^5 leaves uncut, 7^3 at depth 3 (no game ends within 5 moves of the start).
    assert!((share(0) - leaves(0) / 16807.0).abs() < 1e-6, "{rows}");
    assert!((share(1) - leaves(1) / 343.0).abs() < 1e-6, "{rows}");
    let text = std::process::Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "compare",
            "--gen",
            "game connect-four --depth 5",
            "--algos",
            "alphabeta,alphabeta:depth=3",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("of the cut tree's 343 leaves, whose minimal tree has"),
        "{text}"
    );
}

/// Pig's chance nodes are expectiminimax's: with the transposition table it returns the very
/// same value (bit for bit) on 1,000 positions of OpenSpiel's pig(6, 3, 8), and visits fewer
/// nodes where positions repeat.
#[test]
fn pig_positions_agree_with_expectiminimax() {
    let t = generate(&GameSpec::Pig {
        win: 6,
        dice: 3,
        horizon: 8,
    })
    .unwrap();
    let p = Params::default();
    let plain = Algorithm::parse("expectiminimax", &p).unwrap();
    let tt = Algorithm::parse("expectiminimax:tt", &p).unwrap();
    let (mut plain_nodes, mut tt_nodes, mut hits) = (0, 0, 0);
    for node in positions(&t, 1000, 10_000) {
        let sub = subtree(&t, node);
        let (want, a) = value(&sub, &plain);
        let (got, b) = value(&sub, &tt);
        assert_eq!(got.to_bits(), want.to_bits(), "position {node}");
        assert!(b.nodes <= a.nodes, "position {node}");
        plain_nodes += a.nodes;
        tt_nodes += b.nodes;
        hits += b.tt_hits;
    }
    assert!(
        hits > 0 && tt_nodes * 2 < plain_nodes,
        "{tt_nodes} of {plain_nodes}"
    );
}
