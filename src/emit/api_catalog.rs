//! /.well-known/api-catalog: an RFC 9727 API catalog, written as an RFC 9264 linkset.
//!
//! Also home of [`DOCUMENTS`], the one list of discovery documents wellgen publishes, which the
//! catalog and /llms.txt both link to.

use indexmap::IndexMap;
use serde::Serialize;

use super::{Artifact, Serving, Target, to_json_bytes};
use crate::diag::Diagnostics;
use crate::model::Service;

pub const PATH: &str = "/.well-known/api-catalog";
/// RFC 9727 §3 (Formats): the Linkset JSON media type with the API-catalog profile parameter.
/// The path has no extension, so hosts need this header spelled out.
pub const CONTENT_TYPE: &str =
    "application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"";
/// RFC 9727 §5.3 asks publishers to consider caching; an hour, like the agent card.
pub const SERVING: Serving = Serving {
    content_type: CONTENT_TYPE,
    cache_control: "public, max-age=3600",
    cors: true,
};
/// The OpenAPI media type with its version parameter (OpenAPI 3.1 §4.1 media types).
pub const OPENAPI_MEDIA_TYPE: &str = "application/vnd.oai.openapi+json;version=3.1";

/// One discovery document wellgen publishes, as other documents link to it.
#[derive(Debug, Clone, Copy)]
pub struct Document {
    /// URL path on the site.
    pub path: &'static str,
    /// The target that writes it: lets a caller keep only the targets being built.
    pub target: Target,
    /// A short human title (a link name in /llms.txt, a `title` in the catalog).
    pub title: &'static str,
    /// What it is for, in one line.
    pub note: &'static str,
    /// The media type it is served as, without parameters.
    pub media_type: &'static str,
    /// Its RFC 8631 relation to the API in the catalog.
    pub relation: Relation,
}

/// RFC 8631 relations the catalog uses for the documents (RFC 9727 Appendix A.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// A machine-readable description of the API itself.
    ServiceDesc,
    /// Documentation primarily for human (here: language-model) readers.
    ServiceDoc,
    /// Further metadata about the API, for machines.
    ServiceMeta,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ServiceDesc => "service-desc",
            Self::ServiceDoc => "service-doc",
            Self::ServiceMeta => "service-meta",
        }
    }
}

const JSON_TYPE: &str = "application/json";

/// Every discovery document, in the order they are listed. The catalog itself comes last so
/// /llms.txt can link to it; the catalog skips itself. The paths are the targets' primary
/// paths: aliases (`/ai`, `/.well-known/ia.json`, `/.well-known/agent.json`) are not listed.
pub const DOCUMENTS: [Document; 11] = [
    Document {
        path: "/openapi.json",
        target: Target::OpenApi,
        title: "OpenAPI description",
        note: "the whole API as an OpenAPI 3.1 document",
        media_type: OPENAPI_MEDIA_TYPE,
        relation: Relation::ServiceDesc,
    },
    Document {
        path: "/.well-known/ai",
        target: Target::AiEndpoint,
        title: "AI discovery endpoint",
        note: "capabilities, parameters and auth in the aiendpoint 1.0 format",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/ia.json",
        target: Target::IaJson,
        title: "ia.json",
        note: "endpoints, access groups and rate limits in the ia.json 1.0.0 format",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/.well-known/agents.json",
        target: Target::Rfc002,
        title: "agents.json",
        note: "capability metadata and agent instructions (RFC-002)",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/.well-known/ai-plugin.json",
        target: Target::Rfc002,
        title: "AI plugin manifest",
        note: "the OpenAI plugin manifest pointing at the OpenAPI description",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/.well-known/agent",
        target: Target::Adp,
        title: "Agent Discovery Protocol manifest",
        note: "the ADP 1.0 manifest, with one detail file per capability",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/.well-known/agis.json",
        target: Target::Agis,
        title: "AGIS summary",
        note: "the AGIS methods, vocabulary and data classes of the service",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/.well-known/mcp/tools.json",
        target: Target::Mcp,
        title: "MCP tools list",
        note: "every capability as an MCP tool definition (a static tools/list result)",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/.well-known/agent-card.json",
        target: Target::A2a,
        title: "A2A agent card",
        note: "the service as an A2A 1.0 agent: skills, interfaces and security schemes",
        media_type: JSON_TYPE,
        relation: Relation::ServiceMeta,
    },
    Document {
        path: "/llms.txt",
        target: Target::LlmsTxt,
        title: "llms.txt",
        note: "a plain-text overview of the service for language models",
        media_type: "text/plain",
        relation: Relation::ServiceDoc,
    },
    Document {
        path: PATH,
        target: Target::ApiCatalog,
        title: "API catalog",
        note: "an RFC 9727 linkset of the API and its descriptions",
        media_type: "application/linkset+json",
        relation: Relation::ServiceMeta,
    },
];

/// The detail file of one capability, as the ADP back end publishes it.
/// Kept here so /llms.txt and the catalog agree with it on one spelling.
pub fn capability_detail_path(id: &str) -> String {
    format!("{}{id}", super::adp::DETAIL_PREFIX)
}

#[derive(Serialize)]
struct Linkset<'a> {
    linkset: Vec<Context<'a>>,
}

/// One link context object (RFC 9264 §4.2.2): an anchor and its links, by relation type.
#[derive(Serialize)]
struct Context<'a> {
    anchor: String,
    #[serde(flatten)]
    links: IndexMap<&'static str, Vec<LinkTarget<'a>>>,
}

/// One target object (RFC 9264 §4.2.3): `href` plus the `type` and `title` target attributes,
/// which RFC 9264 §4.2.4.1 writes as plain strings.
#[derive(Serialize)]
struct LinkTarget<'a> {
    href: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    media_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
}

fn link<'a>(
    href: impl Into<String>,
    media_type: Option<&'a str>,
    title: Option<&'a str>,
) -> LinkTarget<'a> {
    LinkTarget {
        href: href.into(),
        media_type,
        title,
    }
}

/// What the catalog derives from the model: the API endpoints it links to. RFC 9727 §4.1: the
/// catalog MUST link to the API endpoints. The bookmark form of its Appendix A.2 does that with
/// `item` links anchored at the catalog: the API base, then any other origin a capability is
/// served from.
pub struct Lowered<'a> {
    endpoints: Vec<&'a str>,
}

/// The catalog has no rule the model does not already guarantee: it reports nothing.
pub fn lower<'a>(service: &'a Service, _diags: &mut Diagnostics) -> Lowered<'a> {
    let mut endpoints: Vec<&str> = vec![service.base_url.as_str()];
    for c in &service.capabilities {
        if let Some(host) = &c.host
            && !endpoints.contains(&host.as_str())
        {
            endpoints.push(host.as_str());
        }
    }
    Lowered { endpoints }
}

/// The catalog, linking to the documents of the targets in `built`.
pub fn render(service: &Service, built: &[Target], lowered: &Lowered) -> Vec<Artifact> {
    let site = &service.site_url;
    let catalog_url = site.join(PATH);

    let mut catalog = IndexMap::new();
    catalog.insert(
        "item",
        lowered
            .endpoints
            .iter()
            .map(|e| link(*e, None, None))
            .collect(),
    );

    // The API itself, described with the RFC 8631 relations of RFC 9727 Appendix A.1.
    let mut api: IndexMap<&'static str, Vec<LinkTarget>> = IndexMap::new();
    for d in DOCUMENTS
        .iter()
        .filter(|d| d.path != PATH && built.contains(&d.target))
    {
        api.entry(d.relation.as_str()).or_default().push(link(
            site.join(d.path),
            Some(d.media_type),
            Some(d.title),
        ));
    }
    if let Some(docs) = &service.links.docs {
        api.entry(Relation::ServiceDoc.as_str())
            .or_default()
            .insert(0, link(docs, Some("text/html"), Some("Documentation")));
    }
    // RFC 8631 §4: `status` may be for machines or humans, so no type is claimed.
    if let Some(status) = &service.meta.status {
        api.insert("status", vec![link(status, None, None)]);
    }
    // Registered relations (RFC 5829, RFC 6903) for the remaining links the model holds.
    if let Some(changelog) = &service.meta.changelog {
        api.insert("version-history", vec![link(changelog, None, None)]);
    }
    if let Some(terms) = &service.links.terms {
        api.insert("terms-of-service", vec![link(terms, None, None)]);
    }
    if let Some(privacy) = &service.links.privacy {
        api.insert("privacy-policy", vec![link(privacy, None, None)]);
    }

    let doc = Linkset {
        linkset: vec![
            Context {
                anchor: catalog_url,
                links: catalog,
            },
            Context {
                anchor: service.base_url.as_str().to_string(),
                links: api,
            },
        ],
    };
    vec![Artifact::document(PATH, to_json_bytes(&doc), SERVING)]
}

/// Glue kept so src/emit/mod.rs compiles unchanged; the dispatch is rewired later.
pub fn emit(service: &Service, built: &[Target], diags: &mut Diagnostics) -> Vec<Artifact> {
    render(service, built, &lower(service, diags))
}
