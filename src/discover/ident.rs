//! Identification of one path: standard INQUIRY, VPD 0x80 / 0x83 / 0xB1 and READ CAPACITY(16).
//!
//! The bytes come from SG_IO (live), from replay files, or from the kernel's cached copies in
//! sysfs (`inquiry`, `vpd_pg80`, `vpd_pg83`, `vpd_pgb1`); all three go through the same parsers.
//! Parsing is the shared `scsi::inquiry`, `scsi::vpd` and `scsi::read_capacity` code.

use crate::error::{Error, Result};
use crate::scsi::vpd::designator::{Association, Designator};
use crate::scsi::vpd::device_id::DeviceIdentification;
use crate::scsi::{inquiry, read_capacity, vpd};
use crate::transport::{run_query, Transport};
use serde::Serialize;
use std::time::Duration;

/// What one path says about its logical unit.
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
    /// Unit serial number (VPD 0x80).
    pub serial: Option<String>,
    /// LU name from VPD 0x83 (`naa.…`, `eui.…`, `name.…`), see [`lu_name`].
    pub lu_name: Option<String>,
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
pub fn lu_name(page: &DeviceIdentification) -> Option<String> {
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

/// Where the raw identification bytes come from.
pub trait IdentSource {
    /// Standard INQUIRY data.
    fn inquiry(&mut self) -> Result<Vec<u8>>;
    /// VPD page `page`; `Ok(None)` when the device does not have it.
    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>>;
    /// READ CAPACITY(16) data; `Ok(None)` when not supported.
    fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>>;
}

/// Builds an [`Identity`] from a source. Errors from INQUIRY are fatal; a missing VPD page or
/// READ CAPACITY leaves those fields empty; malformed optional pages are reported in `notes`.
pub fn identify(src: &mut dyn IdentSource, notes: &mut Vec<String>) -> Result<Identity> {
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
    if let Some(b) = src.vpd(0x80)? {
        match vpd::serial::parse(&b) {
            Ok(s) if !s.unit_serial_number.is_empty() => id.serial = Some(s.unit_serial_number),
            Ok(_) => {}
            Err(e) => notes.push(e.to_string()),
        }
    }
    if let Some(b) = src.vpd(0x83)? {
        match vpd::device_id::parse(&b) {
            Ok(page) => {
                id.lu_name = lu_name(&page);
                id.target_port = page.target_port_naa().map(|v| v.to_ascii_lowercase());
                id.relative_port = page.relative_target_port();
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    // Block devices only: direct access, RBC, ZBC (SPC-6 Table 150).
    if matches!(id.peripheral_type, 0x00 | 0x0e | 0x14) {
        if let Some(b) = src.vpd(0xb1)? {
            match vpd::block_characteristics::parse(&b) {
                Ok(p) => id.rotation_rate = Some(p.medium_rotation_rate),
                Err(e) => notes.push(e.to_string()),
            }
        }
        if let Some(b) = src.read_capacity16()? {
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

/// Identification over a live transport (SG_IO / bsg).
pub struct Live<'a> {
    /// The open device.
    pub t: &'a mut dyn Transport,
    /// Per-command timeout.
    pub timeout: Duration,
}

impl Live<'_> {
    fn query(&mut self, cdb: &[u8], alloc: usize) -> Result<Vec<u8>> {
        let mut buf = vec![0u8; alloc];
        let n = run_query(self.t, cdb, &mut buf, self.timeout)?;
        buf.truncate(n);
        Ok(buf)
    }
}

/// True when the device said it does not have this page/command (ILLEGAL REQUEST).
fn not_supported(e: &Error) -> bool {
    matches!(e.sense(), Some(s) if s.key == crate::sense::SenseKey::IllegalRequest)
}

impl IdentSource for Live<'_> {
    fn inquiry(&mut self) -> Result<Vec<u8>> {
        self.query(&inquiry::cdb(false, 0, 96), 96)
    }

    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        // EVPD=1; 252 bytes covers 0x80/0x83/0xB1 of real drives; a longer 0x83 is re-fetched.
        let mut alloc: u16 = 252;
        loop {
            match self.query(&vpd::cdb(page, alloc), alloc.into()) {
                Ok(b) => {
                    let want = b
                        .get(2..4)
                        .map(|l| usize::from(u16::from_be_bytes([l[0], l[1]])) + 4);
                    match want {
                        Some(w) if w > usize::from(alloc) && alloc < 0xfffc => {
                            alloc = u16::try_from(w).unwrap_or(0xfffc).min(0xfffc);
                        }
                        _ => return Ok(Some(b)),
                    }
                }
                Err(e) if not_supported(&e) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
    }

    fn read_capacity16(&mut self) -> Result<Option<Vec<u8>>> {
        match self.query(&read_capacity::cdb16(32), 32) {
            Ok(b) => Ok(Some(b)),
            Err(e) if not_supported(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Identification from files: a replay directory (`inquiry.bin`, `vpd_80.bin`, `vpd_83.bin`,
/// `vpd_b1.bin`, `rc16.bin`, as written by vm/guest/capture-sysfs.sh) or the kernel's cached
/// copies in the sysfs device directory (`inquiry`, `vpd_pg80`, `vpd_pg83`, `vpd_pgb1`).
pub struct Files {
    /// Replay directory, if any.
    pub replay: Option<std::path::PathBuf>,
    /// The SCSI device's sysfs directory.
    pub sysfs_dev: std::path::PathBuf,
}

impl Files {
    fn read(&self, replay_name: &str, sysfs_name: Option<&str>) -> Option<Vec<u8>> {
        if let Some(r) = &self.replay {
            if let Ok(b) = std::fs::read(r.join(replay_name)) {
                return Some(b);
            }
        }
        std::fs::read(self.sysfs_dev.join(sysfs_name?))
            .ok()
            .filter(|b| !b.is_empty())
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
        // As QEMU scsi-hd with wwn/port_wwn/port_index (test-targets.md §2).
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
}
