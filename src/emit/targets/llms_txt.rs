//! /llms.txt (the llms.txt proposal, llmstxt.org).
//!
//! The format is Markdown read by fixed rules (the reference parser's regexes): an H1, a `>`
//! summary line, free text, then H2 sections holding only `- [name](url): notes` lines. The
//! view built here makes every value fit those rules, so `text` only lays them out.

use std::fmt::Write as _;

use crate::diag::Diagnostics;
use crate::emit::targets::{self, Descriptor, Document, Relation};
use crate::emit::{Artifact, Serving, Target};
use crate::model::{Auth, Capability, KeyPlace, Service};
use crate::text::one_line;

pub const PATH: &str = "/llms.txt";
pub const SERVING: Serving = Serving {
    content_type: "text/plain; charset=utf-8",
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "llms-txt",
    documents: &[Document::linked(
        PATH,
        SERVING,
        targets::Link {
            title: "llms.txt",
            note: "a plain-text overview of the service for language models",
            media_type: "text/plain",
            relation: Relation::ServiceDoc,
            ai_catalog: Some("text/plain"),
        },
    )],
    spec: "llms.txt proposal (llmstxt.org)",
    status: "informal proposal",
    opt_in: None,
    requires: &[],
};
/// The proposal's section whose links a reader may skip when context is short.
pub const OPTIONAL: &str = "Optional";

struct View<'a> {
    title: &'a str,
    summary: &'a str,
    details: &'a str,
    sections: Vec<Section<'a>>,
}

struct Section<'a> {
    name: &'static str,
    links: Vec<Link<'a>>,
}

#[derive(Clone)]
struct Link<'a> {
    name: &'a str,
    url: String,
    notes: Option<&'a str>,
}

/// The file's texts, and the targets built: it links to their documents, and capabilities link
/// to their ADP detail files when those are published.
pub struct Lowered<'a> {
    texts: Texts<'a>,
    built: Vec<Target>,
}

/// /llms.txt has no rule the model does not already guarantee: nothing to report.
pub fn lower<'a>(service: &'a Service, built: &[Target], _diags: &mut Diagnostics) -> Lowered<'a> {
    let texts = Texts {
        title: one_line(&service.name),
        summary: one_line(&service.description),
        details: details(service),
        capability_notes: service
            .capabilities
            .iter()
            .map(|c| capability_notes(service, c))
            .collect(),
        optional: optional_links(service),
    };
    Lowered {
        texts,
        built: built.to_vec(),
    }
}

/// The texts of /llms.txt, each made to fit the format's line-by-line rules.
struct Texts<'a> {
    title: String,
    summary: String,
    details: String,
    /// One per capability, in order.
    capability_notes: Vec<String>,
    optional: Vec<Link<'a>>,
}

pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let view = view(service, &lowered.built, &lowered.texts);
    vec![Artifact::document(PATH, text(&view).into_bytes(), SERVING)]
}

/// The file: the title, the summary, the details, then each section's links, one a line.
fn text(view: &View) -> String {
    let mut out = format!(
        "# {}\n\n> {}\n\n{}\n",
        view.title, view.summary, view.details
    );
    for section in &view.sections {
        let _ = write!(out, "\n## {}\n\n", section.name);
        for link in &section.links {
            let _ = write!(out, "- [{}]({})", link.name, link.url);
            if let Some(notes) = link.notes.filter(|n| !n.is_empty()) {
                let _ = write!(out, ": {notes}");
            }
            out.push('\n');
        }
    }
    out
}

fn view<'a>(service: &'a Service, built: &[Target], lowered: &'a Texts) -> View<'a> {
    let site = &service.site_url;
    let documents = targets::linked(service, built)
        .into_iter()
        .filter(|d| d.target != Target::LlmsTxt)
        .map(|d| Link {
            name: d.link.title,
            url: link_url(&site.join(d.path)),
            notes: Some(d.link.note),
        })
        .collect();
    let capabilities = service
        .capabilities
        .iter()
        .zip(&lowered.capability_notes)
        .map(|(c, notes)| Link {
            name: &c.id,
            // The ADP detail file when it is published, else the endpoint itself.
            url: link_url(&if built.contains(&Target::Adp) {
                site.join(&Target::Adp.member_path(&c.id))
            } else {
                c.url(&service.base_url)
            }),
            notes: Some(notes),
        })
        .collect();
    let mut sections = vec![
        Section {
            name: "Capabilities",
            links: capabilities,
        },
        Section {
            name: "Discovery documents",
            links: documents,
        },
    ];
    if !lowered.optional.is_empty() {
        sections.push(Section {
            name: OPTIONAL,
            links: lowered.optional.clone(),
        });
    }
    View {
        title: &lowered.title,
        summary: &lowered.summary,
        details: &lowered.details,
        sections,
    }
}

/// The free-text part: what the service is and how to call it. The reference parser only
/// finds the summary when text follows it, so this is never empty.
fn details(service: &Service) -> String {
    let n = service.capabilities.len();
    // Starts with a fixed word: a line of free text starting with `#` or `>` would be read as
    // a heading or the summary.
    let mut out = format!(
        "This is version {} of {}, an HTTP API at {}. It has {n} {}, listed below with links \
         to their machine-readable descriptions; the discovery documents describe the whole \
         API in other formats.",
        one_line(&service.version),
        one_line(&service.name),
        service.base_url,
        if n == 1 { "capability" } else { "capabilities" },
    );
    out.push(' ');
    out.push_str(&match &service.auth {
        None => "Authentication is not declared.".to_string(),
        Some(Auth::None { .. }) => "No authentication is needed.".to_string(),
        Some(Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            ..
        }) => {
            format!("Requests carry an API key in the `{name}` header.")
        }
        Some(Auth::ApiKey {
            name,
            place: KeyPlace::Query,
            ..
        }) => format!("Requests carry an API key in the `{name}` query parameter."),
        Some(Auth::ApiKey {
            name,
            place: KeyPlace::Cookie,
            ..
        }) => format!("Requests carry an API key in the `{name}` cookie."),
        Some(Auth::Basic { .. }) => "Requests carry HTTP Basic credentials.".to_string(),
        Some(Auth::Digest { .. }) => "Requests use HTTP Digest authentication.".to_string(),
        Some(Auth::Bearer { .. }) => "Requests carry a bearer token.".to_string(),
        Some(Auth::OAuth2 { .. }) => "Requests carry an OAuth 2.0 access token.".to_string(),
        Some(Auth::OpenIdConnect { discovery_url, .. }) => {
            format!("Requests carry an OpenID Connect token (provider: {discovery_url}).")
        }
        Some(Auth::MutualTls { .. }) => {
            "Connections present a client certificate (mutual TLS).".to_string()
        }
        Some(Auth::Other { description, .. }) => format!(
            "Authentication: {}.",
            one_line(description).trim_end_matches('.')
        ),
        Some(Auth::SignedKey { header_prefix, .. }) => {
            format!("Requests are signed with a registered key (`{header_prefix}` headers).")
        }
    });
    if !service.auth_with.is_empty() {
        let with: Vec<String> = service.auth_with.iter().map(Auth::what).collect();
        out.push_str(&format!(" Each request also carries {}.", with.join("; ")));
    }
    if !service.auth_also.is_empty() {
        let also: Vec<String> = service.auth_also.iter().map(Auth::what).collect();
        out.push_str(&format!(" Also accepted instead: {}.", also.join("; ")));
    }
    if let Some(rpm) = service.rate_limits.and_then(|r| r.requests_per_minute) {
        out.push_str(&format!(" The rate limit is {rpm} requests per minute."));
    }
    if let Some(docs) = service.auth.as_ref().and_then(Auth::docs) {
        out.push_str(&format!(" How to authenticate: {docs}"));
    }
    out
}

/// `description (METHOD url)` plus what an agent must know before calling it.
fn capability_notes(service: &Service, c: &Capability) -> String {
    let mut out = format!(
        "{} ({} {})",
        one_line(&c.description),
        c.method.as_str(),
        c.url(&service.base_url)
    );
    if c.deprecated {
        out.push_str(". Deprecated");
    }
    if c.confirm {
        out.push_str(". Ask the user before calling it");
    }
    out
}

fn optional_links(service: &Service) -> Vec<Link<'_>> {
    let links = &service.links;
    [
        ("Documentation", links.docs.as_deref()),
        ("Terms of service", links.terms.as_deref()),
        ("Privacy policy", links.privacy.as_deref()),
        ("Support", links.support.as_deref()),
        ("Source repository", links.repository.as_deref()),
        ("Status", service.meta.status.as_deref()),
        ("Changelog", service.meta.changelog.as_deref()),
    ]
    .into_iter()
    .filter_map(|(name, url)| {
        Some(Link {
            name,
            url: link_url(url?),
            notes: None,
        })
    })
    .collect()
}

/// Text on one line, white space runs collapsed: the parser reads titles, the summary and
/// notes line by line.
/// A URL the link pattern `[^)]+` reads whole: parentheses are percent-encoded (URLs here are
/// checked absolute https without white space, so nothing else can end the link early).
fn link_url(url: &str) -> String {
    url.replace('(', "%28").replace(')', "%29")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_fit_on_one_line_and_links_stay_whole() {
        assert_eq!(one_line("a\n  b\tc "), "a b c");
        assert_eq!(
            link_url("https://x.example/a_(b)"),
            "https://x.example/a_%28b%29"
        );
    }
}
