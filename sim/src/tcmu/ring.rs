//! The TCMU command ring: layouts restated from the kernel's UAPI header
//! `include/uapi/linux/target_core_user.h` (Linux 6.1, TCMU_VERSION "2.0"; Debian's
//! linux-libc-dev ships the same file as /usr/include/linux/target_core_user.h) and the loop
//! that answers every entry from a [`Transport`].
//!
//! The shared area (`/dev/uioN` map 0) holds the mailbox at offset 0, the command ring at
//! `cmdr_off` (`cmdr_size` bytes), then the data area. The kernel appends entries and moves
//! `cmd_head`; we answer each entry in place and move `cmd_tail` (modulo `cmdr_size`). All
//! structures are `__attribute__((packed))`, so fields are read byte-wise here, never through
//! Rust references to the mapping. The memory is reached only through [`RingMem`], which the
//! mmap in [`super::uio`] and a plain `Vec<u8>` in tests implement.

use crate::error::Error;
use crate::sense::{build_fixed, SenseKey};
use crate::transport::{status, Completion, DataBuf, Transport};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

// --- struct tcmu_mailbox (packed; cmd_tail aligned to ALIGN_SIZE = 64) ---
/// `__u16 version` at offset 0.
pub const MB_VERSION: usize = 0;
/// `__u16 flags` at offset 2.
pub const MB_FLAGS: usize = 2;
/// `__u32 cmdr_off` at offset 4.
pub const MB_CMDR_OFF: usize = 4;
/// `__u32 cmdr_size` at offset 8.
pub const MB_CMDR_SIZE: usize = 8;
/// `__u32 cmd_head` at offset 12 (written by the kernel).
pub const MB_CMD_HEAD: usize = 12;
/// `__u32 cmd_tail __attribute__((__aligned__(ALIGN_SIZE)))` at offset 64 (written by us).
pub const MB_CMD_TAIL: usize = 64;
/// `TCMU_MAILBOX_VERSION`: the only layout this code knows.
pub const MAILBOX_VERSION: u16 = 2;
/// `TCMU_MAILBOX_FLAG_CAP_OOOC`: out-of-order completions allowed.
pub const FLAG_CAP_OOOC: u16 = 1 << 0;
/// `TCMU_MAILBOX_FLAG_CAP_READ_LEN`: the kernel honours `rsp.read_len`.
pub const FLAG_CAP_READ_LEN: u16 = 1 << 1;
/// `TCMU_MAILBOX_FLAG_CAP_TMR`: TMR notifications can be queued.
pub const FLAG_CAP_TMR: u16 = 1 << 2;

// --- struct tcmu_cmd_entry_hdr (8 bytes, packed) ---
/// `__u32 len_op`: entry length (multiple of 8) with the opcode in the low 3 bits.
pub const HDR_LEN_OP: usize = 0;
/// `__u16 cmd_id`.
pub const HDR_CMD_ID: usize = 4;
/// `__u8 kflags`.
pub const HDR_KFLAGS: usize = 6;
/// `__u8 uflags`.
pub const HDR_UFLAGS: usize = 7;
/// Size of the entry header.
pub const HDR_SIZE: usize = 8;
/// `TCMU_OP_MASK`.
pub const OP_MASK: u32 = 0x7;
/// `TCMU_OP_PAD`: skip `len` bytes.
pub const OP_PAD: u32 = 0;
/// `TCMU_OP_CMD`: a SCSI command.
pub const OP_CMD: u32 = 1;
/// `TCMU_OP_TMR`: a task management notification (no answer expected).
pub const OP_TMR: u32 = 2;
/// `TCMU_UFLAG_UNKNOWN_OP`.
pub const UFLAG_UNKNOWN_OP: u8 = 0x1;
/// `TCMU_UFLAG_READ_LEN`: `rsp.read_len` is valid.
pub const UFLAG_READ_LEN: u8 = 0x2;

// --- struct tcmu_cmd_entry, union member req (after the header) ---
// The outer struct is packed, but the anonymous `req` struct inside the union is not: it keeps
// its natural 8-byte alignment, so there are 4 bytes of padding before `cdb_off` and the iovec
// array starts at 8 + 40 (checked against the bindgen layout of the header in the tests; gcc
// agrees: offsetof(struct tcmu_cmd_entry, req.cdb_off) == 24, req.iov == 48).
/// `__u32 iov_cnt` at 8.
pub const REQ_IOV_CNT: usize = 8;
/// `__u32 iov_bidi_cnt` at 12.
pub const REQ_IOV_BIDI_CNT: usize = 12;
/// `__u32 iov_dif_cnt` at 16.
pub const REQ_IOV_DIF_CNT: usize = 16;
/// `__u64 cdb_off` at 24 (after 4 bytes of alignment padding): offset of the CDB from the start
/// of the mapping.
pub const REQ_CDB_OFF: usize = 24;
/// `struct iovec iov[]` at 48 (after two `__u64` pads); `iov_base` is an offset into the
/// mapping, not a pointer.
pub const REQ_IOV: usize = 48;
/// `sizeof(struct iovec)` on 64-bit.
pub const IOVEC_SIZE: usize = 16;

// --- union member rsp (overlays req: read the request before answering) ---
/// `__u8 scsi_status` at 8.
pub const RSP_SCSI_STATUS: usize = 8;
/// `__u32 read_len` at 12.
pub const RSP_READ_LEN: usize = 12;
/// `char sense_buffer[TCMU_SENSE_BUFFERSIZE]` at 16.
pub const RSP_SENSE: usize = 16;
/// `TCMU_SENSE_BUFFERSIZE` (= SCSI_SENSE_BUFFERSIZE).
pub const SENSE_BUFFERSIZE: usize = 96;
/// `sizeof(struct tcmu_cmd_entry)`: the response needs this much room.
pub const CMD_ENTRY_SIZE: usize = RSP_SENSE + SENSE_BUFFERSIZE;

// --- struct tcmu_tmr_entry ---
/// `__u8 tmr_type` at 8.
pub const TMR_TYPE: usize = 8;
/// `__u32 cmd_cnt` at 12.
pub const TMR_CMD_CNT: usize = 12;
/// `__u16 cmd_ids[]` at 32.
pub const TMR_CMD_IDS: usize = 32;
/// `TCMU_TMR_ABORT_TASK`.
pub const TMR_ABORT_TASK: u8 = 1;
/// `TCMU_TMR_LUN_RESET`.
pub const TMR_LUN_RESET: u8 = 5;

/// Bytes of data one command may move through us (the kernel's data area is smaller).
pub const MAX_DATA: usize = 1 << 30;

/// The shared memory of one TCMU device. Offsets are from the start of the mapping; every
/// access is bounds-checked by the implementation.
pub trait RingMem {
    /// Size of the mapping.
    fn len(&self) -> usize;
    /// True for an empty mapping.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Copies `buf.len()` bytes from `off`; false if out of bounds.
    fn read(&self, off: usize, buf: &mut [u8]) -> bool;
    /// Copies `buf` to `off`; false if out of bounds.
    fn write(&mut self, off: usize, buf: &[u8]) -> bool;
    /// Reads `cmd_head` with acquire ordering (entries up to it are visible afterwards).
    fn load_head(&self) -> u32;
    /// Reads `cmd_tail`.
    fn load_tail(&self) -> u32;
    /// Publishes `cmd_tail` with release ordering (answers written before are visible).
    fn store_tail(&mut self, v: u32);
    /// The `len` bytes at `off` in place, if the implementation can lend them (bounds checked;
    /// `None` otherwise): a command's data buffer is then handed to the model without a copy.
    fn slice(&self, _off: usize, _len: usize) -> Option<&[u8]> {
        None
    }
    /// [`slice`](Self::slice), writable.
    fn slice_mut(&mut self, _off: usize, _len: usize) -> Option<&mut [u8]> {
        None
    }
}

/// What the ring loop could not survive. A bad *command* is answered with CHECK CONDITION and
/// is not an error; these mean the ring itself cannot be trusted any more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RingError {
    /// The mailbox is not version 2, or its ring does not fit the mapping.
    BadMailbox(String),
    /// `cmd_head`/`cmd_tail` or an entry length points outside the ring.
    Corrupt(String),
}

impl std::fmt::Display for RingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RingError::BadMailbox(s) => write!(f, "TCMU mailbox: {s}"),
            RingError::Corrupt(s) => write!(f, "TCMU command ring corrupt: {s}"),
        }
    }
}

impl From<RingError> for Error {
    fn from(e: RingError) -> Error {
        Error::Unsupported(e.to_string())
    }
}

fn rd<const N: usize>(m: &dyn RingMem, off: usize) -> Option<[u8; N]> {
    let mut b = [0u8; N];
    m.read(off, &mut b).then_some(b)
}
fn rd_u16(m: &dyn RingMem, off: usize) -> Option<u16> {
    rd::<2>(m, off).map(u16::from_ne_bytes)
}
fn rd_u32(m: &dyn RingMem, off: usize) -> Option<u32> {
    rd::<4>(m, off).map(u32::from_ne_bytes)
}
fn rd_u64(m: &dyn RingMem, off: usize) -> Option<u64> {
    rd::<8>(m, off).map(u64::from_ne_bytes)
}

/// The fixed part of the mailbox, checked against the mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mailbox {
    /// `flags` (TCMU_MAILBOX_FLAG_CAP_*).
    pub flags: u16,
    /// Offset of the command ring.
    pub cmdr_off: usize,
    /// Size of the command ring.
    pub cmdr_size: usize,
}

impl Mailbox {
    /// Reads and validates the mailbox (version 2, ring inside the mapping, after the mailbox).
    pub fn read(m: &dyn RingMem) -> Result<Mailbox, RingError> {
        let bad = |s: String| RingError::BadMailbox(s);
        let version =
            rd_u16(m, MB_VERSION).ok_or_else(|| bad(format!("mapping of {} bytes", m.len())))?;
        if version != MAILBOX_VERSION {
            return Err(bad(format!(
                "version {version}, this program speaks version {MAILBOX_VERSION}"
            )));
        }
        let flags = rd_u16(m, MB_FLAGS).unwrap_or(0);
        let off = rd_u32(m, MB_CMDR_OFF).unwrap_or(0) as usize;
        let size = rd_u32(m, MB_CMDR_SIZE).unwrap_or(0) as usize;
        if off < MB_CMD_TAIL + 4 || size < CMD_ENTRY_SIZE || off.saturating_add(size) > m.len() {
            return Err(bad(format!(
                "ring at {off} of {size} bytes does not fit a {}-byte mapping",
                m.len()
            )));
        }
        Ok(Mailbox {
            flags,
            cmdr_off: off,
            cmdr_size: size,
        })
    }
}

/// SCSI data-out commands: the data-direction column of the one opcode table
/// ([`crate::scsi::opcodes`]). A TCMU entry does not say which way the data goes, so the
/// handler must know, as tcmu-runner's handlers do. Every other command with a data buffer is
/// data-in.
pub fn is_data_out(cdb: &[u8]) -> bool {
    crate::scsi::opcodes::is_data_out(cdb)
}

/// CDB length from the opcode group (SPC-5 4.2.5.1), as the kernel's `scsi_command_size`
/// ([`crate::scsi::opcodes::cdb_len`]).
pub fn cdb_len(op: u8, byte7: Option<u8>) -> usize {
    crate::scsi::opcodes::cdb_len(op, byte7)
}

/// A task management notification (the kernel expects no answer; we log it and may reset).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tmr {
    /// `TCMU_TMR_*`.
    pub tmr_type: u8,
    /// Commands the TMR aborts (already answered by us, since we complete in order).
    pub cmd_ids: Vec<u16>,
}

impl Tmr {
    /// Name of the TMR type.
    pub fn name(&self) -> &'static str {
        match self.tmr_type {
            1 => "ABORT TASK",
            2 => "ABORT TASK SET",
            3 => "CLEAR ACA",
            4 => "CLEAR TASK SET",
            5 => "LOGICAL UNIT RESET",
            6 => "TARGET WARM RESET",
            7 => "TARGET COLD RESET",
            128 => "LOGICAL UNIT RESET (PR OUT)",
            _ => "unknown TMR",
        }
    }
}

/// Called for each TMR notification.
pub type TmrHandler = Box<dyn FnMut(&Tmr) + Send>;

/// Counters for one ring.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// SCSI commands answered.
    pub commands: u64,
    /// Of those, answered with CHECK CONDITION because the entry was malformed or the model
    /// failed.
    pub malformed: u64,
    /// PAD entries skipped.
    pub pads: u64,
    /// TMR notifications seen.
    pub tmrs: u64,
    /// Entries with an opcode this code does not know (skipped).
    pub unknown_entries: u64,
    /// Answers written while a command read before it was still in flight (out-of-order
    /// completions).
    pub out_of_order: u64,
    /// Most commands in flight at once.
    pub max_in_flight: u64,
    /// Pokes of the kernel (one per batch of answers).
    pub kicks: u64,
    /// Passes over the ring (wake-ups of the serving thread).
    pub passes: u64,
    /// Wall time spent in passes (reading entries, running the model, answering), µs; the
    /// rest of the serving time the thread waited for the kernel.
    pub busy_us: u64,
    /// Sleeps in poll() (waits for the kernel's uio event or the earliest answer's time).
    pub waits: u64,
    /// Passes started by the spin after a pass that answered (`cmd_head` moved or an answer
    /// fell due while the thread re-read the mailbox) instead of by a wake-up from poll().
    pub spin_hits: u64,
    /// Wall time spent spinning, µs.
    pub spin_us: u64,
}

/// Executes a command submitted at virtual drive time `at_ns` without waiting for it; the
/// completion's `duration` is the modeled time from `at_ns` until it completes
/// ([`crate::sim::SimDevice::execute_queued`]).
pub type QueuedExec =
    Box<dyn FnMut(&[u8], DataBuf<'_>, Duration, u64) -> crate::Result<Completion> + Send>;

/// After this long with nothing in flight and no new entry, the ring is idle: the closed loop
/// of [`RingServer::queued`] starts again at the latest modeled completion.
pub const IDLE_RESET: Duration = Duration::from_millis(20);

/// Answers entries from a ring with one transport (one target port).
pub struct RingServer<T: Transport> {
    /// The model answering commands.
    pub transport: T,
    /// Counters.
    pub stats: Stats,
    /// Called for each TMR entry (after counting it).
    pub on_tmr: Option<TmrHandler>,
    /// Timeout passed to the transport for each command.
    pub timeout: Duration,
    /// Why the last malformed command was refused.
    pub last_error: Option<String>,
    /// Answer each command when the transport's [`Completion::duration`] has passed (wall
    /// time) instead of at once: the transport returns without waiting (the virtual drive's
    /// deferred service, [`crate::sim::SimDevice::set_deferred_service`]), so commands overlap
    /// as the media timing allows and complete out of order.
    pub defer: bool,
    /// Virtual-clock service: each command is submitted to this at a modeled drive time and
    /// answered without any real wait, in the order of the modeled completion times (so out
    /// of order as the media model says), every answer of a pass in one batch. Submission
    /// times follow a closed loop, as the host's queue does: the n-th command read after a
    /// batch is submitted at the n-th earliest modeled completion of that batch (the slot it
    /// freed), later ones at the latest submission time. Under emulation (QEMU TCG) real
    /// sleeps of tens of microseconds cannot be honoured; this keeps the model's queueing,
    /// ordering and IOPS without them. Takes precedence over [`defer`](Self::defer).
    pub queued: Option<QueuedExec>,
    /// Modeled completion times of answered commands not yet taken by a new command.
    freed: BinaryHeap<Reverse<u64>>,
    /// Latest submission time given to [`queued`](Self::queued).
    last_at: u64,
    /// Latest modeled completion.
    max_done: u64,
    /// Fixed instant all virtual-clock answers are due at (ordered by modeled time instead).
    epoch: Instant,
    /// When entries were last read.
    last_seen: Instant,
    /// Ring offset of the next entry to read (entries between `cmd_tail` and here are read,
    /// and their commands are in flight); `None` until the first call.
    next: Option<usize>,
    /// Commands executed whose answers are not written yet.
    pending: Vec<Pending>,
    seq: u64,
    /// Scratch, reused by every command (no allocation per command): the data iovecs of the
    /// entry being read, a data buffer for commands whose data is not one contiguous iovec,
    /// and the answers of a pass being written.
    iovs: Vec<(usize, usize)>,
    buf: Vec<u8>,
    due: Vec<Pending>,
}

/// How early an answer may be written to batch it with others (see [`RingServer::process`]).
pub const ANSWER_SLACK: Duration = Duration::from_micros(50);

/// A command's answer, due at `due`.
struct Pending {
    due: Instant,
    /// Modeled completion time (virtual-clock service), else 0.
    done_ns: u64,
    seq: u64,
    cmd_id: u16,
    status: u8,
    sense: Vec<u8>,
    read_len: Option<u32>,
}

/// Longest CDB a command entry may carry (SG_IO's limit too: SPC-5's 32-byte variable-length
/// CDBs are the longest any model command uses).
pub const MAX_CDB: usize = 32;

/// A command entry read from the ring, before it is executed; its data iovecs are in
/// [`RingServer`]'s scratch list.
#[derive(Debug, PartialEq, Eq)]
struct CmdReq {
    cdb: [u8; MAX_CDB],
    cdb_len: usize,
    total: usize,
}

impl CmdReq {
    fn cdb(&self) -> &[u8] {
        &self.cdb[..self.cdb_len]
    }
}

/// Internal target failure (SPC-5: HARDWARE ERROR, 44/00): our answer to an entry we cannot
/// make sense of or a model failure.
fn internal_failure() -> (u8, Vec<u8>) {
    (
        status::CHECK_CONDITION,
        build_fixed(SenseKey::HardwareError, 0x44, 0x00),
    )
}

impl<T: Transport> RingServer<T> {
    /// A server answering from `transport`.
    pub fn new(transport: T) -> RingServer<T> {
        RingServer {
            transport,
            stats: Stats::default(),
            on_tmr: None,
            timeout: Duration::from_secs(60),
            last_error: None,
            defer: false,
            queued: None,
            freed: BinaryHeap::new(),
            last_at: 0,
            max_done: 0,
            epoch: Instant::now(),
            last_seen: Instant::now(),
            next: None,
            pending: Vec::new(),
            seq: 0,
            iovs: Vec::new(),
            buf: Vec::new(),
            due: Vec::new(),
        }
    }

    /// Commands read from the ring and not answered yet.
    pub fn in_flight(&self) -> usize {
        self.pending.len()
    }

    /// Whether the kernel has queued entries this server has not read (`cmd_head` is not
    /// where the last pass stopped); true before the first pass.
    pub fn has_new(&self, m: &dyn RingMem) -> bool {
        self.next.is_none_or(|n| m.load_head() as usize != n)
    }

    /// When the earliest unanswered command is due.
    pub fn next_due(&self) -> Option<Instant> {
        self.pending.iter().map(|p| p.due).min()
    }

    /// Reads every new entry up to `cmd_head`, executes its command and answers what is due:
    /// at once without [`defer`](Self::defer), else when the command's service time has
    /// passed; with [`queued`](Self::queued) at once, in the order of the modeled completion
    /// times. Answers go into the entry at `cmd_tail` with the answered command's `cmd_id`
    /// (the kernel finds the command by id, so answers may come out of order, as libtcmu's
    /// `tcmulib_command_complete` does it). Returns how many entries the tail moved over; the
    /// caller then pokes the kernel (write to the uio fd) if that is non-zero.
    pub fn process(&mut self, m: &mut dyn RingMem) -> Result<usize, RingError> {
        let mb = Mailbox::read(m)?;
        if self.pending.is_empty()
            && !self.freed.is_empty()
            && self.last_seen.elapsed() >= IDLE_RESET
        {
            self.freed.clear();
            self.last_at = self.last_at.max(self.max_done);
        }
        let mut next = match self.next {
            Some(n) => n,
            None => m.load_tail() as usize,
        };
        let first = next;
        loop {
            let head = m.load_head() as usize;
            if head == next {
                break;
            }
            if head >= mb.cmdr_size || next >= mb.cmdr_size || next % 8 != 0 {
                return Err(RingError::Corrupt(format!(
                    "head {head} / tail {next} outside a {}-byte ring",
                    mb.cmdr_size
                )));
            }
            let (len, op) = entry_len_op(m, &mb, next, head)?;
            let entry = mb.cmdr_off + next;
            match op {
                OP_PAD => self.stats.pads += 1,
                OP_CMD => self.command(m, &mb, entry, len),
                OP_TMR => {
                    self.stats.tmrs += 1;
                    let tmr = read_tmr(m, entry, len);
                    if let Some(cb) = self.on_tmr.as_mut() {
                        cb(&tmr);
                    }
                }
                _ => self.stats.unknown_entries += 1,
            }
            next = (next + len) % mb.cmdr_size;
            self.next = Some(next);
        }
        self.next = Some(next);
        if next != first {
            self.last_seen = Instant::now();
        }
        // Answers due within the slack go out now, in one batch with one poke of the kernel:
        // a few tens of microseconds early instead of a wake-up (and an interrupt in the
        // guest) per answer.
        self.complete_due(m, &mb, Instant::now() + ANSWER_SLACK)
    }

    /// Writes the answers due by `now` (earliest first) into the entries at the tail.
    fn complete_due(
        &mut self,
        m: &mut dyn RingMem,
        mb: &Mailbox,
        now: Instant,
    ) -> Result<usize, RingError> {
        let mut moved = self.skip_to_command(m, mb)?;
        // The answers due, in answer order (due time, modeled completion, submission): one
        // sort per pass instead of a scan of everything in flight per answer.
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        let mut i = 0;
        while i < self.pending.len() {
            if self.pending[i].due <= now {
                due.push(self.pending.swap_remove(i));
            } else {
                i += 1;
            }
        }
        if due.is_empty() {
            self.due = due;
            return Ok(moved);
        }
        due.sort_unstable_by_key(|p| (p.due, p.done_ns, p.seq));
        // An answer is out of order if a command read before it is still unanswered: one
        // not due yet, or one due but later in this pass (suffix minimum of `seq`).
        let later_min = self.pending.iter().map(|p| p.seq).min().unwrap_or(u64::MAX);
        let mut suffix_min = vec_suffix_min(&due);
        let mut result = Ok(());
        for (k, p) in due.drain(..).enumerate() {
            if result.is_err() {
                // Unanswerable after a corrupt entry: keep it in flight (the caller tears
                // the ring down).
                self.pending.push(p);
                continue;
            }
            if later_min < p.seq || suffix_min.get(k + 1).is_some_and(|&m| m < p.seq) {
                self.stats.out_of_order += 1;
            }
            if self.queued.is_some() {
                self.freed.push(Reverse(p.done_ns));
            }
            let tail = m.load_tail() as usize;
            let entry = mb.cmdr_off + tail;
            let len = match entry_len_op(m, mb, tail, self.next.unwrap_or(tail)) {
                Ok((len, _)) => len,
                Err(e) => {
                    result = Err(e);
                    self.pending.push(p);
                    continue;
                }
            };
            m.write(entry + HDR_CMD_ID, &p.cmd_id.to_ne_bytes());
            self.answer(m, mb, entry, p.status, &p.sense, p.read_len);
            m.store_tail(((tail + len) % mb.cmdr_size) as u32);
            match self.skip_to_command(m, mb) {
                Ok(n) => moved += 1 + n,
                Err(e) => {
                    moved += 1;
                    result = Err(e);
                }
            }
        }
        suffix_min.clear();
        self.due = due;
        result?;
        Ok(moved)
    }

    /// Moves the tail over entries that need no answer (PAD, TMR, unknown, command entries too
    /// short to hold one) until it rests on a command entry or reaches the read position.
    fn skip_to_command(&mut self, m: &mut dyn RingMem, mb: &Mailbox) -> Result<usize, RingError> {
        let next = self.next.unwrap_or(m.load_tail() as usize);
        let mut moved = 0;
        loop {
            let tail = m.load_tail() as usize;
            if tail == next {
                return Ok(moved);
            }
            let (len, op) = entry_len_op(m, mb, tail, next)?;
            if op == OP_CMD && len >= CMD_ENTRY_SIZE {
                return Ok(moved);
            }
            m.store_tail(((tail + len) % mb.cmdr_size) as u32);
            moved += 1;
        }
    }

    /// Counts a command answered with INTERNAL TARGET FAILURE and says why on stderr (the
    /// first few times only, so a broken ring cannot flood the log).
    fn note_malformed(&mut self, why: &str) {
        self.stats.malformed += 1;
        if self.stats.malformed <= 5 {
            eprintln!("sgctl: tcmu: answered CHECK CONDITION (internal target failure): {why}");
        }
        self.last_error = Some(why.to_string());
    }

    /// Runs one command entry and writes the answer into it.
    fn command(&mut self, m: &mut dyn RingMem, mb: &Mailbox, entry: usize, len: usize) {
        self.stats.commands += 1;
        if len < CMD_ENTRY_SIZE {
            // No room for a response: cannot even answer. Count it; the kernel's
            // cmd_time_out fails it.
            self.note_malformed(&format!(
                "{len}-byte command entry has no room for a response"
            ));
            return;
        }
        let cmd_id = rd_u16(m, entry + HDR_CMD_ID).unwrap_or(0);
        // Virtual-clock service: the slot freed earliest is taken first (closed loop).
        let at = self.queued.is_some().then(|| {
            let at = self
                .freed
                .pop()
                .map_or(self.last_at, |Reverse(t)| t)
                .max(self.last_at);
            self.last_at = at;
            at
        });
        let mut iovs = std::mem::take(&mut self.iovs);
        let (status, sense, read_len, wait) = match read_cmd(m, mb, entry, len, &mut iovs) {
            Ok(req) => self.execute(m, &req, &iovs, at),
            Err(why) => {
                self.note_malformed(&why);
                let (st, sense) = internal_failure();
                (st, sense, None, Duration::ZERO)
            }
        };
        self.iovs = iovs;
        let (due, done_ns) = match at {
            Some(at) => {
                let done = at.saturating_add(wait.as_nanos().min(u128::from(u64::MAX)) as u64);
                self.max_done = self.max_done.max(done);
                (self.epoch, done)
            }
            None if self.defer => (Instant::now() + wait, 0),
            None => (Instant::now(), 0),
        };
        self.seq += 1;
        self.pending.push(Pending {
            due,
            done_ns,
            seq: self.seq,
            cmd_id,
            status,
            sense,
            read_len,
        });
        self.stats.max_in_flight = self.stats.max_in_flight.max(self.pending.len() as u64);
    }

    /// Runs one command on the model: queued at `at` (virtual-clock service) or directly.
    fn run(&mut self, cdb: &[u8], data: DataBuf<'_>, at: Option<u64>) -> crate::Result<Completion> {
        match (self.queued.as_mut(), at) {
            (Some(q), Some(at)) => q(cdb, data, self.timeout, at),
            _ => self.transport.execute(cdb, data, self.timeout),
        }
    }

    /// Executes on the model; returns status, sense, (for data-in) bytes transferred and the
    /// service time the transport reported. A data buffer that is one iovec is lent to the
    /// model in place (the ring memory's [`RingMem::slice_mut`]); otherwise it goes through a
    /// scratch buffer gathered from / scattered to the iovecs.
    fn execute(
        &mut self,
        m: &mut dyn RingMem,
        req: &CmdReq,
        iovs: &[(usize, usize)],
        at: Option<u64>,
    ) -> (u8, Vec<u8>, Option<u32>, Duration) {
        let cdb = req.cdb();
        let out = is_data_out(cdb);
        let result = if req.total == 0 {
            self.run(cdb, DataBuf::None, at).map(|c| (c, None))
        } else if out {
            let mut buf = std::mem::take(&mut self.buf);
            let r = match iovs {
                [(off, l)] if m.slice(*off, *l).is_some() => {
                    let data = m.slice(*off, *l).unwrap_or_default();
                    self.run(cdb, DataBuf::Out(data), at).map(|c| (c, None))
                }
                _ => {
                    if buf.len() < req.total {
                        buf.resize(req.total, 0);
                    }
                    let mut pos = 0;
                    let mut ok = true;
                    for &(off, l) in iovs {
                        // Checked by read_cmd; fails only if the mapping shrank.
                        ok &= m.read(off, &mut buf[pos..pos + l]);
                        pos += l;
                    }
                    if ok {
                        self.run(cdb, DataBuf::Out(&buf[..req.total]), at)
                            .map(|c| (c, None))
                    } else {
                        self.buf = buf;
                        self.note_malformed("data-out iovec unreadable");
                        let (st, sense) = internal_failure();
                        return (st, sense, None, Duration::ZERO);
                    }
                }
            };
            self.buf = buf;
            r
        } else {
            // Data moves only with a good status; otherwise nothing was transferred.
            // Exception: ATA PASS-THROUGH with CK_COND returns its data and then CHECK
            // CONDITION with the ATA registers (SAT-4 12.2.2.5); the model says so through
            // the residual. (Bytes the model wrote in place under another status are not
            // counted in `read_len`, so the kernel transfers none of them.)
            let moved = |c: &Completion, len: usize| {
                let good = c.host_status == 0
                    && (c.status == status::GOOD
                        || c.status == status::CONDITION_MET
                        || (c.status == status::CHECK_CONDITION
                            && matches!(cdb.first(), Some(0x85 | 0xA1))));
                if good {
                    c.transferred(len)
                } else {
                    0
                }
            };
            match iovs {
                [(off, l)] if m.slice(*off, *l).is_some() => {
                    let (off, l) = (*off, *l);
                    match m.slice_mut(off, l) {
                        Some(data) => self.run(cdb, DataBuf::In(&mut *data), at).map(|c| {
                            let n = moved(&c, l);
                            // What was not transferred reads as zeros (as the scratch buffer
                            // did), also for a kernel that ignores `read_len`.
                            data[n..].fill(0);
                            (c, Some(n as u32))
                        }),
                        None => Err(Error::Unsupported("data-in iovec unwritable".into())),
                    }
                }
                _ => {
                    let mut buf = std::mem::take(&mut self.buf);
                    if buf.len() < req.total {
                        buf.resize(req.total, 0);
                    }
                    let r = self
                        .run(cdb, DataBuf::In(&mut buf[..req.total]), at)
                        .map(|c| {
                            let n = moved(&c, req.total);
                            scatter(m, iovs, &buf[..n]);
                            (c, Some(n as u32))
                        });
                    self.buf = buf;
                    r
                }
            }
        };
        match result {
            Ok((c, read_len)) => {
                let (st, sense) = completion_to_answer(&c);
                (st, sense, read_len, c.duration)
            }
            Err(e) => {
                self.note_malformed(&format!("model failed: {e}"));
                let (st, sense) = internal_failure();
                (st, sense, None, Duration::ZERO)
            }
        }
    }

    fn answer(
        &mut self,
        m: &mut dyn RingMem,
        mb: &Mailbox,
        entry: usize,
        st: u8,
        sense: &[u8],
        read_len: Option<u32>,
    ) {
        let mut s = [0u8; SENSE_BUFFERSIZE];
        let n = sense.len().min(SENSE_BUFFERSIZE);
        s[..n].copy_from_slice(&sense[..n]);
        m.write(entry + RSP_SCSI_STATUS, &[st]);
        m.write(entry + RSP_SENSE, &s);
        let mut uflags = rd::<1>(m, entry + HDR_UFLAGS).map(|b| b[0]).unwrap_or(0);
        uflags &= !(UFLAG_READ_LEN | UFLAG_UNKNOWN_OP);
        match read_len {
            Some(l) if mb.flags & FLAG_CAP_READ_LEN != 0 => {
                m.write(entry + RSP_READ_LEN, &l.to_ne_bytes());
                uflags |= UFLAG_READ_LEN;
            }
            _ => {
                m.write(entry + RSP_READ_LEN, &0u32.to_ne_bytes());
            }
        }
        m.write(entry + HDR_UFLAGS, &[uflags]);
    }
}

/// `out[k]` = the smallest `seq` of `due[k..]`.
fn vec_suffix_min(due: &[Pending]) -> Vec<u64> {
    let mut out = vec![u64::MAX; due.len() + 1];
    for k in (0..due.len()).rev() {
        out[k] = out[k + 1].min(due[k].seq);
    }
    out
}

/// Length and opcode of the entry at ring offset `at`, checked: at least a header, inside the
/// ring and not past `limit` (the kernel's head, or the read position). A bad length means the
/// next entry cannot be found, so neither can the place to answer this one with certainty:
/// the caller stops serving this ring (and tears down); the kernel fails whatever is left
/// unanswered after its cmd_time_out, so nobody waits forever and no memory outside the entry
/// is touched.
fn entry_len_op(
    m: &dyn RingMem,
    mb: &Mailbox,
    at: usize,
    limit: usize,
) -> Result<(usize, u32), RingError> {
    let entry = mb.cmdr_off + at;
    let len_op = rd_u32(m, entry + HDR_LEN_OP)
        .ok_or_else(|| RingError::Corrupt(format!("entry header at {entry}")))?;
    let len = (len_op & !OP_MASK) as usize;
    let queued = (limit + mb.cmdr_size - at) % mb.cmdr_size;
    if len < HDR_SIZE || at + len > mb.cmdr_size || len > queued {
        return Err(RingError::Corrupt(format!(
            "entry at ring offset {at} has length {len} (ring {} bytes)",
            mb.cmdr_size
        )));
    }
    Ok((len, len_op & OP_MASK))
}

/// The answer to give the kernel for a model completion. TCMU can return only a SCSI status
/// and sense, so a host byte from the model (fault injection) becomes ABORTED COMMAND, which
/// initiators retry, as a transport hiccup would be.
pub fn completion_to_answer(c: &Completion) -> (u8, Vec<u8>) {
    if c.host_status != 0 {
        return (
            status::CHECK_CONDITION,
            build_fixed(SenseKey::AbortedCommand, 0x00, 0x00),
        );
    }
    (c.status, c.sense.clone())
}

fn scatter(m: &mut dyn RingMem, iovs: &[(usize, usize)], mut data: &[u8]) {
    for &(off, l) in iovs {
        if data.is_empty() {
            break;
        }
        let n = l.min(data.len());
        m.write(off, &data[..n]);
        data = &data[n..];
    }
}

/// Reads a command entry; `Err(reason)` if any part of it is out of bounds or inconsistent.
fn read_cmd(
    m: &dyn RingMem,
    mb: &Mailbox,
    entry: usize,
    len: usize,
    iovs: &mut Vec<(usize, usize)>,
) -> Result<CmdReq, String> {
    iovs.clear();
    let data_start = mb.cmdr_off + mb.cmdr_size;
    let field = |what: &str| format!("{what} unreadable");
    let iov_cnt = rd_u32(m, entry + REQ_IOV_CNT).ok_or_else(|| field("iov_cnt"))? as usize;
    let bidi = rd_u32(m, entry + REQ_IOV_BIDI_CNT).ok_or_else(|| field("iov_bidi_cnt"))? as usize;
    let dif = rd_u32(m, entry + REQ_IOV_DIF_CNT).ok_or_else(|| field("iov_dif_cnt"))? as usize;
    // The iovec array must lie inside the entry.
    let iov_end = iov_cnt
        .checked_add(bidi)
        .and_then(|n| n.checked_add(dif))
        .and_then(|n| n.checked_mul(IOVEC_SIZE))
        .and_then(|n| n.checked_add(REQ_IOV));
    if iov_end.is_none_or(|e| e > len) {
        return Err(format!(
            "{iov_cnt}+{bidi}+{dif} iovecs do not fit a {len}-byte entry"
        ));
    }
    let cdb_off = rd_u64(m, entry + REQ_CDB_OFF)
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| field("cdb_off"))?;
    let op =
        rd::<1>(m, cdb_off).ok_or_else(|| format!("cdb_off {cdb_off} outside the mapping"))?[0];
    let b7 = cdb_off
        .checked_add(7)
        .and_then(|o| rd::<1>(m, o))
        .map(|b| b[0]);
    let clen = cdb_len(op, b7);
    if clen > MAX_CDB {
        return Err(format!("{clen}-byte CDB (at most {MAX_CDB})"));
    }
    let mut cdb = [0u8; MAX_CDB];
    if !m.read(cdb_off, &mut cdb[..clen]) {
        return Err(format!("{clen}-byte CDB at {cdb_off} outside the mapping"));
    }
    let mut total: usize = 0;
    for i in 0..iov_cnt {
        let at = entry + REQ_IOV + i * IOVEC_SIZE;
        let base = rd_u64(m, at)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| field("iov_base"))?;
        let l = rd_u64(m, at + 8)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| field("iov_len"))?;
        // Data lives in the data area, never over the mailbox or the ring.
        if base < data_start || base.checked_add(l).is_none_or(|e| e > m.len()) {
            return Err(format!(
                "iovec {i} ({base}+{l}) outside the data area {data_start}..{}",
                m.len()
            ));
        }
        total = total.saturating_add(l);
        if total > MAX_DATA {
            return Err(format!("more than {MAX_DATA} bytes of data"));
        }
        if l > 0 {
            iovs.push((base, l));
        }
    }
    Ok(CmdReq {
        cdb,
        cdb_len: clen,
        total,
    })
}

fn read_tmr(m: &dyn RingMem, entry: usize, len: usize) -> Tmr {
    let tmr_type = rd::<1>(m, entry + TMR_TYPE).map(|b| b[0]).unwrap_or(0);
    let cnt = rd_u32(m, entry + TMR_CMD_CNT).unwrap_or(0) as usize;
    // Only the ids that fit inside the entry.
    let fit = len.saturating_sub(TMR_CMD_IDS) / 2;
    let cmd_ids = (0..cnt.min(fit))
        .filter_map(|i| rd_u16(m, entry + TMR_CMD_IDS + 2 * i))
        .collect();
    Tmr { tmr_type, cmd_ids }
}

/// Test support: a TCMU mapping in plain memory, for tests and fuzz targets that play the
/// kernel's side of the ring (the unit tests' fake kernel, `fuzz/fuzz_targets/tcmu_ring.rs`).
/// Nothing here touches a device; it is public so that code outside this crate can use it.
pub mod testing {
    use super::{RingMem, MB_CMD_HEAD, MB_CMD_TAIL};

    /// A ring mapping held in a `Vec`: the bytes a kernel would share (mailbox at 0, the
    /// command ring at the mailbox's `cmdr_off`, the data area after it), every access
    /// bounds-checked, `cmd_head`/`cmd_tail` read and written in native byte order as the
    /// kernel's `__u32` fields are. Contents are whatever the caller puts there: a test lays
    /// out a valid ring, a fuzz target arbitrary bytes.
    /// A mapping too short for the mailbox reads `cmd_head`/`cmd_tail` as 0 (and
    /// [`super::Mailbox::read`] refuses it).
    #[derive(Debug, Clone, Default)]
    pub struct VecMem(pub Vec<u8>);

    impl VecMem {
        fn u32_at(&self, off: usize) -> u32 {
            self.0
                .get(off..off + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_ne_bytes)
        }
    }

    impl RingMem for VecMem {
        fn len(&self) -> usize {
            self.0.len()
        }
        fn read(&self, off: usize, buf: &mut [u8]) -> bool {
            match off.checked_add(buf.len()) {
                Some(end) if end <= self.0.len() => {
                    buf.copy_from_slice(&self.0[off..end]);
                    true
                }
                _ => false,
            }
        }
        fn write(&mut self, off: usize, buf: &[u8]) -> bool {
            match off.checked_add(buf.len()) {
                Some(end) if end <= self.0.len() => {
                    self.0[off..end].copy_from_slice(buf);
                    true
                }
                _ => false,
            }
        }
        fn load_head(&self) -> u32 {
            self.u32_at(MB_CMD_HEAD)
        }
        fn load_tail(&self) -> u32 {
            self.u32_at(MB_CMD_TAIL)
        }
        fn store_tail(&mut self, v: u32) {
            if let Some(b) = self.0.get_mut(MB_CMD_TAIL..MB_CMD_TAIL + 4) {
                b.copy_from_slice(&v.to_ne_bytes());
            }
        }
        fn slice(&self, off: usize, len: usize) -> Option<&[u8]> {
            self.0.get(off..off.checked_add(len)?)
        }
        fn slice_mut(&mut self, off: usize, len: usize) -> Option<&mut [u8]> {
            self.0.get_mut(off..off.checked_add(len)?)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub use super::testing::VecMem;

    pub const RING_OFF: usize = 128;
    pub const RING_SIZE: usize = 1024;

    /// A fake kernel: queues entries the way target_core_user.c does.
    pub struct FakeKernel {
        pub mem: VecMem,
        data_next: usize,
        ring_size: usize,
        /// The kernel's `cmdr_last_cleaned`: answers up to the tail are reaped from here.
        cleaned: usize,
        next_id: u16,
    }

    impl FakeKernel {
        pub fn new(flags: u16) -> FakeKernel {
            FakeKernel::with_sizes(flags, RING_SIZE, 64 * 1024)
        }

        /// A fake kernel with a ring of `ring_size` bytes and `data` bytes of data area.
        pub fn with_sizes(flags: u16, ring_size: usize, data: usize) -> FakeKernel {
            let mut v = vec![0u8; RING_OFF + ring_size + data];
            v[MB_VERSION..MB_VERSION + 2].copy_from_slice(&MAILBOX_VERSION.to_ne_bytes());
            v[MB_FLAGS..MB_FLAGS + 2].copy_from_slice(&flags.to_ne_bytes());
            v[MB_CMDR_OFF..MB_CMDR_OFF + 4].copy_from_slice(&(RING_OFF as u32).to_ne_bytes());
            v[MB_CMDR_SIZE..MB_CMDR_SIZE + 4].copy_from_slice(&(ring_size as u32).to_ne_bytes());
            FakeKernel {
                mem: VecMem(v),
                data_next: RING_OFF + ring_size,
                ring_size,
                cleaned: 0,
                next_id: 1,
            }
        }

        /// Data-area offsets are handed out from the start again (the caller knows the
        /// earlier buffers are answered).
        pub fn recycle_data(&mut self) {
            self.data_next = RING_OFF + self.ring_size;
        }

        fn head(&self) -> usize {
            self.mem.load_head() as usize
        }

        fn set_head(&mut self, h: usize) {
            self.mem.0[MB_CMD_HEAD..MB_CMD_HEAD + 4].copy_from_slice(&(h as u32).to_ne_bytes());
        }

        /// Queues a raw entry (header + body) at head, padding to the ring end first if needed.
        pub fn push_raw(&mut self, op: u32, body: &[u8], len: usize) -> usize {
            let mut head = self.head();
            if head + len > self.ring_size {
                let pad = self.ring_size - head;
                let at = RING_OFF + head;
                self.mem.write(at, &((pad as u32) | OP_PAD).to_ne_bytes());
                head = 0;
            }
            let at = RING_OFF + head;
            self.mem
                .write(at, &((len as u32 & !OP_MASK) | op).to_ne_bytes());
            self.mem.write(at + HDR_SIZE, body);
            self.set_head((head + len) % self.ring_size);
            at
        }

        /// Whether an entry of `len` bytes fits (with a PAD to the ring end if needed), as
        /// target_core_user.c's `is_ring_space_avail` counts: up to the last reaped answer.
        pub fn has_room(&self, len: usize) -> bool {
            let head = self.head();
            let free = (self.cleaned + self.ring_size - head - 1) % self.ring_size;
            let need = if head + len > self.ring_size {
                len + self.ring_size - head
            } else {
                len
            };
            free >= need
        }

        /// Queues a command with data iovecs at the given data-area offsets and lengths and a
        /// fresh `cmd_id`, if the ring has room. Returns (entry offset, cmd_id).
        pub fn try_push_at(&mut self, cdb: &[u8], iovs: &[(usize, usize)]) -> Option<(usize, u16)> {
            let len = (REQ_IOV + iovs.len() * IOVEC_SIZE + cdb.len())
                .max(CMD_ENTRY_SIZE)
                .div_ceil(8)
                * 8;
            if !self.has_room(len) {
                return None;
            }
            let lens: Vec<usize> = iovs.iter().map(|&(_, l)| l).collect();
            let saved = self.data_next;
            let (at, _) = self.push_cmd_iovs(cdb, &lens, &[], Some(iovs));
            self.data_next = saved;
            let id = self.next_id;
            self.next_id = self.next_id.wrapping_add(1).max(1);
            self.mem.write(at + HDR_CMD_ID, &id.to_ne_bytes());
            Some((at, id))
        }

        /// Reaps answers from the last reaped one up to `cmd_tail` as the kernel's
        /// `tcmu_handle_completions` does (PAD and TMR entries skipped): (cmd_id, status) of
        /// each, in ring order.
        pub fn reap(&mut self) -> Vec<(u16, u8)> {
            let tail = self.mem.load_tail() as usize;
            let mut out = vec![];
            while self.cleaned != tail {
                let at = RING_OFF + self.cleaned;
                let len_op = u32::from_ne_bytes(self.mem.0[at..at + 4].try_into().unwrap());
                let (len, op) = ((len_op & !OP_MASK) as usize, len_op & OP_MASK);
                assert!(
                    len >= HDR_SIZE,
                    "entry at {} has length {len}",
                    self.cleaned
                );
                if op == OP_CMD {
                    let id = u16::from_ne_bytes(
                        self.mem.0[at + HDR_CMD_ID..at + HDR_CMD_ID + 2]
                            .try_into()
                            .unwrap(),
                    );
                    out.push((id, self.mem.0[at + RSP_SCSI_STATUS]));
                }
                self.cleaned = (self.cleaned + len) % self.ring_size;
            }
            out
        }

        /// Queues a command with `cdb` and data iovecs of the given lengths (data-out contents
        /// from `out`). Returns (entry offset, iovec offsets).
        pub fn push_cmd(
            &mut self,
            cdb: &[u8],
            iov_lens: &[usize],
            out: &[u8],
        ) -> (usize, Vec<usize>) {
            self.push_cmd_iovs(cdb, iov_lens, out, None)
        }

        fn push_cmd_iovs(
            &mut self,
            cdb: &[u8],
            iov_lens: &[usize],
            out: &[u8],
            fixed: Option<&[(usize, usize)]>,
        ) -> (usize, Vec<usize>) {
            let mut iovs = vec![];
            let mut src = out;
            for (i, &l) in iov_lens.iter().enumerate() {
                let off = match fixed {
                    Some(f) => f[i].0,
                    None => self.data_next,
                };
                self.data_next += l;
                let n = l.min(src.len());
                self.mem.write(off, &src[..n]);
                src = &src[n..];
                iovs.push(off);
            }
            let base = REQ_IOV + iov_lens.len() * IOVEC_SIZE;
            let len = (base + cdb.len()).max(CMD_ENTRY_SIZE).div_ceil(8) * 8;
            // Reserve to learn the entry offset, then fill the body.
            let mut head = self.head();
            if head + len > self.ring_size {
                head = 0;
            }
            let cdb_off = RING_OFF + head + base;
            let mut body = vec![0u8; len - HDR_SIZE];
            body[0..4].copy_from_slice(&(iov_lens.len() as u32).to_ne_bytes());
            body[REQ_CDB_OFF - 8..REQ_CDB_OFF].copy_from_slice(&(cdb_off as u64).to_ne_bytes());
            for (i, (&o, &l)) in iovs.iter().zip(iov_lens).enumerate() {
                let at = REQ_IOV - 8 + i * IOVEC_SIZE;
                body[at..at + 8].copy_from_slice(&(o as u64).to_ne_bytes());
                body[at + 8..at + 16].copy_from_slice(&(l as u64).to_ne_bytes());
            }
            body[base - 8..base - 8 + cdb.len()].copy_from_slice(cdb);
            let at = self.push_raw(OP_CMD, &body, len);
            (at, iovs)
        }

        pub fn status(&self, entry: usize) -> u8 {
            self.mem.0[entry + RSP_SCSI_STATUS]
        }
        pub fn sense(&self, entry: usize) -> &[u8] {
            &self.mem.0[entry + RSP_SENSE..entry + RSP_SENSE + SENSE_BUFFERSIZE]
        }
        pub fn read_len(&self, entry: usize) -> Option<u32> {
            (self.mem.0[entry + HDR_UFLAGS] & UFLAG_READ_LEN != 0).then(|| {
                u32::from_ne_bytes(
                    self.mem.0[entry + RSP_READ_LEN..entry + RSP_READ_LEN + 4]
                        .try_into()
                        .unwrap(),
                )
            })
        }
    }

    /// A toy model: INQUIRY returns 8 bytes; WRITE(10) stores its data, READ(10) returns it;
    /// anything else is ILLEGAL REQUEST 20/00; opcode 0xee fails at the transport level and
    /// 0xed reports a host error.
    #[derive(Default)]
    pub struct Toy {
        pub stored: Vec<u8>,
        pub seen: Vec<Vec<u8>>,
    }

    impl Transport for Toy {
        fn execute(
            &mut self,
            cdb: &[u8],
            data: DataBuf<'_>,
            _: Duration,
        ) -> crate::Result<Completion> {
            self.seen.push(cdb.to_vec());
            match (cdb[0], data) {
                (0x12, DataBuf::In(b)) => {
                    let src = [0u8, 0, 6, 2, 3, 0, 0x10, 0];
                    let n = b.len().min(8);
                    b[..n].copy_from_slice(&src[..n]);
                    Ok(Completion {
                        resid: b.len() - n,
                        ..Completion::good()
                    })
                }
                (0x2a, DataBuf::Out(b)) => {
                    self.stored = b.to_vec();
                    Ok(Completion::good())
                }
                (0x28, DataBuf::In(b)) => {
                    let n = b.len().min(self.stored.len());
                    b[..n].copy_from_slice(&self.stored[..n]);
                    Ok(Completion::good())
                }
                (0xee, _) => Err(Error::InvalidArgument("model failure".into())),
                (0xed, _) => Ok(Completion {
                    host_status: 0x03,
                    ..Completion::good()
                }),
                _ => Ok(Completion::check_condition(build_fixed(
                    SenseKey::IllegalRequest,
                    0x20,
                    0,
                ))),
            }
        }
        fn address(&self) -> String {
            "toy".into()
        }
    }

    #[test]
    fn layout_matches_the_uapi_header() {
        // The restated offsets against bindgen's rendering of <linux/target_core_user.h>
        // (sgctl-sys, regenerated and diffed in CI).
        use core::mem::{offset_of, size_of};
        use sgctl_sys as sys;
        let l = |v: sys::sgctl_tcmu_layout| v as usize;
        assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_VERSION), MB_VERSION);
        assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_FLAGS), MB_FLAGS);
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMDR_OFF),
            MB_CMDR_OFF
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMDR_SIZE),
            MB_CMDR_SIZE
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMD_HEAD),
            MB_CMD_HEAD
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMD_TAIL),
            MB_CMD_TAIL
        );
        assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_SIZE), 128);
        assert_eq!(size_of::<sys::tcmu_mailbox>(), 128);
        assert_eq!(size_of::<sys::tcmu_cmd_entry_hdr>(), HDR_SIZE);
        assert_eq!(offset_of!(sys::tcmu_cmd_entry_hdr, cmd_id), HDR_CMD_ID);
        assert_eq!(offset_of!(sys::tcmu_cmd_entry_hdr, kflags), HDR_KFLAGS);
        assert_eq!(offset_of!(sys::tcmu_cmd_entry_hdr, uflags), HDR_UFLAGS);
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV_CNT),
            REQ_IOV_CNT
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV_BIDI_CNT),
            REQ_IOV_BIDI_CNT
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV_DIF_CNT),
            REQ_IOV_DIF_CNT
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_CDB_OFF),
            REQ_CDB_OFF
        );
        assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV), REQ_IOV);
        assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_IOVEC_SIZE), IOVEC_SIZE);
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_RSP_SCSI_STATUS),
            RSP_SCSI_STATUS
        );
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_RSP_READ_LEN),
            RSP_READ_LEN
        );
        assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_RSP_SENSE), RSP_SENSE);
        assert_eq!(
            l(sys::sgctl_tcmu_layout_SGCTL_TCMU_ENTRY_SIZE),
            CMD_ENTRY_SIZE
        );
        assert_eq!(size_of::<sys::tcmu_cmd_entry>(), CMD_ENTRY_SIZE);
        assert_eq!(offset_of!(sys::tcmu_tmr_entry, tmr_type), TMR_TYPE);
        assert_eq!(offset_of!(sys::tcmu_tmr_entry, cmd_cnt), TMR_CMD_CNT);
        assert_eq!(offset_of!(sys::tcmu_tmr_entry, cmd_ids), TMR_CMD_IDS);
        assert_eq!(u32::from(MAILBOX_VERSION), sys::TCMU_MAILBOX_VERSION);
        assert_eq!(u32::from(FLAG_CAP_OOOC), sys::TCMU_MAILBOX_FLAG_CAP_OOOC);
        assert_eq!(
            u32::from(FLAG_CAP_READ_LEN),
            sys::TCMU_MAILBOX_FLAG_CAP_READ_LEN
        );
        assert_eq!(u32::from(FLAG_CAP_TMR), sys::TCMU_MAILBOX_FLAG_CAP_TMR);
        assert_eq!(u32::from(UFLAG_UNKNOWN_OP), sys::TCMU_UFLAG_UNKNOWN_OP);
        assert_eq!(u32::from(UFLAG_READ_LEN), sys::TCMU_UFLAG_READ_LEN);
        assert_eq!(OP_MASK, sys::TCMU_OP_MASK);
        assert_eq!(SENSE_BUFFERSIZE as u32, sys::TCMU_SENSE_BUFFERSIZE);
        assert_eq!(u32::from(TMR_LUN_RESET), sys::TCMU_TMR_LUN_RESET);
        assert_eq!(u32::from(TMR_ABORT_TASK), sys::TCMU_TMR_ABORT_TASK);
        assert_eq!(
            (OP_PAD, OP_CMD, OP_TMR),
            (
                sys::tcmu_opcode_TCMU_OP_PAD,
                sys::tcmu_opcode_TCMU_OP_CMD,
                sys::tcmu_opcode_TCMU_OP_TMR
            )
        );
    }

    #[test]
    fn mailbox_checks() {
        let k = FakeKernel::new(FLAG_CAP_READ_LEN);
        let mb = Mailbox::read(&k.mem).unwrap();
        assert_eq!((mb.cmdr_off, mb.cmdr_size), (RING_OFF, RING_SIZE));
        let mut bad = FakeKernel::new(0);
        bad.mem.0[0] = 3;
        assert!(matches!(
            Mailbox::read(&bad.mem),
            Err(RingError::BadMailbox(_))
        ));
        let mut bad = FakeKernel::new(0);
        bad.mem.0[MB_CMDR_SIZE..MB_CMDR_SIZE + 4].copy_from_slice(&u32::MAX.to_ne_bytes());
        assert!(Mailbox::read(&bad.mem).is_err());
        assert!(Mailbox::read(&VecMem(vec![2, 0])).is_err());
    }

    #[test]
    fn answers_data_in_with_read_len_and_sense() {
        let mut k = FakeKernel::new(FLAG_CAP_READ_LEN);
        let (inq, iovs) = k.push_cmd(&[0x12, 0, 0, 0, 36, 0], &[20, 16], &[]);
        let (bad, _) = k.push_cmd(&[0x5a, 0, 0x3f, 0, 0, 0, 0, 0, 0xfc, 0], &[252], &[]);
        let (tur, _) = k.push_cmd(&[0, 0, 0, 0, 0, 0], &[], &[]);
        let mut s = RingServer::new(Toy::default());
        assert_eq!(s.process(&mut k.mem).unwrap(), 3);
        assert_eq!(k.mem.load_tail(), k.mem.load_head());
        assert_eq!(k.status(inq), 0);
        assert_eq!(k.read_len(inq), Some(8));
        assert_eq!(&k.mem.0[iovs[0]..iovs[0] + 8], &[0, 0, 6, 2, 3, 0, 0x10, 0]);
        assert_eq!(k.status(bad), 2);
        assert_eq!(&k.sense(bad)[..3], &[0x70, 0, 5]);
        assert_eq!(k.sense(bad)[12], 0x20);
        assert_eq!(k.read_len(bad), Some(0));
        // TUR went to the model as a 6-byte CDB without data.
        assert_eq!(k.status(tur), 2);
        assert_eq!(s.transport.seen[2], vec![0u8; 6]);
        assert_eq!(s.stats.commands, 3);
        assert_eq!(s.stats.malformed, 0);
        // Nothing more to do.
        assert_eq!(s.process(&mut k.mem).unwrap(), 0);
    }

    #[test]
    fn no_read_len_without_the_capability() {
        let mut k = FakeKernel::new(0);
        let (inq, _) = k.push_cmd(&[0x12, 0, 0, 0, 36, 0], &[36], &[]);
        let mut s = RingServer::new(Toy::default());
        s.process(&mut k.mem).unwrap();
        assert_eq!(k.read_len(inq), None);
    }

    #[test]
    fn data_out_is_gathered_and_read_back_scattered() {
        let mut k = FakeKernel::new(FLAG_CAP_READ_LEN);
        let payload: Vec<u8> = (0..100u8).collect();
        let (w, _) = k.push_cmd(&[0x2a, 0, 0, 0, 0, 0, 0, 0, 1, 0], &[30, 70], &payload);
        let (r, riovs) = k.push_cmd(&[0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0], &[64, 36], &[]);
        let mut s = RingServer::new(Toy::default());
        s.process(&mut k.mem).unwrap();
        assert_eq!(k.status(w), 0);
        assert_eq!(s.transport.stored, payload);
        assert_eq!(k.status(r), 0);
        assert_eq!(&k.mem.0[riovs[0]..riovs[0] + 64], &payload[..64]);
        assert_eq!(&k.mem.0[riovs[1]..riovs[1] + 36], &payload[64..]);
        assert_eq!(k.read_len(r), Some(100));
    }

    #[test]
    fn one_iovec_is_lent_in_place_and_the_untransferred_rest_reads_zero() {
        // One contiguous iovec: the model writes the kernel's data area directly. The
        // buffer is dirty from an earlier command (the kernel reuses data blocks): what the
        // model did not transfer reads as zeros, as it did through a zeroed scratch buffer.
        let mut k = FakeKernel::new(FLAG_CAP_READ_LEN);
        let payload: Vec<u8> = (1..=64u8).collect();
        let (w, _) = k.push_cmd(&[0x2a, 0, 0, 0, 0, 0, 0, 0, 1, 0], &[64], &payload);
        let (inq, iovs) = k.push_cmd(&[0x12, 0, 0, 0, 36, 0], &[36], &[]);
        k.mem.0[iovs[0]..iovs[0] + 36].fill(0xEE);
        let (bad, biovs) = k.push_cmd(&[0x5a, 0, 0x3f, 0, 0, 0, 0, 0, 0x20, 0], &[32], &[]);
        k.mem.0[biovs[0]..biovs[0] + 32].fill(0xEE);
        let mut s = RingServer::new(Toy::default());
        assert_eq!(s.process(&mut k.mem).unwrap(), 3);
        assert_eq!(k.status(w), 0);
        assert_eq!(s.transport.stored, payload, "data-out read in place");
        assert_eq!(k.read_len(inq), Some(8));
        assert_eq!(&k.mem.0[iovs[0]..iovs[0] + 8], &[0, 0, 6, 2, 3, 0, 0x10, 0]);
        assert!(k.mem.0[iovs[0] + 8..iovs[0] + 36].iter().all(|&b| b == 0));
        // CHECK CONDITION: nothing transferred, the buffer reads as zeros.
        assert_eq!(k.status(bad), 2);
        assert_eq!(k.read_len(bad), Some(0));
        assert!(k.mem.0[biovs[0]..biovs[0] + 32].iter().all(|&b| b == 0));
        // The scratch buffer was not needed.
        assert!(s.buf.is_empty());
    }

    #[test]
    fn pad_and_wraparound() {
        let mut k = FakeKernel::new(0);
        let mut s = RingServer::new(Toy::default());
        // Fill and drain many times so entries wrap around the 1 KiB ring with PADs.
        for i in 0..40u8 {
            let (e, _) = k.push_cmd(&[0x12, 0, 0, 0, i, 0], &[8], &[]);
            s.process(&mut k.mem).unwrap();
            assert_eq!(k.status(e), 0, "round {i}");
        }
        assert_eq!(s.stats.commands, 40);
        assert!(s.stats.pads > 0);
    }

    #[test]
    fn tmr_is_reported_and_skipped() {
        let mut k = FakeKernel::new(FLAG_CAP_TMR);
        let mut body = vec![0u8; 40 - HDR_SIZE];
        body[TMR_TYPE - 8] = TMR_LUN_RESET;
        body[TMR_CMD_CNT - 8..TMR_CMD_CNT - 4].copy_from_slice(&2u32.to_ne_bytes());
        body[TMR_CMD_IDS - 8..TMR_CMD_IDS - 6].copy_from_slice(&7u16.to_ne_bytes());
        body[TMR_CMD_IDS - 6..TMR_CMD_IDS - 4].copy_from_slice(&9u16.to_ne_bytes());
        k.push_raw(OP_TMR, &body, 40);
        let (e, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
        let seen = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
        let seen2 = seen.clone();
        let mut s = RingServer::new(Toy::default());
        s.on_tmr = Some(Box::new(move |t: &Tmr| {
            seen2.lock().unwrap().push(t.clone())
        }));
        assert_eq!(s.process(&mut k.mem).unwrap(), 2);
        assert_eq!(k.status(e), 0);
        let t = seen.lock().unwrap()[0].clone();
        assert_eq!(t.name(), "LOGICAL UNIT RESET");
        assert_eq!(t.cmd_ids, vec![7, 9]);
        assert_eq!(s.stats.tmrs, 1);
    }

    #[test]
    fn malformed_commands_get_check_condition() {
        let mut k = FakeKernel::new(FLAG_CAP_READ_LEN);
        // CDB offset outside the mapping.
        let (e1, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
        k.mem.0[e1 + REQ_CDB_OFF..e1 + REQ_CDB_OFF + 8].copy_from_slice(&u64::MAX.to_ne_bytes());
        // An iovec reaching past the mapping.
        let (e2, _) = k.push_cmd(&[0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0], &[8], &[]);
        let at = e2 + REQ_IOV + 8;
        k.mem.0[at..at + 8].copy_from_slice(&(1u64 << 40).to_ne_bytes());
        // iov_cnt claiming more iovecs than the entry holds.
        let (e3, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
        k.mem.0[e3 + REQ_IOV_CNT..e3 + REQ_IOV_CNT + 4].copy_from_slice(&u32::MAX.to_ne_bytes());
        // The model fails, or reports a host byte TCMU cannot carry.
        let (e4, _) = k.push_cmd(&[0xee, 0, 0, 0, 0, 0], &[], &[]);
        let (e5, _) = k.push_cmd(&[0xed, 0, 0, 0, 0, 0], &[], &[]);
        // An unknown entry opcode is skipped; the command after it is still answered.
        k.push_raw(5, &[0u8; 8], 16);
        let (e6, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
        let mut s = RingServer::new(Toy::default());
        assert_eq!(s.process(&mut k.mem).unwrap(), 7);
        for e in [e1, e2, e3, e4] {
            assert_eq!(k.status(e), 2, "entry {e}");
            assert_eq!(k.sense(e)[2], 0x04, "HARDWARE ERROR");
            assert_eq!(k.sense(e)[12], 0x44, "INTERNAL TARGET FAILURE");
        }
        assert_eq!(k.status(e5), 2);
        assert_eq!(k.sense(e5)[2], 0x0b, "ABORTED COMMAND");
        assert_eq!(k.status(e6), 0);
        assert_eq!(s.stats.malformed, 4);
        assert_eq!(s.stats.unknown_entries, 1);
    }

    #[test]
    fn corrupt_ring_stops_without_panicking() {
        // Entry length running past the ring end: answered, then the ring is given up.
        let mut k = FakeKernel::new(0);
        let (e, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
        k.mem.0[e..e + 4].copy_from_slice(&((4096u32) | OP_CMD).to_ne_bytes());
        let mut s = RingServer::new(Toy::default());
        assert!(matches!(s.process(&mut k.mem), Err(RingError::Corrupt(_))));
        assert_eq!(
            k.mem.load_tail(),
            0,
            "tail not moved past an entry it could not parse"
        );
        // Entry length running past head.
        let mut k = FakeKernel::new(0);
        let (e, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
        k.mem.0[e..e + 4].copy_from_slice(&((512u32) | OP_CMD).to_ne_bytes());
        assert!(matches!(s.process(&mut k.mem), Err(RingError::Corrupt(_))));
        // Zero-length entry.
        let mut k = FakeKernel::new(0);
        k.push_raw(OP_PAD, &[], 8);
        k.mem.0[RING_OFF..RING_OFF + 4].copy_from_slice(&0u32.to_ne_bytes());
        assert!(s.process(&mut k.mem).is_err());
        // Head outside the ring.
        let mut k = FakeKernel::new(0);
        k.set_head(RING_SIZE + 8);
        assert!(s.process(&mut k.mem).is_err());
    }

    #[test]
    fn directions_and_lengths() {
        assert!(is_data_out(&[0x2a]));
        assert!(is_data_out(&[0x55]));
        assert!(is_data_out(&[0xb5]));
        assert!(is_data_out(&[0x48, 0x01]));
        assert!(!is_data_out(&[0x28]));
        assert!(!is_data_out(&[0xa2]));
        assert!(!is_data_out(&[0x2f, 0x00]));
        assert!(is_data_out(&[0x2f, 0x02]));
        let mut w32 = [0u8; 32];
        w32[0] = 0x7f;
        w32[7] = 0x18;
        w32[9] = 0x0b;
        assert!(is_data_out(&w32));
        assert!(!is_data_out(&[]));
        assert_eq!(cdb_len(0x00, None), 6);
        assert_eq!(cdb_len(0x28, None), 10);
        assert_eq!(cdb_len(0x5a, None), 10);
        assert_eq!(cdb_len(0xa0, None), 12);
        assert_eq!(cdb_len(0x88, None), 16);
        assert_eq!(cdb_len(0x7f, Some(0x18)), 32);
    }

    #[test]
    fn random_garbage_never_panics() {
        // Fill the ring with pseudo-random bytes under a valid mailbox: process must return
        // (Ok or Err) without panicking or touching memory out of bounds.
        let mut seed = 0x2545f4914f6cdd1du64;
        for _ in 0..200 {
            let mut k = FakeKernel::new(FLAG_CAP_READ_LEN | FLAG_CAP_TMR);
            for b in &mut k.mem.0[RING_OFF..RING_OFF + RING_SIZE] {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *b = seed as u8;
            }
            k.set_head((seed as usize % (RING_SIZE / 8)) * 8);
            let mut s = RingServer::new(Toy::default());
            let _ = s.process(&mut k.mem);
        }
    }

    /// Answers after `cdb[1]` milliseconds (as a deferring virtual drive reports them).
    struct Timed;

    impl Transport for Timed {
        fn execute(
            &mut self,
            cdb: &[u8],
            _: DataBuf<'_>,
            _: Duration,
        ) -> crate::Result<Completion> {
            Ok(Completion {
                duration: Duration::from_millis(u64::from(cdb[1])),
                ..Completion::good()
            })
        }
        fn address(&self) -> String {
            "timed".into()
        }
    }

    fn cmd_id(k: &FakeKernel, entry: usize) -> u16 {
        u16::from_ne_bytes(
            k.mem.0[entry + HDR_CMD_ID..entry + HDR_CMD_ID + 2]
                .try_into()
                .unwrap(),
        )
    }

    #[test]
    fn deferred_answers_complete_out_of_order_by_cmd_id() {
        let mut k = FakeKernel::new(0);
        let (slow, _) = k.push_cmd(&[0, 40, 0, 0, 0, 0], &[], &[]);
        let (fast, _) = k.push_cmd(&[0, 0, 0, 0, 0, 0], &[], &[]);
        k.mem.write(slow + HDR_CMD_ID, &7u16.to_ne_bytes());
        k.mem.write(fast + HDR_CMD_ID, &9u16.to_ne_bytes());
        let mut s = RingServer::new(Timed);
        s.defer = true;
        // The fast command is answered first, in the slot at the tail (the slow one's entry),
        // under its own id; the slow one is still in flight.
        assert_eq!(s.process(&mut k.mem).unwrap(), 1);
        assert_eq!(cmd_id(&k, slow), 9);
        assert_eq!(k.status(slow), 0);
        assert_eq!(s.in_flight(), 1);
        assert_eq!(k.mem.load_tail() as usize, fast - RING_OFF);
        assert!(s.next_due().is_some());
        // Not due yet: nothing moves.
        assert_eq!(s.process(&mut k.mem).unwrap(), 0);
        std::thread::sleep(Duration::from_millis(45));
        assert_eq!(s.process(&mut k.mem).unwrap(), 1);
        assert_eq!(cmd_id(&k, fast), 7);
        assert_eq!(k.mem.load_tail(), k.mem.load_head());
        assert_eq!(s.in_flight(), 0);
        assert_eq!(s.stats.commands, 2);
    }

    /// A virtual-clock queued model: each command completes `cdb[1]` µs after it is submitted;
    /// records (submission time, cdb[1]) of every call.
    type Calls = std::sync::Arc<std::sync::Mutex<Vec<(u64, u8)>>>;

    fn queued_model() -> (QueuedExec, Calls) {
        let calls = std::sync::Arc::new(std::sync::Mutex::new(vec![]));
        let c2 = calls.clone();
        let exec: QueuedExec = Box::new(move |cdb: &[u8], _: DataBuf<'_>, _, at: u64| {
            c2.lock().unwrap().push((at, cdb[1]));
            Ok(Completion {
                duration: Duration::from_micros(u64::from(cdb[1])),
                ..Completion::good()
            })
        });
        (exec, calls)
    }

    #[test]
    fn virtual_clock_answers_in_modeled_completion_order_at_once() {
        let mut k = FakeKernel::new(0);
        let (exec, calls) = queued_model();
        let mut s = RingServer::new(Timed);
        s.queued = Some(exec);
        let ids: Vec<u16> = [30u8, 10, 20]
            .iter()
            .map(|&d| k.try_push_at(&[0, d, 0, 0, 0, 0], &[]).unwrap().1)
            .collect();
        // All three answered in this pass (no real wait), fastest first, in the slots from the
        // tail on: the kernel reaps ids 2, 3, 1.
        assert_eq!(s.process(&mut k.mem).unwrap(), 3);
        assert_eq!(s.in_flight(), 0);
        let got: Vec<u16> = k
            .reap()
            .iter()
            .map(|&(id, st)| {
                assert_eq!(st, 0);
                id
            })
            .collect();
        assert_eq!(got, vec![ids[1], ids[2], ids[0]]);
        assert_eq!(s.stats.out_of_order, 2);
        assert_eq!(s.stats.max_in_flight, 3);
        // All three were submitted at 0 (the queue filled at once).
        assert_eq!(
            calls
                .lock()
                .unwrap()
                .iter()
                .map(|c| c.0)
                .collect::<Vec<_>>(),
            vec![0, 0, 0]
        );
        // Closed loop: the next two commands take the slots freed at 10 µs and 20 µs.
        k.try_push_at(&[0, 5, 0, 0, 0, 0], &[]).unwrap();
        k.try_push_at(&[0, 5, 0, 0, 0, 0], &[]).unwrap();
        assert_eq!(s.process(&mut k.mem).unwrap(), 2);
        let c = calls.lock().unwrap().clone();
        assert_eq!(c[3].0, 10_000);
        assert_eq!(c[4].0, 20_000);
        // Idle: the loop restarts at the latest modeled completion (30 µs), not at the slot
        // freed at 15 µs by the first of those two.
        k.reap();
        std::thread::sleep(IDLE_RESET + Duration::from_millis(5));
        assert_eq!(s.process(&mut k.mem).unwrap(), 0);
        k.try_push_at(&[0, 1, 0, 0, 0, 0], &[]).unwrap();
        s.process(&mut k.mem).unwrap();
        assert_eq!(calls.lock().unwrap()[5].0, 30_000);
    }

    #[test]
    fn out_of_order_answers_wrap_around_with_pads_and_lose_nothing() {
        // A 1 KiB ring (9 entries) kept full for many rounds: commands answered in modeled
        // completion order (pseudo-random service times) into the slots from the tail, across
        // the ring end with PAD entries. Every id is answered exactly once, the tail never
        // passes the head, and the kernel's reaping (which follows entry lengths from its last
        // cleaned offset) stays in step with our tail.
        let mut k = FakeKernel::new(FLAG_CAP_READ_LEN);
        let (exec, _) = queued_model();
        let mut s = RingServer::new(Timed);
        s.queued = Some(exec);
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut outstanding = std::collections::BTreeSet::new();
        let mut answered = 0usize;
        for round in 0..400 {
            // Fill what fits; answers of this pass are in modeled order, not submission order.
            loop {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let d = (seed % 250) as u8 + 1;
                match k.try_push_at(&[0, d, 0, 0, 0, 0], &[]) {
                    Some((_, id)) => assert!(outstanding.insert(id), "id {id} reused in flight"),
                    None => break,
                }
            }
            // Sometimes a PAD-free TMR in between.
            if round % 37 == 0 && k.has_room(40) {
                k.push_raw(OP_TMR, &[0u8; 32], 40);
            }
            s.process(&mut k.mem).unwrap();
            let tail = k.mem.load_tail() as usize;
            assert!(tail < RING_SIZE && tail % 8 == 0);
            for (id, st) in k.reap() {
                assert_eq!(st, 0);
                assert!(
                    outstanding.remove(&id),
                    "id {id} answered twice or never sent"
                );
                answered += 1;
            }
            assert!(
                outstanding.is_empty(),
                "round {round}: {outstanding:?} unanswered"
            );
        }
        assert_eq!(s.stats.commands as usize, answered);
        assert!(s.stats.pads > 10, "{} pads", s.stats.pads);
        assert!(s.stats.out_of_order > answered as u64 / 2);
        assert_eq!(k.mem.load_tail(), k.mem.load_head());
    }

    #[test]
    fn deferred_answers_out_of_order_across_passes_with_wrap() {
        // Wall-clock deferral with commands left in flight between passes: each pass answers
        // only what is due, so slots from the tail receive answers of commands read earlier
        // or later than the slot's own, across the ring end.
        let mut k = FakeKernel::new(0);
        let mut s = RingServer::new(Timed);
        s.defer = true;
        let mut outstanding = std::collections::BTreeSet::new();
        let mut order = vec![];
        for round in 0..30u32 {
            while let Some((_, id)) = k.try_push_at(&[0, (round % 3 * 2) as u8, 0, 0, 0, 0], &[]) {
                outstanding.insert(id);
                if outstanding.len() >= 4 {
                    break;
                }
            }
            s.process(&mut k.mem).unwrap();
            for (id, _) in k.reap() {
                assert!(outstanding.remove(&id));
                order.push(id);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Drain.
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(3));
            s.process(&mut k.mem).unwrap();
            for (id, _) in k.reap() {
                assert!(outstanding.remove(&id));
                order.push(id);
            }
        }
        assert!(outstanding.is_empty(), "{outstanding:?}");
        assert!(
            order.windows(2).any(|w| w[1] < w[0]),
            "some answers out of order"
        );
        assert!(s.stats.pads > 0);
        assert_eq!(k.mem.load_tail(), k.mem.load_head());
    }

    #[test]
    fn without_defer_service_times_are_not_waited_for() {
        let mut k = FakeKernel::new(0);
        k.push_cmd(&[0, 200, 0, 0, 0, 0], &[], &[]);
        let mut s = RingServer::new(Timed);
        assert_eq!(s.process(&mut k.mem).unwrap(), 1);
        assert_eq!(s.in_flight(), 0);
    }
}

#[cfg(test)]
mod perf {
    use super::tests::*;
    use super::*;

    /// CPU time of this thread (robust against a loaded host, unlike wall time).
    fn thread_cpu() -> Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid pointer to a timespec; the clock id is a constant.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0);
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }

    /// Host-side cost of serving 4K reads from the real virtual drive through a fake ring
    /// (run with `--ignored --nocapture`): the user-space share of a TCMU command, for the
    /// plain path (`-v`, real clock) and the virtual-clock queued path `sim serve` uses by
    /// default on `clock=virtual`. The drive's FTL is built (first media command) before the
    /// clock starts; batches of 32 as the kernel queues them at QD32. Set
    /// `SGCTL_TCMU_PERF_N` for a longer run (profiling).
    #[test]
    #[ignore = "a measurement (prints the cost per command); scripts/test-all.sh runs it with --ignored"]
    fn serve_cost_per_command() {
        let n: u32 = std::env::var("SGCTL_TCMU_PERF_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000)
            .max(32);
        for (spec, queued) in [
            ("px02smf080?capacity_gib=1&clock=virtual", false),
            ("px02smf080?capacity_gib=1&clock=virtual", true),
            (
                "px02smf080?capacity_gib=1&clock=virtual&state=/tmp/perf-tcmu.state",
                true,
            ),
        ] {
            let drive = crate::sim::open(spec).unwrap();
            let mut s = RingServer::new(drive.port(1));
            if queued {
                let mut q = drive.port(1);
                s.queued = Some(Box::new(move |c: &[u8], d: DataBuf<'_>, t, at| {
                    q.execute_queued(c, d, t, at)
                }));
            }
            let mut k = FakeKernel::with_sizes(FLAG_CAP_READ_LEN, 64 * 1024, 32 * 4096);
            let mut lba = 1u32;
            let mut batch = |k: &mut FakeKernel, s: &mut RingServer<_>| {
                k.recycle_data();
                for _ in 0..32 {
                    lba = lba.wrapping_mul(1_103_515_245).wrapping_add(12345) % 200_000;
                    let b = lba.to_be_bytes();
                    k.push_cmd(&[0x28, 0, b[0], b[1], b[2], b[3], 0, 0, 8, 0], &[4096], &[]);
                }
                // (PAD entries at the ring's end count as moved entries too.)
                assert!(s.process(&mut k.mem).unwrap() >= 32);
                assert_eq!(k.reap().len(), 32);
            };
            // Warm-up: the FTL is built on the first media command.
            batch(&mut k, &mut s);
            let t = Instant::now();
            let cpu0 = thread_cpu();
            for _ in 0..n / 32 {
                batch(&mut k, &mut s);
            }
            let count = n / 32 * 32;
            let per = t.elapsed() / count;
            let cpu = thread_cpu().saturating_sub(cpu0) / count;
            let path = if queued { "queued" } else { "plain" };
            eprintln!(
                "{spec} ({path}): {per:?} wall, {cpu:?} CPU per 4K read \
                 (server and fake kernel)"
            );
        }
    }
}

#[cfg(test)]
mod closed_loop {
    use super::tests::*;
    use super::*;

    /// QD32 closed loop of 4K writes or reads on a fake ring (run with `--ignored
    /// --nocapture`): wall-clock deferral on a real-clock drive, and virtual-clock service.
    #[test]
    #[ignore = "a measurement (prints IOPS and out-of-order counts); scripts/test-all.sh runs it with --ignored"]
    fn qd32_closed_loop() {
        for (spec, write) in [
            ("px02smf080?capacity_gib=1", false),
            ("px02smf080?capacity_gib=1", true),
            ("px02smf080?capacity_gib=1&clock=virtual", false),
            ("px02smf080?capacity_gib=1&clock=virtual", true),
        ] {
            let drive = crate::sim::open(spec).unwrap();
            let virt = drive.clock().mode() == crate::sim::ClockMode::Virtual;
            drive.set_deferred_service(!virt);
            let mut s = RingServer::new(drive.port(1));
            s.defer = !virt;
            if virt {
                let mut q = drive.port(1);
                s.queued = Some(Box::new(move |c: &[u8], d: DataBuf<'_>, t, at| {
                    q.execute_queued(c, d, t, at)
                }));
            }
            let mut k = FakeKernel::with_sizes(FLAG_CAP_READ_LEN, 64 * 1024, 32 * 4096);
            let data0 = RING_OFF + 64 * 1024;
            let mut free: Vec<usize> = (0..32).collect();
            let mut slot_of = std::collections::HashMap::new();
            let mut lba = 1u32;
            let t = Instant::now();
            let mut done = 0u64;
            let op = if write { 0x2a } else { 0x28 };
            while t.elapsed() < Duration::from_secs(1) {
                while let Some(slot) = free.pop() {
                    lba = lba.wrapping_mul(1_103_515_245).wrapping_add(12345) % 200_000;
                    let b = lba.to_be_bytes();
                    let cdb = [op, 0, b[0], b[1], b[2], b[3], 0, 0, 8, 0];
                    let (_, id) = k.try_push_at(&cdb, &[(data0 + slot * 4096, 4096)]).unwrap();
                    slot_of.insert(id, slot);
                }
                if let Some(due) = s.next_due() {
                    std::thread::sleep(due.saturating_duration_since(Instant::now()));
                }
                s.process(&mut k.mem).unwrap();
                for (id, st) in k.reap() {
                    assert_eq!(st, 0);
                    free.push(slot_of.remove(&id).unwrap());
                    done += 1;
                }
            }
            let wall = t.elapsed().as_secs_f64();
            let modeled = if virt {
                format!(
                    ", modeled {:.0} IOPS",
                    done as f64 / (s.max_done as f64 / 1e9)
                )
            } else {
                String::new()
            };
            eprintln!(
                "{spec} {}: {:.0} IOPS wall{modeled}, {} out of order",
                if write { "write" } else { "read" },
                done as f64 / wall,
                s.stats.out_of_order
            );
        }
    }
}
