#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

/// (page, subpage) of every log page decoder (sgctl logs), then a vendor page.
const PAGES: &[(u8, u8)] = &[
    (0x00, 0x00),
    (0x00, 0xff),
    (0x02, 0x00),
    (0x03, 0x00),
    (0x05, 0x00),
    (0x06, 0x00),
    (0x08, 0x00),
    (0x0d, 0x00),
    (0x0d, 0x01),
    (0x0d, 0x02),
    (0x0e, 0x00),
    (0x0e, 0x01),
    (0x10, 0x00),
    (0x11, 0x00),
    (0x15, 0x00),
    (0x15, 0x01),
    (0x18, 0x00),
    (0x19, 0x00),
    (0x19, 0x01),
    (0x19, 0x20),
    (0x1a, 0x00),
    (0x2f, 0x00),
    (0x30, 0x00),
];

// The LOG SENSE page parser and each page decoder: byte 0 of the input picks the page, the
// rest is the page with PAGE CODE (SPF) and SUBPAGE CODE forced; parse, decode, render, JSON,
// and the multi-page splitter on the raw input.
fuzz_target!(|data: &[u8]| {
    let Some((sel, mut page)) = sgctl_fuzz::select(data) else {
        return;
    };
    if let Some(&(code, sub)) = PAGES.get(usize::from(sel)) {
        let flags = page.first().map(|b| b & 0x80).unwrap_or(0);
        let spf = if sub != 0 { 0x40 } else { 0 };
        sgctl_fuzz::force(&mut page, 0, flags | spf | code);
        sgctl_fuzz::force(&mut page, 1, sub);
    }
    sgctl_fuzz::decode_all(&page, Kind::Logpage, false);
    for p in sgctl::logpage::split_pages(data) {
        if let Ok(lp) = sgctl::logpage::parse(p) {
            let d = sgctl::logpage::decode(&lp);
            let _ = sgctl::logpage::text::render(&d, true);
        }
    }
});
