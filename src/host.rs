//! The host as the safety gate and discovery both see it: the paths of a logical unit and
//! the reasons it may be in use (mounted, swap, held, boot disk), read from sysfs and procfs
//! ([`LinuxHost`]) or faked in tests ([`HostView`]). Both `discover` and `ops::gate` use
//! this module; it uses neither (but for the enclosure slot type [`HostView::slot_of`] names).

use crate::error::{Error, Refusal, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

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

/// Why a drive is in use (defined with the refusal that carries it, in the error module).
pub use crate::error::InUse;

/// What the gate needs to know about the host.
pub trait HostView: Send + Sync {
    /// Every path of the logical unit behind `address` (at least one entry).
    fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>>;
    /// Reasons any of `paths` is in use (empty = free).
    fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>>;
    /// The enclosure and slot the drive behind `paths` sits in, where the host knows it
    /// (`/sys/class/enclosure`); `None` by default (virtual drives, hosts without enclosures).
    /// Recorded in job records and manifests; never a reason to refuse.
    fn slot_of(&self, _paths: &[PathInfo]) -> Option<crate::discover::enclosure::SlotRef> {
        None
    }
}

/// The real host, read from procfs and sysfs under `root` (`/` normally; a fake tree in
/// tests). Paths are grouped by the LU's `wwid` (from VPD 0x83) as the kernel reports it.
#[derive(Debug, Clone)]
pub struct LinuxHost {
    root: PathBuf,
}

impl Default for LinuxHost {
    fn default() -> Self {
        LinuxHost { root: "/".into() }
    }
}

/// Reads a whole (small) file: `open`, `read` until end of file, `close` — without the
/// `statx` that `std::fs::read` spends on a size hint (sysfs reports 4096 for every attribute
/// anyway). A scan reads ~20 attributes per device, so under emulation this is measurable
/// (`sgctl scan` of 256 LUs).
pub(crate) fn read_file(p: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut f = std::fs::File::open(p)?;
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    loop {
        if len == buf.len() {
            buf.resize(len * 2, 0);
        }
        match f.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(len);
    Ok(buf)
}

fn read_trim(p: &Path) -> Option<String> {
    read_file(p)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
}

fn dir_names(p: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(p)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

impl LinuxHost {
    /// A view of the host rooted at `root`.
    pub(crate) fn with_root(root: impl Into<PathBuf>) -> LinuxHost {
        LinuxHost { root: root.into() }
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.root.join(rel.trim_start_matches('/'))
    }

    /// `H:C:T:L` of a node: `/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`.
    fn hctl_of(&self, address: &str) -> Result<String> {
        let name = address.trim_start_matches("/dev/");
        if let Some(h) = name.strip_prefix("bsg/") {
            return Ok(h.to_string());
        }
        let dir = if name.starts_with("sg") {
            self.p(&format!("sys/class/scsi_generic/{name}/device/scsi_device"))
        } else {
            self.p(&format!("sys/class/block/{name}/device/scsi_device"))
        };
        dir_names(&dir)
            .into_iter()
            .next()
            .ok_or_else(|| Refusal::NotInSysfs {
                address: address.into(),
                dir: dir.display().to_string(),
            })
            .map_err(Error::from)
    }

    fn path_info(&self, hctl: &str) -> PathInfo {
        let dev = self.p(&format!("sys/class/scsi_device/{hctl}/device"));
        PathInfo {
            hctl: Some(hctl.to_string()),
            block: dir_names(&dev.join("block")).into_iter().next(),
            sg: dir_names(&dev.join("scsi_generic")).into_iter().next(),
        }
    }

    /// The block device names to check for `disk`: itself, its partitions and, transitively,
    /// everything stacked on them.
    /// `held` gets `(device, holder)` for every holder found on the way, so the caller need
    /// not list the `holders` directories again.
    fn stack_of(&self, disk: &str, out: &mut Vec<String>, held: &mut Vec<(String, String)>) {
        let mut todo = vec![disk.to_string()];
        let base = self.p(&format!("sys/class/block/{disk}"));
        for e in dir_names(&base) {
            if e.starts_with(disk) && base.join(&e).join("partition").exists() {
                todo.push(e);
            }
        }
        while let Some(n) = todo.pop() {
            if out.contains(&n) {
                continue;
            }
            for h in dir_names(&self.p(&format!("sys/class/block/{n}/holders"))) {
                held.push((n.clone(), h.clone()));
                todo.push(h);
            }
            out.push(n);
        }
    }
}

/// Mount table entry: `(major:minor, mount point, source)` from `/proc/self/mountinfo`
/// (proc(5): field 3 is `major:minor`, field 5 the mount point, the source follows ` - fstype`).
fn parse_mountinfo(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let dash = f.iter().position(|x| *x == "-")?;
            Some((
                f.get(2)?.to_string(),
                unescape_octal(f.get(4)?),
                f.get(dash + 2).map(|s| s.to_string()).unwrap_or_default(),
            ))
        })
        .collect()
}

fn unescape_octal(s: &str) -> String {
    // mountinfo escapes space, tab, newline and backslash as \ooo.
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(oct) = s.get(i + 1..i + 4) {
                if let Ok(v) = u8::from_str_radix(oct, 8) {
                    out.push(v);
                    i += 4;
                    continue;
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl HostView for LinuxHost {
    fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>> {
        if crate::device::is_virtual_address(address) {
            // Virtual drives live in this process; nothing on the host can mount them.
            return Ok(vec![PathInfo::default()]);
        }
        let hctl = self.hctl_of(address)?;
        let wwid = read_trim(&self.p(&format!("sys/class/scsi_device/{hctl}/device/wwid")))
            .filter(|w| !w.is_empty());
        let mut hctls = vec![hctl.clone()];
        if let Some(w) = &wwid {
            for other in dir_names(&self.p("sys/class/scsi_device")) {
                if other != hctl
                    && read_trim(&self.p(&format!("sys/class/scsi_device/{other}/device/wwid")))
                        .as_deref()
                        == Some(w.as_str())
                {
                    hctls.push(other);
                }
            }
        }
        Ok(hctls.iter().map(|h| self.path_info(h)).collect())
    }

    fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
        if paths.iter().all(|p| p.block.is_none()) {
            return Ok(Vec::new()); // no block device: nothing can mount it or hold it
        }
        self.in_use_in(paths, &self.tables()?)
    }
}

/// The host's mount table and swap list, read once: a scan checks every drive against one
/// snapshot instead of re-reading `/proc/self/mountinfo` per drive.
#[derive(Debug, Clone, Default)]
pub struct MountTables {
    /// `(major:minor, mount point, source)` per mount.
    mounts: Vec<(String, String, String)>,
    /// The swap devices' paths (`/proc/swaps`, first column).
    swaps: Vec<String>,
}

impl LinuxHost {
    /// Reads `proc/self/mountinfo` (an error: the in-use state is unknown) and `proc/swaps`
    /// (absent: no swap).
    pub fn tables(&self) -> Result<MountTables> {
        let mountinfo = std::fs::read_to_string(self.p("proc/self/mountinfo"))
            .map_err(|e| Error::io("reading /proc/self/mountinfo", e))?;
        let swaps = std::fs::read_to_string(self.p("proc/swaps"))
            .map(|t| {
                t.lines()
                    .skip(1)
                    .filter_map(|l| l.split_whitespace().next().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        Ok(MountTables {
            mounts: parse_mountinfo(&mountinfo),
            swaps,
        })
    }

    /// [`HostView::in_use`] against tables read before ([`LinuxHost::tables`]); sysfs (the
    /// partitions and holders) is read now.
    pub(crate) fn in_use_in(&self, paths: &[PathInfo], tables: &MountTables) -> Result<Vec<InUse>> {
        let mut names = Vec::new();
        let mut held = Vec::new();
        let mut found = Vec::new();
        for p in paths {
            if let Some(b) = &p.block {
                self.stack_of(b, &mut names, &mut held);
            }
        }
        if names.is_empty() {
            return Ok(found);
        }
        for (device, holder) in held {
            found.push(InUse::Held { device, holder });
        }
        // The `dev` numbers and dm names of the stack, read only when the tables hold
        // something they could match: a mount of a block device (major 0 is the kernel's
        // anonymous devices: proc, sysfs, tmpfs, …; a block device never has it) or a
        // `/dev/mapper/` source. A scan checks hundreds of drives against one snapshot, and
        // a host whose mounts are all virtual (an initramfs) then reads nothing more.
        let devnums: Vec<(String, String)> = if tables
            .mounts
            .iter()
            .any(|(d, _, _)| d.split(':').next().is_some_and(|major| major != "0"))
        {
            names
                .iter()
                .filter_map(|n| {
                    read_trim(&self.p(&format!("sys/class/block/{n}/dev"))).map(|d| (d, n.clone()))
                })
                .collect()
        } else {
            Vec::new()
        };
        let mapper = |src: &str| src.starts_with("/dev/mapper/");
        let dm_names: Vec<(String, String)> = if tables.mounts.iter().any(|(_, _, src)| mapper(src))
            || tables.swaps.iter().any(|src| mapper(src))
        {
            names
                .iter()
                .filter_map(|n| {
                    read_trim(&self.p(&format!("sys/class/block/{n}/dm/name")))
                        .map(|d| (d, n.clone()))
                })
                .collect()
        } else {
            Vec::new()
        };
        let matches = |devnum: &str, source: &str| -> Option<String> {
            if let Some((_, n)) = devnums.iter().find(|(d, _)| d == devnum) {
                return Some(n.clone());
            }
            let base = source.rsplit('/').next().unwrap_or(source);
            if mapper(source) {
                if let Some((_, n)) = dm_names.iter().find(|(d, _)| d == base) {
                    return Some(n.clone());
                }
            }
            (source.starts_with("/dev/") && names.iter().any(|n| n == base))
                .then(|| base.to_string())
        };
        for (devnum, mp, source) in &tables.mounts {
            if let Some(dev) = matches(devnum, source) {
                if mp == "/" {
                    found.push(InUse::BootDisk {
                        device: dev.clone(),
                    });
                }
                found.push(InUse::Mounted {
                    device: dev,
                    mount_point: mp.clone(),
                });
            }
        }
        for src in &tables.swaps {
            if let Some(dev) = matches("", src) {
                found.push(InUse::Swap { device: dev });
            }
        }
        Ok(found)
    }
}

/// The real user id (from `/proc/self`, no unsafe libc call).
pub(crate) fn current_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

/// The host name (for records).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}
