//! sgctl: manage, health-check, format and sanitize SAS/SCSI drives on Linux.
//!
//! Layers (see DESIGN.md at the repository root): [`transport`] executes CDBs (SG_IO, bsg, the
//! [`sim`] virtual drive); [`scsi`], [`sense`] build CDBs and parse responses without I/O;
//! `ops` runs the high-level jobs; `cli` is the command line. The references the comments cite
//! as `protocols.md §X` are in `docs/protocols.md`.

pub mod ata;
pub mod bench;
pub mod bytes;
pub mod cli;
pub mod device;
pub mod discover;
pub mod error;
pub mod exit;
pub mod host;
pub mod logpage;
pub mod ops;
pub mod report;
pub mod scsi;
pub mod sense;
pub mod sim;
pub mod tcg;
pub mod tcmu;
pub mod transport;

pub use error::{Error, Result};
pub use transport::{Completion, DataBuf, Transport};
