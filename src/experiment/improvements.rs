//! Enhancements of alpha-beta on real games: the nodes alpha-beta visits with each — a
//! transposition table, iterative deepening, killer moves, the history heuristic, aspiration
//! windows — alone and together, and NegaScout and MTD(f) with and without the table, in the
//! manner of Schaeffer's 1989 study of "the history heuristic and alpha-beta search enhancements
//! in practice" (IEEE PAMI 11(11); there for chess).
//!
//! The lecture slides name only the categories ("Improvements", slide 23): using storage (cycle
//! detection, off-line and on-line computed values), exploratory searches, successor ordering,
//! playing with the search windows, playing with the search depth. Each technique has its own
//! source: the transposition table Greenblatt, Eastlake & Crocker 1967 ("The Greenblatt chess
//! program", AFIPS FJCC 31); iterative deepening Slate & Atkin 1977 ("CHESS 4.5 — The
//! Northwestern University chess program"); killer moves Akl & Newborn 1977 ("The principal
//! continuation and the killer heuristic", ACM Annual Conference); the history heuristic
//! Schaeffer 1983 (ICCA Journal 6(3)) and 1989; NegaScout Reinefeld 1983 (ICCA Journal 6(4)) and
//! Reinefeld & Marsland 1987 (the slides' reference \[2\]); MTD(f) Plaat, Schaeffer, Pijls & de
//! Bruin 1996. Aspiration windows are measured in Schaeffer 1989; we cite no origin for them.
//!
//! The games are built by `prune gen game` from their rules: the full tic-tac-toe tree, and
//! connect-four from the start position to depths 4 to 7 (positions at the depth limit valued
//! by the open-windows heuristic stored in the tree). Pig has chance nodes, where alpha-beta
//! does not apply: there the table compares expectiminimax, expectiminimax with the
//! transposition table, and Ballard's Star1 and Star2 (the chance nodes' pruning) on OpenSpiel's
//! pig(6, 3, 8). Nim's full trees carry no heuristic values, so iterative deepening (which needs
//! them at every depth) does not apply there and it is left out. Below them, searched from the
//! rules rather than written out ([`crate::game::run`]): connect-four at depths 8 and 9 and
//! chess at depth 4 from two positions, every variant checked against plain alpha-beta.

use super::plot::{Plot, measured};
use super::{Cell, Options, Report, Tick, col};
use crate::generate::game::{self, GameSpec};
use crate::search::Algorithm;
use crate::tree::Tree;

/// One enhancement or combination: the name in the table and the algorithm's parameters
/// (`W` is replaced by the game's aspiration window).
const VARIANTS: [(&str, &str); 12] = [
    ("alpha-beta", "alphabeta"),
    ("+ TT", "alphabeta:tt"),
    ("+ killers", "alphabeta:killers"),
    ("+ history", "alphabeta:history"),
    ("+ killers + history", "alphabeta:killers:history"),
    ("+ ID", "alphabeta:id"),
    ("+ ID + TT", "alphabeta:id:tt"),
    ("+ ID + TT + aspiration", "alphabeta:id:tt:aspiration=W"),
    ("all", "alphabeta:id:tt:killers:history:aspiration=W"),
    ("NegaScout + TT", "negascout:tt"),
    ("MTD(f) + TT", "mtdf:tt"),
    ("MTD(f) + ID + TT", "mtdf:id:tt"),
];

/// The searches of Pig's rows: its chance nodes are Star1's and Star2's, and the table's.
const CHANCE_VARIANTS: [(&str, &str); 4] = [
    ("expectiminimax", "expectiminimax"),
    ("+ TT", "expectiminimax:tt"),
    ("Star1", "star1"),
    ("Star2", "star2"),
];

/// The connect-four depths of the default table (`--sizes` chooses others, 1 to 8).
const DEPTHS: [u32; 4] = [4, 5, 6, 7];

/// Trees `improvements` searches.
pub fn work(o: &Options) -> u64 {
    let from_rules = if o.sizes.is_none() {
        FROM_RULES.len()
    } else {
        0
    } as u64;
    (o.sizes_or(&DEPTHS).len() as u64 + 1 + from_rules) * VARIANTS.len() as u64
        + CHANCE_VARIANTS.len() as u64
}

/// A game of the table: its name, the depth (the full game when `None`), the tree, the
/// aspiration window and the searches compared.
type Row = (
    &'static str,
    Option<u32>,
    Tree,
    f64,
    &'static [(&'static str, &'static str)],
);

/// The games of the table.
fn games(o: &Options) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let full = game::generate(&GameSpec::TicTacToe { depth: None }).map_err(|e| e.to_string())?;
    out.push(("tic-tac-toe", None, full, 0.5, &VARIANTS[..]));
    for d in o.sizes_or(&DEPTHS) {
        if !(1..=8).contains(&d) {
            return Err(format!(
                "connect-four depth {d}: the table searches depths 1 to 8"
            ));
        }
        let g = GameSpec::ConnectFour {
            depth: d,
            moves: game::connect_four::Moves::NONE,
        };
        out.push((
            "connect-four",
            Some(d),
            game::generate(&g).map_err(|e| e.to_string())?,
            10.0,
            &VARIANTS[..],
        ));
    }
    let pig = GameSpec::Pig {
        win: 6,
        dice: 3,
        horizon: 8,
    };
    let pig = game::generate(&pig).map_err(|e| e.to_string())?;
    out.push(("pig(6, 3, 8)", None, pig, 0.0, &CHANCE_VARIANTS[..]));
    Ok(out)
}

/// The searches from the rules ([`crate::game::Lazy`]): connect-four from the empty board and
/// chess from two positions (the start and Kiwipete), deeper than the written-out trees go.
const FROM_RULES: [(&str, u32, &str); 4] = [
    ("connect-four, from its rules", 8, ""),
    ("connect-four, from its rules", 9, ""),
    (
        "chess from the start, from its rules",
        4,
        crate::game::chess::START,
    ),
    (
        "chess from Kiwipete, from its rules",
        4,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
];

/// The rows of one game searched from its rules to `depth`: every variant, each checked
/// against plain alpha-beta's value.
fn from_rules<G: crate::game::Game>(
    game: &G,
    name: &str,
    depth: u32,
    window: f64,
    tick: Tick,
    rows: &mut Vec<Vec<Cell>>,
) -> Result<(), String> {
    let mut plain = None;
    for &(label, spec) in &VARIANTS {
        let spec = spec.replace('W', &crate::text::number_text(window));
        let algo = Algorithm::parse(&spec, &Default::default()).map_err(|e| e.to_string())?;
        let run = crate::game::run::run(game, &algo, depth)
            .map_err(|why| format!("{name}: cannot run {algo}: {why}"))?;
        tick(1);
        let s = run.stats;
        let (base, value) = plain.get_or_insert((s.nodes, run.value.clone())).clone();
        if run.value != value {
            return Err(format!(
                "{name}: {algo} found {:?}, alpha-beta {value:?}",
                run.value
            ));
        }
        rows.push(row(name, Some(depth), label, &s, base));
    }
    Ok(())
}

/// A row of the table.
fn row(
    name: &str,
    depth: Option<u32>,
    label: &str,
    s: &crate::search::Stats,
    base: u64,
) -> Vec<Cell> {
    vec![
        Cell::Text(name.into()),
        depth.map_or(Cell::Text("full".into()), |d| Cell::Int(i64::from(d))),
        Cell::Text(label.into()),
        Cell::Int(s.nodes as i64),
        Cell::Real(s.nodes as f64 / base as f64, 3),
        Cell::Int(s.tt_hits as i64),
        Cell::Int((s.researches + s.aspiration_researches) as i64),
    ]
}

/// `improvements` (see the module documentation).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    let mut rows = Vec::new();
    for (name, depth, tree, window, variants) in games(o)? {
        let mut plain = None;
        for &(label, spec) in variants {
            let spec = spec.replace('W', &crate::text::number_text(window));
            let algo = Algorithm::parse(&spec, &Default::default()).map_err(|e| e.to_string())?;
            let mut counter = crate::search::Counter::new(tree.len());
            let (found, _) = crate::search::search(&tree, &algo, &mut counter)
                .map_err(|why| format!("{name}: cannot run {algo}: {why}"))?;
            let s = counter.finish();
            tick(1);
            // Every variant must find the first's value (alpha-beta's, expectiminimax's): checked
            // here, on every row.
            let (base, value) = plain.get_or_insert((s.nodes, found.value.clone())).clone();
            if found.value != value {
                return Err(format!(
                    "{name}: {algo} found {:?}, the first search {value:?}",
                    found.value
                ));
            }
            rows.push(row(name, depth, label, &s, base));
        }
    }
    if o.sizes.is_none() {
        use crate::game::{chess::Chess, connect_four::ConnectFour};
        for (name, depth, fen) in FROM_RULES {
            if fen.is_empty() {
                let c4 = ConnectFour::new(&game::connect_four::Moves::NONE)
                    .map_err(|e| e.to_string())?;
                from_rules(&c4, name, depth, 10.0, tick, &mut rows)?;
            } else {
                let chess = Chess::new(fen).map_err(|e| e.to_string())?;
                from_rules(&chess, name, depth, 50.0, tick, &mut rows)?;
            }
        }
    }
    Ok(Report {
        title: "Enhancements of alpha-beta on real games (the slides' improvements; Schaeffer 1989's study): nodes visited, alone and together".into(),
        columns: vec![
            col("game", "game"),
            col("depth", "depth"),
            col("variant", "search"),
            col("nodes", "nodes"),
            col("ratio", "÷ plain"),
            col("tt_hits", "TT hits"),
            col("researches", "re-searches"),
        ],
        rows,
        notes: vec![
            "Nodes: interior nodes entered plus leaves evaluated (positions at the depth limit count as leaves). TT: a transposition table keyed by position, used at equal remaining depth (docs/ALGORITHMS.md); ID: iterative deepening, the previous iteration's best move first; aspiration: a window of ±0.5 (tic-tac-toe) or ±10 (connect-four) around the previous iteration's value, re-searched on failure. Re-searches: NegaScout's and MTD(f)'s, and aspiration failures.".into(),
            "Sources: the slides name categories only (using storage, exploratory searches, successor ordering, playing with the search windows, playing with the search depth); the techniques are Greenblatt, Eastlake & Crocker 1967 (transposition table), Slate & Atkin 1977 (iterative deepening), Akl & Newborn 1977 (killers), Schaeffer 1983 and 1989 (history heuristic; 1989 measures them all, aspiration included), Reinefeld 1983 and Reinefeld & Marsland 1987 (NegaScout), Plaat, Schaeffer, Pijls & de Bruin 1996 (MTD(f)).".into(),
            "From its rules: connect-four at depths 8 and 9 and chess at depth 4 (from the start and from Kiwipete), searched lazily (positions generated as the search reaches them, docs/GAMES.md), deeper than the written-out trees; aspiration ±10 (connect-four) or ±50 centipawns (chess). These rows are left out when --sizes chooses the connect-four depths. A table's drafts are the remaining depth there (docs/GAMES.md).".into(),
            "÷ plain: nodes divided by those of the game's first row, alpha-beta (tic-tac-toe, connect-four) or expectiminimax (Pig, whose chance nodes are outside alpha-beta: Star1 and Star2 are their pruning, and Star2 probes only where a chance node's children are all + or all −). Every variant found that first search's value on every row (checked as the table is made; tests/improvements.rs checks it on thousands of positions).".into(),
        ],
        plot: Some(Plot {
            x: "depth",
            series: vec![
                measured("nodes", "nodes"),
            ],
            series_by: vec!["variant"],
            x_label: "connect-four search depth (plies)",
            y_label: "nodes visited (count)",
            y_percent_of_x_cubed: false,
            only: Some(("game", "connect-four")),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows from the rules: every variant finds plain alpha-beta's value (checked as the
    /// rows are made), on connect-four and on chess, shallower than the table's.
    #[test]
    fn the_rows_from_the_rules_agree_with_alpha_beta() {
        use crate::game::{chess::Chess, connect_four::ConnectFour};
        let mut rows = Vec::new();
        let c4 = ConnectFour::new(&game::connect_four::Moves::NONE).unwrap();
        from_rules(&c4, "c4", 5, 10.0, &|_| {}, &mut rows).unwrap();
        let chess = Chess::new(FROM_RULES[3].2).unwrap();
        from_rules(&chess, "kiwipete", 2, 50.0, &|_| {}, &mut rows).unwrap();
        assert_eq!(rows.len(), 2 * VARIANTS.len());
        assert!(rows.iter().all(|r| matches!(r[3], Cell::Int(n) if n > 0)));
    }

    /// On connect-four at depth 5 every enhancement visits fewer nodes than plain alpha-beta
    /// but for none of them more than it, the table hits, and the combination is the smallest
    /// alpha-beta variant.
    #[test]
    fn the_enhancements_save_nodes() {
        let o = Options {
            sizes: Some(vec![5]),
            ..Default::default()
        };
        let r = run(&o, &|_| {}).unwrap();
        let nodes = |row: usize| match r.get(row, "nodes") {
            Cell::Int(n) => *n,
            c => panic!("{c:?}"),
        };
        let c4: Vec<usize> = (0..r.rows.len())
            .filter(|&i| r.get(i, "game") == &Cell::Text("connect-four".into()))
            .collect();
        assert_eq!(c4.len(), VARIANTS.len());
        let plain = nodes(c4[0]);
        for &i in &c4[1..9] {
            assert!(nodes(i) <= plain, "{}", r.table());
        }
        let all = nodes(c4[8]);
        assert!(c4[1..8].iter().all(|&i| nodes(i) >= all), "{}", r.table());
        assert!(matches!(r.get(c4[1], "tt_hits"), Cell::Int(h) if *h > 0));
        // The full tic-tac-toe tree: the table saves most of the nodes (transpositions abound).
        assert!(nodes(1) * 3 < nodes(0), "{}", r.table());
    }
}
