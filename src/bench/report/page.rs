//! `report.html` of a benchmark run: a view of `report.json` (docs/bench-report.md for the
//! suites and for `bench run --report`). It reads the JSON, not the Rust structs, so a
//! report written by another sgctl version renders as far as its fields go; a missing field
//! shows as "–", a chart without data says why instead of failing.

use crate::bench::stats::{least_squares, moving_average};
use crate::bench::suite::confidence;
use crate::report::chart::{
    self, heatmap_svg, histogram_svg, xy_svg, Band, HeatMap, Histogram, Mark, Series, XyChart,
    DEFAULT_SIZE,
};
use crate::report::html::{Doc, Tone};
use serde_json::Value;

/// What a cell shows when the value is absent (not measured, or does not apply).
const ABSENT: &str = "–";

/// A byte count for people: 1,073,741,824 (1.07 GB); "–" when absent.
fn bytes(v: &Value, k: &str) -> String {
    match v.get(k).and_then(Value::as_u64) {
        Some(b) => format!("{} ({} GB)", chart::count(b), chart::human(b as f64 / 1e9)),
        None => s(v, k),
    }
}

fn s(v: &Value, k: &str) -> String {
    match v.get(k) {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Null) | None => ABSENT.into(),
        Some(Value::Number(n)) => n.as_f64().map(sig).unwrap_or_else(|| n.to_string()),
        Some(Value::Bool(b)) => if *b { "yes" } else { "no" }.into(),
        Some(Value::Array(a)) => words(a),
        Some(x) => x.to_string(),
    }
}

/// A number for people: integers as they are, others with enough significant digits that a
/// small value is not rounded to 0.00 (0.00134 stays 0.00134).
fn sig(f: f64) -> String {
    if !f.is_finite() {
        return ABSENT.into();
    }
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return format!("{f:.0}");
    }
    let mag = f.abs().log10().floor() as i32;
    let decimals = (2 - mag).clamp(2, 12) as usize;
    let t = format!("{f:.decimals$}");
    if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        t
    }
}

/// `1st`, `2nd`, `3rd`, `50th`, `99.999th`: a percentile's name, its digits as given.
fn ordinal(q: f64) -> String {
    let suffix = if q.fract() != 0.0 {
        "th"
    } else {
        match ((q as u64) % 10, (q as u64) % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        }
    };
    format!("{q}{suffix}")
}

/// A JSON list as words: `["iops", "lat"]` → `iops, lat`.
fn words(a: &[Value]) -> String {
    if a.is_empty() {
        return ABSENT.into();
    }
    a.iter()
        .map(|x| match x {
            Value::String(s) => s.clone(),
            Value::Array(inner) => words(inner),
            Value::Number(n) => n.as_f64().map(sig).unwrap_or_default(),
            o => o.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
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
    x.filter(|x| x.is_finite())
        .map(chart::human)
        .unwrap_or_else(|| ABSENT.into())
}

/// A figure for people: thousands separators from 100 up (18,311), three significant digits
/// below (41.4, 0.00134), a true minus sign; "–" when absent.
fn people(x: Option<f64>) -> String {
    let Some(v) = x.filter(|v| v.is_finite()) else {
        return ABSENT.into();
    };
    let a = v.abs();
    let body = if a >= 99.5 {
        let r = a.round();
        if r < 1e18 {
            chart::count(r as u64)
        } else {
            chart::human(a)
        }
    } else if a == 0.0 {
        "0".into()
    } else {
        let mag = a.log10().floor() as i32;
        let decimals = (2 - mag).clamp(0, 12) as usize;
        let t = format!("{a:.decimals$}");
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    };
    if v < 0.0 && body != "0" {
        format!("\u{2212}{body}")
    } else {
        body
    }
}

/// A figure with its unit (`18,311 IOPS`); "–" when absent.
fn with_unit(x: Option<f64>, unit: &str) -> String {
    match x.filter(|v| v.is_finite()) {
        Some(_) => format!("{} {unit}", people(x)),
        None => ABSENT.into(),
    }
}

/// A duration for people: `0.65 ms`, `41 µs`, `12.3 s`, `2 min 5 s`, `1 h 4 min`; "–" when
/// absent or negative.
fn duration(x: Option<f64>) -> String {
    let Some(t) = x.filter(|t| t.is_finite() && *t >= 0.0) else {
        return ABSENT.into();
    };
    let short = |v: f64, unit: &str| {
        let d = if v < 10.0 {
            2
        } else if v < 100.0 {
            1
        } else {
            0
        };
        let s = format!("{v:.d$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        format!("{s} {unit}")
    };
    if t == 0.0 {
        "0 s".into()
    } else if t < 1e-4 {
        short(t * 1e6, "µs")
    } else if t < 1.0 {
        short(t * 1e3, "ms")
    } else if t < 60.0 {
        short(t, "s")
    } else if t < 3600.0 {
        let s = t.round() as u64;
        format!("{} min {} s", s / 60, s % 60)
    } else {
        let m = (t / 60.0).round() as u64;
        format!("{} h {} min", m / 60, m % 60)
    }
}

/// A block size token of a cell label in words: `4k` → `4 KiB`, `1024k` → `1 MiB`.
fn block_words(tok: &str) -> Option<String> {
    let k: u64 = tok.strip_suffix('k')?.parse().ok()?;
    Some(if k >= 1024 && k.is_multiple_of(1024) {
        format!("{} MiB", k / 1024)
    } else {
        format!("{k} KiB")
    })
}

/// A R/W mix (`100/0`, `0/100`, `65/35`) in words.
fn mix_words(mix: &str) -> Option<String> {
    let (r, w) = mix.split_once('/')?;
    let (r, w): (u32, u32) = (r.parse().ok()?, w.parse().ok()?);
    Some(match (r, w) {
        (100, 0) => "read".into(),
        (0, 100) => "write".into(),
        _ => format!("{r}/{w} read/write"),
    })
}

/// A suite cell label in words: `4k-w` → `4 KiB random write`, `0/100-4k` → `4 KiB random
/// write`, `128k-seq-r` → `128 KiB sequential read`, `tc32-qd32` → `32 threads × QD 32`;
/// the label itself when it is none of these.
fn cell_words(cell: &str) -> String {
    let parts: Vec<&str> = cell.split('-').collect();
    let dir = |t: &str| match t {
        "r" => Some("read".to_string()),
        "w" => Some("write".to_string()),
        _ => None,
    };
    let words = match parts.as_slice() {
        [m, b] if m.contains('/') => block_words(b)
            .zip(mix_words(m))
            .map(|(b, m)| format!("{b} random {m}")),
        [b, d] if b.ends_with('k') => block_words(b)
            .zip(dir(d))
            .map(|(b, d)| format!("{b} random {d}")),
        [b, a, d] if *a == "rnd" || *a == "seq" => block_words(b).zip(dir(d)).map(|(b, d)| {
            let a = if *a == "rnd" { "random" } else { "sequential" };
            format!("{b} {a} {d}")
        }),
        [t, q] => t
            .strip_prefix("tc")
            .zip(q.strip_prefix("qd"))
            .map(|(t, q)| format!("{t} threads × QD {q}")),
        _ => None,
    };
    words.unwrap_or_else(|| cell.to_string())
}

/// A steady-state tracking label (`4k-w iops`, `0/100-4k ART µs`) in words with its
/// unit: `4 KiB random write, IOPS`.
pub(super) fn tracking_words(label: &str) -> String {
    match label.split_once(' ') {
        Some((cell, _)) => format!("{}, {}", cell_words(cell), tracking_metric(label).0),
        None => cell_words(label),
    }
}

/// The quantity a tracking label (`4k-w iops`, `seq-w write MB/s`, `x ART µs`) tracks, in
/// words (the charts' y axis: `IOPS`, `write throughput (MB/s)`, `mean response time (µs)`),
/// and the unit of its values (`IOPS`, `MB/s`, `µs`; empty for a metric not known).
pub(super) fn tracking_metric(label: &str) -> (String, &'static str) {
    let metric = label.split_once(' ').map_or(label, |(_, m)| m);
    match metric {
        "iops" => ("IOPS".into(), "IOPS"),
        "write MB/s" => ("write throughput (MB/s)".into(), "MB/s"),
        "ART µs" => ("mean response time (µs)".into(), "µs"),
        m => (m.to_string(), ""),
    }
}

/// A stage whose rounds run to steady state, in words for its heading: `cliff` → `the
/// write-cliff rounds`, `wdpc-1024k` → `the 1 MiB WDPC rounds`.
pub(super) fn stage_words(stage: &str) -> String {
    let (base, op) = match stage.strip_suffix("-op") {
        Some(b) => (b, true),
        None => (stage, false),
    };
    let words = match base {
        "cliff" => "write-cliff rounds".to_string(),
        "wdpc" => "WDPC rounds".to_string(),
        "precondition" => "preconditioning rounds".to_string(),
        _ => match base.strip_prefix("wdpc-").and_then(block_words) {
            Some(b) => format!("{b} WDPC rounds"),
            None => return format!("stage {stage}"),
        },
    };
    if op {
        format!("the over-provisioned {words}")
    } else {
        format!("the {words}")
    }
}

/// A test or review part's heading: `write_cliff` → `Write cliff`, `iops` → `IOPS`.
fn test_title(name: &str) -> String {
    match name {
        "iops" => "IOPS".into(),
        "tp" => "Throughput (TP)".into(),
        "lat" => "Latency (LAT)".into(),
        "wsat" => "Write saturation (WSAT)".into(),
        "ecw" => "Enterprise composite workload (ECW)".into(),
        "dirth" => "Demand intensity / response time histogram (DIRTH)".into(),
        "hir" => "Host idle recovery (HIR)".into(),
        "xsr" => "Cross stimulus recovery (XSR)".into(),
        "qd_sweep" => "Queue-depth sweep".into(),
        "op" => "Over-provisioning (OP)".into(),
        other => {
            let w = other.replace('_', " ");
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => ABSENT.into(),
            }
        }
    }
}

/// What a purge stage was: the suites' purges, and the review's FORMAT UNITs that resize
/// the capacity for the over-provisioning experiment (not purges).
fn purge_kind(stage: &str) -> &'static str {
    match stage {
        "format-op" => "OP resize (capacity reduced)",
        "restore" => "OP resize (full capacity restored)",
        _ => "purge",
    }
}

/// A percentile cell: the value when `n` I/Os support it, else why not
/// ([`confidence::percentile_supported`]).
fn pct_cell(v: Option<f64>, p: f64, n: Option<u64>) -> String {
    match (v.filter(|x| x.is_finite()), n) {
        (None, _) => ABSENT.into(),
        (Some(x), Some(n)) if !confidence::percentile_supported(p, n) => {
            format!(
                "{} (n = {}: insufficient samples)",
                chart::human(x),
                chart::count(n)
            )
        }
        (Some(x), _) => chart::human(x),
    }
}

/// The note under a table with unsupported percentiles.
fn pct_note(p: f64) -> String {
    format!(
        "A {p}th percentile is shown as a figure only when at least 10 I/Os lie beyond it \
         (n ≥ {}): with fewer, its 95 % distribution-free confidence interval has no upper \
         bound inside the sample (Conover, Practical Nonparametric Statistics, §3.2). The \
         value marked \"insufficient samples\" is close to the largest of the n I/Os.",
        chart::count(confidence::min_samples(p))
    )
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
        ("Capacity (bytes)", bytes(h, "capacity_bytes")),
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
    let all_purges: Vec<(&'static str, &Value)> = arr(r, "tests")
        .iter()
        .flat_map(|t| arr(t, "stages"))
        .filter_map(|stg| {
            let p = stg.get("purge").filter(|p| !p.is_null())?;
            Some((purge_kind(&s(stg, "name")), p))
        })
        .collect();
    let purges: Vec<&Value> = all_purges
        .iter()
        .filter(|(k, _)| *k == "purge")
        .map(|x| x.1)
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
        let m: Vec<String> = all_purges
            .iter()
            .map(|(k, p)| {
                if *k == "purge" {
                    format!("purge ({})", s(p, "method"))
                } else {
                    format!("{k}: {}", s(p, "method"))
                }
            })
            .collect();
        d.banner(
            Tone::Good,
            &format!("Purged before testing. In order: {}", m.join("; ")),
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
        ("Tests", s(&st, "tests")),
        ("TC × QD (TOIO) per test", super::summary::tc_qd_line(r)),
        ("ActiveRange", format!("{} %", s(&st, "active_range_pct"))),
        ("Max rounds", s(&st, "max_rounds")),
        ("Purge requested", s(&st, "purge")),
        ("Data pattern", s(&st, "data_pattern")),
        (
            "Time scale",
            match st.get("time_scale_reason").and_then(Value::as_str) {
                Some(why) => format!("{} ({why})", s(&st, "time_scale")),
                None => s(&st, "time_scale"),
            },
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
    if !all_purges.is_empty() {
        d.h3("Purge and capacity changes");
        let rows: Vec<Vec<String>> = all_purges
            .iter()
            .map(|(k, p)| {
                vec![
                    (*k).to_string(),
                    s(p, "requested"),
                    s(p, "method"),
                    s(p, "status"),
                    duration(f(p, "duration_s")),
                    s(p, "certificate"),
                ]
            })
            .collect();
        d.table(
            &[
                "what",
                "requested",
                "method",
                "status",
                "duration",
                "certificate",
            ],
            &rows,
        );
    }
    for t in arr(r, "tests") {
        test_section(&mut d, t);
    }
    cliff_by_gb(&mut d, r);
    d.finish(&format!(
        "{} · report.json beside this file holds every figure shown here",
        s(&h, "tool")
    ))
}

fn test_section(d: &mut Doc, t: &Value) {
    let name = s(t, "test");
    let state = s(t, "state");
    if state == "done" {
        d.h2(&test_title(&name));
    } else {
        d.h2(&format!("{} — {state}", test_title(&name)));
    }
    for n in arr(t, "notes") {
        d.banner(Tone::Note, n.as_str().unwrap_or(""));
    }
    let tcqd = super::summary::test_tc_qd(t);
    if !tcqd.is_empty() {
        d.p(&format!("Stimulus: {}", super::summary::tc_qd_text(&tcqd)));
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
        "tp" => table_of(
            d,
            &res,
            "table",
            &[
                ("block_size", "block size"),
                ("read_mbps", "read MB/s"),
                ("write_mbps", "write MB/s"),
            ],
        ),
        "lat" => {
            lat_table(d, &res);
            latency_charts(d, last_run(t), "LAT, last round");
        }
        "wsat" => wsat(d, &res),
        "ecw" | "dirth" => dirth(d, &res),
        "write_cliff" | "op" => cliff(d, &res, &name),
        "qd_sweep" => qd_sweep(d, &res),
        "basics" => {
            let rows: Vec<Vec<String>> = arr(&res, "table")
                .iter()
                .map(|r| {
                    vec![
                        s(r, "workload"),
                        num(f(r, "iops")),
                        num(f(r, "mbps")),
                        num(f(r, "mean_lat_us")),
                        pct_cell(f(r, "p9999_lat_us"), 99.99, ios(r)),
                    ]
                })
                .collect();
            if !rows.is_empty() {
                d.table(
                    &[
                        "workload",
                        "IOPS",
                        "MB/s",
                        "mean latency (µs)",
                        "99.99th percentile (µs)",
                    ],
                    &rows,
                );
                if rows.iter().any(|r| r[4].contains("insufficient")) {
                    d.p(&pct_note(99.99));
                }
            }
        }
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
    let label = s(ss, "tracking");
    let unit = tracking_metric(&label).1;
    d.h3(&format!(
        "Steady state of {}: {}",
        stage_words(stage),
        tracking_words(&label)
    ));
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
                format!("Steady-state convergence — {}", tracking_words(&label)),
                "round",
                tracking_metric(&label).0,
            )
            .integer_x()
            .with(Series::line(tracking_words(&label), track).mark(Mark::LinePoints)),
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
        let mut c =
            XyChart::new("Measurement window", "round", tracking_metric(&label).0).integer_x();
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
    let slope = match (f(&w, "slope"), f(&w, "y_intercept")) {
        (Some(m), Some(k)) => format!(
            "slope {} {unit}/round, intercept {}",
            people(Some(m)),
            with_unit(Some(k), unit)
        ),
        (Some(m), None) => format!("slope {} {unit}/round", people(Some(m))),
        _ => ABSENT.into(),
    };
    d.kv(&[
        ("Average", with_unit(f(&w, "average"), unit)),
        (
            "Largest data excursion (allowed)",
            format!(
                "{} ({})",
                with_unit(f(&w, "largest_data_excursion"), unit),
                with_unit(f(&w, "max_data_excursion"), unit)
            ),
        ),
        (
            "Largest slope excursion (allowed)",
            format!(
                "{} ({})",
                with_unit(f(&w, "largest_slope_excursion"), unit),
                with_unit(f(&w, "max_slope_excursion"), unit)
            ),
        ),
        ("Least-squares fit", slope),
        (
            "Rounds",
            format!("{}–{}", s(&w, "start_round"), s(&w, "stop_round")),
        ),
    ]);
}

/// A table of `res[key]`: `(field, column heading in words with its unit)`.
fn table_of(d: &mut Doc, res: &Value, key: &str, cols: &[(&str, &str)]) {
    let rows: Vec<Vec<String>> = arr(res, key)
        .iter()
        .map(|r| cols.iter().map(|c| fmt_cell(r.get(c.0))).collect())
        .collect();
    if !rows.is_empty() {
        let head: Vec<&str> = cols.iter().map(|c| c.1).collect();
        d.table(&head, &rows);
    }
}

fn ios(r: &Value) -> Option<u64> {
    r.get("ios")
        .or_else(|| r.get("ios_per_round"))
        .and_then(Value::as_u64)
}

/// `value ± half-width` when the rounds gave an interval.
fn with_ci(v: Option<f64>, ci: Option<f64>) -> String {
    match (v.filter(|x| x.is_finite()), ci.filter(|x| x.is_finite())) {
        (None, _) => ABSENT.into(),
        (Some(x), Some(h)) => format!("{} ± {}", chart::human(x), chart::human(h)),
        (Some(x), None) => chart::human(x),
    }
}

/// The PTS LAT table: response times per R/W mix and block size, the five nines only where
/// the I/Os of a round support them, and "–" for a direction the mix does not have.
fn lat_table(d: &mut Doc, res: &Value) {
    let rows: Vec<Vec<String>> = arr(res, "table")
        .iter()
        .map(|r| {
            let mix = s(r, "rw_mix");
            let dir = |k: &str, absent_for: &str| {
                if mix == absent_for {
                    ABSENT.into()
                } else {
                    num(f(r, k))
                }
            };
            vec![
                mix.clone(),
                s(r, "block_size"),
                with_ci(f(r, "art_us"), f(r, "art_ci95_us")),
                num(f(r, "mrt_us")),
                pct_cell(f(r, "p99999_us"), 99.999, ios(r)),
                r.get("ios_per_round")
                    .and_then(Value::as_u64)
                    .map_or_else(|| ABSENT.into(), |n| n.to_string()),
                dir("read_art_us", "0/100"),
                dir("write_art_us", "100/0"),
            ]
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    d.table(
        &[
            "R/W mix (read/write %)",
            "block size",
            "ART, mean response time (µs, ± 95 % interval over the rounds)",
            "MRT, maximum response time (µs)",
            "99.999th percentile (µs)",
            "I/Os per round",
            "read ART (µs)",
            "write ART (µs)",
        ],
        &rows,
    );
    if rows.iter().any(|r| r[4].contains("insufficient")) {
        d.banner(
            Tone::Note,
            &format!(
                "The five nines are not supported by the I/Os measured: {}",
                pct_note(99.999)
            ),
        );
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
                    sig(x)
                }
            })
            .unwrap_or_default(),
        Some(Value::String(x)) => x.clone(),
        Some(Value::Null) | None => ABSENT.into(),
        Some(Value::Array(a)) => words(a),
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
    let heads: Vec<String> = std::iter::once("R/W mix (read/write %)".to_string())
        .chain(
            bss.iter()
                .map(|b| format!("{b} IOPS (± 95 % interval over the rounds)")),
        )
        .collect();
    let header: Vec<&str> = heads.iter().map(String::as_str).collect();
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
        .zip(table)
        .map(|((m, vs), r)| {
            std::iter::once(m.clone())
                .chain(vs.iter().zip(&bss).map(|(v, b)| {
                    let ci = r
                        .get("iops_ci95")
                        .and_then(|c| c.get(b))
                        .and_then(Value::as_f64);
                    with_ci(*v, ci)
                }))
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
    table_of(
        d,
        res,
        "table",
        &[
            ("tc", "threads (TC)"),
            ("qd", "queue depth per thread (QD)"),
            ("toio", "total outstanding I/O (TOIO)"),
            ("iops", "IOPS"),
            ("art_us", "ART, mean response time (µs)"),
        ],
    );
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
                .unwrap_or_else(|| ABSENT.into()),
            "drop".into(),
        ),
        (
            f(res, "ss_mean_lat_us")
                .map(|x| format!("{:.2} ms", x / 1000.0))
                .unwrap_or_else(|| ABSENT.into()),
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
            (
                "Capacity during the test (bytes)",
                bytes(res, "op_capacity_bytes"),
            ),
            ("Returned to full capacity", s(res, "restored")),
            (
                "Capacity after (bytes)",
                bytes(res, "restored_capacity_bytes"),
            ),
        ]);
    }
}

/// `[[drive_s, IOPS], ...]` of a write cliff → `(GB written, IOPS)`: each interval wrote
/// IOPS × 4 KiB × its length. `scale` is the report's time scale: a drive scaled down writes
/// that fraction of the full-size drive's bytes in each step, so GB ÷ scale is the full-size
/// drive's axis.
fn cliff_gb_series(series: &[Value], scale: f64) -> Vec<(f64, f64)> {
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let mut prev = 0.0f64;
    let mut gb = 0.0f64;
    series
        .iter()
        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()?)))
        .map(|(t, iops)| {
            let dt = (t - prev).max(0.0);
            prev = t;
            gb += iops * 4096.0 * dt / 1e9;
            (gb / scale, iops)
        })
        .collect()
}

/// The review's write cliff against GB written (the axis reviewers use), without and with
/// the extra over-provisioning, in one chart.
fn cliff_by_gb(d: &mut Doc, r: &Value) {
    let scale = r
        .get("settings")
        .and_then(|st| f(st, "time_scale"))
        .unwrap_or(1.0);
    let test = |name: &str| arr(r, "tests").iter().find(|t| s(t, "test") == name);
    let mut c = XyChart::new(
        "Write cliff against data written: without and with extra over-provisioning",
        if scale < 1.0 {
            "GB written (full-size drive)"
        } else {
            "GB written"
        },
        "4 KiB random write IOPS",
    );
    for (name, color) in [("write_cliff", 5usize), ("op", 1)] {
        let Some(t) = test(name) else { continue };
        let res = t.get("results").cloned().unwrap_or(Value::Null);
        let pts = cliff_gb_series(arr(&res, "series"), scale);
        if pts.is_empty() {
            continue;
        }
        let label = if name == "op" {
            match f(&res, "capacity_pct") {
                Some(p) => format!("+{} % OP (capacity {} %)", sig(100.0 - p), sig(p)),
                None => "extra OP".into(),
            }
        } else {
            "as shipped (no extra OP)".into()
        };
        c.series
            .push(Series::line(label, moving_average(&pts, 30)).color(color));
    }
    if c.series.is_empty() {
        return;
    }
    d.h2("Write cliff against GB written");
    d.chart(
        xy_svg(&c),
        &if scale < 1.0 {
            format!(
                "From the purge on, a 30-interval moving average of each. The drive is scaled \
                 ({} of the full size): GB written on it ÷ {} gives the full-size drive's GB.",
                sig(scale),
                sig(scale)
            )
        } else {
            "From the purge on, a 30-interval moving average of each.".to_string()
        },
    );
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
            let p = |dir: &str| {
                let x = r.get(dir).cloned().unwrap_or(Value::Null);
                pct_cell(f(&x, "p9999_lat_us"), 99.99, ios(&x))
            };
            vec![
                s(r, "qd"),
                g("read_4k", "iops"),
                g("read_4k", "mean_lat_us"),
                p("read_4k"),
                g("write_4k", "iops"),
                g("write_4k", "mean_lat_us"),
                p("write_4k"),
            ]
        })
        .collect();
    d.table(
        &[
            "QD",
            "read IOPS",
            "read mean latency (µs)",
            "read 99.99th percentile (µs)",
            "write IOPS",
            "write mean latency (µs)",
            "write 99.99th percentile (µs)",
        ],
        &rows,
    );
    if rows
        .iter()
        .any(|r| r[3].contains("insufficient") || r[6].contains("insufficient"))
    {
        d.p(&pct_note(99.99));
    }
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
                pct_cell(f(q, "p9999_lat_us"), 99.99, ios(q)),
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
            "queue depth",
            "IOPS",
            "MB/s",
            "mean latency (µs)",
            "99.99th percentile (µs)",
        ],
        &rows,
    );
    if rows.iter().any(|r| r[6].contains("insufficient")) {
        d.p(&pct_note(99.99));
    }
}

/// The quantity (with its unit) of a steady-state tracking label such as `4k-w iops`.
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

/// The distribution as words: `uniform`, `zoned: 50 % of I/O on 5 % of the range, ...`,
/// `zipf θ = 1.2`.
fn distribution_words(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Object(o)) => {
            if let Some(z) = o.get("zoned").and_then(Value::as_array) {
                let parts: Vec<String> = z
                    .iter()
                    .filter_map(|p| {
                        Some(format!(
                            "{} % of I/O on {} % of the range",
                            sig(p.get(0)?.as_f64()?),
                            sig(p.get(1)?.as_f64()?)
                        ))
                    })
                    .collect();
                format!("zoned: {}", parts.join(", "))
            } else if let Some(t) = o.get("zipf").and_then(Value::as_f64) {
                format!("zipf θ = {}", sig(t))
            } else {
                Value::Object(o.clone()).to_string()
            }
        }
        Some(x) if !x.is_null() => x.to_string(),
        _ => ABSENT.into(),
    }
}

/// The Settings rows of a run, derived from the workload: a field that does not apply to
/// it is left out (no read percentage for a workload that only reads or only writes, no
/// data pattern for one that never writes, no offset distribution for sequential I/O).
fn run_settings_rows(w: &Value) -> Vec<(&'static str, String)> {
    let rw = s(w, "rw");
    let (reads, writes) = match rw.as_str() {
        "read" | "randread" => (true, false),
        "write" | "randwrite" => (false, true),
        _ => (true, true),
    };
    let random = rw.starts_with("rand");
    let mix = match (reads, writes) {
        (true, false) => "100/0 (reads only)".to_string(),
        (false, true) => "0/100 (writes only)".to_string(),
        _ => match f(w, "read_pct") {
            Some(p) => format!("{}/{} (read/write %)", sig(p), sig(100.0 - p)),
            None => ABSENT.into(),
        },
    };
    let mut rows = vec![
        ("Workload", run_settings(w)),
        ("R/W mix", mix),
        ("Total outstanding I/O (jobs × QD)", s(w, "toio")),
        (
            "Limit",
            match (f(w, "runtime_s"), f(w, "limit_bytes")) {
                (Some(t), _) => format!("{} s", sig(t)),
                (None, Some(b)) => format!("{} bytes", sig(b)),
                _ => ABSENT.into(),
            },
        ),
        ("Ramp (s, not measured)", s(w, "ramp_s")),
        ("Log interval (s)", s(w, "log_interval_s")),
        ("ActiveRange (% of the capacity)", s(w, "active_range_pct")),
    ];
    if random {
        rows.push((
            "Offset distribution",
            distribution_words(w.get("distribution")),
        ));
    }
    if writes {
        rows.push(("Data written", s(w, "data_pattern")));
    }
    rows.push(("Verify", s(w, "verify")));
    rows.push(("Engine asked for", s(w, "engine_requested")));
    rows
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
    let us = |x: Option<f64>| x.map_or_else(|| ABSENT.into(), |x| format!("{x:.1} µs"));
    let n_ios = f(&res, "ios").map(|x| x as u64);
    let us_p = |p: f64| match (pct(p), n_ios) {
        (Some(_), Some(n)) if !confidence::percentile_supported(p, n) => {
            format!("n = {}: insufficient samples", chart::count(n))
        }
        (x, _) => us(x),
    };
    d.key_figures(&[
        (num(f(&res, "iops")), "IOPS".into()),
        (
            f(&res, "mbps").map_or_else(|| ABSENT.into(), |x| format!("{x:.1}")),
            "MB/s".into(),
        ),
        (us(f(&lat, "mean_us")), "mean latency".into()),
        (us_p(99.0), "99th percentile".into()),
        (us_p(99.999), "99.999th percentile".into()),
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
    let mut rows = run_settings_rows(&w);
    rows.push((
        "Write cache",
        match wc.get("wce_before").and_then(Value::as_bool) {
            Some(true) => "enabled (WCE=1), not changed".into(),
            Some(false) => "disabled (WCE=0), not changed".into(),
            None => "not read".into(),
        },
    ));
    rows.push(("State", s(r, "state")));
    d.kv(&rows);
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
    let hist: Vec<(f64, u64)> = arr(&res, "histogram")
        .iter()
        .filter_map(|b| Some((b.get(0)?.as_f64()?, b.get(1)?.as_u64()?)))
        .collect();
    let mut rows: Vec<Vec<String>> = vec![
        vec!["minimum".into(), num(f(&lat, "min_us")), ABSENT.into()],
        vec!["mean".into(), num(f(&lat, "mean_us")), ABSENT.into()],
        vec![
            "standard deviation".into(),
            num(f(&lat, "stdev_us")),
            ABSENT.into(),
        ],
    ];
    let mut unsupported = None;
    rows.extend(arr(&lat, "percentiles").iter().filter_map(|p| {
        let q = p.get(0)?.as_f64()?;
        let v = p.get(1)?.as_f64()?;
        let ok = n_ios.is_none_or(|n| confidence::percentile_supported(q, n));
        if !ok {
            unsupported = Some(q);
        }
        let ci = if ok {
            confidence::percentile_interval(&hist, q).map_or_else(
                || ABSENT.into(),
                |(a, b)| format!("{} – {}", chart::human(a), chart::human(b)),
            )
        } else {
            ABSENT.into()
        };
        Some(vec![
            format!("{} percentile", ordinal(q)),
            pct_cell(Some(v), q, n_ios),
            ci,
        ])
    }));
    rows.push(vec![
        "maximum".into(),
        num(f(&lat, "max_us")),
        ABSENT.into(),
    ]);
    d.table(
        &[
            &format!(
                "all I/Os (n = {})",
                n_ios.map_or_else(|| ABSENT.into(), chart::count)
            ),
            "latency (µs)",
            "95 % confidence interval (µs, histogram bucket edges)",
        ],
        &rows,
    );
    if let Some(q) = unsupported {
        d.p(&pct_note(q));
    }
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
        assert_eq!(tracking_metric("4k-w iops"), ("IOPS".into(), "IOPS"));
        assert_eq!(
            tracking_metric("seq-w write MB/s"),
            ("write throughput (MB/s)".into(), "MB/s")
        );
        assert_eq!(
            tracking_metric("x ART µs"),
            ("mean response time (µs)".into(), "µs")
        );
    }

    /// Every table heading of `html`.
    fn headings(html: &str) -> Vec<String> {
        html.split("<th>")
            .skip(1)
            .filter_map(|x| x.split("</th>").next())
            .map(str::to_string)
            .collect()
    }

    fn run_report(rw: &str, read_pct: u8, ios: u64) -> Value {
        json!({"format": "sgctl-bench-report", "version": 1, "suite": "run",
            "complete": true, "state": "complete",
            "header": {"vendor": "TOSHIBA", "model": "PX02SMF080", "serial": "S1"},
            "settings": {"rw": rw, "read_pct": read_pct, "bs": [[4096, 1]], "qd": 1,
                "jobs": 1, "toio": 1, "runtime_s": 1.0, "ramp_s": 0.0,
                "log_interval_s": 0.1, "active_range_pct": 100.0,
                "distribution": {"zipf": 1.2}, "data_pattern": "zeros", "verify": false,
                "engine_requested": "auto"},
            "result": {"ios": ios, "iops": ios as f64, "mbps": 1.0, "errors": 0,
                "latency": {"mean_us": 10.0, "stdev_us": 1.0, "min_us": 5.0, "max_us": 90.0,
                    "percentiles": [[50.0, 10.0], [99.0, 20.0], [99.999, 80.0]]},
                "histogram": [[10.0, ios / 2], [20.0, ios - ios / 2 - 3], [90.0, 3]]}})
    }

    #[test]
    fn run_settings_rows_follow_the_workload() {
        for (rw, mix) in [
            ("randread", "100/0 (reads only)"),
            ("read", "100/0 (reads only)"),
            ("randwrite", "0/100 (writes only)"),
        ] {
            let h = render(&run_report(rw, 50, 2_000));
            assert!(h.contains(mix), "{rw}");
            assert!(!h.contains("50/50") && !h.contains("Read %"), "{rw}");
        }
        let h = render(&run_report("randrw", 70, 2_000));
        assert!(h.contains("70/30 (read/write %)"));
        assert!(h.contains("zipf θ = 1.2"));
        // A workload that only reads writes no data; a sequential one has no distribution.
        let h = render(&run_report("read", 50, 2_000));
        assert!(!h.contains("Data written") && !h.contains("Offset distribution"));
        assert!(render(&run_report("randwrite", 50, 2_000)).contains("Data written"));
    }

    #[test]
    fn run_percentiles_need_the_samples_to_support_them() {
        let h = render(&run_report("randread", 0, 2_000));
        // 2,000 I/Os: the 99th is supported (20 beyond it), the 99.999th is not.
        assert!(h.contains("n = 2,000: insufficient samples"), "{h}");
        assert!(h.contains("needs") || h.contains("n ≥ 1,000,000"), "{h}");
        assert!(h.contains("99th percentile") && h.contains("99.999th percentile"));
        assert!(!h.contains("100th percentile"));
        assert_eq!(ordinal(1.0), "1st");
        assert_eq!(ordinal(12.0), "12th");
        assert_eq!(ordinal(99.95), "99.95th");
        assert!(h.contains("95 % confidence interval"));
        let h = render(&run_report("randread", 0, 2_000_000));
        assert!(!h.contains("insufficient samples"));
    }

    fn lat_suite() -> Value {
        json!({"format": "sgctl-bench-report", "version": 1, "suite": "pts",
            "complete": true, "state": "complete",
            "header": {"vendor": "TOSHIBA", "model": "PX02SMF080", "serial": "S1"},
            "settings": {"tests": ["lat", "iops"], "tc": 1, "qd": 32, "toio": 32,
                "purge": "block", "time_scale": 0.001342, "time_scale_reason": null},
            "notes": [],
            "tests": [{"test": "lat", "state": "done", "stages": [
                {"name": "purge", "purge": {"requested": "block", "method": "SANITIZE BLOCK ERASE",
                    "purged": true, "status": "purged"}},
                {"name": "wipc", "rounds": [{"round": 1, "cells": [
                    {"stimulus": {"label": "wipc-128k", "tc": 1, "qd": 32}, "m": {"ios": 9}}]}]},
                {"name": "wdpc", "rounds": [{"round": 1, "cells": [
                    {"stimulus": {"label": "100/0-4k", "tc": 1, "qd": 1}, "m": {"ios": 1400}}]}]}],
                "results": {"table": [
                    {"rw_mix": "100/0", "block_size": "4k", "art_us": 80.0, "art_ci95_us": 1.5,
                     "mrt_us": 300.0, "p99999_us": 290.0, "ios_per_round": 1400,
                     "read_art_us": 80.0, "write_art_us": null},
                    {"rw_mix": "0/100", "block_size": "4k", "art_us": 30.0, "mrt_us": 90.0,
                     "p99999_us": 88.0, "ios_per_round": 1400, "read_art_us": null,
                     "write_art_us": 30.0}]}}]})
    }

    #[test]
    fn suite_rows_say_what_ran_in_words() {
        let h = render(&lat_suite());
        // The LAT test ran at TC1 QD1, whatever --qd said.
        assert!(h.contains("LAT TC1 × QD1 (TOIO 1)"), "{h}");
        assert!(!h.contains("QD32"), "{h}");
        assert!(h.contains("lat, iops") && !h.contains("[&quot;lat") && !h.contains("[\"lat"));
        assert!(h.contains("0.00134"), "time scale");
        for raw in [
            "rw_mix",
            "art_us",
            "p99999_us",
            "mbps",
            "read_art_us",
            "block_size",
        ] {
            assert!(
                !headings(&h).iter().any(|x| x == raw),
                "{raw} in {:?}",
                headings(&h)
            );
        }
        // Five nines of 1,400 I/Os: marked, with the note.
        assert!(h.contains("(n = 1,400: insufficient samples)"), "{h}");
        assert!(h.contains("The five nines are not supported"));
        // No write ART for a read-only mix (and no read ART for a write-only one): "–".
        assert!(!h.contains(">0.00</td>") && !h.contains(">0</td>"), "{h}");
        assert!(h.contains("<td>–</td>"), "{h}");
        assert!(headings(&h).iter().any(|x| x == "block size"));
        assert!(h.contains("80 ± 1.5"), "{h}");
    }

    /// The steady-state table reads in units with separators, the heading in words, a purge's
    /// duration as a duration (not "WRITE_CLIFF — done", "Average 18310.63",
    /// "-414.193 * R + 23280.948", "0.000652317").
    #[test]
    fn steady_state_headings_and_purges_read_in_words_with_units() {
        let r = json!({"suite": "review", "complete": true, "settings": {"purge": "format"},
            "tests": [{"test": "write_cliff", "state": "done", "stages": [
                {"name": "purge", "purge": {"requested": "format", "method": "FORMAT UNIT",
                    "purged": true, "status": "done", "duration_s": 0.000652317}},
                {"name": "cliff",
                 "rounds": [{"round": 1, "tracking": 19000.0}, {"round": 2, "tracking": 18500.0}],
                 "steady_state": {"tracking": "4k-w iops", "reached": true, "rounds": 5,
                    "max_rounds": 25, "window": {"start_round": 1, "stop_round": 5,
                    "values": [19000.0, 18500.0, 18400.0, 18000.0, 17600.0],
                    "average": 18310.63, "slope": -414.193, "y_intercept": 23280.948,
                    "largest_data_excursion": 1400.2, "max_data_excursion": 3662.1,
                    "linear_fit_formula": "-414.193 * R + 23280.948"}}}],
                "results": {}}]});
        let h = render(&r);
        assert!(h.contains("<h2>Write cliff</h2>"), "{h}");
        assert!(!h.contains("WRITE_CLIFF"));
        assert!(
            h.contains("Steady state of the write-cliff rounds: 4 KiB random write, IOPS"),
            "{h}"
        );
        assert!(h.contains("18,311 IOPS"), "{h}");
        assert!(
            h.contains("slope \u{2212}414 IOPS/round, intercept 23,281 IOPS"),
            "{h}"
        );
        assert!(h.contains("1,400 IOPS (3,662 IOPS)"), "{h}");
        assert!(!h.contains("18310.63") && !h.contains("* R +"));
        assert!(h.contains("0.65 ms") && !h.contains("0.000652"), "{h}");
    }

    #[test]
    fn people_durations_and_cell_words() {
        assert_eq!(people(Some(18310.63)), "18,311");
        assert_eq!(people(Some(-414.193)), "\u{2212}414");
        assert_eq!(people(Some(41.44)), "41.4");
        assert_eq!(people(Some(0.00134)), "0.00134");
        assert_eq!(people(None), "–");
        assert_eq!(duration(Some(0.000652317)), "0.65 ms");
        assert_eq!(duration(Some(0.000041)), "41 µs");
        assert_eq!(duration(Some(12.34)), "12.3 s");
        assert_eq!(duration(Some(125.0)), "2 min 5 s");
        assert_eq!(duration(Some(3840.0)), "1 h 4 min");
        assert_eq!(duration(None), "–");
        assert_eq!(tracking_words("4k-w iops"), "4 KiB random write, IOPS");
        assert_eq!(tracking_words("0/100-4k iops"), "4 KiB random write, IOPS");
        assert_eq!(
            tracking_words("0/100-4k ART µs"),
            "4 KiB random write, mean response time (µs)"
        );
        assert_eq!(
            tracking_words("1024k-seq-w write MB/s"),
            "1 MiB sequential write, write throughput (MB/s)"
        );
        assert_eq!(tracking_words("tc32-qd32 iops"), "32 threads × QD 32, IOPS");
        assert_eq!(stage_words("cliff"), "the write-cliff rounds");
        assert_eq!(
            stage_words("cliff-op"),
            "the over-provisioned write-cliff rounds"
        );
        assert_eq!(stage_words("wdpc"), "the WDPC rounds");
        assert_eq!(stage_words("wdpc-1024k"), "the 1 MiB WDPC rounds");
        assert_eq!(stage_words("precondition"), "the preconditioning rounds");
        assert_eq!(stage_words("fob"), "stage fob");
        assert_eq!(test_title("qd_sweep"), "Queue-depth sweep");
        assert_eq!(test_title("basics"), "Basics");
    }

    #[test]
    fn an_op_resize_is_not_listed_as_a_purge() {
        let stage = |name: &str, method: &str| {
            json!({"name": name, "purge": {"requested": "block", "method": method,
                "purged": true, "status": "done"}})
        };
        let r = json!({"suite": "review", "complete": true, "settings": {"purge": "block"},
            "tests": [
                {"test": "write_cliff", "stages": [stage("purge", "SANITIZE BLOCK ERASE")]},
                {"test": "op", "stages": [stage("format-op", "FORMAT UNIT"),
                    stage("purge-op", "SANITIZE BLOCK ERASE"), stage("restore", "FORMAT UNIT")]}]});
        let h = render(&r);
        assert!(
            h.contains(
                "purge (SANITIZE BLOCK ERASE); OP resize (capacity reduced): FORMAT UNIT; \
                 purge (SANITIZE BLOCK ERASE); OP resize (full capacity restored): FORMAT UNIT"
            ),
            "{h}"
        );
        assert!(!h.contains("SANITIZE BLOCK ERASE, FORMAT UNIT"));
    }

    #[test]
    fn the_write_cliff_is_drawn_against_gb_written_with_and_without_op() {
        // 10 intervals of 1 s at 1,000 IOPS: 4.096 MB each.
        let series: Vec<Value> = (1..=10).map(|i| json!([f64::from(i), 1000.0])).collect();
        let gb = cliff_gb_series(&series, 1.0);
        assert!((gb[9].0 - 0.04096).abs() < 1e-9, "{gb:?}");
        // A drive scaled to 1 %: the full-size drive's axis is 100 × longer.
        let gb = cliff_gb_series(&series, 0.01);
        assert!((gb[9].0 - 4.096).abs() < 1e-9);
        let r = json!({"suite": "review", "complete": true,
            "settings": {"time_scale": 0.01},
            "tests": [
                {"test": "write_cliff", "results": {"series": series}},
                {"test": "op", "results": {"series": series, "capacity_pct": 80}}]});
        let h = render(&r);
        assert!(h.contains("Write cliff against GB written"), "{h}");
        assert!(h.contains("+20 % OP (capacity 80 %)") && h.contains("as shipped"));
        assert!(h.contains("GB written (full-size drive)"));
    }

    /// Capacities were printed as bare digits (1073741824).
    #[test]
    fn capacities_are_grouped_with_gigabytes() {
        let r = json!({"suite": "run", "header": {"capacity_bytes": 1_073_741_824u64}});
        let h = render(&r);
        assert!(h.contains("1,073,741,824 (1.07 GB)"), "{h}");
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
