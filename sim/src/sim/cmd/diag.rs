//! SPC-5 6.42 SEND DIAGNOSTIC: the default self-test and the short/extended self-tests in
//! background or foreground, whose results go to the Self-Test Results log page (0x10).

use super::CmdCtx;
use crate::sim::drive::{
    RunningSelfTest, SelfTestResult, EXTENDED_SELF_TEST_SECS, SHORT_SELF_TEST_SECS,
};
use crate::sim::profile::Profile;
use crate::sim::sense::SimSense;

/// RSOC timeouts: the extended self-test in the foreground.
pub(crate) fn timeouts(_: &Profile) -> (u32, u32) {
    (
        EXTENDED_SELF_TEST_SECS as u32,
        3 * EXTENDED_SELF_TEST_SECS as u32,
    )
}

/// SEND DIAGNOSTIC: byte 1 SELF-TEST CODE (7-5), PF (4), SELFTEST (2), DEVOFFL (1),
/// UNITOFFL (0); bytes 3-4 PARAMETER LIST LENGTH.
pub(crate) fn send_diagnostic(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let code = ctx.cdb[1] >> 5;
    let selftest = ctx.cdb[1] & 0x04 != 0;
    let len = ctx.be(3, 2);
    if selftest {
        // Default self-test: SELF-TEST CODE must be 0 and no parameter list.
        if code != 0 {
            return Err(SimSense::invalid_cdb(1, Some(7)));
        }
        if len != 0 {
            return Err(SimSense::invalid_cdb(3, None));
        }
        ctx.service_ns = 2_000_000_000;
        return Ok(Vec::new());
    }
    if code != 0 && len != 0 {
        return Err(SimSense::invalid_cdb(3, None));
    }
    let d = &mut ctx.sh.d;
    match code {
        0 if len == 0 => Ok(Vec::new()),
        // A diagnostic page: none is supported.
        0 => Err(SimSense::invalid_param(0, None)),
        1 | 2 | 5 | 6 => {
            if d.self_test.is_some() {
                return Err(SimSense::invalid_cdb(1, Some(7)));
            }
            let secs = if code == 1 || code == 5 {
                SHORT_SELF_TEST_SECS
            } else {
                EXTENDED_SELF_TEST_SECS
            };
            let dur_ns = secs * 1_000_000_000;
            d.self_test = Some(RunningSelfTest {
                code,
                start_ns: d.now_ns,
                dur_ns,
            });
            if code >= 5 {
                ctx.wait_ns = dur_ns; // foreground: status when it ends
            }
            Ok(Vec::new())
        }
        4 => {
            // Abort background self-test: result 1 "aborted by SEND DIAGNOSTIC".
            if let Some(t) = d.self_test.take() {
                let hours = (d.now_ns / 3_600_000_000_000).min(0xFFFF) as u16;
                d.log_self_test(SelfTestResult {
                    code: t.code,
                    result: 1,
                    hours,
                    lba: u64::MAX,
                    sense: (0, 0, 0),
                });
            }
            Ok(Vec::new())
        }
        _ => Err(SimSense::invalid_cdb(1, Some(7))),
    }
}
