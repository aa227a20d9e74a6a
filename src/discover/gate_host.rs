//! The host as the destructive commands see it: [`DiscoverHost`].

use crate::error::{Refusal, Result};
use crate::host::{HostView, InUse, LinuxHost, PathInfo};

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
        let paths: Vec<PathInfo> = d
            .paths
            .iter()
            .map(crate::discover::DrivePath::to_path_info)
            .collect();
        if paths.is_empty() {
            return Err(Refusal::NoPath {
                address: address.into(),
            }
            .into());
        }
        Ok(paths)
    }

    fn in_use(&self, paths: &[PathInfo]) -> Result<Vec<InUse>> {
        LinuxHost::default().in_use(paths)
    }

    fn slot_of(&self, paths: &[PathInfo]) -> Option<crate::host::SlotRef> {
        crate::discover::enclosure::slot_of_paths(std::path::Path::new("/"), paths)
    }
}
