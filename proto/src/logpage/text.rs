//! Text rendering of decoded pages (sg_logs-like: a title line, then one `name: value` line per
//! field). The text is a view of the same data `--json` prints, so the two never disagree.

use super::DecodedPage;
use serde_json::Value;
use std::fmt::Write;

/// "drive_trip" -> "Drive trip" (field names are already descriptive snake_case).
fn humanize(key: &str) -> String {
    let mut s = key.replace('_', " ");
    if let Some(f) = s.get(0..1) {
        let up = f.to_uppercase();
        s.replace_range(0..1, &up);
    }
    s
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::Bool(b) => Some(if *b { "yes".into() } else { "no".into() }),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn render_value(out: &mut String, indent: usize, key: Option<&str>, v: &Value) {
    let pad = " ".repeat(indent);
    match v {
        Value::Null => {}
        Value::Object(map) => {
            if let Some(k) = key {
                let _ = writeln!(out, "{pad}{}:", humanize(k));
            }
            let inner = if key.is_some() { indent + 2 } else { indent };
            for (k, v) in map {
                render_value(out, inner, Some(k), v);
            }
        }
        Value::Array(items) => {
            if items.is_empty() {
                return;
            }
            if items.iter().all(|i| scalar(i).is_some()) {
                let list: Vec<String> = items.iter().filter_map(scalar).collect();
                let _ = writeln!(
                    out,
                    "{pad}{}: {}",
                    humanize(key.unwrap_or("values")),
                    list.join(", ")
                );
                return;
            }
            let _ = writeln!(out, "{pad}{}:", humanize(key.unwrap_or("items")));
            for (i, item) in items.iter().enumerate() {
                let _ = writeln!(out, "{pad}  [{i}]");
                render_value(out, indent + 4, None, item);
            }
        }
        other => {
            if let (Some(k), Some(s)) = (key, scalar(other)) {
                // Units live in the JSON key (`current_c`, `scan_progress_percent`); show them
                // after the value instead.
                let (name, unit) = if let Some(n) = k.strip_suffix("_c") {
                    (n, " C")
                } else if let Some(n) = k.strip_suffix("_percent") {
                    (n, " %")
                } else {
                    (k, "")
                };
                let _ = writeln!(out, "{pad}{}: {s}{unit}", humanize(name));
            }
        }
    }
}

/// Renders one decoded page.
pub fn render(page: &DecodedPage, hex_only: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} log page [0x{:02x},0x{:02x}]  DS={} SPF={} page_length={}",
        page.name,
        page.page_code,
        page.subpage_code,
        page.ds as u8,
        page.spf as u8,
        page.page_length
    );
    let bytes = &page.raw;
    if hex_only || page.vendor_specific {
        if page.vendor_specific && !hex_only {
            let _ = writeln!(out, "  vendor specific page, shown in hex:");
        }
        out.push_str(&crate::bytes::hexdump(bytes));
    } else if super::LogPage::is_list_page(page.page_code, page.subpage_code) {
        for p in page.decoded["pages"].as_array().into_iter().flatten() {
            let pg = p["page_code"].as_u64().unwrap_or(0) as u8;
            let sub = p["subpage_code"].as_u64().unwrap_or(0) as u8;
            let _ = writeln!(
                out,
                "  0x{pg:02x},0x{sub:02x}  {}",
                super::page_name(pg, sub)
            );
        }
    } else if page.decoded.is_null() {
        let _ = writeln!(out, "  (no decoder for this page; parameters as received)");
        for p in &page.parameters {
            let _ = writeln!(
                out,
                "  parameter 0x{:04x}: {}{}",
                p.parameter_code,
                p.value.map(|v| format!("{v} ")).unwrap_or_default(),
                if p.hex.is_empty() {
                    String::new()
                } else {
                    format!("[{}]", p.hex)
                }
            );
        }
    } else {
        render_value(&mut out, 2, None, &page.decoded);
    }
    for pr in &page.problems {
        let _ = writeln!(out, "  !! {pr}");
    }
    out
}
