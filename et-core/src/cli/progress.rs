//! Progress of a run on stderr: an indicatif bar on a terminal, a plain line every ten
//! seconds otherwise (logs of cluster jobs), nothing when quiet; the campaign's
//! [`Observer`]. Results (the summary table) are not progress: they go to stdout.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use et_core::campaign::progress::Observer;
use et_core::campaign::summary::Summary;
use et_core::oracle::Verdict;

/// How progress is shown.
pub enum Progress {
    /// A live bar.
    Bar(ProgressBar),
    /// Periodic lines.
    Lines {
        /// Formulas to do in this run.
        total: u64,
        /// Done so far (including earlier runs).
        done: u64,
        /// When the run started.
        started: Instant,
        /// When the last line was printed.
        last: Instant,
    },
    /// Nothing.
    Quiet,
}

impl Progress {
    /// A bar if stderr is a terminal, else periodic lines; `quiet` shows nothing.
    pub fn for_stderr(quiet: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {pos}/{len} formulas, ETA {eta} {msg}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            Progress::Bar(bar)
        } else {
            Progress::Lines {
                total: 0,
                done: 0,
                started: Instant::now(),
                last: Instant::now(),
            }
        }
    }
}

impl Observer for Progress {
    fn start(&mut self, total: u64, already: u64) {
        match self {
            Progress::Bar(bar) => {
                bar.set_length(total);
                bar.set_position(already);
                bar.reset_eta();
            }
            Progress::Lines { total: t, done, .. } => {
                *t = total;
                *done = already;
            }
            Progress::Quiet => {}
        }
    }

    fn formula_done(&mut self, summary: &Summary) {
        match self {
            Progress::Bar(bar) => {
                bar.inc(1);
                let rate = summary.calls() as f64 / bar.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{rate:.0} calls/s {}", verdict_counts(summary)));
            }
            Progress::Lines { done, .. } => {
                *done += 1;
                self.tick(summary);
            }
            Progress::Quiet => {}
        }
    }

    /// Prints a line if ten seconds passed.
    fn tick(&mut self, summary: &Summary) {
        if let Progress::Lines {
            total,
            done,
            started,
            last,
        } = self
        {
            if last.elapsed() >= Duration::from_secs(10) {
                *last = Instant::now();
                let rate = summary.formulas as f64 / started.elapsed().as_secs_f64().max(1e-9);
                eprintln!(
                    "et: {done}/{total} formulas, {rate:.1}/s {}",
                    verdict_counts(summary)
                );
            }
        }
    }

    /// Clears the bar (the summary is the caller's to print, on stdout).
    fn finish(&mut self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }

    /// Said even when quiet.
    fn warning(&mut self, text: &str) {
        eprintln!("et: warning: {text}");
    }

    fn note(&mut self, text: &str) {
        if !matches!(self, Progress::Quiet) {
            eprintln!("et: {text}");
        }
    }
}

fn verdict_counts(summary: &Summary) -> String {
    let parts: Vec<String> = Verdict::ALL
        .iter()
        .map(|v| (v, summary.verdict_total(*v)))
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{v}: {n}"))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("[{}]", parts.join(", "))
    }
}

/// How often a line of progress within a step is printed when stderr is not a
/// terminal (logs of cluster jobs): as `et run` does.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// Progress of a command made of steps that run solvers (`et triage`, `et bisect`):
/// a line per step on stderr, and within a step a bar on a terminal or a line every
/// ten seconds otherwise; with `quiet`, the warnings only.
pub struct Steps {
    /// `triage`, `bisect`: the word after `et:` on each line.
    command: &'static str,
    shown: Shown,
}

/// How progress within a step is shown.
enum Shown {
    /// A bar while a step runs.
    Bar(Option<ProgressBar>),
    /// A line now and then: when the step started and when the last line was printed.
    Lines { started: Instant, last: Instant },
    /// Nothing.
    Quiet,
}

impl Steps {
    /// Bars on a terminal, else lines; nothing but warnings when `quiet`.
    pub fn for_stderr(command: &'static str, quiet: bool) -> Steps {
        let shown = if quiet {
            Shown::Quiet
        } else if std::io::stderr().is_terminal() {
            Shown::Bar(None)
        } else {
            Shown::Lines {
                started: Instant::now(),
                last: Instant::now(),
            }
        };
        Steps { command, shown }
    }

    /// Clears a bar being drawn (a line is about to be printed, or the step ended).
    fn clear(&mut self) {
        if let Shown::Bar(bar) = &mut self.shown {
            if let Some(bar) = bar.take() {
                bar.finish_and_clear();
            }
        }
    }

    /// `done` of `total` items of the current step are done.
    pub fn advance(&mut self, done: u64, total: u64) {
        match &mut self.shown {
            Shown::Bar(bar) => {
                if done >= total {
                    self.clear();
                    return;
                }
                let bar = bar.get_or_insert_with(|| {
                    let bar =
                        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                    bar.set_style(
                        ProgressStyle::with_template(
                            "{elapsed_precise} [{wide_bar}] {pos}/{len}, ETA {eta}",
                        )
                        .expect("valid template")
                        .progress_chars("=> "),
                    );
                    bar
                });
                bar.set_length(total);
                bar.set_position(done);
            }
            Shown::Lines { started, last } => {
                if done == 0 {
                    *started = Instant::now();
                    *last = Instant::now();
                } else if done < total && last.elapsed() >= LINE_EVERY {
                    *last = Instant::now();
                    eprintln!(
                        "et: {}: {done}/{total} done ({:.0} s into this step)",
                        self.command,
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            Shown::Quiet => {}
        }
    }

    /// A line of its own: a step begins.
    pub fn line(&mut self, text: &str) {
        self.clear();
        if !matches!(self.shown, Shown::Quiet) {
            eprintln!("et: {}: {text}", self.command);
        }
    }
}

impl et_core::triage::Progress for Steps {
    fn step(&mut self, text: &str) {
        self.line(text);
    }

    /// Said even when quiet.
    fn warning(&mut self, text: &str) {
        self.clear();
        eprintln!("et: warning: {text}");
    }

    fn advance(&mut self, done: u64, total: u64) {
        Steps::advance(self, done, total);
    }
}
