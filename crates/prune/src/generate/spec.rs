//! A typed specification of a generated tree: the family and its parameters, without the seed.
//!
//! [`Spec`] is what `prune gen FAMILY …` describes, independent of clap: the command line parses
//! into one (the application's `Family::spec`), anything else (the explorer's form, a test)
//! can build one directly, and [`Spec::command`] prints the `prune gen` command line that rebuilds
//! the same tree. [`Spec::build`] is the one place that turns a specification and a seed into a
//! [`Tree`].

use super::chance::{self, ChanceTree};
use super::game::{self, GameSpec};
use super::multiplayer::{self, Multiplayer};
use super::ordered::{self, Ordered};
use super::random::{self, RandomShape};
use super::star::{self, StarComplete, StarOrder};
use super::uniform::{self, Order, Uniform};
use super::winloss::{self, WinLoss};
use super::{GenError, Values};
use crate::tree::Tree;

/// The parameters of `prune gen chance`, as the command line takes them: the chance branching
/// defaults to the decision branching when absent.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChanceSpec {
    /// Children of a decision node (`-b`).
    pub branching: u32,
    /// Children of a chance node (`-c`); `None` means the same as `branching`.
    pub chance_branching: Option<u32>,
    /// Decision levels (regular) or the depth limit (irregular) (`-d`).
    pub depth: u32,
    /// Leaf values (`--lo`, `--hi`, `--real`).
    pub values: Values,
    /// Draw each chance node's probabilities (`--uneven`).
    pub uneven: bool,
    /// Random kinds, branching and leaf depths (`--irregular`).
    pub irregular: bool,
}

impl ChanceSpec {
    /// The generator's parameters, the chance branching resolved.
    pub fn params(&self) -> ChanceTree {
        ChanceTree {
            branching: self.branching,
            chance_branching: self.chance_branching.unwrap_or(self.branching),
            depth: self.depth,
            values: self.values,
            uneven: self.uneven,
            irregular: self.irregular,
        }
    }
}

/// One generated family and its parameters: everything `prune gen` needs but the seed.
///
/// `Ordered::width` is the command line's `-b`, `RandomShape::max_branching` its `-b`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Spec {
    /// `prune gen uniform`: a uniform b-ary tree of depth d, Max at the root.
    Uniform(Uniform),
    /// `prune gen star-complete`: Ballard's *-complete tree.
    StarComplete(StarComplete),
    /// `prune gen win-loss`: Pearl's WIN-LOSS tree.
    WinLoss(WinLoss),
    /// `prune gen chance`: a random expectiminimax tree.
    Chance(ChanceSpec),
    /// `prune gen multiplayer`: n players in turn, constant-sum payoff vectors.
    Multiplayer(Multiplayer),
    /// `prune gen ordered`: Reinefeld & Marsland's averagely ordered tree.
    Ordered(Ordered),
    /// `prune gen random`: a two-player tree of random shape.
    Random(RandomShape),
    /// `prune gen game NAME`: the full game tree of a real game (no randomness: the seed is
    /// ignored).
    Game(GameSpec),
}

/// The default leaf values of the command line: integers in `0..=99`.
const DEFAULT_VALUES: Values = Values {
    lo: 0.0,
    hi: 99.0,
    real: false,
};

impl Spec {
    /// The subcommand names of the families, in the order of `prune gen --help`.
    /// The games are `game NAME` (`prune gen game nim`), from [`game::GAMES`].
    pub const FAMILIES: [&'static str; 7 + game::GAMES.len()] = {
        let trees = [
            "uniform",
            "star-complete",
            "win-loss",
            "chance",
            "multiplayer",
            "ordered",
            "random",
        ];
        let mut all = [""; 7 + game::GAMES.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = if i < trees.len() {
                trees[i]
            } else {
                game::GAMES[i - trees.len()].family
            };
            i += 1;
        }
        all
    };

    /// The family's subcommand name (`uniform`, `star-complete`, …).
    pub fn family_name(&self) -> &'static str {
        match self {
            Spec::Uniform(_) => "uniform",
            Spec::StarComplete(_) => "star-complete",
            Spec::WinLoss(_) => "win-loss",
            Spec::Chance(_) => "chance",
            Spec::Multiplayer(_) => "multiplayer",
            Spec::Ordered(_) => "ordered",
            Spec::Random(_) => "random",
            Spec::Game(g) => g.built_in().family,
        }
    }

    /// Whether the tree depends on the seed (the games do not).
    pub fn seeded(&self) -> bool {
        !matches!(self, Spec::Game(_))
    }

    /// The family `name` (a subcommand name) with the command line's defaults, or `None` for an
    /// unknown name.
    pub fn default_for(name: &str) -> Option<Spec> {
        Some(match name {
            "uniform" => Spec::Uniform(Uniform {
                branching: 3,
                depth: 4,
                values: DEFAULT_VALUES,
                order: Order::Random,
            }),
            "star-complete" => Spec::StarComplete(StarComplete {
                branching: 4,
                depth: 2,
                order: StarOrder::Best,
                critical: false,
                labels: false,
            }),
            "win-loss" => Spec::WinLoss(WinLoss {
                branching: 2,
                depth: 6,
                p0: 0.5,
                board: false,
            }),
            "chance" => Spec::Chance(ChanceSpec {
                branching: 3,
                chance_branching: None,
                depth: 3,
                values: DEFAULT_VALUES,
                uneven: false,
                irregular: false,
            }),
            "multiplayer" => Spec::Multiplayer(Multiplayer {
                players: 3,
                branching: 3,
                depth: 3,
                sum: 10,
            }),
            "ordered" => Spec::Ordered(Ordered {
                width: 5,
                depth: 5,
                g: 1,
                r: 1,
            }),
            "random" => Spec::Random(RandomShape {
                min_branching: 1,
                max_branching: 3,
                depth: 5,
                leaf_probability: 0.2,
                values: DEFAULT_VALUES,
                mixed: false,
            }),
            _ => Spec::Game(GameSpec::default_for(name.strip_prefix("game ")?)?),
        })
    }

    /// The tree this specification describes, drawn with `seed`.
    pub fn build(&self, seed: u64) -> Result<Tree, GenError> {
        match self {
            Spec::Uniform(p) => uniform::generate(p, seed),
            Spec::StarComplete(p) => star::generate(p, seed),
            Spec::WinLoss(p) => winloss::generate(p, seed),
            Spec::Chance(p) => chance::generate(&p.params(), seed),
            Spec::Multiplayer(p) => multiplayer::generate(p, seed),
            Spec::Ordered(p) => ordered::generate(p, seed),
            Spec::Random(p) => random::generate(p, seed),
            Spec::Game(g) => game::generate(g),
        }
    }

    /// The `prune gen FAMILY …` command line that rebuilds [`Spec::build`]'s tree for `seed`:
    /// every parameter that differs from the command line's default, then `--seed`. Floats are
    /// printed so that they parse back to the same value.
    pub fn command(&self, seed: u64) -> String {
        let mut c = Line(format!("prune gen {}", self.family_name()));
        let default = Spec::default_for(self.family_name()).expect("every family has defaults");
        match (self, default) {
            (Spec::Uniform(p), Spec::Uniform(d)) => {
                c.num("-b", p.branching, d.branching);
                c.num("-d", p.depth, d.depth);
                if p.order != d.order {
                    c.arg("--order", order_name(p.order));
                }
                c.values(&p.values);
            }
            (Spec::StarComplete(p), Spec::StarComplete(d)) => {
                c.num("-b", p.branching, d.branching);
                c.num("-d", p.depth, d.depth);
                if p.order != d.order {
                    let name = match p.order {
                        StarOrder::Best => "best",
                        StarOrder::Random => "random",
                    };
                    c.arg("--order", name);
                }
                c.flag("--critical", p.critical);
                c.flag("--labels", p.labels);
            }
            (Spec::WinLoss(p), Spec::WinLoss(d)) => {
                c.num("-b", p.branching, d.branching);
                c.num("-d", p.depth, d.depth);
                c.real("--p0", p.p0, d.p0);
                c.flag("--board", p.board);
            }
            (Spec::Chance(p), Spec::Chance(d)) => {
                c.num("-b", p.branching, d.branching);
                if let Some(cb) = p.chance_branching {
                    c.arg("-c", cb);
                }
                c.num("-d", p.depth, d.depth);
                c.flag("--uneven", p.uneven);
                c.flag("--irregular", p.irregular);
                c.values(&p.values);
            }
            (Spec::Multiplayer(p), Spec::Multiplayer(d)) => {
                c.num("--players", p.players, d.players);
                c.num("-b", p.branching, d.branching);
                c.num("-d", p.depth, d.depth);
                c.num("--sum", p.sum, d.sum);
            }
            (Spec::Ordered(p), Spec::Ordered(d)) => {
                c.num("-b", p.width, d.width);
                c.num("-d", p.depth, d.depth);
                c.num("-g", p.g, d.g);
                c.num("-r", p.r, d.r);
            }
            (Spec::Random(p), Spec::Random(d)) => {
                c.num("--min-branching", p.min_branching, d.min_branching);
                c.num("-b", p.max_branching, d.max_branching);
                c.num("-d", p.depth, d.depth);
                c.real("--leaf-probability", p.leaf_probability, d.leaf_probability);
                c.flag("--mixed", p.mixed);
                c.values(&p.values);
            }
            (Spec::Game(g), Spec::Game(d)) => {
                if let Some(depth) = g.depth().filter(|&depth| Some(depth) != d.depth()) {
                    c.arg("--depth", depth);
                }
                for param in g.built_in().params {
                    let value = g.value(param.name).expect("the game's own parameter");
                    if Some(&value) != d.value(param.name).as_ref() {
                        c.arg(&format!("--{}", param.name), shell_word(&value));
                    }
                }
            }
            _ => unreachable!("the defaults are of the same family"),
        }
        if self.seeded() {
            c.arg("--seed", seed);
        }
        c.0
    }
}

fn order_name(order: Order) -> &'static str {
    match order {
        Order::Random => "random",
        Order::Best => "best",
        Order::Worst => "worst",
    }
}

/// `value` as one word of a shell command: as it is when it holds nothing a shell reads
/// specially, else in single quotes (a FEN's spaces).
fn shell_word(value: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || ",._/+-:=".contains(c);
    if !value.is_empty() && value.chars().all(plain) {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

/// A command line under construction.
struct Line(String);

impl Line {
    fn arg(&mut self, name: &str, value: impl std::fmt::Display) {
        self.0.push_str(&format!(" {name} {value}"));
    }

    fn num(&mut self, name: &str, value: u32, default: u32) {
        if value != default {
            self.arg(name, value);
        }
    }

    fn flag(&mut self, name: &str, on: bool) {
        if on {
            self.0.push(' ');
            self.0.push_str(name);
        }
    }

    /// A float flag; `{}` prints the shortest text that parses back to the same `f64`. A
    /// negative value is attached with `=` so that clap does not take it for a flag (`--lo` and
    /// `--hi` accept `--lo -5` too, but `=` is safe everywhere).
    fn real(&mut self, name: &str, value: f64, default: f64) {
        if value.to_bits() != default.to_bits() {
            if value.is_sign_negative() {
                self.0.push_str(&format!(" {name}={value}"));
            } else {
                self.arg(name, value);
            }
        }
    }

    fn values(&mut self, v: &Values) {
        self.real("--lo", v.lo, DEFAULT_VALUES.lo);
        self.real("--hi", v.hi, DEFAULT_VALUES.hi);
        self.flag("--real", v.real);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_defaults_under_its_own_name() {
        for name in Spec::FAMILIES {
            let spec = Spec::default_for(name).unwrap();
            assert_eq!(spec.family_name(), name);
            let seed = if spec.seeded() { " --seed 1" } else { "" };
            assert_eq!(spec.command(1), format!("prune gen {name}{seed}"));
            spec.build(1).unwrap();
        }
        assert_eq!(Spec::default_for("nonsense"), None);
    }

    #[test]
    fn command_lists_what_differs_from_the_defaults() {
        let spec = Spec::Uniform(Uniform {
            branching: 2,
            depth: 4,
            values: Values {
                lo: -5.5,
                hi: 0.1,
                real: true,
            },
            order: Order::Worst,
        });
        assert_eq!(
            spec.command(7),
            "prune gen uniform -b 2 --order worst --lo=-5.5 --hi 0.1 --real --seed 7"
        );
        let spec = Spec::Chance(ChanceSpec {
            chance_branching: Some(2),
            uneven: true,
            ..match Spec::default_for("chance") {
                Some(Spec::Chance(c)) => c,
                _ => unreachable!(),
            }
        });
        assert_eq!(spec.command(3), "prune gen chance -c 2 --uneven --seed 3");
    }

    #[test]
    fn floats_round_trip() {
        for x in [
            0.1,
            1.0 / 3.0,
            -1e-300,
            123456789.12345679 / 7.0,
            -0.0,
            1e15,
        ] {
            let spec = Spec::WinLoss(WinLoss {
                branching: 2,
                depth: 2,
                p0: x,
                board: false,
            });
            let cmd = spec.command(1);
            let rest = cmd.split("--p0").nth(1).expect(&cmd);
            let text = rest
                .trim_start_matches(['=', ' '])
                .split(' ')
                .next()
                .unwrap();
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{cmd}");
        }
    }

    #[test]
    fn build_resolves_the_chance_branching() {
        let mut c = match Spec::default_for("chance") {
            Some(Spec::Chance(c)) => c,
            _ => unreachable!(),
        };
        assert_eq!(c.params().chance_branching, 3);
        c.chance_branching = Some(2);
        assert_eq!(c.params().chance_branching, 2);
        let a = Spec::Chance(c).build(5).unwrap();
        let b = chance::generate(&c.params(), 5).unwrap();
        assert_eq!(
            crate::format::write(&a, crate::format::Format::Ron),
            crate::format::write(&b, crate::format::Format::Ron)
        );
    }
}
