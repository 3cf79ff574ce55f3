//! Reading what `et triage` wrote: each report to file of a triage directory
//! (`groups.csv`'s rows with `reported` true, and their `bugs/` files).
//!
//! *Must not:* guess. A report whose row, markdown or script is missing or malformed is
//! an error naming the file, never skipped.

use std::path::{Path, PathBuf};

use crate::triage::rank::Kind;
use crate::triage::signature::Signature;

use super::error::FilingError;

/// One report a triage wrote to file, as its files tell it.
#[derive(Debug, Clone)]
pub struct TriageReport {
    /// The triage directory it came from, as given.
    pub triage_dir: PathBuf,
    /// The hunt (or study) it belongs to: the directory above `triage/` (`hunt`,
    /// `hunt-configurations`), else the triage directory's own name.
    pub hunt: String,
    /// The report's markdown file name in `bugs/`.
    pub file: String,
    /// The report's markdown.
    pub markdown: String,
    /// The report's script (its `.smt2` beside the markdown).
    pub script: String,
    /// The kind of bug.
    pub kind: Kind,
    /// The verdict the run gave (`timeout`, `unknown`, `invalid_model`, ...).
    pub verdict: String,
    /// The solver family.
    pub family: String,
    /// The configuration it was found on (`z3-5.4.1`, `z3-5.4.1+newcore`).
    pub solver: String,
    /// The oldest installed release that shows it.
    pub first_version: String,
    /// The newest installed release that shows it.
    pub last_version: String,
    /// The grammar of the formula the campaign found.
    pub grammar: String,
    /// The formula's index in its grammar.
    pub index: String,
    /// The operators the report's formula applies.
    pub operators: Signature,
    /// The timed regression (`` `5.3.3` → `5.4.0`: 0.85 s → ≥ 8.01 s ``), if any.
    pub regression: String,
    /// What the triage called the root cause (`performance regression`, ...).
    pub root_cause: String,
    /// The triage's Expected text.
    pub expected: String,
    /// The report's command, word by word (program name, options, file).
    pub command: Vec<String>,
    /// The SMT-LIB logic of its grammar, as the report names it.
    pub logic: Option<String>,
}

impl TriageReport {
    /// The report's formula: its script without what et adds around a formula.
    pub fn formula(&self) -> String {
        crate::judging::formula_of(&self.script)
    }

    /// The release the report is about (the newest that shows it).
    pub fn release(&self) -> &str {
        &self.last_version
    }

    /// The pool name of the release it was found on, without its configuration
    /// (`z3-5.4.1+newcore` → `z3-5.4.1`).
    pub fn base_solver(&self) -> &str {
        self.solver.split('+').next().unwrap_or(&self.solver)
    }

    /// What each release answered, from the report's release table (`| release |
    /// shows it | answer |`); empty when the report has none.
    pub fn release_answers(&self) -> Vec<String> {
        let mut answers = Vec::new();
        let mut column = None;
        for line in self.markdown.lines() {
            if !line.starts_with('|') {
                column = None;
                continue;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            match column {
                None => column = cells.iter().position(|c| *c == "answer"),
                Some(i) => {
                    if let Some(c) = cells.get(i).filter(|c| !c.starts_with("---")) {
                        answers.push(c.to_string());
                    }
                }
            }
        }
        answers
    }

    /// The release of `pool` the report is filed against: the newest release that
    /// shows it (`z3-5.4.1` for a report found on `z3-5.3.3`), else the one it was found
    /// on (a development head the pool lacks).
    pub fn release_in<'p>(
        &self,
        pool: &'p crate::solvers::Pool,
    ) -> Option<&'p crate::solvers::SolverConfig> {
        pool.get(&format!("{}-{}", self.family, self.last_version))
            .or_else(|| pool.get(self.base_solver()))
    }

    /// The regression's two releases (`5.3.3`, `5.4.0`), if it is timed.
    pub fn regression_step(&self) -> Option<(String, String)> {
        let mut quoted = self.regression.split('`').skip(1).step_by(2);
        let before = quoted.next()?.to_string();
        let after = quoted.next()?.to_string();
        Some((before, after))
    }

    /// The options of `r`'s command that its configuration adds to the default mode:
    /// the command's options minus what et gives every call (the family's self-checks and
    /// model options, and the pool entry's own options).
    pub fn configuration_options(&self, pool: &crate::solvers::Pool) -> Vec<String> {
        let family = crate::solvers::family::find_or_generic(&self.family);
        let entry = pool.get(self.base_solver());
        let version = entry.map_or(self.release(), |s| s.version.as_str());
        let mut ets: Vec<String> = family
            .self_check_options()
            .iter()
            .chain(family.model_options(version).unwrap_or(&[]))
            .map(|s| s.to_string())
            .collect();
        if let Some(entry) = entry {
            ets.extend(entry.command.iter().skip(1).cloned());
        }
        self.command_options()
            .iter()
            .filter(|o| !ets.contains(o))
            .cloned()
            .collect()
    }

    /// The options of the report's command between program and file.
    pub fn command_options(&self) -> &[String] {
        let end = self
            .command
            .iter()
            .position(|w| w == "<")
            .unwrap_or(self.command.len().saturating_sub(1));
        self.command.get(1..end.max(1)).unwrap_or(&[])
    }
}

/// The reports to file of the triage directory `dir`, in its rank order.
pub fn reports_of(dir: &Path) -> Result<Vec<TriageReport>, FilingError> {
    let groups = dir.join("groups.csv");
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| FilingError::Io { path, error }
    };
    let bad = |path: &Path, line: u64, what: String| FilingError::Malformed {
        path: path.to_path_buf(),
        line,
        what,
    };
    let text = std::fs::read_to_string(&groups).map_err(io(&groups))?;
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| bad(&groups, 1, e.to_string()))?
        .clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let needed = [
        "rank",
        "kind",
        "verdict",
        "family",
        "first_version",
        "last_version",
        "operators",
        "grammar",
        "index",
        "solver",
        "expected_answer",
        "regression",
        "root_cause",
        "reported",
    ];
    let mut at = std::collections::HashMap::new();
    for name in needed {
        let i = column(name).ok_or_else(|| bad(&groups, 1, format!("no column `{name}`")))?;
        at.insert(name, i);
    }
    let bugs = dir.join("bugs");
    let names: Vec<String> = match std::fs::read_dir(&bugs) {
        Ok(entries) => entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    };
    let hunt = hunt_of(dir);
    let mut reports = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let line = n as u64 + 2;
        let record = record.map_err(|e| bad(&groups, line, e.to_string()))?;
        let get = |name: &str| record.get(at[name]).unwrap_or("").to_string();
        if get("reported") != "true" {
            continue;
        }
        let rank = get("rank");
        let prefix = format!("{rank}-");
        let Some(file) = names
            .iter()
            .filter(|f| f.starts_with(&prefix) && f.ends_with(".md"))
            .min()
            .cloned()
        else {
            return Err(bad(
                &groups,
                line,
                format!("group {rank} is reported but bugs/ has no {prefix}*.md"),
            ));
        };
        let md_path = bugs.join(&file);
        let markdown = std::fs::read_to_string(&md_path).map_err(io(&md_path))?;
        let script_path = md_path.with_extension("smt2");
        let script = std::fs::read_to_string(&script_path).map_err(io(&script_path))?;
        let kind = Kind::from_label(&get("kind"))
            .ok_or_else(|| bad(&groups, line, format!("unknown kind `{}`", get("kind"))))?;
        let command = command_of(&markdown)
            .ok_or_else(|| bad(&md_path, 1, "no `## Command` block".to_string()))?;
        let logic = logic_of(&markdown);
        reports.push(TriageReport {
            logic,
            triage_dir: dir.to_path_buf(),
            hunt: hunt.clone(),
            file,
            markdown,
            script,
            kind,
            verdict: get("verdict"),
            family: get("family"),
            solver: get("solver"),
            first_version: get("first_version"),
            last_version: get("last_version"),
            grammar: get("grammar"),
            index: get("index"),
            operators: Signature(
                get("operators")
                    .split_whitespace()
                    .map(String::from)
                    .collect(),
            ),
            regression: get("regression"),
            root_cause: get("root_cause"),
            expected: get("expected_answer"),
            command,
        });
    }
    Ok(reports)
}

/// `results/hunt/triage/fp` → `hunt`; a directory not under a `triage/` its own name.
fn hunt_of(dir: &Path) -> String {
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.iter().rposition(|p| p == "triage") {
        Some(i) if i > 0 => parts[i - 1].clone(),
        _ => parts.last().cloned().unwrap_or_default(),
    }
}

/// The logic of the report's `- **Theory:** ...; logic `QF_FP`` line.
fn logic_of(markdown: &str) -> Option<String> {
    let line = markdown.lines().find(|l| l.starts_with("- **Theory:**"))?;
    let after = line.split("logic `").nth(1)?;
    Some(after.split('`').next()?.to_string())
}

/// The words of the first line of a report's `## Command` block.
fn command_of(markdown: &str) -> Option<Vec<String>> {
    let after = markdown.split("\n## Command\n").nth(1)?;
    let block = after.split("```sh\n").nth(1)?;
    let line = block.lines().next()?;
    Some(shell_words(line))
}

/// A command line as a shell splits it: words apart at spaces, `'...'` quoting.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' | '\t' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_a_shell_splits_them() {
        assert_eq!(
            shell_words("z3 model_validate=true 'a b.smt2'"),
            ["z3", "model_validate=true", "a b.smt2"]
        );
        assert_eq!(hunt_of(Path::new("results/hunt/triage/fp")), "hunt");
        assert_eq!(hunt_of(Path::new("out")), "out");
    }
}
