//! SAT-4 12.2 ATA PASS-THROUGH (12) A1h, (16) 85h and (32) 7Fh/1FF0h: CDB builders, which of
//! them to use ([`CdbSize`]), and the SAT-4 12.2.2.7 / SPC-5 4.4.2.x ATA Status Return sense
//! descriptor (09h) decoder into [`crate::ata::AtaRegisters`].
//!
//! Field layout follows SAT-4 Tables 194, 195 (byte 1: PROTOCOL bits 4-1, EXTEND bit 0; byte 2:
//! OFF_LINE 7-6, CK_COND 5, T_TYPE 4, T_DIR 3, BYT_BLOK 2, T_LENGTH 1-0) and the way smartmontools
//! (`scsiata.cpp`, `sat_device::ata_pass_through`) and sg3_utils (`sg_sat_identify.c`) build
//! them; the tests check bytes captured from those tools (fixtures/ata/README.md).
//! Pure: no I/O (the execution and error mapping live in [`crate::cmd::ata`]).

use crate::ata::AtaRegisters;
use crate::bytes::{ParseError, ParseResult};
use serde::Serialize;

/// ATA PASS-THROUGH(12) operation code.
#[doc(alias = "SAT_ATA_PASSTHROUGH_12")]
pub(crate) const OPCODE_12: u8 = crate::scsi::opcodes::code::ATA_PASS_THROUGH_12;
/// ATA PASS-THROUGH(16) operation code.
#[doc(alias = "SAT_ATA_PASSTHROUGH_16")]
pub(crate) const OPCODE_16: u8 = crate::scsi::opcodes::code::ATA_PASS_THROUGH_16;
/// Variable-length CDB operation code; ATA PASS-THROUGH(32) is service action 1FF0h.
pub(crate) const OPCODE_32: u8 = 0x7F;
/// ATA PASS-THROUGH(32) service action.
pub(crate) const SERVICE_ACTION_32: u16 = 0x1FF0;
/// ASC/ASCQ 00/1D ATA PASS THROUGH INFORMATION AVAILABLE.
pub(crate) const ASCQ_ATA_INFO: u8 = 0x1D;
/// Sense descriptor type of the ATA Status Return descriptor.
pub(crate) const DESCRIPTOR_ATA_STATUS_RETURN: u8 = 0x09;

/// SAT-4 Table 196 PROTOCOL field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// 0h ATA hardware reset.
    HardReset,
    /// 1h SRST.
    SoftReset,
    /// 3h Non-data.
    NonData,
    /// 4h PIO Data-In.
    PioDataIn,
    /// 5h PIO Data-Out.
    PioDataOut,
    /// 6h DMA.
    Dma,
    /// 8h Execute Device Diagnostic.
    DeviceDiagnostic,
    /// 9h Non-data command (DEVICE RESET).
    DeviceReset,
    /// Ah UDMA Data-In.
    UdmaDataIn,
    /// Bh UDMA Data-Out.
    UdmaDataOut,
    /// Ch NCQ (FPDMA).
    Fpdma,
    /// Fh Return Response Information.
    ReturnResponseInformation,
    /// Any other value.
    Unknown(u8),
}

impl Protocol {
    /// The 4-bit code.
    pub fn code(self) -> u8 {
        match self {
            Protocol::HardReset => 0,
            Protocol::SoftReset => 1,
            Protocol::NonData => 3,
            Protocol::PioDataIn => 4,
            Protocol::PioDataOut => 5,
            Protocol::Dma => 6,
            Protocol::DeviceDiagnostic => 8,
            Protocol::DeviceReset => 9,
            Protocol::UdmaDataIn => 10,
            Protocol::UdmaDataOut => 11,
            Protocol::Fpdma => 12,
            Protocol::ReturnResponseInformation => 15,
            Protocol::Unknown(v) => v & 0x0F,
        }
    }

    /// Decodes the 4-bit code.
    pub fn from_code(v: u8) -> Protocol {
        match v & 0x0F {
            0 => Protocol::HardReset,
            1 => Protocol::SoftReset,
            3 => Protocol::NonData,
            4 => Protocol::PioDataIn,
            5 => Protocol::PioDataOut,
            6 => Protocol::Dma,
            8 => Protocol::DeviceDiagnostic,
            9 => Protocol::DeviceReset,
            10 => Protocol::UdmaDataIn,
            11 => Protocol::UdmaDataOut,
            12 => Protocol::Fpdma,
            15 => Protocol::ReturnResponseInformation,
            v => Protocol::Unknown(v),
        }
    }

    /// True for protocols that move data from the device.
    pub fn is_data_in(self) -> bool {
        matches!(self, Protocol::PioDataIn | Protocol::UdmaDataIn)
    }
}

/// SAT-4 Table 198 T_LENGTH: where the transfer length is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TLength {
    /// 0: no data is transferred.
    None,
    /// 1: in the FEATURES field.
    Features,
    /// 2: in the COUNT field.
    Count,
    /// 3: in the TPSIU (AUXILIARY for (32)).
    Tpsiu,
}

impl TLength {
    fn code(self) -> u8 {
        match self {
            TLength::None => 0,
            TLength::Features => 1,
            TLength::Count => 2,
            TLength::Tpsiu => 3,
        }
    }
}

/// The ATA command registers (the "task file"). 48-bit fields hold both halves: for a 28-bit
/// command only the low parts are used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TaskFile {
    /// FEATURES (15:0).
    pub features: u16,
    /// COUNT (15:0).
    pub count: u16,
    /// LBA (47:0).
    pub lba: u64,
    /// DEVICE.
    pub device: u8,
    /// COMMAND.
    pub command: u8,
}

/// One ATA command and how to carry it (SAT-4 12.2.2). Required fields in [`AtaCommand::new`],
/// the rest as setters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AtaCommand {
    /// Registers.
    pub tf: TaskFile,
    /// PROTOCOL.
    pub protocol: Protocol,
    /// EXTEND: a 48-bit command (only (16) and (32) carry the high bytes).
    pub extend: bool,
    /// CK_COND: return the ATA registers in sense data even on success.
    pub ck_cond: bool,
    /// T_DIR: 1 = from the device.
    pub t_dir_in: bool,
    /// BYT_BLOK: 1 = the transfer length counts blocks (512 bytes, T_TYPE=0), 0 = bytes.
    pub byt_blok: bool,
    /// T_LENGTH.
    pub t_length: TLength,
    /// OFF_LINE (0..=3): 2^(n+1) s the SATL waits before reading status.
    pub off_line: u8,
}

impl AtaCommand {
    /// ATA PASS-THROUGH (12) operation code ([`AtaCommand::cdb12`]).
    pub const OPCODE_12: u8 = OPCODE_12;
    /// ATA PASS-THROUGH (16) operation code ([`AtaCommand::cdb16`]).
    pub const OPCODE_16: u8 = OPCODE_16;
    /// VARIABLE LENGTH operation code of ATA PASS-THROUGH (32) ([`AtaCommand::cdb32`]).
    pub const OPCODE_32: u8 = OPCODE_32;
    /// ATA PASS-THROUGH (32) service action, bytes 8-9.
    pub const SERVICE_ACTION_32: u16 = SERVICE_ACTION_32;

    /// A command with `command` and `protocol`. Data-in/out protocols get T_DIR and
    /// T_LENGTH=COUNT with BYT_BLOK=1 (512-byte blocks), as smartmontools sets them; non-data
    /// commands get T_LENGTH=0 (and T_DIR=1, BYT_BLOK=1, which the SATL ignores).
    pub fn new(command: u8, protocol: Protocol) -> AtaCommand {
        let data = !matches!(
            protocol,
            Protocol::NonData
                | Protocol::HardReset
                | Protocol::SoftReset
                | Protocol::DeviceDiagnostic
                | Protocol::DeviceReset
                | Protocol::ReturnResponseInformation
        );
        let out = matches!(protocol, Protocol::PioDataOut | Protocol::UdmaDataOut);
        AtaCommand {
            tf: TaskFile {
                command,
                ..TaskFile::default()
            },
            protocol,
            extend: false,
            ck_cond: false,
            t_dir_in: !out,
            byt_blok: true,
            t_length: if data { TLength::Count } else { TLength::None },
            off_line: 0,
        }
    }

    /// FEATURES.
    pub fn features(mut self, v: u16) -> Self {
        self.tf.features = v;
        self
    }
    /// COUNT.
    pub fn count(mut self, v: u16) -> Self {
        self.tf.count = v;
        self
    }
    /// LBA.
    pub fn lba(mut self, v: u64) -> Self {
        self.tf.lba = v & 0xFFFF_FFFF_FFFF;
        self
    }
    /// DEVICE.
    pub fn device(mut self, v: u8) -> Self {
        self.tf.device = v;
        self
    }
    /// EXTEND (48-bit command).
    pub fn extend(mut self, v: bool) -> Self {
        self.extend = v;
        self
    }
    /// CK_COND.
    pub fn ck_cond(mut self, v: bool) -> Self {
        self.ck_cond = v;
        self
    }
    /// DMA instead of PIO for the data phase (smartmontools uses PIO; some HBAs want DMA).
    pub fn t_length(mut self, v: TLength) -> Self {
        self.t_length = v;
        self
    }

    /// Bytes the data phase moves (COUNT blocks of 512 when T_LENGTH=COUNT and BYT_BLOK=1).
    pub fn transfer_len(&self) -> usize {
        let n = match self.t_length {
            TLength::None | TLength::Tpsiu => return 0,
            TLength::Features => usize::from(self.tf.features),
            TLength::Count => usize::from(self.tf.count),
        };
        // COUNT 0 with a 28-bit command means 256 blocks (ACS-4 7.x); 48-bit: 65536.
        let n = match (n, self.extend) {
            (0, false) => 256,
            (0, true) => 65536,
            (n, _) => n,
        };
        if self.byt_blok {
            n * 512
        } else {
            n
        }
    }

    fn byte1(&self) -> u8 {
        (self.protocol.code() << 1) | u8::from(self.extend)
    }

    fn byte2(&self) -> u8 {
        ((self.off_line & 3) << 6)
            | (u8::from(self.ck_cond) << 5)
            | (u8::from(self.t_dir_in) << 3)
            | (u8::from(self.byt_blok) << 2)
            | self.t_length.code()
    }

    /// ATA PASS-THROUGH(12) (SAT-4 Table 194). A 48-bit command does not fit.
    pub fn cdb12(&self) -> Result<[u8; 12], ParseError> {
        if self.extend || self.tf.lba > 0x0FFF_FFFF || self.tf.count > 0xFF {
            return Err(ParseError::new(
                "ATA PASS-THROUGH(12)",
                "48-bit commands need ATA PASS-THROUGH(16)",
            ));
        }
        let l = self.tf.lba.to_le_bytes();
        Ok([
            OPCODE_12,
            self.byte1() & 0x1E,
            self.byte2(),
            self.tf.features as u8,
            self.tf.count as u8,
            l[0],
            l[1],
            l[2],
            // LBA 27:24 rides in DEVICE bits 3-0 for 28-bit commands (ACS-4 7.x).
            self.tf.device | (l[3] & 0x0F),
            self.tf.command,
            0,
            0,
        ])
    }

    /// ATA PASS-THROUGH(16) (SAT-4 Table 195): high-order bytes before the low-order ones.
    pub fn cdb16(&self) -> [u8; 16] {
        let l = self.tf.lba.to_le_bytes();
        let f = self.tf.features.to_be_bytes();
        let c = self.tf.count.to_be_bytes();
        let (hi, dev) = if self.extend {
            ([f[0], c[0], l[3], l[4], l[5]], self.tf.device)
        } else {
            ([0; 5], self.tf.device | (l[3] & 0x0F))
        };
        [
            OPCODE_16,
            self.byte1(),
            self.byte2(),
            hi[0],
            f[1],
            hi[1],
            c[1],
            hi[2],
            l[0],
            hi[3],
            l[1],
            hi[4],
            l[2],
            dev,
            self.tf.command,
            0,
        ]
    }

    /// ATA PASS-THROUGH(32) (SAT-4 Table 197): variable-length CDB, additional length 18h,
    /// service action 1FF0h, LBA big-endian in bytes 12-19 (48 bits used).
    pub fn cdb32(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[0] = OPCODE_32;
        b[7] = 0x18;
        b[8..10].copy_from_slice(&SERVICE_ACTION_32.to_be_bytes());
        b[10] = self.byte1();
        b[11] = self.byte2();
        b[12..20].copy_from_slice(&self.tf.lba.to_be_bytes());
        b[20..22].copy_from_slice(&self.tf.features.to_be_bytes());
        b[22..24].copy_from_slice(&self.tf.count.to_be_bytes());
        b[25] = self.tf.device;
        b[26] = self.tf.command;
        b
    }
}

/// Decodes the registers of an ATA PASS-THROUGH(12)/(16) CDB (for traces, the simulator and
/// `--dry-run` listings).
pub fn parse_cdb(cdb: &[u8]) -> ParseResult<AtaCommand> {
    let err = |r: &str| ParseError::new("ATA PASS-THROUGH CDB", r.to_string());
    let (b1, b2) = match cdb.first() {
        Some(&OPCODE_12) if cdb.len() >= 12 => (cdb[1], cdb[2]),
        Some(&OPCODE_16) if cdb.len() >= 16 => (cdb[1], cdb[2]),
        Some(&OPCODE_32) if cdb.len() >= 32 => (cdb[10], cdb[11]),
        _ => return Err(err("not an ATA PASS-THROUGH CDB of its full length")),
    };
    let t_length = match b2 & 3 {
        0 => TLength::None,
        1 => TLength::Features,
        2 => TLength::Count,
        _ => TLength::Tpsiu,
    };
    let extend = b1 & 1 != 0;
    let tf = match cdb[0] {
        OPCODE_12 => TaskFile {
            features: u16::from(cdb[3]),
            count: u16::from(cdb[4]),
            lba: u64::from(cdb[5])
                | u64::from(cdb[6]) << 8
                | u64::from(cdb[7]) << 16
                | u64::from(cdb[8] & 0x0F) << 24,
            device: cdb[8] & 0xF0,
            command: cdb[9],
        },
        OPCODE_16 => {
            let low = u64::from(cdb[8]) | u64::from(cdb[10]) << 8 | u64::from(cdb[12]) << 16;
            let lba = if extend {
                low | u64::from(cdb[7]) << 24 | u64::from(cdb[9]) << 32 | u64::from(cdb[11]) << 40
            } else {
                low | u64::from(cdb[13] & 0x0F) << 24
            };
            TaskFile {
                features: u16::from_be_bytes([if extend { cdb[3] } else { 0 }, cdb[4]]),
                count: u16::from_be_bytes([if extend { cdb[5] } else { 0 }, cdb[6]]),
                lba,
                device: if extend { cdb[13] } else { cdb[13] & 0xF0 },
                command: cdb[14],
            }
        }
        _ => TaskFile {
            features: u16::from_be_bytes([cdb[20], cdb[21]]),
            count: u16::from_be_bytes([cdb[22], cdb[23]]),
            lba: u64::from_be_bytes([
                cdb[12], cdb[13], cdb[14], cdb[15], cdb[16], cdb[17], cdb[18], cdb[19],
            ]) & 0xFFFF_FFFF_FFFF,
            device: cdb[25],
            command: cdb[26],
        },
    };
    Ok(AtaCommand {
        tf,
        protocol: Protocol::from_code(b1 >> 1),
        extend,
        ck_cond: b2 & 0x20 != 0,
        t_dir_in: b2 & 0x08 != 0,
        byt_blok: b2 & 0x04 != 0,
        t_length,
        off_line: b2 >> 6,
    })
}

/// True when an ATA PASS-THROUGH CDB carries an ATA command that only reads (IDENTIFY, SMART
/// READ DATA/THRESHOLDS/LOG, SMART RETURN STATUS, READ LOG (DMA) EXT, SANITIZE STATUS EXT
/// without CLEAR, CHECK POWER MODE): what the safety gate's read-only transport lets through.
pub(crate) fn is_read_only(cdb: &[u8]) -> bool {
    let Ok(c) = parse_cdb(cdb) else {
        return false;
    };
    let f = c.tf.features as u8;
    match c.tf.command {
        0xEC | 0xA1 | 0x2F | 0x47 | 0xE5 => c.t_dir_in || c.t_length == TLength::None,
        0xB0 => matches!(f, 0xD0 | 0xD1 | 0xD5 | 0xDA),
        0xB4 => c.tf.features == 0 && c.tf.count & 1 == 0,
        _ => false,
    }
}

/// Which ATA PASS-THROUGH CDB to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CdbSize {
    /// ATA PASS-THROUGH(12): 28-bit commands only; some USB bridges need it.
    Twelve,
    /// ATA PASS-THROUGH(16) (smartctl's and sg3_utils' default).
    #[default]
    Sixteen,
    /// ATA PASS-THROUGH(32) (SAT-4; few SATLs implement it).
    ThirtyTwo,
}

impl CdbSize {
    /// The CDB for `cmd`; a 48-bit command over (12) falls back to (16).
    pub fn cdb(self, cmd: &AtaCommand) -> Vec<u8> {
        match self {
            CdbSize::Twelve => cmd
                .cdb12()
                .map(|c| c.to_vec())
                .unwrap_or_else(|_| cmd.cdb16().to_vec()),
            CdbSize::Sixteen => cmd.cdb16().to_vec(),
            CdbSize::ThirtyTwo => cmd.cdb32().to_vec(),
        }
    }
}

/// Finds the ATA registers in sense data: the ATA Status Return descriptor (type 09h,
/// additional length 0Ch; SAT-4 12.2.2.7) of descriptor-format sense, or — for fixed-format
/// sense with ASC/ASCQ 00/1D — the INFORMATION and COMMAND-SPECIFIC INFORMATION fields
/// (SAT-4 12.2.2.6: byte 3 ERROR, 4 STATUS, 5 DEVICE, 6 COUNT(7:0), 8 flags, 9-11 LBA(23:0)).
/// Returns None when the sense carries no registers. Never reads outside `sense`.
pub fn parse_registers(sense: &[u8]) -> Option<AtaRegisters> {
    let code = sense.first()? & 0x7F;
    match code {
        0x72 | 0x73 => {
            let add = usize::from(*sense.get(7)?);
            let end = (8 + add).min(sense.len());
            let mut off = 8;
            while off + 2 <= end {
                let ty = sense[off];
                let len = usize::from(sense[off + 1]);
                let body_end = off + 2 + len;
                if ty == DESCRIPTOR_ATA_STATUS_RETURN {
                    // Need the full 14 bytes (additional length 0Ch) inside the buffer.
                    let d = sense.get(off..off + 14)?;
                    if len < 0x0C {
                        return None;
                    }
                    return Some(decode_descriptor(d));
                }
                off = body_end;
            }
            None
        }
        0x70 | 0x71 => {
            if sense.len() < 14 || sense[12] != 0 || sense[13] != ASCQ_ATA_INFO {
                return None;
            }
            let extend = sense[8] & 0x80 != 0;
            Some(AtaRegisters {
                extend,
                error: sense[3],
                status: sense[4],
                device: sense[5],
                count: u16::from(sense[6]),
                lba: u64::from(sense[9]) | u64::from(sense[10]) << 8 | u64::from(sense[11]) << 16,
            })
        }
        _ => None,
    }
}

/// The 14 bytes of a type 09h descriptor (SAT-4 Table 210): 2 EXTEND (bit 0), 3 ERROR, 4-5
/// COUNT (15:8, 7:0), 6-11 LBA pairs (31:24 7:0, 39:32 15:8, 47:40 23:16), 12 DEVICE, 13 STATUS.
pub(crate) fn decode_descriptor(d: &[u8]) -> AtaRegisters {
    let g = |i: usize| u64::from(d.get(i).copied().unwrap_or(0));
    AtaRegisters {
        extend: g(2) & 1 != 0,
        error: g(3) as u8,
        count: ((g(4) << 8) | g(5)) as u16,
        lba: g(7) | g(9) << 8 | g(11) << 16 | g(6) << 24 | g(8) << 32 | g(10) << 40,
        device: g(12) as u8,
        status: g(13) as u8,
    }
}

/// Builds a type 09h descriptor (the simulator's SATL uses it).
pub fn encode_descriptor(r: &AtaRegisters) -> [u8; 14] {
    let l = r.lba.to_le_bytes();
    let c = r.count.to_be_bytes();
    [
        DESCRIPTOR_ATA_STATUS_RETURN,
        0x0C,
        u8::from(r.extend),
        r.error,
        c[0],
        c[1],
        l[3],
        l[0],
        l[4],
        l[1],
        l[5],
        l[2],
        r.device,
        r.status,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ata::AtaErrorKind;

    fn hex(s: &str) -> Vec<u8> {
        crate::bytes::parse_inhex(s).unwrap()
    }

    /// smartctl 7.4 `-r ioctl,4 -d sat,12 -i` (omniosorg/omnios-extra#1418):
    /// `[ata pass-through(12): a1 08 0e 00 01 00 00 00 00 ec 00 00 ]`.
    #[test]
    fn identify_12_matches_smartctl_capture() {
        let c = AtaCommand::new(0xEC, Protocol::PioDataIn).count(1);
        assert_eq!(
            c.cdb12().unwrap().to_vec(),
            hex("a1 08 0e 00 01 00 00 00 00 ec 00 00")
        );
        assert_eq!(c.transfer_len(), 512);
        assert_eq!(parse_cdb(&c.cdb12().unwrap()).unwrap(), c);
    }

    /// SMART READ DATA over (12) with the DMA protocol, as QDiskInfo sends it
    /// (edisionnano/QDiskInfo#27): `a1 0c 0e d0 01 00 4f c2 00 b0 00 00`.
    #[test]
    fn smart_read_data_dma_12_matches_capture() {
        let c = AtaCommand::new(0xB0, Protocol::Dma)
            .features(0xD0)
            .count(1)
            .lba(0xC2_4F00);
        assert_eq!(
            c.cdb12().unwrap().to_vec(),
            hex("a1 0c 0e d0 01 00 4f c2 00 b0 00 00")
        );
    }

    /// The (16) form of IDENTIFY as sg_sat_identify (sg3_utils, default --len=16) and
    /// smartctl -d sat send it: protocol 4, T_DIR=1, BYT_BLOK=1, T_LENGTH=2, COUNT 1.
    #[test]
    fn identify_16_and_smart_return_status() {
        let c = AtaCommand::new(0xEC, Protocol::PioDataIn).count(1);
        assert_eq!(
            c.cdb16().to_vec(),
            hex("85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00")
        );
        // SMART RETURN STATUS: non-data (protocol 3) with CK_COND (smartmontools sets it
        // when output registers are needed): byte 2 = 0x2c.
        let s = AtaCommand::new(0xB0, Protocol::NonData)
            .features(0xDA)
            .lba(0xC2_4F00)
            .ck_cond(true);
        assert_eq!(
            s.cdb16().to_vec(),
            hex("85 06 2c 00 da 00 00 00 00 00 4f 00 c2 00 b0 00")
        );
        assert_eq!(parse_cdb(&s.cdb16()).unwrap(), s);
    }

    #[test]
    fn read_log_ext_48bit_16_and_32() {
        // READ LOG EXT (2Fh) of the Device Statistics log (04h) page 7, 1 page: 48-bit,
        // LBA 7:0 = log address, 15:8 = page number, PIO data-in.
        let c = AtaCommand::new(0x2F, Protocol::PioDataIn)
            .extend(true)
            .count(1)
            .lba(0x0704);
        assert_eq!(
            c.cdb16().to_vec(),
            hex("85 09 0e 00 00 00 01 00 04 00 07 00 00 00 2f 00")
        );
        assert!(c.cdb12().is_err());
        let c32 = c.cdb32();
        assert_eq!(c32[0], 0x7F);
        assert_eq!(c32[7], 0x18);
        assert_eq!(&c32[8..12], &[0x1F, 0xF0, 0x09, 0x0E]);
        assert_eq!(&c32[12..20], &[0, 0, 0, 0, 0, 0, 0x07, 0x04]);
        assert_eq!(c32[23], 1);
        assert_eq!(c32[26], 0x2F);
        assert_eq!(parse_cdb(&c32).unwrap(), c);
        let high = AtaCommand::new(0x2F, Protocol::PioDataIn)
            .extend(true)
            .count(0x0102)
            .features(0x0304)
            .lba(0xAABB_CCDD_EEFF);
        assert_eq!(parse_cdb(&high.cdb16()).unwrap(), high);
    }

    /// Linux libata's answer to SMART RETURN STATUS with CK_COND (dmesg of a SATA disk, Ubuntu
    /// Forums thread, 2010; fixtures/ata/README.md): RECOVERED ERROR, 00/1D, descriptor 09h
    /// with LBA mid 4Fh / high C2h (not failing), DEVICE E0h, STATUS 50h.
    #[test]
    fn return_descriptor_from_libata_capture() {
        let s = hex("72 01 00 1d 00 00 00 0e 09 0c 00 00 00 00 00 00 00 4f 00 c2 e0 50");
        let r = parse_registers(&s).unwrap();
        assert_eq!(r.status, 0x50);
        assert_eq!(r.error, 0);
        assert_eq!(r.device, 0xE0);
        assert_eq!((r.lba >> 8) & 0xFF, 0x4F);
        assert_eq!((r.lba >> 16) & 0xFF, 0xC2);
        assert!(!r.is_error());
        assert_eq!(encode_descriptor(&r).to_vec(), s[8..].to_vec());
        // The same kernel log has a count of FFh in another answer (SMART threshold check).
        let s2 = hex("72 01 00 1d 00 00 00 0e 09 0c 00 00 00 ff 00 00 00 00 00 00 40 50");
        assert_eq!(parse_registers(&s2).unwrap().count, 0xFF);
    }

    #[test]
    fn read_only_classification() {
        let id = AtaCommand::new(0xEC, Protocol::PioDataIn).count(1);
        assert!(is_read_only(&id.cdb16()));
        assert!(is_read_only(&id.cdb12().unwrap()));
        let status = AtaCommand::new(0xB4, Protocol::NonData)
            .extend(true)
            .ck_cond(true);
        assert!(is_read_only(&status.cdb16()));
        assert!(
            !is_read_only(&status.count(1).cdb16()),
            "CLEAR SANITIZE OPERATION FAILED"
        );
        let erase = AtaCommand::new(0xB4, Protocol::NonData)
            .extend(true)
            .features(0x12)
            .lba(0x426B_4572);
        assert!(!is_read_only(&erase.cdb16()));
        assert!(!is_read_only(
            &AtaCommand::new(0xF4, Protocol::PioDataOut).count(1).cdb16()
        ));
        assert!(!is_read_only(
            &AtaCommand::new(0xF5, Protocol::NonData).cdb16()
        ));
        assert!(!is_read_only(&[0x85, 0x08]));
    }

    #[test]
    fn fixed_format_registers() {
        // SAT-4 12.2.2.6: fixed sense 00/1D, ERROR 04 STATUS 51 DEVICE 40 COUNT 00.
        let mut s = vec![0u8; 18];
        s[0] = 0x70;
        s[2] = 0x0B;
        s[3] = 0x04;
        s[4] = 0x51;
        s[5] = 0x40;
        s[7] = 10;
        s[9] = 0x11;
        s[13] = 0x1D;
        let r = parse_registers(&s).unwrap();
        assert_eq!(r.error_kind(), Some(AtaErrorKind::Aborted));
        assert_eq!(r.lba, 0x11);
    }

    #[test]
    fn truncated_and_lying_sense_never_panics() {
        let full = hex("72 01 00 1d 00 00 00 0e 09 0c 00 00 00 00 00 00 00 4f 00 c2 e0 50");
        for n in 0..full.len() {
            let r = parse_registers(&full[..n]);
            assert!(r.is_none() || n == full.len());
        }
        // Additional length claims more than present; a descriptor of length 0xFF.
        assert!(parse_registers(&hex("72 01 00 1d 00 00 00 ff 09 ff 00")).is_none());
        assert!(parse_registers(&hex("72 01 00 1d 00 00 00 04 00 00 09 00")).is_none());
        for b in 0..=255u8 {
            let mut s = full.clone();
            s[9] = b;
            let _ = parse_registers(&s);
        }
    }
}
