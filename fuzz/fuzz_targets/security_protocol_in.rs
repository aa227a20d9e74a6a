#![no_main]
use libfuzzer_sys::fuzz_target;

// SECURITY PROTOCOL IN protocol 0x00 (supported security protocols list) and the CDB decoder
// the simulator uses.
fuzz_target!(|data: &[u8]| {
    let _ = sgctl::scsi::security_protocol::parse_supported_protocols(data);
    let _ = sgctl::scsi::security_protocol::parse_cdb(data);
});
