#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::decode::Kind;

/// Every SES page decoder (`sgctl decode --as ses-*`) with the page code it reads after the
/// Configuration page.
const KINDS: &[(Kind, u8)] = &[
    (Kind::SesConfig, 0x01),
    (Kind::SesStatus, 0x02),
    (Kind::SesElementDesc, 0x07),
    (Kind::SesAddlStatus, 0x0a),
];

// The SES pages: byte 0 of the input picks the decoder (bits 1-0); with bit 7 clear the rest is
// laid out as the Configuration page followed by the decoded page (both page codes forced, the
// second at the offset the first's PAGE LENGTH gives), with bit 7 set the bytes are taken as
// they are (the seeds: whole captures, several pages back to back). The Enclosure Control
// builder runs on every page of the input too.
fuzz_target!(|data: &[u8]| {
    let Some((sel, mut pages)) = sgctl_fuzz::select(data) else {
        return;
    };
    let (kind, code) = KINDS[usize::from(sel & 3)];
    if sel & 0x80 == 0 {
        sgctl_fuzz::force(&mut pages, 0, 0x01);
        if let Some(l) = pages.get(2..4) {
            let len = 4 + usize::from(u16::from_be_bytes([l[0], l[1]]));
            sgctl_fuzz::force(&mut pages, len, code);
        }
    }
    sgctl_fuzz::decode_all(&pages, kind, false);
    if let Ok(c) = sgctl::ses::decode_config(&pages) {
        for (_, p) in sgctl::ses::split_pages(&pages) {
            let req = sgctl::ses::LedRequest {
                ident: Some(sel & 0x10 != 0),
                fault: Some(sel & 0x20 != 0),
            };
            let _ = sgctl::ses::control_page_set_leds(&c.page, p, u32::from(sel & 0x0f), req);
        }
    }
});
