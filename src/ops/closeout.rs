//! Finishing a job whose watcher stopped: Ctrl-C, SIGTERM, SIGHUP or a lost session end a
//! sanitize's watching, not the sanitize (it goes on in the drive and resumes after a power
//! cycle). `sgctl wait` finds the job in the audit log (its start record, and the
//! `interrupted` end record with the validation's before-hashes), watches the drive to the
//! end, validates, writes the end record and the certificate the job was started with.
//!
//! [`open_jobs`] is also what `sgctl audit verify` lists: jobs that never ended (a start
//! without an end record) and jobs interrupted and not finished since.

use crate::clock::rfc3339;
use crate::error::{Error, Result};
use crate::exit;
use crate::ops::audit::AuditLog;
use crate::ops::gate::PlannedCommand;
use crate::ops::poll::{self, PollConfig, PollEnd, Trail, TrailEntry};
use crate::ops::record::{
    write_certificate_to, Category, DriveInfo, JobMethod, JobRecord, Outcome, TechniqueVerification,
};
use crate::ops::sanitize::{conclude, verify_after};
use crate::ops::validate::Validation;
use crate::transport::Transport;
use serde::Serialize;
use serde_json::{json, Value};
use std::time::{Instant, SystemTime};

/// A job of the audit log that has not ended, or ended `interrupted` and was not finished.
#[derive(Debug, Clone, Serialize)]
pub struct OpenJob {
    /// The job id.
    pub job_id: String,
    /// 1-based line of its start record.
    pub line: usize,
    /// `sanitize`, `format`, ...
    pub job: String,
    /// Device address used.
    pub device: String,
    /// The drive's serial number, from the start record.
    pub serial: Option<String>,
    /// `no_end_record` or `interrupted`.
    pub state: &'static str,
    /// The start record.
    #[serde(skip)]
    pub start: Value,
    /// The `interrupted` end record.
    #[serde(skip)]
    pub end: Option<Value>,
}

/// The jobs of an audit log that never ended, in the order they started. Lines that are not
/// JSON are skipped (`audit verify` reports them).
pub fn open_jobs(content: &[u8]) -> Vec<OpenJob> {
    let mut open: Vec<OpenJob> = Vec::new();
    for (i, line) in content.split(|&b| b == b'\n').enumerate() {
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        let Some(id) = v.get("job_id").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        let txt = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        match v.get("event").and_then(Value::as_str) {
            Some("start") => {
                open.retain(|j| j.job_id != id);
                open.push(OpenJob {
                    job_id: id,
                    line: i + 1,
                    job: txt("job"),
                    device: txt("device"),
                    serial: v["details"]["drive"]["serial"].as_str().map(str::to_string),
                    state: "no_end_record",
                    start: v.clone(),
                    end: None,
                });
            }
            Some("end") => {
                if v.get("outcome").and_then(Value::as_str) == Some("interrupted") {
                    if let Some(j) = open.iter_mut().find(|j| j.job_id == id) {
                        j.state = "interrupted";
                        j.end = Some(v.clone());
                    }
                } else {
                    open.retain(|j| j.job_id != id);
                }
            }
            _ => {}
        }
    }
    open
}

/// The latest open sanitize of the drive with serial `serial` in the log at `audit`.
pub fn find(audit: &AuditLog, serial: &str) -> Result<Option<OpenJob>> {
    let content = match std::fs::read(audit.path()) {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::io(
                format!("audit log {}", audit.path().display()),
                e,
            ))
        }
    };
    Ok(open_jobs(&content)
        .into_iter()
        .rev()
        .find(|j| j.job == "sanitize" && j.serial.as_deref() == Some(serial)))
}

fn de<T: serde::de::DeserializeOwned + Default>(v: &Value) -> T {
    serde_json::from_value(v.clone()).unwrap_or_default()
}

/// Watches the drive of `job` to the end, then validates (with the before-hashes of the
/// interrupted record), writes the end record to `audit` and the certificate named in the
/// start record. A watch stopped again leaves the job open (outcome `interrupted`).
pub fn finish(
    t: &mut dyn Transport,
    job: &OpenJob,
    cfg: &PollConfig,
    audit: &AuditLog,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<JobRecord> {
    let d = &job.start["details"];
    let co = &d["close_out"];
    // A bad signing key fails before anything else (nothing here changes the drive).
    let signer = crate::ops::sign::CertSigner::resolve(
        co.get("signing_key")
            .and_then(Value::as_str)
            .map(std::path::Path::new),
    )?;
    let mut rec = JobRecord::new(&job.job, &job.device);
    rec.job_id = Some(job.job_id.clone());
    rec.drive = de::<DriveInfo>(&d["drive"]);
    rec.parameters = d["parameters"].clone();
    rec.commands = de::<Vec<PlannedCommand>>(&d["commands"]);
    rec.method = co["method"].as_str().and_then(JobMethod::from_name);
    let cat = |k: &str| co[k].as_str().map(Category::from_name);
    rec.nist_sp_800_88_category = cat("nist_sp_800_88_category");
    rec.ieee_2883_category = cat("ieee_2883_category");
    rec.scope = (!co["scope"].is_null()).then(|| de(&co["scope"]));
    rec.operator = co["operator"].as_str().map(str::to_string);
    rec.started = job.start["time"].as_str().map(str::to_string);
    let end = job.end.clone().unwrap_or(Value::Null);
    let mut trail = Trail(de::<Vec<TrailEntry>>(&end["details"]["sense_trail"]));
    let t0 = Instant::now();
    let mut max_seen: Option<f64> = None;
    let r = poll::poll(t, cfg, &mut trail, &mut |p| {
        if let Some(x) = p {
            max_seen = Some(max_seen.map_or(x, |m: f64| m.max(x)));
        }
        progress(p)
    })?;
    rec.sense_trail = trail.0.clone();
    let mut tv = TechniqueVerification {
        command_accepted: true,
        progress_max_percent: max_seen,
        result: "unknown".into(),
        ..Default::default()
    };
    let mut validation: Option<Validation> =
        (!co["validation"].is_null()).then(|| de(&co["validation"]));
    match r {
        PollEnd::Interrupted => {
            rec.outcome = Outcome::Interrupted;
            rec.exit_status = exit::OTHER;
            rec.message = Some("stopped watching again; the drive goes on".into());
            rec.technique_verification = Some(tv);
            return Ok(rec);
        }
        PollEnd::Failed(s) => {
            tv.result = "not_completed".into();
            rec.outcome = Outcome::Failed;
            rec.exit_status = exit::COMMAND;
            rec.message = Some(format!("SANITIZE failed: {s}"));
        }
        PollEnd::Done => {
            let clean = poll::classify_sense(crate::ops::query::request_sense(t)?.as_ref())
                == poll::Condition::Clean;
            tv.completed_without_failure = true;
            tv.ready_after = Some(clean);
            tv.result = if clean { "completed" } else { "not_completed" }.into();
            let before: Vec<(u64, Option<String>, bool)> = de(&end["details"]["resume"]["before"]);
            let cap = crate::ops::query::read_capacity16(t)?;
            let v = (!before.is_empty()).then(|| verify_after(t, cap.block_len, &before));
            if let Some(va) = validation.as_mut() {
                conclude(va, v.as_ref());
                if v.is_none() && va.plan != "none" {
                    va.description.push_str(
                        " (the before-hashes were not recorded: the job ended without an \
                         interrupted record, so nothing could be compared)",
                    );
                }
            }
            let ok = clean && v.as_ref().is_none_or(|v| v.passed);
            rec.verification = v;
            (rec.outcome, rec.exit_status) = if ok {
                (Outcome::Success, exit::OK)
            } else if !clean {
                (Outcome::Failed, exit::COMMAND)
            } else {
                rec.message = Some("validation failed: sampled data survived".into());
                (Outcome::CheckFailed, exit::CHECK_FAILED)
            };
        }
    }
    rec.technique_verification = Some(tv);
    rec.validation = validation;
    rec.ended = Some(rfc3339(SystemTime::now()));
    rec.duration_s = Some(t0.elapsed().as_secs_f64());
    rec.advice = Some(format!(
        "finished by `sgctl wait` after the job's own watching stopped (start record at line {} of {})",
        job.line,
        audit.path().display()
    ));
    audit.append(&json!({
        "event": "end",
        "time": rec.ended,
        "job_id": job.job_id,
        "job": job.job,
        "device": job.device,
        "outcome": rec.outcome.as_str(),
        "finished_by": "wait",
        "details": {"exit_status": rec.exit_status, "message": rec.message,
                    "sense_trail": rec.sense_trail, "verification": rec.verification,
                    "validation": rec.validation, "scope": rec.scope,
                    "technique_verification": rec.technique_verification},
    }))?;
    if let Some(path) = co["certificate"].as_str() {
        // The interrupted run wrote this job's certificate (NOT SANITIZED, interrupted) at the
        // path its start record names: the finished record replaces it (atomically, never
        // through a symlink).
        write_certificate_to(
            std::path::Path::new(path),
            &[rec.clone()],
            signer.as_ref(),
            crate::files::Replace::Always,
        )?;
    }
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_jobs_are_those_without_a_final_end() {
        let log = [
            json!({"event": "start", "job_id": "a", "job": "sanitize", "device": "d",
                   "details": {"drive": {"serial": "S1"}}}),
            json!({"event": "end", "job_id": "a", "outcome": "success"}),
            json!({"event": "start", "job_id": "b", "job": "sanitize", "device": "d",
                   "details": {"drive": {"serial": "S1"}}}),
            json!({"event": "end", "job_id": "b", "outcome": "interrupted"}),
            json!({"event": "start", "job_id": "c", "job": "format", "device": "e"}),
        ]
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("\n");
        let o = open_jobs(log.as_bytes());
        let ids: Vec<(&str, &str)> = o.iter().map(|j| (j.job_id.as_str(), j.state)).collect();
        assert_eq!(ids, vec![("b", "interrupted"), ("c", "no_end_record")]);
        assert_eq!(o[0].line, 3);
        // Finished later: no longer open.
        let done = format!(
            "{log}\n{}",
            json!({"event": "end", "job_id": "b", "outcome": "success"})
        );
        assert_eq!(open_jobs(done.as_bytes()).len(), 1);
    }
}
