//! An input's text, as the readers and their diagnostics share it: read into memory, or, for a
//! regular file on Linux, mapped read-only from the page cache.
//!
//! Mapping instead of reading saves the kernel a fresh zeroed page for every 4 KiB of text and
//! the copy into it: at 852 MB (a 10⁸-node tree) about a second of system time. The pages of
//! a mapping are the file's, so another program writing the file would change the text under
//! the readers (a `&str` whose bytes change is undefined behaviour, and may stop being UTF-8),
//! and truncating it would make the next read of a missing page raise `SIGBUS`. So a file is
//! mapped only under a read lease (`fcntl(F_SETLEASE, F_RDLCK)`, Linux's leases): while prune
//! holds it, no program can open the file for writing or truncate it — the kernel holds its
//! `open` or `truncate` back and tells prune (`SIGIO`), which then says in one line that the
//! file is being changed and ends with exit code 2, as a bad input does, giving the lease (and
//! the other program) back as it ends. A partial or changing text cannot be read on from:
//! there is nothing to return to. Where no lease can be had (the file is open for writing
//! already, prune does not own it, a file system without leases) the file is read into memory
//! instead: a copy nobody else can change. `SIGBUS` is caught too, should a mapping be cut
//! short some other way.

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

    /// A private read-only mapping of a file's first `len` bytes, under a read lease on the
    /// file (see the module's documentation): nobody writes the file while it lives.
    pub(super) struct Mapping {
        ptr: NonNull<u8>,
        len: usize,
        /// The file, open for reading, whose lease this mapping holds.
        leased: std::os::fd::OwnedFd,
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
            // A lease belongs to the open file, which the copy of the descriptor shares; it is
            // refused where the file is open for writing, not prune's, or on a file system
            // without leases, and the caller then reads the file instead.
            let leased: std::os::fd::OwnedFd = file.try_clone().ok()?.into();
            if set_lease(&leased, libc::F_RDLCK).is_err() {
                return None;
            }
            // Written before the lease was taken: the length checked is no longer the file's.
            if file.metadata().map(|m| m.len()).ok() != Some(len as u64) {
                let _ = set_lease(&leased, libc::F_UNLCK);
                return None;
            }
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
            .ok();
            let Some(ptr) = ptr else {
                let _ = set_lease(&leased, libc::F_UNLCK);
                return None;
            };
            // The readers go front to back: read ahead of them. Advice only.
            // SAFETY: the range is the mapping just made.
            let _ = unsafe { mm::madvise(ptr, len, Advice::Sequential) };
            Some(Mapping {
                ptr: NonNull::new(ptr.cast())?,
                len,
                leased,
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
            // The text is gone: a program waiting to write the file may go on.
            let _ = set_lease(&self.leased, libc::F_UNLCK);
        }
    }

    /// Takes (`F_RDLCK`) or gives back (`F_UNLCK`) a read lease on the open file `fd`.
    fn set_lease(fd: &std::os::fd::OwnedFd, kind: libc::c_int) -> Result<(), ()> {
        use std::os::fd::AsRawFd;
        // SAFETY: `fcntl` on a descriptor this process owns, with an integer argument.
        let done = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETLEASE, kind) };
        if done == 0 { Ok(()) } else { Err(()) }
    }

    /// The line written when a mapped file turns out truncated: the last one mapped names it.
    /// Each is leaked (a line a file mapped), so the handler never reads a freed one.
    static MESSAGE: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());

    /// Names `name` in the message of a truncation, and installs the `SIGBUS` handler once.
    fn catch_truncation(name: &str) {
        let line = format!(
            "error: {}: another program is changing or shortening the file while prune reads it; load it again once it is complete\n",
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
            // SAFETY: as above. A lease's break is signalled with SIGIO, whose default action
            // would end the process without a word; nothing else in prune asks for SIGIO.
            let _ = unsafe {
                signal_hook::low_level::register(signal_hook::consts::SIGIO, on_bus_error)
            };
        });
    }

    /// The `SIGBUS` and `SIGIO` action: a program wants to write a mapped file (its lease
    /// breaks), or a page of one is gone (the file was truncated).
    fn on_bus_error() {
        crate::format::save::fatal_end_begins();
        let line = MESSAGE.load(Ordering::Acquire);
        // SAFETY: a pointer stored by `catch_truncation`, to a leaked buffer.
        let line: &[u8] = match unsafe { line.as_ref() } {
            Some(line) => line,
            None => b"error: another program is changing an input file while prune reads it\n",
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
        // Several release grains, and a last page only partly filled.
        let body: String = (0..40_000).map(|i| format!("{i},")).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.ron");
        std::fs::write(&path, &body).unwrap();
        let file = std::fs::File::open(&path).unwrap();
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

    /// Set in the child process of the test below: the file it maps, then opens to write.
    #[cfg(target_os = "linux")]
    const WRITTEN: &str = "PRUNE_TEST_WRITTEN_FILE";

    /// A mapped file is leased: a program that opens it to write (here the same process, in a
    /// child of the test, as any editor would) is held back, and prune ends with one line and
    /// exit code 2 before a byte changes under its text.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_opened_to_write_under_its_mapping_ends_the_process_with_one_line() {
        if let Some(path) = std::env::var_os(WRITTEN) {
            let file = std::fs::File::open(&path).unwrap();
            let mapped = Text::map(&file, 3 * 4096, "short.ron").expect("leased and mapped");
            let writer = std::fs::File::options().write(true).open(&path).unwrap();
            writer.set_len(0).unwrap();
            let sum: u64 = mapped.bytes().iter().map(|&b| u64::from(b)).sum();
            panic!("read {sum} from a file of no bytes");
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("short.ron");
        std::fs::write(&path, "1,".repeat(3 * 2048)).unwrap();
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "format::text::tests::a_file_opened_to_write_under_its_mapping_ends_the_process_with_one_line",
                "--nocapture",
            ])
            .env(WRITTEN, &path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(
                "error: short.ron: another program is changing or shortening the file while prune reads it; load it again once it is complete\n"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(
            std::fs::read(&path).unwrap().len(),
            3 * 4096,
            "nothing was written"
        );
    }

    /// A file already open for writing cannot be leased: it is not mapped, and the caller reads
    /// it into memory instead.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_open_for_writing_is_not_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.ron");
        std::fs::write(&path, "1,".repeat(4096)).unwrap();
        let reader = std::fs::File::open(&path).unwrap();
        let writer = std::fs::File::options().append(true).open(&path).unwrap();
        assert!(Text::map(&reader, 8192, "t").is_none());
        drop(writer);
        assert!(Text::map(&reader, 8192, "t").is_some());
        // A length that is no longer the file's is not mapped either.
        assert!(Text::map(&reader, 4096, "t").is_none());
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
