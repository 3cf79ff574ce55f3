//! The evolution figures as data: which panels, which series, which values per
//! solver version. [`super::plot`] only draws what this module decides, so the
//! content of every figure is testable without rendering.

use crate::oracle::Verdict;

use super::stats::{Report, SolverGrammar};

/// One solver on the x axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    /// Axis label (the solver name, which carries the version).
    pub label: String,
    /// Family, for the gap between families.
    pub family: String,
    /// Position on the x axis: release order, one empty slot between families.
    pub x: i32,
}

/// One line of a panel: a value per category, `None` where there is nothing to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Index into the plot palette, stable per meaning (a verdict keeps its colour).
    pub colour: usize,
    /// One value per [`Figure::categories`] entry.
    pub values: Vec<Option<f64>>,
}

/// One panel (one grammar).
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Panel caption.
    pub title: String,
    /// The lines.
    pub series: Vec<Series>,
}

/// A figure file: a title, a shared x axis of solver versions, one panel per grammar.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File stem (`bugs` → `bugs.svg`).
    pub name: &'static str,
    /// Title above all panels.
    pub title: String,
    /// Y axis description.
    pub y_label: String,
    /// Logarithmic y axis (zero values are then left out).
    pub log_y: bool,
    /// The x axis.
    pub categories: Vec<Category>,
    /// One panel per grammar.
    pub panels: Vec<Panel>,
}

/// Palette slots, so each meaning has one colour in every figure.
pub mod colour {
    /// Unsound answers.
    pub const UNSOUND: usize = 0;
    /// Invalid models.
    pub const INVALID_MODEL: usize = 1;
    /// Crashes.
    pub const CRASH: usize = 2;
    /// Solved within the lowest timeout.
    pub const LOW_TIMEOUT: usize = 3;
    /// Solved within the highest timeout.
    pub const HIGH_TIMEOUT: usize = 4;
    /// Cumulative time.
    pub const TIME: usize = 5;
    /// Throughput.
    pub const THROUGHPUT: usize = 6;
}

fn categories(report: &Report) -> Vec<Category> {
    let mut out = Vec::new();
    let mut x = 0;
    for (i, s) in report.solvers.iter().enumerate() {
        if i > 0 && report.solvers[i - 1].family != s.family {
            x += 1;
        }
        out.push(Category {
            label: s.name.clone(),
            family: s.family.clone(),
            x,
        });
        x += 1;
    }
    out
}

/// What one series plots: a value per (solver, grammar) cell.
type Metric = Box<dyn Fn(&SolverGrammar) -> Option<f64>>;

/// A series before it is evaluated on each grammar.
struct SeriesSpec {
    label: String,
    colour: usize,
    value: Metric,
}

impl SeriesSpec {
    fn new(label: impl Into<String>, colour: usize, value: Metric) -> Self {
        SeriesSpec {
            label: label.into(),
            colour,
            value,
        }
    }
}

/// One panel per grammar with one series per spec.
fn panels(report: &Report, specs: &[SeriesSpec]) -> Vec<Panel> {
    (0..report.grammars.len())
        .map(|g| Panel {
            title: report.grammars[g].clone(),
            series: specs
                .iter()
                .map(|spec| Series {
                    label: spec.label.clone(),
                    colour: spec.colour,
                    values: (0..report.solvers.len())
                        .map(|s| report.cell(s, g).and_then(&spec.value))
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

/// Every figure of `et plot`, in file order.
pub fn figures(report: &Report) -> Vec<Figure> {
    let cats = categories(report);
    let bug_series: Vec<SeriesSpec> = Verdict::ALL
        .iter()
        .copied()
        .filter(|v| v.is_bug())
        .map(|v| {
            let colour = match v {
                Verdict::Unsound => colour::UNSOUND,
                Verdict::InvalidModel => colour::INVALID_MODEL,
                _ => colour::CRASH,
            };
            let value: Metric = Box::new(move |c| Some(c.verdict(v) as f64));
            SeriesSpec::new(v.label().replace('_', " "), colour, value)
        })
        .collect();

    let mut solved_series = Vec::new();
    if let Some(lo) = report.timeouts.first() {
        let value: Metric = Box::new(|c| c.solved.first().map(|n| *n as f64));
        solved_series.push(SeriesSpec::new(
            format!("within {} s", lo.label),
            colour::LOW_TIMEOUT,
            value,
        ));
    }
    if let (Some(hi), true) = (report.timeouts.last(), report.timeouts.len() > 1) {
        let value: Metric = Box::new(|c| c.solved.last().map(|n| *n as f64));
        solved_series.push(SeriesSpec::new(
            format!("within {} s", hi.label),
            colour::HIGH_TIMEOUT,
            value,
        ));
    }
    let joint_time = SeriesSpec::new(
        "jointly solved",
        colour::TIME,
        Box::new(|c| Some(c.joint_time_s)),
    );
    let throughput = SeriesSpec::new(
        "decided / s",
        colour::THROUGHPUT,
        Box::new(|c| c.throughput()),
    );

    vec![
        Figure {
            name: "bugs",
            title: "Correctness evolution: bug triggers per solver version".into(),
            y_label: "bug triggers (log scale)".into(),
            log_y: true,
            categories: cats.clone(),
            panels: panels(report, &bug_series),
        },
        Figure {
            name: "solved",
            title: "Solved formulas (sat/unsat) per solver version".into(),
            y_label: "solved formulas".into(),
            log_y: false,
            categories: cats.clone(),
            panels: panels(report, &solved_series),
        },
        Figure {
            name: "time",
            title: "Cumulative time on formulas every version of the family solved".into(),
            y_label: "wall time (s)".into(),
            log_y: false,
            categories: cats.clone(),
            panels: panels(report, &[joint_time]),
        },
        Figure {
            name: "throughput",
            title: "Throughput per solver version".into(),
            y_label: "decided formulas per second".into(),
            log_y: false,
            categories: cats,
            panels: panels(report, &[throughput]),
        },
    ]
}
