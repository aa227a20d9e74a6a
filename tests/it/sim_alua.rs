//! REPORT TARGET PORT GROUPS (SPC-5 6.37) against VPD 0x83's target port group designators and
//! INQUIRY TPGS on the dual-port virtual drive.

use crate::sim_common::*;

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=4096";

/// Target port group designator (type 5) values in a VPD 0x83 page.
fn tpg_designators(page: &[u8]) -> Vec<u16> {
    let mut out = vec![];
    let mut i = 4;
    while i + 4 <= page.len() {
        let len = usize::from(page[i + 3]);
        if page[i + 1] & 0x0F == 5 && len == 4 && i + 8 <= page.len() {
            out.push(u16::from_be_bytes([page[i + 6], page[i + 7]]));
        }
        i += 4 + len;
    }
    out
}

#[test]
fn rtpg_and_vpd_83_agree_per_port() {
    let mut a = open(PX);
    let mut b = a.port(2);
    tur(&mut a);
    tur(&mut b);
    let (c, inq) = din(&mut a, &[0x12, 0, 0, 0, 36, 0], 36);
    good(&c);
    assert_eq!(inq[5] & 0x30, 0x10, "TPGS implicit");
    let (c, r) = din(&mut a, &[0xA3, 0x0A, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], 256);
    good(&c);
    assert_eq!(be(&r[0..4]), 24);
    // Two groups of one port each, active/optimized.
    for (n, d) in r[4..].chunks(12).enumerate() {
        let port = n as u64 + 1;
        assert_eq!(d[0] & 0x0F, 0, "active/optimized");
        assert_eq!(be(&d[2..4]), port, "group id");
        assert_eq!(d[7], 1, "one port");
        assert_eq!(be(&d[10..12]), port, "relative target port");
    }
    // Extended header.
    let (c, x) = din(&mut a, &[0xA3, 0x2A, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], 256);
    good(&c);
    assert_eq!(be(&x[0..4]), 28);
    assert_eq!(x[4] >> 4, 1);
    assert_eq!(&x[8..], &r[4..]);
    // VPD 0x83 through each port names that port's group.
    for (dev, want) in [(&mut a, 1u16), (&mut b, 2u16)] {
        let (c, p) = din(dev, &[0x12, 1, 0x83, 0x01, 0, 0], 256);
        good(&c);
        assert_eq!(tpg_designators(&p), vec![want]);
    }
    // Parameter data format 2 is reserved.
    let (c, _) = din(&mut a, &[0xA3, 0x4A, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], 256);
    assert_eq!(kcq(&c), (5, 0x24, 0x00));
}
