//! Virtual drive: SANITIZE on the virtual clock (protocols.md §D).

use crate::sim_common::*;
use sgctl::sense::SenseKeySpecific;
use sgctl::sim::{Fault, SimDevice};
use sgctl::transport::Transport;
use std::time::Duration;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=8192";

/// SANITIZE with byte 1 (IMMED/AUSE/SA) and an optional parameter list.
fn sanitize(d: &mut SimDevice, byte1: u8, data: &[u8]) -> sgctl::Completion {
    let mut cdb = [0x48, byte1, 0, 0, 0, 0, 0, 0, 0, 0];
    cdb[7..9].copy_from_slice(&(data.len() as u16).to_be_bytes());
    let buf = if data.is_empty() {
        sgctl::DataBuf::None
    } else {
        sgctl::DataBuf::Out(data)
    };
    d.execute(&cdb, buf, Duration::from_secs(100_000)).unwrap()
}

fn progress(s: &sgctl::sense::Sense) -> u16 {
    match s.sks {
        Some(SenseKeySpecific::Progress { raw }) => raw,
        o => panic!("no progress: {o:?}"),
    }
}

#[test]
fn crypto_erase_changes_what_reads_return() {
    let mut d = open(PX);
    good(&write10(&mut d, 3, &[0x33; 512], 512));
    good(&sanitize(&mut d, 0x80 | 0x03, &[])); // IMMED, CRYPTOGRAPHIC ERASE
    let s = check(&tur(&mut d));
    assert_eq!((s.key.code(), s.asc, s.ascq), (2, 0x04, 0x1B));
    // INQUIRY and REPORT LUNS work, REQUEST SENSE gives progress with GOOD status
    good(&din(&mut d, &[0x12, 0, 0, 0, 36, 0], 36).0);
    good(&din(&mut d, &[0xA0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0], 16).0);
    let p0 = progress(&request_sense(&mut d));
    d.clock().advance(Duration::from_secs(1));
    let p1 = progress(&request_sense(&mut d));
    assert!(p1 > p0);
    d.clock().advance(Duration::from_secs(2));
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc), (0, 0));
    let (c, r) = read10(&mut d, 3, 1, 512);
    good(&c);
    assert_ne!(
        r,
        vec![0x33; 512],
        "old data must not survive a crypto erase"
    );
    assert_ne!(r, vec![0; 512], "crypto-erased blocks read as ciphertext");
    // never-written blocks still read zeros (unmapped, LBPRZ)
    assert_eq!(read10(&mut d, 4, 1, 512).1, vec![0; 512]);
    // rewritten blocks read back normally
    good(&write10(&mut d, 3, &[0x34; 512], 512));
    assert_eq!(read10(&mut d, 3, 1, 512).1, vec![0x34; 512]);
}

#[test]
fn overwrite_and_block_erase() {
    let mut d = open(PX);
    good(&write10(&mut d, 1, &[0x11; 512], 512));
    // OVERWRITE, 1 pass, 4-byte pattern; blocking
    good(&sanitize(
        &mut d,
        0x01,
        &[0x01, 0, 0, 4, 0xA5, 0x5A, 0xC3, 0x3C],
    ));
    let r = read10(&mut d, 1, 1, 512).1;
    assert_eq!(&r[..8], &[0xA5, 0x5A, 0xC3, 0x3C, 0xA5, 0x5A, 0xC3, 0x3C]);
    assert_eq!(
        read10(&mut d, 4000, 1, 512).1[..4],
        [0xA5, 0x5A, 0xC3, 0x3C]
    );
    // INVERT with 2 passes ends inverted
    good(&sanitize(&mut d, 0x01, &[0x82, 0, 0, 1, 0x0F]));
    assert_eq!(read10(&mut d, 9, 1, 512).1, vec![0xF0; 512]);
    // BLOCK ERASE: zeros
    good(&sanitize(&mut d, 0x02, &[]));
    assert_eq!(read10(&mut d, 9, 1, 512).1, vec![0; 512]);
}

#[test]
fn parameter_rules_and_unsupported_service_actions() {
    let mut d = open(PX);
    // BLOCK ERASE with a parameter list: 24/00 on PARAMETER LIST LENGTH (byte 7)
    let c = sanitize(&mut d, 0x02, &[0; 4]);
    assert_eq!(c.sense[12..18], [0x24, 0, 0, 0xC0, 0, 7]);
    // OVERWRITE needs 5..=LB+4 bytes
    assert_eq!(kcq(&sanitize(&mut d, 0x01, &[1, 0, 0, 0])), (5, 0x24, 0));
    // OVERWRITE COUNT 0: 26/00 on parameter byte 0 bit 4
    let s = check(&sanitize(&mut d, 0x01, &[0x00, 0, 0, 1, 0xFF]));
    assert_eq!(
        s.sks,
        Some(SenseKeySpecific::FieldPointer {
            cd: false,
            bit: Some(4),
            field: 0
        })
    );
    // pattern length not matching the list: 26/00 on byte 2
    let s = check(&sanitize(&mut d, 0x01, &[0x01, 0, 0, 2, 0xFF]));
    assert_eq!(s.asc, 0x26);
    // ZNR (byte 1 bit 6) is not supported here: 24/00 bit 6
    assert_eq!(sanitize(&mut d, 0x42, &[]).sense[15..18], [0xCE, 0, 1]);
    // unknown service action: 24/00 on byte 1 bit 4
    assert_eq!(sanitize(&mut d, 0x05, &[]).sense[15..18], [0xCC, 0, 1]);
    // a drive without crypto erase (PX03SNF080) rejects SA 3; one without SANITIZE has no 0x48
    let mut p3 = open("px03snf080?clock=virtual&capacity_blocks=1024");
    assert_eq!(kcq(&sanitize(&mut p3, 0x03, &[])), (5, 0x24, 0));
    let mut mk = open("mk4001grzb?clock=virtual&capacity_blocks=1024");
    assert_eq!(kcq(&sanitize(&mut mk, 0x02, &[])), (5, 0x20, 0));
}

#[test]
fn failure_mode_and_exit_with_ause() {
    let mut d = open(PX);
    d.inject(Fault::FailSanitize);
    good(&sanitize(&mut d, 0x80 | 0x20 | 0x02, &[])); // IMMED, AUSE, BLOCK ERASE
    d.clock().advance(Duration::from_secs(60));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x03));
    assert_eq!(kcq(&read10(&mut d, 0, 1, 512).0), (3, 0x31, 0x03));
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq), (3, 0x31, 0x03));
    // FORMAT cannot leave sanitize failure mode
    assert_eq!(kcq(&none(&mut d, &[0x04, 0, 0, 0, 0, 0])), (3, 0x31, 0x03));
    // EXIT FAILURE MODE (AUSE was 1)
    good(&sanitize(&mut d, 0x1F, &[]));
    good(&tur(&mut d));
}

#[test]
fn restricted_failure_needs_a_successful_sanitize() {
    let mut d = open(PX);
    d.inject(Fault::FailSanitize);
    // blocking crypto erase with AUSE=0 fails with 31/03 as current sense
    let c = sanitize(&mut d, 0x03, &[]);
    assert_eq!(kcq(&c), (3, 0x31, 0x03));
    // EXIT FAILURE MODE refused (AUSE=0), so is a new sanitize with AUSE=1
    assert_eq!(sanitize(&mut d, 0x1F, &[]).sense[12..14], [0x24, 0]);
    assert_eq!(kcq(&sanitize(&mut d, 0x20 | 0x03, &[])), (5, 0x24, 0));
    assert_eq!(kcq(&tur(&mut d)), (3, 0x31, 0x03));
    // a successful sanitize ends failure mode
    good(&sanitize(&mut d, 0x03, &[]));
    good(&tur(&mut d));
}

#[test]
fn sanitize_resumes_after_power_cycle_and_lu_reset() {
    let mut d = open(PX);
    good(&sanitize(&mut d, 0x80 | 0x02, &[])); // 30 s block erase, IMMED
    d.clock().advance(Duration::from_secs(10));
    d.power_cycle();
    assert_eq!(kcq(&tur(&mut d)), (6, 0x29, 0x00));
    let p = progress(&check(&tur(&mut d)));
    assert!((20000..23000).contains(&p), "{p}"); // about a third
    d.lu_reset();
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq), (6, 0x29, 0x03));
    assert_eq!(check(&tur(&mut d)).ascq, 0x1B);
    d.clock().advance(Duration::from_secs(21));
    good(&tur(&mut d));
}

#[test]
fn sanitize_state_survives_between_invocations() {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "px02smf080?clock=virtual&capacity_blocks=4096&state={}",
        dir.path().join("s.json").display()
    );
    {
        let mut d = open(&spec);
        good(&sanitize(&mut d, 0x80 | 0x02, &[]));
    }
    {
        let mut d = open(&spec);
        assert_eq!(check(&tur(&mut d)).ascq, 0x1B);
        d.clock().advance(Duration::from_secs(31));
    }
    let mut d = open(&spec);
    good(&tur(&mut d));
}

#[test]
fn report_supported_operation_codes_for_sanitize() {
    let mut d = open(PX);
    // one command, opcode 0x48 SA 3 (option 2), with timeouts (RCTD)
    let (c, b) = din(
        &mut d,
        &[0xA3, 0x0C, 0x82, 0x48, 0, 3, 0, 0, 1, 0, 0, 0],
        256,
    );
    good(&c);
    let one = sgctl::scsi::rsoc::parse_one(&b).unwrap();
    assert!(one.supported());
    assert_eq!(one.cdb_size, 10);
    assert_eq!(
        one.cdb_usage_bytes,
        [0x48, 0xA3, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0x04]
    );
    assert_eq!(one.timeouts.unwrap().nominal_seconds, 2);
    // PX03SNF080: SA 3 not supported (SUPPORT 001b)
    let mut p3 = open("px03snf080?clock=virtual&capacity_blocks=1024");
    let (_, b) = din(
        &mut p3,
        &[0xA3, 0x0C, 0x02, 0x48, 0, 3, 0, 0, 1, 0, 0, 0],
        256,
    );
    assert_eq!(b[1] & 7, 1);
    // option 1 on an opcode with service actions is 24/00
    let (c, _) = din(
        &mut d,
        &[0xA3, 0x0C, 0x01, 0x48, 0, 0, 0, 0, 1, 0, 0, 0],
        256,
    );
    assert_eq!(kcq(&c), (5, 0x24, 0));
    // all commands with timeouts parse with the shared parser
    let (c, b) = din(
        &mut d,
        &[0xA3, 0x0C, 0x80, 0, 0, 0, 0, 0, 0x10, 0, 0, 0],
        4096,
    );
    good(&c);
    let all = sgctl::scsi::rsoc::parse_all(&b).unwrap();
    let sas: Vec<_> = all
        .commands
        .iter()
        .filter(|c| c.opcode == 0x48)
        .map(|c| c.service_action)
        .collect();
    assert_eq!(sas, [Some(1), Some(2), Some(3), Some(0x1F)]);
    assert!(all.commands.iter().all(|c| c.timeouts.is_some()));
    // every CDB usage map the drive reports is what it enforces: setting any bit outside
    // the map gives 24/00 (checked for every command and byte)
    for cmd in &all.commands {
        let mut cdb = [0u8; 16];
        cdb[2] = 0x80 | 0x02;
        cdb[3] = cmd.opcode;
        cdb[4..6].copy_from_slice(&cmd.service_action.unwrap_or(0).to_be_bytes());
        cdb[0] = 0xA3;
        cdb[1] = 0x0C;
        cdb[2] = if cmd.service_action.is_some() {
            0x02
        } else {
            0x01
        };
        cdb[8] = 1;
        let (c, b) = din(&mut d, &cdb[..12], 256);
        good(&c);
        let one = sgctl::scsi::rsoc::parse_one(&b).unwrap();
        let usage = one.cdb_usage_bytes;
        for (i, &u) in usage.iter().enumerate().skip(1) {
            // A variable-length CDB (7Fh) has its service action in bytes 8-9.
            let variable = cmd.opcode == 0x7F;
            let free = !u
                & if variable && (i == 8 || i == 9) {
                    0
                } else if i == 1 && cmd.service_action.is_some() && !variable {
                    0xE0
                } else {
                    0xFF
                };
            if free == 0 {
                continue;
            }
            let mut probe = vec![0u8; usage.len()];
            probe[0] = cmd.opcode;
            match cmd.service_action {
                Some(sa) if cmd.opcode == 0x7F => {
                    probe[7] = 0x18;
                    probe[8..10].copy_from_slice(&sa.to_be_bytes());
                }
                Some(sa) => probe[1] = sa as u8,
                None => {}
            }
            let bit = 7 - free.leading_zeros() as u8;
            probe[i] |= 1 << bit;
            let c = none(&mut d, &probe);
            let s = check(&c);
            assert_eq!(
                (s.asc, c.sense[15] & 0x4F, c.sense[17] as usize),
                (0x24, 0x48 | bit, i),
                "opcode {:02x} byte {i} bit {bit}",
                cmd.opcode
            );
        }
    }
}
