#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::transport::{DataBuf, Transport};
use std::time::Duration;

// A sim state file (JSON written by the drive, but a file anyone can edit): loading it must
// either refuse with an error or give a drive that answers commands without panicking.
fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drive.json");
    loop {
        // libFuzzer's timer signal can interrupt the write (EINTR): try again.
        match std::fs::write(&path, data) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => break r.unwrap(),
        }
    }
    let spec = format!("px02smf080?clock=virtual&state={}", path.display());
    let Ok(mut dev) = sgctl::sim::open(&spec) else {
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
