//! ComID management, security protocol 0x02 (protocols.md §F.3) [GOTCG `core.go`].
//!
//! GET_COMID: IF-RECV proto 2, SPS 0 → bytes 0–1 ComID, 2–3 extension.
//! Requests: IF-SEND proto 2, SPS = ComID: 0–1 ComID, 2–3 ext, 4–7 request code
//! (1 VERIFY_COMID_VALID, 2 STACK_RESET). Response (IF-RECV proto 2, SPS = ComID):
//! 0–1 ComID, 2–3 ext, 4–7 request code, 10–11 available data length, 12.. data.

use super::TcgError;
use crate::bytes::Bytes;
use serde::Serialize;

/// Request code VERIFY_COMID_VALID.
pub const VERIFY_COMID_VALID: u32 = 1;
/// Request code STACK_RESET.
pub const STACK_RESET: u32 = 2;

/// Builds a protocol-0x02 request (512 bytes).
pub fn request(comid: u16, ext: u16, code: u32) -> Vec<u8> {
    let mut b = vec![0u8; 512];
    b[0..2].copy_from_slice(&comid.to_be_bytes());
    b[2..4].copy_from_slice(&ext.to_be_bytes());
    b[4..8].copy_from_slice(&code.to_be_bytes());
    b
}

/// Parses a GET_COMID answer: (ComID, extension).
pub fn parse_get_comid(buf: &[u8]) -> Result<(u16, u16), TcgError> {
    let b = Bytes::new(buf, "GET_COMID");
    Ok((b.be16(0)?, b.be16(2)?))
}

/// A protocol-0x02 response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ComIdResponse {
    /// ComID.
    pub comid: u16,
    /// Request code echoed.
    pub request: u32,
    /// Data (empty = still pending).
    pub data: Vec<u8>,
}

/// Parses a protocol-0x02 response; checks that it answers `comid`.
pub fn parse_response(buf: &[u8], comid: u16) -> Result<ComIdResponse, TcgError> {
    let b = Bytes::new(buf, "ComID management response");
    let got = b.be16(0)?;
    if got != comid {
        return Err(TcgError::Framing(format!(
            "ComID management answer for 0x{got:04x}, expected 0x{comid:04x}"
        )));
    }
    let n = usize::from(b.be16(10)?);
    Ok(ComIdResponse {
        comid: got,
        request: b.be32(4)?,
        data: b.slice(12, n)?.to_vec(),
    })
}

/// Builds a protocol-0x02 response (simulator).
pub fn build_response(comid: u16, code: u32, data: &[u8], len: usize) -> Vec<u8> {
    let mut b = vec![0u8; len.max(12 + data.len())];
    b[0..2].copy_from_slice(&comid.to_be_bytes());
    b[4..8].copy_from_slice(&code.to_be_bytes());
    b[10..12].copy_from_slice(&(data.len() as u16).to_be_bytes());
    b[12..12 + data.len()].copy_from_slice(data);
    b
}

/// VERIFY_COMID_VALID state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComIdState {
    /// 0
    Invalid,
    /// 1
    Inactive,
    /// 2
    Issued,
    /// 3
    Associated,
    /// Other.
    Other(u32),
}

impl ComIdState {
    /// Decodes the 4-byte state.
    pub fn from_data(d: &[u8]) -> Result<ComIdState, TcgError> {
        let v = Bytes::new(d, "ComID state").be32(0)?;
        Ok(match v {
            0 => ComIdState::Invalid,
            1 => ComIdState::Inactive,
            2 => ComIdState::Issued,
            3 => ComIdState::Associated,
            o => ComIdState::Other(o),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let r = request(0x07FE, 0, STACK_RESET);
        assert_eq!(&r[..8], &[0x07, 0xFE, 0, 0, 0, 0, 0, 2]);
        let resp = build_response(0x07FE, STACK_RESET, &[0, 0, 0, 0], 512);
        let p = parse_response(&resp, 0x07FE).unwrap();
        assert_eq!((p.request, p.data.as_slice()), (2, &[0u8, 0, 0, 0][..]));
        assert!(parse_response(&resp, 0x0800).is_err());
        let mut bad = resp.clone();
        bad[10] = 0xFF;
        bad.truncate(40);
        assert!(parse_response(&bad, 0x07FE).is_err());
        assert_eq!(
            ComIdState::from_data(&[0, 0, 0, 3]).unwrap(),
            ComIdState::Associated
        );
    }
}
