#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::sim;
use sgctl::transport::{DataBuf, Transport};
use std::time::Duration;

const PROFILES: &[&str] = &["px02smf080", "hk4e", "exarray", "mk4001grzb", "px03snf080"];

/// Reads commands from the input: [cdb length (low nibble + 6), cdb..., direction, buffer
/// length (be16), parameter-list length, parameter list...]. The kernel hands the simulator
/// exactly these through TCMU: any CDB, any data-out parameter list, any allocation length.
fn commands(mut d: &[u8]) -> Vec<(Vec<u8>, u8, usize, Vec<u8>)> {
    let mut out = Vec::new();
    while out.len() < 16 {
        let Some((&l, rest)) = d.split_first() else {
            break;
        };
        let n = 6 + usize::from(l & 0x0f) * 2;
        if rest.len() < n + 4 {
            break;
        }
        let cdb = rest[..n].to_vec();
        let dir = rest[n] % 3;
        let buf_len = usize::from(u16::from_be_bytes([rest[n + 1], rest[n + 2]])) % 9000;
        let plen = usize::from(rest[n + 3]) * 4;
        let after = &rest[n + 4..];
        let data = after[..plen.min(after.len())].to_vec();
        d = &after[plen.min(after.len())..];
        out.push((cdb, dir, buf_len, data));
    }
    out
}

// The simulator's CDB and parameter-list decoding (what the kernel feeds it through TCMU):
// every answer must be well formed and the drive must keep answering.
fuzz_target!(|data: &[u8]| {
    let Some((&p, rest)) = data.split_first() else {
        return;
    };
    let profile = PROFILES[usize::from(p) % PROFILES.len()];
    let mut dev = sim::open(&format!("{profile}?clock=virtual&capacity_blocks=4096")).unwrap();
    for (cdb, dir, buf_len, param) in commands(rest) {
        let mut buf = vec![0u8; buf_len];
        let db = match dir {
            0 => DataBuf::None,
            1 => DataBuf::In(&mut buf),
            _ => DataBuf::Out(&param),
        };
        if let Ok(c) = dev.execute(&cdb, db, Duration::from_secs(30)) {
            assert!(
                c.resid <= buf_len.max(param.len()),
                "resid {} > buffer",
                c.resid
            );
            if c.status == 0x02 {
                assert!(
                    sgctl::sense::Sense::parse(&c.sense).is_ok(),
                    "bad sense {:02x?}",
                    c.sense
                );
            }
        }
        dev.clock().advance(Duration::from_secs(3));
    }
    let mut b = [0u8; 36];
    let c = dev
        .execute(
            &[0x12, 0, 0, 0, 36, 0],
            DataBuf::In(&mut b),
            Duration::from_secs(30),
        )
        .unwrap();
    assert_eq!(c.status, 0, "INQUIRY after the sequence failed");
});
