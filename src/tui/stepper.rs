//! The stepper and the player: moving the current run through its trace — one step, to the
//! next cutoff, probe, re-search, iteration or table hit, to either end, or playing at a chosen
//! speed.

use std::time::{Duration, Instant};

use crate::trace::{EventKind, provenance};

use super::app::App;
use super::keymap::Action;

/// Playing speeds, in steps a second.
const SPEEDS: [u32; 8] = [1, 2, 5, 10, 20, 50, 100, 1000];

impl App {
    /// The stepper's actions.
    pub(super) fn stepper(&mut self, action: Action) {
        match action {
            Action::StepForward => self.step_by(1),
            Action::StepBack => self.step_by(-1),
            Action::NextCutoff => self.jump(EventKind::Cutoff, true),
            Action::PrevCutoff => self.jump(EventKind::Cutoff, false),
            Action::NextProbe => self.jump(EventKind::Probe, true),
            Action::PrevProbe => self.jump(EventKind::Probe, false),
            Action::NextResearch => self.jump(EventKind::Research, true),
            Action::PrevResearch => self.jump(EventKind::Research, false),
            Action::NextIteration => self.jump(EventKind::Iteration, true),
            Action::PrevIteration => self.jump(EventKind::Iteration, false),
            Action::NextTableHit => self.jump(EventKind::TableHit, true),
            Action::PrevTableHit => self.jump(EventKind::TableHit, false),
            Action::JumpToPruner => self.jump_to_pruner(),
            Action::PlayPause => {
                if let Some(r) = self.current_run() {
                    if !self.playing && r.step == r.trace.len() {
                        self.go_to_step(0);
                    }
                    self.playing = !self.playing;
                    self.last_play = Instant::now();
                }
            }
            Action::Faster | Action::Slower => {
                let i = SPEEDS.iter().position(|&s| s >= self.speed).unwrap_or(3);
                let i = if action == Action::Faster {
                    (i + 1).min(SPEEDS.len() - 1)
                } else {
                    i.saturating_sub(1)
                };
                self.speed = SPEEDS[i];
                self.status = Some((format!("playing at {} steps a second", self.speed), false));
            }
            Action::StepStart => self.go_to_step(0),
            Action::StepEnd => {
                if let Some(r) = self.current_run() {
                    let end = r.trace.len();
                    self.go_to_step(end);
                }
            }
            _ => {}
        }
    }

    /// Time passes: pick up background work, play the trace.
    pub fn tick(&mut self, now: Instant) {
        self.poll();
        if !self.playing {
            return;
        }
        let every = Duration::from_secs_f64(1.0 / f64::from(self.speed));
        let due = (now.duration_since(self.last_play).as_secs_f64() / every.as_secs_f64()) as usize;
        if due == 0 {
            return;
        }
        self.last_play = now;
        let Some(r) = self.runs.get(self.current) else {
            self.playing = false;
            return;
        };
        let target = (r.step + due).min(r.trace.len());
        self.go_to_step(target);
        if target == self.runs[self.current].trace.len() {
            self.playing = false;
        }
    }

    fn step_by(&mut self, d: isize) {
        if let Some(r) = self.current_run() {
            let k = r.step as isize + d;
            let k = k.clamp(0, r.trace.len() as isize) as usize;
            self.go_to_step(k);
        }
    }

    /// Moves the current run to step `k` and selects the node of the step's event (not in the
    /// diagram view, which keeps the subtree the user chose and marks the step's node in it).
    pub fn go_to_step(&mut self, k: usize) {
        let Some(r) = self.runs.get_mut(self.current) else {
            self.status = Some(("no run yet: press r to run an algorithm".into(), false));
            return;
        };
        r.step = k.min(r.trace.len());
        let node = match r.step.checked_sub(1) {
            None => self.tree.root(),
            Some(s) => r.trace.event(s).view().node(),
        };
        if !self.layout.diagram {
            self.select(node);
        }
    }

    /// From a pruned node (at the current step, or at the end of the run): to the step of the
    /// cutoff that pruned it.
    fn jump_to_pruner(&mut self) {
        let Some(r) = self.current_run() else { return };
        let id = self.outline.selected;
        let replay = r.replay(&self.tree);
        let end = r.trace.len();
        let by = [r.step, end]
            .into_iter()
            .find_map(|k| replay.state(id, k).pruned_by.map(|p| (p, k)));
        let step = by.and_then(|((node, _), k)| provenance::cutoff_step(&replay, node, k));
        match step {
            Some(s) => self.go_to_step(s),
            None => {
                self.status = Some(("this node is not pruned by a cutoff".into(), false));
            }
        }
    }

    /// Jumps to the next (previous) event of `kind`: the step that applies it.
    fn jump(&mut self, kind: EventKind, forward: bool) {
        let Some(r) = self.current_run() else { return };
        let events = r.trace.events();
        let found = if forward {
            (r.step..events.len()).find(|&s| events[s].kind() == kind)
        } else {
            (0..r.step.saturating_sub(1))
                .rev()
                .find(|&s| events[s].kind() == kind)
        };
        match found {
            Some(s) => self.go_to_step(s + 1),
            None => {
                let what = match kind {
                    EventKind::Cutoff => "cutoff",
                    EventKind::Probe => "probe",
                    EventKind::Iteration => "iteration",
                    EventKind::TableHit => "transposition-table hit",
                    _ => "re-search",
                };
                let dir = if forward { "after" } else { "before" };
                self.status = Some((format!("no {what} {dir} this step"), false));
            }
        }
    }
}
