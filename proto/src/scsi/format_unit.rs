//! SBC-4 5.3 FORMAT UNIT (0x04): CDB and parameter list builders.
//!
//! Byte layout restated in docs/protocols.md §C.1–C.3 (sources: sg3_utils
//! `src/sg_format.c`, Seagate SCSI Commands Reference Manual Rev J pp. 72–79, HGST C15K600 p. 91).
//! FMTPINFO lives in the CDB, PROTECTION FIELD USAGE in the parameter list header; type 3
//! needs both, so a parameter list is always sent when protection is requested.

use crate::bytes::{Bytes, ParseResult};
use crate::error::{Invalid, Result};
use serde::Serialize;

/// FORMAT UNIT operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::FORMAT_UNIT;

/// T10 protection information type to format with (SBC-4 4.22.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProtectionType {
    /// No protection information.
    Type0,
    /// Type 1: reference tag = low 32 bits of the LBA.
    Type1,
    /// Type 2: reference tag from the 32-byte CDB, PI intervals allowed.
    Type2,
    /// Type 3: reference tag not checked.
    Type3,
}

impl ProtectionType {
    /// From the number the user types (`--pi 0..3`).
    pub fn from_number(n: u8) -> Result<ProtectionType> {
        Ok(match n {
            0 => ProtectionType::Type0,
            1 => ProtectionType::Type1,
            2 => ProtectionType::Type2,
            3 => ProtectionType::Type3,
            _ => return Err(Invalid::ProtectionType { value: n }.into()),
        })
    }

    /// 0..3.
    pub fn number(self) -> u8 {
        match self {
            ProtectionType::Type0 => 0,
            ProtectionType::Type1 => 1,
            ProtectionType::Type2 => 2,
            ProtectionType::Type3 => 3,
        }
    }

    /// `(FMTPINFO, PROTECTION FIELD USAGE)` per SBC-4 Table 41 (protocols.md §C.3):
    /// type 0 = 00b/000b, type 1 = 10b/000b, type 2 = 11b/000b, type 3 = 11b/001b.
    pub(crate) fn fmtpinfo_pfu(self) -> (u8, u8) {
        match self {
            ProtectionType::Type0 => (0b00, 0b000),
            ProtectionType::Type1 => (0b10, 0b000),
            ProtectionType::Type2 => (0b11, 0b000),
            ProtectionType::Type3 => (0b11, 0b001),
        }
    }

    /// What READ CAPACITY(16) reports after a successful format: `(PROT_EN, P_TYPE)`
    /// (SBC-4 5.20.2; P_TYPE = type − 1).
    pub fn read_capacity_fields(self) -> (bool, u8) {
        match self {
            ProtectionType::Type0 => (false, 0),
            t => (true, t.number() - 1),
        }
    }

    /// Inverse of [`Self::read_capacity_fields`]; `None` for a P_TYPE this tool cannot name.
    pub fn from_read_capacity(prot_en: bool, p_type: u8) -> Option<ProtectionType> {
        match (prot_en, p_type) {
            (false, _) => Some(ProtectionType::Type0),
            (true, 0) => Some(ProtectionType::Type1),
            (true, 1) => Some(ProtectionType::Type2),
            (true, 2) => Some(ProtectionType::Type3),
            _ => None,
        }
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-4 5.3.1 FORMAT UNIT CDB (6 bytes; Table 38, protocols.md §C.1). [`FormatRequest`]
    /// makes the CDB and its parameter list together.
    #[doc(alias = "sg_ll_format_unit")]
    #[derive(Serialize)]
    pub(crate) struct FormatUnitCdb {
        ;;
        /// FMTPINFO, byte 1 bits 7-6.
        fmtpinfo: u8 = 0,
        /// LONGLIST, byte 1 bit 5: the parameter list uses the 8-byte header.
        longlist: bool = false,
        /// FMTDATA, byte 1 bit 4: a parameter list follows.
        fmtdata: bool = false,
        /// CMPLST, byte 1 bit 3: discard the existing grown defect list.
        cmplst: bool = false,
        /// DEFECT LIST FORMAT, byte 1 bits 2-0.
        defect_list_format: u8 = 0,
        /// FFMT (fast format), byte 4 bits 1-0 (SBC-4 r10).
        ffmt: u8 = 0,
    }
}

impl FormatUnitCdb {
    /// FORMAT UNIT operation code.
    pub(crate) const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub(crate) fn build(&self) -> [u8; 6] {
        let mut c = [0u8; 6];
        c[0] = Self::OPCODE;
        c[1] = ((self.fmtpinfo & 0x3) << 6)
            | (u8::from(self.longlist) << 5)
            | (u8::from(self.fmtdata) << 4)
            | (u8::from(self.cmplst) << 3)
            | (self.defect_list_format & 0x7);
        c[4] = self.ffmt & 0x3;
        c
    }

    /// Decodes a FORMAT UNIT CDB (for dry-run listings and tests).
    #[cfg(test)]
    pub(crate) fn parse(cdb: &[u8]) -> ParseResult<FormatUnitCdb> {
        let b = Bytes::new(cdb, "FORMAT UNIT CDB");
        b.need(6)?;
        if b.u8(0)? != OPCODE {
            return Err(crate::bytes::ParseError::new(
                "FORMAT UNIT CDB",
                "operation code is not 0x04",
            ));
        }
        let b1 = b.u8(1)?;
        Ok(FormatUnitCdb {
            fmtpinfo: b1 >> 6,
            longlist: b1 & 0x20 != 0,
            fmtdata: b1 & 0x10 != 0,
            cmplst: b1 & 0x08 != 0,
            defect_list_format: b1 & 0x07,
            ffmt: b.u8(4)? & 0x3,
        })
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-5 5.9 FORMAT WITH PRESET CDB (10 bytes): the drive formats itself to the geometry
    /// and protection of one of the presets its Format Presets VPD page (0xB8) lists; there
    /// is no parameter list.
    #[derive(Serialize)]
    pub struct FormatWithPresetCdb {
        /// PRESET IDENTIFIER, bytes 2-5 (big-endian).
        preset_id: u32,
        ;;
        /// IMMED, byte 1 bit 7: return once the CDB is validated.
        immed: bool = false,
        /// FMTMAXLBA, byte 1 bit 6: format to the largest capacity instead of the preset's
        /// DESIGNED LAST LBA.
        fmtmaxlba: bool = false,
    }
}

impl FormatWithPresetCdb {
    /// FORMAT WITH PRESET operation code.
    pub const OPCODE: u8 = crate::scsi::opcodes::code::FORMAT_WITH_PRESET;

    /// The 10 CDB bytes (byte 9 CONTROL zero).
    pub fn build(&self) -> [u8; 10] {
        let mut c = [0u8; 10];
        c[0] = crate::scsi::opcodes::code::FORMAT_WITH_PRESET;
        c[1] = (u8::from(self.immed) << 7) | (u8::from(self.fmtmaxlba) << 6);
        c[2..6].copy_from_slice(&self.preset_id.to_be_bytes());
        c
    }

    /// Decodes a FORMAT WITH PRESET CDB.
    pub fn parse(cdb: &[u8]) -> ParseResult<FormatWithPresetCdb> {
        let b = Bytes::new(cdb, "FORMAT WITH PRESET CDB");
        b.need(10)?;
        if b.u8(0)? != crate::scsi::opcodes::code::FORMAT_WITH_PRESET {
            return Err(crate::bytes::ParseError::new(
                "FORMAT WITH PRESET CDB",
                "operation code is not 0x38",
            ));
        }
        let b1 = b.u8(1)?;
        Ok(FormatWithPresetCdb {
            immed: b1 & 0x80 != 0,
            fmtmaxlba: b1 & 0x40 != 0,
            preset_id: b.be32(2)?,
        })
    }
}

/// Initialization pattern descriptor (SBC-4 5.3.2.6; protocols.md §C.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct InitializationPattern {
    /// SI: security initialize (overwrite all areas, reallocated ones included).
    pub security_initialize: bool,
    /// Pattern type (0 default, 1 repeat the pattern).
    pub pattern_type: u8,
    /// The pattern (may be empty for the default pattern).
    pub pattern: Vec<u8>,
}

/// FORMAT UNIT parameter list header fields (SBC-4 5.3.2.2; protocols.md §C.2).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub(crate) struct FormatParameters {
    /// PROTECTION FIELD USAGE, byte 0 bits 2-0.
    pub pfu: u8,
    /// FOV: the following option bits are valid.
    pub fov: bool,
    /// DPRY: do not use the primary defect list.
    pub dpry: bool,
    /// DCRT: disable certification.
    pub dcrt: bool,
    /// STPF: stop if a defect list cannot be found.
    pub stpf: bool,
    /// IMMED: return status once the parameter list is received.
    pub immed: bool,
    /// PROTECTION INTERVAL EXPONENT (long header only).
    pub protection_interval_exponent: u8,
    /// Initialization pattern (sets IP).
    pub init_pattern: Option<InitializationPattern>,
}

impl FormatParameters {
    /// The parameter list bytes: 4-byte short header, or 8-byte long header when `longlist`,
    /// then the initialization pattern descriptor. No defect list is ever sent.
    pub(crate) fn to_bytes(&self, longlist: bool) -> Result<Vec<u8>> {
        if !self.fov && (self.dpry || self.dcrt || self.stpf || self.init_pattern.is_some()) {
            // SBC-4 5.3.2.2: with FOV=0 these bits must be zero (else 26/00).
            return Err(Invalid::FormatNeedsFov.into());
        }
        if !longlist && self.protection_interval_exponent != 0 {
            return Err(Invalid::PiExponentNeedsLongHeader.into());
        }
        let mut v = Vec::with_capacity(12);
        v.push(self.pfu & 0x7);
        v.push(
            (u8::from(self.fov) << 7)
                | (u8::from(self.dpry) << 6)
                | (u8::from(self.dcrt) << 5)
                | (u8::from(self.stpf) << 4)
                | (u8::from(self.init_pattern.is_some()) << 3)
                | (u8::from(self.immed) << 1),
        );
        if longlist {
            // Byte 2 reserved, byte 3: P_I_INFORMATION (0) | PIE, bytes 4-7 defect list length 0.
            v.extend_from_slice(&[0, self.protection_interval_exponent & 0x0f, 0, 0, 0, 0]);
        } else {
            v.extend_from_slice(&[0, 0]);
        }
        if let Some(ip) = &self.init_pattern {
            let len = u16::try_from(ip.pattern.len()).map_err(|_| Invalid::InitPatternTooLong {
                len: ip.pattern.len(),
            })?;
            v.push(u8::from(ip.security_initialize) << 5);
            v.push(ip.pattern_type);
            v.extend_from_slice(&len.to_be_bytes());
            v.extend_from_slice(&ip.pattern);
        }
        Ok(v)
    }
}

/// What the user asked a FORMAT UNIT to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FormatRequest {
    /// Protection type to format with.
    pub protection: ProtectionType,
    /// PI interval exponent (types 2 and 3 only).
    pub pi_exponent: u8,
    /// Fast format (FFMT=1: unwritten blocks read back with unspecified data).
    pub fast: bool,
    /// Return immediately and let the host poll.
    pub immed: bool,
}

impl FormatRequest {
    /// Builds `(cdb, parameter list)` the way sg_format does (protocols.md §C.2): FMTDATA=1
    /// with IMMED in the header, CMPLST=1 (0 with FFMT), LONGLIST only when PIE > 0.
    pub fn build(&self) -> Result<([u8; 6], Vec<u8>)> {
        if self.pi_exponent > 15 {
            return Err(Invalid::PiExponent {
                value: self.pi_exponent,
            }
            .into());
        }
        if self.pi_exponent != 0
            && !matches!(
                self.protection,
                ProtectionType::Type2 | ProtectionType::Type3
            )
        {
            // SBC-4 5.3.2.2: PIE must be 0 unless type 2 or 3.
            return Err(Invalid::PiExponentNeedsType2Or3.into());
        }
        let (fmtpinfo, pfu) = self.protection.fmtpinfo_pfu();
        let longlist = self.pi_exponent != 0;
        let cdb = FormatUnitCdb::new()
            .fmtpinfo(fmtpinfo)
            .longlist(longlist)
            .fmtdata(true)
            .cmplst(!self.fast)
            .ffmt(u8::from(self.fast));
        let params = FormatParameters {
            pfu,
            immed: self.immed,
            protection_interval_exponent: self.pi_exponent,
            ..FormatParameters::default()
        };
        Ok((cdb.build(), params.to_bytes(longlist)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SBC-5 5.9 Table "FORMAT WITH PRESET command": 38h, IMMED byte 1 bit 7, FMTMAXLBA bit 6,
    /// PRESET IDENTIFIER bytes 2-5, CONTROL byte 9.
    #[test]
    fn format_with_preset_cdb_layout() {
        let c = FormatWithPresetCdb::new(0x0102_0304).immed(true);
        assert_eq!(c.build(), [0x38, 0x80, 1, 2, 3, 4, 0, 0, 0, 0]);
        let m = FormatWithPresetCdb::new(2).fmtmaxlba(true);
        assert_eq!(m.build(), [0x38, 0x40, 0, 0, 0, 2, 0, 0, 0, 0]);
        assert_eq!(FormatWithPresetCdb::parse(&c.build()).unwrap(), c);
        assert_eq!(FormatWithPresetCdb::parse(&m.build()).unwrap(), m);
        assert!(FormatWithPresetCdb::parse(&[0x38, 0x80, 0, 0, 0, 1]).is_err());
        assert!(FormatWithPresetCdb::parse(&[0x04, 0, 0, 0, 0, 1, 0, 0, 0, 0]).is_err());
        assert!(crate::scsi::changes_state(&c.build()));
    }

    /// Seagate ST1000NM0033 product manual §9.8 [SGT-PM]: type-1 format is CDB
    /// `04 90 00 00 00 00` with parameter data `00 A0 00 00` (FOV+DCRT).
    #[test]
    fn seagate_type1_example() {
        let (fmtpinfo, pfu) = ProtectionType::Type1.fmtpinfo_pfu();
        let cdb = FormatUnitCdb::new().fmtpinfo(fmtpinfo).fmtdata(true);
        assert_eq!(cdb.build(), [0x04, 0x90, 0, 0, 0, 0]);
        let p = FormatParameters {
            pfu,
            fov: true,
            dcrt: true,
            ..Default::default()
        };
        assert_eq!(p.to_bytes(false).unwrap(), vec![0x00, 0xA0, 0x00, 0x00]);
    }

    /// [SGT-PM]: type-2 format is CDB `04 D0 00 00 00 00` with the same data.
    #[test]
    fn seagate_type2_example() {
        let (fmtpinfo, pfu) = ProtectionType::Type2.fmtpinfo_pfu();
        let cdb = FormatUnitCdb::new().fmtpinfo(fmtpinfo).fmtdata(true);
        assert_eq!(cdb.build(), [0x04, 0xD0, 0, 0, 0, 0]);
        assert_eq!(pfu, 0);
    }

    /// sg_format default with IMMED [SG3-fmt]: CMPLST=1, FMTDATA=1, header `[PFU, 02, 00, 00]`.
    #[test]
    fn sg_format_style_type0() {
        let (cdb, p) = FormatRequest {
            protection: ProtectionType::Type0,
            pi_exponent: 0,
            fast: false,
            immed: true,
        }
        .build()
        .unwrap();
        assert_eq!(cdb, [0x04, 0x18, 0, 0, 0, 0]);
        assert_eq!(p, vec![0x00, 0x02, 0x00, 0x00]);
    }

    /// Type 3 = FMTPINFO 11b in the CDB and PFU 001b in byte 0 bits 2-0 of the header (not
    /// byte 1 bit 0 as the stored OpenSea code does; protocols.md §C.3).
    #[test]
    fn type3_puts_pfu_in_byte0() {
        let (cdb, p) = FormatRequest {
            protection: ProtectionType::Type3,
            pi_exponent: 0,
            fast: false,
            immed: true,
        }
        .build()
        .unwrap();
        assert_eq!(cdb, [0x04, 0xD8, 0, 0, 0, 0]);
        assert_eq!(p, vec![0x01, 0x02, 0x00, 0x00]);
    }

    /// PIE needs LONGLIST: 8-byte header with the exponent in byte 3 bits 3-0; fast format
    /// sets FFMT=1 and clears CMPLST.
    #[test]
    fn pie_uses_long_header_and_fast() {
        let (cdb, p) = FormatRequest {
            protection: ProtectionType::Type2,
            pi_exponent: 3,
            fast: true,
            immed: true,
        }
        .build()
        .unwrap();
        assert_eq!(cdb, [0x04, 0xF0, 0, 0, 0x01, 0]);
        assert_eq!(p, vec![0x00, 0x02, 0, 0x03, 0, 0, 0, 0]);
        let back = FormatUnitCdb::parse(&cdb).unwrap();
        assert!(back.longlist && back.fmtdata && !back.cmplst);
        assert_eq!((back.fmtpinfo, back.ffmt), (3, 1));
    }

    #[test]
    fn rejects_illegal_combinations() {
        let bad = FormatRequest {
            protection: ProtectionType::Type1,
            pi_exponent: 2,
            fast: false,
            immed: true,
        };
        assert!(bad.build().is_err());
        let p = FormatParameters {
            dcrt: true,
            ..Default::default()
        };
        assert!(p.to_bytes(false).is_err());
        assert!(ProtectionType::from_number(4).is_err());
        assert!(FormatUnitCdb::parse(&[0x04, 0]).is_err());
        assert!(FormatUnitCdb::parse(&[0x12, 0, 0, 0, 0, 0]).is_err());
    }

    /// sg_format `--ip-def --security`: FOV+IP header 0x88 (+IMMED) and an SI descriptor.
    #[test]
    fn init_pattern_descriptor() {
        let p = FormatParameters {
            fov: true,
            immed: true,
            init_pattern: Some(InitializationPattern {
                security_initialize: true,
                pattern_type: 0,
                pattern: vec![],
            }),
            ..Default::default()
        };
        assert_eq!(
            p.to_bytes(false).unwrap(),
            vec![0x00, 0x8A, 0, 0, 0x20, 0x00, 0x00, 0x00]
        );
    }

    #[test]
    fn read_capacity_mapping_round_trips() {
        for n in 0..4 {
            let t = ProtectionType::from_number(n).unwrap();
            let (en, pt) = t.read_capacity_fields();
            assert_eq!(ProtectionType::from_read_capacity(en, pt), Some(t));
        }
        assert_eq!(ProtectionType::from_read_capacity(true, 5), None);
    }
}
