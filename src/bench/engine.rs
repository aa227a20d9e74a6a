//! The engine seam ([`Engine`]), the address → engine factory ([`open`]) and the scheduling
//! core every engine shares (`JobCore`): which I/O comes next, when the run stops, the data
//! each write carries, `--verify` bookkeeping, and the statistics of each completion. The
//! engines only move bytes (io_uring, sg write()/read(), the simulator's virtual clock).

use super::data::{self, VerifyMap};
use super::stats::{
    self, Interval, IntervalMerger, IoErrorRecord, Recorder, RunResult, SenseCode, VerifyFailure,
    VerifyStats,
};
use super::workload::{DataPattern, IoGen, IoReq, Limit, Range, Rng, Workload};
use crate::ops::gate::Cleared;
use crate::transport::Completion;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The run's stop request: set by the caller's SIGINT handler (`sgctl bench run` registers
/// it), it makes every job stop submitting; what is outstanding is reaped and the run returns
/// its partial results.
pub(crate) fn interrupt_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Whether `interrupt_flag` was set.
pub fn interrupted() -> bool {
    interrupt_flag().load(Ordering::Relaxed)
}

/// Errors of a benchmark run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A bad option or a workload the device cannot take (exit 2).
    #[error("{0}")]
    InvalidArgument(String),
    /// The device could not be opened or identified.
    #[error("{0}")]
    Open(#[source] crate::Error),
    /// Not possible on this device or kernel (exit 7).
    #[error("not supported: {0}")]
    Unsupported(String),
    /// A write workload without the safety gate's authorization (exit 6).
    #[error("refused: {0}")]
    Refused(String),
    /// The device failed mid-run: the run stopped; `partial` holds what was measured, with
    /// the decoded errors (exit 4).
    #[error("{error}")]
    DeviceFailed {
        /// One line: the first error, decoded.
        error: String,
        /// Results up to the failure.
        partial: Box<RunResult>,
    },
    /// Any other OS error (exit 1).
    #[error("{0}")]
    Os(String),
    /// An error of the session around the engine (the safety gate, the audit records, the
    /// report files), with its own exit status.
    #[error("{0}")]
    Session(#[source] crate::Error),
}

impl From<crate::Error> for BenchError {
    fn from(e: crate::Error) -> BenchError {
        BenchError::Session(e)
    }
}

impl BenchError {
    /// The process exit code (see [`crate::exit`]).
    pub fn exit_code(&self) -> u8 {
        use crate::exit;
        match self {
            BenchError::InvalidArgument(_) => exit::USAGE,
            BenchError::Open(e) => e.exit_code(),
            BenchError::Unsupported(_) => exit::UNSUPPORTED,
            BenchError::Refused(_) => exit::REFUSED,
            BenchError::DeviceFailed { .. } => exit::COMMAND,
            BenchError::Os(_) => exit::OTHER,
            BenchError::Session(e) => e.exit_code(),
        }
    }

    /// The partial results of a run that failed mid-way.
    pub fn partial(&self) -> Option<&RunResult> {
        match self {
            BenchError::DeviceFailed { partial, .. } => Some(partial),
            _ => None,
        }
    }
}

/// Proof that the safety gate cleared a writing workload on a drive: only
/// `Authorization::from_cleared` makes one, and that needs the gate's [`Cleared`].
#[derive(Debug, Clone)]
pub struct Authorization {
    job_id: String,
    address: String,
}

impl Authorization {
    /// The authorization for `address` from a cleared gate.
    pub(crate) fn from_cleared(c: &Cleared, address: &str) -> Authorization {
        Authorization {
            job_id: c.job_id.clone(),
            address: address.to_string(),
        }
    }

    /// The gate's job id (in the audit records).
    pub fn job_id(&self) -> &str {
        &self.job_id
    }

    /// The address it was granted for.
    pub fn address(&self) -> &str {
        &self.address
    }
}

/// An I/O engine on one device. The suites never know which one runs.
pub trait Engine: Send {
    /// `uring`, `sg` or `sim`.
    fn name(&self) -> &'static str;
    /// Capacity in bytes (user data; PI bytes excluded).
    fn capacity_bytes(&self) -> u64;
    /// Logical block length in bytes.
    fn block_len(&self) -> u32;
    /// The SCSI target the engine already holds, for read-only commands (identity, the
    /// Caching page) before a run: a device that allows one opener (a `sim:` drive with a
    /// `state=` file) is then not opened a second time. `None`: the caller opens the device
    /// itself (a block node or a sg node may be opened again).
    fn transport(&mut self) -> Option<&mut dyn crate::Transport> {
        None
    }
    /// Runs one workload; `progress` gets each interval of the time series as it ends.
    fn run(
        &mut self,
        w: &Workload,
        progress: &mut dyn FnMut(&Interval),
    ) -> Result<RunResult, BenchError>;
}

/// Which engine to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineKind {
    /// uring on a block node (or file) with a power-of-two block length, sg otherwise and on
    /// sg nodes, sim on `sim:` addresses.
    Auto,
    /// io_uring with O_DIRECT.
    Uring,
    /// SCSI READ/WRITE(16)/(32) through /dev/sgN's asynchronous interface.
    Sg,
    /// The virtual drive on its virtual clock.
    Sim,
}

impl EngineKind {
    /// Parses `auto|uring|sg|sim`.
    pub fn parse(s: &str) -> Result<EngineKind, String> {
        Ok(match s {
            "auto" => EngineKind::Auto,
            "uring" | "io_uring" => EngineKind::Uring,
            "sg" => EngineKind::Sg,
            "sim" => EngineKind::Sim,
            o => return Err(format!("--engine {o}: expected auto, uring, sg or sim")),
        })
    }

    /// The name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Auto => "auto",
            EngineKind::Uring => "uring",
            EngineKind::Sg => "sg",
            EngineKind::Sim => "sim",
        }
    }
}

/// Opens the engine for `addr`. `writable` is the gate's authorization; without it the
/// engine refuses workloads that write.
pub fn open(
    addr: &str,
    kind: EngineKind,
    writable: Option<&Authorization>,
) -> Result<Box<dyn Engine>, BenchError> {
    if let Some(a) = writable {
        if a.address() != addr {
            return Err(BenchError::Refused(format!(
                "the authorization is for {}, not {addr}",
                a.address()
            )));
        }
    }
    let is_sim = crate::device::is_virtual_address(addr);
    match (kind, is_sim) {
        (EngineKind::Sim | EngineKind::Auto, true) => open_sim(addr, writable.is_some()),
        (EngineKind::Sim, false) => Err(BenchError::InvalidArgument(format!(
            "--engine sim needs a sim: address, not {addr}"
        ))),
        (_, true) => Err(BenchError::InvalidArgument(format!(
            "{addr}: a virtual drive runs only with --engine sim (or auto)"
        ))),
        (k, false) => super::open_real(addr, k, writable.is_some()),
    }
}

/// The sim engine on a virtual drive (the `sim` feature).
#[cfg(feature = "sim")]
fn open_sim(addr: &str, writable: bool) -> Result<Box<dyn Engine>, BenchError> {
    Ok(Box::new(super::sim::SimEngine::open(addr, writable)?))
}

/// Built without the virtual drive: refused like any address the factory cannot open.
#[cfg(not(feature = "sim"))]
fn open_sim(addr: &str, _writable: bool) -> Result<Box<dyn Engine>, BenchError> {
    Err(BenchError::Open(crate::device::without_sim(addr)))
}

/// Refuses a writing workload without authorization.
pub(crate) fn require_writable(w: &Workload, writable: bool, addr: &str) -> Result<(), BenchError> {
    if w.writes() && !writable {
        return Err(BenchError::Refused(format!(
            "{addr}: a workload that writes needs the safety gate (--confirm naming the drive)"
        )));
    }
    Ok(())
}

/// A failed I/O as the engine saw it.
#[derive(Debug, Clone)]
pub struct IoFailure {
    /// Counting key: `sense 03/11/00`, `errno EIO`, `host DID_NO_CONNECT`, `status BUSY`.
    pub kind: String,
    /// One line.
    pub error: String,
    /// Sense code when there was sense data.
    pub sense: Option<SenseCode>,
    /// The sense INFORMATION field.
    pub info: Option<u64>,
}

impl IoFailure {
    /// From an errno (io_uring CQE result, write()/read() failure).
    pub fn errno(e: nix::errno::Errno) -> IoFailure {
        IoFailure {
            kind: format!("errno {e:?}"),
            error: format!("{e:?}: {}", e.desc()),
            sense: None,
            info: None,
        }
    }

    /// From a SCSI completion that is not GOOD; `None` when it is.
    pub(crate) fn from_completion(c: &Completion) -> Option<IoFailure> {
        let e = crate::transport::check(c).err()?;
        Some(IoFailure::from_error(&e))
    }

    /// From a library error.
    pub(crate) fn from_error(e: &crate::Error) -> IoFailure {
        match e {
            crate::Error::Sense(s) => IoFailure {
                kind: format!("sense {:02x}/{:02x}/{:02x}", s.key.code(), s.asc, s.ascq),
                error: s.summary(),
                sense: Some(SenseCode {
                    key: s.key.code(),
                    asc: s.asc,
                    ascq: s.ascq,
                }),
                info: s.information,
            },
            crate::Error::Host { status } => IoFailure {
                kind: format!("host {}", status.name()),
                error: e.to_string(),
                sense: None,
                info: None,
            },
            crate::Error::Status { status } => IoFailure {
                kind: format!("status {}", crate::error::status_name(*status)),
                error: e.to_string(),
                sense: None,
                info: None,
            },
            crate::Error::Timeout => IoFailure {
                kind: "timeout".into(),
                error: e.to_string(),
                sense: None,
                info: None,
            },
            other => IoFailure {
                kind: "other".into(),
                error: other.to_string(),
                sense: None,
                info: None,
            },
        }
    }
}

/// How an engine saw one I/O end, before it becomes a verdict ([`verdict`]).
pub enum Outcome<'a> {
    /// Bytes transferred, or a negative errno (an io_uring CQE result).
    Res(i32),
    /// A SCSI completion (sg, sim): status, sense data, host status, residual.
    Scsi(&'a Completion),
    /// The command did not complete (a transport error).
    Failed(IoFailure),
}

/// The verdict on one I/O: an error when the engine's outcome is an errno, a transfer short
/// of `req.len`, a SCSI status other than GOOD (sense decoded), or a read residual.
pub fn verdict(req: &IoReq, outcome: Outcome<'_>) -> Result<(), IoFailure> {
    let short = |error: String| IoFailure {
        kind: "short transfer".into(),
        error,
        sense: None,
        info: None,
    };
    match outcome {
        Outcome::Res(res) if res < 0 => Err(IoFailure::errno(nix::errno::Errno::from_raw(-res))),
        Outcome::Res(res) if res as u32 != req.len => {
            Err(short(format!("short transfer: {res} of {} bytes", req.len)))
        }
        Outcome::Res(_) => Ok(()),
        Outcome::Scsi(c) => match IoFailure::from_completion(c) {
            Some(f) => Err(f),
            None if !req.write && c.resid > 0 => {
                Err(short(format!("residual {} of {} bytes", c.resid, req.len)))
            }
            None => Ok(()),
        },
        Outcome::Failed(f) => Err(f),
    }
}

/// One I/O in flight.
#[derive(Debug, Clone)]
pub struct InFlight {
    /// What was asked.
    pub req: IoReq,
    /// Submission time, ns on the job's clock.
    pub submit_ns: u64,
    /// `--verify` reads: the sequence numbers expected at submission.
    pub expect: Vec<Option<u64>>,
}

/// The scheduling and statistics core of one job, shared by every engine.
pub(crate) struct JobCore {
    gen: IoGen,
    /// Statistics.
    pub rec: Recorder,
    block_len: u32,
    deadline: Option<u64>,
    measure_from: u64,
    bytes_left: Option<u64>,
    stopped: bool,
    continue_on_error: bool,
    verify: Option<Arc<Mutex<VerifyMap>>>,
    /// `--verify` counts.
    pub vstats: VerifyStats,
    pattern: DataPattern,
    rng: Rng,
    /// The first error that stopped the run.
    pub fatal: Option<String>,
    last_reap: u64,
    interrupt: Arc<AtomicBool>,
}

impl JobCore {
    /// The core of job `job` (0-based). `verify` is shared by all jobs of the run.
    pub(crate) fn new(
        w: &Workload,
        range: Range,
        job: u32,
        block_len: u32,
        verify: Option<Arc<Mutex<VerifyMap>>>,
    ) -> JobCore {
        let ramp = w.ramp.as_nanos() as u64;
        let (deadline, bytes_left) = match w.limit {
            Limit::Runtime(d) => (Some(ramp + d.as_nanos() as u64), None),
            Limit::Bytes(b) => {
                let jobs = u64::from(w.jobs.max(1));
                let share = b / jobs + u64::from(u64::from(job) < b % jobs);
                (None, Some(share))
            }
        };
        JobCore {
            gen: IoGen::new(w, range, job),
            rec: {
                let mut r = Recorder::new(ramp, w.log_interval.as_nanos() as u64);
                // I/Os that complete after the runtime (the drain) belong to the last interval.
                if let Limit::Runtime(d) = w.limit {
                    let n = d.as_nanos().div_ceil(w.log_interval.as_nanos().max(1)) as u64;
                    r.max_idx = Some(n.saturating_sub(1));
                }
                r
            },
            block_len: block_len.max(1),
            deadline,
            measure_from: ramp,
            bytes_left,
            stopped: false,
            continue_on_error: w.continue_on_error,
            verify,
            vstats: VerifyStats::default(),
            pattern: w.pattern.clone(),
            rng: Rng::new(w.seed.wrapping_mul(31).wrapping_add(u64::from(job) + 7)),
            fatal: None,
            last_reap: 0,
            interrupt: interrupt_flag().clone(),
        }
    }

    /// Fills a newly allocated I/O buffer with the data pattern.
    pub(crate) fn init_buffer(&mut self, buf: &mut [u8]) {
        data::fill(buf, &self.pattern, &mut self.rng);
    }

    /// The next I/O to submit at `now`, or `None` when the run is over for this job.
    #[inline]
    pub(crate) fn next(&mut self, now: u64) -> Option<IoReq> {
        if self.stopped {
            return None;
        }
        if self.interrupt.load(Ordering::Relaxed) {
            self.stopped = true;
            return None;
        }
        if self.deadline.is_some_and(|d| now >= d) {
            self.stopped = true;
            return None;
        }
        let req = self.gen.next_io();
        if let Some(left) = self.bytes_left.as_mut() {
            if now >= self.measure_from {
                if *left == 0 {
                    self.stopped = true;
                    return None;
                }
                *left = left.saturating_sub(u64::from(req.len));
            }
        }
        Some(req)
    }

    /// Stops submitting (the device failed, or the caller was interrupted).
    pub(crate) fn stop(&mut self) {
        self.stopped = true;
    }

    /// Whether the job has stopped submitting.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Prepares the buffer of `req` (len bytes) before submission: write data and verify
    /// headers, or the expectations of a verified read.
    #[inline]
    pub(crate) fn prepare(&mut self, req: &IoReq, buf: &mut [u8], now: u64) -> InFlight {
        let mut expect = Vec::new();
        let lba = req.offset / u64::from(self.block_len);
        if req.write {
            if self.pattern == DataPattern::Random {
                data::scramble(buf, &mut self.rng);
            }
            if let Some(v) = &self.verify {
                let mut m = v.lock().unwrap_or_else(|e| e.into_inner());
                m.begin_write(buf, lba, self.block_len as usize);
            }
        } else if let Some(v) = &self.verify {
            let m = v.lock().unwrap_or_else(|e| e.into_inner());
            expect = m.expect(lba, u64::from(req.len / self.block_len));
        }
        InFlight {
            req: *req,
            submit_ns: now,
            expect,
        }
    }

    /// Accounts a completion at `now`: `result` is the engine's verdict, `buf` the data (for
    /// verified reads).
    #[inline]
    pub(crate) fn complete(
        &mut self,
        now: u64,
        io: &InFlight,
        buf: &[u8],
        result: Result<(), IoFailure>,
    ) {
        let req = &io.req;
        let bl = u64::from(self.block_len);
        let lba = req.offset / bl;
        let blocks = u64::from(req.len) / bl;
        if let Some(v) = &self.verify {
            let mut m = v.lock().unwrap_or_else(|e| e.into_inner());
            if req.write {
                m.end_write(lba, blocks);
            } else if result.is_ok() {
                let (c, u, bad) = m.check_read(buf, lba, bl as usize, &io.expect);
                self.vstats.blocks_checked += c;
                self.vstats.blocks_unwritten += u;
                for (l, reason) in bad {
                    self.vstats.failures += 1;
                    if self.vstats.first_failures.len() < stats::FIRST_ERRORS {
                        self.vstats
                            .first_failures
                            .push(VerifyFailure { lba: l, reason });
                    }
                }
            }
        }
        match result {
            Ok(()) => self
                .rec
                .record(now, req.write, req.len, now.saturating_sub(io.submit_ns)),
            Err(f) => {
                let rec = IoErrorRecord {
                    t_s: self.rec.t_s(now),
                    op: if req.write { "write" } else { "read" }.into(),
                    offset: req.offset,
                    lba,
                    len: req.len,
                    error: f.error.clone(),
                    sense: f.sense,
                    info: f.info,
                };
                if self.fatal.is_none() && !self.continue_on_error {
                    self.fatal = Some(format!(
                        "{} of {} bytes at LBA {lba} failed: {}",
                        rec.op, req.len, f.error
                    ));
                    self.stopped = true;
                }
                self.rec.record_error(now, f.kind, rec);
            }
        }
    }

    /// Accounts the end of `io` at `now` the same way for every engine: the engine's
    /// `outcome` becomes the [`verdict`], then [`JobCore::complete`] with the first
    /// `io.req.len` bytes of the slot's buffer `buf`.
    #[inline]
    pub(crate) fn reap(&mut self, now: u64, io: &InFlight, buf: &[u8], outcome: Outcome<'_>) {
        let result = verdict(&io.req, outcome);
        let len = (io.req.len as usize).min(buf.len());
        self.complete(now, io, &buf[..len], result);
        self.last_reap = self.last_reap.max(now);
    }

    /// The time of the latest [`JobCore::reap`] (0 before any).
    pub(crate) fn last_reap(&self) -> u64 {
        self.last_reap
    }

    /// Finished interval parts to hand to the merger.
    pub(crate) fn take_parts(&mut self) -> Vec<stats::IntervalPart> {
        std::mem::take(&mut self.rec.done)
    }
}

/// What a job hands back at the end.
pub(crate) struct JobOutcome {
    /// Its statistics.
    pub rec: Recorder,
    /// Its verify counts.
    pub vstats: VerifyStats,
    /// The error that stopped it.
    pub fatal: Option<String>,
    /// Notes for the report.
    pub notes: Vec<String>,
    /// Nanoseconds the job thread waited for a CPU while runnable (filled by
    /// [`run_threads`]).
    pub cpu_wait_ns: Option<u64>,
}

impl JobCore {
    /// Ends the job at `now` (its last completion).
    pub(crate) fn finish(mut self, now: u64, notes: Vec<String>) -> JobOutcome {
        self.rec.finish(now);
        JobOutcome {
            rec: self.rec,
            vstats: self.vstats,
            fatal: self.fatal,
            notes,
            cpu_wait_ns: None,
        }
    }
}

/// Builds the run result from the jobs' outcomes (intervals already merged by the caller).
pub(crate) fn assemble(
    w: &Workload,
    outcomes: Vec<JobOutcome>,
    intervals: Vec<Interval>,
    meta: (&str, &str, u32),
) -> Result<RunResult, BenchError> {
    let ramp = w.ramp.as_nanos() as u64;
    let last = outcomes.iter().map(|o| o.rec.last_ns).max().unwrap_or(0);
    let elapsed_s = last.saturating_sub(ramp) as f64 / 1e9;
    let recs: Vec<Recorder> = Vec::new();
    let mut recs = recs;
    let mut verify = w.verify.then(VerifyStats::default);
    let mut fatal = None;
    let mut notes = Vec::new();
    let cpu_wait: Option<u64> = outcomes.iter().map(|o| o.cpu_wait_ns).sum();
    // A job thread that spent a noticeable part of the run runnable but off-CPU measured a
    // busy machine, not only the device: say so (the fio comparison's swings came from this).
    if let Some(wait) = cpu_wait.filter(|_| meta.0 != "sim") {
        let jobs = outcomes.len().max(1) as f64;
        let share = wait as f64 / 1e9 / jobs / (last as f64 / 1e9).max(1e-9);
        if share >= 0.05 {
            // With autogroup scheduling the job threads of this one process share one CPU
            // share, where fio's jobs (one process each, each calling setsid()) get one each.
            let autogroup = outcomes.len() > 1
                && std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled")
                    .is_ok_and(|v| v.trim() == "1");
            notes.push(format!(
                "the job threads waited {:.2} s for a CPU while runnable ({:.0} % of the run per \
                 job): other load on this machine lowered the figures{}",
                wait as f64 / 1e9,
                share * 100.0,
                if autogroup {
                    "; with sched_autogroup_enabled=1 the job threads share one scheduling \
                     group, where fio's jobs get one each (docs/bench-engine.md, Scheduling)"
                } else {
                    ""
                }
            ));
        }
    }
    for o in outcomes {
        if let Some(v) = verify.as_mut() {
            v.blocks_checked += o.vstats.blocks_checked;
            v.blocks_unwritten += o.vstats.blocks_unwritten;
            v.failures += o.vstats.failures;
            for f in o.vstats.first_failures {
                if v.first_failures.len() < stats::FIRST_ERRORS {
                    v.first_failures.push(f);
                }
            }
        }
        if fatal.is_none() {
            fatal = o.fatal;
        }
        for n in o.notes {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        recs.push(o.rec);
    }
    let mut r = stats::summarize(&recs, elapsed_s);
    r.engine = meta.0.to_string();
    r.device = meta.1.to_string();
    r.block_len = meta.2;
    r.intervals = intervals;
    r.verify = verify;
    r.notes = notes;
    if let Some(e) = fatal {
        r.partial = true;
        r.stop_reason = Some(e.clone());
        return Err(BenchError::DeviceFailed {
            error: e,
            partial: Box::new(r),
        });
    }
    Ok(r)
}

/// Message from a job thread to the collecting thread.
pub(crate) enum JobMsg {
    /// An interval part.
    Part(stats::IntervalPart),
}

/// What [`run_threads`] returns: the jobs' outcomes, the merged time series, and the
/// process's (user, system) CPU seconds over the run.
pub(crate) type Threads = (Vec<JobOutcome>, Vec<Interval>, Option<(f64, f64)>);

/// Runs `jobs` threads of `body` (one per job, each with its core and a channel for interval
/// parts) and merges their time series live, calling `progress` per interval. The bodies
/// return their outcome; a body that fails to start returns `Err`.
pub(crate) fn run_threads<F>(
    w: &Workload,
    range: Range,
    block_len: u32,
    progress: &mut dyn FnMut(&Interval),
    body: F,
) -> Result<Threads, BenchError>
where
    F: Fn(u32, JobCore, std::sync::mpsc::Sender<JobMsg>) -> Result<JobOutcome, BenchError> + Sync,
{
    let verify = w.verify.then(|| Arc::new(Mutex::new(VerifyMap::default())));
    let (tx, rx) = std::sync::mpsc::channel::<JobMsg>();
    let mut merger = IntervalMerger::new(w.jobs, w.log_interval.as_secs_f64());
    let mut intervals = Vec::new();
    let cpu0 = stats::cpu_times();
    let results = std::thread::scope(|s| {
        let handles: Vec<_> = (0..w.jobs)
            .map(|j| {
                let core = JobCore::new(w, range, j, block_len, verify.clone());
                let tx = tx.clone();
                let body = &body;
                s.spawn(move || {
                    let wait0 = stats::run_queue_wait_ns();
                    let mut r = body(j, core, tx);
                    if let (Ok(o), Some(a), Some(b)) =
                        (r.as_mut(), wait0, stats::run_queue_wait_ns())
                    {
                        o.cpu_wait_ns = Some(b.saturating_sub(a));
                    }
                    r
                })
            })
            .collect();
        drop(tx);
        for JobMsg::Part(p) in rx.iter() {
            for i in merger.add(p) {
                progress(&i);
                intervals.push(i);
            }
        }
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(BenchError::Os("a job thread panicked".into())))
            })
            .collect::<Vec<_>>()
    });
    let cpu1 = stats::cpu_times();
    let mut outcomes = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    for o in outcomes.iter_mut() {
        for p in o.rec.done.drain(..) {
            for i in merger.add(p) {
                progress(&i);
                intervals.push(i);
            }
        }
    }
    for i in merger.flush() {
        progress(&i);
        intervals.push(i);
    }
    let cpu = match (cpu0, cpu1) {
        (Some(a), Some(b)) => Some((b.0 - a.0, b.1 - a.1)),
        _ => None,
    };
    Ok((outcomes, intervals, cpu))
}

/// Adds CPU figures (measured over the whole run, ramp included) to a result.
pub(crate) fn add_cpu(r: &mut RunResult, cpu: Option<(f64, f64)>) {
    if let Some((u, s)) = cpu {
        let n = (r.ios + r.ramp_ios).max(1) as f64;
        r.cpu_user_s = Some(u);
        r.cpu_sys_s = Some(s);
        r.cpu_s_per_io = Some((u + s) / n);
    }
}

/// Applies `f` to the result inside either outcome.
pub(crate) fn map_result(
    r: Result<RunResult, BenchError>,
    f: impl FnOnce(&mut RunResult),
) -> Result<RunResult, BenchError> {
    match r {
        Ok(mut x) => {
            f(&mut x);
            Ok(x)
        }
        Err(BenchError::DeviceFailed { error, mut partial }) => {
            f(&mut partial);
            Err(BenchError::DeviceFailed { error, partial })
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(write: bool) -> IoReq {
        IoReq {
            write,
            offset: 4096,
            len: 4096,
        }
    }

    #[test]
    fn verdicts_of_every_engine_outcome() {
        assert!(verdict(&req(false), Outcome::Res(4096)).is_ok());
        let e = verdict(&req(false), Outcome::Res(-libc::EIO)).unwrap_err();
        assert_eq!(e.kind, "errno EIO");
        let e = verdict(&req(true), Outcome::Res(512)).unwrap_err();
        assert_eq!(e.kind, "short transfer");
        assert!(e.error.contains("512 of 4096"), "{}", e.error);
        let good = Completion::default();
        assert!(verdict(&req(false), Outcome::Scsi(&good)).is_ok());
        let short = Completion {
            resid: 1024,
            ..Completion::default()
        };
        let e = verdict(&req(false), Outcome::Scsi(&short)).unwrap_err();
        assert!(e.error.contains("residual 1024 of 4096"), "{}", e.error);
        // MEDIUM ERROR, UNRECOVERED READ ERROR (fixed format), INFORMATION = 9.
        let mut sense = vec![0u8; 18];
        sense[0] = 0xf0;
        sense[2] = 0x03;
        sense[3..7].copy_from_slice(&9u32.to_be_bytes());
        sense[7] = 10;
        sense[12] = 0x11;
        let bad = Completion {
            status: 0x02,
            sense,
            ..Completion::default()
        };
        let e = verdict(&req(false), Outcome::Scsi(&bad)).unwrap_err();
        assert_eq!(e.kind, "sense 03/11/00");
        assert_eq!(e.info, Some(9));
        let f = IoFailure::errno(nix::errno::Errno::ENODEV);
        assert_eq!(
            verdict(&req(true), Outcome::Failed(f)).unwrap_err().kind,
            "errno ENODEV"
        );
    }
}
