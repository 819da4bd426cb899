//! The statistics of a run as columns, defined once: the `compare` table, its CSV and JSON, the
//! statistics CSV export and the explorer's Stats panel pick their columns from here.
//!
//! Each [`StatColumn`] has a name (the CSV header and JSON key), a heading (text tables), a
//! width (a hint for fixed-width views such as the TUI; 0 means "fill") and the function that
//! computes its [`Cell`] from a [`Scope`] (the tree, and the minimal tree's size if known) and
//! a [`Run`]. No terminal library here: the views format cells with [`Cell::text`].

use crate::report::{Cell, Column, Table, col};
use crate::search::{Bound, Cutoff, Ratios, Run, Value};
use crate::tree::Tree;

/// What a cell may need besides the run.
#[derive(Copy, Clone, Debug)]
pub struct Scope<'a> {
    /// The tree searched.
    pub tree: &'a Tree,
    /// Leaves of the Knuth–Moore minimal tree, when the analysis applies to the tree.
    pub minimal_leaves: Option<u64>,
}

impl<'a> Scope<'a> {
    /// A scope without the minimal tree (the columns needing it give [`Cell::None`]).
    pub fn new(tree: &'a Tree) -> Scope<'a> {
        Scope {
            tree,
            minimal_leaves: None,
        }
    }

    /// A scope with the minimal tree's size, computed by `analyze` (none when it does not apply).
    pub fn analyzed(tree: &'a Tree) -> Scope<'a> {
        Scope {
            tree,
            minimal_leaves: crate::analyze::analyze(tree).ok().map(|a| a.minimal_leaves),
        }
    }
}

/// One statistics column.
#[derive(Copy, Clone, Debug)]
pub struct StatColumn {
    /// The column's name and heading.
    pub column: Column,
    /// Width hint for fixed-width views, in characters (0: take the remaining width).
    pub width: u16,
    /// The cell of a run.
    pub cell: fn(&Scope, &Run) -> Cell,
}

impl StatColumn {
    /// The column's name in CSV and JSON.
    pub fn name(&self) -> &'static str {
        self.column.name
    }

    /// The column's heading in text tables.
    pub fn heading(&self) -> &'static str {
        self.column.heading
    }

    /// This column's cell for `run`.
    pub fn of(&self, scope: &Scope, run: &Run) -> Cell {
        (self.cell)(scope, run)
    }
}

const fn stat(column: Column, width: u16, cell: fn(&Scope, &Run) -> Cell) -> StatColumn {
    StatColumn {
        column,
        width,
        cell,
    }
}

fn int(n: u64) -> Cell {
    Cell::Int(n as i64)
}

/// The bound's name in data: `exact`, `lower` or `upper`.
pub fn bound_name(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

/// The algorithm and its parameters, as `prune` prints them (`star2 --probes 2`).
pub const ALGORITHM: StatColumn = stat(col("algorithm", "algorithm").left(), 0, |_, r| {
    Cell::Text(r.algorithm.label())
});

/// The value as data: a number, or `(a; b; c)` for an n-player vector; the bound is apart.
pub const VALUE: StatColumn = stat(col("value", "value"), 9, |_, r| match &r.value {
    Value::Scalar(x) => Cell::Num(*x),
    Value::Vector(xs) => {
        let parts: Vec<String> = xs.iter().map(|&x| crate::text::number_text(x)).collect();
        Cell::Text(format!("({})", parts.join("; ")))
    }
});

/// The value as people read it: `≥3` for a bound, `(2, 6, 1, 3)` for a vector.
pub const SHOWN_VALUE: StatColumn = stat(col("value", "value"), 9, |_, r| match r.bound {
    Bound::Exact => Cell::Text(r.value.to_string()),
    b => Cell::Text(format!("{}{}", b.symbol(), r.value)),
});

/// Whether the root's value is exact or a bound.
pub const BOUND: StatColumn = stat(col("bound", "bound"), 5, |_, r| {
    Cell::Text(bound_name(r.bound).into())
});

/// Leaf evaluations ([`crate::search::Stats::leaves`]).
pub const LEAVES: StatColumn = stat(col("leaves", "leaves"), 9, |_, r| int(r.stats.leaves));

/// Different leaves evaluated.
pub const DISTINCT_LEAVES: StatColumn = stat(col("distinct_leaves", "distinct"), 9, |_, r| {
    int(r.stats.distinct_leaves)
});

/// Interior nodes entered.
pub const INTERIOR: StatColumn = stat(col("interior", "interior"), 9, |_, r| int(r.stats.interior));

/// Every node visit.
pub const NODES: StatColumn = stat(col("nodes", "nodes"), 9, |_, r| int(r.stats.nodes));

/// Cutoffs that fired.
pub const CUTOFFS: StatColumn = stat(col("cutoffs", "cutoffs"), 16, |_, r| int(r.stats.cutoffs));

/// Children left unsearched by cutoffs.
pub const PRUNED_CHILDREN: StatColumn = stat(col("pruned_children", "pruned"), 9, |_, r| {
    int(r.stats.pruned_children)
});

fn cutoffs_of<const K: usize>(_: &Scope, r: &Run) -> Cell {
    int(r.stats.cutoffs_of(Cutoff::ALL[K]))
}

/// Cutoffs of each kind, in the order of [`Cutoff::ALL`]: `cutoffs_` and the kind's name.
pub const CUTOFFS_BY_KIND: [StatColumn; 8] = [
    stat(col("cutoffs_alpha", "α cutoffs"), 9, cutoffs_of::<0>),
    stat(col("cutoffs_beta", "β cutoffs"), 9, cutoffs_of::<1>),
    stat(col("cutoffs_star_lower", "star-lower"), 10, cutoffs_of::<2>),
    stat(col("cutoffs_star_upper", "star-upper"), 10, cutoffs_of::<3>),
    stat(col("cutoffs_probe", "probe"), 9, cutoffs_of::<4>),
    stat(col("cutoffs_rightmost", "rightmost"), 9, cutoffs_of::<5>),
    stat(col("cutoffs_shallow", "shallow"), 9, cutoffs_of::<6>),
    stat(col("cutoffs_immediate", "immediate"), 9, cutoffs_of::<7>),
];

/// Star2's probes.
pub const PROBES: StatColumn = stat(col("probes", "probes"), 11, |_, r| int(r.stats.probes));

/// Cutoffs that a probe fired.
pub const PROBE_CUTOFFS: StatColumn = stat(col("probe_cutoffs", "probe cut"), 9, |_, r| {
    int(r.stats.probe_cutoffs)
});

/// Re-searches (NegaScout, aspiration windows).
pub const RESEARCHES: StatColumn = stat(col("researches", "re-search"), 9, |_, r| {
    int(r.stats.researches)
});

/// Star2's fallbacks to Star1.
pub const FALLBACKS: StatColumn = stat(col("fallbacks", "fallbacks"), 9, |_, r| {
    int(r.stats.fallbacks)
});

/// `leaves^(1/height)` ([`Ratios`]).
pub const EFFECTIVE_BRANCHING: StatColumn = stat(col("effective_branching", "EBF"), 6, |s, r| {
    Cell::Real(Ratios::of(s.tree, &r.stats).effective_branching, 3)
});

/// Leaf evaluations over the tree's leaves: a fraction, shown as a percentage.
pub const SHARE_OF_EXHAUSTIVE: StatColumn = stat(col("share_of_exhaustive", "share"), 7, |s, r| {
    Cell::Percent(Ratios::of(s.tree, &r.stats).share_of_exhaustive, 1)
});

/// Leaves over the minimal tree's leaves (none when the minimal tree is unknown).
pub const MINIMAL_RATIO: StatColumn = stat(col("minimal_ratio", "×minimal"), 5, |s, r| {
    match s.minimal_leaves.filter(|&m| m > 0) {
        Some(m) => Cell::Real(r.stats.leaves as f64 / m as f64, 2),
        None => Cell::None,
    }
});

/// The time of the search alone.
pub const SEARCH_SECONDS: StatColumn = stat(col("search_seconds", "seconds"), 9, |_, r| {
    Cell::Fixed(r.seconds, 6)
});

/// Transposition-table lookups.
pub const TT_PROBES: StatColumn = stat(col("tt_probes", "TT probes"), 9, |_, r| {
    int(r.stats.tt_probes)
});

/// Lookups that found an entry of the node's draft.
pub const TT_HITS: StatColumn = stat(col("tt_hits", "TT hits"), 9, |_, r| int(r.stats.tt_hits));

/// Entries that settled the window, sparing the search.
pub const TT_CUTOFFS: StatColumn = stat(col("tt_cutoffs", "TT cut"), 9, |_, r| {
    int(r.stats.tt_cutoffs)
});

/// Searches again after the root's aspiration window failed.
pub const ASPIRATION_RESEARCHES: StatColumn =
    stat(col("aspiration_researches", "asp. re-search"), 9, |_, r| {
        int(r.stats.aspiration_researches)
    });

/// The statistics CSV (`--stats-csv`), in order (the enhancements' counters last, 0 for the
/// runs without them).
pub const CSV: [StatColumn; 28] = [
    ALGORITHM,
    VALUE,
    BOUND,
    LEAVES,
    DISTINCT_LEAVES,
    INTERIOR,
    NODES,
    CUTOFFS,
    PRUNED_CHILDREN,
    CUTOFFS_BY_KIND[0],
    CUTOFFS_BY_KIND[1],
    CUTOFFS_BY_KIND[2],
    CUTOFFS_BY_KIND[3],
    CUTOFFS_BY_KIND[4],
    CUTOFFS_BY_KIND[5],
    CUTOFFS_BY_KIND[6],
    CUTOFFS_BY_KIND[7],
    PROBES,
    PROBE_CUTOFFS,
    RESEARCHES,
    FALLBACKS,
    EFFECTIVE_BRANCHING,
    SHARE_OF_EXHAUSTIVE,
    SEARCH_SECONDS,
    TT_PROBES,
    TT_HITS,
    TT_CUTOFFS,
    ASPIRATION_RESEARCHES,
];

/// The comparison table (`prune compare`, the explorer's Stats panel); drop
/// [`MINIMAL_RATIO`], the last, when the minimal tree is unknown.
pub const TABLE: [StatColumn; 11] = [
    ALGORITHM,
    SHOWN_VALUE,
    LEAVES,
    DISTINCT_LEAVES,
    NODES,
    CUTOFFS,
    PROBES,
    RESEARCHES,
    EFFECTIVE_BRANCHING,
    SHARE_OF_EXHAUSTIVE,
    MINIMAL_RATIO,
];

/// [`TABLE`] as data (`compare --format csv|json`): the value as a number with its bound apart.
pub const TABLE_DATA: [StatColumn; 12] = [
    ALGORITHM,
    VALUE,
    BOUND,
    LEAVES,
    DISTINCT_LEAVES,
    NODES,
    CUTOFFS,
    PROBES,
    RESEARCHES,
    EFFECTIVE_BRANCHING,
    SHARE_OF_EXHAUSTIVE,
    MINIMAL_RATIO,
];

/// The explorer's Stats panel: [`TABLE`] as a narrow screen wants it — counts with thousands
/// separators, cutoffs with their kinds, probes with their cutoffs, short headings.
pub const PANEL: [StatColumn; 11] = [
    stat(col("algorithm", "run").left(), 0, |_, r| {
        Cell::Text(r.algorithm.label())
    }),
    stat(col("value", "value"), 9, |_, r| {
        let mark = match r.bound {
            Bound::Exact => "",
            b => b.symbol(),
        };
        Cell::Text(match &r.value {
            Value::Scalar(v) => format!("{mark}{}", crate::text::short_number(*v)),
            v => v.to_string(),
        })
    }),
    stat(col("leaves", "leaves"), 9, |_, r| grouped(r.stats.leaves)),
    stat(col("distinct_leaves", "distinct"), 9, |_, r| {
        grouped(r.stats.distinct_leaves)
    }),
    stat(col("nodes", "nodes"), 9, |_, r| grouped(r.stats.nodes)),
    stat(col("cutoffs", "cutoffs"), 16, |_, r| {
        Cell::Text(cutoff_summary(&r.stats))
    }),
    stat(col("probes", "probes"), 11, |_, r| {
        let s = &r.stats;
        Cell::Text(if s.probes > 0 {
            format!("{} ({} cut)", s.probes, s.probe_cutoffs)
        } else {
            "0".into()
        })
    }),
    RESEARCHES,
    EFFECTIVE_BRANCHING,
    SHARE_OF_EXHAUSTIVE,
    stat(col("minimal_ratio", "×min"), 5, MINIMAL_RATIO.cell),
];

fn grouped(n: u64) -> Cell {
    Cell::Text(crate::text::thousands(n))
}

/// "3 (α1 β2)": the cutoffs, and how many of each kind.
pub fn cutoff_summary(s: &crate::search::Stats) -> String {
    let short = |k: Cutoff| match k {
        Cutoff::Alpha => "α",
        Cutoff::Beta => "β",
        Cutoff::StarLower => "*≤",
        Cutoff::StarUpper => "*≥",
        Cutoff::Probe => "probe",
        Cutoff::Rightmost => "right",
        Cutoff::Shallow => "shallow",
        Cutoff::Immediate => "imm",
    };
    let parts: Vec<String> = s
        .cutoff_kinds()
        .iter()
        .map(|&(k, n)| format!("{}{n}", short(k)))
        .collect();
    if parts.is_empty() {
        "0".into()
    } else {
        format!("{} ({})", s.cutoffs, parts.join(" "))
    }
}

/// A table with `columns` and a row per run.
pub fn table(columns: &[StatColumn], scope: &Scope, runs: &[&Run]) -> Table {
    Table {
        columns: columns.iter().map(|c| c.column).collect(),
        rows: runs
            .iter()
            .map(|r| columns.iter().map(|c| c.of(scope, r)).collect())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoff_columns_follow_the_kinds() {
        for (c, k) in CUTOFFS_BY_KIND.iter().zip(Cutoff::ALL) {
            assert_eq!(c.name(), format!("cutoffs_{}", k.name().replace('-', "_")));
        }
    }

    #[test]
    fn names_are_unique_in_each_list() {
        for list in [&CSV[..], &TABLE[..], &TABLE_DATA[..]] {
            let mut names: Vec<&str> = list.iter().map(StatColumn::name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), list.len());
        }
    }
}
