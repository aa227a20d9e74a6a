//! SPC-6 RECEIVE DIAGNOSTIC RESULTS (0x1C) and SEND DIAGNOSTIC (0x1D) CDBs, as used for the
//! diagnostic pages of an enclosure services device (SES-4 clause 6: the SES pages are
//! diagnostic pages; the status pages are read with RECEIVE DIAGNOSTIC RESULTS with PCV=1, the
//! control pages written with SEND DIAGNOSTIC with PF=1). The pages themselves are decoded in
//! [`crate::ses`].

/// RECEIVE DIAGNOSTIC RESULTS operation code.
pub(crate) const RECEIVE_OPCODE: u8 = 0x1c;
/// SEND DIAGNOSTIC operation code.
pub(crate) const SEND_OPCODE: u8 = 0x1d;

/// RECEIVE DIAGNOSTIC RESULTS CDB (6 bytes): byte 1 bit 0 PCV (page code valid), byte 2 PAGE
/// CODE, bytes 3-4 ALLOCATION LENGTH. `page = Some(code)` sets PCV=1 (what SES needs);
/// `None` asks for the result of the last SEND DIAGNOSTIC (PCV=0).
#[doc(alias = "sg_ll_receive_diag")]
pub fn receive_cdb(page: Option<u8>, alloc: u16) -> [u8; 6] {
    let [hi, lo] = alloc.to_be_bytes();
    let (pcv, code) = match page {
        Some(c) => (1, c),
        None => (0, 0),
    };
    [RECEIVE_OPCODE, pcv, code, hi, lo, 0]
}

/// SEND DIAGNOSTIC CDB (6 bytes) carrying a diagnostic page of `len` bytes: byte 1 bit 4 PF=1
/// (the parameter list is a page as defined by the standards), SELF-TEST CODE 000b, SELFTEST,
/// DEVOFFL and UNITOFFL 0; bytes 3-4 PARAMETER LIST LENGTH.
#[doc(alias = "sg_ll_send_diag")]
pub fn send_page_cdb(len: u16) -> [u8; 6] {
    let [hi, lo] = len.to_be_bytes();
    [SEND_OPCODE, 0x10, 0, hi, lo, 0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        assert_eq!(receive_cdb(Some(0x02), 0x1234), [0x1c, 1, 2, 0x12, 0x34, 0]);
        assert_eq!(receive_cdb(None, 8), [0x1c, 0, 0, 0, 8, 0]);
        assert_eq!(send_page_cdb(0x0104), [0x1d, 0x10, 0, 0x01, 0x04, 0]);
    }
}
