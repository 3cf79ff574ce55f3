//! The oracle: what a solver call answered ([`Status`]) and what that means for the
//! solver under test ([`Verdict`]). It sees outputs and exit codes, never processes.

mod status;

pub use status::{ParseLabelError, Status, Verdict};
