//! SPC-5 6.16 PERSISTENT RESERVE IN (0x5E): CDB builder and parsers of READ KEYS, READ
//! RESERVATION and READ FULL STATUS parameter data. Lengths inside the data are untrusted:
//! a descriptor running past the buffer ends the list.

use serde::Serialize;

/// PERSISTENT RESERVE IN operation code.
pub(crate) const OPCODE_IN: u8 = crate::scsi::opcodes::code::PERSISTENT_RESERVE_IN;

/// Service actions of PERSISTENT RESERVE IN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum InServiceAction {
    /// READ KEYS (00h).
    ReadKeys = 0x00,
    /// READ RESERVATION (01h).
    ReadReservation = 0x01,
    /// REPORT CAPABILITIES (02h).
    ReportCapabilities = 0x02,
    /// READ FULL STATUS (03h).
    ReadFullStatus = 0x03,
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-5 6.16.1 PERSISTENT RESERVE IN CDB (10 bytes).
    #[doc(alias = "sg_persist")]
    pub struct PersistentReserveInCdb {
        /// SERVICE ACTION, byte 1 bits 4-0.
        service_action: InServiceAction,
        /// ALLOCATION LENGTH, bytes 7-8.
        alloc_len: u16,
        ;;
    }
}

impl PersistentReserveInCdb {
    /// PERSISTENT RESERVE IN operation code.
    pub const OPCODE: u8 = OPCODE_IN;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let a = self.alloc_len.to_be_bytes();
        [
            OPCODE_IN,
            self.service_action as u8,
            0,
            0,
            0,
            0,
            0,
            a[0],
            a[1],
            0,
        ]
    }
}

/// The name of a persistent reservation type code (SPC-5 table "Persistent reservation type
/// codes").
pub fn type_name(t: u8) -> &'static str {
    match t {
        1 => "Write Exclusive",
        3 => "Exclusive Access",
        5 => "Write Exclusive, registrants only",
        6 => "Exclusive Access, registrants only",
        7 => "Write Exclusive, all registrants",
        8 => "Exclusive Access, all registrants",
        _ => "reserved type",
    }
}

fn be(b: &[u8], off: usize, n: usize) -> u64 {
    b.iter()
        .skip(off)
        .take(n)
        .fold(0u64, |v, &x| (v << 8) | u64::from(x))
}

/// READ KEYS: (PRgeneration, registered keys).
pub fn parse_read_keys(b: &[u8]) -> (u32, Vec<u64>) {
    let generation = be(b, 0, 4) as u32;
    let len = be(b, 4, 4) as usize;
    let end = 8usize.saturating_add(len).min(b.len());
    let keys = b
        .get(8..end)
        .unwrap_or(&[])
        .chunks_exact(8)
        .map(|c| be(c, 0, 8))
        .collect();
    (generation, keys)
}

/// The reservation READ RESERVATION reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reservation {
    /// Reservation key of the holder (0 for the all-registrants types).
    pub key: u64,
    /// Scope (0 = logical unit).
    pub scope: u8,
    /// Type code.
    pub rtype: u8,
}

/// READ RESERVATION: (PRgeneration, the reservation if one is held).
pub fn parse_read_reservation(b: &[u8]) -> (u32, Option<Reservation>) {
    let generation = be(b, 0, 4) as u32;
    let len = be(b, 4, 4) as usize;
    if len < 16 || b.len() < 24 {
        return (generation, None);
    }
    (
        generation,
        Some(Reservation {
            key: be(b, 8, 8),
            scope: b[21] >> 4,
            rtype: b[21] & 0x0F,
        }),
    )
}

/// One registrant from READ FULL STATUS.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Registrant {
    /// Its reservation key.
    pub key: u64,
    /// Registered through all target ports.
    pub all_target_ports: bool,
    /// Holds the reservation.
    pub holder: bool,
    /// Type of the reservation it holds (when `holder`).
    pub rtype: u8,
    /// Relative target port it registered through (when not `all_target_ports`).
    pub relative_target_port: u16,
    /// Its TransportID (hex).
    pub transport_id: String,
}

/// READ FULL STATUS: (PRgeneration, registrants).
pub fn parse_read_full_status(b: &[u8]) -> (u32, Vec<Registrant>) {
    let generation = be(b, 0, 4) as u32;
    let len = be(b, 4, 4) as usize;
    let end = 8usize.saturating_add(len).min(b.len());
    let mut out = vec![];
    let mut i = 8;
    while i + 24 <= end {
        let d = &b[i..end];
        let tid_len = be(d, 20, 4) as usize;
        let Some(next) = i.checked_add(24).and_then(|x| x.checked_add(tid_len)) else {
            break;
        };
        if next > end {
            break;
        }
        out.push(Registrant {
            key: be(d, 0, 8),
            all_target_ports: d[12] & 0x02 != 0,
            holder: d[12] & 0x01 != 0,
            rtype: d[13] & 0x0F,
            relative_target_port: be(d, 18, 2) as u16,
            transport_id: d[24..24 + tid_len]
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect(),
        });
        i = next;
    }
    (generation, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        assert_eq!(
            PersistentReserveInCdb::new(InServiceAction::ReadFullStatus, 0x1000).build(),
            [0x5E, 3, 0, 0, 0, 0, 0, 0x10, 0, 0]
        );
    }

    #[test]
    fn parses_keys_reservation_and_full_status() {
        let mut k = vec![0, 0, 0, 5, 0, 0, 0, 16];
        k.extend_from_slice(&0xAAu64.to_be_bytes());
        k.extend_from_slice(&0xBBu64.to_be_bytes());
        assert_eq!(parse_read_keys(&k), (5, vec![0xAA, 0xBB]));
        // A lying length stops at the buffer.
        k[7] = 200;
        assert_eq!(parse_read_keys(&k).1.len(), 2);
        let mut r = vec![0, 0, 0, 5, 0, 0, 0, 16];
        r.extend_from_slice(&0xAAu64.to_be_bytes());
        r.extend_from_slice(&[0, 0, 0, 0, 0, 0x03, 0, 0]);
        assert_eq!(
            parse_read_reservation(&r).1,
            Some(Reservation {
                key: 0xAA,
                scope: 0,
                rtype: 3
            })
        );
        assert_eq!(parse_read_reservation(&r[..8]).1, None);
        let mut f = vec![0, 0, 0, 5, 0, 0, 0, 48];
        f.extend_from_slice(&0xAAu64.to_be_bytes());
        f.extend_from_slice(&[0, 0, 0, 0, 0x01, 0x03, 0, 0, 0, 0, 0, 2, 0, 0, 0, 24]);
        f.extend_from_slice(&[6; 24]);
        let (g, regs) = parse_read_full_status(&f);
        assert_eq!(g, 5);
        assert_eq!(regs.len(), 1);
        assert!(regs[0].holder && !regs[0].all_target_ports);
        assert_eq!((regs[0].rtype, regs[0].relative_target_port), (3, 2));
        // Truncated descriptor: ignored, no panic.
        assert!(parse_read_full_status(&f[..40]).1.is_empty());
    }
}
