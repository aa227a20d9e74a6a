//! The batch manifest of a multi-drive job: one document naming every drive with its outcome,
//! scope, validation result and the SHA-256 of its certificate record, the certificate file's
//! own SHA-256, signed (Ed25519, when the job signs) and anchored in the audit log's hash chain
//! by a `manifest` record that carries the manifest's SHA-256. Written as `CERT.manifest.json`
//! and `CERT.manifest.json.pdf` beside the certificate.
//!
//! ```json
//! {
//!   "manifest": {"version": 1, "job": "sanitize", "drives": 3, "succeeded": 3, ...,
//!                "certificate": "wipe.json", "certificate_sha256": "...", "audit_log": "..."},
//!   "drives": [{"serial": "...", "outcome": "success", "scope": "...", "validation": "...",
//!               "record_sha256": "...", ...}, ...],
//!   "signature": {"algorithm": "ed25519", "public_key": "...", "key_fingerprint": "...",
//!                 "manifest_sha256": "...", "value": "..."}
//! }
//! ```
//!
//! `manifest_sha256` is the SHA-256 of the compact JSON of `{"manifest": ..., "drives": ...}`
//! (no floating-point values are in it, so re-serialising reads back the same bytes); the signed
//! message is `sgctl-manifest-v1\n<manifest_sha256>\n`.

use crate::error::{Error, Result};
use crate::ops::audit::chain::{hex, sha256_hex};
use crate::ops::record::JobRecord;
use crate::ops::sign::CertSigner;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// First line of the signed message.
pub(crate) const DOMAIN: &str = "sgctl-manifest-v1";

/// `CERT.manifest.json`.
pub(crate) fn path_for(certificate: &Path) -> PathBuf {
    let mut p = certificate.as_os_str().to_owned();
    p.push(".manifest.json");
    PathBuf::from(p)
}

/// What a record says was sanitized: its own `scope` when it has one, else the whole logical
/// unit for the methods that act on it, else a pointer to the certificate (a TCG band erase
/// names its bands there).
fn scope_of(v: &Value) -> String {
    match v.get("scope") {
        Some(Value::String(s)) => return s.clone(),
        Some(o @ Value::Object(_)) => {
            // A record's `Scope` (crate::ops::record::Scope): its words, and PARTIAL with the
            // share of the capacity when it is not the whole drive.
            let words = o
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| o.to_string());
            return match o.get("whole_drive").and_then(Value::as_bool) {
                Some(false) => match o.get("fraction_of_capacity").and_then(Value::as_f64) {
                    Some(f) => format!("PARTIAL ({:.1} % of the capacity): {words}", f * 100.0),
                    None => format!("PARTIAL: {words}"),
                },
                _ => words,
            };
        }
        _ => {}
    }
    match v.get("method").and_then(Value::as_str) {
        Some(m) if m.starts_with("TCG CRYPTOGRAPHIC ERASE") => {
            "TCG bands: see the certificate".into()
        }
        Some(_) => "whole logical unit".into(),
        None => "-".into(),
    }
}

/// The validation result of a record: its `validation.result` when it has one, else its
/// content verification's, else `not validated`.
fn validation_of(v: &Value) -> String {
    for k in ["validation", "verification"] {
        if let Some(r) = v
            .get(k)
            .and_then(|x| x.get("result"))
            .and_then(Value::as_str)
        {
            return r.to_string();
        }
    }
    "not validated".into()
}

/// Builds the manifest (unsigned body) of a job's records.
pub fn build(
    records: &[JobRecord],
    certificate: &Path,
    certificate_bytes: &[u8],
    audit_log: &Path,
) -> Result<Value> {
    let values: Vec<Value> = crate::ops::par::try_map(records, |r| serde_json::to_value(r))
        .map_err(|e| Error::io("manifest", std::io::Error::other(e)))?;
    let hashes = crate::ops::sign::record_hashes(&values)?;
    build_from(
        records,
        &values,
        &hashes,
        certificate,
        certificate_bytes,
        audit_log,
    )
}

/// [`build`] from the records' JSON values and their hashes as the certificate holds them
/// (what [`crate::ops::record::write_certificate_with`] hands over), not computed again.
pub(crate) fn build_from(
    records: &[JobRecord],
    values: &[Value],
    hashes: &[String],
    certificate: &Path,
    certificate_bytes: &[u8],
    audit_log: &Path,
) -> Result<Value> {
    let drives: Vec<Value> = values
        .iter()
        .zip(hashes)
        .map(|(v, h)| {
            let f = &v["sanitization_record"];
            let mut d = json!({
                "serial": v["drive"]["serial"],
                "wwn": v["drive"]["wwn"],
                "model": v["drive"]["model"],
                "property_number": f["property_number"],
                "device": v["device"],
                "job_id": v["job_id"],
                "method": v["method"],
                "outcome": v["outcome"],
                "exit_status": v["exit_status"],
                "description": f["description"],
                "scope": scope_of(v),
                "validation": validation_of(v),
                "record_sha256": h,
            });
            // Where the drive sat, when the host knew it (absent otherwise, so manifests of
            // drives outside enclosures read as before).
            if let Some(e) = v.get("enclosure").filter(|e| e.is_object()) {
                d["enclosure"] = e["id"].clone();
                d["slot"] = e["slot"].clone();
            }
            d
        })
        .collect();
    let first = records.first();
    let started = records.iter().filter_map(|r| r.started.clone()).min();
    let ended = records.iter().filter_map(|r| r.ended.clone()).max();
    Ok(json!({
        "manifest": {
            "version": 1,
            "job": first.map(|r| r.job.clone()),
            "drives": records.len(),
            "succeeded": records.iter().filter(|r| r.outcome == crate::ops::record::Outcome::Success).count(),
            "started": started,
            "ended": ended,
            "host": first.map(|r| r.host.clone()),
            "operator": first.and_then(|r| r.operator.clone()),
            "tool": first.map(|r| r.tool.clone()),
            "certificate": certificate.file_name().map(|n| n.to_string_lossy().into_owned()),
            "certificate_sha256": sha256_hex(certificate_bytes),
            "audit_log": audit_log.display().to_string(),
        },
        "drives": drives,
    }))
}

/// SHA-256 of the compact JSON of the manifest's body (`manifest` and `drives`).
pub(crate) fn body_hash(doc: &Value) -> Result<String> {
    let body = json!({"manifest": doc["manifest"], "drives": doc["drives"]});
    serde_json::to_vec(&body)
        .map(|b| sha256_hex(&b))
        .map_err(|e| Error::io("manifest", std::io::Error::other(e)))
}

/// Adds the signature block.
pub fn sign(doc: &mut Value, key: &CertSigner) -> Result<()> {
    let h = body_hash(doc)?;
    let vk = key.public();
    let sig = key.sign_bytes(format!("{DOMAIN}\n{h}\n").as_bytes());
    doc["signature"] = json!({
        "algorithm": "ed25519",
        "public_key": crate::ops::sign::public_pem(&vk)?,
        "key_fingerprint": crate::ops::sign::fingerprint(&vk),
        "manifest_sha256": h,
        "value": hex(&sig.to_bytes()),
    });
    Ok(())
}

/// Checks a manifest: the body's hash and the signature (against `trusted` when given).
/// Returns the problems (empty: intact and signed).
pub fn verify(doc: &Value, trusted: Option<&ed25519_dalek::VerifyingKey>) -> Vec<String> {
    use ed25519_dalek::pkcs8::DecodePublicKey;
    use ed25519_dalek::{Signature, Verifier, VerifyingKey};
    let mut p = Vec::new();
    let Some(sig) = doc.get("signature") else {
        return vec!["the manifest is not signed".into()];
    };
    let actual = body_hash(doc).unwrap_or_default();
    let listed = sig["manifest_sha256"].as_str().unwrap_or_default();
    if actual != listed {
        p.push("the manifest changed: its SHA-256 is not the signed one".into());
    }
    let embedded = sig["public_key"]
        .as_str()
        .and_then(|k| VerifyingKey::from_public_key_pem(k).ok());
    let value = sig["value"]
        .as_str()
        .and_then(crate::ops::sign::unhex)
        .and_then(|b| <[u8; 64]>::try_from(b.as_slice()).ok())
        .map(|b| Signature::from_bytes(&b));
    let (Some(embedded), Some(value)) = (embedded, value) else {
        p.push("the signature block lacks a readable public_key or value".into());
        return p;
    };
    let key = match trusted {
        Some(t) if *t != embedded => {
            p.push(format!(
                "signed by key {}, not by the trusted key {}",
                crate::ops::sign::fingerprint(&embedded),
                crate::ops::sign::fingerprint(t)
            ));
            *t
        }
        Some(t) => *t,
        None => embedded,
    };
    if key
        .verify(format!("{DOMAIN}\n{listed}\n").as_bytes(), &value)
        .is_err()
    {
        p.push("the signature does not verify".into());
    }
    p
}

/// The files a manifest for the certificate at `certificate` is written to: the JSON and its PDF.
pub fn paths(certificate: &Path) -> Vec<PathBuf> {
    let json = path_for(certificate);
    let mut pdf = json.as_os_str().to_owned();
    pdf.push(".pdf");
    vec![json, PathBuf::from(pdf)]
}

/// A manifest made and not yet written: its JSON and PDF bytes ([`render`]).
pub struct Rendered {
    doc: Value,
    json: Vec<u8>,
    pdf: Vec<u8>,
    certificate_sha256: String,
}

/// Makes the manifest of a multi-drive job whose certificate is `certificate_bytes` (its
/// records' `values` and `hashes` as the certificate holds them): the document, signed when
/// `signer` is given, its JSON and its PDF/A. Writes nothing, so it can run beside the
/// certificate's own renderings.
pub fn render(
    records: &[JobRecord],
    values: &[Value],
    hashes: &[String],
    certificate: &Path,
    certificate_bytes: &[u8],
    audit_log: &Path,
    signer: Option<&CertSigner>,
) -> Result<Rendered> {
    let mut doc = build_from(
        records,
        values,
        hashes,
        certificate,
        certificate_bytes,
        audit_log,
    )?;
    if let Some(k) = signer {
        sign(&mut doc, k)?;
    }
    let json = serde_json::to_vec_pretty(&doc)
        .map_err(|e| Error::io("manifest", std::io::Error::other(e)))?;
    let path = path_for(certificate);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "manifest.json".into());
    let pdf = crate::report::pdf::render_manifest(&doc, &json, &name)?;
    Ok(Rendered {
        doc,
        json,
        pdf,
        certificate_sha256: sha256_hex(certificate_bytes),
    })
}

/// Writes a [`Rendered`] manifest beside `certificate` (JSON, then PDF, through
/// [`crate::files::write_atomic`]) and anchors its hash in the audit log. Returns the
/// manifest's path.
pub(crate) fn write_rendered(
    m: &Rendered,
    records: &[JobRecord],
    certificate: &Path,
    audit: &crate::ops::audit::AuditLog,
    replace: crate::files::Replace,
) -> Result<PathBuf> {
    let [path, pdf_path] = <[PathBuf; 2]>::try_from(paths(certificate))
        .map_err(|_| Error::io("manifest", std::io::Error::other("manifest paths")))?;
    crate::files::write_atomic(&path, &m.json, crate::files::MODE_PUBLIC, replace)?;
    crate::files::write_atomic(&pdf_path, &m.pdf, crate::files::MODE_PUBLIC, replace)?;
    audit.append(&json!({
        "event": "manifest",
        "time": crate::clock::rfc3339(std::time::SystemTime::now()),
        "manifest": path.display().to_string(),
        "manifest_sha256": sha256_hex(&m.json),
        "manifest_body_sha256": body_hash(&m.doc)?,
        "certificate": certificate.display().to_string(),
        "certificate_sha256": m.certificate_sha256,
        "job_ids": records.iter().filter_map(|r| r.job_id.clone()).collect::<Vec<_>>(),
        "drives": records.len(),
    }))?;
    Ok(path)
}

/// Writes the manifest of a multi-drive job beside `certificate` (JSON and PDF/A) and anchors
/// its hash in the audit log ([`render`], then `write_rendered`), reading the certificate
/// back from its file. Returns the manifest's path. [`paths`] names both files for the job's
/// preflight.
pub fn write(
    records: &[JobRecord],
    certificate: &Path,
    audit: &crate::ops::audit::AuditLog,
    signer: Option<&CertSigner>,
    replace: crate::files::Replace,
) -> Result<PathBuf> {
    let cert_bytes = std::fs::read(certificate)
        .map_err(|e| Error::io(format!("certificate {}", certificate.display()), e))?;
    let values: Vec<Value> = crate::ops::par::try_map(records, |r| serde_json::to_value(r))
        .map_err(|e| Error::io("manifest", std::io::Error::other(e)))?;
    let hashes = crate::ops::sign::record_hashes(&values)?;
    let m = render(
        records,
        &values,
        &hashes,
        certificate,
        &cert_bytes,
        audit.path(),
        signer,
    )?;
    write_rendered(&m, records, certificate, audit, replace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::record::Outcome;

    fn recs() -> Vec<JobRecord> {
        (0..3)
            .map(|i| {
                let mut r = JobRecord::new("sanitize", &format!("sim:{i}"));
                r.drive.serial = format!("S{i}");
                r.outcome = if i == 2 {
                    Outcome::Failed
                } else {
                    Outcome::Success
                };
                r.job_id = Some(format!("job-{i}"));
                r
            })
            .collect()
    }

    #[test]
    fn manifest_lists_drives_signs_and_anchors() {
        let d = tempfile::tempdir().unwrap();
        let cert = d.path().join("c.json");
        std::fs::write(&cert, b"{\"certificates\": []}").unwrap();
        let k = d.path().join("k.pem");
        let vk = crate::ops::sign::generate_key(&k).unwrap();
        let signer = CertSigner::load(&k).unwrap();
        let audit = crate::ops::audit::AuditLog::at(d.path().join("audit.jsonl"));
        let p = write(
            &recs(),
            &cert,
            &audit,
            Some(&signer),
            crate::files::Replace::Never,
        )
        .unwrap();
        let bytes = std::fs::read(&p).unwrap();
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(doc["manifest"]["drives"], 3);
        assert_eq!(doc["manifest"]["succeeded"], 2);
        assert_eq!(doc["drives"][2]["outcome"], "failed");
        assert_eq!(doc["drives"][0]["validation"], "not validated");
        assert_eq!(
            doc["drives"][0]["record_sha256"].as_str().map(str::len),
            Some(64)
        );
        assert_eq!(
            doc["manifest"]["certificate_sha256"],
            sha256_hex(b"{\"certificates\": []}")
        );
        assert!(verify(&doc, Some(&vk)).is_empty());
        // The audit chain holds the manifest's hash, chained like every record.
        let log = std::fs::read_to_string(d.path().join("audit.jsonl")).unwrap();
        let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
        assert_eq!(last["event"], "manifest");
        assert_eq!(last["manifest_sha256"], sha256_hex(&bytes));
        assert!(crate::ops::audit::chain::verify(log.as_bytes(), None).ok());
        // A changed outcome is caught.
        let mut forged = doc.clone();
        forged["drives"][2]["outcome"] = "success".into();
        assert!(!verify(&forged, Some(&vk)).is_empty());
        assert!(std::fs::metadata(format!("{}.pdf", p.display())).is_ok());
    }

    #[test]
    fn scope_and_validation_fall_back_honestly() {
        assert_eq!(
            scope_of(&json!({"method": "CRYPTOGRAPHIC ERASE"})),
            "whole logical unit"
        );
        assert!(
            scope_of(&json!({"method": "TCG CRYPTOGRAPHIC ERASE (Enterprise SSC Erase)"}))
                .contains("see the certificate")
        );
        assert_eq!(
            scope_of(
                &json!({"scope": {"whole_drive": false, "fraction_of_capacity": 0.47,
                "description": "TCG band 1"}})
            ),
            "PARTIAL (47.0 % of the capacity): TCG band 1"
        );
        assert_eq!(
            scope_of(&json!({"scope": {"whole_drive": true,
                "description": "the whole logical unit (every LBA)"}})),
            "the whole logical unit (every LBA)"
        );
        assert_eq!(
            validation_of(&json!({"verification": {"result": "passed"}})),
            "passed"
        );
        assert_eq!(
            validation_of(&json!({"validation": {"result": "failed"}})),
            "failed"
        );
    }
}
