//! How far a load has got, for the explorer's loading screen: the file's size, the bytes read so
//! far, then the bytes the parser has passed. Another thread reads the counters while the load
//! runs.
//!
//! The reader counts what it reads (in slices of at most [`SLICE`], so a file read from the page
//! cache still moves the count); parsing, which is most of a load, is reported by the lexer the
//! three readers share, every [`REPORT_EVERY`] bytes, to the progress installed on its thread by
//! [`reporting`]. Without one, a report costs a thread-local read every 64 KiB.

use std::cell::RefCell;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most a counted read asks for at once.
pub const SLICE: usize = 1 << 20;

/// How often the lexer reports its offset, in bytes.
pub const REPORT_EVERY: usize = 1 << 16;

/// The counters of one load; see the module documentation.
#[derive(Debug, Default)]
pub struct LoadProgress {
    total: AtomicU64,
    read: AtomicU64,
    parsed: AtomicU64,
}

/// What a load is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the file: `done` bytes of `total`.
    Reading,
    /// Parsing the text: the parser has passed `done` bytes of `total`.
    Parsing,
    /// Everything is parsed; the tree is being checked and laid out.
    Building,
}

/// A consistent reading of the counters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The stage the load is in.
    pub stage: Stage,
    /// Bytes done in this stage.
    pub done: u64,
    /// The file's size in bytes.
    pub total: u64,
}

impl Snapshot {
    /// `done` as a whole percentage of `total` (100 for an empty file).
    pub fn percent(&self) -> u64 {
        (self.done.min(self.total) * 100)
            .checked_div(self.total)
            .unwrap_or(100)
    }
}

impl LoadProgress {
    /// A load of a file of `total` bytes, nothing done yet.
    pub fn new(total: u64) -> LoadProgress {
        LoadProgress {
            total: AtomicU64::new(total),
            ..LoadProgress::default()
        }
    }

    /// Where the load is.
    pub fn snapshot(&self) -> Snapshot {
        let total = self.total.load(Ordering::Relaxed);
        let read = self.read.load(Ordering::Relaxed);
        let parsed = self.parsed.load(Ordering::Relaxed);
        // Nothing read yet may also mean that the size is not known yet.
        let (stage, done) = if parsed == 0 && (read < total || read == 0) {
            (Stage::Reading, read)
        } else if parsed < total {
            (Stage::Parsing, parsed)
        } else {
            (Stage::Building, total)
        };
        Snapshot { stage, done, total }
    }

    /// The file turned out to be `total` bytes long (it may have changed since it was measured).
    pub(crate) fn set_total(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
    }

    /// `n` more bytes were read.
    pub fn read_bytes(&self, n: u64) {
        self.read.fetch_add(n, Ordering::Relaxed);
    }

    /// The parser has passed `offset` bytes of the text (reports never go backwards).
    pub fn parsed_to(&self, offset: u64) {
        self.parsed.fetch_max(offset, Ordering::Relaxed);
    }
}

/// A reader that adds what it reads to a [`LoadProgress`].
pub struct Counting<'a, R> {
    inner: R,
    progress: &'a LoadProgress,
}

impl<'a, R: Read> Counting<'a, R> {
    /// `inner`, its bytes counted into `progress` as they are read.
    pub fn new(inner: R, progress: &'a LoadProgress) -> Self {
        Counting { inner, progress }
    }
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(SLICE);
        let n = self.inner.read(&mut buf[..n])?;
        self.progress.read_bytes(n as u64);
        Ok(n)
    }
}

thread_local! {
    static PARSING: RefCell<Option<Arc<LoadProgress>>> = const { RefCell::new(None) };
}

/// Runs `work` with `progress` receiving the parse offsets reported on this thread.
pub fn reporting<T>(progress: &Arc<LoadProgress>, work: impl FnOnce() -> T) -> T {
    /// Uninstalls the progress however `work` ends.
    struct Reset(Option<Arc<LoadProgress>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let previous = self.0.take();
            PARSING.with(|p| *p.borrow_mut() = previous);
        }
    }
    let previous = PARSING.with(|p| p.borrow_mut().replace(Arc::clone(progress)));
    let _reset = Reset(previous);
    work()
}

/// The parser on this thread has passed `offset` bytes of its text.
pub(crate) fn parsed(offset: usize) {
    PARSING.with(|p| {
        if let Some(progress) = p.borrow().as_ref() {
            progress.parsed_to(offset as u64);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_counts_in_slices() {
        let text = vec![b'x'; 3 * SLICE + 5];
        let progress = LoadProgress::new(text.len() as u64);
        let mut reader = Counting::new(&text[..], &progress);
        let mut buf = vec![0u8; text.len()];
        assert_eq!(reader.read(&mut buf).unwrap(), SLICE);
        let s = progress.snapshot();
        assert_eq!(
            (s.stage, s.done, s.percent()),
            (Stage::Reading, SLICE as u64, 33)
        );
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).unwrap();
        assert_eq!(rest.len(), 2 * SLICE + 5);
        assert_eq!(progress.snapshot().stage, Stage::Parsing);
        assert_eq!(progress.snapshot().done, 0);
    }

    #[test]
    fn a_load_not_started_is_reading() {
        for total in [0, 1000] {
            let s = LoadProgress::new(total).snapshot();
            assert_eq!((s.stage, s.done, s.total), (Stage::Reading, 0, total));
        }
    }

    #[test]
    fn parse_offsets_reach_only_the_installed_progress() {
        let progress = Arc::new(LoadProgress::new(1000));
        parsed(500);
        assert_eq!(progress.snapshot().done, 0, "nothing installed yet");
        reporting(&progress, || {
            parsed(400);
            parsed(300);
        });
        let s = progress.snapshot();
        assert_eq!((s.stage, s.done, s.percent()), (Stage::Parsing, 400, 40));
        parsed(900);
        assert_eq!(progress.snapshot().done, 400, "uninstalled after the work");
        reporting(&progress, || parsed(1000));
        assert_eq!(progress.snapshot().stage, Stage::Building);
    }

    #[test]
    fn the_lexer_reports_its_offset_every_64_kib() {
        use crate::format::lex::{Lexer, Tok};
        let text: String = "12, ".repeat(REPORT_EVERY); // 256 KiB
        let progress = Arc::new(LoadProgress::new(text.len() as u64));
        progress.read_bytes(text.len() as u64);
        let mut lx = Lexer::new("t", text.as_str().into(), false);
        reporting(&progress, || {
            // 70 000 bytes of tokens: one report, at the first token past 64 KiB.
            for _ in 0..70_000 / 2 {
                lx.next_token().unwrap();
            }
            let done = progress.snapshot().done;
            assert!(
                (REPORT_EVERY as u64..REPORT_EVERY as u64 + 4).contains(&done),
                "{done}"
            );
            while lx.next_token().unwrap().tok != Tok::Eof {}
        });
        let s = progress.snapshot();
        assert_eq!((s.stage, s.done), (Stage::Building, text.len() as u64));
    }

    #[test]
    fn a_load_counts_every_byte_read_and_parsed() {
        let tree = crate::generate::uniform::generate(
            &crate::generate::uniform::Uniform {
                branching: 6,
                depth: 6,
                values: crate::generate::Values::integers(0, 99),
                order: crate::generate::uniform::Order::Random,
            },
            1,
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.efg");
        std::fs::write(&path, crate::format::efg::write(&tree)).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size > 4 * REPORT_EVERY as u64, "{size}");
        let progress = Arc::new(LoadProgress::default());
        let loaded = crate::format::load_with_progress(&path, None, &progress).unwrap();
        assert_eq!(loaded.len(), tree.len());
        assert_eq!(progress.read.load(Ordering::Relaxed), size);
        let s = progress.snapshot();
        assert_eq!(
            (s.stage, s.done, s.total, s.percent()),
            (Stage::Building, size, size, 100)
        );
    }
}
