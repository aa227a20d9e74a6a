#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

// Sense data (fixed and descriptor format), as REQUEST SENSE and every CHECK CONDITION return it.
fuzz_target!(|data: &[u8]| {
    if let Ok(s) = sgctl::sense::Sense::parse(data) {
        let _ = s.summary();
        let _ = s.progress_percent();
    }
    let _ = sgctl::scsi::request_sense::parse(data);
    sgctl_fuzz::decode_all(data, Kind::Sense, false);
});
