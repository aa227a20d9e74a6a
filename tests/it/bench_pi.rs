//! The drive checks protection information on the benchmark engines' reads: the
//! sg engine reads a PI format with RDPROTECT 000b (READ(16) on types 1 and 3, READ(32) with
//! EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG = LBA on type 2). SBC-4's READ(10) protect
//! table, row 000b on a PI format: the device server checks the guard and, where it knows
//! them, the reference and application tags (GRD_CHK/APP_CHK/REF_CHK of VPD 0x86), without
//! transferring the PI. CDBs built from the SBC-4 READ(32)/WRITE(32) tables.

use crate::sim_common::*;
use sgctl::sim::SimDevice;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=8192";

fn format(d: &mut SimDevice, byte1: u8) {
    while tur(d).status != 0 {}
    good(&format_unit(d, byte1));
}

fn read16(lba: u64, n: u32) -> [u8; 16] {
    let mut c = [0u8; 16];
    c[0] = 0x88;
    c[2..10].copy_from_slice(&lba.to_be_bytes());
    c[10..14].copy_from_slice(&n.to_be_bytes());
    c
}

#[test]
fn type2_read32_rdprotect0_checks_the_stored_tags() {
    let mut d = open(PX);
    format(&mut d, 0xD0); // FMTPINFO=11b, PFU=000b: type 2
                          // LBA 64: host tags with a reference tag that is not the LBA (WRPROTECT=011b: the drive
                          // checks nothing on the way in). LBA 65: what the drive generates (WRPROTECT=000b).
    good(&dout(
        &mut d,
        &cdb32(0x0B, 0x60, 64, 1, 0, 0, 0),
        &protected(&[0xA5; 512], 0, 1000),
    ));
    good(&dout(
        &mut d,
        &cdb32(0x0B, 0, 65, 1, 65, 0, 0),
        &[0x5A; 512],
    ));
    // The sg engine's READ(32): RDPROTECT 000b, EILBRT = LBA, no application tag mask.
    let (c, _) = din(&mut d, &cdb32(0x09, 0, 64, 2, 64, 0, 0), 1024);
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x03), "reference tag 1000 at LBA 64");
    assert_eq!(check(&c).information, Some(64));
    let (c, r) = din(&mut d, &cdb32(0x09, 0, 65, 1, 65, 0, 0), 512);
    good(&c);
    assert_eq!(r, vec![0x5A; 512], "no PI transferred with RDPROTECT 000b");
    // The EILBRT the host gave when it wrote LBA 64 matches; READ(16) carries no expected
    // reference tag on type 2: the drive has no knowledge of it and checks the guard only.
    let (c, r) = din(&mut d, &cdb32(0x09, 0, 64, 1, 1000, 0, 0), 512);
    good(&c);
    assert_eq!(r, vec![0xA5; 512]);
    good(&din(&mut d, &read16(64, 1), 512).0);
    // A host guard that does not match the data: 10/01 on every read, whatever the CDB.
    let mut bad = protected(&[0xA5; 512], 0, 66);
    bad[512] ^= 1;
    good(&dout(&mut d, &cdb32(0x0B, 0x60, 66, 1, 0, 0, 0), &bad));
    let (c, _) = din(&mut d, &read16(66, 1), 512);
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x01));
    assert_eq!(check(&c).information, Some(66));
    let (c, _) = din(&mut d, &cdb32(0x09, 0, 66, 1, 66, 0, 0), 512);
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x01));
    // The escape: application tag FFFFh disables checking of that block.
    let mut esc = protected(&[0xA5; 512], 0xFFFF, 7);
    esc[512] ^= 1;
    good(&dout(&mut d, &cdb32(0x0B, 0x60, 67, 1, 0, 0, 0), &esc));
    good(&din(&mut d, &cdb32(0x09, 0, 67, 1, 67, 0, 0), 512).0);
}

#[test]
fn type1_read16_rdprotect0_checks_the_reference_tag_against_the_lba() {
    let mut d = open(PX);
    format(&mut d, 0x90); // FMTPINFO=10b: type 1
    let mut w = [0u8; 16];
    w[0] = 0x8A;
    w[1] = 0x60; // WRPROTECT=011b
    w[2..10].copy_from_slice(&100u64.to_be_bytes());
    w[10..14].copy_from_slice(&2u32.to_be_bytes());
    let mut data = protected(&[1; 512], 0, 100);
    data.extend(protected(&[2; 512], 0, 7)); // LBA 101 with reference tag 7
    good(&dout(&mut d, &w, &data));
    good(&din(&mut d, &read16(100, 1), 512).0);
    let (c, _) = din(&mut d, &read16(100, 2), 1024);
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x03));
    assert_eq!(check(&c).information, Some(101));
}
