#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

// MODE SENSE (6) and (10) parameter data: header, block descriptors, every page in it.
fuzz_target!(|data: &[u8]| {
    sgctl_fuzz::decode_all(data, Kind::Mode, false);
    sgctl_fuzz::decode_all(data, Kind::Mode, true);
});
