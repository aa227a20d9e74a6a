//! Named mode page fields for reading and changing one field at a time, in the manner of
//! sdparm (`sdparm --get=WCE`, `sdparm --set=WCE=1 --page=ca`): each field is a page, a byte
//! offset from the start of the page (its header included), the most significant bit and the
//! width in bits. Page abbreviations and field acronyms follow sdparm's tables so that a
//! command line learned on one tool works on the other.
//!
//! Sources: SBC-5 Table "Caching mode page" (08h), SBC-5 Table "Read-Write Error Recovery mode
//! page" (01h), SPC-6 Table "Control mode page" (0Ah), SPC-6 Table "Power Condition mode page"
//! (1Ah), SPC-6 Table "Informational Exceptions Control mode page" (1Ch).

use serde::Serialize;

/// A mode page field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Field {
    /// Page code.
    pub page: u8,
    /// Subpage code (0 for the page_0 format).
    pub subpage: u8,
    /// sdparm's acronym (upper case).
    pub acronym: &'static str,
    /// Byte offset from the start of the page (byte 0 is the PS/SPF/page code byte).
    pub byte: usize,
    /// Most significant bit of the field in `byte` (7..=0).
    pub msb: u8,
    /// Width in bits (1..=32); a field wider than `msb + 1` goes on in the following bytes.
    pub bits: u8,
    /// What it means.
    pub description: &'static str,
}

/// A page known by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NamedPage {
    /// Page code.
    pub page: u8,
    /// Subpage code.
    pub subpage: u8,
    /// sdparm's abbreviation.
    pub abbrev: &'static str,
    /// sgctl's longer name (accepted too).
    pub name: &'static str,
    /// Other accepted spellings.
    pub aliases: &'static [&'static str],
}

const fn np(
    page: u8,
    subpage: u8,
    abbrev: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
) -> NamedPage {
    NamedPage {
        page,
        subpage,
        abbrev,
        name,
        aliases,
    }
}

/// The one table of mode page names (`modes --page`, `--get`/`--set PAGE.FIELD`): sdparm's
/// abbreviation, sgctl's name and other spellings. Pages with named fields are those
/// `FIELDS` lists.
pub const PAGES: &[NamedPage] = &[
    np(
        0x01,
        0,
        "rw",
        "read-write-error-recovery",
        &["rw-err", "rwerr"],
    ),
    np(0x02, 0, "dr", "disconnect-reconnect", &[]),
    np(0x03, 0, "fo", "format", &[]),
    np(0x04, 0, "rd", "rigid-disk-geometry", &[]),
    np(0x07, 0, "ve", "verify-error-recovery", &["verify-err"]),
    np(0x08, 0, "ca", "caching", &["cache"]),
    np(0x0a, 0, "co", "control", &[]),
    np(0x0a, 0x01, "coe", "control-extension", &[]),
    np(0x0a, 0x02, "atag", "application-tag", &[]),
    np(0x0a, 0x03, "cdla", "command-duration-limit-a", &[]),
    np(0x0a, 0x04, "cdlb", "command-duration-limit-b", &[]),
    np(0x0a, 0x05, "iohi", "io-advice-hints", &[]),
    np(0x0a, 0x06, "bop", "background-operation-control", &[]),
    np(0x18, 0, "pl", "protocol-specific-lu", &[]),
    np(0x19, 0, "pp", "protocol-specific-port", &[]),
    np(0x19, 0x01, "pcd", "sas-phy-control", &[]),
    np(0x19, 0x02, "spc", "sas-shared-port-control", &[]),
    np(0x1a, 0, "po", "power-condition", &["power"]),
    np(0x1a, 0x01, "ps", "power-consumption", &[]),
    np(0x1c, 0, "ie", "informational-exceptions", &["iec"]),
    np(0x1c, 0x01, "bc", "background-control", &[]),
    np(0x1c, 0x02, "lbp", "logical-block-provisioning", &[]),
];

/// A page by name: abbreviation, name or alias, case-insensitive.
pub(crate) fn named_page(s: &str) -> Option<&'static NamedPage> {
    let l = s.trim().to_ascii_lowercase();
    PAGES
        .iter()
        .find(|p| p.abbrev == l || p.name == l || p.aliases.contains(&l.as_str()))
}

/// A `--page` argument: a name from [`PAGES`] (with its subpage), `all` (3Fh, all
/// subpages), or a number (`8`, `0x08`, `08h`) up to 3Fh.
pub fn page_arg(s: &str) -> std::result::Result<(u8, Option<u8>), String> {
    if let Some(p) = named_page(s) {
        return Ok((p.page, Some(p.subpage)));
    }
    let l = s.trim().to_ascii_lowercase();
    if l == "all" {
        return Ok((0x3f, Some(0xff)));
    }
    let n = if let Some(h) = l.strip_prefix("0x") {
        u8::from_str_radix(h, 16).ok()
    } else if let Some(h) = l.strip_suffix('h') {
        u8::from_str_radix(h, 16).ok()
    } else {
        l.parse::<u8>().ok()
    };
    match n {
        Some(n) if n <= 0x3f => Ok((n, None)),
        Some(n) => Err(format!("mode page 0x{n:x} is above 0x3f")),
        None => Err(format!(
            "unknown mode page '{}' (a number such as 0x08, `all`, or a name: {})",
            s.trim(),
            PAGES
                .iter()
                .map(|p| p.abbrev)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

const fn f(
    page: u8,
    acronym: &'static str,
    byte: usize,
    msb: u8,
    bits: u8,
    description: &'static str,
) -> Field {
    Field {
        page,
        subpage: 0,
        acronym,
        byte,
        msb,
        bits,
        description,
    }
}

/// The named fields.
pub(crate) const FIELDS: &[Field] = &[
    // SBC-5 Read-Write Error Recovery (01h).
    f(
        0x01,
        "AWRE",
        2,
        7,
        1,
        "automatic write reallocation enabled",
    ),
    f(0x01, "ARRE", 2, 6, 1, "automatic read reallocation enabled"),
    f(0x01, "TB", 2, 5, 1, "transfer block"),
    f(0x01, "RC", 2, 4, 1, "read continuous"),
    f(0x01, "EER", 2, 3, 1, "enable early recovery"),
    f(0x01, "PER", 2, 2, 1, "post error"),
    f(0x01, "DTE", 2, 1, 1, "data terminate on error"),
    f(0x01, "DCR", 2, 0, 1, "disable correction"),
    f(0x01, "RRC", 3, 7, 8, "read retry count"),
    f(0x01, "WRC", 8, 7, 8, "write retry count"),
    f(0x01, "RTL", 10, 7, 16, "recovery time limit (ms)"),
    // SBC-5 Caching (08h).
    f(0x08, "IC", 2, 7, 1, "initiator control"),
    f(0x08, "ABPF", 2, 6, 1, "abort pre-fetch"),
    f(0x08, "CAP", 2, 5, 1, "caching analysis permitted"),
    f(0x08, "DISC", 2, 4, 1, "discontinuity"),
    f(0x08, "SIZE", 2, 3, 1, "size enable"),
    f(0x08, "WCE", 2, 2, 1, "write cache enable"),
    f(0x08, "MF", 2, 1, 1, "multiplication factor"),
    f(0x08, "RCD", 2, 0, 1, "read cache disable"),
    f(0x08, "FSW", 12, 7, 1, "force sequential write"),
    f(0x08, "LBCSS", 12, 6, 1, "logical block cache segment size"),
    f(0x08, "DRA", 12, 5, 1, "disable read ahead"),
    f(0x08, "NV_DIS", 12, 0, 1, "non-volatile cache disabled"),
    // SPC-6 Control (0Ah).
    f(0x0a, "TST", 2, 7, 3, "task set type"),
    f(0x0a, "TMF_ONLY", 2, 4, 1, "task management functions only"),
    f(0x0a, "D_SENSE", 2, 2, 1, "descriptor format sense data"),
    f(0x0a, "GLTSD", 2, 1, 1, "global logging target save disable"),
    f(0x0a, "RLEC", 2, 0, 1, "report log exception condition"),
    f(0x0a, "QAM", 3, 7, 4, "queue algorithm modifier"),
    f(0x0a, "QERR", 3, 2, 2, "queue error management"),
    f(0x0a, "SWP", 4, 3, 1, "software write protect"),
    f(0x0a, "BTP", 8, 7, 16, "busy timeout period (100 ms)"),
    f(
        0x0a,
        "ESTCT",
        10,
        7,
        16,
        "extended self-test completion time (s)",
    ),
    // SPC-6 Power Condition (1Ah).
    f(
        0x1a,
        "PM_BG_PREC",
        2,
        7,
        2,
        "power management background precedence",
    ),
    f(
        0x1a,
        "STANDBY_Y",
        2,
        0,
        1,
        "standby_y condition timer enabled",
    ),
    f(0x1a, "IDLE_C", 3, 3, 1, "idle_c condition timer enabled"),
    f(0x1a, "IDLE_B", 3, 2, 1, "idle_b condition timer enabled"),
    f(0x1a, "IDLE_A", 3, 1, 1, "idle_a condition timer enabled"),
    f(
        0x1a,
        "STANDBY_Z",
        3,
        0,
        1,
        "standby_z condition timer enabled",
    ),
    f(0x1a, "IACT", 4, 7, 32, "idle_a condition timer (100 ms)"),
    f(0x1a, "SZCT", 8, 7, 32, "standby_z condition timer (100 ms)"),
    f(0x1a, "IBCT", 12, 7, 32, "idle_b condition timer (100 ms)"),
    f(0x1a, "ICCT", 16, 7, 32, "idle_c condition timer (100 ms)"),
    f(
        0x1a,
        "SYCT",
        20,
        7,
        32,
        "standby_y condition timer (100 ms)",
    ),
    f(0x1a, "CCF_IDLE", 39, 7, 2, "check condition if from idle"),
    f(
        0x1a,
        "CCF_STAND",
        39,
        5,
        2,
        "check condition if from standby",
    ),
    f(
        0x1a,
        "CCF_STOPP",
        39,
        3,
        2,
        "check condition if from stopped",
    ),
    // SPC-6 Informational Exceptions Control (1Ch).
    f(
        0x1c,
        "PERF",
        2,
        7,
        1,
        "performance (1: no delay for informational exceptions)",
    ),
    f(0x1c, "EBF", 2, 5, 1, "enable background function"),
    f(0x1c, "EWASC", 2, 4, 1, "enable warning"),
    f(
        0x1c,
        "DEXCPT",
        2,
        3,
        1,
        "disable exception control (1: failure prediction not reported)",
    ),
    f(
        0x1c,
        "TEST",
        2,
        2,
        1,
        "test (report a false failure prediction)",
    ),
    f(0x1c, "EBACKERR", 2, 1, 1, "enable background error"),
    f(0x1c, "LOGERR", 2, 0, 1, "log errors"),
    f(
        0x1c,
        "MRIE",
        3,
        3,
        4,
        "method of reporting informational exceptions",
    ),
    f(0x1c, "INTT", 4, 7, 32, "interval timer (100 ms)"),
    f(0x1c, "REPC", 8, 7, 32, "report count"),
];

/// Finds a page by sdparm abbreviation, sgctl name, alias or number (`0x1c`, `28`);
/// case-insensitive.
pub(crate) fn find_page(s: &str) -> Option<(u8, u8)> {
    if let Some(p) = named_page(s) {
        return Some((p.page, p.subpage));
    }
    match page_arg(s) {
        Ok((n, None)) if n <= 0x3e => Some((n, 0)),
        _ => None,
    }
}

/// The page's abbreviation (for messages), or its number.
pub fn page_label(page: u8, subpage: u8) -> String {
    PAGES
        .iter()
        .find(|p| p.page == page && p.subpage == subpage)
        .map(|p| format!("{} ({:02X}h)", p.abbrev, page))
        .unwrap_or_else(|| format!("{page:02X}h"))
}

/// Looks a field up: `PAGE.ACRONYM` or a bare `ACRONYM` that names one field only.
pub fn find_field(s: &str) -> std::result::Result<Field, String> {
    let (page, name) = match s.split_once('.') {
        Some((p, n)) => (
            Some(find_page(p).ok_or_else(|| {
                format!(
                    "unknown mode page '{p}' (use {} or a page number)",
                    PAGES
                        .iter()
                        .filter(|p| FIELDS
                            .iter()
                            .any(|f| f.page == p.page && f.subpage == p.subpage))
                        .map(|p| p.abbrev)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?),
            n,
        ),
        None => (None, s),
    };
    let up = name.to_ascii_uppercase();
    let hits: Vec<&Field> = FIELDS
        .iter()
        .filter(|f| f.acronym == up && page.is_none_or(|(p, sp)| f.page == p && f.subpage == sp))
        .collect();
    match hits.as_slice() {
        [f] => Ok(**f),
        [] => {
            let known: Vec<&str> = FIELDS
                .iter()
                .filter(|f| page.is_none_or(|(p, sp)| f.page == p && f.subpage == sp))
                .map(|f| f.acronym)
                .collect();
            Err(format!(
                "unknown mode page field '{s}'; known{}: {}",
                page.map(|(p, sp)| format!(" in {}", page_label(p, sp)))
                    .unwrap_or_default(),
                known.join(", ")
            ))
        }
        _ => Err(format!(
            "'{s}' names fields in several pages; write PAGE.{up}"
        )),
    }
}

impl Field {
    /// The largest value the field holds.
    pub fn max(&self) -> u64 {
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }

    /// The (byte, bit) of each bit of the field, most significant first.
    fn bit_positions(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (0..usize::from(self.bits)).map(move |i| {
            // Position counted from the field's msb: bit msb of byte, then downwards.
            let from_top = usize::from(7 - self.msb) + i;
            (self.byte + from_top / 8, 7 - (from_top % 8) as u8)
        })
    }

    /// The field's value in `page` (the page's bytes, header included); None when the page
    /// is too short to hold it.
    pub fn get(&self, page: &[u8]) -> Option<u64> {
        let mut v = 0u64;
        for (byte, bit) in self.bit_positions() {
            let b = page.get(byte)?;
            v = (v << 1) | u64::from(b >> bit & 1);
        }
        Some(v)
    }

    /// Writes `value` into `page`; false when the page is too short or the value too wide.
    pub fn set(&self, page: &mut [u8], value: u64) -> bool {
        if value > self.max() || self.get(page).is_none() {
            return false;
        }
        let n = usize::from(self.bits);
        for (i, (byte, bit)) in self.bit_positions().enumerate() {
            let v = value >> (n - 1 - i) & 1;
            if let Some(b) = page.get_mut(byte) {
                *b = (*b & !(1 << bit)) | ((v as u8) << bit);
            }
        }
        true
    }

    /// True when every bit of the field is set in the changeable-values mask `mask`;
    /// Some(false) when some or none are; None when the mask is too short.
    pub fn changeable(&self, mask: &[u8]) -> Option<bool> {
        self.get(mask).map(|m| m == self.max())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(s: &str) -> Field {
        find_field(s).unwrap()
    }

    #[test]
    fn page_names_numbers_and_all() {
        assert_eq!(page_arg("cache"), Ok((0x08, Some(0))));
        assert_eq!(page_arg("CA"), Ok((0x08, Some(0))));
        assert_eq!(page_arg("ie"), Ok((0x1c, Some(0))));
        assert_eq!(page_arg("control"), Ok((0x0a, Some(0))));
        assert_eq!(page_arg("power"), Ok((0x1a, Some(0))));
        assert_eq!(page_arg("rw-err"), Ok((0x01, Some(0))));
        assert_eq!(page_arg("lbp"), Ok((0x1c, Some(0x02))));
        assert_eq!(page_arg("0x1c"), Ok((0x1c, None)));
        assert_eq!(page_arg("1ch"), Ok((0x1c, None)));
        assert_eq!(page_arg("28"), Ok((0x1c, None)));
        assert_eq!(page_arg("all"), Ok((0x3f, Some(0xff))));
        let e = page_arg("cachee").unwrap_err();
        assert!(
            e.contains("unknown mode page 'cachee'") && e.contains("ca, "),
            "{e}"
        );
        assert!(!e.contains("invalid digit"), "{e}");
        assert!(page_arg("0x40").unwrap_err().contains("above 0x3f"));
        // Every name, abbreviation and alias is unique.
        let mut all: Vec<&str> = PAGES
            .iter()
            .flat_map(|p| {
                [p.abbrev, p.name]
                    .into_iter()
                    .chain(p.aliases.iter().copied())
            })
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(find_field("cache.WCE").map(|f| f.page), Ok(0x08));
    }

    /// SBC-5 Caching mode page: WCE byte 2 bit 2, RCD byte 2 bit 0.
    #[test]
    fn caching_bits_from_the_table() {
        let mut p = vec![
            0x88, 0x12, 0x04, 0, 0xff, 0xff, 0, 0, 0xff, 0xff, 0xff, 0xff,
        ];
        p.resize(20, 0);
        assert_eq!(field("ca.WCE").get(&p), Some(1));
        assert_eq!(field("wce").get(&p), Some(1));
        assert_eq!(field("caching.rcd").get(&p), Some(0));
        assert!(field("ca.WCE").set(&mut p, 0));
        assert!(field("RCD").set(&mut p, 1));
        assert_eq!(p[2], 0x01);
        assert!(!field("RCD").set(&mut p, 2), "1-bit field takes 0 or 1");
        // The mask of a page whose only changeable bits are WCE and RCD (SIM: 0x05).
        let mut m = vec![0x08, 0x12, 0x05];
        m.resize(20, 0);
        assert_eq!(field("WCE").changeable(&m), Some(true));
        assert_eq!(field("DISC").changeable(&m), Some(false));
    }

    /// SPC-6 Informational Exceptions Control: byte 2 PERF 7 EBF 5 EWASC 4 DEXCPT 3 TEST 2
    /// EBACKERR 1 LOGERR 0, byte 3 bits 3-0 MRIE, 4-7 INTERVAL TIMER, 8-11 REPORT COUNT.
    #[test]
    fn ie_fields_from_the_table() {
        let mut p = vec![0x9c, 0x0a, 0x08, 0x04, 0, 0, 0x02, 0x58, 0, 0, 0, 1];
        assert_eq!(field("ie.DEXCPT").get(&p), Some(1));
        assert_eq!(field("ie.MRIE").get(&p), Some(4));
        assert_eq!(field("ie.INTT").get(&p), Some(600));
        assert_eq!(field("ie.REPC").get(&p), Some(1));
        assert!(field("ie.MRIE").set(&mut p, 6));
        assert!(field("ie.DEXCPT").set(&mut p, 0));
        assert!(field("ie.EWASC").set(&mut p, 1));
        assert!(field("ie.INTT").set(&mut p, 0x0102_0304));
        assert_eq!(&p[2..8], &[0x10, 0x06, 1, 2, 3, 4]);
        assert!(!field("ie.MRIE").set(&mut p, 16));
        // A mask with all MRIE bits but not PERF.
        let m = [0x1c, 0x0a, 0x3d, 0x0f, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
        assert_eq!(field("ie.MRIE").changeable(&m), Some(true));
        assert_eq!(field("ie.PERF").changeable(&m), Some(false));
        assert_eq!(field("ie.REPC").changeable(&m), Some(false));
    }

    /// SPC-6 Power Condition mode page: byte 3 IDLE_A bit 1, STANDBY_Z bit 0; 4-7 IDLE_A
    /// CONDITION TIMER; 8-11 STANDBY_Z CONDITION TIMER; byte 39 CCF_IDLE 7-6, CCF_STANDBY
    /// 5-4, CCF_STOPPED 3-2.
    #[test]
    fn power_condition_fields_from_the_table() {
        let mut p = vec![0u8; 40];
        p[0] = 0x9a;
        p[1] = 0x26;
        assert!(field("po.IDLE_A").set(&mut p, 1));
        assert!(field("po.STANDBY_Z").set(&mut p, 1));
        assert!(field("po.IACT").set(&mut p, 50));
        assert!(field("po.SZCT").set(&mut p, 9000));
        assert!(field("po.CCF_STOPP").set(&mut p, 2));
        assert!(field("po.CCF_IDLE").set(&mut p, 1));
        assert_eq!(p[3], 0x03);
        assert_eq!(&p[4..12], &[0, 0, 0, 50, 0, 0, 0x23, 0x28]);
        assert_eq!(p[39], 0x48);
        assert_eq!(field("power-condition.SZCT").get(&p), Some(9000));
        // A page cut short does not hold byte 39.
        assert_eq!(field("po.CCF_IDLE").get(&p[..20]), None);
        assert!(!field("po.CCF_IDLE").set(&mut p[..20].to_vec(), 1));
    }

    #[test]
    fn names_and_errors() {
        assert_eq!(find_page("IE"), Some((0x1c, 0)));
        assert_eq!(find_page("0x08"), Some((0x08, 0)));
        assert_eq!(find_page("26"), Some((0x1a, 0)));
        assert_eq!(find_page("0x3f"), None);
        assert!(find_field("xx.WCE")
            .unwrap_err()
            .contains("unknown mode page"));
        assert!(find_field("ca.MRIE")
            .unwrap_err()
            .contains("known in ca (08h)"));
        // Every acronym is unique across pages today, so a bare one always resolves.
        for f in FIELDS {
            assert_eq!(find_field(f.acronym).unwrap(), *f);
            assert!(f.bits >= 1 && f.bits <= 32 && f.msb <= 7);
        }
    }
}
