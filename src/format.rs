//! Reading and writing trees: RON (native), Gambit `.efg`, and bracket notation.
//!
//! Every reader turns any problem with its input — syntax, semantics, encoding, size — into one
//! [`LoadError`] that names the file, line and column and says what was expected. Writers build
//! the whole text in memory; [`save`] and every other output go through [`save::save_with`],
//! which never replaces what the user has by surprise (see [`save`]). Readers refuse what is not
//! a regular file, and never read more than [`max_file_bytes`].

pub mod bracket;
pub mod diag;
pub mod efg;
pub mod lex;
pub mod progress;
pub mod ron;
pub mod save;

use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use diag::Diagnostic;
pub use progress::LoadProgress;
pub use save::{clean_up_on_signals, remove_temporaries_and_exit, save_text, save_with};

use crate::tree::{Invalid, Tree};

/// Tree files larger than this are refused unless [`set_max_file_bytes`] raised the limit.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

static MAX_BYTES: AtomicU64 = AtomicU64::new(MAX_FILE_BYTES);

/// The most bytes a reader takes from one input: [`MAX_FILE_BYTES`] unless changed (the
/// command line's `--max-file-size`). Process-wide, so the explorer's open obeys it too.
pub fn max_file_bytes() -> u64 {
    MAX_BYTES.load(Ordering::Relaxed)
}

/// Changes [`max_file_bytes`] for the rest of the process.
pub fn set_max_file_bytes(bytes: u64) {
    MAX_BYTES.store(bytes, Ordering::Relaxed);
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// prune's native RON format (`.ron`)
    Ron,
    /// Gambit extensive form (`.efg`)
    Efg,
    /// bracket notation such as `((3,12,8),(2,4,6))` (`.txt`, `.tree`)
    Bracket,
}

impl Format {
    /// The format a file name's extension implies.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "ron" => Some(Format::Ron),
            "efg" => Some(Format::Efg),
            "txt" | "tree" | "bracket" => Some(Format::Bracket),
            _ => None,
        }
    }

    /// The format to write `out` in: `to` when given; else the one its extension names; RON
    /// for standard output and other streams (`/dev/stdout`, a FIFO). A file name whose
    /// extension names no format, or that has none, is refused rather than guessed, with the
    /// formats and `--to`.
    pub fn for_output(out: Option<&Path>, to: Option<Format>) -> Result<Format, String> {
        if let Some(to) = to {
            return Ok(to);
        }
        let Some(path) = out.filter(|p| p.as_os_str() != "-" && !save::is_stream(p)) else {
            return Ok(Format::Ron);
        };
        Format::from_path(path).ok_or_else(|| {
            format!(
                "{}: {}; name it .ron, .efg, .txt, .tree or .bracket, or give --to ron, efg or bracket",
                crate::text::terminal_safe(&path.display().to_string()),
                unnamed_format(path),
            )
        })
    }

    /// Guesses the format of a text without a telling extension.
    pub fn sniff(text: &str) -> Format {
        let t = text.trim_start_matches('\u{FEFF}').trim_start();
        if t.starts_with("EFG") {
            return Format::Efg;
        }
        if t.starts_with("//") || t.starts_with("/*") || t.starts_with("Tree") {
            return Format::Ron;
        }
        // RON's top level is `(field: ...`; bracket notation never has an identifier then `:`.
        let inner = t.strip_prefix('(').unwrap_or("").trim_start();
        let ident_len = inner
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if ident_len > 0
            && inner.as_bytes()[0].is_ascii_alphabetic()
            && inner[ident_len..].trim_start().starts_with(':')
        {
            return Format::Ron;
        }
        Format::Bracket
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Ron => "ron",
            Format::Efg => "efg",
            Format::Bracket => "txt",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// `ron`, `efg` or `bracket` (also `txt`).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "ron" => Ok(Format::Ron),
            "efg" | "gambit" => Ok(Format::Efg),
            "bracket" | "txt" | "tree" => Ok(Format::Bracket),
            _ => Err(format!(
                "unknown format `{s}`: expected ron, efg or bracket"
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Ron => "RON",
            Format::Efg => "Gambit .efg",
            Format::Bracket => "bracket notation",
        })
    }
}

/// Why a tree could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A problem at a position in the input.
    #[error("{0}")]
    Invalid(Box<Diagnostic>),
    /// A problem with the input as a whole (size, format).
    #[error("{path}: {message}")]
    Whole { path: String, message: String },
    /// The path names a directory, a device, a FIFO or a socket.
    #[error("{path} is {what}, not a tree file")]
    NotAFile {
        path: String,
        what: &'static str,
        hint: Option<&'static str>,
    },
}

impl LoadError {
    /// The full report: for positioned errors, the offending line with a caret.
    pub fn render(&self, color: bool) -> String {
        match self {
            LoadError::Invalid(d) => d.render(color),
            LoadError::NotAFile {
                hint: Some(hint), ..
            } => format!(
                "error: {}\n  hint: {hint}\n",
                crate::text::terminal_safe(&self.to_string())
            ),
            other => format!(
                "error: {}\n",
                crate::text::terminal_safe(&other.to_string())
            ),
        }
    }

    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            LoadError::Invalid(d) => Some(d),
            _ => None,
        }
    }
}

impl From<Diagnostic> for LoadError {
    fn from(d: Diagnostic) -> Self {
        LoadError::Invalid(Box::new(d))
    }
}

/// Why an output's name tells no format: its extension names none, or it has none.
pub(crate) fn unnamed_format(path: &Path) -> String {
    match path.extension() {
        Some(ext) => format!(
            "`.{}` names no format",
            crate::text::terminal_safe(&ext.to_string_lossy())
        ),
        None => "no extension names a format".to_owned(),
    }
}

/// Loads a tree file; the format comes from `format`, else the extension, else the content.
/// Only regular files are read (a FIFO is refused before it is opened, so nothing blocks), and
/// never more than [`max_file_bytes`], whatever the file's size claims.
pub fn load(path: &Path, format: Option<Format>) -> Result<Tree, LoadError> {
    load_counted(path, format, None)
}

/// [`load`], counting in `progress` the bytes read and then the bytes parsed (the explorer's
/// loading screen shows them from another thread). Its total becomes the file's size.
pub fn load_with_progress(
    path: &Path,
    format: Option<Format>,
    progress: &Arc<LoadProgress>,
) -> Result<Tree, LoadError> {
    progress::reporting(progress, || load_counted(path, format, Some(progress)))
}

fn load_counted(
    path: &Path,
    format: Option<Format>,
    progress: Option<&LoadProgress>,
) -> Result<Tree, LoadError> {
    let name = path.display().to_string();
    let io = |source| LoadError::Io {
        path: name.clone(),
        source,
    };
    let limit = max_file_bytes();
    let meta = std::fs::metadata(path).map_err(io)?;
    refuse_unless_regular(&name, &meta)?;
    if meta.len() > limit {
        return Err(too_big(name, Some(meta.len()), limit));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // The path may name something else by now.
    let meta = file.metadata().map_err(io)?;
    refuse_unless_regular(&name, &meta)?;
    let text = match progress {
        Some(p) => {
            p.set_total(meta.len().min(limit));
            let text = read_text(
                &name,
                progress::Counting::new(file, p),
                limit,
                Some(meta.len()),
            )?;
            p.set_total(text.len() as u64);
            text
        }
        None => read_text(&name, file, limit, Some(meta.len()))?,
    };
    let format = format
        .or_else(|| Format::from_path(path))
        .unwrap_or_else(|| Format::sniff(&text));
    parse(&name, text, format)
}

/// Reads a tree from a stream such as standard input, in `format` or the format its content
/// suggests; at most [`max_file_bytes`] bytes are read. `name` names it in messages.
pub fn load_from(name: &str, input: impl Read, format: Option<Format>) -> Result<Tree, LoadError> {
    let text = read_text(name, input, max_file_bytes(), None)?;
    let format = format.unwrap_or_else(|| Format::sniff(&text));
    parse(name, text, format)
}

/// Reads at most `limit` bytes of text; more is refused. `expected`: the length of the file
/// when it was opened, where there is one (the text is what is read, whatever its length).
fn read_text(
    name: &str,
    mut input: impl Read,
    limit: u64,
    expected: Option<u64>,
) -> Result<Arc<str>, LoadError> {
    let io = |source| LoadError::Io {
        path: name.to_owned(),
        source,
    };
    // The first block tells a binary input: refused there, before a file's length is allocated
    // or a stream of NULs is read to the limit.
    let mut probe = Vec::new();
    (&mut input)
        .take(BINARY_PROBE as u64)
        .read_to_end(&mut probe)
        .map_err(io)?;
    if probe.contains(&0) {
        return Err(binary(name, &probe));
    }
    // A file of known length is read straight into the buffer the parsers share, allocated
    // once: no regrowth while reading, and no copy into an `Arc` after (each would fault in and
    // copy the whole text again).
    let mut head = None;
    if let Some(len) = expected.filter(|&len| len <= limit)
        && let Ok(len) = usize::try_from(len)
        && probe.len() <= len
    {
        let mut text: Arc<[u8]> = std::iter::repeat_n(0, len).collect();
        let buf = Arc::get_mut(&mut text).expect("a new Arc has one owner");
        buf[..probe.len()].copy_from_slice(&probe);
        let filled = probe.len() + fill(&mut input, &mut buf[probe.len()..]).map_err(io)?;
        head = Some((text, filled));
        probe.clear();
    }
    // The rest: everything from a stream, nothing from a file that kept its length.
    let read = head.as_ref().map_or(probe.len(), |&(_, filled)| filled);
    let mut input = input.take(limit.saturating_add(1).saturating_sub(read as u64));
    let mut rest = probe;
    input.read_to_end(&mut rest).map_err(io)?;
    let bytes = match head {
        Some((text, filled)) if filled == text.len() && rest.is_empty() => {
            return shared_text(name, text);
        }
        // The file changed while it was read: what was read is the text.
        Some((text, filled)) => [&text[..filled], &rest].concat(),
        None => rest,
    };
    if bytes.len() as u64 > limit {
        return Err(too_big(name.to_owned(), None, limit));
    }
    decode(name, bytes)
}

/// Reads into `buf` until it is full or the input ends; how many bytes it read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

fn too_big(path: String, size: Option<u64>, limit: u64) -> LoadError {
    let size = match size {
        Some(n) => format!("is {n} bytes"),
        None => format!("is larger than {limit} bytes"),
    };
    LoadError::Whole {
        path,
        message: format!(
            "{size}; prune reads tree files up to {limit} bytes (--max-file-size raises the limit)"
        ),
    }
}

/// Refuses directories, devices, FIFOs and sockets: only regular files are trees.
fn refuse_unless_regular(name: &str, meta: &std::fs::Metadata) -> Result<(), LoadError> {
    let t = meta.file_type();
    if t.is_file() {
        return Ok(());
    }
    let (what, hint) = if t.is_dir() {
        ("a directory", None)
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            const PIPE: &str = "to read a pipe, give `-` and redirect it: prune info - < FIFO";
            if t.is_fifo() {
                ("a FIFO (named pipe)", Some(PIPE))
            } else if t.is_char_device() {
                ("a character device", None)
            } else if t.is_block_device() {
                ("a block device", None)
            } else if t.is_socket() {
                ("a socket", None)
            } else {
                ("a special file", None)
            }
        }
        #[cfg(not(unix))]
        {
            ("a special file", None)
        }
    };
    Err(LoadError::NotAFile {
        path: name.to_owned(),
        what,
        hint,
    })
}

/// Parses a tree from text in a known format. `name` names the input in messages.
pub fn parse(name: &str, text: Arc<str>, format: Format) -> Result<Tree, LoadError> {
    if text.trim().is_empty() {
        return Err(Diagnostic::new(name, &text, 0..0, "the input is empty")
            .with_hint("expected a tree")
            .into());
    }
    check_load_room(name, &text, format)?;
    let result = match format {
        Format::Ron => ron::parse(name, text),
        Format::Efg => efg::parse(name, text),
        Format::Bracket => bracket::parse(name, text, false),
    };
    result.map_err(LoadError::from)
}

static MEMORY_CHECK: AtomicBool = AtomicBool::new(true);

/// Whether loading refuses a file whose tree would not fit in memory (on unless the command
/// line's `--ignore-memory-estimate` turned it off). Process-wide.
pub fn set_memory_check(on: bool) {
    MEMORY_CHECK.store(on, Ordering::Relaxed);
}

/// Whether loads refuse what their estimate says would not fit (see [`set_memory_check`]).
pub(crate) fn memory_check() -> bool {
    MEMORY_CHECK.load(Ordering::Relaxed)
}

/// Bytes a node costs while a text is loaded into a tree (the preorder draft and the arena it is
/// laid out into): 44 resident at the peak on a large uniform RON tree, but the `.efg` reader
/// keeps more for each line, capacities reserved from an estimate are address space that
/// `ulimit -v` counts, and this is a bound, not a forecast.
pub const LOAD_BYTES_PER_NODE: u64 = 256;

/// An upper estimate of the nodes a text of `format` describes, from one cheap pass over its
/// bytes: every node of a RON or bracket tree but the root follows a `,`, `(` or `[`; every
/// node of an `.efg` file is a line.
pub fn node_estimate(text: &str, format: Format) -> u64 {
    let b = text.as_bytes();
    let count = match format {
        Format::Efg => count_bytes(b, |c| c == b'\n'),
        Format::Ron | Format::Bracket => count_bytes(b, |c| c == b',' || c == b'(' || c == b'['),
    };
    count as u64 + 1
}

/// An upper estimate of the bytes a load of `text` allocates beyond the text itself. An `.efg`
/// node also holds its payoff totals, a number a player (8 bytes, held three times while the
/// tree is built).
pub fn load_estimate(text: &str, format: Format) -> u64 {
    let per_node = match format {
        Format::Efg => LOAD_BYTES_PER_NODE + 24 * efg_players(text),
        Format::Ron | Format::Bracket => LOAD_BYTES_PER_NODE,
    };
    node_estimate(text, format).saturating_mul(per_node)
}

/// The players an `.efg` header names: the quoted strings of its first `{ … }`.
fn efg_players(text: &str) -> u64 {
    let Some(open) = text.find('{') else {
        return 0;
    };
    let mut players = 0;
    let mut chars = text[open + 1..].chars();
    while let Some(c) = chars.next() {
        match c {
            '}' => break,
            '"' => {
                players += 1;
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    players
}

/// How many bytes of `b` are `hit`, counted in blocks of 255 bytes into a byte: a form the
/// compiler turns into vector instructions (a plain filtered count goes a byte at a time).
fn count_bytes(b: &[u8], hit: impl Fn(u8) -> bool + Copy) -> usize {
    b.chunks(255)
        .map(|block| usize::from(block.iter().fold(0u8, |n, &c| n + u8::from(hit(c)))))
        .sum()
}

/// Refuses, before anything is built, a text whose tree would need more memory than prune
/// may still use (see [`crate::memory`]): the message gives the estimate, the limit and the
/// flag that loads it anyway.
fn check_load_room(name: &str, text: &str, format: Format) -> Result<(), LoadError> {
    if !memory_check() {
        return Ok(());
    }
    let Some((room, limit)) = crate::memory::headroom() else {
        return Ok(());
    };
    // Small texts are never refused: the estimate is an upper bound, and counting is not free.
    if (text.len() as u64).saturating_mul(LOAD_BYTES_PER_NODE) <= room {
        return Ok(());
    }
    let nodes = node_estimate(text, format);
    let need = load_estimate(text, format);
    if need <= room {
        return Ok(());
    }
    Err(LoadError::Whole {
        path: name.to_owned(),
        message: format!(
            "this tree of up to {nodes} nodes needs about {} of memory to load; {limit} leaves {} (--ignore-memory-estimate loads it anyway)",
            crate::memory::human_bytes(need),
            crate::memory::human_bytes(room)
        ),
    })
}

/// Reads a bracket-notation expression given on the command line.
pub fn parse_expr(expr: &str, min_root: bool) -> Result<Tree, LoadError> {
    let text: Arc<str> = Arc::from(expr);
    if expr.trim().is_empty() {
        return Err(
            Diagnostic::new("--expr", &text, 0..0, "the expression is empty")
                .with_hint("try --expr '((3,12,8),(2,4,6),(14,5,2))'")
                .into(),
        );
    }
    bracket::parse("--expr", text, min_root).map_err(LoadError::from)
}

/// Checks that bytes are text: not binary, valid UTF-8.
pub fn decode(name: &str, bytes: Vec<u8>) -> Result<Arc<str>, LoadError> {
    shared_text(name, Arc::from(bytes))
}

/// [`decode`] of bytes already in a shared buffer: the same buffer, as text.
fn shared_text(name: &str, bytes: Arc<[u8]>) -> Result<Arc<str>, LoadError> {
    check_text(name, &bytes)?;
    // SAFETY: the bytes are valid UTF-8 (checked just above), and `str` has the layout of
    // `[u8]`, so the allocation is a valid `Arc<str>`.
    Ok(unsafe { Arc::from_raw(Arc::into_raw(bytes) as *const str) })
}

/// How many bytes at the start of an input are looked at for a NUL, the mark of a binary file.
const BINARY_PROBE: usize = 1 << 16;

/// A binary file (a NUL byte in its first 64 KiB) or invalid UTF-8, reported at the first
/// offending byte.
fn check_text(name: &str, bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.iter().take(BINARY_PROBE).any(|&b| b == 0) {
        return Err(binary(name, bytes));
    }
    if let Err(e) = std::str::from_utf8(bytes) {
        let valid = e.valid_up_to();
        let lossy: Arc<str> = Arc::from(String::from_utf8_lossy(bytes).into_owned());
        let at = String::from_utf8_lossy(&bytes[..valid]).len();
        return Err(
            Diagnostic::new(name, &lossy, at..at + 1, "the file is not valid UTF-8 text")
                .with_hint("save it as UTF-8; is it a binary file?")
                .into(),
        );
    }
    Ok(())
}

/// The report of a binary input, at its first NUL byte (within the first [`BINARY_PROBE`]).
fn binary(name: &str, bytes: &[u8]) -> LoadError {
    let i = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let lossy: Arc<str> = Arc::from(String::from_utf8_lossy(&bytes[..i]).into_owned());
    let at = lossy.len();
    Diagnostic::new(
        name,
        &lossy,
        at..at,
        "this is a binary file, not a tree (it holds a NUL byte)",
    )
    .with_hint("prune reads RON, .efg and bracket-notation text files")
    .into()
}

/// Renders `tree` in `format`.
pub fn write(tree: &Tree, format: Format) -> String {
    match format {
        Format::Ron => ron::write(tree),
        Format::Efg => efg::write(tree),
        Format::Bracket => bracket::write(tree),
    }
}

/// An upper estimate of the bytes of `tree` written as `format`: the text is built in memory
/// before it is saved. RON indents by depth (up to about 200 columns), payoff vectors add a
/// number a player, labels their length; in RON a position key up to 30 bytes and a heuristic
/// value up to 40.
pub fn text_estimate(tree: &Tree, format: Format) -> u64 {
    let positions = 30 * u64::from(tree.has_keys()) + 40 * u64::from(tree.has_heuristics());
    let per_node = match format {
        Format::Ron => 16 + (4 * tree.height() as u64).min(200) + positions,
        Format::Efg => 32,
        Format::Bracket => 8,
    } + 24 * tree.players() as u64;
    (tree.len() as u64).saturating_mul(per_node)
}

/// Refuses to write `tree` as `format` when its text would not fit in the memory prune may
/// still use: the message gives the estimate and the limit.
pub fn check_text_room(tree: &Tree, format: Format) -> Result<(), String> {
    let need = text_estimate(tree, format);
    match crate::memory::headroom() {
        Some((room, limit)) if need > room => Err(format!(
            "writing this tree ({} nodes) as {format:?} needs about {} of memory for its text; {limit} leaves {}",
            tree.len(),
            crate::memory::human_bytes(need),
            crate::memory::human_bytes(room)
        )),
        _ => Ok(()),
    }
}

/// Saves `tree` to `path` in `format` (or the format its extension implies, RON by default).
pub fn save(tree: &Tree, path: &Path, format: Option<Format>) -> std::io::Result<()> {
    let format = format
        .or_else(|| Format::from_path(path))
        .unwrap_or(Format::Ron);
    save_text(path, &write(tree, format))
}

pub use crate::text::number_text;

/// A draft's semantic error, placed at the node's span.
pub(crate) fn invalid_to_diagnostic(
    lx: &lex::Lexer<'_>,
    spans: &[Range<usize>],
    e: Invalid,
) -> Diagnostic {
    let span = spans.get(e.node).cloned().unwrap_or(0..0);
    let d = lx.error(span, e.message);
    match e.hint {
        Some(h) => d.with_hint(h),
        None => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_what_is_read_whatever_length_was_expected() {
        let text = "(root: Max([3, Min([1, 2])]))";
        for expected in [None, Some(0), Some(5), Some(text.len() as u64), Some(100)] {
            let read = read_text("t.ron", text.as_bytes(), 1000, expected).unwrap();
            assert_eq!(&*read, text, "expected {expected:?}");
            let e = read_text("t.ron", text.as_bytes(), 10, expected).unwrap_err();
            assert!(e.to_string().contains("larger than 10 bytes"), "{e}");
        }
        for bad in [&b"(root: \x00)"[..], b"(root:\n \xff)"] {
            let expected = Some(bad.len() as u64);
            let shared = read_text("t.ron", bad, 1000, expected).unwrap_err();
            let decoded = decode("t.ron", bad.to_vec()).unwrap_err();
            assert_eq!(shared.render(false), decoded.render(false));
        }
    }

    /// A file whose first block is NULs and whose further reads fail: a refusal that read past
    /// the first block reports the failure instead.
    struct NulsThenFailure(usize);

    impl Read for NulsThenFailure {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("read past the first block"));
            }
            let n = buf.len().min(self.0);
            buf[..n].fill(0);
            self.0 -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_binary_file_is_refused_at_its_first_block() {
        for expected in [None, Some(1 << 20), Some(MAX_FILE_BYTES)] {
            let input = NulsThenFailure(BINARY_PROBE);
            let e = read_text("z.ron", input, MAX_FILE_BYTES, expected).unwrap_err();
            assert!(e.to_string().contains("binary file"), "{expected:?}: {e}");
        }
    }

    #[test]
    fn an_output_format_is_named_never_guessed() {
        let out = |p: &str, to| Format::for_output(Some(Path::new(p)), to);
        assert_eq!(out("t.efg", None), Ok(Format::Efg));
        assert_eq!(out("t.TREE", None), Ok(Format::Bracket));
        assert_eq!(out("-", None), Ok(Format::Ron));
        assert_eq!(out("/dev/stdout", None), Ok(Format::Ron));
        assert_eq!(Format::for_output(None, None), Ok(Format::Ron));
        assert_eq!(out("t.xyz", Some(Format::Efg)), Ok(Format::Efg));
        let e = out("t.xyz", None).unwrap_err();
        assert!(
            e.contains("`.xyz` names no format") && e.contains("--to"),
            "{e}"
        );
        let e = out("out", None).unwrap_err();
        assert!(e.contains("out: no extension names a format"), "{e}");
        assert_eq!(out("out", Some(Format::Bracket)), Ok(Format::Bracket));
    }

    #[test]
    fn efg_players_are_counted_from_the_header() {
        assert_eq!(
            efg_players("EFG 2 R \"g\" { \"a\" \"b\\\"}\" \"c\" }\n\"\"\n"),
            3
        );
        assert_eq!(efg_players("EFG 2 R \"g\""), 0);
    }

    #[test]
    fn sniffing() {
        assert_eq!(Format::sniff("EFG 2 R \"x\" { \"a\" \"b\" }"), Format::Efg);
        assert_eq!(Format::sniff("  (version: 1, root: 3)"), Format::Ron);
        assert_eq!(Format::sniff("// comment\n(root: 3)"), Format::Ron);
        assert_eq!(Format::sniff("((3,12,8),(2,4,6))"), Format::Bracket);
        assert_eq!(Format::sniff("(a=3, b=4)"), Format::Bracket);
        assert_eq!(Format::sniff("\u{feff}EFG 2 R \"x\" { }"), Format::Efg);
        assert_eq!(Format::sniff("\u{feff}(root: 3)"), Format::Ron);
    }

    #[test]
    fn binary_and_bad_utf8_are_refused_with_position() {
        let e = decode("x.ron", b"(root: \x00\x01)".to_vec()).unwrap_err();
        assert!(e.to_string().contains("binary file"), "{e}");
        let e = decode("x.ron", b"(root:\n  \xff\xfe)".to_vec()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("x.ron:2:3: the file is not valid UTF-8"),
            "{e}"
        );
    }
}
