#![no_main]
use libfuzzer_sys::fuzz_target;

// Method results (a response's token payload: values, end of data, status list) and method
// calls as the simulator's TPer receives them.
fuzz_target!(|data: &[u8]| {
    let _ = sgctl::tcg::method::parse_response(data);
    let _ = sgctl::tcg::method::parse_call(data);
});
