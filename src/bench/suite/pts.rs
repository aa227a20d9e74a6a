//! The SNIA PTS tests on top of [`Suite`]: PURGE → WIPC → WDPC rounds to steady state → the
//! test's tables (as PTS-E 1.1 / PTS 2.0 define them). Each stage is skipped when the report already holds it,
//! which is what `--resume` relies on.

use super::defs::{self, Amount, Stimulus, TestId, K};
use super::runner::{Metric, Suite, Until};
use crate::bench::report::suite::{Round, TestReport};
use crate::error::Result;
use serde_json::{json, Value};

/// Runs one PTS test (its stages that are not yet done) and fills its results.
pub(crate) fn run(s: &mut Suite<'_>, t: TestId) -> Result<()> {
    let name = t.name();
    s.report.test_mut(name).state = "running".into();
    match t {
        TestId::Iops => iops(s)?,
        TestId::Tp => tp(s)?,
        TestId::Lat => lat(s)?,
        TestId::Wsat => wsat(s)?,
        TestId::Hir => hir(s)?,
        TestId::Xsr => xsr(s)?,
        TestId::Ecw | TestId::Dirth => sweep(s, t)?,
    }
    let tr = s.report.test_mut(name);
    tr.results = results(t, tr);
    tr.state = "done".into();
    s.save()
}

fn iops(s: &mut Suite<'_>) -> Result<()> {
    s.purge_stage("iops", "purge")?;
    s.single_stage("iops", "wipc", &defs::wipc(128 * K))?;
    s.rounds_stage(
        "iops",
        "wdpc",
        &|_| defs::iops_round(),
        defs::IOPS_TRACK,
        Metric::Iops,
        0,
    )?;
    Ok(())
}

fn tp(s: &mut Suite<'_>) -> Result<()> {
    for bs in defs::TP_BLOCK_SIZES {
        let b = defs::bs_label(bs);
        s.purge_stage("tp", &format!("purge-{b}"))?;
        s.single_stage("tp", &format!("wipc-{b}"), &defs::wipc(bs))?;
        s.rounds_stage(
            "tp",
            &format!("wdpc-{b}"),
            &move |_| defs::tp_round(bs),
            &format!("0/100-{b}"),
            Metric::WriteMbps,
            0,
        )?;
    }
    Ok(())
}

fn lat(s: &mut Suite<'_>) -> Result<()> {
    s.purge_stage("lat", "purge")?;
    s.single_stage("lat", "wipc", &defs::wipc(128 * K))?;
    s.rounds_stage(
        "lat",
        "wdpc",
        &|_| defs::lat_round(),
        defs::LAT_TRACK,
        Metric::MeanLatUs,
        0,
    )?;
    Ok(())
}

fn wsat(s: &mut Suite<'_>) -> Result<()> {
    s.purge_stage("wsat", "purge")?;
    let cap = (defs::WSAT_CAPACITIES * s.run.range.len_bytes as f64) as u64;
    let until = Until {
        write_bytes: Some(cap),
        drive_s: Some(defs::WSAT_MAX_SECONDS * s.run.time_scale),
        samples: None,
    };
    s.series_stage("wsat", "wsat", &defs::wsat_sample(), until, None)
}

fn hir(s: &mut Suite<'_>) -> Result<()> {
    s.purge_stage("hir", "purge")?;
    s.single_stage("hir", "wipc", &defs::wipc(128 * K))?;
    s.rounds_stage(
        "hir",
        "precondition",
        &|_| defs::hir_precondition_round(),
        "0/100-4k",
        Metric::Iops,
        0,
    )?;
    for w in defs::HIR_WAITS {
        s.series_stage(
            "hir",
            &format!("wait-{w}s"),
            &defs::hir_burst(),
            Until {
                samples: Some(defs::HIR_SEGMENTS),
                ..Until::default()
            },
            Some(w),
        )?;
        s.series_stage(
            "hir",
            &format!("baseline-{w}s"),
            &defs::wsat_sample(),
            Until {
                drive_s: Some(defs::HIR_BASELINE * s.run.time_scale),
                ..Until::default()
            },
            None,
        )?;
    }
    Ok(())
}

fn xsr(s: &mut Suite<'_>) -> Result<()> {
    s.purge_stage("xsr", "purge")?;
    for (st, secs) in defs::xsr_segments() {
        let label = st.label.clone();
        s.series_stage(
            "xsr",
            &label,
            &st,
            Until {
                drive_s: Some(secs * s.run.time_scale),
                ..Until::default()
            },
            None,
        )?;
    }
    Ok(())
}

fn sweep(s: &mut Suite<'_>, t: TestId) -> Result<()> {
    let name = t.name();
    s.purge_stage(name, "purge")?;
    s.single_stage(name, "wipc", &defs::wipc(128 * K))?;
    // Sizes the drive cannot address (sub-4K on a 4Kn drive) are dropped and noted.
    let bl = s.driver.block_len();
    let (keep, dropped) = defs::fit_split(&defs::sweep_base(t).bs, bl);
    if !dropped.is_empty() {
        let note = format!(
            "{} block sizes {:?} are impossible on {bl}-byte sectors and were left out of the mix",
            name.to_uppercase(),
            dropped
        );
        let tr = s.report.test_mut(name);
        if !tr.notes.contains(&note) {
            tr.notes.push(note);
        }
    }
    let fit = move |mut v: Vec<Stimulus>| {
        for c in &mut v {
            c.bs = keep.clone();
        }
        v
    };
    s.rounds_stage(
        name,
        "wdpc",
        &move |_| fit(defs::sweep_round(t)),
        defs::SWEEP_TRACK,
        Metric::Iops,
        0,
    )?;
    // Max/Mid/Min IOPS points from the window averages, then a pre-write and a histogram
    // capture at each.
    let table = sweep_table(s.report.test_mut(name));
    let points = pick_points(&table);
    for (which, tc, qd) in points {
        let mut base = defs::sweep_base(t).at(tc, qd);
        base.bs = defs::fit_split(&base.bs, bl).0;
        let mut pre = base.clone();
        pre.label = format!("prewrite-{which}");
        pre.amount = Amount::Seconds(defs::CAPTURE_PREWRITE);
        s.single_stage(name, &format!("prewrite-{which}"), &pre)?;
        let mut cap = base;
        cap.label = format!("capture-{which}");
        cap.amount = Amount::Seconds(defs::CAPTURE_SECONDS);
        s.single_stage(name, &format!("capture-{which}"), &cap)?;
    }
    Ok(())
}

/// Rounds of a stage inside its steady-state window (or the last 5 if not reached).
pub(crate) fn window_rounds<'r>(tr: &'r TestReport, stage: &str) -> Vec<&'r Round> {
    let Some(st) = tr.stage(stage) else {
        return vec![];
    };
    let (a, b) = match st.steady_state.as_ref().and_then(|s| s.window.as_ref()) {
        Some(w) => (w.start_round, w.stop_round),
        None => {
            let n = st.rounds.len() as u32;
            (n.saturating_sub(4).max(1), n)
        }
    };
    st.rounds
        .iter()
        .filter(|r| r.round >= a && r.round <= b)
        .collect()
}

/// Half-width of the 95 % confidence interval of the mean of `f` over the cell `label` in
/// `rounds` (the rounds are repetitions; [`super::confidence::mean_ci95`]).
pub(crate) fn ci95(
    rounds: &[&Round],
    label: &str,
    f: impl Fn(&super::driver::Measurement) -> f64,
) -> Option<f64> {
    let v: Vec<f64> = rounds
        .iter()
        .filter_map(|r| r.cell(label))
        .map(|c| f(&c.m))
        .collect();
    super::confidence::mean_ci95(&v).map(|x| x.1)
}

/// The fewest I/Os of the cell `label` in one of `rounds` (each round's percentile comes
/// from that many).
pub(crate) fn min_ios(rounds: &[&Round], label: &str) -> Option<u64> {
    rounds
        .iter()
        .filter_map(|r| r.cell(label))
        .map(|c| c.m.ios)
        .min()
}

/// Average of `f` over the cell `label` in `rounds`.
pub(crate) fn avg(
    rounds: &[&Round],
    label: &str,
    f: impl Fn(&super::driver::Measurement) -> f64,
) -> f64 {
    let v: Vec<f64> = rounds
        .iter()
        .filter_map(|r| r.cell(label))
        .map(|c| f(&c.m))
        .collect();
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn ss_json(tr: &TestReport, stage: &str) -> Value {
    tr.stage(stage)
        .and_then(|s| s.steady_state.as_ref())
        .map(|s| serde_json::to_value(s).unwrap_or(Value::Null))
        .unwrap_or(Value::Null)
}

/// (tc, qd) → (iops, art µs) averaged over the sweep's window.
fn sweep_table(tr: &TestReport) -> Vec<(u32, u32, f64, f64)> {
    let w = window_rounds(tr, "wdpc");
    let mut v = Vec::new();
    for tc in defs::SWEEP_TC {
        for qd in defs::SWEEP_QD {
            let l = format!("tc{tc}-qd{qd}");
            v.push((
                tc,
                qd,
                avg(&w, &l, |m| m.iops),
                avg(&w, &l, |m| m.mean_lat_us),
            ));
        }
    }
    v
}

/// MaxIOPS: highest IOPS with ART below 5 ms; MinIOPS: TC1/QD1; MidIOPS: the cell whose IOPS
/// is closest to the middle of the two.
pub(crate) fn pick_points(table: &[(u32, u32, f64, f64)]) -> Vec<(&'static str, u32, u32)> {
    let ok = |x: &&(u32, u32, f64, f64)| x.2.is_finite() && x.3.is_finite();
    let max = table
        .iter()
        .filter(ok)
        .filter(|x| x.3 < defs::DIRTH_ART_LIMIT_US)
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .or_else(|| table.iter().filter(ok).min_by(|a, b| a.3.total_cmp(&b.3)));
    let min = table.iter().find(|x| x.0 == 1 && x.1 == 1);
    let (Some(max), Some(min)) = (max, min) else {
        return vec![];
    };
    let mid_v = (max.2 + min.2) / 2.0;
    let mid = table
        .iter()
        .filter(ok)
        .filter(|x| (x.0, x.1) != (max.0, max.1) && (x.0, x.1) != (1, 1))
        .min_by(|a, b| (a.2 - mid_v).abs().total_cmp(&(b.2 - mid_v).abs()))
        .unwrap_or(max);
    vec![("max", max.0, max.1), ("mid", mid.0, mid.1), ("min", 1, 1)]
}

/// The results tables of a test, computed from its stages (docs/bench-report.md).
pub(crate) fn results(t: TestId, tr: &TestReport) -> Value {
    match t {
        TestId::Iops => {
            let w = window_rounds(tr, "wdpc");
            let rows: Vec<Value> = defs::IOPS_MIXES
                .iter()
                .map(|mix| {
                    let label =
                        |bs: u32| format!("{}-{}", defs::mix_label(*mix), defs::bs_label(bs));
                    let cells: serde_json::Map<String, Value> = defs::IOPS_BLOCK_SIZES
                        .iter()
                        .map(|bs| (defs::bs_label(*bs), json!(avg(&w, &label(*bs), |m| m.iops))))
                        .collect();
                    let ci: serde_json::Map<String, Value> = defs::IOPS_BLOCK_SIZES
                        .iter()
                        .map(|bs| {
                            (
                                defs::bs_label(*bs),
                                json!(ci95(&w, &label(*bs), |m| m.iops)),
                            )
                        })
                        .collect();
                    json!({"rw_mix": defs::mix_label(*mix), "iops": cells, "iops_ci95": ci})
                })
                .collect();
            json!({"steady_state": ss_json(tr, "wdpc"),
                   "block_sizes": defs::IOPS_BLOCK_SIZES.iter().map(|b| defs::bs_label(*b)).collect::<Vec<_>>(),
                   "table": rows})
        }
        TestId::Tp => {
            let per: Vec<Value> = defs::TP_BLOCK_SIZES
                .iter()
                .map(|bs| {
                    let b = defs::bs_label(*bs);
                    let st = format!("wdpc-{b}");
                    let w = window_rounds(tr, &st);
                    json!({"block_size": b,
                           "read_mbps": avg(&w, &format!("100/0-{b}"), |m| m.read_mbps),
                           "write_mbps": avg(&w, &format!("0/100-{b}"), |m| m.write_mbps),
                           "steady_state": ss_json(tr, &st)})
                })
                .collect();
            json!({"table": per})
        }
        TestId::Lat => {
            let w = window_rounds(tr, "wdpc");
            let rows: Vec<Value> = defs::LAT_MIXES
                .iter()
                .flat_map(|mix| {
                    let w = &w;
                    defs::LAT_BLOCK_SIZES.iter().map(move |bs| {
                        let l = format!("{}-{}", defs::mix_label(*mix), defs::bs_label(*bs));
                        let mrt = w
                            .iter()
                            .filter_map(|r| r.cell(&l))
                            .map(|c| c.m.max_lat_us)
                            .fold(f64::NAN, f64::max);
                        json!({"rw_mix": defs::mix_label(*mix), "block_size": defs::bs_label(*bs),
                               "art_us": avg(w, &l, |m| m.mean_lat_us),
                               "mrt_us": mrt,
                               "art_ci95_us": ci95(w, &l, |m| m.mean_lat_us),
                               "p99999_us": avg(w, &l, |m| m.p99999_lat_us),
                               "ios_per_round": min_ios(w, &l),
                               "read_art_us": (*mix > 0).then(|| avg(w, &l, |m| m.read_mean_lat_us)),
                               "write_art_us": (*mix < 100).then(|| avg(w, &l, |m| m.write_mean_lat_us))})
                    })
                })
                .collect();
            json!({"steady_state": ss_json(tr, "wdpc"), "table": rows, "tc": 1, "qd": 1,
                   "note": "ART = mean over all I/Os of the cell (not the unweighted mean of read and write); MRT = largest over the window; 5 9s = the 99.999th percentile of each round, averaged, each from ios_per_round I/Os or more"})
        }
        TestId::Wsat => {
            let mut tgbw = 0u64;
            let series: Vec<Value> = tr
                .stage("wsat")
                .map(|s| s.rounds.as_slice())
                .unwrap_or(&[])
                .iter()
                .map(|r| {
                    tgbw += r.write_bytes;
                    let m = &r.cells[0].m;
                    json!({"sample": r.round, "iops": m.iops, "tgbw_gb": tgbw as f64 / 1e9,
                           "art_us": m.mean_lat_us, "mrt_us": m.max_lat_us})
                })
                .collect();
            json!({"series": series, "total_gb_written": tgbw as f64 / 1e9})
        }
        TestId::Hir => {
            let mut waits = Vec::new();
            for w in defs::HIR_WAITS {
                let series = |st: &str| -> Vec<f64> {
                    tr.stage(st)
                        .map(|s| s.rounds.iter().map(|r| r.cells[0].m.iops).collect())
                        .unwrap_or_default()
                };
                let b = series(&format!("wait-{w}s"));
                let mean = b.iter().sum::<f64>() / b.len().max(1) as f64;
                waits.push(
                    json!({"wait_s": w, "burst_iops": b, "mean_burst_iops": mean,
                                  "baseline_iops": series(&format!("baseline-{w}s"))}),
                );
            }
            json!({"precondition": ss_json(tr, "precondition"), "wait_states": waits})
        }
        TestId::Xsr => {
            let seg = |st: &str| -> Vec<Value> {
                tr.stage(st)
                    .map(|s| {
                        s.rounds
                            .iter()
                            .map(|r| {
                                let m = &r.cells[0].m;
                                json!({"mbps": m.mbps, "art_us": m.mean_lat_us, "mrt_us": m.max_lat_us})
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let tp = |st: &str| -> Vec<f64> {
                tr.stage(st)
                    .map(|s| s.rounds.iter().map(|r| r.cells[0].m.mbps).collect())
                    .unwrap_or_default()
            };
            // Recovery: samples of the second sequential segment until the throughput is
            // back within 10 % of the first segment's last 10 % of samples.
            let a = tp("seq-1024k-w-1");
            let tail = &a[a.len() - (a.len() / 10).max(1).min(a.len())..];
            let base = tail.iter().sum::<f64>() / tail.len().max(1) as f64;
            let c = tp("seq-1024k-w-2");
            let rec = c.iter().position(|v| *v >= 0.9 * base);
            json!({"segments": {"seq-1024k-w-1": seg("seq-1024k-w-1"), "rnd-8k-w": seg("rnd-8k-w"),
                                "seq-1024k-w-2": seg("seq-1024k-w-2")},
                   "baseline_seq_mbps": base, "recovery_samples": rec,
                   "note": "one sample = one minute of drive time at full scale"})
        }
        TestId::Ecw | TestId::Dirth => {
            let table = sweep_table(tr);
            let rows: Vec<Value> = table
                .iter()
                .map(|(tc, qd, iops, art)| json!({"tc": tc, "qd": qd, "toio": tc*qd, "iops": iops, "art_us": art}))
                .collect();
            let caps: Vec<Value> = ["max", "mid", "min"]
                .iter()
                .filter_map(|w| {
                    let c = tr.stage(&format!("capture-{w}"))?.rounds.first()?.cells.first()?;
                    Some(json!({"point": format!("{w}_iops"), "tc": c.stimulus.tc, "qd": c.stimulus.qd,
                                "iops": c.m.iops, "art_us": c.m.mean_lat_us, "mrt_us": c.m.max_lat_us,
                                "p99999_us": c.m.p99999_lat_us, "ios": c.m.ios,
                                "histogram": c.m.run.get("histogram").cloned().unwrap_or(Value::Null)}))
                })
                .collect();
            json!({"steady_state": ss_json(tr, "wdpc"), "table": rows, "captures": caps})
        }
    }
}
