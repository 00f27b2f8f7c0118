//! The only code that touches the output folder.
//!
//! A build owns the files it lists in `.wellgen-manifest`, each with the SHA-256 of the bytes it
//! wrote; nothing else in the folder is read, changed or removed (except wellgen's marked section
//! of `_headers` and `_redirects`). A file is replaced or removed only while it still has the
//! recorded hash, so neither a hand-edited output file nor a tampered manifest can make wellgen
//! destroy something it did not write.
//!
//! Every new file is first staged next to its destination under a name fixed by that
//! destination (`.wellgen-<name>.tmp`). A journal (`.wellgen-journal`) lists the plan before any
//! staged file exists and is switched, in one atomic rename, from `stage` to `commit` once every
//! file is staged. The next run (see [`recover`]) undoes a journal left in the `stage` state and
//! finishes one left in the `commit` state, so a build killed at any point leaves, after that
//! run, either the old output or the new one and never a mix, and no temporary files.
//!
//! Where the folder holds only wellgen's files, a build on Linux instead stages the whole new
//! output in a sibling folder and swaps the two at once ([`swap`]): never a mix even before the
//! next run.
//!
//! A build holds an exclusive advisory lock (`flock`) on the output folder, and on the staged
//! sibling that takes its place, from before [`recover`] until its last write: a second build
//! into the same folder is refused rather than mixed with the first.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::emit::Artifact;
use crate::emit::hosts::section::{self, Placement};
use crate::emit::hosts::{self, Merge};

pub const MANIFEST: &str = ".wellgen-manifest";
pub const JOURNAL: &str = ".wellgen-journal";
const MANIFEST_HEAD: &str = "# Files written by wellgen and the SHA-256 of what it wrote; the next build replaces \
     or removes exactly these, and only while they are unchanged.\n# Folders wellgen created \
     (`/path/ folder`): removed once a removal leaves one empty, no other folder ever.";
const JOURNAL_HEAD: &str =
    "# A wellgen build in progress; the next build finishes or undoes it. Do not edit.";
/// The manifest's mark for a host file of which wellgen owns only a marked section.
const SECTION: &str = "section";
/// The manifest's mark for a folder wellgen created.
const FOLDER: &str = "folder";
/// The manifest's mark for a member wellgen created in a host file of entries
/// (`/vercel.json#/headers member`, the file and a JSON Pointer to the member).
const MEMBER: &str = "member";
/// Said once, after the head, in a manifest that records members. Not part of the head: a
/// wellgen that does not know a head takes the manifest for one from before folders were
/// recorded, and a build that creates no member writes the very manifest it wrote before.
const MEMBERS_NOTE: &str = "# Members wellgen created in a host file it merges into \
     (`/vercel.json#/headers member`): taken out with wellgen's entries; a member the site wrote \
     stays, even empty.";

#[derive(Debug)]
pub struct WriteError {
    pub message: String,
    pub help: Option<String>,
    /// The error came after the commit point: the journal stays and the next build finishes
    /// the write, so the folder is not "unchanged".
    pub pending: bool,
}

impl WriteError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            help: None,
            pending: false,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

fn io(context: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> WriteError {
    move |e| WriteError::new(format!("{context}: {}", crate::diag::io_reason(&e)))
}

/// What a successful write changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub written: usize,
    pub unchanged: usize,
    pub removed: Vec<String>,
    /// Files of the previous build left in place, each with the reason (printed as warnings).
    pub kept: Vec<String>,
    /// Host files the site has its own of (`/404.html`, `/.nojekyll`), which replace wellgen's
    /// default: the right outcome, said in a note.
    pub site_files: Vec<String>,
    /// What was done about a build interrupted earlier, if one was.
    pub recovered: Option<Recovered>,
}

/// What [`recover`] did with a journal left by an interrupted build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovered {
    /// It was killed while staging: its temporary files were removed; the old output stands.
    Undone,
    /// It was killed while renaming: the remaining renames were done; the new output stands.
    Finished,
}

/// Builds with at least this many files hash them, read what their places hold, and write them
/// on every core.
const PARALLEL_FROM: usize = 64;

/// The threads for `files` files: one for a small build, where starting threads costs more
/// than it saves.
fn file_workers(files: usize) -> usize {
    if files >= PARALLEL_FROM {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    }
}

/// The SHA-256 of `bytes` as the manifest writes it (`sha256:<hex>`).
pub fn content_hash(bytes: &[u8]) -> String {
    crate::text::sha256_digest(bytes)
}

/// Writes `artifacts` into `out`, replacing the previous build's files and removing those it
/// no longer produces. Each of `source_dirs` is refused as an output folder.
pub fn write(
    out: &Path,
    artifacts: &[Artifact],
    source_dirs: &[&Path],
) -> Result<Report, WriteError> {
    refuse_dangerous_root(out, source_dirs)?;
    let created_root = !out.exists();
    if created_root {
        fs::create_dir_all(out).map_err(io(format!("cannot create {}", out.display())))?;
    }
    let _lock = lock_folder(out)?;
    let recovered = recover(out)?;
    let root = out
        .canonicalize()
        .map_err(io(format!("cannot open {}", out.display())))?;
    let mut journal = Journal::default();
    let result = plan(&root, artifacts).and_then(|plan| {
        if plan.changes() && owns_whole(&root, &plan.previous) && swap::write(&root, &plan.files)? {
            return Ok((plan.report, true));
        }
        let bodies: Vec<(PathBuf, Arc<Vec<u8>>)> = plan
            .files
            .into_iter()
            .filter(|(_, _, changed)| *changed)
            .map(|(dest, body, _)| (dest, body))
            .collect();
        journal.removes = plan.removes;
        journal.tidy = plan.tidy;
        journal.plan(&root, &bodies)?;
        journal.make_dirs()?;
        crate::parallel::map_here(&bodies, file_workers(bodies.len()), |(dest, body)| {
            Journal::stage(dest, body)
        })
        .into_iter()
        .collect::<Result<(), _>>()?;
        Ok((plan.report, false))
    });
    match result {
        Ok((mut report, swapped)) => {
            report.recovered = recovered;
            if !swapped {
                journal.commit(&root).map_err(|e| WriteError {
                    pending: true,
                    ..e.help(format!(
                        "the plan is kept in {JOURNAL}; the next build finishes it once the cause is fixed"
                    ))
                })?;
            }
            Ok(report)
        }
        Err(e) if e.pending => Err(e),
        Err(e) => {
            journal.undo(&root);
            if created_root {
                let _ = fs::remove_dir(&root);
            }
            Err(e)
        }
    }
}

/// What a build will write: every file of the new output (with whether it differs from what is
/// there), the stale files to remove, and the previous manifest.
struct Plan {
    report: Report,
    files: Vec<(PathBuf, Arc<Vec<u8>>, bool)>,
    removes: Vec<(PathBuf, String)>,
    /// The folders wellgen created, by the previous manifest and this build: the only ones a
    /// removal may take away once empty.
    tidy: Vec<PathBuf>,
    previous: Manifest,
}

impl Plan {
    fn changes(&self) -> bool {
        self.files.iter().any(|(_, _, changed)| *changed) || !self.removes.is_empty()
    }
}

fn plan(root: &Path, artifacts: &[Artifact]) -> Result<Plan, WriteError> {
    let previous = read_manifest(root)?;
    let mut report = Report::default();
    report.kept.extend(previous.ignored.iter().cloned());
    let mut files: Vec<(PathBuf, Arc<Vec<u8>>, bool)> = Vec::new();
    let mut removes = Vec::new();
    let mut manifest: BTreeMap<String, String> = BTreeMap::new();
    // The members this build created, or keeps, in each host file of entries.
    let mut members: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut clashes: Vec<String> = Vec::new();
    let mut destinations = Destinations::new(root);
    // Each error is met in artifact order, as it would be one file at a time.
    let dests: Vec<Result<PathBuf, WriteError>> = artifacts
        .iter()
        .map(|a| destinations.folder_checked(&a.path))
        .collect();
    // Hashing a large API's tens of megabytes, and looking at and reading what is at each
    // place now, are the plan's dearest steps: on every core. Their outcomes are taken in
    // artifact order below.
    let pairs: Vec<(&Artifact, Option<&PathBuf>)> = artifacts
        .iter()
        .zip(&dests)
        .map(|(a, d)| (a, d.as_ref().ok()))
        .collect();
    let found = crate::parallel::map_here(&pairs, file_workers(artifacts.len()), |(a, dest)| {
        let Some(dest) = dest else {
            return (Ok(()), None);
        };
        let meta = dest.symlink_metadata().ok();
        if meta.as_ref().is_some_and(fs::Metadata::is_symlink) {
            return (Err(symbolic_link(dest)), None);
        }
        (Ok(()), owned_file(a, dest, meta.as_ref(), &previous))
    });
    for ((a, dest), (link, owned)) in artifacts.iter().zip(dests).zip(found) {
        let dest = dest?;
        link?;
        let merge = hosts::merge_of(&a.path);
        let body: Arc<Vec<u8>> = if let Merge::Section(placement) = merge {
            manifest.insert(a.path.clone(), SECTION.into());
            let merged = merged_section(&dest, &a.body, placement)?;
            if a.path == hosts::headers::PATH {
                report
                    .kept
                    .extend(hosts::headers::overlaps(&String::from_utf8_lossy(&merged)));
            }
            merged.into()
        } else if matches!(merge, Merge::VercelJson | Merge::RoutesJson) {
            manifest.insert(a.path.clone(), SECTION.into());
            let merged = merged_entries(merge, &dest, &a.body, &previous)?;
            members.insert(a.path.clone(), merged.created);
            merged.text.into_bytes().into()
        } else {
            let Some(owned) = owned else {
                unreachable!("`owned_file` looks at every file wellgen owns")
            };
            let (hash, changed) = match owned? {
                Owned::SitesOwn => {
                    // A site's own 404.html (or .nojekyll) wins over wellgen's default.
                    report.site_files.push(a.path.clone());
                    continue;
                }
                Owned::Found(_, Existing::Taken(clash)) => {
                    // Every clash of the build is reported at once; nothing is written.
                    clashes.push(clash);
                    continue;
                }
                Owned::Found(hash, Existing::Same) => (hash, false),
                Owned::Found(hash, Existing::Replaced) => (hash, true),
            };
            manifest.insert(a.path.clone(), hash);
            if changed {
                report.written += 1;
            } else {
                report.unchanged += 1;
            }
            files.push((dest, a.body.clone(), changed));
            continue;
        };
        if is_regular_file(&dest) && fs::read(&dest).is_ok_and(|old| *old == *body) {
            report.unchanged += 1;
            files.push((dest, body, false));
            continue;
        }
        files.push((dest, body, true));
        report.written += 1;
    }
    if !clashes.is_empty() {
        return Err(refused(root, &clashes));
    }
    for (stale, recorded) in &previous.entries {
        if manifest.contains_key(stale) {
            continue;
        }
        match plan_removal(root, stale, recorded, &previous) {
            Ok(Some(step)) => {
                match step {
                    Removal::Delete(dest, hash) => removes.push((dest, hash)),
                    Removal::Rewrite(dest, body) => files.push((dest, body.into(), true)),
                }
                report.removed.push(stale.clone());
            }
            Ok(None) => {}
            Err(why) => report.kept.push(why),
        }
    }
    // The folders wellgen created: those the previous build recorded (or, from a manifest
    // older than the record, adopted), and those this build creates. The manifest keeps the
    // ones that still hold a file of this build.
    let recorded: BTreeSet<&str> = previous.folders.iter().map(String::as_str).collect();
    let mut created: BTreeSet<String> = BTreeSet::new();
    let mut seen: HashSet<&Path> = HashSet::new();
    for (dest, _, _) in &files {
        let mut dir = dest.parent();
        while let Some(d) = dir {
            // A folder seen is seen with its ancestors.
            if d == root || !d.starts_with(root) || !seen.insert(d) {
                break;
            }
            let rel = url_of(root, d);
            if recorded.contains(rel.as_str()) || d.symlink_metadata().is_err() {
                created.insert(rel);
            }
            dir = d.parent();
        }
    }
    let tidy: Vec<PathBuf> = recorded
        .iter()
        .map(|r| r.to_string())
        .chain(created.iter().cloned())
        .collect::<BTreeSet<String>>()
        .iter()
        .filter_map(|r| destination(root, r).ok())
        .collect();
    let mut listing: BTreeMap<String, &str> = manifest
        .iter()
        .map(|(path, hash)| (path.clone(), hash.as_str()))
        .collect();
    for folder in &created {
        listing.insert(format!("{folder}/"), FOLDER);
    }
    for (file, names) in &members {
        for name in names {
            listing.insert(format!("{file}#/{name}"), MEMBER);
        }
    }
    let mut text = String::from(MANIFEST_HEAD);
    text.push('\n');
    if members.values().any(|names| !names.is_empty()) {
        text.push_str(MEMBERS_NOTE);
        text.push('\n');
    }
    for (path, hash) in &listing {
        text.push_str(&format!("{path} {hash}\n"));
    }
    let manifest_path = root.join(MANIFEST);
    let same = is_regular_file(&manifest_path)
        && fs::read(&manifest_path).is_ok_and(|old| old == text.as_bytes());
    // Last, so that the manifest changes only once every file it lists is in place.
    files.push((manifest_path, text.into_bytes().into(), !same));
    Ok(Plan {
        report,
        files,
        removes,
        tidy,
        previous,
    })
}

/// The URL path of `path` inside `root` (`/a/b`).
fn url_of(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    format!("/{}", parts.join("/"))
}

/// Whether every file in `root` is wellgen's, by the manifest: listed with the hash it still
/// has (or, for a host file, nothing but wellgen's section), the manifest itself, and folders
/// that hold such files. Only such a folder may be swapped whole for a new one: nothing of the
/// user's is in the old folder that the swap would take away.
fn owns_whole(root: &Path, previous: &Manifest) -> bool {
    fn walk(root: &Path, dir: &Path, previous: &Manifest) -> Option<usize> {
        let mut count = 0;
        for entry in fs::read_dir(dir).ok()? {
            let path = entry.ok()?.path();
            let meta = path.symlink_metadata().ok()?;
            if meta.is_dir() {
                // An empty folder, or one wellgen did not create, is not known to be wellgen's.
                if !previous.folders.contains(&url_of(root, &path)) {
                    return None;
                }
                count += walk(root, &path, previous).filter(|n| *n > 0)?;
                continue;
            }
            let rel = format!("/{}", path.strip_prefix(root).ok()?.to_str()?);
            if !meta.is_file()
                || !(rel == format!("/{MANIFEST}") || wellgens(&rel, &path, previous))
            {
                return None;
            }
            count += 1;
        }
        Some(count)
    }
    fn wellgens(rel: &str, path: &Path, previous: &Manifest) -> bool {
        let Some(recorded) = previous.entries.get(rel) else {
            return false;
        };
        let Ok(now) = fs::read(path) else {
            return false;
        };
        match hosts::merge_of(rel) {
            _ if recorded != SECTION => content_hash(&now) == *recorded,
            merge @ (Merge::VercelJson | Merge::RoutesJson) => hosts::merge_entries(
                merge,
                &String::from_utf8_lossy(&now),
                "",
                &previous.owned_by(rel),
                &previous.created_in(rel),
            )
            .is_ok_and(|rest| rest.text.trim().is_empty()),
            Merge::Section(placement) => {
                section::merge(&String::from_utf8_lossy(&now), "", placement)
                    .is_ok_and(|rest| rest.trim().is_empty())
            }
            _ => false,
        }
    }
    swap::SUPPORTED && walk(root, root, previous).is_some()
}

/// A file wellgen owns whole (not a host file it merges into), as the plan finds it.
enum Owned {
    /// A default (`404.html`) where the site has its own: the site's wins.
    SitesOwn,
    /// Its content hash, and what is at its place now.
    Found(String, Existing),
}

/// What the plan makes of artifact `a`, to be written at `dest`: `None` for a host file
/// wellgen merges into, which the plan reads in order.
/// `meta` is what is at `dest` now (not followed if a link).
fn owned_file(
    a: &Artifact,
    dest: &Path,
    meta: Option<&fs::Metadata>,
    previous: &Manifest,
) -> Option<Result<Owned, WriteError>> {
    let merge = hosts::merge_of(&a.path);
    if !matches!(merge, Merge::Owned | Merge::Default) {
        return None;
    }
    if merge == Merge::Default && meta.is_some() && !previous.entries.contains_key(&a.path) {
        return Some(Ok(Owned::SitesOwn));
    }
    let hash = content_hash(&a.body);
    Some(existing(dest, meta, &a.path, &a.body, &hash, previous).map(|e| Owned::Found(hash, e)))
}

/// What a build finds where it writes one of its documents. An existing file may be replaced
/// only if the previous build wrote it and it still has the bytes that build wrote; a line of
/// an older manifest without a hash is accepted only when the file already holds exactly the
/// new bytes (nothing is replaced then).
enum Existing {
    /// The very bytes it would write, recorded as wellgen's: nothing to do.
    Same,
    /// Nothing, or the previous build's file, which the new one replaces.
    Replaced,
    /// Something it must not replace: why, and how to resolve it.
    Taken(String),
}

/// What is at `dest`, where the build writes `body` (whose hash is `hash`). The file is read
/// once: whether it is the previous build's and whether it already holds `body`.
fn existing(
    dest: &Path,
    meta: Option<&fs::Metadata>,
    url_path: &str,
    body: &[u8],
    hash: &str,
    previous: &Manifest,
) -> Result<Existing, WriteError> {
    let Some(meta) = meta else {
        return Ok(Existing::Replaced);
    };
    let recorded = previous.entries.get(url_path);
    let why = match recorded {
        None if meta.is_dir() => "is the site's own folder",
        None => "is the site's own",
        Some(_) if !meta.is_file() => "is not a regular file",
        Some(recorded) => {
            let cannot_read = || io(format!("cannot read {}", dest.display()));
            if meta.len() == body.len() as u64
                && (recorded == hash || recorded.is_empty())
                && holds(dest, body).map_err(cannot_read())?
            {
                return Ok(Existing::Same);
            }
            let now = fs::read(dest).map_err(cannot_read())?;
            if content_hash(&now) == *recorded {
                return Ok(Existing::Replaced);
            }
            if recorded.starts_with("sha256:") {
                "was changed since wellgen wrote it"
            } else {
                "has no content hash in the manifest"
            }
        }
    };
    let mut fix = match crate::emit::publish::switch_for(url_path) {
        Some(switch) => format!("to keep it, {switch}"),
        None => "to keep it, build into another folder with --out".into(),
    };
    if recorded.is_some() && meta.is_file() {
        // wellgen's own file, edited: giving it back is the user's call, not a default.
        fix.push_str("; or, to have wellgen write it again, delete it");
    }
    Ok(Existing::Taken(format!("{} {why}; {fix}", dest.display())))
}

/// Whether the file at `path` holds exactly `body`. It is read a piece at a time into a buffer
/// each thread keeps: an unchanged build of a large API reads tens of megabytes it would
/// otherwise copy into fresh memory only to compare and free.
fn holds(path: &Path, body: &[u8]) -> std::io::Result<bool> {
    use std::io::Read as _;
    const PIECE: usize = 64 * 1024;
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut file = fs::File::open(path)?;
    BUFFER.with_borrow_mut(|buffer| {
        buffer.resize(PIECE, 0);
        let mut at = 0;
        loop {
            let n = match file.read(buffer) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                return Ok(at == body.len());
            }
            if body.get(at..at + n) != Some(&buffer[..n]) {
                return Ok(false);
            }
            at += n;
        }
    })
}

/// The error for every clash of a build, all at once.
fn refused(root: &Path, clashes: &[String]) -> WriteError {
    let head = if clashes.len() == 1 {
        "a path wellgen would write is taken; nothing was written".to_string()
    } else {
        format!(
            "{} paths wellgen would write are taken; nothing was written",
            clashes.len()
        )
    };
    let mut message = head;
    for c in clashes {
        message.push_str(&format!("\n  {c}"));
    }
    WriteError::new(message).help(format!(
        "wellgen never replaces what it did not write in {}: leave it out with the switch named \
         for each, and the build writes everything else",
        root.display()
    ))
}

enum Removal {
    Delete(PathBuf, String),
    Rewrite(PathBuf, Vec<u8>),
}

/// How to remove a file the previous build listed; `Err` says why it is left in place.
fn plan_removal(
    root: &Path,
    url_path: &str,
    recorded: &str,
    previous: &Manifest,
) -> Result<Option<Removal>, String> {
    let kept = |why: &str| format!("{MANIFEST} lists `{url_path}`, but {why}; left in place");
    if root.join(url_path.trim_start_matches('/')).is_symlink() {
        return Err(kept("it is a symbolic link"));
    }
    let dest = destination(root, url_path).map_err(|e| kept(&e.message))?;
    let Ok(meta) = dest.symlink_metadata() else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Err(kept("it is not a regular file"));
    }
    let now = fs::read(&dest).map_err(|e| kept(&crate::diag::io_reason(&e)))?;
    let merge = hosts::merge_of(url_path);
    let merged = matches!(
        merge,
        Merge::VercelJson | Merge::RoutesJson | Merge::Section(_)
    );
    if merged && recorded != SECTION {
        return Err(kept("the manifest entry is damaged"));
    }
    if matches!(merge, Merge::VercelJson | Merge::RoutesJson) {
        let text = String::from_utf8_lossy(&now);
        let rest = hosts::merge_entries(
            merge,
            &text,
            "",
            &previous.owned_by(url_path),
            &previous.created_in(url_path),
        )
        .map_err(|e| kept(&e))?
        .text;
        return Ok(Some(if rest.trim().is_empty() {
            Removal::Delete(dest, content_hash(&now))
        } else {
            Removal::Rewrite(dest, rest.into_bytes())
        }));
    }
    if let Merge::Section(placement) = merge {
        let text = String::from_utf8_lossy(&now);
        let rest = section::merge(&text, "", placement).map_err(|e| kept(&e))?;
        return Ok(Some(if rest.trim().is_empty() {
            Removal::Delete(dest, content_hash(&now))
        } else {
            // The blank line that separated the section goes with it, whichever side it was on.
            Removal::Rewrite(dest, format!("{}\n", rest.trim_matches('\n')).into_bytes())
        }));
    }
    if !recorded.starts_with("sha256:") {
        return Err(kept("the manifest has no content hash for it"));
    }
    if content_hash(&now) != recorded {
        return Err(kept("it was changed since wellgen wrote it"));
    }
    Ok(Some(Removal::Delete(dest, recorded.to_string())))
}

/// Whether a URL path is one wellgen could have produced as a file: relative plain names only
/// (no `..`, no root, no drive, no backslash, no control characters), never wellgen's own
/// bookkeeping files.
pub fn plain_path(url_path: &str) -> bool {
    let Some(rel) = url_path.strip_prefix('/') else {
        return false;
    };
    !rel.is_empty()
        && !rel.contains(['\\', ':'])
        && !rel.chars().any(char::is_control)
        && rel
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
        && ![MANIFEST, JOURNAL].contains(&rel)
        && !rel
            .rsplit('/')
            .next()
            .is_some_and(|n| n.starts_with(".wellgen-"))
}

/// The file for a URL path, checked to stay inside `root` even through existing symlinks.
pub fn destination(root: &Path, url_path: &str) -> Result<PathBuf, WriteError> {
    Destinations::new(root).get(url_path)
}

/// [`destination`] for many paths: each folder's way out of `root` is checked once (a large
/// API's detail files share one folder, and resolving it took thousands of system calls).
struct Destinations<'a> {
    root: &'a Path,
    inside: HashSet<PathBuf>,
}

impl<'a> Destinations<'a> {
    fn new(root: &'a Path) -> Self {
        Self {
            root,
            inside: HashSet::new(),
        }
    }

    fn get(&mut self, url_path: &str) -> Result<PathBuf, WriteError> {
        let dest = self.folder_checked(url_path)?;
        if dest.is_symlink() {
            return Err(symbolic_link(&dest));
        }
        Ok(dest)
    }

    /// The file for `url_path`, its folder checked as [`Destinations::get`] does, but not the
    /// file itself: for a caller that looks at what is there anyway, or only at its folder.
    fn folder_checked(&mut self, url_path: &str) -> Result<PathBuf, WriteError> {
        if !plain_path(url_path) {
            return Err(WriteError::new(format!(
                "refusing to write `{}`: not a plain path inside the output folder",
                url_path.escape_debug()
            )));
        }
        let root = self.root;
        let dest = root.join(url_path.trim_start_matches('/'));
        let parent = dest.parent().unwrap_or(root);
        if !self.inside.contains(parent) {
            // Every existing ancestor must resolve inside the output folder.
            let mut ancestor = Some(parent);
            while let Some(dir) = ancestor {
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
                    break;
                }
                ancestor = dir.parent();
            }
            self.inside.insert(parent.to_path_buf());
        }
        Ok(dest)
    }
}

fn symbolic_link(dest: &Path) -> WriteError {
    WriteError::new(format!(
        "refusing to write {}: it is a symbolic link",
        dest.display()
    ))
}

fn merged_entries(
    merge: Merge,
    dest: &Path,
    ours: &[u8],
    previous: &Manifest,
) -> Result<hosts::Merged, WriteError> {
    let existing = read_host_file(dest)?;
    let url_path = format!(
        "/{}",
        dest.file_name().unwrap_or_default().to_string_lossy()
    );
    hosts::merge_entries(
        merge,
        &existing,
        &String::from_utf8_lossy(ours),
        &previous.owned_by(&url_path),
        &previous.created_in(&url_path),
    )
    .map_err(|e| WriteError::new(format!("cannot update {}: {e}", dest.display())))
}

fn is_regular_file(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|m| m.is_file())
}

/// An error if something other than a regular file is at `path`: reading a FIFO would block the
/// build forever, a device would be read without end.
fn refuse_special(path: &Path) -> Result<(), WriteError> {
    match path.symlink_metadata() {
        Ok(meta) if !meta.is_file() => Err(WriteError::new(format!(
            "cannot read {}: it is not a regular file",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// The site's own copy of a host file wellgen merges into: empty if there is none.
fn read_host_file(dest: &Path) -> Result<String, WriteError> {
    refuse_special(dest)?;
    match fs::read_to_string(dest) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(io(format!("cannot read {}", dest.display()))(e)),
    }
}

fn merged_section(dest: &Path, ours: &[u8], placement: Placement) -> Result<Vec<u8>, WriteError> {
    let ours = String::from_utf8_lossy(ours);
    let existing = read_host_file(dest)?;
    section::merge(&existing, &ours, placement)
        .map(String::into_bytes)
        .map_err(|e| WriteError::new(format!("cannot update {}: {e}", dest.display())))
}

/// Refuses an output folder that is the file system root, the home folder or a source folder.
pub fn refuse_dangerous_root(out: &Path, source_dirs: &[&Path]) -> Result<(), WriteError> {
    let real = resolve_to_be(out);
    let real = real.as_path();
    let why = if real.parent().is_none() {
        Some("the file system root")
    } else if home_folders().iter().any(|h| h == real) {
        Some("your home folder")
    } else if source_dirs
        .iter()
        .any(|s| s.canonicalize().is_ok_and(|s| s == real))
    {
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

/// The user's home folder, resolved: `$HOME` and the user database's entry for the current
/// user (which still names it when `HOME` is unset or points elsewhere).
fn home_folders() -> Vec<PathBuf> {
    let from_env = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let from_db = fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|db| home_in_passwd(&db, current_uid()?));
    let mut homes: Vec<PathBuf> = from_env
        .into_iter()
        .chain(from_db)
        .filter_map(|h| h.canonicalize().ok())
        .collect();
    homes.dedup();
    homes
}

#[cfg(target_os = "linux")]
fn current_uid() -> Option<u32> {
    Some(rustix::process::getuid().as_raw())
}

#[cfg(not(target_os = "linux"))]
fn current_uid() -> Option<u32> {
    None
}

/// The home folder of `uid` in passwd(5) text (`name:pw:uid:gid:gecos:home:shell`).
fn home_in_passwd(db: &str, uid: u32) -> Option<PathBuf> {
    db.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        match fields.as_slice() {
            [_, _, id, _, _, home, ..] if id.parse() == Ok(uid) && home.starts_with('/') => {
                Some(PathBuf::from(home))
            }
            _ => None,
        }
    })
}

/// Where `path` will be once its missing folders are made: its longest existing ancestor
/// resolved, the rest applied lexically (what does not exist yet holds no symlink), so that
/// `new/..` is seen to be the current folder before anything is created.
fn resolve_to_be(path: &Path) -> PathBuf {
    let parts: Vec<Component> = path.components().collect();
    for existing in (0..=parts.len()).rev() {
        let base: PathBuf = parts[..existing].iter().collect();
        let real = if base.as_os_str().is_empty() {
            std::env::current_dir()
        } else {
            base.canonicalize()
        };
        let Ok(mut real) = real else { continue };
        for part in &parts[existing..] {
            match part {
                Component::ParentDir => {
                    real.pop();
                }
                Component::Normal(name) => real.push(name),
                _ => {}
            }
        }
        return real;
    }
    path.to_path_buf()
}

/// The previous build's files as its manifest lists them; lines that name no file wellgen
/// could have written are ignored, each with a warning.
#[derive(Debug, Default)]
struct Manifest {
    entries: BTreeMap<String, String>,
    /// The folders wellgen created (`/a/b`, no trailing slash).
    folders: BTreeSet<String>,
    /// The members wellgen created in each host file of entries, by the file's URL path.
    members: BTreeMap<String, BTreeSet<String>>,
    ignored: Vec<String>,
}

impl Manifest {
    /// The entries wellgen owns in a host file of entries (`vercel.json`, `_routes.json`):
    /// those for its last build's documents, when that build wrote the file at all.
    fn owned_by(&self, host_file: &str) -> BTreeSet<String> {
        if self.entries.contains_key(host_file) {
            self.entries.keys().cloned().collect()
        } else {
            BTreeSet::new()
        }
    }

    /// The members wellgen created in a host file of entries, when its last build wrote the
    /// file. A manifest written before members were recorded names none: every member is then
    /// taken for the site's and stays. Taking a list wellgen created for the site's costs an
    /// empty list, which configures nothing on Vercel; taking the site's list for wellgen's
    /// would delete what the site wrote, which no later build can give back.
    fn created_in(&self, host_file: &str) -> BTreeSet<String> {
        match self.entries.get(host_file) {
            Some(mark) if mark == SECTION => {
                self.members.get(host_file).cloned().unwrap_or_default()
            }
            _ => BTreeSet::new(),
        }
    }
}

/// The URL paths the last build in `root` wrote, as its manifest lists them (empty when there
/// is none); for tools such as `wellgen serve` that show a build.
pub fn manifest_paths(root: &Path) -> Vec<String> {
    read_manifest(root)
        .map(|m| m.entries.into_keys().collect())
        .unwrap_or_default()
}

fn read_manifest(root: &Path) -> Result<Manifest, WriteError> {
    let path = root.join(MANIFEST);
    refuse_special(&path)?;
    let text = match fs::read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Manifest::default()),
        Err(e) => return Err(io(format!("cannot read {}", path.display()))(e)),
    };
    let mut manifest = Manifest::default();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        if let Some(folder) = line
            .strip_suffix(&format!("/ {FOLDER}"))
            .filter(|f| plain_path(f))
        {
            manifest.folders.insert(folder.to_string());
            continue;
        }
        if let Some((file, name)) = line
            .strip_suffix(&format!(" {MEMBER}"))
            .and_then(|m| m.rsplit_once("#/"))
            .filter(|(file, name)| plain_path(file) && !name.is_empty())
        {
            let names = manifest.members.entry(file.to_string()).or_default();
            names.insert(name.to_string());
            continue;
        }
        let (file, hash) = match line.rsplit_once(' ') {
            Some((file, hash)) if hash.starts_with("sha256:") || hash == SECTION => (file, hash),
            _ => (line, ""),
        };
        if plain_path(file) {
            manifest.entries.insert(file.to_string(), hash.to_string());
        } else {
            manifest.ignored.push(format!(
                "{MANIFEST} lists `{}`, which is not a file wellgen writes; ignored",
                file.escape_debug()
            ));
        }
    }
    // A manifest from before folders were recorded (any other head): its folders that hold
    // nothing but files it lists were made by wellgen, as those versions assumed.
    if !text.starts_with(MANIFEST_HEAD) {
        let mut adopted = BTreeSet::new();
        for file in manifest.entries.keys() {
            let mut dir = Path::new(file).parent();
            while let Some(d) = dir {
                let rel = d.to_string_lossy().into_owned();
                if rel == "/" || rel.is_empty() {
                    break;
                }
                if !adopted.contains(&rel)
                    && only_listed(root, &root.join(rel.trim_start_matches('/')), &manifest)
                {
                    adopted.insert(rel);
                }
                dir = d.parent();
            }
        }
        manifest.folders = adopted;
    }
    Ok(manifest)
}

/// Whether `dir` is a real folder holding files `manifest` lists and folders that do, and
/// nothing else.
fn only_listed(root: &Path, dir: &Path, manifest: &Manifest) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    if !dir.symlink_metadata().is_ok_and(|m| m.is_dir()) {
        return false;
    }
    let mut any = false;
    for entry in entries {
        let Ok(entry) = entry else { return false };
        let path = entry.path();
        let Ok(meta) = path.symlink_metadata() else {
            return false;
        };
        let ok = if meta.is_dir() {
            only_listed(root, &path, manifest)
        } else {
            meta.is_file() && manifest.entries.contains_key(&url_of(root, &path))
        };
        if !ok {
            return false;
        }
        any = true;
    }
    any
}

/// Finishes or undoes a build that was killed in `out`, from its journal; `None` when there
/// was none. Safe to call at any time: the journal's entries are checked as strictly as a
/// manifest's (plain paths, staged names only, removals only of files with the recorded hash).
/// Then removes what a kill can leave without a journal naming it: the journal's own staged
/// copy, staged copies of the files the manifest lists, the swap's staging folder.
pub fn recover(out: &Path) -> Result<Option<Recovered>, WriteError> {
    let Ok(root) = out.canonicalize() else {
        return Ok(None);
    };
    let path = root.join(JOURNAL);
    refuse_special(&path)?;
    let done = match fs::read_to_string(&path) {
        Ok(text) => Some(finish_or_undo(&root, &path, &text)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(format!("cannot read {}", path.display()))(e)),
    };
    sweep(&root)?;
    Ok(done)
}

fn finish_or_undo(root: &Path, path: &Path, text: &str) -> Result<Recovered, WriteError> {
    let journal = Journal::parse(root, text).map_err(|why| {
        WriteError::new(format!("{} is damaged: {why}", path.display())).help(format!(
            "a build was interrupted; if you did not edit {JOURNAL}, report this; otherwise delete it and rebuild"
        ))
    })?;
    if journal.swap {
        // Before the exchange the staging folder holds the unfinished new output, after it the
        // old one: either way the output folder is whole and the staging folder goes.
        swap::discard(root)?;
    } else if journal.committed {
        journal.finish(root)?;
    } else {
        journal.undo(root);
    }
    Ok(if journal.committed {
        Recovered::Finished
    } else {
        Recovered::Undone
    })
}

/// Removes wellgen's leftovers that no journal names, each by a name only wellgen uses for a
/// file only wellgen writes: never a file of the user's.
fn sweep(root: &Path) -> Result<(), WriteError> {
    let mut staged = vec![
        staged_name(&root.join(JOURNAL)),
        staged_name(&root.join(MANIFEST)),
    ];
    if root.join(MANIFEST).exists() {
        let mut destinations = Destinations::new(root);
        for url_path in read_manifest(root)?.entries.keys() {
            // Only the staged copy beside it is looked at, so the file itself may be anything.
            if let Ok(dest) = destinations.folder_checked(url_path) {
                staged.push(staged_name(&dest));
            }
        }
    }
    // A listing per folder rather than a lookup per file: a large API's output holds
    // thousands of files, and a staged copy is rare.
    let mut listed: HashMap<&Path, HashSet<std::ffi::OsString>> = HashMap::new();
    for tmp in &staged {
        let (Some(dir), Some(name)) = (tmp.parent(), tmp.file_name()) else {
            continue;
        };
        let names = listed.entry(dir).or_insert_with(|| {
            fs::read_dir(dir)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .map(|e| e.file_name())
                .filter(|n| n.as_encoded_bytes().starts_with(b".wellgen-"))
                .collect()
        });
        // A symlink is removed as a link, never followed.
        if names.contains(name)
            && tmp
                .symlink_metadata()
                .is_ok_and(|m| m.is_file() || m.is_symlink())
        {
            fs::remove_file(tmp).map_err(io(format!("cannot remove {}", tmp.display())))?;
        }
    }
    swap::remove_staging(root)
}

/// A build's plan: the folders it creates, the staged files to rename into place, and the files
/// to remove (each with the hash it must still have).
#[derive(Debug, Default)]
struct Journal {
    committed: bool,
    dirs: Vec<PathBuf>,
    /// The folders wellgen created: a removal that empties one removes it too.
    tidy: Vec<PathBuf>,
    renames: Vec<(PathBuf, PathBuf)>,
    removes: Vec<(PathBuf, String)>,
    /// The build stages a whole new output folder beside this one and swaps the two
    /// ([`swap`]); its staging folder is the only thing to clean up.
    swap: bool,
    /// Whether the journal file exists on disk.
    written: bool,
}

/// The staged name of `dest`: fixed, so the journal can name it before it exists.
fn staged_name(dest: &Path) -> PathBuf {
    let name = dest.file_name().unwrap_or_default().to_string_lossy();
    dest.with_file_name(format!(".wellgen-{name}.tmp"))
}

impl Journal {
    /// Records every rename and missing folder, then writes the journal in the `stage` state
    /// before anything is created.
    fn plan(&mut self, root: &Path, bodies: &[(PathBuf, Arc<Vec<u8>>)]) -> Result<(), WriteError> {
        let mut dirs = BTreeSet::new();
        for (dest, _) in bodies {
            let mut d = dest.parent();
            while let Some(dir) = d {
                if dir == root || dir.exists() {
                    break;
                }
                dirs.insert(dir.to_path_buf());
                d = dir.parent();
            }
            self.renames.push((staged_name(dest), dest.clone()));
        }
        // Shallow first: created in this order, removed in reverse.
        self.dirs = dirs.into_iter().collect();
        self.dirs.sort_by_key(|d| d.components().count());
        if self.renames.is_empty() && self.removes.is_empty() {
            return Ok(());
        }
        self.save(root)
    }

    /// Creates the folders the staged files need, shallow first.
    fn make_dirs(&self) -> Result<(), WriteError> {
        for d in &self.dirs {
            match fs::create_dir(d) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(e) => return Err(io(format!("cannot create {}", d.display()))(e)),
            }
        }
        Ok(())
    }

    /// Writes `body` to the staged name of `dest`, whose folder exists ([`Journal::make_dirs`]).
    fn stage(dest: &Path, body: &[u8]) -> Result<(), WriteError> {
        let tmp = staged_name(dest);
        // A file left by some earlier crash without a journal: ours by its name; a symlink is
        // removed as a link, never followed.
        if tmp.symlink_metadata().is_ok() {
            fs::remove_file(&tmp).map_err(io(format!("cannot remove {}", tmp.display())))?;
        }
        let mut f = create_new(&tmp).map_err(io(format!("cannot write {}", tmp.display())))?;
        // No fsync per file: the journal makes a killed build recoverable without it, and
        // syncing thousands of files made a 1,000-service batch 8x slower (docs/PERFORMANCE.md).
        // A power cut is outside the guarantee (docs/SECURITY.md).
        f.write_all(body)
            .and_then(|()| publishable(&f))
            .map_err(io(format!("cannot write {}", dest.display())))?;
        Ok(())
    }

    /// Switches the journal to `commit` (the point after which the new output wins), then
    /// renames and removes.
    fn commit(mut self, root: &Path) -> Result<(), WriteError> {
        if !self.written {
            return Ok(());
        }
        test_pause("staged");
        self.committed = true;
        self.save(root)?;
        test_pause("committed");
        self.finish(root)
    }

    fn finish(&self, root: &Path) -> Result<(), WriteError> {
        for (i, (tmp, dest)) in self.renames.iter().enumerate() {
            // Already renamed by the run that was interrupted.
            if tmp.symlink_metadata().is_err() {
                continue;
            }
            if dest.is_symlink() || dest.is_dir() {
                return Err(WriteError::new(format!(
                    "cannot write {}: it is a symbolic link or a folder",
                    dest.display()
                )));
            }
            fs::rename(tmp, dest).map_err(io(format!("cannot write {}", dest.display())))?;
            test_pause(&format!("renamed:{}", i + 1));
            test_fail(&format!("renamed:{}", i + 1))?;
        }
        for (dest, hash) in &self.removes {
            if fs::read(dest).is_ok_and(|now| content_hash(&now) == *hash) {
                remove_file(dest, root, &self.tidy)?;
            }
        }
        let journal = root.join(JOURNAL);
        fs::remove_file(&journal).map_err(io(format!("cannot remove {}", journal.display())))
    }

    /// Removes everything staged and every folder created for it, and the journal.
    fn undo(&self, root: &Path) {
        for (tmp, _) in &self.renames {
            if tmp.symlink_metadata().is_ok_and(|m| m.is_file()) {
                let _ = fs::remove_file(tmp);
            }
        }
        for d in self.dirs.iter().rev() {
            let _ = fs::remove_dir(d);
        }
        if self.written {
            let _ = fs::remove_file(root.join(JOURNAL));
        }
    }

    /// Writes the journal atomically (a staged copy renamed over it) and durably.
    fn save(&mut self, root: &Path) -> Result<(), WriteError> {
        let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
        let mut text = format!(
            "{JOURNAL_HEAD}\nstate {}\n",
            if self.committed { "commit" } else { "stage" }
        );
        for d in &self.dirs {
            text.push_str(&format!("dir /{}\n", rel(d)));
        }
        for (_, dest) in &self.renames {
            text.push_str(&format!("write /{}\n", rel(dest)));
        }
        for (dest, hash) in &self.removes {
            text.push_str(&format!("remove /{} {hash}\n", rel(dest)));
        }
        if !self.removes.is_empty() {
            for d in &self.tidy {
                text.push_str(&format!("{FOLDER} /{}\n", rel(d)));
            }
        }
        if self.swap {
            text.push_str("swap\n");
        }
        let state = if self.committed { "commit" } else { "stage" };
        let path = root.join(JOURNAL);
        let tmp = staged_name(&path);
        let _ = fs::remove_file(&tmp);
        let saved = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                test_fail("journal-write").map_err(|e| std::io::Error::other(e.message))?;
                f.sync_all()
            })
            .and_then(|()| {
                test_pause(&format!("journal-staged:{state}"));
                fs::rename(&tmp, &path)
            });
        if let Err(e) = saved {
            // A full disk leaves a partial copy: not left in the site folder.
            let _ = fs::remove_file(&tmp);
            return Err(io(format!("cannot write {}", path.display()))(e));
        }
        self.written = true;
        Ok(())
    }

    fn parse(root: &Path, text: &str) -> Result<Self, String> {
        let mut journal = Journal {
            written: true,
            ..Self::default()
        };
        let file = |p: &str| -> Result<PathBuf, String> {
            if p == format!("/{MANIFEST}") {
                return Ok(root.join(MANIFEST));
            }
            destination(root, p).map_err(|e| e.message)
        };
        let mut state = None;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
            match verb {
                "state" => state = Some(rest == "commit"),
                "swap" if rest.is_empty() => journal.swap = true,
                "dir" => journal.dirs.push(file(rest)?),
                FOLDER => journal.tidy.push(file(rest)?),
                "write" => {
                    let dest = file(rest)?;
                    journal.renames.push((staged_name(&dest), dest));
                }
                "remove" => {
                    let (p, hash) = rest.split_once(' ').ok_or("a removal without a hash")?;
                    journal.removes.push((file(p)?, hash.to_string()));
                }
                _ => return Err(format!("unknown line `{}`", line.escape_debug())),
            }
        }
        journal.committed = state.ok_or("no state line")?;
        Ok(journal)
    }
}

/// Test hook for the kill tests: a debug build stops at the named point, having said so on
/// stderr, when `WELLGEN_TEST_PAUSE` names it, for `WELLGEN_TEST_PAUSE_SECONDS` (default 60).
/// Release builds never read them.
fn test_pause(point: &str) {
    #[cfg(debug_assertions)]
    if std::env::var("WELLGEN_TEST_PAUSE").is_ok_and(|p| p == point) {
        eprintln!("wellgen: paused at {point}");
        let seconds = std::env::var("WELLGEN_TEST_PAUSE_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60);
        std::thread::sleep(std::time::Duration::from_secs(seconds));
    }
    let _ = point;
}

/// Test hook for errors after the commit point: a debug build fails at the named point when
/// `WELLGEN_TEST_FAIL` names it. Release builds never read it.
fn test_fail(point: &str) -> Result<(), WriteError> {
    #[cfg(debug_assertions)]
    if std::env::var("WELLGEN_TEST_FAIL").is_ok_and(|p| p == point) {
        return Err(WriteError::new(format!("injected failure at {point}")));
    }
    let _ = point;
    Ok(())
}

/// Removes `dest`, then each folder above it that the removal left empty, while wellgen
/// created it (`created`): never a folder of the site's, never the output folder or above.
fn remove_file(dest: &Path, root: &Path, created: &[PathBuf]) -> Result<(), WriteError> {
    match fs::remove_file(dest) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(format!("cannot remove {}", dest.display()))(e)),
    }
    let mut dir = dest.parent();
    while let Some(d) = dir {
        if d == root
            || !d.starts_with(root)
            || !created.iter().any(|c| c == d)
            || fs::remove_dir(d).is_err()
        {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}

/// Writes server configuration (`hosts::is_server_config`) into `dir`, the place the user
/// named, which must not be the published folder `out` or inside it. Replaces only a file
/// wellgen wrote there (it starts with wellgen's comment); written atomically. Returns its path.
pub fn write_server_config(
    dir: &Path,
    out: &Path,
    artifact: &Artifact,
) -> Result<PathBuf, WriteError> {
    let name = artifact.path.trim_start_matches('/');
    let real_dir = resolve_to_be(dir);
    let real_out = resolve_to_be(out);
    if real_dir.starts_with(&real_out) {
        return Err(WriteError::new(format!(
            "refusing to write {name} into {}: it is inside the output folder {}, which is published",
            dir.display(),
            out.display()
        ))
        .help("name a folder outside the output folder with --server-config (or `[deploy] server_config`)"));
    }
    fs::create_dir_all(dir).map_err(io(format!("cannot create {}", dir.display())))?;
    let dest = dir.join(name);
    refuse_special(&dest)?;
    if let Ok(now) = fs::read(&dest) {
        if *now == *artifact.body {
            return Ok(dest);
        }
        if !now.starts_with(b"# Generated by wellgen") {
            return Err(WriteError::new(format!(
                "{} exists and was not written by wellgen; refusing to replace it",
                dest.display()
            ))
            .help("name another folder with --server-config (or `[deploy] server_config`)"));
        }
    }
    let tmp = staged_name(&dest);
    let _ = fs::remove_file(&tmp);
    fs::write(&tmp, &artifact.body[..])
        .and_then(|()| fs::rename(&tmp, &dest))
        .map_err(io(format!("cannot write {}", dest.display())))?;
    Ok(dest)
}

/// Swapping a whole staged output folder into place, where wellgen owns every file of it.
///
/// The new output is written in full to a sibling folder (`.wellgen-<name>.tmp`), then the two
/// folders trade places in one `renameat2(RENAME_EXCHANGE)`: the commit point, after which the
/// old output, now in the sibling folder, is deleted. So even before the next run, the output
/// folder is never a mix. A journal with a `swap` line, in the output folder before the
/// exchange and in the staged one (thus in the output folder after it), names the sibling as
/// wellgen's for [`recover`]. Linux only: elsewhere, or where the filesystem refuses the
/// exchange or the sibling cannot be made, the build uses the per-file journal instead.
mod swap {
    use super::*;

    pub const SUPPORTED: bool = cfg!(target_os = "linux");

    /// The staging folder of `root`; `None` for a root without a name.
    fn staging(root: &Path) -> Option<PathBuf> {
        let name = root.file_name()?.to_string_lossy();
        Some(root.with_file_name(format!(".wellgen-{name}.tmp")))
    }

    /// Writes `files` by a swap: `Ok(false)` when it could not (nothing changed then).
    pub fn write(root: &Path, files: &[(PathBuf, Arc<Vec<u8>>, bool)]) -> Result<bool, WriteError> {
        let Some(staging) = staging(root) else {
            return Ok(false);
        };
        let mut journal = Journal {
            swap: true,
            ..Journal::default()
        };
        journal.save(root)?;
        // The staged folder is locked before it takes the output folder's place, so a build
        // that opens the output folder after the exchange waits on this build too.
        let mut staging_lock = None;
        let exchanged = stage(root, &staging, files, &mut staging_lock).and_then(|()| {
            test_pause("staged");
            exchange(&staging, root)
        });
        if exchanged.is_err() {
            drop(staging_lock);
            discard(root)?;
            return Ok(false);
        }
        test_pause("committed");
        test_fail("committed")
            .and_then(|()| discard(root))
            .map_err(|e| WriteError {
                pending: true,
                ..e.help(format!(
                    "the new output is in place; the next build removes the old one from {}",
                    staging.display()
                ))
            })?;
        Ok(true)
    }

    fn stage(
        root: &Path,
        staging: &Path,
        files: &[(PathBuf, Arc<Vec<u8>>, bool)],
        lock: &mut Option<FolderLock>,
    ) -> std::io::Result<()> {
        fs::create_dir(staging)?;
        *lock = Some(lock_folder(staging).map_err(|e| std::io::Error::other(e.message))?);
        fs::set_permissions(staging, root.metadata()?.permissions())?;
        let mut journal = fs::File::create_new(staging.join(JOURNAL))?;
        test_pause("swap-journal-created");
        journal.write_all(format!("{JOURNAL_HEAD}\nstate commit\nswap\n").as_bytes())?;
        journal.sync_all()?;
        let mut made: HashSet<PathBuf> = HashSet::new();
        let mut paths = Vec::with_capacity(files.len());
        for (dest, _, _) in files {
            let rel = dest
                .strip_prefix(root)
                .map_err(|_| std::io::Error::other("outside the output folder"))?;
            let path = staging.join(rel);
            if let Some(dir) = path.parent()
                && !made.contains(dir)
            {
                fs::create_dir_all(dir)?;
                made.insert(dir.to_path_buf());
            }
            paths.push(path);
        }
        // Creating and filling the files is most of a fresh build's writing: on every core
        // (half the time on two, for GitHub's 1,261 files). The first error in file order wins.
        let jobs: Vec<_> = paths.iter().zip(files).collect();
        crate::parallel::map_here(
            &jobs,
            file_workers(jobs.len()),
            |(path, (dest, body, changed))| {
                // A file the build leaves as it is gets a second name instead of a copy: a rebuild
                // that changes a few documents of a large API neither writes the rest again nor
                // frees their inodes when the old folder goes (on ext4, an inode freed in the last
                // minute or so slows every file created after it, docs/PERFORMANCE.md).
                if !changed && fs::hard_link(dest, path).is_ok() {
                    return Ok(());
                }
                let mut f = create_new(path)?;
                f.write_all(body)?;
                publishable(&f)
            },
        )
        .into_iter()
        .collect()
    }

    #[cfg(target_os = "linux")]
    fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        Ok(renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)?)
    }

    #[cfg(not(target_os = "linux"))]
    fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
        Err(std::io::ErrorKind::Unsupported.into())
    }

    /// Removes the staging folder of `root`, then the journal that named it.
    pub fn discard(root: &Path) -> Result<(), WriteError> {
        remove_staging(root)?;
        let journal = root.join(JOURNAL);
        match fs::remove_file(&journal) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(io(format!("cannot remove {}", journal.display()))(e))
            }
            _ => Ok(()),
        }
    }

    /// The swap journal the staged folder gets before anything else.
    fn staged_journal() -> String {
        format!("{JOURNAL_HEAD}\nstate commit\nswap\n")
    }

    /// Removes the staging folder of `root` if it is wellgen's: a real folder holding a swap
    /// journal (the one each side gets before anything else), or holding nothing but
    /// wellgen's bookkeeping (a kill while its journal was written leaves it empty or cut
    /// short). Its journal goes last, so a kill during the removal leaves it still marked.
    pub fn remove_staging(root: &Path) -> Result<(), WriteError> {
        let Some(staging) = staging(root) else {
            return Ok(());
        };
        if !staging.symlink_metadata().is_ok_and(|m| m.is_dir()) {
            return Ok(());
        }
        let journal = staging.join(JOURNAL);
        let marked = fs::read_to_string(&journal).is_ok_and(|t| {
            t.lines().any(|l| l == "swap") || staged_journal().starts_with(t.as_str())
        });
        if !marked && !only_bookkeeping(&staging) {
            // Not marked and not only wellgen's files: not wellgen's to remove.
            return Ok(());
        }
        let failed = io(format!("cannot remove {}", staging.display()));
        for entry in
            fs::read_dir(&staging).map_err(io(format!("cannot read {}", staging.display())))?
        {
            let entry = entry.map_err(io(format!("cannot read {}", staging.display())))?;
            if entry.file_name() == JOURNAL {
                continue;
            }
            // `file_type` does not follow symlinks: a link is removed as a link.
            let path = entry.path();
            let removed = match entry.file_type() {
                Ok(t) if t.is_dir() => fs::remove_dir_all(&path),
                _ => fs::remove_file(&path),
            };
            if let Err(e) = removed {
                return Err(io(format!("cannot remove {}", path.display()))(e));
            }
        }
        test_pause("discarding");
        match fs::remove_file(&journal) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(io(format!("cannot remove {}", journal.display()))(e));
            }
            _ => {}
        }
        fs::remove_dir(&staging).map_err(failed)
    }

    /// Whether `dir` holds only files whose names only wellgen uses for its own bookkeeping
    /// (what a kill during an older removal of a staged folder could leave), or nothing.
    fn only_bookkeeping(dir: &Path) -> bool {
        let Ok(entries) = fs::read_dir(dir) else {
            return false;
        };
        entries.into_iter().all(|e| {
            e.is_ok_and(|e| {
                let name = e.file_name();
                e.file_type().is_ok_and(|t| t.is_file())
                    && (name == MANIFEST
                        || name == JOURNAL
                        || name.as_encoded_bytes().starts_with(b".wellgen-")
                            && name.as_encoded_bytes().ends_with(b".tmp"))
            })
        })
    }
}

/// An exclusive advisory lock on an output folder, held until dropped; `None` where the
/// platform or the file system has no such lock (the build goes on unlocked there).
pub struct FolderLock(#[allow(dead_code)] Option<fs::File>);

/// Locks the folder `dir` for this build, or refuses when another build holds it. The lock is
/// on the folder itself (no lock file to leave behind); the folder at `dir` is checked to still
/// be the one locked, since a swap may put another in its place between the open and the lock.
pub fn lock_folder(dir: &Path) -> Result<FolderLock, WriteError> {
    #[cfg(unix)]
    for _ in 0..8 {
        use std::os::unix::fs::MetadataExt;
        let opened = fs::File::open(dir).map_err(io(format!("cannot open {}", dir.display())))?;
        match opened.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(WriteError::new(format!(
                    "another wellgen build is writing into {}",
                    dir.display()
                ))
                .help("wait for it to finish, then build again"));
            }
            Err(fs::TryLockError::Error(_)) => return Ok(FolderLock(None)),
        }
        let (Ok(locked), Ok(now)) = (opened.metadata(), fs::metadata(dir)) else {
            continue;
        };
        if (locked.dev(), locked.ino()) == (now.dev(), now.ino()) {
            return Ok(FolderLock(Some(opened)));
        }
    }
    #[cfg(unix)]
    return Err(WriteError::new(format!(
        "cannot lock {}: it keeps being replaced",
        dir.display()
    ))
    .help("wait for other builds into it to finish, then build again"));
    #[cfg(not(unix))]
    Ok(FolderLock(None))
}

/// Creates the file `path`, which must not exist yet, with a published file's mode.
fn create_new(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o644);
    options.open(path)
}

/// Published files must be readable by the web server, as a plain `cp` would leave them,
/// whatever the umask.
#[cfg(unix)]
fn publishable(f: &fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn publishable(_: &fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_database_names_the_home_folder() {
        let db = "root:x:0:0:root:/root:/bin/bash\n# comment\nbad line\nme:x:1000:1000:Me,,,:/home/me:/bin/sh\n";
        assert_eq!(home_in_passwd(db, 0), Some(PathBuf::from("/root")));
        assert_eq!(home_in_passwd(db, 1000), Some(PathBuf::from("/home/me")));
        assert_eq!(home_in_passwd(db, 5), None);
        assert_eq!(home_in_passwd("x:x:7:7::relative:/bin/sh", 7), None);
    }

    #[test]
    fn only_plain_paths_are_files_wellgen_writes() {
        for good in ["/.well-known/ai", "/api/capabilities/search", "/_headers"] {
            assert!(plain_path(good), "{good}");
        }
        for bad in [
            "",
            "/",
            "relative",
            "/../x",
            "/a/../../x",
            "/etc/../../passwd",
            "//etc/passwd",
            "/a//b",
            "/./a",
            "/a\\..\\b",
            "/C:/x",
            "/a\nb",
            "/.wellgen-manifest",
            "/.wellgen-journal",
            "/x/.wellgen-ai.tmp",
        ] {
            assert!(!plain_path(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_hostile_path_cannot_leave_the_output_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for hostile in [
            "/api/capabilities/../../../etc/passwd",
            "/../outside",
            "/api/capabilities/..",
        ] {
            let err = destination(&root, hostile).unwrap_err();
            assert!(err.message.contains("not a plain path"), "{}", err.message);
        }
    }

    #[test]
    fn the_host_layer_hides_the_manifest_by_its_real_name() {
        assert_eq!(format!("/{MANIFEST}"), hosts::MANIFEST_PATH);
    }

    #[test]
    fn a_file_holds_a_body_only_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        // Across the pieces it is read in, and ending inside one.
        let body: Vec<u8> = (0..200_003u32).map(|i| (i % 251) as u8).collect();
        fs::write(&path, &body).unwrap();
        assert!(holds(&path, &body).unwrap());
        let mut edited = body.clone();
        edited[150_000] ^= 1;
        assert!(
            !holds(&path, &edited).unwrap(),
            "same length, one byte apart"
        );
        assert!(
            !holds(&path, &body[..body.len() - 1]).unwrap(),
            "the file is longer"
        );
        let mut longer = body.clone();
        longer.push(0);
        assert!(!holds(&path, &longer).unwrap(), "the file is shorter");
        fs::write(&path, b"").unwrap();
        assert!(holds(&path, b"").unwrap());
        assert!(holds(&dir.path().join("missing"), b"").is_err());
    }

    /// Member lines are read for the host file they name, and count only while the manifest
    /// still lists that file as merged into; a manifest without them names no member.
    #[test]
    fn the_manifest_names_the_members_wellgen_created() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = |lines: &str| {
            fs::write(
                dir.path().join(MANIFEST),
                format!("{MANIFEST_HEAD}\n{MEMBERS_NOTE}\n{lines}"),
            )
            .unwrap();
            read_manifest(dir.path()).unwrap()
        };
        let read = manifest(
            "/vercel.json section\n/vercel.json#/$schema member\n/vercel.json#/headers member\n\
             /_routes.json#/exclude member\n/../x#/headers member\n",
        );
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(
            read.created_in("/vercel.json"),
            names(&["$schema", "headers"])
        );
        assert!(
            read.created_in("/_routes.json").is_empty(),
            "not written by the last build"
        );
        assert!(
            !read.entries.keys().any(|k| k.contains('#')),
            "{:?}",
            read.entries
        );
        assert_eq!(read.ignored.len(), 1, "{:?}", read.ignored);
        let old = manifest("/vercel.json section\n/ai sha256:00\n");
        assert!(old.created_in("/vercel.json").is_empty());
        assert!(old.ignored.is_empty());
    }

    #[test]
    fn the_hash_is_sha256() {
        assert_eq!(
            content_hash(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
