//! /.well-known/api-catalog: an RFC 9727 API catalog, written as an RFC 9264 linkset.
//!
//! It links to every other document built, as their descriptors say (`targets::linked`).

use crate::emit::targets::{self, Descriptor, Document, Link, Relation};
use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::Diagnostics;
use crate::emit::{Artifact, Serving, Target, to_json_bytes};
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

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "api-catalog",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "API catalog",
            note: "an RFC 9727 linkset of the API and its descriptions",
            media_type: "application/linkset+json",
            relation: Relation::ServiceMeta,
            ai_catalog: None,
        },
    )],
    spec: "RFC 9727 (api-catalog)",
    status: "IETF RFC, Standards Track",
    opt_in: None,
    requires: &[],
};

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
    for d in targets::linked(service, built)
        .into_iter()
        .filter(|d| d.target != Target::ApiCatalog)
    {
        api.entry(d.link.relation.as_str()).or_default().push(link(
            site.join(d.path),
            Some(d.link.media_type),
            Some(d.link.title),
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
