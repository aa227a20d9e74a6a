//! Virtual drive: FORMAT UNIT and block-size changes on the virtual clock (protocols.md §C).

use crate::sim_common::*;
use sgctl::sense::SenseKeySpecific;
use sgctl::sim::{Fault, SimDevice};
use std::time::Duration;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=8192";

/// FORMAT UNIT with a timeout long enough for a blocking (IMMED=0) format.
fn format(d: &mut SimDevice, byte1: u8, ffmt: u8, data: &[u8]) -> sgctl::Completion {
    let cdb = [0x04, byte1, 0, 0, ffmt, 0];
    let buf = if data.is_empty() {
        sgctl::DataBuf::None
    } else {
        sgctl::DataBuf::Out(data)
    };
    d.execute(&cdb, buf, Duration::from_secs(3600)).unwrap()
}

fn progress(s: &sgctl::sense::Sense) -> u16 {
    match s.sks {
        Some(SenseKeySpecific::Progress { raw }) => raw,
        o => panic!("no progress in {o:?}"),
    }
}

#[test]
fn immed_format_reports_rising_progress_then_completes() {
    let mut d = open(PX);
    good(&write10(&mut d, 5, &[0x42; 512], 512));
    // sg_format style: FMTDATA, short header with IMMED
    good(&format(&mut d, 0x10, 0, &[0x00, 0x02, 0x00, 0x00]));
    // TUR: NOT READY 04/04 with progress; INQUIRY still works
    let c = tur(&mut d);
    let s = check(&c);
    assert_eq!((s.key.code(), s.asc, s.ascq), (2, 0x04, 0x04));
    let p0 = progress(&s);
    let (c, _) = din(&mut d, &[0x12, 0, 0, 0, 36, 0], 36);
    good(&c);
    // READ is refused while formatting
    assert_eq!(kcq(&read10(&mut d, 0, 1, 512).0), (2, 0x04, 0x04));
    d.clock().advance(Duration::from_secs(30));
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq), (2, 0x04, 0x04));
    let p1 = progress(&s);
    d.clock().advance(Duration::from_secs(30));
    let p2 = progress(&request_sense(&mut d));
    assert!(p0 < p1 && p1 < p2, "{p0} {p1} {p2}");
    // 90 s format: at 60 s about two thirds done
    assert!((43000..44500).contains(&p2), "{p2}");
    d.clock().advance(Duration::from_secs(31));
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq, s.sks), (0, 0, 0, None));
    good(&tur(&mut d));
    // data is gone after a full format
    assert_eq!(read10(&mut d, 5, 1, 512).1, vec![0u8; 512]);
}

#[test]
fn protection_types_via_fmtpinfo_and_pfu() {
    let mut d = open(PX);
    // Seagate type-1 golden vector (protocols.md §G.5): 04 90 .. + 00 A0 00 00, IMMED=0
    let t0 = d.clock().now();
    good(&format(&mut d, 0x90, 0, &[0x00, 0xA0, 0x00, 0x00]));
    assert!(d.clock().now() - t0 >= Duration::from_secs(90)); // blocked until done
    let rc = read_capacity16(&mut d);
    assert_eq!((rc[12], be(&rc[8..12])), (0x01, 512)); // PROT_EN, P_TYPE 0
                                                       // type 2: 04 D0 + same data
    good(&format(&mut d, 0xD0, 0, &[0x00, 0xA0, 0x00, 0x00]));
    assert_eq!(read_capacity16(&mut d)[12], 0x03);
    // type 3 (PFU=1) is not in SPT=1 (types 1,2): 26/00 on parameter byte 0
    let c = format(&mut d, 0xD0, 0, &[0x01, 0xA0, 0x00, 0x00]);
    let s = check(&c);
    assert_eq!((s.key.code(), s.asc), (5, 0x26));
    assert!(matches!(
        s.sks,
        Some(SenseKeySpecific::FieldPointer {
            cd: false,
            field: 0,
            ..
        })
    ));
    // FMTPINFO=01b is always illegal: 24/00 on CDB byte 1
    let c = format(&mut d, 0x50, 0, &[0x00, 0xA0, 0x00, 0x00]);
    assert_eq!(c.sense[15..18], [0xCF, 0, 1]);
    // FMTPINFO without PROTECT support (MK4001GRZB has no PI): reserved bits → 24/00
    let mut m = open("mk4001grzb?clock=virtual&capacity_blocks=1024");
    assert_eq!(
        kcq(&format(&mut m, 0x90, 0, &[0, 0xA0, 0, 0])),
        (5, 0x24, 0)
    );
    // back to no PI
    good(&format(&mut d, 0x10, 0, &[0x00, 0x00, 0x00, 0x00]));
    assert_eq!(read_capacity16(&mut d)[12], 0);
}

#[test]
fn parameter_list_rules() {
    let mut d = open(PX);
    // FOV=0 with DCRT: 26/00, parameter byte 1 bit 5
    let s = check(&format(&mut d, 0x10, 0, &[0x00, 0x20, 0, 0]));
    assert_eq!(
        s.sks,
        Some(SenseKeySpecific::FieldPointer {
            cd: false,
            bit: Some(5),
            field: 1
        })
    );
    // a defect list the SSD cannot take: 26/00 on DEFECT LIST LENGTH
    let s = check(&format(
        &mut d,
        0x10,
        0,
        &[0x00, 0x80, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0],
    ));
    assert!(matches!(
        s.sks,
        Some(SenseKeySpecific::FieldPointer {
            cd: false,
            field: 2,
            ..
        })
    ));
    // long header: P_I_INFORMATION must be 0; PIE for type 1 must be 0
    let s = check(&format(&mut d, 0xB0, 0, &[0, 0x80, 0, 0x10, 0, 0, 0, 0]));
    assert_eq!((s.asc, s.key.code()), (0x26, 5));
    let s = check(&format(&mut d, 0xB0, 0, &[0, 0x80, 0, 0x01, 0, 0, 0, 0]));
    assert_eq!(s.asc, 0x26);
    // header announced but not sent: the transfer fails at the HBA
    let c = format(&mut d, 0x10, 0, &[0x00, 0x02]);
    assert_eq!(c.host_status, 0x07);
    // FFMT=3 reserved
    assert_eq!(format(&mut d, 0x00, 3, &[]).sense[15..18], [0xC9, 0, 4]);
    // initialization pattern (IP=1, FOV=1): every block reads back the pattern
    good(&format(
        &mut d,
        0x10,
        0,
        &[0, 0x88, 0, 0, 0x00, 0x01, 0x00, 0x02, 0xDE, 0xAD],
    ));
    assert_eq!(
        &read10(&mut d, 77, 1, 512).1[..4],
        &[0xDE, 0xAD, 0xDE, 0xAD]
    );
}

#[test]
fn fast_format_keeps_stale_data_full_format_does_not() {
    let mut d = open(PX);
    good(&write10(&mut d, 9, &[0x99; 512], 512));
    let t0 = d.clock().now();
    good(&format(&mut d, 0x00, 1, &[])); // FFMT=01b, no parameter list
    assert!(d.clock().now() - t0 < Duration::from_secs(10));
    assert_eq!(read10(&mut d, 9, 1, 512).1, vec![0x99; 512]);
    good(&format(&mut d, 0x00, 0, &[]));
    assert_eq!(read10(&mut d, 9, 1, 512).1, vec![0u8; 512]);
}

/// MODE SENSE(10) LLBAA, edit the long descriptor, MODE SELECT(10), FORMAT (protocols.md §C.5).
fn mode_select_block_len(d: &mut SimDevice, lb: u32, blocks: u64) -> sgctl::Completion {
    let (c, mut b) = din(d, &[0x5A, 0x10, 0x01, 0, 0, 0, 0, 0, 252, 0], 252);
    good(&c);
    assert_eq!(b[4] & 1, 1); // LONGLBA
    assert_eq!(be(&b[6..8]), 16);
    b[0..4].fill(0);
    b[8..16].copy_from_slice(&blocks.to_be_bytes());
    b[20..24].copy_from_slice(&lb.to_be_bytes());
    b[24] &= 0x7F; // clear PS of the page
    dout(d, &[0x55, 0x11, 0, 0, 0, 0, 0, 0, b.len() as u8, 0], &b)
}

#[test]
fn block_size_change_is_held_until_format_and_lost_on_intervening_command() {
    let mut d = open(PX);
    good(&mode_select_block_len(&mut d, 4096, 0));
    // MODE SENSE shows the new size, READ CAPACITY the old one
    let (_, b) = din(&mut d, &[0x1A, 0, 0x01, 0, 252, 0], 252);
    assert_eq!(be(&b[9..12]), 4096);
    assert_eq!(be(&read_capacity16(&mut d)[8..12]), 512);
    good(&format(&mut d, 0x10, 0, &[0, 0, 0, 0]));
    let rc = read_capacity16(&mut d);
    assert_eq!(be(&rc[8..12]), 4096);
    assert_eq!(be(&rc[0..8]) + 1, 8192 * 512 / 4096);
    assert_eq!(rc[13] & 0x0F, 0); // 4096 logical = physical
                                  // the other port hears about it
    let mut p2 = d.port(2);
    assert_eq!(kcq(&tur(&mut p2)), (6, 0x2A, 0x09));

    // held value is dropped when a READ intervenes
    good(&mode_select_block_len(&mut d, 520, 0));
    good(&read10(&mut d, 0, 1, 4096).0);
    good(&format(&mut d, 0x10, 0, &[0, 0, 0, 0]));
    assert_eq!(be(&read_capacity16(&mut d)[8..12]), 4096);

    // unsupported size: 26/00 at the descriptor's block length (long: header 8 + 12)
    let s = check(&mode_select_block_len(&mut d, 1000, 0));
    assert!(matches!(
        s.sks,
        Some(SenseKeySpecific::FieldPointer {
            cd: false,
            field: 20,
            ..
        })
    ));
    // capacity change through the block count: same size, fewer blocks → at once
    good(&mode_select_block_len(&mut d, 4096, 500));
    assert_eq!(be(&read_capacity16(&mut d)[0..8]), 499);
    // more blocks than the medium holds
    assert_eq!(
        check(&mode_select_block_len(&mut d, 4096, 1 << 40)).asc,
        0x26
    );
    // count 0 = maximum again
    good(&mode_select_block_len(&mut d, 4096, 0));
    assert_eq!(be(&read_capacity16(&mut d)[0..8]) + 1, 1024);
}

#[test]
fn interrupted_format_leaves_medium_format_corrupted() {
    let mut d = open(PX);
    good(&format(&mut d, 0x10, 0, &[0, 0x02, 0, 0]));
    d.clock().advance(Duration::from_secs(10));
    d.power_cycle();
    assert_eq!(kcq(&tur(&mut d)), (6, 0x29, 0x00));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x00));
    assert_eq!(kcq(&read10(&mut d, 0, 1, 512).0), (3, 0x31, 0x00));
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq), (3, 0x31, 0x00));
    // INQUIRY and MODE SENSE still work; a new format repairs it
    good(&din(&mut d, &[0x1A, 0, 0x3F, 0, 252, 0], 252).0);
    good(&format(&mut d, 0x00, 0, &[]));
    good(&tur(&mut d));
}

#[test]
fn failing_format_gives_deferred_31_01_then_31_00() {
    let mut d = open(PX);
    d.inject(Fault::FailFormat);
    good(&format(&mut d, 0x10, 0, &[0, 0x02, 0, 0]));
    d.clock().advance(Duration::from_secs(100));
    let c = tur(&mut d);
    assert_eq!(c.sense[0], 0x71); // deferred error
    assert_eq!(kcq(&c), (3, 0x31, 0x01));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x00));
    // blocking format that fails reports 31/01 as current sense
    d.inject(Fault::FailFormat);
    let c = format(&mut d, 0x00, 0, &[]);
    assert_eq!((c.sense[0], kcq(&c)), (0x70, (3, 0x31, 0x01)));
    good(&format(&mut d, 0x00, 0, &[]));
    good(&tur(&mut d));
}

#[test]
fn blocking_format_longer_than_the_timeout_times_out_and_corrupts() {
    let mut d = open(PX);
    let c = d
        .execute(
            &[0x04, 0, 0, 0, 0, 0],
            sgctl::DataBuf::None,
            Duration::from_secs(20),
        )
        .unwrap();
    assert_eq!(c.host_status, 0x03);
    assert_eq!(kcq(&tur(&mut d)), (6, 0x29, 0x03));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x00));
}

use sgctl::transport::Transport;

/// The host's timeout is wall time: on a real clock running 1000× wall time, a blocking FORMAT
/// UNIT of 90 s of drive time takes 0.09 s and fits in a 20 s timeout (it used to be compared
/// with the drive time and time out, which broke `sg_format --wait` on a served drive at
/// speed=30). Slower than the timeout in wall time, it still times out.
#[test]
fn blocking_format_on_a_fast_real_clock_is_judged_by_wall_time() {
    let mut d = open("px02smf080?clock=real&speed=1000&capacity_blocks=8192");
    let t = std::time::Instant::now();
    let c = d
        .execute(
            &[0x04, 0, 0, 0, 0, 0],
            sgctl::DataBuf::None,
            Duration::from_secs(20),
        )
        .unwrap();
    good(&c);
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    good(&tur(&mut d));
    // 90 s of drive time at speed 100 is 0.9 s of wall time: longer than a 0.2 s timeout.
    let mut d = open("px02smf080?clock=real&speed=100&capacity_blocks=8192");
    let t = std::time::Instant::now();
    let c = d
        .execute(
            &[0x04, 0, 0, 0, 0, 0],
            sgctl::DataBuf::None,
            Duration::from_millis(200),
        )
        .unwrap();
    assert_eq!(c.host_status, 0x03);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}
