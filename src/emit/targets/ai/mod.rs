//! `/.well-known/ai` and its `/ai` alias: draft-aiendpoint-ai-discovery-00 (aiendpoint 1.0).

mod compact;
pub mod split;

use std::borrow::Cow;
use std::sync::Arc;

use crate::emit::security;
use crate::emit::targets::{self, Descriptor, Fitted, Link, Relation, Target};
use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{Artifact, JSON, Serving, compact_json_bytes_within, to_json_bytes_within};
use crate::model::{Auth, Capability, KeyPlace, Service};
use crate::values::param::{ParamIn, whole_body};

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
                ai_catalog: Some("application/json"),
            },
        ),
        targets::Document::alias(PATHS[1], SERVING),
        // A service over the draft's guidance is published as parts (`split::parts`), and
        // `[source] split` writes one document per tag with their index (`split::by_tag`).
        targets::Document::family(split::DIR, "<part>.json", SERVING).when(split_or_large),
        targets::Document::at(split::INDEX_PATH, SERVING).when(split_beside_whole),
    ],
    spec: "draft-aiendpoint-ai-discovery-00 (aiendpoint 1.0)",
    status: "individual Internet-Draft, expired 2026-09-24",
    opt_in: None,
    requires: &[],
};
/// Whether `service` has documents under the parts folder: split by tag, or published in parts
/// (more capabilities than the draft advises, or over its size guidance even compact).
fn split_or_large(service: &Service) -> bool {
    split_by_tag(service) || whole(service, &[]).is_none()
}

fn split_by_tag(service: &Service) -> bool {
    service.split.is_some()
}

/// Whether `service` has `[source] split`'s sub-service documents and their index written:
/// split by tag, and whole in one document (a service published in parts has no other split).
fn split_beside_whole(service: &Service) -> bool {
    split_by_tag(service) && whole(service, &[]).is_some()
}

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
    capabilities: Vec<Cow<'a, CapabilityView<'a>>>,
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

#[derive(Serialize, Clone)]
pub(super) struct CapabilityView<'a> {
    id: Cow<'a, str>,
    description: Cow<'a, str>,
    endpoint: String,
    method: &'static str,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    params: IndexMap<&'a str, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    returns: Option<Cow<'a, str>>,
    /// Where each compact parameter's description starts in its text (`compact::said_once`).
    #[serde(skip)]
    heads: IndexMap<&'a str, usize>,
}

#[derive(Serialize, Clone)]
pub(super) struct AuthView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    docs: Option<Cow<'a, str>>,
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

/// The draft's rules checked and the auth the document can state; the size pass ([`fit`])
/// chooses the layout (whole, compact, or parts under an index), which decides the documents,
/// and `render` writes its bytes.
pub struct Lowered<'a> {
    auth: Option<AuthView<'a>>,
    /// The targets of the build: `[source] split`'s sub-service documents link to those.
    built: Vec<Target>,
    layout: Fitted<Layout<'a>>,
}

/// What the size pass made of `/.well-known/ai`.
struct Layout<'a> {
    body: Arc<Vec<u8>>,
    /// A service over the draft's guidance even in compact form is published as parts, and
    /// `body` is their index.
    parts: Option<split::Parts>,
    /// `[source] split`'s sub-service documents, where the service is not split already.
    by_tag: Option<split::ByTag<'a>>,
}

/// How much of each capability a document carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// As the author wrote it.
    Full,
    /// `compact.rs`: for documents over the draft's size guidance.
    Compact,
}

/// Every diagnostic of the draft's rules on /.well-known/ai. `built` are the targets of the
/// build: `auth.docs` points into the OpenAPI document only when it is published.
pub fn lower<'a>(service: &'a Service, built: &[Target], diags: &mut Diagnostics) -> Lowered<'a> {
    check(service, diags);
    if let Some(split) = service.split {
        split::check(service, split, diags);
    }
    let auth = published_auth(service, built);
    if let (Some(a), Some(view)) = (&service.auth, &auth)
        && (!exact(a) || !service.auth_with.is_empty())
    {
        let what = std::iter::once(a)
            .chain(&service.auth_with)
            .map(Auth::what)
            .collect::<Vec<_>>()
            .join(" together with ");
        diags.push(match &view.docs {
            Some(docs) => Diagnostic::new(
                Code::AiAuthPointer,
                format!(
                    "/.well-known/ai cannot say {what}: `auth` is `apikey` with no header, and \
                     `auth.docs` points at {docs}"
                ),
            )
            .at("auth.type"),
            None => a.approximated("/.well-known/ai", "`apikey` with no header"),
        });
    }
    Lowered {
        auth,
        built: built.to_vec(),
        layout: Fitted::default(),
    }
}

/// The size pass: `/.well-known/ai` whole, compact, or the index of its parts (each part's
/// size checked), then `[source] split`'s sub-service documents.
pub fn fit<'a>(service: &'a Service, lowered: &mut Lowered<'a>, diags: &mut Diagnostics) {
    let mut layout = layout(service, &lowered.built, lowered.auth.clone(), diags);
    // A service too large for one document is split already, whatever `[source] split` says.
    if layout.parts.is_none() {
        layout.by_tag = service
            .split
            .map(|split| split::by_tag(service, &lowered.built, split));
    }
    lowered.layout.set(layout);
}

/// `/.well-known/ai` itself: whole, compact, or the index of its parts.
fn layout<'a>(
    service: &Service,
    built: &[Target],
    auth: Option<AuthView<'_>>,
    diags: &mut Diagnostics,
) -> Layout<'a> {
    if let Some(body) = whole(service, built) {
        return Layout {
            body: body.into(),
            parts: None,
            by_tag: None,
        };
    }
    let form = if service.compact == Some(false) {
        Form::Full
    } else {
        Form::Compact
    };
    let views = views(service, form);
    let parts = split::parts(service, form, &views, auth);
    for (path, size) in parts.sizes() {
        check_size(path, size, diags);
    }
    Layout {
        body: parts.index().into(),
        parts: Some(parts),
        by_tag: None,
    }
}

/// `/.well-known/ai` as one document, as a build of the `built` targets writes it, where it
/// is within the draft's guidance (§4.5 size, §6.5 count): in full, else in compact form;
/// `None` where it is split into parts with `/.well-known/ai` as their index. A document over
/// the guidance is never serialised past it.
///
/// It must fit with each `auth` a build may give it (its `docs` points into the OpenAPI
/// document only where the build publishes that), so which documents exist depends on the
/// service alone, as the descriptor's `Document::when` reads it.
fn whole(service: &Service, built: &[Target]) -> Option<Vec<u8>> {
    if service.capabilities.len() > CAPABILITY_GUIDANCE {
        return None;
    }
    let openapi: &[Target] = if built.contains(&Target::OpenApi) {
        &[]
    } else {
        &[Target::OpenApi]
    };
    let (auth, other) = (
        published_auth(service, built),
        published_auth(service, openapi),
    );
    let other =
        (serde_json::to_vec(&other).ok() != serde_json::to_vec(&auth).ok()).then_some(other);
    let within = |form| {
        let views = views(service, form);
        let body = |auth: Option<AuthView<'_>>| {
            let doc = document(
                service,
                Cow::Borrowed(&service.name),
                Cow::Borrowed(&service.description),
                0..views.len(),
                &views,
                form,
                auth,
            );
            match form {
                Form::Full => to_json_bytes_within(&doc, SIZE_GUIDANCE),
                Form::Compact => compact_json_bytes_within(&doc, SIZE_GUIDANCE),
            }
        };
        let written = body(auth.clone())?;
        match &other {
            Some(other) => body(other.clone()).map(|_| written),
            None => Some(written),
        }
    };
    // Over the guidance in full, the document is made to fit: first in compact form, then
    // split into parts.
    if service.compact != Some(true)
        && let Some(body) = within(Form::Full)
    {
        return Some(body);
    }
    if service.compact != Some(false) {
        return within(Form::Compact);
    }
    None
}

/// The document at both paths, then its parts when it was split, or `[source] split`'s
/// sub-service documents.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let layout = lowered.layout.get();
    let mut artifacts: Vec<Artifact> = PATHS
        .iter()
        .map(|p| Artifact::document(*p, layout.body.clone(), SERVING))
        .collect();
    if let Some(parts) = &layout.parts {
        artifacts.extend(parts.render());
    }
    if let Some(by_tag) = &layout.by_tag {
        artifacts.extend(split::render(service, by_tag));
    }
    artifacts
}

/// JSON without indentation, with its newline: a compacted document saves every byte.
pub(super) fn compact_json<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = serde_json::to_vec(value).expect("model views serialise to JSON");
    out.push(b'\n');
    out
}

/// A document of `service` naming the capabilities at `members` only (`views` holds every
/// capability's, in `form`), under its own name and description: the whole service, or one of
/// its sub-services (`split`).
pub(super) fn document<'a>(
    service: &'a Service,
    name: Cow<'a, str>,
    description: Cow<'a, str>,
    members: impl IntoIterator<Item = usize>,
    views: &'a [CapabilityView<'a>],
    form: Form,
    auth: Option<AuthView<'a>>,
) -> Document<'a> {
    let members: Vec<usize> = members.into_iter().collect();
    let capabilities: Vec<&Capability> =
        members.iter().map(|&i| &service.capabilities[i]).collect();
    // The optional parameters every capability takes are named once, in the description.
    let common = match form {
        Form::Compact => compact::common(&capabilities, &description, &service.schemas),
        Form::Full => Vec::new(),
    };
    let description = if common.is_empty() {
        description
    } else {
        Cow::Owned(compact::described(&description, &common))
    };
    Document {
        aiendpoint: "1.0",
        service: ServiceView {
            name,
            description,
            category: &service.categories,
            language: service.languages.as_deref(),
        },
        capabilities: {
            let mut capabilities: Vec<_> = members
                .iter()
                .map(|&i| without(&views[i], &common))
                .collect();
            if form == Form::Compact {
                compact::said_once(&mut capabilities);
            }
            capabilities
        },
        auth,
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

/// Every capability's view in `form`, with all its parameters: made once, however many
/// documents show it (a split measures each part as it cuts it).
pub(super) fn views(service: &Service, form: Form) -> Vec<CapabilityView<'_>> {
    service
        .capabilities
        .iter()
        .map(|c| capability(service, c, form))
        .collect()
}

/// `view` without the `common` parameters, which the document's description names.
pub(super) fn without<'a>(
    view: &'a CapabilityView<'a>,
    common: &[compact::Common<'_>],
) -> Cow<'a, CapabilityView<'a>> {
    let is_common = |name: &str| common.iter().any(|k| k.name == name);
    if !view.params.keys().any(|p| is_common(p)) {
        return Cow::Borrowed(view);
    }
    let mut view = view.clone();
    view.params.retain(|p, _| !is_common(p));
    Cow::Owned(view)
}

/// A capability's view, with all its parameters.
fn capability<'a>(service: &Service, c: &'a Capability, form: Form) -> CapabilityView<'a> {
    let compact = form == Form::Compact;
    let whole = whole_body(&c.params, c.content_type.as_deref(), &service.schemas);
    let (mut params, mut heads) = (IndexMap::new(), IndexMap::new());
    for (i, p) in c.params.iter().enumerate() {
        let name = p.name.as_str();
        let default_in = ParamIn::default_for(c.method, p.location == ParamIn::Path);
        if compact {
            let (text, head) = compact::param(p, default_in, whole == Some(i), &service.schemas);
            params.insert(name, text);
            heads.insert(name, head);
        } else {
            params.insert(
                name,
                p.notation(default_in, whole == Some(i), &service.schemas),
            );
        }
    }
    let description = if compact {
        Cow::Owned(compact::first_sentence(
            &c.description,
            compact::DESCRIPTION_MAX,
        ))
    } else {
        Cow::Borrowed(c.description.as_str())
    };
    CapabilityView {
        id: Cow::Borrowed(&c.id),
        description: with_media_type(description, body_media_type(c)),
        endpoint: endpoint(service, c),
        method: c.method.as_str(),
        params,
        heads,
        returns: c.returns.as_deref().map(|r| {
            if compact {
                compact::returns(r)
            } else {
                Cow::Borrowed(r)
            }
        }),
    }
}

/// The media type of a capability's request body when it is not JSON, which the notation's
/// default assumes.
fn body_media_type(c: &Capability) -> Option<&str> {
    let has_body = c.params.iter().any(|p| p.location == ParamIn::Body);
    c.content_type
        .as_deref()
        .filter(|t| has_body && *t != "application/json")
}

/// The draft's longest capability description.
const CAPABILITY_DESCRIPTION_MAX: usize = 200;

/// `description` ending with `Request body: <media type>.` when the body is not JSON, the
/// description cut first so the whole stays within the draft's 200 characters.
fn with_media_type<'a>(description: Cow<'a, str>, media: Option<&str>) -> Cow<'a, str> {
    let Some(media) = media else {
        return description;
    };
    let sentence = format!("Request body: {media}.");
    let room = CAPABILITY_DESCRIPTION_MAX.saturating_sub(sentence.chars().count() + 1);
    let text = description.trim_end();
    let text = if text.chars().count() <= room {
        text.to_string()
    } else if room < 2 {
        String::new()
    } else {
        crate::text::shorten(text, room).0
    };
    let stop = if text.is_empty() || text.ends_with(['.', '!', '?', '…']) {
        ""
    } else {
        "."
    };
    Cow::Owned(format!("{text}{stop} {sentence}").trim_start().to_string())
}

/// The auth object (docs/targets/ai.md): the draft's four words, a scheme it has no word for
/// published as `apikey` with no header and a `docs` that states it, the scheme's Security
/// Scheme Object in the published OpenAPI document when there is one, else the docs URL.
pub(super) fn published_auth<'a>(service: &'a Service, built: &[Target]) -> Option<AuthView<'a>> {
    let a = service.auth.as_ref()?;
    let docs = a.docs().map(Cow::Borrowed);
    let on_site = |fragment: String| {
        built.contains(&Target::OpenApi).then(|| {
            Cow::Owned(format!(
                "{}{fragment}",
                service.site_url.join(Target::OpenApi.path())
            ))
        })
    };
    if !service.auth_with.is_empty() {
        // Schemes sent together: the draft has room for one, so `docs` points at the
        // published document's first Security Requirement Object, which names them all.
        let pointer = on_site(security::REQUIREMENT_POINTER.to_string());
        return Some(AuthView {
            kind: "apikey",
            header: None,
            docs: pointer.or(docs),
        });
    }
    let (kind, header, docs) = match a {
        Auth::None { .. } => ("none", None, docs),
        Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            ..
        } => ("apikey", Some(name.clone()), docs),
        Auth::Bearer { .. } => ("bearer", None, docs),
        // OpenID Connect is OAuth 2 with an identity layer: the token is an OAuth 2 one.
        Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. } => ("oauth2", None, docs),
        _ => {
            let pointer = security::primary_name(service)
                .and_then(|name| on_site(security::pointer_fragment(&name)));
            ("apikey", None, pointer.or(docs))
        }
    };
    Some(AuthView { kind, header, docs })
}

/// Whether the draft's vocabulary says `a` exactly.
fn exact(a: &Auth) -> bool {
    matches!(
        a,
        Auth::None { .. }
            | Auth::Bearer { .. }
            | Auth::OAuth2 { .. }
            | Auth::OpenIdConnect { .. }
            | Auth::ApiKey {
                place: KeyPlace::Header,
                ..
            }
    )
}

/// The draft's rules that the model does not already enforce.
fn check(service: &Service, diags: &mut Diagnostics) {
    let len = service.description.chars().count();
    if len > 200 {
        diags.push(
            Diagnostic::new(Code::AiDescriptionLong, format!(
                "`service.description` is {len} characters; aiendpoint asks for under 200 to save agents' tokens (§3.2)"
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
}

/// A part still over the guidance: one capability alone is larger than 64 KB.
fn check_size(path: &str, len: usize, diags: &mut Diagnostics) {
    if len > SIZE_GUIDANCE {
        let extra = if len > SIZE_REFUSAL {
            "; agents MAY refuse it over 256 KB"
        } else {
            ""
        };
        diags.push(
            Diagnostic::new(Code::AiTooLarge, format!(
                "{path} is {} KB; aiendpoint says a document SHOULD NOT exceed 64 KB (§4.5){extra}",
                len.div_ceil(1024)
            ))
            .help("shorten that capability's description and parameters"),
        );
    }
}
