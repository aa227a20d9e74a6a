//! Helpers shared by every test module: running the built `sgctl` binary.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// A temporary audit log shared by the tests of this process, so no test writes to the
/// default `/var/log/sgctl/audit.jsonl` (a module that checks audit records sets its own
/// `SGCTL_AUDIT_LOG`, which overrides this one). It lives in a private, randomly named
/// directory under cargo's target tmp, not under a predictable name in the shared `/tmp`; a
/// static is never dropped, so the directory stays there for inspection until `cargo clean`.
fn default_audit_log() -> &'static PathBuf {
    static PATH: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &PATH
        .get_or_init(|| {
            let dir = tempfile::Builder::new()
                .prefix("it-audit-")
                .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
                .expect("create the tests' audit directory");
            let log = dir.path().join("audit.jsonl");
            (dir, log)
        })
        .1
}

/// `sgctl` as built for this test run, with the audit log in a temporary directory and no
/// signing key or operator inherited from the caller's environment.
pub(crate) fn sgctl_cmd() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sgctl"));
    c.env("SGCTL_AUDIT_LOG", default_audit_log())
        .env_remove("SGCTL_SIGNING_KEY")
        .env_remove("SGCTL_OPERATOR");
    c
}

/// Runs `sgctl ARGS`: (exit code, stdout, stderr).
pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
    let out = sgctl_cmd().args(args).output().expect("run sgctl");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `sgctl ARGS` with its audit log at `audit`: (exit code, stdout, stderr).
pub(crate) fn run_audited(args: &[&str], audit: &std::path::Path) -> (i32, String, String) {
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

/// The CDBs (spaced hex) of the command `name` (`Mode select(10)`, `Send diagnostic`, ...) in
/// the trace `sgctl -v` writes to stderr, in the order sent.
pub(crate) fn cdbs(trace: &str, name: &str) -> Vec<String> {
    let prefix = format!("{name} cdb: ");
    trace
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix(prefix.as_str()))
        .map(|l| l.split("  ").next().unwrap_or("").to_string())
        .collect()
}

/// A virtual drive of one test: its state file (`drive.json`) and its audit log
/// (`audit.jsonl`) in a temporary directory that goes with it, so each test has a drive of
/// its own that keeps its state between `sgctl` runs.
pub(crate) struct SimDrive {
    dir: tempfile::TempDir,
    profile: &'static str,
    serial: String,
    trace: bool,
}

impl SimDrive {
    /// A fresh drive of `profile` with the serial number `serial` (64 Ki blocks, virtual clock).
    pub(crate) fn new(profile: &'static str, serial: &str) -> SimDrive {
        SimDrive {
            dir: tempfile::tempdir().expect("temporary directory"),
            profile,
            serial: serial.into(),
            trace: false,
        }
    }

    /// Runs `sgctl` with `-v`: stderr carries the CDB trace.
    pub(crate) fn traced(mut self) -> SimDrive {
        self.trace = true;
        self
    }

    /// The drive's `sim:` address, with `extra` (`&key=value...`) appended to its options.
    pub(crate) fn addr(&self, extra: &str) -> String {
        format!(
            "sim:{}?clock=virtual&capacity_blocks=65536&serial={}&state={}{extra}",
            self.profile,
            self.serial,
            self.dir.path().join("drive.json").display()
        )
    }

    /// The temporary directory (for certificates and other files of the test).
    pub(crate) fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// The drive's serial number.
    pub(crate) fn serial(&self) -> &str {
        &self.serial
    }

    /// The drive opened through the library (a power cycle, as every open of a state file).
    pub(crate) fn open(&self) -> sgctl::sim::SimDevice {
        sgctl::sim::open(self.addr("").trim_start_matches("sim:")).expect("open the virtual drive")
    }

    /// The audit log its jobs write.
    pub(crate) fn audit(&self) -> PathBuf {
        self.dir.path().join("audit.jsonl")
    }

    /// Runs `sgctl --json ARGS` (with `-v` when [`SimDrive::traced`]) with this drive's audit
    /// log: (exit code, the JSON document or null, stderr).
    pub(crate) fn sgctl(&self, args: &[&str]) -> (i32, serde_json::Value, String) {
        let mut c = sgctl_cmd();
        if self.trace {
            c.arg("-v");
        }
        let out = c
            .arg("--json")
            .args(args)
            .env("SGCTL_AUDIT_LOG", self.audit())
            .output()
            .expect("run sgctl");
        (
            out.status.code().unwrap_or(-1),
            serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// What poppler reads in the PDF `pdf`: `pdfinfo`'s output (title, pages, ...) and
/// `pdftotext`'s. `None` when poppler-utils is not installed, which fails the test under
/// `SGCTL_REQUIRE_POPPLER=1` (as scripts/test-all.sh runs it).
pub(crate) fn pdf_info_and_text(pdf: &std::path::Path) -> Option<(String, String)> {
    let Ok(info) = Command::new("pdfinfo").arg(pdf).output() else {
        assert!(
            std::env::var("SGCTL_REQUIRE_POPPLER").as_deref() != Ok("1"),
            "pdfinfo not found but SGCTL_REQUIRE_POPPLER=1"
        );
        return None;
    };
    let out = Command::new("pdftotext")
        .args([pdf.to_str().unwrap(), "-"])
        .output()
        .unwrap();
    Some((
        String::from_utf8_lossy(&info.stdout).into_owned(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}
