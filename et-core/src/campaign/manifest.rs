//! `DIR/run.toml`: what a run directory holds — everything that decides its results —
//! so reports and merges can check that shards belong to one study, `--resume` can
//! refuse a changed study, and `et run --resume --out DIR` can continue with nothing
//! else given.
//!
//! Every key is always written: `memory_mb = "unlimited"` when there is no memory
//! limit, `reference = "default rule"` when no `--reference` was given, and each
//! solver under test's `reference = "no reference"` when nothing judges it (a solver
//! name never holds a space, so none of these can be mistaken for one). Manifests of
//! older versions of et, which left those keys out, read the same; what they did not
//! record is not compared on resume.

use serde::{Deserialize, Serialize};

use crate::solvers::{InputMode, SolverConfig};

/// The description of one `et run` output directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// Version of et that wrote the directory.
    pub et_version: String,
    /// Grammar name (built-in name or file stem).
    pub grammar: String,
    /// The `.pest` file of a grammar given as a path (absolute), so a resume can read
    /// it again; absent for built-in grammars.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grammar_file: Option<String>,
    /// First global index of the requested range (decimal).
    pub start: String,
    /// Number of formulas in the requested range (before sharding).
    pub n: u64,
    /// `k/K` when this directory holds shard k of K, else absent.
    pub shard: Option<String>,
    /// Wall-clock timeout per call, seconds.
    pub timeout_s: f64,
    /// Memory limit per call in MiB; `None` (written `"unlimited"`) for no limit.
    #[serde(default, with = "memory_limit")]
    pub memory_mb: Option<u64>,
    /// The `--reference` override; `None` (written `"default rule"`) when each solver
    /// is judged by the default rule. The reference each solver actually had is in
    /// [`ManifestSolver::reference`].
    #[serde(default, with = "reference_choice")]
    pub reference: Option<String>,
    /// The solvers under test, in pool order.
    pub solvers: Vec<ManifestSolver>,
    /// Solvers that ran only as references of the solvers under test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_solvers: Vec<ManifestSolver>,
}

/// A solver as recorded in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestSolver {
    /// Unique name within the pool.
    pub name: String,
    /// Family (`z3`, `cvc5`, ...).
    pub family: String,
    /// Version string.
    pub version: String,
    /// Full command line (the formula path is appended unless input is stdin).
    pub command: Vec<String>,
    /// How the formula is passed (written only when it is stdin).
    #[serde(default, skip_serializing_if = "is_file_input")]
    pub input: InputMode,
    /// What it is judged against (written for the solvers under test).
    #[serde(
        default,
        skip_serializing_if = "JudgedBy::is_unrecorded",
        with = "judged_by"
    )]
    pub reference: JudgedBy,
}

/// The reference of a solver under test, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum JudgedBy {
    /// Not recorded: a reference-only solver, or a manifest of an older et.
    #[default]
    Unrecorded,
    /// Nothing judges it (no solver of another family in the pool).
    Nobody,
    /// This solver judges it.
    Solver(String),
}

impl JudgedBy {
    /// `Solver(name)` or `Nobody`.
    pub fn from_name(name: Option<&str>) -> JudgedBy {
        name.map_or(JudgedBy::Nobody, |n| JudgedBy::Solver(n.to_string()))
    }

    fn is_unrecorded(&self) -> bool {
        *self == JudgedBy::Unrecorded
    }

    fn describe(&self) -> String {
        match self {
            JudgedBy::Unrecorded => "(not recorded)".to_string(),
            JudgedBy::Nobody => judged_by::NOBODY.to_string(),
            JudgedBy::Solver(name) => name.clone(),
        }
    }
}

fn is_file_input(mode: &InputMode) -> bool {
    *mode == InputMode::File
}

impl ManifestSolver {
    /// The record of `solver`, judged against `reference`.
    pub fn new(solver: &SolverConfig, reference: JudgedBy) -> ManifestSolver {
        ManifestSolver {
            name: solver.name.clone(),
            family: solver.family.clone(),
            version: solver.version.clone(),
            command: solver.command.clone(),
            input: solver.input,
            reference,
        }
    }

    /// The solver configuration it records.
    pub fn config(&self) -> SolverConfig {
        SolverConfig {
            name: self.name.clone(),
            family: self.family.clone(),
            version: self.version.clone(),
            command: self.command.clone(),
            input: self.input,
        }
    }
}

/// The first difference between the study recorded in `old` and the one requested in
/// `new` that would change results: (what, recorded value, requested value). The et
/// version is not compared: a newer et continues an older one's study.
pub fn first_difference(old: &RunManifest, new: &RunManifest) -> Option<(String, String, String)> {
    let differ = |what: &str, a: String, b: String| (a != b).then(|| (what.to_string(), a, b));
    let optional = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".to_string());
    let names = |solvers: &[ManifestSolver]| {
        let names: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
        if names.is_empty() {
            "(none)".to_string()
        } else {
            names.join(",")
        }
    };
    differ("grammar", old.grammar.clone(), new.grammar.clone())
        .or_else(|| {
            // Manifests of older versions did not record the file.
            old.grammar_file.as_ref()?;
            differ(
                "grammar file",
                optional(&old.grammar_file),
                optional(&new.grammar_file),
            )
        })
        .or_else(|| differ("--start", old.start.clone(), new.start.clone()))
        .or_else(|| differ("--n", old.n.to_string(), new.n.to_string()))
        .or_else(|| differ("--shard", optional(&old.shard), optional(&new.shard)))
        .or_else(|| {
            differ(
                "--timeout",
                old.timeout_s.to_string(),
                new.timeout_s.to_string(),
            )
        })
        .or_else(|| {
            let memory = |m: Option<u64>| m.map_or("unlimited".to_string(), |mb| mb.to_string());
            differ("--memory", memory(old.memory_mb), memory(new.memory_mb))
        })
        .or_else(|| {
            let choice = |r: &Option<String>| r.clone().unwrap_or_else(|| DEFAULT_RULE.to_string());
            differ(
                "--reference",
                choice(&old.reference),
                choice(&new.reference),
            )
        })
        .or_else(|| differ("solvers", names(&old.solvers), names(&new.solvers)))
        .or_else(|| {
            // Manifests of older versions did not record references.
            old.solvers.iter().find(|s| !s.reference.is_unrecorded())?;
            differ(
                "reference-only solvers",
                names(&old.reference_solvers),
                names(&new.reference_solvers),
            )
        })
        .or_else(|| {
            let old_all = old.solvers.iter().chain(&old.reference_solvers);
            let new_all = new.solvers.iter().chain(&new.reference_solvers);
            old_all.zip(new_all).find_map(|(a, b)| {
                let what = |field: &str| format!("solver {}'s {field}", a.name);
                differ(&what("family"), a.family.clone(), b.family.clone())
                    .or_else(|| differ(&what("version"), a.version.clone(), b.version.clone()))
                    .or_else(|| differ(&what("command"), a.command.join(" "), b.command.join(" ")))
                    .or_else(|| {
                        differ(
                            &what("input"),
                            format!("{:?}", a.input).to_lowercase(),
                            format!("{:?}", b.input).to_lowercase(),
                        )
                    })
                    .or_else(|| {
                        if a.reference.is_unrecorded() {
                            return None;
                        }
                        differ(
                            &what("reference"),
                            a.reference.describe(),
                            b.reference.describe(),
                        )
                    })
            })
        })
}

/// What `reference` holds when no `--reference` was given.
pub const DEFAULT_RULE: &str = "default rule";

/// `memory_mb`: an integer, or `"unlimited"`.
mod memory_limit {
    use serde::{Deserialize, Deserializer, Serializer};

    const UNLIMITED: &str = "unlimited";

    pub fn serialize<S: Serializer>(value: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(mb) => s.serialize_u64(*mb),
            None => s.serialize_str(UNLIMITED),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Mib(u64),
        Word(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Written::deserialize(d)? {
            Written::Mib(mb) => Ok(Some(mb)),
            Written::Word(w) if w == UNLIMITED => Ok(None),
            Written::Word(w) => Err(serde::de::Error::custom(format!(
                "memory_mb is `{w}`: expected a number of MiB or \"{UNLIMITED}\""
            ))),
        }
    }
}

/// A solver's `reference`: a solver name, or `"no reference"`.
mod judged_by {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::JudgedBy;

    pub const NOBODY: &str = "no reference";

    pub fn serialize<S: Serializer>(value: &JudgedBy, s: S) -> Result<S::Ok, S::Error> {
        match value {
            JudgedBy::Solver(name) => s.serialize_str(name),
            JudgedBy::Nobody | JudgedBy::Unrecorded => s.serialize_str(NOBODY),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<JudgedBy, D::Error> {
        let name = String::deserialize(d)?;
        Ok(if name == NOBODY {
            JudgedBy::Nobody
        } else {
            JudgedBy::Solver(name)
        })
    }
}

/// `reference`: a solver name, or `"default rule"`.
mod reference_choice {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::DEFAULT_RULE;

    pub fn serialize<S: Serializer>(value: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.as_deref().unwrap_or(DEFAULT_RULE))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        let name = String::deserialize(d)?;
        Ok((name != DEFAULT_RULE).then_some(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> RunManifest {
        RunManifest {
            et_version: "0.1.0".into(),
            grammar: "core".into(),
            grammar_file: None,
            start: "0".into(),
            n: 10,
            shard: None,
            timeout_s: 8.0,
            memory_mb: None,
            reference: None,
            solvers: vec![ManifestSolver {
                name: "z3".into(),
                family: "z3".into(),
                version: "4.8.5".into(),
                command: vec!["/z3".into(), "model_validate=true".into()],
                input: InputMode::File,
                reference: JudgedBy::Solver("cvc5".into()),
            }],
            reference_solvers: vec![ManifestSolver {
                name: "cvc5".into(),
                family: "cvc5".into(),
                version: "1.4.2".into(),
                command: vec!["/cvc5".into()],
                input: InputMode::Stdin,
                reference: JudgedBy::Unrecorded,
            }],
        }
    }

    #[test]
    fn every_key_is_written_and_reads_back() {
        let m = manifest();
        let text = toml::to_string(&m).unwrap();
        for key in [
            "memory_mb = \"unlimited\"",
            "reference = \"default rule\"",
            "reference = \"cvc5\"",
            "input = \"stdin\"",
        ] {
            assert!(text.contains(key), "{key} in\n{text}");
        }
        assert_eq!(toml::from_str::<RunManifest>(&text).unwrap(), m);
        let limited = RunManifest {
            memory_mb: Some(2048),
            reference: Some("z3".into()),
            ..m
        };
        let text = toml::to_string(&limited).unwrap();
        assert!(text.contains("memory_mb = 2048") && text.contains("reference = \"z3\""));
        assert_eq!(toml::from_str::<RunManifest>(&text).unwrap(), limited);
    }

    #[test]
    fn manifests_of_older_versions_read() {
        let text = "et_version = \"0.1.0\"\ngrammar = \"core\"\nstart = \"0\"\nn = 5\n\
                    timeout_s = 1.0\n[[solvers]]\nname = \"z3\"\nfamily = \"z3\"\n\
                    version = \"4.8.5\"\ncommand = [\"/z3\"]\n";
        let m: RunManifest = toml::from_str(text).unwrap();
        assert_eq!((m.memory_mb, m.reference.as_deref()), (None, None));
        assert!(m.reference_solvers.is_empty());
        assert_eq!(m.solvers[0].reference, JudgedBy::Unrecorded);
        // What an older et did not record is not held against a resume.
        let mut new = m.clone();
        new.solvers[0].reference = JudgedBy::Solver("cvc5".into());
        new.reference_solvers = manifest().reference_solvers;
        assert_eq!(first_difference(&m, &new), None);
        new.solvers[0].command.push("-v".into());
        assert!(first_difference(&m, &new).is_some());
        let bad = text.replace("timeout_s = 1.0", "timeout_s = 1.0\nmemory_mb = \"lots\"");
        let err = toml::from_str::<RunManifest>(&bad).unwrap_err().to_string();
        assert!(err.contains("lots"), "{err}");
    }

    #[test]
    fn differences_name_what_changed() {
        let old = manifest();
        assert_eq!(first_difference(&old, &old), None);
        let mut new = old.clone();
        new.memory_mb = Some(100);
        assert_eq!(
            first_difference(&old, &new),
            Some(("--memory".into(), "unlimited".into(), "100".into()))
        );
        let mut new = old.clone();
        new.reference_solvers[0].command.push("--x".into());
        let (what, was, now) = first_difference(&old, &new).unwrap();
        assert_eq!(
            (what.as_str(), was.as_str(), now.as_str()),
            ("solver cvc5's command", "/cvc5", "/cvc5 --x")
        );
        let mut new = old.clone();
        new.et_version = "9.9.9".into();
        assert_eq!(first_difference(&old, &new), None);
        let mut new = old.clone();
        new.solvers[0].reference = JudgedBy::Nobody;
        let (what, was, now) = first_difference(&old, &new).unwrap();
        assert_eq!(
            (what.as_str(), was.as_str(), now.as_str()),
            ("solver z3's reference", "cvc5", "no reference")
        );
        let text = toml::to_string(&new).unwrap();
        assert!(text.contains("reference = \"no reference\""), "{text}");
        assert_eq!(toml::from_str::<RunManifest>(&text).unwrap(), new);
    }
}
