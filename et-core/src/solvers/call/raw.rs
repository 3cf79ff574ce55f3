//! Killing the processes of a cgroup and removing cgroup directories with nothing but
//! system calls and fixed buffers on the stack.
//!
//! The same code runs in two places: in et, after each call and when it reaps the
//! cgroups of a dead et process, and in the watchdog, a process forked from a
//! multithreaded et where only async-signal-safe functions may be called (no `malloc`,
//! no locks). Hence no `std::fs`, no `Vec`, no `String` here.

use std::ffi::CStr;

/// Longest path these helpers build (Linux's `PATH_MAX`).
const PATH_MAX: usize = 4096;

/// Step of the waits below: short, because a call's end (and a timeout's precision)
/// waits on them, and freezing or exiting usually takes well under a millisecond.
const STEP_US: u32 = 100;

/// How many steps one kill round waits for a freezing cgroup to report that it is
/// frozen (100 ms). A task in uninterruptible sleep (disk I/O) can delay freezing;
/// after this the tasks are killed anyway (SIGKILL is still delivered, only the
/// pid-reuse guard of the freezer is lost for that round).
const FREEZE_WAIT_STEPS: u32 = 1000;

/// How many steps a kill round waits for killed tasks to leave the cgroup (100 ms).
const EXIT_WAIT_STEPS: u32 = 1000;

/// Upper bound on kill rounds (freeze, kill every task, thaw) before giving up on a
/// cgroup that does not empty; each round kills every task present, so more than a
/// few are only needed by processes forking as fast as they are killed.
const KILL_ROUNDS: u32 = 100;

/// How many steps to wait for v2's `cgroup.kill` to empty the cgroup (2 s).
const KILL_WAIT_STEPS: u32 = 20_000;

/// Which cgroup interface a directory belongs to, with the files the kill uses.
#[derive(Clone, Copy)]
pub(super) enum KillVia {
    /// cgroup v1: the cgroup's directory in the freezer hierarchy (`freezer.state`).
    V1Freezer,
    /// cgroup v2: `cgroup.kill` (Linux 5.14), else `cgroup.freeze` and kill rounds.
    V2,
}

/// A NUL-terminated path in a fixed buffer.
pub(super) struct RawPath {
    buf: [u8; PATH_MAX],
    len: usize,
}

impl RawPath {
    /// The path `base` (without its NUL), or `None` if it does not fit.
    pub fn new(base: &CStr) -> Option<RawPath> {
        let bytes = base.to_bytes();
        if bytes.len() >= PATH_MAX {
            return None;
        }
        let mut p = RawPath {
            buf: [0; PATH_MAX],
            len: bytes.len(),
        };
        p.buf[..bytes.len()].copy_from_slice(bytes);
        Some(p)
    }

    /// Appends `/component`; false (path unchanged) if it does not fit.
    pub fn push(&mut self, component: &[u8]) -> bool {
        if self.len + 1 + component.len() >= PATH_MAX {
            return false;
        }
        self.buf[self.len] = b'/';
        self.buf[self.len + 1..self.len + 1 + component.len()].copy_from_slice(component);
        self.len += 1 + component.len();
        self.buf[self.len] = 0;
        true
    }

    /// Cuts the path back to `len` bytes (a length it had before a [`RawPath::push`]).
    pub fn truncate(&mut self, len: usize) {
        self.len = len;
        self.buf[len] = 0;
    }

    /// Current length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The path as a C string.
    pub fn as_cstr(&self) -> &CStr {
        // The buffer always holds a NUL at `len` and none before (components come from
        // directory entries and C strings, which contain no NUL).
        CStr::from_bytes_until_nul(&self.buf[..=self.len]).unwrap_or(c"")
    }
}

/// Writes `data` to the file at `path` in one `write`; false on any error.
pub(super) fn write_file(path: &CStr, data: &[u8]) -> bool {
    // SAFETY: plain system calls on a valid C string and buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let n = libc::write(fd, data.as_ptr().cast(), data.len());
        libc::close(fd);
        n == data.len() as isize
    }
}

/// Reads up to `buf.len()` bytes of the file at `path`; `None` if it cannot be read.
pub(super) fn read_file<'b>(path: &CStr, buf: &'b mut [u8]) -> Option<&'b [u8]> {
    // SAFETY: plain system calls on a valid C string and buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let mut filled = 0;
        while filled < buf.len() {
            let n = libc::read(fd, buf[filled..].as_mut_ptr().cast(), buf.len() - filled);
            if n < 0 && *libc::__errno_location() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                break;
            }
            filled += n as usize;
        }
        libc::close(fd);
        Some(&buf[..filled])
    }
}

/// Calls `f` with every pid listed in a `cgroup.procs` file (one decimal per line),
/// reading it in chunks; false if the file cannot be opened.
pub(super) fn for_each_pid(procs: &CStr, mut f: impl FnMut(libc::pid_t)) -> bool {
    let mut buf = [0u8; 1024];
    // SAFETY: plain system calls on a valid C string and buffer.
    unsafe {
        let fd = libc::open(procs.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let mut current: i64 = -1;
        loop {
            let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            if n < 0 && *libc::__errno_location() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                break;
            }
            for &b in &buf[..n as usize] {
                if b.is_ascii_digit() {
                    current = current.max(0) * 10 + i64::from(b - b'0');
                } else if current >= 0 {
                    f(current as libc::pid_t);
                    current = -1;
                }
            }
        }
        if current >= 0 {
            f(current as libc::pid_t);
        }
        libc::close(fd);
    }
    true
}

/// Whether a `cgroup.procs` file lists no process (a file that cannot be read counts
/// as empty: the cgroup is gone).
pub(super) fn is_empty(procs: &CStr) -> bool {
    let mut any = false;
    for_each_pid(procs, |_| any = true);
    !any
}

/// Calls `f` with the name of every subdirectory of `dir` (not `.` and `..`); false if
/// the directory cannot be opened.
pub(super) fn for_each_subdir(dir: &CStr, mut f: impl FnMut(&[u8])) -> bool {
    // Aligned for the kernel's `struct linux_dirent64` records.
    #[repr(C, align(8))]
    struct Buf([u8; 4096]);
    let mut buf = Buf([0; 4096]);
    // SAFETY: plain system calls; records are parsed within the bytes the kernel filled.
    unsafe {
        let fd = libc::open(
            dir.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return false;
        }
        loop {
            let n = libc::syscall(libc::SYS_getdents64, fd, buf.0.as_mut_ptr(), buf.0.len());
            if n <= 0 {
                break;
            }
            let mut at = 0usize;
            while at + 19 < n as usize {
                // struct linux_dirent64 { u64 ino; i64 off; u16 reclen; u8 type; char name[]; }
                let reclen = u16::from_ne_bytes([buf.0[at + 16], buf.0[at + 17]]) as usize;
                let kind = buf.0[at + 18];
                let name_area = &buf.0[at + 19..(at + reclen).min(n as usize)];
                let name_len = name_area.iter().position(|&b| b == 0).unwrap_or(0);
                let name = &name_area[..name_len];
                if kind == libc::DT_DIR && name != b"." && name != b".." && !name.is_empty() {
                    f(name);
                }
                if reclen == 0 {
                    break;
                }
                at += reclen;
            }
        }
        libc::close(fd);
    }
    true
}

/// Sleeps about `us` microseconds.
pub(super) fn sleep_us(us: u32) {
    let ts = libc::timespec {
        tv_sec: (us / 1_000_000) as libc::time_t,
        tv_nsec: ((us % 1_000_000) * 1000) as libc::c_long,
    };
    // SAFETY: a plain system call.
    unsafe { libc::nanosleep(&ts, std::ptr::null_mut()) };
}

/// Kills every process of the cgroup at `dir` (its directory in the freezer hierarchy
/// for v1) and waits until it is empty; false if it still holds processes after
/// [`KILL_ROUNDS`]. Processes are frozen before they are signalled, so none can fork or
/// exit (and free its pid for reuse by an unrelated process) between the read of
/// `cgroup.procs` and the kill; v2's `cgroup.kill` does all of it in the kernel.
pub(super) fn kill_cgroup(dir: &CStr, via: KillVia) -> bool {
    let Some(mut path) = RawPath::new(dir) else {
        return false;
    };
    let base = path.len();
    path.push(b"cgroup.procs");
    if is_empty(path.as_cstr()) {
        return true;
    }
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    if let KillVia::V2 = via {
        path.truncate(base);
        path.push(b"cgroup.kill");
        if write_file(path.as_cstr(), b"1") {
            path.truncate(base);
            path.push(b"cgroup.procs");
            for _ in 0..KILL_WAIT_STEPS {
                if is_empty(path.as_cstr()) {
                    return true;
                }
                sleep_us(STEP_US);
            }
            return false;
        }
    }
    for _ in 0..KILL_ROUNDS {
        freeze(&mut path, base, via, true);
        path.truncate(base);
        path.push(b"cgroup.procs");
        let mut any = false;
        for_each_pid(path.as_cstr(), |pid| {
            if pid > 0 && pid != me {
                any = true;
                // SAFETY: a plain system call.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        });
        freeze(&mut path, base, via, false);
        if !any {
            return true;
        }
        // Killed tasks leave the cgroup once they have run their exit path.
        path.truncate(base);
        path.push(b"cgroup.procs");
        for _ in 0..EXIT_WAIT_STEPS {
            if is_empty(path.as_cstr()) {
                return true;
            }
            sleep_us(STEP_US);
        }
    }
    false
}

/// Freezes (`on`) or thaws the cgroup at `path[..base]`, waiting (bounded) until the
/// kernel reports it frozen.
fn freeze(path: &mut RawPath, base: usize, via: KillVia, on: bool) {
    let (file, value, state_file, frozen): (&[u8], &[u8], &[u8], &[u8]) = match via {
        KillVia::V1Freezer => (
            b"freezer.state",
            if on { b"FROZEN" } else { b"THAWED" },
            b"freezer.state",
            b"FROZEN",
        ),
        KillVia::V2 => (
            b"cgroup.freeze",
            if on { b"1" } else { b"0" },
            b"cgroup.events",
            b"frozen 1",
        ),
    };
    path.truncate(base);
    path.push(file);
    if !write_file(path.as_cstr(), value) || !on {
        return;
    }
    path.truncate(base);
    path.push(state_file);
    let mut buf = [0u8; 256];
    for _ in 0..FREEZE_WAIT_STEPS {
        match read_file(path.as_cstr(), &mut buf) {
            Some(text) if contains(text, frozen) => return,
            None => return,
            Some(_) => sleep_us(STEP_US),
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Removes an empty cgroup directory, retrying while its last tasks finish exiting;
/// true when it is gone.
pub(super) fn remove_dir(dir: &CStr) -> bool {
    for _ in 0..2000 {
        // SAFETY: a plain system call on a valid C string.
        if unsafe { libc::rmdir(dir.as_ptr()) } == 0 {
            return true;
        }
        // SAFETY: reading errno right after the failed call.
        match unsafe { *libc::__errno_location() } {
            libc::ENOENT => return true,
            libc::EBUSY => sleep_us(STEP_US),
            _ => return false,
        }
    }
    false
}

/// Tears down the cgroups of one et process: kills the processes of every call cgroup
/// under `kill_dir` (the process's directory in the freezer hierarchy for v1, its only
/// directory for v2) and removes the call cgroups and the process's own directories in
/// `kill_dir` and `other_dirs` (the same process directory in the other v1
/// hierarchies). Used by the watchdog when et dies and by et for dead et processes.
pub(super) fn teardown(kill_dir: &CStr, via: KillVia, other_dirs: &[&CStr]) {
    if let Some(mut path) = RawPath::new(kill_dir) {
        let base = path.len();
        for_each_subdir(kill_dir, |name| {
            path.truncate(base);
            if path.push(name) {
                kill_cgroup(path.as_cstr(), via);
            }
        });
    }
    for dir in std::iter::once(&kill_dir).chain(other_dirs) {
        remove_children_and_self(dir);
    }
}

/// Removes every subdirectory of `dir` (call cgroups, already empty) and then `dir`.
fn remove_children_and_self(dir: &CStr) {
    let Some(mut path) = RawPath::new(dir) else {
        return;
    };
    let base = path.len();
    // Removing entries while reading the directory may skip some: repeat until a pass
    // finds nothing left (or removes nothing more).
    for _ in 0..16 {
        let mut seen = false;
        let mut removed = false;
        for_each_subdir(dir, |name| {
            seen = true;
            path.truncate(base);
            if path.push(name) {
                removed |= remove_dir(path.as_cstr());
            }
        });
        if !seen || !removed {
            break;
        }
    }
    remove_dir(dir);
}
