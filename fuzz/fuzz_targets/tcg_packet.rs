#![no_main]
use libfuzzer_sys::fuzz_target;

// ComPacket / Packet / SubPacket framing of a TCG response, and the ComID management replies
// (GET_COMID, VERIFY/STACK_RESET responses).
fuzz_target!(|data: &[u8]| {
    let _ = sgctl::tcg::packet::parse(data);
    let _ = sgctl::tcg::comid::parse_get_comid(data);
    if data.len() >= 2 {
        let comid = u16::from_be_bytes([data[0], data[1]]);
        let _ = sgctl::tcg::comid::parse_response(&data[2..], comid);
    }
    let _ = sgctl::tcg::comid::ComIdState::from_data(data);
});
