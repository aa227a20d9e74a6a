//! sgctl: manage, health-check, format and sanitize SAS/SCSI drives on Linux.
//!
//! Layers (see DESIGN.md at the repository root): [`transport`] executes CDBs (SG_IO, bsg, the
//! [`sim`] virtual drive); [`scsi`], [`sense`] build CDBs and parse responses without I/O;
//! `ops` runs the high-level jobs; `cli` is the command line. The references the comments cite
//! as `protocols.md §X` are in `docs/protocols.md`.

pub mod bench;
pub mod cli;
pub mod device;
pub mod discover;
pub mod host;
pub mod ops;
pub mod report;
pub mod sim;
pub mod tcmu;

// The pure layers and the transport live in the sgctl-proto crate (proto/); they keep their
// paths here, so `crate::scsi::...` and `sgctl::scsi::...` name the same items.
pub use sgctl_proto::{ata, bytes, error, exit, logpage, scsi, sense, tcg, transport};
pub use sgctl_proto::{Completion, DataBuf, Error, Result, Transport};

#[cfg(test)]
mod tests {
    /// Normalized for comparing spellings: letters and digits, upper case.
    fn norm(s: &str) -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .collect()
    }

    /// Every command the virtual drive answers is in the table, with the same length and a
    /// name that starts with the table's (the drive's dispatch adds the service action's name
    /// for PERSISTENT RESERVE IN/OUT, and may leave out the CDB length).
    #[test]
    fn the_virtual_drive_answers_only_known_commands() {
        for c in crate::sim::cmd::COMMANDS {
            let o = crate::scsi::opcodes::find(c.opcode, c.sa.map(u16::from))
                .unwrap_or_else(|| panic!("{} (0x{:02x}) not in the table", c.name, c.opcode));
            assert_eq!(usize::from(o.cdb_len), c.len, "{}", c.name);
            // The CDB length in the name may be left out (checked above).
            let bare = o.name.rsplit_once('(').map_or(o.name, |(b, _)| b);
            assert!(
                norm(c.name).starts_with(&norm(bare)),
                "sim {:?} vs table {:?}",
                c.name,
                o.name
            );
        }
    }
}
