//! The solver process of one call, seen from et: killing and reaping it (with its
//! process group and its cgroup), the CPU time it used so far, whether it exited, its
//! pidfd. *Must not:* read its output (that is [`super::capture`]).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

use super::cgroup::CallCgroup;

/// Kills what the call started when asked or dropped, unless the child was already
/// reaped (after which its process group id may be reused and must not be signalled).
pub(super) struct Reaper<'a> {
    pub pid: libc::pid_t,
    pub reaped: bool,
    pub cgroup: Option<CallCgroup<'a>>,
}

impl Reaper<'_> {
    /// SIGKILLs the whole process group (the child is a zombie or alive, so the id is
    /// still ours) and the cgroup, then reaps the child and returns its wait status and
    /// rusage.
    pub fn kill_and_reap(&mut self) -> io::Result<(libc::c_int, libc::rusage)> {
        // SAFETY: kill has no memory-safety preconditions; the group id is reserved by
        // our unreaped child, so the signal cannot reach a stranger's group.
        unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        if let Some(cg) = &self.cgroup {
            cg.kill_all();
        }
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data (integers and timevals), valid when all zero.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: waiting for our own child; `status` and `usage` are valid, live
            // out-pointers for the duration of the call.
            let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
            if r == self.pid {
                self.reaped = true;
                return Ok((status, usage));
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    /// CPU time used so far: the cgroup's, or the child's and its waited-for
    /// descendants' from /proc (clock ticks).
    pub fn cpu_used(&self) -> Duration {
        match &self.cgroup {
            Some(cg) => cg.cpu_usage(),
            None => proc_cpu_time(self.pid).unwrap_or_default(),
        }
    }
}

impl Drop for Reaper<'_> {
    fn drop(&mut self) {
        if !self.reaped {
            // An error path: do not leave the solver running or as a zombie.
            let _ = self.kill_and_reap();
        }
    }
}

/// utime + stime + cutime + cstime of a live (or zombie) process, from /proc.
fn proc_cpu_time(pid: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may contain spaces and parentheses):
    // state is field 3, utime..cstime are fields 14..17.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().unwrap_or(0))
        .sum();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000) / hz,
    ))
}

/// A pidfd for `pid` (readable once the process exits), or `None` where the kernel
/// lacks `pidfd_open` (before Linux 5.3, or blocked by a seccomp policy).
pub(super) fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: pidfd_open takes two integers and returns a new descriptor or -1;
        // it touches no memory of ours.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if fd >= 0 {
            // SAFETY: the kernel just returned this new descriptor to us; nothing else
            // owns it.
            return Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) });
        }
    }
    let _ = pid;
    None
}

/// Whether the child has exited, without reaping it (so its group id stays reserved).
pub(super) fn child_exited(pid: libc::pid_t) -> io::Result<bool> {
    // SAFETY: siginfo_t is plain data, valid when all zero (waitid with WNOHANG leaves
    // si_pid zero when no child changed state, which is what we test).
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a valid, live out-pointer; WNOWAIT leaves the child unreaped.
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: waitid succeeded, so `info` is initialised (zeroed or filled by the
    // kernel) and si_pid reads the field of the SIGCHLD layout waitid fills.
    Ok(unsafe { info.si_pid() } != 0)
}

/// A `timeval` of rusage as a duration (negative fields, which the kernel never
/// reports, read as zero).
pub(super) fn timeval(tv: libc::timeval) -> Duration {
    Duration::new(tv.tv_sec.max(0) as u64, (tv.tv_usec.max(0) as u32) * 1000)
}
