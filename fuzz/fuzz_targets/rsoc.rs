#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

// REPORT SUPPORTED OPERATION CODES: all commands (with and without timeouts descriptors) and one.
fuzz_target!(|data: &[u8]| {
    sgctl_fuzz::decode_all(data, Kind::Opcodes, false);
    sgctl_fuzz::decode_all(data, Kind::Opcode, false);
});
