//! A small position-keeping lexer shared by the RON, bracket and `.efg` readers.
//!
//! Every token carries its byte span, so every error — syntax or semantic — can point at the
//! exact place in the input. The readers built on it are loops over an explicit stack, never
//! recursive, so a tree 100 000 levels deep reads like a shallow one.
//!
//! The readers' fast paths read the bytes themselves where the lexer lets them ([`Lexer::offset`],
//! [`Lexer::plain_number`], [`Lexer::eat_byte`]); [`general_way`] turns all of them off, for the
//! property test that holds them to the token reader (`crates/prune/tests/library/fast_paths.rs`).

use std::cell::Cell;
use std::ops::Range;

use super::Text;
use super::diag::Diagnostic;
use super::progress;

/// What a reader sees in place of text whose bytes changed after they were checked: a mapped
/// file is the file's pages, and a program writing the file in place changes them under the
/// reader. The readers slice with [`slice()`] rather than `[..]`, so such a change makes a wrong
/// tree or an error, never a panic.
pub const CHANGED: &str = "\u{FFFD}";

/// `src[range]`, or [`CHANGED`] where `range` does not fall on characters of `src`.
pub fn slice(src: &str, range: Range<usize>) -> &str {
    src.get(range).unwrap_or(CHANGED)
}

/// The character at byte `at` of `src` and its length, decoded from the bytes themselves
/// (U+FFFD and one byte where they are not a character, as in a file changed while read).
fn char_at(src: &str, at: usize) -> Option<(char, usize)> {
    let bytes = src.as_bytes().get(at..)?;
    let head = &bytes[..bytes.len().min(4)];
    if head.is_empty() {
        return None;
    }
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
    };
    Some(
        valid
            .chars()
            .next()
            .map_or(('\u{FFFD}', 1), |c| (c, c.len_utf8())),
    )
}

/// What a token is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `[A-Za-z_][A-Za-z0-9_]*`
    Ident,
    /// A decimal number with optional sign, fraction and exponent.
    Number,
    /// A double-quoted string (or a RON raw string `r"…"`, `r#"…"#`).
    Str,
    /// Any other single character.
    Punct(char),
    /// The end of the input.
    Eof,
}

/// A token and where it is in the input.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What the token is.
    pub tok: Tok,
    /// Its byte range in the input.
    pub span: Range<usize>,
}

thread_local! {
    /// Whether the lexers made on this thread keep the readers to tokens: see [`general_way`].
    static GENERAL_WAY: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with every reader's fast paths off on this thread: each node, number and
/// punctuation is read the general way, token by token. For the property test that holds the
/// fast paths to the general way (the same tree, or the same report at the same place), not
/// for use.
#[doc(hidden)]
pub fn general_way<T>(f: impl FnOnce() -> T) -> T {
    let before = GENERAL_WAY.replace(true);
    let result = f();
    GENERAL_WAY.set(before);
    result
}

/// Lexer over one input; see the module documentation.
pub struct Lexer<'a> {
    /// What the user calls the input, for messages.
    pub file: &'a str,
    /// The whole input.
    pub src: Text,
    pos: usize,
    /// Whether a reader may read bytes itself (off only under [`general_way`]).
    fast: bool,
    /// RON allows `//` and nested `/* */` comments; the other formats do not.
    comments: bool,
    /// Tokens read ahead or put back (at most two), the next one last.
    pending: [Option<Token>; 2],
    pending_len: usize,
    /// The offset at which the next [`progress::parsed`] report is due.
    report_at: usize,
}

impl<'a> Lexer<'a> {
    /// A UTF-8 byte-order mark at the start of `src` is skipped, as editors on Windows write one.
    pub fn new(file: &'a str, src: Text, comments: bool) -> Self {
        let pos = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
        Lexer {
            file,
            src,
            pos,
            fast: !GENERAL_WAY.get(),
            comments,
            pending: [None, None],
            pending_len: 0,
            report_at: progress::REPORT_EVERY,
        }
    }

    /// The text of token `t`: [`CHANGED`] where the span no longer falls on characters (a
    /// mapped file rewritten while it is read).
    pub fn text(&self, t: &Token) -> &str {
        slice(&self.src, t.span.clone())
    }

    /// A diagnostic at `span` of this input.
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, &self.src, span, message)
    }

    /// The next token, without consuming it.
    pub fn peek(&mut self) -> Result<&Token, Diagnostic> {
        if self.pending_len == 0 {
            let t = self.scan()?;
            self.unread(t);
        }
        Ok(self.pending[self.pending_len - 1]
            .as_ref()
            .expect("a pending token"))
    }

    /// Consumes and returns the next token.
    pub fn next_token(&mut self) -> Result<Token, Diagnostic> {
        if self.pending_len == 0 {
            return self.scan();
        }
        self.pending_len -= 1;
        Ok(self.pending[self.pending_len]
            .take()
            .expect("a pending token"))
    }

    /// Puts a token back: the next `next_token` returns it. Readers put back at most two.
    pub fn unread(&mut self, t: Token) {
        assert!(
            self.pending_len < 2,
            "the lexer keeps two tokens of lookahead"
        );
        self.pending[self.pending_len] = Some(t);
        self.pending_len += 1;
    }

    /// Consumes the next token if it is the punctuation `c`.
    pub fn eat(&mut self, c: char) -> Result<bool, Diagnostic> {
        // Punctuation that cannot start a longer token is checked on the byte itself. Should
        // the next token be an error, the read that follows a `false` reports it, as here.
        if self.fast
            && self.pending_len == 0
            && c.is_ascii_punctuation()
            && !matches!(c, '-' | '+' | '.' | '"' | '_')
        {
            return self.eat_byte(c as u8);
        }
        if self.peek()?.tok == Tok::Punct(c) {
            self.next_token()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The next token, which must be the punctuation `c`.
    pub fn expect(&mut self, c: char, context: &str) -> Result<Token, Diagnostic> {
        let t = self.next_token()?;
        if t.tok == Tok::Punct(c) {
            return Ok(t);
        }
        Err(self.unexpected(&t, &format!("`{c}` {context}")))
    }

    /// "expected X, found Y" at token `t`.
    pub fn unexpected(&self, t: &Token, expected: &str) -> Diagnostic {
        self.error(
            t.span.clone(),
            format!("expected {expected}, found {}", self.describe(t)),
        )
    }

    /// Token `t` as a message names it: "`Max`", "number `12`", "the end of the input".
    pub fn describe(&self, t: &Token) -> String {
        let text = self.text(t);
        let short: String = text.chars().take(24).collect();
        let more = if short.len() < text.len() { "…" } else { "" };
        match t.tok {
            Tok::Ident => format!("`{short}{more}`"),
            Tok::Number => format!("number `{short}{more}`"),
            Tok::Str => format!("string {short}{more}"),
            Tok::Punct(c) => format!("`{c}`"),
            Tok::Eof => "the end of the input".into(),
        }
    }

    /// A number token's value, which must be finite.
    pub fn number(&self, t: &Token) -> Result<f64, Diagnostic> {
        let raw = self.text(t);
        if self.fast
            && let Some(x) = small_integer(raw)
        {
            return Ok(x);
        }
        let cleaned;
        let text = if raw.contains('_') {
            cleaned = raw.replace('_', "");
            cleaned.as_str()
        } else {
            raw
        };
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(_) => Err(self.error(
                t.span.clone(),
                format!("number `{}` is too large", truncate(text)),
            )),
            Err(_) => Err(self.error(
                t.span.clone(),
                format!("`{}` is not a number", truncate(text)),
            )),
        }
    }

    /// The common case of a tree file read without tokens: when the next token is a plain
    /// number (digits, or a sign then digits) and the next character after it is one of
    /// `followed_by` (any, when empty), consumes it and returns it with its value. Otherwise
    /// nothing is consumed and `None` says to read the token the general way, which gives
    /// the same result and the same errors.
    #[inline]
    pub fn plain_number(&mut self, followed_by: &[u8]) -> Result<Option<(Token, f64)>, Diagnostic> {
        if self.pending_len > 0 || !self.fast {
            return Ok(None);
        }
        self.skip_space()?;
        let start = self.pos;
        let src = self.src.clone();
        let bytes = src.as_bytes();
        let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let first = at(start);
        if !(first.is_ascii_digit()
            || (matches!(first, b'-' | b'+') && at(start + 1).is_ascii_digit()))
        {
            return Ok(None);
        }
        self.number_token(start);
        let end = self.pos;
        if !followed_by.is_empty() {
            let mut next = end;
            while at(next).is_ascii_whitespace() {
                next += 1;
            }
            if !followed_by.contains(&at(next)) {
                self.pos = start;
                return Ok(None);
            }
        }
        let t = Token {
            tok: Tok::Number,
            span: start..end,
        };
        let value = match small_integer(slice(&src, start..end)) {
            Some(x) => x,
            None => self.number(&t)?,
        };
        Ok(Some((t, value)))
    }

    /// Consumes the punctuation `c` if it is the next token, like [`Lexer::eat`], without
    /// making a token of it.
    #[inline]
    pub fn eat_byte(&mut self, c: u8) -> Result<bool, Diagnostic> {
        if self.pending_len > 0 || !self.fast {
            return self.eat(char::from(c));
        }
        self.skip_space()?;
        if self.src.as_bytes().get(self.pos) == Some(&c) {
            self.pos += 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether the next token is the punctuation `c`, like `peek()?.tok == Tok::Punct(c)`,
    /// without making a token of it. An error in the next token is left for the next read.
    #[inline]
    pub fn at_byte(&mut self, c: u8) -> Result<bool, Diagnostic> {
        if self.pending_len > 0 || !self.fast {
            return Ok(self.peek()?.tok == Tok::Punct(char::from(c)));
        }
        self.skip_space()?;
        Ok(self.src.as_bytes().get(self.pos) == Some(&c))
    }

    /// The offset of the next byte to read when no token is pending: a reader's fast path
    /// reads the bytes from there itself, then moves on with [`Lexer::advance_to`].
    #[inline]
    pub fn offset(&self) -> Option<usize> {
        (self.fast && self.pending_len == 0).then_some(self.pos)
    }

    /// Moves on to `pos`, after bytes a reader's fast path has read itself (nothing may be
    /// pending), reporting the progress as [`Lexer::next_token`] does.
    #[inline]
    pub fn advance_to(&mut self, pos: usize) {
        debug_assert_eq!(self.pending_len, 0, "no token is pending");
        self.pos = pos;
        if pos >= self.report_at {
            self.report_at = pos + progress::REPORT_EVERY;
            progress::parsed(pos);
        }
    }

    /// The next token as a number, or an error naming what it is used for.
    pub fn expect_number(&mut self, what: &str) -> Result<(f64, Token), Diagnostic> {
        let t = self.next_token()?;
        match t.tok {
            Tok::Number => Ok((self.number(&t)?, t)),
            Tok::Ident
                if matches!(
                    self.text(&t),
                    "inf" | "NaN" | "nan" | "infinity" | "Infinity"
                ) =>
            {
                Err(self
                    .error(
                        t.span.clone(),
                        format!("`{}` is not a finite number", self.text(&t)),
                    )
                    .with_hint("NaN and infinities are not values prune can search"))
            }
            _ => Err(self.unexpected(&t, what)),
        }
    }

    /// A non-negative integer token's value.
    pub fn integer(&self, t: &Token, what: &str) -> Result<u64, Diagnostic> {
        if t.tok == Tok::Number {
            if let Ok(n) = self.text(t).parse::<u64>() {
                return Ok(n);
            }
        }
        Err(self.unexpected(t, what))
    }

    /// A string token's contents, escapes resolved.
    pub fn string(&self, t: &Token) -> Result<String, Diagnostic> {
        let raw = self.text(t);
        // The scan found a string here; text that is not one now was changed since.
        let changed = || {
            self.error(t.span.clone(), "the file changed while it was read")
                .with_hint("read it again once it is written")
        };
        if let Some(rest) = raw.strip_prefix('r') {
            let hashes = rest.len() - rest.trim_start_matches('#').len();
            let end = rest.len().checked_sub(hashes + 1).ok_or_else(changed)?;
            return rest
                .get(hashes + 1..end)
                .map(str::to_owned)
                .ok_or_else(changed);
        }
        let body = raw
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .ok_or_else(changed)?;
        let mut out = String::with_capacity(body.len());
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let at = t.span.start + 1 + i;
            let bad = || {
                self.error(at..at + 2, "unknown escape sequence")
                    .with_hint("use \\\\, \\\", \\n, \\t, \\r, \\0 or \\u{…}")
            };
            match chars.next().map(|(_, c)| c) {
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('\'') => out.push('\''),
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some('u') => {
                    let rest = slice(body, i + 2..body.len());
                    let code = rest
                        .strip_prefix('{')
                        .and_then(|r| r.split_once('}'))
                        .and_then(|(hex, _)| {
                            u32::from_str_radix(hex, 16).ok().map(|v| (v, hex.len()))
                        })
                        .and_then(|(v, n)| char::from_u32(v).map(|c| (c, n)));
                    let Some((c, n)) = code else {
                        return Err(bad());
                    };
                    out.push(c);
                    for _ in 0..n + 2 {
                        chars.next();
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(out)
    }

    fn skip_space(&mut self) -> Result<(), Diagnostic> {
        let bytes = self.src.as_bytes();
        loop {
            while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if !self.comments || self.pos + 1 >= bytes.len() || bytes[self.pos] != b'/' {
                return Ok(());
            }
            match bytes[self.pos + 1] {
                b'/' => {
                    while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                b'*' => {
                    let start = self.pos;
                    let mut depth = 0usize;
                    loop {
                        if self.pos + 1 >= bytes.len() {
                            return Err(self
                                .error(start..start + 2, "comment is never closed")
                                .with_hint("close it with */"));
                        }
                        match (bytes[self.pos], bytes[self.pos + 1]) {
                            (b'/', b'*') => {
                                depth += 1;
                                self.pos += 2;
                            }
                            (b'*', b'/') => {
                                depth -= 1;
                                self.pos += 2;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => self.pos += 1,
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn scan(&mut self) -> Result<Token, Diagnostic> {
        self.skip_space()?;
        let bytes = self.src.as_bytes();
        let start = self.pos;
        if start >= self.report_at {
            self.report_at = start + progress::REPORT_EVERY;
            progress::parsed(start);
        }
        let Some(&b) = bytes.get(start) else {
            progress::parsed(start);
            return Ok(Token {
                tok: Tok::Eof,
                span: start..start,
            });
        };
        let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let tok = if b == b'r' && (at(start + 1) == b'"' || at(start + 1) == b'#') && self.comments
        {
            self.raw_string(start)?
        } else if b.is_ascii_alphabetic() || b == b'_' {
            self.pos += 1;
            while at(self.pos).is_ascii_alphanumeric() || at(self.pos) == b'_' {
                self.pos += 1;
            }
            Tok::Ident
        } else if b.is_ascii_digit()
            || (b == b'.' && at(start + 1).is_ascii_digit())
            || ((b == b'-' || b == b'+')
                && (at(start + 1).is_ascii_digit()
                    || (at(start + 1) == b'.' && at(start + 2).is_ascii_digit())))
        {
            self.number_token(start);
            Tok::Number
        } else if let Some(len) = self.signed_non_finite(start) {
            let word = slice(&self.src, start..start + len);
            return Err(self
                .error(
                    start..start + len,
                    format!("`{word}`: values must be finite numbers"),
                )
                .with_hint("NaN and infinities are not values prune can search"));
        } else if b == b'"' {
            self.pos += 1;
            loop {
                match bytes.get(self.pos) {
                    None => {
                        return Err(self
                            .error(start..start + 1, "string is never closed")
                            .with_hint("close it with \""));
                    }
                    Some(b'\\') => self.pos += 2,
                    Some(b'"') => {
                        self.pos += 1;
                        break;
                    }
                    Some(_) => self.pos += 1,
                }
            }
            Tok::Str
        } else {
            let Some((c, len)) = char_at(&self.src, start) else {
                return Ok(Token {
                    tok: Tok::Eof,
                    span: start..start,
                });
            };
            if c.is_control() {
                return Err(self
                    .error(
                        start..start + len,
                        format!("unexpected control character U+{:04X}", c as u32),
                    )
                    .with_hint("is this a binary file?"));
            }
            if crate::text::is_unsafe_char(c) {
                return Err(self
                    .error(
                        start..start + len,
                        format!("unexpected invisible character U+{:04X}", c as u32),
                    )
                    .with_hint(
                        "bidirectional and zero-width formatting characters belong only inside quoted names",
                    ));
            }
            self.pos += len;
            Tok::Punct(c)
        };
        Ok(Token {
            tok,
            span: start..self.pos,
        })
    }

    /// The length of `-inf`, `+NaN`, `-infinity`… at `start` (a sign, then a whole word), which
    /// no format accepts: a clearer message than "found `-`".
    fn signed_non_finite(&self, start: usize) -> Option<usize> {
        let bytes = self.src.as_bytes();
        if !matches!(bytes.get(start), Some(b'-' | b'+')) {
            return None;
        }
        let word = bytes[start + 1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let text = slice(&self.src, start + 1..start + 1 + word).to_ascii_lowercase();
        matches!(text.as_str(), "inf" | "infinity" | "nan").then_some(1 + word)
    }

    fn number_token(&mut self, start: usize) {
        let bytes = self.src.as_bytes();
        let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
        self.pos = start;
        if at(self.pos) == b'-' || at(self.pos) == b'+' {
            self.pos += 1;
        }
        while at(self.pos).is_ascii_digit() || at(self.pos) == b'_' {
            self.pos += 1;
        }
        if at(self.pos) == b'.' && at(self.pos + 1).is_ascii_digit() {
            self.pos += 1;
            while at(self.pos).is_ascii_digit() {
                self.pos += 1;
            }
        } else if at(self.pos) == b'.' && !at(self.pos + 1).is_ascii_alphabetic() {
            self.pos += 1; // "3." is a number
        }
        if matches!(at(self.pos), b'e' | b'E') {
            let mut p = self.pos + 1;
            if matches!(at(p), b'+' | b'-') {
                p += 1;
            }
            if at(p).is_ascii_digit() {
                self.pos = p;
                while at(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
    }

    fn raw_string(&mut self, start: usize) -> Result<Tok, Diagnostic> {
        let bytes = self.src.as_bytes();
        let mut p = start + 1;
        let mut hashes = 0;
        while bytes.get(p) == Some(&b'#') {
            hashes += 1;
            p += 1;
        }
        if bytes.get(p) != Some(&b'"') {
            self.pos = start + 1;
            return Ok(Tok::Ident);
        }
        let close: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        let body = p + 1;
        match bytes[body..]
            .windows(close.len())
            .position(|w| w == close.as_slice())
        {
            Some(i) => {
                self.pos = body + i + close.len();
                Ok(Tok::Str)
            }
            None => Err(self.error(start..p + 1, "raw string is never closed")),
        }
    }
}

/// The first byte at or after `pos` that is not ASCII whitespace (as the lexer counts it), or
/// the end: runs of spaces (a RON file is mostly indentation) are skipped eight bytes at a time.
#[inline]
pub fn skip_blanks(b: &[u8], mut pos: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    // Most tokens follow another directly (bracket notation has no blanks at all).
    if !b.get(pos).is_some_and(u8::is_ascii_whitespace) {
        return pos;
    }
    loop {
        if let Some(chunk) = b.get(pos..pos + 8) {
            let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ SPACES;
            if x == 0 {
                pos += 8;
                continue;
            }
            pos += (x.trailing_zeros() / 8) as usize;
        }
        match b.get(pos) {
            Some(c) if c.is_ascii_whitespace() => pos += 1,
            _ => return pos,
        }
    }
}

/// An optionally signed integer of at most 15 digits at `pos` that is a whole number token (no
/// `_`, fraction or exponent follows): its value and where it ends. `None` leaves the token to
/// the lexer, which reads the same value or reports the same error.
#[inline(always)]
pub fn plain_integer(b: &[u8], pos: usize) -> Option<(f64, usize)> {
    let (neg, start) = match b.get(pos) {
        Some(b'-') => (true, pos + 1),
        Some(b'+') => (false, pos + 1),
        _ => (false, pos),
    };
    let mut i = start;
    let mut n: i64 = 0;
    while let Some(&d) = b.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        n = n * 10 + i64::from(d - b'0');
        i += 1;
        if i - start > 15 {
            return None;
        }
    }
    if i == start || matches!(b.get(i), Some(b'_' | b'.' | b'e' | b'E')) {
        return None;
    }
    Some((if neg { -(n as f64) } else { n as f64 }, i))
}

/// A number at `pos` written the plain way, `[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?` (no
/// `_`), that is a whole number token (no letter, digit, `_` or `.` follows): its value, as
/// [`Lexer::number`] gives it (the same text parsed), and where it ends. `None` leaves it to
/// the lexer, which reads the same value or reports the error (`3.`, `.5`, a number too large).
#[inline(always)]
pub fn plain_number(b: &[u8], pos: usize) -> Option<(f64, usize)> {
    match plain_integer(b, pos) {
        Some(read) => Some(read),
        None => plain_decimal(b, pos),
    }
}

/// [`plain_number`] for what is not a plain integer.
#[inline(never)]
fn plain_decimal(b: &[u8], pos: usize) -> Option<(f64, usize)> {
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let start = pos + usize::from(matches!(b.get(pos), Some(b'-' | b'+')));
    let mut i = digits(start);
    if i == start {
        return None;
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i = digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = i + 1 + usize::from(matches!(b.get(i + 1), Some(b'-' | b'+')));
        if !b.get(sign).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        i = digits(sign);
    }
    if b.get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
    {
        return None;
    }
    let x: f64 = std::str::from_utf8(&b[pos..i]).ok()?.parse().ok()?;
    x.is_finite().then_some((x, i))
}

/// A quoted string at `pos` without a backslash (nothing to unescape: [`Lexer::string`] gives
/// its bytes as they are): the range of its contents and where it ends. `None` leaves it to
/// the lexer (escapes, raw strings, a string never closed).
#[inline]
pub fn plain_string(b: &[u8], pos: usize) -> Option<(Range<usize>, usize)> {
    if b.get(pos) != Some(&b'"') {
        return None;
    }
    let body = pos + 1;
    let len = b
        .get(body..)?
        .iter()
        .position(|&c| c == b'"' || c == b'\\')?;
    let end = body + len;
    (b[end] == b'"').then_some((body..end, end + 1))
}

/// `-?[0-9]{1,15}` read directly: most numbers in tree files are small integers, and this is
/// several times quicker than `f64::from_str` (exact, since |x| < 2^53).
#[inline]
fn small_integer(s: &str) -> Option<f64> {
    let (neg, digits) = match s.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        rest => (false, rest),
    };
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some(if neg { -(n as f64) } else { n as f64 })
}

fn truncate(s: &str) -> String {
    let short: String = s.chars().take(24).collect();
    if short.len() < s.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// Levenshtein distance, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The closest of `options` to `word`, if it is close enough to be a likely typo: a few edits
/// (one per three letters, at most two, and never all but one of the letters), or one is the
/// start of the other (`Chan` for `Chance`). `x` is not a typo for `Max`.
pub fn did_you_mean<'o>(word: &str, options: &[&'o str]) -> Option<&'o str> {
    let lower = word.to_ascii_lowercase();
    let len = lower.chars().count();
    options
        .iter()
        .filter_map(|&o| {
            let opt = o.to_ascii_lowercase();
            let d = edit_distance(&lower, &opt);
            let shortest = len.min(opt.chars().count());
            let allowed = (shortest / 3).clamp(1, 2).min(shortest.saturating_sub(1));
            let prefix = len >= 2 && (opt.starts_with(&lower) || lower.starts_with(&opt));
            (d <= allowed || prefix).then_some((if prefix { 0 } else { d }, o))
        })
        .min_by_key(|&(d, _)| d)
        .map(|(_, o)| o)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lexer whose position or tokens no longer fall on characters (its file rewritten in
    /// place under the mapping) reads on or reports an error; it never panics.
    #[test]
    fn positions_and_spans_off_characters_do_not_panic() {
        let src = "(\"é€\", r#\"x\"#, ab)";
        for at in 0..=src.len() {
            let mut lx = Lexer::new("t", Text::from(src.to_string()), true);
            lx.pos = at;
            for _ in 0..12 {
                match lx.next_token() {
                    Ok(t) if t.tok == Tok::Eof => break,
                    Ok(t) => {
                        let _ = lx.text(&t);
                        let _ = lx.string(&t);
                    }
                    Err(e) => {
                        let _ = e.render();
                        break;
                    }
                }
            }
            for end in at..=src.len() {
                for tok in [Tok::Str, Tok::Ident] {
                    let t = Token { tok, span: at..end };
                    let _ = lx.text(&t);
                    let _ = lx.string(&t);
                }
            }
        }
    }

    impl Lexer<'_> {
        fn nth_error(mut self, n: usize) -> Diagnostic {
            for _ in 0..n {
                self.next_token().unwrap();
            }
            self.next_token().unwrap_err()
        }
    }

    fn toks(src: &str, comments: bool) -> Vec<(Tok, String)> {
        let mut lx = Lexer::new("t", Text::from(src), comments);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t.tok == Tok::Eof {
                return out;
            }
            out.push((t.tok, lx.text(&t).to_owned()));
        }
    }

    #[test]
    fn numbers_signs_and_punctuation() {
        let t = toks("-(3, -2.5e3, +.5, 1/3) -x", false);
        let kinds: Vec<_> = t.iter().map(|(k, s)| (*k, s.as_str())).collect();
        assert_eq!(
            kinds,
            vec![
                (Tok::Punct('-'), "-"),
                (Tok::Punct('('), "("),
                (Tok::Number, "3"),
                (Tok::Punct(','), ","),
                (Tok::Number, "-2.5e3"),
                (Tok::Punct(','), ","),
                (Tok::Number, "+.5"),
                (Tok::Punct(','), ","),
                (Tok::Number, "1"),
                (Tok::Punct('/'), "/"),
                (Tok::Number, "3"),
                (Tok::Punct(')'), ")"),
                (Tok::Punct('-'), "-"),
                (Tok::Ident, "x"),
            ]
        );
    }

    #[test]
    fn comments_nest_only_when_enabled() {
        assert_eq!(toks("a /* x /* y */ z */ b // c\nd", true).len(), 3);
        let e = Lexer::new("t", Text::from("/* open /* nested */"), true)
            .next_token()
            .unwrap_err();
        assert!(e.message.contains("never closed"));
    }

    #[test]
    fn strings_unescape() {
        let mut lx = Lexer::new("t", Text::from(r##""a\"b\n\u{e9}" r#"raw "x""#"##), true);
        let t = lx.next_token().unwrap();
        assert_eq!(lx.string(&t).unwrap(), "a\"b\né");
        let t = lx.next_token().unwrap();
        assert_eq!(lx.string(&t).unwrap(), "raw \"x\"");
        let mut lx = Lexer::new("t", Text::from(r#""bad \q""#), true);
        let t = lx.next_token().unwrap();
        assert!(lx.string(&t).unwrap_err().message.contains("escape"));
    }

    #[test]
    fn control_characters_are_errors() {
        let e = Lexer::new("t", Text::from("\u{1}"), false)
            .next_token()
            .unwrap_err();
        assert!(e.message.contains("control character"));
        let e = Lexer::new("t", Text::from("(1, \u{202e}2)"), false).nth_error(3);
        assert!(e.message.contains("invisible character U+202E"), "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(toks("\u{feff}(1)", false).len(), 3);
    }

    #[test]
    fn signed_infinities_are_named() {
        for (src, word) in [
            ("(-inf, 1)", "-inf"),
            ("+NaN", "+NaN"),
            ("[-Infinity]", "-Infinity"),
        ] {
            let mut lx = Lexer::new("t", Text::from(src), false);
            let e = loop {
                match lx.next_token() {
                    Err(e) => break e,
                    Ok(t) => assert_ne!(t.tok, Tok::Eof, "{src}"),
                }
            };
            assert_eq!(
                e.message,
                format!("`{word}`: values must be finite numbers")
            );
        }
        assert_eq!(toks("-infant", false).len(), 2);
    }

    #[test]
    fn typo_suggestions() {
        assert_eq!(
            did_you_mean("Chanse", &["Max", "Min", "Chance"]),
            Some("Chance")
        );
        assert_eq!(did_you_mean("Zebra", &["Max", "Min", "Chance"]), None);
        assert_eq!(did_you_mean("x", &["Max", "Min", "Chance"]), None);
        assert_eq!(did_you_mean("Mx", &["Max", "Min", "Chance"]), Some("Max"));
        assert_eq!(did_you_mean("max", &["Max", "Min", "Chance"]), Some("Max"));
        assert_eq!(
            did_you_mean("Chan", &["Max", "Min", "Chance"]),
            Some("Chance")
        );
        assert_eq!(did_you_mean("Plyer", &["Max", "Player"]), Some("Player"));
        assert_eq!(did_you_mean("Mox", &["Max", "Min"]), Some("Max"));
    }
}
