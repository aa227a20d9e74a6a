//! Enclosures as the kernel shows them: `/sys/class/enclosure`.
//!
//! Layout (drivers/misc/enclosure.c, drivers/scsi/ses.c; built fixture
//! fixtures/sysfs/ses-jbod): the ses driver registers one enclosure device per SES device, a
//! child of that SCSI device named like it (`H:C:T:L/enclosure/H:C:T:L`), linked from
//! `/sys/class/enclosure/H:C:T:L`. Its attributes are `components` (how many array-device
//! elements) and `id` (the enclosure logical identifier from SES page 01h, `%#llx`), and its
//! `device` link is the SES SCSI device (vendor, model, rev). Each component is a child
//! directory named by the element descriptor (page 07h) or its number, holding `type`
//! (`array device`, `device`), `slot` (`%d`: page 0Ah's bay number, else the component
//! number), `status` (`OK`, `not installed`, …), `fault`, `locate`, `active` (`%d`),
//! `power_status` (`on`/`off`; reading fails when unknown), and — when the kernel matched the
//! element's SAS address to a SCSI device on the same host — a `device` link to that device.
//!
//! A dual-ported drive behind two expanders is one slot seen through two SES devices: two
//! class entries with the same `id`, one component in each, each linked to the path on its
//! own host. Everything here is read as untrusted: odd values, missing files, links that
//! leave `/sys/devices` or loop become [`Enclosure::problems`], never a panic.

use super::sysfs::{attr, follow, names, sys};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Components read per enclosure at most (SES-4 element counts are a byte per type; a real
/// JBOD has at most a few hundred slots).
pub(crate) const MAX_COMPONENTS: usize = 4096;

/// One enclosure device of `/sys/class/enclosure`.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Enclosure {
    /// The class entry's name: the SES device's `H:C:T:L`.
    pub name: String,
    /// Enclosure logical identifier (`id`, `0x…`, lower case); the same for every SES device
    /// of one enclosure.
    pub id: Option<String>,
    /// The SES device's T10 vendor (its `vendor` attribute).
    pub vendor: Option<String>,
    /// The SES device's product identification (`model`).
    pub product: Option<String>,
    /// The SES device's revision (`rev`).
    pub revision: Option<String>,
    /// The SES device's `H:C:T:L` (from the `device` link).
    pub ses_device: Option<String>,
    /// The SES device's sg node (`/dev/sgN`), for SES pages over SG_IO.
    pub sg: Option<String>,
    /// `components` as the kernel states it.
    pub components_declared: Option<u32>,
    /// The component directories found.
    pub components: Vec<Component>,
    /// What could not be read or made no sense.
    pub problems: Vec<String>,
    #[serde(skip)]
    dir: PathBuf,
}

/// One component (element) of an enclosure: for array devices, a drive slot.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Component {
    /// Directory name (element descriptor text or number).
    pub name: String,
    /// `slot`.
    pub slot: Option<u32>,
    /// `type` (`array device`, `device`).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// `status` (`OK`, `critical`, `not installed`, …).
    pub status: Option<String>,
    /// `fault` LED (request or indication) on.
    pub fault: Option<bool>,
    /// `locate` (identify) LED on.
    pub locate: Option<bool>,
    /// `active` LED on.
    pub active: Option<bool>,
    /// `power_status` (`on`, `off`; absent when the kernel cannot tell).
    pub power_status: Option<String>,
    /// `H:C:T:L` of the SCSI device in the slot (from the `device` link), if the kernel
    /// matched one.
    pub device: Option<String>,
    #[serde(skip)]
    dir: PathBuf,
}

impl Component {
    /// The component's sysfs directory (resolved, under the sysroot's `sys/devices`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Enclosure {
    /// The enclosure device's sysfs directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Where a drive (or one path of it) sits: the enclosure and slot.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq, Hash)]
pub struct SlotRef {
    /// Enclosure logical identifier (`0x…`).
    pub id: Option<String>,
    /// SES device vendor.
    pub vendor: Option<String>,
    /// SES device product.
    pub product: Option<String>,
    /// Slot number.
    pub slot: Option<u32>,
    /// Component name (element descriptor).
    pub component: String,
    /// The enclosure class entry (the SES device's `H:C:T:L`) this path was matched through.
    pub enclosure_device: String,
}

impl SlotRef {
    /// What identifies the enclosure: its logical id, else the class entry.
    pub fn enclosure_key(&self) -> &str {
        self.id.as_deref().unwrap_or(&self.enclosure_device)
    }

    /// `0x5006…:3` (enclosure and slot), for tables and labels.
    pub fn short(&self) -> String {
        match self.slot {
            Some(s) => format!("{}:{s}", self.enclosure_key()),
            None => format!("{}:{}", self.enclosure_key(), self.component),
        }
    }

    /// The same physical slot (same enclosure id and slot) as `o`, whichever SES device each
    /// was seen through.
    pub(crate) fn same_place(&self, o: &SlotRef) -> bool {
        self.enclosure_key() == o.enclosure_key() && self.slot == o.slot
    }
}

fn is_hctl(s: &str) -> bool {
    let parts: Vec<&str> = s.split(':').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 20 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Bounded copy of an attribute value for messages (shown with `{:?}`, which escapes controls).
fn shown(v: &str) -> String {
    v.chars().take(40).collect()
}

/// Resolves a sysfs link lexically (as the kernel's relative links are meant) and checks the
/// result is a real directory under `devices` (the sysroot's `sys/devices`). `Err` says why not.
fn resolve_dir(link: &Path, devices: &Path) -> Result<PathBuf, String> {
    let target = match std::fs::symlink_metadata(link) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err("missing".into()),
        Err(e) => return Err(e.to_string()),
        Ok(m) if !m.file_type().is_symlink() => return Err("not a symbolic link".into()),
        Ok(_) => follow(link).ok_or("an absolute or unusable link target")?,
    };
    if !target.starts_with(devices) {
        return Err(format!("points outside {}", devices.display()));
    }
    // Every component of the target must be a real directory: no further link is followed.
    let mut p = devices.to_path_buf();
    let rest = target.strip_prefix(devices).map_err(|e| e.to_string())?;
    for c in rest.components() {
        p.push(c);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_dir() => {}
            Ok(_) => return Err(format!("{} is not a directory", p.display())),
            Err(e) => return Err(format!("{}: {e}", p.display())),
        }
    }
    Ok(target)
}

fn parse_flag(v: &str) -> Option<bool> {
    // enclosure.c prints these with "%d"; ses.c sets 0 or 1.
    v.parse::<i64>().ok().map(|n| n != 0)
}

/// Every enclosure under `root`/sys/class/enclosure, in name order. No class directory (no
/// ses driver, or no enclosure) gives an empty list.
pub fn enclosures(root: &Path) -> Vec<Enclosure> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let devices = sys(&root).join("devices");
    let class = sys(&root).join("class/enclosure");
    names(&class)
        .into_iter()
        .map(|n| read_enclosure(&class, &devices, &n))
        .collect()
}

/// One enclosure by its class name.
pub(crate) fn read_enclosure(class: &Path, devices: &Path, name: &str) -> Enclosure {
    let mut e = Enclosure {
        name: name.to_string(),
        ..Enclosure::default()
    };
    let dir = match resolve_dir(&class.join(name), devices) {
        Ok(d) => d,
        Err(why) => {
            e.problems.push(format!(
                "class/enclosure/{}: {why}",
                crate::escape::escape(name)
            ));
            return e;
        }
    };
    match attr(&dir.join("id")) {
        Some(v) => match parse_id(&v) {
            Some(id) => e.id = Some(id),
            None => e
                .problems
                .push(format!("id {:?} is not a logical identifier", shown(&v))),
        },
        None => e
            .problems
            .push("no id attribute (the logical identifier is unknown)".into()),
    }
    match attr(&dir.join("components")) {
        Some(v) => match v.parse::<u32>() {
            Ok(n) => e.components_declared = Some(n),
            Err(_) => e
                .problems
                .push(format!("components {:?} is not a count", shown(&v))),
        },
        None => e.problems.push("no components attribute".into()),
    }
    match resolve_dir(&dir.join("device"), devices) {
        Ok(ses) => {
            e.vendor = attr(&ses.join("vendor"));
            e.product = attr(&ses.join("model"));
            e.revision = attr(&ses.join("rev"));
            e.sg = names(&ses.join("scsi_generic"))
                .into_iter()
                .next()
                .map(|s| format!("/dev/{s}"));
            let n = ses
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if is_hctl(&n) {
                e.ses_device = Some(n);
            } else {
                e.problems.push(format!(
                    "device link names {:?}, not a SCSI device",
                    shown(&n)
                ));
            }
        }
        Err(why) => e.problems.push(format!("device link: {why}")),
    }
    let mut comps = Vec::new();
    for n in names(&dir) {
        if n == "power" || n == "subsystem" || n == "device" {
            continue;
        }
        let p = dir.join(&n);
        let is_dir = std::fs::symlink_metadata(&p)
            .map(|m| m.file_type().is_dir())
            .unwrap_or(false);
        if !is_dir {
            continue;
        }
        if comps.len() == MAX_COMPONENTS {
            e.problems.push(format!(
                "more than {MAX_COMPONENTS} components; the rest were not read"
            ));
            break;
        }
        comps.push(read_component(&p, &n, devices, &mut e.problems));
    }
    if let Some(d) = e.components_declared {
        if d as usize != comps.len() && comps.len() < MAX_COMPONENTS {
            e.problems.push(format!(
                "components says {d}, {} component directories found",
                comps.len()
            ));
        }
    }
    e.components = comps;
    e.dir = dir;
    e
}

/// `0x5006…` from the `id` attribute (`%#llx`; `0` prints as `0`).
fn parse_id(v: &str) -> Option<String> {
    let hex = v
        .strip_prefix("0x")
        .or_else(|| v.strip_prefix("0X"))
        .unwrap_or(v);
    if hex.is_empty() || hex.len() > 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let n = u64::from_str_radix(hex, 16).ok()?;
    Some(format!("{n:#018x}"))
}

fn read_component(p: &Path, name: &str, devices: &Path, problems: &mut Vec<String>) -> Component {
    let cname = crate::escape::escape(name);
    let mut c = Component {
        name: name.to_string(),
        kind: attr(&p.join("type")),
        status: attr(&p.join("status")),
        power_status: attr(&p.join("power_status")),
        dir: p.to_path_buf(),
        ..Component::default()
    };
    if let Some(v) = attr(&p.join("slot")) {
        match v.parse::<u32>() {
            Ok(s) => c.slot = Some(s),
            Err(_) => problems.push(format!("{cname}: slot {:?} is not a number", shown(&v))),
        }
    }
    let mut flag = |f: &str| -> Option<bool> {
        let v = attr(&p.join(f))?;
        let b = parse_flag(&v);
        if b.is_none() {
            problems.push(format!("{cname}: {f} {:?} is not 0 or 1", shown(&v)));
        }
        b
    };
    c.fault = flag("fault");
    c.locate = flag("locate");
    c.active = flag("active");
    let link = p.join("device");
    if std::fs::symlink_metadata(&link).is_ok() {
        match resolve_dir(&link, devices) {
            Ok(d) => {
                let n = d
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if is_hctl(&n) {
                    c.device = Some(n);
                } else {
                    problems.push(format!(
                        "{cname}: device link names {:?}, not a SCSI device",
                        shown(&n)
                    ));
                }
            }
            Err(why) => problems.push(format!("{cname}: device link: {why}")),
        }
    }
    c
}

/// Where each SCSI device (`H:C:T:L`) sits, from the enclosures' component links.
pub(crate) fn slots_by_device(encs: &[Enclosure]) -> HashMap<String, SlotRef> {
    let mut m = HashMap::new();
    for e in encs {
        for c in &e.components {
            if let Some(dev) = &c.device {
                m.entry(dev.clone()).or_insert_with(|| SlotRef {
                    id: e.id.clone(),
                    vendor: e.vendor.clone(),
                    product: e.product.clone(),
                    slot: c.slot,
                    component: c.name.clone(),
                    enclosure_device: e.name.clone(),
                });
            }
        }
    }
    m
}

/// The `H:C:T:L` of a node (`/dev/sgN`, `/dev/sdX`, `/dev/bsg/H:C:T:L`, or `H:C:T:L`) under
/// `root`, from the sg or block class entry's `device` link.
pub(crate) fn hctl_of_node(root: &Path, address: &str) -> Option<String> {
    let name = address.strip_prefix("/dev/").unwrap_or(address);
    if let Some(h) = name.strip_prefix("bsg/") {
        return is_hctl(h).then(|| h.to_string());
    }
    if is_hctl(name) {
        return Some(name.to_string());
    }
    if name.is_empty() || name.contains('/') || name.starts_with('.') {
        return None;
    }
    let class = if name.starts_with("sg") {
        "class/scsi_generic"
    } else {
        "class/block"
    };
    let dev = std::fs::canonicalize(sys(root).join(class).join(name).join("device")).ok()?;
    let n = dev.file_name()?.to_string_lossy().into_owned();
    is_hctl(&n).then_some(n)
}

/// The slot of the first of `paths` (by `H:C:T:L`) that an enclosure under `root` links;
/// `None` when no path has an address or no enclosure holds it.
pub(crate) fn slot_of_paths(root: &Path, paths: &[crate::host::PathInfo]) -> Option<SlotRef> {
    if paths.iter().all(|p| p.hctl.is_none()) {
        return None; // nothing the kernel could have linked (a virtual drive)
    }
    let m = slots_by_device(&enclosures(root));
    paths
        .iter()
        .filter_map(|p| p.hctl.as_ref())
        .find_map(|h| m.get(h).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> (tempfile::TempDir, PathBuf) {
        let tmp = crate::discover::sysfs::copy_fixture("ses-jbod");
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        (tmp, root)
    }

    fn comp_dir(root: &Path, enc: &str, comp: &str) -> PathBuf {
        std::fs::canonicalize(sys(root).join("class/enclosure").join(enc))
            .unwrap()
            .join(comp)
    }

    #[test]
    fn built_tree_reads_as_laid_out() {
        let (_t, root) = fixture();
        let encs = enclosures(&root);
        assert_eq!(encs.len(), 2);
        for (e, h) in encs.iter().zip(["0", "1"]) {
            assert_eq!(e.problems, Vec::<String>::new());
            assert_eq!(e.id.as_deref(), Some("0x500605b0000272bf"));
            assert_eq!(e.vendor.as_deref(), Some("SGCTL"));
            assert_eq!(e.product.as_deref(), Some("JBOD4 SIM ENCL"));
            assert_eq!(e.ses_device.as_deref(), Some(format!("{h}:0:0:0").as_str()));
            assert_eq!(e.components_declared, Some(4));
            assert_eq!(e.components.len(), 4);
            let s1 = &e.components[1];
            assert_eq!(s1.name, "SLOT 01");
            assert_eq!(s1.slot, Some(1));
            assert_eq!(s1.kind.as_deref(), Some("array device"));
            assert_eq!(s1.locate, Some(true));
            assert_eq!(s1.fault, Some(false));
            assert_eq!(s1.device.as_deref(), Some(format!("{h}:0:2:0").as_str()));
            let s2 = &e.components[2];
            assert_eq!(s2.status.as_deref(), Some("not installed"));
            assert_eq!(s2.device, None);
        }
        let m = slots_by_device(&encs);
        assert_eq!(m.len(), 6);
        assert!(m["0:0:4:0"].same_place(&m["1:0:4:0"]));
        assert_eq!(m["1:0:4:0"].short(), "0x500605b0000272bf:3");
        assert_eq!(m["1:0:4:0"].enclosure_device, "1:0:0:0");
    }

    #[test]
    fn no_class_directory_is_no_enclosure() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sysfs/scsi-debug");
        assert!(enclosures(&root).is_empty());
    }

    /// Odd values, missing files, a link loop and a link out of /sys/devices are problems
    /// of their enclosure; the rest is still read.
    #[test]
    fn untrusted_tree_gives_problems_not_panics() {
        let (_t, root) = fixture();
        let c0 = comp_dir(&root, "0:0:0:0", "SLOT 00");
        std::fs::write(c0.join("slot"), "banana\n").unwrap();
        std::fs::write(c0.join("fault"), "\u{1b}[31mX\n").unwrap();
        std::fs::remove_file(c0.join("locate")).unwrap();
        let c1 = comp_dir(&root, "0:0:0:0", "SLOT 01");
        std::fs::remove_file(c1.join("device")).unwrap();
        std::os::unix::fs::symlink("device", c1.join("device")).unwrap(); // loop
        let c3 = comp_dir(&root, "0:0:0:0", "SLOT 03");
        std::fs::remove_file(c3.join("device")).unwrap();
        std::os::unix::fs::symlink(
            "../../../../../../../../../../../../../etc",
            c3.join("device"),
        )
        .unwrap();
        let enc1 = std::fs::canonicalize(sys(&root).join("class/enclosure/1:0:0:0")).unwrap();
        std::fs::write(enc1.join("id"), "0xnothex\n").unwrap();
        std::fs::write(enc1.join("components"), "-3\n").unwrap();
        // A class entry that loops on itself.
        std::os::unix::fs::symlink("9:0:0:0", sys(&root).join("class/enclosure/9:0:0:0")).unwrap();

        let encs = enclosures(&root);
        assert_eq!(encs.len(), 3);
        let e0 = &encs[0];
        let p = e0.problems.join("\n");
        assert!(
            p.contains("SLOT 00: slot \"banana\" is not a number"),
            "{p}"
        );
        assert!(
            p.contains("SLOT 00: fault \"\\u{1b}[31mX\" is not 0 or 1"),
            "{p}"
        );
        assert!(p.contains("SLOT 01: device link:"), "{p}");
        assert!(p.contains("SLOT 03: device link: points outside"), "{p}");
        assert_eq!(e0.components[0].slot, None);
        assert_eq!(e0.components[0].locate, None);
        assert_eq!(e0.components[1].device, None);
        assert_eq!(e0.components[3].device, None);
        assert_eq!(e0.components[2].slot, Some(2), "the rest is read");
        let e1 = &encs[1];
        assert_eq!(e1.id, None);
        assert!(e1
            .problems
            .iter()
            .any(|p| p.contains("is not a logical identifier")));
        assert!(e1.problems.iter().any(|p| p.contains("is not a count")));
        assert_eq!(e1.components.len(), 4);
        assert_eq!(encs[2].name, "9:0:0:0");
        assert!(!encs[2].problems.is_empty());
        // Only the healthy links map devices to slots.
        let m = slots_by_device(&encs);
        assert!(!m.contains_key("0:0:2:0") && !m.contains_key("0:0:4:0"));
        assert!(m.contains_key("1:0:2:0"));
    }

    #[test]
    fn ids_and_hctls() {
        assert_eq!(
            parse_id("0x500605b0000272bf").as_deref(),
            Some("0x500605b0000272bf")
        );
        assert_eq!(parse_id("0X1").as_deref(), Some("0x0000000000000001"));
        assert_eq!(parse_id("0").as_deref(), Some("0x0000000000000000"));
        assert_eq!(parse_id("0x1234567890abcdef0"), None);
        assert_eq!(parse_id(""), None);
        assert!(is_hctl("0:0:12:0"));
        assert!(!is_hctl("0:0:12"));
        assert!(!is_hctl("a:0:1:0"));
    }
}
