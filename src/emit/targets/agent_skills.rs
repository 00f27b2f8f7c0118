//! Agent Skills: a `SKILL.md` that teaches an agent to use the service (the Agent Skills
//! format, agentskills.io), at `/.well-known/agent-skills/<name>/SKILL.md`, and the discovery
//! index `/.well-known/agent-skills/index.json` (Agent Skills Discovery 0.2.0) listing it and
//! every skill of the site's own in the output folder, each with the SHA-256 of its bytes.
//!
//! The SKILL.md is written in Rust, not from a template: it is laid out within the format's
//! size guidance (under 500 lines, under 5,000 tokens), trying a fuller form first and a
//! briefer one when that is over, and a form over the budget is abandoned as soon as it is
//! (a large API never has its whole listing written only to be thrown away).

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::targets::{self, Descriptor, Document, Link, Relation, ai};
use crate::emit::{Artifact, Serving, Target, to_json_bytes};
use crate::model::param::whole_body;
use crate::model::path::Segment;
use crate::model::{
    Access, Auth, Capability, KeyPlace, Param, ParamIn, ParamType, Service, SiteSkill, SkillFront,
};
use crate::text::{one_line, sha256_digest, shorten};

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
            },
        ),
        Document {
            path: DIR,
            serving: SKILL_SERVING,
            family: Some("<name>/SKILL.md"),
            alias: false,
            link: None,
        },
    ],
    spec: "Agent Skills Discovery 0.2.0 (index); Agent Skills SKILL.md format (agentskills.io)",
    status: "draft (discovery); published format (SKILL.md)",
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
        let mut out = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            } else if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
        let cut: String = out.chars().take(NAME_MAX).collect();
        cut.trim_end_matches('-').to_string()
    };
    let name = from(&service.name);
    if !name.is_empty() {
        return name;
    }
    let host = from(&api_host(service));
    if host.is_empty() { "api".into() } else { host }
}

/// `the Bookshelf HTTP API`; `the Stripe API` for a name that says API already.
fn the_api(service: &Service) -> String {
    let name = one_line(&service.name);
    if name.to_ascii_lowercase().ends_with("api") {
        format!("the {name}")
    } else {
        format!("the {name} HTTP API")
    }
}

/// The API's host name (`api.example.com`).
fn api_host(service: &Service) -> String {
    url::Url::parse(service.base_url.as_str())
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default()
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
    skills: Vec<Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    description: &'a str,
    url: String,
    digest: String,
}

/// The front matter wellgen writes; serde_norway quotes what YAML would misread.
#[derive(Serialize)]
struct Front<'a> {
    name: &'a str,
    description: &'a str,
}

/// The documents, laid out: the generated skill unless the site has its own of that name,
/// and the index unless the site has its own.
pub struct Lowered {
    skill: Option<(String, Vec<u8>)>,
    index: Option<Vec<u8>>,
}

pub fn lower(service: &Service, built: &[Target], diags: &mut Diagnostics) -> Lowered {
    let name = skill_name(service);
    let site = &service.site;
    let description = description(service);
    let path = format!("{DIR}{name}/{SKILL_FILE}");
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
        let (text, form) = skill_md(service, built, &name, &description);
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
                .help(
                    "nothing to do: the SKILL.md links /.well-known/ai and the OpenAPI \
                     document, which describe every capability",
                ),
            );
        }
        Some((path.clone(), text.into_bytes()))
    };
    let mut entries: Vec<Entry> = Vec::new();
    if let Some((path, bytes)) = &skill {
        entries.push(Entry {
            name: &name,
            kind: "skill-md",
            description: &description,
            url: path.clone(),
            digest: sha256_digest(bytes),
        });
    }
    for s in &site.skills {
        if let Some(entry) = site_entry(s, diags) {
            entries.push(entry);
        }
    }
    entries.sort_by(|a, b| a.name.cmp(b.name));
    let index = if site.skills_index {
        diags.push(
            Diagnostic::new(
                Code::SkillIndexKept,
                match &skill {
                    Some((path, _)) => format!(
                        "the site's own {INDEX_PATH} is kept: wellgen writes none, and \
                         {path} is listed only if that index lists it"
                    ),
                    None => format!("the site's own {INDEX_PATH} is kept: wellgen writes none"),
                },
            )
            .help(
                "list wellgen's skill in the site's index, or delete that index to have \
                 wellgen write one listing every skill in the folder",
            ),
        );
        None
    } else {
        Some(to_json_bytes(&Index {
            schema: SCHEMA,
            skills: entries,
        }))
    };
    Lowered { skill, index }
}

pub fn render(_service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let mut out = Vec::new();
    if let Some((path, bytes)) = &lowered.skill {
        out.push(Artifact::document(
            path.as_str(),
            bytes.clone(),
            SKILL_SERVING,
        ));
    }
    if let Some(index) = &lowered.index {
        out.push(Artifact::document(INDEX_PATH, index.clone(), INDEX_SERVING));
    }
    out
}

/// The index entry of a skill of the site's own, by its folder's name (the format asks the
/// two to be equal, and the URL is the folder's); `None`, with a warning, when the index
/// cannot list it (a folder name or description the format refuses).
fn site_entry<'a>(s: &'a SiteSkill, diags: &mut Diagnostics) -> Option<Entry<'a>> {
    let path = format!("{DIR}{}/{SKILL_FILE}", s.folder);
    let left_out = |why: String| {
        Diagnostic::new(
            Code::SkillSiteInvalid,
            format!("{path}: {why}: the skills index leaves it out (the file is kept)"),
        )
        .help(
            "give the skill's front matter a `name` equal to its folder's and a `description` \
             of 1-1024 characters",
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
                Code::SkillSiteInvalid,
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
        name: &s.folder,
        kind: "skill-md",
        description,
        url: path,
        digest: s.digest.clone(),
    })
}

/// What the skill does and when to use it, within the format's 1024 characters: the
/// service's description, then when to reach for it, with the words of its tags (else of its
/// capabilities) that an agent matches a task against.
fn description(service: &Service) -> String {
    let what = one_line(&service.description);
    let what = what.trim_end_matches('.');
    let topics: Vec<String> = groups(service)
        .iter()
        .map(|(g, _)| one_line(g))
        .filter(|g| !g.is_empty())
        .collect();
    let shown = topics.len().min(8);
    let mut about = topics[..shown].join(", ");
    if topics.len() > shown {
        about.push_str(&format!(" and {} more", topics.len() - shown));
    }
    let mut text = format!(
        "{what}. Use when a task needs {} at {}",
        the_api(service),
        api_host(service)
    );
    if !about.is_empty() {
        text.push_str(&format!(" ({about})"));
    }
    text.push('.');
    shorten(&text, DESCRIPTION_MAX).0
}

/// How much of each capability the SKILL.md says, fullest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Parameters and one example call each.
    Full,
    /// One line each: method, URL and description.
    List,
    /// One line per tag: how many capabilities, and their ids as far as the budget goes.
    Tags,
}

impl Form {
    fn what(self, n: usize) -> String {
        match self {
            Form::Full => format!("describes {n} capabilities in full"),
            Form::List => format!("lists {n} capabilities one line each, without parameters"),
            Form::Tags => format!("lists {n} capabilities by tag only"),
        }
    }
}

/// Text that stops growing past a budget of lines and bytes.
struct Page {
    text: String,
    lines: usize,
    max_lines: usize,
    max_bytes: usize,
}

/// A page ran over its budget.
struct Over;

impl Page {
    fn new(max_lines: usize, max_bytes: usize) -> Self {
        Self {
            text: String::new(),
            lines: 0,
            max_lines,
            max_bytes,
        }
    }

    /// Whether `more` (bytes and lines) still fits.
    fn fits(&self, bytes: usize, lines: usize) -> bool {
        self.text.len() + bytes <= self.max_bytes && self.lines + lines <= self.max_lines
    }

    fn line(&mut self, line: &str) -> Result<(), Over> {
        let lines = line.matches('\n').count() + 1;
        if !self.fits(line.len() + 1, lines) {
            return Err(Over);
        }
        self.text.push_str(line);
        self.text.push('\n');
        self.lines += lines;
        Ok(())
    }
}

/// The SKILL.md in the fullest form within the guidance, and that form. The head (front
/// matter, base URL, authentication) and the tail (errors, limits, documents) are the same in
/// every form; the briefest form always fits, its listing cut where the budget ends.
fn skill_md(service: &Service, built: &[Target], name: &str, description: &str) -> (String, Form) {
    let head = head(service, name, description);
    let tail = tail(service, built);
    let count = |t: &str| t.matches('\n').count();
    let max_lines = LINES_MAX.saturating_sub(count(&head) + count(&tail));
    let max_bytes = BYTES_MAX.saturating_sub(head.len() + tail.len());
    for form in [Form::Full, Form::List, Form::Tags] {
        let mut page = Page::new(max_lines, max_bytes);
        let done = capabilities(service, form, &mut page).is_ok();
        if done || form == Form::Tags {
            return (format!("{head}{}{tail}", page.text), form);
        }
    }
    unreachable!("the briefest form always returns")
}

/// Front matter, title, what the service does, when to use it, base URL and authentication.
fn head(service: &Service, name: &str, description: &str) -> String {
    let front = serde_norway::to_string(&Front { name, description })
        .expect("two strings always serialise to YAML");
    let mut out = format!("---\n{front}---\n\n# {}\n\n", one_line(&service.name));
    let _ = writeln!(out, "{}\n", one_line(&service.description));
    let _ = writeln!(
        out,
        "Use this skill to call {} (version {}) for the user: pick the capability below that \
         fits the task, send the request as its example shows, and read the JSON reply.\n",
        the_api(service),
        one_line(&service.version)
    );
    let _ = writeln!(out, "Base URL: `{}`\n", service.base_url.as_str());
    out.push_str("## Authentication\n\n");
    let primary = match &service.auth {
        Some(a) => a.describe(),
        None => "The service does not say how to authenticate; try without credentials, and \
                 ask the user for them if a call is refused (401 or 403)."
            .to_string(),
    };
    let _ = writeln!(out, "{}", one_line(&primary));
    if !service.auth_with.is_empty() {
        let with: Vec<String> = service.auth_with.iter().map(Auth::what).collect();
        let _ = writeln!(out, "\nEvery request also carries {}.", with.join("; "));
    }
    if !service.auth_also.is_empty() {
        let _ = writeln!(out, "\nAlso accepted instead:\n");
        for a in service.auth_also.iter().take(AUTH_ALSO_MAX) {
            let _ = writeln!(out, "- {}", one_line(&a.describe()));
        }
        if service.auth_also.len() > AUTH_ALSO_MAX {
            let _ = writeln!(
                out,
                "- and {} more schemes (see the OpenAPI document)",
                service.auth_also.len() - AUTH_ALSO_MAX
            );
        }
    }
    if service.auth.as_ref().is_some_and(|a| !a.is_none()) {
        out.push_str(
            "\nAsk the user for the credential; never write it into files or messages. The \
             examples below show where it goes as `<...>`.\n",
        );
    }
    out.push('\n');
    out
}

/// The most alternative schemes listed one by one.
const AUTH_ALSO_MAX: usize = 5;
/// The most distinct errors listed.
const ERRORS_MAX: usize = 20;

/// Errors and limits, then the documents that say everything.
fn tail(service: &Service, built: &[Target]) -> String {
    let mut out = String::from("## Errors and limits\n\n");
    if let Some(rpm) = service.rate_limits.and_then(|r| r.requests_per_minute) {
        let _ = writeln!(
            out,
            "- At most {rpm} requests per minute; on `429 Too Many Requests`, wait before \
             retrying."
        );
    }
    let limited: Vec<String> = service
        .capabilities
        .iter()
        .filter_map(|c| Some(format!("`{}` {}", c.id, c.rate_limit?)))
        .collect();
    if !limited.is_empty() {
        let shown = limited.len().min(ERRORS_MAX);
        let mut text = limited[..shown].join(", ");
        if limited.len() > shown {
            text.push_str(&format!(" and {} more", limited.len() - shown));
        }
        let _ = writeln!(out, "- Capability limits: {text}.");
    }
    let mut errors: Vec<(Option<u16>, &str, Option<&str>)> = Vec::new();
    let mut more = 0;
    for e in service.capabilities.iter().flat_map(|c| &c.errors) {
        if errors
            .iter()
            .any(|(s, n, _)| *s == e.status && *n == e.name)
        {
            continue;
        }
        if errors.len() == ERRORS_MAX {
            more += 1;
            continue;
        }
        errors.push((e.status, &e.name, e.description.as_deref()));
    }
    errors.sort_by_key(|(s, _, _)| *s);
    for (status, name, description) in &errors {
        let status = status.map(|s| format!("{s} ")).unwrap_or_default();
        let mut line = format!("- `{status}{}`", one_line(name));
        if let Some(d) = description {
            line.push_str(&format!(": {}", shorten(d, 160).0));
        }
        let _ = writeln!(out, "{line}");
    }
    if more > 0 {
        let _ = writeln!(out, "- and {more} more errors (see the OpenAPI document)");
    }
    let _ = writeln!(
        out,
        "- {} `4xx` status means the request needs fixing (read the reply's message); a `5xx` \
         may be retried once, later.",
        if errors.is_empty() { "A" } else { "Any other" }
    );
    let documents = documents(service, built);
    if !documents.is_empty() {
        out.push_str("\n## Full documents\n\n");
        for line in documents {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

/// Links to the documents of the build that describe every capability in full.
fn documents(service: &Service, built: &[Target]) -> Vec<String> {
    let site = &service.site_url;
    let mut out = Vec::new();
    if built.contains(&Target::AiEndpoint) {
        out.push(format!(
            "- [{}]({}): every capability with its parameters (aiendpoint); for a large API, \
             an index of parts, one per group of capabilities: fetch the part you need",
            ai::PATHS[0],
            site.join(ai::PATHS[0])
        ));
        if service.split.is_some() {
            out.push(format!(
                "- [{}]({}): the capabilities by tag, one document each",
                ai::split::INDEX_PATH,
                site.join(ai::split::INDEX_PATH)
            ));
        }
    }
    for d in targets::linked(service, built) {
        if matches!(d.target, Target::OpenApi | Target::LlmsTxt) {
            out.push(format!(
                "- [{}]({}): {}",
                d.link.title,
                site.join(d.path),
                d.link.note
            ));
        }
    }
    out
}

/// The capabilities in groups, in the order the groups first appear: by first tag; where no
/// capability has one, by the resource its path names first (`/v1/charges/{id}` → `charges`),
/// as a large untagged API is still read by resource. Capabilities without a group come last,
/// in a group named `""`.
fn groups(service: &Service) -> Vec<(&str, Vec<&Capability>)> {
    let tagged = service.capabilities.iter().any(|c| !c.tags.is_empty());
    let mut groups: Vec<(&str, Vec<&Capability>)> = Vec::new();
    for c in &service.capabilities {
        let group = if tagged {
            c.tags.first().map_or("", String::as_str)
        } else {
            resource(c)
        };
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, members)) => members.push(c),
            None => groups.push((group, vec![c])),
        }
    }
    groups.sort_by_key(|(g, _)| g.is_empty());
    groups
}

/// The first segment of a capability's path that names a resource: not a placeholder, not a
/// version (`v1`, `v2beta`) and not `api`.
fn resource(c: &Capability) -> &str {
    let Some(Segment::Literal(first)) = c.path.segments().first() else {
        return "";
    };
    first
        .split('/')
        .find(|s| {
            let version = s
                .strip_prefix('v')
                .is_some_and(|rest| rest.starts_with(|ch: char| ch.is_ascii_digit()));
            !s.is_empty() && !version && *s != "api"
        })
        .unwrap_or("")
}

/// The capabilities, in their groups, in `form`.
fn capabilities(service: &Service, form: Form, page: &mut Page) -> Result<(), Over> {
    let groups = groups(service);
    let n = service.capabilities.len();
    page.line(&format!(
        "## Capabilities\n\n{n} {}{}.\n",
        if n == 1 { "capability" } else { "capabilities" },
        if groups.len() > 1 {
            format!(", in {} groups", groups.len())
        } else {
            String::new()
        }
    ))?;
    if form == Form::Tags {
        return tags(&groups, page);
    }
    let titled = groups.len() > 1 || groups.first().is_some_and(|(t, _)| !t.is_empty());
    for (tag, members) in &groups {
        if titled {
            let title = if tag.is_empty() { "Other" } else { tag };
            page.line(&format!("### {}\n", one_line(title)))?;
        }
        for c in members {
            match form {
                Form::Full => full(service, c, page)?,
                _ => page.line(&format!(
                    "- `{}` `{} {}`: {}",
                    c.id,
                    c.method.as_str(),
                    c.url(&service.base_url),
                    flags(c, one_line(&c.description))
                ))?,
            }
        }
        if form == Form::List {
            page.line("")?;
        }
    }
    Ok(())
}

/// One line per tag, the capability ids as far as the page goes; the briefest form, which
/// always ends within the budget.
fn tags(groups: &[(&str, Vec<&Capability>)], page: &mut Page) -> Result<(), Over> {
    /// Room kept for the closing line.
    const CLOSING: usize = 120;
    // Each group's line gets an even share of what is left, so that every group is named.
    let share = (page.max_bytes.saturating_sub(page.text.len() + CLOSING) / groups.len().max(1))
        .clamp(80, 400);
    for (i, (tag, members)) in groups.iter().enumerate() {
        let title = if tag.is_empty() { "other" } else { tag };
        let mut line = format!("- **{}** ({}):", one_line(title), members.len());
        for (k, c) in members.iter().enumerate() {
            let id = format!(" `{}`", c.id);
            if line.len() + id.len() + 16 > share {
                line.push_str(&format!(" and {} more", members.len() - k));
                break;
            }
            line.push_str(&id);
        }
        if !page.fits(line.len() + 1 + CLOSING, 2) {
            let left = groups.len() - i;
            return page.line(&format!(
                "- and {left} more groups: /.well-known/ai and the OpenAPI document list them\n"
            ));
        }
        page.line(&line)?;
    }
    page.line("")
}

/// A capability in full: its call, parameters and one example.
fn full(service: &Service, c: &Capability, page: &mut Page) -> Result<(), Over> {
    let mut text = format!(
        "**`{}`**: {}\n\n`{} {}`",
        c.id,
        flags(c, one_line(&c.description)),
        c.method.as_str(),
        c.url(&service.base_url)
    );
    if !c.scopes.is_empty() {
        text.push_str(&format!(" (scopes: {})", c.scopes.join(", ")));
    }
    text.push('\n');
    if !c.params.is_empty() {
        text.push_str("\nParameters:\n\n");
        let whole = whole_body(&c.params, c.content_type.as_deref());
        for (i, p) in c.params.iter().enumerate() {
            let default_in = ParamIn::default_for(c.method, p.location == ParamIn::Path);
            let notation = one_line(&p.notation(default_in, whole == Some(i)));
            text.push_str(&format!("- `{}`: {}\n", p.name, notation));
        }
    }
    if let Some(r) = &c.returns {
        text.push_str(&format!("\nReturns: {}\n", one_line(r)));
    }
    text.push_str(&format!("\n```http\n{}```\n", example_call(service, c)));
    page.line(&text)
}

/// The description with what an agent must know before the call.
fn flags(c: &Capability, mut text: String) -> String {
    if c.deprecated {
        text.push_str(" (deprecated)");
    }
    if c.confirm {
        let end = text.trim_end_matches(['.', ' ']).len();
        text.truncate(end);
        text.push_str(". Ask the user before calling it.");
    }
    text
}

/// One example call: the request line, the headers it needs and the body. The capability's
/// own example request where it has one (arguments by parameter name, or the raw body);
/// otherwise its required parameters, each with a value its own schema admits (`value_for`).
fn example_call(service: &Service, c: &Capability) -> String {
    let given = c.example.as_ref().and_then(|e| e.request.as_ref());
    let mut args: Vec<(&Param, Value)> = Vec::new();
    for p in &c.params {
        let from_example = given
            .and_then(Value::as_object)
            .and_then(|m| m.get(&p.name))
            .filter(|v| admits(p, v))
            .cloned();
        let value = match from_example {
            Some(v) => Some(v),
            None if p.required || p.location == ParamIn::Path => Some(value_for(p)),
            None => None,
        };
        if let Some(v) = value {
            args.push((p, v));
        }
    }
    let mut url = c
        .host
        .as_ref()
        .unwrap_or(&service.base_url)
        .as_str()
        .to_string();
    for segment in c.path.segments() {
        match segment {
            Segment::Literal(l) => url.push_str(l),
            Segment::Param(n) => {
                let v = args
                    .iter()
                    .find(|(p, _)| p.wire() == n || p.name == *n)
                    .map(|(_, v)| scalar(v))
                    .unwrap_or_else(|| format!("<{n}>"));
                url.push_str(&encode(&v));
            }
        }
    }
    if c.path.segments().is_empty() {
        url.push('/');
    }
    let mut query: Vec<String> = args
        .iter()
        .filter(|(p, _)| p.location == ParamIn::Query)
        .flat_map(|(p, v)| match v {
            Value::Array(items) => items
                .iter()
                .map(|i| format!("{}={}", encode(p.wire()), encode(&scalar(i))))
                .collect(),
            v => vec![format!("{}={}", encode(p.wire()), encode(&scalar(v)))],
        })
        .collect();
    let mut headers: Vec<String> = Vec::new();
    if c.access != Access::Public {
        match &service.auth {
            Some(Auth::ApiKey {
                name,
                place: KeyPlace::Header,
                ..
            }) => headers.push(format!("{name}: <API key>")),
            Some(Auth::ApiKey {
                name,
                place: KeyPlace::Query,
                ..
            }) => query.push(format!("{}=<API key>", encode(name))),
            Some(Auth::Bearer { .. } | Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. }) => {
                headers.push("Authorization: Bearer <token>".into());
            }
            Some(Auth::Basic { .. }) => {
                headers.push("Authorization: Basic <base64 of user:password>".into());
            }
            _ => {}
        }
    }
    for (p, v) in args.iter().filter(|(p, _)| p.location == ParamIn::Header) {
        headers.push(format!("{}: {}", p.wire(), scalar(v)));
    }
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }
    let whole = whole_body(&c.params, c.content_type.as_deref());
    let body: Option<Value> = match given {
        Some(raw) if !raw.is_object() => Some(raw.clone()),
        _ => {
            let fields: Vec<(usize, &(&Param, Value))> = args
                .iter()
                .enumerate()
                .filter(|(_, (p, _))| p.location == ParamIn::Body)
                .collect();
            match fields.as_slice() {
                [] => None,
                [(_, (p, v))] if whole.is_some_and(|w| c.params[w].name == p.name) => {
                    Some(v.clone())
                }
                _ => Some(Value::Object(
                    fields
                        .iter()
                        .map(|(_, (p, v))| (p.wire().to_string(), v.clone()))
                        .collect(),
                )),
            }
        }
    };
    let mut out = format!("{} {url}\n", c.method.as_str());
    if body.is_some() {
        headers.push(format!(
            "Content-Type: {}",
            c.content_type.as_deref().unwrap_or("application/json")
        ));
    }
    for h in headers {
        out.push_str(&one_line(&h));
        out.push('\n');
    }
    if let Some(body) = body {
        let text = match &body {
            Value::String(s) => s.clone(),
            v => serde_json::to_string(v).expect("JSON values serialise"),
        };
        out.push('\n');
        out.push_str(&text);
        out.push('\n');
    }
    out
}

/// A value for `p` its own schema admits: its example, else its default, else its first
/// allowed value, else one made from its type within its bounds, each taken only if it fits
/// (type, allowed values, bounds, lengths, pattern, format); `<name>` where none does.
pub fn value_for(p: &Param) -> Value {
    let candidates = [
        p.example.clone(),
        p.default.clone(),
        p.allowed.first().cloned(),
        Some(made_up(p)),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|v| admits(p, v))
        .unwrap_or_else(|| Value::String(format!("<{}>", p.name)))
}

/// A value of `p`'s type, within its bounds and lengths, of its format where it names one.
fn made_up(p: &Param) -> Value {
    let keyword = |k: &str| p.schema.as_ref().and_then(|s| s.get(k));
    match p.kind {
        ParamType::Integer => {
            let lo = p.min.map_or(1.0, f64::ceil);
            let n = p.max.map_or(lo, |hi| lo.min(hi.floor()));
            Value::from(n as i64)
        }
        ParamType::Number => {
            let n = p.min.unwrap_or(1.0);
            let n = p.max.map_or(n, |hi| n.min(hi));
            serde_json::Number::from_f64(n).map_or(Value::from(1), Value::Number)
        }
        ParamType::Boolean => Value::Bool(true),
        ParamType::Object => Value::Object(serde_json::Map::new()),
        ParamType::Array => {
            let item = match p.items {
                Some(ParamType::Integer | ParamType::Number) => Value::from(1),
                Some(ParamType::Boolean) => Value::Bool(true),
                Some(ParamType::Object) => Value::Object(serde_json::Map::new()),
                Some(ParamType::Array) => Value::Array(Vec::new()),
                Some(ParamType::String) | None => Value::String("example".into()),
            };
            Value::Array(vec![item])
        }
        ParamType::String => {
            let format = keyword("format").and_then(Value::as_str);
            let text = match format {
                Some("date-time") => "2026-01-01T00:00:00Z".to_string(),
                Some("date") => "2026-01-01".to_string(),
                Some("email") => "user@example.com".to_string(),
                Some("uri" | "url") => "https://example.com".to_string(),
                Some("uuid") => "123e4567-e89b-12d3-a456-426614174000".to_string(),
                _ => "example".to_string(),
            };
            let min = keyword("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = keyword("maxLength")
                .and_then(Value::as_u64)
                .map(|m| m as usize);
            let mut text = text;
            while text.chars().count() < min {
                text.push('x');
            }
            if let Some(max) = max {
                text = text.chars().take(max).collect();
            }
            Value::String(text)
        }
    }
}

/// Whether `v` is a value of `p`'s own schema, as far as its type, allowed values, bounds,
/// lengths, pattern and common formats say.
pub fn admits(p: &Param, v: &Value) -> bool {
    if v.is_null() {
        return p.nullable;
    }
    if !p.kind.admits(v) {
        return false;
    }
    if !p.allowed.is_empty() && !p.allowed.contains(v) {
        return false;
    }
    if let Some(n) = v.as_f64()
        && (p.min.is_some_and(|m| n < m) || p.max.is_some_and(|m| n > m))
    {
        return false;
    }
    if let (ParamType::Array, Some(items), Value::Array(values)) = (p.kind, p.items, v)
        && !values.iter().all(|i| items.admits(i))
    {
        return false;
    }
    let Some(s) = v.as_str() else {
        return true;
    };
    let keyword = |k: &str| p.schema.as_ref().and_then(|s| s.get(k));
    let length = s.chars().count() as u64;
    if keyword("minLength")
        .and_then(Value::as_u64)
        .is_some_and(|m| length < m)
        || keyword("maxLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| length > m)
    {
        return false;
    }
    if let Some(pattern) = &p.pattern {
        let matches = fancy_regex::RegexBuilder::new(pattern)
            .backtrack_limit(100_000)
            .build()
            .ok()
            .and_then(|re| re.is_match(s).ok());
        // A pattern that cannot be read or run is no proof: the value is not claimed valid.
        if matches != Some(true) {
            return false;
        }
    }
    match keyword("format").and_then(Value::as_str) {
        Some("date-time") => s.parse::<jiff::Timestamp>().is_ok(),
        Some("date") => s.len() == 10 && s.parse::<jiff::civil::Date>().is_ok(),
        Some("email") => s.contains('@'),
        Some("uri" | "url") => url::Url::parse(s).is_ok(),
        Some("uuid") => {
            let groups: Vec<&str> = s.split('-').collect();
            groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
                && groups
                    .iter()
                    .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
        }
        _ => true,
    }
}

/// A value as it reads in a URL or header: strings bare, everything else as JSON.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Percent-encoding of everything but RFC 3986's unreserved characters, and `<` `>` around a
/// placeholder kept as they are so it reads as one.
fn encode(text: &str) -> String {
    if text.starts_with('<') && text.ends_with('>') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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

    fn param(kind: ParamType) -> Param {
        Param {
            name: "x".into(),
            kind,
            required: true,
            location: ParamIn::Query,
            description: None,
            default: None,
            allowed: Vec::new(),
            min: None,
            max: None,
            pattern: None,
            example: None,
            items: None,
            nullable: false,
            schema: None,
            compact: None,
            wire_name: None,
        }
    }

    #[test]
    fn made_up_values_fit_their_own_schema() {
        let mut p = param(ParamType::Integer);
        p.min = Some(10.0);
        p.max = Some(20.0);
        assert_eq!(value_for(&p), Value::from(10));
        p.example = Some(Value::from(30));
        assert_eq!(
            value_for(&p),
            Value::from(10),
            "an example out of bounds is passed over"
        );

        let mut s = param(ParamType::String);
        s.schema = Some(serde_json::json!({"minLength": 12, "maxLength": 20}));
        let v = value_for(&s);
        assert!(admits(&s, &v), "{v}");
        s.schema = Some(serde_json::json!({"format": "date"}));
        assert_eq!(value_for(&s), Value::from("2026-01-01"));
        s.allowed = vec![Value::from("asc"), Value::from("desc")];
        s.schema = None;
        assert_eq!(value_for(&s), Value::from("asc"));
        s.allowed.clear();
        s.pattern = Some("^[A-Z]{3}$".into());
        assert_eq!(
            value_for(&s),
            Value::from("<x>"),
            "no value is claimed to match"
        );
        s.example = Some(Value::from("EUR"));
        assert_eq!(value_for(&s), Value::from("EUR"));
    }
}
