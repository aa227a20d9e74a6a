//! Byte-exact tests of TCG framing, tokens and Level 0 against published exchanges.
//! Sources are in fixtures/tcg/README.md.

use sgctl::bytes::parse_inhex;
use sgctl::tcg::level0::{self, Feature, Ssc};
use sgctl::tcg::packet::{self, Received};
use sgctl::tcg::session::{self, Dialect};
use sgctl::tcg::token::{self, Token, Value};
use sgctl::tcg::{uid, Pin};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/tcg/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    parse_inhex(&text).unwrap()
}

/// sedutil issue #507: our encoder produces the same Opal StartSession ComPacket, byte for
/// byte (HSN 105, Admin SP, write, HostChallenge = PSID, HostSigningAuthority = PSID).
#[test]
fn opal_start_session_matches_sedutil_507() {
    let want = fixture("sedutil-507-startsession-psid.hex");
    assert_eq!(want.len(), 144);
    let psid = Pin::from_text("97814309739424555394398620118885");
    let payload = session::start_session_call(
        Dialect::Opal,
        105,
        uid::ADMIN_SP,
        true,
        Some((uid::AUTH_PSID, &psid)),
    );
    let got = packet::build(0x7FFE, 0, 0, 0, &payload);
    assert_eq!(got.len(), 512);
    assert_eq!(&got[..144], &want[..]);
    assert!(got[144..].iter().all(|&b| b == 0));
    // And the parser reads it back.
    match packet::parse(&want).unwrap() {
        Received::Data {
            comid,
            tsn,
            hsn,
            payload: p,
        } => {
            assert_eq!((comid, tsn, hsn), (0x7FFE, 0, 0));
            assert_eq!(p, payload);
        }
        other => panic!("{other:?}"),
    }
}

/// sedutil issue #474: the Enterprise Properties call tokens.
#[test]
fn enterprise_properties_call_matches_sedutil_474() {
    let want = fixture("sedutil-474-properties-call-tokens.hex");
    assert_eq!(session::properties_call(Dialect::Enterprise), want);
}

/// sedutil issue #392: an Enterprise TPer's Properties reply (head only).
#[test]
fn enterprise_properties_reply_392() {
    let buf = fixture("sedutil-392-enterprise-properties-reply-head.hex");
    // ComPacket 0x208, Packet 0x1F0, SubPacket 0x1E2 (482, padded to 484 = 0x1F0 - 12).
    let b = sgctl::bytes::Bytes::new(&buf, "t");
    assert_eq!(b.be16(4).unwrap(), 0x07FE);
    assert_eq!(b.be32(16).unwrap(), 0x208);
    assert_eq!(b.be32(40).unwrap(), 0x1F0);
    assert_eq!(b.be32(52).unwrap(), 0x1E2);
    assert_eq!(0x1E2_u32.div_ceil(4) * 4 + 12, 0x1F0);
    // The published text stops mid-stream: the framer must refuse it, not read past it.
    assert!(packet::parse(&buf).is_err());
    // The complete tokens present: Call SMUID.Properties, [[ MaxMethods=1 ... ]].
    let toks = token::tokenize(&buf[56..0x158]).unwrap();
    assert_eq!(toks[0], Token::Call);
    assert_eq!(toks[1], Token::Bytes(uid::SMUID.0.to_vec()));
    assert_eq!(toks[2], Token::Bytes(uid::sm::PROPERTIES.0.to_vec()));
    let mut props = vec![];
    let mut i = 0;
    while i + 3 < toks.len() {
        if let (Token::StartName, Token::Bytes(n), Token::Uint(v), Token::EndName) =
            (&toks[i], &toks[i + 1], &toks[i + 2], &toks[i + 3])
        {
            props.push((String::from_utf8(n.clone()).unwrap(), *v));
            i += 4;
        } else {
            i += 1;
        }
    }
    let get = |n: &str| props.iter().find(|(k, _)| k == n).map(|(_, v)| *v);
    assert_eq!(get("MaxMethods"), Some(1));
    assert_eq!(get("MaxPacketSize"), Some(0x43EC));
    assert_eq!(get("MaxComPacketSize"), Some(0x4400));
    assert_eq!(get("MaxResponseComPacketSize"), Some(0x4400));
    assert_eq!(get("MaxIndTokenSize"), Some(0x43C8));
    assert_eq!(get("MaxAuthentications"), Some(0x18));
    assert_eq!(get("MaxTransactionLimit"), Some(1));
    assert_eq!(get("DefSessionTimeout"), Some(0));
}

fn padded(mut b: Vec<u8>) -> Vec<u8> {
    // sedutil dumps `length` bytes, 4 short of the data (see README): restore the reserved tail.
    let len = u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize + 4;
    b.resize(len, 0);
    b
}

#[test]
fn level0_opal_304() {
    let l0 = level0::parse(&padded(fixture("sedutil-304-level0-opal.hex"))).unwrap();
    assert_eq!(l0.revision, 1);
    assert_eq!(l0.features.len(), 7);
    assert_eq!(
        l0.features[0],
        Feature::Tper {
            sync: true,
            asynchronous: false,
            ack_nak: false,
            buffer_mgmt: false,
            streaming: true,
            comid_mgmt: false
        }
    );
    // 0x1F: supported, enabled, locked, media encryption, MBR enabled.
    assert_eq!(l0.locking(), Some((true, true, true)));
    match &l0.features[2] {
        Feature::Geometry {
            align,
            logical_block_size,
            alignment_granularity,
            lowest_aligned_lba,
        } => {
            assert!(!align);
            assert_eq!(*logical_block_size, 512);
            assert_eq!(*alignment_granularity, 1);
            assert_eq!(*lowest_aligned_lba, 0);
        }
        f => panic!("{f:?}"),
    }
    let ssc = l0.ssc().unwrap();
    assert_eq!(ssc.ssc, Ssc::Opal2);
    assert_eq!((ssc.base_comid, ssc.num_comids), (0x1004, 1));
    assert_eq!((ssc.locking_admins, ssc.locking_users), (Some(4), Some(9)));
    assert!(l0
        .features
        .iter()
        .any(|f| matches!(f, Feature::Ssc(s) if s.ssc == Ssc::Opal1 && s.base_comid == 0x1004)));
    assert!(l0.features.iter().any(|f| matches!(
        f,
        Feature::SingleUserMode {
            num_locking_objects: 9,
            ..
        }
    )));
    assert!(l0.features.iter().any(|f| matches!(
        f,
        Feature::DataStore {
            max_tables: 9,
            max_size: 0x00a0_0000,
            alignment: 1
        }
    )));
}

#[test]
fn level0_mx500_340() {
    let l0 = level0::parse(&padded(fixture("sedutil-340-level0-mx500.hex"))).unwrap();
    let ssc = l0.ssc().unwrap();
    assert_eq!(ssc.ssc, Ssc::Opal2);
    assert_eq!((ssc.base_comid, ssc.num_comids), (0x0888, 1));
    // 0x0B: supported, enabled, media encryption; not locked.
    assert_eq!(l0.locking(), Some((true, false, true)));
    assert!(l0
        .features
        .iter()
        .any(|f| matches!(f, Feature::BlockSid { flags: 1, .. })));
}

/// The published dumps without our padding: a descriptor overruns the data → the descriptors
/// before it are decoded and the overrun is listed (decode as far as the bytes go).
#[test]
fn level0_truncated_dump_lists_the_overrun() {
    let l0 = level0::parse(&fixture("sedutil-304-level0-opal.hex")).unwrap();
    assert!(!l0.features.is_empty());
    assert_eq!(l0.problems.len(), 1, "{:?}", l0.problems);
    assert!(
        l0.problems[0].contains("overruns the data"),
        "{:?}",
        l0.problems
    );
}

#[test]
fn enterprise_get_shapes() {
    // protocols.md §F.9: Enterprise Get result nests three lists.
    let r = [
        0xF0, 0xF0, 0xF0, 0xF2, 0xA3, b'P', b'I', b'N', 0xA2, 1, 2, 0xF3, 0xF1, 0xF1, 0xF1,
    ];
    let items = token::parse(&r).unwrap();
    let token::Item::Value(v) = &items[0] else {
        panic!()
    };
    let l = v.as_list().unwrap();
    let c = session::columns(l);
    assert_eq!(
        session::column(&c, "PIN", 3),
        Some(&Value::Bytes(vec![1, 2]))
    );
}
