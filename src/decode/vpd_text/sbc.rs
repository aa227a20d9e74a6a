//! Text of the SBC-4 and ZBC VPD pages not in the parent module (0xB3, 0xB4, 0xB5, 0xB6,
//! 0xB7, 0xB8, 0xB9), worded like sg_vpd 1.63 (Debian's sg3-utils 1.46) so tests/it/sg3_compare.rs
//! compares them field by field.

use crate::scsi::vpd::block_characteristics_ext::{
    utilization_interval_name, utilization_type_name, utilization_units_name,
    BlockDeviceCharacteristicsExtension,
};
use crate::scsi::vpd::block_lengths::SupportedBlockLengths;
use crate::scsi::vpd::block_limits_ext::BlockLimitsExtension;
use crate::scsi::vpd::format_presets::FormatPresets;
use crate::scsi::vpd::positioning_ranges::ConcurrentPositioningRanges;
use crate::scsi::vpd::referrals::Referrals;
use crate::scsi::vpd::zoned::{extension_name, ZonedBlockDeviceCharacteristics};
use std::fmt::Write;

/// 0xB3.
pub(super) fn referrals(x: &Referrals) -> String {
    format!(
        "Referrals VPD page (SBC):\n  User data segment size: {}\n  User data segment \
         multiplier: {}\n",
        x.user_data_segment_size, x.user_data_segment_multiplier
    )
}

/// 0xB6.
pub(super) fn zoned(x: &ZonedBlockDeviceCharacteristics) -> String {
    let nr = |v: u32, none: &str| {
        if v == u32::MAX {
            none.to_string()
        } else {
            v.to_string()
        }
    };
    format!(
        "Zoned block device characteristics VPD page (SBC, ZBC):\n  Zoned block device \
         extension: {}\n  AAORB: {}\n  URSWRZ: {}\n  Optimal number of open sequential write \
         preferred zones: {}\n  Optimal number of non-sequentially written sequential write \
         preferred zones: {}\n  Maximum number of open sequential write required zones: {}\n",
        extension_name(x.zoned_block_device_extension),
        u8::from(x.aaorb),
        u8::from(x.urswrz),
        nr(
            x.optimal_number_of_open_sequential_write_preferred_zones,
            "not reported"
        ),
        nr(
            x.optimal_number_of_non_sequentially_written_sequential_write_preferred_zones,
            "not reported"
        ),
        nr(
            x.maximum_number_of_open_sequential_write_required_zones,
            "no limit"
        ),
    )
}

/// 0xB7.
pub(super) fn block_limits_ext(x: &BlockLimitsExtension) -> String {
    let mut t = String::from("Block limits extension VPD page (SBC):\n");
    let streams = match x.maximum_number_of_streams {
        0 => "0 [Stream control not supported]".to_string(),
        n => n.to_string(),
    };
    let _ = writeln!(t, "  Maximum number of streams: {streams}");
    let _ = writeln!(
        t,
        "  Optimal stream write size: {} blocks",
        x.optimal_stream_write_size
    );
    let _ = writeln!(
        t,
        "  Stream granularity size: {}",
        x.stream_granularity_size
    );
    let blocks = |v: u32| match v {
        0 => "0 blocks [not reported]".to_string(),
        v => format!("{v} blocks"),
    };
    if let Some(v) = x.maximum_scattered_lba_range_transfer_length {
        let _ = writeln!(
            t,
            "  Maximum scattered LBA range transfer length: {}",
            blocks(v)
        );
    }
    if let Some(v) = x.maximum_scattered_lba_range_descriptor_count {
        let c = match v {
            0 => "0 [not reported]".to_string(),
            v => v.to_string(),
        };
        let _ = writeln!(t, "  Maximum scattered LBA range descriptor count: {c}");
    }
    if let Some(v) = x.maximum_scattered_transfer_length {
        let _ = writeln!(t, "  Maximum scattered transfer length: {}", blocks(v));
    }
    t
}

/// 0xB9.
pub(super) fn positioning_ranges(x: &ConcurrentPositioningRanges) -> String {
    let mut t = String::from("Concurrent positioning ranges VPD page (SBC):\n");
    for r in &x.ranges {
        let _ = writeln!(
            t,
            "  LBA range number: {}\n    number of storage elements: {}\n    starting LBA: \
             0x{:x}\n    number of LBAs: 0x{:x} [{}]",
            r.lba_range_number,
            r.number_of_storage_elements,
            r.starting_lba,
            r.number_of_lbas,
            r.number_of_lbas
        );
    }
    t
}

/// 0xB4 (a field whose byte the page does not reach is left out).
pub(super) fn block_lengths(x: &SupportedBlockLengths) -> String {
    let mut t = String::from("Supported block lengths and protection types VPD page (SBC):\n");
    for d in &x.descriptors {
        let _ = writeln!(t, "  Logical block length: {}", d.logical_block_length);
        for (name, v) in [
            ("P_I_I_SUP", d.p_i_i_sup),
            ("NO_PI_CHK", d.no_pi_chk),
            ("GRD_CHK", d.grd_chk),
            ("APP_CHK", d.app_chk),
            ("REF_CHK", d.ref_chk),
            ("T3PS", d.t3ps),
            ("T2PS", d.t2ps),
            ("T1PS", d.t1ps),
            ("T0PS", d.t0ps),
        ] {
            if let Some(v) = v {
                let _ = writeln!(t, "    {name}: {}", u8::from(v));
            }
        }
    }
    t
}

/// 0xB8 (a field whose bytes the page does not reach is left out).
pub(super) fn format_presets(x: &FormatPresets) -> String {
    let mut t = String::from("Format presets VPD page (SBC):\n");
    let line = |t: &mut String, name: &str, v: Option<String>| {
        if let Some(v) = v {
            let _ = writeln!(t, "    {name}: {v}");
        }
    };
    for p in &x.presets {
        let _ = writeln!(t, "  Preset identifier: 0x{:x}", p.preset_identifier);
        line(&mut t, "schema type", p.schema_type.map(|v| v.to_string()));
        line(
            &mut t,
            "logical blocks per physical block exponent type",
            p.lbppbe.map(|v| v.to_string()),
        );
        line(
            &mut t,
            "logical block length",
            p.logical_block_length.map(|v| v.to_string()),
        );
        line(
            &mut t,
            "designed last LBA",
            p.designed_last_lba.map(|v| format!("0x{v:x}")),
        );
        line(&mut t, "FMPT_INFO", p.fmtpinfo.map(|v| v.to_string()));
        line(
            &mut t,
            "protection field usage",
            p.protection_field_usage.map(|v| v.to_string()),
        );
        line(
            &mut t,
            "protection interval exponent",
            p.protection_interval_exponent.map(|v| v.to_string()),
        );
        if let Some(z) = &p.zoned {
            let kind = if p.schema_type == Some(2) {
                "host aware"
            } else {
                "host managed"
            };
            let _ = writeln!(t, "    Defines zones for {kind} device:");
            let pc = |u: u8| format!("{}.{} %", u / 10, u % 10);
            for (name, v) in [
                (
                    "low LBA conventional zones percentage",
                    z.low_lba_conventional_zones_permille.map(pc),
                ),
                (
                    "high LBA conventional zones percentage",
                    z.high_lba_conventional_zones_permille.map(pc),
                ),
                (
                    "logical blocks per zone",
                    z.logical_blocks_per_zone.map(|v| v.to_string()),
                ),
            ] {
                if let Some(v) = v {
                    let _ = writeln!(t, "        {name}: {v}");
                }
            }
        }
        if let Some(z) = &p.zone_domains {
            let _ = writeln!(t, "    Defines zones for zone domains and realms device:");
            for (i, ty) in z.zone_domain_types.iter().enumerate() {
                let _ = writeln!(t, "        zone type for zone domain {i}: {ty}");
            }
            let _ = writeln!(
                t,
                "        logical blocks per zone: {}\n        designed zone maximum address: 0x{:x}",
                z.logical_blocks_per_zone, z.designed_zone_maximum_address
            );
        }
    }
    t
}

/// 0xB5.
pub(super) fn block_characteristics_ext(x: &BlockDeviceCharacteristicsExtension) -> String {
    format!(
        "Block device characteristics extension VPD page (SBC):\n  Utilization type: {} \
         [0x{:x}]\n  Utilization units: {} [0x{:x}]\n  Utilization interval: {} [0x{:x}]\n  \
         Utilization B: {}\n  Utilization A: {}\n",
        utilization_type_name(x.utilization_type),
        x.utilization_type,
        utilization_units_name(x.utilization_units),
        x.utilization_units,
        utilization_interval_name(x.utilization_interval),
        x.utilization_interval,
        x.utilization_b,
        x.utilization_a
    )
}
