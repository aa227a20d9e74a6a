//! Level 0 Discovery (IF-RECV protocol 0x01, ComID 0x0001) — protocols.md §F.2
//! [GOTCG `dev.go`, `feature.go`; K-opal `d0_header`].
//!
//! Header (48 bytes): 0–3 length of parameter data (bytes *after* this field), 4–7 revision,
//! 16–47 vendor. Descriptors from 48: 0–1 code, 2 version (bits 7-4), 3 length of the data
//! that follows (descriptor = 4 + length).

use super::TcgError;
use crate::bytes::{Bytes, ParseResult};
use serde::Serialize;

/// ComID on which Level 0 discovery is read.
pub const COMID: u16 = 0x0001;
/// Buffer size used for discovery (go-tcg uses 2048).
pub(crate) const ALLOC: usize = 2048;

/// A decoded Level 0 response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Level0 {
    /// Data structure revision (bytes 4–7).
    pub revision: u32,
    /// Vendor-specific header bytes 16–47, hex.
    pub vendor: String,
    /// Feature descriptors in drive order.
    pub features: Vec<Feature>,
    /// What did not add up (a descriptor that overruns the data, one that does not decode);
    /// the descriptors before it are kept. Empty for a consistent response.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The SSC / subsystem a drive speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ssc {
    /// TCG Enterprise SSC (0x0100).
    Enterprise,
    /// Opal SSC 2.x (0x0203).
    Opal2,
    /// Opal SSC 1.0 (0x0200).
    Opal1,
    /// Opalite (0x0301).
    Opalite,
    /// Pyrite 1 (0x0302).
    Pyrite1,
    /// Pyrite 2 (0x0303).
    Pyrite2,
    /// Ruby (0x0304).
    Ruby,
}

impl Ssc {
    /// Human name.
    pub fn name(self) -> &'static str {
        match self {
            Ssc::Enterprise => "Enterprise SSC",
            Ssc::Opal2 => "Opal SSC 2",
            Ssc::Opal1 => "Opal SSC 1",
            Ssc::Opalite => "Opalite",
            Ssc::Pyrite1 => "Pyrite 1",
            Ssc::Pyrite2 => "Pyrite 2",
            Ssc::Ruby => "Ruby",
        }
    }
}

/// An SSC descriptor body shared by Opal/Opalite/Pyrite/Ruby/Enterprise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SscFeature {
    /// Which SSC.
    pub ssc: Ssc,
    /// Base ComID (bytes 4–5).
    pub base_comid: u16,
    /// Number of ComIDs (bytes 6–7).
    pub num_comids: u16,
    /// Byte 8 bit 0 range crossing behaviour (Enterprise, Opal 1/2, Ruby).
    pub range_crossing: Option<bool>,
    /// Number of Locking SP Admin authorities (Opal 2/Ruby, bytes 9–10).
    pub locking_admins: Option<u16>,
    /// Number of Locking SP User authorities (Opal 2/Ruby, bytes 11–12).
    pub locking_users: Option<u16>,
    /// Initial C_PIN_SID PIN indicator (byte 13; 0 = MSID).
    pub initial_sid_pin: Option<u8>,
    /// C_PIN_SID behaviour on TPer revert (byte 14).
    pub sid_on_revert: Option<u8>,
}

/// One feature descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "feature", rename_all = "snake_case")]
pub enum Feature {
    /// 0x0001 TPer.
    Tper {
        /// Sync supported.
        sync: bool,
        /// Async supported.
        asynchronous: bool,
        /// ACK/NAK supported.
        ack_nak: bool,
        /// Buffer management supported.
        buffer_mgmt: bool,
        /// Streaming supported.
        streaming: bool,
        /// ComID management supported.
        comid_mgmt: bool,
    },
    /// 0x0002 Locking.
    Locking {
        /// Locking supported.
        supported: bool,
        /// Locking enabled.
        enabled: bool,
        /// Locked.
        locked: bool,
        /// Media encryption.
        media_encryption: bool,
        /// MBR enabled.
        mbr_enabled: bool,
        /// MBR done.
        mbr_done: bool,
        /// MBR shadowing not supported (Opal 2.02).
        mbr_shadowing_absent: bool,
        /// Byte 4 bit 7 (HW reset for LOR/DOR; meaning unverified).
        bit7: bool,
    },
    /// 0x0003 Geometry.
    Geometry {
        /// Alignment required.
        align: bool,
        /// Logical block size.
        logical_block_size: u32,
        /// Alignment granularity (blocks).
        alignment_granularity: u64,
        /// Lowest aligned LBA.
        lowest_aligned_lba: u64,
    },
    /// An SSC descriptor (0x0100, 0x0200, 0x0203, 0x0301–0x0304).
    Ssc(SscFeature),
    /// 0x0201 Single User Mode.
    SingleUserMode {
        /// Number of locking objects supported.
        num_locking_objects: u32,
        /// Byte 8 bits: any, all, policy.
        flags: u8,
    },
    /// 0x0202 DataStore tables.
    DataStore {
        /// Maximum number of DataStore tables.
        max_tables: u16,
        /// Maximum total size.
        max_size: u32,
        /// Size alignment.
        alignment: u32,
    },
    /// 0x0402 Block SID authentication.
    BlockSid {
        /// Byte 4.
        flags: u8,
        /// Byte 5.
        hw_reset: u8,
    },
    /// 0x0404 Supported Data Removal Mechanism (Opal SSC 2.02 §3.1.1.6, Ruby SSC §3.1.1.4:
    /// Level 0 Discovery – Supported Data Removal Mechanism Feature Descriptor).
    DataRemoval {
        /// Byte 5 bit 0: Data Removal Operation Processing.
        processing: bool,
        /// Byte 5 bit 1: Data Removal Operation Interrupted.
        interrupted: bool,
        /// Byte 6: the Supported Data Removal Mechanism bitmap (byte 7 holds the Data
        /// Removal Time Format bits, bytes 8.. the times).
        supported_mechanisms: u8,
    },
    /// Anything else, kept raw.
    Unknown {
        /// Feature code.
        code: u16,
        /// Version.
        version: u8,
        /// Data after the 4-byte header, hex.
        data: String,
    },
}

fn bit(b: u8, n: u8) -> bool {
    b & (1 << n) != 0
}

bitflags::bitflags! {
    /// Byte 4 of the TPer feature descriptor (0x0001; TCG Storage Architecture Core 3.3.6.4).
    /// The virtual drive builds its Level 0 response from the same constants.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct TperFlags: u8 {
        /// Synchronous protocol supported.
        const SYNC = 1 << 0;
        /// Asynchronous protocol supported.
        const ASYNC = 1 << 1;
        /// ACK/NAK protocol supported.
        const ACK_NAK = 1 << 2;
        /// Buffer management supported.
        const BUFFER_MGMT = 1 << 3;
        /// Streaming supported.
        const STREAMING = 1 << 4;
        /// ComID management supported.
        const COMID_MGMT = 1 << 6;
    }

    /// Byte 4 of the Locking feature descriptor (0x0002; Core 3.3.6.5, Opal 2.02 3.1.1.3).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct LockingFlags: u8 {
        /// Locking supported.
        const SUPPORTED = 1 << 0;
        /// Locking enabled (a Locking SP is active).
        const ENABLED = 1 << 1;
        /// At least one range is locked.
        const LOCKED = 1 << 2;
        /// The drive encrypts its media.
        const MEDIA_ENCRYPTION = 1 << 3;
        /// The MBR shadow is enabled.
        const MBR_ENABLED = 1 << 4;
        /// MBR done.
        const MBR_DONE = 1 << 5;
        /// MBR shadowing not supported (Opal 2.02).
        const MBR_SHADOWING_ABSENT = 1 << 6;
        /// Bit 7 (HW reset for LOR/DOR; meaning unverified).
        const BIT7 = 1 << 7;
    }
}

fn parse_ssc(ssc: Ssc, d: &Bytes<'_>) -> ParseResult<SscFeature> {
    let opt8 = |off| d.u8(off).ok();
    let opt16 = |off| d.be16(off).ok();
    let has_rc = matches!(ssc, Ssc::Enterprise | Ssc::Opal1 | Ssc::Opal2 | Ssc::Ruby);
    let opal2 = matches!(ssc, Ssc::Opal2 | Ssc::Ruby);
    let pyr = matches!(ssc, Ssc::Opal2 | Ssc::Ruby | Ssc::Pyrite1 | Ssc::Pyrite2);
    Ok(SscFeature {
        ssc,
        base_comid: d.be16(4)?,
        num_comids: d.be16(6)?,
        range_crossing: if has_rc {
            opt8(8).map(|b| bit(b, 0))
        } else {
            None
        },
        locking_admins: if opal2 { opt16(9) } else { None },
        locking_users: if opal2 { opt16(11) } else { None },
        initial_sid_pin: if pyr { opt8(13) } else { None },
        sid_on_revert: if pyr { opt8(14) } else { None },
    })
}

fn parse_feature(code: u16, d: &Bytes<'_>) -> ParseResult<Feature> {
    let ssc = match code {
        0x0100 => Some(Ssc::Enterprise),
        0x0200 => Some(Ssc::Opal1),
        0x0203 => Some(Ssc::Opal2),
        0x0301 => Some(Ssc::Opalite),
        0x0302 => Some(Ssc::Pyrite1),
        0x0303 => Some(Ssc::Pyrite2),
        0x0304 => Some(Ssc::Ruby),
        _ => None,
    };
    if let Some(s) = ssc {
        return Ok(Feature::Ssc(parse_ssc(s, d)?));
    }
    Ok(match code {
        0x0001 => {
            let f = TperFlags::from_bits_retain(d.u8(4)?);
            Feature::Tper {
                sync: f.contains(TperFlags::SYNC),
                asynchronous: f.contains(TperFlags::ASYNC),
                ack_nak: f.contains(TperFlags::ACK_NAK),
                buffer_mgmt: f.contains(TperFlags::BUFFER_MGMT),
                streaming: f.contains(TperFlags::STREAMING),
                comid_mgmt: f.contains(TperFlags::COMID_MGMT),
            }
        }
        0x0002 => {
            let f = LockingFlags::from_bits_retain(d.u8(4)?);
            Feature::Locking {
                supported: f.contains(LockingFlags::SUPPORTED),
                enabled: f.contains(LockingFlags::ENABLED),
                locked: f.contains(LockingFlags::LOCKED),
                media_encryption: f.contains(LockingFlags::MEDIA_ENCRYPTION),
                mbr_enabled: f.contains(LockingFlags::MBR_ENABLED),
                mbr_done: f.contains(LockingFlags::MBR_DONE),
                mbr_shadowing_absent: f.contains(LockingFlags::MBR_SHADOWING_ABSENT),
                bit7: f.contains(LockingFlags::BIT7),
            }
        }
        0x0003 => Feature::Geometry {
            align: bit(d.u8(4)?, 0),
            logical_block_size: d.be32(12)?,
            alignment_granularity: d.be64(16)?,
            lowest_aligned_lba: d.be64(24)?,
        },
        0x0201 => Feature::SingleUserMode {
            num_locking_objects: d.be32(4)?,
            flags: d.u8(8)?,
        },
        0x0202 => Feature::DataStore {
            max_tables: d.be16(6)?,
            max_size: d.be32(8)?,
            alignment: d.be32(12)?,
        },
        0x0402 => Feature::BlockSid {
            flags: d.u8(4)?,
            hw_reset: d.u8(5)?,
        },
        0x0404 => {
            let b = d.u8(5)?;
            Feature::DataRemoval {
                processing: bit(b, 0),
                interrupted: bit(b, 1),
                supported_mechanisms: d.u8(6)?,
            }
        }
        _ => Feature::Unknown {
            code,
            version: d.u8(2)? >> 4,
            data: crate::bytes::hex(d.rest(4)),
        },
    })
}

/// Parses a Level 0 discovery response. A parameter length of 0 means "no TCG" and is an
/// error ([`TcgError::NotTcg`]); lengths larger than the buffer are clipped to the bytes
/// present; a descriptor overrunning them ends the list and one that does not decode is
/// skipped, each listed in [`Level0::problems`] (the descriptors before are kept).
pub fn parse(buf: &[u8]) -> Result<Level0, TcgError> {
    let b = Bytes::new(buf, "Level 0 discovery");
    let len = b.be32(0)? as usize;
    if len == 0 {
        return Err(TcgError::NotTcg(
            "Level 0 discovery returned no data".into(),
        ));
    }
    b.need(48)?;
    let end = len.saturating_add(4).min(buf.len());
    let mut features = Vec::new();
    let mut problems = Vec::new();
    let mut off = 48;
    while off + 4 <= end {
        let code = b.be16(off)?;
        let dlen = usize::from(b.u8(off + 3)?);
        if off + 4 + dlen > end {
            problems.push(format!(
                "feature 0x{code:04x} at offset {off} overruns the data ({dlen} bytes)"
            ));
            break;
        }
        let d = b.sub(off, 4 + dlen)?;
        match parse_feature(code, &d) {
            Ok(f) => features.push(f),
            Err(e) => problems.push(format!("feature 0x{code:04x} at offset {off}: {e}")),
        }
        off += 4 + dlen;
    }
    Ok(Level0 {
        revision: b.be32(4)?,
        vendor: crate::bytes::hex(b.slice(16, 32)?),
        features,
        problems,
    })
}

impl Level0 {
    /// The primary SSC, in preference Enterprise, Opal 2, Opal 1, Ruby, Pyrite 2/1, Opalite.
    pub fn ssc(&self) -> Option<&SscFeature> {
        let order = [
            Ssc::Enterprise,
            Ssc::Opal2,
            Ssc::Opal1,
            Ssc::Ruby,
            Ssc::Pyrite2,
            Ssc::Pyrite1,
            Ssc::Opalite,
        ];
        order.iter().find_map(|want| {
            self.features.iter().find_map(|f| match f {
                Feature::Ssc(s) if s.ssc == *want => Some(s),
                _ => None,
            })
        })
    }

    /// The TPer feature's ComID-management bit.
    pub fn comid_mgmt(&self) -> bool {
        self.features.iter().any(|f| {
            matches!(
                f,
                Feature::Tper {
                    comid_mgmt: true,
                    ..
                }
            )
        })
    }

    /// The Locking feature, as (enabled, locked, media_encryption).
    pub fn locking(&self) -> Option<(bool, bool, bool)> {
        self.features.iter().find_map(|f| match f {
            Feature::Locking {
                enabled,
                locked,
                media_encryption,
                ..
            } => Some((*enabled, *locked, *media_encryption)),
            _ => None,
        })
    }

    /// The Buffer management bit (unsupported by this tool, as by all peers).
    pub fn buffer_mgmt(&self) -> bool {
        self.features.iter().any(|f| {
            matches!(
                f,
                Feature::Tper {
                    buffer_mgmt: true,
                    ..
                }
            )
        })
    }
}

/// Builds a Level 0 response from descriptors (simulator, tests).
pub fn build(features: &[(u16, u8, Vec<u8>)]) -> Vec<u8> {
    let mut b = vec![0u8; 48];
    b[4..8].copy_from_slice(&1u32.to_be_bytes());
    for (code, ver, data) in features {
        b.extend_from_slice(&code.to_be_bytes());
        b.push(ver << 4);
        b.push(data.len() as u8);
        b.extend_from_slice(data);
    }
    let len = (b.len() - 4) as u32;
    b[0..4].copy_from_slice(&len.to_be_bytes());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptor as the feature set's table lays it out: byte 4 reserved, byte 5 the
    /// processing (bit 0) and interrupted (bit 1) flags, byte 6 the mechanism bitmap, byte 7
    /// the time-format bits, then one 2-byte time per mechanism bit. The time-format byte is
    /// different from the bitmap here, so reading the wrong byte shows.
    #[test]
    fn data_removal_mechanism_from_the_table() {
        let mut data = vec![0u8; 32];
        data[1] = 0b10; // interrupted
        data[2] = 0b0010_0100; // cryptographic erase (bit 2) and vendor specific (bit 5)
        data[3] = 0b0000_0001; // time format for bit 0
        data[8..10].copy_from_slice(&30u16.to_be_bytes()); // time for bit 2
        let l = parse(&build(&[(0x0404, 1, data)])).unwrap();
        assert_eq!(
            l.features,
            vec![Feature::DataRemoval {
                processing: false,
                interrupted: true,
                supported_mechanisms: 0b0010_0100,
            }]
        );
    }

    #[test]
    fn hostile() {
        assert!(matches!(parse(&[0; 64]), Err(TcgError::NotTcg(_))));
        assert!(parse(&[0, 0, 0, 10]).is_err());
        let mut b = build(&[(0x0001, 1, vec![0x11; 12]), (0x0002, 1, vec![0x01; 12])]);
        b[67] = 0xFF; // the second descriptor's length lies: the first is kept, the lie listed
        let l = parse(&b).unwrap();
        assert_eq!(l.features.len(), 1);
        assert!(
            l.problems[0].contains("feature 0x0002 at offset 64 overruns"),
            "{:?}",
            l.problems
        );
        // A header length larger than the buffer is clipped.
        let mut b = build(&[(0x0100, 1, vec![0x07, 0xFE, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0])]);
        b[0..4].copy_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
        assert!(parse(&b).is_ok());
    }

    proptest::proptest! {
        #[test]
        fn never_panics(data in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let _ = parse(&data);
        }
    }
}
