//! Queued SG v3 on `/dev/sgN`: many commands in flight on one node, each submitted with a
//! `write()` of its `sg_io_hdr` (pack_id = its slot), completions awaited with `poll()` and
//! collected with non-blocking `read()`s (the sg driver's asynchronous interface, sg3_utils'
//! `sg_read_async`/`sgp_dd`). Used by the benchmark's `sg` engine; single commands go through
//! [`super::sgio::SgIo`]. Replies decode exactly as the synchronous path's
//! ([`super::sgio`]: same sense clamp, data-in residual, host/driver bytes), so
//! [`super::check`] judges both.
//!
//! Buffers are the queue's: every slot owns its data and sense buffers, created once and never
//! resized. Between a command's `write()` and the `read()` that returns it the driver holds
//! their addresses, so while a slot is in flight the queue hands out no reference to its
//! buffers ([`SgQueue::buf`] and [`SgQueue::buf_mut`] answer `None`) and refuses to submit on
//! it again. Dropping the queue closes the descriptors before it frees the buffers: commands
//! still queued then are orphaned, and the driver never copies an orphan's data or sense
//! into user memory (`bio_uncopy_user` runs from a workqueue, with no user address space).
//! The sg driver keeps at most [`SG_MAX_QUEUE`] commands per open file, so a queue deeper
//! than that opens one descriptor per 16 slots (slot `i` on file `i / 16`).
#![allow(unsafe_code)] // write()/read() of sg_io_hdr naming the slots' buffers: see SAFETY notes

use super::sgio::{self, NodeKind, MAX_SENSE};
use super::Completion;
use crate::error::{Error, Invalid, Result};
use nix::errno::Errno;
use sgctl_sys as sys;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

/// Commands the sg driver queues per open file (SG_MAX_QUEUE in `<scsi/sg.h>`).
pub const SG_MAX_QUEUE: usize = 16;

/// The data phase of a queued command, in its slot's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Xfer {
    /// No data phase.
    None,
    /// This many bytes from the device into the slot's buffer.
    In(usize),
    /// The first this-many bytes of the slot's buffer to the device.
    Out(usize),
}

impl Xfer {
    fn len(self) -> usize {
        match self {
            Xfer::None => 0,
            Xfer::In(n) | Xfer::Out(n) => n,
        }
    }
}

/// One command back from the queue.
#[derive(Debug)]
pub struct Reaped {
    /// The slot it was submitted on (its pack_id).
    pub tag: usize,
    /// The device's answer for [`super::check`], or `Err` when it cannot come: the node's
    /// `read()` failed (device removed: ENODEV), which ends every command queued on that file.
    pub result: Result<Completion>,
}

#[derive(Debug, Clone, Copy)]
enum State {
    Idle,
    InFlight { xfer: Xfer, since: Instant },
}

/// A slot's buffers. They are allocated once and never resized or reallocated, so the
/// addresses a submitted header names stay put while the command is in flight.
#[derive(Debug)]
struct Slot {
    data: Vec<u8>,
    sense: Vec<u8>,
    state: State,
}

/// What a `read()` of a reply header turned into, before the slot bookkeeping.
#[derive(Debug)]
enum ReadOutcome {
    /// A filled header.
    Reply(sys::sg_io_hdr),
    /// Nothing (more) ready on this file.
    Empty,
    /// The file failed: its queued commands will not come back.
    Failed(Errno),
}

/// A queue of SG v3 commands on one sg node. See the module docs for who owns what.
#[derive(Debug)]
pub struct SgQueue {
    /// `None` once a `read()` failed on it (its commands were reported failed).
    files: Vec<Option<OwnedFd>>,
    slots: Vec<Slot>,
    /// Per file: poll() said readable and it has not been drained since.
    ready: Vec<bool>,
    /// Per file: the errno its `read()` failed with.
    failed: Vec<Option<Errno>>,
    /// Tags of commands lost with a failed file, still to be reported.
    lost: Vec<(usize, Errno)>,
    in_flight: usize,
    path: String,
}

impl SgQueue {
    /// Opens `depth` slots of `buf_len`-byte buffers on the sg node `path`: one read-write,
    /// non-blocking descriptor per [`SG_MAX_QUEUE`] slots. Refuses anything but the sg
    /// character driver ([`Error::NotScsi`]): on a block device `write()` would write the
    /// header to the medium.
    pub fn open(path: &str, depth: usize, buf_len: usize) -> Result<SgQueue> {
        if sgio::classify(path)? != NodeKind::Sg {
            return Err(Error::NotScsi {
                path: path.into(),
                reason: "queued commands need an sg node (/dev/sgN)".into(),
            });
        }
        let mut files = Vec::new();
        for _ in 0..depth.max(1).div_ceil(SG_MAX_QUEUE) {
            let f = open_rw(path)?;
            if files.is_empty() {
                sgio::sg_version(&f, path)?;
            }
            files.push(OwnedFd::from(f));
        }
        Ok(SgQueue::with_files(files, path, depth, buf_len))
    }

    fn with_files(files: Vec<OwnedFd>, path: &str, depth: usize, buf_len: usize) -> SgQueue {
        let n = files.len();
        SgQueue {
            files: files.into_iter().map(Some).collect(),
            slots: (0..depth)
                .map(|_| Slot {
                    data: vec![0; buf_len],
                    sense: vec![0; MAX_SENSE],
                    state: State::Idle,
                })
                .collect(),
            ready: vec![false; n],
            failed: vec![None; n],
            lost: Vec::new(),
            in_flight: 0,
            path: path.into(),
        }
    }

    /// Number of slots (tags `0..depth`).
    pub fn depth(&self) -> usize {
        self.slots.len()
    }

    /// Number of open files (one per [`SG_MAX_QUEUE`] slots).
    pub fn files(&self) -> usize {
        self.files.len()
    }

    /// Commands submitted and not yet reaped.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// The node.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Slot `tag`'s whole buffer, to fill before a data-out submit; `None` while the slot is
    /// in flight (the driver holds its address) or when there is no such slot.
    pub fn buf_mut(&mut self, tag: usize) -> Option<&mut [u8]> {
        let s = self.slots.get_mut(tag)?;
        matches!(s.state, State::Idle).then_some(s.data.as_mut_slice())
    }

    /// Slot `tag`'s whole buffer, to read after its command was reaped; `None` while in flight.
    pub fn buf(&self, tag: usize) -> Option<&[u8]> {
        let s = self.slots.get(tag)?;
        matches!(s.state, State::Idle).then_some(s.data.as_slice())
    }

    /// The header for `cdb` on slot `tag`; checks the slot is idle and the transfer fits.
    fn header(
        &mut self,
        tag: usize,
        cdb: &[u8],
        xfer: Xfer,
        timeout: Duration,
    ) -> Result<sys::sg_io_hdr> {
        let bad = |reason| Error::from(Invalid::QueueSlot { tag, reason });
        let pack_id = i32::try_from(tag).map_err(|_| bad("not a pack_id"))?;
        let s = self.slots.get_mut(tag).ok_or_else(|| bad("no such slot"))?;
        if !matches!(s.state, State::Idle) {
            return Err(bad("still in flight"));
        }
        if xfer.len() > s.data.len() {
            return Err(bad("transfer longer than the slot's buffer"));
        }
        let l = sgio::lengths(cdb, xfer.len(), timeout)?;
        let (direction, dxferp) = match xfer {
            Xfer::None => (sys::SG_DXFER_NONE, std::ptr::null_mut()),
            Xfer::In(_) => (sys::SG_DXFER_FROM_DEV, s.data.as_mut_ptr().cast()),
            Xfer::Out(_) => (sys::SG_DXFER_TO_DEV, s.data.as_mut_ptr().cast()),
        };
        Ok(sys::sg_io_hdr {
            interface_id: i32::from(b'S'),
            dxfer_direction: direction,
            cmd_len: l.cmd_len,
            mx_sb_len: u8::try_from(s.sense.len()).unwrap_or(u8::MAX),
            dxfer_len: l.dxfer_len,
            dxferp,
            // The driver copies the CDB during write(); it only reads it.
            cmdp: cdb.as_ptr().cast_mut(),
            sbp: s.sense.as_mut_ptr(),
            timeout: l.timeout_ms,
            pack_id,
            ..Default::default()
        })
    }

    /// Queues `cdb` on slot `tag` with the slot's buffer as its data (`xfer`). `Err` means
    /// it was not queued (the slot stays free): a bad slot or length ([`Invalid::QueueSlot`]),
    /// or the driver refused it (`write` errno: EDOM when its queue is full, ENODEV...).
    pub fn submit(&mut self, tag: usize, cdb: &[u8], xfer: Xfer, timeout: Duration) -> Result<()> {
        let hdr = self.header(tag, cdb, xfer, timeout)?;
        let k = tag / SG_MAX_QUEUE;
        if let Some(e) = self.failed.get(k).copied().flatten() {
            return Err(sgio::os_error("write", &self.path, e));
        }
        let Some(fd) = self.files.get(k).and_then(Option::as_ref) else {
            return Err(sgio::os_error("write", &self.path, Errno::EBADF));
        };
        // SAFETY: `hdr` is a live sg_io_hdr and write() reads exactly its size from it. The
        // addresses it names: the CDB (read by the driver during this call only), and the
        // slot's sense and data buffers, which the slot owns, never reallocates and (the state
        // set below) exposes to no reference until read() returns this pack_id or the file is
        // closed; the buffers are freed only after the files are closed (Drop).
        let n = unsafe {
            libc::write(
                fd.as_raw_fd(),
                std::ptr::from_ref(&hdr).cast(),
                std::mem::size_of::<sys::sg_io_hdr>(),
            )
        };
        if n < 0 {
            return Err(sgio::os_error("write", &self.path, Errno::last()));
        }
        // The sg driver answers a header write with its full size or an errno; anything it
        // accepted is in flight.
        self.slots[tag].state = State::InFlight {
            xfer,
            since: Instant::now(),
        };
        self.in_flight += 1;
        Ok(())
    }

    /// Waits up to `timeout` for a reply on any file with commands in flight. Returns how many
    /// files are ready (0: timed out, interrupted by a signal, or nothing in flight); then
    /// [`SgQueue::reap`] collects them.
    pub fn poll(&mut self, timeout: Duration) -> Result<usize> {
        use nix::poll::{PollFd, PollFlags, PollTimeout};
        if !self.lost.is_empty() {
            return Ok(1);
        }
        let mut busy = vec![false; self.files.len()];
        for (i, s) in self.slots.iter().enumerate() {
            if matches!(s.state, State::InFlight { .. }) {
                busy[i / SG_MAX_QUEUE] = true;
            }
        }
        let mut which = Vec::new();
        let mut fds = Vec::new();
        for (k, f) in self.files.iter().enumerate() {
            if let (Some(f), true) = (f, busy[k]) {
                which.push(k);
                fds.push(PollFd::new(f.as_fd(), PollFlags::POLLIN));
            }
        }
        if fds.is_empty() {
            return Ok(0);
        }
        let t = PollTimeout::try_from(timeout).unwrap_or(PollTimeout::MAX);
        match nix::poll::poll(&mut fds, t) {
            Ok(_) => {}
            Err(Errno::EINTR) => return Ok(0),
            Err(e) => return Err(sgio::os_error("poll", &self.path, e)),
        }
        let want = PollFlags::POLLIN | PollFlags::POLLERR | PollFlags::POLLHUP;
        let mut n = 0;
        for (p, &k) in fds.iter().zip(&which) {
            if p.revents().is_some_and(|r| r.intersects(want)) {
                self.ready[k] = true;
                n += 1;
            }
        }
        Ok(n)
    }

    /// The next command back, without blocking: drains the files the last
    /// [`SgQueue::poll`] found ready. `None` when they have nothing more.
    pub fn reap(&mut self) -> Option<Reaped> {
        loop {
            if let Some((tag, e)) = self.lost.pop() {
                return Some(Reaped {
                    tag,
                    result: Err(sgio::os_error("read", &self.path, e)),
                });
            }
            let k = self.ready.iter().position(|&r| r)?;
            match self.read_reply(k) {
                ReadOutcome::Empty => self.ready[k] = false,
                ReadOutcome::Failed(e) => self.fail_file(k, e),
                ReadOutcome::Reply(hdr) => {
                    if let Some(r) = self.complete(k, &hdr) {
                        return Some(r);
                    }
                }
            }
        }
    }

    fn read_reply(&mut self, k: usize) -> ReadOutcome {
        let Some(fd) = self.files.get(k).and_then(Option::as_ref) else {
            return ReadOutcome::Empty;
        };
        // pack_id -1: whichever command is done first (SG_SET_FORCE_PACK_ID is off).
        let mut hdr = sys::sg_io_hdr {
            interface_id: i32::from(b'S'),
            pack_id: -1,
            ..Default::default()
        };
        // SAFETY: read() writes at most size_of::<sg_io_hdr>() bytes into `hdr`, a live,
        // writable sg_io_hdr. During the call the driver copies the finished command's data
        // and sense into the buffers its header named at write(): slot buffers that are in
        // flight, hence not referenced anywhere, and still allocated (see `submit`).
        let n = unsafe {
            libc::read(
                fd.as_raw_fd(),
                std::ptr::from_mut(&mut hdr).cast(),
                std::mem::size_of::<sys::sg_io_hdr>(),
            )
        };
        match usize::try_from(n) {
            Ok(n) if n == std::mem::size_of::<sys::sg_io_hdr>() => ReadOutcome::Reply(hdr),
            // A short read (or end of file) is no sg reply: the file is unusable.
            Ok(_) => ReadOutcome::Failed(Errno::EIO),
            Err(_) => match Errno::last() {
                Errno::EAGAIN | Errno::EINTR => ReadOutcome::Empty,
                e => ReadOutcome::Failed(e),
            },
        }
    }

    /// Books a reply read from file `k`: `None` for a pack_id that names no command in
    /// flight on that file (ignored).
    fn complete(&mut self, k: usize, hdr: &sys::sg_io_hdr) -> Option<Reaped> {
        let tag = usize::try_from(hdr.pack_id).ok()?;
        if tag / SG_MAX_QUEUE != k {
            return None;
        }
        let s = self.slots.get_mut(tag)?;
        let State::InFlight { xfer, since } = s.state else {
            return None;
        };
        s.state = State::Idle;
        self.in_flight -= 1;
        let data_in = match xfer {
            Xfer::In(n) => n,
            _ => 0,
        };
        Some(Reaped {
            tag,
            result: Ok(sgio::decode_reply(hdr, &s.sense, data_in, since.elapsed())),
        })
    }

    /// File `k`'s read() failed: close it (its queued commands become orphans the driver
    /// never copies into our buffers), report each of its commands failed, and refuse new
    /// ones on its slots.
    fn fail_file(&mut self, k: usize, e: Errno) {
        self.ready[k] = false;
        self.failed[k] = Some(e);
        self.files[k] = None;
        for (tag, s) in self.slots.iter_mut().enumerate() {
            if tag / SG_MAX_QUEUE == k && matches!(s.state, State::InFlight { .. }) {
                s.state = State::Idle;
                self.in_flight -= 1;
                self.lost.push((tag, e));
            }
        }
        self.lost.reverse();
    }
}

impl Drop for SgQueue {
    fn drop(&mut self) {
        // Close every file before the slots' buffers are freed (the fields drop after this):
        // commands still queued become orphans, whose data the driver drops.
        self.files.clear();
    }
}

fn open_rw(path: &str) -> Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| {
            sgio::os_error(
                "open",
                path,
                e.raw_os_error()
                    .map(Errno::from_raw)
                    .unwrap_or(Errno::UnknownErrno),
            )
        })
}

#[cfg(test)]
mod tests {
    //! Without a kernel sg driver: header building, reply decoding and slot bookkeeping, and
    //! the write/poll/read path against a SOCK_SEQPACKET peer that plays the driver (reads
    //! each 88-byte header, answers with a filled one).
    use super::*;
    use nix::sys::socket::{socketpair, AddressFamily, SockFlag, SockType};

    const T: Duration = Duration::from_secs(30);

    /// A queue whose `files` are socket ends; returns the driver-side ends.
    fn fake(depth: usize, buf_len: usize) -> (SgQueue, Vec<OwnedFd>) {
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for _ in 0..depth.div_ceil(SG_MAX_QUEUE) {
            let (a, b) = socketpair(
                AddressFamily::Unix,
                SockType::SeqPacket,
                None,
                SockFlag::SOCK_NONBLOCK | SockFlag::SOCK_CLOEXEC,
            )
            .unwrap();
            ours.push(a);
            theirs.push(b);
        }
        (
            SgQueue::with_files(ours, "/dev/sg9", depth, buf_len),
            theirs,
        )
    }

    /// The driver side: the next header written to it.
    fn take(peer: &OwnedFd) -> sys::sg_io_hdr {
        let mut b = [0u8; std::mem::size_of::<sys::sg_io_hdr>()];
        let n = nix::unistd::read(peer.as_raw_fd(), &mut b).unwrap();
        assert_eq!(n, b.len());
        // SAFETY: test only: `b` holds exactly the bytes of an sg_io_hdr our queue wrote,
        // read unaligned into a fresh value (raw pointer fields are just integers here).
        unsafe { std::ptr::read_unaligned(b.as_ptr().cast()) }
    }

    /// The driver side: answers with `hdr` (its pack_id says which command).
    fn answer(peer: &OwnedFd, hdr: &sys::sg_io_hdr) {
        // SAFETY: test only: views the live header as its 88 bytes for the write.
        let b = unsafe {
            std::slice::from_raw_parts(
                std::ptr::from_ref(hdr).cast::<u8>(),
                std::mem::size_of::<sys::sg_io_hdr>(),
            )
        };
        assert_eq!(nix::unistd::write(peer, b).unwrap(), b.len());
    }

    fn drain(q: &mut SgQueue) -> Vec<Reaped> {
        let mut out = Vec::new();
        while q.poll(Duration::from_millis(200)).unwrap() > 0 {
            while let Some(r) = q.reap() {
                out.push(r);
            }
        }
        out
    }

    #[test]
    fn headers_name_the_slot_buffers_and_pack_id() {
        let (mut q, _peers) = fake(20, 4096);
        let cdb = [0x88u8; 16];
        let h = q.header(17, &cdb, Xfer::In(4096), T).unwrap();
        assert_eq!(h.interface_id, 0x53);
        assert_eq!(h.pack_id, 17);
        assert_eq!(h.dxfer_direction, sys::SG_DXFER_FROM_DEV);
        assert_eq!(h.dxfer_len, 4096);
        assert_eq!(h.cmd_len, 16);
        assert_eq!(usize::from(h.mx_sb_len), MAX_SENSE);
        assert_eq!(h.timeout, 30_000);
        assert_eq!(h.dxferp.cast_const(), q.slots[17].data.as_ptr().cast());
        assert_eq!(h.sbp.cast_const(), q.slots[17].sense.as_ptr());
        assert_eq!(h.cmdp.cast_const(), cdb.as_ptr());
        let h = q.header(3, &cdb[..10], Xfer::Out(512), T).unwrap();
        assert_eq!(h.dxfer_direction, sys::SG_DXFER_TO_DEV);
        assert_eq!((h.dxfer_len, h.cmd_len, h.pack_id), (512, 10, 3));
        let h = q.header(0, &[0u8; 6], Xfer::None, T).unwrap();
        assert_eq!(h.dxfer_direction, sys::SG_DXFER_NONE);
        assert!(h.dxferp.is_null());
        assert_eq!(q.files(), 2);
    }

    #[test]
    fn bad_slots_and_lengths_are_refused() {
        let (mut q, _peers) = fake(4, 512);
        let slot_err = |r: Result<()>| match r {
            Err(Error::Invalid(Invalid::QueueSlot { reason, .. })) => reason,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            slot_err(q.submit(4, &[0u8; 6], Xfer::None, T)),
            "no such slot"
        );
        assert_eq!(
            slot_err(q.submit(0, &[0u8; 16], Xfer::In(513), T)),
            "transfer longer than the slot's buffer"
        );
        assert!(matches!(
            q.submit(0, &[], Xfer::None, T),
            Err(Error::Invalid(Invalid::CdbLength { len: 0 }))
        ));
        assert_eq!(q.in_flight(), 0);
    }

    #[test]
    fn in_flight_slots_are_neither_lent_nor_resubmitted() {
        let (mut q, peers) = fake(2, 512);
        q.buf_mut(1).unwrap().fill(0xa5);
        q.submit(1, &[0x8a; 16], Xfer::Out(512), T).unwrap();
        assert_eq!(q.in_flight(), 1);
        assert!(q.buf(1).is_none());
        assert!(q.buf_mut(1).is_none());
        assert!(q.buf_mut(0).is_some());
        match q.submit(1, &[0x8a; 16], Xfer::Out(512), T) {
            Err(Error::Invalid(Invalid::QueueSlot { tag: 1, reason })) => {
                assert_eq!(reason, "still in flight")
            }
            other => panic!("{other:?}"),
        }
        let mut h = take(&peers[0]);
        assert_eq!(h.pack_id, 1);
        // The data-out buffer the "driver" sees is the one filled above.
        h.status = 0;
        answer(&peers[0], &h);
        let r = drain(&mut q);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].tag, 1);
        let c = r[0].result.as_ref().unwrap();
        assert_eq!((c.status, c.resid), (0, 0));
        assert_eq!(q.in_flight(), 0);
        assert!(q.buf(1).unwrap().iter().all(|&b| b == 0xa5));
    }

    #[test]
    fn replies_decode_like_the_sync_path() {
        let (mut q, peers) = fake(3, 4096);
        for tag in 0..3 {
            q.submit(tag, &[0x88; 16], Xfer::In(4096), T).unwrap();
        }
        // Answer out of order: 2 with CHECK CONDITION, 0 short by 1024, 1 with a lying
        // sense length and a residual beyond the buffer.
        let h: Vec<_> = (0..3).map(|_| take(&peers[0])).collect();
        assert_eq!(
            h.iter().map(|h| h.pack_id).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        let sense = crate::sense::build_fixed(crate::sense::SenseKey::MediumError, 0x11, 0);
        let mut r2 = h[2];
        // SAFETY: test only, playing the driver: slot 2 is in flight, so nothing references
        // its sense buffer, which `sbp` names and which holds MAX_SENSE (>= 18) bytes.
        unsafe { std::ptr::copy_nonoverlapping(sense.as_ptr(), r2.sbp, sense.len()) };
        r2.status = 0x02;
        r2.sb_len_wr = sense.len() as u8;
        r2.driver_status = 0x08;
        r2.info = sys::SG_INFO_CHECK;
        answer(&peers[0], &r2);
        let mut r0 = h[0];
        // SAFETY: as above, slot 0's data buffer (4096 bytes, in flight).
        unsafe { std::ptr::write_bytes(r0.dxferp.cast::<u8>(), 0x5a, 3072) };
        r0.resid = 1024;
        r0.duration = 7;
        answer(&peers[0], &r0);
        let mut r1 = h[1];
        r1.sb_len_wr = 255;
        r1.resid = 1 << 20;
        answer(&peers[0], &r1);
        let got = drain(&mut q);
        assert_eq!(got.iter().map(|r| r.tag).collect::<Vec<_>>(), vec![2, 0, 1]);
        let c2 = got[0].result.as_ref().unwrap();
        assert_eq!(c2.sense, sense.to_vec());
        match super::super::check(c2) {
            Err(Error::Sense(s)) => assert_eq!((s.asc, s.ascq), (0x11, 0)),
            other => panic!("{other:?}"),
        }
        let c0 = got[1].result.as_ref().unwrap();
        assert_eq!(c0.resid, 1024);
        assert_eq!(c0.transferred(4096), 3072);
        assert_eq!(c0.duration, Duration::from_millis(7));
        let b0 = q.buf(0).unwrap();
        assert!(b0[..3072].iter().all(|&b| b == 0x5a) && b0[3072] == 0);
        let c1 = got[2].result.as_ref().unwrap();
        assert_eq!(c1.sense.len(), MAX_SENSE);
        assert_eq!(c1.resid, 4096);
    }

    #[test]
    fn stray_and_foreign_pack_ids_are_ignored() {
        let (mut q, peers) = fake(20, 512);
        q.submit(0, &[0x88; 16], Xfer::In(512), T).unwrap();
        q.submit(17, &[0x88; 16], Xfer::In(512), T).unwrap();
        let h0 = take(&peers[0]);
        let h17 = take(&peers[1]);
        // Unknown, idle, out of range, negative, and slot 17 answered on file 0.
        for id in [5, 99, -3, 17] {
            let mut h = h0;
            h.pack_id = id;
            answer(&peers[0], &h);
        }
        answer(&peers[0], &h0);
        answer(&peers[1], &h17);
        let got = drain(&mut q);
        let mut tags: Vec<_> = got.iter().map(|r| r.tag).collect();
        tags.sort_unstable();
        assert_eq!(tags, vec![0, 17]);
        assert_eq!(q.in_flight(), 0);
        // A second answer for an already reaped command is ignored too.
        answer(&peers[0], &h0);
        assert!(drain(&mut q).is_empty());
    }

    #[test]
    fn a_failed_file_fails_its_commands_and_refuses_more() {
        let (mut q, mut peers) = fake(20, 512);
        for tag in [0, 1, 16] {
            q.submit(tag, &[0x88; 16], Xfer::In(512), T).unwrap();
        }
        // File 0's "driver" takes both commands and goes away: read() sees end of file, no
        // sg reply (a removed sg device fails read() with ENODEV instead).
        take(&peers[0]);
        take(&peers[0]);
        drop(peers.remove(0));
        let got = drain(&mut q);
        let mut tags: Vec<_> = got.iter().map(|r| r.tag).collect();
        tags.sort_unstable();
        assert_eq!(tags, vec![0, 1]);
        for r in &got {
            match &r.result {
                Err(Error::Os {
                    op: "read", errno, ..
                }) => assert_eq!(*errno, Errno::EIO),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(q.in_flight(), 1);
        // Slots of the failed file are free again (its descriptor is closed) but refuse work.
        assert!(q.buf(0).is_some());
        assert!(matches!(
            q.submit(0, &[0x88; 16], Xfer::In(512), T),
            Err(Error::Os { op: "write", .. })
        ));
        // The other file still works.
        answer(&peers[0], &take(&peers[0]));
        let got = drain(&mut q);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].tag, 16);
        assert!(got[0].result.is_ok());
    }

    #[test]
    fn write_errors_leave_the_slot_free() {
        let (mut q, peers) = fake(1, 512);
        drop(peers);
        match q.submit(0, &[0x88; 16], Xfer::In(512), T) {
            Err(Error::Os {
                op: "write", errno, ..
            }) => assert_eq!(errno, Errno::EPIPE),
            other => panic!("{other:?}"),
        }
        assert_eq!(q.in_flight(), 0);
        assert!(q.buf_mut(0).is_some());
    }

    #[test]
    fn only_sg_nodes_are_opened() {
        match SgQueue::open("/dev/null", 4, 512) {
            Err(Error::NotScsi { reason, .. }) => assert!(reason.contains("sg node"), "{reason}"),
            other => panic!("{other:?}"),
        }
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("disk.img");
        std::fs::write(&f, [0u8; 512]).unwrap();
        assert!(matches!(
            SgQueue::open(f.to_str().unwrap(), 4, 512),
            Err(Error::NotScsi { .. })
        ));
    }
}
