//! SBC-4 5.20/5.21 READ CAPACITY (10) and (16) (protocols.md §C.4). Both report the format
//! in effect: a block length set by MODE SELECT shows only after FORMAT UNIT.

use super::{alloc, CmdCtx};
use crate::sim::sense::SimSense;

/// READ CAPACITY(10): bytes 2-5 LOGICAL BLOCK ADDRESS and byte 8 bit 0 PMI (both obsolete;
/// LBA must be 0 when PMI=0, SBC-3 5.15). Data: last LBA (0xFFFFFFFF = use (16)), block length.
pub(crate) fn read_capacity10(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let pmi = ctx.cdb[8] & 0x01 != 0;
    if !pmi && ctx.be(2, 4) != 0 {
        return Err(SimSense::invalid_cdb(2, None));
    }
    let d = &ctx.sh.d;
    let last = d.num_blocks.saturating_sub(1);
    let mut r = vec![0u8; 8];
    r[0..4].copy_from_slice(&u32::try_from(last).unwrap_or(u32::MAX).to_be_bytes());
    r[4..8].copy_from_slice(&d.lb_len.to_be_bytes());
    Ok(r)
}

/// READ CAPACITY(16) (SERVICE ACTION IN(16) SA 0x10): bytes 10-13 allocation length,
/// byte 14 bit 0 PMI. Data (32 bytes): 0-7 last LBA, 8-11 logical block length, 12 P_TYPE
/// (bits 3-1) PROT_EN (bit 0), 13 P_I_EXPONENT (7-4) LBPPBE (3-0), 14 LBPME (7) LBPRZ (6).
pub(crate) fn read_capacity16(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let pmi = ctx.cdb[14] & 0x01 != 0;
    if !pmi && ctx.be(2, 8) != 0 {
        return Err(SimSense::invalid_cdb(2, None));
    }
    let alloc_len = ctx.be(10, 4);
    let p = ctx.sh.profile;
    let d = &ctx.sh.d;
    let mut r = vec![0u8; 32];
    r[0..8].copy_from_slice(&d.num_blocks.saturating_sub(1).to_be_bytes());
    r[8..12].copy_from_slice(&d.lb_len.to_be_bytes());
    if d.prot_type > 0 {
        r[12] = ((d.prot_type - 1) << 1) | 0x01;
        r[13] = (d.p_i_exp & 0x0F) << 4;
    }
    r[13] |= p.lbppbe(d.lb_len) & 0x0F;
    if p.lbpme {
        r[14] = 0x80 | if p.lbprz { 0x40 } else { 0 };
    }
    Ok(alloc(r, alloc_len))
}

/// GET LBA STATUS (SBC-4 5.8; SERVICE ACTION IN(16) SA 0x12): bytes 2-9 STARTING LOGICAL
/// BLOCK ADDRESS, 10-13 ALLOCATION LENGTH. Data: 0-3 PARAMETER DATA LENGTH (n-3), 4-7
/// reserved, then 16-byte LBA status descriptors from the starting LBA on: 0-7 LBA, 8-11
/// NUMBER OF LOGICAL BLOCKS, 12 bits 3-0 PROVISIONING STATUS (0 mapped, 1 deallocated).
/// Mapped = the sparse store holds something for the block (written data, or a used drive's
/// old data); unmapped, formatted or sanitized blocks are deallocated.
pub(crate) fn get_lba_status(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let start = ctx.be(2, 8);
    let alloc_len = ctx.be(10, 4);
    let d = &ctx.sh.d;
    if start >= d.num_blocks {
        return Err(SimSense::lba_out_of_range());
    }
    // As many descriptors as the allocation length holds (at most 512, whole ones).
    let room = (usize::try_from(alloc_len)
        .unwrap_or(usize::MAX)
        .saturating_sub(8)
        / 16)
        .clamp(1, 512);
    let mut r = vec![0u8; 8];
    let mut lba = start;
    for _ in 0..room {
        if lba >= d.num_blocks {
            break;
        }
        let (mapped, n) = d
            .store
            .provisioning_run(lba, d.num_blocks, u64::from(u32::MAX));
        let mut e = [0u8; 16];
        e[0..8].copy_from_slice(&lba.to_be_bytes());
        e[8..12].copy_from_slice(&(n as u32).to_be_bytes());
        e[12] = if mapped { 0 } else { 1 };
        r.extend_from_slice(&e);
        lba += n.max(1);
    }
    let n = (r.len() - 4) as u32;
    r[0..4].copy_from_slice(&n.to_be_bytes());
    Ok(alloc(r, alloc_len))
}
