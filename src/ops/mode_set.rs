//! Changing mode page fields as `sdparm --set` does (SPC-6 6.11-6.14, 7.5): for each page
//! concerned, MODE SENSE(10) of the current values and of the changeable-values mask first;
//! a field whose bits are not all changeable is refused before anything is sent; the new page
//! is the current page with only the named fields changed, sent with MODE SELECT(10) PF=1
//! (SP=1 with `--save`, which needs the page's PS bit); the current values are read back
//! afterwards and compared.

use crate::cmd::{run_out, run_query};
use crate::error::{Error, Result};
use crate::ops::gate::Cleared;
use crate::ops::health::read::is_unsupported;
use crate::scsi::mode::fields::{page_label, Field};
use crate::scsi::mode::{self, HeaderKind, PageControl};
use crate::transport::{Transport, DEFAULT_TIMEOUT};
use serde::Serialize;

/// One requested change.
#[derive(Debug, Clone, Copy)]
pub struct Change {
    /// The field.
    pub field: Field,
    /// Its new value.
    pub value: u64,
}

/// One field's change as planned.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FieldChange {
    /// `ca.WCE`.
    pub field: String,
    /// Current value before.
    pub old: u64,
    /// Value asked for.
    pub new: u64,
}

/// The MODE SELECT for one page.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PagePlan {
    /// Page code.
    pub page: u8,
    /// Subpage code.
    pub subpage: u8,
    /// `ca (08h)`.
    pub label: String,
    /// The fields it changes.
    pub changes: Vec<FieldChange>,
    /// MODE SELECT(10) CDB.
    #[serde(serialize_with = "hex_ser")]
    pub cdb: Vec<u8>,
    /// Its parameter list (header, no block descriptor, the page with PS cleared).
    #[serde(serialize_with = "hex_ser")]
    pub parameter_list: Vec<u8>,
    /// True when no value differs from the current one.
    pub unchanged: bool,
}

fn hex_ser<S: serde::Serializer>(b: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&crate::bytes::spaced_hex(b))
}

/// Reads one page with MODE SENSE(10) (DBD=1): the page's bytes, header included.
pub fn read_page(t: &mut dyn Transport, page: u8, sub: u8, pc: PageControl) -> Result<Vec<u8>> {
    let cdb = mode::ModeSense10Cdb::new(page, 4096)
        .subpage_code(sub)
        .pc(pc)
        .dbd(true)
        .build();
    let mut buf = vec![0u8; 4096];
    let n = run_query(t, &cdb, &mut buf, DEFAULT_TIMEOUT).map_err(|e| {
        if is_unsupported(&e) {
            Error::Unsupported(format!(
                "mode page {} is not supported by the device{}",
                page_label(page, sub),
                e.sense()
                    .map(|s| format!(" ({})", s.summary()))
                    .unwrap_or_default()
            ))
        } else {
            e
        }
    })?;
    buf.truncate(n.min(buf.len()));
    let m = mode::parse(&buf, HeaderKind::Ten)?;
    m.pages
        .into_iter()
        .find(|p| p.page_code == page && p.subpage_code == sub)
        .map(|p| p.raw)
        .ok_or_else(|| {
            Error::Unsupported(format!(
                "the device answered MODE SENSE without mode page {}",
                page_label(page, sub)
            ))
        })
}

/// Plans the changes: reads each page's current values and mask, refuses a field that is not
/// changeable, a value too wide, a page too short for the field, or `save` on a page whose
/// PS bit says it cannot be saved. Nothing is sent that changes the drive.
pub fn plan(t: &mut dyn Transport, changes: &[Change], save: bool) -> Result<Vec<PagePlan>> {
    let mut pages: Vec<(u8, u8)> = Vec::new();
    for c in changes {
        let k = (c.field.page, c.field.subpage);
        if !pages.contains(&k) {
            pages.push(k);
        }
    }
    let mut plans = Vec::new();
    for (page, sub) in pages {
        let label = page_label(page, sub);
        let cur = read_page(t, page, sub, PageControl::Current)?;
        let mask = read_page(t, page, sub, PageControl::Changeable)?;
        if save && cur.first().is_some_and(|b| b & 0x80 == 0) {
            return Err(Error::Unsupported(format!(
                "mode page {label} cannot be saved (PS=0 in MODE SENSE); leave out --save"
            )));
        }
        let mut new = cur.clone();
        let mut fc = Vec::new();
        for c in changes
            .iter()
            .filter(|c| (c.field.page, c.field.subpage) == (page, sub))
        {
            let name = format!(
                "{}.{}",
                label.split(' ').next().unwrap_or(""),
                c.field.acronym
            );
            let old = c.field.get(&cur).ok_or_else(|| {
                Error::Unsupported(format!(
                    "{name}: the drive's page {label} is {} bytes long, too short for this field",
                    cur.len()
                ))
            })?;
            if c.value > c.field.max() {
                return Err(Error::InvalidArgument(format!(
                    "{name}={}: the field holds 0..={}",
                    c.value,
                    c.field.max()
                )));
            }
            if c.field.changeable(&mask) != Some(true) {
                return Err(Error::Unsupported(format!(
                    "{name} ({}) is not changeable on this drive: its changeable-values mask \
                     (MODE SENSE PC=1) is 0x{:x} for the field; nothing was sent",
                    c.field.description,
                    c.field.get(&mask).unwrap_or(0)
                )));
            }
            c.field.set(&mut new, c.value);
            fc.push(FieldChange {
                field: name,
                old,
                new: c.value,
            });
        }
        let list = mode::select_parameter_list(HeaderKind::Ten, &[], &[&new])?;
        let len = u16::try_from(list.len()).unwrap_or(u16::MAX);
        plans.push(PagePlan {
            page,
            subpage: sub,
            label,
            unchanged: new == cur,
            changes: fc,
            cdb: mode::ModeSelect10Cdb::new(len)
                .pf(true)
                .sp(save)
                .build()
                .to_vec(),
            parameter_list: list,
        });
    }
    Ok(plans)
}

/// Sends one page's MODE SELECT. It changes the drive's settings, so it takes the job's
/// record token (`_rec`): the start record is written.
pub fn send(t: &mut dyn Transport, _rec: &Cleared, p: &PagePlan) -> Result<()> {
    run_out(t, &p.cdb, &p.parameter_list, DEFAULT_TIMEOUT)
}

/// Reads the pages back and lists every field whose current value is not the one asked for.
pub fn verify(
    t: &mut dyn Transport,
    plans: &[PagePlan],
    changes: &[Change],
) -> Result<Vec<String>> {
    let mut bad = Vec::new();
    for p in plans {
        let cur = read_page(t, p.page, p.subpage, PageControl::Current)?;
        for c in changes
            .iter()
            .filter(|c| (c.field.page, c.field.subpage) == (p.page, p.subpage))
        {
            let got = c.field.get(&cur);
            if got != Some(c.value) {
                bad.push(format!(
                    "{}.{} reads back as {} after MODE SELECT, not {}",
                    p.label.split(' ').next().unwrap_or(""),
                    c.field.acronym,
                    got.map(|v| v.to_string())
                        .unwrap_or_else(|| "nothing".into()),
                    c.value
                ));
            }
        }
    }
    Ok(bad)
}
