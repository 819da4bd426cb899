//! One error, one message: the file, line and column, what was expected, and a hint.
//!
//! [`Diagnostic::render`] shows the offending line with a caret (codespan-reporting, plain;
//! [`Diagnostic::render_styled`] through a writer that colours); its
//! `Display` is the one-line form `file:line:col: message`.

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::{self, Files, SimpleFile};
use codespan_reporting::term::{self, Config};

use super::Text;
use crate::text::{escape_unsafe, terminal_safe};

/// A problem at a place in a source text.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// What the user calls the input: a path, `--expr`, `<stdin>`.
    pub file: String,
    /// The whole input (shared, so many diagnostics cost one copy).
    pub source: Text,
    /// Byte range of the offending text.
    pub span: Range<usize>,
    /// What is wrong, as one sentence without a capital or a full stop.
    pub message: String,
    /// What to do about it, when something can be suggested.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A problem at `span` of `source` (clamped to the text), without a hint.
    pub fn new(
        file: &str,
        source: impl Into<Text>,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        let source = source.into();
        let len = source.len();
        let start = span.start.min(len);
        let end = span.end.clamp(start, len);
        Diagnostic {
            file: file.to_owned(),
            source,
            span: start..end,
            message: message.into(),
            hint: None,
        }
    }

    /// The diagnostic with a hint added.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// 1-based line and column (in characters) of the start of the span.
    pub fn line_col(&self) -> (usize, usize) {
        line_col(&self.source, self.span.start)
    }

    /// The multi-line report with the offending line underlined, as plain text. Everything is
    /// fit for a terminal: control and invisible characters in the quoted line, the message and
    /// the file name are shown escaped ([`terminal_safe`]), the caret under the escaped form.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let (file, report) = self.report();
        match term::emit_to_string(&mut out, &Config::default(), &file, &report) {
            Ok(()) => out,
            // Rendering can only fail on a span outside the text, which `new` prevents.
            Err(_) => format!("error: {self}\n"),
        }
    }

    /// The same report written through `w`, a writer that styles the header and the caret:
    /// the binary passes codespan-reporting's `termcolor::Ansi` for a terminal. The library
    /// writes no escape sequence of its own.
    pub fn render_styled(&self, w: &mut dyn term::WriteStyle) -> Result<(), files::Error> {
        let (file, report) = self.report();
        term::emit_to_write_style(w, &Config::default(), &file, &report)
    }

    /// The excerpt and the codespan report that both renderings emit.
    fn report(&self) -> (Excerpt, Report<()>) {
        let (shown, span, skipped) = escaped_excerpt(&self.source, self.span.clone());
        let file = Excerpt {
            file: SimpleFile::new(terminal_safe(&self.file).into_owned(), shown),
            line: line_col(&self.source, self.span.start).0 - 1,
            skipped,
        };
        let mut report = Report::error()
            .with_message(terminal_safe(&self.message))
            .with_labels(vec![Label::primary((), span)]);
        if let Some(h) = &self.hint {
            report = report.with_notes(vec![format!("hint: {}", terminal_safe(h))]);
        }
        (file, report)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, col) = self.line_col();
        write!(
            f,
            "{}:{line}:{col}: {}",
            terminal_safe(&self.file),
            terminal_safe(&self.message)
        )?;
        if let Some(h) = &self.hint {
            write!(f, " (hint: {})", terminal_safe(h))?;
        }
        Ok(())
    }
}

/// The most characters quoted on each side of the offending text: a long line (a 2,000-player
/// `.efg` header) is cut around it, each cut marked `…`.
const CONTEXT: usize = 60;

/// The shown excerpt, whose first quoted line may have lost its start: the columns of that line
/// count the characters cut, so the report's `line:col` stays the file's.
struct Excerpt {
    file: SimpleFile<String, String>,
    /// 0-based index of the line whose start was cut.
    line: usize,
    /// Characters cut from it, less the one `…` that stands for them.
    skipped: usize,
}

impl<'a> Files<'a> for Excerpt {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.file.name().as_str())
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.file.source().as_str())
    }

    fn line_index(&'a self, id: (), byte_index: usize) -> Result<usize, files::Error> {
        self.file.line_index(id, byte_index)
    }

    fn line_range(&'a self, id: (), line_index: usize) -> Result<Range<usize>, files::Error> {
        self.file.line_range(id, line_index)
    }

    fn column_number(
        &'a self,
        id: (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let column = self.file.column_number(id, line_index, byte_index)?;
        Ok(if line_index == self.line {
            column + self.skipped
        } else {
            column
        })
    }
}

/// The lines `span` touches, escaped for a terminal (tabs and line ends kept, a carriage
/// return only where it ends a line), after as many empty lines as precede them so line numbers
/// stay right, cut to [`CONTEXT`] characters on each side of the span; `span` moved onto the
/// escaped text, so the caret sits under the escape of an invisible character, and a zero-width
/// span on one becomes the whole escape; and how many characters the cut before the span took,
/// less its `…`.
///
/// It reads `source`'s bytes and copies the pieces it shows before decoding them: a mapped
/// file changed since it was checked (bytes no longer UTF-8, a span no longer on characters)
/// shows U+FFFD where it changed, never a panic.
fn escaped_excerpt(source: &str, span: Range<usize>) -> (String, Range<usize>, usize) {
    let bytes = source.as_bytes();
    let len = bytes.len();
    let inside = |i: usize| bytes.get(i).is_some_and(|&b| b & 0xC0 == 0x80);
    // Spans from byte-level checks (invalid UTF-8) may end inside a character: widen them.
    let mut span = span.start.min(len)..span.end.min(len);
    while span.start > 0 && inside(span.start) {
        span.start -= 1;
    }
    span.end = span.end.max(span.start);
    while span.end < len && inside(span.end) {
        span.end += 1;
    }
    let first = bytes[..span.start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let last = bytes[span.end..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(len, |i| span.end + i);
    let before = bytes[..first].iter().filter(|&&b| b == b'\n').count();
    let after_line = bytes.get(last).copied();
    let lead = snapshot(&bytes[first..span.start]);
    let inner = snapshot(&bytes[span.clone()]);
    let trail = snapshot(&bytes[span.end..last]);
    let mut shown = "\n".repeat(before);
    let lead_chars = lead.chars().count();
    let mut skipped = 0;
    let next_of = |rest: &str, after: Option<u8>| rest.bytes().next().or(after);
    if lead_chars > CONTEXT {
        let cut = lead_chars - CONTEXT;
        let at = lead.char_indices().nth(cut).map_or(lead.len(), |(i, _)| i);
        shown.push('…');
        shown.push_str(&escape_line(
            &lead[at..],
            next_of(&inner, bytes.get(span.end).copied()),
        ));
        skipped = cut - 1;
    } else {
        shown.push_str(&escape_line(
            &lead,
            next_of(&inner, bytes.get(span.end).copied()),
        ));
    }
    let start = shown.len();
    shown.push_str(&escape_line(&inner, next_of(&trail, after_line)));
    let mut end = shown.len();
    if span.is_empty() {
        // A caret on an invisible character: underline its whole escape.
        if let Some(c) = trail.chars().next() {
            let escaped = escape_line(
                &c.to_string(),
                trail[c.len_utf8()..].bytes().next().or(after_line),
            );
            if escaped.chars().count() > 1 {
                end = start + escaped.len();
            }
        }
    }
    match trail.char_indices().nth(CONTEXT) {
        Some((at, _)) => {
            shown.push_str(&escape_line(&trail[..at], None));
            shown.push('…');
        }
        None => shown.push_str(&escape_line(&trail, after_line)),
    }
    (shown, start..end, skipped)
}

/// `bytes` copied, then read as UTF-8 (U+FFFD for what is not): text that stays as it was
/// read, whatever happens to the bytes after.
fn snapshot(bytes: &[u8]) -> String {
    match String::from_utf8(bytes.to_vec()) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// `piece` of a quoted source line, escaped ([`escape_unsafe`]) but for tabs, line feeds and a
/// carriage return that ends a line (before a line feed; `next` is the byte after `piece`).
/// A carriage return anywhere else would send the terminal's cursor back over the line.
fn escape_line(piece: &str, next: Option<u8>) -> String {
    let mut out = String::with_capacity(piece.len());
    let mut chars = piece.chars().peekable();
    while let Some(c) = chars.next() {
        let line_end = c == '\r' && chars.peek().map_or(next == Some(b'\n'), |&n| n == '\n');
        if c == '\t' || c == '\n' || line_end {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            out.push_str(&escape_unsafe(c.encode_utf8(&mut buf), |_| false));
        }
    }
    out
}

/// 1-based line and character column of byte `offset` in `text`, counted on the bytes (a
/// character is a byte that does not continue one), so a text changed under a mapping cannot
/// make it panic.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut offset = offset.min(bytes.len());
    while offset > 0 && bytes.get(offset).is_some_and(|&b| b & 0xC0 == 0x80) {
        offset -= 1;
    }
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    (line, column + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::is_unsafe_char;
    use std::sync::Arc;

    /// A carriage return inside a line would send the cursor back over the quoted line: it is
    /// escaped, as other control characters are; the one ending a line (CRLF) stays.
    #[test]
    fn a_carriage_return_inside_a_line_is_escaped() {
        let src = "(name: \"a\rb\", rot: 1)\r\n(x)";
        let at = src.find("rot").unwrap();
        let r = Diagnostic::new("t.ron", src.to_string(), at..at + 3, "m").render();
        assert!(r.contains("a\\u{d}b"), "{r}");
        assert!(!r.contains("a\rb"), "{r}");
        let (shown, _, _) = escaped_excerpt(src, at..at + 3);
        assert!(shown.ends_with("1)\r"), "{shown:?}");
    }

    /// Spans on or off characters, anywhere, and bytes that are not UTF-8 (what a file rewritten
    /// under its mapping shows): an excerpt and a position, never a panic.
    #[test]
    fn any_span_of_any_text_is_shown() {
        let src = "é€\r\nab\u{1d11e}c\n";
        for start in 0..=src.len() + 1 {
            for end in 0..=src.len() + 1 {
                let _ = escaped_excerpt(src, start..end);
                let _ = line_col(src, start);
            }
        }
        assert_eq!(line_col(src, 3), (1, 2));
        assert_eq!(snapshot(&[b'a', 0xE2, 0x82]), "a\u{FFFD}");
    }

    #[test]
    fn a_long_line_is_cut_around_the_error_and_keeps_its_column() {
        let line = format!("{}X{}", "a".repeat(10_000), "b".repeat(10_000));
        let source = format!("first\n{line}\nlast\n");
        let at = source.find('X').unwrap();
        let d = Diagnostic::new("big.efg", source.as_str(), at..at + 1, "no X here");
        let r = d.render();
        assert!(r.len() < 1_000, "{} bytes: {r}", r.len());
        assert!(r.contains("big.efg:2:10001"), "{r}");
        let quoted = r.lines().find(|l| l.contains("aX")).unwrap();
        assert!(quoted.contains("…aaaa") && quoted.contains("bbbb…"), "{r}");
        let caret = r.lines().find(|l| l.contains('^')).unwrap();
        let column = |l: &str, c: char| l.chars().position(|x| x == c);
        assert_eq!(column(caret, '^'), column(quoted, 'X'), "{r}");
    }

    #[test]
    fn positions_are_one_based_in_characters() {
        assert_eq!(line_col("abc", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\nxé!", 6), (2, 3));
        assert_eq!(line_col("abc", 99), (1, 4));
    }

    #[test]
    fn render_shows_line_and_hint() {
        let src: Arc<str> = Arc::from("(\n  root: Foo([1]),\n)");
        let d = Diagnostic::new("t.ron", &src, 10..13, "unknown node kind `Foo`")
            .with_hint("expected Max");
        assert_eq!(
            d.to_string(),
            "t.ron:2:9: unknown node kind `Foo` (hint: expected Max)"
        );
        let r = d.render();
        assert!(r.contains("t.ron:2:9"), "{r}");
        assert!(r.contains("root: Foo([1])"), "{r}");
        assert!(r.contains("^^^"), "{r}");
        assert!(r.contains("hint: expected Max"), "{r}");
    }

    #[test]
    fn invisible_characters_are_shown_escaped_with_a_caret() {
        let src: Arc<str> = Arc::from("(\n  root: Max([1, \u{1b}]2J, 3]),\n)");
        let at = src.find('\u{1b}').unwrap();
        let d = Diagnostic::new("t\u{7}.ron", &src, at..at + 1, "unexpected `\u{202e}`");
        let r = d.render();
        assert!(!r.chars().any(is_unsafe_char_but_newline), "{r:?}");
        assert!(r.contains("root: Max([1, \\u{1b}]2J, 3]),"), "{r}");
        let line = r.lines().find(|l| l.contains("root:")).unwrap();
        let caret = r.lines().find(|l| l.contains('^')).unwrap();
        let col = line.find("\\u{1b}").unwrap();
        assert_eq!(caret.find('^'), Some(col), "{r}");
        assert_eq!(caret.matches('^').count(), "\\u{1b}".len(), "{r}");
        assert!(r.contains("t\\u{7}.ron:2:17"), "{r}");
        assert!(d.to_string().contains("unexpected `\\u{202e}`"), "{d}");
        assert!(!d.to_string().chars().any(is_unsafe_char), "{d}");
    }

    fn is_unsafe_char_but_newline(c: char) -> bool {
        c != '\n' && is_unsafe_char(c)
    }
}
