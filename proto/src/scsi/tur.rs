//! SPC-6 6.47 TEST UNIT READY (0x00): no data; the answer is the status (and sense).

/// TEST UNIT READY operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::TEST_UNIT_READY;

/// SPC-6 6.47 TEST UNIT READY CDB (6 bytes, all zero but the control byte).
#[doc(alias = "sg_ll_test_unit_ready")]
pub fn cdb() -> [u8; 6] {
    [OPCODE, 0, 0, 0, 0, 0]
}

#[cfg(test)]
mod tests {
    #[test]
    fn cdb_bytes() {
        assert_eq!(super::cdb(), [0u8; 6]);
    }
}
