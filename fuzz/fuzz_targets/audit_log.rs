#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::ops::audit::chain::{append, sha256_hex, verify, GENESIS, PREV};

// An audit log is a file whoever can write it may have edited: `audit verify` must give a
// verdict for any bytes (no panic), and appending after any content must chain the new record
// to the last non-empty line as `verify` reads it.
fuzz_target!(|data: &[u8]| {
    let v = verify(data, Some("0000"));
    assert!(!v.ok(), "a head no line hashes to is always a problem");
    let v = verify(data, None);
    if v.ok() {
        assert_eq!(v.records, v.chained + v.legacy);
    }
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let p = dir.path().join("audit.jsonl");
    if std::fs::write(&p, data).is_err() {
        return;
    }
    append(&p, &serde_json::json!({"event": "fuzz"})).expect("append");
    let after = std::fs::read(&p).expect("read back");
    assert!(after.starts_with(data), "append changed what was there");
    let last = after[..after.len() - 1]
        .split(|&b| b == b'\n')
        .next_back()
        .expect("the appended line");
    let rec: serde_json::Value = serde_json::from_slice(last).expect("the appended record");
    let want = data
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .map_or_else(|| GENESIS.to_string(), sha256_hex);
    assert_eq!(rec[PREV], want.as_str());
});
