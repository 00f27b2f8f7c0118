//! /.well-known/oauth-protected-resource: OAuth 2.0 Protected Resource Metadata (RFC 9728),
//! written when the service takes an OAuth 2 or OpenID Connect scheme.
//!
//! The resource is the API's base URL; its authorization servers are the issuers the author
//! names (`[auth] authorization_servers`), else derived: the origin of the authorization URL
//! (else the token URL) for OAuth 2, the issuer the OpenID discovery URL names for OpenID
//! Connect (a note says which). Every OAuth scheme the service takes counts (`[auth]`,
//! `[[auth.with]]`, `[[auth.also]]`): their issuers and scopes are listed together.

use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::targets::{Descriptor, Document, Link, Relation};
use crate::emit::{Artifact, JSON, Serving, to_json_bytes};
use crate::model::{Auth, Service};
use crate::values::url::check_https;

pub const PATH: &str = "/.well-known/oauth-protected-resource";
/// RFC 9728 §3.2: a JSON object served as `application/json`. The path has no extension, so
/// hosts are told the type. Clients read it before every first call: an hour's cache, as the
/// other discovery documents; CORS, since browser-based clients fetch it too.
pub const SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "oauth-protected-resource",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "OAuth protected resource metadata",
            note: "the API's resource identifier, authorization servers and scopes (RFC 9728)",
            media_type: "application/json",
            relation: Relation::ServiceMeta,
            ai_catalog: None,
        },
    )
    .when(written)],
    spec: "RFC 9728 (OAuth 2.0 Protected Resource Metadata)",
    status: "IETF RFC, Standards Track",
    opt_in: None,
    requires: &[],
};

/// The one bearer method wellgen's schemes describe: the token in the Authorization header
/// (RFC 6750 §2.1). Form bodies and query strings are not how the model's schemes send it.
const BEARER_METHODS: [&str; 1] = ["header"];

/// Whether the service takes an OAuth 2 or OpenID Connect scheme, the only ones RFC 9728
/// describes.
pub fn written(service: &Service) -> bool {
    oauth_schemes(service).next().is_some()
}

fn oauth_schemes(service: &Service) -> impl Iterator<Item = &Auth> {
    service
        .auth
        .iter()
        .chain(&service.auth_with)
        .chain(&service.auth_also)
        .filter(|a| matches!(a, Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. }))
}

/// The metadata's members, in RFC 9728 §2's order.
#[derive(Serialize)]
struct Metadata<'a> {
    resource: &'a str,
    authorization_servers: &'a [String],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    scopes_supported: Vec<&'a str>,
    bearer_methods_supported: [&'static str; 1],
    resource_name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_documentation: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_policy_uri: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_tos_uri: Option<&'a str>,
}

/// What the metadata needs from the model, checked: `None` when no OAuth scheme is taken.
pub struct Lowered<'a> {
    metadata: Option<Derived<'a>>,
}

struct Derived<'a> {
    authorization_servers: Vec<String>,
    scopes: Vec<&'a str>,
}

/// The issuer an OAuth 2 or OpenID Connect scheme names or implies, and where it was found
/// (the field, for diagnostics); `None` for an issuer that cannot be derived.
fn derived_issuer(auth: &Auth, at: &str) -> Option<(String, String)> {
    match auth {
        Auth::OAuth2 {
            authorization_url,
            token_url,
            ..
        } => {
            let (url, key) = match (authorization_url, token_url) {
                (Some(u), _) => (u, "authorization_url"),
                (None, Some(u)) => (u, "token_url"),
                (None, None) => return None,
            };
            Some((origin(url)?, format!("{at}.{key}")))
        }
        Auth::OpenIdConnect { discovery_url, .. } => {
            // OpenID Connect Discovery 1.0 §4: the issuer with the well-known suffix appended.
            let issuer = discovery_url
                .strip_suffix("/.well-known/openid-configuration")
                .filter(|i| check_https(i).is_ok())
                .map(str::to_string)
                .or_else(|| origin(discovery_url))?;
            Some((issuer, format!("{at}.discovery_url")))
        }
        _ => None,
    }
}

/// `https://host[:port]` of an https URL.
fn origin(url: &str) -> Option<String> {
    let rest = url.strip_prefix("https://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    (end > 0).then(|| format!("https://{}", &rest[..end]))
}

/// The field of each OAuth scheme as service.toml names it: `auth`, `auth.with.0`, …
fn fields(service: &Service) -> Vec<(String, &Auth)> {
    let mut out = Vec::new();
    if let Some(a) = &service.auth {
        out.push(("auth".to_string(), a));
    }
    for (i, a) in service.auth_with.iter().enumerate() {
        out.push((format!("auth.with.{i}"), a));
    }
    for (i, a) in service.auth_also.iter().enumerate() {
        out.push((format!("auth.also.{i}"), a));
    }
    out.retain(|(_, a)| matches!(a, Auth::OAuth2 { .. } | Auth::OpenIdConnect { .. }));
    out
}

/// RFC 9728's rules on the model: an authorization server for every OAuth scheme (named, or
/// derived with a note), and where clients that start from the resource look (a note when that
/// is not where the site publishes the document).
pub fn lower<'a>(service: &'a Service, diags: &mut Diagnostics) -> Lowered<'a> {
    let schemes = fields(service);
    if schemes.is_empty() {
        return Lowered { metadata: None };
    }
    let mut authorization_servers: Vec<String> = Vec::new();
    let mut scopes: Vec<&str> = Vec::new();
    for (at, auth) in &schemes {
        let named = match auth {
            Auth::OAuth2 {
                authorization_servers,
                ..
            }
            | Auth::OpenIdConnect {
                authorization_servers,
                ..
            } => authorization_servers,
            _ => unreachable!("only OAuth schemes are kept"),
        };
        if named.is_empty() {
            match derived_issuer(auth, at) {
                Some((issuer, from)) => {
                    diags.push(
                        Diagnostic::new(
                            Code::PrmDerived,
                            format!(
                                "oauth-protected-resource lists the authorization server \
                                 {issuer}, derived from `{from}`"
                            ),
                        )
                        .at(format!("{at}.type"))
                        .help(format!(
                            "set `{at}.authorization_servers` if the issuer the authorization \
                             server publishes is another URL"
                        )),
                    );
                    if !authorization_servers.contains(&issuer) {
                        authorization_servers.push(issuer);
                    }
                }
                None => diags.push(
                    Diagnostic::new(
                        Code::PrmAuthorizationServer,
                        "oauth-protected-resource needs the authorization server that issues \
                         the API's tokens, and this scheme names none",
                    )
                    .at(format!("{at}.authorization_servers"))
                    .help(
                        "set `authorization_servers = [\"https://auth.example.com\"]`, or the \
                         scheme's `authorization_url` or `token_url`",
                    ),
                ),
            }
        }
        for issuer in named {
            if !authorization_servers.contains(issuer) {
                authorization_servers.push(issuer.clone());
            }
        }
        for scope in auth.scopes().into_iter().flat_map(|s| s.keys()) {
            if !scopes.contains(&scope.as_str()) {
                scopes.push(scope);
            }
        }
    }
    // RFC 9728 §3.1: the metadata of `https://host/path` is at
    // `https://host/.well-known/oauth-protected-resource/path`.
    let resource = &service.base_url;
    let expected = format!("{}{PATH}{}", resource.origin(), resource.path_prefix());
    if expected != service.site_url.join(PATH) {
        diags.push(
            Diagnostic::new(
                Code::PrmLocation,
                format!(
                    "the protected resource metadata is published at {}; RFC 9728 clients that \
                     start from the resource {resource} look at {expected}",
                    service.site_url.join(PATH)
                ),
            )
            .at("service.base_url")
            .help(
                "serve the same document at that URL too, or name it in the API's \
                 `WWW-Authenticate: Bearer resource_metadata=\"…\"` (RFC 9728 §5.1)",
            ),
        );
    }
    Lowered {
        metadata: Some(Derived {
            authorization_servers,
            scopes,
        }),
    }
}

/// The metadata document, or nothing for a service without an OAuth scheme.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let Some(derived) = &lowered.metadata else {
        return Vec::new();
    };
    // The scheme's own documentation page first: it says how to get a token.
    let documentation = oauth_schemes(service)
        .find_map(Auth::docs)
        .or(service.links.docs.as_deref());
    let metadata = Metadata {
        resource: service.base_url.as_str(),
        authorization_servers: &derived.authorization_servers,
        scopes_supported: derived.scopes.clone(),
        bearer_methods_supported: BEARER_METHODS,
        resource_name: &service.name,
        resource_documentation: documentation,
        resource_policy_uri: service.links.privacy.as_deref(),
        resource_tos_uri: service.links.terms.as_deref(),
    };
    vec![Artifact::document(PATH, to_json_bytes(&metadata), SERVING)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers_are_origins_or_the_openid_issuer() {
        assert_eq!(
            origin("https://auth.example.com:8443/oauth/authorize?x=1").as_deref(),
            Some("https://auth.example.com:8443")
        );
        let openid = Auth::OpenIdConnect {
            docs: None,
            discovery_url: "https://id.example.com/tenant/.well-known/openid-configuration".into(),
            authorization_servers: Vec::new(),
            description: None,
        };
        assert_eq!(
            derived_issuer(&openid, "auth").map(|(i, _)| i).as_deref(),
            Some("https://id.example.com/tenant")
        );
        let elsewhere = Auth::OpenIdConnect {
            docs: None,
            discovery_url: "https://id.example.com/oidc.json".into(),
            authorization_servers: Vec::new(),
            description: None,
        };
        assert_eq!(
            derived_issuer(&elsewhere, "auth")
                .map(|(i, _)| i)
                .as_deref(),
            Some("https://id.example.com")
        );
    }
}
