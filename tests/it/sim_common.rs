//! Helpers shared by the simulator tests: send CDBs through the Transport like SG_IO does.
#![allow(dead_code)]

use sgctl::sense::Sense;
use sgctl::sim::{self, SimDevice};
use sgctl::transport::{Completion, DataBuf, Transport};
use std::time::Duration;

pub(crate) const T: Duration = Duration::from_secs(30);

pub(crate) fn open(spec: &str) -> SimDevice {
    sim::open(spec).expect("open sim")
}

/// Data-in command: (completion, bytes actually transferred).
pub(crate) fn din(d: &mut SimDevice, cdb: &[u8], len: usize) -> (Completion, Vec<u8>) {
    let mut buf = vec![0u8; len];
    let c = d.execute(cdb, DataBuf::In(&mut buf), T).expect("execute");
    let n = len - c.resid;
    buf.truncate(n);
    (c, buf)
}

pub(crate) fn dout(d: &mut SimDevice, cdb: &[u8], data: &[u8]) -> Completion {
    d.execute(cdb, DataBuf::Out(data), T).expect("execute")
}

pub(crate) fn none(d: &mut SimDevice, cdb: &[u8]) -> Completion {
    d.execute(cdb, DataBuf::None, T).expect("execute")
}

/// Asserts GOOD.
pub(crate) fn good(c: &Completion) {
    assert_eq!(c.status, 0, "expected GOOD, sense {:02x?}", c.sense);
}

/// Asserts CHECK CONDITION and returns the parsed sense.
pub(crate) fn check(c: &Completion) -> Sense {
    assert_eq!(c.status, 2, "expected CHECK CONDITION");
    Sense::parse(&c.sense).expect("sense parses")
}

/// (key, asc, ascq) of a CHECK CONDITION.
pub(crate) fn kcq(c: &Completion) -> (u8, u8, u8) {
    let s = check(c);
    (s.key.code(), s.asc, s.ascq)
}

pub(crate) fn tur(d: &mut SimDevice) -> Completion {
    none(d, &[0, 0, 0, 0, 0, 0])
}

pub(crate) fn request_sense(d: &mut SimDevice) -> Sense {
    let (c, b) = din(d, &[0x03, 0, 0, 0, 252, 0], 252);
    good(&c);
    Sense::parse(&b).expect("request sense data")
}

pub(crate) fn read10(d: &mut SimDevice, lba: u32, n: u16, lb: usize) -> (Completion, Vec<u8>) {
    let mut cdb = [0u8; 10];
    cdb[0] = 0x28;
    cdb[2..6].copy_from_slice(&lba.to_be_bytes());
    cdb[7..9].copy_from_slice(&n.to_be_bytes());
    din(d, &cdb, usize::from(n) * lb)
}

pub(crate) fn write10(d: &mut SimDevice, lba: u32, data: &[u8], lb: usize) -> Completion {
    let mut cdb = [0u8; 10];
    cdb[0] = 0x2A;
    cdb[2..6].copy_from_slice(&lba.to_be_bytes());
    cdb[7..9].copy_from_slice(&((data.len() / lb) as u16).to_be_bytes());
    dout(d, &cdb, data)
}

pub(crate) fn read_capacity16(d: &mut SimDevice) -> Vec<u8> {
    let mut cdb = [0u8; 16];
    cdb[0] = 0x9E;
    cdb[1] = 0x10;
    cdb[13] = 32;
    let (c, b) = din(d, &cdb, 32);
    good(&c);
    b
}

pub(crate) fn be(b: &[u8]) -> u64 {
    b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x))
}

/// A 32-byte CDB (SBC-4 READ(32) / WRITE(32) / VERIFY(32)).
pub(crate) fn cdb32(
    sa: u8,
    flags: u8,
    lba: u64,
    n: u32,
    ref_tag: u32,
    app: u16,
    mask: u16,
) -> [u8; 32] {
    let mut c = [0u8; 32];
    c[0] = 0x7F;
    c[7] = 0x18;
    c[9] = sa;
    c[10] = flags;
    c[12..20].copy_from_slice(&lba.to_be_bytes());
    c[20..24].copy_from_slice(&ref_tag.to_be_bytes());
    c[24..26].copy_from_slice(&app.to_be_bytes());
    c[26..28].copy_from_slice(&mask.to_be_bytes());
    c[28..32].copy_from_slice(&n.to_be_bytes());
    c
}

/// One protected block: the user data, then its 8 bytes of PI (T10-DIF guard, application
/// tag, reference tag).
pub(crate) fn protected(user: &[u8], app: u16, ref_tag: u32) -> Vec<u8> {
    let mut v = user.to_vec();
    v.extend_from_slice(&sgctl::sim::cmd::rw::crc16_t10dif(user).to_be_bytes());
    v.extend_from_slice(&app.to_be_bytes());
    v.extend_from_slice(&ref_tag.to_be_bytes());
    v
}

/// FORMAT UNIT with CDB byte 1 `byte1` (FMTPINFO, LONGLIST, FMTDATA...) and the short
/// parameter list header 00 00 00 00 (no IMMED): the drive formats before it answers.
pub(crate) fn format_unit(d: &mut SimDevice, byte1: u8) -> Completion {
    d.execute(
        &[0x04, byte1, 0, 0, 0, 0],
        sgctl::DataBuf::Out(&[0, 0, 0, 0]),
        std::time::Duration::from_secs(3600),
    )
    .unwrap()
}
