//! Decoder tests against real dumps (fixtures/ata/, sources in fixtures/ata/README.md).

use super::{identify, log, smart, AtaErrorKind, AtaRegisters};

fn fixture(name: &str) -> Vec<u8> {
    let p = format!("{}/../fixtures/ata/{name}", env!("CARGO_MANIFEST_DIR"));
    let s = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    crate::bytes::parse_inhex(&s).unwrap()
}

#[test]
fn identify_samsung_870_qvo_matches_crystaldiskinfo() {
    let b = fixture("samsung-870qvo-identify.hex");
    let id = identify::parse(&b).unwrap();
    assert_eq!(id.model, "Samsung SSD 870 QVO 4TB");
    assert_eq!(id.serial_number, "S5STNF0W706332M");
    assert_eq!(id.firmware_revision, "SVQ02B6Q");
    assert_eq!(id.user_addressable_sectors, 7_814_037_168);
    assert_eq!(id.logical_sector_size, 512);
    assert_eq!(id.queue_depth, Some(32));
    assert_eq!(id.major_version.as_deref(), Some("ACS-4"));
    assert_eq!(id.rotation_rate, 1);
    assert!(id.smart_supported && id.smart_enabled && id.gpl_supported && id.trim_supported);
    assert_eq!(id.checksum_valid, Some(true));
    assert!(id.problems.is_empty());
    assert_eq!(id.wwn.as_deref(), Some("5002538f4372dd3a"));
    // Word 128 = 0x0029: supported, not enabled, frozen, enhanced erase supported.
    assert!(id.security.supported && !id.security.enabled && id.security.frozen);
    assert!(id.security.enhanced_erase_supported);
    // Word 59 = 0x0101: no Sanitize feature set on this drive.
    assert!(!id.sanitize.supported);
    // Word 89/90 = 0x0002/0x0004... (ATA8 format: minutes/2 in bits 7:0).
    assert_eq!(id.security.normal_erase_minutes, Some(4));
    assert_eq!(id.security.enhanced_erase_minutes, Some(8));
    // One flipped byte breaks the checksum and is reported, not fatal.
    let mut bad = b.clone();
    bad[100] ^= 1;
    assert_eq!(identify::parse(&bad).unwrap().checksum_valid, Some(false));
}

#[test]
fn smart_samsung_870_qvo_matches_crystaldiskinfo() {
    let b = fixture("samsung-870qvo-smart.hex");
    let s = smart::parse(&b[..512], Some(&b[512..])).unwrap();
    assert!(s.checksum_valid);
    assert_eq!(s.attributes.len(), 14);
    assert_eq!(s.get(9).unwrap().raw, 1379, "power-on hours");
    assert_eq!(s.get(12).unwrap().raw, 196, "power-on count");
    assert_eq!(s.get(190).unwrap().raw & 0xFF, 29, "temperature");
    let lbas = s.get(241).unwrap().raw;
    // CrystalDiskInfo truncates: 11454.5 GiB is shown as "11454 GB".
    assert_eq!(
        ((lbas * 512) as f64 / f64::from(1u32 << 30)).floor(),
        11454.0
    );
    let a5 = s.get(5).unwrap();
    assert_eq!((a5.value, a5.worst, a5.thresh), (100, 100, Some(10)));
    assert_eq!(
        s.get(177).unwrap().value,
        99,
        "wear leveling: CrystalDiskInfo health 99 %"
    );
    assert!(s.failing().is_empty());
    assert_eq!(s.self_test_status, 0);
}

#[test]
fn short_and_hostile_buffers_are_errors_not_panics() {
    for n in [0usize, 1, 100, 511] {
        let b = vec![0xFFu8; n];
        assert!(identify::parse(&b).is_err());
        assert!(smart::parse(&b, None).is_err());
        assert!(log::parse_directory(&b).is_err());
        assert!(log::parse_statistics_page(&b).is_err());
        assert!(log::parse_ext_self_test(&b).is_err());
        assert!(log::parse_ncq_error(&b).is_err());
    }
    let ff = vec![0xFFu8; 512];
    let _ = identify::parse(&ff).unwrap();
    let _ = smart::parse(&ff, Some(&ff)).unwrap();
    let _ = log::parse_directory(&ff).unwrap();
    assert_eq!(log::parse_statistics_list(&ff).unwrap().len(), 255);
    let _ = log::parse_statistics_page(&ff).unwrap();
    let _ = log::parse_ext_self_test(&ff).unwrap();
    let _ = log::parse_smart_self_test(&ff).unwrap();
}

#[test]
fn device_statistics_layout() {
    // ACS-4 9.5: qword header (revision 1, page 1), then statistics with flags in byte 7.
    let mut b = vec![0u8; 512];
    b[0] = 1;
    b[2] = 1;
    b[0x10..0x16].copy_from_slice(&1234u64.to_le_bytes()[..6]);
    b[0x17] = 0xC0;
    b[0x18..0x1E].copy_from_slice(&0x1_0000_0001u64.to_le_bytes()[..6]);
    b[0x1F] = 0x80; // supported, not valid
    let p = log::parse_statistics_page(&b).unwrap();
    assert_eq!(p.statistics.len(), 2);
    assert_eq!(
        log::find_stat(std::slice::from_ref(&p), 1, 0x10),
        Some(1234)
    );
    assert_eq!(p.statistics[1].value, None);
    let mut t = vec![0u8; 512];
    t[0] = 1;
    t[2] = 5;
    t[8] = 0xF6; // -10 C
    t[15] = 0xC0;
    let p = log::parse_statistics_page(&t).unwrap();
    assert_eq!(p.statistics[0].value, Some(-10));
}

#[test]
fn errors_are_typed() {
    let abrt = AtaRegisters {
        error: 0x04,
        status: 0x51,
        ..AtaRegisters::default()
    };
    assert_eq!(abrt.error_kind(), Some(AtaErrorKind::Aborted));
    let unc = AtaRegisters {
        error: 0x40,
        status: 0x51,
        ..AtaRegisters::default()
    };
    assert_eq!(unc.error_kind(), Some(AtaErrorKind::Uncorrectable));
    let idnf = AtaRegisters {
        error: 0x10,
        status: 0x51,
        ..AtaRegisters::default()
    };
    assert_eq!(idnf.error_kind(), Some(AtaErrorKind::IdNotFound));
    assert_eq!(
        AtaErrorKind::from_registers(0x71, 0),
        AtaErrorKind::DeviceFault
    );
    assert_eq!(
        AtaErrorKind::from_registers(0x51, 0x84),
        AtaErrorKind::InterfaceCrc
    );
}
