//! The home page's `Link` header (RFC 8288): where an agent landing on `/` finds the API
//! catalog (RFC 9727 `api-catalog`), the API's description (RFC 8631 `service-desc`), its
//! documentation (`service-doc`) and llms.txt (`describedby`). Only documents the build writes
//! are linked, found through the target descriptors.
//!
//! `service-doc` is, by RFC 8631, documentation "primarily intended for human consumption":
//! the service's docs page when `[service.links] docs` names one, else llms.txt, the readable
//! overview every build writes (the API catalog relates it the same way). llms.txt is also the
//! home page's `describedby`: a description of the resource for machines.

use super::Artifact;
use crate::emit::Target;
use crate::emit::targets::{self, Relation};
use crate::model::Service;

/// The page the links are on.
pub const HOME: &str = "/";
/// The URL paths a host serves the home page from: `/` and its index file.
pub const HOME_FILE: &str = "/index.html";

/// One link of the home page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeLink {
    /// A path on the site, or the service's own docs URL.
    pub href: String,
    pub rel: &'static str,
    pub media_type: Option<&'static str>,
}

/// The home page's links for `documents`, in the order api-catalog, service-desc, service-doc,
/// describedby; empty when the build writes none of those documents.
pub fn home(service: &Service, documents: &[Artifact]) -> Vec<HomeLink> {
    let written = |path: &str| documents.iter().any(|a| a.path == path);
    let built: Vec<Target> = Target::ALL
        .into_iter()
        .filter(|t| t.descriptor().documents.iter().any(|d| written(d.path)))
        .collect();
    let linked: Vec<targets::Linked> = targets::linked(service, &built)
        .into_iter()
        .filter(|l| written(l.path))
        .collect();
    let link = |l: &targets::Linked, rel| HomeLink {
        href: l.path.to_string(),
        rel,
        media_type: Some(l.link.media_type),
    };
    let mut out: Vec<HomeLink> = Vec::new();
    out.extend(
        linked
            .iter()
            .filter(|l| l.target == Target::ApiCatalog)
            .map(|l| link(l, "api-catalog")),
    );
    out.extend(
        linked
            .iter()
            .filter(|l| l.link.relation == Relation::ServiceDesc)
            .map(|l| link(l, "service-desc")),
    );
    let docs: Vec<&targets::Linked> = linked
        .iter()
        .filter(|l| l.link.relation == Relation::ServiceDoc)
        .collect();
    // The service's docs page only beside a document of the build's: the header links what
    // the build writes.
    let docs_page = service
        .links
        .docs
        .as_ref()
        .filter(|_| !out.is_empty() || !docs.is_empty());
    match docs_page {
        Some(url) => out.push(HomeLink {
            href: url.clone(),
            rel: "service-doc",
            media_type: Some("text/html"),
        }),
        None => out.extend(docs.iter().map(|l| link(l, "service-doc"))),
    }
    out.extend(docs.iter().map(|l| link(l, "describedby")));
    out
}

/// The links as one `Link` header value; `None` when there are none.
pub fn header_value(links: &[HomeLink]) -> Option<String> {
    if links.is_empty() {
        return None;
    }
    let parts: Vec<String> = links
        .iter()
        .map(|l| {
            let mut part = format!("<{}>; rel=\"{}\"", l.href, l.rel);
            if let Some(t) = l.media_type {
                part.push_str(&format!("; type=\"{}\"", t.replace('"', "\\\"")));
            }
            part
        })
        .collect();
    Some(parts.join(", "))
}

/// The same links as HTML `<link>` elements, one a line, for a host that sets no headers.
pub fn html(links: &[HomeLink]) -> String {
    links
        .iter()
        .map(|l| {
            let ty = l
                .media_type
                .map(|t| format!(" type=\"{}\"", t.replace('"', "&quot;")))
                .unwrap_or_default();
            format!(
                "<link rel=\"{}\" href=\"{}\"{ty}>\n",
                l.rel,
                l.href.replace('"', "&quot;")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_quote_parameters_and_html_escapes() {
        let links = [
            HomeLink {
                href: "/.well-known/api-catalog".into(),
                rel: "api-catalog",
                media_type: Some("application/linkset+json"),
            },
            HomeLink {
                href: "/openapi.json".into(),
                rel: "service-desc",
                media_type: Some("application/vnd.oai.openapi+json;version=3.1"),
            },
        ];
        assert_eq!(
            header_value(&links).unwrap(),
            "</.well-known/api-catalog>; rel=\"api-catalog\"; type=\"application/linkset+json\", \
             </openapi.json>; rel=\"service-desc\"; type=\"application/vnd.oai.openapi+json;version=3.1\""
        );
        assert!(html(&links).starts_with(
            "<link rel=\"api-catalog\" href=\"/.well-known/api-catalog\" type=\"application/linkset+json\">\n"
        ));
        assert_eq!(header_value(&[]), None);
    }
}
