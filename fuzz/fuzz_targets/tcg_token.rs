#![no_main]
use libfuzzer_sys::fuzz_target;

// The TCG token stream (atoms, lists, names, control tokens).
fuzz_target!(|data: &[u8]| {
    let _ = sgctl::tcg::token::parse(data);
});
