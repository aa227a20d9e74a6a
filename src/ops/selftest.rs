//! Self-tests (SPC-6 5.17): start a short or extended self-test in the background or the
//! foreground, abort a background one (SEND DIAGNOSTIC, [`crate::scsi::send_diagnostic`]),
//! and read where they stand: the progress of a running test from REQUEST SENSE (NO SENSE
//! 04/09 with the progress indication, SPC-6 5.17.4.3) and the results of the last twenty from
//! the Self-Test Results log page (10h, [`crate::logpage::selftest`]).

use crate::cmd::{run_none, run_query};
use crate::error::{Error, Result};
use crate::logpage::selftest::{self, SelfTestEntry, SelfTestResults};
use crate::ops::gate::Cleared;
use crate::ops::health::read::{is_unsupported, read_page};
use crate::scsi::log_sense::PageControl;
use crate::scsi::send_diagnostic::{SelfTest, SendDiagnosticCdb};
use crate::scsi::{request_sense, vpd};
use crate::sense::Sense;
use crate::transport::{Transport, DEFAULT_TIMEOUT};
use serde::Serialize;
use std::time::Duration;

/// A self-test the drive reports as running.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Running {
    /// Its name (from the log page's in-progress entry), when the page has one.
    pub self_test: Option<String>,
    /// Percent done (REQUEST SENSE progress indication), when reported.
    pub progress_percent: Option<f64>,
}

/// Where the drive's self-tests stand.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct Status {
    /// The test in progress, if any.
    pub running: Option<Running>,
    /// The Self-Test Results log page (most recent first); None when the drive has no such page.
    pub results: Option<SelfTestResults>,
    /// The minutes the drive says an extended self-test takes (Extended INQUIRY Data VPD
    /// 86h bytes 10-11), when it says.
    pub extended_self_test_minutes: Option<u16>,
    /// What did not decode cleanly.
    pub problems: Vec<String>,
}

impl Status {
    /// The most recent finished entry.
    pub fn last_finished(&self) -> Option<&SelfTestEntry> {
        self.results
            .as_ref()
            .and_then(|r| r.entries.iter().find(|e| e.result_code != 0xF))
    }
}

/// True when `s` is REQUEST SENSE's report of a self-test in progress (04/09).
pub(crate) fn is_self_test_in_progress(s: &Sense) -> bool {
    s.asc == 0x04 && s.ascq == 0x09
}

/// Reads the status: REQUEST SENSE for a running test's progress, the Self-Test Results log
/// page, the extended self-test time from VPD 86h. A drive without the log page is no error
/// (`results` is None); REQUEST SENSE and VPD failures are listed in `problems`.
pub fn status(t: &mut dyn Transport) -> Result<Status> {
    let mut st = Status::default();
    let mut progress = None;
    let mut sensed_running = false;
    let mut buf = vec![0u8; usize::from(request_sense::ALLOCATION)];
    match run_query(
        t,
        &request_sense::RequestSenseCdb::new(request_sense::ALLOCATION).build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    ) {
        Ok(n) => {
            if let Ok(s) = request_sense::parse(&buf[..n.min(buf.len())]) {
                if is_self_test_in_progress(&s) {
                    sensed_running = true;
                    progress = s.progress_percent();
                }
            }
        }
        Err(e) => st.problems.push(format!("REQUEST SENSE: {e}")),
    }
    match read_page(t, 0x10, 0, PageControl::Cumulative, 0) {
        Ok(p) => {
            st.problems.extend(p.problems.iter().cloned());
            let r = selftest::self_test_results(&p, &mut st.problems);
            st.results = Some(r);
        }
        Err(e) if is_unsupported(&e) => {}
        Err(e) => return Err(e),
    }
    let in_log = st
        .results
        .as_ref()
        .and_then(|r| r.entries.first())
        .filter(|e| e.result_code == 0xF);
    if sensed_running || in_log.is_some() {
        st.running = Some(Running {
            self_test: in_log.map(|e| e.self_test.clone()),
            progress_percent: progress,
        });
    }
    st.extended_self_test_minutes = extended_minutes(t, &mut st.problems);
    Ok(st)
}

/// Extended self-test completion minutes from VPD 86h, if listed and non-zero.
fn extended_minutes(t: &mut dyn Transport, problems: &mut Vec<String>) -> Option<u16> {
    let b = match crate::ops::query::vpd(t, 0x86) {
        Ok(b) => b,
        Err(e) if is_unsupported(&e) => return None,
        Err(e) => {
            problems.push(format!("Extended INQUIRY Data VPD: {e}"));
            return None;
        }
    };
    vpd::extended_inquiry::parse(&b)
        .ok()
        .map(|e| e.extended_self_test_completion_minutes)
        .filter(|m| *m != 0)
}

/// How long to wait for the SEND DIAGNOSTIC command: a background test or an abort returns
/// at once; a foreground short test within two minutes (SPC-6 5.17.4.2), given ten; a
/// foreground extended test takes what VPD 86h says, given twice that and at least an hour,
/// else 24 hours.
pub fn timeout_for(test: SelfTest, extended_minutes: Option<u16>) -> Duration {
    match test {
        SelfTest::ForegroundShort => Duration::from_secs(600),
        SelfTest::ForegroundExtended => match extended_minutes {
            Some(m) => Duration::from_secs((u64::from(m) * 120).max(3600)),
            None => Duration::from_secs(24 * 3600),
        },
        _ => DEFAULT_TIMEOUT,
    }
}

/// Sends SEND DIAGNOSTIC for `test`. It changes the drive's state (a test runs, the log page
/// gets an entry), so it takes the job's record token (`_rec`): the start record is written.
pub fn send(
    t: &mut dyn Transport,
    _rec: &Cleared,
    test: SelfTest,
    timeout: Duration,
) -> Result<()> {
    match run_none(
        t,
        &SendDiagnosticCdb::new().self_test_code(test.code()).build(),
        timeout,
    ) {
        Err(e) if is_unsupported(&e) => {
            let what = e
                .sense()
                .map(|s| format!(" ({})", s.summary()))
                .unwrap_or_default();
            Err(Error::Unsupported(format!(
                "the drive refused the {}{what}",
                test.name()
            )))
        }
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_follow_the_test() {
        assert_eq!(
            timeout_for(SelfTest::BackgroundExtended, Some(600)),
            DEFAULT_TIMEOUT
        );
        assert_eq!(
            timeout_for(SelfTest::ForegroundShort, None),
            Duration::from_secs(600)
        );
        assert_eq!(
            timeout_for(SelfTest::ForegroundExtended, Some(90)),
            Duration::from_secs(10_800)
        );
        assert_eq!(
            timeout_for(SelfTest::ForegroundExtended, Some(2)),
            Duration::from_secs(3600)
        );
        assert_eq!(
            timeout_for(SelfTest::ForegroundExtended, None),
            Duration::from_secs(86_400)
        );
    }
}
