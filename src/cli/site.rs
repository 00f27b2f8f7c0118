//! The site's own files in the output folder that a document lists or a host file merges with:
//! the skills under `/.well-known/agent-skills/` that wellgen did not write, robots.txt, a
//! sitemap. Read here, before the compile, never written: the writer keeps every file it did
//! not write byte for byte.

use std::fs;
use std::path::Path;

use crate::emit::hosts::{self, robots, section};
use crate::emit::targets::agent_skills::{DIR, INDEX_PATH, SKILL_FILE, front_matter};
use crate::model::{SiteFiles, SiteSkill};

/// A SKILL.md larger than this is not read: a skill is instructions for an agent's context,
/// and a file this large is no skill an index should send an agent to.
const MAX_SKILL_BYTES: u64 = 4 << 20;

/// Google reads the first 500 KiB of a robots.txt; a larger file is not the site's to merge.
const MAX_ROBOTS_BYTES: u64 = 500 << 10;

/// A regular file of the folder (no symbolic link) of at most `max` bytes.
fn regular(path: &Path, max: u64) -> bool {
    path.symlink_metadata()
        .is_ok_and(|m| m.is_file() && m.len() <= max)
}

/// The hosts' routing files that wellgen owns outright (not merged) and that `site` holds of
/// the site's own: a file or a folder (as some adapters write a `_worker.js`), not `ours`.
fn own_routers(site: &Path, ours: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found: Vec<String> = crate::model::Host::ALL
        .into_iter()
        .filter_map(|h| h.descriptor().route)
        .filter(|path| hosts::merge_of(path) == hosts::Merge::Owned && !ours(path))
        .filter(|path| {
            site.join(path.trim_start_matches('/'))
                .symlink_metadata()
                .is_ok()
        })
        .map(str::to_string)
        .collect();
    found.dedup();
    found
}

/// What `site` holds of the site's own: every path in `written` (the last build's manifest)
/// is wellgen's and left out. Symbolic links are not followed: what they lead to is no file of
/// the folder's, and the writer refuses to write through them.
pub fn read(site: &Path, written: &[String]) -> SiteFiles {
    let ours = |url: &str| written.iter().any(|w| w == url);
    let mut files = SiteFiles {
        skills: Vec::new(),
        skills_index: site
            .join(INDEX_PATH.trim_start_matches('/'))
            .symlink_metadata()
            .is_ok()
            && !ours(INDEX_PATH),
        robots: robots_txt(site),
        sitemap: site
            .join(robots::SITEMAP_PATH.trim_start_matches('/'))
            .symlink_metadata()
            .is_ok_and(|m| m.is_file()),
        own_routers: own_routers(site, &ours),
    };
    let dir = site.join(DIR.trim_matches('/'));
    if !dir.symlink_metadata().is_ok_and(|m| m.is_dir()) {
        return files;
    }
    let Ok(entries) = fs::read_dir(&dir) else {
        return files;
    };
    let mut folders: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    folders.sort();
    for folder in folders {
        let url = format!("{DIR}{folder}/{SKILL_FILE}");
        let path = dir.join(&folder).join(SKILL_FILE);
        if ours(&url) || !regular(&path, MAX_SKILL_BYTES) {
            continue;
        }
        let Ok(bytes) = fs::read(&path) else {
            continue;
        };
        files.skills.push(SiteSkill {
            digest: crate::text::sha256_digest(&bytes),
            front: front_matter(&bytes),
            folder,
        });
    }
    files
}

/// The site's robots.txt without wellgen's section, which the build writes again; `None` when
/// there is none or nothing else is in it.
fn robots_txt(site: &Path) -> Option<String> {
    let path = site.join(robots::PATH.trim_start_matches('/'));
    if !regular(&path, MAX_ROBOTS_BYTES) {
        return None;
    }
    let text = fs::read_to_string(path).ok()?;
    // A damaged section is refused by the writer, which names it.
    let text = section::merge(&text, "", section::Placement::Append).unwrap_or(text);
    Some(text).filter(|t| !t.trim().is_empty())
}
