//! Firmware download as a [`Job`]: WRITE BUFFER in a download-microcode mode
//! ([`crate::scsi::write_buffer`]), behind the safety gate (a bad image can make a drive
//! unusable), with the new revision read back afterwards.
//!
//! Plan (read-only): the image's own checks (the virtual drive's format: header, model, CRC),
//! the drive's Extended INQUIRY page (which download modes it lists, DM_MD_*; when it activates
//! microcode), the READ BUFFER descriptor of the microcode buffer (its capacity and offset
//! boundary); the image's size against the capacity and the 24-bit fields, the segment size
//! against the offset boundary. Anything that does not fit is refused before a command that
//! changes the drive is sent.
//!
//! Execute: the segments in order, then (a deferred mode with activation) mode 0Fh; then
//! INQUIRY for the revision running and TEST UNIT READY for readiness and the unit attentions
//! that report the change (3F/01 MICROCODE HAS BEEN CHANGED, 3F/16 ... WITHOUT RESET). A
//! download cut short is recorded with the segment it stopped at and the revision the drive
//! then reports (the old one: a drive discards a partial download).

use super::Job;
use crate::cmd::run_query;
use crate::error::{Error, Invalid, Result};
use crate::exit;
use crate::ops::gate::{Cleared, PlannedCommand};
use crate::ops::poll::{PollConfig, Trail};
use crate::ops::record::{Category, JobMethod, JobRecord, Outcome};
use crate::scsi::write_buffer::{self as wb, sim_image, ActivationEvents, BufferDescriptor, Mode};
use crate::sense::SenseKey;
use crate::transport::{self, DataBuf, Transport, DEFAULT_TIMEOUT};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;

/// The largest image sgctl reads: 32 MiB (a 24-bit offset and a 24-bit length reach
/// 2 × 16 MiB; drive microcode images are a few MiB).
pub const MAX_IMAGE_BYTES: u64 = 32 << 20;
/// Segment size when neither `--chunk` nor a smaller buffer says otherwise (sg_write_buffer
/// sends the whole image unless told `--bpw`; 64 KiB segments fit every HBA's transfer limit).
pub(crate) const DEFAULT_CHUNK: u32 = 64 << 10;
/// Time one WRITE BUFFER may take (saving microcode to flash; sg_write_buffer allows 300 s
/// for the activating command).
const WRITE_BUFFER_TIMEOUT: Duration = Duration::from_secs(300);

/// What to download and how.
#[derive(Debug, Clone, Default)]
pub struct FirmwareOptions {
    /// The image's bytes (read by the caller through [`crate::files::read_input`]); `None`:
    /// activate deferred microcode only (mode 0Fh).
    pub image: Option<Arc<Vec<u8>>>,
    /// Where the image came from (recorded).
    pub image_path: String,
    /// The mode; `None`: the first of [`Mode::DOWNLOAD`] the drive lists.
    pub mode: Option<Mode>,
    /// Mode 0Dh's activation events.
    pub events: ActivationEvents,
    /// Segment size for the offset modes.
    pub chunk: Option<u32>,
    /// BUFFER ID (0 on every drive sgctl knows).
    pub buffer_id: u8,
    /// After a deferred download (0Dh/0Eh), activate it (mode 0Fh).
    pub activate: bool,
    /// The revision the image installs (the virtual drive's images say it themselves).
    pub expect_revision: Option<String>,
    /// Send a mode the drive's Extended INQUIRY page does not list.
    pub force: bool,
}

/// What was learnt of the image.
#[derive(Debug, Clone, serde::Serialize)]
struct ImageInfo {
    path: String,
    bytes: usize,
    sha256: String,
    /// The virtual drive's header, when the image has one.
    sim_header: Option<sim_image::Header>,
}

#[derive(Debug, Clone)]
struct Plan {
    mode: Mode,
    /// (cdb, offset, len) of each WRITE BUFFER with data.
    segments: Vec<([u8; 10], usize, usize)>,
    activate: Option<[u8; 10]>,
    expect: Option<String>,
    before: String,
    info: Value,
}

/// Downloads microcode to one drive.
#[derive(Debug, Clone)]
pub struct FirmwareJob {
    opts: FirmwareOptions,
    plan: Option<Plan>,
}

impl FirmwareJob {
    /// A job (planned by the runner).
    pub fn new(opts: FirmwareOptions) -> FirmwareJob {
        FirmwareJob { opts, plan: None }
    }
}

fn bad_image(path: &str, reason: impl Into<String>) -> Error {
    Invalid::FirmwareImage {
        path: path.into(),
        reason: reason.into(),
    }
    .into()
}

/// Extended INQUIRY (VPD 86h), when the drive answers it.
fn extended_inquiry(
    t: &mut dyn Transport,
) -> Option<crate::scsi::vpd::extended_inquiry::ExtendedInquiry> {
    let mut buf = vec![0u8; 64];
    let n = run_query(
        t,
        &crate::scsi::inquiry::InquiryCdb::new(64)
            .evpd(true)
            .page_code(0x86)
            .build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    )
    .ok()?;
    crate::scsi::vpd::extended_inquiry::parse(&buf[..n.min(buf.len())]).ok()
}

/// The READ BUFFER descriptor of `buffer_id`, when the drive answers it.
fn descriptor(t: &mut dyn Transport, buffer_id: u8) -> Option<BufferDescriptor> {
    let mut buf = [0u8; 4];
    let n = run_query(
        t,
        &wb::ReadBufferCdb::new(wb::READ_BUFFER_DESCRIPTOR, 4)
            .buffer_id(buffer_id)
            .build()
            .ok()?,
        &mut buf,
        DEFAULT_TIMEOUT,
    )
    .ok()?;
    BufferDescriptor::parse(&buf[..n.min(4)])
}

/// The revision INQUIRY reports now (fresh, not a cached identity).
fn revision_now(t: &mut dyn Transport) -> Option<String> {
    let mut buf = [0u8; 96];
    let n = run_query(
        t,
        &crate::scsi::inquiry::InquiryCdb::new(96).build(),
        &mut buf,
        DEFAULT_TIMEOUT,
    )
    .ok()?;
    crate::scsi::inquiry::parse(&buf[..n.min(buf.len())])
        .ok()
        .map(|i| i.product_revision_level.trim().to_string())
}

/// What the drive says after the download: readiness and the unit attentions that report a
/// microcode change (3F/xx), through TEST UNIT READY. A drive still busy activating (NOT
/// READY) is asked again, up to `tries` times `interval` apart.
fn observe(
    t: &mut dyn Transport,
    poll: &PollConfig,
    trail: &mut Trail,
    tries: u32,
) -> (bool, Vec<String>) {
    let mut status = Vec::new();
    for i in 0..tries.max(1) {
        let c = t.execute(
            &crate::scsi::tur::TestUnitReadyCdb::new().build(),
            DataBuf::None,
            DEFAULT_TIMEOUT,
        );
        match c.and_then(|c| transport::check(&c)) {
            Ok(()) => return (true, status),
            Err(Error::Sense(s)) => {
                trail.push("TEST UNIT READY", &s);
                if s.key == SenseKey::UnitAttention {
                    status.extend(ua_status(&s).filter(|u| !status.contains(u)));
                    continue;
                }
                if s.key != SenseKey::NotReady || i + 1 == tries {
                    return (false, status);
                }
            }
            Err(e) => {
                trail.push_error("TEST UNIT READY", &e);
                if i + 1 == tries {
                    return (false, status);
                }
            }
        }
        (poll.sleep)(Duration::from_secs(1));
    }
    (false, status)
}

impl Job for FirmwareJob {
    fn name(&self) -> &'static str {
        "firmware"
    }

    fn plan(&mut self, t: &mut dyn Transport, rec: &mut JobRecord) -> Result<Vec<PlannedCommand>> {
        let o = &self.opts;
        let path = o.image_path.as_str();
        let before = rec.drive.firmware.trim().to_string();
        let ei = extended_inquiry(t);
        let listed: Vec<Mode> = ei
            .as_ref()
            .map(|e| {
                Mode::DOWNLOAD
                    .into_iter()
                    .filter(|m| m.listed_in(e))
                    .collect()
            })
            .unwrap_or_default();
        let mut info = json!({
            "revision_before": before,
            "modes_listed": listed.iter().map(|m| format!("{:02X}h", m.code())).collect::<Vec<_>>(),
            "activate_microcode": ei.as_ref().map(|e| e.activate_microcode),
            "multi_i_t_nexus_microcode_download": ei.as_ref().map(|e| e.multi_i_t_nexus_microcode_download),
        });
        let Some(image) = o.image.clone() else {
            // Activation of what an earlier deferred download saved.
            if ei.as_ref().is_some_and(|e| e.dm_md_d || e.dm_md_e)
                && !ei.as_ref().is_some_and(|e| e.dm_md_f)
                && !o.force
            {
                return Err(Error::Unsupported(
                    "the drive does not list mode 0Fh (activate deferred microcode) in its Extended INQUIRY page; nothing was sent".into(),
                ));
            }
            let cdb = wb::WriteBufferCdb::new(Mode::Activate, 0).build()?;
            rec.set_method(JobMethod::Microcode(Mode::Activate), Category::None);
            self.plan = Some(Plan {
                mode: Mode::Activate,
                segments: vec![],
                activate: Some(cdb),
                expect: o.expect_revision.clone(),
                before,
                info,
            });
            return Ok(vec![PlannedCommand::new(
                "WRITE BUFFER mode 0Fh",
                &cdb,
                &[],
            )]);
        };
        // The image first: what it says of itself.
        let len = image.len();
        if len == 0 {
            return Err(bad_image(path, "empty"));
        }
        let mut expect = o.expect_revision.clone();
        let sim_header = if sim_image::is_sim_image(&image) {
            let h = sim_image::check(&image).map_err(|r| bad_image(path, r))?;
            if h.model != rec.drive.model.trim() {
                return Err(bad_image(
                    path,
                    format!(
                        "built for model {:?}, this drive is {:?}; nothing was sent",
                        h.model,
                        rec.drive.model.trim()
                    ),
                ));
            }
            match &expect {
                Some(e) if e.trim() != h.revision => {
                    return Err(bad_image(
                        path,
                        format!(
                            "installs revision {:?}, not the {:?} expected; nothing was sent",
                            h.revision,
                            e.trim()
                        ),
                    ))
                }
                _ => expect = Some(h.revision.clone()),
            }
            Some(h)
        } else {
            None
        };
        // The mode: asked for, or the first the drive lists.
        let mode = match o.mode {
            Some(m) => {
                if !listed.is_empty() && !listed.contains(&m) && !o.force {
                    return Err(Error::Unsupported(format!(
                        "the drive lists download modes {} (Extended INQUIRY DM_MD bits), not {:02X}h; nothing was sent",
                        listed.iter().map(|m| format!("{:02X}h", m.code())).collect::<Vec<_>>().join(", "),
                        m.code()
                    )));
                }
                m
            }
            None => *listed.first().ok_or_else(|| {
                Error::Unsupported(
                    "the drive does not say which download-microcode modes it supports (no \
                     DM_MD bit in its Extended INQUIRY page): name the mode; nothing was sent"
                        .into(),
                )
            })?,
        };
        // The buffer: capacity and offset boundary.
        let desc = descriptor(t, o.buffer_id);
        let image_len = u32::try_from(len).map_err(|_| bad_image(path, "larger than 4 GiB"))?;
        if let Some(d) = desc.filter(|d| d.capacity > 0) {
            if image_len > d.capacity {
                return Err(bad_image(
                    path,
                    format!(
                        "{len} bytes, more than the drive's microcode buffer of {} bytes (READ BUFFER descriptor, buffer ID {}); nothing was sent",
                        d.capacity, o.buffer_id
                    ),
                ));
            }
        }
        let whole = |what: &str| -> Result<u32> {
            if image_len > wb::MAX_24 {
                return Err(bad_image(
                    path,
                    format!("{len} bytes: {what} sends the image in one command, whose length field holds at most {} bytes; nothing was sent", wb::MAX_24),
                ));
            }
            Ok(image_len)
        };
        let (chunk, alignment) = if !mode.has_offsets() {
            if o.chunk.is_some() {
                return Err(bad_image(
                    path,
                    "mode 05h sends the whole image in one command: a segment size needs an offset mode (07h, 0Dh, 0Eh)",
                ));
            }
            (whole("mode 05h")?, 1)
        } else {
            match desc.map(|d| d.alignment()) {
                Some(None) => (whole("an offset boundary of FFh (offset zero only)")?, 1),
                Some(Some(a)) => {
                    let c = match o.chunk {
                        Some(c) => {
                            if c % a != 0 {
                                return Err(bad_image(
                                    path,
                                    format!(
                                        "segments of {c} bytes would put offsets off the drive's offset boundary of {a} bytes (READ BUFFER descriptor OFFSET BOUNDARY {}); choose a multiple of {a}; nothing was sent",
                                        desc.map_or(0, |d| d.offset_boundary)
                                    ),
                                ));
                            }
                            c
                        }
                        None => {
                            let cap = desc.map_or(0, |d| d.capacity);
                            let c = if cap > 0 {
                                DEFAULT_CHUNK.min(cap)
                            } else {
                                DEFAULT_CHUNK
                            };
                            (c / a * a).max(a)
                        }
                    };
                    (c, a)
                }
                // No descriptor: nothing to check the segments against but the CDB's fields.
                None => (o.chunk.unwrap_or(DEFAULT_CHUNK), 1),
            }
        };
        if chunk == 0 || chunk > wb::MAX_24 {
            return Err(bad_image(
                path,
                format!("a segment of {chunk} bytes: 1 to {} bytes", wb::MAX_24),
            ));
        }
        let segs = wb::segments(image_len, chunk, alignment)?;
        let specific = if mode == Mode::OffsetsEventsDefer {
            o.events.bits()
        } else {
            0
        };
        let mut segments = Vec::with_capacity(segs.len());
        let mut cmds = Vec::with_capacity(segs.len() + 1);
        let n = segs.len();
        for (i, s) in segs.iter().enumerate() {
            let cdb = wb::WriteBufferCdb::new(mode, s.len)
                .mode_specific(specific)
                .buffer_id(o.buffer_id)
                .offset(s.offset)
                .build()?;
            let mut pc = PlannedCommand::new(
                &format!("WRITE BUFFER {:02X}h {}/{n}", mode.code(), i + 1),
                &cdb,
                &[],
            );
            pc.data_out = format!("{} bytes of the image at offset {}", s.len, s.offset);
            cmds.push(pc);
            segments.push((cdb, s.offset as usize, s.len as usize));
        }
        let activate = if mode.defers() && o.activate {
            let cdb = wb::WriteBufferCdb::new(Mode::Activate, 0)
                .buffer_id(o.buffer_id)
                .build()?;
            cmds.push(PlannedCommand::new("WRITE BUFFER 0Fh", &cdb, &[]));
            Some(cdb)
        } else {
            None
        };
        let image_info = ImageInfo {
            path: path.to_string(),
            bytes: len,
            sha256: Sha256::digest(image.as_slice())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
            sim_header,
        };
        if let Some(m) = info.as_object_mut() {
            m.insert("image".into(), json!(image_info));
            m.insert("mode".into(), json!(format!("{:02X}h", mode.code())));
            m.insert("buffer_id".into(), json!(o.buffer_id));
            m.insert("buffer_descriptor".into(), json!(desc));
            m.insert("segment_bytes".into(), json!(chunk));
            m.insert("segments".into(), json!(n));
            m.insert("expected_revision".into(), json!(expect));
        }
        if let Some(p) = rec.parameters.as_object_mut() {
            p.insert("image".into(), json!(image_info));
            p.insert("mode".into(), json!(format!("{:02X}h", mode.code())));
        }
        rec.set_method(JobMethod::Microcode(mode), Category::None);
        self.plan = Some(Plan {
            mode,
            segments,
            activate,
            expect,
            before,
            info,
        });
        Ok(cmds)
    }

    fn execute(
        &mut self,
        t: &mut dyn Transport,
        rec: &mut JobRecord,
        gate: &Cleared,
        poll: &PollConfig,
        progress: &mut dyn FnMut(Option<f64>),
    ) -> Result<u8> {
        let p = self
            .plan
            .clone()
            .ok_or(Invalid::NotPlanned { job: "firmware" })?;
        let image = self.opts.image.clone().unwrap_or_default();
        let mut trail = Trail::default();
        let mut during = Vec::new();
        let r = download(t, gate, &p, &image, &mut trail, &mut during, progress);
        let (sent, failed) = match r {
            Ok(()) => (p.segments.len(), None),
            Err((i, e)) => (i, Some(e)),
        };
        // What the drive runs now and whether it answers.
        let after = revision_now(t);
        let (ready, seen) = observe(t, poll, &mut trail, 10);
        let mut status = during;
        for x in seen {
            if !status.contains(&x) {
                status.push(x);
            }
        }
        rec.sense_trail = trail.0;
        let activated_by_mode = matches!(p.mode, Mode::Save | Mode::OffsetsSave | Mode::Activate)
            || p.activate.is_some();
        let mut a = p.info.clone();
        if let Some(m) = a.as_object_mut() {
            m.insert("segments_sent".into(), json!(sent));
            m.insert("revision_after".into(), json!(after));
            m.insert("ready_after".into(), json!(ready));
            m.insert("microcode_status".into(), json!(status));
        }
        let after_s = after.clone().unwrap_or_else(|| "unknown".into());
        let ready_s = if ready {
            "answers TEST UNIT READY"
        } else {
            "does NOT answer TEST UNIT READY"
        };
        if let Some(e) = failed {
            let total = p.segments.len();
            let where_ = if sent < total {
                format!(
                    "the download was cut short at segment {} of {total} (offset {}): {e}",
                    sent + 1,
                    p.segments[sent].1
                )
            } else {
                format!("the activation (mode 0Fh) failed: {e}")
            };
            let same = after.as_deref() == Some(p.before.as_str());
            if let Some(m) = a.as_object_mut() {
                m.insert("activated".into(), json!(!same && after.is_some()));
                m.insert("interrupted".into(), json!(sent < total));
            }
            rec.after = a;
            // The record lists what was sent: the segments up to the one that failed.
            if sent < total {
                rec.commands.truncate(sent + 1);
            }
            rec.error_sense = e.sense().map(|s| Box::new(s.clone()));
            rec.outcome = Outcome::Failed;
            rec.message = Some(if same {
                format!(
                    "{where_}; the drive still runs revision {after_s} (the one before: nothing was activated) and {ready_s}"
                )
            } else {
                format!(
                    "{where_}; the drive now reports revision {after_s} (before: {}) and {ready_s}",
                    p.before
                )
            });
            let code = e.exit_code();
            rec.error = Some(Arc::new(e));
            return Ok(code);
        }
        let pending = p.mode.defers() && p.activate.is_none();
        if let Some(m) = a.as_object_mut() {
            m.insert(
                "activated".into(),
                json!(activated_by_mode && after.as_deref() != Some(p.before.as_str())),
            );
            m.insert("pending_activation".into(), json!(pending));
        }
        rec.after = a;
        if !ready {
            rec.outcome = Outcome::CheckFailed;
            rec.message = Some(format!(
                "the download was accepted; the drive reports revision {after_s} and {ready_s}"
            ));
            return Ok(exit::CHECK_FAILED);
        }
        if pending {
            rec.outcome = Outcome::Success;
            rec.message = Some(format!(
                "saved, not active: revision {after_s} runs until the saved microcode is activated (WRITE BUFFER mode 0Fh{})",
                if p.mode == Mode::OffsetsEventsDefer {
                    let e = self.opts.events;
                    let mut ev = vec![];
                    if e.power_on {
                        ev.push("power on");
                    }
                    if e.hard_reset {
                        ev.push("hard reset");
                    }
                    if e.vendor_specific {
                        ev.push("a vendor specific event");
                    }
                    if ev.is_empty() {
                        String::new()
                    } else {
                        format!(", {}", ev.join(", "))
                    }
                } else {
                    ", the next power on or hard reset".into()
                }
            ));
            return Ok(exit::OK);
        }
        match (&p.expect, &after) {
            (Some(want), Some(got)) if want.trim() == got.trim() => {
                rec.outcome = Outcome::Success;
                rec.message = Some(format!(
                    "revision {} -> {got} (verified with INQUIRY{})",
                    p.before,
                    if status.is_empty() {
                        String::new()
                    } else {
                        format!("; the drive reported {}", status.join(", "))
                    }
                ));
                Ok(exit::OK)
            }
            (Some(want), got) => {
                rec.outcome = Outcome::CheckFailed;
                rec.message = Some(format!(
                    "the drive reports revision {} after activation, not the {want} the image installs (before: {})",
                    got.as_deref().unwrap_or("unknown"),
                    p.before
                ));
                Ok(exit::CHECK_FAILED)
            }
            (None, got) => {
                rec.outcome = Outcome::Success;
                let got = got.as_deref().unwrap_or("unknown");
                rec.message = Some(if got == p.before {
                    format!(
                        "accepted and activated; the drive reports the same revision {got} as before (no expected revision was given to check){}",
                        if status.is_empty() { String::new() } else { format!("; the drive reported {}", status.join(", ")) }
                    )
                } else {
                    format!(
                        "revision {} -> {got} (read with INQUIRY; no expected revision was given to check){}",
                        p.before,
                        if status.is_empty() { String::new() } else { format!("; the drive reported {}", status.join(", ")) }
                    )
                });
                Ok(exit::OK)
            }
        }
    }
}

/// A microcode change a unit attention reports (3F/xx), as the record lists it.
fn ua_status(s: &crate::sense::Sense) -> Option<String> {
    (s.key == SenseKey::UnitAttention && s.asc == 0x3F).then(|| {
        format!(
            "{:02X}/{:02X} {}",
            s.asc,
            s.ascq,
            crate::sense::asc_description(s.asc, s.ascq)
        )
    })
}

/// Sends one WRITE BUFFER; a command answered with UNIT ATTENTION was not processed (SAM-5
/// 5.3.2), so it is sent again, once (scsi_debug, for one, raises 3F/16 on the LU after every
/// mode 07h segment).
fn send(
    t: &mut dyn Transport,
    cdb: &[u8],
    data: DataBuf<'_>,
    trail: &mut Trail,
    status: &mut Vec<String>,
) -> Result<()> {
    let out: Option<&[u8]> = match &data {
        DataBuf::Out(d) => Some(d),
        _ => None,
    };
    let mut attempt = 0;
    loop {
        let buf = match out {
            Some(d) => DataBuf::Out(d),
            None => DataBuf::None,
        };
        match t
            .execute(cdb, buf, WRITE_BUFFER_TIMEOUT)
            .and_then(|c| transport::check(&c))
        {
            Ok(()) => return Ok(()),
            Err(e) => {
                match e.sense() {
                    Some(s) => {
                        trail.push("WRITE BUFFER", s);
                        if let Some(u) = ua_status(s).filter(|u| !status.contains(u)) {
                            status.push(u);
                        }
                        if s.key == SenseKey::UnitAttention && attempt == 0 {
                            attempt += 1;
                            continue;
                        }
                    }
                    None => trail.push_error("WRITE BUFFER", &e),
                }
                return Err(e);
            }
        }
    }
}

/// Sends the plan's WRITE BUFFER commands (the gate's token shows it was cleared). On a
/// failure: how many segments went through, and the error.
fn download(
    t: &mut dyn Transport,
    _gate: &Cleared,
    p: &Plan,
    image: &[u8],
    trail: &mut Trail,
    status: &mut Vec<String>,
    progress: &mut dyn FnMut(Option<f64>),
) -> std::result::Result<(), (usize, Error)> {
    let n = p.segments.len();
    for (i, (cdb, off, len)) in p.segments.iter().enumerate() {
        let data = image
            .get(*off..off + len)
            .ok_or((i, Error::from(Invalid::NotPlanned { job: "firmware" })))?;
        send(t, cdb, DataBuf::Out(data), trail, status).map_err(|e| (i, e))?;
        progress(Some((i + 1) as f64 * 100.0 / n.max(1) as f64));
    }
    if let Some(cdb) = &p.activate {
        send(t, cdb, DataBuf::None, trail, status).map_err(|e| (n, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::Completion;

    /// Answers each command with the next of `answers` (fixed-format sense: key, ASC, ASCQ;
    /// `None`: GOOD) and counts them.
    struct Scripted {
        answers: Vec<Option<(u8, u8, u8)>>,
        sent: usize,
    }

    impl Transport for Scripted {
        fn execute(&mut self, _: &[u8], _: DataBuf<'_>, _: Duration) -> Result<Completion> {
            let a = self.answers.get(self.sent).copied().flatten();
            self.sent += 1;
            Ok(match a {
                None => Completion::default(),
                Some((k, asc, ascq)) => {
                    let mut sense = vec![0u8; 18];
                    sense[0] = 0x70;
                    sense[2] = k;
                    sense[7] = 10;
                    sense[12] = asc;
                    sense[13] = ascq;
                    Completion {
                        status: 2,
                        sense,
                        ..Completion::default()
                    }
                }
            })
        }
        fn address(&self) -> String {
            "scripted".into()
        }
    }

    /// scsi_debug raises 3F/16 after each mode 07h segment: the next segment meets the unit
    /// attention, was not processed, and goes again (sg_write_buffer stops there, exit 6).
    #[test]
    fn a_segment_answered_with_unit_attention_is_sent_again_once() {
        let cdb = wb::WriteBufferCdb::new(Mode::OffsetsSave, 0x400)
            .offset(0x400)
            .build()
            .unwrap();
        let mut t = Scripted {
            answers: vec![Some((6, 0x3F, 0x16)), None],
            sent: 0,
        };
        let (mut trail, mut status) = (Trail::default(), vec![]);
        send(
            &mut t,
            &cdb,
            DataBuf::Out(&[0u8; 1024]),
            &mut trail,
            &mut status,
        )
        .unwrap();
        assert_eq!(t.sent, 2);
        assert_eq!(status.len(), 1);
        assert!(status[0].starts_with("3F/16"), "{status:?}");
        // Twice in a row: the error stands.
        let mut t = Scripted {
            answers: vec![Some((6, 0x29, 0x00)), Some((6, 0x29, 0x00))],
            sent: 0,
        };
        assert!(send(
            &mut t,
            &cdb,
            DataBuf::Out(&[0u8; 1024]),
            &mut trail,
            &mut status
        )
        .is_err());
        assert_eq!(t.sent, 2);
        // Any other CHECK CONDITION is not sent again.
        let mut t = Scripted {
            answers: vec![Some((5, 0x26, 0x00)), None],
            sent: 0,
        };
        assert!(send(
            &mut t,
            &cdb,
            DataBuf::Out(&[0u8; 1024]),
            &mut trail,
            &mut status
        )
        .is_err());
        assert_eq!(t.sent, 1);
    }
}
