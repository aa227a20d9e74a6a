//! Purge of a SATA drive behind a SATL through its ATA side: the ATA Sanitize
//! feature set (SANITIZE DEVICE: CRYPTO SCRAMBLE EXT, BLOCK ERASE EXT, OVERWRITE EXT, with
//! SANITIZE STATUS EXT progress; ACS-4 7.30) and the Security feature set's SECURITY ERASE
//! UNIT (normal, enhanced; ACS-4 7.43), chosen from IDENTIFY words 59 and 128.
//!
//! Frozen drives are the common obstacle: BIOSes and some HBAs send SECURITY FREEZE LOCK (and
//! SANITIZE FREEZE LOCK EXT) at boot. Both clear only at power-on or hardware reset, so the
//! refusal carries the advice an admin needs ([`Next::AtaFrozen`], worded by the CLI).
//!
//! ATA passwords are secrets: they live in [`crate::ata::SecurityBlock`] (zeroed on drop), the
//! planned commands list the CDB only, and the `-vv` trace redacts ATA PASS-THROUGH data-out.

use crate::ata::{self, cmd, identify::Identify, sanitize_fn, SanitizeStatus, SecurityBlock};
use crate::error::{Error, Next, Refusal, Result};
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::PollConfig;
use crate::scsi::ata_pass_through::{AtaCommand, Protocol};
use crate::transport::Transport;
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The password a security erase sets when none is given (public on purpose, documented in
/// `sgctl sanitize --help`): if the erase is interrupted, `hdparm --user-master u
/// --security-unlock sgctl` (or `--security-disable sgctl`) recovers the drive.
pub(crate) const DEFAULT_PASSWORD: &[u8] = b"sgctl";

/// An ATA purge method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AtaMethod {
    /// SANITIZE DEVICE CRYPTO SCRAMBLE EXT.
    CryptoScramble,
    /// SANITIZE DEVICE BLOCK ERASE EXT.
    BlockErase,
    /// SANITIZE DEVICE OVERWRITE EXT (one pass of zeroes from `auto`).
    Overwrite {
        /// 32-bit pattern.
        pattern: u32,
        /// Passes 1..=16.
        passes: u8,
        /// Invert between passes.
        invert: bool,
    },
    /// SECURITY ERASE UNIT, normal (writes zeroes) or enhanced (vendor pattern / media
    /// re-keyed).
    SecurityErase {
        /// Enhanced mode.
        enhanced: bool,
    },
}

impl AtaMethod {
    /// ACS name.
    pub fn name(&self) -> &'static str {
        match self {
            AtaMethod::CryptoScramble => "ATA SANITIZE CRYPTO SCRAMBLE EXT",
            AtaMethod::BlockErase => "ATA SANITIZE BLOCK ERASE EXT",
            AtaMethod::Overwrite { .. } => "ATA SANITIZE OVERWRITE EXT",
            AtaMethod::SecurityErase { enhanced: false } => "ATA SECURITY ERASE UNIT (normal)",
            AtaMethod::SecurityErase { enhanced: true } => "ATA SECURITY ERASE UNIT (enhanced)",
        }
    }

    /// NIST SP 800-88 Rev. 1 / IEEE 2883-2022 category. SP 800-88r1 Table A-8 (ATA SSDs):
    /// SANITIZE BLOCK ERASE and CRYPTO SCRAMBLE purge; IEEE 2883 also lists SANITIZE
    /// OVERWRITE as purge. SECURITY ERASE UNIT writes the user-addressable area only (normal
    /// mode), so it is counted as clear; enhanced mode is listed as purge only because ACS
    /// requires it to also cover reallocated and spare areas — whether a given SSD's firmware
    /// does that cannot be verified from outside.
    pub fn category(&self) -> &'static str {
        match self {
            AtaMethod::CryptoScramble | AtaMethod::BlockErase | AtaMethod::Overwrite { .. } => {
                "purge"
            }
            AtaMethod::SecurityErase { enhanced: true } => "purge",
            AtaMethod::SecurityErase { enhanced: false } => "clear",
        }
    }
}

/// One method and whether it can be used now.
#[derive(Debug, Clone, Serialize)]
pub struct MethodSupport {
    /// Method (with `auto`'s parameters for overwrite).
    pub method: AtaMethod,
    /// Name.
    pub name: &'static str,
    /// IDENTIFY says the drive has it.
    pub supported: bool,
    /// Supported and not blocked (frozen, locked, attempts exhausted).
    pub usable: bool,
    /// Why not usable.
    pub blocked_by: Option<String>,
    /// NIST/IEEE category.
    pub category: &'static str,
    /// Expected duration in minutes (IDENTIFY words 89/90), for SECURITY ERASE UNIT.
    pub minutes: Option<u32>,
}

/// The ATA side's purge capabilities.
#[derive(Debug, Clone, Serialize)]
pub struct AtaSupport {
    /// Security state in words.
    pub security_state: String,
    /// SECURITY FROZEN (word 128 bit 3).
    pub security_frozen: bool,
    /// SECURITY LOCKED.
    pub security_locked: bool,
    /// Sanitize Frozen state (SANITIZE STATUS EXT).
    pub sanitize_frozen: bool,
    /// A sanitize in progress (SANITIZE STATUS EXT).
    pub sanitize_in_progress: bool,
    /// Methods, strongest first (the order `auto` uses).
    pub methods: Vec<MethodSupport>,
    /// The way out of frozen states, when one applies (the CLI words it as `advice`).
    #[serde(skip)]
    pub advice: Option<Next>,
}

/// Reads IDENTIFY and SANITIZE STATUS EXT and lists the methods.
pub fn support(t: &mut dyn Transport) -> Result<(AtaSupport, Identify)> {
    let id = crate::cmd::ata::read_identify(t, ata::CdbSize::Sixteen)?;
    let st = if id.sanitize.supported {
        match crate::cmd::ata::sanitize_status(t) {
            Ok(s) => Some(s),
            // ABRT with reason 01h: the last sanitize failed; still a status.
            Err(Error::Ata(_)) => None,
            Err(e) => return Err(e),
        }
    } else {
        None
    };
    Ok((support_from(&id, st.as_ref()), id))
}

/// Pure part of [`support`].
pub(crate) fn support_from(id: &Identify, st: Option<&SanitizeStatus>) -> AtaSupport {
    let z = &id.sanitize;
    let s = &id.security;
    let sanitize_frozen = st.is_some_and(|s| s.frozen);
    let sanitize_block = sanitize_frozen
        .then(|| "Sanitize Frozen (SANITIZE FREEZE LOCK EXT since power-on)".to_string());
    let security_block = if s.frozen {
        Some("security FROZEN (SECURITY FREEZE LOCK since power-on)".to_string())
    } else if s.locked {
        Some("security LOCKED (a user password is set and the drive is not unlocked)".to_string())
    } else if s.count_expired {
        Some("password attempt counter exhausted (power cycle needed)".to_string())
    } else {
        None
    };
    let mut methods = Vec::new();
    let mut add = |m: AtaMethod, supported: bool, block: &Option<String>, minutes: Option<u32>| {
        let blocked_by = if supported { block.clone() } else { None };
        methods.push(MethodSupport {
            method: m,
            name: m.name(),
            supported,
            usable: supported && blocked_by.is_none(),
            blocked_by,
            category: m.category(),
            minutes,
        });
    };
    add(
        AtaMethod::CryptoScramble,
        z.supported && z.crypto_scramble,
        &sanitize_block,
        None,
    );
    add(
        AtaMethod::BlockErase,
        z.supported && z.block_erase,
        &sanitize_block,
        None,
    );
    add(
        AtaMethod::Overwrite {
            pattern: 0,
            passes: 1,
            invert: false,
        },
        z.supported && z.overwrite,
        &sanitize_block,
        None,
    );
    add(
        AtaMethod::SecurityErase { enhanced: true },
        s.supported && s.enhanced_erase_supported,
        &security_block,
        s.enhanced_erase_minutes,
    );
    add(
        AtaMethod::SecurityErase { enhanced: false },
        s.supported,
        &security_block,
        s.normal_erase_minutes,
    );
    let advice = (s.frozen || sanitize_frozen).then_some(Next::AtaFrozen);
    AtaSupport {
        security_state: id.security_state(),
        security_frozen: s.frozen,
        security_locked: s.locked,
        sanitize_frozen,
        sanitize_in_progress: st.is_some_and(|s| s.in_progress),
        methods,
        advice,
    }
}

/// Picks `want`, or the strongest usable method (`None` = auto). Refuses with the advice
/// when the wanted (or every) method is blocked by a frozen/locked state.
pub fn choose(s: &AtaSupport, want: Option<AtaMethod>) -> Result<AtaMethod> {
    if s.sanitize_in_progress {
        return Err(Refusal::AtaSanitizeRunning.into());
    }
    let same = |a: &AtaMethod, b: &AtaMethod| {
        std::mem::discriminant(a) == std::mem::discriminant(b)
            && match (a, b) {
                (
                    AtaMethod::SecurityErase { enhanced: x },
                    AtaMethod::SecurityErase { enhanced: y },
                ) => x == y,
                _ => true,
            }
    };
    match want {
        Some(w) => {
            let m = s.methods.iter().find(|m| same(&m.method, &w));
            match m {
                Some(m) if m.usable => Ok(w),
                Some(m) if m.supported => Err(refusal(s, m)),
                _ => Err(Error::Unsupported(format!(
                    "the drive does not offer {} (IDENTIFY DEVICE words 59/128)",
                    w.name()
                ))),
            }
        }
        None => {
            if let Some(m) = s.methods.iter().find(|m| m.usable) {
                return Ok(m.method);
            }
            match s.methods.iter().find(|m| m.supported) {
                Some(m) => Err(refusal(s, m)),
                None => Err(Error::Unsupported(
                    "the drive offers neither the ATA Sanitize nor the Security feature set \
                     (IDENTIFY DEVICE words 59 and 128)"
                        .into(),
                )),
            }
        }
    }
}

fn refusal(s: &AtaSupport, m: &MethodSupport) -> Error {
    let why = m.blocked_by.clone().unwrap_or_default();
    let advice = if s.security_frozen || s.sanitize_frozen {
        Next::AtaFrozen
    } else if s.security_locked {
        Next::AtaUnlockFirst
    } else {
        Next::AtaPowerCycle
    };
    Refusal::AtaMethodBlocked {
        method: m.name.to_string(),
        why,
        advice,
    }
    .into()
}

/// The CDBs the method sends, for `--dry-run` and the record (the SECURITY data blocks carry
/// the password and are not listed).
pub fn planned(m: &AtaMethod) -> Vec<PlannedCommand> {
    let cdb = |c: AtaCommand| c.cdb16().to_vec();
    match m {
        AtaMethod::SecurityErase { .. } => {
            let pw = |code: u8, name: &str| {
                PlannedCommand::new(
                    &format!("ATA PASS-THROUGH(16) {name} (512-byte block not shown: carries the password)"),
                    &cdb(AtaCommand::new(code, Protocol::PioDataOut).count(1)),
                    &[],
                )
            };
            vec![
                pw(cmd::SECURITY_SET_PASSWORD, "SECURITY SET PASSWORD (user)"),
                PlannedCommand::new(
                    "ATA PASS-THROUGH(16) SECURITY ERASE PREPARE",
                    &cdb(AtaCommand::new(
                        cmd::SECURITY_ERASE_PREPARE,
                        Protocol::NonData,
                    )),
                    &[],
                ),
                pw(cmd::SECURITY_ERASE_UNIT, "SECURITY ERASE UNIT"),
            ]
        }
        _ => {
            let (f, count, lba) = sanitize_args(m);
            vec![PlannedCommand::new(
                &format!(
                    "ATA PASS-THROUGH(16) {}",
                    m.name().trim_start_matches("ATA ")
                ),
                &cdb(sanitize_cmd(f, count, lba)),
                &[],
            )]
        }
    }
}

fn sanitize_cmd(f: u16, count: u16, lba: u64) -> AtaCommand {
    AtaCommand::new(cmd::SANITIZE, Protocol::NonData)
        .extend(true)
        .features(f)
        .count(count)
        .lba(lba)
        .ck_cond(true)
}

/// FEATURE, COUNT, LBA of a SANITIZE DEVICE method (ACS-4 7.30.2-5). COUNT bit 4 FAILURE
/// MODE stays 0 (restricted: a failed sanitize must be repeated).
fn sanitize_args(m: &AtaMethod) -> (u16, u16, u64) {
    match *m {
        AtaMethod::CryptoScramble => (sanitize_fn::CRYPTO_SCRAMBLE, 0, sanitize_fn::CRYPTO_KEY),
        AtaMethod::BlockErase => (sanitize_fn::BLOCK_ERASE, 0, sanitize_fn::BLOCK_ERASE_KEY),
        AtaMethod::Overwrite {
            pattern,
            passes,
            invert,
        } => (
            sanitize_fn::OVERWRITE,
            u16::from(passes.clamp(1, 16) & 0x0F) | if invert { 0x80 } else { 0 },
            sanitize_fn::OVERWRITE_KEY | u64::from(pattern),
        ),
        AtaMethod::SecurityErase { .. } => (0, 0, 0),
    }
}

/// How an ATA purge ended (serialized as its text: `completed`, `interrupted`, `failed: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtaEnded {
    /// The drive finished the operation.
    Completed,
    /// Watching stopped (Ctrl-C); the drive goes on.
    Interrupted,
    /// The command failed; what the drive or the transport said.
    Failed(String),
}

impl std::fmt::Display for AtaEnded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AtaEnded::Completed => f.write_str("completed"),
            AtaEnded::Interrupted => f.write_str("interrupted"),
            AtaEnded::Failed(why) => write!(f, "failed: {why}"),
        }
    }
}

impl Serialize for AtaEnded {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// How an ATA purge ended.
#[derive(Debug, Clone, Serialize)]
pub struct AtaOutcome {
    /// How it ended.
    pub ended: AtaEnded,
    /// True when the drive reported success.
    pub success: bool,
    /// The way out when it did not.
    #[serde(skip)]
    pub advice: Option<Next>,
}

/// Runs the method to its end: SANITIZE DEVICE then SANITIZE STATUS EXT until it is no longer
/// in progress; or SET PASSWORD, ERASE PREPARE, ERASE UNIT (blocking) then IDENTIFY to check
/// the security state is back to disabled. `password` is used by SECURITY ERASE only.
///
/// `_gate` is the safety gate's token ([`crate::ops::gate::clear`]): without it the call
/// does not compile (E0061: wrong number of arguments):
///
/// ```compile_fail,E0061
/// # fn f(t: &mut dyn sgctl::Transport, m: &sgctl::ops::ata_sanitize::AtaMethod,
/// #      cfg: &sgctl::ops::poll::PollConfig) -> sgctl::Result<()> {
/// sgctl::ops::ata_sanitize::run(t, m, b"pw", std::time::Duration::from_secs(60), cfg, &mut |_| {})?;
/// # Ok(()) }
/// ```
pub fn run(
    t: &mut dyn Transport,
    _gate: &Cleared,
    m: &AtaMethod,
    password: &[u8],
    erase_timeout: Duration,
    cfg: &PollConfig,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<AtaOutcome> {
    match m {
        AtaMethod::SecurityErase { enhanced } => {
            security_erase(t, *enhanced, password, erase_timeout)
        }
        _ => {
            let (f, count, lba) = sanitize_args(m);
            crate::cmd::ata::sanitize(t, f, count, lba, Duration::from_secs(60))
                .map_err(|e| frozen_hint(e, m))?;
            poll_sanitize(t, cfg, progress)
        }
    }
}

/// Turns an ABRT of a sanitize/security command into a refusal with the advice when the drive
/// turns out to be frozen (the state can change between planning and starting).
fn frozen_hint(e: Error, m: &AtaMethod) -> Error {
    match e {
        Error::Ata(a) => Refusal::AtaAborted {
            method: m.name().to_string(),
            error: a,
            advice: Next::AtaFrozen,
        }
        .into(),
        e => e,
    }
}

/// Polls SANITIZE STATUS EXT (the operation survives power cycles: polling just continues).
pub(crate) fn poll_sanitize(
    t: &mut dyn Transport,
    cfg: &PollConfig,
    progress: &mut dyn FnMut(Option<f64>),
) -> Result<AtaOutcome> {
    let mut errors = 0u32;
    loop {
        if cfg.interrupted.load(Ordering::Relaxed) {
            return Ok(AtaOutcome {
                ended: AtaEnded::Interrupted,
                success: false,
                advice: Some(Next::SanitizeContinues {
                    address: t.address(),
                }),
            });
        }
        match crate::cmd::ata::sanitize_status(t) {
            Ok(s) if s.in_progress => {
                errors = 0;
                progress(Some(s.percent()));
            }
            Ok(s) => {
                progress(Some(100.0));
                return Ok(AtaOutcome {
                    ended: AtaEnded::Completed,
                    success: s.completed_without_error,
                    advice: (!s.completed_without_error).then(|| {
                        Next::Note(
                            "SANITIZE STATUS EXT does not report \"completed without error\"".into(),
                        )
                    }),
                });
            }
            Err(Error::Ata(a)) => {
                return Ok(AtaOutcome {
                    ended: AtaEnded::Failed(a.to_string()),
                    success: false,
                    advice: Some(Next::Note(
                        "the sanitize failed (SANITIZE DEVICE ERROR REASON in LBA 7:0); the drive \
                         stays in the sanitize failure state until a sanitize completes: run it again"
                            .into(),
                    )),
                })
            }
            Err(e) => {
                errors += 1;
                if errors > cfg.max_errors {
                    return Err(e);
                }
            }
        }
        (cfg.sleep)(cfg.interval);
    }
}

fn security_erase(
    t: &mut dyn Transport,
    enhanced: bool,
    password: &[u8],
    timeout: Duration,
) -> Result<AtaOutcome> {
    let m = AtaMethod::SecurityErase { enhanced };
    let user = SecurityBlock::new(password, false, false);
    crate::cmd::ata::security_out(
        t,
        cmd::SECURITY_SET_PASSWORD,
        &user,
        crate::cmd::ata::TIMEOUT,
    )
    .map_err(|e| frozen_hint(e, &m))?;
    let erase = SecurityBlock::new(password, false, enhanced);
    let r = crate::cmd::ata::security_none(t, cmd::SECURITY_ERASE_PREPARE)
        .and_then(|()| crate::cmd::ata::security_out(t, cmd::SECURITY_ERASE_UNIT, &erase, timeout));
    if let Err(e) = r {
        // Leave the drive as we found it: remove the password we just set.
        let undo = crate::cmd::ata::security_out(
            t,
            cmd::SECURITY_DISABLE_PASSWORD,
            &user,
            crate::cmd::ata::TIMEOUT,
        );
        let advice = match undo {
            Ok(()) => Next::AtaPasswordRemoved,
            Err(_) => Next::AtaPasswordLeft,
        };
        return Ok(AtaOutcome {
            ended: AtaEnded::Failed(e.to_string()),
            success: false,
            advice: Some(advice),
        });
    }
    let id = crate::cmd::ata::read_identify(t, ata::CdbSize::Sixteen)?;
    let clean = !id.security.enabled && !id.security.locked;
    Ok(AtaOutcome {
        ended: AtaEnded::Completed,
        success: clean,
        advice: (!clean).then(|| {
            Next::Note(format!(
                "SECURITY ERASE UNIT returned, but the security state is \"{}\" (expected disabled)",
                id.security_state()
            ))
        }),
    })
}

/// Timeout for SECURITY ERASE UNIT: twice the drive's estimate (IDENTIFY words 89/90), at
/// least 10 minutes when it gives none.
pub(crate) fn erase_timeout(s: &AtaSupport, m: &AtaMethod) -> Duration {
    let mins = s
        .methods
        .iter()
        .find(|x| x.method == *m)
        .and_then(|x| x.minutes)
        .unwrap_or(5);
    Duration::from_secs(u64::from(mins.max(5)) * 120 + 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ata::identify;

    /// IDENTIFY with the given word 59 (sanitize) and 128 (security).
    fn id(w59: u16, w128: u16) -> Identify {
        let mut b = vec![0u8; 512];
        b[118..120].copy_from_slice(&w59.to_le_bytes());
        b[256..258].copy_from_slice(&w128.to_le_bytes());
        identify::parse(&b).unwrap()
    }

    fn status(frozen: bool) -> SanitizeStatus {
        SanitizeStatus {
            completed_without_error: false,
            in_progress: false,
            frozen,
            antifreeze: false,
            progress: 0xFFFF,
        }
    }

    #[test]
    fn auto_picks_the_strongest_usable() {
        // Sanitize with block erase + overwrite, security with enhanced erase.
        let s = support_from(&id(0xD000, 0x0021), Some(&status(false)));
        assert_eq!(choose(&s, None).unwrap(), AtaMethod::BlockErase);
        let s = support_from(&id(0xF000, 0x0021), Some(&status(false)));
        assert_eq!(choose(&s, None).unwrap(), AtaMethod::CryptoScramble);
        // No Sanitize feature set: enhanced security erase, then normal.
        let s = support_from(&id(0, 0x0021), None);
        assert_eq!(
            choose(&s, None).unwrap(),
            AtaMethod::SecurityErase { enhanced: true }
        );
        let s = support_from(&id(0, 0x0001), None);
        assert_eq!(
            choose(&s, None).unwrap(),
            AtaMethod::SecurityErase { enhanced: false }
        );
        assert!(matches!(
            choose(&support_from(&id(0, 0), None), None),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn frozen_is_refused_with_the_advice_and_falls_back_when_it_can() {
        // Security frozen, sanitize not: auto still uses SANITIZE; security erase is refused.
        let s = support_from(&id(0xD000, 0x0029), Some(&status(false)));
        assert_eq!(choose(&s, None).unwrap(), AtaMethod::BlockErase);
        let e = choose(&s, Some(AtaMethod::SecurityErase { enhanced: false })).unwrap_err();
        let msg = e.to_string();
        let advice = |e: &Error| match e {
            Error::Refused(Refusal::AtaMethodBlocked { advice, .. }) => advice.clone(),
            e => panic!("{e:?}"),
        };
        assert_eq!(advice(&e), Next::AtaFrozen);
        assert!(msg.contains("FROZEN"), "{msg}");
        // Both frozen: nothing usable, refused with the advice.
        let s = support_from(&id(0xD000, 0x0029), Some(&status(true)));
        assert_eq!(s.advice, Some(Next::AtaFrozen));
        let e = choose(&s, None).unwrap_err();
        assert_eq!(advice(&e), Next::AtaFrozen);
        assert!(e.to_string().contains("Sanitize Frozen"), "{e}");
        // Locked: unlock first.
        let s = support_from(&id(0, 0x0007), None);
        let e = choose(&s, None).unwrap_err();
        assert_eq!(advice(&e), Next::AtaUnlockFirst);
        assert!(e.to_string().contains("LOCKED"), "{e}");
    }

    #[test]
    fn planned_commands_never_carry_the_password() {
        for m in [
            AtaMethod::SecurityErase { enhanced: true },
            AtaMethod::BlockErase,
        ] {
            for c in planned(&m) {
                assert!(c.data_out.is_empty(), "{c:?}");
            }
        }
        let b = planned(&AtaMethod::BlockErase);
        assert_eq!(b[0].cdb, "85 07 2c 00 12 00 00 42 72 00 45 00 6b 00 b4 00");
        let c = planned(&AtaMethod::CryptoScramble);
        assert_eq!(c[0].cdb, "85 07 2c 00 11 00 00 43 70 00 79 00 72 00 b4 00");
        assert_eq!(
            AtaMethod::SecurityErase { enhanced: false }.category(),
            "clear"
        );
        assert_eq!(AtaMethod::BlockErase.category(), "purge");
    }
}
