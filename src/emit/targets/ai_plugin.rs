//! `/.well-known/ai-plugin.json`: OpenAI's plugin manifest, with RFC-002 §3.2's overlay
//! (a `description_for_model` that says when to use the service and when not to, `api.url`
//! pointing at the OpenAPI 3.1 document, a human-monitored `contact_email`).
//!
//! Opt-in: OpenAI has retired the plugin program, and the manifest needs a logo and an e-mail
//! address that cannot honestly be derived. A build publishes it when service.toml has a
//! `[plugin]` table (the manifest's wording), or when `--target` or `[build] targets` name it;
//! agents.json then links to it.

use serde::Serialize;

use super::{Descriptor, Document, Link, Relation, Target, openapi_link};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::derive::published::RFC002_SERVING as SERVING;
use crate::emit::{Artifact, to_json_bytes};
use crate::model::{Auth, KeyPlace, Service};
use crate::text::{clause, list};

pub const PATH: &str = "/.well-known/ai-plugin.json";

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "ai-plugin",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "AI plugin manifest",
            note: "the OpenAI plugin manifest pointing at the OpenAPI description",
            media_type: "application/json",
            relation: Relation::ServiceMeta,
            ai_catalog: None,
        },
    )
    .when(written)],
    spec: "OpenAI plugin manifest v1, with RFC-002 §3.2's overlay",
    status: "retired by OpenAI",
    opt_in: Some("a `[plugin]` table in service.toml, or `--target ai-plugin`"),
    // `api.url` links the OpenAPI document.
    requires: &[Target::OpenApi],
};

/// The manifest, or `None` when it cannot be written (said in a warning).
pub struct Lowered<'a> {
    manifest: Option<Manifest<'a>>,
}

/// Every check of the manifest: `None` inside when a field OpenAI requires has no source.
pub fn lower<'a>(
    service: &'a Service,
    build: &crate::emit::Build,
    diags: &mut Diagnostics,
) -> Lowered<'a> {
    let openapi = openapi_link(service, build);
    Lowered {
        manifest: manifest(service, &openapi, diags),
    }
}

/// Pure: the manifest, when it can be written.
pub fn render(lowered: &Lowered) -> Vec<Artifact> {
    lowered
        .manifest
        .iter()
        .map(|m| Artifact::document(PATH, to_json_bytes(m), SERVING))
        .collect()
}

pub const NAME_FOR_MODEL_MAX: usize = 50;
pub const NAME_FOR_HUMAN_MAX: usize = 20;
pub const DESCRIPTION_FOR_HUMAN_MAX: usize = 100;
/// RFC-002 §3.2: "~500-1000 chars".
pub const DESCRIPTION_FOR_MODEL_TARGET: std::ops::RangeInclusive<usize> = 500..=1000;
/// OpenAI's limit, which the model also holds a written `[plugin] description_for_model` to.
pub const DESCRIPTION_FOR_MODEL_MAX: usize = 8000;

/// The manifest as published: every text already derived, shortened or checked by `lower`.
#[derive(Serialize)]
pub struct Manifest<'a> {
    schema_version: &'static str,
    name_for_model: String,
    name_for_human: String,
    description_for_model: String,
    description_for_human: String,
    auth: ManifestAuth,
    api: Api,
    logo_url: &'a str,
    contact_email: &'a str,
    legal_info_url: &'a str,
}

#[derive(Serialize)]
struct ManifestAuth {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    authorization_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scope: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    authorization_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    authorization_content_type: Option<&'static str>,
    /// Issued by OpenAI at registration; the key is required for oauth, the entries are not.
    #[serde(skip_serializing_if = "Option::is_none")]
    verification_tokens: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<String>,
}

impl ManifestAuth {
    fn of(kind: &'static str) -> Self {
        Self {
            kind,
            authorization_type: None,
            client_url: None,
            scope: None,
            authorization_url: None,
            authorization_content_type: None,
            verification_tokens: None,
            instructions: None,
        }
    }
}

#[derive(Serialize)]
struct Api {
    #[serde(rename = "type")]
    kind: &'static str,
    url: String,
}

/// Whether the manifest can be written, when asked for: OpenAI requires a logo and a contact
/// e-mail, which cannot honestly be derived.
pub fn written(service: &Service) -> bool {
    service.links.logo.is_some() && service.contact.email.is_some()
}

/// The manifest, or `None` (with a warning) when a field OpenAI requires has no source and
/// cannot honestly be derived: the logo and the contact e-mail; or (with an error) when the
/// name an agent calls it by cannot be derived.
fn manifest<'a>(
    service: &'a Service,
    openapi: &str,
    diags: &mut Diagnostics,
) -> Option<Manifest<'a>> {
    let (Some(logo_url), Some(contact_email)) = (
        service.links.logo.as_deref(),
        service.contact.email.as_deref(),
    ) else {
        let mut missing = Vec::new();
        if service.links.logo.is_none() {
            missing.push("`service.logo_url`".to_string());
        }
        if service.contact.email.is_none() {
            missing.push("`service.contact.email`".to_string());
        }
        diags.push(
            Diagnostic::new(Code::PluginNotWritten, format!(
                "/.well-known/ai-plugin.json is not written: OpenAI's manifest requires logo_url and \
                 contact_email, and RFC-002 §3.2 a human-monitored contact_email; {} not set",
                list(&missing)
            ))
            .help("set `logo_url` and `[service.contact] email`, or leave out the `[plugin]` table (or `--target ai-plugin`) that asks for the manifest"),
        );
        return None;
    };
    diags.extend(service.auth_with_left_out("ai-plugin.json"));
    let name_for_human = limited(
        service.plugin.name_for_human.as_deref(),
        &service.name,
        ("name_for_human", "service.name", NAME_FOR_HUMAN_MAX),
        diags,
    );
    let description_for_human = limited(
        service.plugin.description_for_human.as_deref(),
        &service.description,
        (
            "description_for_human",
            "service.description",
            DESCRIPTION_FOR_HUMAN_MAX,
        ),
        diags,
    );
    let name_for_model = name_for_model(service, diags);
    let description_for_model = description_for_model(service, openapi, diags);
    let auth = auth(service, diags);
    let legal_info_url = legal_info_url(service, diags);
    Some(Manifest {
        schema_version: "v1",
        name_for_model: name_for_model?,
        name_for_human,
        description_for_model: description_for_model?,
        description_for_human,
        auth,
        api: Api {
            kind: "openapi",
            url: openapi.to_string(),
        },
        logo_url,
        contact_email,
        legal_info_url,
    })
}

/// The author's value (already checked against the limit by the model), else the service's own
/// text, shortened at a word boundary when it is longer than the manifest allows. A derived
/// value is a guess, so the shortening is a warning naming the text published and the key that
/// publishes the author's own wording instead.
fn limited(
    written: Option<&str>,
    fallback: &str,
    (key, fallback_field, max): (&str, &str, usize),
    diags: &mut Diagnostics,
) -> String {
    if let Some(w) = written {
        return w.to_string();
    }
    let len = fallback.chars().count();
    let (short, cut) = crate::text::shorten(fallback, max);
    if cut {
        diags.push(
            Diagnostic::new(Code::PluginShortened, format!(
                "`{fallback_field}` is {len} characters, too long for ai-plugin.json's {key} (at most {max}): \
                 published shortened as `{short}`"
            ))
            .at(fallback_field)
            .help(format!(
                "set `[plugin] {key}` to a text of at most {max} characters to publish your own wording"
            )),
        );
    }
    short
}

fn name_for_model(service: &Service, diags: &mut Diagnostics) -> Option<String> {
    if let Some(n) = &service.plugin.name_for_model {
        return Some(n.clone());
    }
    let derived: String = service
        .name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let help = "set `[plugin] name_for_model` (letters and digits only, at most 50)";
    if derived.is_empty() || derived.len() > NAME_FOR_MODEL_MAX {
        diags.push(
            Diagnostic::new(Code::PluginNameForModel, format!(
                "ai-plugin.json's name_for_model cannot be derived from the name: without its other \
                 characters it is {}",
                if derived.is_empty() {
                    "empty".to_string()
                } else {
                    format!("{} characters (at most {NAME_FOR_MODEL_MAX})", derived.len())
                }
            ))
            .at("service.name")
            .help(help),
        );
        return None;
    }
    if derived != service.name {
        diags.push(
            Diagnostic::new(Code::PluginShortened, format!(
                "ai-plugin.json's name_for_model allows only letters and digits: writing `{derived}`"
            ))
            .at("service.name")
            .help(help),
        );
    }
    Some(derived)
}

/// The author's text, else one composed from the capabilities; `None` (with an error) when
/// even the composed text is longer than OpenAI allows.
fn description_for_model(
    service: &Service,
    openapi: &str,
    diags: &mut Diagnostics,
) -> Option<String> {
    if let Some(d) = &service.plugin.description_for_model {
        let len = d.chars().count();
        if !DESCRIPTION_FOR_MODEL_TARGET.contains(&len) {
            diags.push(
                Diagnostic::new(Code::PluginShortened, format!(
                    "`plugin.description_for_model` is {len} characters; RFC-002 §3.2 asks for about \
                     500-1000 that say when to use \
                     the service and when not to"
                ))
                .at("plugin.description_for_model"),
            );
        }
        return Some(d.clone());
    }
    let text = derive_description_for_model(service, openapi);
    let len = text.chars().count();
    if len > DESCRIPTION_FOR_MODEL_MAX {
        // Only a site URL thousands of characters long gets here: every other part is bounded.
        diags.push(
            Diagnostic::new(
                Code::PluginDescriptionForModel,
                format!(
                    "ai-plugin.json's description_for_model derived from the capabilities would be \
                 {len} characters (at most {DESCRIPTION_FOR_MODEL_MAX})"
                ),
            )
            .help("write `[plugin] description_for_model` (RFC-002 asks for 500-1000 characters)"),
        );
        return None;
    }
    diags.push(
        Diagnostic::new(Code::PluginDefaulted, format!(
            "no `plugin.description_for_model`: ai-plugin.json gets {} characters derived from the \
             capabilities",
            text.chars().count()
        ))
        .help("write one (RFC-002 asks for 500-1000 characters saying when to use the service and when not to)"),
    );
    Some(text)
}

/// Composes "use it when … / do not use it when …" from the capabilities, aiming at the RFC's
/// 1,000 characters: capabilities past the budget are counted, not listed, and so are the
/// capabilities to confirm past theirs (they are all marked in the OpenAPI document).
pub fn derive_description_for_model(service: &Service, openapi: &str) -> String {
    const LIST_BUDGET: usize = 600;
    const CONFIRM_BUDGET: usize = 300;
    let name = &service.name;
    let mut listed = Vec::new();
    let mut used = 0;
    for c in &service.capabilities {
        let item = format!(
            "{} ({})",
            clause(&c.description).trim_end_matches('.'),
            c.id
        );
        if used + item.len() > LIST_BUDGET && !listed.is_empty() {
            break;
        }
        used += item.len() + 2;
        listed.push(item);
    }
    let rest = service.capabilities.len() - listed.len();
    let mut out = format!("Use {name} when the user wants to {}", listed.join("; "));
    if rest > 0 {
        out.push_str(&format!("; and {rest} more operations"));
    }
    out.push_str(". ");
    out.push_str(service.description.trim_end());
    if !out.ends_with('.') {
        out.push('.');
    }
    out.push_str(&format!(
        " Do not use {name} for tasks these operations do not cover, and do not guess parameters"
    ));
    let mut confirm: Vec<String> = Vec::new();
    let mut used = 0;
    let to_confirm = service.capabilities.iter().filter(|c| c.confirm);
    for c in to_confirm.clone() {
        if used + c.id.len() > CONFIRM_BUDGET && !confirm.is_empty() {
            break;
        }
        used += c.id.len() + 2;
        confirm.push(c.id.clone());
    }
    let rest = to_confirm.count() - confirm.len();
    if rest > 0 {
        confirm.push(format!(
            "the {rest} other operations marked `x-requires-confirmation` in the OpenAPI document"
        ));
    }
    if !confirm.is_empty() {
        out.push_str(&format!(
            "; call {} only after the user has confirmed",
            list(&confirm)
        ));
    }
    out.push_str(&format!(". Full API description: {openapi}"));
    out
}

/// OpenAI's auth types are about who holds the credential; the mapping keeps the truth and
/// says in `instructions` (and a warning) what the manifest cannot express.
fn auth(service: &Service, diags: &mut Diagnostics) -> ManifestAuth {
    let instructions_with = |text: String, docs: Option<&str>| match docs {
        Some(d) => format!("{text} See {d}"),
        None => text,
    };
    match &service.auth {
        None | Some(Auth::None { .. }) => ManifestAuth::of("none"),
        Some(Auth::Bearer { docs, .. }) => ManifestAuth {
            authorization_type: Some("bearer"),
            instructions: docs.as_ref().map(|d| format!("See {d}")),
            ..ManifestAuth::of("user_http")
        },
        Some(Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            docs,
            ..
        }) => {
            let header = name;
            if !header.eq_ignore_ascii_case("authorization") {
                diags.push(
                    Diagnostic::new(Code::AuthSchemeLost, format!(
                        "ai-plugin.json can only send keys in the Authorization header: it says \
                         `user_http` and tells agents in `auth.instructions` to use `{header}`"
                    ))
                    .at("auth.header"),
                );
            }
            ManifestAuth {
                authorization_type: Some("bearer"),
                instructions: Some(instructions_with(
                    format!("Send the user's API key in the `{header}` header."),
                    docs.as_deref(),
                )),
                ..ManifestAuth::of("user_http")
            }
        }
        // The manifest's own word for it.
        Some(Auth::Basic { docs, .. }) => ManifestAuth {
            authorization_type: Some("basic"),
            instructions: docs.as_ref().map(|d| format!("See {d}")),
            ..ManifestAuth::of("user_http")
        },
        Some(Auth::OAuth2 {
            authorization_url: Some(authorization_url),
            token_url: Some(token_url),
            scopes,
            docs,
            ..
        }) => ManifestAuth {
            client_url: Some(authorization_url.clone()),
            scope: Some(scopes.keys().cloned().collect::<Vec<_>>().join(" ")),
            authorization_url: Some(token_url.clone()),
            authorization_content_type: Some("application/x-www-form-urlencoded"),
            verification_tokens: Some(serde_json::Map::new()),
            instructions: docs.as_ref().map(|d| format!("See {d}")),
            ..ManifestAuth::of("oauth")
        },
        // No manifest word for these (an OAuth 2 flow without both endpoints included): the
        // user's credential in a header, and the truth in `auth.instructions`.
        Some(
            a @ (Auth::ApiKey { .. }
            | Auth::Digest { .. }
            | Auth::OAuth2 { .. }
            | Auth::OpenIdConnect { .. }
            | Auth::MutualTls { .. }
            | Auth::Other { .. }),
        ) => {
            diags.push(a.approximated(
                "ai-plugin.json",
                "`user_http` with the scheme described in `auth.instructions`",
            ));
            ManifestAuth {
                authorization_type: Some("bearer"),
                instructions: Some(a.describe()),
                ..ManifestAuth::of("user_http")
            }
        }
        Some(Auth::SignedKey {
            header_prefix,
            register_url,
            algorithm,
            docs,
            ..
        }) => {
            diags.push(
                Diagnostic::new(
                    Code::AuthSchemeLost,
                    "ai-plugin.json has no signed-request auth: it says `user_http` and describes \
                     the signature in `auth.instructions`",
                )
                .at("auth.type"),
            );
            ManifestAuth {
                authorization_type: Some("bearer"),
                instructions: Some(instructions_with(
                    format!(
                        "Sign each request with {algorithm} using a key registered at {register_url}; \
                         send the key id in `{header_prefix}Key`."
                    ),
                    docs.as_deref(),
                )),
                ..ManifestAuth::of("user_http")
            }
        }
    }
}

/// Terms, else the privacy policy; else the site itself, with a warning.
fn legal_info_url<'a>(service: &'a Service, diags: &mut Diagnostics) -> &'a str {
    if let Some(u) = service
        .links
        .terms
        .as_deref()
        .or(service.links.privacy.as_deref())
    {
        return u;
    }
    diags.push(
        Diagnostic::new(Code::PluginDefaulted,
            "no terms or privacy URL: ai-plugin.json's legal_info_url points at the site's home page",
        )
        .help("set `terms_url` under [service]"),
    );
    service.site_url.as_str()
}
