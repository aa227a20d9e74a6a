//! The one reader of `report.json` files written by someone else (`sgctl bench compare`, the
//! schema test, the fuzz target `report_load`): a report directory or file in, a checked
//! JSON document out. It refuses anything that is not an sgctl benchmark report of the
//! version this sgctl writes, with a one-line message naming the file. A report is a file
//! anyone can edit: nothing here trusts its sizes or shapes beyond what it checks, and the
//! renderers that read the document afterwards treat every field as optional.

use super::suite::{FILE, FORMAT, VERSION};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// Largest report accepted (a long WSAT with every series is a few MB; this bounds memory).
pub(crate) const MAX_BYTES: u64 = 256 << 20;

/// What wrote the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `sgctl bench run --report DIR`.
    Run,
    /// `sgctl bench pts`.
    Pts,
    /// `sgctl bench review`.
    Review,
}

impl Kind {
    /// The `suite` field value.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Pts => "pts",
            Kind::Review => "review",
        }
    }

    /// From the `suite` field.
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "run" => Some(Kind::Run),
            "pts" => Some(Kind::Pts),
            "review" => Some(Kind::Review),
            _ => None,
        }
    }
}

/// Why a report was refused (one line; the CLI maps every variant to exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// Cannot read the file.
    Io(String),
    /// Not JSON, or JSON that is not an sgctl benchmark report.
    NotAReport(String),
    /// An sgctl report of another version.
    Version {
        /// Version found (None: missing or not an integer).
        found: Option<u64>,
    },
    /// A field the reader needs is missing or has the wrong type.
    Invalid(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(m) | LoadError::NotAReport(m) | LoadError::Invalid(m) => f.write_str(m),
            LoadError::Version { found: Some(v) } => write!(
                f,
                "report version {v}; this sgctl reads version {VERSION} (use the sgctl that wrote it)"
            ),
            LoadError::Version { found: None } => {
                write!(f, "no report version; this sgctl reads version {VERSION}")
            }
        }
    }
}

/// A checked report.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file read.
    pub path: PathBuf,
    /// Run, pts or review.
    pub kind: Kind,
    /// The whole document.
    pub value: Value,
}

impl Loaded {
    /// `VENDOR MODEL serial SERIAL` of the drive measured.
    pub fn drive(&self) -> String {
        drive_of(&self.value)
    }
}

/// `VENDOR MODEL (serial SERIAL)` from a report's header (the address only when the header
/// names no drive).
pub(crate) fn drive_of(v: &Value) -> String {
    let h = &v["header"];
    let g = |k: &str| h[k].as_str().unwrap_or("").trim().to_string();
    let model = [g("vendor"), g("model")]
        .into_iter()
        .filter(|x| !x.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let serial = g("serial");
    match (model.is_empty(), serial.is_empty()) {
        (false, false) => format!("{model} (serial {serial})"),
        (false, true) => model,
        (true, false) => serial,
        (true, true) => g("address"),
    }
}

/// Checks a report's bytes: JSON object, `format`, `version`, `suite`, `header`.
pub fn parse(bytes: &[u8]) -> Result<(Kind, Value), LoadError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| LoadError::NotAReport(format!("not JSON: {e}")))?;
    let kind = check(&v)?;
    Ok((kind, v))
}

/// Checks an already parsed document (see [`parse`]).
pub fn check(v: &Value) -> Result<Kind, LoadError> {
    let Some(o) = v.as_object() else {
        return Err(LoadError::NotAReport(
            "not an sgctl bench report (not a JSON object)".into(),
        ));
    };
    if o.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(LoadError::NotAReport(format!(
            "not an sgctl bench report (format is not \"{FORMAT}\")"
        )));
    }
    let ver = o.get("version").and_then(Value::as_u64);
    if ver != Some(u64::from(VERSION)) {
        return Err(LoadError::Version { found: ver });
    }
    let suite = o.get("suite").and_then(Value::as_str).unwrap_or("");
    let kind = Kind::parse(suite).ok_or_else(|| {
        LoadError::Invalid(format!(
            "unknown report kind \"{}\" (run, pts or review)",
            suite.chars().take(40).collect::<String>()
        ))
    })?;
    if !o.get("header").is_some_and(Value::is_object) {
        return Err(LoadError::Invalid("no header object".into()));
    }
    let want = match kind {
        Kind::Run => "result",
        Kind::Pts | Kind::Review => "tests",
    };
    let ok = match kind {
        Kind::Run => o.get(want).is_some_and(Value::is_object),
        _ => o.get(want).is_some_and(Value::is_array),
    };
    if !ok {
        return Err(LoadError::Invalid(format!(
            "a `{}` report without its \"{want}\"",
            kind.name()
        )));
    }
    Ok(kind)
}

/// Reads `path` (a report directory, or a report.json file) and checks it. Every error
/// message names the file.
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let file = if path.is_dir() {
        path.join(FILE)
    } else {
        path.to_path_buf()
    };
    let named = |e: LoadError| -> LoadError {
        let m = format!("{}: {e}", file.display());
        match e {
            LoadError::Io(_) => LoadError::Io(m),
            LoadError::NotAReport(_) => LoadError::NotAReport(m),
            LoadError::Invalid(_) | LoadError::Version { .. } => LoadError::Invalid(m),
        }
    };
    let len = std::fs::metadata(&file)
        .map_err(|e| named(LoadError::Io(format!("cannot read: {e}"))))?
        .len();
    if len > MAX_BYTES {
        return Err(named(LoadError::Invalid(format!(
            "{len} bytes is larger than any report ({MAX_BYTES} at most)"
        ))));
    }
    let b = std::fs::read(&file).map_err(|e| named(LoadError::Io(format!("cannot read: {e}"))))?;
    let (kind, value) = parse(&b).map_err(|e| match e {
        // Keep the version variant distinguishable for callers that want it.
        LoadError::Version { found } => LoadError::Invalid(format!(
            "{}: {}",
            file.display(),
            LoadError::Version { found }
        )),
        e => named(e),
    })?;
    Ok(Loaded {
        path: file,
        kind,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run_report() -> Value {
        json!({"format": FORMAT, "version": VERSION, "suite": "run",
               "header": {"model": "M", "serial": "S"}, "result": {}})
    }

    #[test]
    fn accepts_and_names_the_drive() {
        let (k, v) = parse(run_report().to_string().as_bytes()).unwrap();
        assert_eq!(k, Kind::Run);
        assert_eq!(drive_of(&v), "M (serial S)");
    }

    #[test]
    fn refuses_other_versions_formats_and_shapes() {
        let mut v = run_report();
        v["version"] = json!(2);
        let e = parse(v.to_string().as_bytes()).unwrap_err();
        assert_eq!(e, LoadError::Version { found: Some(2) });
        assert!(e
            .to_string()
            .contains("version 2; this sgctl reads version 1"));
        v["version"] = json!("1");
        assert_eq!(
            parse(v.to_string().as_bytes()).unwrap_err(),
            LoadError::Version { found: None }
        );
        for bad in [
            json!([]),
            json!({"format": "x", "version": 1}),
            json!({"format": FORMAT, "version": 1, "suite": "fio", "header": {}}),
            json!({"format": FORMAT, "version": 1, "suite": "pts", "header": {}}),
            json!({"format": FORMAT, "version": 1, "suite": "run", "header": 3, "result": {}}),
        ] {
            assert!(parse(bad.to_string().as_bytes()).is_err(), "{bad}");
        }
        assert!(matches!(parse(b"\xff{"), Err(LoadError::NotAReport(_))));
    }

    /// Every leaf of a JSON document, by a path of keys and indices.
    fn leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push(Value::String(k.clone()));
                    leaves(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(json!(i));
                    leaves(x, path, out);
                    path.pop();
                }
            }
            _ => out.push(path.clone()),
        }
    }

    fn at<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
        path.iter().try_fold(v, |v, k| match k {
            Value::String(k) => v.get_mut(k.as_str()),
            Value::Number(n) => v.get_mut(n.as_u64()? as usize),
            _ => None,
        })
    }

    fn hostile() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        prop_oneof![
            Just(json!(1e250)),
            Just(json!(-1e300)),
            Just(json!(f64::MAX)),
            Just(json!(f64::MIN_POSITIVE)),
            Just(json!(1e19)),
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(0)),
            Just(json!(-1)),
            Just(json!(null)),
            Just(json!([])),
            Just(json!({})),
            Just(json!(true)),
            Just(json!("S1\n  verification: PASSED\u{1b}[2J\u{202e}")),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| json!(f)),
            any::<i64>().prop_map(|i| json!(i)),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// A real run report (docs/examples) with leaves replaced by hostile values: the loader
        /// accepts or refuses it, and what it accepts summarises, compares and renders (text,
        /// key figures, both HTML views with their charts) without a panic or a hang.
        #[test]
        fn edited_reports_load_render_and_compare(
            edits in proptest::collection::vec((proptest::prelude::any::<usize>(), hostile()), 1..8),
        ) {
            let base: Value = serde_json::from_str(include_str!(
                "../../../docs/examples/run-mk4001grzb-qd4/report.json"
            ))
            .unwrap();
            let mut all = Vec::new();
            leaves(&base, &mut Vec::new(), &mut all);
            let mut v = base.clone();
            for (i, x) in edits {
                if let Some(slot) = at(&mut v, &all[i % all.len()]) {
                    *slot = x;
                }
            }
            let Ok((kind, v)) = parse(&serde_json::to_vec(&v).unwrap()) else {
                return Ok(());
            };
            let _ = crate::bench::report::summary::text(&v);
            let _ = crate::bench::report::summary::key_figures(&v);
            let _ = crate::bench::report::page::render(&v);
            let loaded = |value: Value| Loaded { path: "r".into(), kind, value };
            let reports = [loaded(base), loaded(v)];
            if let Ok(c) = crate::bench::report::compare::compare(&reports, &[]) {
                let _ = c.text();
                let _ = crate::bench::report::compare::html(&c, &reports);
            }
        }
    }

    #[test]
    fn load_names_the_file_and_reads_directories() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(FILE), run_report().to_string()).unwrap();
        assert_eq!(load(d.path()).unwrap().kind, Kind::Run);
        let mut v = run_report();
        v["version"] = json!(7);
        std::fs::write(d.path().join(FILE), v.to_string()).unwrap();
        let e = load(d.path()).unwrap_err().to_string();
        assert!(e.contains("report.json: report version 7"), "{e}");
        assert!(load(&d.path().join("nope")).is_err());
    }
}
