//! Generating and loading big trees (issue targets: a 10^7-node uniform tree generated in ≤ 1 s,
//! a 10^6-node RON file loaded in ≤ 1 s, `.efg` loaded and saved at comparable speed).
//!
//! `cargo bench --bench formats`
//!
//! Issue 15 asks loading to cost at most 3× a plain tokenizer pass over the same text: the
//! `tokenize` benchmarks are that reference (quoted strings, numbers parsed, punctuation,
//! nothing built). `formats 1.1e6 nodes` measures the shapes `prune gen uniform` writes;
//! `other shapes` the rest, each beside a pass over its own text (`cargo bench --bench formats
//! -- "other shapes"`): Pig as prune and as OpenSpiel write it, chance trees (fractions,
//! `Prob` wrappers, real values), tic-tac-toe (labels, keys, heuristics), 3-player payoffs.
//! `pig openspiel` is issue 30's `.efg` load; its 10^8-node tree is too big for criterion, and
//! docs/DESIGN.md gives the command that measures it.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prune::draw;
use prune::format::{self, Format, Text};
use prune::generate::game::{self, GameSpec};
use prune::generate::{Values, chance, multiplayer, uniform};
use prune::search::{Algorithm, Params};
use prune::trace::{self, export};
use prune::tree::{Kind, Tree};

/// The binary's allocator (huge pages, as the measured runs of `prune` have them).
#[global_allocator]
static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;

fn big(branching: u32, depth: u32) -> prune::tree::Tree {
    let p = uniform::Uniform {
        branching,
        depth,
        values: Values::integers(0, 99),
        order: uniform::Order::Random,
    };
    uniform::generate(&p, 1).expect("generate")
}

fn generate(c: &mut Criterion) {
    let mut g = c.benchmark_group("generate");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, order) in [
        ("random", uniform::Order::Random),
        ("best", uniform::Order::Best),
    ] {
        // b = 10, d = 7: 11 111 111 nodes.
        let p = uniform::Uniform {
            branching: 10,
            depth: 7,
            values: Values::integers(0, 99),
            order,
        };
        g.bench_function(format!("uniform 1.1e7 nodes {name}"), |b| {
            b.iter(|| black_box(uniform::generate(&p, 1).expect("generate")))
        });
    }
    g.finish();
}

/// The reference pass: every token of the text found, numbers parsed to `f64`, nothing built
/// (what a minimal C tokenizer does). Returns a checksum so nothing is optimised away.
fn tokenize(text: &str) -> f64 {
    let b = text.as_bytes();
    let (mut i, mut sum, mut count) = (0, 0.0, 0u64);
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            count += 1;
        } else if c.is_ascii_digit() || c == b'-' || c == b'+' || c == b'.' {
            let start = i;
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_digit() || matches!(b[i], b'.' | b'e' | b'E' | b'-' | b'+'))
            {
                i += 1;
            }
            sum += text[start..i].parse::<f64>().unwrap_or(0.0);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            count += 1;
        } else {
            i += 1;
            count += 1;
        }
    }
    sum + count as f64
}

/// A tree as OpenSpiel's `EFGWriter` exports it (`open_spiel/game_transforms/efg_writer.cc`):
/// players "Player 1", "Player 2", no comment line, chance outcomes named `Roll k` (Pig's
/// `ActionToString`) with decimal probabilities, every terminal its own outcome with one
/// return a player (`t "" 7 "" { 1 -1 }`), a space before each `}`. OpenSpiel numbers a
/// player's information sets by their information-state strings; here every player node gets
/// its own, as a perfect-information game's distinct states do.
fn openspiel_efg(tree: &Tree) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "EFG 2 R \"pig(diceoutcomes=4,horizon=10,winscore=8)\" { \"Player 1\" \"Player 2\" }\n",
    );
    let (mut chance, mut terminal, mut sets) = (1u64, 1u64, [0u64; 2]);
    for id in tree.preorder() {
        match tree.kind(id) {
            Kind::Leaf => {
                let v = tree.value(id);
                let _ = writeln!(out, "t \"\" {terminal} \"\" {{ {v} {} }}", 0.0 - v);
                terminal += 1;
            }
            Kind::Chance => {
                let _ = write!(out, "c \"\" {chance} \"\" {{ ");
                for (k, c) in tree.children(id).enumerate() {
                    let _ = write!(out, "\"Roll {}\" {} ", k + 1, tree.prob(c));
                }
                out.push_str("} 0\n");
                chance += 1;
            }
            kind => {
                let p = usize::from(kind == Kind::Min);
                sets[p] += 1;
                let _ = write!(out, "p \"\" {} {} \"\" {{ ", p + 1, sets[p]);
                for c in tree.children(id) {
                    let _ = write!(out, "\"{}\" ", tree.label(c).unwrap_or(""));
                }
                out.push_str("} 0\n");
            }
        }
    }
    out
}

/// Issue 15's goal holds for any file, not only the shapes `prune gen uniform` writes (read
/// by the loaders' byte-level fast paths): chance nodes and probabilities (fractions, reals,
/// `Prob` wrappers), labels, real values, n-player payoff vectors, and OpenSpiel's `.efg`
/// export of Pig, the issue's own example (pig(8, 4, 10): 2.0 M nodes, 64–70 MB).
fn other_shapes(c: &mut Criterion) {
    let pig = game::generate(&GameSpec::Pig {
        win: 8,
        dice: 4,
        horizon: 10,
    })
    .expect("pig");
    // b = c = 7, 4 decision levels: 960 800 nodes, 823 543 leaves.
    let chance = |uneven: bool, real: bool| {
        let values = Values {
            real,
            ..Values::integers(0, 99)
        };
        let p = chance::ChanceTree {
            branching: 7,
            chance_branching: 7,
            depth: 4,
            values,
            uneven,
            irregular: false,
        };
        chance::generate(&p, 1).expect("chance")
    };
    let tic_tac_toe = game::generate(&GameSpec::TicTacToe { depth: None }).expect("tic-tac-toe");
    // 3 players, b = 10, d = 6: 1 111 111 nodes.
    let players = multiplayer::generate(
        &multiplayer::Multiplayer {
            players: 3,
            branching: 10,
            depth: 6,
            sum: 10,
        },
        1,
    )
    .expect("multiplayer");
    let even = chance(false, false);
    let uneven = chance(true, true);
    let corpus: Vec<(&str, Format, String)> = vec![
        ("pig prune", Format::Efg, format::write(&pig, Format::Efg)),
        ("pig openspiel", Format::Efg, openspiel_efg(&pig)),
        (
            "chance uneven real",
            Format::Efg,
            format::write(&uneven, Format::Efg),
        ),
        (
            "3 players",
            Format::Efg,
            format::write(&players, Format::Efg),
        ),
        (
            "chance even",
            Format::Ron,
            format::write(&even, Format::Ron),
        ),
        (
            "chance uneven real",
            Format::Ron,
            format::write(&uneven, Format::Ron),
        ),
        (
            "tic-tac-toe labels",
            Format::Ron,
            format::write(&tic_tac_toe, Format::Ron),
        ),
        (
            "3 players",
            Format::Ron,
            format::write(&players, Format::Ron),
        ),
        (
            "chance even",
            Format::Bracket,
            format::write(&even, Format::Bracket),
        ),
        (
            "chance uneven real",
            Format::Bracket,
            format::write(&uneven, Format::Bracket),
        ),
        (
            "tic-tac-toe labels",
            Format::Bracket,
            format::write(&tic_tac_toe, Format::Bracket),
        ),
        (
            "3 players",
            Format::Bracket,
            format::write(&players, Format::Bracket),
        ),
    ];
    drop((pig, even, uneven, tic_tac_toe, players));
    let mut g = c.benchmark_group("other shapes");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, f, text) in corpus {
        let text: Arc<str> = Arc::from(text);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("tokenize {f} {name}"), |b| {
            b.iter(|| black_box(tokenize(black_box(&text))))
        });
        g.bench_function(format!("load {f} {name}"), |b| {
            b.iter(|| black_box(format::parse("bench", Text::from(&text), f).expect("parse")))
        });
    }
    g.finish();
}

fn load_and_save(c: &mut Criterion) {
    // b = 10, d = 6: 1 111 111 nodes, 10^6 leaves.
    let tree = big(10, 6);
    let mut g = c.benchmark_group("formats 1.1e6 nodes");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    for f in [Format::Ron, Format::Efg, Format::Bracket] {
        let text: Arc<str> = Arc::from(format::write(&tree, f));
        g.bench_function(format!("tokenize {f}"), |b| {
            b.iter(|| black_box(tokenize(black_box(&text))))
        });
        g.bench_function(format!("load {f}"), |b| {
            b.iter(|| black_box(format::parse("bench", Text::from(&text), f).expect("parse")))
        });
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("save {f}"), |b| {
            b.iter(|| black_box(format::write(&tree, f)))
        });
        g.throughput(Throughput::Elements(1));
    }
    g.finish();
}

/// The exports of a traced run (issue 15 asks ≥ 100 MB/s): the JSON Lines trace of minimax on
/// the 1.1·10^6-node tree (1.2·10^6 events), and the DOT picture of the whole searched tree,
/// every node drawn (`prune draw --run minimax --format dot --width 100000000`). The picture is
/// laid out once outside the measurement: this measures the writers, not the layout.
fn exports(c: &mut Criterion) {
    let tree = big(10, 6);
    let algo = Algorithm::parse("minimax", &Params::default()).expect("minimax");
    let (run, trace) = trace::record(&tree, &algo, &Default::default()).expect("record");
    let mut g = c.benchmark_group("exports 1.1e6 nodes");
    g.sample_size(10).measurement_time(Duration::from_secs(15));

    let mut out = Vec::new();
    export::write_jsonl(&mut out, &tree, &run, &trace).expect("jsonl");
    g.throughput(Throughput::Bytes(out.len() as u64));
    g.bench_function("save jsonl trace", |b| {
        b.iter(|| {
            out.clear();
            export::write_jsonl(&mut out, &tree, &run, &trace).expect("jsonl");
            black_box(out.len())
        })
    });

    let at = draw::At::new(&tree, &run, &trace, trace.len());
    let opts = draw::Options {
        width: 100_000_000,
        ..draw::Options::default()
    };
    let pic = draw::picture(&tree, &tree.subtree_sizes(), Some(&at), &opts);
    let title = draw::title(&tree, Some(&at));
    let dot = draw::dot::render(&pic, &title);
    g.throughput(Throughput::Bytes(dot.len() as u64));
    g.bench_function("save dot picture", |b| {
        b.iter(|| black_box(draw::dot::render(&pic, &title)))
    });
    // The whole export: every node's state, the cards and their layout, then the text.
    let sizes = tree.subtree_sizes();
    g.bench_function("lay out and save dot picture", |b| {
        b.iter(|| {
            let pic = draw::picture(&tree, &sizes, Some(&at), &opts);
            black_box(draw::dot::render(&pic, &title).len())
        })
    });
    g.finish();
}

criterion_group!(benches, generate, load_and_save, other_shapes, exports);
criterion_main!(benches);
