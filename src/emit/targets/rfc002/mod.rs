//! RFC-002 (ar-agents, "Agent-Discovery-By-Default"): `/.well-known/agents.json`,
//! `/.well-known/ai-plugin.json` and `/api/discovery`. Its fourth document, the OpenAPI variant
//! at `/api/discovery?format=openapi`, is the `openapi` target; `hosts` routes the query.

mod agents_json;
mod ai_plugin;
mod discovery;
mod generated_at;

use crate::diag::Diagnostics;
use crate::emit::targets::{Descriptor, Document, Link, Relation, Target};
use crate::emit::{Artifact, JSON, Serving, targets::openapi};
use crate::model::Service;

pub use ai_plugin::plugin_manifest_written;
pub use generated_at::{generated_at, rfc3339};

/// §4's "recommended cache headers", for all four documents.
pub const CACHE_CONTROL: &str = "public, max-age=300, s-maxage=600, stale-while-revalidate=86400";
/// The RFC names no media type or CORS policy: the documents are public JSON (§8), so JSON
/// with `Access-Control-Allow-Origin: *` for browser-based agents.
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: CACHE_CONTROL,
    cors: true,
};
pub const AGENTS_PATH: &str = "/.well-known/agents.json";
pub const AI_PLUGIN_PATH: &str = "/.well-known/ai-plugin.json";
pub const DISCOVERY_PATH: &str = "/api/discovery";

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "rfc002",
    documents: &[
        Document::linked(
            AGENTS_PATH,
            SERVING,
            Link {
                title: "agents.json",
                note: "capability metadata and agent instructions (RFC-002)",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
                ai_catalog: None,
            },
        ),
        Document::linked(
            AI_PLUGIN_PATH,
            SERVING,
            Link {
                title: "AI plugin manifest",
                note: "the OpenAI plugin manifest pointing at the OpenAPI description",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
                ai_catalog: None,
            },
        )
        .when(plugin_manifest_written),
        Document::at(DISCOVERY_PATH, SERVING),
    ],
    spec: "RFC-002 Agent-Discovery-By-Default (ar-agents, 2026-05); OpenAI plugin manifest v1",
    status: "draft, not an IETF RFC; the plugin manifest is retired by OpenAI",
    // agents.json and ai-plugin.json link to the OpenAPI document.
    requires: &[Target::OpenApi],
};

/// What RFC-002 derives from the model once its rules are checked: the documents' links, the
/// ai-plugin.json manifest (`None` when it cannot be written), agents.json's issuer and rules,
/// and /api/discovery's date.
pub struct Lowered<'a> {
    /// `ai_plugin` is already `None` when the manifest is not written.
    pub links: Links,
    pub plugin: Option<ai_plugin::Manifest<'a>>,
    pub agents: agents_json::Derived,
    /// `generatedAt`, from the source, the environment or the fixed fallback.
    pub generated_at: String,
}

/// Every diagnostic of RFC-002's three documents, in the order they are written: ai-plugin.json,
/// agents.json, /api/discovery.
pub fn lower<'a>(service: &'a Service, diags: &mut Diagnostics) -> Lowered<'a> {
    let links = Links::new(service);
    let plugin = ai_plugin::lower(service, &links, diags);
    let links = Links {
        ai_plugin: plugin.is_some().then_some(links.ai_plugin).flatten(),
        ..links
    };
    let agents = agents_json::lower(service, diags);
    let generated_at = discovery::lower(service, diags);
    Lowered {
        links,
        plugin,
        agents,
        generated_at,
    }
}

/// Pure: agents.json, /api/discovery and, when it can be written, ai-plugin.json.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let mut out = vec![
        Artifact::document(
            AGENTS_PATH,
            agents_json::render(service, &lowered.links, &lowered.agents),
            SERVING,
        ),
        Artifact::document(
            DISCOVERY_PATH,
            discovery::render(service, &lowered.generated_at),
            SERVING,
        ),
    ];
    if let Some(manifest) = &lowered.plugin {
        out.push(Artifact::document(
            AI_PLUGIN_PATH,
            ai_plugin::render(manifest),
            SERVING,
        ));
    }
    out
}

/// Absolute URLs of the documents, for `discovery` in agents.json and `api.url` in ai-plugin.json.
pub struct Links {
    pub machine_readable: String,
    /// RFC-002's `?format=openapi` URL where the host routes it, else the static file.
    pub openapi: String,
    /// The plain `/openapi.json` (the reference implementation's `openapi31` key).
    pub openapi31: String,
    /// `None` when ai-plugin.json could not be written.
    pub ai_plugin: Option<String>,
}

impl Links {
    fn new(service: &Service) -> Self {
        let site = &service.site_url;
        let openapi = if service.routes_query() {
            site.join(&format!("{DISCOVERY_PATH}?format=openapi"))
        } else {
            site.join(openapi::DISCOVERY_PATH)
        };
        Self {
            machine_readable: site.join(DISCOVERY_PATH),
            openapi,
            openapi31: site.join(openapi::PATHS[0]),
            ai_plugin: Some(site.join(AI_PLUGIN_PATH)),
        }
    }
}

/// Lowercases the first letter of a sentence that starts a clause, unless it opens an acronym.
fn clause(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => a
            .to_lowercase()
            .chain(text[a.len_utf8()..].chars())
            .collect(),
        _ => text.to_string(),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_and_lists_read_as_prose() {
        assert_eq!(clause("Search products"), "search products");
        assert_eq!(clause("ID lookups"), "ID lookups");
        assert_eq!(clause("É"), "É");
        assert_eq!(clause(""), "");
        let words = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(list(&words(&[])), "");
        assert_eq!(list(&words(&["a"])), "a");
        assert_eq!(list(&words(&["a", "b"])), "a and b");
        assert_eq!(list(&words(&["a", "b", "c"])), "a, b and c");
    }
}
