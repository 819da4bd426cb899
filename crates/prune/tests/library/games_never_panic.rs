//! Every algorithm of the catalogue, with each improvement, on every built-in game at depths 1
//! to 4 (and to the end where the game is small) either searches the game from its rules or is
//! refused with a reason — never a panic. The games include two that do not say how long they
//! last ([`Game::longest`]): a depth short of their end is then found during the search, where
//! a position at the horizon has no heuristic value, and the search must end cleanly with the
//! broken rule as its error.

use std::panic::{AssertUnwindSafe, catch_unwind};

use prune::game::run::{self as game_run, GameRunError};
use prune::game::{Game, Outcome, Turn, chess, connect_four, nim, pig, tic_tac_toe};
use prune::search::{ALGORITHMS, Algorithm, Param, Params};
use prune::tree::Meta;

/// A game that keeps quiet about its length: its rules, without [`Game::longest`].
struct Untold<G>(G);

impl<G: Game> Game for Untold<G> {
    type Position = G::Position;
    type Move = G::Move;
    fn name(&self) -> String {
        format!("{} (length untold)", self.0.name())
    }
    fn meta(&self) -> Meta {
        self.0.meta()
    }
    fn players(&self) -> u8 {
        self.0.players()
    }
    fn start(&self) -> G::Position {
        self.0.start()
    }
    fn outcome(&self, p: &G::Position) -> Option<Outcome> {
        self.0.outcome(p)
    }
    fn turn(&self, p: &G::Position) -> Turn {
        self.0.turn(p)
    }
    fn moves(&self, p: &G::Position, moves: &mut Vec<G::Move>) {
        self.0.moves(p, moves)
    }
    fn play(&self, p: &G::Position, m: &G::Move) -> G::Position {
        self.0.play(p, m)
    }
    fn label(&self, p: &G::Position, m: &G::Move) -> String {
        self.0.label(p, m)
    }
    fn probability(&self, p: &G::Position, m: &G::Move) -> Option<f64> {
        self.0.probability(p, m)
    }
    fn heuristic(&self, p: &G::Position) -> Option<f64> {
        self.0.heuristic(p)
    }
    fn key(&self, p: &G::Position) -> Option<u64> {
        self.0.key(p)
    }
    fn integral(&self) -> bool {
        self.0.integral()
    }
}

/// The improvements swept, as inline parameters.
const WITH: [(&str, Option<Param>); 6] = [
    ("", None),
    (":tt", Some(Param::Tt)),
    (":id", Some(Param::Id)),
    (":killers", Some(Param::Killers)),
    (":history", Some(Param::History)),
    (":id:aspiration=1", Some(Param::Aspiration)),
];

/// What became of each case: searched, refused (with its reason) or ended by a rule the game
/// broke during the search (with the rule).
#[derive(Default)]
struct Tally {
    searched: usize,
    refused: usize,
    broke: usize,
    panics: Vec<String>,
}

/// Every algorithm with every improvement on `game` at each of `depths`.
fn sweep<G: Game>(game: &G, depths: &[u32], tally: &mut Tally) {
    for info in ALGORITHMS {
        for (with, param) in WITH {
            let takes = |p: Param| info.params.iter().any(|s| s.param == p);
            for &depth in depths {
                let mut spec = format!("{}{with}", info.name);
                if takes(Param::Depth) && depth != u32::MAX {
                    spec += &format!(":depth={depth}");
                }
                let case = format!("{spec} on {} to depth {depth}", game.name());
                let algo = match Algorithm::parse(&spec, &Params::default()) {
                    Ok(a) => a,
                    Err(e) => {
                        // Only a parameter the algorithm does not take is refused here.
                        assert!(param.is_some_and(|p| !takes(p)), "{case}: {e}");
                        assert!(!e.to_string().is_empty(), "{case}");
                        tally.refused += 1;
                        continue;
                    }
                };
                match catch_unwind(AssertUnwindSafe(|| game_run::run(game, &algo, depth))) {
                    Ok(Ok(_)) => tally.searched += 1,
                    Ok(Err(e)) => {
                        let why = e.to_string();
                        assert!(!why.trim().is_empty(), "{case}: refused without a reason");
                        match e {
                            // A rule broken during the search: the search ended, and said so.
                            GameRunError::Game(_) => tally.broke += 1,
                            GameRunError::Refused(_) => tally.refused += 1,
                        }
                    }
                    Err(_) => tally.panics.push(case),
                }
            }
        }
    }
}

/// Sweeps `game` and checks that some cases were searched (`searched`) or ended by a broken
/// rule (otherwise): the sweep is not all refusals.
fn check<G: Game>(game: &G, depths: &[u32], searched: bool, all: &mut Tally) {
    let mut tally = Tally::default();
    sweep(game, depths, &mut tally);
    if searched {
        assert!(tally.searched > 0, "{}: nothing searched", game.name());
    } else {
        assert!(
            tally.broke > 0,
            "{}: no search found a rule broken",
            game.name()
        );
    }
    all.searched += tally.searched;
    all.refused += tally.refused;
    all.broke += tally.broke;
    all.panics.extend(tally.panics);
}

#[test]
fn every_algorithm_improvement_game_and_depth_runs_or_says_why() {
    let mut tally = Tally::default();
    let shallow = [1, 2, 3, 4];
    let to_the_end = [1, 2, 3, 4, u32::MAX];
    check(&tic_tac_toe::TicTacToe, &to_the_end, true, &mut tally);
    let nim = nim::Nim::new(&[1, 2, 3], 2).unwrap();
    check(&nim, &to_the_end, true, &mut tally);
    let nim3 = nim::Nim::new(&[1, 2, 3], 3).unwrap();
    check(&nim3, &to_the_end, true, &mut tally);
    let pig = pig::Pig::new(4, 2, 4).unwrap();
    check(&pig, &to_the_end, true, &mut tally);
    let c4 = connect_four::ConnectFour::new(&connect_four::Moves::NONE).unwrap();
    check(&c4, &shallow, true, &mut tally);
    let chess = chess::Chess::new(chess::START).unwrap();
    check(&chess, &[1, 2, 3], true, &mut tally);
    // Short of their end, found out during the search.
    check(&Untold(nim), &shallow, false, &mut tally);
    check(&Untold(nim3), &shallow, false, &mut tally);
    check(&Untold(pig), &shallow, false, &mut tally);
    assert!(
        tally.panics.is_empty(),
        "{} of {} cases panicked:\n{}",
        tally.panics.len(),
        tally.searched + tally.refused + tally.broke + tally.panics.len(),
        tally.panics.join("\n")
    );
}
