//! Reading and writing trees: RON (native), Gambit `.efg`, and bracket notation.
//!
//! Every reader turns any problem with its input — syntax, semantics, encoding, size — into one
//! [`LoadError`] that names the file, line and column and says what was expected. Writers build
//! the whole text in memory; [`save()`] and every other output go through [`save::save_with`],
//! which never replaces what the user has by surprise (see [`mod@save`]). Readers refuse what is not
//! a regular file, and never read more than [`max_file_bytes`].

pub mod bracket;
pub mod diag;
pub mod efg;
pub mod lex;
pub mod progress;
pub mod ron;
pub mod save;
pub mod text;

use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use diag::Diagnostic;
pub use progress::LoadProgress;
pub use save::{
    before_a_fatal_end, clean_up_on_signals, remove_temporaries_and_exit, save_text, save_with,
};
pub use text::Text;

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

/// A tree file format: each has a reader and a writer.
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
        let Some(path) = save::output_file(out) else {
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

    /// The file extension that names this format, without its dot.
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
    /// The input could not be read (a missing file, a permission, a read error).
    #[error("cannot read {path}: {source}")]
    Io {
        /// The input's name, as the user gave it.
        path: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A problem at a position in the input.
    #[error("{0}")]
    Invalid(Box<Diagnostic>),
    /// A problem with the input as a whole (size, format).
    #[error("{path}: {message}")]
    Whole {
        /// The input's name.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// The path names a directory, a device, a FIFO or a socket.
    #[error("{path} is {what}, not a tree file")]
    NotAFile {
        /// The path, as the user gave it.
        path: String,
        /// What it is instead ("a directory", "a FIFO" …).
        what: &'static str,
        /// What to do instead, when there is something to suggest.
        hint: Option<&'static str>,
    },
}

impl LoadError {
    /// The full report, as plain text: for positioned errors, the offending line with a caret
    /// (the binary colours it through [`Diagnostic::render_styled`]).
    pub fn render(&self) -> String {
        match self {
            LoadError::Invalid(d) => d.render(),
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

    /// The positioned problem, for the errors that have one.
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
pub fn unnamed_format(path: &Path) -> String {
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
    let text = match map_text(&name, &file, meta.len())? {
        Some(text) => {
            if let Some(p) = progress {
                p.set_total(text.len() as u64);
                p.read_bytes(text.len() as u64);
            }
            text
        }
        None => match progress {
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
        },
    };
    let named = format.or_else(|| Format::from_path(path));
    let format = named.unwrap_or_else(|| Format::sniff(&text));
    match (parse(&name, text, format), named, path.extension()) {
        // A file whose extension names no tree format (README.md) that does not read as the
        // format its content suggests: most likely not a tree at all, and the error says so.
        (Err(LoadError::Invalid(mut d)), None, Some(ext)) => {
            let not_a_tree = format!(
                "`.{}` is not a tree file's extension (.ron, .efg, .txt, .tree, .bracket), and its text does not read as {format}; if it is a tree, give --from",
                crate::text::terminal_safe(&ext.to_string_lossy())
            );
            d.hint = Some(match d.hint.take() {
                Some(h) => format!("{h}; {not_a_tree}"),
                None => not_a_tree,
            });
            Err(LoadError::Invalid(d))
        }
        (result, _, _) => result,
    }
}

/// The text of an input that is not a tree (an engine's trace), read with a tree file's
/// bounds: only a regular file (a directory, a device such as `/dev/zero`, a FIFO or a
/// socket is refused at once, before a byte is read), at most [`max_file_bytes`] bytes, no
/// NUL byte (a binary file is refused from its first block), UTF-8. `-` reads standard input,
/// to the same limit. `name` names it in messages.
pub fn read_input(name: &str, path: &Path) -> Result<Arc<str>, LoadError> {
    let limit = max_file_bytes();
    if path.as_os_str() == "-" {
        return read_text(name, std::io::stdin().lock(), limit, None).map(Text::into_shared);
    }
    let io = |source| LoadError::Io {
        path: name.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    refuse_unless_regular(name, &meta)?;
    if meta.len() > limit {
        return Err(too_big(name.to_owned(), Some(meta.len()), limit));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    read_text(name, file, limit, Some(meta.len())).map(Text::into_shared)
}

/// Reads a tree from a stream such as standard input, in `format` or the format its content
/// suggests; at most [`max_file_bytes`] bytes are read. `name` names it in messages.
pub fn load_from(name: &str, input: impl Read, format: Option<Format>) -> Result<Tree, LoadError> {
    let text = read_text(name, input, max_file_bytes(), None)?;
    let format = format.unwrap_or_else(|| Format::sniff(&text));
    parse(name, text, format)
}

/// The text of a regular file of `len` bytes (at most the limit, checked before), mapped
/// rather than read (see [`Text`]); `None` where it cannot be (not Linux, an empty file, a
/// file system that refuses), and the caller reads it. The checks are a read text's: binary,
/// then UTF-8, with the same messages.
#[cfg(target_os = "linux")]
fn map_text(name: &str, file: &std::fs::File, len: u64) -> Result<Option<Text>, LoadError> {
    let Some(mapped) = usize::try_from(len)
        .ok()
        .and_then(|len| Text::map(file, len, name))
    else {
        return Ok(None);
    };
    check_text(name, mapped.bytes())?;
    // SAFETY: the bytes were just found to be UTF-8.
    Ok(Some(unsafe { Text::from_mapped(mapped) }))
}

#[cfg(not(target_os = "linux"))]
fn map_text(_name: &str, _file: &std::fs::File, _len: u64) -> Result<Option<Text>, LoadError> {
    Ok(None)
}

/// Reads at most `limit` bytes of text; more is refused. `expected`: the length of the file
/// when it was opened, where there is one (the text is what is read, whatever its length).
fn read_text(
    name: &str,
    mut input: impl Read,
    limit: u64,
    expected: Option<u64>,
) -> Result<Text, LoadError> {
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
            return shared_text(name, text).map(Text::from);
        }
        // The file changed while it was read: what was read is the text.
        Some((text, filled)) => [&text[..filled], &rest].concat(),
        None => rest,
    };
    if bytes.len() as u64 > limit {
        return Err(too_big(name.to_owned(), None, limit));
    }
    decode(name, bytes).map(Text::from)
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
///
/// ```
/// use prune::format::{self, Format};
///
/// let text = "(version: 1, root: Max([Min([3, 12, 8]), Chance([Prob(0.25, 4), Prob(0.75, 10)])]))";
/// let tree = format::parse("figure", text.into(), Format::Ron)?;
/// assert_eq!((tree.len(), tree.leaf_count()), (8, 5));
///
/// // A bad input is refused with its position, line and column.
/// let err = format::parse("bad", "(version: 1, root: Max([1, 2)".into(), Format::Ron).unwrap_err();
/// assert!(err.render().contains("bad:1:"));
/// # Ok::<(), format::LoadError>(())
/// ```
pub fn parse(name: &str, text: Text, format: Format) -> Result<Tree, LoadError> {
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

/// Loads of at least this many nodes (by [`node_estimate`]) have their draft's and arena's
/// memory faulted in on another thread while the text is read ([`crate::tree::Room`]).
pub(crate) const ROOM_MIN: usize = 1 << 20;

/// More than a load takes for each byte of its text, whatever the tree holds (labels,
/// probabilities, payoff vectors, keys, heuristic values: see [`load_estimate`]), bar `.efg`
/// games of many players: a text is loaded without counting when this many bytes for each of
/// its bytes fit.
pub const LOAD_BYTES_PER_NODE: u64 = 256;

/// An upper estimate of the nodes a text of `format` describes, from one cheap pass over its
/// bytes: every node of a RON tree but the root follows a `[` or `,` (a child list, or a
/// `Prob(p, node)`), every node of a bracket tree but the root a `(` or `,`; every node of an
/// `.efg` file is a line. Commas that part other things (payoff vectors, a label from its
/// children, position keys) make it higher; the RON and bracket readers reserve their drafts
/// from it, so it is kept as tight as one pass allows.
pub fn node_estimate(text: &str, format: Format) -> u64 {
    let b = text.as_bytes();
    let count = match format {
        Format::Efg => count_bytes(b, |c| c == b'\n'),
        Format::Ron => count_bytes(b, |c| c == b'[') + ron_separators(b),
        Format::Bracket => count_bytes(b, |c| c == b',' || c == b'('),
    };
    count as u64 + 1
}

/// The commas of a RON text that may part two nodes: not one right after a string (a label's
/// end), nor one before what no node starts with (after a space at most): a closing `]` or `)`
/// (a trailing comma), a `[` (after a label), a lowercase word (a field) or `(` and one (the
/// node's `(key: …)`). Every node but the root follows one of these or a `[`. Each comma is
/// looked at with the byte before it and three after; a comma in a string or a comment is one
/// of the bytes looked at, so leaving it out never leaves out a node.
fn ron_separators(b: &[u8]) -> usize {
    let commas = count_bytes(b, |c| c == b',');
    let n = b.len().saturating_sub(4);
    let body: usize = (0..n)
        .step_by(255)
        .map(|start| {
            let end = (start + 255).min(n);
            let w = |k: usize| &b[start + k..end + k];
            let lanes = w(0).iter().zip(w(1)).zip(w(2)).zip(w(3)).zip(w(4));
            usize::from(lanes.fold(0u8, |count, ((((&p, &q), &x), &y), &z)| {
                count + u8::from(not_before_node(p, q, x, y, z))
            }))
        })
        .sum();
    // Commas at the first byte and the last three, looked at with spaces around the text.
    let byte = |at: usize| {
        at.checked_sub(1)
            .and_then(|at| b.get(at))
            .copied()
            .unwrap_or(b' ')
    };
    let ends: usize = std::iter::once(0)
        .chain(n + 1..b.len())
        .filter(|&p| p < b.len())
        .map(|p| {
            usize::from(not_before_node(
                byte(p),
                byte(p + 1),
                byte(p + 2),
                byte(p + 3),
                byte(p + 4),
            ))
        })
        .sum();
    commas - body - ends
}

/// Whether `at` is a comma that parts no two nodes, from the byte before it and three after
/// (see [`ron_separators`]); branch-free, so that a pass of it vectorises.
#[inline]
fn not_before_node(before: u8, at: u8, a: u8, b: u8, c: u8) -> bool {
    let space = a == b' ';
    let next = if space { b } else { a };
    let then = if space { c } else { b };
    let lower = |x: u8| x.wrapping_sub(b'a') < 26;
    (at == b',')
        & ((before == b'"')
            | (next == b']')
            | (next == b')')
            | (next == b'[')
            | lower(next)
            | ((next == b'(') & lower(then)))
}

/// What a load allocates a node, from what the loaders build (see [`crate::tree::Draft`] and
/// the arena in [`crate::tree`]).
mod cost {
    /// The draft's kind, child count and value (2 + 4 + 8 bytes), reserved for every node the
    /// count allows.
    pub const DRAFT: u64 = 14;
    /// The arena's five columns every tree has (22 bytes) and the search facts (a bit a
    /// node, held twice); in a debug build, the layout's check of its facts (a depth a node).
    pub const ARENA: u64 = 23 + if cfg!(debug_assertions) { 4 } else { 0 };
    /// The arena's edge probability and uniform flag (8 + 1), kept only where a node is a
    /// chance node.
    pub const CHANCE: u64 = 9;
    /// Labels: the draft's entry and end (4 + 4), reserved for every node the count allows.
    pub const DRAFT_LABEL: u64 = 8;
    /// Labels: the arena's entry for each node.
    pub const LABEL: u64 = 4;
    /// Probabilities: the draft's (index, probability) pairs.
    pub const PROB: u64 = 16;
    /// Payoff vectors: the draft's index and end (4 + 8), reserved for every node the count
    /// allows.
    pub const DRAFT_PAYOFF: u64 = 12;
    /// A payoff value, in the draft and again in the arena.
    pub const VALUE: u64 = 16;
    /// Keys or heuristic values: the layout's columns of options for both (16 + 16).
    pub const POSITIONS: u64 = 32;
    /// Keys, or heuristic values: the draft's (index, value) pairs (16) and the tree's column.
    pub const POSITION: u64 = 24;
    /// An `.efg` line's number in the reader's tables (its information set or outcome), in a
    /// vector that doubles as it grows.
    pub const EFG_LINE: u64 = 8;
    /// The draft's stacks and every other allocation of a load whatever its size.
    pub const FIXED: u64 = 1 << 10;
}

/// An upper estimate of the bytes a load of `text` allocates beyond the text itself, built
/// from what the loader allocates: the draft's and the arena's columns for each node
/// [`node_estimate`] allows, side tables only when the text has what fills them (labels,
/// probabilities, payoff vectors, position keys, heuristic values: each found by a search
/// that stops at the first), and for `.efg` the reader's tables (a number for each information
/// set and outcome, each distinct payoff vector and chance declaration), which are freed
/// before the arena is built. Measured over every generator family in every format
/// (`tests/load_memory.rs`, two sizes each), it is 1.03–1.42 times the peak for RON,
/// 1.01–1.20 for bracket notation and 1.08–1.46 for `.efg` (the test build's figures).
pub fn load_estimate(text: &str, format: Format) -> u64 {
    load_estimate_of(text, format, node_estimate(text, format))
}

/// [`load_estimate`] with the text's [`node_estimate`] already counted.
fn load_estimate_of(text: &str, format: Format, nodes: u64) -> u64 {
    let bytes = match format {
        Format::Efg => efg_estimate(text, nodes),
        Format::Ron | Format::Bracket => tree_text_estimate(text, format, nodes),
    };
    bytes.saturating_add(cost::FIXED)
}

/// [`load_estimate`] of a RON or bracket text of up to `nodes` nodes. Payoff vectors make
/// `nodes` high (every comma inside one counts), so the arena is counted from a bound that
/// holds where every node has a `(` or a `[`, as in a tree of payoff vectors.
fn tree_text_estimate(text: &str, format: Format, nodes: u64) -> u64 {
    let has = Features::of(text, format);
    let mut draft = cost::DRAFT;
    let mut arena = cost::ARENA;
    if has.labels {
        draft += cost::DRAFT_LABEL;
        arena += cost::LABEL;
    }
    if has.probabilities {
        draft += cost::PROB;
    }
    if has.chance {
        arena += cost::CHANCE;
    }
    if has.keys || has.heuristics {
        arena +=
            cost::POSITIONS + cost::POSITION * (u64::from(has.keys) + u64::from(has.heuristics));
    }
    let mut arena_nodes = nodes;
    if has.payoffs {
        // Every value is a comma or an opening of the text, so at most `nodes` of them.
        draft += cost::DRAFT_PAYOFF + cost::VALUE;
        let opening = count_bytes(text.as_bytes(), |c| c == b'(' || c == b'[') as u64 + 1;
        arena_nodes = nodes.min(opening);
    }
    // The draft makes room for labels as long as the text (so that they never grow).
    let label_text = if has.labels { text.len() as u64 } else { 0 };
    nodes
        .saturating_mul(draft)
        .saturating_add(arena_nodes.saturating_mul(arena))
        .saturating_add(label_text)
}

/// [`load_estimate`] of an `.efg` text of up to `lines` nodes. The reader reserves its draft
/// for a node every 16 bytes of text (or `lines`, if more: it grows) and pushes every node
/// into it as it reads, keeping a number for each information set and outcome, and each
/// distinct payoff vector and chance declaration (at most one a line); the arena is built from
/// the draft once those are freed.
fn efg_estimate(text: &str, lines: u64) -> u64 {
    let players = efg_players(text);
    let b = text.as_bytes();
    let body = efg_body(text);
    let labels = has_efg_name(&b[body..]);
    let chance = text[body..].contains("\nc ");
    let n_player = players != 2;
    let values = lines.saturating_mul(players);
    let room = lines.max(text.len() as u64 / 16);
    let mut draft = room.saturating_mul(cost::DRAFT);
    if labels {
        draft = draft.saturating_add(room * cost::DRAFT_LABEL + text.len() as u64);
    }
    if chance {
        draft = draft.saturating_add(room * cost::PROB);
    }
    if n_player {
        // The values are reserved a node each, then grow by doubling.
        draft = draft.saturating_add(room * cost::DRAFT_PAYOFF + room.max(values) * 8);
    }
    // Named actions: every distinct list of them (at most as long as the text).
    let lists = if labels { text.len() as u64 } else { 0 };
    let probs = if chance { lines * 8 } else { 0 };
    // Payoff vectors and probabilities in vectors that double as they grow.
    let reading = lines
        .saturating_mul(cost::EFG_LINE)
        .saturating_add(values * 16)
        .saturating_add(lists + 2 * probs);
    let per_node =
        cost::ARENA + if labels { cost::LABEL } else { 0 } + if chance { cost::CHANCE } else { 0 };
    let arena =
        lines
            .saturating_mul(per_node)
            .saturating_add(if n_player { values * 8 } else { 0 });
    draft.saturating_add(reading.max(arena))
}

/// Where an `.efg` file's node lines begin: its first line that starts with `p`, `c` or `t`
/// and a space (the whole text when none does).
fn efg_body(text: &str) -> usize {
    ["\np ", "\nc ", "\nt "]
        .iter()
        .filter_map(|l| text.find(l))
        .min()
        .unwrap_or(0)
}

/// Whether `b`, node lines of an `.efg` file, names a node or an action: a quote with no
/// quote beside it (the two of an empty name `""` are side by side).
fn has_efg_name(b: &[u8]) -> bool {
    b.windows(3)
        .any(|w| w[1] == b'"' && w[0] != b'"' && w[2] != b'"')
}

/// What a RON or bracket text holds beyond kinds and values, by the marks it would leave (a
/// mark in a comment or a name only makes the estimate higher).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Features {
    labels: bool,
    probabilities: bool,
    chance: bool,
    payoffs: bool,
    keys: bool,
    heuristics: bool,
}

impl Features {
    fn of(text: &str, format: Format) -> Features {
        match format {
            Format::Ron => Features {
                labels: text.contains("(\""),
                probabilities: text.contains("Prob("),
                chance: text.contains("Chance"),
                payoffs: text.contains("players") || has_ron_tuple_node(text),
                keys: text.contains("key"),
                heuristics: text.contains("heuristic"),
            },
            Format::Bracket => {
                let b = text.as_bytes();
                Features {
                    labels: b.contains(&b'"') || b.contains(&b'='),
                    probabilities: b.contains(&b':'),
                    chance: b.contains(&b'*'),
                    payoffs: b.contains(&b'['),
                    keys: false,
                    heuristics: false,
                }
            }
            Format::Efg => Features::default(),
        }
    }
}

/// Whether a RON text has a payoff tuple as a node: a `(` after a `[` or `,`, before a number.
fn has_ron_tuple_node(text: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices('(').any(|(i, _)| {
        let before = b[..i].iter().rev().find(|c| !c.is_ascii_whitespace());
        let after = b[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
        matches!(before, Some(b'[' | b','))
            && after.is_some_and(|c| c.is_ascii_digit() || b"-+.".contains(c))
    })
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
    let need = load_estimate_of(text, format, nodes);
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
///
/// ```
/// // Levels alternate from a Max root: Knuth and Moore's figure, whose value is 3.
/// let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false)?;
/// assert_eq!(tree.len(), 13);
/// assert_eq!(tree.height(), 2);
/// # Ok::<(), prune::format::LoadError>(())
/// ```
pub fn parse_expr(expr: &str, min_root: bool) -> Result<Tree, LoadError> {
    let text = Text::from(expr);
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
///
/// ```
/// use prune::format::{self, Format};
///
/// let tree = format::parse_expr("(a=1,b=*(2,3))", false)?;
/// assert_eq!(format::write(&tree, Format::Bracket).trim(), "(a=1,b=*(2,3))");
/// let efg = format::write(&tree, Format::Efg);
/// assert_eq!(format::parse("t.efg", efg.into(), Format::Efg)?.len(), tree.len());
/// # Ok::<(), format::LoadError>(())
/// ```
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
/// still use: the message gives the estimate, the limit and the flag that writes it anyway.
/// Off with the loads' check (`--ignore-memory-estimate`).
pub fn check_text_room(tree: &Tree, format: Format) -> Result<(), String> {
    if !memory_check() {
        return Ok(());
    }
    let need = text_estimate(tree, format);
    match crate::memory::headroom() {
        Some((room, limit)) if need > room => Err(format!(
            "writing this tree ({} nodes) as {format:?} needs about {} of memory for its text; {limit} leaves {} (--ignore-memory-estimate writes it anyway)",
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
            assert_eq!(shared.render(), decoded.render());
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
    fn node_counts_are_at_least_the_nodes_and_close_to_them() {
        let texts = [
            (Format::Ron, "(root: 3)"),
            (
                Format::Ron,
                "(\n  name: \"a, b\",\n  root: Max([\n    Min(\"x, (key\", [3, 12, 8], (key: 1, heuristic: 0.5)),\n    Leaf(\"b\", 2, (key: 2)),\n    Min([1,2,]),\n  ]),\n)",
            ),
            (
                Format::Ron,
                "(root: Chance([Prob(\"1/4\", 1), Prob(0.75, Max([2, 3]))]))",
            ),
            (
                Format::Ron,
                "(players: 3, root: Player(1, [(1, 2, 3), Player(2, [(3, 2, 1)])]))",
            ),
            (Format::Bracket, "((3,12,8),(2,4,6),(14,5,2))"),
            (Format::Bracket, "*(1/4:3, 3/4:(a=1,\"b, c\"=2))"),
        ];
        for (format, text) in texts {
            let tree = parse("t", Text::from(text), format).unwrap_or_else(|e| panic!("{e}"));
            let count = node_estimate(text, format);
            let nodes = tree.len() as u64;
            assert!(
                (nodes..=nodes + 4).contains(&count),
                "{text}: {count} counted, {nodes} nodes"
            );
        }
    }

    #[test]
    fn ron_separators_look_at_every_comma_once() {
        // Every text of up to six bytes from those the rule looks at, against a plain loop.
        let alphabet = b", ]\"(k1";
        let plain = |b: &[u8]| {
            let at = |i: usize| {
                i.checked_sub(1)
                    .map_or(b' ', |i| *b.get(i).unwrap_or(&b' '))
            };
            (0..b.len())
                .filter(|&i| b[i] == b',')
                .filter(|&i| !not_before_node(at(i), b[i], at(i + 2), at(i + 3), at(i + 4)))
                .count()
        };
        let mut text = Vec::new();
        for len in 0..=6u32 {
            for mut code in 0..alphabet.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                assert_eq!(
                    ron_separators(&text),
                    plain(&text),
                    "{}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    #[test]
    fn efg_names_are_told_from_empty_ones() {
        assert!(!has_efg_name(b"p \"\" 1 1 \"\" { \"\" \"\" } 0\n"));
        assert!(has_efg_name(b"p \"\" 1 1 \"\" { \"roll\" \"\" } 0\n"));
        let text = "EFG 2 R \"g\" { \"A\" \"B\" }\n\"\"\n\np \"\" 1 1 \"\" { \"\" } 0\n";
        assert!(!has_efg_name(&text.as_bytes()[efg_body(text)..]));
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
