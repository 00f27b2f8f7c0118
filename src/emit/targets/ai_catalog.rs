//! /.well-known/ai-catalog.json: an AI Catalog (Agent-Card `ai-catalog.md`, spec version 1.0)
//! with one entry per AI artifact the build publishes.
//!
//! The entries come from the descriptors: every linked document whose `Link::ai_catalog` names
//! a media type, of the targets built, when the service has it written (`targets::linked`). A
//! new target is listed by giving its link that media type.

use serde::Serialize;

use crate::diag::Diagnostics;
use crate::emit::targets::{self, Descriptor, Document, Link, Relation};
use crate::emit::{Artifact, Serving, Target, to_json_bytes};
use crate::model::Service;

pub const PATH: &str = "/.well-known/ai-catalog.json";
pub const MEDIA_TYPE: &str = "application/ai-catalog+json";
/// The `specVersion` followed.
pub const SPEC_VERSION: &str = "1.0";
/// The catalog changes when the service does, as the documents it lists: an hour, like them.
pub const SERVING: Serving = Serving {
    content_type: MEDIA_TYPE,
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "ai-catalog",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "AI catalog",
            note: "every AI artifact of the service (agent card, MCP, OpenAPI, llms.txt), by media type",
            media_type: MEDIA_TYPE,
            relation: Relation::ServiceMeta,
            ai_catalog: None,
        },
    )],
    spec: "AI Catalog 1.0 (Agent-Card ai-catalog.md)",
    status: "draft specification (Linux Foundation A2A and MCP communities)",
    opt_in: None,
    requires: &[],
};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Catalog<'a> {
    spec_version: &'static str,
    host: HostInfo<'a>,
    entries: Vec<Entry<'a>>,
}

/// Host Info: the catalog's operator.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HostInfo<'a> {
    display_name: &'a str,
    identifier: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    documentation_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    logo_url: Option<&'a str>,
}

/// A Catalog Entry that references its artifact by `url`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    identifier: String,
    display_name: &'static str,
    media_type: &'static str,
    url: String,
    description: &'static str,
    version: &'a str,
}

/// The catalog's entries, as the descriptors and the built targets give them.
pub struct Lowered {
    entries: Vec<targets::Linked>,
}

/// The catalog has no rule of its own the model does not guarantee: each entry has a media
/// type and a URL by construction, and identifiers are unique because paths are.
pub fn lower(service: &Service, built: &[Target], _diags: &mut Diagnostics) -> Lowered {
    Lowered {
        entries: targets::linked(service, built)
            .into_iter()
            .filter(|l| l.link.ai_catalog.is_some())
            .collect(),
    }
}

/// `urn:air:{publisher}:{namespace}:{name}` (MCP discovery's form for open systems): the
/// site's host, the target, and the document's file name without its extension.
fn identifier(host: &str, linked: &targets::Linked) -> String {
    let file = linked.path.rsplit('/').next().unwrap_or(linked.path);
    let stem = file.split_once('.').map_or(file, |(stem, _)| stem);
    format!("urn:air:{host}:{}:{stem}", linked.target.name())
}

pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let host_name = service.site_url.host();
    let catalog = Catalog {
        spec_version: SPEC_VERSION,
        host: HostInfo {
            display_name: service.contact.name.as_deref().unwrap_or(&service.name),
            identifier: host_name,
            documentation_url: service.links.docs.as_deref(),
            logo_url: service.links.logo.as_deref(),
        },
        entries: lowered
            .entries
            .iter()
            .map(|l| Entry {
                identifier: identifier(host_name, l),
                display_name: l.link.title,
                media_type: l.link.ai_catalog.unwrap_or(l.link.media_type),
                url: service.site_url.join(l.path),
                description: l.link.note,
                version: &service.version,
            })
            .collect(),
    };
    vec![Artifact::document(PATH, to_json_bytes(&catalog), SERVING)]
}
