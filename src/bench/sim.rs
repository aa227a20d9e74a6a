//! The `sim` engine: a `sim:` virtual drive on its virtual clock. Every I/O is a real
//! READ(16)/WRITE(16) CDB through the drive's SCSI target (range checks, PI formats, faults,
//! sense data, the stored bytes `--verify` reads back); the closed loop at queue depth N is
//! an event queue on the drive's clock, so commands overlap in the media model exactly as
//! the drive's queues allow and an hour of drive time takes as long as the model needs to
//! compute it. Scheduling and statistics are the shared `JobCore`.

use super::data::VerifyMap;
use super::engine::{
    assemble, require_writable, verdict, BenchError, Engine, InFlight, IoFailure, JobCore,
    JobOutcome, Outcome,
};
use super::stats::{Interval, IntervalMerger, RunResult};
use super::workload::{DataPattern, Workload};
use crate::scsi::read_write;
use crate::sim::SimDevice;
use crate::transport::DataBuf;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The byte every block of a plain run's writes is filled with (see `submit`).
pub(crate) const PLAIN_FILL: u8 = 0xa5;

/// Command timeout on the virtual clock.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A virtual drive opened for benchmarking.
pub struct SimEngine {
    dev: SimDevice,
    address: String,
    capacity: u64,
    block_len: u32,
    writable: bool,
    /// This run writes one-byte fills instead of random blocks (see `run`).
    compact: bool,
}

impl SimEngine {
    /// Opens `sim:PROFILE[?opts]` on a virtual clock (`clock=virtual` is added; a
    /// `clock=real` address is refused: the engine's time is the drive's).
    pub fn open(addr: &str, writable: bool) -> Result<SimEngine, BenchError> {
        let parsed = crate::device::classify_address(addr).virtual_spec();
        let spec = parsed.map_or(addr, |v| v.as_str());
        let opts = || parsed.into_iter().flat_map(|v| v.options());
        if opts().any(|kv| kv == ("clock", "real")) {
            return Err(BenchError::InvalidArgument(format!(
                "{addr}: the sim engine runs on the drive's virtual clock; drop clock=real"
            )));
        }
        let spec = if opts().any(|(k, _)| k == "clock") {
            spec.to_string()
        } else if spec.contains('?') {
            format!("{spec}&clock=virtual")
        } else {
            format!("{spec}?clock=virtual")
        };
        let dev = crate::sim::open(&spec).map_err(BenchError::Open)?;
        SimEngine::from_device(dev, addr, writable)
    }

    /// Benchmarks a drive already open on its virtual clock (prepared first through another
    /// handle: [`SimDevice::port`]); `addr` is the address the reports name.
    pub(crate) fn from_device(
        mut dev: SimDevice,
        addr: &str,
        writable: bool,
    ) -> Result<SimEngine, BenchError> {
        let cap = crate::ops::query::read_capacity16(&mut dev).map_err(BenchError::Open)?;
        let capacity = (cap.last_lba + 1).saturating_mul(u64::from(cap.block_len));
        Ok(SimEngine {
            dev,
            address: addr.to_string(),
            capacity,
            block_len: cap.block_len,
            writable,
            compact: false,
        })
    }

    /// The drive (to inject faults in tests).
    pub fn device(&self) -> &SimDevice {
        &self.dev
    }
}

struct Slot {
    job: usize,
    io: InFlight,
    buf: Vec<u8>,
    result: Result<(), IoFailure>,
}

impl Engine for SimEngine {
    fn name(&self) -> &'static str {
        "sim"
    }

    fn capacity_bytes(&self) -> u64 {
        self.capacity
    }

    fn block_len(&self) -> u32 {
        self.block_len
    }

    fn transport(&mut self) -> Option<&mut dyn crate::Transport> {
        Some(&mut self.dev)
    }

    fn run(
        &mut self,
        w: &Workload,
        progress: &mut dyn FnMut(&Interval),
    ) -> Result<RunResult, BenchError> {
        require_writable(w, self.writable, &self.address)?;
        let range = w
            .check(self.capacity, self.block_len)
            .map_err(BenchError::InvalidArgument)?;
        let bl = self.block_len;
        let verify = w.verify.then(|| Arc::new(Mutex::new(VerifyMap::default())));
        let mut jobs: Vec<JobCore> = (0..w.jobs)
            .map(|j| JobCore::new(w, range, j, bl, verify.clone()))
            .collect();
        let mut merger = IntervalMerger::new(w.jobs, w.log_interval.as_secs_f64());
        let mut intervals = Vec::new();
        let t0 = self.dev.clock().now().as_nanos() as u64;
        let mut slots: Vec<Slot> = Vec::new();
        let mut free: Vec<usize> = Vec::new();
        for j in 0..w.jobs as usize {
            for _ in 0..w.qd {
                let mut buf = vec![0u8; w.bs.max() as usize];
                jobs[j].init_buffer(&mut buf);
                slots.push(Slot {
                    job: j,
                    io: InFlight {
                        req: super::workload::IoReq {
                            write: false,
                            offset: 0,
                            len: 0,
                        },
                        submit_ns: 0,
                        expect: Vec::new(),
                    },
                    buf,
                    result: Ok(()),
                });
                free.push(slots.len() - 1);
            }
        }
        let mut heap: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
        // The virtual drive stores what it is sent and neither compresses nor dedupes: a plain
        // run's `--pattern random` writes one-byte fills (below) instead of random blocks.
        let compact = !w.verify && w.pattern == DataPattern::Random;
        self.compact = compact;
        let mut last = 0u64;
        // Fill every slot at t = 0, then one new I/O per completion (closed loop).
        for s in free.drain(..) {
            self.submit(&mut jobs, &mut slots[s], 0, t0, &mut heap, s);
        }
        while let Some(Reverse((t, s))) = heap.pop() {
            last = last.max(t);
            let slot = &mut slots[s];
            let job = &mut jobs[slot.job];
            let result = std::mem::replace(&mut slot.result, Ok(()));
            let len = slot.io.req.len as usize;
            job.complete(t, &slot.io, &slot.buf[..len], result);
            for p in job.take_parts() {
                for i in merger.add(p) {
                    progress(&i);
                    intervals.push(i);
                }
            }
            if jobs[slots[s].job].fatal.is_some() {
                jobs.iter_mut().for_each(JobCore::stop);
            }
            self.submit(&mut jobs, &mut slots[s], t, t0, &mut heap, s);
        }
        // The drive's clock stays where the run started while the closed loop computes its
        // completions ahead of it: move it to the last completion, so the next command (or
        // run) starts after this run's, not behind its backlog.
        let clock = self.dev.clock();
        let end = Duration::from_nanos(t0 + last);
        let now = clock.now();
        if end > now {
            clock.advance(end - now);
        }
        let mut notes =
            vec!["virtual clock: elapsed time and latencies are drive time".to_string()];
        if compact && w.writes() {
            notes.push(
                "sim: writes carry one repeated byte per block (the same byte in every write): \
                 the virtual drive stores it without a block-sized copy"
                    .into(),
            );
        }
        let mut outcomes: Vec<JobOutcome> = jobs
            .into_iter()
            .map(|j| j.finish(last, notes.clone()))
            .collect();
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
        assemble(w, outcomes, intervals, ("sim", &self.address, bl))
    }
}

impl SimEngine {
    /// Submits the slot's next I/O at job time `t` (drive time `t0 + t`).
    fn submit(
        &mut self,
        jobs: &mut [JobCore],
        slot: &mut Slot,
        t: u64,
        t0: u64,
        heap: &mut BinaryHeap<Reverse<(u64, usize)>>,
        idx: usize,
    ) {
        let compact = self.compact;
        let job = &mut jobs[slot.job];
        let Some(req) = job.next(t) else {
            return;
        };
        let len = req.len as usize;
        slot.io = job.prepare(&req, &mut slot.buf[..len], t);
        let bl = u64::from(self.block_len);
        let lba = req.offset / bl;
        if req.write && compact {
            // A plain run's random data: the drive keeps a block of one repeated byte as that
            // byte (no block-sized copy), and the same byte in every plain write, so a write
            // next to or over earlier ones merges with them into one run of the store: a
            // full-size drive's WIPC (2 × capacity of sequential writes) or a random-write
            // test over it leaves a few runs, not one per write (6 M runs, ~500 MB, with a
            // byte per write). The model neither compresses nor dedupes: the figures are those
            // of random data.
            slot.buf[..len].fill(PLAIN_FILL);
        }
        let blocks = (u64::from(req.len) / bl) as u32;
        let r = if req.write {
            let cdb = read_write::Write16Cdb::new(lba, blocks).build();
            self.dev
                .execute_queued(&cdb, DataBuf::Out(&slot.buf[..len]), TIMEOUT, t0 + t)
        } else {
            let cdb = read_write::Read16Cdb::new(lba, blocks).build();
            self.dev
                .execute_queued(&cdb, DataBuf::In(&mut slot.buf[..len]), TIMEOUT, t0 + t)
        };
        let (dur, result) = match r {
            Ok(c) => (
                c.duration.as_nanos() as u64,
                verdict(&req, Outcome::Scsi(&c)),
            ),
            Err(e) => (0, verdict(&req, Outcome::Failed(IoFailure::from_error(&e)))),
        };
        slot.result = result;
        heap.push(Reverse((t + dur.max(1), idx)));
    }
}
