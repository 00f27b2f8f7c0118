//! `/ia.json` and `/.well-known/ia.json`: ia.json 1.0.0 (github.com/Dandte/ai.json).
//!
//! One document, served byte-identical at both paths (§3.1–3.2). The views in `view` borrow
//! from the model; each section is built by its own module, and `rules` checks what the JSON
//! Schema cannot (unique names across groups, declared scopes, auth for non-public endpoints).

mod api;
mod auth;
mod flags;
mod rules;
mod site;
mod view;

use super::{
    Artifact, JSON, Serving, compact_json_bytes_within, to_json_bytes, to_json_bytes_within,
};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::targets::{Descriptor, Document, Link, Relation};
use crate::model::Service;

/// `/ia.json` is the MUST (§3.1); the well-known copy is the MAY (§3.2).
pub const PATHS: [&str; 2] = ["/ia.json", "/.well-known/ia.json"];
/// §3.3 asks for `application/json`; §3.5 recommends an hour of caching. The spec sets no CORS
/// rule, but the file is public by design (§8.6), so browsers' agents may read it too.
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "ia-json",
    about: "/ia.json and /.well-known/ia.json (ia.json 1.0.0)",
    documents: &[
        Document::linked(
            PATHS[0],
            SERVING,
            Link {
                title: "ia.json",
                note: "endpoints, access groups and rate limits in the ia.json 1.0.0 format",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
            },
        ),
        Document::at(PATHS[1], SERVING),
    ],
    spec: "ia.json 1.0.0",
    status: "community specification",
    requires: &[],
};
/// The version of the spec this back end follows; also the document's `version`.
pub const SPEC_VERSION: &str = "1.0.0";
/// §3.6: the file SHOULD NOT exceed 1 MB; agents MAY refuse larger files.
const SIZE_LIMIT: usize = 1024 * 1024;

pub fn emit(service: &Service, diags: &mut Diagnostics) -> Vec<Artifact> {
    rules::check(service, diags);
    let mut doc = view::Document {
        version: SPEC_VERSION,
        site: site::site(service, diags),
        api: api::api(service, diags),
        auth: auth::auth(service, diags),
        security: auth::security(service, diags),
        capabilities: flags::capabilities(service, diags),
        webhooks: flags::webhooks(service),
        metadata: site::metadata(service, diags),
    };
    // Within §3.6's limit: pretty if that fits, else compact, else without response schemas.
    let fitting = |doc: &view::Document| {
        to_json_bytes_within(doc, SIZE_LIMIT).or_else(|| compact_json_bytes_within(doc, SIZE_LIMIT))
    };
    let body = match fitting(&doc) {
        Some(body) => body,
        // `response` is optional (§4.3.3): its schemas go before the document breaks §3.6.
        None => {
            let shortened = doc.api.shorten_responses();
            let body = fitting(&doc).unwrap_or_else(|| to_json_bytes(&doc));
            if shortened > 0 {
                diags.push(
                    Diagnostic::warning(format!(
                        "ia.json would be over 1 MB with every response schema, even compact (§3.6 \
                         says it SHOULD NOT exceed 1 MB): the `response` of {shortened} endpoints \
                         keeps only its compact description (`returns`), making it {} KB",
                        body.len().div_ceil(1024)
                    ))
                    .help("the other targets keep the schemas; import fewer operations (`[source] include`/`exclude`) to keep them here too"),
                );
            }
            body
        }
    };
    let body: std::sync::Arc<[u8]> = body.into();
    if body.len() > SIZE_LIMIT {
        diags.push(
            Diagnostic::warning(format!(
                "ia.json is {} KB; the spec says it SHOULD NOT exceed 1 MB and agents MAY refuse it (§3.6)",
                body.len().div_ceil(1024)
            ))
            .help("list only the endpoints meant for agents (§8.6), or shorten descriptions"),
        );
    }
    PATHS
        .iter()
        .map(|p| Artifact::document(*p, body.clone(), SERVING))
        .collect()
}
