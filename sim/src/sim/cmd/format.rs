//! SBC-4 5.3 FORMAT UNIT (protocols.md §C.1-C.3, C.7): protection types via FMTPINFO/PFU,
//! LONGLIST headers with P_I_INFORMATION/PIE, FOV rules, initialization pattern, fast format,
//! IMMED with progress on the drive clock, block length/count from a preceding MODE SELECT.

use super::CmdCtx;
use crate::sim::drive::{FormatJob, LongOp};
use crate::sim::profile::Profile;
use crate::sim::sense::{key, SimSense};

const DID_ERROR: u16 = 0x07;

/// Fast format duration, seconds.
const FAST_FORMAT_SECS: u64 = 2;

/// RSOC timeouts: (nominal, recommended) seconds.
pub fn timeouts(p: &Profile) -> (u32, u32) {
    (p.format_secs, p.format_secs.saturating_mul(3))
}

/// Protection types the profile supports, from the Extended INQUIRY SPT code (SPC-5
/// Table 589; protocols.md §C.3).
pub fn supported_types(p: &Profile) -> &'static [u8] {
    if !p.protect {
        return &[];
    }
    match p.spt {
        0 => &[1],
        1 => &[1, 2],
        2 => &[2],
        3 => &[1, 3],
        4 => &[3],
        5 => &[2, 3],
        _ => &[1, 2, 3],
    }
}

/// FORMAT UNIT. CDB byte 1: FMTPINFO 7-6, LONGLIST 5, FMTDATA 4, CMPLST 3, DEFECT LIST
/// FORMAT 2-0; byte 4 bits 1-0 FFMT.
pub fn format_unit(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let p = ctx.sh.profile;
    let fmtpinfo = ctx.cdb[1] >> 6;
    let longlist = ctx.cdb[1] & 0x20 != 0;
    let fmtdata = ctx.cdb[1] & 0x10 != 0;
    let ffmt = ctx.cdb[4] & 0x03;
    // A locked SED refuses to be formatted (sim/src/sim/tcg).
    ctx.sh.d.sed.check_destructive()?;
    if ctx.sh.d.sanitize_failed.is_some() {
        // Only a successful SANITIZE (or EXIT FAILURE MODE) leaves sanitize failure mode.
        return Err(SimSense::new(key::MEDIUM_ERROR, 0x31, 0x03));
    }
    if fmtpinfo == 0b01 || (fmtpinfo != 0 && !p.protect) {
        return Err(SimSense::invalid_cdb(1, Some(7)));
    }
    if ffmt == 0b11 {
        return Err(SimSense::invalid_cdb(4, Some(1)));
    }
    let mut pfu = 0u8;
    let mut immed = false;
    let mut pie = 0u8;
    let mut pattern: Option<Vec<u8>> = None;
    let mut param_list = Vec::new();
    if fmtdata {
        let hdr = if longlist { 8 } else { 4 };
        if ctx.short_data_out(hdr) {
            ctx.host_status = DID_ERROR;
            return Ok(Vec::new());
        }
        let h = &ctx.out[..hdr];
        if h[0] & 0xF8 != 0 {
            return Err(SimSense::invalid_param(0, Some(7)));
        }
        pfu = h[0] & 0x07;
        let fov = h[1] & 0x80 != 0;
        // FOV=0: DPRY (6), DCRT (5), STPF (4), IP (3) must be zero (SBC-4 5.3.2.2).
        if !fov && h[1] & 0x78 != 0 {
            let bit = 7 - (h[1] & 0x78).leading_zeros() as u8;
            return Err(SimSense::invalid_param(1, Some(bit)));
        }
        immed = h[1] & 0x02 != 0;
        let ip = h[1] & 0x08 != 0;
        let (dl_off, defect_len) = if longlist {
            if h[2] != 0 {
                return Err(SimSense::invalid_param(2, None));
            }
            if h[3] & 0xF0 != 0 {
                return Err(SimSense::invalid_param(3, Some(7))); // P_I_INFORMATION
            }
            pie = h[3] & 0x0F;
            (4u16, super::be(h, 4, 4))
        } else {
            (2u16, super::be(h, 2, 2))
        };
        // No user-editable defect list on this SSD: a DLIST is refused.
        if defect_len != 0 {
            return Err(SimSense::invalid_param(dl_off, None));
        }
        let mut end = hdr;
        if ip {
            // Initialization pattern descriptor (SBC-4 5.3.4): byte 0 IP MODIFIER 7-6,
            // SI 5; 1 PATTERN TYPE; 2-3 PATTERN LENGTH; pattern.
            if ctx.short_data_out(hdr + 4) {
                ctx.host_status = DID_ERROR;
                return Ok(Vec::new());
            }
            let d = &ctx.out[hdr..hdr + 4];
            if d[0] & 0xDF != 0 {
                return Err(SimSense::invalid_param(hdr as u16, Some(7)));
            }
            let ptype = d[1];
            let plen = super::be(d, 2, 2) as usize;
            if ptype > 1 {
                return Err(SimSense::invalid_param((hdr + 1) as u16, None));
            }
            if (ptype == 1 && plen == 0) || plen > ctx.sh.d.lb_len as usize {
                return Err(SimSense::invalid_param((hdr + 2) as u16, None));
            }
            if ctx.short_data_out(hdr + 4 + plen) {
                ctx.host_status = DID_ERROR;
                return Ok(Vec::new());
            }
            if ptype == 1 {
                pattern = Some(ctx.out[hdr + 4..hdr + 4 + plen].to_vec());
            }
            end = hdr + 4 + plen;
        }
        param_list = ctx.out[..end].to_vec();
    }
    // FMTPINFO x PFU → protection type (SBC-4 Table 38; protocols.md §C.3).
    let prot_type = match (fmtpinfo, pfu) {
        (0b00, 0) => 0,
        (0b10, 0) => 1,
        (0b11, 0) => 2,
        (0b11, 1) => 3,
        _ => return Err(SimSense::invalid_param(0, Some(2))),
    };
    if prot_type != 0 && !supported_types(p).contains(&prot_type) {
        return Err(if pfu != 0 {
            SimSense::invalid_param(0, Some(2))
        } else {
            SimSense::invalid_cdb(1, Some(7))
        });
    }
    let d = &mut ctx.sh.d;
    // Vendor-locked firmware: the block descriptor was taken, the format is not (the pending
    // length is dropped, the drive keeps its format).
    let target_len = d.pending.as_ref().map_or(d.lb_len, |pf| pf.lb_len);
    if p.format_locked.contains(&target_len) {
        d.pending = None;
        return Err(SimSense::invalid_param(0, None));
    }
    let (lb_len, num_blocks) = match d.pending.take() {
        Some(pf) => (pf.lb_len, pf.num_blocks),
        None => (d.lb_len, d.num_blocks),
    };
    if pie != 0 {
        // PIE: type 1 needs 0; types 2/3 need intervals of at least 512 bytes that divide the
        // logical block.
        let ok = prot_type >= 2
            && lb_len.is_power_of_two()
            && (lb_len >> pie) >= 512
            && u32::from(pie) < 32;
        if !ok {
            return Err(SimSense::invalid_param(3, Some(3)));
        }
    }
    let fail = std::mem::take(&mut d.faults.fail_format);
    let secs = if ffmt != 0 {
        FAST_FORMAT_SECS
    } else {
        u64::from(p.format_secs)
    };
    let dur_ns = secs * 1_000_000_000;
    let keep_data = ffmt != 0 && lb_len == d.lb_len && !d.format_corrupt;
    d.op = Some(LongOp::Format {
        start_ns: d.now_ns,
        dur_ns,
        job: FormatJob {
            lb_len,
            num_blocks,
            prot_type,
            p_i_exp: pie,
            param_list,
            fail,
            port: ctx.port,
            pattern,
            keep_data,
            fast: ffmt != 0,
        },
    });
    if !immed {
        ctx.wait_ns = dur_ns;
    }
    Ok(Vec::new())
}

/// FORMAT WITH PRESET (SBC-5 5.9): byte 1 IMMED (7), FMTMAXLBA (6); bytes 2-5 PRESET
/// IDENTIFIER, one of the profile's presets (VPD 0xB8), else ILLEGAL REQUEST 24/00 on byte 2.
/// The drive formats to the preset's block length and protection type; its capacity is the
/// preset's DESIGNED LAST LBA + 1, which on this drive is also the largest (FMTMAXLBA).
pub(crate) fn format_with_preset(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let p = ctx.sh.profile;
    let immed = ctx.cdb[1] & 0x80 != 0;
    let id = super::be(ctx.cdb, 2, 4);
    let Some(&(_, lb_len, prot_type)) = p.presets.iter().find(|pr| u64::from(pr.0) == id) else {
        return Err(SimSense::invalid_cdb(2, None));
    };
    ctx.sh.d.sed.check_destructive()?;
    if ctx.sh.d.sanitize_failed.is_some() {
        return Err(SimSense::new(key::MEDIUM_ERROR, 0x31, 0x03));
    }
    let d = &mut ctx.sh.d;
    d.pending = None;
    let num_blocks = d.max_blocks(lb_len);
    let fail = std::mem::take(&mut d.faults.fail_format);
    let dur_ns = u64::from(p.format_secs) * 1_000_000_000;
    d.op = Some(LongOp::Format {
        start_ns: d.now_ns,
        dur_ns,
        job: FormatJob {
            lb_len,
            num_blocks,
            prot_type,
            p_i_exp: 0,
            param_list: Vec::new(),
            fail,
            port: ctx.port,
            pattern: None,
            keep_data: false,
            fast: false,
        },
    });
    if !immed {
        ctx.wait_ns = dur_ns;
    }
    Ok(Vec::new())
}
