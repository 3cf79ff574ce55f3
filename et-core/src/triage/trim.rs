//! A finding's formula declares only the constants it uses. A grammar declares every
//! constant its formulas may use (`-5v2a` five of them), and a formula as found often
//! uses fewer: reported as found, an invalid model on `(< 0.0 (tan a))` would come with
//! four declarations a maintainer has to read past. Dropping them is a step like a
//! shrink's, kept only when the finding's own confirmation rule ([`super::confirm`])
//! holds on the trimmed formula: every re-run shows the verdict again (and a crash the
//! same crash). Timeouts and `unknown`s are left to their shrink
//! ([`super::minimize_performance`]), whose first step is this one.
//!
//! Which constants a formula uses is read from its text
//! ([`crate::enumeration::declarations`]), and `et rank` and `et shrink` read a trimmed
//! formula as the grammar's again.
//!
//! *Must not:* change anything in the formula but its declarations; keep a trimmed
//! formula whose confirmation it did not make.

use super::report::code;

/// What trimming did to a finding's formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Trimmed {
    /// The formula as found (the grammar's).
    pub original: String,
    /// The constants whose declarations were dropped, in order.
    pub dropped: Vec<String>,
    /// Whether the finding was confirmed on the trimmed formula (then the finding's
    /// formula is it); `false` when it was not, and the formula is as found.
    pub kept: bool,
}

impl Trimmed {
    /// What was dropped, in words: "`b`, `c` dropped, the finding confirmed again
    /// without them".
    pub fn describe(&self) -> String {
        let names: Vec<String> = self.dropped.iter().map(|n| code(n)).collect();
        format!(
            "{} dropped, the finding confirmed again without {}",
            names.join(", "),
            if names.len() == 1 { "it" } else { "them" }
        )
    }
}
