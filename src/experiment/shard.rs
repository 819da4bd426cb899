//! Experiments past one machine: `--shard K/N` runs a slice of an experiment's trials and
//! writes them as a part; `prune experiment merge PART…` puts the parts back together.
//!
//! Every unit of work (a random trial, or a tree, a search, a share of correct moves where an
//! experiment has no random trials) goes through [`super::per_row`], which numbers the (row,
//! trial) tasks in row-major order. Shard K of N takes the tasks whose number is K − 1 modulo N (round-robin, so
//! each shard gets its share of the costly rows too), with the seeds the unsharded run gives
//! them, and records each result with its row and trial. The merge hands the recorded results
//! back to `per_row` in place of computing them; the experiment then folds them in trial order,
//! exactly as unsharded, so its table, CSV, JSON and chart are the same bytes.
//!
//! The experiments know nothing of this: a run is sharded or merged by [`shard`] and [`merge`],
//! which set the mode for `per_row` on the calling thread (every experiment calls `per_row` from
//! the thread that runs it, once). In a shard, `per_row` ends the experiment's run with an error
//! that never reaches the user: the part it wrote is the outcome. The closed-form models
//! ([`Split::ByMerge`]: no trials, milliseconds) are computed whole by the merge; their shards
//! only record the options, so that the merge checks them like any other.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use super::{Info, Options, Report, Tick};

/// What a part file says it is.
const FORMAT: &str = "prune-experiment-part";

/// The part format's version: parts of another version are refused, not misread.
const VERSION: u32 = 1;

/// The most missing shards a merge's refusal names; it counts the rest.
const MISSING_NAMED: usize = 5;

/// How an experiment's work is spread over shards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Split {
    /// Its units of work, through [`super::per_row`]: each shard runs its slice.
    Trials,
    /// A closed-form model, no units to spread: the merge computes it whole, the shards only
    /// check their options.
    ByMerge,
}

/// Shard `k` of `n` (1 ≤ k ≤ n), as `--shard K/N` names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub k: u32,
    /// How many shards.
    pub n: u32,
}

impl Shard {
    /// Whether task number `index` (row-major over rows and trials) is this shard's.
    fn owns(self, index: usize) -> bool {
        index % self.n as usize == (self.k - 1) as usize
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}`: expected K/N with 1 ≤ K ≤ N, e.g. 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// A part file: what produced it, then its results, one `[row, trial, result]` a trial.
#[derive(Serialize, Deserialize)]
struct Part<R> {
    format: String,
    version: u32,
    /// The prune version that wrote it: another version may compute other numbers.
    prune: String,
    experiment: String,
    /// Every option that decides the numbers.
    options: Options,
    shard: u32,
    shards: u32,
    results: R,
}

/// One trial's result as a part records it.
type Record<T> = (usize, u32, T);

/// What `per_row` does on this thread.
enum Mode {
    /// Run a slice, and leave the part written here.
    Shard {
        experiment: &'static str,
        options: Options,
        shard: Shard,
        written: Option<String>,
    },
    /// Read the trials from these parts (checked by [`read`]), in shard order.
    Merge { parts: Vec<(PathBuf, Shard)> },
    /// The merge of a [`Split::ByMerge`] experiment: no trials to read.
    Whole,
}

thread_local! {
    static MODE: RefCell<Option<Mode>> = const { RefCell::new(None) };
}

/// Sets the mode for the duration of `f` (cleared even if it panics), and returns what `f`
/// gave with the mode as it was left.
fn with_mode<R>(mode: Mode, f: impl FnOnce() -> R) -> (R, Mode) {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            MODE.with(|m| m.borrow_mut().take());
        }
    }
    MODE.with(|m| *m.borrow_mut() = Some(mode));
    let guard = Clear;
    let out = f();
    let mode = MODE
        .with(|m| m.borrow_mut().take())
        .expect("set above, taken only here");
    drop(guard);
    (out, mode)
}

/// Runs shard `shard` of `info` with options `o`: the part's JSON. Bad options are the
/// experiment's own errors, found before any trial runs.
pub fn shard(info: &Info, o: &Options, shard: Shard, tick: Tick) -> Result<String, String> {
    if info.split == Split::ByMerge {
        return Ok(part_json(info.name, o, shard, &Vec::<Record<()>>::new()));
    }
    let mode = Mode::Shard {
        experiment: info.name,
        options: o.clone(),
        shard,
        written: None,
    };
    let (ran, mode) = with_mode(mode, || (info.run)(o, tick));
    match (mode, ran) {
        (
            Mode::Shard {
                written: Some(json),
                ..
            },
            _,
        ) => Ok(json),
        (_, Err(why)) => Err(why),
        (_, Ok(_)) => Err(format!(
            "internal error: {} is split by trials but ran none through per_row",
            info.name
        )),
    }
}

/// Parts read and checked: one experiment, one set of options, every shard once.
pub struct Parts {
    /// Their experiment.
    pub info: &'static Info,
    /// The options their shards ran with.
    pub options: Options,
    files: Vec<(PathBuf, Shard)>,
}

/// Reads the headers of the parts at `paths` and checks that they belong together: the same
/// experiment, options, prune version and N, every shard from 1 to N exactly once.
pub fn read(paths: &[PathBuf]) -> Result<Parts, String> {
    let mut heads = Vec::with_capacity(paths.len());
    for path in paths {
        heads.push((path.clone(), header(path)?));
    }
    let Some((first_path, first)) = heads.first() else {
        return Err("merge needs the parts to merge".into());
    };
    let first_name = first_path.display();
    for (path, h) in &heads[1..] {
        let name = path.display();
        let differ = |what: &str, theirs: &dyn fmt::Display, ours: &dyn fmt::Display| {
            Err(format!(
                "{name} is not a part of the same run as {first_name}: {what} {theirs}, not {ours}"
            ))
        };
        if h.experiment != first.experiment {
            return differ("experiment", &h.experiment, &first.experiment);
        }
        if h.options != first.options {
            return differ("options", &describe(&h.options), &describe(&first.options));
        }
        if h.shards != first.shards {
            return differ("shards", &h.shards, &first.shards);
        }
        if h.prune != first.prune {
            return differ("written by prune", &h.prune, &first.prune);
        }
    }
    let n = first.shards;
    // A map, not a slot a shard: a part may claim any N, and only the parts given take room.
    let mut by_shard: BTreeMap<u32, &Path> = BTreeMap::new();
    for (path, h) in &heads {
        if let Some(other) = by_shard.insert(h.shard, path) {
            return Err(format!(
                "{} and {} are both shard {}/{n}",
                other.display(),
                path.display(),
                h.shard
            ));
        }
    }
    let missing = n - by_shard.len() as u32;
    if missing > 0 {
        let mut named: Vec<String> = (1..=n)
            .filter(|k| !by_shard.contains_key(k))
            .take(MISSING_NAMED)
            .map(|k| format!("{k}/{n}"))
            .collect();
        if missing as usize > MISSING_NAMED {
            named.push(format!("… ({missing} in all)"));
        }
        let (s, are) = if missing == 1 {
            ("", "is")
        } else {
            ("s", "are")
        };
        return Err(format!(
            "shard{s} {} {are} missing: merge needs all {n} parts",
            named.join(", ")
        ));
    }
    let info = super::find(&first.experiment).ok_or_else(|| {
        format!(
            "{first_name}: no experiment `{}` in this prune",
            first.experiment
        )
    })?;
    let options = first.options.clone();
    let files = heads
        .into_iter()
        .map(|(path, h)| (path, Shard { k: h.shard, n }))
        .collect();
    Ok(Parts {
        info,
        options,
        files,
    })
}

/// Runs the parts' experiment with their trials: the report the unsharded run gives.
pub fn merge(parts: &Parts, tick: Tick) -> Result<Report, String> {
    let mode = match parts.info.split {
        Split::Trials => {
            let mut files = parts.files.clone();
            files.sort_by_key(|f| f.1.k);
            Mode::Merge { parts: files }
        }
        Split::ByMerge => Mode::Whole,
    };
    let (ran, mode) = with_mode(mode, || (parts.info.run)(&parts.options, tick));
    let report = ran?;
    match mode {
        Mode::Merge { parts: left } if !left.is_empty() => Err(format!(
            "internal error: {} is split by trials but read none through per_row",
            parts.info.name
        )),
        _ => Ok(report),
    }
}

/// `per_row`'s side: the results of `tasks` (row-major, each row's trials in order), computed
/// by `compute` outside shards, a slice of them in a shard, read from the parts in a merge.
pub(super) fn trials<T: Serialize + DeserializeOwned>(
    tasks: &[(usize, u32)],
    compute: impl FnOnce(&[(usize, u32)]) -> Result<Vec<T>, String>,
    possible: &dyn Fn(usize, u32, &T) -> Result<(), String>,
) -> Result<Vec<T>, String> {
    // Taken out while the trials run, so that nothing holds the thread's cell meanwhile.
    let Some(mut mode) = MODE.with(|m| m.borrow_mut().take()) else {
        return compute(tasks);
    };
    let out = match &mut mode {
        Mode::Shard {
            experiment, shard, ..
        } if shard.n as usize > tasks.len() => Err(format!(
            "--shard {shard}: {experiment} has {} units of work with these options (trials, trees or searches), one a shard at most: choose N ≤ {0}",
            tasks.len()
        )),
        Mode::Shard {
            experiment,
            options,
            shard,
            written,
        } => {
            let mine: Vec<(usize, u32)> = (0..tasks.len())
                .filter(|&i| shard.owns(i))
                .map(|i| tasks[i])
                .collect();
            compute(&mine).and_then(|results| {
                let records: Vec<Record<&T>> = mine
                    .iter()
                    .zip(&results)
                    .map(|(&(row, t), x)| (row, t, x))
                    .collect();
                *written = Some(part_json(experiment, options, *shard, &records));
                Err(format!("shard {shard} of {experiment} written"))
            })
        }
        Mode::Merge { parts } => read_trials(tasks, &std::mem::take(parts), possible),
        Mode::Whole => Err(
            "internal error: an experiment computed whole by the merge ran trials through per_row"
                .into(),
        ),
    };
    MODE.with(|m| *m.borrow_mut() = Some(mode));
    out
}

/// The results of `tasks` read from `parts`: each trial exactly once, in its own shard, and
/// each one `possible` for its row and trial.
fn read_trials<T: DeserializeOwned>(
    tasks: &[(usize, u32)],
    parts: &[(PathBuf, Shard)],
    possible: &dyn Fn(usize, u32, &T) -> Result<(), String>,
) -> Result<Vec<T>, String> {
    // Where each row's trials start among the tasks, and how many it has.
    let rows = tasks.last().map_or(0, |&(row, _)| row + 1);
    let mut start = vec![0usize; rows + 1];
    for &(row, _) in tasks {
        start[row + 1] += 1;
    }
    for row in 0..rows {
        start[row + 1] += start[row];
    }
    let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(tasks.len()).collect();
    for (path, shard) in parts {
        let part: Part<Vec<Record<T>>> = parse(path)?;
        for (row, t, x) in part.results {
            let name = path.display();
            let index = (row < rows)
                .then(|| start[row] + t as usize)
                .filter(|&i| i < start[row + 1])
                .ok_or_else(|| format!("{name}: row {row} has no trial {t} in this experiment"))?;
            if !shard.owns(index) {
                return Err(format!(
                    "{name}: trial {t} of row {row} is not shard {shard}'s"
                ));
            }
            possible(row, t, &x).map_err(|why| {
                format!("{name}: trial {t} of row {row}: {why}: not a result this experiment gives")
            })?;
            if slots[index].replace(x).is_some() {
                return Err(format!("{name}: trial {t} of row {row} is there twice"));
            }
        }
    }
    slots
        .into_iter()
        .zip(tasks)
        .map(|(x, &(row, t))| {
            x.ok_or_else(|| format!("trial {t} of row {row} is in no part: a part is incomplete"))
        })
        .collect()
}

/// A part as JSON.
fn part_json<R: Serialize>(
    experiment: &str,
    options: &Options,
    shard: Shard,
    results: &R,
) -> String {
    let part = Part {
        format: FORMAT.into(),
        version: VERSION,
        prune: env!("CARGO_PKG_VERSION").into(),
        experiment: experiment.into(),
        options: options.clone(),
        shard: shard.k,
        shards: shard.n,
        results,
    };
    let mut s = serde_json::to_string(&part).expect("a part serializes: strings, numbers, arrays");
    s.push('\n');
    s
}

/// A part's header, its results skipped; checked to be a part this prune reads.
fn header(path: &Path) -> Result<Part<IgnoredAny>, String> {
    let h: Part<IgnoredAny> = parse(path)?;
    let name = path.display();
    if h.version != VERSION {
        return Err(format!(
            "{name}: a part of format version {}; this prune reads version {VERSION}",
            h.version
        ));
    }
    if h.shard == 0 || h.shard > h.shards {
        return Err(format!(
            "{name}: shard {}/{} is not a shard (1 ≤ K ≤ N)",
            h.shard, h.shards
        ));
    }
    Ok(h)
}

/// Reads the part at `path` whole.
fn parse<R: DeserializeOwned>(path: &Path) -> Result<Part<R>, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let part: Part<R> = serde_json::from_reader(BufReader::new(file))
        .map_err(|e| format!("{name}: not a part that `prune experiment --shard` wrote ({e})"))?;
    if part.format != FORMAT {
        return Err(format!(
            "{name}: not a part that `prune experiment --shard` wrote (format `{}`)",
            part.format
        ));
    }
    Ok(part)
}

/// Options as the command line gives them, for messages.
fn describe(o: &Options) -> String {
    let mut s = format!("--seed {}", o.seed);
    if let Some(t) = o.trials {
        s.push_str(&format!(" --trials {t}"));
    }
    if let Some(sizes) = &o.sizes {
        let sizes: Vec<String> = sizes.iter().map(u32::to_string).collect();
        s.push_str(&format!(" --sizes {}", sizes.join(",")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_own_every_task_once() {
        assert_eq!("2/4".parse(), Ok(Shard { k: 2, n: 4 }));
        for bad in ["0/4", "5/4", "2", "a/4", "2/0", "-1/4"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let n = 3;
        for i in 0..20 {
            let owners = (1..=n).filter(|&k| Shard { k, n }.owns(i)).count();
            assert_eq!(owners, 1, "task {i}");
        }
    }

    /// Floats a trial may give come back as the same bits: serde_json's default parser is off
    /// by an ulp on about a fifth of random bit patterns, hence its float_roundtrip feature.
    #[test]
    fn results_come_back_bit_for_bit() {
        let mut rng = prune::generate::rng::Rng::new(7);
        let mut xs = vec![
            0.1 + 0.2,
            1.0 / 3.0,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            -0.0,
        ];
        xs.extend(
            std::iter::repeat_with(|| f64::from_bits(rng.u64()))
                .filter(|x| x.is_finite())
                .take(20_000),
        );
        let records: Vec<Record<f64>> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| (0, i as u32, x))
            .collect();
        let json = part_json("x", &Options::default(), Shard { k: 1, n: 1 }, &records);
        let back: Part<Vec<Record<f64>>> = serde_json::from_str(&json).unwrap();
        for ((_, _, a), b) in back.results.iter().zip(xs) {
            assert_eq!(a.to_bits(), b.to_bits(), "{b:e}");
        }
    }
}
