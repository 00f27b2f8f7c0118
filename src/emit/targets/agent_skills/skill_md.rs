//! The SKILL.md: front matter, what the service is, how to authenticate, its capabilities in
//! groups, errors and limits, and links to the full documents, laid out within the format's
//! size guidance (see the parent module).

use std::fmt::Write as _;

use serde::Serialize;

use super::{BYTES_MAX, DESCRIPTION_MAX, LINES_MAX};
use crate::emit::Target;
use crate::emit::targets;
use crate::model::{Auth, Capability, ParamIn, Service};
use crate::text::{one_line, shorten};
use crate::values::param::whole_body;
use crate::values::path::Segment;

/// The front matter wellgen writes; serde_norway quotes what YAML would misread.
#[derive(Serialize)]
struct Front<'a> {
    name: &'a str,
    description: &'a str,
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
pub(super) fn api_host(service: &Service) -> String {
    url::Url::parse(service.base_url.as_str())
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default()
}

/// What the skill does and when to use it, within the format's 1024 characters: the
/// service's description, then when to reach for it, with the words of its tags (else of its
/// capabilities) that an agent matches a task against.
pub(super) fn description(service: &Service) -> String {
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
pub(super) enum Form {
    /// Parameters and one example call each.
    Full,
    /// One line each: method, URL and description.
    List,
    /// One line per tag: how many capabilities, and their ids as far as the budget goes.
    Tags,
}

impl Form {
    pub(super) fn what(self, n: usize) -> String {
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
/// matter, base URL, authentication) says where a call's parameters are, in its example or
/// elsewhere; the tail (errors, limits, documents) is the same in every form. The briefest form
/// always fits, its listing cut where the budget ends.
pub(super) fn skill_md(
    service: &Service,
    built: &[Target],
    name: &str,
    description: &str,
) -> (String, Form) {
    let tail = tail(service, built);
    let listed = !documents(service, built).is_empty();
    let count = |t: &str| t.matches('\n').count();
    for form in [Form::Full, Form::List, Form::Tags] {
        let head = head(service, name, description, form, listed);
        let max_lines = LINES_MAX.saturating_sub(count(&head) + count(&tail));
        let max_bytes = BYTES_MAX.saturating_sub(head.len() + tail.len());
        let mut page = Page::new(max_lines, max_bytes);
        let done = capabilities(service, form, &mut page).is_ok();
        if done || form == Form::Tags {
            return (format!("{head}{}{tail}", page.text), form);
        }
    }
    unreachable!("the briefest form always returns")
}

/// Front matter, title, what the service does, when to use it, base URL and authentication;
/// where a call's parameters are: its example in the full form, else the full documents when
/// the build publishes any (`listed`), else the API's own documentation.
fn head(service: &Service, name: &str, description: &str, form: Form, listed: bool) -> String {
    let front = serde_norway::to_string(&Front { name, description })
        .expect("two strings always serialise to YAML");
    let mut out = format!("---\n{front}---\n\n# {}\n\n", one_line(&service.name));
    let _ = writeln!(out, "{}\n", one_line(&service.description));
    let how = match (form, listed) {
        (Form::Full, _) => "send the request as its example shows",
        (Form::List | Form::Tags, true) => {
            "find its parameters in the full documents listed at the end, send the request"
        }
        (Form::List | Form::Tags, false) => {
            "find its parameters in the API's own documentation, send the request"
        }
    };
    let _ = writeln!(
        out,
        "Use this skill to call {} (version {}) for the user: pick the capability below that \
         fits the task, {how}, and read the JSON reply.\n",
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
        out.push_str("\nAsk the user for the credential; never write it into files or messages.");
        if form == Form::Full {
            out.push_str(" The examples below show where it goes as `<...>`.");
        }
        out.push('\n');
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
            Target::AiEndpoint.path(),
            site.join(Target::AiEndpoint.path())
        ));
        // `[source] split`'s index of sub-services, where the service has it written.
        let split = Target::AiEndpoint.descriptor().family_index();
        if let Some(index) = split.filter(|d| (d.written)(service)) {
            out.push(format!(
                "- [{}]({}): the capabilities by tag, one document each",
                index.path,
                site.join(index.path)
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
                "- and {left} more groups: {} and the OpenAPI document list them\n",
                Target::AiEndpoint.path()
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
        let whole = whole_body(&c.params, c.content_type.as_deref(), &service.schemas);
        for (i, p) in c.params.iter().enumerate() {
            let default_in = ParamIn::default_for(c.method, p.location == ParamIn::Path);
            let notation = one_line(&p.notation(default_in, whole == Some(i), &service.schemas));
            text.push_str(&format!("- `{}`: {}\n", p.name, notation));
        }
    }
    if let Some(r) = &c.returns {
        text.push_str(&format!("\nReturns: {}\n", one_line(r)));
    }
    text.push_str(&format!(
        "\n```http\n{}```\n",
        super::example::example_call(service, c)
    ));
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
