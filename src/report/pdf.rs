//! The certificate of sanitization as PDF/A-3u (ISO 19005-3: archival, every font embedded,
//! text mapped to Unicode), written by the `krilla` crate in-process: one page per drive, a
//! batch summary page first when the job had several drives, the signature's key fingerprint
//! and any countersignature printed, and the JSON document attached (PDF/A-3 associated file)
//! so the record travels inside its printable view. The batch manifest uses the same layout
//! ([`render_manifest`]).
//!
//! Like the HTML view ([`super::certificate`]) it reads the JSON, not the Rust structs, and never
//! refuses a document: missing fields print as "-".

use crate::error::{Error, Result};
use krilla::color::rgb;
use krilla::configure::{Archival, ConfigurationBuilder, PdfVersion, Validator};
use krilla::embed::{AssociationKind, EmbeddedFile, MimeType};
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::{DateTime, Metadata};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::{Document, SerializeSettings};
use serde_json::Value;

/// DejaVu Sans (assets/fonts/LICENSE-DejaVu.txt); subset and embedded in every PDF.
static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

const W: f32 = 595.0; // A4, points
const H: f32 = 842.0;
const MARGIN: f32 = 40.0;
const LABEL_W: f32 = 150.0;
const ROW: f32 = 10.2; // line height of 8.5- and 9-point rows

fn pdf_err(what: &str) -> Error {
    Error::io("PDF certificate", std::io::Error::other(what.to_string()))
}

/// Estimated advance of `text` in DejaVu Sans at `size` points (per-character classes; a
/// little wide on purpose so a wrapped line never runs into the margin).
fn width(text: &str, size: f32, bold: bool) -> f32 {
    let em: f32 = text
        .chars()
        .map(|c| match c {
            ' ' => 0.32,
            'i' | 'l' | 'j' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.30,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 0.42,
            'm' | 'w' | 'M' | 'W' | '@' | '%' | '—' => 0.92,
            c if c.is_ascii_uppercase() => 0.72,
            c if c.is_ascii_digit() => 0.64,
            _ => 0.60,
        })
        .sum();
    em * size * if bold { 1.1 } else { 1.0 }
}

/// `text` as the PDF may draw it: control and bidi characters escaped as in every text
/// rendering ([`crate::escape::escape`]: a newline in a drive's serial cannot start a line of its
/// own), and characters outside the blocks the embedded DejaVu Sans covers written as
/// `\u{..}` (PDF/A refuses a glyph the font lacks, and a certificate must still be written).
fn pdf_safe(text: &str) -> std::borrow::Cow<'_, str> {
    fn covered(c: char) -> bool {
        matches!(u32::from(c),
            0x20..=0x7e | 0xa0..=0x24f | 0x370..=0x52f | 0x2000..=0x206f | 0x20a0..=0x20cf
            | 0x2100..=0x22ff | 0x2500..=0x25ff)
    }
    let escaped = crate::escape::escape(text);
    if escaped.chars().all(covered) {
        return escaped;
    }
    let mut out = String::with_capacity(escaped.len() + 8);
    for c in escaped.chars() {
        if covered(c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Splits `text` into lines no wider than `max` points (at spaces, else anywhere).
fn wrap(text: &str, size: f32, bold: bool, max: f32) -> Vec<String> {
    let text = &*pdf_safe(text);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&candidate, size, bold) <= max {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // A word wider than the line (a hash, a path) is cut where it must be.
        let mut piece = String::new();
        for c in word.chars() {
            piece.push(c);
            if width(&piece, size, bold) > max {
                piece.pop();
                lines.push(std::mem::take(&mut piece));
                piece.push(c);
            }
        }
        line = piece;
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Colours of the verdict banner.
#[derive(Clone, Copy)]
enum Tone {
    Good,
    Note,
    Bad,
}

impl From<super::html::Tone> for Tone {
    fn from(t: super::html::Tone) -> Tone {
        match t {
            super::html::Tone::Good => Tone::Good,
            super::html::Tone::Note => Tone::Note,
            super::html::Tone::Bad => Tone::Bad,
        }
    }
}

/// A page being laid out from the top down; a new page starts when one fills up.
struct Writer {
    pages: Vec<Vec<Op>>,
    y: f32,
}

enum Op {
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        text: String,
        grey: bool,
    },
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: (u8, u8, u8),
    },
    Line {
        x1: f32,
        x2: f32,
        y: f32,
    },
}

impl Writer {
    fn new() -> Writer {
        Writer {
            pages: vec![],
            y: 0.0,
        }
    }

    fn page(&mut self) {
        self.pages.push(vec![]);
        self.y = MARGIN;
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.page();
        }
        let n = self.pages.len() - 1;
        &mut self.pages[n]
    }

    /// Starts a new page when `need` points do not fit above the footer.
    fn room(&mut self, need: f32) {
        if self.pages.is_empty() || self.y + need > H - MARGIN - 20.0 {
            self.page();
        }
    }

    fn text_at(&mut self, x: f32, size: f32, bold: bool, grey: bool, text: &str) {
        let y = self.y;
        self.ops().push(Op::Text {
            x,
            y,
            size,
            bold,
            grey,
            text: pdf_safe(text).into_owned(),
        });
    }

    fn title(&mut self, title: &str, subtitle: &str) {
        self.room(60.0);
        self.y += 18.0;
        self.text_at(MARGIN, 18.0, true, false, title);
        for l in wrap(subtitle, 9.0, false, W - 2.0 * MARGIN) {
            self.y += 13.0;
            self.text_at(MARGIN, 9.0, false, true, &l);
        }
        self.y += 8.0;
    }

    fn heading(&mut self, text: &str) {
        self.room(40.0);
        self.y += 14.0;
        self.text_at(MARGIN, 10.5, true, false, text);
        self.y += 4.0;
        let y = self.y;
        self.ops().push(Op::Line {
            x1: MARGIN,
            x2: W - MARGIN,
            y,
        });
        self.y += 2.0;
    }

    fn banner(&mut self, tone: Tone, text: &str) {
        let lines = wrap(text, 11.0, true, W - 2.0 * MARGIN - 16.0);
        let h = 10.0 + 14.0 * lines.len() as f32;
        self.room(h + 8.0);
        self.y += 6.0;
        let fill = match tone {
            Tone::Good => (0xd8, 0xf0, 0xd8),
            Tone::Note => (0xfd, 0xf0, 0xc8),
            Tone::Bad => (0xf8, 0xd0, 0xd0),
        };
        let (x, y) = (MARGIN, self.y);
        self.ops().push(Op::Rect {
            x,
            y,
            w: W - 2.0 * MARGIN,
            h,
            fill,
        });
        for l in &lines {
            self.y += 14.0;
            self.text_at(MARGIN + 8.0, 11.0, true, false, l);
        }
        self.y += 10.0;
    }

    fn para(&mut self, text: &str, size: f32) {
        for l in wrap(text, size, false, W - 2.0 * MARGIN) {
            self.room(size + 4.0);
            self.y += size + 4.0;
            self.text_at(MARGIN, size, false, false, &l);
        }
    }

    fn kv(&mut self, rows: &[(&str, String)]) {
        for (k, v) in rows {
            let ks = wrap(k, 9.0, true, LABEL_W - 8.0);
            let vs = wrap(v, 9.0, false, W - 2.0 * MARGIN - LABEL_W);
            let n = ks.len().max(vs.len());
            self.room(ROW * n as f32 + 1.5);
            let top = self.y;
            for (i, l) in ks.iter().enumerate() {
                self.y = top + ROW * (i as f32 + 1.0);
                self.text_at(MARGIN, 9.0, true, false, l);
            }
            for (i, l) in vs.iter().enumerate() {
                self.y = top + ROW * (i as f32 + 1.0);
                self.text_at(MARGIN + LABEL_W, 9.0, false, false, l);
            }
            self.y = top + ROW * n as f32 + 1.5;
        }
    }

    /// Two headed key/value blocks side by side (what fits in half a page width).
    fn kv_columns(&mut self, blocks: [(&str, &[(&str, String)]); 2]) {
        let col = (W - 2.0 * MARGIN) / 2.0;
        let label = 100.0;
        self.room(60.0);
        let top = self.y;
        let mut bottom = top;
        for (i, (title, rows)) in blocks.iter().enumerate() {
            let x = MARGIN + col * i as f32;
            self.y = top + 14.0;
            self.text_at(x, 10.5, true, false, title);
            self.y += 4.0;
            let y = self.y;
            self.ops().push(Op::Line {
                x1: x,
                x2: x + col - 10.0,
                y,
            });
            self.y += 2.0;
            for (k, v) in rows.iter() {
                let ks = wrap(k, 8.5, true, label - 6.0);
                let vs = wrap(v, 8.5, false, col - label - 10.0);
                let n = ks.len().max(vs.len());
                let row_top = self.y;
                for (j, l) in ks.iter().enumerate() {
                    self.y = row_top + ROW * (j as f32 + 1.0);
                    self.text_at(x, 8.5, true, false, l);
                }
                for (j, l) in vs.iter().enumerate() {
                    self.y = row_top + ROW * (j as f32 + 1.0);
                    self.text_at(x + label, 8.5, false, false, l);
                }
                self.y = row_top + ROW * n as f32 + 1.0;
            }
            bottom = bottom.max(self.y);
        }
        self.y = bottom;
    }

    /// A table with fixed column widths (points); cells wrap.
    fn table(&mut self, head: &[&str], widths: &[f32], rows: &[Vec<String>]) {
        let line = |w: &mut Writer, cells: &[String], bold: bool| {
            let wrapped: Vec<Vec<String>> = cells
                .iter()
                .zip(widths)
                .map(|(c, cw)| wrap(c, 8.0, bold, cw - 6.0))
                .collect();
            let n = wrapped.iter().map(Vec::len).max().unwrap_or(1);
            w.room(11.0 * n as f32 + 3.0);
            let top = w.y;
            let mut x = MARGIN;
            for (lines, cw) in wrapped.iter().zip(widths) {
                for (i, l) in lines.iter().enumerate() {
                    w.y = top + 11.0 * (i as f32 + 1.0);
                    w.text_at(x, 8.0, bold, false, l);
                }
                x += cw;
            }
            w.y = top + 11.0 * n as f32 + 3.0;
        };
        let head: Vec<String> = head.iter().map(|s| s.to_string()).collect();
        line(self, &head, true);
        for r in rows {
            line(self, r, false);
        }
    }

    /// Two signature boxes side by side: each role, the printed identity, a line to sign on and
    /// one for the date.
    fn signature_boxes(&mut self, boxes: [(&str, &str); 2]) {
        let col = (W - 2.0 * MARGIN) / 2.0;
        let wrapped: Vec<Vec<String>> = boxes
            .iter()
            .map(|(_, who)| wrap(who, 8.5, false, col - 14.0))
            .collect();
        let n = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        self.room(ROW * (n as f32 + 1.0) + 48.0);
        let top = self.y + 6.0;
        for (i, ((role, _), lines)) in boxes.iter().zip(&wrapped).enumerate() {
            let x = MARGIN + col * i as f32;
            self.y = top + ROW;
            self.text_at(x, 9.0, true, false, role);
            for l in lines {
                self.y += ROW;
                self.text_at(x, 8.5, false, false, l);
            }
            let line_y = top + ROW * (n as f32 + 1.0) + 30.0;
            self.ops().push(Op::Line {
                x1: x,
                x2: x + col * 0.62,
                y: line_y,
            });
            self.ops().push(Op::Line {
                x1: x + col * 0.68,
                x2: x + col - 14.0,
                y: line_y,
            });
            self.y = line_y + 9.0;
            self.text_at(x, 7.0, false, true, "signature");
            self.text_at(x + col * 0.68, 7.0, false, true, "date");
        }
    }

    /// Draws every page into the document, with a footer on each.
    fn emit(self, doc: &mut Document, footer: &str) -> Result<()> {
        let regular = Font::new(REGULAR.into(), 0).ok_or_else(|| pdf_err("font"))?;
        let bold = Font::new(BOLD.into(), 0).ok_or_else(|| pdf_err("bold font"))?;
        let n = self.pages.len();
        for (i, ops) in self.pages.into_iter().enumerate() {
            let settings = PageSettings::from_wh(W, H).ok_or_else(|| pdf_err("page size"))?;
            let mut page = doc.start_page_with(settings);
            let mut s = page.surface();
            for op in &ops {
                draw(&mut s, op, &regular, &bold);
            }
            let foot = format!("{footer} — page {} of {n}", i + 1);
            for (k, l) in wrap(&foot, 7.0, false, W - 2.0 * MARGIN).iter().enumerate() {
                draw(
                    &mut s,
                    &Op::Text {
                        x: MARGIN,
                        y: H - MARGIN + 10.0 * k as f32,
                        size: 7.0,
                        bold: false,
                        grey: true,
                        text: l.clone(),
                    },
                    &regular,
                    &bold,
                );
            }
            s.finish();
            page.finish();
        }
        Ok(())
    }
}

fn fill(c: (u8, u8, u8)) -> Fill {
    Fill {
        paint: rgb::Color::new(c.0, c.1, c.2).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

fn draw(s: &mut Surface<'_>, op: &Op, regular: &Font, bold: &Font) {
    match op {
        Op::Text {
            x,
            y,
            size,
            bold: b,
            grey,
            text,
        } => {
            s.set_fill(Some(fill(if *grey {
                (0x55, 0x55, 0x55)
            } else {
                (0, 0, 0)
            })));
            let font = if *b { bold.clone() } else { regular.clone() };
            s.draw_text(
                Point::from_xy(*x, *y),
                font,
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        Op::Rect {
            x,
            y,
            w,
            h,
            fill: c,
        } => {
            let mut pb = PathBuilder::new();
            if let Some(r) = Rect::from_xywh(*x, *y, *w, *h) {
                pb.push_rect(r);
            }
            if let Some(p) = pb.finish() {
                s.set_fill(Some(fill(*c)));
                s.set_stroke(None);
                s.draw_path(&p);
            }
        }
        Op::Line { x1, x2, y } => {
            let mut pb = PathBuilder::new();
            pb.move_to(*x1, *y);
            pb.line_to(*x2, *y);
            if let Some(p) = pb.finish() {
                s.set_fill(None);
                s.set_stroke(Some(Stroke {
                    paint: rgb::Color::new(0x88, 0x88, 0x88).into(),
                    width: 0.6,
                    ..Stroke::default()
                }));
                s.draw_path(&p);
                s.set_stroke(None);
            }
        }
    }
}

fn s(v: &Value, k: &str) -> String {
    match v.get(k) {
        Some(Value::String(x)) if !x.is_empty() => x.clone(),
        Some(Value::Null) | None => "-".into(),
        Some(Value::String(_)) => "-".into(),
        Some(x) => x.to_string(),
    }
}

/// The PDF creation date from an RFC 3339 UTC time (`2026-12-06T01:02:03Z`...).
fn date_of(t: &str) -> Option<DateTime> {
    let n = |r: std::ops::Range<usize>| t.get(r).and_then(|x| x.parse::<u16>().ok());
    let d = DateTime::new(n(0..4)?)
        .month(u8::try_from(n(5..7)?).ok()?)
        .day(u8::try_from(n(8..10)?).ok()?)
        .hour(u8::try_from(n(11..13)?).ok()?)
        .minute(u8::try_from(n(14..16)?).ok()?)
        .second(u8::try_from(n(17..19)?).ok()?)
        .utc_offset_hour(0)
        .utc_offset_minute(0);
    Some(d)
}

/// Finishes a PDF/A-3u document with `json` attached as `name`.
fn finish(
    w: Writer,
    title: &str,
    footer: &str,
    date: Option<&str>,
    json: &[u8],
    name: &str,
    description: &str,
) -> Result<Vec<u8>> {
    let config = ConfigurationBuilder::new()
        .with_version(PdfVersion::Pdf17)
        .set_validator(Validator::from(Archival::A3_U))
        .finish()
        .map_err(|e| pdf_err(&format!("PDF/A configuration: {e:?}")))?;
    let settings = SerializeSettings {
        configuration: config,
        ..SerializeSettings::default()
    };
    let mut doc = Document::new_with(settings);
    // PDF/A needs a document date: the record's end, else now.
    let now = crate::clock::rfc3339(std::time::SystemTime::now());
    let date = Some(date.filter(|d| date_of(d).is_some()).unwrap_or(&now));
    let created = date.and_then(date_of);
    let mut meta = Metadata::new()
        .title(title.to_string())
        .creator(format!("sgctl {}", env!("CARGO_PKG_VERSION")))
        .language("en".into());
    if let Some(d) = created {
        meta = meta.creation_date(d);
    }
    doc.set_metadata(meta);
    w.emit(&mut doc, footer)?;
    doc.embed_file(EmbeddedFile {
        path: name.to_string(),
        mime_type: MimeType::new("application/json"),
        description: Some(description.to_string()),
        association_kind: AssociationKind::Source,
        data: json.to_vec().into(),
        modification_date: date.and_then(date_of),
        compress: Some(true),
        location: None,
    })
    .ok_or_else(|| pdf_err("attachment"))?;
    doc.finish()
        .map_err(|e| pdf_err(&format!("PDF/A export: {e:?}")))
}

/// A key fingerprint as printed: groups of four hex digits, so a line breaks between groups
/// and a reader can compare it group by group.
pub(crate) fn grouped(hex: &str) -> String {
    hex.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Who signed the document: the signer's key fingerprint and each countersignature.
fn signatures(doc: &Value) -> Vec<(&'static str, String)> {
    let mut out = vec![(
        "Signature (Ed25519)",
        match doc.get("signature") {
            Some(sig) => format!(
                "key fingerprint (SHA-256) {}",
                grouped(&s(sig, "key_fingerprint"))
            ),
            None => "not signed".into(),
        },
    )];
    for c in doc
        .get("countersignatures")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let who = c.get("signer").cloned().unwrap_or(Value::Null);
        out.push((
            "Countersignature",
            format!(
                "{} ({}), {}, {} — key fingerprint (SHA-256) {}",
                s(&who, "name"),
                s(&who, "title"),
                s(c, "role"),
                s(c, "signed_at"),
                grouped(&s(c, "key_fingerprint"))
            ),
        ));
    }
    out
}

fn drive_page(w: &mut Writer, i: usize, n: usize, r: &Value, doc: &Value) {
    let drive = r.get("drive").cloned().unwrap_or(Value::Null);
    w.page();
    let (job, method) = super::certificate::job_and_method(r);
    let sanitization = super::certificate::is_sanitization(&job, &method);
    w.title(
        super::certificate::record_title(&job, &method),
        &if sanitization {
            format!(
                "Drive {} of {n} — NIST SP 800-88 Rev. 2, IEEE 2883-2022; Rev. 1 Appendix G fields",
                i + 1
            )
        } else {
            format!(
                "Drive {} of {n} — NOT A CERTIFICATE OF SANITIZATION: a record of a job that sanitizes nothing",
                i + 1
            )
        },
    );
    let (partial, tone, line) = super::certificate::verdict(r);
    if let Some(p) = &partial {
        w.banner(Tone::Bad, p);
    }
    w.banner(Tone::from(tone), &line);
    let cap = match (
        drive.get("capacity_bytes").and_then(Value::as_u64),
        drive.get("logical_block_length").and_then(Value::as_u64),
    ) {
        (Some(c), Some(b)) => format!("{c} bytes ({b}-byte blocks)"),
        (Some(c), None) => format!("{c} bytes"),
        _ => "-".into(),
    };
    let duration = r
        .get("duration_s")
        .and_then(Value::as_f64)
        .map(|x| format!("{x:.1} s"))
        .unwrap_or_else(|| "-".into());
    let mut media = vec![
        ("Manufacturer", s(&drive, "vendor")),
        ("Model", s(&drive, "model")),
        ("Serial number", s(&drive, "serial")),
        ("WWN (LU name)", s(&drive, "wwn")),
        ("Firmware", s(&drive, "firmware")),
        ("Capacity", cap),
        ("Device address", s(r, "device")),
    ];
    if let Some(place) = super::certificate::enclosure_slot(r) {
        media.push(("Enclosure, slot", place));
    }
    let san = [
        ("Method", s(r, "method")),
        ("NIST SP 800-88", s(r, "nist_sp_800_88_category")),
        ("IEEE 2883", s(r, "ieee_2883_category")),
        ("Outcome", s(r, "outcome")),
        ("Started", s(r, "started")),
        ("Ended", s(r, "ended")),
        ("Duration", duration),
        (
            "Tool",
            format!("{} ({})", s(r, "tool"), s(r, "tool_git_revision")),
        ),
        ("Audit job id", s(r, "job_id")),
    ];
    w.kv_columns([
        ("Media", &media[..]),
        (
            if sanitization {
                "Sanitization"
            } else {
                "Job (not a sanitization)"
            },
            &san[..],
        ),
    ]);
    let field = |k: &str| r.get(k).filter(|v| !v.is_null());
    // Rows without a value ("-") are left out of the PDF, so that a drive's record fits its
    // page; the JSON attached and the HTML view keep every row.
    let given = |rows: Vec<(&'static str, String)>| -> Vec<(&'static str, String)> {
        rows.into_iter()
            .filter(|(_, v)| v != "-" && !v.is_empty())
            .collect()
    };
    let not_recorded = vec![("Recorded", "no".to_string())];
    let scope = field("scope")
        .map(|sc| given(super::certificate::scope_rows(sc)))
        .unwrap_or_else(|| not_recorded.clone());
    let technique = field("technique_verification")
        .map(|tv| given(super::certificate::technique_rows(tv)))
        .unwrap_or_else(|| not_recorded.clone());
    w.kv_columns([
        ("Scope", &scope),
        ("Verification (the technique completed)", &technique),
    ]);
    match super::certificate::validation_rows(field("validation"), field("verification")) {
        Some(rows) => {
            // Short values in two columns, the sentences below them at full width.
            let (short, long): (Vec<_>, Vec<_>) = given(rows)
                .into_iter()
                .partition(|(_, v)| v.chars().count() <= 30);
            let (left, right) = short.split_at(short.len().div_ceil(2));
            w.kv_columns([("Validation (the data is gone)", left), ("", right)]);
            w.kv(&long);
        }
        None => {
            w.heading("Validation (the data is gone)");
            w.para("Not validated: no block was read back.", 9.0);
        }
    }
    if let Some(f) = r.get("sanitization_record").filter(|v| !v.is_null()) {
        // Two columns, so that a drive's record fits its page.
        let rows = super::certificate::sanitization_rows(f);
        let (left, right) = rows.split_at(rows.len().div_ceil(2));
        w.kv_columns([
            ("Sanitization record (NIST SP 800-88 Rev. 2)", left),
            ("", right),
        ]);
    }
    if let Some(m) = r.get("message").and_then(Value::as_str) {
        w.heading("Note");
        w.para(m, 9.0);
    }
    w.heading("Signatures");
    w.kv(&signatures(doc));
    let f = r.get("sanitization_record").cloned().unwrap_or(Value::Null);
    let person = |k: &str, fallback: String| {
        let line = person_line(&f[k]);
        if line == "-" {
            fallback
        } else {
            line
        }
    };
    let (by, val) = (
        person("sanitized_by", s(r, "operator")),
        person("validated_by", "-".into()),
    );
    let who = if sanitization {
        "Sanitized by"
    } else {
        "Performed by"
    };
    w.signature_boxes([(who, &by), ("Validated by", &val)]);
}

fn person_line(p: &Value) -> String {
    let parts: Vec<&str> = ["name", "title", "organisation", "location", "contact"]
        .iter()
        .filter_map(|k| p.get(*k).and_then(Value::as_str))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

/// A record's scope in a few words: the whole drive, or PARTIAL with its share.
fn scope_cell(r: &Value) -> String {
    let Some(sc) = r.get("scope").filter(|v| !v.is_null()) else {
        return "not recorded".into();
    };
    match sc.get("whole_drive").and_then(Value::as_bool) {
        Some(true) => "whole drive".into(),
        _ => match sc.get("fraction_of_capacity").and_then(Value::as_f64) {
            Some(f) => format!("PARTIAL ({:.1} %)", f * 100.0),
            None => "PARTIAL".into(),
        },
    }
}

fn summary_page(w: &mut Writer, recs: &[Value], hashes: &[String], doc: &Value) {
    w.page();
    let jobs: Vec<(String, String)> = recs
        .iter()
        .map(super::certificate::job_and_method)
        .collect();
    let title =
        super::certificate::document_title(jobs.iter().map(|(j, m)| (j.as_str(), m.as_str())));
    w.title(
        &format!("{title} — batch summary"),
        &format!(
            "{} drives — NIST SP 800-88 Rev. 2 and IEEE 2883-2022; one page per drive follows",
            recs.len()
        ),
    );
    let rows: Vec<Vec<String>> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let d = r.get("drive").cloned().unwrap_or(Value::Null);
            let f = r.get("sanitization_record").cloned().unwrap_or(Value::Null);
            vec![
                (i + 1).to_string(),
                format!("{} {}", s(&d, "vendor"), s(&d, "model")),
                s(&d, "serial"),
                s(&f, "property_number"),
                s(r, "outcome"),
                s(&f, "description"),
                scope_cell(r),
                ["validation", "verification"]
                    .iter()
                    .find_map(|k| {
                        r.get(*k)
                            .and_then(|v| v.get("result"))
                            .and_then(Value::as_str)
                    })
                    .map_or_else(|| "not validated".into(), |v| v.replace('_', " ")),
                hashes.get(i).map_or_else(|| "-".into(), |h| grouped(h)),
            ]
        })
        .collect();
    w.table(
        &[
            "#",
            "drive",
            "serial",
            "property",
            "outcome",
            "description",
            "scope",
            "validation",
            "record SHA-256",
        ],
        &[16.0, 72.0, 60.0, 50.0, 48.0, 58.0, 50.0, 56.0, 105.0],
        &rows,
    );
    w.heading("Signatures");
    w.kv(&signatures(doc));
}

/// Renders a certificate document (`{"certificates": [...], "signature": ...}`) as PDF/A-3u,
/// with `json` (the certificate file's bytes) attached as `name`. `hashes` are the records'
/// hashes the signature covers (the signer's `record_hashes`), listed on a batch's
/// summary page.
pub(crate) fn render(doc: &Value, json: &[u8], name: &str, hashes: &[String]) -> Result<Vec<u8>> {
    let empty = Vec::new();
    let recs = doc
        .get("certificates")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut w = Writer::new();
    if recs.len() > 1 {
        summary_page(&mut w, recs, hashes, doc);
    }
    for (i, r) in recs.iter().enumerate() {
        drive_page(&mut w, i, recs.len(), r, doc);
    }
    if recs.is_empty() {
        w.page();
        w.title("Certificate of Sanitization", "NIST SP 800-88 Rev. 2");
        w.banner(Tone::Bad, "This certificate holds no drive record.");
    }
    let tool = recs.first().map(|r| s(r, "tool")).unwrap_or_default();
    let date = recs
        .iter()
        .filter_map(|r| r.get("ended"))
        .find_map(Value::as_str);
    let jobs: Vec<(String, String)> = recs
        .iter()
        .map(super::certificate::job_and_method)
        .collect();
    let title =
        super::certificate::document_title(jobs.iter().map(|(j, m)| (j.as_str(), m.as_str())));
    finish(
        w,
        title,
        &format!("{tool} — the attached {name} is the record; this page is a view of it"),
        date,
        json,
        name,
        "The record as JSON (the signed record)",
    )
}

/// Renders a batch manifest (`{"manifest": {...}, "drives": [...], "signature": ...}`) as
/// PDF/A-3u with `json` attached as `name`.
pub(crate) fn render_manifest(m: &Value, json: &[u8], name: &str) -> Result<Vec<u8>> {
    let mut w = Writer::new();
    w.page();
    let head = m.get("manifest").cloned().unwrap_or(Value::Null);
    w.title(
        "Sanitization batch manifest",
        "NIST SP 800-88 Rev. 2 records of one multi-drive job; each drive's certificate is named by its SHA-256",
    );
    w.kv(&[
        ("Job", s(&head, "job")),
        ("Drives", s(&head, "drives")),
        ("Succeeded", s(&head, "succeeded")),
        ("Started", s(&head, "started")),
        ("Ended", s(&head, "ended")),
        ("Host", s(&head, "host")),
        ("Tool", s(&head, "tool")),
        ("Certificate", s(&head, "certificate")),
        (
            "Certificate SHA-256",
            grouped(&s(&head, "certificate_sha256")),
        ),
        ("Audit log", s(&head, "audit_log")),
    ]);
    w.heading("Drives");
    let rows: Vec<Vec<String>> = m
        .get("drives")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|d| {
            vec![
                s(d, "serial"),
                s(d, "property_number"),
                s(d, "outcome"),
                s(d, "scope"),
                s(d, "validation"),
                grouped(&s(d, "record_sha256")),
            ]
        })
        .collect();
    w.table(
        &[
            "serial",
            "property",
            "outcome",
            "scope",
            "validation",
            "record SHA-256",
        ],
        &[75.0, 65.0, 55.0, 75.0, 70.0, 155.0],
        &rows,
    );
    w.heading("Signatures");
    w.kv(&[(
        "Signature (Ed25519)",
        match m.get("signature") {
            Some(sig) => format!(
                "key fingerprint (SHA-256) {}",
                grouped(&s(sig, "key_fingerprint"))
            ),
            None => "not signed".into(),
        },
    )]);
    let date = head.get("ended").and_then(Value::as_str);
    finish(
        w,
        "Sanitization batch manifest",
        &format!("{} — the attached {name} is the manifest", s(&head, "tool")),
        date,
        json,
        name,
        "The batch manifest as JSON (the signed record)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn control_characters_and_missing_glyphs_are_escaped() {
        assert_eq!(
            pdf_safe("S1\n  verification: PASSED"),
            "S1\\n  verification: PASSED"
        );
        assert_eq!(pdf_safe("Ünïcode — ok"), "Ünïcode — ok");
        assert_eq!(pdf_safe("序列"), "\\u{5e8f}\\u{5217}");
        assert_eq!(pdf_safe("a\u{202e}b"), "a\\u{202e}b");
    }

    #[test]
    fn wraps_within_the_width() {
        for l in wrap(&"abcdefgh ".repeat(40), 9.0, false, 200.0) {
            assert!(width(&l, 9.0, false) <= 200.0, "{l}");
        }
        let hash = "0123456789abcdef".repeat(4);
        let lines = wrap(&hash, 9.0, false, 150.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.concat(), hash);
        assert_eq!(wrap("", 9.0, false, 100.0), vec![String::new()]);
    }

    #[test]
    fn a_pdf_a_document_with_the_json_attached() {
        let doc = json!({"certificates": [
            {"outcome": "success", "drive": {"serial": "S1"}, "ended": "2026-12-06T01:02:03Z"},
            {"outcome": "failed", "drive": {"serial": "S2"}}]});
        let json = serde_json::to_vec(&doc).unwrap();
        let pdf = render(&doc, &json, "cert.json", &[]).unwrap();
        assert!(pdf.starts_with(b"%PDF-1.7"));
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("pdfaid:part>3<") || text.contains("pdfaid:part=\"3\""));
        assert!(text.contains("cert.json"));
        // Garbage still renders.
        let r = render(&json!(5), b"5", "x.json", &[]);
        assert!(r.is_ok(), "{:?}", r.err());
    }
}
