//! Confirmation: the drive's name ([`DriveName`]) and how the user names it
//! ([`Confirmation`]: `--confirm` values, or the same typed at a [`Prompter`]).

use super::prompt::Prompter;
use crate::error::{Refusal, Result};
use serde::Serialize;

/// Identity the confirmation is checked against.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct DriveName {
    /// Unit serial number (VPD 0x80).
    pub serial: String,
    /// LU name (NAA from VPD 0x83), lowercase hex without prefix.
    pub wwn: Option<String>,
}

impl DriveName {
    /// True when `token` names this drive: the serial exactly, or the WWN with or without a
    /// `0x`/`naa.` prefix, any case. Empty identities never match.
    pub fn matches(&self, token: &str) -> bool {
        let t = token.trim();
        if t.is_empty() {
            return false;
        }
        if !self.serial.trim().is_empty() && t == self.serial.trim() {
            return true;
        }
        if let Some(w) = &self.wwn {
            let lower = t.to_ascii_lowercase();
            let bare = lower
                .strip_prefix("0x")
                .or_else(|| lower.strip_prefix("naa."))
                .unwrap_or(&lower);
            return !w.is_empty() && bare == w.to_ascii_lowercase();
        }
        false
    }

    /// `serial S, WWN W` as the refusals name the drive.
    pub fn describe(&self) -> String {
        match &self.wwn {
            Some(w) => format!("serial {:?}, WWN {w}", self.serial),
            None => format!("serial {:?}", self.serial),
        }
    }
}

/// How the user confirms.
#[derive(Debug, Clone, Default)]
pub struct Confirmation {
    /// `--confirm` values (one per drive; any of them may name a given drive).
    pub tokens: Vec<String>,
    /// Prompt on the terminal when no token names the drive (only if stdin is a TTY).
    pub interactive: bool,
}

/// Checks the confirmation for one drive.
pub fn confirm(
    job: &str,
    address: &str,
    name: &DriveName,
    c: &Confirmation,
    prompter: &mut dyn Prompter,
) -> Result<()> {
    if c.tokens.iter().any(|t| name.matches(t)) {
        return Ok(());
    }
    if !c.tokens.is_empty() && !c.interactive {
        return Err(Refusal::NotNamed {
            address: address.into(),
            drive: name.describe(),
        }
        .into());
    }
    if c.interactive {
        let q = format!(
            "sgctl: {job} will DESTROY ALL DATA on {} ({}).\n\
             Type its serial number or WWN to continue: ",
            // The address is a value: a newline in it must not start a line of the question.
            crate::escape::escape(address),
            name.describe()
        );
        match prompter.ask(&q) {
            Some(typed) if name.matches(&typed) => return Ok(()),
            Some(_) => {
                return Err(Refusal::TypedMismatch {
                    address: address.into(),
                }
                .into())
            }
            None if prompter.interrupted() => {
                return Err(Refusal::ConfirmationInterrupted {
                    address: address.into(),
                    job: job.into(),
                }
                .into())
            }
            None => {}
        }
    }
    Err(Refusal::NeedsConfirmation {
        address: address.into(),
        job: job.into(),
        drive: name.describe(),
    }
    .into())
}
