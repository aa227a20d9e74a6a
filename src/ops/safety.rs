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
//! 6. One job per drive at a time: a lock keyed by the LU name ([`super::lock`]), held until
//!    the job ends; a second job on the same LU (either port) is refused naming the first.
//!
//! Everything the gate learns about the host comes through [`HostView`], so tests fake it.

use crate::error::{Refusal, Result};
use crate::transport::{Completion, DataBuf, Transport};
use serde::Serialize;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Default audit log (documented in `sgctl format --help`/`sanitize --help` and the README).
pub const DEFAULT_AUDIT_LOG: &str = "/var/log/sgctl/audit.jsonl";
/// Environment variable overriding [`DEFAULT_AUDIT_LOG`].
pub const AUDIT_LOG_ENV: &str = "SGCTL_AUDIT_LOG";

pub use crate::host::{InUse, PathInfo};

pub use crate::host::{HostView, LinuxHost};

/// The host as discovery sees it: paths grouped by the LU name each path reports
/// over SG_IO (`discover::paths_of`), in-use state from the mount table, swaps and holders.
/// This is what the CLI's destructive commands use; [`LinuxHost`] is the sysfs-only view
/// (grouping by the kernel's `wwid`) that discovery itself builds on.
#[derive(Debug, Clone, Default)]
pub struct DiscoverHost;

impl HostView for DiscoverHost {
    fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>> {
        if crate::device::is_virtual_address(address) {
            // In-process drive: no host node can mount it (and opening it again for
            // identification would contend for its state file).
            return Ok(vec![PathInfo::default()]);
        }
        let d = crate::discover::paths_of(address)?;
        let paths: Vec<PathInfo> = d
            .paths
            .iter()
            .map(crate::discover::DrivePath::to_path_info)
            .collect();
        if paths.is_empty() {
            return Err(Refusal::NoPath {
                address: address.into(),
            }
            .into());
        }
        Ok(paths)
    }

    fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
        LinuxHost::default().in_use(paths)
    }

    fn slot_of(&self, paths: &[PathInfo]) -> Option<crate::discover::enclosure::SlotRef> {
        crate::discover::enclosure::slot_of_paths(std::path::Path::new("/"), paths)
    }
}

/// Identity the confirmation is checked against.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct DriveName {
    /// Unit serial number (VPD 0x80).
    pub serial: String,
    /// LU name (NAA from VPD 0x83), lowercase hex without prefix.
    pub wwn: Option<String>,
}

impl DriveName {
    /// True when `token` names this drive: the serial exactly, or the WWN with or without a
    /// `0x`/`naa.` prefix, any case. Empty identities never match.
    pub fn matches(&self, token: &str) -> bool {
        let t = token.trim();
        if t.is_empty() {
            return false;
        }
        if !self.serial.trim().is_empty() && t == self.serial.trim() {
            return true;
        }
        if let Some(w) = &self.wwn {
            let lower = t.to_ascii_lowercase();
            let bare = lower
                .strip_prefix("0x")
                .or_else(|| lower.strip_prefix("naa."))
                .unwrap_or(&lower);
            return !w.is_empty() && bare == w.to_ascii_lowercase();
        }
        false
    }

    /// `serial S, WWN W` as the refusals name the drive.
    pub fn describe(&self) -> String {
        match &self.wwn {
            Some(w) => format!("serial {:?}, WWN {w}", self.serial),
            None => format!("serial {:?}", self.serial),
        }
    }
}

/// How the user confirms.
#[derive(Debug, Clone, Default)]
pub struct Confirmation {
    /// `--confirm` values (one per drive; any of them may name a given drive).
    pub tokens: Vec<String>,
    /// Prompt on the terminal when no token names the drive (only if stdin is a TTY).
    pub interactive: bool,
}

/// The signals that stop a job's watching like Ctrl-C: SIGINT, SIGTERM (systemd stop,
/// `timeout`, an orchestrator's timeout) and SIGHUP (a lost terminal or SSH session). The
/// drive goes on; the record says `interrupted` and how to finish (`sgctl wait`).
pub const STOP_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Sets `flag` on any of [`STOP_SIGNALS`] (instead of the default action, which would end
/// the process without an end record); returns the registrations.
pub fn register_stop_signals(
    flag: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Vec<signal_hook::SigId> {
    STOP_SIGNALS
        .iter()
        .filter_map(|s| signal_hook::flag::register(*s, flag.clone()).ok())
        .collect()
}

/// Asks the user to type the drive's name (a terminal, or a script in tests).
pub trait Prompter {
    /// Shows `question` and returns the typed line, or `None` when nobody can answer.
    fn ask(&mut self, question: &str) -> Option<String>;
    /// True when the last [`Prompter::ask`] ended because the user pressed Ctrl-C (SIGINT).
    fn interrupted(&self) -> bool {
        false
    }
}

/// Nobody to ask (unattended runs): every question goes unanswered.
#[derive(Debug, Default)]
pub struct NoPrompter;

impl Prompter for NoPrompter {
    fn ask(&mut self, _question: &str) -> Option<String> {
        None
    }
}

/// Prompts on stderr, reads stdin — only when stdin is a terminal.
///
/// Ctrl-C at the prompt ends it (the question goes unanswered and [`Prompter::interrupted`]
/// says why), also when the caller has a SIGINT handler installed with `SA_RESTART`, which
/// would otherwise restart the blocked read and swallow the Ctrl-C: the prompt registers its
/// own flag for the time it waits and polls stdin.
#[derive(Debug, Default)]
pub struct TtyPrompter {
    interrupted: bool,
}

impl Prompter for TtyPrompter {
    fn ask(&mut self, question: &str) -> Option<String> {
        use std::io::IsTerminal;
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        self.interrupted = false;
        if !std::io::stdin().is_terminal() {
            return None;
        }
        let flag = Arc::new(AtomicBool::new(false));
        let ids = register_stop_signals(&flag);
        {
            // A closed stderr must not panic; the question names a drive (escaped).
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "{}", crate::escape::terminal_safe(question));
            let _ = e.flush();
        }
        let line = read_line_unless(&flag);
        for id in ids {
            signal_hook::low_level::unregister(id);
        }
        if flag.load(Ordering::SeqCst) {
            let _ = writeln!(std::io::stderr());
            self.interrupted = true;
            return None;
        }
        line.map(|l| l.trim().to_string())
    }

    fn interrupted(&self) -> bool {
        self.interrupted
    }
}

/// A [`TtyPrompter`] that asks in words of its own: a command that changes the drive without
/// erasing it (a stop, a foreground self-test, a reassignment, a counter reset) says what it
/// does instead of the gate's question, which talks about erasing data.
#[derive(Debug)]
pub struct WordedPrompter {
    tty: TtyPrompter,
    what: &'static str,
}

impl WordedPrompter {
    /// Asks with `what` (what the command does to the drive, `sgctl: ...`), then for the
    /// drive's serial number or WWN.
    pub fn new(what: &'static str) -> WordedPrompter {
        WordedPrompter {
            tty: TtyPrompter::default(),
            what,
        }
    }

    /// The question it shows.
    pub fn question(&self) -> String {
        format!("{}\nType its serial number or WWN to continue: ", self.what)
    }
}

impl Prompter for WordedPrompter {
    fn ask(&mut self, _question: &str) -> Option<String> {
        let q = self.question();
        self.tty.ask(&q)
    }

    fn interrupted(&self) -> bool {
        self.tty.interrupted()
    }
}

/// Reads one line from stdin, waiting in poll() a tenth of a second at a time so that `stop`
/// (set by a signal handler) ends the wait. `None` on end of file, error or `stop`.
fn read_line_unless(stop: &std::sync::atomic::AtomicBool) -> Option<String> {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    use std::sync::atomic::Ordering;
    let stdin = std::io::stdin();
    loop {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::from(100u16)) {
            Ok(0) | Err(nix::errno::Errno::EINTR) => continue,
            Ok(_) => break,
            Err(_) => return None,
        }
    }
    let mut line = String::new();
    match stdin.lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line),
    }
}

/// Checks the confirmation for one drive.
pub fn confirm(
    job: &str,
    address: &str,
    name: &DriveName,
    c: &Confirmation,
    prompter: &mut dyn Prompter,
) -> Result<()> {
    if c.tokens.iter().any(|t| name.matches(t)) {
        return Ok(());
    }
    if !c.tokens.is_empty() && !c.interactive {
        return Err(Refusal::NotNamed {
            address: address.into(),
            drive: name.describe(),
        }
        .into());
    }
    if c.interactive {
        let q = format!(
            "sgctl: {job} will DESTROY ALL DATA on {} ({}).\n\
             Type its serial number or WWN to continue: ",
            // The address is a value: a newline in it must not start a line of the question.
            crate::escape::escape(address),
            name.describe()
        );
        match prompter.ask(&q) {
            Some(typed) if name.matches(&typed) => return Ok(()),
            Some(_) => {
                return Err(Refusal::TypedMismatch {
                    address: address.into(),
                }
                .into())
            }
            None if prompter.interrupted() => {
                return Err(Refusal::ConfirmationInterrupted {
                    address: address.into(),
                    job: job.into(),
                }
                .into())
            }
            None => {}
        }
    }
    Err(Refusal::NeedsConfirmation {
        address: address.into(),
        job: job.into(),
        drive: name.describe(),
    }
    .into())
}

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
pub fn check_reservation(t: &mut dyn Transport, address: &str, allow: bool) -> Result<()> {
    crate::ops::reservations::check_not_reserved_by_other(t, address, allow)
}

/// True when a CDB may change the drive's state (data, format, mode, logs, security): the
/// "changes state" column of the one opcode table ([`crate::scsi::opcodes`]). Every opcode
/// not in the table counts as state-changing; ATA PASS-THROUGH is decided by the ATA command
/// inside.
pub fn is_state_changing(cdb: &[u8]) -> bool {
    crate::scsi::changes_state(cdb)
}

/// A transport wrapper for `--dry-run`: queries pass, anything state-changing is refused
/// before it reaches the device.
pub struct ReadOnly<T: Transport> {
    inner: T,
}

impl<T: Transport> ReadOnly<T> {
    /// Wraps `inner`.
    pub fn new(inner: T) -> Self {
        ReadOnly { inner }
    }
}

impl<T: Transport> Transport for ReadOnly<T> {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        if is_state_changing(cdb) {
            return Err(Refusal::DryRun {
                cdb: crate::bytes::hex(cdb),
            }
            .into());
        }
        self.inner.execute(cdb, data, timeout)
    }
    fn address(&self) -> String {
        self.inner.address()
    }
}

/// A borrowed transport as an owned one (so [`ReadOnly`] can wrap `&mut dyn Transport`).
pub struct ByRef<'a>(pub &'a mut dyn Transport);

impl Transport for ByRef<'_> {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        self.0.execute(cdb, data, timeout)
    }
    fn address(&self) -> String {
        self.0.address()
    }
}

/// A command a job would send, for `--dry-run` listings and the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PlannedCommand {
    /// What it is (`MODE SELECT(10)`, `FORMAT UNIT`, ...).
    pub name: String,
    /// CDB in hex.
    pub cdb: String,
    /// Data-out in hex (empty when none).
    pub data_out: String,
}

impl PlannedCommand {
    /// Builds from bytes.
    pub fn new(name: &str, cdb: &[u8], data_out: &[u8]) -> PlannedCommand {
        PlannedCommand {
            name: name.into(),
            cdb: spaced_hex(cdb),
            data_out: spaced_hex(data_out),
        }
    }

    /// One line: `FORMAT UNIT  cdb: 04 18 00 00 00 00  data: 00 02 00 00`.
    pub fn render(&self) -> String {
        if self.data_out.is_empty() {
            format!("{:<22} cdb: {}", self.name, self.cdb)
        } else {
            format!(
                "{:<22} cdb: {}  data: {}",
                self.name, self.cdb, self.data_out
            )
        }
    }
}

/// `04 18 00 00 00 00`.
pub fn spaced_hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

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

    /// Appends one record, hash-chained to the previous one ([`crate::ops::audit_chain`]),
    /// and flushes it to disk (file and, when created, its directory).
    pub fn append(&self, record: &Value) -> Result<()> {
        crate::ops::audit_chain::append(&self.path, record)
    }
}

pub use crate::clock::rfc3339;

/// The real user id (from `/proc/self`, no unsafe libc call).
pub fn current_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

/// The host name (for records).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
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
    _lock: Option<super::lock::JobLock>,
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
    // One job per drive (src/ops/lock.rs), taken before the confirmation prompt.
    let lock = super::lock::for_job(req.job, &job_id, req.address, req.name)?;
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
    let lock = super::lock::for_job(job, &job_id, address, name)?;
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
    use crate::Error;
    use std::fs;

    /// A command's own words replace the gate's question, followed by the one request the
    /// gate checks (the drive's name); no terminal, no answer.
    #[test]
    fn worded_prompter_asks_in_its_own_words() {
        let mut p = WordedPrompter::new("sgctl: power --stop stops the drive.");
        assert_eq!(
            p.question(),
            "sgctl: power --stop stops the drive.\nType its serial number or WWN to continue: "
        );
        if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            assert_eq!(p.ask("Erase all data on X?"), None);
            assert!(!p.interrupted());
        }
    }

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
    fn state_changing_classification() {
        assert!(!is_state_changing(&[0x12, 0, 0, 0, 36, 0]));
        assert!(!is_state_changing(&[
            0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0
        ]));
        assert!(is_state_changing(&[0x9e, 0x1c]));
        assert!(is_state_changing(&[0x9f, 0x11]));
        assert!(is_state_changing(&[0x04, 0x18, 0, 0, 0, 0]));
        assert!(is_state_changing(&[0x48, 0x83, 0, 0, 0, 0, 0, 0, 0, 0]));
        assert!(is_state_changing(&[0x55, 0x11]));
        assert!(is_state_changing(&[0x4c, 0x02]));
        assert!(is_state_changing(&[0x2a, 0]));
        assert!(is_state_changing(&[]));
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

    #[test]
    fn timestamps() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_millis(1_764_468_000_123);
        assert_eq!(rfc3339(t), "2025-11-30T02:00:00.123Z");
        assert_eq!(rfc3339(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
    }
}
