//! Identification of one path: standard INQUIRY, VPD 0x80 / 0x83 / 0xB1 and READ CAPACITY(16).
//!
//! The bytes come from SG_IO (live), from replay files, or from the kernel's cached copies in
//! sysfs (`inquiry`, `vpd_pg80`, `vpd_pg83`, `vpd_pgb1`); all three go through the same parsers.
//! Parsing is the shared `scsi::inquiry`, `scsi::vpd` and `scsi::read_capacity` code.

use crate::cmd;
use crate::error::{Error, Result};
use crate::scsi::vpd::designator::{Association, Designator};
use crate::scsi::vpd::device_id::DeviceIdentification;
use crate::scsi::{inquiry, read_capacity, vpd};
use crate::transport::Transport;
use serde::Serialize;
use std::time::Duration;

/// What one path says about its logical unit: the one identity every command and job reads
/// ([`read`], `ops::query::Query::identity`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Identity {
    /// Peripheral device type (INQUIRY byte 0 bits 4-0).
    pub peripheral_type: u8,
    /// T10 vendor identification.
    pub vendor: String,
    /// Product identification.
    pub model: String,
    /// Product revision level.
    pub firmware: String,
    /// Unit serial number (VPD 0x80); empty when the drive has no such page.
    pub serial: String,
    /// LU name from VPD 0x83 in the kernel's `wwid` style (`naa.…`, `eui.…`, or the SCSI name
    /// string), see [`lu_name`].
    pub lu_name: Option<String>,
    /// The same LU designator as sgctl's one WWN spelling: lowercase hex without prefix
    /// (`5000c500000000cc`; the SCSI name string as it is). Records, certificates and
    /// `--confirm` use it.
    pub wwn: Option<String>,
    /// Target port identifier from VPD 0x83 (association 1, NAA), as `0x…`.
    pub target_port: Option<String>,
    /// Relative target port (VPD 0x83 designator type 4).
    pub relative_port: Option<u16>,
    /// READ CAPACITY(16): number of logical blocks.
    pub lba_count: Option<u64>,
    /// Logical block length in bytes.
    pub logical_block_size: Option<u32>,
    /// Physical block length in bytes.
    pub physical_block_size: Option<u64>,
    /// T10 PI type (0 none, 1-3).
    pub protection_type: Option<u8>,
    /// VPD 0xB1 MEDIUM ROTATION RATE: 0 not reported, 1 non-rotating, else rpm.
    pub rotation_rate: Option<u16>,
    /// INQUIRY PROTECT bit.
    pub protect: bool,
    /// INQUIRY MULTIP bit (more than one port).
    pub multip: bool,
}

/// The logical unit name in the kernel's `wwid` style: `naa.<hex>`, `eui.<hex>` or the SCSI name
/// string, chosen NAA > EUI-64 > SCSI name among LU-associated designators (smartmontools
/// `scsi_decode_lu_dev_id`, docs/protocols.md §E.4), so it matches `/sys/.../wwid` and lsscsi.
pub(crate) fn lu_name(page: &DeviceIdentification) -> Option<String> {
    let lu = || {
        page.designators
            .iter()
            .filter(|d| d.association == Association::LogicalUnit)
    };
    let strip = |v: &str| v.trim_start_matches("0x").to_ascii_lowercase();
    lu().find_map(|d| match &d.designator {
        Designator::Naa { value, .. } => Some(format!("naa.{}", strip(value))),
        _ => None,
    })
    .or_else(|| {
        lu().find_map(|d| match &d.designator {
            Designator::Eui64 { value, .. } => Some(format!("eui.{}", strip(value))),
            _ => None,
        })
    })
    .or_else(|| {
        lu().find_map(|d| match &d.designator {
            Designator::ScsiName { name } if !name.is_empty() => Some(name.clone()),
            _ => None,
        })
    })
}

/// The WWN spelling of an LU name: `naa.`/`eui.` dropped (the hex is already lowercase).
pub(crate) fn wwn_of(lu_name: &str) -> String {
    lu_name
        .strip_prefix("naa.")
        .or_else(|| lu_name.strip_prefix("eui."))
        .unwrap_or(lu_name)
        .to_string()
}

/// Reads the identity over a transport with the one policy: INQUIRY must work; VPD pages and
/// READ CAPACITY(16) the drive does not have (ILLEGAL REQUEST) leave their fields empty, a VPD
/// page longer than the first allocation is fetched again at its length, a UNIT ATTENTION is
/// retried once ([`crate::cmd::run_query`]); any other failure of an optional page is a
/// note, not an error.
pub(crate) fn read(t: &mut dyn Transport) -> Result<Identity> {
    identify(
        &mut Live {
            t,
            timeout: crate::transport::DEFAULT_TIMEOUT,
        },
        &mut Vec::new(),
    )
}

/// Where the raw identification bytes come from.
pub(crate) trait IdentSource {
    /// Standard INQUIRY data.
    fn inquiry(&mut self) -> Result<Vec<u8>>;
    /// VPD page `page`; `Ok(None)` when the device does not have it.
    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>>;
    /// READ CAPACITY(16) data; `Ok(None)` when not supported.
    fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>>;
    /// The VPD pages the device lists (page 00h): a page not in it is not asked for. `None`
    /// (the default): the list is not known, every page is asked for.
    fn vpd_list(&mut self) -> Option<Vec<u8>> {
        None
    }
    /// The capacity the kernel already holds for this device (sd attached); `None`: ask
    /// [`IdentSource::read_capacity16`].
    fn known_capacity(&mut self) -> Option<KernelCapacity> {
        None
    }
}

/// What sd learnt from READ CAPACITY(16) when it attached, as sysfs shows it: the block
/// device's `size` (512-byte units) and `queue/logical_block_size`,
/// `queue/physical_block_size`, and `scsi_disk/H:C:T:L/protection_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KernelCapacity {
    /// Number of logical blocks.
    pub lba_count: u64,
    /// Logical block length in bytes.
    pub block_len: u32,
    /// Physical block length in bytes.
    pub physical_block_len: u64,
    /// T10 PI type (0 none, 1-3).
    pub protection_type: u8,
}

impl KernelCapacity {
    /// From a sysfs device; `None` unless sd attached with a capacity and every field is there.
    /// A zero `size` is what sd leaves when it refused the drive's geometry ("Unsupported sector
    /// size 520": the queue then still says 512), so the device is asked instead.
    pub(crate) fn of(d: &super::sysfs::SysDevice) -> Option<KernelCapacity> {
        let (bytes, block_len) = d.block_capacity?;
        if bytes == 0 || block_len == 0 || bytes % u64::from(block_len) != 0 {
            return None;
        }
        Some(KernelCapacity {
            lba_count: bytes / u64::from(block_len),
            block_len,
            physical_block_len: d.physical_block_size?,
            protection_type: d.protection_type?,
        })
    }
}

/// Builds an [`Identity`] from a source. Errors from INQUIRY are fatal; a missing VPD page or
/// READ CAPACITY leaves those fields empty; malformed or failing optional pages are reported in
/// `notes`.
pub(crate) fn identify(src: &mut dyn IdentSource, notes: &mut Vec<String>) -> Result<Identity> {
    let inq = inquiry::parse(&src.inquiry()?)?;
    let mut id = Identity {
        peripheral_type: inq.peripheral_device_type,
        vendor: inq.t10_vendor_identification,
        model: inq.product_identification,
        firmware: inq.product_revision_level,
        protect: inq.protect,
        multip: inq.multip,
        ..Identity::default()
    };
    // Ask only for what page 00h lists ([`crate::probe`]): an unlisted page is rejected with
    // ILLEGAL REQUEST, which the drive counts as a non-medium error.
    let listed = src.vpd_list();
    if let Some(b) = listed_vpd(src, listed.as_deref(), 0x80, notes) {
        match vpd::serial::parse(&b) {
            Ok(s) => id.serial = s.unit_serial_number,
            Err(e) => notes.push(e.to_string()),
        }
    }
    if let Some(b) = listed_vpd(src, listed.as_deref(), 0x83, notes) {
        match vpd::device_id::parse(&b) {
            Ok(page) => {
                id.lu_name = lu_name(&page);
                id.wwn = id.lu_name.as_deref().map(wwn_of);
                id.target_port = page.target_port_naa().map(|v| v.to_ascii_lowercase());
                id.relative_port = page.relative_target_port();
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    // Block devices only: direct access, RBC, ZBC (SPC-6 Table 150).
    if matches!(id.peripheral_type, 0x00 | 0x0e | 0x14) {
        if let Some(b) = listed_vpd(src, listed.as_deref(), 0xb1, notes) {
            match vpd::block_characteristics::parse(&b) {
                Ok(p) => id.rotation_rate = Some(p.medium_rotation_rate),
                Err(e) => notes.push(e.to_string()),
            }
        }
        if let Some(c) = src.known_capacity() {
            id.lba_count = Some(c.lba_count);
            id.logical_block_size = Some(c.block_len);
            id.physical_block_size = Some(c.physical_block_len);
            id.protection_type = Some(c.protection_type);
        } else if let Some(b) = optional(src.read_capacity16(), notes) {
            match read_capacity::parse16(&b) {
                Ok(rc) => {
                    id.lba_count = Some(rc.lba_count);
                    id.logical_block_size = Some(rc.block_len);
                    id.physical_block_size = Some(rc.physical_block_len);
                    id.protection_type = Some(rc.protection_type);
                }
                Err(e) => notes.push(e.to_string()),
            }
        }
    }
    Ok(id)
}

/// VPD page `page` when the device lists it (or the list is unknown); a failure becomes a note.
fn listed_vpd(
    src: &mut dyn IdentSource,
    listed: Option<&[u8]>,
    page: u8,
    notes: &mut Vec<String>,
) -> Option<Vec<u8>> {
    if listed.is_some_and(|l| !l.contains(&page)) {
        return None;
    }
    optional(src.vpd(page), notes)
}

/// An optional answer: a failure becomes a note.
fn optional(r: Result<Option<Vec<u8>>>, notes: &mut Vec<String>) -> Option<Vec<u8>> {
    r.unwrap_or_else(|e| {
        notes.push(e.to_string());
        None
    })
}

/// Identification over a live transport (SG_IO / bsg).
pub(crate) struct Live<'a> {
    /// The open device.
    pub t: &'a mut dyn Transport,
    /// Per-command timeout.
    pub timeout: Duration,
}

impl IdentSource for Live<'_> {
    fn inquiry(&mut self) -> Result<Vec<u8>> {
        cmd::inquiry::standard(self.t, 96, self.timeout)
    }

    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        // 252 bytes covers 0x80/0x83/0xB1 of real drives; a longer 0x83 is fetched again.
        cmd::supported(cmd::inquiry::vpd_page(self.t, page, 252, self.timeout))
    }

    fn vpd_list(&mut self) -> Option<Vec<u8>> {
        crate::probe::vpd_pages(self.t).ok()
    }

    fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>> {
        cmd::supported(cmd::inquiry::read_capacity16(self.t, self.timeout))
    }
}

/// Identification from files: a replay directory (`inquiry.bin`, `vpd_80.bin`, `vpd_83.bin`,
/// `vpd_b1.bin`, `rc16.bin`, as written by vm/guest/capture-sysfs.sh) or the kernel's cached
/// copies in the sysfs device directory (`inquiry`, `vpd_pg80`, `vpd_pg83`, `vpd_pgb1`).
pub(crate) struct Files {
    /// Replay directory, if any.
    pub replay: Option<std::path::PathBuf>,
    /// The SCSI device's sysfs directory.
    pub sysfs_dev: std::path::PathBuf,
    /// `sysfs_dev` held open once the first copy is read.
    dir: std::cell::OnceCell<super::sysfs::AttrDir>,
}

impl Files {
    /// Reads the replay directory first (if any), then the kernel's copies in `sysfs_dev`.
    pub(crate) fn new(replay: Option<std::path::PathBuf>, sysfs_dev: std::path::PathBuf) -> Files {
        Files {
            replay,
            sysfs_dev,
            dir: std::cell::OnceCell::new(),
        }
    }

    /// The kernel's copy `name` in the device directory.
    fn sysfs_copy(&self, name: &str) -> Option<Vec<u8>> {
        self.dir
            .get_or_init(|| super::sysfs::AttrDir::open(&self.sysfs_dev))
            .bytes(name)
    }

    fn read(&self, replay_name: &str, sysfs_name: Option<&str>) -> Option<Vec<u8>> {
        if let Some(r) = &self.replay {
            if let Ok(b) = crate::host::read_file(&r.join(replay_name)) {
                return Some(b);
            }
        }
        self.sysfs_copy(sysfs_name?).filter(|b| !b.is_empty())
    }
}

impl IdentSource for Files {
    fn inquiry(&mut self) -> Result<Vec<u8>> {
        self.read("inquiry.bin", Some("inquiry")).ok_or_else(|| {
            Error::Unsupported(format!(
                "no INQUIRY data in {} (or its replay)",
                self.sysfs_dev.display()
            ))
        })
    }

    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        Ok(self.read(
            &format!("vpd_{page:02x}.bin"),
            Some(&format!("vpd_pg{page:02x}")),
        ))
    }

    fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>> {
        // The kernel keeps no copy of READ CAPACITY data in sysfs.
        Ok(self.read("rc16.bin", None))
    }
}

/// Sysfs first, SG_IO only for what the kernel does not hold: the kernel's copies of
/// INQUIRY (`inquiry`), the VPD pages (`vpd_pg80`, `vpd_pg83`, `vpd_pgb1`; a page that
/// `vpd_pg0` does not list is absent without asking) and the capacity ([`KernelCapacity`]).
/// The device is opened only when something is missing (a disk sd did not attach, a kernel
/// that keeps no VPD copies), and then at most once.
pub(crate) struct SysfsFirst<'a> {
    /// The device's sysfs copies (no replay).
    pub sysfs: Files,
    /// The capacity sd holds, if it attached.
    pub capacity: Option<KernelCapacity>,
    /// Opens the device when a command must be sent.
    pub open: Box<dyn FnMut() -> Result<Box<dyn Transport>> + 'a>,
    /// Per-command timeout.
    pub timeout: Duration,
    t: Option<Box<dyn Transport>>,
    /// Answers taken from sysfs.
    pub from_sysfs: u32,
    /// Commands sent to the device.
    pub sent: u32,
}

impl<'a> SysfsFirst<'a> {
    /// A source for the device in `sysfs_dev` with the capacity sd holds.
    pub(crate) fn new(
        sysfs_dev: std::path::PathBuf,
        capacity: Option<KernelCapacity>,
        timeout: Duration,
        open: Box<dyn FnMut() -> Result<Box<dyn Transport>> + 'a>,
    ) -> Self {
        SysfsFirst {
            sysfs: Files::new(None, sysfs_dev),
            capacity,
            open,
            timeout,
            t: None,
            from_sysfs: 0,
            sent: 0,
        }
    }

    /// Where the answers came from: `sysfs` (nothing sent), `sg_io` (nothing from sysfs), or
    /// `sysfs+sg_io`.
    pub(crate) fn source(&self) -> &'static str {
        match (self.from_sysfs, self.sent) {
            (_, 0) => "sysfs",
            (0, _) => "sg_io",
            _ => "sysfs+sg_io",
        }
    }

    fn live<R>(&mut self, f: impl FnOnce(&mut Live<'_>) -> Result<R>) -> Result<R> {
        let t = match &mut self.t {
            Some(t) => t,
            None => self.t.insert((self.open)()?),
        };
        self.sent += 1;
        f(&mut Live {
            t: &mut **t,
            timeout: self.timeout,
        })
    }

    /// Whether the kernel's VPD list (`vpd_pg0`) is there and lacks `page`.
    fn kernel_says_absent(&self, page: u8) -> bool {
        self.sysfs
            .sysfs_copy("vpd_pg0")
            .and_then(|b| vpd::supported::parse(&b).ok())
            .is_some_and(|p| !p.pages.contains(&page))
    }
}

impl IdentSource for SysfsFirst<'_> {
    fn inquiry(&mut self) -> Result<Vec<u8>> {
        match self.sysfs.read("inquiry.bin", Some("inquiry")) {
            Some(b) if b.len() >= 36 => {
                self.from_sysfs += 1;
                Ok(b)
            }
            _ => self.live(|l| l.inquiry()),
        }
    }

    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        if let Some(b) = self.sysfs.vpd(page)? {
            self.from_sysfs += 1;
            return Ok(Some(b));
        }
        if self.kernel_says_absent(page) {
            self.from_sysfs += 1;
            return Ok(None);
        }
        self.live(|l| l.vpd(page))
    }

    fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>> {
        self.live(|l| l.read_capacity16())
    }

    fn known_capacity(&mut self) -> Option<KernelCapacity> {
        let c = self.capacity;
        if c.is_some() {
            self.from_sysfs += 1;
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vpd83_page(descs: &[&[u8]]) -> Vec<u8> {
        let body: Vec<u8> = descs.concat();
        let mut p = vec![0, 0x83];
        p.extend_from_slice(&(body.len() as u16).to_be_bytes());
        p.extend(body);
        p
    }

    struct Bufs(Vec<u8>, Option<Vec<u8>>);
    impl IdentSource for Bufs {
        fn inquiry(&mut self) -> Result<Vec<u8>> {
            Ok(self.0.clone())
        }
        fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
            Ok(self.1.clone().filter(|b| b.get(1) == Some(&page)))
        }
        fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>> {
            Ok(None)
        }
    }

    fn inquiry_bytes() -> Vec<u8> {
        let mut b = vec![0u8; 36];
        b[4] = 31;
        b[8..16].copy_from_slice(b"SGCTLVM ");
        b[16..32].copy_from_slice(b"DUALPORT        ");
        b[32..36].copy_from_slice(b"2.5+");
        b
    }

    #[test]
    fn dual_port_designators() {
        // As QEMU scsi-hd with wwn/port_wwn/port_index (hw/scsi/scsi-disk.c).
        let p = vpd83_page(&[
            &[0x01, 0x03, 0, 8, 0x50, 0, 0xc5, 0, 0, 0, 0, 0xcc],
            &[0x61, 0x93, 0, 8, 0x50, 0, 0xc5, 0, 0, 0, 0, 0xc2],
            &[0x61, 0x94, 0, 4, 0, 0, 0, 2],
        ]);
        let mut notes = vec![];
        let id = identify(&mut Bufs(inquiry_bytes(), Some(p)), &mut notes).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(id.lu_name.as_deref(), Some("naa.5000c500000000cc"));
        assert_eq!(id.target_port.as_deref(), Some("0x5000c500000000c2"));
        assert_eq!(id.relative_port, Some(2));
        assert_eq!(
            (id.vendor.as_str(), id.model.as_str()),
            ("SGCTLVM", "DUALPORT")
        );
    }

    #[test]
    fn eui64_when_no_naa() {
        let p = vpd83_page(&[&[0x01, 0x02, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]]);
        let id = identify(&mut Bufs(inquiry_bytes(), Some(p)), &mut vec![]).unwrap();
        assert_eq!(id.lu_name.as_deref(), Some("eui.0102030405060708"));
    }

    #[test]
    fn lying_lengths_are_notes_or_errors() {
        // Page length beyond the buffer: identity kept, the page error noted.
        let mut notes = vec![];
        let id = identify(
            &mut Bufs(inquiry_bytes(), Some(vec![0, 0x83, 0, 40, 1, 3, 0, 8])),
            &mut notes,
        )
        .unwrap();
        assert_eq!(id.lu_name, None);
        assert_eq!(notes.len(), 1, "{notes:?}");
        // Truncated INQUIRY is fatal for the path.
        assert!(identify(&mut Bufs(vec![0; 20], None), &mut vec![]).is_err());
    }

    /// A scsi_debug LU as captured in a guest (fixtures/sysfs/scsi-debug): its sysfs device
    /// and the sg3_utils replay of the same device.
    fn sdeb() -> (super::super::sysfs::SysDevice, std::path::PathBuf) {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/scsi-debug");
        let d = super::super::sysfs::device(&root, "0:0:0:0").expect("fixture device");
        assert_eq!(d.sg.as_deref(), Some("sg0"));
        (d, root.join("replay/sg0"))
    }

    /// Answers INQUIRY, VPD and READ CAPACITY(16) from a replay directory; counts commands.
    struct Replay(
        std::path::PathBuf,
        std::sync::Arc<std::sync::atomic::AtomicU32>,
    );
    impl Transport for Replay {
        fn execute(
            &mut self,
            cdb: &[u8],
            data: crate::transport::DataBuf<'_>,
            _: Duration,
        ) -> Result<crate::transport::Completion> {
            self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let file = match (cdb[0], cdb[1] & 1) {
                (0x12, 1) => format!("vpd_{:02x}.bin", cdb[2]),
                (0x12, _) => "inquiry.bin".into(),
                (0x9e, _) => "rc16.bin".into(),
                _ => panic!("unexpected command {cdb:02x?}"),
            };
            let bytes = std::fs::read(self.0.join(file)).unwrap();
            let crate::transport::DataBuf::In(buf) = data else {
                panic!("data-in expected");
            };
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(crate::transport::Completion {
                resid: buf.len() - n,
                ..crate::transport::Completion::good()
            })
        }
        fn address(&self) -> String {
            "replay".into()
        }
    }

    #[test]
    fn sysfs_first_sends_nothing_when_the_kernel_holds_everything() {
        let (d, replay) = sdeb();
        let cap = KernelCapacity::of(&d).expect("sd attached");
        let mut src = SysfsFirst::new(
            d.dir.clone(),
            Some(cap),
            Duration::from_secs(1),
            Box::new(|| Err(Error::Unsupported("must not open".into()))),
        );
        let mut notes = vec![];
        let got = identify(&mut src, &mut notes).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!((src.sent, src.source()), (0, "sysfs"));
        // The same identity as the device's own answers over SG_IO (replayed).
        let mut files = Files::new(Some(replay), std::path::PathBuf::from("/nonexistent"));
        let want = identify(&mut files, &mut vec![]).unwrap();
        assert_eq!(got, want);
        assert!(got.lba_count.is_some() && got.lu_name.is_some() && !got.serial.is_empty());
    }

    /// sd refusing a 520-byte drive leaves `size` 0 and the queue's default 512: that is not a
    /// capacity (VM tcmu 30-scan-520 saw "512|0" until the device was asked instead).
    #[test]
    fn a_refused_geometry_is_not_a_kernel_capacity() {
        let mut d = super::super::sysfs::SysDevice {
            block_capacity: Some((0, 512)),
            physical_block_size: Some(512),
            protection_type: Some(0),
            ..Default::default()
        };
        assert_eq!(KernelCapacity::of(&d), None);
        d.block_capacity = Some((1 << 30, 512));
        assert_eq!(KernelCapacity::of(&d).map(|c| c.lba_count), Some(1 << 21));
    }

    #[test]
    fn sysfs_first_asks_the_device_only_for_what_is_missing() {
        let (d, replay) = sdeb();
        // A device directory holding INQUIRY and the VPD list but no VPD 0x83 copy, and no
        // block device (sd did not attach): VPD 0x83 and READ CAPACITY(16) go to the device.
        let dir = tempfile::tempdir().unwrap();
        for f in ["inquiry", "vpd_pg0", "vpd_pg80", "vpd_pgb1"] {
            std::fs::copy(d.dir.join(f), dir.path().join(f)).unwrap();
        }
        let sent = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let (r, s) = (replay.clone(), sent.clone());
        let mut src = SysfsFirst::new(
            dir.path().to_path_buf(),
            None,
            Duration::from_secs(1),
            Box::new(move || Ok(Box::new(Replay(r.clone(), s.clone())) as Box<dyn Transport>)),
        );
        let got = identify(&mut src, &mut vec![]).unwrap();
        assert_eq!(sent.load(std::sync::atomic::Ordering::SeqCst), 2);
        assert_eq!((src.sent, src.source()), (2, "sysfs+sg_io"));
        let want = identify(
            &mut Files::new(Some(replay), dir.path().to_path_buf()),
            &mut vec![],
        )
        .unwrap();
        assert_eq!(got, want);
        // A page the kernel's list does not name is absent without asking.
        let before = src.sent;
        assert_eq!(src.vpd(0xb9).unwrap(), None);
        assert_eq!(src.sent, before);
    }
}
