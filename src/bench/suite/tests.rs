//! Round-loop tests on the toy drive of [`super::fake`]: every PTS test completes, steady
//! state is found, Ctrl-C keeps the completed rounds and `--resume` continues from them.

use super::cache::WriteCache;
use super::defs::TestId;
use super::driver::{ActiveRange, RunSettings};
use super::fake;
use super::purge::PurgeMethod;
use super::runner::{is_interrupted, Progress, Suite};
use super::{pts, steady};
use crate::bench::report::suite::{Header, Report, Settings, FORMAT, VERSION};

const CAP: u64 = 1 << 30;

fn report() -> Report {
    Report {
        format: FORMAT.into(),
        version: VERSION,
        suite: "pts".into(),
        created: "t".into(),
        updated: "t".into(),
        complete: false,
        state: "running".into(),
        header: Header {
            serial: "FAKE1".into(),
            ..Header::default()
        },
        settings: Settings::default(),
        write_cache: WriteCache::default(),
        tests: vec![],
        notes: vec![],
    }
}

fn settings() -> RunSettings {
    RunSettings {
        range: ActiveRange {
            offset_bytes: 0,
            len_bytes: CAP,
        },
        tc: 1,
        qd: 32,
        time_scale: 1.0 / 100.0,
        log_interval_s: 0.01,
    }
}

#[test]
fn every_pts_test_completes_on_the_toy_drive() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, mut c, flag) = fake::new(CAP);
    let st = d.st.clone();
    let mut s = Suite::new(
        &mut d,
        &mut c,
        report(),
        dir.path().to_path_buf(),
        settings(),
        steady::DEFAULT_MAX_ROUNDS,
        PurgeMethod::Block,
        flag,
        Progress::new(false, true),
    );
    for t in TestId::ALL {
        pts::run(&mut s, t).unwrap();
        assert_eq!(s.report.test_mut(t.name()).state, "done", "{t:?}");
    }
    let r = Report::load(dir.path()).unwrap();
    let iops = r.tests.iter().find(|t| t.test == "iops").unwrap();
    let ss = iops.results["steady_state"].clone();
    assert_eq!(ss["reached"], true, "{ss}");
    let table = iops.results["table"].as_array().unwrap();
    assert_eq!(table.len(), 7);
    assert_eq!(table[6]["rw_mix"], "0/100");
    let w4k = table[6]["iops"]["4k"].as_f64().unwrap();
    // Toy drive: steady 4K write ≈ 16,000 + a decaying FOB term.
    assert!(w4k > 15_000.0 && w4k < 25_000.0, "{w4k}");
    // TP ran both block sizes, each with its own purge and WIPC.
    let tp = r.tests.iter().find(|t| t.test == "tp").unwrap();
    for st in [
        "purge-128k",
        "wipc-128k",
        "wdpc-128k",
        "purge-1024k",
        "wipc-1024k",
        "wdpc-1024k",
    ] {
        assert!(tp.stages.iter().any(|s| s.name == st && s.done), "{st}");
    }
    // WSAT stops at 4 × capacity (the toy drive's 24 h cap is far away).
    let wsat = r.tests.iter().find(|t| t.test == "wsat").unwrap();
    let gb = wsat.results["total_gb_written"].as_f64().unwrap();
    assert!(
        gb * 1e9 >= 4.0 * CAP as f64 && gb * 1e9 < 4.2 * CAP as f64,
        "{gb}"
    );
    // HIR: 360 bursts per wait state, and idle time spent.
    let hir = r.tests.iter().find(|t| t.test == "hir").unwrap();
    assert_eq!(
        hir.results["wait_states"][0]["burst_iops"]
            .as_array()
            .unwrap()
            .len(),
        360
    );
    // DIRTH: 49-cell table and the three capture points.
    let dirth = r.tests.iter().find(|t| t.test == "dirth").unwrap();
    assert_eq!(dirth.results["table"].as_array().unwrap().len(), 49);
    let caps = dirth.results["captures"].as_array().unwrap();
    assert_eq!(caps.len(), 3);
    assert_eq!(
        (caps[2]["tc"].as_u64(), caps[2]["qd"].as_u64()),
        (Some(1), Some(1))
    );
    // One purge per test (TP: two).
    let stl = st.lock().unwrap();
    assert_eq!(stl.purges, 9);
    assert!(stl.idle_s > 0.0);
}

#[test]
fn not_purged_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, mut c, flag) = fake::new(CAP);
    let mut s = Suite::new(
        &mut d,
        &mut c,
        report(),
        dir.path().to_path_buf(),
        settings(),
        6,
        PurgeMethod::None,
        flag,
        Progress::new(false, true),
    );
    pts::run(&mut s, TestId::Lat).unwrap();
    let p = s.report.tests[0].stages[0].purge.clone().unwrap();
    assert!(!p.purged);
    assert!(p.status.starts_with("NOT PURGED"), "{}", p.status);
}

#[test]
fn interrupt_keeps_completed_rounds_and_resume_continues() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, mut c, flag) = fake::new(CAP);
    let st = d.st.clone();
    // WIPC is run 1; interrupt inside WDPC round 3 (runs 2..57 are round 1, ...).
    st.lock().unwrap().interrupt_after = Some(1 + 56 * 2 + 10);
    let e = {
        let mut s = Suite::new(
            &mut d,
            &mut c,
            report(),
            dir.path().to_path_buf(),
            settings(),
            25,
            PurgeMethod::Block,
            flag.clone(),
            Progress::new(false, true),
        );
        pts::run(&mut s, TestId::Iops).unwrap_err()
    };
    assert!(is_interrupted(&e), "{e}");
    let saved = Report::load(dir.path()).unwrap();
    let wdpc = saved.tests[0]
        .stages
        .iter()
        .find(|s| s.name == "wdpc")
        .unwrap();
    assert_eq!(wdpc.rounds.len(), 2);
    assert!(!wdpc.done);
    // Resume: purge and WIPC are not repeated, rounds continue at 3.
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    st.lock().unwrap().interrupt_after = None;
    let runs_before = st.lock().unwrap().runs;
    let mut s = Suite::new(
        &mut d,
        &mut c,
        saved,
        dir.path().to_path_buf(),
        settings(),
        25,
        PurgeMethod::Block,
        flag,
        Progress::new(false, true),
    );
    pts::run(&mut s, TestId::Iops).unwrap();
    let wdpc = s.report.tests[0]
        .stages
        .iter()
        .find(|s| s.name == "wdpc")
        .unwrap();
    assert_eq!(wdpc.rounds[2].round, 3);
    assert!(wdpc.done);
    let stl = st.lock().unwrap();
    assert_eq!(stl.purges, 1);
    // Every run after the resume is a WDPC cell (no second WIPC).
    assert_eq!((stl.runs - runs_before) % 56, 0);
}

#[test]
fn review_runs_every_part_and_restores_capacity() {
    let dir = tempfile::tempdir().unwrap();
    let (mut d, mut c, flag) = fake::new(CAP);
    let st = d.st.clone();
    let mut s = Suite::new(
        &mut d,
        &mut c,
        report(),
        dir.path().to_path_buf(),
        settings(),
        25,
        PurgeMethod::Block,
        flag,
        Progress::new(false, true),
    );
    for p in super::review::PARTS {
        super::review::run(&mut s, p, 20.0).unwrap();
    }
    let cliff = s
        .report
        .tests
        .iter()
        .find(|t| t.test == "write_cliff")
        .unwrap()
        .clone();
    let op = s
        .report
        .tests
        .iter()
        .find(|t| t.test == "op")
        .unwrap()
        .clone();
    let fob = cliff.results["fob_iops"].as_f64().unwrap();
    let ss = cliff.results["ss_iops"].as_f64().unwrap();
    assert!(fob > 35_000.0 && ss < 20_000.0, "{fob} {ss}");
    assert_eq!(op.results["capacity_pct"], 80);
    assert_eq!(op.results["restored"], true);
    assert!(super::review::op_gain_pct(&cliff, &op).is_some());
    let q = s
        .report
        .tests
        .iter()
        .find(|t| t.test == "qd_sweep")
        .unwrap();
    assert_eq!(q.results["table"].as_array().unwrap().len(), 9);
    let stl = st.lock().unwrap();
    assert_eq!(stl.formats, vec![Some(80), None]);
    assert_eq!(stl.capacity, CAP);
}
