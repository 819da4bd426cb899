//! A run as the explorer holds it: the recorded search, its step index, and where the user is
//! in it.

use prune::protocol::Header;
use prune::protocol::import::Imported;
use prune::search::{Algorithm, Control, Refusal, Run};
use prune::trace::{self, Replay, StepIndex, Trace};
use prune::tree::{NodeId, Tree};

/// One algorithm's run on the tree, with its trace and where the user is in it.
pub struct RunView {
    pub algo: Algorithm,
    pub run: Run,
    pub trace: Trace,
    pub index: StepIndex,
    /// Steps applied: 0 is before the search, `trace.len()` after it. A run opens at 0, so
    /// that stepping and the jumps (`]`: the next cutoff) go forward through the whole search.
    pub step: usize,
    /// A run kept from an earlier order of the tree's children, told on this order: what it
    /// was (`before reorder`). It is not searched again when the tree changes.
    pub kept: Option<String>,
    /// A run imported from an engine's trace: what it is called instead of its algorithm
    /// (`engine: my-engine 0.3 (alphabeta-fail-hard)`).
    pub title: Option<String>,
    /// A run imported from an engine's trace: the engine's name (`my-engine 0.3`), which its
    /// column's header gives beside the algorithm.
    pub engine: Option<String>,
    /// An imported run's first departure from its rules: the step where it shows (the
    /// departing event the last one applied) and the checker's sentence for it.
    pub departure: Option<(usize, String)>,
    /// This run's own number, never another's: what the diagram's cached picture was drawn
    /// of ([`crate::tui::zoom::PictureCache`]), as runs come and go at the same places.
    pub(crate) serial: u64,
}

/// The next run's [`RunView::serial`].
fn next_serial() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl RunView {
    /// Searches `tree` recording every event.
    pub fn new(tree: &Tree, algo: Algorithm) -> Result<RunView, Refusal> {
        RunView::with_control(tree, algo, &Control::default())
    }

    /// Searches `tree` recording every event, publishing the visits so far in `control` and
    /// stopping when it asks.
    pub fn with_control(
        tree: &Tree,
        algo: Algorithm,
        control: &Control,
    ) -> Result<RunView, Refusal> {
        let (run, trace) = trace::record_with(tree, &algo, control)?;
        Ok(RunView::recorded(tree, algo, run, trace))
    }

    /// A run recorded elsewhere (a game's search from its rules, on the tree it searched).
    pub fn recorded(tree: &Tree, algo: Algorithm, run: Run, trace: Trace) -> RunView {
        let index = StepIndex::new(tree, &trace);
        RunView {
            algo,
            run,
            trace,
            index,
            step: 0,
            kept: None,
            title: None,
            engine: None,
            departure: None,
            serial: next_serial(),
        }
    }

    /// An engine's run imported from its protocol trace (docs/PROTOCOL.md) on the tree it
    /// searched, named for the engine and the search it claims, and opened at its first
    /// departure — `(protocol line, the checker's sentence)`: the event where it departs is
    /// the last one applied, and the run keeps it for the key that comes back to it — or at
    /// step 0.
    pub fn imported(
        tree: &Tree,
        engine: Imported,
        header: &Header,
        departure: Option<(usize, String)>,
    ) -> RunView {
        let departure = departure.map(|(line, sentence)| (engine.step_at(line), sentence));
        let mut view =
            RunView::recorded(tree, engine.run.algorithm.clone(), engine.run, engine.trace);
        view.step = departure.as_ref().map_or(0, |&(step, _)| step);
        view.title = Some(format!("engine: {} ({})", header.engine, header.algorithm));
        view.engine = Some(header.engine.clone());
        view.departure = departure;
        view
    }

    /// The node of the departing event, when the run is at its departure's step.
    pub fn departs_at(&self) -> Option<(NodeId, &str)> {
        let (step, sentence) = self.departure.as_ref()?;
        let event = self.trace.events().get(step.checked_sub(1)?)?;
        (self.step == *step).then(|| (event.view().node(), sentence.as_str()))
    }

    /// What the run is called on screen: its algorithm, and for a kept run where it is from
    /// ("alphabeta (before reorder)").
    pub fn name(&self) -> String {
        if let Some(title) = &self.title {
            return title.clone();
        }
        match &self.kept {
            Some(from) => format!("{} ({from})", self.algo.label()),
            None => self.algo.label(),
        }
    }

    /// This run, searched on `old`, kept on `new`, a copy of `old` with its children reordered
    /// (`map[old id]` = new id): the same events and statistics on the same nodes, its
    /// principal variation and best moves by their new positions.
    pub fn kept_on(&self, old: &Tree, new: &Tree, map: &[NodeId], from: &str) -> RunView {
        let trace = self.trace.remapped(old, new, map);
        let index = StepIndex::new(new, &trace);
        let mut run = self.run.clone();
        run.pv = run.pv.iter().map(|n| map[n.index()]).collect();
        run.best_moves = run
            .best_moves
            .iter()
            .map(|&i| new.child_index(map[old.child(old.root(), i).index()]))
            .collect();
        run.best_moves.sort_unstable();
        RunView {
            algo: self.algo.clone(),
            run,
            step: self.step.min(trace.len()),
            trace,
            index,
            kept: Some(from.to_owned()),
            title: self.title.clone(),
            engine: self.engine.clone(),
            departure: self.departure.clone(),
            serial: next_serial(),
        }
    }

    pub fn replay<'a>(&'a self, tree: &'a Tree) -> Replay<'a> {
        Replay::with_index(tree, &self.trace, &self.index)
    }

    /// Step `k` in words (see [`trace::narrate`]).
    pub fn describe(&self, tree: &Tree, k: usize) -> String {
        trace::narrate::describe(tree, &self.run, &self.trace, &self.replay(tree), k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prune::generate;
    use prune::trace::Status;

    /// A run kept on a reordered copy of its tree tells the same story: after every step, each
    /// node's status, window, value and bound are those of its counterpart in the original
    /// run; the statistics are the same; the principal variation is the same nodes. The one
    /// difference allowed: between a cutoff and its node's exit, a skipped child that now
    /// stands before the child that fired shows as not reached until the exit settles it.
    #[test]
    fn a_kept_run_tells_the_same_story_on_the_new_order() {
        let mut checked = 0;
        for seed in 0..30u64 {
            let p = generate::random::RandomShape {
                min_branching: 1,
                max_branching: 2 + (seed % 3) as u32,
                depth: 2 + (seed % 4) as u32,
                leaf_probability: 0.2,
                values: generate::Values::integers(-9, 9),
                mixed: seed % 2 == 0,
            };
            let tree = generate::random::generate(&p, seed).unwrap();
            let mut rng = generate::Rng::new(seed);
            let (new, map) = tree.reordered_map(|t, id| {
                let mut o: Vec<usize> = (0..t.child_count(id)).collect();
                for i in (1..o.len()).rev() {
                    o.swap(i, rng.below(i as u64 + 1) as usize);
                }
                o
            });
            for algo in [
                Algorithm::AlphaBeta { fail_soft: false },
                Algorithm::AlphaBeta { fail_soft: true },
                Algorithm::Sss,
                Algorithm::NegaScout,
                Algorithm::Mtdf { guess: None },
            ] {
                let Ok(old_run) = RunView::new(&tree, algo.clone()) else {
                    continue;
                };
                let kept = old_run.kept_on(&tree, &new, &map, "before reorder");
                assert_eq!(
                    kept.name(),
                    format!("{} (before reorder)", old_run.algo.label())
                );
                assert_eq!(kept.run.stats, old_run.run.stats);
                let pv: Vec<NodeId> = old_run.run.pv.iter().map(|n| map[n.index()]).collect();
                assert_eq!(kept.run.pv, pv);
                let (a, b) = (old_run.replay(&tree), kept.replay(&new));
                for k in 0..=old_run.trace.len() {
                    let (sa, sb) = (a.states(k), b.states(k));
                    for id in tree.ids() {
                        let (x, y) = (&sa[id.index()], &sb[map[id.index()].index()]);
                        assert_eq!(
                            (x.window, x.value, x.bound, x.visits),
                            (y.window, y.value, y.bound, y.visits),
                            "seed {seed}, step {k}"
                        );
                        if x.status != y.status {
                            assert_eq!((x.status, y.status), (Status::Pruned, Status::NotReached));
                            // Some ancestor cut off and has not exited yet.
                            let mut up = tree.parent(id);
                            let mut found = false;
                            while let Some(p) = up {
                                let st = &sa[p.index()];
                                found |= st.cutoff.is_some() && st.status == Status::Open;
                                up = tree.parent(p);
                            }
                            assert!(found, "seed {seed}, step {k}, {algo:?}");
                        }
                        checked += 1;
                    }
                    // At the end every status is the same.
                    if k == old_run.trace.len() {
                        for id in tree.ids() {
                            assert_eq!(sa[id.index()].status, sb[map[id.index()].index()].status);
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
