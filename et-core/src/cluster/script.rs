//! The two job scripts of a study, written into its `slurm/` directory so that a user
//! can read them and resubmit them by hand:
//!
//! - `shards.sh`, an array job script: task k runs `et run --shard k/K --resume` into
//!   `shards/k` (resuming makes a resubmitted task continue its shard);
//! - `merge.sh`: `et merge` of every shard into `merged/`.
//!
//! sbatch options are `#SBATCH` lines of the scripts; `sbatch` options given on its
//! command line (the array's task list, the merge's dependency) override them.

use std::borrow::Cow;
use std::path::Path;

use super::study::{Study, StudyDir};
use super::ClusterError;

/// The sbatch options of a study's jobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SbatchOptions {
    /// `--partition`, if any.
    pub partition: Option<String>,
    /// `--time` limit per task, in a Slurm time format (`MM`, `HH:MM:SS`, `D-HH`, ...).
    pub time: Option<String>,
    /// `--cpus-per-task` of the shard tasks (the merge job takes one CPU).
    pub cpus_per_task: u32,
    /// Further options, one per element (`--account=proj`, `--qos=long`, `--mem=8G`).
    pub extra: Vec<String>,
}

/// Options that shape the jobs et submits: never accepted as `--sbatch-arg`.
const ET_OPTIONS: &[(&str, Option<char>, &str)] = &[
    ("--array", Some('a'), "the task list is the shards"),
    (
        "--dependency",
        Some('d'),
        "the merge job depends on the array",
    ),
    ("--output", Some('o'), "logs go to DIR/slurm/logs"),
    ("--error", Some('e'), "logs go to DIR/slurm/logs"),
    ("--chdir", Some('D'), "jobs run in the study directory"),
    ("--parsable", None, "et reads the job id itself"),
    ("--test-only", None, "et tests the submission itself"),
    ("--wrap", None, "the job scripts are et's"),
];

/// Options `et slurm submit` has flags for.
const SUBMIT_FLAGS: &[(&str, Option<char>, &str)] = &[
    ("--partition", Some('p'), "use --partition"),
    ("--time", Some('t'), "use --time"),
    ("--cpus-per-task", Some('c'), "use --cpus-per-task"),
];

/// Where `--sbatch-arg` options go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SbatchArgUse {
    /// Into both job scripts, next to the lines of `--partition`, `--time` and
    /// `--cpus-per-task` (so those are refused as `--sbatch-arg`).
    Scripts,
    /// On the sbatch command line of a resubmission, where they override the scripts'
    /// lines (`--time=2-00:00:00` after tasks hit their limit).
    Override,
}

/// Checks `--sbatch-arg` values: each one sbatch option, none that et sets itself.
pub fn check_sbatch_args(args: &[String], usage: SbatchArgUse) -> Result<(), ClusterError> {
    let reserved = ET_OPTIONS.iter().chain(match usage {
        SbatchArgUse::Scripts => SUBMIT_FLAGS,
        SbatchArgUse::Override => &[],
    });
    for arg in args {
        if !arg.starts_with('-') || arg.contains(['\n', '"']) {
            return Err(ClusterError::BadOption(format!(
                "--sbatch-arg `{arg}` is not one sbatch option (it must start with `-` and \
                 hold no newline or double quote; write it as --sbatch-arg=--account=proj)"
            )));
        }
        for (long, short, why) in reserved.clone() {
            let is_long = arg == long || arg.starts_with(&format!("{long}="));
            let is_short = short.is_some_and(|c| {
                arg.len() >= 2 && !arg.starts_with("--") && arg[1..].starts_with(c)
            });
            if is_long || is_short {
                return Err(ClusterError::BadOption(format!(
                    "--sbatch-arg `{arg}`: et sets {long} itself ({why})"
                )));
            }
        }
    }
    Ok(())
}

impl SbatchOptions {
    /// Checks every value, naming the first that is not usable.
    pub fn validate(&self) -> Result<(), ClusterError> {
        let bad = |message: String| Err(ClusterError::BadOption(message));
        if let Some(partition) = &self.partition {
            if partition.is_empty() || partition.contains(char::is_whitespace) {
                return bad(format!(
                    "--partition `{partition}` is not a partition name (no spaces)"
                ));
            }
        }
        if let Some(time) = &self.time {
            check_time(time)?;
        }
        if self.cpus_per_task == 0 {
            return bad("--cpus-per-task must be at least 1".into());
        }
        check_sbatch_args(&self.extra, SbatchArgUse::Scripts)
    }
}

/// Checks a Slurm time limit: `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`,
/// `D-HH:MM:SS`, `UNLIMITED` or `INFINITE`.
pub fn check_time(text: &str) -> Result<(), ClusterError> {
    let bad = || {
        ClusterError::BadOption(format!(
            "--time `{text}` is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, \
             D-HH:MM:SS or UNLIMITED)"
        ))
    };
    if text.eq_ignore_ascii_case("unlimited") || text.eq_ignore_ascii_case("infinite") {
        return Ok(());
    }
    let number = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let (days, clock) = match text.split_once('-') {
        Some((days, clock)) => (Some(days), clock),
        None => (None, text),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let fits = match days {
        Some(days) => number(days) && (1..=3).contains(&parts.len()),
        None => (1..=3).contains(&parts.len()),
    };
    if !fits || !parts.iter().all(|p| number(p)) {
        return Err(bad());
    }
    Ok(())
}

/// `word` as one bash word: unchanged if it has no special characters, else in single
/// quotes (a `'` inside becomes `'\''`).
pub fn shell_quote(word: &str) -> Cow<'_, str> {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%^".contains(&b));
    if plain {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
    }
}

/// One `#SBATCH` line; a value with spaces goes in double quotes, which sbatch strips.
fn directive(option: &str) -> String {
    match option.split_once('=') {
        Some((name, value)) if value.contains(char::is_whitespace) => {
            format!("#SBATCH {name}=\"{value}\"\n")
        }
        _ => format!("#SBATCH {option}\n"),
    }
}

/// Checks that the study directory can appear in `#SBATCH` lines: Slurm expands `%` in
/// log file names and has no quoting for double quotes or newlines.
pub fn check_study_path(dir: &StudyDir) -> Result<(), ClusterError> {
    let text = dir.root().to_string_lossy();
    if text.contains(['%', '"', '\n']) {
        return Err(ClusterError::BadOption(format!(
            "the study directory `{text}` contains %, a double quote or a newline, which \
             #SBATCH lines cannot carry; choose another --out"
        )));
    }
    Ok(())
}

fn job_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The common `#SBATCH` lines.
fn directives(dir: &StudyDir, options: &SbatchOptions, name: &str, log: &str) -> String {
    let mut text = directive(&format!("--job-name={}", job_name(name)));
    text += &directive(&format!("--chdir={}", path_text(dir.root())));
    text += &directive(&format!("--output={}", path_text(&dir.logs().join(log))));
    if let Some(partition) = &options.partition {
        text += &directive(&format!("--partition={partition}"));
    }
    if let Some(time) = &options.time {
        text += &directive(&format!("--time={time}"));
    }
    for option in &options.extra {
        text += &directive(option);
    }
    text
}

/// The array job script. `run_args` are the `et run` arguments shared by every shard
/// (grammar, range, pool, solvers, timeout, jobs, ...); the script adds `--shard k/K`,
/// `--out DIR/shards/k` and `--resume`.
pub fn shard_script(
    dir: &StudyDir,
    study: &Study,
    options: &SbatchOptions,
    run_args: &[String],
) -> String {
    let root = path_text(dir.root());
    let k = study.shards;
    let mut text = format!(
        "#!/bin/bash\n\
         # Shard k of {k} of the et study in {root}: one per task of a Slurm job array.\n\
         # Written by `et slurm submit`; `et slurm status {root}` shows progress and\n\
         # `et slurm resubmit {root}` runs the unfinished shards again (and a new merge).\n\
         # By hand: sbatch --array=2,5 {script}\n\
         # A task resumes its shard directory: rerunning a shard continues it.\n",
        script = path_text(&dir.shard_script()),
    );
    text += &directives(
        dir,
        options,
        &format!("et-{}", study.grammar),
        "shard-%a-job-%A.log",
    );
    text += &directive(&format!("--array=1-{k}"));
    text += &directive(&format!("--cpus-per-task={}", options.cpus_per_task));
    // One line per option with its value, for reading.
    let mut lines: Vec<String> = vec![format!("{} run", shell_quote(&path_text(&study.et)))];
    for arg in run_args {
        let word = shell_quote(arg);
        match lines.last_mut() {
            Some(line) if !arg.starts_with('-') && line.starts_with('-') => {
                line.push(' ');
                line.push_str(&word);
            }
            _ => lines.push(word.into_owned()),
        }
    }
    lines.push(format!("--shard \"$k/{k}\""));
    lines.push(format!(
        "--out {}\"/$k\"",
        shell_quote(&path_text(&dir.shards_dir()))
    ));
    lines.push("--resume".into());
    text += &format!(
        "set -euo pipefail\n\
         k=${{SLURM_ARRAY_TASK_ID:?submit with sbatch --array=1-{k}}}\n\
         exec {}\n",
        lines.join(" \\\n  ")
    );
    text
}

/// The merge job script: `et merge DIR/shards/{{1..K}} --out DIR/merged`.
pub fn merge_script(dir: &StudyDir, study: &Study, options: &SbatchOptions) -> String {
    let root = path_text(dir.root());
    let mut text = format!(
        "#!/bin/bash\n\
         # Merges the {k} shards of the et study in {root} into {merged}.\n\
         # Written by `et slurm submit`, which submits it to run after every shard task\n\
         # succeeded (--dependency=afterok on the array job).\n",
        k = study.shards,
        merged = path_text(&dir.merged()),
    );
    text += &directives(
        dir,
        options,
        &format!("et-{}-merge", study.grammar),
        "merge-job-%j.log",
    );
    text += "#SBATCH --cpus-per-task=1\n";
    text += &format!(
        "set -euo pipefail\n\
         shards={}\n\
         exec {} merge \"$shards\"/{{1..{}}} --out {}\n",
        shell_quote(&path_text(&dir.shards_dir())),
        shell_quote(&path_text(&study.et)),
        study.shards,
        shell_quote(&path_text(&dir.merged())),
    );
    text
}

/// Writes both scripts (atomically, executable).
pub fn write_scripts(
    dir: &StudyDir,
    study: &Study,
    options: &SbatchOptions,
    run_args: &[String],
) -> Result<(), ClusterError> {
    use std::os::unix::fs::PermissionsExt;
    let scripts = [
        (
            dir.shard_script(),
            shard_script(dir, study, options, run_args),
        ),
        (dir.merge_script(), merge_script(dir, study, options)),
    ];
    for (path, text) in scripts {
        crate::atomic_file::write(&path, text.as_bytes())
            .map_err(ClusterError::io("write", &path))?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(ClusterError::io("make executable", &path))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> SbatchOptions {
        SbatchOptions {
            partition: Some("short".into()),
            time: Some("1-00:00".into()),
            cpus_per_task: 4,
            extra: vec!["--account=proj".into(), "--comment=a study".into()],
        }
    }

    fn study() -> Study {
        Study {
            et: "/opt/et tools/et".into(),
            grammar: "core".into(),
            start: "0".into(),
            n: 2000,
            shards: 4,
            solvers: vec!["z3-4.16.0".into()],
            submissions: vec![],
        }
    }

    #[test]
    fn shard_script_runs_its_shard_with_resume() {
        let dir = StudyDir::new(Path::new("/data/study")).unwrap();
        let args: Vec<String> = ["--grammar", "core", "--timeout", "1/64"]
            .map(String::from)
            .to_vec();
        let text = shard_script(&dir, &study(), &options(), &args);
        for line in [
            "#!/bin/bash\n",
            "#SBATCH --job-name=et-core\n",
            "#SBATCH --chdir=/data/study\n",
            "#SBATCH --output=/data/study/slurm/logs/shard-%a-job-%A.log\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --time=1-00:00\n",
            "#SBATCH --account=proj\n",
            "#SBATCH --comment=\"a study\"\n",
            "#SBATCH --array=1-4\n",
            "#SBATCH --cpus-per-task=4\n",
            "k=${SLURM_ARRAY_TASK_ID:?submit with sbatch --array=1-4}\n",
            "exec '/opt/et tools/et' run \\\n  --grammar core \\\n  --timeout 1/64 \\\n  \
             --shard \"$k/4\" \\\n  --out /data/study/shards\"/$k\" \\\n  --resume\n",
        ] {
            assert!(text.contains(line), "{line:?} missing from\n{text}");
        }
    }

    #[test]
    fn merge_script_merges_every_shard() {
        let dir = StudyDir::new(Path::new("/data/study")).unwrap();
        let text = merge_script(&dir, &study(), &options());
        assert!(
            text.contains("#SBATCH --job-name=et-core-merge\n"),
            "{text}"
        );
        assert!(text.contains("#SBATCH --cpus-per-task=1\n"), "{text}");
        assert!(
            text.contains(
                "exec '/opt/et tools/et' merge \"$shards\"/{1..4} --out /data/study/merged\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn bad_options_are_named() {
        assert!(options().validate().is_ok());
        let with = |f: &dyn Fn(&mut SbatchOptions)| {
            let mut o = options();
            f(&mut o);
            o.validate().unwrap_err().to_string()
        };
        assert!(with(&|o| o.time = Some("soon".into())).contains("`soon`"));
        assert!(with(&|o| o.time = Some("1-2-3".into())).contains("`1-2-3`"));
        assert!(with(&|o| o.partition = Some("a b".into())).contains("`a b`"));
        assert!(with(&|o| o.extra = vec!["account=x".into()]).contains("`account=x`"));
        assert!(with(&|o| o.extra = vec!["--comment=\"x\"".into()]).contains("double quote"));
        let own = with(&|o| o.extra = vec!["--array=1-3".into()]);
        assert!(own.contains("et sets --array itself"), "{own}");
        let short = with(&|o| o.extra = vec!["-t10".into()]);
        assert!(short.contains("use --time"), "{short}");
        // A resubmission may override the scripts' time limit, never the task list.
        let time = ["--time=2-00:00:00".to_string()];
        assert!(check_sbatch_args(&time, SbatchArgUse::Override).is_ok());
        let array = ["--array=1".to_string()];
        assert!(check_sbatch_args(&array, SbatchArgUse::Override).is_err());
        // -A (account) is not -a (array).
        let mut o = options();
        o.extra = vec!["-Aproj".into()];
        assert!(o.validate().is_ok());
    }

    #[test]
    fn slurm_time_formats() {
        for ok in [
            "30",
            "30:00",
            "4:00:00",
            "2-12",
            "2-12:30",
            "2-12:30:00",
            "UNLIMITED",
        ] {
            assert!(check_time(ok).is_ok(), "{ok}");
        }
        for bad in ["", "1h", "1:2:3:4", "-5", "2-", "a-1", "1:"] {
            assert!(check_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn quoting_keeps_words_whole() {
        assert_eq!(shell_quote("core"), "core");
        assert_eq!(shell_quote("1/64"), "1/64");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
    }
}
