//! Security schemes → `[auth]`.

use indexmap::IndexMap;

use super::load::Version;
use super::lower::{Chosen, Lx};
use super::naming::one_line;
use super::refs::Node;
use crate::diag::{Code, Diagnostic};
use crate::source::service_toml as raw;

impl Lx<'_> {
    pub(super) fn auth(&mut self, root: &Node) -> (Option<raw::AuthTable>, Option<Chosen>) {
        let schemes = match self.version {
            Version::Swagger2 => root.child("securityDefinitions"),
            _ => root.child("components").child("securitySchemes"),
        };
        let declared = schemes.entries();
        if declared.is_empty() {
            return (None, None);
        }
        // Schemes the API actually requires come first, in the order it lists them.
        let mut order: Vec<String> = Vec::new();
        for req in root.child("security").items() {
            for (name, _) in req.entries() {
                if !order.contains(&name) {
                    order.push(name);
                }
            }
        }
        for (name, _) in &declared {
            if !order.contains(name) {
                order.push(name.clone());
            }
        }
        for name in order {
            let Some((_, node)) = declared.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            let node = match self.docs.deref(node.clone()) {
                Ok(n) => n,
                Err(d) => {
                    self.diags.push(d);
                    continue;
                }
            };
            match self.scheme(&node) {
                Ok(table) => {
                    let oauth2 = table.kind.as_deref() == Some("oauth2");
                    return (Some(table), Some(Chosen { name, oauth2 }));
                }
                Err(why) => self.warn(
                    &node,
                    format!("security scheme `{name}` is not published: {why}; set [auth] in service.toml to describe it"),
                ),
            }
        }
        (None, None)
    }

    /// One security scheme as `[auth]`, or why it cannot be one.
    fn scheme(&mut self, node: &Node) -> Result<raw::AuthTable, String> {
        let empty = raw::AuthTable {
            kind: None,
            header: None,
            docs_url: None,
            key_url: None,
            token_url: None,
            authorization_url: None,
            scopes: None,
            grant_types: None,
            pkce: None,
            token_lifetime: None,
            algorithm: None,
            header_prefix: None,
            key_rotation_days: None,
        };
        let kind = node.str("type").unwrap_or_default();
        match kind {
            "apiKey" => {
                let place = node.str("in").unwrap_or_default();
                let header = node.str("name").unwrap_or_default();
                if place != "header" {
                    return Err(format!(
                        "an API key in the {place} (only headers are described)"
                    ));
                }
                if header.is_empty()
                    || !header
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
                {
                    return Err(format!("`{header}` is not a header name"));
                }
                Ok(raw::AuthTable {
                    kind: Some("api_key".into()),
                    header: Some(header.to_string()),
                    ..empty
                })
            }
            "http"
                if node
                    .str("scheme")
                    .is_some_and(|s| s.eq_ignore_ascii_case("bearer")) =>
            {
                Ok(raw::AuthTable {
                    kind: Some("bearer".into()),
                    ..empty
                })
            }
            "oauth2" => {
                let (authorization_url, token_url, grants, scopes) = self.oauth2_flows(node);
                let check = |u: &Option<String>, what: &str| match u {
                    None => Err(format!("no {what}")),
                    Some(u) => crate::model::url::check_https(u)
                        .map(|_| ())
                        .map_err(|e| format!("its {what} `{u}`: {e}")),
                };
                if grants.is_empty() {
                    return Err("only implicit or password flows, which agents do not use".into());
                }
                // A client-credentials flow has no authorization URL, yet ia.json requires
                // one: the scheme is kept and the key is left for the author to set.
                let client_only = grants == ["client_credentials"];
                if !(client_only && authorization_url.is_none()) {
                    check(&authorization_url, "authorizationUrl")?;
                }
                check(&token_url, "tokenUrl")?;
                if scopes.is_empty() {
                    return Err("an OAuth 2 scheme without scopes".into());
                }
                if authorization_url.is_none() {
                    let d = Diagnostic::new(Code::OpenapiInvalid, format!(
                        "{}: the OAuth 2 scheme has only the client-credentials flow, which names no authorization URL; ia.json requires `authorization_url` all the same",
                        self.at(node)
                    ))
                    .help("set `authorization_url = \"https://…\"` under [auth] in service.toml (the provider's authorization endpoint)");
                    self.defer("auth.authorization_url", d);
                }
                Ok(raw::AuthTable {
                    kind: Some("oauth2".into()),
                    authorization_url,
                    token_url,
                    scopes: Some(scopes),
                    grant_types: Some(grants),
                    ..empty
                })
            }
            "http" | "basic" => Err(format!(
                "HTTP {} authentication",
                node.str("scheme").unwrap_or("basic")
            )),
            other => Err(format!("type `{other}`")),
        }
    }

    /// authorizationUrl, tokenUrl, wellgen grant types and the united scopes of every flow.
    fn oauth2_flows(
        &mut self,
        node: &Node,
    ) -> (
        Option<String>,
        Option<String>,
        Vec<String>,
        IndexMap<String, String>,
    ) {
        let mut flows: Vec<(String, Node)> = match self.version {
            Version::Swagger2 => {
                let flow = match node.str("flow").unwrap_or_default() {
                    "accessCode" => "authorizationCode",
                    "application" => "clientCredentials",
                    other => other,
                };
                vec![(flow.to_string(), node.clone())]
            }
            _ => node.child("flows").entries(),
        };
        // Authorization code first: it is the flow that has both URLs.
        flows.sort_by_key(|(name, _)| name != "authorizationCode");
        let (mut auth_url, mut token_url) = (None, None);
        let mut grants = Vec::new();
        let mut scopes = IndexMap::new();
        for (flow, f) in flows {
            // `x-authorization-url`: where wellgen's own OpenAPI output keeps it for a
            // client-credentials-only service.
            auth_url = auth_url.or_else(|| {
                f.str("authorizationUrl")
                    .or_else(|| f.str("x-authorization-url"))
                    .map(str::to_string)
            });
            token_url = token_url.or_else(|| f.str("tokenUrl").map(str::to_string));
            match flow.as_str() {
                "authorizationCode" => grants.push("authorization_code".to_string()),
                "clientCredentials" => grants.push("client_credentials".to_string()),
                _ => {}
            }
            for (scope, d) in f.child("scopes").entries() {
                let text = d.value().as_str().map(one_line).unwrap_or_default();
                scopes.entry(scope).or_insert(text);
            }
        }
        (auth_url, token_url, grants, scopes)
    }
}
