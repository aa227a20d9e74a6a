//! The one safety gate every destructive job passes: FORMAT UNIT, SANITIZE,
//! LOG SELECT reset, TCG erase/revert and the benchmark's purge.
//!
//! 1. Resolve every path of the logical unit (both SAS ports, all sg/sd/bsg nodes).
//! 2. Refuse when any path, partition or holder is mounted, used as swap, held by
//!    device-mapper/md/multipath, or carries the root filesystem (the boot disk).
//! 3. Require a confirmation that names the drive: `--confirm SERIAL|WWN`, or the same typed on
//!    a terminal. There is no default and no "yes".
//! 4. `--dry-run`: the job runs its read-only queries through [`ReadOnly`], which refuses any
//!    state-changing CDB, and prints the CDBs it would send ([`PlannedCommand`]).
//! 5. An audit record (JSON Lines, fsync'ed) before the job starts and after it ends
//!    ([`AuditLog`], default `/var/log/sgctl/audit.jsonl`).
//! 6. One job per drive at a time: a lock keyed by the LU name ([`lock`]), held until
//!    the job ends; a second job on the same LU (either port) is refused naming the first.
//!
//! Everything the gate learns about the host comes through [`HostView`], so tests fake it.

mod confirm;
mod dry_run;
pub mod lock;
mod prompt;

pub use confirm::{confirm, Confirmation, DriveName};
pub use dry_run::{is_state_changing, ByRef, PlannedCommand, ReadOnly};
pub use prompt::{NoPrompter, Prompter};

use crate::clock::rfc3339;
use crate::error::{Refusal, Result};
use crate::host::{current_uid, hostname, HostView, PathInfo};
use crate::ops::audit::AuditLog;
use crate::transport::Transport;
use serde_json::{json, Value};
use std::path::Path;
use std::time::SystemTime;

/// Checks paths and in-use state; returns the paths when the drive is free.
pub fn check_not_in_use(host: &dyn HostView, address: &str) -> Result<Vec<PathInfo>> {
    let paths = host.paths_of(address)?;
    let busy = host.in_use(&paths)?;
    if !busy.is_empty() {
        let nodes: Vec<String> = paths
            .iter()
            .map(|p| {
                p.block
                    .clone()
                    .or(p.sg.clone())
                    .or(p.hctl.clone())
                    .unwrap_or_default()
            })
            .collect();
        return Err(Refusal::InUse {
            address: address.into(),
            nodes,
            reasons: busy,
        }
        .into());
    }
    Ok(paths)
}

/// Refuses a destructive job on a drive another initiator holds a persistent reservation on,
/// unless `allow` (`--ignore-reservation`); see [`crate::ops::reservations`].
pub(crate) fn check_reservation(t: &mut dyn Transport, address: &str, allow: bool) -> Result<()> {
    crate::ops::reservations::check_not_reserved_by_other(t, address, allow)
}
/// A job that passed the gate: writes its start and end records.
#[derive(Debug)]
pub struct Cleared {
    /// Unique id tying the start and end records together.
    pub job_id: String,
    /// All paths of the drive.
    pub paths: Vec<PathInfo>,
    /// When the gate cleared the job.
    pub started: SystemTime,
    audit: AuditLog,
    job: String,
    address: String,
    /// One job per drive: held until the job's `Cleared` is dropped or the process ends.
    _lock: Option<lock::JobLock>,
}

impl Cleared {
    /// Writes the start record. A job must not start if this fails. Callers go through
    /// [`Cleared::start`] (`ops::session`), which returns the one way to write the end record.
    pub(crate) fn record_start(&self, details: Value) -> Result<()> {
        self.audit.append(&json!({
            "event": "start",
            "time": rfc3339(SystemTime::now()),
            "job_id": self.job_id,
            "job": self.job,
            "device": self.address,
            "paths": self.paths,
            "host": hostname(),
            "uid": current_uid(),
            "tool": format!("sgctl {}", env!("CARGO_PKG_VERSION")),
            "details": details,
        }))
    }

    /// Writes the end record ([`crate::ops::session::Started::end`]).
    pub(crate) fn record_end(&self, outcome: &str, details: Value) -> Result<()> {
        let now = SystemTime::now();
        self.audit.append(&json!({
            "event": "end",
            "time": rfc3339(now),
            "job_id": self.job_id,
            "job": self.job,
            "device": self.address,
            "outcome": outcome,
            "duration_ms": now.duration_since(self.started).unwrap_or_default().as_millis() as u64,
            "details": details,
        }))
    }

    /// The audit log in use.
    pub fn audit_path(&self) -> &Path {
        self.audit.path()
    }
}

/// Everything the gate needs for one drive.
pub struct GateRequest<'a> {
    /// Job name (`format`, `sanitize`, `log-reset`, `tcg-erase`, ...).
    pub job: &'a str,
    /// The address the user gave.
    pub address: &'a str,
    /// Serial/WWN read from the drive.
    pub name: &'a DriveName,
    /// How the user confirms.
    pub confirmation: &'a Confirmation,
    /// Where to write records.
    pub audit: AuditLog,
}

/// Runs the gate for a real (non dry-run) job: in-use check on every path, confirmation.
/// The caller then writes the start record ([`Cleared::start`]) and proceeds.
pub fn clear(
    host: &dyn HostView,
    req: GateRequest<'_>,
    prompter: &mut dyn Prompter,
) -> Result<Cleared> {
    let paths = check_not_in_use(host, req.address)?;
    let started = SystemTime::now();
    let nanos = started
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let job_id = format!("{:x}-{:x}", nanos, std::process::id());
    // One job per drive (src/ops/gate/lock.rs), taken before the confirmation prompt.
    let lock = lock::for_job(req.job, &job_id, req.address, req.name)?;
    let confirmed = confirm(req.job, req.address, req.name, req.confirmation, prompter);
    if let Err(crate::Error::Refused(Refusal::ConfirmationInterrupted { .. })) = &confirmed {
        // The audit log says that someone started a destructive job here and stopped it.
        let _ = record_interrupted(&req.audit, req.job, req.address, "confirmation");
    }
    confirmed?;
    Ok(Cleared {
        job_id,
        _lock: lock,
        paths,
        started,
        audit: req.audit,
        job: req.job.to_string(),
        address: req.address.to_string(),
    })
}

/// Opens the records of a job that changes a drive's state without destroying data or
/// making it unavailable (a background self-test, a mode page change): no in-use check and
/// no confirmation, but the one-job-per-drive lock and the audit start/end records as for
/// [`clear`]. The paths are recorded as far as the host view finds them.
pub fn record_only(
    host: &dyn HostView,
    job: &str,
    address: &str,
    name: &DriveName,
    audit: AuditLog,
) -> Result<Cleared> {
    let paths = host.paths_of(address).unwrap_or_default();
    let started = SystemTime::now();
    let nanos = started
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let job_id = format!("{:x}-{:x}", nanos, std::process::id());
    let lock = lock::for_job(job, &job_id, address, name)?;
    Ok(Cleared {
        job_id,
        _lock: lock,
        paths,
        started,
        audit,
        job: job.to_string(),
        address: address.to_string(),
    })
}

/// Appends the record of a job stopped by Ctrl-C before anything was sent to the drive
/// (`phase`: `confirmation` at the prompt, `gate` between the gate and the job's start).
pub(crate) fn record_interrupted(
    audit: &AuditLog,
    job: &str,
    address: &str,
    phase: &str,
) -> Result<()> {
    audit.append(&json!({
        "event": "interrupted",
        "time": rfc3339(SystemTime::now()),
        "job": job,
        "device": address,
        "phase": phase,
        "sent": false,
        "host": hostname(),
        "uid": current_uid(),
        "tool": format!("sgctl {}", env!("CARGO_PKG_VERSION")),
    }))
}

/// A token for the library's own unit tests of the state-changing operations (the mock
/// drive has no host to check). Not compiled outside `cargo test`.
#[cfg(test)]
pub(crate) fn test_token() -> Cleared {
    Cleared {
        job_id: "test".into(),
        paths: vec![],
        started: SystemTime::now(),
        audit: AuditLog::at("/dev/null"),
        job: "test".into(),
        address: "mock:test".into(),
        _lock: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{InUse, LinuxHost};
    use crate::Error;
    use std::fs;

    /// A fake host tree: one dual-ported LU (sdb at 1:0:0:0 and sdc at 2:0:0:0, same wwid),
    /// sdb1 a partition, a second disk sdd that is free.
    fn fake_host() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        let mk = |p: &str| fs::create_dir_all(r.join(p)).unwrap();
        let wr = |p: &str, s: &str| {
            fs::create_dir_all(r.join(p).parent().unwrap()).unwrap();
            fs::write(r.join(p), s).unwrap();
        };
        for (hctl, blk, sg, wwid) in [
            ("1:0:0:0", "sdb", "sg1", "naa.5000c500deadbeef"),
            ("2:0:0:0", "sdc", "sg2", "naa.5000c500deadbeef"),
            ("3:0:0:0", "sdd", "sg3", "naa.5000c500cafef00d"),
        ] {
            wr(&format!("sys/class/scsi_device/{hctl}/device/wwid"), wwid);
            mk(&format!("sys/class/scsi_device/{hctl}/device/block/{blk}"));
            mk(&format!(
                "sys/class/scsi_device/{hctl}/device/scsi_generic/{sg}"
            ));
            mk(&format!(
                "sys/class/scsi_generic/{sg}/device/scsi_device/{hctl}"
            ));
            mk(&format!("sys/class/block/{blk}/device/scsi_device/{hctl}"));
            mk(&format!("sys/class/block/{blk}/holders"));
        }
        wr("sys/class/block/sdb/dev", "8:16");
        wr("sys/class/block/sdc/dev", "8:32");
        wr("sys/class/block/sdd/dev", "8:48");
        wr("sys/class/block/sdb/sdb1/partition", "1");
        wr("sys/class/block/sdb1/dev", "8:17");
        mk("sys/class/block/sdb1/holders");
        wr(
            "proc/self/mountinfo",
            "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n",
        );
        wr(
            "proc/swaps",
            "Filename Type Size Used Priority\n/dev/sda2 partition 1 0 -2\n",
        );
        d
    }

    #[test]
    fn groups_both_ports_by_wwid() {
        let d = fake_host();
        let h = LinuxHost::with_root(d.path());
        for addr in ["/dev/sg1", "/dev/sdc", "/dev/bsg/1:0:0:0"] {
            let paths = h.paths_of(addr).unwrap();
            let mut blocks: Vec<_> = paths.iter().filter_map(|p| p.block.clone()).collect();
            blocks.sort();
            assert_eq!(blocks, vec!["sdb", "sdc"], "{addr}");
        }
        assert_eq!(h.paths_of("/dev/sdd").unwrap().len(), 1);
        assert!(h
            .in_use(&h.paths_of("/dev/sg1").unwrap())
            .unwrap()
            .is_empty());
        assert!(h.paths_of("/dev/sg9").is_err());
    }

    #[test]
    fn mounted_partition_refuses_on_either_port() {
        let d = fake_host();
        fs::write(
            d.path().join("proc/self/mountinfo"),
            "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n40 22 8:17 / /mnt/data\\040x rw - xfs /dev/sdb1 rw\n",
        )
        .unwrap();
        let h = LinuxHost::with_root(d.path());
        for addr in ["/dev/sg1", "/dev/sg2", "/dev/sdc"] {
            let e = check_not_in_use(&h, addr).unwrap_err();
            assert!(matches!(e, Error::Refused(_)), "{addr}");
            assert!(
                e.to_string().contains("sdb1 is mounted on /mnt/data x"),
                "{e}"
            );
        }
        assert!(check_not_in_use(&h, "/dev/sdd").is_ok());
    }

    #[test]
    fn boot_disk_swap_and_holders() {
        let d = fake_host();
        let r = d.path();
        // sdd1 is a PV under dm-0 which carries /; sdb is swap; sdc held by md0? (same LU as sdb)
        fs::create_dir_all(r.join("sys/class/block/sdd/sdd1")).unwrap();
        fs::write(r.join("sys/class/block/sdd/sdd1/partition"), "1").unwrap();
        fs::create_dir_all(r.join("sys/class/block/sdd1/holders/dm-0")).unwrap();
        fs::create_dir_all(r.join("sys/class/block/dm-0/holders")).unwrap();
        fs::create_dir_all(r.join("sys/class/block/dm-0/dm")).unwrap();
        fs::write(r.join("sys/class/block/dm-0/dm/name"), "vg-root").unwrap();
        fs::write(r.join("sys/class/block/dm-0/dev"), "254:0").unwrap();
        fs::write(
            r.join("proc/self/mountinfo"),
            "22 1 254:0 / / rw - ext4 /dev/mapper/vg-root rw\n",
        )
        .unwrap();
        fs::write(
            r.join("proc/swaps"),
            "Filename Type Size Used Priority\n/dev/sdc partition 1 0 -2\n",
        )
        .unwrap();
        let h = LinuxHost::with_root(r);
        let busy = h.in_use(&h.paths_of("/dev/sdd").unwrap()).unwrap();
        assert!(busy.contains(&InUse::BootDisk {
            device: "dm-0".into()
        }));
        assert!(busy.contains(&InUse::Held {
            device: "sdd1".into(),
            holder: "dm-0".into()
        }));
        let busy = h.in_use(&h.paths_of("/dev/sg1").unwrap()).unwrap();
        assert_eq!(
            busy,
            vec![InUse::Swap {
                device: "sdc".into()
            }]
        );
    }

    #[test]
    fn sim_devices_are_never_in_use() {
        let h = LinuxHost::with_root("/nonexistent");
        assert!(check_not_in_use(&h, "sim:px02smf080").is_ok());
    }

    struct Scripted(Vec<String>);
    impl Prompter for Scripted {
        fn ask(&mut self, _q: &str) -> Option<String> {
            self.0.pop()
        }
    }

    #[test]
    fn confirmation_rules() {
        let n = DriveName {
            serial: "X7R0A0AHT".into(),
            wwn: Some("5000c500deadbeef".into()),
        };
        let none = &mut Scripted(vec![]);
        let tok = |t: &[&str]| Confirmation {
            tokens: t.iter().map(|s| s.to_string()).collect(),
            interactive: false,
        };
        assert!(confirm("format", "d", &n, &tok(&["X7R0A0AHT"]), none).is_ok());
        assert!(confirm("format", "d", &n, &tok(&["0x5000C500DEADBEEF"]), none).is_ok());
        assert!(confirm("format", "d", &n, &tok(&["naa.5000c500deadbeef"]), none).is_ok());
        assert!(confirm("format", "d", &n, &tok(&["other", "X7R0A0AHT"]), none).is_ok());
        for bad in [
            &[][..],
            &["x7r0a0aht"][..],
            &[""][..],
            &["yes"][..],
            &["X7R0A0AH"][..],
        ] {
            let e = confirm("format", "d", &n, &tok(bad), none).unwrap_err();
            assert!(matches!(e, Error::Refused(_)), "{bad:?}");
        }
        // Interactive: the typed serial is accepted; a wrong one and no terminal are refused.
        let inter = Confirmation {
            tokens: vec![],
            interactive: true,
        };
        assert!(confirm(
            "format",
            "d",
            &n,
            &inter,
            &mut Scripted(vec!["X7R0A0AHT".into()])
        )
        .is_ok());
        assert!(confirm(
            "format",
            "d",
            &n,
            &inter,
            &mut Scripted(vec!["nope".into()])
        )
        .is_err());
        assert!(confirm("format", "d", &n, &inter, &mut Scripted(vec![])).is_err());
        // A drive without serial or WWN can never be confirmed by an empty string.
        let blank = DriveName::default();
        assert!(confirm("format", "d", &blank, &tok(&[""]), none).is_err());
    }

    #[test]
    fn audit_log_appends_json_lines() {
        let d = tempfile::tempdir().unwrap();
        let log = AuditLog::at(d.path().join("sub/audit.jsonl"));
        let host = LinuxHost::with_root("/nonexistent");
        let n = DriveName {
            serial: "S1".into(),
            wwn: None,
        };
        let c = clear(
            &host,
            GateRequest {
                job: "sanitize",
                address: "sim:x",
                name: &n,
                confirmation: &Confirmation {
                    tokens: vec!["S1".into()],
                    interactive: false,
                },
                audit: log.clone(),
            },
            &mut Scripted(vec![]),
        )
        .unwrap();
        c.record_start(json!({"method": "crypto"})).unwrap();
        c.record_end("success", json!({})).unwrap();
        let text = fs::read_to_string(log.path()).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["event"], "start");
        assert_eq!(lines[1]["event"], "end");
        assert_eq!(lines[0]["job_id"], lines[1]["job_id"]);
        assert_eq!(lines[1]["outcome"], "success");
    }
}
