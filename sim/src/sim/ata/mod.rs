//! The ATA side of a SATA profile (hk4e) behind the simulated SATL: the persisted ATA state
//! (Security feature set state machine, Sanitize freeze, temperature extremes) and the ATA
//! data structures built from the drive's live state ([`data`]). The ATA PASS-THROUGH
//! command itself is [`crate::sim::cmd::ata`].
//!
//! Security states follow ACS-4 4.18.11 (Figure 9, Table 21): SEC1 disabled/not frozen, SEC2
//! disabled/frozen, SEC4 enabled/locked, SEC5 enabled/unlocked/not frozen, SEC6
//! enabled/unlocked/frozen. Power-on: frozen clears, an enabled drive locks.

pub mod data;

use serde::{Deserialize, Serialize};

/// Password attempts before SECURITY UNLOCK / ERASE UNIT stop trying (ACS-4: 5).
pub(crate) const MAX_ATTEMPTS: u8 = 5;

/// Persisted ATA state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtaState {
    /// The user password (32 bytes) when security is enabled. A credential, like the TCG PINs
    /// in the state file (which is saved owner-only).
    pub user_password: Option<Vec<u8>>,
    /// The master password (factory default: all spaces? drives vary; here 32 zero bytes).
    pub master_password: Option<Vec<u8>>,
    /// Master password capability: Maximum (true) or High.
    pub master_maximum: bool,
    /// Media locked (SEC4).
    pub locked: bool,
    /// SECURITY FREEZE LOCK received since power-on (SEC2/SEC6).
    pub frozen: bool,
    /// Wrong passwords since power-on.
    pub attempts: u8,
    /// The previous command was SECURITY ERASE PREPARE.
    pub erase_prepared: bool,
    /// SANITIZE FREEZE LOCK EXT received since power-on.
    pub sanitize_frozen: bool,
    /// A sanitize was issued through the ATA side (status bits of SANITIZE STATUS EXT).
    pub sanitize_issued: bool,
    /// Highest / lowest temperature seen by the model (Temperature Statistics page).
    pub max_temp_c: Option<u8>,
    /// Lowest temperature seen.
    pub min_temp_c: Option<u8>,
    /// Interface CRC errors (SATA link): injected only.
    pub crc_errors: u64,
}

impl AtaState {
    /// Security enabled (a user password is set).
    pub fn enabled(&self) -> bool {
        self.user_password.is_some()
    }

    /// The Security state name (ACS-4 Table 21).
    pub fn state_name(&self) -> &'static str {
        match (self.enabled(), self.locked, self.frozen) {
            (false, _, false) => "SEC1",
            (false, _, true) => "SEC2",
            (true, true, _) => "SEC4",
            (true, false, false) => "SEC5",
            (true, false, true) => "SEC6",
        }
    }

    /// Power-on or hardware reset: frozen states clear, an enabled drive locks, the attempt
    /// counter resets.
    pub fn power_cycle(&mut self) {
        self.frozen = false;
        self.sanitize_frozen = false;
        self.attempts = 0;
        self.erase_prepared = false;
        if self.enabled() {
            self.locked = true;
        }
    }

    /// Records a temperature reading.
    pub(crate) fn note_temperature(&mut self, t: u8) {
        self.max_temp_c = Some(self.max_temp_c.map_or(t, |m| m.max(t)));
        self.min_temp_c = Some(self.min_temp_c.map_or(t, |m| m.min(t)));
    }
}

/// A 32-byte password field from a SECURITY data block (words 1-16).
pub(crate) fn password_of(block: &[u8]) -> Vec<u8> {
    let mut p = vec![0u8; 32];
    if let Some(pw) = block.get(2..) {
        let n = pw.len().min(32);
        p[..n].copy_from_slice(&pw[..n]);
    }
    p
}
