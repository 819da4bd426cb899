//! The stepper and the player: moving the current run through its trace — one step, to the
//! next cutoff, probe, re-search, iteration or table hit, to either end, or playing at a chosen
//! speed. [`Player`] owns the playing state; a stepper key reads the run and answers with a
//! [`Step`], which the scene applies (moving the run and the selection with it).

use std::time::{Duration, Instant};

use prune::trace::{EventKind, provenance};
use prune::tree::{NodeId, Tree};

use super::keymap::Action;
use super::runs::RunView;

/// Playing speeds, in steps a second.
const SPEEDS: [u32; 8] = [1, 2, 5, 10, 20, 50, 100, 1000];

/// Whether the current run plays, and how fast.
pub struct Player {
    pub(crate) playing: bool,
    /// Steps a second when playing.
    pub(crate) speed: u32,
    last_play: Instant,
}

impl Player {
    /// The current run plays.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Steps a second when playing.
    pub fn speed(&self) -> u32 {
        self.speed
    }
}

impl Default for Player {
    fn default() -> Player {
        Player {
            playing: false,
            speed: 10,
            last_play: Instant::now(),
        }
    }
}

/// What a stepper key asks for.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// The run to this step.
    To(usize),
    /// Nothing moves; the status bar says this.
    Say(String),
    Nothing,
}

impl Player {
    /// The stepper's actions on `run`, with `selected` the outline's selection.
    pub fn action(&mut self, action: Action, run: &RunView, tree: &Tree, selected: NodeId) -> Step {
        match action {
            Action::StepForward => step_by(run, 1),
            Action::StepBack => step_by(run, -1),
            Action::NextCutoff => jump(run, EventKind::Cutoff, true),
            Action::PrevCutoff => jump(run, EventKind::Cutoff, false),
            Action::NextProbe => jump(run, EventKind::Probe, true),
            Action::PrevProbe => jump(run, EventKind::Probe, false),
            Action::NextResearch => jump(run, EventKind::Research, true),
            Action::PrevResearch => jump(run, EventKind::Research, false),
            Action::NextIteration => jump(run, EventKind::Iteration, true),
            Action::PrevIteration => jump(run, EventKind::Iteration, false),
            Action::NextTableHit => jump(run, EventKind::TableHit, true),
            Action::PrevTableHit => jump(run, EventKind::TableHit, false),
            Action::JumpToPruner => jump_to_pruner(run, tree, selected),
            Action::Departure => match &run.departure {
                Some((step, _)) => Step::To(*step),
                None => Step::Say(
                    "no departure here: only an engine's run imported with --import that leaves its rules has one".into(),
                ),
            },
            Action::PlayPause => {
                // Play from the start when at the end.
                let restart = !self.playing && run.step == run.trace.len();
                self.playing = !self.playing;
                self.last_play = Instant::now();
                if restart { Step::To(0) } else { Step::Nothing }
            }
            Action::Faster | Action::Slower => {
                let i = SPEEDS.iter().position(|&s| s >= self.speed).unwrap_or(3);
                let i = if action == Action::Faster {
                    (i + 1).min(SPEEDS.len() - 1)
                } else {
                    i.saturating_sub(1)
                };
                self.speed = SPEEDS[i];
                Step::Say(format!("playing at {} steps a second", self.speed))
            }
            Action::StepStart => Step::To(0),
            Action::StepEnd => Step::To(run.trace.len()),
            _ => Step::Nothing,
        }
    }

    /// Time passes: the step `run` has played to by `now`, if it moved. Playing stops at the
    /// end, or when there is no run.
    pub fn tick(&mut self, now: Instant, run: Option<&RunView>) -> Option<usize> {
        if !self.playing {
            return None;
        }
        let every = Duration::from_secs_f64(1.0 / f64::from(self.speed));
        let due = (now.duration_since(self.last_play).as_secs_f64() / every.as_secs_f64()) as usize;
        if due == 0 {
            return None;
        }
        self.last_play = now;
        let Some(r) = run else {
            self.playing = false;
            return None;
        };
        let target = (r.step + due).min(r.trace.len());
        if target == r.trace.len() {
            self.playing = false;
        }
        Some(target)
    }
}

fn step_by(r: &RunView, d: isize) -> Step {
    let k = r.step as isize + d;
    Step::To(k.clamp(0, r.trace.len() as isize) as usize)
}

/// From a pruned node (at the current step, or at the end of the run): to the step of the
/// cutoff that pruned it.
fn jump_to_pruner(r: &RunView, tree: &Tree, id: NodeId) -> Step {
    let replay = r.replay(tree);
    let end = r.trace.len();
    let by = [r.step, end]
        .into_iter()
        .find_map(|k| replay.state(id, k).pruned_by.map(|p| (p, k)));
    match by.and_then(|((node, _), k)| provenance::cutoff_step(&replay, node, k)) {
        Some(s) => Step::To(s),
        None => Step::Say("this node is not pruned by a cutoff".into()),
    }
}

/// The next (previous) event of `kind`: the step that applies it.
fn jump(r: &RunView, kind: EventKind, forward: bool) -> Step {
    let events = r.trace.events();
    let found = if forward {
        (r.step..events.len()).find(|&s| events[s].kind() == kind)
    } else {
        (0..r.step.saturating_sub(1))
            .rev()
            .find(|&s| events[s].kind() == kind)
    };
    match found {
        Some(s) => Step::To(s + 1),
        None => {
            let what = match kind {
                EventKind::Cutoff => "cutoff",
                EventKind::Probe => "probe",
                EventKind::Iteration => "iteration",
                EventKind::TableHit => "transposition-table hit",
                _ => "re-search",
            };
            let dir = if forward { "after" } else { "before" };
            Step::Say(format!("no {what} {dir} this step"))
        }
    }
}
