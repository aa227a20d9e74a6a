//! Taking over the LIO objects a killed server left.
//!
//! A server stopped with SIGTERM removes its LUNs and backstores; one killed with SIGKILL
//! cannot: LIO keeps the LUNs (the kernel's `/dev/sgN` and `/dev/sdX` stay), and each ring's
//! mailbox and entries live in kernel memory. Commands sent meanwhile wait in the ring until
//! TCMU's own timeout. A restarted server that finds such a backstore of the same drive (its
//! `dev_config`, `sgctl/<profile>-p<port>`, in the uio name) with nobody holding its
//! `/dev/uioN` takes it over instead of making new ones: it blocks the device, resets the ring
//! (`action/reset_ring` 1: the kernel completes every command still in the ring with BUSY, so
//! the initiator retries it, and sets `cmd_head` = `cmd_tail` = 0; target_core_user.c
//! `tcmu_reset_ring`, as tcmu-runner does on start), unblocks it and serves the same uio from
//! an empty ring. The initiator keeps its device nodes: a job watching the drive sees a few
//! failed polls, then the drive again (a power cycle: the state file as last saved).
//!
//! The taken-over objects are removed on SIGTERM as if this server had made them.

use super::configfs::{Undo, UndoStep};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// One port of a server that is gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StalePort {
    /// Relative target port (from the `-p<port>` of its `dev_config`).
    pub relative_port: u16,
    /// Backstore directory name (`sgctl1234_p1`).
    pub dev: String,
    /// `core/user_<hba>/<dev>`.
    pub backstore: PathBuf,
    /// `uioN`.
    pub uio: String,
    /// The tcm_loop target WWN whose LUN 0 links the backstore.
    pub wwn: String,
}

/// What a killed server left: one HBA, a backstore and a tcm_loop target per port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stale {
    /// `core/user_<hba>`.
    pub hba: u32,
    /// By relative port.
    pub ports: Vec<StalePort>,
}

/// Whether any process has `/dev/<uio>` open (a live server), from `<proc>/*/fd`.
fn held(proc_root: &Path, uio: &str) -> bool {
    let want = Path::new("/dev").join(uio);
    let Ok(pids) = std::fs::read_dir(proc_root) else {
        return false;
    };
    pids.flatten()
        .filter(|p| {
            p.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|p| std::fs::read_dir(p.path().join("fd")).ok())
        .flat_map(|fds| fds.flatten())
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l == want))
}

/// The tcm_loop target (`loopback/<wwn>`) whose `tpgt_1/lun/lun_0/sgctl` links `backstore`.
fn target_of(root: &Path, backstore: &Path) -> Option<String> {
    let want = backstore.canonicalize().ok()?;
    std::fs::read_dir(root.join("loopback"))
        .ok()?
        .flatten()
        .find(|t| {
            t.path()
                .join("tpgt_1/lun/lun_0/sgctl")
                .canonicalize()
                .is_ok_and(|p| p == want)
        })
        .map(|t| t.file_name().to_string_lossy().into_owned())
}

/// Finds the objects a killed server of the drive `dev_config` (`sgctl/<profile>`) left for
/// each of `ports`: every port's backstore in one `user_<hba>`, its uio held by nobody, its
/// LUN linked. `None` when there is no such set (a fresh start) or any part of it is in use.
pub(crate) fn find(
    root: &Path,
    sys_uio: &Path,
    proc_root: &Path,
    dev_config: &str,
    ports: &[u16],
) -> Option<Stale> {
    let mut found: Vec<(u32, StalePort)> = Vec::new();
    for e in std::fs::read_dir(sys_uio).ok()?.flatten() {
        let name = std::fs::read_to_string(e.path().join("name")).unwrap_or_default();
        // tcm-user/<hba>/<dev>/<dev_config>, target_core_user.c tcmu_configure_device.
        let mut f = name.trim_end().splitn(4, '/');
        let (Some("tcm-user"), Some(hba), Some(dev), Some(cfg)) =
            (f.next(), f.next(), f.next(), f.next())
        else {
            continue;
        };
        let Some(port) = cfg
            .strip_prefix(dev_config)
            .and_then(|r| r.strip_prefix("-p"))
            .and_then(|p| p.parse::<u16>().ok())
        else {
            continue;
        };
        let (Ok(hba), uio) = (
            hba.parse::<u32>(),
            e.file_name().to_string_lossy().into_owned(),
        ) else {
            continue;
        };
        if !ports.contains(&port) {
            continue;
        }
        if held(proc_root, &uio) {
            return None; // a live server of this drive: not ours to take
        }
        let backstore = root.join(format!("core/user_{hba}/{dev}"));
        let Some(wwn) = target_of(root, &backstore) else {
            continue;
        };
        found.push((
            hba,
            StalePort {
                relative_port: port,
                dev: dev.to_string(),
                backstore,
                uio,
                wwn,
            },
        ));
    }
    let hba = found.first()?.0;
    let mut out: Vec<StalePort> = Vec::new();
    for &p in ports {
        let mut of_port = found
            .iter()
            .filter(|(h, s)| *h == hba && s.relative_port == p);
        let one = of_port.next()?;
        if of_port.next().is_some() {
            return None; // two candidates for one port: leave them alone
        }
        out.push(one.1.clone());
    }
    Some(Stale { hba, ports: out })
}

fn write(p: &Path, v: &str) -> Result<()> {
    std::fs::write(p, v).map_err(|e| Error::io(format!("write {v:?} to {}", p.display()), e))
}

/// Blocks the backstore's device, resets its ring (in-flight commands complete with BUSY) and
/// unblocks it. Fails when the kernel has no `action/reset_ring` (before Linux 4.20).
pub(crate) fn reset_ring(backstore: &Path) -> Result<()> {
    let action = backstore.join("action");
    if !action.join("reset_ring").exists() {
        return Err(Error::Unsupported(format!(
            "{} missing: this kernel cannot reset a TCMU ring; stop the old LUNs first",
            action.join("reset_ring").display()
        )));
    }
    let block = action.join("block_dev");
    let has_block = block.exists();
    if has_block {
        write(&block, "1")?;
    }
    let r = write(&action.join("reset_ring"), "1");
    if has_block {
        write(&block, "0")?;
    }
    r
}

/// Records the backstore side of `stale` for teardown, as [`super::configfs::Backstore::create`]
/// would have.
pub(crate) fn undo_backstores(root: &Path, stale: &Stale, undo: &mut Undo) {
    undo.push(UndoStep::Rmdir(
        root.join(format!("core/user_{}", stale.hba)),
    ));
    for p in &stale.ports {
        undo.push(UndoStep::Rmdir(p.backstore.clone()));
    }
}

/// Records the fabric side of one port for teardown, as
/// [`super::configfs::LoopTarget::create`] would have.
pub(crate) fn undo_target(root: &Path, wwn: &str, undo: &mut Undo) {
    let target = root.join(format!("loopback/{wwn}"));
    let tpg = target.join("tpgt_1");
    let lun = tpg.join("lun/lun_0");
    undo.push(UndoStep::Rmdir(target));
    undo.push(UndoStep::Rmdir(tpg.clone()));
    undo.push(UndoStep::DropNexus(tpg.join("nexus")));
    undo.push(UndoStep::Rmdir(lun.clone()));
    undo.push(UndoStep::Unlink(lun.join("sgctl")));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fake configfs + sysfs + procfs: a server of `sgctl/px02smf080` on user_3 with two
    /// ports, targets linked, and optionally a process holding uio1.
    fn tree(held_by: Option<&str>) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("target");
        for (i, port) in [1u16, 2].iter().enumerate() {
            let bs = root.join(format!("core/user_3/sgctl77_p{port}"));
            fs::create_dir_all(bs.join("action")).unwrap();
            let uio = d.path().join(format!("uio/uio{i}"));
            fs::create_dir_all(&uio).unwrap();
            fs::write(
                uio.join("name"),
                format!("tcm-user/3/sgctl77_p{port}/sgctl/px02smf080-p{port}\n"),
            )
            .unwrap();
            let lun = root.join(format!("loopback/naa.port{i}/tpgt_1/lun/lun_0"));
            fs::create_dir_all(&lun).unwrap();
            std::os::unix::fs::symlink(&bs, lun.join("sgctl")).unwrap();
        }
        fs::create_dir_all(d.path().join("proc/1/fd")).unwrap();
        fs::create_dir_all(d.path().join("proc/self/fd")).unwrap();
        if let Some(u) = held_by {
            std::os::unix::fs::symlink(format!("/dev/{u}"), d.path().join("proc/1/fd/5")).unwrap();
        }
        d
    }

    fn find_in(d: &Path, cfg: &str) -> Option<Stale> {
        find(
            &d.join("target"),
            &d.join("uio"),
            &d.join("proc"),
            cfg,
            &[1, 2],
        )
    }

    #[test]
    fn finds_both_ports_of_a_dead_server() {
        let d = tree(None);
        let s = find_in(d.path(), "sgctl/px02smf080").expect("stale objects found");
        assert_eq!(s.hba, 3);
        assert_eq!(
            s.ports
                .iter()
                .map(|p| (p.relative_port, p.uio.as_str(), p.wwn.as_str()))
                .collect::<Vec<_>>(),
            vec![(1, "uio0", "naa.port0"), (2, "uio1", "naa.port1")]
        );
        let mut u = Undo::default();
        undo_backstores(&d.path().join("target"), &s, &mut u);
        undo_target(&d.path().join("target"), &s.ports[0].wwn, &mut u);
        assert_eq!(u.steps().len(), 3 + 5);
        assert!(
            matches!(u.steps().last(), Some(UndoStep::Unlink(p)) if p.ends_with("lun_0/sgctl"))
        );
    }

    #[test]
    fn a_live_server_another_drive_or_a_missing_port_is_left_alone() {
        assert_eq!(find_in(tree(Some("uio1")).path(), "sgctl/px02smf080"), None);
        assert_eq!(find_in(tree(None).path(), "sgctl/mk4001grzb"), None);
        let d = tree(None);
        fs::remove_file(
            d.path()
                .join("target/loopback/naa.port1/tpgt_1/lun/lun_0/sgctl"),
        )
        .unwrap();
        assert_eq!(
            find_in(d.path(), "sgctl/px02smf080"),
            None,
            "port 2 has no LUN"
        );
        let d = tempfile::tempdir().unwrap();
        assert_eq!(find_in(d.path(), "sgctl/px02smf080"), None, "nothing there");
    }

    #[test]
    fn reset_ring_blocks_resets_unblocks() {
        let d = tempfile::tempdir().unwrap();
        assert!(reset_ring(d.path()).is_err(), "no reset_ring: refused");
        fs::create_dir_all(d.path().join("action")).unwrap();
        fs::write(d.path().join("action/reset_ring"), "").unwrap();
        fs::write(d.path().join("action/block_dev"), "").unwrap();
        reset_ring(d.path()).unwrap();
        assert_eq!(
            fs::read_to_string(d.path().join("action/reset_ring")).unwrap(),
            "1"
        );
        assert_eq!(
            fs::read_to_string(d.path().join("action/block_dev")).unwrap(),
            "0"
        );
    }
}
