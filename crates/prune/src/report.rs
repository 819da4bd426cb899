//! Tables of results: named columns and rows of typed cells, printed as an aligned text table,
//! CSV or JSON. The experiments' reports, `prune compare` and the statistics CSV all use it, so
//! a number is written the same way wherever it appears.

use std::fmt::Write as _;

use crate::format::number_text;

/// One cell. Each variant says how it is written in a text table, in CSV and in JSON.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// An integer, written as is everywhere.
    Int(i64),
    /// A real: with `d` decimals in tables, shortest (never an exponent) in CSV, a number in
    /// JSON (`null` when not finite).
    Real(f64, usize),
    /// A real with `d` decimals in tables and in CSV; a number in JSON.
    Fixed(f64, usize),
    /// A fraction shown as a percentage with `d` decimals in tables (`33.3%`); the fraction
    /// itself in CSV (as [`number_text`]) and JSON.
    Percent(f64, usize),
    /// A number as [`number_text`] writes it (integers without `.0`) in tables and CSV; in JSON a
    /// number (an integer when it is one), ±∞ as the strings `"inf"` and `"-inf"`, NaN as `null`.
    Num(f64),
    /// Text, as it is.
    Text(String),
    /// Nothing (a figure not printed, a run that did not happen): `—` in tables, an empty CSV
    /// field, JSON `null`.
    None,
}

impl Cell {
    /// The cell in a text table.
    pub fn text(&self) -> String {
        match self {
            Cell::Int(i) => i.to_string(),
            Cell::Real(x, d) | Cell::Fixed(x, d) => format!("{x:.d$}", d = *d),
            Cell::Percent(x, d) => format!("{:.d$}%", 100.0 * x, d = *d),
            Cell::Num(x) => number_text(*x),
            Cell::Text(s) => s.clone(),
            Cell::None => "—".into(),
        }
    }

    /// The cell as a CSV field, quoted when it must be.
    pub fn csv(&self) -> String {
        match self {
            Cell::None => String::new(),
            Cell::Real(x, _) => x.to_string(),
            Cell::Percent(x, _) | Cell::Num(x) => number_text(*x),
            Cell::Text(t) => {
                // Labels in a cell: no raw control or separator character in the file.
                let t = crate::text::terminal_safe(t);
                if t.contains([',', '"']) {
                    format!("\"{}\"", t.replace('"', "\"\""))
                } else {
                    t.into_owned()
                }
            }
            c => c.text(),
        }
    }

    /// The cell as a JSON value.
    pub fn json(&self) -> serde_json::Value {
        let real =
            |x: f64| serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, Into::into);
        match self {
            Cell::Int(i) => (*i).into(),
            Cell::Real(x, _) | Cell::Fixed(x, _) | Cell::Percent(x, _) => real(*x),
            Cell::Num(x) if x.is_infinite() => (if *x > 0.0 { "inf" } else { "-inf" }).into(),
            Cell::Num(x) if x.fract() == 0.0 && x.abs() < 1e15 => (*x as i64).into(),
            Cell::Num(x) => real(*x),
            Cell::Text(s) => s.clone().into(),
            Cell::None => serde_json::Value::Null,
        }
    }

    /// The number in the cell, if any (a percentage as its fraction).
    pub fn number(&self) -> Option<f64> {
        match self {
            Cell::Int(i) => Some(*i as f64),
            Cell::Real(x, _) | Cell::Fixed(x, _) | Cell::Percent(x, _) | Cell::Num(x) => Some(*x),
            Cell::Text(_) | Cell::None => None,
        }
    }

    /// `a − b` when both are numbers.
    pub fn diff(a: &Cell, b: &Cell) -> Cell {
        match (a, b) {
            (Cell::Int(x), Cell::Int(y)) => Cell::Int(x - y),
            (Cell::Int(x), Cell::Real(y, d)) => Cell::Real(*x as f64 - y, *d),
            (Cell::Real(x, d), Cell::Real(y, _)) => Cell::Real(x - y, *d),
            (Cell::Real(x, d), Cell::Int(y)) => Cell::Real(x - *y as f64, *d),
            _ => Cell::None,
        }
    }
}

/// Where a column's cells sit in a text table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Align {
    /// Against the column's left edge.
    Left,
    /// Against the column's right edge.
    Right,
}

/// A column: its JSON/CSV name and its heading in the text table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Column {
    /// The name in CSV and JSON.
    pub name: &'static str,
    /// The heading in the text table.
    pub heading: &'static str,
    /// Where the cells sit.
    pub align: Align,
}

/// A right-aligned column.
pub const fn col(name: &'static str, heading: &'static str) -> Column {
    Column {
        name,
        heading,
        align: Align::Right,
    }
}

impl Column {
    /// The same column, left-aligned.
    pub const fn left(self) -> Column {
        Column {
            align: Align::Left,
            ..self
        }
    }
}

/// The position of the column named `name`; a missing column is a bug in the caller.
pub fn column_index(columns: &[Column], name: &str) -> usize {
    columns
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

/// Columns and rows (each row has a cell per column).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows, a cell a column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table of `columns` and no rows.
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
        }
    }

    /// The cell of `row` in the column named `name`.
    pub fn get(&self, row: usize, name: &str) -> &Cell {
        &self.rows[row][column_index(&self.columns, name)]
    }

    /// The headings and the rows, each column as wide as its widest cell, two spaces apart,
    /// every line without trailing spaces.
    pub fn text(&self) -> String {
        let texts: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().map(Cell::text).collect())
            .collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                texts
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([self.columns[i].heading.chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut s = String::new();
        let mut line = |cells: &[String]| {
            let mut l = String::new();
            for (i, ((c, w), column)) in cells.iter().zip(&widths).zip(&self.columns).enumerate() {
                if i > 0 {
                    l.push_str("  ");
                }
                let _ = match column.align {
                    Align::Left => write!(l, "{c:<w$}"),
                    Align::Right => write!(l, "{c:>w$}"),
                };
            }
            s.push_str(l.trim_end());
            s.push('\n');
        };
        let head: Vec<String> = self.columns.iter().map(|c| c.heading.to_owned()).collect();
        line(&head);
        for r in &texts {
            line(r);
        }
        s
    }

    /// A header line of the column names, then a line per row.
    pub fn csv(&self) -> String {
        let mut s = self
            .columns
            .iter()
            .map(|c| c.name)
            .collect::<Vec<_>>()
            .join(",");
        s.push('\n');
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(Cell::csv).collect();
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        s
    }

    /// An array of objects, one per row, the column names as keys (in column order).
    pub fn json_value(&self) -> serde_json::Value {
        self.rows
            .iter()
            .map(|r| {
                let m: serde_json::Map<String, serde_json::Value> = self
                    .columns
                    .iter()
                    .zip(r)
                    .map(|(c, v)| (c.name.to_owned(), v.json()))
                    .collect();
                serde_json::Value::Object(m)
            })
            .collect()
    }

    /// [`Table::json_value`], pretty-printed, with a final newline.
    pub fn json(&self) -> String {
        crate::text::json_safe(
            serde_json::to_string_pretty(&self.json_value()).expect("rows serialise"),
        ) + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_agree() {
        let t = Table {
            columns: vec![col("n", "N"), col("x", "x"), col("paper", "paper")],
            rows: vec![
                vec![Cell::Int(2), Cell::Real(0.5, 2), Cell::None],
                vec![Cell::Int(10), Cell::Real(1.25, 2), Cell::Int(3)],
            ],
        };
        assert_eq!(
            t.text(),
            " N     x  paper\n 2  0.50      —\n10  1.25      3\n"
        );
        assert_eq!(t.csv(), "n,x,paper\n2,0.5,\n10,1.25,3\n");
        let v: serde_json::Value = serde_json::from_str(&t.json()).unwrap();
        assert_eq!(v[1]["x"], 1.25);
        assert!(v[0]["paper"].is_null());
    }

    #[test]
    fn alignment_and_formats() {
        let t = Table {
            columns: vec![
                col("name", "name").left(),
                col("share", "share"),
                col("v", "v"),
            ],
            rows: vec![
                vec![
                    Cell::Text("a,b".into()),
                    Cell::Percent(0.5, 1),
                    Cell::Num(3.0),
                ],
                vec![
                    Cell::Text("long".into()),
                    Cell::None,
                    Cell::Num(f64::INFINITY),
                ],
            ],
        };
        assert_eq!(
            t.text(),
            "name  share    v\na,b   50.0%    3\nlong      —  inf\n"
        );
        assert_eq!(t.csv(), "name,share,v\n\"a,b\",0.5,3\nlong,,inf\n");
        let v = t.json_value();
        assert_eq!(v[0]["share"], 0.5);
        assert_eq!(v[0]["v"], 3.0);
        assert_eq!(v[1]["v"], "inf");
        assert!(v[1]["share"].is_null());
    }
}
