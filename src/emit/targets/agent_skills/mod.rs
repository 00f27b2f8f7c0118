//! Agent Skills: a `SKILL.md` that teaches an agent to use the service (the Agent Skills
//! format, agentskills.io), at `/.well-known/agent-skills/<name>/SKILL.md`, and the discovery
//! index `/.well-known/agent-skills/index.json` (Agent Skills Discovery 0.2.0) listing it and
//! every skill of the site's own in the output folder, each with the SHA-256 of its bytes.
//!
//! The SKILL.md is written in Rust, not from a template: it is laid out within the format's
//! size guidance (under 500 lines, under 5,000 tokens), trying a fuller form first and a
//! briefer one when that is over, and a form over the budget is abandoned as soon as it is
//! (a large API never has its whole listing written only to be thrown away).

mod example;
mod skill_md;

use serde::Serialize;

pub use example::{admits, value_for};
use skill_md::{Form, api_host, description, skill_md};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::targets::{Descriptor, Document, Fitted, Link, Relation, Target};
use crate::emit::{Artifact, Build, Serving, to_json_bytes};
use crate::model::{Service, SiteSkill, SkillFront};
use crate::text::sha256_digest;

/// The folder of skills and the index in it (Agent Skills Discovery §URI Structure).
pub const DIR: &str = "/.well-known/agent-skills/";
pub const INDEX_PATH: &str = "/.well-known/agent-skills/index.json";
/// The file every skill folder holds.
pub const SKILL_FILE: &str = "SKILL.md";
/// The index's `$schema`: the identifier of the 0.2.0 index format.
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// SKILL.md: the discovery spec allows `text/markdown` or `text/plain`; hosts do not know
/// `.md` alike, so `_headers` spells it out. Skills change rarely and carry digests: an hour.
pub const SKILL_SERVING: Serving = Serving {
    content_type: "text/markdown; charset=utf-8",
    cache_control: "public, max-age=3600",
    cors: true,
};
/// The index MUST be served as `application/json`.
pub const INDEX_SERVING: Serving = Serving {
    content_type: "application/json",
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "agent-skills",
    documents: &[
        Document::linked(
            INDEX_PATH,
            INDEX_SERVING,
            Link {
                title: "Agent Skills index",
                note: "the skills that teach an agent to use the service, each with its digest",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
                ai_catalog: Some("application/json"),
            },
        ),
        Document {
            path: DIR,
            serving: SKILL_SERVING,
            family: Some("<name>/SKILL.md"),
            alias: false,
            link: None,
            written: super::always,
        },
    ],
    spec: "Agent Skills Discovery 0.2.0 (index); Agent Skills SKILL.md format (agentskills.io)",
    status: "draft (discovery); published format (SKILL.md)",
    opt_in: None,
    requires: &[],
};

/// The format's limits on the front matter (agentskills.io/specification).
pub const NAME_MAX: usize = 64;
pub const DESCRIPTION_MAX: usize = 1024;
/// The format's size guidance for a SKILL.md: "under 500 lines", and "< 5000 tokens
/// recommended" for the body, taken as 15,000 bytes: prose runs about four bytes a token in
/// o200k_base and cl100k_base, but a listing of capability ids only 3.5 (20,000 bytes of one
/// came to 5,726 tokens), so 15,000 stays under 5,000 either way (`tests/it/agent_skills.rs`
/// counts). Counting tokens here would load the encodings into every build.
pub const LINES_MAX: usize = 500;
pub const BYTES_MAX: usize = 15_000;

/// Whether `name` is an Agent Skills name: 1-64 characters, lower-case ASCII letters, digits
/// and hyphens, no hyphen first, last or twice in a row. `Err` says what is wrong.
pub fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("is empty");
    }
    if name.chars().count() > NAME_MAX {
        return Err("is longer than 64 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err("holds characters other than lower-case letters, digits and hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err("starts or ends with a hyphen");
    }
    if name.contains("--") {
        return Err("holds two hyphens in a row");
    }
    Ok(())
}

/// Whether `description` is an Agent Skills description: 1-1024 characters, not blank.
pub fn check_description(description: &str) -> Result<(), &'static str> {
    if description.trim().is_empty() {
        return Err("is empty");
    }
    if description.chars().count() > DESCRIPTION_MAX {
        return Err("is longer than 1024 characters");
    }
    Ok(())
}

/// The generated skill's name: the service's name in lower-case ASCII, every run of other
/// characters one hyphen, at most 64 characters; the API host's name where that leaves
/// nothing (a name in another script).
pub fn skill_name(service: &Service) -> String {
    let from = |text: &str| {
        let cut: String = crate::text::slug(text, &[])
            .chars()
            .take(NAME_MAX)
            .collect();
        cut.trim_end_matches('-').to_string()
    };
    let name = from(&service.name);
    if !name.is_empty() {
        return name;
    }
    let host = from(&api_host(service));
    if host.is_empty() { "api".into() } else { host }
}

/// The front matter's `name` and `description` of a SKILL.md (the YAML between a first line
/// `---` and the next line `---`), or why they cannot be read.
pub fn front_matter(bytes: &[u8]) -> Result<SkillFront, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err("it does not start with a `---` line of YAML front matter".into());
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push_str(line);
    }
    if !closed {
        return Err("its front matter has no closing `---` line".into());
    }
    let map = match serde_norway::from_str::<serde_norway::Value>(&yaml) {
        Ok(serde_norway::Value::Mapping(m)) => m,
        Ok(serde_norway::Value::Null) => serde_norway::Mapping::new(),
        Ok(_) => return Err("its front matter is not a YAML mapping".into()),
        Err(e) => return Err(format!("its front matter is not YAML ({e})")),
    };
    let field = |key: &str| {
        map.get(key)
            .and_then(serde_norway::Value::as_str)
            .map(str::to_string)
    };
    Ok(SkillFront {
        name: field("name"),
        description: field("description"),
    })
}

/// The index (Agent Skills Discovery §Index Format).
#[derive(Serialize)]
struct Index<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    skills: Vec<&'a Entry>,
}

#[derive(Serialize)]
struct Entry {
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    url: String,
    digest: String,
}

/// The skills checked: the generated skill unless the site has its own of that name, the
/// site's own skills the index lists, and whether wellgen writes the index (unless the site
/// has its own). The size pass ([`fit`]) lays the SKILL.md out; `render` writes it and the
/// index of its digest.
pub struct Lowered {
    skill: Option<Skill>,
    site_entries: Vec<Entry>,
    index: bool,
    /// The targets of the build: the SKILL.md links the documents of those.
    built: Vec<Target>,
}

/// The generated skill.
struct Skill {
    name: String,
    description: String,
    path: String,
    /// The SKILL.md, in the fullest form within the guidance.
    text: Fitted<Vec<u8>>,
}

pub fn lower(service: &Service, build: &Build, diags: &mut Diagnostics) -> Lowered {
    let name = skill_name(service);
    let site = build.site;
    let skill = if site.skills.iter().any(|s| s.folder == name) {
        diags.push(
            Diagnostic::new(
                Code::SkillNameTaken,
                format!(
                    "the site's own skill `{name}` is kept and listed; wellgen writes no skill \
                     of that name"
                ),
            )
            .help(format!(
                "nothing to do; rename the site's {DIR}{name}/ (and its `name`) to publish \
                 wellgen's too"
            )),
        );
        None
    } else {
        Some(Skill {
            path: format!("{DIR}{name}/{SKILL_FILE}"),
            description: description(service),
            name,
            text: Fitted::default(),
        })
    };
    let site_entries = site
        .skills
        .iter()
        .filter_map(|s| site_entry(s, diags))
        .collect();
    if site.skills_index {
        diags.push(
            Diagnostic::new(
                Code::SkillIndexKept,
                match &skill {
                    Some(skill) => format!(
                        "the site's own {INDEX_PATH} is kept: wellgen writes none, and \
                         {} is listed only if that index lists it",
                        skill.path
                    ),
                    None => format!("the site's own {INDEX_PATH} is kept: wellgen writes none"),
                },
            )
            .help(
                "list wellgen's skill in the site's index, or delete that index to have \
                 wellgen write one listing every skill in the folder",
            ),
        );
    }
    Lowered {
        skill,
        site_entries,
        index: !site.skills_index,
        built: build.targets().to_vec(),
    }
}

/// The size pass: the SKILL.md in the fullest form within the format's size guidance, with a
/// note when that is not the full one.
pub fn fit(service: &Service, lowered: &mut Lowered, diags: &mut Diagnostics) {
    let Some(skill) = &mut lowered.skill else {
        return;
    };
    let (text, form) = skill_md(service, &lowered.built, &skill.name, &skill.description);
    if form != Form::Full {
        diags.push(
            Diagnostic::new(
                Code::SkillShortened,
                format!(
                    "SKILL.md {}: with every capability's parameters and an example call it \
                     would be over {LINES_MAX} lines or {} KB, the Agent Skills guidance",
                    form.what(service.capabilities.len()),
                    BYTES_MAX / 1000
                ),
            )
            .help(format!(
                "nothing to do: the SKILL.md links {} and the OpenAPI document, which describe \
                 every capability",
                Target::AiEndpoint.path()
            )),
        );
    }
    skill.text.set(text.into_bytes());
}

/// The SKILL.md, then the index listing it (with the SHA-256 of its bytes) and the site's
/// own skills, by name.
pub fn render(_service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let mut out = Vec::new();
    let generated = lowered.skill.as_ref().map(|skill| {
        let bytes = skill.text.get();
        out.push(Artifact::document(
            skill.path.as_str(),
            bytes.clone(),
            SKILL_SERVING,
        ));
        Entry {
            name: skill.name.clone(),
            kind: "skill-md",
            description: skill.description.clone(),
            url: skill.path.clone(),
            digest: sha256_digest(bytes),
        }
    });
    if lowered.index {
        let mut skills: Vec<&Entry> = generated.iter().chain(&lowered.site_entries).collect();
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        let index = Index {
            schema: SCHEMA,
            skills,
        };
        out.push(Artifact::document(
            INDEX_PATH,
            to_json_bytes(&index),
            INDEX_SERVING,
        ));
    }
    out
}

/// The index entry of a skill of the site's own, by its folder's name (the format asks the
/// two to be equal, and the URL is the folder's); `None`, with a warning, when the index
/// cannot list it (a folder name or description the format refuses).
fn site_entry(s: &SiteSkill, diags: &mut Diagnostics) -> Option<Entry> {
    let path = format!("{DIR}{}/{SKILL_FILE}", s.folder);
    let left_out = |why: String| {
        Diagnostic::new(
            Code::SkillSiteInvalid,
            format!("{path}: {why}: the skills index leaves it out (the file is kept)"),
        )
        .help(
            "give the folder a name a skill may have (lower-case letters, digits and `-`) and \
             the front matter a `description` of 1-1024 characters",
        )
    };
    if let Err(why) = check_name(&s.folder) {
        diags.push(left_out(format!(
            "its folder's name `{}` {why}, which a skill's name may not",
            s.folder
        )));
        return None;
    }
    let front = match &s.front {
        Ok(front) => front,
        Err(why) => {
            diags.push(left_out(why.clone()));
            return None;
        }
    };
    let Some(description) = &front.description else {
        diags.push(left_out("its front matter has no `description`".into()));
        return None;
    };
    if let Err(why) = check_description(description) {
        diags.push(left_out(format!("its `description` {why}")));
        return None;
    }
    if front.name.as_deref() != Some(s.folder.as_str()) {
        diags.push(
            Diagnostic::new(
                Code::SkillSiteName,
                format!(
                    "{path}: its front matter's `name` is {}, not its folder's `{}`: the skills \
                     index lists it as `{}`",
                    front
                        .name
                        .as_ref()
                        .map_or("missing".to_string(), |n| format!("`{n}`")),
                    s.folder,
                    s.folder
                ),
            )
            .help("set `name` to the folder's name, as the Agent Skills format asks"),
        );
    }
    Some(Entry {
        name: s.folder.clone(),
        kind: "skill-md",
        description: description.clone(),
        url: path,
        digest: s.digest.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_format_rules() {
        assert_eq!(check_name("pdf-processing"), Ok(()));
        assert_eq!(check_name("a"), Ok(()));
        assert_eq!(check_name(&"a".repeat(64)), Ok(()));
        assert!(check_name("").is_err());
        assert!(check_name(&"a".repeat(65)).is_err());
        assert!(check_name("PDF-Processing").is_err());
        assert!(check_name("-pdf").is_err());
        assert!(check_name("pdf-").is_err());
        assert!(check_name("pdf--processing").is_err());
        assert!(check_name("pdf_processing").is_err());
        assert!(check_name("café").is_err());
    }

    #[test]
    fn descriptions_follow_the_format_rules() {
        assert_eq!(check_description("Helps with PDFs."), Ok(()));
        assert!(check_description("").is_err());
        assert!(check_description("  \n").is_err());
        assert_eq!(check_description(&"é".repeat(1024)), Ok(()));
        assert!(check_description(&"a".repeat(1025)).is_err());
    }

    #[test]
    fn front_matter_is_read_between_the_dashes() {
        let f = front_matter(
            b"---\nname: git-workflow\ndescription: Follow team Git conventions.\n---\n# Git\n",
        )
        .unwrap();
        assert_eq!(f.name.as_deref(), Some("git-workflow"));
        assert_eq!(
            f.description.as_deref(),
            Some("Follow team Git conventions.")
        );
        assert!(front_matter(b"# no front matter\n").is_err());
        assert!(front_matter(b"---\nname: x\n").is_err());
        assert!(front_matter(b"---\n- a\n---\n").is_err());
        assert!(front_matter(b"\xff\xfe").is_err());
        assert_eq!(front_matter(b"---\n---\n").unwrap().name, None);
    }
}
