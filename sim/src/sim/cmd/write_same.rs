//! SBC-4 5.50 WRITE SAME(10), 5.51 WRITE SAME(16) and 5.52 WRITE SAME(32) (the variable-length
//! CDB of PI type 2: flags in byte 10, the expected tags of bytes 20-27): one block of data-out written to
//! NUMBER OF LOGICAL BLOCKS blocks; UNMAP=1 with all-zero data (or NDOB=1) deallocates them
//! instead (LBPWS/LBPWS10 in VPD 0xB2; unmapped blocks read as zeros, LBPRZ=1); NDOB=1
//! (16 and 32): no Data-Out Buffer, the blocks become zeros. ANCHOR is refused by the CDB
//! usage map (ANC_SUP=0: 24/00 on byte 1 bit 4); NUMBER OF LOGICAL BLOCKS 0 is refused
//! (WSNZ=1); more than [`MAX_WRITE_SAME_BLOCKS`] is 24/00 on the field.

use super::rw::{check_protect, decode};
use super::{pi, CmdCtx};
use crate::sim::sense::SimSense;

/// MAXIMUM WRITE SAME LENGTH of VPD 0xB0 (blocks).
pub(crate) const MAX_WRITE_SAME_BLOCKS: u64 = 0x0004_0000;

/// WRITE SAME(10/16/32).
pub(crate) fn write_same(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let x = decode(ctx)?;
    let flags = ctx.cdb[usize::from(x.flags_off)];
    let unmap = flags & 0x08 != 0;
    // NDOB is bit 0 of the flags in the 16- and 32-byte CDBs (reserved in WRITE SAME(10),
    // refused there by the usage map).
    let ndob = (ctx.cdb[0] == 0x93 || x.cdb32) && flags & 0x01 != 0;
    if x.blocks == 0 || x.blocks > MAX_WRITE_SAME_BLOCKS {
        return Err(SimSense::invalid_cdb(x.len_off, None));
    }
    let d = &ctx.sh.d;
    if x.lba
        .checked_add(x.blocks)
        .is_none_or(|end| end > d.num_blocks)
    {
        return Err(SimSense::lba_out_of_range());
    }
    let wire = check_protect(ctx, &x)? as usize;
    if ndob && x.protect != 0 {
        // No Data-Out Buffer: there is no protection information to check.
        return Err(SimSense::invalid_cdb(x.flags_off, Some(7)));
    }
    d.sed.check_access(x.lba, x.blocks, true)?;
    let lb = d.lb_len as usize;
    let block: Vec<u8> = if ndob {
        vec![0u8; lb]
    } else {
        if ctx.short_data_out(wire) {
            ctx.host_status = 0x07; // DID_ERROR
            return Ok(Vec::new());
        }
        ctx.out[..wire].to_vec()
    };
    let (user, sent_pi) = block.split_at(lb);
    let checks = pi::Checks::for_protect(x.protect);
    if wire > lb {
        pi::check_block(d.prot_type, checks, &x.expect, x.lba, 0, user, sent_pi)?;
    }
    let sh = &mut *ctx.sh;
    let p = sh.profile;
    let d = &mut sh.d;
    let now = d.now_ns;
    let zeros = user.iter().all(|&b| b == 0);
    let t = if unmap && p.lbpme && p.lbprz && zeros && wire == lb {
        // Deallocate: the blocks read back as the zeros that were asked for.
        d.store.unmap(x.lba, x.blocks);
        sh.medium.trim(p, d, x.lba, x.blocks, now)
    } else {
        // The reference tag of the data-out block is the first block's; each following
        // block gets it incremented (types 1 and 2), as a WRITE of the same data would.
        let base_ref = if wire > lb {
            Some(u32::from_be_bytes([
                sent_pi[4], sent_pi[5], sent_pi[6], sent_pi[7],
            ]))
        } else {
            None
        };
        let mut i = 0;
        while d.prot_type == 0 && i < x.blocks {
            // One run per key generation the range spans, not one entry per block.
            let lba = x.lba + i;
            let gen = d.sed.key_generation(lba);
            let mut n = 1;
            while i + n < x.blocks && d.sed.key_generation(lba + n) == gen {
                n += 1;
            }
            d.store.write_run(lba, n, user, gen);
            i += n;
        }
        // With protection information, block by block: each keeps its own tags.
        let pi_blocks = if d.prot_type == 0 { 0 } else { x.blocks };
        for i in 0..pi_blocks {
            let lba = x.lba + i;
            d.store.write(lba, user, d.sed.key_generation(lba));
            {
                let t = match base_ref {
                    Some(r) => {
                        let mut t = [0u8; 8];
                        t[..4].copy_from_slice(&sent_pi[..4]);
                        let rt = if d.prot_type == 3 {
                            r
                        } else {
                            r.wrapping_add(i as u32)
                        };
                        t[4..].copy_from_slice(&rt.to_be_bytes());
                        t
                    }
                    // NDOB: the protection information is all FFh (SBC-4 5.51).
                    None if ndob => [0xFF; 8],
                    None => pi::generated(d.prot_type, x.expect.ref_tag(x.lba, i), user),
                };
                let default = pi::generated(d.prot_type, lba as u32, user);
                d.store.set_pi(lba, (t != default).then_some(t));
            }
        }
        d.heal_written(x.lba, x.blocks);
        let bytes = x.blocks * lb as u64;
        d.stats.blocks_written += x.blocks;
        d.stats.host_bytes_written += bytes;
        d.write_errors.bytes += bytes;
        let t = sh.medium.write(p, d, x.lba, x.blocks, now);
        d.stats.write_busy_ns += t;
        t
    };
    d.stats.write_cmds += 1;
    ctx.service_ns = ctx.service_ns.max(t);
    Ok(Vec::new())
}
