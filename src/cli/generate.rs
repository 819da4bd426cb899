//! `prune gen FAMILY`: seeded trees, written as RON (or the output's format) to a file or stdout.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use super::{CliError, emit};
use prune::format::{self, Format};
use prune::generate::{self, GenError, Spec, Values, game};
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

/// `prune gen game NAME`: the games (docs/FORMAT.md, "Games"), a subcommand each, whose flags
/// are its depth and parameters as [`game::GAMES`] describes them. They have no randomness:
/// `--seed` is accepted and ignored.
#[derive(Debug)]
pub struct GameArg {
    /// The game.
    pub game: &'static game::BuiltIn,
    /// `--depth`, where the game takes one.
    pub depth: Option<u32>,
    /// Its parameters, each given or at its default, as text ([`game::GameSpec::set`]).
    pub values: Vec<(&'static str, String)>,
    pub common: Common,
}

impl GameArg {
    /// The game with these parameters.
    fn spec(&self) -> Result<game::GameSpec, GenError> {
        let mut spec = game::GameSpec::default_for(self.game.name).expect("a built-in game");
        spec.set_depth(self.depth);
        for (param, value) in &self.values {
            spec.set(param, value)?;
        }
        Ok(spec)
    }
}

/// `gen game NAME`: the game's description, `--depth` where it takes one, and its parameters
/// with their defaults, then the flags every family shares.
fn game_command(g: &'static game::BuiltIn) -> clap::Command {
    use clap::Arg;
    let default = game::GameSpec::default_for(g.name).expect("a built-in game");
    let depth = Arg::new("depth")
        .short('d')
        .long("depth")
        .value_name("DEPTH")
        .value_parser(clap::value_parser!(u32))
        .help(sentence(g.depth_help));
    let cmd = clap::Command::new(g.name);
    let cmd = match g.depth {
        game::Depth::Optional => cmd.arg(depth),
        game::Depth::Needed(d) => cmd.arg(depth.default_value(d.to_string())),
        game::Depth::ToTheEnd => cmd,
    };
    let cmd = g.params.iter().fold(cmd, |cmd, p| {
        cmd.arg(
            Arg::new(p.name)
                .long(p.name)
                .value_name(p.value_name)
                .help(sentence(p.help))
                .default_value(default.value(p.name).expect("the game's own parameter")),
        )
    });
    // The shared flags' own description would stand for the game's: it comes after them.
    Common::augment_args(cmd).about(g.about).long_about(None)
}

/// `help` with a capital, as clap's help lines start.
fn sentence(help: &str) -> String {
    let mut chars = help.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

impl Subcommand for GameArg {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        game::GAMES
            .iter()
            .fold(cmd, |cmd, g| cmd.subcommand(game_command(g)))
            .subcommand_required(true)
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        GameArg::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        game::built_in(name).is_some()
    }
}

impl clap::FromArgMatches for GameArg {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<GameArg, clap::Error> {
        let (name, m) = m
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        let game = game::built_in(name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        let depth = match game.depth {
            game::Depth::ToTheEnd => None,
            _ => m.get_one::<u32>("depth").copied(),
        };
        let values = game
            .params
            .iter()
            .filter_map(|p| m.get_one::<String>(p.name).map(|v| (p.name, v.clone())))
            .collect();
        Ok(GameArg {
            game,
            depth,
            values,
            common: Common::from_arg_matches(m)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = GameArg::from_arg_matches(m)?;
        Ok(())
    }
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
            Family::Game { game } => &game.common,
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
            Family::Game { game } => Spec::Game(game.spec()?),
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
