//! Reading and writing trees: RON (native), Gambit `.efg`, and bracket notation.
//!
//! Every reader turns any problem with its input — syntax, semantics, encoding, size — into one
//! [`LoadError`] that names the file, line and column and says what was expected. Writers build
//! the whole text in memory and [`save`] replaces the target atomically, so a failed or
//! interrupted save never leaves a partial file.

pub mod bracket;
pub mod diag;
pub mod efg;
pub mod lex;
pub mod ron;

use std::fmt;
use std::io::Write as _;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

pub use diag::Diagnostic;

use crate::tree::{Invalid, Tree};

/// Files larger than this are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

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
}

impl LoadError {
    /// The full report: for positioned errors, the offending line with a caret.
    pub fn render(&self, color: bool) -> String {
        match self {
            LoadError::Invalid(d) => d.render(color),
            other => format!("error: {other}\n"),
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

/// Loads a tree file; the format comes from `format`, else the extension, else the content.
pub fn load(path: &Path, format: Option<Format>) -> Result<Tree, LoadError> {
    let name = path.display().to_string();
    let io = |source| LoadError::Io {
        path: name.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(LoadError::Whole {
            path: name,
            message: "is a directory, not a tree file".into(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(LoadError::Whole {
            path: name,
            message: format!(
                "is {} bytes; prune reads tree files up to {MAX_FILE_BYTES} bytes",
                meta.len()
            ),
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    let text = decode(&name, bytes)?;
    let format = format
        .or_else(|| Format::from_path(path))
        .unwrap_or_else(|| Format::sniff(&text));
    parse(&name, text, format)
}

/// Parses a tree from text in a known format. `name` names the input in messages.
pub fn parse(name: &str, text: Arc<str>, format: Format) -> Result<Tree, LoadError> {
    if text.trim().is_empty() {
        return Err(Diagnostic::new(name, &text, 0..0, "the input is empty")
            .with_hint("expected a tree")
            .into());
    }
    let result = match format {
        Format::Ron => ron::parse(name, text),
        Format::Efg => efg::parse(name, text),
        Format::Bracket => bracket::parse(name, text, false),
    };
    result.map_err(LoadError::from)
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
    if let Some(i) = bytes.iter().take(1 << 16).position(|&b| b == 0) {
        let lossy: Arc<str> = Arc::from(String::from_utf8_lossy(&bytes[..i]).into_owned());
        let at = lossy.len();
        return Err(Diagnostic::new(
            name,
            &lossy,
            at..at,
            "this is a binary file, not a tree (it holds a NUL byte)",
        )
        .with_hint("prune reads RON, .efg and bracket-notation text files")
        .into());
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(Arc::from(s)),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let lossy: Arc<str> = Arc::from(String::from_utf8_lossy(e.as_bytes()).into_owned());
            let at = String::from_utf8_lossy(&e.as_bytes()[..valid]).len();
            Err(
                Diagnostic::new(name, &lossy, at..at + 1, "the file is not valid UTF-8 text")
                    .with_hint("save it as UTF-8; is it a binary file?")
                    .into(),
            )
        }
    }
}

/// Renders `tree` in `format`.
pub fn write(tree: &Tree, format: Format) -> String {
    match format {
        Format::Ron => ron::write(tree),
        Format::Efg => efg::write(tree),
        Format::Bracket => bracket::write(tree),
    }
}

/// Writes `text` to `path` atomically: into a temporary file beside it, then renamed over it.
/// A new file gets the permissions any new file gets (0666 less the umask); a replaced file
/// keeps its own.
pub fn save_text(path: &Path, text: &str) -> std::io::Result<()> {
    save_with(path, |w| w.write_all(text.as_bytes()))
}

/// Like [`save_text`], for output written piece by piece (large traces): `write` gets a
/// buffered writer to the temporary file; nothing replaces `path` unless it succeeds.
pub fn save_with(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".prune-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Passed to open(2), so the umask applies as for any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    if let Ok(existing) = std::fs::metadata(path) {
        tmp.as_file().set_permissions(existing.permissions())?;
    }
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        write(&mut w)?;
        w.flush()?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
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
    fn sniffing() {
        assert_eq!(Format::sniff("EFG 2 R \"x\" { \"a\" \"b\" }"), Format::Efg);
        assert_eq!(Format::sniff("  (version: 1, root: 3)"), Format::Ron);
        assert_eq!(Format::sniff("// comment\n(root: 3)"), Format::Ron);
        assert_eq!(Format::sniff("((3,12,8),(2,4,6))"), Format::Bracket);
        assert_eq!(Format::sniff("(a=3, b=4)"), Format::Bracket);
        assert_eq!(Format::sniff("\u{feff}EFG 2 R \"x\" { }"), Format::Efg);
        assert_eq!(Format::sniff("\u{feff}(root: 3)"), Format::Ron);
    }

    #[cfg(unix)]
    #[test]
    fn saved_files_get_ordinary_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").unwrap();
        let saved = dir.path().join("saved.ron");
        save_text(&saved, "x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&saved), mode(&plain), "like any new file");
        std::fs::set_permissions(&saved, std::fs::Permissions::from_mode(0o640)).unwrap();
        save_text(&saved, "y").unwrap();
        assert_eq!(mode(&saved), 0o640, "a replaced file keeps its permissions");
        assert_eq!(std::fs::read_to_string(&saved).unwrap(), "y");
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
