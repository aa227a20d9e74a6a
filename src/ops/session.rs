//! The gated session: the one shape of every state-changing run on a drive — the safety gate
//! ([`safety::clear`], or [`safety::record_only`] for what neither destroys data nor needs a
//! confirmation) hands out [`Cleared`], [`Cleared::start`] writes the audit start record, the
//! work runs, [`Started::end`] writes the end record. The job runner (`ops::jobs`), `logs
//! --reset` and the benchmark's sessions (`bench::run`, `bench::suite::session`) go through
//! it; [`Cleared::session`] is the whole sequence for work that is one step.
//!
//! [`safety::clear`]: crate::ops::safety::clear
//! [`safety::record_only`]: crate::ops::safety::record_only

use crate::error::{Refusal, Result};
use crate::ops::safety::Cleared;
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
