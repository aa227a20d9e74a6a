//! Every commands-area parser against real bytes in fixtures/commands/ (see the README.md in
//! each directory for where they came from). Expected values come from the emulator
//! parameters (vm/ capture: QEMU `scsi-hd` wwn/port_wwn/serial/rotation_rate/block sizes,
//! scsi_debug `dif=1 physblk_exp=3 lbpu=1 lbprz=1 dev_size_mb=16`, scsi_debug's documented
//! designator formulas) or from the published dumps, not from running our decoder.

use sgctl::bytes::parse_inhex;
use sgctl::scsi::mode::{self, HeaderKind, PageData};
use sgctl::scsi::report_luns::LunLevel;
use sgctl::scsi::vpd::designator::{Association, Designator};
use sgctl::scsi::vpd::{self, VpdPage};
use sgctl::scsi::{inquiry, read_capacity, report_luns, request_sense, rsoc};
use sgctl::sense::SenseKey;

fn fx(path: &str) -> Vec<u8> {
    let p = format!("{}/fixtures/commands/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    parse_inhex(&text).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn page(path: &str) -> VpdPage {
    vpd::decode(&fx(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

// ---- QEMU 7.2 scsi-hd on mptsas1068 (wwn 0x5000c500a1b2c3d4, port_wwn ...d5, port_index 1,
// serial FX0001, rotation_rate 1, 512/4096, 256 MiB, discard=unmap) ----

#[test]
fn qemu_inquiry() {
    let i = inquiry::parse(&fx("qemu_scsi_hd/inquiry.hex")).unwrap();
    assert_eq!(i.t10_vendor_identification, "SGCTLFX");
    assert_eq!(i.product_identification, "QEMU-SCSI-HD");
    assert_eq!(i.peripheral_device_type, 0);
    assert_eq!(i.version, 5);
    assert!(i.cmdque && !i.protect && !i.multip);
}

#[test]
fn qemu_vpd_pages() {
    let VpdPage::SupportedPages(s) = page("qemu_scsi_hd/vpd_00.hex") else {
        panic!()
    };
    assert_eq!(s.pages, vec![0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2]);
    let VpdPage::UnitSerialNumber(sn) = page("qemu_scsi_hd/vpd_80.hex") else {
        panic!()
    };
    assert_eq!(sn.unit_serial_number, "FX0001");
    let VpdPage::DeviceIdentification(di) = page("qemu_scsi_hd/vpd_83.hex") else {
        panic!()
    };
    assert_eq!(di.lu_name().as_deref(), Some("0x5000c500a1b2c3d4"));
    assert_eq!(di.target_port_naa().as_deref(), Some("0x5000c500a1b2c3d5"));
    assert_eq!(di.relative_target_port(), Some(1));
    let tp = di
        .designators
        .iter()
        .find(|d| d.association == Association::TargetPort && d.designator_type == 3)
        .unwrap();
    assert!(tp.piv);
    assert_eq!(tp.protocol_identifier, Some(6), "SAS");
    // device_id defaults to the serial: an ASCII vendor specific LU designator.
    assert!(di.designators.iter().any(|d| d.code_set == 2
        && d.designator
            == Designator::VendorSpecific {
                data: "465830303031".into()
            }));
    let VpdPage::BlockDeviceCharacteristics(b1) = page("qemu_scsi_hd/vpd_b1.hex") else {
        panic!()
    };
    assert_eq!(b1.medium_rotation_rate, 1);
    let VpdPage::LogicalBlockProvisioning(b2) = page("qemu_scsi_hd/vpd_b2.hex") else {
        panic!()
    };
    assert!(b2.lbpu && b2.lbpws && b2.lbpws10, "discard=unmap");
    assert_eq!(b2.provisioning_type, 2);
    let VpdPage::BlockLimits(b0) = page("qemu_scsi_hd/vpd_b0.hex") else {
        panic!()
    };
    // 4096-byte physical blocks: unmap granularity 8 logical blocks.
    assert_eq!(b0.optimal_unmap_granularity, Some(8));
    assert!(b0.wsnz);
}

#[test]
fn qemu_capacity_and_luns() {
    let r = read_capacity::parse16(&fx("qemu_scsi_hd/readcap16.hex")).unwrap();
    assert_eq!(r.lba_count, 256 * 1024 * 1024 / 512);
    assert_eq!((r.block_len, r.physical_block_len), (512, 4096));
    assert_eq!(r.lb_per_pb_exponent, 3);
    assert!(!r.prot_en && r.lbpme);
    let r10 = read_capacity::parse10(&fx("qemu_scsi_hd/readcap10.hex")).unwrap();
    assert_eq!(r10.lba_count, Some(524288));
    let l = report_luns::parse(&fx("qemu_scsi_hd/luns.hex")).unwrap();
    assert_eq!(l.luns.len(), 1);
    assert_eq!(l.luns[0].linux_lun, 0);
    let s = request_sense::parse(&fx("qemu_scsi_hd/request_sense.hex")).unwrap();
    assert_eq!((s.key, s.asc, s.ascq), (SenseKey::NoSense, 0, 0));
}

#[test]
fn qemu_mode_pages() {
    let m = mode::parse(&fx("qemu_scsi_hd/mode10_all.hex"), HeaderKind::Ten).unwrap();
    assert_eq!(m.block_descriptors.len(), 1);
    assert_eq!(m.block_descriptors[0].block_length, 512);
    assert_eq!(m.block_descriptors[0].number_of_blocks, 524288);
    let caching = m.pages.iter().find(|p| p.page_code == 8).unwrap();
    let PageData::Caching(c) = &caching.data else {
        panic!()
    };
    assert!(c.wce, "QEMU's default write cache is on");
    let m6 = mode::parse(&fx("qemu_scsi_hd/mode6_all.hex"), HeaderKind::Six).unwrap();
    assert_eq!(m6.block_descriptors, m.block_descriptors);
    let ml = mode::parse(&fx("qemu_scsi_hd/mode10_all_llbaa.hex"), HeaderKind::Ten).unwrap();
    assert_eq!(ml.block_descriptors[0].number_of_blocks, 524288);
    mode::parse(&fx("qemu_scsi_hd/mode10_changeable.hex"), HeaderKind::Ten).unwrap();
}

// ---- Linux 6.1 scsi_debug 0191 (dev_size_mb=16 sector_size=512 physblk_exp=3 dif=1 dix=1
// lbpu=1 lbpws=1 lbprz=1 num_tgts=1 max_luns=2), host 1, target 0, LUN 0 ----

#[test]
fn scsi_debug_inquiry() {
    let i = inquiry::parse(&fx("scsi_debug/inquiry.hex")).unwrap();
    assert_eq!(i.t10_vendor_identification, "Linux");
    assert_eq!(i.product_identification, "scsi_debug");
    assert_eq!(i.product_revision_level, "0191");
    assert!(i.protect, "dif=1");
    assert!(i.multip, "scsi_debug always sets MultiP");
}

#[test]
fn scsi_debug_device_id_and_ports() {
    // lu_id_num = (host_no+1)*2000 + target*1000 + lun = 4000; target_dev_id = 4000 - 3
    // (linux drivers/scsi/scsi_debug.c inquiry_vpd_83).
    let VpdPage::DeviceIdentification(di) = page("scsi_debug/vpd_83.hex") else {
        panic!()
    };
    assert_eq!(di.lu_name().as_deref(), Some("0x3333333000000fa0"));
    assert_eq!(di.target_port_naa().as_deref(), Some("0x3222222000000f9e"));
    assert_eq!(di.relative_target_port(), Some(1));
    assert!(di.designators.iter().any(|d| d.designator
        == Designator::TargetPortGroup {
            target_port_group: 0x200
        }));
    assert!(di
        .designators
        .iter()
        .any(|d| d.association == Association::TargetDevice
            && d.designator
                == Designator::ScsiName {
                    name: "naa.3222222000000F9D".into()
                }));
    let VpdPage::ScsiPorts(sp) = page("scsi_debug/vpd_88.hex") else {
        panic!()
    };
    let rel: Vec<u16> = sp.ports.iter().map(|p| p.relative_port).collect();
    assert_eq!(rel, vec![1, 2]);
    let naa: Vec<&Designator> = sp
        .ports
        .iter()
        .map(|p| &p.target_port_descriptors[0].designator)
        .collect();
    assert!(matches!(naa[1], Designator::Naa { value, .. } if value == "0x3222222000000f9f"));
}

#[test]
fn scsi_debug_other_pages() {
    let VpdPage::ExtendedInquiry(e) = page("scsi_debug/vpd_86.hex") else {
        panic!()
    };
    assert_eq!(e.spt, 0, "type 1 only");
    assert!(e.grd_chk && e.ref_chk && !e.app_chk);
    assert!(e.headsup && e.ordsup && e.simpsup);
    let VpdPage::AtaInformation(a) = page("scsi_debug/vpd_89.hex") else {
        panic!()
    };
    assert_eq!(a.sat_vendor_identification, "linux");
    assert_eq!(a.model.as_deref(), Some("ST380013AS"));
    assert_eq!(a.command_code, Some(0xec));
    assert_eq!(a.sata_transport, Some(true));
    let VpdPage::BlockLimits(b0) = page("scsi_debug/vpd_b0.hex") else {
        panic!()
    };
    assert_eq!(
        b0.maximum_unmap_lba_count,
        Some(u32::MAX),
        "lbpu=1: unbounded"
    );
    let VpdPage::LogicalBlockProvisioning(b2) = page("scsi_debug/vpd_b2.hex") else {
        panic!()
    };
    assert!(b2.lbpu && b2.lbpws);
    assert_eq!(b2.lbprz, 1);
    let VpdPage::SupportedPages(s) = page("scsi_debug/vpd_00.hex") else {
        panic!()
    };
    assert!(s.pages.contains(&0x88) && s.pages.contains(&0x89));
    let VpdPage::UnitSerialNumber(sn) = page("scsi_debug/vpd_80.hex") else {
        panic!()
    };
    assert_eq!(sn.unit_serial_number, "4000");
}

#[test]
fn scsi_debug_capacity_pi() {
    let r = read_capacity::parse16(&fx("scsi_debug/readcap16.hex")).unwrap();
    assert_eq!(r.lba_count, 16 * 1024 * 1024 / 512);
    assert!(r.prot_en);
    assert_eq!((r.p_type, r.protection_type), (0, 1), "dif=1");
    assert_eq!(r.lb_per_pb_exponent, 3, "physblk_exp=3");
    assert!(r.lbpme && r.lbprz, "lbpu=1 lbprz=1");
    let l = report_luns::parse(&fx("scsi_debug/luns.hex")).unwrap();
    let luns: Vec<u64> = l.luns.iter().map(|l| l.linux_lun).collect();
    assert_eq!(luns, vec![0, 1], "max_luns=2");
}

#[test]
fn scsi_debug_rsoc() {
    let all = rsoc::parse_all(&fx("scsi_debug/rsoc_all.hex")).unwrap();
    assert!(all
        .commands
        .iter()
        .any(|c| c.opcode == 0x12 && c.cdb_length == 6));
    assert!(all
        .commands
        .iter()
        .any(|c| c.opcode == 0x9e && c.service_action == Some(0x10) && c.cdb_length == 16));
    assert!(all.commands.iter().all(|c| c.timeouts.is_none()));
    let t = rsoc::parse_all(&fx("scsi_debug/rsoc_all_rctd.hex")).unwrap();
    assert_eq!(t.commands.len(), all.commands.len());
    assert!(t.commands.iter().all(|c| c.timeouts.is_some()), "RCTD=1");
    let one = rsoc::parse_one(&fx("scsi_debug/rsoc_one_inquiry.hex")).unwrap();
    assert!(one.supported());
    assert_eq!(one.cdb_size, 6);
    assert_eq!(
        one.cdb_usage_bytes[0], 0x12,
        "usage byte 0 echoes the opcode"
    );
    let rc = rsoc::parse_one(&fx("scsi_debug/rsoc_one_rc16_rctd.hex")).unwrap();
    assert_eq!(rc.cdb_size, 16);
    assert_eq!(&rc.cdb_usage_bytes[..2], &[0x9e, 0x10]);
    assert!(rc.timeouts.is_some());
}

#[test]
fn scsi_debug_mode_pages() {
    let m = mode::parse(&fx("scsi_debug/mode10_all_llbaa.hex"), HeaderKind::Ten).unwrap();
    assert!(m.header.longlba);
    assert_eq!(m.block_descriptors[0].number_of_blocks, 32768);
    assert!(m.block_descriptors[0].long);
    let codes: Vec<(u8, u8)> = m
        .pages
        .iter()
        .map(|p| (p.page_code, p.subpage_code))
        .collect();
    // scsi_debug's mode pages (drivers/scsi/scsi_debug.c): 0x01 0x02 0x03 0x08 0x0a 0x19/0,1,2 0x1c.
    for want in [
        (1, 0),
        (8, 0),
        (0x0a, 0),
        (0x19, 0),
        (0x19, 1),
        (0x19, 2),
        (0x1c, 0),
    ] {
        assert!(codes.contains(&want), "{want:?} in {codes:?}");
    }
    for p in &m.pages {
        match (&p.data, p.page_code, p.subpage_code) {
            (PageData::SasPhyControl(phy), 0x19, 1) => {
                assert_eq!(phy.number_of_phys, 2);
                assert_eq!(phy.phys[0].sas_address, "0x3222222000000f9e");
                assert_eq!(phy.phys[1].sas_address, "0x3222222000000f9f");
            }
            (PageData::SasPortControl(pc), 0x19, 0) => assert_eq!(pc.protocol_identifier, 6),
            (PageData::Control(c), 0x0a, 0) => assert!(!c.d_sense),
            (PageData::InformationalExceptions(ie), 0x1c, 0) => assert!(ie.dexcpt),
            (PageData::ReadWriteErrorRecovery(r), 1, 0) => assert!(r.awre),
            (PageData::Raw, code, _) => assert!(!matches!(code, 1 | 8 | 0x0a | 0x1c)),
            _ => {}
        }
    }
    let m10 = mode::parse(&fx("scsi_debug/mode10_all.hex"), HeaderKind::Ten).unwrap();
    let m6 = mode::parse(&fx("scsi_debug/mode6_all.hex"), HeaderKind::Six).unwrap();
    assert_eq!(m10.pages.len(), m6.pages.len());
    assert_eq!(m6.block_descriptors[0].block_length, 512);
    mode::parse(&fx("scsi_debug/mode10_changeable.hex"), HeaderKind::Ten).unwrap();
}

// ---- sg3_utils inhex files and published dumps ----

#[test]
fn sg3_utils_inhex_files() {
    let VpdPage::DeviceIdentification(di) = page("sg3_utils_inhex/vpd_di_all.hex") else {
        panic!()
    };
    let types: Vec<u8> = di.designators.iter().map(|d| d.designator_type).collect();
    assert_eq!(types, vec![0, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 9, 0xa]);
    assert!(
        di.designators.iter().any(|d| matches!(&d.designator,
        Designator::Uuid { uuid, uuid_type: 1 } if uuid == "11223344-5566-7788-99aa-bbccddeefedc"))
    );
    assert!(di.designators.iter().any(|d| matches!(
        &d.designator,
        Designator::Naa {
            naa: 6,
            ieee_company_id: Some(0x122334),
            ..
        }
    )));
    assert!(di.designators.iter().any(|d| matches!(
        &d.designator,
        Designator::Eui64 {
            directory_id: Some(0x123),
            ..
        }
    )));
    // The pre-SPC-3 EMC page has no descriptor headers: must be rejected, not misread.
    assert!(vpd::decode(&fx("sg3_utils_inhex/vpd_di_old_emc_symm.hex")).is_err());
    let VpdPage::AtaInformation(a) = page("sg3_utils_inhex/vpd_atai.hex") else {
        panic!()
    };
    assert_eq!(a.serial_number.as_deref(), Some("XXXXXXXX"));
    assert_eq!(a.firmware_revision.as_deref(), Some("3.18"));
    let VpdPage::BlockLimits(b0) = page("sg3_utils_inhex/vpd_bl.hex") else {
        panic!()
    };
    assert_eq!(b0.maximum_transfer_length, 0xffff);
    assert_eq!(b0.optimal_transfer_length_granularity, 8);
    assert_eq!(b0.maximum_unmap_lba_count, Some(0x60000));
    let i = inquiry::parse(&fx("sg3_utils_inhex/inq_emc_symm.hex")).unwrap();
    assert_eq!(i.t10_vendor_identification, "EMC");
    assert_eq!(i.product_identification, "SYMMETRIX");
    assert_eq!(i.product_revision_level, "5876");
    let l = report_luns::parse(&fx("sg3_utils_inhex/luns_wlun.hex")).unwrap();
    assert_eq!(l.luns.len(), 8);
    assert!(l
        .luns
        .iter()
        .any(|x| x.levels[0] == LunLevel::WellKnown { wlun: 1 }));
    assert!(l
        .luns
        .iter()
        .any(|x| x.levels[0] == LunLevel::Flat { lun: 0x1234 }));
}

#[test]
fn published_real_drives() {
    let VpdPage::SupportedPages(s) = page("published/samsung_mz7kh480_vpd_00.hex") else {
        panic!()
    };
    assert_eq!(
        s.pages,
        vec![0x00, 0x80, 0x83, 0x87, 0x89, 0xb0, 0xb1, 0xb2]
    );
    let VpdPage::UnitSerialNumber(sn) = page("published/samsung_mz7kh480_vpd_80.hex") else {
        panic!()
    };
    assert_eq!(sn.unit_serial_number, "S47GNA0M816130");
    let VpdPage::DeviceIdentification(di) = page("published/skhynix_sc311_vpd_83.hex") else {
        panic!()
    };
    assert_eq!(di.designators.len(), 1);
    let Designator::T10VendorId {
        vendor_id,
        vendor_specific,
    } = &di.designators[0].designator
    else {
        panic!()
    };
    assert_eq!(vendor_id.trim_end(), "ATA");
    assert!(vendor_specific.starts_with("SK hynix SC311 SATA 256GB"));
    assert!(vendor_specific.trim_end().ends_with("MJ78N707311609142"));
}

#[test]
fn sg3_utils_mirror_files() {
    // Real Seagate SAS disk.
    let VpdPage::DeviceIdentification(di) = page("sg3_utils_inhex/vpd_dev_id.hex") else {
        panic!()
    };
    assert_eq!(di.lu_name().as_deref(), Some("0x5000c5003011cb2b"));
    assert_eq!(di.target_port_naa().as_deref(), Some("0x5000c5003011cb29"));
    assert_eq!(di.relative_target_port(), Some(1));
    assert!(di
        .designators
        .iter()
        .any(|d| d.association == Association::TargetDevice
            && d.code_set == 3
            && d.designator
                == Designator::ScsiName {
                    name: "naa.5000C5003011CB28".into()
                }));
    assert!(di.designators.iter().any(|d| matches!(
        &d.designator,
        Designator::Naa {
            naa: 5,
            ieee_company_id: Some(0x000c50),
            vendor_specific_id: Some(0x03011cb2b),
            ..
        }
    )));
    let VpdPage::LogicalBlockProvisioning(lb) = page("sg3_utils_inhex/vpd_lbpv.hex") else {
        panic!()
    };
    assert!(lb.dp);
    assert!(
        matches!(&lb.provisioning_group.as_ref().unwrap().designator,
        Designator::Naa { value, .. } if value == "0x5122334455667788")
    );
    let i = inquiry::parse(&fx("sg3_utils_inhex/inq_standard.hex")).unwrap();
    assert_eq!(i.product_identification, "scsi_debug");
    assert_eq!(i.version, 7);
    assert!(i.multip && i.cmdque && !i.protect);
    assert_eq!(i.version_descriptors, vec![0x00c0, 0x05c0, 0x0600, 0x2100]);
    let all = rsoc::parse_all(&fx("sg3_utils_inhex/opcodes.hex")).unwrap();
    assert_eq!(all.commands.len(), 0x1a0 / 8);
    assert!(all
        .commands
        .iter()
        .any(|c| c.opcode == 0x7f && c.service_action == Some(9) && c.cdb_length == 32));
    let m = mode::parse(&fx("sg3_utils_inhex/modes_sdeb.hex"), HeaderKind::Ten).unwrap();
    assert_eq!(m.header.mode_data_length, 0xee);
    assert_eq!(m.pages.len(), 9);
    let phy = m
        .pages
        .iter()
        .find_map(|p| match &p.data {
            PageData::SasPhyControl(x) => Some(x),
            _ => None,
        })
        .unwrap();
    assert_eq!(phy.phys[1].sas_address, "0x32222220000007cf");
    assert_eq!(phy.phys[1].attached_sas_address, "0x3111111000000001");
    assert_eq!(phy.phys[1].negotiated_logical_link_rate, 9, "3 Gbit/s");
    let r = read_capacity::parse16(&fx("sg3_utils_inhex/readcap_zbc.hex")).unwrap();
    assert_eq!(r.lba_count, 0x9_1860_0000);
    assert_eq!((r.block_len, r.physical_block_len), (512, 4096));
    let s = request_sense::parse(&fx("sg3_utils_inhex/descriptor_sense.hex")).unwrap();
    assert!(s.descriptor_format);
    assert_eq!(
        (s.key, s.asc, s.ascq),
        (SenseKey::RecoveredError, 0x03, 0x02)
    );
    assert_eq!(s.information, Some(0x1122_3344_5566_77bb));
    assert_eq!(s.command_specific, Some(0x3344_5566_77bb_ccff));
    assert_eq!(s.fru, 0x45);
    assert!(s.ili);
}
