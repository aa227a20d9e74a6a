//! The ATA side of a SATA drive behind a SCSI/ATA Translation Layer (an HBA's SATL or
//! libata), pure: decoders for the ATA data structures ([`identify`], [`smart`], [`log`]),
//! the command codes, which ATA PASS-THROUGH CDB to use ([`CdbSize`]), the typed ATA error
//! ([`AtaDeviceError`]) and the SECURITY data block. The commands are sent by
//! [`crate::cmd::ata`].

pub mod identify;
pub mod log;
pub mod smart;

use crate::scsi::ata_pass_through::{AtaCommand, AtaErrorKind, AtaRegisters};
use serde::Serialize;

/// ATA command codes (ACS-4 Table B.1).
pub mod cmd {
    /// IDENTIFY DEVICE.
    pub const IDENTIFY_DEVICE: u8 = 0xEC;
    /// SMART.
    pub const SMART: u8 = 0xB0;
    /// READ LOG EXT.
    pub const READ_LOG_EXT: u8 = 0x2F;
    /// SANITIZE DEVICE (feature selects the function).
    pub const SANITIZE: u8 = 0xB4;
    /// SECURITY SET PASSWORD.
    pub const SECURITY_SET_PASSWORD: u8 = 0xF1;
    /// SECURITY UNLOCK.
    pub const SECURITY_UNLOCK: u8 = 0xF2;
    /// SECURITY ERASE PREPARE.
    pub const SECURITY_ERASE_PREPARE: u8 = 0xF3;
    /// SECURITY ERASE UNIT.
    pub const SECURITY_ERASE_UNIT: u8 = 0xF4;
    /// SECURITY FREEZE LOCK.
    pub const SECURITY_FREEZE_LOCK: u8 = 0xF5;
    /// SECURITY DISABLE PASSWORD.
    pub const SECURITY_DISABLE_PASSWORD: u8 = 0xF6;
}

/// SANITIZE DEVICE feature codes (ACS-4 7.30).
pub mod sanitize_fn {
    /// SANITIZE STATUS EXT.
    pub const STATUS: u16 = 0x0000;
    /// CRYPTO SCRAMBLE EXT.
    pub const CRYPTO_SCRAMBLE: u16 = 0x0011;
    /// BLOCK ERASE EXT.
    pub const BLOCK_ERASE: u16 = 0x0012;
    /// OVERWRITE EXT.
    pub const OVERWRITE: u16 = 0x0014;
    /// SANITIZE FREEZE LOCK EXT.
    pub const FREEZE_LOCK: u16 = 0x0020;
    /// SANITIZE ANTIFREEZE LOCK EXT.
    pub const ANTIFREEZE_LOCK: u16 = 0x0040;
    /// CRYPTO SCRAMBLE EXT key in LBA 31:0 ("Cryp", ACS-4 7.30.3).
    pub const CRYPTO_KEY: u64 = 0x4372_7970;
    /// BLOCK ERASE EXT key in LBA 31:0 ("BkEr", ACS-4 7.30.2).
    pub const BLOCK_ERASE_KEY: u64 = 0x426B_4572;
    /// OVERWRITE EXT key in LBA 47:32 ("Ow", ACS-4 7.30.5); the pattern is in LBA 31:0.
    pub const OVERWRITE_KEY: u64 = 0x4F57_0000_0000;
}

/// SANITIZE STATUS EXT result (ACS-4 7.30.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SanitizeStatus {
    /// COUNT bit 15 (normal output: COUNT 15:8 bit 7): the last sanitize completed without
    /// error.
    pub completed_without_error: bool,
    /// COUNT bit 14: a sanitize operation is in progress.
    pub in_progress: bool,
    /// COUNT bit 13: the device is in the Sanitize Frozen state.
    pub frozen: bool,
    /// COUNT bit 12: SANITIZE ANTIFREEZE LOCK is in effect.
    pub antifreeze: bool,
    /// LBA 15:0: progress 0..=65535 (fraction of 65536 done).
    pub progress: u16,
}

impl SanitizeStatus {
    /// Percent done.
    pub fn percent(&self) -> f64 {
        f64::from(self.progress) * 100.0 / 65536.0
    }
}

/// Decodes SANITIZE STATUS EXT output registers.
pub(crate) fn decode_sanitize_status(
    r: &crate::scsi::ata_pass_through::AtaRegisters,
) -> SanitizeStatus {
    SanitizeStatus {
        completed_without_error: r.count & 0x8000 != 0,
        in_progress: r.count & 0x4000 != 0,
        frozen: r.count & 0x2000 != 0,
        antifreeze: r.count & 0x1000 != 0,
        progress: (r.lba & 0xFFFF) as u16,
    }
}

/// The 512-byte data block of the SECURITY commands (ACS-4 7.40-7.45): word 0 control (bit
/// 0 identifier: 1 master, 0 user; SECURITY ERASE UNIT bit 1: enhanced; SET PASSWORD bit 8:
/// master capability Maximum), words 1-16 the 32-byte password, word 17 master identifier.
/// The password is a secret: the block is zeroed when dropped and never printed.
pub struct SecurityBlock(Vec<u8>);

impl SecurityBlock {
    /// A block for `password` (at most 32 bytes, zero padded).
    pub fn new(password: &[u8], master: bool, enhanced: bool) -> SecurityBlock {
        let mut b = vec![0u8; 512];
        b[0] = u8::from(master) | (u8::from(enhanced) << 1);
        let n = password.len().min(32);
        b[2..2 + n].copy_from_slice(&password[..n]);
        SecurityBlock(b)
    }

    /// The bytes to send.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for SecurityBlock {
    fn drop(&mut self) {
        self.0.iter_mut().for_each(|b| *b = 0);
    }
}

impl std::fmt::Debug for SecurityBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecurityBlock(<redacted>)")
    }
}

/// A failed ATA command with the registers the device returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error(
    "ATA {name} (0x{command:02x}) failed: {} {} (STATUS 0x{:02x}, ERROR 0x{:02x})",
    kind.mnemonic(),
    kind.description(),
    registers.status,
    registers.error
)]
pub struct AtaDeviceError {
    /// ATA command code.
    pub command: u8,
    /// Command name (ACS-4).
    pub name: &'static str,
    /// What the registers say.
    pub kind: AtaErrorKind,
    /// The registers.
    pub registers: AtaRegisters,
}

/// Which ATA PASS-THROUGH CDB to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CdbSize {
    /// ATA PASS-THROUGH(12): 28-bit commands only; some USB bridges need it.
    Twelve,
    /// ATA PASS-THROUGH(16) (smartctl's and sg3_utils' default).
    #[default]
    Sixteen,
    /// ATA PASS-THROUGH(32) (SAT-4; few SATLs implement it).
    ThirtyTwo,
}

impl CdbSize {
    /// The CDB for `cmd`; a 48-bit command over (12) falls back to (16).
    pub fn cdb(self, cmd: &AtaCommand) -> Vec<u8> {
        match self {
            CdbSize::Twelve => cmd
                .cdb12()
                .map(|c| c.to_vec())
                .unwrap_or_else(|_| cmd.cdb16().to_vec()),
            CdbSize::Sixteen => cmd.cdb16().to_vec(),
            CdbSize::ThirtyTwo => cmd.cdb32().to_vec(),
        }
    }
}

/// ACS-4 name of the commands sgctl sends.
pub fn command_name(code: u8, features: u16) -> &'static str {
    match (code, features as u8) {
        (0xEC, _) => "IDENTIFY DEVICE",
        (0xB0, 0xD0) => "SMART READ DATA",
        (0xB0, 0xD1) => "SMART READ THRESHOLDS",
        (0xB0, 0xD5) => "SMART READ LOG",
        (0xB0, 0xD4) => "SMART EXECUTE OFF-LINE IMMEDIATE",
        (0xB0, 0xDA) => "SMART RETURN STATUS",
        (0xB0, _) => "SMART",
        (0x2F, _) => "READ LOG EXT",
        (0x47, _) => "READ LOG DMA EXT",
        (0xB4, 0x00) => "SANITIZE STATUS EXT",
        (0xB4, 0x11) => "CRYPTO SCRAMBLE EXT",
        (0xB4, 0x12) => "BLOCK ERASE EXT",
        (0xB4, 0x14) => "OVERWRITE EXT",
        (0xB4, 0x20) => "SANITIZE FREEZE LOCK EXT",
        (0xB4, 0x40) => "SANITIZE ANTIFREEZE LOCK EXT",
        (0xB4, _) => "SANITIZE",
        (0xF1, _) => "SECURITY SET PASSWORD",
        (0xF2, _) => "SECURITY UNLOCK",
        (0xF3, _) => "SECURITY ERASE PREPARE",
        (0xF4, _) => "SECURITY ERASE UNIT",
        (0xF5, _) => "SECURITY FREEZE LOCK",
        (0xF6, _) => "SECURITY DISABLE PASSWORD",
        (0x25, _) => "READ DMA EXT",
        (0x35, _) => "WRITE DMA EXT",
        _ => "command",
    }
}

#[cfg(test)]
mod tests;
