//! How much memory this process may really use: the machine's, and the limits put on the
//! process — its control group's (cgroup v1 and v2) and its resource limits (`RLIMIT_AS`,
//! `RLIMIT_DATA`). A container or `prlimit` caps a process far below the machine, and a
//! budget blind to the cap lets an allocation abort where it should have been refused.

/// The machine's physical memory, in bytes.
#[cfg(unix)]
pub fn physical_memory() -> Option<u64> {
    // One system call (glibc answers it by `sysinfo`), where reading /proc/meminfo took
    // nine; the number is the same, MemTotal.
    // SAFETY: `sysconf` has no preconditions.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let (pages, size) = (u64::try_from(pages).ok()?, u64::try_from(size).ok()?);
    pages.checked_mul(size).filter(|&m| m > 0)
}

#[cfg(not(unix))]
pub fn physical_memory() -> Option<u64> {
    None
}

/// The least of the caps on this process's memory, `None` when nothing caps it.
pub fn process_cap() -> Option<u64> {
    [cgroup_limit(), resource_limit()]
        .into_iter()
        .flatten()
        .min()
}

/// The soft resource limits on the address space and the data segment.
#[cfg(unix)]
fn resource_limit() -> Option<u64> {
    let get = |resource| {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes one `rlimit` through a valid pointer.
        let ok = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
        // `rlim_t` is u64 on Linux but not on every Unix.
        #[allow(clippy::unnecessary_cast)]
        let cur = limit.rlim_cur as u64;
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(cur)
    };
    [get(libc::RLIMIT_AS), get(libc::RLIMIT_DATA)]
        .into_iter()
        .flatten()
        .min()
}

#[cfg(not(unix))]
fn resource_limit() -> Option<u64> {
    None
}

/// The memory limit of this process's control group: `memory.max` (v2) or
/// `memory.limit_in_bytes` (v1), in the group and its parents, as mounted at `/sys/fs/cgroup`
/// (in a container, whose own group is the root it sees, the root's file is the container's).
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut files = vec![
        "/sys/fs/cgroup/memory.max".to_string(),
        "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_string(),
    ];
    for line in groups.lines() {
        // "0::/path" is the v2 group; "N:memory:/path" (or "N:…,memory,…:/path") the v1 one.
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next(), parts.next(), parts.next());
        let (Some(controllers), Some(path)) = (controllers, path) else {
            continue;
        };
        let (base, file) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
        } else {
            continue;
        };
        let mut dir = std::path::PathBuf::from(format!("{base}{path}"));
        while dir.starts_with(base) && dir.as_os_str().len() > base.len() {
            files.push(dir.join(file).display().to_string());
            if !dir.pop() {
                break;
            }
        }
    }
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .filter_map(|text| parse_limit(&text))
        .min()
}

/// A cgroup limit file's number; `None` for "max" and for v1's "no limit" (a value near
/// 2^63, rounded down to a page).
fn parse_limit(text: &str) -> Option<u64> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|&b| b > 0 && b < 1 << 62)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_files_are_read_as_the_kernel_writes_them() {
        assert_eq!(parse_limit("max\n"), None);
        assert_eq!(parse_limit("9223372036854771712\n"), None);
        assert_eq!(parse_limit("4294967296\n"), Some(4 << 30));
        assert_eq!(parse_limit(""), None);
    }

    #[test]
    fn the_cap_is_never_above_a_resource_limit_in_force() {
        if let Some(r) = resource_limit() {
            assert!(process_cap().unwrap() <= r);
        }
    }
}
