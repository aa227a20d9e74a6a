//! SPC-5 6.8/6.9 LOG SENSE and LOG SELECT with the pages of protocols.md §E.3. Offsets in the
//! comments are within each log parameter (bytes 0-1 PARAMETER CODE, 2 control byte,
//! 3 PARAMETER LENGTH, value from byte 4) unless stated.

use super::{alloc, CmdCtx};
use crate::sim::drive::{Drive, ErrorCounters};
use crate::sim::profile::Profile;
use crate::sim::sense::SimSense;

/// Control byte FORMAT AND LINKING 10b: bounded/unbounded data counter.
const COUNTER: u8 = 0x02;
/// Control byte FORMAT AND LINKING 11b: binary format list.
const BINARY: u8 = 0x03;
/// Control byte FORMAT AND LINKING 01b: ASCII format list.
const ASCII: u8 = 0x01;

/// Log pages (subpage 0) the profile supports, ascending.
pub(crate) fn log_pages(p: &Profile) -> Vec<u8> {
    if p.sata {
        // SAT-4 10.3: supported pages, self-test results, informational exceptions, plus
        // temperature and solid state media from the ATA device statistics.
        vec![0x00, 0x0D, 0x10, 0x11, 0x2F]
    } else {
        vec![
            0x00, 0x02, 0x03, 0x05, 0x06, 0x08, 0x0D, 0x0E, 0x10, 0x11, 0x15, 0x18, 0x19, 0x2F,
        ]
    }
}

fn param(code: u16, control: u8, value: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(4 + value.len());
    v.extend_from_slice(&code.to_be_bytes());
    v.push(control);
    v.push(value.len() as u8);
    v.extend_from_slice(value);
    v
}

fn u64p(code: u16, control: u8, value: u64) -> Vec<u8> {
    param(code, control, &value.to_be_bytes())
}

/// PAGE CONTROL (LOG SENSE byte 2 bits 7-6, SPC-5 6.8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageControl {
    /// 00b current threshold values and 10b default threshold values: this drive's
    /// thresholds are fixed, so both are the same.
    Threshold,
    /// 01b current cumulative values.
    Cumulative,
    /// 11b default cumulative values: what LOG SELECT PCR=1 resets the counters to.
    DefaultCumulative,
}

impl PageControl {
    fn from_pc(pc: u8) -> PageControl {
        match pc {
            1 => PageControl::Cumulative,
            3 => PageControl::DefaultCumulative,
            _ => PageControl::Threshold,
        }
    }
}

/// The parameters of a page as (code, bytes) in ascending code order.
///
/// Threshold values are the levels at which the drive itself acts: the temperature at which
/// it raises the informational exception 0B/01 (the reference temperature), 100 %
/// endurance used (5D/73). Counters have no threshold (comparison not enabled, value 0),
/// and list parameters (dates, the self-test log, port data) report their values whatever
/// the page control.
fn page_params(p: &Profile, d: &Drive, page: u8, pc: PageControl) -> Vec<(u16, Vec<u8>)> {
    let cumulative = pc == PageControl::Cumulative;
    let threshold = pc == PageControl::Threshold;
    let c = |v: u64| if cumulative { v } else { 0 };
    let ms = |ns: u64| ns / 1_000_000;
    match page {
        // SPC-5 7.3.{8,17,22}: write/read/verify error counters, 0000-0006, 8-byte values.
        0x02 | 0x03 | 0x05 => {
            let e = match page {
                0x02 => &d.write_errors,
                0x03 => &d.read_errors,
                _ => &d.verify_errors,
            };
            // ECC corrections on reads: about one per 128 MiB read, corrected on the fly.
            let ecc = if page == 0x03 { e.bytes >> 27 } else { 0 };
            let vals = [
                e.corrected_fast + ecc,
                e.corrected_delayed,
                e.retries,
                e.corrected_total + ecc,
                e.algorithm_processed + ecc,
                e.bytes,
                e.uncorrected,
            ];
            vals.iter()
                .enumerate()
                .map(|(i, &v)| (i as u16, u64p(i as u16, COUNTER, c(v))))
                .collect()
        }
        // SPC-5 7.3.14: 0000 NON-MEDIUM ERROR COUNT.
        0x06 => vec![(0, u64p(0, COUNTER, c(d.stats.non_medium_errors)))],
        // SPC-5 7.3.21: 0000 temperature (byte 5), 0001 reference temperature (byte 5).
        // Threshold: the temperature parameter's threshold is the trip temperature.
        0x0D => vec![
            (
                0,
                param(
                    0,
                    BINARY,
                    &[
                        0,
                        if threshold {
                            p.trip_temp_c
                        } else {
                            d.temperature(p)
                        },
                    ],
                ),
            ),
            (1, param(1, BINARY, &[0, p.trip_temp_c])),
        ],
        // SPC-5 7.3.20: 0001 date of manufacture "YYYYWW", 0002 accounting date, 0003
        // specified cycle count over lifetime, 0004 accumulated start-stop cycles.
        0x0E => {
            let mut date = p.manufactured.0.as_bytes().to_vec();
            date.extend_from_slice(p.manufactured.1.as_bytes());
            vec![
                (1, param(1, ASCII, &date)),
                (2, param(2, ASCII, b"      ")),
                (3, param(3, BINARY, &50_000u32.to_be_bytes())),
                (
                    4,
                    param(4, BINARY, &(d.stats.start_stop_cycles as u32).to_be_bytes()),
                ),
            ]
        }
        // SPC-5 7.3.19: 20 self-test result parameters 0001-0014, 0x10 bytes each, most
        // recent first; a running self-test is the first entry with result 0xF.
        0x10 => {
            let mut entries: Vec<crate::sim::drive::SelfTestResult> = Vec::new();
            if let Some(t) = d.self_test {
                entries.push(crate::sim::drive::SelfTestResult {
                    code: t.code,
                    result: 0x0F,
                    hours: (d.now_ns / 3_600_000_000_000).min(0xFFFF) as u16,
                    lba: u64::MAX,
                    sense: (0, 0, 0),
                });
            }
            entries.extend(d.self_tests.iter().copied());
            (1..=20u16)
                .map(|code| {
                    let mut v = [0u8; 16];
                    if let Some(t) = entries.get(usize::from(code - 1)) {
                        v[0] = (t.code << 5) | (t.result & 0x0F);
                        v[1] = 0; // self-test number
                        v[2..4].copy_from_slice(&t.hours.to_be_bytes());
                        v[4..12].copy_from_slice(&t.lba.to_be_bytes());
                        v[12] = t.sense.0 & 0x0F;
                        v[13] = t.sense.1;
                        v[14] = t.sense.2;
                    }
                    (code, param(code, BINARY, &v))
                })
                .collect()
        }
        // SBC-4 6.4.5 Format Status: 0000 the last FORMAT UNIT parameter list, 0001 grown
        // defects during certification, 0002 blocks reassigned during format, 0003 new blocks
        // reassigned, 0004 power-on minutes since format; all-FF while no format happened.
        0x08 => {
            let (fdo, counters, since) = match (&d.last_format, d.last_format_ns) {
                (Some(pl), Some(t)) => {
                    let m = d.now_ns.saturating_sub(t) / 60_000_000_000;
                    (pl.clone(), 0u32, (m.min(u64::from(u32::MAX - 1))) as u32)
                }
                _ => (vec![0xFF; 4], u32::MAX, u32::MAX),
            };
            let fdo = if fdo.is_empty() { vec![0u8; 4] } else { fdo };
            vec![
                (0, param(0, BINARY, &fdo)),
                (1, param(1, COUNTER, &counters.to_be_bytes())),
                (2, param(2, COUNTER, &counters.to_be_bytes())),
                (3, param(3, COUNTER, &counters.to_be_bytes())),
                (4, param(4, COUNTER, &since.to_be_bytes())),
            ]
        }
        // SBC-4 6.4.12: 0001 PERCENTAGE USED ENDURANCE INDICATOR at byte 7.
        // Threshold: 100 % (the drive reports 5D/73 from there on).
        0x11 => {
            let v = if threshold { 100 } else { d.endurance_used(p) };
            vec![(1, param(1, BINARY, &[0, 0, 0, v]))]
        }
        // SBC-4 6.4.2: 0000 status: 4-7 power-on minutes, 9 BMS status, 10-11 scans
        // performed, 12-13 progress, 14-15 medium scans performed; 0001.. one 20-byte entry
        // per LBA found bad: 4-7 minutes, 8 reassign status/sense key, 9 ASC, 10 ASCQ,
        // 16-23 LBA.
        0x15 => {
            let minutes = d.power_on_minutes();
            let scans = (minutes / (24 * 60)).min(0xFFFF) as u16;
            let mut st = vec![0u8; 12];
            st[0..4].copy_from_slice(&(minutes.min(u64::from(u32::MAX)) as u32).to_be_bytes());
            st[5] = if scans > 0 { 0x08 } else { 0x00 }; // waiting for the interval timer
            st[6..8].copy_from_slice(&scans.to_be_bytes());
            st[10..12].copy_from_slice(&scans.to_be_bytes());
            let mut v = vec![(0u16, param(0, BINARY, &st))];
            for (i, lba) in d.faults.medium_errors.iter().take(0x800).enumerate() {
                let code = i as u16 + 1;
                let mut e = vec![0u8; 20];
                e[0..4].copy_from_slice(&(minutes.min(u64::from(u32::MAX)) as u32).to_be_bytes());
                e[4] = 0x10 | 0x03; // reassign status 1, MEDIUM ERROR
                e[5] = 0x11; // UNRECOVERED READ ERROR
                e[12..20].copy_from_slice(&lba.to_be_bytes());
                v.push((code, param(code, BINARY, &e)));
            }
            v
        }
        0x18 => sas_ports(p, d),
        // SPC-5 7.3.11: 0001 general access statistics, 0002 idle time, 0003 time interval
        // (1 ms), 0004 FUA statistics.
        0x19 => {
            let busy = d.stats.read_busy_ns + d.stats.write_busy_ns;
            let mut g = Vec::with_capacity(64);
            for v in [
                d.stats.read_cmds,
                d.stats.write_cmds,
                d.stats.blocks_written,
                d.stats.blocks_read,
                ms(d.stats.read_busy_ns),
                ms(d.stats.write_busy_ns),
                d.stats.read_cmds + d.stats.write_cmds,
                ms(busy),
            ] {
                g.extend_from_slice(&c(v).to_be_bytes());
            }
            let mut ti = vec![0u8; 8];
            ti[0..4].copy_from_slice(&3u32.to_be_bytes()); // 10^-3 s
            ti[4..8].copy_from_slice(&1u32.to_be_bytes());
            vec![
                (1, param(1, BINARY, &g)),
                (2, u64p(2, BINARY, c(ms(d.now_ns.saturating_sub(busy))))),
                (3, param(3, BINARY, &ti)),
                (4, param(4, BINARY, &[0u8; 64])),
            ]
        }
        // SPC-5 7.3.13: 0000: 4 IE ASC, 5 IE ASCQ, 6 most recent temperature, 7 trip
        // temperature (vendor extension used by HGST/IBM/Toshiba).
        // Threshold: no condition, the temperature at which one is raised.
        _ => {
            let t = d.temperature(p);
            let (asc, ascq) = if threshold {
                (0, 0)
            } else {
                d.ie_condition(p).unwrap_or((0, 0))
            };
            let t = if threshold { p.trip_temp_c } else { t };
            vec![(0, param(0, BINARY, &[asc, ascq, t, p.trip_temp_c]))]
        }
    }
}

/// SPL-4 9.2.8.2 Protocol-Specific Port log page for SAS: one parameter per target port
/// (code = relative target port identifier), one phy each (protocols.md §E.3 0x18).
fn sas_ports(p: &Profile, d: &Drive) -> Vec<(u16, Vec<u8>)> {
    (1..=p.ports.clamp(1, 2))
        .map(|port| {
            let mut v = vec![0x06, 0, 1, 1]; // protocol SAS, generation code 1, 1 phy
            let mut phy = vec![0u8; 52];
            phy[1] = (port - 1) as u8; // phy identifier
            phy[3] = 48; // SAS phy log descriptor length (n-3)
            phy[4] = 0x20; // attached device type 2: expander
            phy[5] = p.link_rate & 0x0F; // negotiated logical link rate
            phy[6] = 0x0E; // attached initiator port: SSP, STP, SMP
            phy[8..16].copy_from_slice(&d.port_sas[usize::from(port - 1)].to_be_bytes());
            let attached = 0x5000_0000_0000_0000u64 | u64::from(port) << 8 | 0x3F;
            phy[16..24].copy_from_slice(&attached.to_be_bytes());
            phy[24] = 8 + port as u8; // attached phy identifier
                                      // 32-47: invalid dword, running disparity, loss of dword sync, phy reset
                                      // problem counts (0). 50: phy event descriptor length, 51: count.
            phy[50] = 12;
            phy[51] = 0;
            v.extend_from_slice(&phy);
            (port, param(port, BINARY, &v))
        })
        .collect()
}

/// LOG SENSE: byte 1 bit 0 SP; 2 PC (7-6) + PAGE CODE; 3 SUBPAGE CODE; 5-6 PARAMETER
/// POINTER; 7-8 ALLOCATION LENGTH.
pub fn log_sense(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    if ctx.cdb[1] & 0x01 != 0 {
        return Err(SimSense::invalid_cdb(1, Some(0))); // saving log parameters unsupported
    }
    let pc = ctx.cdb[2] >> 6;
    let page = ctx.cdb[2] & 0x3F;
    let subpage = ctx.cdb[3];
    let pointer = ctx.be(5, 2) as u16;
    let alloc_len = ctx.be(7, 2);
    let p = ctx.sh.profile;
    let d = &ctx.sh.d;
    let pages = log_pages(p);
    if !pages.contains(&page) {
        return Err(SimSense::invalid_cdb(2, Some(5)));
    }
    let mut hdr = vec![page, subpage, 0, 0];
    let body = match (page, subpage) {
        (0x00, 0x00) | (0x00, 0xFF) | (_, 0xFF) => {
            if pointer != 0 {
                return Err(SimSense::invalid_cdb(5, None));
            }
            if subpage == 0 {
                pages.clone()
            } else {
                hdr[0] |= 0x40; // SPF
                let mut v = Vec::new();
                if page == 0 {
                    v.extend_from_slice(&[0x00, 0x00, 0x00, 0xFF]);
                    for &pg in pages.iter().filter(|&&x| x != 0) {
                        v.extend_from_slice(&[pg, 0x00]);
                    }
                } else {
                    v.extend_from_slice(&[page, 0x00, page, 0xFF]);
                }
                v
            }
        }
        (_, 0x00) => {
            let params = page_params(p, d, page, PageControl::from_pc(pc));
            let last = params.last().map(|(c, _)| *c).unwrap_or(0);
            if pointer > last {
                return Err(SimSense::invalid_cdb(5, None));
            }
            params
                .into_iter()
                .filter(|(c, _)| *c >= pointer)
                .flat_map(|(_, b)| b)
                .collect()
        }
        _ => return Err(SimSense::invalid_cdb(3, None)),
    };
    hdr[2..4].copy_from_slice(&(body.len().min(0xFFFF) as u16).to_be_bytes());
    hdr.extend_from_slice(&body);
    Ok(alloc(hdr, alloc_len))
}

/// Pages whose parameters LOG SELECT resets or sets: the error counters.
fn counters(d: &mut Drive, page: u8) -> Option<&mut ErrorCounters> {
    match page {
        0x02 => Some(&mut d.write_errors),
        0x03 => Some(&mut d.read_errors),
        0x05 => Some(&mut d.verify_errors),
        _ => None,
    }
}

/// LOG SELECT: byte 1 PCR (bit 1), SP (bit 0); 2 PC + PAGE CODE; 3 SUBPAGE CODE; 7-8
/// PARAMETER LIST LENGTH. PCR=1 (or an empty list) resets the cumulative counters of the page
/// (all pages when page and subpage are 0): error counters and the non-medium error count.
/// A parameter list may set error-counter values.
pub fn log_select(ctx: &mut CmdCtx<'_>) -> Result<Vec<u8>, SimSense> {
    let pcr = ctx.cdb[1] & 0x02 != 0;
    if ctx.cdb[1] & 0x01 != 0 {
        return Err(SimSense::invalid_cdb(1, Some(0)));
    }
    let page = ctx.cdb[2] & 0x3F;
    let subpage = ctx.cdb[3];
    let len = ctx.be(7, 2) as usize;
    let p = ctx.sh.profile;
    if page != 0 && !log_pages(p).contains(&page) {
        return Err(SimSense::invalid_cdb(2, Some(5)));
    }
    if subpage != 0 {
        return Err(SimSense::invalid_cdb(3, None));
    }
    if pcr && len != 0 {
        return Err(SimSense::invalid_cdb(7, None));
    }
    let d = &mut ctx.sh.d;
    if len == 0 {
        for pg in [0x02u8, 0x03, 0x05, 0x06] {
            if page == 0 || page == pg {
                if let Some(e) = counters(d, pg) {
                    *e = ErrorCounters::default();
                }
                if pg == 0x06 {
                    d.stats.non_medium_errors = 0;
                }
            }
        }
        let other = if ctx.port == 1 { 2 } else { 1 };
        d.add_ua(other, 0x2A, 0x02); // LOG PARAMETERS CHANGED
        return Ok(Vec::new());
    }
    if ctx.short_data_out(len) {
        ctx.host_status = 0x07;
        return Ok(Vec::new());
    }
    let pl = ctx.param_list(len);
    let d = &mut ctx.sh.d;
    if len < 4 {
        return Err(SimSense::param_list_length(7));
    }
    if pl[0] & 0x3F != page || pl[1] != subpage {
        return Err(SimSense::invalid_param(0, Some(5)));
    }
    let plen = super::be(&pl, 2, 2) as usize;
    if plen + 4 != len {
        return Err(SimSense::param_list_length(7));
    }
    let Some(_) = counters(d, page) else {
        return Err(SimSense::invalid_param(4, None)); // no settable parameters on this page
    };
    let mut off = 4;
    let mut updates = Vec::new();
    while off < len {
        if off + 4 > len {
            return Err(SimSense::param_list_length(7));
        }
        let code = super::be(&pl, off, 2);
        let n = usize::from(pl[off + 3]);
        if off + 4 + n > len {
            return Err(SimSense::invalid_param((off + 3) as u16, None));
        }
        if code > 6 || n == 0 || n > 8 {
            return Err(SimSense::invalid_param(off as u16, None));
        }
        updates.push((code, super::be(&pl, off + 4, n)));
        off += 4 + n;
    }
    if let Some(e) = counters(d, page) {
        for (code, v) in updates {
            match code {
                0 => e.corrected_fast = v,
                1 => e.corrected_delayed = v,
                2 => e.retries = v,
                3 => e.corrected_total = v,
                4 => e.algorithm_processed = v,
                5 => e.bytes = v,
                _ => e.uncorrected = v,
            }
        }
    }
    Ok(Vec::new())
}
