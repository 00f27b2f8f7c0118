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
use crate::emit::budget::{self, Step, source_budget};
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
///
/// Within the limit (the smaller of the two), in `to_json_bytes`'s layout if that fits, else
/// compact. Over it, the two steps declared to [`budget::fit_over`], in order: the response
/// schemas (`response` is optional, §4.3.3), then the parameters' texts, the optional ones'
/// first. Their notes are warnings where the document is over §3.6's 1 MB even compact, notes
/// where it is only larger than its source.
pub fn fit(service: &Service, lowered: &mut Lowered, diags: &mut Diagnostics) {
    let budget = source_budget(service);
    let limit = budget.map_or(SIZE_LIMIT, |b| b.min(SIZE_LIMIT));
    let document = &mut lowered.document;
    let body = match fitting(&*document, limit) {
        Some(body) => body,
        None => over(document, (budget, limit), diags),
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

/// `document`, over `limit` (the smaller of its source's `budget` and §3.6's 1 MB), made to
/// fit by its two steps.
fn over(
    document: &mut view::Document,
    (budget, limit): (Option<usize>, usize),
    diags: &mut Diagnostics,
) -> Vec<u8> {
    let over = Over {
        budget: budget.unwrap_or_default(),
        within_limit: limit < SIZE_LIMIT
            && compact_json_bytes_within(&*document, SIZE_LIMIT).is_some(),
    };
    let responses = |doc: &mut &mut view::Document, diags: &mut Diagnostics| {
        let shortened = doc.api.shorten_responses();
        let json = fitting(doc, limit).unwrap_or_else(|| to_json_bytes(doc));
        if shortened > 0 {
            diags.push(over.responses_note(shortened, json.len()));
        }
        json
    };
    let texts = |doc: &mut &mut view::Document, diags: &mut Diagnostics| {
        // Each try's bytes are kept, so that the one that fits is not written again.
        let (mut texts, mut fit) = (0, None);
        for required in [false, true] {
            if fit.is_some() {
                break;
            }
            texts += doc.api.drop_parameter_texts(required);
            fit = fitting(doc, limit);
        }
        // A document that fits no way at all is what `to_json_bytes` writes.
        let json = fit
            .or_else(|| (limit < SIZE_LIMIT).then(|| fitting(doc, SIZE_LIMIT))?)
            .unwrap_or_else(|| to_json_bytes(doc));
        if texts > 0 {
            diags.push(over.texts_note(texts, json.len()));
        }
        json
    };
    let steps = [Step::Make(&responses), Step::Make(&texts)];
    budget::fit_over("ia.json", document, limit, &steps, diags).1
}

/// A document over its limit, for the notes of the steps that make it fit.
struct Over {
    /// Its source's budget; 0 for none.
    budget: usize,
    /// Whether it is over its source's budget only, within §3.6's 1 MB when compact.
    within_limit: bool,
}

impl Over {
    /// The note of `shortened` responses left with their compact description, making the
    /// document `size` bytes.
    fn responses_note(&self, shortened: usize, size: usize) -> Diagnostic {
        let kb = size.div_ceil(1024);
        match self.within_limit {
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
                self.budget.div_ceil(1024)
            ))
            .help("the OpenAPI description keeps the schemas; import fewer operations (`[source] include`/`exclude`) to keep them here too"),
        }
    }

    /// The note of `texts` parameters and body fields left without their descriptions and
    /// examples, making the document `size` bytes.
    fn texts_note(&self, texts: usize, size: usize) -> Diagnostic {
        let (code, over) = match self.within_limit {
            false => (Code::IajsonTooLarge, "over 1 MB (§3.6)".to_string()),
            true => (
                Code::SizedToSource,
                format!(
                    "larger than its {} KB OpenAPI source",
                    self.budget.div_ceil(1024)
                ),
            ),
        };
        Diagnostic::new(code, format!(
            "ia.json would still be {over}: the descriptions and examples of {texts} \
             parameters and body fields are left out (their types and constraints stay), \
             making it {} KB",
            size.div_ceil(1024),
        ))
        .help("the other targets keep them; import fewer operations (`[source] include`/`exclude`) to keep them here too")
    }
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
