//! The `sg` engine: SCSI READ(16)/WRITE(16) — READ(32)/WRITE(32) on protection type 2 —
//! through `/dev/sgN`'s asynchronous v3 interface: each command is queued with `write()` of
//! an `sg_io_hdr` (pack_id = its slot), completions are awaited with `poll()` and reaped
//! with non-blocking `read()`s. The sg driver keeps at most 16 commands per open file
//! (SG_MAX_QUEUE), so a job opens one descriptor per 16 slots. The transfer is
//! blocks × logical block length whatever that length is (512, 520, 528, 4096, 4104, 4160,
//! 4224...); PI drives are read and written with RDPROTECT/WRPROTECT 0 (the drive checks
//! and strips, or generates, the protection information). Every failed command's sense data
//! is decoded and counted.
#![allow(unsafe_code)] // sg write()/read() of sg_io_hdr: see the SAFETY notes.

use super::engine::{
    add_cpu, assemble, map_result, require_writable, run_threads, BenchError, Engine, InFlight,
    IoFailure, JobCore, JobMsg, JobOutcome, Outcome,
};
use super::stats::{Interval, RunResult};
use super::workload::Workload;
use crate::scsi::read_write::{self, RwFlags};
use crate::transport::Completion;
use sgctl_sys as sys;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Commands the sg driver queues per open file (SG_MAX_QUEUE).
pub const SG_MAX_QUEUE: usize = 16;
/// Per-command timeout.
const TIMEOUT_MS: u32 = 30_000;
/// Sense buffer per command.
const SENSE_LEN: usize = 64;

/// An sg node opened for benchmarking.
pub struct SgEngine {
    node: String,
    address: String,
    capacity: u64,
    block_len: u32,
    prot_type: u8,
    writable: bool,
}

/// The sg node of a SCSI block device (`/dev/sdb` → `/dev/sg1`), or the address itself.
pub fn sg_node_of(addr: &str) -> Result<String, BenchError> {
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
    pub fn open(addr: &str, writable: bool) -> Result<SgEngine, BenchError> {
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

    /// Protection type the drive is formatted with (0 = none).
    pub fn protection_type(&self) -> u8 {
        self.prot_type
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

/// One command slot: header, CDB and sense live here while the kernel holds the command.
struct Slot {
    cdb: [u8; 32],
    cdb_len: u8,
    sense: [u8; SENSE_LEN],
    buf: Vec<u8>,
    io: Option<InFlight>,
}

fn open_sg(node: &str) -> Result<OwnedFd, BenchError> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(node)
        .map_err(|e| BenchError::Os(format!("{node}: open: {e}")))?;
    Ok(f.into())
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
    let nfds = qd.div_ceil(SG_MAX_QUEUE);
    let fds: Vec<OwnedFd> = (0..nfds).map(|_| open_sg(node)).collect::<Result<_, _>>()?;
    let mut slots: Vec<Slot> = (0..qd)
        .map(|_| Slot {
            cdb: [0; 32],
            cdb_len: 0,
            sense: [0; SENSE_LEN],
            buf: vec![0u8; w.bs.max() as usize],
            io: None,
        })
        .collect();
    for s in slots.iter_mut() {
        core.init_buffer(&mut s.buf);
    }
    let mut free: Vec<usize> = (0..qd).rev().collect();
    let mut outstanding = 0usize;
    let now_ns = || start.elapsed().as_nanos() as u64;
    let bl = u64::from(block_len);
    let mut notes = Vec::new();
    if nfds > 1 {
        notes.push(format!(
            "sg: {nfds} open files per job ({SG_MAX_QUEUE} commands queue per file)"
        ));
    }
    loop {
        let t = now_ns();
        while let Some(&i) = free.last() {
            let Some(req) = core.next(t) else { break };
            free.pop();
            let s = &mut slots[i];
            let len = req.len as usize;
            let io = core.prepare(&req, &mut s.buf[..len], t);
            let lba = req.offset / bl;
            let blocks = (u64::from(req.len) / bl) as u32;
            let f = RwFlags::default();
            s.cdb_len = if prot_type == 2 {
                s.cdb = if req.write {
                    read_write::write32(lba, blocks, f)
                } else {
                    read_write::read32(lba, blocks, f)
                };
                32
            } else {
                let c = if req.write {
                    read_write::write16(lba, blocks, f)
                } else {
                    read_write::read16(lba, blocks, f)
                };
                s.cdb[..16].copy_from_slice(&c);
                16
            };
            let hdr = sys::sg_io_hdr {
                interface_id: i32::from(b'S'),
                dxfer_direction: if req.write {
                    sys::SG_DXFER_TO_DEV
                } else {
                    sys::SG_DXFER_FROM_DEV
                },
                cmd_len: s.cdb_len,
                mx_sb_len: SENSE_LEN as u8,
                dxfer_len: req.len,
                dxferp: s.buf.as_mut_ptr().cast(),
                cmdp: s.cdb.as_mut_ptr(),
                sbp: s.sense.as_mut_ptr(),
                timeout: TIMEOUT_MS,
                pack_id: i as i32,
                ..Default::default()
            };
            let fd = fds[i / SG_MAX_QUEUE].as_raw_fd();
            // SAFETY: `hdr` is a valid sg_io_hdr; the buffers it points at (the slot's CDB,
            // sense and data) stay in place, untouched, until the command is read back below
            // (the slots vector is never resized).
            let n = unsafe {
                libc::write(
                    fd,
                    (&hdr as *const sys::sg_io_hdr).cast(),
                    std::mem::size_of::<sys::sg_io_hdr>(),
                )
            };
            if n < 0 {
                let e = nix::errno::Errno::last();
                // Not queued: account it as a failed I/O now.
                core.reap(t, &io, &[], Outcome::Failed(IoFailure::errno(e)));
                free.push(i);
                if core.is_stopped() {
                    break;
                }
                continue;
            }
            s.io = Some(io);
            outstanding += 1;
        }
        if outstanding == 0 {
            break;
        }
        let mut pfds: Vec<libc::pollfd> = fds
            .iter()
            .map(|f| libc::pollfd {
                fd: f.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: pfds is a valid array of pollfd of the given length.
        let r = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, 60_000) };
        if r < 0 {
            let e = nix::errno::Errno::last();
            if e == nix::errno::Errno::EINTR {
                continue;
            }
            return Err(BenchError::Os(format!("{node}: poll: {e}")));
        }
        let t = now_ns();
        for (k, p) in pfds.iter().enumerate() {
            if p.revents & (libc::POLLIN | libc::POLLERR | libc::POLLHUP) == 0 {
                continue;
            }
            loop {
                let mut hdr = sys::sg_io_hdr {
                    interface_id: i32::from(b'S'),
                    pack_id: -1,
                    ..Default::default()
                };
                // SAFETY: read() fills at most size_of::<sg_io_hdr>() bytes of `hdr`; the
                // driver copies the command's data into the slot buffer named at write().
                let n = unsafe {
                    libc::read(
                        fds[k].as_raw_fd(),
                        (&mut hdr as *mut sys::sg_io_hdr).cast(),
                        std::mem::size_of::<sys::sg_io_hdr>(),
                    )
                };
                if n < 0 {
                    let e = nix::errno::Errno::last();
                    if e == nix::errno::Errno::EAGAIN || e == nix::errno::Errno::EINTR {
                        break;
                    }
                    // The device went away (ENODEV after removal, EIO ...): the commands
                    // queued on this file will not come back. Each fails with the errno,
                    // the run stops and reports what it measured (exit 4).
                    for (i, s) in slots.iter_mut().enumerate() {
                        if i / SG_MAX_QUEUE != k {
                            continue;
                        }
                        if let Some(io) = s.io.take() {
                            outstanding -= 1;
                            core.reap(t, &io, &[], Outcome::Failed(IoFailure::errno(e)));
                            free.push(i);
                        }
                    }
                    core.stop();
                    break;
                }
                let i = hdr.pack_id as usize;
                let Some(s) = slots.get_mut(i) else { continue };
                let Some(io) = s.io.take() else { continue };
                outstanding -= 1;
                let sl = usize::from(hdr.sb_len_wr).min(SENSE_LEN);
                let c = Completion {
                    status: hdr.status,
                    sense: s.sense[..sl].to_vec(),
                    resid: usize::try_from(hdr.resid).unwrap_or(0),
                    host_status: hdr.host_status,
                    driver_status: hdr.driver_status,
                    ..Completion::default()
                };
                core.reap(t, &io, &s.buf, Outcome::Scsi(&c));
                free.push(i);
            }
        }
        for p in core.take_parts() {
            let _ = tx.send(JobMsg::Part(p));
        }
    }
    let last = core.last_reap();
    Ok(core.finish(last, notes))
}
