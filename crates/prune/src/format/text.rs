//! An input's text, as the readers and their diagnostics share it: read into memory, or, for a
//! regular file on Linux, mapped read-only from the page cache.
//!
//! Mapping instead of reading saves the kernel a fresh zeroed page for every 4 KiB of text and
//! the copy into it: at 852 MB (a 10⁸-node tree) about a second of system time. The pages of
//! a mapping are the file's, so a program that truncates the file while it is read would make
//! the next read of a missing page raise `SIGBUS`: the first mapping installs a handler that says
//! so in one line and ends the process with exit code 2, as a bad input does (a partial text
//! cannot be read on from: there is nothing to return to).

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// How far apart a reader gives back the text it has passed ([`Text::release_before`]).
pub(crate) const RELEASE_EVERY: usize = 8 << 20;

/// The text of an input, valid UTF-8, cheap to clone; derefs to `str`.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Shared(Arc<str>),
    #[cfg(target_os = "linux")]
    Mapped(Arc<map::Mapping>),
}

impl Text {
    /// Maps the first `len` bytes of `file` (a regular file, at least a byte long) read-only.
    /// `None` where mapping is refused (the caller reads the file instead); the bytes are not
    /// checked here (see [`Text::from_mapped`]). `name` names the file in the message given if
    /// the file is truncated under the mapping.
    #[cfg(target_os = "linux")]
    pub(super) fn map(file: &std::fs::File, len: usize, name: &str) -> Option<Mapped> {
        map::Mapping::new(file, len, name).map(Mapped)
    }

    /// The mapped bytes as text, once they were found to be valid UTF-8.
    ///
    /// # Safety
    /// `mapped`'s bytes are valid UTF-8.
    #[cfg(target_os = "linux")]
    pub(super) unsafe fn from_mapped(mapped: Mapped) -> Text {
        Text(Repr::Mapped(Arc::new(mapped.0)))
    }

    /// Gives the memory of the text before byte `offset` back to the system, for a reader that
    /// has gone past it and holds what it needs elsewhere: the process's resident memory falls
    /// by that much. The text stays whole: a page read again (an error's message shows its
    /// line) comes back from the page cache. Only a mapped text has pages to give (a text read
    /// into memory is left as it is), and only whole pages below `offset`, so the call is
    /// cheap to repeat as a reader advances (every few megabytes is often enough).
    pub fn release_before(&self, offset: usize) {
        match &self.0 {
            Repr::Shared(_) => {}
            #[cfg(target_os = "linux")]
            Repr::Mapped(m) => m.release_before(offset),
        }
    }

    /// The text as one shared string: itself when it is one, else a copy.
    pub fn into_shared(self) -> Arc<str> {
        match self.0 {
            Repr::Shared(s) => s,
            #[cfg(target_os = "linux")]
            Repr::Mapped(_) => Arc::from(&*self),
        }
    }

    /// Whether the text is a file's pages mapped into memory rather than a copy.
    pub fn is_mapped(&self) -> bool {
        !matches!(self.0, Repr::Shared(_))
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            Repr::Shared(s) => s,
            #[cfg(target_os = "linux")]
            Repr::Mapped(m) => {
                // SAFETY: a `Text` is made of a mapping only by `from_mapped`, whose bytes were
                // checked to be UTF-8.
                unsafe { std::str::from_utf8_unchecked(m.bytes()) }
            }
        }
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        **self == **other
    }
}

impl From<Arc<str>> for Text {
    fn from(s: Arc<str>) -> Text {
        Text(Repr::Shared(s))
    }
}

impl From<&Arc<str>> for Text {
    fn from(s: &Arc<str>) -> Text {
        Text(Repr::Shared(Arc::clone(s)))
    }
}

impl From<&Text> for Text {
    fn from(t: &Text) -> Text {
        t.clone()
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Shared(s.into()))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(Repr::Shared(s.into()))
    }
}

/// A file's bytes mapped, not yet known to be text.
#[cfg(target_os = "linux")]
pub(super) struct Mapped(map::Mapping);

#[cfg(target_os = "linux")]
impl Mapped {
    /// The mapped bytes.
    pub(super) fn bytes(&self) -> &[u8] {
        self.0.bytes()
    }
}

#[cfg(target_os = "linux")]
mod map {
    use std::ffi::c_void;
    use std::ptr::NonNull;
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, Ordering};

    use rustix::mm::{self, Advice, MapFlags, ProtFlags};

    /// A whole number of pages on every Linux page size up to 64 KiB: the releases are rounded
    /// down to it, so that they end on a page boundary whatever the page size.
    const RELEASE_GRAIN: usize = 64 << 10;

    /// A private read-only mapping of a file's first `len` bytes.
    pub(super) struct Mapping {
        ptr: NonNull<u8>,
        len: usize,
    }

    // SAFETY: the mapping is read-only and owned by this value alone; it is unmapped once, when
    // the value is dropped.
    unsafe impl Send for Mapping {}
    // SAFETY: as above: nothing writes to it.
    unsafe impl Sync for Mapping {}

    impl Mapping {
        pub(super) fn new(file: &std::fs::File, len: usize, name: &str) -> Option<Mapping> {
            if len == 0 {
                return None;
            }
            catch_truncation(name);
            // SAFETY: a fresh mapping at an address the kernel picks, over a file we hold open:
            // no memory of ours is affected.
            let ptr = unsafe {
                mm::mmap(
                    std::ptr::null_mut(),
                    len,
                    ProtFlags::READ,
                    MapFlags::PRIVATE,
                    file,
                    0,
                )
            }
            .ok()?;
            // The readers go front to back: read ahead of them. Advice only.
            // SAFETY: the range is the mapping just made.
            let _ = unsafe { mm::madvise(ptr, len, Advice::Sequential) };
            Some(Mapping {
                ptr: NonNull::new(ptr.cast())?,
                len,
            })
        }

        pub(super) fn bytes(&self) -> &[u8] {
            // SAFETY: `len` bytes are mapped readable at `ptr` for as long as `self` lives.
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
        }

        pub(super) fn release_before(&self, offset: usize) {
            let base = self.ptr.as_ptr() as usize;
            let end = (base + offset.min(self.len)) / RELEASE_GRAIN * RELEASE_GRAIN;
            if end <= base {
                return;
            }
            // SAFETY: the range is the start of this mapping, which is private and read-only:
            // MADV_DONTNEED drops its pages from the process, and a later read maps the file's
            // page again, with the same bytes. Nothing is lost; a refusal leaves it resident.
            let _ =
                unsafe { mm::madvise(self.ptr.as_ptr().cast(), end - base, Advice::LinuxDontNeed) };
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `new`, unmapped once; no reference to its bytes
            // outlives `self`.
            let _ = unsafe { mm::munmap(self.ptr.as_ptr().cast::<c_void>(), self.len) };
        }
    }

    /// The line written when a mapped file turns out truncated: the last one mapped names it.
    /// Each is leaked (a line a file mapped), so the handler never reads a freed one.
    static MESSAGE: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());

    /// Names `name` in the message of a truncation, and installs the `SIGBUS` handler once.
    fn catch_truncation(name: &str) {
        let line = format!(
            "error: {}: the file was shortened while prune read it (by another program?); load it again once it is complete\n",
            crate::text::terminal_safe(name)
        );
        MESSAGE.store(
            Box::into_raw(Box::new(line.into_bytes())),
            Ordering::Release,
        );
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| {
            // SAFETY: the action is async-signal-safe: it runs the registered last words (which
            // must be, `before_a_fatal_end` says), reads an atomic and a buffer that is never
            // freed, writes it with one system call and ends the process with `_exit`.
            // Nothing else in prune raises SIGBUS (its other mappings are anonymous memory).
            let _ = unsafe {
                signal_hook::low_level::register(signal_hook::consts::SIGBUS, on_bus_error)
            };
        });
    }

    /// The `SIGBUS` action: a page of a mapped file is gone (the file was truncated).
    fn on_bus_error() {
        crate::format::save::fatal_end_begins();
        let line = MESSAGE.load(Ordering::Acquire);
        // SAFETY: a pointer stored by `catch_truncation`, to a leaked buffer.
        let line: &[u8] = match unsafe { line.as_ref() } {
            Some(line) => line,
            None => b"error: an input file was shortened while prune read it\n",
        };
        // SAFETY: standard error's descriptor, open for the life of the process.
        let stderr = unsafe { rustix::fd::BorrowedFd::borrow_raw(2) };
        let _ = rustix::io::write(stderr, line);
        signal_hook::low_level::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_from_memory_compare_and_release_nothing() {
        let t = Text::from("(version: 1, root: 3)");
        assert_eq!(&*t, "(version: 1, root: 3)");
        assert!(!t.is_mapped());
        t.release_before(10);
        assert_eq!(t, Text::from(String::from("(version: 1, root: 3)")));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_mapped_text_reads_the_same_after_its_pages_are_released() {
        use std::io::Write;
        // Several release grains, and a last page only partly filled.
        let body: String = (0..40_000).map(|i| format!("{i},")).collect();
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(body.as_bytes()).unwrap();
        let file = f.reopen().unwrap();
        let mapped = Text::map(&file, body.len(), "t").expect("a regular file maps");
        assert_eq!(mapped.bytes(), body.as_bytes());
        // SAFETY: the bytes are the ASCII just written.
        let text = unsafe { Text::from_mapped(mapped) };
        assert!(text.is_mapped());
        for offset in [0, 1, 70_000, 200_000, body.len(), usize::MAX] {
            text.release_before(offset);
            assert_eq!(&*text, body, "after a release before {offset}");
        }
        // Every page read in, then given back but for the last grain's.
        assert!(resident_kib(&text) * 1024 >= body.len() - 4096);
        text.release_before(body.len());
        assert!(
            resident_kib(&text) <= 64,
            "{} KiB resident",
            resident_kib(&text)
        );
        assert_eq!(&*text, body);
        let clone = text.clone();
        drop(text);
        assert_eq!(&*clone, body);
    }

    /// Set in the child process of the test below: the file it maps, then shortens.
    #[cfg(target_os = "linux")]
    const SHORTENED: &str = "PRUNE_TEST_SHORTENED_FILE";

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_shortened_under_its_mapping_ends_the_process_with_one_line() {
        if let Some(path) = std::env::var_os(SHORTENED) {
            let file = std::fs::File::options()
                .read(true)
                .write(true)
                .open(path)
                .unwrap();
            let mapped = Text::map(&file, 3 * 4096, "short.ron").unwrap();
            file.set_len(0).unwrap();
            let sum: u64 = mapped.bytes().iter().map(|&b| u64::from(b)).sum();
            panic!("read {sum} from a file of no bytes");
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("short.ron");
        std::fs::write(&path, "1,".repeat(3 * 2048)).unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "format::text::tests::a_file_shortened_under_its_mapping_ends_the_process_with_one_line",
                "--nocapture",
            ])
            .env(SHORTENED, &path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(
                "error: short.ron: the file was shortened while prune read it (by another program?); load it again once it is complete\n"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }

    /// The resident KiB of the mapping that holds `text`, from `/proc/self/smaps`.
    #[cfg(target_os = "linux")]
    fn resident_kib(text: &Text) -> usize {
        let at = text.as_ptr() as usize;
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut ours = false;
        for line in smaps.lines() {
            let range = line.split_once(' ').and_then(|(r, _)| r.split_once('-'));
            if let Some((start, end)) = range
                && let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                )
            {
                ours = (start..end).contains(&at);
            } else if ours && let Some(kib) = line.strip_prefix("Rss:") {
                return kib.trim().trim_end_matches(" kB").parse().unwrap();
            }
        }
        panic!("no mapping holds the text")
    }
}
