//! `sgctl bench pts` / `bench review` on `sim:` drives: refusals (wrong --confirm, a purge
//! method the drive lacks, --resume of another drive's report) and whole tests end to end
//! (purge, WIPC, rounds to steady state, report.json, write cache restored).

use crate::util::run_audited as sgctl;
use sgctl::bench::report::suite::{Header, Report, Settings, FORMAT, VERSION};

/// A 64 MiB px02smf080 (the smallest media model): durations scale to its capacity.
const TINY: &str = "sim:px02smf080?capacity_gib=0.0625&serial=SUITE01";

#[test]
fn wrong_confirm_is_refused_before_anything_is_sent() {
    let d = tempfile::tempdir().unwrap();
    let (code, _, err) = sgctl(
        &["bench", "pts", TINY, "--test", "iops", "--confirm", "NOTME"],
        &d.path().join("a"),
    );
    assert_eq!(code, 6, "{err}");
    assert!(err.contains("--confirm does not name this drive"), "{err}");
}

#[test]
fn purge_method_the_drive_lacks_exits_7_with_the_methods_it_has() {
    let d = tempfile::tempdir().unwrap();
    let (code, _, err) = sgctl(
        &[
            "bench",
            "pts",
            "sim:px03snf080?capacity_gib=0.0625&serial=NOCRYPTO",
            "--test",
            "iops",
            "--purge",
            "crypto",
            "--confirm",
            "NOCRYPTO",
            "--report",
            d.path().join("r").to_str().unwrap(),
        ],
        &d.path().join("a"),
    );
    assert_eq!(code, 7, "{err}");
    assert!(
        err.contains("does not support --purge crypto")
            && err.contains("methods it has: block, overwrite, format"),
        "{err}"
    );
}

#[test]
fn resume_of_another_drives_report_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut r = Report {
        format: FORMAT.into(),
        version: VERSION,
        suite: "pts".into(),
        created: "2026-12-01T00:00:00Z".into(),
        updated: String::new(),
        complete: false,
        state: "interrupted".into(),
        header: Header {
            vendor: "TOSHIBA".into(),
            model: "PX02SMF080".into(),
            serial: "SOMEONEELSE".into(),
            ..Header::default()
        },
        settings: Settings::default(),
        write_cache: Default::default(),
        tests: vec![],
        notes: vec![],
    };
    r.save(d.path()).unwrap();
    // A drive that keeps its state (a stateless one is refused for that reason first).
    let drive = format!("{TINY}&state={}", d.path().join("drive.json").display());
    let (code, _, err) = sgctl(
        &[
            "bench",
            "pts",
            &drive,
            "--resume",
            d.path().to_str().unwrap(),
            "--confirm",
            "SUITE01",
        ],
        &d.path().join("a"),
    );
    assert_eq!(code, 6, "{err}");
    assert!(err.contains("report is from another drive"), "{err}");
    assert!(
        err.contains("SOMEONEELSE") && err.contains("SUITE01"),
        "{err}"
    );
}

#[test]
fn lat_test_end_to_end_with_report_and_write_cache_restored() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("lat");
    let (code, out, err) = sgctl(
        &[
            "--json",
            "bench",
            "pts",
            TINY,
            "--test",
            "lat",
            "--max-rounds",
            "5",
            "--confirm",
            "SUITE01",
            "--report",
            dir.to_str().unwrap(),
        ],
        &d.path().join("audit.jsonl"),
    );
    assert_eq!(code, 0, "{err}\n{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["data"]["state"], "complete");
    crate::report_schema::assert_valid_dir(&dir);
    let r = Report::load(&dir).unwrap();
    assert!(r.complete);
    // Write cache: WCE was 1, cleared during the run, restored after.
    assert_eq!(r.write_cache.wce_before, Some(true));
    assert_eq!(r.write_cache.wce_during, Some(false));
    assert_eq!(r.write_cache.wce_after, Some(true));
    assert!(r.write_cache.restored);
    let t = &r.tests[0];
    let purge = t.stages[0].purge.as_ref().unwrap();
    assert!(purge.purged, "{}", purge.status);
    // `--purge auto` of a benchmark: block erase first (it returns the flash to FOB).
    assert_eq!(purge.method.as_deref(), Some("BLOCK ERASE"));
    assert!(dir.join(purge.certificate.as_deref().unwrap()).exists());
    let wdpc = t.stages.iter().find(|s| s.name == "wdpc").unwrap();
    let ss = wdpc.steady_state.as_ref().unwrap();
    assert_eq!(ss.rounds as usize, wdpc.rounds.len());
    assert!(ss.window.is_some());
    assert_eq!(t.results["table"].as_array().unwrap().len(), 9);
    // The scaled durations are stated.
    assert!(r.settings.time_scale < 1e-3 && r.settings.time_scale_reason.is_some());
    // The audit log has the gate's start and end records.
    let audit = std::fs::read_to_string(d.path().join("audit.jsonl")).unwrap();
    assert!(
        audit.contains("\"bench-pts\"") && audit.contains("\"end\""),
        "{audit}"
    );
}

#[test]
fn purge_none_says_not_purged() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("np");
    let (code, out, err) = sgctl(
        &[
            "bench",
            "pts",
            TINY,
            "--test",
            "tp",
            "--purge",
            "none",
            "--max-rounds",
            "5",
            "--confirm",
            "SUITE01",
            "--report",
            dir.to_str().unwrap(),
        ],
        &d.path().join("a"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("NOT PURGED"), "{out}");
    crate::report_schema::assert_valid_dir(&dir);
    let r = Report::load(&dir).unwrap();
    assert!(r.notes.iter().any(|n| n.starts_with("NOT PURGED")));
    let p = r.tests[0].stages[0].purge.as_ref().unwrap();
    assert!(!p.purged && p.status.starts_with("NOT PURGED"));
}
