//! How much memory prune may still use: the tightest of the machine's available memory, the
//! process's address-space limit (`ulimit -v`) and its cgroup's memory limit. Generators and
//! writers compare their estimates with it and refuse up front, instead of being killed or
//! aborting half-way. The allocator ends the process with a message and exit code 2 when memory
//! runs out all the same (see [`fallibly`] for the blocks a caller can do without); the binary
//! declares it ([`HugePages`]), the library leaves the choice to whoever uses it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fs;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

/// Bytes prune may still allocate, and what sets that limit; `None` where nothing is known.
pub fn headroom() -> Option<(u64, &'static str)> {
    [
        available_memory().map(|b| (b, "the machine's available memory")),
        address_space_left().map(|b| (b, "the address-space limit (ulimit -v)")),
        cgroup_left().map(|b| (b, "the memory limit of prune's cgroup")),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|&(b, _)| b)
}

/// `MemAvailable` from `/proc/meminfo`.
fn available_memory() -> Option<u64> {
    let info = fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&info, "MemAvailable:")
}

/// The soft address-space limit less what the process already maps.
fn address_space_left() -> Option<u64> {
    let limits = fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line.split_whitespace().nth(3)?;
    let limit: u64 = soft.parse().ok()?; // "unlimited" does not parse: no limit
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let used = kib_field(&status, "VmSize:").unwrap_or(0);
    Some(limit.saturating_sub(used))
}

/// cgroup v2: `memory.max` less `memory.current` of the process's cgroup.
fn cgroup_left() -> Option<u64> {
    let cgroup = fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = cgroup.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = format!("/sys/fs/cgroup{}", path.trim_end());
    let max: u64 = fs::read_to_string(format!("{dir}/memory.max"))
        .ok()?
        .trim()
        .parse()
        .ok()?; // "max": no limit
    let current: u64 = fs::read_to_string(format!("{dir}/memory.current"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    Some(max.saturating_sub(current))
}

fn kib_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `1.5 GiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    format!("{x:.1} {}", UNITS[u])
}

/// The allocator the `prune` binary declares (`src/main.rs`), and the tests and benches that
/// measure what it measures: each block of `HUGE_MIN` (4 MiB) or more a mapping of its own,
/// aligned to 2 MiB (Linux; elsewhere, the system's), the system's allocator for the rest. A
/// big block freed is returned to the system at once, one that grows is moved without copying,
/// and a zeroed one costs nothing until it is written (see `big`). Blocks are on plain pages:
/// where a block asks for transparent huge pages, the kernel compacts memory for them in the
/// page fault when the machine has none free (`defrag` is `madvise` by default), and a load's
/// system time swung fivefold between identical runs. Only what a search reads at random and
/// long after asks for them ([`huge_pages`]: the arena's hot columns), where a TLB miss with
/// nearly every cache miss costs more than compaction once.
///
/// It also ends the process with a message and exit code 2 when memory runs out (outside
/// [`fallibly`]), and counts the bytes [`peak_during`] measures. The library does not declare
/// it: a program that depends on prune keeps its own allocator unless it opts in with
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: prune::memory::HugePages = prune::memory::HugePages;
///
/// fn main() {
///     let (_, peak) = prune::memory::peak_during(|| vec![0u8; 1 << 20]);
///     assert!(peak >= 1 << 20);
/// }
/// ```
pub struct HugePages;

// SAFETY: a block of `HUGE_MIN` bytes or more (and page alignment at most) is a private
// anonymous mapping of its own (`big`), every other block the system allocator's, and which of
// the two a block is follows from its layout's size, which every call is given.
unsafe impl GlobalAlloc for HugePages {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = if big::fits(&layout) {
            big::map(layout.size())
        } else {
            unsafe { System.alloc(layout) }
        };
        if !p.is_null() {
            count(layout.size() as i64);
        }
        refuse_if_null(p, layout.size())
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // A fresh mapping reads as zeros: each page is faulted in, huge, when first written.
        let p = if big::fits(&layout) {
            big::map(layout.size())
        } else {
            unsafe { System.alloc_zeroed(layout) }
        };
        if !p.is_null() {
            count(layout.size() as i64);
        }
        refuse_if_null(p, layout.size())
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        if big::fits(&layout) {
            unsafe { big::unmap(p, layout.size()) }
        } else {
            unsafe { System.dealloc(p, layout) }
        }
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let new = unsafe { Layout::from_size_align_unchecked(size, layout.align()) };
        let q = match (big::fits(&layout), big::fits(&new)) {
            (true, true) => unsafe { big::remap(p, layout.size(), size) },
            (false, false) => unsafe { System.realloc(p, layout, size) },
            // From one allocator to the other: a copy of what both hold.
            (was_big, _) => {
                let q = if was_big {
                    unsafe { System.alloc(new) }
                } else {
                    big::map(size)
                };
                if !q.is_null() {
                    unsafe {
                        std::ptr::copy_nonoverlapping(p, q, layout.size().min(size));
                        self.dealloc_uncounted(p, layout);
                    }
                }
                q
            }
        };
        if !q.is_null() {
            count(size as i64 - layout.size() as i64);
        }
        refuse_if_null(q, size)
    }
}

impl HugePages {
    /// [`GlobalAlloc::dealloc`] without counting: for `realloc`, which counts the difference.
    unsafe fn dealloc_uncounted(&self, p: *mut u8, layout: Layout) {
        if big::fits(&layout) {
            unsafe { big::unmap(p, layout.size()) }
        } else {
            unsafe { System.dealloc(p, layout) }
        }
    }
}

thread_local! {
    /// Whether this thread's allocations are inside [`fallibly`]: their failures go back to the
    /// caller.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the failures of its allocations returned to it — as `try_reserve`'s errors —
/// instead of ending the process: for the big blocks a load reserves and can refuse.
pub fn fallibly<T>(f: impl FnOnce() -> T) -> T {
    let before = FALLIBLE.replace(true);
    let result = f();
    FALLIBLE.set(before);
    result
}

/// A block the system would not give: outside [`fallibly`], the end of the process with a
/// message and exit code 2, as for any input too big for the memory left — not Rust's abort
/// (SIGABRT, a core dump, no word of what was too big).
#[inline]
fn refuse_if_null(p: *mut u8, size: usize) -> *mut u8 {
    if p.is_null() && !FALLIBLE.get() {
        out_of_memory(size);
    }
    p
}

/// Whether [`peak_during`] is measuring: one relaxed load an allocation otherwise.
static COUNTING: AtomicBool = AtomicBool::new(false);
static CURRENT: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

#[inline]
fn count(delta: i64) {
    if COUNTING.load(Ordering::Relaxed) {
        let now = CURRENT.fetch_add(delta, Ordering::Relaxed) + delta;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }
}

/// Runs `f` and returns the most bytes it held allocated at once beyond what was allocated when
/// it started (every thread's allocations count: measure one thing at a time). For the tests
/// that hold the memory estimates to what loads really take.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, u64) {
    CURRENT.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let result = f();
    COUNTING.store(false, Ordering::SeqCst);
    (result, PEAK.load(Ordering::SeqCst).max(0) as u64)
}

/// Says that memory ran out and ends the process (status 2), removing the temporary files of
/// saves in progress. Allocates nothing: the message is written from fixed text and a number
/// formatted on the stack.
#[cold]
fn out_of_memory(size: usize) -> ! {
    use std::io::Write;
    crate::format::save::fatal_end_begins();
    let mut digits = itoa::Buffer::new();
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(b"error: out of memory: a block of ");
    let _ = err.write_all(digits.format(size).as_bytes());
    let _ = err.write_all(
        b" bytes could not be had (the machine's memory, `ulimit -v` or the cgroup's limit is \
          reached); the input is too big for the memory left, and files being saved are left as they \
          were\n",
    );
    crate::format::save::remove_temporaries_quietly();
    std::process::exit(2)
}

/// Below this, a block gains little from huge pages (2 MiB each on x86-64) or from a mapping
/// of its own.
const HUGE_MIN: usize = 4 << 20;

/// Big blocks, each a private anonymous mapping of its own, 2 MiB-aligned so that
/// [`huge_pages`] can back every whole 2 MiB of one with a huge page (Linux; elsewhere the
/// system allocator's, as every other block).
/// Through malloc they were mappings too, but not always: once a big block is freed, glibc
/// raises its mapping threshold up to 32 MiB, and the next blocks under it come from the heap,
/// which keeps them resident after they are freed (a load's text, lines and draft stayed in
/// its peak), and regrows them by copying. Here a freed block goes back to the system at once,
/// a block that grows is moved by `mremap` (page tables, not bytes), and a zeroed block costs
/// nothing until it is written.
#[cfg(target_os = "linux")]
mod big {
    use super::HUGE_MIN;
    use rustix::mm::{self, MapFlags, MremapFlags, ProtFlags};
    use std::alloc::Layout;
    use std::ffi::c_void;

    const PAGE: usize = 4096;
    const HUGE_PAGE: usize = 2 << 20;

    /// Whether a block of this layout is a mapping of its own.
    #[inline]
    pub(super) fn fits(layout: &Layout) -> bool {
        layout.size() >= HUGE_MIN && layout.align() <= PAGE
    }

    /// A new mapping of `size` bytes (zeros), starting on a huge-page boundary so that every
    /// whole 2 MiB of it can be one huge page; null when the system refuses.
    #[cold]
    pub(super) fn map(size: usize) -> *mut u8 {
        let len = size.next_multiple_of(PAGE);
        let Some(room) = len.checked_add(HUGE_PAGE - PAGE) else {
            return std::ptr::null_mut();
        };
        // SAFETY: a fresh mapping of no file, at an address the kernel chooses.
        let Ok(p) = (unsafe {
            mm::mmap_anonymous(
                std::ptr::null_mut(),
                room,
                ProtFlags::READ | ProtFlags::WRITE,
                MapFlags::PRIVATE,
            )
        }) else {
            return std::ptr::null_mut();
        };
        let at = p as usize;
        let start = at.next_multiple_of(HUGE_PAGE);
        // SAFETY: the head and tail cut off lie inside the mapping just made and are
        // never handed out.
        unsafe {
            if start > at {
                let _ = mm::munmap(p, start - at);
            }
            let tail = start + len;
            if at + room > tail {
                let _ = mm::munmap(tail as *mut c_void, at + room - tail);
            }
        }
        start as *mut u8
    }

    /// Returns a block from [`map`] or [`remap`] to the system.
    ///
    /// # Safety
    /// `p` and `size` are those of a live big block.
    #[cold]
    pub(super) unsafe fn unmap(p: *mut u8, size: usize) {
        // SAFETY: the caller's block is exactly these pages.
        let _ = unsafe { mm::munmap(p.cast(), size.next_multiple_of(PAGE)) };
    }

    /// The block `p` of `old` bytes resized to `new` (both big): its pages are moved, not
    /// copied, when it cannot grow where it is. Null (the block untouched) when the system
    /// refuses.
    ///
    /// # Safety
    /// `p` and `old` are those of a live big block.
    #[cold]
    pub(super) unsafe fn remap(p: *mut u8, old: usize, new: usize) -> *mut u8 {
        let (old_len, new_len) = (old.next_multiple_of(PAGE), new.next_multiple_of(PAGE));
        if old_len == new_len {
            return p;
        }
        // SAFETY: the caller's block is exactly `old_len` bytes of pages from `p`.
        match unsafe { mm::mremap(p.cast(), old_len, new_len, MremapFlags::MAYMOVE) } {
            Ok(q) => q.cast(),
            Err(_) => std::ptr::null_mut(),
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod big {
    use std::alloc::Layout;

    #[inline]
    pub(super) fn fits(_layout: &Layout) -> bool {
        false
    }

    pub(super) fn map(_size: usize) -> *mut u8 {
        unreachable!("no block is big where `fits` is false")
    }

    pub(super) unsafe fn unmap(_p: *mut u8, _size: usize) {
        unreachable!("no block is big where `fits` is false")
    }

    pub(super) unsafe fn remap(_p: *mut u8, _old: usize, _new: usize) -> *mut u8 {
        unreachable!("no block is big where `fits` is false")
    }
}

/// Zeros that every element type [`release_read`] is given may read as: plain data for which
/// all-zero bytes are a value.
///
/// # Safety
/// All-zero bytes are a valid value of the implementing type.
pub unsafe trait Zeroable: Copy {}

// SAFETY: zero is a value of every integer and float, and of a pair of them.
unsafe impl Zeroable for u32 {}
unsafe impl Zeroable for f64 {}
unsafe impl Zeroable for (u32, f64) {}

/// Gives the memory of `v[..upto]`'s whole pages back to the system, for a caller that has
/// read those elements for the last time and goes on with the rest: the process's resident
/// memory falls by that much now rather than when `v` is dropped. The elements stay in `v`
/// and read as zero afterwards (`madvise(MADV_DONTNEED)` on private memory, Linux; elsewhere
/// nothing happens). Only a block big enough to be a mapping of its own (4 MiB or
/// more) is worth the system call; smaller ones are left as they are.
pub fn release_read<T: Zeroable>(v: &mut [T], upto: usize) {
    if size_of_val(v) < HUGE_MIN {
        return;
    }
    let len = upto.min(v.len()) * size_of::<T>();
    // SAFETY: the range is inside `v`, borrowed mutably here, so nothing else reads it while
    // it changes; MADV_DONTNEED on private memory makes its pages read as zeros, a value of
    // `T` (`Zeroable`). A refusal leaves them as they were.
    #[cfg(target_os = "linux")]
    unsafe {
        advise_pages(
            v.as_mut_ptr() as usize,
            len,
            rustix::mm::Advice::LinuxDontNeed,
        )
    };
    #[cfg(not(target_os = "linux"))]
    let _ = len;
}

/// Faults in the pages of `len` bytes from `ptr` for writing, without writing them
/// (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14 and later): the kernel's share of a big block's
/// first writes, done ahead on whichever thread calls it. The bytes are left as they are, so
/// any range is safe to give; where the advice is refused (an older kernel, a range no longer
/// mapped), nothing happens and the pages fault in when written, as they would have.
pub fn populate(ptr: *mut u8, len: usize) {
    // SAFETY: MADV_POPULATE_WRITE changes no byte of the range, only whether its pages are
    // present; a range that is not writable memory of ours is refused.
    #[cfg(target_os = "linux")]
    unsafe {
        advise_pages(ptr as usize, len, rustix::mm::Advice::LinuxPopulateWrite)
    };
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// Asks for transparent huge pages under `v`'s room, before it is written (pages already
/// there are kept as they are): for the big columns a search reads at random (the arena's kind,
/// first child, child count and value) and the tables SSS* and MTD(f) fill as they search, on
/// a big tree nearly every read of which would otherwise be a TLB miss as well as a cache miss.
/// Where the system offers huge pages only on request (`madvise(MADV_HUGEPAGE)`, Linux), else
/// nothing; so is a block under `HUGE_MIN`.
pub fn huge_pages<T>(v: &mut Vec<T>) {
    let bytes = v.capacity().saturating_mul(size_of::<T>());
    // SAFETY: the range lies inside a live block, and MADV_HUGEPAGE changes only how its pages
    // are backed, never their contents. A failure (no THP in this kernel, or THP disabled)
    // leaves plain pages, which is the fallback we want.
    #[cfg(target_os = "linux")]
    if bytes >= HUGE_MIN {
        unsafe {
            advise_pages(
                v.as_mut_ptr() as usize,
                bytes,
                rustix::mm::Advice::LinuxHugepage,
            )
        };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

/// `madvise(advice)` on the whole pages inside the `len` bytes from address `addr` (madvise wants a
/// page-aligned range); a refusal is ignored, every caller's advice being optional.
///
/// # Safety
/// What `advice` does to the range must be sound for its memory (the callers say why).
#[cfg(target_os = "linux")]
unsafe fn advise_pages(addr: usize, len: usize, advice: rustix::mm::Advice) {
    const PAGE: usize = 4096;
    let start = addr.next_multiple_of(PAGE);
    let end = addr.saturating_add(len) / PAGE * PAGE;
    if end > start {
        // SAFETY: the caller's.
        let _ = unsafe { rustix::mm::madvise(start as *mut std::ffi::c_void, end - start, advice) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit tests run on the allocator they test, as the binary does.
    #[global_allocator]
    static ALLOCATOR: HugePages = HugePages;

    #[test]
    fn a_released_prefix_reads_as_zeros_and_the_rest_is_kept() {
        let n = 3 << 20; // 12 MiB of u32: a block of its own
        let mut v: Vec<u32> = (0..n as u32).map(|i| i | 1).collect();
        release_read(&mut v, n / 2);
        // Whole pages below the middle are given back (zeros on Linux), the rest untouched.
        let page = 4096 / size_of::<u32>();
        let released = (n / 2) / page * page;
        assert!(
            v[n / 2..]
                .iter()
                .enumerate()
                .all(|(i, &x)| x == (n / 2 + i) as u32 | 1)
        );
        if cfg!(target_os = "linux") {
            let start = v.as_ptr().align_offset(4096);
            assert!(v[start..released].iter().all(|&x| x == 0));
        }
        // A small vector is left as it is.
        let mut small = vec![5u32; 1000];
        release_read(&mut small, 1000);
        assert!(small.iter().all(|&x| x == 5));
    }

    #[test]
    fn the_tightest_limit_wins_and_sizes_read_well() {
        if let Some((b, what)) = headroom() {
            assert!(b > 0, "{what}");
        }
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(
            kib_field("VmSize:\t  2048 kB\n", "VmSize:"),
            Some(2048 * 1024)
        );
    }

    #[test]
    fn big_blocks_hold_what_they_are_given() {
        for n in [0, 1, 1000, (HUGE_MIN / 8) + 12_345] {
            let mut v = vec![7.5f64; n];
            assert!(v.iter().all(|&x| x == 7.5));
            v.resize(2 * n + 1, 0.0);
            assert!(v[..n].iter().all(|&x| x == 7.5) && v[n..].iter().all(|&x| x == 0.0));
            assert!(vec![0u32; n].iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn blocks_keep_their_bytes_across_the_big_threshold() {
        // Grown from a small block into a mapping, then shrunk back into a small one.
        let big = HUGE_MIN / 4 + 1000;
        let mut v: Vec<u32> = (0..1000).collect();
        v.reserve_exact(big);
        v.extend(1000..big as u32);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
        v.truncate(10);
        v.shrink_to_fit();
        assert_eq!(v, (0..10).collect::<Vec<u32>>());
        // A mapping shrunk in place and grown again, as a `Vec` regrows.
        let mut w = vec![3u8; 3 * HUGE_MIN];
        w.truncate(HUGE_MIN + 1);
        w.shrink_to_fit();
        w.resize(5 * HUGE_MIN, 4);
        assert!(
            w[..=HUGE_MIN].iter().all(|&x| x == 3) && w[HUGE_MIN + 1..].iter().all(|&x| x == 4)
        );
    }
}
