#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

// READ CAPACITY (10) and (16) parameter data.
fuzz_target!(|data: &[u8]| {
    sgctl_fuzz::decode_all(data, Kind::Readcap10, false);
    sgctl_fuzz::decode_all(data, Kind::Readcap16, false);
});
