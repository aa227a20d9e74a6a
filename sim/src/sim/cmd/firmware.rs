//! WRITE BUFFER (SPC-6 6.50) download-microcode modes and READ BUFFER(10) (SPC-6 6.17)
//! descriptor mode: the virtual drive takes microcode in its own image format
//! ([`sgctl_proto::scsi::write_buffer::sim_image`]) and changes its INQUIRY revision.
//!
//! What the device server does:
//! - modes 05h (the whole image in one command, offset 0), 07h, 0Dh and 0Eh (segments at
//!   offsets); 0Fh activates what 0Dh/0Eh saved. Any other mode: ILLEGAL REQUEST 24/00 on
//!   byte 1. Buffer ID 0 only (24/00 on byte 2);
//! - the microcode buffer holds [`CAPACITY`] bytes, offsets are multiples of 2^`OFFSET_BOUNDARY`
//!   (READ BUFFER descriptor mode reports both): an offset off the boundary or beyond the
//!   buffer is 24/00 on byte 3, a segment running past the buffer 24/00 on byte 6;
//! - a download starts at offset 0 and its segments come in order (each at the offset the
//!   last one ended): a segment elsewhere is 24/00 on byte 3 and discards the download;
//! - the header is checked as soon as it has arrived: no magic or a model other than the
//!   drive's INQUIRY PRODUCT IDENTIFICATION is ILLEGAL REQUEST 26/00 (INVALID FIELD IN
//!   PARAMETER LIST) and discards the download; when the payload the header announces has
//!   arrived, its CRC-32 is checked (26/00 on a mismatch), then 05h/07h activate the new
//!   revision and 0Dh/0Eh save it for a later activation (0Fh, or the next power on);
//! - an activation sets unit attention 3F/01 MICROCODE HAS BEEN CHANGED on every port but
//!   the one the command came through (SPC-6 5.4, "Microcode activation"); 0Fh with nothing
//!   saved is 2C/00 COMMAND SEQUENCE ERROR;
//! - a download cut short (the fault `fail_microcode=K` cuts the K-th WRITE BUFFER of a
//!   download: the HBA reports DID_ERROR) is discarded: the old revision keeps running.

use super::CmdCtx;
use crate::sim::sense::{key, SimSense};
use serde::{Deserialize, Serialize};
use sgctl_proto::scsi::write_buffer::sim_image;

/// Microcode buffer capacity, bytes (READ BUFFER descriptor BUFFER CAPACITY).
pub const CAPACITY: u32 = 1 << 20;
/// OFFSET BOUNDARY: offsets are multiples of 2^9 = 512 bytes.
pub(crate) const OFFSET_BOUNDARY: u8 = 9;
const DID_ERROR: u16 = 0x07;

/// The drive's microcode: what runs, what waits for activation, the download in progress.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirmwareState {
    /// Revision running (`None`: the profile's).
    pub revision: Option<String>,
    /// Revision saved by mode 0Dh/0Eh, activated by mode 0Fh or the next power on.
    pub deferred: Option<String>,
    /// Microcode activations so far.
    pub activations: u32,
    /// The download in progress (lost at power off: not persisted).
    #[serde(skip)]
    buf: Vec<u8>,
    /// WRITE BUFFER commands of the download in progress.
    #[serde(skip)]
    segments: u32,
    /// Its mode.
    #[serde(skip)]
    mode: u8,
}

impl FirmwareState {
    /// Power on: a deferred revision becomes the running one; a partial download is lost.
    pub fn power_on(&mut self) {
        if let Some(r) = self.deferred.take() {
            self.revision = Some(r);
            self.activations = self.activations.saturating_add(1);
        }
        self.discard();
    }

    fn discard(&mut self) {
        self.buf = Vec::new();
        self.segments = 0;
        self.mode = 0;
    }
}

/// Sets `rev` running and tells the other ports (3F/01).
fn activate_now(ctx: &mut CmdCtx<'_>, rev: String) {
    let d = &mut ctx.sh.d;
    d.firmware.revision = Some(rev);
    d.firmware.activations = d.firmware.activations.saturating_add(1);
    for port in 1..=2u16 {
        if port != ctx.port {
            d.add_ua(port, 0x3F, 0x01);
        }
    }
}

/// Discards the download in progress and returns `e`.
fn reject(ctx: &mut CmdCtx<'_>, e: SimSense) -> Result<Vec<u8>, SimSense> {
    ctx.sh.d.firmware.discard();
    Err(e)
}

/// WRITE BUFFER (3Bh).
pub fn write_buffer(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let mode = ctx.cdb[1] & 0x1F;
    let id = ctx.cdb[2];
    let off = ctx.be(3, 3) as usize;
    let len = ctx.be(6, 3) as usize;
    match mode {
        0x05 | 0x07 | 0x0D | 0x0E => {}
        0x0F => {
            return match ctx.sh.d.firmware.deferred.take() {
                Some(rev) => {
                    activate_now(ctx, rev);
                    Ok(vec![])
                }
                None => Err(SimSense::new(key::ILLEGAL_REQUEST, 0x2C, 0x00)),
            };
        }
        _ => return Err(SimSense::invalid_cdb(1, Some(4))),
    }
    if id != 0 {
        return Err(SimSense::invalid_cdb(2, None));
    }
    let align = 1usize << OFFSET_BOUNDARY;
    if off % align != 0 || off >= CAPACITY as usize || (mode == 0x05 && off != 0) {
        return reject(ctx, SimSense::invalid_cdb(3, None));
    }
    if off + len > CAPACITY as usize || len == 0 {
        return reject(ctx, SimSense::invalid_cdb(6, None));
    }
    if ctx.short_data_out(len) {
        ctx.sh.d.firmware.discard();
        ctx.host_status = DID_ERROR;
        return Ok(vec![]);
    }
    {
        let fw = &mut ctx.sh.d.firmware;
        if off == 0 {
            fw.discard();
            fw.mode = mode;
        } else if off != fw.buf.len() || fw.mode != mode {
            return reject(ctx, SimSense::invalid_cdb(3, None));
        }
        fw.segments = fw.segments.saturating_add(1);
    }
    if ctx.sh.d.faults.fail_microcode == Some(ctx.sh.d.firmware.segments) {
        // The transfer is cut: the drive never gets the whole segment.
        ctx.sh.d.faults.fail_microcode = None;
        ctx.sh.d.firmware.discard();
        ctx.host_status = DID_ERROR;
        return Ok(vec![]);
    }
    ctx.sh.d.firmware.buf.extend_from_slice(&ctx.out[..len]);
    let got = ctx.sh.d.firmware.buf.len();
    if got < sim_image::HEADER_LEN {
        if mode == 0x05 {
            return reject(ctx, SimSense::invalid_param(0, None));
        }
        return Ok(vec![]);
    }
    let h = match sim_image::header(&ctx.sh.d.firmware.buf) {
        Ok(h) => h,
        Err(_) => return reject(ctx, SimSense::invalid_param(0, None)),
    };
    if h.model != ctx.sh.profile.product.trim() {
        return reject(ctx, SimSense::invalid_param(8, None));
    }
    let total = sim_image::HEADER_LEN as u64 + u64::from(h.payload_len);
    if total > u64::from(CAPACITY) || (got as u64) > total {
        return reject(ctx, SimSense::invalid_param(28, None));
    }
    if (got as u64) < total {
        if mode == 0x05 {
            // Mode 05h carries the whole image in one command.
            return reject(ctx, SimSense::invalid_param(28, None));
        }
        return Ok(vec![]);
    }
    let checked = sim_image::check(&ctx.sh.d.firmware.buf);
    ctx.sh.d.firmware.discard();
    let h = match checked {
        Ok(h) => h,
        Err(_) => return Err(SimSense::invalid_param(32, None)),
    };
    if matches!(mode, 0x05 | 0x07) {
        activate_now(ctx, h.revision);
    } else {
        ctx.sh.d.firmware.deferred = Some(h.revision);
    }
    Ok(vec![])
}

/// READ BUFFER(10) (3Ch): descriptor mode (03h) of buffer 0 only.
pub(crate) fn read_buffer(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    if ctx.cdb[1] & 0x1F != 0x03 {
        return Err(SimSense::invalid_cdb(1, Some(4)));
    }
    if ctx.cdb[2] != 0 {
        return Err(SimSense::invalid_cdb(2, None));
    }
    let c = CAPACITY.to_be_bytes();
    Ok(super::alloc(
        vec![OFFSET_BOUNDARY, c[1], c[2], c[3]],
        ctx.be(6, 3),
    ))
}
