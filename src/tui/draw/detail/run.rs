//! One run's section of the detail panel: the selected node's state in the run at its step,
//! one function a part — the status, the statistics so far, the window and where its bounds
//! came from, the value, the cutoff or pruning, a chance node's children and Star2's probes,
//! and what the Knuth–Moore type expected.

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::app::App;
use crate::tui::runs::RunView;
use crate::tui::theme::Theme;
use prune::search::Bound;
use prune::text::{count, readable_number, thousands};
use prune::trace::narrate::{clip_note, probe_sums, settled};
use prune::trace::provenance::{self, End};
use prune::trace::{NodeState, Replay, Status};
use prune::tree::{Kind, NodeId, Tree};

use super::super::style::{first_key, glyph, glyph_style, shown_text};
use super::{label, status_words};

type Lines = Vec<Line<'static>>;

/// What every part of a run's section reads: the selected node in run `i` at its step.
pub(super) struct RunSection<'a> {
    app: &'a App,
    t: &'a Theme,
    tree: &'a Tree,
    id: NodeId,
    /// Which run, and whether it is the current one.
    i: usize,
    r: &'a RunView,
    replay: Replay<'a>,
    st: NodeState,
}

impl<'a> RunSection<'a> {
    pub(super) fn new(app: &'a App, i: usize) -> RunSection<'a> {
        let tree = app.tree();
        let id = app.selected();
        let r = &app.runs()[i];
        let replay = r.replay(tree);
        let st = settled(tree, &r.run, &r.trace, id, r.step, replay.state(id, r.step));
        RunSection {
            app,
            t: app.theme(),
            tree,
            id,
            i,
            r,
            replay,
            st,
        }
    }

    /// The section, in the panel's order.
    pub(super) fn lines(&self) -> Lines {
        let mut lines = vec![Line::from(""), self.head(), self.status()];
        lines.extend(self.departure());
        lines.extend(self.so_far());
        lines.extend(self.window());
        lines.extend(self.value());
        lines.extend(self.cutoff());
        lines.extend(self.pruned());
        if self.tree.kind(self.id) == Kind::Chance {
            lines.extend(self.chance_children());
        }
        lines.extend(self.expected());
        lines
    }

    fn short(&self, x: f64) -> String {
        readable_number(x, self.app.layout().full_precision)
    }

    /// The run's name and step, marked when it is the current run.
    fn head(&self) -> Line<'static> {
        let (r, t) = (self.r, self.t);
        let current = self.i == self.app.current();
        let head = format!(
            "{}{} · step {}/{}",
            if current { "▶ " } else { "" },
            r.name(),
            r.step,
            r.trace.len()
        );
        Line::from(Span::styled(
            head,
            if current {
                t.title_style()
            } else {
                t.fg(t.text).add_modifier(Modifier::BOLD)
            },
        ))
    }

    /// The node's status and what marks it: visits, re-searches, probes.
    fn status(&self) -> Line<'static> {
        let (st, t) = (&self.st, self.t);
        let mut s = vec![
            Span::styled(glyph(st), glyph_style(t, st)),
            Span::raw(" "),
            Span::styled(status_words(st, self.tree.is_leaf(self.id)), t.fg(t.text)),
        ];
        if st.visits > 1 {
            s.push(Span::styled(
                format!(", {} visits", st.visits),
                t.fg(t.researched),
            ));
        }
        if st.researches > 0 {
            s.push(Span::styled(
                format!(", re-searched {}×", st.researches),
                t.fg(t.researched),
            ));
        }
        if st.probed {
            s.push(Span::styled(", probed", t.fg(t.probed)));
        }
        if st.probe_target {
            s.push(Span::styled(", a probe's target", t.fg(t.probed)));
        }
        if st.fallback {
            s.push(Span::styled(", Star1 here (irregular)", t.fg(t.probed)));
        }
        Line::from(s)
    }

    /// An imported run at its departure, on the departing node: the checker's sentence.
    fn departure(&self) -> Option<Line<'static>> {
        let (node, sentence) = self.r.departs_at()?;
        (node == self.id)
            .then(|| Line::from(Span::styled(sentence.to_owned(), self.t.fg(self.t.error))))
    }

    /// Before the end, the statistics so far beside the totals.
    fn so_far(&self) -> Option<Line<'static>> {
        let (r, t) = (self.r, self.t);
        if r.step >= r.trace.len() {
            return None;
        }
        let so = provenance::so_far(&r.trace, r.step);
        let all = &r.run.stats;
        Some(Line::from(vec![
            label(t, "so far"),
            Span::styled(
                format!(
                    "{}/{} leaves · {}/{} interior · {}/{} cutoffs",
                    thousands(so.leaves),
                    thousands(all.leaves),
                    thousands(so.interior),
                    thousands(all.interior),
                    thousands(so.cutoffs),
                    thousands(all.cutoffs)
                ),
                t.fg(t.text),
            ),
        ]))
    }

    /// The window the node is searched with and where each bound came from; at a chance node
    /// searched by Star1/Star2, its A and B.
    fn window(&self) -> Lines {
        let (r, t, tree, id) = (self.r, self.t, self.tree, self.id);
        let mut lines = Vec::new();
        if let Some((a, b)) = self.st.window {
            lines.push(Line::from(vec![
                label(t, "window"),
                Span::styled(
                    format!(
                        "α {} .. β {}{}",
                        self.short(a),
                        self.short(b),
                        provenance::entry_step(&self.replay, id, r.step)
                            .map(|s| provenance::pass_note(tree, &self.replay, s))
                            .unwrap_or_default()
                    ),
                    t.fg(t.text),
                ),
            ]));
            for end in [End::Alpha, End::Beta] {
                // An infinite bound at the root says nothing a student needs told.
                if let Some((x, origin)) =
                    provenance::window_origin(tree, &self.replay, id, r.step, end)
                        .filter(|&(x, o)| !(o == provenance::Origin::Start && x.is_infinite()))
                {
                    lines.push(Line::from(Span::styled(
                        format!("  {}", origin.sentence(tree, &r.algo, end, x)),
                        t.dim_style(),
                    )));
                }
            }
        }
        if let Some((a, b)) = self.st.chance_bounds {
            lines.push(Line::from(vec![
                label(t, "A, B"),
                Span::styled(
                    format!(
                        "A {} .. B {}{}",
                        self.short(a),
                        self.short(b),
                        clip_note(tree, a, b)
                    ),
                    t.fg(t.text),
                ),
            ]));
        }
        lines
    }

    /// The value found (exact or a bound), and what the transposition table said.
    fn value(&self) -> Lines {
        let (st, t) = (&self.st, self.t);
        let mut lines = Vec::new();
        if let Some(v) = st.value.filter(|_| st.status == Status::Done) {
            let what = match st.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower bound",
                Bound::Upper => "upper bound",
            };
            let mark = if self.tree.is_leaf(self.id) {
                ""
            } else {
                st.bound.symbol()
            };
            // Every digit only when asked for (full precision), as everywhere else.
            lines.push(Line::from(vec![
                label(t, "value"),
                Span::styled(
                    format!("{mark}{}", shown_text(self.app, &self.r.trace, self.id, v)),
                    t.fg(t.accent),
                ),
                Span::styled(format!(" ({what})"), t.fg(t.text)),
            ]));
        }
        if let Some((value, bound, cut)) = st.table {
            let said = if cut {
                "settled the window: the node was not searched"
            } else {
                "did not settle the window: its best move was searched first"
            };
            lines.push(Line::from(vec![
                label(t, "table"),
                Span::styled(
                    format!("entry {}{} {said}", bound.symbol(), self.short(value)),
                    t.fg(t.text),
                ),
            ]));
        }
        lines
    }

    /// The cutoff made at the node, and why.
    fn cutoff(&self) -> Lines {
        let (r, t) = (self.r, self.t);
        let (tree, replay, id) = (self.tree, &self.replay, self.id);
        let Some(said) = provenance::cutoff_summary(tree, &r.algo, replay, id, r.step) else {
            return Vec::new();
        };
        let mut lines = vec![Line::from(vec![
            label(t, "cutoff"),
            Span::styled(said, t.fg(t.cutoff)),
        ])];
        if let Some(why) = provenance::cutoff_reason(tree, &r.algo, replay, id, r.step) {
            lines.push(Line::from(Span::styled(format!("  {why}"), t.dim_style())));
        }
        lines
    }

    /// What pruned the node, and the key that goes to the step of that cutoff.
    fn pruned(&self) -> Option<Line<'static>> {
        let (r, t) = (self.r, self.t);
        let (tree, replay, id) = (self.tree, &self.replay, self.id);
        let said = provenance::pruned_summary(tree, &r.algo, replay, id, r.step)?;
        let jump = self
            .st
            .pruned_by
            .and_then(|(by, _)| provenance::cutoff_step(replay, by, r.step))
            .map(|s| {
                format!(
                    " (step {s}; {} goes there)",
                    first_key(self.app, crate::tui::keymap::Action::JumpToPruner)
                )
            })
            .unwrap_or_default();
        Some(Line::from(vec![
            label(t, "pruned"),
            Span::styled(format!("{said}{jump}"), t.fg(t.pruned)),
        ]))
    }

    /// Star1/Star2: the A_i and B_i each child of a chance node was searched under, and
    /// Star2's probes: the bound each child's probes give, and their weighted mean.
    fn chance_children(&self) -> Lines {
        let (r, t) = (self.r, self.t);
        let (tree, replay, id) = (self.tree, &self.replay, self.id);
        let mut lines = Vec::new();
        let probes = probe_sums(tree, replay, id, r.step);
        for (k, c) in tree.children(id).enumerate() {
            let cs = replay.state(c, r.step);
            let probe = probes.as_ref().and_then(|p| {
                let (x, probed) = p.bounds[k];
                probed
                    .then(|| format!("  probe {}{}", if p.min { "≤" } else { "≥" }, self.short(x)))
            });
            let v = cs
                .value
                .filter(|_| cs.status == Status::Done)
                .map(|v| shown_text(self.app, &r.trace, c, v));
            let text = match (cs.chance_bounds, v, probe) {
                (Some((a, b)), v, p) => format!(
                    "  A{0} {1}  B{0} {2}{3}  → {4}{5}",
                    k + 1,
                    self.short(a),
                    self.short(b),
                    clip_note(tree, a, b),
                    v.unwrap_or_else(|| "not yet".into()),
                    p.unwrap_or_default()
                ),
                (None, _, Some(p)) => format!("  child {}:{p}", k + 1),
                (None, _, None) => continue,
            };
            lines.push(Line::from(Span::styled(text, t.dim_style())));
            // Ballard's equations with the numbers filled in.
            for eq in provenance::chance_arithmetic(tree, replay, id, k, r.step) {
                lines.push(Line::from(Span::styled(format!("    {eq}"), t.dim_style())));
            }
        }
        if let Some(p) = probes {
            lines.push(Line::from(Span::styled(
                format!(
                    "  probes' mean {}{} (unprobed children at {})",
                    if p.min { "≤" } else { "≥" },
                    self.short(p.mean),
                    if p.min { "U" } else { "L" }
                ),
                t.fg(t.probed),
            )));
        }
        lines
    }

    /// At the end of the run, how many children of a searched node were searched beside what
    /// its Knuth–Moore type expects.
    fn expected(&self) -> Option<Line<'static>> {
        let (r, tree, id) = (self.r, self.tree, self.id);
        let ty = self.app.doc().analysis.as_ref()?.types[id.index()]?;
        if tree.is_leaf(id) || self.st.status != Status::Done || r.step != r.trace.len() {
            return None;
        }
        let searched = tree
            .children(id)
            .filter(|&c| self.replay.state(c, r.step).visits > 0)
            .count();
        Some(Line::from(Span::styled(
            format!(
                "  {} expected; searched {searched} of {}",
                ty.name(),
                count(tree.child_count(id), "child", "children")
            ),
            self.t.dim_style(),
        )))
    }
}
