//! `sgctl certificate verify|keygen|countersign`: Ed25519-signed certificates
//! ([`sgctl::ops::sign`]) and the validator's countersignature ([`sgctl::ops::countersign`]).

use crate::cli::{Ctx, Report};
use serde_json::json;
use sgctl::error::Error;
use sgctl::ops::sign;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Certificate tools.
#[derive(Debug, clap::Args)]
pub(crate) struct CertificateArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CertificateCommand,
}

/// `sgctl certificate` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum CertificateCommand {
    /// Check a certificate written by `format|sanitize --certificate FILE` with a signing key.
    #[command(after_help = "\
Reports each changed record by position (record N, with its serial number), records added or
removed, and a signature that does not verify or was made by another key than --pubkey.
Exit status 5 when anything is wrong. Without --pubkey the key embedded in the certificate is
used: that proves the file is unchanged since it was signed, not who signed it.

EXAMPLES:
  sgctl certificate verify --pubkey /etc/sgctl/signing.pem.pub wipe-rack12.json")]
    Verify(VerifyArgs),
    /// Create a signing key pair: FILE (private, PKCS#8 PEM, mode 0600) and FILE.pub.
    #[command(after_help = "\
Use the key with `sgctl sanitize --signing-key FILE` or SGCTL_SIGNING_KEY=FILE (never as a
value on the command line). Keys from `openssl genpkey -algorithm ed25519` work too.

EXAMPLES:
  sgctl certificate keygen /etc/sgctl/signing.pem")]
    Keygen(KeygenArgs),
    /// Add the validator's identity and Ed25519 signature to a signed certificate.
    #[command(after_help = "\
The second person of a sanitization (NIST SP 800-88 Rev. 2 separates verification from
validation; the Rev. 1 Appendix G form has a \"validated by\" block) signs what the operator
signed: the record hashes and the operator's signature, with their name, title and the time.
The certificate must be signed (--signing-key when it was written). The countersignature is
appended to the JSON without changing the records' bytes; FILE.html and FILE.pdf are written
again so the printed certificate shows it. `sgctl certificate verify` checks every signature
and says who signed what.

The key is read from a file (mode 0600, refused when group or others can read it), never from
the command line.

EXAMPLES:
  sgctl certificate countersign wipe-rack12.json --key ~/.sgctl/validator.pem \\
      --name \"R. Auditor\" --title \"IT security officer\" --organisation \"Example Corp\"")]
    Countersign(CountersignArgs),
}

/// `sgctl certificate countersign`.
#[derive(Debug, clap::Args)]
pub(crate) struct CountersignArgs {
    /// The certificate (JSON), signed.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The validator's Ed25519 private key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The validator's name.
    #[arg(long, value_name = "NAME")]
    pub name: String,
    /// Title or position.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Organisation.
    #[arg(long, value_name = "TEXT")]
    pub organisation: Option<String>,
    /// Location.
    #[arg(long, value_name = "TEXT")]
    pub location: Option<String>,
    /// Phone or e-mail.
    #[arg(long, value_name = "TEXT")]
    pub contact: Option<String>,
}

/// `sgctl certificate verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// The certificate (JSON).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The signer's public key (SPKI PEM, e.g. KEY.pub from `keygen`) that must have signed.
    #[arg(long, value_name = "FILE")]
    pub pubkey: Option<PathBuf>,
    /// The validator's public key that must have made every countersignature.
    #[arg(long, value_name = "FILE")]
    pub countersigner_pubkey: Option<PathBuf>,
}

/// `sgctl certificate keygen`.
#[derive(Debug, clap::Args)]
pub(crate) struct KeygenArgs {
    /// Where to write the private key (FILE.pub gets the public key). Never overwritten.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Runs `sgctl certificate`.
pub(crate) fn run(_ctx: &mut Ctx, args: CertificateArgs) -> anyhow::Result<Report> {
    match args.command {
        CertificateCommand::Verify(a) => verify(a),
        CertificateCommand::Countersign(a) => countersign(a),
        CertificateCommand::Keygen(a) => {
            let vk = sign::generate_key(&a.file)?;
            let fp = sign::fingerprint(&vk);
            let pub_path = sign::pub_path(&a.file);
            let text = format!(
                "wrote {} (private, 0600) and {}\nfingerprint {fp}\n",
                a.file.display(),
                pub_path.display()
            );
            let data = json!({
                "private_key": a.file.display().to_string(),
                "public_key": pub_path.display().to_string(),
                "fingerprint": fp,
            });
            Ok(Report::new(None, &data, text))
        }
    }
}

fn countersign(a: CountersignArgs) -> anyhow::Result<Report> {
    use sgctl::ops::record_fields::{check_text, Person};
    let mut problems = Vec::new();
    let mut t = |flag: &str, v: Option<&str>| {
        v.and_then(|s| check_text(flag, s).map_err(|e| problems.push(e)).ok())
    };
    let who = Person {
        name: t("--name", Some(&a.name)),
        title: t("--title", a.title.as_deref()),
        organisation: t("--organisation", a.organisation.as_deref()),
        location: t("--location", a.location.as_deref()),
        contact: t("--contact", a.contact.as_deref()),
    };
    if !problems.is_empty() {
        return Err(sgctl::error::Invalid::BadReport {
            path: "countersignature".into(),
            reason: problems.join("; "),
        }
        .into());
    }
    let key = sign::CertSigner::load(&a.key)?;
    let fp = sgctl::ops::countersign::countersign_file(&a.file, &key, &who)?;
    let text = format!(
        "{}: countersigned by {} (key {fp}); {}.html and {}.pdf written again\n",
        a.file.display(),
        who.line(),
        a.file.display(),
        a.file.display()
    );
    let data = json!({
        "certificate": a.file.display().to_string(),
        "signer": who,
        "key_fingerprint": fp,
    });
    Ok(Report::new(None, &data, text))
}

fn verify(a: VerifyArgs) -> anyhow::Result<Report> {
    let trusted = a.pubkey.as_deref().map(sign::load_public).transpose()?;
    let counter_trusted = a
        .countersigner_pubkey
        .as_deref()
        .map(sign::load_public)
        .transpose()?;
    let content = std::fs::read(&a.file)
        .map_err(|e| Error::io(format!("certificate {}", a.file.display()), e))?;
    if let Some(doc) = serde_json::from_slice::<serde_json::Value>(&content)
        .ok()
        .filter(|d| d.get("manifest").is_some())
    {
        return Ok(verify_manifest(&a, &doc, trusted.as_ref()));
    }
    let v = sign::verify(&content, trusted.as_ref());
    let counters = sgctl::ops::countersign::verify(&content, counter_trusted.as_ref());
    let mut text = String::new();
    for p in &v.problems {
        let _ = writeln!(text, "INVALID {}: {}", p.position, p.message);
    }
    let _ = writeln!(
        text,
        "{}: {} records ({}), signer {}{}: {}",
        a.file.display(),
        v.records,
        v.serials.join(", "),
        v.signer_fingerprint.as_deref().unwrap_or("-"),
        if v.key_trusted {
            " (checked against --pubkey)"
        } else {
            " (embedded key; pass --pubkey to check who signed)"
        },
        if v.ok() { "valid" } else { "NOT valid" }
    );
    for c in &counters {
        let who = serde_json::from_value::<sgctl::ops::record_fields::Person>(c.signer.clone())
            .map(|p| p.line())
            .unwrap_or_else(|_| "-".into());
        let _ = writeln!(
            text,
            "countersignature {} ({}): {who}, {}, key {}{}: {}",
            c.index,
            c.role,
            c.signed_at,
            c.key_fingerprint.as_deref().unwrap_or("-"),
            if c.key_trusted {
                " (checked against --countersigner-pubkey)"
            } else {
                " (embedded key)"
            },
            match &c.problem {
                None => "valid".to_string(),
                Some(p) => format!("NOT valid: {p}"),
            }
        );
    }
    if counter_trusted.is_some() && counters.is_empty() {
        let _ = writeln!(
            text,
            "INVALID countersignature: --countersigner-pubkey given but the certificate has none"
        );
    }
    let ok = v.ok()
        && counters.iter().all(|c| c.valid)
        && !(counter_trusted.is_some() && counters.is_empty());
    let exit = if ok {
        sgctl::exit::OK
    } else {
        sgctl::exit::CHECK_FAILED
    };
    let mut data = serde_json::to_value(&v).unwrap_or_default();
    data["countersignatures"] = serde_json::to_value(&counters).unwrap_or_default();
    data["valid"] = ok.into();
    Ok(Report::new(None, &data, text).with_exit(exit))
}

/// `certificate verify` of a batch manifest ([`sgctl::ops::manifest`]).
fn verify_manifest(
    a: &VerifyArgs,
    doc: &serde_json::Value,
    trusted: Option<&ed25519_dalek::VerifyingKey>,
) -> Report {
    let mut problems = sgctl::ops::manifest::verify(doc, trusted);
    let certificate = certificate_against_manifest(&a.file, doc);
    if let CertCheck::Problem(p) = &certificate {
        problems.push(p.clone());
    }
    let mut text = String::new();
    for p in &problems {
        let _ = writeln!(text, "INVALID manifest: {p}");
    }
    let _ = writeln!(text, "certificate file: {}", certificate.describe());
    let _ = writeln!(
        text,
        "{}: manifest of {} drives, certificate {} (SHA-256 {}), signer {}{}: {}",
        a.file.display(),
        doc["manifest"]["drives"],
        doc["manifest"]["certificate"].as_str().unwrap_or("-"),
        doc["manifest"]["certificate_sha256"]
            .as_str()
            .unwrap_or("-"),
        doc["signature"]["key_fingerprint"].as_str().unwrap_or("-"),
        if trusted.is_some() {
            " (checked against --pubkey)"
        } else {
            " (embedded key; pass --pubkey to check who signed)"
        },
        if problems.is_empty() {
            "valid"
        } else {
            "NOT valid"
        }
    );
    let data = json!({
        "manifest": true,
        "drives": doc["manifest"]["drives"],
        "signer_fingerprint": doc["signature"]["key_fingerprint"],
        "key_trusted": trusted.is_some(),
        "certificate_file": certificate.describe(),
        "problems": problems,
        "valid": problems.is_empty(),
    });
    let exit = if problems.is_empty() {
        sgctl::exit::OK
    } else {
        sgctl::exit::CHECK_FAILED
    };
    Report::new(None, &data, text).with_exit(exit)
}

/// What the certificate a manifest names says of the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CertCheck {
    /// The file's SHA-256 is the one the manifest lists.
    Same,
    /// The file changed since the manifest (a countersignature appends to it), but every
    /// drive's record in it hashes as the manifest lists.
    RecordsSame,
    /// Not beside the manifest, or not readable: only the manifest itself was checked.
    NotChecked(String),
    /// The certificate's records are not the ones the manifest lists.
    Problem(String),
}

impl CertCheck {
    fn describe(&self) -> String {
        match self {
            Self::Same => "present, its SHA-256 is the one the manifest lists".into(),
            Self::RecordsSame => "present and changed since the manifest (countersigned or \
                 re-written), but every drive's record in it is the one the manifest lists \
                 (check the certificate itself with `sgctl certificate verify`)"
                .into(),
            Self::NotChecked(why) => format!("not checked: {why}"),
            Self::Problem(p) => p.clone(),
        }
    }
}

/// Checks the certificate a manifest names, looked for beside the manifest (the manifest holds
/// its file name only): the file's SHA-256, else each drive's record hash as written in it.
fn certificate_against_manifest(manifest: &std::path::Path, doc: &serde_json::Value) -> CertCheck {
    use sgctl::ops::audit::chain::sha256_hex;
    let Some(name) = doc["manifest"]["certificate"].as_str() else {
        return CertCheck::NotChecked("the manifest names no certificate file".into());
    };
    // A bare file name, never a path the manifest's author could point elsewhere.
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return CertCheck::Problem(format!(
            "the manifest names its certificate as \"{}\", which is not a file name",
            sgctl::escape::escape(name)
        ));
    }
    let path = manifest
        .parent()
        .unwrap_or_else(|| std::path::Path::new("."))
        .join(name);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => return CertCheck::NotChecked(format!("{}: {e}", path.display())),
    };
    if doc["manifest"]["certificate_sha256"].as_str() == Some(sha256_hex(&bytes).as_str()) {
        return CertCheck::Same;
    }
    let listed: Vec<Option<&str>> = doc["drives"]
        .as_array()
        .map(|d| d.iter().map(|x| x["record_sha256"].as_str()).collect())
        .unwrap_or_default();
    match sign::written_record_hashes(&bytes) {
        Some(h)
            if h.len() == listed.len()
                && h.iter().zip(&listed).all(|(a, b)| Some(a.as_str()) == *b) =>
        {
            CertCheck::RecordsSame
        }
        Some(h) => CertCheck::Problem(format!(
            "the certificate {} holds {} records that are not the {} the manifest lists",
            path.display(),
            h.len(),
            listed.len()
        )),
        None => CertCheck::Problem(format!(
            "the certificate {} has no readable records",
            path.display()
        )),
    }
}
