//! The library's one error type (style.md rule 4). `anyhow` lives only in `main`/`cli`.

use crate::bytes::ParseError;
use crate::sense::Sense;
use serde::Serialize;
use thiserror::Error;

/// Everything that can go wrong talking to a drive.
#[derive(Debug, Error)]
pub enum Error {
    /// The device node could not be opened or the ioctl failed before reaching the device.
    #[error("{path}: {op}: {errno}{}", hint.map(|h| format!(" ({h})")).unwrap_or_default())]
    Os {
        /// What was attempted (`open`, `SG_IO`, ...).
        op: &'static str,
        /// The device path.
        path: String,
        /// errno.
        errno: nix::errno::Errno,
        /// A hint for the admin (for example CAP_SYS_RAWIO for EPERM).
        hint: Option<&'static str>,
    },
    /// The path exists but is not a SCSI generic/block/bsg node.
    #[error("{path}: not a SCSI device ({reason})")]
    NotScsi {
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The device address is malformed (bad `sim:` options, ...).
    #[error("bad device address '{address}': {reason}")]
    BadAddress {
        /// The address as given.
        address: String,
        /// Why.
        reason: String,
    },
    /// The command timed out (DID_TIME_OUT or DRIVER_TIMEOUT): the midlayer aborted it.
    #[error("command timed out (the kernel aborted it; the device may have reset)")]
    Timeout,
    /// A host adapter / transport error (DID_*).
    #[error("transport error: {}", status.name())]
    Host {
        /// The host byte.
        status: HostStatus,
    },
    /// A legacy driver byte error.
    #[error("driver error: driver status 0x{status:02x}")]
    Driver {
        /// The driver byte.
        status: u16,
    },
    /// CHECK CONDITION with decoded sense.
    #[error("{0}")]
    Sense(Box<Sense>),
    /// CHECK CONDITION whose sense could not be decoded.
    #[error("check condition with undecodable sense data: {reason}")]
    BadSense {
        /// Why.
        reason: String,
    },
    /// A non-GOOD status without sense (BUSY, RESERVATION CONFLICT, TASK SET FULL...).
    #[error("SCSI status {}", status_name(*status))]
    Status {
        /// The SAM status byte.
        status: u8,
    },
    /// The device answered with bytes we could not decode.
    // No `#[from]`/`#[source]`: the message already contains the ParseError, and a source
    // would make `{:#}` (anyhow, main) print it twice.
    #[error("malformed response: {0}")]
    Parse(ParseError),
    /// The device or this tool does not support what was asked.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// Refused by the safety gate (device in use, confirmation mismatch, ...) or by the
    /// drive's state (a sanitize already running).
    #[error("refused: {0}")]
    Refused(Refusal),
    /// A post-condition check failed (verification, threshold, size substitution).
    #[error("check failed: {0}")]
    CheckFailed(String),
    /// An argument was invalid.
    #[error("{0}")]
    InvalidArgument(String),
    /// An ATA command sent through ATA PASS-THROUGH failed with the device's registers
    /// (ABRT, UNC, IDNF, ...; see [`crate::ata::exec::AtaDeviceError`]).
    #[error("{0}")]
    Ata(Box<crate::ata::exec::AtaDeviceError>),
    /// Any other I/O error (state files, sysfs, records).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

/// Why a destructive job was refused before anything was sent. The data stays typed; the
/// text (`Display`) is what `sgctl` prints after `refused: `.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Refusal {
    /// A path, partition or holder of the drive is in use.
    #[error("{address} is in use (paths: {}): {}; nothing was sent", nodes.join(", "), join(reasons, "; "))]
    InUse {
        /// The address given.
        address: String,
        /// The nodes of every path (block, sg or H:C:T:L name).
        nodes: Vec<String>,
        /// Why it is in use (at least one).
        reasons: Vec<InUse>,
    },
    /// `--confirm` was given but names another drive.
    #[error("{address}: --confirm does not name this drive ({drive}); nothing was sent")]
    NotNamed {
        /// The address given.
        address: String,
        /// The drive's serial and WWN as the user would type them.
        drive: String,
    },
    /// Ctrl-C (SIGINT) at the confirmation prompt, or before any drive's job had started.
    #[error(
        "{address}: {job} interrupted (Ctrl-C) before it started; nothing was sent to the drive"
    )]
    ConfirmationInterrupted {
        /// The address given.
        address: String,
        /// The job (`format`, `sanitize`, ...).
        job: String,
    },
    /// The name typed at the prompt does not match the drive.
    #[error("{address}: the typed name does not match this drive; nothing was sent")]
    TypedMismatch {
        /// The address given.
        address: String,
    },
    /// No confirmation and nobody to ask.
    #[error("{address}: {job} needs --confirm SERIAL (or WWN) naming the drive ({drive}) or a terminal to type it")]
    NeedsConfirmation {
        /// The address given.
        address: String,
        /// The job (`format`, `sanitize`, ...).
        job: String,
        /// The drive's serial and WWN.
        drive: String,
    },
    /// The node is not a SCSI disk known to sysfs.
    #[error("{address}: cannot find its SCSI device in sysfs ({dir}); is it a whole SCSI disk?")]
    NotInSysfs {
        /// The address given.
        address: String,
        /// The sysfs directory looked at.
        dir: String,
    },
    /// Discovery found no path of the drive.
    #[error("{address}: discovery found no path of this drive")]
    NoPath {
        /// The address given.
        address: String,
    },
    /// A dry run met a state-changing CDB (it is not sent).
    #[error("dry run: not sending state-changing CDB {cdb}")]
    DryRun {
        /// The CDB in hex.
        cdb: String,
    },
    /// The audit start record could not be written, so the job did not start.
    #[error("cannot write the audit record ({reason}); nothing was sent")]
    AuditUnwritable {
        /// The I/O error.
        reason: String,
    },
    /// A sanitize or format is already running on the drive.
    #[error("a sanitize or format is already running on this drive ({}); watch it with `sgctl wait {address}`",
            progress.map(|p| format!("{p:.1}%")).unwrap_or_else(|| "no progress reported".into()))]
    AlreadyRunning {
        /// The address given.
        address: String,
        /// Progress the drive reports, percent.
        progress: Option<f64>,
    },
    /// EXIT FAILURE MODE after a sanitize that failed with AUSE=0.
    #[error("EXIT FAILURE MODE refused ({sense}): the failed sanitize ran with AUSE=0, so the only way out \
             is another sanitize that completes — run it again without --ause")]
    ExitFailureModeRestricted {
        /// The drive's refusal.
        sense: Box<Sense>,
    },
    /// Another initiator holds a persistent reservation on the drive.
    #[error(
        "{address} is reserved by another initiator ({rtype} reservation, key 0x{key:x}, through \
             target port {port}); nothing was sent (see `sgctl reservations {address}`; \
             --ignore-reservation to go ahead)"
    )]
    Reserved {
        /// The address given.
        address: String,
        /// The reservation type's name.
        rtype: String,
        /// The holder's reservation key.
        key: u64,
        /// The relative target port it came through.
        port: u16,
    },
    /// An ATA sanitize is already running (SANITIZE STATUS EXT reports it in progress).
    #[error(
        "an ATA sanitize is already running (SANITIZE STATUS EXT); watch it with `sgctl wait`"
    )]
    AtaSanitizeRunning,
    /// The ATA method the drive offers cannot run in the drive's state (frozen, locked,
    /// attempts exhausted); `advice` is the way out.
    #[error("{method} cannot run: {why}; {advice}")]
    AtaMethodBlocked {
        /// The method's name (`SANITIZE BLOCK ERASE`, `SECURITY ERASE UNIT`, ...).
        method: String,
        /// What blocks it (from IDENTIFY DEVICE).
        why: String,
        /// What the admin can do about it.
        advice: String,
    },
    /// The drive aborted an ATA sanitize/security command (ABRT): frozen since planning?
    #[error("{method} was aborted by the drive ({error}); if it is frozen: {advice}")]
    AtaAborted {
        /// The method's name.
        method: String,
        /// The device's error registers.
        error: Box<crate::ata::exec::AtaDeviceError>,
        /// What to do if it is frozen.
        advice: String,
    },
    /// Another sgctl job holds the drive's lock (one job per drive at a time).
    #[error("{device}: the drive is busy with another sgctl job: {} (one job per drive at a time; lock {lock} for {key})",
            holder.as_deref().unwrap_or("another sgctl process holds it (holder not recorded)"))]
    JobLocked {
        /// The device the job was started on.
        device: String,
        /// The lock's key (the drive's name).
        key: String,
        /// The lock file.
        lock: String,
        /// Who holds it (`pid N is running `JOB` on DEV (job id ID) since T`), if recorded.
        holder: Option<String>,
    },
    /// A benchmark suite report given to resume was written for another drive.
    #[error("the report is from another drive ({report}); this is {drive}")]
    ReportOfAnotherDrive {
        /// The report's drive: vendor, model, serial and WWN.
        report: String,
        /// The drive given, likewise.
        drive: String,
    },
    /// The benchmark refused the run (a writing workload without the gate's authorization, an
    /// authorization for another drive, an engine that cannot run the workload).
    #[error("{reason}")]
    Benchmark {
        /// The benchmark's reason.
        reason: String,
    },
    /// `--method auto` fell back to a TCG erase with the MSID, but the drive is owned.
    #[error(
        "the EraseMaster PIN is no longer the MSID (the drive is owned): run \
             `sgctl tcg erase --all --pin-file FILE`, or `sgctl tcg revert` with the PSID"
    )]
    TcgOwned,
}

fn join<T: std::fmt::Display>(v: &[T], sep: &str) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Self {
        Error::Refused(r)
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

/// Linux host byte values (K-status `include/scsi/scsi_status.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HostStatus {
    /// DID_NO_CONNECT 0x01: could not connect before timeout (device gone).
    NoConnect,
    /// DID_BUS_BUSY 0x02
    BusBusy,
    /// DID_TIME_OUT 0x03: the midlayer timed the command out and aborted it.
    TimeOut,
    /// DID_BAD_TARGET 0x04
    BadTarget,
    /// DID_ABORT 0x05
    Abort,
    /// DID_PARITY 0x06
    Parity,
    /// DID_ERROR 0x07: internal HBA error.
    Error,
    /// DID_RESET 0x08
    Reset,
    /// DID_SOFT_ERROR 0x0b
    SoftError,
    /// DID_TRANSPORT_DISRUPTED 0x0e
    TransportDisrupted,
    /// DID_TRANSPORT_FAILFAST 0x0f
    TransportFailfast,
    /// DID_TARGET_FAILURE 0x10
    TargetFailure,
    /// DID_NEXUS_FAILURE 0x11
    NexusFailure,
    /// DID_MEDIUM_ERROR 0x13
    MediumError,
    /// Any other value.
    Other(u16),
}

impl HostStatus {
    /// Decodes a non-zero host byte.
    pub fn from_u16(v: u16) -> HostStatus {
        use HostStatus::*;
        match v {
            0x01 => NoConnect,
            0x02 => BusBusy,
            0x03 => TimeOut,
            0x04 => BadTarget,
            0x05 => Abort,
            0x06 => Parity,
            0x07 => Error,
            0x08 => Reset,
            0x0b => SoftError,
            0x0e => TransportDisrupted,
            0x0f => TransportFailfast,
            0x10 => TargetFailure,
            0x11 => NexusFailure,
            0x13 => MediumError,
            o => Other(o),
        }
    }

    /// The kernel's name.
    pub fn name(self) -> String {
        use HostStatus::*;
        match self {
            NoConnect => "DID_NO_CONNECT".into(),
            BusBusy => "DID_BUS_BUSY".into(),
            TimeOut => "DID_TIME_OUT".into(),
            BadTarget => "DID_BAD_TARGET".into(),
            Abort => "DID_ABORT".into(),
            Parity => "DID_PARITY".into(),
            Error => "DID_ERROR".into(),
            Reset => "DID_RESET".into(),
            SoftError => "DID_SOFT_ERROR".into(),
            TransportDisrupted => "DID_TRANSPORT_DISRUPTED".into(),
            TransportFailfast => "DID_TRANSPORT_FAILFAST".into(),
            TargetFailure => "DID_TARGET_FAILURE".into(),
            NexusFailure => "DID_NEXUS_FAILURE".into(),
            MediumError => "DID_MEDIUM_ERROR".into(),
            Other(v) => format!("host status 0x{v:02x}"),
        }
    }
}

/// Result with the library error.
pub type Result<T> = std::result::Result<T, Error>;

/// Names a SAM status byte.
pub fn status_name(s: u8) -> String {
    match s {
        0x00 => "GOOD".into(),
        0x02 => "CHECK CONDITION".into(),
        0x04 => "CONDITION MET".into(),
        0x08 => "BUSY".into(),
        0x18 => "RESERVATION CONFLICT".into(),
        0x22 => "COMMAND TERMINATED".into(),
        0x28 => "TASK SET FULL".into(),
        0x30 => "ACA ACTIVE".into(),
        0x40 => "TASK ABORTED".into(),
        o => format!("0x{o:02x}"),
    }
}

impl Error {
    /// Wraps an io::Error with context.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// The sense data, if this is a CHECK CONDITION.
    pub fn sense(&self) -> Option<&Sense> {
        match self {
            Error::Sense(s) => Some(s),
            _ => None,
        }
    }

    /// The process exit code this error maps to (see [`crate::exit`]).
    pub fn exit_code(&self) -> u8 {
        use crate::exit;
        match self {
            Error::Os { op: "open", .. } | Error::NotScsi { .. } | Error::BadAddress { .. } => {
                exit::OPEN
            }
            Error::Os { .. }
            | Error::Timeout
            | Error::Host { .. }
            | Error::Driver { .. }
            | Error::Sense(_)
            | Error::BadSense { .. }
            | Error::Status { .. }
            | Error::Parse(_)
            | Error::Ata(_) => exit::COMMAND,
            Error::Unsupported(_) => exit::UNSUPPORTED,
            Error::Refused(_) => exit::REFUSED,
            Error::CheckFailed(_) => exit::CHECK_FAILED,
            Error::InvalidArgument(_) => exit::USAGE,
            Error::Io { .. } => exit::OTHER,
        }
    }
}

/// Why a drive is in use (the host view, `sgctl::host`, finds these; [`Refusal::InUse`]
/// carries them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InUse {
    /// A block device of this drive (disk, partition or holder) is mounted.
    Mounted {
        /// The block device (`sdb1`, `dm-0`).
        device: String,
        /// Where it is mounted.
        mount_point: String,
    },
    /// Used as swap.
    Swap {
        /// The block device.
        device: String,
    },
    /// Held by another block device (device-mapper, md, multipath).
    Held {
        /// The held device (`sdb` or `sdb2`).
        device: String,
        /// The holder (`dm-3`, `md0`).
        holder: String,
    },
    /// The root filesystem lives on this drive.
    BootDisk {
        /// The block device carrying `/`.
        device: String,
    },
}

impl std::fmt::Display for InUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InUse::Mounted {
                device,
                mount_point,
            } => write!(f, "{device} is mounted on {mount_point}"),
            InUse::Swap { device } => write!(f, "{device} is used as swap"),
            InUse::Held { device, holder } => write!(f, "{device} is held by {holder}"),
            InUse::BootDisk { device } => {
                write!(f, "{device} holds the root filesystem (boot disk)")
            }
        }
    }
}
