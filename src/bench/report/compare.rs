//! `sgctl bench compare A B [...]`: two or more reports of one kind side by side — the key
//! figures of each (absolute and % difference against the first) and one HTML document with
//! the reports' charts overlaid (one series per report). Reports are read through
//! [`super::load`], which refuses other formats and versions.

use super::load::{Kind, Loaded};
use super::summary::{key_figures, Better};
use crate::report::chart::{xy_svg, Mark, Series, XyChart};
use crate::report::html::{esc, Doc, Tone};
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
    /// Half-width of each value's 95 % confidence interval, where the report holds the
    /// repetitions to estimate it from.
    pub ci95: Vec<Option<f64>>,
    /// Per report: is the difference to the first outside the run-to-run noise (the two
    /// intervals combined, `√(h₁² + h₂²)`)? None for the first, and where no interval is
    /// known or the percentile is not supported by the samples.
    pub beyond_noise: Vec<Option<bool>>,
    /// Per report: a percentile its I/O count does not support.
    pub insufficient_samples: Vec<bool>,
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
    /// Where the reports' workloads differ (only with `--allow-different`; otherwise such
    /// reports are refused), one line per setting.
    pub workload_differences: Vec<String>,
    /// The workload (cell label) of the suites' latency exceedance charts: `--workload`, or
    /// each test's tracking cell.
    pub exceedance_workload: Option<String>,
    /// The key figures.
    pub rows: Vec<Row>,
}

/// How `bench compare` compares.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Compare reports of different workloads (listed in the result) instead of refusing.
    pub allow_different: bool,
    /// The suites' cell whose latency distribution the exceedance charts overlay
    /// (`100/0-4k`, `0/100-4k`, `tc1-qd1`, ...).
    pub workload: Option<String>,
}

/// A report's workload as `(setting, value)`: what must match for figures to be comparable.
/// A run: kind, rw, block sizes, QD, jobs and (randrw) the mix; a suite: its tests, the
/// operator's TC × QD, the ActiveRange.
pub fn workload_of(v: &Value) -> Vec<(&'static str, String)> {
    let st = &v["settings"];
    let text = |x: &Value| match x {
        Value::String(s) => s.clone(),
        Value::Null => "–".into(),
        o => o.to_string(),
    };
    if v["suite"] == "run" {
        let rw = text(&st["rw"]);
        let bs: Vec<String> = a(&st["bs"])
            .iter()
            .filter_map(|b| Some(format!("{}/{}", b[0].as_u64()?, b[1].as_u64()?)))
            .collect();
        let mut w = vec![
            ("test kind", "bench run".to_string()),
            ("rw", rw.clone()),
            ("block size (bytes/weight)", bs.join(" ")),
            ("QD", text(&st["qd"])),
            ("jobs", text(&st["jobs"])),
        ];
        if rw == "randrw" {
            w.push(("read %", text(&st["read_pct"])));
        }
        w
    } else {
        let mut tests: Vec<String> = a(&v["tests"])
            .iter()
            .filter_map(|t| t["test"].as_str().map(String::from))
            .collect();
        if tests.is_empty() {
            tests = a(&st["tests"])
                .iter()
                .filter_map(|t| t.as_str().map(String::from))
                .collect();
        }
        tests.sort();
        vec![
            ("test kind", format!("bench {}", text(&v["suite"]))),
            ("tests", tests.join(", ")),
            (
                "TC × QD (operator's)",
                format!("{} × {}", text(&st["tc"]), text(&st["qd"])),
            ),
            ("ActiveRange %", text(&st["active_range_pct"])),
        ]
    }
}

/// The settings in which the reports' workloads differ: `rw: [1] randread, [2] randwrite`.
pub(crate) fn workload_differences(reports: &[Loaded]) -> Vec<String> {
    let ws: Vec<Vec<(&'static str, String)>> =
        reports.iter().map(|r| workload_of(&r.value)).collect();
    let mut out = Vec::new();
    let Some(first) = ws.first() else {
        return out;
    };
    for (k, _) in first {
        let vals: Vec<String> = ws
            .iter()
            .map(|w| {
                w.iter()
                    .find(|x| x.0 == *k)
                    .map_or_else(|| "–".into(), |x| x.1.clone())
            })
            .collect();
        if vals.iter().any(|x| *x != vals[0]) {
            let each: Vec<String> = vals
                .iter()
                .enumerate()
                .map(|(i, x)| format!("[{}] {x}", i + 1))
                .collect();
            out.push(format!("{k}: {}", each.join(", ")));
        }
    }
    out
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
    compare_with(reports, labels, &Options::default())
}

/// [`compare`] with [`Options`]: reports of different workloads are refused unless
/// `allow_different`.
pub fn compare_with(
    reports: &[Loaded],
    labels: &[String],
    opts: &Options,
) -> Result<Comparison, Refused> {
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
    let workload_differences = workload_differences(reports);
    if !workload_differences.is_empty() && !opts.allow_different {
        return Err(Refused(format!(
            "the reports are of different workloads, so their figures are not comparable: {} \
             (compare them anyway with --allow-different)",
            workload_differences.join("; ")
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
            let found: Vec<Option<&super::summary::Figure>> = figs
                .iter()
                .map(|fs| fs.iter().find(|x| x.key() == *k))
                .collect();
            let values: Vec<Option<f64>> = found.iter().map(|x| x.and_then(|x| x.value)).collect();
            let ci95: Vec<Option<f64>> = found.iter().map(|x| x.and_then(|x| x.ci95)).collect();
            let insufficient_samples: Vec<bool> = found
                .iter()
                .map(|x| x.is_some_and(|x| x.insufficient_samples))
                .collect();
            let base = values[0];
            let delta: Vec<Option<f64>> =
                values.iter().map(|v| Some(v.as_ref()? - base?)).collect();
            let delta_pct = values
                .iter()
                .map(|v| {
                    let (b, x) = (base?, (*v)?);
                    (b != 0.0).then(|| 100.0 * (x - b) / b.abs())
                })
                .collect();
            let beyond_noise = (0..values.len())
                .map(|i| {
                    if i == 0 || insufficient_samples[0] || insufficient_samples[i] {
                        return None;
                    }
                    let d: f64 = delta[i]?;
                    let (h0, hi) = (ci95[0]?, ci95[i]?);
                    Some(d.abs() > (h0 * h0 + hi * hi).sqrt())
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
                ci95,
                beyond_noise,
                insufficient_samples,
            }
        })
        .collect();
    Ok(Comparison {
        format: FORMAT,
        version: VERSION,
        report_version: super::suite::VERSION,
        kind: kind.name(),
        reports: entries,
        workload_differences,
        exceedance_workload: opts.workload.clone(),
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

/// What a cell shows for a figure a report does not have (text and HTML alike: the text
/// table already speaks UTF-8 — "—", "±" — and "-" reads as a minus sign).
const ABSENT: &str = "–";

fn fmt_v(v: Option<f64>) -> String {
    match v.filter(|x| x.is_finite()) {
        None => ABSENT.into(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e12 => format!("{x:.0}"),
        Some(x) if x.abs() >= 100.0 => format!("{x:.0}"),
        Some(x) if x.abs() >= 10.0 => format!("{x:.1}"),
        Some(x) => format!("{x:.2}"),
    }
}

fn fmt_d(d: Option<f64>, p: Option<f64>) -> String {
    match (d.filter(|x| x.is_finite()), p.filter(|x| x.is_finite())) {
        (None, _) => ABSENT.into(),
        (Some(d), Some(p)) => format!(
            "{}{} ({p:+.1}%)",
            if d >= 0.0 { "+" } else { "" },
            fmt_v(Some(d))
        ),
        (Some(d), None) => format!("{}{}", if d >= 0.0 { "+" } else { "" }, fmt_v(Some(d))),
    }
}

/// What the difference means against the noise: `beyond noise`, `within noise`,
/// `insufficient samples`, or nothing where no interval is known.
fn noise_word(r: &Row, i: usize) -> &'static str {
    if r.insufficient_samples[0] || r.insufficient_samples[i] {
        return "insufficient samples";
    }
    match r.beyond_noise[i] {
        Some(true) => "beyond noise",
        Some(false) => "within noise",
        None => "",
    }
}

fn fmt_dn(r: &Row, i: usize) -> String {
    let d = fmt_d(r.delta[i], r.delta_pct[i]);
    match noise_word(r, i) {
        "" => d,
        w if r.delta[i].is_some() => format!("{d} {w}"),
        _ => d,
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
        for d in &self.workload_differences {
            let _ = writeln!(s, "  WORKLOADS DIFFER (--allow-different): {d}");
        }
        let _ = writeln!(
            s,
            "  a difference is \"beyond noise\" when larger than the two values' 95 % intervals \
             combined (rounds of a PTS window, batch means of a run), \"within noise\" when not; \
             unmarked where the reports hold no repetitions to estimate the noise"
        );
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
                    line.push(fmt_dn(r, i));
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
    if !cmp.workload_differences.is_empty() {
        d.banner(
            Tone::Bad,
            &format!(
                "The reports are of different workloads (compared with --allow-different): {}",
                cmp.workload_differences.join("; ")
            ),
        );
    }
    d.h2("Differences");
    d.p("A difference is \"beyond noise\" when it is larger than the two values' 95 % confidence intervals combined (the rounds of a PTS measurement window, or batch means of a run's intervals), \"within noise\" when not; unmarked where a report holds no repetitions to estimate its noise.");
    diff_table(&mut d, cmp);
    match reports[0].kind {
        Kind::Run => run_charts(&mut d, &names, reports),
        Kind::Pts | Kind::Review => {
            suite_charts(&mut d, &names, reports, cmp.exceedance_workload.as_deref())
        }
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
                l.push(match (r.values[i], r.ci95[i]) {
                    (Some(_), Some(h)) => format!("{} ± {}", fmt_v(r.values[i]), fmt_v(Some(h))),
                    _ => fmt_v(r.values[i]),
                });
                if i > 0 {
                    l.push(fmt_dn(r, i));
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

/// The run of the cell `label` in test `t`: the last round of the last stage holding it.
fn cell_run<'a>(t: &'a Value, label: &str) -> Option<&'a Value> {
    a(&t["stages"])
        .iter()
        .rev()
        .flat_map(|stg| a(&stg["rounds"]).iter().rev())
        .flat_map(|r| a(&r["cells"]).iter())
        .find(|c| c["stimulus"]["label"] == label)
        .and_then(|c| c["m"].get("run"))
        .filter(|x| !x.is_null())
}

/// The cell a test's exceedance chart shows by default: the steady-state tracking cell
/// (`0/100-4k` of "0/100-4k iops"), else the only cell label the test has.
fn default_cell(t: &Value) -> Option<String> {
    let tracking = a(&t["stages"])
        .iter()
        .filter_map(|s| s["steady_state"]["tracking"].as_str())
        .next_back()
        .and_then(|x| x.split_whitespace().next())
        .map(String::from);
    if tracking
        .as_deref()
        .is_some_and(|l| cell_run(t, l).is_some())
    {
        return tracking;
    }
    let mut labels: Vec<&str> = a(&t["stages"])
        .iter()
        .flat_map(|stg| a(&stg["rounds"]))
        .flat_map(|r| a(&r["cells"]))
        .filter_map(|c| c["stimulus"]["label"].as_str())
        .collect();
    labels.sort_unstable();
    labels.dedup();
    match labels.as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    }
}

fn suite_charts(d: &mut Doc, names: &[String], reports: &[Loaded], workload: Option<&str>) {
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
                    format!(
                        "Steady-state convergence of {}: {}",
                        super::page::stage_words(stg),
                        super::page::tracking_words(&tracking)
                    ),
                    "round",
                    super::page::tracking_metric(&tracking).0,
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
        // The latency distribution of one chosen workload (cell) of the test, the same in
        // every report: --workload, else the test's tracking cell.
        let cell = workload
            .map(String::from)
            .or_else(|| test_of(&reports[0].value, t).and_then(default_cell));
        match cell {
            Some(cell) => {
                let mut e = XyChart::new(
                    format!("{t}: latency exceedance of {cell}"),
                    "latency (µs)",
                    "fraction of I/Os slower",
                )
                .fraction_y();
                e.log_x = true;
                e.log_y = true;
                for (i, r) in reports.iter().enumerate() {
                    let h = test_of(&r.value, t)
                        .and_then(|x| cell_run(x, &cell))
                        .map(|run| hist_curves(&run["histogram"]).1)
                        .unwrap_or_default();
                    e.series.push(Series::line(names[i].clone(), h).color(i));
                }
                d.chart(
                    xy_svg(&e),
                    &format!("1 − CDF of completion latency of the cell {cell}, its last round in each report."),
                );
            }
            None => {
                d.p(&format!(
                "{t}: no latency exceedance chart — the test has several cells and no tracking \
                 cell; choose one with --workload LABEL (a cell label such as 0/100-4k)"
                ));
            }
        }
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

    /// A figure one report lacks reads "–" (absent) in the text and the HTML table, never
    /// "-" (a minus sign without its number).
    #[test]
    fn an_absent_figure_is_a_dash_not_a_minus() {
        let mut b = run(1250.0, "B");
        if let Some(o) = b.value["result"].as_object_mut() {
            o.remove("mbps");
        }
        let c = compare(&[run(1000.0, "A"), b.clone()], &[]).unwrap();
        let row = c.rows.iter().find(|r| r.values[1].is_none()).unwrap();
        assert_eq!(fmt_v(row.values[1]), "–");
        assert_eq!(fmt_d(row.delta[1], row.delta_pct[1]), "–");
        let t = c.text();
        let line = t
            .lines()
            .find(|l| l.contains(&row.name) && l.contains(&row.group))
            .unwrap();
        assert!(line.contains('–') && !line.contains(" - "), "{line}");
        let h = html(&c, &[run(1000.0, "A"), b]);
        assert!(h.contains("<td>–</td>") && !h.contains("<td>-</td>"), "{h}");
        assert_eq!(fmt_v(Some(f64::NAN)), "–");
    }

    fn run_of(rw: &str, bs: u64, qd: u64, iops: &[f64]) -> Loaded {
        let mut r = run(iops.iter().sum::<f64>() / iops.len() as f64, "M");
        r.value["settings"] = json!({"rw": rw, "bs": [[bs, 1]], "qd": qd, "jobs": 1,
            "read_pct": 50});
        r.value["result"]["intervals"] = iops
            .iter()
            .enumerate()
            .map(|(i, x)| json!({"t_s": i as f64, "iops": x}))
            .collect();
        r
    }

    #[test]
    fn refuses_different_workloads_listing_each_difference() {
        let a = run_of("randread", 4096, 32, &[1000.0; 20]);
        let b = run_of("randwrite", 8192, 32, &[1000.0; 20]);
        let e = compare(&[a.clone(), b.clone()], &[]).unwrap_err();
        assert!(e.0.contains("different workloads"), "{e}");
        assert!(e.0.contains("rw: [1] randread, [2] randwrite"), "{e}");
        assert!(
            e.0.contains("block size (bytes/weight): [1] 4096/1, [2] 8192/1"),
            "{e}"
        );
        assert!(!e.0.contains("QD:"), "QD is the same: {e}");
        assert!(e.0.contains("--allow-different"), "{e}");
        // QD and jobs and the mix of randrw count too.
        let c = run_of("randread", 4096, 1, &[1000.0; 20]);
        assert!(compare(&[a.clone(), c], &[])
            .unwrap_err()
            .0
            .contains("QD: [1] 32, [2] 1"));
        let m1 = run_of("randrw", 4096, 32, &[1000.0; 20]);
        let mut m2 = m1.clone();
        m2.value["settings"]["read_pct"] = json!(70);
        assert!(compare(&[m1.clone(), m2], &[])
            .unwrap_err()
            .0
            .contains("read %"));
        // The mix of a randread run is not a difference (it does not apply).
        let mut a2 = a.clone();
        a2.value["settings"]["read_pct"] = json!(0);
        assert!(compare(&[a.clone(), a2], &[]).is_ok());
        // Asked for: compared, the differences listed.
        let opts = Options {
            allow_different: true,
            workload: None,
        };
        let c = compare_with(&[a, b], &[], &opts).unwrap();
        assert_eq!(c.workload_differences.len(), 2);
        assert!(c.text().contains("WORKLOADS DIFFER"));
        // Suites: another test set is another workload.
        let suite = |tests: serde_json::Value| Loaded {
            path: PathBuf::from("/r/p/report.json"),
            kind: Kind::Pts,
            value: json!({"suite": "pts", "settings": {"tests": tests, "tc": 1, "qd": 32,
                "active_range_pct": 100.0}, "tests": []}),
        };
        let e = compare(&[suite(json!(["iops"])), suite(json!(["lat"]))], &[]).unwrap_err();
        assert!(e.0.contains("tests: [1] iops, [2] lat"), "{e}");
    }

    #[test]
    fn says_whether_a_difference_is_beyond_the_noise() {
        // Steady runs 10 % apart: beyond the noise of their batch means.
        let a = run_of(
            "randread",
            4096,
            32,
            &[1000.0, 1002.0, 998.0, 1001.0].repeat(5),
        );
        let b = run_of(
            "randread",
            4096,
            32,
            &[1100.0, 1102.0, 1098.0, 1101.0].repeat(5),
        );
        let c = compare(&[a.clone(), b], &[]).unwrap();
        let r = c.rows.iter().find(|r| r.name == "IOPS").unwrap();
        assert_eq!(r.beyond_noise, vec![None, Some(true)]);
        assert!(c.text().contains("beyond noise"), "{}", c.text());
        // Noisy runs 1 % apart: within it.
        let n1: Vec<f64> = (0..20u64)
            .map(|i| 500.0 + ((i * 7919 + 13) % 101) as f64 * 10.0)
            .collect();
        let n2: Vec<f64> = n1.iter().rev().map(|x| x * 1.01).collect();
        let c = compare(
            &[
                run_of("randread", 4096, 32, &n1),
                run_of("randread", 4096, 32, &n2),
            ],
            &[],
        )
        .unwrap();
        let r = c.rows.iter().find(|r| r.name == "IOPS").unwrap();
        assert_eq!(r.beyond_noise, vec![None, Some(false)]);
        // A figure without an interval is not judged.
        let r = c.rows.iter().find(|r| r.name == "latency p99").unwrap();
        assert_eq!(r.beyond_noise, vec![None, None]);
    }

    #[test]
    fn the_exceedance_chart_is_of_the_chosen_cell() {
        let cell = |label: &str, hist: serde_json::Value| json!({"stimulus": {"label": label}, "m": {"run": {"histogram": hist}}});
        let rep = || Loaded {
            path: PathBuf::from("/r/p/report.json"),
            kind: Kind::Pts,
            value: json!({"suite": "pts", "settings": {}, "tests": [{"test": "iops",
                "stages": [{"name": "wdpc", "steady_state": {"tracking": "0/100-4k iops"},
                    "rounds": [{"round": 1, "cells": [
                        cell("0/100-4k", json!([[10.0, 5], [20.0, 5]])),
                        cell("100/0-8k", json!([[70.0, 5], [80.0, 5]]))]}]}]}]}),
        };
        let c = compare(&[rep(), rep()], &[]).unwrap();
        let h = html(&c, &[rep(), rep()]);
        assert!(h.contains("iops: latency exceedance of 0/100-4k"), "{h}");
        assert!(!h.contains("last cell measured"));
        let opts = Options {
            allow_different: false,
            workload: Some("100/0-8k".into()),
        };
        let c = compare_with(&[rep(), rep()], &[], &opts).unwrap();
        let h = html(&c, &[rep(), rep()]);
        assert!(h.contains("iops: latency exceedance of 100/0-8k"), "{h}");
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
