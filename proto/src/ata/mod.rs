//! The ATA side of a SATA drive behind a SCSI/ATA Translation Layer (an HBA's SATL or
//! libata): decoders for the ATA data structures ([`identify`], [`smart`], [`log`]), the
//! command runner ([`exec`]) over ATA PASS-THROUGH ([`crate::scsi::ata_pass_through`]), and
//! the reads the CLI and the health/sanitize jobs share (this file).

pub mod exec;
pub mod identify;
pub mod log;
pub mod smart;

use crate::error::Result;
use crate::scsi::ata_pass_through::{AtaCommand, Protocol};
use crate::transport::{DataBuf, Transport};
use exec::CdbSize;
use serde::Serialize;
use std::time::Duration;

/// Timeout of quick ATA commands.
pub const TIMEOUT: Duration = Duration::from_secs(30);

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

/// True when the drive is an ATA device behind a SATL: INQUIRY vendor "ATA" (SAT-4 10.4.2),
/// or VPD page 0x89 present. Page 0x89 is asked for only when the Supported VPD Pages list
/// names it ([`crate::probe`]): a SAS drive answers an unlisted page with ILLEGAL REQUEST and
/// counts it as a non-medium error.
pub fn is_behind_satl(t: &mut dyn Transport, vendor: Option<&str>) -> bool {
    if vendor.is_some_and(|v| v.trim() == "ATA") {
        return true;
    }
    if !crate::probe::vpd_listed(t, 0x89) {
        return false;
    }
    let mut v = vec![0u8; 64];
    crate::transport::run_query(
        t,
        &crate::scsi::vpd::cdb(0x89, 64),
        &mut v,
        crate::transport::DEFAULT_TIMEOUT,
    )
    .is_ok_and(|n| n >= 4 && v[1] == 0x89)
}

/// IDENTIFY DEVICE raw data.
pub fn read_identify_raw(t: &mut dyn Transport, size: CdbSize) -> Result<Vec<u8>> {
    let c = AtaCommand::new(cmd::IDENTIFY_DEVICE, Protocol::PioDataIn).count(1);
    exec::read(t, size, &c, TIMEOUT)
}

/// IDENTIFY DEVICE decoded.
pub fn read_identify(t: &mut dyn Transport, size: CdbSize) -> Result<identify::Identify> {
    Ok(identify::parse(&read_identify_raw(t, size)?)?)
}

fn smart_cmd(feature: u16) -> AtaCommand {
    AtaCommand::new(cmd::SMART, Protocol::PioDataIn)
        .features(feature)
        .count(1)
        .lba(0xC2_4F00)
}

/// SMART READ DATA and SMART READ THRESHOLDS, raw.
pub fn read_smart_raw(t: &mut dyn Transport, size: CdbSize) -> Result<(Vec<u8>, Vec<u8>)> {
    let d = exec::read(t, size, &smart_cmd(0xD0), TIMEOUT)?;
    let th = exec::read(t, size, &smart_cmd(0xD1), TIMEOUT)?;
    Ok((d, th))
}

/// SMART RETURN STATUS: Some(true) when a threshold is exceeded.
pub fn smart_return_status(t: &mut dyn Transport, size: CdbSize) -> Result<Option<bool>> {
    let c = AtaCommand::new(cmd::SMART, Protocol::NonData)
        .features(0xDA)
        .lba(0xC2_4F00)
        .ck_cond(true);
    let r = exec::run(t, size, &c, DataBuf::None, TIMEOUT)?;
    Ok(r.and_then(|r| smart::return_status(r.lba)))
}

/// READ LOG EXT of `pages` pages of log `address` from `page`.
pub fn read_log_ext(t: &mut dyn Transport, address: u8, page: u16, pages: u16) -> Result<Vec<u8>> {
    let c = AtaCommand::new(cmd::READ_LOG_EXT, Protocol::PioDataIn)
        .extend(true)
        .count(pages.max(1))
        .lba(u64::from(address) | u64::from(page) << 8);
    exec::read(t, CdbSize::Sixteen, &c, TIMEOUT)
}

/// SMART READ LOG (B0h/D5h) of log `address`, one page (for logs without GPL, e.g. 06h).
pub fn read_smart_log(t: &mut dyn Transport, size: CdbSize, address: u8) -> Result<Vec<u8>> {
    let c = AtaCommand::new(cmd::SMART, Protocol::PioDataIn)
        .features(0xD5)
        .count(1)
        .lba(0xC2_4F00 | u64::from(address));
    exec::read(t, size, &c, TIMEOUT)
}

/// Every supported Device Statistics page, decoded, with the raw pages.
pub fn read_device_statistics(
    t: &mut dyn Transport,
) -> Result<(Vec<log::StatisticsPage>, Vec<Vec<u8>>)> {
    let list = read_log_ext(t, log::address::DEVICE_STATISTICS, 0, 1)?;
    let numbers = log::parse_statistics_list(&list)?;
    let mut pages = Vec::new();
    let mut raw = vec![list];
    for p in numbers.into_iter().filter(|&p| p != 0) {
        let b = read_log_ext(t, log::address::DEVICE_STATISTICS, u16::from(p), 1)?;
        pages.push(log::parse_statistics_page(&b)?);
        raw.push(b);
    }
    Ok((pages, raw))
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

/// Sends a SANITIZE DEVICE function with CK_COND (the SATL returns the registers).
pub fn sanitize(
    t: &mut dyn Transport,
    feature: u16,
    count: u16,
    lba: u64,
    timeout: Duration,
) -> Result<Option<crate::scsi::ata_pass_through::AtaRegisters>> {
    let c = AtaCommand::new(cmd::SANITIZE, Protocol::NonData)
        .extend(true)
        .features(feature)
        .count(count)
        .lba(lba)
        .ck_cond(true);
    exec::run(t, CdbSize::Sixteen, &c, DataBuf::None, timeout)
}

/// SANITIZE STATUS EXT.
pub fn sanitize_status(t: &mut dyn Transport) -> Result<SanitizeStatus> {
    let r = sanitize(t, sanitize_fn::STATUS, 0, 0, TIMEOUT)?.ok_or_else(|| {
        crate::Error::Unsupported(
            "the SATL returned no ATA registers for SANITIZE STATUS EXT (CK_COND ignored)".into(),
        )
    })?;
    Ok(decode_sanitize_status(&r))
}

/// Decodes SANITIZE STATUS EXT output registers.
pub fn decode_sanitize_status(r: &crate::scsi::ata_pass_through::AtaRegisters) -> SanitizeStatus {
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

/// A SECURITY command with its 512-byte block (PIO data-out).
pub fn security_out(
    t: &mut dyn Transport,
    command: u8,
    block: &SecurityBlock,
    timeout: Duration,
) -> Result<()> {
    let c = AtaCommand::new(command, Protocol::PioDataOut).count(1);
    exec::run(
        t,
        CdbSize::Sixteen,
        &c,
        DataBuf::Out(block.bytes()),
        timeout,
    )?;
    Ok(())
}

/// A SECURITY command without data (ERASE PREPARE, FREEZE LOCK).
pub fn security_none(t: &mut dyn Transport, command: u8) -> Result<()> {
    let c = AtaCommand::new(command, Protocol::NonData);
    exec::run(t, CdbSize::Sixteen, &c, DataBuf::None, TIMEOUT)?;
    Ok(())
}

#[cfg(test)]
mod tests;
