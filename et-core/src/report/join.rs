//! Per-formula join of the rows of one run directory, in bounded memory.
//!
//! Jointly-solved times and regressions compare the calls of *one formula* across
//! solvers, but `runs.csv` interleaves formulas (workers finish out of order). Rows of
//! one formula are written close together, so a window keyed by (grammar, index) holds
//! each formula until every pool solver has been seen and then hands it on. A formula
//! still incomplete after `capacity` newer formulas have entered the window (a lost
//! call, a reordered resume) is moved to a spill file on disk; at the end the spill is
//! hash-partitioned into files of about `capacity` formulas each and joined one
//! partition at a time. Memory stays O(capacity × pool size) whatever the file size.

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::hash::BuildHasher;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use super::ReportError;

/// What the join keeps of one call: enough for jointly-solved times and regressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Global solver id (see `stats`).
    pub solver: u32,
    /// The call answered sat or unsat without a correctness verdict.
    pub solved: bool,
    /// The call has a correctness verdict (unsound, invalid model, crash).
    pub bug: bool,
    /// The solver started (the status is not `setup_error`).
    pub ran: bool,
    /// Time on the report's clock in microseconds (integers, so sums do not depend on
    /// row order).
    pub time_us: u64,
}

/// A formula waiting for the rest of its calls.
struct Pending {
    seq: u64,
    pool_seen: usize,
    outcomes: Vec<Outcome>,
}

/// The bounded window plus its spill file.
pub struct FormulaJoin {
    pool_size: usize,
    capacity: usize,
    /// One map per grammar id, so lookups by `&str` need no allocation.
    pending: Vec<HashMap<Box<str>, Pending>>,
    /// Formulas in order of first sight; stale entries are skipped when popped.
    arrivals: VecDeque<(u32, Box<str>, u64)>,
    next_seq: u64,
    spill: Option<Spill>,
}

/// Counts of what went through the join, for the docs' memory claims and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JoinStats {
    /// Formulas completed inside the window.
    pub joined_in_window: u64,
    /// Rows written to the spill file.
    pub spilled_rows: u64,
    /// Largest number of formulas held in the window at once.
    pub peak_window: usize,
}

impl FormulaJoin {
    /// A join for a pool of `pool_size` solvers holding at most about `capacity` formulas.
    pub fn new(pool_size: usize, capacity: usize) -> Self {
        FormulaJoin {
            pool_size,
            capacity: capacity.max(1),
            pending: Vec::new(),
            arrivals: VecDeque::new(),
            next_seq: 0,
            spill: None,
        }
    }

    /// Adds one call; hands every formula that is now complete to `sink`.
    pub fn push(
        &mut self,
        grammar: u32,
        index: &str,
        outcome: Outcome,
        in_pool: bool,
        stats: &mut JoinStats,
        sink: &mut impl FnMut(u32, &str, &[Outcome]),
    ) -> Result<(), ReportError> {
        let g = grammar as usize;
        if self.pending.len() <= g {
            self.pending.resize_with(g + 1, HashMap::new);
        }
        let map = &mut self.pending[g];
        let entry = match map.get_mut(index) {
            Some(p) => p,
            None => {
                let seq = self.next_seq;
                self.next_seq += 1;
                self.arrivals.push_back((grammar, index.into(), seq));
                map.entry(index.into()).or_insert(Pending {
                    seq,
                    pool_seen: 0,
                    outcomes: Vec::with_capacity(self.pool_size),
                })
            }
        };
        // A repeated (formula, solver) row, e.g. after a resume, replaces the earlier one.
        match entry
            .outcomes
            .iter_mut()
            .find(|o| o.solver == outcome.solver)
        {
            Some(old) => *old = outcome,
            None => {
                entry.outcomes.push(outcome);
                if in_pool {
                    entry.pool_seen += 1;
                }
            }
        }
        if entry.pool_seen >= self.pool_size {
            let done = map.remove(index).expect("entry just seen");
            stats.joined_in_window += 1;
            sink(grammar, index, &done.outcomes);
        }
        let held: usize = self.pending.iter().map(HashMap::len).sum();
        stats.peak_window = stats.peak_window.max(held);
        self.evict_old(stats)
    }

    /// Spills formulas that entered the window more than `capacity` formulas ago.
    fn evict_old(&mut self, stats: &mut JoinStats) -> Result<(), ReportError> {
        while let Some((grammar, index, seq)) = self.arrivals.front() {
            let live = self.pending[*grammar as usize]
                .get(index)
                .is_some_and(|p| p.seq == *seq);
            if live && seq + (self.capacity as u64) > self.next_seq {
                break;
            }
            let (grammar, index, _) = self.arrivals.pop_front().expect("front exists");
            if live {
                let p = self.pending[grammar as usize].remove(&index).expect("live");
                self.spill_formula(grammar, &index, &p.outcomes, stats)?;
            }
        }
        Ok(())
    }

    fn spill_formula(
        &mut self,
        grammar: u32,
        index: &str,
        outcomes: &[Outcome],
        stats: &mut JoinStats,
    ) -> Result<(), ReportError> {
        if self.spill.is_none() {
            self.spill = Some(Spill::create("spill")?);
        }
        let spill = self.spill.as_mut().expect("just created");
        for o in outcomes {
            spill.write(grammar, index, o)?;
            stats.spilled_rows += 1;
        }
        Ok(())
    }

    /// Hands on every formula still held or spilled, complete or not.
    pub fn finish(
        mut self,
        stats: &mut JoinStats,
        sink: &mut impl FnMut(u32, &str, &[Outcome]),
    ) -> Result<(), ReportError> {
        let Some(mut spill) = self.spill.take() else {
            // Nothing spilled: what is left in the window is the whole remainder.
            for (g, map) in self.pending.iter().enumerate() {
                for (index, p) in map {
                    sink(g as u32, index, &p.outcomes);
                }
            }
            return Ok(());
        };
        let pending = std::mem::take(&mut self.pending);
        for (g, map) in pending.into_iter().enumerate() {
            for (index, p) in map {
                for o in &p.outcomes {
                    spill.write(g as u32, &index, o)?;
                    stats.spilled_rows += 1;
                }
            }
        }
        let rows_per_part = (self.capacity * self.pool_size.max(1)) as u64;
        join_spill(spill, rows_per_part, 0, sink)
    }
}

/// Partitions beyond this many would risk the open-file limit; deeper levels split further.
const MAX_PARTITIONS: u64 = 256;
/// Levels of re-partitioning before a partition is joined in memory regardless.
const MAX_DEPTH: u32 = 4;

/// Joins a spill file: in memory if it fits the budget, else hash-partitioned into at
/// most [`MAX_PARTITIONS`] files (fresh hash seed per level) which are joined in turn.
fn join_spill(
    mut spill: Spill,
    rows_per_part: u64,
    depth: u32,
    sink: &mut impl FnMut(u32, &str, &[Outcome]),
) -> Result<(), ReportError> {
    if spill.rows <= rows_per_part || depth >= MAX_DEPTH {
        let mut formulas: HashMap<(u32, String), Vec<Outcome>> = HashMap::new();
        spill.replay(|grammar, index, o| {
            let outs = formulas.entry((grammar, index.to_string())).or_default();
            match outs.iter_mut().find(|x| x.solver == o.solver) {
                Some(old) => *old = o,
                None => outs.push(o),
            }
            Ok(())
        })?;
        for ((grammar, index), outs) in formulas {
            sink(grammar, &index, &outs);
        }
        return Ok(());
    }
    let parts = spill.rows.div_ceil(rows_per_part).clamp(2, MAX_PARTITIONS);
    let mut partitions = (0..parts)
        .map(|_| Spill::create("part"))
        .collect::<Result<Vec<_>, _>>()?;
    let hasher = std::collections::hash_map::RandomState::new();
    spill.replay(|grammar, index, o| {
        let h = hasher.hash_one((grammar, index));
        partitions[(h % parts) as usize].write(grammar, index, &o)
    })?;
    drop(spill);
    // Close every partition before descending, so at most one level's files are open.
    for part in &mut partitions {
        part.close()?;
    }
    for part in partitions {
        join_spill(part, rows_per_part, depth + 1, sink)?;
    }
    Ok(())
}

/// A temporary file of spilled calls, one tab-separated line per call; removed on drop.
struct Spill {
    path: PathBuf,
    writer: Option<BufWriter<File>>,
    rows: u64,
}

static SPILL_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Spill {
    fn create(kind: &str) -> Result<Self, ReportError> {
        let n = SPILL_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("et-report-{kind}-{}-{n}.tsv", std::process::id()));
        let file = File::create(&path).map_err(|e| ReportError::io(&path, e))?;
        Ok(Spill {
            path,
            writer: Some(BufWriter::new(file)),
            rows: 0,
        })
    }

    fn write(&mut self, grammar: u32, index: &str, o: &Outcome) -> Result<(), ReportError> {
        let w = self.writer.as_mut().expect("spill still open");
        writeln!(
            w,
            "{grammar}\t{index}\t{}\t{}\t{}\t{}\t{}",
            o.solver, o.solved as u8, o.bug as u8, o.ran as u8, o.time_us
        )
        .map_err(|e| ReportError::io(&self.path, e))?;
        self.rows += 1;
        Ok(())
    }

    /// Flushes and closes the file for writing.
    fn close(&mut self) -> Result<(), ReportError> {
        if let Some(mut w) = self.writer.take() {
            w.flush().map_err(|e| ReportError::io(&self.path, e))?;
        }
        Ok(())
    }

    /// Reads the file back (closing it for writing first).
    fn replay(
        &mut self,
        mut f: impl FnMut(u32, &str, Outcome) -> Result<(), ReportError>,
    ) -> Result<(), ReportError> {
        self.close()?;
        let file = File::open(&self.path).map_err(|e| ReportError::io(&self.path, e))?;
        let corrupt = || {
            ReportError::io(
                &self.path,
                std::io::Error::new(std::io::ErrorKind::InvalidData, "corrupt spill line"),
            )
        };
        for line in BufReader::new(file).lines() {
            let line = line.map_err(|e| ReportError::io(&self.path, e))?;
            let mut it = line.split('\t');
            let mut next = || it.next().ok_or_else(corrupt);
            let grammar: u32 = next()?.parse().map_err(|_| corrupt())?;
            let index = next()?.to_string();
            let solver: u32 = next()?.parse().map_err(|_| corrupt())?;
            let solved = next()? == "1";
            let bug = next()? == "1";
            let ran = next()? == "1";
            let time_us: u64 = next()?.parse().map_err(|_| corrupt())?;
            f(
                grammar,
                &index,
                Outcome {
                    solver,
                    solved,
                    bug,
                    ran,
                    time_us,
                },
            )?;
        }
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        self.writer.take();
        let _ = std::fs::remove_file(&self.path);
    }
}
