//! A virtual enclosure services device (SES-4): `sim:enclosure[?opts]`, an in-process SCSI
//! target of peripheral device type 0Dh whose array device slots hold virtual drives.
//!
//! Slot `k` (0-based) holds the drive `sim:PROFILE?serial=E<id>S<kk>` (two digits): its two
//! phy descriptors in the Additional Element Status page carry that drive's port A and port B
//! SAS addresses (`Drive::new`'s `port_sas`, the addresses the drive reports in VPD 0x83 and
//! 0x88), attached to the enclosure's expanders A and B, so a slot can be tied to the drive
//! opened on its own. Options: `slots=N` (1..=64, default 12), `id=N` (1..=255, default 1:
//! the enclosure logical identifier and the serials), `drive=PROFILE` (default the first
//! profile), `serials=S0[,S1..]` (the drives of slots 0, 1, ... have these serials instead:
//! the enclosure then holds the drives `sim:PROFILE?serial=S0` ... opened or served elsewhere,
//! e.g. the drive `sgctl sim serve` serves next to it), `empty=K[,K..]` (slots without a
//! drive), `state=FILE` (the indicators persist between invocations, as JSON).
//!
//! Commands: INQUIRY (standard data with PDT 0Dh and ENCSERV; VPD 00h, 80h, 83h), TEST UNIT
//! READY, REPORT LUNS, RECEIVE DIAGNOSTIC RESULTS (PCV=1: pages 00h, 01h, 02h, 07h, 0Ah),
//! SEND DIAGNOSTIC (PF=1 with an Enclosure Control page: RQST IDENT, RQST FAULT and DEVICE
//! OFF of the selected array device slots; the next status page shows them). The pages are
//! laid out here from the SES-4 tables (7.2.2, 7.2.4, 7.2.10, 7.2.13, the elements of 7.3),
//! independently of the decoders in `sgctl_proto::ses`, which the tests decode them with.
//!
//! A control page whose EXPECTED GENERATION CODE is not the current one is refused with
//! ILLEGAL REQUEST, 35h/04h ENCLOSURE SERVICES TRANSFER REFUSED, and one whose length does not
//! match the configuration with 26h/00h INVALID FIELD IN PARAMETER LIST and INVOP set in the
//! next status page (the virtual enclosure's choices; nothing changes in either case).

use super::drive::Drive;
use super::profile::{self, Profile};
use super::sense::SimSense;
use crate::error::{Error, Result};
use crate::files;
use crate::transport::{Completion, DataBuf, Transport};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// The profile name that opens an enclosure instead of a drive.
pub const PROFILE: &str = "enclosure";

/// Largest `slots=`.
pub(crate) const MAX_SLOTS: usize = 64;

/// The enclosure's generation code (its configuration never changes).
const GENERATION: u32 = 1;

/// IEEE's private-use OUI (AC-DE-48): the enclosure's names are nobody's product.
const OUI: u64 = 0xACDE48;

/// The indicators of one slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Indicators {
    /// Identify (locate) LED: IDENT.
    pub ident: bool,
    /// Fault LED requested: FAULT REQSTD.
    pub fault: bool,
    /// The drive is turned off: DEVICE OFF.
    pub device_off: bool,
}

/// One array device slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The drive's serial (`None`: the slot is empty).
    pub serial: Option<String>,
    /// The drive's port A and B SAS addresses (0 when empty).
    pub sas: [u64; 2],
    /// Its indicators.
    pub leds: Indicators,
}

/// The virtual enclosure.
pub struct Enclosure {
    spec: String,
    id: u8,
    profile: &'static Profile,
    /// The slots, in element order.
    pub slots: Vec<Slot>,
    invop: bool,
    state: Option<PathBuf>,
}

fn bad(spec: &str, reason: impl Into<String>) -> Error {
    Error::BadAddress {
        address: format!("sim:{spec}"),
        reason: reason.into(),
    }
}

/// The serial of the drive in slot `k` of enclosure `id`.
pub(crate) fn slot_serial(id: u8, k: usize) -> String {
    format!("E{id}S{k:02}")
}

/// A serial a drive can have: 1..=20 printable ASCII characters (VPD 80h), no comma.
fn valid_serial(s: &str) -> bool {
    (1..=20).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_graphic() && b != b',')
}

/// Opens `sim:enclosure[?opts]` (`spec` without the `sim:` prefix).
pub fn open(spec: &str) -> Result<Enclosure> {
    let query = spec.split_once('?').map_or("", |(_, q)| q);
    let (mut slots, mut id, mut prof, mut empty, mut state) =
        (12usize, 1u8, &profile::PROFILES[0], Vec::new(), None);
    let mut serials: Vec<String> = Vec::new();
    for kv in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| bad(spec, format!("option '{kv}' needs a value (key=value)")))?;
        match k {
            "slots" => {
                slots = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_SLOTS).contains(n))
                    .ok_or_else(|| bad(spec, format!("slots must be 1..={MAX_SLOTS}")))?
            }
            "id" => {
                id = v
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| bad(spec, "id must be 1..=255"))?
            }
            "drive" => {
                prof = profile::find(v)
                    .ok_or_else(|| bad(spec, format!("drive={v}: unknown profile")))?
            }
            "empty" => {
                for s in v.split(',') {
                    let n: usize = s
                        .parse()
                        .map_err(|_| bad(spec, format!("empty={v}: not a slot list")))?;
                    empty.push(n);
                }
            }
            "serials" => {
                serials = v.split(',').map(str::to_string).collect();
                if let Some(s) = serials.iter().find(|s| !valid_serial(s)) {
                    return Err(bad(
                        spec,
                        format!(
                            "serials: {s:?} is not a serial (1..=20 printable ASCII characters)"
                        ),
                    ));
                }
            }
            "state" => state = Some(super::state_path(spec, std::path::Path::new(v))?),
            _ => {
                return Err(bad(
                    spec,
                    format!(
                        "unknown option '{k}' (known: slots, id, drive, serials, empty, state)"
                    ),
                ))
            }
        }
    }
    if serials.len() > slots {
        return Err(bad(
            spec,
            format!("serials: {} serials for {slots} slots", serials.len()),
        ));
    }
    if let Some(k) = empty.iter().find(|k| **k >= slots) {
        return Err(bad(
            spec,
            format!("empty={k}: there are {slots} slots (0..)"),
        ));
    }
    let slots = (0..slots)
        .map(|k| {
            if empty.contains(&k) {
                return Slot {
                    serial: None,
                    sas: [0, 0],
                    leds: Indicators::default(),
                };
            }
            let serial = serials
                .get(k)
                .cloned()
                .unwrap_or_else(|| slot_serial(id, k));
            let d = Drive::new(prof, &serial, 64 * u64::from(prof.default_block_len));
            Slot {
                serial: Some(serial),
                sas: d.port_sas,
                leds: Indicators::default(),
            }
        })
        .collect();
    let mut e = Enclosure {
        spec: spec.to_string(),
        id,
        profile: prof,
        slots,
        invop: false,
        state,
    };
    e.load()?;
    Ok(e)
}

impl Enclosure {
    /// The enclosure logical identifier (NAA 5).
    pub fn logical_identifier(&self) -> u64 {
        (5 << 60) | (OUI << 36) | (0xE_0000_0000 | (u64::from(self.id) << 8))
    }

    /// Expander A (`0`) or B (`1`)'s SAS address.
    pub(crate) fn expander_sas(&self, which: u8) -> u64 {
        self.logical_identifier() | 0x8f | (u64::from(which & 1) << 4)
    }

    /// The profile of the drives in the slots.
    pub fn drive_profile(&self) -> &'static Profile {
        self.profile
    }

    fn load(&mut self) -> Result<()> {
        let Some(path) = &self.state else {
            return Ok(());
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
        };
        let leds: Vec<Indicators> = serde_json::from_slice(&bytes)
            .map_err(|e| bad(&self.spec, format!("state file {}: {e}", path.display())))?;
        if leds.len() != self.slots.len() {
            return Err(bad(
                &self.spec,
                format!(
                    "state file {} holds {} slots, the enclosure has {}",
                    path.display(),
                    leds.len(),
                    self.slots.len()
                ),
            ));
        }
        for (s, l) in self.slots.iter_mut().zip(leds) {
            s.leds = l;
        }
        Ok(())
    }

    fn save(&self) -> Result<()> {
        let Some(path) = &self.state else {
            return Ok(());
        };
        let leds: Vec<Indicators> = self.slots.iter().map(|s| s.leds).collect();
        let json = serde_json::to_vec(&leds).map_err(|e| bad(&self.spec, e.to_string()))?;
        files::write_atomic(path, &json, files::MODE_SECRET, files::Replace::Always)
    }

    /// Type descriptor headers: (element type, count, text).
    fn types(&self) -> [(u8, u8, &'static str); 6] {
        [
            (0x17, self.slots.len() as u8, "Array device slots"),
            (0x0e, 1, "Enclosure"),
            (0x02, 2, "Power supplies"),
            (0x03, 2, "Fans"),
            (0x04, 1, "Ambient temperature"),
            (0x18, 2, "SAS expanders"),
        ]
    }

    fn page(code: u8, byte1: u8, body: Vec<u8>) -> Vec<u8> {
        let mut p = vec![code, byte1];
        p.extend_from_slice(&(body.len() as u16).to_be_bytes());
        p.extend(body);
        p
    }

    /// SES-4 7.2.2 Configuration page.
    pub fn config_page(&self) -> Vec<u8> {
        let types = self.types();
        let mut b = GENERATION.to_be_bytes().to_vec();
        // Enclosure descriptor: ES process 1 of 1, subenclosure 0, 6 headers, length 36.
        b.extend_from_slice(&[0x11, 0, types.len() as u8, 36]);
        b.extend_from_slice(&self.logical_identifier().to_be_bytes());
        b.extend_from_slice(b"SGCTL   ");
        b.extend_from_slice(
            format!("{:<16}", format!("VIRTUAL JBOD {}", self.slots.len())).as_bytes(),
        );
        b.extend_from_slice(b"0100");
        for (t, n, text) in types {
            b.extend_from_slice(&[t, n, 0, text.len() as u8]);
        }
        for (_, _, text) in types {
            b.extend_from_slice(text.as_bytes());
        }
        Self::page(0x01, 0, b)
    }

    /// SES-4 7.2.4 Enclosure Status page.
    pub fn status_page(&self) -> Vec<u8> {
        let mut b = GENERATION.to_be_bytes().to_vec();
        b.extend_from_slice(&[0, 0, 0, 0]); // overall array device slot
        let mut fault = false;
        for s in &self.slots {
            // 7.3.3: byte 0 status code (1 OK, 5 not installed); byte 2 bit 1 IDENT; byte 3
            // bit 6 FAULT SENSED, bit 5 FAULT REQSTD, bit 4 DEVICE OFF.
            let code = if s.serial.is_some() { 0x01 } else { 0x05 };
            let b2 = if s.leds.ident { 0x02 } else { 0 };
            let b3 =
                (if s.leds.fault { 0x20 } else { 0 }) | (if s.leds.device_off { 0x10 } else { 0 });
            fault |= s.leds.fault;
            b.extend_from_slice(&[code, 0, b2, b3]);
        }
        // Enclosure (7.3.16): FAILURE INDICATION while a slot's fault LED is on.
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&[0x01, 0, if fault { 0x02 } else { 0 }, 0]);
        // Power supplies (7.3.4): OK, RQSTED ON.
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&[0x01, 0, 0, 0x20].repeat(2));
        // Fans (7.3.5): 4200 rpm (420 = 0x1a4), RQSTED ON, speed code 3.
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&[0x01, 0x01, 0xa4, 0x23].repeat(2));
        // Temperature (7.3.6): 27 C (47).
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&[0x01, 0, 47, 0]);
        // SAS expanders (7.3.25).
        b.extend_from_slice(&[0, 0, 0, 0]);
        b.extend_from_slice(&[0x01, 0, 0, 0].repeat(2));
        let byte1 = (if self.invop { 0x10 } else { 0 }) | (if fault { 0x04 } else { 0 });
        Self::page(0x02, byte1, b)
    }

    /// SES-4 7.2.10 Element Descriptor page.
    pub fn element_desc_page(&self) -> Vec<u8> {
        let mut texts: Vec<String> = vec!["Array device slots".into()];
        texts.extend((0..self.slots.len()).map(|k| format!("SLOT {k:02}")));
        for t in [
            "Enclosure",
            "JBOD",
            "Power supplies",
            "PSU A",
            "PSU B",
            "Fans",
            "FAN 1",
            "FAN 2",
            "Temperatures",
            "Ambient",
            "SAS expanders",
            "EXPANDER A",
            "EXPANDER B",
        ] {
            texts.push(t.into());
        }
        let mut b = GENERATION.to_be_bytes().to_vec();
        for t in texts {
            b.extend_from_slice(&[0, 0]);
            b.extend_from_slice(&(t.len() as u16).to_be_bytes());
            b.extend_from_slice(t.as_bytes());
        }
        Self::page(0x07, 0, b)
    }

    /// SES-4 7.2.13 Additional Element Status page: per slot (EIP=1, SAS, descriptor type 00b,
    /// device slot number = slot) two phy descriptors, port A attached to expander A and port
    /// B to expander B; per expander (descriptor type 01b) its SAS address and one expander
    /// phy per slot (other element index = the slot).
    pub(crate) fn addl_status_page(&self) -> Vec<u8> {
        let mut b = GENERATION.to_be_bytes().to_vec();
        for (k, s) in self.slots.iter().enumerate() {
            let mut psi = vec![2, 0x00, 0, k as u8];
            for port in 0..2u8 {
                let present = s.serial.is_some();
                // Byte 0 bits 6-4 DEVICE TYPE (1 end device); byte 3 bit 3 SSP target.
                psi.extend_from_slice(&[
                    if present { 0x10 } else { 0 },
                    0,
                    0,
                    if present { 0x08 } else { 0 },
                ]);
                let att = if present { self.expander_sas(port) } else { 0 };
                psi.extend_from_slice(&att.to_be_bytes());
                psi.extend_from_slice(&s.sas[usize::from(port)].to_be_bytes());
                psi.push(if present { port } else { 0 });
                psi.extend_from_slice(&[0; 7]);
            }
            b.extend_from_slice(&[0x16, (psi.len() + 2) as u8, 0, k as u8]);
            b.extend(psi);
        }
        // Expanders: element indexes after slots, enclosure, 2 PSUs, 2 fans, 1 sensor.
        let first = self.slots.len() + 6;
        for x in 0..2u8 {
            let mut psi = vec![self.slots.len() as u8, 0x40, 0, 0];
            psi.extend_from_slice(&self.expander_sas(x).to_be_bytes());
            for k in 0..self.slots.len() {
                psi.extend_from_slice(&[0xff, k as u8]);
            }
            b.extend_from_slice(&[
                0x16,
                (psi.len() + 2) as u8,
                0,
                (first + usize::from(x)) as u8,
            ]);
            b.extend(psi);
        }
        Self::page(0x0a, 0, b)
    }

    /// The diagnostic page `code`, if the enclosure has it.
    pub(crate) fn diag_page(&self, code: u8) -> Option<Vec<u8>> {
        Some(match code {
            0x00 => Self::page(0x00, 0, vec![0x00, 0x01, 0x02, 0x07, 0x0a]),
            0x01 => self.config_page(),
            0x02 => self.status_page(),
            0x07 => self.element_desc_page(),
            0x0a => self.addl_status_page(),
            _ => return None,
        })
    }

    /// Applies an Enclosure Control page (SES-4 7.2.3) sent with SEND DIAGNOSTIC.
    fn control(&mut self, p: &[u8]) -> std::result::Result<(), SimSense> {
        let elements: usize = self.types().iter().map(|t| 1 + usize::from(t.1)).sum();
        let want = 8 + 4 * elements;
        let len = p
            .get(2..4)
            .map(|l| 4 + usize::from(u16::from_be_bytes([l[0], l[1]])));
        if p.len() != want || len != Some(want) {
            self.invop = true;
            return Err(SimSense::invalid_param(2, None));
        }
        let expected = u32::from_be_bytes([p[4], p[5], p[6], p[7]]);
        if expected != GENERATION {
            return Err(SimSense::new(
                super::sense::key::ILLEGAL_REQUEST,
                0x35,
                0x04,
            ));
        }
        self.invop = false;
        // Slot k's control element follows the overall element: byte offset 8 + 4 (k + 1).
        for (k, s) in self.slots.iter_mut().enumerate() {
            let e = &p[12 + 4 * k..16 + 4 * k];
            if e[0] & 0x80 == 0 {
                continue;
            }
            s.leds.ident = e[2] & 0x02 != 0;
            s.leds.fault = e[3] & 0x20 != 0;
            s.leds.device_off = e[3] & 0x10 != 0;
        }
        Ok(())
    }

    fn inquiry(&self, cdb: &[u8]) -> std::result::Result<Vec<u8>, SimSense> {
        if cdb[1] & 1 == 0 {
            if cdb[2] != 0 {
                return Err(SimSense::invalid_cdb(2, None));
            }
            let mut r = vec![0u8; 36];
            r[0] = 0x0d; // PDT 0Dh enclosure services device
            r[2] = 0x06; // SPC-4
            r[3] = 0x02;
            r[4] = 31;
            r[6] = 0x40; // ENCSERV
            r[8..16].copy_from_slice(b"SGCTL   ");
            r[16..32].copy_from_slice(format!("{:<16}", "VIRTUAL ENCL").as_bytes());
            r[32..36].copy_from_slice(b"0100");
            return Ok(r);
        }
        let body = match cdb[2] {
            0x00 => vec![0x00, 0x80, 0x83],
            0x80 => format!("ENCL{:04}", self.id).into_bytes(),
            0x83 => {
                // LU designator: NAA, binary, association LU, the logical identifier.
                let mut d = vec![0x01, 0x03, 0, 8];
                d.extend_from_slice(&self.logical_identifier().to_be_bytes());
                d
            }
            _ => return Err(SimSense::invalid_cdb(2, None)),
        };
        let mut r = vec![0x0d, cdb[2], 0, body.len() as u8];
        r.extend(body);
        Ok(r)
    }

    fn run(
        &mut self,
        cdb: &[u8],
        data: &mut DataBuf<'_>,
    ) -> std::result::Result<Vec<u8>, SimSense> {
        let be16 = |i: usize| usize::from(u16::from_be_bytes([cdb[i], cdb[i + 1]]));
        match cdb[0] {
            0x00 => Ok(Vec::new()),
            0x12 => self.inquiry(cdb),
            0xa0 => Ok(vec![0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            0x1c => {
                if cdb[1] & 1 == 0 {
                    return Err(SimSense::invalid_cdb(1, Some(0)));
                }
                let mut p = self
                    .diag_page(cdb[2])
                    .ok_or(SimSense::invalid_cdb(2, None))?;
                p.truncate(be16(3));
                Ok(p)
            }
            0x1d => {
                if cdb[1] & 0x10 == 0 || cdb[1] & 0xe7 != 0 {
                    return Err(SimSense::invalid_cdb(1, None));
                }
                let n = be16(3);
                let DataBuf::Out(p) = data else {
                    return if n == 0 {
                        Ok(Vec::new())
                    } else {
                        Err(SimSense::param_list_length(3))
                    };
                };
                let p = p.get(..n).ok_or(SimSense::param_list_length(3))?;
                match p.first() {
                    Some(0x02) => {
                        self.control(p)?;
                        self.save().map_err(|_| {
                            SimSense::new(super::sense::key::HARDWARE_ERROR, 0x35, 0x00)
                        })?;
                        Ok(Vec::new())
                    }
                    Some(_) => Err(SimSense::invalid_param(0, None)),
                    None => Ok(Vec::new()),
                }
            }
            _ => Err(SimSense::new(
                super::sense::key::ILLEGAL_REQUEST,
                0x20,
                0x00,
            )),
        }
    }
}

impl Transport for Enclosure {
    fn execute(
        &mut self,
        cdb: &[u8],
        mut data: DataBuf<'_>,
        _timeout: Duration,
    ) -> Result<Completion> {
        if cdb.len() < 6 || cdb.len() > 32 {
            return Err(Error::Os {
                op: "SG_IO",
                path: self.address(),
                errno: nix::errno::Errno::EINVAL,
                hint: None,
            });
        }
        match self.run(cdb, &mut data) {
            Ok(resp) => {
                let mut c = Completion::good();
                if let DataBuf::In(buf) = data {
                    let n = resp.len().min(buf.len());
                    buf[..n].copy_from_slice(&resp[..n]);
                    c.resid = buf.len() - n;
                }
                Ok(c)
            }
            Err(s) => Ok(Completion::check_condition(s.render(false))),
        }
    }

    fn address(&self) -> String {
        format!("sim:{}", self.spec)
    }
}
