#![no_main]
use libfuzzer_sys::fuzz_target;
// The mapping: sgctl-sim's test-support ring in memory, filled from the fuzz input — what a
// misbehaving (or compromised) kernel module could leave in the shared ring.
use sgctl::tcmu::ring::testing::VecMem;
use sgctl::tcmu::ring::{RingServer, MB_CMD_HEAD, MB_CMD_TAIL, MB_VERSION};
use sgctl::transport::Transport;

// TCMU command-ring entries on a fake ring: mailbox, head/tail, entry lengths, iovecs, CDB
// offsets, TMR entries. Byte 0 of the input chooses whether the mailbox is kept valid (version
// 2, ring at 128, 1 KiB) so most inputs reach the entry decoder.
fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut v = rest.to_vec();
    v.resize(v.len().max(128 + 1024 + 8192), 0);
    if mode & 1 == 0 {
        v[MB_VERSION.range()].copy_from_slice(&2u16.to_ne_bytes());
        v[4..8].copy_from_slice(&128u32.to_ne_bytes());
        v[8..12].copy_from_slice(&1024u32.to_ne_bytes());
        let head = u32::from_ne_bytes(v[MB_CMD_HEAD.range()].try_into().unwrap());
        let tail = u32::from_ne_bytes(v[MB_CMD_TAIL.range()].try_into().unwrap());
        if mode & 2 == 0 {
            v[MB_CMD_HEAD.range()].copy_from_slice(&((head % 1024) & !7).to_ne_bytes());
            v[MB_CMD_TAIL.range()].copy_from_slice(&((tail % 1024) & !7).to_ne_bytes());
        }
    }
    let mut mem = VecMem(v);
    let dev = sgctl::sim::open("px02smf080?clock=virtual&capacity_blocks=4096").unwrap();
    let mut server = RingServer::new(dev);
    for _ in 0..2 {
        if server.process(&mut mem).is_err() {
            break;
        }
    }
    let _ = server.transport.address();
});
