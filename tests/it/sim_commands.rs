//! Virtual drive: VERIFY(10/16/32), WRITE SAME(10/16/32), READ/WRITE(32) with protection
//! information on a type 2 format, READ DEFECT DATA(10/12), LOG SENSE threshold values and
//! the aged drive — CDBs and expected bytes built from the SBC-4 / SPC-5 tables.

use crate::sim_common::*;
use sgctl::sim::{Fault, SimDevice};
use sgctl::transport::Transport;
use std::time::Duration;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=8192";

fn clear_ua(d: &mut SimDevice) {
    while tur(d).status != 0 {}
}

fn verify10(d: &mut SimDevice, byte1: u8, lba: u32, n: u16, data: &[u8]) -> sgctl::Completion {
    let mut cdb = [0u8; 10];
    cdb[0] = 0x2F;
    cdb[1] = byte1;
    cdb[2..6].copy_from_slice(&lba.to_be_bytes());
    cdb[7..9].copy_from_slice(&n.to_be_bytes());
    if data.is_empty() {
        none(d, &cdb)
    } else {
        dout(d, &cdb, data)
    }
}

fn info(c: &sgctl::Completion) -> Option<u64> {
    check(c).information
}

#[test]
fn verify_bytchk_modes_and_miscompare_offset() {
    let mut d = open(PX);
    clear_ua(&mut d);
    let mut data = vec![0x11u8; 1024];
    data[512..].fill(0x22);
    good(&write10(&mut d, 100, &data, 512));
    // BYTCHK 00b: medium verification.
    good(&verify10(&mut d, 0x00, 100, 2, &[]));
    // BYTCHK 01b: two blocks compared; a byte differing at offset 700 of the data-out.
    good(&verify10(&mut d, 0x02, 100, 2, &data));
    let mut bad = data.clone();
    bad[700] ^= 0xFF;
    let c = verify10(&mut d, 0x02, 100, 2, &bad);
    assert_eq!(kcq(&c), (0x0E, 0x1D, 0x00));
    assert_eq!(info(&c), Some(700));
    // BYTCHK 11b: one block compared with each: block 101 holds 0x22, offset 0 differs.
    good(&verify10(&mut d, 0x06, 100, 1, &data[..512]));
    let c = verify10(&mut d, 0x06, 100, 2, &data[..512]);
    assert_eq!(kcq(&c), (0x0E, 0x1D, 0x00));
    assert_eq!(info(&c), Some(0));
    // BYTCHK 10b is reserved.
    let c = verify10(&mut d, 0x04, 100, 1, &[]);
    assert_eq!(kcq(&c), (5, 0x24, 0x00));
    // Out of range; a length of 0 verifies nothing and is no error.
    assert_eq!(kcq(&verify10(&mut d, 0, 8191, 2, &[])), (5, 0x21, 0x00));
    good(&verify10(&mut d, 0, 8192, 0, &[]));
    // VERIFY(16) finds an injected medium error and says where.
    d.inject(Fault::MediumError(4000));
    let mut cdb = [0u8; 16];
    cdb[0] = 0x8F;
    cdb[2..10].copy_from_slice(&3990u64.to_be_bytes());
    cdb[10..14].copy_from_slice(&20u32.to_be_bytes());
    let c = none(&mut d, &cdb);
    assert_eq!(kcq(&c), (3, 0x11, 0x00));
    assert_eq!(info(&c), Some(4000));
}

fn write_same16(d: &mut SimDevice, byte1: u8, lba: u64, n: u32, block: &[u8]) -> sgctl::Completion {
    let mut cdb = [0u8; 16];
    cdb[0] = 0x93;
    cdb[1] = byte1;
    cdb[2..10].copy_from_slice(&lba.to_be_bytes());
    cdb[10..14].copy_from_slice(&n.to_be_bytes());
    if block.is_empty() {
        none(d, &cdb)
    } else {
        dout(d, &cdb, block)
    }
}

#[test]
fn write_same_pattern_unmap_ndob_and_refusals() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // WRITE SAME(10) with a pattern: every block reads it back.
    let pat: Vec<u8> = (0..512).map(|i| (i % 251) as u8).collect();
    let mut cdb = [0x41, 0, 0, 0, 0, 10, 0, 0, 16, 0];
    good(&dout(&mut d, &cdb, &pat));
    let (c, r) = read10(&mut d, 10, 16, 512);
    good(&c);
    assert!(r.chunks(512).all(|b| b == pat.as_slice()));
    // UNMAP=1 with zeros: deallocated, reads zeros; GET-style check through READ.
    good(&write_same16(&mut d, 0x08, 12, 4, &[0u8; 512]));
    let (_, r) = read10(&mut d, 10, 8, 512);
    assert!(r[512 * 2..512 * 6].iter().all(|&b| b == 0));
    assert_eq!(&r[..512], pat.as_slice());
    // NDOB: no data-out, zeros.
    good(&write_same16(&mut d, 0x01, 10, 1, &[]));
    let (_, r) = read10(&mut d, 10, 1, 512);
    assert!(r.iter().all(|&b| b == 0));
    // ANCHOR (ANC_SUP=0), NUMBER OF LOGICAL BLOCKS 0 (WSNZ=1), too many blocks, range.
    let s = check(&write_same16(&mut d, 0x18, 0, 1, &[0u8; 512]));
    assert_eq!((s.key.code(), s.asc), (5, 0x24));
    assert_eq!(
        kcq(&write_same16(&mut d, 0, 0, 0, &[0u8; 512])),
        (5, 0x24, 0)
    );
    assert_eq!(
        kcq(&write_same16(&mut d, 0, 0, 0x4_0001, &[0u8; 512])),
        (5, 0x24, 0)
    );
    assert_eq!(
        kcq(&write_same16(&mut d, 0, 8190, 4, &[0u8; 512])),
        (5, 0x21, 0)
    );
    cdb[8] = 0;
    assert_eq!(kcq(&dout(&mut d, &cdb, &pat)), (5, 0x24, 0));
    // VPD 0xB0: WSNZ and MAXIMUM WRITE SAME LENGTH; VPD 0xB2: LBPU, LBPWS, LBPWS10.
    let (c, b0) = din(&mut d, &[0x12, 1, 0xB0, 0, 0x40, 0], 0x40);
    good(&c);
    assert_eq!(b0[4] & 1, 1);
    assert_eq!(&b0[36..44], &0x4_0000u64.to_be_bytes());
    let (_, b2) = din(&mut d, &[0x12, 1, 0xB2, 0, 0x40, 0], 0x40);
    assert_eq!(b2[5] & 0xE0, 0xE0);
    assert_eq!(b2[5] & 0x02, 0, "ANC_SUP=0");
}

/// FORMAT UNIT to protection type 2 (FMTPINFO=11b, PFU=000b: protocols.md §C.3).
fn format_type2(d: &mut SimDevice) {
    good(&format_unit(d, 0xD0));
    let rc = read_capacity16(d);
    assert_eq!(rc[12] & 0x0F, 0x03, "PROT_EN=1, P_TYPE=001b");
}

#[test]
fn type2_read_write_verify32_check_every_tag() {
    let mut d = open(PX);
    clear_ua(&mut d);
    format_type2(&mut d);
    // Two blocks with application tag 0x4242 and reference tags 5000, 5001 (EILBRT 5000).
    let mut data = protected(&[0xA5; 512], 0x4242, 5000);
    data.extend(protected(&[0x5A; 512], 0x4242, 5001));
    good(&dout(
        &mut d,
        &cdb32(0x0B, 0x20, 64, 2, 5000, 0x4242, 0xFFFF),
        &data,
    ));
    // READ(32) RDPROTECT=001b returns the stored tags and checks them.
    let (c, r) = din(
        &mut d,
        &cdb32(0x09, 0x20, 64, 2, 5000, 0x4242, 0xFFFF),
        1040,
    );
    good(&c);
    assert_eq!(r, data);
    // A wrong expected reference tag: 10/03 at the first block; wrong app tag: 10/02.
    let (c, _) = din(&mut d, &cdb32(0x09, 0x20, 64, 2, 7, 0x4242, 0xFFFF), 1040);
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x03));
    assert_eq!(info(&c), Some(64));
    let (c, _) = din(
        &mut d,
        &cdb32(0x09, 0x20, 64, 2, 5000, 0x4243, 0xFFFF),
        1040,
    );
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x02));
    // ... unless the mask leaves the differing bit out; RDPROTECT=011b checks nothing.
    let (c, _) = din(
        &mut d,
        &cdb32(0x09, 0x20, 64, 2, 5000, 0x4243, 0xFFFE),
        1040,
    );
    good(&c);
    let (c, _) = din(&mut d, &cdb32(0x09, 0x60, 64, 2, 7, 0, 0xFFFF), 1040);
    good(&c);
    // WRITE(32) with a corrupted guard: 10/01 with the failing LBA, nothing written.
    let mut bad = data.clone();
    bad[520 + 512] ^= 1;
    let c = dout(
        &mut d,
        &cdb32(0x0B, 0x20, 64, 2, 5000, 0x4242, 0xFFFF),
        &bad,
    );
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x01));
    assert_eq!(info(&c), Some(65));
    // A reference tag that does not follow EILBRT.
    let c = dout(
        &mut d,
        &cdb32(0x0B, 0x20, 64, 2, 4999, 0x4242, 0xFFFF),
        &data,
    );
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x03));
    // VERIFY(32) BYTCHK=00b with VRPROTECT=001b checks the stored tags.
    good(&none(
        &mut d,
        &cdb32(0x0A, 0x20, 64, 2, 5000, 0x4242, 0xFFFF),
    ));
    let c = none(&mut d, &cdb32(0x0A, 0x20, 64, 2, 5000, 0x1111, 0xFFFF));
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x02));
    // READ(10) with RDPROTECT on type 2: INVALID COMMAND OPERATION CODE; without: allowed.
    let (c, _) = din(&mut d, &[0x28, 0x20, 0, 0, 0, 64, 0, 0, 1, 0], 520);
    assert_eq!(kcq(&c), (5, 0x20, 0x00));
    let (c, r) = read10(&mut d, 64, 1, 512);
    good(&c);
    assert_eq!(r, vec![0xA5; 512]);
    // ADDITIONAL CDB LENGTH must be 18h; unknown service action → field pointer byte 8.
    let mut c = cdb32(0x09, 0, 64, 1, 0, 0, 0);
    c[7] = 0x10;
    assert_eq!(kcq(&din(&mut d, &c, 512).0), (5, 0x24, 0x00));
    // ORWRITE(32) (service action 000Eh) is not implemented.
    let c = cdb32(0x0E, 0, 64, 1, 0, 0, 0);
    assert_eq!(kcq(&din(&mut d, &c, 512).0), (5, 0x24, 0x00));
}

#[test]
fn write_same32_on_type2_writes_tags_unmaps_and_checks() {
    let mut d = open(PX);
    clear_ua(&mut d);
    format_type2(&mut d);
    // WRPROTECT=001b: one protected block (ref tag 9000 = EILBRT) written to 4 blocks at
    // 100; type 2: the reference tags follow from the first block's, one per block.
    let block = protected(&[0x3C; 512], 0x0777, 9000);
    good(&dout(
        &mut d,
        &cdb32(0x0D, 0x20, 100, 4, 9000, 0x0777, 0xFFFF),
        &block,
    ));
    let (c, r) = din(
        &mut d,
        &cdb32(0x09, 0x20, 100, 4, 9000, 0x0777, 0xFFFF),
        4 * 520,
    );
    good(&c);
    for (i, b) in r.chunks(520).enumerate() {
        assert_eq!(b, protected(&[0x3C; 512], 0x0777, 9000 + i as u32));
    }
    // The reference tag of the block sent must be the expected initial one: 10/03.
    let c = dout(
        &mut d,
        &cdb32(0x0D, 0x20, 100, 4, 8999, 0x0777, 0xFFFF),
        &block,
    );
    assert_eq!(kcq(&c), (0x0B, 0x10, 0x03));
    // UNMAP=1 with a zero block, WRPROTECT=000b: deallocated, reads zeros.
    good(&dout(
        &mut d,
        &cdb32(0x0D, 0x08, 101, 2, 0, 0, 0),
        &[0u8; 512],
    ));
    let (_, r) = read10(&mut d, 100, 4, 512);
    assert_eq!(&r[..512], &[0x3C; 512]);
    assert!(r[512..1536].iter().all(|&b| b == 0));
    // NDOB=1: no data-out, zeros; with WRPROTECT it is refused (nothing to check), field
    // pointer on byte 10.
    good(&none(&mut d, &cdb32(0x0D, 0x01, 103, 1, 0, 0, 0)));
    let (_, r) = read10(&mut d, 103, 1, 512);
    assert!(r.iter().all(|&b| b == 0));
    let s = check(&none(&mut d, &cdb32(0x0D, 0x21, 103, 1, 0, 0, 0)));
    assert_eq!((s.key.code(), s.asc), (5, 0x24));
    // ANCHOR (ANC_SUP=0) and zero blocks (WSNZ=1) refused.
    let s = check(&dout(
        &mut d,
        &cdb32(0x0D, 0x10, 100, 1, 0, 0, 0),
        &[0u8; 512],
    ));
    assert_eq!((s.key.code(), s.asc), (5, 0x24));
    assert_eq!(
        kcq(&dout(&mut d, &cdb32(0x0D, 0, 100, 0, 0, 0, 0), &[0u8; 512])),
        (5, 0x24, 0)
    );
}

#[test]
fn cdb32_refused_on_type1_and_on_drives_without_pi() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // Type 1 format (FMTPINFO=10b).
    good(
        &d.execute(
            &[0x04, 0x90, 0, 0, 0, 0],
            sgctl::DataBuf::Out(&[0, 0, 0, 0]),
            Duration::from_secs(3600),
        )
        .unwrap(),
    );
    let (c, _) = din(&mut d, &cdb32(0x09, 0x20, 0, 1, 0, 0, 0), 520);
    assert_eq!(kcq(&c), (5, 0x20, 0x00));
    let mut m = open("mk4001grzb?clock=virtual&capacity_blocks=4096");
    clear_ua(&mut m);
    let (c, _) = din(&mut m, &cdb32(0x09, 0, 0, 1, 0, 0, 0), 512);
    assert_eq!(
        kcq(&c),
        (5, 0x20, 0x00),
        "no PI support: the opcode does not exist"
    );
}

#[test]
fn read_defect_data_reports_reallocated_blocks() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // Nothing grown yet: header only, PLISTV+GLISTV, long block format.
    let (c, r) = din(&mut d, &[0xB7, 0x1B, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0], 4096);
    good(&c);
    assert_eq!(&r[..8], &[0, 0x1B, 0, 1, 0, 0, 0, 0]);
    // A read error, then a rewrite: the LBA is reallocated and joins the GLIST.
    d.inject(Fault::MediumError(300));
    assert_eq!(kcq(&read10(&mut d, 300, 1, 512).0), (3, 0x11, 0));
    good(&write10(&mut d, 300, &[7; 512], 512));
    good(&read10(&mut d, 300, 1, 512).0);
    let (_, r) = din(&mut d, &[0xB7, 0x0B, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0], 4096);
    assert_eq!(&r[..8], &[0, 0x0B, 0, 2, 0, 0, 0, 8]);
    assert_eq!(&r[8..16], &300u64.to_be_bytes());
    // READ DEFECT DATA(10), short block format, GLIST only.
    let (_, r) = din(&mut d, &[0x37, 0, 0x08, 0, 0, 0, 0, 0x10, 0, 0], 4096);
    assert_eq!(r, [0, 0x08, 0, 4, 0, 0, 0x01, 0x2C]);
    // Physical sector format requested: answered in long block format (field says so).
    let (_, r) = din(&mut d, &[0x37, 0, 0x0D, 0, 0, 0, 0, 0x10, 0, 0], 4096);
    assert_eq!(&r[..4], &[0, 0x0B, 0, 8]);
    // ADDRESS DESCRIPTOR INDEX past the end: header only.
    let (_, r) = din(&mut d, &[0xB7, 0x0B, 0, 0, 0, 1, 0, 0, 0x10, 0, 0, 0], 4096);
    assert_eq!(r.len(), 8);
}

#[test]
fn rsoc_lists_the_new_commands() {
    let mut d = open(PX);
    clear_ua(&mut d);
    let (c, r) = din(&mut d, &[0xA3, 0x0C, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0], 4096);
    good(&c);
    let mut found = Vec::new();
    for e in r[4..].chunks(8) {
        found.push((e[0], u16::from_be_bytes([e[2], e[3]]), e[7]));
    }
    for want in [
        (0x2F, 0, 10),
        (0x8F, 0, 16),
        (0x41, 0, 10),
        (0x93, 0, 16),
        (0x37, 0, 10),
        (0xB7, 0, 12),
        (0x7F, 0x09, 32),
        (0x7F, 0x0A, 32),
        (0x7F, 0x0B, 32),
        (0x7F, 0x0D, 32),
    ] {
        assert!(
            found.contains(&want),
            "{want:02x?} missing from {found:02x?}"
        );
    }
    // One-command form for READ(32): the usage map has CONTROL in byte 1.
    let (c, r) = din(
        &mut d,
        &[0xA3, 0x0C, 0x03, 0x7F, 0, 0x09, 0, 0, 0, 64, 0, 0],
        64,
    );
    good(&c);
    assert_eq!(&r[..4], &[0, 3, 0, 32]);
    assert_eq!(&r[4..6], &[0x7F, 0x04]);
    assert_eq!(&r[12..14], &[0x00, 0x09]);
}

/// LOG SENSE page `page` with PAGE CONTROL `pc`: parameter `code`'s value bytes.
fn log_param(d: &mut SimDevice, pc: u8, page: u8, code: u16) -> Vec<u8> {
    let (c, r) = din(
        d,
        &[0x4D, 0, (pc << 6) | page, 0, 0, 0, 0, 0x10, 0, 0],
        4096,
    );
    good(&c);
    let mut off = 4;
    while off + 4 <= r.len() {
        let n = usize::from(r[off + 3]);
        if u16::from_be_bytes([r[off], r[off + 1]]) == code {
            return r[off + 4..off + 4 + n].to_vec();
        }
        off += 4 + n;
    }
    panic!("parameter {code:04x} not in page {page:02x}");
}

fn be(b: &[u8]) -> u64 {
    b.iter().fold(0, |v, &x| (v << 8) | u64::from(x))
}

#[test]
fn log_sense_threshold_values() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // PC=00b: temperature threshold = reference (trip) temperature; endurance 100 %.
    let trip = log_param(&mut d, 1, 0x0D, 1)[1];
    assert_eq!(log_param(&mut d, 0, 0x0D, 0)[1], trip);
    assert!(log_param(&mut d, 1, 0x0D, 0)[1] < trip);
    assert_eq!(log_param(&mut d, 0, 0x11, 1)[3], 100);
    assert_eq!(log_param(&mut d, 2, 0x11, 1)[3], 100, "default threshold");
    assert_eq!(log_param(&mut d, 0, 0x2F, 0)[2], trip);
    // Counters: cumulative counts, threshold / default cumulative 0.
    good(&write10(&mut d, 0, &[1; 4096], 512));
    assert_eq!(be(&log_param(&mut d, 1, 0x02, 5)), 4096);
    assert_eq!(be(&log_param(&mut d, 0, 0x02, 5)), 0);
    assert_eq!(be(&log_param(&mut d, 3, 0x02, 5)), 0);
}

#[test]
fn a_worn_drive_has_the_history_its_wear_implies() {
    let mut d = open("px02smf080?clock=virtual&wear=50");
    clear_ua(&mut d);
    assert_eq!(log_param(&mut d, 1, 0x11, 1)[3], 50);
    let cap = 800u64 * 1000 * 1000 * 1000;
    let written = be(&log_param(&mut d, 1, 0x02, 5));
    let read = be(&log_param(&mut d, 1, 0x03, 5));
    let minutes = be(&log_param(&mut d, 1, 0x15, 0)[..4]);
    let cycles = be(&log_param(&mut d, 1, 0x0E, 4));
    let hours = minutes as f64 / 60.0;
    // Written bytes: many drive fills; DWPD over the power-on time within the 10-DWPD
    // class's rating; a read/write mix; about one power cycle a month.
    let fills = written as f64 / cap as f64;
    assert!(fills > 100.0, "{fills} drive writes");
    let dwpd = fills / (hours / 24.0);
    assert!((0.5..10.0).contains(&dwpd), "{dwpd} DWPD over {hours} h");
    assert!(read > written);
    assert!(cycles > 0 && (hours / cycles as f64 - 730.0).abs() < 10.0);
    // The ex-array profile: 40 % worn, its stated hours, bytes processed that fit.
    let mut x = open("exarray?clock=virtual");
    clear_ua(&mut x);
    assert_eq!(log_param(&mut x, 1, 0x11, 1)[3], 40);
    assert!(be(&log_param(&mut x, 1, 0x02, 5)) > 0);
    // used=1: the whole drive was written at least once.
    let mut u = open("px02smf080?clock=virtual&capacity_blocks=65536&used=1");
    clear_ua(&mut u);
    assert!(be(&log_param(&mut u, 1, 0x02, 5)) >= 65536 * 512);
    assert!(be(&log_param(&mut u, 1, 0x15, 0)[..4]) > 0);
}

#[test]
fn get_lba_status_follows_writes_and_unmaps() {
    let mut d = open(PX);
    clear_ua(&mut d);
    good(&write10(&mut d, 100, &[9; 512 * 10], 512));
    good(&write_same16(&mut d, 0x08, 104, 2, &[0u8; 512]));
    let mut cdb = [0u8; 16];
    cdb[0] = 0x9E;
    cdb[1] = 0x12;
    cdb[2..10].copy_from_slice(&90u64.to_be_bytes());
    cdb[10..14].copy_from_slice(&(8 + 4 * 16u32).to_be_bytes());
    let (c, r) = din(&mut d, &cdb, 1024);
    good(&c);
    assert_eq!(be(&r[..4]) as usize, r.len() - 4);
    let descs: Vec<(u64, u64, u8)> = r[8..]
        .chunks(16)
        .map(|e| (be(&e[..8]), be(&e[8..12]), e[12]))
        .collect();
    // 90-99 deallocated, 100-103 mapped, 104-105 unmapped by WRITE SAME, 106-109 mapped.
    assert_eq!(descs, [(90, 10, 1), (100, 4, 0), (104, 2, 1), (106, 4, 0)]);
    cdb[2..10].copy_from_slice(&8192u64.to_be_bytes());
    assert_eq!(kcq(&din(&mut d, &cdb, 1024).0), (5, 0x21, 0));
}
