//! ComPacket / Packet / SubPacket framing (protocols.md §F.4) [GOTCG `communication.go`,
//! K-opal `opal_header`, SEDU `DtaCommand::complete`].
//!
//! ```text
//! ComPacket (20): 0 reserved(4) 4 ComID(2) 6 ext(2) 8 OutstandingData(4) 12 MinTransfer(4) 16 Length(4)
//! Packet    (24): 20 TSN(4) 24 HSN(4) 28 SeqNumber(4) 32 reserved(2) 34 AckType(2) 36 Ack(4) 40 Length(4)
//! SubPacket (12): 44 reserved(6) 50 Kind(2) 52 Length(4)  56.. tokens, zero-padded to 4
//! ```
//! SubPacket length excludes the padding; Packet length = 12 + padded payload; ComPacket
//! length = 24 + 12 + padded payload; the whole transfer is then padded to 512.

use super::TcgError;
use crate::bytes::Bytes;

/// Bytes before the token payload.
pub const HEADER_LEN: usize = 56;

/// Builds a ComPacket carrying `payload` for (`tsn`, `hsn`). The result is padded to a
/// multiple of 512 bytes (sedutil rounds up exactly; go-tcg adds a spare 512).
pub fn build(comid: u16, comid_ext: u16, tsn: u32, hsn: u32, payload: &[u8]) -> Vec<u8> {
    let padded = payload.len().div_ceil(4) * 4;
    let sub_len = payload.len() as u32;
    let pkt_len = (12 + padded) as u32;
    let com_len = (24 + 12 + padded) as u32;
    let mut b = Vec::with_capacity(HEADER_LEN + padded);
    b.extend_from_slice(&[0; 4]);
    b.extend_from_slice(&comid.to_be_bytes());
    b.extend_from_slice(&comid_ext.to_be_bytes());
    b.extend_from_slice(&0u32.to_be_bytes()); // OutstandingData
    b.extend_from_slice(&0u32.to_be_bytes()); // MinTransfer
    b.extend_from_slice(&com_len.to_be_bytes());
    b.extend_from_slice(&tsn.to_be_bytes());
    b.extend_from_slice(&hsn.to_be_bytes());
    b.extend_from_slice(&[0; 4]); // SeqNumber
    b.extend_from_slice(&[0; 2]); // reserved
    b.extend_from_slice(&[0; 2]); // AckType
    b.extend_from_slice(&[0; 4]); // Acknowledgement
    b.extend_from_slice(&pkt_len.to_be_bytes());
    b.extend_from_slice(&[0; 6]);
    b.extend_from_slice(&[0; 2]); // Kind = data
    b.extend_from_slice(&sub_len.to_be_bytes());
    b.extend_from_slice(payload);
    b.resize(HEADER_LEN + padded, 0);
    let total = crate::scsi::security_protocol::pad_len(b.len());
    b.resize(total, 0);
    b
}

/// A received ComPacket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// ComPacket length 0: nothing ready. Poll again (`min_transfer` = 0) or re-issue with a
    /// buffer of at least `min_transfer` bytes.
    Pending {
        /// OutstandingData.
        outstanding: u32,
        /// MinTransfer.
        min_transfer: u32,
    },
    /// One data SubPacket.
    Data {
        /// ComID echoed by the TPer.
        comid: u16,
        /// TPer session number.
        tsn: u32,
        /// Host session number.
        hsn: u32,
        /// The token payload (padding removed).
        payload: Vec<u8>,
    },
}

/// Parses an IF-RECV buffer. Lengths are checked against each other and the buffer.
pub fn parse(buf: &[u8]) -> Result<Received, TcgError> {
    let b = Bytes::new(buf, "ComPacket");
    let comid = b.be16(4)?;
    let outstanding = b.be32(8)?;
    let min_transfer = b.be32(12)?;
    let com_len = b.be32(16)? as usize;
    if com_len == 0 {
        return Ok(Received::Pending {
            outstanding,
            min_transfer,
        });
    }
    let com = b.sub(20, com_len).map_err(|_| {
        TcgError::Framing(format!(
            "ComPacket length {com_len} overruns the {} bytes received",
            buf.len()
        ))
    })?;
    let tsn = com.be32(0)?;
    let hsn = com.be32(4)?;
    let pkt_len = com.be32(20)? as usize;
    if pkt_len.checked_add(24).is_none_or(|n| n > com_len) {
        return Err(TcgError::Framing(format!(
            "Packet length {pkt_len} exceeds ComPacket length {com_len}"
        )));
    }
    let pkt = com.sub(24, pkt_len)?;
    let kind = pkt.be16(6)?;
    let sub_len = pkt.be32(8)? as usize;
    if sub_len.checked_add(12).is_none_or(|n| n > pkt_len) {
        return Err(TcgError::Framing(format!(
            "SubPacket length {sub_len} exceeds Packet length {pkt_len}"
        )));
    }
    if kind != 0 {
        return Err(TcgError::Framing(format!(
            "SubPacket kind 0x{kind:04x} (only data subpackets are supported)"
        )));
    }
    Ok(Received::Data {
        comid,
        tsn,
        hsn,
        payload: pkt.slice(12, sub_len)?.to_vec(),
    })
}

/// Builds an empty "not ready yet" ComPacket (used by the simulator).
pub fn build_pending(comid: u16, outstanding: u32, min_transfer: u32, len: usize) -> Vec<u8> {
    let mut b = vec![0u8; len.max(20)];
    b[4..6].copy_from_slice(&comid.to_be_bytes());
    b[8..12].copy_from_slice(&outstanding.to_be_bytes());
    b[12..16].copy_from_slice(&min_transfer.to_be_bytes());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_and_lengths() {
        let p = build(0x07FE, 0, 5, 105, &[0xFA]);
        assert_eq!(p.len(), 512);
        assert_eq!(&p[4..6], &[0x07, 0xFE]);
        assert_eq!(u32::from_be_bytes([p[16], p[17], p[18], p[19]]), 40);
        assert_eq!(u32::from_be_bytes([p[40], p[41], p[42], p[43]]), 16);
        assert_eq!(u32::from_be_bytes([p[52], p[53], p[54], p[55]]), 1);
        assert_eq!(p[56], 0xFA);
        assert_eq!(
            parse(&p).unwrap(),
            Received::Data {
                comid: 0x07FE,
                tsn: 5,
                hsn: 105,
                payload: vec![0xFA]
            }
        );
        let big = build(1, 0, 0, 0, &[0u8; 460]);
        assert_eq!(big.len(), 1024);
    }

    #[test]
    fn pending_and_hostile() {
        let p = build_pending(0x7FE, 1, 0, 512);
        assert_eq!(
            parse(&p).unwrap(),
            Received::Pending {
                outstanding: 1,
                min_transfer: 0
            }
        );
        let mut p = build(1, 0, 0, 0, &[1, 2, 3]);
        p[17] = 0xFF; // ComPacket length lies
        assert!(parse(&p).is_err());
        let mut p = build(1, 0, 0, 0, &[1, 2, 3]);
        p[43] = 0xF0; // Packet length lies
        assert!(parse(&p).is_err());
        let mut p = build(1, 0, 0, 0, &[1, 2, 3]);
        p[55] = 0x20; // SubPacket length lies
        assert!(parse(&p).is_err());
        assert!(parse(&[0; 10]).is_err());
    }

    proptest::proptest! {
        #[test]
        fn never_panics(data in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            let _ = parse(&data);
        }
    }
}
