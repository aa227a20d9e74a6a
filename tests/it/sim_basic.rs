//! Virtual drive: identification, capacity, data, common error paths — exact bytes and sense
//! through the Transport (protocols.md §B, §C.4, §E.4).

use crate::sim_common::*;
use sgctl::sense::SenseKeySpecific;
use sgctl::transport::Transport;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=4096";

#[test]
fn test_unit_ready_and_standard_inquiry() {
    let mut d = open(PX);
    good(&tur(&mut d));
    let (c, b) = din(&mut d, &[0x12, 0, 0, 0, 96, 0], 96);
    good(&c);
    assert_eq!(b.len(), 96);
    assert_eq!(b[0], 0x00); // PDT disk
    assert_eq!(b[3] & 0x0F, 2); // response data format
    assert_eq!(b[4], 91); // additional length
    assert_eq!(b[5] & 1, 1); // PROTECT
    assert_eq!(b[6] & 0x10, 0x10); // MULTIP (dual port)
    assert_eq!(&b[8..16], b"TOSHIBA ");
    assert_eq!(&b[16..32], b"PX02SMF080      ");
    // allocation length truncates, resid reports the rest
    let (c, b) = din(&mut d, &[0x12, 0, 0, 0, 36, 0], 64);
    good(&c);
    assert_eq!((b.len(), c.resid), (36, 28));
    // EVPD=0 with a page code is 24/00 pointing at byte 2
    let (c, _) = din(&mut d, &[0x12, 0, 0x80, 0, 96, 0], 96);
    let s = check(&c);
    assert_eq!((s.key.code(), s.asc), (5, 0x24));
    assert_eq!(
        s.sks,
        Some(SenseKeySpecific::FieldPointer {
            cd: true,
            bit: None,
            field: 2
        })
    );
}

#[test]
fn vpd_pages_and_two_ports() {
    let mut a = open(PX);
    let (c, b) = din(&mut a, &[0x12, 1, 0x00, 0, 255, 0], 255);
    good(&c);
    assert_eq!(&b[..4], &[0, 0, 0, 9]);
    assert_eq!(
        &b[4..],
        &[0x00, 0x80, 0x83, 0x86, 0x88, 0xB0, 0xB1, 0xB2, 0xB4]
    );
    let (_, serial) = din(&mut a, &[0x12, 1, 0x80, 0, 255, 0], 255);
    assert_eq!(&serial[4..], b"X4A0A01ATKHB");

    let mut b2 = a.port(2);
    let (_, p1) = din(&mut a, &[0x12, 1, 0x83, 0, 255, 0], 255);
    let (_, p2) = din(&mut b2, &[0x12, 1, 0x83, 0, 255, 0], 255);
    assert_eq!(be(&p1[2..4]) as usize, p1.len() - 4);
    // LU NAA: code set 1, assoc 0 type 3, length 8, NAA 5 — identical through both ports
    assert_eq!(&p1[4..8], &[0x01, 0x03, 0x00, 0x08]);
    assert_eq!(p1[8] >> 4, 5);
    assert_eq!(&p1[4..16], &p2[4..16]);
    // target port NAA: SAS, PIV, assoc 1 — differs between ports
    assert_eq!(&p1[16..20], &[0x61, 0x93, 0x00, 0x08]);
    assert_ne!(&p1[20..28], &p2[20..28]);
    // relative target port 1 vs 2
    assert_eq!(&p1[28..36], &[0x61, 0x94, 0, 4, 0, 0, 0, 1]);
    assert_eq!(&p2[28..36], &[0x61, 0x94, 0, 4, 0, 0, 0, 2]);
    // target device name, assoc 2
    assert_eq!(&p1[36..40], &[0x61, 0xA3, 0x00, 0x08]);

    // 0x88 lists both ports whichever asks, each with its NAA
    let (_, ports) = din(&mut b2, &[0x12, 1, 0x88, 0, 255, 0], 255);
    assert_eq!(be(&ports[2..4]) as usize, ports.len() - 4);
    assert_eq!(be(&ports[6..8]), 1);
    assert_eq!(be(&ports[14..16]), 12);
    assert_eq!(&ports[16..28], &p1[16..28]);
    assert_eq!(be(&ports[30..32]), 2);
    assert_eq!(&ports[40..52], &p2[16..28]);

    // 0x86: ACTIVATE MICROCODE 01b, SPT=1 (types 1,2), GRD/APP/REF
    let (_, x) = din(&mut a, &[0x12, 1, 0x86, 0, 255, 0], 255);
    assert_eq!(x[4], 0x40 | (1 << 3) | 7);
    // 0xB1: rotation 1, WABEREQ/WACEREQ 01b, 2.5"
    let (_, bdc) = din(&mut a, &[0x12, 1, 0xB1, 0, 255, 0], 255);
    assert_eq!((be(&bdc[4..6]), bdc[7]), (1, 0x53));
    // 0xB2: LBPU, LBPWS, LBPWS10, LBPRZ=1
    let (_, lbp) = din(&mut a, &[0x12, 1, 0xB2, 0, 255, 0], 255);
    assert_eq!(lbp[5], 0xE4);
    // unsupported page
    let (c, _) = din(&mut a, &[0x12, 1, 0x89, 0, 255, 0], 255);
    assert_eq!(kcq(&c), (5, 0x24, 0));
}

#[test]
fn sata_profile_has_ata_vendor_and_vpd89() {
    let mut d = open("hk4e?clock=virtual&capacity_blocks=1024");
    let (_, b) = din(&mut d, &[0x12, 0, 0, 0, 96, 0], 96);
    assert_eq!(&b[8..16], b"ATA     ");
    assert_eq!(b[6] & 0x10, 0); // single port
    let (c, p) = din(&mut d, &[0x12, 1, 0x89, 0x02, 0x40, 0], 0x240);
    good(&c);
    assert_eq!(be(&p[2..4]), 0x238);
    assert_eq!(p[36], 0x34); // SATA signature FIS
    assert_eq!(p[56], 0xEC); // IDENTIFY DEVICE
                             // model at IDENTIFY words 27-46, byte swapped: "OTHSBI A..." for "TOSHIBA ..."
    assert_eq!(&p[60 + 54..60 + 62], b"OTHSBI A");
    // SAT layer does not implement RSOC here
    let (c, _) = din(&mut d, &[0xA3, 0x0C, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0], 4096);
    assert_eq!(kcq(&c), (5, 0x20, 0));
}

#[test]
fn read_capacity_and_lbp() {
    let mut d = open(PX);
    let (c, b) = din(&mut d, &[0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0], 8);
    good(&c);
    assert_eq!(b, [0, 0, 0x0F, 0xFF, 0, 0, 2, 0]);
    let b = read_capacity16(&mut d);
    assert_eq!(be(&b[0..8]), 4095);
    assert_eq!(be(&b[8..12]), 512);
    assert_eq!(b[12], 0); // no PI
    assert_eq!(b[13], 3); // 8 logical per physical
    assert_eq!(b[14], 0xC0); // LBPME, LBPRZ
                             // RC(10) with LBA but PMI=0 is 24/00
    let (c, _) = din(&mut d, &[0x25, 0, 0, 0, 0, 1, 0, 0, 0, 0], 8);
    assert_eq!(kcq(&c), (5, 0x24, 0));
    // the ex-array drive ships with 520-byte blocks and PI type 2
    let mut x = open("exarray?clock=virtual&capacity_blocks=4096");
    let b = read_capacity16(&mut x);
    assert_eq!(be(&b[8..12]), 520);
    assert_eq!(b[12], 0b011); // P_TYPE 1 (type 2), PROT_EN
}

#[test]
fn data_is_kept_and_ranges_checked() {
    let mut d = open(PX);
    let data: Vec<u8> = (0..1024u32).map(|i| (i * 7 + 3) as u8).collect();
    good(&write10(&mut d, 100, &data, 512));
    let (c, r) = read10(&mut d, 100, 2, 512);
    good(&c);
    assert_eq!(r, data);
    let (_, z) = read10(&mut d, 102, 1, 512);
    assert_eq!(z, vec![0u8; 512]); // never written: zeros (LBPRZ)
    let (c, _) = read10(&mut d, 4095, 2, 512);
    assert_eq!(kcq(&c), (5, 0x21, 0));
    // WRITE(16)/READ(16)
    let mut w16 = [0u8; 16];
    w16[0] = 0x8A;
    w16[9] = 7;
    w16[13] = 1;
    good(&dout(&mut d, &w16, &[0xAB; 512]));
    let mut r16 = w16;
    r16[0] = 0x88;
    let (c, r) = din(&mut d, &r16, 512);
    good(&c);
    assert_eq!(r, vec![0xAB; 512]);
    // data-out shorter than the transfer length: the HBA reports DID_ERROR
    let c = write10(&mut d, 0, &[1u8; 512], 256);
    assert_eq!(c.host_status, 0x07);
    // UNMAP LBA 100..101 → zeros again
    let mut pl = vec![0u8; 24];
    pl[1] = 22;
    pl[3] = 16;
    pl[15] = 100;
    pl[19] = 2;
    good(&dout(&mut d, &[0x42, 0, 0, 0, 0, 0, 0, 0, 24, 0], &pl));
    let (_, r) = read10(&mut d, 100, 1, 512);
    assert_eq!(r, vec![0u8; 512]);
    // UNMAP descriptor length lying beyond the list: 26/00 at byte 2
    pl[3] = 32;
    let s = check(&dout(&mut d, &[0x42, 0, 0, 0, 0, 0, 0, 0, 24, 0], &pl));
    assert_eq!(
        (
            s.asc,
            s.sks.map(|x| matches!(
                x,
                SenseKeySpecific::FieldPointer {
                    cd: false,
                    field: 2,
                    ..
                }
            ))
        ),
        (0x26, Some(true))
    );
    // SYNCHRONIZE CACHE
    good(&none(&mut d, &[0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
}

#[test]
fn bad_cdbs_get_illegal_request() {
    let mut d = open(PX);
    // unsupported opcode: 20/00, field pointer byte 0
    let c = none(&mut d, &[0xC5, 0, 0, 0, 0, 0]);
    let s = check(&c);
    assert_eq!((s.key.code(), s.asc, s.ascq), (5, 0x20, 0));
    assert_eq!(c.sense[15..18], [0xC0, 0, 0]);
    // reserved bit in TUR byte 1 bit 5: 24/00, C/D, BPV, bit 5, byte 1
    let c = none(&mut d, &[0x00, 0x20, 0, 0, 0, 0]);
    assert_eq!(
        c.sense,
        [0x70, 0, 5, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x24, 0, 0, 0xCD, 0, 1]
    );
    // NACA in CONTROL
    let c = none(&mut d, &[0x00, 0, 0, 0, 0, 0x04]);
    assert_eq!(c.sense[15..18], [0xCA, 0, 5]);
    // READ(10) given as 6 bytes
    let c = none(&mut d, &[0x28, 0, 0, 0, 0, 0]);
    assert_eq!(kcq(&c), (5, 0x24, 0));
    // CDB shorter than 6 / longer than 32 never reaches the device (EMSGSIZE/EINVAL)
    assert!(d.execute(&[0, 0, 0], sgctl::DataBuf::None, T).is_err());
    // unknown service action of READ CAPACITY(16)'s opcode: 24/00 on byte 1 bit 4
    let c = none(
        &mut d,
        &[0x9E, 0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0],
    );
    assert_eq!(c.sense[15..18], [0xCC, 0, 1]);
    // REPORT LUNS with an allocation length below 16
    let (c, _) = din(&mut d, &[0xA0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0], 8);
    assert_eq!(kcq(&c), (5, 0x24, 0));
    let (c, b) = din(&mut d, &[0xA0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0], 16);
    good(&c);
    assert_eq!(b, [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn descriptor_sense_when_d_sense_set() {
    let mut d = open("px02smf080?clock=virtual&capacity_blocks=4096&dsense=1");
    let c = none(&mut d, &[0xC5, 0, 0, 0, 0, 0]);
    assert_eq!(&c.sense[..8], &[0x72, 5, 0x20, 0, 0, 0, 0, 8]);
    assert_eq!(&c.sense[8..16], &[0x02, 0x06, 0, 0, 0xC0, 0, 0, 0]);
    // REQUEST SENSE DESC=1 works regardless
    let mut f = open(PX);
    let (c, b) = din(&mut f, &[0x03, 1, 0, 0, 252, 0], 252);
    good(&c);
    assert_eq!(&b[..8], &[0x72, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn faults_busy_timeout_medium_error_unit_attention() {
    let mut d = open(PX);
    d.inject(sgctl::sim::Fault::Busy(1));
    let c = tur(&mut d);
    assert_eq!((c.status, c.sense.len()), (0x08, 0));
    good(&tur(&mut d));
    d.inject(sgctl::sim::Fault::Disconnect(1));
    assert_eq!(tur(&mut d).host_status, 0x01);
    // transfers beyond the HBA's max_hw_sectors never reach the device: EIO
    let mut huge = vec![0u8; (32 << 20) + 512];
    let e = d
        .execute(&[0x12, 0, 0, 0, 36, 0], sgctl::DataBuf::In(&mut huge), T)
        .unwrap_err();
    assert!(e.to_string().contains("EIO"), "{e}");
    d.inject(sgctl::sim::Fault::Timeout(1));
    let c = tur(&mut d);
    assert_eq!(c.host_status, 0x03);
    // error handling reset the LU: UA 29/03 once, on both ports
    assert_eq!(kcq(&tur(&mut d)), (6, 0x29, 0x03));
    good(&tur(&mut d));
    let mut p2 = d.port(2);
    assert_eq!(kcq(&tur(&mut p2)), (6, 0x29, 0x03));
    // INQUIRY does not consume a unit attention; REQUEST SENSE reports and clears it
    d.power_cycle();
    let (c, _) = din(&mut d, &[0x12, 0, 0, 0, 36, 0], 36);
    good(&c);
    let s = request_sense(&mut d);
    assert_eq!((s.key.code(), s.asc, s.ascq), (6, 0x29, 0x00));
    good(&tur(&mut d));
    // medium error at an LBA until rewritten; INFORMATION = LBA
    d.inject(sgctl::sim::Fault::MediumError(7));
    let (c, _) = read10(&mut d, 5, 4, 512);
    let s = check(&c);
    assert_eq!((s.key.code(), s.asc, s.information), (3, 0x11, Some(7)));
    good(&write10(&mut d, 7, &[0u8; 512], 512));
    good(&read10(&mut d, 5, 4, 512).0);
}

#[test]
fn security_protocol_in_lists_tcg_on_sed_only() {
    let mut d = open(PX);
    let (c, b) = din(&mut d, &[0xA2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], 512);
    good(&c);
    assert_eq!(b, [0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 2]);
    // Level 0 discovery with INC_512: one 512-byte unit
    let (c, l0) = din(&mut d, &[0xA2, 1, 0, 1, 0x80, 0, 0, 0, 0, 1, 0, 0], 512);
    good(&c);
    assert_eq!(be(&l0[0..4]) as usize + 4, l0.len());
    assert_eq!(&l0[112..118], &[0x01, 0x00, 0x10, 0x10, 0x07, 0xFE]);
    let mut m = open("mk4001grzb?clock=virtual&capacity_blocks=1024");
    let (c, _) = din(&mut m, &[0xA2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], 512);
    assert_eq!(kcq(&c), (5, 0x20, 0));
}

#[test]
fn locked_exarray_refuses_io_with_data_protect() {
    let mut d = open("exarray?clock=virtual&capacity_blocks=4096");
    let (c, _) = read10(&mut d, 0, 1, 520);
    assert_eq!(kcq(&c), (7, 0x74, 0x71));
}

#[test]
fn state_persists_across_opens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.json");
    let spec = format!(
        "px02smf080?clock=virtual&capacity_blocks=4096&serial=ABC123&state={}",
        path.display()
    );
    {
        let mut d = open(&spec);
        good(&write10(&mut d, 42, &[0x5A; 512], 512));
        let mut pat = vec![0u8; 512];
        pat[100] = 1;
        good(&write10(&mut d, 43, &pat, 512));
    }
    let small = std::fs::metadata(&path).unwrap().len();
    {
        // the state holds TCG credentials: owner-only
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    {
        // 1000 more identical blocks are one extent in the state file
        let mut d = open(&spec);
        good(&write10(&mut d, 1000, &[0x77; 512 * 1000], 512));
    }
    let grown = std::fs::metadata(&path).unwrap().len();
    assert!(grown - small < 200, "state file grew {small} -> {grown}");
    let mut d = open(&spec);
    let (_, b) = read10(&mut d, 42, 2, 512);
    assert_eq!(&b[..512], &[0x5A; 512][..]);
    assert_eq!(b[512 + 100], 1);
    let (_, serial) = din(&mut d, &[0x12, 1, 0x80, 0, 255, 0], 255);
    assert_eq!(&serial[4..], b"ABC123");
    // while it is open, a second process (here: a second open) is kept off the state file
    let busy = sgctl::sim::open(&spec).unwrap_err();
    assert_eq!(
        busy.exit_code(),
        sgctl::exit::REFUSED,
        "busy, not a bad address"
    );
    let busy = busy.to_string();
    assert!(busy.contains("in use"), "{busy}");
    drop(d);
    // a different serial on an existing state file is refused
    let e = sgctl::sim::open(&format!("px02smf080?serial=OTHER&state={}", path.display()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("serial ABC123"), "{e}");
    assert!(sgctl::sim::open("nosuchdrive").is_err());
    assert!(sgctl::sim::open("px02smf080?bogus=1").is_err());
}

#[test]
fn device_open_dispatches_sim() {
    let mut t = sgctl::device::open(
        "sim:px03snf080?clock=virtual&capacity_blocks=128",
        sgctl::device::OpenOptions::default(),
    )
    .map(|o| o.transport)
    .unwrap();
    let mut buf = [0u8; 36];
    let c = t
        .execute(&[0x12, 0, 0, 0, 36, 0], sgctl::DataBuf::In(&mut buf), T)
        .unwrap();
    assert_eq!(c.status, 0);
    assert_eq!(&buf[16..26], b"PX03SNF080");
}

#[test]
fn damaged_state_file_is_refused_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.json");
    let spec = format!(
        "px02smf080?clock=virtual&capacity_blocks=4096&state={}",
        path.display()
    );
    drop(open(&spec));
    let json = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, json.replacen("\"lb_len\":512", "\"lb_len\":0", 1)).unwrap();
    let e = sgctl::sim::open(&spec).unwrap_err().to_string();
    assert!(e.contains("inconsistent"), "{e}");
    std::fs::write(&path, "{not json").unwrap();
    assert!(sgctl::sim::open(&spec).is_err());
}

#[test]
fn every_documented_option_parses() {
    for o in [
        "state=/nonexistent-dir/x.json",
        "serial=S1",
        "capacity_gib=0.5",
        "capacity_blocks=4096",
        "clock=virtual",
        "speed=10",
        "port=2",
        "dsense=1",
        "used=1",
        "busy=1",
        "disconnect=1",
        "timeout=1",
        "medium_error=1,2",
        "fail_format=1",
        "fail_sanitize=1",
        "substitute_block=4096",
        "heat=-5",
        "wear=50",
        "tcg_sp_busy=1",
        "tcg_session_timeout=1",
    ] {
        let r = sgctl::sim::parse_spec(&format!("px02smf080?{o}"));
        assert!(r.is_ok(), "{o}: {:?}", r.err());
    }
}
