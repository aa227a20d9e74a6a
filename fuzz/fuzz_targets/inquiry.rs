#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

// Standard INQUIRY data.
fuzz_target!(|data: &[u8]| {
    sgctl_fuzz::decode_all(data, Kind::Inquiry, false);
});
