//! How prune writes numbers, counts and untrusted text, shared by the tree, the formats, the
//! search's values, the trace exports and every view — so that a value reads the same
//! everywhere.
//!
//! This module knows nothing of trees, so the tree can use it (a draft's messages, a key
//! clash's values); the names of nodes, which read the tree, are in [`crate::tree::names`].

use std::borrow::Cow;

/// Whether `c` must not reach a terminal raw: a control character (C0, DEL, C1, NEL among
/// them), a line or paragraph separator (U+2028, U+2029: line ends to some readers, not to
/// others), or an invisible formatting character that reorders or hides text (bidi embeddings,
/// overrides and isolates, zero-width spaces and joiners, the left-to-right, right-to-left and
/// Arabic letter marks, the byte-order mark).
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `s` fit for a terminal: every character [`is_unsafe_char`] is written as its Rust escape
/// (`\u{1b}`, `\u{202e}`), so a name in a file cannot move the cursor, retitle the window or
/// reorder the line. Borrowed when there is nothing to escape.
pub fn terminal_safe(s: &str) -> Cow<'_, str> {
    escape_unsafe(s, |_| false)
}

/// Like [`terminal_safe`], but the characters `keep` accepts pass through (line breaks and tabs
/// in a quoted source line).
pub fn escape_unsafe(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe_char(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe_char(c) && !keep(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The name among `names` that `typed` most likely misspells, for a "did you mean": the
/// closest by optimal string alignment (a swapped pair of letters counts once, so `nmi` finds
/// `nim`), ignoring case, and within a third of the name's length (at least one edit) so that
/// a word unlike every name suggests nothing. Ties go to the earlier name. Every refusal of an
/// unknown name (algorithm, experiment, game, subcommand) asks this one function.
pub fn closest_name<'a>(typed: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for name in names {
        let distance = osa_distance(&typed, &name.to_lowercase());
        let allowed = (name.chars().count() / 3).max(1);
        if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, name));
        }
    }
    best.map(|(_, name)| name)
}

/// The optimal string alignment distance between `a` and `b`, in characters: insertions,
/// deletions, substitutions and swaps of two adjacent characters count one edit each, and no
/// substring is edited twice (Damerau's restricted form). Names are short, so the three rows of
/// the classic table are plenty; written here so that the library needs no crate for it.
fn osa_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Rows i-2, i-1 and i of the table: distance between a[..i] and b[..j].
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitution = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + substitution);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The rest of an unknown name's refusal: the name [`closest_name`] found, then every name
/// ("did you mean `alphabeta`? The algorithms are minimax, alphabeta, …").
pub fn did_you_mean(suggestion: Option<&str>, kind: &str, names: &[&str]) -> String {
    let list = names.join(", ");
    match suggestion {
        Some(s) => format!("did you mean `{s}`? The {kind} are {list}"),
        None => format!("the {kind} are {list}"),
    }
}

/// JSON text with every character [`is_unsafe_char`] that serde_json leaves raw (DEL, C1, the
/// line separators, bidi and invisible formatting characters) written as `\uXXXX`: the same
/// strings when read back, and nothing raw for a terminal or a JavaScript reader to trip on.
/// serde_json escapes C0 inside strings itself, so a raw line break is layout and stays.
pub fn json_safe(json: String) -> String {
    let escape = |c: char| c != '\n' && is_unsafe_char(c);
    if !json.chars().any(escape) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if escape(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A number as prune writes it: integers without a fraction (`3`, not `3.0`), anything else in
/// the shortest form that reads back to the same `f64` (`0.1`, `1e300`); from 10^15 on, in
/// exponent form (`1e308`, not 309 digits).
///
/// ```
/// use prune::text::{number_text, readable_number, short_number};
///
/// assert_eq!(number_text(3.0), "3");
/// assert_eq!(number_text(1.0 / 3.0), "0.3333333333333333");
/// assert_eq!(short_number(1.0 / 3.0), "0.333");
/// assert_eq!(readable_number(1.0 / 3.0, false), "1/3");
/// assert_eq!(short_number(f64::NEG_INFINITY), "−∞");
/// ```
pub fn number_text(x: f64) -> String {
    let mut s = String::new();
    push_number(&mut s, x);
    s
}

/// Appends [`number_text`]`(x)` to `out` without a `String` of its own: writers call this once
/// a node. Integers (the common leaf values) go through integer formatting.
pub fn push_number(out: &mut String, x: f64) {
    use std::fmt::Write as _;
    // The same test as `x.fract() == 0.0 && x.abs() < 1e15` (the conversion truncates, and is
    // exact below 2^63), without a call to `trunc`.
    if x.abs() < 1e15 && (x as i64) as f64 == x {
        if x == 0.0 && x.is_sign_negative() {
            out.push_str("-0");
        } else {
            // Exact: |x| < 10^15 < 2^63 and x is an integer. `itoa` writes the same digits
            // as `{}` without the formatting machinery (half of `gen`'s time went there).
            out.push_str(itoa::Buffer::new().format(x as i64));
        }
    } else if x.is_finite() && x.abs() >= 1e15 {
        let _ = write!(out, "{x:e}");
    } else {
        let _ = write!(out, "{x:?}");
    }
}

/// A number for the screen and for sentences: `+∞`/`−∞` for the infinite bounds, long reals cut
/// to three decimals.
pub fn short_number(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "−∞".into()
    } else if x == 0.0 {
        "0".into() // −0 too: the same number to a reader
    } else {
        let s = number_text(x);
        if s.len() > 7 && x.fract() != 0.0 {
            let short = format!("{x:.3}");
            short.trim_end_matches('0').to_owned()
        } else {
            s
        }
    }
}

/// A number as people write it, for the explorer's cells: `±∞`, integers as they are, short
/// decimals that are exact (`2.5`, `0.125`), a simple fraction for a value between −1 and 1
/// that is one with a denominator of at most 12 (`1/3`, `-5/6`: probabilities and shares),
/// and anything else to 4 significant digits (`2.556`, not `23/9` nor `2.555555555555556`). `full` asks for every digit instead ([`number_text`]).
pub fn readable_number(x: f64, full: bool) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+∞" } else { "−∞" }.into();
    }
    if x == 0.0 && !full {
        return "0".into(); // −0 (a negated zero: MTD(f)'s null windows) is 0 to a reader
    }
    if full || x.is_nan() || (x.fract() == 0.0 && x.abs() < 1e15) {
        return number_text(x);
    }
    let rounded = significant(x, 4);
    if rounded.parse::<f64>() == Ok(x) {
        return rounded;
    }
    let tolerance = 1e-9 * x.abs().max(1.0);
    for d in 2..=12u32 {
        let n = x * f64::from(d);
        if x.abs() < 1.0 && (n - n.round()).abs() <= tolerance {
            return format!("{}/{d}", n.round());
        }
    }
    rounded
}

/// `x` to `digits` significant digits, without trailing zeros (`1234.6` for 5, `0.001235`).
fn significant(x: f64, digits: i32) -> String {
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..15).contains(&magnitude) {
        // Far from 1 (MTD(f)'s window one step above 0 is 5e-324): in exponent form, never
        // hundreds of zeros.
        let s = format!("{x:.*e}", (digits - 1) as usize);
        let (mantissa, exponent) = s.split_once('e').expect("exponent form");
        let mantissa = match mantissa.contains('.') {
            true => mantissa.trim_end_matches('0').trim_end_matches('.'),
            false => mantissa,
        };
        let cut = format!("{mantissa}e{exponent}");
        // The shortest form that reads back as x, where it is no longer (5e-324, not 4.941e-324).
        let shortest = format!("{x:e}");
        return if shortest.len() <= cut.len() {
            shortest
        } else {
            cut
        };
    }
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    let s = format!("{x:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// A payoff vector, each number [`readable_number`]: `(1/3,2.5,7)`.
pub fn readable_vector(v: &[f64], full: bool) -> String {
    let parts: Vec<String> = v.iter().map(|&x| readable_number(x, full)).collect();
    format!("({})", parts.join(","))
}

/// A payoff vector for the screen: `(3,0,7)`.
pub fn vector_text(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|&x| short_number(x)).collect();
    format!("({})", parts.join(","))
}

/// "1st", "2nd", "3rd", "4th", … "11th", "21st".
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "1 node", "1,234 nodes".
pub fn nodes(n: u32) -> String {
    count(n as usize, "node", "nodes")
}

/// `n` and the noun that agrees with it: "1 child", "8 children", "0 children".
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", thousands(n as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bidi mark is escaped, the Arabic letter mark (U+061C) as the left-to-right and
    /// right-to-left marks are.
    #[test]
    fn bidi_marks_are_escaped() {
        for c in ['\u{061C}', '\u{200E}', '\u{200F}'] {
            assert!(is_unsafe_char(c), "U+{:04X}", c as u32);
            let shown = terminal_safe(&format!("a{c}b")).into_owned();
            assert_eq!(shown, format!("a\\u{{{:x}}}b", c as u32));
        }
    }

    #[test]
    fn numbers_far_from_one_are_read_in_exponent_form() {
        // MTD(f)'s null window just above 0 on an integer-free tree: one step, 5e-324.
        let step = f64::from_bits(1);
        assert_eq!(readable_number(step, false), "5e-324");
        assert_eq!(readable_number(-step, false), "-5e-324");
        assert_eq!(readable_number(1.25e-7, false), "1.25e-7");
        assert_eq!(readable_number(0.000125, false), "0.000125");
        assert_eq!(readable_number(2.5e20 + 0.5e20, false), "3e20");
        for x in [step, 1.25e-7, 3e20, -7.5e-11] {
            assert!(readable_number(x, false).len() <= 10, "{x}");
        }
    }

    #[test]
    fn osa_distance_counts_edits_and_adjacent_swaps_once() {
        // The textbook cases: "ca" → "abc" is 3 under the restricted form (2 unrestricted).
        for (a, b, d) in [
            ("", "", 0),
            ("", "abc", 3),
            ("abc", "", 3),
            ("nim", "nim", 0),
            ("nmi", "nim", 1),
            ("alphabta", "alphabeta", 1),
            ("kitten", "sitting", 3),
            ("ca", "abc", 3),
            ("ab", "ba", 1),
            ("sss", "mtdf", 4),
            ("αβ", "βα", 1),
        ] {
            assert_eq!(osa_distance(a, b), d, "{a} → {b}");
            assert_eq!(osa_distance(b, a), d, "{b} → {a}");
        }
    }

    /// What `number_text` wrote before its integer fast path: the formatting machinery for
    /// every value.
    fn formatted(x: f64) -> String {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            format!("{x}")
        } else if x.is_finite() && x.abs() >= 1e15 {
            format!("{x:e}")
        } else {
            format!("{x:?}")
        }
    }

    #[test]
    fn integer_formatting_matches_float_formatting() {
        use rand_chacha::ChaCha8Rng;
        use rand_chacha::rand_core::{Rng, SeedableRng};
        let mut corpus = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            42.0,
            -999_999_999_999_999.0,
            999_999_999_999_999.0,
            1e15,
            -1e15,
            1e15 - 1.0,
            123_456_789.0,
            9_007_199_254_740_992.0,
            1e21,
            1e-7,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            0.5,
            0.1,
            1.0 / 3.0,
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        for _ in 0..20_000 {
            let small = (rng.next_u64() % 2_000_001) as f64 - 1_000_000.0;
            let wide =
                (rng.next_u64() >> 11) as f64 * if rng.next_u64() % 2 == 0 { 1.0 } else { -1.0 };
            let power = 10f64.powi((rng.next_u64() % 40) as i32 - 10);
            corpus.extend([
                small,
                wide,
                wide / 1024.0,
                power,
                -power,
                small / 8.0,
                small / 100.0,
                f64::from_bits(rng.next_u64()),
            ]);
        }
        let mut appended = String::new();
        for x in corpus {
            assert_eq!(number_text(x), formatted(x), "{x:?}");
            let before = appended.len();
            push_number(&mut appended, x);
            assert_eq!(appended[before..], formatted(x), "{x:?}");
        }
    }

    #[test]
    fn numbers_read_back() {
        assert_eq!(number_text(3.0), "3");
        assert_eq!(number_text(-2.5), "-2.5");
        assert_eq!(number_text(0.1), "0.1");
        assert_eq!(number_text(1e300), "1e300");
        assert_eq!(number_text(1e308), "1e308");
        assert_eq!(number_text(-1.5e20), "-1.5e20");
        assert_eq!(number_text(1e15), "1e15");
        assert_eq!(number_text(999_999_999_999_999.0), "999999999999999");
        assert_eq!(number_text(1e-7), "1e-7");
        for x in [1e308, -1.5e20, 123_456_789_012_345_678.0, f64::MAX] {
            assert_eq!(number_text(x).parse::<f64>().unwrap(), x);
        }
        assert_eq!(number_text(1.0 / 3.0).parse::<f64>().unwrap(), 1.0 / 3.0);
    }

    #[test]
    fn terminal_text_has_no_raw_controls() {
        assert!(matches!(terminal_safe("plain é ∞"), Cow::Borrowed(_)));
        assert_eq!(
            terminal_safe("a\u{1b}]0;pwned\u{7}b"),
            "a\\u{1b}]0;pwned\\u{7}b"
        );
        assert_eq!(terminal_safe("\u{7f}\u{9b}2J"), "\\u{7f}\\u{9b}2J");
        assert_eq!(
            terminal_safe("x\u{202e}y\u{200b}\u{2066}\u{feff}"),
            "x\\u{202e}y\\u{200b}\\u{2066}\\u{feff}"
        );
        assert_eq!(terminal_safe("tab\tline\n"), "tab\\u{9}line\\u{a}");
        assert_eq!(
            escape_unsafe("tab\tline\n\u{1b}", |c| c == '\t' || c == '\n'),
            "tab\tline\n\\u{1b}"
        );
    }

    #[test]
    fn a_misspelt_name_finds_the_closest() {
        let algos = ["minimax", "alphabeta", "negascout", "sss", "mtdf"];
        assert_eq!(closest_name("alphabta", algos), Some("alphabeta"));
        assert_eq!(closest_name("AlphaBeta", algos), Some("alphabeta"));
        assert_eq!(closest_name("nim", ["nim", "pig"]), Some("nim"));
        assert_eq!(
            closest_name("nmi", ["tic-tac-toe", "nim", "pig"]),
            Some("nim")
        );
        assert_eq!(closest_name("rn", ["info", "run", "gen"]), Some("run"));
        assert_eq!(closest_name("bogus", algos), None, "nothing near: no guess");
        assert_eq!(closest_name("s", algos), None, "one letter is not a name");
        assert_eq!(closest_name("", algos), None);
    }

    #[test]
    fn screen_numbers_are_short() {
        assert_eq!(short_number(f64::INFINITY), "+∞");
        assert_eq!(short_number(f64::NEG_INFINITY), "−∞");
        assert_eq!(short_number(2.5), "2.5");
        assert_eq!(short_number(1.0 / 3.0), "0.333");
        assert_eq!(short_number(-0.0), "0");
        assert_eq!(readable_number(-0.0, false), "0");
        assert_eq!(
            readable_number(-0.0, true),
            "-0",
            "every digit, and the sign, when asked"
        );
        assert_eq!(vector_text(&[3.0, 0.5]), "(3,0.5)");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(nodes(1), "1 node");
        assert_eq!(nodes(1000), "1,000 nodes");
    }

    #[test]
    fn readable_numbers() {
        let r = |x| readable_number(x, false);
        assert_eq!(r(7.0), "7");
        assert_eq!(r(-3.0), "-3");
        assert_eq!(r(2.5), "2.5");
        assert_eq!(r(0.125), "0.125");
        assert_eq!(r(1.0 / 3.0), "1/3");
        assert_eq!(r(-2.0 / 3.0), "-2/3");
        assert_eq!(r(-5.0 / 6.0), "-5/6");
        assert_eq!(r(25.0 / 3.0), "8.333");
        assert_eq!(r(23.0 / 9.0), "2.556");
        assert_eq!(r(1.0 / 7.0), "1/7");
        assert_eq!(r(1.0 / 13.0), "0.07692");
        assert_eq!(r(2.555_555_555_5), "2.556");
        assert_eq!(r(std::f64::consts::PI), "3.142");
        assert_eq!(r(12345.678), "12346");
        assert_eq!(r(0.000_123_456), "0.0001235");
        assert_eq!(r(f64::INFINITY), "+∞");
        assert_eq!(r(f64::NEG_INFINITY), "−∞");
        assert_eq!(readable_number(1.0 / 3.0, true), "0.3333333333333333");
        assert_eq!(
            readable_vector(&[3.0, 0.5, 1.0 / 3.0], false),
            "(3,0.5,1/3)"
        );
    }
}
