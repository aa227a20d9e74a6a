//! SPC-5 6.7 INQUIRY: standard data and the VPD pages (protocols.md §E.4).

use super::{alloc, CmdCtx};
use crate::sim::drive::Drive;
use crate::sim::profile::Profile;
use crate::sim::sense::SimSense;

fn pad(s: &str, n: usize) -> Vec<u8> {
    let mut v: Vec<u8> = s.bytes().take(n).collect();
    v.resize(n, b' ');
    v
}

/// VPD pages the profile answers, ascending (page 0x00 lists them).
pub fn vpd_pages(p: &Profile) -> Vec<u8> {
    let mut v = vec![0x00, 0x80, 0x83];
    if !p.sata {
        v.push(0x86);
        v.push(0x88);
    } else {
        v.push(0x89);
    }
    v.push(0xB0);
    v.push(0xB1);
    if p.lbpme {
        v.push(0xB2);
    }
    if !p.sata {
        v.push(0xB4);
    }
    if !p.presets.is_empty() {
        v.push(0xB8);
    }
    v
}

/// INQUIRY: byte 1 bit 0 EVPD, byte 2 page code, bytes 3-4 allocation length.
pub fn inquiry(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let evpd = ctx.cdb[1] & 0x01 != 0;
    let page = ctx.cdb[2];
    let alloc_len = ctx.be(3, 2);
    let p = ctx.sh.profile;
    let d = &ctx.sh.d;
    if !evpd {
        if page != 0 {
            return Err(SimSense::invalid_cdb(2, None));
        }
        return Ok(alloc(standard(p, d), alloc_len));
    }
    if !vpd_pages(p).contains(&page) {
        return Err(SimSense::invalid_cdb(2, None));
    }
    let body = match page {
        0x00 => vpd_pages(p),
        0x80 => d.serial.as_bytes().to_vec(),
        0x83 => device_identification(p, d, ctx.port),
        0x86 => extended_inquiry(p, d),
        0x88 => scsi_ports(p, d),
        0x89 => ata_information(p, d),
        0xB0 => block_limits(p, d),
        0xB1 => block_device_characteristics(),
        0xB4 => supported_block_lengths(p, d.faults.unlisted_lb_len),
        0xB8 => format_presets(p, d),
        _ => logical_block_provisioning(p),
    };
    let mut r = vec![0u8, page, 0, 0];
    r[2..4].copy_from_slice(&(body.len() as u16).to_be_bytes());
    r.extend_from_slice(&body);
    Ok(alloc(r, alloc_len))
}

/// Standard INQUIRY data, 96 bytes (SPC-5 6.7.2).
fn standard(p: &Profile, d: &Drive) -> Vec<u8> {
    let mut r = vec![0u8; 96];
    r[0] = 0x00; // qualifier 0, PDT 0 direct access block device
    r[2] = 0x06; // VERSION: SPC-4
    r[3] = 0x12; // HISUP, RESPONSE DATA FORMAT 2
    r[4] = 96 - 5; // ADDITIONAL LENGTH
    r[5] = u8::from(p.protect); // PROTECT (byte 5 bit 0)
    if !p.sata {
        r[5] |= 0x10; // TPGS = 01b: implicit ALUA (REPORT TARGET PORT GROUPS, super::alua)
    }
    r[6] = if p.ports >= 2 { 0x10 } else { 0 }; // MULTIP
    r[7] = 0x02; // CMDQUE
    r[8..16].copy_from_slice(&pad(p.vendor, 8));
    r[16..32].copy_from_slice(&pad(p.product, 16));
    r[32..36].copy_from_slice(&pad(d.revision(p), 4));
    r[36..56].copy_from_slice(&pad(&d.serial, 20)); // vendor specific: serial number
                                                    // Version descriptors (SPC-5 Table 148): SAM-5, SPC-4, SBC-3.
    for (i, v) in [0x00A0u16, 0x0460, 0x04C0].iter().enumerate() {
        r[58 + 2 * i..60 + 2 * i].copy_from_slice(&v.to_be_bytes());
    }
    r
}

/// Designation descriptor header + designator (SPC-5 7.7.6.1).
fn designator(proto_codeset: u8, piv_assoc_type: u8, value: &[u8]) -> Vec<u8> {
    let mut v = vec![proto_codeset, piv_assoc_type, 0, value.len() as u8];
    v.extend_from_slice(value);
    v
}

/// The target port's SAS address designator: protocol 6 SAS, binary, PIV=1, association 1
/// (target port), type 3 NAA.
fn port_naa(addr: u64) -> Vec<u8> {
    designator(0x61, 0x93, &addr.to_be_bytes())
}

/// VPD 0x83: LU NAA (identical through both ports), then for SAS the target port NAA and
/// relative target port of the port asked through, the target device NAA [FJ] and the port's
/// target port group.
fn device_identification(p: &Profile, d: &Drive, port: u16) -> Vec<u8> {
    let mut v = designator(0x01, 0x03, &d.lu_naa.to_be_bytes());
    if p.sata {
        // SAT-4 10.4.3: T10 vendor ID "ATA" + model + serial (ASCII).
        let mut id = pad("ATA", 8);
        id.extend_from_slice(&pad(p.ata_model, 40));
        id.extend_from_slice(&pad(&d.serial, 20));
        v.extend_from_slice(&designator(0x02, 0x01, &id));
        return v;
    }
    let port = port.clamp(1, 2);
    v.extend_from_slice(&port_naa(d.port_sas[usize::from(port - 1)]));
    v.extend_from_slice(&designator(0x61, 0x94, &[0, 0, 0, port as u8]));
    v.extend_from_slice(&designator(0x61, 0xA3, &d.target_naa.to_be_bytes()));
    // Target port group of this port (type 5, association 1), as REPORT TARGET PORT GROUPS.
    let tpg = super::alua::group_of(port).to_be_bytes();
    v.extend_from_slice(&designator(0x61, 0x95, &[0, 0, tpg[0], tpg[1]]));
    v
}

/// VPD 0x86 Extended INQUIRY Data (SPC-5 7.7.7), page length 0x3C.
fn extended_inquiry(p: &Profile, d: &Drive) -> Vec<u8> {
    let mut v = vec![0u8; 0x3C];
    if p.protect {
        v[0] = (p.spt & 0x07) << 3 | 0x07; // SPT, GRD_CHK, APP_CHK, REF_CHK
    }
    v[1] = 0x07; // HEADSUP, ORDSUP, SIMPSUP
    v[2] = 0x01; // V_SUP: volatile cache
    v[3] = 0x01; // LUICLR
    v[6..8].copy_from_slice(&2u16.to_be_bytes()); // extended self-test minutes
    v[9] = 0xFC; // maximum supported sense data length
    if !p.sata {
        // ACTIVATE MICROCODE 01b: microcode activates before the final WRITE BUFFER of a
        // download completes (byte 4 bits 7-6).
        v[0] |= 0x40;
        // Byte 19: DM_MD_5, DM_MD_7, DM_MD_D, DM_MD_E, DM_MD_F (super::firmware).
        v[15] = 0b0101_1110 & d.faults.dm_md_mask.unwrap_or(0xFF);
    }
    v
}

/// VPD 0x88 SCSI Ports (SPC-5 7.7.13): both ports whatever port asked.
fn scsi_ports(p: &Profile, d: &Drive) -> Vec<u8> {
    let mut v = Vec::new();
    for port in 1..=p.ports.clamp(1, 2) {
        let tpd = port_naa(d.port_sas[usize::from(port - 1)]);
        let mut e = vec![0u8; 12];
        e[2..4].copy_from_slice(&port.to_be_bytes()); // relative port identifier
                                                      // 6-7 initiator port transport ID length = 0; 8-9 reserved; 10-11 descriptors length
        e[10..12].copy_from_slice(&(tpd.len() as u16).to_be_bytes());
        e.extend_from_slice(&tpd);
        v.extend_from_slice(&e);
    }
    v
}

/// ATA string: space padded, bytes swapped within each 16-bit word (ATA8-ACS 3.3.10).
fn ata_string(s: &str, n: usize) -> Vec<u8> {
    let mut b = pad(s, n);
    for w in b.chunks_mut(2) {
        w.swap(0, w.len() - 1);
    }
    b
}

/// VPD 0x89 ATA Information (SAT-4 12.4.2), page length 0x238.
fn ata_information(p: &Profile, d: &Drive) -> Vec<u8> {
    let mut v = vec![0u8; 0x238];
    // offsets below are page offsets minus the 4-byte header
    v[4..12].copy_from_slice(&pad("LSI", 8)); // SAT vendor
    v[12..28].copy_from_slice(&pad("LSI SATL", 16)); // SAT product
    v[28..32].copy_from_slice(&pad("0008", 4)); // SAT revision
                                                // ATA device signature (36-55): register FIS 0x34, status 0x50, error 0x01, LBA low 1,
                                                // count 1.
    v[32] = 0x34;
    v[34] = 0x50;
    v[35] = 0x01;
    v[36] = 0x01;
    v[44] = 0x01;
    v[52] = 0xEC; // COMMAND CODE: IDENTIFY DEVICE
    let id = &mut v[56..56 + 512];
    let mut word = |w: usize, val: u16| {
        id[2 * w..2 * w + 2].copy_from_slice(&val.to_le_bytes());
    };
    word(0, 0x0040);
    word(49, 0x0200); // LBA supported
    word(83, 0x4400); // 48-bit address feature set
    word(106, 0x6003); // multiple logical per physical: 2^3 (4096 physical)
    word(169, 0x0001); // DATA SET MANAGEMENT TRIM
    word(217, 0x0001); // nominal media rotation rate: non-rotating
    let lba = d.num_blocks;
    word(60, (lba.min(0x0FFF_FFFF) & 0xFFFF) as u16);
    word(61, (lba.min(0x0FFF_FFFF) >> 16) as u16);
    for i in 0..4 {
        word(100 + i, (lba >> (16 * i)) as u16);
        word(108 + i, (d.lu_naa >> (48 - 16 * i)) as u16);
    }
    id[20..40].copy_from_slice(&ata_string(&d.serial, 20));
    id[46..54].copy_from_slice(&ata_string(p.revision, 8));
    id[54..94].copy_from_slice(&ata_string(p.ata_model, 40));
    v
}

/// VPD 0xB0 Block Limits (SBC-4 6.6.4), page length 0x3C.
fn block_limits(p: &Profile, d: &Drive) -> Vec<u8> {
    let lb = u64::from(d.lb_len.max(1));
    let mut v = vec![0u8; 0x3C];
    let gran = (u64::from(p.physical_block_len) / lb).max(1) as u16;
    v[2..4].copy_from_slice(&gran.to_be_bytes()); // optimal transfer length granularity
    v[4..8].copy_from_slice(&(((8u64 << 20) / lb) as u32).to_be_bytes()); // max transfer
    v[8..12].copy_from_slice(&(((256u64 << 10) / lb) as u32).to_be_bytes()); // optimal
    if p.lbpme {
        v[16..20].copy_from_slice(&0x0040_0000u32.to_be_bytes()); // max UNMAP LBA count
        v[20..24].copy_from_slice(&64u32.to_be_bytes()); // max UNMAP descriptor count
        v[24..28].copy_from_slice(&u32::from(gran).to_be_bytes()); // optimal unmap granularity
    }
    if !p.sata {
        v[0] |= 0x01; // WSNZ: WRITE SAME with NUMBER OF LOGICAL BLOCKS 0 is refused
                      // 36-43 MAXIMUM WRITE SAME LENGTH.
        v[32..40].copy_from_slice(&super::write_same::MAX_WRITE_SAME_BLOCKS.to_be_bytes());
    }
    v
}

/// VPD 0xB1 Block Device Characteristics (SBC-4 6.6.2): non-rotating, 2.5", reads after
/// block erase / crypto erase complete with GOOD (WABEREQ = WACEREQ = 01b).
fn block_device_characteristics() -> Vec<u8> {
    let mut v = vec![0u8; 0x3C];
    v[0..2].copy_from_slice(&1u16.to_be_bytes()); // MEDIUM ROTATION RATE = 1: SSD
    v[3] = 0x40 | 0x10 | 0x03;
    v
}

/// VPD 0xB2 Logical Block Provisioning (SBC-4 6.6.6): LBPU (UNMAP), LBPWS (WRITE SAME(16)
/// with UNMAP), LBPWS10 (WRITE SAME(10) with UNMAP) — the SATA profile's SATL has no WRITE
/// SAME — LBPRZ=001b, ANC_SUP=0, resource provisioned.
fn logical_block_provisioning(p: &Profile) -> Vec<u8> {
    let mut v = vec![0u8; 4];
    v[1] = 0x80 | if p.sata { 0 } else { 0x60 } | if p.lbprz { 0x04 } else { 0 };
    v[2] = 0x01;
    v
}

/// VPD 0xB4 Supported Block Lengths and Protection Types (SBC-4 6.6.7): every length FORMAT
/// UNIT accepts (vendor-locked lengths left out), type 0 always, the profile's PI types (SPT)
/// with guard/application/reference tag checking, P_I_I_SUP where type 2/3 can take PIE > 0.
/// `unlisted`: a length left out although FORMAT UNIT takes it (the `unlisted_block` fault).
fn supported_block_lengths(p: &Profile, unlisted: Option<u32>) -> Vec<u8> {
    let types = super::format::supported_types(p);
    let descs: Vec<(u32, u8, u8)> = p
        .block_lens
        .iter()
        .filter(|l| !p.format_locked.contains(l) && Some(**l) != unlisted)
        .map(|&len| {
            let t = types.iter().fold(0x01u8, |a, &t| a | (1 << t));
            let mut b4 = if types.is_empty() { 0 } else { 0x07 };
            if t & 0x0c != 0 && len.is_power_of_two() && len >= 1024 {
                b4 |= 0x40;
            }
            (len, b4, t)
        })
        .collect();
    sgctl_proto::scsi::vpd::block_lengths::build(&descs)
        .get(4..)
        .map(<[u8]>::to_vec)
        .unwrap_or_default()
}

/// VPD 0xB8 Format Presets (SBC-5 6.6.5): the profile's presets as block-device schema
/// descriptors, designed last LBA from the drive's capacity at that length.
fn format_presets(p: &Profile, d: &Drive) -> Vec<u8> {
    let mut v = Vec::new();
    for &(id, len, prot) in p.presets {
        let last = d.max_blocks(len).saturating_sub(1);
        v.extend_from_slice(&sgctl_proto::scsi::vpd::format_presets::build_descriptor(
            id,
            p.lbppbe(len),
            len,
            last,
            prot,
        ));
    }
    v
}
