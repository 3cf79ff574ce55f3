//! `et run`: the differential campaign.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use clap::Args as ClapArgs;

use et_core::campaign::runner::Campaign;
use et_core::judging::CallMode;
use et_core::oracle::Verdict;

use super::campaign_args::{prepare, CampaignArgs};
use super::notes::note_supervision;

/// Stream the N smallest formulas of a grammar to a pool of solvers, cross-check the
/// answers and log every call to DIR/runs.csv.
///
/// Each solver is judged against a reference: by default the pool's [[reference]]
/// rules, then et's study rule (z3 <= 4.8.10 on strings is judged by the newest z3
/// without Unicode strings), then ET's rule (the newest release of the other family).
/// et also judges by itself: it asks each solver for its model after `sat` (pool entry
/// `models`, on by default for z3/cvc5/cvc4/yices) and evaluates the formula under it,
/// and it searches small values for a witness of the formula (a witness makes `unsat`
/// unsound, reference or not). The `evidence` column says which check established a
/// verdict: model, self-check, witness or reference.
/// Correctness bugs are saved under DIR/bugs/. Ctrl-C stops cleanly (exit 130);
/// --resume continues exactly where a run stopped, even after `kill -9`, and refuses
/// any change to the study but a larger --n (which grows it). With --fail-on, a
/// completed run that found one of those
/// verdicts exits 3 (for CI).
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et run --grammar core --n 400 --timeout 8 --out results/core-400
  et run --grammar strings --n 1000 --solvers z3-4.16.0,cvc5-1.4.2 --timeout 8
  et run --grammar strings --n 500 --solvers pool.toml --timeout 1/4 --jobs 8
  et run --grammar ints --n 1600 --shard 3/16 --timeout 8 --out results/ints-3   # task 3 of 16
  et run --grammar core --n 400 --timeout 8 --out results/core-400 --resume
  et run --resume --out results/core-400          # the rest of the study from its run.toml
  et run --grammar strings --n 500 --timeout 1 --solvers z3-4.16.0 --reference cvc5-1.4.2 \\
      --reference-cache ~/.cache/et/strings-refs.csv --fail-on unsound,invalid_model,crash \\
      --out ci/strings
  et run -g ints --n 500 --timeout 2 --solvers z3-4.16.0 --reference z3-4.8.10,cvc5 --out ci/ints
  et run --grammar ints --n 200 --timeout 8 --cpu-timeout 4 --memory 2048 --out results/ints
  et run -g ints --n 500 --timeout 2 --solvers mysolver.toml --out ci/alone   # no reference needed
  et run -g ints --n 200 --timeout 8 --configurations z3-4.16.0:curated --out results/ints-modes
  et run --grammar strings --n 10 --timeout 2 --configurations cvc5-1.4.2:single:20,z3-4.16.0:9..40
  et run -g ints --n 100 --timeout 8 --configurations z3-4.16.0:tactics:20 --out ints-tactics
  et run --grammar reals --n 100 --timeout 8 --witness-bound 20 --out results/reals
  et run -g fp --n 100 --timeout 8 --no-models --no-witness --out results/fp   # ET's oracle alone

Each solver call runs in a cgroup of its own where the machine allows it (run.toml
records `supervision`): the timeout kills the solver's whole process tree, --memory
limits the tree's memory, and CPU time and peak memory are the tree's totals. Where
cgroups are not usable, et says so once and uses a process group per call.

The summary table goes to stdout, progress and notes to stderr. Exit codes: 0 done,
1 failure while running (e.g. a full disk), 2 bad input or a refusal (nothing is
written), 3 a completed run found a verdict named by --fail-on, 130 interrupted
(continue with --resume).")]
pub struct Args {
    #[command(flatten)]
    campaign: CampaignArgs,
}

/// Set by SIGINT/SIGTERM; the campaign polls it and kills in-flight calls.
static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_signal(_: libc::c_int) {
    if let Some(flag) = CANCEL.get() {
        flag.store(true, Ordering::SeqCst);
    }
}

fn install_signal_handlers() -> Arc<AtomicBool> {
    let flag = CANCEL
        .get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic that is initialised first.
        unsafe {
            libc::signal(signal, on_signal as *const () as libc::sighandler_t);
        }
    }
    flag
}

/// Runs `et run`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let args = args.campaign;
    let (campaign, enumeration) = prepare(&args)?;
    let out = campaign.out.clone();
    note_supervision();
    if campaign.mode == CallMode::Session {
        warn_of_stale_drivers(&campaign)?;
    }
    let cancel = install_signal_handlers();
    let mut progress = super::progress::Progress::for_stderr(args.quiet);
    let summary = campaign.run(enumeration, cancel, &mut progress)?;
    if summary.nothing_to_do() {
        eprintln!(
            "et: nothing to do: all {} formulas of {} have their rows (`et report {}` \
             gives its tables)",
            summary.planned,
            out.display(),
            out.display()
        );
    } else if !args.quiet {
        // Results on stdout; a reader that went away (`| head`) is not an error.
        let _ = writeln!(std::io::stdout().lock(), "{}", summary.table());
    }
    if summary.interrupted {
        eprintln!(
            "et: interrupted: finished rows are kept in {}; continue with `et run --resume --out {}`",
            out.display(),
            out.display()
        );
        return Ok(ExitCode::from(super::EXIT_INTERRUPTED));
    }
    if !args.quiet && !summary.nothing_to_do() {
        eprintln!("et: results in {}", out.display());
        // What a user does next, with the directory just written.
        eprintln!(
            "et: next: `et report {dir}` for tables, `et triage {dir}` to confirm the \
             findings and write the reports to file",
            dir = out.display()
        );
    }
    if !args.fail_on.is_empty() && found_a_verdict(&out, &args.fail_on)? {
        return Ok(ExitCode::from(super::EXIT_VERDICT_FOUND));
    }
    Ok(ExitCode::SUCCESS)
}

/// Says which solvers run fresh in a session campaign because their program is et's
/// driver from an older et, which cannot run a session (said, not dropped silently:
/// run.toml records `session = false` for them).
fn warn_of_stale_drivers(campaign: &Campaign) -> anyhow::Result<()> {
    let judges = campaign.judges()?;
    let mut called: Vec<&et_core::solvers::SolverConfig> = campaign
        .under_test
        .iter()
        .chain(judges.values().flatten())
        .collect();
    called.sort_by(|a, b| a.name.cmp(&b.name));
    called.dedup_by(|a, b| a.name == b.name);
    for s in called
        .into_iter()
        .filter(|s| et_core::solvers::install::stale_driver(s))
    {
        eprintln!(
            "et: warning: {} runs fresh: its program {} is et's driver from an older et, \
             which cannot run a session; `et solvers install {}@{}` refreshes it",
            s.name,
            s.program(),
            s.family,
            s.version
        );
    }
    Ok(())
}

/// `--fail-on`: whether the completed run in `out` holds a call with one of `verdicts`
/// (said on stderr, with where its triggers are).
fn found_a_verdict(out: &Path, verdicts: &[Verdict]) -> anyhow::Result<bool> {
    let counts = et_core::campaign::gate::count_verdicts(&out.join("runs.csv"), verdicts)?;
    let found: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{n} {}", v.label()))
        .collect();
    if found.is_empty() {
        return Ok(false);
    }
    // Only correctness verdicts save a trigger file under bugs/; a timeout or unknown is
    // a row of runs.csv, which triage confirms.
    let saved = counts.iter().any(|(v, n)| *n > 0 && v.is_bug());
    let where_ = if saved {
        format!(
            "triggers of correctness verdicts under {}/bugs/",
            out.display()
        )
    } else {
        format!("`et triage {}` confirms them", out.display())
    };
    eprintln!(
        "et: --fail-on: {} in {} ({where_})",
        found.join(", "),
        out.join("runs.csv").display(),
    );
    Ok(true)
}
