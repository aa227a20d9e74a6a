//! Sanitizes a virtual drive through the library alone, as `sgctl sanitize --method auto
//! --confirm EX1 --verify 8 --certificate FILE` does: the safety gate (the drive must be named),
//! an audit record before and after, sampled verification and a certificate.
//! Run: `cargo run --example sanitize_sim`
use sgctl::ops::jobs::{self, sanitize::SanitizeJob, JobOptions};
use sgctl::ops::sanitize::{Method, SanitizeOptions};

fn main() -> sgctl::Result<()> {
    let dir = std::env::temp_dir().join(format!("sgctl-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| sgctl::Error::io("temp dir", e))?;
    let drive = format!(
        "sim:px02smf080?clock=virtual&serial=EX1&state={}/d",
        dir.display()
    );
    let opts = JobOptions {
        confirm: vec!["EX1".into()], // the serial or WWN; without it the gate refuses
        audit_log: Some(dir.join("audit.jsonl")),
        certificate: Some(dir.join("certificate.json")),
        ..JobOptions::default()
    };
    let how = SanitizeOptions {
        verify: 8,
        ..SanitizeOptions::new(Method::Auto)
    };
    let run = jobs::run_unattended(&[drive], &opts, || {
        Box::new(SanitizeJob::new(how.clone(), 1))
    })?;
    let r = &run.records[0];
    println!(
        "{} {}: {} (exit {})",
        r.job, r.drive.serial, r.outcome, run.exit
    );
    println!("audit log and certificate in {}", dir.display());
    Ok(())
}
