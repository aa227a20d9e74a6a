//! Running ATA commands through a SATL (SAT-4 12.2): build the ATA PASS-THROUGH CDB, send
//! it, and turn the completion into the device's registers or a typed ATA error; and the
//! reads the CLI and the health/sanitize jobs share.
//!
//! Mapping (SAT-4 12.2.2.5-7, and what smartmontools' `sat_device::ata_pass_through` accepts):
//! GOOD → success without registers; CHECK CONDITION with RECOVERED ERROR or NO SENSE and
//! 00/1D → success with the returned registers (CK_COND=1); any sense whose ATA registers
//! show ERR/DF → [`AtaDeviceError`] (libata reports ABRT as ABORTED COMMAND 00/00, UNC as
//! MEDIUM ERROR 11/04); other sense → the SCSI error it is (the SATL itself refused).

use crate::ata::{
    cmd, command_name, identify, log, sanitize_fn, smart, AtaDeviceError, AtaRegisters,
    SanitizeStatus, SecurityBlock,
};
use crate::error::{Error, Result};
use crate::scsi::ata_pass_through::{self as apt, AtaCommand, CdbSize, Protocol};
use crate::transport::{check, Completion, DataBuf, Transport};
use std::time::Duration;

/// Timeout of quick ATA commands.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Interprets a completion of `cmd` (pure; unit-tested with captured sense).
pub(crate) fn interpret(cmd: &AtaCommand, c: &Completion) -> Result<Option<AtaRegisters>> {
    let regs = if c.status == crate::transport::status::CHECK_CONDITION {
        apt::parse_registers(&c.sense)
    } else {
        None
    };
    if let Some(r) = regs {
        if let Some(kind) = r.error_kind() {
            return Err(Error::Ata(Box::new(AtaDeviceError {
                command: cmd.tf.command,
                name: command_name(cmd.tf.command, cmd.tf.features),
                kind,
                registers: r,
            })));
        }
    }
    match check(c) {
        Ok(()) => Ok(regs),
        // A SATL that flags success with a bogus sense key but clean registers (smartmontools
        // works around the same: "ATA status indicates success, ignoring SCSI sense_key").
        Err(Error::Sense(_)) if cmd.ck_cond && regs.is_some_and(|r| r.status & 0xC1 == 0x40) => {
            Ok(regs)
        }
        Err(e) => Err(e),
    }
}

/// Sends `cmd` and returns the registers (with CK_COND) or None.
pub fn run(
    t: &mut dyn Transport,
    size: CdbSize,
    cmd: &AtaCommand,
    data: DataBuf<'_>,
    timeout: Duration,
) -> Result<Option<AtaRegisters>> {
    let cdb = size.cdb(cmd);
    let mut data = data;
    let c = t.execute(&cdb, reborrow(&mut data), timeout)?;
    // A first UNIT ATTENTION (power on, reset) did not reach the device: send it again.
    let c = if is_unit_attention(&c) {
        t.execute(&cdb, data, timeout)?
    } else {
        c
    };
    interpret(cmd, &c)
}

fn reborrow<'a>(d: &'a mut DataBuf<'_>) -> DataBuf<'a> {
    match d {
        DataBuf::In(b) => DataBuf::In(b),
        DataBuf::Out(b) => DataBuf::Out(b),
        DataBuf::None => DataBuf::None,
    }
}

fn is_unit_attention(c: &Completion) -> bool {
    c.status == crate::transport::status::CHECK_CONDITION
        && crate::sense::Sense::parse(&c.sense)
            .is_ok_and(|s| s.key == crate::sense::SenseKey::UnitAttention)
}

/// Sends a data-in command and returns the bytes (COUNT × 512).
pub fn read(
    t: &mut dyn Transport,
    size: CdbSize,
    cmd: &AtaCommand,
    timeout: Duration,
) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; cmd.transfer_len()];
    let c = t.execute(&size.cdb(cmd), DataBuf::In(&mut buf), timeout)?;
    // A first UNIT ATTENTION (after power on / reset) is retried once, as for SCSI queries.
    let c = if is_unit_attention(&c) {
        t.execute(&size.cdb(cmd), DataBuf::In(&mut buf), timeout)?
    } else {
        c
    };
    interpret(cmd, &c)?;
    let n = c.transferred(buf.len());
    buf.truncate(n);
    Ok(buf)
}

/// True when the drive is an ATA device behind a SATL: INQUIRY vendor "ATA" (SAT-4 10.4.2),
/// or VPD page 0x89 present. Page 0x89 is asked for only when the Supported VPD Pages list
/// names it ([`crate::cmd::probe`]): a SAS drive answers an unlisted page with ILLEGAL REQUEST and
/// counts it as a non-medium error.
pub fn is_behind_satl(t: &mut dyn Transport, vendor: Option<&str>) -> bool {
    if vendor.is_some_and(|v| v.trim() == "ATA") {
        return true;
    }
    if !crate::cmd::probe::vpd_listed(t, 0x89) {
        return false;
    }
    let mut v = vec![0u8; 64];
    crate::cmd::run_query(
        t,
        &crate::scsi::inquiry::InquiryCdb::new(64)
            .evpd(true)
            .page_code(0x89)
            .build(),
        &mut v,
        crate::transport::DEFAULT_TIMEOUT,
    )
    .is_ok_and(|n| n >= 4 && v[1] == 0x89)
}

/// IDENTIFY DEVICE raw data.
pub fn read_identify_raw(t: &mut dyn Transport, size: CdbSize) -> Result<Vec<u8>> {
    let c = AtaCommand::new(cmd::IDENTIFY_DEVICE, Protocol::PioDataIn).count(1);
    read(t, size, &c, TIMEOUT)
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
    let d = read(t, size, &smart_cmd(0xD0), TIMEOUT)?;
    let th = read(t, size, &smart_cmd(0xD1), TIMEOUT)?;
    Ok((d, th))
}

/// SMART RETURN STATUS: Some(true) when a threshold is exceeded.
pub fn smart_return_status(t: &mut dyn Transport, size: CdbSize) -> Result<Option<bool>> {
    let c = AtaCommand::new(cmd::SMART, Protocol::NonData)
        .features(0xDA)
        .lba(0xC2_4F00)
        .ck_cond(true);
    let r = run(t, size, &c, DataBuf::None, TIMEOUT)?;
    Ok(r.and_then(|r| smart::return_status(r.lba)))
}

/// READ LOG EXT of `pages` pages of log `address` from `page`.
pub fn read_log_ext(t: &mut dyn Transport, address: u8, page: u16, pages: u16) -> Result<Vec<u8>> {
    let c = AtaCommand::new(cmd::READ_LOG_EXT, Protocol::PioDataIn)
        .extend(true)
        .count(pages.max(1))
        .lba(u64::from(address) | u64::from(page) << 8);
    read(t, CdbSize::Sixteen, &c, TIMEOUT)
}

/// SMART READ LOG (B0h/D5h) of log `address`, one page (for logs without GPL, e.g. 06h).
pub fn read_smart_log(t: &mut dyn Transport, size: CdbSize, address: u8) -> Result<Vec<u8>> {
    let c = AtaCommand::new(cmd::SMART, Protocol::PioDataIn)
        .features(0xD5)
        .count(1)
        .lba(0xC2_4F00 | u64::from(address));
    read(t, size, &c, TIMEOUT)
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

/// Sends a SANITIZE DEVICE function with CK_COND (the SATL returns the registers).
pub fn sanitize(
    t: &mut dyn Transport,
    feature: u16,
    count: u16,
    lba: u64,
    timeout: Duration,
) -> Result<Option<AtaRegisters>> {
    let c = AtaCommand::new(cmd::SANITIZE, Protocol::NonData)
        .extend(true)
        .features(feature)
        .count(count)
        .lba(lba)
        .ck_cond(true);
    run(t, CdbSize::Sixteen, &c, DataBuf::None, timeout)
}

/// SANITIZE STATUS EXT.
pub fn sanitize_status(t: &mut dyn Transport) -> Result<SanitizeStatus> {
    let r = sanitize(t, sanitize_fn::STATUS, 0, 0, TIMEOUT)?.ok_or_else(|| {
        crate::Error::Unsupported(
            "the SATL returned no ATA registers for SANITIZE STATUS EXT (CK_COND ignored)".into(),
        )
    })?;
    Ok(crate::ata::decode_sanitize_status(&r))
}

/// A SECURITY command with its 512-byte block (PIO data-out).
pub fn security_out(
    t: &mut dyn Transport,
    command: u8,
    block: &SecurityBlock,
    timeout: Duration,
) -> Result<()> {
    let c = AtaCommand::new(command, Protocol::PioDataOut).count(1);
    run(
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
    run(t, CdbSize::Sixteen, &c, DataBuf::None, TIMEOUT)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ata::AtaErrorKind;

    fn cc(sense: &[u8]) -> Completion {
        Completion::check_condition(sense.to_vec())
    }

    #[test]
    fn ck_cond_success_returns_registers() {
        let cmd = AtaCommand::new(0xB0, Protocol::NonData)
            .features(0xDA)
            .lba(0xC2_4F00)
            .ck_cond(true);
        let s = crate::bytes::parse_inhex(
            "72 01 00 1d 00 00 00 0e 09 0c 00 00 00 00 00 00 00 4f 00 c2 e0 50",
        )
        .unwrap();
        let r = interpret(&cmd, &cc(&s)).unwrap().unwrap();
        assert_eq!(r.status, 0x50);
    }

    #[test]
    fn abort_becomes_typed_error() {
        let cmd = AtaCommand::new(0xF4, Protocol::PioDataOut).count(1);
        let mut s = vec![0x72, 0x0B, 0, 0, 0, 0, 0, 14];
        s.extend_from_slice(&apt::encode_descriptor(&AtaRegisters {
            error: 0x04,
            status: 0x51,
            ..AtaRegisters::default()
        }));
        match interpret(&cmd, &cc(&s)) {
            Err(Error::Ata(e)) => {
                assert_eq!(e.kind, AtaErrorKind::Aborted);
                assert_eq!(e.name, "SECURITY ERASE UNIT");
                assert!(e.to_string().contains("ABRT"), "{e}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn satl_refusal_stays_scsi() {
        let cmd = AtaCommand::new(0xEC, Protocol::PioDataIn).count(1);
        let s = crate::sense::build_fixed(crate::sense::SenseKey::IllegalRequest, 0x20, 0);
        assert!(matches!(interpret(&cmd, &cc(&s)), Err(Error::Sense(_))));
        assert_eq!(interpret(&cmd, &Completion::good()).unwrap(), None);
    }
}
