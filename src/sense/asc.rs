//! ASC/ASCQ descriptions (SPC-5 Annex F.2). The full table is filled in from T10's asc-num.txt.

/// Description of an additional sense code and qualifier.
pub fn asc_description(asc: u8, ascq: u8) -> String {
    match (asc, ascq) {
        (0x00, 0x00) => "No additional sense information".into(),
        (0x04, 0x04) => "Logical unit not ready, format in progress".into(),
        (0x04, 0x1b) => "Logical unit not ready, sanitize in progress".into(),
        (0x20, 0x00) => "Invalid command operation code".into(),
        (0x24, 0x00) => "Invalid field in cdb".into(),
        (0x26, 0x00) => "Invalid field in parameter list".into(),
        (0x29, 0x00) => "Power on, reset, or bus device reset occurred".into(),
        (0x31, 0x00) => "Medium format corrupted".into(),
        (0x31, 0x03) => "Sanitize command failed".into(),
        _ => format!("ASC=0x{asc:02x} ASCQ=0x{ascq:02x}"),
    }
}
