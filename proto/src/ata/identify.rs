//! ACS-4 7.12 IDENTIFY DEVICE (ECh) data: 256 little-endian words. The fields an admin needs
//! (identity, capacity, sector sizes, feature support) and the Security (word 128, 89, 90) and
//! Sanitize (word 59) words the purge logic depends on. Word numbers are ACS-4 Table 45;
//! hdparm's `identify.c` and smartmontools' `ataprint.cpp` decode the same words.

use crate::bytes::{ParseError, ParseResult};
use serde::Serialize;

/// Word `n` of IDENTIFY data (bounds checked by the caller: the buffer is 512 bytes).
fn w(b: &[u8], n: usize) -> u16 {
    u16::from_le_bytes([b[2 * n], b[2 * n + 1]])
}

/// A word whose bits 15:14 are 01b holds valid data (ACS-4 convention for words 84, 87, 106...).
fn valid(v: u16) -> bool {
    v & 0xC000 == 0x4000
}

/// ATA string: words with the first character in the high byte.
pub fn ata_string(b: &[u8], first_word: usize, words: usize) -> String {
    let mut s = Vec::with_capacity(words * 2);
    for i in first_word..first_word + words {
        s.push(b[2 * i + 1]);
        s.push(b[2 * i]);
    }
    crate::bytes::ascii_trim(&s)
}

/// ATA Security feature set state (word 128; ACS-4 4.18, Table 45 word 128).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SecurityWord {
    /// Bit 0: the Security feature set is supported.
    pub supported: bool,
    /// Bit 1: enabled (a user password is set).
    pub enabled: bool,
    /// Bit 2: locked (media access refused until SECURITY UNLOCK).
    pub locked: bool,
    /// Bit 3: frozen (SECURITY commands refused until the next power-on or hardware reset).
    pub frozen: bool,
    /// Bit 4: the password attempt counter is exhausted (power cycle needed).
    pub count_expired: bool,
    /// Bit 5: SECURITY ERASE UNIT enhanced mode supported.
    pub enhanced_erase_supported: bool,
    /// Bit 8: master password capability Maximum (true) or High (false).
    pub master_password_maximum: bool,
    /// Word 89: normal erase time in minutes (None: not reported), ACS-4 formula.
    pub normal_erase_minutes: Option<u32>,
    /// Word 90: enhanced erase time in minutes.
    pub enhanced_erase_minutes: Option<u32>,
    /// Word 92: master password identifier (0/FFFFh: not supported).
    pub master_password_identifier: u16,
}

/// Sanitize feature set support (word 59 bits 15-10; ACS-4 Table 45 word 59).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SanitizeWord {
    /// Bit 12: the Sanitize feature set is supported.
    pub supported: bool,
    /// Bit 13: CRYPTO SCRAMBLE EXT.
    pub crypto_scramble: bool,
    /// Bit 14: OVERWRITE EXT.
    pub overwrite: bool,
    /// Bit 15: BLOCK ERASE EXT.
    pub block_erase: bool,
    /// Bit 11: commands allowed during sanitize follow ACS-3 (not ACS-2).
    pub acs3_commands_allowed: bool,
    /// Bit 10: SANITIZE ANTIFREEZE LOCK EXT supported.
    pub antifreeze_lock: bool,
}

/// Decoded IDENTIFY DEVICE data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Identify {
    /// Words 27-46.
    pub model: String,
    /// Words 10-19.
    pub serial_number: String,
    /// Words 23-26.
    pub firmware_revision: String,
    /// Words 108-111: world wide name (NAA 5), hex, when word 87 bit 8 says it is there.
    pub wwn: Option<String>,
    /// Words 100-103 (48-bit) else 60-61: user addressable logical sectors.
    pub user_addressable_sectors: u64,
    /// Logical sector size in bytes (words 117-118 when word 106 bit 12, else 512).
    pub logical_sector_size: u32,
    /// Physical sector size in bytes (word 106 bits 3-0: 2^n logical sectors per physical).
    pub physical_sector_size: u32,
    /// user_addressable_sectors × logical_sector_size.
    pub capacity_bytes: u64,
    /// Word 217: 1 = solid state (non-rotating), otherwise rpm (0: not reported).
    pub rotation_rate: u16,
    /// Word 168 bits 3-0: nominal form factor code.
    pub form_factor: u8,
    /// Word 80: major version bits (ATA/ATAPI-5 ... ACS-5), highest set.
    pub major_version: Option<String>,
    /// Word 222 bits 11-0 and word 76: SATA generations supported ("SATA 3.x, 6.0 Gb/s").
    pub sata_speeds: Vec<String>,
    /// Word 75 bits 4-0 + 1 when NCQ (word 76 bit 8) is supported.
    pub queue_depth: Option<u8>,
    /// Word 82 bit 0 / word 85 bit 0.
    pub smart_supported: bool,
    /// Word 85 bit 0.
    pub smart_enabled: bool,
    /// Word 84 bit 5 (or 87 bit 5): General Purpose Logging (READ LOG EXT).
    pub gpl_supported: bool,
    /// Word 83 bit 10: 48-bit addressing.
    pub lba48: bool,
    /// Word 169 bit 0: DATA SET MANAGEMENT TRIM.
    pub trim_supported: bool,
    /// Word 69 bit 14: deterministic read after trim; bit 5: read zeroes after trim.
    pub trim_read_zeroes: bool,
    /// Word 85 bit 5: volatile write cache enabled.
    pub write_cache_enabled: bool,
    /// Word 48 bit 0 (bits 15:14 = 01b): Trusted Computing feature set (TCG over SAT).
    pub trusted_computing: bool,
    /// Word 76 bit 8: native command queuing.
    pub ncq: bool,
    /// Words 128, 89, 90, 92.
    pub security: SecurityWord,
    /// Word 59.
    pub sanitize: SanitizeWord,
    /// Word 255 bits 7-0 A5h: the checksum in bits 15-8 is valid and matches.
    pub checksum_valid: Option<bool>,
    /// Decoding notes.
    pub problems: Vec<String>,
}

/// ACS-4 word 89/90 formula: bits 14:0 = time/2 minutes; value 7FFFh means > 65532 min;
/// 0 = not reported. (ATA-8 and older: bits 7:0 only.)
fn erase_minutes(v: u16) -> Option<u32> {
    if v == 0 {
        return None;
    }
    let t = if v & 0x8000 != 0 {
        u32::from(v & 0x7FFF)
    } else {
        u32::from(v & 0xFF)
    };
    Some(t * 2)
}

/// Names of the major versions in word 80 (bit n → version).
const MAJOR: &[(u8, &str)] = &[
    (13, "ACS-6"),
    (12, "ACS-5"),
    (11, "ACS-4"),
    (10, "ACS-3"),
    (9, "ACS-2"),
    (8, "ATA8-ACS"),
    (7, "ATA/ATAPI-7"),
    (6, "ATA/ATAPI-6"),
    (5, "ATA/ATAPI-5"),
];

/// Parses 512 bytes of IDENTIFY DEVICE data.
pub fn parse(b: &[u8]) -> ParseResult<Identify> {
    if b.len() < 512 {
        return Err(ParseError::new(
            "IDENTIFY DEVICE data",
            format!("{} bytes, need 512", b.len()),
        ));
    }
    let mut problems = Vec::new();
    let sum = b[..512].iter().fold(0u8, |a, x| a.wrapping_add(*x));
    let checksum_valid = (b[510] == 0xA5).then_some(sum == 0);
    if checksum_valid == Some(false) {
        problems.push("word 255 checksum does not match".to_string());
    }
    let w83 = w(b, 83);
    let lba48 = valid(w83) && w83 & (1 << 10) != 0;
    let s28 = u64::from(w(b, 60)) | u64::from(w(b, 61)) << 16;
    let s48 = (0..4).fold(0u64, |a, i| a | u64::from(w(b, 100 + i)) << (16 * i));
    let sectors = if lba48 && s48 != 0 { s48 } else { s28 };
    let w106 = w(b, 106);
    let (lss, pss) = if valid(w106) {
        let lss = if w106 & (1 << 12) != 0 {
            let words = u32::from(w(b, 117)) | u32::from(w(b, 118)) << 16;
            words.saturating_mul(2)
        } else {
            512
        };
        let per = if w106 & (1 << 13) != 0 {
            1u32 << (w106 & 0x0F)
        } else {
            1
        };
        (lss, lss.saturating_mul(per))
    } else {
        (512, 512)
    };
    let w87 = w(b, 87);
    let wwn = (valid(w87) && w87 & (1 << 8) != 0).then(|| {
        format!(
            "{:04x}{:04x}{:04x}{:04x}",
            w(b, 108),
            w(b, 109),
            w(b, 110),
            w(b, 111)
        )
    });
    let w80 = w(b, 80);
    let major_version = if w80 == 0 || w80 == 0xFFFF {
        None
    } else {
        MAJOR
            .iter()
            .find(|(bit, _)| w80 & (1 << bit) != 0)
            .map(|(_, n)| n.to_string())
    };
    let w76 = w(b, 76);
    let mut sata_speeds = Vec::new();
    if w76 != 0 && w76 != 0xFFFF {
        for (bit, s) in [(1, "1.5 Gb/s"), (2, "3.0 Gb/s"), (3, "6.0 Gb/s")] {
            if w76 & (1 << bit) != 0 {
                sata_speeds.push(s.to_string());
            }
        }
    }
    let ncq = w76 != 0xFFFF && w76 & (1 << 8) != 0;
    let w82 = w(b, 82);
    let w84 = w(b, 84);
    let w85 = w(b, 85);
    let w128 = w(b, 128);
    let w59 = w(b, 59);
    let w69 = w(b, 69);
    let w169 = w(b, 169);
    Ok(Identify {
        model: ata_string(b, 27, 20),
        serial_number: ata_string(b, 10, 10),
        firmware_revision: ata_string(b, 23, 4),
        wwn,
        user_addressable_sectors: sectors,
        logical_sector_size: lss,
        physical_sector_size: pss,
        capacity_bytes: sectors.saturating_mul(u64::from(lss)),
        rotation_rate: w(b, 217),
        form_factor: (w(b, 168) & 0x0F) as u8,
        major_version,
        sata_speeds,
        queue_depth: ncq.then_some((w(b, 75) & 0x1F) as u8 + 1),
        smart_supported: w82 != 0xFFFF && w82 & 1 != 0,
        smart_enabled: w85 != 0xFFFF && w85 & 1 != 0,
        gpl_supported: (valid(w84) && w84 & (1 << 5) != 0) || (valid(w87) && w87 & (1 << 5) != 0),
        lba48,
        trim_supported: w169 != 0xFFFF && w169 & 1 != 0,
        trim_read_zeroes: w69 != 0xFFFF && w69 & (1 << 14) != 0 && w69 & (1 << 5) != 0,
        write_cache_enabled: w85 != 0xFFFF && w85 & (1 << 5) != 0,
        trusted_computing: w(b, 48) & 0xC001 == 0x4001,
        ncq,
        security: SecurityWord {
            supported: w128 & 1 != 0,
            enabled: w128 & 2 != 0,
            locked: w128 & 4 != 0,
            frozen: w128 & 8 != 0,
            count_expired: w128 & 0x10 != 0,
            enhanced_erase_supported: w128 & 0x20 != 0,
            master_password_maximum: w128 & 0x100 != 0,
            normal_erase_minutes: erase_minutes(w(b, 89)),
            enhanced_erase_minutes: erase_minutes(w(b, 90)),
            master_password_identifier: w(b, 92),
        },
        sanitize: SanitizeWord {
            supported: w59 & (1 << 12) != 0,
            crypto_scramble: w59 & (1 << 13) != 0,
            overwrite: w59 & (1 << 14) != 0,
            block_erase: w59 & (1 << 15) != 0,
            acs3_commands_allowed: w59 & (1 << 11) != 0,
            antifreeze_lock: w59 & (1 << 10) != 0,
        },
        checksum_valid,
        problems,
    })
}

impl Identify {
    /// Words of the security state in words, for reports: "frozen", "locked", ...
    pub fn security_state(&self) -> String {
        let s = &self.security;
        if !s.supported {
            return "not supported".into();
        }
        let mut v = vec![if s.enabled { "enabled" } else { "disabled" }];
        if s.locked {
            v.push("locked");
        }
        v.push(if s.frozen { "frozen" } else { "not frozen" });
        if s.count_expired {
            v.push("password attempts exhausted");
        }
        v.join(", ")
    }
}

/// Writes the ATA string `s` into words `first..first+words` (space padded), the inverse of
/// [`ata_string`] (used by the simulator and by tests).
pub fn put_ata_string(b: &mut [u8], first_word: usize, words: usize, s: &str) {
    let mut bytes: Vec<u8> = s.bytes().take(words * 2).collect();
    bytes.resize(words * 2, b' ');
    for i in 0..words {
        b[2 * (first_word + i)] = bytes[2 * i + 1];
        b[2 * (first_word + i) + 1] = bytes[2 * i];
    }
}

/// Sets word 255 to the integrity signature A5h with a matching checksum.
pub fn seal_checksum(b: &mut [u8]) {
    b[510] = 0xA5;
    let sum = b[..511].iter().fold(0u8, |a, x| a.wrapping_add(*x));
    b[511] = 0u8.wrapping_sub(sum);
}
