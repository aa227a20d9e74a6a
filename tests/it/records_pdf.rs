//! The record an auditor expects, end to end through the binary on `sim:` drives: the
//! SP 800-88 Rev. 2 fields from a site file and flags, the PDF/A certificate opened by a third
//! party (poppler: `pdfinfo` for the PDF/A claim, `pdfdetach` for the attached JSON,
//! `pdftotext` for every field, `pdftoppm` for a page as a picture), the validator's
//! countersignature, and the batch manifest anchored in the audit chain.
//!
//! poppler-utils is optional here; scripts/test-all.sh installs it and sets
//! SGCTL_REQUIRE_POPPLER=1, which turns a missing tool into a failure.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn poppler() -> bool {
    let ok = Command::new("pdfinfo").arg("-v").output().is_ok();
    if !ok {
        assert!(
            std::env::var("SGCTL_REQUIRE_POPPLER").as_deref() != Ok("1"),
            "pdfinfo not found but SGCTL_REQUIRE_POPPLER=1 (install Debian's poppler-utils)"
        );
        eprintln!("skipped: poppler-utils (pdfinfo) not installed");
    }
    ok
}

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

struct Run {
    dir: tempfile::TempDir,
}

impl Run {
    fn new() -> Run {
        Run {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn s(&self, name: &str) -> String {
        self.p(name).display().to_string()
    }
    fn addr(&self, serial: &str) -> String {
        format!(
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial={serial}&state={}",
            self.p(&format!("{serial}.json")).display()
        )
    }
    fn sgctl(&self, args: &[&str]) -> (i32, Value, String) {
        let out = crate::util::sgctl_cmd()
            .arg("--json")
            .args(args)
            .env("SGCTL_AUDIT_LOG", self.p("audit.jsonl"))
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
    fn keygen(&self, name: &str) -> String {
        let k = self.s(name);
        let (code, j, err) = self.sgctl(&["certificate", "keygen", &k]);
        assert_eq!(code, 0, "{err} {j}");
        k
    }
    fn site(&self) -> String {
        let p = self.p("site.toml");
        std::fs::write(
            &p,
            r#"destination = "recycle"
classification_before = "Confidential"
classification_after = "Public"
data_backup = "none (decommissioned array)"
[sanitized_by]
title = "Storage administrator"
organisation = "Example Corp IT"
location = "DC1 room 3"
contact = "storage@example.com"
[validated_by]
name = "R. Auditor"
title = "IT security officer"
[asset_tags]
PDF0002 = "IT-000002"
"#,
        )
        .unwrap();
        p.display().to_string()
    }
    /// Two drives, signed, with the site file and flags.
    fn sanitize_two(&self, key: &str) -> PathBuf {
        let cert = self.s("cert.json");
        let (a, b) = (self.addr("PDF0001"), self.addr("PDF0002"));
        let site = self.site();
        let (code, j, err) = self.sgctl(&[
            "sanitize",
            &a,
            &b,
            "--crypto",
            "--confirm",
            "PDF0001",
            "--confirm",
            "PDF0002",
            "--certificate",
            &cert,
            "--signing-key",
            key,
            "--site",
            &site,
            "--operator",
            "J. Admin",
            "--asset-tag",
            "PDF0001=IT-000001",
            "--destination",
            "resale",
            "--validator-contact",
            "security@example.com",
        ]);
        assert_eq!(code, 0, "{err} {j}");
        PathBuf::from(cert)
    }
}

#[test]
fn record_fields_from_site_file_and_flags() {
    let r = Run::new();
    let key = r.keygen("op.pem");
    let cert = r.sanitize_two(&key);
    let doc: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    let f = &doc["certificates"][0]["sanitization_record"];
    assert!(f["standards"]
        .as_str()
        .unwrap()
        .contains("SP 800-88 Rev. 2"));
    assert_eq!(f["property_number"], "IT-000001");
    assert_eq!(
        doc["certificates"][1]["sanitization_record"]["property_number"],
        "IT-000002"
    );
    // The virtual PX02 reports MEDIUM ROTATION RATE 1 in VPD B1h.
    assert_eq!(f["media_type"]["rotation_rate"], 1);
    assert_eq!(f["media_type"]["kind"], "flash (non-rotating)");
    assert_eq!(f["description"], "purge (IEEE 2883-2022)");
    // The flag wins over the site file.
    assert_eq!(f["post_sanitization_destination"], "resale");
    assert_eq!(f["sanitized_by"]["name"], "J. Admin");
    assert_eq!(f["sanitized_by"]["organisation"], "Example Corp IT");
    assert_eq!(f["validated_by"]["name"], "R. Auditor");
    assert_eq!(f["validated_by"]["contact"], "security@example.com");
    assert_eq!(f["classification_before"], "Confidential");
    assert_eq!(f["data_backup"], "none (decommissioned array)");
    assert!(f["media_source"]["host"].is_string());
    let ev = &f["crypto_erase_evidence"];
    assert_eq!(ev["sanitize_crypto_erase"], "supported");
    assert!(ev["tcg_level0"].as_str().unwrap().starts_with("present"));
    // The text view carries them too.
    let txt = std::fs::read_to_string(r.p("cert.json.txt")).unwrap();
    assert!(txt.contains("record (NIST SP 800-88 Rev. 2):"), "{txt}");
    assert!(
        txt.contains("    property number:               IT-000001"),
        "{txt}"
    );
    assert!(
        txt.contains("    post-sanitization destination: resale"),
        "{txt}"
    );
}

#[test]
fn a_bad_site_file_is_refused_before_the_drive_is_touched() {
    let r = Run::new();
    let site = r.p("bad.toml");
    std::fs::write(&site, "destination = \"shred\"\nunknown = 1\n").unwrap();
    let a = r.addr("BAD0001");
    let cert = r.s("cert.json");
    let (code, j, err) = r.sgctl(&[
        "sanitize",
        &a,
        "--crypto",
        "--confirm",
        "BAD0001",
        "--certificate",
        &cert,
        "--site",
        site.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err} {j}");
    let msg = format!("{err}{j}");
    assert!(
        msg.contains("destination") && msg.contains("unknown"),
        "{msg}"
    );
    assert!(!r.p("audit.jsonl").exists(), "no job started");
    assert!(!r.p("cert.json").exists());
}

#[test]
fn pdf_read_by_poppler() {
    if !poppler() {
        return;
    }
    let r = Run::new();
    let key = r.keygen("op.pem");
    let cert = r.sanitize_two(&key);
    let pdf = format!("{}.pdf", cert.display());

    // PDF/A-3u claimed in the XMP metadata; summary page + one page per drive; A4.
    let meta = tool("pdfinfo", &["-meta", &pdf]);
    assert!(meta.contains("<pdfaid:part>3</pdfaid:part>"), "{meta}");
    assert!(meta.contains("<pdfaid:conformance>U</pdfaid:conformance>"));
    let info = tool("pdfinfo", &[&pdf]);
    assert!(info.contains("Pages:           3"), "{info}");
    assert!(info.contains("A4"));
    // Every font embedded.
    let fonts = tool("pdffonts", &[&pdf]);
    for l in fonts.lines().skip(2) {
        assert!(l.contains(" yes "), "font not embedded: {l}");
    }

    // The JSON record is attached, byte for byte.
    let list = tool("pdfdetach", &["-list", &pdf]);
    assert!(list.contains("1: cert.json"), "{list}");
    let saved = r.p("detached.json");
    tool(
        "pdfdetach",
        &["-save", "1", "-o", saved.to_str().unwrap(), &pdf],
    );
    assert_eq!(
        std::fs::read(&saved).unwrap(),
        std::fs::read(&cert).unwrap()
    );

    // Every field is in the text.
    let text = tool("pdftotext", &["-layout", &pdf, "-"]);
    let doc: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    let fp = doc["signature"]["key_fingerprint"].as_str().unwrap();
    let grouped: Vec<String> = fp
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    for want in [
        "Certificate of Sanitization",
        "NIST SP 800-88 Rev. 2",
        "batch summary",
        "TOSHIBA",
        "PX02SMF080",
        "PDF0001",
        "PDF0002",
        "IT-000001",
        "IT-000002",
        "CRYPTOGRAPHIC ERASE",
        "flash (non-rotating)",
        "purge (IEEE 2883-2022)",
        "resale",
        "J. Admin",
        "Storage administrator",
        "Example Corp IT",
        "DC1 room 3",
        "storage@example.com",
        "R. Auditor",
        "IT security officer",
        "security@example.com",
        "Confidential",
        "Public",
        "none (decommissioned array)",
        "SANITIZE",
        "TCG Level 0", // the label wraps in its column: "discovery" on the next line
        "Enterprise SSC",
        "Sanitized by",
        "Validated by",
        doc["certificates"][0]["drive"]["wwn"].as_str().unwrap(),
        doc["certificates"][0]["drive"]["firmware"]
            .as_str()
            .unwrap(),
        doc["certificates"][0]["job_id"].as_str().unwrap(),
    ] {
        assert!(text.contains(want), "{want} missing from the PDF text");
    }
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&grouped.join(" ")),
        "the signing key's fingerprint is printed"
    );
    assert!(!text.contains("Rev. 1 (Appendix G)"));

    // A page as a picture: it renders, at A4.
    let png = r.p("page");
    tool(
        "pdftoppm",
        &[
            "-png",
            "-r",
            "40",
            "-f",
            "2",
            "-l",
            "2",
            &pdf,
            png.to_str().unwrap(),
        ],
    );
    let rendered = std::fs::read_dir(r.dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| {
            e.file_name().to_string_lossy().starts_with("page")
                && e.file_name().to_string_lossy().ends_with(".png")
        });
    assert!(rendered);
}

#[test]
fn countersign_then_verify_says_who_signed_what() {
    let r = Run::new();
    let op = r.keygen("op.pem");
    let val = r.keygen("val.pem");
    let cert = r.sanitize_two(&op);
    let c = cert.to_str().unwrap();
    let before = std::fs::read(&cert).unwrap();
    let (code, j, err) = r.sgctl(&[
        "certificate",
        "countersign",
        c,
        "--key",
        &val,
        "--name",
        "R. Auditor",
        "--title",
        "IT security officer",
        "--organisation",
        "Example Corp",
    ]);
    assert_eq!(code, 0, "{err} {j}");
    let after = std::fs::read(&cert).unwrap();
    // The records keep their bytes: everything up to the document's closing brace is unchanged.
    let keep = before.len() - 2;
    assert_eq!(&after[..keep], &before[..keep]);

    let (code, j, err) = r.sgctl(&[
        "certificate",
        "verify",
        c,
        "--pubkey",
        &format!("{op}.pub"),
        "--countersigner-pubkey",
        &format!("{val}.pub"),
    ]);
    assert_eq!(code, 0, "{err} {j}");
    let cs = &j["data"]["countersignatures"][0];
    assert_eq!(cs["valid"], true);
    assert_eq!(cs["signer"]["name"], "R. Auditor");
    assert_eq!(cs["role"], "validated_by");
    assert_eq!(cs["key_trusted"], true);

    // The operator's key is not the validator's.
    let (code, j, _) = r.sgctl(&[
        "certificate",
        "verify",
        c,
        "--countersigner-pubkey",
        &format!("{op}.pub"),
    ]);
    assert_eq!(code, 5, "{j}");

    // A changed name is caught.
    let text = String::from_utf8(after).unwrap();
    std::fs::write(
        &cert,
        text.replace(
            "\"R. Auditor\",\n        \"title\": \"IT security officer\"",
            "\"M. Allory\",\n        \"title\": \"IT security officer\"",
        ),
    )
    .unwrap();
    let (code, j, _) = r.sgctl(&["certificate", "verify", c]);
    assert_eq!(code, 5, "{j}");
    assert_eq!(j["data"]["countersignatures"][0]["valid"], false);

    // The PDF shows the countersignature.
    if poppler() {
        std::fs::write(&cert, text.as_bytes()).unwrap();
        let pdf = format!("{c}.pdf");
        let t = tool("pdftotext", &["-layout", &pdf, "-"]);
        assert!(t.contains("Countersignature"), "{t}");
    }

    // A key others can read is refused, as for signing.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&val, std::fs::Permissions::from_mode(0o640)).unwrap();
    let (code, j, err) = r.sgctl(&[
        "certificate",
        "countersign",
        c,
        "--key",
        &val,
        "--name",
        "X",
    ]);
    assert_ne!(code, 0, "{j}");
    assert!(format!("{err}{j}").contains("chmod 600"));
}

#[test]
fn countersign_needs_a_signed_certificate() {
    let r = Run::new();
    let val = r.keygen("val.pem");
    let cert = r.p("c.json");
    std::fs::write(&cert, b"{\"certificates\": []}\n").unwrap();
    let (code, j, err) = r.sgctl(&[
        "certificate",
        "countersign",
        cert.to_str().unwrap(),
        "--key",
        &val,
        "--name",
        "R. Auditor",
    ]);
    assert_ne!(code, 0);
    assert!(format!("{err}{j}").contains("not signed"));
    assert_eq!(std::fs::read(&cert).unwrap(), b"{\"certificates\": []}\n");
}

#[test]
fn batch_manifest_signed_and_anchored() {
    let r = Run::new();
    let op = r.keygen("op.pem");
    let cert = r.sanitize_two(&op);
    let m = PathBuf::from(format!("{}.manifest.json", cert.display()));
    let bytes = std::fs::read(&m).unwrap();
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(doc["manifest"]["drives"], 2);
    assert_eq!(doc["drives"][0]["serial"], "PDF0001");
    assert_eq!(doc["drives"][0]["outcome"], "success");
    assert_eq!(
        doc["drives"][0]["scope"],
        "the whole logical unit (every LBA)"
    );
    // Each drive's record hash is the one the certificate's signature lists.
    let c: Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    assert_eq!(
        doc["drives"][1]["record_sha256"],
        c["signature"]["record_sha256"][1]
    );
    let (code, j, err) = r.sgctl(&[
        "certificate",
        "verify",
        m.to_str().unwrap(),
        "--pubkey",
        &format!("{op}.pub"),
    ]);
    assert_eq!(code, 0, "{err} {j}");
    // The audit chain holds the manifest's hash, and stays intact.
    let log = std::fs::read_to_string(r.p("audit.jsonl")).unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["event"], "manifest");
    assert_eq!(last["manifest_sha256"], sha256(&bytes));
    let (code, j, err) = r.sgctl(&["audit", "verify", r.p("audit.jsonl").to_str().unwrap()]);
    assert_eq!(code, 0, "{err} {j}");
    let (_, j, _) = r.sgctl(&["certificate", "verify", m.to_str().unwrap()]);
    assert_eq!(
        j["data"]["certificate_file"], "present, its SHA-256 is the one the manifest lists",
        "{j}"
    );
    // A countersignature changes the certificate file but none of its records: the manifest
    // still verifies and says what it found.
    let val = r.keygen("val.pem");
    let c = cert.to_str().unwrap();
    let (code, j, err) = r.sgctl(&[
        "certificate",
        "countersign",
        c,
        "--key",
        &val,
        "--name",
        "A",
    ]);
    assert_eq!(code, 0, "{err} {j}");
    let (code, j, err) = r.sgctl(&["certificate", "verify", m.to_str().unwrap()]);
    assert_eq!(code, 0, "{err} {j}");
    assert!(
        j["data"]["certificate_file"]
            .as_str()
            .unwrap()
            .contains("every drive's record in it is the one the manifest lists"),
        "{j}"
    );
    // A certificate whose records were changed no longer matches its manifest.
    let signed = std::fs::read_to_string(&cert).unwrap();
    std::fs::write(&cert, signed.replacen("PDF0001", "PDF0009", 1)).unwrap();
    let (code, j, _) = r.sgctl(&["certificate", "verify", m.to_str().unwrap()]);
    assert_eq!(code, 5, "{j}");
    assert!(
        j["data"]["problems"]
            .to_string()
            .contains("not the 2 the manifest lists"),
        "{j}"
    );
    std::fs::write(&cert, signed).unwrap();
    // A forged outcome is caught.
    let forged = String::from_utf8(bytes)
        .unwrap()
        .replacen("\"success\"", "\"failed\"", 1);
    std::fs::write(&m, forged).unwrap();
    let (code, _, _) = r.sgctl(&["certificate", "verify", m.to_str().unwrap()]);
    assert_eq!(code, 5);
    if poppler() {
        let pdf = format!("{}.pdf", m.display());
        assert!(tool("pdfdetach", &["-list", &pdf]).contains("cert.json.manifest.json"));
        assert!(tool("pdfinfo", &["-meta", &pdf]).contains("<pdfaid:part>3</pdfaid:part>"));
    }
}

fn sha256(b: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}
