//! The `auth` and `security` sections: the model's one auth scheme, and its security policy with
//! the global rate limit and signature verification folded in.

use super::view;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Auth, Service};

pub fn auth<'a>(service: &'a Service, diags: &mut Diagnostics) -> Option<view::Auth<'a>> {
    let mut out = view::Auth::default();
    match service.auth.as_ref()? {
        Auth::None { .. } => return None,
        Auth::ApiKey {
            header, key_url, ..
        } => {
            out.api_key = Some(view::ApiKey {
                header,
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
                    request_url: service.auth.as_ref().and_then(Auth::docs),
                });
                return Some(out);
            };
            out.bearer = Some(view::Bearer {
                token_url,
                expires_in: *token_lifetime,
            });
        }
        Auth::OAuth2 {
            authorization_url,
            token_url,
            scopes,
            grant_types,
            pkce,
            ..
        } => {
            if grant_types.is_empty() {
                diags.push(
                    Diagnostic::new(Code::TargetRule, "must list at least one grant type")
                        .at("auth.grant_types")
                        .help("`[\"authorization_code\"]` is the usual one"),
                );
            }
            let mut unique: Vec<&str> = Vec::new();
            for g in grant_types {
                if !unique.contains(&g.as_str()) {
                    unique.push(g);
                }
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
    }
    Some(out)
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
                    Code::TargetRule,
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
