//! The evolution figures as data: which panels, which series, which values per solver
//! version, and how each series looks. [`super::plot`] only lays out and draws what
//! this module decides, so the content of every figure is testable without rendering.
//!
//! A figure is a grid of panels: one row per grammar (theory), one column per solver
//! family, the family's versions in release order on the x axis. Every panel says
//! how many formulas each solver ran (N) and the timeout of the run (T), and the
//! solved figure's series name the timeouts that were measured, never more than the
//! run allowed.

use crate::oracle::Verdict;

use super::stats::{Report, SolverGrammar};
use super::timeouts::{seconds_label, Timeout};

/// An sRGB colour.
pub type Rgb = (u8, u8, u8);

/// The Okabe–Ito palette (Okabe & Ito, *Color Universal Design*, 2008): eight colours
/// that stay apart for the common colour-vision deficiencies and in grey-scale print
/// when paired with distinct markers.
pub mod okabe_ito {
    use super::Rgb;
    /// Black.
    pub const BLACK: Rgb = (0, 0, 0);
    /// Orange.
    pub const ORANGE: Rgb = (230, 159, 0);
    /// Sky blue.
    pub const SKY_BLUE: Rgb = (86, 180, 233);
    /// Bluish green.
    pub const BLUISH_GREEN: Rgb = (0, 158, 115);
    /// Yellow.
    pub const YELLOW: Rgb = (240, 228, 66);
    /// Blue.
    pub const BLUE: Rgb = (0, 114, 178);
    /// Vermillion.
    pub const VERMILLION: Rgb = (213, 94, 0);
    /// Reddish purple.
    pub const REDDISH_PURPLE: Rgb = (204, 121, 167);
    /// All eight, in the published order.
    pub const ALL: [Rgb; 8] = [
        BLACK,
        ORANGE,
        SKY_BLUE,
        BLUISH_GREEN,
        YELLOW,
        BLUE,
        VERMILLION,
        REDDISH_PURPLE,
    ];
}

/// The shape drawn at each value of a line, so series differ without colour too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled triangle pointing up.
    Triangle,
    /// A filled square.
    Square,
    /// A filled diamond.
    Diamond,
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A line through the values with a marker at each; it never jumps over a missing
    /// value.
    Line(Marker),
    /// One bar per value, from zero.
    Bars,
}

/// Colour and mark of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// The colour.
    pub colour: Rgb,
    /// Line with markers, or bars.
    pub mark: Mark,
}

/// The styles of every series, one per meaning.
pub mod style {
    use super::okabe_ito::*;
    use super::{Mark, Marker, Style};

    /// Unsound answers: vermillion circles.
    pub const UNSOUND: Style = Style {
        colour: VERMILLION,
        mark: Mark::Line(Marker::Circle),
    };
    /// Invalid models: blue triangles (far from vermillion in every colour vision).
    pub const INVALID_MODEL: Style = Style {
        colour: BLUE,
        mark: Mark::Line(Marker::Triangle),
    };
    /// Crashes: reddish-purple squares.
    pub const CRASH: Style = Style {
        colour: REDDISH_PURPLE,
        mark: Mark::Line(Marker::Square),
    };
    /// Validator false alarms: orange diamonds.
    pub const VALIDATOR_FALSE_ALARM: Style = Style {
        colour: ORANGE,
        mark: Mark::Line(Marker::Diamond),
    };
    /// Timeout verdicts: bluish-green circles.
    pub const TIMEOUT: Style = Style {
        colour: BLUISH_GREEN,
        mark: Mark::Line(Marker::Circle),
    };
    /// Unknown verdicts: black squares.
    pub const UNKNOWN: Style = Style {
        colour: BLACK,
        mark: Mark::Line(Marker::Square),
    };
    /// Solved within the lowest timeout: sky-blue bars.
    pub const LOW_TIMEOUT: Style = Style {
        colour: SKY_BLUE,
        mark: Mark::Bars,
    };
    /// Solved within the highest timeout: a black line with diamonds.
    pub const HIGH_TIMEOUT: Style = Style {
        colour: BLACK,
        mark: Mark::Line(Marker::Diamond),
    };
    /// Time on jointly solved formulas: bluish-green circles.
    pub const TIME: Style = Style {
        colour: BLUISH_GREEN,
        mark: Mark::Line(Marker::Circle),
    };
    /// Throughput: blue squares.
    pub const THROUGHPUT: Style = Style {
        colour: BLUE,
        mark: Mark::Line(Marker::Square),
    };
}

/// One solver version on a panel's x axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    /// Axis label: the version (the name without its `family-` prefix, so `4.8.12-debian`
    /// stays apart from `4.8.12`).
    pub label: String,
    /// Position in [`Report::solvers`].
    pub solver: usize,
}

/// A column of panels: one family, its versions in release order.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The family, shown above the column and under its x axis.
    pub family: String,
    /// The x axis.
    pub categories: Vec<Category>,
}

/// One line or set of bars of a panel: a value per category, `None` where there is
/// nothing to draw (the version did not run this grammar).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text, with the timeout where it has one (`solved within 1/64 s`).
    pub label: String,
    /// How it is drawn.
    pub style: Style,
    /// Horizontal shift from the category's position, in category widths, so series
    /// with equal values sit side by side instead of hiding each other.
    pub dodge: f64,
    /// One value per category of the panel's column.
    pub values: Vec<Option<f64>>,
}

/// One panel: one grammar × one family.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// The grammar (row).
    pub grammar: String,
    /// Position of the family in [`Figure::columns`].
    pub column: usize,
    /// Formulas per solver (`N = 1000`, or a range when solvers differ) and the run's
    /// timeout (`T = 2 s`); `no runs` when the family did not run this grammar.
    pub caption: String,
    /// The series, in legend order.
    pub series: Vec<Series>,
}

/// One entry of a figure's legend.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// Text.
    pub label: String,
    /// Swatch.
    pub style: Style,
}

/// A figure file: a grid of panels, grammars down, families across.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File stem (`bugs` → `bugs.svg`).
    pub name: &'static str,
    /// Title above all panels.
    pub title: String,
    /// One line under the title: what is counted and how it is measured.
    pub subtitle: String,
    /// Y axis description.
    pub y_label: String,
    /// Logarithmic y axis (zero values are then left out).
    pub log_y: bool,
    /// The values are counts: y ticks only at whole numbers.
    pub counts: bool,
    /// Families, left to right.
    pub columns: Vec<Column>,
    /// Grammars, top to bottom.
    pub rows: Vec<String>,
    /// Panels row by row: `panels[row * columns.len() + column]`.
    pub panels: Vec<Panel>,
    /// Per row: `grammar · N = … · T = … s` when every panel of the row that ran has
    /// the same caption (then it is written once, across the row), else `None` (each
    /// panel carries its own).
    pub row_captions: Vec<Option<String>>,
    /// The legend shared by all panels.
    pub legend: Vec<LegendEntry>,
}

impl Figure {
    /// The panel at `row`, `column`.
    pub fn panel(&self, row: usize, column: usize) -> &Panel {
        &self.panels[row * self.columns.len() + column]
    }

    /// The caption written above one panel: empty when its row has one caption.
    pub fn panel_caption(&self, row: usize, column: usize) -> String {
        if self.row_captions[row].is_some() {
            return String::new();
        }
        let p = self.panel(row, column);
        format!("{} · {}", p.grammar, p.caption)
    }
}

/// The row captions of a grid of panels (see [`Figure::row_captions`]).
fn row_captions(rows: &[String], columns: usize, panels: &[Panel]) -> Vec<Option<String>> {
    rows.iter()
        .enumerate()
        .map(|(r, grammar)| {
            let ran: Vec<&str> = panels[r * columns..(r + 1) * columns]
                .iter()
                .filter(|p| !p.series.is_empty())
                .map(|p| p.caption.as_str())
                .collect();
            match ran.first() {
                Some(first) if ran.iter().all(|c| c == first) => {
                    Some(format!("{grammar} · {first}"))
                }
                _ => None,
            }
        })
        .collect()
}

/// The axis label of a solver: its name without the `family-` prefix.
fn version_label(name: &str, family: &str) -> String {
    name.strip_prefix(family)
        .and_then(|rest| rest.strip_prefix('-'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(name)
        .to_string()
}

fn columns(report: &Report) -> Vec<Column> {
    report
        .families()
        .into_iter()
        .map(|family| Column {
            family: family.to_string(),
            categories: report
                .solvers
                .iter()
                .enumerate()
                .filter(|(_, s)| s.family == family)
                .map(|(i, s)| Category {
                    label: version_label(&s.name, &s.family),
                    solver: i,
                })
                .collect(),
        })
        .collect()
}

/// `a` or `a–b` for the smallest and largest of some values.
fn span<T: PartialOrd + Copy>(values: &[T], show: impl Fn(T) -> String) -> Option<String> {
    let min = values.iter().copied().fold(None, |m: Option<T>, v| {
        Some(m.map_or(v, |m| if v < m { v } else { m }))
    })?;
    let max = values
        .iter()
        .copied()
        .fold(min, |m, v| if v > m { v } else { m });
    Some(if min == max {
        show(min)
    } else {
        format!("{}–{}", show(min), show(max))
    })
}

/// The cells of one panel, in category order.
fn panel_cells<'a>(report: &'a Report, column: &Column, grammar: usize) -> Vec<&'a SolverGrammar> {
    column
        .categories
        .iter()
        .filter_map(|c| report.cell(c.solver, grammar))
        .collect()
}

fn caption(cells: &[&SolverGrammar]) -> String {
    let n: Vec<u64> = cells.iter().map(|c| c.calls).collect();
    let t: Vec<f64> = cells.iter().map(|c| c.run_timeout_s).collect();
    match (span(&n, |n| n.to_string()), span(&t, seconds_label)) {
        (Some(n), Some(t)) => format!("N = {n} · T = {t} s"),
        _ => "no runs".into(),
    }
}

/// The lowest and highest timeout of the grid measured on every cell of a panel (at
/// most the smallest run timeout), as positions in the grid.
fn measured_range(timeouts: &[Timeout], cells: &[&SolverGrammar]) -> Option<(usize, usize)> {
    let limit = cells
        .iter()
        .map(|c| c.run_timeout_s)
        .fold(f64::INFINITY, f64::min);
    let measured: Vec<usize> = (0..timeouts.len())
        .filter(|&i| super::stats::within_timeout(timeouts[i].seconds, limit))
        .collect();
    Some((*measured.first()?, *measured.last()?))
}

/// What a figure plots: the series of one panel from its cells' counters.
type PanelSeries<'a> = dyn Fn(&Report, &Column, usize) -> Vec<Series> + 'a;

fn values(
    report: &Report,
    column: &Column,
    grammar: usize,
    f: impl Fn(&SolverGrammar) -> Option<f64>,
) -> Vec<Option<f64>> {
    column
        .categories
        .iter()
        .map(|c| report.cell(c.solver, grammar).and_then(&f))
        .collect()
}

/// Builds the panels of a figure (grammars × families) and its legend: the first
/// panel's labels when every panel has the same ones, else `generic` labels (the
/// panels' captions then say which timeouts they show).
fn grid(
    report: &Report,
    columns: &[Column],
    series: &PanelSeries<'_>,
    generic: &[LegendEntry],
) -> (Vec<Panel>, Vec<LegendEntry>) {
    let mut panels = Vec::new();
    for g in 0..report.grammars.len() {
        for (ci, column) in columns.iter().enumerate() {
            let cells = panel_cells(report, column, g);
            let series = if cells.is_empty() {
                Vec::new()
            } else {
                series(report, column, g)
            };
            panels.push(Panel {
                grammar: report.grammars[g].clone(),
                column: ci,
                caption: caption(&cells),
                series,
            });
        }
    }
    let label_sets: Vec<Vec<&str>> = panels
        .iter()
        .filter(|p| !p.series.is_empty())
        .map(|p| p.series.iter().map(|s| s.label.as_str()).collect())
        .collect();
    let uniform = label_sets.windows(2).all(|w| w[0] == w[1]);
    let legend = match (uniform, panels.iter().find(|p| !p.series.is_empty())) {
        (true, Some(first)) => first
            .series
            .iter()
            .map(|s| LegendEntry {
                label: s.label.clone(),
                style: s.style,
            })
            .collect(),
        _ => generic.to_vec(),
    };
    if !uniform {
        // Each panel then names its own timeouts.
        for p in panels.iter_mut().filter(|p| !p.series.is_empty()) {
            let shown: Vec<&str> = p.series.iter().map(|s| s.label.as_str()).collect();
            p.caption = format!("{} · {}", p.caption, shown.join(", "));
        }
    }
    (panels, legend)
}

/// What the user should be told about `figs`, the figures of `report`: panels of runs
/// that show no data (one line per figure), and why when the reason is known — every
/// timeout of `--timeouts` above the runs' own, so that "solved within T" was measured
/// for none.
pub fn warnings(report: &Report, figs: &[Figure]) -> Vec<String> {
    let mut out = Vec::new();
    for fig in figs {
        let empty: Vec<String> = fig
            .panels
            .iter()
            .filter(|p| p.caption != "no runs" && p.series.is_empty())
            .map(|p| format!("{} {}", p.grammar, fig.columns[p.column].family))
            .collect();
        if empty.is_empty() {
            continue;
        }
        let ran = fig.panels.iter().filter(|p| p.caption != "no runs").count();
        let longest_run = report
            .cells
            .iter()
            .map(|c| c.run_timeout_s)
            .fold(0.0, f64::max);
        let shortest_asked = report
            .timeouts
            .iter()
            .map(|t| t.seconds)
            .fold(f64::INFINITY, f64::min);
        let why =
            if fig.name == "solved" && !super::stats::within_timeout(shortest_asked, longest_run) {
                let asked: Vec<&str> = report.timeouts.iter().map(|t| t.label.as_str()).collect();
                format!(
                    ": every --timeouts value ({} s) is above the runs' timeout ({} s), and \
                 solved within T is only measured up to it; give --timeouts at or below it",
                    asked.join(", "),
                    seconds_label(longest_run)
                )
            } else {
                String::new()
            };
        out.push(format!(
            "{}: {} of {ran} panels show no data ({}){why}",
            fig.name,
            empty.len(),
            empty.join(", ")
        ));
    }
    out
}

/// Every figure of `et plot`, in file order.
pub fn figures(report: &Report) -> Vec<Figure> {
    let columns = columns(report);
    vec![
        bugs_figure(report, &columns),
        findings_figure(report, &columns),
        solved_figure(report, &columns),
        time_figure(report, &columns),
        throughput_figure(report, &columns),
    ]
}

/// What every figure's subtitle ends with.
const N_AND_T: &str = "N = formulas per solver, T = the run's timeout";

/// What a figure says of itself: its file stem, its words and its y axis.
struct Heading {
    name: &'static str,
    title: &'static str,
    subtitle: String,
    y_label: String,
    log_y: bool,
    counts: bool,
}

/// A figure of `report` over `columns`: its panels' `series`, and `generic` legend
/// labels for when the panels' labels differ.
fn figure(
    report: &Report,
    columns: &[Column],
    heading: Heading,
    series: &PanelSeries<'_>,
    generic: &[LegendEntry],
) -> Figure {
    let rows = report.grammars.clone();
    let (panels, legend) = grid(report, columns, series, generic);
    let row_captions = row_captions(&rows, columns.len(), &panels);
    Figure {
        name: heading.name,
        title: heading.title.into(),
        subtitle: heading.subtitle,
        y_label: heading.y_label,
        log_y: heading.log_y,
        counts: heading.counts,
        columns: columns.to_vec(),
        rows,
        panels,
        row_captions,
        legend,
    }
}

/// The bug verdicts, as the bugs figure labels and draws them.
const BUG_VERDICTS: [(Verdict, &str, Style); 3] = [
    (Verdict::Unsound, "unsound", style::UNSOUND),
    (Verdict::InvalidModel, "invalid model", style::INVALID_MODEL),
    (Verdict::Crash, "crash", style::CRASH),
];

/// Bug triggers per verdict, on a log scale.
fn bugs_figure(report: &Report, columns: &[Column]) -> Figure {
    let heading = Heading {
        name: "bugs",
        title: "Bug triggers per solver release",
        subtitle: format!(
            "Correctness verdicts, log scale (zero counts are not drawn). {N_AND_T}."
        ),
        y_label: "bug triggers".into(),
        log_y: true,
        counts: true,
    };
    verdicts_figure(report, columns, heading, &BUG_VERDICTS)
}

/// A figure of verdict counts per release: one series per verdict of `verdicts`
/// (its label and style), side by side where counts are equal.
fn verdicts_figure(
    report: &Report,
    columns: &[Column],
    heading: Heading,
    verdicts: &[(Verdict, &str, Style); 3],
) -> Figure {
    let legend: Vec<LegendEntry> = verdicts
        .iter()
        .map(|(_, label, style)| LegendEntry {
            label: label.to_string(),
            style: *style,
        })
        .collect();
    let series = |report: &Report, column: &Column, g: usize| -> Vec<Series> {
        verdicts
            .iter()
            .zip([-0.2, 0.0, 0.2])
            .map(|((v, label, style), dodge)| Series {
                label: label.to_string(),
                style: *style,
                dodge,
                values: values(report, column, g, |c| Some(c.verdict(*v) as f64)),
            })
            .collect()
    };
    figure(report, columns, heading, &series, &legend)
}

/// The verdicts that are not bugs of the answer, as the findings figure labels and
/// draws them: a right answer the solver's own check rejected, and the performance
/// verdicts.
const OTHER_VERDICTS: [(Verdict, &str, Style); 3] = [
    (
        Verdict::ValidatorFalseAlarm,
        "validator false alarm",
        style::VALIDATOR_FALSE_ALARM,
    ),
    (Verdict::Timeout, "timeout", style::TIMEOUT),
    (Verdict::Unknown, "unknown", style::UNKNOWN),
];

/// Validator false alarms and performance verdicts per release, on a log scale: the
/// findings the bugs figure leaves out, in panels of their own.
fn findings_figure(report: &Report, columns: &[Column]) -> Figure {
    let heading = Heading {
        name: "findings",
        title: "Other findings per solver release",
        subtitle: format!(
            "Validator false alarms and timeout/unknown verdicts, log scale (zero counts \
             are not drawn). {N_AND_T}."
        ),
        y_label: "findings".into(),
        log_y: true,
        counts: true,
    };
    verdicts_figure(report, columns, heading, &OTHER_VERDICTS)
}

/// Solved formulas within the lowest timeout measured and within the highest.
fn solved_figure(report: &Report, columns: &[Column]) -> Figure {
    let clock = report.clock.describe();
    let legend = [
        LegendEntry {
            label: "solved within the lowest timeout".into(),
            style: style::LOW_TIMEOUT,
        },
        LegendEntry {
            label: "solved within the highest timeout measured".into(),
            style: style::HIGH_TIMEOUT,
        },
    ];
    let heading = Heading {
        name: "solved",
        title: "Solved formulas per solver release",
        subtitle: format!("Solved: sat/unsat without a bug verdict; times by {clock}. {N_AND_T}."),
        y_label: "solved formulas".into(),
        log_y: false,
        counts: true,
    };
    figure(report, columns, heading, &solved_series, &legend)
}

fn solved_series(report: &Report, column: &Column, g: usize) -> Vec<Series> {
    let cells = panel_cells(report, column, g);
    let Some((lo, hi)) = measured_range(&report.timeouts, &cells) else {
        return Vec::new();
    };
    let mut out = vec![Series {
        label: format!("solved within {} s", report.timeouts[lo].label),
        style: style::LOW_TIMEOUT,
        dodge: 0.0,
        values: values(report, column, g, |c| Some(c.solved_within[lo] as f64)),
    }];
    if hi != lo {
        out.push(Series {
            label: format!("solved within {} s", report.timeouts[hi].label),
            style: style::HIGH_TIMEOUT,
            dodge: 0.0,
            values: values(report, column, g, |c| Some(c.solved_within[hi] as f64)),
        });
    }
    out
}

const TIME_LABEL: &str = "time on jointly solved formulas";

/// Cumulative time on the formulas every version of a family solved.
fn time_figure(report: &Report, columns: &[Column]) -> Figure {
    let clock = report.clock.describe();
    let legend = [LegendEntry {
        label: TIME_LABEL.into(),
        style: style::TIME,
    }];
    let heading = Heading {
        name: "time",
        title: "Cumulative time on jointly solved formulas",
        subtitle: format!(
            "Total {clock} on the formulas every version of the family solved. {N_AND_T}."
        ),
        y_label: format!("{clock} (s)"),
        log_y: false,
        counts: false,
    };
    figure(report, columns, heading, &time_series, &legend)
}

fn time_series(report: &Report, column: &Column, g: usize) -> Vec<Series> {
    vec![Series {
        label: TIME_LABEL.into(),
        style: style::TIME,
        dodge: 0.0,
        // No jointly solved formula: nothing to compare, not "0 s".
        values: values(report, column, g, |c| {
            (c.joint_formulas > 0).then_some(c.joint_seconds)
        }),
    }]
}

const THROUGHPUT_LABEL: &str = "solved formulas per second";

/// Solved formulas per second of the report's clock.
fn throughput_figure(report: &Report, columns: &[Column]) -> Figure {
    let clock = report.clock.describe();
    let legend = [LegendEntry {
        label: THROUGHPUT_LABEL.into(),
        style: style::THROUGHPUT,
    }];
    let heading = Heading {
        name: "throughput",
        title: "Throughput per solver release",
        subtitle: format!("Solved formulas per second of {clock}, over all calls. {N_AND_T}."),
        y_label: "solved per second".into(),
        log_y: false,
        counts: false,
    };
    figure(report, columns, heading, &throughput_series, &legend)
}

fn throughput_series(report: &Report, column: &Column, g: usize) -> Vec<Series> {
    vec![Series {
        label: THROUGHPUT_LABEL.into(),
        style: style::THROUGHPUT,
        dodge: 0.0,
        values: values(report, column, g, SolverGrammar::throughput),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_labels_drop_the_family_prefix_only() {
        assert_eq!(version_label("z3-4.8.5", "z3"), "4.8.5");
        assert_eq!(version_label("z3-4.8.12-debian", "z3"), "4.8.12-debian");
        assert_eq!(version_label("my-z3", "z3"), "my-z3");
        assert_eq!(version_label("z3", "z3"), "z3");
    }

    #[test]
    fn spans_collapse_equal_values() {
        assert_eq!(span(&[3u64, 3], |n| n.to_string()).unwrap(), "3");
        assert_eq!(span(&[5u64, 3, 4], |n| n.to_string()).unwrap(), "3–5");
        assert_eq!(span::<u64>(&[], |n| n.to_string()), None);
    }

    #[test]
    fn bug_styles_differ_in_colour_and_marker_and_use_okabe_ito() {
        let styles = [style::UNSOUND, style::INVALID_MODEL, style::CRASH];
        for (i, a) in styles.iter().enumerate() {
            assert!(okabe_ito::ALL.contains(&a.colour));
            for b in &styles[i + 1..] {
                assert_ne!(a.colour, b.colour);
                assert_ne!(a.mark, b.mark);
            }
        }
        // Unsound and invalid model must not be the vermillion/orange pair that
        // deuteranopes cannot tell apart.
        assert_ne!(style::INVALID_MODEL.colour, okabe_ito::ORANGE);
    }
}
