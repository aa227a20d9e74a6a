#![no_main]
use libfuzzer_sys::fuzz_target;

/// (page code, subpage) of every decoded mode page, SPF set where a subpage applies.
const PAGES: &[(u8, Option<u8>)] = &[
    (0x01, None),
    (0x08, None),
    (0x0a, None),
    (0x19, None),
    (0x19, Some(0x01)),
    (0x19, Some(0x02)),
    (0x1c, None),
    (0x0a, Some(0x01)),
    (0x00, None),
    (0x3f, Some(0xff)),
];

// Every mode page decoder: byte 0 of the input picks the page, the rest is the page with its
// PAGE CODE (and SPF + SUBPAGE CODE) forced.
fuzz_target!(|data: &[u8]| {
    let Some((sel, mut page)) = sgctl_fuzz::select(data) else {
        return;
    };
    if let Some(&(code, sub)) = PAGES.get(usize::from(sel)) {
        let ps = page.first().map(|b| b & 0x80).unwrap_or(0);
        match sub {
            None => sgctl_fuzz::force(&mut page, 0, ps | code),
            Some(s) => {
                sgctl_fuzz::force(&mut page, 0, ps | 0x40 | code);
                sgctl_fuzz::force(&mut page, 1, s);
            }
        }
    }
    if let Ok(p) = sgctl::scsi::mode::parse_page(&page) {
        let _ = serde_json::to_string(&p);
    }
});
