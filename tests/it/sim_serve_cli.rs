//! `sgctl sim serve` argument errors, checked before anything touches LIO (so they run on any
//! machine). Serving itself needs a kernel with LIO: the VM group `tcmu` covers it.

fn sgctl(args: &[&str]) -> (i32, String) {
    let out = crate::util::sgctl_cmd()
        .args(args)
        .output()
        .expect("run sgctl");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn too_many_ports_is_a_usage_error() {
    // mk4001grzb is dual-ported: 3 ports cannot be served.
    let (code, err) = sgctl(&["sim", "serve", "--tcmu", "mk4001grzb", "--ports", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--ports 3"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, _) = sgctl(&["sim", "serve", "--tcmu", "mk4001grzb", "--ports", "0"]);
    assert_eq!(code, 2);
}

#[test]
fn unknown_profile_is_an_open_error() {
    let (code, err) = sgctl(&["sim", "serve", "--tcmu", "sim:no-such-drive"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no-such-drive"), "{err}");
}

#[test]
fn tcmu_is_required() {
    let (code, err) = sgctl(&["sim", "serve"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--tcmu"), "{err}");
}

/// The virtual enclosure is served on one port; its options are checked as `sim:enclosure`'s.
#[test]
fn enclosure_arguments_are_checked_before_lio() {
    let (code, err) = sgctl(&[
        "sim",
        "serve",
        "--tcmu",
        "enclosure?slots=4",
        "--ports",
        "2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("one port"), "{err}");
    let (code, err) = sgctl(&["sim", "serve", "--tcmu", "enclosure", "--overlap"]);
    assert_eq!(code, 2, "{err}");
    let (code, err) = sgctl(&[
        "sim",
        "serve",
        "--tcmu",
        "sim:enclosure?slots=2&serials=A,B,C",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("3 serials for 2 slots"), "{err}");
}
