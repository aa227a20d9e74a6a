//! SBC-4 REASSIGN BLOCKS (opcode 07h): the host names defective LBAs and the drive moves each
//! to a spare location, recording it in the grown defect list (GLIST) that READ DEFECT DATA
//! reports (see `super::defect`).
//!
//! CDB: byte 1 bit 1 LONGLBA (the defective LBA list holds 8-byte LBAs, else 4-byte), bit 0
//! LONGLIST (the parameter list header is a 4-byte DEFECT LIST LENGTH, else bytes 0-1 are
//! reserved and 2-3 hold it); byte 5 CONTROL. The CDB has no parameter list length: the
//! header says how many bytes of LBAs follow.
//!
//! What the device server does, as the standard says:
//! - each listed LBA is reassigned in list order; an LBA reassigned before is reassigned again
//!   and takes another spare;
//! - the data of a block it can read is kept (the model stores logical data: relocating the
//!   flash below it changes nothing the host sees); a block it cannot read (an injected medium
//!   error) gets vendor-specific data (zeros) and, on a drive formatted with protection
//!   information, the default PI FFFFFFFF_FFFFFFFFh;
//! - with no spare location left: HARDWARE ERROR, 32/00 NO DEFECT SPARE LOCATION AVAILABLE,
//!   the first LBA not reassigned in the COMMAND-SPECIFIC INFORMATION field (the LBAs before it
//!   stay reassigned);
//! - an LBA beyond the capacity: ILLEGAL REQUEST, 21/00 LOGICAL BLOCK ADDRESS OUT OF RANGE;
//!   the whole list is checked before anything moves, so the first LBA not reassigned (in
//!   COMMAND-SPECIFIC INFORMATION) is the list's first.
//!
//! A COMMAND-SPECIFIC INFORMATION value that does not fit the 4-byte field of fixed-format
//! sense reads FFFFFFFFh (the "not available" value); descriptor format carries 8 bytes.

use super::CmdCtx;
use crate::sim::sense::{key, SimSense};

/// ILLEGAL REQUEST 1A/00 PARAMETER LIST LENGTH ERROR: fewer bytes came than the header needs
/// or announces (the CDB has no length field to point at).
fn short_list() -> SimSense {
    SimSense::new(key::ILLEGAL_REQUEST, 0x1A, 0x00)
}

/// The defective LBA list of the parameter list `out` (big-endian, 4 or 8 bytes each).
fn parse_list(out: &[u8], longlba: bool, longlist: bool) -> Result<Vec<u64>, SimSense> {
    let header = out.get(..4).ok_or_else(short_list)?;
    let (len, len_at) = if longlist {
        (
            u32::from_be_bytes([header[0], header[1], header[2], header[3]]),
            0,
        )
    } else {
        (u32::from(u16::from_be_bytes([header[2], header[3]])), 2)
    };
    let step = if longlba { 8 } else { 4 };
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    // DEFECT LIST LENGTH is four or eight times the number of LBAs.
    if len % step != 0 {
        return Err(SimSense::invalid_param(len_at, None));
    }
    let body = out
        .get(4..4usize.saturating_add(len))
        .ok_or_else(short_list)?;
    Ok(body
        .chunks_exact(step)
        .map(|c| c.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b)))
        .collect())
}

/// REASSIGN BLOCKS.
#[doc(alias = "sg_reassign")]
pub(crate) fn reassign_blocks(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let longlba = ctx.cdb[1] & 0x02 != 0;
    let longlist = ctx.cdb[1] & 0x01 != 0;
    let lbas = parse_list(ctx.out, longlba, longlist)?;
    let Some(&first) = lbas.first() else {
        // DEFECT LIST LENGTH 0: nothing to reassign.
        return Ok(Vec::new());
    };
    let sh = &mut *ctx.sh;
    let p = sh.profile;
    let d = &mut sh.d;
    if lbas.iter().any(|&l| l >= d.num_blocks) {
        return Err(SimSense::lba_out_of_range().with_csi(first));
    }
    let lb = d.lb_len as usize;
    let mut busy = 0u64;
    for &lba in &lbas {
        if d.spares_left() == 0 {
            ctx.service_ns = busy;
            return Err(SimSense::new(key::HARDWARE_ERROR, 0x32, 0x00).with_csi(lba));
        }
        if d.faults.medium_errors.remove(&lba) {
            // Unrecoverable: vendor-specific data, default protection information.
            let gen = d.sed.key_generation(lba);
            d.store.write(lba, &vec![0u8; lb], gen);
            if d.prot_type != 0 {
                d.store.set_pi(lba, Some([0xFF; 8]));
            }
        }
        d.reallocate(lba);
        // Relocating the block programs one flash page.
        let now = d.now_ns + busy;
        busy += sh.medium.write(p, d, lba, 1, now);
    }
    ctx.service_ns = busy;
    Ok(Vec::new())
}
