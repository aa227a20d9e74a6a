//! Property tests: every commands-area parser (and the text renderers on what it accepts) over
//! random truncation, extension and corruption of the real fixtures, and over random bytes.
//! The only acceptable outcomes are `Ok` or `Err`; a panic fails the test.

use proptest::prelude::*;
use sgctl::bytes::parse_inhex;
use sgctl::decode::{text, vpd_text};
use sgctl::scsi::mode::{self, HeaderKind};
use sgctl::scsi::{inquiry, read_capacity, report_luns, request_sense, rsoc, vpd};

fn load(pred: fn(&str) -> bool) -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/commands");
    let mut v = Vec::new();
    for d in std::fs::read_dir(root).unwrap().flatten() {
        if !d.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(d.path()).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            if name.ends_with(".hex") && pred(&name) {
                let t = std::fs::read_to_string(f.path()).unwrap();
                v.push(parse_inhex(&t).unwrap());
            }
        }
    }
    assert!(!v.is_empty());
    v
}

/// Applies one mutation: truncate, extend, or overwrite a few bytes.
fn mutate(seed: &[u8], kind: u8, at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    match kind % 4 {
        0 => v.truncate(at % (seed.len() + 1)),
        1 => v.extend_from_slice(bytes),
        2 => {
            for (i, b) in bytes.iter().enumerate() {
                if v.is_empty() {
                    break;
                }
                let n = v.len();
                v[(at + i * 7) % n] = *b;
            }
        }
        _ => {
            // Corrupt the length fields in the first 8 bytes, then truncate.
            for (i, b) in bytes.iter().take(8).enumerate() {
                if let Some(x) = v.get_mut(i) {
                    *x = *b;
                }
            }
            v.truncate(at % (seed.len() + 1));
        }
    }
    v
}

fn all_parsers(b: &[u8]) {
    if let Ok(i) = inquiry::parse(b) {
        let _ = text::inquiry(&i);
    }
    if let Ok(p) = vpd::decode(b) {
        let _ = vpd_text::page(&p);
        let _ = serde_json::to_string(&p);
    }
    if let Ok(r) = read_capacity::parse10(b) {
        let _ = text::readcap10(&r);
    }
    if let Ok(r) = read_capacity::parse16(b) {
        let _ = text::readcap16(&r);
    }
    if let Ok(l) = report_luns::parse(b) {
        let _ = text::luns(&l, 0);
    }
    if let Ok(s) = request_sense::parse(b) {
        let _ = text::sense(&s);
    }
    if let Ok(a) = rsoc::parse_all(b) {
        let _ = text::opcodes_all(&a);
    }
    if let Ok(o) = rsoc::parse_one(b) {
        let _ = text::opcodes_one(&o, 0, None);
    }
    for k in [HeaderKind::Six, HeaderKind::Ten] {
        if let Ok(m) = mode::parse(b, k) {
            let _ = text::mode(&m, None);
            let pages: Vec<&[u8]> = m.pages.iter().map(|p| p.raw.as_slice()).collect();
            let _ = mode::select_parameter_list(k, &m.block_descriptors, &pages);
        }
    }
    let _ = mode::parse_page(b);
}

fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| load(|_| true))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(
        idx in any::<usize>(),
        kind in any::<u8>(),
        at in any::<usize>(),
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let s = seeds();
        let seed = &s[idx % s.len()];
        all_parsers(&mutate(seed, kind, at, &bytes));
    }

    #[test]
    fn random_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..700)) {
        all_parsers(&b);
    }

    #[test]
    fn vpd_headers_with_random_bodies(
        code in prop::sample::select(vec![0x00u8, 0x80, 0x83, 0x86, 0x88, 0x89, 0xb0, 0xb1, 0xb2]),
        len in any::<u16>(),
        body in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut b = vec![0, code, (len >> 8) as u8, len as u8];
        b.extend(body);
        all_parsers(&b);
    }

    #[test]
    fn designator_lists_with_random_content(
        descs in proptest::collection::vec(
            (any::<u8>(), any::<u8>(), proptest::collection::vec(any::<u8>(), 0..40)), 0..8),
        lie in any::<u8>(),
    ) {
        // Well-formed descriptor headers around random designators, then one lying length.
        let mut body = Vec::new();
        for (b0, b1, d) in &descs {
            body.extend([*b0, *b1, 0, d.len() as u8]);
            body.extend(d);
        }
        body.extend([1, 3, 0, lie]);
        let mut page = vec![0, 0x83, (body.len() >> 8) as u8, body.len() as u8];
        page.extend(&body);
        all_parsers(&page);
        page[1] = 0x88;
        all_parsers(&page);
    }
}

#[test]
fn every_fixture_truncated_at_every_length() {
    for s in seeds() {
        for n in (0..=s.len().min(600)).chain([s.len()]) {
            all_parsers(&s[..n]);
        }
    }
}

/// Lying or cut lengths are errors, not guesses: every VPD fixture cut anywhere before the end
/// of its PAGE LENGTH fails to decode, and so does every RSOC list cut before its COMMAND DATA
/// LENGTH and every standard INQUIRY shorter than 36 bytes.
#[test]
fn truncation_before_the_declared_length_is_an_error() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/commands");
    let mut vpd_checked = 0;
    for d in std::fs::read_dir(root).unwrap().flatten() {
        if !d.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(d.path()).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            if !name.ends_with(".hex") {
                continue;
            }
            let b = parse_inhex(&std::fs::read_to_string(f.path()).unwrap()).unwrap();
            if name.contains("vpd_") && vpd::decode(&b).is_ok() {
                let end = 4 + usize::from(u16::from_be_bytes([b[2], b[3]]));
                for n in 0..end {
                    assert!(vpd::decode(&b[..n]).is_err(), "{name} cut at {n}");
                }
                vpd_checked += 1;
            }
            if name.starts_with("rsoc_all") || name == "opcodes.hex" {
                let end = 4 + u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize;
                assert!(rsoc::parse_all(&b).is_ok());
                for n in 0..end {
                    assert!(rsoc::parse_all(&b[..n]).is_err(), "{name} cut at {n}");
                }
            }
            if name.starts_with("inq") {
                assert!(inquiry::parse(&b).is_ok());
                for n in 0..36 {
                    assert!(inquiry::parse(&b[..n]).is_err(), "{name} cut at {n}");
                    // The best-effort decoder keeps what is there and lists the cut.
                    match inquiry::parse_best(&b[..n]) {
                        Ok(i) => assert!(n >= 5 && !i.problems.is_empty(), "{name} cut at {n}"),
                        Err(_) => assert!(n < 5, "{name} cut at {n}"),
                    }
                }
            }
        }
    }
    assert!(vpd_checked >= 20, "{vpd_checked}");
}
