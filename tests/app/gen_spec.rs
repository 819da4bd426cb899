//! `generate::Spec` against the binary: the command a spec prints rebuilds the spec's tree, and
//! the command line parses back into the spec.

use std::process::Command;

use clap::Parser;
use prune::format::{self, Format};
use prune::generate::game::connect_four::Moves;
use prune::generate::game::{Fen, GameSpec, Heaps};
use prune::generate::spec::ChanceSpec;
use prune::generate::{
    Spec, Values, multiplayer::Multiplayer, ordered::Ordered, random::RandomShape,
    star::StarComplete, star::StarOrder, uniform::Order, uniform::Uniform, winloss::WinLoss,
};
use prune_cli::cli::{Cli, Command as Sub};

/// One spec per family, every one with parameters away from the defaults.
fn specs() -> Vec<Spec> {
    vec![
        Spec::Uniform(Uniform {
            branching: 2,
            depth: 5,
            values: Values {
                lo: -7.0,
                hi: 12.0,
                real: false,
            },
            order: Order::Best,
        }),
        Spec::Uniform(Uniform {
            branching: 3,
            depth: 3,
            values: Values {
                lo: -2.5,
                hi: 0.1,
                real: true,
            },
            order: Order::Worst,
        }),
        Spec::StarComplete(StarComplete {
            branching: 3,
            depth: 2,
            order: StarOrder::Random,
            critical: true,
            labels: true,
        }),
        Spec::WinLoss(WinLoss {
            branching: 3,
            depth: 4,
            p0: 0.3819660112501051,
            board: true,
        }),
        Spec::Chance(ChanceSpec {
            branching: 2,
            chance_branching: Some(4),
            depth: 3,
            values: Values {
                lo: -10.0,
                hi: 10.0,
                real: false,
            },
            uneven: true,
            irregular: true,
        }),
        Spec::Chance(ChanceSpec {
            branching: 2,
            chance_branching: None,
            depth: 2,
            values: Values {
                lo: 0.0,
                hi: 1.0,
                real: true,
            },
            uneven: false,
            irregular: false,
        }),
        Spec::Multiplayer(Multiplayer {
            players: 4,
            branching: 2,
            depth: 4,
            sum: 7,
        }),
        Spec::Ordered(Ordered {
            width: 4,
            depth: 4,
            g: 2,
            r: 3,
        }),
        Spec::Random(RandomShape {
            min_branching: 2,
            max_branching: 4,
            depth: 4,
            leaf_probability: 0.35,
            values: Values {
                lo: -3.0,
                hi: -1.0,
                real: true,
            },
            mixed: true,
        }),
        Spec::Game(GameSpec::TicTacToe { depth: None }),
        Spec::Game(GameSpec::TicTacToe { depth: Some(3) }),
        Spec::Game(GameSpec::Nim {
            heaps: Heaps::new(&[2, 0, 3]).unwrap(),
            players: 2,
        }),
        Spec::Game(GameSpec::Nim {
            heaps: Heaps::new(&[1, 2]).unwrap(),
            players: 3,
        }),
        Spec::Game(GameSpec::ConnectFour {
            depth: 2,
            moves: Moves::NONE,
        }),
        Spec::Game(GameSpec::ConnectFour {
            depth: 3,
            moves: Moves::parse("4435").unwrap(),
        }),
        Spec::Game(GameSpec::Pig {
            win: 4,
            dice: 2,
            horizon: 7,
        }),
        // The default position: a FEN's spaces would not survive this test's whitespace split
        // (tests/app/games.rs reads a quoted one back).
        Spec::Game(GameSpec::Chess {
            depth: 2,
            fen: Fen::start(),
        }),
    ]
}

/// The `Spec` a `prune gen …` command line parses into, and its seed.
fn parse(command: &str) -> (Spec, u64) {
    let cli = Cli::try_parse_from(command.split_whitespace())
        .unwrap_or_else(|e| panic!("{command}: {e}"));
    match cli.command {
        Some(Sub::Gen(g)) => (g.family.spec(), g.family.common().seed),
        other => panic!("{command} is not gen: {other:?}"),
    }
}

#[test]
fn the_printed_command_rebuilds_the_tree() {
    let families: std::collections::HashSet<_> = specs().iter().map(|s| s.family_name()).collect();
    assert_eq!(families.len(), Spec::FAMILIES.len());
    for (i, spec) in specs().iter().enumerate() {
        let seed = 11 + i as u64;
        let command = spec.command(seed);
        let tree = spec
            .build(seed)
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        let mut args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(args.remove(0), "prune");
        args.extend(["--to", "ron"]);
        let out = Command::new(env!("CARGO_BIN_EXE_prune"))
            .args(&args)
            .output()
            .expect("run prune");
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format::write(&tree, Format::Ron),
            "{command}"
        );
    }
}

#[test]
fn the_printed_command_parses_back_into_the_spec() {
    for (i, spec) in specs().iter().enumerate() {
        let command = spec.command(i as u64);
        // The games ignore the seed and do not print it: it parses back as the default.
        let seed = if spec.seeded() { i as u64 } else { 1 };
        assert_eq!(parse(&command), (*spec, seed), "{command}");
    }
}

#[test]
fn default_invocations_round_trip() {
    for name in Spec::FAMILIES {
        let (spec, seed) = parse(&format!("prune gen {name}"));
        assert_eq!(Some(spec), Spec::default_for(name), "{name}");
        assert_eq!(seed, 1);
        let command = spec.command(seed);
        let seeded = if spec.seeded() { " --seed 1" } else { "" };
        assert_eq!(command, format!("prune gen {name}{seeded}"));
        assert_eq!(parse(&command), (spec, seed));
    }
}

#[test]
fn explicit_defaults_and_short_flags_parse_to_the_same_spec() {
    let (spec, _) = parse("prune gen chance -b 2 -c 2 --lo -4 --hi -1");
    assert_eq!(
        spec.command(1),
        "prune gen chance -b 2 -c 2 --lo=-4 --hi=-1 --seed 1"
    );
    assert_eq!(parse(&spec.command(1)).0, spec);
}

/// A *-complete tree of depth 0 would have no level at all: refused with a message, from
/// `prune gen` and from `--gen` alike, where it once indexed past its empty list of leaves.
#[test]
fn a_star_complete_tree_of_depth_zero_is_refused_not_a_panic() {
    use crate::common::{prune, stderr};
    for args in [
        &["gen", "star-complete", "-d", "0"][..],
        &["run", "star1", "--gen", "star-complete -d 0"],
    ] {
        let o = prune(args);
        let msg = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {msg}");
        assert!(!msg.contains("panicked"), "{args:?}: {msg}");
        assert!(msg.contains("D must be at least 1"), "{args:?}: {msg}");
    }
    // The critical subtree does not use D: it stays available with -d 0.
    let o = prune(&["gen", "star-complete", "-d", "0", "--critical", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
