//! SPC-6 6.47 TEST UNIT READY (0x00): no data; the answer is the status (and sense).

/// TEST UNIT READY operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::TEST_UNIT_READY;

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.47 TEST UNIT READY CDB (6 bytes, all zero but the operation code): no fields.
    #[doc(alias = "sg_ll_test_unit_ready")]
    pub struct TestUnitReadyCdb {
        ;;
    }
}

impl TestUnitReadyCdb {
    /// TEST UNIT READY operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        [OPCODE, 0, 0, 0, 0, 0]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cdb_bytes() {
        assert_eq!(super::TestUnitReadyCdb::new().build(), [0u8; 6]);
    }
}
