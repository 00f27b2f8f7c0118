//! The A2A agent card: /.well-known/agent-card.json (A2A 1.0.1, `AgentCard` in a2a.proto).
//!
//! Field names follow the proto's ProtoJSON mapping (lowerCamelCase, spec §5.5); `oneof`
//! members are written as the member's name wrapping its message, as ProtoJSON does.

use crate::emit::targets::{Descriptor, Document, Link, Relation};
use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{Artifact, JSON, Serving, to_json_bytes};
use crate::model::{Auth, Capability, KeyPlace, Method, Service};
use crate::values::path::Segment;

pub const PATH: &str = "/.well-known/agent-card.json";
/// The pre-1.0 well-known path (A2A 0.2/0.3), written only when `[a2a] legacy_alias = true`.
pub const LEGACY_PATH: &str = "/.well-known/agent.json";
/// Spec §8.6.1: a Cache-Control with max-age; the card changes when the service does.
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: "public, max-age=3600",
    cors: true,
};

/// The media type that names an A2A agent card in an AI catalog (AI Catalog §3.3). The card
/// itself is served as `application/json`.
pub const CATALOG_MEDIA_TYPE: &str = "application/a2a-agent-card+json";

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "a2a",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "A2A agent card",
            note: "the service as an A2A 1.0 agent: skills, interfaces and security schemes",
            media_type: "application/json",
            relation: Relation::ServiceMeta,
            ai_catalog: Some(CATALOG_MEDIA_TYPE),
        },
    )],
    spec: "A2A 1.0.1",
    status: "released specification",
    opt_in: None,
    requires: &[],
};
pub const PROTOCOL_VERSION: &str = "1.0";
/// The interface is the service's own HTTP API, so the REST-style binding name is used.
pub const PROTOCOL_BINDING: &str = "HTTP+JSON";
const MODES: [&str; 1] = ["application/json"];

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentCard<'a> {
    name: &'a str,
    description: &'a str,
    /// A2A 0.3's endpoint, the same as the first interface's: 0.3 clients and the
    /// Agent-Adoption Specification's check read it, and A2A 1.0.1 §5.7 has implementations
    /// ignore a field they do not know.
    url: &'a str,
    supported_interfaces: Vec<AgentInterface<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    provider: Option<AgentProvider<'a>>,
    version: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    documentation_url: Option<&'a str>,
    capabilities: AgentCapabilities,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    security_schemes: IndexMap<String, SecurityScheme<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    security_requirements: Vec<SecurityRequirement<'a>>,
    default_input_modes: [&'static str; 1],
    default_output_modes: [&'static str; 1],
    skills: Vec<AgentSkill<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icon_url: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentInterface<'a> {
    url: &'a str,
    protocol_binding: &'static str,
    protocol_version: &'static str,
}

#[derive(Serialize)]
struct AgentProvider<'a> {
    organization: &'a str,
    url: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentCapabilities {
    streaming: bool,
    push_notifications: bool,
    extended_agent_card: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentSkill<'a> {
    id: &'a str,
    name: String,
    /// "A detailed description of the skill": the long text where there is one.
    description: std::borrow::Cow<'a, str>,
    tags: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    examples: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    security_requirements: Vec<SecurityRequirement<'a>>,
}

/// `SecurityScheme` is a `oneof`: exactly one member is set, named as in the proto.
#[derive(Serialize)]
enum SecurityScheme<'a> {
    #[serde(rename = "apiKeySecurityScheme")]
    ApiKey {
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        location: &'static str,
        name: String,
    },
    #[serde(rename = "httpAuthSecurityScheme")]
    HttpAuth {
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        scheme: &'static str,
    },
    #[serde(rename = "oauth2SecurityScheme")]
    OAuth2 {
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        flows: OAuthFlows<'a>,
    },
    #[serde(rename = "openIdConnectSecurityScheme")]
    OpenIdConnect {
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        #[serde(rename = "openIdConnectUrl")]
        url: &'a str,
    },
    #[serde(rename = "mtlsSecurityScheme")]
    MutualTls {
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
}

/// `OAuthFlows` is a `oneof` too: one flow per scheme.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
enum OAuthFlows<'a> {
    #[serde(rename_all = "camelCase")]
    AuthorizationCode {
        authorization_url: &'a str,
        token_url: &'a str,
        scopes: &'a IndexMap<String, String>,
        pkce_required: bool,
    },
    #[serde(rename_all = "camelCase")]
    ClientCredentials {
        token_url: &'a str,
        scopes: &'a IndexMap<String, String>,
    },
    /// Deprecated in the proto, still a member: the truth about an implicit-flow API.
    #[serde(rename_all = "camelCase")]
    Implicit {
        authorization_url: &'a str,
        scopes: &'a IndexMap<String, String>,
    },
    /// Deprecated in the proto, still a member.
    #[serde(rename_all = "camelCase")]
    Password {
        token_url: &'a str,
        scopes: &'a IndexMap<String, String>,
    },
}

/// `SecurityRequirement { map<string, StringList> schemes }`: scheme name → required scopes.
#[derive(Serialize, Clone)]
struct SecurityRequirement<'a> {
    schemes: IndexMap<String, StringList<'a>>,
}

#[derive(Serialize, Clone)]
struct StringList<'a> {
    list: Vec<&'a str>,
}

/// The agent card, once the proto's requirements have been checked: its security schemes and
/// skills (tags derived where the author gave none) are what `render` serialises.
pub struct Lowered<'a> {
    card: AgentCard<'a>,
}

/// Every diagnostic of the A2A card, and the card.
pub fn lower<'a>(service: &'a Service, diags: &mut Diagnostics) -> Lowered<'a> {
    // The proto marks these REQUIRED; blank text would meet the letter of it, not the intent.
    for (field, value) in [
        ("service.name", &service.name),
        ("service.description", &service.description),
        ("service.version", &service.version),
    ] {
        if value.trim().is_empty() {
            diags.push(
                Diagnostic::new(
                    Code::A2aBlank,
                    "is blank; the A2A agent card requires it (a2a.proto AgentCard)",
                )
                .at(field),
            );
        }
    }
    let mut security_schemes = IndexMap::new();
    // Per security requirement, per scheme of it, the names of that scheme's entries (an
    // OAuth 2 scheme has one per flow, any of which serves).
    let mut together: Vec<Vec<Vec<String>>> = Vec::new();
    let primary = service.auth.iter().chain(&service.auth_with);
    let groups = std::iter::once(primary.collect::<Vec<_>>())
        .chain(service.auth_also.iter().map(|a| vec![a]));
    for group in groups {
        let mut requirement = Vec::new();
        for a in group {
            let mut names = Vec::new();
            for (name, scheme) in security_schemes_of(a, diags) {
                // Two schemes of one kind (a header key and a query key): the second gets a
                // number.
                let mut unique = name.to_string();
                let mut n = 2;
                while security_schemes.contains_key(&unique) {
                    unique = format!("{name}_{n}");
                    n += 1;
                }
                security_schemes.insert(unique.clone(), scheme);
                names.push(unique);
            }
            if !names.is_empty() {
                requirement.push(names);
            }
        }
        if !requirement.is_empty() {
            together.push(requirement);
        }
    }
    let card = AgentCard {
        name: &service.name,
        description: &service.description,
        url: service.base_url.as_str(),
        supported_interfaces: vec![AgentInterface {
            url: service.base_url.as_str(),
            protocol_binding: PROTOCOL_BINDING,
            protocol_version: PROTOCOL_VERSION,
        }],
        provider: provider(service),
        version: &service.version,
        documentation_url: service.links.docs.as_deref(),
        capabilities: AgentCapabilities {
            streaming: false,
            // The service calls back to subscribers: the nearest thing it has to push updates.
            push_notifications: !service.webhooks.is_empty(),
            extended_agent_card: false,
        },
        security_requirements: requirements(&security_schemes, &together, &[]),
        skills: skills(service, &security_schemes, &together, diags),
        security_schemes,
        default_input_modes: MODES,
        default_output_modes: MODES,
        icon_url: service.links.logo.as_deref(),
    };
    Lowered { card }
}

/// The card, and its pre-1.0 alias when asked for.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let body: std::sync::Arc<Vec<u8>> = to_json_bytes(&lowered.card).into();
    let mut out = vec![Artifact::document(PATH, body.clone(), SERVING)];
    if service.a2a.legacy_alias {
        out.push(Artifact::document(LEGACY_PATH, body, SERVING));
    }
    out
}

/// `AgentProvider` needs both fields once present. The organisation is the legal operator
/// when RFC-002 names one, else the contact's name. With neither, the card has no provider
/// (the field is optional): the service's own name would be a guess about who runs it.
fn provider(service: &Service) -> Option<AgentProvider<'_>> {
    let organization = service
        .rfc002
        .issuer
        .as_ref()
        .and_then(|i| i.operator_name.as_deref())
        .or(service.contact.name.as_deref())?;
    let url = service
        .contact
        .url
        .as_deref()
        .unwrap_or(service.site_url.as_str());
    Some(AgentProvider { organization, url })
}

/// One `SecurityScheme` per way in. OAuth 2 has one scheme per grant type, because
/// `OAuthFlows` is a `oneof` holding a single flow.
fn security_schemes_of<'a>(
    auth: &'a Auth,
    diags: &mut Diagnostics,
) -> IndexMap<&'static str, SecurityScheme<'a>> {
    // A vendor scheme's description is its `what`; any other's own words follow it.
    let own = auth
        .description()
        .filter(|_| !matches!(auth, Auth::Other { .. }));
    let docs = |what: &str| {
        let what = match own {
            Some(d) => format!("{what} {d}").trim_start().to_string(),
            None => what.to_string(),
        };
        auth.docs()
            .map(|d| format!("{what} See {d}"))
            .or_else(|| (!what.is_empty()).then(|| what.clone()))
    };
    let mut out = IndexMap::new();
    match auth {
        Auth::None { .. } => {}
        Auth::ApiKey {
            name,
            place,
            key_url,
            ..
        } => {
            let carrier = match place {
                KeyPlace::Header => "header",
                KeyPlace::Query => "query parameter",
                KeyPlace::Cookie => "cookie",
            };
            let what = match key_url {
                Some(k) => format!("An API key in the {name} {carrier}; get one at {k}."),
                None => format!("An API key in the {name} {carrier}."),
            };
            let place = place.as_str();
            out.insert(
                "api_key",
                SecurityScheme::ApiKey {
                    description: docs(&what),
                    location: place,
                    name: name.clone(),
                },
            );
        }
        Auth::Basic { .. } => {
            out.insert(
                "basic",
                SecurityScheme::HttpAuth {
                    description: docs("HTTP Basic authentication."),
                    scheme: "Basic",
                },
            );
        }
        Auth::Digest { .. } => {
            out.insert(
                "digest",
                SecurityScheme::HttpAuth {
                    description: docs("HTTP Digest authentication."),
                    scheme: "Digest",
                },
            );
        }
        Auth::Bearer { token_url, .. } => {
            let what = match token_url {
                Some(t) => format!("A bearer token from {t}."),
                None => "A bearer token.".to_string(),
            };
            out.insert(
                "bearer",
                SecurityScheme::HttpAuth {
                    description: docs(&what),
                    scheme: "Bearer",
                },
            );
        }
        Auth::OAuth2 {
            authorization_url,
            token_url,
            scopes,
            grant_types,
            pkce,
            ..
        } => {
            let grants = |g: &str| grant_types.iter().any(|t| t == g);
            // With no grant type named, the authorization URL the model requires still makes
            // the authorization-code flow the one to declare.
            if let (Some(authorization_url), Some(token_url)) = (authorization_url, token_url)
                && (grants("authorization_code") || grant_types.is_empty())
            {
                out.insert(
                    "oauth2",
                    SecurityScheme::OAuth2 {
                        description: docs("OAuth 2.0, authorization code flow."),
                        flows: OAuthFlows::AuthorizationCode {
                            authorization_url,
                            token_url,
                            scopes,
                            pkce_required: *pkce,
                        },
                    },
                );
            }
            if let Some(token_url) = token_url
                && grants("client_credentials")
            {
                out.insert(
                    "oauth2_client_credentials",
                    SecurityScheme::OAuth2 {
                        description: docs("OAuth 2.0, client credentials flow."),
                        flows: OAuthFlows::ClientCredentials { token_url, scopes },
                    },
                );
            }
            if let Some(authorization_url) = authorization_url
                && grants("implicit")
            {
                out.insert(
                    "oauth2_implicit",
                    SecurityScheme::OAuth2 {
                        description: docs("OAuth 2.0, implicit flow."),
                        flows: OAuthFlows::Implicit {
                            authorization_url,
                            scopes,
                        },
                    },
                );
            }
            if let Some(token_url) = token_url
                && grants("password")
            {
                out.insert(
                    "oauth2_password",
                    SecurityScheme::OAuth2 {
                        description: docs("OAuth 2.0, resource owner password flow."),
                        flows: OAuthFlows::Password { token_url, scopes },
                    },
                );
            }
        }
        Auth::OpenIdConnect { discovery_url, .. } => {
            out.insert(
                "openid",
                SecurityScheme::OpenIdConnect {
                    description: docs("OpenID Connect."),
                    url: discovery_url,
                },
            );
        }
        Auth::MutualTls { .. } => {
            out.insert(
                "mtls",
                SecurityScheme::MutualTls {
                    description: docs("Mutual TLS: present a client certificate."),
                },
            );
        }
        Auth::Other { description, .. } => {
            // A2A names no vendor schemes; a vendor signature travels in the Authorization
            // header, and the description says what it is.
            diags.push(auth.approximated(
                "A2A",
                "an apiKeySecurityScheme in the Authorization header, described in words",
            ));
            out.insert(
                "other",
                SecurityScheme::ApiKey {
                    description: docs(description),
                    location: "header",
                    name: "Authorization".into(),
                },
            );
        }
        Auth::SignedKey { header_prefix, .. } => {
            let mut d = Diagnostic::new(
                Code::AuthSchemeLost,
                "A2A has no signed-request scheme: the A2A card declares only the key header \
                 of signed_key auth, and says in its description that requests are signed",
            )
            .at("auth.type");
            if auth.docs().is_none() {
                d = d.help("set `auth.docs_url` so agents can find how to sign requests");
            }
            diags.push(d);
            out.insert(
                "signed_key",
                SecurityScheme::ApiKey {
                    description: docs(&format!(
                        "A registered key in the {header_prefix}Key header; every request is also \
                         signed ({header_prefix}Signature, {header_prefix}Timestamp)."
                    )),
                    location: "header",
                    name: format!("{header_prefix}Key"),
                },
            );
        }
    }
    out
}

/// One requirement per scheme, each an alternative. Scopes only mean something to OAuth.
/// One Security Requirement per way to authenticate: each requirement's schemes together, one
/// entry of each (`together`, from `card`); OAuth 2 entries carry `scopes`.
fn requirements<'a>(
    schemes: &IndexMap<String, SecurityScheme<'a>>,
    together: &[Vec<Vec<String>>],
    scopes: &[&'a str],
) -> Vec<SecurityRequirement<'a>> {
    let mut out = Vec::new();
    for requirement in together {
        let mut ways: Vec<Vec<&String>> = vec![Vec::new()];
        for entries in requirement {
            ways = ways
                .into_iter()
                .flat_map(|way| {
                    entries.iter().map(move |e| {
                        let mut way = way.clone();
                        way.push(e);
                        way
                    })
                })
                .collect();
        }
        for way in ways {
            let schemes = way
                .into_iter()
                .map(|name| {
                    let list = match schemes.get(name) {
                        Some(SecurityScheme::OAuth2 { .. }) => scopes.to_vec(),
                        _ => Vec::new(),
                    };
                    (name.clone(), StringList { list })
                })
                .collect();
            out.push(SecurityRequirement { schemes });
        }
    }
    out
}

fn skills<'a>(
    service: &'a Service,
    schemes: &IndexMap<String, SecurityScheme<'a>>,
    together: &[Vec<Vec<String>>],
    diags: &mut Diagnostics,
) -> Vec<AgentSkill<'a>> {
    let mut untagged = Vec::new();
    let skills = service
        .capabilities
        .iter()
        .map(|c| {
            let mut tags: Vec<&str> = Vec::new();
            for t in c.tags.iter().chain(&service.tags) {
                if !tags.contains(&t.as_str()) {
                    tags.push(t);
                }
            }
            if tags.is_empty() {
                untagged.push(c.id.as_str());
                tags = fallback_tags(c);
            }
            let scopes: Vec<&str> = c.scopes.iter().map(String::as_str).collect();
            AgentSkill {
                id: &c.id,
                name: human_title(&c.id),
                description: c.long_text(&c.description),
                tags,
                examples: examples(c),
                security_requirements: if scopes.is_empty() {
                    Vec::new()
                } else {
                    requirements(schemes, together, &scopes)
                },
            }
        })
        .collect();
    if !untagged.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::A2aTagsDerived,
                format!(
                    "A2A skills need tags; derived from the method and path for: {}",
                    untagged.join(", ")
                ),
            )
            .help("add `tags = [\"…\"]` to `[service]` or to each capability"),
        );
    }
    skills
}

/// The method, and the first path word that says what the capability is about (skipping
/// an `api` prefix and version segments such as `v1`).
fn fallback_tags(c: &Capability) -> Vec<&str> {
    let method = match c.method {
        Method::Get => "get",
        Method::Post => "post",
        Method::Put => "put",
        Method::Patch => "patch",
        Method::Delete => "delete",
    };
    let mut tags = vec![method];
    tags.extend(first_path_word(c));
    tags
}

fn first_path_word(c: &Capability) -> Option<&str> {
    c.path
        .segments()
        .iter()
        .filter_map(|s| match s {
            Segment::Literal(text) => Some(text.split('/')),
            Segment::Param(_) => None,
        })
        .flatten()
        .find(|w| !w.is_empty() && !is_prefix_word(w))
}

fn is_prefix_word(w: &str) -> bool {
    w == "api"
        || w.strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// `search_books` → `Search books`.
fn human_title(id: &str) -> String {
    let words = id.replace('_', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What an agent might be asked to do with the skill: the author's parameter hints (phrases
/// that introduce a value), then the example request as compact JSON.
fn examples(c: &Capability) -> Vec<String> {
    let mut out: Vec<String> = c
        .semantic
        .parameter_hints
        .values()
        .flatten()
        .cloned()
        .collect();
    if let Some(request) = c.example.as_ref().and_then(|e| e.request.as_ref()) {
        out.push(request.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_read_as_words() {
        assert_eq!(human_title("search_books"), "Search books");
        assert_eq!(human_title("get_v2_item"), "Get v2 item");
        assert_eq!(human_title("x"), "X");
    }

    #[test]
    fn prefix_words_are_skipped_for_tags() {
        assert!(is_prefix_word("api"));
        assert!(is_prefix_word("v1"));
        assert!(is_prefix_word("v20"));
        assert!(!is_prefix_word("v"));
        assert!(!is_prefix_word("videos"));
    }
}
