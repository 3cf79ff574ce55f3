//! `et plot`: evolution figures (SVG or PNG) from run directories.

use std::path::PathBuf;
use std::process::ExitCode;

use et_core::report::plot::{write_plots, Format};
use et_core::report::stats::DEFAULT_WINDOW;

/// Image format of the figures.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// Scalable vector graphics.
    Svg,
    /// Portable network graphics, 1200 px wide.
    Png,
}

/// Flags of `et plot`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  et plot results/core                      # figures in results/core/plots/
  et plot results/core results/strings --out plots
  et plot results/shard-* --out plots --format png --timeouts 1/64,8

Writes bugs, solved, time and throughput figures: one panel per grammar, solver
versions in release order on the x axis, families side by side. The solved figure
shows the lowest and the highest timeout of --timeouts.")]
pub struct Args {
    /// Run directories written by `et run`.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Folder for the figure files, created if missing (default: the first DIR's
    /// `plots/`).
    #[arg(long, value_name = "PLOTDIR")]
    pub out: Option<PathBuf>,
    /// Image format.
    #[arg(long, value_enum, default_value = "svg")]
    pub format: FormatArg,
    /// Timeouts in seconds; the solved figure uses the lowest and the highest.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1/64,1/32,1/16,1/8,1/4,1/2,1,2,4,8"
    )]
    pub timeouts: String,
    /// Formulas the per-formula join keeps in memory before spilling to a temp file.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW)]
    pub window: usize,
}

/// Runs `et plot`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let timeouts = et_core::report::timeouts::parse_timeouts(&args.timeouts)?;
    let report = super::report::load(&args.dirs, timeouts, args.window)?;
    let format = match args.format {
        FormatArg::Svg => Format::Svg,
        FormatArg::Png => Format::Png,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.dirs[0].join("plots"));
    for path in write_plots(&report, &out, format)? {
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
