//! SBC-4 5.19 READ DEFECT DATA(10) and 5.20 READ DEFECT DATA(12). The drive has no factory
//! (primary) defects it reports by LBA — an SSD maps bad flash blocks out below the logical
//! layer — so the PLIST is empty; the GLIST holds the LBAs reallocated after an unrecovered
//! read error (a write to a block that failed: automatic write reallocation). Address
//! descriptor formats: 000b short block (4-byte LBA) and 011b long block (8-byte LBA); a
//! request for a format an SSD has no meaning for (bytes from index, physical sector) is
//! answered in long block format, which the DEFECT LIST FORMAT field of the header says.

use super::{alloc, CmdCtx};
use crate::sim::sense::SimSense;

const SHORT_BLOCK: u8 = 0b000;
const LONG_BLOCK: u8 = 0b011;

/// The descriptors of the requested lists in `format`; returns (flags byte, descriptors).
fn descriptors(ctx: &CmdCtx<'_>, req: u8) -> (u8, Vec<u8>) {
    let plist = req & 0x10 != 0;
    let glist = req & 0x08 != 0;
    let d = &ctx.sh.d;
    let fits32 = d.grown_defects.iter().all(|&l| l <= u64::from(u32::MAX));
    let format = match req & 0x07 {
        SHORT_BLOCK if fits32 => SHORT_BLOCK,
        _ => LONG_BLOCK,
    };
    let mut v = Vec::new();
    if glist {
        for &lba in &d.grown_defects {
            if format == SHORT_BLOCK {
                v.extend_from_slice(&(lba as u32).to_be_bytes());
            } else {
                v.extend_from_slice(&lba.to_be_bytes());
            }
        }
    }
    // PLISTV / GLISTV: the lists asked for are returned (the PLIST being empty).
    let flags = if plist { 0x10 } else { 0 } | if glist { 0x08 } else { 0 } | format;
    (flags, v)
}

/// READ DEFECT DATA(10): byte 2 REQ_PLIST (4), REQ_GLIST (3), DEFECT LIST FORMAT (2-0);
/// 7-8 ALLOCATION LENGTH. Header: 1 flags, 2-3 DEFECT LIST LENGTH.
pub(crate) fn read_defect_data10(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let (flags, list) = descriptors(ctx, ctx.cdb[2]);
    let mut r = vec![0, flags, 0, 0];
    // A list longer than the 16-bit field is truncated to whole descriptors.
    let step = if flags & 0x07 == SHORT_BLOCK { 4 } else { 8 };
    let n = list.len().min(0xFFFF / step * step);
    r[2..4].copy_from_slice(&(n as u16).to_be_bytes());
    r.extend_from_slice(&list[..n]);
    Ok(alloc(r, ctx.be(7, 2)))
}

/// READ DEFECT DATA(12): byte 1 REQ_PLIST (4), REQ_GLIST (3), DEFECT LIST FORMAT (2-0);
/// 2-5 ADDRESS DESCRIPTOR INDEX; 6-9 ALLOCATION LENGTH. Header: 1 flags, 2-3 GENERATION
/// CODE, 4-7 DEFECT LIST LENGTH (of the descriptors from the index on).
pub(crate) fn read_defect_data12(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let (flags, list) = descriptors(ctx, ctx.cdb[1]);
    let step = if flags & 0x07 == SHORT_BLOCK { 4 } else { 8 };
    let index = usize::try_from(ctx.be(2, 4)).unwrap_or(usize::MAX);
    let from = index.saturating_mul(step).min(list.len());
    let mut r = vec![0, flags, 0, 0, 0, 0, 0, 0];
    // GENERATION CODE: changes whenever the list does (1 + its length, 0 = not supported).
    let generation = (ctx.sh.d.grown_defects.len() as u16).wrapping_add(1).max(1);
    r[2..4].copy_from_slice(&generation.to_be_bytes());
    r[4..8].copy_from_slice(&((list.len() - from) as u32).to_be_bytes());
    r.extend_from_slice(&list[from..]);
    Ok(alloc(r, ctx.be(6, 4)))
}
