//! RFC-002 (ar-agents, "Agent-Discovery-By-Default"): `/.well-known/agents.json` and
//! `/api/discovery`. Its third document, `/.well-known/ai-plugin.json`, is the opt-in
//! `ai-plugin` target; its fourth, the OpenAPI variant at `/api/discovery?format=openapi`, is
//! the `openapi` target's document, declared here as [`QUERY`], which `hosts` route.

mod agents_json;
mod discovery;
mod generated_at;

use crate::diag::Diagnostics;
use crate::emit::derive::published::{OPENAPI_DISCOVERY_PATH, RFC002_SERVING};
use crate::emit::targets::{Descriptor, Document, Link, Query, Relation, Target, openapi_link};
use crate::emit::{Artifact, Build, Serving};
use crate::model::Service;

pub use generated_at::{generated_at, rfc3339};

/// §4's cache headers and public JSON, for all four documents.
pub const SERVING: Serving = RFC002_SERVING;
pub const AGENTS_PATH: &str = "/.well-known/agents.json";
pub const DISCOVERY_PATH: &str = "/api/discovery";
/// §3's fourth document: `/api/discovery?format=openapi` answers with the OpenAPI document.
/// Every host rule that routes it (and `wellgen serve`) renders from this declaration.
pub const QUERY: Query = Query {
    path: DISCOVERY_PATH,
    param: "format",
    value: "openapi",
    serves: OPENAPI_DISCOVERY_PATH,
};

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
        Document::at(DISCOVERY_PATH, SERVING),
    ],
    spec: "RFC-002 Agent-Discovery-By-Default (ar-agents, 2026-05)",
    status: "draft, not an IETF RFC",
    opt_in: None,
    // agents.json links to the OpenAPI document.
    requires: &[Target::OpenApi],
};

/// What RFC-002 derives from the model once its rules are checked: the documents' links,
/// agents.json's issuer and rules, and /api/discovery's date.
pub struct Lowered {
    pub links: Links,
    pub agents: agents_json::Derived,
    /// `generatedAt`, from the source, the environment or the fixed fallback.
    pub generated_at: String,
}

/// Every diagnostic of RFC-002's two documents, in the order they are written: agents.json,
/// /api/discovery. agents.json links to ai-plugin.json when the build publishes it, and to
/// [`QUERY`] when the build routes it.
pub fn lower(service: &Service, build: &Build, diags: &mut Diagnostics) -> Lowered {
    let links = Links::new(service, build);
    let agents = agents_json::lower(service, diags);
    let generated_at = discovery::lower(service, build.source_date_epoch, diags);
    Lowered {
        links,
        agents,
        generated_at,
    }
}

/// Pure: agents.json and /api/discovery.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    vec![
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
    ]
}

/// Absolute URLs of the documents, for `discovery` in agents.json and `api.url` in ai-plugin.json.
pub struct Links {
    pub machine_readable: String,
    /// RFC-002's `?format=openapi` URL where the host routes it, else the static file.
    pub openapi: String,
    /// The plain `/openapi.json` (the reference implementation's `openapi31` key).
    pub openapi31: String,
    /// `None` when the build does not publish ai-plugin.json.
    pub ai_plugin: Option<String>,
}

impl Links {
    /// The links of `build`.
    fn new(service: &Service, build: &Build) -> Self {
        let plugin =
            build.targets().contains(&Target::AiPlugin) && Target::AiPlugin.writes(service);
        let site = &service.site_url;
        let openapi = openapi_link(service, build);
        Self {
            machine_readable: site.join(DISCOVERY_PATH),
            openapi,
            openapi31: site.join(Target::OpenApi.path()),
            ai_plugin: plugin.then(|| site.join(Target::AiPlugin.path())),
        }
    }
}
