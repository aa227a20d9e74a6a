//! Virtual drive: SBC-4 REASSIGN BLOCKS (07h) — CDBs and parameter lists built from the SBC-4
//! tables (CDB byte 1: LONGLBA bit 1, LONGLIST bit 0; short header: 2 reserved bytes and a
//! 2-byte DEFECT LIST LENGTH, long header: a 4-byte one; then 4- or 8-byte LBAs), the grown
//! defect list READ DEFECT DATA(10/12) reports, the finite spare pool (04/32/00 with the first
//! LBA not reassigned in COMMAND-SPECIFIC INFORMATION), out-of-range LBAs and the state file.

use crate::sim_common::*;
use sgctl::sim::{Fault, SimDevice};

/// 8192 blocks of 512 bytes = 4 MiB: one spare per 512 KiB gives 8 spare locations.
const PX: &str = "px02smf080?clock=virtual&capacity_blocks=8192";

fn clear_ua(d: &mut SimDevice) {
    while tur(d).status != 0 {}
}

/// Parameter list: header (short: 00 00 LEN16, long: LEN32), then the LBAs.
fn plist(lbas: &[u64], longlba: bool, longlist: bool) -> Vec<u8> {
    let mut body = Vec::new();
    for &l in lbas {
        if longlba {
            body.extend_from_slice(&l.to_be_bytes());
        } else {
            body.extend_from_slice(&(l as u32).to_be_bytes());
        }
    }
    let mut v = if longlist {
        (body.len() as u32).to_be_bytes().to_vec()
    } else {
        vec![0, 0, (body.len() >> 8) as u8, body.len() as u8]
    };
    v.extend(body);
    v
}

fn reassign(d: &mut SimDevice, lbas: &[u64], longlba: bool, longlist: bool) -> sgctl::Completion {
    let byte1 = (u8::from(longlba) << 1) | u8::from(longlist);
    dout(
        d,
        &[0x07, byte1, 0, 0, 0, 0],
        &plist(lbas, longlba, longlist),
    )
}

/// The GLIST as smartctl asks for it: READ DEFECT DATA(12), REQ_GLIST, format 100b (bytes
/// from index), allocation length 8 — the header; then the whole list.
fn glist(d: &mut SimDevice) -> Vec<u64> {
    let (c, h) = din(d, &[0xB7, 0x0C, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0], 8);
    good(&c);
    assert_eq!(
        h[1], 0x0B,
        "GLISTV, long block format (011b) answered for 100b"
    );
    let n = be(&h[4..8]) as usize;
    assert_eq!(n % 8, 0);
    let (c, r) = din(d, &[0xB7, 0x0C, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0], 4096);
    good(&c);
    assert_eq!(r.len(), 8 + n);
    r[8..].chunks(8).map(be).collect()
}

#[test]
fn reassigned_lbas_join_the_glist_in_both_list_formats() {
    let mut d = open(PX);
    clear_ua(&mut d);
    assert!(glist(&mut d).is_empty());
    // Short header, 4-byte LBAs.
    good(&reassign(&mut d, &[10, 20], false, false));
    assert_eq!(glist(&mut d), [10, 20]);
    // LONGLBA + LONGLIST: 4-byte DEFECT LIST LENGTH 16, two 8-byte LBAs.
    let p = plist(&[30, 40], true, true);
    assert_eq!(&p[..4], &[0, 0, 0, 16]);
    assert_eq!(p.len(), 20);
    good(&dout(&mut d, &[0x07, 0x03, 0, 0, 0, 0], &p));
    assert_eq!(glist(&mut d), [10, 20, 30, 40]);
    // LONGLBA alone (short header, 8-byte LBAs) and LONGLIST alone (long header, 4-byte LBAs).
    good(&reassign(&mut d, &[50], true, false));
    good(&reassign(&mut d, &[60], false, true));
    // READ DEFECT DATA(10), GLIST, short block format: sg_reassign --grown's count.
    let (c, r) = din(&mut d, &[0x37, 0, 0x08, 0, 0, 0, 0, 0x10, 0, 0], 4096);
    good(&c);
    assert_eq!(&r[..4], &[0, 0x08, 0, 24]);
    assert_eq!(&r[4..8], &[0, 0, 0, 10]);
    assert_eq!(&r[24..28], &[0, 0, 0, 60]);
    // DEFECT LIST LENGTH 0: nothing to do.
    good(&dout(&mut d, &[0x07, 0, 0, 0, 0, 0], &[0, 0, 0, 0]));
    assert_eq!(glist(&mut d).len(), 6);
}

#[test]
fn data_is_kept_where_it_can_be_read_and_replaced_where_not() {
    let mut d = open(PX);
    clear_ua(&mut d);
    good(&write10(&mut d, 100, &[0x5A; 1024], 512));
    good(&reassign(&mut d, &[100], false, false));
    let (c, r) = read10(&mut d, 100, 2, 512);
    good(&c);
    assert_eq!(r, vec![0x5A; 1024], "a readable block keeps its data");
    // An unreadable block: reassigned, it reads again (vendor-specific data: zeros).
    good(&write10(&mut d, 200, &[0x77; 512], 512));
    d.inject(Fault::MediumError(200));
    assert_eq!(kcq(&read10(&mut d, 200, 1, 512).0), (3, 0x11, 0));
    good(&reassign(&mut d, &[200], false, false));
    let (c, r) = read10(&mut d, 200, 1, 512);
    good(&c);
    assert_eq!(r, vec![0; 512]);
    // Capacity unchanged (READ CAPACITY(16) RETURNED LOGICAL BLOCK ADDRESS).
    assert_eq!(be(&read_capacity16(&mut d)[..8]), 8191);
}

#[test]
fn out_of_range_and_malformed_lists_are_refused_before_anything_moves() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // LBA 8192 on an 8192-block drive: 05/21/00; nothing reassigned, so the first LBA not
    // reassigned (COMMAND-SPECIFIC INFORMATION) is the list's first.
    let c = reassign(&mut d, &[7, 8192], false, false);
    assert_eq!(kcq(&c), (5, 0x21, 0x00));
    assert_eq!(check(&c).command_specific, Some(7));
    assert!(glist(&mut d).is_empty());
    // DEFECT LIST LENGTH 6 is not a multiple of 4: 05/26/00, field pointer at parameter
    // byte 2 (C/D = 0).
    let c = dout(
        &mut d,
        &[0x07, 0, 0, 0, 0, 0],
        &[0, 0, 0, 6, 0, 0, 0, 1, 0, 0],
    );
    assert_eq!(kcq(&c), (5, 0x26, 0x00));
    assert_eq!(c.sense[15..18], [0x80, 0, 2]);
    // LONGLBA with 12 bytes: not a multiple of 8.
    let c = dout(
        &mut d,
        &[0x07, 0x02, 0, 0, 0, 0],
        &[0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2],
    );
    assert_eq!(kcq(&c), (5, 0x26, 0x00));
    // The header announces two LBAs, one came: 05/1A/00; a header cut short too.
    let c = dout(&mut d, &[0x07, 0, 0, 0, 0, 0], &[0, 0, 0, 8, 0, 0, 0, 1]);
    assert_eq!(kcq(&c), (5, 0x1A, 0x00));
    let c = dout(&mut d, &[0x07, 0, 0, 0, 0, 0], &[0, 0]);
    assert_eq!(kcq(&c), (5, 0x1A, 0x00));
    // A bit outside the CDB usage map (byte 1 bit 2): INVALID FIELD IN CDB.
    let c = dout(
        &mut d,
        &[0x07, 0x04, 0, 0, 0, 0],
        &plist(&[1], false, false),
    );
    assert_eq!(kcq(&c), (5, 0x24, 0x00));
    assert!(glist(&mut d).is_empty());
}

#[test]
fn the_spare_pool_runs_out_with_the_first_lba_not_reassigned() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // Reassigning an LBA again takes another spare (the GLIST holds it once).
    good(&reassign(&mut d, &[5, 5], false, false));
    assert_eq!(glist(&mut d), [5]);
    // Six spares left of 8: the seventh LBA of this list (106) is the first not reassigned.
    let lbas: Vec<u64> = (100..110).collect();
    let c = reassign(&mut d, &lbas, false, false);
    assert_eq!(
        kcq(&c),
        (4, 0x32, 0x00),
        "NO DEFECT SPARE LOCATION AVAILABLE"
    );
    assert_eq!(c.sense[8..12], [0, 0, 0, 106], "fixed format bytes 8-11");
    assert_eq!(check(&c).command_specific, Some(106));
    let g = glist(&mut d);
    assert_eq!(
        g,
        [5, 100, 101, 102, 103, 104, 105],
        "the LBAs before it stay reassigned"
    );
    // Nothing left: the next command fails at its first LBA.
    let c = reassign(&mut d, &[1], true, true);
    assert_eq!(check(&c).command_specific, Some(1));
}

#[test]
fn descriptor_sense_carries_an_eight_byte_command_specific_field() {
    let mut d = open(&format!("{PX}&dsense=1"));
    clear_ua(&mut d);
    let lbas: Vec<u64> = (0..9).collect();
    let c = reassign(&mut d, &lbas, true, false);
    assert_eq!(c.sense[0], 0x72);
    assert_eq!((c.sense[1], c.sense[2], c.sense[3]), (4, 0x32, 0));
    // Command-specific information descriptor: 01h, 0Ah, 2 reserved, 8 bytes.
    let at = 8;
    assert_eq!(
        c.sense[at..at + 12],
        [1, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8]
    );
}

#[test]
fn the_grown_list_survives_in_the_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!("{PX}&state={}", dir.path().join("d.json").display());
    {
        let mut d = open(&spec);
        clear_ua(&mut d);
        good(&reassign(&mut d, &[42, 43], false, false));
    }
    let mut d = open(&spec);
    clear_ua(&mut d);
    assert_eq!(glist(&mut d), [42, 43]);
    // ... and so does the count of spares used (8 - 2 left: 7 more fail at the seventh).
    let c = reassign(&mut d, &(0..7).collect::<Vec<_>>(), false, false);
    assert_eq!(check(&c).command_specific, Some(6));
}

#[test]
fn an_unreadable_block_on_a_pi_format_gets_the_default_protection_information() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // FORMAT UNIT FMTPINFO=11b (type 2 with PROTECTION FIELD USAGE 000b), FMTDATA.
    good(&format_unit(&mut d, 0xD0));
    d.inject(Fault::MediumError(64));
    good(&reassign(&mut d, &[64], false, false));
    // READ(32) RDPROTECT=011b (no checks), LBA 64, 1 block: the user data and PI as stored.
    let cdb = cdb32(0x09, 0x60, 64, 1, 0, 0, 0);
    let (c, r) = din(&mut d, &cdb, 520);
    good(&c);
    assert_eq!(r[512..], [0xFF; 8]);
}

#[test]
fn rsoc_lists_reassign_blocks_with_its_usage_map() {
    let mut d = open(PX);
    clear_ua(&mut d);
    // One-command form, REPORTING OPTIONS 001b: opcode 07h.
    let (c, r) = din(
        &mut d,
        &[0xA3, 0x0C, 0x01, 0x07, 0, 0, 0, 0, 0, 64, 0, 0],
        64,
    );
    good(&c);
    assert_eq!(&r[..4], &[0, 3, 0, 6]);
    assert_eq!(&r[4..10], &[0x07, 0x03, 0, 0, 0, 0x04]);
}
