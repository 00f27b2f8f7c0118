//! `/.well-known/ai` and its `/ai` alias: draft-aiendpoint-ai-discovery-00 (aiendpoint 1.0).

pub mod split;

use std::borrow::Cow;
use std::sync::Arc;

use crate::emit::targets::{self, Descriptor, Link, Relation};
use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{Artifact, JSON, Serving, to_json_bytes};
use crate::model::{Auth, Capability, Service};

pub const PATHS: [&str; 2] = ["/.well-known/ai", "/ai"];
/// §4.2 recommends a day.
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: "public, max-age=86400",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "ai",
    documents: &[
        targets::Document::linked(
            PATHS[0],
            SERVING,
            Link {
                title: "AI discovery endpoint",
                note: "capabilities, parameters and auth in the aiendpoint 1.0 format",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
            },
        ),
        targets::Document::at(PATHS[1], SERVING),
    ],
    spec: "draft-aiendpoint-ai-discovery-00 (aiendpoint 1.0)",
    status: "individual Internet-Draft, expired 2026-09-24",
    requires: &[],
};
/// §4.5: SHOULD NOT exceed 64 KB; agents MAY refuse over 256 KB.
pub(super) const SIZE_GUIDANCE: usize = 64 * 1024;
const SIZE_REFUSAL: usize = 256 * 1024;
/// §6.5: agents are advised to process no more than 100 capabilities.
pub(super) const CAPABILITY_GUIDANCE: usize = 100;

/// The aiendpoint 1.0 document.
#[derive(Serialize)]
pub(super) struct Document<'a> {
    aiendpoint: &'static str,
    service: ServiceView<'a>,
    capabilities: Vec<CapabilityView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    auth: Option<AuthView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token_hints: Option<TokenHintsView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rate_limits: Option<RateLimitsView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    meta: Option<MetaView<'a>>,
}

#[derive(Serialize)]
struct ServiceView<'a> {
    name: Cow<'a, str>,
    description: Cow<'a, str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    category: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'a [crate::model::LanguageTag]>,
}

#[derive(Serialize)]
struct CapabilityView<'a> {
    id: &'a str,
    description: &'a str,
    endpoint: String,
    method: &'static str,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    params: IndexMap<&'a str, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    returns: Option<&'a str>,
}

#[derive(Serialize)]
struct AuthView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    docs: Option<&'a str>,
}

#[derive(Serialize)]
struct TokenHintsView {
    compact_mode: bool,
    field_filtering: bool,
    delta_support: bool,
}

#[derive(Serialize)]
struct RateLimitsView {
    #[serde(skip_serializing_if = "Option::is_none")]
    requests_per_minute: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_tier_available: Option<bool>,
}

#[derive(Serialize)]
struct MetaView<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    last_updated: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    changelog: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'a str>,
}

/// The document, once the draft's rules have been checked, serialised here: its size is a
/// diagnostic of lowering, and `render` writes these bytes.
pub struct Lowered {
    body: Arc<[u8]>,
}

impl Lowered {
    /// The size of the document `render` writes, in bytes.
    pub fn size(&self) -> usize {
        self.body.len()
    }
}

/// Every diagnostic of /.well-known/ai, and the document.
pub fn lower(service: &Service, diags: &mut Diagnostics) -> Lowered {
    check(service, diags);
    if let Some(Auth::SignedKey { .. }) = &service.auth {
        diags.push(
            Diagnostic::new(Code::AuthSchemeLost,
                "/.well-known/ai has no signed-key scheme: published as `apikey` in the key header; \
                 the signature headers are described only in ia.json",
            )
            .at("auth.type")
            .help("set `auth.docs_url` so agents can find how to sign requests"),
        );
    }
    let document = document(
        service,
        Cow::Borrowed(&service.name),
        Cow::Borrowed(&service.description),
        &service.capabilities,
    );
    let body: Arc<[u8]> = to_json_bytes(&document).into();
    check_size(body.len(), diags);
    Lowered { body }
}

/// The document at both paths.
pub fn render(_service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    PATHS
        .iter()
        .map(|p| Artifact::document(*p, lowered.body.clone(), SERVING))
        .collect()
}

/// A document of `service` naming `capabilities` only, under its own name and description:
/// the whole service, or one of its sub-services (`split`).
pub(super) fn document<'a>(
    service: &'a Service,
    name: Cow<'a, str>,
    description: Cow<'a, str>,
    capabilities: impl IntoIterator<Item = &'a Capability>,
) -> Document<'a> {
    Document {
        aiendpoint: "1.0",
        service: ServiceView {
            name,
            description,
            category: &service.categories,
            language: service.languages.as_deref(),
        },
        capabilities: capabilities
            .into_iter()
            .map(|c| capability(service, c))
            .collect(),
        auth: service.auth.as_ref().map(auth),
        token_hints: service.token_hints.map(|t| TokenHintsView {
            compact_mode: t.compact_mode,
            field_filtering: t.field_filtering,
            delta_support: t.delta_support,
        }),
        rate_limits: service
            .rate_limits
            .filter(|r| r.requests_per_minute.is_some() || r.agent_tier_available.is_some())
            .map(|r| RateLimitsView {
                requests_per_minute: r.requests_per_minute,
                agent_tier_available: r.agent_tier_available,
            }),
        meta: {
            let m = &service.meta;
            (m.last_updated.is_some() || m.changelog.is_some() || m.status.is_some()).then_some(
                MetaView {
                    last_updated: m.last_updated.as_deref(),
                    changelog: m.changelog.as_deref(),
                    status: m.status.as_deref(),
                },
            )
        },
    }
}

/// The size of a document as written (`to_json_bytes`), in bytes. Measured by serialising it:
/// the size guidance is about the bytes agents fetch.
/// The endpoint as agents resolve it: relative to the document's origin when the API lives
/// there, absolute otherwise. The draft leaves parameter syntax open, so the author's spelling
/// (`{id}` or `:id`) is kept.
fn endpoint(service: &Service, c: &Capability) -> String {
    let path = c.path.as_written();
    match &c.host {
        Some(host) => host.join(&path),
        None if service.base_url.origin() == service.site_url => {
            format!("{}{}", service.base_url.path_prefix(), path)
        }
        None => service.base_url.join(&path),
    }
}

fn capability<'a>(service: &Service, c: &'a Capability) -> CapabilityView<'a> {
    CapabilityView {
        id: &c.id,
        description: &c.description,
        endpoint: endpoint(service, c),
        method: c.method.as_str(),
        params: c
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.compact()))
            .collect(),
        returns: c.returns.as_deref(),
    }
}

/// The auth object. The draft has no signed-key scheme: `lower` warns that it is published as
/// the key header of an `apikey`.
fn auth(a: &Auth) -> AuthView<'_> {
    let (kind, header) = match a {
        Auth::None { .. } => ("none", None),
        Auth::ApiKey { header, .. } => ("apikey", Some(header.clone())),
        Auth::Bearer { .. } => ("bearer", None),
        Auth::OAuth2 { .. } => ("oauth2", None),
        Auth::SignedKey { header_prefix, .. } => ("apikey", Some(format!("{header_prefix}Key"))),
    };
    AuthView {
        kind,
        header,
        docs: a.docs(),
    }
}

/// The draft's rules that the model does not already enforce.
fn check(service: &Service, diags: &mut Diagnostics) {
    let len = service.description.chars().count();
    if len > 200 {
        diags.push(
            Diagnostic::new(Code::AiDescriptionLong, format!(
                "is {len} characters; aiendpoint asks for under 200 to save agents' tokens (§3.2)"
            ))
            .at("service.description"),
        );
    }
    match &service.auth {
        None => diags.push(
            Diagnostic::new(
                Code::AuthUndeclared,
                "no [auth] table: agents will assume authentication may be required (§3.4)",
            )
            // `none` is refused with a write capability (§6.2): never suggested then.
            .help(if service.capabilities.iter().any(|c| c.method.writes()) {
                "add `[auth]` with the scheme the API uses, e.g. `type = \"bearer\"` \
                 (`none` is not allowed: a capability writes, aiendpoint §6.2)"
            } else {
                "add `[auth]` with `type = \"none\"` if the API is open, or the scheme it uses"
            }),
        ),
        Some(a) if a.is_none() => {
            for c in service.capabilities.iter().filter(|c| c.method.writes()) {
                diags.push(
                    Diagnostic::new(Code::AuthNoneWrite, format!(
                        "`{}` is a {} capability but auth is `none`: aiendpoint §6.2 forbids `none` for \
                         write operations",
                        c.id,
                        c.method.as_str()
                    ))
                    .at(c.field("method"))
                    .help(
                        "declare the authentication the endpoint really needs in [auth], e.g. \
                         `type = \"bearer\"`",
                    ),
                );
            }
        }
        Some(_) => {}
    }
    if service.capabilities.len() > CAPABILITY_GUIDANCE {
        diags.push(
            Diagnostic::new(Code::AiTooLarge, format!(
                "{} capabilities: aiendpoint advises agents to process no more than {CAPABILITY_GUIDANCE} (§6.5)",
                service.capabilities.len()
            ))
            .help("consider splitting the service into sub-services (§4.5)"),
        );
    }
}

fn check_size(len: usize, diags: &mut Diagnostics) {
    if len > SIZE_GUIDANCE {
        let extra = if len > SIZE_REFUSAL {
            "; agents MAY refuse it over 256 KB"
        } else {
            ""
        };
        diags.push(
            Diagnostic::new(Code::AiTooLarge, format!(
                "/.well-known/ai is {} KB; aiendpoint says it SHOULD NOT exceed 64 KB (§4.5){extra}",
                len.div_ceil(1024)
            ))
            .help("split the service into logical sub-services, or trim descriptions"),
        );
    }
}
