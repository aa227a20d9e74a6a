//! SPC-5 6.40 SECURITY PROTOCOL IN (0xA2) and 6.41 SECURITY PROTOCOL OUT (0xB5).
//!
//! Both CDBs are 12 bytes (protocols.md §F.1): byte 1 SECURITY PROTOCOL, bytes 2–3 SECURITY
//! PROTOCOL SPECIFIC (the TCG ComID for protocols 0x01/0x02), byte 4 bit 7 INC_512, bytes 6–9
//! ALLOCATION / TRANSFER LENGTH (bytes, or 512-byte units when INC_512 = 1), byte 11 CONTROL.
//!
//! The kernel's sed-opal sends INC_512 = 0 with a byte length [K-sd `sd_sec_submit`]; sedutil
//! and go-tcg always send INC_512 = 1 [SEDU `sendCmd_SAS`, GOTCG `ops.go`]. We keep buffers a
//! multiple of 512 either way, default to INC_512 = 0 and let the caller switch per drive
//! ([`Inc512`]) when a drive rejects byte lengths (ILLEGAL REQUEST 24/00 pointing at byte 4).

use crate::bytes::{Bytes, ParseResult};
use crate::error::{Invalid, Result};
use serde::Serialize;

/// Operation code of SECURITY PROTOCOL IN.
#[doc(alias = "SECURITY_PROTOCOL_IN")]
pub(crate) const OPCODE_IN: u8 = crate::scsi::opcodes::code::SECURITY_PROTOCOL_IN;
/// Operation code of SECURITY PROTOCOL OUT.
#[doc(alias = "SECURITY_PROTOCOL_OUT")]
pub(crate) const OPCODE_OUT: u8 = crate::scsi::opcodes::code::SECURITY_PROTOCOL_OUT;

/// Security protocol 0x00: security protocol information (SPC-5 7.7.1).
pub(crate) const PROTOCOL_INFO: u8 = 0x00;
/// Security protocol 0x01: TCG ComPacket exchange (IF-SEND / IF-RECV).
pub const PROTOCOL_TCG: u8 = 0x01;
/// Security protocol 0x02: TCG ComID management.
pub(crate) const PROTOCOL_TCG_COMID: u8 = 0x02;

/// Transfer unit for TCG buffers.
pub const BLOCK: usize = 512;

/// How the length field is expressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Inc512 {
    /// INC_512 = 0: length in bytes (what Linux sed-opal sends).
    #[default]
    Bytes,
    /// INC_512 = 1: length in 512-byte units (sedutil, go-tcg; some Seagate firmware needs it).
    Blocks,
}

/// Rounds `n` up to a multiple of 512 (at least 512).
pub(crate) fn pad_len(n: usize) -> usize {
    n.max(1).div_ceil(BLOCK) * BLOCK
}

fn build(op: u8, protocol: u8, sps: u16, len: usize, inc: Inc512) -> Result<[u8; 12]> {
    let field = match inc {
        Inc512::Bytes => len,
        Inc512::Blocks => {
            if len % BLOCK != 0 {
                return Err(Invalid::Inc512Length { len }.into());
            }
            len / BLOCK
        }
    };
    let field = u32::try_from(field).map_err(|_| Invalid::SecurityTransferLength { len })?;
    let mut cdb = [0u8; 12];
    cdb[0] = op;
    cdb[1] = protocol;
    cdb[2..4].copy_from_slice(&sps.to_be_bytes());
    if inc == Inc512::Blocks {
        cdb[4] = 0x80;
    }
    cdb[6..10].copy_from_slice(&field.to_be_bytes());
    Ok(cdb)
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-5 6.40 SECURITY PROTOCOL IN CDB (12 bytes).
    #[doc(alias = "sg_ll_sec_prot_in")]
    pub struct SecurityProtocolInCdb {
        /// SECURITY PROTOCOL, byte 1.
        protocol: u8,
        /// SECURITY PROTOCOL SPECIFIC, bytes 2–3 (the ComID for TCG).
        sps: u16,
        /// ALLOCATION LENGTH in bytes; bytes 6–9 carry it in bytes or, with INC_512, in
        /// 512-byte units (then it must be a multiple of 512).
        alloc_len: usize,
        ;;
        /// INC_512, byte 4 bit 7.
        inc_512: Inc512 = Inc512::Bytes,
    }
}

impl SecurityProtocolInCdb {
    /// SECURITY PROTOCOL IN operation code.
    pub const OPCODE: u8 = OPCODE_IN;

    /// The 12 CDB bytes; an error when the length does not fit the field (or is not a
    /// multiple of 512 with INC_512).
    pub fn build(&self) -> Result<[u8; 12]> {
        build(
            OPCODE_IN,
            self.protocol,
            self.sps,
            self.alloc_len,
            self.inc_512,
        )
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-5 6.41 SECURITY PROTOCOL OUT CDB (12 bytes).
    #[doc(alias = "sg_ll_sec_prot_out")]
    pub struct SecurityProtocolOutCdb {
        /// SECURITY PROTOCOL, byte 1.
        protocol: u8,
        /// SECURITY PROTOCOL SPECIFIC, bytes 2–3 (the ComID for TCG).
        sps: u16,
        /// TRANSFER LENGTH in bytes; bytes 6–9 carry it in bytes or, with INC_512, in
        /// 512-byte units (then it must be a multiple of 512).
        transfer_len: usize,
        ;;
        /// INC_512, byte 4 bit 7.
        inc_512: Inc512 = Inc512::Bytes,
    }
}

impl SecurityProtocolOutCdb {
    /// SECURITY PROTOCOL OUT operation code.
    pub const OPCODE: u8 = OPCODE_OUT;

    /// The 12 CDB bytes; an error when the length does not fit the field (or is not a
    /// multiple of 512 with INC_512).
    pub fn build(&self) -> Result<[u8; 12]> {
        build(
            OPCODE_OUT,
            self.protocol,
            self.sps,
            self.transfer_len,
            self.inc_512,
        )
    }
}

/// A decoded CDB (used by the simulator and by `-v` traces to recognise the command).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecurityCdb {
    /// True for IN (0xA2), false for OUT (0xB5).
    pub is_in: bool,
    /// SECURITY PROTOCOL.
    pub protocol: u8,
    /// SECURITY PROTOCOL SPECIFIC (ComID for TCG).
    pub sps: u16,
    /// INC_512 bit.
    pub inc_512: bool,
    /// Allocation/transfer length in bytes (after applying INC_512).
    pub len_bytes: u64,
}

/// Decodes a SECURITY PROTOCOL IN/OUT CDB.
pub fn parse_cdb(cdb: &[u8]) -> ParseResult<SecurityCdb> {
    let b = Bytes::new(cdb, "SECURITY PROTOCOL CDB");
    b.need(12)?;
    let op = b.u8(0)?;
    if op != OPCODE_IN && op != OPCODE_OUT {
        return Err(crate::bytes::ParseError::new(
            "SECURITY PROTOCOL CDB",
            format!("opcode 0x{op:02x}"),
        ));
    }
    let inc_512 = b.u8(4)? & 0x80 != 0;
    let raw = u64::from(b.be32(6)?);
    Ok(SecurityCdb {
        is_in: op == OPCODE_IN,
        protocol: b.u8(1)?,
        sps: b.be16(2)?,
        inc_512,
        len_bytes: if inc_512 { raw * BLOCK as u64 } else { raw },
    })
}

/// SPC-5 7.7.1.3: supported security protocol list (protocol 0x00, SPS 0x0000). Bytes 6–7
/// list length, then one byte per protocol.
pub fn parse_supported_protocols(buf: &[u8]) -> ParseResult<Vec<u8>> {
    let b = Bytes::new(buf, "supported security protocol list");
    let n = usize::from(b.be16(6)?);
    // A drive may report a list longer than the buffer we gave it: take what fits.
    let avail = b.len().saturating_sub(8);
    Ok(b.slice(8, n.min(avail))?.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        // Level 0 discovery as go-tcg/sedutil send it: proto 1, ComID 1, INC_512, 4 blocks.
        assert_eq!(
            SecurityProtocolInCdb::new(1, 0x0001, 2048)
                .inc_512(Inc512::Blocks)
                .build()
                .unwrap(),
            [0xA2, 0x01, 0x00, 0x01, 0x80, 0, 0, 0, 0, 0x04, 0, 0]
        );
        // The kernel's form: byte length.
        assert_eq!(
            SecurityProtocolOutCdb::new(1, 0x07FE, 512).build().unwrap(),
            [0xB5, 0x01, 0x07, 0xFE, 0x00, 0, 0, 0, 0x02, 0x00, 0, 0]
        );
        assert!(SecurityProtocolInCdb::new(1, 1, 100)
            .inc_512(Inc512::Blocks)
            .build()
            .is_err());
        let d = parse_cdb(
            &SecurityProtocolInCdb::new(2, 0x07FE, 1024)
                .inc_512(Inc512::Blocks)
                .build()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            (d.is_in, d.protocol, d.sps, d.len_bytes),
            (true, 2, 0x7FE, 1024)
        );
        assert!(parse_cdb(&[0xA2, 0]).is_err());
    }

    #[test]
    fn padding() {
        assert_eq!(pad_len(0), 512);
        assert_eq!(pad_len(512), 512);
        assert_eq!(pad_len(513), 1024);
    }

    #[test]
    fn protocol_list() {
        let buf = [0, 0, 0, 0, 0, 0, 0, 3, 0x00, 0x01, 0x02, 0, 0];
        assert_eq!(parse_supported_protocols(&buf).unwrap(), vec![0, 1, 2]);
        // A list length that lies is clipped to the bytes present.
        let buf = [0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0x00, 0xEF];
        assert_eq!(parse_supported_protocols(&buf).unwrap(), vec![0, 0xEF]);
        assert!(parse_supported_protocols(&[0; 5]).is_err());
    }
}
