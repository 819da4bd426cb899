//! Algorithms' parameters, each described once ([`ParamSpec`]: its key, kind, default and help)
//! and checked against that description wherever a user gives one: a command-line flag, the
//! inline `algo:key=value` syntax, the explorer's run form.

use crate::text::number_text;

/// One parameter an algorithm takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Param {
    FailSoft,
    Rightmost,
    Probes,
    ProbeAlways,
    K,
    Player,
    Guess,
    Depth,
    Tt,
    Id,
    Aspiration,
    Killers,
    History,
}

/// What kind of value a parameter takes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// On or off: `--fail-soft`, `alphabeta:fail-soft`.
    Toggle,
    /// A whole number in `min..=max`.
    Whole { min: u32, max: u32 },
    /// A real number greater than `above`: finite, or also +∞ where `infinite` (the k-rule's
    /// k = ∞ is minimax, Tzeng & Purdom's (7.1) in the limit).
    Real { above: f64, infinite: bool },
    /// A finite real number, or nothing for the algorithm's own default.
    OptionalReal,
}

/// A parameter as the user meets it: on the command line (`--KEY`), inline (`algo:KEY=VALUE`)
/// and in the explorer's run form (`label`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ParamSpec {
    pub param: Param,
    /// The inline name, and the flag without its `--`.
    pub key: &'static str,
    /// The value's placeholder in help texts (`K`, `I`, `F`); empty for toggles.
    pub placeholder: &'static str,
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
    #[error("unknown algorithm `{name}`; the algorithms are {}", .algorithms.join(", "))]
    UnknownAlgorithm {
        name: String,
        algorithms: Vec<&'static str>,
    },
    #[error("unknown parameter `{key}` in `{spec}`")]
    UnknownParam { key: String, spec: String },
    #[error("{algo} has no parameter `{key}`{}", known(.takes))]
    NotOfAlgorithm {
        algo: &'static str,
        key: String,
        /// The parameters `algo` takes.
        takes: &'static [ParamSpec],
    },
    #[error("`{key}` needs a value: `{algo}:{key}={placeholder}`")]
    MissingValue {
        algo: String,
        key: &'static str,
        placeholder: &'static str,
    },
    #[error("`{key}={value}`: expected a number")]
    NotANumber { key: &'static str, value: String },
    #[error("`{key}` must be a whole number from {min} to {max}, not {value}")]
    OutOfRange {
        key: &'static str,
        min: u32,
        max: u32,
        value: String,
    },
    #[error(
        "`{key}` must be a {}number greater than {}{}, not {value}",
        if *.infinite { "" } else { "finite " },
        number_text(*.above),
        if *.infinite { " (or inf, ∞)" } else { "" }
    )]
    NotAbove {
        key: &'static str,
        above: f64,
        /// +∞ is a value (the k-rule's k: minimax).
        infinite: bool,
        value: String,
    },
    #[error("`{key}` must be a finite number, not {value}")]
    NotFinite { key: &'static str, value: String },
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
    pub fail_soft: bool,
    pub probes: u32,
    pub probe_always: bool,
    pub rightmost: bool,
    pub k: f64,
    /// The paranoid player, from 0.
    pub player: u8,
    pub guess: Option<f64>,
    /// The depth limit; `None`: to the leaves.
    pub depth: Option<u32>,
    pub tt: bool,
    pub id: bool,
    /// The aspiration window's half-width.
    pub aspiration: Option<f64>,
    pub killers: bool,
    pub history: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            fail_soft: false,
            probes: 1,
            probe_always: false,
            rightmost: false,
            k: 2.0,
            player: 0,
            guess: None,
            depth: None,
            tt: false,
            id: false,
            aspiration: None,
            killers: false,
            history: false,
        }
    }
}

impl Params {
    /// Sets the parameter of `spec` from the text the user typed (`None`: a bare toggle, or an
    /// empty optional value), checking it against the spec's kind.
    pub fn set(
        &mut self,
        spec: &ParamSpec,
        algo: &str,
        text: Option<&str>,
    ) -> Result<(), ParamError> {
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        let key = spec.key;
        let missing = || ParamError::MissingValue {
            algo: algo.to_owned(),
            key,
            placeholder: spec.placeholder,
        };
        let number = |t: &str| -> Result<f64, ParamError> {
            // Rust reads `inf` and `infinity`; `prune algos` writes the k-rule's k = ∞.
            let read = t.replace('∞', "inf");
            read.parse::<f64>().map_err(|_| ParamError::NotANumber {
                key,
                value: t.to_owned(),
            })
        };
        match spec.kind {
            ParamKind::Toggle => {
                let on = match text {
                    None | Some("true" | "on" | "yes") => true,
                    Some("false" | "off" | "no") => false,
                    Some(other) => {
                        return Err(ParamError::NotANumber {
                            key,
                            value: other.to_owned(),
                        });
                    }
                };
                match spec.param {
                    Param::FailSoft => self.fail_soft = on,
                    Param::ProbeAlways => self.probe_always = on,
                    Param::Tt => self.tt = on,
                    Param::Id => self.id = on,
                    Param::Killers => self.killers = on,
                    Param::History => self.history = on,
                    _ => self.rightmost = on,
                }
            }
            ParamKind::Whole { min, max } => {
                let t = text.ok_or_else(missing)?;
                let x = number(t)?;
                if x.fract() != 0.0 || x < f64::from(min) || x > f64::from(max) {
                    return Err(ParamError::OutOfRange {
                        key,
                        min,
                        max,
                        value: t.to_owned(),
                    });
                }
                match spec.param {
                    Param::Player => self.player = (x as u32 - 1) as u8,
                    Param::Depth => self.depth = Some(x as u32),
                    _ => self.probes = x as u32,
                }
            }
            ParamKind::Real { above, infinite } => {
                let t = text.ok_or_else(missing)?;
                let x = number(t)?;
                if !(x > above && (x.is_finite() || (infinite && x == f64::INFINITY))) {
                    return Err(ParamError::NotAbove {
                        key,
                        above,
                        infinite,
                        value: t.to_owned(),
                    });
                }
                if spec.param == Param::Aspiration {
                    self.aspiration = Some(x);
                } else {
                    self.k = x;
                }
            }
            ParamKind::OptionalReal => {
                let x = text.map(number).transpose()?;
                if let (Some(x), Some(t)) = (x, text)
                    && !x.is_finite()
                {
                    return Err(ParamError::NotFinite {
                        key,
                        value: t.to_owned(),
                    });
                }
                self.guess = x;
            }
        }
        Ok(())
    }

    /// The value of `spec`'s parameter as the user would type it (empty: off, or none).
    pub fn text(&self, spec: &ParamSpec) -> String {
        match spec.param {
            Param::FailSoft => if self.fail_soft { "true" } else { "" }.into(),
            Param::ProbeAlways => if self.probe_always { "true" } else { "" }.into(),
            Param::Rightmost => if self.rightmost { "true" } else { "" }.into(),
            Param::Probes => self.probes.to_string(),
            Param::K => number_text(self.k),
            Param::Player => (u32::from(self.player) + 1).to_string(),
            Param::Guess => self.guess.map_or(String::new(), number_text),
            Param::Depth => self.depth.map_or(String::new(), |d| d.to_string()),
            Param::Tt => if self.tt { "true" } else { "" }.into(),
            Param::Id => if self.id { "true" } else { "" }.into(),
            Param::Aspiration => self.aspiration.map_or(String::new(), number_text),
            Param::Killers => if self.killers { "true" } else { "" }.into(),
            Param::History => if self.history { "true" } else { "" }.into(),
        }
    }
}
