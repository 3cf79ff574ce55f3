//! A formula as a re-run knows it: its text (the script minus what et added), its
//! parse by et-eval (for model checks) and its witness — a satisfying assignment found
//! by et-eval's bounded search, which proves the formula `sat` without asking any
//! solver.

use std::sync::OnceLock;

use et_eval::{find_witness, Script, ScriptError, WitnessBound};

use crate::oracle::checks::WitnessFact;

use super::formula_of;

/// Searches `values` values per constant for a witness of `script`; the witness as one
/// line of `define-fun`s (with the division-by-zero choices it relies on as a trailing
/// comment): one line, so that `reference.csv` keeps one record per line and a torn
/// last line is cut cleanly.
pub fn search_witness(script: &Script, values: usize) -> Option<String> {
    let bound = WitnessBound::exhaustive(values, script.decls.len());
    let found = find_witness(script, &bound)?;
    let mut text = found.to_smtlib(script).trim_end().replace('\n', " ");
    if !found.evaluation.choices.is_empty() {
        let choices: Vec<String> = found
            .evaluation
            .choices
            .iter()
            .map(|c| c.to_string())
            .collect();
        text.push_str(&format!(" ; with {}", choices.join(", ")));
    }
    Some(text)
}

/// One formula to run and judge again (in triage, shrink or bisect): its witness is
/// searched when a check first asks, as the campaign searched it. No witness when the
/// search is off or et-eval does not read the formula.
pub struct Formula {
    text: String,
    script: Result<Script, ScriptError>,
    values: Option<usize>,
    found: OnceLock<Option<String>>,
}

impl Formula {
    /// The formula of `script` (a formula, or any script et wrote: [`formula_of`]),
    /// with witnesses searched over `values` values per constant (`None`: search off).
    pub fn new(script: &str, values: Option<usize>) -> Formula {
        let text = formula_of(script);
        Formula {
            script: Script::parse(&text),
            text,
            values,
            found: OnceLock::new(),
        }
    }

    /// The formula's text, without what et adds around it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The formula as et-eval reads it, if it does (for model checks).
    pub fn script(&self) -> Option<&Script> {
        self.script.as_ref().ok()
    }

    /// The formula as et-eval reads it, or why it does not (what a call's model
    /// check takes).
    pub fn read(&self) -> Result<&Script, &ScriptError> {
        self.script.as_ref()
    }

    /// The witness as one line, searched now if not yet.
    pub fn witness(&self) -> Option<&str> {
        self.found
            .get_or_init(|| search_witness(self.script()?, self.values?))
            .as_deref()
    }
}

impl WitnessFact for Formula {
    fn exists(&self) -> bool {
        self.witness().is_some()
    }
}
