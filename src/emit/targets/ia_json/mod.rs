//! `/ia.json` and `/.well-known/ia.json`: ia.json 1.0.0 (github.com/Dandte/ai.json).
//!
//! One document, served byte-identical at both paths (§3.1–3.2). `lower` builds the document's
//! view (`view`, borrowing from the model; each section by its own module) and reports every
//! rule, `rules` among them for what the JSON Schema cannot check (unique names across groups,
//! declared scopes, auth for non-public endpoints); the size pass (`fit`) serialises it in the
//! layout that fits, and `render` writes those bytes.

mod api;
mod auth;
mod flags;
mod rules;
mod site;
mod view;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::budget::source_budget;
use crate::emit::targets::{Descriptor, Document, Fitted, Link, Relation};
use crate::emit::{
    Artifact, JSON, Serving, compact_json_bytes_within, to_json_bytes,
    to_json_bytes_or_compact_within,
};
use crate::model::Service;
use std::sync::Arc;

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
    documents: &[
        Document::linked(
            PATHS[0],
            SERVING,
            Link {
                title: "ia.json",
                note: "endpoints, access groups and rate limits in the ia.json 1.0.0 format",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
                ai_catalog: None,
            },
        ),
        Document::alias(PATHS[1], SERVING),
    ],
    spec: "ia.json 1.0.0",
    status: "community specification",
    opt_in: None,
    requires: &[],
};
/// The version of the spec this back end follows; also the document's `version`.
pub const SPEC_VERSION: &str = "1.0.0";
/// §3.6: the file SHOULD NOT exceed 1 MB; agents MAY refuse larger files.
const SIZE_LIMIT: usize = 1024 * 1024;

/// The document once every rule has been checked; the size pass ([`fit`]) writes it in the
/// layout that fits (the response schemas dropped if they would break §3.6): its size is a
/// diagnostic of that pass, and `render` writes these bytes.
pub struct Lowered<'a> {
    document: view::Document<'a>,
    body: Fitted<Arc<Vec<u8>>>,
}

impl Lowered<'_> {
    /// The size of the document `render` writes, in bytes.
    pub fn size(&self) -> usize {
        self.body.get().len()
    }
}

/// Every diagnostic of ia.json's rules, in the order its sections are built.
pub fn lower<'a>(service: &'a Service, diags: &mut Diagnostics) -> Lowered<'a> {
    rules::check(service, diags);
    let document = view::Document {
        version: SPEC_VERSION,
        site: site::site(service, diags),
        api: api::api(service, diags),
        auth: auth::auth(service, diags),
        security: auth::security(service, diags),
        capabilities: flags::capabilities(service, diags),
        webhooks: flags::webhooks(service),
        metadata: site::metadata(service, diags),
    };
    Lowered {
        document,
        body: Fitted::default(),
    }
}

/// The size pass: the document within §3.6's limit and a large source's budget, with a
/// diagnostic for what it had to leave out.
pub fn fit(service: &Service, lowered: &mut Lowered, diags: &mut Diagnostics) {
    let document = &mut lowered.document;
    // Within §3.6's limit, in `to_json_bytes`'s layout if that fits, else compact; over the
    // limit, or over the budget of a large imported source, without response schemas.
    let budget = source_budget(service);
    let limit = budget.map_or(SIZE_LIMIT, |b| b.min(SIZE_LIMIT));
    let body = match fitting(&*document, limit) {
        Some(fit) => fit,
        None => {
            // Over the budget only, or over §3.6's limit as well (a warning, as before)?
            let within_limit =
                limit < SIZE_LIMIT && compact_json_bytes_within(&*document, SIZE_LIMIT).is_some();
            // `response` is optional (§4.3.3): its schemas go before the document breaks §3.6
            // or outgrows its source.
            let shortened = document.api.shorten_responses();
            // Still over: the parameters' texts go, the optional ones' first. Each try's
            // bytes are kept, so that the one that fits is not written again.
            let mut fit = fitting(&*document, limit);
            let (mut texts, mut between) = (0, None);
            for required in [false, true] {
                if fit.is_some() {
                    break;
                }
                // The size the response note reports: before the texts went.
                between = between.or_else(|| fitting(&*document, usize::MAX).map(|b| b.len()));
                texts += document.api.drop_parameter_texts(required);
                fit = fitting(&*document, limit);
            }
            // A document that fits no way at all is what `to_json_bytes` writes.
            let fit = fit
                .or_else(|| (limit < SIZE_LIMIT).then(|| fitting(&*document, SIZE_LIMIT))?)
                .unwrap_or_else(|| to_json_bytes(&*document));
            if shortened > 0 {
                let kb = between.unwrap_or(fit.len()).div_ceil(1024);
                diags.push(match within_limit {
                    // Too large for §3.6: a problem of the published document.
                    false => Diagnostic::new(Code::IajsonTooLarge, format!(
                        "ia.json would be over 1 MB with every response schema, even compact (§3.6 \
                         says it SHOULD NOT exceed 1 MB): the `response` of {shortened} endpoints \
                         keeps only its compact description (`returns`), making it {kb} KB"
                    ))
                    .help("the other targets keep the schemas; import fewer operations (`[source] include`/`exclude`) to keep them here too"),
                    // Within §3.6, only larger than its source: a derived choice.
                    true => Diagnostic::new(Code::SizedToSource, format!(
                        "ia.json would be larger than its {} KB OpenAPI source with every response \
                         schema: the `response` of {shortened} endpoints keeps only its compact \
                         description (`returns`), making it {kb} KB",
                        budget.unwrap_or_default().div_ceil(1024)
                    ))
                    .help("the OpenAPI description keeps the schemas; import fewer operations (`[source] include`/`exclude`) to keep them here too"),
                });
            }
            if texts > 0 {
                let (code, over) = match within_limit {
                    false => (Code::IajsonTooLarge, "over 1 MB (§3.6)".to_string()),
                    true => (
                        Code::SizedToSource,
                        format!(
                            "larger than its {} KB OpenAPI source",
                            budget.unwrap_or_default().div_ceil(1024)
                        ),
                    ),
                };
                diags.push(Diagnostic::new(code, format!(
                    "ia.json would still be {over}: the descriptions and examples of {texts} \
                     parameters and body fields are left out (their types and constraints stay), \
                     making it {} KB",
                    fit.len().div_ceil(1024),
                ))
                .help("the other targets keep them; import fewer operations (`[source] include`/`exclude`) to keep them here too"));
            }
            fit
        }
    };
    let size = body.len();
    if size > SIZE_LIMIT {
        diags.push(
            Diagnostic::new(Code::IajsonTooLarge, format!(
                "ia.json is {} KB; the spec says it SHOULD NOT exceed 1 MB and agents MAY refuse it (§3.6)",
                size.div_ceil(1024)
            ))
            .help("list only the endpoints meant for agents (§8.6), or shorten descriptions"),
        );
    }
    lowered.body.set(body.into());
}

/// The document within `limit`, as `to_json_bytes` writes it if that fits, else compact;
/// `None` when it fits neither way.
fn fitting(doc: &view::Document, limit: usize) -> Option<Vec<u8>> {
    to_json_bytes_or_compact_within(doc, limit)
}

/// The document at both paths.
pub fn render(_service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    PATHS
        .iter()
        .map(|p| Artifact::document(*p, lowered.body.get().clone(), SERVING))
        .collect()
}
