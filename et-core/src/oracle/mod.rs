//! The oracle: what a solver call answered ([`Status`]) and what that means for the
//! solver under test ([`Verdict`]). It sees outputs and exit codes, never processes.
//!
//! [`classify`] turns a [`crate::solvers::call::CallOutcome`] into a [`Classification`]
//! using the one pattern table in [`patterns`]; the checks of [`checks`] judge it, in
//! turn, with et's own model check, the witness and the reference's answer (which
//! solver that is, is the pool's business: [`crate::solvers::reference_rules`]). Every
//! call is judged through [`crate::judging`], the one call-and-judge path.

pub mod checks;
mod classify;
mod messages;
pub mod patterns;
mod status;

pub use classify::{
    answers, classify, crash_signature, error_line, first_error, is_source_location,
    refuses_option, signal_name, Classification,
};
pub use status::{Evidence, ParseLabelError, Status, Verdict};
