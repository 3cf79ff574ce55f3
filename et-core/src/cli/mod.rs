//! Subcommands of `et`. Each command module owns one subcommand: its flags, help text
//! with examples, and the glue from flags to the library. Commands call the library
//! and the command line's shared modules, never each other: `args` (value parsers and
//! the flags of solver calls), `aggregation` (the flags of `et report` and `et plot`),
//! `campaign_args` (the flags of a campaign), `grammar_arg`, `inputs` (pools and
//! formula files), `notes` (notes on stderr), `numeric`, `output` and `progress`. No
//! logic lives here that a library user would also need.

mod aggregation;
mod args;
mod campaign_args;
mod count;
mod enumerate;
mod eval;
mod grammar;
mod grammar_arg;
mod grammars;
mod index;
mod inputs;
mod notes;
mod numeric;
mod options;
mod output;
mod rank;
mod sample;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bisect;
mod completions;
mod file;
mod merge;
mod plot;
mod progress;
mod report;
mod run;
mod shrink;
mod triage;

pub use completions::complete_if_asked;
pub use grammar_arg::BadInput;
mod slurm;
mod solvers;

/// Exit code of a failure while working: an unreadable or unwritable file (a full
/// disk), a solver pool that cannot be installed, a failed solver check.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of bad input and of every refusal: a malformed grammar, pool, run.toml or
/// runs.csv (with file:line:column), a bad argument value, a path that does not exist,
/// a solver that cannot start, `--resume` of a changed study, a run directory that
/// already holds a campaign or is held by another run. Nothing is written then.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code of a completed `et run --fail-on V,...` that found a call with verdict V:
/// the run itself succeeded (a CI gate), distinct from every failure.
pub const EXIT_VERDICT_FOUND: u8 = 3;
/// Exit code of `et eval` when the formula is false under the model (a finding, like
/// [`EXIT_VERDICT_FOUND`], not a failure of et).
pub const EXIT_EVAL_FALSE: u8 = 3;
/// Exit code of `et eval` when the formula's truth is undetermined under the model, or
/// no witness was found within the bound.
pub const EXIT_EVAL_UNDETERMINED: u8 = 4;
/// Exit code of a run stopped by SIGINT/SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

#[derive(Parser)]
#[command(
    name = "et",
    version,
    about = "Test SMT solvers on the smallest formulas of a theory grammar",
    long_about = "et enumerates the N smallest formulas of an SMT theory grammar (FEAT order), \
runs them through a pool of solver versions, cross-checks the answers and logs \
correctness and performance to CSV.",
    after_help = "Examples:
  et grammars
  et grammar check my.pest
  et enumerate --grammar strings --n 1000000 > /dev/null
  et index --grammar strings 123456789012345678
  et count --grammar core --max-size 8
  et rank --grammar core formulas.txt
  et solvers install z3@4.13.0 cvc5@1.4.2
  et options list z3-4.16.0
  et run --grammar core --n 400 --timeout 8 --out results/core
  et report results/core
  et plot results/core --out plots
  et slurm submit --grammar core --n 100000 --timeout 8 --shards 16 --out /scratch/core
  et triage results/core
  z3 -model bug.smt2 > z3.out; et eval bug.smt2 --model z3.out
  et bisect bug.smt2 --family z3 --expect sat
  et shrink bug.smt2 --grammar ints --solver z3-4.8.7 --keep validator_false_alarm
  et completions bash > ~/.local/share/bash-completion/completions/et
  et man | man -l -"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Grammars(grammars::Args),
    Grammar(grammar::Args),
    Enumerate(enumerate::Args),
    Index(index::Args),
    Count(count::Args),
    Sample(sample::Args),
    Rank(rank::Args),
    // The usage line clap derives (`et run [OPTIONS]`) hides that a new run needs
    // these three.
    #[command(
        override_usage = "et run --grammar <NAME|FILE> --n <N> --timeout <SECS> [OPTIONS]\n       \
                                et run --resume --out <DIR> [OPTIONS]"
    )]
    Run(Box<run::Args>),
    /// Evaluate a formula under a solver's model, or search for a witness.
    Eval(eval::Args),
    /// Tables of bug triggers, solved formulas, time and regressions from run directories.
    Report(report::Args),
    /// Evolution figures (SVG/PNG) from run directories.
    Plot(plot::Args),
    /// Join the shard directories of one study into one run directory.
    Merge(merge::Args),
    /// Install solver releases side by side, list and check solver pools.
    Solvers(solvers::Args),
    /// A solver release's options, and the configurations et enumerates from them.
    Options(options::Args),
    /// Run a study on a Slurm cluster: a job array of shards, a merge, resubmission.
    Slurm(slurm::Args),
    /// Confirm, group and rank the bug triggers of run directories into a report.
    Triage(triage::Args),
    /// The reports to file, one per root cause, from the reports of several triages.
    File(file::Args),
    /// Run one formula on every installed version of a family: where it changed.
    Bisect(bisect::Args),
    /// Reduce a trigger to a smaller formula of its grammar with the same verdict.
    Shrink(shrink::Args),
    /// Print a shell completion script (bash, zsh, fish).
    Completions(completions::Args),
    /// Print et's man page (roff).
    Man(completions::ManArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Grammars(args) => grammars::run(args),
        Command::Grammar(args) => grammar::run(args),
        Command::Enumerate(args) => enumerate::run(args),
        Command::Index(args) => index::run(args),
        Command::Count(args) => count::run(args),
        Command::Sample(args) => sample::run(args),
        Command::Rank(args) => rank::run(args),
        Command::Run(args) => run::run(*args),
        Command::Eval(args) => eval::run(args),
        Command::Report(args) => report::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Solvers(args) => solvers::run(args),
        Command::Options(args) => options::run(args),
        Command::Slurm(args) => slurm::run(args),
        Command::Triage(args) => triage::run(args),
        Command::File(args) => file::run(args),
        Command::Bisect(args) => bisect::run(args),
        Command::Shrink(args) => shrink::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => completions::man(args),
    }
}

/// Prints an error chain on stderr, `et: error: ...` and a `caused by:` line per cause
/// that says something new ([`causes`]), and returns its exit code ([`exit_code`]).
pub fn report_error(err: &anyhow::Error) -> ExitCode {
    if is_grammar_error(err) {
        // One `et: error: ` line per problem of the grammar.
        for line in err.to_string().lines() {
            let line = line.strip_prefix("error: ").unwrap_or(line);
            eprintln!("et: error: {line}");
        }
    } else {
        eprintln!("et: error: {err}");
    }
    for cause in causes(err) {
        eprintln!("  caused by: {cause}");
    }
    ExitCode::from(exit_code(err))
}

/// Whether an error is a grammar's problems: a [`GrammarError`], itself or as the
/// error a [`PrepareError`] passes on.
///
/// [`GrammarError`]: et_core::grammar::GrammarError
/// [`PrepareError`]: et_core::campaign::PrepareError
fn is_grammar_error(err: &anyhow::Error) -> bool {
    use et_core::grammar::GrammarError;
    err.is::<GrammarError>()
        || err
            .downcast_ref::<et_core::campaign::PrepareError>()
            .and_then(|e| e.passed_on())
            .is_some_and(|e| e.is::<GrammarError>())
}

/// Prints what clap found on the command line and returns its exit code: help and
/// `--version` as clap prints them (stdout, exit 0; help for a missing subcommand on
/// stderr, exit 2), and a usage error as every error of et is printed, `et: error: `
/// where clap writes a bare `error: `, followed by clap's tip and usage lines (exit 2).
pub fn report_usage_error(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let is_help = matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if is_help {
        // A closed stdout (`et --help | head -1`) is no error of et's.
        let _ = err.print();
        return if err.use_stderr() {
            ExitCode::from(EXIT_BAD_INPUT)
        } else {
            ExitCode::SUCCESS
        };
    }
    // Display drops clap's styles: et's own error lines are plain text too.
    let text = err.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    eprint!("et: error: {text}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// The causes of an error worth a `caused by:` line: each distinct text once, and none
/// that a line before it already says (a message that quotes its OS error, followed by
/// that OS error as its source).
fn causes(err: &anyhow::Error) -> Vec<String> {
    let mut said = vec![err.to_string()];
    let mut out = Vec::new();
    for cause in err.chain().skip(1) {
        let text = cause.to_string();
        if text.is_empty() || said.iter().any(|s| s.contains(&text)) {
            continue;
        }
        said.push(text.clone());
        out.push(text);
    }
    out
}

/// The exit code of an error: [`EXIT_BAD_INPUT`] if any cause in its chain is bad input
/// or a refusal, else [`EXIT_FAILURE`]. This is the one place that decides; commands
/// return their errors instead of choosing a code themselves.
///
/// A file that is not there is bad input (a path the user named: `et eval missing.smt2`,
/// `et rank -g core missing.txt`) unless an error of et's above it in the chain judged
/// it a failure: et's libraries say which of their missing files are the user's (a run
/// directory that is not there) and which are a failure to write (a campaign's
/// `CampaignError::Io`).
pub fn exit_code(err: &anyhow::Error) -> u8 {
    let mut judged_a_failure = false;
    for cause in err.chain() {
        match fault(cause) {
            Fault::Input => return EXIT_BAD_INPUT,
            Fault::Missing if !judged_a_failure => return EXIT_BAD_INPUT,
            Fault::Machine => judged_a_failure = true,
            Fault::Missing | Fault::Unjudged => {}
        }
    }
    EXIT_FAILURE
}

/// What one cause of an error says about whose fault the error is.
enum Fault {
    /// The user's input, or a refusal.
    Input,
    /// An error of et's that judged itself a failure of et or of the machine.
    Machine,
    /// A file or directory that does not exist, not judged by an error of et's.
    Missing,
    /// Says nothing: a context line, an error of another crate.
    Unjudged,
}

/// Whose fault one cause of an error is (see [`exit_code`]).
fn fault(cause: &(dyn std::error::Error + 'static)) -> Fault {
    use et_core::campaign::ledger::LedgerError;
    use et_core::campaign::{CampaignError, PrepareError};
    use et_core::report::ReportError;
    use et_core::solvers::install::InstallError;
    use et_core::solvers::PoolError;
    let judged = |bad_input: bool| {
        if bad_input {
            Fault::Input
        } else {
            Fault::Machine
        }
    };
    let not_found = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    // A pool file that is malformed or names an unknown solver, or that is not there.
    let bad_pool = |e: &PoolError| match e {
        PoolError::Io { source, .. } => not_found(source),
        PoolError::Syntax { .. } | PoolError::UnknownSolver { .. } | PoolError::Empty { .. } => {
            true
        }
    };
    if let Some(e) = cause.downcast_ref::<PoolError>() {
        return judged(bad_pool(e));
    }
    if let Some(e) = cause.downcast_ref::<std::io::Error>() {
        return match e.kind() {
            // An output folder the user named where a file is (`--out FILE`,
            // `--out-dir FILE`): creating it fails with one of these.
            std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotADirectory => Fault::Input,
            std::io::ErrorKind::NotFound => Fault::Missing,
            _ => Fault::Unjudged,
        };
    }
    if cause.is::<BadInput>()
        || cause.is::<et_core::grammar::GrammarError>()
        || cause.is::<et_core::campaign::plan::ShardError>()
        || cause.is::<et_core::enumeration::IndexError>()
        || cause.is::<et_core::solvers::reference_rules::ReferenceError>()
        || cause.is::<et_core::builtins::BadLogic>()
    {
        return Fault::Input;
    }
    if let Some(e) = cause.downcast_ref::<CampaignError>() {
        return judged(e.is_bad_input());
    }
    if let Some(e) = cause.downcast_ref::<PrepareError>() {
        // The error it passes on says whose fault it is; an OS error, its source.
        return match e.passed_on() {
            Some(passed_on) => fault(passed_on),
            None if e.is_refusal() => Fault::Input,
            None => Fault::Unjudged,
        };
    }
    if cause.is::<et_core::campaign::ScratchError>() {
        return Fault::Machine;
    }
    if let Some(e) = cause.downcast_ref::<LedgerError>() {
        return judged(matches!(e, LedgerError::Row { .. }));
    }
    if let Some(e) = cause.downcast_ref::<InstallError>() {
        if let InstallError::Pool(e) = e {
            return judged(bad_pool(e));
        }
        // A version PyPI lacks or et cannot use fails its spec alone (exit 1, the
        // others installed); only a malformed spec refuses the whole command.
        return judged(matches!(
            e,
            InstallError::BadSpec { .. } | InstallError::BadLocal { .. }
        ));
    }
    if let Some(e) = cause.downcast_ref::<ReportError>() {
        return judged(e.is_bad_input());
    }
    if let Some(e) = cause.downcast_ref::<et_core::cluster::ClusterError>() {
        return judged(e.is_bad_input());
    }
    if let Some(e) = cause.downcast_ref::<et_core::solvers::options::OptionsError>() {
        return judged(e.is_bad_input());
    }
    if let Some(e) = cause.downcast_ref::<et_core::triage::TriageError>() {
        return judged(e.is_bad_input());
    }
    if let Some(e) = cause.downcast_ref::<et_core::filing::FilingError>() {
        return judged(e.is_bad_input());
    }
    Fault::Unjudged
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn each_cause_is_said_once() {
        let os = || std::io::Error::from_raw_os_error(libc::EACCES);
        let quoted = anyhow::Error::new(os())
            .context(format!("cannot write out/report.md: {}", os()))
            .context("cannot write out");
        assert_eq!(
            causes(&quoted),
            [format!("cannot write out/report.md: {}", os())],
            "the OS error is already in the line before it"
        );
        let twice = anyhow::Error::new(os())
            .context(os().to_string())
            .context("cannot write x");
        assert_eq!(causes(&twice), [os().to_string()]);
        let distinct = anyhow::Error::new(os()).context("cannot write x");
        assert_eq!(causes(&distinct), [os().to_string()]);
    }

    #[test]
    fn refusals_and_bad_input_exit_2_failures_exit_1() {
        use et_core::campaign::CampaignError;
        use et_core::report::ReportError;
        let io = |kind| std::io::Error::new(kind, "x");
        let bad: Vec<anyhow::Error> = vec![
            BadInput("--jobs".into()).into(),
            CampaignError::Exists {
                dir: PathBuf::from("d"),
            }
            .into(),
            CampaignError::Busy {
                dir: PathBuf::from("d"),
                pid: "7".into(),
            }
            .into(),
            anyhow::Error::from(ReportError::io(
                "/nonexistent",
                io(std::io::ErrorKind::NotFound),
            ))
            .context("reading /nonexistent"),
            ReportError::OutputExists {
                path: PathBuf::from("o"),
            }
            .into(),
            // A file the user named that is not there, read by the CLI itself.
            anyhow::Error::new(io(std::io::ErrorKind::NotFound)).context("cannot read f.smt2"),
        ];
        for e in &bad {
            assert_eq!(exit_code(e), EXIT_BAD_INPUT, "{e:#}");
        }
        let failures: Vec<anyhow::Error> = vec![
            anyhow::anyhow!("something broke"),
            CampaignError::Io {
                what: "cannot write to",
                path: PathBuf::from("runs.csv"),
                source: io(std::io::ErrorKind::Other),
            }
            .into(),
            ReportError::io("/x", io(std::io::ErrorKind::PermissionDenied)).into(),
            // A missing file that et's own error judged a failure stays one.
            anyhow::Error::from(CampaignError::Io {
                what: "cannot write to",
                path: PathBuf::from("gone/cache.csv"),
                source: io(std::io::ErrorKind::NotFound),
            })
            .context("writing the reference cache"),
        ];
        for e in &failures {
            assert_eq!(exit_code(e), EXIT_FAILURE, "{e:#}");
        }
    }

    #[test]
    fn a_campaign_that_cannot_be_prepared_exits_as_what_stopped_it() {
        use et_core::campaign::{CampaignError, PrepareError};
        use et_core::solvers::PoolError;
        let io = |kind| std::io::Error::new(kind, "x");
        let bad: Vec<anyhow::Error> = vec![
            PrepareError::Required { flag: "--n" }.into(),
            PrepareError::NothingToRun.into(),
            PrepareError::from(CampaignError::NothingToResume {
                dir: PathBuf::from("d"),
            })
            .into(),
            PrepareError::from(PoolError::Io {
                path: PathBuf::from("pool.toml"),
                source: io(std::io::ErrorKind::NotFound),
            })
            .into(),
            PrepareError::Io {
                what: "cannot resolve",
                path: Some(PathBuf::from("g.pest")),
                source: io(std::io::ErrorKind::NotFound),
            }
            .into(),
        ];
        for e in &bad {
            assert_eq!(exit_code(e), EXIT_BAD_INPUT, "{e:#}");
        }
        let failures: Vec<anyhow::Error> = vec![
            PrepareError::from(PoolError::Io {
                path: PathBuf::from("pool.toml"),
                source: io(std::io::ErrorKind::PermissionDenied),
            })
            .into(),
            PrepareError::from(CampaignError::Io {
                what: "cannot read",
                path: PathBuf::from("run.toml"),
                source: io(std::io::ErrorKind::NotFound),
            })
            .into(),
            PrepareError::Io {
                what: "cannot make a scratch directory",
                path: None,
                source: io(std::io::ErrorKind::PermissionDenied),
            }
            .into(),
        ];
        for e in &failures {
            assert_eq!(exit_code(e), EXIT_FAILURE, "{e:#}");
        }
        let grammar = et_core::builtins::load("/nonexistent/g.pest").unwrap_err();
        assert!(is_grammar_error(&PrepareError::from(grammar).into()));
    }
}
