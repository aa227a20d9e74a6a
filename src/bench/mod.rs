//! The benchmark engine: one workload ([`workload::Workload`], like one fio job)
//! run by one of several engines behind [`engine::Engine`] — `uring` (io_uring, O_DIRECT),
//! `sg` (SCSI READ/WRITE through /dev/sgN's asynchronous interface, any block length) and
//! `sim` (a virtual drive on its virtual clock) — with the same scheduling, data and
//! statistics code (`engine::JobCore`, [`stats`]). The suites (PTS, reviews) build on
//! [`engine::open`] and never know which engine runs.

pub mod data;
pub mod engine;
pub mod qos;
pub mod report;
pub mod run;
pub(crate) mod sg;
#[cfg(feature = "sim")]
pub mod sim;
#[cfg(feature = "sim")]
pub mod sim_capacity;
pub mod stats;
pub mod suite;
pub(crate) mod uring;
pub mod workload;

pub use engine::{open, Authorization, BenchError, Engine, EngineKind};
pub use stats::{Interval, LatencySummary, RunResult};
pub use workload::{BlockSplit, Distribution, Limit, Range, Rw, Workload};

/// Opens a real device (block node, file or sg node): `auto` takes uring on block nodes
/// with a power-of-two logical block and on files, sg on sg nodes and on other block lengths.
pub(crate) fn open_real(
    addr: &str,
    kind: EngineKind,
    writable: bool,
) -> Result<Box<dyn Engine>, BenchError> {
    use std::os::unix::fs::FileTypeExt;
    let ft = std::fs::metadata(addr)
        .map_err(|e| {
            BenchError::Open(crate::Error::Os {
                op: "open",
                path: addr.to_string(),
                errno: nix::errno::Errno::from_raw(e.raw_os_error().unwrap_or(libc::EIO)),
                hint: None,
            })
        })?
        .file_type();
    let sg = match kind {
        EngineKind::Sg => true,
        EngineKind::Uring => false,
        _ if ft.is_char_device() => true,
        _ if ft.is_block_device() => {
            // Power-of-two logical blocks go through the block layer; others only via sg.
            let lbs = sysfs_block_dir(addr)
                .and_then(|d| std::fs::read_to_string(d.join("queue/logical_block_size")).ok())
                .and_then(|s| s.trim().parse::<u32>().ok());
            lbs.is_some_and(|b| !b.is_power_of_two())
        }
        _ => false,
    };
    if sg {
        return Ok(Box::new(sg::SgEngine::open(addr, writable)?));
    }
    if ft.is_char_device() {
        return Err(BenchError::InvalidArgument(format!(
            "{addr}: a character device: use --engine sg (or the block node with uring)"
        )));
    }
    Ok(Box::new(uring::UringEngine::open(addr, writable)?))
}

/// `/sys/dev/block/MAJ:MIN` of a block device node.
pub(crate) fn sysfs_block_dir(addr: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let m = std::fs::metadata(addr).ok()?;
    if !m.file_type().is_block_device() {
        return None;
    }
    let rdev = m.rdev();
    let (maj, min) = (libc::major(rdev), libc::minor(rdev));
    Some(std::path::PathBuf::from(format!(
        "/sys/dev/block/{maj}:{min}"
    )))
}

/// Whether a block node belongs to a SCSI device (sd): identity comes from INQUIRY then.
pub(crate) fn block_is_scsi(addr: &str) -> bool {
    sysfs_block_dir(addr).is_some_and(|d| d.join("device/scsi_device").exists())
}

/// The safety gate's view of a target that is not a SCSI logical unit: a loop or other
/// block device (one path: itself; in use when it, a partition or a holder is mounted,
/// swap or held) or a regular file (never mounted; named by its path).
#[derive(Debug, Clone)]
pub(crate) struct PlainHost {
    addr: String,
    block: Option<String>,
}

impl PlainHost {
    /// The view of `addr`.
    pub(crate) fn new(addr: &str) -> PlainHost {
        let block = sysfs_block_dir(addr).and_then(|d| {
            let uevent = std::fs::read_to_string(d.join("uevent")).ok()?;
            uevent
                .lines()
                .find_map(|l| l.strip_prefix("DEVNAME="))
                .map(str::to_string)
        });
        PlainHost {
            addr: addr.to_string(),
            block,
        }
    }

    /// The name `--confirm` must give: the kernel name (`loop0`) or the file's path.
    pub(crate) fn name(&self) -> String {
        self.block.clone().unwrap_or_else(|| self.addr.clone())
    }
}

impl crate::host::HostView for PlainHost {
    fn paths_of(&self, _address: &str) -> crate::Result<Vec<crate::host::PathInfo>> {
        Ok(vec![crate::host::PathInfo {
            hctl: None,
            block: self.block.clone(),
            sg: None,
        }])
    }

    fn in_use(&self, paths: &[crate::host::PathInfo]) -> crate::Result<Vec<crate::host::InUse>> {
        if self.block.is_none() {
            return Ok(Vec::new());
        }
        crate::host::LinuxHost::default().in_use(paths)
    }
}
