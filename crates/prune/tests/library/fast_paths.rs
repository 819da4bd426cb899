//! Every loader's fast path against its general way. The RON, `.efg` and bracket readers read
//! most nodes straight from the bytes (plain numbers and labels, `Prob(p, …)`, fractions, real
//! values, payoff vectors, `,` and `]` after a child) and leave anything else to the token
//! reader, from the same place; `format::lex::general_way` turns the byte readers off. Both
//! ways must give the same tree, or the same report at the same position, on every input:
//! valid files of every shape and mutations of them that break a fast path half-way (a
//! fraction cut after its `/`, a label whose quote is gone, a comment inside a node).

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use prune::format::{self, Format, Text, lex};
use prune::generate::{self, Values};
use prune::tree::Tree;

const FORMATS: [Format; 3] = [Format::Ron, Format::Efg, Format::Bracket];

/// Texts the general way reads differently from the bytes: escapes, raw strings, comments
/// inside a node, `.5`-style and exponent numbers, underscores, blanks everywhere.
const HANDWRITTEN: &[(&str, Format)] = &[
    (
        r##"(version: 1, root: Max("r\u{41}", [Leaf("a\"q", 3), Min(r#"b"#, [1_000, -2.5e1, 0.5, Leaf(7, (key: 12))]), Chance([Prob(0.25, 2), Prob("3/4", Leaf("low", -0.25))])]))"##,
        Format::Ron,
    ),
    (
        "(version: 1, root: Max([ // a comment\n 1, /* inside */ Min([2, 3]), Chance([Prob(0.5, 4), Prob(0.5 /* here */, 5)]) ]))",
        Format::Ron,
    ),
    (
        r##"(version: 1, players: 3, root: Player(1, [Player(2, "x", [(1, 2, 3), Leaf("y", (3, 2, 1))]), Chance([Prob(0.5, (0,0,6)), Prob("1/2", (6, 0, 0))])]))"##,
        Format::Ron,
    ),
    (
        "(a=3, \"b\\\"c\"=(1,2), d=*(0.25:4, 0.75:-8), e=+(1e2, -.5))",
        Format::Bracket,
    ),
    ("((3,12,8),(2,4,6),(14,5,2))", Format::Bracket),
    (
        "((1,2,3),(3,2,1),*(1/3:(0,3,3),2/3:(3,3,0)))",
        Format::Bracket,
    ),
    (
        "EFG 2 R \"g\" { \"Max\" \"Min\" }\n\"\"\n\np \"\" 1 1 \"\" { \"l\\\"x\" \"r\" } 0\nc \"\" 1 \"\" { \"h\" 1/3 \"t\" 0.6666666666666666 } 0\nt \"\" 1 \"o\" { 1.5 -1.5 }\nt \"\" 2 \"\" { -2 2 }\np \"\" 2 1 \"\" { \"a\" \"b\" } 0\nt \"\" 3 \"\" { 4 -4 }\nt \"\" 1\n",
        Format::Efg,
    ),
];

/// Valid texts: the sample trees and generated trees of every shape, written in each format,
/// the malformed corpus, and the handwritten texts above. Made once for all the cases.
fn seeds() -> &'static [(String, Format)] {
    static SEEDS: OnceLock<Vec<(String, Format)>> = OnceLock::new();
    SEEDS.get_or_init(texts)
}

fn texts() -> Vec<(String, Format)> {
    let mut out: Vec<(String, Format)> = HANDWRITTEN
        .iter()
        .map(|&(t, f)| (t.to_owned(), f))
        .collect();
    let mut trees: Vec<Tree> = Vec::new();
    for entry in std::fs::read_dir(crate::common::repo("trees")).expect("trees/") {
        let path = entry.expect("entry").path();
        trees.push(format::load(&path, None).expect("sample trees load"));
    }
    trees.extend(generated());
    for tree in &trees {
        for f in FORMATS {
            out.push((format::write(tree, f), f));
        }
    }
    for entry in
        std::fs::read_dir(crate::common::repo("tests/malformed")).expect("tests/malformed/")
    {
        let path = entry.expect("entry").path();
        let f = match path.extension().and_then(|e| e.to_str()) {
            Some("ron") => Format::Ron,
            Some("efg") => Format::Efg,
            Some("txt") => Format::Bracket,
            _ => continue,
        };
        if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((text, f));
        }
    }
    out
}

/// Small trees with real and integer values, even and uneven chance nodes, payoff vectors.
fn generated() -> Vec<Tree> {
    let mut trees = Vec::new();
    for seed in 0..6 {
        let values = if seed % 2 == 0 {
            Values::integers(-9, 9)
        } else {
            Values {
                lo: -1.0,
                hi: 1.0,
                real: true,
            }
        };
        let random = generate::random::RandomShape {
            min_branching: 1,
            max_branching: 3,
            depth: 4,
            leaf_probability: 0.3,
            values,
            mixed: seed % 3 == 0,
        };
        let chance = generate::chance::ChanceTree {
            branching: 2,
            chance_branching: 3,
            depth: 3,
            values,
            uneven: seed % 2 == 1,
            irregular: seed % 4 < 2,
        };
        let players = generate::multiplayer::Multiplayer {
            players: 3,
            branching: 2,
            depth: 3,
            sum: 12,
        };
        trees.push(generate::random::generate(&random, seed).expect("random tree"));
        trees.push(generate::chance::generate(&chance, seed).expect("chance tree"));
        trees.push(generate::multiplayer::generate(&players, seed).expect("3-player tree"));
    }
    trees
}

/// Bytes that start, end or break a fast path's pieces.
const BYTES: &[u8] = b"0123456789-+./:,;()[]{}\"\\#*_=e \n";

/// Pieces the fast paths read, and their near misses.
const PIECES: &[&str] = &[
    "1/3",
    "1/",
    "/0",
    "0.5",
    ".5",
    "1e3",
    "1e",
    "-",
    "Prob(",
    "Prob(1/2, ",
    "Leaf(",
    "\"a\"",
    "\"",
    "r#\"x\"#",
    "//c\n",
    "/*x*/",
    "(1,2,3)",
    "*(",
    "+(",
    "a=",
    "\\u{1b}",
    "1_0",
    "\"\" ",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(f64, usize),
    Insert(f64, usize),
    Replace(f64, usize),
    Truncate(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0..1.0f64;
    prop_oneof![
        (at.clone(), 1..4usize).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (at.clone(), 0..PIECES.len()).prop_map(|(p, i)| Mutation::Insert(p, i)),
        (at.clone(), 0..BYTES.len()).prop_map(|(p, i)| Mutation::Replace(p, i)),
        at.prop_map(Mutation::Truncate),
    ]
}

/// Applies `m` at a character boundary, so the text stays UTF-8.
fn apply(text: &mut String, m: &Mutation) {
    let at = |p: f64, text: &String| {
        let mut i = ((text.len() as f64) * p) as usize;
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match *m {
        Mutation::Delete(p, n) => {
            let i = at(p, text);
            let mut end = (i + n).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            text.replace_range(i..end, "");
        }
        Mutation::Insert(p, k) => {
            let i = at(p, text);
            text.insert_str(i, PIECES[k]);
        }
        Mutation::Replace(p, k) => {
            let i = at(p, text);
            if let Some(c) = text[i..].chars().next() {
                text.replace_range(i..i + c.len_utf8(), &char::from(BYTES[k]).to_string());
            }
        }
        Mutation::Truncate(p) => {
            let i = at(p, text);
            text.truncate(i);
        }
    }
}

/// What a load gives: the tree, or the report (message, hint and the caret at its position).
fn load(text: &Arc<str>, f: Format) -> Result<Tree, String> {
    format::parse("input", Text::from(text), f).map_err(|e| e.render())
}

/// The same tree, or the same report, whichever way the text is read.
fn check(text: &str, f: Format) -> Result<(), TestCaseError> {
    let text: Arc<str> = Arc::from(text);
    let fast = load(&text, f);
    let general = lex::general_way(|| load(&text, f));
    match (&fast, &general) {
        (Ok(a), Ok(b)) => prop_assert!(a == b, "{f:?}: the trees differ on\n{text}"),
        (Err(a), Err(b)) => prop_assert_eq!(a, b, "{:?}: the reports differ on\n{}", f, text),
        _ => prop_assert!(
            false,
            "{f:?}: fast {:?}, general {:?} on\n{text}",
            fast.as_ref().map(|_| "a tree"),
            general.as_ref().map(|_| "a tree")
        ),
    }
    Ok(())
}

#[test]
fn the_handwritten_seeds_are_valid() {
    for (text, f) in HANDWRITTEN {
        let read = format::parse("seed", Text::from(*text), *f);
        assert!(
            read.is_ok(),
            "{text}: {}",
            read.err().map(|e| e.render()).unwrap_or_default()
        );
    }
}

#[test]
fn every_seed_reads_the_same_both_ways() {
    for (text, _) in seeds() {
        for f in FORMATS {
            if let Err(e) = check(text, f) {
                panic!("{e}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_texts_read_the_same_both_ways(
        seed in any::<prop::sample::Index>(),
        muts in prop::collection::vec(mutation(), 0..4),
    ) {
        let seeds = seeds();
        let (text, native) = &seeds[seed.index(seeds.len())];
        let mut text = text.clone();
        for m in &muts {
            apply(&mut text, m);
        }
        check(&text, *native)?;
        for f in FORMATS.into_iter().filter(|f| f != native) {
            check(&text, f)?;
        }
    }
}
