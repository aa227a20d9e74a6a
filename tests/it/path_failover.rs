//! A path removed mid-job: a dual-port virtual drive reached through two paths of one
//! LU (`/dev/sga`, `/dev/sgb` in a fake host); the path the job polls answers ENODEV (the
//! kernel deleted it) a few polls after FORMAT UNIT / SANITIZE was accepted. The job must go on
//! through the other path, end `success`, and name the switch in its record and its audit end
//! record. The same in the VM: vm/groups/tcmu/66-path-removal.sh.

use sgctl::error::Result;
use sgctl::host::{HostView, InUse, PathInfo};
use sgctl::ops::gate::NoPrompter;
use sgctl::ops::jobs::{self, format::FormatJob, sanitize::SanitizeJob, JobEnv, JobOptions};
use sgctl::ops::poll::PollConfig;
use sgctl::ops::record::Outcome;
use sgctl::ops::sanitize::{Method, SanitizeOptions};
use sgctl::sim::SimDevice;
use sgctl::transport::{Completion, DataBuf, Transport};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// One LU, two paths.
struct TwoPaths;

impl HostView for TwoPaths {
    fn paths_of(&self, _: &str) -> Result<Vec<PathInfo>> {
        Ok(["sga", "sgb"]
            .iter()
            .map(|n| PathInfo {
                hctl: None,
                block: None,
                sg: Some(n.to_string()),
            })
            .collect())
    }
    fn in_use(&self, _: &[PathInfo]) -> Result<Vec<InUse>> {
        Ok(vec![])
    }
}

/// A path to the drive that the kernel deletes `after` commands once a FORMAT UNIT or
/// SANITIZE went through it: from then on every command fails with ENODEV.
struct Path {
    dev: SimDevice,
    name: String,
    after: Option<u32>,
    seen: Arc<AtomicU32>,
    armed: Arc<AtomicBool>,
}

impl Transport for Path {
    fn execute(&mut self, cdb: &[u8], d: DataBuf<'_>, t: Duration) -> Result<Completion> {
        if let Some(after) = self.after {
            if matches!(cdb.first(), Some(0x04 | 0x48)) {
                self.armed.store(true, Ordering::SeqCst);
            } else if self.armed.load(Ordering::SeqCst)
                && self.seen.fetch_add(1, Ordering::SeqCst) >= after
            {
                return Err(sgctl::transport::sgio::os_error(
                    "SG_IO",
                    &self.name,
                    nix::errno::Errno::ENODEV,
                ));
            }
        }
        self.dev.execute(cdb, d, t)
    }
    fn address(&self) -> String {
        self.name.clone()
    }
}

/// Runs `job` on `/dev/sga` of a fresh drive whose first path goes away 3 commands after the
/// long operation started (`host` says which paths the drive has); returns the record and the
/// audit log.
fn run_with_path_removal(
    serial: &str,
    host: &dyn HostView,
    job: impl FnMut() -> Box<dyn jobs::Job>,
) -> (sgctl::ops::record::JobRecord, String) {
    let dir = tempfile::tempdir().unwrap();
    let dev = sgctl::sim::open(&format!(
        "px02smf080?clock=virtual&capacity_blocks=65536&serial={serial}"
    ))
    .unwrap();
    let (seen, armed) = (
        Arc::new(AtomicU32::new(0)),
        Arc::new(AtomicBool::new(false)),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let clock = dev.clock();
    let poll = PollConfig {
        interval: Duration::from_secs(1),
        sleep: Arc::new(move |d: Duration| clock.advance(d.max(Duration::from_secs(1)))),
        interrupted: stop.clone(),
        max_errors: 3,
        stall: sgctl::ops::poll::STALL,
    };
    let open = |a: &str| -> Result<(Box<dyn Transport>, PollConfig)> {
        let (port, after) = match a {
            "/dev/sga" => (1, Some(3)),
            "/dev/sgb" => (2, None),
            _ => panic!("no such path {a}"),
        };
        let p = Path {
            dev: dev.port(port),
            name: a.into(),
            after,
            seen: seen.clone(),
            armed: armed.clone(),
        };
        Ok((Box::new(p), poll.clone()))
    };
    let env = JobEnv {
        host,
        open: &open,
        prompter: &mut NoPrompter,
        interactive: false,
        interrupted: stop,
        progress: &jobs::NoProgress,
        advise: None,
    };
    let opts = JobOptions {
        confirm: vec![serial.into()],
        audit_log: Some(dir.path().join("audit.jsonl")),
        poll_interval: Duration::ZERO,
        ..JobOptions::default()
    };
    let run = jobs::run(env, &["/dev/sga".to_string()], &opts, job).unwrap();
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    (run.records.into_iter().next().unwrap(), audit)
}

fn check_switched(r: &sgctl::ops::record::JobRecord, audit: &str) {
    assert_eq!(r.outcome, Outcome::Success, "{r:?}");
    assert_eq!(r.exit_status, 0);
    assert_eq!(r.path_switches.len(), 1, "{:?}", r.path_switches);
    let s = &r.path_switches[0];
    assert_eq!((s.from.as_str(), s.to.as_str()), ("/dev/sga", "/dev/sgb"));
    assert!(s.reason.contains("ENODEV"), "{s:?}");
    assert!(r.render_text().contains("path switch:  "), "text names it");
    let end: serde_json::Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(end["outcome"], "success");
    assert_eq!(end["details"]["path_switches"][0]["from"], "/dev/sga");
    assert_eq!(end["details"]["path_switches"][0]["to"], "/dev/sgb");
}

#[test]
fn format_goes_on_through_the_other_path() {
    let fmt = sgctl::ops::format::FormatOptions {
        block_size: Some(4096),
        protection: sgctl::scsi::format_unit::ProtectionType::Type0,
        pi_exponent: 0,
        capacity: sgctl::ops::format::CapacityRequest::Max,
        fast: false,
        recover: false,
        preset: None,
    };
    let (r, audit) = run_with_path_removal("FAILOVER1", &TwoPaths, || {
        Box::new(FormatJob::new(fmt.clone()))
    });
    check_switched(&r, &audit);
    assert_eq!(r.path_switches[0].command, "Request Sense");
    // Verified on the other path: READ CAPACITY(16) says 4096-byte blocks.
    assert_eq!(r.after["after"]["block_len"], 4096, "{r:?}");
}

#[test]
fn sanitize_goes_on_through_the_other_path_and_verifies_there() {
    let mut o = SanitizeOptions::new(Method::Block);
    o.verify = 8;
    let (r, audit) = run_with_path_removal("FAILOVER2", &TwoPaths, || {
        Box::new(SanitizeJob::new(o.clone(), 3))
    });
    check_switched(&r, &audit);
    let v = r.verification.as_ref().expect("verified");
    assert_eq!(v.survived, 0, "{v:?}");
}

#[test]
fn without_another_path_the_job_fails_and_says_so() {
    // The same drive with one path only: the old behaviour, exit 4 and the way out.
    struct OnePath;
    impl HostView for OnePath {
        fn paths_of(&self, _: &str) -> Result<Vec<PathInfo>> {
            Ok(vec![PathInfo {
                hctl: None,
                block: None,
                sg: Some("sga".into()),
            }])
        }
        fn in_use(&self, _: &[PathInfo]) -> Result<Vec<InUse>> {
            Ok(vec![])
        }
    }
    let (r, _) = run_with_path_removal("FAILOVER3", &OnePath, || {
        Box::new(SanitizeJob::new(SanitizeOptions::new(Method::Block), 3))
    });
    let r = &r;
    assert_eq!(r.outcome, Outcome::Failed, "{r:?}");
    assert_eq!(r.exit_status, sgctl::exit::COMMAND);
    assert!(r.path_switches.is_empty());
    assert!(r.message.as_deref().unwrap().contains("ENODEV"), "{r:?}");
    // The library keeps the advice typed; the CLI words it (src/cli/advice.rs tests the words).
    let next = r.next.as_ref().expect("typed advice");
    assert!(
        matches!(next, sgctl::error::Next::SanitizeWatchLost { .. }),
        "{next:?}"
    );
    // The failed polls are in the record once (repeats of the same failure are not).
    let failed: Vec<_> = r
        .sense_trail
        .iter()
        .filter(|t| t.description.starts_with("command failed") && t.description.contains("ENODEV"))
        .collect();
    assert_eq!(failed.len(), 1, "{:?}", r.sense_trail);
}

/// A host that knows the drive's enclosure slot (as `/sys/class/enclosure` tells it).
struct TwoPathsInSlot;

impl HostView for TwoPathsInSlot {
    fn paths_of(&self, a: &str) -> Result<Vec<PathInfo>> {
        TwoPaths.paths_of(a)
    }
    fn in_use(&self, p: &[PathInfo]) -> Result<Vec<InUse>> {
        TwoPaths.in_use(p)
    }
    fn slot_of(&self, paths: &[PathInfo]) -> Option<sgctl::host::SlotRef> {
        assert_eq!(paths.len(), 2, "asked with the gate's paths");
        Some(sgctl::host::SlotRef {
            id: Some("0x500605b0000272bf".into()),
            vendor: Some("SGCTL".into()),
            product: Some("JBOD4 SIM ENCL".into()),
            slot: Some(3),
            component: "SLOT 03".into(),
            enclosure_device: "0:0:0:0".into(),
        })
    }
}

/// The record and the batch manifest carry the enclosure and slot where the host knows them,
/// and leave both out where it does not.
#[test]
fn records_and_manifest_carry_enclosure_and_slot() {
    let mut o = SanitizeOptions::new(Method::Block);
    o.verify = 0;
    let (r, _) = run_with_path_removal("INSLOT1", &TwoPathsInSlot, || {
        Box::new(SanitizeJob::new(o.clone(), 3))
    });
    let e = r.enclosure.as_ref().expect("slot recorded");
    assert_eq!(
        (e.id.as_deref(), e.slot),
        (Some("0x500605b0000272bf"), Some(3))
    );
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["enclosure"]["slot"], 3);
    assert_eq!(
        sgctl::report::certificate::enclosure_slot(&v).as_deref(),
        Some("enclosure 0x500605b0000272bf, slot 3 (\"SLOT 03\")")
    );
    let (plain, _) = run_with_path_removal("INSLOT2", &TwoPaths, || {
        Box::new(SanitizeJob::new(o.clone(), 3))
    });
    assert!(plain.enclosure.is_none());
    assert!(serde_json::to_value(&plain)
        .unwrap()
        .get("enclosure")
        .is_none());
    let dir = tempfile::tempdir().unwrap();
    let m = sgctl::ops::manifest::build(
        &[r, plain],
        &dir.path().join("c.json"),
        b"{}",
        &dir.path().join("audit.jsonl"),
    )
    .unwrap();
    assert_eq!(m["drives"][0]["enclosure"], "0x500605b0000272bf");
    assert_eq!(m["drives"][0]["slot"], 3);
    assert!(m["drives"][1].get("slot").is_none());
}
