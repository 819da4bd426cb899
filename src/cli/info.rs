//! `prune info`: what a tree is made of.

use std::fmt::Write as _;

use clap::Args;

use super::{CliError, TreeSource, print};
use prune::text::{number_text, terminal_safe};
use prune::tree::{Shape, shape};

#[derive(Debug, Args)]
// A game's flags are parsed (to refuse them with the way to its tree) but not offered.
#[command(mut_args(super::hide_game_flags))]
// The usage line without the hidden game flags (clap lists a group's hidden members too).
#[command(override_usage = "prune info [OPTIONS] <FILE|--expr <TREE>|--gen <FAMILY ARGS…>>")]
pub struct InfoArgs {
    #[command(flatten)]
    pub source: TreeSource,
    /// Print one JSON object (fields: nodes, leaves, depth, players, …).
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &InfoArgs) -> Result<(), CliError> {
    let tree = a.source.load()?;
    let s = shape(&tree);
    if a.json {
        let json =
            serde_json::to_string_pretty(&s).map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(prune::text::json_safe(json) + "\n"));
    }
    print(&summary(&s))
}

/// The human-readable summary, one fact a line.
pub fn summary(s: &Shape) -> String {
    let mut out = String::new();
    let mut line = |k: &str, v: String| {
        let _ = writeln!(out, "{k:<12} {v}");
    };
    if !s.name.is_empty() {
        line("name", terminal_safe(&s.name).into_owned());
    }
    if !s.description.is_empty() {
        line("description", terminal_safe(&s.description).into_owned());
    }
    line(
        "nodes",
        format!("{} ({} interior, {} leaves)", s.nodes, s.interior, s.leaves),
    );
    let depth = if s.min_leaf_depth == s.depth {
        format!("{}", s.depth)
    } else {
        format!(
            "{} (leaves at depths {}..={})",
            s.depth, s.min_leaf_depth, s.depth
        )
    };
    line("depth", depth);
    if s.interior > 0 {
        let b = if s.min_branching == s.max_branching {
            format!("{}", s.min_branching)
        } else {
            format!(
                "{}..={} (mean {:.2})",
                s.min_branching, s.max_branching, s.mean_branching
            )
        };
        line("branching", b);
    }
    let mut kinds = Vec::new();
    for (n, what) in [
        (s.max_nodes, "max"),
        (s.min_nodes, "min"),
        (s.chance_nodes, "chance"),
        (s.player_nodes, "player"),
    ] {
        if n > 0 {
            kinds.push(format!("{n} {what}"));
        }
    }
    if s.uneven_chance_nodes > 0 {
        kinds.push(format!(
            "({} chance nodes with uneven probabilities)",
            s.uneven_chance_nodes
        ));
    }
    line(
        "kinds",
        if kinds.is_empty() {
            "a single leaf".into()
        } else {
            kinds.join(", ")
        },
    );
    line("players", s.players.to_string());
    if let Some([lo, hi]) = s.bounds {
        line(
            "bounds",
            format!(
                "{}..{} ({})",
                number_text(lo),
                number_text(hi),
                if s.bounds_declared {
                    "declared"
                } else {
                    "from the leaves"
                }
            ),
        );
    }
    if let (Some(f), Some(m)) = (s.payoff_floor, s.payoff_sum) {
        line(
            "payoffs",
            format!(
                "each at least {}, sum at most {}",
                number_text(f),
                number_text(m)
            ),
        );
    }
    if s.chance_nodes > 0 || !s.regular {
        let r = match (&s.irregular_because, s.regular) {
            (_, true) => "yes (Ballard's regular *-minimax tree: Star2 applies throughout)".into(),
            (Some(why), false) => format!("no: {why}"),
            (None, false) => "no".into(),
        };
        line("regular", r);
    }
    line(
        "labels",
        if s.labelled {
            "yes".into()
        } else {
            "no".into()
        },
    );
    line(
        "keys",
        match s.distinct_keys {
            Some(d) => format!(
                "{} nodes, {d} distinct positions ({} transpositions)",
                s.keyed_nodes,
                s.keyed_nodes - d
            ),
            None => "no".into(),
        },
    );
    line(
        "heuristics",
        if s.heuristic_nodes > 0 {
            format!("{} interior nodes", s.heuristic_nodes)
        } else {
            "no".into()
        },
    );
    out
}
