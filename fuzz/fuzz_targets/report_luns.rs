#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

// REPORT LUNS parameter data (every LUN's address method decoded).
fuzz_target!(|data: &[u8]| {
    sgctl_fuzz::decode_all(data, Kind::Luns, false);
});
