//! Mode pages decoded by sgctl (field names as in sdparm): 0x01 Read-Write Error Recovery
//! (SBC-4 7.5.9), 0x08 Caching (SBC-4 7.5.5), 0x0A Control (SPC-6 7.5.8), 0x19 SAS
//! Protocol-Specific Port (SPL-4 9.2.7: short format, subpage 0x01 Phy Control And Discover,
//! 0x02 Shared Port Control), 0x1C Informational Exceptions Control (SPC-6 7.5.12).
//! Every decoder reads through [`Bytes`]; a page too short for its fields is kept raw.

use crate::bytes::{Bytes, ParseResult};
use serde::Serialize;

/// A decoded mode page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PageData {
    /// 0x01 Read-Write Error Recovery (SBC-4 7.5.9).
    ReadWriteErrorRecovery(RwErrorRecovery),
    /// 0x08 Caching (SBC-4 7.5.5).
    Caching(Caching),
    /// 0x0A Control (SPC-6 7.5.8).
    Control(Control),
    /// 0x19/0x00 SAS Protocol-Specific Port, short format (SPL-4 9.2.7.2).
    SasPortControl(SasPortControl),
    /// 0x19/0x01 SAS Phy Control And Discover (SPL-4 9.2.7.3).
    SasPhyControl(SasPhyControl),
    /// 0x19/0x02 SAS Shared Port Control (SPL-4 9.2.7.4).
    SasSharedPortControl(SasSharedPortControl),
    /// 0x1C Informational Exceptions Control (SPC-6 7.5.12).
    InformationalExceptions(InformationalExceptions),
    /// Not decoded.
    Raw,
}

/// Name of a mode page as sdparm/sg3_utils call it.
pub fn page_name(page: u8, subpage: u8) -> &'static str {
    match (page, subpage) {
        (0x01, 0) => "Read write error recovery",
        (0x02, 0) => "Disconnect-reconnect",
        (0x03, 0) => "Format (obsolete)",
        (0x04, 0) => "Rigid disk geometry (obsolete)",
        (0x05, 0) => "Flexible disk (obsolete)",
        (0x07, 0) => "Verify error recovery",
        (0x08, 0) => "Caching",
        (0x0a, 0) => "Control",
        (0x0a, 0x01) => "Control extension",
        (0x0a, 0x02) => "Application tag",
        (0x0a, 0x03) => "Command duration limit A",
        (0x0a, 0x04) => "Command duration limit B",
        (0x0a, 0x05) => "IO advice hints grouping",
        (0x0a, 0x06) => "Background operation control",
        (0x0a, 0xf1) => "PATA control",
        (0x0a, 0xf2) => "ATA feature control",
        (0x18, _) => "Protocol specific logical unit",
        (0x19, 0) => "Protocol specific port",
        (0x19, 0x01) => "SAS phy control and discover",
        (0x19, 0x02) => "SAS shared port control",
        (0x19, 0x03) => "SAS enhanced phy control",
        (0x1a, 0) => "Power condition",
        (0x1a, 0x01) => "Power consumption",
        (0x1c, 0) => "Informational exceptions control",
        (0x1c, 0x01) => "Background control",
        (0x1c, 0x02) => "Logical block provisioning",
        (0x00, _) => "Vendor specific (unit attention)",
        (0x20..=0x3e, _) => "Vendor specific",
        _ => "Unknown",
    }
}

/// Decodes the known pages; `Err` (short page) falls back to [`PageData::Raw`].
pub(super) fn decode_page(page: u8, sub: u8, spf: bool, b: &Bytes<'_>) -> ParseResult<PageData> {
    Ok(match (page, sub, spf) {
        (0x01, 0, false) => PageData::ReadWriteErrorRecovery(RwErrorRecovery::parse(b)?),
        (0x08, 0, false) => PageData::Caching(Caching::parse(b)?),
        (0x0a, 0, false) => PageData::Control(Control::parse(b)?),
        (0x19, 0, false) => PageData::SasPortControl(SasPortControl::parse(b)?),
        (0x19, 0x01, true) => PageData::SasPhyControl(SasPhyControl::parse(b)?),
        (0x19, 0x02, true) => PageData::SasSharedPortControl(SasSharedPortControl::parse(b)?),
        (0x1c, 0, false) => PageData::InformationalExceptions(InformationalExceptions::parse(b)?),
        _ => PageData::Raw,
    })
}

fn bit(v: u8, n: u8) -> bool {
    v >> n & 1 != 0
}

/// SBC-4 7.5.9 Read-Write Error Recovery mode page (0x01), names as in sdparm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RwErrorRecovery {
    /// Byte 2 bit 7 automatic write reallocation enabled.
    pub awre: bool,
    /// Byte 2 bit 6 automatic read reallocation enabled.
    pub arre: bool,
    /// Byte 2 bit 5 transfer block.
    pub tb: bool,
    /// Byte 2 bit 4 read continuous.
    pub rc: bool,
    /// Byte 2 bit 3 enable early recovery.
    pub eer: bool,
    /// Byte 2 bit 2 post error.
    pub per: bool,
    /// Byte 2 bit 1 data terminate on error.
    pub dte: bool,
    /// Byte 2 bit 0 disable correction.
    pub dcr: bool,
    /// Byte 3 read retry count.
    pub read_retry_count: u8,
    /// Byte 7 bit 7 logical block provisioning error reporting enabled.
    pub lbpere: bool,
    /// Byte 8 write retry count.
    pub write_retry_count: u8,
    /// Bytes 10–11 recovery time limit (ms).
    pub recovery_time_limit_ms: u16,
}

impl RwErrorRecovery {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        Ok(RwErrorRecovery {
            awre: bit(f, 7),
            arre: bit(f, 6),
            tb: bit(f, 5),
            rc: bit(f, 4),
            eer: bit(f, 3),
            per: bit(f, 2),
            dte: bit(f, 1),
            dcr: bit(f, 0),
            read_retry_count: b.u8(3)?,
            lbpere: bit(b.u8(7)?, 7),
            write_retry_count: b.u8(8)?,
            recovery_time_limit_ms: b.be16(10)?,
        })
    }
}

/// SBC-4 7.5.5 Caching mode page (0x08).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Caching {
    /// Byte 2 bit 7 initiator control.
    pub ic: bool,
    /// Byte 2 bit 6 abort pre-fetch.
    pub abpf: bool,
    /// Byte 2 bit 5 caching analysis permitted.
    pub cap: bool,
    /// Byte 2 bit 4 discontinuity.
    pub disc: bool,
    /// Byte 2 bit 3 size enable.
    pub size: bool,
    /// Byte 2 bit 2 write cache enable.
    pub wce: bool,
    /// Byte 2 bit 1 multiplication factor.
    pub mf: bool,
    /// Byte 2 bit 0 read cache disable.
    pub rcd: bool,
    /// Byte 3 bits 7-4.
    pub demand_read_retention_priority: u8,
    /// Byte 3 bits 3-0.
    pub write_retention_priority: u8,
    /// Bytes 4–5.
    pub disable_prefetch_transfer_length: u16,
    /// Bytes 6–7.
    pub minimum_prefetch: u16,
    /// Bytes 8–9.
    pub maximum_prefetch: u16,
    /// Bytes 10–11.
    pub maximum_prefetch_ceiling: u16,
    /// Byte 12 bit 7 force sequential write.
    pub fsw: bool,
    /// Byte 12 bit 6 logical block cache segment size.
    pub lbcss: bool,
    /// Byte 12 bit 5 disable read-ahead.
    pub dra: bool,
    /// Byte 12 bit 0 non-volatile cache disabled.
    pub nv_dis: bool,
    /// Byte 13.
    pub number_of_cache_segments: u8,
    /// Bytes 14–15.
    pub cache_segment_size: u16,
}

impl Caching {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        let r = b.u8(3)?;
        let g = b.u8(12)?;
        Ok(Caching {
            ic: bit(f, 7),
            abpf: bit(f, 6),
            cap: bit(f, 5),
            disc: bit(f, 4),
            size: bit(f, 3),
            wce: bit(f, 2),
            mf: bit(f, 1),
            rcd: bit(f, 0),
            demand_read_retention_priority: r >> 4,
            write_retention_priority: r & 0x0f,
            disable_prefetch_transfer_length: b.be16(4)?,
            minimum_prefetch: b.be16(6)?,
            maximum_prefetch: b.be16(8)?,
            maximum_prefetch_ceiling: b.be16(10)?,
            fsw: bit(g, 7),
            lbcss: bit(g, 6),
            dra: bit(g, 5),
            nv_dis: bit(g, 0),
            number_of_cache_segments: b.u8(13)?,
            cache_segment_size: b.be16(14)?,
        })
    }
}

/// SPC-6 7.5.8 Control mode page (0x0A).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Control {
    /// Byte 2 bits 7-5 task set type.
    pub tst: u8,
    /// Byte 2 bit 4.
    pub tmf_only: bool,
    /// Byte 2 bit 3 DPICZ.
    pub dpicz: bool,
    /// Byte 2 bit 2 D_SENSE: descriptor format sense data.
    pub d_sense: bool,
    /// Byte 2 bit 1 global logging target save disable.
    pub gltsd: bool,
    /// Byte 2 bit 0 report log exception condition.
    pub rlec: bool,
    /// Byte 3 bits 7-4 queue algorithm modifier.
    pub queue_algorithm_modifier: u8,
    /// Byte 3 bit 3.
    pub nuar: bool,
    /// Byte 3 bits 2-1 queue error management.
    pub qerr: u8,
    /// Byte 4 bit 6 report a check.
    pub rac: bool,
    /// Byte 4 bits 5-4 unit attention interlocks control.
    pub ua_intlck_ctrl: u8,
    /// Byte 4 bit 3 software write protect.
    pub swp: bool,
    /// Byte 5 bit 7 application tag owner.
    pub ato: bool,
    /// Byte 5 bit 6 task aborted status.
    pub tas: bool,
    /// Byte 5 bit 5 application tag mode page enabled.
    pub atmpe: bool,
    /// Byte 5 bit 4 reject write without protection.
    pub rwwp: bool,
    /// Byte 5 bits 2-0 autoload mode.
    pub autoload_mode: u8,
    /// Bytes 8–9 busy timeout period (100 ms units).
    pub busy_timeout_period: u16,
    /// Bytes 10–11 extended self-test completion time (seconds).
    pub extended_self_test_completion_time: u16,
}

impl Control {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let (b2, b3, b4, b5) = (b.u8(2)?, b.u8(3)?, b.u8(4)?, b.u8(5)?);
        Ok(Control {
            tst: b2 >> 5,
            tmf_only: bit(b2, 4),
            dpicz: bit(b2, 3),
            d_sense: bit(b2, 2),
            gltsd: bit(b2, 1),
            rlec: bit(b2, 0),
            queue_algorithm_modifier: b3 >> 4,
            nuar: bit(b3, 3),
            qerr: (b3 >> 1) & 0x03,
            rac: bit(b4, 6),
            ua_intlck_ctrl: (b4 >> 4) & 0x03,
            swp: bit(b4, 3),
            ato: bit(b5, 7),
            tas: bit(b5, 6),
            atmpe: bit(b5, 5),
            rwwp: bit(b5, 4),
            autoload_mode: b5 & 0x07,
            busy_timeout_period: b.be16(8)?,
            extended_self_test_completion_time: b.be16(10)?,
        })
    }
}

/// SPL-4 9.2.7.2 Protocol-Specific Port mode page, short format (0x19, SAS).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPortControl {
    /// Byte 2 bit 6 CONTINUE AWT.
    pub continue_awt: bool,
    /// Byte 2 bit 5 BROADCAST ASYNCHRONOUS EVENT.
    pub broadcast_asynchronous_event: bool,
    /// Byte 2 bit 4 READY LED MEANING.
    pub ready_led_meaning: bool,
    /// Byte 2 bits 3-0 protocol identifier (6 = SAS).
    pub protocol_identifier: u8,
    /// Bytes 4–5 I_T NEXUS LOSS TIME (ms; 0xFFFF = forever).
    pub i_t_nexus_loss_time_ms: u16,
    /// Bytes 6–7 INITIATOR RESPONSE TIMEOUT (ms).
    pub initiator_response_timeout_ms: u16,
    /// Bytes 8–9 REJECT TO OPEN LIMIT (10 µs units), when present.
    pub reject_to_open_limit: Option<u16>,
}

impl SasPortControl {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        let plen = usize::from(b.u8(1)?);
        Ok(SasPortControl {
            continue_awt: bit(f, 6),
            broadcast_asynchronous_event: bit(f, 5),
            ready_led_meaning: bit(f, 4),
            protocol_identifier: f & 0x0f,
            i_t_nexus_loss_time_ms: b.be16(4)?,
            initiator_response_timeout_ms: b.be16(6)?,
            reject_to_open_limit: if plen >= 8 { b.be16(8).ok() } else { None },
        })
    }
}

/// One phy mode descriptor of the Phy Control And Discover subpage (SPL-4 Table 203).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPhy {
    /// Byte 1 phy identifier.
    pub phy_identifier: u8,
    /// Byte 4 bits 6-4 (0 none, 1 end device, 2 expander, 3 fanout expander).
    pub attached_device_type: u8,
    /// Byte 4 bits 3-0 attached reason.
    pub attached_reason: u8,
    /// Byte 5 bits 7-4 reason.
    pub reason: u8,
    /// Byte 5 bits 3-0 negotiated logical link rate (0x8 1.5, 0x9 3, 0xa 6, 0xb 12, 0xc 22.5 Gbit/s).
    pub negotiated_logical_link_rate: u8,
    /// Byte 6 attached initiator port bits (SSP bit 3, STP bit 2, SMP bit 1).
    pub attached_initiator_ports: u8,
    /// Byte 7 attached target port bits.
    pub attached_target_ports: u8,
    /// Bytes 8–15 this phy's SAS address.
    pub sas_address: String,
    /// Bytes 16–23 attached SAS address.
    pub attached_sas_address: String,
    /// Byte 24 attached phy identifier.
    pub attached_phy_identifier: u8,
    /// Byte 32 bits 7-4 programmed minimum physical link rate.
    pub programmed_min_link_rate: u8,
    /// Byte 32 bits 3-0 hardware minimum physical link rate.
    pub hardware_min_link_rate: u8,
    /// Byte 33 bits 7-4 programmed maximum physical link rate.
    pub programmed_max_link_rate: u8,
    /// Byte 33 bits 3-0 hardware maximum physical link rate.
    pub hardware_max_link_rate: u8,
}

/// SPL-4 9.2.7.3 Phy Control And Discover mode subpage (0x19/0x01).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasPhyControl {
    /// Byte 5 bits 3-0 protocol identifier (6 = SAS).
    pub protocol_identifier: u8,
    /// Byte 6 generation code.
    pub generation_code: u8,
    /// Byte 7 number of phys.
    pub number_of_phys: u8,
    /// Phy mode descriptors (48 bytes each from byte 8).
    pub phys: Vec<SasPhy>,
}

impl SasPhyControl {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let n = b.u8(7)?;
        let mut phys = Vec::new();
        for i in 0..usize::from(n) {
            let d = b.sub(8 + i * 48, 48)?;
            phys.push(SasPhy {
                phy_identifier: d.u8(1)?,
                attached_device_type: (d.u8(4)? >> 4) & 0x07,
                attached_reason: d.u8(4)? & 0x0f,
                reason: d.u8(5)? >> 4,
                negotiated_logical_link_rate: d.u8(5)? & 0x0f,
                attached_initiator_ports: d.u8(6)?,
                attached_target_ports: d.u8(7)?,
                sas_address: format!("0x{:016x}", d.be64(8)?),
                attached_sas_address: format!("0x{:016x}", d.be64(16)?),
                attached_phy_identifier: d.u8(24)?,
                programmed_min_link_rate: d.u8(32)? >> 4,
                hardware_min_link_rate: d.u8(32)? & 0x0f,
                programmed_max_link_rate: d.u8(33)? >> 4,
                hardware_max_link_rate: d.u8(33)? & 0x0f,
            });
        }
        Ok(SasPhyControl {
            protocol_identifier: b.u8(5)? & 0x0f,
            generation_code: b.u8(6)?,
            number_of_phys: n,
            phys,
        })
    }
}

/// SPL-4 9.2.7.4 Shared Port Control mode subpage (0x19/0x02).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SasSharedPortControl {
    /// Byte 5 bits 3-0 protocol identifier.
    pub protocol_identifier: u8,
    /// Bytes 6–7 POWER LOSS TIMEOUT (ms).
    pub power_loss_timeout_ms: u16,
    /// Byte 9 POWER GRANT TIMEOUT (seconds), SPL-3 and later.
    pub power_grant_timeout: u8,
}

impl SasSharedPortControl {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        Ok(SasSharedPortControl {
            protocol_identifier: b.u8(5)? & 0x0f,
            power_loss_timeout_ms: b.be16(6)?,
            power_grant_timeout: b.u8(9)?,
        })
    }
}

/// SPC-6 7.5.12 Informational Exceptions Control mode page (0x1C).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InformationalExceptions {
    /// Byte 2 bit 7 performance.
    pub perf: bool,
    /// Byte 2 bit 5 enable background function.
    pub ebf: bool,
    /// Byte 2 bit 4 enable warning.
    pub ewasc: bool,
    /// Byte 2 bit 3 disable exception control (1 = failure prediction reporting off).
    pub dexcpt: bool,
    /// Byte 2 bit 2 test (report a false 5D/FF).
    pub test: bool,
    /// Byte 2 bit 1 enable background error.
    pub ebackerr: bool,
    /// Byte 2 bit 0 log errors.
    pub logerr: bool,
    /// Byte 3 bits 3-0 method of reporting informational exceptions.
    pub mrie: u8,
    /// Bytes 4–7 interval timer (100 ms units).
    pub interval_timer: u32,
    /// Bytes 8–11 report count.
    pub report_count: u32,
}

impl InformationalExceptions {
    fn parse(b: &Bytes<'_>) -> ParseResult<Self> {
        let f = b.u8(2)?;
        Ok(InformationalExceptions {
            perf: bit(f, 7),
            ebf: bit(f, 5),
            ewasc: bit(f, 4),
            dexcpt: bit(f, 3),
            test: bit(f, 2),
            ebackerr: bit(f, 1),
            logerr: bit(f, 0),
            mrie: b.u8(3)? & 0x0f,
            interval_timer: b.be32(4)?,
            report_count: b.be32(8)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(raw: &[u8]) -> PageData {
        let b = Bytes::new(raw, "t");
        decode_page(raw[0] & 0x3f, 0, false, &b).unwrap()
    }

    #[test]
    fn ie_and_control_bits() {
        // SPC-6 Table 463: byte 2 PERF|EWASC|DEXCPT|TEST|LOGERR, byte 3 MRIE=4, interval 600,
        // report count 1 (what smartctl sets to enable SMART with MRIE 4).
        let ie = decode(&[0x1c, 0x0a, 0x9d, 0x04, 0, 0, 0x02, 0x58, 0, 0, 0, 1]);
        let PageData::InformationalExceptions(i) = ie else {
            panic!("{ie:?}")
        };
        assert!(i.perf && i.ewasc && i.dexcpt && i.test && i.logerr && !i.ebf);
        assert_eq!((i.mrie, i.interval_timer, i.report_count), (4, 600, 1));
        // SPC-6 Table 454: D_SENSE is byte 2 bit 2; QERR byte 3 bits 2-1; busy timeout 8-9.
        let c = decode(&[0x0a, 0x0a, 0x04, 0x02, 0, 0, 0, 0, 0xff, 0xff, 0, 30]);
        let PageData::Control(c) = c else { panic!() };
        assert!(c.d_sense);
        assert_eq!(c.qerr, 1);
        assert_eq!(c.busy_timeout_period, 0xffff);
        assert_eq!(c.extended_self_test_completion_time, 30);
        // A page shorter than its fields is an error (kept raw by the caller).
        let b = Bytes::new(&[0x1c, 0x02, 0, 0], "t");
        assert!(decode_page(0x1c, 0, false, &b).is_err());
    }
}
