//! `prune compare --format table|csv|json`: the same rows as text, CSV and JSON.

use std::process::Command;

const CLASSIC: &str = "((3,12,8),(2,4,6),(14,5,2))";

fn compare(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .arg("compare")
        .args(args)
        .output()
        .expect("run prune");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A CSV line split into fields (RFC 4180 quoting, no line breaks inside fields).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// The CSV as rows of (name, field) maps.
fn csv_rows(text: &str) -> Vec<Vec<(String, String)>> {
    let mut lines = text.lines();
    let head = fields(lines.next().unwrap());
    lines
        .map(|l| {
            let f = fields(l);
            assert_eq!(f.len(), head.len(), "{l}");
            head.iter().cloned().zip(f).collect()
        })
        .collect()
}

fn field<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(k, _)| k == name).expect(name).1
}

#[test]
fn the_table_is_unchanged() {
    assert_eq!(
        compare(&["--expr", CLASSIC, "--algos", "minimax,alphabeta,star1"]),
        "algorithm  value  leaves  distinct  nodes  cutoffs  probes  re-search    EBF   share  ×minimal\n\
         minimax        3       9         9     13        0       0          0  3.000  100.0%      1.80\n\
         alphabeta      3       7         7     11        2       0          0  2.646   77.8%      1.40\n\
         star1          3       7         7     11        2       0          0  2.646   77.8%      1.40\n\
         \n\
         minimal tree (Knuth–Moore, in the given order): 5 leaves of 9\n"
    );
    let explicit = compare(&[
        "--expr",
        CLASSIC,
        "--algos",
        "minimax,alphabeta,star1",
        "--format",
        "table",
    ]);
    assert!(explicit.starts_with("algorithm  value"));
}

#[test]
fn csv_has_a_row_per_algorithm_with_numbers() {
    let text = compare(&[
        "--expr",
        CLASSIC,
        "--algos",
        "minimax,alphabeta",
        "--format",
        "csv",
    ]);
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 2);
    let names: Vec<&str> = rows[0].iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "algorithm",
            "value",
            "bound",
            "leaves",
            "distinct_leaves",
            "nodes",
            "cutoffs",
            "probes",
            "researches",
            "effective_branching",
            "share_of_exhaustive",
            "minimal_ratio",
            "refused"
        ]
    );
    assert_eq!(field(&rows[0], "algorithm"), "minimax");
    assert_eq!(field(&rows[0], "value"), "3");
    assert_eq!(field(&rows[0], "bound"), "exact");
    assert_eq!(field(&rows[0], "leaves"), "9");
    assert_eq!(field(&rows[1], "leaves"), "7");
    assert_eq!(field(&rows[1], "cutoffs"), "2");
    let share: f64 = field(&rows[1], "share_of_exhaustive").parse().unwrap();
    assert!((share - 7.0 / 9.0).abs() < 1e-12);
    let ratio: f64 = field(&rows[1], "minimal_ratio").parse().unwrap();
    assert!((ratio - 1.4).abs() < 1e-12);
    assert_eq!(field(&rows[1], "refused"), "");
}

#[test]
fn csv_and_json_give_a_refusal_its_row() {
    let args = [
        "trees/ballard-figure-6.ron",
        "--algos",
        "expectiminimax,star2:probes=2,alphabeta",
        "--format",
    ];
    let rows = csv_rows(&compare(&[&args[..], &["csv"]].concat()));
    assert_eq!(rows.len(), 3);
    assert_eq!(field(&rows[1], "algorithm"), "star2 --probes 2");
    assert_eq!(field(&rows[1], "probes"), "3");
    assert_eq!(field(&rows[2], "algorithm"), "alphabeta");
    assert_eq!(field(&rows[2], "leaves"), "");
    assert!(field(&rows[2], "refused").contains("chance"));
    // No minimal tree for chance trees: no column for it.
    assert!(rows[0].iter().all(|(k, _)| k != "minimal_ratio"));

    let v: serde_json::Value =
        serde_json::from_str(&compare(&[&args[..], &["json"]].concat())).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["algorithm"], "expectiminimax");
    assert_eq!(rows[0]["value"], 4);
    assert_eq!(rows[0]["leaves"], 14);
    assert!(rows[0]["refused"].is_null());
    assert_eq!(rows[1]["value"], rows[0]["value"]);
    assert_eq!(rows[1]["leaves"], 5);
    assert!(rows[2]["leaves"].is_null());
    assert!(rows[2]["refused"].as_str().unwrap().contains("chance"));
}

#[test]
fn json_rows_have_numbers() {
    let v: serde_json::Value = serde_json::from_str(&compare(&[
        "--expr",
        CLASSIC,
        "--algos",
        "alphabeta,sss",
        "--format",
        "json",
    ]))
    .unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let ab = &rows[0];
    assert_eq!(ab["algorithm"], "alphabeta");
    assert!(ab["value"].is_i64(), "{ab}");
    assert_eq!(ab["value"], 3);
    assert_eq!(ab["bound"], "exact");
    assert_eq!(ab["leaves"], 7);
    assert_eq!(ab["distinct_leaves"], 7);
    assert_eq!(ab["nodes"], 11);
    let ebf = ab["effective_branching"].as_f64().unwrap();
    assert!((ebf - 7f64.sqrt()).abs() < 1e-12);
    assert_eq!(ab["minimal_ratio"], 1.4);
    assert_eq!(rows[1]["leaves"], 7);
}

#[test]
fn json_and_format_conflict() {
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "compare", "--expr", CLASSIC, "--algos", "minimax", "--json", "--format", "csv",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}
