//! Every experiment's chart, run small and read back: one line per plotted series, named in the
//! legend, whose points — mapped back to data through the axes' tick labels — are the table's.
//!
//! The chart is read as a reader would: the tick labels' positions give each axis's transform
//! (linear, or logarithmic when its label says "log scale"), the legend's texts give the names,
//! and the series are the 2-pixel polylines, in legend order (src/experiment/plot.rs's layout).

use std::collections::HashMap;
use std::process::Command;

use prune_cli::experiment::plot::Plot;
use prune_cli::experiment::{self, EXPERIMENTS, Options, Report};

/// One element of the SVG: its tag, attributes and (for text) its content.
struct Element {
    tag: String,
    attrs: HashMap<String, String>,
    text: String,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The start tags of `svg` in document order: enough XML for what plotters writes (no
/// comments, no CDATA, attribute values in double quotes).
fn elements(svg: &str) -> Vec<Element> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let end = rest.find('>').expect("a closed tag");
        let (tag_text, after) = (&rest[..end], &rest[end + 1..]);
        rest = after;
        if tag_text.starts_with('/') || tag_text.starts_with('?') {
            continue;
        }
        let tag_text = tag_text.trim_end_matches('/');
        let (tag, mut attrs_text) = tag_text.split_once(' ').unwrap_or((tag_text, ""));
        let mut attrs = HashMap::new();
        while let Some(eq) = attrs_text.find("=\"") {
            let name = attrs_text[..eq].trim().to_owned();
            let value_end = attrs_text[eq + 2..].find('"').expect("a closed value");
            attrs.insert(name, unescape(&attrs_text[eq + 2..eq + 2 + value_end]));
            attrs_text = &attrs_text[eq + 3 + value_end..];
        }
        let text = match tag {
            "text" => unescape(after[..after.find("</text>").expect("a closed text")].trim()),
            _ => String::new(),
        };
        out.push(Element {
            tag: tag.to_owned(),
            attrs,
            text,
        });
    }
    out
}

fn attr(e: &Element, name: &str) -> f64 {
    e.attrs[name].parse().expect("a numeric attribute")
}

/// An axis as drawn: pixel = offset + scale · f(value), f the identity or log10.
struct Axis {
    offset: f64,
    scale: f64,
    log: bool,
}

impl Axis {
    /// The transform through the tick labels `(value, pixel)`, checked on every tick.
    fn through(ticks: &[(f64, f64)], log: bool) -> Axis {
        assert!(ticks.len() >= 2, "at least two tick labels: {ticks:?}");
        let f = |v: f64| if log { v.log10() } else { v };
        let (a, b) = (ticks[0], ticks[ticks.len() - 1]);
        let scale = (b.1 - a.1) / (f(b.0) - f(a.0));
        let axis = Axis {
            offset: a.1 - scale * f(a.0),
            scale,
            log,
        };
        for &(v, px) in ticks {
            assert!(
                (axis.pixel(v) - px).abs() <= 1.0,
                "tick {v} at {px} off the axis"
            );
        }
        axis
    }

    fn pixel(&self, v: f64) -> f64 {
        self.offset + self.scale * if self.log { v.log10() } else { v }
    }
}

/// The series the table gives the plot: (legend name, points), re-derived from the rows.
fn expected(report: &Report, plot: &Plot) -> Vec<(String, Vec<(f64, f64)>)> {
    let col = |name: &str| report.columns.iter().position(|c| c.name == name).unwrap();
    let mut out: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for s in &plot.series {
        let first = out.len();
        for row in &report.rows {
            if let Some((c, v)) = plot.only {
                if row[col(c)].text() != v {
                    continue;
                }
            }
            let (Some(x), Some(mut y)) = (row[col(plot.x)].number(), row[col(s.column)].number())
            else {
                continue;
            };
            if plot.y_percent_of_x_cubed {
                y = 100.0 * y / x.powi(3);
            }
            let groups: Vec<String> = plot
                .series_by
                .iter()
                .map(|g| format!("{}={}", report.columns[col(g)].heading, row[col(g)].text()))
                .collect();
            let name = match groups.is_empty() {
                true => s.label.to_owned(),
                false => format!("{} ({})", s.label, groups.join(", ")),
            };
            match out[first..].iter_mut().find(|(n, _)| *n == name) {
                Some((_, pts)) => pts.push((x, y)),
                None => out.push((name, vec![(x, y)])),
            }
        }
    }
    out
}

/// One panel of a chart as drawn: its legend's names, its axes and its 2-pixel lines' points
/// (in pixels).
struct Drawn {
    legend: Vec<String>,
    xa: Axis,
    ya: Axis,
    lines: Vec<Vec<(f64, f64)>>,
}

/// The points of a polyline, in pixels.
fn points(e: &Element) -> Vec<(f64, f64)> {
    e.attrs["points"]
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// The panel of `svg` from pixel `left` rightwards to `right` (a chart may draw a figure of
/// its own beside the table's, src/experiment/plot.rs), whose axes are labelled `x_label` and
/// `y_label`.
fn read(svg: &str, left: f64, right: f64, x_label: &str, y_label: &str) -> Drawn {
    let els = elements(svg);
    let inside = |e: &&Element| {
        let x = match e.tag.as_str() {
            "polyline" => points(e).first().map_or(-1.0, |p| p.0),
            _ => e.attrs.get("x").map_or(-1.0, |x| x.parse().unwrap()),
        };
        left <= x && x < right
    };
    let texts: Vec<&Element> = els
        .iter()
        .filter(|e| e.tag == "text")
        .filter(inside)
        .collect();
    let numeric = |e: &&Element| e.text.parse::<f64>().ok();
    let anchored = |e: &Element, a: &str| e.attrs.get("text-anchor").is_some_and(|v| v == a);
    let y_ticks: Vec<(f64, f64)> = texts
        .iter()
        .filter(|e| anchored(e, "end"))
        .filter_map(|e| numeric(e).map(|v| (v, attr(e, "y"))))
        .collect();
    let x_ticks: Vec<(f64, f64)> = texts
        .iter()
        .filter(|e| anchored(e, "middle") && !e.attrs.contains_key("transform"))
        .filter_map(|e| numeric(e).map(|v| (v, attr(e, "x"))))
        .collect();
    let log = |label: &str| {
        texts
            .iter()
            .any(|e| e.text == format!("{label} (log scale)"))
    };
    Drawn {
        xa: Axis::through(&x_ticks, log(x_label)),
        ya: Axis::through(&y_ticks, log(y_label)),
        legend: texts
            .iter()
            .filter(|e| anchored(e, "start"))
            .map(|e| e.text.clone())
            .collect(),
        lines: els
            .iter()
            .filter(|e| e.tag == "polyline" && e.attrs["stroke-width"] == "2")
            .filter(inside)
            .map(points)
            .collect(),
    }
}

/// Checks `svg` against the report's table; returns the legend's names.
fn check(name: &str, report: &Report, svg: &str) -> Vec<String> {
    let plot = report.plot.as_ref().expect("a plot");
    let left = experiment::plot::table_chart_left(report, plot).unwrap();
    let Drawn {
        legend,
        xa,
        ya,
        lines,
    } = read(
        svg,
        f64::from(left),
        f64::INFINITY,
        plot.x_label,
        plot.y_label,
    );
    let want = expected(report, plot);
    let names: Vec<&String> = want.iter().map(|(n, _)| n).collect();
    assert_eq!(legend.iter().collect::<Vec<_>>(), names, "{name}: legend");
    assert_eq!(lines.len(), want.len(), "{name}: one line per series");
    for ((series, points), drawn) in want.iter().zip(&lines) {
        assert_eq!(points.len(), drawn.len(), "{name}: {series}'s points");
        for (&(x, y), &(px, py)) in points.iter().zip(drawn) {
            let (ex, ey) = (xa.pixel(x), ya.pixel(y));
            assert!(
                (ex - px).abs() <= 1.5 && (ey - py).abs() <= 1.5,
                "{name}: {series} at ({x}, {y}) belongs at ({ex:.1}, {ey:.1}), drawn at ({px}, {py})"
            );
        }
    }
    legend
}

/// Each experiment, small enough for a test; sizes that reach the paper's printed cells.
fn small(name: &str) -> Options {
    let (trials, sizes): (Option<u32>, Option<Vec<u32>>) = match name {
        "ballard-best" => (None, Some(vec![2, 4, 10, 40])),
        "ballard-average" => (Some(4), Some(vec![2, 4, 40])),
        "ballard-variants" => (Some(3), Some(vec![4, 40])),
        "knuth-moore" => (Some(3), Some(vec![2, 3])),
        "reinefeld-marsland" | "reinefeld-marsland-regions" | "win-loss-map" => (None, None),
        "reinefeld-marsland-measured" => (Some(2), None),
        "win-loss" => (Some(3), Some(vec![2])),
        "convergence" => (Some(5), Some(vec![2])),
        "pathology" => (Some(40), None),
        "pathology-games" => (Some(6), None),
        "improvements" => (None, Some(vec![2, 4])),
        "eval-learning" => (Some(300), Some(vec![1, 2])),
        "maxn" => (Some(3), Some(vec![3])),
        other => panic!("{other}: give it small options here, so its chart is checked too"),
    };
    Options {
        trials,
        seed: 1,
        sizes,
    }
}

#[test]
fn every_chart_draws_the_tables_series_with_their_names() {
    for info in EXPERIMENTS {
        let report = (info.run)(&small(info.name), &|_| {}).expect(info.name);
        let plot = report.plot.as_ref().expect("every experiment plots");
        let svg = experiment::plot::svg(&report, plot).expect(info.name);
        let legend = check(info.name, &report, &svg);
        assert!(!legend.is_empty(), "{}", info.name);
    }
}

#[test]
fn ballard_average_from_the_command_line_names_prunes_and_the_papers_series() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.svg");
    let args = [
        "experiment",
        "ballard-average",
        "--trials",
        "5",
        "--sizes",
        "4,40",
    ];
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .args(["--plot", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    let report = (experiment::find("ballard-average").unwrap().run)(
        &Options {
            trials: Some(5),
            seed: 1,
            sizes: Some(vec![4, 40]),
        },
        &|_| {},
    )
    .unwrap();
    let legend = check("ballard-average", &report, &svg);
    for name in ["Star1", "Star2", "Star2, 2 probes (cycling)"] {
        assert!(legend.iter().any(|l| l == name), "{name} in {legend:?}");
    }
    // Tables III/V's Star1, Table V's C(N), Table IV's Star2 and §6.2.1.3's 2-probe figure.
    assert!(
        legend.iter().filter(|l| l.ends_with("printed")).count() == 4,
        "the printed figures of Tables III, IV, V and §6.2.1.3: {legend:?}"
    );
}

/// `eval-learning --plot` draws two panels in one picture: beside the tic-tac-toe fit (checked
/// against the table as every chart is), the chess values per iteration — a thin line a fitted
/// seed and piece, a thick line a piece from 1 (all weights 1 at the start) to the mean the
/// notes print — with the slides' and the classical values marked and labelled.
#[test]
fn eval_learning_draws_the_chess_values_per_iteration_beside_the_tic_tac_toe_fit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.svg");
    let o = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "experiment",
            "eval-learning",
            "--trials",
            "150",
            "--sizes",
            "1,2",
        ])
        .args(["--plot", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    let options = Options {
        trials: Some(150),
        seed: 1,
        sizes: Some(vec![1, 2]),
    };
    let report = (experiment::find("eval-learning").unwrap().run)(&options, &|_| {}).unwrap();
    check("eval-learning", &report, &svg);
    let plot = report.plot.as_ref().unwrap();
    let left = experiment::plot::table_chart_left(&report, plot).unwrap();
    assert!(
        left > 0,
        "the chess panel is drawn beside the tic-tac-toe chart"
    );
    let chess = read(
        &svg,
        0.0,
        f64::from(left),
        "iteration of the outer loop",
        "value in pawns",
    );
    let pieces = ["queen", "rook", "bishop", "knight"];
    for piece in pieces {
        let name = format!("{piece} ÷ pawn");
        assert!(chess.legend.contains(&name), "{name} in {:?}", chess.legend);
    }
    let texts: Vec<String> = elements(&svg)
        .into_iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text)
        .collect();
    for label in [
        "9: classical Q",
        "8: slides Q",
        "5: classical R",
        "4: slides R, B",
        "3: slides N; classical B, N",
        "the slides' 8/4/4/3 and the classical 9/5/3/3",
    ] {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    // The means the notes print, over the seeds that have a fit.
    let notes = report.notes.join("\n");
    let summary = notes
        .lines()
        .find_map(|l| l.trim().strip_prefix("mean ± sd over the "))
        .expect("a summary over the seeds");
    let fitted: usize = summary.split(' ').next().unwrap().parse().unwrap();
    let mean = |piece: &str| -> f64 {
        let at = summary.find(&format!("{piece} ")).unwrap() + piece.len() + 1;
        summary[at..].split(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(chess.lines.len(), 4, "a thick line a piece");
    for (piece, line) in pieces.iter().zip(&chess.lines) {
        let (first, last) = (line[0], line[line.len() - 1]);
        assert!(
            (chess.ya.pixel(1.0) - first.1).abs() <= 1.5,
            "{piece} starts at 1"
        );
        assert!(
            (chess.xa.pixel(0.0) - first.0).abs() <= 1.5,
            "{piece} at iteration 0"
        );
        let m = mean(piece);
        assert!(
            (chess.ya.pixel(m) - last.1).abs() <= 1.5,
            "{piece} ends at the mean {m}: at pixel {}, drawn at {}",
            chess.ya.pixel(m),
            last.1
        );
    }
    let thin = elements(&svg)
        .into_iter()
        .filter(|e| e.tag == "polyline" && e.attrs["stroke-width"] == "1")
        .filter(|e| e.attrs.get("opacity").is_some_and(|o| o != "1"))
        .count();
    assert_eq!(thin, 4 * fitted, "a thin line a fitted seed and piece");
}
