//! The host as the safety gate and discovery both see it: the paths of a logical unit and
//! the reasons it may be in use (mounted, swap, held, boot disk). Plain data; the readers of
//! sysfs and procfs that fill it are [`crate::ops::safety::LinuxHost`] and [`crate::discover`].

use serde::Serialize;

/// One path (node) through which the logical unit is reachable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct PathInfo {
    /// SCSI address `H:C:T:L`, when the device is known to the kernel.
    pub hctl: Option<String>,
    /// Block device name (`sdb`), if the kernel attached sd.
    pub block: Option<String>,
    /// SCSI generic name (`sg2`), if any.
    pub sg: Option<String>,
}

/// Why a drive is in use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InUse {
    /// A block device of this drive (disk, partition or holder) is mounted.
    Mounted {
        /// The block device (`sdb1`, `dm-0`).
        device: String,
        /// Where it is mounted.
        mount_point: String,
    },
    /// Used as swap.
    Swap {
        /// The block device.
        device: String,
    },
    /// Held by another block device (device-mapper, md, multipath).
    Held {
        /// The held device (`sdb` or `sdb2`).
        device: String,
        /// The holder (`dm-3`, `md0`).
        holder: String,
    },
    /// The root filesystem lives on this drive.
    BootDisk {
        /// The block device carrying `/`.
        device: String,
    },
}

impl std::fmt::Display for InUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InUse::Mounted {
                device,
                mount_point,
            } => write!(f, "{device} is mounted on {mount_point}"),
            InUse::Swap { device } => write!(f, "{device} is used as swap"),
            InUse::Held { device, holder } => write!(f, "{device} is held by {holder}"),
            InUse::BootDisk { device } => {
                write!(f, "{device} holds the root filesystem (boot disk)")
            }
        }
    }
}
