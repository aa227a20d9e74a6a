//! sgctl-proto: the layers of sgctl that the product library and the virtual drive
//! (`sgctl-sim`) share. [`transport`] executes CDBs (SG_IO, bsg; the virtual drive implements
//! the same trait in its own crate); [`scsi`], [`sense`], [`logpage`], [`tcg`] and [`ata`] build
//! CDBs and parse responses without I/O; [`error`] and [`exit`] are the one error type and the
//! exit-code table. The `sgctl` library re-exports every module under the same name, so
//! `sgctl::scsi::...` is this crate's `sgctl_proto::scsi::...`. See DESIGN.md at the repository
//! root for the layers and the dependency direction.

pub mod ata;
pub mod bytes;
pub mod cmd;
pub mod error;
pub mod exit;
pub mod files;
pub mod logpage;
pub mod scsi;
pub mod sense;
pub mod ses;
pub mod tcg;
pub mod transport;

pub use error::{Error, Result};
pub use transport::{Completion, DataBuf, Transport};
