#![no_main]
use libfuzzer_sys::fuzz_target;

// TCG Level 0 discovery (SECURITY PROTOCOL IN 0x01, ComID 0x0001): header and every feature
// descriptor.
fuzz_target!(|data: &[u8]| {
    if let Ok(l0) = sgctl::tcg::level0::parse(data) {
        let _ = serde_json::to_string(&l0);
    }
});
