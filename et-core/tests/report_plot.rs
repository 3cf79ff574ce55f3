//! `et plot`: the figures are grammar × family grids whose panels state N and the
//! timeouts that were run; SVGs are well-formed with legible text (≥ 14 px) that stays
//! on the canvas and version labels that never collide; PNGs decode at the requested
//! size; sizes too small for the labels are refused.

use std::fs;
use std::path::{Path, PathBuf};

use et_core::report::figures::{figures, okabe_ito, Figure};
use et_core::report::plot::{layout, render, text_width, write_plots, Format, PlotSize};
use et_core::report::stats::ReportOptions;
use et_core::report::{build_report, Report, ReportError, RunDir};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn report_of(dirs: &[PathBuf]) -> Report {
    let dirs: Vec<RunDir> = dirs.iter().map(|d| RunDir::open(d).unwrap()).collect();
    build_report(&dirs, &ReportOptions::default()).unwrap()
}

fn fixture_report() -> Report {
    report_of(&[fixture("strings"), fixture("core")])
}

fn figure<'a>(figs: &'a [Figure], name: &str) -> &'a Figure {
    figs.iter().find(|f| f.name == name).unwrap()
}

#[test]
fn figures_are_grammar_by_family_grids_in_release_order() {
    let figs = figures(&fixture_report());
    let names: Vec<&str> = figs.iter().map(|f| f.name).collect();
    assert_eq!(names, ["bugs", "findings", "solved", "time", "throughput"]);
    let bugs = &figs[0];
    assert!(bugs.log_y);
    assert_eq!(bugs.rows, ["core", "strings"]);
    let columns: Vec<(&str, Vec<&str>)> = bugs
        .columns
        .iter()
        .map(|c| {
            let labels = c.categories.iter().map(|k| k.label.as_str()).collect();
            (c.family.as_str(), labels)
        })
        .collect();
    assert_eq!(
        columns,
        [("z3", vec!["4.8.9", "4.8.10"]), ("cvc5", vec!["1.0.0"])]
    );
    let core_z3 = bugs.panel(0, 0);
    assert_eq!((core_z3.grammar.as_str(), core_z3.column), ("core", 0));
    let crash = core_z3.series.iter().find(|s| s.label == "crash").unwrap();
    assert_eq!(crash.values, [Some(1.0), Some(0.0)]);
    assert_eq!(
        bugs.row_captions,
        [
            Some("core · N = 6 · T = 8 s".to_string()),
            Some("strings · N = 3 · T = 8 s".to_string())
        ]
    );
    let solved = figure(&figs, "solved");
    let core_z3 = solved.panel(0, 0);
    let labels: Vec<&str> = core_z3.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["solved within 1/64 s", "solved within 8 s"]);
    // Bug verdicts are not solved: 4.8.10's unsound and invalid model are left out.
    assert_eq!(core_z3.series[1].values, [Some(4.0), Some(3.0)]);
    let legend: Vec<&str> = solved.legend.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(legend, labels);
}

#[test]
fn a_study_run_at_2_s_never_claims_8_s() {
    let report = report_of(&[fixture("ints")]);
    let figs = figures(&report);
    let solved = figure(&figs, "solved");
    let legend: Vec<&str> = solved.legend.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(legend, ["solved within 1/64 s", "solved within 2 s"]);
    let tmp = tempfile::tempdir().unwrap();
    write_plots(&report, tmp.path(), Format::Svg, PlotSize::default()).unwrap();
    for name in ["bugs", "findings", "solved", "time", "throughput"] {
        let svg = fs::read_to_string(tmp.path().join(format!("{name}.svg"))).unwrap();
        let texts: Vec<String> = svg_texts(&svg).into_iter().map(|t| t.text).collect();
        assert!(
            texts.iter().any(|t| t.contains("T = 2 s")),
            "{name}: {texts:?}"
        );
        assert!(
            !texts.iter().any(|t| t.contains("8 s")),
            "{name}: {texts:?}"
        );
    }
}

#[test]
fn panels_with_different_timeouts_name_their_own() {
    // core ran at 8 s, ints at 2 s: no single legend label fits both rows.
    let figs = figures(&report_of(&[fixture("core"), fixture("ints")]));
    let solved = figure(&figs, "solved");
    let legend: Vec<&str> = solved.legend.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(
        legend,
        [
            "solved within the lowest timeout",
            "solved within the highest timeout measured"
        ]
    );
    let captions: Vec<&str> = solved
        .row_captions
        .iter()
        .map(|c| c.as_deref().unwrap())
        .collect();
    assert_eq!(
        captions,
        [
            "core · N = 6 · T = 8 s · solved within 1/64 s, solved within 8 s",
            "ints · N = 4 · T = 2 s · solved within 1/64 s, solved within 2 s"
        ]
    );
}

/// A `<text>` element of an SVG: content, anchor point, size and orientation.
#[derive(Debug)]
struct SvgText {
    text: String,
    x: f64,
    y: f64,
    font_px: f64,
    anchor: String,
    dy: String,
    vertical: bool,
}

fn svg_texts(svg: &str) -> Vec<SvgText> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let text: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            let num = |a: &str| n.attribute(a).and_then(|v| v.parse().ok()).unwrap_or(0.0);
            SvgText {
                text: text.trim().to_string(),
                x: num("x"),
                y: num("y"),
                font_px: num("font-size"),
                anchor: n.attribute("text-anchor").unwrap_or("start").to_string(),
                dy: n.attribute("dy").unwrap_or("").to_string(),
                vertical: n
                    .attribute("transform")
                    .is_some_and(|t| t.starts_with("rotate(270")),
            }
        })
        .collect()
}

/// The box a text covers, from the bundled font's advance widths (an SVG viewer's
/// sans-serif is no wider) and plotters' anchors: `(x0, y0, x1, y1)`.
fn extent(t: &SvgText) -> (f64, f64, f64, f64) {
    let w = f64::from(text_width(&t.text, t.font_px * 1.24));
    let h = t.font_px * 1.2;
    // Along the text: where it starts relative to its anchor.
    let along = match t.anchor.as_str() {
        "end" => -w,
        "middle" => -w / 2.0,
        _ => 0.0,
    };
    // Across the text: top ("0.76em" baseline shift) or centre ("0.5ex").
    let across = if t.dy.ends_with("em") { 0.0 } else { -h / 2.0 };
    if t.vertical {
        // rotate(270) about the anchor: the text reads upwards, "along" points up.
        let (y0, y1) = (t.y - (along + w), t.y - along);
        (t.x + across, y0, t.x + across + h, y1)
    } else {
        (t.x + along, t.y + across, t.x + along + w, t.y + across + h)
    }
}

fn svg_size(svg: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let num = |a: &str| root.attribute(a).unwrap().parse::<f64>().unwrap();
    (num("width"), num("height"))
}

/// Every text is at least 14 px and lies on the canvas.
fn assert_legible(name: &str, svg: &str) {
    let (w, h) = svg_size(svg);
    for t in svg_texts(svg).iter().filter(|t| !t.text.is_empty()) {
        assert!(
            t.font_px >= 14.0,
            "{name}: `{}` is {} px",
            t.text,
            t.font_px
        );
        let (x0, y0, x1, y1) = extent(t);
        assert!(
            x0 >= -1.0 && y0 >= -1.0 && x1 <= w + 1.0 && y1 <= h + 1.0,
            "{name}: `{}` at ({x0:.0}, {y0:.0})-({x1:.0}, {y1:.0}) leaves the {w}×{h} canvas",
            t.text
        );
    }
}

#[test]
fn svg_text_is_legible_and_on_the_canvas() {
    let tmp = tempfile::tempdir().unwrap();
    let paths = write_plots(
        &fixture_report(),
        tmp.path(),
        Format::Svg,
        PlotSize::default(),
    )
    .unwrap()
    .paths;
    assert_eq!(paths.len(), 5);
    for path in &paths {
        let svg = fs::read_to_string(path).unwrap();
        assert_legible(&path.display().to_string(), &svg);
        assert_eq!(svg_size(&svg).0, 1200.0);
    }
    let svg = fs::read_to_string(tmp.path().join("bugs.svg")).unwrap();
    let texts = svg_texts(&svg);
    let has = |s: &str| texts.iter().any(|t| t.text == s);
    for s in [
        "Bug triggers per solver release",
        "core · N = 6 · T = 8 s",
        "strings · N = 3 · T = 8 s",
        "bug triggers",
        "unsound",
        "invalid model",
        "crash",
        "z3",
        "cvc5",
        "z3 version",
        "cvc5 version",
    ] {
        assert!(has(s), "no text `{s}` in bugs.svg: {texts:?}");
    }
    // Version labels once, under the last row, left to right in release order.
    let x = |label: &str| -> Vec<f64> {
        texts
            .iter()
            .filter(|t| t.text == label)
            .map(|t| t.x)
            .collect()
    };
    let (old, new, cvc5) = (x("4.8.9"), x("4.8.10"), x("1.0.0"));
    assert_eq!((old.len(), new.len(), cvc5.len()), (1, 1, 1), "{texts:?}");
    assert!(old[0] < new[0] && new[0] < cvc5[0], "{texts:?}");
    // Okabe–Ito: unsound vermillion, invalid model blue, crash reddish purple.
    for (r, g, b) in [
        okabe_ito::VERMILLION,
        okabe_ito::BLUE,
        okabe_ito::REDDISH_PURPLE,
    ] {
        let hex = format!("#{r:02X}{g:02X}{b:02X}");
        assert!(svg.contains(&hex), "{hex} not in bugs.svg");
    }
}

/// A run directory with `versions` of z3 and three of cvc5 on two formulas.
fn many_versions(dir: &Path, versions: usize) {
    fs::create_dir_all(dir).unwrap();
    let mut solvers: Vec<(String, &str, String)> = (0..versions)
        .map(|i| {
            (
                format!("z3-4.{}.{}", 8 + i / 10, i % 10),
                "z3",
                String::new(),
            )
        })
        .collect();
    solvers.extend((0..3).map(|i| (format!("cvc5-1.{i}.0"), "cvc5", String::new())));
    for s in &mut solvers {
        s.2 = s.0.split_once('-').unwrap().1.to_string();
    }
    let mut toml = String::from(
        "et_version = \"0.1.0\"\ngrammar = \"lia\"\nstart = \"0\"\nn = 2\ntimeout_s = 8.0\n",
    );
    let mut csv = String::from(
        "grammar,index,size,solver,family,version,status,verdict,reference,reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal\n",
    );
    for (i, (name, family, version)) in solvers.iter().enumerate() {
        toml.push_str(&format!(
            "\n[[solvers]]\nname = \"{name}\"\nfamily = \"{family}\"\nversion = \"{version}\"\ncommand = [\"x\"]\n"
        ));
        for index in 0..2 {
            let (status, verdict) = if (i + index) % 7 == 0 {
                ("sat", "invalid_model")
            } else {
                ("unsat", "")
            };
            csv.push_str(&format!(
                "lia,{index},3,{name},{family},{version},{status},{verdict},,,0.0{i},0.0{i},1000,0,\n"
            ));
        }
    }
    fs::write(dir.join("run.toml"), toml).unwrap();
    fs::write(dir.join("runs.csv"), csv).unwrap();
}

#[test]
fn dense_version_labels_turn_vertical_and_never_collide() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("core");
    many_versions(&dir, 60);
    let report = report_of(&[dir]);
    for width in [1200, 800] {
        let size = PlotSize {
            width,
            height: None,
        };
        for fig in figures(&report) {
            let lay = layout(&fig, size).unwrap();
            assert!(lay.columns[0].rotate && lay.columns[0].step >= 1);
            let svg = String::from_utf8(render(&fig, Format::Svg, size).unwrap()).unwrap();
            assert_legible(fig.name, &svg);
            let tick_px = 18.0 / 1.24;
            let mut labels: Vec<(f64, f64, f64)> = svg_texts(&svg)
                .iter()
                .filter(|t| t.vertical && (t.font_px - tick_px).abs() < 0.01)
                .map(|t| {
                    let (x0, _, x1, y1) = extent(t);
                    (x0, x1, y1)
                })
                .collect();
            // Every z3 version is labelled or thinned to every k-th; cvc5 stays whole.
            assert!(labels.len() >= 60 / lay.columns[0].step, "{}", labels.len());
            labels.sort_by(|a, b| a.0.total_cmp(&b.0));
            for pair in labels.windows(2) {
                assert!(
                    pair[0].1 <= pair[1].0 + 0.5,
                    "{}: {pair:?} overlap",
                    fig.name
                );
            }
            // The family description sits below the longest label.
            let lowest = labels.iter().map(|l| l.2).fold(0.0, f64::max);
            let desc = svg_texts(&svg)
                .into_iter()
                .find(|t| t.text == "z3 version")
                .unwrap();
            assert!(desc.y >= lowest, "{}: {} < {lowest}", fig.name, desc.y);
        }
    }
}

fn png_size(bytes: &[u8]) -> (u32, u32, usize) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    // Not a blank canvas: count pixels far from white.
    let dark = buf.iter().filter(|b| **b < 128).count();
    (info.width, info.height, dark)
}

#[test]
fn png_has_the_requested_size() {
    // Two renders only: PNG rasterising is slow in an unoptimised test build.
    let figs = figures(&fixture_report());
    let (w, h, dark) = png_size(&render(&figs[0], Format::Png, PlotSize::default()).unwrap());
    assert_eq!(w, 1200);
    assert!(h >= 400);
    assert!(dark > 1000, "the PNG looks empty");
    let size = PlotSize {
        width: 1600,
        height: Some(1000),
    };
    let (w, h, _) = png_size(&render(&figs[1], Format::Png, size).unwrap());
    assert_eq!((w, h), (1600, 1000));
}

#[test]
fn a_size_too_small_for_the_figure_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("core");
    many_versions(&dir, 60);
    let report = report_of(&[fixture("core"), fixture("strings"), dir]);
    let out = tmp.path().join("plots");
    for (size, word) in [
        (
            PlotSize {
                width: 1200,
                height: Some(300),
            },
            "--height 300",
        ),
        (
            PlotSize {
                width: 400,
                height: None,
            },
            "--width 400",
        ),
    ] {
        let err = write_plots(&report, &out, Format::Svg, size).unwrap_err();
        assert!(matches!(err, ReportError::BadSize { .. }), "{err}");
        let msg = err.to_string();
        assert!(msg.contains(word) && msg.contains("at least"), "{msg}");
        assert!(err.is_bad_input());
        assert!(!out.exists(), "a refused size wrote {}", out.display());
    }
}

/// A run directory of one solver with `bugs` unsound calls (and as many formulas).
fn many_bugs(dir: &Path, bugs: usize) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("run.toml"),
        format!(
            "et_version = \"0.1.0\"\ngrammar = \"lia\"\nstart = \"0\"\nn = {bugs}\ntimeout_s = 8.0\n\
             \n[[solvers]]\nname = \"z3-1.0\"\nfamily = \"z3\"\nversion = \"1.0\"\ncommand = [\"x\"]\n"
        ),
    )
    .unwrap();
    let mut csv = String::from(
        "grammar,index,size,solver,family,version,status,verdict,reference,reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal\n",
    );
    for index in 0..bugs {
        csv.push_str(&format!(
            "lia,{index},3,z3-1.0,z3,1.0,unsat,unsound,,,0.01,0.01,1000,0,\n"
        ));
    }
    fs::write(dir.join("runs.csv"), csv).unwrap();
}

#[test]
fn every_grid_line_of_a_log_axis_is_labelled() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    many_bugs(&dir, 150);
    let out = tmp.path().join("plots");
    write_plots(&report_of(&[dir]), &out, Format::Svg, PlotSize::default()).unwrap();
    let svg = fs::read_to_string(out.join("bugs.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let grid: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("opacity") == Some("0.12"))
        .map(|n| {
            let first = n.attribute("points").unwrap().split_whitespace().next();
            first.unwrap().split(',').nth(1).unwrap().parse().unwrap()
        })
        .collect();
    let ticks: Vec<(f64, String)> = svg_texts(&svg)
        .into_iter()
        .filter(|t| t.anchor == "end" && t.text.parse::<f64>().is_ok())
        .map(|t| (t.y, t.text))
        .collect();
    let labels: Vec<&str> = ticks.iter().map(|(_, t)| t.as_str()).collect();
    for decade in ["1", "10", "100"] {
        assert!(labels.contains(&decade), "{labels:?}");
    }
    assert!(grid.len() >= 3, "{grid:?}");
    for y in &grid {
        assert!(
            ticks.iter().any(|(ty, _)| (ty - y).abs() < 1.0),
            "the grid line at y = {y} has no label: {ticks:?}"
        );
    }
}

#[test]
fn timeouts_no_run_measured_are_warned() {
    let ints = fixture("ints"); // run at 2 s
    let tmp = tempfile::tempdir().unwrap();
    let options = ReportOptions {
        timeouts: vec![et_core::report::timeouts::parse_timeout("100").unwrap()],
        ..ReportOptions::default()
    };
    let dirs = vec![RunDir::open(&ints).unwrap()];
    let report = build_report(&dirs, &options).unwrap();
    let written = write_plots(&report, tmp.path(), Format::Svg, PlotSize::default()).unwrap();
    assert_eq!(written.warnings.len(), 1, "{:?}", written.warnings);
    let warning = &written.warnings[0];
    assert!(
        warning.starts_with("solved: ") && warning.contains("--timeouts value (100 s)"),
        "{warning}"
    );
    assert!(warning.contains("timeout (2 s)"), "{warning}");
    // Measured timeouts: nothing to say.
    let written = write_plots(
        &report_of(std::slice::from_ref(&ints)),
        tmp.path(),
        Format::Svg,
        PlotSize::default(),
    )
    .unwrap();
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
    // The command says it on stderr and still succeeds.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["plot", ints.to_str().unwrap(), "--timeouts", "100", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("et: warning: solved: "), "{err}");
}
