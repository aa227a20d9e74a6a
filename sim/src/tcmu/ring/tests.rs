use super::*;
use crate::error::Error;
use crate::sense::{build_fixed, SenseKey};
use crate::transport::{Completion, DataBuf, Transport};
use std::time::Duration;

pub(crate) use super::testing::VecMem;

pub(crate) const RING_OFF: usize = 128;
pub(crate) const RING_SIZE: usize = 1024;

/// A fake kernel: queues entries the way target_core_user.c does.
pub(crate) struct FakeKernel {
    pub mem: VecMem,
    data_next: usize,
    ring_size: usize,
    /// The kernel's `cmdr_last_cleaned`: answers up to the tail are reaped from here.
    cleaned: usize,
    next_id: u16,
}

impl FakeKernel {
    pub(crate) fn new(flags: u16) -> FakeKernel {
        FakeKernel::with_sizes(flags, RING_SIZE, 64 * 1024)
    }

    /// A fake kernel with a ring of `ring_size` bytes and `data` bytes of data area.
    pub(crate) fn with_sizes(flags: u16, ring_size: usize, data: usize) -> FakeKernel {
        let mut mem = VecMem(vec![0u8; RING_OFF + ring_size + data]);
        MB_VERSION.set(&mut mem, 0, MAILBOX_VERSION);
        MB_FLAGS.set(&mut mem, 0, flags);
        MB_CMDR_OFF.set(&mut mem, 0, RING_OFF as u32);
        MB_CMDR_SIZE.set(&mut mem, 0, ring_size as u32);
        FakeKernel {
            mem,
            data_next: RING_OFF + ring_size,
            ring_size,
            cleaned: 0,
            next_id: 1,
        }
    }

    /// Data-area offsets are handed out from the start again (the caller knows the
    /// earlier buffers are answered).
    pub(crate) fn recycle_data(&mut self) {
        self.data_next = RING_OFF + self.ring_size;
    }

    fn head(&self) -> usize {
        self.mem.load_head() as usize
    }

    fn set_head(&mut self, h: usize) {
        MB_CMD_HEAD.set(&mut self.mem, 0, h as u32);
    }

    /// Queues a raw entry (header + body) at head, padding to the ring end first if needed.
    pub(crate) fn push_raw(&mut self, op: u32, body: &[u8], len: usize) -> usize {
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
    pub(crate) fn has_room(&self, len: usize) -> bool {
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
    pub(crate) fn try_push_at(
        &mut self,
        cdb: &[u8],
        iovs: &[(usize, usize)],
    ) -> Option<(usize, u16)> {
        let len = (REQ_IOV.elem(iovs.len()) + cdb.len())
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
        HDR_CMD_ID.set(&mut self.mem, at, id);
        Some((at, id))
    }

    /// Reaps answers from the last reaped one up to `cmd_tail` as the kernel's
    /// `tcmu_handle_completions` does (PAD and TMR entries skipped): (cmd_id, status) of
    /// each, in ring order.
    pub(crate) fn reap(&mut self) -> Vec<(u16, u8)> {
        let tail = self.mem.load_tail() as usize;
        let mut out = vec![];
        while self.cleaned != tail {
            let at = RING_OFF + self.cleaned;
            let len_op = HDR_LEN_OP.get(&self.mem, at).unwrap();
            let (len, op) = ((len_op & !OP_MASK) as usize, len_op & OP_MASK);
            assert!(
                len >= HDR_SIZE,
                "entry at {} has length {len}",
                self.cleaned
            );
            if op == OP_CMD {
                let id = HDR_CMD_ID.get(&self.mem, at).unwrap();
                out.push((id, RSP_SCSI_STATUS.get(&self.mem, at).unwrap()));
            }
            self.cleaned = (self.cleaned + len) % self.ring_size;
        }
        out
    }

    /// Queues a command with `cdb` and data iovecs of the given lengths (data-out contents
    /// from `out`). Returns (entry offset, iovec offsets).
    pub(crate) fn push_cmd(
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
        let base = REQ_IOV.elem(iov_lens.len());
        let len = (base + cdb.len()).max(CMD_ENTRY_SIZE).div_ceil(8) * 8;
        // Reserve to learn the entry offset, then fill the body.
        let mut head = self.head();
        if head + len > self.ring_size {
            head = 0;
        }
        let cdb_off = RING_OFF + head + base;
        let mut body = vec![0u8; len - HDR_SIZE];
        body[0..4].copy_from_slice(&(iov_lens.len() as u32).to_ne_bytes());
        let cdb_at = REQ_CDB_OFF.range();
        body[cdb_at.start - 8..cdb_at.end - 8].copy_from_slice(&(cdb_off as u64).to_ne_bytes());
        for (i, (&o, &l)) in iovs.iter().zip(iov_lens).enumerate() {
            let at = REQ_IOV.elem(i) - 8;
            body[at..at + 8].copy_from_slice(&(o as u64).to_ne_bytes());
            body[at + 8..at + 16].copy_from_slice(&(l as u64).to_ne_bytes());
        }
        body[base - 8..base - 8 + cdb.len()].copy_from_slice(cdb);
        let at = self.push_raw(OP_CMD, &body, len);
        (at, iovs)
    }

    pub(crate) fn status(&self, entry: usize) -> u8 {
        RSP_SCSI_STATUS.get(&self.mem, entry).unwrap()
    }
    pub(crate) fn sense(&self, entry: usize) -> &[u8] {
        &self.mem.0[entry + RSP_SENSE.off()..entry + RSP_SENSE.end()]
    }
    pub(crate) fn read_len(&self, entry: usize) -> Option<u32> {
        (HDR_UFLAGS.get(&self.mem, entry).unwrap() & UFLAG_READ_LEN != 0)
            .then(|| RSP_READ_LEN.get(&self.mem, entry).unwrap())
    }
}

/// A toy model: INQUIRY returns 8 bytes; WRITE(10) stores its data, READ(10) returns it;
/// anything else is ILLEGAL REQUEST 20/00; opcode 0xee fails at the transport level and
/// 0xed reports a host error.
#[derive(Default)]
pub(crate) struct Toy {
    pub stored: Vec<u8>,
    pub seen: Vec<Vec<u8>>,
}

impl Transport for Toy {
    fn execute(&mut self, cdb: &[u8], data: DataBuf<'_>, _: Duration) -> crate::Result<Completion> {
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
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_VERSION),
        MB_VERSION.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_FLAGS),
        MB_FLAGS.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMDR_OFF),
        MB_CMDR_OFF.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMDR_SIZE),
        MB_CMDR_SIZE.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMD_HEAD),
        MB_CMD_HEAD.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMD_TAIL),
        MB_CMD_TAIL.off()
    );
    assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_SIZE), 128);
    assert_eq!(size_of::<sys::tcmu_mailbox>(), 128);
    assert_eq!(size_of::<sys::tcmu_cmd_entry_hdr>(), HDR_SIZE);
    assert_eq!(
        offset_of!(sys::tcmu_cmd_entry_hdr, cmd_id),
        HDR_CMD_ID.off()
    );
    assert_eq!(
        offset_of!(sys::tcmu_cmd_entry_hdr, kflags),
        HDR_KFLAGS.off()
    );
    assert_eq!(
        offset_of!(sys::tcmu_cmd_entry_hdr, uflags),
        HDR_UFLAGS.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV_CNT),
        REQ_IOV_CNT.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV_BIDI_CNT),
        REQ_IOV_BIDI_CNT.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV_DIF_CNT),
        REQ_IOV_DIF_CNT.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_CDB_OFF),
        REQ_CDB_OFF.off()
    );
    assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_REQ_IOV), REQ_IOV.off());
    assert_eq!(l(sys::sgctl_tcmu_layout_SGCTL_TCMU_IOVEC_SIZE), IOVEC_SIZE);
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_RSP_SCSI_STATUS),
        RSP_SCSI_STATUS.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_RSP_READ_LEN),
        RSP_READ_LEN.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_RSP_SENSE),
        RSP_SENSE.off()
    );
    assert_eq!(
        l(sys::sgctl_tcmu_layout_SGCTL_TCMU_ENTRY_SIZE),
        CMD_ENTRY_SIZE
    );
    assert_eq!(size_of::<sys::tcmu_cmd_entry>(), CMD_ENTRY_SIZE);
    assert_eq!(offset_of!(sys::tcmu_tmr_entry, tmr_type), TMR_TYPE.off());
    assert_eq!(offset_of!(sys::tcmu_tmr_entry, cmd_cnt), TMR_CMD_CNT.off());
    assert_eq!(offset_of!(sys::tcmu_tmr_entry, cmd_ids), TMR_CMD_IDS.off());
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
    // The widths: each typed field reads as many bytes as the header's field holds (the
    // mailbox is opaque to bindgen for its alignment: its packed fields end where the next
    // begins).
    for (f, next) in [
        (MB_VERSION.end(), sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_FLAGS),
        (
            MB_FLAGS.end(),
            sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMDR_OFF,
        ),
        (
            MB_CMDR_OFF.end(),
            sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMDR_SIZE,
        ),
        (
            MB_CMDR_SIZE.end(),
            sys::sgctl_tcmu_layout_SGCTL_TCMU_MB_CMD_HEAD,
        ),
    ] {
        assert_eq!(f, l(next));
    }
    fn width<S, T>(_: fn(&S) -> T) -> usize {
        size_of::<T>()
    }
    assert_eq!(
        width(|h: &sys::tcmu_cmd_entry_hdr| h.len_op),
        HDR_LEN_OP.end() - HDR_LEN_OP.off()
    );
    assert_eq!(
        width(|h: &sys::tcmu_cmd_entry_hdr| h.cmd_id),
        HDR_CMD_ID.end() - HDR_CMD_ID.off()
    );
    assert_eq!(
        width(|h: &sys::tcmu_cmd_entry_hdr| h.kflags),
        HDR_KFLAGS.end() - HDR_KFLAGS.off()
    );
    assert_eq!(
        width(|h: &sys::tcmu_cmd_entry_hdr| h.uflags),
        HDR_UFLAGS.end() - HDR_UFLAGS.off()
    );
    assert_eq!(
        width(|t: &sys::tcmu_tmr_entry| t.tmr_type),
        TMR_TYPE.end() - TMR_TYPE.off()
    );
    assert_eq!(
        width(|t: &sys::tcmu_tmr_entry| t.cmd_cnt),
        TMR_CMD_CNT.end() - TMR_CMD_CNT.off()
    );
    assert_eq!(size_of::<sys::iovec>(), IOVEC_SIZE);
    assert_eq!(TMR_CMD_IDS.elem(1) - TMR_CMD_IDS.elem(0), size_of::<u16>());
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
    MB_CMDR_SIZE.set(&mut bad.mem, 0, u32::MAX);
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
    body[TMR_TYPE.off() - 8] = TMR_LUN_RESET;
    body[TMR_CMD_CNT.off() - 8..TMR_CMD_CNT.end() - 8].copy_from_slice(&2u32.to_ne_bytes());
    body[TMR_CMD_IDS.elem(0) - 8..TMR_CMD_IDS.elem(1) - 8].copy_from_slice(&7u16.to_ne_bytes());
    body[TMR_CMD_IDS.elem(1) - 8..TMR_CMD_IDS.elem(2) - 8].copy_from_slice(&9u16.to_ne_bytes());
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
    REQ_CDB_OFF.set(&mut k.mem, e1, u64::MAX);
    // An iovec reaching past the mapping.
    let (e2, _) = k.push_cmd(&[0x28, 0, 0, 0, 0, 0, 0, 0, 1, 0], &[8], &[]);
    let at = e2 + REQ_IOV.elem(0) + 8;
    k.mem.0[at..at + 8].copy_from_slice(&(1u64 << 40).to_ne_bytes());
    // iov_cnt claiming more iovecs than the entry holds.
    let (e3, _) = k.push_cmd(&[0x12, 0, 0, 0, 8, 0], &[8], &[]);
    REQ_IOV_CNT.set(&mut k.mem, e3, u32::MAX);
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
    fn execute(&mut self, cdb: &[u8], _: DataBuf<'_>, _: Duration) -> crate::Result<Completion> {
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
    HDR_CMD_ID.get(&k.mem, entry).unwrap()
}

#[test]
fn deferred_answers_complete_out_of_order_by_cmd_id() {
    let mut k = FakeKernel::new(0);
    let (slow, _) = k.push_cmd(&[0, 40, 0, 0, 0, 0], &[], &[]);
    let (fast, _) = k.push_cmd(&[0, 0, 0, 0, 0, 0], &[], &[]);
    HDR_CMD_ID.set(&mut k.mem, slow, 7);
    HDR_CMD_ID.set(&mut k.mem, fast, 9);
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
