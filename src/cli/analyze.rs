//! `prune analyze`: every node's Knuth–Moore type and the size of the minimal tree.

use std::fmt::Write as _;

use clap::Args;
use serde_json::json;

use super::{CliError, TreeSource, print};
use prune::analyze::{self, NodeType};
use prune::text::{number_text, terminal_safe};
use prune::tree::Tree;

#[derive(Debug, Args)]
// A game's flags are parsed (to refuse them with the way to its tree) but not offered.
#[command(mut_args(super::hide_game_flags))]
// The usage line without the hidden game flags (clap lists a group's hidden members too).
#[command(override_usage = "prune analyze [OPTIONS] <FILE|--expr <TREE>|--gen <FAMILY ARGS…>>")]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub source: TreeSource,
    /// Print one JSON object: minimal_leaves, minimal_nodes, counts, and `types`, one entry per
    /// node id ("pv", "cut", "all" or null).
    #[arg(long)]
    pub json: bool,
    /// Only the counts, not a line per node.
    #[arg(long)]
    pub summary: bool,
}

pub fn run(a: &AnalyzeArgs) -> Result<(), CliError> {
    let tree = a.source.load()?;
    let an = analyze::analyze(&tree).map_err(CliError::Usage)?;
    if a.json {
        let v = json!({
            "nodes": tree.len(),
            "leaves": tree.leaf_count(),
            "minimal_leaves": an.minimal_leaves,
            "minimal_nodes": an.minimal_nodes,
            "counts": {
                "pv": an.count(NodeType::Pv),
                "cut": an.count(NodeType::Cut),
                "all": an.count(NodeType::All),
                "none": an.types.iter().filter(|t| t.is_none()).count(),
            },
            "types": an.types,
        });
        let text = serde_json::to_string(&v).map_err(|e| CliError::Internal(e.to_string()))?;
        return print(&(prune::text::json_safe(text) + "\n"));
    }
    let mut out = String::new();
    if !a.summary {
        outline(&tree, &an, &mut out);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "minimal tree  {} leaves, {} nodes (of {} leaves, {} nodes)",
        an.minimal_leaves,
        an.minimal_nodes,
        tree.leaf_count(),
        tree.len()
    );
    let _ = writeln!(
        out,
        "node types    {} PV, {} CUT, {} ALL, {} outside",
        an.count(NodeType::Pv),
        an.count(NodeType::Cut),
        an.count(NodeType::All),
        tree.len() as u64 - an.minimal_nodes
    );
    print(&out)
}

/// One line per node in preorder: indentation, glyph, label, minimax value, type.
fn outline(tree: &Tree, an: &analyze::Analysis, out: &mut String) {
    // Parents precede children in the arena: depths in one pass, not a walk up per node.
    let mut depths = vec![0usize; tree.len()];
    for id in tree.ids().skip(1) {
        depths[id.index()] = depths[tree.parent(id).expect("not the root").index()] + 1;
    }
    for id in tree.preorder() {
        let depth = depths[id.index()];
        let label = tree
            .label(id)
            .map_or(String::new(), |l| format!(" {}", terminal_safe(l)));
        let t = an.types[id.index()].map_or("-", |t| t.name());
        let head = format!("{}{}{label}", "  ".repeat(depth), tree.kind(id).glyph());
        let _ = writeln!(
            out,
            "{head:<40} {:>10}  {t}",
            number_text(an.values[id.index()])
        );
    }
}
