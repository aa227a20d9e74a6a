//! Layouts restated from `include/uapi/linux/target_core_user.h`: byte offsets of the mailbox,
//! entry header, command and TMR entries, and the flag values the ring uses.

// --- struct tcmu_mailbox (packed; cmd_tail aligned to ALIGN_SIZE = 64) ---
/// `__u16 version` at offset 0.
pub const MB_VERSION: usize = 0;
/// `__u16 flags` at offset 2.
pub(crate) const MB_FLAGS: usize = 2;
/// `__u32 cmdr_off` at offset 4.
pub(crate) const MB_CMDR_OFF: usize = 4;
/// `__u32 cmdr_size` at offset 8.
pub(crate) const MB_CMDR_SIZE: usize = 8;
/// `__u32 cmd_head` at offset 12 (written by the kernel).
pub const MB_CMD_HEAD: usize = 12;
/// `__u32 cmd_tail __attribute__((__aligned__(ALIGN_SIZE)))` at offset 64 (written by us).
pub const MB_CMD_TAIL: usize = 64;
/// `TCMU_MAILBOX_VERSION`: the only layout this code knows.
pub(crate) const MAILBOX_VERSION: u16 = 2;
/// `TCMU_MAILBOX_FLAG_CAP_OOOC`: out-of-order completions allowed.
pub const FLAG_CAP_OOOC: u16 = 1 << 0;
/// `TCMU_MAILBOX_FLAG_CAP_READ_LEN`: the kernel honours `rsp.read_len`.
pub(crate) const FLAG_CAP_READ_LEN: u16 = 1 << 1;
/// `TCMU_MAILBOX_FLAG_CAP_TMR`: TMR notifications can be queued.
pub const FLAG_CAP_TMR: u16 = 1 << 2;

// --- struct tcmu_cmd_entry_hdr (8 bytes, packed) ---
/// `__u32 len_op`: entry length (multiple of 8) with the opcode in the low 3 bits.
pub(crate) const HDR_LEN_OP: usize = 0;
/// `__u16 cmd_id`.
pub(crate) const HDR_CMD_ID: usize = 4;
/// `__u8 kflags`.
pub const HDR_KFLAGS: usize = 6;
/// `__u8 uflags`.
pub(crate) const HDR_UFLAGS: usize = 7;
/// Size of the entry header.
pub(crate) const HDR_SIZE: usize = 8;
/// `TCMU_OP_MASK`.
pub(crate) const OP_MASK: u32 = 0x7;
/// `TCMU_OP_PAD`: skip `len` bytes.
pub(crate) const OP_PAD: u32 = 0;
/// `TCMU_OP_CMD`: a SCSI command.
pub(crate) const OP_CMD: u32 = 1;
/// `TCMU_OP_TMR`: a task management notification (no answer expected).
pub(crate) const OP_TMR: u32 = 2;
/// `TCMU_UFLAG_UNKNOWN_OP`.
pub(crate) const UFLAG_UNKNOWN_OP: u8 = 0x1;
/// `TCMU_UFLAG_READ_LEN`: `rsp.read_len` is valid.
pub(crate) const UFLAG_READ_LEN: u8 = 0x2;

// --- struct tcmu_cmd_entry, union member req (after the header) ---
// The outer struct is packed, but the anonymous `req` struct inside the union is not: it keeps
// its natural 8-byte alignment, so there are 4 bytes of padding before `cdb_off` and the iovec
// array starts at 8 + 40 (checked against the bindgen layout of the header in the tests; gcc
// agrees: offsetof(struct tcmu_cmd_entry, req.cdb_off) == 24, req.iov == 48).
/// `__u32 iov_cnt` at 8.
pub(crate) const REQ_IOV_CNT: usize = 8;
/// `__u32 iov_bidi_cnt` at 12.
pub(crate) const REQ_IOV_BIDI_CNT: usize = 12;
/// `__u32 iov_dif_cnt` at 16.
pub(crate) const REQ_IOV_DIF_CNT: usize = 16;
/// `__u64 cdb_off` at 24 (after 4 bytes of alignment padding): offset of the CDB from the start
/// of the mapping.
pub(crate) const REQ_CDB_OFF: usize = 24;
/// `struct iovec iov[]` at 48 (after two `__u64` pads); `iov_base` is an offset into the
/// mapping, not a pointer.
pub(crate) const REQ_IOV: usize = 48;
/// `sizeof(struct iovec)` on 64-bit.
pub(crate) const IOVEC_SIZE: usize = 16;

// --- union member rsp (overlays req: read the request before answering) ---
/// `__u8 scsi_status` at 8.
pub(crate) const RSP_SCSI_STATUS: usize = 8;
/// `__u32 read_len` at 12.
pub(crate) const RSP_READ_LEN: usize = 12;
/// `char sense_buffer[TCMU_SENSE_BUFFERSIZE]` at 16.
pub(crate) const RSP_SENSE: usize = 16;
/// `TCMU_SENSE_BUFFERSIZE` (= SCSI_SENSE_BUFFERSIZE).
pub(crate) const SENSE_BUFFERSIZE: usize = 96;
/// `sizeof(struct tcmu_cmd_entry)`: the response needs this much room.
pub(crate) const CMD_ENTRY_SIZE: usize = RSP_SENSE + SENSE_BUFFERSIZE;

// --- struct tcmu_tmr_entry ---
/// `__u8 tmr_type` at 8.
pub(crate) const TMR_TYPE: usize = 8;
/// `__u32 cmd_cnt` at 12.
pub(crate) const TMR_CMD_CNT: usize = 12;
/// `__u16 cmd_ids[]` at 32.
pub(crate) const TMR_CMD_IDS: usize = 32;
/// `TCMU_TMR_ABORT_TASK`.
pub const TMR_ABORT_TASK: u8 = 1;
/// `TCMU_TMR_LUN_RESET`.
pub const TMR_LUN_RESET: u8 = 5;

/// Bytes of data one command may move through us (the kernel's data area is smaller).
pub(crate) const MAX_DATA: usize = 1 << 30;
