//! The command line: argument definitions (clap derive) and one module per command.
//!
//! Data goes to stdout, messages to stderr. Exit codes: 0 success, 2 bad input or usage (clap's
//! own usage errors exit 2 too) or an output that cannot be written (a full disk, a read-only
//! file; `compare` when no algorithm could search the tree), 1 an internal error. Every output goes through [`write_output`]: `-` is stdout,
//! anything else [`format::save_with`]. Every tree file is read by [`load_file`]: `-` is stdin.

mod analyze;
mod check_trace;
mod convert;
mod draw;
mod experiment;
pub(crate) mod game_run;
pub mod generate;
mod import;
mod info;
mod man;
pub mod search;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, CommandFactory, Parser, Subcommand};

use prune::format::{self, Format, LoadError};
use prune::tree::Tree;

/// Explore game-tree search: alpha-beta, NegaScout, Star1/Star2, max^n and friends, step by step.
#[derive(Debug, Parser)]
#[command(name = "prune", version = env!("PRUNE_VERSION"), about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A tree file to open (RON, .efg or bracket notation); without one, the built-in example.
    pub file: Option<PathBuf>,
    /// Read tree files up to this size: bytes, or with a K, M or G suffix (default 1G).
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_size)]
    pub max_file_size: Option<u64>,
    /// Load or write a tree even when its estimated memory exceeds what is available (it may
    /// then run out half-way: prune stops with a message, and no file is left half-written).
    #[arg(long, global = true)]
    pub ignore_memory_estimate: bool,
}

/// `4096`, `64K`, `512M`, `2G` (powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => {
            return Err(format!(
                "`{s}`: expected bytes, or a number with K, M, G or T"
            ));
        }
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: expected bytes, or a number with K, M, G or T"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))
}

/// A name the shell completions offer from a list (`prune completions`), parsed by `check`:
/// clap's own possible values would refuse a typo with clap's message, where the commands
/// name the closest known name their own way (and accept inline parameters: `star2:probes=2`).
/// The arguments hide the list from their help, which names where to find it.
#[derive(Clone)]
pub struct Offered {
    names: fn() -> Vec<&'static str>,
    check: fn(&str) -> Result<String, String>,
}

impl Offered {
    /// `names` offered, any text accepted.
    pub fn any(names: fn() -> Vec<&'static str>) -> Offered {
        Offered {
            names,
            check: |s| Ok(s.to_owned()),
        }
    }

    /// `names` offered, the text parsed by `check`.
    pub fn checked(
        names: fn() -> Vec<&'static str>,
        check: fn(&str) -> Result<String, String>,
    ) -> Offered {
        Offered { names, check }
    }
}

impl clap::builder::TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        self.check.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.names)()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// The catalogue's algorithms, as `prune algos` lists them.
pub fn algorithm_names() -> Vec<&'static str> {
    prune::search::ALGORITHMS.iter().map(|a| a.name).collect()
}

/// The games `--game` takes.
pub fn game_names() -> Vec<&'static str> {
    prune::generate::game::GameSpec::NAMES.to_vec()
}

/// The experiments, as `prune experiment --list` lists them.
pub fn experiment_names() -> Vec<&'static str> {
    crate::experiment::EXPERIMENTS
        .iter()
        .map(|e| e.name)
        .collect()
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Describe a tree: size, depth, branching, kinds, bounds, regularity.
    Info(info::InfoArgs),
    /// Generate a seeded tree.
    Gen(generate::GenArgs),
    /// Convert a tree between RON, .efg and bracket notation.
    Convert(convert::ConvertArgs),
    /// Run one algorithm: value, best moves, principal variation, statistics; traces on request.
    Run(search::RunArgs),
    /// Run several algorithms on one tree: a table, a row per algorithm.
    Compare(search::CompareArgs),
    /// List the algorithms: what each applies to, its parameters and its paper.
    Algos(search::AlgosArgs),
    /// Draw the tree top-down as in the papers, at any step of a run or every step: text, SVG,
    /// TikZ, DOT, a Beamer document or a web page.
    Draw(draw::DrawArgs),
    /// Label every node with its Knuth–Moore type (PV/CUT/ALL); the minimal tree's size.
    Analyze(analyze::AnalyzeArgs),
    /// Reproduce a paper's table: our figures beside the printed ones.
    Experiment(experiment::ExperimentArgs),
    /// Check an engine's search trace (docs/PROTOCOL.md) against its algorithm's rules and a tree.
    CheckTrace(check_trace::CheckTraceArgs),
    /// Open the explorer on a tree, optionally with runs already done.
    Tui(TuiArgs),
    /// Print the manual page, or write every subcommand's page too with --dir.
    Man(man::ManArgs),
    /// Print a shell completion script.
    Completions {
        /// bash, zsh, fish, elvish or powershell
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
// With --import the tree is --tree's, not the positional file's; without a file, --expr, --gen
// or --game the explorer opens the built-in tree, as `prune` alone does.
#[command(mut_arg("file", |a| a.conflicts_with("import")))]
#[command(mut_group("tree", |g| g.required(false)))]
pub struct TuiArgs {
    #[command(flatten)]
    pub tree: TreeSource,
    /// Algorithms to run before the first frame, e.g. `alphabeta,negascout` or `star2:probes=2`.
    #[arg(
        long,
        value_name = "ALGO[,ALGO…]",
        value_delimiter = ',',
        value_parser = Offered::any(algorithm_names),
        hide_possible_values = true
    )]
    pub run: Vec<String>,
    /// Practice on this algorithm's search (e.g. `alphabeta`, `star1`): its results hidden,
    /// answer its questions as it proceeds (the window, the value, searched or pruned).
    #[arg(
        long,
        value_name = "ALGO[:PARAMS]",
        value_parser = Offered::any(algorithm_names),
        hide_possible_values = true
    )]
    pub practice: Option<String>,
    /// Check the keymap and the themes in the config directory, report every problem with its
    /// file, line and column, and exit (2 when something is wrong).
    #[arg(long, exclusive = true)]
    pub check_config: bool,
    /// With --game: the horizon, D moves from the root (positions there valued by the game's
    /// heuristic); the --run algorithms search to it. Which games need it: from the registry.
    #[arg(long, value_name = "D", requires = "game", help = tui_depth_help())]
    pub depth: Option<u32>,
    /// An engine's trace (docs/PROTOCOL.md) to open beside prune's run of the search it
    /// claims, at its first departure; with --tree, the tree it searched, or with --game NAME
    /// (and --depth D) the game written out from its rules, as `check-trace --game` does.
    #[arg(
        long,
        value_name = "ENGINE.jsonl",
        conflicts_with_all = ["expr", "gen", "practice"]
    )]
    pub import: Option<PathBuf>,
    /// With --import: the tree the engine searched.
    #[arg(
        long = "tree",
        id = "import_tree",
        value_name = "FILE",
        requires = "import",
        conflicts_with = "game"
    )]
    pub import_tree: Option<PathBuf>,
}

/// Where a command's tree comes from: a file, a bracket expression or a generator. One of
/// them is required, as one group, so that the usage line says `--expr`, `--gen` and `--game`
/// stand in for FILE.
#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("tree").args(["file", "expr", "gen", "game"]).required(true)))]
pub struct TreeSource {
    /// Tree file: RON (.ron), Gambit (.efg) or bracket notation (.txt, .tree); `-` for stdin.
    #[arg(value_name = "FILE", conflicts_with_all = ["expr", "gen", "game"])]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub input: TreeInput,
}

/// The options of a tree's source beside the file: described once, for every command that
/// reads a tree (`prune convert` takes its file among its own positional arguments).
#[derive(Debug, Clone, Args)]
pub struct TreeInput {
    /// A tree in bracket notation instead of a file, e.g. '((3,12,8),(2,4,6),(14,5,2))'.
    #[arg(
        long,
        value_name = "TREE",
        allow_hyphen_values = true,
        conflicts_with_all = ["gen", "game"]
    )]
    pub expr: Option<String>,
    /// A generated tree instead of a file: what `prune gen` takes, in one argument, e.g.
    /// 'uniform -b 3 -d 3 --order random --seed 42' (the same seed gives the same tree).
    #[arg(long, value_name = "FAMILY ARGS…", allow_hyphen_values = true)]
    #[arg(id = "gen", long = "gen", conflicts_with = "game")]
    pub generated: Option<String>,
    /// With --expr: make an unmarked root a Min node (levels alternate from it).
    #[arg(long, requires = "expr")]
    pub min_root: bool,
    /// Read FILE in this format whatever its extension: ron, efg or bracket.
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<Format>,
    #[command(flatten)]
    pub game: GameFlags,
}

/// A game from its rules: the game and its options, as `prune gen game NAME` takes them.
/// `run`, `compare` and `tui` search it lazily to their `--depth` (tic-tac-toe, nim and pig to
/// the end without one); `check-trace` writes its tree out to its `--depth`. The commands that
/// read stored trees only hide these flags ([`hide_game_flags`]). An option of another game
/// than `--game`'s is refused.
#[derive(Debug, Clone, Default)]
pub struct GameFlags {
    /// `--game NAME`: search a game from its rules instead of a stored tree.
    pub game: Option<String>,
    /// The game options given (`--heaps 1,2,3` is `("heaps", "1,2,3")`), by the names of
    /// [`prune::generate::game::GAMES`]' parameters: any game's, each refused with another
    /// game than its own.
    pub values: Vec<(&'static str, String)>,
    /// `--threads N`.
    pub threads: Option<u32>,
    /// `--hash MB`.
    pub hash: Option<u32>,
}

/// Each game option once, with the first game that has it, in the order of the games.
fn game_options() -> Vec<(
    &'static prune::generate::game::BuiltIn,
    &'static prune::generate::game::GameParam,
)> {
    let mut seen: Vec<(_, &prune::generate::game::GameParam)> = Vec::new();
    for game in &prune::generate::game::GAMES {
        for param in game.params {
            if !seen.iter().any(|(_, p)| p.name == param.name) {
                seen.push((game, param));
            }
        }
    }
    seen
}

/// `--game`'s help: the games, and which of them a search solves without `--depth`.
fn game_flag_help() -> String {
    let (solved, needed) = games_by_depth();
    format!(
        "Search a game from its rules instead of a stored tree, generating positions as the search reaches them: {}. --depth D is the horizon; without it {solved} searched to the end (solved), and {needed} one",
        list_or(&game_names(), "or"),
    )
}

/// `tui --depth`'s help: which games are searched to the end without it.
fn tui_depth_help() -> String {
    let (solved, needed) = games_by_depth();
    format!(
        "With --game: the horizon, D moves from the root (positions there valued by the game's heuristic); the --run algorithms search to it. Without it {solved} searched to the end; {needed} it"
    )
}

/// The games a search solves without `--depth`, and those that need one, each with its verb:
/// ("tic-tac-toe, nim and pig are", "connect-four and chess need").
fn games_by_depth() -> (String, String) {
    use prune::generate::game::{Depth, GAMES};
    let (solved, needed): (Vec<_>, Vec<_>) = GAMES
        .iter()
        .partition(|g| !matches!(g.depth, Depth::Needed(_)));
    let with_verb = |games: Vec<&prune::generate::game::BuiltIn>, one: &str, many: &str| {
        let names: Vec<&str> = games.iter().map(|g| g.name).collect();
        let verb = if names.len() == 1 { one } else { many };
        format!("{} {verb}", list_or(&names, "and"))
    };
    (
        with_verb(solved, "is", "are"),
        with_verb(needed, "needs", "need"),
    )
}

/// "a, b and c".
fn list_or(items: &[&str], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., end] => format!("{} {last} {end}", rest.join(", ")),
    }
}

impl clap::FromArgMatches for GameFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = GameFlags::default();
        flags.update_from_arg_matches(m)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        if let Some(game) = m.get_one::<String>("game") {
            self.game = Some(game.clone());
        }
        for (_, param) in game_options() {
            if let Some(value) = m.get_one::<String>(param.name) {
                self.values.retain(|(name, _)| *name != param.name);
                self.values.push((param.name, value.clone()));
            }
        }
        if let Some(&threads) = m.get_one::<u32>("threads") {
            self.threads = Some(threads);
        }
        if let Some(&hash) = m.get_one::<u32>("hash") {
            self.hash = Some(hash);
        }
        Ok(())
    }
}

impl clap::Args for GameFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        use clap::Arg;
        let cmd = cmd.arg(
            Arg::new("game")
                .long("game")
                .value_name("NAME")
                .value_parser(Offered::any(game_names))
                .hide_possible_values(true)
                .help(game_flag_help()),
        );
        let cmd = game_options().into_iter().fold(cmd, |cmd, (game, param)| {
            let default = prune::generate::game::GameSpec::default_for(game.name)
                .and_then(|spec| spec.value(param.name))
                .filter(|v| !v.is_empty() && param.name != "fen");
            let default = default.map_or(String::new(), |d| format!(" (default {d})"));
            cmd.arg(
                Arg::new(param.name)
                    .long(param.name)
                    .value_name(param.value_name)
                    .requires("game")
                    .help(format!(
                        "With --game {}: {}{default}",
                        game.name, param.help
                    )),
            )
        });
        cmd.arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .requires("game")
                .value_parser(clap::value_parser!(u32).range(1..=256))
                .help("With --game: search on N threads (Lazy SMP: the threads share a transposition table), for `run` and `compare` with alphabeta, negascout or mtdf and --tt, searched depth first. The value is the serial search's; the statistics are summed over the threads. Default 1"),
        )
        .arg(
            Arg::new("hash")
                .long("hash")
                .value_name("MB")
                .requires("game")
                .value_parser(clap::value_parser!(u32).range(1..=65536))
                .help("With --game: the transposition table's memory in MB (2^20 bytes), for `run` and `compare` with alphabeta, negascout or mtdf and --tt, searched depth first. On one thread the most the table grows to (default 256): past it the shallowest entries are forgotten; with --threads the table the threads share, allocated whole (default 24). A smaller table never changes the value, only the nodes searched"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl GameFlags {
    /// The threads asked for (`--threads`, 1 without it).
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or(1) as usize
    }

    /// What a walked search may use: `--threads` and `--hash`.
    pub fn resources(&self) -> prune::game::run::Resources {
        prune::game::run::Resources {
            threads: self.threads(),
            table_bytes: self.hash.map(|mb| u64::from(mb) << 20),
        }
    }

    /// Refuses `--threads N` (N > 1) and `--hash` for `what`, a search that records its tree or
    /// writes the game out: only the depth-first walk runs on threads and bounds its table.
    pub fn refuse_walk_flags(&self, what: &str) -> Result<(), CliError> {
        if self.threads() > 1 {
            return Err(CliError::Usage(format!(
                "--threads does not apply to {what}: only `run` and `compare` without --trace, --dot or --stats-csv search on threads (Lazy SMP), which records no tree"
            )));
        }
        if self.hash.is_some() {
            return Err(CliError::Usage(format!(
                "--hash does not apply to {what}: only `run` and `compare` without --trace, --dot or --stats-csv bound their table, which records no tree (the recorded tree's table keeps every entry)"
            )));
        }
        Ok(())
    }
}

/// Hides a game's flags from the help, the manual page and the completions of a command that
/// reads stored trees only (`info`, `draw`, `analyze`, `convert`): it cannot take `--game`, and
/// refuses it with the way to a game's tree (`--gen 'game NAME …'`).
pub(crate) fn hide_game_flags(arg: clap::Arg) -> clap::Arg {
    let id = arg.get_id().as_str();
    if matches!(id, "game" | "threads" | "hash") || game_options().iter().any(|(_, p)| p.name == id)
    {
        arg.hide(true)
    } else {
        arg
    }
}

impl TreeSource {
    pub fn load(&self) -> Result<Tree, CliError> {
        Ok(self.load_described()?.0)
    }

    /// The tree, and what to call it in messages: the file, `--expr`, or the `prune gen`
    /// command that rebuilds a generated tree.
    pub fn load_described(&self) -> Result<(Tree, String), CliError> {
        let input = &self.input;
        if let Some(name) = &input.game.game {
            return Err(CliError::Usage(format!(
                "--game searches {name} from its rules with `prune run` and `prune compare`; for a stored tree, write it out: --gen 'game {name} …'"
            )));
        }
        if let Some(line) = &input.generated {
            return generate::from_line(line);
        }
        let name = match (&input.expr, &self.file) {
            (Some(_), _) => "--expr".into(),
            (None, Some(f)) if f.as_os_str() == "-" => STDIN.into(),
            (None, Some(f)) => f.display().to_string(),
            (None, None) => unreachable!("clap requires FILE, --expr or --gen"),
        };
        let tree = match &input.expr {
            Some(e) => format::parse_expr(e, input.min_root)?,
            None => load_file(self.file.as_ref().expect("FILE"), input.from)?,
        };
        Ok((tree, name))
    }
}

/// Refuses an output that is one of the input files (the same device and inode, so hard links,
/// symbolic links and other spellings count): writing it would replace what the command reads
/// (a tree, a part of an experiment) with a drawing, a trace, a chart or a copy. Refuses two
/// outputs that name one file too: the second would replace the first. Every output a command
/// writes is named here, numbered pictures included, before the first is written. An output
/// that does not exist yet is fine; `-` may be an input (standard input), not two outputs.
pub fn refuse_output_over_input<'a, 'b>(
    inputs: impl IntoIterator<Item = &'a Path>,
    outputs: impl IntoIterator<Item = Option<&'b PathBuf>>,
) -> Result<(), CliError> {
    let shown = |p: &Path| prune::text::terminal_safe(&p.display().to_string()).into_owned();
    let outputs: Vec<&PathBuf> = outputs.into_iter().flatten().collect();
    for input in inputs.into_iter().filter(|p| p.as_os_str() != "-") {
        for out in &outputs {
            if out.as_os_str() != "-" && same_file(input, out) {
                return Err(CliError::Usage(format!(
                    "{} is the input file {}: writing it would replace what is read; name another output",
                    shown(out),
                    shown(input)
                )));
            }
        }
    }
    for (i, a) in outputs.iter().enumerate() {
        if let Some(b) = outputs[i + 1..].iter().find(|b| same_target(a, b)) {
            return Err(CliError::Usage(format!(
                "{} and {} name one file: the second output would replace the first; name two",
                shown(a),
                shown(b)
            )));
        }
    }
    Ok(())
}

/// Whether two outputs end in one file: both standard output, one existing file, or (not yet
/// there) one name in one folder.
fn same_target(a: &Path, b: &Path) -> bool {
    if a.as_os_str() == "-" || b.as_os_str() == "-" {
        return a == b;
    }
    if same_file(a, b) {
        return true;
    }
    let place = |p: &Path| {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some((std::fs::canonicalize(dir).ok()?, p.file_name()?.to_owned()))
    };
    match (place(a), place(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Whether both paths exist and name one file.
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Whether both paths exist and name one file (hard links are not told apart here).
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A command's failure, with the exit code it maps to.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input: an unreadable or invalid tree, impossible parameters.
    #[error(transparent)]
    Input(#[from] LoadError),
    /// Bad usage or parameters the argument parser could not catch.
    #[error("{0}")]
    Usage(String),
    /// Writing an output file failed.
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A bug or an environment failure.
    #[error("internal error: {0}")]
    Internal(String),
    /// An input error already rendered with its position (a file the explorer could not load).
    #[error("{0}")]
    Reported(String),
    /// `check-trace` found a departure, already reported on stdout: exit 1, nothing more said.
    #[error("the trace departs from its algorithm's rules")]
    Departed,
}

/// A load error's report, coloured on a terminal: the library renders plain text, or through
/// the writer it is given (here termcolor's ANSI one), and writes no escape sequence itself.
pub fn load_error_text(e: &prune::format::LoadError, color: bool) -> String {
    let Some(d) = e.diagnostic().filter(|_| color) else {
        return e.render();
    };
    let mut out = Vec::new();
    let mut w = codespan_reporting::term::termcolor::Ansi::new(&mut out);
    match d.render_styled(&mut w) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(_) => e.render(),
    }
}

impl CliError {
    /// A usage error from anything that explains itself: a refusal, a bad parameter.
    pub fn usage(e: impl std::fmt::Display) -> CliError {
        CliError::Usage(e.to_string())
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Internal(_) | CliError::Departed => 1,
            _ => 2,
        }
    }

    /// The report for stderr. Messages quote what the user typed (paths, algorithm names,
    /// moves, labels): every control character in them, line breaks included, is escaped as in
    /// names from files ([`prune::text::terminal_safe`]). A report of several lines is built
    /// escaped, as [`CliError::Reported`].
    pub fn render(&self, color: bool) -> String {
        match self {
            CliError::Input(e) => load_error_text(e, color),
            CliError::Reported(text) => text.clone(),
            CliError::Departed => String::new(),
            other => format!(
                "error: {}\n",
                prune::text::terminal_safe(&other.to_string())
            ),
        }
    }
}

/// A report of several lines fit for a terminal: its line breaks kept, every other control
/// character escaped.
pub(crate) fn message_safe(message: &str) -> std::borrow::Cow<'_, str> {
    prune::text::escape_unsafe(message, |c| c == '\n')
}

/// clap's report of a command line it refused, with what the user typed escaped. clap quotes
/// values as typed (stripping only the escape sequences it recognises, and only off a terminal):
/// when an argument holds a character a terminal must not get raw, the command line is parsed
/// again with every argument escaped, and that report, which quotes the escaped text, is given.
pub fn refuse_command_line(e: clap::Error) -> ! {
    if !e.use_stderr() {
        print_help(&e)
    }
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let e = suggest_subcommand(e, &Cli::command(), &args);
    let escaped: Vec<String> = args
        .iter()
        .map(|a| prune::text::terminal_safe(&a.to_string_lossy()).into_owned())
        .collect();
    if args
        .iter()
        .zip(&escaped)
        .all(|(a, e)| a.to_str() == Some(e))
    {
        e.exit()
    }
    match Cli::try_parse_from(&escaped) {
        Err(again) if again.kind() == e.kind() => again.exit(),
        _ => {
            eprint!("{}", message_safe(&e.render().to_string()));
            std::process::exit(e.exit_code())
        }
    }
}

/// `--help` or `--version`, which clap hands over as an "error" to print on standard output:
/// printed, and exit code 0, or exit code 2 with a message when standard output cannot take it
/// (a full disk, `> /dev/full`), as for any other output. A closed pipe ends it quietly.
fn print_help(e: &clap::Error) -> ! {
    match e.print().and_then(|()| std::io::stdout().flush()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
            let err = CliError::Write {
                path: "standard output".into(),
                source: err,
            };
            eprint!("{}", err.render(false));
            std::process::exit(i32::from(err.exit_code()))
        }
        _ => std::process::exit(0),
    }
}

/// clap's refusal of an unknown subcommand, with the one the user most likely meant
/// ([`prune::text::closest_name`]) when clap guessed none: clap wants a close Jaro match and
/// misses a swapped pair (`gen game nmi`). The subcommands offered are those of the command the
/// unknown word followed, found by walking `args` (the program's name first) down from `root`.
pub fn suggest_subcommand(
    mut e: clap::Error,
    root: &clap::Command,
    args: &[impl AsRef<std::ffi::OsStr>],
) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidSubcommand || e.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return e;
    }
    let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidSubcommand) else {
        return e;
    };
    let typed = typed.clone();
    let mut parent = root;
    for arg in args.iter().skip(1).map(|a| a.as_ref().to_string_lossy()) {
        if arg == typed {
            break;
        }
        if let Some(sub) = parent.find_subcommand(arg.as_ref()) {
            parent = sub;
        }
    }
    let names = parent.get_subcommands().map(|c| c.get_name());
    if let Some(name) = prune::text::closest_name(&typed, names) {
        e.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::Strings(vec![name.to_owned()]),
        );
    }
    e
}

/// `prune WORD` where WORD is no file but close to a subcommand's name (`prune rn`): the
/// refusal asks whether the subcommand was meant, rather than only that the file is missing.
fn refuse_near_subcommand(file: &Path) -> Result<(), CliError> {
    let typed = file.to_string_lossy();
    if file.exists() || typed.contains(['/', '.']) {
        return Ok(());
    }
    let cmd = Cli::command();
    match prune::text::closest_name(&typed, cmd.get_subcommands().map(|c| c.get_name())) {
        Some(name) => Err(CliError::Usage(format!(
            "{typed} is neither a file nor a subcommand; did you mean `prune {name}`? (see prune --help)"
        ))),
        None => Ok(()),
    }
}

/// Whether to colour messages on stderr: a terminal, and `NO_COLOR` unset.
pub fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

const STDIN: &str = "standard input";

/// Reads a tree file, or standard input for `-`.
pub fn load_file(path: &Path, from: Option<Format>) -> Result<Tree, LoadError> {
    if path.as_os_str() == "-" {
        return format::load_from(STDIN, std::io::stdin().lock(), from);
    }
    format::load(path, from)
}

/// Writes to stdout; a closed pipe (`prune … | head`) is not an error.
pub fn print(text: &str) -> Result<(), CliError> {
    to_stdout(|w| w.write_all(text.as_bytes()))
}

/// Streams to stdout. A closed pipe ends the output quietly; any other failure (a full disk
/// behind a redirection) is the environment's, reported with exit code 2.
fn to_stdout(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Write {
            path: "standard output".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Every output file: stdout for `-`, else written by [`format::save_with`] (which writes FIFOs
/// and devices in place, follows symbolic links, refuses read-only files, keeps hard links).
pub fn write_output(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    if path.as_os_str() == "-" {
        return to_stdout(write);
    }
    format::save_with(path, write).map_err(|source| CliError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Writes `text` to `path`, or to stdout when there is no path or it is `-`.
pub fn emit(path: Option<&PathBuf>, text: &str) -> Result<(), CliError> {
    match path {
        Some(p) => write_output(p, |w| w.write_all(text.as_bytes())),
        None => print(text),
    }
}

pub use prune::examples::{DEFAULT_TREE, default_tree};

pub fn run(cli: Cli) -> Result<(), CliError> {
    if let Some(bytes) = cli.max_file_size {
        format::set_max_file_bytes(bytes);
    }
    if cli.ignore_memory_estimate {
        format::set_memory_check(false);
    }
    // The explorer handles these signals itself, restoring the terminal.
    if !matches!(cli.command, None | Some(Command::Tui(_))) {
        format::clean_up_on_signals()
            .map_err(|e| CliError::Internal(format!("installing signal handlers: {e}")))?;
    }
    match cli.command {
        Some(Command::Info(a)) => info::run(&a),
        Some(Command::Gen(a)) => generate::run(&a),
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Run(a)) => search::run(&a),
        Some(Command::Compare(a)) => search::compare(&a),
        Some(Command::Algos(a)) => search::algos(&a),
        Some(Command::Draw(a)) => draw::run(&a),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Experiment(a)) => experiment::run(&a),
        Some(Command::CheckTrace(a)) => check_trace::run(&a),
        Some(Command::Tui(a)) if a.check_config => {
            let problems = crate::tui::config_problems();
            if problems.is_empty() {
                print("the keymap and the themes are fine\n")
            } else {
                Err(CliError::Reported(format!("{}\n", problems.join("\n"))))
            }
        }
        Some(Command::Tui(TuiArgs {
            import: Some(trace),
            import_tree,
            tree,
            depth,
            run,
            ..
        })) => {
            let searched = match (import_tree, &tree.input.game.game) {
                (Some(file), _) => (load_file(&file, None)?, file.display().to_string()),
                (None, Some(name)) => (
                    game_run::written_out(&tree.input.game, depth)?,
                    format!("game {name}"),
                ),
                (None, None) => {
                    return Err(CliError::Usage(
                        "--import needs what the engine searched: --tree FILE, or --game NAME (with --depth D)".into(),
                    ));
                }
            };
            import::explore(&trace, searched, &run)
        }
        Some(Command::Tui(a)) if a.tree.input.game.game.is_some() => {
            if !on_terminal() {
                return Err(CliError::Usage(
                    "the explorer needs a terminal (stdin and stdout); for scripts use `prune run` or `prune compare`".into(),
                ));
            }
            let (tree, source, recorded) = game_run::record(&a)?;
            explore_recorded(tree, source, recorded, None)
        }
        Some(Command::Tui(a)) => {
            // The practised algorithm runs last: practice starts on it when it arrives.
            let specs: Vec<&String> = a.run.iter().chain(&a.practice).collect();
            let practice = a.practice.is_some();
            if let (Some(path), None, true) = (&a.tree.file, a.tree.input.from, on_terminal()) {
                let runs = specs
                    .iter()
                    .map(|spec| prune::search::Algorithm::parse(spec, &Default::default()))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(CliError::usage)?;
                return explore_loading(path.clone(), runs, practice);
            }
            let built_in = a.tree.file.is_none()
                && a.tree.input.expr.is_none()
                && a.tree.input.generated.is_none();
            let (tree, source) = if built_in {
                (default_tree(), prune::examples::DEFAULT_SOURCE.to_owned())
            } else {
                a.tree.load_described()?
            };
            // The explorer names the expression itself: a practice report must say which tree.
            let source = match &a.tree.input.expr {
                Some(e) => format!("--expr '{e}'"),
                None => source,
            };
            let mut runs = Vec::new();
            for spec in specs {
                let algo = prune::search::Algorithm::parse(spec, &Default::default())
                    .map_err(CliError::usage)?;
                if let Some(why) = algo.refusal(&tree) {
                    return Err(CliError::Usage(format!("cannot run {algo}: {why}")));
                }
                runs.push(algo);
            }
            explore(tree, source, runs, true, practice)
        }
        Some(Command::Man(a)) => man::run(&a),
        Some(Command::Completions { shell }) => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "prune", &mut buf);
            print(&String::from_utf8_lossy(&buf))
        }
        None => {
            if let Some(path) = &cli.file {
                refuse_near_subcommand(path)?;
            }
            if let (Some(path), true) = (&cli.file, on_terminal()) {
                return explore_loading(path.clone(), Vec::new(), false);
            }
            let (tree, source) = match &cli.file {
                Some(f) => (load_file(f, None)?, f.display().to_string()),
                None => (default_tree(), prune::examples::DEFAULT_SOURCE.to_owned()),
            };
            explore(tree, source, Vec::new(), false, false)
        }
    }
}

/// Opens the explorer when prune talks to a terminal. Otherwise (a pipe, a script, a test)
/// `prune [FILE]` prints the tree's summary instead, and `prune tui` refuses.
fn explore(
    tree: Tree,
    source: String,
    runs: Vec<prune::search::Algorithm>,
    asked: bool,
    practice: bool,
) -> Result<(), CliError> {
    if !on_terminal() {
        if asked {
            return Err(CliError::Usage(
                "the explorer needs a terminal (stdin and stdout); for scripts use `prune run` or `prune compare`".into(),
            ));
        }
        return print(&welcome(&tree));
    }
    let opts = crate::tui::Options {
        tree,
        source,
        runs,
        load: None,
        practice,
        recorded: Vec::new(),
        status: None,
    };
    crate::tui::run(opts)
        .map_err(|e| CliError::Internal(format!("terminal: {e}")))
        .map(|_| ())
}

/// Opens the explorer on runs already searched (`tui --game`, `tui --import`), with `status`
/// on the status bar from the first frame (and whether it reports a problem) when given.
pub(crate) fn explore_recorded(
    tree: Tree,
    source: String,
    recorded: Vec<crate::tui::RunView>,
    status: Option<(String, bool)>,
) -> Result<(), CliError> {
    crate::tui::run(crate::tui::Options {
        tree,
        source,
        runs: Vec::new(),
        load: None,
        practice: false,
        recorded,
        status,
    })
    .map_err(|e| CliError::Internal(format!("terminal: {e}")))
    .map(|_| ())
}

/// Whether prune talks to a terminal (stdin and stdout).
pub(crate) fn on_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Opens the explorer at once on `path`, which loads in the background with its progress on
/// screen; runs `runs` when it arrives. A file that does not load ends the explorer with the
/// loader's report and exit code 2, as the command line does.
fn explore_loading(
    path: PathBuf,
    runs: Vec<prune::search::Algorithm>,
    practice: bool,
) -> Result<(), CliError> {
    let placeholder = prune::examples::loading_tree(&path.display().to_string());
    let opts = crate::tui::Options {
        tree: placeholder,
        source: path.display().to_string(),
        runs,
        load: Some(path),
        practice,
        recorded: Vec::new(),
        status: None,
    };
    match crate::tui::run(opts) {
        Ok(None) => Ok(()),
        Ok(Some(report)) => Err(CliError::Reported(report)),
        Err(e) => Err(CliError::Internal(format!("terminal: {e}"))),
    }
}

/// What `prune` prints when it is not talking to a terminal: the tree and where to go from there.
fn welcome(tree: &Tree) -> String {
    let mut s = info::summary(&prune::tree::shape(tree));
    s.push_str(
        "\nIn a terminal, `prune` opens the explorer on this tree.\nTry:\n  prune tui trees/ballard-figure-6.ron --run star1,star2\n  prune run alphabeta --expr '((3,12,8),(2,4,6),(14,5,2))'\n  prune info trees/ballard-figure-6.ron\n  prune gen uniform -b 3 -d 4 --order best --seed 1 -o t.ron\n  prune convert t.ron t.efg\n  prune --help\n",
    );
    s
}
