//! Algorithms' parameters, each described once ([`ParamSpec`]: its key, kind, default and help)
//! and checked against that description wherever a user gives one: a command-line flag, the
//! inline `algo:key=value` syntax, the explorer's run form.

use super::improvements::Improvements;
use crate::text::number_text;

/// One parameter an algorithm takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// Alpha-beta returns values outside its window (Schaeffer's slides) rather than clamping
    /// them to it (Knuth & Moore's F2, fail-hard).
    FailSoft,
    /// Ballard §7.2: the cutoff below the root's rightmost * node, for Star1 and Star2.
    Rightmost,
    /// Star2's rounds of cyclic probing before its regular phase (Ballard §5, §6.2.1.3).
    Probes,
    /// Star2 probes even where no probe can cut off, as Star2Min is printed; by default only
    /// where one can (Ballard §5, §6).
    ProbeAlways,
    /// The k of Tzeng & Purdom's k-rule, equation (7.1): 1 is product propagation, ∞ minimax.
    K,
    /// The paranoid player facing the coalition of the others (Sturtevant & Korf 2000).
    Player,
    /// MTD(f)'s first guess (Plaat, Schaeffer, Pijls & de Bruin 1996).
    Guess,
    /// A depth limit, positions there valued by their heuristic (Schaeffer's slides).
    Depth,
    /// A transposition table (Schaeffer's slides, "Using storage").
    Tt,
    /// Iterative deepening (Schaeffer's slides, "Exploratory searches").
    Id,
    /// Aspiration windows around the previous iteration's value (Schaeffer's slides, "Playing
    /// with the search windows").
    Aspiration,
    /// Killer moves (Schaeffer's slides, "Successor ordering").
    Killers,
    /// The history heuristic (Schaeffer's slides, "Successor ordering"; Schaeffer 1989, §3).
    History,
}

/// What kind of value a parameter takes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// On or off: `--fail-soft`, `alphabeta:fail-soft`.
    Toggle,
    /// A whole number in `min..=max`.
    Whole {
        /// The least value accepted.
        min: u32,
        /// The greatest value accepted.
        max: u32,
    },
    /// A real number greater than `above`: finite, or also +∞ where `infinite` (the k-rule's
    /// k = ∞ is minimax, Tzeng & Purdom's (7.1) in the limit).
    Real {
        /// The exclusive lower bound: a value must be strictly greater.
        above: f64,
        /// Whether +∞ (`inf`, `∞`) is accepted besides finite values.
        infinite: bool,
    },
    /// A finite real number, or nothing for the algorithm's own default.
    OptionalReal,
}

/// A parameter as the user meets it: on the command line (`--KEY`), inline (`algo:KEY=VALUE`)
/// and in the explorer's run form (`label`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The parameter described; [`PARAMS`] holds one spec for each.
    pub param: Param,
    /// The inline name, and the flag without its `--`.
    pub key: &'static str,
    /// The value's placeholder in help texts (`K`, `I`, `F`); empty for toggles.
    pub placeholder: &'static str,
    /// What values it takes, and so how its text is read and checked.
    pub kind: ParamKind,
    /// The default as the user would type it; empty when the algorithm chooses.
    pub default: &'static str,
    /// The field's name in the explorer's run form.
    pub label: &'static str,
    /// One line of help.
    pub help: &'static str,
}

impl ParamSpec {
    /// `--probes K` or `--rightmost`: the flag as `prune algos` lists it.
    pub fn usage(&self) -> String {
        if self.placeholder.is_empty() {
            format!("--{}", self.key)
        } else {
            format!("--{} {}", self.key, self.placeholder)
        }
    }
}

pub(super) const FAIL_SOFT: ParamSpec = ParamSpec {
    param: Param::FailSoft,
    key: "fail-soft",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "fail-soft",
    help: "fail-soft (Schaeffer's slides) instead of fail-hard (Knuth & Moore)",
};

pub(super) const RIGHTMOST: ParamSpec = ParamSpec {
    param: Param::Rightmost,
    key: "rightmost",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "rightmost (§7.2)",
    help: "Ballard §7.2's cutoff below the root's rightmost * node",
};

pub(super) const PROBES: ParamSpec = ParamSpec {
    param: Param::Probes,
    key: "probes",
    placeholder: "K",
    // Zero is accepted here and refused with the reason: Star1 is Star2 without probing.
    kind: ParamKind::Whole {
        min: 0,
        max: 1_000_000_000,
    },
    default: "1",
    label: "probes K",
    help: "rounds of cyclic probing before the regular phase (Ballard's Star2: 1)",
};

pub(super) const PROBE_ALWAYS: ParamSpec = ParamSpec {
    param: Param::ProbeAlways,
    key: "probe-always",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "probe always",
    help: "probe even where no probe can cut off (Star2Min as printed); by default only where one can (§5, §6)",
};

pub(super) const K: ParamSpec = ParamSpec {
    param: Param::K,
    key: "k",
    placeholder: "K",
    kind: ParamKind::Real {
        above: 0.0,
        infinite: true,
    },
    default: "2",
    label: "k",
    help: "the k of Tzeng & Purdom's equation (7.1); 1 is product propagation, inf (∞) minimax",
};

pub(super) const PLAYER: ParamSpec = ParamSpec {
    param: Param::Player,
    key: "player",
    placeholder: "I",
    kind: ParamKind::Whole { min: 1, max: 255 },
    default: "1",
    label: "player",
    help: "the player (from 1) facing a coalition of all the others",
};

pub(super) const GUESS: ParamSpec = ParamSpec {
    param: Param::Guess,
    key: "guess",
    placeholder: "F",
    kind: ParamKind::OptionalReal,
    default: "",
    label: "first guess",
    help: "the first guess (default: the middle of the value bounds)",
};

pub(super) const DEPTH: ParamSpec = ParamSpec {
    param: Param::Depth,
    key: "depth",
    placeholder: "D",
    kind: ParamKind::Whole {
        min: 0,
        max: 1_000_000_000,
    },
    default: "",
    label: "depth D",
    help: "search to depth D; interior positions there are valued by their heuristic (default: to the leaves)",
};

pub(super) const TT: ParamSpec = ParamSpec {
    param: Param::Tt,
    key: "tt",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "transposition table",
    help: "a transposition table keyed by position key (value, bound, depth, best move)",
};

pub(super) const ID: ParamSpec = ParamSpec {
    param: Param::Id,
    key: "id",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "iterative deepening",
    help: "iterative deepening: depth 1, 2, … D, the previous iteration's best move first",
};

pub(super) const ASPIRATION: ParamSpec = ParamSpec {
    param: Param::Aspiration,
    key: "aspiration",
    placeholder: "W",
    kind: ParamKind::Real {
        above: 0.0,
        infinite: false,
    },
    default: "",
    label: "aspiration W",
    help: "with --id: search each iteration with the window previous value ± W, again wider on failure",
};

pub(super) const KILLERS: ParamSpec = ParamSpec {
    param: Param::Killers,
    key: "killers",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "killer moves",
    help: "try first the two moves that last cut off at the same depth",
};

pub(super) const HISTORY: ParamSpec = ParamSpec {
    param: Param::History,
    key: "history",
    placeholder: "",
    kind: ParamKind::Toggle,
    default: "",
    label: "history heuristic",
    help: "order moves by the history heuristic (2^depth for each cutoff or best move)",
};

/// Every parameter of every algorithm, once.
pub const PARAMS: &[ParamSpec] = &[
    FAIL_SOFT,
    PROBES,
    PROBE_ALWAYS,
    RIGHTMOST,
    K,
    PLAYER,
    GUESS,
    DEPTH,
    TT,
    ID,
    ASPIRATION,
    KILLERS,
    HISTORY,
];

/// The description of `param`.
pub fn find_param(param: Param) -> &'static ParamSpec {
    PARAMS
        .iter()
        .find(|s| s.param == param)
        .expect("every parameter is described in PARAMS")
}

/// What is wrong with an algorithm's name or parameters. The catalogue, which sits above this
/// table, fills in what a message lists (the algorithms, an algorithm's parameters).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// A name that is neither an algorithm of the catalogue nor one of its aliases.
    #[error("unknown algorithm `{name}`; {}", crate::text::did_you_mean(*.suggestion, "algorithms", .algorithms))]
    UnknownAlgorithm {
        /// The name as the user typed it.
        name: String,
        /// The algorithm it most likely misspells ([`crate::text::closest_name`]).
        suggestion: Option<&'static str>,
        /// Every algorithm's name, in catalogue order, for the message.
        algorithms: Vec<&'static str>,
    },
    /// An inline `key=value` whose key is no parameter at all.
    #[error("unknown parameter `{key}` in `{spec}`")]
    UnknownParam {
        /// The key as typed.
        key: String,
        /// The whole inline specification it appeared in (`algo:key=value`).
        spec: String,
    },
    /// A parameter that exists, but not for this algorithm.
    #[error("{algo} has no parameter `{key}`{}", known(.takes))]
    NotOfAlgorithm {
        /// The algorithm's catalogue name.
        algo: &'static str,
        /// The key as typed.
        key: String,
        /// The parameters `algo` takes.
        takes: &'static [ParamSpec],
    },
    /// A parameter other than a toggle given without a value.
    #[error("`{key}` needs a value: `{algo}:{key}={placeholder}`")]
    MissingValue {
        /// The algorithm's name as typed.
        algo: String,
        /// The parameter's key.
        key: &'static str,
        /// Its value's placeholder ([`ParamSpec::placeholder`]), for the example in the message.
        placeholder: &'static str,
    },
    /// A value that does not read as a number (or, for a toggle, as on or off).
    #[error("`{key}={value}`: expected a number")]
    NotANumber {
        /// The parameter's key.
        key: &'static str,
        /// The text as typed.
        value: String,
    },
    /// A whole-number parameter's value that is fractional or outside its range.
    #[error("`{key}` must be a whole number from {min} to {max}, not {value}")]
    OutOfRange {
        /// The parameter's key.
        key: &'static str,
        /// The least value accepted ([`ParamKind::Whole`]).
        min: u32,
        /// The greatest value accepted.
        max: u32,
        /// The text as typed.
        value: String,
    },
    /// A real parameter's value at or below its bound, or infinite where ∞ is not a value.
    #[error(
        "`{key}` must be a {}number greater than {}{}, not {value}",
        if *.infinite { "" } else { "finite " },
        number_text(*.above),
        if *.infinite { " (or inf, ∞)" } else { "" }
    )]
    NotAbove {
        /// The parameter's key.
        key: &'static str,
        /// The exclusive lower bound ([`ParamKind::Real`]).
        above: f64,
        /// +∞ is a value (the k-rule's k: minimax).
        infinite: bool,
        /// The text as typed.
        value: String,
    },
    /// An optional real parameter's value that is infinite or NaN.
    #[error("`{key}` must be a finite number, not {value}")]
    NotFinite {
        /// The parameter's key.
        key: &'static str,
        /// The text as typed.
        value: String,
    },
}

fn known(takes: &[ParamSpec]) -> String {
    if takes.is_empty() {
        return " (it has none)".into();
    }
    let keys: Vec<&str> = takes.iter().map(|s| s.key).collect();
    format!(" (it has {})", keys.join(", "))
}

/// Parameter values: what the command-line flags set, and what an algorithm without its own
/// value for a parameter takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Alpha-beta fails soft (`--fail-soft`).
    pub fail_soft: bool,
    /// Star2's rounds of cyclic probing (`--probes`); 0 is refused (Star1 is Star2 without
    /// probing).
    pub probes: u32,
    /// Star2 probes even where no probe can cut off (`--probe-always`).
    pub probe_always: bool,
    /// Ballard §7.2's cutoff below the root's rightmost * node (`--rightmost`).
    pub rightmost: bool,
    /// The k-rule's k, greater than 0, +∞ allowed (`--k`).
    pub k: f64,
    /// The paranoid player, from 0.
    pub player: u8,
    /// MTD(f)'s first guess; `None`: the middle of the value bounds (`--guess`).
    pub guess: Option<f64>,
    /// The improvements of Schaeffer's slides, a depth limit among them: every algorithm that
    /// takes one takes it from here (`Params::improvements_taken`).
    pub improvements: Improvements,
}

impl Default for Params {
    /// Every parameter at the default its description gives ([`ParamSpec::default`]); toggles
    /// off and values the algorithm chooses unset.
    fn default() -> Self {
        let whole = |spec: &ParamSpec| -> u32 {
            spec.default
                .parse()
                .expect("a whole-number parameter's default is a whole number")
        };
        let real = |spec: &ParamSpec| -> f64 {
            spec.default
                .parse()
                .expect("a real parameter's default is a number")
        };
        Params {
            fail_soft: false,
            probes: whole(&PROBES),
            probe_always: false,
            rightmost: false,
            k: real(&K),
            player: player_index(whole(&PLAYER)),
            guess: None,
            improvements: Improvements::default(),
        }
    }
}

/// The paranoid player from 0, as [`Params::player`] holds it, of the player from 1 the user
/// types (checked against [`PLAYER`]'s range, 1 to 255).
fn player_index(from_one: u32) -> u8 {
    (from_one - 1) as u8
}

/// The text of one parameter, read as its description's kind says.
struct Reading<'a> {
    spec: &'a ParamSpec,
    algo: &'a str,
    /// `None`: a bare toggle, or an empty optional value.
    text: Option<&'a str>,
}

impl Reading<'_> {
    fn missing(&self) -> ParamError {
        ParamError::MissingValue {
            algo: self.algo.to_owned(),
            key: self.spec.key,
            placeholder: self.spec.placeholder,
        }
    }

    fn number(&self, t: &str) -> Result<f64, ParamError> {
        // Rust reads `inf` and `infinity`; `prune algos` writes the k-rule's k = ∞.
        let read = t.replace('∞', "inf");
        read.parse::<f64>().map_err(|_| ParamError::NotANumber {
            key: self.spec.key,
            value: t.to_owned(),
        })
    }

    /// A [`ParamKind`] other than the one a field reads is a mistake in [`PARAMS`], caught by
    /// this module's tests (every parameter is set from its default and its text).
    fn wrong_kind(&self, reads: &str) -> ! {
        unreachable!("PARAMS describes `{}` as {reads}", self.spec.key)
    }

    fn toggle(&self) -> Result<bool, ParamError> {
        if self.spec.kind != ParamKind::Toggle {
            self.wrong_kind("a toggle");
        }
        match self.text {
            None | Some("true" | "on" | "yes") => Ok(true),
            Some("false" | "off" | "no") => Ok(false),
            Some(other) => Err(ParamError::NotANumber {
                key: self.spec.key,
                value: other.to_owned(),
            }),
        }
    }

    fn whole(&self) -> Result<u32, ParamError> {
        let ParamKind::Whole { min, max } = self.spec.kind else {
            self.wrong_kind("a whole number");
        };
        let t = self.text.ok_or_else(|| self.missing())?;
        // Digits only: `1e9` or `3.0` reads as a whole number to f64, not to a reader.
        if !t.bytes().all(|b| b.is_ascii_digit()) || t.is_empty() {
            return Err(ParamError::OutOfRange {
                key: self.spec.key,
                min,
                max,
                value: t.to_owned(),
            });
        }
        let x = self.number(t)?;
        if x < f64::from(min) || x > f64::from(max) {
            return Err(ParamError::OutOfRange {
                key: self.spec.key,
                min,
                max,
                value: t.to_owned(),
            });
        }
        Ok(x as u32)
    }

    fn real(&self) -> Result<f64, ParamError> {
        let ParamKind::Real { above, infinite } = self.spec.kind else {
            self.wrong_kind("a real number");
        };
        let t = self.text.ok_or_else(|| self.missing())?;
        let x = self.number(t)?;
        if !(x > above && (x.is_finite() || (infinite && x == f64::INFINITY))) {
            return Err(ParamError::NotAbove {
                key: self.spec.key,
                above,
                infinite,
                value: t.to_owned(),
            });
        }
        Ok(x)
    }

    fn optional_real(&self) -> Result<Option<f64>, ParamError> {
        if self.spec.kind != ParamKind::OptionalReal {
            self.wrong_kind("an optional real number");
        }
        let Some(t) = self.text else {
            return Ok(None);
        };
        let x = self.number(t)?;
        if !x.is_finite() {
            return Err(ParamError::NotFinite {
                key: self.spec.key,
                value: t.to_owned(),
            });
        }
        Ok(Some(x))
    }
}

impl Params {
    /// Sets the parameter of `spec` from the text the user typed (`None`: a bare toggle, or an
    /// empty optional value), checking it against the spec's kind. Every parameter names its
    /// field here, and nothing else: a new parameter without its line does not compile.
    pub fn set(
        &mut self,
        spec: &ParamSpec,
        algo: &str,
        text: Option<&str>,
    ) -> Result<(), ParamError> {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        let r = Reading { spec, algo, text };
        let with = &mut self.improvements;
        match spec.param {
            Param::FailSoft => self.fail_soft = r.toggle()?,
            Param::Rightmost => self.rightmost = r.toggle()?,
            Param::Probes => self.probes = r.whole()?,
            Param::ProbeAlways => self.probe_always = r.toggle()?,
            Param::K => self.k = r.real()?,
            Param::Player => self.player = player_index(r.whole()?),
            Param::Guess => self.guess = r.optional_real()?,
            Param::Depth => with.depth = Some(r.whole()?),
            Param::Tt => with.tt = r.toggle()?,
            Param::Id => with.id = r.toggle()?,
            Param::Aspiration => with.aspiration = Some(r.real()?),
            Param::Killers => with.killers = r.toggle()?,
            Param::History => with.history = r.toggle()?,
        }
        Ok(())
    }

    /// The value of `spec`'s parameter as the user would type it (empty: off, or none).
    pub fn text(&self, spec: &ParamSpec) -> String {
        let on = |b: bool| if b { "true" } else { "" }.to_owned();
        let with = &self.improvements;
        match spec.param {
            Param::FailSoft => on(self.fail_soft),
            Param::ProbeAlways => on(self.probe_always),
            Param::Rightmost => on(self.rightmost),
            Param::Probes => self.probes.to_string(),
            Param::K => number_text(self.k),
            Param::Player => (u32::from(self.player) + 1).to_string(),
            Param::Guess => self.guess.map_or(String::new(), number_text),
            Param::Depth => with.depth.map_or(String::new(), |d| d.to_string()),
            Param::Tt => on(with.tt),
            Param::Id => on(with.id),
            Param::Aspiration => with.aspiration.map_or(String::new(), number_text),
            Param::Killers => on(with.killers),
            Param::History => on(with.history),
        }
    }

    /// The improvements in these values that an algorithm taking the parameters `takes` uses;
    /// `None` when there are none.
    pub(super) fn improvements_taken(&self, takes: &[ParamSpec]) -> Option<Improvements> {
        let has = |param: Param| takes.iter().any(|s| s.param == param);
        let p = &self.improvements;
        let with = Improvements {
            depth: p.depth.filter(|_| has(Param::Depth)),
            tt: p.tt && has(Param::Tt),
            id: p.id && has(Param::Id),
            aspiration: p.aspiration.filter(|_| has(Param::Aspiration)),
            killers: p.killers && has(Param::Killers),
            history: p.history && has(Param::History),
        };
        (with != Improvements::default()).then_some(with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole number is written in digits: `1e9` and `3.0` are numbers to f64, and were taken
    /// as depths, but no one writes a depth so; the message says what is wanted.
    #[test]
    fn whole_numbers_are_digits() {
        let set = |text: &str| Params::default().set(&DEPTH, "alphabeta", Some(text));
        for bad in ["1e9", "3.0", "+3", "-1", "0x10", "1000000001"] {
            let e = set(bad).unwrap_err().to_string();
            assert!(
                e.contains("whole number from 0 to 1000000000"),
                "{bad}: {e}"
            );
        }
        for good in ["0", "12", "1000000000"] {
            set(good).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
    }

    /// Each parameter is read by its own field as its description's kind says: set from its
    /// default (or a value of its kind), it reads back the same text, and no other parameter
    /// moves.
    #[test]
    fn every_parameter_sets_its_own_field_and_only_it() {
        let d = Params::default();
        for spec in PARAMS {
            assert_eq!(d.text(spec), spec.default, "{}'s default", spec.key);
            let typed = match spec.kind {
                ParamKind::Toggle => "true",
                ParamKind::Whole { max, .. } if max > 250 => "7",
                ParamKind::Whole { .. } => "3",
                ParamKind::Real { .. } | ParamKind::OptionalReal => "2.5",
            };
            let mut p = d.clone();
            p.set(spec, "algo", Some(typed)).unwrap();
            for other in PARAMS {
                let expected = if other.param == spec.param {
                    typed
                } else {
                    other.default
                };
                assert_eq!(
                    p.text(other),
                    expected,
                    "{} set, {} read",
                    spec.key,
                    other.key
                );
            }
        }
    }
}
