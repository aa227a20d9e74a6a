//! Project chores that need tools the normal build must not depend on.
//!
//! `cargo run -p xtask -- gen-sys` regenerates `sys/src/x86_64.rs` from `sys/wrapper.h` with
//! bindgen (needs libclang: `apt-get install libclang-dev`); `gen-sys --check` regenerates into a
//! temporary file and fails if it differs from the committed one (run by scripts/test-all.sh).
//!
//! bindgen is an optional dependency (feature `bindgen`) so `cargo clippy/test --workspace` do not
//! build it; without the feature this program re-runs itself through cargo with the feature on.
//!
//! `cargo run -p xtask -- gen-docs [--check]` renders the man pages and shell completions into
//! `dist/`: the sgctl binary renders them from its own clap definitions (`sgctl --generate-docs`,
//! src/cli/gen_docs.rs); `SGCTL_BIN=path` uses that build of sgctl instead of `cargo run`.
//!
//! `cargo run -p xtask -- gen-deb [--check]` writes the Debian copyright file (DEP-5, every
//! statically linked crate with its license, each checked against an allow list) and the Debian
//! changelog's entry for the current version into `dist/debian/` (see `deb.rs`).
//!
//! `cargo run --release -p xtask -- sim-capacity [GIB...] [PROFILE...]` prints docs/sim-media.md's table of
//! the virtual drives' figures at 1, 4, 16 and 64 GiB (see `sim_capacity.rs`).

mod deb;
mod sim_capacity;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str =
    "usage: cargo run -p xtask -- gen-sys|gen-docs|gen-deb [--check] | sim-capacity [GIB...] [PROFILE...]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    if argv.first() == Some(&"sim-capacity") {
        return match sim_capacity::sim_capacity(&argv[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("xtask sim-capacity: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let (task, check) = match argv.as_slice() {
        [t] => (*t, false),
        [t, "--check"] => (*t, true),
        _ => ("", false),
    };
    let result = match task {
        "gen-sys" => gen_sys(check),
        "gen-docs" => gen_docs(check),
        "gen-deb" => deb::gen_deb(&root(), check),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {task}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The man pages and completions: the sgctl binary renders them from its own clap definitions
/// (the command line is the binary's, not library API), so this runs
/// `sgctl --generate-docs ROOT [--check]`: the binary `$SGCTL_BIN` names when set (a build of
/// this tree, e.g. scripts/test-all.sh's `cargo build --workspace`), else through `cargo run`.
/// `cargo run -p sgctl` resolves features for sgctl alone, without the workspace's
/// dev-dependencies, so after a workspace build it compiles serde and most of the tree again.
fn gen_docs(check: bool) -> Result<(), String> {
    let root = root();
    let mut cmd = match std::env::var_os("SGCTL_BIN").filter(|b| !b.is_empty()) {
        Some(bin) => std::process::Command::new(bin),
        None => {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
            let mut c = std::process::Command::new(cargo);
            c.args(["run", "-q", "-p", "sgctl", "--bin", "sgctl", "--"]);
            c
        }
    };
    cmd.current_dir(&root).arg("--generate-docs").arg(&root);
    if check {
        cmd.arg("--check");
    }
    let status = cmd
        .status()
        .map_err(|e| format!("running {}: {e}", cmd.get_program().to_string_lossy()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("sgctl --generate-docs failed ({status})"))
    }
}

/// The workspace root (this crate lives in `<root>/xtask`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The committed bindings for the architecture we run on.
#[cfg(feature = "bindgen")]
fn committed_path() -> Result<PathBuf, String> {
    let arch = std::env::consts::ARCH;
    if arch != "x86_64" {
        return Err(format!(
            "only x86_64 bindings are generated so far (this is {arch})"
        ));
    }
    Ok(root().join("sys/src").join(format!("{arch}.rs")))
}

#[cfg(not(feature = "bindgen"))]
fn gen_sys(check: bool) -> Result<(), String> {
    // Re-run ourselves with bindgen compiled in; cargo sets $CARGO for `cargo run`.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = std::process::Command::new(cargo);
    cmd.current_dir(root()).args([
        "run",
        "--quiet",
        "-p",
        "xtask",
        "--features",
        "bindgen",
        "--",
        "gen-sys",
    ]);
    if check {
        cmd.arg("--check");
    }
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("generator exited with {status}"))
    }
}

#[cfg(feature = "bindgen")]
fn gen_sys(check: bool) -> Result<(), String> {
    let committed = committed_path()?;
    let tmp = std::env::temp_dir().join(format!("sgctl-sys-{}.rs", std::process::id()));
    let result = generate(&tmp).and_then(|()| {
        std::fs::read_to_string(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))
    });
    let _ = std::fs::remove_file(&tmp);
    let fresh = result?;
    if check {
        let old = std::fs::read_to_string(&committed)
            .map_err(|e| format!("{}: {e}", committed.display()))?;
        if old == fresh {
            println!("{}: up to date", committed.display());
            return Ok(());
        }
        let line = old
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map(|i| i + 1)
            .unwrap_or_else(|| old.lines().count().min(fresh.lines().count()) + 1);
        return Err(format!(
            "{} is stale (first difference at line {line}); run `cargo run -p xtask -- gen-sys` and commit",
            committed.display()
        ));
    }
    std::fs::write(&committed, fresh).map_err(|e| format!("{}: {e}", committed.display()))?;
    println!("wrote {}", committed.display());
    Ok(())
}

/// Runs bindgen on sys/wrapper.h and rustfmt on the result (so `cargo fmt` leaves it alone).
#[cfg(feature = "bindgen")]
fn generate(out: &Path) -> Result<(), String> {
    let header = root().join("sys/wrapper.h");
    let target = bindgen::RustTarget::stable(85, 0).map_err(|e| e.to_string())?;
    let bindings = bindgen::Builder::default()
        .header(header.to_string_lossy())
        .rust_target(target)
        .raw_line(
            "// Generated by `cargo run -p xtask -- gen-sys` from sys/wrapper.h; do not edit.",
        )
        .raw_line("// Headers: <scsi/sg.h> (Debian libc6-dev), <linux/bsg.h> and")
        .raw_line("// <linux/target_core_user.h> (linux-libc-dev).")
        .allowlist_type("sg_io_hdr|sg_iovec|sg_scsi_id|sg_req_info|sg_io_v4")
        .allowlist_type("tcmu_cmd_entry_hdr|tcmu_tmr_entry|tcmu_opcode|sgctl_tcmu_layout")
        // Packed structs with aligned members: Rust cannot express them, so size-only (opaque);
        // their field offsets come from the sgctl_tcmu_layout enum in wrapper.h.
        .allowlist_type("tcmu_mailbox|tcmu_cmd_entry")
        .opaque_type("tcmu_mailbox|tcmu_cmd_entry")
        .allowlist_var("SG_.*|BSG_.*|TCMU_.*|ALIGN_SIZE")
        .derive_default(true)
        .use_core()
        .generate_comments(true)
        .layout_tests(true)
        .formatter(bindgen::Formatter::None)
        .generate()
        .map_err(|e| format!("bindgen: {e}"))?;
    bindings
        .write_to_file(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let status = std::process::Command::new("rustfmt")
        .args(["--edition", "2021"])
        .arg(out)
        .status()
        .map_err(|e| format!("cannot run rustfmt: {e}"))?;
    if !status.success() {
        return Err(format!("rustfmt exited with {status}"));
    }
    Ok(())
}
