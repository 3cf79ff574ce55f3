//! `et slurm`: a study on a Slurm cluster. `submit` validates an `et run` study, writes
//! its job scripts into the study directory and submits a job array (one task per
//! shard) and a merge job that waits for it; `status` tells how far each shard is;
//! `resubmit` runs again only the shards that did not finish.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args as ClapArgs, Subcommand};

use et_core::cluster::progress::{jobs_to_ask, shard_statuses, Resubmission, ShardStatus};
use et_core::cluster::script::{self, SbatchArgUse, SbatchOptions};
use et_core::cluster::slurm::{self, TaskId, TaskState};
use et_core::cluster::study::{portable_pool, Study, StudyDir, Submission};
use et_core::cluster::ClusterError;
use et_core::solvers::Pool;

use super::campaign_args::{self, CampaignArgs, Places};
use super::grammar_arg::BadInput;

/// Flags of `et slurm`.
#[derive(ClapArgs)]
#[command(
    about = "Run a study on a Slurm cluster: a job array of shards, a merge, resubmission",
    long_about = "Run an `et run` study on a Slurm cluster. `submit` writes the job scripts into \
the study directory and submits one array job (task k runs `et run --shard k/K --resume` into \
DIR/shards/k) and a merge job that runs `et merge` into DIR/merged once every task succeeded. \
`status` shows each shard's progress from its runs.csv and which tasks failed; `resubmit` runs \
only the unfinished shards again, with a new merge job.",
    after_help = "Examples:
  et slurm submit --grammar strings --n 1000000 --timeout 8 --shards 16 \\
      --partition short --time 12:00:00 --cpus-per-task 8 --out /scratch/me/strings
  et slurm status /scratch/me/strings
  et slurm resubmit /scratch/me/strings

The solvers, the et binary and DIR must be on a filesystem the compute nodes share:
the pool is copied into DIR/pool.toml with absolute program paths."
)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Validate a study, write its job scripts and submit the array and merge jobs.
    Submit(Box<SubmitArgs>),
    /// Per-shard progress (from the shards' runs.csv) and the state of their tasks.
    #[command(after_help = "Examples:
  et slurm status /scratch/me/strings

Rows done come from each DIR/shards/k/runs.csv, so progress is exact even for tasks
Slurm has forgotten; the task states come from squeue (and sacct, where the cluster
keeps accounting).")]
    Status(StatusArgs),
    /// Submit again the shards that did not finish (and a new merge job).
    #[command(after_help = "Examples:
  et slurm resubmit /scratch/me/strings
  et slurm resubmit /scratch/me/strings --sbatch-arg=--time=2-00:00:00

Shards whose task is pending or running are left alone; a finished shard is never
run again; a resubmitted task resumes its shard's rows. A merge job still waiting
for a failed task is cancelled and replaced.")]
    Resubmit(ResubmitArgs),
}

/// Flags of `et slurm submit`: those of `et run`, plus the shards and sbatch options.
#[derive(ClapArgs)]
#[command(
    mut_arg("shard", |a| a.hide(true)),
    mut_arg("resume", |a| a.hide(true)),
    mut_arg("fail_on", |a| a.hide(true)),
    mut_arg("out", |a| a.help(
        "The study directory (must not exist; default: results/<grammar>-<start>-<n>). \
         It must be on a filesystem the compute nodes share."
    )),
    mut_arg("jobs", |a| a.help("Parallel workers per task (default: --cpus-per-task)")),
    mut_arg("quiet", |a| a.help("No progress lines in the tasks' logs")),
    after_help = "Examples:
  et slurm submit --grammar core --n 2000 --timeout 8 --shards 4 --out /scratch/me/core
  et slurm submit --grammar strings --n 1000000 --timeout 8 --shards 16 --cpus-per-task 8 \\
      --partition short --time 12:00:00 --sbatch-arg=--account=proj --out /scratch/me/strings
  et slurm submit --grammar fp --n 100000 --timeout 1 --shards 8 --solvers z3,cvc5-1.4.2 \\
      --no-submit --out /scratch/me/fp          # write it; submit with `et slurm resubmit`

Before anything is submitted: everything `et run` checks (timeout, range, grammar,
pool, judges), the program of every solver under test and judge must exist (bare names
are looked up in PATH now), sbatch be on PATH, and `sbatch --test-only` accept both
scripts. --fail-on is refused: a task exiting 3 would keep the merge from running.
If a check fails, nothing is submitted and no study directory is left behind; bad
input exits 2.

The study directory gets: slurm/shards.sh (the array job: task k runs
`et run --shard k/K --resume --out DIR/shards/k` with the et binary that submitted it),
slurm/merge.sh (`et merge DIR/shards/{1..K} --out DIR/merged`), slurm/study.toml (the
study and its job ids), slurm/logs/, pool.toml (the pool, with absolute paths) and, for a
grammar file, grammar/NAME.pest."
)]
struct SubmitArgs {
    #[command(flatten)]
    study: CampaignArgs,
    /// Number of shards: the tasks of the job array.
    #[arg(long, value_name = "K")]
    shards: u64,
    /// Slurm partition of the jobs.
    #[arg(long, value_name = "NAME")]
    partition: Option<String>,
    /// Time limit per task (MM, HH:MM:SS, D-HH:MM:SS, ...).
    #[arg(long, value_name = "TIME")]
    time: Option<String>,
    /// CPUs per task (default: --jobs, else 1).
    #[arg(long, value_name = "N")]
    cpus_per_task: Option<u32>,
    /// A further sbatch option for both jobs, e.g. --sbatch-arg=--account=proj
    /// (repeatable).
    #[arg(long = "sbatch-arg", value_name = "OPTION", allow_hyphen_values = true)]
    sbatch_args: Vec<String>,
    /// Write the study directory and its job scripts but submit nothing.
    #[arg(long)]
    no_submit: bool,
}

/// Flags of `et slurm status`.
#[derive(ClapArgs)]
struct StatusArgs {
    /// The study directory (`--out` of `et slurm submit`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Flags of `et slurm resubmit`.
#[derive(ClapArgs)]
struct ResubmitArgs {
    /// The study directory (`--out` of `et slurm submit`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// A further sbatch option for this submission, overriding the scripts' (e.g.
    /// --sbatch-arg=--time=2-00:00:00; repeatable).
    #[arg(long = "sbatch-arg", value_name = "OPTION", allow_hyphen_values = true)]
    sbatch_args: Vec<String>,
}

/// Runs `et slurm`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::Submit(args) => submit(*args),
        Sub::Status(args) => status(args),
        Sub::Resubmit(args) => resubmit(args),
    }
}

fn bad(message: impl Into<String>) -> anyhow::Error {
    BadInput(message.into()).into()
}

/// A study directory being created: removed again unless kept, so a refused or failed
/// submission leaves nothing behind.
struct NewStudyDir<'a> {
    root: &'a Path,
    keep: bool,
}

impl Drop for NewStudyDir<'_> {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(self.root);
        }
    }
}

fn create_dir(path: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(path).with_context(|| format!("cannot create {}", path.display()))
}

/// A study that passed every check: nothing is on disk or in Slurm yet.
struct Checked {
    dir: StudyDir,
    study: Study,
    options: SbatchOptions,
    /// The solvers as the compute nodes run them (absolute programs).
    pool: Pool,
    /// A grammar file to copy to `DIR/grammar/` (built-ins are named, not copied).
    grammar_file: Option<PathBuf>,
    /// The `et run` arguments every shard shares.
    run_args: Vec<String>,
}

fn submit(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let prepared = check(&args)?;
    let mut created = write_study(&prepared)?;
    let dir = &prepared.dir;
    let mut study = prepared.study.clone();
    let _lock = dir.lock()?;
    println!("{}", heading(dir, &study));
    println!("job scripts: {}", dir.shard_script().display());
    println!("             {}", dir.merge_script().display());
    if args.no_submit {
        created.keep = true;
        println!(
            "nothing submitted; submit with: et slurm resubmit {}",
            dir.root().display()
        );
        return Ok(ExitCode::SUCCESS);
    }

    let array_options = vec![format!("--array=1-{}", study.shards)];
    slurm::check_submission(&dir.shard_script(), &array_options)?;
    slurm::check_submission(&dir.merge_script(), &[])?;
    let array = slurm::submit(&dir.shard_script(), &array_options)?;
    // From here on jobs exist: the directory stays, whatever happens.
    created.keep = true;
    study.submissions.push(Submission {
        array_job: Some(array),
        shards: (1..=study.shards).collect(),
        merge_job: None,
    });
    dir.save(&study)?;
    println!(
        "array job {array}: task k runs shard k of {} into {}/k",
        study.shards,
        dir.shards_dir().display()
    );
    let merge = slurm::submit(
        &dir.merge_script(),
        &[format!("--dependency=afterok:{array}")],
    )
    .with_context(|| {
        format!(
            "array job {array} was submitted but the merge job was not; \
             `et slurm resubmit {}` submits it",
            dir.root().display()
        )
    })?;
    if let Some(last) = study.submissions.last_mut() {
        last.merge_job = Some(merge);
    }
    dir.save(&study)?;
    println!(
        "merge job {merge}: after array job {array} succeeds, into {}",
        dir.merged().display()
    );
    println!("progress: et slurm status {}", dir.root().display());
    Ok(ExitCode::SUCCESS)
}

/// Checks everything `et run` would check, and what the cluster needs: solver programs
/// that exist at absolute paths, sbatch values, a free study directory.
fn check(args: &SubmitArgs) -> anyhow::Result<Checked> {
    let run = &args.study;
    if run.shard.is_some() {
        return Err(bad(
            "--shard: `et slurm submit` gives task k the shard k/K; set K with --shards",
        ));
    }
    if run.resume {
        return Err(bad(
            "--resume: continue a submitted study with `et slurm resubmit DIR`",
        ));
    }
    if !run.fail_on.is_empty() {
        return Err(bad(
            "--fail-on: a task that exits 3 on a verdict would keep the merge job from \
             running; check the merged study with `et report` instead",
        ));
    }
    if args.shards == 0 {
        return Err(bad("--shards must be at least 1"));
    }
    let cpus_per_task = args
        .cpus_per_task
        .or(run.jobs.map(|j| u32::try_from(j).unwrap_or(u32::MAX)))
        .unwrap_or(1);
    let jobs = run.jobs.unwrap_or(u64::from(cpus_per_task));
    let options = SbatchOptions {
        partition: args.partition.clone(),
        time: args.time.clone(),
        cpus_per_task,
        extra: args.sbatch_args.clone(),
    };
    options.validate()?;

    // Time limits, grammar, range, pool and judges, checked as `et run` checks them.
    let (mut campaign, _) = campaign_args::prepare(run)?;
    let (grammar, start, n) = (
        campaign.grammar.clone(),
        campaign.plan.start.clone(),
        campaign.plan.n,
    );
    if n < args.shards {
        return Err(bad(format!(
            "--shards {} is more than the {n} formulas of the study",
            args.shards
        )));
    }
    // The solvers under test and their judges must run on the compute nodes.
    let judges = campaign.judges()?;
    let mut needed: Vec<&str> = campaign
        .under_test
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    needed.extend(judges.values().flatten().map(|j| j.name.as_str()));
    let portable = portable_pool(&campaign.pool, &needed)?;
    if !args.no_submit {
        slurm::require("sbatch")?;
    }

    // `et run`'s default directory, which has no shard suffix without --shard.
    let dir = StudyDir::new(&campaign.out)?;
    script::check_study_path(&dir)?;
    if dir.root().exists() {
        return Err(ClusterError::StudyExists(dir.root().to_path_buf()).into());
    }

    // What every shard runs; paths are absolute, since tasks run elsewhere.
    let (grammar_arg, grammar_file) = match &campaign.grammar_file {
        None => (grammar.clone(), None),
        Some(file) => {
            // A file: copied, so every shard reads the same grammar even if it is edited.
            let source = PathBuf::from(file);
            let copy = dir
                .grammar_dir()
                .join(source.file_name().unwrap_or_default());
            (copy.display().to_string(), Some(source))
        }
    };
    let names: Vec<String> = campaign.under_test.iter().map(|s| s.name.clone()).collect();
    let reference_cache = match &campaign.reference_cache {
        Some(cache) => Some(
            std::path::absolute(cache)
                .with_context(|| format!("cannot resolve {}", cache.display()))?,
        ),
        None => None,
    };
    let places = Places {
        grammar: grammar_arg,
        pool: dir.pool_file(),
        reference_cache,
    };
    // Each task runs as many workers as it has CPUs, unless --jobs says otherwise.
    campaign.jobs = jobs as usize;
    let run_args = campaign_args::command_line(&campaign, &places, run.quiet);
    let study = Study {
        et: std::env::current_exe().context("cannot find the running et binary")?,
        grammar,
        start: start.to_string(),
        n,
        shards: args.shards,
        solvers: names,
        submissions: Vec::new(),
    };
    Ok(Checked {
        dir,
        study,
        options,
        pool: portable,
        grammar_file,
        run_args,
    })
}

/// Writes the study directory; the guard removes it again unless kept.
fn write_study(c: &Checked) -> anyhow::Result<NewStudyDir<'_>> {
    let created = NewStudyDir {
        root: c.dir.root(),
        keep: false,
    };
    for path in [c.dir.root().to_path_buf(), c.dir.logs(), c.dir.shards_dir()] {
        create_dir(&path)?;
    }
    if let Some(source) = &c.grammar_file {
        create_dir(&c.dir.grammar_dir())?;
        let copy = c
            .dir
            .grammar_dir()
            .join(source.file_name().unwrap_or_default());
        std::fs::copy(source, &copy)
            .with_context(|| format!("cannot copy {} to {}", source.display(), copy.display()))?;
    }
    let pool_file = c.dir.pool_file();
    et_core::atomic_file::write(&pool_file, c.pool.to_toml().as_bytes())
        .with_context(|| format!("cannot write {}", pool_file.display()))?;
    script::write_scripts(&c.dir, &c.study, &c.options, &c.run_args)?;
    c.dir.save(&c.study)?;
    Ok(created)
}

/// The first line `submit` and `status` print: the study in one sentence.
fn heading(dir: &StudyDir, study: &Study) -> String {
    format!(
        "study {}: {} formulas of `{}` from index {} in {} shards; solvers {}",
        dir.root().display(),
        study.n,
        study.grammar,
        study.start,
        study.shards,
        study.solvers.join(", ")
    )
}

/// What the state column says about a shard.
fn shard_state(s: &ShardStatus) -> String {
    match (&s.state, s.task) {
        _ if s.finished() && s.task_failed() => format!(
            "finished (task {})",
            s.state.as_ref().map_or("", |st| st.state.as_str())
        ),
        _ if s.finished() => "finished".into(),
        (Some(state), _) => state.to_string(),
        (None, Some(_)) => "stopped (Slurm has no record of its task)".into(),
        (None, None) => "not submitted".into(),
    }
}

/// The merge job's line: its state, or the merged directory.
fn merge_state(
    dir: &StudyDir,
    study: &Study,
    states: &HashMap<TaskId, TaskState>,
) -> (String, String) {
    if dir.merged().exists() {
        return (String::new(), format!("done: {}", dir.merged().display()));
    }
    match study.latest_merge() {
        Some(job) => (
            job.to_string(),
            states
                .get(&TaskId::job(job))
                .map_or("(Slurm has no record of it)".into(), ToString::to_string),
        ),
        None => (String::new(), "not submitted".into()),
    }
}

fn status(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let dir = StudyDir::new(&args.dir)?;
    let study = dir.load()?;
    let (states, slurm_note) = match slurm::states(&jobs_to_ask(&study)) {
        Ok(states) => (states, None),
        Err(e) => (HashMap::new(), Some(e.to_string())),
    };
    let statuses = shard_statuses(&dir, &study, &states)?;
    println!("{}", heading(&dir, &study));
    let mut table = vec![[
        "shard".to_string(),
        "rows".into(),
        "done".into(),
        "task".into(),
        "state".into(),
    ]];
    for s in &statuses {
        let percent = if s.expected == 0 {
            100.0
        } else {
            100.0 * s.rows as f64 / s.expected as f64
        };
        table.push([
            s.shard.to_string(),
            format!("{}/{}", s.rows, s.expected),
            format!("{percent:.0}%"),
            s.task.map_or(String::new(), |t| t.to_string()),
            shard_state(s),
        ]);
    }
    let (merge_job, merge) = merge_state(&dir, &study, &states);
    table.push([
        "merge".into(),
        String::new(),
        String::new(),
        merge_job,
        merge,
    ]);
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        println!("{}", cells.join("  ").trim_end());
    }
    if let Some(note) = slurm_note {
        println!("task states unknown: {note}");
    }
    let (rows, expected) = statuses
        .iter()
        .fold((0, 0), |(r, e), s| (r + s.rows, e + s.expected));
    let stalled: Vec<String> = statuses
        .iter()
        .filter(|s| s.needs_run())
        .map(|s| format!("{} ({})", s.shard, shard_state(s)))
        .collect();
    if dir.merged().exists() {
        println!("finished: {rows} rows merged");
    } else if !stalled.is_empty() {
        println!(
            "{rows}/{expected} rows; unfinished and not running: shard {}; run `et slurm resubmit {}`",
            stalled.join(", shard "),
            dir.root().display()
        );
    } else {
        println!("{rows}/{expected} rows");
    }
    Ok(ExitCode::SUCCESS)
}

fn resubmit(args: ResubmitArgs) -> anyhow::Result<ExitCode> {
    let dir = StudyDir::new(&args.dir)?;
    let mut study = dir.load()?;
    let _lock = dir.lock()?;
    script::check_sbatch_args(&args.sbatch_args, SbatchArgUse::Override)?;
    slurm::require("sbatch")?;
    // What is pending or running must be known: submitting a shard whose task still
    // runs would put two `et run` on one directory.
    let states = slurm::states(&jobs_to_ask(&study))?;
    let statuses = shard_statuses(&dir, &study, &states)?;
    let merge = study
        .latest_merge()
        .map(|job| (job, states.get(&TaskId::job(job))));
    let plan = Resubmission::plan(&statuses, merge, dir.merged().exists());
    if plan.is_empty() {
        if dir.merged().exists() {
            println!(
                "nothing to resubmit: the study is merged into {}",
                dir.merged().display()
            );
        } else {
            println!(
                "nothing to resubmit: every unfinished shard has a pending or running task, \
                 and merge job {} waits for them",
                study.latest_merge().unwrap_or_default()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(job) = plan.cancel_merge {
        slurm::cancel(TaskId::job(job))?;
        println!("cancelled merge job {job}: it waited for a task that did not succeed");
    }
    let mut submission = Submission {
        array_job: None,
        shards: Vec::new(),
        merge_job: None,
    };
    if !plan.shards.is_empty() {
        let mut options = vec![format!("--array={}", task_list(&plan.shards))];
        options.extend(args.sbatch_args.iter().cloned());
        let array = slurm::submit(&dir.shard_script(), &options)?;
        submission.array_job = Some(array);
        submission.shards = plan.shards.clone();
        study.submissions.push(submission.clone());
        dir.save(&study)?;
        println!(
            "array job {array}: shards {} (each resumes its rows)",
            task_list(&plan.shards)
        );
    }
    let waits: Vec<String> = submission
        .array_job
        .map(|a| a.to_string())
        .into_iter()
        .chain(plan.wait_for.iter().map(ToString::to_string))
        .collect();
    let mut options = args.sbatch_args.clone();
    if !waits.is_empty() {
        options.push(format!("--dependency=afterok:{}", waits.join(":")));
    }
    let merge = slurm::submit(&dir.merge_script(), &options)?;
    match study.submissions.last_mut() {
        Some(last) if submission.array_job.is_some() => last.merge_job = Some(merge),
        _ => study.submissions.push(Submission {
            merge_job: Some(merge),
            ..submission
        }),
    }
    dir.save(&study)?;
    if waits.is_empty() {
        println!("merge job {merge}: every shard is finished");
    } else {
        println!("merge job {merge}: after {} succeed", waits.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// Shards as an sbatch `--array` list: `1-4,7,9-10`.
fn task_list(shards: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < shards.len() {
        let first = shards[i];
        let mut last = first;
        while i + 1 < shards.len() && shards[i + 1] == last + 1 {
            i += 1;
            last = shards[i];
        }
        parts.push(if first == last {
            first.to_string()
        } else {
            format!("{first}-{last}")
        });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_lists_compress_runs() {
        assert_eq!(task_list(&[1, 2, 3, 4]), "1-4");
        assert_eq!(task_list(&[1, 3, 4, 7]), "1,3-4,7");
        assert_eq!(task_list(&[5]), "5");
    }
}
