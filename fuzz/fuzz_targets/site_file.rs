#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::ops::record_fields::{check_text, parse_site, RecordInputs};

// A site file (`--site FILE`, TOML) is text an admin edits and a certificate copies: any bytes
// must give the inputs or the list of what is wrong, never a panic; every text accepted is one
// `check_text` accepts (no control character reaches a record), and overlaying it is harmless.
fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_site(text) {
        Ok(inputs) => {
            let texts = [
                inputs.asset_tag.as_deref(),
                inputs.classification_before.as_deref(),
                inputs.classification_after.as_deref(),
                inputs.data_backup.as_deref(),
                inputs.enclosure_slot.as_deref(),
                inputs.sanitized_by.name.as_deref(),
                inputs.validated_by.name.as_deref(),
            ];
            for t in texts.into_iter().flatten() {
                assert!(check_text("field", t).is_ok(), "accepted {t:?}");
            }
            for (k, v) in &inputs.asset_tags {
                assert!(check_text("serial", k).is_ok() && check_text("tag", v).is_ok());
            }
            let mut base = RecordInputs::default();
            base.overlay(&inputs);
            let _ = base.asset_tag_for("S1", Some("5000c500000000cc"), 1);
            let _ = inputs.sanitized_by.line();
        }
        Err(problems) => assert!(!problems.is_empty(), "an error lists its problems"),
    }
});
