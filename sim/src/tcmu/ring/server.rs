//! The loop that answers every ring entry from a [`Transport`], in order or on the virtual
//! clock, and the answer written back for each.

use super::*;
use crate::error::Error;
use crate::sense::{build_fixed, SenseKey};
use crate::transport::{status, Completion, DataBuf, Transport};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

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
pub(crate) type TmrHandler = Box<dyn FnMut(&Tmr) + Send>;

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
pub(crate) const IDLE_RESET: Duration = Duration::from_millis(20);

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
    pub(super) max_done: u64,
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
    pub(super) buf: Vec<u8>,
    due: Vec<Pending>,
}

/// How early an answer may be written to batch it with others (see [`RingServer::process`]).
pub(crate) const ANSWER_SLACK: Duration = Duration::from_micros(50);

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
pub(crate) const MAX_CDB: usize = 32;

/// A command entry read from the ring, before it is executed; its data iovecs are in
/// [`RingServer`]'s scratch list.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct CmdReq {
    pub(super) cdb: [u8; MAX_CDB],
    pub(super) cdb_len: usize,
    pub(super) total: usize,
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
    pub(crate) fn has_new(&self, m: &dyn RingMem) -> bool {
        self.next.is_none_or(|n| m.load_head() as usize != n)
    }

    /// When the earliest unanswered command is due.
    pub(crate) fn next_due(&self) -> Option<Instant> {
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
            HDR_CMD_ID.set(m, entry, p.cmd_id);
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
        let cmd_id = HDR_CMD_ID.get(m, entry).unwrap_or(0);
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
        RSP_SCSI_STATUS.set(m, entry, st);
        RSP_SENSE.set(m, entry, s);
        let mut uflags = HDR_UFLAGS.get(m, entry).unwrap_or(0);
        uflags &= !(UFLAG_READ_LEN | UFLAG_UNKNOWN_OP);
        match read_len {
            Some(l) if mb.flags & FLAG_CAP_READ_LEN != 0 => {
                RSP_READ_LEN.set(m, entry, l);
                uflags |= UFLAG_READ_LEN;
            }
            _ => {
                RSP_READ_LEN.set(m, entry, 0);
            }
        }
        HDR_UFLAGS.set(m, entry, uflags);
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

/// The answer to give the kernel for a model completion. TCMU can return only a SCSI status
/// and sense, so a host byte from the model (fault injection) becomes ABORTED COMMAND, which
/// initiators retry, as a transport hiccup would be.
pub(crate) fn completion_to_answer(c: &Completion) -> (u8, Vec<u8>) {
    if c.host_status != 0 {
        return (
            status::CHECK_CONDITION,
            build_fixed(SenseKey::AbortedCommand, 0x00, 0x00),
        );
    }
    (c.status, c.sense.clone())
}
