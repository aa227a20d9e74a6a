//! Write cache per PTS-E: WCE cleared in the Caching mode page (SBC-4 7.5.5, page 08h) with
//! MODE SELECT(10) (PF=1, SP=0: the current values only, so a power cycle also restores the
//! drive), read back with MODE SENSE(10), and restored at the end of the run — also after an
//! error or Ctrl-C (the suite calls [`restore`] on every exit path).

use crate::cmd::run_query;
use crate::error::{Error, Result};
use crate::scsi::mode::{self, HeaderKind, PageControl};
use crate::transport::{self, DataBuf, Transport, DEFAULT_TIMEOUT};
use serde::{Deserialize, Serialize};

/// Caching mode page code.
pub(crate) const CACHING_PAGE: u8 = 0x08;
/// WCE: byte 2 bit 2 of the page.
const WCE: u8 = 0x04;

/// What happened to the write cache (goes into the report header).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct WriteCache {
    /// What the test requires: `disabled` (PTS-E) or `enabled` (PTS-C), or `unchanged`.
    pub required: String,
    /// WCE as found before the run (None: the drive has no Caching page).
    pub wce_before: Option<bool>,
    /// WCE read back after our MODE SELECT (None: not changed / not readable).
    pub wce_during: Option<bool>,
    /// Whether WCE is changeable (MODE SENSE changeable values).
    pub changeable: Option<bool>,
    /// WCE read back after the restore.
    pub wce_after: Option<bool>,
    /// True once the original value is back (or was never changed).
    pub restored: bool,
    /// Problems (not changeable, read back differs, restore failed).
    pub notes: Vec<String>,
    /// The page as found (hex), for the record and for a manual restore.
    pub page_before_hex: String,
}

/// The Caching page (header included, PS as returned) from MODE SENSE(10) with DBD=1.
pub(crate) fn read_page(t: &mut dyn Transport, pc: PageControl) -> Result<Vec<u8>> {
    let cdb = mode::ModeSense10Cdb::new(CACHING_PAGE, 252)
        .pc(pc)
        .dbd(true)
        .build();
    let mut buf = vec![0u8; 252];
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT)?;
    let m = mode::parse(&buf[..n.min(buf.len())], HeaderKind::Ten)?;
    let p = m
        .pages
        .into_iter()
        .find(|p| p.page_code == CACHING_PAGE && p.raw.len() > 2)
        .ok_or_else(|| Error::Unsupported("the drive returned no Caching mode page".into()))?;
    Ok(p.raw)
}

/// WCE bit of a page's bytes.
pub(crate) fn wce_of(page: &[u8]) -> Option<bool> {
    page.get(2).map(|b| b & WCE != 0)
}

fn select(t: &mut dyn Transport, page: &[u8]) -> Result<()> {
    let list = mode::select_parameter_list(HeaderKind::Ten, &[], &[page])?;
    let len = u16::try_from(list.len()).map_err(|_| crate::error::Invalid::TooLong {
        what: "Caching page",
        len: list.len(),
    })?;
    let cdb = mode::ModeSelect10Cdb::new(len).pf(true).build();
    let c = t.execute(&cdb, DataBuf::Out(&list), DEFAULT_TIMEOUT)?;
    transport::check(&c)
}

/// Sets WCE to `wce` from `page` (the page as read); returns the value read back.
fn set(t: &mut dyn Transport, page: &[u8], wce: bool) -> Result<bool> {
    let mut p = page.to_vec();
    if wce {
        p[2] |= WCE;
    } else {
        p[2] &= !WCE;
    }
    select(t, &p)?;
    let back = read_page(t, PageControl::Current)?;
    wce_of(&back).ok_or_else(|| Error::CheckFailed("Caching page read back is empty".into()))
}

/// Puts the write cache in the state the test requires (`Some(false)`: disabled, PTS-E;
/// `Some(true)`: enabled, PTS-C; `None`: leave it) and records what it found. A drive
/// without a Caching page or with a fixed WCE is recorded (the report says so) and the run
/// goes on; a MODE SELECT that succeeds but reads back wrong is an error.
pub(crate) fn prepare(t: &mut dyn Transport, want: Option<bool>) -> Result<WriteCache> {
    let mut wc = WriteCache {
        required: match want {
            Some(false) => "disabled".into(),
            Some(true) => "enabled".into(),
            None => "unchanged".into(),
        },
        restored: true,
        ..WriteCache::default()
    };
    let page = match read_page(t, PageControl::Current) {
        Ok(p) => p,
        Err(e) => {
            wc.notes.push(format!("no Caching mode page: {e}"));
            return Ok(wc);
        }
    };
    wc.page_before_hex = crate::bytes::spaced_hex(&page);
    wc.wce_before = wce_of(&page);
    wc.changeable = read_page(t, PageControl::Changeable)
        .ok()
        .and_then(|m| wce_of(&m));
    let Some(want) = want else {
        wc.wce_during = wc.wce_before;
        return Ok(wc);
    };
    if wc.wce_before == Some(want) {
        wc.wce_during = Some(want);
        return Ok(wc);
    }
    if wc.changeable == Some(false) {
        wc.notes.push(format!(
            "WCE is not changeable on this drive: the run keeps WCE={} (the test wants it {})",
            u8::from(!want),
            wc.required
        ));
        wc.wce_during = wc.wce_before;
        return Ok(wc);
    }
    let back = set(t, &page, want)?;
    wc.wce_during = Some(back);
    wc.restored = false;
    if back != want {
        // Put it back before failing.
        let _ = restore(t, &mut wc);
        return Err(Error::CheckFailed(format!(
            "MODE SELECT set WCE={} but the drive reads back WCE={}",
            u8::from(want),
            u8::from(back)
        )));
    }
    Ok(wc)
}

/// Restores WCE to its value before [`prepare`] if it was changed; records the read-back.
pub(crate) fn restore(t: &mut dyn Transport, wc: &mut WriteCache) -> Result<()> {
    if wc.restored {
        return Ok(());
    }
    let Some(before) = wc.wce_before else {
        wc.restored = true;
        return Ok(());
    };
    let r = read_page(t, PageControl::Current).and_then(|page| set(t, &page, before));
    match r {
        Ok(back) => {
            wc.wce_after = Some(back);
            wc.restored = back == before;
            if !wc.restored {
                wc.notes.push(format!(
                    "restore: WCE reads back {} instead of {}",
                    u8::from(back),
                    u8::from(before)
                ));
            }
            Ok(())
        }
        Err(e) => {
            wc.notes.push(format!(
                "restore failed ({e}): set WCE={} by hand (sdparm --set WCE={} DEVICE)",
                u8::from(before),
                u8::from(before)
            ));
            Err(e)
        }
    }
}

// Every test here runs on the virtual drive.
#[cfg(all(test, feature = "sim"))]
mod tests {
    use super::*;

    fn wce_now(t: &mut dyn Transport) -> bool {
        wce_of(&read_page(t, PageControl::Current).unwrap()).unwrap()
    }

    #[test]
    fn disables_reads_back_and_restores_on_the_virtual_drive() {
        let mut d = crate::sim::open("px02smf080").unwrap();
        let before = wce_now(&mut d);
        assert!(before, "the profile ships with WCE=1");
        let mut wc = prepare(&mut d, Some(false)).unwrap();
        assert_eq!(wc.wce_before, Some(true));
        assert_eq!(wc.wce_during, Some(false));
        assert_eq!(wc.changeable, Some(true));
        assert!(!wce_now(&mut d));
        assert!(!wc.restored);
        restore(&mut d, &mut wc).unwrap();
        assert!(wc.restored && wc.wce_after == Some(true));
        assert!(wce_now(&mut d));
        // A second restore is a no-op.
        restore(&mut d, &mut wc).unwrap();
    }

    #[test]
    fn leaves_an_already_disabled_cache_alone() {
        let mut d = crate::sim::open("px02smf080").unwrap();
        let mut wc = prepare(&mut d, Some(false)).unwrap();
        let mut wc2 = prepare(&mut d, Some(false)).unwrap();
        assert_eq!(wc2.wce_before, Some(false));
        assert!(wc2.restored);
        restore(&mut d, &mut wc2).unwrap();
        assert!(!wce_now(&mut d));
        restore(&mut d, &mut wc).unwrap();
        assert!(wce_now(&mut d));
    }
}
