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
//! rules rather than written out ([`prune::game::run`]): connect-four at depths 8 and 9 and
//! chess at depth 4 from two positions, every variant checked against plain alpha-beta.

use serde::{Deserialize, Serialize};

use super::plot::{Plot, measured};
use super::{Cell, Options, Report, Tick, at_most, col, per_row};
use prune::game::{chess::Chess, connect_four::ConnectFour};
use prune::generate::game::{self, GameSpec};
use prune::search::{Algorithm, Stats, Value};
use prune::text::number_text;

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
    games(o).iter().map(|g| g.variants.len() as u64).sum()
}

/// Where a game's positions come from.
enum Source {
    /// Written out as a tree by `prune gen game` (the full game when its depth is `None`).
    Tree(GameSpec),
    /// Searched from the rules of connect-four (`None`) or of chess from a FEN.
    Rules(Option<&'static str>),
}

/// A game of the table: its name, depth, positions, aspiration window and the searches
/// compared, one row each.
struct Game {
    name: &'static str,
    depth: Option<u32>,
    source: Source,
    window: f64,
    variants: &'static [(&'static str, &'static str)],
}

/// The games of the table, in its order (none is generated yet).
fn games(o: &Options) -> Vec<Game> {
    let mut out = vec![Game {
        name: "tic-tac-toe",
        depth: None,
        source: Source::Tree(GameSpec::TicTacToe { depth: None }),
        window: 0.5,
        variants: &VARIANTS,
    }];
    for d in o.sizes_or(&DEPTHS) {
        out.push(Game {
            name: "connect-four",
            depth: Some(d),
            source: Source::Tree(GameSpec::ConnectFour {
                depth: d,
                moves: game::connect_four::Moves::NONE,
            }),
            window: 10.0,
            variants: &VARIANTS,
        });
    }
    out.push(Game {
        name: "pig(6, 3, 8)",
        depth: None,
        source: Source::Tree(GameSpec::Pig {
            win: 6,
            dice: 3,
            horizon: 8,
        }),
        window: 0.0,
        variants: &CHANCE_VARIANTS,
    });
    if o.sizes.is_none() {
        for (name, depth, fen) in FROM_RULES {
            let chess = !fen.is_empty();
            out.push(Game {
                name,
                depth: Some(depth),
                source: Source::Rules(chess.then_some(fen)),
                window: if chess { 50.0 } else { 10.0 },
                variants: &VARIANTS,
            });
        }
    }
    out
}

/// The searches from the rules ([`prune::game::Lazy`]): connect-four from the empty board and
/// chess from two positions (the start and Kiwipete), deeper than the written-out trees go.
const FROM_RULES: [(&str, u32, &str); 4] = [
    ("connect-four, from its rules", 8, ""),
    ("connect-four, from its rules", 9, ""),
    (
        "chess from the start, from its rules",
        4,
        prune::game::chess::START,
    ),
    (
        "chess from Kiwipete, from its rules",
        4,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
];

/// What one search of the table found: its counts and the root's value (every variant of a
/// game must find its first's). A shard's part records these.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Searched {
    nodes: u64,
    tt_hits: u64,
    /// NegaScout's and MTD(f)'s re-searches and aspiration failures.
    researches: u64,
    value: f64,
}

impl Searched {
    fn of(name: &str, algo: &Algorithm, s: &Stats, value: &Value) -> Result<Searched, String> {
        let value = value
            .scalar()
            .ok_or_else(|| format!("{name}: {algo} found a payoff vector, not one value"))?;
        Ok(Searched {
            nodes: s.nodes,
            tt_hits: s.tt_hits,
            researches: s.researches + s.aspiration_researches,
            value,
        })
    }
}

impl Searched {
    /// Whether a part's record can be the search `spec`'s (a variant's parameters): at least
    /// the root visited, a finite value, counts the table can print; no hit without a
    /// transposition table, and re-searches only by NegaScout, MTD(f) and aspiration windows.
    /// (A hit is not bounded by the nodes: MTD(f) with iterative deepening from the rules
    /// counts more hits than nodes.)
    fn possible(&self, spec: &str) -> Result<(), String> {
        if self.nodes == 0 {
            return Err("a search that visited no node".into());
        }
        at_most("nodes", self.nodes, i64::MAX as u64)?;
        at_most("TT hits", self.tt_hits, i64::MAX as u64)?;
        at_most("re-searches", self.researches, i64::MAX as u64)?;
        if !spec.split(':').any(|p| p == "tt") && self.tt_hits > 0 {
            return Err(format!(
                "{} TT hits by {spec}, which has no table",
                self.tt_hits
            ));
        }
        let researching = spec.starts_with("negascout")
            || spec.starts_with("mtdf")
            || spec.contains("aspiration");
        if !researching && self.researches > 0 {
            return Err(format!(
                "{} re-searches by {spec}, which never searches again",
                self.researches
            ));
        }
        if !self.value.is_finite() {
            return Err(format!("the value {}", self.value));
        }
        Ok(())
    }
}

/// The algorithm of `spec` with the game's aspiration window in place of `W`.
fn algorithm(spec: &str, window: f64) -> Result<Algorithm, String> {
    let spec = spec.replace('W', &prune::text::number_text(window));
    Algorithm::parse(&spec, &Default::default()).map_err(|e| e.to_string())
}

/// The units of work of `game`: one for a tree written out (its generation costs more than
/// its searches, and every shard that searched it would generate it again), one a search from
/// the rules (nothing is generated ahead).
fn units(game: &Game) -> u32 {
    match game.source {
        Source::Tree(_) => 1,
        Source::Rules(_) => game.variants.len() as u32,
    }
}

/// Unit `u` of `game` (see [`units`]), its searches with `algos`, the game's variants: all of
/// them on its tree, generated here, or search `u` from its rules.
fn unit(game: &Game, algos: &[Algorithm], u: u32, tick: Tick) -> Result<Vec<Searched>, String> {
    let name = game.name;
    let cannot =
        |algo: &Algorithm, why: &dyn std::fmt::Display| format!("{name}: cannot run {algo}: {why}");
    match &game.source {
        Source::Tree(spec) => {
            let tree = game::generate(spec).map_err(|e| e.to_string())?;
            algos
                .iter()
                .map(|algo| {
                    let mut counter = prune::search::Counter::new(tree.len());
                    let (found, _) = prune::search::search(&tree, algo, &mut counter)
                        .map_err(|e| cannot(algo, &e))?;
                    tick(1);
                    Searched::of(name, algo, &counter.finish(), &found.value)
                })
                .collect()
        }
        Source::Rules(fen) => {
            let algo = &algos[u as usize];
            let depth = game.depth.expect("a game from its rules has a depth");
            let run = match fen {
                None => {
                    let c4 = ConnectFour::new(&game::connect_four::Moves::NONE)
                        .map_err(|e| e.to_string())?;
                    prune::game::run::run(&c4, algo, depth)
                }
                Some(fen) => {
                    let chess = Chess::new(fen).map_err(|e| e.to_string())?;
                    prune::game::run::run(&chess, algo, depth)
                }
            }
            .map_err(|e| cannot(algo, &e))?;
            tick(1);
            Ok(vec![Searched::of(name, algo, &run.stats, &run.value)?])
        }
    }
}

/// The rows of `game` from its searches, in the order of its variants: each checked against
/// the first search's value (alpha-beta's, expectiminimax's) and divided by its nodes.
fn game_rows(game: &Game, searched: &[Searched], rows: &mut Vec<Vec<Cell>>) -> Result<(), String> {
    if searched.len() != game.variants.len() {
        return Err(format!(
            "{}: {} searches, not its {} variants: a part is not what a shard wrote",
            game.name,
            searched.len(),
            game.variants.len()
        ));
    }
    let Some(first) = searched.first() else {
        return Ok(());
    };
    for (&(label, spec), s) in game.variants.iter().zip(searched) {
        if s.value != first.value {
            return Err(format!(
                "{}: {} found {}, the first search {}",
                game.name,
                algorithm(spec, game.window)?,
                number_text(s.value),
                number_text(first.value)
            ));
        }
        rows.push(vec![
            Cell::Text(game.name.into()),
            game.depth
                .map_or(Cell::Text("full".into()), |d| Cell::Int(i64::from(d))),
            Cell::Text(label.into()),
            Cell::Int(s.nodes as i64),
            Cell::Real(s.nodes as f64 / first.nodes as f64, 3),
            Cell::Int(s.tt_hits as i64),
            Cell::Int(s.researches as i64),
        ]);
    }
    Ok(())
}

/// `improvements` (see the module documentation). Its units of work (`units`) are given out
/// to the shards like trials ([`per_row`]): a game written out as a tree, or a search from the
/// rules.
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    if let Some(d) = o
        .sizes_or(&DEPTHS)
        .into_iter()
        .find(|d| !(1..=8).contains(d))
    {
        return Err(format!(
            "connect-four depth {d}: the table searches depths 1 to 8"
        ));
    }
    let games = games(o);
    let algos: Vec<Vec<Algorithm>> = games
        .iter()
        .map(|g| {
            g.variants
                .iter()
                .map(|&(_, spec)| algorithm(spec, g.window))
                .collect()
        })
        .collect::<Result<_, _>>()?;
    let searched = per_row(
        games.len(),
        |row| units(&games[row]),
        |row, u| unit(&games[row], &algos[row], u, tick),
        |row, u, searched| {
            // A tree's unit is all its searches, in the order of its variants; a search from
            // the rules is one, variant `u`.
            let variants = games[row].variants;
            let specs = match games[row].source {
                Source::Tree(_) => variants,
                Source::Rules(_) => &variants[u as usize..=u as usize],
            };
            if searched.len() != specs.len() {
                return Err(format!("{} searches, not {}", searched.len(), specs.len()));
            }
            searched
                .iter()
                .zip(specs)
                .try_for_each(|(s, &(_, spec))| s.possible(spec))
        },
    )?;
    let mut rows = Vec::new();
    for (game, units) in games.iter().zip(searched) {
        let searched: Vec<Searched> = units.into_iter().flatten().collect();
        game_rows(game, &searched, &mut rows)?;
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
            "From its rules: connect-four at depths 8 and 9 and chess at depth 4 (from the start and from Kiwipete), searched from the rules (positions made as the search reaches them, only the path and the table kept: docs/GAMES.md), deeper than the written-out trees; aspiration ±10 (connect-four) or ±50 centipawns (chess). These rows are left out when --sizes chooses the connect-four depths. A table's drafts are the remaining depth there (docs/GAMES.md).".into(),
            "÷ plain: nodes divided by those of the game's first row, alpha-beta (tic-tac-toe, connect-four) or expectiminimax (Pig, whose chance nodes are outside alpha-beta: Star1 and Star2 are their pruning, and Star2 probes only where a chance node's children are all + or all −). Every variant found that first search's value on every row (checked as the table is made; tests/app/improvements.rs checks it on thousands of positions).".into(),
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
            beside: None,
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
        let mut rows = Vec::new();
        for (fen, depth, window) in [(None, 5, 10.0), (Some(FROM_RULES[3].2), 2, 50.0)] {
            let g = Game {
                name: "from the rules",
                depth: Some(depth),
                source: Source::Rules(fen),
                window,
                variants: &VARIANTS,
            };
            let algos: Vec<Algorithm> = VARIANTS
                .iter()
                .map(|&(_, spec)| algorithm(spec, window).unwrap())
                .collect();
            let searched: Vec<Searched> = (0..units(&g))
                .flat_map(|u| unit(&g, &algos, u, &|_| {}).unwrap())
                .collect();
            game_rows(&g, &searched, &mut rows).unwrap();
        }
        assert_eq!(rows.len(), 2 * VARIANTS.len());
        assert!(rows.iter().all(|r| matches!(r[3], Cell::Int(n) if n > 0)));
    }

    /// A variant that finds another value than the game's first search is an error, not a row.
    #[test]
    fn a_variant_finding_another_value_is_refused() {
        let g = &games(&Options::default())[0];
        let s = |value| Searched {
            nodes: 10,
            tt_hits: 0,
            researches: 0,
            value,
        };
        let mut searched = vec![s(0.0); VARIANTS.len()];
        searched[1] = s(1.0);
        let why = game_rows(g, &searched, &mut Vec::new()).unwrap_err();
        assert!(why.contains("found 1, the first search 0"), "{why}");
        let why = game_rows(g, &searched[1..], &mut Vec::new()).unwrap_err();
        assert!(why.contains("11 searches, not its 12 variants"), "{why}");
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
