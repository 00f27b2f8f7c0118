//! Security schemes → `[auth]` and its `[[auth.also]]`.
//!
//! Every scheme is carried: the one the targets can say best is the primary `[auth]`, the
//! others the document requires are alternatives. A scheme that is malformed gets one warning
//! and the closest honest description (`type = "other"`), never `none`: an API that asks for
//! credentials is never published as open.

use indexmap::IndexMap;

use super::load::Version;
use super::lower::{Chosen, Lx};
use super::naming::one_line;
use super::refs::Node;
use crate::diag::Code;
use crate::source::service_toml as raw;

/// Where a scheme's credential travels: two schemes of one requirement that share it are met
/// by one credential.
fn credential_place(scheme: &Node, name: &str) -> String {
    match scheme.str("type").unwrap_or_default() {
        "apiKey" => format!(
            "{}:{}",
            scheme.str("in").unwrap_or_default(),
            scheme.str("name").unwrap_or_default().to_ascii_lowercase()
        ),
        "http" | "basic" | "oauth2" | "openIdConnect" => "header:authorization".into(),
        _ => format!("scheme:{name}"),
    }
}

fn same_set(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|n| b.contains(n))
}

/// One imported scheme, and whether every target could always say it (the kinds wellgen
/// imported before it carried every scheme: such a one is preferred as the primary).
struct Imported {
    table: raw::AuthTable,
    classic: bool,
}

impl Lx<'_> {
    pub(super) fn auth(&mut self, root: &Node) -> (Option<raw::AuthTable>, Option<Chosen>) {
        let schemes = match self.version {
            Version::Swagger2 => root.child("securityDefinitions"),
            _ => root.child("components").child("securitySchemes"),
        };
        let declared = schemes.entries();
        let referenced = self.referenced(root);
        let docs = https(root.child("externalDocs").str("url"));
        if declared.is_empty() {
            // Operations ask for schemes the document never declares: say so, and keep the
            // names, rather than publish the API as open.
            let Some(first) = referenced.first() else {
                return (None, None);
            };
            self.report(
                Code::ImportAuthLost,
                root,
                format!(
                    "the document requires the security scheme `{}` but declares none; it is published as described in words",
                    one_line(first)
                ),
            );
            let table = raw::AuthTable {
                kind: Some("other".into()),
                description: Some(format!(
                    "The `{}` security scheme, which the API description names but does not define.",
                    one_line(first)
                )),
                docs_url: docs,
                ..raw::AuthTable::default()
            };
            return (Some(table), None);
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
        let mut imported: Vec<(String, Imported)> = Vec::new();
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
            let mut scheme = self.scheme(&node, &name);
            self.own_words(&mut scheme.table, &node);
            if scheme.table.docs_url.is_none() && !scheme.classic {
                // Where a scheme no vocabulary fully says is explained, if anywhere.
                scheme.table.docs_url.clone_from(&docs);
            }
            imported.push((name, scheme));
        }
        if imported.is_empty() {
            return (None, None);
        }
        // Schemes a request must send together (an API key and a client id): the first such
        // requirement is the primary and its `with`; the service's other schemes stay
        // alternatives.
        let together = self.together(root, &schemes);
        let (name, mut table, with) = if together.len() > 1 {
            let mut pick = |n: &String| {
                let i = imported.iter().position(|(m, _)| m == n)?;
                Some(imported.remove(i))
            };
            let mut members: Vec<(String, Imported)> =
                together.iter().filter_map(&mut pick).collect();
            let first = members.iter().position(|(_, s)| s.classic).unwrap_or(0);
            let (name, first) = members.remove(first);
            (
                name,
                first.table,
                members.into_iter().map(|(_, s)| s.table).collect(),
            )
        } else {
            // The primary: the first scheme every target can say, else the first required one.
            let primary = imported
                .iter()
                .position(|(_, s)| s.classic)
                .or_else(|| imported.iter().position(|(n, _)| referenced.contains(n)))
                .unwrap_or(0);
            let (name, first) = imported.remove(primary);
            (name, first.table, Vec::new())
        };
        let also: Vec<raw::AuthTable> = imported
            .into_iter()
            .filter(|(n, _)| referenced.contains(n))
            .map(|(_, s)| s.table)
            .collect();
        if !also.is_empty() {
            table.also = Some(also);
        }
        if !with.is_empty() {
            table.with = Some(with);
        }
        let oauth2 = table.kind.as_deref() == Some("oauth2");
        (Some(table), Some(Chosen { name, oauth2 }))
    }

    /// Whether a security scheme that applies to the operation sends its credential in the
    /// `Authorization` header (HTTP schemes, OAuth 2, OpenID Connect, an API key of that
    /// name): then an `Authorization` header parameter says the scheme again and is left
    /// out. The operation's requirements apply, else the document's; with neither, every
    /// declared scheme. Without such a scheme, the parameter is one the call must send.
    pub(super) fn authorization_covered(&mut self, op: &Node) -> bool {
        let root = self.docs.root();
        let schemes = match self.version {
            Version::Swagger2 => root.child("securityDefinitions"),
            _ => root.child("components").child("securitySchemes"),
        };
        let requirements = [op.child("security"), root.child("security")]
            .into_iter()
            .find(|r| !r.value().is_null());
        let names: Vec<String> = match requirements {
            Some(list) => list
                .items()
                .iter()
                .flat_map(Node::entries)
                .map(|(name, _)| name)
                .collect(),
            None => schemes
                .entries()
                .into_iter()
                .map(|(name, _)| name)
                .collect(),
        };
        names.iter().any(|name| {
            let Ok(node) = self.docs.deref(schemes.child(name)) else {
                return false;
            };
            match node.str("type").unwrap_or_default() {
                "http" | "basic" | "oauth2" | "openIdConnect" => true,
                "apiKey" => {
                    node.str("in") == Some("header")
                        && node
                            .str("name")
                            .is_some_and(|n| n.eq_ignore_ascii_case("authorization"))
                }
                _ => false,
            }
        })
    }

    /// A scheme's own `description` as the table's (a vendor scheme's words are its
    /// description already): plain text on one line, cut after a sentence within the model's
    /// 500 characters; a closing `See <https URL>` (as wellgen's OpenAPI output writes the
    /// docs) becomes `docs_url`. Words that look like random tokens are left out, with the
    /// import's note; a known key format is kept, for the build to refuse.
    fn own_words(&mut self, table: &mut raw::AuthTable, node: &Node) {
        if table.kind.as_deref() == Some("other") {
            return;
        }
        let Some(text) = node
            .str("description")
            .map(|d| one_line(&crate::text::plain_text(d)))
        else {
            return;
        };
        let (text, docs) = split_docs(&text);
        if table.docs_url.is_none() {
            table.docs_url = docs;
        }
        let text = crate::text::summary(text, DESCRIPTION_MAX).0;
        let text = match super::operation::scrub_words(&text) {
            Some(clean) => {
                self.note(super::operation::RANDOM_LEFT_OUT, node);
                clean
            }
            None => text,
        };
        if !text.trim().is_empty() {
            table.description = Some(text);
        }
    }

    /// The schemes of the first security requirement (the document's, then the operations')
    /// that sends two credentials or more, in its order; empty when every requirement is
    /// met by one credential. Schemes of one requirement that send the same credential (two
    /// OAuth 2 flows, both in `Authorization`) count once: one token serves both. A later
    /// requirement of other schemes together is published as alternatives, with a warning.
    fn together(&mut self, root: &Node, schemes: &Node) -> Vec<String> {
        let mut lists = vec![root.child("security")];
        for (path, item) in root.child("paths").entries() {
            if path.starts_with("x-") {
                continue;
            }
            let Ok(item) = self.docs.deref(item) else {
                continue;
            };
            lists.extend(
                item.entries()
                    .into_iter()
                    .filter(|(_, op)| op.get("security").is_some())
                    .map(|(_, op)| op.child("security")),
            );
        }
        let mut found: Vec<String> = Vec::new();
        let mut other: Option<(Node, Vec<String>)> = None;
        for req in lists.iter().flat_map(Node::items) {
            let mut names: Vec<String> = Vec::new();
            let mut places: Vec<String> = Vec::new();
            for (name, _) in req.entries() {
                let place = match self.docs.deref(schemes.child(&name)) {
                    Ok(node) => credential_place(&node, &name),
                    Err(_) => continue,
                };
                if !places.contains(&place) {
                    places.push(place);
                    names.push(name);
                }
            }
            if names.len() < 2 {
                continue;
            }
            if found.is_empty() {
                found = names;
            } else if other.is_none() && !same_set(&found, &names) {
                other = Some((req.clone(), names));
            }
        }
        if let Some((at, names)) = other {
            self.report(
                Code::ImportAuthLost,
                &at,
                format!(
                    "requests may send {} together, but the model holds one requirement of \
                     several schemes ({}): each is published as an alternative",
                    names
                        .iter()
                        .map(|n| format!("`{}`", one_line(n)))
                        .collect::<Vec<_>>()
                        .join(" and "),
                    found
                        .iter()
                        .map(|n| format!("`{}`", one_line(n)))
                        .collect::<Vec<_>>()
                        .join(" and "),
                ),
            );
        }
        found
    }

    /// The names of every scheme a security requirement of the document or of an operation
    /// names, in order of first use.
    fn referenced(&mut self, root: &Node) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let mut add = |list: Node| {
            for req in list.items() {
                for (name, _) in req.entries() {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
        };
        add(root.child("security"));
        for (path, item) in root.child("paths").entries() {
            if path.starts_with("x-") {
                continue;
            }
            let Ok(item) = self.docs.deref(item) else {
                continue;
            };
            for (_, op) in item.entries() {
                if op.get("security").is_some() {
                    add(op.child("security"));
                }
            }
        }
        names
    }

    /// One security scheme as an `[auth]` table: always one, the closest honest description
    /// when the scheme is malformed (with one warning).
    fn scheme(&mut self, node: &Node, name: &str) -> Imported {
        let kind = node.str("type").unwrap_or_default();
        let exact = |table: raw::AuthTable| Imported {
            table,
            classic: false,
        };
        // AWS API Gateway marks request signing on an apiKey scheme: the key is not a key.
        if let Some(aws) = node.str("x-amazon-apigateway-authtype")
            && (aws.eq_ignore_ascii_case("awsSigv4") || aws.eq_ignore_ascii_case("hmac"))
        {
            let description = node
                .str("description")
                .map(one_line)
                .filter(|d| !d.is_empty() && d.chars().count() <= 300)
                .unwrap_or_else(|| {
                    "AWS Signature Version 4: sign each request with an AWS access key (the Authorization header)".into()
                });
            return exact(other(description, None));
        }
        match kind {
            "apiKey" => {
                let place = node.str("in").unwrap_or_default();
                let key = node.str("name").unwrap_or_default();
                let valid_place = ["header", "query", "cookie"].contains(&place);
                if !valid_place || !is_token(key) {
                    let why = if valid_place {
                        format!("`{}` is not a valid name for it", one_line(key))
                    } else {
                        format!(
                            "its `in` is `{}`, not header, query or cookie",
                            one_line(place)
                        )
                    };
                    return self.malformed(node, name, &why, "An API key".into());
                }
                let table = if place == "header" {
                    raw::AuthTable {
                        kind: Some("api_key".into()),
                        header: Some(key.to_string()),
                        ..raw::AuthTable::default()
                    }
                } else {
                    raw::AuthTable {
                        kind: Some("api_key".into()),
                        place: Some(place.to_string()),
                        name: Some(key.to_string()),
                        ..raw::AuthTable::default()
                    }
                };
                Imported {
                    table,
                    classic: place == "header",
                }
            }
            "http" | "basic" => {
                let scheme = match kind {
                    "basic" => "basic".to_string(),
                    _ => node.str("scheme").unwrap_or_default().to_ascii_lowercase(),
                };
                let simple = |k: &str| raw::AuthTable {
                    kind: Some(k.into()),
                    ..raw::AuthTable::default()
                };
                match scheme.as_str() {
                    "bearer" => Imported {
                        table: simple("bearer"),
                        classic: true,
                    },
                    "basic" => exact(simple("basic")),
                    "digest" => exact(simple("digest")),
                    "" => self.malformed(
                        node,
                        name,
                        "it names no HTTP scheme",
                        "HTTP authentication".into(),
                    ),
                    other_scheme => exact(other(
                        format!(
                            "HTTP `{}` authentication (the Authorization header)",
                            one_line(other_scheme)
                        ),
                        None,
                    )),
                }
            }
            "oauth2" => self.oauth2(node, name),
            "openIdConnect" => match https(node.str("openIdConnectUrl")) {
                Some(url) => exact(raw::AuthTable {
                    kind: Some("openid".into()),
                    discovery_url: Some(url),
                    ..raw::AuthTable::default()
                }),
                None => self.malformed(
                    node,
                    name,
                    "its openIdConnectUrl is not an https URL",
                    "OpenID Connect".into(),
                ),
            },
            "mutualTLS" => exact(raw::AuthTable {
                kind: Some("mutual_tls".into()),
                ..raw::AuthTable::default()
            }),
            other_kind => {
                let description = node
                    .str("description")
                    .map(one_line)
                    .filter(|d| !d.is_empty() && d.chars().count() <= 300);
                match description {
                    // A vendor scheme that explains itself.
                    Some(d) if other_kind.starts_with("x-") => exact(other(d, None)),
                    _ => self.malformed(
                        node,
                        name,
                        &format!("`{}` is not an OpenAPI scheme type", one_line(other_kind)),
                        format!("The `{}` scheme", one_line(name)),
                    ),
                }
            }
        }
    }

    /// The closest honest description of a malformed scheme, and its one warning.
    fn malformed(&mut self, node: &Node, name: &str, why: &str, what: String) -> Imported {
        self.report(
            Code::ImportAuthLost,
            node,
            format!(
                "security scheme `{}` is malformed ({why}): published as `type = \"other\"`, described in words; set [auth] in service.toml to describe it exactly",
                one_line(name)
            ),
        );
        let mut description = format!(
            "{what}, as the `{}` security scheme of the API description says",
            one_line(name)
        );
        if let Some(d) = node
            .str("description")
            .map(one_line)
            .filter(|d| !d.is_empty() && d.chars().count() <= 300)
        {
            description = format!("{description}: {d}");
        }
        Imported {
            table: other(description, None),
            classic: false,
        }
    }

    /// An OAuth 2 scheme with every flow it declares; a flow without the https endpoints it
    /// needs is left out with one warning (all of them: the scheme is said in words).
    fn oauth2(&mut self, node: &Node, name: &str) -> Imported {
        let (authorization_url, token_url, grants, scopes, broken) = self.oauth2_flows(node);
        if grants.is_empty() {
            let why = broken.unwrap_or_else(|| "it declares no flow".into());
            return self.malformed(node, name, &why, "OAuth 2".into());
        }
        if let Some(why) = broken {
            self.report(
                Code::ImportAuthLost,
                node,
                format!(
                    "security scheme `{}`: {why}; that flow is left out",
                    one_line(name)
                ),
            );
        }
        let classic_grants = grants
            .iter()
            .all(|g| g == "authorization_code" || g == "client_credentials");
        Imported {
            table: raw::AuthTable {
                kind: Some("oauth2".into()),
                authorization_url,
                token_url,
                scopes: Some(scopes),
                grant_types: Some(grants),
                ..raw::AuthTable::default()
            },
            classic: classic_grants,
        }
    }

    /// authorizationUrl, tokenUrl, wellgen grant types, the united scopes of every flow, and
    /// why a flow was left out (its endpoints missing or not https).
    #[allow(clippy::type_complexity)]
    fn oauth2_flows(
        &mut self,
        node: &Node,
    ) -> (
        Option<String>,
        Option<String>,
        Vec<String>,
        IndexMap<String, String>,
        Option<String>,
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
        let mut broken = None;
        for (flow, f) in flows {
            // `x-authorization-url`: where wellgen's own OpenAPI output keeps it for a
            // client-credentials-only service.
            let this_auth = f
                .str("authorizationUrl")
                .or_else(|| f.str("x-authorization-url"));
            let this_token = f.str("tokenUrl");
            let (grant, needs_auth, needs_token) = match flow.as_str() {
                "authorizationCode" => ("authorization_code", true, true),
                "clientCredentials" => ("client_credentials", false, true),
                "implicit" => ("implicit", true, false),
                "password" => ("password", false, true),
                _ => continue,
            };
            let bad = |u: Option<&str>, needed: bool| match u {
                None => needed,
                Some(u) => crate::values::url::check_https(u).is_err(),
            };
            if bad(this_auth, needs_auth) || bad(this_token, needs_token) {
                broken.get_or_insert_with(|| {
                    format!("its {flow} flow lacks an https authorizationUrl or tokenUrl")
                });
                continue;
            }
            // One endpoint of each kind: the first flow's (authorization code's) wins.
            auth_url = auth_url.or_else(|| this_auth.map(str::to_string));
            token_url = token_url.or_else(|| this_token.map(str::to_string));
            grants.push(grant.to_string());
            for (scope, d) in f.child("scopes").entries() {
                let text = d.value().as_str().map(one_line).unwrap_or_default();
                scopes.entry(scope).or_insert(text);
            }
        }
        (auth_url, token_url, grants, scopes, broken)
    }
}

/// A `type = "other"` table.
fn other(description: String, docs_url: Option<String>) -> raw::AuthTable {
    raw::AuthTable {
        kind: Some("other".into()),
        description: Some(description),
        docs_url,
        ..raw::AuthTable::default()
    }
}

/// How long a scheme's own description may be (the model's limit for `[auth] description`).
const DESCRIPTION_MAX: usize = 500;

/// Text ending in `See <https URL>`: the text before it and the URL.
fn split_docs(text: &str) -> (&str, Option<String>) {
    let trimmed = text.trim_end();
    if let Some((before, url)) = trimmed.rsplit_once("See ")
        && (before.is_empty() || before.ends_with(' '))
        && !url.contains(' ')
        && let Some(url) = https(Some(url))
    {
        return (before.trim_end(), Some(url));
    }
    (text, None)
}

/// `url` when it is an https URL.
fn https(url: Option<&str>) -> Option<String> {
    let url = url?.trim();
    crate::values::url::check_https(url)
        .is_ok()
        .then(|| url.to_string())
}

/// An HTTP token (RFC 9110): what header, query parameter and cookie names here must be.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}
