//! `sgctl sanitize DEVICE... --crypto | --block | --overwrite [...] | --exit-failure-mode |
//! --method auto`, and `sgctl sanitize --support DEVICE`.

use crate::cli::erase::{run_jobs, SafetyArgs};
use crate::cli::{Ctx, Report};
use sgctl::error::{Error, Result};
use sgctl::ops::jobs::sanitize::SanitizeJob;
use sgctl::ops::query;
use sgctl::ops::sanitize::{self as san, Method, SanitizeOptions};
use sgctl::scsi::sanitize::{OverwriteParameters, ServiceAction};

/// Sanitize drives (SBC-4 SANITIZE): purge all user data, verified and recorded.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Methods: --method crypto (change the media key), block (erase all blocks), overwrite (write a
pattern), auto (the first the drive supports, in the one auto order: crypto > block > overwrite).
--crypto, --block and --overwrite are the same as --method crypto|block|overwrite.
A sanitize cannot be stopped: it resumes after a power cycle. Ctrl-C only stops watching;
`sgctl wait DEVICE` watches again. After a failure (31/03) use --exit-failure-mode if the failed
sanitize had --ause, otherwise run a sanitize again.
Audit records go to --audit-log, else $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl.")]
pub(crate) struct SanitizeArgs {
    /// Drives to sanitize (several run in parallel, capped per HBA).
    #[arg(value_name = "DEVICE", required_unless_present_any = ["all_matching", "enclosure"])]
    pub devices: Vec<String>,
    /// Also every disk found by `sgctl scan` whose vendor/model/serial/firmware/LU name
    /// contains all words of FILTER (each still needs its --confirm).
    #[arg(long, value_name = "FILTER")]
    pub all_matching: Option<String>,
    /// Also every disk the kernel places in enclosure ID (logical identifier, as `sgctl scan`
    /// shows it), optionally only slots SLOTS (`0-11`, `3`, `0-3,8`); with --all-matching,
    /// the disks matching both (each still needs its --confirm).
    #[arg(long, value_name = "ID[:SLOTS]")]
    pub enclosure: Option<String>,
    /// Only report which sanitize methods the drive supports.
    #[arg(long)]
    pub support: bool,
    /// Same as `--method crypto`: CRYPTOGRAPHIC ERASE.
    #[arg(long, group = "m")]
    pub crypto: bool,
    /// Same as `--method block`: BLOCK ERASE.
    #[arg(long, group = "m")]
    pub block: bool,
    /// Same as `--method overwrite`: OVERWRITE with --pattern (default 4 zero bytes),
    /// --passes, --invert.
    #[arg(long, group = "m")]
    pub overwrite: bool,
    /// EXIT FAILURE MODE: leave the failure state of a sanitize that ran with --ause.
    #[arg(long, group = "m")]
    pub exit_failure_mode: bool,
    /// crypto, block, overwrite, or auto: the first the drive supports in the one auto order
    /// (crypto > block > overwrite; on a SATA drive behind a SATL the ATA methods in the same
    /// order). ATA methods by name: ata-crypto-scramble, ata-block-erase, ata-overwrite,
    /// ata-security-erase, ata-security-erase-enhanced.
    #[arg(long, group = "m", value_name = "METHOD", value_parser = ["crypto", "block",
        "overwrite", "auto", "ata-crypto-scramble", "ata-block-erase", "ata-overwrite",
        "ata-security-erase", "ata-security-erase-enhanced"])]
    pub method: Option<String>,
    /// Overwrite pattern in hex (1..block size bytes), `0x00ff...` or `hex:00ff...`.
    #[arg(long, value_name = "HEX")]
    pub pattern: Option<String>,
    /// Overwrite passes (1..31).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=31))]
    pub passes: u8,
    /// Invert the pattern between passes.
    #[arg(long)]
    pub invert: bool,
    /// AUSE: allow EXIT FAILURE MODE if this sanitize fails.
    #[arg(long)]
    pub ause: bool,
    /// ZNR: zoned drives keep their write pointers.
    #[arg(long)]
    pub znr: bool,
    /// Validation: blocks hashed before and read back after; the purge passes only if none
    /// survived (only hashes are recorded). `quick` (default): first and last block plus one
    /// random block in each of 64 equal subsections, the seed recorded; N: N blocks; `full`:
    /// the quick sample, then every block read back; `none`: the record says "not validated".
    #[arg(long, value_name = "PLAN", conflicts_with = "verify")]
    pub validate: Option<String>,
    /// Same as `--validate N` (N sampled blocks: first, last, random; 0 = none).
    #[arg(long, value_name = "N")]
    pub verify: Option<u32>,
    /// Safety options.
    #[command(flatten)]
    pub safety: SafetyArgs,
}

fn parse_hex(s: &str) -> Result<Vec<u8>> {
    let s = s.trim();
    let s = s
        .strip_prefix("hex:")
        .unwrap_or(s)
        .trim_start_matches("0x")
        .replace([' ', ':'], "");
    if s.is_empty() || !s.len().is_multiple_of(2) {
        return Err(Error::InvalidArgument(format!(
            "--pattern {s:?}: give an even number of hex digits"
        )));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| {
                Error::InvalidArgument(format!("--pattern: bad hex {:?}", &s[i..i + 2]))
            })
        })
        .collect()
}

/// Runs `sgctl sanitize`.
pub(crate) fn run(ctx: &mut Ctx, args: SanitizeArgs) -> anyhow::Result<Report> {
    if args.support {
        return support(ctx, &args.devices);
    }
    let named = args.method.as_deref();
    if (args.pattern.is_some() || args.invert) && !(args.overwrite || named == Some("overwrite")) {
        return Err(Error::InvalidArgument(
            "--pattern and --invert go with --method overwrite".into(),
        )
        .into());
    }
    let method = if args.crypto || named == Some("crypto") {
        Method::Crypto
    } else if args.block || named == Some("block") {
        Method::Block
    } else if args.overwrite || named == Some("overwrite") {
        Method::Overwrite(OverwriteParameters {
            invert: args.invert,
            count: args.passes,
            pattern: match &args.pattern {
                Some(h) => parse_hex(h)?,
                None => vec![0; 4],
            },
        })
    } else if args.exit_failure_mode {
        Method::ExitFailureMode
    } else if args.method.is_some() {
        Method::Auto
    } else {
        return Err(Error::InvalidArgument(
            "pick a method: --method crypto|block|overwrite|auto, or --exit-failure-mode".into(),
        )
        .into());
    };
    // Asked for: `--validate PLAN` or `--verify N`; `None`: the default plan (quick), which
    // a drive that cannot report its capacity (sanitize failure mode) records as not validated.
    let validate = match (args.verify, &args.validate) {
        (Some(0), _) => Some(sgctl::ops::validate::Plan::None),
        (Some(n), _) => Some(sgctl::ops::validate::Plan::Blocks(n)),
        (None, Some(p)) => Some(sgctl::ops::validate::Plan::parse(p)?),
        (None, None) => None,
    };
    let opts = SanitizeOptions {
        method,
        ause: args.ause,
        znr: args.znr,
        verify: args.verify.unwrap_or(0),
        validate,
    };
    let params = serde_json::to_value(&opts).unwrap_or_default();
    let seed = sgctl::ops::validate::run_seed();
    let mut n = 0u64;
    let ata_method = args
        .method
        .as_deref()
        .and_then(crate::cli::ata_jobs::parse_method);
    let devices = crate::cli::erase::resolve_devices(
        &args.devices,
        args.all_matching.as_deref(),
        args.enclosure.as_deref(),
    )?;
    run_jobs(ctx, &devices, &args.safety, params, || {
        n += 1;
        Box::new(
            SanitizeJob::new(opts.clone(), seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .with_ata_method(ata_method),
        )
    })
}

fn support(ctx: &mut Ctx, devices: &[String]) -> anyhow::Result<Report> {
    let mut all = Vec::new();
    let mut text = String::new();
    for d in devices {
        let mut t =
            sgctl::device::open(d, sgctl::device::OpenOptions::traced(ctx.verbose))?.transport;
        let r = san::support(&mut *t)?;
        let wacereq = query::vpd(&mut *t, 0xb1)
            .ok()
            .and_then(|p| p.get(7).copied());
        text.push_str(&format!("{d}:\n"));
        for s in &r.service_actions {
            text.push_str(&format!(
                "  {:<22} {:<14}{}\n",
                s.name,
                match s.support {
                    query::Support::Supported => "supported",
                    query::Support::NotSupported => "not supported",
                    query::Support::Unknown => "unknown",
                },
                s.recommended_timeout_s
                    .map(|t| format!(" recommended timeout {t} s"))
                    .unwrap_or_default()
            ));
        }
        // TCG Level 0 discovery (SECURITY PROTOCOL IN, read-only): an Enterprise/Opal SED
        // can also crypto-erase its bands (`sgctl tcg erase`).
        let tcg = match sgctl::cmd::tcg::discover(&mut *t) {
            Ok((l0, _, _)) => {
                let ssc = l0.ssc().map(|f| f.ssc.name());
                let locking = l0.locking();
                text.push_str(&format!(
                    "  TCG Level 0: {}{}\n",
                    ssc.unwrap_or("no SSC feature"),
                    locking
                        .map(|(en, locked, me)| format!(
                            ", locking {}, {}, media encryption {}",
                            if en { "enabled" } else { "disabled" },
                            if locked { "locked" } else { "unlocked" },
                            if me { "yes" } else { "no" }
                        ))
                        .unwrap_or_default()
                ));
                serde_json::json!({"ssc": ssc, "locking_enabled": locking.map(|l| l.0),
                                   "locked": locking.map(|l| l.1), "media_encryption": locking.map(|l| l.2)})
            }
            Err(e) => {
                text.push_str(&format!("  TCG Level 0: none ({e})\n"));
                serde_json::Value::Null
            }
        };
        // SATA behind a SATL: the SCSI SANITIZE above is what the SATL translates
        // into ATA SANITIZE DEVICE; the ATA side says what the drive really offers.
        let ata = if sgctl::cmd::ata::is_behind_satl(&mut *t, None) {
            match sgctl::ops::ata_sanitize::support(&mut *t) {
                Ok((a, _)) => Some(a),
                Err(e) => {
                    text.push_str(&format!("  ATA side: could not be read ({e})\n"));
                    None
                }
            }
        } else {
            None
        };
        let ata_auto = ata.as_ref().map(|a| {
            text.push_str(&render_ata_support(a));
            sgctl::ops::ata_sanitize::choose(a, None)
                .map(|m| m.name().to_string())
                .map_err(|e| crate::cli::advice::error(&e))
        });
        let best = [
            ServiceAction::CryptoErase,
            ServiceAction::BlockErase,
            ServiceAction::Overwrite,
        ]
        .into_iter()
        .find(|sa| r.of(*sa) == query::Support::Supported);
        if let Some(a) = &ata_auto {
            text.push_str(&format!(
                "  --method auto would use: {}\n",
                match a {
                    Ok(m) => m.clone(),
                    Err(e) => format!("nothing now: {e}"),
                }
            ));
        } else {
            text.push_str(&format!(
                "  --method auto would use: {}\n",
                best.map(|b| format!("SANITIZE {}", b.name()))
                    .or_else(|| {
                        tcg.get("ssc")
                            .and_then(|v| v.as_str())
                            .map(|ssc| format!("TCG erase of every band ({ssc})"))
                    })
                    .unwrap_or_else(|| "nothing (no method reported)".into())
            ));
        }
        let auto_method = match &ata_auto {
            Some(Ok(m)) => Some(m.clone()),
            Some(Err(_)) => None,
            None => best.map(|b| b.name().to_string()),
        };
        all.push(serde_json::json!({
            "device": d,
            "sanitize": r,
            "ata": ata.as_ref().map(ata_json),
            "auto_method": auto_method,
            "tcg_level0": tcg,
            "block_device_characteristics_byte7": wacereq,
        }));
    }
    let dev = (devices.len() == 1).then(|| devices[0].clone());
    Ok(Report::new(
        dev.as_deref(),
        &serde_json::json!({ "drives": all }),
        text,
    ))
}

/// The ATA side of `--support` (SATA behind a SATL).
/// The ATA side as JSON, its typed advice in the CLI's words (`advice`, last as before).
fn ata_json(a: &sgctl::ops::ata_sanitize::AtaSupport) -> serde_json::Value {
    let mut v = serde_json::to_value(a).unwrap_or_default();
    if let Some(m) = v.as_object_mut() {
        m.insert(
            "advice".into(),
            a.advice.as_ref().map(crate::cli::advice::next).into(),
        );
    }
    v
}

fn render_ata_support(a: &sgctl::ops::ata_sanitize::AtaSupport) -> String {
    let mut o = String::from(
        "  (SCSI SANITIZE above is translated by the SATL into ATA SANITIZE DEVICE; \"unknown\" \
         = no REPORT SUPPORTED OPERATION CODES behind this SATL)\n",
    );
    o += &format!(
        "  ATA side (SATL): security {}; sanitize {}\n",
        a.security_state,
        if a.sanitize_frozen {
            "FROZEN"
        } else {
            "not frozen"
        }
    );
    for m in &a.methods {
        o.push_str(&format!(
            "  {:<38} {:<14}{}{}\n",
            m.name,
            if m.usable {
                "supported"
            } else if m.supported {
                "blocked"
            } else {
                "not supported"
            },
            m.blocked_by
                .as_deref()
                .map(|b| format!(" ({b})"))
                .unwrap_or_default(),
            if m.supported {
                format!(
                    "  [{}{}]",
                    m.category,
                    m.minutes.map(|x| format!(", ~{x} min")).unwrap_or_default()
                )
            } else {
                String::new()
            }
        ));
    }
    if let Some(adv) = &a.advice {
        o.push_str(&format!("  advice: {}\n", crate::cli::advice::next(adv)));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::erase::testenv;
    use sgctl::exit;
    use sgctl::ops::gate::is_state_changing;
    use sgctl::ops::jobs::Job;

    fn job(m: Method, verify: u32, ause: bool) -> impl FnMut() -> Box<dyn Job> {
        move || -> Box<dyn Job> {
            Box::new(SanitizeJob::new(
                SanitizeOptions {
                    method: m.clone(),
                    ause,
                    znr: false,
                    verify,
                    validate: None,
                },
                5,
            ))
        }
    }

    #[test]
    fn second_drive_without_matching_confirmation_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a", "b"]);
        let sa = testenv::safety(dir.path(), &["SER-a", "SER-x"], false);
        let r = testenv::run(&drives, &[], &sa, job(Method::Auto, 4, false));
        assert_eq!(r.exit, exit::PARTIAL);
        let recs = r.data["drives"].as_array().unwrap();
        assert_eq!(recs[0]["outcome"], "success");
        assert_eq!(recs[0]["method"], "CRYPTOGRAPHIC ERASE");
        assert_eq!(recs[0]["nist_sp_800_88_category"], "purge");
        assert_eq!(recs[1]["outcome"], "refused");
        assert_eq!(recs[1]["exit_status"], exit::REFUSED);
        // Drive b never saw a state-changing command.
        assert!(drives["mock:b"]
            .st()
            .log
            .iter()
            .all(|c| !is_state_changing(c)));
        assert!(drives["mock:a"].opcodes().contains(&0x48));
        // Audit: start and end for drive a only, same job id; then the batch manifest's record
        // (naming both drives, the refused one too).
        let lines = testenv::audit_lines(dir.path());
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[2]["event"], "manifest");
        assert_eq!(lines[2]["drives"], 2);
        assert_eq!(lines[0]["event"], "start");
        assert_eq!(lines[0]["device"], "mock:a");
        assert_eq!(lines[1]["outcome"], "success");
        // Certificate: JSON + text; only hashes of sampled blocks, never data.
        let cert: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("cert.json")).unwrap()).unwrap();
        let v = &cert["certificates"][0]["verification"];
        assert_eq!(v["passed"], true);
        for s in v["samples"].as_array().unwrap() {
            assert_eq!(s["before_sha256"].as_str().unwrap().len(), 64);
        }
        let txt = std::fs::read_to_string(dir.path().join("cert.json.txt")).unwrap();
        assert!(txt.contains("SER-a") && txt.contains("PASSED"), "{txt}");
    }

    #[test]
    fn dry_run_sends_nothing_and_lists_cdbs() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a"]);
        let sa = testenv::safety(dir.path(), &[], true);
        let ow = Method::Overwrite(OverwriteParameters {
            invert: true,
            count: 2,
            pattern: vec![0xa5],
        });
        let r = testenv::run(&drives, &[], &sa, job(ow, 0, false));
        assert_eq!(r.exit, exit::OK);
        assert!(
            r.text.contains("would send SANITIZE OVERWRITE"),
            "{}",
            r.text
        );
        assert!(
            r.text
                .contains("cdb: 48 81 00 00 00 00 00 00 05 00  data: 82 00 00 01 a5"),
            "{}",
            r.text
        );
        let log = drives["mock:a"].st().log.clone();
        assert!(!log.is_empty());
        assert!(log.iter().all(|c| !is_state_changing(c)), "{log:?}");
        assert!(!dir.path().join("audit.jsonl").exists());
    }

    #[test]
    fn in_use_drive_is_refused_before_anything_is_sent() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a"]);
        let sa = testenv::safety(dir.path(), &["SER-a"], false);
        let r = testenv::run(&drives, &["a"], &sa, job(Method::Crypto, 0, false));
        assert_eq!(r.exit, exit::REFUSED);
        assert!(r.text.contains("a1 is mounted on /srv"), "{}", r.text);
        assert!(drives["mock:a"]
            .st()
            .log
            .iter()
            .all(|c| !is_state_changing(c)));
    }

    #[test]
    fn failing_sanitize_exits_4_with_the_way_out() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a"]);
        drives["mock:a"].st().fail_sanitize = true;
        let mut sa = testenv::safety(dir.path(), &["SER-a"], false);
        // The runs below write the same certificate again.
        sa.force = true;
        let r = testenv::run(&drives, &[], &sa, job(Method::Block, 0, true));
        assert_eq!(r.exit, exit::COMMAND);
        let rec = &r.data["drives"][0];
        assert_eq!(rec["outcome"], "failed");
        assert!(rec["advice"]
            .as_str()
            .unwrap()
            .contains("--exit-failure-mode"));
        assert!(rec["sense_trail"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["asc"] == 0x31 && e["ascq"] == 3));
        // Then --exit-failure-mode gets the drive back.
        drives["mock:a"].st().fail_sanitize = false;
        let r = testenv::run(&drives, &[], &sa, job(Method::ExitFailureMode, 0, false));
        assert_eq!(r.exit, exit::OK, "{}", r.text);
    }

    #[test]
    fn a_drive_that_keeps_its_data_fails_verification() {
        let dir = tempfile::tempdir().unwrap();
        let drives = testenv::drives(&["a", "b"]);
        drives["mock:a"].st().noop_sanitize = true;
        drives["mock:b"].st().noop_sanitize = true;
        let sa = testenv::safety(dir.path(), &["SER-a", "SER-b"], false);
        let r = testenv::run(&drives, &[], &sa, job(Method::Crypto, 3, false));
        assert_eq!(r.exit, exit::CHECK_FAILED);
        assert_eq!(
            r.data["drives"][1]["verification"]["survived"], 3,
            "{}",
            r.data
        );
    }

    #[test]
    fn hex_patterns() {
        assert_eq!(parse_hex("a55a").unwrap(), vec![0xa5, 0x5a]);
        assert_eq!(parse_hex("0x00ff").unwrap(), vec![0, 0xff]);
        assert!(parse_hex("abc").is_err());
        assert!(parse_hex("zz").is_err());
        assert!(parse_hex("").is_err());
    }

    /// `--method auto` on a TCG Enterprise drive whose RSOC lists no SANITIZE: the job falls
    /// back to the TCG erase of every band and the data no longer reads back.
    #[test]
    #[cfg(feature = "sim")]
    fn auto_falls_back_to_tcg_erase_without_sanitize() {
        use crate::cli::erase::{run_jobs_in, JobEnv};
        use sgctl::ops::poll::PollConfig;
        use sgctl::transport::{Completion, DataBuf, Transport};
        struct NoSanitize(sgctl::sim::SimDevice);
        impl Transport for NoSanitize {
            fn execute(
                &mut self,
                cdb: &[u8],
                data: DataBuf<'_>,
                timeout: std::time::Duration,
            ) -> Result<Completion> {
                if cdb.len() > 3 && cdb[0] == 0xA3 && cdb[1] & 0x1F == 0x0C && cdb[3] == 0x48 {
                    return Ok(Completion::check_condition(sgctl::sense::build_fixed(
                        sgctl::sense::SenseKey::IllegalRequest,
                        0x24,
                        0,
                    )));
                }
                self.0.execute(cdb, data, timeout)
            }
            fn address(&self) -> String {
                "sim:nosanitize".into()
            }
        }
        let dev = sgctl::sim::open("px02smf080?serial=NOSAN1&capacity_gib=1").unwrap();
        let rw = |d: &mut dyn Transport, write: bool| -> Vec<u8> {
            let mut buf = vec![0x5Au8; 512];
            let c = if write {
                let cdb = sgctl::scsi::read_write::Write16Cdb::new(10, 1).build();
                d.execute(&cdb, DataBuf::Out(&buf), std::time::Duration::from_secs(5))
            } else {
                let cdb = sgctl::scsi::read_write::Read16Cdb::new(10, 1).build();
                d.execute(
                    &cdb,
                    DataBuf::In(&mut buf),
                    std::time::Duration::from_secs(5),
                )
            };
            sgctl::transport::check(&c.unwrap()).unwrap();
            buf
        };
        let mut h = dev.port(1);
        rw(&mut h, true);
        assert_eq!(rw(&mut h, false), vec![0x5A; 512]);
        let dir = tempfile::tempdir().unwrap();
        let host = testenv::FakeHost { busy: vec![] };
        let open = |_a: &str| -> Result<(Box<dyn Transport>, PollConfig)> {
            Ok((Box::new(NoSanitize(dev.port(1))), PollConfig::immediate()))
        };
        let mut p = testenv::NoTty;
        let env = JobEnv {
            host: &host,
            open: &open,
            prompter: &mut p,
            interactive: false,
            interrupted: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            progress: &sgctl::ops::jobs::NoProgress,
            advise: None,
        };
        let sa = testenv::safety(dir.path(), &["NOSAN1"], false);
        let r = run_jobs_in(
            &mut Ctx::default(),
            env,
            &["sim:nosanitize".to_string()],
            &sa,
            serde_json::Value::Null,
            job(Method::Auto, 0, false),
        )
        .unwrap();
        let rec = &r.data["drives"][0];
        assert_eq!(rec["outcome"], "success", "{rec}");
        assert_eq!(
            rec["method"],
            sgctl::ops::record::JobMethod::TcgErase.name()
        );
        assert_eq!(r.exit, exit::OK);
        assert_ne!(
            rw(&mut h, false),
            vec![0x5A; 512],
            "data survived the erase"
        );
    }
}
