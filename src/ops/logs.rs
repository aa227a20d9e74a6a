//! LOG SELECT reset (SPC-5 6.5) behind the safety gate: the CDB is built by
//! [`crate::scsi::log_select`]; sending it changes the drive's counters, so it takes the gate's
//! token.

use crate::cmd::run_none;
use crate::error::Result;
use crate::ops::gate::Cleared;
use crate::scsi::log_select::LogSelectCdb;
use crate::transport::{Transport, DEFAULT_TIMEOUT};

/// Sends a LOG SELECT without parameter data (a reset). It changes the drive's counters, so it
/// takes the safety gate's token (`_gate`): the gate has checked the confirmation.
pub fn send_reset(t: &mut dyn Transport, _gate: &Cleared, cmd: &LogSelectCdb) -> Result<()> {
    run_none(t, &cmd.build(), DEFAULT_TIMEOUT)
}
