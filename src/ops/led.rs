//! Drive-slot LEDs (locate, fault) of the enclosure a drive sits in.
//!
//! A drive's slot is found from its paths (the drive's `H:C:T:L`s) and the enclosures the
//! kernel's ses driver registered (`/sys/class/enclosure`, [`crate::discover::enclosure`]).
//! Each way of driving a slot's LEDs is an [`LedBackend`]: `SysfsLed` writes the
//! component's `locate`/`fault` attribute (drivers/misc/enclosure.c hands the value to
//! ses.c, which sends SES-4 Enclosure Control, page 02h). A drive reached through two SES
//! devices (two expanders) has one component in each; both are written, and both show the
//! same physical LED. Where no enclosure the kernel knows holds the drive, `sgctl locate`
//! and `sgctl fault` fall back to `crate::ops::led_ses::SesLed`, which sends the SES
//! Enclosure Control page over SG_IO itself; [`LedError::NoEnclosure`] is the sysfs side's
//! answer.
//!
//! Writes go through [`sgctl_proto::files::Dir::write_attribute`]: the component directory
//! is the canonical one under the sysroot's `sys/devices` (reached from the class entry by
//! links the kernel made, each step checked to be a real directory there), opened once, and
//! the attribute is opened relative to it without following a symlink and without creating
//! anything.

use crate::discover::enclosure::{self, Component, Enclosure, SlotRef};
use crate::host::PathInfo;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Which LED.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Led {
    /// The identify/locate indicator (SES-4 RQST IDENT).
    Locate,
    /// The fault indicator (SES-4 RQST FAULT).
    Fault,
}

impl Led {
    /// The component attribute name (`locate`, `fault`).
    pub fn attribute(self) -> &'static str {
        match self {
            Led::Locate => "locate",
            Led::Fault => "fault",
        }
    }
}

/// One way of reading and setting one slot's LEDs.
pub trait LedBackend {
    /// `sysfs` or `ses`.
    fn kind(&self) -> &'static str;
    /// Where it acts (for reports): the component directory, or the SES device.
    fn target(&self) -> String;
    /// The LED's state as the enclosure reports it; `None` when it cannot be read.
    fn get(&self, led: Led) -> Option<bool>;
    /// Sets the LED.
    fn set(&self, led: Led, on: bool) -> crate::Result<()>;
    /// What a change of `led` writes, for reports (`DIR/locate`; `ADDR element N RQST
    /// IDENT`).
    fn describe(&self, led: Led) -> String {
        format!("{}/{}", self.target(), led.attribute())
    }
    /// The bytes a change to `on` would send (the SES control page); `None` for a backend that
    /// writes an attribute.
    fn plan(&self, _led: Led, _on: bool) -> Option<crate::Result<Vec<u8>>> {
        None
    }
}

/// An enclosure component's LED attributes in sysfs.
#[derive(Debug, Clone)]
pub(crate) struct SysfsLed {
    dir: PathBuf,
}

impl SysfsLed {
    /// For the component directory `dir` (as [`enclosure::enclosures`] resolved it).
    pub(crate) fn new(dir: &Path) -> SysfsLed {
        SysfsLed {
            dir: dir.to_path_buf(),
        }
    }
}

impl LedBackend for SysfsLed {
    fn kind(&self) -> &'static str {
        "sysfs"
    }

    fn target(&self) -> String {
        self.dir.display().to_string()
    }

    fn get(&self, led: Led) -> Option<bool> {
        let v = crate::discover::sysfs::attr(&self.dir.join(led.attribute()))?;
        v.parse::<i64>().ok().map(|n| n != 0)
    }

    fn set(&self, led: Led, on: bool) -> crate::Result<()> {
        let dir = sgctl_proto::files::Dir::open(&self.dir)?;
        dir.write_attribute(
            std::ffi::OsStr::new(led.attribute()),
            if on { b"1" } else { b"0" },
        )
    }
}

/// Why a drive's LED cannot be driven.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedError {
    /// No enclosure the kernel knows links any path of the drive.
    NoEnclosure {
        /// How many enclosures the kernel lists.
        enclosures: usize,
    },
}

impl std::fmt::Display for LedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LedError::NoEnclosure { enclosures: 0 } => write!(
                f,
                "no enclosure is bound: /sys/class/enclosure is empty or absent (the kernel's \
                 ses driver is not loaded, or no SES device is visible), and no enclosure \
                 services device found lists the drive's SAS address in a slot (name one with \
                 --enclosure-device)"
            ),
            LedError::NoEnclosure { enclosures } => write!(
                f,
                "none of the {enclosures} enclosure(s) in /sys/class/enclosure links this \
                 drive to a slot (the enclosure did not report the drive's SAS address, or it \
                 is on another host)"
            ),
        }
    }
}

/// One slot component a drive's LEDs can be driven through.
#[derive(Debug, Clone)]
pub struct SlotComponent {
    /// Where: enclosure id, slot, component, SES device.
    pub place: SlotRef,
    /// The component directory.
    pub dir: PathBuf,
}

/// The components (one per SES device that links a path of the drive) holding the drive
/// whose paths are `paths`, read from `root`/sys/class/enclosure.
pub fn components_of(
    root: &Path,
    paths: &[PathInfo],
) -> std::result::Result<Vec<SlotComponent>, LedError> {
    let encs = enclosure::enclosures(root);
    let hctls: Vec<&str> = paths.iter().filter_map(|p| p.hctl.as_deref()).collect();
    let mut out = Vec::new();
    for e in &encs {
        for c in &e.components {
            if c.device.as_deref().is_some_and(|d| hctls.contains(&d)) {
                out.push(SlotComponent {
                    place: place(e, c),
                    dir: c.dir().to_path_buf(),
                });
            }
        }
    }
    if out.is_empty() {
        return Err(LedError::NoEnclosure {
            enclosures: encs.len(),
        });
    }
    Ok(out)
}

fn place(e: &Enclosure, c: &Component) -> SlotRef {
    SlotRef {
        id: e.id.clone(),
        vendor: e.vendor.clone(),
        product: e.product.clone(),
        slot: c.slot,
        component: c.name.clone(),
        enclosure_device: e.name.clone(),
    }
}

/// What happened to one component's LED.
#[derive(Debug, Clone, Serialize)]
pub struct LedChange {
    /// Where.
    pub enclosure: SlotRef,
    /// `sysfs` or `ses`.
    pub backend: &'static str,
    /// The attribute or device written.
    pub target: String,
    /// State before (as read), `None` when unreadable.
    pub before: Option<bool>,
    /// State after (read back), `None` when unreadable or not written.
    pub after: Option<bool>,
    /// Whether a write was made (false: already so, or a dry run).
    pub written: bool,
    /// The write's error, or the state read back after it when it is not the one asked.
    pub error: Option<String>,
    /// A dry run of the SES backend: the Enclosure Control page it would send (hex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_page: Option<String>,
}

/// Sets `led` to `on` through every backend; a backend already in that state is not written
/// (idempotent), nothing is written on `dry_run`.
pub fn apply(
    backends: &[(SlotRef, Box<dyn LedBackend>)],
    led: Led,
    on: bool,
    dry_run: bool,
) -> Vec<LedChange> {
    backends
        .iter()
        .map(|(place, b)| {
            let before = b.get(led);
            let mut ch = LedChange {
                enclosure: place.clone(),
                backend: b.kind(),
                target: b.describe(led),
                before,
                after: before,
                written: false,
                error: None,
                planned_page: None,
            };
            if before == Some(on) {
                return ch;
            }
            if dry_run {
                match b.plan(led, on) {
                    Some(Ok(p)) => ch.planned_page = Some(hex(&p)),
                    Some(Err(e)) => ch.error = Some(e.to_string()),
                    None => {}
                }
                return ch;
            }
            match b.set(led, on) {
                Ok(()) => {
                    ch.written = true;
                    ch.after = b.get(led);
                    if ch.after == Some(!on) {
                        ch.error = Some(format!(
                            "written, but the enclosure reports the LED still {}",
                            if on { "off" } else { "on" }
                        ));
                    }
                }
                Err(e) => ch.error = Some(e.to_string()),
            }
            ch
        })
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The sysfs backends of `components`.
pub fn sysfs_backends(components: &[SlotComponent]) -> Vec<(SlotRef, Box<dyn LedBackend>)> {
    components
        .iter()
        .map(|c| {
            (
                c.place.clone(),
                Box::new(SysfsLed::new(&c.dir)) as Box<dyn LedBackend>,
            )
        })
        .collect()
}

/// The audit record of one LED request (`event: "led"`).
pub fn audit_record(
    led: Led,
    on: bool,
    device: &str,
    serial: Option<&str>,
    lu_name: Option<&str>,
    changes: &[LedChange],
) -> serde_json::Value {
    let failed = changes.iter().any(|c| c.error.is_some());
    serde_json::json!({
        "event": "led",
        "time": crate::clock::rfc3339(std::time::SystemTime::now()),
        "job": led.attribute(),
        "device": device,
        "lu_name": lu_name,
        "serial": serial,
        "requested": if on { "on" } else { "off" },
        "outcome": if failed { "failure" } else { "success" },
        "changes": changes,
        "host": crate::host::hostname(),
        "uid": crate::host::current_uid(),
        "tool": format!("sgctl {}", env!("CARGO_PKG_VERSION")),
    })
}

/// What `--leds` did for one drive of a purge.
#[derive(Debug, Clone, Serialize)]
pub struct PurgeLed {
    /// The job's device address.
    pub device: String,
    /// `locate` for a drive that passed, `fault` for one that did not.
    pub led: Led,
    /// The components set (empty when `error`).
    pub changes: Vec<LedChange>,
    /// Why the LED could not be set (no enclosure holds the drive, a write failed).
    pub error: Option<String>,
}

/// LED backends, each with the place it acts on.
pub(crate) type Backends = Vec<(SlotRef, Box<dyn LedBackend>)>;

/// Where `--leds` asks when no enclosure the kernel knows holds a drive: enclosure services
/// devices over SG_IO ([`crate::ops::led_ses`]), as `sgctl locate` does.
pub struct SesFallback<'a> {
    /// The enclosure services devices to search (`--enclosure-device`, or the 0Dh devices a
    /// scan finds); called at most once, and only when a drive is in no kernel enclosure.
    pub devices: Box<dyn FnOnce() -> Vec<String> + 'a>,
    /// Per-command timeout.
    pub timeout: std::time::Duration,
    /// Whether virtual drives (`sim:`) are searched too (only in devices named by the user: a
    /// virtual drive sits in no enclosure a scan finds).
    pub virtual_drives: bool,
}

/// The SES backends of the slots in the enclosure services devices `devices` that hold
/// `drive`, matched by the SAS addresses its paths report (the target port from VPD 83h, the
/// transport's SAS address); `None` when its paths report no SAS address to look for.
pub fn ses_search(
    drive: &crate::discover::Drive,
    devices: &[String],
    timeout: std::time::Duration,
) -> Option<crate::ops::led_ses::SesSearch> {
    let ports = crate::ops::led_ses::sas_addresses(
        drive
            .paths
            .iter()
            .flat_map(|p| [p.target_port.as_deref(), p.sas_address.as_deref()])
            .flatten(),
    );
    (!ports.is_empty()).then(|| crate::ops::led_ses::backends_for(devices, &ports, timeout))
}

/// The SES backends of the slot holding the drive `device` in `devices` ([`ses_search`]).
fn ses_backends(
    device: &str,
    devices: &[String],
    timeout: std::time::Duration,
) -> std::result::Result<Backends, String> {
    let drive = crate::discover::paths_of(device).map_err(|e| e.to_string())?;
    let Some(found) = ses_search(&drive, devices, timeout) else {
        return Err("the drive reports no SAS target port address to look for".into());
    };
    if found.backends.is_empty() {
        let mut why = format!(
            "none of the {} enclosure services device(s) lists the drive's SAS address(es) in a slot",
            devices.len()
        );
        for e in found.errors {
            why.push_str(&format!("; {e}"));
        }
        return Err(why);
    }
    Ok(found.backends)
}

/// After a purge: the locate LED of every drive whose job succeeded, the fault LED of every
/// other one, through the enclosures under `root`, else (`ses`) through the enclosure services
/// devices over SG_IO; one audit record per drive whose LED was written, in `audit`.
pub fn light_after_purge(
    root: &Path,
    records: &[crate::ops::record::JobRecord],
    audit: Option<&crate::ops::audit::AuditLog>,
    ses: Option<SesFallback<'_>>,
) -> Vec<PurgeLed> {
    let (timeout, virtual_drives) = ses
        .as_ref()
        .map_or((std::time::Duration::ZERO, false), |f| {
            (f.timeout, f.virtual_drives)
        });
    let mut source = ses.map(|f| f.devices);
    let mut ses_devices: Option<Vec<String>> = None;
    records
        .iter()
        .map(|r| {
            let led = if r.outcome == crate::ops::record::Outcome::Success {
                Led::Locate
            } else {
                Led::Fault
            };
            let mut out = PurgeLed {
                device: r.device.clone(),
                led,
                changes: Vec::new(),
                error: None,
            };
            let backends = match components_of(root, &r.paths) {
                Ok(comps) => sysfs_backends(&comps),
                Err(e) => {
                    if crate::device::is_virtual_address(&r.device) && !virtual_drives {
                        out.error = Some(e.to_string());
                        return out;
                    }
                    if ses_devices.is_none() {
                        ses_devices = source.take().map(|f| f());
                    }
                    let devices = ses_devices.as_deref().unwrap_or_default();
                    if devices.is_empty() {
                        out.error = Some(e.to_string());
                        return out;
                    }
                    match ses_backends(&r.device, devices, timeout) {
                        Ok(b) => b,
                        Err(why) => {
                            out.error = Some(format!(
                                "{why}, and no enclosure in /sys/class/enclosure links it"
                            ));
                            return out;
                        }
                    }
                }
            };
            out.changes = apply(&backends, led, true, false);
            let errs: Vec<&str> = out
                .changes
                .iter()
                .filter_map(|c| c.error.as_deref())
                .collect();
            if !errs.is_empty() {
                out.error = Some(errs.join("; "));
            }
            if let Some(a) = audit.filter(|_| out.changes.iter().any(|c| c.written)) {
                let rec = audit_record(
                    led,
                    true,
                    &r.device,
                    Some(r.drive.serial.as_str()),
                    r.drive.wwn.as_deref(),
                    &out.changes,
                );
                if let Err(e) = a.append(&rec) {
                    out.error = Some(format!("LED set, audit record not written: {e}"));
                }
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy() -> tempfile::TempDir {
        crate::discover::sysfs::copy_fixture("ses-jbod")
    }

    fn paths(h: &[&str]) -> Vec<PathInfo> {
        h.iter()
            .map(|h| PathInfo {
                hctl: Some(h.to_string()),
                ..PathInfo::default()
            })
            .collect()
    }

    #[test]
    fn both_components_of_a_dual_ported_drive_are_set_once() {
        let t = copy();
        let comps = components_of(t.path(), &paths(&["0:0:4:0", "1:0:4:0"])).unwrap();
        assert_eq!(comps.len(), 2);
        let b = sysfs_backends(&comps);
        let ch = apply(&b, Led::Fault, true, false);
        assert!(ch
            .iter()
            .all(|c| c.written && c.after == Some(true) && c.error.is_none()));
        for c in &comps {
            assert_eq!(
                std::fs::read_to_string(c.dir.join("fault")).unwrap().trim(),
                "1"
            );
        }
        // Again: already on, nothing written.
        let ch = apply(&b, Led::Fault, true, false);
        assert!(ch.iter().all(|c| !c.written && c.before == Some(true)));
        // Dry run: reads, writes nothing.
        let ch = apply(&b, Led::Fault, false, true);
        assert!(ch.iter().all(|c| !c.written));
        assert_eq!(
            std::fs::read_to_string(comps[0].dir.join("fault"))
                .unwrap()
                .trim(),
            "1"
        );
    }

    /// A symlink planted as the attribute is not written through; a missing attribute is
    /// not created.
    #[test]
    fn no_write_through_a_link_or_to_a_new_file() {
        let t = copy();
        let comps = components_of(t.path(), &paths(&["0:0:1:0"])).unwrap();
        let dir = &comps[0].dir;
        let victim = t.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        std::fs::remove_file(dir.join("locate")).unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("locate")).unwrap();
        let ch = apply(&sysfs_backends(&comps), Led::Locate, true, false);
        assert!(
            ch[0].error.as_deref().unwrap().contains("symbolic link"),
            "{ch:?}"
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        std::fs::remove_file(dir.join("locate")).unwrap();
        let ch = apply(&sysfs_backends(&comps), Led::Locate, true, false);
        assert!(
            ch[0]
                .error
                .as_deref()
                .unwrap()
                .contains("no such attribute"),
            "{ch:?}"
        );
        assert!(!dir.join("locate").exists());
    }

    /// `--leds`: locate for the drive that passed, fault for the one that failed, nothing
    /// for a drive in no slot (said), one audit record per drive lit.
    #[test]
    fn purge_lights_locate_for_passed_and_fault_for_failed() {
        use crate::ops::record::{JobRecord, Outcome};
        let t = copy();
        let rec = |dev: &str, hctl: &[&str], outcome| JobRecord {
            device: dev.into(),
            paths: paths(hctl),
            outcome,
            ..JobRecord::default()
        };
        let records = [
            rec("/dev/sg1", &["0:0:1:0", "1:0:1:0"], Outcome::Success),
            rec("/dev/sg3", &["0:0:4:0", "1:0:4:0"], Outcome::Failed),
            rec("sim:x", &[], Outcome::Success),
        ];
        let audit = crate::ops::audit::AuditLog::at(t.path().join("audit.jsonl"));
        let out = light_after_purge(t.path(), &records, Some(&audit), None);
        assert_eq!(out[0].led, Led::Locate);
        assert_eq!(out[1].led, Led::Fault);
        assert!(out[..2]
            .iter()
            .all(|o| o.error.is_none() && o.changes.len() == 2));
        assert!(out[2]
            .error
            .as_deref()
            .unwrap()
            .contains("links this drive to a slot"));
        let c = components_of(t.path(), &paths(&["0:0:1:0"])).unwrap();
        let read = |d: &Path, a: &str| {
            std::fs::read_to_string(d.join(a))
                .unwrap()
                .trim()
                .to_string()
        };
        assert_eq!(
            (read(&c[0].dir, "locate"), read(&c[0].dir, "fault")),
            ("1".into(), "0".into())
        );
        let c = components_of(t.path(), &paths(&["1:0:4:0"])).unwrap();
        assert_eq!(
            (read(&c[0].dir, "locate"), read(&c[0].dir, "fault")),
            ("0".into(), "1".into())
        );
        let log = std::fs::read_to_string(t.path().join("audit.jsonl")).unwrap();
        assert_eq!(log.lines().count(), 2, "{log}");
    }

    #[test]
    fn no_enclosure_is_said_plainly() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/mptsas-dualport");
        let e = components_of(&root, &paths(&["0:0:0:0"])).unwrap_err();
        assert_eq!(e, LedError::NoEnclosure { enclosures: 0 });
        assert!(e.to_string().contains("no enclosure is bound"));
        let t = copy();
        let e = components_of(t.path(), &paths(&["0:0:0:0"])).unwrap_err();
        assert!(e.to_string().contains("none of the 2 enclosure(s)"), "{e}");
    }
}
