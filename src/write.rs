//! The only code that touches the output folder.
//!
//! A build owns the files it lists in `.wellgen-manifest`; nothing else in the folder is read,
//! changed or removed (except wellgen's marked section of `_headers`). Every new file is first
//! staged next to its destination; only when all are staged are they renamed into place, so an
//! error leaves the folder as it was.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::emit::Artifact;
use crate::emit::section::{self, Placement};

pub const MANIFEST: &str = ".wellgen-manifest";
const MANIFEST_HEAD: &str =
    "# Files written by wellgen; the next build replaces or removes exactly these.";

#[derive(Debug)]
pub struct WriteError {
    pub message: String,
    pub help: Option<String>,
}

impl WriteError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

fn io(context: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> WriteError {
    move |e| WriteError::new(format!("{context}: {}", crate::source::io_reason(&e)))
}

/// What a successful write changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub written: usize,
    pub unchanged: usize,
    pub removed: Vec<String>,
}

/// Writes `artifacts` into `out`, replacing the previous build's files and removing those it
/// no longer produces. `source_dir` is refused as an output folder.
pub fn write(
    out: &Path,
    artifacts: &[Artifact],
    source_dir: Option<&Path>,
) -> Result<Report, WriteError> {
    refuse_dangerous_root(out, source_dir)?;
    let previous = read_manifest(out)?;
    let mut staged = Staged::default();
    let result = stage_all(out, artifacts, &previous, &mut staged);
    match result {
        Ok(mut report) => {
            staged.commit()?;
            let current: BTreeSet<String> = artifacts.iter().map(|a| a.path.clone()).collect();
            for stale in previous.difference(&current) {
                remove_owned(out, stale)?;
                report.removed.push(stale.clone());
            }
            write_manifest(out, &current)?;
            Ok(report)
        }
        Err(e) => {
            staged.abort();
            Err(e)
        }
    }
}

fn stage_all(
    out: &Path,
    artifacts: &[Artifact],
    previous: &BTreeSet<String>,
    staged: &mut Staged,
) -> Result<Report, WriteError> {
    if !out.exists() {
        staged.create_dir_all(out)?;
    }
    let root = out
        .canonicalize()
        .map_err(io(format!("cannot open {}", out.display())))?;
    let mut report = Report::default();
    let mut inside = BTreeSet::new();
    for a in artifacts {
        let dest = destination(&root, &a.path, &mut inside)?;
        let body = if let Some(placement) = section::placement(&a.path) {
            merged_section(&dest, &a.body, placement)?
        } else {
            if dest.exists() && !previous.contains(&a.path) {
                return Err(WriteError::new(format!(
                    "{} exists and was not written by wellgen; refusing to replace it",
                    dest.display()
                ))
                .help("move or delete it, or choose another output folder with --out"));
            }
            a.body.clone()
        };
        if fs::read(&dest).is_ok_and(|old| old == body) {
            report.unchanged += 1;
            continue;
        }
        staged.file(&root, &dest, &body)?;
        report.written += 1;
    }
    Ok(report)
}

/// The file for a URL path, checked to stay inside `root` even through existing symlinks.
/// `inside` remembers folders already found to resolve inside `root`, so that each is
/// canonicalised once per build rather than once per file.
fn destination(
    root: &Path,
    url_path: &str,
    inside: &mut BTreeSet<PathBuf>,
) -> Result<PathBuf, WriteError> {
    let rel = Path::new(url_path.trim_start_matches('/'));
    let safe = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !safe || rel.as_os_str().is_empty() {
        return Err(WriteError::new(format!(
            "refusing to write `{url_path}`: not a plain path"
        )));
    }
    let dest = root.join(rel);
    // Every existing ancestor must resolve inside the output folder.
    let mut ancestor = dest.parent();
    while let Some(dir) = ancestor {
        if inside.contains(dir) {
            break;
        }
        if dir.exists() {
            let real = dir
                .canonicalize()
                .map_err(io(format!("cannot open {}", dir.display())))?;
            if !real.starts_with(root) {
                return Err(WriteError::new(format!(
                    "refusing to write {}: {} leads outside the output folder",
                    dest.display(),
                    dir.display()
                )));
            }
            inside.insert(dir.to_path_buf());
            break;
        }
        ancestor = dir.parent();
    }
    if dest.is_symlink() {
        return Err(WriteError::new(format!(
            "refusing to write {}: it is a symbolic link",
            dest.display()
        )));
    }
    Ok(dest)
}

fn merged_section(dest: &Path, ours: &[u8], placement: Placement) -> Result<Vec<u8>, WriteError> {
    let ours = String::from_utf8_lossy(ours);
    let existing = match fs::read_to_string(dest) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(format!("cannot read {}", dest.display()))(e)),
    };
    section::merge(&existing, &ours, placement)
        .map(String::into_bytes)
        .map_err(|e| WriteError::new(format!("cannot update {}: {e}", dest.display())))
}

fn refuse_dangerous_root(out: &Path, source_dir: Option<&Path>) -> Result<(), WriteError> {
    let real = out.canonicalize().ok();
    let real = real.as_deref().unwrap_or(out);
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .and_then(|h| h.canonicalize().ok());
    let source = source_dir.and_then(|s| s.canonicalize().ok());
    let why = if real.parent().is_none() {
        Some("the file system root")
    } else if home.as_deref() == Some(real) {
        Some("your home folder")
    } else if source.as_deref() == Some(real) {
        Some("the folder of the source file")
    } else {
        None
    };
    match why {
        Some(why) => Err(WriteError::new(format!(
            "refusing to write into {} ({why})",
            out.display()
        ))
        .help("choose an output folder with --out, e.g. `--out dist`")),
        None => Ok(()),
    }
}

fn read_manifest(out: &Path) -> Result<BTreeSet<String>, WriteError> {
    let path = out.join(MANIFEST);
    match fs::read_to_string(&path) {
        Ok(text) => Ok(text
            .lines()
            .filter(|l| l.starts_with('/'))
            .map(str::to_string)
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeSet::new()),
        Err(e) => Err(io(format!("cannot read {}", path.display()))(e)),
    }
}

fn write_manifest(out: &Path, files: &BTreeSet<String>) -> Result<(), WriteError> {
    let mut text = String::from(MANIFEST_HEAD);
    text.push('\n');
    for f in files {
        text.push_str(f);
        text.push('\n');
    }
    let dest = out.join(MANIFEST);
    if fs::read(&dest).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    let mut staged = Staged::default();
    staged.file(out, &dest, text.as_bytes())?;
    staged.commit()
}

/// Removes a file wellgen wrote earlier; for merged host files, only wellgen's section.
fn remove_owned(out: &Path, url_path: &str) -> Result<(), WriteError> {
    let root = out
        .canonicalize()
        .map_err(io(format!("cannot open {}", out.display())))?;
    let dest = destination(&root, url_path, &mut BTreeSet::new())?;
    if let Some(placement) = section::placement(url_path) {
        let text = fs::read_to_string(&dest).unwrap_or_default();
        let rest = section::merge(&text, "", placement).unwrap_or(text);
        if rest.trim().is_empty() {
            return remove_file(&dest, &root);
        }
        let mut staged = Staged::default();
        staged.file(&root, &dest, rest.trim_end().as_bytes())?;
        return staged.commit();
    }
    remove_file(&dest, &root)
}

fn remove_file(dest: &Path, root: &Path) -> Result<(), WriteError> {
    match fs::remove_file(dest) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(format!("cannot remove {}", dest.display()))(e)),
    }
    // Tidy folders the removal emptied, never above the output folder.
    let mut dir = dest.parent();
    while let Some(d) = dir {
        if d == root || fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}

/// Temporary files are created private (0600); published files must be readable by the web
/// server, as a plain `cp` would leave them.
#[cfg(unix)]
fn publishable(f: &fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn publishable(_: &fs::File) -> std::io::Result<()> {
    Ok(())
}

/// Temporary files waiting to be renamed over their destinations, and folders created for them.
#[derive(Default)]
struct Staged {
    files: Vec<(tempfile::TempPath, PathBuf)>,
    dirs: Vec<PathBuf>,
}

impl Staged {
    fn create_dir_all(&mut self, dir: &Path) -> Result<(), WriteError> {
        let mut missing = Vec::new();
        let mut d = Some(dir);
        while let Some(p) = d {
            if p.as_os_str().is_empty() || p.exists() {
                break;
            }
            missing.push(p.to_path_buf());
            d = p.parent();
        }
        for p in missing.into_iter().rev() {
            match fs::create_dir(&p) {
                Ok(()) => self.dirs.push(p),
                // A parallel batch build made it first: it is theirs to keep.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && p.is_dir() => {}
                Err(e) => return Err(io(format!("cannot create {}", p.display()))(e)),
            }
        }
        Ok(())
    }

    fn file(&mut self, root: &Path, dest: &Path, body: &[u8]) -> Result<(), WriteError> {
        let dir = dest.parent().unwrap_or(root);
        self.create_dir_all(dir)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".wellgen-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(io(format!("cannot write in {}", dir.display())))?;
        // No fsync: the output is regenerated by running the build again, and syncing each
        // file cost more than everything else in a batch build (docs/PERFORMANCE.md). The
        // rename still makes every file appear whole or not at all to readers.
        tmp.write_all(body)
            .and_then(|()| publishable(tmp.as_file()))
            .map_err(io(format!("cannot write {}", dest.display())))?;
        self.files.push((tmp.into_temp_path(), dest.to_path_buf()));
        Ok(())
    }

    fn commit(self) -> Result<(), WriteError> {
        for (tmp, dest) in self.files {
            tmp.persist(&dest)
                .map_err(|e| io(format!("cannot write {}", dest.display()))(e.error))?;
        }
        Ok(())
    }

    /// Drops the temporary files (their `TempPath`s delete them) and the folders made for them.
    fn abort(self) {
        drop(self.files);
        for d in self.dirs.iter().rev() {
            let _ = fs::remove_dir(d);
        }
    }
}
