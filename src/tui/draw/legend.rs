//! The marks the screen draws and what each means, in one table: the help's legend is drawn
//! from it, the outline takes its own marks from it, and the tests check that every mark the
//! drawing code can produce — status glyphs, bound marks, kinds — has its line.

/// The fold marker of an open node, of a closed one.
pub const FOLD_OPEN: &str = "▾";
pub const FOLD_CLOSED: &str = "▸";
/// Beside the kind of a node on the selected run's principal variation.
pub const PV: &str = "★";
/// The selected run, in the outline's header, Stats and Detail.
pub const SELECTED: &str = "▶";

/// The legend, a line each: (mark, meaning) pairs.
pub const LEGEND: &[&[(&str, &str)]] = &[
    &[("·", "not reached"), ("▸", "entered"), ("●", "searched")],
    &[("✂", "pruned"), ("◆", "probed"), ("↻", "re-searched")],
    &[("⇄", "answered by the transposition table")],
    &[("=", "exact"), ("≥", "lower bound"), ("≤", "upper bound")],
    &[("+", "Max"), ("−", "Min"), ("*", "chance"), ("□", "leaf")],
    &[("1 2 …", "the player to move (n players)")],
    &[(PV, "the principal variation")],
    &[(SELECTED, "the selected run; the step's node")],
    &[
        (FOLD_OPEN, "open"),
        (FOLD_CLOSED, "closed (before the kind)"),
    ],
    &[("✂ 6 nodes", "a pruned subtree folded (z)")],
    &[("◂ 2 more ▸", "runs beside the screen")],
    &[("…17 └─", "depth 17, the guides above cut")],
    &[("│ ✂ ┆", "diagram edge: searched, pruned, not reached")],
    &[("┃", "diagram: the principal variation (cards bold)")],
    &[("✗", "diagram, practice: a leaf marked unevaluated")],
];

/// The legend's lines as the help shows them.
pub fn lines() -> impl Iterator<Item = String> {
    LEGEND.iter().map(|row| {
        let pairs: Vec<String> = row.iter().map(|(m, w)| format!("{m} {w}")).collect();
        format!("  {}", pairs.join("  "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune::search::Bound;
    use prune::trace::{NodeState, Status};
    use prune::tree::Kind;
    use prune::tree::names::kind_glyph;

    fn has(mark: &str) -> bool {
        LEGEND
            .iter()
            .flat_map(|row| row.iter())
            .any(|(m, _)| m.split(' ').any(|g| g == mark))
    }

    /// Every state a node can be in, as far as its glyph goes.
    fn states() -> Vec<NodeState> {
        let mut all = Vec::new();
        for status in [
            Status::NotReached,
            Status::Open,
            Status::Done,
            Status::Pruned,
        ] {
            for researches in [0, 1] {
                for (probed, probe_target) in [(false, false), (true, false), (false, true)] {
                    for table in [
                        None,
                        Some((1.0, Bound::Exact, false)),
                        Some((1.0, Bound::Exact, true)),
                    ] {
                        all.push(NodeState {
                            status,
                            window: None,
                            value: None,
                            bound: Bound::Exact,
                            visits: 0,
                            researches,
                            probed,
                            probe_target,
                            cutoff: None,
                            pruned_by: None,
                            chance_bounds: None,
                            horizon: false,
                            table,
                            fallback: false,
                            last_step: None,
                        });
                    }
                }
            }
        }
        all
    }

    #[test]
    fn every_mark_the_screen_draws_is_in_the_legend() {
        let mut marks: Vec<String> = states()
            .iter()
            .map(|s| prune::draw::status_glyph(s).to_owned())
            .collect();
        marks.extend([Bound::Exact, Bound::Lower, Bound::Upper].map(|b| b.symbol().to_owned()));
        marks.extend([Kind::Max, Kind::Min, Kind::Chance, Kind::Leaf].map(kind_glyph));
        marks.extend([FOLD_OPEN, FOLD_CLOSED, PV, SELECTED].map(str::to_owned));
        marks.push(prune::draw::text::PV_EDGE.to_owned());
        marks.push(super::super::diagram::MARKED.to_string());
        marks.sort();
        marks.dedup();
        assert!(marks.contains(&"⇄".to_owned()), "{marks:?}");
        let missing: Vec<&String> = marks.iter().filter(|m| !has(m)).collect();
        assert!(missing.is_empty(), "not in the legend: {missing:?}");
        assert!(lines().any(|l| l.contains("⇄ answered by the transposition table")));
    }

    #[test]
    fn the_legend_fits_the_help_column() {
        // The help's right column is 55 % of a 98-column box.
        for l in lines() {
            assert!(
                unicode_width::UnicodeWidthStr::width(l.as_str()) <= 53,
                "{l}"
            );
        }
    }
}
