//! One job per drive through the CLI on virtual drives with a state file (a drive
//! another process can reach): a second job on a locked drive is refused at the gate (exit 6)
//! naming the first and writes no start record; the lock goes away when its holder is killed
//! with SIGKILL. The same over real SG_IO on both ports of the dual-port disk:
//! vm/groups/mptsas-dualport/55-one-job-per-drive.sh.

use sgctl::ops::gate::lock::{acquire_in, key_for, read_holder, Holder};
use sgctl::ops::gate::DriveName;
use std::path::Path;
use std::time::{Duration, Instant};

fn drive_name(addr: &str) -> DriveName {
    let mut t = sgctl::sim::open(addr.trim_start_matches("sim:")).unwrap();
    let id = sgctl::ops::query::identity(&mut t).unwrap();
    DriveName {
        serial: id.serial,
        wwn: id.wwn,
    }
}

fn holder() -> Holder {
    Holder {
        pid: std::process::id(),
        job: "sanitize".into(),
        job_id: "test-1".into(),
        device: "/dev/sg7".into(),
        since: "2026-12-01T08:00:00.000Z".into(),
    }
}

fn starts(audit: &Path) -> usize {
    std::fs::read_to_string(audit)
        .unwrap_or_default()
        .matches("\"event\":\"start\"")
        .count()
}

#[test]
fn second_job_on_a_locked_drive_is_refused_naming_the_first() {
    let d = tempfile::tempdir().unwrap();
    let addr = format!(
        "sim:px02smf080?clock=virtual&capacity_blocks=65536&serial=LOCK0001&state={}",
        d.path().join("drive.json").display()
    );
    let name = drive_name(&addr);
    let locks = d.path().join("locks");
    let key = key_for(&addr, &name).unwrap();
    let held = acquire_in(&locks, &key, &holder()).unwrap();
    let audit = d.path().join("audit.jsonl");
    let run = || {
        crate::util::sgctl_cmd()
            .args([
                "format",
                &addr,
                "--block-size",
                "4096",
                "--confirm",
                "LOCK0001",
            ])
            .env("SGCTL_LOCK_DIR", &locks)
            .env("SGCTL_AUDIT_LOG", &audit)
            .output()
            .unwrap()
    };
    let o = run();
    // The refusal is in the job's report (stdout) and its one-line error (stderr).
    let err = String::from_utf8_lossy(&o.stderr).to_string() + &String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(6), "{err}");
    let want = format!(
        "pid {} is running `sanitize` on /dev/sg7 (job id test-1) since 2026-12-01T08:00:00.000Z",
        std::process::id()
    );
    assert!(err.contains(&want), "{want:?} not in: {err}");
    assert_eq!(starts(&audit), 0, "a refused job must not start");
    // Released: the same job now runs.
    drop(held);
    let o = run();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(starts(&audit), 1);
}

#[test]
fn lock_is_released_when_its_holder_is_killed() {
    let d = tempfile::tempdir().unwrap();
    // A slow drive (real clock, one drive second per wall second): the overwrite runs for long.
    let addr = format!(
        "sim:px02smf080?speed=1&capacity_gib=4&serial=LOCK0002&state={}",
        d.path().join("drive.json").display()
    );
    let name = drive_name(&addr);
    let locks = d.path().join("locks");
    let key = key_for(&addr, &name).unwrap();
    let mut child = crate::util::sgctl_cmd()
        .args(["sanitize", &addr, "--overwrite", "--confirm", "LOCK0002"])
        .env("SGCTL_LOCK_DIR", &locks)
        .env("SGCTL_AUDIT_LOG", d.path().join("audit.jsonl"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let path = locks.join(format!("{key}.lock"));
    let deadline = Instant::now() + Duration::from_secs(60);
    while read_holder(&path).map(|h| h.pid) != Some(child.id()) {
        assert!(
            Instant::now() < deadline,
            "the sanitize never took the lock"
        );
        assert!(child.try_wait().unwrap().is_none(), "sanitize ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    let e = acquire_in(&locks, &key, &holder()).unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("pid {} is running `sanitize`", child.id())),
        "{e}"
    );
    child.kill().unwrap(); // SIGKILL: no destructor, no cleanup code runs
    child.wait().unwrap();
    let l = acquire_in(&locks, &key, &holder()).expect("lock still held after kill -9");
    assert_eq!(read_holder(&l.path).unwrap().job_id, "test-1");
}
