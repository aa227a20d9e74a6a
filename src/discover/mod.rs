//! Discovery: every SCSI device from sysfs, identified over SG_IO and grouped by
//! logical-unit name into drives with all their paths.
//!
//! - [`scan`] walks `/sys/class/scsi_device` (or a captured tree with `--sysroot`), reads each
//!   device's nodes and SAS topology (`sysfs`), identifies it with INQUIRY, VPD 0x80/0x83/0xB1
//!   and READ CAPACITY(16) (`ident`), and groups paths by LU name. A device the kernel's
//!   copies identify is read in the calling thread (no command is sent); every other device is
//!   probed in its own thread with a deadline, so one hung device costs at most the timeout and
//!   shows up as an error in its own row while the rest of the scan completes. The mount table
//!   and swap list are read once per scan.
//! - [`paths_of`] returns the drive a device address belongs to, with every path — the entry
//!   point of the safety gate: `discover::paths_of(address)?.in_use()?` lists why the
//!   drive must not be touched ([`Drive::in_use`]).
//!
//! With a sysroot other than `/`, nothing is sent to devices: identification bytes come from
//! `<sysroot>/replay/<sgN>/` (captured with sg3_utils by vm/capture-fixtures.sh) or from the
//! kernel's cached `inquiry`/`vpd_pg8x` sysfs attributes.

pub mod enclosure;
mod gate_host;
pub(crate) mod ident;
pub(crate) mod ses_slots;
pub(crate) mod sysfs;

pub use gate_host::DiscoverHost;

use crate::error::{Error, Result};
use crate::host::{HostView, LinuxHost, MountTables, PathInfo};
use ident::{Files, Identity, Live};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why a drive is in use (mounted, swap, holder, boot disk). Shared with the safety gate.
pub type InUseReason = crate::host::InUse;

/// Default per-device timeout of a scan.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How to get identification bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentMode {
    /// When the sysroot is `/`: the kernel's sysfs copies first, SG_IO only for what they lack
    /// (`ident::SysfsFirst`); captured files otherwise.
    Auto,
    /// Always SG_IO on the device nodes, every command (falls back to the sysfs copies on
    /// error).
    Live,
    /// Never send commands: replay files or the sysfs copies.
    Files,
}

/// Scan settings.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// The directory standing in for `/` (reads `sys/`, `proc/self/mountinfo`, `proc/swaps`).
    pub sysroot: PathBuf,
    /// Per-device deadline (also each command's SG_IO timeout).
    pub timeout: Duration,
    /// `-v` level for the transports (CDB tracing on stderr).
    pub verbose: u8,
    /// Where identification comes from.
    pub mode: IdentMode,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            sysroot: PathBuf::from("/"),
            timeout: DEFAULT_TIMEOUT,
            verbose: 0,
            mode: IdentMode::Auto,
        }
    }
}

impl ScanOptions {
    fn live(&self) -> bool {
        match self.mode {
            IdentMode::Auto => self.sysroot == Path::new("/"),
            IdentMode::Live => true,
            IdentMode::Files => false,
        }
    }

    /// Live, but the kernel's copies first.
    fn sysfs_first(&self) -> bool {
        self.mode == IdentMode::Auto
    }
}

/// One path to a drive: one SCSI device (I_T nexus + LUN) and its OS nodes.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct DrivePath {
    /// The node sgctl opens for this path (sg, else bsg, else block), or the `sim:` address.
    pub address: String,
    /// `/dev/sgN`.
    pub sg: Option<String>,
    /// `/dev/sdX` (absent when sd did not attach or refused the disk, e.g. 520-byte blocks).
    pub block: Option<String>,
    /// `/dev/bsg/H:C:T:L`.
    pub bsg: Option<String>,
    /// SCSI host number.
    pub host: Option<u32>,
    /// `H:C:T:L`.
    pub hctl: Option<String>,
    /// Target port identifier from VPD 0x83 (for SAS: the port's SAS address), `0x…`.
    pub target_port: Option<String>,
    /// Relative target port identifier from VPD 0x83 (1 = port A, 2 = port B).
    pub relative_port: Option<u16>,
    /// SAS address of the end device as the SAS transport class reports it.
    pub sas_address: Option<String>,
    /// SAS end device (`end_device-1:0`).
    pub end_device: Option<String>,
    /// HBA phy(s) this path leaves through (`phy-1:0`).
    pub hba_phy: Option<String>,
    /// Negotiated link rate of the attached phy(s) (`3.0 Gbit`, `12.0 Gbit`).
    pub link_rate: Option<String>,
    /// Kernel device state (`running`, `offline`, ...).
    pub state: Option<String>,
    /// The enclosure and slot this path reaches the drive in (`/sys/class/enclosure`).
    pub enclosure: Option<enclosure::SlotRef>,
    /// Where the identification came from: `sg_io`, `replay` or `sysfs`.
    pub identity_source: Option<&'static str>,
    /// Why this path could not be identified over SG_IO (timeout, error), if it could not.
    pub error: Option<String>,
    #[serde(skip)]
    identity: Option<Identity>,
}

impl DrivePath {
    /// The identification this path returned.
    pub fn identity(&self) -> Option<&Identity> {
        self.identity.as_ref()
    }

    /// The safety gate's view of this path.
    pub fn to_path_info(&self) -> PathInfo {
        let strip = |s: &Option<String>| {
            s.as_ref()
                .map(|x| x.trim_start_matches("/dev/").to_string())
        };
        PathInfo {
            hctl: self.hctl.clone(),
            block: strip(&self.block),
            sg: strip(&self.sg),
        }
    }

    fn matches(&self, address: &str) -> bool {
        let a = address.trim_end_matches('/');
        let short = a.strip_prefix("/dev/").unwrap_or(a);
        [&self.sg, &self.block, &self.bsg]
            .iter()
            .filter_map(|x| x.as_deref())
            .any(|n| n == a || n.strip_prefix("/dev/") == Some(short))
            || self.hctl.as_deref() == Some(a)
            || self.address == a
    }
}

/// A logical unit with all its paths.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Drive {
    /// LU name from VPD 0x83 (`naa.5000c500…`); `None` if the device has no LU designator.
    pub lu_name: Option<String>,
    /// T10 vendor identification.
    pub vendor: Option<String>,
    /// Product identification.
    pub model: Option<String>,
    /// Unit serial number (VPD 0x80).
    pub serial: Option<String>,
    /// Product revision level.
    pub firmware: Option<String>,
    /// Peripheral device type (0 disk, 0x0d enclosure, 0x14 zoned, ...).
    pub peripheral_type: Option<u8>,
    /// Its name.
    pub device_type: Option<String>,
    /// Capacity in bytes (READ CAPACITY(16); the block device's size when that failed).
    pub capacity_bytes: Option<u64>,
    /// Logical block size in bytes (also when sd refused the disk, e.g. 520).
    pub logical_block_size: Option<u32>,
    /// Physical block size in bytes.
    pub physical_block_size: Option<u64>,
    /// T10 protection type: 0 none, 1-3.
    pub protection_type: Option<u8>,
    /// VPD 0xB1 medium rotation rate: 0 not reported, 1 non-rotating (SSD), else rpm.
    pub rotation_rate: Option<u16>,
    /// The enclosure and slot the drive sits in (from its paths' enclosure links; `None`
    /// when no enclosure the kernel knows holds it).
    pub enclosure: Option<enclosure::SlotRef>,
    /// Whether anything on the host uses the drive (see [`Drive::in_use`]); empty = free.
    pub in_use: Vec<InUseReason>,
    /// Problems with this drive (identification failures, disagreeing paths, in-use check).
    pub errors: Vec<String>,
    /// Every path, in H:C:T:L order.
    pub paths: Vec<DrivePath>,
    #[serde(skip)]
    root: PathBuf,
}

impl Drive {
    /// Re-reads the host's mount table, swap list and holders and says why the drive is in use
    /// (any path, partition or stacked device mounted, used as swap, held by dm/md/multipath, or
    /// holding `/`). Empty means free. Errors (an unreadable `/proc/self/mountinfo`) mean the
    /// state is unknown: callers gating destructive work must refuse then.
    pub fn in_use(&self) -> Result<Vec<InUseReason>> {
        match self.host_paths() {
            None => Ok(Vec::new()), // sim: drives live in this process
            Some(paths) => LinuxHost::with_root(&self.root).in_use(&paths),
        }
    }

    /// [`Drive::in_use`] against mount tables read once for a whole scan.
    fn in_use_with(
        &self,
        tables: &std::result::Result<MountTables, String>,
    ) -> std::result::Result<Vec<InUseReason>, String> {
        match self.host_paths() {
            None => Ok(Vec::new()),
            Some(paths) if paths.iter().all(|p| p.block.is_none()) => Ok(Vec::new()),
            Some(paths) => LinuxHost::with_root(&self.root)
                .in_use_in(&paths, tables.as_ref().map_err(String::clone)?)
                .map_err(|e| e.to_string()),
        }
    }

    /// The paths the host knows (with an H:C:T:L); `None` for a virtual drive.
    fn host_paths(&self) -> Option<Vec<PathInfo>> {
        let paths: Vec<PathInfo> = self
            .paths
            .iter()
            .filter(|p| p.hctl.is_some())
            .map(DrivePath::to_path_info)
            .collect();
        (!paths.is_empty()).then_some(paths)
    }

    /// True if any path had an error.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty() || self.paths.iter().any(|p| p.error.is_some())
    }
}

/// The result of a scan.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Scan {
    /// The sysroot read.
    pub sysroot: String,
    /// Number of SCSI devices (paths) found in sysfs.
    pub scsi_devices: usize,
    /// Drives, grouped by LU name.
    pub drives: Vec<Drive>,
    /// Enclosures from `/sys/class/enclosure` (one per SES device the ses driver bound).
    pub enclosures: Vec<enclosure::Enclosure>,
}

/// Identifies one sysfs device: over SG_IO (in a worker thread) or from files.
fn probe(
    root: &Path,
    d: &sysfs::SysDevice,
    live: bool,
    sysfs_first: bool,
    timeout: Duration,
    verbose: u8,
) -> DrivePath {
    let mut p = path_of(d);
    let mut notes = Vec::new();
    if live && !p.address.is_empty() {
        let got = if sysfs_first {
            identify_sysfs_first(d, &p.address, timeout, verbose, true)
        } else {
            identify_live(&p.address, timeout, verbose).map(|(id, n)| (id, n, "sg_io"))
        };
        match got {
            Ok((id, n, source)) => {
                p.identity = Some(id);
                p.identity_source = Some(source);
                notes.extend(n);
            }
            Err(e) => p.error = Some(e),
        }
    } else if live {
        p.error = Some("no sg, bsg or block node to send commands to".into());
    }
    if p.identity.is_none() {
        let replay = root.join("replay").join(d.sg.as_deref().unwrap_or("-"));
        let mut files = Files::new((!live && replay.is_dir()).then_some(replay), d.dir.clone());
        let from_replay = files.replay.is_some();
        match ident::identify(&mut files, &mut notes) {
            Ok(id) => {
                p.identity = Some(id);
                p.identity_source = Some(if from_replay { "replay" } else { "sysfs" });
            }
            Err(e) if p.error.is_none() => p.error = Some(e.to_string()),
            Err(_) => {}
        }
    }
    finish(p, notes)
}

/// A path's nodes and SAS topology from sysfs, not identified yet.
fn path_of(d: &sysfs::SysDevice) -> DrivePath {
    let dev = |n: &Option<String>, pre: &str| n.as_ref().map(|x| format!("/dev/{pre}{x}"));
    let sg = dev(&d.sg, "");
    let block = dev(&d.block, "");
    let bsg = dev(&d.bsg, "bsg/");
    let address = sg
        .clone()
        .or_else(|| bsg.clone())
        .or_else(|| block.clone())
        .unwrap_or_default();
    DrivePath {
        address,
        sg,
        block,
        bsg,
        host: Some(d.host),
        hctl: Some(d.hctl.clone()),
        sas_address: d.sas_address.clone(),
        end_device: d.end_device.clone(),
        hba_phy: (!d.hba_phys.is_empty()).then(|| d.hba_phys.join(",")),
        link_rate: d.link_rate.clone(),
        state: d.state.clone(),
        ..DrivePath::default()
    }
}

/// Copies the port designators out of the identity and appends the notes to the error.
fn finish(mut p: DrivePath, notes: Vec<String>) -> DrivePath {
    if let Some(id) = &p.identity {
        p.target_port = id.target_port.clone();
        p.relative_port = id.relative_port;
    }
    if !notes.is_empty() {
        let n = notes.join("; ");
        p.error = Some(match p.error.take() {
            Some(e) => format!("{e}; {n}"),
            None => n,
        });
    }
    p
}

/// Identifies from the kernel's copies, opening `address` only for what they lack; the error is
/// rendered for the drive's row.
fn identify_sysfs_first(
    d: &sysfs::SysDevice,
    address: &str,
    timeout: Duration,
    verbose: u8,
    may_open: bool,
) -> std::result::Result<(Identity, Vec<String>, &'static str), String> {
    let wanted = std::cell::Cell::new(false);
    let mut src = ident::SysfsFirst::new(
        d.dir.clone(),
        ident::KernelCapacity::of(d),
        timeout,
        Box::new(|| {
            wanted.set(true);
            if may_open {
                crate::device::open(address, crate::device::OpenOptions::traced(verbose))
                    .map(|o| o.transport)
            } else {
                Err(Error::Unsupported(NEEDS_DEVICE.into()))
            }
        }),
    );
    let mut notes = Vec::new();
    let id = ident::identify(&mut src, &mut notes).map_err(|e| e.to_string());
    let source = src.source();
    drop(src);
    if !may_open && wanted.get() {
        return Err(NEEDS_DEVICE.into());
    }
    Ok((id?, notes, source))
}

/// Marks a kernel-copies-only identification that would have had to send a command.
const NEEDS_DEVICE: &str = "the kernel's copies are not enough";

/// Identifies `d` from the kernel's copies alone, in the calling thread (reading sysfs
/// attributes does not wait on the device). `None` when a command would have to be sent: that
/// device is then probed in a thread of its own, under the scan's deadline.
fn probe_kernel_only(d: &sysfs::SysDevice) -> Option<DrivePath> {
    let mut p = path_of(d);
    if p.address.is_empty() {
        return None;
    }
    let (id, notes, source) =
        identify_sysfs_first(d, &p.address, DEFAULT_TIMEOUT, 0, false).ok()?;
    p.identity = Some(id);
    p.identity_source = Some(source);
    Some(finish(p, notes))
}

/// Opens `address` and identifies it; the error is rendered for the drive's row.
fn identify_live(
    address: &str,
    timeout: Duration,
    verbose: u8,
) -> std::result::Result<(Identity, Vec<String>), String> {
    let mut t = crate::device::open(address, crate::device::OpenOptions::traced(verbose))
        .map(|o| o.transport)
        .map_err(|e| e.to_string())?;
    let mut notes = Vec::new();
    let id = ident::identify(
        &mut Live {
            t: &mut *t,
            timeout,
        },
        &mut notes,
    )
    .map_err(|e| e.to_string())?;
    Ok((id, notes))
}

/// Probes every device, each in its own thread, and waits at most `timeout` (plus a small
/// margin for thread start-up) for all of them. A device still busy then gets a timeout error
/// and its identity from the kernel's sysfs copies; its thread is abandoned (an SG_IO stuck in
/// the kernel's error handling cannot be cancelled from user space).
fn probe_all(opts: &ScanOptions, devs: &[sysfs::SysDevice]) -> Vec<DrivePath> {
    let live = opts.live();
    if !live {
        return devs
            .iter()
            .map(|d| probe(&opts.sysroot, d, false, false, opts.timeout, opts.verbose))
            .collect();
    }
    let mut out: Vec<Option<DrivePath>> = vec![None; devs.len()];
    if opts.sysfs_first() {
        // Most devices need nothing but the kernel's copies: no thread for those.
        for (i, d) in devs.iter().enumerate() {
            out[i] = probe_kernel_only(d);
        }
    }
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    let mut spawn_errors = Vec::new();
    for (i, d) in devs.iter().enumerate() {
        if out[i].is_some() {
            continue;
        }
        let (tx, d, root) = (tx.clone(), d.clone(), opts.sysroot.clone());
        let (timeout, verbose, first) = (opts.timeout, opts.verbose, opts.sysfs_first());
        let r = std::thread::Builder::new()
            .name(format!("probe {}", d.hctl))
            .stack_size(256 * 1024)
            .spawn(move || {
                let p = probe(&root, &d, true, first, timeout, verbose);
                let _ = tx.send((i, p));
            });
        if let Err(e) = r {
            spawn_errors.push((i, e.to_string()));
        }
    }
    drop(tx);
    for (i, e) in spawn_errors {
        let mut p = probe(
            &opts.sysroot,
            &devs[i],
            false,
            false,
            opts.timeout,
            opts.verbose,
        );
        p.error = Some(format!("could not start a probe thread: {e}"));
        out[i] = Some(p);
    }
    let deadline = start + opts.timeout + Duration::from_millis(500);
    while out.iter().any(Option::is_none) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((i, p)) => out[i] = Some(p),
            Err(_) => break, // deadline passed (or every sender is gone)
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(i, p)| {
            p.unwrap_or_else(|| {
                let mut p = probe(
                    &opts.sysroot,
                    &devs[i],
                    false,
                    false,
                    opts.timeout,
                    opts.verbose,
                );
                p.identity_source = p.identity.as_ref().map(|_| "sysfs");
                p.error = Some(format!(
                    "no answer within {} ms (timed out; identity from the kernel's sysfs copy)",
                    opts.timeout.as_millis()
                ));
                p
            })
        })
        .collect()
}

/// Groups paths by LU name (paths without one are drives of their own) and fills the drive
/// fields from the first path that was identified.
fn group(root: &Path, devs: &[sysfs::SysDevice], paths: Vec<DrivePath>) -> Vec<Drive> {
    let mut drives: Vec<Drive> = Vec::new();
    // LU name -> index in `drives`: grouping stays linear in the number of paths.
    let mut by_name: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (d, p) in devs.iter().zip(paths) {
        let key = p
            .identity
            .as_ref()
            .and_then(|i| i.lu_name.clone())
            .or_else(|| {
                p.identity
                    .is_none()
                    .then(|| d.kernel_text().wwid)
                    .flatten()
                    .filter(|w| !w.is_empty())
            });
        match key.as_ref().and_then(|k| by_name.get(k)) {
            Some(&i) => drives[i].paths.push(p),
            None => {
                if let Some(k) = &key {
                    by_name.insert(k.clone(), drives.len());
                }
                drives.push(Drive {
                    lu_name: key,
                    paths: vec![p],
                    root: root.to_path_buf(),
                    ..Drive::default()
                });
            }
        }
    }
    // One read of the mount table and swap list for every drive of the scan.
    let tables = LinuxHost::with_root(root)
        .tables()
        .map_err(|e| e.to_string());
    for drive in &mut drives {
        fill(drive, devs, &tables);
    }
    drives
}

fn fill(
    drive: &mut Drive,
    devs: &[sysfs::SysDevice],
    tables: &std::result::Result<MountTables, String>,
) {
    let id = drive.paths.iter().find_map(|p| p.identity.clone());
    // `devs` is in H:C:T:L order ([`sysfs::devices`]), so a path's device is found by binary
    // search (a linear search per path made a scan quadratic in the number of paths).
    let sysdev = |p: &DrivePath| {
        let h = p.hctl.as_ref()?;
        match devs.binary_search_by(|d| sysfs::natural_cmp(&d.hctl, h)) {
            Ok(i) if &devs[i].hctl == h => devs.get(i),
            _ => devs.iter().find(|d| &d.hctl == h),
        }
    };
    if let Some(id) = &id {
        drive.vendor = Some(id.vendor.clone());
        drive.model = Some(id.model.clone());
        drive.firmware = Some(id.firmware.clone());
        drive.serial = Some(id.serial.clone()).filter(|s| !s.is_empty());
        drive.peripheral_type = Some(id.peripheral_type);
        drive.rotation_rate = id.rotation_rate;
        drive.protection_type = id.protection_type;
        drive.logical_block_size = id.logical_block_size;
        drive.physical_block_size = id.physical_block_size;
        drive.capacity_bytes = id
            .lba_count
            .zip(id.logical_block_size)
            .and_then(|(n, b)| n.checked_mul(u64::from(b)));
        // Paths that disagree about the drive are worth a line in its row.
        for p in &drive.paths {
            if let Some(o) = &p.identity {
                if o.serial != id.serial || o.model != id.model {
                    drive.errors.push(format!(
                        "{} reports serial {:?} model {:?}, unlike the other paths",
                        p.address, o.serial, o.model
                    ));
                }
            }
        }
    } else if let Some(d) = drive.paths.first().and_then(sysdev) {
        let k = d.kernel_text();
        drive.vendor = k.vendor;
        drive.model = k.model;
        drive.firmware = k.rev;
        drive.peripheral_type = k.peripheral_type;
    }
    if drive.capacity_bytes.is_none() {
        if let Some((bytes, lbs)) = drive
            .paths
            .iter()
            .filter_map(sysdev)
            .find_map(|d| d.block_capacity)
        {
            drive.capacity_bytes = Some(bytes);
            drive.logical_block_size.get_or_insert(lbs);
        }
    }
    drive.device_type = drive
        .peripheral_type
        .map(|t| crate::scsi::inquiry::pdt_name(t).to_string());
    place(drive);
    match drive.in_use_with(tables) {
        Ok(v) => drive.in_use = v,
        Err(e) => drive.errors.push(format!("in-use check failed: {e}")),
    }
}

/// Wall time of a scan's phases on stderr, when `SGCTL_SCAN_TIMES` is set (docs/discovery.md,
/// "How a scan stays cheap"): where the time goes on a machine at hand, without a profiler.
pub struct Phases {
    start: Option<Instant>,
    last: Instant,
}

impl Phases {
    /// Timing starts now if `SGCTL_SCAN_TIMES` is set; otherwise [`Phases::mark`] does nothing.
    pub fn start() -> Phases {
        let now = Instant::now();
        Phases {
            start: std::env::var_os("SGCTL_SCAN_TIMES").map(|_| now),
            last: now,
        }
    }

    /// Prints the time since the previous mark and since the start, naming the phase ended.
    pub fn mark(&mut self, phase: &str) {
        if let Some(start) = self.start {
            let now = Instant::now();
            eprintln!(
                "scan time: {phase} {:.1} ms (total {:.1} ms)",
                (now - self.last).as_secs_f64() * 1e3,
                (now - start).as_secs_f64() * 1e3
            );
            self.last = now;
        }
    }
}

/// Scans the system (or a captured sysroot).
pub fn scan(opts: &ScanOptions) -> Result<Scan> {
    let mut t = Phases::start();
    let devs = sysfs::devices(&opts.sysroot);
    t.mark("sysfs devices");
    let mut paths = probe_all(opts, &devs);
    t.mark("identify");
    let enclosures = enclosure::enclosures(&opts.sysroot);
    let slots = enclosure::slots_by_device(&enclosures);
    for p in &mut paths {
        p.enclosure = p.hctl.as_ref().and_then(|h| slots.get(h).cloned());
    }
    // Paths the kernel linked to no slot: the enclosure services devices' own pages (live
    // host only; a captured tree's device nodes are not this host's).
    if opts.sysroot == Path::new("/") {
        for e in ses_slots::fill(&mut paths, opts.timeout) {
            if opts.verbose > 0 {
                eprintln!("sgctl: enclosure services device: {e}");
            }
        }
    }
    t.mark("enclosures");
    let drives = group(&opts.sysroot, &devs, paths);
    t.mark("group and in-use");
    Ok(Scan {
        sysroot: opts.sysroot.display().to_string(),
        scsi_devices: devs.len(),
        drives,
        enclosures,
    })
}

/// The drive's slot from its paths: the first path's; paths placing the drive in different
/// slots are an error of the drive.
fn place(drive: &mut Drive) {
    let mut seen: Vec<&enclosure::SlotRef> = Vec::new();
    for s in drive.paths.iter().filter_map(|p| p.enclosure.as_ref()) {
        if !seen.iter().any(|x| x.same_place(s)) {
            seen.push(s);
        }
    }
    if seen.len() > 1 {
        let places: Vec<String> = seen.iter().map(|s| s.short()).collect();
        drive.errors.push(format!(
            "paths place the drive in different slots: {}",
            places.join(", ")
        ));
    }
    drive.enclosure = seen.first().map(|s| (*s).clone());
}

/// The drive `address` belongs to, with all its paths. `address` is a node (`/dev/sgN`,
/// `/dev/sdX`, `/dev/bsg/H:C:T:L`, or a symlink to one), `H:C:T:L`, an LU name (`naa.…`), or a
/// `sim:` address (one path, nothing on the host can use it).
pub fn paths_of(address: &str) -> Result<Drive> {
    paths_of_with(address, &ScanOptions::default())
}

/// [`paths_of`] with explicit options (sysroot for tests, timeout).
pub fn paths_of_with(address: &str, opts: &ScanOptions) -> Result<Drive> {
    paths_and_scan(address, opts).map(|(d, _)| d)
}

/// [`paths_of_with`], also handing back the scan of the host it made (`None` for a virtual
/// address, which needs none), for a caller that needs more of it (the enclosure services
/// devices), so that one command scans the host once.
pub fn paths_and_scan(address: &str, opts: &ScanOptions) -> Result<(Drive, Option<Scan>)> {
    if crate::device::is_virtual_address(address) {
        let (id, notes) =
            identify_live(address, opts.timeout, opts.verbose).map_err(|e| Error::BadAddress {
                address: address.into(),
                reason: e,
            })?;
        let mut d = Drive {
            lu_name: id.lu_name.clone(),
            errors: notes,
            root: opts.sysroot.clone(),
            paths: vec![DrivePath {
                address: address.into(),
                target_port: id.target_port.clone(),
                relative_port: id.relative_port,
                identity_source: Some("sg_io"),
                identity: Some(id),
                ..DrivePath::default()
            }],
            ..Drive::default()
        };
        fill(&mut d, &[], &Ok(MountTables::default()));
        return Ok((d, None));
    }
    // Follow /dev/disk/by-id/... style symlinks on the live system.
    let mut wanted = address.to_string();
    if opts.sysroot == Path::new("/") && address.starts_with("/dev/") {
        if let Ok(c) = std::fs::canonicalize(address) {
            wanted = c.display().to_string();
        }
    }
    let s = scan(opts)?;
    let d = s
        .drives
        .iter()
        .find(|d| {
            d.lu_name.as_deref() == Some(wanted.as_str())
                || d.paths.iter().any(|p| p.matches(&wanted))
        })
        .cloned()
        .ok_or_else(|| Error::NotScsi {
            path: address.into(),
            reason: format!(
                "not among the {} SCSI device(s) in {}/sys (try `sgctl scan`)",
                s.scsi_devices,
                s.sysroot.trim_end_matches('/')
            ),
        })?;
    Ok((d, Some(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture_dev(hctl: &str) -> (tempfile::TempDir, sysfs::SysDevice) {
        // A copy, so a test can take a kernel copy away.
        let tmp = sysfs::copy_fixture("scsi-debug");
        let d = sysfs::device(tmp.path(), hctl).expect("fixture device");
        (tmp, d)
    }

    /// The threadless fast path gives the row a threaded sysfs-first probe gives, when the
    /// kernel's copies hold everything (scsi_debug: INQUIRY, VPD 0x80/0x83/0xB1, sd capacity).
    #[test]
    fn kernel_copies_identify_without_a_thread() {
        let (_tmp, d) = fixture_dev("0:0:0:3");
        let p = probe_kernel_only(&d).expect("identified from the kernel's copies");
        assert_eq!(p.identity_source, Some("sysfs"));
        assert_eq!(p.address, "/dev/sg3");
        let id = p.identity().unwrap();
        assert!(id.lu_name.as_deref().unwrap().starts_with("naa."), "{id:?}");
        assert!(id.lba_count.is_some());
        assert_eq!(p.error, None);
    }

    /// A device whose identification needs a command (here: sd did not attach, so no
    /// capacity) is left to a probe thread: nothing is opened on the caller's thread.
    #[test]
    fn a_device_needing_a_command_is_left_to_a_thread() {
        let (_tmp, mut d) = fixture_dev("0:0:0:3");
        d.block_capacity = None;
        assert!(probe_kernel_only(&d).is_none());
        let (_tmp, d) = fixture_dev("0:0:0:4");
        std::fs::remove_file(d.dir.join("vpd_pg83")).unwrap();
        std::fs::remove_file(d.dir.join("vpd_pg0")).unwrap();
        assert!(probe_kernel_only(&d).is_none());
    }

    /// One snapshot of the mount table serves every drive; an unreadable one is an error row
    /// for the drives with a block device, as the per-drive read was.
    #[test]
    fn in_use_with_one_snapshot() {
        let (tmp, _) = fixture_dev("0:0:0:0");
        let devs = sysfs::devices(tmp.path());
        let opts = ScanOptions {
            sysroot: tmp.path().into(),
            ..ScanOptions::default()
        };
        let paths = probe_all(&opts, &devs);
        let drives = group(tmp.path(), &devs, paths.clone());
        assert!(drives
            .iter()
            .all(|d| d.errors.is_empty() && d.in_use.is_empty()));
        std::fs::remove_file(tmp.path().join("proc/self/mountinfo")).unwrap();
        let drives = group(tmp.path(), &devs, paths);
        assert!(drives.iter().all(|d| d
            .errors
            .iter()
            .any(|e| e.starts_with("in-use check failed: reading /proc/self/mountinfo"))));
    }
}
