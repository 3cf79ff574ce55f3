//! Solvers: pools of solver configurations and the running of one solver call.
//!
//! [`call`] runs one solver process under et's own limits (wall-clock timeout, memory,
//! bounded capture) and reports what happened; it knows nothing about SMT-LIB answers,
//! which are the [`crate::oracle`]'s job.

pub mod call;
