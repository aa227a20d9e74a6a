//! SPC-5 6.6 LOG SENSE (0x4D): CDB builder and the request length of a page (the two-step
//! fetch is [`crate::cmd::log_sense`]).
//!
//! CDB layout restated in docs/protocols.md §E.1 (source: sg3_utils
//! `lib/sg_cmds_basic.c` `sg_ll_log_sense_v2`).

use serde::Serialize;

/// LOG SENSE operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::LOG_SENSE;

/// Largest allocation length the 16-bit field can carry.
pub(crate) const MAX_ALLOCATION: usize = 0xFFFF;

/// SPC-5 6.6 table "Page control (PC) field": which set of values to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[doc(alias = "PC")]
pub enum PageControl {
    /// 00b: current threshold values.
    Threshold,
    /// 01b: current cumulative values (what sg_logs and smartctl read by default).
    Cumulative,
    /// 10b: default threshold values.
    DefaultThreshold,
    /// 11b: default cumulative values.
    DefaultCumulative,
}

impl PageControl {
    /// The 2-bit field value.
    pub fn bits(self) -> u8 {
        match self {
            PageControl::Threshold => 0,
            PageControl::Cumulative => 1,
            PageControl::DefaultThreshold => 2,
            PageControl::DefaultCumulative => 3,
        }
    }

    /// Parses the CLI spelling: `current`/`cumulative`, `threshold`, `default`
    /// (= default cumulative), `default-threshold`, or a number 0..=3.
    pub fn parse(s: &str) -> Option<PageControl> {
        Some(match s {
            "current" | "cumulative" | "1" => PageControl::Cumulative,
            "threshold" | "0" => PageControl::Threshold,
            "default" | "default-cumulative" | "3" => PageControl::DefaultCumulative,
            "default-threshold" | "2" => PageControl::DefaultThreshold,
            _ => return None,
        })
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-5 6.6 LOG SENSE CDB (10 bytes). PC defaults to cumulative values (01b), what
    /// sg_logs and smartctl read.
    #[doc(alias = "sg_ll_log_sense_v2")]
    pub(crate) struct LogSenseCdb {
        /// PAGE CODE, byte 2 bits 5-0.
        page_code: u8,
        /// ALLOCATION LENGTH, bytes 7-8.
        alloc_len: u16,
        ;;
        /// SUBPAGE CODE, byte 3.
        subpage_code: u8 = 0,
        /// PC, byte 2 bits 7-6.
        pc: PageControl = PageControl::Cumulative,
        /// PARAMETER POINTER, bytes 5-6: the first parameter code to return.
        parameter_pointer: u16 = 0,
        /// SP, byte 1 bit 0: save parameters after returning them.
        sp: bool = false,
        /// PPC, byte 1 bit 1: parameter pointer control (obsolete in SPC-5).
        ppc: bool = false,
    }
}

impl LogSenseCdb {
    /// LOG SENSE operation code.
    pub(crate) const OPCODE: u8 = OPCODE;

    /// The 10 CDB bytes.
    pub(crate) fn build(&self) -> [u8; 10] {
        let pp = self.parameter_pointer.to_be_bytes();
        let al = self.alloc_len.to_be_bytes();
        [
            Self::OPCODE,
            (u8::from(self.ppc) << 1) | u8::from(self.sp),
            (self.pc.bits() << 6) | (self.page_code & 0x3f),
            self.subpage_code,
            0,
            pp[0],
            pp[1],
            al[0],
            al[1],
            0,
        ]
    }
}

/// Length to request for a page whose header announced `page_length`: header + page, rounded
/// up to even (some HBAs mishandle odd transfers, sg_logs does the same), capped at 65535.
pub(crate) fn full_request_len(page_length: u16) -> usize {
    let n = usize::from(page_length) + 4;
    (n + (n & 1)).min(MAX_ALLOCATION)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdb_bytes() {
        // sg_logs -p 0x2f (PC=1): 4d 00 6f 00 00 00 00 <len> 00
        let c = LogSenseCdb::new(0x2f, 0x0400).build();
        assert_eq!(c, [0x4d, 0, 0x6f, 0, 0, 0, 0, 0x04, 0, 0]);
        // Captured CDB from a real drive (libscsicmd collect_raw_data): page 0x0D, alloc 0x4000.
        let c = LogSenseCdb::new(0x0d, 0x4000)
            .pc(PageControl::Cumulative)
            .build();
        assert_eq!(c, [0x4d, 0x00, 0x4d, 0x00, 0, 0, 0, 0x40, 0x00, 0x00]);
        let c = LogSenseCdb::new(0x18, 0xfffe)
            .subpage_code(0x01)
            .pc(PageControl::DefaultThreshold)
            .parameter_pointer(0x1234)
            .sp(true)
            .ppc(true)
            .build();
        assert_eq!(c, [0x4d, 0x03, 0x98, 0x01, 0, 0x12, 0x34, 0xff, 0xfe, 0]);
    }

    #[test]
    fn request_len_is_even_and_capped() {
        assert_eq!(full_request_len(0x0c), 16);
        assert_eq!(full_request_len(0x07), 12);
        assert_eq!(full_request_len(0xffff), MAX_ALLOCATION);
        assert_eq!(full_request_len(0xfffb), MAX_ALLOCATION);
    }

    #[test]
    fn page_control_names() {
        assert_eq!(PageControl::parse("current"), Some(PageControl::Cumulative));
        assert_eq!(
            PageControl::parse("threshold"),
            Some(PageControl::Threshold)
        );
        assert_eq!(
            PageControl::parse("default"),
            Some(PageControl::DefaultCumulative)
        );
        assert_eq!(PageControl::parse("bogus"), None);
    }
}
