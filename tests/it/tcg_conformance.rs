//! TCG Enterprise conformance of the simulator's TPer and of sgctl's client, one
//! test per rule. The host side here is a hand-written ComPacket builder working from the
//! spec tables (TCG Core 3.2.2 token atoms, 3.2.3 ComPacket/Packet/SubPacket headers) — not
//! sgctl's encoder — so the two implementations are checked against the spec, not against
//! each other. The same exchanges run over real SG_IO in the VM (vm/groups/tcmu/6?-tcg-*.sh).

use sgctl::sim::tcg::tper::{Reject, Tper};
use sgctl::tcg::uid;

// ---- a tiny, independent token encoder (TCG Core, "Simple tokens" / "Atoms") ----

fn u(v: u64) -> Vec<u8> {
    if v < 64 {
        return vec![v as u8];
    }
    let b = v.to_be_bytes();
    let skip = b.iter().take_while(|&&x| x == 0).count();
    let n = 8 - skip;
    let mut o = vec![0x80 | n as u8];
    o.extend_from_slice(&b[skip..]);
    o
}

fn bs(b: &[u8]) -> Vec<u8> {
    let mut o = if b.len() < 16 {
        vec![0xA0 | b.len() as u8]
    } else {
        vec![0xD0 | (b.len() >> 8) as u8, b.len() as u8]
    };
    o.extend_from_slice(b);
    o
}

fn uid8(x: u64) -> Vec<u8> {
    bs(&x.to_be_bytes())
}

fn name(n: &str, v: &[u8]) -> Vec<u8> {
    [&[0xF2][..], &bs(n.as_bytes()), v, &[0xF3]].concat()
}

fn list(items: &[u8]) -> Vec<u8> {
    [&[0xF0][..], items, &[0xF1]].concat()
}

fn call(inv: u64, meth: u64, args: &[u8]) -> Vec<u8> {
    [
        &[0xF8][..],
        &uid8(inv),
        &uid8(meth),
        &list(args),
        &[0xF9, 0xF0, 0, 0, 0, 0xF1],
    ]
    .concat()
}

/// ComPacket (20) + Packet (24) + SubPacket (12) headers, payload padded to 4, transfer
/// padded to 512.
fn compacket(comid: u16, tsn: u32, hsn: u32, payload: &[u8]) -> Vec<u8> {
    let padded = payload.len().div_ceil(4) * 4;
    let mut b = vec![0u8; 56 + padded];
    b[4..6].copy_from_slice(&comid.to_be_bytes());
    b[16..20].copy_from_slice(&((24 + 12 + padded) as u32).to_be_bytes());
    b[20..24].copy_from_slice(&tsn.to_be_bytes());
    b[24..28].copy_from_slice(&hsn.to_be_bytes());
    b[40..44].copy_from_slice(&((12 + padded) as u32).to_be_bytes());
    b[52..56].copy_from_slice(&(payload.len() as u32).to_be_bytes());
    b[56..56 + payload.len()].copy_from_slice(payload);
    b.resize(b.len().div_ceil(512) * 512, 0);
    b
}

const COMID: u16 = 0x07FE;
const E_GET: u64 = 0x0000_0006_0000_0006;
const E_SET: u64 = 0x0000_0006_0000_0007;
const NEXT: u64 = 0x0000_0006_0000_0008;
const E_AUTH: u64 = 0x0000_0006_0000_000C;
const RANDOM: u64 = 0x0000_0006_0000_0601;
const ERASE: u64 = 0x0000_0006_0000_0803;
const SMUID: u64 = 0xFF;
const THIS_SP: u64 = 1;
const ADMIN_SP: u64 = 0x0000_0205_0000_0001;
const LOCKING_SP: u64 = 0x0000_0205_0001_0001;
const SID: u64 = 0x0000_0009_0000_0006;
const C_PIN_SID: u64 = 0x0000_000B_0000_0001;
const C_PIN_MSID: u64 = 0x0000_000B_0000_8402;
const BANDMASTER0: u64 = 0x0000_0009_0000_8001;
const ERASEMASTER: u64 = 0x0000_0009_0000_8401;

/// One IF-SEND + IF-RECV; returns the reply SubPacket payload (or None: nothing queued).
fn exchange(t: &mut Tper, tsn: u32, hsn: u32, payload: &[u8]) -> Option<Vec<u8>> {
    t.if_send(1, COMID, &compacket(COMID, tsn, hsn, payload))
        .unwrap();
    recv(t)
}

fn recv(t: &mut Tper) -> Option<Vec<u8>> {
    let r = t.if_recv(1, COMID, 4096).unwrap();
    let clen = u32::from_be_bytes(r[16..20].try_into().unwrap()) as usize;
    if clen == 0 {
        return None;
    }
    let slen = u32::from_be_bytes(r[52..56].try_into().unwrap()) as usize;
    Some(r[56..56 + slen].to_vec())
}

/// Status byte of a method response: `… F9 F0 <status> 00 00 F1`.
fn status(reply: &[u8]) -> u8 {
    let n = reply.len();
    assert!(
        n >= 6 && reply[n - 6] == 0xF9 && reply[n - 5] == 0xF0,
        "{reply:02x?}"
    );
    reply[n - 4]
}

/// The result list bytes: everything before `F9`.
fn results(reply: &[u8]) -> &[u8] {
    &reply[..reply.len() - 6]
}

/// Reads a uint atom at `p`; returns (value, next position).
fn read_uint(b: &[u8], p: usize) -> (u64, usize) {
    match b[p] {
        x @ 0..=0x3F => (u64::from(x), p + 1),
        x @ 0x80..=0x88 => {
            let n = usize::from(x & 0x0F);
            let v = b[p + 1..p + 1 + n]
                .iter()
                .fold(0u64, |a, &x| a << 8 | u64::from(x));
            (v, p + 1 + n)
        }
        x => panic!("not a uint atom {x:02x}"),
    }
}

/// The uint value of `F2 <name> <uint> F3` anywhere in `b` (any integer width).
fn named_uint(b: &[u8], n: &str) -> Option<u64> {
    let key = [&[0xF2][..], &bs(n.as_bytes())].concat();
    let p = b.windows(key.len()).position(|w| w == key)? + key.len();
    Some(read_uint(b, p).0)
}

/// StartSession(HSN 1, sp, write, [SessionTimeout]) → TSN, or Err(status).
fn start(t: &mut Tper, sp: u64, write: bool, extra: &[u8]) -> Result<u32, u8> {
    let args = [&u(1)[..], &uid8(sp), &u(u64::from(write)), extra].concat();
    let r = exchange(t, 0, 0, &call(SMUID, 0xFF02, &args)).unwrap();
    if r[0] != 0xF8 {
        return Err(status(&r));
    }
    // F8 A8<SMUID> A8<SyncSession> F0 <hsn> <tsn> …
    assert_eq!(&r[11..19], &0xFF03u64.to_be_bytes());
    assert_eq!(r[19], 0xF0);
    let (hsn, p) = read_uint(&r, 20);
    assert_eq!(hsn, 1);
    Ok(read_uint(&r, p).0 as u32)
}

fn auth(t: &mut Tper, tsn: u32, who: u64, pin: &[u8]) -> Vec<u8> {
    let args = [uid8(who), name("Challenge", &bs(pin))].concat();
    exchange(t, tsn, 1, &call(THIS_SP, E_AUTH, &args)).unwrap()
}

fn end(t: &mut Tper, tsn: u32) {
    assert_eq!(exchange(t, tsn, 1, &[0xFA]).unwrap(), vec![0xFA]);
}

/// Enterprise Set: `[where = empty list] [[named values]]`.
fn set(t: &mut Tper, tsn: u32, obj: u64, values: &[u8]) -> Vec<u8> {
    let args = [list(&[]), list(&list(values))].concat();
    exchange(t, tsn, 1, &call(obj, E_SET, &args)).unwrap()
}

fn get(t: &mut Tper, tsn: u32, obj: u64, cellblock: &[u8]) -> Vec<u8> {
    exchange(t, tsn, 1, &call(obj, E_GET, &list(cellblock))).unwrap()
}

fn fresh() -> Tper {
    Tper::new("CONF1", true, false)
}

// ---- D1: C_PIN_SID ----

#[test]
fn d1_c_pin_sid_is_row_1_and_missing_rows_are_refused() {
    let mut t = fresh();
    let msid = t.msid.clone();
    let tsn = start(&mut t, ADMIN_SP, true, &[]).unwrap();
    // Authenticate(SID, MSID) → F0 01 F1, SUCCESS (the bytes the independent client saw).
    let r = auth(&mut t, tsn, SID, &msid);
    assert_eq!(r, [0xF0, 0x01, 0xF1, 0xF9, 0xF0, 0, 0, 0, 0xF1]);
    // The row that does not exist (authority UID with byte 3 rewritten) is refused …
    let r = set(&mut t, tsn, 0x0000_000B_0000_0006, &name("PIN", &bs(b"x")));
    assert_eq!(
        status(&r),
        0x0C,
        "INVALID_PARAMETER for a nonexistent object"
    );
    // … and C_PIN_SID (00 00 00 0B 00 00 00 01) is SID's: SUCCESS.
    let r = set(&mut t, tsn, C_PIN_SID, &name("PIN", &bs(b"new-sid-pin")));
    assert_eq!(r, [0xF0, 0xF1, 0xF9, 0xF0, 0, 0, 0, 0xF1]);
    end(&mut t, tsn);
    // The new PIN authenticates SID; the MSID no longer does.
    let tsn = start(&mut t, ADMIN_SP, false, &[]).unwrap();
    assert_eq!(results(&auth(&mut t, tsn, SID, &msid)), [0xF0, 0x00, 0xF1]);
    assert_eq!(
        results(&auth(&mut t, tsn, SID, b"new-sid-pin")),
        [0xF0, 0x01, 0xF1]
    );
    end(&mut t, tsn);
    // Anybody may not write C_PIN_SID.
    let tsn = start(&mut t, ADMIN_SP, true, &[]).unwrap();
    assert_eq!(
        status(&set(&mut t, tsn, C_PIN_SID, &name("PIN", &bs(b"y")))),
        0x01
    );
    end(&mut t, tsn);
    // Locking SP objects do not exist in the Admin SP and vice versa.
    let tsn = start(&mut t, LOCKING_SP, false, &[]).unwrap();
    assert_eq!(status(&get(&mut t, tsn, C_PIN_SID, &[])), 0x0C);
    assert_eq!(status(&get(&mut t, tsn, 0x0000_0802_0000_0041, &[])), 0x0C);
    end(&mut t, tsn);
}

#[test]
fn d1_client_take_ownership_writes_c_pin_sid() {
    // sgctl's take-ownership against the simulator: SID's new PIN lands in C_PIN_SID (checked
    // with the independent client above), i.e. the client wrote row …0B 00 00 00 01.
    let mut t = fresh();
    let new = sgctl::tcg::Pin::from_text("owner pin 1");
    {
        let mut d = TperDrive(&mut t);
        let mut h = sgctl::cmd::tcg::Tper::open(&mut d).unwrap();
        sgctl::cmd::tcg::enterprise::take_ownership(&mut h, &new).unwrap();
    }
    let tsn = start(&mut t, ADMIN_SP, false, &[]).unwrap();
    assert_eq!(
        results(&auth(&mut t, tsn, SID, b"owner pin 1")),
        [0xF0, 0x01, 0xF1]
    );
    end(&mut t, tsn);
    assert_eq!(uid::c_pin_of(uid::AUTH_SID), Some(uid::C_PIN_SID));
    assert_eq!(uid::C_PIN_SID.as_u64(), C_PIN_SID);
    assert_eq!(uid::C_PIN_MSID.as_u64(), C_PIN_MSID);
    assert_eq!(uid::AUTH_ERASEMASTER.as_u64(), ERASEMASTER);
    assert_eq!(uid::auth_bandmaster(0).as_u64(), BANDMASTER0);
}

/// The simulator's TPer behind a SECURITY PROTOCOL IN/OUT transport (CDB byte boundary).
struct TperDrive<'a>(&'a mut Tper);

impl sgctl::transport::Transport for TperDrive<'_> {
    fn execute(
        &mut self,
        cdb: &[u8],
        data: sgctl::transport::DataBuf<'_>,
        _t: std::time::Duration,
    ) -> sgctl::Result<sgctl::transport::Completion> {
        use sgctl::scsi::security_protocol as sp;
        use sgctl::sense::{build_fixed, SenseKey};
        use sgctl::transport::{Completion, DataBuf};
        let ill = |asc| Completion::check_condition(build_fixed(SenseKey::IllegalRequest, asc, 0));
        // Only SECURITY PROTOCOL IN/OUT: anything else (REPORT SUPPORTED OPERATION CODES) is
        // an invalid operation code.
        let Ok(c) = sp::parse_cdb(cdb) else {
            return Ok(ill(0x20));
        };
        let r = match data {
            DataBuf::In(buf) => {
                let resp = if (c.protocol, c.sps) == (0, 0) {
                    Ok(vec![0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 2])
                } else if (c.protocol, c.sps) == (1, 1) {
                    Ok(sgctl::sim::tcg::level0_discovery(
                        &sgctl::sim::tcg::SedState {
                            kind: Some(sgctl::sim::profile::SedKind::Enterprise),
                            logical_block_size: 512,
                            sanitize_generation: 0,
                            tper: None,
                        },
                    ))
                } else {
                    self.0.if_recv(c.protocol, c.sps, c.len_bytes as usize)
                };
                resp.map(|v| {
                    let n = v.len().min(buf.len());
                    buf[..n].copy_from_slice(&v[..n]);
                })
            }
            DataBuf::Out(buf) => self.0.if_send(c.protocol, c.sps, buf),
            _ => return Ok(ill(0x24)),
        };
        Ok(match r {
            Ok(()) => Completion::good(),
            Err(Reject::Cdb(_)) => ill(0x24),
            Err(Reject::Param(_)) => ill(0x26),
            Err(Reject::Sequence) => ill(0x2C),
        })
    }
    fn address(&self) -> String {
        "test:conformance".into()
    }
}

/// Opens a write session to the Locking SP as BandMaster0 (MSID).
fn bandmaster0(t: &mut Tper) -> u32 {
    let msid = t.msid.clone();
    let tsn = start(t, LOCKING_SP, true, &[]).unwrap();
    assert_eq!(
        results(&auth(t, tsn, BANDMASTER0, &msid)),
        [0xF0, 0x01, 0xF1]
    );
    tsn
}

// ---- D2: Next, and Set with any subset of columns ----

#[test]
fn d2_next_with_where_and_count() {
    let mut t = fresh();
    let tsn = bandmaster0(&mut t);
    let locking_table = 0x0000_0802_0000_0000;
    // No arguments: every row, Band0..Band15 (MaxRanges 15).
    let r = exchange(&mut t, tsn, 1, &call(locking_table, NEXT, &[])).unwrap();
    assert_eq!(status(&r), 0);
    let mut want = vec![0xF0, 0xF0];
    for n in 0..16u64 {
        want.extend(uid8(0x0000_0802_0000_0001 + n));
    }
    want.extend([0xF1, 0xF1]);
    assert_eq!(results(&r), &want[..]);
    // Where = Band1, Count = 2 (Core optional parameters 0 and 1): Band2, Band3.
    let args = [
        &[0xF2, 0x00][..],
        &uid8(0x0000_0802_0000_0002),
        &[0xF3, 0xF2, 0x01, 0x02, 0xF3],
    ]
    .concat();
    let r = exchange(&mut t, tsn, 1, &call(locking_table, NEXT, &args)).unwrap();
    let want = [
        &[0xF0, 0xF0][..],
        &uid8(0x0000_0802_0000_0003),
        &uid8(0x0000_0802_0000_0004),
        &[0xF1, 0xF1],
    ]
    .concat();
    assert_eq!(results(&r), &want[..]);
    // Enterprise names work too; the last row has nothing after it.
    let args = name("Where", &uid8(0x0000_0802_0000_0010));
    let r = exchange(&mut t, tsn, 1, &call(locking_table, NEXT, &args)).unwrap();
    assert_eq!(results(&r), [0xF0, 0xF0, 0xF1, 0xF1]);
    // A Where that is no row of the table is refused.
    let args = name("Where", &uid8(0x0000_0802_0000_0099));
    let r = exchange(&mut t, tsn, 1, &call(locking_table, NEXT, &args)).unwrap();
    assert_eq!(status(&r), 0x0C);
    // Next on the Locking SP's Authority and C_PIN tables.
    let r = exchange(&mut t, tsn, 1, &call(0x0000_0009_0000_0000, NEXT, &[])).unwrap();
    assert_eq!(status(&r), 0);
    let body = results(&r);
    assert_eq!(
        body.len(),
        4 + 9 * (1 + 16 + 1),
        "Anybody, 16 BandMasters, EraseMaster"
    );
    let r = exchange(&mut t, tsn, 1, &call(0x0000_000B_0000_0000, NEXT, &[])).unwrap();
    assert_eq!(results(&r).len(), 4 + 9 * 17);
    assert_eq!(&results(&r)[2..11], &uid8(0x0000_000B_0000_8001)[..]);
    end(&mut t, tsn);
    // Admin SP: SP table and C_PIN table (C_PIN_SID, C_PIN_MSID, C_PIN_PSID).
    let tsn = start(&mut t, ADMIN_SP, false, &[]).unwrap();
    let r = exchange(&mut t, tsn, 1, &call(0x0000_0205_0000_0000, NEXT, &[])).unwrap();
    let want = [
        &[0xF0, 0xF0][..],
        &uid8(ADMIN_SP),
        &uid8(LOCKING_SP),
        &[0xF1, 0xF1],
    ]
    .concat();
    assert_eq!(results(&r), &want[..]);
    let r = exchange(&mut t, tsn, 1, &call(0x0000_000B_0000_0000, NEXT, &[])).unwrap();
    let want = [
        &[0xF0, 0xF0][..],
        &uid8(C_PIN_SID),
        &uid8(C_PIN_MSID),
        &uid8(0x0000_000B_0001_FF01),
        &[0xF1, 0xF1],
    ]
    .concat();
    assert_eq!(results(&r), &want[..]);
    end(&mut t, tsn);
}

#[test]
fn d2_set_any_subset_of_columns() {
    let mut t = fresh();
    let tsn = bandmaster0(&mut t);
    let band0 = 0x0000_0802_0000_0001;
    // ReadLockEnabled alone, then ReadLocked alone: both accepted, each column by itself.
    assert_eq!(
        status(&set(&mut t, tsn, band0, &name("ReadLockEnabled", &u(1)))),
        0
    );
    assert_eq!(
        status(&set(&mut t, tsn, band0, &name("ReadLocked", &u(1)))),
        0
    );
    assert!(t.bands[0].read_lock_enabled && !t.bands[0].write_lock_enabled);
    assert!(t.bands[0].read_locked && !t.bands[0].write_locked);
    assert!(t.locked_for(0, 1, false) && !t.locked_for(0, 1, true));
    // WriteLocked without anything else.
    assert_eq!(
        status(&set(&mut t, tsn, band0, &name("WriteLocked", &u(1)))),
        0
    );
    assert!(t.bands[0].write_locked);
    // A non-boolean value is still refused.
    assert_eq!(
        status(&set(&mut t, tsn, band0, &name("ReadLocked", &u(7)))),
        0x0C
    );
    end(&mut t, tsn);
}

// ---- D3: Random ----

#[test]
fn d3_random() {
    let mut t = fresh();
    let tsn = start(&mut t, LOCKING_SP, false, &[]).unwrap();
    let r1 = exchange(&mut t, tsn, 1, &call(THIS_SP, RANDOM, &u(8))).unwrap();
    assert_eq!(status(&r1), 0);
    // F0 A8 <8 bytes> F1
    let b1 = results(&r1);
    assert_eq!((b1[0], b1[1], b1.len(), b1[10]), (0xF0, 0xA8, 11, 0xF1));
    let r2 = exchange(&mut t, tsn, 1, &call(THIS_SP, RANDOM, &u(32))).unwrap();
    let b2 = results(&r2);
    assert_eq!(&b2[..3], &[0xF0, 0xD0, 32]);
    assert_ne!(&b2[3..11], &b1[2..10], "two calls return different bytes");
    assert_eq!(
        status(&exchange(&mut t, tsn, 1, &call(THIS_SP, RANDOM, &u(0))).unwrap()),
        0x0C
    );
    end(&mut t, tsn);
}

// ---- D4: certificate data ----

#[test]
fn d4_certificate_is_a_zero_header() {
    let mut s = sgctl::sim::tcg::SedState::new(
        Some(sgctl::sim::profile::SedKind::Enterprise),
        "C4",
        false,
        512,
    );
    assert_eq!(
        sgctl::sim::tcg::security_in(&mut s, 0, 1, 512).unwrap(),
        vec![0u8; 4]
    );
    // SPS 0002h (compliance) stays unsupported: 24/00 on CDB byte 2.
    assert!(sgctl::sim::tcg::security_in(&mut s, 0, 2, 512).is_err());
}

// ---- D5: TPerInfo and SP rows, D6: LockingInfo ----

#[test]
fn d5_tperinfo_and_sp_rows_readable_by_anybody() {
    let mut t = fresh();
    let tsn = start(&mut t, ADMIN_SP, false, &[]).unwrap();
    let r = get(&mut t, tsn, 0x0000_0201_0003_0001, &[]);
    assert_eq!(status(&r), 0, "{r:02x?}");
    let body = results(&r);
    for col in ["UID", "GUDID", "ProtocolVersion", "SSC", "Enterprise"] {
        assert!(
            body.windows(col.len()).any(|w| w == col.as_bytes()),
            "TPerInfo lacks {col}"
        );
    }
    for sp in [ADMIN_SP, LOCKING_SP] {
        let r = get(&mut t, tsn, sp, &[]);
        assert_eq!(status(&r), 0);
        // LifeCycleState = 9 (Manufactured): F2 "LifeCycleState" 09 F3
        let want = name("LifeCycleState", &u(9));
        assert!(results(&r).windows(want.len()).any(|w| w == want));
    }
    end(&mut t, tsn);
}

#[test]
fn d6_lockinginfo_full_row() {
    let mut t = fresh();
    let tsn = start(&mut t, LOCKING_SP, false, &[]).unwrap();
    let r = get(&mut t, tsn, 0x0000_0801_0000_0000, &[]);
    assert_eq!(status(&r), 0);
    let body = results(&r);
    for (col, v) in [
        ("Name", bs(b"")),
        ("Version", u(1)),
        ("EncryptSupport", u(1)),
        ("MaxRanges", u(15)),
        ("MaxReEncryptions", u(0)),
        ("KeysAvailableCfg", u(0)),
    ] {
        let want = name(col, &v);
        assert!(body.windows(want.len()).any(|w| w == want), "{col}");
    }
    // A Cellblock still selects: startColumn = endColumn = "MaxRanges".
    let cb = [
        name("startColumn", &bs(b"MaxRanges")),
        name("endColumn", &bs(b"MaxRanges")),
    ]
    .concat();
    let r = get(&mut t, tsn, 0x0000_0801_0000_0000, &cb);
    let want = [
        &[0xF0, 0xF0, 0xF0][..],
        &name("MaxRanges", &u(15)),
        &[0xF1, 0xF1, 0xF1],
    ]
    .concat();
    assert_eq!(results(&r), &want[..]);
    end(&mut t, tsn);
}

// ---- D7: session timeouts and the second StartSession ----

#[test]
fn d7_session_timeout_and_second_start_session() {
    let mut t = fresh();
    // Properties reports Def/Max/MinSessionTimeout and MaxSessions.
    let r = exchange(&mut t, 0, 0, &call(SMUID, 0xFF01, &[])).unwrap();
    for (n, v) in [
        ("DefSessionTimeout", 30_000u64),
        ("MaxSessionTimeout", 600_000),
        ("MinSessionTimeout", 1_000),
        ("MaxSessions", 2),
    ] {
        assert_eq!(named_uint(&r, n), Some(v), "{n}");
    }
    // Out of range: INVALID_PARAMETER.
    let st = |ms: u64| name("SessionTimeout", &u(ms));
    assert_eq!(start(&mut t, ADMIN_SP, true, &st(10)), Err(0x0C));
    assert_eq!(start(&mut t, ADMIN_SP, true, &st(3_600_000)), Err(0x0C));
    // A write session to the Admin SP with SessionTimeout 60000 (what the client sent).
    let a = start(&mut t, ADMIN_SP, true, &st(60_000)).unwrap();
    // Second session to the same SP: SP_BUSY (an SP has one read-write session).
    assert_eq!(start(&mut t, ADMIN_SP, false, &[]), Err(0x03));
    // Another SP: a session is available (MaxSessions 2) …
    let b = start(&mut t, LOCKING_SP, false, &[]).unwrap();
    // … and then none: NO_SESSIONS_AVAILABLE.
    t.sessions[1].sp = 0x0000_0205_0000_0099; // pretend the third SP exists
    assert_eq!(start(&mut t, LOCKING_SP, false, &[]), Err(0x07));
    t.sessions[1].sp = LOCKING_SP;
    end(&mut t, b);
    // The host "dies": 59 s later the session still holds the SP, after 60 s it is gone.
    t.clock_skew_ms += 59_000;
    assert_eq!(start(&mut t, ADMIN_SP, true, &[]), Err(0x03));
    t.clock_skew_ms += 2_000;
    let c = start(&mut t, ADMIN_SP, true, &[]).unwrap();
    // The expired session's methods get no answer (the TPer forgot it).
    t.if_send(
        1,
        COMID,
        &compacket(COMID, a, 1, &call(THIS_SP, RANDOM, &u(4))),
    )
    .unwrap();
    assert!(recv(&mut t).is_none());
    // Activity keeps a session alive: DefSessionTimeout 30 s, a method every 20 s.
    for _ in 0..3 {
        t.clock_skew_ms += 20_000;
        assert_eq!(
            status(&exchange(&mut t, c, 1, &call(THIS_SP, RANDOM, &u(4))).unwrap()),
            0
        );
    }
    end(&mut t, c);
}

// ---- D8: Level 0 Locking feature ----

#[test]
fn d8_level0_mbr_shadowing_not_supported() {
    let s = sgctl::sim::tcg::SedState::new(
        Some(sgctl::sim::profile::SedKind::Enterprise),
        "C8",
        false,
        512,
    );
    let l0 = sgctl::sim::tcg::level0_discovery(&s);
    // Locking descriptor at 64: code 0002, byte 4 = supported|enabled|media encryption|
    // MBR shadowing not supported.
    assert_eq!(&l0[64..68], &[0x00, 0x02, 0x10, 0x0C]);
    assert_eq!(l0[68], 0x4B);
    let parsed = sgctl::tcg::level0::parse(&l0).unwrap();
    let text = format!("{parsed:?}");
    assert!(text.contains("mbr_shadowing_absent: true"), "{text}");
}

// ---- two IF-SENDs before an IF-RECV ----

#[test]
fn second_if_send_with_a_pending_response_is_refused() {
    let mut t = fresh();
    let props = compacket(COMID, 0, 0, &call(SMUID, 0xFF01, &[]));
    t.if_send(1, COMID, &props).unwrap();
    // The same ComPacket again (a restarted SG_IO): COMMAND SEQUENCE ERROR, not queued.
    assert_eq!(t.if_send(1, COMID, &props), Err(Reject::Sequence));
    let mut s = sgctl::sim::tcg::SedState::new(
        Some(sgctl::sim::profile::SedKind::Enterprise),
        "C9",
        false,
        512,
    );
    sgctl::sim::tcg::security_out(&mut s, 1, COMID, &props).unwrap();
    let e = sgctl::sim::tcg::security_out(&mut s, 1, COMID, &props).unwrap_err();
    assert_eq!((e.key, e.asc, e.ascq), (5, 0x2C, 0x00));
    // Exactly one reply, then nothing.
    assert!(recv(&mut t).is_some());
    assert!(recv(&mut t).is_none());
    // The other ComID is independent.
    t.if_send(1, COMID, &props).unwrap();
    let other = compacket(COMID + 1, 0, 0, &call(SMUID, 0xFF01, &[]));
    t.if_send(1, COMID + 1, &other).unwrap();
    // STACK_RESET clears the pending response.
    let mut req = vec![0u8; 512];
    req[0..2].copy_from_slice(&COMID.to_be_bytes());
    req[4..8].copy_from_slice(&2u32.to_be_bytes());
    t.if_send(2, COMID, &req).unwrap();
    t.if_send(1, COMID, &props).unwrap();
    // A host that died between IF-SEND and IF-RECV left that reply pending: sgctl's client
    // gets 2C/00, retrieves and discards the stale reply, and sends its own once.
    let msid = t.msid.clone();
    let mut d = TperDrive(&mut t);
    let mut h = sgctl::cmd::tcg::Tper::open(&mut d).unwrap();
    assert_eq!(
        sgctl::cmd::tcg::enterprise::read_msid(&mut h)
            .unwrap()
            .expose(),
        &msid[..]
    );
    drop(h);
    assert!(recv(&mut t).is_none());
}

#[allow(dead_code)]
const UNUSED: [u64; 2] = [ERASE, ERASEMASTER];

// ---- fixtures/tcg: Level 0, Properties reply, UIDs, each with the spec table it comes from ----

fn fixture_hex(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/tcg/{name}", env!("CARGO_MANIFEST_DIR"));
    sgctl::bytes::parse_inhex(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn fixture_level0_is_what_the_simulator_sends() {
    let want = fixture_hex("sim-enterprise-level0.hex");
    assert_eq!(want.len(), 132);
    let s = sgctl::sim::tcg::SedState::new(
        Some(sgctl::sim::profile::SedKind::Enterprise),
        "F1",
        false,
        512,
    );
    assert_eq!(sgctl::sim::tcg::level0_discovery(&s), want);
    // And sgctl's Level 0 parser reads the spec values back.
    let l0 = sgctl::tcg::level0::parse(&want).unwrap();
    let ssc = l0.ssc().unwrap();
    assert_eq!(
        (ssc.base_comid, ssc.ssc),
        (0x07FE, sgctl::tcg::level0::Ssc::Enterprise)
    );
}

#[test]
fn fixture_properties_reply_is_what_the_simulator_sends() {
    let want = fixture_hex("sim-enterprise-properties-reply.hex");
    let mut t = fresh();
    let got = exchange(&mut t, 0, 0, &call(SMUID, 0xFF01, &[])).unwrap();
    assert_eq!(got, want);
    assert_eq!(named_uint(&want, "MaxComPacketSize"), Some(2048));
    assert_eq!(named_uint(&want, "MaxSessionTimeout"), Some(600_000));
}

#[test]
fn fixture_uids_match_src_tcg_uid() {
    use sgctl::tcg::uid::{self as u, method as m, sm};
    let text = std::fs::read_to_string(format!(
        "{}/fixtures/tcg/uids.tsv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 3, "{line}");
        assert!(f[2].starts_with('['), "row without its spec table: {line}");
        let bytes: Vec<u8> = f[1]
            .split(' ')
            .map(|b| u8::from_str_radix(b, 16).unwrap())
            .collect();
        let ours = match f[0] {
            "ThisSP" => u::THIS_SP,
            "SMUID" => u::SMUID,
            "AdminSP" => u::ADMIN_SP,
            "LockingSP" => u::LOCKING_SP_ENTERPRISE,
            "TPerInfo" => u::TPER_INFO,
            "Anybody" => u::AUTH_ANYBODY,
            "Admins" => u::AUTH_ADMINS,
            "Makers" => u::AUTH_MAKERS,
            "SID" => u::AUTH_SID,
            "MSID" => u::AUTH_MSID,
            "PSID" => u::AUTH_PSID,
            "EraseMaster" => u::AUTH_ERASEMASTER,
            "BandMaster0" => u::auth_bandmaster(0),
            "BandMaster15" => u::auth_bandmaster(15),
            "C_PIN_SID" => u::C_PIN_SID,
            "C_PIN_MSID" => u::C_PIN_MSID,
            "C_PIN_PSID" => u::C_PIN_PSID,
            "C_PIN_EraseMaster" => u::C_PIN_ERASEMASTER,
            "C_PIN_BandMaster0" => u::c_pin_bandmaster(0),
            "C_PIN_BandMaster15" => u::c_pin_bandmaster(15),
            "LockingInfo" => u::LOCKING_INFO_ENTERPRISE,
            "Band0" => u::band(0),
            "Band15" => u::band(15),
            "LockingTable" => u::LOCKING_TABLE,
            "AuthorityTable" => u::AUTHORITY_TABLE,
            "C_PINTable" => u::C_PIN_TABLE,
            "SPTable" => u::SP_TABLE,
            "TPerInfoTable" => u::TPER_INFO_TABLE,
            "Get" => m::E_GET,
            "Set" => m::E_SET,
            "Next" => m::NEXT,
            "Authenticate" => m::E_AUTHENTICATE,
            "RevertSP" => m::REVERT_SP,
            "Random" => m::RANDOM,
            "Erase" => m::ERASE,
            "Properties" => sm::PROPERTIES,
            "StartSession" => sm::START_SESSION,
            "SyncSession" => sm::SYNC_SESSION,
            "CloseSession" => sm::CLOSE_SESSION,
            other => panic!("fixture row {other} has no sgctl constant"),
        };
        assert_eq!(ours.0.to_vec(), bytes, "{}", f[0]);
        n += 1;
    }
    assert_eq!(n, 39);
    // The authority ↔ C_PIN pairs of the fixture are the ones proto/src/tcg/uid.rs maps.
    for (a, c) in [
        (u::AUTH_SID, u::C_PIN_SID),
        (u::AUTH_MSID, u::C_PIN_MSID),
        (u::AUTH_PSID, u::C_PIN_PSID),
        (u::AUTH_ERASEMASTER, u::C_PIN_ERASEMASTER),
        (u::auth_bandmaster(15), u::c_pin_bandmaster(15)),
    ] {
        assert_eq!(u::c_pin_of(a), Some(c));
        assert_eq!(u::authority_of_c_pin(c), Some(a));
    }
}

/// The VM checks' shell ComPacket builder (vm/groups/tcmu/tcg-raw.inc, used with sg_raw)
/// reproduces a published third-party exchange byte for byte: sedutil's Opal StartSession of
/// issue #507 (fixtures/tcg/sedutil-507-startsession-psid.hex). So the guest's independent
/// client is itself checked against another implementation, not against sgctl.
#[test]
fn shell_builder_matches_sedutil_507() {
    let root = env!("CARGO_MANIFEST_DIR");
    let tmp = std::env::temp_dir().join(format!("tcgraw-{}", std::process::id()));
    let script = format!(
        r#"RAW_COMID=7FFE RAW_TMP={tmp}; . {root}/vm/groups/tcmu/tcg-raw.inc
args="$(t_uint 105)$(t_uid "$ADMINSP")$(t_uint 1)F2 00 $(t_str 97814309739424555394398620118885)F3 F2 03 $(t_uid "00 00 00 09 00 01 FF 01")F3 "
compacket 0 0 "$(t_call "$SMUID" "$M_STARTSESSION" "$args")""#,
        tmp = tmp.display()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(&script)
        .output()
        .expect("sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<u8> = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    let want = fixture_hex("sedutil-507-startsession-psid.hex");
    assert_eq!(got.len(), 512);
    assert_eq!(&got[..144], &want[..]);
    assert!(got[144..].iter().all(|&b| b == 0));
    let _ = std::fs::remove_dir_all(tmp);
}

// ---- The Enterprise form of Set, byte for byte ----

/// An Enterprise SSC host locks and unlocks the global range (Band0) with the Enterprise
/// form of Set (protocols.md §F.9): an empty Where list, RowValues in an extra list, columns
/// named by their string names and booleans as uintegers 0/1 — exactly these tokens:
/// `F0 F0 F1 F0 F0 F2 "ReadLocked" 01 F3 F2 "WriteLocked" 01 F3 F1 F1 F1`.
#[test]
fn enterprise_set_form_locks_and_unlocks_the_global_range() {
    let band0 = 0x0000_0802_0000_0001;
    // The uinteger as a tiny atom (`01`) and as a one-byte short atom (`81 01`), as some
    // clients encode every integer.
    for (enc, atom) in [("tiny", &[][..]), ("short", &[0x81][..])] {
        let mut t = fresh();
        let tsn = bandmaster0(&mut t);
        for v in [1u8, 0] {
            let mut args = vec![0xF0, 0xF0, 0xF1, 0xF0, 0xF0, 0xF2, 0xAA];
            args.extend_from_slice(b"ReadLocked");
            args.extend_from_slice(atom);
            args.extend_from_slice(&[v, 0xF3, 0xF2, 0xAB]);
            args.extend_from_slice(b"WriteLocked");
            args.extend_from_slice(atom);
            args.extend_from_slice(&[v, 0xF3, 0xF1, 0xF1, 0xF1]);
            let mut payload = vec![0xF8];
            payload.extend(uid8(band0));
            payload.extend(uid8(E_SET));
            payload.extend_from_slice(&args);
            payload.extend_from_slice(&[0xF9, 0xF0, 0, 0, 0, 0xF1]);
            let r = exchange(&mut t, tsn, 1, &payload).unwrap();
            assert_eq!(status(&r), 0, "{enc}: Set {v} refused: {r:02x?}");
            assert_eq!(t.bands[0].read_locked, v == 1, "{enc}");
            assert_eq!(t.bands[0].write_locked, v == 1, "{enc}");
        }
        end(&mut t, tsn);
    }
}
