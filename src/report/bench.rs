//! `report.html` of a benchmark run: a view of `report.json` (docs/bench-report.md for the
//! suites and for `bench run --report`). It reads the JSON, not the Rust structs, so a
//! report written by another sgctl version renders as far as its fields go; a missing field
//! shows as "-", a chart without data says why instead of failing.

use super::chart::{
    self, heatmap_svg, histogram_svg, least_squares, moving_average, xy_svg, Band, HeatMap,
    Histogram, Mark, Series, XyChart, DEFAULT_SIZE,
};
use super::html::{Doc, Tone};
use serde_json::Value;

fn s(v: &Value, k: &str) -> String {
    match v.get(k) {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Null) | None => "-".into(),
        Some(Value::Number(n)) => n
            .as_f64()
            .map(|f| {
                if f.fract() == 0.0 && f.abs() < 1e15 {
                    format!("{f:.0}")
                } else {
                    format!("{f:.2}")
                }
            })
            .unwrap_or_else(|| n.to_string()),
        Some(x) => x.to_string(),
    }
}

fn f(v: &Value, k: &str) -> Option<f64> {
    v.get(k).and_then(Value::as_f64)
}

fn arr<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn num(x: Option<f64>) -> String {
    x.map(chart::human).unwrap_or_else(|| "-".into())
}

/// Renders a suite report (`format` = `sgctl-bench-report`) or a `bench run` report.
pub fn render(report: &Value) -> String {
    match report.get("suite").and_then(Value::as_str) {
        Some("run") => render_run(report),
        _ => render_suite(report),
    }
}

fn header_rows(h: &Value) -> Vec<(&'static str, String)> {
    vec![
        ("Vendor", s(h, "vendor")),
        ("Model", s(h, "model")),
        ("Serial", s(h, "serial")),
        ("WWN", s(h, "wwn")),
        ("Firmware", s(h, "firmware")),
        ("Capacity (bytes)", s(h, "capacity_bytes")),
        ("Logical block length", s(h, "block_len")),
        ("Protection type", s(h, "protection_type")),
        ("Interface", s(h, "interface")),
        ("Address", s(h, "address")),
        ("Engine", s(h, "engine")),
        (
            "Host / kernel",
            format!("{} / {}", s(h, "host"), s(h, "kernel")),
        ),
        ("Tool", s(h, "tool")),
    ]
}

fn render_suite(r: &Value) -> String {
    let h = r.get("header").cloned().unwrap_or(Value::Null);
    let st = r.get("settings").cloned().unwrap_or(Value::Null);
    let suite = s(r, "suite");
    let mut d = Doc::new(
        &format!(
            "sgctl bench {suite} — {} {} (serial {})",
            s(&h, "vendor"),
            s(&h, "model"),
            s(&h, "serial")
        ),
        &format!(
            "report format {} v{} · created {} · updated {} · state {}",
            s(r, "format"),
            s(r, "version"),
            s(r, "created"),
            s(r, "updated"),
            s(r, "state")
        ),
    );
    // What nobody may miss: not purged, not complete, scaled time.
    let purges: Vec<&Value> = arr(r, "tests")
        .iter()
        .flat_map(|t| arr(t, "stages"))
        .filter_map(|stg| stg.get("purge").filter(|p| !p.is_null()))
        .collect();
    let not_purged = s(&st, "purge") == "none"
        || purges
            .iter()
            .any(|p| p.get("purged").and_then(Value::as_bool) == Some(false));
    if not_purged {
        d.banner(
            Tone::Bad,
            "NOT PURGED — the drive was not purged before the test; results are not PTS-conformant",
        );
    } else if !purges.is_empty() {
        let m: Vec<String> = purges.iter().map(|p| s(p, "method")).collect();
        d.banner(
            Tone::Good,
            &format!("Purged before testing: {}", m.join(", ")),
        );
    }
    if r.get("complete").and_then(Value::as_bool) != Some(true) {
        d.banner(
            Tone::Bad,
            &format!("Run not complete: state {}", s(r, "state")),
        );
    }
    for n in arr(r, "notes") {
        d.banner(Tone::Note, n.as_str().unwrap_or(""));
    }
    d.h2("Device under test and platform");
    d.kv(&header_rows(&h));
    d.h2("Settings");
    let wc = r.get("write_cache").cloned().unwrap_or(Value::Null);
    d.kv(&[
        (
            "Tests",
            st.get("tests").map(|t| t.to_string()).unwrap_or_default(),
        ),
        (
            "TC × QD (TOIO)",
            format!("{} × {} ({})", s(&st, "tc"), s(&st, "qd"), s(&st, "toio")),
        ),
        ("ActiveRange", format!("{} %", s(&st, "active_range_pct"))),
        ("Max rounds", s(&st, "max_rounds")),
        ("Purge requested", s(&st, "purge")),
        ("Data pattern", s(&st, "data_pattern")),
        (
            "Time scale",
            format!("{} ({})", s(&st, "time_scale"), s(&st, "time_scale_reason")),
        ),
        (
            "Write cache (WCE)",
            format!(
                "required {}; before {}, during {}, after {}; restored {}",
                s(&wc, "required"),
                s(&wc, "wce_before"),
                s(&wc, "wce_during"),
                s(&wc, "wce_after"),
                s(&wc, "restored")
            ),
        ),
    ]);
    if !purges.is_empty() {
        d.h3("Purge");
        let rows: Vec<Vec<String>> = purges
            .iter()
            .map(|p| {
                vec![
                    s(p, "requested"),
                    s(p, "method"),
                    s(p, "status"),
                    s(p, "duration_s"),
                    s(p, "certificate"),
                ]
            })
            .collect();
        d.table(
            &[
                "requested",
                "method",
                "status",
                "duration (s)",
                "certificate",
            ],
            &rows,
        );
    }
    for t in arr(r, "tests") {
        test_section(&mut d, t);
    }
    d.finish(&format!(
        "{} · report.json beside this file holds every figure shown here",
        s(&h, "tool")
    ))
}

fn test_section(d: &mut Doc, t: &Value) {
    let name = s(t, "test");
    d.h2(&format!("{} — {}", name.to_uppercase(), s(t, "state")));
    for n in arr(t, "notes") {
        d.banner(Tone::Note, n.as_str().unwrap_or(""));
    }
    let res = t.get("results").cloned().unwrap_or(Value::Null);
    // Steady state: convergence over the rounds and the measurement window.
    for stg in arr(t, "stages") {
        if let Some(ss) = stg.get("steady_state").filter(|x| !x.is_null()) {
            steady_state(d, &s(stg, "name"), stg, ss);
        }
    }
    match name.as_str() {
        "iops" => iops(d, &res),
        "tp" => table_of(d, &res, "table", &["block_size", "read_mbps", "write_mbps"]),
        "lat" => {
            table_of(
                d,
                &res,
                "table",
                &[
                    "rw_mix",
                    "block_size",
                    "art_us",
                    "mrt_us",
                    "p99999_us",
                    "read_art_us",
                    "write_art_us",
                ],
            );
            latency_charts(d, last_run(t), "LAT, last round");
        }
        "wsat" => wsat(d, &res),
        "ecw" | "dirth" => dirth(d, &res),
        "write_cliff" | "op" => cliff(d, &res, &name),
        "qd_sweep" => qd_sweep(d, &res),
        "basics" => table_of(
            d,
            &res,
            "table",
            &["workload", "iops", "mbps", "mean_lat_us", "p9999_lat_us"],
        ),
        "profiles" => profiles(d, &res),
        "hir" | "xsr" => {
            d.pre(&serde_json::to_string_pretty(&res).unwrap_or_default());
        }
        _ => {}
    }
}

/// The run of the last measured cell of the last stage with rounds (for latency charts).
pub(crate) fn last_run(t: &Value) -> Option<&Value> {
    arr(t, "stages")
        .iter()
        .rev()
        .flat_map(|stg| arr(stg, "rounds").iter().rev())
        .flat_map(|r| arr(r, "cells").iter().rev())
        .find_map(|c| {
            c.get("m")
                .and_then(|m| m.get("run"))
                .filter(|x| !x.is_null())
        })
}

fn steady_state(d: &mut Doc, stage: &str, stg: &Value, ss: &Value) {
    let w = ss.get("window").cloned().unwrap_or(Value::Null);
    let reached = ss.get("reached").and_then(Value::as_bool) == Some(true);
    d.h3(&format!("Steady state ({stage}): {}", s(ss, "tracking")));
    d.banner(
        if reached { Tone::Good } else { Tone::Bad },
        &if reached {
            format!(
                "steady state reached in rounds {}–{} (of at most {})",
                s(&w, "start_round"),
                s(&w, "stop_round"),
                s(ss, "max_rounds")
            )
        } else {
            format!(
                "steady state NOT reached after {} rounds (last window shown)",
                s(ss, "rounds")
            )
        },
    );
    let track: Vec<(f64, f64)> = arr(stg, "rounds")
        .iter()
        .filter_map(|r| Some((f(r, "round")?, f(r, "tracking")?)))
        .collect();
    d.chart(
        xy_svg(
            &XyChart::new(
                format!("Steady-state convergence — {}", s(ss, "tracking")),
                "round",
                tracking_quantity(&s(ss, "tracking")),
            )
            .integer_x()
            .with(Series::line(s(ss, "tracking"), track).mark(Mark::LinePoints)),
        ),
        "The tracking variable per round, from the first round after preconditioning.",
    );
    let (a, b) = (
        f(&w, "start_round").unwrap_or(1.0),
        f(&w, "stop_round").unwrap_or(5.0),
    );
    let vals: Vec<(f64, f64)> = arr(&w, "values")
        .iter()
        .enumerate()
        .filter_map(|(i, v)| Some((a + i as f64, v.as_f64()?)))
        .collect();
    if let Some(avg) = f(&w, "average") {
        let fit = match (f(&w, "slope"), f(&w, "y_intercept")) {
            (Some(m), Some(c)) => Some((m, c)),
            _ => least_squares(&vals),
        };
        let mut c = XyChart::new(
            "Measurement window",
            "round",
            tracking_quantity(&s(ss, "tracking")),
        )
        .integer_x();
        c.y_from_zero = false;
        c.bands = vec![
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
        c.series
            .push(Series::line("value", vals.clone()).mark(Mark::LinePoints));
        c.series
            .push(Series::line("average", vec![(a, avg), (b, avg)]).mark(Mark::Dashed));
        if let Some((m, k)) = fit {
            c.series.push(
                Series::line("least-squares fit", vec![(a, m * a + k), (b, m * b + k)])
                    .mark(Mark::Dashed)
                    .color(2),
            );
        }
        d.chart(
            xy_svg(&c),
            "The five rounds of the window with their average, the ±10 % / ±20 % bands and the \
             least-squares line (PTS: data excursion ≤ 20 %, slope excursion ≤ 10 % of the average).",
        );
    }
    d.kv(&[
        ("Average", s(&w, "average")),
        (
            "Largest data excursion (allowed)",
            format!(
                "{} ({})",
                s(&w, "largest_data_excursion"),
                s(&w, "max_data_excursion")
            ),
        ),
        (
            "Largest slope excursion (allowed)",
            format!(
                "{} ({})",
                s(&w, "largest_slope_excursion"),
                s(&w, "max_slope_excursion")
            ),
        ),
        ("Fit", s(&w, "linear_fit_formula")),
        ("Slope", s(&w, "slope")),
        (
            "Rounds",
            format!("{} – {}", s(&w, "start_round"), s(&w, "stop_round")),
        ),
    ]);
}

fn table_of(d: &mut Doc, res: &Value, key: &str, cols: &[&str]) {
    let rows: Vec<Vec<String>> = arr(res, key)
        .iter()
        .map(|r| cols.iter().map(|c| fmt_cell(r.get(*c))).collect())
        .collect();
    if !rows.is_empty() {
        d.table(cols, &rows);
    }
}

fn fmt_cell(v: Option<&Value>) -> String {
    match v {
        Some(Value::Number(n)) => n
            .as_f64()
            .map(|x| {
                if x.abs() >= 100.0 {
                    format!("{x:.0}")
                } else {
                    format!("{x:.2}")
                }
            })
            .unwrap_or_default(),
        Some(Value::String(x)) => x.clone(),
        Some(Value::Null) | None => "-".into(),
        Some(x) => x.to_string(),
    }
}

fn iops(d: &mut Doc, res: &Value) {
    let bss: Vec<String> = arr(res, "block_sizes")
        .iter()
        .filter_map(|b| b.as_str().map(str::to_string))
        .collect();
    let table = arr(res, "table");
    if table.is_empty() || bss.is_empty() {
        return;
    }
    d.h3("IOPS (average over the measurement window)");
    let mut header = vec!["R/W mix"];
    header.extend(bss.iter().map(String::as_str));
    let mixes: Vec<String> = table.iter().map(|r| s(r, "rw_mix")).collect();
    let values: Vec<Vec<Option<f64>>> = table
        .iter()
        .map(|r| {
            bss.iter()
                .map(|b| r.get("iops").and_then(|m| m.get(b)).and_then(Value::as_f64))
                .collect()
        })
        .collect();
    let rows: Vec<Vec<String>> = mixes
        .iter()
        .zip(&values)
        .map(|(m, vs)| {
            std::iter::once(m.clone())
                .chain(vs.iter().map(|v| num(*v)))
                .collect()
        })
        .collect();
    d.table(&header, &rows);
    d.chart(
        heatmap_svg(&HeatMap {
            title: "IOPS surface: R/W mix × block size".into(),
            rows: mixes.clone(),
            cols: bss.clone(),
            values: values.clone(),
            size: (760, 330),
        }),
        "The 56 cells of the IOPS test (read/write mix by block size), shaded low to high.",
    );
    // A 2D chart per block size: IOPS against the R/W mix.
    let mut c = XyChart::new(
        "IOPS by R/W mix, per block size",
        "reads (% of I/Os)",
        "IOPS",
    );
    c.log_y = true;
    for (bi, b) in bss.iter().enumerate() {
        let pts: Vec<(f64, f64)> = mixes
            .iter()
            .zip(&values)
            .filter_map(|(m, vs)| {
                let read: f64 = m.split('/').next()?.trim().parse().ok()?;
                Some((read, vs[bi]?))
            })
            .collect();
        c.series
            .push(Series::line(b.clone(), pts).mark(Mark::LinePoints));
    }
    d.chart(xy_svg(&c), "Each line is one block size (log scale).");
}

fn wsat(d: &mut Doc, res: &Value) {
    let series = arr(res, "series");
    let by_gb: Vec<(f64, f64)> = series
        .iter()
        .filter_map(|x| Some((f(x, "tgbw_gb")?, f(x, "iops")?)))
        .collect();
    d.chart(
        xy_svg(
            &XyChart::new(
                "WSAT: IOPS against total GB written",
                "total GB written",
                "IOPS",
            )
            .with(Series::line("4 KiB random write", by_gb.clone()).mark(Mark::Points))
            .with(Series::line(
                "moving average (5)",
                moving_average(&by_gb, 5),
            )),
        ),
        "Write saturation: from fresh-out-of-box to the steady state.",
    );
    let art: Vec<(f64, f64)> = series
        .iter()
        .filter_map(|x| Some((f(x, "tgbw_gb")?, f(x, "art_us")?)))
        .collect();
    d.chart(
        xy_svg(
            &XyChart::new("WSAT: mean response time", "total GB written", "ART (µs)")
                .with(Series::line("ART", art)),
        ),
        "Average response time per sample.",
    );
}

fn dirth(d: &mut Doc, res: &Value) {
    let table = arr(res, "table");
    let mut tcs: Vec<u64> = table
        .iter()
        .filter_map(|r| r.get("tc").and_then(Value::as_u64))
        .collect();
    tcs.sort_unstable();
    tcs.dedup();
    let mut c = XyChart::new(
        "Demand intensity: ART against IOPS, one curve per thread count",
        "IOPS",
        "ART (µs)",
    );
    c.log_y = true;
    for tc in &tcs {
        let mut pts: Vec<(f64, f64)> = table
            .iter()
            .filter(|r| r.get("tc").and_then(Value::as_u64) == Some(*tc))
            .filter_map(|r| Some((f(r, "iops")?, f(r, "art_us")?)))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        c.series
            .push(Series::line(format!("TC {tc}"), pts).mark(Mark::LinePoints));
    }
    d.chart(
        xy_svg(&c),
        "Each curve sweeps the queue depth at one thread count (PTS demand intensity).",
    );
    table_of(d, res, "table", &["tc", "qd", "toio", "iops", "art_us"]);
    if let Some(caps) = res.get("captures").and_then(Value::as_object) {
        for (k, v) in caps {
            if let Some(h) = v.get("histogram") {
                hist_chart(d, h, &format!("{k}: response-time histogram"));
            }
        }
    }
}

fn cliff(d: &mut Doc, res: &Value, name: &str) {
    d.key_figures(&[
        (num(f(res, "fob_iops")), "FOB IOPS".into()),
        (num(f(res, "ss_iops")), "steady-state IOPS".into()),
        (
            f(res, "drop_pct")
                .map(|x| format!("{x:.0} %"))
                .unwrap_or_else(|| "-".into()),
            "drop".into(),
        ),
        (
            f(res, "ss_mean_lat_us")
                .map(|x| format!("{:.2} ms", x / 1000.0))
                .unwrap_or_else(|| "-".into()),
            "steady-state mean latency".into(),
        ),
    ]);
    let pts: Vec<(f64, f64)> = arr(res, "series")
        .iter()
        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
        .collect();
    d.chart(
        xy_svg(
            &XyChart::new(
                if name == "op" {
                    "Over-provisioned: 4 KiB random write IOPS against time"
                } else {
                    "Write cliff: 4 KiB random write IOPS against time (FOB → steady state)"
                },
                "drive time (s)",
                "IOPS",
            )
            .with(Series::line("IOPS per interval", pts.clone()).color(5))
            .with(Series::line("moving average (30)", moving_average(&pts, 30)).color(1)),
        ),
        "One sample per log interval, from the purge on, with a trailing moving average.",
    );
    if name == "op" {
        d.kv(&[
            ("Capacity used", format!("{} %", s(res, "capacity_pct"))),
            ("Capacity during the test", s(res, "op_capacity_bytes")),
            ("Returned to full capacity", s(res, "restored")),
            ("Capacity after", s(res, "restored_capacity_bytes")),
        ]);
    }
}

fn qd_sweep(d: &mut Doc, res: &Value) {
    let t = arr(res, "table");
    let get = |dir: &str, k: &str| -> Vec<(f64, f64)> {
        t.iter()
            .filter_map(|r| Some((f(r, "qd")?, r.get(dir)?.get(k)?.as_f64()?)))
            .collect()
    };
    let mut c = XyChart::new("IOPS against queue depth", "queue depth", "IOPS").integer_x();
    c.log_x = true;
    c.series
        .push(Series::line("4K random read", get("read_4k", "iops")).mark(Mark::LinePoints));
    c.series
        .push(Series::line("4K random write", get("write_4k", "iops")).mark(Mark::LinePoints));
    d.chart(
        xy_svg(&c),
        &format!(
            "Knee: read at QD {}, write at QD {} ({}).",
            s(res, "knee_read_qd"),
            s(res, "knee_write_qd"),
            s(res, "knee_rule")
        ),
    );
    let mut l =
        XyChart::new("Latency against queue depth", "queue depth", "latency (µs)").integer_x();
    l.log_x = true;
    l.log_y = true;
    for (dir, label) in [("read_4k", "read"), ("write_4k", "write")] {
        l.series.push(Series::line(
            format!("{label} mean"),
            get(dir, "mean_lat_us"),
        ));
        l.series.push(
            Series::line(format!("{label} 99.99 %"), get(dir, "p9999_lat_us")).mark(Mark::Dashed),
        );
    }
    d.chart(xy_svg(&l), "Mean and 99.99th percentile latency per QD.");
    let mut li = XyChart::new("Latency against IOPS", "IOPS", "mean latency (µs)");
    li.log_y = true;
    for (dir, label) in [("read_4k", "read"), ("write_4k", "write")] {
        let pts: Vec<(f64, f64)> = t
            .iter()
            .filter_map(|r| {
                let x = r.get(dir)?;
                Some((f(x, "iops")?, f(x, "mean_lat_us")?))
            })
            .collect();
        li.series
            .push(Series::line(label, pts).mark(Mark::LinePoints));
    }
    d.chart(xy_svg(&li), "Each point is one queue depth.");
    let rows: Vec<Vec<String>> = t
        .iter()
        .map(|r| {
            let g = |dir: &str, k: &str| num(r.get(dir).and_then(|x| f(x, k)));
            vec![
                s(r, "qd"),
                g("read_4k", "iops"),
                g("read_4k", "mean_lat_us"),
                g("read_4k", "p9999_lat_us"),
                g("write_4k", "iops"),
                g("write_4k", "mean_lat_us"),
                g("write_4k", "p9999_lat_us"),
            ]
        })
        .collect();
    d.table(
        &[
            "QD",
            "read IOPS",
            "read mean µs",
            "read 99.99 % µs",
            "write IOPS",
            "write mean µs",
            "write 99.99 % µs",
        ],
        &rows,
    );
}

fn profiles(d: &mut Doc, res: &Value) {
    let mut rows = Vec::new();
    let mut c = XyChart::new(
        "Server profiles: IOPS against queue depth",
        "queue depth",
        "IOPS",
    )
    .integer_x();
    c.log_x = true;
    for p in arr(res, "table") {
        let mut pts = Vec::new();
        for q in arr(p, "by_qd") {
            rows.push(vec![
                s(p, "profile"),
                s(p, "read_pct"),
                s(q, "qd"),
                num(f(q, "iops")),
                num(f(q, "mbps")),
                num(f(q, "mean_lat_us")),
                num(f(q, "p9999_lat_us")),
            ]);
            if let (Some(x), Some(y)) = (f(q, "qd"), f(q, "iops")) {
                pts.push((x, y));
            }
        }
        c.series
            .push(Series::line(s(p, "profile"), pts).mark(Mark::LinePoints));
    }
    d.chart(
        xy_svg(&c),
        "Database/OLTP, e-mail, file server and web server mixes.",
    );
    d.table(
        &[
            "profile",
            "read %",
            "QD",
            "IOPS",
            "MB/s",
            "mean µs",
            "99.99 % µs",
        ],
        &rows,
    );
}

/// The quantity (with its unit) of a steady-state tracking label such as `4k-w iops`.
pub(super) fn tracking_quantity(label: &str) -> String {
    if label.ends_with("iops") {
        "IOPS".into()
    } else if label.ends_with("MB/s") {
        "write throughput (MB/s)".into()
    } else if label.ends_with("µs") {
        "mean response time (µs)".into()
    } else {
        label.to_string()
    }
}

fn hist_chart(d: &mut Doc, h: &Value, title: &str) {
    // [[upper_us, count], ...]: each bin runs from the previous upper edge.
    let mut lo = 0.0f64;
    let mut bins = Vec::new();
    for b in h.as_array().map_or(&[][..], Vec::as_slice) {
        let (Some(up), Some(n)) = (
            b.get(0).and_then(Value::as_f64),
            b.get(1).and_then(Value::as_f64),
        ) else {
            continue;
        };
        let a = if lo > 0.0 { lo } else { up / 1.1 };
        if n > 0.0 {
            bins.push((a, up, n));
        }
        lo = up;
    }
    d.chart(
        histogram_svg(&Histogram {
            title: title.into(),
            x_label: "completion latency (µs)".into(),
            y_label: "I/Os".into(),
            bins: bins.clone(),
            log_x: true,
            size: DEFAULT_SIZE,
        }),
        "Per-I/O completion latency, submit to reap (log-linear buckets).",
    );
    // Exceedance: the fraction of I/Os slower than x.
    let total: f64 = bins.iter().map(|b| b.2).sum();
    if total > 0.0 {
        let mut seen = 0.0;
        let pts: Vec<(f64, f64)> = bins
            .iter()
            .filter_map(|b| {
                seen += b.2;
                let rest = (total - seen) / total;
                (rest > 0.0).then_some((b.1, rest))
            })
            .collect();
        let mut c = XyChart::new(
            format!("{title} — exceedance"),
            "latency (µs)",
            "fraction of I/Os slower",
        )
        .fraction_y();
        c.log_x = true;
        c.log_y = true;
        c.series.push(Series::line("exceedance", pts));
        d.chart(
            xy_svg(&c),
            "1 − CDF: read 10⁻³ as the 99.9th percentile, 10⁻⁵ as 99.999.",
        );
    }
}

fn latency_charts(d: &mut Doc, run: Option<&Value>, title: &str) {
    let Some(run) = run else { return };
    if let Some(h) = run.get("histogram") {
        hist_chart(d, h, title);
    }
}

fn run_settings(w: &Value) -> String {
    let all = arr(w, "bs");
    let bs: Vec<String> = all
        .iter()
        .filter_map(|b| Some((b.get(0)?.as_u64()?, b.get(1)?.as_u64()?)))
        .map(|(b, x)| {
            if all.len() == 1 {
                format!("{b} B")
            } else {
                format!("{b} B/{x}")
            }
        })
        .collect();
    format!(
        "{} {}, QD{} × {} job(s)",
        s(w, "rw"),
        bs.join(" + "),
        s(w, "qd"),
        s(w, "jobs")
    )
}

fn render_run(r: &Value) -> String {
    let res = r.get("result").cloned().unwrap_or(Value::Null);
    let h = r.get("header").cloned().unwrap_or(Value::Null);
    let w = r.get("settings").cloned().unwrap_or(Value::Null);
    let mut d = Doc::new(
        &format!(
            "sgctl bench run — {} {} (serial {})",
            s(&h, "vendor"),
            s(&h, "model"),
            s(&h, "serial")
        ),
        &format!(
            "{} · engine {} · {} · created {}",
            s(&res, "device"),
            s(&res, "engine"),
            run_settings(&w),
            s(r, "created")
        ),
    );
    let lat = res.get("latency").cloned().unwrap_or(Value::Null);
    let pct = |p: f64| {
        arr(&lat, "percentiles")
            .iter()
            .find(|x| x.get(0).and_then(Value::as_f64) == Some(p))
            .and_then(|x| x.get(1).and_then(Value::as_f64))
    };
    let us = |x: Option<f64>| x.map_or_else(|| "-".into(), |x| format!("{x:.1} µs"));
    d.key_figures(&[
        (num(f(&res, "iops")), "IOPS".into()),
        (
            f(&res, "mbps").map_or_else(|| "-".into(), |x| format!("{x:.1}")),
            "MB/s".into(),
        ),
        (us(f(&lat, "mean_us")), "mean latency".into()),
        (us(pct(99.0)), "99th percentile".into()),
        (us(pct(99.999)), "99.999th percentile".into()),
        (us(f(&lat, "max_us")), "max latency".into()),
        (s(&res, "errors"), "I/O errors".into()),
    ]);
    if f(&res, "errors").unwrap_or(0.0) > 0.0 {
        d.banner(Tone::Bad, &format!("{} I/O errors", s(&res, "errors")));
    }
    if res.get("partial").and_then(Value::as_bool) == Some(true) {
        d.banner(
            Tone::Bad,
            &format!(
                "PARTIAL: the run stopped early — {}",
                s(&res, "stop_reason")
            ),
        );
    }
    for n in arr(&res, "notes").iter().chain(arr(r, "notes")) {
        d.banner(Tone::Note, n.as_str().unwrap_or(""));
    }
    if !h.is_null() {
        d.h2("Device");
        d.kv(&header_rows(&h));
    }
    d.h2("Settings");
    let wc = r.get("write_cache").cloned().unwrap_or(Value::Null);
    d.kv(&[
        ("Workload", run_settings(&w)),
        ("Read %", s(&w, "read_pct")),
        ("Total outstanding I/O", s(&w, "toio")),
        (
            "Limit",
            f(&w, "runtime_s").map_or_else(
                || format!("{} bytes", s(&w, "limit_bytes")),
                |t| format!("{t} s"),
            ),
        ),
        ("Ramp (s)", s(&w, "ramp_s")),
        ("Log interval (s)", s(&w, "log_interval_s")),
        ("ActiveRange (%)", s(&w, "active_range_pct")),
        ("Distribution", s(&w, "distribution")),
        ("Data pattern", s(&w, "data_pattern")),
        ("Verify", s(&w, "verify")),
        ("Engine asked for", s(&w, "engine_requested")),
        (
            "Write cache",
            match wc.get("wce_before").and_then(Value::as_bool) {
                Some(true) => "enabled (WCE=1), not changed".into(),
                Some(false) => "disabled (WCE=0), not changed".into(),
                None => "not read".into(),
            },
        ),
        ("State", s(r, "state")),
    ]);
    let iv = arr(&res, "intervals");
    let series = |k: &str| -> Vec<(f64, f64)> {
        iv.iter()
            .filter_map(|x| Some((f(x, "t_s")?, f(x, k)?)))
            .collect()
    };
    let step = s(&w, "log_interval_s");
    d.h2("Against time");
    for (k, title, unit) in [
        ("iops", "IOPS per interval", "IOPS"),
        ("mbps", "MB/s per interval", "MB/s"),
    ] {
        let pts = series(k);
        d.chart(
            xy_svg(
                &XyChart::new(title, "time (s)", unit)
                    .with(Series::line(unit, pts.clone()).color(5))
                    .with(Series::line("moving average (10)", moving_average(&pts, 10)).color(1)),
            ),
            &format!("One sample per log interval ({step} s); the moving average over 10."),
        );
    }
    let mut lc = XyChart::new("Latency per interval", "time (s)", "latency (µs)");
    lc.log_y = true;
    let mean = series("mean_lat_us");
    lc.series.push(Series::line("mean", mean.clone()));
    lc.series.push(
        Series::line("mean, moving average (10)", moving_average(&mean, 10)).mark(Mark::Dashed),
    );
    lc.series
        .push(Series::line("99th percentile", series("p99_lat_us")).mark(Mark::Dashed));
    lc.series.push(Series::line("max", series("max_lat_us")));
    d.chart(
        xy_svg(&lc),
        "Mean (with its moving average), 99th percentile and maximum per interval.",
    );
    d.h2("Latency");
    let mut rows: Vec<Vec<String>> = vec![
        vec!["min".into(), num(f(&lat, "min_us"))],
        vec!["mean".into(), num(f(&lat, "mean_us"))],
        vec!["stdev".into(), num(f(&lat, "stdev_us"))],
    ];
    rows.extend(arr(&lat, "percentiles").iter().filter_map(|p| {
        Some(vec![
            format!("p{}", p.get(0)?.as_f64()?),
            format!("{:.1}", p.get(1)?.as_f64()?),
        ])
    }));
    rows.push(vec!["max".into(), num(f(&lat, "max_us"))]);
    d.table(&["all I/Os", "µs"], &rows);
    for dir in ["read", "write"] {
        if let Some(x) = res.get(dir).filter(|x| x.is_object()) {
            let l = x.get("latency").cloned().unwrap_or(Value::Null);
            d.p(&format!(
                "{dir}: {} IOPS, {} MB/s, mean {} µs, max {} µs",
                num(f(x, "iops")),
                num(f(x, "mbps")),
                num(f(&l, "mean_us")),
                num(f(&l, "max_us"))
            ));
        }
    }
    if let Some(hh) = res.get("histogram") {
        hist_chart(&mut d, hh, "Completion latency");
    }
    d.finish(&format!(
        "{} · report.json beside this file holds every figure shown here",
        s(&h, "tool")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn suite_report_renders_steady_state_and_not_purged() {
        let r = json!({"format": "sgctl-bench-report", "version": 1, "suite": "pts",
            "complete": true, "state": "complete",
            "header": {"vendor": "TOSHIBA", "model": "MK4001GRZB", "serial": "S1"},
            "settings": {"purge": "none"}, "notes": [],
            "tests": [{"test": "iops", "state": "done", "stages": [{"name": "wdpc",
                "rounds": [{"round": 1, "tracking": 100.0}, {"round": 2, "tracking": 90.0},
                           {"round": 3, "tracking": 91.0}, {"round": 4, "tracking": 90.5},
                           {"round": 5, "tracking": 90.2}],
                "steady_state": {"tracking": "0/100-4k iops", "reached": true, "rounds": 5,
                    "max_rounds": 25, "window": {"start_round": 1, "stop_round": 5,
                    "values": [100.0, 90.0, 91.0, 90.5, 90.2], "average": 92.3,
                    "slope": -1.9, "y_intercept": 98.0}}}],
                "results": {"block_sizes": ["4k", "8k"], "table": [
                    {"rw_mix": "100/0", "iops": {"4k": 1000.0, "8k": 700.0}},
                    {"rw_mix": "0/100", "iops": {"4k": 400.0, "8k": 300.0}}]}}]});
        let h = render(&r);
        assert!(h.contains("NOT PURGED"));
        assert!(h.contains("Measurement window") && h.contains("IOPS surface"));
        assert!(
            h.matches("data-chart=").count() >= 4,
            "{}",
            h.matches("data-chart=").count()
        );
        // The steady-state charts name the quantity with its unit, not "tracking value".
        assert!(!h.contains("tracking value"), "generic axis label");
        assert!(
            h.contains("class=\"axis-title\"") && h.contains(">IOPS</text>"),
            "the y axis of the steady-state charts reads IOPS"
        );
        assert_eq!(tracking_quantity("4k-w iops"), "IOPS");
        assert_eq!(
            tracking_quantity("seq-w write MB/s"),
            "write throughput (MB/s)"
        );
        assert_eq!(tracking_quantity("x ART µs"), "mean response time (µs)");
    }

    #[test]
    fn garbage_does_not_panic() {
        for v in [
            json!(null),
            json!({"tests": [1, {"test": "lat", "stages": 3}]}),
            json!({"suite": "run", "result": {"histogram": [[1, 2], "x"]}}),
        ] {
            assert!(render(&v).contains("</html>"));
        }
    }
}
