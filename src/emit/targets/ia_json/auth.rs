//! The `auth` and `security` sections: the model's one auth scheme, and its security policy with
//! the global rate limit and signature verification folded in.

use super::view;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Auth, KeyPlace, Service};

pub fn auth<'a>(service: &'a Service, diags: &mut Diagnostics) -> Option<view::Auth<'a>> {
    let primary = service.auth.as_ref()?;
    diags.extend(service.auth_with_left_out("ia.json"));
    let mut out = view::Auth::default();
    if !fill(&mut out, primary, diags) {
        // ia.json's four schemes cannot say this one: the credential in the Authorization
        // header (or the key's own name), and where to read how to get it.
        let (header, request_url): (&str, Option<&str>) = match primary {
            Auth::ApiKey { name, key_url, .. } => (name, key_url.as_deref().or(primary.docs())),
            Auth::OAuth2 {
                authorization_url,
                token_url,
                ..
            } => (
                "Authorization",
                primary
                    .docs()
                    .or(authorization_url.as_deref())
                    .or(token_url.as_deref()),
            ),
            Auth::OpenIdConnect { discovery_url, .. } => {
                ("Authorization", primary.docs().or(Some(discovery_url)))
            }
            _ => ("Authorization", primary.docs()),
        };
        diags.push(primary.approximated(
            "ia.json",
            &format!("an api_key in the `{header}` header with its request_url"),
        ));
        out.api_key = Some(view::ApiKey {
            header,
            request_url,
        });
    }
    // Alternatives go where ia.json has an exact, still empty place for them; the others
    // are left to the targets that can list them (OpenAPI, A2A).
    for a in &service.auth_also {
        let mut more = view::Auth::default();
        if fill(&mut more, a, &mut Diagnostics::default()) {
            out.signed_key = out.signed_key.take().or(more.signed_key);
            out.oauth2 = out.oauth2.take().or(more.oauth2);
            out.api_key = out.api_key.take().or(more.api_key);
            out.bearer = out.bearer.take().or(more.bearer);
        }
    }
    let empty = out.signed_key.is_none()
        && out.oauth2.is_none()
        && out.api_key.is_none()
        && out.bearer.is_none();
    (!empty).then_some(out)
}

/// Puts `a` in its ia.json place; false when ia.json has no exact place for it. `none` takes
/// no place and is exact.
fn fill<'a>(out: &mut view::Auth<'a>, a: &'a Auth, diags: &mut Diagnostics) -> bool {
    match a {
        Auth::None { .. } => {}
        Auth::ApiKey {
            name,
            place: KeyPlace::Header,
            key_url,
            ..
        } => {
            out.api_key = Some(view::ApiKey {
                header: name,
                request_url: key_url.as_deref(),
            });
        }
        Auth::Bearer {
            token_url,
            token_lifetime,
            ..
        } => {
            // ia.json's bearer scheme must say where tokens come from; without that (an OpenAPI
            // `http bearer` never does), the token is still a credential in a header.
            let Some(token_url) = token_url else {
                diags.push(
                    Diagnostic::new(
                        Code::AuthSchemeLost,
                        "ia.json's bearer scheme requires `token_url` (where agents get a token): \
                         published as an api_key sent in the Authorization header",
                    )
                    .at("auth")
                    .help("add `token_url = \"https://…\"` to [auth] to publish it as bearer"),
                );
                out.api_key = Some(view::ApiKey {
                    header: "Authorization",
                    request_url: a.docs(),
                });
                return true;
            };
            out.bearer = Some(view::Bearer {
                token_url,
                expires_in: *token_lifetime,
            });
        }
        Auth::OAuth2 {
            authorization_url: Some(authorization_url),
            token_url: Some(token_url),
            scopes,
            grant_types,
            pkce,
            ..
        } => {
            if grant_types.is_empty() {
                diags.push(
                    Diagnostic::new(Code::IajsonGrantTypes, "must list at least one grant type")
                        .at("auth.grant_types")
                        .help("`[\"authorization_code\"]` is the usual one"),
                );
            }
            // ia.json names the authorization code and client credentials grants only.
            let mut unique: Vec<&str> = Vec::new();
            for g in grant_types {
                if !unique.contains(&g.as_str())
                    && ["authorization_code", "client_credentials"].contains(&g.as_str())
                {
                    unique.push(g);
                }
            }
            // ia.json needs a scope, and one of its two grants.
            if scopes.is_empty() || (unique.is_empty() && !grant_types.is_empty()) {
                return false;
            }
            out.oauth2 = Some(view::OAuth2 {
                authorization_url,
                token_url,
                scopes,
                grant_types: unique,
                pkce_required: *pkce,
            });
        }
        Auth::SignedKey {
            register_url,
            algorithm,
            header_prefix,
            key_rotation_days,
            ..
        } => {
            out.signed_key = Some(view::SignedKey {
                register_url,
                algorithm,
                header_prefix,
                key_rotation_days: *key_rotation_days,
            });
        }
        Auth::ApiKey { .. }
        | Auth::Basic { .. }
        | Auth::Digest { .. }
        | Auth::OAuth2 { .. }
        | Auth::OpenIdConnect { .. }
        | Auth::MutualTls { .. }
        | Auth::Other { .. } => return false,
    }
    true
}

pub fn security<'a>(service: &'a Service, diags: &mut Diagnostics) -> Option<view::Security<'a>> {
    let signed = matches!(service.auth, Some(Auth::SignedKey { .. }));
    let rate_limit = service
        .rate_limits
        .and_then(|r| r.requests_per_minute)
        .map(|n| format!("{n}/minute"));
    let mut out = view::Security {
        rate_limit,
        ..view::Security::default()
    };
    if let Some(s) = &service.security {
        if s.https_required == Some(false) {
            diags.push(
                Diagnostic::new(
                    Code::IajsonHttps,
                    "ia.json requires HTTPS for the file and every endpoint (§8.1 MUST)",
                )
                .at("security.https_required")
                .help("remove the key or set it to true"),
            );
        }
        if signed && s.verify_signature == Some(false) {
            diags.push(
                Diagnostic::new(Code::AuthUnverified,
                    "auth is `signed_key` but signatures are not verified: agents will sign for nothing",
                )
                .at("security.verify_signature")
                .help("remove the key: wellgen then declares `verify_signature: true`"),
            );
        }
        out.https_required = s.https_required;
        out.verify_signature = s.verify_signature;
        out.max_request_size = s.max_request_size.as_deref();
        out.allowed_origins = &s.allowed_origins;
        out.ip_whitelist = &s.ip_allowlist;
        out.auto_block = s.auto_block.map(|b| view::AutoBlock {
            failed_attempts: b.failed_attempts,
            window_minutes: b.window_minutes,
            block_duration_minutes: b.block_duration_minutes,
        });
    }
    // With a signed key every request is signed (§5.2) and the site MUST verify it (§5.3).
    if signed && out.verify_signature.is_none() {
        out.verify_signature = Some(true);
    }
    let empty = out.https_required.is_none()
        && out.rate_limit.is_none()
        && out.verify_signature.is_none()
        && out.max_request_size.is_none()
        && out.allowed_origins.is_empty()
        && out.ip_whitelist.is_empty()
        && out.auto_block.is_none();
    (!empty || service.security.is_some()).then_some(out)
}
