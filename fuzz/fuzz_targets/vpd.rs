#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

/// Every page code with a decoder, then codes without one (shown in hex).
const PAGES: &[u8] = &[
    0x00, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8f,
    0x90, 0x91, 0x92, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xc0,
];

/// B0h–B5h once more as the SSC pages (peripheral device type 01h, a tape drive).
const SSC_PAGES: &[u8] = &[0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5];

// Every VPD page: byte 0 of the input picks the page (so each decoder gets its share), the
// rest is the page with its page code forced; the dispatching decoder and the renderer run.
fuzz_target!(|data: &[u8]| {
    let Some((sel, mut page)) = sgctl_fuzz::select(data) else {
        return;
    };
    let sel = usize::from(sel);
    if let Some(&code) = PAGES.get(sel) {
        sgctl_fuzz::force(&mut page, 1, code);
    } else if let Some(&code) = SSC_PAGES.get(sel - PAGES.len()) {
        sgctl_fuzz::force(&mut page, 0, 0x01);
        sgctl_fuzz::force(&mut page, 1, code);
    }
    sgctl_fuzz::decode_all(&page, Kind::Vpd, false);
});
