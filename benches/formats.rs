//! Generating and loading big trees (issue targets: a 10^7-node uniform tree generated in ≤ 1 s,
//! a 10^6-node RON file loaded in ≤ 1 s, `.efg` loaded and saved at comparable speed).
//!
//! `cargo bench --bench formats`
//!
//! Issue 15 asks loading to cost at most 3× a plain tokenizer pass over the same text: the
//! `tokenize` benchmarks are that reference (quoted strings, numbers parsed, punctuation,
//! nothing built).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use prune::format::{self, Format};
use prune::generate::{Values, uniform};

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
            b.iter(|| black_box(format::parse("bench", Arc::clone(&text), f).expect("parse")))
        });
        g.bench_function(format!("save {f}"), |b| {
            b.iter(|| black_box(format::write(&tree, f)))
        });
    }
    g.finish();
}

criterion_group!(benches, generate, load_and_save);
criterion_main!(benches);
