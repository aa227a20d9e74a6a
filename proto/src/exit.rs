//! Process exit codes. Documented in `sgctl --help` and the README; scripts branch on them.
//! (`sgctl health` uses its own bit mask, documented with that command.)

/// Success.
pub const OK: u8 = 0;
/// Any error not listed below (I/O on records or state files, internal error).
pub const OTHER: u8 = 1;
/// The command line could not be parsed or an argument is invalid.
pub const USAGE: u8 = 2;
/// The device could not be opened: no such path, not a SCSI device, permission denied,
/// bad `sim:` address.
pub const OPEN: u8 = 3;
/// The device was reached but the command failed: CHECK CONDITION (sense printed), transport
/// or host error, timeout, BUSY/RESERVATION CONFLICT, or a response we could not decode.
pub const COMMAND: u8 = 4;
/// A check failed: verification mismatch, size substitution, health threshold breached.
pub const CHECK_FAILED: u8 = 5;
/// Refused by the safety gate: device in use, mounted, boot disk, confirmation missing or wrong.
pub const REFUSED: u8 = 6;
/// The device does not support the requested operation (invalid opcode, no such page/method).
pub const UNSUPPORTED: u8 = 7;
/// A multi-drive job in which some drives succeeded and some failed.
pub const PARTIAL: u8 = 8;
/// A response was decoded as far as its bytes go but is inconsistent (a length that overruns,
/// a page cut short, a malformed descriptor): what could be decoded is printed, with the
/// problems listed (`problems` in JSON).
pub const DECODE_PROBLEMS: u8 = 9;

/// The table printed in `--help` and the README.
pub const TABLE: &str = "\
EXIT STATUS:
  0  success
  1  other error (I/O on records or state files, internal error)
  2  usage error: bad command line or argument
  3  device could not be opened (no such path, not a SCSI device, permission, bad sim: address)
  4  command failed: CHECK CONDITION, transport/host error, timeout, undecodable response
  5  check failed: verification mismatch, size substitution, threshold breached
  6  refused by a safety check: in use, mounted, boot disk, confirmation missing or wrong
  7  not supported by the device (invalid opcode, page or method)
  8  partial failure: some drives of a multi-drive job failed
  9  decoded with problems: the response is inconsistent (lengths overrun, page cut short);
     what could be decoded is shown, with the problems listed
  (sgctl health returns a bit mask instead; see `sgctl health --help`)";
