#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::transport::{DataBuf, Transport};
use std::time::Duration;

// A sim state file (JSON written by the drive, but a file anyone can edit): loading it must
// either refuse with an error or give a drive that answers commands without panicking.
fuzz_target!(|data: &[u8]| {
    // The same checks as a `state=` file, from the bytes (no file system in the loop).
    let Ok(mut dev) = sgctl::sim::open_state_bytes("px02smf080?clock=virtual", data) else {
        return;
    };
    let mut b = vec![0u8; 512];
    for cdb in [
        &[0x00u8, 0, 0, 0, 0, 0][..],
        &[0x12, 0, 0, 0, 96, 0],
        &[0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0],
        &[0x03, 0, 0, 0, 252, 0],
        &[0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0],
        &[0x4d, 0x40 | 0x11, 0, 0, 0, 0, 0, 2, 0, 0],
        &[0x5a, 0, 0x3f, 0, 0, 0, 0, 2, 0, 0],
    ] {
        let _ = dev.execute(cdb, DataBuf::In(&mut b), Duration::from_secs(30));
    }
});
