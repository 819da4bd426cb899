//! Every output format escapes or removes every control, separator and bidi character of every
//! name and label: nothing raw reaches a file that LaTeX, a browser, Graphviz, a spreadsheet or a
//! terminal reads. The formats prune reads back (RON, `.efg`, bracket, JSON) escape rather than
//! drop, so the text loaded back is the text written.

use std::path::Path;
use std::process::Command;

use prune::text::is_unsafe_char;

/// Every character that must not be written raw, by its code point.
fn unsafe_chars() -> Vec<char> {
    let mut v: Vec<char> = (0..0x20)
        .chain(0x7f..=0x9f)
        .filter_map(char::from_u32)
        .collect();
    v.extend([
        '\u{2028}', '\u{2029}', '\u{200b}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}',
    ]);
    v.extend(['\u{2066}', '\u{2069}', '\u{feff}']);
    v
}

/// A RON string literal spelling `s` with escapes only, so the source itself is plain.
fn ron_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == ' ' {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    out + "\""
}

fn prune(args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn no_raw(what: &str, text: &str) {
    let raw: Vec<String> = text
        .chars()
        .filter(|&c| c != '\n' && is_unsafe_char(c))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    assert!(raw.is_empty(), "{what}: raw {raw:?}");
}

#[test]
fn every_format_escapes_every_control_and_separator_character() {
    let all: String = unsafe_chars().into_iter().collect();
    let name = format!("T{all}end");
    let labels: Vec<String> = unsafe_chars()
        .chunks(12)
        .enumerate()
        .map(|(i, cs)| format!("m{i}{}x", cs.iter().collect::<String>()))
        .collect();
    let leaves: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| format!("Leaf({}, {i})", ron_literal(l)))
        .collect();
    let source = format!(
        "(name: {}, description: {}, root: Max([Min({}, [{}])]))",
        ron_literal(&name),
        ron_literal(&name),
        ron_literal(&labels[0]),
        leaves.join(", ")
    );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ron");
    std::fs::write(&input, &source).unwrap();
    let input = input.to_str().unwrap();
    let original = prune::format::load(Path::new(input), None).unwrap();
    assert_eq!(original.meta().name, name);

    let at = |f: &str| dir.path().join(f).to_str().unwrap().to_owned();
    for f in ["out.ron", "out.efg", "out.txt"] {
        prune(&["convert", input, &at(f)]);
        no_raw(f, &std::fs::read_to_string(at(f)).unwrap());
        let back = prune::format::load(Path::new(&at(f)), None).unwrap();
        let labels = |t: &prune::tree::Tree| {
            t.ids()
                .map(|id| t.label(id).map(str::to_owned))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            labels(&back),
            labels(&original),
            "{f}: the labels read back"
        );
        if f != "out.txt" {
            assert_eq!(back.meta().name, name, "{f}: the name read back");
        }
    }
    for format in ["tikz", "svg", "dot", "text"] {
        let o = prune(&["draw", input, "--format", format]);
        no_raw(format, &String::from_utf8(o.stdout).unwrap());
        let o = prune(&[
            "draw",
            input,
            "--format",
            format,
            "--run",
            "alphabeta",
            "--step",
            "3",
        ]);
        no_raw(format, &String::from_utf8(o.stdout).unwrap());
    }
    let o = prune(&[
        "run",
        "alphabeta",
        input,
        "--trace",
        &at("t.jsonl"),
        "--dot",
        &at("t.dot"),
        "--stats-csv",
        &at("t.csv"),
    ]);
    no_raw("run", &String::from_utf8(o.stdout).unwrap());
    for f in ["t.jsonl", "t.dot", "t.csv"] {
        no_raw(f, &std::fs::read_to_string(at(f)).unwrap());
    }
    let trace = std::fs::read_to_string(at("t.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(trace.lines().next().unwrap()).unwrap();
    assert_eq!(header["tree"], name.as_str());
    let labelled = trace.lines().skip(1).filter_map(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["label"].as_str().map(str::to_owned)
    });
    assert!(labelled.into_iter().all(|l| labels.contains(&l)));
    for args in [
        vec!["info", "--json", input],
        vec!["run", "alphabeta", "--json", input],
        vec!["compare", "--json", input, "--algos", "alphabeta,minimax"],
        vec!["compare", "--format", "json", input, "--algos", "alphabeta"],
        vec!["compare", "--format", "csv", input, "--algos", "alphabeta"],
        vec!["analyze", "--json", input],
    ] {
        let out = String::from_utf8(prune(&args).stdout).unwrap();
        no_raw(&format!("{args:?}"), &out);
        if args.contains(&"--json") || args.contains(&"json") {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            if args[0] == "info" {
                assert_eq!(v["name"], name.as_str());
            }
        }
    }
}
