//! `sgctl certificate verify|keygen`: Ed25519-signed certificates
//! ([`crate::ops::sign`]).

use crate::cli::{Ctx, Report};
use crate::error::Error;
use crate::ops::sign;
use serde_json::json;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Certificate tools.
#[derive(Debug, clap::Args)]
pub struct CertificateArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CertificateCommand,
}

/// `sgctl certificate` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum CertificateCommand {
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
}

/// `sgctl certificate verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The certificate (JSON).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The signer's public key (SPKI PEM, e.g. KEY.pub from `keygen`) that must have signed.
    #[arg(long, value_name = "FILE")]
    pub pubkey: Option<PathBuf>,
}

/// `sgctl certificate keygen`.
#[derive(Debug, clap::Args)]
pub struct KeygenArgs {
    /// Where to write the private key (FILE.pub gets the public key). Never overwritten.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Runs `sgctl certificate`.
pub fn run(_ctx: &mut Ctx, args: CertificateArgs) -> anyhow::Result<Report> {
    match args.command {
        CertificateCommand::Verify(a) => verify(a),
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

fn verify(a: VerifyArgs) -> anyhow::Result<Report> {
    let trusted = a.pubkey.as_deref().map(sign::load_public).transpose()?;
    let content = std::fs::read(&a.file)
        .map_err(|e| Error::io(format!("certificate {}", a.file.display()), e))?;
    let v = sign::verify(&content, trusted.as_ref());
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
    let exit = if v.ok() {
        crate::exit::OK
    } else {
        crate::exit::CHECK_FAILED
    };
    Ok(Report::new(None, &v, text).with_exit(exit))
}
