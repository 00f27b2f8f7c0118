//! The site's own files in the output folder that a document lists: the skills under
//! `/.well-known/agent-skills/` that wellgen did not write. Read here, before the compile,
//! never written: the writer keeps every file it did not write byte for byte.

use std::fs;
use std::path::Path;

use crate::emit::targets::agent_skills::{DIR, INDEX_PATH, SKILL_FILE, front_matter};
use crate::model::{SiteFiles, SiteSkill};

/// A SKILL.md larger than this is not read: a skill is instructions for an agent's context,
/// and a file this large is no skill an index should send an agent to.
const MAX_SKILL_BYTES: u64 = 4 << 20;

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
        let regular = path
            .symlink_metadata()
            .is_ok_and(|m| m.is_file() && m.len() <= MAX_SKILL_BYTES);
        if ours(&url) || !regular {
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
