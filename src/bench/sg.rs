//! The `sg` engine: SCSI READ(16)/WRITE(16) — READ(32)/WRITE(32) on protection type 2 —
//! through `/dev/sgN`'s asynchronous v3 interface ([`crate::transport::queue`]): each command
//! is queued with `write()` of an `sg_io_hdr` (pack_id = its slot), completions are awaited
//! with `poll()` and reaped with non-blocking `read()`s. The sg driver keeps at most 16
//! commands per open file (SG_MAX_QUEUE), so a job opens one descriptor per 16 slots. The transfer is
//! blocks × logical block length whatever that length is (512, 520, 528, 4096, 4104, 4160,
//! 4224...); PI drives are read and written with RDPROTECT/WRPROTECT 0 (the drive checks
//! and strips, or generates, the protection information). Every failed command's sense data
//! is decoded and counted.

use super::engine::{
    add_cpu, assemble, map_result, require_writable, run_threads, BenchError, Engine, InFlight,
    IoFailure, JobCore, JobMsg, JobOutcome, Outcome,
};
use super::stats::{Interval, RunResult};
use super::workload::Workload;
use crate::scsi::read_write;
use crate::transport::queue::{SgQueue, Xfer, SG_MAX_QUEUE};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// Per-command timeout.
const TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for a completion before the loop looks again (nothing is lost by waking).
const POLL_WAIT: Duration = Duration::from_secs(60);

/// An sg node opened for benchmarking.
pub(crate) struct SgEngine {
    node: String,
    address: String,
    capacity: u64,
    block_len: u32,
    prot_type: u8,
    writable: bool,
}

/// The sg node of a SCSI block device (`/dev/sdb` → `/dev/sg1`), or the address itself.
pub(crate) fn sg_node_of(addr: &str) -> Result<String, BenchError> {
    use std::os::unix::fs::FileTypeExt;
    let m = std::fs::metadata(addr).map_err(|e| {
        BenchError::Open(crate::Error::Os {
            op: "open",
            path: addr.to_string(),
            errno: nix::errno::Errno::from_raw(e.raw_os_error().unwrap_or(libc::EIO)),
            hint: None,
        })
    })?;
    if m.file_type().is_char_device() {
        return Ok(addr.to_string());
    }
    super::sysfs_block_dir(addr)
        .and_then(|d| std::fs::read_dir(d.join("device/scsi_generic")).ok())
        .and_then(|mut it| it.next())
        .and_then(|e| e.ok())
        .map(|e| format!("/dev/{}", e.file_name().to_string_lossy()))
        .ok_or_else(|| {
            BenchError::InvalidArgument(format!(
                "{addr}: no sg node for this device (load the sg module, or use --engine uring)"
            ))
        })
}

impl SgEngine {
    /// Opens the sg node behind `addr` and reads its capacity, block length and protection.
    pub(crate) fn open(addr: &str, writable: bool) -> Result<SgEngine, BenchError> {
        let node = sg_node_of(addr)?;
        let mut t = crate::device::open(&node, crate::device::OpenOptions::default())
            .map_err(BenchError::Open)?
            .transport;
        let cap = crate::ops::query::read_capacity16(&mut *t).map_err(BenchError::Open)?;
        drop(t);
        let prot_type = if cap.prot_en { cap.p_type + 1 } else { 0 };
        Ok(SgEngine {
            node,
            address: addr.to_string(),
            capacity: (cap.last_lba + 1).saturating_mul(u64::from(cap.block_len)),
            block_len: cap.block_len,
            prot_type,
            writable,
        })
    }
}

impl Engine for SgEngine {
    fn name(&self) -> &'static str {
        "sg"
    }

    fn capacity_bytes(&self) -> u64 {
        self.capacity
    }

    fn block_len(&self) -> u32 {
        self.block_len
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
        if w.iopoll || w.sqpoll || w.submit_batch != 1 {
            return Err(BenchError::Unsupported(
                "--iopoll/--sqpoll/--submit-batch N are io_uring options; the sg engine queues \
                 each command with a write() of its own (--submit-batch 1)"
                    .into(),
            ));
        }
        let start = Instant::now();
        let node = self.node.clone();
        let (bl, pt) = (self.block_len, self.prot_type);
        let (outcomes, intervals, cpu) =
            run_threads(w, range, self.block_len, progress, |_, core, tx| {
                job(w, &node, bl, pt, core, tx, start)
            })?;
        let r = assemble(
            w,
            outcomes,
            intervals,
            ("sg", &self.address, self.block_len),
        );
        map_result(r, |r| {
            add_cpu(r, cpu);
            if pt != 0 {
                r.notes.push(format!(
                    "protection type {pt}: {} with RDPROTECT/WRPROTECT 0 (the drive checks and \
                     generates the PI)",
                    if pt == 2 {
                        "READ/WRITE(32)"
                    } else {
                        "READ/WRITE(16)"
                    }
                ));
            }
        })
    }
}

/// How a command that did not complete counts: the errno of a refused `write()` or failed
/// `read()`, or the queue's own refusal.
fn failure_of(e: &crate::Error) -> IoFailure {
    match e {
        crate::Error::Os { errno, .. } => IoFailure::errno(*errno),
        other => IoFailure::from_error(other),
    }
}

fn job(
    w: &Workload,
    node: &str,
    block_len: u32,
    prot_type: u8,
    mut core: JobCore,
    tx: Sender<JobMsg>,
    start: Instant,
) -> Result<JobOutcome, BenchError> {
    let qd = w.qd as usize;
    let mut q =
        SgQueue::open(node, qd, w.bs.max() as usize).map_err(|e| BenchError::Os(e.to_string()))?;
    for i in 0..qd {
        if let Some(b) = q.buf_mut(i) {
            core.init_buffer(b);
        }
    }
    // The I/O each slot carries while its command is queued.
    let mut ios: Vec<Option<InFlight>> = (0..qd).map(|_| None).collect();
    let mut free: Vec<usize> = (0..qd).rev().collect();
    let now_ns = || start.elapsed().as_nanos() as u64;
    let bl = u64::from(block_len);
    let mut notes = Vec::new();
    if q.files() > 1 {
        notes.push(format!(
            "sg: {} open files per job ({SG_MAX_QUEUE} commands queue per file)",
            q.files()
        ));
    }
    loop {
        let t = now_ns();
        while let Some(&i) = free.last() {
            let Some(req) = core.next(t) else { break };
            free.pop();
            let len = req.len as usize;
            let Some(buf) = q.buf_mut(i).and_then(|b| b.get_mut(..len)) else {
                return Err(BenchError::Os(format!(
                    "{node}: slot {i} has no {len}-byte buffer"
                )));
            };
            let io = core.prepare(&req, buf, t);
            let lba = req.offset / bl;
            let blocks = (u64::from(req.len) / bl) as u32;
            let mut cdb = [0u8; 32];
            let cdb_len = if prot_type == 2 {
                cdb = if req.write {
                    read_write::Write32Cdb::new(lba, blocks).build()
                } else {
                    read_write::Read32Cdb::new(lba, blocks).build()
                };
                32
            } else {
                let c = if req.write {
                    read_write::Write16Cdb::new(lba, blocks).build()
                } else {
                    read_write::Read16Cdb::new(lba, blocks).build()
                };
                cdb[..16].copy_from_slice(&c);
                16
            };
            let xfer = if req.write {
                Xfer::Out(len)
            } else {
                Xfer::In(len)
            };
            if let Err(e) = q.submit(i, &cdb[..cdb_len], xfer, TIMEOUT) {
                // Not queued: account it as a failed I/O now.
                core.reap(t, &io, &[], Outcome::Failed(failure_of(&e)));
                free.push(i);
                if core.is_stopped() {
                    break;
                }
                continue;
            }
            ios[i] = Some(io);
        }
        if q.in_flight() == 0 {
            break;
        }
        q.poll(POLL_WAIT)
            .map_err(|e| BenchError::Os(e.to_string()))?;
        let t = now_ns();
        while let Some(r) = q.reap() {
            let Some(io) = ios.get_mut(r.tag).and_then(Option::take) else {
                continue;
            };
            match r.result {
                Ok(c) => core.reap(t, &io, q.buf(r.tag).unwrap_or(&[]), Outcome::Scsi(&c)),
                Err(e) => {
                    // The device went away (ENODEV after removal, EIO ...): the commands
                    // queued on this file will not come back. Each fails with the errno,
                    // the run stops and reports what it measured (exit 4).
                    core.reap(t, &io, &[], Outcome::Failed(failure_of(&e)));
                    core.stop();
                }
            }
            free.push(r.tag);
        }
        for p in core.take_parts() {
            let _ = tx.send(JobMsg::Part(p));
        }
    }
    let last = core.last_reap();
    Ok(core.finish(last, notes))
}
