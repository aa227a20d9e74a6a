//! Identification of one path: standard INQUIRY, VPD 0x80 / 0x83 / 0xB1 and READ CAPACITY(16).
//!
//! The bytes come from SG_IO (live), from replay files, or from the kernel's cached copies in
//! sysfs (`inquiry`, `vpd_pg80`, `vpd_pg83`, `vpd_pgb1`); all three go through the same parsers.
//!
//! TEMPORARY: the minimal parsers in [`raw`] stand in until the shared `scsi::inquiry`,
//! `scsi::vpd` and `scsi::read_capacity` parsers of the commands area land on main.

use crate::bytes::{ascii_trim, Bytes, ParseError, ParseResult};
use crate::error::{Error, Result};
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

/// Minimal parsers (see the module note).
pub mod raw {
    use super::*;

    /// Standard INQUIRY fields sgctl scan uses (SPC-6 6.7.2; protocols.md §E.4).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Inquiry {
        /// Byte 0 bits 7-5.
        pub qualifier: u8,
        /// Byte 0 bits 4-0.
        pub pdt: u8,
        /// Byte 5 bit 0 PROTECT.
        pub protect: bool,
        /// Byte 6 bit 4 MULTIP.
        pub multip: bool,
        /// Bytes 8-15.
        pub vendor: String,
        /// Bytes 16-31.
        pub product: String,
        /// Bytes 32-35.
        pub revision: String,
    }

    /// Parses standard INQUIRY data (needs the first 36 bytes).
    pub fn inquiry(buf: &[u8]) -> ParseResult<Inquiry> {
        let b = Bytes::new(buf, "standard INQUIRY data");
        b.need(36)?;
        Ok(Inquiry {
            qualifier: b.u8(0)? >> 5,
            pdt: b.u8(0)? & 0x1f,
            protect: b.u8(5)? & 0x01 != 0,
            multip: b.u8(6)? & 0x10 != 0,
            vendor: ascii_trim(b.slice(8, 8)?),
            product: ascii_trim(b.slice(16, 16)?),
            revision: ascii_trim(b.slice(32, 4)?),
        })
    }

    /// The payload of VPD page `page` (after the 4-byte header; SPC-6 7.7.1), checking the
    /// page code and that the page length fits in what was transferred.
    pub fn vpd_payload(buf: &[u8], page: u8) -> ParseResult<&[u8]> {
        let b = Bytes::new(buf, "VPD page");
        b.need(4)?;
        if b.u8(1)? != page {
            return Err(ParseError::new(
                "VPD page",
                format!("asked for page 0x{page:02x}, got 0x{:02x}", b.u8(1)?),
            ));
        }
        let len = usize::from(b.be16(2)?);
        b.slice(4, len)
    }

    /// VPD 0x80 unit serial number (SPC-6 7.7.19), trimmed.
    pub fn vpd80(buf: &[u8]) -> ParseResult<String> {
        Ok(ascii_trim(vpd_payload(buf, 0x80)?))
    }

    /// One designation descriptor of VPD 0x83 (SPC-6 7.7.6.1).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Designator {
        /// Byte 0 bits 7-4 (valid when `piv`).
        pub protocol: u8,
        /// Byte 0 bits 3-0: 1 binary, 2 ASCII, 3 UTF-8.
        pub code_set: u8,
        /// Byte 1 bit 7.
        pub piv: bool,
        /// Byte 1 bits 5-4: 0 LU, 1 target port, 2 target device.
        pub association: u8,
        /// Byte 1 bits 3-0: 1 T10 vendor id, 2 EUI-64, 3 NAA, 4 relative port, 8 SCSI name...
        pub designator_type: u8,
        /// The designator bytes.
        pub value: Vec<u8>,
    }

    /// VPD 0x83 device identification: every designation descriptor.
    pub fn vpd83(buf: &[u8]) -> ParseResult<Vec<Designator>> {
        let payload = vpd_payload(buf, 0x83)?;
        let b = Bytes::new(payload, "VPD page 0x83 designation descriptor");
        let mut out = Vec::new();
        let mut off = 0;
        while off < b.len() {
            let len = usize::from(b.u8(off + 3)?);
            out.push(Designator {
                protocol: b.u8(off)? >> 4,
                code_set: b.u8(off)? & 0x0f,
                piv: b.u8(off + 1)? & 0x80 != 0,
                association: (b.u8(off + 1)? >> 4) & 0x03,
                designator_type: b.u8(off + 1)? & 0x0f,
                value: b.slice(off + 4, len)?.to_vec(),
            });
            off += 4 + len;
        }
        Ok(out)
    }

    /// READ CAPACITY(16) fields (SBC-4 5.20.2).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ReadCapacity16 {
        /// Last LBA + 1.
        pub lba_count: u64,
        /// Logical block length.
        pub block_len: u32,
        /// Byte 12 bit 0.
        pub prot_en: bool,
        /// Byte 12 bits 3-1.
        pub p_type: u8,
        /// Byte 13 bits 3-0.
        pub lb_per_pb_exponent: u8,
    }

    /// Parses READ CAPACITY(16) data (the first 32 bytes are defined; 14 are needed).
    pub fn read_capacity16(buf: &[u8]) -> ParseResult<ReadCapacity16> {
        let b = Bytes::new(buf, "READ CAPACITY(16) data");
        b.need(14)?;
        let last = b.be64(0)?;
        Ok(ReadCapacity16 {
            lba_count: last
                .checked_add(1)
                .ok_or_else(|| ParseError::new("READ CAPACITY(16) data", "last LBA is 2^64-1"))?,
            block_len: b.be32(8)?,
            prot_en: b.u8(12)? & 0x01 != 0,
            p_type: (b.u8(12)? >> 1) & 0x07,
            lb_per_pb_exponent: b.u8(13)? & 0x0f,
        })
    }

    /// VPD 0xB1 block device characteristics: MEDIUM ROTATION RATE (SBC-4 6.6.2).
    pub fn vpd_b1_rotation(buf: &[u8]) -> ParseResult<u16> {
        Bytes::new(vpd_payload(buf, 0xb1)?, "VPD page 0xB1").be16(0)
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The logical unit name: NAA > EUI-64 > SCSI name string among LU-associated designators
/// (smartmontools `scsi_decode_lu_dev_id`, protocols.md §E.4), formatted like the kernel's
/// `wwid` (`naa.5000c500…`, `eui.…`, `name`). Malformed NAA lengths are skipped.
pub fn lu_name(ds: &[raw::Designator]) -> Option<String> {
    let lu = ds.iter().filter(|d| d.association == 0);
    let naa = lu.clone().find(|d| {
        d.designator_type == 3
            && d.code_set == 1
            && matches!(
                (d.value.first().map(|b| b >> 4), d.value.len()),
                (Some(2 | 3 | 5), 8) | (Some(6), 16)
            )
    });
    if let Some(d) = naa {
        return Some(format!("naa.{}", hex(&d.value)));
    }
    if let Some(d) = lu
        .clone()
        .find(|d| d.designator_type == 2 && matches!(d.value.len(), 8 | 12 | 16))
    {
        return Some(format!("eui.{}", hex(&d.value)));
    }
    lu.clone()
        .find(|d| d.designator_type == 8 && matches!(d.code_set, 2 | 3))
        .map(|d| ascii_trim(d.value.split(|b| *b == 0).next().unwrap_or(&[])))
        .filter(|s| !s.is_empty())
}

/// Target port identifier (association 1, NAA) as `0x…` like sysfs `sas_address`.
pub fn target_port(ds: &[raw::Designator]) -> Option<String> {
    ds.iter()
        .find(|d| d.association == 1 && d.designator_type == 3 && matches!(d.value.len(), 8 | 16))
        .map(|d| format!("0x{}", hex(&d.value)))
}

/// Relative target port (association 1, type 4; identifier in bytes 2-3 of the designator).
pub fn relative_port(ds: &[raw::Designator]) -> Option<u16> {
    ds.iter()
        .find(|d| d.association == 1 && d.designator_type == 4 && d.value.len() == 4)
        .map(|d| u16::from_be_bytes([d.value[2], d.value[3]]))
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
    let inq = raw::inquiry(&src.inquiry()?)?;
    let mut id = Identity {
        peripheral_type: inq.pdt,
        vendor: inq.vendor,
        model: inq.product,
        firmware: inq.revision,
        protect: inq.protect,
        multip: inq.multip,
        ..Identity::default()
    };
    if let Some(b) = src.vpd(0x80)? {
        match raw::vpd80(&b) {
            Ok(s) if !s.is_empty() => id.serial = Some(s),
            Ok(_) => {}
            Err(e) => notes.push(e.to_string()),
        }
    }
    if let Some(b) = src.vpd(0x83)? {
        match raw::vpd83(&b) {
            Ok(ds) => {
                id.lu_name = lu_name(&ds);
                id.target_port = target_port(&ds);
                id.relative_port = relative_port(&ds);
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    // Block devices only: direct access, RBC, ZBC (SPC-6 Table 150).
    if matches!(inq.pdt, 0x00 | 0x0e | 0x14) {
        if let Some(b) = src.vpd(0xb1)? {
            match raw::vpd_b1_rotation(&b) {
                Ok(r) => id.rotation_rate = Some(r),
                Err(e) => notes.push(e.to_string()),
            }
        }
        if let Some(b) = src.read_capacity16()? {
            match raw::read_capacity16(&b) {
                Ok(rc) => {
                    id.lba_count = Some(rc.lba_count);
                    id.logical_block_size = Some(rc.block_len);
                    id.physical_block_size = 1u64
                        .checked_shl(rc.lb_per_pb_exponent.into())
                        .map(|m| m * u64::from(rc.block_len));
                    id.protection_type = Some(if rc.prot_en { rc.p_type + 1 } else { 0 });
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
        // SPC-6 6.7.1 INQUIRY CDB: EVPD=0, allocation length 96.
        self.query(&[0x12, 0, 0, 0, 96, 0], 96)
    }

    fn vpd(&mut self, page: u8) -> Result<Option<Vec<u8>>> {
        // EVPD=1; 252 bytes covers 0x80/0x83/0xB1 of real drives; a longer 0x83 is re-fetched.
        let mut alloc: u16 = 252;
        loop {
            let a = alloc.to_be_bytes();
            match self.query(&[0x12, 1, page, a[0], a[1], 0], alloc.into()) {
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
        // SBC-4 5.20.1: SERVICE ACTION IN(16) 0x9E, SA 0x10, allocation length 32 (bytes 10-13).
        let cdb = [0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0];
        match self.query(&cdb, 32) {
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
    use super::raw::*;
    use super::*;

    fn vpd83_page(descs: &[&[u8]]) -> Vec<u8> {
        let body: Vec<u8> = descs.concat();
        let mut p = vec![0, 0x83];
        p.extend_from_slice(&(body.len() as u16).to_be_bytes());
        p.extend(body);
        p
    }

    #[test]
    fn dual_port_designators() {
        // As QEMU scsi-hd with wwn/port_wwn/port_index (test-targets.md §2).
        let p = vpd83_page(&[
            &[0x01, 0x03, 0, 8, 0x50, 0, 0xc5, 0, 0, 0, 0, 0xcc],
            &[0x61, 0x93, 0, 8, 0x50, 0, 0xc5, 0, 0, 0, 0, 0xc2],
            &[0x61, 0x94, 0, 4, 0, 0, 0, 2],
        ]);
        let ds = vpd83(&p).unwrap();
        assert_eq!(lu_name(&ds).as_deref(), Some("naa.5000c500000000cc"));
        assert_eq!(target_port(&ds).as_deref(), Some("0x5000c500000000c2"));
        assert_eq!(relative_port(&ds), Some(2));
    }

    #[test]
    fn lu_name_preference_and_bad_naa() {
        // A 7-byte "NAA" is malformed and skipped; EUI-64 is next.
        let p = vpd83_page(&[
            &[0x01, 0x03, 0, 7, 0x50, 0, 0, 0, 0, 0, 1],
            &[0x01, 0x02, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8],
        ]);
        assert_eq!(
            lu_name(&vpd83(&p).unwrap()).as_deref(),
            Some("eui.0102030405060708")
        );
    }

    #[test]
    fn lying_lengths_are_errors() {
        // Page length larger than the buffer.
        assert!(vpd83(&[0, 0x83, 0, 40, 1, 3, 0, 8]).is_err());
        // Descriptor length overruns the page.
        assert!(vpd83(&vpd83_page(&[&[0x01, 0x03, 0, 20, 0x50]])).is_err());
        // Wrong page code.
        assert!(vpd80(&[0, 0x83, 0, 0]).is_err());
        assert!(inquiry(&[0; 35]).is_err());
        assert!(read_capacity16(&[0xff; 14]).is_err());
        assert!(vpd_b1_rotation(&[0, 0xb1, 0, 1, 0]).is_err());
    }

    #[test]
    fn read_capacity16_fields() {
        let mut b = [0u8; 32];
        b[7] = 0xff; // last LBA 255
        b[8..12].copy_from_slice(&512u32.to_be_bytes());
        b[12] = 0b0000_0011; // P_TYPE 1 (type 2), PROT_EN
        b[13] = 3;
        let rc = read_capacity16(&b).unwrap();
        assert_eq!(
            (rc.lba_count, rc.block_len, rc.prot_en, rc.p_type),
            (256, 512, true, 1)
        );
        assert_eq!(rc.lb_per_pb_exponent, 3);
    }
}
