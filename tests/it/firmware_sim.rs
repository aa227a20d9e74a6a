//! Firmware download: the virtual drive's WRITE BUFFER (3Bh) download-microcode modes and READ
//! BUFFER (3Ch) descriptor mode, from CDBs built after the SPC-6 tables (WRITE BUFFER: MODE in
//! byte 1 bits 4-0, BUFFER ID byte 2, BUFFER OFFSET bytes 3-5, PARAMETER LIST LENGTH bytes 6-8;
//! READ BUFFER descriptor: OFFSET BOUNDARY, BUFFER CAPACITY), and `sgctl firmware` on it: the
//! gate, the checks before anything is sent (the `-v` trace shows no WRITE BUFFER), the revision
//! verified afterwards, and a download cut short that leaves the old revision running.

use crate::sim_common::*;
use serde_json::Value;
use sgctl::scsi::write_buffer::sim_image;
use sgctl::sim::{Fault, SimDevice};

const PX: &str = "px02smf080?clock=virtual&capacity_blocks=8192";

fn wb(mode: u8, off: u32, len: u32) -> [u8; 10] {
    let o = off.to_be_bytes();
    let l = len.to_be_bytes();
    [0x3B, mode, 0, o[1], o[2], o[3], l[1], l[2], l[3], 0]
}

fn revision(d: &mut SimDevice) -> String {
    let (c, b) = din(d, &[0x12, 0, 0, 0, 96, 0], 96);
    good(&c);
    String::from_utf8_lossy(&b[32..36]).trim().to_string()
}

fn image(rev: &str, n: usize) -> Vec<u8> {
    let payload: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
    sim_image::build("PX02SMF080", rev, &payload)
}

/// Sends `img` in `chunk`-byte segments with `mode`; the completion of each.
fn download(d: &mut SimDevice, mode: u8, img: &[u8], chunk: usize) -> Vec<sgctl::Completion> {
    img.chunks(chunk)
        .enumerate()
        .map(|(i, c)| dout(d, &wb(mode, (i * chunk) as u32, c.len() as u32), c))
        .collect()
}

#[test]
fn read_buffer_descriptor_and_extended_inquiry_bits() {
    let mut d = open(PX);
    clear(&mut d);
    let (c, b) = din(&mut d, &[0x3C, 0x03, 0, 0, 0, 0, 0, 0, 4, 0], 4);
    good(&c);
    // OFFSET BOUNDARY 9 (512 bytes), BUFFER CAPACITY 1 MiB.
    assert_eq!(b, vec![9, 0x10, 0, 0]);
    // Data mode (02h) and another buffer ID are not there.
    assert_eq!(
        kcq(&din(&mut d, &[0x3C, 0x02, 0, 0, 0, 0, 0, 0, 4, 0], 4).0),
        (5, 0x24, 0)
    );
    assert_eq!(
        kcq(&din(&mut d, &[0x3C, 0x03, 1, 0, 0, 0, 0, 0, 4, 0], 4).0),
        (5, 0x24, 0)
    );
    // VPD 86h: ACTIVATE MICROCODE 01b, DM_MD_5/7/D/E/F.
    let (c, p) = din(&mut d, &[0x12, 1, 0x86, 0, 64, 0], 64);
    good(&c);
    let ei = sgctl::scsi::vpd::extended_inquiry::parse(&p).unwrap();
    assert_eq!(ei.activate_microcode, 1);
    assert!(ei.dm_md_5 && ei.dm_md_7 && ei.dm_md_d && ei.dm_md_e && ei.dm_md_f);
    assert!(!ei.dm_md_4 && !ei.dm_md_6);
}

fn clear(d: &mut SimDevice) {
    while tur(d).status != 0 {}
}

#[test]
fn mode_5_and_7_activate_and_tell_the_other_port() {
    let mut d = open(PX);
    clear(&mut d);
    assert_eq!(revision(&mut d), "0203");
    let img = image("0204", 3000);
    let c = dout(&mut d, &wb(0x05, 0, img.len() as u32), &img);
    good(&c);
    assert_eq!(revision(&mut d), "0204");
    // 3F/01 on the other port, not on the one the command came through.
    good(&tur(&mut d));
    let mut p2 = d.port(2);
    assert_eq!(kcq(&tur(&mut p2)), (6, 0x3F, 0x01));
    // Mode 07h in 512-byte segments.
    let img = image("0205", 5000);
    for c in download(&mut d, 0x07, &img, 512) {
        good(&c);
    }
    assert_eq!(revision(&mut d), "0205");
    // Mode 05h with an offset: 24/00 on byte 3.
    let c = dout(&mut d, &wb(0x05, 512, 512), &img[..512]);
    assert_eq!(kcq(&c), (5, 0x24, 0));
    // Mode 04h is not implemented.
    assert_eq!(
        kcq(&dout(&mut d, &wb(0x04, 0, 64), &img[..64])),
        (5, 0x24, 0)
    );
}

#[test]
fn deferred_download_waits_for_activation_or_power_on() {
    let mut d = open(PX);
    clear(&mut d);
    // 0Fh with nothing saved: COMMAND SEQUENCE ERROR.
    assert_eq!(kcq(&none(&mut d, &wb(0x0F, 0, 0))), (5, 0x2C, 0));
    for c in download(&mut d, 0x0E, &image("0300", 4000), 1024) {
        good(&c);
    }
    assert_eq!(revision(&mut d), "0203", "saved, not active");
    good(&none(&mut d, &wb(0x0F, 0, 0)));
    assert_eq!(revision(&mut d), "0300");
    // 0Dh, then a power on activates it.
    for c in download(&mut d, 0x0D, &image("0301", 700), 512) {
        good(&c);
    }
    assert_eq!(revision(&mut d), "0300");
    d.inject(Fault::PowerCycle);
    clear(&mut d);
    assert_eq!(revision(&mut d), "0301");
}

#[test]
fn wrong_images_and_segments_are_refused_and_change_nothing() {
    let mut d = open(PX);
    clear(&mut d);
    // Another model: 26/00 as soon as the header has arrived.
    let other = sim_image::build("OTHERMODEL", "9999", &[1u8; 600]);
    let c = dout(&mut d, &wb(0x07, 0, 512), &other[..512]);
    assert_eq!(kcq(&c), (5, 0x26, 0));
    // A damaged payload: 26/00 at the last segment.
    let mut bad = image("0999", 2000);
    let n = bad.len();
    bad[n - 5] ^= 0xFF;
    let r = download(&mut d, 0x07, &bad, 512);
    assert_eq!(kcq(r.last().unwrap()), (5, 0x26, 0));
    // An offset off the 512-byte boundary, a segment out of order, past the buffer.
    let img = image("0999", 2000);
    good(&dout(&mut d, &wb(0x07, 0, 512), &img[..512]));
    assert_eq!(
        kcq(&dout(&mut d, &wb(0x07, 256, 256), &img[256..512])),
        (5, 0x24, 0)
    );
    good(&dout(&mut d, &wb(0x07, 0, 512), &img[..512]));
    assert_eq!(
        kcq(&dout(&mut d, &wb(0x07, 1024, 512), &img[1024..1536])),
        (5, 0x24, 0)
    );
    assert_eq!(
        kcq(&dout(
            &mut d,
            &wb(0x07, (1 << 20) - 512, 1024),
            &[0u8; 1024]
        )),
        (5, 0x24, 0)
    );
    assert_eq!(revision(&mut d), "0203");
}

#[test]
fn a_download_cut_short_leaves_the_old_revision_and_a_usable_drive() {
    let mut d = open(PX);
    clear(&mut d);
    d.inject(Fault::FailMicrocode(3));
    let img = image("0400", 4000);
    let r = download(&mut d, 0x07, &img, 512);
    good(&r[0]);
    good(&r[1]);
    assert_eq!(r[2].host_status, 0x07, "DID_ERROR on the third segment");
    // The rest goes to a download that no longer exists: out of sequence.
    assert_eq!(kcq(&r[3]), (5, 0x24, 0));
    assert_eq!(revision(&mut d), "0203");
    good(&tur(&mut d));
    // A whole download afterwards works.
    for c in download(&mut d, 0x07, &img, 512) {
        good(&c);
    }
    assert_eq!(revision(&mut d), "0400");
}

// --- sgctl firmware ---

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("lock")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            dir.path().join("lock"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        Env { dir }
    }
    fn path(&self, n: &str) -> std::path::PathBuf {
        self.dir.path().join(n)
    }
    fn addr(&self) -> String {
        format!("sim:{PX}&state={}", self.path("d.json").display())
    }
    fn write(&self, n: &str, b: &[u8]) -> String {
        std::fs::write(self.path(n), b).unwrap();
        self.path(n).display().to_string()
    }
    /// `sgctl -v --json ARGS`: (exit, JSON, stderr).
    fn sgctl(&self, args: &[&str]) -> (i32, Value, String) {
        let out = crate::util::sgctl_cmd()
            .env("SGCTL_AUDIT_LOG", self.path("audit.jsonl"))
            .env("SGCTL_LOCK_DIR", self.path("lock"))
            .args(["-v", "--json"])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
    fn serial(&self) -> String {
        let spec = format!("{PX}&state={}", self.path("d.json").display());
        let mut d = open(&spec);
        let (c, b) = din(&mut d, &[0x12, 1, 0x80, 0, 64, 0], 64);
        good(&c);
        String::from_utf8_lossy(&b[4..]).trim().to_string()
    }
    fn audit(&self) -> Vec<Value> {
        std::fs::read_to_string(self.path("audit.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn sent_write_buffer(stderr: &str) -> bool {
    stderr.contains("Write buffer cdb")
}

#[test]
fn cli_downloads_verifies_and_records() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0204", 200_000));
    let addr = e.addr();
    // Dry run: the CDBs, nothing sent.
    let (c, j, err) = e.sgctl(&[
        "firmware",
        &addr,
        "--image",
        &img,
        "--chunk",
        "64k",
        "--dry-run",
    ]);
    assert_eq!(c, 0, "{err}");
    assert!(!sent_write_buffer(&err), "{err}");
    let cmds = j["data"]["drives"][0]["commands"].as_array().unwrap();
    assert_eq!(cmds.len(), 4, "{j}");
    assert_eq!(cmds[1]["cdb"], "3b 07 00 01 00 00 01 00 00 00");
    // No confirmation: refused (exit 6), nothing sent.
    let (c, _, err) = e.sgctl(&["firmware", &addr, "--image", &img]);
    assert_eq!(c, 6, "{err}");
    assert!(!sent_write_buffer(&err));
    // The real thing.
    let (c, j, err) = e.sgctl(&["firmware", &addr, "--image", &img, "--confirm", &serial]);
    assert_eq!(c, 0, "{err}");
    assert!(sent_write_buffer(&err));
    let r = &j["data"]["drives"][0];
    assert_eq!(r["outcome"], "success", "{r}");
    assert_eq!(r["after"]["revision_before"], "0203");
    assert_eq!(r["after"]["revision_after"], "0204");
    assert_eq!(r["after"]["expected_revision"], "0204");
    assert_eq!(r["after"]["activated"], true);
    assert_eq!(
        r["method"],
        "WRITE BUFFER mode 07h (download microcode with offsets, save, and activate)"
    );
    let a = e.audit();
    let start = a.iter().find(|x| x["event"] == "start").unwrap();
    assert_eq!(start["job"], "firmware");
    assert_eq!(start["details"]["parameters"]["image"]["bytes"], 200_064);
    let end = a.iter().find(|x| x["event"] == "end").unwrap();
    assert_eq!(end["outcome"], "success");
    let (_, j, _) = e.sgctl(&["inquiry", &addr]);
    assert!(j.to_string().contains("0204"), "{j}");
}

#[test]
fn cli_checks_the_image_before_sending_anything() {
    let e = Env::new();
    let serial = e.serial();
    let addr = e.addr();
    let run = |args: &[&str]| {
        let mut v = vec!["firmware", addr.as_str()];
        v.extend_from_slice(args);
        v.extend_from_slice(&["--confirm", serial.as_str()]);
        let (c, j, err) = e.sgctl(&v);
        // The record's message is in the JSON document, the trace on stderr.
        (c, j.clone(), format!("{j}\n{err}"))
    };
    // Another model.
    let other = e.write("other.bin", &sim_image::build("OTHER", "0204", &[1u8; 100]));
    let (c, _, err) = run(&["--image", &other]);
    assert_eq!(c, 2, "{err}");
    assert!(
        !sent_write_buffer(&err) && err.contains("built for model"),
        "{err}"
    );
    // A segment size off the drive's 512-byte offset boundary.
    let img = e.write("fw.bin", &image("0204", 5000));
    let (c, _, err) = run(&["--image", &img, "--chunk", "1000"]);
    assert_eq!(c, 2, "{err}");
    assert!(
        !sent_write_buffer(&err) && err.contains("offset boundary"),
        "{err}"
    );
    // Larger than the drive's 1 MiB buffer.
    let big = e.write("big.bin", &image("0204", 1 << 20));
    let (c, _, err) = run(&["--image", &big]);
    assert_eq!(c, 2, "{err}");
    assert!(
        !sent_write_buffer(&err) && err.contains("microcode buffer"),
        "{err}"
    );
    // A damaged image (CRC).
    let mut b = image("0204", 5000);
    b[100] ^= 1;
    let bad = e.write("bad.bin", &b);
    let (c, _, err) = run(&["--image", &bad]);
    assert_eq!(c, 2, "{err}");
    assert!(!sent_write_buffer(&err) && err.contains("CRC"), "{err}");
    // A symbolic link is not followed; an empty file is refused.
    std::os::unix::fs::symlink(e.path("fw.bin"), e.path("link.bin")).unwrap();
    let link = e.path("link.bin").display().to_string();
    let (c, _, err) = run(&["--image", &link]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("symbolic link"), "{err}");
    let empty = e.write("empty.bin", b"");
    assert_eq!(run(&["--image", &empty]).0, 2);
    // The expected revision disagrees with the image's own.
    let (c, _, err) = run(&["--image", &img, "--expect-revision", "0999"]);
    assert_eq!(c, 2, "{err}");
    assert!(!sent_write_buffer(&err));
    let (_, j, _) = e.sgctl(&["inquiry", &addr]);
    assert!(j.to_string().contains("0203"), "{j}");
}

#[test]
fn cli_interrupted_download_keeps_the_old_revision_and_says_so() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0500", 200_000));
    let addr = format!("{}&fail_microcode=2", e.addr());
    let (c, j, err) = e.sgctl(&["firmware", &addr, "--image", &img, "--confirm", &serial]);
    assert_eq!(c, 4, "{err}");
    let r = &j["data"]["drives"][0];
    assert_eq!(r["outcome"], "failed", "{r}");
    assert_eq!(r["after"]["revision_after"], "0203");
    assert_eq!(r["after"]["interrupted"], true);
    assert_eq!(r["after"]["activated"], false);
    assert_eq!(r["after"]["ready_after"], true);
    assert_eq!(r["after"]["segments_sent"], 1);
    assert_eq!(
        r["commands"].as_array().unwrap().len(),
        2,
        "sent: 1 whole, 1 cut"
    );
    let m = r["message"].as_str().unwrap();
    assert!(
        m.contains("segment 2 of 4") && m.contains("still runs revision 0203"),
        "{m}"
    );
    // The audit end record says so too.
    let a = e.audit();
    let end = a.iter().find(|x| x["event"] == "end").unwrap();
    assert_eq!(end["outcome"], "failed");
    assert!(
        end["details"]["message"].as_str().unwrap().contains("0203"),
        "{end}"
    );
    // The drive is usable and runs the old revision; the download works afterwards.
    let (c, j, _) = e.sgctl(&["tur", &e.addr()]);
    assert_eq!(c, 0, "{j}");
    let (c, j, err) = e.sgctl(&["firmware", &e.addr(), "--image", &img, "--confirm", &serial]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(j["data"]["drives"][0]["after"]["revision_after"], "0500");
}

#[test]
fn cli_deferred_download_then_activation() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0600", 3000));
    let addr = e.addr();
    let (c, j, err) = e.sgctl(&[
        "firmware",
        &addr,
        "--image",
        &img,
        "--mode",
        "dmc_offs_defer",
        "--chunk",
        "1k",
        "--confirm",
        &serial,
    ]);
    assert_eq!(c, 0, "{err}");
    let r = &j["data"]["drives"][0];
    assert_eq!(r["after"]["pending_activation"], true, "{r}");
    assert_eq!(r["after"]["revision_after"], "0203");
    assert!(r["message"].as_str().unwrap().contains("saved, not active"));
    let (c, j, err) = e.sgctl(&[
        "firmware",
        &addr,
        "--activate",
        "--expect-revision",
        "0600",
        "--confirm",
        &serial,
    ]);
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("Write buffer cdb: 3b 0f"), "{err}");
    assert_eq!(j["data"]["drives"][0]["after"]["revision_after"], "0600");
    // A second activation: nothing saved, COMMAND SEQUENCE ERROR (exit 4).
    let (c, _, err) = e.sgctl(&["firmware", &addr, "--activate", "--confirm", &serial]);
    assert_eq!(c, 4, "{err}");
}

#[test]
fn cli_two_ports_of_one_drive_download_once() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0700", 3000));
    let p1 = e.addr();
    let p2 = format!("{}&port=2", e.addr());
    let (c, j, err) = e.sgctl(&["firmware", &p1, &p2, "--image", &img, "--confirm", &serial]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(j["data"]["drives"].as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j["data"]["same_drive"][0]["address"], p2.as_str());
    assert_eq!(j["data"]["same_drive"][0]["same_as"], p1.as_str());
    assert_eq!(err.matches("Write buffer cdb").count(), 1, "{err}");
    let starts = e.audit().iter().filter(|x| x["event"] == "start").count();
    assert_eq!(starts, 1);
}

#[test]
fn cli_mode_outside_the_download_modes_is_a_usage_error() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0204", 3000));
    let (c, _, err) = e.sgctl(&[
        "firmware",
        &e.addr(),
        "--image",
        &img,
        "--mode",
        "0x6",
        "--confirm",
        &serial,
    ]);
    assert_eq!(c, 2, "mode 06h is not a choice: {err}");
    assert!(!sent_write_buffer(&err));
}

/// A firmware download is titled as what it is in every form of its record (text, HTML, the
/// PDF's title and metadata), never "Certificate of Sanitization".
#[test]
fn cli_firmware_record_is_titled_as_a_firmware_download() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0204", 4096));
    let addr = e.addr();
    let cert = e.path("cert.json");
    let (c, _, err) = e.sgctl(&[
        "firmware",
        &addr,
        "--image",
        &img,
        "--confirm",
        &serial,
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{err}");
    let txt = std::fs::read_to_string(e.path("cert.json.txt")).unwrap();
    assert!(txt.starts_with("Record of Firmware Download\n"), "{txt}");
    assert!(!txt.contains("800-88: none"), "{txt}");
    let html = std::fs::read_to_string(e.path("cert.json.html")).unwrap();
    assert!(
        html.contains("<title>Record of Firmware Download"),
        "{html}"
    );
    assert!(!html.contains("Certificate of Sanitization"), "{html}");
    let Some((info, text)) = crate::util::pdf_info_and_text(&e.path("cert.json.pdf")) else {
        return;
    };
    assert!(
        info.lines()
            .any(|l| l.starts_with("Title:") && l.ends_with("Record of Firmware Download")),
        "{info}"
    );
    assert!(text.contains("Record of Firmware Download"), "{text}");
    assert!(!text.contains("Certificate of Sanitization"), "{text}");
}

/// A mode the drive does not list in Extended INQUIRY is refused before any WRITE BUFFER
/// (exit 7, not supported), unless `--force`; `--mode auto` on a drive listing no mode is
/// refused the same way.
#[test]
fn cli_unlisted_mode_and_auto_without_listed_modes_are_refused() {
    let e = Env::new();
    let serial = e.serial();
    let img = e.write("fw.bin", &image("0204", 4096));
    let only5 = format!("{}&microcode_modes=5", e.addr());
    let (c, j, err) = e.sgctl(&[
        "firmware",
        &only5,
        "--image",
        &img,
        "--mode",
        "7",
        "--confirm",
        &serial,
    ]);
    assert_eq!(c, 7, "{err}");
    assert!(!sent_write_buffer(&err), "{err}");
    assert!(j.to_string().contains("05h"), "{j}");
    let (_, j, _) = e.sgctl(&["inquiry", &e.addr()]);
    assert!(j.to_string().contains("0203"), "{j}");
    // --force sends it.
    let (c, _, err) = e.sgctl(&[
        "firmware",
        &only5,
        "--image",
        &img,
        "--mode",
        "7",
        "--force",
        "--confirm",
        &serial,
    ]);
    assert_eq!(c, 0, "{err}");
    assert!(sent_write_buffer(&err), "{err}");
    // A drive listing no mode: auto has nothing to pick.
    let none = format!("{}&microcode_modes=none", e.addr());
    let img = e.write("fw2.bin", &image("0205", 4096));
    let (c, j, err) = e.sgctl(&[
        "firmware",
        &none,
        "--image",
        &img,
        "--mode",
        "auto",
        "--confirm",
        &serial,
    ]);
    assert_eq!(c, 7, "{err}");
    assert!(!sent_write_buffer(&err), "{err}");
    assert!(j.to_string().contains("DM_MD"), "{j}");
}
