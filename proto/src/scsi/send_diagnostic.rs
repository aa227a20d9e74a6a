//! SPC-6 6.42 SEND DIAGNOSTIC (0x1D) used to start and abort self-tests.
//!
//! CDB (6 bytes): byte 1 bits 7-5 SELF-TEST CODE, bit 4 PF, bit 2 SELFTEST, bit 1 DEVOFFL,
//! bit 0 UNITOFFL; bytes 3-4 PARAMETER LIST LENGTH; byte 5 CONTROL. A non-zero SELF-TEST CODE
//! requires SELFTEST = 0 and a parameter list length of 0 (SPC-6 6.42.2).
//!
//! SELF-TEST CODE values (SPC-6 Table "The SELF-TEST CODE field"):
//!
//! | code | name | mode |
//! |---|---|---|
//! | 000b | (none: default self-test with SELFTEST = 1, or a diagnostic page) | |
//! | 001b | background short self-test | background |
//! | 010b | background extended self-test | background |
//! | 011b | reserved | |
//! | 100b | abort background self-test | |
//! | 101b | foreground short self-test | foreground |
//! | 110b | foreground extended self-test | foreground |
//! | 111b | reserved | |

use serde::Serialize;

/// SEND DIAGNOSTIC operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::SEND_DIAGNOSTIC;

/// What to ask the device server for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SelfTest {
    /// 001b: short self-test in the background (the drive stays usable).
    BackgroundShort,
    /// 010b: extended self-test in the background.
    BackgroundExtended,
    /// 100b: abort the background self-test in progress.
    AbortBackground,
    /// 101b: short self-test in the foreground (the command completes when the test ends).
    ForegroundShort,
    /// 110b: extended self-test in the foreground.
    ForegroundExtended,
}

impl SelfTest {
    /// The SELF-TEST CODE field value (3 bits).
    pub fn code(self) -> u8 {
        match self {
            SelfTest::BackgroundShort => 0b001,
            SelfTest::BackgroundExtended => 0b010,
            SelfTest::AbortBackground => 0b100,
            SelfTest::ForegroundShort => 0b101,
            SelfTest::ForegroundExtended => 0b110,
        }
    }

    /// The self-test for `code`, if the code names one.
    pub fn from_code(code: u8) -> Option<SelfTest> {
        Some(match code {
            0b001 => SelfTest::BackgroundShort,
            0b010 => SelfTest::BackgroundExtended,
            0b100 => SelfTest::AbortBackground,
            0b101 => SelfTest::ForegroundShort,
            0b110 => SelfTest::ForegroundExtended,
            _ => return None,
        })
    }

    /// True for the foreground tests: the command holds the logical unit until the test ends
    /// and other commands get NOT READY 04/09 (SPC-6 5.17.4.2).
    pub fn is_foreground(self) -> bool {
        matches!(
            self,
            SelfTest::ForegroundShort | SelfTest::ForegroundExtended
        )
    }

    /// True for the extended tests (the whole medium is read).
    pub fn is_extended(self) -> bool {
        matches!(
            self,
            SelfTest::BackgroundExtended | SelfTest::ForegroundExtended
        )
    }

    /// The name SPC-6 gives it.
    pub fn name(self) -> &'static str {
        match self {
            SelfTest::BackgroundShort => "background short self-test",
            SelfTest::BackgroundExtended => "background extended self-test",
            SelfTest::AbortBackground => "abort background self-test",
            SelfTest::ForegroundShort => "foreground short self-test",
            SelfTest::ForegroundExtended => "foreground extended self-test",
        }
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.42 SEND DIAGNOSTIC CDB (6 bytes). A self-test: `.self_test_code(t.code())`;
    /// the default self-test: `.selftest(true)` (run in the foreground, pass or fail only,
    /// nothing in the Self-Test Results log page); a diagnostic page such as a SES control
    /// page: `.pf(true).parameter_list_length(len)`.
    #[doc(alias = "sg_ll_send_diag")]
    pub struct SendDiagnosticCdb {
        ;;
        /// SELF-TEST CODE, byte 1 bits 7-5 (see [`SelfTest::code`]).
        self_test_code: u8 = 0,
        /// PF, byte 1 bit 4: the parameter list is a page as the standards define it.
        pf: bool = false,
        /// SELFTEST, byte 1 bit 2: run the default self-test.
        selftest: bool = false,
        /// DEVOFFL, byte 1 bit 1.
        devoffl: bool = false,
        /// UNITOFFL, byte 1 bit 0.
        unitoffl: bool = false,
        /// PARAMETER LIST LENGTH, bytes 3-4.
        parameter_list_length: u16 = 0,
    }
}

impl SendDiagnosticCdb {
    /// SEND DIAGNOSTIC operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        let [hi, lo] = self.parameter_list_length.to_be_bytes();
        [
            OPCODE,
            ((self.self_test_code & 0x07) << 5)
                | (u8::from(self.pf) << 4)
                | (u8::from(self.selftest) << 2)
                | (u8::from(self.devoffl) << 1)
                | u8::from(self.unitoffl),
            0,
            hi,
            lo,
            0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPC-6 6.42.1 Table (SEND DIAGNOSTIC command) and the SELF-TEST CODE table: byte 1 is
    /// the code shifted to bits 7-5; everything else is zero.
    #[test]
    fn cdb_bytes_from_the_table() {
        assert_eq!(
            SendDiagnosticCdb::new()
                .self_test_code(SelfTest::BackgroundShort.code())
                .build(),
            [0x1d, 0x20, 0, 0, 0, 0]
        );
        assert_eq!(
            SendDiagnosticCdb::new()
                .self_test_code(SelfTest::BackgroundExtended.code())
                .build(),
            [0x1d, 0x40, 0, 0, 0, 0]
        );
        assert_eq!(
            SendDiagnosticCdb::new()
                .self_test_code(SelfTest::AbortBackground.code())
                .build(),
            [0x1d, 0x80, 0, 0, 0, 0]
        );
        assert_eq!(
            SendDiagnosticCdb::new()
                .self_test_code(SelfTest::ForegroundShort.code())
                .build(),
            [0x1d, 0xa0, 0, 0, 0, 0]
        );
        assert_eq!(
            SendDiagnosticCdb::new()
                .self_test_code(SelfTest::ForegroundExtended.code())
                .build(),
            [0x1d, 0xc0, 0, 0, 0, 0]
        );
        assert_eq!(
            SendDiagnosticCdb::new().selftest(true).build(),
            [0x1d, 0x04, 0, 0, 0, 0]
        );
    }

    #[test]
    fn codes_round_trip_and_reserved_codes_name_nothing() {
        for c in 0..8u8 {
            match SelfTest::from_code(c) {
                Some(t) => assert_eq!(t.code(), c),
                None => assert!(matches!(c, 0 | 3 | 7)),
            }
        }
        assert!(SelfTest::ForegroundShort.is_foreground());
        assert!(!SelfTest::BackgroundExtended.is_foreground());
        assert!(SelfTest::BackgroundExtended.is_extended());
        assert!(!SelfTest::AbortBackground.is_extended());
    }
}
