//! `et shrink`: a smaller formula of the same grammar that still shows a verdict.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use et_core::enumeration::FormulaParser;
use et_core::oracle::{default_references, PoolSolver, Verdict};
use et_core::triage::calls::{CallLimits, Caller};
use et_core::triage::shrink::{needs_reference, shrink, Budget, Goal};

use super::grammar_arg::{BadInput, GrammarArg};
use super::triage::{installed_pool, jobs, parse_seconds, read_formula};

/// Reduce a bug trigger to a smaller formula of its grammar that still shows the same
/// verdict on the same solver, and print it (stdout) with its index (stderr).
///
/// Subterms are replaced, from the root down, by smaller terms of the same grammar
/// rule — the rule's smallest terms first, in enumeration order, and the subterm's own
/// same-rule parts — while the verdict still shows, so every step is a formula of the
/// grammar (`et rank` accepts it). `unsound` keeps the wrong answer (unsat stays
/// unsat) and `crash` the crash signature. Verdicts judged against a reference
/// (unsound, timeout, unknown) run the reference on every candidate: --reference NAME,
/// else the newest release of the other family in the pool, as `et run` picks it. The
/// final formula is run again in fresh processes to confirm it.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et shrink bug.smt2 --grammar ints --solver z3-4.8.7 --keep invalid_model
  et index -g ints 10^30 | et shrink - -g ints --solver z3-4.8.5 --keep unsound --reference cvc5-1.4.2
  et shrink slow.smt2 -g strings --solver cvc5-1.4.2 --keep timeout --timeout 2 --jobs 4

Accepted steps are printed on stderr (size, index, formula), the result on stdout.")]
pub struct Args {
    /// The trigger: an .smt2 file (one formula of the grammar), or `-` for stdin.
    #[arg(value_name = "FORMULA")]
    formula: PathBuf,
    #[command(flatten)]
    grammar: GrammarArg,
    /// The solver that shows the verdict (a name from the pool).
    #[arg(long, value_name = "NAME")]
    solver: String,
    /// The verdict to keep: unsound, invalid_model, crash, timeout or unknown.
    #[arg(long, value_name = "VERDICT")]
    keep: String,
    /// The reference for unsound, timeout and unknown (default: ET's rule).
    #[arg(long, value_name = "NAME")]
    reference: Option<String>,
    /// Pool file (default: $ET_HOME/pool.toml).
    #[arg(long, value_name = "FILE")]
    pool: Option<PathBuf>,
    /// Wall-clock limit per call in seconds (decimal or a fraction like 1/64).
    #[arg(long, default_value = "10", value_name = "SECS")]
    timeout: String,
    /// Memory limit per call in MiB (address space).
    #[arg(long, value_name = "MB")]
    memory: Option<u64>,
    /// Candidates checked at a time (default: number of cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Stop after this many candidate checks and print the smallest formula so far.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    max_checks: u64,
    /// No step lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let verdict: Verdict = args
        .keep
        .parse()
        .map_err(|e: et_core::oracle::ParseLabelError| BadInput(format!("--keep: {e}")))?;
    let limits = CallLimits {
        timeout: parse_seconds(&args.timeout)?,
        memory_mb: args.memory,
    };
    let jobs = jobs(args.jobs)?;
    let mut enumeration = args.grammar.enumeration()?;
    let text = read_formula(&args.formula)?;
    let grammar = enumeration.grammar().clone();
    let term = FormulaParser::new(&grammar)
        .parse(&text)
        .map_err(|e| BadInput(format!("{}: {e}", args.formula.display())))?;
    let Some(pool) = installed_pool(args.pool.as_deref())? else {
        return Err(BadInput(
            "no solver pool: $ET_HOME/pool.toml does not exist (install solvers with \
             `et solvers install`, or give --pool FILE)"
                .into(),
        )
        .into());
    };
    let Some(solver) = pool.get(&args.solver).cloned() else {
        return Err(BadInput(format!(
            "--solver `{}` is not in the pool (solvers: {})",
            args.solver,
            pool.names().join(", ")
        ))
        .into());
    };
    let reference = if needs_reference(verdict) {
        let members: Vec<PoolSolver> = pool
            .solvers
            .iter()
            .map(|s| PoolSolver {
                name: &s.name,
                family: &s.family,
                version: &s.version,
            })
            .collect();
        let position = pool
            .solvers
            .iter()
            .position(|s| s.name == solver.name)
            .expect("the solver is in the pool");
        let references = default_references(&members, args.reference.as_deref())
            .map_err(|e| BadInput(e.to_string()))?;
        match references[position] {
            Some(r) => Some(pool.solvers[r].clone()),
            None => {
                return Err(BadInput(format!(
                    "--keep {verdict} needs a reference solver: give --reference NAME"
                ))
                .into())
            }
        }
    } else {
        None
    };
    let caller = Caller::new(jobs)?;
    let first = caller.fresh(&solver, &text, limits)?;
    let goal = Goal {
        solver,
        reference,
        verdict,
        status: (verdict == Verdict::Unsound && first.status.is_decided()).then_some(first.status),
        crash_signature: if verdict == Verdict::Crash {
            first.crash_signature.clone()
        } else {
            None
        },
        limits,
    };
    let original = enumeration.text(&term);
    if !goal.shows(&caller, &original, true)? {
        let reference = match &goal.reference {
            Some(r) => format!(
                "; the reference {} answers {}",
                r.name,
                caller.cached(r, &original, limits)?.describe()
            ),
            None => String::new(),
        };
        return Err(BadInput(format!(
            "{} does not show `{verdict}` on {}: it answers {}{reference}",
            args.formula.display(),
            goal.solver.name,
            first.describe()
        ))
        .into());
    }
    let start_index = enumeration.rank(&term);
    let start_size = term.size;
    if !args.quiet {
        eprintln!(
            "et: shrink: start: size {start_size}, index {start_index}, {} {} shows `{verdict}`",
            goal.solver.name,
            first.describe()
        );
    }
    let quiet = args.quiet;
    let mut steps = 0;
    let shrunk = shrink(
        &mut enumeration,
        term,
        &goal,
        &caller,
        Budget {
            max_checks: args.max_checks,
            jobs,
        },
        &mut |step| {
            steps += 1;
            if !quiet {
                eprintln!(
                    "et: shrink: step {steps}: size {}, index {}: {}",
                    step.size, step.index, step.text
                );
            }
        },
    )?;
    let confirmed = goal.shows(&caller, &shrunk.text, true)?;
    println!("{}", shrunk.text);
    eprintln!(
        "et: shrink: size {start_size} → {}, index {}, after {} checks{}",
        shrunk.term.size,
        shrunk.index,
        shrunk.checks,
        if shrunk.exhausted {
            " (--max-checks reached: a smaller formula may exist)"
        } else {
            ""
        }
    );
    if !confirmed {
        anyhow::bail!(
            "the smallest formula did not show `{verdict}` again when re-run in fresh \
             processes: {} may be flaky on it",
            goal.solver.name
        );
    }
    if !args.quiet {
        eprintln!("et: shrink: re-run in fresh processes: it shows `{verdict}`");
    }
    Ok(ExitCode::SUCCESS)
}
