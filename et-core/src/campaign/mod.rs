//! Campaigns: `et run` streams formulas to a solver pool and records every call.
//! [`row`] is the CSV schema and [`manifest`] the description of a run directory;
//! both are the contract with [`crate::report`]. [`append`] writes CSV rows whole,
//! [`lock`] keeps one run per directory, [`preflight`] checks solvers before anything
//! is written, and [`error`] tells refusals from failures.

pub mod append;
pub mod error;
pub mod gate;
pub mod ledger;
pub mod lock;
pub mod manifest;
pub mod plan;
pub mod preflight;
pub mod prepare;
pub mod progress;
pub mod reference;
pub mod row;
pub mod runner;
mod scratch;
pub mod summary;
pub mod trigger_files;
mod worker;

pub use error::CampaignError;
pub use prepare::PrepareError;
pub use scratch::{scratch_dir, ScratchError};
