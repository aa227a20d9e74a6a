//! Layouts restated from `include/uapi/linux/target_core_user.h`: each field of the mailbox,
//! entry header, command and TMR entries as a typed offset ([`Field`]: where it is and what
//! it holds, so a reader gets the header's type back, never a width chosen at the call), and
//! the flag values the ring uses. The offsets and widths are checked against bindgen's
//! rendering of the header (`ring::tests::layout_matches_the_uapi_header`).

use super::mem::RingMem;
use std::marker::PhantomData;
use std::ops::Range;

/// A value the kernel keeps in the shared area: fixed size, native byte order (the kernel's
/// `__u16`/`__u32`/`__u64`), read and written byte-wise (the structures are packed, so never
/// through a Rust reference into the mapping).
pub trait Scalar: Copy {
    /// Bytes it takes in the mapping.
    const SIZE: usize;
    /// The value from exactly `SIZE` bytes.
    fn from_bytes(b: &[u8]) -> Self;
    /// The value into exactly `SIZE` bytes.
    fn to_bytes(self, out: &mut [u8]);
}

macro_rules! scalar_int {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            fn from_bytes(b: &[u8]) -> Self {
                let mut a = [0u8; core::mem::size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_ne_bytes(a)
            }
            fn to_bytes(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_ne_bytes());
            }
        }
    )*};
}
scalar_int!(u8, u16, u32, u64);

impl<const N: usize> Scalar for [u8; N] {
    const SIZE: usize = N;
    fn from_bytes(b: &[u8]) -> Self {
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        a
    }
    fn to_bytes(self, out: &mut [u8]) {
        out.copy_from_slice(&self);
    }
}

/// `struct iovec` as the ring carries it: `iov_base` is an offset into the mapping, not a
/// pointer (64-bit layout: two `__u64`-sized words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Iovec {
    /// Offset of the data from the start of the mapping.
    pub base: u64,
    /// Bytes of data.
    pub len: u64,
}

impl Scalar for Iovec {
    const SIZE: usize = 16;
    fn from_bytes(b: &[u8]) -> Self {
        Iovec {
            base: u64::from_bytes(&b[..8]),
            len: u64::from_bytes(&b[8..16]),
        }
    }
    fn to_bytes(self, out: &mut [u8]) {
        self.base.to_bytes(&mut out[..8]);
        self.len.to_bytes(&mut out[8..16]);
    }
}

/// A field of a kernel structure: its byte offset from the structure's start and its type.
#[derive(Debug)]
pub struct Field<T> {
    off: usize,
    ty: PhantomData<fn() -> T>,
}

impl<T> Clone for Field<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Field<T> {}

impl<T: Scalar> Field<T> {
    /// The field at `off` bytes from its structure's start.
    pub const fn at(off: usize) -> Self {
        Field {
            off,
            ty: PhantomData,
        }
    }
    /// Its offset from the structure's start.
    pub const fn off(self) -> usize {
        self.off
    }
    /// The offset just past it.
    pub const fn end(self) -> usize {
        self.off + T::SIZE
    }
    /// Its bytes in a buffer holding the structure at 0 (a whole mapping, for the mailbox).
    pub const fn range(self) -> Range<usize> {
        self.off..self.end()
    }
    /// The field of the structure at mapping offset `base`; `None` outside the mapping.
    pub fn get(self, m: &dyn RingMem, base: usize) -> Option<T> {
        let mut b = [0u8; 128];
        let b = b.get_mut(..T::SIZE)?;
        m.read(base.checked_add(self.off)?, b)
            .then(|| T::from_bytes(b))
    }
    /// Writes the field of the structure at mapping offset `base`; false outside the mapping.
    pub fn set(self, m: &mut dyn RingMem, base: usize, v: T) -> bool {
        let mut b = [0u8; 128];
        let (Some(b), Some(at)) = (b.get_mut(..T::SIZE), base.checked_add(self.off)) else {
            return false;
        };
        v.to_bytes(b);
        m.write(at, b)
    }
}

/// A flexible array member (`T x[]`) at the end of a kernel structure.
#[derive(Debug)]
pub(crate) struct Array<T> {
    off: usize,
    ty: PhantomData<fn() -> T>,
}

impl<T> Clone for Array<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Array<T> {}

impl<T: Scalar> Array<T> {
    /// The array starting `off` bytes from its structure's start.
    pub(crate) const fn at(off: usize) -> Self {
        Array {
            off,
            ty: PhantomData,
        }
    }
    /// Its offset from the structure's start.
    pub(crate) const fn off(self) -> usize {
        self.off
    }
    /// The offset of element `i`.
    #[cfg(test)]
    pub(crate) const fn elem(self, i: usize) -> usize {
        self.off + i * T::SIZE
    }
    /// How many whole elements a structure of `len` bytes holds.
    pub(crate) const fn fit(self, len: usize) -> usize {
        len.saturating_sub(self.off) / T::SIZE
    }
    /// Element `i` of the structure at mapping offset `base`; `None` outside the mapping.
    pub(crate) fn get(self, m: &dyn RingMem, base: usize, i: usize) -> Option<T> {
        let at = i
            .checked_mul(T::SIZE)
            .and_then(|o| o.checked_add(self.off))?;
        Field::<T>::at(at).get(m, base)
    }
}

// --- struct tcmu_mailbox (packed; cmd_tail aligned to ALIGN_SIZE = 64) ---
/// `__u16 version` at offset 0.
pub const MB_VERSION: Field<u16> = Field::at(0);
/// `__u16 flags` at offset 2.
pub(crate) const MB_FLAGS: Field<u16> = Field::at(2);
/// `__u32 cmdr_off` at offset 4.
pub(crate) const MB_CMDR_OFF: Field<u32> = Field::at(4);
/// `__u32 cmdr_size` at offset 8.
pub(crate) const MB_CMDR_SIZE: Field<u32> = Field::at(8);
/// `__u32 cmd_head` at offset 12 (written by the kernel).
pub const MB_CMD_HEAD: Field<u32> = Field::at(12);
/// `__u32 cmd_tail __attribute__((__aligned__(ALIGN_SIZE)))` at offset 64 (written by us).
pub const MB_CMD_TAIL: Field<u32> = Field::at(64);
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
pub(crate) const HDR_LEN_OP: Field<u32> = Field::at(0);
/// `__u16 cmd_id`.
pub(crate) const HDR_CMD_ID: Field<u16> = Field::at(4);
/// `__u8 kflags`.
#[allow(dead_code)] // nothing here reads the kernel's flags; restated for the layout check
pub(crate) const HDR_KFLAGS: Field<u8> = Field::at(6);
/// `__u8 uflags`.
pub(crate) const HDR_UFLAGS: Field<u8> = Field::at(7);
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
pub(crate) const REQ_IOV_CNT: Field<u32> = Field::at(8);
/// `__u32 iov_bidi_cnt` at 12.
pub(crate) const REQ_IOV_BIDI_CNT: Field<u32> = Field::at(12);
/// `__u32 iov_dif_cnt` at 16.
pub(crate) const REQ_IOV_DIF_CNT: Field<u32> = Field::at(16);
/// `__u64 cdb_off` at 24 (after 4 bytes of alignment padding): offset of the CDB from the start
/// of the mapping.
pub(crate) const REQ_CDB_OFF: Field<u64> = Field::at(24);
/// `struct iovec iov[]` at 48 (after two `__u64` pads); `iov_base` is an offset into the
/// mapping, not a pointer.
pub(crate) const REQ_IOV: Array<Iovec> = Array::at(48);
/// `sizeof(struct iovec)` on 64-bit.
pub(crate) const IOVEC_SIZE: usize = Iovec::SIZE;

// --- union member rsp (overlays req: read the request before answering) ---
/// `__u8 scsi_status` at 8.
pub(crate) const RSP_SCSI_STATUS: Field<u8> = Field::at(8);
/// `__u32 read_len` at 12.
pub(crate) const RSP_READ_LEN: Field<u32> = Field::at(12);
/// `char sense_buffer[TCMU_SENSE_BUFFERSIZE]` at 16.
pub(crate) const RSP_SENSE: Field<[u8; SENSE_BUFFERSIZE]> = Field::at(16);
/// `TCMU_SENSE_BUFFERSIZE` (= SCSI_SENSE_BUFFERSIZE).
pub(crate) const SENSE_BUFFERSIZE: usize = 96;
/// `sizeof(struct tcmu_cmd_entry)`: the response needs this much room.
pub(crate) const CMD_ENTRY_SIZE: usize = RSP_SENSE.end();

// --- struct tcmu_tmr_entry ---
/// `__u8 tmr_type` at 8.
pub(crate) const TMR_TYPE: Field<u8> = Field::at(8);
/// `__u32 cmd_cnt` at 12.
pub(crate) const TMR_CMD_CNT: Field<u32> = Field::at(12);
/// `__u16 cmd_ids[]` at 32.
pub(crate) const TMR_CMD_IDS: Array<u16> = Array::at(32);
/// `TCMU_TMR_ABORT_TASK`.
pub const TMR_ABORT_TASK: u8 = 1;
/// `TCMU_TMR_LUN_RESET`.
pub const TMR_LUN_RESET: u8 = 5;

/// Bytes of data one command may move through us (the kernel's data area is smaller).
pub(crate) const MAX_DATA: usize = 1 << 30;
