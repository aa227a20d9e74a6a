//! SPC-6 RECEIVE DIAGNOSTIC RESULTS (0x1C) and SEND DIAGNOSTIC (0x1D) CDBs, as used for the
//! diagnostic pages of an enclosure services device (SES-4 clause 6: the SES pages are
//! diagnostic pages; the status pages are read with RECEIVE DIAGNOSTIC RESULTS with PCV=1, the
//! control pages written with SEND DIAGNOSTIC with PF=1). The pages themselves are decoded in
//! [`crate::ses`].

/// RECEIVE DIAGNOSTIC RESULTS operation code.
pub(crate) const RECEIVE_OPCODE: u8 = 0x1c;

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.33 RECEIVE DIAGNOSTIC RESULTS CDB (6 bytes). With PCV=0 the device returns the
    /// result of the last SEND DIAGNOSTIC; SES status pages need PCV=1 and their page code.
    /// (A SES control page is sent with [`crate::scsi::send_diagnostic::SendDiagnosticCdb`]
    /// with PF=1 and its length.)
    #[doc(alias = "sg_ll_receive_diag")]
    pub struct ReceiveDiagnosticResultsCdb {
        /// ALLOCATION LENGTH, bytes 3-4.
        alloc_len: u16,
        ;;
        /// PCV (page code valid), byte 1 bit 0.
        pcv: bool = false,
        /// PAGE CODE, byte 2 (meaningful with PCV=1).
        page_code: u8 = 0,
    }
}

impl ReceiveDiagnosticResultsCdb {
    /// RECEIVE DIAGNOSTIC RESULTS operation code.
    pub const OPCODE: u8 = RECEIVE_OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        let [hi, lo] = self.alloc_len.to_be_bytes();
        [
            RECEIVE_OPCODE,
            u8::from(self.pcv),
            self.page_code,
            hi,
            lo,
            0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        assert_eq!(
            ReceiveDiagnosticResultsCdb::new(0x1234)
                .pcv(true)
                .page_code(0x02)
                .build(),
            [0x1c, 1, 2, 0x12, 0x34, 0]
        );
        assert_eq!(
            ReceiveDiagnosticResultsCdb::new(8).build(),
            [0x1c, 0, 0, 0, 8, 0]
        );
        assert_eq!(
            crate::scsi::send_diagnostic::SendDiagnosticCdb::new()
                .pf(true)
                .parameter_list_length(0x0104)
                .build(),
            [0x1d, 0x10, 0, 0x01, 0x04, 0]
        );
    }
}
