//! The CLI's words for what the library keeps typed: the advice ([`Next`]) and the errors
//! whose text names an `sgctl` command or flag (`sgctl wait DEV`, `--recover`, `--ause`,
//! `--confirm`). The library says what happened; this module says which command to type.

use sgctl::error::{Error, Invalid, Next, Refusal};
use sgctl::ops::jobs::Advise;
use sgctl::ops::record::JobRecord;

/// What to say when an ATA drive is frozen.
pub(crate) const FROZEN_ADVICE: &str =
    "the drive is frozen: the BIOS or HBA sent a FREEZE LOCK at \
boot, and only a power-on or hardware reset clears it. Hot-plug the drive (pull it and push it \
back in, or power-cycle its slot), or suspend and resume the host (`systemctl suspend`; the \
BIOS does not run on resume), then check `sgctl ata identify` shows \"not frozen\" and retry";

/// `a` as one shell word: unchanged when it holds only characters no shell treats specially,
/// else in single quotes (a `sim:` address has `?` and `&`, which would glob and background
/// the pasted command).
pub(crate) fn sh(a: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:,@%+=".contains(c);
    if !a.is_empty() && a.chars().all(plain) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// The words of typed advice.
pub(crate) fn next(n: &Next) -> String {
    let others = |paths: &[String]| {
        if paths.is_empty() {
            String::new()
        } else {
            format!(
                " (or through another path of the drive: {})",
                paths.join(", ")
            )
        }
    };
    match n {
        Next::SanitizeContinues { address } => format!(
            "the sanitize continues on the drive (it cannot be cancelled); watch it with `sgctl wait {}`",
            sh(address)
        ),
        Next::FormatContinues { address } => {
            format!(
                "the format continues on the drive; watch it with `sgctl wait {}`",
                sh(address)
            )
        }
        Next::SanitizeWatchLost { address, other_paths } => format!(
            "the sanitize was started and goes on on the drive (it resumes after a power cycle); \
             when the drive is back, watch it with `sgctl wait {}`{}",
            sh(address),
            others(other_paths)
        ),
        Next::FormatWatchLost { address, other_paths } => format!(
            "the format was started; when the drive is back, watch it with `sgctl wait {}`{}; \
             if it lost power it reports medium format corrupted: `sgctl format {} --recover`",
            sh(address),
            others(other_paths),
            sh(address)
        ),
        Next::FormatAgain { address } => format!(
            "the medium may be left corrupt (31/00); format again with `sgctl format {} --recover`",
            sh(address)
        ),
        Next::ExitFailureMode { address } => format!(
            "the sanitize failed; the drive refuses medium access until it leaves failure mode: \
             `sgctl sanitize {} --exit-failure-mode` (allowed because AUSE was set), or run a sanitize again",
            sh(address)
        ),
        Next::SanitizeAgain => "the sanitize failed with AUSE=0 (restricted): EXIT FAILURE MODE is not allowed; \
             the only way out is another sanitize that completes — run it again"
            .into(),
        Next::AtaFrozen => FROZEN_ADVICE.into(),
        Next::AtaUnlockFirst => {
            "unlock it first (`hdparm --security-unlock PWD`), or use a SANITIZE method".into()
        }
        Next::AtaPowerCycle => "power-cycle the drive to reset the attempt counter".into(),
        Next::AtaPasswordRemoved => "the temporary user password was removed again".into(),
        Next::AtaPasswordLeft => "the drive still has the temporary user password: remove it with \
             `hdparm --security-disable PASSWORD` before the next power cycle locks it"
            .into(),
        Next::Note(s) => s.clone(),
        other => format!("{other:?}"),
    }
}

/// The text of a refusal as `sgctl` prints it after `refused: `.
pub(crate) fn refusal(r: &Refusal) -> String {
    match r {
        Refusal::NotNamed { address, drive } => {
            format!("{address}: --confirm does not name this drive ({drive}); nothing was sent")
        }
        Refusal::NeedsConfirmation {
            address,
            job,
            drive,
        } => format!(
            "{address}: {job} needs --confirm SERIAL (or WWN) naming the drive ({drive}) or a terminal to type it"
        ),
        Refusal::AlreadyRunning { address, .. } => {
            format!("{r}; watch it with `sgctl wait {}`", sh(address))
        }
        Refusal::ExitFailureModeRestricted { .. } => {
            format!("{r} — run it again without --ause")
        }
        Refusal::Reserved { address, .. } => format!(
            "{r} (see `sgctl reservations {}`; --ignore-reservation to go ahead)",
            sh(address)
        ),
        Refusal::AtaSanitizeRunning => format!("{r}; watch it with `sgctl wait DEVICE`"),
        Refusal::AtaMethodBlocked { advice, .. } => format!("{r}; {}", next(advice)),
        Refusal::AtaAborted { advice, .. } => format!("{r}; if it is frozen: {}", next(advice)),
        Refusal::TcgOwned => format!(
            "{r}: run `sgctl tcg erase DEVICE --all --pin-file FILE`, or \
             `sgctl tcg revert DEVICE --psid-file FILE` with the PSID from the label"
        ),
        r => r.to_string(),
    }
}

/// The text of one error as `sgctl` prints it (its `Display`, with the commands and flags
/// that get the user out of it).
pub(crate) fn error(e: &Error) -> String {
    match e {
        Error::Refused(r) => format!("refused: {}", refusal(r)),
        Error::MediumFormatCorrupt { .. } => {
            format!("{e} — run `sgctl format DEVICE --recover` to format it again")
        }
        Error::SanitizeRefused { ause: true, .. } => {
            format!("{e}; if a previous sanitize failed with AUSE=0, retry without --ause")
        }
        Error::BandEraseNeedsEnterprise => {
            format!("{e}; for Opal use `sgctl tcg revert DEVICE --psid-file FILE` with the PSID")
        }
        Error::Invalid(Invalid::BlockSizeRequired) => "--block-size is required".into(),
        Error::Invalid(Invalid::VerifyNeedsCapacity) => {
            "--verify needs readable capacity, but the drive refuses medium access (31/xx); \
             sanitize once without --verify to leave that state"
                .into()
        }
        Error::Invalid(Invalid::PiExponentNeedsType2Or3) => {
            "a protection interval exponent needs --pi 2 or 3".into()
        }
        e => e.to_string(),
    }
}

/// An error chain as `sgctl: …` prints it: like anyhow's `{:#}` (each cause after `: `), with
/// the library's errors in the CLI's words ([`error`]).
pub(crate) fn chain(e: &anyhow::Error) -> String {
    e.chain()
        .map(|c| {
            c.downcast_ref::<Error>()
                .map_or_else(|| c.to_string(), error)
        })
        .collect::<Vec<_>>()
        .join(": ")
}

/// The CLI's [`Advise`] for the job runner: its words for errors and advice, and the advice
/// for a locked self-encrypting drive.
#[derive(Debug, Default)]
pub(crate) struct CliAdvice;

impl Advise for CliAdvice {
    fn message(&self, e: &Error) -> String {
        error(e)
    }

    fn next(&self, n: &Next) -> Option<String> {
        Some(next(n))
    }

    fn advice(&self, rec: &JobRecord) -> Option<String> {
        rec.next
            .as_ref()
            .map(next)
            .or_else(|| crate::cli::tcg_jobs::locked_sed_advice(rec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sanitize whose watch lost the drive (every path gone) is worded as "watch it with
    /// `sgctl wait`", naming the other paths when there are some.
    #[test]
    fn sanitize_watch_lost_points_to_wait() {
        let n = Next::SanitizeWatchLost {
            address: "/dev/sg3".into(),
            other_paths: vec!["/dev/sg9".into()],
        };
        let t = next(&n);
        assert!(t.contains("sgctl wait /dev/sg3"), "{t}");
        assert!(t.contains("/dev/sg9"), "{t}");
    }

    #[test]
    fn chain_matches_anyhow_alternate_for_other_errors() {
        let e = anyhow::Error::from(Error::Timeout).context("reading page 0x0d");
        assert_eq!(chain(&e), format!("{e:#}"));
        let e = anyhow::anyhow!("plain").context("outer");
        assert_eq!(chain(&e), "outer: plain");
    }

    #[test]
    fn advice_quotes_addresses_for_the_shell() {
        assert_eq!(sh("/dev/sg1"), "/dev/sg1");
        assert_eq!(sh("/dev/bsg/1:0:0:0"), "/dev/bsg/1:0:0:0");
        assert_eq!(
            sh("sim:px02smf080?state=/tmp/d.json&clock=virtual"),
            "'sim:px02smf080?state=/tmp/d.json&clock=virtual'"
        );
        assert_eq!(sh("it's"), "'it'\\''s'");
        let a = "sim:px02smf080?state=/tmp/d.json&clock=virtual".to_string();
        for n in [
            Next::FormatContinues { address: a.clone() },
            Next::SanitizeContinues { address: a.clone() },
            Next::FormatAgain { address: a.clone() },
            Next::ExitFailureMode { address: a.clone() },
            Next::FormatWatchLost {
                address: a.clone(),
                other_paths: vec![],
            },
        ] {
            let t = next(&n);
            assert!(t.contains(&format!(" '{a}'")), "{t}");
            assert!(!t.contains(&format!(" {a}")), "unquoted: {t}");
        }
        // Where the library does not know the device, the command still names where it goes.
        assert!(refusal(&Refusal::TcgOwned).contains("`sgctl tcg erase DEVICE"));
    }

    #[test]
    fn the_cli_names_its_commands() {
        let e = anyhow::Error::from(Error::Refused(Refusal::AtaSanitizeRunning)).context("sim:x");
        assert_eq!(
            chain(&e),
            "sim:x: refused: an ATA sanitize is already running (SANITIZE STATUS EXT); \
             watch it with `sgctl wait DEVICE`"
        );
        // The library's own text names no command.
        assert!(!Error::Refused(Refusal::AtaSanitizeRunning)
            .to_string()
            .contains("sgctl"));
        assert_eq!(
            error(&Error::Invalid(Invalid::BlockSizeRequired)),
            "--block-size is required"
        );
        assert!(next(&Next::FormatWatchLost {
            address: "/dev/sg1".into(),
            other_paths: vec!["/dev/sg2".into()],
        })
        .contains("`sgctl wait /dev/sg1` (or through another path of the drive: /dev/sg2);"));
    }
}
