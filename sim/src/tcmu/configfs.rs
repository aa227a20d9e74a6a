//! The LIO configfs objects for serving through TCMU + tcm_loop (Documentation/target/tcmu-design.rst, checked in
//! a Debian 6.1 guest): a `user_<hba>` HBA with one backstore per target port, and per port a
//! tcm_loop target `loopback/naa.<wwn>/tpgt_1` whose nexus is created **before** its LUN (else
//! the kernel logs "TCM_Loop I_T Nexus does not exist"), LUN 0 linking the backstore.
//!
//! Everything created is recorded in an `Undo` list and removed in reverse order; the fabric
//! side (LUNs, nexus, targets) and the backstores are separate lists because removing a LUN makes
//! the kernel send commands (SYNCHRONIZE CACHE from sd) that must still be answered, so the
//! ring threads keep running until the fabric is gone.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where configfs puts LIO.
pub const TARGET_ROOT: &str = "/sys/kernel/config/target";

/// One step to reverse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UndoStep {
    /// `rmdir` a directory we made.
    Rmdir(PathBuf),
    /// Remove a symlink we made.
    Unlink(PathBuf),
    /// Drop a tcm_loop nexus (`echo NULL > nexus`, tcm_loop.c `tcm_loop_tpg_nexus_store`).
    DropNexus(PathBuf),
}

/// Steps to reverse, last first.
#[derive(Debug, Default)]
pub(crate) struct Undo {
    steps: Vec<UndoStep>,
}

impl Undo {
    /// Records a step.
    pub(crate) fn push(&mut self, s: UndoStep) {
        self.steps.push(s);
    }

    /// The recorded steps, in creation order.
    #[cfg(test)]
    pub(crate) fn steps(&self) -> &[UndoStep] {
        &self.steps
    }

    /// Reverses everything, continuing past failures; returns the failures as messages.
    pub(crate) fn run(&mut self) -> Vec<String> {
        let mut errors = vec![];
        while let Some(s) = self.steps.pop() {
            let r = match &s {
                UndoStep::Rmdir(p) => std::fs::remove_dir(p).map_err(|e| (p.clone(), e)),
                UndoStep::Unlink(p) => std::fs::remove_file(p).map_err(|e| (p.clone(), e)),
                UndoStep::DropNexus(p) => std::fs::write(p, "NULL").map_err(|e| (p.clone(), e)),
            };
            if let Err((p, e)) = r {
                if e.kind() != std::io::ErrorKind::NotFound {
                    errors.push(format!("{}: {e}", p.display()));
                }
            }
        }
        errors
    }
}

fn mkdir(p: &Path, undo: &mut Undo) -> Result<()> {
    match std::fs::create_dir(p) {
        Ok(()) => {
            undo.push(UndoStep::Rmdir(p.to_path_buf()));
            Ok(())
        }
        Err(e) => Err(Error::io(format!("mkdir {}", p.display()), e)),
    }
}

/// mkdir unless it exists (shared parents such as `loopback/`); only new ones are undone.
fn mkdir_shared(p: &Path, undo: &mut Undo) -> Result<()> {
    if p.is_dir() {
        return Ok(());
    }
    mkdir(p, undo)
}

fn write_attr(p: &Path, value: &str) -> Result<()> {
    std::fs::write(p, value)
        .map_err(|e| Error::io(format!("write {value:?} to {}", p.display()), e))
}

/// Loads the LIO modules and mounts configfs (each step only if LIO is not visible yet).
pub(crate) fn load_lio(root: &Path) {
    if root.join("core").is_dir() {
        return;
    }
    for m in [
        "configfs",
        "target_core_mod",
        "target_core_user",
        "tcm_loop",
    ] {
        // Built-in or already loaded modules make modprobe fail harmlessly; check_lio decides.
        let _ = Command::new("modprobe").arg(m).status();
    }
    let cfg = Path::new("/sys/kernel/config");
    if !root.join("core").is_dir() && cfg.is_dir() {
        let _ = nix::mount::mount(
            Some("configfs"),
            cfg,
            Some("configfs"),
            nix::mount::MsFlags::empty(),
            None::<&str>,
        );
    }
}

/// Checks LIO's configfs tree is there.
pub(crate) fn check_lio(root: &Path) -> Result<()> {
    if !root.join("core").is_dir() {
        return Err(Error::Unsupported(format!(
            "LIO is not available ({} missing): needs the target_core_user and tcm_loop modules \
             and configfs mounted on /sys/kernel/config",
            root.join("core").display()
        )));
    }
    Ok(())
}

/// The smallest `user_N` HBA index not in use.
pub(crate) fn free_hba(root: &Path) -> u32 {
    (0..u32::MAX)
        .find(|n| !root.join(format!("core/user_{n}")).exists())
        .unwrap_or(0)
}

/// A user backstore to create.
#[derive(Debug, Clone)]
pub(crate) struct Backstore {
    /// HBA index (`core/user_<hba>`).
    pub hba: u32,
    /// Device directory name.
    pub dev: String,
    /// `dev_config` value: `<subtype>/<cfgstring>`, shows in the uio name.
    pub dev_config: String,
    /// Capacity in bytes.
    pub dev_size: u64,
    /// Logical block size the core is told (the handler answers READ CAPACITY itself).
    pub block_size: u32,
}

impl Backstore {
    /// `core/user_<hba>/<dev>`.
    pub(crate) fn path(&self, root: &Path) -> PathBuf {
        root.join(format!("core/user_{}/{}", self.hba, self.dev))
    }

    /// The `control` string (target_core_user.c `tcmu_set_configfs_dev_params` tokens).
    pub(crate) fn control(&self) -> String {
        format!(
            "dev_config={},dev_size={},hw_block_size={}",
            self.dev_config, self.dev_size, self.block_size
        )
    }

    /// Creates and enables it; a `/dev/uioN` appears.
    pub(crate) fn create(&self, root: &Path, undo: &mut Undo) -> Result<()> {
        mkdir_shared(&root.join(format!("core/user_{}", self.hba)), undo)?;
        let dir = self.path(root);
        mkdir(&dir, undo)?;
        write_attr(&dir.join("control"), &self.control())?;
        write_attr(&dir.join("enable"), "1")?;
        // Ask for TMR notifications (Linux >= 5.10); older kernels just do not have the file.
        let tmr = dir.join("attrib/tmr_notification");
        if tmr.exists() {
            let _ = write_attr(&tmr, "1");
        }
        // Hand PERSISTENT RESERVE IN/OUT to the virtual drive instead of LIO's own emulation
        // (pgr_support=0 sets TRANSPORT_FLAG_PASSTHROUGH_PGR; writable for user backstores
        // since Linux 5.9): each port is its own backstore, so LIO would keep two unrelated
        // reservation tables, while the drive keys one table by the two ports.
        let pgr = dir.join("attrib/pgr_support");
        if pgr.exists() {
            if let Err(e) = write_attr(&pgr, "0") {
                eprintln!(
                    "sgctl: {}: {e}; LIO emulates PERSISTENT RESERVE itself (one table per port)",
                    pgr.display()
                );
            }
        }
        Ok(())
    }
}

/// A tcm_loop target port exposing one backstore as LUN 0.
#[derive(Debug, Clone)]
pub(crate) struct LoopTarget {
    /// Target WWN (`naa.` + 16 hex digits): one SCSI host per WWN.
    pub wwn: String,
    /// Initiator port name for the nexus.
    pub initiator: String,
}

impl LoopTarget {
    /// `loopback/<wwn>/tpgt_1`.
    pub(crate) fn tpg(&self, root: &Path) -> PathBuf {
        root.join(format!("loopback/{}/tpgt_1", self.wwn))
    }

    /// Creates target, TPG, nexus, then LUN 0 linked to `backstore`.
    pub(crate) fn create(&self, root: &Path, backstore: &Path, undo: &mut Undo) -> Result<()> {
        mkdir_shared(&root.join("loopback"), undo)?;
        mkdir(&root.join(format!("loopback/{}", self.wwn)), undo)?;
        let tpg = self.tpg(root);
        mkdir(&tpg, undo)?;
        write_attr(&tpg.join("nexus"), &self.initiator)?;
        undo.push(UndoStep::DropNexus(tpg.join("nexus")));
        let lun = tpg.join("lun/lun_0");
        mkdir(&lun, undo)?;
        let link = lun.join("sgctl");
        std::os::unix::fs::symlink(backstore, &link)
            .map_err(|e| Error::io(format!("symlink {}", link.display()), e))?;
        undo.push(UndoStep::Unlink(link));
        Ok(())
    }

    /// `H:C:T` of the SCSI host tcm_loop made, from the TPG's `address` attribute.
    pub(crate) fn address(&self, root: &Path) -> Option<String> {
        std::fs::read_to_string(self.tpg(root).join("address"))
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    }
}

/// `naa.` names for tcm_loop: IEEE OUI 00-14-05 (the one LIO uses, "naa.5001405...") with a
/// 36-bit serial from `seed`, so separate runs do not collide.
pub(crate) fn naa_name(seed: u64) -> String {
    format!("naa.5001405{:09x}", seed & 0xf_ffff_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_string_and_paths() {
        let b = Backstore {
            hba: 3,
            dev: "sgctl_p2".into(),
            dev_config: "sgctl/px02smf080-p2".into(),
            dev_size: 1 << 30,
            block_size: 520,
        };
        assert_eq!(
            b.control(),
            "dev_config=sgctl/px02smf080-p2,dev_size=1073741824,hw_block_size=520"
        );
        assert_eq!(
            b.path(Path::new("/c")),
            PathBuf::from("/c/core/user_3/sgctl_p2")
        );
        assert_eq!(naa_name(0x1234), "naa.5001405000001234");
        assert_eq!(naa_name(u64::MAX).len(), 4 + 16);
    }

    #[test]
    fn undo_reverses_in_order_and_survives_failures() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        let mut undo = Undo::default();
        mkdir_shared(&root.join("a"), &mut undo).unwrap();
        mkdir(&root.join("a/b"), &mut undo).unwrap();
        std::fs::write(root.join("target"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("target"), root.join("a/b/link")).unwrap();
        undo.push(UndoStep::Unlink(root.join("a/b/link")));
        // A step that fails (directory not empty) must not stop the others.
        std::fs::create_dir(root.join("busy")).unwrap();
        std::fs::write(root.join("busy/file"), "x").unwrap();
        let mut undo2 = Undo::default();
        undo2.push(UndoStep::Rmdir(root.join("busy")));
        undo2.push(UndoStep::Rmdir(root.join("gone-already")));
        assert_eq!(undo.steps().len(), 3);
        assert!(undo.run().is_empty());
        assert!(!root.join("a").exists());
        assert!(root.join("target").exists());
        let errs = undo2.run();
        assert_eq!(errs.len(), 1, "{errs:?}");
        // Existing shared parents are not recorded, so not removed.
        let mut undo3 = Undo::default();
        mkdir_shared(&root.join("busy"), &mut undo3).unwrap();
        assert!(undo3.steps().is_empty());
    }

    #[test]
    fn free_hba_skips_used_indexes() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("core/user_0")).unwrap();
        std::fs::create_dir_all(d.path().join("core/user_1")).unwrap();
        assert_eq!(free_hba(d.path()), 2);
    }

    #[test]
    fn missing_lio_is_reported() {
        let d = tempfile::tempdir().unwrap();
        match check_lio(d.path()) {
            Err(Error::Unsupported(m)) => assert!(m.contains("target_core_user"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
