//! Text renderings (sg3_utils look) of the identification and query commands' data. Pure
//! functions from decoded structs to strings; the VPD pages are in [`super::vpd_text`].

use crate::scsi::inquiry::{version_name, StandardInquiry};
use crate::scsi::mode::{ModeParameters, PageData};
use crate::scsi::read_capacity::{ReadCapacity10, ReadCapacity16};
use crate::scsi::report_luns::{LunLevel, ReportLuns};
use crate::scsi::rsoc::{AllCommands, OneCommand, Support};
use crate::sense::{Sense, SenseKeySpecific};
use std::fmt::Write;

fn b(v: bool) -> u8 {
    u8::from(v)
}

/// `sg_inq`-style standard INQUIRY.
pub fn inquiry(i: &StandardInquiry) -> String {
    let mut s = String::from("standard INQUIRY:\n");
    let _ = writeln!(
        s,
        "  PQual={}  PDT={}  RMB={}  LU_CONG={}  hot_pluggable={}  version=0x{:02x}  [{}]",
        i.peripheral_qualifier,
        i.peripheral_device_type,
        b(i.rmb),
        b(i.lu_cong),
        i.hot_pluggable,
        i.version,
        version_name(i.version)
    );
    let _ = writeln!(
        s,
        "  NormACA={}  HiSUP={}  Resp_data_format={}",
        b(i.normaca),
        b(i.hisup),
        i.response_data_format
    );
    let _ = writeln!(
        s,
        "  SCCS={}  ACC={}  TPGS={}  3PC={}  Protect={}",
        b(i.sccs),
        b(i.acc),
        i.tpgs,
        b(i.three_pc),
        b(i.protect)
    );
    let _ = writeln!(
        s,
        "  EncServ={}  MultiP={}  CmdQue={}",
        b(i.encserv),
        b(i.multip),
        b(i.cmdque)
    );
    let len = usize::from(i.additional_length) + 5;
    let _ = writeln!(
        s,
        "    length={len} (0x{len:x})   Peripheral device type: {}",
        i.peripheral_device_type_name
    );
    let _ = writeln!(s, " Vendor identification: {}", i.t10_vendor_identification);
    let _ = writeln!(s, " Product identification: {}", i.product_identification);
    let _ = writeln!(s, " Product revision level: {}", i.product_revision_level);
    if let Some(v) = &i.vendor_specific {
        let _ = writeln!(s, " Vendor specific: {v}");
    }
    if !i.version_descriptors.is_empty() {
        let v: Vec<String> = i
            .version_descriptors
            .iter()
            .map(|d| format!("0x{d:04x}"))
            .collect();
        let _ = writeln!(s, " Version descriptors: {}", v.join(" "));
    }
    s
}

fn human_size(bytes: u64) -> String {
    let b = bytes as f64;
    format!(
        "{bytes} bytes, {:.1} MiB, {:.2} GB, {:.2} TB",
        b / 1048576.0,
        b / 1e9,
        b / 1e12
    )
}

/// `sg_readcap`-style READ CAPACITY (10).
pub fn readcap10(r: &ReadCapacity10) -> String {
    let mut s = String::from("Read Capacity results:\n");
    match r.lba_count {
        Some(n) => {
            let _ = writeln!(
                s,
                "   Last LBA={} (0x{:x}), Number of logical blocks={n}",
                r.last_lba, r.last_lba
            );
        }
        None => s.push_str("   Last LBA=0xffffffff: capacity too large, use READ CAPACITY(16)\n"),
    }
    let _ = writeln!(s, "   Logical block length={} bytes", r.block_len);
    if let Some(sz) = r.size_bytes {
        let _ = writeln!(s, "Hence:\n   Device size: {}", human_size(sz));
    }
    s
}

/// `sg_readcap --16`-style READ CAPACITY (16).
pub fn readcap16(r: &ReadCapacity16) -> String {
    let mut s = String::from("Read Capacity results:\n");
    let _ = writeln!(
        s,
        "   Protection: prot_en={}, p_type={}, p_i_exponent={}{}",
        b(r.prot_en),
        r.p_type,
        r.p_i_exponent,
        if r.prot_en {
            format!(" [type {} protection]", r.protection_type)
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        s,
        "   Logical block provisioning: lbpme={}, lbprz={}",
        b(r.lbpme),
        b(r.lbprz)
    );
    let _ = writeln!(
        s,
        "   Last LBA={} (0x{:x}), Number of logical blocks={}",
        r.last_lba, r.last_lba, r.lba_count
    );
    let _ = writeln!(s, "   Logical block length={} bytes", r.block_len);
    let _ = writeln!(
        s,
        "   Logical blocks per physical block exponent={} [so physical block length={} bytes]",
        r.lb_per_pb_exponent, r.physical_block_len
    );
    let _ = writeln!(s, "   Lowest aligned LBA={}", r.lowest_aligned_lba);
    let _ = writeln!(s, "Hence:\n   Device size: {}", human_size(r.size_bytes));
    s
}

/// `sg_luns --decode`-style REPORT LUNS.
pub fn luns(r: &ReportLuns, select_report: u8) -> String {
    let mut s = format!(
        "Lun list length = {} which implies {} lun entr{}\n",
        r.lun_list_length,
        r.lun_list_length / 8,
        if r.lun_list_length == 8 { "y" } else { "ies" }
    );
    let _ = writeln!(s, "Report luns [select_report=0x{select_report:x}]:");
    for l in &r.luns {
        let _ = writeln!(s, "    {}", l.raw);
        for lvl in &l.levels {
            let d = match lvl {
                LunLevel::Peripheral {
                    bus_id,
                    target_or_lun,
                } => format!("Peripheral device addressing: bus_id={bus_id}, lun={target_or_lun}"),
                LunLevel::Flat { lun } => format!("Flat space addressing: lun=0x{lun:04x}"),
                LunLevel::LogicalUnit { target, bus, lun } => {
                    format!("Logical unit addressing: target={target}, bus={bus}, lun={lun}")
                }
                LunLevel::WellKnown { wlun } => format!(
                    "Well known logical unit: {}",
                    match wlun {
                        1 => "REPORT LUNS",
                        2 => "ACCESS CONTROLS",
                        3 => "TARGET LOG PAGES",
                        4 => "SECURITY PROTOCOL",
                        5 => "MANAGEMENT PROTOCOL",
                        6 => "TARGET COMMANDS",
                        _ => "unknown",
                    }
                ),
                LunLevel::Extended { raw } => format!("Extended addressing: 0x{raw}"),
            };
            let _ = writeln!(s, "      {d}");
        }
        let _ = writeln!(s, "      [Linux LUN {}]", l.linux_lun);
    }
    if r.truncated {
        s.push_str("  (list truncated by the allocation length)\n");
    }
    s
}

/// `sg_opcodes`-style list of all commands.
pub fn opcodes_all(a: &AllCommands) -> String {
    let with_t = a.commands.iter().any(|c| c.timeouts.is_some());
    let mut s = String::from("\nOpcode  Service    CDB  ");
    if with_t {
        s.push_str("  Nominal  Recommended  ");
    }
    s.push_str("Name\n(hex)   action(h)  size ");
    if with_t {
        s.push_str("  timeout  timeout(s)   ");
    }
    s.push_str("\n-----------------------------------------------\n");
    for c in &a.commands {
        let sa = c
            .service_action
            .map(|v| format!("{v:x}"))
            .unwrap_or_default();
        let _ = write!(
            s,
            " {:02x}     {:>5}      {:>3}  ",
            c.opcode, sa, c.cdb_length
        );
        if with_t {
            match &c.timeouts {
                Some(t) => {
                    let _ = write!(
                        s,
                        "  {:>7}  {:>11}  ",
                        t.nominal_seconds, t.recommended_seconds
                    );
                }
                None => s.push_str("  -        -            "),
            }
        }
        let _ = writeln!(s, "{}", c.name.unwrap_or("[unknown]"));
    }
    s
}

/// `sg_opcodes --opcode=`-style one command.
pub fn opcodes_one(o: &OneCommand, opcode: u8, sa: Option<u16>) -> String {
    let mut s = String::new();
    let name = crate::scsi::rsoc::command_name(opcode, sa).unwrap_or("[unknown]");
    let _ = writeln!(
        s,
        "  Opcode=0x{opcode:02x}{}  {name}",
        sa.map(|v| format!("  Service_action=0x{v:x}"))
            .unwrap_or_default()
    );
    let sup = match o.support {
        Support::NotAvailable => "not currently available".to_string(),
        Support::NotSupported => "NOT supported".to_string(),
        Support::Standard => "supported [conforming to SCSI standard]".to_string(),
        Support::Vendor => "supported [in a vendor specific manner]".to_string(),
        Support::Reserved(v) => format!("support reserved [0x{v:x}]"),
    };
    let _ = writeln!(s, "  Command {sup}");
    if o.cdb_size > 0 {
        let usage: Vec<String> = o
            .cdb_usage_bytes
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        let _ = writeln!(s, "  Usage data: {}", usage.join(" "));
    }
    if let Some(t) = &o.timeouts {
        let _ = writeln!(
            s,
            "  Command timeouts: nominal={} s, recommended={} s, command specific=0x{:x}",
            t.nominal_seconds, t.recommended_seconds, t.command_specific
        );
    }
    s
}

/// `sg_decode_sense`-style sense data.
pub fn sense(x: &Sense) -> String {
    let mut s = format!(
        "{} format, {}; Sense key: {}\nAdditional sense: {}\n",
        if x.descriptor_format {
            "Descriptor"
        } else {
            "Fixed"
        },
        if x.deferred { "deferred" } else { "current" },
        x.key.name(),
        crate::sense::asc_description(x.asc, x.ascq)
    );
    if let Some(i) = x.information {
        let _ = writeln!(s, "  Info fld=0x{i:x} [{i}]");
    }
    if let Some(c) = x.command_specific {
        let _ = writeln!(s, "  Command-specific information: 0x{c:x}");
    }
    match x.sks {
        Some(SenseKeySpecific::Progress { raw }) => {
            let _ = writeln!(
                s,
                "  Progress indication: {:.2}%",
                f64::from(raw) * 100.0 / 65536.0
            );
        }
        Some(SenseKeySpecific::FieldPointer { cd, bit, field }) => {
            let _ = writeln!(
                s,
                "  Sense Key Specific: Error in {}: byte {field}{}",
                if cd { "Command" } else { "Data parameters" },
                bit.map(|b| format!(" bit {b}")).unwrap_or_default()
            );
        }
        Some(SenseKeySpecific::RetryCount { count }) => {
            let _ = writeln!(s, "  Actual retry count: {count}");
        }
        Some(SenseKeySpecific::Raw { bytes }) => {
            let _ = writeln!(
                s,
                "  Sense key specific: 0x{:02x}{:02x}{:02x}",
                bytes[0], bytes[1], bytes[2]
            );
        }
        None => {}
    }
    if x.fru != 0 {
        let _ = writeln!(s, "  Field replaceable unit code: {}", x.fru);
    }
    s
}

fn flags(pairs: &[(&str, bool)]) -> String {
    pairs
        .iter()
        .map(|(n, v)| format!("{n}={}", b(*v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Mode parameters: header, block descriptors, decoded pages (sdparm-like field names).
pub fn mode(m: &ModeParameters, pc_name: Option<&str>) -> String {
    let h = &m.header;
    let mut s = String::from("Mode parameter header:\n");
    let _ = writeln!(
        s,
        "  Mode data length={}, medium type=0x{:02x}, WP={}, DpoFua={}, longlba={}",
        h.mode_data_length,
        h.medium_type,
        b(h.wp),
        b(h.dpofua),
        b(h.longlba)
    );
    let _ = writeln!(s, "  Block descriptor length={}", h.block_descriptor_length);
    for d in &m.block_descriptors {
        let _ = writeln!(
            s,
            "> {} LBA block descriptor: number of blocks={}, block length={}",
            if d.long { "Long" } else { "Short" },
            d.number_of_blocks,
            d.block_length
        );
    }
    for p in &m.pages {
        let _ = write!(s, ">> {}", p.name);
        if let Some(pc) = pc_name {
            let _ = write!(s, ", page_control: {pc}");
        }
        let _ = writeln!(
            s,
            " [0x{:02x}{}] PS={}",
            p.page_code,
            if p.spf {
                format!(",0x{:02x}", p.subpage_code)
            } else {
                String::new()
            },
            b(p.ps)
        );
        let body = match &p.data {
            PageData::ReadWriteErrorRecovery(r) => format!(
                "{}\n  read retry count={} write retry count={} recovery time limit={} ms\n",
                flags(&[
                    ("AWRE", r.awre),
                    ("ARRE", r.arre),
                    ("TB", r.tb),
                    ("RC", r.rc),
                    ("EER", r.eer),
                    ("PER", r.per),
                    ("DTE", r.dte),
                    ("DCR", r.dcr),
                    ("LBPERE", r.lbpere),
                ]),
                r.read_retry_count,
                r.write_retry_count,
                r.recovery_time_limit_ms
            ),
            PageData::Caching(c) => format!(
                "{}\n  {}\n  number of cache segments={} cache segment size={}\n",
                flags(&[
                    ("IC", c.ic),
                    ("ABPF", c.abpf),
                    ("CAP", c.cap),
                    ("DISC", c.disc),
                    ("SIZE", c.size),
                    ("WCE", c.wce),
                    ("MF", c.mf),
                    ("RCD", c.rcd),
                ]),
                flags(&[
                    ("FSW", c.fsw),
                    ("LBCSS", c.lbcss),
                    ("DRA", c.dra),
                    ("NV_DIS", c.nv_dis)
                ]),
                c.number_of_cache_segments,
                c.cache_segment_size
            ),
            PageData::Control(c) => format!(
                "  TST={} {} QERR={}\n  {}\n  busy timeout period={} extended self-test completion time={} s\n",
                c.tst,
                flags(&[
                    ("TMF_ONLY", c.tmf_only),
                    ("DPICZ", c.dpicz),
                    ("D_SENSE", c.d_sense),
                    ("GLTSD", c.gltsd),
                    ("RLEC", c.rlec),
                ]),
                c.qerr,
                flags(&[
                    ("RAC", c.rac),
                    ("SWP", c.swp),
                    ("ATO", c.ato),
                    ("TAS", c.tas),
                    ("ATMPE", c.atmpe),
                    ("RWWP", c.rwwp),
                ]),
                c.busy_timeout_period,
                c.extended_self_test_completion_time
            ),
            PageData::SasPortControl(p) => format!(
                "  protocol identifier={} {}\n  I_T nexus loss time={} ms, initiator response timeout={} ms{}\n",
                p.protocol_identifier,
                flags(&[
                    ("CAWT", p.continue_awt),
                    ("BAE", p.broadcast_asynchronous_event),
                    ("RLM", p.ready_led_meaning),
                ]),
                p.i_t_nexus_loss_time_ms,
                p.initiator_response_timeout_ms,
                p.reject_to_open_limit
                    .map(|v| format!(", reject to open limit={v}"))
                    .unwrap_or_default()
            ),
            PageData::SasPhyControl(p) => {
                let mut t = format!(
                    "  protocol identifier={} generation code={} number of phys={}\n",
                    p.protocol_identifier, p.generation_code, p.number_of_phys
                );
                for phy in &p.phys {
                    let _ = writeln!(
                        t,
                        "  phy {}: SAS address={} attached SAS address={} attached phy={} \
                         negotiated link rate=0x{:x} attached device type={}",
                        phy.phy_identifier,
                        phy.sas_address,
                        phy.attached_sas_address,
                        phy.attached_phy_identifier,
                        phy.negotiated_logical_link_rate,
                        phy.attached_device_type
                    );
                }
                t
            }
            PageData::SasSharedPortControl(p) => format!(
                "  protocol identifier={} power loss timeout={} ms power grant timeout={} s\n",
                p.protocol_identifier, p.power_loss_timeout_ms, p.power_grant_timeout
            ),
            PageData::InformationalExceptions(i) => format!(
                "{}\n  MRIE={} interval timer={} report count={}\n",
                flags(&[
                    ("PERF", i.perf),
                    ("EBF", i.ebf),
                    ("EWASC", i.ewasc),
                    ("DEXCPT", i.dexcpt),
                    ("TEST", i.test),
                    ("EBACKERR", i.ebackerr),
                    ("LOGERR", i.logerr),
                ]),
                i.mrie,
                i.interval_timer,
                i.report_count
            ),
            PageData::Raw => crate::bytes::hexdump(&p.raw),
        };
        if !body.starts_with(' ') && !matches!(p.data, PageData::Raw) {
            s.push_str("  ");
        }
        s.push_str(&body);
    }
    s
}
