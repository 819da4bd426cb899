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
/// measure what it measures: the system's, with each allocation of `HUGE_MIN` or more advised onto transparent huge pages
/// where the system offers them on request (`madvise(MADV_HUGEPAGE)`, Linux; elsewhere, plain
/// pages). A load's big buffers (the text, the draft's columns, the arena) are fresh memory
/// written once: on 4 KiB pages a third of a load is the kernel faulting pages in one at a
/// time, and a search reading the arena's columns at random pays a TLB miss with nearly every
/// cache miss. Smaller allocations are left as they are.
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

// SAFETY: every call is the system allocator's, with the same arguments; `advise_huge` only
// changes how the pages of a block the caller now owns are backed, never its contents.
unsafe impl GlobalAlloc for HugePages {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        advise_huge(p, layout.size());
        if !p.is_null() {
            count(layout.size() as i64);
        }
        refuse_if_null(p, layout.size())
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // Big zeroed blocks come from the system untouched: each page is faulted in, huge,
        // when it is first written.
        let p = unsafe { System.alloc_zeroed(layout) };
        advise_huge(p, layout.size());
        if !p.is_null() {
            count(layout.size() as i64);
        }
        refuse_if_null(p, layout.size())
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        unsafe { System.dealloc(p, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, size) };
        advise_huge(q, size);
        if !q.is_null() {
            count(size as i64 - layout.size() as i64);
        }
        refuse_if_null(q, size)
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

/// Below this, a block gains little from huge pages (2 MiB each on x86-64, and a block is
/// rarely aligned to one).
const HUGE_MIN: usize = 4 << 20;

#[cfg(target_os = "linux")]
#[inline]
fn advise_huge(ptr: *mut u8, len: usize) {
    if len >= HUGE_MIN && !ptr.is_null() {
        advise_range(ptr, len);
    }
}

#[cfg(target_os = "linux")]
#[cold]
fn advise_range(ptr: *mut u8, len: usize) {
    const PAGE: usize = 4096;
    // madvise wants a page-aligned range: the whole pages inside the block.
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + len) / PAGE * PAGE;
    if end <= start {
        return;
    }
    // SAFETY: the range lies inside a block just allocated, and MADV_HUGEPAGE changes only
    // how its pages are backed, never their contents (pages already there are kept as they
    // are). A failure (no THP in this kernel, or THP disabled) leaves plain pages, which is
    // the fallback we want. It allocates nothing, so it may be called from the allocator.
    unsafe {
        let _ = rustix::mm::madvise(
            start as *mut std::ffi::c_void,
            end - start,
            rustix::mm::Advice::LinuxHugepage,
        );
    }
}

#[cfg(not(target_os = "linux"))]
#[inline]
fn advise_huge(_ptr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit tests run on the allocator they test, as the binary does.
    #[global_allocator]
    static ALLOCATOR: HugePages = HugePages;

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
}
