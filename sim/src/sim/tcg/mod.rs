//! TCG Storage inside the virtual drive: SECURITY PROTOCOL IN/OUT land here.
//!
//! Interface with the SCSI target model (sim/src/sim/cmd/misc.rs, rw.rs, drive.rs) — keep it this
//! small:
//! * [`SedState`] is persisted in the drive's state file (serde), created by
//!   [`SedState::new`] from the profile; on SED profiles it holds the Enterprise TPer
//!   ([`tper::Tper`], a model of the Admin and Locking SPs);
//! * [`security_in`] / [`security_out`] get the CDB's SECURITY PROTOCOL, SECURITY PROTOCOL
//!   SPECIFIC and the allocation length / parameter data (INC_512 already applied by the
//!   target) and return the response bytes or the sense to report;
//! * the target calls [`SedState::power_cycle`], `SedState::check_access` before every media
//!   access, [`SedState::crypto_erase`] for SANITIZE CRYPTOGRAPHIC ERASE, and stores
//!   [`SedState::key_generation`] with every written block: a block whose generation no longer
//!   matches reads as ciphertext under the wrong key (pseudo-random bytes).
//!
//! Handled here: protocol 0x00 (supported protocol list, SPC-5 7.7.1) and TCG Level 0
//! discovery (protocol 0x01, ComID 0x0001; protocols.md §F.2); ComIDs go to the TPer.

pub mod tper;

use crate::sim::profile::SedKind;
use crate::sim::sense::{key, SimSense};
use serde::{Deserialize, Serialize};
use sgctl_proto::tcg::level0::{LockingFlags, TperFlags};
use tper::{Reject, Tper};

pub(crate) use tper::{BASE_COMID, NUM_COMIDS};

/// Security state of the drive.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct SedState {
    /// SSC, or None for a drive without TCG.
    pub kind: Option<SedKind>,
    /// Logical block size for the Geometry feature (kept current by the target).
    pub logical_block_size: u32,
    /// Bumped by SANITIZE CRYPTOGRAPHIC ERASE (every band gets a new key).
    pub sanitize_generation: u32,
    /// The Enterprise TPer (SED profiles).
    pub tper: Option<Tper>,
}

impl SedState {
    /// State for a new drive of this profile. `ships_locked`: pulled from an array, owned by
    /// it and locked (only the PSID on the label recovers it).
    pub fn new(
        kind: Option<SedKind>,
        serial: &str,
        ships_locked: bool,
        logical_block_size: u32,
    ) -> SedState {
        SedState {
            kind,
            logical_block_size,
            sanitize_generation: 0,
            tper: kind.map(|_| Tper::new(serial, true, ships_locked)),
        }
    }

    /// Power cycle / hard reset: LockOnReset, sessions end.
    pub fn power_cycle(&mut self) {
        if let Some(t) = self.tper.as_mut() {
            t.power_cycle();
        }
    }

    /// May the host read (`write`=false) or write `count` blocks from `lba`? A locked band
    /// gives DATA PROTECT 74/71 LOGICAL UNIT ACCESS NOT AUTHORIZED (protocols.md §F.12).
    pub(crate) fn check_access(&self, lba: u64, count: u64, write: bool) -> Result<(), SimSense> {
        match &self.tper {
            Some(t) if t.locked_for(lba, count, write) => {
                Err(SimSense::new(key::DATA_PROTECT, 0x74, 0x71))
            }
            _ => Ok(()),
        }
    }

    /// FORMAT UNIT / SANITIZE while a band is locked: DATA PROTECT 20/02 ACCESS DENIED - NO
    /// ACCESS RIGHTS, what array-locked SEDs answer (Drive-Trust-Alliance/sedutil#513: array
    /// firmware blocks FORMAT/SANITIZE with DATA PROTECT "Access denied"; openSeaChest maps 7/20/02 to "make
    /// sure security has unlocked"). A PSID revert or unlocking every band clears it.
    pub(crate) fn check_destructive(&self) -> Result<(), SimSense> {
        if self.any_locked() {
            return Err(SimSense::new(key::DATA_PROTECT, 0x20, 0x02));
        }
        Ok(())
    }

    /// SANITIZE CRYPTOGRAPHIC ERASE: new media keys everywhere.
    pub fn crypto_erase(&mut self) {
        self.sanitize_generation = self.sanitize_generation.wrapping_add(1);
    }

    /// The media key generation for `lba`: sanitize generation and band key generation.
    pub fn key_generation(&self, lba: u64) -> u64 {
        let band = self.tper.as_ref().map_or(0, |t| t.key_generation(lba));
        (u64::from(self.sanitize_generation) << 32) | u64::from(band)
    }

    /// True if any band is locked (Level 0 Locking feature "Locked").
    pub fn any_locked(&self) -> bool {
        self.tper.as_ref().is_some_and(|t| t.any_locked())
    }
}

/// Supported security protocols: 0x00 always; TCG 0x01/0x02 on SED profiles.
pub fn supported_protocols(state: &SedState) -> Vec<u8> {
    if state.kind.is_some() {
        vec![0x00, 0x01, 0x02]
    } else {
        vec![0x00]
    }
}

fn reject(r: Reject) -> SimSense {
    match r {
        Reject::Cdb(b) => SimSense::invalid_cdb(b, None),
        Reject::Param(b) => SimSense::invalid_param(b, None),
        Reject::Sequence => SimSense::new(key::ILLEGAL_REQUEST, 0x2C, 0x00),
    }
}

/// SECURITY PROTOCOL IN (SPC-5 6.40). Returns the full response; the target truncates it to
/// the allocation length.
pub fn security_in(
    state: &mut SedState,
    protocol: u8,
    sps: u16,
    alloc: usize,
) -> Result<Vec<u8>, SimSense> {
    match (protocol, sps) {
        // SPC-5 7.7.1: bytes 0-5 reserved, 6-7 list length, then one byte per protocol.
        (0x00, 0x0000) => {
            let list = supported_protocols(state);
            let mut r = vec![0u8; 8];
            r[6..8].copy_from_slice(&(list.len() as u16).to_be_bytes());
            r.extend_from_slice(&list);
            Ok(r)
        }
        // SPC-5 7.7.2: the certificate data is mandatory; with no certificate the device
        // returns the 4-byte header (reserved, CERTIFICATE LENGTH = 0).
        (0x00, 0x0001) => Ok(vec![0u8; 4]),
        (0x00, _) => Err(SimSense::invalid_cdb(2, None)),
        (0x01, 0x0001) if state.kind.is_some() => Ok(level0_discovery(state)),
        (0x01 | 0x02, _) => match state.tper.as_mut() {
            Some(t) => t.if_recv(protocol, sps, alloc).map_err(reject),
            None => Err(SimSense::invalid_cdb(1, None)),
        },
        _ => Err(SimSense::invalid_cdb(1, None)),
    }
}

/// SECURITY PROTOCOL OUT (SPC-5 6.41).
pub fn security_out(
    state: &mut SedState,
    protocol: u8,
    sps: u16,
    data: &[u8],
) -> Result<(), SimSense> {
    match (protocol, state.tper.as_mut()) {
        (0x01 | 0x02, Some(t)) => t.if_send(protocol, sps, data).map_err(reject),
        _ => Err(SimSense::invalid_cdb(1, None)),
    }
}

/// Level 0 discovery (protocols.md §F.2; TCG Storage Architecture Core 3.3.6): 48-byte
/// header, then TPer, Locking, Geometry and Enterprise SSC feature descriptors.
pub fn level0_discovery(state: &SedState) -> Vec<u8> {
    let mut r = vec![0u8; 48];
    r[4..8].copy_from_slice(&1u32.to_be_bytes()); // data structure revision
                                                  // TPer (0x0001, version 1, length 0x0C): Sync (b0) and Streaming (b4).
    let mut d = feature(0x0001, 0x0C);
    d[4] = (TperFlags::SYNC | TperFlags::STREAMING).bits();
    r.extend_from_slice(&d);
    // Locking (0x0002): supported b0, enabled b1 (Enterprise Locking SP always active),
    // locked b2, media encryption b3, MBR shadowing not supported b6 (no MBR table; D8).
    let mut d = feature(0x0002, 0x0C);
    let mut f = LockingFlags::SUPPORTED
        | LockingFlags::ENABLED
        | LockingFlags::MEDIA_ENCRYPTION
        | LockingFlags::MBR_SHADOWING_ABSENT;
    f.set(LockingFlags::LOCKED, state.any_locked());
    d[4] = f.bits();
    r.extend_from_slice(&d);
    // Geometry (0x0003, length 0x1C): align=0, LBS at 12-15, granularity 16-23, lowest 24-31.
    let mut d = feature(0x0003, 0x1C);
    d[12..16].copy_from_slice(&state.logical_block_size.to_be_bytes());
    d[16..24].copy_from_slice(&1u64.to_be_bytes());
    r.extend_from_slice(&d);
    // Enterprise SSC (0x0100, length 0x10): base ComID 4-5, # ComIDs 6-7, range crossing b0 of 8.
    let mut d = feature(0x0100, 0x10);
    d[4..6].copy_from_slice(&BASE_COMID.to_be_bytes());
    d[6..8].copy_from_slice(&NUM_COMIDS.to_be_bytes());
    d[8] = 0x01;
    r.extend_from_slice(&d);
    let len = (r.len() - 4) as u32;
    r[0..4].copy_from_slice(&len.to_be_bytes());
    r
}

fn feature(code: u16, len: u8) -> Vec<u8> {
    let mut d = vec![0u8; 4 + usize::from(len)];
    d[0..2].copy_from_slice(&code.to_be_bytes());
    d[2] = 0x10; // version 1
    d[3] = len;
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_list_and_level0() {
        let mut s = SedState::new(Some(SedKind::Enterprise), "S1", false, 512);
        assert_eq!(
            security_in(&mut s, 0, 0, 512).unwrap(),
            [0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 2]
        );
        let l0 = security_in(&mut s, 1, 1, 2048).unwrap();
        assert_eq!(
            u32::from_be_bytes([l0[0], l0[1], l0[2], l0[3]]) as usize,
            l0.len() - 4
        );
        // TPer at 48, Locking at 64, Geometry at 80, Enterprise at 112
        assert_eq!(&l0[48..52], &[0, 1, 0x10, 0x0C]);
        assert_eq!(l0[68], 0x4B);
        assert_eq!(&l0[80..84], &[0, 3, 0x10, 0x1C]);
        assert_eq!(&l0[92..96], &512u32.to_be_bytes());
        assert_eq!(
            &l0[112..122],
            &[0x01, 0x00, 0x10, 0x10, 0x07, 0xFE, 0, 2, 1, 0]
        );
        let mut plain = SedState::new(None, "S2", false, 512);
        assert_eq!(
            security_in(&mut plain, 0, 0, 512).unwrap(),
            [0, 0, 0, 0, 0, 0, 0, 1, 0]
        );
        assert!(security_in(&mut plain, 1, 1, 512).is_err());
    }

    #[test]
    fn locked_band_is_data_protect() {
        let s = SedState::new(Some(SedKind::Enterprise), "S3", true, 520);
        let e = s.check_access(0, 1, false).unwrap_err();
        assert_eq!((e.key, e.asc, e.ascq), (7, 0x74, 0x71));
        assert_eq!(level0_discovery(&s)[68], 0x4F);
    }

    #[test]
    fn sanitize_changes_every_key_generation() {
        let mut s = SedState::new(Some(SedKind::Enterprise), "S4", false, 512);
        let g = s.key_generation(10);
        s.crypto_erase();
        assert_ne!(s.key_generation(10), g);
    }
}
