//! Reports from campaign output: `et report` tables, `et plot` evolution figures and
//! `et merge` of sharded runs.
//!
//! Code map: [`load`] reads run directories (manifest + streamed rows, plain or
//! gzip); [`coverage`] is what a directory claims to hold (range, shards) and refuses
//! directories that would count a call twice; [`join`] pairs the rows of one formula
//! in bounded memory; [`stats`] aggregates one pass into a [`Report`] (versions in
//! [`crate::version`] order); [`timeouts`] parses the `solved within T` grid and names
//! the clock; [`tables`] turns a report into text cells that [`render`] prints or
//! writes as CSV; [`figures`] turns a report into plot data that [`plot`] lays out and
//! draws; [`merge`] joins shards; [`undecided`] counts the formulas nobody decided
//! (`undecided.csv`) and [`sessions`] the calls a session answered unlike a fresh
//! process (`session-disagreements.csv`). Nothing here runs solvers or reclassifies calls: the
//! CSV is the truth.

pub mod coverage;
mod error;
pub mod figures;
pub mod join;
pub mod load;
pub mod merge;
pub mod plot;
pub mod render;
pub mod sessions;
pub mod stats;
pub mod tables;
pub mod timeouts;
pub mod undecided;

pub use error::{Overlap, ReportError};
pub use load::RunDir;
pub use stats::{build_report, Report, ReportOptions};
