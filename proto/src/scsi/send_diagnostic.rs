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

/// SEND DIAGNOSTIC CDB for a self-test: SELF-TEST CODE in byte 1 bits 7-5, PF = 0,
/// SELFTEST = 0, DEVOFFL = UNITOFFL = 0, no parameter list.
#[doc(alias = "sg_ll_send_diag")]
pub fn self_test_cdb(t: SelfTest) -> [u8; 6] {
    [OPCODE, t.code() << 5, 0, 0, 0, 0]
}

/// SEND DIAGNOSTIC CDB for the default self-test (SELFTEST = 1, SELF-TEST CODE 000b); the
/// device server runs it in the foreground and reports only pass (GOOD) or fail (CHECK
/// CONDITION), nothing goes to the Self-Test Results log page.
pub fn default_self_test_cdb() -> [u8; 6] {
    [OPCODE, 0x04, 0, 0, 0, 0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPC-6 6.42.1 Table (SEND DIAGNOSTIC command) and the SELF-TEST CODE table: byte 1 is
    /// the code shifted to bits 7-5; everything else is zero.
    #[test]
    fn cdb_bytes_from_the_table() {
        assert_eq!(
            self_test_cdb(SelfTest::BackgroundShort),
            [0x1d, 0x20, 0, 0, 0, 0]
        );
        assert_eq!(
            self_test_cdb(SelfTest::BackgroundExtended),
            [0x1d, 0x40, 0, 0, 0, 0]
        );
        assert_eq!(
            self_test_cdb(SelfTest::AbortBackground),
            [0x1d, 0x80, 0, 0, 0, 0]
        );
        assert_eq!(
            self_test_cdb(SelfTest::ForegroundShort),
            [0x1d, 0xa0, 0, 0, 0, 0]
        );
        assert_eq!(
            self_test_cdb(SelfTest::ForegroundExtended),
            [0x1d, 0xc0, 0, 0, 0, 0]
        );
        assert_eq!(default_self_test_cdb(), [0x1d, 0x04, 0, 0, 0, 0]);
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
