//! Access to the shared area: the [`RingMem`] trait, the checked mailbox, and the readers of
//! one command or TMR entry (every field read byte-wise and bounds-checked).

use super::*;
use crate::error::Error;

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

pub(super) fn rd<const N: usize>(m: &dyn RingMem, off: usize) -> Option<[u8; N]> {
    let mut b = [0u8; N];
    m.read(off, &mut b).then_some(b)
}

/// The fixed part of the mailbox, checked against the mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mailbox {
    /// `flags` (TCMU_MAILBOX_FLAG_CAP_*).
    pub flags: u16,
    /// Offset of the command ring.
    pub cmdr_off: usize,
    /// Size of the command ring.
    pub cmdr_size: usize,
}

impl Mailbox {
    /// Reads and validates the mailbox (version 2, ring inside the mapping, after the mailbox).
    pub(crate) fn read(m: &dyn RingMem) -> Result<Mailbox, RingError> {
        let bad = |s: String| RingError::BadMailbox(s);
        let version = MB_VERSION
            .get(m, 0)
            .ok_or_else(|| bad(format!("mapping of {} bytes", m.len())))?;
        if version != MAILBOX_VERSION {
            return Err(bad(format!(
                "version {version}, this program speaks version {MAILBOX_VERSION}"
            )));
        }
        let flags = MB_FLAGS.get(m, 0).unwrap_or(0);
        let off = MB_CMDR_OFF.get(m, 0).unwrap_or(0) as usize;
        let size = MB_CMDR_SIZE.get(m, 0).unwrap_or(0) as usize;
        if off < MB_CMD_TAIL.end() || size < CMD_ENTRY_SIZE || off.saturating_add(size) > m.len() {
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

/// Length and opcode of the entry at ring offset `at`, checked: at least a header, inside the
/// ring and not past `limit` (the kernel's head, or the read position). A bad length means the
/// next entry cannot be found, so neither can the place to answer this one with certainty:
/// the caller stops serving this ring (and tears down); the kernel fails whatever is left
/// unanswered after its cmd_time_out, so nobody waits forever and no memory outside the entry
/// is touched.
pub(super) fn entry_len_op(
    m: &dyn RingMem,
    mb: &Mailbox,
    at: usize,
    limit: usize,
) -> Result<(usize, u32), RingError> {
    let entry = mb.cmdr_off + at;
    let len_op = HDR_LEN_OP
        .get(m, entry)
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

pub(super) fn scatter(m: &mut dyn RingMem, iovs: &[(usize, usize)], mut data: &[u8]) {
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
pub(super) fn read_cmd(
    m: &dyn RingMem,
    mb: &Mailbox,
    entry: usize,
    len: usize,
    iovs: &mut Vec<(usize, usize)>,
) -> Result<CmdReq, String> {
    iovs.clear();
    let data_start = mb.cmdr_off + mb.cmdr_size;
    let field = |what: &str| format!("{what} unreadable");
    let iov_cnt = REQ_IOV_CNT.get(m, entry).ok_or_else(|| field("iov_cnt"))? as usize;
    let bidi = REQ_IOV_BIDI_CNT
        .get(m, entry)
        .ok_or_else(|| field("iov_bidi_cnt"))? as usize;
    let dif = REQ_IOV_DIF_CNT
        .get(m, entry)
        .ok_or_else(|| field("iov_dif_cnt"))? as usize;
    // The iovec array must lie inside the entry.
    let iov_end = iov_cnt
        .checked_add(bidi)
        .and_then(|n| n.checked_add(dif))
        .and_then(|n| n.checked_mul(IOVEC_SIZE))
        .and_then(|n| n.checked_add(REQ_IOV.off()));
    if iov_end.is_none_or(|e| e > len) {
        return Err(format!(
            "{iov_cnt}+{bidi}+{dif} iovecs do not fit a {len}-byte entry"
        ));
    }
    let cdb_off = REQ_CDB_OFF
        .get(m, entry)
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
        let iov = REQ_IOV.get(m, entry, i).ok_or_else(|| field("iovec"))?;
        let base = usize::try_from(iov.base).map_err(|_| field("iov_base"))?;
        let l = usize::try_from(iov.len).map_err(|_| field("iov_len"))?;
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

pub(super) fn read_tmr(m: &dyn RingMem, entry: usize, len: usize) -> Tmr {
    let tmr_type = TMR_TYPE.get(m, entry).unwrap_or(0);
    let cnt = TMR_CMD_CNT.get(m, entry).unwrap_or(0) as usize;
    // Only the ids that fit inside the entry.
    let fit = TMR_CMD_IDS.fit(len);
    let cmd_ids = (0..cnt.min(fit))
        .filter_map(|i| TMR_CMD_IDS.get(m, entry, i))
        .collect();
    Tmr { tmr_type, cmd_ids }
}
