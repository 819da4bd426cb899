//! A line chart of a report as SVG, drawn with plotters' SVG backend (pure Rust, no fonts).
//!
//! A [`Plot`] names the x column, the measured and printed [`Series`] and the columns that split
//! rows into lines. Every series gets its own legend entry, an Okabe–Ito colour and its own
//! marker, so lines stay apart for colour-blind readers and on a greyscale printer; the paper's
//! printed figures are hollow rings in their measured twin's colour. An axis whose values span
//! more than two decades is logarithmic, and says so in its label. The title wraps to the canvas
//! and the legend sits beside the plot, sized to its longest entry, so neither is cut off.
//!
//! Each series is one 2-pixel `<polyline>` (its points in order, even a lone printed point)
//! followed by its markers and its error bars (1 pixel wide, where the series has an interval),
//! in legend order; axes and ticks are 1 pixel wide, and the legend draws markers only.
//! tests/app/plots.rs reads the points back through the tick labels and checks
//! them against the table.
//!
//! A [`Figure`] beside the table's chart is a panel of its own, left of it in the same picture,
//! each panel with its heading: groups of thin 1-pixel lines (faint, no markers, no legend
//! entry: one run each) with a thick line summing them up, and dashed reference values
//! labelled on their line. Its y axis goes logarithmic past one decade.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::element::ComposedElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Report;

/// One line of a chart: a numeric column of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The column plotted.
    pub column: &'static str,
    /// The legend entry (the group's values are appended when the plot splits rows).
    pub label: &'static str,
    /// The paper's printed figure, not ours: the measured column whose colour it takes.
    pub printed_beside: Option<&'static str>,
    /// An interval around each point (the low and the high column: a 95 % confidence interval),
    /// drawn as an error bar in the series' colour, not as lines of their own.
    pub interval: Option<(&'static str, &'static str)>,
}

impl Series {
    /// The series with an error bar at each point, from column `low` to column `high`.
    pub fn with_interval(self, low: &'static str, high: &'static str) -> Series {
        Series {
            interval: Some((low, high)),
            ..self
        }
    }
}

/// A column prune measured or computed.
pub fn measured(column: &'static str, label: &'static str) -> Series {
    Series {
        column,
        label,
        printed_beside: None,
        interval: None,
    }
}

/// A column of the paper's printed figures, drawn in the colour of the `beside` series.
pub fn printed(column: &'static str, label: &'static str, beside: &'static str) -> Series {
    Series {
        column,
        label,
        printed_beside: Some(beside),
        interval: None,
    }
}

/// What to plot of a report: which columns, how to group the rows, the axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The column on the x axis.
    pub x: &'static str,
    /// The series, in legend order.
    pub series: Vec<Series>,
    /// Rows with equal values in these columns form one line of each series.
    pub series_by: Vec<&'static str>,
    /// The x axis's label, with its unit.
    pub x_label: &'static str,
    /// The y axis's label, with its unit.
    pub y_label: &'static str,
    /// Every y shown as 100·y / x³: Ballard's leaves as a percentage of the N³ leaves of the
    /// tree, for columns (printed ones among them) that the table gives in leaves only.
    pub y_percent_of_x_cubed: bool,
    /// Only rows whose column (first) shows this text (second).
    pub only: Option<(&'static str, &'static str)>,
    /// A panel of its own drawn to the left of the table's chart, in one picture.
    pub beside: Option<Figure>,
}

/// A panel drawn from lines given directly, not from the table: a few groups, each a bundle
/// of thin lines (runs, e.g. one a seed) and a thick line summing them up, with horizontal
/// reference values marked and labelled.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The panel's heading.
    pub title: String,
    /// The heading of the table's chart beside it.
    pub table_title: String,
    /// The x axis's label, with its unit.
    pub x_label: &'static str,
    /// The y axis's label, with its unit.
    pub y_label: &'static str,
    /// The groups, in legend order.
    pub groups: Vec<Group>,
    /// Reference values, each a dashed horizontal line with its label.
    pub marks: Vec<Mark>,
    /// The legend entry of the marks.
    pub marks_label: String,
}

/// One group of a [`Figure`]: one legend entry, one colour and marker.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The legend entry.
    pub label: String,
    /// Thin lines, without markers.
    pub runs: Vec<Vec<(f64, f64)>>,
    /// The thick line, with markers.
    pub summary: Vec<(f64, f64)>,
}

/// A reference value of a [`Figure`]: a dashed line across the panel at `y`, labelled.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Where the line is.
    pub y: f64,
    /// Its label, written on the line.
    pub label: String,
}

/// Okabe & Ito's palette, yellow left out (too faint on white), ordered so neighbours differ in
/// lightness too.
const COLOURS: [RGBColor; 7] = [
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
];

/// Marker shapes; with 7 colours and 6 shapes, the first 42 series differ in both or in one.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Marker {
    Dot,
    Triangle,
    Square,
    Diamond,
    Plus,
    TriangleDown,
    /// The paper's printed figure.
    Ring,
}

const MARKERS: [Marker; 6] = [
    Marker::Dot,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::Plus,
    Marker::TriangleDown,
];

/// One line as drawn: its legend entry, style and data points.
struct Line {
    label: String,
    colour: RGBColor,
    marker: Marker,
    points: Vec<(f64, f64)>,
    /// Error bars: x, low and high.
    bars: Vec<(f64, f64, f64)>,
    /// A thin line: 1 pixel, faint, no markers, no legend entry (one run of a [`Group`]).
    thin: bool,
}

impl Line {
    /// A data line of `points`, drawn 2 pixels wide with its markers and legend entry.
    fn new(label: String, colour: RGBColor, marker: Marker, points: Vec<(f64, f64)>) -> Line {
        Line {
            label,
            colour,
            marker,
            points,
            bars: Vec::new(),
            thin: false,
        }
    }
}

/// At most this many markers on a line: a marker on each of a hundred iterations is a smear.
const MOST_MARKERS: usize = 25;

const FONT: &str = "sans-serif";
/// Font sizes as plotters takes them: it writes 1/1.24 of them into the SVG (18 and 14 px).
const TITLE_PX: u32 = 22;
const TEXT_PX: u32 = 17;
const PLOT_WIDTH: u32 = 680;
const HEIGHT: u32 = 520;
const LEGEND_ROW: u32 = 24;

/// An estimate of a text's width in pixels at plotters' size `px`: SVG has no font metrics, and
/// sans-serif glyphs average a little over half an em.
fn text_width(s: &str, px: u32) -> u32 {
    (s.chars().count() as f64 * f64::from(px) / 1.24 * 0.58).ceil() as u32
}

/// `title` broken at spaces into lines no wider than `width` pixels.
fn wrap(title: &str, width: u32, px: u32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in title.split_whitespace() {
        match lines.last_mut() {
            Some(l) if text_width(&format!("{l} {word}"), px) <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// The report's rows as lines: each series, split by the `series_by` columns.
fn lines(report: &Report, plot: &Plot) -> Result<Vec<Line>, String> {
    let col = |name: &str| {
        report
            .columns
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| format!("no column {name} to plot"))
    };
    let xi = col(plot.x)?;
    let gis: Vec<usize> = plot
        .series_by
        .iter()
        .map(|g| col(g))
        .collect::<Result<_, _>>()?;
    let only = match plot.only {
        Some((c, v)) => Some((col(c)?, v)),
        None => None,
    };
    // Lines with their series' column and group, to find a printed line's measured twin.
    let mut out: Vec<(Line, &str, String)> = Vec::new();
    for s in &plot.series {
        let yi = col(s.column)?;
        let interval = match s.interval {
            Some((lo, hi)) => Some((col(lo)?, col(hi)?)),
            None => None,
        };
        let first = out.len();
        for row in &report.rows {
            if only.is_some_and(|(c, v)| row[c].text() != v) {
                continue;
            }
            let (Some(x), Some(mut y)) = (row[xi].number(), row[yi].number()) else {
                continue;
            };
            let scale = |v: f64| match plot.y_percent_of_x_cubed {
                true => 100.0 * v / x.powi(3),
                false => v,
            };
            y = scale(y);
            let bar = interval.and_then(|(lo, hi)| match (row[lo].number(), row[hi].number()) {
                (Some(lo), Some(hi)) => Some((x, scale(lo), scale(hi))),
                _ => None,
            });
            let key: Vec<String> = gis
                .iter()
                .map(|&g| format!("{}={}", report.columns[g].heading, row[g].text()))
                .collect();
            let key = key.join(", ");
            let label = match key.is_empty() {
                true => s.label.to_owned(),
                false => format!("{} ({key})", s.label),
            };
            if let Some((l, _, _)) = out[first..].iter_mut().find(|(l, _, _)| l.label == label) {
                l.points.push((x, y));
                l.bars.extend(bar);
                continue;
            }
            let measured = out
                .iter()
                .filter(|(l, _, _)| l.marker != Marker::Ring)
                .count();
            let (colour, marker) = match s.printed_beside {
                Some(twin) => {
                    let c = out.iter().find(|(_, c, k)| *c == twin && *k == key);
                    let c = c.ok_or_else(|| {
                        format!(
                            "{} is printed beside {twin}, not plotted before it",
                            s.column
                        )
                    })?;
                    (c.0.colour, Marker::Ring)
                }
                None => (
                    COLOURS[measured % COLOURS.len()],
                    MARKERS[measured % MARKERS.len()],
                ),
            };
            let line = Line {
                bars: bar.into_iter().collect(),
                ..Line::new(label, colour, marker, vec![(x, y)])
            };
            out.push((line, s.column, key));
        }
    }
    let out: Vec<Line> = out.into_iter().map(|(l, _, _)| l).collect();
    if out.is_empty() {
        return Err("nothing to plot".into());
    }
    Ok(out)
}

/// An axis: its data range, padded, and whether it is logarithmic.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

/// The axis over `values`: logarithmic when all are positive and span more than two decades;
/// otherwise linear, from zero when all are positive and `from_zero` (bars of counts and shares
/// read wrongly from an offset origin).
fn axis(values: impl Iterator<Item = f64> + Clone, from_zero: bool) -> Axis {
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    if lo > 0.0 && hi / lo > 100.0 {
        return Axis {
            lo: lo / 1.3,
            hi: hi * 1.3,
            log: true,
        };
    }
    let lo = if from_zero { lo.min(0.0) } else { lo };
    let pad = if hi > lo {
        (hi - lo) * 0.04
    } else {
        lo.abs().max(1.0) * 0.5
    };
    Axis {
        lo: if from_zero && lo == 0.0 {
            0.0
        } else {
            lo - pad
        },
        hi: hi + pad,
        log: false,
    }
}

/// A tick value as text: few digits, no trailing zeros.
fn tick(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e6 || v.abs() < 1e-3) {
        format!("{v:.0e}")
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// The axis label, marked when logarithmic.
fn axis_label(label: &str, a: &Axis) -> String {
    match a.log {
        true => format!("{label} (log scale)"),
        false => label.to_owned(),
    }
}

/// One panel of a picture: its lines and marks, axes, labels and heading.
struct Panel {
    heading: Option<String>,
    lines: Vec<Line>,
    marks: Vec<Mark>,
    /// The marks' legend entry.
    marks_label: Option<String>,
    x_label: &'static str,
    y_label: &'static str,
}

impl Panel {
    /// The table's chart.
    fn of_table(report: &Report, plot: &Plot) -> Result<Panel, String> {
        Ok(Panel {
            heading: plot.beside.as_ref().map(|f| f.table_title.clone()),
            lines: lines(report, plot)?,
            marks: Vec::new(),
            marks_label: None,
            x_label: plot.x_label,
            y_label: plot.y_label,
        })
    }

    /// A [`Figure`]'s panel: each group's runs (thin) and summary, in the group's colour.
    fn of_figure(f: &Figure) -> Result<Panel, String> {
        let mut lines = Vec::new();
        for (i, g) in f.groups.iter().enumerate() {
            let (colour, marker) = (COLOURS[i % COLOURS.len()], MARKERS[i % MARKERS.len()]);
            for run in g.runs.iter().filter(|r| !r.is_empty()) {
                lines.push(Line {
                    thin: true,
                    ..Line::new(g.label.clone(), colour, marker, run.clone())
                });
            }
            if !g.summary.is_empty() {
                lines.push(Line::new(
                    g.label.clone(),
                    colour,
                    marker,
                    g.summary.clone(),
                ));
            }
        }
        if lines.is_empty() {
            return Err("nothing to plot".into());
        }
        Ok(Panel {
            heading: Some(f.title.clone()),
            lines,
            marks: f.marks.clone(),
            marks_label: (!f.marks.is_empty()).then(|| f.marks_label.clone()),
            x_label: f.x_label,
            y_label: f.y_label,
        })
    }

    /// The legend's entries: the lines that have one, then the marks'.
    fn legend(&self) -> impl Iterator<Item = &str> {
        let lines = self
            .lines
            .iter()
            .filter(|l| !l.thin)
            .map(|l| l.label.as_str());
        lines.chain(self.marks_label.as_deref())
    }

    /// The plot's width and the legend's beside it.
    fn width(&self) -> u32 {
        let legend = self.legend().map(|l| text_width(l, TEXT_PX)).max();
        PLOT_WIDTH + legend.unwrap_or(0) + 48
    }

    /// The plot's height: the legend's rows may outgrow it.
    fn height(&self) -> u32 {
        HEIGHT.max(LEGEND_ROW * (self.legend().count() as u32 + 1))
    }

    /// The axes: x over the points, y over the points, error bars and marks. A figure's y axis
    /// goes logarithmic past one decade, so that values near the marks stay apart when a run
    /// strays far above them.
    fn axes(&self) -> (Axis, Axis) {
        let xs = self.lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
        let ys = self.lines.iter().flat_map(|l| {
            let bars = l.bars.iter().flat_map(|&(_, lo, hi)| [lo, hi]);
            l.points.iter().map(|p| p.1).chain(bars)
        });
        let ys = ys.chain(self.marks.iter().map(|m| m.y));
        let mut ya = axis(ys.clone(), true);
        if self.heading.is_some() && !self.marks.is_empty() && !ya.log {
            let (lo, hi) = ys.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
            if lo > 0.0 && hi / lo > 10.0 {
                ya = Axis {
                    lo: lo / 1.2,
                    hi: hi * 1.2,
                    log: true,
                };
            }
        }
        (axis(xs, false), ya)
    }

    /// The panel on `area`: its heading (`heading_height` pixels), plot and legend.
    fn draw(
        &self,
        area: &DrawingArea<SVGBackend, Shift>,
        heading_height: u32,
    ) -> Result<(), String> {
        let (head, body) = area.split_vertically(heading_height);
        if let Some(heading) = &self.heading {
            let width = area.dim_in_pixel().0;
            for (i, line) in wrap(heading, width - 40, TEXT_PX).iter().enumerate() {
                let style = (FONT, TEXT_PX)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Top));
                let y = 4 + i as i32 * (TEXT_PX as i32 + 4);
                head.draw(&Text::new(line.as_str(), (width as i32 / 2, y), style))
                    .map_err(|e| e.to_string())?;
            }
        }
        let (chart, legend) = body.split_horizontally(PLOT_WIDTH);
        let (xa, ya) = self.axes();
        let (x_label, y_label) = (axis_label(self.x_label, &xa), axis_label(self.y_label, &ya));
        let whole_x = self
            .lines
            .iter()
            .all(|l| l.points.iter().all(|p| p.0.fract() == 0.0));
        let labels = Labels {
            x: &x_label,
            y: &y_label,
            whole_x,
            x_ticks: match whole_x && !xa.log {
                true => ((xa.hi - xa.lo).floor() as usize + 1).clamp(2, 10),
                false => 10,
            },
        };
        let (lines, marks) = (&self.lines[..], &self.marks[..]);
        let x_span = (xa.lo, xa.hi);
        match (xa.log, ya.log) {
            (false, false) => draw(
                &chart,
                xa.lo..xa.hi,
                ya.lo..ya.hi,
                labels,
                lines,
                marks,
                x_span,
            ),
            (false, true) => draw(
                &chart,
                xa.lo..xa.hi,
                (ya.lo..ya.hi).log_scale(),
                labels,
                lines,
                marks,
                x_span,
            ),
            (true, false) => draw(
                &chart,
                (xa.lo..xa.hi).log_scale(),
                ya.lo..ya.hi,
                labels,
                lines,
                marks,
                x_span,
            ),
            (true, true) => draw(
                &chart,
                (xa.lo..xa.hi).log_scale(),
                (ya.lo..ya.hi).log_scale(),
                labels,
                lines,
                marks,
                x_span,
            ),
        }?;
        draw_legend(&legend, self)
    }
}

/// The heading's height: a line of text a wrapped line, for the panel of `width` pixels.
fn heading_height(panel: &Panel, width: u32) -> u32 {
    panel.heading.as_ref().map_or(0, |h| {
        8 + wrap(h, width - 40, TEXT_PX).len() as u32 * (TEXT_PX + 4)
    })
}

/// The panels of the report's picture, left to right: the figure beside the table's chart,
/// if any, then the table's chart.
fn panels(report: &Report, plot: &Plot) -> Result<Vec<Panel>, String> {
    let mut out = Vec::new();
    if let Some(f) = &plot.beside {
        out.push(Panel::of_figure(f)?);
    }
    out.push(Panel::of_table(report, plot)?);
    Ok(out)
}

/// Where the table's chart starts, in pixels from the picture's left edge (0 unless a
/// [`Figure`] is drawn beside it).
pub fn table_chart_left(report: &Report, plot: &Plot) -> Result<u32, String> {
    let panels = panels(report, plot)?;
    Ok(panels[..panels.len() - 1].iter().map(Panel::width).sum())
}

/// The report's plot as an SVG document.
pub fn svg(report: &Report, plot: &Plot) -> Result<String, String> {
    let panels = panels(report, plot)?;
    let widths: Vec<u32> = panels.iter().map(Panel::width).collect();
    let width: u32 = widths.iter().sum();
    let title = wrap(&report.title, width - 40, TITLE_PX);
    let title_height = 16 + title.len() as u32 * (TITLE_PX + 6);
    let headings = panels
        .iter()
        .zip(&widths)
        .map(|(p, &w)| heading_height(p, w))
        .max()
        .unwrap_or(0);
    let height = panels.iter().map(Panel::height).max().unwrap_or(HEIGHT) + headings;
    let mut out = String::new();
    {
        let root =
            SVGBackend::with_string(&mut out, (width, height + title_height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (head, mut body) = root.split_vertically(title_height);
        for (i, line) in title.iter().enumerate() {
            let style = (FONT, TITLE_PX)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top));
            let y = 10 + i as i32 * (TITLE_PX as i32 + 6);
            head.draw(&Text::new(line.as_str(), (width as i32 / 2, y), style))
                .map_err(|e| e.to_string())?;
        }
        for (panel, &w) in panels.iter().zip(&widths) {
            let (area, rest) = body.split_horizontally(w);
            panel.draw(&area, headings)?;
            body = rest;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The axes' labels, and whether every x is a whole number (depths, sizes: no ticks between).
#[derive(Clone, Copy)]
struct Labels<'a> {
    x: &'a str,
    y: &'a str,
    whole_x: bool,
    /// At most this many x ticks: one a whole number where they fit.
    x_ticks: usize,
}

/// The axes, mesh, marks and lines on `area`; `x_span` is the x axis's range, which the marks
/// cross.
fn draw<X, Y>(
    area: &DrawingArea<SVGBackend, Shift>,
    x: X,
    y: Y,
    labels: Labels,
    lines: &[Line],
    marks: &[Mark],
    x_span: (f64, f64),
) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(52)
        .y_label_area_size(76)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(labels.x)
        .y_desc(labels.y)
        .x_labels(labels.x_ticks)
        .x_label_formatter(&|v| match labels.whole_x && v.fract() != 0.0 {
            true => String::new(),
            false => tick(*v),
        })
        .y_label_formatter(&|v| tick(*v))
        .label_style((FONT, TEXT_PX))
        .axis_desc_style((FONT, TEXT_PX))
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(0xcc, 0xcc, 0xcc))
        .draw()
        .map_err(err)?;
    // The marks under the data: dashed, 1 pixel, each labelled at the left end, where the
    // runs have not yet settled on a value: above its line, or below it when the next mark up
    // is too close for the label.
    let mut sorted: Vec<&Mark> = marks.iter().collect();
    sorted.sort_by(|a, b| a.y.total_cmp(&b.y));
    let pixels: Vec<i32> = sorted
        .iter()
        .map(|m| chart.as_coord_spec().translate(&(x_span.0, m.y)).1)
        .collect();
    for (i, m) in sorted.iter().enumerate() {
        let grey = MARK_GREY.stroke_width(1);
        chart
            .draw_series(DashedLineSeries::new(
                [(x_span.0, m.y), (x_span.1, m.y)],
                6,
                4,
                grey,
            ))
            .map_err(err)?;
        let crowded = pixels
            .get(i + 1)
            .is_some_and(|&next| pixels[i] - next < TEXT_PX as i32);
        let (v, dy) = match crowded {
            true => (VPos::Top, 2),
            false => (VPos::Bottom, -2),
        };
        let style = (FONT, TEXT_PX)
            .into_font()
            .color(&MARK_GREY)
            .pos(Pos::new(HPos::Left, v));
        let label = EmptyElement::at((x_span.0, m.y)) + Text::new(m.label.clone(), (4, dy), style);
        chart.draw_series([label]).map_err(err)?;
    }
    for l in lines {
        let style = match l.thin {
            true => l.colour.mix(0.45).stroke_width(1),
            false => l.colour.stroke_width(2),
        };
        chart
            .draw_series(LineSeries::new(l.points.iter().copied(), style))
            .map_err(err)?;
        if l.thin {
            continue;
        }
        let step = l.points.len().div_ceil(MOST_MARKERS).max(1);
        chart
            .draw_series(
                l.points
                    .iter()
                    .step_by(step)
                    .map(|&p| marker(p, l.colour, l.marker)),
            )
            .map_err(err)?;
        // Error bars: 1 pixel wide (the series are the 2-pixel lines), capped 5 pixels a side.
        for &(x, lo, hi) in &l.bars {
            let bar = l.colour.stroke_width(1);
            let cap =
                |y: f64| EmptyElement::at((x, y)) + PathElement::new(vec![(-5, 0), (5, 0)], bar);
            chart
                .draw_series([PathElement::new(vec![(x, lo), (x, hi)], bar)])
                .map_err(err)?;
            chart.draw_series([cap(lo), cap(hi)]).map_err(err)?;
        }
    }
    Ok(())
}

/// The marks' colour: grey, behind the data.
const MARK_GREY: RGBColor = RGBColor(0x70, 0x70, 0x70);

/// A marker drawn at a data point: offsets in pixels from it.
type MarkerElement<C, DB> = ComposedElement<C, DB, Polygon<(i32, i32)>, Circle<(i32, i32), i32>>;

/// A marker of `kind` centred on `at`: a polygon and a circle, the one unused transparent, so
/// every shape is one type (plotters draws nothing of a transparent element).
fn marker<DB: DrawingBackend, C>(at: C, colour: RGBColor, kind: Marker) -> MarkerElement<C, DB> {
    let none = TRANSPARENT.filled();
    let (polygon, circle): (Vec<(i32, i32)>, _) = match kind {
        Marker::Dot => (vec![], Circle::new((0, 0), 4, colour.filled())),
        Marker::Ring => (vec![], Circle::new((0, 0), 7, colour.stroke_width(2))),
        Marker::Triangle => (vec![(0, -6), (6, 4), (-6, 4)], Circle::new((0, 0), 0, none)),
        Marker::TriangleDown => (
            vec![(0, 6), (6, -4), (-6, -4)],
            Circle::new((0, 0), 0, none),
        ),
        Marker::Square => (
            vec![(-4, -4), (4, -4), (4, 4), (-4, 4)],
            Circle::new((0, 0), 0, none),
        ),
        Marker::Diamond => (
            vec![(0, -6), (6, 0), (0, 6), (-6, 0)],
            Circle::new((0, 0), 0, none),
        ),
        Marker::Plus => (
            vec![
                (-2, -6),
                (2, -6),
                (2, -2),
                (6, -2),
                (6, 2),
                (2, 2),
                (2, 6),
                (-2, 6),
                (-2, 2),
                (-6, 2),
                (-6, -2),
                (-2, -2),
            ],
            Circle::new((0, 0), 0, none),
        ),
    };
    let style = if polygon.is_empty() {
        none
    } else {
        colour.filled()
    };
    EmptyElement::at(at) + Polygon::new(polygon, style) + circle
}

/// The legend: a marker and a label a line, in the series' order, then the marks' entry (a
/// dashed stroke).
fn draw_legend(area: &DrawingArea<SVGBackend, Shift>, panel: &Panel) -> Result<(), String> {
    let style = (FONT, TEXT_PX)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut row = 0;
    for l in panel.lines.iter().filter(|l| !l.thin) {
        row += 1;
        let y = (LEGEND_ROW * row) as i32;
        area.draw(&marker((14, y), l.colour, l.marker))
            .map_err(|e| e.to_string())?;
        area.draw(&Text::new(l.label.as_str(), (30, y), style.clone()))
            .map_err(|e| e.to_string())?;
    }
    if let Some(label) = &panel.marks_label {
        let y = (LEGEND_ROW * (row + 1)) as i32;
        for x in [4, 16] {
            let dash = PathElement::new(vec![(x, y), (x + 8, y)], MARK_GREY.stroke_width(1));
            area.draw(&dash).map_err(|e| e.to_string())?;
        }
        area.draw(&Text::new(label.as_str(), (30, y), style))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Cell, col};

    #[test]
    fn a_line_per_series_and_group_with_a_legend_entry() {
        let r = Report {
            title: "t <1>".into(),
            columns: vec![
                col("b", "b"),
                col("d", "d"),
                col("y", "leaves"),
                col("p", "paper"),
            ],
            rows: vec![
                vec![Cell::Int(2), Cell::Int(1), Cell::Real(2.0, 1), Cell::None],
                vec![Cell::Int(2), Cell::Int(2), Cell::Real(4.0, 1), Cell::Int(5)],
                vec![Cell::Int(3), Cell::Int(1), Cell::Real(3.0, 1), Cell::None],
            ],
            notes: vec![],
            plot: None,
        };
        let p = Plot {
            x: "d",
            series: vec![measured("y", "leaves"), printed("p", "printed", "y")],
            series_by: vec!["b"],
            x_label: "depth",
            y_label: "leaves",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        };
        let s = svg(&r, &p).unwrap();
        assert!(s.starts_with("<svg"));
        let lines = s
            .lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(r#"stroke-width="2""#));
        assert_eq!(
            lines.count(),
            3,
            "a line per series and group; axes are 1 pixel wide"
        );
        for name in ["leaves (b=2)", "leaves (b=3)", "printed (b=2)"] {
            assert!(s.contains(&format!("\n{name}\n</text>")), "{name}");
        }
        assert!(s.contains("t &lt;1&gt;"));
    }

    #[test]
    fn long_titles_wrap_and_wide_spans_go_logarithmic() {
        let t = "Ballard 1982, Tables I and II: leaves under the + node of the best-ordered tree";
        let lines = wrap(t, 300, 18);
        assert!(lines.len() > 1 && lines.iter().all(|l| text_width(l, 18) <= 300));
        assert_eq!(lines.join(" "), t);
        assert!(axis([1.0, 1000.0].into_iter(), true).log);
        assert!(!axis([1.0, 50.0].into_iter(), true).log);
        assert!(!axis([0.0, 1000.0].into_iter(), true).log);
    }
}
