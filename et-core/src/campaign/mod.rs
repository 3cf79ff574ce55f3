//! Campaigns: `et run` streams formulas to a solver pool and records every call.
//! [`row`] is the CSV schema and [`manifest`] the description of a run directory;
//! both are the contract with [`crate::report`].

pub mod bugs;
pub mod gate;
pub mod ledger;
pub mod manifest;
pub mod plan;
pub mod progress;
pub mod reference;
pub mod row;
pub mod runner;
pub mod summary;
mod worker;
