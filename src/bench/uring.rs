//! The `uring` engine: io_uring on a block device or a file opened with O_DIRECT (no page
//! cache). One ring per job thread set up as fio's io_uring engine sets up its ring
//! (`COOP_TASKRUN`, `SINGLE_ISSUER`, `DEFER_TASKRUN`, falling back when the kernel lacks them),
//! the slots' buffers registered (`READ_FIXED`/`WRITE_FIXED`) and the file registered
//! (fixed file 0); each pass of the loop queues every free slot's next I/O, submits them with
//! one `io_uring_enter`, then, if the CQ holds fewer completions than it waits for, waits
//! with a second one for one completion (or, when completions come less than 10 µs apart,
//! for as many as arrive in about 20 µs, at most an eighth of those outstanding), and reaps
//! every completion in the CQ ring. When jobs × qd is more than a single-queue block device's
//! `queue/nr_requests`, each job keeps its even share with the kernel and queues the rest
//! itself, in order (`job`). After an error inside the loop the job cancels and reaps what is
//! still in flight before its buffers are freed.
//! `--iopoll` (`IORING_SETUP_IOPOLL`) needs a driver with poll queues
//! (`/sys/block/X/queue/io_poll` = 1) and is refused otherwise; `--sqpoll` adds a
//! kernel submission thread.
#![allow(unsafe_code)] // io_uring SQE pushes and buffer registration: see the SAFETY notes.

use super::engine::{
    add_cpu, assemble, map_result, require_writable, run_threads, BenchError, Engine, InFlight,
    JobCore, JobMsg, JobOutcome, Outcome,
};
use super::stats::{Interval, RunResult};
use super::workload::{IoReq, Workload};
use io_uring::{opcode, types, IoUring};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::mpsc::Sender;
use std::time::Instant;

/// A block device or O_DIRECT file opened for io_uring.
pub(crate) struct UringEngine {
    fd: OwnedFd,
    address: String,
    capacity: u64,
    block_len: u32,
    writable: bool,
    poll_ok: Option<bool>,
    /// A block device's request queue length (`queue/nr_requests`) when it has a single
    /// hardware queue (every job then takes its requests from the same ones).
    queue_len: Option<u32>,
}

/// Capacity and logical block length of a block device.
pub(crate) fn block_geometry(fd: &OwnedFd) -> Result<(u64, u32), nix::errno::Errno> {
    use std::os::fd::AsFd;
    Ok((
        sgctl_sys::block_device_bytes(fd.as_fd())?,
        sgctl_sys::logical_block_size(fd.as_fd())?,
    ))
}

impl UringEngine {
    /// Opens `addr` with O_DIRECT (and O_EXCL on block devices when writing: the kernel
    /// refuses a device that is mounted or held).
    pub(crate) fn open(addr: &str, writable: bool) -> Result<UringEngine, BenchError> {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let meta = std::fs::metadata(addr).map_err(|e| {
            BenchError::Open(crate::Error::Os {
                op: "open",
                path: addr.to_string(),
                errno: nix::errno::Errno::from_raw(e.raw_os_error().unwrap_or(libc::EIO)),
                hint: None,
            })
        })?;
        let is_block = meta.file_type().is_block_device();
        if !is_block && !meta.file_type().is_file() {
            return Err(BenchError::InvalidArgument(format!(
                "{addr}: the uring engine needs a block device or a regular file"
            )));
        }
        let mut flags = libc::O_DIRECT;
        if writable && is_block {
            flags |= libc::O_EXCL;
        }
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(writable)
            .custom_flags(flags)
            .open(addr)
            .map_err(|e| {
                let errno = nix::errno::Errno::from_raw(e.raw_os_error().unwrap_or(libc::EIO));
                if errno == nix::errno::Errno::EBUSY {
                    BenchError::Refused(format!(
                        "{addr}: the kernel refused exclusive access (mounted, held or open \
                         exclusively by another program)"
                    ))
                } else {
                    BenchError::Open(crate::Error::Os {
                        op: "open",
                        path: addr.to_string(),
                        errno,
                        hint: (errno == nix::errno::Errno::EINVAL)
                            .then_some("the file system does not support O_DIRECT"),
                    })
                }
            })?;
        let fd: OwnedFd = f.into();
        let (capacity, block_len, poll_ok, queue_len) = if is_block {
            let (c, b) = block_geometry(&fd).map_err(|e| BenchError::Os(format!("{addr}: {e}")))?;
            // A partition's queue is its disk's.
            let dir = super::sysfs_block_dir(addr).map(|d| {
                if d.join("queue").exists() {
                    d
                } else {
                    d.join("..")
                }
            });
            let read = |f: &str| {
                dir.as_ref()
                    .and_then(|d| std::fs::read_to_string(d.join(f)).ok())
            };
            let poll = read("queue/io_poll").map(|s| s.trim() == "1");
            let hw_queues = dir
                .as_ref()
                .and_then(|d| std::fs::read_dir(d.join("mq")).ok())
                .map(|r| r.count());
            let queue_len = read("queue/nr_requests")
                .and_then(|s| s.trim().parse::<u32>().ok())
                .filter(|&n| n > 0 && hw_queues == Some(1));
            (c, b, poll, queue_len)
        } else {
            // O_DIRECT on files: 4096-byte alignment is what every file system accepts.
            (meta.len() / 4096 * 4096, 4096, Some(false), None)
        };
        if !block_len.is_power_of_two() {
            return Err(BenchError::Unsupported(format!(
                "{addr}: {block_len}-byte logical blocks: use --engine sg"
            )));
        }
        Ok(UringEngine {
            fd,
            address: addr.to_string(),
            capacity,
            block_len,
            writable,
            poll_ok,
            queue_len,
        })
    }
}

/// One page of an I/O buffer: O_DIRECT wants page-aligned memory.
#[derive(
    Clone, zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable,
)]
#[repr(C, align(4096))]
struct Page([u8; 4096]);

/// Page-aligned buffers, one slot of `slot_len` bytes per outstanding I/O, each slot its own
/// allocation: lending one slot's bytes ([`Buffers::slot`]) makes no reference to the
/// others, which the kernel may be writing to at that moment.
struct Buffers {
    slots: Vec<Vec<Page>>,
    slot_len: usize,
}

impl Buffers {
    fn new(slots: usize, slot_len: usize) -> Result<Buffers, BenchError> {
        let pages = slot_len.div_ceil(4096).max(1);
        Ok(Buffers {
            slots: (0..slots).map(|_| vec![Page([0; 4096]); pages]).collect(),
            slot_len: pages * 4096,
        })
    }

    /// The slot's address, for the kernel (buffer registration, SQEs); null past the end.
    fn slot_ptr(&mut self, i: usize) -> *mut u8 {
        self.slots
            .get_mut(i)
            .map_or(std::ptr::null_mut(), |s| s.as_mut_ptr().cast())
    }

    /// The slot's bytes (empty past the end). No I/O may be in flight on the slot while the
    /// slice lives (the unsafe SQE pushes promise the kernel owns only slots lent to it).
    fn slot(&mut self, i: usize, len: usize) -> &mut [u8] {
        use zerocopy::IntoBytes;
        match self.slots.get_mut(i) {
            Some(s) => {
                let b = s.as_mut_slice().as_mut_bytes();
                let n = len.min(b.len());
                &mut b[..n]
            }
            None => &mut [],
        }
    }
}

impl Engine for UringEngine {
    fn name(&self) -> &'static str {
        "uring"
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
        if w.iopoll && self.poll_ok != Some(true) {
            return Err(BenchError::Unsupported(format!(
                "{}: --iopoll needs a driver with poll queues (queue/io_poll is not 1 here); \
                 run without it",
                self.address
            )));
        }
        let fd = self.fd.as_raw_fd();
        let start = Instant::now();
        // When jobs × qd is more than the device's requests, each job keeps its even share
        // with the kernel and queues the rest itself (see `job`).
        let cap = match self.queue_len {
            Some(n) if u64::from(w.jobs) * u64::from(w.qd) > u64::from(n) => {
                Some((n / w.jobs.max(1)).max(1) as usize)
            }
            _ => None,
        };
        let (outcomes, intervals, cpu) =
            run_threads(w, range, self.block_len, progress, |_, core, tx| {
                job(w, fd, cap, self.queue_len.unwrap_or(0), core, tx, start)
            })?;
        let r = assemble(
            w,
            outcomes,
            intervals,
            ("uring", &self.address, self.block_len),
        );
        map_result(r, |r| add_cpu(r, cpu))
    }
}

/// The ring setup flags tried in order, as fio's io_uring engine does: COOP_TASKRUN (no
/// inter-processor interrupt to run completion work), SINGLE_ISSUER and DEFER_TASKRUN
/// (completion work runs only when the job thread waits for completions, in its own
/// `io_uring_enter`, instead of interrupting it); then COOP_TASKRUN alone; then none.
const SETUPS: [(bool, bool, &str); 3] = [
    (true, true, ""),
    (
        true,
        false,
        "io_uring: SINGLE_ISSUER/DEFER_TASKRUN not supported here (COOP_TASKRUN only)",
    ),
    (
        false,
        false,
        "io_uring: COOP_TASKRUN/SINGLE_ISSUER/DEFER_TASKRUN not supported by this kernel",
    ),
];

fn setup_ring(w: &Workload, entries: u32) -> Result<(IoUring, Vec<String>), BenchError> {
    let mut notes = Vec::new();
    let build = |coop: bool, defer: bool| {
        let mut b = IoUring::builder();
        if coop {
            b.setup_coop_taskrun();
        }
        // DEFER_TASKRUN cannot be combined with SQPOLL (the kernel thread reaps).
        if defer && !w.sqpoll {
            b.setup_single_issuer().setup_defer_taskrun();
        }
        if w.iopoll {
            b.setup_iopoll();
        }
        if w.sqpoll {
            b.setup_sqpoll(2000);
        }
        b.setup_cqsize(entries * 2).build(entries)
    };
    let mut last_err = None;
    let mut ring = None;
    for (coop, defer, note) in SETUPS {
        match build(coop, defer) {
            Ok(r) => {
                if !note.is_empty() {
                    notes.push(note.to_string());
                }
                ring = Some(r);
                break;
            }
            Err(e) => last_err = Some(e),
        }
    }
    let Some(ring) = ring else {
        let e = last_err.map(|e| e.to_string()).unwrap_or_default();
        return Err(if w.sqpoll {
            BenchError::Unsupported(format!("io_uring SQPOLL: {e}"))
        } else {
            BenchError::Os(format!("io_uring_setup: {e}"))
        });
    };
    if w.sqpoll {
        notes.push("io_uring: SQPOLL kernel thread (its CPU time counts as system time)".into());
    }
    if w.iopoll {
        notes.push("io_uring: IOPOLL (completions polled)".into());
    }
    Ok((ring, notes))
}

/// The job's ring, which gives the registered file back when it is dropped. A closed ring
/// is torn down by the kernel asynchronously (a workqueue), and until then its file table
/// keeps the block device open — opened with O_EXCL for writing, so the next run on the
/// same device (the next `sgctl bench run` of a script, a suite's next phase) was refused
/// with EBUSY in about half of back-to-back write runs. Unregistering the files first
/// releases the device before the job returns.
struct FilesReleased(IoUring);

impl std::ops::Deref for FilesReleased {
    type Target = IoUring;
    fn deref(&self) -> &IoUring {
        &self.0
    }
}

impl std::ops::DerefMut for FilesReleased {
    fn deref_mut(&mut self) -> &mut IoUring {
        &mut self.0
    }
}

impl Drop for FilesReleased {
    fn drop(&mut self) {
        // After the loop nothing is in flight (it drains every I/O), and the kernel puts the
        // file before the call returns; after an error return, when the last request ends.
        let _ = self.0.submitter().unregister_files();
    }
}

/// One job thread: its own ring, registered buffers and file.
///
/// `cap` = Some(share) when the device's queue (`nr_requests` requests) is shorter than what
/// the jobs keep outstanding (a loop device has 128 requests, `queue/nr_requests`, and
/// QD 128 × 2 jobs is 256). io_uring hands every request the queue has no room for to a kernel worker thread
/// (io-wq, up to 4 per CPU per ring) that sleeps until a request frees: at QD 128 × 2 jobs on
/// the loop device that took 16 worker threads, 1.5× the CPU per I/O of fio's libaio (whose
/// submitting thread sleeps instead), and the workers' requests were served out of order
/// (p99.9 and max latency several times libaio's). With a cap, the job keeps at most `share`
/// (its even share of the device's requests) with the kernel; the rest of its qd are queued
/// in the job, in order, and sent as completions make room. Their latency counts from when
/// they were queued, as fio's `lat` counts libaio's wait in `io_submit`.
fn job(
    w: &Workload,
    fd: i32,
    cap: Option<usize>,
    nr_requests: u32,
    mut core: JobCore,
    tx: Sender<JobMsg>,
    start: Instant,
) -> Result<JobOutcome, BenchError> {
    let qd = w.qd as usize;
    let entries = (w.qd.next_power_of_two()).max(8);
    let mut bufs = Buffers::new(qd, w.bs.max() as usize)?;
    let (ring, notes) = setup_ring(w, entries)?;
    let iov: Vec<libc::iovec> = (0..qd)
        .map(|i| libc::iovec {
            iov_base: bufs.slot_ptr(i).cast(),
            iov_len: bufs.slot_len,
        })
        .collect();
    // SAFETY: the buffers outlive the ring (the ring is dropped at the end of this function,
    // before `bufs`, which was declared first).
    unsafe { ring.submitter().register_buffers(&iov) }
        .map_err(|e| BenchError::Os(format!("io_uring register_buffers: {e}")))?;
    ring.submitter()
        .register_files(&[fd])
        .map_err(|e| BenchError::Os(format!("io_uring register_files: {e}")))?;
    for i in 0..qd {
        let s = bufs.slot(i, bufs.slot_len);
        core.init_buffer(s);
    }
    let mut inflight: Vec<Option<InFlight>> = vec![None; qd];
    let mut free: Vec<usize> = (0..qd).rev().collect();
    // Queued in the job beyond its share of the device (`cap`), oldest first: prepared (their
    // `inflight` entry is set), not yet sent.
    let mut held: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let share = cap.unwrap_or(usize::MAX);
    let mut notes = notes;
    if let Some(share) = cap {
        notes.push(format!(
            "io_uring: the device has {nr_requests} requests (queue/nr_requests) for jobs x qd = {}: \
             each job kept at most {share} with it and queued the rest itself, in order \
             (their latency counts from when they were queued)",
            u64::from(w.jobs) * u64::from(w.qd)
        ));
    }
    // With the kernel (held requests are not).
    let mut outstanding = 0usize;
    let now_ns = |s: Instant| s.elapsed().as_nanos() as u64;
    let mut ring = FilesReleased(ring);
    // Declared after the ring: dropped (unregistered) before it, on every return.
    let enter = Enter::new(&ring, &mut notes);
    let ended: Result<(), BenchError> = 'run: loop {
        let t = now_ns(start);
        let mut queued = 0;
        // Held requests first, in order, as far as the share allows.
        while outstanding + queued < share {
            let Some(slot) = held.pop_front() else { break };
            let Some(io) = inflight[slot].as_ref() else {
                continue;
            };
            let e = sqe(&io.req, bufs.slot_ptr(slot), slot);
            // SAFETY: as below; the slot's buffer is still the held request's.
            if unsafe { ring.submission().push(&e) }.is_err() {
                held.push_front(slot);
                break 'run Err(BenchError::Os("io_uring submission queue full".into()));
            }
            queued += 1;
        }
        while let Some(&slot) = free.last() {
            let Some(req) = core.next(t) else { break };
            free.pop();
            let len = req.len as usize;
            let io = core.prepare(&req, bufs.slot(slot, len), t);
            if !held.is_empty() || outstanding + queued >= share {
                // Queued (its latency runs from now), sent when the share has room.
                inflight[slot] = Some(io);
                held.push_back(slot);
                continue;
            }
            let e = sqe(&req, bufs.slot_ptr(slot), slot);
            // SAFETY: the SQE points at slot `slot` of the registered buffers, which stays
            // untouched until its completion is reaped below. The SQ has `entries` ≥ qd
            // places and at most qd entries are queued, so push cannot overflow.
            if unsafe { ring.submission().push(&e) }.is_err() {
                free.push(slot);
                break 'run Err(BenchError::Os("io_uring submission queue full".into()));
            }
            inflight[slot] = Some(io);
            queued += 1;
        }
        outstanding += queued;
        if outstanding == 0 {
            break Ok(());
        }
        // fio's loop (engines/io_uring.c at its defaults, iodepth_batch_submit=1 and
        // iodepth_batch_complete_min=1): every queued I/O is submitted by an
        // `io_uring_enter(1, 0, GETEVENTS)` of its own (`--submit-batch N`: N per call), each
        // of which also runs the deferred
        // completion work (DEFER_TASKRUN) and so posts what has completed meanwhile; then,
        // back in user space, the job waits for one completion only if the CQ is empty.
        // Submitting a pass's I/Os in one call and waiting for a batch of completions (as
        // many as arrived in 20 µs) spent less CPU per I/O but kept
        // randread QD32 j1 on the loop device at 0.92–0.98 of fio in every run, with
        // sgctl's p50 ~10 % above fio's; in interleaved runs this loop measured 1.00–1.16x
        // the batched one at QD32 j1 (docs/bench-engine.md, "One I/O per submit"). One
        // call per pass with that wait was level
        // with it or ahead in the other host cells and 2–3x in the VM, but 0.85 of it at
        // randread QD32 j1 on the loop device.
        // Two calls, not one: the return to user space between submitting and waiting is
        // where the kernel preempts the thread for a worker it woke on this CPU (the block
        // layer's dispatch worker, a loop device's): the worker completes the I/O while the
        // job thread is still runnable, and the wait finds it done. Submitting and waiting
        // in one call put the thread to sleep in the kernel before the worker ran, and every
        // completion was a wake-up, often onto the other CPU: at QD1 on scsi_debug through
        // sd in the VM it made a third of the IOPS the two calls make (docs/bench-engine.md,
        // "Submit, then wait").
        // With --sqpoll the kernel thread submits; the crate's submit() wakes it when it
        // sleeps (IORING_ENTER_SQ_WAKEUP).
        let sq = ring.submission().len();
        let mut r = Ok(0);
        if w.sqpoll {
            if sq > 0 {
                r = ring.submit();
            }
        } else {
            let batch = w.submit_batch.max(1) as usize;
            let mut left = sq;
            while left > 0 {
                let n = batch.min(left);
                left -= n;
                r = enter.call(n as u32, 0);
                if r.is_err() {
                    // What is left in the SQ goes with the next pass (EINTR, EBUSY) or is
                    // cancelled and reaped by `drain`.
                    break;
                }
            }
        }
        if r.is_ok() && ring.completion().is_empty() {
            r = enter.call(0, 1);
        }
        match r {
            Ok(_) => {}
            Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {}
            Err(e) => break Err(BenchError::Os(format!("io_uring_enter: {e}"))),
        }
        let t = now_ns(start);
        let mut cq = ring.completion();
        cq.sync();
        for cqe in &mut cq {
            let slot = cqe.user_data() as usize;
            let Some(io) = inflight.get_mut(slot).and_then(Option::take) else {
                continue;
            };
            outstanding -= 1;
            // The slot is ours again (its completion was reaped).
            let data = bufs.slot(slot, io.req.len as usize);
            core.reap(t, &io, data, Outcome::Res(cqe.result()));
            free.push(slot);
        }
        drop(cq);
        for p in core.take_parts() {
            let _ = tx.send(JobMsg::Part(p));
        }
    };
    if let Err(e) = ended {
        // Held requests are not with the kernel: nothing to cancel.
        for slot in held.drain(..) {
            inflight[slot] = None;
        }
        // I/O may still be in flight into the slots: the kernel must be done with every one
        // before the buffers go back to the allocator, or a late read lands in memory that
        // is someone else's by then.
        if !drain(&mut ring, &mut inflight) {
            std::mem::forget(bufs);
        }
        return Err(e);
    }
    drop(enter);
    drop(ring);
    drop(bufs);
    let last = core.last_reap();
    Ok(core.finish(last, notes))
}

/// IORING_ENTER_GETEVENTS (include/uapi/linux/io_uring.h): the call waits for
/// `min_complete` completions and, with DEFER_TASKRUN, runs the ring's deferred completion
/// work (which posts the CQEs) before it returns.
const ENTER_GETEVENTS: u32 = 1;

/// IORING_ENTER_REGISTERED_RING: the fd argument is an index into the calling thread's
/// registered rings (include/uapi/linux/io_uring.h).
const ENTER_REGISTERED_RING: u32 = 1 << 4;
/// io_uring_register opcodes (include/uapi/linux/io_uring.h, Linux 5.18).
const REGISTER_RING_FDS: u32 = 20;
const UNREGISTER_RING_FDS: u32 = 21;

/// How the job thread names its ring to `io_uring_enter`. Registered (IORING_REGISTER_RING_FDS,
/// Linux 5.18), the kernel finds the ring in the thread's own table; by file descriptor it
/// takes and drops a reference on the ring's file in every call (`fget`/`fput`, two atomic
/// operations, and a file shared with the process's other threads: the job threads are
/// threads of one process). fio 3.33 enters by file descriptor; liburing's users register.
/// The registration belongs to the thread that made it, so each job thread makes its own; it
/// holds a reference on the ring, dropped by `Drop` before the ring is closed.
struct Enter {
    fd: i32,
    registered: Option<u32>,
}

/// `struct io_uring_rsrc_update` (include/uapi/linux/io_uring.h).
#[repr(C)]
struct RsrcUpdate {
    offset: u32,
    resv: u32,
    data: u64,
}

impl Enter {
    /// Registers `ring` for the calling thread; by file descriptor when the kernel cannot
    /// (a note says so).
    fn new(ring: &IoUring, notes: &mut Vec<String>) -> Enter {
        let fd = ring.as_raw_fd();
        let mut up = RsrcUpdate {
            offset: u32::MAX, // any free place; the kernel writes the index back
            resv: 0,
            data: fd as u64,
        };
        // SAFETY: `up` is a valid io_uring_rsrc_update for the one entry passed (nr_args 1).
        let r = unsafe {
            libc::syscall(
                libc::SYS_io_uring_register,
                fd,
                REGISTER_RING_FDS,
                std::ptr::addr_of_mut!(up).cast::<libc::c_void>(),
                1u32,
            )
        };
        let registered = if r == 1 {
            Some(up.offset)
        } else {
            notes.push(format!(
                "io_uring: the ring could not be registered with its thread (IORING_REGISTER_RING_FDS: {}); \
                 each call names it by file descriptor",
                std::io::Error::last_os_error()
            ));
            None
        };
        Enter { fd, registered }
    }

    /// `io_uring_enter(ring, to_submit, min_complete, GETEVENTS)`: submits `to_submit` queued
    /// entries and returns once at least `min_complete` completions are in the CQ (at once
    /// for 0).
    fn call(&self, to_submit: u32, min_complete: u32) -> std::io::Result<usize> {
        let (fd, flags) = match self.registered {
            Some(i) => (i as i32, ENTER_GETEVENTS | ENTER_REGISTERED_RING),
            None => (self.fd, ENTER_GETEVENTS),
        };
        // SAFETY: no argument pointer is passed (NULL, size 0); the entries the kernel reads
        // were pushed through the safe SQ interface and point at registered buffers the
        // caller keeps alive.
        let r = unsafe {
            libc::syscall(
                libc::SYS_io_uring_enter,
                fd,
                to_submit,
                min_complete,
                flags,
                std::ptr::null::<libc::c_void>(),
                0usize,
            )
        };
        if r < 0 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(r as usize)
        }
    }
}

impl Drop for Enter {
    fn drop(&mut self) {
        if let Some(i) = self.registered {
            let up = RsrcUpdate {
                offset: i,
                resv: 0,
                data: 0,
            };
            // SAFETY: as in `new`; the kernel only reads `up`.
            unsafe {
                libc::syscall(
                    libc::SYS_io_uring_register,
                    self.fd,
                    UNREGISTER_RING_FDS,
                    std::ptr::addr_of!(up).cast::<libc::c_void>(),
                    1u32,
                )
            };
        }
    }
}

/// The user_data bit of a cancel request's own completion (the slots' are their index).
const CANCEL_TAG: u64 = 1 << 63;

/// After an error inside a job's loop: asks the kernel to cancel every request still in
/// flight (`IORING_OP_ASYNC_CANCEL` by its user_data; a block device request that is already
/// with the driver cannot be cancelled and simply completes) and reaps completions until each
/// slot has its own, so the kernel no longer writes into the buffers. Returns false when the
/// ring itself fails before that: the caller must then leak the buffers, not free memory a
/// read may still land in. Entries the failed `io_uring_enter` left in the SQ are submitted
/// here, cancelled and reaped like the rest.
fn drain<T>(ring: &mut IoUring, inflight: &mut [Option<T>]) -> bool {
    let mut cancels: Vec<u64> = (0..inflight.len())
        .filter(|&i| inflight[i].is_some())
        .map(|i| i as u64)
        .collect();
    let mut left = cancels.len();
    let mut errors = 0;
    while left > 0 {
        while let Some(&slot) = cancels.last() {
            let e = opcode::AsyncCancel::new(slot)
                .build()
                .user_data(CANCEL_TAG | slot);
            // SAFETY: a cancel request points at no memory.
            if unsafe { ring.submission().push(&e) }.is_err() {
                break; // SQ full: submit what is there first
            }
            cancels.pop();
        }
        match ring.submit_and_wait(1) {
            Ok(_) => {}
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINTR | libc::EBUSY)) => {}
            Err(_) => {
                errors += 1;
                if errors > 3 {
                    return false;
                }
            }
        }
        let mut cq = ring.completion();
        cq.sync();
        for cqe in &mut cq {
            let d = cqe.user_data();
            if d & CANCEL_TAG != 0 {
                continue;
            }
            if let Some(s) = inflight.get_mut(d as usize) {
                if s.take().is_some() {
                    left -= 1;
                }
            }
        }
    }
    true
}

fn sqe(req: &IoReq, buf: *mut u8, slot: usize) -> io_uring::squeue::Entry {
    let fixed = types::Fixed(0);
    if req.write {
        opcode::WriteFixed::new(fixed, buf, req.len, slot as u16)
            .offset(req.offset)
            .build()
            .user_data(slot as u64)
    } else {
        opcode::ReadFixed::new(fixed, buf, req.len, slot as u16)
            .offset(req.offset)
            .build()
            .user_data(slot as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registered ring: submitting and waiting through the thread's registered index
    /// completes a request (a NOP) as the file descriptor does; the registration is the
    /// thread's (another thread's index table does not have it), and dropping `Enter` gives
    /// the place back (registering again gets the same index).
    #[test]
    fn registered_ring_enters_and_unregisters() {
        let mut ring = IoUring::new(8).unwrap();
        let mut notes = Vec::new();
        let e = Enter::new(&ring, &mut notes);
        let Some(index) = e.registered else {
            // Kernels before 5.18: the fallback must say so and still work.
            assert_eq!(notes.len(), 1, "{notes:?}");
            return;
        };
        assert!(notes.is_empty(), "{notes:?}");
        for round in 0..3u64 {
            let nop = opcode::Nop::new().build().user_data(round);
            // SAFETY: a NOP points at no memory.
            unsafe { ring.submission().push(&nop) }.unwrap();
            assert_eq!(e.call(1, 1).unwrap(), 1);
            let cqe = ring.completion().next().unwrap();
            assert_eq!((cqe.user_data(), cqe.result()), (round, 0));
        }
        // Another thread has no such registered ring: the index means nothing there.
        let fd_other = std::thread::scope(|s| {
            s.spawn(|| {
                let other = Enter {
                    fd: -1,
                    registered: Some(index),
                };
                let r = other.call(0, 0);
                std::mem::forget(other); // nothing of this thread's to unregister
                r
            })
            .join()
            .unwrap()
        });
        assert!(fd_other.is_err(), "{fd_other:?}");
        drop(e);
        let mut notes = Vec::new();
        let again = Enter::new(&ring, &mut notes);
        assert_eq!(again.registered, Some(index), "{notes:?}");
    }

    /// Reads from an empty pipe stay in flight until cancelled: drain cancels them, reaps
    /// each one's own completion (not data: -ECANCELED) and returns with nothing in flight,
    /// so the buffers may be freed. A slot the kernel never heard of (marked in flight, never
    /// pushed) would make it wait forever, which is why only pushed slots are marked.
    #[test]
    fn drain_cancels_and_reaps_every_inflight_read() {
        let mut ring = IoUring::new(8).unwrap();
        let (r, w) = nix::unistd::pipe().unwrap();
        let mut bufs = [[0u8; 64]; 3];
        let mut inflight: Vec<Option<usize>> = vec![None; 3];
        for (i, b) in bufs.iter_mut().enumerate() {
            let e = opcode::Read::new(types::Fd(r.as_raw_fd()), b.as_mut_ptr(), 64)
                .build()
                .user_data(i as u64);
            // SAFETY: the buffers outlive the ring's use of them: drain reaps each read.
            unsafe { ring.submission().push(&e) }.unwrap();
            inflight[i] = Some(i);
        }
        ring.submit().unwrap();
        assert!(drain(&mut ring, &mut inflight));
        assert!(inflight.iter().all(Option::is_none));
        // Nothing is left with the kernel: data written now stays in the pipe.
        nix::unistd::write(&w, b"late").unwrap();
        let mut got = [0u8; 8];
        let n = nix::unistd::read(r.as_raw_fd(), &mut got).unwrap();
        assert_eq!(&got[..n], b"late");
        assert!(bufs.iter().all(|b| b.iter().all(|&x| x == 0)));
    }
}
