//! The watchdog: a small process that outlives et to kill its solvers.
//!
//! `PR_SET_PDEATHSIG` kills a solver when et dies, but not what the solver forked; the
//! call cgroups hold those. When et ends in any way — normal exit, a panic, `kill -9` —
//! the kernel closes et's end of a pipe; the watchdog, blocked reading the other end,
//! wakes up, kills every process left in et's call cgroups and removes the cgroups.
//!
//! The watchdog is forked, not executed: et is a library too (tests, benchmarks), with
//! no binary of its own to run. After `fork` in a multithreaded process only
//! async-signal-safe functions may be used, so everything the child needs is prepared
//! before the fork and the child runs [`super::raw`] only.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;

use super::cgroup::c_path;
use super::raw::{self, KillVia};

/// Keeps the watchdog waiting: when this (et's end of the pipe) closes, it acts.
pub(super) struct Watchdog {
    _pipe: OwnedFd,
}

impl Watchdog {
    /// Forks the watchdog for et's process directories: `kill_dir` (freezer hierarchy
    /// for v1) and the same directory in the other hierarchies.
    pub fn start(kill_dir: &Path, via: KillVia, other_dirs: &[&Path]) -> io::Result<Watchdog> {
        let kill_dir = c_path(kill_dir);
        let others: Vec<CString> = other_dirs.iter().map(|d| c_path(d)).collect();
        let other_refs: Vec<&CStr> = others.iter().map(CString::as_c_str).collect();
        let mut fds = [0; 2];
        // SAFETY: pipe2 fills the array with two new descriptors or fails.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just created and are owned here.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: the child calls only async-signal-safe functions (see `watch`) and
        // never returns into Rust code of the parent.
        match unsafe { libc::fork() } {
            -1 => Err(io::Error::last_os_error()),
            0 => watch(read_end.as_raw_fd(), &kill_dir, via, &other_refs),
            _ => {
                drop(read_end);
                Ok(Watchdog { _pipe: write_end })
            }
        }
    }
}

/// The watchdog's life: detach, wait for et to die, tear down, exit.
fn watch(pipe: libc::c_int, kill_dir: &CStr, via: KillVia, others: &[&CStr]) -> ! {
    // SAFETY: only async-signal-safe system calls, on descriptors and buffers we own.
    unsafe {
        // Leave et's session and process group: Ctrl-C on et's terminal, or a kill of
        // its process group, must not take the watchdog with it.
        libc::setsid();
        // Keep only the pipe: a copy of a solver's pipe would delay et's end-of-output,
        // and a copy of et's stdout would keep `et ... | cat` waiting.
        let keep = if pipe >= 3 {
            pipe
        } else {
            libc::fcntl(pipe, libc::F_DUPFD, 3)
        };
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        for fd in 0..3 {
            if null >= 0 && null != fd {
                libc::dup2(null, fd);
            }
        }
        if libc::syscall(libc::SYS_close_range, keep + 1, libc::c_uint::MAX, 0) < 0 {
            for fd in keep + 1..65536 {
                libc::close(fd);
            }
        }
        for fd in 3..keep {
            libc::close(fd);
        }
        if keep < 0 {
            libc::_exit(1);
        }
        // A signal handler of et must not run here; the mask may be a worker's.
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE] {
            libc::signal(sig, libc::SIG_IGN);
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        libc::prctl(libc::PR_SET_NAME, c"et-watchdog".as_ptr());
        let mut byte = 0u8;
        loop {
            let n = libc::read(keep, (&mut byte as *mut u8).cast(), 1);
            if n < 0 && *libc::__errno_location() == libc::EINTR {
                continue;
            }
            if n <= 0 {
                break;
            }
        }
        raw::teardown(kill_dir, via, others);
        libc::_exit(0)
    }
}
