//! sgctl-sim: the virtual drive. [`sim`] is an in-process SAS (and SATA behind a SAT layer)
//! drive that answers CDBs like a real one (the `sim:` device addresses); [`tcmu`] serves it
//! as a real SCSI disk through the kernel's TCMU userspace backstore.
//!
//! It depends only on the pure layers and the transport (`sgctl-proto`) and implements
//! [`Transport`](sgctl_proto::Transport); the sgctl library enables it through its default `sim` feature, and only the
//! device factory (`sgctl::device`), the benchmark's sim engine and the `sgctl sim ...`
//! commands name it. See DESIGN.md at the repository root.

// The modules keep the paths they had inside the sgctl library (`crate::scsi::...`).
pub(crate) use sgctl_proto::Result;
pub(crate) use sgctl_proto::{ata, bytes, cmd, error, files, scsi, sense, tcg, transport};

pub mod sim;
pub mod tcmu;

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
