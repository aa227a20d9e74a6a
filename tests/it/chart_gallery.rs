//! The chart gallery: every chart kind of the reports drawn from normal, flat, single-point,
//! empty and extreme data, one HTML page per kind of data, opened in headless Chromium.
//!
//! A probe script measures the rendered page (`getBoundingClientRect` of every `<text>` of
//! every chart, so rotated text counts as drawn) and reports, per chart: fewer than two tick
//! labels on an axis, a tick label not beside the plot area (an x label's centre outside the
//! plot's width or above its bottom, a y label's centre outside its height or right of its left
//! edge), any text outside the `<svg>`, any two texts that overlap, and any placeholder text
//! (`no chart`, `NaN`, `inf`, `undefined`) in the page. An empty data set must give a figure
//! that says "No data" in words. Screenshots go to `target/browser/chart-gallery-CASE.png` for a
//! person to look at.
//!
//! Skipped (with a message) without Chromium; `scripts/test-all.sh` installs it and sets
//! `SGCTL_REQUIRE_CHROMIUM=1`, which makes a missing browser a failure.

use serde_json::Value;
use sgctl::bench::stats::moving_average;
use sgctl::report::chart::{
    bars_svg, heatmap_svg, histogram_svg, xy_svg, Band, BarChart, ChartError, HeatMap, Histogram,
    Mark, Series, XyChart, DEFAULT_SIZE,
};
use sgctl::report::html::Doc;
use std::path::Path;
use std::process::Command;

/// A named bar series: one value per category.
type Bars = (String, Vec<Option<f64>>);

#[derive(Debug, Clone, Copy, PartialEq)]
enum Case {
    Normal,
    Flat,
    Single,
    Empty,
    Extreme,
}

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::Normal => "normal",
            Case::Flat => "flat",
            Case::Single => "single",
            Case::Empty => "empty",
            Case::Extreme => "extreme",
        }
    }
}

/// `n` points of a kind's normal data, reshaped for the case. `log_x`/`log_y` say which axes
/// are logarithmic (extreme data then spans 18 decades on them).
fn shape(case: Case, normal: Vec<(f64, f64)>, log_x: bool, log_y: bool) -> Vec<(f64, f64)> {
    let n = normal.len().max(1) as f64;
    match case {
        Case::Normal => normal,
        Case::Flat => {
            let y = normal.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            normal.iter().map(|p| (p.0, y)).collect()
        }
        Case::Single => normal.get(normal.len() / 2).copied().into_iter().collect(),
        Case::Empty => Vec::new(),
        Case::Extreme => normal
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let t = i as f64 / n;
                let x = if log_x {
                    10f64.powf(-3.0 + 18.0 * t)
                } else {
                    p.0 * 1e9
                };
                let y = if log_y {
                    10f64.powf(-3.0 + 18.0 * t)
                } else if i % 7 == 3 {
                    -2.5e14
                } else {
                    1e-3 + 1e15 * t * t
                };
                (x, y)
            })
            .collect(),
    }
}

fn wave(n: usize, base: f64, amp: f64) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| {
            let t = i as f64;
            (
                t * 0.5,
                base + amp * (t / 5.0).sin() + amp * 0.3 * ((t * 7.3).sin()),
            )
        })
        .collect()
}

/// Every chart kind the reports draw, for one case: (title, drawing).
fn charts(case: Case) -> Vec<(String, Result<String, ChartError>)> {
    let mut out = Vec::new();
    let c = case.name();

    // IOPS against time (linear), with a moving average.
    let iops = shape(case, wave(120, 40_000.0, 3_000.0), false, false);
    out.push(xy_svg(
        &XyChart::new(format!("IOPS per interval ({c})"), "time (s)", "IOPS")
            .with(Series::line("IOPS", iops.clone()).color(5))
            .with(Series::line("moving average (10)", moving_average(&iops, 10)).color(1)),
    ));

    // Latency per interval (log y), four series.
    let mut lc = XyChart::new(
        format!("Latency per interval ({c})"),
        "time (s)",
        "latency (µs)",
    );
    lc.log_y = true;
    for (name, base, mark) in [
        ("mean", 700.0, Mark::Line),
        ("99th percentile", 950.0, Mark::Dashed),
        ("max", 1400.0, Mark::Line),
        ("min", 120.0, Mark::Points),
    ] {
        lc.series.push(
            Series::line(name, shape(case, wave(120, base, base * 0.05), false, true)).mark(mark),
        );
    }
    out.push(xy_svg(&lc));

    // IOPS against queue depth (log x, whole numbers).
    let qd: Vec<(f64, f64)> = (0..9)
        .map(|i| {
            let q = f64::from(1u32 << i);
            (q, 120_000.0 * q / (q + 6.0))
        })
        .collect();
    let mut q = XyChart::new(
        format!("IOPS against queue depth ({c})"),
        "queue depth",
        "IOPS",
    )
    .integer_x();
    q.log_x = true;
    let qpts = if case == Case::Extreme {
        (0..41)
            .map(|i| (2f64.powi(i), 1e-3 * 10f64.powf(f64::from(i) * 0.4)))
            .collect()
    } else {
        shape(case, qd, true, false)
    };
    q.series
        .push(Series::line("4K random read", qpts).mark(Mark::LinePoints));
    out.push(xy_svg(&q));

    // Exceedance (log-log, a fraction capped at 1).
    let exc: Vec<(f64, f64)> = (0..40)
        .map(|i| {
            let t = f64::from(i);
            (50.0 * 1.12f64.powf(t), 10f64.powf(-t / 8.0))
        })
        .collect();
    let exc = match case {
        Case::Extreme => (0..60)
            .map(|i| {
                let t = f64::from(i) / 60.0;
                (10f64.powf(-3.0 + 18.0 * t), 10f64.powf(-17.0 * t))
            })
            .collect(),
        Case::Flat => exc.iter().map(|p| (p.0, 0.5)).collect(),
        _ => shape(case, exc, true, true),
    };
    let mut e = XyChart::new(
        format!("Latency exceedance ({c})"),
        "latency (µs)",
        "fraction of I/Os slower",
    )
    .fraction_y();
    e.log_x = true;
    e.log_y = true;
    e.series.push(Series::line("QD4", exc.clone()).color(0));
    e.series.push(
        Series::line(
            "QD32",
            exc.iter().map(|p| (p.0 * 1.7, p.1)).collect::<Vec<_>>(),
        )
        .color(1),
    );
    out.push(xy_svg(&e));

    // Steady-state measurement window: bands, average, fit, whole rounds.
    let win = shape(
        case,
        vec![
            (4.0, 30_100.0),
            (5.0, 29_400.0),
            (6.0, 30_900.0),
            (7.0, 29_800.0),
            (8.0, 30_300.0),
        ],
        false,
        false,
    );
    let avg = if win.is_empty() {
        f64::NAN
    } else {
        win.iter().map(|p| p.1).sum::<f64>() / win.len() as f64
    };
    let mut w = XyChart::new(format!("Measurement window ({c})"), "round", "IOPS").integer_x();
    w.y_from_zero = false;
    if avg.is_finite() {
        w.bands = vec![
            Band {
                name: "±20 % of average".into(),
                lo: avg * 0.8,
                hi: avg * 1.2,
                alpha: 0.18,
            },
            Band {
                name: "±10 % of average".into(),
                lo: avg * 0.9,
                hi: avg * 1.1,
                alpha: 0.25,
            },
        ];
    }
    let (a, b) = (
        win.first().map_or(0.0, |p| p.0),
        win.last().map_or(0.0, |p| p.0),
    );
    w.series
        .push(Series::line("value", win.clone()).mark(Mark::LinePoints));
    if avg.is_finite() {
        w.series
            .push(Series::line("average", vec![(a, avg), (b, avg)]).mark(Mark::Dashed));
    }
    out.push(xy_svg(&w));

    // IOPS by R/W mix, eight block sizes (log y, a legend of two rows).
    let mut m = XyChart::new(
        format!("IOPS by R/W mix, per block size ({c})"),
        "reads (% of I/Os)",
        "IOPS",
    );
    m.log_y = true;
    for (i, bs) in [
        "512 B", "4 KiB", "8 KiB", "16 KiB", "32 KiB", "64 KiB", "128 KiB", "1 MiB",
    ]
    .iter()
    .enumerate()
    {
        let k = i as f64 + 1.0;
        let pts: Vec<(f64, f64)> = [0.0, 5.0, 35.0, 50.0, 65.0, 95.0, 100.0]
            .iter()
            .map(|r| (*r, 116_800.0 / k * (0.3 + r / 140.0)))
            .collect();
        m.series
            .push(Series::line(*bs, shape(case, pts, false, true)).mark(Mark::LinePoints));
    }
    out.push(xy_svg(&m));

    // Latency histogram (log x, counts).
    let bins_of = |pts: Vec<(f64, f64)>| -> Vec<(f64, f64, f64)> {
        pts.iter()
            .map(|p| (p.0, p.0 * 1.09, p.1.abs().round()))
            .collect()
    };
    let hist: Vec<(f64, f64)> = (0..50)
        .map(|i| {
            let t = f64::from(i);
            (
                100.0 * 1.09f64.powf(t),
                5000.0 * (-(t - 25.0).powi(2) / 40.0).exp(),
            )
        })
        .collect();
    out.push(histogram_svg(&Histogram {
        title: format!("Completion latency histogram ({c})"),
        x_label: "completion latency (µs)".into(),
        y_label: "I/Os".into(),
        bins: bins_of(shape(case, hist.clone(), true, false)),
        log_x: true,
        size: DEFAULT_SIZE,
    }));

    // Histogram of shares (linear x, fractions: the repeated-label case).
    let share: Vec<(f64, f64, f64)> = shape(
        case,
        (0..24)
            .map(|i| {
                let t = f64::from(i);
                (700.0 + 10.0 * t, 0.047 * (-(t - 10.0).powi(2) / 30.0).exp())
            })
            .collect(),
        false,
        false,
    )
    .into_iter()
    .map(|p| {
        (
            p.0,
            p.0 + if case == Case::Extreme { 1e6 } else { 10.0 },
            p.1.abs(),
        )
    })
    .collect();
    out.push(histogram_svg(&Histogram {
        title: format!("Share of I/Os per bucket ({c})"),
        x_label: "completion latency (µs)".into(),
        y_label: "fraction of I/Os".into(),
        bins: share,
        log_x: false,
        size: DEFAULT_SIZE,
    }));

    // Heat map: R/W mix × block size.
    let mixes = ["100/0", "95/5", "65/35", "50/50", "35/65", "5/95", "0/100"];
    let bss = [
        "512", "4096", "8192", "16384", "32768", "65536", "131072", "1048576",
    ];
    let (rows, cols, values): (Vec<String>, Vec<String>, Vec<Vec<Option<f64>>>) = match case {
        Case::Single => (
            vec!["65/35".into()],
            vec!["4096".into()],
            vec![vec![Some(31_000.0)]],
        ),
        _ => (
            mixes.iter().map(|s| s.to_string()).collect(),
            bss.iter().map(|s| s.to_string()).collect(),
            (0..mixes.len())
                .map(|r| {
                    (0..bss.len())
                        .map(|k| match case {
                            Case::Empty => None,
                            Case::Flat => Some(20_000.0),
                            Case::Extreme if (r + k) % 5 == 0 => None,
                            Case::Extreme => Some(10f64.powi((r * 8 + k) as i32 / 3 - 3)),
                            _ => Some(116_800.0 / (k as f64 + 1.0) * (0.4 + r as f64 / 10.0)),
                        })
                        .collect()
                })
                .collect(),
        ),
    };
    out.push(heatmap_svg(&HeatMap {
        title: format!("IOPS surface: R/W mix × block size ({c})"),
        rows,
        cols,
        values,
        size: (760, 330),
    }));

    // Grouped bars.
    let (cats, series): (Vec<String>, Vec<Bars>) = match case {
        Case::Normal => (
            vec![
                "OLTP".into(),
                "e-mail".into(),
                "file server".into(),
                "web".into(),
            ],
            vec![
                (
                    "QD1".into(),
                    vec![Some(9_800.0), Some(7_100.0), Some(5_400.0), Some(12_000.0)],
                ),
                (
                    "QD8".into(),
                    vec![
                        Some(48_000.0),
                        Some(39_000.0),
                        Some(22_000.0),
                        Some(61_000.0),
                    ],
                ),
                (
                    "QD32".into(),
                    vec![Some(88_000.0), Some(70_500.0), Some(35_000.0), None],
                ),
            ],
        ),
        Case::Flat => (
            vec!["a".into(), "b".into(), "c".into()],
            vec![("QD1".into(), vec![Some(5_000.0); 3])],
        ),
        Case::Single => (
            vec!["OLTP".into()],
            vec![("QD1".into(), vec![Some(9_800.0)])],
        ),
        Case::Empty => (
            vec!["OLTP".into(), "web".into()],
            vec![("QD1".into(), vec![None, None])],
        ),
        Case::Extreme => (
            (0..14)
                .map(|i| format!("a rather long category name {i}"))
                .collect(),
            vec![
                (
                    "series with a long legend name that goes on and on and on and on and on \
                     and on and on and on and on and on and on and on"
                        .into(),
                    (0..14)
                        .map(|i| Some(10f64.powi(i - 3) * if i == 5 { -1.0 } else { 1.0 }))
                        .collect(),
                ),
                ("tiny".into(), (0..14).map(|_| Some(1e-3)).collect()),
            ],
        ),
    };
    out.push(bars_svg(&BarChart {
        title: format!("IOPS per server profile ({c})"),
        y_label: "IOPS".into(),
        categories: cats,
        series,
        size: DEFAULT_SIZE,
    }));

    out.into_iter()
        .map(|r| {
            let t = match &r {
                Ok(s) => s
                    .split("<title>")
                    .nth(1)
                    .and_then(|x| x.split('<').next())
                    .unwrap_or("")
                    .to_string(),
                Err(e) => e.title().to_string(),
            };
            (t, r)
        })
        .collect()
}

const PROBE: &str = r#"<script>
window.addEventListener('load', () => {
  const problems = [];
  const figs = [...document.querySelectorAll('figure[data-chart]')];
  const box = e => e.getBoundingClientRect();
  const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
                            Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  for (const f of figs) {
    const svg = f.querySelector('svg');
    const name = (svg.querySelector('title') || {}).textContent || '?';
    const s = box(svg);
    const plot = svg.querySelector('[data-plot]');
    if (!plot) { problems.push(name + ': no plot area'); continue; }
    const p = box(plot);
    const kind = svg.dataset.kind;
    const xs = [...svg.querySelectorAll('text.tick-x')], ys = [...svg.querySelectorAll('text.tick-y')];
    // Categories (bars, heat map) may be one; numeric axes need two labels to be read.
    const need = k => (k === 'x' && kind === 'bars') || kind === 'heatmap' ? 1 : 2;
    if (xs.length < need('x')) problems.push(name + ': ' + xs.length + ' x tick labels');
    if (ys.length < need('y')) problems.push(name + ': ' + ys.length + ' y tick labels');
    for (const t of xs) {
      const b = box(t), c = (b.left + b.right) / 2;
      if (!t.textContent.trim()) problems.push(name + ': empty x label');
      if (c < p.left - 1 || c > p.right + 1 || b.top < p.bottom - 1)
        problems.push(name + ': x label "' + t.textContent + '" not under the plot');
    }
    for (const t of ys) {
      const b = box(t), c = (b.top + b.bottom) / 2;
      if (!t.textContent.trim()) problems.push(name + ': empty y label');
      if (c < p.top - 1 || c > p.bottom + 1 || b.right > p.left + 1)
        problems.push(name + ': y label "' + t.textContent + '" not left of the plot');
    }
    const texts = [...svg.querySelectorAll('text')];
    const bs = texts.map(box);
    for (let i = 0; i < texts.length; i++) {
      const b = bs[i];
      if (b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1)
        problems.push(name + ': "' + texts[i].textContent + '" outside the chart');
      for (let j = i + 1; j < texts.length; j++) {
        // Glyph boxes include line spacing: only a real overlap counts.
        if (overlap(b, bs[j]) > 0.15 * Math.min(b.width * b.height, bs[j].width * bs[j].height))
          problems.push(name + ': "' + texts[i].textContent + '" overlaps "' + texts[j].textContent + '"');
      }
    }
  }
  const text = document.body.innerText;
  for (const bad of ['no chart', "chart '", 'NaN', 'undefined', 'inf', 'Infinity'])
    if (text.includes(bad)) problems.push('placeholder text in the page: ' + bad);
  const nodata = [...document.querySelectorAll('figure[data-nodata]')].map(f => f.innerText);
  const pre = document.createElement('pre');
  pre.id = '__probe';
  pre.textContent = '@@PROBE@@' + JSON.stringify({problems, charts: figs.length, nodata,
    width: figs.length ? box(figs[0].querySelector('svg')).width : 0,
    body: box(document.body).width}) + '@@END@@';
  document.body.appendChild(pre);
});
</script>"#;

/// Opens `html` with the probe in Chromium; the probe's JSON.
fn probe(bin: &Path, dir: &Path, html: &str, tag: &str) -> Value {
    let probed = dir.join(format!("probed-{tag}.html"));
    std::fs::write(
        &probed,
        html.replacen("<head>", &format!("<head>\n{PROBE}"), 1),
    )
    .unwrap();
    let out = Command::new(bin)
        .args(crate::browser::browser_args(&dir.join("p1")))
        .arg("--window-size=1100,900")
        .arg("--dump-dom")
        .arg(format!("file://{}", probed.display()))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    let json = dom
        .rsplit("@@PROBE@@")
        .next()
        .filter(|_| dom.matches("@@PROBE@@").count() > 1)
        .and_then(|r| r.split("@@END@@").next())
        .unwrap_or_else(|| {
            panic!(
                "no probe output from chromium; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    serde_json::from_str(
        &json
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&"),
    )
    .expect("probe JSON")
}

/// The probe finds what it looks for: a hand-made chart with touching, misplaced and
/// escaped labels and a placeholder line in the page.
fn probe_catches_defects(bin: &Path, dir: &Path) {
    let mut d = Doc::new("control", "a chart drawn wrong on purpose");
    d.raw(
        "<figure data-chart=\"1\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 200\" \
         width=\"100%\" data-kind=\"xy\"><title>control</title>\
         <rect data-plot=\"1\" x=\"50\" y=\"20\" width=\"300\" height=\"140\" fill=\"none\"/>\
         <text class=\"tick tick-x\" x=\"100\" y=\"175\" font-size=\"11\">1000</text>\
         <text class=\"tick tick-x\" x=\"104\" y=\"175\" font-size=\"11\">1001</text>\
         <text class=\"tick tick-y\" x=\"45\" y=\"260\" font-size=\"11\">5</text>\
         <text class=\"tick tick-y\" x=\"200\" y=\"100\" font-size=\"11\">6</text></svg></figure>\n\
         <p>(no chart: chart 'x': no data)</p>",
    );
    let v = probe(bin, dir, &d.finish("control"), "control");
    let problems: Vec<String> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect();
    for needle in [
        "overlaps",
        "outside the chart",
        "not left of the plot",
        "placeholder",
    ] {
        assert!(
            problems.iter().any(|p| p.contains(needle)),
            "the probe missed '{needle}': {problems:?}"
        );
    }
}

#[test]
fn chart_gallery_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&shots).unwrap();
    let bin = crate::browser::chromium();
    if bin.is_none() {
        assert!(
            std::env::var_os("SGCTL_REQUIRE_CHROMIUM").is_none(),
            "SGCTL_REQUIRE_CHROMIUM is set but no chromium is installed"
        );
        eprintln!("chart gallery SKIPPED: no chromium (scripts/test-all.sh installs it)");
    }
    if let Some(bin) = &bin {
        probe_catches_defects(bin, dir.path());
    }
    let mut failures = Vec::new();
    for case in [
        Case::Normal,
        Case::Flat,
        Case::Single,
        Case::Empty,
        Case::Extreme,
    ] {
        let charts = charts(case);
        let empty = charts.iter().filter(|c| c.1.is_err()).count();
        match case {
            Case::Empty => assert_eq!(empty, charts.len(), "every chart of no data says so"),
            _ => assert_eq!(
                empty,
                0,
                "{}: {:?}",
                case.name(),
                charts
                    .iter()
                    .filter_map(|c| c.1.as_ref().err())
                    .collect::<Vec<_>>()
            ),
        }
        let mut d = Doc::new(
            &format!("Chart gallery: {} data", case.name()),
            "Every chart kind of the benchmark reports.",
        );
        d.raw("<div class=\"gallery\">\n");
        let n = charts.len();
        for (_, svg) in charts {
            d.chart(svg, &format!("{} data", case.name()));
        }
        d.raw("</div>\n");
        let html = d.finish("sgctl chart gallery").replacen(
            "</style>",
            ".gallery { display: grid; grid-template-columns: 1fr 1fr; gap: 0 18px; }\n\
             body { max-width: 1100px; }\n</style>",
            1,
        );
        let page = dir.path().join(format!("gallery-{}.html", case.name()));
        std::fs::write(&page, &html).unwrap();
        // Kept beside the screenshots for a person (the page has no script).
        std::fs::write(
            shots.join(format!("chart-gallery-{}.html", case.name())),
            &html,
        )
        .unwrap();
        let Some(bin) = &bin else { continue };
        let v = probe(bin, dir.path(), &html, case.name());
        for p in v["problems"].as_array().unwrap() {
            failures.push(format!("{}: {}", case.name(), p.as_str().unwrap_or("")));
        }
        if case == Case::Empty {
            let nodata = v["nodata"].as_array().unwrap();
            assert_eq!(nodata.len(), n, "{v}");
            for t in nodata {
                assert!(t.as_str().unwrap_or("").contains("No data"), "{t}");
            }
        } else {
            assert_eq!(v["charts"].as_u64(), Some(n as u64), "{v}");
            // Two columns of charts: each fills its column (about half of the body).
            let (w, body) = (
                v["width"].as_f64().unwrap_or(0.0),
                v["body"].as_f64().unwrap_or(1.0),
            );
            assert!(w > body * 0.4, "chart {w} px wide in a body of {body} px");
        }
        let shot = shots.join(format!("chart-gallery-{}.png", case.name()));
        let st = Command::new(bin)
            .args(crate::browser::browser_args(&dir.path().join("p2")))
            .arg(format!("--screenshot={}", shot.display()))
            .arg("--window-size=1100,1900")
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("run chromium for a screenshot");
        assert!(
            shot.metadata().map(|m| m.len() > 10_000).unwrap_or(false),
            "no screenshot: {}",
            String::from_utf8_lossy(&st.stderr)
        );
    }
    assert!(
        failures.is_empty(),
        "{} problems in the chart gallery:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
