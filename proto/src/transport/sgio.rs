//! SG_IO v3 (`struct sg_io_hdr`, `interface_id = 'S'`) on `/dev/sgN` (sg driver) and
//! `/dev/sdX` (block-layer SG_IO, `block/scsi_ioctl.c`), plus the node checks and errno
//! mapping shared with [`super::bsg`].
//!
//! Header fields and offsets: docs/protocols.md §A.1 (checked by sgctl-sys layout tests). Outputs
//! are valid only when the ioctl returns 0; a failed ioctl means the command may not have been
//! sent, or (EINTR) that it was orphaned and may still be running (§A.3).
#![allow(unsafe_code)] // ioctl/mmap on kernel interfaces; each block says why it is sound

use super::{Completion, DataBuf, Transport};
use crate::error::{Error, Invalid, Result};
use nix::errno::Errno;
use sgctl_sys as sys;
use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::time::{Duration, Instant};

/// Sense buffer we offer the kernel: SPC-5 4.4.1 caps sense data at 252 bytes (the kernel
/// itself keeps 96, SCSI_SENSE_BUFFERSIZE, and copies `min(mx_sb_len, sense_len)`).
pub(crate) const MAX_SENSE: usize = 252;

/// Major number of the sg character driver (Documentation/admin-guide/devices.txt).
pub(crate) const SG_MAJOR: u32 = 21;

/// What kind of node a path is, decided before opening it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// `/dev/sgN`: sg character driver, SG_IO v3.
    Sg,
    /// A block device (`/dev/sdX`): block-layer SG_IO v3, always filtered without CAP_SYS_RAWIO.
    Block,
    /// `/dev/bsg/H:C:T:L`: bsg character device, sg_io_v4 only.
    Bsg,
    /// Some other character device (`/dev/null`, a tty...): tried with SG_IO v3, which will
    /// normally fail SG_GET_VERSION_NUM and be reported as not SCSI.
    OtherChar,
}

/// Looks at `path` (following symlinks such as /dev/disk/by-id/...) and decides the backend.
/// Regular files, directories, FIFOs and sockets are [`Error::NotScsi`]; a missing path is
/// [`Error::Os`] with `op: "open"`.
pub fn classify(path: &str) -> Result<NodeKind> {
    let md = std::fs::metadata(path).map_err(|e| io_open_error(path, &e))?;
    let ft = md.file_type();
    let not_scsi = |what: &str| Error::NotScsi {
        path: path.into(),
        reason: format!("{what}, not a device node"),
    };
    if ft.is_file() {
        return Err(not_scsi("a regular file"));
    }
    if ft.is_dir() {
        return Err(not_scsi("a directory"));
    }
    if ft.is_block_device() {
        return Ok(NodeKind::Block);
    }
    if !ft.is_char_device() {
        return Err(not_scsi("a FIFO or socket"));
    }
    let rdev = md.rdev();
    let (major, minor) = (libc::major(rdev), libc::minor(rdev));
    if major == SG_MAJOR {
        return Ok(NodeKind::Sg);
    }
    // bsg has a dynamic major; its sysfs class tells (/sys/dev/char/M:m -> .../bsg/H:C:T:L).
    let link = std::fs::read_link(format!("/sys/dev/char/{major}:{minor}"));
    if path.starts_with("/dev/bsg/")
        || link.is_ok_and(|l| l.components().any(|c| c.as_os_str() == "bsg"))
    {
        return Ok(NodeKind::Bsg);
    }
    Ok(NodeKind::OtherChar)
}

/// A hint for the admin, per operation and errno (docs/protocols.md §A.3, sg3_utils `sg_pt_linux.c`).
pub(crate) fn errno_hint(op: &str, errno: Errno) -> Option<&'static str> {
    let open = op == "open";
    Some(match errno {
        Errno::ENOENT if open => "no such device node",
        Errno::EACCES | Errno::EPERM if open => {
            "permission denied: run as root or get read/write access to the device node"
        }
        Errno::EPERM | Errno::EACCES => {
            "the kernel refused this command: it needs root with CAP_SYS_RAWIO (SANITIZE, \
             SECURITY PROTOCOL and others are filtered on /dev/sdX and on read-only opens)"
        }
        Errno::ENODEV => "device gone",
        Errno::ENXIO => "device not ready, being recovered by the SCSI midlayer, or gone",
        Errno::EINTR => "interrupted: the command may still be running on the device",
        Errno::EBUSY => "device busy: opened exclusively by another program, or in error recovery",
        Errno::EDOM => "too many commands queued on this sg device",
        Errno::EMSGSIZE => "CDB length not accepted by the driver",
        Errno::EINVAL => "the kernel rejected the request (CDB length, data direction or buffer)",
        Errno::EIO if !open => {
            "transfer larger than the device's limit (max_hw_sectors_kb), or an I/O error \
             before the command was sent"
        }
        Errno::ENOMEM => "the kernel could not allocate a buffer for this transfer",
        Errno::EFAULT => "bad buffer address (internal error)",
        Errno::ENOSYS if !open => "the driver does not accept this header version",
        Errno::EROFS if open => "read-only device node",
        _ => return None,
    })
}

/// The typed error for a failed `op` on `path`.
pub fn os_error(op: &'static str, path: &str, errno: Errno) -> Error {
    Error::Os {
        op,
        path: path.into(),
        errno,
        hint: errno_hint(op, errno),
    }
}

fn io_open_error(path: &str, e: &std::io::Error) -> Error {
    let errno = e
        .raw_os_error()
        .map(Errno::from_raw)
        .unwrap_or(Errno::UnknownErrno);
    os_error("open", path, errno)
}

/// Opens a device node like sg3_utils: `O_RDWR|O_NONBLOCK`, falling back to `O_RDONLY` (still
/// non-blocking) on EACCES/EROFS. Returns the file and whether it is read-only.
pub(crate) fn open_node(path: &str) -> Result<(File, bool)> {
    let try_open = |write: bool| {
        OpenOptions::new()
            .read(true)
            .write(write)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(path)
    };
    match try_open(true) {
        Ok(f) => Ok((f, false)),
        Err(e) if matches!(e.raw_os_error(), Some(libc::EACCES) | Some(libc::EROFS)) => {
            match try_open(false) {
                Ok(f) => Ok((f, true)),
                // Report the first (read-write) failure: it says what the admin must fix.
                Err(_) => Err(io_open_error(path, &e)),
            }
        }
        Err(e) => Err(io_open_error(path, &e)),
    }
}

/// Asks the driver for its SG version (SG_GET_VERSION_NUM). Any failure, or a version below
/// 3.0, means the node does not speak SG_IO v3: [`Error::NotScsi`].
pub(crate) fn sg_version(file: &File, path: &str) -> Result<i32> {
    let mut v: libc::c_int = 0;
    // SAFETY: `file` is an open descriptor for the duration of the call and `v` is a valid,
    // writable c_int, which is all SG_GET_VERSION_NUM writes.
    let r = unsafe { sys::sg_get_version_num(file.as_raw_fd(), &mut v) };
    match r {
        Ok(_) if v >= 30000 => Ok(v),
        Ok(_) => Err(Error::NotScsi {
            path: path.into(),
            reason: format!("SG driver version {v} is older than 3.0"),
        }),
        Err(e) => Err(Error::NotScsi {
            path: path.into(),
            reason: format!("no SG_IO support: SG_GET_VERSION_NUM: {}", e.desc()),
        }),
    }
}

/// Checked lengths and the timeout of one command, in the kernel's units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lengths {
    pub cmd_len: u8,
    pub dxfer_len: u32,
    /// Milliseconds; 0 only if `timeout` was zero (the kernel then uses its default).
    pub timeout_ms: u32,
}

/// Validates what the header fields can hold. The kernel enforces the rest (cmd_len 6..=252 on
/// sg, EMSGSIZE; block layer <=32, EINVAL) — we leave that to it so the errno is the real one.
pub(crate) fn lengths(cdb: &[u8], data_len: usize, timeout: Duration) -> Result<Lengths> {
    let cmd_len = u8::try_from(cdb.len())
        .ok()
        .filter(|&l| l > 0)
        .ok_or(Invalid::CdbLength { len: cdb.len() })?;
    let dxfer_len = u32::try_from(data_len).map_err(|_| Invalid::DataLength { len: data_len })?;
    let ms = timeout.as_millis();
    let timeout_ms = if ms == 0 && !timeout.is_zero() {
        1
    } else {
        u32::try_from(ms).unwrap_or(u32::MAX)
    };
    Ok(Lengths {
        cmd_len,
        dxfer_len,
        timeout_ms,
    })
}

/// Fills a v3 header for `cdb`/`data`; the raw pointers borrow `cdb`, `data` and `sense`, which
/// the caller must keep alive (and not move) until the ioctl returns.
pub(crate) fn build_hdr(
    cdb: &[u8],
    data: &mut DataBuf<'_>,
    timeout: Duration,
    sense: &mut [u8],
) -> Result<sys::sg_io_hdr> {
    let l = lengths(cdb, data.len(), timeout)?;
    let (direction, dxferp) = match data {
        DataBuf::None => (sys::SG_DXFER_NONE, std::ptr::null_mut()),
        DataBuf::In(b) => (sys::SG_DXFER_FROM_DEV, b.as_mut_ptr().cast()),
        // The kernel only reads a data-out buffer; the field is `void *` for both directions.
        DataBuf::Out(b) => (sys::SG_DXFER_TO_DEV, b.as_ptr().cast_mut().cast()),
    };
    Ok(sys::sg_io_hdr {
        interface_id: i32::from(b'S'),
        dxfer_direction: direction,
        cmd_len: l.cmd_len,
        mx_sb_len: u8::try_from(sense.len()).unwrap_or(u8::MAX),
        iovec_count: 0,
        dxfer_len: l.dxfer_len,
        dxferp,
        // Read-only for the kernel, like data-out.
        cmdp: cdb.as_ptr().cast_mut(),
        sbp: sense.as_mut_ptr(),
        timeout: l.timeout_ms,
        flags: 0,
        ..Default::default()
    })
}

/// Turns a header the kernel filled (ioctl returned 0) into a [`Completion`].
/// `elapsed` is our own wall-clock measurement, used when the kernel reports 0 ms.
pub(crate) fn decode_hdr(
    hdr: &sys::sg_io_hdr,
    sense: &[u8],
    data: &DataBuf<'_>,
    elapsed: Duration,
) -> Completion {
    let data_in_len = match data {
        DataBuf::In(b) => b.len(),
        _ => 0,
    };
    decode_reply(hdr, sense, data_in_len, elapsed)
}

/// [`decode_hdr`] for a command whose data-in length is `data_in_len` (0 for data-out and no
/// data): the synchronous ioctl and the queued read() ([`super::queue`]) decode alike.
pub(crate) fn decode_reply(
    hdr: &sys::sg_io_hdr,
    sense: &[u8],
    data_in_len: usize,
    elapsed: Duration,
) -> Completion {
    let sense_len = usize::from(hdr.sb_len_wr)
        .min(usize::from(hdr.mx_sb_len))
        .min(sense.len());
    Completion {
        status: hdr.status,
        sense: sense[..sense_len].to_vec(),
        resid: resid_within(hdr.resid, data_in_len),
        duration: kernel_duration(hdr.duration, elapsed),
        host_status: hdr.host_status,
        driver_status: hdr.driver_status,
    }
}

/// Residual for data-in only (data-out residuals are not reliable, §A.1), clamped to the
/// buffer so a lying driver cannot make `transferred()` underflow or exceed it.
pub(crate) fn data_in_resid(resid: i32, data: &DataBuf<'_>) -> usize {
    match data {
        DataBuf::In(b) => resid_within(resid, b.len()),
        _ => 0,
    }
}

/// A residual clamped to `0..=data_in_len`.
fn resid_within(resid: i32, data_in_len: usize) -> usize {
    usize::try_from(resid).unwrap_or(0).min(data_in_len)
}

/// The kernel's duration (ms) or, when it says 0 (sub-millisecond), our own measurement.
pub(crate) fn kernel_duration(ms: u32, elapsed: Duration) -> Duration {
    if ms == 0 {
        elapsed
    } else {
        Duration::from_millis(u64::from(ms))
    }
}

/// SG_IO v3 on an sg or SCSI block node.
#[derive(Debug)]
pub struct SgIo {
    file: File,
    path: String,
    kind: NodeKind,
    version: i32,
    read_only: bool,
}

impl SgIo {
    /// Opens `path` (`/dev/sgN`, `/dev/sdX`, or a symlink to one) and checks it answers
    /// SG_GET_VERSION_NUM.
    pub fn open(path: &str) -> Result<SgIo> {
        let kind = classify(path)?;
        if kind == NodeKind::Bsg {
            return Err(Invalid::BsgNode { path: path.into() }.into());
        }
        let (file, read_only) = open_node(path)?;
        let version = sg_version(&file, path)?;
        Ok(SgIo {
            file,
            path: path.into(),
            kind,
            version,
            read_only,
        })
    }

    /// SG driver version (30536 for sg 3.5.36, 30527 for the block layer).
    pub fn version(&self) -> i32 {
        self.version
    }

    /// Whether the node is the sg driver or a block device.
    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    /// True when the node could only be opened read-only (the kernel then filters commands).
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// Host, channel, target, LUN and peripheral type (SG_GET_SCSI_ID, sg nodes only).
    pub fn scsi_id(&self) -> Result<sys::sg_scsi_id> {
        let mut id = sys::sg_scsi_id::default();
        // SAFETY: the descriptor is open and `id` is a valid, writable sg_scsi_id (32 bytes,
        // checked by sgctl-sys layout tests), which is what SG_GET_SCSI_ID writes.
        unsafe { sys::sg_get_scsi_id(self.file.as_raw_fd(), &mut id) }
            .map_err(|e| os_error("SG_GET_SCSI_ID", &self.path, e))?;
        Ok(id)
    }
}

/// Asynchronous signals blocked in the calling thread for the lifetime of the guard: wrapped
/// around every SG_IO so a signal can never make the kernel re-send a command.
///
/// The sg driver waits for the command with `wait_event_interruptible`; a signal makes the
/// ioctl return -ERESTARTSYS with the command orphaned but still running. If the handler was
/// installed with SA_RESTART (signal-hook always does) — or the signal has no handler and
/// only stops the process (SIGTSTP, SIGTTIN, SIGTTOU) — the kernel restarts the ioctl, which
/// submits the same CDB again: a second SECURITY PROTOCOL OUT, FORMAT UNIT or SANITIZE.
/// With the signals blocked the wait is not interrupted; a pending signal is delivered when
/// the guard drops, after the command completed, and the handlers (which only set flags)
/// run then. Not blockable, hence not covered: SIGKILL (ends the process, no restart) and
/// SIGSTOP (a restart is possible; nothing a process can do about it). Synchronous fault
/// signals stay unblocked.
pub(crate) struct SignalsBlocked(Option<nix::sys::signal::SigSet>);

impl SignalsBlocked {
    /// Blocks every blockable asynchronous signal; restores the old mask on drop.
    pub(crate) fn new() -> SignalsBlocked {
        use nix::sys::signal::{pthread_sigmask, SigSet, SigmaskHow, Signal};
        let mut set = SigSet::all();
        for s in [
            Signal::SIGKILL,
            Signal::SIGSTOP,
            Signal::SIGSEGV,
            Signal::SIGBUS,
            Signal::SIGFPE,
            Signal::SIGILL,
            Signal::SIGTRAP,
            Signal::SIGABRT,
            Signal::SIGSYS,
        ] {
            set.remove(s);
        }
        let mut old = SigSet::empty();
        match pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&set), Some(&mut old)) {
            Ok(()) => SignalsBlocked(Some(old)),
            Err(_) => SignalsBlocked(None),
        }
    }
}

impl Default for SignalsBlocked {
    fn default() -> Self {
        SignalsBlocked::new()
    }
}

impl Drop for SignalsBlocked {
    fn drop(&mut self) {
        if let Some(old) = self.0.take() {
            let _ = nix::sys::signal::pthread_sigmask(
                nix::sys::signal::SigmaskHow::SIG_SETMASK,
                Some(&old),
                None,
            );
        }
    }
}

impl Transport for SgIo {
    fn execute(
        &mut self,
        cdb: &[u8],
        mut data: DataBuf<'_>,
        timeout: Duration,
    ) -> Result<Completion> {
        let mut sense = [0u8; MAX_SENSE];
        let mut hdr = build_hdr(cdb, &mut data, timeout, &mut sense)?;
        let start = Instant::now();
        let blocked = SignalsBlocked::new();
        // SAFETY: `hdr` points at `cdb` (cmd_len bytes), `sense` (mx_sb_len bytes, writable) and
        // the data buffer (dxfer_len bytes, writable for data-in); all three outlive this
        // synchronous call and are not moved while it runs. The descriptor is open.
        let r = unsafe { sys::sg_io(self.file.as_raw_fd(), &mut hdr) };
        drop(blocked);
        let elapsed = start.elapsed();
        r.map_err(|e| os_error("SG_IO", &self.path, e))?;
        Ok(decode_hdr(&hdr, &sense, &data, elapsed))
    }

    fn address(&self) -> String {
        self.path.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_blocked_during_and_restored_after() {
        use nix::sys::signal::{pthread_sigmask, SigSet, SigmaskHow, Signal};
        std::thread::spawn(|| {
            let mask = || {
                let mut m = SigSet::empty();
                pthread_sigmask(SigmaskHow::SIG_BLOCK, None, Some(&mut m)).unwrap();
                m
            };
            assert!(!mask().contains(Signal::SIGINT));
            {
                let _g = SignalsBlocked::new();
                let m = mask();
                for s in [
                    Signal::SIGINT,
                    Signal::SIGTERM,
                    Signal::SIGTSTP,
                    Signal::SIGHUP,
                ] {
                    assert!(m.contains(s), "{s:?}");
                }
                assert!(!m.contains(Signal::SIGSEGV));
            }
            assert!(!mask().contains(Signal::SIGINT));
            assert!(!mask().contains(Signal::SIGTSTP));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn header_for_data_in_command() {
        let cdb = [0x12u8, 0, 0, 0, 36, 0];
        let mut buf = [0u8; 36];
        let mut sense = [0u8; MAX_SENSE];
        let buf_ptr = buf.as_mut_ptr();
        let mut data = DataBuf::In(&mut buf);
        let h = build_hdr(&cdb, &mut data, Duration::from_secs(30), &mut sense).unwrap();
        assert_eq!(h.interface_id, 0x53);
        assert_eq!(h.dxfer_direction, sys::SG_DXFER_FROM_DEV);
        assert_eq!(h.cmd_len, 6);
        assert_eq!(h.mx_sb_len, 252);
        assert_eq!(h.iovec_count, 0);
        assert_eq!(h.dxfer_len, 36);
        assert_eq!(h.dxferp, buf_ptr.cast());
        assert_eq!(h.cmdp.cast_const(), cdb.as_ptr());
        assert_eq!(h.sbp, sense.as_mut_ptr());
        assert_eq!(h.timeout, 30_000);
        assert_eq!(h.flags, 0);
    }

    #[test]
    fn header_for_data_out_and_none() {
        let cdb = [0x15u8, 0x10, 0, 0, 24, 0];
        let payload = [0u8; 24];
        let mut sense = [0u8; 32];
        let mut data = DataBuf::Out(&payload);
        let h = build_hdr(&cdb, &mut data, Duration::from_millis(1500), &mut sense).unwrap();
        assert_eq!(h.dxfer_direction, sys::SG_DXFER_TO_DEV);
        assert_eq!(h.dxfer_len, 24);
        assert_eq!(h.dxferp.cast_const(), payload.as_ptr().cast());
        assert_eq!(h.mx_sb_len, 32);
        assert_eq!(h.timeout, 1500);

        let tur = [0u8; 6];
        let mut none = DataBuf::None;
        let h = build_hdr(&tur, &mut none, Duration::from_micros(10), &mut sense).unwrap();
        assert_eq!(h.dxfer_direction, sys::SG_DXFER_NONE);
        assert_eq!(h.dxfer_len, 0);
        assert!(h.dxferp.is_null());
        // A non-zero timeout below 1 ms must not become 0 (= kernel default).
        assert_eq!(h.timeout, 1);
    }

    #[test]
    fn lengths_are_checked() {
        assert!(matches!(
            lengths(&[], 0, Duration::from_secs(1)),
            Err(Error::Invalid(Invalid::CdbLength { .. }))
        ));
        assert!(matches!(
            lengths(&[0u8; 256], 0, Duration::from_secs(1)),
            Err(Error::Invalid(Invalid::CdbLength { .. }))
        ));
        assert_eq!(
            lengths(&[0u8; 255], 0, Duration::ZERO).unwrap().cmd_len,
            255
        );
        assert!(lengths(&[0u8; 6], u32::MAX as usize + 1, Duration::ZERO).is_err());
        assert_eq!(
            lengths(&[0u8; 6], 0, Duration::from_secs(u64::MAX))
                .unwrap()
                .timeout_ms,
            u32::MAX
        );
        assert_eq!(lengths(&[0u8; 6], 0, Duration::ZERO).unwrap().timeout_ms, 0);
    }

    fn filled(status: u8, sb_len_wr: u8, resid: i32, duration: u32) -> sys::sg_io_hdr {
        sys::sg_io_hdr {
            mx_sb_len: MAX_SENSE as u8,
            status,
            masked_status: (status >> 1) & 0x7f,
            sb_len_wr,
            resid,
            duration,
            ..Default::default()
        }
    }

    #[test]
    fn decode_good_with_residual() {
        let mut buf = [0u8; 96];
        let data = DataBuf::In(&mut buf);
        let h = filled(0, 0, 60, 3);
        let c = decode_hdr(&h, &[0u8; MAX_SENSE], &data, Duration::from_micros(5));
        assert_eq!(c.status, 0);
        assert!(c.sense.is_empty());
        assert_eq!(c.resid, 60);
        assert_eq!(c.transferred(96), 36);
        assert_eq!(c.duration, Duration::from_millis(3));
        assert_eq!((c.host_status, c.driver_status), (0, 0));
    }

    #[test]
    fn decode_check_condition_copies_only_written_sense() {
        let mut sense = [0xeeu8; MAX_SENSE];
        sense[..18].copy_from_slice(&crate::sense::build_fixed(
            crate::sense::SenseKey::IllegalRequest,
            0x24,
            0,
        ));
        let mut h = filled(0x02, 18, 0, 0);
        h.driver_status = 0x08;
        h.info = sys::SG_INFO_CHECK;
        let c = decode_hdr(&h, &sense, &DataBuf::None, Duration::from_micros(700));
        assert_eq!(c.status, 0x02);
        assert_eq!(c.sense.len(), 18);
        assert_eq!(c.sense[0], 0x70);
        assert_eq!(c.sense[2] & 0x0f, 0x05);
        assert_eq!(c.driver_status, 8);
        // Kernel said 0 ms: our own measurement is used.
        assert_eq!(c.duration, Duration::from_micros(700));
        let e = super::super::check(&c).unwrap_err();
        assert!(matches!(e, Error::Sense(_)), "{e:?}");
    }

    #[test]
    fn decode_distrusts_lying_lengths() {
        // sb_len_wr larger than what we offered, negative and oversized residuals.
        let mut h = filled(0x02, 200, -5, 0);
        h.mx_sb_len = 32;
        let sense = [0u8; 32];
        let c = decode_hdr(&h, &sense, &DataBuf::None, Duration::ZERO);
        assert_eq!(c.sense.len(), 32);
        assert_eq!(c.resid, 0);
        let mut buf = [0u8; 8];
        let h = filled(0, 0, 4096, 0);
        let c = decode_hdr(&h, &sense, &DataBuf::In(&mut buf), Duration::ZERO);
        assert_eq!(c.resid, 8);
        assert_eq!(c.transferred(8), 0);
        // Residual on data-out is not reported.
        let h = filled(0, 0, 4, 0);
        assert_eq!(
            decode_hdr(&h, &sense, &DataBuf::Out(&[1, 2, 3, 4]), Duration::ZERO).resid,
            0
        );
    }

    #[test]
    fn decode_host_status() {
        let mut h = filled(0, 0, 0, 60_000);
        h.host_status = 0x03;
        let c = decode_hdr(&h, &[], &DataBuf::None, Duration::ZERO);
        assert_eq!(c.host_status, 3);
        assert!(matches!(super::super::check(&c), Err(Error::Timeout)));
        h.host_status = 0x01;
        let c = decode_hdr(&h, &[], &DataBuf::None, Duration::ZERO);
        assert!(matches!(
            super::super::check(&c),
            Err(Error::Host {
                status: super::super::HostStatus::NoConnect
            })
        ));
    }

    #[test]
    fn errno_table() {
        use crate::exit;
        let table: &[(&'static str, Errno, &str, u8)] = &[
            ("open", Errno::ENOENT, "no such device node", exit::OPEN),
            ("open", Errno::EACCES, "run as root", exit::OPEN),
            ("open", Errno::EPERM, "run as root", exit::OPEN),
            ("open", Errno::ENXIO, "not ready", exit::OPEN),
            ("SG_IO", Errno::EPERM, "CAP_SYS_RAWIO", exit::COMMAND),
            ("SG_IO", Errno::EACCES, "CAP_SYS_RAWIO", exit::COMMAND),
            ("SG_IO", Errno::ENODEV, "device gone", exit::COMMAND),
            (
                "SG_IO",
                Errno::EINTR,
                "interrupted: the command may still be running on the device",
                exit::COMMAND,
            ),
            ("SG_IO", Errno::EBUSY, "busy", exit::COMMAND),
            ("SG_IO", Errno::EDOM, "queued", exit::COMMAND),
            ("SG_IO", Errno::EMSGSIZE, "CDB length", exit::COMMAND),
            ("SG_IO", Errno::ENXIO, "not ready", exit::COMMAND),
            ("SG_IO", Errno::EIO, "max_hw_sectors_kb", exit::COMMAND),
            ("SG_IO", Errno::EINVAL, "rejected", exit::COMMAND),
            ("SG_IO", Errno::ENOMEM, "allocate", exit::COMMAND),
        ];
        for &(op, errno, want, code) in table {
            let e = os_error(op, "/dev/sg3", errno);
            let msg = e.to_string();
            assert!(msg.starts_with(&format!("/dev/sg3: {op}: ")), "{msg}");
            assert!(msg.contains(want), "{op} {errno}: {msg}");
            assert_eq!(e.exit_code(), code, "{op} {errno}");
            assert!(!msg.contains('\n'));
        }
        // Unknown errnos get no hint but still a message.
        assert_eq!(errno_hint("SG_IO", Errno::ESPIPE), None);
    }

    #[test]
    fn classify_non_devices() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("disk.img");
        std::fs::write(&file, [0u8; 512]).unwrap();
        let f = file.to_str().unwrap();
        match classify(f) {
            Err(Error::NotScsi { reason, .. }) => assert!(reason.contains("regular file")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            classify(dir.path().to_str().unwrap()),
            Err(Error::NotScsi { .. })
        ));
        match classify("/nonexistent/sg0") {
            Err(Error::Os {
                op: "open", errno, ..
            }) => assert_eq!(errno, Errno::ENOENT),
            other => panic!("{other:?}"),
        }
        assert_eq!(classify("/dev/null").unwrap(), NodeKind::OtherChar);
    }

    #[test]
    fn dev_null_is_not_scsi() {
        match SgIo::open("/dev/null") {
            Err(Error::NotScsi { reason, .. }) => {
                assert!(reason.contains("SG_GET_VERSION_NUM"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }
}
