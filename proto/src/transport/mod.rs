//! The one seam every backend implements: execute a CDB, get a [`Completion`].
//!
//! Backends: SG_IO v3 on `/dev/sgN` and `/dev/sdX` ([`sgio`]), sg_io_v4 on `/dev/bsg/H:C:T:L`
//! ([`bsg`]), and the in-process virtual drive (`sgctl_sim::sim`, in its own crate). Many
//! commands in flight at once on an sg node: [`queue`] (the benchmark's `sg` engine). Every backend returns the same
//! completion so status/sense interpretation and retry policy are written once ([`check`]).

pub mod bsg;
pub mod queue;
pub mod sgio;
pub mod trace;

use crate::error::{Error, Result};
use crate::sense::Sense;
use serde::Serialize;
use std::time::Duration;

/// Data phase of a command and its buffer.
#[derive(Debug)]
pub enum DataBuf<'a> {
    /// No data phase (SG_DXFER_NONE).
    None,
    /// Data from the device into this buffer (SG_DXFER_FROM_DEV).
    In(&'a mut [u8]),
    /// Data from this buffer to the device (SG_DXFER_TO_DEV).
    Out(&'a [u8]),
}

impl DataBuf<'_> {
    /// Length of the data phase.
    pub fn len(&self) -> usize {
        match self {
            DataBuf::None => 0,
            DataBuf::In(b) => b.len(),
            DataBuf::Out(b) => b.len(),
        }
    }

    /// True when there is no data phase.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Direction as a word, for `-v` traces.
    pub fn direction(&self) -> &'static str {
        match self {
            DataBuf::None => "none",
            DataBuf::In(_) => "in",
            DataBuf::Out(_) => "out",
        }
    }
}

/// SAM-5 status byte values (K-proto `scsi_proto.h`).
pub mod status {
    /// GOOD
    pub const GOOD: u8 = 0x00;
    /// CHECK CONDITION
    pub const CHECK_CONDITION: u8 = 0x02;
    /// CONDITION MET
    pub const CONDITION_MET: u8 = 0x04;
    /// BUSY
    pub const BUSY: u8 = 0x08;
    /// RESERVATION CONFLICT
    pub const RESERVATION_CONFLICT: u8 = 0x18;
    /// COMMAND TERMINATED (obsolete)
    pub(crate) const COMMAND_TERMINATED: u8 = 0x22;
    /// TASK SET FULL
    pub const TASK_SET_FULL: u8 = 0x28;
    /// ACA ACTIVE
    pub const ACA_ACTIVE: u8 = 0x30;
    /// TASK ABORTED
    pub const TASK_ABORTED: u8 = 0x40;
}

/// What came back from one command, whatever the backend.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Completion {
    /// SAM status byte.
    pub status: u8,
    /// Sense bytes actually written (may be empty).
    pub sense: Vec<u8>,
    /// Data-in residual: requested minus transferred (0 when unknown).
    pub resid: usize,
    /// How long the command took.
    #[serde(skip)]
    pub duration: Duration,
    /// Host byte (DID_*), 0 when OK.
    pub host_status: u16,
    /// Driver byte (DRIVER_*), 0 or 8 (DRIVER_SENSE) on current kernels.
    pub driver_status: u16,
}

impl Completion {
    /// A GOOD completion with the whole buffer transferred.
    pub fn good() -> Completion {
        Completion::default()
    }

    /// CHECK CONDITION with these sense bytes.
    pub fn check_condition(sense: Vec<u8>) -> Completion {
        Completion {
            status: status::CHECK_CONDITION,
            sense,
            ..Completion::default()
        }
    }

    /// Bytes actually transferred for a data-in command of `requested` bytes.
    pub fn transferred(&self, requested: usize) -> usize {
        requested.saturating_sub(self.resid)
    }
}

/// Executes SCSI commands. Implemented by SG_IO, bsg, the simulator and replay backends.
pub trait Transport: Send {
    /// Sends `cdb` with `data` and waits up to `timeout`. An `Err` means the command may not have
    /// reached the device (open/ioctl failure); any device answer, including CHECK CONDITION or
    /// a host error, is an `Ok(Completion)` for [`check`] to interpret.
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion>;

    /// The device address this transport talks to (`/dev/sg1`, `sim:px02smf080`, ...).
    fn address(&self) -> String;
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, timeout: Duration) -> Result<Completion> {
        (**self).execute(cdb, data, timeout)
    }
    fn address(&self) -> String {
        (**self).address()
    }
}

/// The host byte's decoding lives beside the error that carries it ([`crate::error`] does not
/// depend on this module).
pub(crate) use crate::error::HostStatus;

/// Turns a completion into success or a typed error, in the order sg3_utils uses
/// (docs/protocols.md §A.5): host byte, legacy driver byte, CHECK CONDITION, other status.
/// RECOVERED ERROR and NO SENSE with GOOD-equivalent meaning are treated as success.
pub fn check(c: &Completion) -> Result<()> {
    if c.host_status != 0 {
        let hs = HostStatus::from_u16(c.host_status);
        return Err(if hs == HostStatus::TimeOut {
            Error::Timeout
        } else {
            Error::Host { status: hs }
        });
    }
    // Legacy driver byte: 0 OK, 8 DRIVER_SENSE; 6 DRIVER_TIMEOUT; others are errors.
    match c.driver_status & 0x0f {
        0 | 8 => {}
        6 => return Err(Error::Timeout),
        d => return Err(Error::Driver { status: d }),
    }
    match c.status {
        status::GOOD | status::CONDITION_MET => Ok(()),
        status::CHECK_CONDITION | status::COMMAND_TERMINATED => {
            let sense = Sense::parse(&c.sense).map_err(|e| Error::BadSense {
                reason: e.to_string(),
            })?;
            match sense.key {
                crate::sense::SenseKey::RecoveredError | crate::sense::SenseKey::Completed => {
                    Ok(())
                }
                crate::sense::SenseKey::NoSense if sense.asc == 0 && sense.ascq == 0 => Ok(()),
                _ => Err(Error::Sense(Box::new(sense))),
            }
        }
        s => Err(Error::Status { status: s }),
    }
}

/// Default timeout for quick commands.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
