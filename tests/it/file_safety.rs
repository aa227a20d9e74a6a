//! Files sgctl reads and writes next to other users (docs/security.md): outputs of a
//! destructive job checked before anything is sent, never written through symlinks nor over
//! the job's own inputs; the virtual drive's state file saved without following a planted
//! temp name, under one lock for every name of the file, 0600, and a save on a full file
//! system reported as a failure; credential files read as bytes and only when private.

use crate::util::sgctl_cmd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;

const SERIAL: &str = "FSAFE001";

struct Env {
    dir: tempfile::TempDir,
    addr: String,
    state: PathBuf,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("drive.json");
        let addr = format!(
            "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial={SERIAL}&state={}",
            state.display()
        );
        let e = Env { dir, addr, state };
        // The drive exists (its state file is written) before the job is tried.
        let o = e.run(&["tur", &e.addr]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        e
    }

    fn path(&self, n: &str) -> PathBuf {
        self.dir.path().join(n)
    }

    fn run(&self, args: &[&str]) -> Output {
        sgctl_cmd()
            .args(args)
            .env("SGCTL_AUDIT_LOG", self.path("audit.jsonl"))
            .env("SGCTL_LOCK_DIR", self.path("locks"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    }

    /// `format` with a certificate at `cert` (and `extra` flags).
    fn format(&self, cert: &Path, extra: &[&str]) -> Output {
        let c = cert.display().to_string();
        let mut a = vec![
            "format",
            &self.addr,
            "--block-size",
            "4096",
            "--confirm",
            SERIAL,
            "--poll-interval",
            "0",
            "--certificate",
            &c,
        ];
        a.extend_from_slice(extra);
        self.run(&a)
    }
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The state file's bytes: unchanged means the drive was not opened, let alone formatted.
fn state_bytes(e: &Env) -> Vec<u8> {
    std::fs::read(&e.state).unwrap()
}

fn started(e: &Env) -> bool {
    std::fs::read_to_string(e.path("audit.jsonl"))
        .unwrap_or_default()
        .contains("\"event\":\"start\"")
}

#[test]
fn certificate_in_missing_directory_is_refused_before_anything_is_sent() {
    let e = Env::new();
    let before = state_bytes(&e);
    let o = e.format(&e.path("no/such/dir/cert.json"), &[]);
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("does not exist"), "{}", err(&o));
    assert_eq!(state_bytes(&e), before, "the drive was touched");
    assert!(!started(&e));
}

#[test]
fn certificate_on_a_read_only_file_system_is_refused_up_front() {
    // A read-only tmpfs in a private mount namespace (needs user namespaces or root).
    let e = Env::new();
    let before = state_bytes(&e);
    let ro = e.path("ro");
    std::fs::create_dir(&ro).unwrap();
    let script = r#"mount -t tmpfs -o ro tmpfs "$1" || exit 97
exec "$2" format "$3" --block-size 4096 --confirm "$4" --poll-interval 0 --certificate "$1/cert.json""#;
    let o = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script, "sh"])
        .arg(&ro)
        .arg(env!("CARGO_BIN_EXE_sgctl"))
        .arg(&e.addr)
        .arg(SERIAL)
        .env("SGCTL_AUDIT_LOG", e.path("audit.jsonl"))
        .env("SGCTL_LOCK_DIR", e.path("locks"))
        .output();
    let Ok(o) = o else {
        eprintln!("SKIP: no unshare here");
        return;
    };
    if o.status.code() == Some(97) || err(&o).contains("unshare failed") {
        eprintln!("SKIP: cannot mount a tmpfs here: {}", err(&o));
        return;
    }
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("read-only"), "{}", err(&o));
    assert_eq!(state_bytes(&e), before);
    assert!(!started(&e));
}

#[test]
fn certificate_naming_the_audit_log_state_file_or_key_is_refused() {
    let e = Env::new();
    std::fs::write(e.path("audit.jsonl"), "{\"earlier\":1}\n").unwrap();
    let o = e.format(&e.path("audit.jsonl"), &["--force"]);
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("is the audit log"), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(e.path("audit.jsonl")).unwrap(),
        "{\"earlier\":1}\n"
    );
    // The state file, by another spelling.
    let before = state_bytes(&e);
    let other = e.dir.path().join(".").join("drive.json");
    let o = e.format(&other, &["--force"]);
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("is the state file"), "{}", err(&o));
    assert_eq!(state_bytes(&e), before);
    // The signing key (its .txt rendering would not clobber it, the JSON would).
    let key = e.path("sign.pem");
    let o = e.run(&["certificate", "keygen", &key.display().to_string()]);
    assert!(o.status.success(), "{}", err(&o));
    let k = std::fs::read(&key).unwrap();
    let ks = key.display().to_string();
    let o = e.format(&key, &["--force", "--signing-key", &ks]);
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("is the signing key"), "{}", err(&o));
    assert_eq!(std::fs::read(&key).unwrap(), k);
    assert!(!started(&e));
}

#[test]
fn existing_certificate_is_replaced_only_with_force() {
    let e = Env::new();
    let cert = e.path("cert.json");
    std::fs::write(&cert, "an earlier certificate").unwrap();
    let before = state_bytes(&e);
    let o = e.format(&cert, &[]);
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("--force"), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(&cert).unwrap(),
        "an earlier certificate"
    );
    assert_eq!(state_bytes(&e), before);
    let o = e.format(&cert, &["--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&cert).unwrap()).unwrap();
    assert_eq!(v["certificates"][0]["drive"]["serial"], SERIAL);
    let m = std::fs::metadata(&cert).unwrap().permissions().mode() & 0o777;
    assert_eq!(m, 0o644);
}

#[test]
fn certificate_symlink_is_refused_and_its_target_untouched() {
    let e = Env::new();
    let victim = e.path("victim");
    std::fs::write(&victim, "precious").unwrap();
    let cert = e.path("cert.json");
    symlink(&victim, &cert).unwrap();
    let o = e.format(&cert, &[]);
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("symbolic link"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // With --force the link itself is replaced by the certificate; the target stays.
    let o = e.format(&cert, &["--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&cert).unwrap().is_file());
}

#[test]
fn state_save_ignores_a_planted_temp_name_and_is_private() {
    let d = tempfile::tempdir().unwrap();
    let victim = d.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let state = d.path().join("drive.json");
    // The predictable names the old save used.
    symlink(&victim, d.path().join("drive.tmp")).unwrap();
    let spec = format!("px02smf080?capacity_blocks=65536&state={}", state.display());
    sgctl::sim::open(&spec).unwrap().save().unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // It holds the drive's credentials (MSID, PSID, PINs): owner-only.
    let m = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(m, 0o600);
    let lock = std::fs::metadata(d.path().join("drive.lock")).unwrap();
    assert_eq!(lock.permissions().mode() & 0o077, 0);
}

#[test]
fn two_names_of_one_state_file_are_one_drive() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real.json");
    let alias = d.path().join("alias.json");
    let spec = |p: &Path| format!("px02smf080?capacity_blocks=65536&state={}", p.display());
    sgctl::sim::open(&spec(&real)).unwrap().save().unwrap();
    symlink(&real, &alias).unwrap();
    let first = sgctl::sim::open(&spec(&real)).unwrap();
    let second = sgctl::sim::open(&spec(&alias));
    assert!(
        second.is_err(),
        "one state file opened twice through two names"
    );
    assert!(second
        .err()
        .unwrap()
        .to_string()
        .contains("in use by another process"));
    drop(first);
    // Through the link: the drive is saved into its target, the link stays a link.
    let before = std::fs::read(&real).unwrap();
    let dev = sgctl::sim::open(&spec(&alias)).unwrap();
    dev.clock().advance(std::time::Duration::from_secs(3600));
    dev.save().unwrap();
    drop(dev);
    assert!(std::fs::symlink_metadata(&alias).unwrap().is_symlink());
    assert_ne!(std::fs::read(&real).unwrap(), before);
}

#[test]
fn state_symlink_to_a_missing_file_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let link = d.path().join("drive.json");
    symlink(d.path().join("elsewhere/new.json"), &link).unwrap();
    let spec = format!("px02smf080?state={}", link.display());
    let e = sgctl::sim::open(&spec).unwrap_err();
    assert!(e.to_string().contains("missing file"), "{e}");
}

#[test]
fn state_save_on_a_full_file_system_fails_the_command() {
    // A 64 KiB tmpfs, filled, in a private mount namespace (needs user namespaces or root).
    let d = tempfile::tempdir().unwrap();
    let mnt = d.path().join("full");
    std::fs::create_dir(&mnt).unwrap();
    let script = r#"mount -t tmpfs -o size=64k tmpfs "$1" || exit 97
dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
exec "$2" tur "sim:px02smf080?capacity_blocks=65536&serial=FULL0001&state=$1/drive.json""#;
    let o = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script, "sh"])
        .arg(&mnt)
        .arg(env!("CARGO_BIN_EXE_sgctl"))
        .env("SGCTL_AUDIT_LOG", d.path().join("audit.jsonl"))
        .output();
    let Ok(o) = o else {
        eprintln!("SKIP: no unshare here");
        return;
    };
    if o.status.code() == Some(97) || err(&o).contains("unshare failed") {
        eprintln!("SKIP: cannot mount a tmpfs here: {}", err(&o));
        return;
    }
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("No space left on device"), "{}", err(&o));
    assert!(err(&o).contains("not saved"), "{}", err(&o));
}

fn private(p: &Path, b: &[u8], mode: u32) {
    std::fs::write(p, b).unwrap();
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn binary_pins_are_compared_as_bytes() {
    let e = Env::new();
    // Two PINs that lossy UTF-8 made equal (both became U+FFFD U+FFFD -pin).
    private(&e.path("a.pin"), b"\xff\xfe-pin\n", 0o600);
    private(&e.path("b.pin"), b"\xfe\xff-pin\n", 0o600);
    let a = e.path("a.pin").display().to_string();
    let b = e.path("b.pin").display().to_string();
    let o = e.run(&["tcg", "take-ownership", &e.addr, "--new-pin-file", &a]);
    assert!(o.status.success(), "{}", err(&o));
    let o = e.run(&["tcg", "lock", &e.addr, "--band", "0", "--pin-file", &b]);
    assert!(!o.status.success(), "another PIN's bytes unlocked the band");
    let o = e.run(&["tcg", "lock", &e.addr, "--band", "0", "--pin-file", &a]);
    assert!(o.status.success(), "{}", err(&o));
}

#[test]
fn credential_files_others_can_read_are_refused() {
    let e = Env::new();
    for (mode, n) in [(0o666, "w.pin"), (0o644, "r.pin")] {
        private(&e.path(n), b"some-pin\n", mode);
        let p = e.path(n).display().to_string();
        let o = e.run(&["tcg", "lock", &e.addr, "--band", "0", "--pin-file", &p]);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        assert!(err(&o).contains("chmod 600"), "{}", err(&o));
        assert!(!err(&o).contains("some-pin"));
    }
    // Longer than a C_PIN (32 bytes).
    private(&e.path("long.pin"), &[b'x'; 33], 0o600);
    let p = e.path("long.pin").display().to_string();
    let o = e.run(&["tcg", "lock", &e.addr, "--band", "0", "--pin-file", &p]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("longer than 32 bytes"), "{}", err(&o));
}

#[test]
fn pin_env_that_is_not_utf8_is_not_called_unset() {
    let e = Env::new();
    let o = sgctl_cmd()
        .args([
            "tcg",
            "lock",
            &e.addr,
            "--band",
            "0",
            "--pin-env",
            "SGCTL_T_BIN",
        ])
        .env("SGCTL_T_BIN", std::ffi::OsStr::from_bytes(b"\xff\xfe"))
        .output()
        .unwrap();
    assert!(!err(&o).contains("is not set"), "{}", err(&o));
    // It was used as the PIN (a wrong one for a factory drive).
    assert!(!o.status.success());
    assert!(err(&o).contains("wrong PIN"), "{}", err(&o));
}

#[test]
fn bench_report_on_a_read_only_file_system_is_refused_before_any_write() {
    let e = Env::new();
    let before = state_bytes(&e);
    let ro = e.path("ro");
    std::fs::create_dir(&ro).unwrap();
    let script = r#"mount -t tmpfs -o ro tmpfs "$1" && mkdir -p "$1" || exit 97
exec "$2" bench run "$3" --rw randwrite --runtime 0.1 --confirm "$4" --report "$1""#;
    let o = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", script, "sh"])
        .arg(&ro)
        .arg(env!("CARGO_BIN_EXE_sgctl"))
        .arg(&e.addr)
        .arg(SERIAL)
        .env("SGCTL_AUDIT_LOG", e.path("audit.jsonl"))
        .env("SGCTL_LOCK_DIR", e.path("locks"))
        .output();
    let Ok(o) = o else {
        eprintln!("SKIP: no unshare here");
        return;
    };
    if o.status.code() == Some(97) || err(&o).contains("unshare failed") {
        eprintln!("SKIP: cannot mount a tmpfs here: {}", err(&o));
        return;
    }
    assert_eq!(o.status.code(), Some(6), "{}", err(&o));
    assert!(err(&o).contains("read-only"), "{}", err(&o));
    assert_eq!(state_bytes(&e), before, "the drive was written");
    assert!(!started(&e));
}
