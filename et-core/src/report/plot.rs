//! Draws [`Figure`]s as SVG or PNG with plotters. Text goes through ab_glyph with the
//! bundled DejaVu Sans (no fontconfig needed); PNGs are drawn into memory and encoded
//! with the `png` crate.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::types::RangedCoordi32;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, FontTransform};

use super::figures::{figures, Figure};
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

/// Figure width in pixels: readable at 1200 px without scaling.
pub const WIDTH: u32 = 1200;
/// Height of one row of panels.
const PANEL_HEIGHT: u32 = 460;
/// Height of the figure title strip (title plus the shared legend).
const TITLE_HEIGHT: u32 = 84;
const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER_FONT: Once = Once::new();

/// Colours by palette slot (see [`super::figures::colour`]); colour-blind-safe hues.
const PALETTE: &[RGBColor] = &[
    RGBColor(213, 94, 0),   // unsound: vermillion
    RGBColor(230, 159, 0),  // invalid model: orange
    RGBColor(117, 62, 160), // crash: purple
    RGBColor(86, 180, 233), // lowest timeout: sky blue
    RGBColor(0, 84, 160),   // highest timeout: dark blue
    RGBColor(0, 140, 100),  // time: bluish green
    RGBColor(90, 90, 90),   // throughput: grey
];

fn register_font() {
    REGISTER_FONT.call_once(|| {
        // The font is compiled in, so this cannot fail at run time once tests pass.
        if plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_err() {
            panic!("bundled font DejaVuSans.ttf is not a valid font");
        }
    });
}

/// Writes every figure of the report into `out_dir` (created if needed); returns the paths.
pub fn write_plots(
    report: &Report,
    out_dir: &Path,
    format: Format,
) -> Result<Vec<PathBuf>, ReportError> {
    fs::create_dir_all(out_dir).map_err(|e| ReportError::io(out_dir, e))?;
    let mut written = Vec::new();
    for fig in figures(report) {
        let path = out_dir.join(format!("{}.{}", fig.name, format.extension()));
        let bytes = render(&fig, format).map_err(|message| ReportError::Plot {
            path: path.clone(),
            message,
        })?;
        crate::atomic_file::write(&path, &bytes).map_err(|e| ReportError::io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// Size of a figure: full width, one row of panels per two grammars.
pub fn figure_size(fig: &Figure) -> (u32, u32) {
    let rows = fig.panels.len().div_ceil(columns(fig)).max(1) as u32;
    (WIDTH, TITLE_HEIGHT + rows * PANEL_HEIGHT)
}

fn columns(fig: &Figure) -> usize {
    if fig.panels.len() <= 1 {
        1
    } else {
        2
    }
}

/// Renders one figure to the bytes of an SVG or PNG file.
pub fn render(fig: &Figure, format: Format) -> Result<Vec<u8>, String> {
    register_font();
    let (w, h) = figure_size(fig);
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, (w, h)).into_drawing_area();
                draw_figure(&root, fig)?;
                root.present().map_err(|e| e.to_string())?;
            }
            Ok(text.into_bytes())
        }
        Format::Png => {
            let mut rgb = vec![0u8; (w * h * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
                draw_figure(&root, fig)?;
                root.present().map_err(|e| e.to_string())?;
            }
            encode_png(&rgb, w, h)
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

fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let (title, body) = root.split_vertically(TITLE_HEIGHT);
    let legend_area = title
        .titled(&fig.title, (FONT, 26).into_font().color(&BLACK))
        .map_err(err)?;
    draw_legend(&legend_area, fig).map_err(err)?;
    let cols = columns(fig);
    let rows = fig.panels.len().div_ceil(cols).max(1);
    let cells = body.split_evenly((rows, cols));
    for (panel, area) in fig.panels.iter().zip(&cells) {
        if fig.log_y {
            let max = max_value(fig, panel).max(1.0);
            let range = (0.7..(max * 3.0).max(10.0)).log_scale();
            draw_panel(area, fig, panel, range, true)?;
        } else {
            let max = max_value(fig, panel);
            let top = if max > 0.0 { max * 1.15 } else { 1.0 };
            draw_panel(area, fig, panel, 0.0..top, false)?;
        }
    }
    Ok(())
}

/// One legend for the whole figure: every panel has the same series in the same colours.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let Some(panel) = fig.panels.first() else {
        return Ok(());
    };
    let style = (FONT, 16).into_font().color(&BLACK);
    let entries: Vec<(&str, RGBColor, u32)> = panel
        .series
        .iter()
        .map(|s| {
            let (w, _) = area
                .estimate_text_size(&s.label, &style)
                .unwrap_or((100, 16));
            (s.label.as_str(), PALETTE[s.colour % PALETTE.len()], w)
        })
        .collect();
    const SWATCH: i32 = 28;
    const GAP: i32 = 30;
    let total: i32 = entries
        .iter()
        .map(|(_, _, w)| SWATCH + 8 + *w as i32 + GAP)
        .sum::<i32>()
        - GAP;
    let (width, height) = area.dim_in_pixel();
    let mut x = (width as i32 - total).max(0) / 2;
    let y = height as i32 / 2;
    for (label, colour, w) in entries {
        area.draw(&PathElement::new(
            vec![(x, y), (x + SWATCH, y)],
            ShapeStyle::from(&colour).stroke_width(3),
        ))?;
        area.draw(&Circle::new((x + SWATCH / 2, y), 5, colour.filled()))?;
        area.draw(&Text::new(
            label.to_string(),
            (x + SWATCH + 8, y),
            style.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        x += SWATCH + 8 + w as i32 + GAP;
    }
    Ok(())
}

/// Tick labels without float noise: `2` not `2.0`, `0.25` not `0.25000000000000006`.
fn tidy_number(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

fn max_value(_fig: &Figure, panel: &super::figures::Panel) -> f64 {
    panel
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten())
        .fold(0.0, |m: f64, v| m.max(*v))
}

fn draw_panel<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    panel: &super::figures::Panel,
    y_range: Y,
    log_y: bool,
) -> Result<(), String>
where
    DB: DrawingBackend,
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let max_x = fig.categories.iter().map(|c| c.x).max().unwrap_or(0);
    let longest = fig
        .categories
        .iter()
        .map(|c| c.label.chars().count())
        .max()
        .unwrap_or(1);
    let (panel_w, _) = area.dim_in_pixel();
    // Horizontal labels when they fit side by side, else rotated (about 8 px per character).
    let slot = (panel_w as f64 - 110.0) / (max_x + 2) as f64;
    let rotate = (longest * 8 + 8) as f64 > slot;
    let label_area = if rotate {
        (longest as u32 * 8 + 24).clamp(40, 220)
    } else {
        40
    };
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, (FONT, 22).into_font().color(&BLACK))
        .margin(12)
        .x_label_area_size(label_area)
        .y_label_area_size(78)
        .build_cartesian_2d(-1..max_x + 1, y_range)
        .map_err(err)?;
    let last_y_label = std::cell::RefCell::new(String::new());
    chart
        .configure_mesh()
        .disable_x_mesh()
        // Labels are drawn by hand below; one empty key point (0 overflows in plotters).
        .x_labels(1)
        .x_label_formatter(&|_| String::new())
        .set_tick_mark_size(LabelAreaPosition::Bottom, 0)
        .y_label_formatter(&|v: &f64| {
            // A log axis gets a key point at every 1..9 × 10^k; label 1, 2 and 5 only,
            // and each decade once (plotters repeats the point between two decades).
            let mantissa = *v / 10f64.powf(v.log10().floor());
            let keep = !log_y || [1.0, 2.0, 5.0].iter().any(|m| (mantissa - m).abs() < 1e-6);
            let text = if keep { tidy_number(*v) } else { String::new() };
            if !text.is_empty() && last_y_label.replace(text.clone()) == text {
                return String::new();
            }
            text
        })
        .y_label_style((FONT, 14).into_font().color(&BLACK))
        .y_desc(&fig.y_label)
        .axis_desc_style((FONT, 16).into_font().color(&BLACK))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()
        .map_err(err)?;
    draw_x_labels(area, &chart, fig, rotate).map_err(err)?;

    let mut drew_any = false;
    for series in &panel.series {
        let colour = PALETTE[series.colour % PALETTE.len()];
        let style = ShapeStyle::from(&colour).stroke_width(3);
        let visible = |v: &Option<f64>| v.filter(|v| !log_y || *v > 0.0);
        // One polyline per family and per run of present values: lines never jump a gap.
        let mut segments: Vec<Vec<(i32, f64)>> = Vec::new();
        let mut prev_family: Option<&str> = None;
        for (cat, value) in fig.categories.iter().zip(&series.values) {
            match visible(value) {
                Some(v) => {
                    if prev_family != Some(cat.family.as_str()) || segments.is_empty() {
                        segments.push(Vec::new());
                    }
                    segments.last_mut().expect("pushed").push((cat.x, v));
                    prev_family = Some(&cat.family);
                }
                None => prev_family = None,
            }
        }
        for seg in &segments {
            drew_any = true;
            chart
                .draw_series(LineSeries::new(seg.iter().copied(), style))
                .map_err(err)?;
            chart
                .draw_series(seg.iter().map(|p| Circle::new(*p, 5, colour.filled())))
                .map_err(err)?;
        }
    }
    if !drew_any {
        let (w, h) = chart.plotting_area().dim_in_pixel();
        let note = if log_y { "no bug triggers" } else { "no data" };
        let style = (FONT, 18).into_font().color(&BLACK.mix(0.5));
        let (tw, _) = chart
            .plotting_area()
            .estimate_text_size(note, &style)
            .map_err(err)?;
        let base = chart.plotting_area().strip_coord_spec();
        base.draw(&Text::new(
            note,
            ((w as i32 - tw as i32) / 2, h as i32 / 2),
            style,
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// Solver names under the x axis, with a tick each; plotters centres rotated labels on
/// the axis line, so they are placed by hand, starting just below it.
fn draw_x_labels<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordi32, Y>>,
    fig: &Figure,
    rotate: bool,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend,
    Y: Ranged<ValueType = f64>,
{
    let (base_x, base_y) = area.get_base_pixel();
    let y_low = chart.y_range().start;
    let style = (FONT, 14).into_font().color(&BLACK);
    for cat in &fig.categories {
        let (px, py) = chart.backend_coord(&(cat.x, y_low));
        let (x, y) = (px - base_x, py - base_y);
        area.draw(&PathElement::new(vec![(x, y), (x, y + 5)], BLACK))?;
        let text = if rotate {
            Text::new(
                cat.label.clone(),
                (x, y + 8),
                style
                    .clone()
                    .transform(FontTransform::Rotate90)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )
        } else {
            Text::new(
                cat.label.clone(),
                (x, y + 8),
                style.clone().pos(Pos::new(HPos::Center, VPos::Top)),
            )
        };
        area.draw(&text)?;
    }
    Ok(())
}
