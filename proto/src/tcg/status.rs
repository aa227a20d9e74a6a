//! Method status codes (protocols.md §F.6) [GOTCG `method.go`, SEDU `DtaLexicon.h`].

use serde::Serialize;
use std::fmt;

/// A non-SUCCESS method status, as a typed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MethodStatus {
    /// 0x01
    NotAuthorized,
    /// 0x03
    SpBusy,
    /// 0x04
    SpFailed,
    /// 0x05
    SpDisabled,
    /// 0x06
    SpFrozen,
    /// 0x07
    NoSessionsAvailable,
    /// 0x08
    UniquenessConflict,
    /// 0x09
    InsufficientSpace,
    /// 0x0A
    InsufficientRows,
    /// 0x0B (old firmware)
    InvalidFunction,
    /// 0x0C
    InvalidParameter,
    /// 0x0D
    InvalidReference,
    /// 0x0F
    TperMalfunction,
    /// 0x10
    TransactionFailure,
    /// 0x11
    ResponseOverflow,
    /// 0x12 (TryLimit reached)
    AuthorityLockedOut,
    /// 0x3F
    Fail,
    /// Any other code.
    Other(u8),
}

impl MethodStatus {
    /// Decodes a status byte; `None` for SUCCESS (0x00).
    pub fn from_code(c: u8) -> Option<MethodStatus> {
        use MethodStatus::*;
        Some(match c {
            0x00 => return None,
            0x01 => NotAuthorized,
            0x03 => SpBusy,
            0x04 => SpFailed,
            0x05 => SpDisabled,
            0x06 => SpFrozen,
            0x07 => NoSessionsAvailable,
            0x08 => UniquenessConflict,
            0x09 => InsufficientSpace,
            0x0A => InsufficientRows,
            0x0B => InvalidFunction,
            0x0C => InvalidParameter,
            0x0D => InvalidReference,
            0x0F => TperMalfunction,
            0x10 => TransactionFailure,
            0x11 => ResponseOverflow,
            0x12 => AuthorityLockedOut,
            0x3F => Fail,
            o => Other(o),
        })
    }

    /// The status byte.
    pub fn code(self) -> u8 {
        use MethodStatus::*;
        match self {
            NotAuthorized => 0x01,
            SpBusy => 0x03,
            SpFailed => 0x04,
            SpDisabled => 0x05,
            SpFrozen => 0x06,
            NoSessionsAvailable => 0x07,
            UniquenessConflict => 0x08,
            InsufficientSpace => 0x09,
            InsufficientRows => 0x0A,
            InvalidFunction => 0x0B,
            InvalidParameter => 0x0C,
            InvalidReference => 0x0D,
            TperMalfunction => 0x0F,
            TransactionFailure => 0x10,
            ResponseOverflow => 0x11,
            AuthorityLockedOut => 0x12,
            Fail => 0x3F,
            Other(c) => c,
        }
    }

    /// The TCG name.
    pub fn name(self) -> String {
        use MethodStatus::*;
        match self {
            NotAuthorized => "NOT_AUTHORIZED".into(),
            SpBusy => "SP_BUSY".into(),
            SpFailed => "SP_FAILED".into(),
            SpDisabled => "SP_DISABLED".into(),
            SpFrozen => "SP_FROZEN".into(),
            NoSessionsAvailable => "NO_SESSIONS_AVAILABLE".into(),
            UniquenessConflict => "UNIQUENESS_CONFLICT".into(),
            InsufficientSpace => "INSUFFICIENT_SPACE".into(),
            InsufficientRows => "INSUFFICIENT_ROWS".into(),
            InvalidFunction => "INVALID_FUNCTION".into(),
            InvalidParameter => "INVALID_PARAMETER".into(),
            InvalidReference => "INVALID_REFERENCE".into(),
            TperMalfunction => "TPER_MALFUNCTION".into(),
            TransactionFailure => "TRANSACTION_FAILURE".into(),
            ResponseOverflow => "RESPONSE_OVERFLOW".into(),
            AuthorityLockedOut => "AUTHORITY_LOCKED_OUT".into(),
            Fail => "FAIL".into(),
            Other(c) => format!("status 0x{c:02x}"),
        }
    }

    /// The status in words, as the admin reads it (the TCG name is [`MethodStatus::name`]).
    pub fn words(self) -> String {
        use MethodStatus::*;
        match self {
            NotAuthorized => "not authorized".into(),
            SpBusy => "security provider busy".into(),
            SpFailed => "security provider failed".into(),
            SpDisabled => "security provider disabled".into(),
            SpFrozen => "security provider frozen".into(),
            NoSessionsAvailable => "no sessions available".into(),
            UniquenessConflict => "uniqueness conflict".into(),
            InsufficientSpace => "insufficient space".into(),
            InsufficientRows => "insufficient rows".into(),
            InvalidFunction => "invalid function".into(),
            InvalidParameter => "invalid parameter".into(),
            InvalidReference => "invalid reference".into(),
            TperMalfunction => "TPer malfunction".into(),
            TransactionFailure => "transaction failure".into(),
            ResponseOverflow => "response overflow".into(),
            AuthorityLockedOut => "authority locked out".into(),
            Fail => "failed".into(),
            Other(c) => format!("status 0x{c:02x}"),
        }
    }

    /// A hint for the admin, where one helps.
    pub fn hint(self) -> Option<&'static str> {
        use MethodStatus::*;
        match self {
            NotAuthorized => Some("wrong credential, or this authority may not do that"),
            SpBusy => Some(
                "another session is open on the SP; wait for its timeout or power-cycle the drive",
            ),
            AuthorityLockedOut => {
                Some("too many wrong PINs; power-cycle the drive to reset the try counter")
            }
            NoSessionsAvailable => Some("the TPer has no free session; retry later"),
            InvalidFunction | InvalidReference => {
                Some("the drive does not implement this method on that object")
            }
            _ => None,
        }
    }
}

impl fmt::Display for MethodStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In words, with the status code for the specification and the peers' tools.
        write!(f, "{} (status 0x{:02x}", self.words(), self.code())?;
        if let Some(h) = self.hint() {
            write!(f, ": {h}")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_roundtrip() {
        assert_eq!(MethodStatus::from_code(0), None);
        for c in 1..=0x3F_u8 {
            assert_eq!(MethodStatus::from_code(c).unwrap().code(), c);
        }
        assert_eq!(
            MethodStatus::from_code(0x12),
            Some(MethodStatus::AuthorityLockedOut)
        );
        assert_eq!(MethodStatus::SpBusy.name(), "SP_BUSY");
    }

    #[test]
    fn display_is_in_words() {
        for c in 1..=0x3F_u8 {
            let s = MethodStatus::from_code(c).unwrap().to_string();
            assert!(
                !s.contains('_'),
                "status 0x{c:02x} printed in SCREAMING_SNAKE: {s}"
            );
        }
        assert_eq!(
            MethodStatus::InvalidParameter.to_string(),
            "invalid parameter (status 0x0c)"
        );
    }
}
