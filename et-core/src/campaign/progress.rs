//! What a run tells its caller while it runs: how far it is, and which solvers cannot
//! start. The library only calls an [`Observer`]; the CLI implements it (a bar or
//! periodic lines on stderr, nothing when quiet). Results (the summary) are not
//! progress: `run` returns them.

use super::summary::Summary;

/// Receives a run's progress, on the thread that called [`super::runner::Campaign::run`].
pub trait Observer {
    /// The run starts with `already` of `total` formulas finished.
    fn start(&mut self, total: u64, already: u64);
    /// One more formula finished; `summary` holds the counts so far.
    fn formula_done(&mut self, summary: &Summary);
    /// Called regularly (every 200 ms while waiting for a formula) with the counts so
    /// far.
    fn tick(&mut self, summary: &Summary);
    /// The run ended.
    fn finish(&mut self);
    /// Something the user should know that does not stop the run (rows of `runs.csv`
    /// a resume left out, say).
    fn warning(&mut self, text: &str);
    /// What the run did that the user asked for but may like to see said (a resumed
    /// study grown to more formulas); nothing by default.
    fn note(&mut self, _text: &str) {}
}
