//! The search algorithms of the papers, one file each, and what a run produces.
//!
//! | CLI name | file | source |
//! |---|---|---|
//! | `minimax` | [`minimax`] | the reference for two-player trees |
//! | `alphabeta` | [`alphabeta`] | Knuth & Moore's F2 (fail-hard); `--fail-soft`: Schaeffer's slides |
//! | `negascout`, `negascout-ab` | [`negascout`] | Reinefeld & Marsland 1987, Figure 2 and NS^αβ |
//! | `sss` | [`sss`] | Stockman's SSS* (beyond the papers) |
//! | `mtdf`, `mt-sss` | [`mtdf`] | Plaat et al.'s MTD(f) with a node-keyed memory, and from +∞ their MT-SSS* (beyond the papers) |
//! | `expectiminimax` | [`expectiminimax`] | the reference for trees with chance nodes |
//! | `star1` | [`star1`] | Ballard 1982, §4 (equations 1–4), §7.2, §7.3 (22) |
//! | `star2` | [`star2`] | Ballard 1982, §5 (equations 5–8), cyclic probing |
//! | `product`, `krule` | [`product`] | Tzeng & Purdom 1982, rules (6.3)/(6.4) and (7.1) |
//! | `maxn` | [`maxn`] | the slides' max^n, the reference for n-player trees |
//! | `maxn-shallow` | [`shallow`] | the slides' `Shallow(Node, Player, Bound)` |
//! | `paranoid` | [`paranoid`] | Sturtevant & Korf's paranoid reduction (beyond the papers) |
//!
//! The improvements of Schaeffer's slides, options of the two-player algorithms
//! ([`improvements`]): a depth limit ([`crate::tree::Tree::to_depth`]), a transposition table
//! ([`tt`]), iterative deepening (`iterative`), aspiration windows (`aspiration`), killer
//! moves ([`killers`]) and the history heuristic ([`history`]), searched by `improved`.
//!
//! Every algorithm is a function generic over an [`Observer`], with one public entry point,
//! `search`. Around them:
//!
//! - [`catalogue`] — the [`Algorithm`] enum, the catalogue [`ALGORITHMS`] and the typed
//!   [`Refusal`]s ([`refusal`]); [`params`] — every parameter described once ([`ParamSpec`]) and checked;
//! - [`run`](mod@run) — a [`Run`]: statistics, the search's time, best moves and principal
//!   variation, on a thread with a big enough stack;
//! - [`reference`](mod@reference) — every node's exact value by the family's naive rule;
//! - [`value`] — [`Value`] and [`Found`];
//! - [`negamax`] and [`chance`] — the plumbing several algorithms share; `star.rs` —
//!   the ground of Star1 and Star2 (the Max/Min layer, §4's procedure, §7.2);
//! - [`observer`] — what a search reports to, from nothing to a full trace.
//!
//! An algorithm is named as on the command line, its parameters inline or from [`Params`]:
//!
//! ```
//! use prune::search::{self, Algorithm, Params};
//!
//! let tree = prune::format::parse_expr("(*(1,5),*(2,4),*(0,9))", false)?;
//! let star2 = Algorithm::parse("star2:probes=2", &Params::default())?;
//! assert!(matches!(star2, Algorithm::Star2 { probes: 2, .. }));
//! let defaults = Params { probes: 3, ..Params::default() };
//! assert!(matches!(Algorithm::parse("star2", &defaults)?, Algorithm::Star2 { probes: 3, .. }));
//! // Star2 finds expectiminimax's value, 4.5.
//! let full = search::run(&tree, &Algorithm::Expectiminimax)?;
//! let pruned = search::run(&tree, &star2)?;
//! assert_eq!((full.value.scalar(), pruned.value.scalar()), (Some(4.5), Some(4.5)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod alphabeta;
pub(crate) mod aspiration;
pub mod catalogue;
pub mod chance;
pub mod expectiminimax;
pub mod history;
pub(crate) mod improved;
pub mod improvements;
pub(crate) mod iterative;
pub mod killers;
pub mod maxn;
pub mod minimax;
pub mod mtdf;
pub mod negamax;
pub mod negascout;
pub mod observer;
pub mod params;
pub mod paranoid;
pub mod players;
pub mod product;
pub mod reference;
pub mod refusal;
pub mod run;
pub mod shallow;
pub mod sss;
pub(crate) mod star;
pub mod star1;
pub mod star2;
pub mod tt;
pub mod value;

pub use catalogue::{ALGORITHMS, Algorithm, AlgorithmInfo, Family};
pub use improvements::Improvements;
pub use observer::{
    Bound, Cancelled, Control, Counter, Cutoff, Observer, Progress, Publish, Quiet, Stats, ToThread,
};
pub use params::{PARAMS, Param, ParamError, ParamKind, ParamSpec, Params, find_param};
pub use reference::{Reference, References};
pub use refusal::Refusal;
pub use run::{Ratios, Run, finish, finish_with, run, run_with, search, with_stack};
pub use value::{Found, Value};
