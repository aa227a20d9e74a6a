//! Discovery against sysfs trees captured in QEMU guests (fixtures/sysfs, see its README).

use sgctl::discover::{self, Drive, IdentMode, InUseReason, ScanOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sysfs")
        .join(name)
}

fn opts(root: &Path) -> ScanOptions {
    ScanOptions {
        sysroot: root.to_path_buf(),
        timeout: Duration::from_secs(5),
        verbose: 0,
        mode: IdentMode::Auto,
    }
}

/// Copies a fixture into a temp dir (so a test can change it); symlinks stay symlinks.
fn copy_fixture(name: &str) -> tempfile::TempDir {
    let dst = tempfile::tempdir().unwrap();
    let st = std::process::Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", fixture(name).display()))
        .arg(dst.path())
        .status()
        .unwrap();
    assert!(st.success());
    dst
}

fn only_drive(root: &Path) -> Drive {
    let s = discover::scan(&opts(root)).unwrap();
    assert_eq!(s.drives.len(), 1, "{:#?}", s.drives);
    s.drives.into_iter().next().unwrap()
}

#[test]
fn dual_port_mptsas_is_one_drive_with_two_paths() {
    let s = discover::scan(&opts(&fixture("mptsas-dualport"))).unwrap();
    assert_eq!(s.scsi_devices, 2);
    assert_eq!(s.drives.len(), 1);
    let d = &s.drives[0];
    assert_eq!(d.lu_name.as_deref(), Some("naa.5000c500000000cc"));
    assert_eq!(d.vendor.as_deref(), Some("SGCTLVM"));
    assert_eq!(d.model.as_deref(), Some("DUALPORT"));
    assert_eq!(d.serial.as_deref(), Some("DP0001"));
    assert_eq!(d.capacity_bytes, Some(64 << 20));
    assert_eq!(d.logical_block_size, Some(512));
    assert_eq!(d.rotation_rate, Some(7200));
    assert_eq!(d.protection_type, Some(0));
    assert_eq!(d.device_type.as_deref(), Some("disk"));
    assert!(d.in_use.is_empty(), "{:?}", d.in_use);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let p: Vec<_> = d
        .paths
        .iter()
        .map(|p| {
            (
                p.sg.as_deref().unwrap(),
                p.block.as_deref().unwrap(),
                p.bsg.as_deref().unwrap(),
                p.hctl.as_deref().unwrap(),
                p.target_port.as_deref().unwrap(),
                p.relative_port.unwrap(),
                p.hba_phy.as_deref().unwrap(),
                p.link_rate.as_deref().unwrap(),
                p.sas_address.as_deref().unwrap(),
                p.identity_source.unwrap(),
            )
        })
        .collect();
    assert_eq!(
        p,
        [
            (
                "/dev/sg0",
                "/dev/sda",
                "/dev/bsg/0:0:0:0",
                "0:0:0:0",
                "0x5000c500000000c1",
                1,
                "phy-0:0",
                "3.0 Gbit",
                "0x5000c500000000cc",
                "replay"
            ),
            (
                "/dev/sg1",
                "/dev/sdb",
                "/dev/bsg/1:0:0:0",
                "1:0:0:0",
                "0x5000c500000000c2",
                2,
                "phy-1:0",
                "3.0 Gbit",
                "0x5000c500000000cc",
                "replay"
            ),
        ]
    );
}

#[test]
fn scsi_debug_luns_have_their_identities() {
    let s = discover::scan(&opts(&fixture("scsi-debug"))).unwrap();
    assert_eq!(s.scsi_devices, 16);
    assert_eq!(s.drives.len(), 16);
    for d in &s.drives {
        assert_eq!(d.paths.len(), 1);
        let hctl = d.paths[0].hctl.clone().unwrap();
        let n: Vec<u64> = hctl.split(':').map(|x| x.parse().unwrap()).collect();
        // scsi_debug.c: lu_id_num = (host_no + 1) * 2000 + target * 1000 + lun.
        let id = (n[0] + 1) * 2000 + n[2] * 1000 + n[3];
        assert_eq!(d.lu_name, Some(format!("naa.3333333{id:09x}")), "{hctl}");
        assert_eq!(d.serial, Some(id.to_string()));
        assert_eq!(d.vendor.as_deref(), Some("Linux"));
        assert_eq!(d.model.as_deref(), Some("scsi_debug"));
        assert_eq!(d.capacity_bytes, Some(8 << 20));
        assert_eq!(d.rotation_rate, Some(1));
        assert_eq!(d.paths[0].relative_port, Some(1));
        // No SAS transport class for scsi_debug.
        assert_eq!(d.paths[0].end_device, None);
        assert_eq!(d.paths[0].hba_phy, None);
    }
    // H:C:T:L order, natural (0:0:0:10 after 0:0:0:9 would matter with more LUNs).
    let order: Vec<_> = s
        .drives
        .iter()
        .map(|d| d.paths[0].sg.clone().unwrap())
        .collect();
    assert_eq!(order[0], "/dev/sg0");
    assert_eq!(order[15], "/dev/sg15");
}

#[test]
fn without_replay_the_kernel_copies_identify_and_group() {
    let t = copy_fixture("mptsas-dualport");
    std::fs::remove_dir_all(t.path().join("replay")).unwrap();
    let d = only_drive(t.path());
    assert_eq!(d.lu_name.as_deref(), Some("naa.5000c500000000cc"));
    assert_eq!(d.paths.len(), 2);
    assert!(d.paths.iter().all(|p| p.identity_source == Some("sysfs")));
    // No READ CAPACITY copy in sysfs: capacity comes from the block device.
    assert_eq!(d.capacity_bytes, Some(64 << 20));
    assert_eq!(d.protection_type, None);
    assert_eq!(d.rotation_rate, Some(7200));
}

#[test]
fn a_broken_path_reports_its_error_and_the_scan_goes_on() {
    let t = copy_fixture("scsi-debug");
    // sg3 answered INQUIRY with 20 bytes (the replay wins over the kernel copy in sysfs).
    let r = t.path().join("replay/sg3");
    std::fs::write(r.join("inquiry.bin"), [0u8; 20]).unwrap();
    let s = discover::scan(&opts(t.path())).unwrap();
    assert_eq!(s.drives.len(), 16);
    let bad: Vec<&Drive> = s.drives.iter().filter(|d| d.has_errors()).collect();
    assert_eq!(bad.len(), 1);
    let e = bad[0].paths[0].error.as_deref().unwrap();
    assert!(e.contains("truncated"), "{e}");
    assert_eq!(bad[0].paths[0].sg.as_deref(), Some("/dev/sg3"));
    // The kernel's wwid still names it.
    assert_eq!(bad[0].lu_name.as_deref(), Some("naa.33333330000007d3"));
    // A lying VPD 0x83 length on another device: identity kept, page error noted.
    let mut v = std::fs::read(t.path().join("replay/sg5/vpd_83.bin")).unwrap();
    v[3] = 0xff;
    std::fs::write(t.path().join("replay/sg5/vpd_83.bin"), v).unwrap();
    let s = discover::scan(&opts(t.path())).unwrap();
    let d = s
        .drives
        .iter()
        .find(|d| d.paths[0].sg.as_deref() == Some("/dev/sg5"))
        .unwrap();
    assert!(d.paths[0].error.as_deref().unwrap().contains("VPD page"));
    assert_eq!(d.serial.as_deref(), Some("2005"));
}

#[test]
fn paths_of_any_node_or_the_lu_name() {
    let root = fixture("mptsas-dualport");
    for a in [
        "/dev/sda",
        "/dev/sg1",
        "sdb",
        "/dev/bsg/1:0:0:0",
        "0:0:0:0",
        "naa.5000c500000000cc",
    ] {
        let d = discover::paths_of_with(a, &opts(&root)).unwrap();
        assert_eq!(d.paths.len(), 2, "{a}");
        assert!(d.in_use().unwrap().is_empty());
    }
    let e = discover::paths_of_with("/dev/sg9", &opts(&root)).unwrap_err();
    assert_eq!(e.exit_code(), sgctl::exit::OPEN, "{e}");
}

#[test]
fn in_use_mounted_swap_and_holders() {
    let t = copy_fixture("scsi-debug");
    let root = t.path();
    // sda (8:0) partition-less disk mounted; sdb used as swap; sdc held by dm-0.
    let mi = std::fs::read_to_string(root.join("proc/self/mountinfo")).unwrap();
    std::fs::write(
        root.join("proc/self/mountinfo"),
        format!("{mi}99 1 8:0 / /mnt/data rw,relatime - ext2 /dev/sda rw\n"),
    )
    .unwrap();
    std::fs::write(
        root.join("proc/swaps"),
        "Filename\tType\tSize\tUsed\tPriority\n/dev/sdb                                partition\t8188\t0\t-2\n",
    )
    .unwrap();
    let sdc = std::fs::canonicalize(root.join("sys/class/block/sdc")).unwrap();
    std::fs::create_dir_all(sdc.join("holders/dm-0")).unwrap();
    let s = discover::scan(&opts(root)).unwrap();
    let by_block = |b: &str| {
        s.drives
            .iter()
            .find(|d| d.paths[0].block.as_deref() == Some(b))
            .unwrap()
    };
    assert_eq!(
        by_block("/dev/sda").in_use,
        [InUseReason::Mounted {
            device: "sda".into(),
            mount_point: "/mnt/data".into()
        }]
    );
    assert_eq!(
        by_block("/dev/sdb").in_use,
        [InUseReason::Swap {
            device: "sdb".into()
        }]
    );
    assert!(
        matches!(&by_block("/dev/sdc").in_use[..], [InUseReason::Held { device, holder }] if device == "sdc" && holder == "dm-0")
    );
    assert!(by_block("/dev/sdd").in_use.is_empty());
    // The gate's entry point sees the same.
    let d = discover::paths_of_with("/dev/sg0", &opts(root)).unwrap();
    assert_eq!(d.in_use().unwrap().len(), 1);
}

/// Mounts matched by device number alone (a source that does not name the disk, as
/// `/dev/root`) and by a device-mapper name: the `dev` and `dm/name` reads the scan now makes
/// only when the mount table holds a block device or a `/dev/mapper/` source still find them,
/// and a table of virtual mounts only finds nothing.
#[test]
fn in_use_by_device_number_and_mapper_name() {
    let t = copy_fixture("scsi-debug");
    let root = t.path();
    let mi = std::fs::read_to_string(root.join("proc/self/mountinfo")).unwrap();
    let sdc = std::fs::canonicalize(root.join("sys/class/block/sdc")).unwrap();
    std::fs::create_dir_all(sdc.join("holders/dm-7")).unwrap();
    let dm = root.join("sys/class/block/dm-7");
    std::fs::create_dir_all(dm.join("dm")).unwrap();
    std::fs::write(dm.join("dm/name"), "vg-data\n").unwrap();
    std::fs::write(dm.join("dev"), "254:7\n").unwrap();
    std::fs::write(
        root.join("proc/self/mountinfo"),
        format!(
            "{mi}99 1 8:0 / /mnt/root rw,relatime - ext4 /dev/root rw\n\
             100 1 0:77 / /mnt/data rw,relatime - btrfs /dev/mapper/vg-data rw\n"
        ),
    )
    .unwrap();
    let s = discover::scan(&opts(root)).unwrap();
    let by_block = |b: &str| {
        s.drives
            .iter()
            .find(|d| d.paths[0].block.as_deref() == Some(b))
            .unwrap()
    };
    assert_eq!(
        by_block("/dev/sda").in_use,
        [InUseReason::Mounted {
            device: "sda".into(),
            mount_point: "/mnt/root".into()
        }]
    );
    assert!(
        by_block("/dev/sdc").in_use.contains(&InUseReason::Mounted {
            device: "dm-7".into(),
            mount_point: "/mnt/data".into()
        }),
        "{:?}",
        by_block("/dev/sdc").in_use
    );
    assert!(by_block("/dev/sdd").in_use.is_empty());
    // Only virtual mounts (major 0) and no mapper source: nothing is in use but by holders.
    std::fs::write(root.join("proc/self/mountinfo"), mi).unwrap();
    let s = discover::scan(&opts(root)).unwrap();
    for d in &s.drives {
        assert!(
            d.in_use
                .iter()
                .all(|r| matches!(r, InUseReason::Held { .. })),
            "{:?}",
            d.in_use
        );
    }
}

#[test]
fn empty_sysroot_finds_nothing() {
    let t = tempfile::tempdir().unwrap();
    let s = discover::scan(&opts(t.path())).unwrap();
    assert_eq!((s.scsi_devices, s.drives.len()), (0, 0));
}

#[test]
fn cli_scan_json_and_table() {
    let bin = env!("CARGO_BIN_EXE_sgctl");
    let root = fixture("mptsas-dualport");
    let out = std::process::Command::new(bin)
        .args(["--json", "scan", "--sysroot"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["data"]["drives"][0];
    assert_eq!(d["lu_name"], "naa.5000c500000000cc");
    assert_eq!(d["serial"], "DP0001");
    assert_eq!(d["paths"][1]["sg"], "/dev/sg1");
    assert_eq!(d["paths"][1]["block"], "/dev/sdb");
    assert_eq!(d["paths"][1]["target_port"], "0x5000c500000000c2");
    assert_eq!(d["paths"][1]["relative_port"], 2);
    let out = std::process::Command::new(bin)
        .args(["scan", "--sysroot"])
        .arg(&root)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("naa.5000c500000000cc"), "{text}");
    assert_eq!(text.matches("  path ").count(), 2, "{text}");
    // Nothing found: says so, suggests sim:, exit 0.
    let t = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(bin)
        .args(["scan", "--sysroot"])
        .arg(t.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no SCSI devices found") && err.contains("sim:"),
        "{err}"
    );
    // Every line is a message of its own: no escaped newline.
    assert!(!err.contains("\\n"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
}

/// The built JBOD tree (fixtures/sysfs/ses-jbod): each dual-ported drive is one drive in one
/// slot, reached through both SES devices; the enclosure appears twice with one logical id.
#[test]
fn ses_jbod_drives_have_their_slot_on_every_path() {
    let s = discover::scan(&opts(&fixture("ses-jbod"))).unwrap();
    assert_eq!(s.scsi_devices, 8);
    assert_eq!(s.enclosures.len(), 2);
    assert!(s.enclosures.iter().all(|e| e.problems.is_empty()));
    let disks: Vec<&Drive> = s
        .drives
        .iter()
        .filter(|d| d.peripheral_type == Some(0))
        .collect();
    assert_eq!(disks.len(), 3);
    for (d, slot) in disks.iter().zip([0u32, 1, 3]) {
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        let e = d.enclosure.as_ref().expect("slot known");
        assert_eq!(e.id.as_deref(), Some("0x500605b0000272bf"));
        assert_eq!(e.slot, Some(slot));
        assert_eq!(e.product.as_deref(), Some("JBOD4 SIM ENCL"));
        assert_eq!(d.paths.len(), 2);
        let via: Vec<&str> = d
            .paths
            .iter()
            .map(|p| p.enclosure.as_ref().unwrap().enclosure_device.as_str())
            .collect();
        assert_eq!(via, ["0:0:0:0", "1:0:0:0"]);
        assert!(d
            .paths
            .iter()
            .all(|p| p.enclosure.as_ref().unwrap().slot == Some(slot)));
    }
    // The SES devices themselves sit in no slot.
    assert!(s
        .drives
        .iter()
        .filter(|d| d.peripheral_type == Some(0x0d))
        .all(|d| d.enclosure.is_none()));
    // Trees without an enclosure class: no slot anywhere.
    let s = discover::scan(&opts(&fixture("mptsas-dualport"))).unwrap();
    assert!(s.enclosures.is_empty() && s.drives[0].enclosure.is_none());
}

/// Two paths that the kernel links to different slots: the drive says so in its errors.
#[test]
fn paths_in_different_slots_are_an_error_of_the_drive() {
    let t = copy_fixture("ses-jbod");
    let enc = std::fs::canonicalize(t.path().join("sys/class/enclosure/1:0:0:0")).unwrap();
    std::fs::write(enc.join("SLOT 03/slot"), "7\n").unwrap();
    let d = discover::paths_of_with("/dev/sg3", &opts(t.path())).unwrap();
    assert!(
        d.errors
            .iter()
            .any(|e| e.contains("different slots: 0x500605b0000272bf:3, 0x500605b0000272bf:7")),
        "{:?}",
        d.errors
    );
}

#[test]
fn cli_scan_and_paths_show_enclosure_and_slot() {
    let bin = env!("CARGO_BIN_EXE_sgctl");
    let root = fixture("ses-jbod");
    let out = std::process::Command::new(bin)
        .args(["--json", "scan", "--sysroot"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["data"]["drives"][1];
    assert_eq!(d["serial"], "SJ0000A0");
    assert_eq!(d["enclosure"]["id"], "0x500605b0000272bf");
    assert_eq!(d["enclosure"]["slot"], 0);
    assert_eq!(d["paths"][1]["enclosure"]["enclosure_device"], "1:0:0:0");
    let e = &v["data"]["enclosures"][0];
    assert_eq!(e["components_declared"], 4);
    assert_eq!(e["components"][1]["locate"], true);
    assert_eq!(e["components"][1]["type"], "array device");
    assert_eq!(e["components"][2]["status"], "not installed");
    let out = std::process::Command::new(bin)
        .args(["paths", "/dev/sdf", "--sysroot"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("enclosure 0x500605b0000272bf slot 3 (SGCTL JBOD4 SIM ENCL, \"SLOT 03\")"),
        "{text}"
    );
    assert_eq!(
        text.matches("slot 0x500605b0000272bf:3 via").count(),
        2,
        "{text}"
    );
}

/// `health --enclosure ID:SLOTS` picks the disks in those slots (one address per drive, not
/// the SES devices) and labels their series with enclosure and slot.
#[test]
fn health_by_enclosure_slot_with_labels() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgctl"))
        .args(["health", "--prometheus", "--timeout", "2", "--enclosure"])
        .arg("500605b0000272bf:1-3")
        .arg("--sysroot")
        .arg(fixture("ses-jbod"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let read_ok: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("sgctl_health_read_ok{"))
        .collect();
    assert_eq!(read_ok.len(), 2, "{text}");
    assert!(read_ok[0].starts_with(
        "sgctl_health_read_ok{device=\"/dev/sg2\",serial=\"\",model=\"\",\
         enclosure=\"0x500605b0000272bf\",slot=\"1\"}"
    ));
    assert!(read_ok[1].contains("device=\"/dev/sg3\"") && read_ok[1].contains("slot=\"3\""));
    // No disk there: a usage error (health's bit 0).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgctl"))
        .args(["health", "--enclosure", "0x500605b0000272bf:2", "--sysroot"])
        .arg(fixture("ses-jbod"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// `locate`/`fault` scan the host once: the scan that finds the drive's paths is handed back
/// with them and lists the enclosure services device the SES fallback asks (captured TCMU
/// tree: the drive's two paths, the 0Dh device /dev/sg2).
#[test]
fn paths_and_scan_hand_back_the_enclosure_services_devices() {
    let root = fixture("tcmu-ses");
    let (d, s) = discover::paths_and_scan("/dev/sg1", &opts(&root)).unwrap();
    assert_eq!(d.serial.as_deref(), Some("TCMU0001"));
    assert_eq!(d.paths.len(), 2);
    let s = s.expect("the scan made");
    assert_eq!(sgctl::ops::led::ses::ses_device_addresses(&s), ["/dev/sg2"]);
    let (v, s) = discover::paths_and_scan(
        "sim:px02smf080?clock=virtual&capacity_blocks=8192",
        &opts(&root),
    )
    .unwrap();
    assert!(s.is_none() && v.paths.len() == 1);
}

/// `bench run|pts|review --enclosure ID:SLOT` run on the one disk in that slot: a writing
/// run goes to the safety gate for that drive (refused here without --confirm, nothing
/// written); a selector naming several disks or none is a usage error before any drive is
/// opened.
#[test]
fn bench_by_enclosure_slot_takes_exactly_one_disk() {
    let bench = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgctl"))
            .arg("bench")
            .args(args)
            .arg("--sysroot")
            .arg(fixture("ses-jbod"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = bench(&[
        "run",
        "--enclosure",
        "0x500605b0000272bf:3",
        "--rw",
        "randwrite",
        "--runtime",
        "1",
    ]);
    assert_eq!(code, Some(6), "{err}");
    assert!(err.contains("refused: /dev/sg3:"), "{err}");
    for sub in [&["run"][..], &["pts", "--test", "iops"], &["review"]] {
        let mut a = sub.to_vec();
        a.extend(["--enclosure", "500605b0000272bf:0-3"]);
        let (code, err) = bench(&a);
        assert_eq!(code, Some(2), "{sub:?}: {err}");
        assert!(
            err.contains(
                "3 disks there (/dev/sg1 in slot 0, /dev/sg2 in slot 1, /dev/sg3 in slot 3)"
            ),
            "{sub:?}: {err}"
        );
        let mut a = sub.to_vec();
        a.extend(["--enclosure", "500605b0000272bf:2"]);
        let (code, err) = bench(&a);
        assert_eq!(code, Some(2), "{sub:?}: {err}");
        assert!(err.contains("no disk matches"), "{sub:?}: {err}");
    }
    // DEVICE and --enclosure together: which one? Refused by the parser.
    let (code, _) = bench(&[
        "run",
        "sim:px02smf080",
        "--enclosure",
        "0x500605b0000272bf:3",
    ]);
    assert_eq!(code, Some(2));
}

/// The tree captured with the virtual enclosure served through TCMU and the kernel's ses driver
/// bound to it (fixtures/sysfs/tcmu-ses): the enclosure as ses.c registered it, its slots
/// without `device` links (tcm_loop LUs have no SAS rphy), and the 0Dh device the LED commands
/// fall back to when no kernel enclosure links the drive.
#[test]
fn tcmu_ses_capture_enclosure_unlinked_slots_and_the_0d_device() {
    let root = fixture("tcmu-ses");
    let s = discover::scan(&opts(&root)).unwrap();
    assert_eq!(s.scsi_devices, 3);
    assert_eq!(s.enclosures.len(), 1);
    let e = &s.enclosures[0];
    assert!(e.problems.is_empty(), "{:?}", e.problems);
    assert_eq!(e.name, "2:0:1:0");
    assert_eq!(e.id.as_deref(), Some("0x5acde48e00000100"));
    assert_eq!(
        (e.vendor.as_deref(), e.product.as_deref()),
        (Some("SGCTL"), Some("VIRTUAL ENCL"))
    );
    assert_eq!(e.components_declared, Some(4));
    let names: Vec<&str> = e.components.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["SLOT 00", "SLOT 01", "SLOT 02", "SLOT 03"]);
    let leds: Vec<(Option<u32>, Option<bool>, Option<bool>)> = e
        .components
        .iter()
        .map(|c| (c.slot, c.locate, c.fault))
        .collect();
    assert_eq!(
        leds,
        [
            (Some(0), Some(true), Some(false)),
            (Some(1), Some(true), Some(true)),
            (Some(2), Some(false), Some(false)),
            (Some(3), Some(false), Some(false)),
        ]
    );
    assert!(e.components.iter().all(|c| c.device.is_none()
        && c.kind.as_deref() == Some("array device")
        && c.status.as_deref() == Some("OK")));
    // The drive: one LU on two paths, in no slot the kernel knows.
    let disk = s
        .drives
        .iter()
        .find(|d| d.serial.as_deref() == Some("TCMU0001"))
        .unwrap();
    assert_eq!(disk.paths.len(), 2);
    assert!(disk.enclosure.is_none());
    let paths: Vec<_> = disk
        .paths
        .iter()
        .map(discover::DrivePath::to_path_info)
        .collect();
    let err = sgctl::ops::led::components_of(&root, &paths).unwrap_err();
    assert!(
        err.to_string().contains("none of the 1 enclosure(s)"),
        "{err}"
    );
    // The enclosure services device a live `sgctl locate` would then ask over SG_IO.
    assert_eq!(sgctl::ops::led::ses::ses_device_addresses(&s), ["/dev/sg2"]);
    assert_eq!(
        sgctl::ops::led::ses::enclosure_services_devices(&opts(&root)),
        ["/dev/sg2"]
    );
    // Without it, nothing.
    assert!(
        sgctl::ops::led::ses::enclosure_services_devices(&opts(&fixture("mptsas-dualport")))
            .is_empty()
    );
}
