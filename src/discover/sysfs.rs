//! What sysfs says about each SCSI device: nodes (sg, sd, bsg), H:C:T:L, state, and the SAS
//! transport objects on its way to the HBA (end device, ports, phys).
//!
//! Layout (Linux 6.1, mptsas; see fixtures/sysfs/mptsas-dualport):
//! `/sys/class/scsi_device/H:C:T:L/device` → `/sys/devices/pci…/hostH/port-H:0/end_device-H:0/
//! targetH:C:T/H:C:T:L`, which holds `scsi_generic/sgN`, `block/sdX`, `bsg/H:C:T:L`, `type`,
//! `vendor`, `model`, `rev`, `state`, `wwid`, `inquiry`, `vpd_pg80`, `vpd_pg83`.
//! `end_device-*/sas_device/end_device-*/sas_address` is the end device's SAS address; each
//! `port-*` directory links the phys that form the port (`port-H:0/phy-H:0 -> ../phy-H:0`), and
//! `phy-*/sas_phy/phy-*/negotiated_linkrate` is the negotiated rate. With expanders the chain is
//! `hostH/port-H:0/expander-H:0/port-H:0:N/end_device-H:0:N`: the first port holds HBA phys, the
//! last one the phy the end device is attached to.

use std::path::{Path, PathBuf};

/// One SCSI device (one path to a logical unit) as sysfs shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SysDevice {
    /// `H:C:T:L`.
    pub hctl: String,
    /// SCSI host number.
    pub host: u32,
    /// The device's sysfs directory (resolved, under the sysroot).
    pub dir: PathBuf,
    /// `sgN`.
    pub sg: Option<String>,
    /// `sdX` (absent when sd did not attach or refused the disk).
    pub block: Option<String>,
    /// bsg node name (`H:C:T:L`).
    pub bsg: Option<String>,
    /// `state` (running, offline, blocked, ...).
    pub state: Option<String>,
    /// End device name (`end_device-1:0`), SAS only.
    pub end_device: Option<String>,
    /// End device SAS address (`0x…`), SAS only.
    pub sas_address: Option<String>,
    /// HBA phys of the host-level port (`phy-1:0`).
    pub hba_phys: Vec<String>,
    /// Negotiated link rate of the phy(s) the end device is attached through (`3.0 Gbit`).
    pub link_rate: Option<String>,
    /// From the block device: capacity in bytes (`size` × 512) and logical block size.
    pub block_capacity: Option<(u64, u32)>,
    /// From the block device: `queue/physical_block_size`.
    pub physical_block_size: Option<u64>,
    /// From sd: `scsi_disk/H:C:T:L/protection_type` (0 none, 1-3; the kernel took it from
    /// READ CAPACITY(16) P_TYPE and PROT_EN).
    pub protection_type: Option<u8>,
}

/// What the kernel cached from the device's INQUIRY and VPD 0x83 at scan time, as text
/// attributes: only wanted for a device that could not be identified otherwise (its row and
/// its grouping key), so read on demand ([`SysDevice::kernel_text`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KernelText {
    /// `type`: peripheral device type.
    pub peripheral_type: Option<u8>,
    /// `vendor`, `model`, `rev`.
    pub vendor: Option<String>,
    /// See `vendor`.
    pub model: Option<String>,
    /// See `vendor`.
    pub rev: Option<String>,
    /// `wwid`: the kernel's choice of LU designator.
    pub wwid: Option<String>,
}

impl SysDevice {
    /// The kernel's text copies of the identity (`type`, `vendor`, `model`, `rev`, `wwid`).
    pub(crate) fn kernel_text(&self) -> KernelText {
        let a = AttrDir::open(&self.dir);
        KernelText {
            peripheral_type: a.attr("type").and_then(|t| t.parse().ok()),
            vendor: a.attr("vendor"),
            model: a.attr("model"),
            rev: a.attr("rev"),
            wwid: a.attr("wwid"),
        }
    }
}

/// Reads a sysfs attribute, trimmed; `None` if absent, unreadable or empty.
pub(crate) fn attr(p: &Path) -> Option<String> {
    crate::host::read_file(p)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// A sysfs directory held open: its attributes are opened relative to it (`openat`), so the
/// kernel walks one or two path components per attribute instead of the whole
/// `/sys/devices/…/H:C:T:L/…` path again (docs/discovery.md, "How a scan stays cheap"). When
/// the directory cannot be opened (too many open files, a sysroot gone), each read falls back
/// to the full path.
pub(crate) struct AttrDir {
    fd: Option<Fd>,
    path: PathBuf,
}

/// An open file descriptor, closed on drop.
struct Fd(std::os::fd::RawFd);

impl Drop for Fd {
    fn drop(&mut self) {
        let _ = nix::unistd::close(self.0);
    }
}

/// Largest attribute read (sysfs text attributes are at most a page; VPD copies at most 64 KiB).
const MAX_ATTR: usize = 1 << 17;

impl AttrDir {
    /// Opens `path` (`O_PATH`: only a handle to look names up from, nothing is read yet).
    pub(crate) fn open(path: &Path) -> AttrDir {
        use nix::fcntl::OFlag;
        let fd = nix::fcntl::open(
            path,
            OFlag::O_PATH | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
            nix::sys::stat::Mode::empty(),
        )
        .ok()
        .map(Fd);
        AttrDir {
            fd,
            path: path.to_path_buf(),
        }
    }

    /// The bytes of the attribute `rel` (a name or a relative path below the directory);
    /// `None` if absent or unreadable.
    pub(crate) fn bytes(&self, rel: &str) -> Option<Vec<u8>> {
        let Some(dir) = &self.fd else {
            return crate::host::read_file(&self.path.join(rel)).ok();
        };
        use nix::fcntl::OFlag;
        let f = Fd(nix::fcntl::openat(
            Some(dir.0),
            rel,
            OFlag::O_RDONLY | OFlag::O_CLOEXEC | OFlag::O_NOCTTY,
            nix::sys::stat::Mode::empty(),
        )
        .ok()?);
        let mut buf = vec![0u8; 4096];
        let mut len = 0;
        loop {
            if len == buf.len() {
                if len >= MAX_ATTR {
                    return None;
                }
                buf.resize(len * 2, 0);
            }
            let want = buf.len() - len;
            match nix::unistd::read(f.0, &mut buf[len..]) {
                Ok(0) => break,
                // sysfs answers a read with the whole attribute, up to the buffer's size
                // (kernfs: `seq_read_iter` for text attributes, `kernfs_file_read_iter` for
                // binary ones such as `inquiry` and `vpd_pg83`), so a read that did not fill
                // the buffer reached the end: no second read to learn so (one system call
                // per attribute less; a scan reads about ten per device).
                Ok(n) if n < want => {
                    len += n;
                    break;
                }
                Ok(n) => len += n,
                Err(nix::errno::Errno::EINTR) => {}
                Err(_) => return None,
            }
        }
        buf.truncate(len);
        Some(buf)
    }

    /// Whether `rel` exists below the directory (one `fstatat`, nothing opened).
    pub(crate) fn exists(&self, rel: &str) -> bool {
        let Some(dir) = &self.fd else {
            return self.path.join(rel).exists();
        };
        nix::sys::stat::fstatat(Some(dir.0), rel, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW).is_ok()
    }

    /// The attribute `rel` as trimmed text; `None` if absent, unreadable or empty (as [`attr`]).
    pub(crate) fn attr(&self, rel: &str) -> Option<String> {
        self.bytes(rel)
            .map(|b| String::from_utf8_lossy(&b).trim().to_string())
            .filter(|s| !s.is_empty())
    }
}

/// Sorted entry names of a directory (empty if it does not exist).
pub(crate) fn names(p: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(p)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    v.sort_by(|a, b| natural_cmp(a, b));
    v
}

/// Compares names with embedded numbers numerically (`sg2` < `sg10`, `0:0:2:0` < `0:0:10:0`).
pub(crate) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let b = s.as_bytes();
        for i in 1..=b.len() {
            if i == b.len() || b[i].is_ascii_digit() != b[start].is_ascii_digit() {
                out.push((b[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for (x, y) in ca.iter().zip(cb.iter()) {
        let o = match (x, y) {
            ((true, p), (true, q)) => {
                let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
                p.len().cmp(&q.len()).then_with(|| p.cmp(q))
            }
            ((_, p), (_, q)) => p.cmp(q),
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    ca.len().cmp(&cb.len())
}

/// The sysfs root under a sysroot (`/` → `/sys`).
pub(crate) fn sys(root: &Path) -> PathBuf {
    root.join("sys")
}

/// Every SCSI device under `root`/sys/class/scsi_device, in H:C:T:L order. A missing class
/// directory (no SCSI subsystem, as on machines without SCSI) gives an empty list.
pub(crate) fn devices(root: &Path) -> Vec<SysDevice> {
    // Resolve the sysroot once, so each device costs one readlink instead of a realpath.
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let class = sys(&root).join("class/scsi_device");
    names(&class)
        .into_iter()
        .filter_map(|hctl| device(&root, &hctl))
        .collect()
}

/// Follows the symlink `link` whose parent directory is already resolved: a relative target
/// is joined to the parent and `..` removed lexically (sysfs links are relative and point into
/// `/sys/devices`, a tree of real directories). `None` when `link` is not a symlink or its
/// target is absolute (the caller falls back to `canonicalize`).
pub(crate) fn follow(link: &Path) -> Option<PathBuf> {
    let target = std::fs::read_link(link).ok()?;
    if target.is_absolute() {
        return None;
    }
    let mut out = link.parent()?.to_path_buf();
    for c in target.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            std::path::Component::Normal(n) => out.push(n),
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

/// The resolved sysfs directory of `class/scsi_device/H:C:T:L/device`: one readlink (the
/// class entry; its `device` link only where the class device is not in a `scsi_device/`
/// directory) when the sysroot is resolved, `canonicalize` otherwise.
fn device_dir(root: &Path, hctl: &str) -> Option<PathBuf> {
    let entry = sys(root).join("class/scsi_device").join(hctl);
    let fast = || {
        let real = follow(&entry)?;
        // The class device sits in its parent's `scsi_device/` directory
        // (`…/H:C:T:L/scsi_device/H:C:T:L`, drivers/base/core.c), so its `device` link
        // (`../../../H:C:T:L`) names the directory two levels up: no second readlink.
        let up = real
            .parent()
            .filter(|p| p.file_name() == Some("scsi_device".as_ref()));
        let dir = match up.and_then(Path::parent) {
            Some(d) => d.to_path_buf(),
            None => follow(&real.join("device"))?,
        };
        // A relative sysroot ("fixtures/...") or a link we could not follow lexically:
        // let the kernel resolve it.
        dir.is_absolute().then_some(dir)
    };
    fast().or_else(|| std::fs::canonicalize(entry.join("device")).ok())
}

/// One SCSI device by `H:C:T:L`; `None` if sysfs has no such device.
pub(crate) fn device(root: &Path, hctl: &str) -> Option<SysDevice> {
    let dir = device_dir(root, hctl)?;
    let host = hctl.split(':').next()?.parse().ok()?;
    let a = AttrDir::open(&dir);
    let first = |sub: &str| names(&dir.join(sub)).into_iter().next();
    let block = first("block");
    let block_capacity = block.as_ref().and_then(|b| {
        let sectors: u64 = a.attr(&format!("block/{b}/size"))?.parse().ok()?;
        let lbs: u32 = a
            .attr(&format!("block/{b}/queue/logical_block_size"))?
            .parse()
            .ok()?;
        Some((sectors.checked_mul(512)?, lbs))
    });
    let physical_block_size = block.as_ref().and_then(|b| {
        a.attr(&format!("block/{b}/queue/physical_block_size"))?
            .parse()
            .ok()
    });
    let mut d = SysDevice {
        hctl: hctl.to_string(),
        host,
        sg: first("scsi_generic"),
        block,
        // The bsg node is named after the device (block/bsg.c: `dev_name` of the SCSI
        // device): one fstatat instead of listing the directory.
        bsg: if a.exists(&format!("bsg/{hctl}")) {
            Some(hctl.to_string())
        } else {
            first("bsg")
        },
        state: a.attr("state"),
        block_capacity,
        physical_block_size,
        protection_type: a
            .attr(&format!("scsi_disk/{hctl}/protection_type"))
            .and_then(|t| t.parse().ok()),
        dir: dir.clone(),
        ..SysDevice::default()
    };
    sas_chain(&dir, &mut d);
    Some(d)
}

/// Fills the SAS fields by walking up from the device directory.
fn sas_chain(dir: &Path, d: &mut SysDevice) {
    let mut ancestors: Vec<&Path> = dir.ancestors().collect();
    ancestors.reverse(); // from / down to the device
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let ports: Vec<&Path> = ancestors
        .iter()
        .copied()
        .filter(|p| name(p).starts_with("port-"))
        .collect();
    if let Some(end) = ancestors
        .iter()
        .copied()
        .find(|p| name(p).starts_with("end_device-"))
    {
        let n = name(end);
        d.sas_address = attr(&end.join("sas_device").join(&n).join("sas_address"));
        d.end_device = Some(n);
    }
    let phys_of = |port: &Path| -> Vec<String> {
        names(port)
            .into_iter()
            .filter(|n| n.starts_with("phy-"))
            .collect()
    };
    if let Some(first) = ports.first() {
        d.hba_phys = phys_of(first);
    }
    if let Some(last) = ports.last() {
        let rates: Vec<String> = phys_of(last)
            .iter()
            .filter_map(|p| {
                let phy_dir = std::fs::canonicalize(last.join(p)).ok()?;
                attr(&phy_dir.join("sas_phy").join(p).join("negotiated_linkrate"))
            })
            .collect();
        if !rates.is_empty() {
            let mut uniq = rates.clone();
            uniq.dedup();
            d.link_rate = Some(if uniq.len() == 1 {
                format!(
                    "{}{}",
                    uniq[0],
                    if rates.len() > 1 {
                        format!(" x{}", rates.len())
                    } else {
                        String::new()
                    }
                )
            } else {
                rates.join(", ")
            });
        }
    }
}

/// A writable copy of the captured tree `fixtures/sysfs/NAME` (links kept as links), for a
/// test that changes it.
#[cfg(test)]
pub(crate) fn copy_fixture(name: &str) -> tempfile::TempDir {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sysfs")
        .join(name);
    let tmp = tempfile::tempdir().expect("temporary directory");
    let ok = std::process::Command::new("cp")
        .args(["-a", &format!("{}/.", src.display())])
        .arg(tmp.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cp -a {}", src.display());
    tmp
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The readlink resolution gives what `canonicalize` gives, for every device of every
    /// captured tree (SAS chains with expanders and ports, scsi_debug's pseudo bus).
    #[test]
    fn device_dir_is_the_canonical_path() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs");
        let mut n = 0;
        for f in names(&fixtures) {
            let root = std::fs::canonicalize(fixtures.join(&f)).unwrap();
            for hctl in names(&sys(&root).join("class/scsi_device")) {
                let link = sys(&root)
                    .join("class/scsi_device")
                    .join(&hctl)
                    .join("device");
                let entry = sys(&root).join("class/scsi_device").join(&hctl);
                let fast = follow(&entry).and_then(|r| follow(&r.join("device")));
                assert_eq!(fast, std::fs::canonicalize(&link).ok(), "{f} {hctl}");
                assert_eq!(device_dir(&root, &hctl), fast);
                n += 1;
            }
        }
        assert!(n >= 18, "only {n} fixture devices");
    }

    /// Attributes read through the held-open directory are the bytes a read of the full path
    /// gives, for names and for relative paths below it; a directory that cannot be opened
    /// reads nothing.
    #[test]
    fn attr_dir_reads_what_a_path_read_gives() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/scsi-debug");
        let root = std::fs::canonicalize(fixture).unwrap();
        let d = device(&root, "0:0:0:0").expect("fixture device");
        let b = d.block.clone().expect("sd attached");
        let a = AttrDir::open(&d.dir);
        let size = format!("block/{b}/size");
        for rel in ["vendor", "inquiry", "vpd_pg83", size.as_str()] {
            let want = crate::host::read_file(&d.dir.join(rel)).ok();
            assert!(want.is_some(), "{rel}");
            assert_eq!(a.bytes(rel), want, "{rel}");
        }
        assert_eq!(a.bytes("no-such-attribute"), None);
        assert_eq!(a.attr("vendor"), attr(&d.dir.join("vendor")));
        assert_eq!(
            AttrDir::open(&root.join("no/such/dir")).bytes("vendor"),
            None
        );
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["sg10", "sg2", "sg1", "0:0:10:0", "0:0:2:0"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["0:0:2:0", "0:0:10:0", "sg1", "sg2", "sg10"]);
    }
}
