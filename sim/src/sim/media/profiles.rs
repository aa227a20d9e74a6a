//! Media parameters of the simulated drives, keyed by the same profile names as the SCSI-level
//! profiles in `sim/src/sim/`.
//!
//! What is a *parameter* here and what is an *outcome*: geometry, raw capacity, NAND times,
//! channel/link rates and controller (firmware) times — per command, per garbage-collection
//! copy, per retired old copy — are inputs, chosen from the parts' class and calibrated by hand
//! against the review figures (docs/sim-media.md says which input moves which figure).
//! Steady-state IOPS, write amplification, latency and the effect of extra over-provisioning are
//! outcomes of the FTL model (`sgctl sim bench`); the figures in [`Reference`] are printed
//! beside them and are never read by the model.

use super::geometry::{Geometry, Timing, UNIT_BYTES};
use super::{Ftl, MediaError};

/// Datasheet and review figures printed beside the benchmark (not used by the model). `None`
/// where the reviews give no figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reference {
    /// Datasheet 4 KiB random read IOPS.
    pub read_iops: Option<u32>,
    /// Datasheet 4 KiB random write IOPS (enterprise datasheets quote steady state).
    pub write_iops: Option<u32>,
    /// Datasheet sequential read MB/s.
    pub seq_read_mb_s: Option<u32>,
    /// Datasheet sequential write MB/s.
    pub seq_write_mb_s: Option<u32>,
    /// What a review measured, with the review it comes from.
    pub review: &'static str,
}

/// Media model parameters of one drive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MediaProfile {
    /// Profile name (`sim:<name>`).
    pub name: &'static str,
    /// Model number and NAND type.
    pub description: &'static str,
    /// Full-size user capacity in bytes.
    pub user_bytes: u64,
    /// Spare flash as a fraction of user capacity (raw = user × (1 + op)).
    pub op_fraction: f64,
    /// NAND layout; `blocks_per_die` is derived from the capacity.
    pub geometry: Geometry,
    /// Service times.
    pub timing: Timing,
    /// Erases every block has already had (a used drive).
    pub preworn_pe: u32,
    /// Datasheet and review figures.
    pub reference: Reference,
}

impl MediaProfile {
    /// An erased drive of this profile with `user_bytes` of user capacity (scaled down from the
    /// real drive; geometry and timing per die are unchanged, see `Geometry::for_user_units`).
    pub fn build(&self, user_bytes: u64) -> Result<Ftl, MediaError> {
        self.build_with_op(user_bytes, self.op_fraction)
    }

    /// Like [`build`](Self::build) with the raw capacity sized for `user_bytes` at the profile's
    /// over-provisioning, but only `user_bytes × (1 − extra)` exposed to the host: the same flash
    /// with `extra` of the capacity given up as additional spare (what resizing the drive with
    /// FORMAT UNIT or leaving an unused, trimmed range does).
    pub(crate) fn build_with_extra_op(
        &self,
        user_bytes: u64,
        extra: f64,
    ) -> Result<Ftl, MediaError> {
        if !(0.0..0.9).contains(&extra) {
            return Err(MediaError::BadGeometry(format!(
                "extra over-provisioning {extra} out of range 0..0.9"
            )));
        }
        let units = user_bytes / UNIT_BYTES;
        let geo = self.geometry.for_user_units(units, self.op_fraction)?;
        let user = ((units as f64) * (1.0 - extra)).floor() as u64;
        let mut ftl = Ftl::with_user_units(geo, self.timing, user)?;
        ftl.set_wear(self.preworn_pe);
        Ok(ftl)
    }

    fn build_with_op(&self, user_bytes: u64, op: f64) -> Result<Ftl, MediaError> {
        let units = user_bytes / UNIT_BYTES;
        let geo = self.geometry.for_user_units(units, op)?;
        let mut ftl = Ftl::with_user_units(geo, self.timing, units)?;
        ftl.set_wear(self.preworn_pe);
        Ok(ftl)
    }

    /// The full-size geometry (for documentation; building it needs the full L2P table).
    pub fn full_geometry(&self) -> Result<Geometry, MediaError> {
        self.geometry
            .for_user_units(self.user_bytes / UNIT_BYTES, self.op_fraction)
    }
}

const GB: u64 = 1_000_000_000;

/// Geometry template; `blocks_per_die` is filled in by [`Geometry::for_user_units`].
const fn geo(
    channels: u32,
    dies_per_channel: u32,
    planes_per_die: u32,
    page_kib: u32,
    pages_per_block: u32,
    pe_cycles: u32,
    bits_per_cell: u8,
) -> Geometry {
    Geometry {
        channels,
        dies_per_channel,
        planes_per_die,
        pages_per_block,
        nominal_pages_per_block: pages_per_block,
        page_bytes: page_kib * 1024,
        blocks_per_die: 0,
        pe_cycles,
        bits_per_cell,
    }
}

/// 12 Gb/s SAS: 1200 MB/s line rate after 8b/10b, ~1100 MB/s payload.
const SAS12_BYTES_PER_S: u64 = 1_100_000_000;
/// 6 Gb/s SAS/SATA: ~550 MB/s payload.
const SAS6_BYTES_PER_S: u64 = 550_000_000;

/// All profiles.
pub const PROFILES: &[MediaProfile] = &[
    MediaProfile {
        name: "px02smf080",
        description: "Toshiba PX02SMF080, 800 GB, 24 nm eMLC, 12 Gb/s SAS, 10 DWPD",
        user_bytes: 800 * GB,
        // 1 TiB of flash behind 800 GB (review 000: 14.6 PB endurance, 10 DWPD).
        op_fraction: 0.37,
        geometry: geo(8, 4, 2, 16, 256, 30_000, 2),
        timing: Timing {
            t_read_ns: 80_000,
            t_prog_ns: 2_500_000,
            t_erase_ns: 5_000_000,
            channel_bytes_per_s: 400_000_000,
            link_bytes_per_s: SAS12_BYTES_PER_S,
            cmd_read_ns: 8_300,
            cmd_write_ns: 9_000,
            cmd_latency_ns: 40_000,
            write_buffer_bytes: 16 << 20,
            // 12 Gb/s Toshiba controller generation (shared with the PX03SN): firmware time per
            // GC copy and per retired old copy (calibration: docs/sim-media.md).
            gc_copy_ns: 12_700,
            overwrite_ns: 10_500,
        },
        preworn_pe: 0,
        reference: Reference {
            read_iops: Some(120_000),
            write_iops: Some(30_000),
            seq_read_mb_s: Some(900),
            seq_write_mb_s: Some(400),
            review: "TweakTown PX02SMF080 review (reviews/000): 124,224 read / 27,165 write IOPS \
                     at QD256 after a 5 h precondition; 823 / 371 MB/s 128K seq",
        },
    },
    MediaProfile {
        name: "px03snf080",
        description: "Toshiba PX03SNF080, 800 GB, 19 nm MLC read-intensive, 12 Gb/s SAS, 1 DWPD",
        user_bytes: 800 * GB,
        // ~28 % spare, as assumed for the HK4E (the review gives no raw capacity; with 12 % the
        // model's steady state was 16k against the datasheet's 26k).
        op_fraction: 0.28,
        // 16 packages (review 001) of four 128 Gbit 19 nm MLC dies (1 TiB raw): 64 dies on 8
        // channels. Calibrated to the datasheet's 130k 4 KiB random read IOPS with tR 70 µs
        // (test `read_iops_match_the_datasheets`); with 32 dies of twice the flash and tR
        // 90 µs, QD32 reads queued behind each other on the dies: 108k. tPROG 2.8 ms keeps
        // the sequential write at the datasheet's 380 MB/s (64 × 16 KiB / 2.8 ms = 375 MB/s;
        // at 1.4 ms the 64 dies wrote 750).
        geometry: geo(8, 8, 1, 16, 256, 3_000, 2),
        timing: Timing {
            t_read_ns: 70_000,
            t_prog_ns: 2_800_000,
            t_erase_ns: 5_000_000,
            channel_bytes_per_s: 400_000_000,
            link_bytes_per_s: SAS12_BYTES_PER_S,
            cmd_read_ns: 7_700,
            cmd_write_ns: 9_000,
            cmd_latency_ns: 40_000,
            write_buffer_bytes: 16 << 20,
            // Same controller generation and firmware as the PX02SM.
            gc_copy_ns: 12_700,
            overwrite_ns: 10_500,
        },
        preworn_pe: 0,
        reference: Reference {
            read_iops: Some(130_000),
            write_iops: Some(26_000),
            seq_read_mb_s: Some(1100),
            seq_write_mb_s: Some(380),
            review:
                "StorageReview PX03SN review (reviews/001, machine-translated, digits garbled): \
                     apparently 117,733 read / 45,507 write 4K IOPS after 4K preconditioning",
        },
    },
    MediaProfile {
        name: "mk4001grzb",
        description: "Toshiba MK4001GRZB, 400 GB, 32 nm SLC, 6 Gb/s SAS",
        user_bytes: 400 * GB,
        // 16 x 32 GB packages = 512 GB before over-provisioning (review 002).
        op_fraction: 0.28,
        geometry: geo(8, 2, 1, 4, 128, 100_000, 1),
        timing: Timing {
            t_read_ns: 25_000,
            t_prog_ns: 260_000,
            t_erase_ns: 1_500_000,
            channel_bytes_per_s: 133_000_000,
            link_bytes_per_s: SAS6_BYTES_PER_S,
            cmd_read_ns: 10_600,
            cmd_write_ns: 22_000,
            cmd_latency_ns: 90_000,
            write_buffer_bytes: 16 << 20,
            // 6 Gb/s controller of 2011: slow firmware per retired copy (calibration:
            // docs/sim-media.md).
            gc_copy_ns: 10_000,
            overwrite_ns: 23_000,
        },
        preworn_pe: 0,
        reference: Reference {
            read_iops: Some(90_000),
            write_iops: Some(16_000),
            seq_read_mb_s: Some(500),
            seq_write_mb_s: Some(250),
            review: "The SSD Review (reviews/004): 4K QD32 write FOB 40,000, steady state 16,505, \
                     +20 % OP ~20,000 (+18 %); StorageReview (reviews/002): 95,062 read IOPS \
                     QD64, 16,863 SS write IOPS QD32",
        },
    },
    MediaProfile {
        name: "hk4e",
        description: "Toshiba HK4E 800 GB, 15 nm MLC, SATA 6 Gb/s behind SAT",
        user_bytes: 800 * GB,
        // Mixed-use (3 DWPD) class: ~28 % spare (assumption).
        op_fraction: 0.28,
        geometry: geo(8, 4, 2, 16, 256, 10_000, 2),
        timing: Timing {
            t_read_ns: 80_000,
            t_prog_ns: 1_600_000,
            t_erase_ns: 5_000_000,
            channel_bytes_per_s: 400_000_000,
            link_bytes_per_s: SAS6_BYTES_PER_S,
            cmd_read_ns: 10_700,
            cmd_write_ns: 12_000,
            cmd_latency_ns: 60_000,
            write_buffer_bytes: 16 << 20,
            // 2015 SATA controller: hardware-assisted remapping, cheaper per unit.
            gc_copy_ns: 4_000,
            overwrite_ns: 5_000,
        },
        preworn_pe: 0,
        reference: Reference {
            read_iops: Some(75_000),
            write_iops: None,
            seq_read_mb_s: None,
            seq_write_mb_s: None,
            review: "HK4E review (reviews/003): SNIA PTS at QD32 in steady state: 93K 4K read, \
                 43K 4K write (above its unstated rating); mean 4K write latency 0.734 ms",
        },
    },
    MediaProfile {
        name: "exarray",
        description: "ex-array 400 GB eMLC SAS SSD (520-byte sectors), 6 Gb/s, used: 40 % worn",
        user_bytes: 400 * GB,
        // Array OEM drives are heavily over-provisioned.
        op_fraction: 0.45,
        geometry: geo(8, 4, 2, 8, 256, 30_000, 2),
        timing: Timing {
            t_read_ns: 70_000,
            t_prog_ns: 1_800_000,
            t_erase_ns: 4_000_000,
            channel_bytes_per_s: 200_000_000,
            link_bytes_per_s: SAS6_BYTES_PER_S,
            cmd_read_ns: 12_000,
            cmd_write_ns: 14_000,
            cmd_latency_ns: 60_000,
            write_buffer_bytes: 8 << 20,
            // No review: mid-way between the 6 Gb/s and 12 Gb/s Toshiba figures (assumption).
            gc_copy_ns: 8_000,
            overwrite_ns: 12_000,
        },
        preworn_pe: 12_000,
        reference: Reference {
            read_iops: None,
            write_iops: None,
            seq_read_mb_s: None,
            seq_write_mb_s: None,
            review: "no datasheet or review: a generic OEM part; parameters are assumptions",
        },
    },
    MediaProfile {
        name: "exarraylock",
        description: "ex-array 400 GB eMLC SAS SSD (520-byte sectors), 6 Gb/s, used: 40 % worn",
        user_bytes: 400 * GB,
        // Array OEM drives are heavily over-provisioned.
        op_fraction: 0.45,
        geometry: geo(8, 4, 2, 8, 256, 30_000, 2),
        timing: Timing {
            t_read_ns: 70_000,
            t_prog_ns: 1_800_000,
            t_erase_ns: 4_000_000,
            channel_bytes_per_s: 200_000_000,
            link_bytes_per_s: SAS6_BYTES_PER_S,
            cmd_read_ns: 12_000,
            cmd_write_ns: 14_000,
            cmd_latency_ns: 60_000,
            write_buffer_bytes: 8 << 20,
            // No review: mid-way between the 6 Gb/s and 12 Gb/s Toshiba figures (assumption).
            gc_copy_ns: 8_000,
            overwrite_ns: 12_000,
        },
        preworn_pe: 12_000,
        reference: Reference {
            read_iops: None,
            write_iops: None,
            seq_read_mb_s: None,
            seq_write_mb_s: None,
            review: "no datasheet or review: a generic OEM part; parameters are assumptions",
        },
    },
];

/// Looks a profile up by name (case-insensitive).
pub fn by_name(name: &str) -> Result<&'static MediaProfile, MediaError> {
    PROFILES
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| MediaError::UnknownProfile(name.to_string()))
}
