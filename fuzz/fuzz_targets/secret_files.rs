#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::files::{read_secret, MAX_CREDENTIAL_BYTES};
use sgctl::ops::sign::{load_public, CertSigner};
use std::os::unix::fs::PermissionsExt;

// Credential files an admin writes: a PIN or PSID file (`--pin-file`, `--psid-file`), a
// signing key and a public key (PEM). Any content must give the secret or an error, never a
// panic; a PIN is the file's bytes as they are (no text conversion) without one trailing
// newline, 1 to 32 bytes; a key that loads signs, and its signature verifies.
fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let p = dir.path().join("secret");
    if std::fs::write(&p, data).is_err()
        || std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).is_err()
    {
        return;
    }
    let want = data
        .strip_suffix(b"\r\n")
        .or_else(|| data.strip_suffix(b"\n"))
        .unwrap_or(data);
    match read_secret(&p, "PIN", MAX_CREDENTIAL_BYTES) {
        Ok(b) => {
            assert_eq!(&b[..], want, "a PIN is the file's bytes");
            assert!((1..=MAX_CREDENTIAL_BYTES).contains(&b.len()));
        }
        Err(e) => {
            assert!(
                want.is_empty() || want.len() > MAX_CREDENTIAL_BYTES,
                "refused a valid PIN: {e}"
            );
            // Nothing of the content in the message.
            if want.len() >= 6 {
                if let Ok(s) = std::str::from_utf8(want) {
                    assert!(!e.to_string().contains(s), "the secret leaked: {e}");
                }
            }
        }
    }
    if let Ok(signer) = CertSigner::load(&p) {
        let sig = signer.sign_bytes(b"sgctl fuzz");
        assert!(signer.public().verify_strict(b"sgctl fuzz", &sig).is_ok());
    }
    let _ = load_public(&p);
});
