#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::files::{
    open_append, preflight_output, write_with, Dir, Preflight, Replace, MODE_LOG, MODE_PUBLIC,
    MODE_SECRET,
};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

// The file layer every write of sgctl goes through (proto/src/files.rs), driven by a random
// interleaving of what another user or a careless admin leaves in a directory (symlinks to a
// victim file or directory, hard links to the victim, existing files, directories, read-only
// and world-writable directories) and sgctl's own writes (atomic replace or create-only,
// append, lock, preflight, a write that fails half-way as on a full disk). Whatever happens:
// - the victim (outside the directories written to) is never written, truncated or added to;
// - nothing is created through a symlink and no temporary file is left behind;
// - create-only never replaces an existing name, and a failed write leaves the name as it was;
// - a write that succeeds leaves a regular file (not a link) holding exactly the bytes, with
//   the mode asked for; an append or a lock opens only a regular file with one link.

const VICTIM: &[u8] = b"victim: must never change";
const NAMES: [&str; 3] = ["a", "b", "c"];

/// What a name is, as far as the invariants care.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Missing,
    File { ino: u64, mode: u32, bytes: Vec<u8> },
    Link(PathBuf),
    Dir(u64),
}

fn entry(p: &Path) -> Entry {
    let Ok(m) = std::fs::symlink_metadata(p) else {
        return Entry::Missing;
    };
    if m.file_type().is_symlink() {
        return Entry::Link(std::fs::read_link(p).unwrap_or_default());
    }
    if m.is_dir() {
        return Entry::Dir(m.ino());
    }
    Entry::File {
        ino: m.ino(),
        mode: m.permissions().mode() & 0o7777,
        bytes: std::fs::read(p).unwrap_or_default(),
    }
}

struct World {
    _tmp: tempfile::TempDir,
    dirs: [PathBuf; 2],
    outside: PathBuf,
    victim: PathBuf,
}

impl World {
    fn new() -> Option<World> {
        let tmp = tempfile::tempdir().ok()?;
        let w = tmp.path().join("w");
        let sub = w.join("sub");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(&sub).ok()?;
        std::fs::create_dir_all(&outside).ok()?;
        for d in [&w, &sub] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).ok()?;
        }
        let victim = outside.join("victim");
        std::fs::write(&victim, VICTIM).ok()?;
        Some(World {
            _tmp: tmp,
            dirs: [w, sub],
            outside,
            victim,
        })
    }

    fn path(&self, slot: u8) -> PathBuf {
        let s = usize::from(slot) % (self.dirs.len() * NAMES.len());
        self.dirs[s / NAMES.len()].join(NAMES[s % NAMES.len()])
    }

    /// The victim is as it was and nothing was added next to it; no directory holds a name
    /// other than the slots (a temporary file left behind, something written through a link).
    fn check(&self) {
        assert_eq!(
            std::fs::read(&self.victim).ok().as_deref(),
            Some(VICTIM),
            "the victim changed"
        );
        let outside: Vec<_> = std::fs::read_dir(&self.outside)
            .map(|r| r.filter_map(|e| e.ok()).map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert_eq!(outside, vec![std::ffi::OsString::from("victim")], "written through a link");
        for (i, d) in self.dirs.iter().enumerate() {
            let Ok(r) = std::fs::read_dir(d) else {
                continue;
            };
            for e in r.filter_map(|e| e.ok()) {
                let n = e.file_name();
                let n = n.to_string_lossy();
                assert!(
                    NAMES.contains(&n.as_ref()) || (i == 0 && n == "sub"),
                    "stray name {n:?} in {}",
                    d.display()
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(w) = World::new() else {
        return;
    };
    let mut it = data.chunks(3).take(64);
    for (step, op) in it.by_ref().enumerate() {
        let [code, slot, arg] = [
            op.first().copied().unwrap_or(0),
            op.get(1).copied().unwrap_or(0),
            op.get(2).copied().unwrap_or(0),
        ];
        let p = w.path(slot);
        let before = entry(&p);
        let payload: Vec<u8> = (0..usize::from(arg % 40)).map(|i| arg ^ i as u8).collect();
        match code % 12 {
            // What others leave behind (ignored when the name is taken).
            0 => {
                let _ = std::os::unix::fs::symlink(&w.victim, &p);
            }
            1 => {
                let _ = std::os::unix::fs::symlink(&w.outside, &p);
            }
            2 => {
                let _ = std::fs::hard_link(&w.victim, &p);
            }
            3 => {
                if before == Entry::Missing {
                    let _ = std::fs::write(&p, &payload);
                }
            }
            4 => {
                let _ = std::fs::create_dir(&p);
            }
            5 => {
                // The subdirectory read-only, world-writable without or with the sticky bit,
                // or back to normal.
                let mode = [0o555, 0o777, 0o1777, 0o755][usize::from(arg % 4)];
                let _ = std::fs::set_permissions(&w.dirs[1], std::fs::Permissions::from_mode(mode));
            }
            // sgctl's writes.
            6 | 7 => {
                let replace = if code % 12 == 7 { Replace::Always } else { Replace::Never };
                let mode = [MODE_SECRET, MODE_PUBLIC, MODE_LOG][usize::from(arg % 3)];
                let r = write_with(&p, mode, replace, |f| f.write_all(&payload));
                let after = entry(&p);
                match r {
                    Ok(()) => {
                        assert!(
                            replace == Replace::Always || before == Entry::Missing,
                            "step {step}: create-only replaced {before:?}"
                        );
                        match after {
                            Entry::File { mode: m, bytes, .. } => {
                                assert_eq!(bytes, payload, "step {step}: content");
                                assert_eq!(m, mode, "step {step}: mode");
                            }
                            other => panic!("step {step}: wrote {other:?}"),
                        }
                    }
                    Err(_) => assert_eq!(after, before, "step {step}: a failed write changed it"),
                }
            }
            8 => {
                // A write that fails half-way (ENOSPC): the name stays as it was.
                let r = write_with(&p, MODE_SECRET, Replace::Always, |f| {
                    f.write_all(&payload)?;
                    Err(std::io::Error::from_raw_os_error(28))
                });
                assert!(r.is_err(), "step {step}: a failed fill reported success");
                assert_eq!(entry(&p), before, "step {step}: a failed write changed it");
            }
            9 => {
                let r = open_append(&p, MODE_LOG, 0o755);
                match r {
                    Ok(mut f) => {
                        assert!(
                            matches!(before, Entry::Missing | Entry::File { .. }),
                            "step {step}: appended to {before:?}"
                        );
                        let m = std::fs::symlink_metadata(&p).expect("the appended file");
                        assert!(m.is_file() && m.nlink() == 1, "step {step}: {m:?}");
                        let old = match &before {
                            Entry::File { bytes, .. } => bytes.clone(),
                            _ => Vec::new(),
                        };
                        if f.write_all(&payload).is_ok() {
                            drop(f);
                            let now = std::fs::read(&p).unwrap_or_default();
                            assert_eq!(now, [old, payload.clone()].concat(), "step {step}: append");
                        }
                    }
                    Err(_) => {
                        if !matches!(before, Entry::Missing) {
                            assert_eq!(entry(&p), before, "step {step}: a refused append changed it");
                        }
                    }
                }
            }
            10 => {
                let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
                let name = p.file_name().unwrap_or_default();
                if let Ok(d) = Dir::open(&dir) {
                    if d.open_lock(name, 0o644).is_ok() {
                        assert!(
                            matches!(before, Entry::Missing | Entry::File { .. }),
                            "step {step}: locked {before:?}"
                        );
                        let m = std::fs::symlink_metadata(&p).expect("the lock file");
                        assert!(m.is_file() && m.nlink() == 1, "step {step}: {m:?}");
                        if let Entry::File { bytes, .. } = &before {
                            assert_eq!(&std::fs::read(&p).unwrap_or_default(), bytes, "truncated");
                        }
                    } else if before != Entry::Missing {
                        assert_eq!(entry(&p), before, "step {step}: a refused lock changed it");
                    }
                }
            }
            _ => {
                let replace = arg & 1 == 1;
                let r = preflight_output(
                    &p,
                    &Preflight {
                        replace,
                        others: vec![("audit log", &w.victim)],
                    },
                );
                if r.is_ok() {
                    assert!(
                        before == Entry::Missing
                            || (replace && matches!(before, Entry::File { .. } | Entry::Link(_))),
                        "step {step}: preflight accepted {before:?}"
                    );
                }
                assert_eq!(entry(&p), before, "step {step}: preflight changed the name");
            }
        }
        w.check();
    }
    // Leave the tree removable.
    let _ = std::fs::set_permissions(&w.dirs[1], std::fs::Permissions::from_mode(0o755));
});
