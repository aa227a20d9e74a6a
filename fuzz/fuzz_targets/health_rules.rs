#![no_main]
use libfuzzer_sys::fuzz_target;

// sgctl health --rules FILE (a TOML subset handed in by users) and --max/--min flags.
fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = sgctl::ops::health::rules::parse_file(&s);
    let _ = sgctl::ops::health::rules::parse_flag(sgctl::ops::health::rules::Bound::Max, &s);
});
