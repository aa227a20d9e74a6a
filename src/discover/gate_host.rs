//! The host as the destructive commands see it: [`DiscoverHost`].

use crate::error::{Refusal, Result};
use crate::host::{HostView, InUse, LinuxHost, PathInfo};

/// The paths of the drive at `address` as the gate sees them; a drive no path reaches is
/// refused.
fn path_infos(address: &str, paths: &[crate::discover::DrivePath]) -> Result<Vec<PathInfo>> {
    if paths.is_empty() {
        return Err(Refusal::NoPath {
            address: address.into(),
        }
        .into());
    }
    Ok(paths
        .iter()
        .map(crate::discover::DrivePath::to_path_info)
        .collect())
}

/// The host as discovery sees it: paths grouped by the LU name each path reports
/// over SG_IO (`discover::paths_of`), in-use state from the mount table, swaps and holders.
/// This is what the CLI's destructive commands use; [`LinuxHost`] is the sysfs-only view
/// (grouping by the kernel's `wwid`) that discovery itself builds on.
#[derive(Debug, Clone, Default)]
pub struct DiscoverHost;

impl HostView for DiscoverHost {
    fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>> {
        if crate::device::is_virtual_address(address) {
            // In-process drive: no host node can mount it (and opening it again for
            // identification would contend for its state file).
            return Ok(vec![PathInfo::default()]);
        }
        let d = crate::discover::paths_of(address)?;
        path_infos(address, &d.paths)
    }

    fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
        LinuxHost::default().in_use(paths)
    }

    fn slot_of(&self, paths: &[PathInfo]) -> Option<crate::host::SlotRef> {
        crate::discover::enclosure::slot_of_paths(std::path::Path::new("/"), paths)
    }

    fn for_command(&self) -> Option<Box<dyn HostView + '_>> {
        Some(Box::new(ScannedHost::new(
            crate::discover::ScanOptions::default(),
        )))
    }
}

/// [`DiscoverHost`] for one command over many drives ([`HostView::for_command`]): every
/// drive's paths are looked up in one scan of the host ([`crate::discover::HostScan`]), made
/// at the first lookup, and its enclosures in that scan's; the in-use state is read at each
/// check, as [`DiscoverHost`] does. A rack of N drives costs one walk of sysfs and one
/// identification per device instead of N of each.
#[derive(Debug)]
pub struct ScannedHost {
    scan: crate::discover::HostScan,
    slots: std::sync::OnceLock<std::collections::HashMap<String, crate::host::SlotRef>>,
}

impl ScannedHost {
    /// A view of the host (or the captured tree) `opts` scans.
    pub fn new(opts: crate::discover::ScanOptions) -> ScannedHost {
        ScannedHost {
            scan: crate::discover::HostScan::new(opts),
            slots: std::sync::OnceLock::new(),
        }
    }

    /// How many times it scanned the host (at most 1 once a scan succeeded).
    pub fn walks(&self) -> usize {
        self.scan.walks()
    }
}

impl HostView for ScannedHost {
    fn paths_of(&self, address: &str) -> Result<Vec<PathInfo>> {
        if crate::device::is_virtual_address(address) {
            return Ok(vec![PathInfo::default()]);
        }
        let d = self.scan.drive(address)?;
        path_infos(address, &d.paths)
    }

    fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
        LinuxHost::with_root(self.scan.options().sysroot.clone()).in_use(paths)
    }

    fn slot_of(&self, paths: &[PathInfo]) -> Option<crate::host::SlotRef> {
        if paths.iter().all(|p| p.hctl.is_none()) {
            return None; // nothing the kernel could have linked (a virtual drive)
        }
        let scan = self.scan.scan().ok()?;
        let m = self
            .slots
            .get_or_init(|| crate::discover::enclosure::slots_by_device(&scan.enclosures));
        paths
            .iter()
            .filter_map(|p| p.hctl.as_ref())
            .find_map(|h| m.get(h).cloned())
    }
}
