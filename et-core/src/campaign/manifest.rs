//! `DIR/run.toml`: what a run directory holds, so reports and merges can check that
//! shards belong to one study.

use serde::{Deserialize, Serialize};

/// The description of one `et run` output directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// Version of et that wrote the directory.
    pub et_version: String,
    /// Grammar name (built-in name or file stem).
    pub grammar: String,
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
    /// Memory limit per call in MiB, if any.
    pub memory_mb: Option<u64>,
    /// Reference override (`--reference`, comma-separated judges), if any.
    pub reference: Option<String>,
    /// The solvers of the run, in pool order.
    pub solvers: Vec<ManifestSolver>,
    /// The judges that are not under test (their answers are in `reference.csv`),
    /// including variants such as a z3 run without Unicode strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_solvers: Vec<ManifestSolver>,
}

impl RunManifest {
    /// Who judged whom, as one line for comparisons and messages:
    /// `z3-4.8.7 by z3-4.16.0-ascii; cvc5-1.4.2 by z3-4.16.0`.
    pub fn references_text(&self) -> String {
        self.solvers
            .iter()
            .map(|s| match &s.references {
                Some(r) if !r.is_empty() => format!("{} by {}", s.name, r.join(", then ")),
                Some(_) => format!("{} by none", s.name),
                None => format!("{} by (not recorded)", s.name),
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
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
    /// For a solver under test: its judges in order (the first that decided a formula
    /// was its reference there); absent in directories written before et recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<Vec<String>>,
}
