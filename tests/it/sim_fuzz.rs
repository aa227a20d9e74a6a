//! Hostile host input: random CDBs, parameter data and buffer sizes never panic the virtual
//! drive, and every answer is well formed (status, parsable sense, resid within the buffer).

use proptest::prelude::*;
use sgctl::sense::Sense;
use sgctl::sim::{self, Fault};
use sgctl::transport::{DataBuf, Transport};
use std::time::Duration;

/// Opcodes the drive implements (plus some it does not), so most random CDBs get past the
/// opcode check and exercise the field validation.
const OPS: &[u8] = &[
    0x00, 0x03, 0x04, 0x12, 0x15, 0x1A, 0x25, 0x28, 0x2A, 0x35, 0x42, 0x48, 0x4C, 0x4D, 0x55, 0x5A,
    0x88, 0x8A, 0x91, 0x9E, 0xA0, 0xA2, 0xA3, 0xB5, 0x01, 0x7F, 0xC0, 0xFF,
];

#[derive(Debug, Clone)]
struct Cmd {
    cdb: Vec<u8>,
    dir: u8,
    buf_len: usize,
    data: Vec<u8>,
}

fn cmd() -> impl Strategy<Value = Cmd> {
    (
        prop::sample::select(OPS),
        prop::collection::vec(any::<u8>(), 5..=16),
        0u8..3,
        0usize..9000,
        prop::collection::vec(any::<u8>(), 0..700),
        any::<bool>(),
    )
        .prop_map(|(op, mut rest, dir, buf_len, data, small)| {
            // Mostly small lengths and clear CONTROL bytes so commands get processed.
            if small {
                for b in rest.iter_mut().skip(4) {
                    *b &= 0x03;
                }
            }
            let mut cdb = vec![op];
            cdb.append(&mut rest);
            Cmd {
                cdb,
                dir,
                buf_len,
                data,
            }
        })
}

fn check_one(d: &mut sim::SimDevice, c: &Cmd) -> Result<(), TestCaseError> {
    let mut buf = vec![0u8; c.buf_len];
    let data = match c.dir {
        0 => DataBuf::None,
        1 => DataBuf::In(&mut buf),
        _ => DataBuf::Out(&c.data),
    };
    let r = d.execute(&c.cdb, data, Duration::from_secs(30));
    let Ok(comp) = r else {
        return Ok(()); // refused before reaching the device (CDB length)
    };
    prop_assert!(comp.resid <= c.buf_len);
    match comp.status {
        0x00 => prop_assert!(comp.sense.is_empty()),
        0x02 => {
            let s = Sense::parse(&comp.sense);
            prop_assert!(s.is_ok(), "bad sense {:02x?}", comp.sense);
        }
        0x08 => {}
        s if comp.host_status != 0 => prop_assert_eq!(s, 0),
        s => prop_assert!(false, "unexpected status {s:#x}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_commands_never_panic(
        profile in prop::sample::select(&["px02smf080", "hk4e", "exarray", "mk4001grzb"][..]),
        cmds in prop::collection::vec(cmd(), 1..25),
        faults in prop::collection::vec(0u8..6, 0..3),
    ) {
        let mut d = sim::open(&format!("{profile}?clock=virtual&capacity_blocks=4096")).unwrap();
        for (i, c) in cmds.iter().enumerate() {
            if let Some(f) = faults.get(i) {
                d.inject(match f {
                    0 => Fault::PowerCycle,
                    1 => Fault::LuReset,
                    2 => Fault::Busy(1),
                    3 => Fault::MediumError(i as u64),
                    4 => Fault::FailFormat,
                    _ => Fault::FailSanitize,
                });
            }
            check_one(&mut d, c)?;
            d.clock().advance(Duration::from_secs(7));
        }
        // The drive still answers INQUIRY afterwards.
        let mut b = [0u8; 36];
        let c = d.execute(&[0x12, 0, 0, 0, 36, 0], DataBuf::In(&mut b), Duration::from_secs(30)).unwrap();
        prop_assert_eq!(c.status, 0);
    }

    #[test]
    fn random_parameter_lists_for_list_commands(
        which in 0usize..6,
        len in 0u16..600,
        data in prop::collection::vec(any::<u8>(), 0..600),
        byte1 in any::<u8>(),
    ) {
        let mut d = sim::open("px02smf080?clock=virtual&capacity_blocks=4096").unwrap();
        let l = len.to_be_bytes();
        let cdb: Vec<u8> = match which {
            0 => vec![0x55, byte1 & 0x11, 0, 0, 0, 0, 0, l[0], l[1], 0],
            1 => vec![0x15, byte1 & 0x11, 0, 0, l[1], 0],
            2 => vec![0x42, 0, 0, 0, 0, 0, 0, l[0], l[1], 0],
            3 => vec![0x4C, byte1 & 0x02, 0x40 | (byte1 & 0x3F), 0, 0, 0, 0, l[0], l[1], 0],
            4 => vec![0x48, byte1 & 0xBF, 0, 0, 0, 0, 0, l[0], l[1], 0],
            _ => vec![0x04, byte1, 0, 0, 0, 0],
        };
        let c = Cmd { cdb, dir: 2, buf_len: 0, data };
        check_one(&mut d, &c)?;
    }
}
