//! ia.json rules the JSON Schema cannot check, enforced as diagnostics on the source field:
//! endpoint names (snake_case, unique across all groups, §4.3.2), scopes declared in
//! `auth.oauth2.scopes`, an auth scheme for every non-public endpoint (§4.4), and the upstream
//! validator's warning about `user_required` endpoints without OAuth2.

use std::collections::HashMap;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Access, Auth, Service};
use crate::text::is_snake_case;

pub fn check(service: &Service, diags: &mut Diagnostics) {
    names(service, diags);
    scopes(service, diags);
    access(service, diags);
}

/// The model already refuses duplicate ids and ids outside `[a-z0-9_]`; what it lets through
/// (`a__b`, `a_`) is not the snake_case §4.3.2 requires. The duplicate check stays as a cheap
/// guard: one name across all three groups is a MUST the schema checks only per group.
fn names(service: &Service, diags: &mut Diagnostics) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for c in &service.capabilities {
        if let Some(first) = seen.insert(&c.id, c.index) {
            diags.push(
                Diagnostic::new(Code::IajsonNameTwice, format!(
                    "endpoint name `{}` is already used by capabilities[{first}]; ia.json names \
                     must be unique across public, protected and user_required (§4.3.2)",
                    c.id
                ))
                .at(c.field("id")),
            );
        }
        if !is_snake_case(&c.id) {
            diags.push(
                Diagnostic::new(
                    Code::IajsonNameCase,
                    format!(
                        "`{}` is not snake_case: ia.json endpoint names MUST be (§4.3.2)",
                        c.id
                    ),
                )
                .at(c.field("id"))
                .help("use words of [a-z0-9] joined by single underscores, e.g. `search_products`"),
            );
        }
    }
}

/// Every scope an endpoint needs must be in the OAuth2 catalogue (the upstream validator's
/// error); the model checks this too, but the emitter must not rely on it to stay valid.
fn scopes(service: &Service, diags: &mut Diagnostics) {
    let declared = service.auth.as_ref().and_then(Auth::scopes);
    for c in service.capabilities.iter().filter(|c| !c.scopes.is_empty()) {
        if c.access != Access::UserRequired {
            diags.push(
                Diagnostic::new(Code::IajsonScopes, format!(
                    "`{}` lists scopes but is {}: ia.json gives scopes to user_required endpoints (§4.3.3)",
                    c.id,
                    c.access.as_str()
                ))
                .at(c.field("scopes"))
                .help("set `access = \"user_required\"`, or drop the scopes"),
            );
        }
        for (i, s) in c.scopes.iter().enumerate() {
            if !declared.is_some_and(|d| d.contains_key(s)) {
                diags.push(
                    Diagnostic::new(
                        Code::IajsonScopeUndeclared,
                        format!("scope `{s}` is not declared in auth.oauth2.scopes"),
                    )
                    .at(format!("{}.{i}", c.field("scopes"))),
                );
            }
        }
    }
}

/// §4.4: `auth` SHOULD be present when any endpoint is not public. wellgen makes it an error:
/// an agent told an endpoint is protected but not how to authenticate cannot call it.
fn access(service: &Service, diags: &mut Diagnostics) {
    let auth = service.auth.as_ref().filter(|a| !a.is_none());
    for c in &service.capabilities {
        if c.access != Access::Public && auth.is_none() {
            diags.push(
                Diagnostic::new(Code::IajsonAuthMissing, format!(
                    "`{}` is {} but the service declares no authentication: ia.json needs `auth` \
                     for it (§4.4)",
                    c.id,
                    c.access.as_str()
                ))
                .at(c.field("access"))
                .help("declare the scheme in [auth], or set `access = \"public\"`"),
            );
        }
    }
    if let Some(a) = auth
        && !matches!(a, Auth::OAuth2 { .. })
        && let Some(c) = service
            .capabilities
            .iter()
            .find(|c| c.access == Access::UserRequired)
    {
        diags.push(
            Diagnostic::new(
                Code::IajsonUserNotOauth2,
                format!(
                    "`{}` is user_required but auth is not oauth2: ia.json agents act for a user \
                 through OAuth2 (the upstream validator warns too)",
                    c.id
                ),
            )
            .at(c.field("access"))
            .help("use `type = \"oauth2\"` in [auth], or `access = \"protected\"`"),
        );
    }
}
