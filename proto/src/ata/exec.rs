//! Running one ATA command through a SATL (SAT-4 12.2): build the ATA PASS-THROUGH CDB, send
//! it, and turn the completion into the device's registers or a typed ATA error.
//!
//! Mapping (SAT-4 12.2.2.5-7, and what smartmontools' `sat_device::ata_pass_through` accepts):
//! GOOD → success without registers; CHECK CONDITION with RECOVERED ERROR or NO SENSE and
//! 00/1D → success with the returned registers (CK_COND=1); any sense whose ATA registers
//! show ERR/DF → [`AtaDeviceError`] (libata reports ABRT as ABORTED COMMAND 00/00, UNC as
//! MEDIUM ERROR 11/04); other sense → the SCSI error it is (the SATL itself refused).

use crate::error::{Error, Result};
use crate::scsi::ata_pass_through::{self as apt, AtaCommand, AtaErrorKind, AtaRegisters};
use crate::transport::{check, Completion, DataBuf, Transport};
use serde::Serialize;
use std::time::Duration;

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

/// Interprets a completion of `cmd` (pure; unit-tested with captured sense).
pub fn interpret(cmd: &AtaCommand, c: &Completion) -> Result<Option<AtaRegisters>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scsi::ata_pass_through::Protocol;

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
