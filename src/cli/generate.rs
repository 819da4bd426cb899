//! `prune gen FAMILY`: seeded trees, written as RON (or the output's format) to a file or stdout.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use super::{CliError, emit};
use prune::format::{self, Format};
use prune::generate::{self, GenError, Spec, Values};
use prune::tree::Tree;

#[derive(Debug, Args)]
pub struct GenArgs {
    #[command(subcommand)]
    pub family: Family,
}

/// Flags every family shares.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// Seed of the random generator: the same seed gives the same tree, everywhere.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (format from its extension); stdout when absent or `-`. Without it, a tree
    /// over 200 lines or 16 KiB is not printed to a terminal: `-o -` prints it anyway.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Output format, whatever the extension: ron, efg or bracket.
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<Format>,
}

/// Leaf values of the families that draw them.
#[derive(Debug, Clone, Args)]
pub struct ValueArgs {
    /// Smallest leaf value.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub lo: f64,
    /// Largest leaf value.
    #[arg(long, default_value_t = 99.0, allow_negative_numbers = true)]
    pub hi: f64,
    /// Real leaf values in [lo, hi) instead of integers in lo..=hi.
    #[arg(long)]
    pub real: bool,
}

impl ValueArgs {
    fn values(&self) -> Values {
        Values {
            lo: self.lo,
            hi: self.hi,
            real: self.real,
        }
    }
}

#[derive(Debug, Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum UniformOrder {
    /// leaf values drawn independently
    Random,
    /// children sorted best first: alpha-beta visits exactly the minimal tree
    Best,
    /// built so that alpha-beta cannot cut anything off
    Worst,
}

#[derive(Debug, Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum StarOrderArg {
    /// Ballard §6.1's best case
    Best,
    /// every permutation of every node's arcs equally likely (§6.2.1)
    Random,
}

#[derive(Debug, Subcommand)]
pub enum Family {
    /// Uniform b-ary tree of depth d, Max at the root.
    Uniform {
        #[arg(short = 'b', long = "branching", default_value_t = 3)]
        branching: u32,
        #[arg(short = 'd', long = "depth", default_value_t = 4)]
        depth: u32,
        #[arg(long, value_enum, default_value_t = UniformOrder::Random)]
        order: UniformOrder,
        #[command(flatten)]
        values: ValueArgs,
        #[command(flatten)]
        common: Common,
    },
    /// Ballard's *-complete N-ary tree of depth 2D (Ballard 1982, §6), FGG arc-sum values.
    StarComplete {
        /// N, the branching factor.
        #[arg(short = 'b', long = "branching", default_value_t = 4)]
        branching: u32,
        /// D, the depth of the underlying minimax tree (the tree has depth 2D).
        #[arg(short = 'd', long = "depth", default_value_t = 2)]
        depth: u32,
        #[arg(long, value_enum, default_value_t = StarOrderArg::Best)]
        order: StarOrderArg,
        /// Only the critical 2-ply subtree + → * → − → leaf (N³ leaves, U = 3N/2 − 1, L = −U).
        #[arg(long)]
        critical: bool,
        /// Label every node with the value of its arc.
        #[arg(long)]
        labels: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Pearl's WIN-LOSS tree: leaves WIN (1) with probability P0; or the board-splitting game.
    WinLoss {
        #[arg(short = 'b', long = "branching", default_value_t = 2)]
        branching: u32,
        #[arg(short = 'd', long = "depth", default_value_t = 6)]
        depth: u32,
        /// Probability that a leaf is a WIN for Max.
        #[arg(long, default_value_t = 0.5)]
        p0: f64,
        /// Label moves as Pearl's board-splitting game (needs an even depth).
        #[arg(long)]
        board: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Random expectiminimax tree: regular (+ * − * …) or irregular, even or uneven probabilities.
    Chance {
        /// Children of a decision node.
        #[arg(short = 'b', long = "branching", default_value_t = 3)]
        branching: u32,
        /// Children of a chance node (default: the same as -b).
        #[arg(short = 'c', long = "chance-branching")]
        chance_branching: Option<u32>,
        /// Decision levels (regular) or the depth limit (irregular).
        #[arg(short = 'd', long = "depth", default_value_t = 3)]
        depth: u32,
        /// Draw each chance node's probabilities instead of making children equally likely.
        #[arg(long)]
        uneven: bool,
        /// Random kinds, branching and leaf depths (chance nodes with mixed children).
        #[arg(long)]
        irregular: bool,
        #[command(flatten)]
        values: ValueArgs,
        #[command(flatten)]
        common: Common,
    },
    /// n players in turn; payoff vectors of non-negative integers with a constant sum.
    Multiplayer {
        #[arg(long, default_value_t = 3)]
        players: u32,
        #[arg(short = 'b', long = "branching", default_value_t = 3)]
        branching: u32,
        #[arg(short = 'd', long = "depth", default_value_t = 3)]
        depth: u32,
        /// The sum of every payoff vector.
        #[arg(long, default_value_t = 10)]
        sum: u32,
        #[command(flatten)]
        common: Common,
    },
    /// Reinefeld & Marsland's averagely ordered tree: g extra expansions at cut nodes, r
    /// principal-variation changes at type-1 nodes (g = r = 0: perfectly ordered).
    Ordered {
        #[arg(short = 'b', long = "branching", default_value_t = 5)]
        branching: u32,
        #[arg(short = 'd', long = "depth", default_value_t = 5)]
        depth: u32,
        /// Children searched at a cut node before the refuting one.
        #[arg(short = 'g', long = "extra", default_value_t = 1)]
        g: u32,
        /// Changes of the best move at principal-variation nodes.
        #[arg(short = 'r', long = "changes", default_value_t = 1)]
        r: u32,
        #[command(flatten)]
        common: Common,
    },
    /// Two-player tree of random shape: branching in a range, leaves at any depth.
    Random {
        /// Fewest children of an interior node (1 allows unary chains).
        #[arg(long, default_value_t = 1)]
        min_branching: u32,
        /// Most children of an interior node.
        #[arg(short = 'b', long = "branching", default_value_t = 3)]
        branching: u32,
        /// Depth limit.
        #[arg(short = 'd', long = "depth", default_value_t = 5)]
        depth: u32,
        /// Probability that a node above the depth limit is a leaf.
        #[arg(long, default_value_t = 0.2)]
        leaf_probability: f64,
        /// Random Max/Min kinds instead of alternation.
        #[arg(long)]
        mixed: bool,
        #[command(flatten)]
        values: ValueArgs,
        #[command(flatten)]
        common: Common,
    },
    /// The full game tree of a real game, built from its rules; moves are the labels.
    Game {
        #[command(subcommand)]
        game: GameArg,
    },
}

/// `prune gen game NAME`: the games (docs/FORMAT.md, "Games"). They have no randomness: `--seed`
/// is accepted and ignored.
#[derive(Debug, Subcommand)]
pub enum GameArg {
    /// The whole game from the empty board: X is Max; leaves +1 / 0 / −1; moves "X b2"
    /// (columns a–c left to right, rows 1–3 top to bottom). 549,946 nodes.
    TicTacToe {
        /// Build the tree to this many moves; positions there that are not over become leaves
        /// worth the heuristic, (open lines for X − open lines for O)/10. The full game when
        /// absent.
        #[arg(short = 'd', long)]
        depth: Option<u32>,
        #[command(flatten)]
        common: Common,
    },
    /// Normal-play nim: take k ≥ 1 objects from one heap; taking the last object wins (+1 when
    /// Max, the first player, does).
    Nim {
        /// The heap sizes, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1,2,3,4")]
        heaps: Vec<u32>,
        /// Players in turn; more than 2 makes an n-player tree (payoff 1 to the winner, 0 to
        /// the others) for max^n.
        #[arg(long, default_value_t = 2)]
        players: u8,
        #[command(flatten)]
        common: Common,
    },
    /// Two-player Pig with chance nodes, OpenSpiel's pig(winscore, diceoutcomes, horizon).
    Pig {
        /// The banked score that wins.
        #[arg(long, default_value_t = 6)]
        win: u32,
        /// Outcomes of the die (1 loses the turn total).
        #[arg(long, default_value_t = 3)]
        dice: u32,
        /// The game ends (value 0) after this many moves, die rolls included.
        #[arg(long, default_value_t = 8)]
        horizon: u32,
        #[command(flatten)]
        common: Common,
    },
    /// Connect four (7 × 6) to a depth limit, from the start or after --moves: the first player
    /// is Max; ±1000 a win, 0 a draw; positions at the limit valued by open windows; moves
    /// "drop col 4".
    ConnectFour {
        /// Moves from the root position; positions there that are not over become leaves
        /// worth the heuristic.
        #[arg(short = 'd', long, default_value_t = 4)]
        depth: u32,
        /// Columns (1–7, left to right) played before the root, such as 4435.
        #[arg(long, default_value = "")]
        moves: String,
        #[command(flatten)]
        common: Common,
    },
    /// Chess to a depth limit, from the start or a FEN (legal moves by cozy-chess): White is
    /// Max; ±100000 a checkmate, 0 a draw; positions at the limit valued by material and piece
    /// squares (centipawns); moves in SAN ("Nf3").
    Chess {
        /// Moves from the root position; positions there that are not over become leaves
        /// worth the heuristic.
        #[arg(short = 'd', long, default_value_t = 2)]
        depth: u32,
        /// The root position in Forsyth–Edwards Notation (default: the starting position).
        #[arg(long, default_value = prune::game::chess::START)]
        fen: String,
        #[command(flatten)]
        common: Common,
    },
}

pub fn run(a: &GenArgs) -> Result<(), CliError> {
    let (tree, common) = build(&a.family).map_err(|e| CliError::Usage(e.to_string()))?;
    let to = Format::for_output(common.out.as_deref(), common.to).map_err(CliError::Usage)?;
    format::check_text_room(&tree, to).map_err(CliError::Usage)?;
    let text = format::write(&tree, to);
    if common.out.is_none() && std::io::stdout().is_terminal() {
        refuse_flooding_the_terminal(&text)?;
    }
    emit(common.out.as_ref(), &text)
}

/// The most `gen` prints to a terminal without `-o`: a few screens. A fixed size rather than
/// the window's height, so that a command does the same in any window; big enough for the
/// small trees a class types (`gen uniform -b 3 -d 4` is 59 lines), far below the megabytes a
/// game spans (`gen game nim --heaps 1,2,3,4` is 282,148 lines).
const TERMINAL_LINES: usize = 200;
const TERMINAL_BYTES: usize = 16 * 1024;

/// Refuses a tree longer than [`TERMINAL_LINES`] or [`TERMINAL_BYTES`] on its way to a terminal,
/// before anything is written: scrolling megabytes past helps no one and can take minutes. A
/// pipe or a file gets it whole, and `-o -` prints it anyway.
fn refuse_flooding_the_terminal(text: &str) -> Result<(), CliError> {
    let lines = text.lines().count();
    if lines <= TERMINAL_LINES && text.len() <= TERMINAL_BYTES {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "the tree is {} lines ({}), too long for the terminal (at most {TERMINAL_LINES} lines or \
         {} KiB); write it to a file with -o FILE, or print it anyway with -o -",
        prune::text::thousands(lines as u64),
        prune::memory::human_bytes(text.len() as u64),
        TERMINAL_BYTES / 1024
    )))
}

/// `prune gen`'s arguments in one string, as `--gen` takes them.
#[derive(Debug, Parser)]
#[command(name = "prune gen", no_binary_name = true)]
struct GenLine {
    #[command(subcommand)]
    family: Family,
}

/// The tree `line` describes — `prune gen`'s arguments (`uniform -b 3 -d 3 --seed 42`), with or
/// without `prune gen` in front — and the `prune gen` command that rebuilds it. Output flags
/// (`-o`, `--to`) are refused: the tree goes to the command that asked for it.
pub fn from_line(line: &str) -> Result<(Tree, String), CliError> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.first() == Some(&"prune") {
        words.remove(0);
    }
    if words.first() == Some(&"gen") {
        words.remove(0);
    }
    if words.is_empty() {
        return Err(CliError::Usage(format!(
            "--gen '{line}': name a family and its parameters, e.g. --gen 'uniform -b 3 -d 3 --seed 42' (see prune gen --help)"
        )));
    }
    // clap's rendered report strips what looks like a terminal sequence (an ESC and what
    // follows), so it would echo `-b 3\e` as `'3'`. No value of `gen` holds a control character:
    // clap gets the words escaped, refuses them, and its report shows them as typed.
    let words: Vec<_> = words.into_iter().map(prune::text::terminal_safe).collect();
    let words: Vec<&str> = words.iter().map(|w| w.as_ref()).collect();
    let parsed = GenLine::try_parse_from(&words).map_err(|e| {
        let line_args: Vec<&str> = std::iter::once("gen")
            .chain(words.iter().copied())
            .collect();
        let e = super::suggest_subcommand(e, &GenLine::command(), &line_args);
        let text = e.render().to_string();
        let text = text.trim().strip_prefix("error: ").unwrap_or(text.trim());
        // clap's report has several lines: escaped here, each break kept.
        CliError::Reported(format!(
            "error: --gen '{}': {}\n",
            prune::text::terminal_safe(line),
            super::message_safe(text)
        ))
    })?;
    let common = parsed.family.common();
    if common.out.is_some() || common.to.is_some() {
        return Err(CliError::Usage(format!(
            "--gen '{line}': -o and --to write a file; here the tree goes to the command itself"
        )));
    }
    let spec = parsed
        .family
        .try_spec()
        .map_err(|e| CliError::Usage(format!("--gen '{line}': {e}")))?;
    let tree = spec
        .build(common.seed)
        .map_err(|e| CliError::Usage(format!("--gen '{line}': {e}")))?;
    Ok((tree, spec.command(common.seed)))
}

/// The tree a `gen` invocation describes, and its shared flags.
pub fn build(family: &Family) -> Result<(Tree, &Common), GenError> {
    let common = family.common();
    Ok((family.try_spec()?.build(common.seed)?, common))
}

impl Family {
    /// The flags every family shares.
    pub fn common(&self) -> &Common {
        match self {
            Family::Uniform { common, .. }
            | Family::StarComplete { common, .. }
            | Family::WinLoss { common, .. }
            | Family::Chance { common, .. }
            | Family::Multiplayer { common, .. }
            | Family::Ordered { common, .. }
            | Family::Random { common, .. } => common,
            Family::Game { game } => match game {
                GameArg::TicTacToe { common, .. }
                | GameArg::Nim { common, .. }
                | GameArg::Pig { common, .. }
                | GameArg::ConnectFour { common, .. }
                | GameArg::Chess { common, .. } => common,
            },
        }
    }

    /// The family and parameters this invocation describes (everything but the shared flags).
    ///
    /// # Panics
    /// On a nim heap list [`generate::game::Heaps`] cannot hold; [`Family::try_spec`] says so.
    pub fn spec(&self) -> Spec {
        self.try_spec().expect("a valid specification")
    }

    /// [`Family::spec`], or why the parameters cannot be one.
    pub fn try_spec(&self) -> Result<Spec, GenError> {
        use generate::*;
        Ok(match self {
            Family::Game { game } => Spec::Game(match game {
                GameArg::TicTacToe { depth, .. } => game::GameSpec::TicTacToe { depth: *depth },
                GameArg::Nim { heaps, players, .. } => game::GameSpec::Nim {
                    heaps: game::Heaps::new(heaps)?,
                    players: *players,
                },
                GameArg::Pig {
                    win, dice, horizon, ..
                } => game::GameSpec::Pig {
                    win: *win,
                    dice: *dice,
                    horizon: *horizon,
                },
                GameArg::Chess { depth, fen, .. } => game::GameSpec::Chess {
                    depth: *depth,
                    fen: game::Fen::parse(fen)?,
                },
                GameArg::ConnectFour { depth, moves, .. } => game::GameSpec::ConnectFour {
                    depth: *depth,
                    moves: game::connect_four::Moves::parse(moves)?,
                },
            }),
            Family::Uniform {
                branching,
                depth,
                order,
                values,
                ..
            } => Spec::Uniform(uniform::Uniform {
                branching: *branching,
                depth: *depth,
                values: values.values(),
                order: match order {
                    UniformOrder::Random => uniform::Order::Random,
                    UniformOrder::Best => uniform::Order::Best,
                    UniformOrder::Worst => uniform::Order::Worst,
                },
            }),
            Family::StarComplete {
                branching,
                depth,
                order,
                critical,
                labels,
                ..
            } => Spec::StarComplete(star::StarComplete {
                branching: *branching,
                depth: *depth,
                order: match order {
                    StarOrderArg::Best => star::StarOrder::Best,
                    StarOrderArg::Random => star::StarOrder::Random,
                },
                critical: *critical,
                labels: *labels,
            }),
            Family::WinLoss {
                branching,
                depth,
                p0,
                board,
                ..
            } => Spec::WinLoss(winloss::WinLoss {
                branching: *branching,
                depth: *depth,
                p0: *p0,
                board: *board,
            }),
            Family::Chance {
                branching,
                chance_branching,
                depth,
                uneven,
                irregular,
                values,
                ..
            } => Spec::Chance(spec::ChanceSpec {
                branching: *branching,
                chance_branching: *chance_branching,
                depth: *depth,
                values: values.values(),
                uneven: *uneven,
                irregular: *irregular,
            }),
            Family::Multiplayer {
                players,
                branching,
                depth,
                sum,
                ..
            } => Spec::Multiplayer(multiplayer::Multiplayer {
                players: *players,
                branching: *branching,
                depth: *depth,
                sum: *sum,
            }),
            Family::Ordered {
                branching,
                depth,
                g,
                r,
                ..
            } => Spec::Ordered(ordered::Ordered {
                width: *branching,
                depth: *depth,
                g: *g,
                r: *r,
            }),
            Family::Random {
                min_branching,
                branching,
                depth,
                leaf_probability,
                mixed,
                values,
                ..
            } => Spec::Random(random::RandomShape {
                min_branching: *min_branching,
                max_branching: *branching,
                depth: *depth,
                leaf_probability: *leaf_probability,
                values: values.values(),
                mixed: *mixed,
            }),
        })
    }
}
