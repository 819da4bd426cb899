//! Writing output files without destroying what the user has.
//!
//! [`save_with`] is the one way prune writes a file (trees, traces, pictures, CSV, SVG, from the
//! command line and from the explorer). It writes to what the user named:
//!
//! - a new path or a plain regular file: into a temporary `.prune-XXXX.tmp` beside it, then
//!   renamed over it, so a failed or interrupted save never leaves a partial file;
//! - a FIFO or a device (`/dev/stdout`, a terminal, `/dev/full`): opened and written in place —
//!   never replaced by a regular file;
//! - `/dev/stdout` and `/dev/stderr` (also as `/dev/fd/1`, `/proc/self/fd/2`…): the process's
//!   own stream; any other path through `/dev/fd` or `/proc`: the open file it names, in place;
//! - a symbolic link: its target is written (by the rules here) and the link is kept;
//! - a read-only file: refused, unchanged;
//! - a regular file with other hard links: the new content goes to a temporary file first, room
//!   for it is reserved in the existing file, then it is copied in place, so every link still
//!   shares it. SIGINT, SIGTERM and SIGHUP wait for the copy to finish, and a full disk refuses
//!   before the file is touched: the file ends with its old content or all of the new. (Only
//!   what no process can catch — SIGKILL, a crash of the machine — or a failing disk can stop the
//!   copy half-way.)
//!
//! Temporary files in progress are listed in a process-wide registry; [`clean_up_on_signals`]
//! makes SIGINT, SIGTERM and SIGHUP remove them before the process exits.

use std::fs::{self, OpenOptions, Permissions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

/// The temporary files being written now, for the signal handler to remove.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes `path` with `write`, which gets a buffered writer; see the module documentation for
/// what each kind of target gets. Nothing replaces a regular file unless `write` succeeds.
/// A new file gets the permissions any new file gets (0666 less the umask); a replaced file
/// keeps its own.
pub fn save_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match standard_stream(path) {
        Some(1) => return to_stream(io::stdout().lock(), write),
        Some(_) => return to_stream(io::stderr().lock(), write),
        None => {}
    }
    // Through links (even /proc's magic ones), a FIFO or a device is written in place.
    if let Ok(meta) = fs::metadata(path)
        && matches!(Kind::of(&meta), Kind::Stream)
    {
        return in_place(path, false, write);
    }
    let (target, magic) = follow_links(path)?;
    if magic {
        // /dev/fd/N or /proc/…/fd/N: the link's text is not a path to replace; open the file.
        return in_place(path, true, write);
    }
    let meta = match fs::metadata(&target) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return replace(&target, None, write),
        Err(e) => return Err(e),
    };
    let name = || path.display().to_string();
    match Kind::of(&meta) {
        Kind::Regular => {}
        Kind::Directory => return Err(refusal(format!("{} is a directory", name()))),
        Kind::Socket => return Err(refusal(format!("{} is a socket", name()))),
        Kind::Stream => return in_place(&target, false, write),
    }
    let writable = !meta.permissions().readonly()
        && match OpenOptions::new().write(true).open(&target) {
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => false,
            Err(e) => return Err(e),
        };
    if !writable {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is read-only; prune does not replace it", name()),
        ));
    }
    if links(&meta) > 1 {
        return copy_in(&target, write);
    }
    replace(&target, Some(meta.permissions()), write)
}

/// Writes `text` to `path` with [`save_with`].
pub fn save_text(path: &Path, text: &str) -> io::Result<()> {
    save_with(path, |w| w.write_all(text.as_bytes()))
}

/// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files in progress and end the process
/// with status 128 + the signal's number. For the command line; the explorer handles these
/// signals itself (its exports finish before it notices them).
#[cfg(unix)]
pub fn clean_up_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                remove_temporaries_and_exit(128 + signal);
            }
        })?;
    Ok(())
}

/// What the process runs before a fatal end writes its message: `0` for nothing, else a
/// `fn()` (see [`before_a_fatal_end`]).
static LAST_WORDS: AtomicUsize = AtomicUsize::new(0);

/// Registers `f` to run when prune ends the process on its own after something it cannot go on
/// from: memory ran out ([`crate::memory::HugePages`]), or another program wants to write a
/// mapped input file (`SIGIO`, its lease broken) or cut it short (`SIGBUS`). `f` runs before the message is written, so that a program that took
/// the terminal over (raw mode, the alternate screen) can give it back and the message is seen.
/// `None` removes it. `f` may run in a signal handler and where no memory can be had: it must
/// be async-signal-safe and allocate nothing (system calls on saved data only).
pub fn before_a_fatal_end(f: Option<fn()>) {
    LAST_WORDS.store(f.map_or(0, |f| f as usize), Ordering::Release);
}

/// Runs what [`before_a_fatal_end`] registered, if anything.
pub(crate) fn fatal_end_begins() {
    let f = LAST_WORDS.load(Ordering::Acquire);
    if f != 0 {
        // SAFETY: a non-zero value is only ever stored from a `fn()` by `before_a_fatal_end`.
        let f: fn() = unsafe { std::mem::transmute::<usize, fn()>(f) };
        f();
    }
}

/// Removes the temporary files in progress and ends the process with `code`. The registry
/// stays locked until the end: no new temporary file appears, none is renamed half-way.
pub fn remove_temporaries_and_exit(code: i32) -> ! {
    let list = temporaries();
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
    std::process::exit(code)
}

/// Removes the temporary files in progress, if no other thread holds the registry, without
/// allocating (short paths are passed to the system from the stack): for the end of a process
/// whose memory ran out.
pub(crate) fn remove_temporaries_quietly() {
    if let Ok(list) = TEMPORARIES.try_lock() {
        for path in list.iter() {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(not(unix))]
pub fn clean_up_on_signals() -> io::Result<()> {
    Ok(())
}

/// What kind of file a target is, as far as writing goes.
enum Kind {
    Regular,
    Directory,
    Socket,
    /// A FIFO or a device: written in place.
    Stream,
}

impl Kind {
    fn of(meta: &fs::Metadata) -> Kind {
        let t = meta.file_type();
        if t.is_dir() {
            return Kind::Directory;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_socket() {
                return Kind::Socket;
            }
            if t.is_fifo() || t.is_char_device() || t.is_block_device() {
                return Kind::Stream;
            }
        }
        Kind::Regular
    }
}

fn links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

fn refusal(message: String) -> io::Error {
    io::Error::other(message)
}

/// Whether `path` names a stream rather than a file to keep: standard output or error, or an
/// existing FIFO or device. Such outputs take the default format, having no extension to name one.
pub fn is_stream(path: &Path) -> bool {
    standard_stream(path).is_some()
        || fs::metadata(path).is_ok_and(|m| matches!(Kind::of(&m), Kind::Stream))
}

/// The file an output names, whose extension must name its format: `None` for `-` (standard
/// output) and other streams ([`is_stream`]), which take the default.
pub fn output_file(out: Option<&Path>) -> Option<&Path> {
    out.filter(|p| p.as_os_str() != "-" && !is_stream(p))
}

/// 1 for the names of standard output, 2 for standard error's.
fn standard_stream(path: &Path) -> Option<u8> {
    let s = path.to_str()?;
    let fd = s
        .strip_prefix("/dev/fd/")
        .or_else(|| s.strip_prefix("/proc/self/fd/"));
    match (s, fd) {
        ("/dev/stdout", _) | (_, Some("1")) => Some(1),
        ("/dev/stderr", _) | (_, Some("2")) => Some(2),
        _ => None,
    }
}

fn to_stream(
    out: impl Write,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    write(&mut w)?;
    w.flush()
}

/// Where a chain of symbolic links ends, whether or not that file exists yet; and whether the
/// chain went through `/proc` or `/dev/fd`, whose links name open files, not paths.
fn follow_links(path: &Path) -> io::Result<(PathBuf, bool)> {
    let mut p = path.to_path_buf();
    let mut magic = false;
    for _ in 0..40 {
        magic |= p.starts_with("/proc") || p.starts_with("/dev/fd");
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok((p, magic)),
        }
    }
    Err(refusal(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// A FIFO or a device, or an open file: opened and written as it is, never created.
fn in_place(
    target: &Path,
    truncate: bool,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .truncate(truncate)
        .open(target)?;
    to_stream(file, write)
}

/// A temporary file beside `target`, registered for removal on a signal until dropped.
struct Temporary(Option<NamedTempFile>);

impl Temporary {
    fn beside(target: &Path) -> io::Result<Temporary> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".prune-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Passed to open(2), so the umask applies as for any new file.
            builder.permissions(Permissions::from_mode(0o666));
        }
        // Created and listed under the lock, so a signal never misses it.
        let mut list = temporaries();
        let file = builder.tempfile_in(dir)?;
        list.push(file.path().to_owned());
        Ok(Temporary(Some(file)))
    }

    fn file(&mut self) -> &mut fs::File {
        self.0
            .as_mut()
            .expect("present until dropped")
            .as_file_mut()
    }

    /// Fills the file with `write`'s output and syncs it.
    fn fill(&mut self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut w = BufWriter::new(self.file());
        write(&mut w)?;
        w.flush()?;
        drop(w);
        self.file().sync_all()
    }

    /// Renames the file over `target`.
    fn persist(mut self, target: &Path) -> io::Result<()> {
        let file = self.0.take().expect("present until dropped");
        let path = file.path().to_owned();
        let mut list = temporaries();
        // On failure the file comes back inside the error and is removed when that is dropped.
        let result = file.persist(target).map(drop).map_err(|e| e.error);
        list.retain(|p| *p != path);
        result
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = self.0.take() {
            let path = file.path().to_owned();
            let mut list = temporaries();
            drop(file);
            list.retain(|p| *p != path);
        }
    }
}

/// A new path or a plain regular file: a temporary file renamed over it.
fn replace(
    target: &Path,
    permissions: Option<Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut tmp = Temporary::beside(target)?;
    if let Some(p) = permissions {
        tmp.file().set_permissions(p)?;
    }
    tmp.fill(write)?;
    tmp.persist(target)
}

/// A regular file with other hard links: the complete new content first, then copied in place.
/// The target is only touched once the new text is whole and room for it is reserved, and the
/// copy holds the registry's lock, which the signal handlers' exit waits for: SIGINT, SIGTERM
/// and SIGHUP end the process before the copy or after it, never half-way.
fn copy_in(target: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let mut tmp = Temporary::beside(target)?;
    tmp.fill(write)?;
    let len = tmp.file().metadata()?.len();
    let mut dest = OpenOptions::new().write(true).open(target)?;
    reserve_room(&dest, len)
        .map_err(|e| io::Error::new(e.kind(), format!("{e}; {} is unchanged", target.display())))?;
    let held = temporaries();
    let source = tmp.file();
    source.rewind()?;
    io::copy(source, &mut dest)?;
    dest.set_len(len)?;
    dest.sync_all()?;
    // Released before `tmp` is dropped, which takes the lock again.
    drop(held);
    Ok(())
}

/// Makes sure `file` can grow to `len` bytes before any of it is overwritten, so a full disk
/// refuses the save instead of cutting the file short half-way: the blocks are reserved
/// (`fallocate` keeping the size), or where a file system cannot reserve, its free space is
/// checked.
#[cfg(unix)]
fn reserve_room(file: &fs::File, len: u64) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    match rustix::fs::fallocate(file, rustix::fs::FallocateFlags::KEEP_SIZE, 0, len.max(1)) {
        Ok(()) => return Ok(()),
        Err(e) if e == rustix::io::Errno::OPNOTSUPP || e == rustix::io::Errno::NOSYS => {}
        Err(e) => return Err(e.into()),
    }
    let growth = len.saturating_sub(file.metadata()?.len());
    let fs = rustix::fs::fstatvfs(file)?;
    let free = fs.f_bavail.saturating_mul(fs.f_frsize);
    if growth > free {
        return Err(io::Error::from(io::ErrorKind::StorageFull));
    }
    Ok(())
}

#[cfg(not(unix))]
fn reserve_room(_file: &fs::File, _len: u64) -> io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn no_temporaries(dir: &Path) {
        let left: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".prune-"))
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }

    #[test]
    fn saved_files_get_ordinary_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        fs::write(&plain, "x").unwrap();
        let saved = dir.path().join("saved.ron");
        save_text(&saved, "x").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&saved), mode(&plain), "like any new file");
        fs::set_permissions(&saved, Permissions::from_mode(0o640)).unwrap();
        save_text(&saved, "y").unwrap();
        assert_eq!(mode(&saved), 0o640, "a replaced file keeps its permissions");
        assert_eq!(fs::read_to_string(&saved).unwrap(), "y");
        no_temporaries(dir.path());
    }

    #[test]
    fn a_failed_write_leaves_the_target_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.ron");
        fs::write(&target, "old").unwrap();
        let e = save_with(&target, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("boom"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "boom");
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        no_temporaries(dir.path());
        assert!(temporaries().iter().all(|p| !p.starts_with(dir.path())));
    }

    #[test]
    fn links_dangling_or_not_write_their_target() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.ron");
        std::os::unix::fs::symlink("sub/real.ron", &link).unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        save_text(&link, "new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("sub/real.ron")).unwrap(),
            "new"
        );
        save_text(&link, "again").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&link).unwrap(), "again");
        no_temporaries(dir.path());
        no_temporaries(&dir.path().join("sub"));
    }

    #[test]
    fn hard_links_stay_shared_and_read_only_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.ron");
        let b = dir.path().join("b.ron");
        fs::write(&a, "old old old").unwrap();
        fs::hard_link(&a, &b).unwrap();
        save_text(&a, "new").unwrap();
        assert_eq!(fs::read_to_string(&b).unwrap(), "new");
        assert_eq!(fs::metadata(&a).unwrap().nlink(), 2);
        no_temporaries(dir.path());

        let ro = dir.path().join("ro.ron");
        fs::write(&ro, "mine").unwrap();
        fs::set_permissions(&ro, Permissions::from_mode(0o444)).unwrap();
        let e = save_text(&ro, "theirs").unwrap_err();
        assert!(
            e.to_string()
                .ends_with("is read-only; prune does not replace it"),
            "{e}"
        );
        assert_eq!(fs::read_to_string(&ro).unwrap(), "mine");
        let e = save_text(dir.path(), "x").unwrap_err();
        assert!(e.to_string().ends_with("is a directory"), "{e}");
    }
}
