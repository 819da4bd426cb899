//! How much memory prune may still use: the tightest of the machine's available memory, the
//! process's address-space limit (`ulimit -v`) and its cgroup's memory limit. Generators and
//! writers compare their estimates with it and refuse up front, instead of being killed or
//! aborting half-way.

use std::fs;

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

/// `vec![x; n]`, its buffer backed by transparent huge pages where the system offers them on
/// request (`madvise(MADV_HUGEPAGE)`, Linux; elsewhere, or for a small vector, plain pages).
/// The arena's columns are read at random by a search: with 4 KiB pages nearly every read of
/// a big tree is a TLB miss as well as a cache miss, and the load faults each page in alone.
pub fn huge_vec<T: Clone>(n: usize, x: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge(v.as_mut_ptr().cast(), n * std::mem::size_of::<T>());
    v.resize(n, x);
    v
}

/// `n` zeros (`T::default()` must be all zero bytes, as for the integers and floats), on huge
/// pages like [`huge_vec`] but without writing them: the zeroed allocation comes from the
/// system untouched, and each page is faulted in — huge — when the caller first writes it.
pub fn huge_zeroed<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    advise_huge(v.as_mut_ptr().cast(), n * std::mem::size_of::<T>());
    v
}

/// Below this, a buffer gains nothing from huge pages (2 MiB each on x86-64).
const HUGE_MIN: usize = 8 << 20;

#[cfg(target_os = "linux")]
fn advise_huge(ptr: *mut u8, len: usize) {
    const PAGE: usize = 4096;
    if len < HUGE_MIN {
        return;
    }
    // madvise wants a page-aligned range: the whole pages inside the buffer.
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + len) / PAGE * PAGE;
    if end <= start {
        return;
    }
    // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE changes
    // only how its pages are backed, never their contents (pages already there are kept as
    // they are). A failure (no THP in this kernel, or THP disabled) leaves plain pages, which
    // is the fallback we want. The pages the vector then writes first are the ones it gains.
    unsafe {
        let _ = rustix::mm::madvise(
            start as *mut std::ffi::c_void,
            end - start,
            rustix::mm::Advice::LinuxHugepage,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn huge_vectors_hold_what_vec_holds() {
        for n in [0, 1, 1000, (HUGE_MIN / 8) + 12_345] {
            assert_eq!(huge_vec(n, 7.5f64), vec![7.5f64; n]);
            assert_eq!(huge_vec(n, u32::MAX), vec![u32::MAX; n]);
            assert_eq!(huge_zeroed::<f64>(n), vec![0.0; n]);
        }
    }
}
