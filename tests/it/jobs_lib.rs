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
