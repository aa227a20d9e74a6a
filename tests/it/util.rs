//! Helpers shared by every test module: running the built `sgctl` binary.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// A temporary audit log shared by the tests of this process, so no test writes to the
/// default `/var/log/sgctl/audit.jsonl` (a module that checks audit records sets its own
/// `SGCTL_AUDIT_LOG`, which overrides this one).
fn default_audit_log() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("sgctl-it-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the tests' audit directory");
        dir.join("audit.jsonl")
    })
}

/// `sgctl` as built for this test run, with the audit log in a temporary directory and no
/// signing key or operator inherited from the caller's environment.
pub fn sgctl_cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sgctl"));
    c.env("SGCTL_AUDIT_LOG", default_audit_log())
        .env_remove("SGCTL_SIGNING_KEY")
        .env_remove("SGCTL_OPERATOR");
    c
}

/// Runs `sgctl ARGS`: (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = sgctl_cmd().args(args).output().expect("run sgctl");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `sgctl ARGS` with its audit log at `audit`: (exit code, stdout, stderr).
pub fn run_audited(args: &[&str], audit: &std::path::Path) -> (i32, String, String) {
    let out = sgctl_cmd()
        .args(args)
        .env("SGCTL_AUDIT_LOG", audit)
        .output()
        .expect("run sgctl");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
