//! The front door: [`run`] searches a stored tree or a game from its rules with an algorithm
//! named as on the command line (`"alphabeta"`, `"negascout:tt:id"`, `"star2:probes=2"`), and
//! answers with what every search of either kind produces: the value, whether it is exact, the
//! statistics, the tied best root moves and the principal variation, by their labels.
//!
//! Underneath are the two ways in, for a caller who needs more: [`search::run`] on a
//! [`Tree`] (the tied best moves, the principal variation, any [`Observer`](crate::search::Observer)
//! through [`search::search`]) and [`game::run::run`] on a [`Game`] to a horizon. A game's rules
//! are checked as its positions are generated; a rule broken during the search is the answer
//! ([`RunError::Game`]), never a value.

use crate::game::{self, Game, GameError};
use crate::search::{self, Algorithm, Bound, ParamError, Params, Stats, Value};
use crate::tree::{Tree, names};

/// Something [`run`] can search: a stored [`Tree`], or a game's rules to a horizon
/// ([`Rules`]). Sealed: these two are the kinds of input every algorithm is defined on.
pub trait Subject: sealed::Sealed {
    /// Searches `self` with `algorithm`.
    #[doc(hidden)]
    fn searched_by(&self, algorithm: Algorithm) -> Result<Searched, RunError>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::tree::Tree {}
    impl<G: crate::game::Game> Sealed for super::Rules<'_, G> {}
}

/// A game searched from its rules, `depth` moves deep: positions at the horizon are valued by
/// the game's heuristic, and a game without one must be over by then.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'g, G> {
    /// The game.
    pub game: &'g G,
    /// The horizon, in moves (plies) from the start.
    pub depth: u32,
}

impl<'g, G: Game> Rules<'g, G> {
    /// `game`'s rules searched to `depth` moves.
    pub fn new(game: &'g G, depth: u32) -> Self {
        Rules { game, depth }
    }
}

/// A move: its position among its position's children (from 0) and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Position among its siblings, from 0, in the order the rules or the file give them.
    pub index: usize,
    /// The move's label (`"X b2"`, `"e2e4"`, `"a"`).
    pub label: String,
}

/// What a search answered.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The algorithm and its parameters.
    pub algorithm: Algorithm,
    /// The root's value, as the search returned it.
    pub value: Value,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
    /// The search's statistics.
    pub stats: Stats,
    /// The tied best root moves: every move whose value equals the root's by the family's
    /// reference values (minimax, expectiminimax, max^n), whatever the algorithm searched;
    /// empty when the root is a leaf (a finished game) or a chance node.
    pub best: Vec<Move>,
    /// The principal variation: from the root, the first best move each time, down to a leaf,
    /// the horizon or a chance node.
    pub pv: Vec<Move>,
    /// The search alone, in seconds.
    pub seconds: f64,
}

/// Why [`run`] gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The algorithm's name or parameters are not understood.
    #[error(transparent)]
    Algorithm(#[from] ParamError),
    /// The algorithm does not apply to this tree or game (a chance node for alpha-beta, three
    /// players for NegaScout …); the message says why.
    #[error("{0}")]
    Refused(String),
    /// The game's rules broke a promise during the search; the search's value would mean
    /// nothing.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// Runs the algorithm named `algorithm` (as on the command line, parameters after colons) on
/// `subject`, a stored tree or a game's [`Rules`], with statistics only.
///
/// ```
/// use prune::{Rules, run};
/// use prune::game::tic_tac_toe::TicTacToe;
///
/// let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false)?;
/// let answer = run(&tree, "alphabeta")?;
/// assert_eq!(answer.value.scalar(), Some(3.0));
/// assert_eq!(answer.best[0].index, 0); // the first move, unlabelled in a bracket expression
/// assert_eq!(answer.pv.iter().map(|m| m.index).collect::<Vec<_>>(), [0, 0]); // to the leaf 3
///
/// // Tic-tac-toe from the empty board, to the end: a draw, whichever square X takes first.
/// let answer = run(&Rules::new(&TicTacToe, 9), "negascout:tt")?;
/// assert_eq!(answer.value.scalar(), Some(0.0));
/// assert_eq!(answer.best.len(), 9);
/// assert_eq!(answer.best[4].label, "X b2");
/// assert_eq!(answer.pv.len(), 9); // a drawn game, move by move
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run<S: Subject + ?Sized>(subject: &S, algorithm: &str) -> Result<Searched, RunError> {
    subject.searched_by(Algorithm::parse(algorithm, &Params::default())?)
}

impl Subject for Tree {
    fn searched_by(&self, algorithm: Algorithm) -> Result<Searched, RunError> {
        let run = search::run(self, &algorithm).map_err(|r| RunError::Refused(r.to_string()))?;
        let root = self.root();
        let best = run
            .best_moves
            .iter()
            .map(|&index| Move {
                index,
                label: names::move_name(self, self.child(root, index)),
            })
            .collect();
        // The run's variation starts at the root; its moves are the nodes after it.
        let pv = run
            .pv
            .iter()
            .filter(|&&node| node != root)
            .map(|&node| Move {
                index: self.child_index(node),
                label: names::move_name(self, node),
            })
            .collect();
        Ok(Searched {
            algorithm: run.algorithm,
            value: run.value,
            bound: run.bound,
            stats: run.stats,
            best,
            pv,
            seconds: run.seconds,
        })
    }
}

impl<G: Game> Subject for Rules<'_, G> {
    /// The search, then its best moves and variation by their own null-window (or reference)
    /// searches ([`game::best::principal`]), which count in neither the statistics nor the time.
    fn searched_by(&self, algorithm: Algorithm) -> Result<Searched, RunError> {
        let game_error = |e| match e {
            game::run::GameRunError::Refused(why) => RunError::Refused(why),
            game::run::GameRunError::Game(e) => RunError::Game(e),
        };
        let run = game::run::run(self.game, &algorithm, self.depth).map_err(game_error)?;
        let principal =
            game::best::principal(self.game, &algorithm, self.depth).map_err(game_error)?;
        let moves = |moves: Vec<(usize, String)>| {
            moves
                .into_iter()
                .map(|(index, label)| Move { index, label })
                .collect()
        };
        Ok(Searched {
            algorithm: run.algorithm,
            value: run.value,
            bound: run.bound,
            stats: run.stats,
            best: moves(principal.best_moves),
            pv: moves(principal.pv),
            seconds: run.seconds,
        })
    }
}
