//! The one shape of a CDB builder, after tokio-rs/io-uring's `opcode!` (`src/opcode.rs`): a
//! struct per command, the fields the command cannot do without in `new(...)`, every other
//! field a named setter with a stated default, the operation code as an associated constant
//! (`OPCODE`, and `SERVICE_ACTION` where the command has one), and `build()` returning the
//! fixed-size CDB (a `Result` only where a field's range is narrower than its Rust type).
//!
//! ```
//! use sgctl_proto::scsi::inquiry::InquiryCdb;
//! // INQUIRY for the Device Identification VPD page, 96 bytes (SPC-6 6.7.1).
//! let cdb = InquiryCdb::new(96).evpd(true).page_code(0x83).build();
//! assert_eq!(cdb, [0x12, 0x01, 0x83, 0x00, 0x60, 0x00]);
//! assert_eq!(InquiryCdb::OPCODE, 0x12);
//! ```
//!
//! The structs are `#[non_exhaustive]`: outside this crate they are made only through `new`
//! and the setters, while their fields stay readable (a decoded CDB is the same struct).
//! The bytes each builder writes are checked against the standard's table in `tests.rs`.

#[cfg(test)]
mod tests;

/// Declares a CDB builder struct: `required` fields become the arguments of `new`, the fields
/// after `;;` get their default in `new` and a setter of the same name. The caller writes
/// the `impl` with `OPCODE` and `build()` next to it, so the bytes stay readable in one place.
macro_rules! cdb_builder {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$rmeta:meta])* $rfield:ident : $rty:ty ),* $(,)?
            ;;
            $( $(#[$ometa:meta])* $ofield:ident : $oty:ty = $odef:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[non_exhaustive]
        $vis struct $name {
            $( $(#[$rmeta])* $vis $rfield: $rty, )*
            $( $(#[$ometa])* $vis $ofield: $oty, )*
        }

        impl $name {
            /// The command with its required fields; every other field at its default.
            #[allow(clippy::new_without_default)]
            #[must_use]
            $vis fn new($( $rfield: $rty ),*) -> Self {
                $name {
                    $( $rfield, )*
                    $( $ofield: $odef, )*
                }
            }

            $(
                $(#[$ometa])*
                #[doc = ""]
                #[doc = concat!("Default: `", stringify!($odef), "`.")]
                #[must_use]
                #[allow(dead_code)] // a crate-private builder need not use every setter
                $vis fn $ofield(mut self, $ofield: $oty) -> Self {
                    self.$ofield = $ofield;
                    self
                }
            )*
        }
    };
}

pub(crate) use cdb_builder;
