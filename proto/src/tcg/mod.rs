//! TCG Storage over SECURITY PROTOCOL IN/OUT (protocols.md §F): Level 0 discovery, ComID
//! management, ComPacket framing, the token stream, method calls, sessions, and the
//! Enterprise SSC / Opal operations built on them.
//!
//! The protocol core ([`token`], [`packet`], [`level0`], [`method`], [`comid`], [`uid`],
//! [`status`]) is pure: bytes in, typed values out, no I/O. [`session`] drives a
//! [`crate::Transport`]; [`enterprise`] and [`opal`] are the operations admins run.

pub mod comid;
pub mod enterprise;
pub mod level0;
pub mod method;
pub mod opal;
pub mod packet;
pub(crate) mod pin;
pub mod session;
pub mod status;
pub mod token;
pub mod uid;

pub use pin::Pin;
pub use status::MethodStatus;

use crate::bytes::ParseError;
use thiserror::Error;

/// What can go wrong in a TCG exchange. Never carries a PIN.
#[derive(Debug, Error)]
pub enum TcgError {
    /// The drive does not speak TCG (no protocol 0x01, or an empty Level 0).
    #[error("not a TCG drive: {0}")]
    NotTcg(String),
    /// A method returned a non-SUCCESS status.
    #[error("TCG method failed: {0}")]
    Method(MethodStatus),
    /// Authenticate returned FALSE (wrong PIN).
    #[error("authentication failed: wrong PIN for {0}")]
    AuthFailed(String),
    /// The TPer closed the session (EndOfSession or CloseSession from the TPer).
    #[error("the TPer closed the session")]
    SessionClosed,
    /// A token stream could not be decoded.
    #[error("bad token stream: {0}")]
    Token(String),
    /// A ComPacket could not be decoded.
    #[error("bad ComPacket: {0}")]
    Framing(String),
    /// The TPer kept answering "not ready".
    #[error("no response from the TPer after {0} polls")]
    NoResponse(u32),
    /// A structure could not be parsed.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// The operation does not apply to this drive.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// A band number the drive's Locking table does not have (checked before a session
    /// authenticates, so it costs no PIN try).
    #[error("band {band} does not exist: the drive's Locking table has bands 0..{max} (LockingInfo MaxRanges {max})")]
    NoSuchBand {
        /// The band asked for.
        band: u16,
        /// The highest band (MaxRanges).
        max: u16,
    },
    /// The SCSI layer failed.
    #[error("{0}")]
    Scsi(#[from] crate::Error),
}

impl TcgError {
    /// The method status, if this is a method failure.
    pub fn method_status(&self) -> Option<MethodStatus> {
        match self {
            TcgError::Method(s) => Some(*s),
            _ => None,
        }
    }
}

impl From<TcgError> for crate::Error {
    fn from(e: TcgError) -> crate::Error {
        match e {
            TcgError::Scsi(e) => e,
            TcgError::Parse(p) => crate::Error::Parse(p),
            TcgError::NotTcg(_) | TcgError::Unsupported(_) => {
                crate::Error::Unsupported(e.to_string())
            }
            TcgError::NoSuchBand { .. } => crate::Error::InvalidArgument(e.to_string()),
            other => crate::Error::CheckFailed(other.to_string()),
        }
    }
}
