//! `--dry-run`: the [`ReadOnly`] transport that refuses any state-changing CDB before it
//! reaches the device, and the [`PlannedCommand`] listing of what a job would send.

use crate::error::{Refusal, Result};
use crate::transport::{Completion, DataBuf, Transport};
use serde::Serialize;
use std::time::Duration;

/// True when a CDB may change the drive's state (data, format, mode, logs, security): the
/// "changes state" column of the one opcode table ([`crate::scsi::opcodes`]). Every opcode
/// not in the table counts as state-changing; ATA PASS-THROUGH is decided by the ATA command
/// inside.
pub fn is_state_changing(cdb: &[u8]) -> bool {
    crate::scsi::changes_state(cdb)
}

/// A transport wrapper for `--dry-run`: queries pass, anything state-changing is refused
/// before it reaches the device.
pub struct ReadOnly<T: Transport> {
    inner: T,
}

impl<T: Transport> ReadOnly<T> {
    /// Wraps `inner`.
    pub fn new(inner: T) -> Self {
        ReadOnly { inner }
    }
}

impl<T: Transport> Transport for ReadOnly<T> {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        if is_state_changing(cdb) {
            return Err(Refusal::DryRun {
                cdb: crate::bytes::hex(cdb),
            }
            .into());
        }
        self.inner.execute(cdb, data, timeout)
    }
    fn address(&self) -> String {
        self.inner.address()
    }
}

/// A borrowed transport as an owned one (so [`ReadOnly`] can wrap `&mut dyn Transport`).
pub struct ByRef<'a>(pub &'a mut dyn Transport);

impl Transport for ByRef<'_> {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        self.0.execute(cdb, data, timeout)
    }
    fn address(&self) -> String {
        self.0.address()
    }
}

/// A command a job would send, for `--dry-run` listings and the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PlannedCommand {
    /// What it is (`MODE SELECT(10)`, `FORMAT UNIT`, ...).
    pub name: String,
    /// CDB in hex.
    pub cdb: String,
    /// Data-out in hex (empty when none).
    pub data_out: String,
}

impl PlannedCommand {
    /// Builds from bytes.
    pub fn new(name: &str, cdb: &[u8], data_out: &[u8]) -> PlannedCommand {
        PlannedCommand {
            name: name.into(),
            cdb: crate::bytes::spaced_hex(cdb),
            data_out: crate::bytes::spaced_hex(data_out),
        }
    }

    /// One line: `FORMAT UNIT  cdb: 04 18 00 00 00 00  data: 00 02 00 00`.
    pub fn render(&self) -> String {
        if self.data_out.is_empty() {
            format!("{:<22} cdb: {}", self.name, self.cdb)
        } else {
            format!(
                "{:<22} cdb: {}  data: {}",
                self.name, self.cdb, self.data_out
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_changing_classification() {
        assert!(!is_state_changing(&[0x12, 0, 0, 0, 36, 0]));
        assert!(!is_state_changing(&[
            0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0
        ]));
        assert!(is_state_changing(&[0x9e, 0x1c]));
        assert!(is_state_changing(&[0x9f, 0x11]));
        assert!(is_state_changing(&[0x04, 0x18, 0, 0, 0, 0]));
        assert!(is_state_changing(&[0x48, 0x83, 0, 0, 0, 0, 0, 0, 0, 0]));
        assert!(is_state_changing(&[0x55, 0x11]));
        assert!(is_state_changing(&[0x4c, 0x02]));
        assert!(is_state_changing(&[0x2a, 0]));
        assert!(is_state_changing(&[]));
    }
}
