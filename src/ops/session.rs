//! The gated session: the one shape of every state-changing run on a drive — the safety gate
//! ([`gate::clear`], or [`gate::record_only`] for what neither destroys data nor needs a
//! confirmation) hands out [`Cleared`], [`Cleared::start`] writes the audit start record, the
//! work runs, [`Started::end`] writes the end record. The job runner (`ops::jobs`), `logs
//! --reset` and the benchmark's sessions (`bench::run`, `bench::suite::session`) go through
//! it; [`Cleared::session`] is the whole sequence for work that is one step.
//!
//! [`gate::clear`]: crate::ops::gate::clear
//! [`gate::record_only`]: crate::ops::gate::record_only

use crate::error::{Refusal, Result};
use crate::ops::gate::Cleared;
use serde_json::Value;
use std::path::Path;

/// A session whose audit start record is written: its end record follows
/// ([`Started::end`]), once.
#[must_use = "a started session ends with its end record"]
#[derive(Debug)]
pub struct Started<'a> {
    cleared: &'a Cleared,
}

impl Cleared {
    /// Writes the audit start record (`details`: what is about to be done). The work must not
    /// begin when it fails: the error is [`Refusal::AuditUnwritable`] (nothing was sent).
    pub fn start(&self, details: Value) -> Result<Started<'_>> {
        self.record_start(details).map_err(|e| {
            crate::Error::from(Refusal::AuditUnwritable {
                reason: e.to_string(),
            })
        })?;
        Ok(Started { cleared: self })
    }

    /// The whole session for work that is one step: the start record, `work`, the end record
    /// `end` makes of the work's result (outcome, details). The work's error comes first; an
    /// end record that cannot be written is the error of work that succeeded.
    pub fn session<T>(
        &self,
        start: Value,
        work: impl FnOnce() -> Result<T>,
        end: impl FnOnce(&Result<T>) -> (&'static str, Value),
    ) -> Result<T> {
        let started = self.start(start)?;
        let r = work();
        let (outcome, details) = end(&r);
        let ended = started.end(outcome, details);
        let v = r?;
        ended?;
        Ok(v)
    }
}

impl Started<'_> {
    /// Writes the end record: `outcome` (`success`, `failure`, `interrupted`, ...) and what
    /// the work did.
    pub fn end(self, outcome: &str, details: Value) -> Result<()> {
        self.cleared.record_end(outcome, details)
    }

    /// The job id tying the start and end records together.
    pub fn job_id(&self) -> &str {
        &self.cleared.job_id
    }

    /// The audit log the records go to.
    pub fn audit_path(&self) -> &Path {
        self.cleared.audit_path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::host::LinuxHost;
    use crate::ops::audit::AuditLog;
    use crate::ops::gate::{record_only, DriveName};
    use serde_json::json;

    fn token(audit: &Path) -> Cleared {
        let name = DriveName {
            serial: "S1".into(),
            wwn: None,
        };
        let host = LinuxHost::with_root("/nonexistent");
        record_only(&host, "test", "sim:x", &name, AuditLog::at(audit)).unwrap()
    }

    fn records(p: &Path) -> Vec<Value> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn a_session_writes_its_start_then_its_end_with_the_outcome() {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("audit.jsonl");
        let c = token(&log);
        let v = c
            .session(
                json!({"what": "x"}),
                || Ok(7),
                |_| ("success", json!({"n": 1})),
            )
            .unwrap();
        assert_eq!(v, 7);
        let r = records(&log);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0]["event"], "start");
        assert_eq!(r[0]["details"]["what"], "x");
        assert_eq!(r[1]["event"], "end");
        assert_eq!(r[1]["outcome"], "success");
        assert_eq!(r[0]["job_id"], r[1]["job_id"]);
    }

    #[test]
    fn failed_work_ends_its_record_and_returns_its_own_error() {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("audit.jsonl");
        let c = token(&log);
        let r: crate::Result<()> = c.session(
            json!({}),
            || Err(Error::InvalidArgument("no".into())),
            |r| {
                (
                    "failure",
                    json!({"error": r.as_ref().err().map(|e| e.to_string())}),
                )
            },
        );
        assert!(matches!(r, Err(Error::InvalidArgument(_))));
        let recs = records(&log);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1]["outcome"], "failure");
        assert_eq!(recs[1]["details"]["error"], "no");
    }

    #[test]
    fn an_unwritable_audit_log_refuses_before_the_work() {
        let d = tempfile::tempdir().unwrap();
        // The log's directory is a regular file: nothing can be appended under it.
        let file = d.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let c = token(&file.join("audit.jsonl"));
        let mut ran = false;
        let r = c.session(
            json!({}),
            || {
                ran = true;
                Ok(())
            },
            |_| ("success", json!({})),
        );
        assert!(!ran, "the work ran without its start record");
        assert!(
            matches!(r, Err(Error::Refused(Refusal::AuditUnwritable { .. }))),
            "{r:?}"
        );
    }
}
