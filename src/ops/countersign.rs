//! Countersignatures: the second person of a sanitization (the validator, NIST SP 800-88
//! Rev. 2's separation of verification and validation; the "validated by" block of the Rev. 1
//! Appendix G sample certificate) adds their identity and an Ed25519 signature to a signed
//! certificate with `sgctl certificate countersign`.
//!
//! A countersignature endorses exactly what the operator signed: the record hashes and the
//! signature value of the `signature` block ([`crate::ops::sign`]), with the validator's
//! identity and the time. It is appended to the certificate's `countersignatures` array without
//! rewriting a byte of what was there before (the records keep their bytes), and the file is
//! replaced through a temporary file and a rename.
//!
//! ```json
//! "countersignatures": [{
//!   "algorithm": "ed25519",
//!   "role": "validated_by",
//!   "signer": {"name": "R. Auditor", "title": "IT security", ...},
//!   "signed_at": "2026-12-06T01:02:03Z",
//!   "public_key": "<SPKI PEM>",
//!   "key_fingerprint": "<SHA-256 of the public key, hex>",
//!   "record_sha256": ["<as in the signature block>", ...],
//!   "value": "<64-byte signature, hex>"
//! }]
//! ```
//!
//! The signed message ([`message`]) is plain text: `sgctl-countersignature-v1`, `role:`,
//! `signer:` (the signer object as compact JSON), `signed_at:`, `primary:` (the operator's
//! signature value), then one record hash per line.

use crate::error::{Error, Invalid, Result};
use crate::ops::record_fields::Person;
use crate::ops::sign::{fingerprint, CertSigner};
use ed25519_dalek::pkcs8::DecodePublicKey;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;

/// First line of the countersigned message.
pub(crate) const DOMAIN: &str = "sgctl-countersignature-v1";
/// The role a countersignature is made in.
pub(crate) const ROLE: &str = "validated_by";

/// The countersigned message.
pub fn message(
    role: &str,
    signer: &Value,
    signed_at: &str,
    primary: &str,
    hashes: &[String],
) -> Vec<u8> {
    let mut m = format!(
        "{DOMAIN}\nrole: {role}\nsigner: {}\nsigned_at: {signed_at}\nprimary: {primary}\n",
        serde_json::to_string(signer).unwrap_or_default()
    );
    for h in hashes {
        m.push_str(h);
        m.push('\n');
    }
    m.into_bytes()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|h| h.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn invalid(reason: String) -> Error {
    Invalid::BadReport {
        path: "certificate".into(),
        reason,
    }
    .into()
}

/// Appends a countersignature by `who` with `key` to the certificate document `content`
/// (the file's bytes) and returns the new bytes. The certificate must be signed.
pub fn countersign(
    content: &[u8],
    key: &CertSigner,
    who: &Person,
    signed_at: &str,
) -> Result<Vec<u8>> {
    if who.name.is_none() {
        return Err(invalid(
            "a countersignature needs the signer's --name".into(),
        ));
    }
    let doc: Value =
        serde_json::from_slice(content).map_err(|e| invalid(format!("not JSON: {e}")))?;
    let sig = doc
        .get("signature")
        .ok_or_else(|| invalid("not signed: a countersignature endorses the operator's signature (sign with --signing-key first)".into()))?;
    let hashes = strings(&sig["record_sha256"]);
    let primary = sig["value"].as_str().unwrap_or_default().to_string();
    if hashes.is_empty() || primary.is_empty() {
        return Err(invalid(
            "the signature block lacks record_sha256 or value".into(),
        ));
    }
    let signer = serde_json::to_value(who)
        .map_err(|e| Error::io("countersignature", std::io::Error::other(e)))?;
    let vk = key.public();
    let value = key.sign_bytes(&message(ROLE, &signer, signed_at, &primary, &hashes));
    let block = json!({
        "algorithm": "ed25519",
        "role": ROLE,
        "signer": signer,
        "signed_at": signed_at,
        "public_key": crate::ops::sign::public_pem(&vk)?,
        "key_fingerprint": fingerprint(&vk),
        "record_sha256": hashes,
        "value": crate::ops::audit::chain::hex(&value.to_bytes()),
    });
    let out = append(content, &doc, &block)?;
    // What was written must read back as the old document plus this block.
    let mut want = doc.clone();
    match want
        .get_mut("countersignatures")
        .and_then(Value::as_array_mut)
    {
        Some(a) => a.push(block),
        None => want["countersignatures"] = json!([block]),
    }
    let got: Value = serde_json::from_slice(&out)
        .map_err(|e| invalid(format!("countersigned document does not parse: {e}")))?;
    if got != want {
        return Err(invalid(
            "the certificate's layout does not allow appending a countersignature".into(),
        ));
    }
    Ok(out)
}

/// Splices `block` into the text: a new last member `countersignatures`, or one more element
/// of that array when it is already the last member. The bytes before stay as they were.
fn append(content: &[u8], doc: &Value, block: &Value) -> Result<Vec<u8>> {
    let text = std::str::from_utf8(content).map_err(|e| invalid(format!("not UTF-8: {e}")))?;
    let body = text.trim_end();
    let close = body
        .strip_suffix('}')
        .ok_or_else(|| invalid("not a JSON object".into()))?;
    let item = serde_json::to_string_pretty(block)
        .map_err(|e| Error::io("countersignature", std::io::Error::other(e)))?
        .replace('\n', "\n    ");
    let mut out = String::with_capacity(text.len() + item.len() + 64);
    if doc.get("countersignatures").is_some() {
        let before = close.trim_end();
        let open = before
            .strip_suffix(']')
            .ok_or_else(|| invalid("countersignatures is not the last member".into()))?;
        out.push_str(open.trim_end());
        out.push_str(",\n    ");
        out.push_str(&item);
        out.push_str("\n  ]\n}\n");
    } else {
        out.push_str(close.trim_end());
        out.push_str(",\n  \"countersignatures\": [\n    ");
        out.push_str(&item);
        out.push_str("\n  ]\n}\n");
    }
    Ok(out.into_bytes())
}

/// One countersignature as checked by [`verify`].
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Checked {
    /// Position in the array (1-based).
    pub index: usize,
    /// The role (`validated_by`).
    pub role: String,
    /// The signer's identity as signed.
    pub signer: Value,
    /// When.
    pub signed_at: String,
    /// The key's fingerprint.
    pub key_fingerprint: Option<String>,
    /// Checked against a trusted key (`--countersigner-pubkey`).
    pub key_trusted: bool,
    /// Signature valid and it endorses the certificate's current signature.
    pub valid: bool,
    /// What is wrong, when not valid.
    pub problem: Option<String>,
}

/// Checks every countersignature of a certificate. With `trusted`, each must be made by that key.
pub fn verify(content: &[u8], trusted: Option<&VerifyingKey>) -> Vec<Checked> {
    let Ok(doc) = serde_json::from_slice::<Value>(content) else {
        return vec![];
    };
    let primary_hashes = strings(&doc["signature"]["record_sha256"]);
    let primary = doc["signature"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let Some(list) = doc.get("countersignatures").and_then(Value::as_array) else {
        return vec![];
    };
    list.iter()
        .enumerate()
        .map(|(i, c)| {
            let mut ch = Checked {
                index: i + 1,
                role: c["role"].as_str().unwrap_or("-").to_string(),
                signer: c.get("signer").cloned().unwrap_or(Value::Null),
                signed_at: c["signed_at"].as_str().unwrap_or("-").to_string(),
                key_fingerprint: None,
                key_trusted: trusted.is_some(),
                valid: false,
                problem: None,
            };
            let hashes = strings(&c["record_sha256"]);
            let embedded = c["public_key"]
                .as_str()
                .and_then(|p| VerifyingKey::from_public_key_pem(p).ok());
            let value = c["value"]
                .as_str()
                .and_then(crate::ops::sign::unhex)
                .and_then(|b| <[u8; 64]>::try_from(b.as_slice()).ok())
                .map(|b| Signature::from_bytes(&b));
            let (Some(embedded), Some(value)) = (embedded, value) else {
                ch.problem = Some("malformed: no readable public_key or value".into());
                return ch;
            };
            ch.key_fingerprint = Some(fingerprint(&embedded));
            let key = match trusted {
                Some(t) if *t != embedded => {
                    ch.problem = Some(format!(
                        "made by key {}, not by the trusted key {}",
                        fingerprint(&embedded),
                        fingerprint(t)
                    ));
                    return ch;
                }
                Some(t) => *t,
                None => embedded,
            };
            let msg = message(&ch.role, &ch.signer, &ch.signed_at, &primary, &hashes);
            if key.verify(&msg, &value).is_err() {
                ch.problem = Some(
                    "the countersignature does not verify: the signer, the time, or the operator's signature it endorses changed"
                        .into(),
                );
            } else if hashes != primary_hashes {
                ch.problem = Some("it endorses other records than the certificate's signature lists".into());
            } else {
                ch.valid = true;
            }
            ch
        })
        .collect()
}

/// Countersigns the certificate file at `path` (atomically replaced) and writes its views again
/// (`path.html`, `path.pdf`). Returns the new countersignature's key fingerprint.
pub fn countersign_file(path: &Path, key: &CertSigner, who: &Person) -> Result<String> {
    let ctx = || format!("certificate {}", path.display());
    let content = std::fs::read(path).map_err(|e| Error::io(ctx(), e))?;
    let now = crate::clock::rfc3339(std::time::SystemTime::now());
    let out = countersign(&content, key, who, &now)?;
    let replace = |p: &Path, bytes: &[u8]| {
        crate::files::write_atomic(
            p,
            bytes,
            crate::files::MODE_PUBLIC,
            crate::files::Replace::Always,
        )
    };
    replace(path, &out)?;
    let doc: Value = serde_json::from_slice(&out).map_err(|e| invalid(e.to_string()))?;
    let mut html = path.as_os_str().to_owned();
    html.push(".html");
    replace(
        Path::new(&html),
        crate::report::certificate::render(&doc).as_bytes(),
    )?;
    crate::ops::record::write_pdf(path, &doc)?;
    Ok(fingerprint(&key.public()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(dir: &Path) -> (Vec<u8>, CertSigner) {
        let k = dir.join("op.pem");
        crate::ops::sign::generate_key(&k).unwrap();
        let s = CertSigner::load(&k).unwrap();
        let recs = vec![json!({"drive": {"serial": "A1"}, "progress": 99.99847412109375})];
        let sig = s.sign_records(&recs).unwrap();
        let doc =
            serde_json::to_vec_pretty(&json!({"certificates": recs, "signature": sig})).unwrap();
        (doc, s)
    }

    fn validator(dir: &Path) -> (CertSigner, VerifyingKey) {
        let k = dir.join("val.pem");
        let vk = crate::ops::sign::generate_key(&k).unwrap();
        (CertSigner::load(&k).unwrap(), vk)
    }

    fn who() -> Person {
        Person {
            name: Some("R. Auditor".into()),
            title: Some("IT security".into()),
            ..Person::default()
        }
    }

    #[test]
    fn countersign_keeps_the_bytes_and_verifies() {
        let d = tempfile::tempdir().unwrap();
        let (doc, _) = signed(d.path());
        let (v, vk) = validator(d.path());
        let out = countersign(&doc, &v, &who(), "2026-12-06T01:00:00Z").unwrap();
        // Every byte of the records is where it was.
        let text = String::from_utf8(out.clone()).unwrap();
        let old = String::from_utf8(doc.clone()).unwrap();
        let head = old.trim_end().trim_end_matches('}').trim_end();
        assert!(text.starts_with(head));
        assert!(crate::ops::sign::verify(&out, None).ok());
        let c = verify(&out, Some(&vk));
        assert_eq!(c.len(), 1);
        assert!(c[0].valid, "{:?}", c[0].problem);
        assert_eq!(c[0].signer["name"], "R. Auditor");
        // A second one appends to the array.
        let out2 = countersign(&out, &v, &who(), "2026-12-06T02:00:00Z").unwrap();
        assert_eq!(verify(&out2, None).iter().filter(|c| c.valid).count(), 2);
        assert!(crate::ops::sign::verify(&out2, None).ok());
    }

    #[test]
    fn changes_and_other_keys_are_reported() {
        let d = tempfile::tempdir().unwrap();
        let (doc, _) = signed(d.path());
        let (v, vk) = validator(d.path());
        let out = countersign(&doc, &v, &who(), "2026-12-06T01:00:00Z").unwrap();
        let text = String::from_utf8(out).unwrap();
        let renamed = text.replace("\"R. Auditor\"", "\"M. Allory\"");
        let c = verify(renamed.as_bytes(), Some(&vk));
        assert!(!c[0].valid);
        assert!(c[0].problem.as_deref().unwrap().contains("does not verify"));
        let other_dir = tempfile::tempdir().unwrap();
        let (_, op) = signed(other_dir.path());
        let other = verify(text.as_bytes(), Some(&op.public()));
        assert!(other[0]
            .problem
            .as_deref()
            .unwrap()
            .contains("not by the trusted key"));
    }

    #[test]
    fn refuses_unsigned_and_nameless() {
        let d = tempfile::tempdir().unwrap();
        let (v, _) = validator(d.path());
        let unsigned = br#"{"certificates": []}"#;
        let e = countersign(unsigned, &v, &who(), "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not signed"), "{e}");
        let (doc, _) = signed(d.path());
        assert!(countersign(&doc, &v, &Person::default(), "t").is_err());
        assert!(countersign(b"[1]", &v, &who(), "t").is_err());
    }
}
