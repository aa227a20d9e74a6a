//! The CLI side of the TCG jobs: the advice for a locked self-encrypting drive. The jobs
//! themselves ([`TcgEraseJob`], [`TcgRevertJob`]) live in [`sgctl::ops::jobs::tcg`].

pub(crate) use sgctl::ops::jobs::tcg::{Credential, TcgEraseJob, TcgRevertJob};
use sgctl::ops::record::JobRecord;

/// Advice when a job failed because the drive is a locked SED: DATA PROTECT (20/02 access
/// denied, 74/71 access not authorized) in the sense trail or in the error that ended the job.
pub(crate) fn locked_sed_advice(rec: &JobRecord) -> Option<String> {
    let locked = |key: sgctl::sense::SenseKey, asc: u8, ascq: u8| {
        key == sgctl::sense::SenseKey::DataProtect
            && matches!((asc, ascq), (0x20, 0x02) | (0x74, 0x71))
    };
    let in_trail = rec.sense_trail.iter().any(|t| {
        t.sense_key == sgctl::sense::SenseKey::DataProtect.name()
            && locked(sgctl::sense::SenseKey::DataProtect, t.asc, t.ascq)
    });
    let in_error = rec
        .error_sense
        .as_deref()
        .is_some_and(|s| locked(s.key, s.asc, s.ascq));
    (in_trail || in_error).then(|| {
        format!(
            "the drive refuses access because it is a locked self-encrypting drive: check \
             `sgctl tcg status {dev}`; unlock it with `sgctl tcg unlock {dev} --band N --pin-file FILE`, \
             or, for a drive from a storage array whose PINs are unknown, reset it with \
             `sgctl tcg revert {dev} --psid-file FILE` (PSID printed on the label; erases all data)",
            dev = rec.device
        )
    })
}
