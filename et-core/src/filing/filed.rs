//! What filing decided and measured, root cause by root cause: what `write` renders.

use super::decide::Disposition;
use super::join::RootCause;
use super::measure::Measured;
use super::read::TriageReport;

/// One root cause, what was decided and what was measured.
#[derive(Debug, Clone)]
pub struct Filed {
    /// Its reports.
    pub cause: RootCause,
    /// Filed or not, and why.
    pub disposition: Disposition,
    /// The runs made for it (none for what is not filed by its files alone).
    pub measured: Option<Measured>,
    /// Expert options it needs (cvc5's option categories), ranked last.
    pub expert: Vec<String>,
    /// The settings its configuration adds to the default mode (`sat.euf=true`).
    pub settings: Vec<String>,
}

/// Everything filing decided.
#[derive(Debug, Clone)]
pub struct Filing {
    /// The triages' reports, in the order read.
    pub reports: Vec<TriageReport>,
    /// The root causes, the reports to file first, in the order to file them.
    pub causes: Vec<Filed>,
    /// The CPU the calls ran on.
    pub cpu_model: String,
    /// How many triage directories were read.
    pub triages: usize,
}

impl Filing {
    /// The root causes to file.
    pub fn to_file(&self) -> impl Iterator<Item = &Filed> {
        self.causes
            .iter()
            .filter(|c| matches!(c.disposition, Disposition::File))
    }
}
