//! A self-contained HTML document: inline CSS and SVG, no script, no network fetch, readable
//! printed (A4/Letter, charts kept whole on a page).

use std::fmt::Write as _;

/// Escapes text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

const CSS: &str = r#"
:root { --ink:#1d232a; --muted:#5b6570; --line:#d9dee3; --accent:#0072b2; --bad:#b3261e; --good:#1b7f3b; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--ink); margin: 0 auto; max-width: 1060px; padding: 24px 28px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; }
.sub { color: var(--muted); margin: 0 0 16px; }
table { border-collapse: collapse; margin: 6px 0 14px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; }
td.num { text-align: right; }
table.kv th { width: 220px; }
.banner { padding: 10px 14px; border-radius: 6px; margin: 12px 0; font-weight: 600; }
.banner.bad { background: #fdecea; color: var(--bad); border: 1px solid #f3b8b3; }
.banner.good { background: #e8f5ec; color: var(--good); border: 1px solid #b6dfc2; }
.banner.note { background: #eef4fa; color: #17456b; border: 1px solid #c4d9ec; }
figure { margin: 10px 0 18px; }
figure svg { width: 100%; height: auto; display: block; }
.nodata { border: 1px dashed var(--line); border-radius: 6px; padding: 18px; color: var(--muted); text-align: center; }
.nodata b { color: var(--ink); }
figcaption { color: var(--muted); font-size: 12.5px; margin-top: 2px; }
.figures { display: flex; flex-wrap: wrap; gap: 8px 18px; }
.key { display: flex; flex-wrap: wrap; gap: 10px; margin: 10px 0 4px; }
.key div { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 150px; }
.key b { display: block; font-size: 20px; }
.key span { color: var(--muted); font-size: 12px; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
footer { margin-top: 36px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11.5px; }
  figure, table, .key { break-inside: avoid; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
"#;

/// Builds one HTML document.
#[derive(Debug, Default)]
pub struct Doc {
    body: String,
    title: String,
    charts: usize,
}

/// Kind of a banner line.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tone {
    /// Red: something a reader must not miss (not purged, failed).
    Bad,
    /// Green: passed.
    Good,
    /// Blue: information.
    Note,
}

impl Doc {
    /// A document with a title (also the first heading) and a subtitle line.
    pub fn new(title: &str, subtitle: &str) -> Doc {
        let mut d = Doc {
            title: title.to_string(),
            ..Doc::default()
        };
        let _ = write!(
            d.body,
            "<h1>{}</h1>\n<p class=\"sub\">{}</p>\n",
            esc(title),
            esc(subtitle)
        );
        d
    }

    /// A section heading.
    pub fn h2(&mut self, s: &str) -> &mut Self {
        let _ = writeln!(self.body, "<h2>{}</h2>", esc(s));
        self
    }

    /// A sub-section heading.
    pub(crate) fn h3(&mut self, s: &str) -> &mut Self {
        let _ = writeln!(self.body, "<h3>{}</h3>", esc(s));
        self
    }

    /// A paragraph of text.
    pub fn p(&mut self, s: &str) -> &mut Self {
        let _ = writeln!(self.body, "<p>{}</p>", esc(s));
        self
    }

    /// A coloured banner line.
    pub(crate) fn banner(&mut self, tone: Tone, s: &str) -> &mut Self {
        let c = match tone {
            Tone::Bad => "bad",
            Tone::Good => "good",
            Tone::Note => "note",
        };
        let _ = writeln!(
            self.body,
            "<div class=\"banner {c}\" data-banner=\"{c}\">{}</div>",
            esc(s)
        );
        self
    }

    /// Key figures as large tiles: (value, caption).
    pub fn key_figures(&mut self, figs: &[(String, String)]) -> &mut Self {
        self.body.push_str("<div class=\"key\">");
        for (v, c) in figs {
            let _ = write!(
                self.body,
                "<div data-key><b>{}</b><span>{}</span></div>",
                esc(v),
                esc(c)
            );
        }
        self.body.push_str("</div>\n");
        self
    }

    /// A two-column table of names and values.
    pub fn kv(&mut self, rows: &[(&str, String)]) -> &mut Self {
        self.body.push_str("<table class=\"kv\">\n");
        for (k, v) in rows {
            let _ = writeln!(self.body, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
        }
        self.body.push_str("</table>\n");
        self
    }

    /// A table with a header row; cells that parse as numbers are right-aligned.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>]) -> &mut Self {
        self.body.push_str("<table>\n<tr>");
        for h in header {
            let _ = write!(self.body, "<th>{}</th>", esc(h));
        }
        self.body.push_str("</tr>\n");
        for r in rows {
            self.body.push_str("<tr>");
            for c in r {
                let num = c
                    .trim_end_matches(['%', 'k', 'M', 'G'])
                    .replace(',', "")
                    .parse::<f64>()
                    .is_ok();
                let _ = write!(
                    self.body,
                    "<td{}>{}</td>",
                    if num { " class=\"num\"" } else { "" },
                    esc(c)
                );
            }
            self.body.push_str("</tr>\n");
        }
        self.body.push_str("</table>\n");
        self
    }

    /// A chart (an `<svg>` element from [`super::chart`]) with a caption. A chart without data
    /// is a figure that says so in words, under the chart's title.
    pub fn chart(
        &mut self,
        svg: Result<String, super::chart::ChartError>,
        caption: &str,
    ) -> &mut Self {
        match svg {
            Ok(svg) => {
                self.charts += 1;
                let _ = writeln!(
                    self.body,
                    "<figure data-chart=\"{}\">{}<figcaption>{}</figcaption></figure>",
                    self.charts,
                    svg,
                    esc(caption)
                );
            }
            Err(e) => {
                let why = match &e {
                    super::chart::ChartError::NoData(_) => {
                        "No data: nothing was recorded for this chart.".to_string()
                    }
                    super::chart::ChartError::Draw { msg, .. } => {
                        format!("Not drawn: {msg}.")
                    }
                };
                let _ = writeln!(
                    self.body,
                    "<figure data-nodata><div class=\"nodata\"><b>{}</b><br>{}</div>\
                     <figcaption>{}</figcaption></figure>",
                    esc(e.title()),
                    esc(&why),
                    esc(caption)
                );
            }
        }
        self
    }

    /// Preformatted text.
    pub fn pre(&mut self, s: &str) -> &mut Self {
        let _ = writeln!(self.body, "<pre class=\"mono\">{}</pre>", esc(s));
        self
    }

    /// Raw HTML (already escaped by the caller).
    pub fn raw(&mut self, s: &str) -> &mut Self {
        self.body.push_str(s);
        self
    }

    /// Number of charts added.
    pub fn chart_count(&self) -> usize {
        self.charts
    }

    /// The finished document with a footer line.
    pub fn finish(self, footer: &str) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"sgctl {}\">\n<title>{}</title>\n<style>{}</style>\n\
             </head>\n<body>\n{}<footer>{}</footer>\n</body>\n</html>\n",
            env!("CARGO_PKG_VERSION"),
            esc(&self.title),
            CSS,
            self.body,
            esc(footer)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_builds() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let mut d = Doc::new("T <1>", "sub");
        d.h2("Drive")
            .kv(&[("serial", "<S1>".into())])
            .table(&["a", "b"], &[vec!["1,200".into(), "x".into()]]);
        let html = d.finish("f");
        assert!(html.contains("<title>T &lt;1&gt;</title>"));
        assert!(html.contains("&lt;S1&gt;"));
        assert!(html.contains("<td class=\"num\">1,200</td><td>x</td>"));
        assert!(!html.contains("<script") && !html.contains("http"));
    }

    /// An empty chart printed the internal `(no chart: chart '...': no data)`.
    #[test]
    fn empty_chart_is_a_figure_for_readers() {
        let mut d = Doc::new("T", "s");
        d.chart(
            Err(super::super::chart::ChartError::NoData(
                "IOPS per interval".into(),
            )),
            "One sample per interval.",
        );
        let html = d.finish("f");
        assert!(
            !html.contains("no chart") && !html.contains("chart '"),
            "{html}"
        );
        assert!(html.contains("<b>IOPS per interval</b>"), "{html}");
        assert!(html.contains("No data: nothing was recorded for this chart."));
        assert!(html.contains("One sample per interval."));
    }
}
