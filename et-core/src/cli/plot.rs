//! `et plot`: evolution figures (SVG or PNG) from run directories.

use std::path::PathBuf;
use std::process::ExitCode;

use et_core::report::plot::{write_plots, Format, PlotSize, HEIGHT_RANGE, WIDTH_RANGE};

use super::aggregation::{load, Aggregation};

/// Image format of the figures.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// Scalable vector graphics (text stays text).
    Svg,
    /// Portable network graphics.
    Png,
}

/// Flags of `et plot`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  et plot results/core                      # figures in results/core/plots/
  et plot results/core results/strings --out plots
  et plot results/core-shard-* --out plots --format png --timeouts 1/64,8
  et plot results/evolution/runs/* --out figures --clock cpu --width 2400

Writes bugs, findings, solved, time and throughput figures: one row of panels per grammar, one
column per solver family, versions in release order on the x axis. Every panel states N
(formulas per solver) and T (the run's timeout). bugs: unsound, invalid model and crash
counts on a log axis; findings: validator false alarms and timeout/unknown verdicts on
a log axis; solved: sat/unsat without a bug verdict within the lowest timeout
of --timeouts (bars) and the highest one the run measured (line); time: cumulative time
on the formulas every version of the family solved; throughput: solved formulas per
second. Colours are Okabe-Ito (colour-blind-safe) and every line has its own marker.
The height fits the panels unless --height is given; a size too small for the labels
is refused with the size needed.")]
pub struct Args {
    /// Run directories written by `et run` or `et merge`.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Folder for the figure files, created if missing (default: the first DIR's
    /// `plots/`).
    #[arg(long, value_name = "PLOTDIR")]
    pub out: Option<PathBuf>,
    /// Image format.
    #[arg(long, value_enum, default_value = "svg")]
    pub format: FormatArg,
    #[command(flatten)]
    pub aggregation: Aggregation,
    /// Figure width in pixels (text sizes are fixed: 14.5 px and up).
    #[arg(long, value_name = "PX", default_value_t = et_core::report::plot::DEFAULT_WIDTH,
          value_parser = clap::value_parser!(u32).range(i64::from(WIDTH_RANGE.0)..=i64::from(WIDTH_RANGE.1)))]
    pub width: u32,
    /// Figure height in pixels (default: what the panels need).
    #[arg(long, value_name = "PX",
          value_parser = clap::value_parser!(u32).range(i64::from(HEIGHT_RANGE.0)..=i64::from(HEIGHT_RANGE.1)))]
    pub height: Option<u32>,
}

/// Runs `et plot`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = load(&args.dirs, &args.aggregation)?;
    let format = match args.format {
        FormatArg::Svg => Format::Svg,
        FormatArg::Png => Format::Png,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.dirs[0].join("plots"));
    let size = PlotSize {
        width: args.width,
        height: args.height,
    };
    let written = write_plots(&report, &out, format, size)?;
    for path in &written.paths {
        println!("{}", path.display());
    }
    for warning in &written.warnings {
        eprintln!("et: warning: {warning}");
    }
    Ok(ExitCode::SUCCESS)
}
