//! The catalogue: every algorithm with its family, what it applies to, its source and its
//! parameters ([`super::params`]) — described once, here. `prune algos`, the command-line flags,
//! the inline `algo:key=value` syntax of `compare` and the explorer's run form all read
//! [`ALGORITHMS`]; the refusals ("this algorithm cannot search this tree") are a typed
//! [`Refusal`] ([`super::refusal`]).

use std::fmt;

use super::improvements::Improvements;
use super::params::{
    ASPIRATION, DEPTH, FAIL_SOFT, GUESS, HISTORY, ID, K, KILLERS, PARAMS, PLAYER, PROBE_ALWAYS,
    PROBES, Param, ParamError, ParamKind, ParamSpec, Params, RIGHTMOST, TT,
};
use super::refusal::Refusal;
use crate::tree::{NodeId, Tree};

/// An algorithm with its parameters, each described in [`super::params`] (the field named as
/// the parameter: `probes` is the `PROBES` spec).
#[derive(Clone, Debug, PartialEq)]
pub enum Algorithm {
    /// Plain minimax, every node searched: the two-player reference.
    Minimax,
    /// Knuth & Moore 1975, procedure F2.
    AlphaBeta {
        /// Return values outside the window (Schaeffer's slides) instead of F2's fail-hard.
        fail_soft: bool,
    },
    /// Figure 2: the re-search is a self-call.
    NegaScout,
    /// NS^αβ: the re-search is a (fail-hard) alpha-beta search.
    NegaScoutAb,
    /// Stockman 1979, SSS* (beyond the papers).
    Sss,
    /// Plaat, Schaeffer, Pijls & de Bruin 1996, MTD(f): null-window searches converging on the
    /// value (beyond the papers). With the first guess +∞ it is their MT-SSS*, named `mt-sss`
    /// ([`Algorithm::MT_SSS`]).
    Mtdf {
        /// The first null window's value; `None`: the middle of the value bounds. Finite when
        /// given as a parameter; +∞ only as `mt-sss`.
        guess: Option<f64>,
    },
    /// Expectiminimax, every node searched: the reference for trees with chance nodes.
    Expectiminimax,
    /// Ballard 1982, §4 (equations 1–4), §7.3 (22) for uneven probabilities.
    Star1 {
        /// §7.2's cutoff below the root's rightmost * node.
        rightmost: bool,
    },
    /// Ballard 1982, §5 (equations 5–8): Star1 after cyclic probing of a chance node's
    /// children (§5, §6.2.1.3).
    Star2 {
        /// Rounds of probing before the regular phase; at least 1 (0 is refused: Star1 is
        /// Star2 without probing).
        probes: u32,
        /// Probe even where no probe can cut off, as Star2Min is printed.
        probe_always: bool,
        /// §7.2's cutoff below the root's rightmost * node.
        rightmost: bool,
    },
    /// Tzeng & Purdom 1982, product propagation: rules (6.3) at Min, (6.4) at Max, on
    /// probabilities of a win.
    Product,
    /// Equation (7.1); `k = ∞` is minimax.
    KRule {
        /// Greater than 0, +∞ allowed; 1 is product propagation.
        k: f64,
    },
    /// The slides' max^n (Luckhardt & Irani), ties to the leftmost child: the n-player
    /// reference.
    Maxn,
    /// The slides' Shallow(Node, Player, Bound): max^n with immediate and shallow pruning
    /// (Korf 1991).
    MaxnShallow,
    /// Sturtevant & Korf 2000: one player against a coalition of the others, searched by
    /// alpha-beta (beyond the papers).
    Paranoid {
        /// The paranoid player, from 0.
        player: u8,
    },
    /// A two-player algorithm with the improvements of Schaeffer's slides: a depth limit, a
    /// transposition table, iterative deepening, aspiration windows, killers, history
    /// ([`super::improvements`]). Never built without one of them.
    Improved {
        /// The plain two-player algorithm improved.
        base: Box<Algorithm>,
        /// The improvements, at least one of them on.
        with: Improvements,
    },
}

/// What an algorithm searches, and what its values are compared with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// Max/Min trees without chance nodes; reference: minimax.
    TwoPlayer,
    /// Max/Min trees with or without chance nodes; reference: expectiminimax.
    Chance,
    /// Max/Min trees whose leaves are probabilities of a win; the rule is its own reference.
    Probabilistic,
    /// n-player trees; reference: max^n (paranoid: its own two-player reduction).
    MultiPlayer,
}

/// One algorithm of the catalogue: a line of `prune algos`.
pub struct AlgorithmInfo {
    /// The canonical name: on the command line, inline and in [`Algorithm::name`].
    pub name: &'static str,
    /// What it searches and what its values are checked against.
    pub family: Family,
    /// The trees it accepts, in words; [`Algorithm::refusal`] is the check.
    pub applies_to: &'static str,
    /// The parameters it takes, in the order `prune algos` lists them.
    pub params: &'static [ParamSpec],
    /// The paper and section it follows, or "beyond the papers".
    pub source: &'static str,
}

impl AlgorithmInfo {
    /// `--probes K, --rightmost`: the parameters as flags; empty when there are none.
    pub fn parameters(&self) -> String {
        let flags: Vec<String> = self.params.iter().map(ParamSpec::usage).collect();
        flags.join(", ")
    }
}

/// Every algorithm, in the order `prune algos` lists them: the two-player family, then chance,
/// probabilistic and multi-player.
pub const ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "minimax",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[DEPTH],
        source: "the reference: every node searched",
    },
    AlgorithmInfo {
        name: "alphabeta",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[FAIL_SOFT, DEPTH, TT, ID, ASPIRATION, KILLERS, HISTORY],
        source: "Knuth & Moore 1975, procedure F2 (fail-hard); fail-soft as in Schaeffer's slides",
    },
    AlgorithmInfo {
        name: "negascout",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[DEPTH, TT, ID, ASPIRATION, KILLERS, HISTORY],
        source: "Reinefeld & Marsland 1987, Figure 2 (re-search by self-call)",
    },
    AlgorithmInfo {
        name: "negascout-ab",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[DEPTH],
        source: "Reinefeld & Marsland 1987, NS^αβ (re-search by alpha-beta)",
    },
    AlgorithmInfo {
        name: "sss",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[DEPTH],
        source: "Stockman 1979, SSS* (beyond the papers)",
    },
    AlgorithmInfo {
        name: "mtdf",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[GUESS, DEPTH, TT, ID],
        source: "Plaat, Schaeffer, Pijls & de Bruin 1996, MTD(f) with a node-keyed memory (beyond the papers)",
    },
    AlgorithmInfo {
        name: "mt-sss",
        family: Family::TwoPlayer,
        applies_to: "two-player trees without chance nodes",
        params: &[DEPTH, TT],
        source: "Plaat, Schaeffer, Pijls & de Bruin 1996, MT-SSS*: MTD(f) from +∞, SSS*'s leaves in SSS*'s order (beyond the papers)",
    },
    AlgorithmInfo {
        name: "expectiminimax",
        family: Family::Chance,
        applies_to: "two-player trees, chance nodes allowed",
        params: &[TT],
        source: "the reference for *-minimax trees: every node searched",
    },
    AlgorithmInfo {
        name: "star1",
        family: Family::Chance,
        applies_to: "two-player trees, chance nodes allowed; uses the bounds L..U",
        params: &[RIGHTMOST],
        source: "Ballard 1982, §4 (equations 1–4), §7.3 (22) for uneven probabilities, §7.2 with --rightmost",
    },
    AlgorithmInfo {
        name: "star2",
        family: Family::Chance,
        applies_to: "two-player trees, chance nodes allowed (Star1 where a chance node's children are not all + or all −)",
        params: &[PROBES, PROBE_ALWAYS, RIGHTMOST],
        source: "Ballard 1982, §5 (equations 5–8), cyclic probing (§5, §6.2.1.3)",
    },
    AlgorithmInfo {
        name: "product",
        family: Family::Probabilistic,
        applies_to: "two-player trees without chance nodes, leaves in [0, 1]",
        params: &[],
        source: "Tzeng & Purdom 1982, rules (6.3) MIN: Π p, (6.4) MAX: 1 − Π(1 − p)",
    },
    AlgorithmInfo {
        name: "krule",
        family: Family::Probabilistic,
        applies_to: "two-player trees without chance nodes, leaves in [0, 1]",
        params: &[K],
        source: "Tzeng & Purdom 1982, equation (7.1): k = 1 product propagation, k = ∞ minimax",
    },
    AlgorithmInfo {
        name: "maxn",
        family: Family::MultiPlayer,
        applies_to: "n-player trees (a two-player tree as its two-player case), chance nodes allowed",
        params: &[],
        source: "the slides' max^n (Luckhardt & Irani), ties to the leftmost child",
    },
    AlgorithmInfo {
        name: "maxn-shallow",
        family: Family::MultiPlayer,
        applies_to: "n-player trees (a two-player tree as its two-player case), chance nodes allowed (no shallow bound below them); uses the payoff floor and sum",
        params: &[],
        source: "the slides' Shallow(Node, Player, Bound): immediate and shallow pruning (Korf 1991)",
    },
    AlgorithmInfo {
        name: "paranoid",
        family: Family::MultiPlayer,
        applies_to: "n-player trees (a two-player tree as its two-player case), chance nodes allowed (expected values of the reduction)",
        params: &[PLAYER],
        source: "Sturtevant & Korf 2000: player I against a coalition of the others, by alpha-beta (beyond the papers)",
    },
];

/// The catalogue entry named `name` (aliases included), if any.
pub fn find(name: &str) -> Option<&'static AlgorithmInfo> {
    let canonical = match name {
        "alpha-beta" => "alphabeta",
        "pvs" => "negascout",
        "sss*" => "sss",
        "mtd(f)" => "mtdf",
        "mt-sss*" | "mtsss" => "mt-sss",
        "k-rule" => "krule",
        other => other,
    };
    ALGORITHMS.iter().find(|i| i.name == canonical)
}

/// The refusal of an algorithm name not in the catalogue, which it lists after the name the
/// user most likely meant.
fn unknown(name: &str) -> ParamError {
    let algorithms: Vec<&'static str> = ALGORITHMS.iter().map(|i| i.name).collect();
    ParamError::UnknownAlgorithm {
        name: name.to_owned(),
        suggestion: crate::text::closest_name(name, algorithms.iter().copied()),
        algorithms,
    }
}

/// The algorithms that take `param`, in catalogue order: a flag's help lists them.
pub fn taking(param: Param) -> Vec<&'static str> {
    ALGORITHMS
        .iter()
        .filter(|a| a.params.iter().any(|s| s.param == param))
        .map(|a| a.name)
        .collect()
}

impl Algorithm {
    /// Plaat et al.'s MT-SSS*: MTD(f) whose first null window is at +∞, so that every pass fails
    /// low and lowers the upper bound, as SSS* lowers its merits: their reformulation of SSS* as
    /// a sequence of memory-enhanced null-window calls, which evaluates SSS*'s leaves in SSS*'s
    /// order. MTD(f)'s search with one more name, catalogue entry and trace heading.
    pub const MT_SSS: Algorithm = Algorithm::Mtdf {
        guess: Some(f64::INFINITY),
    };

    /// The CLI name.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta { .. } => "alphabeta",
            Algorithm::NegaScout => "negascout",
            Algorithm::NegaScoutAb => "negascout-ab",
            Algorithm::Sss => "sss",
            Algorithm::Mtdf { guess } if *guess == Some(f64::INFINITY) => "mt-sss",
            Algorithm::Mtdf { .. } => "mtdf",
            Algorithm::Expectiminimax => "expectiminimax",
            Algorithm::Star1 { .. } => "star1",
            Algorithm::Star2 { .. } => "star2",
            Algorithm::Product => "product",
            Algorithm::KRule { .. } => "krule",
            Algorithm::Maxn => "maxn",
            Algorithm::MaxnShallow => "maxn-shallow",
            Algorithm::Paranoid { .. } => "paranoid",
            Algorithm::Improved { base, .. } => base.name(),
        }
    }

    /// The algorithm's catalogue entry.
    pub fn info(&self) -> &'static AlgorithmInfo {
        find(self.name()).expect("every algorithm is in the catalogue")
    }

    /// The algorithm's family (an improved algorithm's is its base's): which trees it takes and
    /// which reference checks it.
    pub fn family(&self) -> Family {
        self.info().family
    }

    /// Why the algorithm cannot search `tree`, if it cannot.
    pub fn refusal(&self, tree: &Tree) -> Option<Refusal> {
        if let Algorithm::Improved { base, with } = self {
            let two = tree.two_player_view().unwrap_or(tree);
            return base
                .refusal(tree)
                .or_else(|| with.refusal(two, base.name()));
        }
        let multi = tree.is_multiplayer();
        let chance = tree.has_chance();
        let algo = self.name();
        match self.family() {
            Family::TwoPlayer | Family::Probabilistic | Family::Chance if multi => {
                // A constant-sum two-player tree is searched as Max against Min.
                if let Some(view) = tree.two_player_view() {
                    return self.refusal(view);
                }
                Some(match tree.players() {
                    2 => {
                        let (a, b) = tree.constant_sum().expect_err("no view: not constant-sum");
                        let sum = |i: NodeId| tree.payoff(i).iter().sum::<f64>();
                        Refusal::NotConstantSum {
                            algo,
                            a: crate::tree::names::node_at(tree, a),
                            sum_a: sum(a),
                            b: crate::tree::names::node_at(tree, b),
                            sum_b: sum(b),
                        }
                    }
                    players => Refusal::MultiPlayerTree { algo, players },
                })
            }
            Family::TwoPlayer if chance => Some(Refusal::ChanceNodes {
                algo,
                hint: Some("try expectiminimax, star1 or star2"),
            }),
            // Tzeng & Purdom define product propagation and the k-rule at Max and Min nodes
            // only; a mean of win probabilities at a chance node would be a rule of our own.
            Family::Probabilistic if chance => Some(Refusal::ChanceNodes {
                algo,
                hint: Some(
                    "Tzeng & Purdom's rules combine win probabilities at Max and Min nodes only; try expectiminimax",
                ),
            }),
            Family::Probabilistic => tree
                .ids()
                .find(|&i| tree.is_leaf(i) && !(0.0..=1.0).contains(&tree.value(i)))
                .map(|leaf| Refusal::NotAProbability {
                    algo,
                    leaf: crate::tree::names::node_at(tree, leaf),
                    value: tree.value(leaf),
                }),
            _ => match self {
                Algorithm::Paranoid { player } if usize::from(*player) >= tree.players() => {
                    Some(Refusal::NoSuchPlayer {
                        player: u32::from(*player) + 1,
                        players: tree.players(),
                    })
                }
                Algorithm::KRule { k } if k.is_nan() || *k <= 0.0 => Some(Refusal::BadK(*k)),
                Algorithm::Star2 { probes: 0, .. } => Some(Refusal::NoProbes),
                _ => None,
            },
        }
    }

    /// The parameters this algorithm carries, as values.
    pub fn params(&self) -> Params {
        let mut p = Params::default();
        match *self {
            Algorithm::AlphaBeta { fail_soft } => p.fail_soft = fail_soft,
            // MT-SSS*'s +∞ is its name, not a parameter.
            Algorithm::Mtdf { guess } if guess.is_none_or(f64::is_finite) => p.guess = guess,
            Algorithm::Star1 { rightmost } => p.rightmost = rightmost,
            Algorithm::Star2 {
                probes,
                probe_always,
                rightmost,
            } => {
                p.probes = probes;
                p.probe_always = probe_always;
                p.rightmost = rightmost;
            }
            Algorithm::KRule { k } => p.k = k,
            Algorithm::Paranoid { player } => p.player = player,
            Algorithm::Improved { ref base, ref with } => {
                p = base.params();
                p.improvements = with.clone();
            }
            _ => {}
        }
        p
    }

    /// The name with its non-default parameters, as a table heading:
    /// `star2 --probes 2 --rightmost`.
    pub fn label(&self) -> String {
        let mine = self.params();
        let defaults = Params::default();
        let mut s = self.name().to_owned();
        for spec in self.info().params {
            let (v, d) = (mine.text(spec), defaults.text(spec));
            // k and the player are always shown: they name the rule and the side searched.
            if v == d && !matches!(spec.param, Param::K | Param::Player) {
                continue;
            }
            s.push_str(" --");
            s.push_str(spec.key);
            if spec.kind != ParamKind::Toggle {
                s.push(' ');
                s.push_str(&v);
            }
        }
        s
    }

    /// The algorithm named `name` (or one of its aliases) with the parameters `p`.
    pub fn with_params(name: &str, p: &Params) -> Result<Algorithm, ParamError> {
        let info = find(name).ok_or_else(|| unknown(name))?;
        let with = p.improvements_taken(info.params);
        let base = Algorithm::plain(info, p);
        Ok(match with {
            Some(with) => Algorithm::Improved {
                base: Box::new(base),
                with,
            },
            None => base,
        })
    }

    /// The algorithm of `info` with the parameters `p`, without improvements.
    fn plain(info: &AlgorithmInfo, p: &Params) -> Algorithm {
        match info.name {
            "minimax" => Algorithm::Minimax,
            "alphabeta" => Algorithm::AlphaBeta {
                fail_soft: p.fail_soft,
            },
            "negascout" => Algorithm::NegaScout,
            "negascout-ab" => Algorithm::NegaScoutAb,
            "sss" => Algorithm::Sss,
            "mtdf" => Algorithm::Mtdf { guess: p.guess },
            "mt-sss" => Algorithm::MT_SSS,
            "expectiminimax" => Algorithm::Expectiminimax,
            "star1" => Algorithm::Star1 {
                rightmost: p.rightmost,
            },
            "star2" => Algorithm::Star2 {
                probes: p.probes,
                probe_always: p.probe_always,
                rightmost: p.rightmost,
            },
            "product" => Algorithm::Product,
            "krule" => Algorithm::KRule { k: p.k },
            "maxn" => Algorithm::Maxn,
            "maxn-shallow" => Algorithm::MaxnShallow,
            "paranoid" => Algorithm::Paranoid { player: p.player },
            other => unreachable!("`{other}` is in the catalogue but not built here"),
        }
    }

    /// The improvements this algorithm searches with, if any.
    pub fn improvements(&self) -> Option<&Improvements> {
        match self {
            Algorithm::Improved { with, .. } => Some(with),
            _ => None,
        }
    }

    /// The algorithm without its improvements.
    pub fn base(&self) -> &Algorithm {
        match self {
            Algorithm::Improved { base, .. } => base,
            other => other,
        }
    }

    /// Parses `NAME` or `NAME:PARAM[=VALUE][:…]`, e.g. `star2:probes=2`, `alphabeta:fail-soft`,
    /// `krule:k=4`, `paranoid:player=2` (players from 1), `mtdf:guess=5`, `star1:rightmost`;
    /// parameters not given come from `defaults`.
    pub fn parse(spec: &str, defaults: &Params) -> Result<Algorithm, ParamError> {
        // Only ASCII blanks are trimmed: a U+2029 typed at the end is part of what is echoed.
        let mut parts = spec.trim_ascii().split(':');
        let typed = parts.next().unwrap_or_default().trim_ascii();
        let name = typed.to_ascii_lowercase();
        // The name as typed, not lowercased: the message quotes the user.
        let info = find(&name).ok_or_else(|| unknown(typed))?;
        let mut p = defaults.clone();
        for param in parts {
            let (key, value) = match param.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (param.trim(), None),
            };
            let key = if key == "failsoft" { "fail-soft" } else { key };
            let Some(ps) = PARAMS.iter().find(|s| s.key == key) else {
                return Err(ParamError::UnknownParam {
                    key: key.to_owned(),
                    spec: spec.to_owned(),
                });
            };
            if !info.params.iter().any(|s| s.param == ps.param) {
                return Err(ParamError::NotOfAlgorithm {
                    algo: info.name,
                    key: key.to_owned(),
                    takes: info.params,
                });
            }
            p.set(ps, &name, value)?;
        }
        Algorithm::with_params(&name, &p)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_is_built_from_its_name() {
        for info in ALGORITHMS {
            let a = Algorithm::with_params(info.name, &Params::default()).unwrap();
            assert_eq!(a.name(), info.name);
            assert_eq!(a.info().name, info.name);
        }
    }

    #[test]
    fn labels_name_the_parameters_that_differ() {
        let p = |s: &str| Algorithm::parse(s, &Params::default()).unwrap().label();
        assert_eq!(p("star2"), "star2");
        assert_eq!(
            p("star2:probes=2:rightmost"),
            "star2 --probes 2 --rightmost"
        );
        assert_eq!(p("alphabeta:fail-soft"), "alphabeta --fail-soft");
        assert_eq!(p("krule"), "krule --k 2");
        assert_eq!(p("paranoid:player=2"), "paranoid --player 2");
        assert_eq!(p("paranoid"), "paranoid --player 1");
        assert_eq!(p("mtdf:guess=-3.5"), "mtdf --guess -3.5");
        assert_eq!(
            p("alphabeta:history:tt:depth=4:id:aspiration=0.5"),
            "alphabeta --depth 4 --tt --id --aspiration 0.5 --history"
        );
        assert_eq!(p("mtdf:tt"), "mtdf --tt");
        assert_eq!(p("mt-sss"), "mt-sss");
        assert_eq!(p("MT-SSS*:tt"), "mt-sss --tt");
        assert_eq!(
            Algorithm::parse("mt-sss", &Params::default()).unwrap(),
            Algorithm::MT_SSS
        );
        assert!(matches!(
            Algorithm::parse("mt-sss:guess=3", &Params::default()),
            Err(ParamError::NotOfAlgorithm { .. })
        ));
    }

    #[test]
    fn improvements_wrap_the_plain_algorithm_and_are_refused_with_reasons() {
        let d = Params::default();
        assert_eq!(
            Algorithm::parse("alphabeta", &d).unwrap().improvements(),
            None
        );
        let a = Algorithm::parse("negascout:tt:killers", &d).unwrap();
        assert_eq!(a.name(), "negascout");
        assert_eq!(a.base(), &Algorithm::NegaScout);
        assert!(a.improvements().unwrap().reorders());
        // A flag an algorithm does not take leaves it plain.
        let flags = Params {
            improvements: Improvements {
                tt: true,
                ..Improvements::default()
            },
            ..Params::default()
        };
        assert_eq!(Algorithm::parse("sss", &flags).unwrap(), Algorithm::Sss);
        let classic = crate::tree::samples::classic();
        assert_eq!(a.refusal(&classic), Some(Refusal::NoKeys));
        let deep = Algorithm::parse("minimax:depth=1", &d).unwrap();
        assert_eq!(
            deep.refusal(&classic),
            Some(Refusal::NoHeuristic {
                algo: "minimax",
                depth: 1,
                node: "#1".into()
            })
        );
        let asp = Algorithm::parse("alphabeta:aspiration=1", &d).unwrap();
        assert_eq!(
            asp.refusal(&classic),
            Some(Refusal::AspirationWithoutId { algo: "alphabeta" })
        );
        let id = Algorithm::parse("alphabeta:id", &d).unwrap();
        assert!(matches!(
            id.refusal(&classic),
            Some(Refusal::NoHeuristicForIteration { .. })
        ));
    }

    #[test]
    fn parameters_are_checked_against_their_spec() {
        let e = |s: &str| Algorithm::parse(s, &Params::default()).unwrap_err();
        let p = |s: &str| Algorithm::parse(s, &Params::default()).unwrap().label();
        assert!(matches!(e("mtdf:guess=inf"), ParamError::NotFinite { .. }));
        assert!(matches!(e("mtdf:guess=-inf"), ParamError::NotFinite { .. }));
        assert!(matches!(e("krule:k=0"), ParamError::NotAbove { .. }));
        // k = ∞ is minimax, as `prune algos` says; −∞ is no k.
        for inf in ["inf", "∞", "infinity", "+∞"] {
            assert_eq!(p(&format!("krule:k={inf}")), "krule --k inf");
        }
        assert!(matches!(e("krule:k=-inf"), ParamError::NotAbove { .. }));
        assert!(matches!(
            e("alphabeta:id:aspiration=inf"),
            ParamError::NotAbove { .. }
        ));
        assert!(matches!(e("krule:k=nan"), ParamError::NotAbove { .. }));
        assert!(matches!(e("krule:k=-1"), ParamError::NotAbove { .. }));
        assert!(matches!(
            e("paranoid:player=0"),
            ParamError::OutOfRange { .. }
        ));
        assert!(matches!(
            e("star2:probes=1.5"),
            ParamError::OutOfRange { .. }
        ));
        assert!(matches!(e("star2:probes"), ParamError::MissingValue { .. }));
        assert!(matches!(
            e("star2:depth=3"),
            ParamError::NotOfAlgorithm { .. }
        ));
        assert!(matches!(
            e("alphabeta:ttt"),
            ParamError::UnknownParam { .. }
        ));
        assert!(matches!(
            e("bogus"),
            ParamError::UnknownAlgorithm {
                suggestion: None,
                ..
            }
        ));
        assert_eq!(
            e("alphabta:depth=2").to_string(),
            "unknown algorithm `alphabta`; did you mean `alphabeta`? The algorithms are minimax, alphabeta, negascout, negascout-ab, sss, mtdf, mt-sss, expectiminimax, star1, star2, product, krule, maxn, maxn-shallow, paranoid"
        );
        assert_eq!(
            e("alphabeta:probes=2").to_string(),
            "alphabeta has no parameter `probes` (it has fail-soft, depth, tt, id, aspiration, killers, history)"
        );
        assert_eq!(
            e("krule:k=0").to_string(),
            "`k` must be a number greater than 0 (or inf, ∞), not 0"
        );
        assert_eq!(
            e("alphabeta:id:aspiration=inf").to_string(),
            "`aspiration` must be a finite number greater than 0, not inf"
        );
    }

    #[test]
    fn the_flags_of_prune_algos_come_from_the_specs() {
        assert_eq!(
            find("star2").unwrap().parameters(),
            "--probes K, --probe-always, --rightmost"
        );
        let p = Params::default();
        let a = Algorithm::parse("star2:probe-always", &p).unwrap();
        assert_eq!(
            a,
            Algorithm::Star2 {
                probes: 1,
                probe_always: true,
                rightmost: false
            }
        );
        assert_eq!(a.label(), "star2 --probe-always");
        assert!(!Algorithm::parse("star2", &p).unwrap().params().probe_always);
        assert_eq!(find("minimax").unwrap().parameters(), "--depth D");
        assert_eq!(find("expectiminimax").unwrap().parameters(), "--tt");
        assert_eq!(find("pvs").unwrap().name, "negascout");
    }
}
