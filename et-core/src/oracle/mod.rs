//! The oracle: what a solver call answered ([`Status`]) and what that means for the
//! solver under test ([`Verdict`]). It sees outputs and exit codes, never processes.
//!
//! [`classify`] turns a [`crate::solvers::call::CallOutcome`] into a [`Classification`]
//! using the one pattern table in [`patterns`]; [`judge`] compares it with the
//! reference solver's status (which solver that is, is the pool's business:
//! [`crate::solvers::reference_rules`]); a campaign asks every check of [`checks`] in
//! turn, with et's own model check and witness as well.

pub mod checks;
mod classify;
mod judge;
pub mod patterns;
mod status;

pub use classify::{classify, crash_signature, error_line, signal_name, Classification};
pub use judge::judge;
pub use status::{Evidence, ParseLabelError, Status, Verdict};
