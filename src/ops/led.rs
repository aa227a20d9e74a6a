//! Drive-slot LEDs (locate, fault) of the enclosure a drive sits in.
//!
//! A drive's slot is found from its paths (the drive's `H:C:T:L`s) and the enclosures the
//! kernel's ses driver registered (`/sys/class/enclosure`, [`crate::discover::enclosure`]).
//! Each way of driving a slot's LEDs is an [`LedBackend`]: [`SysfsLed`] writes the
//! component's `locate`/`fault` attribute (drivers/misc/enclosure.c hands the value to
//! ses.c, which sends SES-4 Enclosure Control, page 02h). A drive reached through two SES
//! devices (two expanders) has one component in each; both are written, and both show the
//! same physical LED. Where no enclosure the kernel knows holds the drive there is no backend
//! ([`LedError::NoEnclosure`]); sending the control page over SG_IO ourselves is the place
//! for a second backend.
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
    /// `sysfs` (or, later, `ses`).
    fn kind(&self) -> &'static str;
    /// Where it acts (for reports): the component directory, or the SES device.
    fn target(&self) -> String;
    /// The LED's state as the enclosure reports it; `None` when it cannot be read.
    fn get(&self, led: Led) -> Option<bool>;
    /// Sets the LED.
    fn set(&self, led: Led, on: bool) -> crate::Result<()>;
}

/// An enclosure component's LED attributes in sysfs.
#[derive(Debug, Clone)]
pub struct SysfsLed {
    dir: PathBuf,
}

impl SysfsLed {
    /// For the component directory `dir` (as [`enclosure::enclosures`] resolved it).
    pub fn new(dir: &Path) -> SysfsLed {
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
                 ses driver is not loaded, or no SES device is visible); LEDs through SES pages \
                 over SG_IO are not supported yet"
            ),
            LedError::NoEnclosure { enclosures } => write!(
                f,
                "none of the {enclosures} enclosure(s) in /sys/class/enclosure links this \
                 drive to a slot (the enclosure did not report the drive's SAS address, or it \
                 is on another host); LEDs through SES pages over SG_IO are not supported yet"
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
    /// `sysfs`.
    pub backend: &'static str,
    /// The attribute or device written.
    pub target: String,
    /// State before (as read), `None` when unreadable.
    pub before: Option<bool>,
    /// State after (read back), `None` when unreadable or not written.
    pub after: Option<bool>,
    /// Whether a write was made (false: already so, or a dry run).
    pub written: bool,
    /// The write's error.
    pub error: Option<String>,
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
                target: format!("{}/{}", b.target(), led.attribute()),
                before,
                after: before,
                written: false,
                error: None,
            };
            if dry_run || before == Some(on) {
                return ch;
            }
            match b.set(led, on) {
                Ok(()) => {
                    ch.written = true;
                    ch.after = b.get(led);
                }
                Err(e) => ch.error = Some(e.to_string()),
            }
            ch
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn copy() -> tempfile::TempDir {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/ses-jbod");
        let tmp = tempfile::tempdir().unwrap();
        let ok = std::process::Command::new("cp")
            .args(["-a", &format!("{}/.", src.display())])
            .arg(tmp.path())
            .status()
            .unwrap()
            .success();
        assert!(ok);
        tmp
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
