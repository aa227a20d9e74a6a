//! `sgctl tcg discover|status|bands|configure-band|lock|unlock|take-ownership|erase|revert`.
//!
//! Credentials (PINs, PSIDs) come from a file (`--pin-file`), an environment variable
//! (`--pin-env`), a no-echo prompt on the terminal (`--pin-prompt`) or, for factory-state
//! drives, the drive's own MSID (`--msid`) — never from argv. They are held in
//! [`sgctl::tcg::Pin`] (prints `<redacted>`, wiped on drop) and never reach output, JSON,
//! traces (SECURITY PROTOCOL OUT payloads are redacted in `-vv` dumps) or error messages.

use super::output::{Ctx, Report};
use crate::cli::erase::{run_jobs, SafetyArgs};
use crate::cli::tcg_jobs::{Credential, TcgEraseJob, TcgRevertJob};
use anyhow::{anyhow, Context};
use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::json;
use sgctl::cmd::tcg::enterprise::{self, Band, BandConfig};
use sgctl::cmd::tcg::{self as session, Dialect, Tper};
use sgctl::device::OpenOptions;
use sgctl::scsi::security_protocol as sp;
use sgctl::tcg::level0::{Feature, Level0};
use sgctl::tcg::{opal, Pin, TcgError};
use sgctl::transport::Transport;
use std::fmt::Write as _;
use std::path::PathBuf;

/// `sgctl tcg`: TCG Storage (Enterprise SSC bands, Opal identification, PSID revert).
#[derive(Debug, Args)]
pub(crate) struct TcgArgs {
    /// The TCG operation.
    #[command(subcommand)]
    pub cmd: TcgCmd,
}

/// Where a credential comes from. PINs are never accepted on the command line.
#[derive(Debug, Args, Default, Clone)]
pub(crate) struct PinArgs {
    /// Read the PIN from this file: its bytes as they are (one trailing newline ignored, at
    /// most 32 bytes); the file must be yours and private (mode 0600).
    #[arg(long, value_name = "FILE")]
    pub pin_file: Option<PathBuf>,
    /// Read the PIN from this environment variable (its bytes as they are).
    #[arg(long, value_name = "VAR")]
    pub pin_env: Option<String>,
    /// Prompt for the PIN on the terminal (no echo).
    #[arg(long)]
    pub pin_prompt: bool,
    /// Use the drive's MSID (factory state: every credential equals the MSID).
    #[arg(long)]
    pub msid: bool,
}

/// Where the new PIN comes from (take-ownership).
#[derive(Debug, Args, Default, Clone)]
pub(crate) struct NewPinArgs {
    /// Read the new PIN from this file (its bytes, at most 32; yours, mode 0600).
    #[arg(long, value_name = "FILE")]
    pub new_pin_file: Option<PathBuf>,
    /// Read the new PIN from this environment variable.
    #[arg(long, value_name = "VAR")]
    pub new_pin_env: Option<String>,
    /// Prompt for the new PIN (twice, no echo).
    #[arg(long)]
    pub new_pin_prompt: bool,
}

/// Where the PSID (printed on the drive label) comes from.
#[derive(Debug, Args, Default, Clone)]
pub(crate) struct PsidArgs {
    /// Read the PSID from this file (its bytes, at most 32; yours, mode 0600).
    #[arg(long, value_name = "FILE")]
    pub psid_file: Option<PathBuf>,
    /// Read the PSID from this environment variable.
    #[arg(long, value_name = "VAR")]
    pub psid_env: Option<String>,
    /// Prompt for the PSID (no echo).
    #[arg(long)]
    pub psid_prompt: bool,
}

/// TCG operations.
#[derive(Debug, Subcommand)]
pub(crate) enum TcgCmd {
    /// Security protocols and Level 0 discovery (every feature descriptor).
    ///
    /// A Level 0 response that does not add up (a descriptor overrunning the length, one too
    /// short for its feature) is decoded as far as the bytes go: the descriptors before are
    /// shown, the problems listed, exit status 9.
    Discover {
        /// Device address.
        device: String,
    },
    /// SSC, locking state, MSID-still-default check and (Enterprise) bands.
    Status {
        /// Device address.
        device: String,
        /// Also try the MSID as the SID's PIN to tell factory from owned credentials. A
        /// failed try counts against SID's TryLimit (5 on many drives, reset by a power cycle).
        #[arg(long)]
        check_ownership: bool,
    },
    /// List Enterprise bands (Locking table rows).
    Bands {
        /// Device address.
        device: String,
        /// Authenticate as each BandMaster with this PIN (else read anonymously).
        #[command(flatten)]
        pin: PinArgs,
    },
    /// Configure an Enterprise band's range and locking (as BandMaster N).
    ConfigureBand {
        /// Device address.
        device: String,
        /// Band number (0 = global range).
        #[arg(long)]
        band: u16,
        /// First LBA (not for band 0).
        #[arg(long, default_value_t = 0)]
        start: u64,
        /// Length in blocks (not for band 0).
        #[arg(long, default_value_t = 0)]
        length: u64,
        /// Enable read and write locking.
        #[arg(long)]
        lock_enabled: bool,
        /// Relock at power cycle.
        #[arg(long)]
        lock_on_reset: bool,
        /// BandMaster N's PIN.
        #[command(flatten)]
        pin: PinArgs,
    },
    /// Lock a band (read and write; as BandMaster N).
    Lock {
        /// Device address.
        device: String,
        /// Band number.
        #[arg(long, default_value_t = 0)]
        band: u16,
        /// BandMaster N's PIN.
        #[command(flatten)]
        pin: PinArgs,
    },
    /// Unlock a band (as BandMaster N).
    Unlock {
        /// Device address.
        device: String,
        /// Band number.
        #[arg(long, default_value_t = 0)]
        band: u16,
        /// BandMaster N's PIN.
        #[command(flatten)]
        pin: PinArgs,
    },
    /// Set SID, EraseMaster and every BandMaster PIN from the MSID to a new PIN. An owned
    /// drive is refused: by Level 0 Block SID state (no try), else by an MSID check that costs
    /// a SID try, not made when SID's try counter shows one try left.
    TakeOwnership {
        /// Device address.
        device: String,
        /// The new PIN.
        #[command(flatten)]
        new_pin: NewPinArgs,
    },
    /// Cryptographic erase of bands (Enterprise `Erase`, as EraseMaster). DESTROYS DATA.
    Erase {
        /// Device address.
        device: String,
        /// Band(s) to erase.
        #[arg(long, required_unless_present = "all")]
        band: Vec<u16>,
        /// Erase every band, 0 (the global range) to MaxRanges: the whole drive. Without it
        /// the record and certificate state the erased bands' LBA ranges and share of the
        /// capacity, and never call it a purge of the drive.
        #[arg(long, conflicts_with = "band")]
        all: bool,
        /// Validation: read erased blocks back. `quick` (first and last block of each erased
        /// band plus one random block in each of 64 subsections, seed recorded), a number of
        /// blocks, `full` (every erased block) or `none` (the record says "not validated").
        #[arg(long, value_name = "PLAN", default_value = "quick")]
        validate: String,
        /// EraseMaster's PIN.
        #[command(flatten)]
        pin: PinArgs,
        /// Safety gate, audit log, certificate.
        #[command(flatten)]
        safety: SafetyArgs,
    },
    /// PSID revert to factory state (crypto erase of the whole drive). DESTROYS DATA.
    Revert {
        /// Device address.
        device: String,
        /// The PSID from the label.
        #[command(flatten)]
        psid: PsidArgs,
        /// Validation: read blocks back. `quick` (first and last block plus one random block
        /// in each of 64 subsections, hashed before and compared after, seed recorded), a
        /// number of blocks, `full` (the sample, then every block read) or `none` (the record
        /// says "not validated"). Blocks of a locked band cannot be read before: the record
        /// then says "inconclusive".
        #[arg(long, value_name = "PLAN", default_value = "quick")]
        validate: String,
        /// Safety gate, audit log, certificate.
        #[command(flatten)]
        safety: SafetyArgs,
    },
}

fn read_secret(
    file: Option<&PathBuf>,
    env: Option<&String>,
    prompt: bool,
    what: &str,
    confirm_twice: bool,
) -> anyhow::Result<Option<Pin>> {
    let n = usize::from(file.is_some()) + usize::from(env.is_some()) + usize::from(prompt);
    if n > 1 {
        return Err(anyhow!(sgctl::Error::InvalidArgument(format!(
            "give the {what} one way only (file, environment variable or prompt)"
        ))));
    }
    if let Some(f) = file {
        // Bytes as they are (no text conversion: two different binary PINs stay different),
        // from a file of the caller's that nobody else can read, at most 32 bytes.
        let b = sgctl::files::read_secret(f, what, sgctl::files::MAX_CREDENTIAL_BYTES)
            .map_err(|e| anyhow!(e))?;
        return Ok(Some(Pin::new(b.to_vec())));
    }
    if let Some(v) = env {
        use std::os::unix::ffi::OsStringExt;
        let s = std::env::var_os(v).ok_or_else(|| {
            anyhow!(sgctl::Error::InvalidArgument(format!(
                "environment variable {v} (the {what}) is not set"
            )))
        })?;
        let b = zeroize::Zeroizing::new(s.into_vec());
        return credential(&b, what, &format!("environment variable {v}")).map(Some);
    }
    if prompt {
        let p = zeroize::Zeroizing::new(
            rpassword::prompt_password(format!("{what}: "))
                .with_context(|| format!("reading the {what} from the terminal"))?,
        );
        if confirm_twice {
            let again = zeroize::Zeroizing::new(
                rpassword::prompt_password(format!("{what} again: "))
                    .with_context(|| format!("reading the {what} from the terminal"))?,
            );
            if *again != *p {
                return Err(anyhow!(sgctl::Error::InvalidArgument(format!(
                    "the two {what} entries differ"
                ))));
            }
        }
        return credential(p.as_bytes(), what, "the terminal").map(Some);
    }
    Ok(None)
}

/// A credential from `b` (one trailing `\n` or `\r\n` removed): not empty, at most the
/// 32 bytes of a TCG C_PIN; the bytes as they are, whatever their encoding.
fn credential(b: &[u8], what: &str, source: &str) -> anyhow::Result<Pin> {
    let b = b
        .strip_suffix(b"\r\n")
        .or_else(|| b.strip_suffix(b"\n"))
        .unwrap_or(b);
    let max = sgctl::files::MAX_CREDENTIAL_BYTES;
    if b.is_empty() || b.len() > max {
        return Err(anyhow!(sgctl::Error::InvalidArgument(format!(
            "the {what} from {source} is {} bytes; a credential is 1 to {max} bytes",
            b.len()
        ))));
    }
    Ok(Pin::new(b.to_vec()))
}

const NO_PIN: &str = "give a PIN with --pin-file FILE, --pin-env VAR, --pin-prompt or --msid \
                      (PINs are never taken from the command line)";

fn pin_of(t: &mut Tper<'_>, p: &PinArgs, what: &str) -> anyhow::Result<Pin> {
    if p.msid {
        if p.pin_file.is_some() || p.pin_env.is_some() || p.pin_prompt {
            return Err(anyhow!(sgctl::Error::InvalidArgument(
                "--msid and another PIN source exclude each other".into()
            )));
        }
        return enterprise::read_msid(t).map_err(tcg_err);
    }
    read_secret(
        p.pin_file.as_ref(),
        p.pin_env.as_ref(),
        p.pin_prompt,
        what,
        false,
    )?
    .ok_or_else(|| anyhow!(sgctl::Error::InvalidArgument(NO_PIN.into())))
}

fn tcg_err(e: TcgError) -> anyhow::Error {
    anyhow!(sgctl::Error::from(e))
}

/// Runs `sgctl tcg ...`.
pub(crate) fn run(ctx: &mut Ctx, args: TcgArgs) -> anyhow::Result<Report> {
    match args.cmd {
        TcgCmd::Discover { device } => discover(ctx, &device),
        TcgCmd::Status {
            device,
            check_ownership,
        } => status(ctx, &device, check_ownership),
        TcgCmd::Bands { device, pin } => bands(ctx, &device, &pin),
        TcgCmd::ConfigureBand {
            device,
            band,
            start,
            length,
            lock_enabled,
            lock_on_reset,
            pin,
        } => {
            let cfg = BandConfig {
                range_start: start,
                range_length: length,
                lock_enabled,
                lock_on_reset,
            };
            let mut t = sgctl::device::open(&device, OpenOptions::traced(ctx.verbose))?.transport;
            let mut h = Tper::open(&mut *t).map_err(tcg_err)?;
            enterprise::check_band(&mut h, band).map_err(tcg_err)?;
            let p = pin_of(&mut h, &pin, &format!("BandMaster{band} PIN"))?;
            enterprise::configure_band(&mut h, band, &p, &cfg).map_err(tcg_err)?;
            let b = enterprise::get_band(&mut h, band, Some(&p)).map_err(tcg_err)?;
            Ok(Report::new(
                Some(device.as_str()),
                &b,
                format!(
                    "band {band} configured\n{}",
                    band_table(std::slice::from_ref(&b))
                ),
            ))
        }
        TcgCmd::Lock { device, band, pin } => lock(ctx, &device, band, &pin, true),
        TcgCmd::Unlock { device, band, pin } => lock(ctx, &device, band, &pin, false),
        TcgCmd::TakeOwnership { device, new_pin } => {
            let mut t = sgctl::device::open(&device, OpenOptions::traced(ctx.verbose))?.transport;
            let mut h = Tper::open(&mut *t).map_err(tcg_err)?;
            let new = read_secret(
                new_pin.new_pin_file.as_ref(),
                new_pin.new_pin_env.as_ref(),
                new_pin.new_pin_prompt,
                "new PIN",
                true,
            )?
            .ok_or_else(|| {
                anyhow!(sgctl::Error::InvalidArgument(
                    "give the new PIN with --new-pin-file, --new-pin-env or --new-pin-prompt"
                        .into()
                ))
            })?;
            if new.is_empty() {
                return Err(anyhow!(sgctl::Error::InvalidArgument(
                    "the new PIN is empty".into()
                )));
            }
            // Block SID Authentication (Level 0 feature 0x0402) says, without a try, whether
            // SID's PIN is still the MSID (byte 4 bit 0, SID Value State).
            let sid_changed = h.level0.features.iter().any(|f| {
                matches!(f, sgctl::tcg::level0::Feature::BlockSid { flags, .. } if flags & 1 != 0)
            });
            if sid_changed {
                return Err(anyhow!(sgctl::Error::InvalidArgument(format!(
                    "{device} is already owned: Level 0 (Block SID Authentication) reports that \
                     SID's PIN is no longer the MSID; nothing was tried. To start over: \
                     `sgctl tcg revert {} --psid-file FILE` with the PSID from the label",
                    crate::cli::advice::sh(&device)
                ))));
            }
            // Without Block SID, the only test of "SID's PIN is still the MSID" is an
            // authentication with the MSID (sedutil's and go-tcg's takeOwnership do the same),
            // and on an owned drive that costs a SID try. The try counter, where the drive
            // shows it to Anybody (C_PIN_SID TryLimit/Tries), says beforehand whether that try
            // would be the last one: then nothing is tried, as a lock-out could not be undone
            // without a power cycle.
            if let Some((limit, tries)) =
                h.try_counter(sgctl::tcg::uid::ADMIN_SP, sgctl::tcg::uid::AUTH_SID)
            {
                if limit > 0 && tries.saturating_add(1) >= limit {
                    return Err(anyhow!(sgctl::Error::CheckFailed(format!(
                        "{device}: SID has {} of {limit} tries left (C_PIN_SID TryLimit {limit}, \
                         Tries {tries}): checking whether its PIN is still the MSID could lock \
                         SID out, so nothing was tried. The count of failed tries means the \
                         drive is most likely owned already; a power cycle resets the counter. \
                         To start over: `sgctl tcg revert {} --psid-file FILE` with the PSID \
                         from the label",
                        limit.saturating_sub(tries),
                        crate::cli::advice::sh(&device)
                    ))));
                }
            }
            let o = match enterprise::take_ownership(&mut h, &new) {
                Err(TcgError::AuthFailed(who)) if who.starts_with("SID") => {
                    return Err(anyhow!(sgctl::Error::CheckFailed(format!(
                        "{device} is already owned: SID's PIN is not the MSID (checked by \
                         authenticating as SID with the MSID; wrong PIN for {who}). Nothing was \
                         changed. To start over: `sgctl tcg revert {} --psid-file FILE` with the \
                         PSID from the label",
                        crate::cli::advice::sh(&device)
                    ))));
                }
                r => r.map_err(tcg_err)?,
            };
            let text = format!(
                "ownership taken: new PIN set for {}\n",
                o.authorities.join(", ")
            );
            Ok(Report::new(Some(device.as_str()), &o, text))
        }
        TcgCmd::Erase {
            device,
            band,
            all,
            validate,
            pin,
            safety,
        } => erase(ctx, &device, band, all, &validate, &pin, &safety),
        TcgCmd::Revert {
            device,
            psid,
            validate,
            safety,
        } => revert(ctx, &device, &psid, &validate, &safety),
    }
}

#[derive(Serialize)]
struct Discovery<'a> {
    security_protocols: Vec<u8>,
    inc_512: sp::Inc512,
    level0: &'a Level0,
    ssc: Option<&'static str>,
}

fn feature_text(f: &Feature) -> String {
    match f {
        Feature::Tper {
            sync,
            asynchronous,
            ack_nak,
            buffer_mgmt,
            streaming,
            comid_mgmt,
        } => format!(
            "TPer (0x0001): sync={} async={} ack_nak={} buffer_mgmt={} streaming={} comid_mgmt={}",
            yn(*sync),
            yn(*asynchronous),
            yn(*ack_nak),
            yn(*buffer_mgmt),
            yn(*streaming),
            yn(*comid_mgmt)
        ),
        Feature::Locking {
            supported,
            enabled,
            locked,
            media_encryption,
            mbr_enabled,
            mbr_done,
            ..
        } => format!(
            "Locking (0x0002): supported={} enabled={} locked={} media_encryption={} mbr_enabled={} mbr_done={}",
            yn(*supported),
            yn(*enabled),
            yn(*locked),
            yn(*media_encryption),
            yn(*mbr_enabled),
            yn(*mbr_done)
        ),
        Feature::Geometry {
            align,
            logical_block_size,
            alignment_granularity,
            lowest_aligned_lba,
        } => format!(
            "Geometry (0x0003): align={} logical_block_size={logical_block_size} alignment_granularity={alignment_granularity} lowest_aligned_lba={lowest_aligned_lba}",
            yn(*align)
        ),
        Feature::Ssc(s) => {
            let mut t = format!(
                "{}: base_comid=0x{:04x} num_comids={}",
                s.ssc.name(),
                s.base_comid,
                s.num_comids
            );
            if let Some(rc) = s.range_crossing {
                let _ = write!(t, " range_crossing={}", yn(rc));
            }
            if let (Some(a), Some(u)) = (s.locking_admins, s.locking_users) {
                let _ = write!(t, " locking_admins={a} locking_users={u}");
            }
            t
        }
        Feature::SingleUserMode {
            num_locking_objects,
            flags,
        } => format!(
            "Single User Mode (0x0201): locking_objects={num_locking_objects} flags=0x{flags:02x}"
        ),
        Feature::DataStore {
            max_tables,
            max_size,
            alignment,
        } => format!("DataStore (0x0202): max_tables={max_tables} max_size={max_size} alignment={alignment}"),
        Feature::BlockSid { flags, hw_reset } => {
            format!("Block SID (0x0402): flags=0x{flags:02x} hw_reset=0x{hw_reset:02x}")
        }
        Feature::DataRemoval {
            processing,
            interrupted,
            supported_mechanisms,
        } => format!(
            "Data Removal (0x0404): processing={} interrupted={} mechanisms=0x{supported_mechanisms:02x}",
            yn(*processing),
            yn(*interrupted)
        ),
        Feature::Unknown {
            code,
            version,
            data,
        } => format!("feature 0x{code:04x} v{version}: {data}"),
    }
}

fn yn(b: bool) -> &'static str {
    if b {
        "Y"
    } else {
        "N"
    }
}

fn discover(ctx: &mut Ctx, device: &str) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(device, OpenOptions::traced(ctx.verbose))?.transport;
    discover_on(ctx, device, &mut *t)
}

fn discover_on(ctx: &mut Ctx, device: &str, t: &mut dyn Transport) -> anyhow::Result<Report> {
    let (l0, inc, protos) = session::discover(t).map_err(tcg_err)?;
    let mut text = format!(
        "security protocols: {}\n",
        protos
            .iter()
            .map(|p| format!("0x{p:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(text, "Level 0 discovery (revision {}):", l0.revision);
    for f in &l0.features {
        let _ = writeln!(text, "  {}", feature_text(f));
    }
    let ssc = l0.ssc().map(|s| s.ssc.name());
    let _ = writeln!(text, "SSC: {}", ssc.unwrap_or("none"));
    // Level 0 is decoded as far as the bytes go: what did not add up is listed, exit 9.
    text.push_str(&sgctl::decode::vpd_text::problems(&l0.problems));
    let d = Discovery {
        security_protocols: protos,
        inc_512: inc,
        level0: &l0,
        ssc,
    };
    let r = Report::new(Some(device), &d, text);
    Ok(super::vpd::with_problems(ctx, r, !l0.problems.is_empty()))
}

#[derive(Serialize)]
struct Status {
    ssc: &'static str,
    comid: u16,
    locking_enabled: bool,
    locked: bool,
    media_encryption: bool,
    /// True if the MSID still opens the SID (factory credentials; Enterprise only).
    sid_is_msid: Option<bool>,
    bands: Vec<Band>,
    opal: Option<opal::OpalState>,
}

fn status(ctx: &mut Ctx, device: &str, check_ownership: bool) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(device, OpenOptions::traced(ctx.verbose))?.transport;
    let mut h = Tper::open(&mut *t).map_err(tcg_err)?;
    let ssc = h.level0.ssc().map(|s| s.ssc.name()).unwrap_or("none");
    let (en, locked, me) = h.level0.locking().unwrap_or((false, false, false));
    let mut st = Status {
        ssc,
        comid: h.comid,
        locking_enabled: en,
        locked,
        media_encryption: me,
        sid_is_msid: None,
        bands: vec![],
        opal: opal::state(&h.level0),
    };
    if h.dialect == Dialect::Enterprise && check_ownership {
        let msid = enterprise::read_msid(&mut h).map_err(tcg_err)?;
        // A read-only session authenticated as SID with the MSID tells whether the drive
        // still has factory credentials. A failed try counts against SID's TryLimit, as
        // sedutil's and go-tcg's checks do.
        st.sid_is_msid = Some(
            match h.start_session(
                sgctl::tcg::uid::ADMIN_SP,
                false,
                Some((sgctl::tcg::uid::AUTH_SID, &msid)),
            ) {
                Ok(s) => {
                    s.end().map_err(tcg_err)?;
                    true
                }
                Err(TcgError::AuthFailed(_)) => false,
                Err(e) => return Err(tcg_err(e)),
            },
        );
    }
    if h.dialect == Dialect::Enterprise {
        st.bands = enterprise::list_bands(&mut h, None).map_err(tcg_err)?;
    }
    let mut text = format!(
        "SSC: {}  ComID: 0x{:04x}\nlocking enabled: {}  locked: {}  media encryption: {}\n",
        st.ssc,
        st.comid,
        yn(en),
        yn(locked),
        yn(me)
    );
    if let Some(s) = st.sid_is_msid {
        let _ = writeln!(
            text,
            "credentials: {}",
            if s {
                "factory (SID = MSID; take ownership to protect the drive)"
            } else {
                "owned (SID differs from MSID)"
            }
        );
    }
    if !st.bands.is_empty() {
        text.push_str(&band_table(&st.bands));
    }
    Ok(Report::new(Some(device), &st, text))
}

fn band_table(bands: &[Band]) -> String {
    let mut t = format!(
        "{:>4} {:>14} {:>14} {:>6} {:>6} {:>5}\n",
        "band", "range_start", "range_length", "lock", "locked", "lor"
    );
    for b in bands {
        let _ = writeln!(
            t,
            "{:>4} {:>14} {:>14} {:>6} {:>6} {:>5}",
            b.number,
            b.range_start,
            if b.number == 0 {
                "whole drive".to_string()
            } else {
                b.range_length.to_string()
            },
            match (b.read_lock_enabled, b.write_lock_enabled) {
                (true, true) => "rw",
                (true, false) => "r",
                (false, true) => "w",
                _ => "-",
            },
            match (b.read_locked, b.write_locked) {
                (true, true) => "rw",
                (true, false) => "r",
                (false, true) => "w",
                _ => "-",
            },
            yn(b.lock_on_reset)
        );
    }
    t
}

fn bands(ctx: &mut Ctx, device: &str, pin: &PinArgs) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(device, OpenOptions::traced(ctx.verbose))?.transport;
    let mut h = Tper::open(&mut *t).map_err(tcg_err)?;
    let given = pin.msid || pin.pin_file.is_some() || pin.pin_env.is_some() || pin.pin_prompt;
    let p = if given {
        Some(pin_of(&mut h, pin, "BandMaster PIN")?)
    } else {
        None
    };
    let b = enterprise::list_bands(&mut h, p.as_ref()).map_err(tcg_err)?;
    let text = band_table(&b);
    Ok(Report::new(Some(device), &b, text))
}

fn lock(ctx: &mut Ctx, device: &str, band: u16, pin: &PinArgs, on: bool) -> anyhow::Result<Report> {
    let mut t = sgctl::device::open(device, OpenOptions::traced(ctx.verbose))?.transport;
    let mut h = Tper::open(&mut *t).map_err(tcg_err)?;
    // A band the drive lacks is refused before the PIN is asked for or tried.
    enterprise::check_band(&mut h, band).map_err(tcg_err)?;
    let p = pin_of(&mut h, pin, &format!("BandMaster{band} PIN"))?;
    enterprise::set_locked(&mut h, band, &p, on).map_err(tcg_err)?;
    let b = enterprise::get_band(&mut h, band, Some(&p)).map_err(tcg_err)?;
    let text = format!("band {band} {}\n", if on { "locked" } else { "unlocked" });
    Ok(Report::new(Some(device), &b, text))
}

fn erase(
    ctx: &mut Ctx,
    device: &str,
    bands: Vec<u16>,
    all: bool,
    validate: &str,
    pin: &PinArgs,
    sa: &SafetyArgs,
) -> anyhow::Result<Report> {
    // Band numbers are checked against the drive's Locking table before the gate, the
    // confirmation and any authenticated session (the job checks again before it erases).
    if !all && !bands.is_empty() {
        let mut t = sgctl::device::open(device, OpenOptions::traced(ctx.verbose))?.transport;
        // A drive that is no Enterprise SED is left to the job, which records why.
        if let Ok(mut h) = Tper::open(&mut *t) {
            if h.dialect == Dialect::Enterprise {
                for &n in &bands {
                    enterprise::check_band(&mut h, n).map_err(tcg_err)?;
                }
            }
        }
    }
    let credential = if pin.msid {
        if pin.pin_file.is_some() || pin.pin_env.is_some() || pin.pin_prompt {
            return Err(anyhow!(sgctl::Error::InvalidArgument(
                "--msid and another PIN source exclude each other".into()
            )));
        }
        Credential::Msid
    } else {
        // Asked before the gate and before any job runs (jobs may run in parallel).
        Credential::Pin(
            read_secret(
                pin.pin_file.as_ref(),
                pin.pin_env.as_ref(),
                pin.pin_prompt,
                "EraseMaster PIN",
                false,
            )?
            .ok_or_else(|| anyhow!(sgctl::Error::InvalidArgument(NO_PIN.into())))?,
        )
    };
    let mut job = TcgEraseJob::new(if all { None } else { Some(bands.clone()) }, credential);
    job.validate = sgctl::ops::validate::Plan::parse(validate)?;
    job.seed = sgctl::ops::validate::run_seed();
    let params = json!({"method": "tcg_cryptographic_erase", "bands": if all { json!("all") } else { json!(bands) },
                        "validate": job.validate});
    run_jobs(ctx, &[device.to_string()], sa, params, move || {
        Box::new(job.clone())
    })
}

fn revert(
    ctx: &mut Ctx,
    device: &str,
    psid: &PsidArgs,
    validate: &str,
    sa: &SafetyArgs,
) -> anyhow::Result<Report> {
    let p = read_secret(
        psid.psid_file.as_ref(),
        psid.psid_env.as_ref(),
        psid.psid_prompt,
        "PSID",
        false,
    )?
    .ok_or_else(|| {
        anyhow!(sgctl::Error::InvalidArgument(
            "give the PSID (from the drive label) with --psid-file, --psid-env or --psid-prompt"
                .into()
        ))
    })?;
    let mut job = TcgRevertJob::new(p);
    job.validate = sgctl::ops::validate::Plan::parse(validate)?;
    job.seed = sgctl::ops::validate::run_seed();
    let params = json!({"method": "tcg_psid_revert", "validate": job.validate});
    run_jobs(ctx, &[device.to_string()], sa, params, move || {
        Box::new(job.clone())
    })
}

#[cfg(test)]
mod discover_tests {
    use super::*;
    use sgctl::transport::{Completion, DataBuf};
    use std::time::Duration;

    /// Answers SECURITY PROTOCOL IN: protocol 0 lists 0x00 and 0x01, protocol 1 returns `0`.
    struct Level0Drive(Vec<u8>);

    impl Transport for Level0Drive {
        fn execute(
            &mut self,
            cdb: &[u8],
            data: DataBuf<'_>,
            _timeout: Duration,
        ) -> sgctl::Result<Completion> {
            assert!(
                cdb[0] == 0xa2 || cdb[0] == 0xa3,
                "only RSOC and SECURITY PROTOCOL IN are expected"
            );
            // RSOC one-command for SECURITY PROTOCOL IN: supported (SUPPORT 011b).
            let resp = if cdb[0] == 0xa3 {
                vec![0, 0x03, 0, 12]
            } else if cdb[1] == 0 {
                vec![0, 0, 0, 0, 0, 0, 0, 2, 0x00, 0x01]
            } else {
                self.0.clone()
            };
            let DataBuf::In(b) = data else {
                panic!("data-in expected")
            };
            let n = resp.len().min(b.len());
            b[..n].copy_from_slice(&resp[..n]);
            Ok(Completion {
                resid: b.len() - n,
                ..Completion::default()
            })
        }
        fn address(&self) -> String {
            "test:level0".into()
        }
    }

    fn level0(overrun: bool) -> Vec<u8> {
        let mut b = sgctl::tcg::level0::build(&[(0x0001, 1, vec![0x11; 12])]);
        if overrun {
            // A Locking descriptor announcing 12 bytes with 4 present.
            b.extend_from_slice(&[0x00, 0x02, 0x10, 12, 0x01, 0, 0, 0]);
            let len = (b.len() - 4) as u32;
            b[0..4].copy_from_slice(&len.to_be_bytes());
        }
        b
    }

    #[test]
    fn level0_problems_exit_9_with_what_decoded() {
        let mut ctx = Ctx::default();
        let mut t = Level0Drive(level0(true));
        let r = discover_on(&mut ctx, "test:level0", &mut t).unwrap();
        assert_eq!(r.exit, sgctl::exit::DECODE_PROBLEMS);
        assert!(r.text.contains("TPer (0x0001)"), "{}", r.text);
        assert!(
            r.text.contains("Problems (decoded as far as the bytes go)")
                && r.text.contains("feature 0x0002 at offset 64 overruns"),
            "{}",
            r.text
        );
        let probs = &r.data["level0"]["problems"];
        assert_eq!(probs.as_array().map(Vec::len), Some(1), "{probs}");
        assert!(ctx.messages.iter().any(|m| m.contains("decoded as far as")));

        let mut ctx = Ctx::default();
        let mut t = Level0Drive(level0(false));
        let r = discover_on(&mut ctx, "test:level0", &mut t).unwrap();
        assert_eq!(r.exit, sgctl::exit::OK, "{}", r.text);
        assert!(!r.text.contains("Problems"));
    }
}
