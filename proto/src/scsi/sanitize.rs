//! SBC-4 5.31 SANITIZE (0x48): CDB and OVERWRITE parameter list builders.
//!
//! Layout restated in docs/protocols.md §D.1–D.3 (sources: sg3_utils
//! `src/sg_sanitize.c`, Seagate SCSI Commands Reference Manual Rev J pp. 200–203, T10 reflector
//! 2015-01 on AUSE).

#[cfg(test)]
use crate::bytes::{Bytes, ParseError, ParseResult};
use crate::error::{Invalid, Result};
use serde::Serialize;

/// SANITIZE operation code.
pub const OPCODE: u8 = crate::scsi::opcodes::code::SANITIZE;

/// SANITIZE service actions (SBC-4 Table 170).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ServiceAction {
    /// 0x01 OVERWRITE: write a pattern over every block (parameter list required).
    Overwrite,
    /// 0x02 BLOCK ERASE: erase every block (flash), no parameter list.
    BlockErase,
    /// 0x03 CRYPTOGRAPHIC ERASE: change the media encryption key, no parameter list.
    CryptoErase,
    /// 0x1F EXIT FAILURE MODE: leave the failed-sanitize state (needs AUSE=1 on the failed one).
    ExitFailureMode,
}

impl ServiceAction {
    /// The 5-bit code.
    pub fn code(self) -> u8 {
        match self {
            ServiceAction::Overwrite => 0x01,
            ServiceAction::BlockErase => 0x02,
            ServiceAction::CryptoErase => 0x03,
            ServiceAction::ExitFailureMode => 0x1f,
        }
    }

    /// Decodes the 5-bit code.
    pub fn from_code(c: u8) -> Option<ServiceAction> {
        match c & 0x1f {
            0x01 => Some(ServiceAction::Overwrite),
            0x02 => Some(ServiceAction::BlockErase),
            0x03 => Some(ServiceAction::CryptoErase),
            0x1f => Some(ServiceAction::ExitFailureMode),
            _ => None,
        }
    }

    /// The T10 name.
    pub fn name(self) -> &'static str {
        match self {
            ServiceAction::Overwrite => "OVERWRITE",
            ServiceAction::BlockErase => "BLOCK ERASE",
            ServiceAction::CryptoErase => "CRYPTOGRAPHIC ERASE",
            ServiceAction::ExitFailureMode => "EXIT FAILURE MODE",
        }
    }

    /// All four, for support probing.
    pub const ALL: [ServiceAction; 4] = [
        ServiceAction::CryptoErase,
        ServiceAction::BlockErase,
        ServiceAction::Overwrite,
        ServiceAction::ExitFailureMode,
    ];
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-4 5.31.1 SANITIZE CDB (10 bytes; Table 169, protocols.md §D.1). [`SanitizeCdb::build_with_list`] makes
    /// the CDB and its parameter list together.
    #[doc(alias = "sg_sanitize")]
    #[derive(Serialize)]
    pub struct SanitizeCdb {
        /// SERVICE ACTION, byte 1 bits 4-0.
        service_action: ServiceAction,
        ;;
        /// IMMED, byte 1 bit 7: return once the CDB is validated.
        immed: bool = false,
        /// ZNR (zoned: no write-pointer reset), byte 1 bit 6.
        znr: bool = false,
        /// AUSE (allow unrestricted sanitize exit), byte 1 bit 5.
        ause: bool = false,
        /// PARAMETER LIST LENGTH, bytes 7-8.
        parameter_list_length: u16 = 0,
    }
}

impl SanitizeCdb {
    /// SANITIZE operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 10 CDB bytes.
    pub fn build(&self) -> [u8; 10] {
        let mut c = [0u8; 10];
        c[0] = OPCODE;
        c[1] = (u8::from(self.immed) << 7)
            | (u8::from(self.znr) << 6)
            | (u8::from(self.ause) << 5)
            | self.service_action.code();
        c[7..9].copy_from_slice(&self.parameter_list_length.to_be_bytes());
        c
    }

    /// Decodes a SANITIZE CDB.
    #[cfg(test)]
    pub(crate) fn parse(cdb: &[u8]) -> ParseResult<SanitizeCdb> {
        let b = Bytes::new(cdb, "SANITIZE CDB");
        b.need(10)?;
        if b.u8(0)? != OPCODE {
            return Err(ParseError::new(
                "SANITIZE CDB",
                "operation code is not 0x48",
            ));
        }
        let b1 = b.u8(1)?;
        let sa = ServiceAction::from_code(b1).ok_or_else(|| {
            ParseError::new(
                "SANITIZE CDB",
                format!("unknown service action 0x{:02x}", b1 & 0x1f),
            )
        })?;
        Ok(SanitizeCdb {
            service_action: sa,
            immed: b1 & 0x80 != 0,
            znr: b1 & 0x40 != 0,
            ause: b1 & 0x20 != 0,
            parameter_list_length: b.be16(7)?,
        })
    }
}

/// OVERWRITE parameter list (SBC-4 5.31.2.2, Table 171; protocols.md §D.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OverwriteParameters {
    /// INVERT: invert the pattern between passes.
    pub invert: bool,
    /// OVERWRITE COUNT, 1..=31 passes.
    pub count: u8,
    /// INITIALIZATION PATTERN, 1..=logical block length bytes.
    pub pattern: Vec<u8>,
}

impl OverwriteParameters {
    /// The parameter list bytes; checks the SBC-4 rules against the logical block length
    /// (count 1..31; pattern 1..=LB length; so the list is > 4 and < LB length + 5 bytes).
    pub fn to_bytes(&self, logical_block_length: u32) -> Result<Vec<u8>> {
        if !(1..=31).contains(&self.count) {
            return Err(Invalid::OverwriteCount { count: self.count }.into());
        }
        if self.pattern.is_empty() || self.pattern.len() > logical_block_length as usize {
            return Err(Invalid::OverwritePattern {
                len: self.pattern.len(),
                max: logical_block_length,
            }
            .into());
        }
        let len = u16::try_from(self.pattern.len()).map_err(|_| Invalid::TooLong {
            what: "overwrite pattern",
            len: self.pattern.len(),
        })?;
        let mut v = Vec::with_capacity(4 + self.pattern.len());
        // TEST (bits 6-5) stays 0: vendor test modes are never used.
        v.push((u8::from(self.invert) << 7) | self.count);
        v.push(0);
        v.extend_from_slice(&len.to_be_bytes());
        v.extend_from_slice(&self.pattern);
        Ok(v)
    }
}

impl SanitizeCdb {
    /// The `(cdb, parameter list)` pair of one SANITIZE: OVERWRITE takes its parameter list
    /// (and a logical block length to check the pattern against), the other service actions
    /// none; PARAMETER LIST LENGTH is set from the list.
    pub fn build_with_list(
        &self,
        overwrite: Option<(&OverwriteParameters, u32)>,
    ) -> Result<([u8; 10], Vec<u8>)> {
        let service_action = self.service_action;
        let params = match (service_action, overwrite) {
            (ServiceAction::Overwrite, Some((p, lb))) => p.to_bytes(lb)?,
            (ServiceAction::Overwrite, None) => return Err(Invalid::OverwriteNeedsList.into()),
            (_, Some(_)) => {
                return Err(Invalid::NoParameterList {
                    action: service_action.name(),
                }
                .into())
            }
            (_, None) => Vec::new(),
        };
        let len = u16::try_from(params.len()).map_err(|_| Invalid::TooLong {
            what: "SANITIZE parameter list",
            len: params.len(),
        })?;
        Ok((self.parameter_list_length(len).build(), params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sg_sanitize `--crypto` (IMMED default) [SG3-san]: `48 83 00 00 00 00 00 00 00 00`.
    #[test]
    fn crypto_erase_immed() {
        let (cdb, p) = SanitizeCdb::new(ServiceAction::CryptoErase)
            .immed(true)
            .build_with_list(None)
            .unwrap();
        assert_eq!(cdb, [0x48, 0x83, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(p.is_empty());
    }

    /// Block erase with AUSE: byte 1 = 0x80 | 0x20 | 0x02.
    #[test]
    fn block_erase_ause() {
        let (cdb, _) = SanitizeCdb::new(ServiceAction::BlockErase)
            .immed(true)
            .ause(true)
            .build_with_list(None)
            .unwrap();
        assert_eq!(cdb, [0x48, 0xA2, 0, 0, 0, 0, 0, 0, 0, 0]);
        let d = SanitizeCdb::parse(&cdb).unwrap();
        assert!(d.ause && d.immed && !d.znr);
        assert_eq!(d.service_action, ServiceAction::BlockErase);
    }

    /// EXIT FAILURE MODE, ZNR set: byte 1 = 0x40 | 0x1F.
    #[test]
    fn exit_failure_mode() {
        let (cdb, _) = SanitizeCdb::new(ServiceAction::ExitFailureMode)
            .znr(true)
            .build_with_list(None)
            .unwrap();
        assert_eq!(cdb, [0x48, 0x5F, 0, 0, 0, 0, 0, 0, 0, 0]);
    }

    /// sg_sanitize `--overwrite --zero` [SG3-san]: 4-byte zero pattern, one pass:
    /// list `01 00 00 04 00 00 00 00`, length 8 in CDB bytes 7-8.
    #[test]
    fn overwrite_zero_pattern() {
        let p = OverwriteParameters {
            invert: false,
            count: 1,
            pattern: vec![0; 4],
        };
        let (cdb, list) = SanitizeCdb::new(ServiceAction::Overwrite)
            .immed(true)
            .build_with_list(Some((&p, 512)))
            .unwrap();
        assert_eq!(cdb, [0x48, 0x81, 0, 0, 0, 0, 0, 0x00, 0x08, 0]);
        assert_eq!(list, vec![0x01, 0x00, 0x00, 0x04, 0, 0, 0, 0]);
    }

    #[test]
    fn overwrite_invert_three_passes() {
        let p = OverwriteParameters {
            invert: true,
            count: 3,
            pattern: vec![0xA5, 0x5A],
        };
        assert_eq!(p.to_bytes(512).unwrap(), vec![0x83, 0, 0, 2, 0xA5, 0x5A]);
    }

    /// Length rule: pattern 1..=LB length, count 1..31 (SBC-4 Table 170/171).
    #[test]
    fn overwrite_rules() {
        let mut p = OverwriteParameters {
            invert: false,
            count: 0,
            pattern: vec![1],
        };
        assert!(p.to_bytes(512).is_err());
        p.count = 32;
        assert!(p.to_bytes(512).is_err());
        p.count = 31;
        p.pattern = vec![0; 513];
        assert!(p.to_bytes(512).is_err());
        p.pattern = vec![0; 512];
        assert_eq!(p.to_bytes(512).unwrap().len(), 516);
        p.pattern.clear();
        assert!(p.to_bytes(512).is_err());
        assert!(SanitizeCdb::new(ServiceAction::Overwrite)
            .immed(true)
            .build_with_list(None)
            .is_err());
        let q = OverwriteParameters {
            invert: false,
            count: 1,
            pattern: vec![0],
        };
        assert!(SanitizeCdb::new(ServiceAction::CryptoErase)
            .immed(true)
            .build_with_list(Some((&q, 512)))
            .is_err());
    }

    #[test]
    fn parse_rejects_garbage() {
        assert!(SanitizeCdb::parse(&[0x48, 0x83]).is_err());
        assert!(SanitizeCdb::parse(&[0x48, 0x04, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(SanitizeCdb::parse(&[0x04, 0x03, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
    }
}
