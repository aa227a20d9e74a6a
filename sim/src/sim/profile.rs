//! Drive profiles: data, not logic (protocols.md §G.2). Identity, supported block sizes and
//! protection types, sanitize methods, TCG, SAS ports, durations of long operations. NAND
//! geometry, timing and the datasheet/review performance figures are the media model's
//! (sim/src/sim/media/profiles.rs, same profile names).
//!
//! Figures come from published reviews (TweakTown PX02SMF080 review, StorageReview
//! PX03SN review, TheSSDReview MK4001GRZB review, TweakTown HK4E review) and datasheets.

use serde::Serialize;

/// SANITIZE service actions the drive supports (SBC-4 5.30).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SanitizeSupport {
    /// SA 0x01 OVERWRITE.
    pub overwrite: bool,
    /// SA 0x02 BLOCK ERASE.
    pub block_erase: bool,
    /// SA 0x03 CRYPTOGRAPHIC ERASE.
    pub crypto_erase: bool,
}

impl SanitizeSupport {
    /// True when SANITIZE exists at all.
    pub fn any(&self) -> bool {
        self.overwrite || self.block_erase || self.crypto_erase
    }
}

/// TCG security subsystem class, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SedKind {
    /// TCG Enterprise SSC (Level 0 feature 0x0100).
    Enterprise,
}

/// One drive model.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Profile {
    /// Name used in `sim:NAME`.
    pub name: &'static str,
    /// One line for `sgctl sim list`.
    pub summary: &'static str,
    /// INQUIRY T10 vendor (8 chars, space padded on the wire).
    pub vendor: &'static str,
    /// INQUIRY product (16 chars).
    pub product: &'static str,
    /// INQUIRY revision (4 chars).
    pub revision: &'static str,
    /// Default serial number (overridable with `serial=`).
    pub serial: &'static str,
    /// IEEE OUI for NAA-5 names (Toshiba 00-00-39).
    pub oui: u32,
    /// SATA drive behind a SAS HBA's SCSI-ATA translation (vendor "ATA", VPD 0x89).
    pub sata: bool,
    /// ATA model string (IDENTIFY DEVICE words 27-46) for SATA profiles, empty otherwise.
    pub ata_model: &'static str,
    /// Number of SAS target ports (2 = dual port).
    pub ports: u16,
    /// Negotiated link rate code (SPL: 0x9 3G, 0xA 6G, 0xB 12G).
    pub link_rate: u8,
    /// Capacity in bytes at the factory block size (before `capacity_*` scaling).
    pub capacity_bytes: u64,
    /// Logical block length the drive ships with.
    pub default_block_len: u32,
    /// Protection type the drive ships with (0 = none, 1..=3).
    pub default_prot_type: u8,
    /// Logical block lengths MODE SELECT accepts.
    pub block_lens: &'static [u32],
    /// Lengths of `block_lens` that vendor-locked firmware refuses at FORMAT UNIT (ILLEGAL
    /// REQUEST, INVALID FIELD IN PARAMETER LIST) and leaves out of VPD 0xB4.
    pub format_locked: &'static [u32],
    /// Format presets (VPD 0xB8): (preset identifier, logical block length, protection type).
    pub presets: &'static [(u32, u32, u8)],
    /// Physical block length in bytes (reported as LBPPBE in READ CAPACITY(16)).
    pub physical_block_len: u32,
    /// PROTECT bit: T10 PI supported.
    pub protect: bool,
    /// Extended INQUIRY SPT code (SPC-5 Table 589) when `protect`.
    pub spt: u8,
    /// Fast format (FFMT 01b/10b) supported.
    pub fast_format: bool,
    /// Logical block provisioning: UNMAP supported and reads of unmapped blocks return zeros.
    pub lbpme: bool,
    /// LBPRZ.
    pub lbprz: bool,
    /// SANITIZE support.
    pub sanitize: SanitizeSupport,
    /// TCG SSC, if a self-encrypting drive.
    pub sed: Option<SedKind>,
    /// Ships locked (ex-array SED; the TCG model applies it).
    pub ships_locked: bool,
    /// Power-on hours the drive already has when first opened (used drives; its wear is the
    /// media profile's `preworn_pe`).
    pub initial_power_on_hours: u32,
    /// Idle temperature, degrees C.
    pub idle_temp_c: u8,
    /// Reference (trip) temperature, degrees C.
    pub trip_temp_c: u8,
    /// Date of manufacture: (year "YYYY", week "WW").
    pub manufactured: (&'static str, &'static str),
    /// Full (non-fast) FORMAT UNIT duration, seconds, independent of scaled capacity.
    pub format_secs: u32,
    /// SANITIZE BLOCK ERASE duration, seconds.
    pub block_erase_secs: u32,
    /// SANITIZE CRYPTOGRAPHIC ERASE duration, seconds.
    pub crypto_erase_secs: u32,
}

impl Profile {
    /// Drive capacity in logical blocks of `lb_len` (before scaling).
    pub fn nominal_blocks(&self, lb_len: u32) -> u64 {
        self.capacity_bytes / u64::from(lb_len.max(1))
    }

    /// SANITIZE OVERWRITE duration for one pass, seconds: the nominal capacity at the
    /// datasheet sequential write rate (independent of the scaled capacity).
    pub(crate) fn overwrite_pass_secs(&self) -> u64 {
        let mbs = self
            .media()
            .and_then(|m| m.reference.seq_write_mb_s)
            .map_or(400, |v| u64::from(v.max(1)));
        self.capacity_bytes / (mbs * 1_000_000)
    }

    /// The media model's parameters for this drive (sim/src/sim/media/profiles.rs).
    pub fn media(&self) -> Option<&'static crate::sim::media::MediaProfile> {
        crate::sim::media::profiles::by_name(self.name).ok()
    }

    /// Logical blocks per physical block exponent (READ CAPACITY(16) byte 13 bits 3-0).
    pub fn lbppbe(&self, lb_len: u32) -> u8 {
        if lb_len == 0 || self.physical_block_len % lb_len != 0 {
            return 0;
        }
        let ratio = self.physical_block_len / lb_len;
        if ratio.is_power_of_two() {
            ratio.trailing_zeros().min(15) as u8
        } else {
            0
        }
    }
}

/// IDEMA LBA count for a capacity in GB: 97,696,368 + 1,953,504 * (GB - 50) sectors of 512.
const fn idema_bytes(gb: u64) -> u64 {
    (97_696_368 + 1_953_504 * (gb - 50)) * 512
}

const TOSHIBA_OUI: u32 = 0x00_0039;
const PX_SIZES: &[u32] = &[512, 520, 528, 4096, 4104, 4160, 4224];

/// All profiles, in `sgctl sim list` order.
pub static PROFILES: &[Profile] = &[
    // TweakTown review: dual-port 12 Gb/s, 24 nm eMLC, 120k/30k IOPS, 900/400 MB/s, SANITIZE
    // crypto erase, TCG Enterprise (SED models), 10 DWPD; sector sizes as the PX series.
    Profile {
        name: "px02smf080",
        summary: "Toshiba PX02SMF080 800 GB eMLC, dual-port 12 Gb/s SAS, TCG Enterprise SED",
        vendor: "TOSHIBA",
        product: "PX02SMF080",
        revision: "0203",
        serial: "X4A0A01ATKHB",
        oui: TOSHIBA_OUI,
        sata: false,
        ata_model: "",
        ports: 2,
        link_rate: 0xB,
        capacity_bytes: idema_bytes(800),
        default_block_len: 512,
        default_prot_type: 0,
        block_lens: PX_SIZES,
        physical_block_len: 4096,
        protect: true,
        spt: 1, // types 1 and 2
        fast_format: true,
        lbpme: true,
        lbprz: true,
        sanitize: SanitizeSupport {
            overwrite: true,
            block_erase: true,
            crypto_erase: true,
        },
        sed: Some(SedKind::Enterprise),
        ships_locked: false,
        initial_power_on_hours: 0,
        idle_temp_c: 30,
        trip_temp_c: 70,
        manufactured: ("2014", "08"),
        format_secs: 90,
        block_erase_secs: 30,
        crypto_erase_secs: 2,
        format_locked: &[],
        presets: &[],
    },
    // StorageReview PX03SN review: read intensive, 19 nm MLC, 130k/26k IOPS, 1100/380 MB/s,
    // 1 DWPD, dual-port 12 Gb/s, same sector sizes. Standard (non-SED) model.
    Profile {
        name: "px03snf080",
        summary: "Toshiba PX03SNF080 800 GB MLC read-intensive, dual-port 12 Gb/s SAS",
        vendor: "TOSHIBA",
        product: "PX03SNF080",
        revision: "0101",
        serial: "Y5B0A02BTN2C",
        oui: TOSHIBA_OUI,
        sata: false,
        ata_model: "",
        ports: 2,
        link_rate: 0xB,
        capacity_bytes: idema_bytes(800),
        default_block_len: 512,
        default_prot_type: 0,
        block_lens: PX_SIZES,
        physical_block_len: 4096,
        protect: true,
        spt: 1,
        fast_format: true,
        lbpme: true,
        lbprz: true,
        sanitize: SanitizeSupport {
            overwrite: true,
            block_erase: true,
            crypto_erase: false,
        },
        sed: None,
        ships_locked: false,
        initial_power_on_hours: 0,
        idle_temp_c: 28,
        trip_temp_c: 65,
        manufactured: ("2014", "30"),
        format_secs: 80,
        block_erase_secs: 25,
        crypto_erase_secs: 2,
        format_locked: &[],
        presets: &[(1, 512, 0), (2, 4096, 0)],
    },
    // TheSSDReview MKx001GRZB review: 32 nm SLC, 6 Gb/s SAS, 90k read IOPS (measured ~91k),
    // random write FOB 40k, steady state 16.5k, +20 % OP ~20k; 512/520/528 sectors.
    Profile {
        name: "mk4001grzb",
        summary: "Toshiba MK4001GRZB 400 GB SLC, dual-port 6 Gb/s SAS",
        vendor: "TOSHIBA",
        product: "MK4001GRZB",
        revision: "DM04",
        serial: "1190A00CT2A4",
        oui: TOSHIBA_OUI,
        sata: false,
        ata_model: "",
        ports: 2,
        link_rate: 0xA,
        capacity_bytes: idema_bytes(400),
        default_block_len: 512,
        default_prot_type: 0,
        block_lens: &[512, 520, 528],
        physical_block_len: 512,
        protect: false,
        spt: 0,
        fast_format: false,
        lbpme: false,
        lbprz: false,
        sanitize: SanitizeSupport {
            overwrite: false,
            block_erase: false,
            crypto_erase: false,
        },
        sed: None,
        ships_locked: false,
        initial_power_on_hours: 0,
        idle_temp_c: 32,
        trip_temp_c: 70,
        manufactured: ("2011", "14"),
        format_secs: 120,
        block_erase_secs: 0,
        crypto_erase_secs: 0,
        format_locked: &[],
        presets: &[],
    },
    // TweakTown HK4E review: SATA SSD, 75k read / (rated) write IOPS; measured 93k read and
    // 43k write at QD32 steady state. Seen through a SAS HBA's SAT layer.
    Profile {
        name: "hk4e",
        summary: "Toshiba HK4E 800 GB SATA SSD behind a SAS HBA (SAT: vendor ATA, VPD 0x89)",
        vendor: "ATA",
        product: "TOSHIBA THNSN880",
        revision: "8EN1",
        serial: "46BS10XXTJ5W",
        oui: TOSHIBA_OUI,
        sata: true,
        ata_model: "TOSHIBA THNSN8800PCSE",
        ports: 1,
        link_rate: 0xA,
        capacity_bytes: idema_bytes(800),
        default_block_len: 512,
        default_prot_type: 0,
        block_lens: &[512],
        physical_block_len: 4096,
        protect: false,
        spt: 0,
        fast_format: false,
        lbpme: true,
        lbprz: true,
        sanitize: SanitizeSupport {
            overwrite: true,
            block_erase: true,
            crypto_erase: false,
        },
        sed: None,
        ships_locked: false,
        initial_power_on_hours: 0,
        idle_temp_c: 33,
        trip_temp_c: 70,
        manufactured: ("2015", "40"),
        format_secs: 60,
        block_erase_secs: 20,
        crypto_erase_secs: 2,
        format_locked: &[],
        presets: &[],
    },
    // A PX02SM SED pulled from a storage array: 520-byte logical blocks formatted with T10 PI
    // type 2, locked as a SED, 3.5 years of power-on time and 14 % endurance used
    // (protocols.md §C.6, WIKI-520).
    Profile {
        name: "exarray",
        summary: "ex-array PX02SMU080: 520-byte sectors with PI type 2, ships locked (SED)",
        vendor: "TOSHIBA",
        product: "PX02SMU080",
        revision: "N3A1",
        serial: "X4E0A0L7TKHB",
        oui: TOSHIBA_OUI,
        sata: false,
        ata_model: "",
        ports: 2,
        link_rate: 0xB,
        capacity_bytes: idema_bytes(800),
        default_block_len: 520,
        default_prot_type: 2,
        block_lens: PX_SIZES,
        physical_block_len: 4096,
        protect: true,
        spt: 1,
        fast_format: true,
        lbpme: true,
        lbprz: true,
        sanitize: SanitizeSupport {
            overwrite: true,
            block_erase: true,
            crypto_erase: true,
        },
        sed: Some(SedKind::Enterprise),
        ships_locked: true,
        initial_power_on_hours: 30_660,
        idle_temp_c: 31,
        trip_temp_c: 70,
        manufactured: ("2014", "22"),
        format_secs: 90,
        block_erase_secs: 30,
        crypto_erase_secs: 2,
        format_locked: &[],
        presets: &[],
    },
    // The same ex-array part with vendor-locked firmware: 520-byte blocks without PI, VPD 0xB4
    // lists only 520 and 528, and FORMAT UNIT to 512 is refused with ILLEGAL REQUEST / INVALID
    // FIELD IN PARAMETER LIST although MODE SELECT took the block descriptor (protocols.md
    // §C.6: "some vendor-locked firmware refuses size changes").
    Profile {
        name: "exarraylock",
        summary: "ex-array PX02SMU080, vendor-locked firmware: 520/528 only, refuses 512",
        vendor: "TOSHIBA",
        product: "PX02SMU080",
        revision: "N3A1",
        serial: "X4E0A0M2TKHB",
        oui: TOSHIBA_OUI,
        sata: false,
        ata_model: "",
        ports: 2,
        link_rate: 0xB,
        capacity_bytes: idema_bytes(800),
        default_block_len: 520,
        default_prot_type: 0,
        block_lens: &[512, 520, 528],
        physical_block_len: 4096,
        protect: false,
        spt: 0,
        fast_format: true,
        lbpme: true,
        lbprz: true,
        sanitize: SanitizeSupport {
            overwrite: true,
            block_erase: true,
            crypto_erase: false,
        },
        sed: None,
        ships_locked: false,
        initial_power_on_hours: 30_660,
        idle_temp_c: 31,
        trip_temp_c: 70,
        manufactured: ("2014", "22"),
        format_secs: 90,
        block_erase_secs: 30,
        crypto_erase_secs: 2,
        format_locked: &[512],
        presets: &[],
    },
];

/// Looks a profile up by name (case-insensitive).
pub fn find(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_consistent() {
        for p in PROFILES {
            assert!(p.vendor.len() <= 8 && p.product.len() <= 16 && p.revision.len() <= 4);
            assert!(p.block_lens.contains(&p.default_block_len), "{}", p.name);
            assert!(p.default_prot_type == 0 || p.protect, "{}", p.name);
            assert_eq!(find(p.name).map(|q| q.name), Some(p.name));
        }
        assert_eq!(idema_bytes(800) / 512, 1_562_824_368);
        let px = find("PX02SMF080").unwrap();
        assert_eq!(px.lbppbe(512), 3);
        assert_eq!(px.lbppbe(4096), 0);
        assert_eq!(px.lbppbe(520), 0);
    }
}
