use super::*;
use proptest::prelude::*;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

fn mode_of(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn planted_symlink_is_replaced_never_followed() {
    let d = tempfile::tempdir().unwrap();
    let victim = d.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let target = d.path().join("state.json");
    symlink(&victim, &target).unwrap();
    // Without intent: refused, nothing changes.
    let e = write_atomic(&target, b"{}", MODE_SECRET, Replace::Never).unwrap_err();
    assert!(e.to_string().contains("--force"), "{e}");
    assert!(std::fs::symlink_metadata(&target).unwrap().is_symlink());
    // With intent: the link itself is replaced; the victim is untouched.
    write_atomic(&target, b"{}", MODE_SECRET, Replace::Always).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&target).unwrap().is_file());
    assert_eq!(std::fs::read(&target).unwrap(), b"{}");
    assert_eq!(mode_of(&target), 0o600);
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn planted_predictable_temp_name_is_not_used() {
    // The old save wrote `<state>.tmp` through any symlink found there.
    let d = tempfile::tempdir().unwrap();
    let victim = d.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let target = d.path().join("drive.json");
    symlink(&victim, d.path().join("drive.tmp")).unwrap();
    symlink(&victim, d.path().join("drive.json.tmp")).unwrap();
    write_atomic(&target, b"{\"pin\":1}", MODE_SECRET, Replace::Always).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(mode_of(&target), 0o600);
}

#[test]
fn mode_is_exact_whatever_the_umask_and_old_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("log");
    std::fs::write(&p, "old").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o666)).unwrap();
    write_atomic(&p, b"new", MODE_PUBLIC, Replace::Always).unwrap();
    assert_eq!(mode_of(&p), 0o644);
    write_atomic(&p, b"new", MODE_SECRET, Replace::Always).unwrap();
    assert_eq!(mode_of(&p), 0o600);
}

#[test]
fn failed_write_is_an_error_and_leaves_the_old_file() {
    // ENOSPC (or EIO) from the data write, as a full file system gives it.
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("state.json");
    std::fs::write(&p, "old state").unwrap();
    let e = write_with(&p, MODE_SECRET, Replace::Always, |f| {
        f.write_all(b"half")?;
        Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
    })
    .unwrap_err();
    assert_eq!(e.exit_code(), crate::exit::OTHER);
    assert!(e.to_string().contains("state.json"), "{e}");
    let src = std::error::Error::source(&e)
        .map(|s| s.to_string())
        .unwrap_or_default();
    assert!(src.contains("No space left"), "{src}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "old state");
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn write_to_dev_full_fails() {
    // A real ENOSPC from the kernel (not an injected one): /dev/full as the data sink.
    let Ok(mut full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("report.json");
    let e = write_with(&p, MODE_PUBLIC, Replace::Never, |_| {
        full.write_all(&[0u8; 4096])?;
        full.flush()
    })
    .unwrap_err();
    assert!(e.to_string().contains("report.json"), "{e}");
    assert!(!p.exists());
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn world_writable_dir_without_sticky_bit_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let open = d.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let e = write_atomic(&open.join("x"), b"1", MODE_PUBLIC, Replace::Never).unwrap_err();
    assert_eq!(e.exit_code(), crate::exit::REFUSED);
    // With the sticky bit (like /tmp) it is fine.
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).unwrap();
    write_atomic(&open.join("x"), b"1", MODE_PUBLIC, Replace::Never).unwrap();
}

#[test]
fn private_dir_checks() {
    let d = tempfile::tempdir().unwrap();
    // Created when missing, 0755, parents too (a system without /run/lock).
    let lk = d.path().join("locks");
    Dir::open_private(&lk).unwrap();
    assert_eq!(mode_of(&lk), 0o755);
    let deep = d.path().join("run/lock/sgctl");
    Dir::open_private(&deep).unwrap();
    assert_eq!(mode_of(&deep), 0o755);
    // A symlink to a directory: refused.
    let link = d.path().join("link");
    symlink(&lk, &link).unwrap();
    assert!(Dir::open_private(&link).is_err());
    // Another user's directory (the attacker made it first): refused.
    let theirs = d.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o777)).unwrap();
    if euid() == 0 {
        std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).unwrap();
        let e = Dir::open_private(&theirs).unwrap_err();
        assert!(e.to_string().contains("uid 65534"), "{e}");
    }
    // Our own 1777 directory (what sgctl made before): tightened.
    let ours = d.path().join("ours");
    std::fs::create_dir(&ours).unwrap();
    std::fs::set_permissions(&ours, std::fs::Permissions::from_mode(0o1777)).unwrap();
    Dir::open_private(&ours).unwrap();
    assert_eq!(mode_of(&ours) & 0o022, 0);
}

#[test]
fn lock_file_symlink_never_followed_nor_truncated() {
    let d = tempfile::tempdir().unwrap();
    let victim = d.path().join("shadow");
    std::fs::write(&victim, "root:x:0:0").unwrap();
    let lk = d.path().join("locks");
    let dir = Dir::open_private(&lk).unwrap();
    symlink(&victim, lk.join("lu-5000.lock")).unwrap();
    let e = dir
        .open_lock(OsStr::new("lu-5000.lock"), MODE_LOCK)
        .unwrap_err();
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "root:x:0:0");
    // A hard link to someone's file: refused too.
    std::fs::hard_link(&victim, lk.join("lu-6000.lock")).unwrap();
    assert!(dir
        .open_lock(OsStr::new("lu-6000.lock"), MODE_LOCK)
        .is_err());
    // An ordinary lock file is created without truncating an existing one.
    std::fs::write(lk.join("lu-7000.lock"), "holder").unwrap();
    let f = dir
        .open_lock(OsStr::new("lu-7000.lock"), MODE_LOCK)
        .unwrap();
    assert_eq!(f.metadata().unwrap().len(), 6);
}

#[test]
fn append_refuses_links_and_creates_0640() {
    let d = tempfile::tempdir().unwrap();
    let victim = d.path().join("victim");
    std::fs::write(&victim, "x").unwrap();
    let log = d.path().join("sub/audit.jsonl");
    let mut f = open_append(&log, MODE_LOG, 0o750).unwrap();
    f.write_all(b"line\n").unwrap();
    assert_eq!(mode_of(&log), 0o640);
    assert_eq!(mode_of(&d.path().join("sub")), 0o750);
    let evil = d.path().join("evil.jsonl");
    symlink(&victim, &evil).unwrap();
    assert!(open_append(&evil, MODE_LOG, 0o750).is_err());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "x");
}

#[test]
fn preflight_refuses_before_anything_is_written() {
    let d = tempfile::tempdir().unwrap();
    let none = Preflight::default();
    // Missing directory.
    let e = preflight_output(&d.path().join("nodir/cert.json"), &none).unwrap_err();
    assert_eq!(e.exit_code(), crate::exit::REFUSED);
    assert!(e.to_string().contains("does not exist"), "{e}");
    // Existing file: only with --force.
    let c = d.path().join("cert.json");
    std::fs::write(&c, "old").unwrap();
    assert!(preflight_output(&c, &none).is_err());
    preflight_output(
        &c,
        &Preflight {
            replace: true,
            ..Default::default()
        },
    )
    .unwrap();
    // Symlink at the name.
    let l = d.path().join("l.json");
    symlink(d.path().join("nowhere"), &l).unwrap();
    assert!(preflight_output(&l, &none)
        .unwrap_err()
        .to_string()
        .contains("symbolic link"));
    // Another file of the job, by another spelling and through a symlink.
    let audit = d.path().join("audit.jsonl");
    std::fs::write(&audit, "").unwrap();
    let p = Preflight {
        replace: true,
        others: vec![("audit log", audit.as_path())],
    };
    let spelled = d.path().join(".").join("audit.jsonl");
    let e = preflight_output(&spelled, &p).unwrap_err();
    assert!(e.to_string().contains("is the audit log"), "{e}");
    let alias = d.path().join("alias");
    symlink(&audit, &alias).unwrap();
    assert!(preflight_output(&alias, &p).is_err());
    // The audit log not existing yet still counts.
    let later = d.path().join("later.jsonl");
    let p2 = Preflight {
        replace: false,
        others: vec![("audit log", later.as_path())],
    };
    assert!(preflight_output(&later, &p2).is_err());
    // And nothing was left behind by the probes.
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn preflight_read_only_fs() {
    // /proc is mounted read-only-ish for file creation; /sys is read-only in containers and
    // VMs alike. Either refuses; the point is no panic and no success.
    for p in ["/proc/sgctl-cert.json", "/sys/sgctl-cert.json"] {
        assert!(preflight_output(Path::new(p), &Preflight::default()).is_err());
    }
}

#[test]
fn secrets_are_bytes_and_private() {
    let d = tempfile::tempdir().unwrap();
    let put = |n: &str, b: &[u8], mode: u32| {
        let p = d.path().join(n);
        std::fs::write(&p, b).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        p
    };
    // Two different invalid-UTF-8 PINs stay different (lossy UTF-8 made both U+FFFD).
    let a = put("a", b"\xff\xfe\n", 0o600);
    let b = put("b", b"\xfe\xff\n", 0o600);
    let ra = read_secret(&a, "PIN", MAX_CREDENTIAL_BYTES).unwrap();
    let rb = read_secret(&b, "PIN", MAX_CREDENTIAL_BYTES).unwrap();
    assert_eq!(ra.as_slice(), b"\xff\xfe");
    assert_ne!(ra.as_slice(), rb.as_slice());
    // 32 bytes fit; 33 do not (the C_PIN limit), even as 32 non-UTF-8 bytes.
    let ok = put("ok", &[0xffu8; 32], 0o600);
    assert_eq!(read_secret(&ok, "PIN", 32).unwrap().len(), 32);
    let long = put("long", &[0xffu8; 33], 0o600);
    assert!(read_secret(&long, "PIN", 32).is_err());
    // CRLF and LF endings are removed, once.
    let crlf = put("crlf", b"pin\r\n", 0o600);
    assert_eq!(read_secret(&crlf, "PIN", 32).unwrap().as_slice(), b"pin");
    // Group/world-accessible: refused, without the content in the message.
    for mode in [0o666, 0o644, 0o640, 0o604] {
        let p = put("open", b"topsecret", mode);
        let e = read_secret(&p, "PIN", 32).unwrap_err();
        assert_eq!(e.exit_code(), crate::exit::USAGE);
        assert!(e.to_string().contains("chmod 600"), "{e}");
        assert!(!e.to_string().contains("topsecret"));
    }
    // Not the caller's: refused.
    if euid() == 0 {
        let p = put("theirs", b"pin", 0o600);
        std::os::unix::fs::chown(&p, Some(65534), None).unwrap();
        let e = read_secret(&p, "PSID", 32).unwrap_err();
        assert!(e.to_string().contains("uid 65534"), "{e}");
    }
    // Empty: refused; a directory: refused.
    let empty = put("empty", b"\n", 0o600);
    assert!(read_secret(&empty, "PIN", 32).is_err());
    assert!(read_secret(d.path(), "PIN", 32).is_err());
}

/// What a test run plants at the target name before sgctl writes it.
#[derive(Debug, Clone, Copy)]
enum Plant {
    Nothing,
    File,
    SymlinkToVictim,
    DanglingSymlink,
    Directory,
    PredictableTemps,
    HardLinkToVictim,
}

fn plant() -> impl Strategy<Value = Plant> {
    prop_oneof![
        Just(Plant::Nothing),
        Just(Plant::File),
        Just(Plant::SymlinkToVictim),
        Just(Plant::DanglingSymlink),
        Just(Plant::Directory),
        Just(Plant::PredictableTemps),
        Just(Plant::HardLinkToVictim),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random sequences of plants and writes (replace or not, failing or not): the victim
    /// outside is never changed, a write that succeeded left exactly its bytes in a regular
    /// file of the mode asked for, a write that failed or was refused left the name as it was,
    /// and no temporary file is left behind.
    #[test]
    fn file_layer_never_writes_through_plants(
        steps in proptest::collection::vec(
            (plant(), any::<bool>(), any::<bool>(), proptest::collection::vec(any::<u8>(), 0..64),
             prop_oneof![Just(0o600u32), Just(0o640), Just(0o644)]),
            1..6),
    ) {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        let target = d.path().join("out.json");
        for (plant, replace, fail, data, mode) in steps {
            let _ = std::fs::remove_file(&target);
            let _ = std::fs::remove_dir(&target);
            match plant {
                Plant::Nothing => {}
                Plant::File => std::fs::write(&target, b"existing").unwrap(),
                Plant::SymlinkToVictim => symlink(&victim, &target).unwrap(),
                Plant::DanglingSymlink => symlink(d.path().join("nowhere"), &target).unwrap(),
                Plant::Directory => std::fs::create_dir(&target).unwrap(),
                Plant::PredictableTemps => {
                    for n in ["out.tmp", "out.json.tmp", ".out.json.tmp"] {
                        let _ = symlink(&victim, d.path().join(n));
                    }
                }
                Plant::HardLinkToVictim => std::fs::hard_link(&victim, &target).unwrap(),
            }
            let before = std::fs::symlink_metadata(&target).ok().map(|m| (m.ino(), m.file_type()));
            let r = write_with(&target, mode, Replace::forced(replace), |f| {
                f.write_all(&data)?;
                if fail {
                    return Err(std::io::Error::from_raw_os_error(libc::EIO));
                }
                Ok(())
            });
            prop_assert_eq!(std::fs::read(&victim).unwrap(), b"precious".to_vec());
            let after = std::fs::symlink_metadata(&target).ok().map(|m| (m.ino(), m.file_type()));
            match r {
                Ok(()) => {
                    prop_assert!(!fail);
                    prop_assert!(replace || before.is_none());
                    let m = std::fs::symlink_metadata(&target).unwrap();
                    prop_assert!(m.is_file());
                    prop_assert_eq!(m.nlink(), 1);
                    prop_assert_eq!(m.permissions().mode() & 0o7777, mode);
                    prop_assert_eq!(std::fs::read(&target).unwrap(), data);
                }
                Err(_) => prop_assert_eq!(before, after),
            }
            prop_assert!(leftovers(d.path()).iter().all(|n| n == ".out.json.tmp" || !n.starts_with(".out.json.")));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The credential-file parser on any bytes and mode: a private file gives back exactly its
    /// bytes less one trailing newline (when 1..=32 of them remain), anything else is an error
    /// that never quotes the content.
    #[test]
    fn read_secret_is_exact_or_refuses(
        body in proptest::collection::vec(any::<u8>(), 0..48),
        mode in prop_oneof![Just(0o600u32), Just(0o400), Just(0o640), Just(0o604), Just(0o666)],
    ) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("pin");
        std::fs::write(&p, &body).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        let want: &[u8] = body
            .strip_suffix(b"\r\n")
            .or_else(|| body.strip_suffix(b"\n"))
            .unwrap_or(&body);
        match read_secret(&p, "PIN", MAX_CREDENTIAL_BYTES) {
            Ok(b) => {
                prop_assert_eq!(mode & 0o077, 0);
                prop_assert_eq!(b.as_slice(), want);
                prop_assert!(!want.is_empty() && want.len() <= MAX_CREDENTIAL_BYTES);
            }
            Err(e) => {
                prop_assert!(
                    mode & 0o077 != 0 || want.is_empty() || want.len() > MAX_CREDENTIAL_BYTES,
                    "{}", e
                );
                if want.len() >= 4 {
                    let m = e.to_string();
                    prop_assert!(!m.as_bytes().windows(want.len()).any(|w| w == want));
                }
            }
        }
    }
}

/// An attribute is written in place; a missing one is not created; a symlink, a FIFO or a
/// directory under its name is refused without being opened (a FIFO would otherwise wait for
/// a reader).
#[test]
fn write_attribute_only_to_an_existing_regular_file() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("locate"), "0\n").unwrap();
    let dir = Dir::open(d).unwrap();
    dir.write_attribute(OsStr::new("locate"), b"1").unwrap();
    assert_eq!(std::fs::read_to_string(d.join("locate")).unwrap(), "1\n");
    let e = dir.write_attribute(OsStr::new("fault"), b"1").unwrap_err();
    assert!(e.to_string().contains("no such attribute"), "{e}");
    assert!(!d.join("fault").exists());
    std::fs::write(d.join("victim"), "keep").unwrap();
    symlink(d.join("victim"), d.join("active")).unwrap();
    let e = dir.write_attribute(OsStr::new("active"), b"1").unwrap_err();
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert_eq!(std::fs::read_to_string(d.join("victim")).unwrap(), "keep");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        d.join("fifo"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let e = dir.write_attribute(OsStr::new("fifo"), b"1").unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    std::fs::create_dir(d.join("sub")).unwrap();
    assert!(dir.write_attribute(OsStr::new("sub"), b"1").is_err());
}
