//! A cgroup of its own for each solver call, as BenchExec does it: the solver joins an
//! empty cgroup before `exec`, so it and everything it forks (a `setsid` escapee, a
//! double-forked daemon) is counted, limited and killed together.
//!
//! Layout: below et's own cgroup (in each hierarchy it uses), a directory `et-<pid>`
//! per et process, and in it `call-<n>` cgroups: on v1, as many as calls ran at once,
//! each emptied after its call and reused by the next with the same memory limit
//! (CPU time and peak reset, OOM kills and the memory still charged to it — page cache
//! of earlier calls — taken as the call's baseline); on v2 one per call, removed
//! after it, because `memory.peak` cannot be reset before Linux 6.12. Creating children of one's own
//! cgroup keeps et inside whatever limits it was started under. cgroup v1 needs the
//! memory, cpuacct and freezer hierarchies; v2 needs the memory, cpu and pids
//! controllers and a cgroup that et may subdivide (its own, if et is alone in it: et
//! then moves itself into a leaf `et-<pid>-self`, because v2 allows controllers only
//! on cgroups without processes of their own).
//!
//! Per call: the memory limit (`memory.limit_in_bytes` plus the same for memory+swap
//! in v1; `memory.max` and no swap in v2), an out-of-memory notification to poll
//! (v1: an eventfd on `memory.oom_control`; v2: `memory.events`), and at the end the
//! totals: CPU (`cpuacct.usage` / `cpu.stat`), peak memory (`memory.max_usage_in_bytes`
//! / `memory.peak`) and OOM kills (`oom_kill`).
//!
//! Why not a crate such as `cgroups-rs`: the child must join its cgroup between fork
//! and exec (async-signal-safe: a `write` to a descriptor opened beforehand), and the
//! watchdog kills after a fork from a multithreaded process (no allocation), so the
//! parts that matter cannot go through a general-purpose API; what is left is creating
//! directories and reading a handful of files.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::raw::{self, KillVia};
use super::watchdog::Watchdog;

/// The cgroup interface in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Version {
    V1,
    V2,
}

impl Version {
    fn kill_via(self) -> KillVia {
        match self {
            Version::V1 => KillVia::V1Freezer,
            Version::V2 => KillVia::V2,
        }
    }
}

/// et's per-process cgroup directories and the watchdog that removes them when et
/// dies. Created once per process.
pub(super) struct Cgroups {
    version: Version,
    /// v2: the one `et-<pid>` directory. v1: `et-<pid>` in the memory hierarchy.
    memory: PathBuf,
    /// v1: `et-<pid>` in the cpuacct hierarchy (may equal `memory` when co-mounted).
    cpuacct: PathBuf,
    /// v1: `et-<pid>` in the freezer hierarchy. v2: same as `memory`.
    freezer: PathBuf,
    /// Numbers the call cgroups.
    next: AtomicU64,
    /// v1: call cgroups emptied after their call, kept for the next one. Creating and
    /// removing three directories per call (and the kernel's work behind them) cost
    /// about a twentieth of a campaign of short calls; a reused cgroup only needs its
    /// counters started afresh.
    idle: Mutex<Vec<Slot>>,
    /// Kept for its lifetime: it tears everything down when et's last descriptor of its
    /// pipe closes, i.e. when et exits in any way.
    _watchdog: Watchdog,
}

impl Cgroups {
    /// Sets up cgroup supervision for this process, or says why it is not available.
    /// Leftovers of dead et processes found next to ours are killed and removed first.
    pub fn new() -> Result<Cgroups, String> {
        let mounts = Mounts::read().map_err(|e| format!("cannot read /proc/self: {e}"))?;
        let v2 = match mounts.v2_base() {
            Ok(base) => match setup_v2(&base) {
                Ok(c) => return Ok(c),
                Err(why) => why,
            },
            Err(why) => why,
        };
        let v1 = match mounts.v1_bases() {
            Ok(bases) => match setup_v1(&bases) {
                Ok(c) => return Ok(c),
                Err(why) => why,
            },
            Err(why) => why,
        };
        Err(format!("cgroup v2: {v2}; cgroup v1: {v1}"))
    }

    pub fn version(&self) -> Version {
        self.version
    }

    fn dirs(&self) -> Vec<&Path> {
        let mut dirs: Vec<&Path> = vec![&self.freezer, &self.memory, &self.cpuacct];
        dirs.dedup();
        dirs.sort();
        dirs.dedup();
        dirs
    }
}

/// Where each hierarchy is mounted and where this process sits in it.
struct Mounts {
    /// (mount point, mount root inside the hierarchy, controllers) of v1 hierarchies.
    v1: Vec<(PathBuf, String, Vec<String>)>,
    /// (mount point, mount root) of the v2 hierarchy.
    v2: Option<(PathBuf, String)>,
    /// /proc/self/cgroup: (hierarchy controllers, path); v2 has no controllers.
    own: Vec<(Vec<String>, String)>,
}

impl Mounts {
    fn read() -> io::Result<Mounts> {
        let mut v1 = Vec::new();
        let mut v2 = None;
        for line in fs::read_to_string("/proc/self/mountinfo")?.lines() {
            // id parent major:minor root mount-point options [optional...] - type source super-options
            let Some((left, right)) = line.split_once(" - ") else {
                continue;
            };
            let left: Vec<&str> = left.split(' ').collect();
            let right: Vec<&str> = right.split(' ').collect();
            if left.len() < 5 || right.len() < 3 {
                continue;
            }
            let (root, point) = (unescape(left[3]), PathBuf::from(unescape(left[4])));
            match right[0] {
                "cgroup2" => v2 = Some((point, root)),
                "cgroup" => {
                    let controllers = right[2]
                        .split(',')
                        .filter(|o| !matches!(*o, "rw" | "ro") && !o.contains('='))
                        .map(String::from)
                        .collect();
                    v1.push((point, root, controllers));
                }
                _ => {}
            }
        }
        let own = fs::read_to_string("/proc/self/cgroup")?
            .lines()
            .filter_map(|l| {
                let mut parts = l.splitn(3, ':');
                let _id = parts.next()?;
                let controllers = parts.next()?;
                let path = parts.next()?;
                let controllers = controllers
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .map(String::from)
                    .collect();
                Some((controllers, path.to_string()))
            })
            .collect();
        Ok(Mounts { v1, v2, own })
    }

    /// Our own cgroup directory in the v2 hierarchy.
    fn v2_base(&self) -> Result<PathBuf, String> {
        let (point, root) = self.v2.as_ref().ok_or("not mounted")?;
        let path = self
            .own
            .iter()
            .find(|(c, _)| c.is_empty())
            .map(|(_, p)| p)
            .ok_or("this process has no v2 cgroup")?;
        let dir = below(point, root, path).ok_or("this process's cgroup is outside the mount")?;
        let controllers = fs::read_to_string(dir.join("cgroup.controllers"))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let have: Vec<&str> = controllers.split_whitespace().collect();
        let missing: Vec<&str> = ["memory", "cpu", "pids"]
            .into_iter()
            .filter(|c| !have.contains(c))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "{} lacks the {} controller(s)",
                dir.display(),
                missing.join(", ")
            ));
        }
        Ok(dir)
    }

    /// Our own cgroup directories in the v1 memory, cpuacct and freezer hierarchies.
    fn v1_bases(&self) -> Result<[PathBuf; 3], String> {
        let find = |controller: &str| -> Result<PathBuf, String> {
            let (point, root, _) = self
                .v1
                .iter()
                .find(|(_, _, cs)| cs.iter().any(|c| c == controller))
                .ok_or_else(|| format!("no {controller} hierarchy"))?;
            let path = self
                .own
                .iter()
                .find(|(cs, _)| cs.iter().any(|c| c == controller))
                .map(|(_, p)| p)
                .ok_or_else(|| format!("this process is in no {controller} cgroup"))?;
            below(point, root, path)
                .ok_or_else(|| format!("this process's {controller} cgroup is outside the mount"))
        };
        Ok([find("memory")?, find("cpuacct")?, find("freezer")?])
    }
}

/// The directory of cgroup `path` in a hierarchy mounted at `point` whose mount shows
/// the hierarchy from `root` on (containers mount a subtree).
fn below(point: &Path, root: &str, path: &str) -> Option<PathBuf> {
    let rel = if root == "/" {
        path
    } else {
        path.strip_prefix(root)?
    };
    let rel = rel.trim_start_matches('/');
    Some(if rel.is_empty() {
        point.to_path_buf()
    } else {
        point.join(rel)
    })
}

/// mountinfo escapes space, tab, newline and backslash as octal `\NNN`.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && i + 3 < bytes.len()
            && bytes[i + 1..i + 4]
                .iter()
                .all(|b| (b'0'..=b'7').contains(b))
        {
            let n = (bytes[i + 1] - b'0') * 64 + (bytes[i + 2] - b'0') * 8 + (bytes[i + 3] - b'0');
            out.push(n);
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn process_dir_name() -> String {
    format!("et-{}", std::process::id())
}

/// Creates `dir` (an existing one is fine).
fn make_dir(dir: &Path) -> Result<(), String> {
    match fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!("cannot create {}: {e}", dir.display())),
    }
}

fn setup_v1(bases: &[PathBuf; 3]) -> Result<Cgroups, String> {
    let [memory_base, cpuacct_base, freezer_base] = bases;
    // The freezer first: it kills with the processes frozen. The same directories in
    // the other hierarchies are then empty (or belong to a dead et whose freezer
    // directory is already gone) and only need removing.
    for base in [freezer_base, memory_base, cpuacct_base] {
        reap_dead(base, KillVia::V1Freezer);
    }
    let name = process_dir_name();
    let memory = memory_base.join(&name);
    let cpuacct = cpuacct_base.join(&name);
    let freezer = freezer_base.join(&name);
    for dir in [&freezer, &memory, &cpuacct] {
        make_dir(dir)?;
    }
    // memory+swap accounting, when present, must stay >= the memory limit: making the
    // per-call limits work needs nothing here, but catch an unusable hierarchy now.
    if !freezer.join("freezer.state").exists() {
        return Err(format!("{} has no freezer.state", freezer.display()));
    }
    let watchdog = Watchdog::start(&freezer, KillVia::V1Freezer, &[&memory, &cpuacct])
        .map_err(|e| format!("cannot start the cgroup watchdog: {e}"))?;
    Ok(Cgroups {
        version: Version::V1,
        memory,
        cpuacct,
        freezer,
        next: AtomicU64::new(0),
        idle: Mutex::new(Vec::new()),
        _watchdog: watchdog,
    })
}

fn setup_v2(base: &Path) -> Result<Cgroups, String> {
    reap_dead(base, KillVia::V2);
    let enable = "+memory +cpu +pids";
    let control = base.join("cgroup.subtree_control");
    if fs::write(&control, enable).is_err() {
        // Controllers can only be handed down by a cgroup without processes of its own.
        // If et is alone in its cgroup, it steps into a leaf of its own to free it.
        let procs = fs::read_to_string(base.join("cgroup.procs"))
            .map_err(|e| format!("{}: {e}", base.display()))?;
        let me = std::process::id().to_string();
        if procs.split_whitespace().any(|p| p != me) {
            return Err(format!(
                "{} holds other processes besides et, so et cannot create cgroups with \
                 memory limits below it (start et in a cgroup of its own, e.g. \
                 `systemd-run --user --scope -p Delegate=yes et ...`)",
                base.display()
            ));
        }
        let leaf = base.join(format!("{}-self", process_dir_name()));
        make_dir(&leaf)?;
        fs::write(leaf.join("cgroup.procs"), &me)
            .map_err(|e| format!("cannot move et into {}: {e}", leaf.display()))?;
        fs::write(&control, enable)
            .map_err(|e| format!("cannot enable {enable} in {}: {e}", control.display()))?;
    }
    let dir = base.join(process_dir_name());
    make_dir(&dir)?;
    fs::write(dir.join("cgroup.subtree_control"), enable)
        .map_err(|e| format!("cannot enable {enable} in {}: {e}", dir.display()))?;
    let watchdog = Watchdog::start(&dir, KillVia::V2, &[])
        .map_err(|e| format!("cannot start the cgroup watchdog: {e}"))?;
    Ok(Cgroups {
        version: Version::V2,
        memory: dir.clone(),
        cpuacct: dir.clone(),
        freezer: dir,
        next: AtomicU64::new(0),
        idle: Mutex::new(Vec::new()),
        _watchdog: watchdog,
    })
}

/// Kills and removes the `et-<pid>` (and v2 `et-<pid>-self`) directories of et
/// processes that no longer exist, next to where ours go. A pid that is alive, even
/// if reused by another program, is left alone: never kill what might be a live run.
/// (In a hierarchy other than the freezer, the freeze step finds no freezer file and
/// is skipped.)
fn reap_dead(kill_base: &Path, via: KillVia) {
    let Ok(entries) = fs::read_dir(kill_base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Some(pid) = name
            .strip_prefix("et-")
            .map(|rest| rest.strip_suffix("-self").unwrap_or(rest))
            .and_then(|p| p.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        // SAFETY: signal 0 only checks for existence.
        let gone = unsafe { libc::kill(pid, 0) } < 0
            && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if !gone {
            continue;
        }
        raw::teardown(&c_path(&kill_base.join(&*name)), via, &[]);
    }
}

pub(super) fn c_path(path: &Path) -> CString {
    // Paths built here come from /proc and fixed names: no NUL inside.
    CString::new(path.as_os_str().as_bytes()).unwrap_or_default()
}

/// The directories and open files of one call cgroup. On v1 a slot is emptied after
/// its call and kept for the next one (see [`Cgroups`]' `idle`); dropping a slot
/// kills what is left in it and removes its directories.
struct Slot {
    version: Version,
    /// Directories, one per hierarchy (deduplicated); `kill_dir` is among them.
    dirs: Vec<PathBuf>,
    kill_dir: CString,
    memory: PathBuf,
    cpuacct: PathBuf,
    /// The memory limit written into the slot when it was created.
    memory_mb: Option<u64>,
    /// [`join_file`] of each directory, open for the child to write "0" into.
    procs: Vec<OwnedFd>,
    /// Readable (v1: eventfd) or priority-readable (v2: memory.events) when the cgroup
    /// ran out of memory.
    oom: Option<OwnedFd>,
    /// The file with the `oom_kill` count (v1 `memory.oom_control`, which must stay
    /// open while the eventfd is registered on it; v2 `memory.events`), kept open: a
    /// session reads it after every formula.
    oom_counter: Option<fs::File>,
    /// The counters a session reads on every formula, kept open: opening a cgroup
    /// file costs more than reading it, and an exchange of a few milliseconds reads
    /// three or four. `None` only while the slot is being made.
    counters: Option<Counters>,
}

/// Open counter files of a slot, read and written at offset 0 (a cgroup file gives
/// its current value from offset 0 on every read).
struct Counters {
    /// `cpuacct.usage` (v1) or `cpu.stat` (v2).
    cpu: fs::File,
    /// `memory.max_usage_in_bytes` (v1, writable: "0" restarts it) or `memory.peak`
    /// (v2, from Linux 5.19 on; `None` before).
    peak: Option<fs::File>,
}

impl Counters {
    fn open(version: Version, memory: &Path, cpuacct: &Path) -> io::Result<Counters> {
        let (cpu, peak) = match version {
            Version::V1 => ("cpuacct.usage", "memory.max_usage_in_bytes"),
            Version::V2 => ("cpu.stat", "memory.peak"),
        };
        let rw = |path: PathBuf| {
            fs::OpenOptions::new()
                .read(true)
                .write(version == Version::V1)
                .open(path)
        };
        Ok(Counters {
            cpu: fs::File::open(cpuacct.join(cpu))?,
            peak: match rw(memory.join(peak)) {
                Ok(f) => Some(f),
                Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                Err(e) => return Err(e),
            },
        })
    }
}

impl Counters {
    /// v1: starts the peak counter afresh ("0" into `memory.max_usage_in_bytes`).
    fn restart_peak(&self) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        match &self.peak {
            Some(file) => file.write_at(b"0", 0).map(drop),
            None => Ok(()),
        }
    }
}

/// The text of an open cgroup file, read from offset 0.
fn read_open(file: &fs::File) -> Option<String> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 4096];
    let n = file.read_at(&mut buf, 0).ok()?;
    String::from_utf8(buf[..n].to_vec()).ok()
}

/// Counters of a reused slot as they stood when the call began: v1 cannot reset
/// `oom_kill`, and resetting the peak sets it to the memory the slot still holds
/// (page cache charged during earlier calls), which is not this call's.
#[derive(Default)]
struct Baseline {
    oom_kills: u64,
    memory_bytes: u64,
}

/// The cgroup of one call; dropping it kills what is left in it, then puts it back
/// for the next call (v1) or removes it (v2).
pub(super) struct CallCgroup<'a> {
    cgroups: &'a Cgroups,
    version: Version,
    /// Always `Some` until dropped.
    slot: Option<Slot>,
    baseline: Baseline,
}

impl<'a> CallCgroup<'a> {
    /// A call cgroup with the given memory limit: an idle one of an earlier call with
    /// the same limit, its counters started afresh (v1), or a new one.
    pub fn create(cgroups: &'a Cgroups, memory_mb: Option<u64>) -> io::Result<CallCgroup<'a>> {
        let reused = {
            let mut idle = cgroups.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.iter()
                .position(|s| s.memory_mb == memory_mb)
                .map(|i| idle.swap_remove(i))
        };
        let mut cg = CallCgroup {
            cgroups,
            version: cgroups.version,
            slot: None,
            baseline: Baseline::default(),
        };
        match reused {
            Some(slot) => {
                // A memory event of the last call that nobody read must not wake this one.
                if let Some(fd) = &slot.oom {
                    let mut count = 0u64;
                    // SAFETY: reading 8 bytes into a u64 from a non-blocking eventfd.
                    unsafe { libc::read(fd.as_raw_fd(), (&mut count as *mut u64).cast(), 8) };
                }
                fs::write(slot.cpuacct.join("cpuacct.usage"), "0")?;
                if let Some(counters) = slot.counters() {
                    counters.restart_peak()?;
                }
                let memory_bytes =
                    read_number(&slot.memory.join("memory.usage_in_bytes")).unwrap_or(0);
                cg.slot = Some(slot);
                cg.baseline = Baseline {
                    oom_kills: cg.oom_kills_so_far(),
                    memory_bytes,
                };
            }
            None => cg.slot = Some(Slot::create(cgroups, memory_mb)?),
        }
        Ok(cg)
    }

    fn slot(&self) -> &Slot {
        self.slot
            .as_ref()
            .expect("a call cgroup has its slot until dropped")
    }

    /// Descriptors of [`join_file`]s the child writes "0" into before `exec`.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.slot().procs.iter().map(AsRawFd::as_raw_fd).collect()
    }

    /// The descriptor to poll for an out-of-memory event, with the poll events to ask
    /// for (v1 eventfd: readable; v2 memory.events: modified, `POLLPRI`).
    pub fn oom_poll(&self) -> Option<(RawFd, libc::c_short)> {
        let events = match self.version {
            Version::V1 => libc::POLLIN,
            Version::V2 => libc::POLLPRI,
        };
        self.slot().oom.as_ref().map(|fd| (fd.as_raw_fd(), events))
    }

    /// Whether an OOM kill has happened in the cgroup during this call (called when
    /// [`Self::oom_poll`] fired: v2 also reports other changes of `memory.events`).
    pub fn oom_killed(&self) -> bool {
        self.oom_kills_so_far() > self.baseline.oom_kills
    }

    /// CPU time used so far by every process that ran in the cgroup during this call.
    pub fn cpu_usage(&self) -> Duration {
        let text = self
            .slot()
            .counters()
            .and_then(|c| read_open(&c.cpu))
            .unwrap_or_default();
        match self.version {
            Version::V1 => parse_number(&text)
                .map(Duration::from_nanos)
                .unwrap_or_default(),
            Version::V2 => parse_key(&text, "usage_usec")
                .map(Duration::from_micros)
                .unwrap_or_default(),
        }
    }

    /// Kills every process in the cgroup and waits until it is empty.
    pub fn kill_all(&self) -> bool {
        raw::kill_cgroup(&self.slot().kill_dir, self.version.kill_via())
    }

    /// Starts the peak-memory counter afresh from the memory in use now (v1; a long-lived
    /// process measured piece by piece, see `Contained`). v2's `memory.peak` cannot be
    /// reset before Linux 6.12: there the peak stays the cgroup's since its creation.
    pub fn restart_peak(&self) -> io::Result<()> {
        match self.version {
            Version::V1 => self
                .slot()
                .counters()
                .map_or(Ok(()), Counters::restart_peak),
            Version::V2 => Ok(()),
        }
    }

    /// The slot's OOM kills since it was created.
    fn oom_kills_so_far(&self) -> u64 {
        self.slot()
            .oom_counter
            .as_ref()
            .and_then(read_open)
            .and_then(|text| parse_key(&text, "oom_kill"))
            .unwrap_or(0)
    }

    /// Peak memory in KiB of the processes in the cgroup (less what it held when
    /// created); `None` where the kernel has no peak counter.
    pub fn peak_memory_kb(&self) -> Option<u64> {
        // memory.peak exists from Linux 5.19 on; before, the caller falls back to the
        // rusage of the solver process.
        let peak = self
            .slot()
            .counters()
            .and_then(|c| c.peak.as_ref())
            .and_then(read_open)
            .and_then(|t| parse_number(&t));
        peak.map(|b| b.saturating_sub(self.baseline.memory_bytes) / 1024)
    }
}

impl Drop for CallCgroup<'_> {
    fn drop(&mut self) {
        let emptied = self.kill_all();
        let Some(slot) = self.slot.take() else {
            return;
        };
        // v2's memory.peak cannot be reset before Linux 6.12, so a v2 cgroup serves
        // one call; a v1 cgroup that could not be emptied is not reused either.
        if emptied && self.version == Version::V1 {
            let mut idle = self.cgroups.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.push(slot);
        }
    }
}

impl Slot {
    /// The slot's open counter files (always there once it is made).
    fn counters(&self) -> Option<&Counters> {
        self.counters.as_ref()
    }

    /// Creates `call-<n>` in each hierarchy with the given memory limit.
    fn create(cgroups: &Cgroups, memory_mb: Option<u64>) -> io::Result<Slot> {
        let name = format!("call-{}", cgroups.next.fetch_add(1, Ordering::Relaxed));
        let dirs: Vec<PathBuf> = cgroups.dirs().iter().map(|d| d.join(&name)).collect();
        let mut slot = Slot {
            version: cgroups.version,
            kill_dir: c_path(&cgroups.freezer.join(&name)),
            memory: cgroups.memory.join(&name),
            cpuacct: cgroups.cpuacct.join(&name),
            memory_mb,
            dirs: Vec::new(),
            procs: Vec::new(),
            oom: None,
            oom_counter: None,
            counters: None,
        };
        // From here on, dropping `slot` (on an error) removes what was made.
        for dir in dirs {
            fs::create_dir(&dir)?;
            slot.dirs.push(dir);
        }
        slot.counters = Some(Counters::open(
            cgroups.version,
            &slot.memory,
            &slot.cpuacct,
        )?);
        if let Some(mb) = memory_mb {
            let bytes = mb.saturating_mul(1 << 20).to_string();
            match cgroups.version {
                Version::V1 => {
                    fs::write(slot.memory.join("memory.limit_in_bytes"), &bytes)?;
                    // Without swap accounting the file is absent; with it, swapping out
                    // must not stretch the limit.
                    let memsw = slot.memory.join("memory.memsw.limit_in_bytes");
                    if memsw.exists() {
                        fs::write(memsw, &bytes)?;
                    }
                }
                Version::V2 => {
                    fs::write(slot.memory.join("memory.max"), &bytes)?;
                    let swap = slot.memory.join("memory.swap.max");
                    if swap.exists() {
                        fs::write(swap, "0")?;
                    }
                }
            }
        }
        for dir in &slot.dirs {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(dir.join(join_file(cgroups.version)))?;
            slot.procs.push(file.into());
        }
        match cgroups.version {
            Version::V1 => {
                // SAFETY: eventfd returns a new descriptor or -1.
                let efd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
                if efd < 0 {
                    return Err(io::Error::last_os_error());
                }
                // SAFETY: the kernel just returned this descriptor to us.
                let efd = unsafe { OwnedFd::from_raw_fd(efd) };
                let control = fs::File::open(slot.memory.join("memory.oom_control"))?;
                fs::write(
                    slot.memory.join("cgroup.event_control"),
                    format!("{} {}", efd.as_raw_fd(), control.as_raw_fd()),
                )?;
                slot.oom = Some(efd);
                slot.oom_counter = Some(control);
            }
            Version::V2 => {
                let events = fs::File::open(slot.memory.join("memory.events"))?;
                slot.oom = Some(events.try_clone()?.into());
                slot.oom_counter = Some(events);
            }
        }
        Ok(slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        raw::kill_cgroup(&self.kill_dir, self.version.kill_via());
        self.oom = None;
        self.oom_counter = None;
        self.counters = None;
        self.procs.clear();
        for dir in &self.dirs {
            raw::remove_dir(&c_path(dir));
        }
    }
}

/// The file the child writes "0" into to join a call cgroup. In v1 it is `tasks`
/// (move the calling thread), not `cgroup.procs` (move the whole process): the child
/// has a single thread, so both move the same, but Linux moves the calling thread
/// without the global lock a process move takes, whose writer waits for an RCU grace
/// period whenever no other move happened in the last one. Through `cgroup.procs` a
/// call after a pause of 50 ms took 17.8 ms instead of 2.0 ms (`benches/call.rs`),
/// and the waits cost a busy campaign a tenth of its time. v2 refuses thread moves
/// between domain cgroups.
fn join_file(version: Version) -> &'static str {
    match version {
        Version::V1 => "tasks",
        Version::V2 => "cgroup.procs",
    }
}

fn read_number(path: &Path) -> Option<u64> {
    parse_number(&fs::read_to_string(path).ok()?)
}

fn parse_number(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// The value of `key` in `key value` lines (cpu.stat, memory.events,
/// memory.oom_control).
fn parse_key(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_paths() {
        assert_eq!(
            below(Path::new("/sys/fs/cgroup/memory"), "/", "/a/b"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/a/b"))
        );
        assert_eq!(
            below(Path::new("/sys/fs/cgroup"), "/docker/x", "/docker/x/y"),
            Some(PathBuf::from("/sys/fs/cgroup/y"))
        );
        assert_eq!(
            below(Path::new("/sys/fs/cgroup"), "/", "/"),
            Some(PathBuf::from("/sys/fs/cgroup"))
        );
        assert_eq!(below(Path::new("/m"), "/docker/x", "/other"), None);
        assert_eq!(unescape(r"/a\040b"), "/a b");
    }
}
