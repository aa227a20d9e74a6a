//! The file layer: every file sgctl (and the virtual drive) writes, locks or reads as a secret
//! goes through this module. sgctl runs as root next to other users' processes, often in
//! directories they can write to (`/tmp`, `/run/lock`); the rules here are what keeps it from
//! being used to clobber a file it was never meant to touch (docs/security.md).
//!
//! - **No symlink is followed at the file itself.** Files are created `openat(dirfd, name,
//!   O_CREAT|O_EXCL|O_NOFOLLOW)` relative to a directory descriptor that was opened once and
//!   checked ([`Dir`]); lock and log files are opened `O_NOFOLLOW` and checked with `fstat`
//!   on the descriptor (regular file, one link, owned by the caller or root). The directory
//!   path itself is the admin's: a symlinked directory named on the command line is used.
//! - **Replacing a file is atomic and durable.** [`write_atomic`] writes a temporary file with
//!   an unpredictable name (`.NAME.<64 random bits>.tmp`, created exclusively in the target
//!   directory), `fsync`s it, `renameat`s it over the name and `fsync`s the directory. Any
//!   error (ENOSPC, EIO, from the write or the `fsync`) is returned and the temporary file is
//!   removed: a full file system is a failure, never a silent partial file.
//! - **Nothing is overwritten without intent.** [`Replace::Never`] renames with
//!   `RENAME_NOREPLACE` (or `link`+`unlink` where the file system lacks it): an existing name,
//!   even one planted between the check and the write, is refused.
//! - **Modes are chosen, not inherited.** Files are created with the mode given and `fchmod`ed
//!   to it (the umask cannot widen or narrow it): [`MODE_SECRET`] for anything holding
//!   credentials, [`MODE_LOG`] for audit logs, [`MODE_PUBLIC`] for records and reports.
//! - **Directories others may write to are refused** when no sticky bit protects the names in
//!   them; a private directory ([`Dir::open_private`], the lock directory) must be owned by the
//!   caller or root and writable by nobody else.
//! - **Outputs are checked before a job starts** ([`preflight_output`]): the directory exists
//!   and can be written, the name is free (or `--force` was given), the file system has room,
//!   and the path is not another file of the same job (its audit log, state file or key).
//! - **Secrets are read as bytes** ([`read_secret`]): from a file owned by the caller and
//!   private to it, with a length limit, never through a lossy text conversion.

use crate::error::{Error, Invalid, Refusal, Result};
use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags, RenameFlags, Stat};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// Files holding credentials (virtual-drive state with PINs, MSID and PSID; private keys).
pub const MODE_SECRET: u32 = 0o600;
/// Audit logs: root (or the caller) writes, the admin group reads.
pub const MODE_LOG: u32 = 0o640;
/// Records and reports meant to be handed on (certificates, benchmark reports, public keys).
pub const MODE_PUBLIC: u32 = 0o644;
/// Lock files (readable so a second process can name the holder).
pub const MODE_LOCK: u32 = 0o644;
/// The least free space [`preflight_output`] accepts in an output's file system.
pub(crate) const MIN_FREE_BYTES: u64 = 1 << 20;

/// What to do when the target name already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Refuse (the default for anything a person asked for: certificates, reports, keys).
    Never,
    /// Replace it atomically (state files, `--force`). A symlink at the name is replaced by
    /// the new file, never followed.
    Always,
}

impl Replace {
    /// [`Replace::Always`] when `force`, else [`Replace::Never`].
    pub fn forced(force: bool) -> Replace {
        if force {
            Replace::Always
        } else {
            Replace::Never
        }
    }
}

fn refuse(path: &Path, reason: impl Into<String>) -> Error {
    Refusal::UnsafeFile {
        path: path.display().to_string(),
        reason: reason.into(),
    }
    .into()
}

fn io_err(what: &str, path: &Path, e: impl Into<std::io::Error>) -> Error {
    Error::io(format!("{what} {}", path.display()), e.into())
}

fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

fn mode_bits(st: &Stat) -> u32 {
    Mode::from_raw_mode(st.st_mode).bits() & 0o7777
}

fn file_type(st: &Stat) -> FileType {
    FileType::from_raw_mode(st.st_mode)
}

/// Splits `path` into its directory (`.` when none) and its last component.
pub fn split(path: &Path) -> Result<(PathBuf, OsString)> {
    let name = path
        .file_name()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| refuse(path, "names no file (a directory or an empty path)"))?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    Ok((dir, name.to_os_string()))
}

/// An open, checked directory: files are created and opened relative to its descriptor, so a
/// directory renamed or replaced by a symlink after the check is never written through.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    path: PathBuf,
}

impl Dir {
    /// Opens the directory `path` for writing files into. Refused when every user may write to
    /// it and no sticky bit keeps them from renaming or deleting the files sgctl puts there.
    pub fn open(path: &Path) -> Result<Dir> {
        let fd = rfs::openat(
            rfs::CWD,
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::NOENT => refuse(path, "the directory does not exist"),
            rustix::io::Errno::NOTDIR => refuse(path, "is not a directory"),
            e => io_err("opening directory", path, e),
        })?;
        let stat = rfs::fstat(&fd).map_err(|e| io_err("checking directory", path, e))?;
        let m = mode_bits(&stat);
        if m & 0o002 != 0 && m & 0o1000 == 0 {
            return Err(refuse(
                path,
                format!(
                    "the directory is writable by every user without the sticky bit (mode {m:o}): \
                     another user could replace what sgctl writes there; use another directory \
                     or chmod o-w"
                ),
            ));
        }
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// Opens (creating it, mode 0755, when missing) a directory that only the caller or root
    /// may write to: not a symlink, owned by the caller or root, not writable by group or
    /// others. A directory of the caller's that is group/world-writable (sgctl's own lock
    /// directory was once 1777) is tightened to 0755 first.
    pub fn open_private(path: &Path) -> Result<Dir> {
        let mkdir = || rfs::mkdirat(rfs::CWD, path, Mode::from_raw_mode(0o755));
        let made = match mkdir() {
            Err(rustix::io::Errno::NOENT) => {
                // No /run/lock (a minimal system): its parents are created like it, 0755.
                use std::os::unix::fs::DirBuilderExt;
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::DirBuilder::new()
                        .recursive(true)
                        .mode(0o755)
                        .create(parent)
                        .map_err(|e| io_err("creating directory", parent, e))?;
                }
                mkdir()
            }
            r => r,
        };
        match made {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(io_err("creating directory", path, e)),
        }
        let fd = rfs::openat(
            rfs::CWD,
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR => refuse(
                path,
                "is a symbolic link or not a directory; remove it (sgctl recreates it)",
            ),
            e => io_err("opening directory", path, e),
        })?;
        let stat = rfs::fstat(&fd).map_err(|e| io_err("checking directory", path, e))?;
        if file_type(&stat) != FileType::Directory {
            return Err(refuse(path, "is not a directory"));
        }
        let me = euid();
        if stat.st_uid != me && stat.st_uid != 0 {
            return Err(refuse(
                path,
                format!(
                    "the directory belongs to uid {} (not to root or to you): another user \
                     could hold or plant its files; remove it (sgctl recreates it)",
                    stat.st_uid
                ),
            ));
        }
        let m = mode_bits(&stat);
        if m & 0o022 != 0 {
            if stat.st_uid != me {
                return Err(refuse(
                    path,
                    format!("the directory is writable by group or others (mode {m:o}); chmod 755"),
                ));
            }
            rfs::fchmod(&fd, Mode::from_raw_mode(m & !0o022))
                .map_err(|e| io_err("tightening directory", path, e))?;
        }
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The path it was opened by.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn child(&self, name: &OsStr) -> PathBuf {
        self.path.join(name)
    }

    /// `lstat` of `name` in this directory (`None`: no such entry).
    pub fn entry(&self, name: &OsStr) -> Result<Option<Stat>> {
        match rfs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(s) => Ok(Some(s)),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(io_err("checking", &self.child(name), e)),
        }
    }

    /// Opens (creating it with `mode` when missing) the lock file `name`, read-write, without
    /// following a symlink and without truncating it. The file must be a regular file with one
    /// link, owned by the caller or root. Where it cannot be opened for writing (a user who may
    /// not write root's lock directory) it is opened read-only: `flock` works on either.
    pub fn open_lock(&self, name: &OsStr, mode: u32) -> Result<File> {
        let path = self.child(name);
        let rw = rfs::openat(
            &self.fd,
            name,
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        );
        let fd = match rw {
            Ok(fd) => fd,
            Err(rustix::io::Errno::ACCESS) => rfs::openat(
                &self.fd,
                name,
                OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| match e {
                rustix::io::Errno::NOENT => refuse(
                    &path,
                    "cannot be created: the directory is not writable by you (run as root, or \
                     point SGCTL_LOCK_DIR to a directory of your own)",
                ),
                e => self.open_error(&path, e),
            })?,
            Err(e) => return Err(self.open_error(&path, e)),
        };
        check_owned_regular(&fd, &path)?;
        Ok(File::from(fd))
    }

    fn open_error(&self, path: &Path, e: rustix::io::Errno) -> Error {
        match e {
            rustix::io::Errno::LOOP => refuse(
                path,
                "is a symbolic link; sgctl does not follow links here (remove it)",
            ),
            e => io_err("opening", path, e),
        }
    }

    /// Opens `name` for appending (and reading), creating it with `mode` when missing; never
    /// through a symlink, never a file with other links or of another owner. Returns the file
    /// and whether it was created (the directory has then been `fsync`ed).
    pub fn open_append(&self, name: &OsStr, mode: u32) -> Result<(File, bool)> {
        let path = self.child(name);
        let base = OFlags::RDWR | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        // Open it, else create it exclusively; another job of the same run (or another
        // process) may create it between the two, so an EEXIST opens it again.
        let mut tries = 0;
        let (fd, created) = loop {
            tries += 1;
            match rfs::openat(&self.fd, name, base, Mode::empty()) {
                Ok(fd) => break (fd, false),
                Err(rustix::io::Errno::NOENT) => {}
                Err(e) => return Err(self.open_error(&path, e)),
            }
            match rfs::openat(
                &self.fd,
                name,
                base | OFlags::CREATE | OFlags::EXCL,
                Mode::from_raw_mode(mode),
            ) {
                Ok(fd) => {
                    rfs::fchmod(&fd, Mode::from_raw_mode(mode))
                        .map_err(|e| io_err("setting the mode of", &path, e))?;
                    break (fd, true);
                }
                Err(rustix::io::Errno::EXIST) if tries < 8 => continue,
                Err(e) => return Err(self.open_error(&path, e)),
            }
        };
        check_owned_regular(&fd, &path)?;
        if created {
            self.sync()?;
        }
        Ok((File::from(fd), created))
    }

    /// Writes `bytes` to the existing attribute file `name` (a sysfs attribute such as an
    /// enclosure component's `locate`) in one `write`: opened write-only relative to this
    /// directory's descriptor, never created, never through a symlink, and only a regular
    /// file. The kernel's answer to the write (EINVAL, EIO from the enclosure) is the error.
    pub fn write_attribute(&self, name: &OsStr, bytes: &[u8]) -> Result<()> {
        let path = self.child(name);
        // Checked before opening, so that a device node or FIFO planted under that name is
        // never opened (an open alone can act on a device, or wait for a FIFO's reader).
        match self.entry(name)? {
            None => return Err(refuse(&path, "no such attribute")),
            Some(st) if file_type(&st) == FileType::Symlink => {
                return Err(refuse(
                    &path,
                    "is a symbolic link; sgctl does not follow links here (remove it)",
                ))
            }
            Some(st) if file_type(&st) != FileType::RegularFile => {
                return Err(refuse(&path, "is not a regular file"))
            }
            Some(_) => {}
        }
        let fd = rfs::openat(
            &self.fd,
            name,
            OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::NOENT => refuse(&path, "no such attribute"),
            e => self.open_error(&path, e),
        })?;
        let st = rfs::fstat(&fd).map_err(|e| io_err("checking", &path, e))?;
        if file_type(&st) != FileType::RegularFile {
            return Err(refuse(&path, "is not a regular file"));
        }
        let n = rustix::io::write(&fd, bytes).map_err(|e| io_err("writing", &path, e))?;
        if n != bytes.len() {
            return Err(io_err(
                "writing",
                &path,
                std::io::Error::other(format!("short write: {n} of {} bytes", bytes.len())),
            ));
        }
        Ok(())
    }

    /// `fsync` of the directory (makes created and renamed names durable).
    pub fn sync(&self) -> Result<()> {
        rfs::fsync(&self.fd).map_err(|e| io_err("flushing directory", &self.path, e))
    }

    /// Writes `name` in this directory through a temporary file and a rename (see
    /// [`write_with`]).
    pub fn write_with(
        &self,
        name: &OsStr,
        mode: u32,
        replace: Replace,
        fill: impl FnOnce(&mut File) -> std::io::Result<()>,
    ) -> Result<()> {
        let path = self.child(name);
        if let Some(st) = self.entry(name)? {
            if !matches!(file_type(&st), FileType::RegularFile | FileType::Symlink) {
                return Err(refuse(
                    &path,
                    "is not a regular file (a directory or a device)",
                ));
            }
            if replace == Replace::Never {
                return Err(exists(&path));
            }
        }
        let tmp = temp_name(name)?;
        let fd = rfs::openat(
            &self.fd,
            tmp.as_os_str(),
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        )
        .map_err(|e| match e {
            rustix::io::Errno::ROFS => refuse(&path, "the file system is read-only"),
            e => io_err("creating a temporary file for", &path, e),
        })?;
        let mut f = File::from(fd);
        let written = rfs::fchmod(&f, Mode::from_raw_mode(mode))
            .map_err(std::io::Error::from)
            .and_then(|()| fill(&mut f))
            .and_then(|()| f.sync_all());
        drop(f);
        let unlink_tmp = || {
            let _ = rfs::unlinkat(&self.fd, tmp.as_os_str(), AtFlags::empty());
        };
        if let Err(e) = written {
            unlink_tmp();
            return Err(io_err("writing", &path, e));
        }
        let mut linked = false;
        let renamed = match replace {
            Replace::Always => rfs::renameat(&self.fd, tmp.as_os_str(), &self.fd, name),
            Replace::Never => {
                match rfs::renameat_with(
                    &self.fd,
                    tmp.as_os_str(),
                    &self.fd,
                    name,
                    RenameFlags::NOREPLACE,
                ) {
                    // File systems without RENAME_NOREPLACE: link (fails on an existing name).
                    Err(rustix::io::Errno::INVAL) | Err(rustix::io::Errno::NOSYS) => {
                        linked = true;
                        rfs::linkat(&self.fd, tmp.as_os_str(), &self.fd, name, AtFlags::empty())
                    }
                    r => r,
                }
            }
        };
        // A rename leaves no temporary name; a failure or the link fallback leaves one.
        if renamed.is_err() || linked {
            unlink_tmp();
        }
        match renamed {
            Ok(()) => self.sync(),
            Err(rustix::io::Errno::EXIST) => Err(exists(&path)),
            Err(e) => Err(io_err("renaming into place", &path, e)),
        }
    }
}

fn exists(path: &Path) -> Error {
    refuse(
        path,
        "already exists; it is not overwritten without --force (or choose another name)",
    )
}

fn check_owned_regular(fd: &OwnedFd, path: &Path) -> Result<()> {
    let st = rfs::fstat(fd).map_err(|e| io_err("checking", path, e))?;
    if file_type(&st) != FileType::RegularFile {
        return Err(refuse(path, "is not a regular file"));
    }
    if st.st_nlink != 1 {
        return Err(refuse(
            path,
            "has other hard links; sgctl does not write to a file reachable by other names",
        ));
    }
    let me = euid();
    if st.st_uid != me && st.st_uid != 0 {
        return Err(refuse(
            path,
            format!(
                "belongs to uid {} (not to root or to you); remove it",
                st.st_uid
            ),
        ));
    }
    Ok(())
}

/// `.NAME.<16 hex digits>.tmp` (NAME cut to 200 bytes): unpredictable, so nobody can plant it.
fn temp_name(name: &OsStr) -> Result<OsString> {
    let mut r = [0u8; 8];
    let mut got = 0;
    while got < r.len() {
        match rustix::rand::getrandom(&mut r[got..], rustix::rand::GetRandomFlags::empty()) {
            Ok(n) => got += n,
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(Error::io("random temporary name", e.into())),
        }
    }
    let b = name.as_bytes();
    let mut t = Vec::with_capacity(b.len().min(200) + 22);
    t.push(b'.');
    t.extend_from_slice(&b[..b.len().min(200)]);
    t.push(b'.');
    for x in r {
        t.extend_from_slice(format!("{x:02x}").as_bytes());
    }
    t.extend_from_slice(b".tmp");
    Ok(OsString::from_vec(t))
}

/// Writes `path` with what `fill` writes: a temporary file created exclusively (mode `mode`,
/// unpredictable name) in `path`'s directory, `fsync`ed, renamed over `path` (or, with
/// [`Replace::Never`], to a name that must not exist) and the directory `fsync`ed. An error
/// from `fill`, the write or the flush (ENOSPC, EIO) is returned and leaves `path` as it was.
pub fn write_with(
    path: &Path,
    mode: u32,
    replace: Replace,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    let (dir, name) = split(path)?;
    Dir::open(&dir)?.write_with(&name, mode, replace, fill)
}

/// [`write_with`] of `bytes`.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32, replace: Replace) -> Result<()> {
    write_with(path, mode, replace, |f| f.write_all(bytes))
}

/// Opens `path` for appending (see [`Dir::open_append`]); the directory is created (mode
/// `dir_mode`, parents too) when missing.
pub fn open_append(path: &Path, mode: u32, dir_mode: u32) -> Result<File> {
    let (dir, name) = split(path)?;
    if matches!(
        rfs::statat(rfs::CWD, &dir, AtFlags::empty()),
        Err(rustix::io::Errno::NOENT)
    ) {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(dir_mode)
            .create(&dir)
            .map_err(|e| io_err("creating directory", &dir, e))?;
    }
    Dir::open(&dir)?.open_append(&name, mode).map(|(f, _)| f)
}

/// What [`preflight_output`] checks an output path against.
#[derive(Debug, Clone, Default)]
pub struct Preflight<'a> {
    /// `--force`: an existing file (or symlink) at the name will be replaced.
    pub replace: bool,
    /// The job's other files (`("audit log", path)`, `("state file", path)`,
    /// `("signing key", path)`): the output must not be any of them.
    pub others: Vec<(&'a str, &'a Path)>,
}

/// Checks, before a job sends anything, that `path` can be written as an output: its
/// directory exists and is safe ([`Dir::open`]), a file can be created there (not a read-only
/// file system, not a directory the caller may not write), the file system has at least
/// `MIN_FREE_BYTES` free, the name is free (or `replace`), it is not a directory, and it is
/// not one of `others` (by name or by identity). Refusals are [`Refusal::UnsafeFile`] (exit 6).
pub fn preflight_output(path: &Path, p: &Preflight<'_>) -> Result<()> {
    let (dir_path, name) = split(path)?;
    let dir = Dir::open(&dir_path)?;
    if let Some(st) = dir.entry(&name)? {
        match file_type(&st) {
            FileType::RegularFile | FileType::Symlink => {}
            _ => {
                return Err(refuse(
                    path,
                    "is not a regular file (a directory or a device); name a file",
                ))
            }
        }
        match file_type(&st) {
            FileType::Symlink if !p.replace => {
                return Err(refuse(
                    path,
                    "is a symbolic link; sgctl does not write through links (--force replaces \
                     the link itself, not its target)",
                ))
            }
            _ if !p.replace => return Err(exists(path)),
            _ => {}
        }
    }
    for (what, other) in &p.others {
        if same_file(path, other) {
            return Err(refuse(
                path,
                format!(
                    "is the {what} of this job ({}); choose another name",
                    other.display()
                ),
            ));
        }
    }
    // Can a file be created there? (EROFS, EACCES, a directory without write permission.)
    let probe = temp_name(&name)?;
    match rfs::openat(
        &dir.fd,
        probe.as_os_str(),
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    ) {
        Ok(fd) => {
            drop(fd);
            let _ = rfs::unlinkat(&dir.fd, probe.as_os_str(), AtFlags::empty());
        }
        Err(rustix::io::Errno::ROFS) => {
            return Err(refuse(path, "the file system is read-only"));
        }
        Err(rustix::io::Errno::ACCESS) | Err(rustix::io::Errno::PERM) => {
            return Err(refuse(path, "the directory is not writable by you"));
        }
        Err(e) => {
            return Err(refuse(
                path,
                format!("no file can be created in its directory ({e})"),
            ))
        }
    }
    let vfs = rfs::fstatvfs(&dir.fd).map_err(|e| io_err("checking", &dir_path, e))?;
    let free = vfs.f_bavail.saturating_mul(vfs.f_frsize);
    if free < MIN_FREE_BYTES {
        return Err(refuse(
            path,
            format!("the file system is full ({free} bytes free)"),
        ));
    }
    Ok(())
}

/// Whether `a` and `b` name the same file: the same name in the same directory (by the
/// directory's identity), or, when both exist, the same inode (links, symlinks).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    let key = |p: &Path| -> Option<(u64, u64, OsString)> {
        let (d, n) = split(p).ok()?;
        let st = rfs::stat(&d).ok()?;
        Some((st.st_dev, st.st_ino, n))
    };
    if let (Some(x), Some(y)) = (key(a), key(b)) {
        if x == y {
            return true;
        }
    }
    match (rfs::stat(a), rfs::stat(b)) {
        (Ok(x), Ok(y)) => x.st_dev == y.st_dev && x.st_ino == y.st_ino,
        _ => false,
    }
}

/// The 32-byte limit of a TCG C_PIN credential (TCG Storage Architecture Core Specification,
/// C_PIN table: PIN is `bytes_32`).
pub const MAX_CREDENTIAL_BYTES: usize = 32;

/// Reads a secret (PIN, PSID) file as bytes: the file (symlinks followed: the path is the
/// caller's) must be a regular file or a pipe, owned by the caller and not accessible by group
/// or others; at most `max` bytes after one trailing `\n` or `\r\n` is removed. Nothing of the
/// content ever reaches an error message.
pub fn read_secret(path: &Path, what: &str, max: usize) -> Result<zeroize::Zeroizing<Vec<u8>>> {
    let bad = |reason: String| -> Error {
        Invalid::SecretFile {
            what: what.to_string(),
            path: path.display().to_string(),
            reason,
        }
        .into()
    };
    let fd = rfs::openat(
        rfs::CWD,
        path,
        OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    )
    .map_err(|e| io_err(&format!("reading the {what} file"), path, e))?;
    let st = rfs::fstat(&fd).map_err(|e| io_err("checking", path, e))?;
    match file_type(&st) {
        FileType::RegularFile | FileType::Fifo => {}
        _ => return Err(bad("not a regular file".into())),
    }
    if st.st_uid != euid() {
        return Err(bad(format!(
            "belongs to uid {}, not to you (uid {}); a credential file must be your own",
            st.st_uid,
            euid()
        )));
    }
    let m = mode_bits(&st);
    if m & 0o077 != 0 {
        return Err(bad(format!(
            "is accessible by group or others (mode {m:o}); run chmod 600"
        )));
    }
    if file_type(&st) == FileType::Fifo {
        // Blocking reads from a pipe (a shell's process substitution).
        let fl = rfs::fcntl_getfl(&fd).map_err(|e| io_err("reading", path, e))?;
        rfs::fcntl_setfl(&fd, fl - OFlags::NONBLOCK).map_err(|e| io_err("reading", path, e))?;
    }
    // Room for everything `take` lets through, so the buffer never grows (a reallocation
    // would leave a copy of the secret behind, unwiped).
    let mut buf = zeroize::Zeroizing::new(Vec::with_capacity(max + 8));
    File::from(fd)
        .take(max as u64 + 3)
        .read_to_end(&mut buf)
        .map_err(|e| io_err(&format!("reading the {what} file"), path, e))?;
    if buf.ends_with(b"\r\n") {
        let n = buf.len() - 2;
        buf.truncate(n);
    } else if buf.ends_with(b"\n") {
        let n = buf.len() - 1;
        buf.truncate(n);
    }
    if buf.len() > max {
        return Err(bad(format!("longer than {max} bytes")));
    }
    if buf.is_empty() {
        return Err(bad("empty".into()));
    }
    Ok(buf)
}

/// Reads an input file the user names (a firmware image): the last component is not
/// followed if it is a symbolic link (`O_NOFOLLOW`), the file must be a regular file, and its
/// size is checked against `max` before anything is read; the buffer is sized by what
/// `fstat` says and never grows beyond `max`. A file that changes size while read is refused.
pub fn read_input(path: &Path, what: &str, max: u64) -> Result<Vec<u8>> {
    let bad = |reason: String| -> Error {
        Invalid::InputFile {
            what: what.to_string(),
            path: path.display().to_string(),
            reason,
        }
        .into()
    };
    let fd = match rfs::openat(
        rfs::CWD,
        path,
        OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOFOLLOW,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::LOOP) => {
            return Err(bad("is a symbolic link: name the file it points to".into()))
        }
        Err(e) => return Err(io_err(&format!("reading the {what}"), path, e)),
    };
    let st = rfs::fstat(&fd).map_err(|e| io_err("checking", path, e))?;
    if file_type(&st) != FileType::RegularFile {
        return Err(bad("not a regular file".into()));
    }
    let size = u64::try_from(st.st_size).unwrap_or(0);
    if size == 0 {
        return Err(bad("empty".into()));
    }
    if size > max {
        return Err(bad(format!(
            "{size} bytes, more than the {max} this accepts"
        )));
    }
    let mut buf = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    File::from(fd)
        .take(size.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| io_err(&format!("reading the {what}"), path, e))?;
    if buf.len() as u64 != size {
        return Err(bad(format!(
            "changed while read ({size} bytes, then {})",
            buf.len()
        )));
    }
    Ok(buf)
}

#[cfg(test)]
mod tests;
