//! `sgctl bench compare A B [...]`: two or more reports of one kind side by side — the key
//! figures of each (absolute and % difference against the first) and one HTML document with
//! the reports' charts overlaid (one series per report). Reports are read through
//! [`super::load`], which refuses other formats and versions.

use super::chart::{xy_svg, Mark, Series, XyChart};
use super::html::{esc, Doc, Tone};
use super::load::{Kind, Loaded};
use super::summary::{key_figures, Better};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

/// `format` of the compare document (`--json`, `--report DIR`).
pub const FORMAT: &str = "sgctl-bench-compare";
/// Its version.
pub const VERSION: u32 = 1;

/// One report being compared.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// What the legends call it: the drive and the label.
    pub name: String,
    /// `--label`, or the report directory's name.
    pub label: String,
    /// `MODEL (serial SERIAL)`.
    pub drive: String,
    /// The report file.
    pub path: String,
    /// The report's `state`.
    pub state: String,
    /// The report's `created`.
    pub created: String,
}

/// One key figure across the reports.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Test or part (`run`, `iops`, ...).
    pub group: String,
    /// The figure.
    pub name: String,
    /// Unit.
    pub unit: &'static str,
    /// Which way is better.
    pub better: Better,
    /// One value per report (None: not in that report).
    pub values: Vec<Option<f64>>,
    /// Difference to the first report, per report (the first is 0).
    pub delta: Vec<Option<f64>>,
    /// Difference to the first in percent of the first (None when the first is 0).
    pub delta_pct: Vec<Option<f64>>,
}

/// The comparison (`--json` data).
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// [`FORMAT`].
    pub format: &'static str,
    /// [`VERSION`].
    pub version: u32,
    /// Report format version compared.
    pub report_version: u32,
    /// `run`, `pts` or `review`.
    pub kind: &'static str,
    /// The reports, first = the baseline.
    pub reports: Vec<Entry>,
    /// The key figures.
    pub rows: Vec<Row>,
}

/// Why reports cannot be compared (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Lines up the key figures of `reports` (2 or more, one kind). `labels[i]` names report
/// `i` (default: its directory's name).
pub fn compare(reports: &[Loaded], labels: &[String]) -> Result<Comparison, Refused> {
    if reports.len() < 2 {
        return Err(Refused("compare needs two or more reports".into()));
    }
    let kind = reports[0].kind;
    if let Some(o) = reports.iter().find(|r| r.kind != kind) {
        return Err(Refused(format!(
            "{} is a `bench {}` report and {} a `bench {}` report: compare reports of one kind",
            reports[0].path.display(),
            kind.name(),
            o.path.display(),
            o.kind.name()
        )));
    }
    let entries: Vec<Entry> = reports
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let label = labels.get(i).cloned().unwrap_or_else(|| default_label(r));
            let drive = r.drive();
            Entry {
                name: format!("{drive} — {label}"),
                label,
                drive,
                path: r.path.display().to_string(),
                state: r.value["state"].as_str().unwrap_or("").into(),
                created: r.value["created"].as_str().unwrap_or("").into(),
            }
        })
        .collect();
    // Rows in the first report's order, then any key only later reports have.
    let figs: Vec<Vec<super::summary::Figure>> =
        reports.iter().map(|r| key_figures(&r.value)).collect();
    let mut keys: Vec<(String, &super::summary::Figure)> = Vec::new();
    for f in figs.iter().flatten() {
        let k = f.key();
        if !keys.iter().any(|(x, _)| *x == k) {
            keys.push((k, f));
        }
    }
    let rows = keys
        .iter()
        .map(|(k, f)| {
            let values: Vec<Option<f64>> = figs
                .iter()
                .map(|fs| fs.iter().find(|x| x.key() == *k).and_then(|x| x.value))
                .collect();
            let base = values[0];
            let delta = values.iter().map(|v| Some(v.as_ref()? - base?)).collect();
            let delta_pct = values
                .iter()
                .map(|v| {
                    let (b, x) = (base?, (*v)?);
                    (b != 0.0).then(|| 100.0 * (x - b) / b.abs())
                })
                .collect();
            Row {
                group: f.group.clone(),
                name: f.name.clone(),
                unit: f.unit,
                better: f.better,
                values,
                delta,
                delta_pct,
            }
        })
        .collect();
    Ok(Comparison {
        format: FORMAT,
        version: VERSION,
        report_version: crate::bench::suite::report::VERSION,
        kind: kind.name(),
        reports: entries,
        rows,
    })
}

fn default_label(r: &Loaded) -> String {
    let dir = r.path.parent().unwrap_or(&r.path);
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| r.path.display().to_string())
}

fn fmt_v(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e12 => format!("{x:.0}"),
        Some(x) if x.abs() >= 100.0 => format!("{x:.0}"),
        Some(x) if x.abs() >= 10.0 => format!("{x:.1}"),
        Some(x) => format!("{x:.2}"),
    }
}

fn fmt_d(d: Option<f64>, p: Option<f64>) -> String {
    match (d, p) {
        (None, _) => "-".into(),
        (Some(d), Some(p)) => format!(
            "{}{} ({p:+.1}%)",
            if d >= 0.0 { "+" } else { "" },
            fmt_v(Some(d))
        ),
        (Some(d), None) => format!("{}{}", if d >= 0.0 { "+" } else { "" }, fmt_v(Some(d))),
    }
}

impl Comparison {
    /// The text table: the reports, then one line per figure.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "comparing {} `bench {}` reports (first = baseline):",
            self.reports.len(),
            self.kind
        );
        for (i, e) in self.reports.iter().enumerate() {
            let _ = writeln!(
                s,
                "  [{}] {} — {} ({}, {})",
                i + 1,
                e.drive,
                e.label,
                e.state,
                e.path
            );
        }
        let mut table: Vec<Vec<String>> = vec![];
        let mut head = vec!["figure".to_string()];
        for i in 0..self.reports.len() {
            head.push(format!("[{}]", i + 1));
            if i > 0 {
                head.push(format!("[{}]-[1]", i + 1));
            }
        }
        table.push(head);
        for r in &self.rows {
            let unit = if r.unit.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.unit)
            };
            let mut line = vec![format!("{}: {}{unit}", r.group, r.name)];
            for i in 0..r.values.len() {
                line.push(fmt_v(r.values[i]));
                if i > 0 {
                    line.push(fmt_d(r.delta[i], r.delta_pct[i]));
                }
            }
            table.push(line);
        }
        let cols = table[0].len();
        let w: Vec<usize> = (0..cols)
            .map(|c| {
                table
                    .iter()
                    .map(|l| l.get(c).map_or(0, |x| x.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for l in &table {
            let mut line = String::new();
            for (c, x) in l.iter().enumerate() {
                let pad = w[c].saturating_sub(x.chars().count());
                if c == 0 {
                    let _ = write!(line, "{x}{}", " ".repeat(pad));
                } else {
                    let _ = write!(line, "  {}{x}", " ".repeat(pad));
                }
            }
            let _ = writeln!(s, "{}", line.trim_end());
        }
        s
    }
}

// ---- HTML ----

fn a(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn pts(list: &[Value], x: &str, y: &str) -> Vec<(f64, f64)> {
    list.iter()
        .filter_map(|p| Some((p[x].as_f64()?, p[y].as_f64()?)))
        .collect()
}

/// Points of a chart series.
type Curve = Vec<(f64, f64)>;

/// `[[upper_us, count], ...]` → (upper, fraction of I/Os in the bucket), and the exceedance.
fn hist_curves(h: &Value) -> (Curve, Curve) {
    let bins: Vec<(f64, f64)> = a(h)
        .iter()
        .filter_map(|b| Some((b[0].as_f64()?, b[1].as_f64()?)))
        .filter(|b| b.1 > 0.0)
        .collect();
    let total: f64 = bins.iter().map(|b| b.1).sum();
    if total <= 0.0 {
        return (vec![], vec![]);
    }
    let frac = bins.iter().map(|b| (b.0, b.1 / total)).collect();
    let mut seen = 0.0;
    let exc = bins
        .iter()
        .filter_map(|b| {
            seen += b.1;
            let rest = (total - seen) / total;
            (rest > 0.0).then_some((b.0, rest))
        })
        .collect();
    (frac, exc)
}

/// Overlays one chart: `f(report)` gives each report's points.
fn overlay(
    d: &mut Doc,
    names: &[String],
    reports: &[Loaded],
    c: XyChart,
    caption: &str,
    f: impl Fn(&Value) -> Vec<(f64, f64)>,
) {
    let mut c = c;
    for (i, r) in reports.iter().enumerate() {
        c.series
            .push(Series::line(names[i].clone(), f(&r.value)).color(i));
    }
    d.chart(xy_svg(&c), caption);
}

/// The compare document: difference table and the overlaid charts.
pub fn html(cmp: &Comparison, reports: &[Loaded]) -> String {
    let names: Vec<String> = cmp.reports.iter().map(|e| e.name.clone()).collect();
    let mut d = Doc::new(
        &format!(
            "sgctl bench compare — {} `bench {}` reports",
            reports.len(),
            cmp.kind
        ),
        &format!("baseline: {}", names.first().cloned().unwrap_or_default()),
    );
    d.h2("Reports");
    let rows: Vec<Vec<String>> = cmp
        .reports
        .iter()
        .enumerate()
        .map(|(i, e)| {
            vec![
                format!("[{}]", i + 1),
                e.drive.clone(),
                e.label.clone(),
                e.state.clone(),
                e.created.clone(),
                e.path.clone(),
            ]
        })
        .collect();
    d.table(&["", "drive", "label", "state", "created", "report"], &rows);
    if reports.iter().any(|r| r.value["complete"] == false) {
        d.banner(
            Tone::Bad,
            "At least one report is incomplete (see its state).",
        );
    }
    d.h2("Differences");
    diff_table(&mut d, cmp);
    match reports[0].kind {
        Kind::Run => run_charts(&mut d, &names, reports),
        Kind::Pts | Kind::Review => suite_charts(&mut d, &names, reports),
    }
    d.finish(&format!(
        "sgctl {} ({}) · compared reports: {}",
        env!("CARGO_PKG_VERSION"),
        env!("SGCTL_GIT_REV"),
        cmp.reports
            .iter()
            .map(|e| e.path.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn diff_table(d: &mut Doc, cmp: &Comparison) {
    let n = cmp.reports.len();
    let mut head: Vec<String> = vec!["figure".into(), "unit".into()];
    for i in 0..n {
        head.push(format!("[{}]", i + 1));
        if i > 0 {
            head.push(format!("[{}] − [1]", i + 1));
        }
    }
    let rows: Vec<Vec<String>> = cmp
        .rows
        .iter()
        .map(|r| {
            let mut l = vec![format!("{}: {}", r.group, r.name), r.unit.to_string()];
            for i in 0..n {
                l.push(fmt_v(r.values[i]));
                if i > 0 {
                    l.push(fmt_d(r.delta[i], r.delta_pct[i]));
                }
            }
            l
        })
        .collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    d.table(&head, &rows);
}

fn run_charts(d: &mut Doc, names: &[String], reports: &[Loaded]) {
    d.h2("Against time");
    let iv = |v: &Value, k: &str| pts(a(&v["result"]["intervals"]), "t_s", k);
    overlay(
        d,
        names,
        reports,
        XyChart::new("IOPS per interval", "time (s)", "IOPS"),
        "One series per report, one sample per --log-interval.",
        |v| iv(v, "iops"),
    );
    overlay(
        d,
        names,
        reports,
        XyChart::new("MB/s per interval", "time (s)", "MB/s"),
        "Throughput per interval.",
        |v| iv(v, "mbps"),
    );
    let mut c = XyChart::new(
        "Mean and 99th-percentile latency per interval",
        "time (s)",
        "latency (µs)",
    );
    c.log_y = true;
    for (i, r) in reports.iter().enumerate() {
        c.series
            .push(Series::line(format!("{} mean", names[i]), iv(&r.value, "mean_lat_us")).color(i));
        c.series.push(
            Series::line(format!("{} p99", names[i]), iv(&r.value, "p99_lat_us"))
                .color(i)
                .mark(Mark::Dashed),
        );
    }
    d.chart(xy_svg(&c), "Solid: mean; dashed: 99th percentile.");
    d.h2("Latency distribution");
    let mut h = XyChart::new(
        "Completion latency histogram",
        "latency (µs)",
        "fraction of I/Os",
    );
    h.log_x = true;
    let mut e = XyChart::new(
        "Latency exceedance",
        "latency (µs)",
        "fraction of I/Os slower",
    )
    .fraction_y();
    e.log_x = true;
    e.log_y = true;
    for (i, r) in reports.iter().enumerate() {
        let (frac, exc) = hist_curves(&r.value["result"]["histogram"]);
        h.series.push(
            Series::line(names[i].clone(), frac)
                .color(i)
                .mark(Mark::LinePoints),
        );
        e.series.push(Series::line(names[i].clone(), exc).color(i));
    }
    d.chart(
        xy_svg(&h),
        "Share of I/Os per latency bucket (log-linear buckets).",
    );
    d.chart(
        xy_svg(&e),
        "1 − CDF: 10⁻³ is the 99.9th percentile, 10⁻⁵ the 99.999th.",
    );
    // Percentiles side by side.
    let mut ps: Vec<f64> = Vec::new();
    for r in reports {
        for p in a(&r.value["result"]["latency"]["percentiles"]) {
            if let Some(q) = p[0].as_f64() {
                if !ps.iter().any(|x| (x - q).abs() < 1e-9) {
                    ps.push(q);
                }
            }
        }
    }
    ps.sort_by(f64::total_cmp);
    let rows: Vec<Vec<String>> = ps
        .iter()
        .map(|q| {
            let mut l = vec![format!("{q}")];
            for r in reports {
                let v = a(&r.value["result"]["latency"]["percentiles"])
                    .iter()
                    .find(|p| p[0].as_f64().is_some_and(|x| (x - q).abs() < 1e-9))
                    .and_then(|p| p[1].as_f64());
                l.push(v.map_or("-".into(), |v| format!("{v:.1}")));
            }
            l
        })
        .collect();
    let mut head = vec!["percentile".to_string()];
    head.extend((1..=reports.len()).map(|i| format!("[{i}] µs")));
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    d.table(&head, &rows);
}

fn test_of<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    a(&v["tests"]).iter().find(|t| t["test"] == name)
}

fn suite_charts(d: &mut Doc, names: &[String], reports: &[Loaded]) {
    let tests: Vec<String> = a(&reports[0].value["tests"])
        .iter()
        .filter_map(|t| t["test"].as_str().map(String::from))
        .collect();
    for t in &tests {
        d.h2(&format!("Test {t}"));
        let stages: Vec<String> = test_of(&reports[0].value, t)
            .map(|x| {
                a(&x["stages"])
                    .iter()
                    .filter(|s| s["steady_state"].is_object())
                    .filter_map(|s| s["name"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        for stg in &stages {
            let tracking = test_of(&reports[0].value, t)
                .and_then(|x| a(&x["stages"]).iter().find(|s| s["name"] == stg.as_str()))
                .and_then(|s| s["steady_state"]["tracking"].as_str())
                .unwrap_or("")
                .to_string();
            overlay(
                d,
                names,
                reports,
                XyChart::new(
                    format!("Steady-state convergence ({stg}): {tracking}"),
                    "round",
                    super::bench::tracking_quantity(&tracking),
                )
                .integer_x(),
                "The tracking variable per round, one series per report.",
                |v| {
                    test_of(v, t)
                        .and_then(|x| a(&x["stages"]).iter().find(|s| s["name"] == stg.as_str()))
                        .map(|s| pts(a(&s["rounds"]), "round", "tracking"))
                        .unwrap_or_default()
                },
            );
        }
        let res = |v: &Value| {
            test_of(v, t)
                .map(|x| x["results"].clone())
                .unwrap_or_default()
        };
        match t.as_str() {
            "write_cliff" | "op" => overlay(
                d,
                names,
                reports,
                XyChart::new(
                    "4K random write IOPS from the purge on",
                    "drive time (s)",
                    "IOPS",
                ),
                "FOB to steady state, one series per report.",
                |v| {
                    a(&res(v)["series"])
                        .iter()
                        .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
                        .collect()
                },
            ),
            "wsat" => overlay(
                d,
                names,
                reports,
                XyChart::new("WSAT IOPS against GB written", "GB written", "IOPS"),
                "One sample per minute.",
                |v| pts(a(&res(v)["series"]), "tgbw_gb", "iops"),
            ),
            "qd_sweep" => {
                for dir in ["read_4k", "write_4k"] {
                    let q = |v: &Value, y: &str| -> Vec<(f64, f64)> {
                        a(&res(v)["table"])
                            .iter()
                            .filter_map(|r| Some((r["qd"].as_f64()?, r[dir][y].as_f64()?)))
                            .collect()
                    };
                    let mut c =
                        XyChart::new(format!("{dir}: IOPS against QD"), "queue depth", "IOPS")
                            .integer_x();
                    c.log_x = true;
                    overlay(d, names, reports, c, "One series per report.", |v| {
                        q(v, "iops")
                    });
                    overlay(
                        d,
                        names,
                        reports,
                        XyChart::new(
                            format!("{dir}: mean latency against IOPS"),
                            "IOPS",
                            "mean latency (µs)",
                        ),
                        "Each point one QD.",
                        |v| {
                            q(v, "iops")
                                .into_iter()
                                .zip(q(v, "mean_lat_us"))
                                .map(|(a, b)| (a.1, b.1))
                                .collect()
                        },
                    );
                }
            }
            "ecw" | "dirth" => overlay(
                d,
                names,
                reports,
                XyChart::new("IOPS against total outstanding I/O", "TOIO", "IOPS").integer_x(),
                "Each point one TC×QD cell.",
                |v| pts(a(&res(v)["table"]), "toio", "iops"),
            ),
            _ => {}
        }
        // The latency distribution of the test's last measured cell.
        let mut e = XyChart::new(
            format!("{t}: latency exceedance (last cell measured)"),
            "latency (µs)",
            "fraction of I/Os slower",
        )
        .fraction_y();
        e.log_x = true;
        e.log_y = true;
        for (i, r) in reports.iter().enumerate() {
            let h = test_of(&r.value, t)
                .and_then(super::bench::last_run)
                .map(|run| hist_curves(&run["histogram"]).1)
                .unwrap_or_default();
            e.series.push(Series::line(names[i].clone(), h).color(i));
        }
        d.chart(xy_svg(&e), "1 − CDF of completion latency.");
    }
    d.raw(&format!(
        "<p class=\"sub\">{}</p>\n",
        esc("Figures of each test are in the difference table above.")
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::PathBuf;

    fn run(iops: f64, model: &str) -> Loaded {
        Loaded {
            path: PathBuf::from(format!("/r/{model}/report.json")),
            kind: Kind::Run,
            value: json!({"suite": "run", "state": "complete", "complete": true,
                "header": {"model": model, "serial": "S"},
                "result": {"iops": iops, "mbps": iops * 0.004096, "errors": 0,
                    "latency": {"mean_us": 1e6 / iops, "percentiles": [[99.0, 2e6 / iops]]},
                    "intervals": [{"t_s": 1.0, "iops": iops, "mbps": 1.0, "mean_lat_us": 5.0,
                        "p99_lat_us": 9.0}],
                    "histogram": [[10.0, 5], [20.0, 3], [40.0, 1]]}}),
        }
    }

    #[test]
    fn figures_and_deltas_against_the_first() {
        let c = compare(&[run(1000.0, "A"), run(1250.0, "B")], &[]).unwrap();
        let r = c
            .rows
            .iter()
            .find(|r| r.group == "run" && r.name == "IOPS")
            .unwrap();
        assert_eq!(r.values, vec![Some(1000.0), Some(1250.0)]);
        assert_eq!(r.delta[1], Some(250.0));
        assert_eq!(r.delta_pct[1], Some(25.0));
        assert_eq!(c.reports[1].name, "B (serial S) — B");
        let t = c.text();
        assert!(t.contains("+250 (+25.0%)"), "{t}");
        let h = html(&c, &[run(1000.0, "A"), run(1250.0, "B")]);
        assert!(h.matches("data-chart=").count() >= 5, "{h}");
        assert!(h.contains("B (serial S) — B"));
    }

    #[test]
    fn refuses_mixed_kinds_and_single_reports() {
        let mut p = run(1.0, "A");
        p.kind = Kind::Pts;
        let e = compare(&[run(1.0, "A"), p], &[]).unwrap_err();
        assert!(e.0.contains("compare reports of one kind"), "{e}");
        assert!(compare(&[run(1.0, "A")], &[]).is_err());
    }
}
