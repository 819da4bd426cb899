//! The tied best moves and the principal variation of a game searched from its rules, by the
//! values of the algorithm family's reference rule, as a stored tree's run reports them
//! ([`crate::search::Run`]): the root moves whose value is the best, and from the root the first
//! best move each time, down to a finished game, the horizon or a chance position.
//!
//! A stored tree has every node's reference value from one bottom-up pass; a game's tree is not
//! there to pass over. So the values are asked of searches of their own, not counted in the
//! run's statistics or time:
//! - two players without chance: whether each child's minimax value reaches its parent's, by
//!   walked alpha-beta searches with a minimal window sharing one table, killers and history
//!   (the path and the table in memory, never the positions visited);
//! - chance positions: every move's expectiminimax value, on a tree generated as it is needed
//!   (the lazy arena, `Lazy`);
//! - n players: every move's max^n vector (paranoid: its own reduction's value), likewise.

use super::run::{GameRunError, Prover, TABLE_BYTES, horizon};
use super::{Game, Lazy, Turn};
use crate::search::chance::ChanceSum;
use crate::search::{Algorithm, Family, maxn, players};
use crate::tree::{Kind, NodeId, Nodes};

/// The tied best root moves and the principal variation, as moves: each one's position among
/// its siblings and its label.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Principal {
    /// Root moves (positions, from 0) whose reference value is the best; empty when the root
    /// is over or a chance position.
    pub best_moves: Vec<(usize, String)>,
    /// From the root, the first best move each time, down to a finished game, the horizon or
    /// a chance position.
    pub pv: Vec<(usize, String)>,
}

/// How a family values a position: the reference its best moves follow. Algorithms with the
/// same rule report the same best moves and variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Minimax.
    Minimax,
    /// Expectiminimax.
    Expected,
    /// max^n vectors.
    Vectors,
    /// The paranoid reduction for this player.
    Paranoid(usize),
}

impl Rule {
    /// The rule of `algo`'s family in a game of `players` players.
    pub fn of(algo: &Algorithm, players: usize) -> Rule {
        match algo.base() {
            Algorithm::Paranoid { player } => Rule::Paranoid(usize::from(*player)),
            Algorithm::Maxn | Algorithm::MaxnShallow => Rule::Vectors,
            _ if players > 2 => Rule::Vectors,
            _ if algo.family() == Family::TwoPlayer => Rule::Minimax,
            _ => Rule::Expected,
        }
    }
}

/// The best moves and the principal variation of `algo`'s search of `game` to `depth` moves,
/// by its family's reference values (every algorithm of a family reports the same ones).
pub fn principal<G: Game>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
) -> Result<Principal, GameRunError> {
    principal_within(game, algo, depth, TABLE_BYTES)
}

/// [`principal`], the two-player searches' table taking at most `table_bytes`.
pub fn principal_within<G: Game>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
    table_bytes: u64,
) -> Result<Principal, GameRunError> {
    let depth = horizon(algo, depth);
    let rule = Rule::of(algo, usize::from(game.players()));
    if rule == Rule::Minimax
        && let Some(found) = walked(game, depth, table_bytes)
    {
        return Ok(found);
    }
    let lazy = Lazy::new(game, depth)?;
    let decides = |n: NodeId| !lazy.is_leaf(n) && lazy.kind(n) != Kind::Chance;
    let root = lazy.root();
    let mut out = Principal::default();
    if !decides(root) {
        return Ok(out);
    }
    let mut node = root;
    while decides(node) {
        let best = best_children(&lazy, &rule, node, node == root);
        if let Some(e) = lazy.error() {
            return Err(e.into());
        }
        let Some(&first) = best.first() else { break };
        let label = |i: usize| lazy.label(lazy.child(node, i)).unwrap_or_default();
        if node == root {
            out.best_moves = best.iter().map(|&i| (i, label(i))).collect();
        }
        out.pv.push((first, label(first)));
        node = lazy.child(node, first);
    }
    Ok(out)
}

/// The children of `node` whose value is the best for its mover: every one (`all`), or the
/// first.
fn best_children<T: Nodes>(tree: &T, rule: &Rule, node: NodeId, all: bool) -> Vec<usize> {
    let n = tree.child_count(node);
    let mover = players::mover(tree, node).unwrap_or(0);
    let scores: Vec<f64> = (0..n)
        .map(|i| {
            let c = tree.child(node, i);
            match rule {
                Rule::Vectors => maxn::value(tree, c)[mover],
                Rule::Paranoid(p) => {
                    let x = paranoid(tree, c, *p);
                    if mover == *p { x } else { -x }
                }
                _ => {
                    let x = expected(tree, c);
                    if tree.kind(node) == Kind::Min { -x } else { x }
                }
            }
        })
        .collect();
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best = (0..n).filter(|&i| scores[i] == top);
    if all {
        best.collect()
    } else {
        best.take(1).collect()
    }
}

/// The expectiminimax value of `node` (root-relative: Max's).
fn expected<T: Nodes>(tree: &T, node: NodeId) -> f64 {
    match tree.kind(node) {
        Kind::Leaf => tree.value(node),
        Kind::Chance => {
            let mut sum = ChanceSum::new(tree, node);
            for c in tree.children(node) {
                let x = expected(tree, c);
                sum.add(tree, c, x);
            }
            sum.value()
        }
        kind => {
            let values = tree.children(node).map(|c| expected(tree, c));
            if kind == Kind::Min {
                values.fold(f64::INFINITY, f64::min)
            } else {
                values.fold(f64::NEG_INFINITY, f64::max)
            }
        }
    }
}

/// The paranoid reduction's value of `node` for `player`: its payoff, maximised where it
/// moves and minimised where the others do.
fn paranoid<T: Nodes>(tree: &T, node: NodeId, player: usize) -> f64 {
    if tree.is_leaf(node) {
        return players::payoff(tree, node)[player];
    }
    let Some(mover) = players::mover(tree, node) else {
        let mut sum = ChanceSum::new(tree, node);
        for c in tree.children(node) {
            let x = paranoid(tree, c, player);
            sum.add(tree, c, x);
        }
        return sum.value();
    };
    let values = tree.children(node).map(|c| paranoid(tree, c, player));
    if mover == player {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

/// The minimax rule's best moves and variation by searches that keep no tree ([`Prover`]:
/// walked alpha-beta, the path and one table in memory however many positions it visits, the
/// table, killers and history kept from one search to the next). The root's value is searched
/// once; then a child is best when a minimal window around its parent's value says its value
/// reaches it (at least the value below Max, at most it below Min): every root move is asked,
/// then down the variation the first child that is, until the horizon or the game's end. The
/// lazy tree would hold every position these searches generate (gigabytes for chess to depth 8);
/// full-window searches of each child, each with a table of its own, took ten times the search
/// itself there. `None` when the walk cannot search the game (a broken rule): the caller asks
/// the lazy tree, which reports the error.
fn walked<G: Game>(game: &G, depth: u32, table_bytes: u64) -> Option<Principal> {
    let mut prover = Prover::new(game, depth, table_bytes);
    let mut out = Principal::default();
    let mut position = game.start();
    let v = prover.search(&position, 0, f64::NEG_INFINITY, f64::INFINITY)?;
    let mut ply = 0;
    let mut moves = Vec::new();
    while ply < depth && game.outcome(&position).is_none() {
        let max = match game.turn(&position) {
            Turn::Max => true,
            Turn::Min => false,
            _ => break,
        };
        moves.clear();
        game.moves(&position, &mut moves);
        let mut first = None;
        for (i, mv) in moves.iter().enumerate() {
            let child = game.play(&position, mv);
            let best = if max {
                prover.at_least(&child, ply + 1, v)?
            } else {
                prover.at_most(&child, ply + 1, v)?
            };
            if best {
                if ply == 0 {
                    out.best_moves.push((i, game.label(&position, mv)));
                }
                if first.is_none() {
                    first = Some((i, child));
                    if ply > 0 {
                        break;
                    }
                }
            }
        }
        let Some((i, child)) = first else { break };
        out.pv.push((i, game.label(&position, &moves[i])));
        position = child;
        ply += 1;
    }
    Some(out)
}
