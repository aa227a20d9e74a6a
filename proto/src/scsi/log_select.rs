//! SPC-5 6.5 LOG SELECT (0x4C): CDB builder (reset of log parameters with PCR).
//!
//! Layout restated in docs/protocols.md §E.1 (source: sg3_utils
//! `lib/sg_cmds_basic2.c` `sg_ll_log_select`): byte 1 bit1 PCR, bit0 SP; byte 2 bits 7-6 PC,
//! bits 5-0 page code; byte 3 subpage; bytes 7-8 parameter list length.
//! Resetting counters destroys history, so it is sent by `sgctl::ops::logs::send_reset`, which
//! takes the safety gate's token.

use crate::scsi::log_sense::PageControl;

/// LOG SELECT operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::LOG_SELECT;

crate::scsi::cdb::cdb_builder! {
    /// SPC-5 6.5 LOG SELECT CDB (10 bytes). A reset of every page's values of one kind is
    /// `LogSelectCdb::new(pc).pcr(true)` (page 0, subpage 0, no parameter list).
    #[doc(alias = "sg_ll_log_select")]
    pub struct LogSelectCdb {
        /// PC, byte 2 bits 7-6: which values.
        pc: PageControl,
        ;;
        /// PCR, byte 1 bit 1: parameter code reset.
        pcr: bool = false,
        /// SP, byte 1 bit 0: save parameters.
        sp: bool = false,
        /// PAGE CODE, byte 2 bits 5-0 (0 with subpage 0 = all pages, SPC-5 6.5).
        page_code: u8 = 0,
        /// SUBPAGE CODE, byte 3.
        subpage_code: u8 = 0,
        /// PARAMETER LIST LENGTH, bytes 7-8 (0 for a reset).
        parameter_list_length: u16 = 0,
    }
}

impl LogSelectCdb {
    /// LOG SELECT operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let pl = self.parameter_list_length.to_be_bytes();
        [
            OPCODE,
            (u8::from(self.pcr) << 1) | u8::from(self.sp),
            (self.pc.bits() << 6) | (self.page_code & 0x3f),
            self.subpage_code,
            0,
            0,
            0,
            pl[0],
            pl[1],
            0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_cdb() {
        // sg_logs --reset (PCR=1, PC=1 cumulative, all pages): 4c 02 40 00 00 00 00 00 00 00
        assert_eq!(
            LogSelectCdb::new(PageControl::Cumulative).pcr(true).build(),
            [0x4c, 0x02, 0x40, 0, 0, 0, 0, 0, 0, 0]
        );
        let c = LogSelectCdb::new(PageControl::DefaultCumulative)
            .sp(true)
            .page_code(0x0f)
            .parameter_list_length(0x0104);
        assert_eq!(c.build(), [0x4c, 0x01, 0xcf, 0, 0, 0, 0, 0x01, 0x04, 0]);
    }
}
