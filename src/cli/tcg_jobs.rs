//! The CLI side of the TCG jobs: the advice for a locked self-encrypting drive. The jobs
//! themselves ([`TcgEraseJob`], [`TcgRevertJob`]) live in [`crate::ops::jobs::tcg`].

pub use crate::ops::jobs::tcg::{Credential, TcgEraseJob, TcgRevertJob};
use crate::ops::record::JobRecord;

/// Advice when a job failed because the drive is a locked SED: DATA PROTECT (20/02 access
/// denied, 74/71 access not authorized) in the sense trail or the message.
pub fn locked_sed_advice(rec: &JobRecord) -> Option<String> {
    let in_trail = rec.sense_trail.iter().any(|t| {
        t.sense_key.eq_ignore_ascii_case("data protect")
            && matches!((t.asc, t.ascq), (0x20, 0x02) | (0x74, 0x71))
    });
    let in_message = rec.message.as_deref().is_some_and(|m| {
        let m = m.to_ascii_lowercase();
        m.contains("data protect") && (m.contains("20/02") || m.contains("74/71"))
    });
    (in_trail || in_message).then(|| {
        format!(
            "the drive refuses access because it is a locked self-encrypting drive: check \
             `sgctl tcg status {dev}`; unlock it with `sgctl tcg unlock {dev} --band N --pin-file FILE`, \
             or, for a drive from a storage array whose PINs are unknown, reset it with \
             `sgctl tcg revert {dev} --psid-file FILE` (PSID printed on the label; erases all data)",
            dev = rec.device
        )
    })
}
