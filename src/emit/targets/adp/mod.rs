//! Agent Discovery Protocol 1.0: the `/.well-known/agent` manifest and one capability detail
//! document per capability, at `/api/capabilities/<id>`.
//!
//! Sources: the spec page (registry `docs/spec`), the repository's `spec/README.md` and
//! examples, and the registry's validator; docs/targets/adp.md records every choice made where
//! they are silent or disagree.

mod example;
mod parameter;
mod rules;
mod sample;

use crate::emit::targets::{Descriptor, Document, Link, Relation};
use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{Artifact, JSON, Serving, to_json_bytes};
use crate::model::{Auth, Capability, KeyPlace, Period, Service};
use example::{AuthHeader, RequestExample, ResponseExample, ResponseSource};
use parameter::{Misfit, Origin, ParameterView};

pub const MANIFEST_PATH: &str = "/.well-known/agent";
/// The spec page's own convention (`/api/capabilities/send_email`); the README uses
/// `/capabilities/…`. Either is valid: the name is the last segment.
pub const DETAIL_PREFIX: &str = "/api/capabilities/";
/// Both the README and the spec page recommend an hour, and CORS for browser-based agents.
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "adp",
    documents: &[
        Document::linked(
            MANIFEST_PATH,
            SERVING,
            Link {
                title: "Agent Discovery Protocol manifest",
                note: "the ADP 1.0 manifest, with one detail file per capability",
                media_type: "application/json",
                relation: Relation::ServiceMeta,
                ai_catalog: None,
            },
        ),
        Document {
            path: DETAIL_PREFIX,
            serving: SERVING,
            family: Some("<id>"),
            alias: false,
            link: None,
            written: |_| true,
        },
    ],
    spec: "Agent Discovery Protocol 1.0",
    status: "community specification",
    opt_in: None,
    requires: &[],
};

#[derive(Serialize)]
struct Manifest<'a> {
    spec_version: &'static str,
    name: Cow<'a, str>,
    description: Cow<'a, str>,
    base_url: String,
    auth: AuthView<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pricing: Option<PricingView<'a>>,
    capabilities: Vec<CapabilitySummary<'a>>,
}

#[derive(Serialize)]
struct AuthView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prefix: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    setup_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    authorization_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scopes: Option<Vec<&'a str>>,
}

#[derive(Serialize)]
struct PricingView<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    plans: Vec<PlanView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plans_url: Option<&'a str>,
}

#[derive(Serialize)]
struct PlanView<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    price: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limits: Option<&'a str>,
}

#[derive(Serialize)]
struct CapabilitySummary<'a> {
    name: &'a str,
    description: Cow<'a, str>,
    detail_url: String,
}

#[derive(Serialize)]
struct Detail<'a> {
    name: &'a str,
    description: Cow<'a, str>,
    endpoint: String,
    method: &'static str,
    parameters: Vec<ParameterView>,
    request_example: RequestExample,
    response_example: ResponseExample,
    auth_scopes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    rate_limits: Option<RateLimitsView>,
}

#[derive(Serialize)]
struct RateLimitsView {
    #[serde(skip_serializing_if = "Option::is_none")]
    requests_per_minute: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    daily_limit: Option<u64>,
}

/// What the back end derives from the model once every ADP rule has been checked: the manifest
/// and one detail document per capability (in capability order), with their fitted texts,
/// parameter views, request and response samples and rate limits.
pub struct Lowered<'a> {
    manifest: Manifest<'a>,
    details: Vec<Detail<'a>>,
}

/// Every ADP diagnostic, and the documents' contents: texts fitted to the registry's limits,
/// examples chosen or made up, each with a warning; whatever would still break ADP's rules is an
/// error at the field behind it (see `rules`).
pub fn lower<'a>(service: &'a Service, diags: &mut Diagnostics) -> Lowered<'a> {
    let Published {
        name,
        description,
        capabilities: capability_descriptions,
    } = fit_text(service, diags);
    let detail_origin = detail_origin(service, diags);
    let header = auth_header(service.auth.as_ref());
    diags.extend(service.auth_with_left_out("ADP"));
    let manifest = Manifest {
        spec_version: rules::SPEC_VERSION,
        name,
        description,
        // Endpoints carry base_url's path prefix, so the manifest's base_url is its origin:
        // relative detail_urls then resolve (by concatenation) onto the site when it shares it.
        base_url: service.base_url.origin().as_str().to_string(),
        auth: auth(service.auth.as_ref(), diags),
        pricing: service.pricing.as_ref().map(|p| PricingView {
            kind: &p.kind,
            plans: p
                .plans
                .iter()
                .map(|plan| PlanView {
                    name: &plan.name,
                    price: plan.price.as_deref(),
                    limits: plan.limits.as_deref(),
                })
                .collect(),
            plans_url: p.plans_url.as_deref(),
        }),
        capabilities: service
            .capabilities
            .iter()
            .zip(&capability_descriptions)
            .map(|(c, description)| CapabilitySummary {
                name: &c.id,
                description: description.clone(),
                detail_url: format!("{detail_origin}{DETAIL_PREFIX}{}", c.id),
            })
            .collect(),
    };
    rules::check_manifest(service, &manifest, diags);
    let details = service
        .capabilities
        .iter()
        .zip(capability_descriptions)
        .map(|(c, description)| {
            let detail = detail(service, c, description, header.as_ref(), diags);
            rules::check_detail(c, &detail, diags);
            detail
        })
        .collect();
    Lowered { manifest, details }
}

/// The manifest and the detail documents, as JSON.
pub fn render(_service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let mut artifacts = Vec::with_capacity(lowered.details.len() + 1);
    artifacts.push(Artifact::document(
        MANIFEST_PATH,
        to_json_bytes(&lowered.manifest),
        SERVING,
    ));
    for detail in &lowered.details {
        artifacts.push(Artifact::document(
            format!("{DETAIL_PREFIX}{}", detail.name),
            to_json_bytes(detail),
            SERVING,
        ));
    }
    artifacts
}

/// The manifest's texts as published.
struct Published<'a> {
    name: Cow<'a, str>,
    description: Cow<'a, str>,
    /// Each capability's description, in order.
    capabilities: Vec<Cow<'a, str>>,
}

/// The registry's length limits, on text as it counts it (HTML tags removed). Text outside
/// them is fitted, with a warning, so that large imported APIs still publish valid documents:
/// a name that is nothing but tags is replaced by the API's host, a long description is
/// shortened at a word boundary, a short one completed from the name or the endpoint.
fn fit_text<'a>(service: &'a Service, diags: &mut Diagnostics) -> Published<'a> {
    let name = fit_name(service, diags);
    let len = rules::visible_len(&service.description);
    let description = if len > rules::DESCRIPTION_MAX {
        let (short, _) = crate::text::shorten(&service.description, rules::DESCRIPTION_MAX);
        diags.push(
                Diagnostic::new(
                    Code::AdpTextShortened,
                    format!(
                        "`service.description` {}; /.well-known/agent publishes it shortened at a word boundary",
                        rules::description_length_message(len)
                    ),
                )
                .at("service.description")
                .help("write a description of at most 200 characters to choose the words yourself"),
            );
        Cow::Owned(short)
    } else if len < rules::DESCRIPTION_MIN {
        let longer = format!("{name}: {}", service.description.trim_end_matches('.'));
        let longer = if rules::visible_len(&longer) < rules::DESCRIPTION_MIN {
            format!("{longer} (an API for AI agents)")
        } else {
            longer
        };
        diags.push(
            Diagnostic::new(
                Code::AdpTextChanged,
                format!(
                    "`service.description` {}; /.well-known/agent publishes `{longer}`",
                    rules::description_length_message(len)
                ),
            )
            .at("service.description")
            .help(
                "say what the service does and when an agent should use it, in a sentence or two",
            ),
        );
        Cow::Owned(longer)
    } else {
        Cow::Borrowed(service.description.as_str())
    };
    let mut texts = vec![(
        "service.description".to_string(),
        service.description.as_str(),
    )];
    if name == service.name.as_str() {
        texts.push(("service.name".to_string(), service.name.as_str()));
    }
    let mut capabilities = Vec::new();
    for c in &service.capabilities {
        let len = rules::visible_len(&c.description);
        if len < rules::CAPABILITY_DESCRIPTION_MIN {
            let mut longer = format!(
                "{} ({} {})",
                c.description,
                c.method.as_str(),
                c.path.braces()
            );
            if rules::visible_len(&longer) < rules::CAPABILITY_DESCRIPTION_MIN {
                // The description and path were (nearly) all tags: the id is never a tag, and
                // text with no `>` after the last `<` is kept whole by the registry.
                longer.push_str(&format!(" (the `{}` capability)", c.id));
            }
            diags.push(
                Diagnostic::new(Code::AdpTextChanged, format!(
                    "`{}` is {len} characters; the ADP registry needs at least {}, so `{longer}` is published",
                    c.field("description"),
                    rules::CAPABILITY_DESCRIPTION_MIN
                ))
                .at(c.field("description"))
                .help("describe what it does and when to use it, in a sentence"),
            );
            capabilities.push(Cow::Owned(longer));
        } else {
            capabilities.push(Cow::Borrowed(c.description.as_str()));
        }
        texts.push((c.field("description"), c.description.as_str()));
    }
    for (field, text) in texts {
        if rules::strip_tags(text) == text {
            continue;
        }
        // Imported descriptions come without markup (`text::plain_text`): what is left
        // between `<` and `>` is text, a placeholder such as `<id>` the registry loses.
        let d = if crate::text::has_markup_tag(text) {
            Diagnostic::new(Code::AdpHtmlStripped,
                "looks like it holds HTML tags: the ADP registry strips every `<…>` before using it",
            )
            .help("write plain text")
        } else {
            let (quote, _) = crate::text::shorten(&rules::first_tag_like(text), 40);
            Diagnostic::new(
                Code::AdpHtmlStripped,
                format!("holds `{quote}`, which the ADP registry strips as it strips every `<…>`"),
            )
            .help("write the placeholder without angle brackets, e.g. `{id}` for `<id>`")
        };
        diags.push(d.at(field));
    }
    Published {
        name,
        description,
        capabilities,
    }
}

/// `service.name`, unless the registry would read it as empty (it is nothing but `<…>` tags):
/// then the API's host, with a warning.
fn fit_name<'a>(service: &'a Service, diags: &mut Diagnostics) -> Cow<'a, str> {
    if rules::visible_len(&service.name) > 0 {
        return Cow::Borrowed(&service.name);
    }
    let (host, _) = crate::text::shorten(service.base_url.authority(), rules::NAME_MAX);
    diags.push(
        Diagnostic::new(Code::AdpHtmlStripped, format!(
            "is nothing but HTML-like tags, which the ADP registry strips, leaving an empty name; \
             /.well-known/agent publishes the API's host `{host}` as its name"
        ))
        .at("service.name")
        .help("write the service's name as plain text"),
    );
    Cow::Owned(host)
}

/// Where detail documents are linked from: "" (relative to base_url) when the site is
/// base_url's origin, else the site's origin, absolute.
fn detail_origin(service: &Service, diags: &mut Diagnostics) -> String {
    let base_origin = service.base_url.origin();
    if service.site_url == base_origin {
        return String::new();
    }
    // A local host is none the registry lists at all (E-local-url, unless --allow-local).
    let site = rules::secure_host(service.site_url.as_str());
    let base = rules::secure_host(base_origin.as_str());
    if let (Ok(site), Ok(base)) = (site, base)
        && site != base
        && !site.ends_with(&format!(".{base}"))
    {
        diags.push(
            Diagnostic::new(Code::AdpDetailHost, format!(
                "the ADP detail documents are published on `{site}`, which is neither base_url's host \
                 `{base}` nor a subdomain of it: agents following detail_url will find them, but the \
                 ADP registry refuses such a manifest"
            ))
            .at("service.site_url")
            .help(format!(
                "publish on `{base}` (remove site_url, or set it to `https://{base}`) to be listed \
                 in the registry"
            )),
        );
    }
    service.site_url.as_str().to_string()
}

fn auth<'a>(a: Option<&'a Auth>, diags: &mut Diagnostics) -> AuthView<'a> {
    let empty = AuthView {
        kind: "none",
        header: None,
        prefix: None,
        setup_url: None,
        authorization_url: None,
        token_url: None,
        scopes: None,
    };
    match a {
        None => {
            diags.push(
                Diagnostic::new(Code::AdpAuthDefault,
                    "no [auth] table: ADP requires `auth`, so /.well-known/agent says `{\"type\": \"none\"}`",
                )
                .help(
                    "add `[auth]` with the API's real scheme; `type = \"none\"` confirms it is \
                     open, if no capability writes (aiendpoint §6.2)",
                ),
            );
            empty
        }
        Some(Auth::None { .. }) => empty,
        // The key is the whole header value: an explicit empty prefix, since ADP's default
        // prefix is `Bearer`.
        Some(Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            key_url,
            docs,
            ..
        }) => AuthView {
            kind: "api_key",
            header: Some(name.clone()),
            prefix: Some(""),
            setup_url: key_url.as_deref().or(docs.as_deref()),
            ..empty
        },
        Some(Auth::Bearer {
            token_url, docs, ..
        }) => AuthView {
            kind: "api_key",
            header: Some("Authorization".into()),
            prefix: Some("Bearer"),
            setup_url: token_url.as_deref().or(docs.as_deref()),
            ..empty
        },
        Some(Auth::OAuth2 {
            authorization_url: Some(authorization_url),
            token_url: Some(token_url),
            scopes,
            ..
        }) => AuthView {
            kind: "oauth2",
            authorization_url: Some(authorization_url),
            token_url: Some(token_url),
            scopes: Some(scopes.keys().map(String::as_str).collect()),
            ..empty
        },
        Some(
            a @ Auth::SignedKey {
                header_prefix,
                register_url,
                ..
            },
        ) => {
            let d = Diagnostic::new(
                Code::AuthSchemeLost,
                format!(
                    "ADP has no signed-key scheme: /.well-known/agent says `api_key` in the \
                 `{header_prefix}Key` header; the signature headers are described only in ia.json"
                ),
            )
            .at("auth.type");
            // Once `docs_url` is set the help is taken: it is not said again.
            diags.push(match a.docs() {
                Some(_) => d,
                None => d.help("set `auth.docs_url` so agents can find how to sign requests"),
            });
            AuthView {
                kind: "api_key",
                header: Some(format!("{header_prefix}Key")),
                prefix: Some(""),
                setup_url: Some(register_url),
                ..empty
            }
        }
        // ADP says only `api_key` (a header, a prefix) and `oauth2` with both endpoints: every
        // other scheme is the nearest header credential, with the page that explains it.
        Some(a) => {
            let docs = a.docs();
            let (header, prefix, setup_url) = match a {
                // The key's own name: the header is wrong, the name is not.
                Auth::ApiKey { name, key_url, .. } => {
                    (name.clone(), "", key_url.as_deref().or(docs))
                }
                Auth::Basic { .. } => ("Authorization".into(), "Basic", docs),
                Auth::Digest { .. } => ("Authorization".into(), "Digest", docs),
                Auth::OAuth2 {
                    authorization_url,
                    token_url,
                    ..
                } => (
                    "Authorization".into(),
                    "Bearer",
                    authorization_url
                        .as_deref()
                        .or(token_url.as_deref())
                        .or(docs),
                ),
                Auth::OpenIdConnect { discovery_url, .. } => (
                    "Authorization".into(),
                    "Bearer",
                    docs.or(Some(discovery_url)),
                ),
                _ => ("Authorization".into(), "", docs),
            };
            let said = if prefix.is_empty() {
                format!("`api_key` in the `{header}` header")
            } else {
                format!("`api_key` in the `{header}` header with the prefix `{prefix}`")
            };
            diags.push(a.approximated("ADP", &said));
            AuthView {
                kind: "api_key",
                header: Some(header),
                prefix: Some(prefix),
                setup_url,
                ..empty
            }
        }
    }
}

/// The auth header of an example request, with the placeholder the upstream examples use.
fn auth_header(a: Option<&Auth>) -> Option<AuthHeader> {
    let (name, value) = match a? {
        // No header carries these: the example request shows none rather than a wrong one.
        Auth::None { .. }
        | Auth::MutualTls { .. }
        | Auth::Other { .. }
        | Auth::ApiKey {
            place: KeyPlace::Query,
            ..
        } => return None,
        Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            ..
        } => (name.clone(), "{api_key}".to_string()),
        Auth::ApiKey {
            name,
            place: KeyPlace::Cookie,
            ..
        } => ("Cookie".into(), format!("{name}={{api_key}}")),
        Auth::Basic { .. } => ("Authorization".into(), "Basic {credentials}".into()),
        Auth::Digest { .. } => ("Authorization".into(), "Digest {credentials}".into()),
        Auth::Bearer { .. } => ("Authorization".into(), "Bearer {token}".into()),
        Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. } => {
            ("Authorization".into(), "Bearer {access_token}".into())
        }
        Auth::SignedKey { header_prefix, .. } => {
            (format!("{header_prefix}Key"), "{api_key}".into())
        }
    };
    Some(AuthHeader { name, value })
}

fn detail<'a>(
    service: &Service,
    c: &'a Capability,
    description: Cow<'a, str>,
    header: Option<&AuthHeader>,
    diags: &mut Diagnostics,
) -> Detail<'a> {
    let given = c.example.as_ref().and_then(|e| e.request.as_ref());
    let request = given.and_then(Value::as_object);
    let examples: Vec<(Value, Origin, Vec<Misfit>)> = c
        .params
        .iter()
        .map(|p| parameter::example(p, request))
        .collect();
    let values: Vec<Value> = examples.iter().map(|(v, _, _)| v.clone()).collect();
    let mut parameters: Vec<ParameterView> = c
        .params
        .iter()
        .zip(&values)
        .map(|(p, v)| parameter::view(p, v.clone()))
        .collect();
    warn_parameters(c, diags);
    for ((p, (chosen, _, misfits)), view) in c.params.iter().zip(&examples).zip(&mut parameters) {
        warn_misfits(c, p, chosen, misfits, diags);
        if let Some(d) = &view.default
            && !rules::admits(view.kind, d)
        {
            diags.push(
                Diagnostic::new(Code::AdpValueDropped, format!(
                    "the default {d} is not a `{}`, the parameter's ADP type: the detail document \
                     leaves it out",
                    view.kind
                ))
                .at(format!("{}.{}.default", c.field("params"), p.name))
                .help("give a default of the parameter's type (and `items`)"),
            );
            view.default = None;
        }
    }
    // The author's request, each value of the wrong type replaced by its parameter's example
    // (already converted or chosen above), so request and parameters agree.
    let fixed = fixed_request(c, given, &values);

    let (endpoint, url_base) = match &c.host {
        Some(host) => (host.join(&c.path.braces()), host.as_str().to_string()),
        None => (
            format!("{}{}", service.base_url.path_prefix(), c.path.braces()),
            service.base_url.as_str().to_string(),
        ),
    };
    let request_example = example::request(c, fixed.as_ref().or(given), &url_base, header, &values);
    let (response_example, response_source) = example::response(&service.schemas, c);
    let made_up: Vec<&str> = c
        .params
        .iter()
        .zip(&examples)
        .filter(|(_, (_, origin, _))| *origin == Origin::Type)
        .map(|(p, _)| p.name.as_str())
        .collect();
    warn_examples(c, response_source, &made_up, diags);

    Detail {
        name: &c.id,
        description,
        endpoint,
        method: c.method.as_str(),
        parameters,
        request_example,
        response_example,
        auth_scopes: &c.scopes,
        rate_limits: rate_limits(service, c, diags),
    }
}

/// The author's example request with every argument whose type is not its parameter's
/// replaced by the parameter's published example; `None` when nothing needed replacing.
fn fixed_request(c: &Capability, given: Option<&Value>, values: &[Value]) -> Option<Value> {
    let mut args = given?.as_object()?.clone();
    let mut changed = false;
    for (p, v) in c.params.iter().zip(values) {
        if let Some(arg) = args.get_mut(&p.name)
            && let Err(converted) = parameter::fit(p, arg)
        {
            *arg = converted.unwrap_or_else(|| v.clone());
            changed = true;
        }
    }
    changed.then_some(Value::Object(args))
}

/// A warning for each value given for a parameter that is not of its type: where it came
/// from, and what was published instead.
fn warn_misfits(
    c: &Capability,
    p: &crate::model::Param,
    chosen: &Value,
    misfits: &[Misfit],
    diags: &mut Diagnostics,
) {
    let param = format!("{}.{}", c.field("params"), p.name);
    for m in misfits {
        let (field, what) = match m.origin {
            Origin::Request => (
                format!("{}.request.{}", c.field("example"), p.name),
                "the example request's value",
            ),
            Origin::Author => (format!("{param}.example"), "the example"),
            // The published `default` is checked (and warned about) on its own.
            Origin::Default => continue,
            Origin::Enum => (format!("{param}.enum"), "the first allowed value"),
            Origin::Type => continue,
        };
        let done = match &m.converted {
            Some(v) => format!("published as {v}"),
            None => format!("the detail document uses {chosen} instead"),
        };
        diags.push(
            Diagnostic::new(
                Code::AdpValueDropped,
                format!(
                    "{what} {} for `{}` is not of its type, {}: {done}",
                    m.given,
                    p.name,
                    type_text(p)
                ),
            )
            .at(field)
            .help(format!("give a value of type {}", type_text(p))),
        );
    }
    // A request value passed over because an own example came first is still replaced in
    // request_example (see `fixed_request`): say so too.
    let request = c
        .example
        .as_ref()
        .and_then(|e| e.request.as_ref())
        .and_then(|r| r.get(&p.name));
    if let Some(v) = request
        && !misfits.iter().any(|m| m.origin == Origin::Request)
        && let Err(converted) = parameter::fit(p, v)
    {
        diags.push(
            Diagnostic::new(
                Code::AdpValueDropped,
                format!(
                    "the example request's value {v} for `{}` is not of its type, {}: \
                 request_example uses {} instead",
                    p.name,
                    type_text(p),
                    converted.unwrap_or_else(|| chosen.clone())
                ),
            )
            .at(format!("{}.request.{}", c.field("example"), p.name))
            .help(format!("give a value of type {}", type_text(p))),
        );
    }
}

/// `integer`, or `array` of `string`: a parameter's type as service.toml spells it.
fn type_text(p: &crate::model::Param) -> String {
    match p.items {
        Some(items) if p.kind == crate::model::ParamType::Array => {
            format!("`array` of `{}`", items.as_str())
        }
        _ => format!("`{}`", p.kind.as_str()),
    }
}

fn warn_parameters(c: &Capability, diags: &mut Diagnostics) {
    let undescribed: Vec<String> = c
        .params
        .iter()
        .filter(|p| parameter::description(p).1)
        .map(|p| format!("`{}`", p.name))
        .collect();
    if !undescribed.is_empty() {
        diags.push(
            Diagnostic::new(Code::AdpExampleMadeUp, format!(
                "ADP needs a description for every parameter; {} had none, so one was made from \
                 the name and location",
                undescribed.join(", ")
            ))
            .at(c.field("params"))
            .help("describe each parameter: `\"string, required -- what it is\"` or `description = \"…\"`"),
        );
    }
    for p in c.params.iter().filter(|p| parameter::is_nested_array(p)) {
        diags.push(
            Diagnostic::new(Code::AdpTypeLost,
                "ADP's parameter types (string, number, boolean, object, and arrays of those) have \
                 no array of arrays: published as `string[]`, each item shown as the JSON text of \
                 its array, with the description saying so",
            )
            .at(format!("{}.{}", c.field("params"), p.name))
            .help("make the items objects with named fields (`items = \"object\"`) to publish an exact type"),
        );
    }
}

/// One warning per capability saying what of its examples wellgen made up.
fn warn_examples(
    c: &Capability,
    response: ResponseSource,
    made_up: &[&str],
    diags: &mut Diagnostics,
) {
    let example = c.example.as_ref();
    let mut parts = Vec::new();
    if example.and_then(|e| e.request.as_ref()).is_none() {
        parts.push("the request_example was put together from parameter examples".to_string());
    }
    match response {
        ResponseSource::Author => {}
        ResponseSource::Returns => {
            parts.push("the response_example body was read from `returns`".into())
        }
        ResponseSource::OutputSchema => {
            parts.push("the response_example body was built from `output_schema`".into())
        }
        ResponseSource::Nothing => parts.push(
            "the response_example body is `{}` (no `returns` in the compact notation, no `output_schema`)"
                .into(),
        ),
    }
    if !made_up.is_empty() {
        let names: Vec<String> = made_up.iter().map(|n| format!("`{n}`")).collect();
        parts.push(format!(
            "example values for {} were made up from their types",
            names.join(", ")
        ));
    }
    if parts.is_empty() {
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::AdpExampleMadeUp,
            format!("ADP needs complete examples: {}", parts.join("; ")),
        )
        .at(c.field("example"))
        .help(
            "add `[capabilities.example]` with `request = { … }` (arguments by parameter name), \
             `response = { … }` and `status`, and an `example` on each parameter",
        ),
    );
}

/// ADP has requests per minute and per day: per-second limits are scaled up, per-hour ones
/// down (rounding down, so an agent keeping to them stays within the real limit).
fn rate_limits(
    service: &Service,
    c: &Capability,
    diags: &mut Diagnostics,
) -> Option<RateLimitsView> {
    let service_rpm = service.rate_limits.and_then(|r| r.requests_per_minute);
    let (rpm, daily) = match c.rate_limit {
        None => (service_rpm, None),
        Some(r) => match r.period {
            Period::Second => (Some(r.count.saturating_mul(60)), None),
            Period::Minute => (Some(r.count), None),
            Period::Day => (service_rpm, Some(r.count)),
            Period::Hour => {
                let per_minute = r.count / 60;
                diags.push(
                    Diagnostic::new(Code::AdpHourlyLimit, format!(
                        "ADP has no hourly rate limit: {}",
                        if per_minute > 0 {
                            format!("published as requests_per_minute = {per_minute} (rounded down)")
                        } else {
                            "fewer than 60 an hour cannot be written per minute, so rate_limits leaves it out"
                                .to_string()
                        }
                    ))
                    .at(c.field("rate_limit"))
                    .help("give the limit per minute or per day if the API has one"),
                );
                ((per_minute > 0).then_some(per_minute).or(service_rpm), None)
            }
        },
    };
    (rpm.is_some() || daily.is_some()).then_some(RateLimitsView {
        requests_per_minute: rpm,
        daily_limit: daily,
    })
}
