//! SPC-6 7.7.9 Extended INQUIRY Data VPD page (0x86): supported protection types (SPT),
//! task attributes, extended self-test time, sense length (protocols.md §E.4; bit positions
//! checked against sg3_utils `sg_vpd` 1.46 output).

use crate::bytes::ParseResult;
use serde::Serialize;

/// Decoded page 0x86. Field names are the T10 names sg_vpd prints, in snake case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(missing_docs)] // each field is the T10 field of the same name; offsets in `parse`
pub struct ExtendedInquiry {
    pub activate_microcode: u8,
    /// Supported protection types (meaningful when INQUIRY PROTECT=1; see [`spt_types`]).
    pub spt: u8,
    pub grd_chk: bool,
    pub app_chk: bool,
    pub ref_chk: bool,
    pub uask_sup: bool,
    pub group_sup: bool,
    pub prior_sup: bool,
    pub headsup: bool,
    pub ordsup: bool,
    pub simpsup: bool,
    pub wu_sup: bool,
    pub crd_sup: bool,
    pub nv_sup: bool,
    pub v_sup: bool,
    pub no_pi_chk: bool,
    pub p_i_i_sup: bool,
    pub luiclr: bool,
    pub lu_coll_type: u8,
    pub r_sup: bool,
    pub rtd_sup: bool,
    pub hssrelef: bool,
    pub cbcs: bool,
    pub multi_i_t_nexus_microcode_download: u8,
    pub extended_self_test_completion_minutes: u16,
    pub poa_sup: bool,
    pub hra_sup: bool,
    pub vsa_sup: bool,
    pub dms_valid: bool,
    pub maximum_supported_sense_data_length: u8,
    pub ibs: bool,
    pub ias: bool,
    pub sac: bool,
    pub nrd1: bool,
    pub nrd0: bool,
    pub maximum_inquiry_change_logs: u16,
    pub maximum_mode_page_change_logs: u16,
    pub dm_md_4: bool,
    pub dm_md_5: bool,
    pub dm_md_6: bool,
    pub dm_md_7: bool,
    pub dm_md_d: bool,
    pub dm_md_e: bool,
    pub dm_md_f: bool,
}

/// Protection types allowed by an SPT value (SPC-6 Table 537; protocols.md §C.3). `None` for
/// 6 (see VPD 0xB4).
pub fn spt_types(spt: u8) -> Option<&'static [u8]> {
    Some(match spt {
        0 => &[1],
        1 => &[1, 2],
        2 => &[2],
        3 => &[1, 3],
        4 => &[3],
        5 => &[2, 3],
        7 => &[1, 2, 3],
        _ => return None,
    })
}

/// Parses page 0x86. Bytes beyond the page length read as zero (older devices send shorter
/// pages: SPC-3 defined 60 bytes but used only the first 12).
pub fn parse(buf: &[u8]) -> ParseResult<ExtendedInquiry> {
    super::strict("Extended INQUIRY data VPD page", |p| decode(buf, p))
}

/// Decodes page 0x86 as far as the bytes go; inconsistencies go to `problems`.
pub fn decode(buf: &[u8], problems: &mut Vec<String>) -> ParseResult<ExtendedInquiry> {
    let (_, b) = super::body(buf, 0x86, "Extended INQUIRY data VPD page", problems)?;
    if b.len() < 8 {
        problems.push(format!(
            "{} bytes, the first flags are in byte 4-7: missing bytes read as 0",
            b.len()
        ));
    }
    let u = |o: usize| b.u8(o).unwrap_or(0);
    let w = |o: usize| b.be16(o).unwrap_or(0);
    let bit = |o: usize, n: u8| u(o) >> n & 1 != 0;
    Ok(ExtendedInquiry {
        activate_microcode: u(4) >> 6,
        spt: (u(4) >> 3) & 7,
        grd_chk: bit(4, 2),
        app_chk: bit(4, 1),
        ref_chk: bit(4, 0),
        uask_sup: bit(5, 5),
        group_sup: bit(5, 4),
        prior_sup: bit(5, 3),
        headsup: bit(5, 2),
        ordsup: bit(5, 1),
        simpsup: bit(5, 0),
        wu_sup: bit(6, 3),
        crd_sup: bit(6, 2),
        nv_sup: bit(6, 1),
        v_sup: bit(6, 0),
        no_pi_chk: bit(7, 5),
        p_i_i_sup: bit(7, 4),
        luiclr: bit(7, 0),
        lu_coll_type: u(8) >> 5,
        r_sup: bit(8, 4),
        rtd_sup: bit(8, 3),
        hssrelef: bit(8, 1),
        cbcs: bit(8, 0),
        multi_i_t_nexus_microcode_download: u(9) & 0x0f,
        extended_self_test_completion_minutes: w(10),
        poa_sup: bit(12, 7),
        hra_sup: bit(12, 6),
        vsa_sup: bit(12, 5),
        dms_valid: bit(12, 4),
        maximum_supported_sense_data_length: u(13),
        ibs: bit(14, 7),
        ias: bit(14, 6),
        sac: bit(14, 2),
        nrd1: bit(14, 1),
        nrd0: bit(14, 0),
        maximum_inquiry_change_logs: w(15),
        maximum_mode_page_change_logs: w(17),
        dm_md_4: bit(19, 7),
        dm_md_5: bit(19, 6),
        dm_md_6: bit(19, 5),
        dm_md_7: bit(19, 4),
        dm_md_d: bit(19, 3),
        dm_md_e: bit(19, 2),
        dm_md_f: bit(19, 1),
    })
}
