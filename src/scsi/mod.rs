//! SCSI commands: one command per file, each a pure CDB builder plus response parser.
