//! The audit log: every gated job's start and end records, appended as JSON Lines and
//! hash-chained ([`chain`]), each fsync'ed before the job goes on.

pub mod chain;

use crate::error::Result;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Default audit log (documented in `sgctl format --help`/`sanitize --help` and the README).
pub const DEFAULT_AUDIT_LOG: &str = "/var/log/sgctl/audit.jsonl";
/// Environment variable overriding [`DEFAULT_AUDIT_LOG`].
pub const AUDIT_LOG_ENV: &str = "SGCTL_AUDIT_LOG";

/// The append-only audit log (JSON Lines; each record fsync'ed before the job goes on).
#[derive(Debug, Clone)]
pub struct AuditLog {
    path: PathBuf,
}

impl AuditLog {
    /// `--audit-log`, else `$SGCTL_AUDIT_LOG`, else [`DEFAULT_AUDIT_LOG`].
    pub fn resolve(flag: Option<&Path>) -> AuditLog {
        let path = flag
            .map(Path::to_path_buf)
            .or_else(|| {
                std::env::var_os(AUDIT_LOG_ENV)
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .unwrap_or_else(|| PathBuf::from(DEFAULT_AUDIT_LOG));
        AuditLog { path }
    }

    /// A log at `path`.
    pub fn at(path: impl Into<PathBuf>) -> AuditLog {
        AuditLog { path: path.into() }
    }

    /// Where records go.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record, hash-chained to the previous one ([`crate::ops::audit::chain`]),
    /// and flushes it to disk (file and, when created, its directory).
    pub fn append(&self, record: &Value) -> Result<()> {
        crate::ops::audit::chain::append(&self.path, record)
    }
}
