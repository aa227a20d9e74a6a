//! One destructive job per drive at a time: a lock keyed by the logical unit's name,
//! taken by the safety gate, so two sgctl processes formatting, sanitizing or erasing the same
//! LU — through the same node or through the drive's other SAS port — cannot both run.
//!
//! The lock is `flock(2)` on `<dir>/<key>.lock` (`dir` = `$SGCTL_LOCK_DIR`, else
//! `DEFAULT_LOCK_DIR`). The kernel drops a flock when its file is closed, so the lock goes
//! away on every exit of the holder: normal end, error, panic, Ctrl-C and `kill -9`. The file
//! holds who took it (pid, job, job id, device, since when) for the refusal message; it is never
//! deleted (deleting a locked file would let a third process lock a new inode beside it).
//! The directory must belong to root or the caller and be writable by nobody else, and the
//! lock file is never followed through a symlink or truncated before the lock is held
//! ([`acquire_in`], docs/security.md).
//!
//! The key is the LU name (the NAA/EUI from VPD 0x83 both ports report), else the serial. An
//! in-process virtual drive (or any address that is not a device node) exists only in its
//! process and is not locked; one with a state file is keyed by its LU name and the state file
//! (two state files are two drives even when their WWNs are equal).

use super::confirm::DriveName;
use crate::clock::rfc3339;
use crate::error::{Error, Refusal, Result};
use crate::files;
use nix::fcntl::{Flock, FlockArg};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Where the lock files live by default (Debian's /run/lock is a tmpfs, mode 1777; sgctl's
/// directory in it is root's, mode 0755, and checked before each use).
pub(crate) const DEFAULT_LOCK_DIR: &str = "/run/lock/sgctl";
/// Environment variable overriding [`DEFAULT_LOCK_DIR`].
pub(crate) const LOCK_DIR_ENV: &str = "SGCTL_LOCK_DIR";

/// Who holds a drive's lock (written into the lock file, shown to the second process).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// Process id of the holder.
    pub pid: u32,
    /// Job name (`format`, `sanitize`, `tcg-erase`, ...).
    pub job: String,
    /// The job id of its audit records.
    pub job_id: String,
    /// The address it was started on (`/dev/sg1`, the other port's node, ...).
    pub device: String,
    /// When it took the lock (RFC 3339, UTC).
    pub since: String,
}

/// A held drive lock; dropping it (or the process ending in any way) releases it.
#[derive(Debug)]
pub struct JobLock {
    _file: Flock<File>,
    /// The lock file.
    pub path: PathBuf,
    /// The key it is named by.
    pub key: String,
}

/// The lock directory in use.
pub(crate) fn lock_dir() -> PathBuf {
    std::env::var_os(LOCK_DIR_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_LOCK_DIR))
}

/// The lock key of a drive, or `None` for a drive no other process can reach (an in-process
/// virtual drive without a state file).
pub fn key_for(address: &str, name: &DriveName) -> Option<String> {
    let id = name
        .wwn
        .as_deref()
        .filter(|w| !w.trim().is_empty())
        .map(|w| format!("lu-{}", w.trim().to_ascii_lowercase()))
        .or_else(|| {
            let s = name.serial.trim();
            (!s.is_empty()).then(|| format!("serial-{s}"))
        })
        .unwrap_or_else(|| format!("address-{address}"));
    if let Some(spec) = crate::device::classify_address(address).virtual_spec() {
        let state = spec.option("state")?;
        let p = Path::new(state);
        let p = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let digest = sha2_hex(p.as_os_str().as_encoded_bytes());
        return Some(sanitize(&format!("sim-{id}-{}", &digest[..12])));
    }
    if !address.starts_with('/') {
        // Not a device node (an in-process test double): no other process can reach it.
        return None;
    }
    Some(sanitize(&id))
}

fn sha2_hex(b: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    crate::bytes::hex(&Sha256::digest(b))
}

/// File-name safe: ASCII letters, digits, `.`, `-`, `_`; anything else becomes `_`.
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Takes the lock `key` in `dir` for `holder`, without waiting. Another process holding it is a
/// refusal ([`Error::Refused`], exit 6) that names the holder.
///
/// The directory is created (0755) when missing and must belong to root or the caller, be
/// writable by nobody else and not be a symlink ([`files::Dir::open_private`]): in a directory
/// another user can write, they could plant `KEY.lock -> /etc/shadow` (truncated by root) or
/// hold and delete the locks. The lock file is opened without following a symlink and without
/// truncating it; it is rewritten only once the lock is held. A lock whose holder died is free:
/// the kernel drops a `flock` with its last descriptor, and the stale holder text is replaced.
pub fn acquire_in(dir: &Path, key: &str, holder: &Holder) -> Result<JobLock> {
    let name = format!("{key}.lock");
    let path = dir.join(&name);
    let ctx = || format!("drive lock {}", path.display());
    let d = files::Dir::open_private(dir)?;
    let f = d.open_lock(std::ffi::OsStr::new(&name), files::MODE_LOCK)?;
    match Flock::lock(f, FlockArg::LockExclusiveNonblock) {
        Ok(l) => {
            let mut text = serde_json::to_vec(holder).unwrap_or_default();
            text.push(b'\n');
            // Best effort (a read-only descriptor cannot): the lock is what matters; the text
            // only names the holder.
            if l.set_len(0).is_ok() {
                let _ = l.write_all_at(&text, 0);
            }
            Ok(JobLock {
                _file: l,
                path,
                key: key.to_string(),
            })
        }
        Err((_, nix::errno::Errno::EWOULDBLOCK)) => {
            Err(refusal(&holder.device, key, &path, read_holder(&path).as_ref()).into())
        }
        Err((_, e)) => Err(Error::io(ctx(), std::io::Error::from(e))),
    }
}

/// The holder recorded in a lock file, if it can be read.
pub fn read_holder(path: &Path) -> Option<Holder> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut text = Vec::new();
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?
        .take(4096)
        .read_to_end(&mut text)
        .ok()?;
    serde_json::from_slice(&text).ok()
}

fn refusal(device: &str, key: &str, path: &Path, h: Option<&Holder>) -> Refusal {
    Refusal::JobLocked {
        device: device.to_string(),
        key: key.to_string(),
        lock: path.display().to_string(),
        holder: h.map(|h| {
            format!(
                "pid {} is running `{}` on {} (job id {}) since {}",
                h.pid, h.job, h.device, h.job_id, h.since
            )
        }),
    }
}

/// What the safety gate calls: the lock for `job` on the drive named `name` at `address`, or
/// `None` when the drive cannot be reached by another process.
pub fn for_job(
    job: &str,
    job_id: &str,
    address: &str,
    name: &DriveName,
) -> Result<Option<JobLock>> {
    let Some(key) = key_for(address, name) else {
        return Ok(None);
    };
    let holder = Holder {
        pid: std::process::id(),
        job: job.to_string(),
        job_id: job_id.to_string(),
        device: address.to_string(),
        since: rfc3339(SystemTime::now()),
    };
    acquire_in(&lock_dir(), &key, &holder).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn my_uid() -> u32 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self")
            .map(|m| m.uid())
            .unwrap_or(1)
    }

    fn holder(job: &str) -> Holder {
        Holder {
            pid: 4242,
            job: job.into(),
            job_id: "abc-1".into(),
            device: "/dev/sg1".into(),
            since: "2026-12-01T08:00:00.000Z".into(),
        }
    }

    #[test]
    fn second_lock_is_refused_with_the_holder_named() {
        let d = tempfile::tempdir().unwrap();
        let first = acquire_in(d.path(), "lu-5000c500000000cc", &holder("format")).unwrap();
        let mut other = holder("sanitize");
        other.device = "/dev/sg2".into();
        let e = acquire_in(d.path(), "lu-5000c500000000cc", &other).unwrap_err();
        assert_eq!(e.exit_code(), crate::exit::REFUSED);
        let m = e.to_string();
        for want in [
            "/dev/sg2:",
            "pid 4242",
            "`format`",
            "on /dev/sg1",
            "since 2026-12-01T08:00:00.000Z",
        ] {
            assert!(m.contains(want), "{want:?} missing in {m}");
        }
        // Another drive is free; the first drive is free again once the lock is dropped.
        acquire_in(d.path(), "lu-5000c500000000dd", &other).unwrap();
        drop(first);
        let again = acquire_in(d.path(), "lu-5000c500000000cc", &other).unwrap();
        assert_eq!(read_holder(&again.path).unwrap().job, "sanitize");
    }

    #[test]
    fn planted_symlink_in_lock_dir_is_refused_and_target_untouched() {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("shadow");
        std::fs::write(&victim, "root:$6$hash:19000:0:99999:7:::\n").unwrap();
        let locks = d.path().join("sgctl");
        std::fs::create_dir(&locks).unwrap();
        symlink(&victim, locks.join("lu-5000c500000000cc.lock")).unwrap();
        let e = acquire_in(&locks, "lu-5000c500000000cc", &holder("format")).unwrap_err();
        assert_eq!(e.exit_code(), crate::exit::REFUSED);
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "root:$6$hash:19000:0:99999:7:::\n"
        );
    }

    #[test]
    fn lock_dir_of_another_user_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        if my_uid() != 0 {
            return;
        }
        // What any local user can do first in the 1777 /run/lock.
        let d = tempfile::tempdir().unwrap();
        let locks = d.path().join("sgctl");
        std::fs::create_dir(&locks).unwrap();
        std::fs::set_permissions(&locks, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::os::unix::fs::chown(&locks, Some(65534), Some(65534)).unwrap();
        let e = acquire_in(&locks, "lu-5000c500000000cc", &holder("format")).unwrap_err();
        assert!(e.to_string().contains("uid 65534"), "{e}");
        assert_eq!(std::fs::read_dir(&locks).unwrap().count(), 0);
    }

    #[test]
    fn lock_of_a_dead_holder_is_taken_over() {
        let d = tempfile::tempdir().unwrap();
        // A holder that died: its text is still in the file, its flock is gone with it.
        let mut dead = holder("sanitize");
        dead.pid = 999_999;
        std::fs::write(
            d.path().join("lu-aa.lock"),
            serde_json::to_vec(&dead).unwrap(),
        )
        .unwrap();
        let l = acquire_in(d.path(), "lu-aa", &holder("format")).unwrap();
        let h = read_holder(&l.path).unwrap();
        assert_eq!((h.pid, h.job.as_str()), (4242, "format"));
    }

    #[test]
    fn keys() {
        let n = DriveName {
            serial: "DP0001".into(),
            wwn: Some("5000C500000000CC".into()),
        };
        // Both ports give the same key: the LU name, not the node.
        assert_eq!(key_for("/dev/sg0", &n), key_for("/dev/sg1", &n));
        assert_eq!(key_for("/dev/sg0", &n).unwrap(), "lu-5000c500000000cc");
        let s = DriveName {
            serial: "A B/../x".into(),
            wwn: None,
        };
        assert_eq!(key_for("/dev/sg0", &s).unwrap(), "serial-A_B_.._x");
        // Virtual drives: none without a state file, keyed by the file with one.
        assert_eq!(key_for("sim:px02smf080?serial=X", &n), None);
        assert_eq!(key_for("mock:a", &n), None);
        let a = key_for("sim:px02smf080?state=/tmp/a.json", &n).unwrap();
        let b = key_for("sim:px02smf080?capacity_gib=1&state=/tmp/b.json", &n).unwrap();
        assert!(
            a.starts_with("sim-lu-5000c500000000cc-") && a != b,
            "{a} {b}"
        );
    }
}
