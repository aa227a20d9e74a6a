//! sgctl: manage, health-check, format and sanitize SAS/SCSI drives on Linux.
//!
//! Layers (see DESIGN.md at the repository root): [`transport`] executes CDBs (SG_IO, bsg, the
//! `sim` virtual drive); [`scsi`], [`sense`] build CDBs and parse responses without I/O;
//! [`decode`] renders decoded pages as text; [`ops`] runs the high-level jobs. The command line
//! is the `sgctl` binary's (src/cli, private to it): the API is what the binary, examples/, the
//! integration tests and the fuzz targets use. The references the comments cite as
//! `protocols.md §X` are in `docs/protocols.md`.

pub mod bench;
pub(crate) mod clock;
pub mod decode;
pub mod device;
pub mod discover;
pub mod escape;
pub mod host;
pub mod ops;
pub mod report;
#[doc(hidden)]
pub mod testing;

// The pure layers and the transport live in the sgctl-proto crate (proto/); they keep their
// paths here, so `crate::scsi::...` and `sgctl::scsi::...` name the same items.
pub use sgctl_proto::{
    ata, bytes, cmd, error, exit, files, logpage, probe, scsi, sense, ses, tcg, transport,
};
pub use sgctl_proto::{Completion, DataBuf, Error, Result, Transport};

// The virtual drive and its TCMU server live in the sgctl-sim crate (sim/), enabled by the
// default `sim` feature; without it the library has no virtual drive and a `sim:` address is
// refused by the device factory.
#[cfg(feature = "sim")]
pub use sgctl_sim::{sim, tcmu};
