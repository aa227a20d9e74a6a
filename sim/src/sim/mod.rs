//! The virtual SAS SSD: an in-process SCSI target implementing [`Transport`].
//!
//! `sim:PROFILE[?key=val&...]` addresses open one ([`open`]). The drive answers CDBs through
//! the same byte boundary as SG_IO (protocols.md §G.1): every command is decoded from the CDB
//! and data-out bytes and answered with status, sense and data-in bytes.
//!
//! Layout: [`profile`] (drive models as data), `drive` (the persisted state and its
//! time-driven behaviour), `target` (CDB dispatch and the checks every command goes
//! through), [`cmd`] (one file per command family), `store` (sparse user data), [`sense`]
//! (sense rendering), [`media`] (NAND, FTL, garbage collection, timing), [`enclosure`] (the
//! virtual enclosure services device, `sim:enclosure`),
//! `medium` (the target's link to it: service times, wear), [`tcg`] (SECURITY PROTOCOL
//! IN/OUT).
//!
//! Options: `state=FILE` (persist the drive as JSON between invocations), `serial=`,
//! `capacity_gib=` / `capacity_blocks=` (scale the drive down; only the size changes),
//! `clock=real|virtual` (default real: the drive's clock follows wall time, `speed=N` times as
//! fast, and commands take their service time; virtual: time moves only by command service
//! times and [`SimClock::advance`], nothing sleeps), `port=1|2`, `dsense=1`, and faults
//! `busy=N`, `timeout=N`, `medium_error=LBA[,LBA..]`, `corrupt=LBA[,LBA..]` (silent
//! corruption: one byte flipped on read), `fail_format=1`, `fail_sanitize=1`, `noop_sanitize=1`,
//! `substitute_block=N`, `unlisted_block=N` (VPD 0xB4 leaves length N out although FORMAT UNIT
//! takes it), `fail_microcode=K` (the K-th WRITE BUFFER of a microcode download is cut short), `microcode_modes=5+7` (Extended INQUIRY lists only these download modes; `none`: no mode), `tcg_sp_busy=N` (StartSession answers SP_BUSY N times),
//! `tcg_session_timeout=1` (the TPer closes the next session mid-call).

pub(crate) mod aging;
pub mod ata;
pub mod cmd;
pub(crate) mod drive;
pub mod enclosure;
pub mod media;
pub(crate) mod medium;
pub mod profile;
pub mod sense;
pub(crate) mod state_check;
pub(crate) mod store;
pub(crate) mod target;
pub mod tcg;

use crate::error::{Error, Result};
use crate::files;
use crate::transport::{Completion, DataBuf, Transport};
use drive::Drive;
use profile::Profile;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Injectable faults (the fault API; also reachable through address options and
/// `sgctl sim fault`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Power cycle now.
    PowerCycle,
    /// Logical unit reset now.
    LuReset,
    /// The next `n` commands time out (DID_TIME_OUT after their timeout; error handling
    /// then resets the LU).
    Timeout(u32),
    /// The next `n` commands get BUSY status.
    Busy(u32),
    /// The next `n` commands fail with DID_NO_CONNECT (the path or drive went away).
    Disconnect(u32),
    /// Reads of this LBA fail with MEDIUM ERROR 11/00 until it is rewritten.
    MediumError(u64),
    /// Reads of this LBA return its data with one byte flipped, status GOOD (silent
    /// corruption), rewritten or not, until faults are cleared.
    CorruptBlock(u64),
    /// The next FORMAT UNIT fails (MEDIUM ERROR 31/01, then 31/00 until reformatted).
    FailFormat,
    /// The next SANITIZE fails (MEDIUM ERROR 31/03: sanitize failure mode).
    FailSanitize,
    /// The next SANITIZE (or ATA SANITIZE / SECURITY ERASE UNIT) completes with GOOD status
    /// and erases nothing: a drive whose erase claim is false, which only validation catches.
    NoopSanitize,
    /// The drive runs this many degrees hotter (negative: cooler) from now on.
    Heat(i16),
    /// The flash is worn to this percentage of its rated P/E cycles (endurance used).
    Wear(u8),
    /// The next FORMAT UNIT silently picks this logical block length instead of the
    /// requested one (reports success; only READ CAPACITY shows it).
    SubstituteBlockLength(u32),
    /// VPD 0xB4 leaves this logical block length out (MODE SELECT and FORMAT UNIT still take
    /// it): a drive whose supported-lengths page is incomplete.
    UnlistedBlockLength(u32),
    /// The K-th WRITE BUFFER (1 = the first) of the next microcode download is cut short:
    /// the HBA reports DID_ERROR and the drive discards the download.
    FailMicrocode(u32),
    /// Extended INQUIRY (VPD 86h byte 19) lists only these DM_MD bits of the download
    /// modes the drive takes (a drive that does not list every mode it accepts).
    MicrocodeModes(u8),
    /// TCG: the next `n` StartSession calls answer SP_BUSY (another host holds the SP).
    TcgSpBusy(u32),
    /// TCG: the next method inside a session times out; the TPer closes the session
    /// (`SMUID.CloseSession`) instead of answering.
    TcgSessionTimeout,
    /// Remove all pending faults.
    Clear,
}

/// How the drive's clock moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockMode {
    /// Follows wall time (and [`SimClock::advance`]).
    Real,
    /// Moves only by command service times and [`SimClock::advance`].
    Virtual,
}

pub(crate) struct Shared {
    pub profile: &'static Profile,
    pub d: Drive,
    pub mode: ClockMode,
    /// Real mode: drive seconds per wall second.
    pub speed: f64,
    anchor: Instant,
    pub state_path: Option<PathBuf>,
    /// The last [`TRACE_MAX`] CDBs, kept inline (no allocation per command).
    pub trace: std::collections::VecDeque<TracedCdb>,
    pub address: String,
    pub medium: medium::Medium,
    /// Exclusive lock on `STATE.lock` while the drive is open (one process per state file).
    _lock: Option<nix::fcntl::Flock<std::fs::File>>,
    /// Wall time of the last save (state-file drives are saved every few seconds of use).
    last_save: Instant,
    /// Real clock: commands return without waiting for their service time and report it (in
    /// wall time) in `Completion::duration`; the caller answers when it has passed (TCMU).
    pub defer_service: bool,
    /// The periodic save in progress: serialising and writing a snapshot of the drive, off the
    /// drive lock.
    saver: Option<std::thread::JoinHandle<()>>,
    /// How long the last background save took (ns): the next one waits at least four times
    /// that, so saving a large drive never takes more than a fifth of a CPU from serving it.
    save_ns: Arc<std::sync::atomic::AtomicU64>,
}

const TRACE_MAX: usize = 4096;

/// One traced CDB (at most 32 bytes; longer ones are cut).
#[derive(Clone, Copy)]
pub(crate) struct TracedCdb {
    len: u8,
    bytes: [u8; 32],
}

impl TracedCdb {
    /// Keeps the first 32 bytes of `cdb`.
    pub(crate) fn new(cdb: &[u8]) -> TracedCdb {
        let n = cdb.len().min(32);
        let mut bytes = [0u8; 32];
        bytes[..n].copy_from_slice(&cdb[..n]);
        TracedCdb {
            len: n as u8,
            bytes,
        }
    }

    /// The CDB.
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}
/// The emulated HBA's largest transfer (`max_hw_sectors_kb` = 32768).
pub(crate) const MAX_HW_BYTES: usize = 32 << 20;
/// How often a state-file drive in use is written back.
const SAVE_EVERY: Duration = Duration::from_secs(5);

/// Takes the lock that keeps a second process off a state file (two writers would lose each
/// other's changes). Waits up to 3 s for a process that is just finishing. `path` is the
/// canonical state path ([`state_path`]), so two names of one file take one lock. The lock file
/// is opened without following a symlink, mode 0600 ([`files::Dir::open_lock`]).
fn lock_state(spec: &str, path: &std::path::Path) -> Result<nix::fcntl::Flock<std::fs::File>> {
    use nix::fcntl::{Flock, FlockArg};
    let lock_path = path.with_extension("lock");
    let (dir, name) = files::split(&lock_path)?;
    let dir = files::Dir::open(&dir)?;
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let f = dir.open_lock(&name, files::MODE_SECRET)?;
        match Flock::lock(f, FlockArg::LockExclusiveNonblock) {
            Ok(l) => return Ok(l),
            Err((_, nix::errno::Errno::EWOULDBLOCK)) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            // Still held after the wait: the drive is busy (exit 6), not a bad address.
            Err((_, nix::errno::Errno::EWOULDBLOCK)) => {
                return Err(crate::error::Refusal::JobLocked {
                    device: format!("sim:{spec}"),
                    key: path.display().to_string(),
                    lock: lock_path.display().to_string(),
                    holder: Some(format!(
                        "the virtual drive's state file {} is in use by another process",
                        path.display()
                    )),
                }
                .into())
            }
            Err((_, e)) => {
                return Err(bad(
                    spec,
                    format!(
                        "state file {} is in use by another process ({e})",
                        path.display()
                    ),
                ))
            }
        }
    }
}

/// The path a `state=` file is read, locked and saved at: its canonical path. A symlink named
/// as `state=` is followed deliberately (the drive is saved into its target, the link stays)
/// when the link belongs to the caller or root; a link of another user's, or one to a missing
/// file, is refused. A file that does not exist yet is named through its canonical directory.
pub(crate) fn state_path(spec: &str, path: &std::path::Path) -> Result<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            let me = std::fs::metadata("/proc/self").map(|p| p.uid()).ok();
            if m.uid() != 0 && Some(m.uid()) != me {
                return Err(bad(
                    spec,
                    format!(
                        "state file {} is a symbolic link of uid {} (not yours or root's); \
                         name the file itself",
                        path.display(),
                        m.uid()
                    ),
                ));
            }
            path.canonicalize().map_err(|e| {
                bad(
                    spec,
                    format!(
                        "state file {} is a symbolic link to a missing file ({e})",
                        path.display()
                    ),
                )
            })
        }
        Ok(_) => path
            .canonicalize()
            .map_err(|e| Error::io(format!("resolving {}", path.display()), e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let (dir, name) = files::split(path)?;
            let dir = dir
                .canonicalize()
                .map_err(|e| Error::io(format!("state file directory {}", dir.display()), e))?;
            Ok(dir.join(name))
        }
        Err(e) => Err(Error::io(format!("state file {}", path.display()), e)),
    }
}

/// Saves that failed where nobody could be told (the last handle dropped, a background save).
static SAVE_FAILURES: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn note_save_failure(e: &Error) {
    // Not eprintln!: a closed stderr must not panic the job.
    {
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "sgctl: sim: {e}");
    }
    SAVE_FAILURES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(e.to_string());
}

/// The saves of state files that failed since the last call (a full or read-only file system,
/// a directory removed) where no caller could be told: when the last handle of a drive was
/// dropped, or in a background save. A command that used a virtual drive checks this before it
/// reports success: the drive did not keep what was done to it.
pub fn take_save_failures() -> Vec<String> {
    std::mem::take(&mut *SAVE_FAILURES.lock().unwrap_or_else(|p| p.into_inner()))
}

impl Shared {
    /// Brings the drive clock up to date (real mode) and completes due operations.
    pub(crate) fn sync(&mut self) {
        self.sync_clock();
        self.complete_due();
    }

    /// Brings the drive clock up to date with wall time (real mode only).
    pub(crate) fn sync_clock(&mut self) {
        if self.mode == ClockMode::Real {
            let now = Instant::now();
            let e = (now.duration_since(self.anchor).as_nanos() as f64 * self.speed) as u64;
            self.anchor = now;
            self.d.now_ns = clock_add(self.d.now_ns, e);
        }
    }

    /// Completes a long operation whose time has come; a failure becomes a deferred error.
    pub(crate) fn complete_due(&mut self) {
        if let Some(s) = self.d.tick() {
            if s.asc == 0x31 && s.ascq == 0x01 {
                self.d.deferred = Some(s.deferred());
            }
        }
        self.medium.apply(self.profile, &mut self.d);
    }

    /// Moves the drive clock forward.
    pub(crate) fn advance(&mut self, ns: u64) {
        self.d.now_ns = clock_add(self.d.now_ns, ns);
        self.complete_due();
    }

    /// Saves the state file if the last save is more than [`SAVE_EVERY`] ago (long-running
    /// users such as `sgctl sim serve` keep their drive on disk without waiting for exit).
    ///
    /// Under the drive lock this only clones the drive (a memory copy); serialising and writing
    /// the copy happen on a background thread, so the rings keep being served while a large
    /// drive is written out. A save still running when the next is due postpones that one.
    pub(crate) fn save_if_due(&mut self) {
        let took = Duration::from_nanos(self.save_ns.load(std::sync::atomic::Ordering::Relaxed));
        if self.state_path.is_none() || self.last_save.elapsed() < SAVE_EVERY.max(took * 4) {
            return;
        }
        if self.saver.as_ref().is_some_and(|h| !h.is_finished()) {
            return;
        }
        if let Some(h) = self.saver.take() {
            let _ = h.join();
        }
        let Some(path) = self.state_path.clone() else {
            return;
        };
        self.last_save = Instant::now();
        self.sync();
        self.d.saved_unix_ns = unix_ns();
        let snapshot = self.d.clone();
        let save_ns = Arc::clone(&self.save_ns);
        self.saver = std::thread::Builder::new()
            .name("sim-save".into())
            .spawn(move || {
                let t = Instant::now();
                if let Err(e) = write_state(&path, &snapshot) {
                    note_save_failure(&e);
                }
                let ns = t.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
                save_ns.store(ns, std::sync::atomic::Ordering::Relaxed);
            })
            .ok();
    }

    fn save(&mut self) -> Result<()> {
        // A background save must not overwrite this newer one when it finishes.
        if let Some(h) = self.saver.take() {
            let _ = h.join();
        }
        let Some(path) = self.state_path.clone() else {
            return Ok(());
        };
        self.last_save = Instant::now();
        self.sync();
        self.d.saved_unix_ns = unix_ns();
        write_state(&path, &self.d)
    }
}

/// The drive clock `ns` after `now`: it stops at [`state_check::MAX_CLOCK_NS`] (146 years of
/// power-on time), so the clock arithmetic of the drive and its media model never saturates or
/// overflows, and a state file saved by a drive always loads again.
pub(crate) fn clock_add(now: u64, ns: u64) -> u64 {
    now.saturating_add(ns).min(state_check::MAX_CLOCK_NS)
}

/// Serialises `d` and replaces the state file at `path` with it ([`files::write_atomic`]: a
/// temporary file with an unpredictable name, `fsync`, rename, directory `fsync`). The state
/// holds the drive's TCG credentials (PINs, MSID, PSID), as its flash would: mode 0600. A write
/// that fails (a full file system) is an error and leaves the previous state.
fn write_state(path: &std::path::Path, d: &Drive) -> Result<()> {
    let json = serde_json::to_vec(d).map_err(|e| {
        Error::io(
            format!("saving {}", path.display()),
            std::io::Error::other(e),
        )
    })?;
    files::write_atomic(path, &json, files::MODE_SECRET, files::Replace::Always)
}

fn unix_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// One handle (one SAS target port) to a virtual drive.
pub struct SimDevice {
    shared: Arc<Mutex<Shared>>,
    port: u16,
}

impl std::fmt::Debug for SimDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimDevice")
            .field("address", &self.address())
            .field("port", &self.port)
            .finish()
    }
}

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Handle to a drive's clock.
#[derive(Clone)]
pub struct SimClock {
    shared: Arc<Mutex<Shared>>,
}

impl SimClock {
    /// Moves the drive's clock forward by `d` (both clock modes); long operations due by then
    /// complete.
    pub fn advance(&self, d: Duration) {
        let mut s = lock(&self.shared);
        s.sync();
        s.advance(d.as_nanos() as u64);
    }

    /// The drive's clock: time since manufacture (power-on time).
    pub fn now(&self) -> Duration {
        let mut s = lock(&self.shared);
        s.sync();
        Duration::from_nanos(s.d.now_ns)
    }

    /// The clock mode.
    pub fn mode(&self) -> ClockMode {
        lock(&self.shared).mode
    }
}

/// A summary of the drive for `sgctl sim info` and tests.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SimInfo {
    /// Profile name.
    pub profile: String,
    /// Serial number.
    pub serial: String,
    /// LU name (NAA-5) in hex.
    pub lu_name: String,
    /// Target port SAS addresses.
    pub port_sas_addresses: Vec<String>,
    /// Logical block length.
    pub logical_block_length: u32,
    /// Number of logical blocks.
    pub logical_blocks: u64,
    /// Capacity in bytes.
    pub capacity_bytes: u64,
    /// Protection type (0 none).
    pub protection_type: u8,
    /// Long operation in progress ("format"/"sanitize") and its progress in percent.
    pub operation: Option<(String, f64)>,
    /// Medium format corrupted.
    pub format_corrupt: bool,
    /// In sanitize failure mode.
    pub sanitize_failed: bool,
    /// Drive clock, seconds.
    pub clock_seconds: f64,
    /// Clock mode.
    pub clock: String,
    /// Logical blocks held in the sparse store.
    pub stored_blocks: usize,
    /// Host bytes written over the drive's life.
    pub host_bytes_written: u64,
    /// Percentage used endurance.
    pub endurance_used_percent: u8,
    /// Current temperature.
    pub temperature_c: u8,
    /// What the drive's label says, as on a real drive.
    pub label: DriveLabel,
}

/// The label of the virtual drive: what a real drive prints on its case, the PSID included
/// (the credential `tcg revert` takes, readable only from the label, never over the wire).
#[derive(Debug, Clone, serde::Serialize)]
pub struct DriveLabel {
    /// Vendor.
    pub vendor: String,
    /// Model.
    pub model: String,
    /// Firmware revision.
    pub firmware: String,
    /// Serial number.
    pub serial: String,
    /// WWN (the LU name).
    pub wwn: String,
    /// PSID, on self-encrypting drives.
    pub psid: Option<String>,
}

impl SimDevice {
    /// Another handle to the same drive as seen through target port `relative_port` (1 or 2;
    /// other values are taken as 1).
    pub fn port(&self, relative_port: u16) -> SimDevice {
        let p = lock(&self.shared).profile;
        let port = if relative_port == 2 && p.ports >= 2 {
            2
        } else {
            1
        };
        SimDevice {
            shared: Arc::clone(&self.shared),
            port,
        }
    }

    /// The relative target port this handle uses.
    pub fn relative_port(&self) -> u16 {
        self.port
    }

    /// The drive's clock.
    pub fn clock(&self) -> SimClock {
        SimClock {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The drive's profile.
    pub fn profile(&self) -> &'static Profile {
        lock(&self.shared).profile
    }

    /// Injects a fault.
    pub fn inject(&self, f: Fault) {
        let mut s = lock(&self.shared);
        s.sync();
        apply_fault(&mut s.d, f);
    }

    /// Power cycle (shorthand for `inject(Fault::PowerCycle)`).
    pub fn power_cycle(&self) {
        self.inject(Fault::PowerCycle);
    }

    /// Logical unit reset (shorthand for `inject(Fault::LuReset)`).
    pub fn lu_reset(&self) {
        self.inject(Fault::LuReset);
    }

    /// Deferred service (real clock only): commands return without sleeping and report their
    /// service time, in wall time, in `Completion::duration`; the caller answers them when it
    /// has passed. Lets a front end with a queue (TCMU) keep many commands in flight, each
    /// completing when the media model says. Affects every port of the drive.
    pub fn set_deferred_service(&self, on: bool) {
        lock(&self.shared).defer_service = on;
    }

    /// Writes the state file now (also done when the last handle is dropped).
    pub fn save(&self) -> Result<()> {
        lock(&self.shared).save()
    }

    /// CDBs received so far (most recent last; the oldest are dropped past 4096).
    pub fn trace(&self) -> Vec<Vec<u8>> {
        lock(&self.shared)
            .trace
            .iter()
            .map(|c| c.as_slice().to_vec())
            .collect()
    }

    /// A summary of the drive's state.
    pub fn info(&self) -> SimInfo {
        let mut s = lock(&self.shared);
        s.sync();
        let p = s.profile;
        let d = &s.d;
        SimInfo {
            profile: p.name.into(),
            serial: d.serial.clone(),
            lu_name: format!("{:016x}", d.lu_naa),
            port_sas_addresses: d.port_sas[..usize::from(p.ports.clamp(1, 2))]
                .iter()
                .map(|a| format!("{a:016x}"))
                .collect(),
            logical_block_length: d.lb_len,
            logical_blocks: d.num_blocks,
            capacity_bytes: d.num_blocks * u64::from(d.lb_len),
            protection_type: d.prot_type,
            operation: d.op.as_ref().map(|o| {
                let name = match o {
                    drive::LongOp::Format { .. } => "format",
                    drive::LongOp::Sanitize { .. } => "sanitize",
                };
                (
                    name.to_string(),
                    f64::from(o.progress(d.now_ns)) * 100.0 / 65536.0,
                )
            }),
            format_corrupt: d.format_corrupt,
            sanitize_failed: d.sanitize_failed.is_some(),
            clock_seconds: d.now_ns as f64 / 1e9,
            clock: match s.mode {
                ClockMode::Real => "real".into(),
                ClockMode::Virtual => "virtual".into(),
            },
            stored_blocks: d.store.stored_blocks(),
            host_bytes_written: d.stats.host_bytes_written,
            endurance_used_percent: d.endurance_used(p),
            temperature_c: d.temperature(p),
            label: DriveLabel {
                vendor: p.vendor.trim().into(),
                model: p.product.trim().into(),
                firmware: d.revision(p).trim().into(),
                serial: d.serial.clone(),
                wwn: format!("{:016x}", d.lu_naa),
                psid: p
                    .sed
                    .map(|_| String::from_utf8_lossy(&tcg::tper::psid_for(&d.serial)).into_owned()),
            },
        }
    }
}

pub(crate) fn apply_fault(d: &mut Drive, f: Fault) {
    match f {
        Fault::PowerCycle => d.power_cycle(),
        Fault::LuReset => d.lu_reset(),
        Fault::Timeout(n) => d.faults.timeout = d.faults.timeout.saturating_add(n),
        Fault::Busy(n) => d.faults.busy = d.faults.busy.saturating_add(n),
        Fault::Disconnect(n) => d.faults.disconnect = d.faults.disconnect.saturating_add(n),
        Fault::MediumError(lba) => {
            d.faults.medium_errors.insert(lba);
        }
        Fault::CorruptBlock(lba) => {
            d.faults.corrupt.insert(lba);
        }
        Fault::FailFormat => d.faults.fail_format = true,
        Fault::FailSanitize => d.faults.fail_sanitize = true,
        Fault::NoopSanitize => d.faults.noop_sanitize = true,
        Fault::Heat(c) => d.faults.heat_c = c,
        Fault::Wear(pct) => {
            let pe = if d.pe_cycles > 0 { d.pe_cycles } else { 3000 };
            d.wear_pe = f64::from(pct) * f64::from(pe) / 100.0;
            // The bytes, hours and cycles that wear implies (sim/src/sim/aging.rs).
            if let Some(p) = d.profile() {
                let a = aging::derive(p, d.capacity_bytes, d.wear_pe, None);
                d.age_to(&a);
            }
        }
        Fault::SubstituteBlockLength(lb) => d.faults.substitute_lb_len = Some(lb),
        Fault::UnlistedBlockLength(lb) => d.faults.unlisted_lb_len = Some(lb),
        Fault::FailMicrocode(k) => d.faults.fail_microcode = Some(k.max(1)),
        Fault::MicrocodeModes(m) => d.faults.dm_md_mask = Some(m),
        Fault::TcgSpBusy(n) => {
            if let Some(t) = d.sed.tper.as_mut() {
                t.faults.sp_busy = t.faults.sp_busy.saturating_add(n);
            }
        }
        Fault::TcgSessionTimeout => {
            if let Some(t) = d.sed.tper.as_mut() {
                t.faults.session_timeout = true;
            }
        }
        Fault::Clear => {
            d.faults = Default::default();
            if let Some(t) = d.sed.tper.as_mut() {
                t.faults = Default::default();
            }
        }
    }
}

impl Drop for SimDevice {
    fn drop(&mut self) {
        if Arc::strong_count(&self.shared) == 1 {
            // Nobody to return it to: noted for [`take_save_failures`] (and printed).
            if let Err(e) = lock(&self.shared).save() {
                note_save_failure(&e);
            }
        }
    }
}

impl SimDevice {
    /// Executes a command submitted at drive time `at_ns` on a virtual clock without waiting
    /// for it: the completion's `duration` is how long after `at_ns` it completes, given the
    /// commands queued before it. Calls must come in non-decreasing `at_ns` order (the
    /// benchmark engine's closed loop at queue depth N). Real-clock drives refuse.
    pub fn execute_queued(
        &mut self,
        cdb: &[u8],
        data: DataBuf<'_>,
        timeout: Duration,
        at_ns: u64,
    ) -> Result<Completion> {
        if lock(&self.shared).mode != ClockMode::Virtual {
            return Err(Error::Unsupported(
                "queued execution needs a virtual-clock drive (clock=virtual)".into(),
            ));
        }
        if cdb.len() < 6 || cdb.len() > 32 || data.len() > MAX_HW_BYTES {
            return self.execute(cdb, data, timeout);
        }
        Ok(target::execute_at(
            &self.shared,
            self.port,
            cdb,
            data,
            timeout,
            Some(at_ns),
        ))
    }
}

impl Transport for SimDevice {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        // The kernel's SG_IO checks (protocols.md §A.1): cmd_len < 6 → EMSGSIZE, > 32 → EINVAL.
        if cdb.len() < 6 || cdb.len() > 32 {
            return Err(Error::Os {
                op: "SG_IO",
                path: self.address(),
                errno: if cdb.len() < 6 {
                    nix::errno::Errno::EMSGSIZE
                } else {
                    nix::errno::Errno::EINVAL
                },
                hint: None,
            });
        }
        // Larger than the block layer's max_hw_sectors: EIO before anything is sent (§A.3).
        if data.len() > MAX_HW_BYTES {
            return Err(Error::Os {
                op: "SG_IO",
                path: self.address(),
                errno: nix::errno::Errno::EIO,
                hint: Some("transfer larger than the HBA's max_hw_sectors"),
            });
        }
        Ok(target::execute(&self.shared, self.port, cdb, data, timeout))
    }

    fn address(&self) -> String {
        let s = lock(&self.shared);
        if self.port == 1 {
            s.address.clone()
        } else {
            format!("{}#port{}", s.address, self.port)
        }
    }
}

/// Parsed `sim:` options.
#[derive(Debug, Default, Clone)]
pub struct SimOptions {
    /// `state=`
    pub state: Option<PathBuf>,
    /// `serial=`
    pub serial: Option<String>,
    /// `capacity_gib=` / `capacity_blocks=` as bytes.
    pub capacity_bytes: Option<u64>,
    /// `clock=`
    pub clock: Option<ClockMode>,
    /// `port=`
    pub port: Option<u16>,
    /// `speed=` (real clock: drive seconds per wall second)
    pub speed: Option<f64>,
    /// `dsense=1`
    pub dsense: Option<bool>,
    /// `used=1`: a new drive comes with old user data in every block.
    pub used: bool,
    /// Faults to inject at open.
    pub faults: Vec<Fault>,
}

fn bad(spec: &str, reason: impl Into<String>) -> Error {
    Error::BadAddress {
        address: format!("sim:{spec}"),
        reason: reason.into(),
    }
}

const KEYS: &str =
    "state, serial, capacity_gib, capacity_blocks, clock, speed, port, dsense, used, \
                    busy, disconnect, timeout, medium_error, corrupt, fail_format, fail_sanitize, noop_sanitize, \
                    substitute_block, unlisted_block, fail_microcode, microcode_modes, heat, wear, tcg_sp_busy, tcg_session_timeout, power_cycle";

/// Splits `PROFILE?k=v&k=v` and validates the options.
pub fn parse_spec(spec: &str) -> Result<(&'static Profile, SimOptions)> {
    let (name, query) = match spec.split_once('?') {
        Some((n, q)) => (n, q),
        None => (spec, ""),
    };
    let p = profile::find(name).ok_or_else(|| {
        let names: Vec<&str> = profile::PROFILES.iter().map(|p| p.name).collect();
        bad(
            spec,
            format!("unknown profile '{name}' (known: {})", names.join(", ")),
        )
    })?;
    let mut o = SimOptions::default();
    for kv in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| bad(spec, format!("option '{kv}' needs a value (key=value)")))?;
        let num = |v: &str| -> Result<u64> {
            v.parse::<u64>()
                .map_err(|_| bad(spec, format!("{k}={v}: not a number")))
        };
        let flag = |v: &str| -> Result<bool> {
            match v {
                "1" | "true" | "yes" => Ok(true),
                "0" | "false" | "no" => Ok(false),
                _ => Err(bad(spec, format!("{k}={v}: expected 0 or 1"))),
            }
        };
        match k {
            "state" => o.state = Some(PathBuf::from(v)),
            "serial" => {
                if v.is_empty() || v.len() > 20 || !v.bytes().all(|b| b.is_ascii_graphic()) {
                    return Err(bad(spec, "serial must be 1-20 printable ASCII characters"));
                }
                o.serial = Some(v.to_string());
            }
            "capacity_gib" => {
                let g: f64 = v
                    .parse()
                    .map_err(|_| bad(spec, format!("capacity_gib={v}: not a number")))?;
                if !(g > 0.0 && g <= 1_048_576.0) {
                    return Err(bad(spec, "capacity_gib must be > 0"));
                }
                o.capacity_bytes = Some((g * 1024.0 * 1024.0 * 1024.0) as u64);
            }
            "capacity_blocks" => {
                let n = num(v)?;
                let max = state_check::MAX_CAPACITY_BYTES / u64::from(p.default_block_len.max(1));
                if !(64..=max).contains(&n) {
                    return Err(bad(spec, format!("capacity_blocks must be 64..={max}")));
                }
                o.capacity_bytes = Some(n.saturating_mul(u64::from(p.default_block_len)));
            }
            "clock" => {
                o.clock = Some(match v {
                    "real" => ClockMode::Real,
                    "virtual" => ClockMode::Virtual,
                    _ => return Err(bad(spec, "clock must be real or virtual")),
                })
            }
            "speed" => {
                let x: f64 = v
                    .parse()
                    .map_err(|_| bad(spec, format!("speed={v}: not a number")))?;
                if !(x.is_finite() && (0.001..=1e9).contains(&x)) {
                    return Err(bad(spec, "speed must be between 0.001 and 1e9"));
                }
                o.speed = Some(x);
            }
            "port" => {
                let n = num(v)?;
                if n == 0 || n > u64::from(p.ports) {
                    return Err(bad(spec, format!("port must be 1..={}", p.ports)));
                }
                o.port = Some(n as u16);
            }
            "dsense" => o.dsense = Some(flag(v)?),
            "used" => o.used = flag(v)?,
            "busy" => o.faults.push(Fault::Busy(num(v)?.min(1 << 20) as u32)),
            "disconnect" => o
                .faults
                .push(Fault::Disconnect(num(v)?.min(1 << 20) as u32)),
            "timeout" => o.faults.push(Fault::Timeout(num(v)?.min(1 << 20) as u32)),
            "tcg_sp_busy" => o.faults.push(Fault::TcgSpBusy(num(v)?.min(1 << 20) as u32)),
            "tcg_session_timeout" => o.faults.push(Fault::TcgSessionTimeout),
            "heat" => {
                let c: i16 = v
                    .parse()
                    .map_err(|_| bad(spec, format!("heat={v}: not a number of degrees")))?;
                o.faults.push(Fault::Heat(c.clamp(-100, 200)));
            }
            "wear" => o.faults.push(Fault::Wear(num(v)?.min(255) as u8)),
            "medium_error" => {
                for l in v.split(',') {
                    o.faults.push(Fault::MediumError(num(l)?));
                }
            }
            "corrupt" => {
                for l in v.split(',') {
                    o.faults.push(Fault::CorruptBlock(num(l)?));
                }
            }
            "fail_format" => {
                if flag(v)? {
                    o.faults.push(Fault::FailFormat)
                }
            }
            "substitute_block" => {
                let n = num(v)?;
                if !(256..=65536).contains(&n) {
                    return Err(bad(spec, "substitute_block must be 256..65536"));
                }
                o.faults.push(Fault::SubstituteBlockLength(n as u32));
            }
            "unlisted_block" => {
                let n = num(v)?;
                if !(256..=65536).contains(&n) {
                    return Err(bad(spec, "unlisted_block must be 256..65536"));
                }
                o.faults.push(Fault::UnlistedBlockLength(n as u32));
            }
            "fail_sanitize" => {
                if flag(v)? {
                    o.faults.push(Fault::FailSanitize)
                }
            }
            "fail_microcode" => {
                let k = num(v)?;
                if !(1..=65536).contains(&k) {
                    return Err(bad(
                        spec,
                        "fail_microcode must be 1..65536 (the K-th WRITE BUFFER)",
                    ));
                }
                o.faults.push(Fault::FailMicrocode(k as u32));
            }
            "microcode_modes" => {
                // `none` or hex modes joined by `+` (`5+7+e`): the DM_MD bits listed.
                let mut mask = 0u8;
                for m in v.split('+').filter(|m| *m != "none" && !m.is_empty()) {
                    mask |=
                        match m.to_ascii_lowercase().as_str() {
                            "4" => 0x80,
                            "5" => 0x40,
                            "6" => 0x20,
                            "7" => 0x10,
                            "d" => 0x08,
                            "e" => 0x04,
                            "f" => 0x02,
                            _ => return Err(bad(
                                spec,
                                "microcode_modes is none or hex modes 4,5,6,7,d,e,f joined by +",
                            )),
                        };
                }
                o.faults.push(Fault::MicrocodeModes(mask));
            }
            "noop_sanitize" => {
                if flag(v)? {
                    o.faults.push(Fault::NoopSanitize)
                }
            }
            "power_cycle" => {
                if flag(v)? {
                    o.faults.push(Fault::PowerCycle)
                }
            }
            _ => return Err(bad(spec, format!("unknown option '{k}' (known: {KEYS})"))),
        }
    }
    Ok((p, o))
}

/// Checks and loads the bytes of a state file (`name` for messages): a hand-edited or damaged
/// file is refused with an error, never a drive that misbehaves or panics. Opening a state file
/// is a power cycle.
fn load_state(
    spec: &str,
    p: &'static Profile,
    o: &SimOptions,
    bytes: &[u8],
    name: &str,
) -> Result<Drive> {
    let mut d: Drive =
        serde_json::from_slice(bytes).map_err(|e| bad(spec, format!("state file {name}: {e}")))?;
    // A hand-edited or damaged file must not make the drive misbehave (or panic): every
    // number is checked (sim/src/sim/state_check.rs) and every problem listed.
    if d.profile != p.name {
        return Err(bad(
            spec,
            format!(
                "state file {} holds a {} drive, not {}",
                name, d.profile, p.name
            ),
        ));
    }
    state_check::check(&d, p)
        .map_err(|e| bad(spec, format!("state file {name} is inconsistent: {e}")))?;
    if let Some(s) = &o.serial {
        if *s != d.serial {
            return Err(bad(
                spec,
                format!("state file holds the drive with serial {}", d.serial),
            ));
        }
    }
    // Opening a state file is a power cycle: persistent reservations survive it only
    // with APTPL (SPC-5 5.14.5).
    d.pr = d.pr.after_power_cycle();
    Ok(d)
}

/// Opens a virtual drive from a `sim:` spec and the bytes of a state file, checked as
/// [`open`] checks a `state=` file; the drive is not saved anywhere. The fuzz target of the
/// state file uses it (no file system in the loop).
pub fn open_state_bytes(spec: &str, bytes: &[u8]) -> Result<SimDevice> {
    let (p, o) = parse_spec(spec)?;
    if o.state.is_some() {
        return Err(bad(spec, "state= with the bytes of a state file"));
    }
    let d = load_state(spec, p, &o, bytes, "(bytes)")?;
    Ok(finish(spec, p, o, d, true, None))
}

/// Opens a virtual drive from a `sim:` spec (without the `sim:` prefix).
pub fn open(spec: &str) -> Result<SimDevice> {
    let (p, mut o) = parse_spec(spec)?;
    if let Some(path) = &o.state {
        o.state = Some(state_path(spec, path)?);
    }
    let lock = match &o.state {
        Some(path) => Some(lock_state(spec, path)?),
        None => None,
    };
    let mut loaded = false;
    let d = match &o.state {
        Some(path) if path.exists() => {
            let bytes = std::fs::read(path)
                .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
            let d = load_state(spec, p, &o, &bytes, &path.display().to_string())?;
            loaded = true;
            d
        }
        _ => {
            let serial = o.serial.clone().unwrap_or_else(|| p.serial.to_string());
            let cap = o
                .capacity_bytes
                .unwrap_or(p.capacity_bytes)
                .max(64 * u64::from(p.default_block_len));
            let mut d = Drive::new(p, &serial, cap);
            if o.used {
                let generation = d.sed.key_generation(0);
                d.store.fill_user_data(generation);
                // Old data in every block: the whole drive was written at least once.
                let pe = d.wear_pe.max(aging::one_fill_pe(p));
                let a = aging::derive(p, d.capacity_bytes, pe, None);
                d.age_to(&a);
            }
            d
        }
    };
    Ok(finish(spec, p, o, d, loaded, lock))
}

/// The rest of [`open`]: the drive's clock, the spec's overrides and faults.
fn finish(
    spec: &str,
    p: &'static Profile,
    o: SimOptions,
    d: Drive,
    loaded: bool,
    lock: Option<nix::fcntl::Flock<std::fs::File>>,
) -> SimDevice {
    let mode = o.clock.unwrap_or(ClockMode::Real);
    let mut sh = Shared {
        profile: p,
        d,
        mode,
        speed: o.speed.unwrap_or(1.0),
        anchor: Instant::now(),
        state_path: o.state.clone(),
        trace: std::collections::VecDeque::new(),
        address: format!("sim:{spec}"),
        medium: medium::Medium::default(),
        _lock: lock,
        last_save: Instant::now(),
        defer_service: false,
        saver: None,
        save_ns: Arc::default(),
    };
    // power_cycle=1: the drive was off since the state was saved (a killed server, a pulled
    // plug): no clock catch-up; the power cycle (applied below) loses a format in progress
    // (31/00) and resumes a sanitize.
    let off = o.faults.contains(&Fault::PowerCycle);
    if loaded && !off && mode == ClockMode::Real && sh.d.saved_unix_ns > 0 {
        // The drive stayed powered between invocations: catch its clock up.
        let gap = unix_ns().saturating_sub(sh.d.saved_unix_ns);
        sh.advance((gap as f64 * sh.speed) as u64);
    }
    if let Some(ds) = o.dsense {
        sh.d.mode.d_sense = ds;
        sh.d.mode_saved.d_sense = ds;
    }
    for f in o.faults {
        apply_fault(&mut sh.d, f);
    }
    sh.complete_due();
    SimDevice {
        shared: Arc::new(Mutex::new(sh)),
        port: o.port.unwrap_or(1),
    }
}
