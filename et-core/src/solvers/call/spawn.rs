//! Starting the solver of one call, contained: the command line with its input, and
//! what the child does between fork and exec (join the call's cgroup, lead its own
//! process group, die with its parent thread, dump no core, stay under the
//! address-space limit, read the clock the call's wall time starts from).
//! *Must not:* allocate or lock in the `pre_exec` closure (it runs after a fork).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::cgroup::CallCgroup;
use super::process::Reaper;
use super::{During, Input, Limits, SupervisionFailure};

/// A solver that runs: its process handle (pipes not yet taken), the moment it
/// execed, and the [`Reaper`] that kills everything it starts on every path from here.
pub(super) struct Running<'a> {
    pub child: Child,
    pub start: Instant,
    pub reaper: Reaper<'a>,
}

/// What came of starting the solver.
// One value per call, moved once into the watch: boxing the large variant would only
// add an allocation.
#[allow(clippy::large_enum_variant)]
pub(super) enum Started<'a> {
    /// The solver runs.
    Running(Running<'a>),
    /// The program could not be started (exec failed), and why.
    NotStarted(String),
}

/// Starts `command` (program then arguments) on `input`, in `cgroup` when there is
/// one, else alone in a process group under `limits`' memory as address space.
pub(super) fn start<'a>(
    command: &[String],
    input: Input<'_>,
    limits: &Limits,
    cgroup: Option<CallCgroup<'a>>,
) -> Result<Started<'a>, SupervisionFailure> {
    let program = &command[0];
    let mut cmd = Command::new(program);
    cmd.args(&command[1..]);
    match input {
        Input::File(path) => {
            cmd.arg(path);
            cmd.stdin(Stdio::null());
        }
        Input::Stdin(_) => {
            cmd.stdin(Stdio::piped());
        }
    }
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // Without cgroups, memory is limited per process, as address space.
    let address_space = match cgroup {
        Some(_) => None,
        None => limits
            .memory_mb
            .map(|mb| mb.saturating_mul(1024 * 1024) as libc::rlim_t),
    };
    let join = cgroup
        .as_ref()
        .map(CallCgroup::join_fds)
        .unwrap_or_default();
    let (exec_clock, exec_clock_w) = clock_pipe().during("pipe")?;
    contain(&mut cmd, join, address_space, exec_clock_w.as_raw_fd());

    let child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Ok(Started::NotStarted(format!(
                "cannot start `{program}`: {e}"
            )))
        }
    };
    drop(exec_clock_w);
    let start = exec_instant(&exec_clock).unwrap_or_else(Instant::now);
    // From here on everything the call started must be killed on every path,
    // including errors.
    let reaper = Reaper {
        pid: child.id() as libc::pid_t,
        reaped: false,
        cgroup,
    };
    Ok(Started::Running(Running {
        child,
        start,
        reaper,
    }))
}

/// Sets what the child does between fork and exec: write "0" into each of the call
/// cgroup's `join` descriptors, `setpgid(0, 0)`, `PR_SET_PDEATHSIG(SIGKILL)`, no core
/// dumps, `RLIMIT_AS` of `address_space` bytes when given, and, last, its clock
/// reading into `exec_clock_fd`.
fn contain(
    cmd: &mut Command,
    join: Vec<RawFd>,
    address_space: Option<libc::rlim_t>,
    exec_clock_fd: RawFd,
) {
    // SAFETY: the closure runs between fork and exec and only makes async-signal-safe
    // system calls (write, setpgid, prctl, setrlimit, clock_gettime) on data prepared
    // before the fork, allocating nothing; the descriptors it writes to stay open in
    // the parent until the spawn has returned.
    unsafe {
        cmd.pre_exec(move || {
            // First, so that everything after (and everything it forks) is counted.
            for &fd in &join {
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
            if libc::setpgid(0, 0) < 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) < 0 {
                return Err(io::Error::last_os_error());
            }
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // Best effort: failing to disable core dumps is not worth failing the call.
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            if let Some(bytes) = address_space {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            // Last, right before the exec: when the solver starts.
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now);
            let size = std::mem::size_of::<libc::timespec>();
            libc::write(exec_clock_fd, (&now as *const libc::timespec).cast(), size);
            Ok(())
        });
    }
}

/// A pipe (read end, write end), both closed on exec, on which the child passes the
/// moment it execs the solver.
pub(super) fn clock_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 writes two descriptors into the two-element array or fails.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these new descriptors to us; nothing else owns
    // them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// When the child called exec, read from the [`clock_pipe`] once the spawn has
/// returned (our write end closed, so an empty pipe reads as end of file). The
/// spawning thread only learns of the exec when it next runs, which on a busy
/// machine can be a scheduler slice (3 ms) later while the solver already runs:
/// the child's own clock reading keeps that time in the solver's `wall` and inside
/// its timeout.
pub(super) fn exec_instant(pipe: &OwnedFd) -> Option<Instant> {
    let mut at = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let size = std::mem::size_of::<libc::timespec>();
    // SAFETY: reading at most `size` bytes into a timespec, which any bytes make valid.
    let n = unsafe {
        libc::read(
            pipe.as_raw_fd(),
            (&mut at as *mut libc::timespec).cast(),
            size,
        )
    };
    if n != size as isize {
        return None;
    }
    let here = Instant::now();
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec, a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let nanos = |t: &libc::timespec| t.tv_sec as i128 * 1_000_000_000 + t.tv_nsec as i128;
    let ago = u64::try_from(nanos(&now) - nanos(&at)).ok()?;
    here.checked_sub(Duration::from_nanos(ago))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exec_clock_reading_becomes_the_start() {
        let (read, write) = clock_pipe().unwrap();
        let mut at = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut at) };
        let size = std::mem::size_of::<libc::timespec>();
        // SAFETY: writing the timespec's bytes to our own pipe.
        let n = unsafe {
            libc::write(
                write.as_raw_fd(),
                (&at as *const libc::timespec).cast(),
                size,
            )
        };
        assert_eq!(n, size as isize);
        drop(write);
        std::thread::sleep(Duration::from_millis(50));
        let start = exec_instant(&read).expect("a clock reading");
        assert!(start.elapsed() >= Duration::from_millis(50));
        // Nothing more to read: no start, and the caller takes its own clock.
        assert!(exec_instant(&read).is_none());
    }
}
