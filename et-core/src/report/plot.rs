//! Lays out and draws [`Figure`]s as SVG or PNG with plotters. Text goes through
//! ab_glyph with the bundled DejaVu Sans (no fontconfig needed); PNGs are drawn into
//! memory and encoded with the `png` crate.
//!
//! The layout is computed first, from measured text widths ([`layout`]): every label
//! gets the room it needs (version labels turn vertical when they do not fit side by
//! side, and only every k-th is written when even vertical ones would touch), so
//! nothing is clipped at any `--width`/`--height` that is accepted; a size too small
//! for the figure is refused with the size it needs.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, FontTransform};

use super::figures::{figures, Figure, Mark, Marker, Panel, Style};
use super::stats::Report;
use super::ReportError;

/// Output format of `et plot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics (text stays text, so it can be searched and tested).
    Svg,
    /// Portable network graphics.
    Png,
}

impl Format {
    /// File extension without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// Default figure width in pixels: a two-column page width at 150 dpi.
pub const DEFAULT_WIDTH: u32 = 1200;
/// Smallest and largest accepted width.
pub const WIDTH_RANGE: (u32, u32) = (400, 6000);
/// Smallest and largest accepted height.
pub const HEIGHT_RANGE: (u32, u32) = (200, 12000);
/// Height of a panel's plotting area when `--height` is not given.
const DEFAULT_PLOT_HEIGHT: u32 = 210;
/// A panel's plotting area is never lower than this.
const MIN_PLOT_HEIGHT: u32 = 80;

/// Requested figure size: a width, and a height or `None` to fit the panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotSize {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels, or `None` for [`DEFAULT_PLOT_HEIGHT`] per row of panels.
    pub height: Option<u32>,
}

impl Default for PlotSize {
    fn default() -> Self {
        PlotSize {
            width: DEFAULT_WIDTH,
            height: None,
        }
    }
}

/// Font sizes in plotters units. SVG `font-size` is the unit ÷ 1.24, so the smallest
/// text (tick labels, 18) is 14.5 px in a 1200 px figure.
pub mod text_size {
    /// Figure title.
    pub const TITLE: f64 = 30.0;
    /// The line under the title, the legend, panel captions, axis descriptions.
    pub const BODY: f64 = 20.0;
    /// Family names above the columns.
    pub const FAMILY: f64 = 24.0;
    /// Tick labels: versions and y values.
    pub const TICK: f64 = 18.0;
}

/// Line height for a font size, in pixels.
fn line_height(size: f64) -> i32 {
    (size * 1.3).ceil() as i32
}

const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER_FONT: Once = Once::new();

fn register_font() {
    REGISTER_FONT.call_once(|| {
        // The font is compiled in, so this cannot fail at run time once tests pass.
        if plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_err() {
            panic!("bundled font DejaVuSans.ttf is not a valid font");
        }
    });
}

/// Width of `text` in pixels at `size`, measured with the bundled font (the widest of
/// the common sans-serif fonts, so an SVG viewer's own font takes no more room).
pub fn text_width(text: &str, size: f64) -> u32 {
    register_font();
    (FONT, size).into_font().box_size(text).map_or(
        (text.chars().count() as f64 * size * 0.62) as u32,
        |(w, _)| w,
    )
}

/// Greedy word wrap at `max` pixels; `sep` is the separator words are split at.
fn wrap(text: &str, size: f64, max: u32, sep: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(sep) {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line}{sep}{word}"), size) <= max => {
                line.push_str(sep);
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Where one column of panels (one family) goes.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnBox {
    /// Left edge of the column (the y tick labels start here).
    pub x: i32,
    /// Width reserved for the y tick labels.
    pub tick_w: u32,
    /// Left edge of the plotting areas.
    pub plot_x: i32,
    /// Width of the plotting areas.
    pub plot_w: u32,
    /// Version labels are vertical (reading upwards, ending at their tick).
    pub rotate: bool,
    /// Every `step`-th version is labelled (1: all of them); every version has a tick.
    pub step: usize,
}

/// Where one row of panels (one grammar) goes.
#[derive(Debug, Clone, PartialEq)]
pub struct RowBox {
    /// Top of the captions.
    pub caption_y: i32,
    /// Top of the plotting areas.
    pub plot_y: i32,
    /// Height of the plotting areas.
    pub plot_h: u32,
}

/// Positions of everything in a figure, in pixels from the top left.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Canvas width.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// Title and subtitle lines with their size and top, centred.
    pub header: Vec<(String, f64, i32)>,
    /// Centre line of the legend.
    pub legend_y: i32,
    /// Top of the family names above the columns.
    pub family_y: i32,
    /// One per family.
    pub columns: Vec<ColumnBox>,
    /// One per grammar.
    pub rows: Vec<RowBox>,
    /// Caption lines per panel (`captions[row][column]`), empty where the row has one
    /// caption.
    pub captions: Vec<Vec<Vec<String>>>,
    /// Lines of each row's caption written across the row (empty when its panels
    /// carry their own), starting at the first column.
    pub row_captions: Vec<Vec<String>>,
    /// Top of the version labels, under the last row.
    pub labels_y: i32,
    /// Top of the family axis descriptions (`z3 version`).
    pub desc_y: i32,
    /// Centre of the rotated y axis description.
    pub y_desc_x: i32,
}

const PAD: i32 = 12;
const COLUMN_GAP: i32 = 28;
const ROW_GAP: i32 = 30;
const TICK_LEN: i32 = 6;
const Y_DESC_W: i32 = 34;
/// Written in a panel whose family did not run its grammar (the widest of the notes
/// an empty panel gets, so the layout reserves room for it).
const EMPTY_PANEL_NOTE: &str = "no values";

/// Decimals for tick labels of an axis whose top is `top`: three significant digits
/// for the step sizes plotters picks.
fn decimals(top: f64) -> usize {
    if top <= 0.0 || !top.is_finite() {
        return 0;
    }
    (2 - top.log10().floor() as i64).clamp(0, 8) as usize
}

/// Tick labels without float noise: `2` not `2.0`, `0.25` not `0.25000000000000006`.
fn tidy_number(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// The grid lines of a log axis from 0.7 to `top` drawn `height` pixels tall, each
/// labelled: at 1, 2 and 5 × 10^k, or at the powers of ten alone where labels 1 and 2
/// would be closer than a line of tick text.
fn log_grid(top: f64, height: u32) -> Vec<f64> {
    let low = 0.7f64;
    let decades = (top / low).log10().max(1e-9);
    let gap = 2f64.log10() / decades * f64::from(height);
    // Digits are shorter than a line: a label's height plus a little air.
    let mantissas: &[f64] = if gap >= text_size::TICK * 1.1 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let mut out = Vec::new();
    for decade in 0..=(top.log10().ceil() as i32) {
        for m in mantissas {
            let v = m * 10f64.powi(decade);
            if (low..=top * (1.0 + 1e-9)).contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The y range of a panel: linear from 0, or logarithmic from below 1.
fn y_top(fig: &Figure, panel: &Panel) -> f64 {
    let max = panel
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .fold(0.0, |m: f64, v| m.max(*v));
    if fig.log_y {
        (max * 3.0).max(10.0)
    } else if max > 0.0 {
        max * 1.12
    } else {
        1.0
    }
}

/// Computes where everything goes; refuses a size the figure cannot be drawn in.
pub fn layout(fig: &Figure, size: PlotSize) -> Result<Layout, ReportError> {
    check_size(fig, size)?;
    let width = size.width;
    let usable = width as i32 - 2 * PAD;
    let (header, mut y) = header_lines(fig, usable);
    let legend_y = y + line_height(text_size::BODY) / 2 + 4;
    y += line_height(text_size::BODY) + 12;
    let family_y = y;
    y += line_height(text_size::FAMILY) + 4;

    let tick_w = tick_label_widths(fig);
    let plot_w = plot_widths(fig, width, usable, &tick_w)?;
    let columns = column_boxes(fig, &tick_w, &plot_w);
    let captions = panel_captions(fig, &columns);
    // A row's own caption spans the grid: from the first column's tick labels to the
    // last column's right edge.
    let grid_w = columns.last().map_or(0, |c| {
        (c.plot_x + c.plot_w as i32 - PAD - Y_DESC_W).max(0) as u32
    });
    let row_captions: Vec<Vec<String>> = fig
        .row_captions
        .iter()
        .map(|caption| {
            caption
                .as_deref()
                .map_or_else(Vec::new, |text| wrap(text, text_size::BODY, grid_w, " · "))
        })
        .collect();

    // Rows, then the version labels and family descriptions under the last row.
    let label_h = version_labels_height(fig, &columns);
    let caption_h: Vec<i32> = (0..fig.rows.len())
        .map(|r| caption_height(&captions[r], &row_captions[r]))
        .collect();
    let plot_h = plot_height(fig, size, y, &caption_h, label_h)?;
    let mut rows = Vec::new();
    for caption_h in &caption_h {
        let caption_y = y;
        let plot_y = y + caption_h + 4;
        rows.push(RowBox {
            caption_y,
            plot_y,
            plot_h,
        });
        y = plot_y + plot_h as i32 + ROW_GAP;
    }
    let labels_y = y - ROW_GAP;
    let desc_y = labels_y + label_h + 6;
    let height = match size.height {
        Some(h) => h,
        None => fitted_height(fig, desc_y)?,
    };
    Ok(Layout {
        width,
        height,
        header,
        legend_y,
        family_y,
        columns,
        rows,
        captions,
        row_captions,
        labels_y,
        desc_y,
        y_desc_x: PAD + Y_DESC_W / 2,
    })
}

/// A `--width` or `--height` (`dimension`) of `given` pixels refused, and why.
fn too_small(fig: &Figure, dimension: &str, given: u32, needed: String) -> ReportError {
    ReportError::BadSize {
        what: format!("{}: --{dimension} {given}", fig.name),
        reason: needed,
    }
}

/// Refuses a width or height outside the accepted ranges.
fn check_size(fig: &Figure, size: PlotSize) -> Result<(), ReportError> {
    let in_range = |v: u32, (lo, hi): (u32, u32)| (lo..=hi).contains(&v);
    if !in_range(size.width, WIDTH_RANGE) {
        return Err(too_small(
            fig,
            "width",
            size.width,
            format!("must be between {} and {} px", WIDTH_RANGE.0, WIDTH_RANGE.1),
        ));
    }
    if let Some(h) = size.height.filter(|h| !in_range(*h, HEIGHT_RANGE)) {
        return Err(too_small(
            fig,
            "height",
            h,
            format!(
                "must be between {} and {} px",
                HEIGHT_RANGE.0, HEIGHT_RANGE.1
            ),
        ));
    }
    Ok(())
}

/// The title and subtitle lines, wrapped to `usable` pixels, with their size and top;
/// and the top of what follows them.
fn header_lines(fig: &Figure, usable: i32) -> (Vec<(String, f64, i32)>, i32) {
    let mut header = Vec::new();
    let mut y = PAD;
    for (text, size) in [
        (&fig.title, text_size::TITLE),
        (&fig.subtitle, text_size::BODY),
    ] {
        for line in wrap(text, size, usable as u32, " ") {
            header.push((line, size, y));
            y += line_height(size);
        }
    }
    (header, y)
}

/// Per column, the width of its y tick labels: measured from the column's largest
/// value.
fn tick_label_widths(fig: &Figure) -> Vec<u32> {
    (0..fig.columns.len())
        .map(|c| {
            let widest = (0..fig.rows.len())
                .map(|r| {
                    let top = y_top(fig, fig.panel(r, c));
                    let label = tidy_number(top, decimals(top));
                    text_width(&label, text_size::TICK).max(text_width("0.00", text_size::TICK))
                })
                .max()
                .unwrap_or(0);
            widest + TICK_LEN as u32 + 8
        })
        .collect()
}

/// Per column, the least width its plotting area needs: its widest unbreakable
/// caption part, its family's labels, and a few pixels per version.
fn min_plot_widths(fig: &Figure, tick_w: &[u32]) -> Vec<u32> {
    (0..fig.columns.len())
        .map(|c| {
            let widest_part = (0..fig.rows.len())
                .flat_map(|r| {
                    fig.panel_caption(r, c)
                        .split(" · ")
                        .map(|part| text_width(part, text_size::BODY))
                        .collect::<Vec<_>>()
                })
                .max()
                .unwrap_or(0);
            let family = &fig.columns[c].family;
            let labels = text_width(family, text_size::FAMILY)
                .max(text_width(&format!("{family} version"), text_size::BODY))
                .max(text_width(EMPTY_PANEL_NOTE, text_size::BODY));
            (widest_part.saturating_sub(tick_w[c]))
                .max(labels + 8)
                .max(40 + 4 * fig.columns[c].categories.len() as u32)
        })
        .collect()
}

/// Per column, the width of its plotting areas: what the tick labels and gaps leave,
/// shared in proportion to the columns' numbers of versions, each at least its
/// minimum; refuses a width too small for the minimums.
fn plot_widths(
    fig: &Figure,
    width: u32,
    usable: i32,
    tick_w: &[u32],
) -> Result<Vec<u32>, ReportError> {
    let ncols = fig.columns.len().max(1);
    let fixed =
        PAD + Y_DESC_W + tick_w.iter().sum::<u32>() as i32 + COLUMN_GAP * (ncols as i32 - 1) + PAD;
    let plot_total = usable + 2 * PAD - fixed;
    let weights: Vec<f64> = fig
        .columns
        .iter()
        .map(|c| c.categories.len() as f64 + 1.0)
        .collect();
    let weight_sum: f64 = weights.iter().sum::<f64>().max(1.0);
    let min_plot = min_plot_widths(fig, tick_w);
    let mut plot_w: Vec<u32> = weights
        .iter()
        .map(|w| (plot_total.max(0) as f64 * w / weight_sum) as u32)
        .collect();
    let needed: u32 = min_plot.iter().sum();
    if (plot_total.max(0) as u32) < needed {
        let need = width + needed - plot_total.max(0) as u32;
        return Err(too_small(
            fig,
            "width",
            width,
            format!("the panels need at least {need} px"),
        ));
    }
    raise_to_minimums(&mut plot_w, &min_plot);
    Ok(plot_w)
}

/// Columns below their minimum take it from the others, in proportion to what each
/// has to spare.
fn raise_to_minimums(plot_w: &mut [u32], min_plot: &[u32]) {
    loop {
        let short: Vec<usize> = (0..plot_w.len())
            .filter(|&c| plot_w[c] < min_plot[c])
            .collect();
        if short.is_empty() {
            break;
        }
        let deficit: u32 = short.iter().map(|&c| min_plot[c] - plot_w[c]).sum();
        for &c in &short {
            plot_w[c] = min_plot[c];
        }
        let donors: Vec<usize> = (0..plot_w.len()).filter(|c| !short.contains(c)).collect();
        let spare: u32 = donors.iter().map(|&c| plot_w[c] - min_plot[c]).sum();
        for &c in &donors {
            let give = (u64::from(plot_w[c] - min_plot[c]) * u64::from(deficit))
                .div_ceil(u64::from(spare.max(1))) as u32;
            plot_w[c] -= give.min(plot_w[c] - min_plot[c]);
        }
    }
}

/// The columns side by side, each with its version labels turned vertical when they
/// do not fit horizontally (and thinned out when even vertical ones would touch).
fn column_boxes(fig: &Figure, tick_w: &[u32], plot_w: &[u32]) -> Vec<ColumnBox> {
    let mut columns = Vec::new();
    let mut x = PAD + Y_DESC_W;
    let tick_line = line_height(text_size::TICK) as f64 * 0.8;
    for (c, col) in fig.columns.iter().enumerate() {
        let n = col.categories.len().max(1);
        let slot = plot_w[c] as f64 / n as f64;
        let longest = col
            .categories
            .iter()
            .map(|k| text_width(&k.label, text_size::TICK))
            .max()
            .unwrap_or(0);
        let rotate = f64::from(longest) + 10.0 > slot;
        let step = if rotate {
            ((tick_line + 4.0) / slot).ceil().max(1.0) as usize
        } else {
            1
        };
        columns.push(ColumnBox {
            x,
            tick_w: tick_w[c],
            plot_x: x + tick_w[c] as i32,
            plot_w: plot_w[c],
            rotate,
            step,
        });
        x += (tick_w[c] + plot_w[c]) as i32 + COLUMN_GAP;
    }
    columns
}

/// Each panel's caption, "grammar · N = … · T = … s", on one line if it fits the
/// column, else broken at the dots.
fn panel_captions(fig: &Figure, columns: &[ColumnBox]) -> Vec<Vec<Vec<String>>> {
    (0..fig.rows.len())
        .map(|r| {
            (0..fig.columns.len())
                .map(|c| {
                    let text = fig.panel_caption(r, c);
                    if text.is_empty() {
                        return Vec::new();
                    }
                    let room = columns[c].tick_w + columns[c].plot_w;
                    wrap(&text, text_size::BODY, room, " · ")
                })
                .collect()
        })
        .collect()
}

/// Height of the version labels and their ticks under the last row.
fn version_labels_height(fig: &Figure, columns: &[ColumnBox]) -> i32 {
    fig.columns
        .iter()
        .zip(columns)
        .map(|(col, b)| {
            if b.rotate {
                col.categories
                    .iter()
                    .map(|k| text_width(&k.label, text_size::TICK) as i32)
                    .max()
                    .unwrap_or(0)
            } else {
                line_height(text_size::TICK)
            }
        })
        .max()
        .unwrap_or(0)
        + TICK_LEN
        + 6
}

/// Height of a row's captions: its most lines, at least one.
fn caption_height(captions: &[Vec<String>], row_caption: &[String]) -> i32 {
    let lines = captions
        .iter()
        .map(Vec::len)
        .chain([row_caption.len()])
        .max()
        .unwrap_or(0)
        .max(1);
    lines as i32 * line_height(text_size::BODY)
}

/// Height of every row's plotting areas: the default, or what `--height` leaves
/// below `top` once the captions (`caption_h`, per row) and the version labels
/// (`label_h`) have their room; refuses a height that leaves too little.
fn plot_height(
    fig: &Figure,
    size: PlotSize,
    top: i32,
    caption_h: &[i32],
    label_h: i32,
) -> Result<u32, ReportError> {
    let Some(h) = size.height else {
        return Ok(DEFAULT_PLOT_HEIGHT);
    };
    let rows_fixed: i32 = caption_h.iter().map(|c| c + 4 + ROW_GAP).sum();
    let below = label_h + line_height(text_size::BODY) + PAD;
    let nrows = fig.rows.len().max(1) as i32;
    let left = h as i32 - top - rows_fixed - below;
    if left < nrows * MIN_PLOT_HEIGHT as i32 {
        let need = h as i32 - left + nrows * MIN_PLOT_HEIGHT as i32;
        return Err(too_small(
            fig,
            "height",
            h,
            format!("{} rows of panels need at least {need} px", fig.rows.len()),
        ));
    }
    Ok((left / nrows) as u32)
}

/// The canvas height that fits everything down to the axis descriptions at
/// `desc_y`; refuses one above the largest a figure may have.
fn fitted_height(fig: &Figure, desc_y: i32) -> Result<u32, ReportError> {
    let needed = (desc_y + line_height(text_size::BODY) + PAD) as u32;
    if needed > HEIGHT_RANGE.1 {
        return Err(ReportError::BadSize {
            what: format!("{}: {} rows of panels", fig.name, fig.rows.len()),
            reason: format!(
                "they need {needed} px, more than the {} px a figure may have; plot fewer grammars per figure",
                HEIGHT_RANGE.1
            ),
        });
    }
    Ok(needed)
}

/// The figures [`write_plots`] wrote, and what the user should know about them.
#[derive(Debug)]
pub struct Written {
    /// The files, in figure order.
    pub paths: Vec<PathBuf>,
    /// Panels that show no data, and why ([`super::figures::warnings`]).
    pub warnings: Vec<String>,
}

/// Writes every figure of the report into `out_dir` (created if needed); returns the
/// paths and the warnings. Every figure is laid out before anything is written, so a
/// size that does not fit leaves no figure behind.
pub fn write_plots(
    report: &Report,
    out_dir: &Path,
    format: Format,
    size: PlotSize,
) -> Result<Written, ReportError> {
    let figs = figures(report);
    let warnings = super::figures::warnings(report, &figs);
    for fig in &figs {
        layout(fig, size)?;
    }
    fs::create_dir_all(out_dir).map_err(|e| ReportError::io(out_dir, e))?;
    let mut written = Vec::new();
    for fig in figs {
        let path = out_dir.join(format!("{}.{}", fig.name, format.extension()));
        let bytes = render(&fig, format, size).map_err(|e| match e {
            ReportError::Plot { message, .. } => ReportError::Plot {
                path: path.clone(),
                message,
            },
            other => other,
        })?;
        crate::atomic_file::write(&path, &bytes).map_err(|e| ReportError::io(&path, e))?;
        written.push(path);
    }
    Ok(Written {
        paths: written,
        warnings,
    })
}

/// Renders one figure to the bytes of an SVG or PNG file.
pub fn render(fig: &Figure, format: Format, size: PlotSize) -> Result<Vec<u8>, ReportError> {
    register_font();
    let lay = layout(fig, size)?;
    let plot_err = |message: String| ReportError::Plot {
        path: PathBuf::from(fig.name),
        message,
    };
    let (w, h) = (lay.width, lay.height);
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, (w, h)).into_drawing_area();
                draw_figure(&root, fig, &lay).map_err(plot_err)?;
                root.present().map_err(|e| plot_err(e.to_string()))?;
            }
            Ok(text.into_bytes())
        }
        Format::Png => {
            let mut rgb = vec![0u8; (w * h * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
                draw_figure(&root, fig, &lay).map_err(plot_err)?;
                root.present().map_err(|e| plot_err(e.to_string()))?;
            }
            encode_png(&rgb, w, h).map_err(plot_err)
        }
    }
}

fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

fn rgb(style: &Style) -> RGBColor {
    let (r, g, b) = style.colour;
    RGBColor(r, g, b)
}

fn font(size: f64) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK)
}

fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    lay: &Layout,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let centre = lay.width as i32 / 2;
    for (line, size, y) in &lay.header {
        root.draw(&Text::new(
            line.clone(),
            (centre, *y),
            font(*size).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
    }
    draw_legend(root, fig, lay).map_err(err)?;
    // The y axis description once, rotated, beside the whole grid.
    if let (Some(first), Some(last)) = (lay.rows.first(), lay.rows.last()) {
        let mid = (first.plot_y + last.plot_y + last.plot_h as i32) / 2;
        root.draw(&Text::new(
            fig.y_label.clone(),
            (lay.y_desc_x, mid),
            font(text_size::BODY)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(err)?;
    }
    if let Some(first) = lay.columns.first() {
        for (lines, row) in lay.row_captions.iter().zip(&lay.rows) {
            for (i, line) in lines.iter().enumerate() {
                root.draw(&Text::new(
                    line.clone(),
                    (
                        first.x,
                        row.caption_y + i as i32 * line_height(text_size::BODY),
                    ),
                    font(text_size::BODY).pos(Pos::new(HPos::Left, VPos::Top)),
                ))
                .map_err(err)?;
            }
        }
    }
    for (c, (col, b)) in fig.columns.iter().zip(&lay.columns).enumerate() {
        let mid = b.plot_x + b.plot_w as i32 / 2;
        root.draw(&Text::new(
            col.family.clone(),
            (mid, lay.family_y),
            font(text_size::FAMILY).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            format!("{} version", col.family),
            (mid, lay.desc_y),
            font(text_size::BODY).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
        for (r, row) in lay.rows.iter().enumerate() {
            for (i, line) in lay.captions[r][c].iter().enumerate() {
                root.draw(&Text::new(
                    line.clone(),
                    (b.x, row.caption_y + i as i32 * line_height(text_size::BODY)),
                    font(text_size::BODY).pos(Pos::new(HPos::Left, VPos::Top)),
                ))
                .map_err(err)?;
            }
            let last_row = r + 1 == lay.rows.len();
            draw_panel(root, fig, fig.panel(r, c), b, row, last_row.then_some(lay))?;
        }
    }
    Ok(())
}

/// One legend for the whole figure, centred, wrapped onto more lines if needed.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    lay: &Layout,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    const SWATCH: i32 = 30;
    const GAP: i32 = 34;
    let entries: Vec<(i32, &super::figures::LegendEntry)> = fig
        .legend
        .iter()
        .map(|e| (text_width(&e.label, text_size::BODY) as i32, e))
        .collect();
    let total: i32 = entries
        .iter()
        .map(|(w, _)| SWATCH + 8 + w + GAP)
        .sum::<i32>()
        - GAP;
    let mut x = (lay.width as i32 - total).max(0) / 2;
    let y = lay.legend_y;
    for (w, entry) in entries {
        let colour = rgb(&entry.style);
        match entry.style.mark {
            Mark::Bars => {
                root.draw(&Rectangle::new(
                    [(x + 4, y - 8), (x + SWATCH - 4, y + 8)],
                    colour.filled(),
                ))?;
            }
            Mark::Line(marker) => {
                root.draw(&PathElement::new(
                    vec![(x, y), (x + SWATCH, y)],
                    colour.stroke_width(3),
                ))?;
                draw_marker(root, (x + SWATCH / 2, y), marker, colour)?;
            }
        }
        root.draw(&Text::new(
            entry.label.clone(),
            (x + SWATCH + 8, y),
            font(text_size::BODY).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        x += SWATCH + 8 + w + GAP;
    }
    Ok(())
}

fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    marker: Marker,
    colour: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    const R: i32 = 5;
    let fill = colour.filled();
    match marker {
        Marker::Circle => area.draw(&Circle::new((x, y), R, fill)),
        Marker::Square => area.draw(&Rectangle::new([(x - R, y - R), (x + R, y + R)], fill)),
        Marker::Triangle => area.draw(&Polygon::new(
            vec![(x, y - R - 1), (x - R - 1, y + R), (x + R + 1, y + R)],
            fill,
        )),
        Marker::Diamond => area.draw(&Polygon::new(
            vec![
                (x, y - R - 1),
                (x + R + 1, y),
                (x, y + R + 1),
                (x - R - 1, y),
            ],
            fill,
        )),
    }
}

/// One panel: y axis with its labels, grid lines, the series, the x ticks, and under
/// the last row (`labels` given) the version labels.
fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    panel: &Panel,
    col: &ColumnBox,
    row: &RowBox,
    labels: Option<&Layout>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let top = y_top(fig, panel);
    let area = root
        .clone()
        .shrink((col.x, row.plot_y), (col.tick_w + col.plot_w, row.plot_h));
    let n = fig.columns[panel.column].categories.len();
    let x_range = -0.6..(n as f64 - 0.4);
    let digits = decimals(top);
    if fig.log_y {
        let mut chart = ChartBuilder::on(&area)
            .y_label_area_size(col.tick_w)
            .build_cartesian_2d(x_range, (0.7..top).log_scale())
            .map_err(err)?;
        // plotters' own labels of a log axis are only some of its key points (1, 10,
        // 100 past a decade or two): et draws every grid line's tick and label itself.
        chart
            .configure_mesh()
            .disable_x_mesh()
            .disable_x_axis()
            .y_label_formatter(&|_| String::new())
            .set_tick_mark_size(LabelAreaPosition::Left, 0)
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(WHITE.mix(0.0))
            .axis_style(BLACK.stroke_width(1))
            .draw()
            .map_err(err)?;
        let (x0, x1) = (chart.x_range().start, chart.x_range().end);
        for v in log_grid(top, row.plot_h) {
            chart
                .plotting_area()
                .draw(&PathElement::new(vec![(x0, v), (x1, v)], BLACK.mix(0.12)))
                .map_err(err)?;
            let (_, y) = chart.backend_coord(&(x0, v));
            root.draw(&PathElement::new(
                vec![(col.plot_x - TICK_LEN, y), (col.plot_x, y)],
                BLACK.stroke_width(1),
            ))
            .map_err(err)?;
            root.draw(&Text::new(
                tidy_number(v, 0),
                (col.plot_x - TICK_LEN - 4, y),
                font(text_size::TICK).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(err)?;
        }
        draw_series(&chart, fig, panel).map_err(err)?;
        finish_panel(root, &chart, fig, panel, col, row, labels).map_err(err)
    } else {
        let mut chart = ChartBuilder::on(&area)
            .y_label_area_size(col.tick_w)
            .build_cartesian_2d(x_range, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .disable_x_axis()
            .y_labels(if fig.counts {
                // Whole-number steps: plotters picks 1, 2 or 5 × 10^k below this many.
                (top.floor() as usize + 1).clamp(2, 6)
            } else {
                6
            })
            .y_label_formatter(&|v: &f64| tidy_number(*v, digits))
            .y_label_style(font(text_size::TICK))
            .set_tick_mark_size(LabelAreaPosition::Left, TICK_LEN)
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.12))
            .axis_style(BLACK.stroke_width(1))
            .draw()
            .map_err(err)?;
        draw_series(&chart, fig, panel).map_err(err)?;
        finish_panel(root, &chart, fig, panel, col, row, labels).map_err(err)
    }
}

type Chart<'a, 'b, DB, Y> =
    ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>;

fn draw_series<DB, Y>(
    chart: &Chart<'_, '_, DB, Y>,
    fig: &Figure,
    panel: &Panel,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend,
    Y: Ranged<ValueType = f64>,
{
    let plotting = chart.plotting_area();
    let visible = |v: &Option<f64>| v.filter(|v| v.is_finite() && (!fig.log_y || *v > 0.0));
    // Bars first, so lines stay on top of them.
    let mut ordered: Vec<&super::figures::Series> = panel.series.iter().collect();
    ordered.sort_by_key(|s| !matches!(s.style.mark, Mark::Bars));
    for series in ordered {
        let colour = rgb(&series.style);
        match series.style.mark {
            Mark::Bars => {
                for (i, v) in series.values.iter().enumerate() {
                    if let Some(v) = visible(v) {
                        let x = i as f64 + series.dodge;
                        plotting.draw(&Rectangle::new(
                            [(x - 0.32, 0.0), (x + 0.32, v)],
                            colour.filled(),
                        ))?;
                    }
                }
            }
            Mark::Line(marker) => {
                // One polyline per run of present values: a line never jumps a gap.
                let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
                for (i, v) in series.values.iter().enumerate() {
                    match visible(v) {
                        Some(v) => runs
                            .last_mut()
                            .expect("one run")
                            .push((i as f64 + series.dodge, v)),
                        None => runs.push(Vec::new()),
                    }
                }
                for run in runs.iter().filter(|r| !r.is_empty()) {
                    plotting.draw(&PathElement::new(run.clone(), colour.stroke_width(2)))?;
                }
                let base = plotting.strip_coord_spec();
                let (bx, by) = base.get_base_pixel();
                for &(x, v) in runs.iter().flatten() {
                    let (px, py) = chart.backend_coord(&(x, v));
                    draw_marker(&base, (px - bx, py - by), marker, colour)?;
                }
            }
        }
    }
    Ok(())
}

fn finish_panel<DB, Y>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, '_, DB, Y>,
    fig: &Figure,
    panel: &Panel,
    col: &ColumnBox,
    row: &RowBox,
    labels: Option<&Layout>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend,
    Y: Ranged<ValueType = f64>,
{
    let bottom = row.plot_y + row.plot_h as i32;
    root.draw(&PathElement::new(
        vec![
            (col.plot_x, bottom),
            (col.plot_x + col.plot_w as i32, bottom),
        ],
        BLACK.stroke_width(1),
    ))?;
    let has_data = panel
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .any(|v| v.is_finite() && (!fig.log_y || *v > 0.0));
    if !has_data {
        // Each note fits the narrowest panel the layout allows (see `min_plot`).
        let note = if panel.series.is_empty() {
            "no data"
        } else if fig.log_y {
            "none"
        } else {
            EMPTY_PANEL_NOTE
        };
        root.draw(&Text::new(
            note,
            (
                col.plot_x + col.plot_w as i32 / 2,
                row.plot_y + row.plot_h as i32 / 2,
            ),
            font(text_size::BODY)
                .color(&BLACK.mix(0.55))
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
    }
    let y_low = chart.y_range().start;
    let categories = &fig.columns[panel.column].categories;
    for (i, cat) in categories.iter().enumerate() {
        let (x, _) = chart.backend_coord(&(i as f64, y_low));
        root.draw(&PathElement::new(
            vec![(x, bottom), (x, bottom + TICK_LEN)],
            BLACK.stroke_width(1),
        ))?;
        let Some(lay) = labels else { continue };
        if i % col.step != 0 {
            continue;
        }
        let y = lay.labels_y + TICK_LEN + 4;
        let text = if col.rotate {
            Text::new(
                cat.label.clone(),
                (x, y),
                font(text_size::TICK)
                    .transform(FontTransform::Rotate270)
                    .pos(Pos::new(HPos::Right, VPos::Center)),
            )
        } else {
            Text::new(
                cat.label.clone(),
                (x, y),
                font(text_size::TICK).pos(Pos::new(HPos::Center, VPos::Top)),
            )
        };
        root.draw(&text)?;
    }
    Ok(())
}
