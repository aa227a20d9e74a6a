//! Signed certificates: Ed25519 (RFC 8032, the `ed25519-dalek` crate) over the
//! SHA-256 of each drive record, so `sgctl certificate verify` says which record changed and
//! whether the signature is the signer's.
//!
//! The signature block added to the certificate JSON:
//!
//! ```json
//! "signature": {
//!   "algorithm": "ed25519",
//!   "public_key": "<SPKI PEM>",
//!   "key_fingerprint": "<SHA-256 of the 32-byte public key, hex>",
//!   "record_sha256": ["<SHA-256 of record 1's compact JSON>", ...],
//!   "value": "<64-byte signature, hex>"
//! }
//! ```
//!
//! The signed message is [`message`]: `sgctl-certificate-v1\n` followed by one record hash and a
//! newline per record. It is short and plain so a third party can check it:
//! `openssl pkeyutl -verify -pubin -inkey key.pub -rawin -in msg -sigfile sig`.
//!
//! Keys are files (PKCS#8 PEM private key, mode 0600; SPKI PEM public key in `KEY.pub`), named
//! by `--signing-key FILE` or `$SGCTL_SIGNING_KEY` — never by a command-line value, since argv
//! is world-readable in /proc. `sgctl certificate keygen` writes a pair; `openssl genpkey
//! -algorithm ed25519` keys work too.

use crate::error::{Error, Invalid, Result};
use crate::ops::audit::chain::{hex, sha256_hex};
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::Serialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Environment variable naming the signing key file.
pub const SIGNING_KEY_ENV: &str = "SGCTL_SIGNING_KEY";
/// First line of the signed message.
pub(crate) const DOMAIN: &str = "sgctl-certificate-v1";

/// A loaded signing key and where it came from.
pub struct CertSigner {
    key: SigningKey,
    /// The key file.
    pub source: PathBuf,
}

impl std::fmt::Debug for CertSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key itself.
        write!(f, "CertSigner({})", self.source.display())
    }
}

impl CertSigner {
    /// `--signing-key FILE`, else `$SGCTL_SIGNING_KEY`, else no signing (Ok(None)).
    /// Called before a job starts so a bad key fails before any drive is touched.
    pub fn resolve(flag: Option<&Path>) -> Result<Option<CertSigner>> {
        let path = flag.map(Path::to_path_buf).or_else(|| {
            std::env::var_os(SIGNING_KEY_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        path.map(|p| CertSigner::load(&p)).transpose()
    }

    /// Loads a PKCS#8 PEM Ed25519 private key; refuses files others can read.
    pub fn load(path: &Path) -> Result<CertSigner> {
        use std::os::unix::fs::PermissionsExt;
        let ctx = || format!("signing key {}", path.display());
        let meta = std::fs::metadata(path).map_err(|e| Error::io(ctx(), e))?;
        if meta.permissions().mode() & 0o077 != 0 {
            return Err(Invalid::KeyReadableByOthers {
                path: path.display().to_string(),
                mode: meta.permissions().mode() & 0o777,
            }
            .into());
        }
        let pem = zeroize::Zeroizing::new(
            std::fs::read_to_string(path).map_err(|e| Error::io(ctx(), e))?,
        );
        // The decoder's error says nothing about the key bytes; keep it that way.
        let key = SigningKey::from_pkcs8_pem(&pem).map_err(|_| Invalid::NotPrivateKey {
            path: path.display().to_string(),
        })?;
        Ok(CertSigner {
            key,
            source: path.to_path_buf(),
        })
    }

    /// The public half.
    pub fn public(&self) -> VerifyingKey {
        self.key.verifying_key()
    }

    /// Signs a message (countersignatures, manifests).
    pub fn sign_bytes(&self, msg: &[u8]) -> Signature {
        self.key.sign(msg)
    }

    /// The signature block for these records.
    pub fn sign_records(&self, records: &[Value]) -> Result<Value> {
        self.sign_hashes(record_hashes(records)?)
    }

    /// [`Self::sign_records`] for records whose hashes ([`record_hashes`]) are known.
    pub(crate) fn sign_hashes(&self, hashes: Vec<String>) -> Result<Value> {
        let sig = self.key.sign(&message(&hashes));
        let vk = self.public();
        Ok(json!({
            "algorithm": "ed25519",
            "public_key": public_pem(&vk)?,
            "key_fingerprint": fingerprint(&vk),
            "record_sha256": hashes,
            "value": hex(&sig.to_bytes()),
        }))
    }
}

/// SHA-256 (hex) of the 32-byte public key: what `keygen` and `verify` print.
pub fn fingerprint(vk: &VerifyingKey) -> String {
    sha256_hex(vk.as_bytes())
}

/// The SPKI PEM of a public key.
pub(crate) fn public_pem(vk: &VerifyingKey) -> Result<String> {
    vk.to_public_key_pem(LineEnding::LF)
        .map_err(|e| Error::io("public key", std::io::Error::other(e.to_string())))
}

/// The hash of each record's compact JSON (serde_json, members in file order).
pub(crate) fn record_hashes(records: &[Value]) -> Result<Vec<String>> {
    crate::ops::par::try_map(records, |r| {
        serde_json::to_vec(r)
            .map(|b| sha256_hex(&b))
            .map_err(|e| Error::io("certificate record", std::io::Error::other(e)))
    })
}

/// The hash of each record as written in the certificate `content`: its text made compact
/// (`crate::ops::audit::chain::compact_text`), never a parsed and re-serialised copy, so
/// no number is misread into a false "changed". `None` when there is no readable
/// `certificates` array.
pub fn written_record_hashes(content: &[u8]) -> Option<Vec<String>> {
    #[derive(serde::Deserialize)]
    struct Doc<'a> {
        #[serde(borrow)]
        certificates: Vec<&'a serde_json::value::RawValue>,
    }
    let d: Doc<'_> = serde_json::from_slice(content).ok()?;
    Some(
        d.certificates
            .iter()
            .map(|r| sha256_hex(&crate::ops::audit::chain::compact_text(r.get().as_bytes())))
            .collect(),
    )
}

/// The signed message.
pub fn message(hashes: &[String]) -> Vec<u8> {
    let mut m = format!("{DOMAIN}\n");
    for h in hashes {
        m.push_str(h);
        m.push('\n');
    }
    m.into_bytes()
}

/// Writes a new key pair: `path` (PKCS#8 PEM, created 0600, never overwritten) and `path.pub`.
pub fn generate_key(path: &Path) -> Result<VerifyingKey> {
    let ctx = || format!("signing key {}", path.display());
    let mut seed = zeroize::Zeroizing::new([0u8; 32]);
    {
        use std::io::Read;
        let mut r = std::fs::File::open("/dev/urandom").map_err(|e| Error::io(ctx(), e))?;
        r.read_exact(seed.as_mut())
            .map_err(|e| Error::io(ctx(), e))?;
    }
    let key = SigningKey::from_bytes(&seed);
    let pem = key
        .to_pkcs8_pem(LineEnding::LF)
        .map_err(|e| Error::io(ctx(), std::io::Error::other(e.to_string())))?;
    let pub_path = pub_path(path);
    if pub_path.exists() {
        return Err(Invalid::KeyExists {
            path: pub_path.display().to_string(),
        }
        .into());
    }
    // Through the file layer: a fresh name only (never over an existing file or a symlink),
    // mode 0600 for the private half, flushed before it is renamed into place.
    crate::files::write_atomic(
        path,
        pem.as_bytes(),
        crate::files::MODE_SECRET,
        crate::files::Replace::Never,
    )?;
    let vk = key.verifying_key();
    crate::files::write_atomic(
        &pub_path,
        public_pem(&vk)?.as_bytes(),
        crate::files::MODE_PUBLIC,
        crate::files::Replace::Never,
    )?;
    Ok(vk)
}

/// `KEY.pub`.
pub fn pub_path(key: &Path) -> PathBuf {
    let mut s = key.as_os_str().to_owned();
    s.push(".pub");
    PathBuf::from(s)
}

/// Reads an SPKI PEM public key (`KEY.pub`, or `openssl pkey -pubout`).
pub fn load_public(path: &Path) -> Result<VerifyingKey> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::io(format!("public key {}", path.display()), e))?;
    VerifyingKey::from_public_key_pem(&text).map_err(|_| {
        Error::from(Invalid::NotPublicKey {
            path: path.display().to_string(),
        })
    })
}

/// One problem found by [`verify`].
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Problem {
    /// Where: `record 2`, `signature`, `document`.
    pub position: String,
    /// `not_json`, `unsigned`, `record_changed`, `records_added_or_removed`, `bad_signature`,
    /// `wrong_key`, `malformed_signature`.
    pub kind: &'static str,
    /// What it means.
    pub message: String,
}

/// Result of [`verify`].
#[derive(Debug, Clone, Serialize, Default)]
pub struct Verification {
    /// Records in the certificate.
    pub records: usize,
    /// Serial numbers of the records, in order.
    pub serials: Vec<String>,
    /// Fingerprint of the key that signed (from the certificate).
    pub signer_fingerprint: Option<String>,
    /// Whether the signer was checked against a trusted public key (`--pubkey`).
    pub key_trusted: bool,
    /// Everything wrong. Empty: intact and signed by that key.
    pub problems: Vec<Problem>,
}

impl Verification {
    /// No problem found.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks a certificate document. With `trusted`, the signer must be that key; without it the
/// embedded public key is used (integrity only: anyone can sign with their own key).
pub fn verify(content: &[u8], trusted: Option<&VerifyingKey>) -> Verification {
    let mut v = Verification {
        key_trusted: trusted.is_some(),
        ..Verification::default()
    };
    let mut prob = |position: String, kind, message: String| {
        v.problems.push(Problem {
            position,
            kind,
            message,
        })
    };
    let doc: Value = match serde_json::from_slice(content) {
        Ok(d) => d,
        Err(e) => {
            prob(
                format!("line {} column {}", e.line(), e.column()),
                "not_json",
                format!("not JSON at line {} column {}: {e}", e.line(), e.column()),
            );
            return v;
        }
    };
    let records: Vec<Value> = match doc.get("certificates") {
        Some(Value::Array(a)) => a.clone(),
        _ => {
            prob(
                "document".into(),
                "not_json",
                "no \"certificates\" array: not an sgctl certificate".into(),
            );
            return v;
        }
    };
    let serials: Vec<String> = records
        .iter()
        .map(|r| r["drive"]["serial"].as_str().unwrap_or("?").to_string())
        .collect();
    let Some(sig) = doc.get("signature") else {
        prob(
            "signature".into(),
            "unsigned",
            "the certificate is not signed (written without --signing-key/$SGCTL_SIGNING_KEY)"
                .into(),
        );
        v.records = records.len();
        v.serials = serials;
        return v;
    };
    let listed: Vec<String> = sig["record_sha256"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|h| h.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    let actual = written_record_hashes(content)
        .unwrap_or_else(|| record_hashes(&records).unwrap_or_default());
    for (i, (a, l)) in actual.iter().zip(&listed).enumerate() {
        if a != l {
            prob(
                format!("record {}", i + 1),
                "record_changed",
                format!(
                    "record {} (serial {}) changed: its SHA-256 is not the signed one",
                    i + 1,
                    serials[i]
                ),
            );
        }
    }
    if actual.len() != listed.len() {
        prob(
            format!("record {}", actual.len().min(listed.len()) + 1),
            "records_added_or_removed",
            format!(
                "{} records, {} signed: records were added or removed",
                actual.len(),
                listed.len()
            ),
        );
    }
    let embedded = sig["public_key"]
        .as_str()
        .and_then(|p| VerifyingKey::from_public_key_pem(p).ok());
    let value = sig["value"].as_str().and_then(unhex);
    let (Some(embedded), Some(value)) = (embedded, value) else {
        prob(
            "signature".into(),
            "malformed_signature",
            "signature block lacks a readable public_key or value".into(),
        );
        return v;
    };
    v.signer_fingerprint = Some(fingerprint(&embedded));
    let key = match trusted {
        Some(t) if t != &embedded => {
            prob(
                "signature".into(),
                "wrong_key",
                format!(
                    "signed by key {} , not by the trusted key {}",
                    fingerprint(&embedded),
                    fingerprint(t)
                ),
            );
            *t
        }
        Some(t) => *t,
        None => embedded,
    };
    let sig_ok = <[u8; 64]>::try_from(value.as_slice())
        .ok()
        .map(|b| Signature::from_bytes(&b))
        .is_some_and(|s| key.verify(&message(&listed), &s).is_ok());
    if !sig_ok {
        prob(
            "signature".into(),
            "bad_signature",
            "the signature does not verify: the record list or the signature was replaced".into(),
        );
    }
    v.records = records.len();
    v.serials = serials;
    v
}

/// Hex to bytes (None when not hex).
pub(crate) fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn signed_doc(signer: &CertSigner) -> Vec<u8> {
        let recs = vec![
            json!({"job": "sanitize", "drive": {"serial": "A1"}, "outcome": "success"}),
            json!({"job": "sanitize", "drive": {"serial": "B2"}, "outcome": "success"}),
        ];
        let sig = signer.sign_records(&recs).unwrap();
        serde_json::to_vec_pretty(&json!({"certificates": recs, "signature": sig})).unwrap()
    }

    fn keypair(d: &Path) -> (CertSigner, VerifyingKey) {
        let k = d.join("k.pem");
        let vk = generate_key(&k).unwrap();
        assert_eq!(
            std::fs::metadata(&k).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(load_public(&pub_path(&k)).unwrap(), vk);
        (CertSigner::load(&k).unwrap(), vk)
    }

    #[test]
    fn sign_then_verify_and_detect_changes() {
        let d = tempfile::tempdir().unwrap();
        let (s, vk) = keypair(d.path());
        let doc = signed_doc(&s);
        let v = verify(&doc, Some(&vk));
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!(v.serials, vec!["A1", "B2"]);

        // The serial's JSON string only: a bare "B2" also turns up, now and then, in the
        // random key's or signature's encoding, which made this test fail once in a while.
        let text = String::from_utf8(doc.clone()).unwrap();
        assert_eq!(text.matches("\"serial\": \"B2\"").count(), 1);
        let changed = text.replace("\"serial\": \"B2\"", "\"serial\": \"B3\"");
        let v = verify(changed.as_bytes(), Some(&vk));
        assert_eq!(v.problems.len(), 1);
        assert_eq!(v.problems[0].position, "record 2");

        let other = tempfile::tempdir().unwrap();
        let (s2, _) = keypair(other.path());
        let forged = signed_doc(&s2);
        let v = verify(&forged, Some(&vk));
        assert_eq!(v.problems[0].kind, "wrong_key");
        // Without a trusted key the forged one is self-consistent: only --pubkey proves who.
        assert!(verify(&forged, None).ok());
    }

    /// Every sanitize progress value (n·100/65536) in signed records verifies: no genuine
    /// certificate reads as changed because a float was misread when checking it.
    #[test]
    fn every_progress_value_verifies() {
        let d = tempfile::tempdir().unwrap();
        let (s, vk) = keypair(d.path());
        let recs: Vec<Value> = (0..256u32)
            .map(|chunk| {
                let trail: Vec<Value> = (0..256u32)
                    .map(|i| {
                        json!({"progress_percent": f64::from(chunk * 256 + i) * 100.0 / 65536.0})
                    })
                    .collect();
                json!({"drive": {"serial": format!("S{chunk}")}, "sense_trail": trail})
            })
            .collect();
        let sig = s.sign_records(&recs).unwrap();
        let doc =
            serde_json::to_vec_pretty(&json!({"certificates": recs, "signature": sig})).unwrap();
        let v = verify(&doc, Some(&vk));
        assert_eq!(v.records, 256);
        assert!(
            v.ok(),
            "{} problems, first {:?}",
            v.problems.len(),
            v.problems.first()
        );
    }

    /// The hash covers the record as written: digits a re-serialisation would write
    /// differently still verify; a changed digit does not.
    #[test]
    fn record_hash_is_over_the_written_text() {
        let d = tempfile::tempdir().unwrap();
        let (s, vk) = keypair(d.path());
        let rec = "{\"drive\":{\"serial\":\"A1\"},\"p\":99.902343750000000001}";
        let h = sha256_hex(rec.as_bytes());
        let sig = hex(&s.key.sign(&message(std::slice::from_ref(&h))).to_bytes());
        let doc = format!(
            "{{\"certificates\": [\n  {rec}\n],\n\"signature\": {{\"public_key\": {}, \
             \"record_sha256\": [\"{h}\"], \"value\": \"{sig}\"}}}}",
            serde_json::to_string(&public_pem(&vk).unwrap()).unwrap()
        );
        let v = verify(doc.as_bytes(), Some(&vk));
        assert!(v.ok(), "{:?}", v.problems);
        let changed = doc.replace("99.90234375000", "99.90234375001");
        assert_eq!(
            verify(changed.as_bytes(), Some(&vk)).problems[0].kind,
            "record_changed"
        );
    }

    #[test]
    fn key_file_checks() {
        let d = tempfile::tempdir().unwrap();
        let k = d.path().join("k.pem");
        generate_key(&k).unwrap();
        assert!(generate_key(&k).is_err(), "never overwrite a key");
        std::fs::set_permissions(&k, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = CertSigner::load(&k).unwrap_err().to_string();
        assert!(e.contains("chmod 600"), "{e}");
        let bad = d.path().join("bad.pem");
        std::fs::write(
            &bad,
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
        )
        .unwrap();
        std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(CertSigner::load(&bad).is_err());
    }

    #[test]
    fn garbage_never_panics() {
        for b in [
            &b""[..],
            b"{}",
            b"{\"certificates\": 1}",
            b"{\"certificates\": [], \"signature\": {\"value\": \"zz\", \"record_sha256\": 3}}",
            b"{\"certificates\": [{}], \"signature\": {\"value\": \"abc\"}}",
        ] {
            assert!(!verify(b, None).ok());
        }
    }
}
