//! SPC-5 6.11-6.14 MODE SENSE/SELECT (6) and (10) with short and long LBA block descriptors
//! (SBC-4 6.4.2) and pages 0x01 Read-Write Error Recovery, 0x08 Caching, 0x0A Control,
//! 0x19 Protocol-Specific Port (SAS short format), 0x1A Power Condition and 0x1C Informational
//! Exceptions Control.
//!
//! A block descriptor with a new LOGICAL BLOCK LENGTH is held until the next FORMAT UNIT
//! (protocols.md §C.5) and forgotten if a command other than a query intervenes; a new
//! NUMBER OF LOGICAL BLOCKS with the same length resizes at once (`sg_format --resize`).

use super::{alloc, CmdCtx};
use crate::sim::drive::{ModeValues, PendingFormat};
use crate::sim::profile::Profile;
use crate::sim::sense::SimSense;

const DID_ERROR: u16 = 0x07;

/// Pages the profile has, ascending.
fn pages(p: &Profile) -> Vec<u8> {
    if p.sata {
        vec![0x01, 0x08, 0x0A, 0x1A, 0x1C]
    } else {
        vec![0x01, 0x08, 0x0A, 0x19, 0x1A, 0x1C]
    }
}

fn b(v: bool, bit: u8) -> u8 {
    if v {
        1 << bit
    } else {
        0
    }
}

/// A page's bytes (with its 2-byte header, PS=1 since all are savable).
fn page_bytes(page: u8, m: &ModeValues) -> Vec<u8> {
    match page {
        // SBC-4 6.5.10: byte 2 AWRE 7, ARRE 6, TB 5, RC 4, EER 3, PER 2, DTE 1, DCR 0;
        // 3 READ RETRY COUNT; 8 WRITE RETRY COUNT; 10-11 RECOVERY TIME LIMIT.
        0x01 => {
            let mut v = vec![0x81, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
            v[2] = b(m.awre, 7) | b(m.arre, 6) | b(m.per, 2);
            v[3] = m.read_retry;
            v[8] = m.write_retry;
            v[10..12].copy_from_slice(&m.recovery_time_limit.to_be_bytes());
            v
        }
        // SBC-4 6.5.5: byte 2 WCE 2, RCD 0; 4-5 DISABLE PRE-FETCH TRANSFER LENGTH; 8-9 MAXIMUM
        // PRE-FETCH; 10-11 MAXIMUM PRE-FETCH CEILING; 13 NUMBER OF CACHE SEGMENTS.
        0x08 => {
            let mut v = vec![0u8; 20];
            v[0] = 0x88;
            v[1] = 0x12;
            v[2] = b(m.wce, 2) | b(m.rcd, 0);
            v[4..6].copy_from_slice(&0xFFFFu16.to_be_bytes());
            v[8..10].copy_from_slice(&0xFFFFu16.to_be_bytes());
            v[10..12].copy_from_slice(&0xFFFFu16.to_be_bytes());
            v[13] = 0x10;
            v
        }
        // SPC-5 7.5.10: byte 2 TST 7-5, TMF_ONLY 4, DPICZ 3, D_SENSE 2, GLTSD 1, RLEC 0;
        // 3 QUEUE ALGORITHM MODIFIER 7-4 (1 = unrestricted), QERR 2-1; 8-9 BUSY TIMEOUT
        // PERIOD; 10-11 EXTENDED SELF-TEST COMPLETION TIME (s).
        0x0A => {
            let mut v = vec![0x8A, 0x0A, 0, 0x10, 0, 0, 0, 0, 0xFF, 0xFF, 0, 120];
            v[2] = b(m.d_sense, 2) | b(m.gltsd, 1);
            v
        }
        // SPL-4 9.2.7.2: byte 2 READY LED MEANING 4, PROTOCOL IDENTIFIER 3-0 (6 = SAS);
        // 4-5 I_T NEXUS LOSS TIME; 6-7 INITIATOR RESPONSE TIMEOUT.
        0x19 => {
            let mut v = vec![0x99, 0x06, 0x06, 0, 0, 0, 0, 0];
            v[4..6].copy_from_slice(&m.it_nexus_loss_time.to_be_bytes());
            v[6..8].copy_from_slice(&m.initiator_response_timeout.to_be_bytes());
            v
        }
        // SPC-6 7.5.14: byte 2 PM_BG_PRECEDENCE 7-6, STANDBY_Y 0; 3 IDLE_C 3, IDLE_B 2,
        // IDLE_A 1, STANDBY_Z 0; 4-7 IDLE_A, 8-11 STANDBY_Z, 12-15 IDLE_B, 16-19 IDLE_C,
        // 20-23 STANDBY_Y CONDITION TIMER; 39 CCF IDLE 7-6, CCF STANDBY 5-4, CCF STOPPED 3-2.
        0x1A => {
            let pc = &m.power;
            let mut v = vec![0u8; 40];
            v[0] = 0x9A;
            v[1] = 0x26;
            v[2] = b(pc.standby_y, 0);
            v[3] = b(pc.idle_c, 3) | b(pc.idle_b, 2) | b(pc.idle_a, 1) | b(pc.standby_z, 0);
            v[4..8].copy_from_slice(&pc.idle_a_timer.to_be_bytes());
            v[8..12].copy_from_slice(&pc.standby_z_timer.to_be_bytes());
            v[12..16].copy_from_slice(&pc.idle_b_timer.to_be_bytes());
            v[16..20].copy_from_slice(&pc.idle_c_timer.to_be_bytes());
            v[20..24].copy_from_slice(&pc.standby_y_timer.to_be_bytes());
            v[39] = pc.ccf & 0xFC;
            v
        }
        // SPC-5 7.5.13: byte 2 PERF 7, EBF 5, EWASC 4, DEXCPT 3, TEST 2, EBACKERR 1, LOGERR 0;
        // 3 MRIE 3-0; 4-7 INTERVAL TIMER; 8-11 REPORT COUNT.
        _ => {
            let mut v = vec![0u8; 12];
            v[0] = 0x9C;
            v[1] = 0x0A;
            v[2] = b(m.perf, 7)
                | b(m.ebf, 5)
                | b(m.ewasc, 4)
                | b(m.dexcpt, 3)
                | b(m.test, 2)
                | b(m.logerr, 0);
            v[3] = m.mrie & 0x0F;
            v[4..8].copy_from_slice(&m.interval_timer.to_be_bytes());
            v[8..12].copy_from_slice(&m.report_count.to_be_bytes());
            v
        }
    }
}

/// Changeable-values mask of a page (MODE SENSE PC=1).
fn changeable(page: u8) -> Vec<u8> {
    match page {
        0x01 => vec![0x01, 0x0A, 0xC4, 0xFF, 0, 0, 0, 0, 0xFF, 0, 0xFF, 0xFF],
        0x08 => {
            let mut v = vec![0u8; 20];
            v[0] = 0x08;
            v[1] = 0x12;
            v[2] = 0x05;
            v
        }
        0x0A => vec![0x0A, 0x0A, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        0x19 => vec![0x19, 0x06, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF],
        0x1A => {
            // Every timer and its enable bit, and the CCF fields; not PM_BG_PRECEDENCE.
            let mut v = vec![0xFFu8; 40];
            v[0] = 0x1A;
            v[1] = 0x26;
            v[2] = 0x01;
            v[3] = 0x0F;
            v[24..39].fill(0);
            v[39] = 0xFC;
            v
        }
        _ => vec![
            0x1C, 0x0A, 0xBD, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ],
    }
}

/// Applies a page's (already validated) bytes to the values.
fn apply(page: u8, v: &[u8], m: &mut ModeValues) {
    let bit = |byte: usize, b: u8| v[byte] & (1 << b) != 0;
    match page {
        0x01 => {
            m.awre = bit(2, 7);
            m.arre = bit(2, 6);
            m.per = bit(2, 2);
            m.read_retry = v[3];
            m.write_retry = v[8];
            m.recovery_time_limit = u16::from_be_bytes([v[10], v[11]]);
        }
        0x08 => {
            m.wce = bit(2, 2);
            m.rcd = bit(2, 0);
        }
        0x0A => {
            m.d_sense = bit(2, 2);
            m.gltsd = bit(2, 1);
        }
        0x19 => {
            m.it_nexus_loss_time = u16::from_be_bytes([v[4], v[5]]);
            m.initiator_response_timeout = u16::from_be_bytes([v[6], v[7]]);
        }
        0x1A => {
            let be32 = |o: usize| u32::from_be_bytes([v[o], v[o + 1], v[o + 2], v[o + 3]]);
            let pc = &mut m.power;
            pc.standby_y = bit(2, 0);
            pc.idle_c = bit(3, 3);
            pc.idle_b = bit(3, 2);
            pc.idle_a = bit(3, 1);
            pc.standby_z = bit(3, 0);
            pc.idle_a_timer = be32(4);
            pc.standby_z_timer = be32(8);
            pc.idle_b_timer = be32(12);
            pc.idle_c_timer = be32(16);
            pc.standby_y_timer = be32(20);
            pc.ccf = v[39] & 0xFC;
        }
        _ => {
            m.perf = bit(2, 7);
            m.ebf = bit(2, 5);
            m.ewasc = bit(2, 4);
            m.dexcpt = bit(2, 3);
            m.test = bit(2, 2);
            m.logerr = bit(2, 0);
            m.mrie = v[3] & 0x0F;
            m.interval_timer = u32::from_be_bytes([v[4], v[5], v[6], v[7]]);
            m.report_count = u32::from_be_bytes([v[8], v[9], v[10], v[11]]);
        }
    }
}

/// MODE SENSE(6) 0x1A / (10) 0x5A. (6): byte 1 bit 3 DBD, 2 PC (7-6) + PAGE CODE, 3 SUBPAGE,
/// 4 allocation length. (10): byte 1 bit 4 LLBAA, bit 3 DBD, 7-8 allocation length.
pub(crate) fn mode_sense(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let ten = ctx.cdb[0] == 0x5A;
    let dbd = ctx.cdb[1] & 0x08 != 0;
    let llbaa = ten && ctx.cdb[1] & 0x10 != 0;
    let pc = ctx.cdb[2] >> 6;
    let page = ctx.cdb[2] & 0x3F;
    let subpage = ctx.cdb[3];
    let alloc_len = if ten { ctx.be(7, 2) } else { ctx.be(4, 1) };
    let p = ctx.sh.profile;
    let d = &ctx.sh.d;
    let list = pages(p);
    let wanted: Vec<u8> = if page == 0x3F {
        if subpage != 0 && subpage != 0xFF {
            return Err(SimSense::invalid_cdb(3, None));
        }
        list
    } else {
        if !list.contains(&page) {
            return Err(SimSense::invalid_cdb(2, Some(5)));
        }
        if subpage != 0 && subpage != 0xFF {
            return Err(SimSense::invalid_cdb(3, None));
        }
        vec![page]
    };
    let values = match pc {
        0 => d.mode,
        2 => ModeValues::default(),
        3 => d.mode_saved,
        _ => d.mode,
    };
    let mut body = Vec::new();
    for pg in wanted {
        if pc == 1 {
            let mut m = changeable(pg);
            m[0] |= 0x80;
            body.extend_from_slice(&m);
        } else {
            body.extend_from_slice(&page_bytes(pg, &values));
        }
    }
    // Block descriptor: what the next FORMAT UNIT would use (protocols.md §C.5 step 4).
    let (lb_len, blocks) = match d.pending {
        Some(pf) => (pf.lb_len, pf.num_blocks),
        None => (d.lb_len, d.num_blocks),
    };
    let bd: Vec<u8> = if dbd {
        Vec::new()
    } else if llbaa {
        let mut v = vec![0u8; 16];
        v[0..8].copy_from_slice(&blocks.to_be_bytes());
        v[12..16].copy_from_slice(&lb_len.to_be_bytes());
        v
    } else {
        let mut v = vec![0u8; 8];
        v[0..4].copy_from_slice(&u32::try_from(blocks).unwrap_or(u32::MAX).to_be_bytes());
        v[5..8].copy_from_slice(&lb_len.to_be_bytes()[1..4]);
        v
    };
    let mut r = if ten {
        let mut h = vec![0u8; 8];
        h[3] = 0x10; // DPOFUA
        h[4] = u8::from(llbaa && !dbd); // LONGLBA
        h[6..8].copy_from_slice(&(bd.len() as u16).to_be_bytes());
        h
    } else {
        vec![0, 0, 0x10, bd.len() as u8]
    };
    r.extend_from_slice(&bd);
    r.extend_from_slice(&body);
    if ten {
        let n = (r.len() - 2) as u16;
        r[0..2].copy_from_slice(&n.to_be_bytes());
    } else {
        r[0] = (r.len() - 1).min(255) as u8;
    }
    Ok(alloc(r, alloc_len))
}

/// MODE SELECT(6) 0x15 / (10) 0x55: byte 1 bit 4 PF, bit 0 SP; (6) byte 4 / (10) bytes 7-8
/// PARAMETER LIST LENGTH.
pub fn mode_select(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let ten = ctx.cdb[0] == 0x55;
    let sp = ctx.cdb[1] & 0x01 != 0;
    let (len, len_off) = if ten {
        (ctx.be(7, 2) as usize, 7u16)
    } else {
        (ctx.be(4, 1) as usize, 4u16)
    };
    if len == 0 {
        return Ok(Vec::new());
    }
    if ctx.short_data_out(len) {
        ctx.host_status = DID_ERROR;
        return Ok(Vec::new());
    }
    let pl = ctx.param_list(len);
    let hdr = if ten { 8 } else { 4 };
    if len < hdr {
        return Err(SimSense::param_list_length(len_off));
    }
    // Header: MODE DATA LENGTH is reserved in MODE SELECT (must be 0), MEDIUM TYPE 0,
    // device-specific parameter: WP and DPOFUA are ignored, the rest reserved.
    let mdl_len = if ten { 2 } else { 1 };
    if pl[..mdl_len].iter().any(|&x| x != 0) {
        return Err(SimSense::invalid_param(0, None));
    }
    if pl[mdl_len] != 0 {
        return Err(SimSense::invalid_param(mdl_len as u16, None));
    }
    let (longlba, bd_len) = if ten {
        if pl[4] & 0xFE != 0 || pl[5] != 0 {
            return Err(SimSense::invalid_param(4, None));
        }
        (pl[4] & 1 != 0, super::be(&pl, 6, 2) as usize)
    } else {
        (false, usize::from(pl[3]))
    };
    let want_bd = if longlba { 16 } else { 8 };
    if bd_len != 0 && bd_len != want_bd {
        return Err(SimSense::invalid_param(if ten { 6 } else { 3 }, None));
    }
    if hdr + bd_len > len {
        return Err(SimSense::param_list_length(len_off));
    }
    let p = ctx.sh.profile;
    let mut new_pending = None;
    let mut resize = None;
    if bd_len > 0 {
        let bd = &pl[hdr..hdr + bd_len];
        let (blocks, all_ones, lb_len, lb_off) = if longlba {
            if bd[8..12].iter().any(|&x| x != 0) {
                return Err(SimSense::invalid_param((hdr + 8) as u16, None));
            }
            let n = super::be(bd, 0, 8);
            (n, n == u64::MAX, super::be(bd, 12, 4) as u32, hdr + 12)
        } else {
            if bd[4] != 0 {
                return Err(SimSense::invalid_param((hdr + 4) as u16, None));
            }
            let n = super::be(bd, 0, 4);
            (n, n == 0xFFFF_FFFF, super::be(bd, 5, 3) as u32, hdr + 5)
        };
        if !p.block_lens.contains(&lb_len) {
            return Err(SimSense::invalid_param(lb_off as u16, None));
        }
        let max = ctx.sh.d.max_blocks(lb_len);
        let blocks = if blocks == 0 || all_ones { max } else { blocks };
        if blocks > max {
            return Err(SimSense::invalid_param(hdr as u16, None));
        }
        let d = &ctx.sh.d;
        if lb_len != d.lb_len {
            new_pending = Some(PendingFormat {
                lb_len,
                num_blocks: blocks,
            });
        } else if blocks != d.num_blocks {
            resize = Some(blocks);
        }
    }
    // Mode pages: validate everything before changing anything.
    let mut off = hdr + bd_len;
    let list = pages(p);
    let mut values = ctx.sh.d.mode;
    while off < len {
        let pg = pl[off];
        if pg & 0x80 != 0 {
            return Err(SimSense::invalid_param(off as u16, Some(7))); // PS is reserved
        }
        if pg & 0x40 != 0 || !list.contains(&(pg & 0x3F)) {
            return Err(SimSense::invalid_param(off as u16, Some(5)));
        }
        let code = pg & 0x3F;
        if off + 2 > len {
            return Err(SimSense::param_list_length(len_off));
        }
        let cur = page_bytes(code, &values);
        if usize::from(pl[off + 1]) != cur.len() - 2 {
            return Err(SimSense::invalid_param((off + 1) as u16, None));
        }
        if off + cur.len() > len {
            return Err(SimSense::param_list_length(len_off));
        }
        let new = &pl[off..off + cur.len()];
        let mask = changeable(code);
        for i in 2..cur.len() {
            let bad = (new[i] ^ cur[i]) & !mask[i];
            if bad != 0 {
                let bit = 7 - bad.leading_zeros() as u8;
                return Err(SimSense::invalid_param((off + i) as u16, Some(bit)));
            }
        }
        if code == 0x1C && new[3] & 0x0F > 6 {
            return Err(SimSense::invalid_param((off + 3) as u16, Some(3)));
        }
        apply(code, new, &mut values);
        off += cur.len();
    }
    let d = &mut ctx.sh.d;
    let changed = values != d.mode;
    d.mode = values;
    if sp {
        d.mode_saved = values;
    }
    if changed {
        let other = if ctx.port == 1 { 2 } else { 1 };
        d.add_ua(other, 0x2A, 0x01); // MODE PARAMETERS CHANGED for the other I_T nexus
    }
    if let Some(n) = resize {
        d.num_blocks = n;
        d.store.truncate(n);
        let other = if ctx.port == 1 { 2 } else { 1 };
        d.add_ua(other, 0x2A, 0x09);
    }
    d.pending = new_pending;
    Ok(alloc(Vec::new(), 0))
}
