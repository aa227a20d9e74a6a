#![no_main]
use libfuzzer_sys::fuzz_target;
use sgctl::discover::{scan, IdentMode, ScanOptions};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Retries a file operation interrupted by libFuzzer's timer signal (EINTR).
fn io<T>(mut f: impl FnMut() -> std::io::Result<T>) -> T {
    loop {
        match f() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r.unwrap(),
        }
    }
}

/// A private copy of fixtures/sysfs/mptsas-dualport (made once per process) whose attribute
/// and replay files the input overwrites.
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
    files: Vec<PathBuf>,
}

fn copy(from: &Path, to: &Path, files: &mut Vec<PathBuf>) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        let ft = e.file_type().unwrap();
        if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &t).unwrap();
        } else if ft.is_dir() {
            copy(&e.path(), &t, files);
        } else {
            io(|| std::fs::copy(e.path(), &t));
            files.push(t);
        }
    }
}

fn tree() -> &'static Tree {
    static T: OnceLock<Tree> = OnceLock::new();
    T.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sysfs/mptsas-dualport");
        // On tmpfs when there is one: the scan opens every attribute file of the tree and the
        // input rewrites some, which on a disk file system costs journal work per execution.
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() {
            tempfile::tempdir_in(shm).unwrap()
        } else {
            tempfile::tempdir().unwrap()
        };
        let root = dir.path().join("root");
        let mut files = Vec::new();
        copy(&src, &root, &mut files);
        files.sort();
        Tree {
            _dir: dir,
            root,
            files,
        }
    })
}

// The sysfs readers (attributes, class links, SAS addresses, mountinfo, swaps, the captured
// identification bytes of a sysroot): the input is a list of (file index, contents) records
// written into a copy of a captured tree, which is then scanned as `sgctl scan --sysroot`.
fuzz_target!(|data: &[u8]| {
    let t = tree();
    let mut changed = Vec::new();
    let mut d = data;
    let mut records = 0;
    while d.len() >= 3 && records < 8 {
        records += 1;
        let idx = usize::from(u16::from_be_bytes([d[0], d[1]])) % t.files.len();
        let n = usize::from(d[2]).min(d.len() - 3);
        let path = &t.files[idx];
        let old = io(|| std::fs::read(path));
        if old != d[3..3 + n] {
            io(|| std::fs::write(path, &d[3..3 + n]));
            changed.push((path.clone(), old));
        }
        d = &d[3 + n..];
    }
    let opts = ScanOptions {
        sysroot: t.root.clone(),
        mode: IdentMode::Files,
        ..ScanOptions::default()
    };
    if let Ok(s) = scan(&opts) {
        let _ = serde_json::to_string(&s);
    }
    let _ = sgctl::tcmu::uio::parse_map_size(&String::from_utf8_lossy(data));
    for (p, old) in changed.into_iter().rev() {
        io(|| std::fs::write(&p, &old));
    }
});
