//! `sgctl bench review`: what the enterprise SSD reviews show (Tom's Hardware,
//! TheSSDReview, Myce): FOB → steady-state 4 KiB random write with 1-second samples
//! (the write cliff), a QD sweep 1 … 256 with its knee, 4K/8K random and 128K sequential at
//! QD32, the server profiles across QD, and the over-provisioning experiment (FORMAT UNIT to a
//! smaller capacity, back to steady state, the gain, and the drive returned to full capacity).

use super::defs::{self, Access, Amount, Stimulus, K};
use super::driver::ActiveRange;
use super::runner::{Metric, Suite};
use crate::bench::report::suite::TestReport;
use crate::error::Result;
use serde_json::{json, Value};

/// The parts of the review, in run order.
pub const PARTS: [&str; 5] = ["write_cliff", "qd_sweep", "basics", "profiles", "op"];

/// One sample per second of drive time in the write cliff (scaled like everything else).
pub const CLIFF_LOG_S: f64 = 1.0;
/// Each write-cliff round writes this fraction of the ActiveRange.
pub(crate) const CLIFF_ROUND_CAPACITY: f64 = 0.25;
/// Write-cliff rounds before a steady-state window may count: 2 × capacity written from FOB
/// (the reviews' two drive fills; a flat window of fresh-drive rounds is not steady state).
pub(crate) const CLIFF_MIN_ROUNDS: u32 = 8;
/// QD-sweep cell length (the reviews' 5 minutes).
pub(crate) const SWEEP_SECONDS: f64 = 300.0;
/// QD at which the reviews quote FOB and SS IOPS.
pub(crate) const REVIEW_QD: u32 = 32;

fn rnd(label: &str, read_pct: u8, bs: u32, qd: u32, secs: f64) -> Stimulus {
    Stimulus {
        label: label.into(),
        access: Access::Random,
        read_pct,
        bs: vec![(bs, 1)],
        tc: Some(1),
        qd: Some(qd),
        amount: Amount::Seconds(secs),
        zones: vec![],
    }
}

fn fob() -> Stimulus {
    rnd("fob-4k-w", 0, 4 * K, REVIEW_QD, defs::MINUTE)
}

fn cliff_round() -> Vec<Stimulus> {
    let mut s = rnd("4k-w", 0, 4 * K, REVIEW_QD, 0.0);
    s.amount = Amount::Capacities(CLIFF_ROUND_CAPACITY);
    vec![s]
}

/// FOB, then write-cliff rounds until steady state (stage names get `suffix`).
fn cliff(s: &mut Suite<'_>, part: &str, suffix: &str) -> Result<()> {
    s.purge_stage(part, &format!("purge{suffix}"))?;
    s.single_stage(part, &format!("fob{suffix}"), &fob())?;
    s.rounds_stage(
        part,
        &format!("cliff{suffix}"),
        &|_| cliff_round(),
        "4k-w",
        Metric::Iops,
        CLIFF_MIN_ROUNDS,
    )?;
    Ok(())
}

/// Runs one part of the review (its stages not yet done).
pub fn run(s: &mut Suite<'_>, part: &str, op_extra_pct: f64) -> Result<()> {
    s.report.test_mut(part).state = "running".into();
    match part {
        "write_cliff" => cliff(s, part, "")?,
        "qd_sweep" => {
            for rw in [("r", 100u8), ("w", 0u8)] {
                for qd in defs::REVIEW_QDS {
                    let l = format!("4k-{}-qd{qd}", rw.0);
                    s.single_stage(part, &l, &rnd(&l, rw.1, 4 * K, qd, SWEEP_SECONDS))?;
                }
            }
        }
        "basics" => {
            for (l, a, r, bs) in [
                ("4k-rnd-r", Access::Random, 100u8, 4 * K),
                ("4k-rnd-w", Access::Random, 0, 4 * K),
                ("8k-rnd-r", Access::Random, 100, 8 * K),
                ("8k-rnd-w", Access::Random, 0, 8 * K),
                ("128k-seq-r", Access::Sequential, 100, 128 * K),
                ("128k-seq-w", Access::Sequential, 0, 128 * K),
            ] {
                let mut st = rnd(l, r, bs, REVIEW_QD, defs::MINUTE);
                st.access = a;
                s.single_stage(part, l, &st)?;
            }
        }
        "profiles" => {
            let bl = s.driver.block_len();
            for (name, read, split) in defs::review_profiles() {
                let (keep, dropped) = defs::fit_split(&split, bl);
                if !dropped.is_empty() {
                    let n = format!(
                        "{name}: block sizes {dropped:?} impossible on {bl}-byte sectors, left out"
                    );
                    let tr = s.report.test_mut(part);
                    if !tr.notes.contains(&n) {
                        tr.notes.push(n);
                    }
                }
                for qd in defs::REVIEW_QDS {
                    let l = format!("{name}-qd{qd}");
                    let mut st = rnd(&l, read, 4 * K, qd, defs::MINUTE);
                    st.bs = keep.clone();
                    s.single_stage(part, &l, &st)?;
                }
            }
        }
        "op" => op(s, op_extra_pct)?,
        other => {
            return Err(crate::Error::InvalidArgument(format!(
                "unknown review part {other}"
            )))
        }
    }
    let tr = s.report.test_mut(part);
    tr.results = results(part, tr);
    tr.state = "done".into();
    s.save()
}

/// The over-provisioning experiment. Restoring the full capacity is the caller's duty on
/// every exit path ([`restore_capacity`]); here it runs after the measurement.
fn op(s: &mut Suite<'_>, op_extra_pct: f64) -> Result<()> {
    let part = "op";
    let pct = (100.0 - op_extra_pct).round().clamp(1.0, 100.0) as u8;
    let full_range = s.run.range;
    if !s.stage_done(part, "format-op") {
        s.progress.stage(
            part,
            "format-op",
            &format!("FORMAT UNIT to {pct} % of the capacity"),
        );
        let (bytes, rec) = s.control.format_capacity(Some(pct))?;
        let tr = s.report.test_mut(part);
        tr.results = json!({"op_capacity_bytes": bytes, "capacity_pct": pct});
        tr.stage_mut("format-op").purge = Some(rec);
        s.report.test_mut(part).stage_mut("format-op").done = true;
        s.save()?;
    }
    let op_bytes = s
        .report
        .test_mut(part)
        .results
        .get("op_capacity_bytes")
        .and_then(Value::as_u64)
        .unwrap_or(full_range.len_bytes);
    s.run.range = ActiveRange {
        offset_bytes: 0,
        len_bytes: op_bytes.min(full_range.len_bytes),
    };
    let r = cliff(s, part, "-op");
    s.run.range = full_range;
    r?;
    restore_capacity(s)
}

/// Returns the drive to full capacity if the OP experiment left it smaller (idempotent).
pub(crate) fn restore_capacity(s: &mut Suite<'_>) -> Result<()> {
    let part = "op";
    let formatted = s.stage_done(part, "format-op");
    if !formatted || s.stage_done(part, "restore") {
        return Ok(());
    }
    s.progress
        .stage(part, "restore", "FORMAT UNIT back to the full capacity");
    let (bytes, rec) = s.control.format_capacity(None)?;
    let tr = s.report.test_mut(part);
    if let Some(o) = tr.results.as_object_mut() {
        o.insert("restored_capacity_bytes".into(), json!(bytes));
    }
    let st = tr.stage_mut("restore");
    st.purge = Some(rec);
    st.done = true;
    s.save()
}

fn ss_avg(tr: &TestReport, stage: &str) -> (Option<f64>, Value) {
    let ss = tr.stage(stage).and_then(|s| s.steady_state.clone());
    let avg = ss
        .as_ref()
        .and_then(|s| s.window.as_ref())
        .map(|w| w.average);
    (avg, serde_json::to_value(ss).unwrap_or(Value::Null))
}

fn single(tr: &TestReport, stage: &str) -> Option<super::driver::Measurement> {
    Some(tr.stage(stage)?.rounds.first()?.cells.first()?.m.clone())
}

/// The knee of a QD sweep: the lowest QD reaching 90 % of the sweep's highest IOPS.
pub fn knee(points: &[(u32, f64)]) -> Option<u32> {
    let max = points.iter().map(|p| p.1).fold(f64::NAN, f64::max);
    points.iter().find(|p| p.1 >= 0.9 * max).map(|p| p.0)
}

/// A run's (end time, IOPS) per interval, each at the rate of the time it covered. The engine
/// already ends a part-filled last interval where the run ended, at the rate of that part
/// (`stats::IntervalMerger`); this holds the series to the same rule for saved rounds whose
/// intervals all end at `(idx + 1) × interval` with the I/Os divided by the whole interval
/// (a dip at each round boundary): an interval ending after `elapsed_s` has its rate scaled to
/// the time it really covered and ends at `elapsed_s`; one covering less than half its length
/// is dropped (a rate from a few I/Os is noise).
fn full_rate_points(iv: &[Value], elapsed_s: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(iv.len());
    let mut start = 0.0;
    for i in iv {
        let (Some(t), Some(v)) = (
            i.get("t_s").and_then(Value::as_f64),
            i.get("iops").and_then(Value::as_f64),
        ) else {
            continue;
        };
        let len = t - start;
        let end = if elapsed_s > 0.0 { t.min(elapsed_s) } else { t };
        let real = end - start;
        start = t;
        if len <= 0.0 || real <= 0.0 {
            continue;
        }
        if real >= len * (1.0 - 1e-9) {
            out.push((t, v));
        } else if real >= 0.5 * len {
            out.push((end, v * len / real));
        }
    }
    out
}

/// The write cliff as (drive seconds since the purge, IOPS) per interval.
fn cliff_series(tr: &TestReport, suffix: &str) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut t0 = 0.0;
    for stage in [format!("fob{suffix}"), format!("cliff{suffix}")] {
        let Some(st) = tr.stage(&stage) else { continue };
        for r in &st.rounds {
            for c in &r.cells {
                if let Some(iv) = c.m.run.get("intervals").and_then(Value::as_array) {
                    out.extend(
                        full_rate_points(iv, c.m.elapsed_s)
                            .into_iter()
                            .map(|(t, v)| (t0 + t, v)),
                    );
                }
                t0 += c.m.elapsed_s;
            }
        }
    }
    out
}

fn cliff_results(tr: &TestReport, suffix: &str) -> Value {
    let fob = single(tr, &format!("fob{suffix}")).map(|m| m.iops);
    let (ss, ssj) = ss_avg(tr, &format!("cliff{suffix}"));
    let lat = super::pts::window_rounds(tr, &format!("cliff{suffix}"));
    let mean_lat = super::pts::avg(&lat, "4k-w", |m| m.mean_lat_us);
    json!({"fob_iops": fob, "ss_iops": ss, "ss_mean_lat_us": mean_lat,
           "drop_pct": match (fob, ss) { (Some(f), Some(s)) if f > 0.0 => Some(100.0 * (1.0 - s / f)), _ => None },
           "steady_state": ssj, "series": cliff_series(tr, suffix), "qd": REVIEW_QD})
}

/// Results of one part.
pub fn results(part: &str, tr: &TestReport) -> Value {
    match part {
        "write_cliff" => cliff_results(tr, ""),
        "qd_sweep" => {
            let mut rows = Vec::new();
            let mut pr = Vec::new();
            let mut pw = Vec::new();
            for qd in defs::REVIEW_QDS {
                let r = single(tr, &format!("4k-r-qd{qd}"));
                let w = single(tr, &format!("4k-w-qd{qd}"));
                let f = |m: &Option<super::driver::Measurement>| {
                    m.as_ref().map(|m| json!({"iops": m.iops, "mean_lat_us": m.mean_lat_us, "p9999_lat_us": m.p9999_lat_us, "max_lat_us": m.max_lat_us, "ios": m.ios}))
                };
                if let Some(m) = &r {
                    pr.push((qd, m.iops));
                }
                if let Some(m) = &w {
                    pw.push((qd, m.iops));
                }
                rows.push(json!({"qd": qd, "read_4k": f(&r), "write_4k": f(&w)}));
            }
            json!({"table": rows, "knee_read_qd": knee(&pr), "knee_write_qd": knee(&pw),
                   "knee_rule": "lowest QD reaching 90 % of the sweep's highest IOPS"})
        }
        "basics" => {
            let rows: Vec<Value> = tr
                .stages
                .iter()
                .filter_map(|s| {
                    let m = &s.rounds.first()?.cells.first()?.m;
                    Some(json!({"workload": s.name, "iops": m.iops, "mbps": m.mbps,
                                "mean_lat_us": m.mean_lat_us, "p9999_lat_us": m.p9999_lat_us,
                                "ios": m.ios}))
                })
                .collect();
            json!({"qd": REVIEW_QD, "table": rows})
        }
        "profiles" => {
            let rows: Vec<Value> = defs::review_profiles()
                .iter()
                .map(|(name, read, _)| {
                    let per: Vec<Value> = defs::REVIEW_QDS
                        .iter()
                        .filter_map(|qd| {
                            let m = single(tr, &format!("{name}-qd{qd}"))?;
                            Some(json!({"qd": qd, "iops": m.iops, "mbps": m.mbps,
                                        "mean_lat_us": m.mean_lat_us, "p9999_lat_us": m.p9999_lat_us,
                                        "ios": m.ios}))
                        })
                        .collect();
                    json!({"profile": name, "read_pct": read, "by_qd": per})
                })
                .collect();
            json!({"table": rows})
        }
        "op" => {
            let mut v = cliff_results(tr, "-op");
            if let (Some(o), Some(prev)) = (v.as_object_mut(), tr.results.as_object()) {
                for k in [
                    "op_capacity_bytes",
                    "capacity_pct",
                    "restored_capacity_bytes",
                ] {
                    if let Some(x) = prev.get(k) {
                        o.insert(k.into(), x.clone());
                    }
                }
                o.insert(
                    "restored".into(),
                    json!(tr.stage("restore").is_some_and(|s| s.done)),
                );
            }
            v
        }
        _ => Value::Null,
    }
}

/// The OP gain in percent, once both the write cliff and the OP part have steady values.
pub fn op_gain_pct(cliff: &TestReport, op: &TestReport) -> Option<f64> {
    let a = cliff.results.get("ss_iops")?.as_f64()?;
    let b = op.results.get("ss_iops")?.as_f64()?;
    (a > 0.0).then(|| 100.0 * (b / a - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knee_is_the_first_qd_at_90_percent() {
        let p = [
            (1, 10.0),
            (2, 20.0),
            (4, 40.0),
            (8, 80.0),
            (16, 95.0),
            (32, 100.0),
            (64, 98.0),
        ];
        assert_eq!(knee(&p), Some(16));
        assert_eq!(knee(&[]), None);
    }

    /// A run of 0.035 s logged at 10 ms: the engine reports a fourth interval ending at 0.04
    /// with the I/Os of 5 ms divided by 10 ms (half the rate). It is scaled to the 5 ms it
    /// covered and ends at 0.035; a last interval of 2 ms is dropped.
    #[test]
    fn a_part_filled_last_interval_is_scaled_or_dropped() {
        let iv = |last: f64| {
            vec![
                json!({"t_s": 0.01, "iops": 1000.0}),
                json!({"t_s": 0.02, "iops": 1000.0}),
                json!({"t_s": 0.03, "iops": 1000.0}),
                json!({"t_s": 0.04, "iops": last}),
            ]
        };
        let p = full_rate_points(&iv(500.0), 0.035);
        assert_eq!(p.len(), 4);
        assert_eq!(p[3].0, 0.035);
        assert!((p[3].1 - 1000.0).abs() < 1e-6, "{p:?}");
        let p = full_rate_points(&iv(200.0), 0.032);
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p.iter().all(|x| (x.1 - 1000.0).abs() < 1e-9));
        // A run that ends exactly on an interval end keeps every point as it is.
        assert_eq!(full_rate_points(&iv(1000.0), 0.04).len(), 4);
    }
}
