//! Cutting text to a width. Every place the explorer shortens text goes through here, so a cut
//! is always marked with `…`, widths are terminal columns (a wide character takes two), and a
//! cut never falls inside a number: `β12…` would read as a count, a smaller one than `β1234`.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The mark of a cut.
pub const ELLIPSIS: char = '…';

/// Columns `s` takes on a terminal.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Where to cut `s` so that what is kept and `…` fit in `w` columns: the byte length kept, or
/// `None` when `s` fits whole. A number the cut would split goes whole, with its sign.
pub fn cut_at(s: &str, w: usize) -> Option<usize> {
    if width(s) <= w {
        return None;
    }
    let room = w.saturating_sub(1);
    let mut end = 0;
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += c.width().unwrap_or(0);
        if used > room {
            break;
        }
        end = i + c.len_utf8();
    }
    Some(before_number(s, end))
}

/// `s` in at most `w` columns: whole when it fits, else cut and ending in `…`.
pub fn cut(s: &str, w: usize) -> Cow<'_, str> {
    match cut_at(s, w) {
        None => Cow::Borrowed(s),
        Some(_) if w == 0 => Cow::Borrowed(""),
        Some(end) => Cow::Owned(format!("{}{ELLIPSIS}", &s[..end])),
    }
}

/// [`cut`], padded with spaces to exactly `w` columns: a cell of a table.
pub fn pad(s: &str, w: usize) -> String {
    let c = cut(s, w);
    let fill = w.saturating_sub(width(&c));
    format!("{c}{}", " ".repeat(fill))
}

/// `s` in at most `w` columns keeping its end: `…` and the tail, where names that share a
/// long beginning differ.
pub fn cut_left(s: &str, w: usize) -> Cow<'_, str> {
    if width(s) <= w {
        return Cow::Borrowed(s);
    }
    let room = w.saturating_sub(1);
    let mut start = s.len();
    let mut used = 0;
    for (i, c) in s.char_indices().rev() {
        used += c.width().unwrap_or(0);
        if used > room {
            break;
        }
        start = i;
    }
    // Never begin inside a number either.
    while let Some(c) = s[start..].chars().next() {
        if !start_is_inside_number(s, start) {
            break;
        }
        start += c.len_utf8();
    }
    if w == 0 {
        return Cow::Borrowed("");
    }
    Cow::Owned(format!("{ELLIPSIS}{}", &s[start..]))
}

/// Characters of a number as the explorer writes them: `1,234`, `2.556`, `1/3`, `∞`.
fn in_number(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | ',' | '/' | '∞')
}

fn start_is_inside_number(s: &str, at: usize) -> bool {
    let before = s[..at].chars().next_back();
    let after = s[at..].chars().next();
    matches!((before, after), (Some(b), Some(a)) if in_number(b) && in_number(a))
}

/// `end`, moved back to the start of the number it would split (and its sign).
fn before_number(s: &str, mut end: usize) -> usize {
    if !start_is_inside_number(s, end) {
        return end;
    }
    while let Some(c) = s[..end].chars().next_back() {
        if !in_number(c) {
            break;
        }
        end -= c.len_utf8();
    }
    if let Some(c) = s[..end].chars().next_back()
        && matches!(c, '-' | '−' | '+')
    {
        end -= c.len_utf8();
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_ends_in_an_ellipsis_and_keeps_what_fits() {
        assert_eq!(cut("alphabeta", 20), "alphabeta");
        assert_eq!(cut("alphabeta --fail-soft", 12), "alphabeta -…");
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(pad("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 0), "");
    }

    #[test]
    fn a_cut_never_splits_a_number() {
        // The Stats cutoffs cell of the issue: 1234 cutoffs never read as 12.
        assert_eq!(cut("1234 (α0 β1234)", 13), "1234 (α0 β…");
        assert_eq!(cut("1,234,567 nodes", 6), "…");
        assert_eq!(cut("x −2.556", 7), "x …");
        assert_eq!(cut("5 −∞..+∞", 6), "5 …");
        assert_eq!(cut("ab 12 cd", 7), "ab 12 …");
        assert_eq!(cut_left("alphabeta 1234", 4), "…");
        assert_eq!(cut_left("alphabeta --tt", 5), "…--tt");
    }

    #[test]
    fn widths_are_terminal_columns() {
        // A wide character takes two columns: four of them do not fit in five.
        assert_eq!(width("漢字"), 4);
        assert_eq!(cut("漢字漢字", 5), "漢字…");
        assert_eq!(pad("漢", 3), "漢 ");
        assert_eq!(width(&cut("αβ:fail-soft", 6)), 6);
    }
}
