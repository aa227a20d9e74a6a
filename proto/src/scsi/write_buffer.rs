//! WRITE BUFFER (SPC-6 6.50, opcode 3Bh) in its download-microcode modes, READ BUFFER(10)
//! (SPC-6 6.17, opcode 3Ch) in descriptor mode, and the virtual drive's own image format.
//!
//! WRITE BUFFER CDB (10 bytes): byte 1 MODE SPECIFIC (7-5) and MODE (4-0), byte 2 BUFFER ID,
//! bytes 3-5 BUFFER OFFSET, bytes 6-8 PARAMETER LIST LENGTH, byte 9 CONTROL. The modes sgctl
//! sends (SPC-6 Table "WRITE BUFFER MODE field"):
//!
//! | mode | name | what the drive does |
//! |---|---|---|
//! | 05h | download microcode, save, and activate | the whole image in one command (offset 0), saved and activated at its end |
//! | 07h | download microcode with offsets, save, and activate | the image in segments at increasing offsets; saved and activated after the last |
//! | 0Dh | download microcode with offsets, select activation events, save, and defer activate | as 0Eh; MODE SPECIFIC names the events that activate it: PO_ACT (bit 7, power on), HR_ACT (bit 6, hard reset), VSE_ACT (bit 5, vendor specific) |
//! | 0Eh | download microcode with offsets, save, and defer activate | saved, not activated: a power on, a hard reset or mode 0Fh activates it |
//! | 0Fh | activate deferred microcode | no data; activates what 0Dh/0Eh saved |
//!
//! READ BUFFER(10) descriptor mode (03h) returns four bytes for a buffer ID: OFFSET BOUNDARY
//! (byte 0: buffer offsets are multiples of 2^n; FFh: the offset must be zero) and BUFFER
//! CAPACITY (bytes 1-3). sg_write_buffer and sg_read_buffer spell the same fields.
//!
//! The Extended INQUIRY Data VPD page (86h) says which download modes a drive supports
//! (DM_MD_4..DM_MD_F, byte 19) and when it activates microcode (ACTIVATE MICROCODE, byte 4
//! bits 7-6): [`super::vpd::extended_inquiry`].

use crate::error::{Invalid, Result};

/// WRITE BUFFER operation code.
pub const OPCODE: u8 = 0x3B;
/// READ BUFFER(10) operation code.
pub(crate) const OPCODE_READ_BUFFER: u8 = 0x3C;
/// The largest BUFFER OFFSET or PARAMETER LIST LENGTH (24 bits).
pub const MAX_24: u32 = 0x00FF_FFFF;
/// READ BUFFER mode 03h: descriptor.
pub const READ_BUFFER_DESCRIPTOR: u8 = 0x03;

/// A download-microcode mode of WRITE BUFFER.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Mode {
    /// 05h: download microcode, save, and activate (one command).
    Save,
    /// 07h: download microcode with offsets, save, and activate.
    OffsetsSave,
    /// 0Dh: download microcode with offsets, select activation events, save, and defer
    /// activate.
    OffsetsEventsDefer,
    /// 0Eh: download microcode with offsets, save, and defer activate.
    OffsetsDefer,
    /// 0Fh: activate deferred microcode.
    Activate,
}

impl Mode {
    /// The download modes sgctl sends, in the order `auto` prefers them.
    pub const DOWNLOAD: [Mode; 4] = [
        Mode::OffsetsSave,
        Mode::OffsetsDefer,
        Mode::Save,
        Mode::OffsetsEventsDefer,
    ];

    /// The MODE field value.
    pub fn code(self) -> u8 {
        match self {
            Mode::Save => 0x05,
            Mode::OffsetsSave => 0x07,
            Mode::OffsetsEventsDefer => 0x0D,
            Mode::OffsetsDefer => 0x0E,
            Mode::Activate => 0x0F,
        }
    }

    /// The mode of a MODE field value.
    pub fn from_code(c: u8) -> Option<Mode> {
        [
            Mode::Save,
            Mode::OffsetsSave,
            Mode::OffsetsEventsDefer,
            Mode::OffsetsDefer,
            Mode::Activate,
        ]
        .into_iter()
        .find(|m| m.code() == c)
    }

    /// The T10 name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Save => "download microcode, save, and activate",
            Mode::OffsetsSave => "download microcode with offsets, save, and activate",
            Mode::OffsetsEventsDefer => {
                "download microcode with offsets, select activation events, save, and defer activate"
            }
            Mode::OffsetsDefer => "download microcode with offsets, save, and defer activate",
            Mode::Activate => "activate deferred microcode",
        }
    }

    /// The name `sg_write_buffer --mode` takes.
    pub fn sg_name(self) -> &'static str {
        match self {
            Mode::Save => "dmc_save",
            Mode::OffsetsSave => "dmc_offs_save",
            Mode::OffsetsEventsDefer => "dmc_offs_ev_defer",
            Mode::OffsetsDefer => "dmc_offs_defer",
            Mode::Activate => "activate_mc",
        }
    }

    /// Segments at offsets (07h, 0Dh, 0Eh); 05h sends the image in one command.
    pub fn has_offsets(self) -> bool {
        matches!(
            self,
            Mode::OffsetsSave | Mode::OffsetsEventsDefer | Mode::OffsetsDefer
        )
    }

    /// The drive saves the microcode and waits for an activation (0Dh, 0Eh).
    pub fn defers(self) -> bool {
        matches!(self, Mode::OffsetsEventsDefer | Mode::OffsetsDefer)
    }

    /// Whether the Extended INQUIRY page's DM_MD bit for this mode is set.
    pub fn listed_in(self, ei: &super::vpd::extended_inquiry::ExtendedInquiry) -> bool {
        match self {
            Mode::Save => ei.dm_md_5,
            Mode::OffsetsSave => ei.dm_md_7,
            Mode::OffsetsEventsDefer => ei.dm_md_d,
            Mode::OffsetsDefer => ei.dm_md_e,
            Mode::Activate => ei.dm_md_f,
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02X}h ({})", self.code(), self.name())
    }
}

/// Mode 0Dh's activation events (MODE SPECIFIC field, CDB byte 1 bits 7-5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ActivationEvents {
    /// PO_ACT: activate at the next power on.
    pub power_on: bool,
    /// HR_ACT: activate at the next hard reset.
    pub hard_reset: bool,
    /// VSE_ACT: activate at a vendor specific event.
    pub vendor_specific: bool,
}

impl ActivationEvents {
    /// The MODE SPECIFIC field value (3 bits).
    pub fn bits(self) -> u8 {
        (u8::from(self.power_on) << 2)
            | (u8::from(self.hard_reset) << 1)
            | u8::from(self.vendor_specific)
    }
}

fn field24(what: &'static str, v: u32) -> Result<[u8; 3]> {
    if v > MAX_24 {
        return Err(Invalid::Field24 {
            what,
            value: u64::from(v),
        }
        .into());
    }
    let b = v.to_be_bytes();
    Ok([b[1], b[2], b[3]])
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.50 WRITE BUFFER CDB (10 bytes).
    #[doc(alias = "sg_ll_write_buffer")]
    pub struct WriteBufferCdb {
        /// MODE, byte 1 bits 4-0.
        mode: Mode,
        /// PARAMETER LIST LENGTH, bytes 6-8 (24 bits).
        parameter_list_length: u32,
        ;;
        /// MODE SPECIFIC, byte 1 bits 7-5 (activation events for mode 0Dh).
        mode_specific: u8 = 0,
        /// BUFFER ID, byte 2.
        buffer_id: u8 = 0,
        /// BUFFER OFFSET, bytes 3-5 (24 bits).
        offset: u32 = 0,
    }
}

impl WriteBufferCdb {
    /// WRITE BUFFER operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 10 CDB bytes; an offset or length above 24 bits is refused.
    pub fn build(&self) -> Result<[u8; 10]> {
        let o = field24("buffer offset", self.offset)?;
        let l = field24("parameter list length", self.parameter_list_length)?;
        Ok([
            OPCODE,
            ((self.mode_specific & 0x07) << 5) | self.mode.code(),
            self.buffer_id,
            o[0],
            o[1],
            o[2],
            l[0],
            l[1],
            l[2],
            0,
        ])
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SPC-6 6.17 READ BUFFER(10) CDB (10 bytes); descriptor mode is
    /// `ReadBufferCdb::new(READ_BUFFER_DESCRIPTOR, 4)`.
    #[doc(alias = "sg_ll_read_buffer_10")]
    pub struct ReadBufferCdb {
        /// MODE, byte 1 bits 4-0.
        mode: u8,
        /// ALLOCATION LENGTH, bytes 6-8 (24 bits).
        alloc_len: u32,
        ;;
        /// BUFFER ID, byte 2.
        buffer_id: u8 = 0,
        /// BUFFER OFFSET, bytes 3-5 (24 bits).
        offset: u32 = 0,
    }
}

impl ReadBufferCdb {
    /// READ BUFFER(10) operation code.
    pub const OPCODE: u8 = OPCODE_READ_BUFFER;

    /// The 10 CDB bytes; an offset or length above 24 bits is refused.
    pub fn build(&self) -> Result<[u8; 10]> {
        let o = field24("buffer offset", self.offset)?;
        let l = field24("allocation length", self.alloc_len)?;
        Ok([
            OPCODE_READ_BUFFER,
            self.mode & 0x1f,
            self.buffer_id,
            o[0],
            o[1],
            o[2],
            l[0],
            l[1],
            l[2],
            0,
        ])
    }
}

/// The READ BUFFER descriptor (SPC-6 Table "Descriptor mode data").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BufferDescriptor {
    /// OFFSET BOUNDARY: offsets are multiples of 2^n; FFh: only offset zero.
    pub offset_boundary: u8,
    /// BUFFER CAPACITY in bytes.
    pub capacity: u32,
}

impl BufferDescriptor {
    /// Parses the 4 descriptor bytes (`None` when fewer came).
    pub fn parse(b: &[u8]) -> Option<BufferDescriptor> {
        let b = b.get(..4)?;
        Some(BufferDescriptor {
            offset_boundary: b[0],
            capacity: u32::from_be_bytes([0, b[1], b[2], b[3]]),
        })
    }

    /// The alignment of buffer offsets in bytes, `None` when only offset zero is allowed
    /// (FFh). An exponent above 23 leaves no offset but zero inside a 24-bit field.
    pub fn alignment(&self) -> Option<u32> {
        match self.offset_boundary {
            0xFF => None,
            n if n > 23 => None,
            n => Some(1u32 << n),
        }
    }
}

/// One WRITE BUFFER of a download: where in the buffer and how many bytes of the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Segment {
    /// BUFFER OFFSET (also the offset in the image).
    pub offset: u32,
    /// PARAMETER LIST LENGTH.
    pub len: u32,
}

/// Splits an image of `image_len` bytes into segments of `chunk` bytes (the last may be
/// shorter), each at an offset that is a multiple of `alignment`. `chunk` must be a nonzero
/// multiple of `alignment`; the image must fit the 24-bit offset and length fields.
pub fn segments(image_len: u32, chunk: u32, alignment: u32) -> Result<Vec<Segment>> {
    if chunk == 0 || alignment == 0 || chunk % alignment != 0 || chunk > MAX_24 {
        return Err(Invalid::Field24 {
            what: "segment size",
            value: u64::from(chunk),
        }
        .into());
    }
    let mut v = Vec::new();
    let mut at = 0u32;
    while at < image_len {
        let len = chunk.min(image_len - at);
        field24("buffer offset", at)?;
        v.push(Segment { offset: at, len });
        at = at.saturating_add(len);
    }
    Ok(v)
}

/// The virtual drive's microcode image format (sgctl's own, not a vendor's): a 64-byte
/// header, then the payload.
///
/// | bytes | field |
/// |---|---|
/// | 0-7 | magic `SGCTLFW1` |
/// | 8-23 | target model: INQUIRY PRODUCT IDENTIFICATION, space padded |
/// | 24-27 | new revision: INQUIRY PRODUCT REVISION LEVEL, space padded |
/// | 28-31 | payload length, big-endian |
/// | 32-35 | CRC-32 (IEEE 802.3, as zlib) of the payload, big-endian |
/// | 36-63 | reserved, zero |
pub mod sim_image {
    /// The magic.
    pub const MAGIC: &[u8; 8] = b"SGCTLFW1";
    /// Header length.
    pub const HEADER_LEN: usize = 64;

    /// A parsed header.
    #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
    pub struct Header {
        /// Target model (trimmed).
        pub model: String,
        /// Revision the image installs (trimmed).
        pub revision: String,
        /// Payload length.
        pub payload_len: u32,
        /// CRC-32 of the payload.
        pub crc32: u32,
    }

    /// CRC-32 (reflected, polynomial EDB88320h, initial and final XOR FFFFFFFFh).
    pub(crate) fn crc32(data: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for &b in data {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    fn pad(s: &str, n: usize) -> Vec<u8> {
        let mut v: Vec<u8> = s.bytes().take(n).collect();
        v.resize(n, b' ');
        v
    }

    /// An image for `model` installing `revision` with `payload`.
    pub fn build(model: &str, revision: &str, payload: &[u8]) -> Vec<u8> {
        let mut v = Vec::with_capacity(HEADER_LEN + payload.len());
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&pad(model, 16));
        v.extend_from_slice(&pad(revision, 4));
        v.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        v.extend_from_slice(&crc32(payload).to_be_bytes());
        v.resize(HEADER_LEN, 0);
        v.extend_from_slice(payload);
        v
    }

    /// True when `b` starts with the magic.
    pub fn is_sim_image(b: &[u8]) -> bool {
        b.starts_with(MAGIC)
    }

    fn text(b: &[u8]) -> Option<String> {
        // Printable ASCII only (INQUIRY's ASCII fields, SPC-6 4.3.1).
        b.iter()
            .all(|c| (0x20..0x7F).contains(c))
            .then(|| String::from_utf8_lossy(b).trim().to_string())
    }

    /// Parses the header alone (the first 64 bytes), `Err` with the reason.
    pub fn header(b: &[u8]) -> Result<Header, String> {
        let h = b.get(..HEADER_LEN).ok_or_else(|| {
            format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header",
                b.len()
            )
        })?;
        if &h[..8] != MAGIC {
            return Err("no SGCTLFW1 magic".into());
        }
        let model = text(&h[8..24]).ok_or("the model field is not printable ASCII")?;
        let revision = text(&h[24..28]).ok_or("the revision field is not printable ASCII")?;
        if revision.is_empty() {
            return Err("the revision field is empty".into());
        }
        Ok(Header {
            model,
            revision,
            payload_len: u32::from_be_bytes([h[28], h[29], h[30], h[31]]),
            crc32: u32::from_be_bytes([h[32], h[33], h[34], h[35]]),
        })
    }

    /// Parses and checks a whole image: header, length (the file holds exactly the payload
    /// the header announces) and CRC.
    pub fn check(b: &[u8]) -> Result<Header, String> {
        let h = header(b)?;
        let body = &b[HEADER_LEN..];
        if body.len() as u64 != u64::from(h.payload_len) {
            return Err(format!(
                "the header announces a payload of {} bytes, {} follow",
                h.payload_len,
                body.len()
            ));
        }
        let crc = crc32(body);
        if crc != h.crc32 {
            return Err(format!(
                "payload CRC-32 {crc:08x} differs from the header's {:08x}",
                h.crc32
            ));
        }
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SPC-6 Table "WRITE BUFFER command": MODE in byte 1 bits 4-0, MODE SPECIFIC in 7-5,
    /// BUFFER ID byte 2, BUFFER OFFSET bytes 3-5, PARAMETER LIST LENGTH bytes 6-8.
    #[test]
    fn write_buffer_cdb_layout() {
        assert_eq!(
            WriteBufferCdb::new(Mode::OffsetsDefer, 0x8000)
                .offset(0x01_0000)
                .build()
                .unwrap(),
            [0x3B, 0x0E, 0, 0x01, 0x00, 0x00, 0x00, 0x80, 0x00, 0]
        );
        assert_eq!(
            WriteBufferCdb::new(Mode::Save, 0x12_3456).build().unwrap(),
            [0x3B, 0x05, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0]
        );
        assert_eq!(
            WriteBufferCdb::new(Mode::Activate, 0).build().unwrap(),
            [0x3B, 0x0F, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        // Mode 0Dh with PO_ACT and HR_ACT: MODE SPECIFIC 110b.
        let ev = ActivationEvents {
            power_on: true,
            hard_reset: true,
            vendor_specific: false,
        };
        assert_eq!(
            WriteBufferCdb::new(Mode::OffsetsEventsDefer, 0x10)
                .mode_specific(ev.bits())
                .buffer_id(2)
                .offset(0x20)
                .build()
                .unwrap()[..3],
            [0x3B, 0xCD, 2]
        );
        assert_eq!(
            WriteBufferCdb::new(Mode::OffsetsSave, 0).build().unwrap()[1],
            0x07
        );
        // 24-bit fields.
        assert!(WriteBufferCdb::new(Mode::OffsetsSave, 1)
            .offset(MAX_24 + 1)
            .build()
            .is_err());
        assert!(WriteBufferCdb::new(Mode::OffsetsSave, MAX_24 + 1)
            .build()
            .is_err());
        let op = |c: u8| crate::scsi::opcodes::find(c, None).map(|o| o.name);
        assert_eq!(op(OPCODE), Some("Write buffer"));
        assert_eq!(op(OPCODE_READ_BUFFER), Some("Read buffer(10)"));
    }

    /// SPC-6 Table "READ BUFFER(10) command" and "Descriptor mode data".
    #[test]
    fn read_buffer_descriptor() {
        assert_eq!(
            ReadBufferCdb::new(READ_BUFFER_DESCRIPTOR, 4)
                .buffer_id(0)
                .build()
                .unwrap(),
            [0x3C, 0x03, 0, 0, 0, 0, 0, 0, 4, 0]
        );
        let d = BufferDescriptor::parse(&[0x09, 0x10, 0x00, 0x00]).unwrap();
        assert_eq!(d.capacity, 0x10_0000);
        assert_eq!(d.alignment(), Some(512));
        assert_eq!(
            BufferDescriptor::parse(&[0, 0, 0, 8]).unwrap().alignment(),
            Some(1)
        );
        // FFh: the buffer offset shall be zero.
        assert_eq!(
            BufferDescriptor::parse(&[0xFF, 0, 0x40, 0])
                .unwrap()
                .alignment(),
            None
        );
        assert!(BufferDescriptor::parse(&[9, 0, 0]).is_none());
    }

    #[test]
    fn mode_codes_and_names() {
        for m in Mode::DOWNLOAD.into_iter().chain([Mode::Activate]) {
            assert_eq!(Mode::from_code(m.code()), Some(m));
        }
        assert_eq!(Mode::from_code(0x04), None);
        assert!(Mode::OffsetsDefer.defers() && Mode::OffsetsEventsDefer.defers());
        assert!(!Mode::Save.has_offsets() && Mode::OffsetsSave.has_offsets());
        assert_eq!(Mode::OffsetsDefer.sg_name(), "dmc_offs_defer");
    }

    /// DM_MD_* bits of Extended INQUIRY byte 19 (SPC-6 Table "Extended INQUIRY Data VPD
    /// page"): 4 in bit 7 down to F in bit 1.
    #[test]
    fn dm_md_bits_from_vpd_86() {
        let mut page = vec![0u8, 0x86, 0, 0x3C];
        page.resize(64, 0);
        page[4] = 0x40; // ACTIVATE MICROCODE 01b
        page[19] = 0b0101_1110; // DM_MD_5, _7, _D, _E, _F
        let ei = crate::scsi::vpd::extended_inquiry::parse(&page).unwrap();
        assert_eq!(ei.activate_microcode, 1);
        assert!(Mode::Save.listed_in(&ei));
        assert!(Mode::OffsetsSave.listed_in(&ei));
        assert!(Mode::OffsetsEventsDefer.listed_in(&ei));
        assert!(Mode::OffsetsDefer.listed_in(&ei));
        assert!(Mode::Activate.listed_in(&ei));
        page[19] = 0b0010_0000; // DM_MD_6 only
        let ei = crate::scsi::vpd::extended_inquiry::parse(&page).unwrap();
        assert!(Mode::DOWNLOAD.iter().all(|m| !m.listed_in(&ei)));
    }

    #[test]
    fn segments_are_aligned_and_cover_the_image() {
        let s = segments(1300, 512, 512).unwrap();
        assert_eq!(
            s,
            vec![
                Segment {
                    offset: 0,
                    len: 512
                },
                Segment {
                    offset: 512,
                    len: 512
                },
                Segment {
                    offset: 1024,
                    len: 276
                },
            ]
        );
        assert!(segments(1300, 500, 512).is_err());
        assert!(segments(1300, 0, 1).is_err());
        assert!(segments(0, 512, 512).unwrap().is_empty());
    }

    #[test]
    fn sim_image_round_trip_and_damage() {
        use sim_image::*;
        // zlib's CRC-32 of "123456789" (the check value of CRC-32/ISO-HDLC).
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        let img = build("PX02SMF080", "0204", &[7u8; 1000]);
        assert_eq!(img.len(), HEADER_LEN + 1000);
        let h = check(&img).unwrap();
        assert_eq!(
            (h.model.as_str(), h.revision.as_str()),
            ("PX02SMF080", "0204")
        );
        assert_eq!(h.payload_len, 1000);
        let mut bad = img.clone();
        bad[HEADER_LEN + 3] ^= 1;
        assert!(check(&bad).unwrap_err().contains("CRC"));
        assert!(check(&img[..img.len() - 1])
            .unwrap_err()
            .contains("announces"));
        assert!(check(&img[..10]).is_err());
        let mut bad = img.clone();
        bad[0] = b'X';
        assert!(!is_sim_image(&bad) && check(&bad).is_err());
        let mut bad = img;
        bad[25] = 0x07;
        assert!(header(&bad).is_err());
    }
}
