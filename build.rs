//! Records the git revision in the binary so reports and certificates can name the exact build.
//!
//! Cargo reruns this script when HEAD moves: on a checkout (`<git-dir>/HEAD`) and on a commit
//! to the checked-out branch (the ref file, or `packed-refs` once git has packed it), so the
//! `git_revision` in an envelope or certificate is never the one of an older commit.
use std::path::{Path, PathBuf};
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Tells cargo to rerun when `p` changes; only for files that exist (cargo reruns every build
/// for a path that does not).
fn watch(p: &Path) {
    if p.exists() {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SGCTL_GIT_REV");
    let rev = std::env::var("SGCTL_GIT_REV")
        .ok()
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]));
    // `--git-dir` is per worktree (HEAD lives there), `--git-common-dir` holds refs/ and
    // packed-refs; both may be relative to the current directory.
    if let (Some(dir), Some(common)) = (
        git(&["rev-parse", "--git-dir"]),
        git(&["rev-parse", "--git-common-dir"]),
    ) {
        let (dir, common) = (PathBuf::from(dir), PathBuf::from(common));
        watch(&dir.join("HEAD"));
        if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch(&common.join(&r));
            watch(&dir.join(&r));
        }
        watch(&common.join("packed-refs"));
    }
    println!(
        "cargo:rustc-env=SGCTL_GIT_REV={}",
        rev.unwrap_or_else(|| "unknown".into())
    );
}
