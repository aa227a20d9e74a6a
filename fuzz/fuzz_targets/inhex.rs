#![no_main]
use libfuzzer_sys::fuzz_target;

// The --inhex reader (sg3_utils hex text: bytes, commas, # comments, hexdump offsets).
fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = sgctl::bytes::parse_inhex(&s);
});
