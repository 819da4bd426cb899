//! A run drawn step by step: which steps (`--steps all|A..B|cutoffs`), one [`Frame`] each
//! with the explorer's narration of the step, and the names of the numbered files a sequence
//! is written to.

use std::path::{Path, PathBuf};

use crate::search::Run;
use crate::trace::narrate::describe;
use crate::trace::{EventKind, StepIndex, Trace};
use crate::tree::Tree;

use super::{At, Options, Picture, picture, title};

/// Which steps of a run to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steps {
    /// Every step, from 0 (before the search) to the end.
    All,
    /// Steps `A` to `B`, both included.
    Range(usize, usize),
    /// The steps at which a cutoff happens (the picture just after each).
    Cutoffs,
}

impl Steps {
    /// `all`, `A..B` or `cutoffs`.
    pub fn parse(s: &str) -> Result<Steps, String> {
        let s = s.trim();
        match s {
            "all" => return Ok(Steps::All),
            "cutoffs" => return Ok(Steps::Cutoffs),
            _ => {}
        }
        let bad = || format!("--steps {s}: write all, cutoffs, or a range A..B such as 3..12");
        let (a, b) = s.split_once("..").ok_or_else(bad)?;
        let a: usize = a.trim().parse().map_err(|_| bad())?;
        let b: usize = b.trim().parse().map_err(|_| bad())?;
        if a > b {
            return Err(format!(
                "--steps {s}: the range runs backwards; write {b}..{a}"
            ));
        }
        Ok(Steps::Range(a, b))
    }

    /// The steps chosen in `trace`, in order; a range past the run's end is refused with the
    /// run's length.
    pub fn select(self, trace: &Trace) -> Result<Vec<usize>, String> {
        let n = trace.len();
        Ok(match self {
            Steps::All => (0..=n).collect(),
            Steps::Range(a, b) if b > n => {
                return Err(format!(
                    "--steps {a}..{b}: the run made {n} steps; choose steps from 0 to {n}"
                ));
            }
            Steps::Range(a, b) => (a..=b).collect(),
            Steps::Cutoffs => (1..=n)
                .filter(|&k| trace.event(k - 1).kind() == EventKind::Cutoff)
                .collect(),
        })
    }
}

/// One step's picture, its title and what the step did in words.
pub struct Frame {
    /// Steps applied.
    pub step: usize,
    /// The picture at that step.
    pub pic: Picture,
    /// The run and the step ([`title`]).
    pub title: String,
    /// The step in words, as the explorer's bottom line says it.
    pub narration: String,
}

/// The pictures of `run` at each of `steps`, through one index of the trace.
pub fn frames(
    tree: &Tree,
    sizes: &[u32],
    run: &Run,
    trace: &Trace,
    steps: &[usize],
    opts: &Options,
) -> Vec<Frame> {
    let index = StepIndex::new(tree, trace);
    steps
        .iter()
        .map(|&step| {
            let at = At::with_index(tree, run, trace, &index, step);
            Frame {
                step,
                pic: picture(tree, sizes, Some(&at), opts),
                title: title(tree, Some(&at)),
                narration: describe(tree, run, trace, &at.replay, step),
            }
        })
        .collect()
}

/// The file the `i`th picture (from 1) of a sequence of `n` goes to: `out.svg` gives
/// `out-001.svg`, `out-002.svg`… — numbered in the order drawn (not by step: each picture's
/// title names its step), with at least three digits, more when `n` needs them, so that the
/// names sort as the pictures follow.
pub fn numbered(out: &Path, i: usize, n: usize) -> PathBuf {
    let digits = n.to_string().len().max(3);
    let stem = out
        .file_stem()
        .map_or_else(|| "step".into(), |s| s.to_string_lossy().into_owned());
    let name = match out.extension() {
        Some(ext) => format!("{stem}-{i:0digits$}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{i:0digits$}"),
    };
    out.with_file_name(name)
}
