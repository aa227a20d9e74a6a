//! The PTS tests that run long series (WSAT, HIR, XSR) and the TC × QD sweeps (ECW, DIRTH) end
//! to end on a small virtual drive: `sgctl bench pts` with its purge, the test's stages and the
//! results tables, checked for completeness and for what the media model must show (the WSAT
//! write cliff, XSR's random segment slower than the sequential ones, DIRTH's IOPS rising with
//! the outstanding I/O). `--resume` with another test set is refused.
//!
//! The drive is a 64 MiB px02smf080: durations scale with its capacity (a 1-minute sample is
//! ≥ 10 ms of drive time), so each test takes seconds of CPU in the debug build.

use serde_json::Value;
use sgctl::bench::report::suite::Report;
use std::path::Path;

use crate::util::run_audited as sgctl;

/// Runs one PTS test to completion on a fresh 64 MiB drive; returns the report.
fn run(test: &str, serial: &str, dir: &Path) -> Report {
    let dev = format!("sim:px02smf080?capacity_gib=0.0625&serial={serial}");
    let (code, out, err) = sgctl(
        &[
            "--json",
            "bench",
            "pts",
            &dev,
            "--test",
            test,
            "--max-rounds",
            "6",
            "--confirm",
            serial,
            "--report",
            dir.join("r").to_str().unwrap(),
        ],
        &dir.join("audit.jsonl"),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"]["state"], "complete", "{out}");
    crate::report_schema::assert_valid_dir(&dir.join("r"));
    let r = Report::load(&dir.join("r")).unwrap();
    assert!(r.complete);
    assert_eq!(r.tests.len(), 1);
    let t = &r.tests[0];
    assert_eq!(t.state, "done");
    let purge = t.stages[0].purge.as_ref().expect("purge stage first");
    assert!(purge.purged, "{}", purge.status);
    assert!(t.stages.iter().all(|s| s.done), "a stage left undone");
    r
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

#[test]
fn wsat_writes_four_capacities_and_shows_the_write_cliff() {
    let d = tempfile::tempdir().unwrap();
    let r = run("wsat", "WSAT01", d.path());
    let res = &r.tests[0].results;
    let series = res["series"].as_array().unwrap();
    assert!(series.len() > 20, "{} samples", series.len());
    // Stops at 4 × the ActiveRange (or the scaled 24 h, far off here).
    let range = r.settings.active_range.unwrap().len_bytes as f64;
    let gb = res["total_gb_written"].as_f64().unwrap();
    assert!(gb * 1e9 >= 4.0 * range, "{gb} GB of {range} B");
    assert!(gb * 1e9 < 4.0 * range * 1.1, "{gb} GB: overshoot");
    let mut last = 0.0;
    for s in series {
        let t = s["tgbw_gb"].as_f64().unwrap();
        assert!(t > last, "TGBW not increasing");
        last = t;
        assert!(s["iops"].as_f64().unwrap() > 0.0 && s["art_us"].as_f64().unwrap() > 0.0);
    }
    // FOB (first tenth) versus the end (last tenth): garbage collection sets in.
    let iops: Vec<f64> = series.iter().map(|s| s["iops"].as_f64().unwrap()).collect();
    let n = iops.len() / 10;
    let (fob, end) = (mean(&iops[..n]), mean(&iops[iops.len() - n..]));
    assert!(
        fob > 2.0 * end,
        "FOB {fob:.0} IOPS, end {end:.0}: no write cliff"
    );
}

#[test]
fn hir_runs_every_wait_state_with_its_bursts_and_baseline() {
    let d = tempfile::tempdir().unwrap();
    let r = run("hir", "HIR01", d.path());
    let res = &r.tests[0].results;
    assert!(
        res["precondition"]["window"].is_object(),
        "{}",
        res["precondition"]
    );
    let waits = res["wait_states"].as_array().unwrap();
    let want = [5.0, 10.0, 15.0, 25.0, 50.0];
    assert_eq!(waits.len(), want.len());
    for (w, s) in want.iter().zip(waits) {
        assert_eq!(s["wait_s"].as_f64(), Some(*w));
        let b = nums(&s["burst_iops"]);
        assert_eq!(b.len(), 360, "wait {w}: bursts");
        assert!(b.iter().all(|x| *x > 0.0));
        assert!((mean(&b) - s["mean_burst_iops"].as_f64().unwrap()).abs() < 1e-6 * mean(&b));
        let base = nums(&s["baseline_iops"]);
        assert!(
            !base.is_empty() && base.iter().all(|x| *x > 0.0),
            "wait {w}"
        );
    }
}

#[test]
fn xsr_has_three_segments_and_a_recovery() {
    let d = tempfile::tempdir().unwrap();
    let r = run("xsr", "XSR01", d.path());
    let res = &r.tests[0].results;
    let seg = |n: &str| -> Vec<f64> {
        res["segments"][n]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["mbps"].as_f64().unwrap())
            .collect()
    };
    let (a, b, c) = (seg("seq-1024k-w-1"), seg("rnd-8k-w"), seg("seq-1024k-w-2"));
    // 8 h, 6 h, 8 h of drive time (scaled), in samples of a scaled minute — or longer: on
    // this tiny drive a minute is shorter than QD32 x 1 MiB takes to complete.
    for (name, hours, n) in [
        ("seq-1024k-w-1", 8.0, a.len()),
        ("rnd-8k-w", 6.0, b.len()),
        ("seq-1024k-w-2", 8.0, c.len()),
    ] {
        let st = r.tests[0].stages.iter().find(|s| s.name == name).unwrap();
        assert_eq!(st.rounds.len(), n);
        let want = hours * 3600.0 * r.settings.time_scale;
        let got: f64 = st.rounds.iter().map(|x| x.drive_s).sum();
        let last = st.rounds.last().unwrap().drive_s;
        assert!(
            got >= want && got - last < want,
            "{name}: {got} s of {want} s"
        );
        assert!(n >= 10, "{name}: {n} samples");
    }
    assert!(a.iter().chain(&b).chain(&c).all(|x| *x > 0.0));
    // Random 8 KiB writes on a full drive move fewer MB/s than 1 MiB sequential ones.
    assert!(mean(&b) < mean(&a), "rnd {} vs seq {}", mean(&b), mean(&a));
    let base = res["baseline_seq_mbps"].as_f64().unwrap();
    assert!(base > 0.0);
    // The recovery sample, if any, is the first of segment 3 within 10 % of the baseline.
    if let Some(k) = res["recovery_samples"].as_u64() {
        let k = k as usize;
        assert!(c[k] >= 0.9 * base && c[..k].iter().all(|x| *x < 0.9 * base));
    } else {
        assert!(c.iter().all(|x| *x < 0.9 * base));
    }
}

/// The 49-cell TC × QD table and the three capture points.
fn check_sweep(r: &Report) -> Vec<(u64, u64, f64)> {
    let res = &r.tests[0].results;
    assert!(res["steady_state"]["window"].is_object());
    let table = res["table"].as_array().unwrap();
    assert_eq!(table.len(), 49);
    let mut cells = Vec::new();
    for c in table {
        let (tc, qd) = (c["tc"].as_u64().unwrap(), c["qd"].as_u64().unwrap());
        assert_eq!(c["toio"].as_u64(), Some(tc * qd));
        let iops = c["iops"].as_f64().unwrap();
        assert!(iops > 0.0 && c["art_us"].as_f64().unwrap() > 0.0, "{c}");
        cells.push((tc, qd, iops));
    }
    let caps = res["captures"].as_array().unwrap();
    let points: Vec<&str> = caps.iter().map(|c| c["point"].as_str().unwrap()).collect();
    assert_eq!(points, ["max_iops", "mid_iops", "min_iops"]);
    for c in caps {
        assert!(c["iops"].as_f64().unwrap() > 0.0);
        assert!(
            c["histogram"].is_object() || c["histogram"].is_array(),
            "{c}"
        );
    }
    assert_eq!(
        (caps[2]["tc"].as_u64(), caps[2]["qd"].as_u64()),
        (Some(1), Some(1))
    );
    cells
}

#[test]
fn dirth_sweep_table_and_capture_points() {
    let d = tempfile::tempdir().unwrap();
    let r = run("dirth", "DIRTH01", d.path());
    let cells = check_sweep(&r);
    // One outstanding I/O cannot keep the drive's dies busy: TC1/QD1 is the slowest corner.
    let at = |tc, qd| cells.iter().find(|c| c.0 == tc && c.1 == qd).unwrap().2;
    assert!(at(1, 1) < at(32, 32), "{} vs {}", at(1, 1), at(32, 32));
    assert!(at(1, 1) < at(1, 32));
}

#[test]
fn ecw_sweep_table_and_capture_points() {
    let d = tempfile::tempdir().unwrap();
    let r = run("ecw", "ECW01", d.path());
    check_sweep(&r);
    // The JESD219 mix is 40 % reads.
    let m = &r.tests[0]
        .stages
        .iter()
        .find(|s| s.name == "capture-max")
        .unwrap()
        .rounds[0]
        .cells[0]
        .m;
    let share = m.read_iops / m.iops;
    assert!((share - 0.4).abs() < 0.05, "read share {share}");
}

#[test]
fn resume_with_another_test_set_is_refused_and_the_same_set_continues() {
    let d = tempfile::tempdir().unwrap();
    // Resumable: the drive keeps its state between the runs.
    let dev = format!(
        "sim:px02smf080?capacity_gib=0.0625&serial=RESUME01&state={}",
        d.path().join("drive.json").display()
    );
    let dev = dev.as_str();
    let dir = d.path().join("r");
    let audit = d.path().join("audit.jsonl");
    let base = [
        "bench",
        "pts",
        dev,
        "--max-rounds",
        "5",
        "--confirm",
        "RESUME01",
    ];
    let mut args = base.to_vec();
    args.extend(["--test", "lat", "--report", dir.to_str().unwrap()]);
    let (code, _, err) = sgctl(&args, &audit);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read_to_string(dir.join("report.json")).unwrap();
    let mut args = base.to_vec();
    args.extend(["--test", "iops", "--resume", dir.to_str().unwrap()]);
    let (code, _, err) = sgctl(&args, &audit);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the saved run is of --test lat")
            && err.contains("--resume continues exactly those"),
        "{err}"
    );
    // Refused before anything ran: the report is untouched.
    assert_eq!(
        before,
        std::fs::read_to_string(dir.join("report.json")).unwrap()
    );
    // The same set (or none) continues: here there is nothing left to run.
    let mut args = base.to_vec();
    args.extend(["--test", "lat", "--resume", dir.to_str().unwrap()]);
    let (code, _, err) = sgctl(&args, &audit);
    assert_eq!(code, 0, "{err}");
    let r = Report::load(&dir).unwrap();
    assert!(r.complete && r.tests.len() == 1 && r.tests[0].test == "lat");
}

/// The suites' purge must leave the drive fresh out of the box: a FORMAT UNIT (or SANITIZE)
/// reported complete has done its block erases, so the writes after it do not queue behind
/// them. (They did: the media model started the erases when the operation ended, and the
/// review's FOB minute measured 16.7k instead of ≈ 40k IOPS on the MK4001GRZB.) 48 MiB of
/// writes (past the write buffer, so they wait for the dies) take as long right after the
/// purge as after an hour of idle.
#[test]
fn writes_after_a_completed_format_or_sanitize_do_not_wait_for_its_erases() {
    use crate::sim_common::*;
    use sgctl::transport::Transport;
    use std::time::Duration;
    let timed = |spec: &str, cdb: &[u8], idle: Duration| -> Duration {
        let mut d = open(spec);
        good(&write10(&mut d, 0, &[0x11; 4096], 512));
        let c = d
            .execute(cdb, sgctl::DataBuf::None, Duration::from_secs(3600))
            .unwrap();
        good(&c);
        while tur(&mut d).status != 0 {
            d.clock().advance(Duration::from_secs(1));
        }
        d.clock().advance(idle);
        let clock = d.clock();
        let t0 = clock.now();
        let mib = vec![0x22u8; 1 << 20];
        for i in 0..48u32 {
            good(&write10(&mut d, i * 2048, &mib, 512));
        }
        clock.now() - t0
    };
    for (spec, cdb) in [
        // FORMAT UNIT without a parameter list (IMMED=0: returns when done).
        (
            "mk4001grzb?clock=virtual&capacity_gib=1",
            &[0x04u8, 0, 0, 0, 0, 0][..],
        ),
        // SANITIZE BLOCK ERASE without IMMED.
        (
            "px02smf080?clock=virtual&capacity_gib=1",
            &[0x48, 0x02, 0, 0, 0, 0, 0, 0, 0, 0][..],
        ),
    ] {
        let now = timed(spec, cdb, Duration::ZERO);
        let rested = timed(spec, cdb, Duration::from_secs(3600));
        assert!(
            now.as_secs_f64() <= 1.02 * rested.as_secs_f64(),
            "{spec}: 48 MiB right after the purge took {now:?}, after an idle hour {rested:?}"
        );
    }
}

#[test]
fn cpu_latency_is_refused_on_a_sim_drive_before_the_gate() {
    // A sim: drive runs on its virtual clock: --cpu-latency is a bad option there (exit 2),
    // for both suites, and nothing reaches the audit log.
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    for suite in ["pts", "review"] {
        let mut args = vec![
            "bench",
            suite,
            "sim:px02smf080?capacity_gib=0.0625&serial=QOS00001",
            "--cpu-latency",
            "0",
            "--confirm",
            "QOS00001",
        ];
        if suite == "pts" {
            args.extend(["--test", "lat"]);
        }
        let (code, _, err) = sgctl(&args, &audit);
        assert_eq!(code, 2, "{suite}: {err}");
        assert!(
            err.contains("--cpu-latency") && err.contains("virtual clock"),
            "{suite}: {err}"
        );
    }
    let log = std::fs::read_to_string(&audit).unwrap_or_default();
    assert!(!log.contains("bench-"), "audited: {log}");
}

#[test]
fn a_device_failing_mid_suite_exits_4_as_a_failed_command_not_a_failed_check() {
    // 4 KiB random reads of the QD sweep over 1 % of the drive hit the medium error at LBA
    // 800 at once (no purge, nothing written first). README's table: 4 "command failed"; the
    // message and the report say the device failed, not that a check failed (5).
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("r");
    let (code, out, err) = sgctl(
        &[
            "--json",
            "bench",
            "review",
            "sim:px02smf080?capacity_gib=0.0625&serial=DEVFAIL1&medium_error=800",
            "--part",
            "qd_sweep",
            "--purge",
            "none",
            "--active-range",
            "1",
            "--confirm",
            "DEVFAIL1",
            "--report",
            dir.to_str().unwrap(),
        ],
        &d.path().join("audit.jsonl"),
    );
    assert_eq!(code, 4, "{err}\n{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sgctl"]["exit_status"], 4);
    let msg = v["sgctl"]["messages"][0]["string"].as_str().unwrap();
    assert!(
        msg.starts_with("the device failed mid-run: read of 4096 bytes at LBA 800"),
        "{msg}"
    );
    assert!(msg.contains("Medium Error"), "{msg}");
    let state = v["data"]["state"].as_str().unwrap();
    assert!(
        state.starts_with("failed: the device failed mid-run: "),
        "{state}"
    );
    assert!(!state.contains("check failed"), "{state}");
    let r = Report::load(&dir).unwrap();
    assert!(!r.complete);
    assert_eq!(r.tests[0].state, state);
}
