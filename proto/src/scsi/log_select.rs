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

/// The fields of a LOG SELECT CDB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogSelect {
    /// PCR: parameter code reset.
    pub pcr: bool,
    /// SP: save parameters.
    pub sp: bool,
    /// Page control.
    pub pc: PageControl,
    /// Page code (0 with subpage 0 = all pages, SPC-5 6.5).
    pub page: u8,
    /// Subpage code.
    pub subpage: u8,
    /// Parameter list length (0 for a reset).
    pub parameter_list_length: u16,
}

impl LogSelect {
    /// PCR=1 reset of the cumulative values of every page (page 0, subpage 0, no parameter list).
    pub fn reset_all(pc: PageControl) -> LogSelect {
        LogSelect {
            pcr: true,
            sp: false,
            pc,
            page: 0,
            subpage: 0,
            parameter_list_length: 0,
        }
    }

    /// SPC-5 6.5 LOG SELECT CDB (10 bytes).
    pub fn cdb(&self) -> [u8; 10] {
        let pl = self.parameter_list_length.to_be_bytes();
        [
            OPCODE,
            (u8::from(self.pcr) << 1) | u8::from(self.sp),
            (self.pc.bits() << 6) | (self.page & 0x3f),
            self.subpage,
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
            LogSelect::reset_all(PageControl::Cumulative).cdb(),
            [0x4c, 0x02, 0x40, 0, 0, 0, 0, 0, 0, 0]
        );
        let c = LogSelect {
            pcr: false,
            sp: true,
            pc: PageControl::DefaultCumulative,
            page: 0x0f,
            subpage: 0,
            parameter_list_length: 0x0104,
        };
        assert_eq!(c.cdb(), [0x4c, 0x01, 0xcf, 0, 0, 0, 0, 0x01, 0x04, 0]);
    }
}
