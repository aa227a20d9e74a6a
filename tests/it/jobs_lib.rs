//! The job layer through the library alone (no binary): the gate refuses a drive nobody
//! named, a named one is sanitized with audit records and a certificate, and a progress sink
//! sees every event in order.

use sgctl::discover::DiscoverHost;
use sgctl::ops::gate::NoPrompter;
use sgctl::ops::jobs::{
    self, format::FormatJob, sanitize::SanitizeJob, JobEnv, JobEvent, JobOptions, ProgressSink,
};
use sgctl::ops::record::{JobMethod, Outcome};
use sgctl::ops::sanitize::{Method, SanitizeOptions};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn drive(dir: &std::path::Path, serial: &str) -> String {
    format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial={serial}&state={}/d.json",
        dir.display()
    )
}

fn options(dir: &std::path::Path, confirm: &[&str]) -> JobOptions {
    JobOptions {
        confirm: confirm.iter().map(|s| s.to_string()).collect(),
        audit_log: Some(dir.join("audit.jsonl")),
        certificate: Some(dir.join("cert.json")),
        poll_interval: Duration::ZERO,
        ..JobOptions::default()
    }
}

fn sanitize(m: Method) -> impl FnMut() -> Box<dyn jobs::Job> {
    move || Box::new(SanitizeJob::new(SanitizeOptions::new(m.clone()), 7))
}

#[test]
fn unnamed_drive_is_refused_and_nothing_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let addr = drive(dir.path(), "LIB1");
    let run = jobs::run_unattended(
        &[addr],
        &options(dir.path(), &["SOMEONE-ELSE"]),
        sanitize(Method::Crypto),
    )
    .unwrap();
    let r = &run.records[0];
    assert_eq!(r.outcome, Outcome::Refused);
    assert_eq!(run.exit, sgctl::exit::REFUSED);
    assert!(
        r.message
            .as_deref()
            .unwrap()
            .contains("does not name this drive"),
        "{r:?}"
    );
    assert!(!dir.path().join("audit.jsonl").exists(), "no audit record");
}

#[test]
fn named_drive_is_sanitized_with_audit_and_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let addr = drive(dir.path(), "LIB2");
    let run = jobs::run_unattended(
        &[addr],
        &options(dir.path(), &["LIB2"]),
        sanitize(Method::Auto),
    )
    .unwrap();
    let r = &run.records[0];
    assert_eq!(r.outcome, Outcome::Success, "{r:?}");
    assert_eq!(
        r.method,
        Some(JobMethod::Sanitize(
            sgctl::scsi::sanitize::ServiceAction::CryptoErase
        ))
    );
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert_eq!(audit.lines().count(), 2, "{audit}");
    let cert: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("cert.json")).unwrap()).unwrap();
    assert_eq!(cert["certificates"][0]["outcome"], "success");
    assert_eq!(cert["certificates"][0]["method"], "CRYPTOGRAPHIC ERASE");
}

#[derive(Default)]
struct Recorder(Mutex<Vec<String>>);

impl ProgressSink for Recorder {
    fn event(&self, e: &JobEvent<'_>) {
        let s = match e {
            JobEvent::Started { .. } => "started".to_string(),
            JobEvent::Progress { percent, .. } => format!("progress {percent:?}"),
            JobEvent::Finished { outcome, .. } => format!("finished {outcome}"),
        };
        self.0.lock().unwrap().push(s);
    }
}

#[test]
fn a_sink_sees_started_progress_finished() {
    let dir = tempfile::tempdir().unwrap();
    let addr = drive(dir.path(), "LIB3");
    let rec = Recorder::default();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let open = move |a: &str| jobs::open_for_job(a, 0, Duration::ZERO, flag.clone());
    let env = JobEnv {
        host: &DiscoverHost,
        open: &open,
        prompter: &mut NoPrompter,
        interactive: false,
        interrupted: stop,
        progress: &rec,
        advise: None,
    };
    let opts = options(dir.path(), &["LIB3"]);
    let fmt = sgctl::ops::format::FormatOptions {
        block_size: Some(4096),
        protection: sgctl::scsi::format_unit::ProtectionType::Type0,
        pi_exponent: 0,
        capacity: sgctl::ops::format::CapacityRequest::Max,
        fast: false,
        recover: false,
        preset: None,
    };
    let run = jobs::run(env, &[addr], &opts, || {
        Box::new(FormatJob::new(fmt.clone()))
    })
    .unwrap();
    assert_eq!(
        run.records[0].outcome,
        Outcome::Success,
        "{:?}",
        run.records[0]
    );
    let ev = rec.0.lock().unwrap().clone();
    assert_eq!(ev.first().map(String::as_str), Some("started"), "{ev:?}");
    assert_eq!(
        ev.last().map(String::as_str),
        Some("finished success"),
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| e.starts_with("progress Some(")), "{ev:?}");
}

/// The host as `DiscoverHost` sees it, in a captured sysfs tree: each lookup scans the tree
/// (as `DiscoverHost::paths_of` scans the host), and the view for a command scans it once.
/// Counts every scan.
struct FixtureHost {
    opts: sgctl::discover::ScanOptions,
    lookups: std::sync::atomic::AtomicUsize,
    views: Mutex<Vec<Arc<sgctl::discover::ScannedHost>>>,
}

impl FixtureHost {
    fn walks(&self) -> usize {
        self.lookups.load(std::sync::atomic::Ordering::SeqCst)
            + self
                .views
                .lock()
                .unwrap()
                .iter()
                .map(|v| v.walks())
                .sum::<usize>()
    }
}

struct View(Arc<sgctl::discover::ScannedHost>);

impl sgctl::host::HostView for View {
    fn paths_of(&self, a: &str) -> sgctl::Result<Vec<sgctl::host::PathInfo>> {
        self.0.paths_of(a)
    }
    fn in_use(&self, p: &[sgctl::host::PathInfo]) -> sgctl::Result<Vec<sgctl::host::InUse>> {
        self.0.in_use(p)
    }
}

impl sgctl::host::HostView for FixtureHost {
    fn paths_of(&self, a: &str) -> sgctl::Result<Vec<sgctl::host::PathInfo>> {
        self.lookups
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        sgctl::discover::ScannedHost::new(self.opts.clone()).paths_of(a)
    }
    fn in_use(&self, p: &[sgctl::host::PathInfo]) -> sgctl::Result<Vec<sgctl::host::InUse>> {
        sgctl::host::LinuxHost::with_root(self.opts.sysroot.clone()).in_use(p)
    }
    fn for_command(&self) -> Option<Box<dyn sgctl::host::HostView + '_>> {
        let v = Arc::new(sgctl::discover::ScannedHost::new(self.opts.clone()));
        self.views.lock().unwrap().push(v.clone());
        Some(Box::new(View(v)))
    }
}

/// A run over many host drives reads the host once to plan them all and once to gate them
/// all, not once per drive in each (16 LUs of the scsi_debug fixture; each opened as a virtual
/// drive, since the fixture's nodes are not this host's).
#[test]
fn a_run_over_many_host_drives_scans_the_host_once_per_phase() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/scsi-debug");
    let host = FixtureHost {
        opts: sgctl::discover::ScanOptions {
            sysroot: root,
            ..Default::default()
        },
        lookups: Default::default(),
        views: Default::default(),
    };
    let addresses: Vec<String> = (0..16).map(|i| format!("/dev/sg{i}")).collect();
    let serials: Vec<String> = (0..16).map(|i| format!("FX{i:02}")).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let d = dir.path().to_path_buf();
    let open = move |a: &str| {
        let n: usize = a.trim_start_matches("/dev/sg").parse().unwrap();
        let sim = format!(
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=FX{n:02}&state={}/d{n}.json",
            d.display()
        );
        jobs::open_for_job(&sim, 0, Duration::ZERO, flag.clone())
    };
    let env = JobEnv {
        host: &host,
        open: &open,
        prompter: &mut NoPrompter,
        interactive: false,
        interrupted: stop,
        progress: &jobs::NoProgress,
        advise: None,
    };
    let confirm: Vec<&str> = serials.iter().map(String::as_str).collect();
    let mut opts = options(dir.path(), &confirm);
    opts.dry_run = true;
    opts.certificate = None;
    let run = jobs::run(env, &addresses, &opts, sanitize(Method::Crypto)).unwrap();
    assert_eq!(run.records.len(), 16);
    for r in &run.records {
        assert_eq!(r.outcome, Outcome::DryRun, "{r:?}");
        // The paths the fixture gives the LU, found through the shared scan.
        assert_eq!(r.paths.len(), 1, "{r:?}");
        assert!(r.paths[0].hctl.is_some(), "{r:?}");
    }
    // One scan to plan the 16 drives and one to gate them: 2, where a scan per lookup is 32.
    assert_eq!(host.walks(), 2);
    assert_eq!(host.lookups.load(std::sync::atomic::Ordering::SeqCst), 0);
}
