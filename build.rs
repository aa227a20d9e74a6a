//! Records the git revision in the binary so reports and certificates can name the exact build.
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SGCTL_GIT_REV");
    let rev = std::env::var("SGCTL_GIT_REV").ok().or_else(|| {
        Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
    });
    println!(
        "cargo:rustc-env=SGCTL_GIT_REV={}",
        rev.unwrap_or_else(|| "unknown".into())
    );
}
