//! `DIR/run.toml`: what a run directory holds — everything that decides its results —
//! so reports and merges can check that shards belong to one study, `--resume` can
//! refuse a changed study, and `et run --resume --out DIR` can continue with nothing
//! else given.
//!
//! Every key that decides results is always written: `memory_mb = "unlimited"` when
//! there is no memory limit, `reference = "default rule"` when no `--reference` was
//! given, and each solver under test's `references` (its judges in order; `[]` when
//! nothing judges it). `cpu_timeout_s` is absent when there is no CPU-time limit.
//! Manifests of older versions of et, which left some keys out, read the same; what
//! they did not record is not compared on resume (an absent `supervision` means the
//! process groups that et used before it recorded one).

use serde::{Deserialize, Serialize};

use crate::judging::CallMode;
use crate::solvers::pool::Configured;
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
    /// CPU-time limit per call, seconds (`--cpu-timeout`), if any. Absent in studies
    /// made before et had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_timeout_s: Option<f64>,
    /// How solver calls were contained and measured: `cgroup-v1`, `cgroup-v2` or
    /// `process-group` (see `solvers::call::Supervision`). Absent in studies made
    /// before et recorded it (they used process groups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supervision: Option<String>,
    /// Memory limit per call in MiB; `None` (written `"unlimited"`) for no limit.
    #[serde(default, with = "memory_limit")]
    pub memory_mb: Option<u64>,
    /// The `--reference` override (comma-separated judges); `None` (written
    /// `"default rule"`) when each solver is judged by the pool's rules. The judges
    /// each solver actually had are in [`ManifestSolver::references`].
    #[serde(default, with = "reference_choice")]
    pub reference: Option<String>,
    /// et's witness search: values tried per constant (`--witness-bound`), or `off`
    /// (`--no-witness`). Absent in studies made before et searched for witnesses
    /// (not compared on resume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness_bound: Option<String>,
    /// How calls were made: `session` (long-lived solver processes where the family
    /// can run one, every finding confirmed fresh) or `fresh`. Absent in studies made
    /// before et had sessions (fresh).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<CallMode>,
    /// The solvers under test, in pool order.
    pub solvers: Vec<ManifestSolver>,
    /// The judges that are not under test (their answers are in `reference.csv`),
    /// including variants such as a z3 run without Unicode strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_solvers: Vec<ManifestSolver>,
    /// Option configurations asked for (`et run --configurations`) that the solver
    /// refused at the start check: not run, never findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused_configurations: Vec<RefusedConfiguration>,
    /// Option configurations asked for whose options all act only on theories the
    /// grammar's logic lacks: they compute what the default mode does on its formulas,
    /// so they are not run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inapplicable_configurations: Vec<InapplicableConfiguration>,
    /// Solvers asked for whose family does not take the grammar's logic (yices on
    /// strings, bitwuzla on integers): not run, never judges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside_logic: Vec<OutsideLogic>,
}

/// A solver left out of a campaign because its family does not take the grammar's
/// logic ([`crate::solvers::family::Family::lacks`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutsideLogic {
    /// Its name (`yices-2.6.5`).
    pub name: String,
    /// What of the logic its family does not take (`strings and quantifiers`).
    pub lacks: String,
}

/// An option configuration left out of a campaign because its options act only on
/// theories the grammar's logic lacks (`smt.arith.solver=2` on bit-vectors).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InapplicableConfiguration {
    /// Its name (`z3-4.16.0+o17`).
    pub name: String,
    /// The pool solver it configures.
    pub configuration_of: String,
    /// Its options, `name=value`.
    pub options: Vec<String>,
    /// The theories its options act on (`arithmetic`).
    pub acts_only_on: Vec<String>,
}

/// An option configuration the solver refused at the start (an option or value it
/// does not take): recorded, not run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedConfiguration {
    /// Its name (`z3-4.16.0+o17`).
    pub name: String,
    /// The pool solver it configures.
    pub configuration_of: String,
    /// Its options, `name=value`.
    pub options: Vec<String>,
    /// What the solver did on the start check's trivial formula.
    pub reason: String,
}

impl RunManifest {
    /// Who judged whom, as one line for comparisons and messages:
    /// `z3-4.8.7 by z3-4.16.0-ascii; cvc5-1.4.2 by z3-4.16.0`.
    pub fn references_text(&self) -> String {
        self.solvers
            .iter()
            .map(|s| format!("{} by {}", s.name, s.judges_text()))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The supervision the study used: as recorded, else the process groups of the
    /// versions of et that did not record it.
    pub fn supervision_used(&self) -> &str {
        self.supervision.as_deref().unwrap_or(PROCESS_GROUP)
    }
}

/// The supervision of studies whose manifest does not name one.
const PROCESS_GROUP: &str = "process-group";

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
    /// For a solver under test: its judges in order (the first that decided a formula
    /// was its reference there; empty when nothing judges it); absent for judges not
    /// under test and in directories written before et recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<Vec<String>>,
    /// Whether et asked it for a model after `sat` and checked it (the pool entry's
    /// `models`, unless `--no-models`, for any family); its command then ran with the
    /// family's model options, or its script began with the family's model preamble
    /// (`(set-option :produce-models true)` for a family et does not know). Absent in
    /// directories written before et checked models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub models: Option<bool>,
    /// For a solver under test: whether it ran in sessions (`--mode session` and its
    /// family can run one) or fresh; absent for judges and in older directories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<bool>,
    /// For an option configuration: the pool solver it configures (its first judge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration_of: Option<String>,
    /// For an option configuration: its options, `name=value` (also in `command`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// For a tactic configuration: the tactic its formulas are checked with
    /// (`(check-sat-using TACTIC)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tactic: Option<String>,
}

fn is_file_input(mode: &InputMode) -> bool {
    *mode == InputMode::File
}

impl ManifestSolver {
    /// The record of `solver`, judged by `references` (`None` for a judge that is not
    /// under test).
    pub fn new(solver: &SolverConfig, references: Option<Vec<String>>) -> ManifestSolver {
        ManifestSolver {
            name: solver.name.clone(),
            family: solver.family.clone(),
            version: solver.version.clone(),
            command: solver.command.clone(),
            input: solver.input,
            references,
            models: Some(solver.command_with_models().is_some()),
            session: None,
            configuration_of: solver.configuration.as_ref().map(|c| c.of.clone()),
            options: solver.configuration.as_ref().map(|c| c.options.clone()),
            tactic: solver.configuration.as_ref().and_then(|c| c.tactic.clone()),
        }
    }

    /// The solver configuration it records; a solver under test is judged by its
    /// recorded judges (as a pool entry's `reference` list).
    pub fn config(&self) -> SolverConfig {
        let mut config = SolverConfig::new(
            &self.name,
            &self.family,
            &self.version,
            self.command.clone(),
        );
        config.input = self.input;
        config.reference = self.references.clone().unwrap_or_default();
        if let Some(models) = self.models {
            config.models = models;
        }
        config.configuration = self.configuration_of.as_ref().map(|of| Configured {
            of: of.clone(),
            options: self.options.clone().unwrap_or_default(),
            tactic: self.tactic.clone(),
        });
        config
    }

    /// Its judges as text: `a, then b`, `none`, or `(not recorded)`.
    fn judges_text(&self) -> String {
        match &self.references {
            Some(r) if !r.is_empty() => r.join(", then "),
            Some(_) => "none".to_string(),
            None => "(not recorded)".to_string(),
        }
    }
}

/// The first difference between the study recorded in `old` and the one requested in
/// `new` that would change results or make times incomparable: (what, recorded value,
/// requested value). The et version is not compared: a newer et continues an older
/// one's study.
pub fn first_difference(old: &RunManifest, new: &RunManifest) -> Option<(String, String, String)> {
    let differ = |what: &str, a: String, b: String| (a != b).then(|| (what.to_string(), a, b));
    let optional = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".to_string());
    let seconds = |v: Option<f64>| v.map_or("(none)".to_string(), |s| s.to_string());
    let names = |solvers: &[ManifestSolver]| {
        let names: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
        if names.is_empty() {
            "(none)".to_string()
        } else {
            names.join(",")
        }
    };
    // Manifests of older versions did not record judges.
    let judges_recorded = old.solvers.iter().all(|s| s.references.is_some());
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
            differ(
                "--cpu-timeout",
                seconds(old.cpu_timeout_s),
                seconds(new.cpu_timeout_s),
            )
        })
        .or_else(|| {
            let memory = |m: Option<u64>| m.map_or("unlimited".to_string(), |mb| mb.to_string());
            differ("--memory", memory(old.memory_mb), memory(new.memory_mb))
        })
        .or_else(|| {
            // Times measured with and without cgroups are not comparable.
            differ(
                "supervision",
                old.supervision_used().to_string(),
                new.supervision_used().to_string(),
            )
        })
        .or_else(|| {
            let choice = |r: &Option<String>| r.clone().unwrap_or_else(|| DEFAULT_RULE.to_string());
            differ(
                "--reference",
                choice(&old.reference),
                choice(&new.reference),
            )
        })
        .or_else(|| {
            // Manifests of older versions did not record the witness search.
            old.witness_bound.as_ref()?;
            differ(
                "--witness-bound",
                optional(&old.witness_bound),
                optional(&new.witness_bound),
            )
        })
        .or_else(|| {
            // Times in sessions are not comparable with fresh ones.
            let mode = |m: Option<CallMode>| m.unwrap_or_default().label().to_string();
            differ("--mode", mode(old.mode), mode(new.mode))
        })
        .or_else(|| solver_lists_differ(&old.solvers, &new.solvers))
        .or_else(|| {
            // Who judges whom, before the judges' own records: the clearer message.
            old.solvers.iter().zip(&new.solvers).find_map(|(a, b)| {
                a.references.as_ref()?;
                differ(
                    &format!("solver {}'s references", a.name),
                    a.judges_text(),
                    b.judges_text(),
                )
            })
        })
        .or_else(|| {
            if !judges_recorded {
                return None;
            }
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
                        // Manifests of older versions did not record models.
                        let recorded = |m: Option<bool>| {
                            m.map_or("(not recorded)".into(), |m| {
                                if m { "on" } else { "off" }.to_string()
                            })
                        };
                        a.models?;
                        differ(&what("models"), recorded(a.models), recorded(b.models))
                    })
                    .or_else(|| {
                        differ(
                            &what("input"),
                            format!("{:?}", a.input).to_lowercase(),
                            format!("{:?}", b.input).to_lowercase(),
                        )
                    })
            })
        })
}

/// Lists of solvers longer than this are told apart by their first difference, not
/// printed whole (a run over configurations has hundreds).
const SOLVERS_PRINTED_WHOLE: usize = 8;

/// How two lists of solvers differ, if they do: both lists when they are short, else
/// the first solver that differs and the lists' lengths.
fn solver_lists_differ(
    old: &[ManifestSolver],
    new: &[ManifestSolver],
) -> Option<(String, String, String)> {
    let old: Vec<&str> = old.iter().map(|s| s.name.as_str()).collect();
    let new: Vec<&str> = new.iter().map(|s| s.name.as_str()).collect();
    if old == new {
        return None;
    }
    let whole = |names: &[&str]| {
        if names.is_empty() {
            "(none)".to_string()
        } else {
            names.join(",")
        }
    };
    if old.len().max(new.len()) <= SOLVERS_PRINTED_WHOLE {
        return Some(("solvers".to_string(), whole(&old), whole(&new)));
    }
    let at = (0..)
        .find(|&i| old.get(i) != new.get(i))
        .expect("two different lists differ somewhere");
    let nth = |names: &[&str]| {
        names
            .get(at)
            .map_or("(none)".to_string(), |n| n.to_string())
    };
    let counts = if old.len() == new.len() {
        format!("{} solvers", old.len())
    } else {
        format!("{} solvers, not {}", old.len(), new.len())
    };
    Some((
        format!("{counts}; solver {} of the list was", at + 1),
        nth(&old),
        nth(&new),
    ))
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

/// `reference`: a list of judges, or `"default rule"`.
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
            cpu_timeout_s: None,
            supervision: Some("cgroup-v1".into()),
            memory_mb: None,
            reference: None,
            witness_bound: Some("9".into()),
            mode: Some(CallMode::Session),
            solvers: vec![ManifestSolver {
                name: "z3".into(),
                family: "z3".into(),
                version: "4.8.5".into(),
                command: vec!["/z3".into(), "model_validate=true".into()],
                input: InputMode::File,
                references: Some(vec!["cvc5".into()]),
                models: Some(true),
                session: Some(true),
                configuration_of: None,
                options: None,
                tactic: None,
            }],
            reference_solvers: vec![ManifestSolver {
                name: "cvc5".into(),
                family: "cvc5".into(),
                version: "1.4.2".into(),
                command: vec!["/cvc5".into()],
                input: InputMode::Stdin,
                references: None,
                models: Some(false),
                session: None,
                configuration_of: None,
                options: None,
                tactic: None,
            }],
            refused_configurations: Vec::new(),
            inapplicable_configurations: Vec::new(),
            outside_logic: Vec::new(),
        }
    }

    #[test]
    fn every_key_is_written_and_reads_back() {
        let m = manifest();
        let text = toml::to_string(&m).unwrap();
        for key in [
            "memory_mb = \"unlimited\"",
            "reference = \"default rule\"",
            "references = [\"cvc5\"]",
            "input = \"stdin\"",
            "supervision = \"cgroup-v1\"",
        ] {
            assert!(text.contains(key), "{key} in\n{text}");
        }
        assert!(!text.contains("cpu_timeout_s"), "{text}");
        assert_eq!(toml::from_str::<RunManifest>(&text).unwrap(), m);
        let limited = RunManifest {
            memory_mb: Some(2048),
            cpu_timeout_s: Some(0.5),
            reference: Some("z3".into()),
            ..m
        };
        let text = toml::to_string(&limited).unwrap();
        assert!(text.contains("memory_mb = 2048") && text.contains("reference = \"z3\""));
        assert!(text.contains("cpu_timeout_s = 0.5"), "{text}");
        assert_eq!(toml::from_str::<RunManifest>(&text).unwrap(), limited);
    }

    #[test]
    fn manifests_of_older_versions_read() {
        let text = "et_version = \"0.1.0\"\ngrammar = \"core\"\nstart = \"0\"\nn = 5\n\
                    timeout_s = 1.0\n[[solvers]]\nname = \"z3\"\nfamily = \"z3\"\n\
                    version = \"4.8.5\"\ncommand = [\"/z3\"]\n";
        let m: RunManifest = toml::from_str(text).unwrap();
        assert_eq!((m.memory_mb, m.reference.as_deref()), (None, None));
        assert_eq!(
            (m.cpu_timeout_s, m.supervision_used()),
            (None, "process-group")
        );
        assert!(m.reference_solvers.is_empty());
        assert_eq!(m.solvers[0].references, None);
        // What an older et did not record is not held against a resume.
        let mut new = m.clone();
        new.supervision = Some("process-group".into());
        new.solvers[0].references = Some(vec!["cvc5".into()]);
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
        new.cpu_timeout_s = Some(2.0);
        assert_eq!(
            first_difference(&old, &new),
            Some(("--cpu-timeout".into(), "(none)".into(), "2".into()))
        );
        let mut new = old.clone();
        new.supervision = Some("process-group".into());
        assert_eq!(
            first_difference(&old, &new),
            Some((
                "supervision".into(),
                "cgroup-v1".into(),
                "process-group".into()
            ))
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
        // et's own oracle defines the study too: the witness search and models.
        let mut new = old.clone();
        new.witness_bound = Some("off".into());
        assert_eq!(
            first_difference(&old, &new),
            Some(("--witness-bound".into(), "9".into(), "off".into()))
        );
        let mut new = old.clone();
        new.solvers[0].models = Some(false);
        assert_eq!(
            first_difference(&old, &new),
            Some(("solver z3's models".into(), "on".into(), "off".into()))
        );
        // Studies made before et recorded them continue with any setting.
        let mut older = old.clone();
        older.witness_bound = None;
        older.solvers[0].models = None;
        assert_eq!(first_difference(&older, &new), None);
        let mut new = old.clone();
        new.solvers[0].references = Some(Vec::new());
        let (what, was, now) = first_difference(&old, &new).unwrap();
        assert_eq!(
            (what.as_str(), was.as_str(), now.as_str()),
            ("solver z3's references", "cvc5", "none")
        );
        let text = toml::to_string(&new).unwrap();
        assert!(text.contains("references = []"), "{text}");
        assert_eq!(toml::from_str::<RunManifest>(&text).unwrap(), new);
        let mut new = old.clone();
        new.solvers[0].references = Some(vec!["cvc5".into(), "z3-4.16.0".into()]);
        let (what, _, now) = first_difference(&old, &new).unwrap();
        assert_eq!(
            (what.as_str(), now.as_str()),
            ("solver z3's references", "cvc5, then z3-4.16.0")
        );
    }

    /// A run over configurations has hundreds of solvers: the message names the first
    /// that differs, not every name twice.
    #[test]
    fn long_lists_of_solvers_are_told_apart_by_their_first_difference() {
        let many = |names: &[&str]| -> RunManifest {
            let mut m = manifest();
            let one = m.solvers[0].clone();
            m.solvers = names
                .iter()
                .map(|n| ManifestSolver {
                    name: n.to_string(),
                    ..one.clone()
                })
                .collect();
            m
        };
        let names: Vec<String> = (0..600).map(|i| format!("cvc5-1.4.2+o{i}")).collect();
        let old: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut new = old.clone();
        new.remove(41);
        let (what, was, now) = first_difference(&many(&old), &many(&new)).unwrap();
        assert_eq!(
            (what.as_str(), was.as_str(), now.as_str()),
            (
                "600 solvers, not 599; solver 42 of the list was",
                "cvc5-1.4.2+o41",
                "cvc5-1.4.2+o42"
            )
        );
        let (_, was, now) = first_difference(&many(&old[..10]), &many(&old[..11])).unwrap();
        assert_eq!((was.as_str(), now.as_str()), ("(none)", "cvc5-1.4.2+o10"));
        // A short list is printed whole.
        let (what, was, now) = first_difference(&many(&["a", "b"]), &many(&["a"])).unwrap();
        assert_eq!(
            (what.as_str(), was.as_str(), now.as_str()),
            ("solvers", "a,b", "a")
        );
    }
}
