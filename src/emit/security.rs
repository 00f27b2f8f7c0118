//! The names of a service's schemes in the published OpenAPI document's
//! `components.securitySchemes`: a fact the OpenAPI document and the documents that point into
//! it (`/.well-known/ai`'s `auth.docs`) must agree on.

use crate::model::{Auth, KeyPlace, Service};

/// A scheme's name before numbering: one per kind (an API key by where it travels). `None`
/// for no authentication, which has no Security Scheme Object.
pub fn base_name(auth: &Auth) -> Option<&'static str> {
    Some(match auth {
        Auth::None { .. } => return None,
        Auth::ApiKey { place, .. } => match place {
            KeyPlace::Header => "apiKey",
            KeyPlace::Query => "apiKeyQuery",
            KeyPlace::Cookie => "apiKeyCookie",
        },
        Auth::Basic { .. } => "basicAuth",
        Auth::Digest { .. } => "digestAuth",
        Auth::Bearer { .. } => "bearerAuth",
        Auth::OAuth2 { .. } => "oauth2",
        Auth::OpenIdConnect { .. } => "openIdConnect",
        Auth::MutualTls { .. } => "mutualTLS",
        Auth::Other { .. } => "vendorAuth",
        Auth::SignedKey { .. } => "signedKey",
    })
}

/// Every scheme of `service` (the primary, then the alternatives) with its unique name: a
/// second scheme of one kind is numbered (`apiKey2`).
pub fn scheme_names(service: &Service) -> Vec<(&Auth, String)> {
    let mut out: Vec<(&Auth, String)> = Vec::new();
    for a in service.auth.iter().chain(&service.auth_also) {
        let Some(name) = base_name(a) else { continue };
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
