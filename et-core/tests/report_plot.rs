//! `et plot`: the figures hold the expected panels and versions, SVGs are well-formed
//! XML with the panel titles and version labels as text, PNGs decode at 1200 px.

use std::path::{Path, PathBuf};

use et_core::report::figures::figures;
use et_core::report::plot::{write_plots, Format, WIDTH};
use et_core::report::stats::ReportOptions;
use et_core::report::{build_report, Report, RunDir};

fn fixture_report() -> Report {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report");
    let dirs: Vec<RunDir> = ["strings", "core"]
        .iter()
        .map(|d| RunDir::open(base.join(d)).unwrap())
        .collect();
    build_report(&dirs, &ReportOptions::default()).unwrap()
}

/// A scratch directory of the test's own (`tempfile`), removed when dropped, even when
/// the test fails.
struct Scratch {
    _root: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// A directory for plots that does not exist yet, inside a scratch directory.
fn out_dir(test: &str) -> Scratch {
    let root = tempfile::Builder::new()
        .prefix(&format!("et-plot-{test}-"))
        .tempdir()
        .unwrap();
    let path = root.path().join("plots");
    Scratch { _root: root, path }
}

#[test]
fn figures_put_versions_in_release_order_with_family_gaps() {
    let figs = figures(&fixture_report());
    let names: Vec<&str> = figs.iter().map(|f| f.name).collect();
    assert_eq!(names, ["bugs", "solved", "time", "throughput"]);
    let cats: Vec<(&str, i32)> = figs[0]
        .categories
        .iter()
        .map(|c| (c.label.as_str(), c.x))
        .collect();
    assert_eq!(cats, [("z3-4.8.9", 0), ("z3-4.8.10", 1), ("cvc5-1.0.0", 3)]);
    let bugs = &figs[0];
    assert!(bugs.log_y);
    let core = &bugs.panels[0];
    assert_eq!(core.title, "core");
    let crash = core.series.iter().find(|s| s.label == "crash").unwrap();
    assert_eq!(crash.values, [Some(1.0), Some(0.0), Some(0.0)]);
    let solved = &figs[1].panels[0];
    let labels: Vec<&str> = solved.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["within 1/64 s", "within 8 s"]);
    assert_eq!(solved.series[0].values, [Some(2.0), Some(0.0), Some(1.0)]);
    assert_eq!(solved.series[1].values, [Some(4.0), Some(5.0), Some(5.0)]);
}

/// Text content and x position of every `<text>` element.
fn svg_texts(svg: &str) -> Vec<(String, f64)> {
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
            let x = n.attribute("x").and_then(|x| x.parse().ok()).unwrap_or(0.0);
            (text.trim().to_string(), x)
        })
        .collect()
}

#[test]
fn svg_has_panel_titles_and_version_labels() {
    let dir = out_dir("svg");
    let paths = write_plots(&fixture_report(), &dir, Format::Svg).unwrap();
    assert_eq!(paths.len(), 4);
    let svg = std::fs::read_to_string(dir.join("bugs.svg")).unwrap();
    let texts = svg_texts(&svg);
    let has = |t: &str| texts.iter().any(|(s, _)| s == t);
    for t in [
        "Correctness evolution: bug triggers per solver version",
        "core",
        "strings",
        "bug triggers (log scale)",
        "unsound",
        "invalid model",
        "crash",
    ] {
        assert!(has(t), "no text `{t}` in bugs.svg: {texts:?}");
    }
    // Each version label appears once per panel, left to right in release order.
    let xs = |label: &str| -> Vec<f64> {
        texts
            .iter()
            .filter(|(s, _)| s == label)
            .map(|(_, x)| *x)
            .collect()
    };
    let (old, new, cvc5) = (xs("z3-4.8.9"), xs("z3-4.8.10"), xs("cvc5-1.0.0"));
    assert_eq!((old.len(), new.len(), cvc5.len()), (2, 2, 2), "{texts:?}");
    for panel in 0..2 {
        assert!(
            old[panel] < new[panel] && new[panel] < cvc5[panel],
            "{texts:?}"
        );
    }
    for name in ["solved", "time", "throughput"] {
        let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
        let texts = svg_texts(&svg);
        assert!(
            texts.iter().any(|(s, _)| s == "strings"),
            "{name}: {texts:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn png_decodes_at_full_width() {
    let dir = out_dir("png");
    write_plots(&fixture_report(), &dir, Format::Png).unwrap();
    for name in ["bugs", "solved", "time", "throughput"] {
        let file = std::fs::File::open(dir.join(format!("{name}.png"))).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.width, WIDTH, "{name}");
        assert!(info.height >= 400, "{name}");
        // Not a blank canvas: some pixels are far from white.
        assert!(
            buf.iter().filter(|b| **b < 128).count() > 1000,
            "{name} looks empty"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
