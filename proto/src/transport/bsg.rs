//! sg_io_v4 (`guard = 'Q'`, protocol SCSI, subprotocol SCSI command) on `/dev/bsg/H:C:T:L`
//! (linux/block/bsg.c, drivers/scsi/scsi_bsg.c). Offsets: docs/protocols.md §A.2, checked by the
//! sgctl-sys layout tests. Mainline `/dev/sgN` accepts only v3 headers, so v4 is used only on
//! bsg nodes.
#![allow(unsafe_code)] // ioctl/mmap on kernel interfaces; each block says why it is sound

use super::sgio::{self, kernel_duration, NodeKind};
use super::{Completion, DataBuf, Transport};
use crate::error::{Error, Result};
use sgctl_sys as sys;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// Fills a v4 header; the addresses borrow `cdb`, `data` and `sense`, which the caller must keep
/// alive (and not move) until the ioctl returns.
pub(crate) fn build_v4(
    cdb: &[u8],
    data: &mut DataBuf<'_>,
    timeout: Duration,
    sense: &mut [u8],
) -> Result<sys::sg_io_v4> {
    let l = sgio::lengths(cdb, data.len(), timeout)?;
    let mut h = sys::sg_io_v4 {
        guard: i32::from(b'Q'),
        protocol: sys::BSG_PROTOCOL_SCSI,
        subprotocol: sys::BSG_SUB_PROTOCOL_SCSI_CMD,
        request_len: u32::from(l.cmd_len),
        request: cdb.as_ptr() as u64,
        max_response_len: u32::try_from(sense.len()).unwrap_or(u32::MAX),
        response: sense.as_mut_ptr() as u64,
        timeout: l.timeout_ms,
        ..Default::default()
    };
    match data {
        DataBuf::None => {}
        DataBuf::In(b) => {
            h.din_xfer_len = l.dxfer_len;
            h.din_xferp = b.as_mut_ptr() as u64;
        }
        DataBuf::Out(b) => {
            h.dout_xfer_len = l.dxfer_len;
            h.dout_xferp = b.as_ptr() as u64;
        }
    }
    Ok(h)
}

/// Turns a v4 header the kernel filled (ioctl returned 0) into a [`Completion`]:
/// device_status is the SAM status, transport_status the host byte (DID_*), driver_status the
/// driver byte, response_len the sense length (scsi_bsg.c `scsi_bsg_complete_rq`).
pub(crate) fn decode_v4(
    h: &sys::sg_io_v4,
    sense: &[u8],
    data: &DataBuf<'_>,
    elapsed: Duration,
) -> Completion {
    let offered = usize::try_from(h.max_response_len).unwrap_or(usize::MAX);
    let sense_len = usize::try_from(h.response_len)
        .unwrap_or(usize::MAX)
        .min(offered)
        .min(sense.len());
    Completion {
        // Only the low byte is the status; a wider value is a driver bug we do not trust.
        status: (h.device_status & 0xff) as u8,
        sense: sense[..sense_len].to_vec(),
        resid: sgio::data_in_resid(h.din_resid, data),
        duration: kernel_duration(h.duration, elapsed),
        host_status: u16::try_from(h.transport_status).unwrap_or(u16::MAX),
        driver_status: u16::try_from(h.driver_status).unwrap_or(u16::MAX),
    }
}

/// sg_io_v4 on a bsg node.
#[derive(Debug)]
pub struct Bsg {
    file: File,
    path: String,
    read_only: bool,
}

impl Bsg {
    /// Opens a bsg node and checks it answers SG_GET_VERSION_NUM.
    pub fn open(path: &str) -> Result<Bsg> {
        let kind = sgio::classify(path)?;
        if kind != NodeKind::Bsg {
            return Err(Error::NotScsi {
                path: path.into(),
                reason: "not a bsg node".into(),
            });
        }
        let (file, read_only) = sgio::open_node(path)?;
        sgio::sg_version(&file, path)?;
        Ok(Bsg {
            file,
            path: path.into(),
            read_only,
        })
    }

    /// True when the node could only be opened read-only (the kernel then filters commands).
    pub fn read_only(&self) -> bool {
        self.read_only
    }
}

impl Transport for Bsg {
    fn execute(
        &mut self,
        cdb: &[u8],
        mut data: DataBuf<'_>,
        timeout: Duration,
    ) -> Result<Completion> {
        let mut sense = [0u8; sgio::MAX_SENSE];
        let mut h = build_v4(cdb, &mut data, timeout, &mut sense)?;
        let start = Instant::now();
        let blocked = sgio::SignalsBlocked::new();
        // SAFETY: `h` holds the addresses of `cdb` (request_len bytes), `sense`
        // (max_response_len bytes, writable) and the data buffer (din/dout_xfer_len bytes,
        // writable for data-in); all outlive this synchronous call and are not moved during it.
        let r = unsafe { sys::bsg_sg_io(self.file.as_raw_fd(), &mut h) };
        drop(blocked);
        let elapsed = start.elapsed();
        r.map_err(|e| sgio::os_error("SG_IO", &self.path, e))?;
        Ok(decode_v4(&h, &sense, &data, elapsed))
    }

    fn address(&self) -> String {
        self.path.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v4_header_for_data_in() {
        let cdb = [0x9eu8, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0];
        let mut buf = [0u8; 32];
        let buf_addr = buf.as_mut_ptr() as u64;
        let mut sense = [0u8; sgio::MAX_SENSE];
        let mut data = DataBuf::In(&mut buf);
        let h = build_v4(&cdb, &mut data, Duration::from_secs(60), &mut sense).unwrap();
        assert_eq!(h.guard, 0x51);
        assert_eq!(h.protocol, 0);
        assert_eq!(h.subprotocol, 0);
        assert_eq!(h.request_len, 16);
        assert_eq!(h.request, cdb.as_ptr() as u64);
        assert_eq!(h.max_response_len, 252);
        assert_eq!(h.response, sense.as_ptr() as u64);
        assert_eq!((h.din_xfer_len, h.din_xferp), (32, buf_addr));
        assert_eq!((h.dout_xfer_len, h.dout_xferp), (0, 0));
        assert_eq!(h.timeout, 60_000);
    }

    #[test]
    fn v4_header_for_data_out() {
        let cdb = [0x55u8, 0x10, 0, 0, 0, 0, 0, 0, 24, 0];
        let payload = [7u8; 24];
        let mut sense = [0u8; 64];
        let mut data = DataBuf::Out(&payload);
        let h = build_v4(&cdb, &mut data, Duration::from_secs(1), &mut sense).unwrap();
        assert_eq!(
            (h.dout_xfer_len, h.dout_xferp),
            (24, payload.as_ptr() as u64)
        );
        assert_eq!((h.din_xfer_len, h.din_xferp), (0, 0));
        assert_eq!(h.max_response_len, 64);
    }

    #[test]
    fn v4_decode() {
        let mut sense = [0u8; sgio::MAX_SENSE];
        let fixed = crate::sense::build_fixed(crate::sense::SenseKey::NotReady, 0x04, 0x04);
        sense[..fixed.len()].copy_from_slice(&fixed);
        let h = sys::sg_io_v4 {
            max_response_len: sgio::MAX_SENSE as u32,
            device_status: 0x02,
            response_len: fixed.len() as u32,
            driver_status: 0x08,
            din_resid: 16,
            duration: 12,
            ..Default::default()
        };
        let mut buf = [0u8; 64];
        let c = decode_v4(&h, &sense, &DataBuf::In(&mut buf), Duration::ZERO);
        assert_eq!(c.status, 2);
        assert_eq!(c.sense, fixed);
        assert_eq!(c.resid, 16);
        assert_eq!(c.duration, Duration::from_millis(12));
        assert_eq!(c.driver_status, 8);
        let s = crate::transport::check(&c).unwrap_err();
        assert!(s.sense().is_some_and(|s| s.is_in_progress()));

        // Lying lengths: response_len beyond the buffer, host byte out of range.
        let h = sys::sg_io_v4 {
            max_response_len: 8,
            response_len: 4000,
            transport_status: 0x1_0003,
            din_resid: -1,
            ..Default::default()
        };
        let c = decode_v4(&h, &sense[..8], &DataBuf::None, Duration::ZERO);
        assert_eq!(c.sense.len(), 8);
        assert_eq!(c.resid, 0);
        assert_eq!(c.host_status, u16::MAX);
    }

    #[test]
    fn non_bsg_paths_refused() {
        assert!(matches!(Bsg::open("/dev/null"), Err(Error::NotScsi { .. })));
        assert!(matches!(
            Bsg::open("/nonexistent/bsg"),
            Err(Error::Os { op: "open", .. })
        ));
    }
}
