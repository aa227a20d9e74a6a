//! `sgctl format`: change logical block size, protection type and capacity, verified.
//!
//! Flow (docs/protocols.md §C.5): MODE SENSE(10) with LLBAA → MODE SELECT(10) with the new block
//! descriptor (PF=1, SP=1, retried with SP=0 when refused) → FORMAT UNIT with IMMED and the
//! FMTPINFO/PFU of the protection type → poll REQUEST SENSE → READ CAPACITY(16) must show
//! exactly the requested block length, protection and capacity (a drive that silently picks
//! another size, Seagate/openSeaChest#156, is a failure) → ask the kernel to rescan every path.

use crate::cmd::run_out;
use crate::error::{Error, Invalid, Result};
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::{self, Ended, PollConfig, PollEnd, Trail};
use crate::ops::query::{self, Capacity};
use crate::scsi::format_unit::{FormatRequest, ProtectionType};
use crate::sense::SenseKey;
use crate::transport::{Transport, DEFAULT_TIMEOUT};
use serde::Serialize;
use std::time::Duration;

/// Requested capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CapacityRequest {
    /// The maximum for the new block size (descriptor count 0).
    Max,
    /// Exactly this many logical blocks.
    Blocks(u64),
    /// This percentage of the current capacity in bytes (over-provisioning).
    Percent(u8),
}

impl std::str::FromStr for CapacityRequest {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        if let Some(p) = s.strip_suffix('%') {
            let v: u8 = p.parse().map_err(|_| format!("bad percentage {s:?}"))?;
            if v == 0 || v > 100 {
                return Err("percentage must be 1..100".into());
            }
            return Ok(CapacityRequest::Percent(v));
        }
        let v: u64 = s.parse().map_err(|_| format!("bad block count {s:?}"))?;
        if v == 0 {
            return Err("block count must be > 0".into());
        }
        Ok(CapacityRequest::Blocks(v))
    }
}

/// What the user asked for.
#[derive(Debug, Clone, Serialize)]
pub struct FormatOptions {
    /// New logical block length; `None` only with `recover` (keeps the pending size).
    pub block_size: Option<u32>,
    /// Protection type.
    pub protection: ProtectionType,
    /// PI interval exponent (types 2/3).
    pub pi_exponent: u8,
    /// Capacity.
    pub capacity: CapacityRequest,
    /// FFMT=1.
    pub fast: bool,
    /// Recover a drive in "medium format corrupted" (31/00): format again with the size the
    /// drive has pending, no MODE SELECT unless a size was given.
    pub recover: bool,
    /// FORMAT WITH PRESET (SBC-5 5.9) with this PRESET IDENTIFIER instead of MODE SELECT and
    /// FORMAT UNIT; the geometry to verify is the preset's (VPD 0xB8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<u32>,
}

/// What READ CAPACITY(16) must show afterwards.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct Expectation {
    /// Logical block length.
    pub block_len: u32,
    /// Protection type.
    pub protection: ProtectionType,
    /// P_I_EXPONENT.
    pub pi_exponent: u8,
    /// Exact block count, when the user fixed one.
    pub blocks: Option<u64>,
}

/// The commands to send, decided from read-only queries.
#[derive(Debug, Clone, Serialize)]
pub struct FormatPlan {
    /// READ CAPACITY(16) before (None when the medium is corrupt).
    pub before: Option<Capacity>,
    /// Block descriptor count for MODE SELECT.
    pub descriptor_blocks: Option<u64>,
    /// MODE SELECT(10) parameter list (None when not needed).
    #[serde(skip)]
    pub mode_select: Option<Vec<u8>>,
    /// FORMAT UNIT (or FORMAT WITH PRESET) CDB.
    #[serde(skip)]
    pub format_cdb: Vec<u8>,
    /// FORMAT UNIT parameter list (empty for FORMAT WITH PRESET).
    #[serde(skip)]
    pub format_params: Vec<u8>,
    /// What we will check afterwards.
    pub expect: Expectation,
    /// The state-changing commands, in order, for `--dry-run` and the record.
    pub commands: Vec<PlannedCommand>,
}

fn sense_is(e: &Error, key: SenseKey, asc: u8) -> bool {
    e.sense().is_some_and(|s| s.key == key && s.asc == asc)
}

/// Reads the drive (queries only) and decides the commands.
pub fn plan(t: &mut dyn Transport, o: &FormatOptions) -> Result<FormatPlan> {
    if let Some(id) = o.preset {
        return plan_preset(t, id);
    }
    let before = match query::read_capacity16(t) {
        Ok(c) => Some(c),
        Err(e) if sense_is(&e, SenseKey::MediumError, 0x31) && o.recover => None,
        Err(Error::Sense(sense)) if sense.key == SenseKey::MediumError && sense.asc == 0x31 => {
            return Err(Error::MediumFormatCorrupt { sense })
        }
        Err(e) => return Err(e),
    };
    if o.protection != ProtectionType::Type0 && !query::identity(t)?.protect {
        return Err(Error::Unsupported(format!(
            "protection type {} requested but the drive does not support protection information (INQUIRY PROTECT=0)",
            o.protection.number()
        )));
    }
    let mode = query::mode_sense10(t, 0x01)?;
    let block_len = match (o.block_size, o.recover) {
        (Some(b), _) => b,
        (None, true) => mode.block_len,
        (None, false) => return Err(Invalid::BlockSizeRequired.into()),
    };
    if !(256..=65536).contains(&block_len) {
        return Err(Invalid::BlockSize { value: block_len }.into());
    }
    let descriptor_blocks = match o.capacity {
        CapacityRequest::Max => 0,
        CapacityRequest::Blocks(n) => n,
        CapacityRequest::Percent(p) => {
            let bytes = before
                .map(|c| c.bytes())
                .unwrap_or(mode.blocks.saturating_mul(u64::from(mode.block_len)));
            (bytes / 100 * u64::from(p)) / u64::from(block_len)
        }
    };
    if let CapacityRequest::Blocks(n) = o.capacity {
        let (blocks, len) = match &before {
            Some(c) => (c.blocks(), c.block_len),
            None => (mode.blocks, mode.block_len),
        };
        if let Some(limit) = capacity_limit(blocks, len, block_len) {
            if n > limit {
                return Err(Error::InvalidArgument(format!(
                    "--capacity {n} blocks of {block_len} bytes is more than the drive holds: \
                     READ CAPACITY reports {blocks} blocks of {len} bytes, at most {limit} at \
                     {block_len} bytes (leave --capacity out for the drive's maximum); nothing \
                     was sent"
                )));
            }
        }
    }
    let need_select = !(o.recover && o.block_size.is_none()) || descriptor_blocks != 0;
    let mut commands = Vec::new();
    let mode_select = if need_select {
        let p = mode.select_params(block_len, descriptor_blocks)?;
        commands.push(PlannedCommand::new(
            "MODE SELECT(10)",
            &query::mode_select10_cdb(true, p.len())?,
            &p,
        ));
        Some(p)
    } else {
        None
    };
    let (format_cdb, format_params) = FormatRequest {
        protection: o.protection,
        pi_exponent: o.pi_exponent,
        fast: o.fast,
        immed: true,
    }
    .build()?;
    let format_cdb = format_cdb.to_vec();
    commands.push(PlannedCommand::new(
        "FORMAT UNIT",
        &format_cdb,
        &format_params,
    ));
    Ok(FormatPlan {
        before,
        descriptor_blocks: need_select.then_some(descriptor_blocks),
        mode_select,
        format_cdb,
        format_params,
        expect: Expectation {
            block_len,
            protection: o.protection,
            pi_exponent: o.pi_exponent,
            blocks: (descriptor_blocks != 0).then_some(descriptor_blocks),
        },
        commands,
    })
}

/// FORMAT WITH PRESET: the identifier must be one the drive lists in its Format Presets VPD
/// page (0xB8), and that preset must name a block length and protection type to verify;
/// otherwise nothing is sent (there is no `--force`: an unlisted preset has no geometry to
/// check the result against, and the drive would refuse it with 24/00 anyway).
fn plan_preset(t: &mut dyn Transport, id: u32) -> Result<FormatPlan> {
    let before = match query::read_capacity16(t) {
        Ok(c) => Some(c),
        Err(Error::Sense(sense)) if sense.key == SenseKey::MediumError && sense.asc == 0x31 => None,
        Err(e) => return Err(e),
    };
    let Some(list) = crate::ops::format_support::presets(t)? else {
        return Err(Error::Unsupported(format!(
            "the drive lists no Format Presets VPD page (0xB8), so it has no preset {id}; \
             nothing was sent (`sgctl format DEV --list-supported` shows what it accepts)"
        )));
    };
    let listed = || {
        let ids: Vec<String> = list
            .presets
            .iter()
            .map(|p| p.preset_identifier.to_string())
            .collect();
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    };
    let Some(preset) = list.presets.iter().find(|p| p.preset_identifier == id) else {
        return Err(Error::Unsupported(format!(
            "preset {id} is not one the drive lists in VPD 0xB8 (listed: {}); nothing was sent",
            listed()
        )));
    };
    let (Some(block_len), Some(prot)) = (preset.logical_block_length, preset.protection_type())
    else {
        return Err(Error::Unsupported(format!(
            "preset {id} in VPD 0xB8 names no block length and protection type sgctl can \
             verify afterwards (schema {:?}); nothing was sent",
            preset.schema_type
        )));
    };
    let protection = ProtectionType::from_number(prot)?;
    let pi_exponent = if prot >= 2 {
        preset.protection_interval_exponent.unwrap_or(0)
    } else {
        0
    };
    let format_cdb = crate::scsi::format_unit::FormatWithPresetCdb::new(id)
        .immed(true)
        .build()
        .to_vec();
    Ok(FormatPlan {
        before,
        descriptor_blocks: None,
        mode_select: None,
        commands: vec![PlannedCommand::new("FORMAT WITH PRESET", &format_cdb, &[])],
        format_cdb,
        format_params: Vec::new(),
        expect: Expectation {
            block_len,
            protection,
            pi_exponent,
            // FMTMAXLBA=0: the capacity is the preset's DESIGNED LAST LBA + 1 (SBC-5 5.9).
            blocks: preset
                .designed_last_lba
                .filter(|&l| l != 0 && l != u64::MAX)
                .map(|l| l + 1),
        },
    })
}

/// The most logical blocks of `new_len` bytes a drive that now reports `blocks` blocks of
/// `len` bytes can be asked for, checked before anything is sent (a count the drive cannot
/// hold would be rounded or refused after MODE SELECT, or, all ones, read as "maximum" —
/// and the format would then fail its check with the data already gone). Block lengths count
/// by their media sector (the power of two at or below them: 512 for 512/520/528, 4096 for
/// 4096/4104/4160), so 512 → 520 keeps the count and 512 → 4096 divides it by 8. None when
/// the drive reports no capacity to go by.
pub(crate) fn capacity_limit(blocks: u64, len: u32, new_len: u32) -> Option<u64> {
    let sector = |l: u32| l.checked_ilog2().map(|b| 1u64 << b);
    let (old, new) = (sector(len)?, sector(new_len)?);
    if blocks == 0 {
        return None;
    }
    // At most u64::MAX - 1: the all-ones count means "the maximum" in a block descriptor.
    let limit = u128::from(blocks) * u128::from(old) / u128::from(new);
    Some(u64::try_from(limit).unwrap_or(u64::MAX).min(u64::MAX - 1))
}

/// Result of a format.
#[derive(Debug, Clone, Serialize)]
pub struct FormatOutcome {
    /// READ CAPACITY(16) after.
    pub after: Option<Capacity>,
    /// MODE SELECT had to drop SP (save pages).
    pub mode_select_without_sp: bool,
    /// Checks that failed (empty = verified).
    pub mismatches: Vec<String>,
    /// How polling ended.
    pub ended: Ended,
}

/// Sends MODE SELECT and FORMAT UNIT (IMMED). After this the drive is formatting. Only a job
/// that passed the safety gate can call it: `_gate` is the gate's token.
pub fn start(
    t: &mut dyn Transport,
    _gate: &Cleared,
    p: &FormatPlan,
    trail: &mut Trail,
) -> Result<bool> {
    let mut without_sp = false;
    if let Some(params) = &p.mode_select {
        let cdb = query::mode_select10_cdb(true, params.len())?;
        match run_out(t, &cdb, params, DEFAULT_TIMEOUT) {
            Ok(()) => {}
            Err(e) if sense_is(&e, SenseKey::IllegalRequest, 0x24) => {
                // SP=1 not savable: retry without saving (sg_format does the same).
                if let Some(s) = e.sense() {
                    trail.push("MODE SELECT(10) SP=1", s);
                }
                without_sp = true;
                let cdb = query::mode_select10_cdb(false, params.len())?;
                run_out(t, &cdb, params, DEFAULT_TIMEOUT)
                    .map_err(|e| refine_select_error(e, p.expect.block_len))?;
            }
            Err(e) => return Err(refine_select_error(e, p.expect.block_len)),
        }
    }
    let sent = if p.format_params.is_empty() {
        crate::cmd::run_none(t, &p.format_cdb, Duration::from_secs(60))
    } else {
        run_out(t, &p.format_cdb, &p.format_params, Duration::from_secs(60))
    };
    sent.map_err(|e| {
        if p.format_cdb.first() == Some(&crate::scsi::opcodes::code::FORMAT_WITH_PRESET)
            && sense_is(&e, SenseKey::IllegalRequest, 0x24)
        {
            Error::Unsupported(format!("the drive refused FORMAT WITH PRESET: {e}"))
        } else if sense_is(&e, SenseKey::IllegalRequest, 0x24)
            || sense_is(&e, SenseKey::IllegalRequest, 0x26)
        {
            Error::Unsupported(format!(
                "the drive refused FORMAT UNIT with protection type {} (PI exponent {}): {e}",
                p.expect.protection.number(),
                p.expect.pi_exponent
            ))
        } else {
            e
        }
    })?;
    Ok(without_sp)
}

fn refine_select_error(e: Error, block_len: u32) -> Error {
    if sense_is(&e, SenseKey::IllegalRequest, 0x26) {
        Error::Unsupported(format!(
            "the drive refused logical block size {block_len} in MODE SELECT: {e}"
        ))
    } else {
        e
    }
}

/// Checks READ CAPACITY(16) against what was asked (the part peers skip).
pub fn verify(after: &Capacity, x: &Expectation) -> Vec<String> {
    let mut m = Vec::new();
    if after.block_len != x.block_len {
        m.push(format!(
            "logical block length is {} bytes, {} was requested",
            after.block_len, x.block_len
        ));
    }
    let (en, pt) = x.protection.read_capacity_fields();
    if after.prot_en != en || (en && after.p_type != pt) {
        m.push(format!(
            "protection is PROT_EN={} P_TYPE={}, type {} was requested",
            u8::from(after.prot_en),
            after.p_type,
            x.protection.number()
        ));
    }
    if en && after.p_i_exponent != x.pi_exponent {
        m.push(format!(
            "P_I_EXPONENT is {}, {} was requested",
            after.p_i_exponent, x.pi_exponent
        ));
    }
    if let Some(b) = x.blocks {
        if after.blocks() != b {
            m.push(format!(
                "capacity is {} blocks, {b} was requested",
                after.blocks()
            ));
        }
    }
    m
}

/// Polls to the end and verifies. `Err` only for transport failures; a failed format or a
/// mismatch is reported in the outcome and turned into an exit status by the caller.
pub fn finish(
    t: &mut dyn Transport,
    expect: &Expectation,
    cfg: &PollConfig,
    trail: &mut Trail,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<FormatOutcome> {
    let end = poll::poll(t, cfg, trail, progress)?;
    let ended = Ended::of(&end);
    if end != PollEnd::Done {
        return Ok(FormatOutcome {
            after: None,
            mode_select_without_sp: false,
            mismatches: vec![],
            ended,
        });
    }
    let after = query::read_capacity16(t)?;
    Ok(FormatOutcome {
        after: Some(after),
        mode_select_without_sp: false,
        mismatches: verify(&after, expect),
        ended,
    })
}

/// Asks the kernel to re-read capacity on every path (`.../device/rescan`, SCSI host H:C:T:L).
pub(crate) fn rescan(hctls: &[String]) -> Vec<String> {
    let mut errors = Vec::new();
    for h in hctls {
        let p = format!("/sys/class/scsi_device/{h}/device/rescan");
        if let Err(e) = std::fs::write(&p, "1") {
            errors.push(format!("{p}: {e}"));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::mockdrive::{MockDrive, Op};

    fn opts(bs: u32, pi: u8) -> FormatOptions {
        FormatOptions {
            block_size: Some(bs),
            protection: ProtectionType::from_number(pi).unwrap(),
            pi_exponent: 0,
            capacity: CapacityRequest::Max,
            fast: false,
            recover: false,
            preset: None,
        }
    }

    fn run(d: &mut MockDrive, o: &FormatOptions) -> Result<FormatOutcome> {
        let p = plan(d, o)?;
        let mut trail = Trail::default();
        start(d, &crate::ops::gate::test_token(), &p, &mut trail)?;
        finish(
            d,
            &p.expect,
            &PollConfig::immediate(),
            &mut trail,
            &mut |_| {},
        )
    }

    #[test]
    fn format_4096_type2_verified() {
        let mut d = MockDrive::new();
        let out = run(&mut d, &opts(4096, 2)).unwrap();
        assert_eq!(out.ended, Ended::Completed);
        assert!(out.mismatches.is_empty(), "{:?}", out.mismatches);
        let a = out.after.unwrap();
        assert_eq!((a.block_len, a.prot_en, a.p_type), (4096, true, 1));
        assert_eq!(a.blocks(), (1 << 20) * 512 / 4096);
        // MODE SELECT first tried with SP=1 (refused by this drive), then SP=0.
        let ops = d.opcodes();
        let selects: Vec<_> = d
            .st()
            .log
            .iter()
            .filter(|c| c[0] == 0x55)
            .map(|c| c[1])
            .collect();
        assert_eq!(selects, vec![0x11, 0x10]);
        assert!(ops.contains(&0x04));
    }

    #[test]
    fn refused_pi_type_is_unsupported() {
        let mut d = MockDrive::new();
        let e = run(&mut d, &opts(512, 3)).unwrap_err();
        assert!(matches!(e, Error::Unsupported(_)), "{e}");
        assert_eq!(e.exit_code(), crate::exit::UNSUPPORTED);
    }

    #[test]
    fn silent_size_substitution_is_caught() {
        let mut d = MockDrive::new();
        d.st().substitute_block = Some(520);
        let out = run(&mut d, &opts(4096, 0)).unwrap();
        assert_eq!(out.ended, Ended::Completed);
        assert_eq!(out.mismatches.len(), 1, "{:?}", out.mismatches);
        assert!(out.mismatches[0].contains("520"));
    }

    #[test]
    fn explicit_capacity_and_percent() {
        let mut d = MockDrive::new();
        let mut o = opts(512, 0);
        o.capacity = CapacityRequest::Blocks(1000);
        let out = run(&mut d, &o).unwrap();
        assert!(out.mismatches.is_empty());
        assert_eq!(out.after.unwrap().blocks(), 1000);
        o.capacity = CapacityRequest::Percent(50);
        let p = plan(&mut d, &o).unwrap();
        assert_eq!(p.expect.blocks, Some(500));
        assert_eq!(
            "80%".parse::<CapacityRequest>(),
            Ok(CapacityRequest::Percent(80))
        );
        assert!("0".parse::<CapacityRequest>().is_err());
        assert!("101%".parse::<CapacityRequest>().is_err());
    }

    #[test]
    fn a_capacity_beyond_the_drive_is_refused_before_anything_is_sent() {
        let mut d = MockDrive::new();
        let have = query::read_capacity16(&mut d).unwrap().blocks();
        for n in [u64::MAX, u64::MAX - 1, have + 1, have * 2] {
            let mut o = opts(512, 0);
            o.capacity = CapacityRequest::Blocks(n);
            let e = plan(&mut d, &o).unwrap_err();
            assert_eq!(e.exit_code(), crate::exit::USAGE, "{n}: {e}");
            assert!(e.to_string().contains("nothing was sent"), "{e}");
        }
        // Nothing state-changing reached the drive.
        assert!(!d.opcodes().iter().any(|&op| op == 0x04 || op == 0x55));
        // The whole drive is fine, and at 4096 bytes an eighth of the count.
        let mut o = opts(512, 0);
        o.capacity = CapacityRequest::Blocks(have);
        assert!(plan(&mut d, &o).is_ok());
        let mut o = opts(4096, 0);
        o.capacity = CapacityRequest::Blocks(have / 8 + 1);
        assert!(plan(&mut d, &o).is_err());
        o.capacity = CapacityRequest::Blocks(have / 8);
        assert!(plan(&mut d, &o).is_ok());
        assert_eq!(capacity_limit(1000, 512, 520), Some(1000));
        assert_eq!(capacity_limit(1000, 4096, 512), Some(8000));
        assert_eq!(capacity_limit(u64::MAX, 4096, 512), Some(u64::MAX - 1));
        assert_eq!(capacity_limit(0, 512, 512), None);
        assert_eq!(capacity_limit(10, 0, 512), None);
    }

    #[test]
    fn power_cycle_mid_format_then_recover() {
        let mut d = MockDrive::new();
        d.st().steps = 10;
        let o = opts(4096, 0);
        let p = plan(&mut d, &o).unwrap();
        let mut trail = Trail::default();
        start(&mut d, &crate::ops::gate::test_token(), &p, &mut trail).unwrap();
        // Two polls, then the power goes.
        let mut polls = 0;
        let cfg = PollConfig::immediate();
        let flag = cfg.interrupted.clone();
        let dd = d.clone();
        let _ = poll::poll(&mut d, &cfg, &mut trail, &mut |_| {
            polls += 1;
            if polls == 2 {
                dd.power_cycle();
            }
        })
        .map(|end| assert!(matches!(end, PollEnd::Failed(ref s) if s.asc == 0x31 && s.ascq == 0)));
        assert!(!flag.load(std::sync::atomic::Ordering::Relaxed));
        assert_eq!(d.st().op, Op::FormatCorrupt);
        // A plain format now refuses: the medium format is corrupt (the CLI points to
        // --recover).
        let e = plan(&mut d, &o).unwrap_err();
        assert!(
            matches!(&e, Error::MediumFormatCorrupt { sense } if sense.asc == 0x31),
            "{e}"
        );
        // --recover formats again with the pending size.
        let r = FormatOptions {
            block_size: None,
            recover: true,
            ..o
        };
        let out = run(&mut d, &r).unwrap();
        assert_eq!(out.ended, Ended::Completed);
        assert!(out.mismatches.is_empty());
        assert_eq!(out.after.unwrap().block_len, 4096);
        assert_eq!(d.st().op, Op::Idle);
    }

    #[test]
    fn interrupted_polling_leaves_the_drive_running() {
        let mut d = MockDrive::new();
        let p = plan(&mut d, &opts(512, 1)).unwrap();
        let mut trail = Trail::default();
        start(&mut d, &crate::ops::gate::test_token(), &p, &mut trail).unwrap();
        let cfg = PollConfig::immediate();
        cfg.interrupted
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let out = finish(&mut d, &p.expect, &cfg, &mut trail, &mut |_| {}).unwrap();
        assert_eq!(out.ended, Ended::Interrupted);
        assert!(matches!(d.st().op, Op::Formatting { .. }));
    }

    #[test]
    fn dry_run_sends_nothing_that_changes_state() {
        use crate::ops::gate::{is_state_changing, ReadOnly};
        let d = MockDrive::new();
        let mut ro = ReadOnly::new(d.clone());
        let p = plan(&mut ro, &opts(4096, 1)).unwrap();
        assert_eq!(p.commands.len(), 2);
        assert_eq!(p.commands[1].cdb, "04 98 00 00 00 00");
        assert_eq!(p.commands[1].data_out, "00 02 00 00");
        // Trying to start through the guard is refused before reaching the drive.
        assert!(start(
            &mut ro,
            &crate::ops::gate::test_token(),
            &p,
            &mut Trail::default()
        )
        .is_err());
        assert!(d.st().log.iter().all(|c| !is_state_changing(c)));
        assert_eq!(d.st().op, Op::Idle);
    }
}
