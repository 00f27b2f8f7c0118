//! Each authentication scheme of the model as an OpenAPI 3.1 Security Scheme Object, with the
//! unique name the OpenAPI document files it under (`components.securitySchemes`): the OpenAPI
//! document lists them, each MCP tool's HTTP binding says which of them a call accepts, and
//! `/.well-known/ai`'s `auth.docs` points at one by name, so all three agree by construction.

use serde_json::{Map, Value, json};

use crate::model::{Auth, KeyPlace, Service};

/// One scheme as an OpenAPI security scheme object: OpenAPI 3.1 can say every kind but
/// signed requests and vendor schemes, which are said in words on an apiKey one.
pub fn scheme(auth: &Auth) -> Option<(&'static str, Value)> {
    // The scheme's own description, then where its docs are.
    let with_docs = |mut v: Value, docs: Option<&str>| {
        let text: Vec<String> = auth
            .description()
            .map(str::to_string)
            .into_iter()
            .chain(docs.map(|d| format!("See {d}")))
            .collect();
        if !text.is_empty() {
            v["description"] = json!(text.join(" "));
        }
        v
    };
    Some(match auth {
        Auth::None { .. } => return None,
        Auth::ApiKey {
            name, place, docs, ..
        } => (
            match place {
                KeyPlace::Header => "apiKey",
                KeyPlace::Query => "apiKeyQuery",
                KeyPlace::Cookie => "apiKeyCookie",
            },
            with_docs(
                json!({ "type": "apiKey", "in": place.as_str(), "name": name }),
                docs.as_deref(),
            ),
        ),
        Auth::Basic { docs, .. } => (
            "basicAuth",
            with_docs(
                json!({ "type": "http", "scheme": "basic" }),
                docs.as_deref(),
            ),
        ),
        Auth::Digest { docs, .. } => (
            "digestAuth",
            with_docs(
                json!({ "type": "http", "scheme": "digest" }),
                docs.as_deref(),
            ),
        ),
        Auth::Bearer { docs, .. } => (
            "bearerAuth",
            with_docs(
                json!({ "type": "http", "scheme": "bearer" }),
                docs.as_deref(),
            ),
        ),
        Auth::OAuth2 {
            docs,
            authorization_url,
            token_url,
            scopes,
            grant_types,
            ..
        } => {
            let mut flows = Map::new();
            let wants = |g: &str| grant_types.is_empty() || grant_types.iter().any(|t| t == g);
            let code = |flows: &mut Map<String, Value>| {
                flows.insert(
                    "authorizationCode".into(),
                    json!({ "authorizationUrl": authorization_url, "tokenUrl": token_url, "scopes": scopes }),
                );
            };
            if wants("authorization_code") && authorization_url.is_some() && token_url.is_some() {
                code(&mut flows);
            }
            if grant_types.iter().any(|t| t == "client_credentials") {
                let mut flow = json!({ "tokenUrl": token_url, "scopes": scopes });
                if !flows.contains_key("authorizationCode")
                    && let Some(u) = authorization_url
                {
                    // OpenAPI's flow has no authorization URL, but ia.json requires one even
                    // here: carried as an extension, so an import gets the service back whole.
                    flow["x-authorization-url"] = json!(u);
                }
                flows.insert("clientCredentials".into(), flow);
            }
            if grant_types.iter().any(|t| t == "implicit") {
                flows.insert(
                    "implicit".into(),
                    json!({ "authorizationUrl": authorization_url, "scopes": scopes }),
                );
            }
            if grant_types.iter().any(|t| t == "password") {
                flows.insert(
                    "password".into(),
                    json!({ "tokenUrl": token_url, "scopes": scopes }),
                );
            }
            if flows.is_empty() {
                // Grant types OpenAPI has no flow for: the authorization-code endpoints are
                // still the truth about where tokens come from.
                code(&mut flows);
            }
            (
                "oauth2",
                with_docs(json!({ "type": "oauth2", "flows": flows }), docs.as_deref()),
            )
        }
        Auth::OpenIdConnect {
            docs,
            discovery_url,
            ..
        } => (
            "openIdConnect",
            with_docs(
                json!({ "type": "openIdConnect", "openIdConnectUrl": discovery_url }),
                docs.as_deref(),
            ),
        ),
        Auth::MutualTls { docs, .. } => (
            "mutualTLS",
            with_docs(json!({ "type": "mutualTLS" }), docs.as_deref()),
        ),
        Auth::Other { docs, description } => {
            // No OpenAPI type for a vendor scheme: the credential travels in the
            // Authorization header, and the description says what it is.
            let mut text = description.clone();
            if let Some(d) = docs {
                text.push_str(&format!(" See {d}"));
            }
            (
                "vendorAuth",
                json!({
                    "type": "apiKey",
                    "in": "header",
                    "name": "Authorization",
                    "description": text,
                    "x-wellgen-auth": "other",
                }),
            )
        }
        Auth::SignedKey {
            docs,
            register_url,
            algorithm,
            header_prefix,
            key_rotation_days,
            description,
        } => {
            // OpenAPI has no signed-request scheme: the key id travels in a header, so it is an
            // apiKey scheme, and the signing rule is said in words.
            let mut text = format!(
                "Requests are signed with {algorithm}. Register a key at {register_url}; send its id in \
                 `{header_prefix}Key` and the signature in the `{header_prefix}*` headers."
            );
            if let Some(days) = key_rotation_days {
                text.push_str(&format!(" Keys rotate every {days} days."));
            }
            if let Some(d) = description {
                text.push_str(&format!(" {d}"));
            }
            if let Some(d) = docs {
                text.push_str(&format!(" See {d}"));
            }
            (
                "signedKey",
                json!({
                    "type": "apiKey",
                    "in": "header",
                    "name": format!("{header_prefix}Key"),
                    "description": text,
                }),
            )
        }
    })
}

/// Every scheme of `service` (the primary, the ones sent with it, then the alternatives) with
/// its unique name: a second scheme of one kind is numbered (`apiKey2`).
pub fn scheme_names(service: &Service) -> Vec<(&Auth, String)> {
    let mut out: Vec<(&Auth, String)> = Vec::new();
    for a in schemes(service) {
        let Some((name, _)) = scheme(a) else { continue };
        let mut unique = name.to_string();
        let mut n = 2;
        while out.iter().any(|(_, u)| *u == unique) {
            unique = format!("{name}{n}");
            n += 1;
        }
        out.push((a, unique));
    }
    out
}

/// Every scheme of `service`, in the order `scheme_names` names them.
fn schemes(service: &Service) -> impl Iterator<Item = &Auth> {
    service
        .auth
        .iter()
        .chain(&service.auth_with)
        .chain(&service.auth_also)
}

/// The service's security requirements, each the schemes a request sends together, any one
/// requirement enough (OpenAPI's Security Requirement Objects): the primary with the schemes
/// sent with it, then each alternative alone. Empty for an open service.
pub fn requirements(service: &Service) -> Vec<Vec<(&Auth, String)>> {
    let named = scheme_names(service);
    let mut out: Vec<Vec<(&Auth, String)>> = Vec::new();
    let first = 1 + service.auth_with.len();
    let primary = service.auth.as_ref().filter(|a| !a.is_none());
    let mut rest = named.into_iter();
    if primary.is_some() {
        out.push(rest.by_ref().take(first).collect());
    }
    out.extend(rest.map(|one| vec![one]));
    out
}

/// The name of the service's primary scheme, when it has one.
pub fn primary_name(service: &Service) -> Option<String> {
    scheme_names(service)
        .into_iter()
        .next()
        .and_then(|(a, name)| {
            service
                .auth
                .as_ref()
                .is_some_and(|p| std::ptr::eq(p, a))
                .then_some(name)
        })
}

/// The fragment of the OpenAPI document's first Security Requirement Object: the primary
/// scheme and the ones sent with it (`requirements`' first), which the document's root
/// `security` lists first.
pub const REQUIREMENT_POINTER: &str = "#/security/0";

/// A URI fragment of the JSON Pointer to a scheme (RFC 6901 §6): `~` and `/` escaped, then
/// what a fragment cannot hold percent-encoded.
pub fn pointer_fragment(name: &str) -> String {
    let escaped = name.replace('~', "~0").replace('/', "~1");
    let mut out = String::from("#/components/securitySchemes/");
    for b in escaped.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
