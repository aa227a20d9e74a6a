//! The library's one error type. `anyhow` lives only in `main`/`cli`.

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
    /// The drive reports its medium format corrupt (MEDIUM ERROR, 31/00): only formatting it
    /// again brings it back (the CLI names `sgctl format --recover`).
    #[error("check failed: the drive reports {sense}")]
    MediumFormatCorrupt {
        /// The drive's sense.
        sense: Box<Sense>,
    },
    /// The drive refused a SANITIZE service action with INVALID FIELD IN CDB (24/00).
    #[error("not supported: {}", if *ause {
        format!("SANITIZE {action} refused ({sense})")
    } else {
        format!("the drive refused SANITIZE {action} ({sense})")
    })]
    SanitizeRefused {
        /// The service action's name (`CRYPTOGRAPHIC ERASE`, ...).
        action: String,
        /// The drive's sense.
        sense: Box<Sense>,
        /// AUSE was set: a drive left in restricted failure mode by an AUSE=0 sanitize
        /// refuses it (the way out is the same sanitize without AUSE).
        ause: bool,
    },
    /// A band erase was asked of a drive that is not TCG Enterprise SSC (Opal has no band
    /// erase as EraseMaster; a PSID revert is its way).
    #[error("not supported: band erase needs a TCG Enterprise SSC drive")]
    BandEraseNeedsEnterprise,
    /// A request the library cannot build or run (a field out of range, a missing parameter):
    /// the data is typed; exit 2 like a command-line error.
    #[error("{0}")]
    Invalid(Invalid),
    /// A user's argument was invalid (a command-line value the CLI checks; the library's own
    /// requests are [`Error::Invalid`]).
    #[error("{0}")]
    InvalidArgument(String),
    /// An ATA command sent through ATA PASS-THROUGH failed with the device's registers
    /// (ABRT, UNC, IDNF, ...; see [`crate::ata::AtaDeviceError`]).
    #[error("{0}")]
    Ata(Box<crate::ata::AtaDeviceError>),
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
    /// A confirmation was given (`--confirm`) but names another drive.
    #[error("{address}: the confirmation does not name this drive ({drive}); nothing was sent")]
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
    #[error(
        "{address}: {job} needs a confirmation naming the drive ({drive}) or a terminal to type it"
    )]
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
    #[error("a sanitize or format is already running on this drive ({})", running_progress(*progress))]
    AlreadyRunning {
        /// The address given.
        address: String,
        /// Progress the drive reports, percent.
        progress: Option<f64>,
    },
    /// A self-test is already running on the drive (SPC-6 5.17: one at a time).
    #[error("{address}: a self-test is already running ({}); `sgctl selftest {address} --abort` stops a background one", running_progress(*progress))]
    SelfTestRunning {
        /// The address given.
        address: String,
        /// Progress the drive reports, percent.
        progress: Option<f64>,
    },
    /// EXIT FAILURE MODE after a sanitize that failed with AUSE=0.
    #[error("EXIT FAILURE MODE refused ({sense}): the failed sanitize ran with AUSE=0, so the only way out \
             is another sanitize that completes")]
    ExitFailureModeRestricted {
        /// The drive's refusal.
        sense: Box<Sense>,
    },
    /// Another initiator holds a persistent reservation on the drive.
    #[error(
        "{address} is reserved by another initiator ({rtype} reservation, key 0x{key:x}, through \
             target port {port}); nothing was sent"
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
    #[error("an ATA sanitize is already running (SANITIZE STATUS EXT)")]
    AtaSanitizeRunning,
    /// The ATA method the drive offers cannot run in the drive's state (frozen, locked,
    /// attempts exhausted); `advice` is the way out.
    #[error("{method} cannot run: {why}")]
    AtaMethodBlocked {
        /// The method's name (`SANITIZE BLOCK ERASE`, `SECURITY ERASE UNIT`, ...).
        method: String,
        /// What blocks it (from IDENTIFY DEVICE).
        why: String,
        /// What the admin can do about it.
        advice: Next,
    },
    /// The drive aborted an ATA sanitize/security command (ABRT): frozen since planning?
    #[error("{method} was aborted by the drive ({error})")]
    AtaAborted {
        /// The method's name.
        method: String,
        /// The device's error registers.
        error: Box<crate::ata::AtaDeviceError>,
        /// What to do if it is frozen.
        advice: Next,
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
    /// A file sgctl was to write, lock or read is not safe to use: a symlink where a file was
    /// expected, a directory other users may write to, a file owned by someone else, an
    /// existing file that would be overwritten without `--force`, or an output path that names
    /// another file of the same job ([`crate::files`]).
    #[error("{path}: {reason}")]
    UnsafeFile {
        /// The file or directory.
        path: String,
        /// Why, and what to do.
        reason: String,
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
    #[error("the EraseMaster PIN is no longer the MSID (the drive is owned)")]
    TcgOwned,
}

/// A request the library cannot build or run, with its data (no caller needs to read a
/// message). The text is the one users saw before these were typed; the CLI words the ones
/// that name a flag (`--block-size`, `--verify`, `--pi`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Invalid {
    /// A CDB is not 1..=255 bytes (SG_IO `cmd_len` is a u8).
    #[error("CDB length {len} is not 1..=255 bytes")]
    CdbLength {
        /// The CDB's length.
        len: usize,
    },
    /// A data buffer larger than SG_IO's 32-bit `dxfer_len`.
    #[error("data buffer of {len} bytes is larger than SG_IO allows")]
    DataLength {
        /// The buffer's length.
        len: usize,
    },
    /// A bsg node given to the SG_IO v3 backend.
    #[error("{path} is a bsg node: use the bsg backend (sg_io_v4)")]
    BsgNode {
        /// The node.
        path: String,
    },
    /// A queued SG command names a slot the queue does not have, one still in flight, or a
    /// transfer longer than the slot's buffer ([`crate::transport::queue`]).
    #[error("queue slot {tag}: {reason}")]
    QueueSlot {
        /// The slot (the command's pack_id).
        tag: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An LBA above 32 bits for a 10-byte READ/WRITE.
    #[error("LBA {lba} needs a 16-byte CDB")]
    LbaNeeds16 {
        /// The LBA.
        lba: u64,
    },
    /// A transfer length above 16 bits for a 10-byte READ/WRITE.
    #[error("{blocks} blocks exceed a 10-byte CDB")]
    BlocksExceed10 {
        /// The number of blocks.
        blocks: u32,
    },
    /// SANITIZE OVERWRITE COUNT outside 1..31 (SBC-4 Table 62).
    #[error("overwrite count {count} outside 1..31")]
    OverwriteCount {
        /// The count given.
        count: u8,
    },
    /// An OVERWRITE pattern longer than a logical block (or empty).
    #[error("overwrite pattern of {len} bytes: must be 1..={max} bytes")]
    OverwritePattern {
        /// The pattern's length.
        len: usize,
        /// The logical block length.
        max: u32,
    },
    /// A parameter list longer than its length field holds.
    #[error("{what} too long")]
    TooLong {
        /// What (`overwrite pattern`, `SANITIZE parameter list`, `MODE SELECT list`).
        what: &'static str,
        /// Its length in bytes.
        len: usize,
    },
    /// SANITIZE OVERWRITE without a parameter list.
    #[error("OVERWRITE needs a parameter list")]
    OverwriteNeedsList,
    /// A SANITIZE service action that takes no parameter list was given one.
    #[error("{action} takes no parameter list")]
    NoParameterList {
        /// The service action's name.
        action: &'static str,
    },
    /// A SECURITY PROTOCOL transfer with INC_512 that is not a multiple of 512.
    #[error("INC_512 transfer of {len} bytes is not a multiple of 512")]
    Inc512Length {
        /// The transfer length in bytes.
        len: usize,
    },
    /// A SECURITY PROTOCOL transfer longer than the CDB's 32-bit length.
    #[error("security transfer of {len} bytes")]
    SecurityTransferLength {
        /// The transfer length in bytes.
        len: usize,
    },
    /// A protection type other than 0..3.
    #[error("protection type {value} does not exist (0..3)")]
    ProtectionType {
        /// The number given.
        value: u8,
    },
    /// FORMAT UNIT: DPRY/DCRT/STPF/IP set without FOV (SBC-4 5.4.3).
    #[error("FORMAT UNIT: DPRY/DCRT/STPF/IP need FOV")]
    FormatNeedsFov,
    /// FORMAT UNIT: a protection interval exponent needs the long parameter list header.
    #[error("FORMAT UNIT: a protection interval exponent needs the long header")]
    PiExponentNeedsLongHeader,
    /// FORMAT UNIT: an initialization pattern longer than its 16-bit length.
    #[error("initialization pattern longer than 65535 bytes")]
    InitPatternTooLong {
        /// The pattern's length.
        len: usize,
    },
    /// A protection interval exponent above 15 (4 bits).
    #[error("protection interval exponent must be 0..15")]
    PiExponent {
        /// The exponent given.
        value: u8,
    },
    /// A protection interval exponent for protection type 0 or 1.
    #[error("a protection interval exponent needs protection type 2 or 3")]
    PiExponentNeedsType2Or3,
    /// A block count above 32 bits for a short mode parameter block descriptor.
    #[error("{blocks} blocks do not fit a short block descriptor; use the long form")]
    ShortDescriptorBlocks {
        /// The number of blocks.
        blocks: u64,
    },
    /// A block length above 24 bits for a short block descriptor.
    #[error("block length {block_length} does not fit 24 bits")]
    DescriptorBlockLength {
        /// The block length.
        block_length: u32,
    },
    /// Short and long block descriptors in one MODE SELECT list.
    #[error("block descriptors mix short and long forms")]
    MixedDescriptors,
    /// Long LBA block descriptors with MODE SELECT(6).
    #[error("long LBA block descriptors need MODE SELECT(10)")]
    LongDescriptorsNeedSelect10,
    /// More block descriptors than the header's length field holds.
    #[error("too many block descriptors{}", if *mode_select_6 { " for MODE SELECT(6)" } else { "" })]
    TooManyDescriptors {
        /// The list was for MODE SELECT(6) (8-bit length).
        mode_select_6: bool,
    },
    /// A MODE SELECT parameter list longer than the CDB's length field.
    #[error("parameter list of {len} bytes is too long for this MODE SELECT")]
    ModeSelectLength {
        /// The list's length.
        len: usize,
    },
    /// A FORMAT UNIT without a block size, and not a recovery (which keeps the current one).
    #[error("a block size is required")]
    BlockSizeRequired,
    /// A block size outside 256..65536.
    #[error("block size {value} is outside 256..65536")]
    BlockSize {
        /// The block size given.
        value: u32,
    },
    /// Verification asked for on a drive that refuses medium access (31/xx).
    #[error(
        "verification needs readable capacity, but the drive refuses medium access (31/xx); \
         sanitize once without verification to leave that state"
    )]
    VerifyNeedsCapacity,
    /// A job's second phase ran without its first.
    #[error("{job} was not planned")]
    NotPlanned {
        /// The job (`format`, `sanitize`, `ATA sanitize`).
        job: &'static str,
    },
    /// A job run on no device.
    #[error("no DEVICE given")]
    NoDevice,
    /// A WRITE BUFFER / READ BUFFER field above its 24 bits (SPC-6 6.50, 6.17).
    #[error("{what} {value} does not fit the CDB's 24-bit field")]
    Field24 {
        /// The field (`buffer offset`, `parameter list length`).
        what: &'static str,
        /// The value asked for.
        value: u64,
    },
    /// An input file the user named that cannot be read as one (not a regular file, a
    /// symbolic link, empty, too large).
    #[error("{what} {path}: {reason}")]
    InputFile {
        /// What it is (`firmware image`).
        what: String,
        /// The file.
        path: String,
        /// Why it is refused.
        reason: String,
    },
    /// A firmware image that cannot go to this drive as asked (size, alignment, header,
    /// model); nothing was sent.
    #[error("firmware image {path}: {reason}")]
    FirmwareImage {
        /// The image file.
        path: String,
        /// What is wrong, with the limit it breaks.
        reason: String,
    },
    /// An audit log line that is JSON but not an object.
    #[error("audit record is not a JSON object")]
    AuditRecordNotObject,
    /// A signing key file others can read (it must be mode 0600).
    #[error("signing key {path} is readable by group or others (mode {mode:o}); run chmod 600")]
    KeyReadableByOthers {
        /// The key file.
        path: String,
        /// Its permission bits.
        mode: u32,
    },
    /// A secret (PIN, PSID) file that is not private to the caller, or not a credential.
    #[error("{what} file {path}: {reason}")]
    SecretFile {
        /// What it holds (`EraseMaster PIN`, `PSID`).
        what: String,
        /// The file.
        path: String,
        /// Why it is refused, and what to do.
        reason: String,
    },
    /// A signing key file that is not an Ed25519 PKCS#8 PEM private key.
    #[error("signing key {path}: not an Ed25519 PKCS#8 PEM private key")]
    NotPrivateKey {
        /// The key file.
        path: String,
    },
    /// A public key file that is not an Ed25519 SPKI PEM public key.
    #[error("public key {path}: not an Ed25519 SPKI PEM public key")]
    NotPublicKey {
        /// The key file.
        path: String,
    },
    /// Key generation would overwrite a key file.
    #[error("{path} exists; not overwriting a key")]
    KeyExists {
        /// The existing file.
        path: String,
    },
    /// A benchmark report file that is not JSON.
    #[error("{path} is not a report: {reason}")]
    NotJsonReport {
        /// The file.
        path: String,
        /// The JSON parser's reason.
        reason: String,
    },
    /// A JSON file whose `format` is not the sgctl bench report's.
    #[error("{path} is not an sgctl bench report")]
    NotBenchReport {
        /// The file.
        path: String,
    },
    /// A bench report of another layout version.
    #[error("{path} has report version {version}; this sgctl reads version {supported}")]
    ReportVersion {
        /// The file.
        path: String,
        /// Its version.
        version: u64,
        /// The version this build reads.
        supported: u64,
    },
    /// A bench report whose members do not decode.
    #[error("{path}: {reason}")]
    BadReport {
        /// The file.
        path: String,
        /// The decoder's reason.
        reason: String,
    },
    /// A sequential stimulus that mixes reads and writes.
    #[error(
        "{label}: a sequential stimulus must be all reads or all writes, not {read_pct} % reads"
    )]
    SequentialMix {
        /// The stimulus' label.
        label: String,
        /// Its read percentage.
        read_pct: u8,
    },
    /// A suite round without the cell its tracking metric names.
    #[error("round has no tracking cell {cell}")]
    NoTrackingCell {
        /// The tracking cell's label.
        cell: String,
    },
}

impl From<Invalid> for Error {
    fn from(i: Invalid) -> Self {
        Error::Invalid(i)
    }
}

fn running_progress(p: Option<f64>) -> String {
    p.map(|p| format!("{p:.1}%"))
        .unwrap_or_else(|| "no progress reported".into())
}

/// What an admin can do next, as data: the library keeps it typed, the CLI words it (naming
/// its own commands, `sgctl wait DEV`, `sgctl format DEV --recover`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Next {
    /// The sanitize goes on on the drive (it cannot be cancelled): watch it.
    SanitizeContinues {
        /// The device address.
        address: String,
    },
    /// The format goes on on the drive: watch it.
    FormatContinues {
        /// The device address.
        address: String,
    },
    /// The drive accepted the sanitize, then watching it failed (the path or the drive went
    /// away): it goes on, and resumes after a power cycle.
    SanitizeWatchLost {
        /// The device address.
        address: String,
        /// The drive's other paths (`/dev/sgN`), if any.
        other_paths: Vec<String>,
    },
    /// The drive accepted the format, then watching it failed; a power cycle loses a format in
    /// progress (31/00), and formatting again recovers it.
    FormatWatchLost {
        /// The device address.
        address: String,
        /// The drive's other paths (`/dev/sgN`), if any.
        other_paths: Vec<String>,
    },
    /// The format failed: the medium may be corrupt (31/00); format again.
    FormatAgain {
        /// The device address.
        address: String,
    },
    /// A sanitize with AUSE=1 failed: leave failure mode with EXIT FAILURE MODE, or sanitize
    /// again.
    ExitFailureMode {
        /// The device address.
        address: String,
    },
    /// A sanitize with AUSE=0 failed: EXIT FAILURE MODE is not allowed; only another sanitize
    /// that completes leaves the state.
    SanitizeAgain,
    /// The ATA drive is frozen (FREEZE LOCK): hot-plug it or suspend/resume the host, check
    /// IDENTIFY says not frozen, retry.
    AtaFrozen,
    /// The ATA drive's security is locked: unlock it, or use a SANITIZE method.
    AtaUnlockFirst,
    /// The ATA security attempt counter is exhausted: power-cycle the drive.
    AtaPowerCycle,
    /// A failed SECURITY ERASE: the temporary user password was removed again.
    AtaPasswordRemoved,
    /// A failed SECURITY ERASE left the temporary user password set: remove it before the
    /// next power cycle locks the drive.
    AtaPasswordLeft,
    /// Text with no command in it (a kernel rescan that failed, a check that failed).
    Note(String),
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
    pub(crate) fn from_u16(v: u16) -> HostStatus {
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
            Error::Unsupported(_)
            | Error::SanitizeRefused { .. }
            | Error::BandEraseNeedsEnterprise => exit::UNSUPPORTED,
            Error::Refused(_) => exit::REFUSED,
            Error::CheckFailed(_) | Error::MediumFormatCorrupt { .. } => exit::CHECK_FAILED,
            Error::InvalidArgument(_) | Error::Invalid(_) => exit::USAGE,
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
