//! The trace, statistics and picture exports, on small trees.

use prune::draw::dot::write_run as write_dot;
use prune::format::parse_expr;
use prune::search::{self, Algorithm, Run};
use prune::trace::export::{stats_csv, write_jsonl};
use prune::trace::{Recorder, Trace};
use prune::tree::Tree;

fn traced(expr: &str, algo: Algorithm) -> (Tree, Run, Trace) {
    let tree = parse_expr(expr, false).unwrap();
    let mut rec = Recorder::new(tree.len());
    let (found, secs) = search::search(&tree, &algo, &mut rec).unwrap();
    let (trace, stats) = rec.finish();
    let run = search::finish(&tree, &algo, found, stats, secs);
    (tree, run, trace)
}

#[test]
fn jsonl_has_a_header_and_a_parseable_line_per_event() {
    let (tree, run, trace) = traced(
        "((3,12,8),(2,4,6),(14,5,2))",
        Algorithm::AlphaBeta { fail_soft: false },
    );
    let mut buf = Vec::new();
    write_jsonl(&mut buf, &tree, &run, &trace).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), trace.len() + 1);
    assert_eq!(lines[0]["prune_trace"], 1);
    assert_eq!(lines[0]["value"], 3);
    assert_eq!(lines[1]["event"], "enter");
    assert_eq!(lines[1]["alpha"], "-inf");
    assert_eq!(lines[1]["beta"], "inf");
    let cut = lines.iter().find(|l| l["event"] == "cutoff").unwrap();
    assert_eq!(cut["kind"], "alpha");
    assert_eq!(cut["node"], 2);
    assert_eq!(cut["after"], 0);
    assert_eq!(cut["skipped"], 2);
    assert_eq!(lines.last().unwrap()["event"], "exit");
    assert_eq!(lines.last().unwrap()["bound"], "exact");
}

#[test]
fn csv_rows_match_the_header() {
    let (tree, run, _) = traced("((3,12,8),(2,4,6),(14,5,2))", Algorithm::Minimax);
    let csv = stats_csv(&tree, &[&run, &run]);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3);
    let width = rows[0].split(',').count();
    assert!(rows.iter().all(|r| r.split(',').count() == width));
    assert!(
        rows[1].starts_with("minimax,3,exact,9,9,4,13,0,0,"),
        "{}",
        rows[1]
    );
}

#[test]
fn dot_draws_pruned_subtrees_cut_with_their_values_and_marks_the_pv() {
    let (tree, run, trace) = traced(
        "(((3,12),(8,9)),((2,4),(6,1)))",
        Algorithm::AlphaBeta { fail_soft: false },
    );
    let mut buf = Vec::new();
    write_dot(&mut buf, &tree, &run, &trace).unwrap();
    let dot = String::from_utf8(buf).unwrap();
    assert!(dot.starts_with("digraph"));
    // The pruned subtree (6,1) is drawn whole, not folded: each node marked, the leaves with
    // their values, the edge into it cut.
    assert!(dot.contains("label=\"✂6\""), "{dot}");
    assert!(dot.contains("label=\"✂1\""), "{dot}");
    assert!(dot.contains("style=dashed, label=\"✂\""), "{dot}");
    assert!(dot.contains("color=red"));
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
}
