//! `sgctl bench run` and the engine library on `sim:` drives (virtual clock: the figures are
//! drive time; nothing here times the host).

use crate::util::run_audited as sgctl;
use sgctl::bench::{self, EngineKind, Limit, Rw, Workload};
use std::time::Duration;

const DRIVE: &str = "sim:hk4e?capacity_gib=1&serial=BENCH01";

#[test]
fn randread_json_has_everything() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let (code, out, err) = sgctl(
        &[
            "--json",
            "bench",
            "run",
            DRIVE,
            "--rw",
            "randread",
            "--qd",
            "16",
            "--runtime",
            "0.5",
            "--log-interval",
            "100ms",
            "--progress-json",
        ],
        &audit,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["data"];
    assert_eq!(r["engine"], "sim");
    assert_eq!(r["block_len"], 512);
    assert_eq!(r["workload"]["rw"], "randread");
    let ios = r["ios"].as_u64().unwrap();
    assert!(ios > 1000, "{r}");
    assert_eq!(r["read"]["ios"].as_u64(), Some(ios));
    assert!(r["write"].is_null());
    // Histogram buckets add up to the I/O count; percentiles are ordered.
    let hist: u64 = r["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b[1].as_u64().unwrap())
        .sum();
    assert_eq!(hist, ios);
    let pct: Vec<f64> = r["latency"]["percentiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_f64().unwrap())
        .collect();
    assert_eq!(pct.len(), 18);
    assert!(pct.windows(2).all(|w| w[0] <= w[1]), "{pct:?}");
    assert!(r["latency"]["max_us"].as_f64().unwrap() >= pct[17]);
    // Five 100 ms intervals (virtual time) whose I/Os add up to the total.
    let iv = r["intervals"].as_array().unwrap();
    assert_eq!(iv.len(), 5, "{iv:?}");
    let sum: f64 = iv.iter().map(|i| i["iops"].as_f64().unwrap() * 0.1).sum();
    assert!((sum - ios as f64).abs() < 1.0, "{sum} vs {ios}");
    // Little's law on the virtual clock: QD = IOPS × mean latency.
    let iops = r["iops"].as_f64().unwrap();
    let mean = r["latency"]["mean_us"].as_f64().unwrap() / 1e6;
    assert!((iops * mean - 16.0).abs() < 0.5, "{}", iops * mean);
    // --progress-json: one JSON line per interval on stderr.
    let lines: Vec<serde_json::Value> = err
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(lines.len(), 5, "{err}");
    assert_eq!(lines[0]["event"], "interval");
    // Reads need no gate: no audit record.
    assert!(!audit.exists());
}

#[test]
fn writes_need_the_gate() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let base = [
        "bench",
        "run",
        DRIVE,
        "--rw",
        "randwrite",
        "--runtime",
        "0.1",
    ];
    let (code, _, err) = sgctl(&base, &audit);
    assert_eq!(code, 6, "{err}");
    assert!(err.contains("--confirm"), "{err}");
    let mut a = base.to_vec();
    a.extend(["--confirm", "WRONG"]);
    let (code, _, err) = sgctl(&a, &audit);
    assert_eq!(code, 6, "{err}");
    assert!(!audit.exists(), "nothing sent, nothing recorded");
    let mut a = base.to_vec();
    a.extend(["--confirm", "BENCH01"]);
    let (code, out, err) = sgctl(&a, &audit);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("write:"), "{out}");
    let log = std::fs::read_to_string(&audit).unwrap();
    let recs: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["event"], "start");
    assert_eq!(recs[0]["job"], "bench-write");
    assert_eq!(recs[1]["outcome"], "success");
}

#[test]
fn bad_options_one_line_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("a");
    for args in [
        vec!["--qd", "0"],
        vec!["--bs", "4q"],
        vec!["--bs", "1000"], // not a multiple of 512
        vec!["--range", "200%"],
        vec!["--bssplit", "4k/x"],
        vec!["--runtime", "soon"],
        vec!["--engine", "uring"],
        vec!["--submit-batch", "0"],
    ] {
        let mut a = vec!["bench", "run", DRIVE];
        a.extend(&args);
        let (code, out, err) = sgctl(&a, &audit);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn choices_are_checked_by_the_command_line_and_listed_in_help() {
    // --rw and --engine are choices the command line knows: a bad one is a usage error
    // (exit 2) naming the value and the choices, before any drive is opened; --pattern and
    // --distribution are parsed there too (`hex:aéa` used to panic slicing inside 'é').
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("a");
    for (args, want) in [
        (vec!["--rw", "sideways"], "randwrite"),
        (vec!["--engine", "fast"], "uring"),
        (vec!["--pattern", "hex:aéa"], "hex:BYTES"),
        (vec!["--pattern", "hex:zz"], "bad hex"),
        (vec!["--distribution", "zoned:50/5:30/15"], "--distribution"),
    ] {
        let mut a = vec!["bench", "run", "sim:nosuchprofile"];
        a.extend(&args);
        let (code, out, err) = sgctl(&a, &audit);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(
            err.contains(&format!("invalid value '{}'", args[1])) && err.contains(want),
            "{args:?}: {err}"
        );
    }
    // The old spellings still run: fio's `rw` for randrw, `io_uring` for uring.
    let (code, _, err) = sgctl(
        &[
            "bench",
            "run",
            "sim:hk4e?capacity_gib=1",
            "--rw",
            "rw",
            "--runtime",
            "0.1",
            "--engine",
            "sim",
        ],
        &audit,
    );
    assert_eq!(code, 6, "randrw writes: the gate asks for --confirm: {err}");
    let (code, _, err) = sgctl(
        &[
            "bench",
            "run",
            "sim:hk4e?capacity_gib=1",
            "--engine",
            "io_uring",
            "--runtime",
            "0.1",
        ],
        &audit,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--engine sim"), "parsed as uring: {err}");
    let (code, help, _) = sgctl(&["bench", "run", "--help"], &audit);
    assert_eq!(code, 0);
    for choice in ["randread", "randwrite", "randrw", "uring", "sg", "sim"] {
        assert!(help.contains(&format!("- {choice}:")), "{choice}: {help}");
    }
}

#[test]
fn device_failure_mid_run_gives_sense_partial_results_exit_4() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("a");
    // A medium error at LBA 800 inside a 1 MiB range: random 4 KiB reads hit it soon.
    let drive = "sim:hk4e?capacity_gib=1&medium_error=800";
    let (code, out, err) = sgctl(
        &[
            "--json",
            "bench",
            "run",
            drive,
            "--qd",
            "4",
            "--range",
            "0:1m",
            "--runtime",
            "10",
        ],
        &audit,
    );
    assert_eq!(code, 4, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["data"];
    assert_eq!(r["partial"], true);
    assert!(r["ios"].as_u64().unwrap() > 0, "partial results kept");
    assert!(r["elapsed_s"].as_f64().unwrap() < 10.0);
    let e = &r["first_errors"][0];
    assert_eq!(e["sense"]["key"], 3);
    assert_eq!(e["sense"]["asc"], 0x11);
    assert_eq!(e["info"], 800);
    assert_eq!(e["lba"].as_u64().unwrap() / 8, 100);
    assert!(r["error_counts"]["sense 03/11/00"].as_u64().unwrap() >= 1);
    assert!(
        r["stop_reason"].as_str().unwrap().contains("Medium Error"),
        "{r}"
    );
    // --continue-on-error counts every failure and runs to the end.
    let (code, out, _) = sgctl(
        &[
            "--json",
            "bench",
            "run",
            drive,
            "--qd",
            "4",
            "--range",
            "0:1m",
            "--runtime",
            "0.2",
            "--continue-on-error",
        ],
        &audit,
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["data"]["errors"].as_u64().unwrap() > 1);
}

fn w(rw: Rw, qd: u32) -> Workload {
    Workload {
        rw,
        qd,
        limit: Limit::Runtime(Duration::from_millis(300)),
        log_interval: Duration::from_millis(100),
        ..Workload::default()
    }
}

#[test]
fn library_engine_on_virtual_clock() {
    // What the suites do: open through the factory, never knowing which engine runs.
    let mut e = bench::open(DRIVE, EngineKind::Auto, None).unwrap();
    assert_eq!(e.name(), "sim");
    assert_eq!(e.block_len(), 512);
    assert_eq!(e.capacity_bytes(), 1 << 30);
    let mut seen = 0;
    let r1 = e.run(&w(Rw::RandRead, 1), &mut |_| seen += 1).unwrap();
    assert_eq!(seen, 3);
    let r32 = e.run(&w(Rw::RandRead, 32), &mut |_| {}).unwrap();
    assert!(
        r32.iops > 5.0 * r1.iops,
        "QD32 {} vs QD1 {}",
        r32.iops,
        r1.iops
    );
    assert!(r32.latency.mean_us > r1.latency.mean_us);
    assert!(
        r1.cpu_s_per_io.is_none(),
        "virtual time has no host CPU figure"
    );
    // Writes without the gate's authorization are refused.
    match e.run(&w(Rw::RandWrite, 1), &mut |_| {}) {
        Err(bench::BenchError::Refused(m)) => assert!(m.contains("safety gate"), "{m}"),
        o => panic!("{o:?}"),
    }
    // Bytes limit: exactly that many bytes.
    let mut wl = w(Rw::Read, 4);
    wl.limit = Limit::Bytes(4 << 20);
    let r = e.run(&wl, &mut |_| {}).unwrap();
    assert_eq!(r.bytes, 4 << 20);
}

#[test]
fn verify_catches_a_corrupted_block_with_its_lba() {
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("a");
    // Silent corruption (GOOD status, one byte flipped) on reads of LBA 40, inside a 64 KiB
    // range that random 4 KiB writes and reads cover many times.
    let drive = "sim:hk4e?capacity_gib=1&serial=BENCH01&corrupt=40";
    let args = [
        "--json",
        "bench",
        "run",
        drive,
        "--rw",
        "randrw",
        "--mix",
        "50",
        "--range",
        "0:64k",
        "--qd",
        "4",
        "--runtime",
        "0.05",
        "--verify",
        "--confirm",
        "BENCH01",
    ];
    let (code, out, err) = sgctl(&args, &audit);
    assert_eq!(code, 5, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let vr = &v["data"]["verify"];
    assert!(vr["failures"].as_u64().unwrap() >= 1, "{vr}");
    assert!(vr["blocks_checked"].as_u64().unwrap() > 100, "{vr}");
    let f = vr["first_failures"].as_array().unwrap();
    assert!(f.iter().all(|x| x["lba"] == 40), "{vr}");
    assert!(
        f[0]["reason"].as_str().unwrap().contains("checksum"),
        "{vr}"
    );
    // The same run on a healthy drive verifies clean.
    let healthy = "sim:hk4e?capacity_gib=1&serial=BENCH01";
    let mut a = args.to_vec();
    a[3] = healthy;
    let (code, out, err) = sgctl(&a, &audit);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"]["verify"]["failures"], 0);
}

/// The sim engine moves the drive's clock to the run's last completion (the next run starts
/// after this one's commands, not behind them), and a plain write run leaves one-byte fills
/// on the drive (no block-sized copy kept per written LBA) while a `--verify` run writes its
/// headers.
#[test]
fn sim_engine_advances_the_clock_and_stores_plain_writes_compactly() {
    use sgctl::bench::Engine;
    use sgctl::scsi::read_write;
    use sgctl::transport::{DataBuf, Transport};
    let mut e = bench::sim::SimEngine::open(DRIVE, true).unwrap();
    let clock = e.device().clock();
    let before = clock.now();
    let mut wl = w(Rw::Write, 8);
    wl.limit = Limit::Bytes(1 << 20);
    let r = e.run(&wl, &mut |_| {}).unwrap();
    assert_eq!(r.bytes, 1 << 20);
    let after = clock.now();
    let ran = Duration::from_secs_f64(r.elapsed_s);
    assert!(
        after >= before + ran.mul_f64(0.999),
        "clock {after:?} should be at least {before:?} + {ran:?}"
    );
    assert!(
        r.notes.iter().any(|n| n.contains("one repeated byte")),
        "{:?}",
        r.notes
    );
    let read_block = |e: &mut bench::sim::SimEngine, lba: u64| {
        let mut buf = vec![0u8; 512];
        let mut dev = e.device().port(1);
        let cdb = read_write::Read16Cdb::new(lba, 1).build();
        let c = dev
            .execute(&cdb, DataBuf::In(&mut buf), Duration::from_secs(5))
            .unwrap();
        assert_eq!(c.status, 0);
        buf
    };
    for lba in [0u64, 7, 2047] {
        let b = read_block(&mut e, lba);
        assert!(
            b[0] != 0 && b.iter().all(|&x| x == b[0]),
            "LBA {lba}: {:?}",
            &b[..16]
        );
    }
    // A verified run writes real headers (magic first).
    wl.verify = true;
    e.run(&wl, &mut |_| {}).unwrap();
    let b = read_block(&mut e, 0);
    assert_eq!(&b[..8], bench::data::MAGIC);
}

/// Ctrl-C during a writing run: the jobs stop submitting, the partial results are reported
/// (JSON envelope and --report), the audit record ends "interrupted", exit 1 (Ctrl-C
/// at each phase of a benchmark).
#[test]
fn sigint_mid_run_reports_partial_results_and_an_interrupted_audit_record() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let d = tempfile::tempdir().unwrap();
    let audit = d.path().join("audit.jsonl");
    let rep = d.path().join("rep");
    let child = crate::util::sgctl_cmd()
        .args([
            "--json",
            "bench",
            "run",
            "sim:hk4e?capacity_gib=1&serial=BENCHINT",
            "--rw",
            "randwrite",
            "--qd",
            "8",
            // far longer than the test waits, even on the virtual clock
            "--runtime",
            "1000000",
            "--confirm",
            "BENCHINT",
            "--report",
            rep.to_str().unwrap(),
        ])
        .env("SGCTL_AUDIT_LOG", &audit)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the start record: the run is past the gate and issuing I/O.
    let t0 = std::time::Instant::now();
    while !std::fs::read_to_string(&audit).is_ok_and(|s| s.contains("\"start\"")) {
        assert!(t0.elapsed() < Duration::from_secs(60), "no start record");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(700));
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}\n{stdout}");
    // --json: the warning is in the envelope's messages
    assert!(stdout.contains("interrupted (Ctrl-C)"), "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let ios = v["data"]["ios"].as_u64().unwrap();
    assert!(ios > 0, "{stdout}");
    let records: Vec<serde_json::Value> = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let end = records
        .iter()
        .find(|r| r["event"] == "end")
        .expect("end record");
    assert_eq!(end["outcome"], "interrupted", "{end}");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rep.join("report.json")).unwrap()).unwrap();
    assert_eq!(saved["result"]["ios"].as_u64(), Some(ios));
    assert_eq!(
        (&saved["state"], &saved["complete"]),
        (&"interrupted".into(), &false.into())
    );
    assert!(
        saved.to_string().contains("interrupted (SIGINT)"),
        "the report says it is partial"
    );
    crate::report_schema::assert_valid_dir(&rep);
}
