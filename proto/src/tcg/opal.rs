//! Opal-family essentials (protocols.md §F.11): state from Level 0. The PSID revert
//! (`AdminSP.Revert`) destroys data, so it takes the safety gate's token and lives above the
//! gate, in `sgctl::ops::tcg_erase`.

use super::level0::{Feature, Level0};
use serde::Serialize;

/// Opal locking state as Level 0 reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OpalState {
    /// Locking SP activated (Locking feature "enabled").
    pub locking_enabled: bool,
    /// Some range is locked.
    pub locked: bool,
    /// MBR shadowing enabled.
    pub mbr_enabled: bool,
    /// MBR done.
    pub mbr_done: bool,
}

/// Reads the Opal state from Level 0.
pub fn state(l0: &Level0) -> Option<OpalState> {
    l0.features.iter().find_map(|f| match f {
        Feature::Locking {
            enabled,
            locked,
            mbr_enabled,
            mbr_done,
            ..
        } => Some(OpalState {
            locking_enabled: *enabled,
            locked: *locked,
            mbr_enabled: *mbr_enabled,
            mbr_done: *mbr_done,
        }),
        _ => None,
    })
}
