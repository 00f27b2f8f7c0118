//! Confinement of every path an input names (an OpenAPI `$ref`'s file, `[source] openapi`,
//! `[deploy] server_config`) to one folder, answered the same whether a file outside exists
//! or not: a path that leaves the folder is refused by its names alone, before any lookup
//! outside it.

use std::path::{Component, Path, PathBuf};

use crate::diag::{Code, Diagnostic};

/// The folder a service.toml's paths must stay in: `--ref-root` when given, else its
/// project (the repository holding it, else the current folder if it holds it, else its own
/// folder), as for an OpenAPI document's `$ref`s. `None` when neither can be found.
pub fn project_root(service_toml: &Path, ref_root: Option<&Path>) -> Option<PathBuf> {
    match ref_root {
        Some(dir) => dir.canonicalize().ok(),
        None => RefRoot::default_for(&service_toml.canonicalize().ok()?).map(|r| r.dir),
    }
}

/// A path a service.toml names (`field`, e.g. `[source] openapi`), relative to its folder,
/// confined to [`project_root`]; `to_be`: a folder to write (its missing part is allowed).
/// One refusal for a path outside, whether anything is there or not; the message names the
/// root, never what is outside it.
pub fn service_path(
    service_toml: &Path,
    field: &str,
    value: &Path,
    ref_root: Option<&Path>,
    to_be: bool,
) -> Result<PathBuf, (String, String)> {
    let help = if ref_root.is_some() {
        "keep it below the folder given by --ref-root, or pass a --ref-root that holds it"
    } else {
        "keep it inside the project (the repository that holds the service.toml), or pass --ref-root DIR"
    };
    let refused = |root: &str| {
        (
            format!("`{field}` leaves {root}; a service.toml may only name paths below it"),
            help.to_string(),
        )
    };
    let Some(root) = project_root(service_toml, ref_root) else {
        return Err(refused("the project folder"));
    };
    let dir = match service_toml.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.canonicalize(),
        _ => std::env::current_dir().and_then(|d| d.canonicalize()),
    };
    let dir = dir.map_err(|_| refused(&root.display().to_string()))?;
    let as_written = service_toml.parent().unwrap_or(Path::new(".")).join(value);
    // A service.toml outside a given root may name a file inside it: resolved from the root.
    let (dir, value) = if dir.starts_with(&root) {
        (dir, value.to_path_buf())
    } else {
        let mut normal = PathBuf::new();
        for c in dir.join(value).components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir => {
                    normal.pop();
                }
                c => normal.push(c),
            }
        }
        match normal.strip_prefix(&root) {
            Ok(rest) => (root.clone(), rest.to_path_buf()),
            Err(_) => return Err(refused(&root.display().to_string())),
        }
    };
    let value = value.as_path();
    let confined = if to_be {
        confine_to_be(&root, &dir, value)
    } else {
        confine(&root, &dir, value)
    };
    // A file to read keeps the path as written (messages name it so); inside the root, a
    // missing one is the reader's to report.
    match confined {
        Ok(_) | Err(Refusal::Io(_)) if !to_be => Ok(as_written),
        Ok(path) => Ok(path),
        Err(Refusal::Io(e)) => Err((
            format!(
                "`{field}` cannot be resolved: {}",
                crate::diag::io_reason(&e)
            ),
            help.to_string(),
        )),
        Err(Refusal::Leaves) => Err(refused(&root.display().to_string())),
    }
}

/// Why a ref's file cannot be reached.
pub enum Refusal {
    /// It is outside the root folder (or a symlink on the way leads there).
    Leaves,
    /// Looking up a name inside the root folder failed (no such file, a symlink loop, ...).
    Io(std::io::Error),
}

/// How many symlinks one ref may go through, as Linux allows for one path.
const MAX_LINKS: usize = 40;

/// Resolves `relative` (a ref's file part) against the folder `dir`, confined to `root`
/// (both canonical). A ref that leaves `root` is refused by its path alone, before any
/// lookup; then each name is looked up and each symlink followed in turn, refusing as soon as
/// one leads outside, before anything there is looked up. So the answer for a file outside
/// never depends on whether it exists. The result is canonical, as `canonicalize` gives it.
pub fn confine(root: &Path, dir: &Path, relative: &Path) -> Result<PathBuf, Refusal> {
    if !lexically_below(&dir.join(relative), root) {
        return Err(Refusal::Leaves);
    }
    let mut path = dir.to_path_buf();
    // The components still to resolve, the next one last.
    let mut todo: Vec<std::ffi::OsString> = Vec::new();
    let push = |todo: &mut Vec<std::ffi::OsString>, p: &Path| {
        todo.extend(p.components().rev().map(|c| c.as_os_str().to_os_string()));
    };
    push(&mut todo, relative);
    let mut links = 0;
    while let Some(name) = todo.pop() {
        match Path::new(&name).components().next() {
            None | Some(Component::CurDir) => {}
            Some(Component::ParentDir) => {
                path.pop();
            }
            Some(c @ (Component::RootDir | Component::Prefix(_))) => {
                path = PathBuf::from(c.as_os_str());
            }
            Some(Component::Normal(name)) => {
                if !path.starts_with(root) {
                    return Err(Refusal::Leaves);
                }
                let next = path.join(name);
                let meta = std::fs::symlink_metadata(&next).map_err(Refusal::Io)?;
                if meta.file_type().is_symlink() {
                    links += 1;
                    if links > MAX_LINKS {
                        return Err(Refusal::Io(std::io::Error::other(
                            "too many levels of symbolic links",
                        )));
                    }
                    let target = std::fs::read_link(&next).map_err(Refusal::Io)?;
                    // An absolute link into the root (as a repository's links often are)
                    // starts there: the root is canonical, so nothing on the way to it needs a
                    // lookup, and none outside it is made. The rest resolves name by name.
                    match target.strip_prefix(root) {
                        Ok(rest) if target.is_absolute() => {
                            path = root.to_path_buf();
                            push(&mut todo, rest);
                        }
                        _ => push(&mut todo, &target),
                    }
                } else {
                    path = next;
                }
            }
        }
    }
    if path.starts_with(root) {
        Ok(path)
    } else {
        Err(Refusal::Leaves)
    }
}

/// Whether `path`, with its `.` and `..` applied to the names as written, is `root` or below.
fn lexically_below(path: &Path, root: &Path) -> bool {
    lexical(path).starts_with(root)
}

/// `path` with its `.` and `..` applied to the names as written.
pub fn lexical(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            c => normal.push(c),
        }
    }
    normal
}

/// Where `relative`, a folder to be written below `dir`, will be once its missing folders are
/// made, confined to `root` like [`confine`]: the part that exists is resolved name by name
/// (so a symlink cannot lead out), the missing rest applied by its names (nothing there yet
/// can be a symlink).
pub fn confine_to_be(root: &Path, dir: &Path, relative: &Path) -> Result<PathBuf, Refusal> {
    if !lexically_below(&dir.join(relative), root) {
        return Err(Refusal::Leaves);
    }
    let parts: Vec<Component> = relative.components().collect();
    for existing in (0..=parts.len()).rev() {
        let head: PathBuf = parts[..existing].iter().collect();
        match confine(root, dir, &head) {
            Ok(mut real) => {
                for part in &parts[existing..] {
                    match part {
                        Component::ParentDir => {
                            real.pop();
                        }
                        Component::Normal(name) => real.push(name),
                        _ => {}
                    }
                }
                return if real.starts_with(root) {
                    Ok(real)
                } else {
                    Err(Refusal::Leaves)
                };
            }
            Err(Refusal::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(other) => return Err(other),
        }
    }
    Err(Refusal::Leaves)
}

/// The folder whose files `$ref`s may reach, and why it is that folder (for the refusal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefRoot {
    /// Canonical.
    pub dir: PathBuf,
    pub kind: RootKind,
}

/// How the ref root was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKind {
    /// `--ref-root DIR`.
    Given,
    /// The nearest folder above the entry document that holds `.git`.
    Repository,
    /// The current folder, which holds the entry document.
    CurrentFolder,
    /// The entry document's own folder: neither of the above holds it.
    DocumentFolder,
}

impl RefRoot {
    /// The default root of an entry document at the canonical path `entry`: the repository
    /// holding it (nearest ancestor with a `.git`, folder or file as in a worktree), else the
    /// current folder if it holds the document, else the document's folder. The filesystem's
    /// root is never a default: nobody's repository, and it would open every file to refs.
    pub fn default_for(entry: &Path) -> Option<Self> {
        let folder = entry.parent()?;
        let usable = |dir: &Path| dir.parent().is_some();
        if let Some(repo) = folder
            .ancestors()
            .filter(|d| usable(d))
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        {
            return Some(Self {
                dir: repo.to_path_buf(),
                kind: RootKind::Repository,
            });
        }
        if let Some(cwd) = std::env::current_dir()
            .and_then(|d| d.canonicalize())
            .ok()
            .filter(|cwd| usable(cwd) && entry.starts_with(cwd))
        {
            return Some(Self {
                dir: cwd,
                kind: RootKind::CurrentFolder,
            });
        }
        Some(Self {
            dir: folder.to_path_buf(),
            kind: RootKind::DocumentFolder,
        })
    }

    /// `--ref-root DIR`: an existing folder, canonicalised so that symlinks cannot widen it.
    pub fn given(dir: &Path) -> Result<Self, Diagnostic> {
        let canonical = dir.canonicalize().map_err(|e| {
            Diagnostic::new(
                Code::OpenapiRef,
                format!(
                    "--ref-root {}: cannot be read: {}",
                    dir.display(),
                    crate::diag::io_reason(&e)
                ),
            )
        })?;
        if !canonical.is_dir() {
            return Err(Diagnostic::new(
                Code::OpenapiRef,
                format!("--ref-root {}: not a folder", dir.display()),
            )
            .help("name the folder that holds the document and every file its `$ref`s reach"));
        }
        Ok(Self {
            dir: canonical,
            kind: RootKind::Given,
        })
    }

    /// What this folder is, for the refusal of a ref that leaves it.
    pub fn what(&self) -> &'static str {
        match self.kind {
            RootKind::Given => "the folder given by --ref-root",
            RootKind::Repository => "the repository that holds the document",
            RootKind::CurrentFolder => "the current folder",
            RootKind::DocumentFolder => {
                "the document's folder (no repository and not the current folder holds it)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_leaving_the_root_is_refused_whether_it_exists_or_not() {
        let work = tempfile::tempdir().unwrap();
        let root = work.path().canonicalize().unwrap().join("project");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(work.path().join("outside.yaml"), "x").unwrap();
        for rel in [
            "../outside.yaml",
            "../missing.yaml",
            "/etc/hostname",
            "/etc/no-such-file",
        ] {
            assert!(
                matches!(confine(&root, &root, Path::new(rel)), Err(Refusal::Leaves)),
                "{rel}"
            );
            assert!(
                matches!(
                    confine_to_be(&root, &root, Path::new(rel)),
                    Err(Refusal::Leaves)
                ),
                "{rel}"
            );
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(work.path(), root.join("out")).unwrap();
            assert!(matches!(
                confine_to_be(&root, &root, Path::new("out/new/a")),
                Err(Refusal::Leaves)
            ));
        }
        assert_eq!(
            confine_to_be(&root, &root, Path::new("sub/new/../conf")).ok(),
            Some(root.join("sub/conf"))
        );
        assert_eq!(
            confine_to_be(&root, &root.join("sub"), Path::new("..")).ok(),
            Some(root.clone())
        );
    }
}
