//! SPC-5 6.37 REPORT TARGET PORT GROUPS (MAINTENANCE IN, service action 0Ah) and the target
//! port group model of the dual-port drive (SPC-5 5.16, implicit asymmetric access): each SAS
//! port is its own target port group, both active/optimized, as a symmetric dual-port SSD is.
//! VPD page 0x83 reports the group of the port asked through (designator type 5), INQUIRY
//! sets TPGS = 01b (implicit ALUA).

use super::{alloc, CmdCtx};
use crate::sim::sense::SimSense;

/// The target port group of relative target port `port` (1 and 2 → groups 1 and 2).
pub(crate) fn group_of(port: u16) -> u16 {
    port.clamp(1, 2)
}

/// REPORT TARGET PORT GROUPS: byte 1 bits 7-5 PARAMETER DATA FORMAT (000b length only, 001b
/// extended header), bytes 6-9 allocation length.
pub(crate) fn report_target_port_groups(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let format = ctx.cdb[1] >> 5;
    if format > 1 {
        return Err(SimSense::invalid_cdb(1, Some(7)));
    }
    let alloc_len = ctx.be(6, 4);
    let ports = ctx.sh.profile.ports.max(1);
    let mut desc = vec![];
    for port in 1..=ports {
        // PREF=0, state 0h active/optimized; supported: AO_SUP only (the state never changes);
        // status code 0 (no status available); one target port.
        desc.extend_from_slice(&[0x00, 0x01]);
        desc.extend_from_slice(&group_of(port).to_be_bytes());
        desc.extend_from_slice(&[0, 0, 0, 1, 0, 0]);
        desc.extend_from_slice(&port.to_be_bytes());
    }
    let mut v = vec![];
    if format == 1 {
        let len = (desc.len() + 4) as u32;
        v.extend_from_slice(&len.to_be_bytes());
        // FORMAT TYPE 001b, implicit transition time 0 s.
        v.extend_from_slice(&[0x10, 0, 0, 0]);
    } else {
        v.extend_from_slice(&(desc.len() as u32).to_be_bytes());
    }
    v.extend_from_slice(&desc);
    Ok(alloc(v, alloc_len))
}
