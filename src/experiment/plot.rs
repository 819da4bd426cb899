//! A line chart of a report as SVG, written by hand: no fonts or system libraries needed.
//!
//! A [`Plot`] names the x column, the y columns and the columns that split rows into series
//! (one line per value of those columns and per y column).

use std::fmt::Write as _;

use super::Report;

/// What to plot of a report: which columns, how to group the rows, the axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The column on the x axis.
    pub x: &'static str,
    /// The columns on the y axis, a series each.
    pub ys: Vec<&'static str>,
    /// Rows with equal values in these columns form one series.
    pub series_by: Vec<&'static str>,
    /// The x axis's label.
    pub x_label: &'static str,
    /// The y axis's label.
    pub y_label: &'static str,
    /// A logarithmic y axis.
    pub log_y: bool,
    /// Only rows whose column (first) shows this text (second).
    pub only: Option<(&'static str, &'static str)>,
}

/// Okabe & Ito's palette: told apart with any colour vision.
const COLOURS: [&str; 8] = [
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442", "#000000",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// "Nice" tick values covering `lo..hi`.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-12);
    let raw = span / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 7.0)
        .unwrap_or(10.0 * mag);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn label(x: f64) -> String {
    if x.abs() >= 1e5 || (x != 0.0 && x.abs() < 1e-3) {
        format!("{x:.0e}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// The report's plot as an SVG document.
pub fn svg(report: &Report, plot: &Plot) -> Result<String, String> {
    let col = |name: &str| {
        report
            .columns
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| format!("no column {name} to plot"))
    };
    let xi = col(plot.x)?;
    let yis: Vec<usize> = plot.ys.iter().map(|y| col(y)).collect::<Result<_, _>>()?;
    let gis: Vec<usize> = plot
        .series_by
        .iter()
        .map(|g| col(g))
        .collect::<Result<_, _>>()?;
    // Series: (name, points).
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let only = match plot.only {
        Some((c, v)) => Some((col(c)?, v)),
        None => None,
    };
    for &yi in &yis {
        for row in &report.rows {
            if let Some((c, v)) = only {
                if row[c].text() != v {
                    continue;
                }
            }
            let key: Vec<String> = gis
                .iter()
                .map(|&g| format!("{}={}", report.columns[g].heading, row[g].text()))
                .collect();
            let mut name = report.columns[yi].heading.to_owned();
            if !key.is_empty() {
                name = format!("{name} ({})", key.join(", "));
            }
            let (Some(x), Some(mut y)) = (row[xi].number(), row[yi].number()) else {
                continue;
            };
            if plot.log_y {
                if y <= 0.0 {
                    continue;
                }
                y = y.log10();
            }
            match series.iter_mut().find(|(n, _)| *n == name) {
                Some((_, pts)) => pts.push((x, y)),
                None => series.push((name, vec![(x, y)])),
            }
        }
    }
    let pts: Vec<(f64, f64)> = series.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    if pts.is_empty() {
        return Err("nothing to plot".into());
    }
    let (x0, x1) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (mut y0, mut y1) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    if !plot.log_y {
        y0 = y0.min(0.0);
    }
    if y1 - y0 < 1e-12 {
        y1 = y0 + 1.0;
    }
    let (w, h) = (860.0, 520.0);
    let (left, right, top, bottom) = (80.0, 260.0, 40.0, 60.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let sx = |x: f64| {
        left + if x1 > x0 {
            (x - x0) / (x1 - x0) * pw
        } else {
            pw / 2.0
        }
    };
    let sy = |y: f64| top + ph - (y - y0) / (y1 - y0) * ph;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="22" font-size="14">{}</text>"#,
        esc(&report.title)
    );
    // Axes and ticks.
    let _ = writeln!(
        s,
        r#"<path d="M{left},{top} V{} H{}" fill="none" stroke="black"/>"#,
        top + ph,
        left + pw
    );
    for t in ticks(x0, x1) {
        let x = sx(t);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{0}" x2="{x:.1}" y2="{1}" stroke="#ddd"/><text x="{x:.1}" y="{2}" text-anchor="middle">{3}</text>"##,
            top,
            top + ph,
            top + ph + 18.0,
            label(t)
        );
    }
    for t in ticks(y0, y1) {
        let y = sy(t);
        let text = if plot.log_y {
            label(10f64.powf(t))
        } else {
            label(t)
        };
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{0}" y2="{y:.1}" stroke="#ddd"/><text x="{1}" y="{2:.1}" text-anchor="end">{3}</text>"##,
            left + pw,
            left - 6.0,
            y + 4.0,
            text
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        left + pw / 2.0,
        h - 18.0,
        esc(plot.x_label)
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(20,{}) rotate(-90)" text-anchor="middle">{}{}</text>"#,
        top + ph / 2.0,
        esc(plot.y_label),
        if plot.log_y { " (log scale)" } else { "" }
    );
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let dash = if i >= COLOURS.len() {
            r#" stroke-dasharray="6 3""#
        } else {
            ""
        };
        let path: Vec<String> = pts
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"{dash}/>"#,
            path.join(" ")
        );
        for &(x, y) in pts {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#,
                sx(x),
                sy(y)
            );
        }
        let ly = top + 14.0 + 18.0 * i as f64;
        let lx = left + pw + 16.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            esc(name)
        );
    }
    s.push_str("</svg>\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Cell, col};

    #[test]
    fn series_lines_and_legend() {
        let r = Report {
            title: "t <1>".into(),
            columns: vec![col("b", "b"), col("d", "d"), col("y", "leaves")],
            rows: vec![
                vec![Cell::Int(2), Cell::Int(1), Cell::Real(2.0, 1)],
                vec![Cell::Int(2), Cell::Int(2), Cell::Real(4.0, 1)],
                vec![Cell::Int(3), Cell::Int(1), Cell::Real(3.0, 1)],
            ],
            notes: vec![],
            plot: None,
        };
        let p = Plot {
            x: "d",
            ys: vec!["y"],
            series_by: vec!["b"],
            x_label: "depth",
            y_label: "leaves",
            log_y: true,
            only: None,
        };
        let s = svg(&r, &p).unwrap();
        assert!(s.starts_with("<svg"));
        assert_eq!(s.matches("<polyline").count(), 2);
        assert!(s.contains("leaves (b=2)") && s.contains("leaves (b=3)"));
        assert!(s.contains("t &lt;1&gt;"));
        let t = ticks(0.0, 1.0);
        assert_eq!((t.len(), t[0], t[1]), (6, 0.0, 0.2));
    }
}
