//! Lowering: the raw service.toml mirror becomes the model. Every rule is checked and every
//! problem collected before giving up; defaults are applied last, once the values they depend
//! on are known.

use indexmap::IndexMap;
use serde_json::Value;

use super::*;
use crate::diag::{Code, Diagnostic, Diagnostics, did_you_mean};
use crate::source::service_toml::{self as raw, to_json};
use crate::text::{is_snake_case, snake_id};
use crate::values::param::{Param, ParamIn, ParamType, parse_compact};
use crate::values::path::PathTemplate;
use crate::values::schemas::{PREFIX, Schemas};
use crate::values::url::{HttpsUrl, check_https};

/// ia.json capability flags, plus `x_` custom flags.
pub const FEATURES: [&str; 9] = [
    "read",
    "write",
    "delete",
    "search",
    "checkout",
    "user_management",
    "webhooks",
    "bulk_operations",
    "real_time",
];

/// The longest `details` published: the publication check's bound on agent-facing text
/// (`check::MAX_AGENT_TEXT`, kept equal by a test there), so a long description costs no
/// warning.
pub const DETAILS_MAX: usize = 2000;

/// `text` within `max` characters: whole sentences (or paragraphs) while they fit, else cut
/// at a word with `…`; whether it was cut. Line breaks are kept.
pub fn cut_details(text: &str, max: usize) -> (String, bool) {
    if text.chars().count() <= max {
        return (text.to_string(), false);
    }
    let end = text
        .char_indices()
        .nth(max - 1)
        .map_or(text.len(), |(i, _)| i);
    let keep = &text[..end];
    // A sentence ends at `.`, `!` or `?` before white space, or at a full-width `。！？`; a
    // paragraph at a blank line. Byte offsets, but the half is counted in characters.
    let sentence = keep
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, '。' | '！' | '？')
                || (matches!(c, '.' | '!' | '?') && keep[i + 1..].starts_with(char::is_whitespace))
        })
        .map(|(i, c)| i + c.len_utf8())
        .chain(keep.rfind("\n\n"))
        .max();
    let past_half = |e: &usize| keep[..*e].chars().count() > max / 2;
    if let Some(e) = sentence.filter(past_half) {
        return (keep[..e].trim_end().to_string(), true);
    }
    let word = keep
        .rfind(char::is_whitespace)
        .filter(past_half)
        .unwrap_or(end);
    (format!("{}…", keep[..word].trim_end()), true)
}

/// Lowers a parsed service.toml; `None` when any error was found (all of them are in `diags`).
pub fn lower(doc: raw::ServiceToml, diags: &mut Diagnostics) -> Option<Service> {
    let before = diags.error_count();
    let mut cx = Cx {
        diags,
        failed_auth: FailedAuth::None,
    };
    let service = cx.service(doc);
    (cx.diags.error_count() == before)
        .then_some(service)
        .flatten()
}

struct Cx<'a> {
    diags: &'a mut Diagnostics,
    failed_auth: FailedAuth,
}

/// What capability scopes are judged against when `[auth]` was given but had errors (already
/// reported): not against its absence, which would report one cause twice.
enum FailedAuth {
    /// No `[auth]`, or one that lowered.
    None,
    /// An oauth2 table: the scope names it declares.
    OAuth2(Vec<String>),
    /// A table whose type could not be read, or an oauth2 one with no scopes: nothing to judge by.
    Unknown,
}

impl Cx<'_> {
    fn error(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.diags.report(Code::InvalidValue, field, message);
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// `[source] split`: `None` inside when not asked for, `None` outside when refused.
    fn split(&mut self, value: Option<&str>) -> Option<Option<Split>> {
        match value {
            None => Some(None),
            Some(Split::BY_TAG) => Some(Some(Split::ByTag)),
            Some(other) => {
                self.push(
                    Diagnostic::new(Code::InvalidValue, format!(
                        "`{other}` is not a way to split /.well-known/ai; the one there is is \"{}\"",
                        Split::BY_TAG
                    ))
                    .at("source.split")
                    .help(
                        "write `split = \"tag\"` for one sub-service document per tag, or remove the key",
                    ),
                );
                None
            }
        }
    }

    /// A TOML value as the JSON it is published as, or an error for each `nan` or `inf` in it.
    fn json(&mut self, v: toml::Value, field: &str) -> Option<Value> {
        let bad = raw::non_finite_all(&v);
        for (f, at) in &bad {
            let field = if at.is_empty() {
                field.to_string()
            } else {
                format!("{field}.{at}")
            };
            self.push(raw::non_finite_error(*f, field));
        }
        bad.is_empty().then(|| to_json(v))
    }

    fn required<T>(&mut self, value: Option<T>, field: &str) -> Option<T> {
        if value.is_none() {
            let (table, key) = field.rsplit_once('.').unwrap_or(("", field));
            let d = Diagnostic::new(Code::MissingKey, format!("missing required key `{key}`"))
                .at(table)
                .help(format!("add `{key} = …` to this table"));
            self.push(d);
        }
        value
    }

    /// A string of `min..=max` characters.
    fn text(
        &mut self,
        value: Option<String>,
        field: &str,
        min: usize,
        max: usize,
    ) -> Option<String> {
        let value = value?;
        let len = value.chars().count();
        if len < min || (min > 0 && value.trim().is_empty()) {
            self.error(field, "must not be empty");
        } else if len > max {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("`{field}` is {len} characters long; the limit is {max}"),
                )
                .at(field)
                .help("shorten it: agents read this, and every spec caps it"),
            );
        }
        Some(value)
    }

    fn https(&mut self, value: Option<String>, field: &str) -> Option<String> {
        let value = value?;
        if let Err(e) = check_https(&value) {
            self.error(field, e);
        }
        Some(value)
    }

    fn one_of<T>(
        &mut self,
        value: &str,
        field: &str,
        names: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let parsed = parse(value);
        if parsed.is_none() {
            let mut d = Diagnostic::new(
                Code::InvalidValue,
                format!("`{value}` is not one of: {}", names.join(", ")),
            )
            .at(field);
            if let Some(s) = did_you_mean(&value.to_ascii_lowercase(), names.iter().copied()) {
                d = d.help(format!("did you mean `{s}`?"));
            }
            self.push(d);
        }
        parsed
    }

    fn positive(&mut self, value: Option<i64>, field: &str) -> Option<u64> {
        let v = value?;
        if v < 1 {
            self.error(field, format!("must be a positive whole number, not {v}"));
            return None;
        }
        Some(v as u64)
    }

    fn service(&mut self, doc: raw::ServiceToml) -> Option<Service> {
        let split = self.split(doc.source.as_ref().and_then(|s| s.split.as_deref()));
        let compact = doc.source.as_ref().and_then(|s| s.compact);
        let source_bytes = doc.source_bytes;
        let schemas = doc.schemas;
        let s = doc.service;
        let name = self.required(s.name, "service.name");
        let name = self.text(name, "service.name", 1, 100);
        let description = self.required(s.description, "service.description");
        let description = self.text(description, "service.description", 1, 300);
        let base_url = self.required(s.base_url, "service.base_url").and_then(|u| {
            HttpsUrl::parse_base(&u)
                .map_err(|e| self.error("service.base_url", e))
                .ok()
        });
        let site_url = s.site_url.and_then(|u| match HttpsUrl::parse_base(&u) {
            Ok(url) if url.path_prefix().is_empty() => Some(url),
            Ok(_) => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        "must be an origin (`https://host`), without a path",
                    )
                    .at("service.site_url")
                    .help("the documents are published at well-known paths of this origin"),
                );
                None
            }
            Err(e) => {
                self.error("service.site_url", e);
                None
            }
        });
        let site_type = s
            .site_type
            .and_then(|t| self.one_of(&t, "service.type", &SiteType::NAMES, SiteType::parse));
        let categories = s.categories.map(|c| self.categories(c)).unwrap_or_default();
        let languages = s.languages.map(|l| self.languages(l));
        let version = s.version.inspect(|v| {
            if v.trim().is_empty() {
                self.error("service.version", "must not be empty");
            }
        });
        let links = Links {
            logo: self.https(s.logo_url, "service.logo_url"),
            docs: self.https(s.docs_url, "service.docs_url"),
            terms: self.https(s.terms_url, "service.terms_url"),
            privacy: self.https(s.privacy_url, "service.privacy_url"),
            support: self.https(s.support_url, "service.support_url"),
            repository: self.https(s.repository_url, "service.repository_url"),
        };
        let contact = s.contact.map(|c| self.contact(c)).unwrap_or_default();
        if let Some(c) = &s.currency
            && !(c.len() == 3 && c.chars().all(|c| c.is_ascii_uppercase()))
        {
            self.error(
                "service.currency",
                format!("`{c}` is not an ISO 4217 code (three capital letters)"),
            );
        }
        let fallback = doc.auth.as_ref().map(|a| match a.kind.as_deref() {
            Some("oauth2") => match &a.scopes {
                Some(s) if !s.is_empty() => FailedAuth::OAuth2(s.keys().cloned().collect()),
                _ => FailedAuth::Unknown,
            },
            Some(k) if Auth::KINDS.contains(&k) => FailedAuth::None,
            _ => FailedAuth::Unknown,
        });
        let mut auth_also = Vec::new();
        let mut auth_with = Vec::new();
        let auth = doc.auth.and_then(|mut a| {
            for (key, list, out) in [
                ("also", a.also.take(), &mut auth_also),
                ("with", a.with.take(), &mut auth_with),
            ] {
                for (i, more) in list.unwrap_or_default().into_iter().enumerate() {
                    let field = format!("auth.{key}.{i}");
                    for (nested, set) in
                        [("also", more.also.is_some()), ("with", more.with.is_some())]
                    {
                        if set {
                            self.error(
                                format!("{field}.{nested}"),
                                format!(
                                    "`{nested}` belongs to [auth] only: list every further scheme \
                                     as its own [[auth.{nested}]] table"
                                ),
                            );
                        }
                    }
                    if let Some(m) = self.auth(more, &field) {
                        if m.is_none() {
                            self.error(
                                format!("{field}.type"),
                                format!(
                                    "`none` cannot be sent with or instead of a scheme: an open \
                                     API has `[auth] type = \"none\"` and no [[auth.{key}]]"
                                ),
                            );
                        }
                        out.push(m);
                    }
                }
            }
            self.auth(a, "auth")
        });
        if auth.as_ref().is_some_and(Auth::is_none)
            && !(auth_also.is_empty() && auth_with.is_empty())
        {
            self.error(
                "auth.type",
                "auth is `none` but [[auth.also]] or [[auth.with]] lists schemes: declare the \
                 primary scheme here",
            );
        }
        if auth.is_none() {
            self.failed_auth = fallback.unwrap_or(FailedAuth::None);
        }
        let rate_limits = doc.rate_limits.map(|r| RateLimits {
            requests_per_minute: self
                .positive(r.requests_per_minute, "rate_limits.requests_per_minute"),
            agent_tier_available: r.agent_tier_available,
        });
        let token_hints = doc.token_hints.map(|t| TokenHints {
            compact_mode: t.compact_mode.unwrap_or(false),
            field_filtering: t.field_filtering.unwrap_or(false),
            delta_support: t.delta_support.unwrap_or(false),
        });
        let meta = doc.meta.map(|m| self.meta(m)).unwrap_or_default();
        let security = doc.security.map(|s| self.security(s));
        let features = doc.features.map(|f| self.features(f)).unwrap_or_default();
        let webhooks = self.webhooks(doc.webhooks);
        let rfc002 = doc.rfc002.map(|r| self.rfc002(r)).unwrap_or_default();
        let plugin = doc.plugin.map(|p| self.plugin(p)).unwrap_or_default();
        let pricing = doc.pricing.and_then(|p| self.pricing(p));
        let agis = doc.agis.map(|a| self.agis(a)).unwrap_or_default();
        let robots = doc.robots.map(|r| self.robots(r)).unwrap_or_default();
        let host = doc
            .deploy
            .and_then(|d| d.host)
            .and_then(|h| self.one_of(&h, "deploy.host", &Host::NAMES, Host::parse))
            .unwrap_or_default();
        if doc.capabilities.is_empty() {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    "a service needs at least one capability",
                )
                .help("add a `[[capabilities]]` table with id, description, method and path"),
            );
        }
        self.named_schemas(&schemas);
        let capabilities = self.capabilities(doc.capabilities, auth.as_ref(), &schemas);
        for (i, w) in webhooks.iter().enumerate() {
            for p in &w.payload {
                self.param_schema(&format!("webhooks.{i}.payload.{}", p.name), p, &schemas);
            }
        }
        let mcp = match doc.mcp {
            None => Some(None),
            Some(m) => self
                .mcp(m, site_url.as_ref().or(base_url.as_ref()), name.as_deref())
                .map(Some),
        };

        let base_url = base_url?;
        Some(Service {
            split: split?,
            compact,
            source_bytes,
            schemas,
            name: name?,
            description: description?,
            site_url: site_url.unwrap_or_else(|| base_url.origin()),
            base_url,
            site_type: site_type.unwrap_or(SiteType::Api),
            categories,
            languages,
            version: version.unwrap_or_else(|| "1.0.0".into()),
            links,
            contact,
            license: s.license,
            currency: s.currency,
            timezone: s.timezone,
            tags: s.tags.unwrap_or_default(),
            auth,
            auth_also,
            auth_with,
            rate_limits,
            token_hints,
            meta,
            security,
            features,
            webhooks,
            rfc002,
            plugin,
            pricing,
            agis,
            robots,
            host,
            capabilities,
            a2a: A2a {
                legacy_alias: doc.a2a.and_then(|a| a.legacy_alias).unwrap_or(false),
            },
            mcp: mcp?,
        })
    }

    fn robots(&mut self, r: raw::RobotsTable) -> robots::Robots {
        use robots::{AI_AGENTS, Access};
        let access = r
            .access
            .and_then(|a| {
                self.one_of(&a, "robots.access", &Access::NAMES[..2], |n| {
                    Access::parse(n).flatten()
                })
            })
            .unwrap_or(Access::Site);
        let mut agents: Vec<(String, Option<Access>)> = AI_AGENTS
            .iter()
            .map(|a| (a.to_string(), Some(access)))
            .collect();
        for (name, value) in r.agents.unwrap_or_default() {
            let field = format!("robots.agents.{name}");
            // RFC 9309 §2.2.1: a product token is letters, `_` and `-`.
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || "_-".contains(c))
            {
                self.error(
                    &field,
                    format!(
                        "`{name}` is not a robots.txt product token: RFC 9309 allows letters,                          `_` and `-` only"
                    ),
                );
                continue;
            }
            let Some(chosen) = self.one_of(&value, &field, &Access::NAMES, Access::parse) else {
                continue;
            };
            match agents
                .iter_mut()
                .find(|(a, _)| a.eq_ignore_ascii_case(&name))
            {
                Some(known) => known.1 = chosen,
                None => agents.push((name, chosen)),
            }
        }
        let mut content_signals = Vec::new();
        if let Some(c) = r.content_signals {
            for (signal, value) in robots::SIGNALS
                .into_iter()
                .zip([c.search, c.ai_input, c.ai_train])
            {
                let Some(value) = value else { continue };
                let field = format!("robots.content_signals.{signal}");
                if let Some(yes) = self.one_of(&value, &field, &["yes", "no"], |v| match v {
                    "yes" => Some(true),
                    "no" => Some(false),
                    _ => None,
                }) {
                    content_signals.push((signal, yes));
                }
            }
        }
        let sitemap = r.sitemap.filter(|url| {
            let ok = ::url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
            if !ok {
                self.error(
                    "robots.sitemap",
                    format!(
                        "`{url}` is not an absolute http(s) URL: robots.txt's `Sitemap:` needs one"
                    ),
                );
            }
            ok
        });
        robots::Robots {
            agents: agents
                .into_iter()
                .filter_map(|(a, access)| Some((a, access?)))
                .collect(),
            content_signals,
            sitemap,
        }
    }

    fn categories(&mut self, list: Vec<String>) -> Vec<String> {
        if list.is_empty() {
            self.error(
                "service.categories",
                "must list at least one category when present",
            );
        }
        for (i, c) in list.iter().enumerate() {
            let field = format!("service.categories.{i}");
            if !CATEGORIES.contains(&c.as_str()) {
                let mut d = Diagnostic::new(
                    Code::InvalidValue,
                    format!("`{c}` is not an aiendpoint category"),
                )
                .at(&field);
                d = d.help(match did_you_mean(c, CATEGORIES) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("choose from: {}", CATEGORIES.join(", ")),
                });
                self.push(d);
            } else if list[..i].contains(c) {
                self.error(field, format!("`{c}` is listed twice"));
            }
        }
        list
    }

    fn languages(&mut self, list: Vec<String>) -> Vec<LanguageTag> {
        if list.is_empty() {
            self.error(
                "service.languages",
                "must list at least one language when present",
            );
        }
        let mut tags = Vec::with_capacity(list.len());
        for (i, tag) in list.iter().enumerate() {
            let field = format!("service.languages.{i}");
            match tag.parse::<LanguageTag>() {
                Err(e) => self.push(Diagnostic::new(Code::InvalidValue, e).at(&field).help(
                    "aiendpoint and ia.json accept a two-letter language, optionally with a region",
                )),
                Ok(_) if list[..i].contains(tag) => {
                    self.error(field, format!("`{tag}` is listed twice"));
                }
                Ok(t) => tags.push(t),
            }
        }
        tags
    }

    fn contact(&mut self, c: raw::ContactTable) -> Contact {
        let email = c.email.and_then(|e| {
            e.parse::<Email>()
                .map_err(|e| self.error("service.contact.email", e))
                .ok()
        });
        Contact {
            name: c.name,
            email,
            url: self.https(c.url, "service.contact.url"),
        }
    }

    /// One `[auth]` (or `[[auth.also]]`) table; `at` is its field (`auth`, `auth.also.0`).
    fn auth(&mut self, a: raw::AuthTable, at: &str) -> Option<Auth> {
        let f = |key: &str| format!("{at}.{key}");
        let kind = self.required(a.kind.clone(), &f("type"))?;
        let kind = self.one_of(&kind, &f("type"), &Auth::KINDS, |k| {
            Auth::KINDS.iter().copied().find(|n| *n == k)
        })?;
        let docs = self.https(a.docs_url.clone(), &f("docs_url"));
        // Every kind may say more in words; `other` must (below).
        let description = match kind {
            "other" => None,
            _ => a
                .description
                .clone()
                .and_then(|d| self.text(Some(d), &f("description"), 1, 500)),
        };
        // Keys that only some kinds take: name the ones that do not belong.
        let allowed: &[&str] = match kind {
            "none" | "basic" | "digest" | "mutual_tls" => &[],
            "api_key" => &["in", "name", "header", "key_url"],
            "bearer" => &["token_url", "token_lifetime"],
            "oauth2" => &[
                "authorization_url",
                "token_url",
                "scopes",
                "grant_types",
                "pkce",
                "authorization_servers",
            ],
            "openid" => &["discovery_url", "authorization_servers"],
            "other" => &[],
            _ => &["key_url", "algorithm", "header_prefix", "key_rotation_days"],
        };
        let given = [
            ("in", a.place.is_some()),
            ("name", a.name.is_some()),
            ("header", a.header.is_some()),
            ("key_url", a.key_url.is_some()),
            ("token_url", a.token_url.is_some()),
            ("token_lifetime", a.token_lifetime.is_some()),
            ("authorization_url", a.authorization_url.is_some()),
            ("scopes", a.scopes.is_some()),
            ("grant_types", a.grant_types.is_some()),
            ("pkce", a.pkce.is_some()),
            ("algorithm", a.algorithm.is_some()),
            ("header_prefix", a.header_prefix.is_some()),
            ("key_rotation_days", a.key_rotation_days.is_some()),
            ("discovery_url", a.discovery_url.is_some()),
            ("authorization_servers", a.authorization_servers.is_some()),
        ];
        for (key, _) in given.iter().filter(|(k, set)| *set && !allowed.contains(k)) {
            self.error(
                f(key),
                format!("`{key}` does not apply to auth type `{kind}`"),
            );
        }
        Some(match kind {
            "none" => Auth::None { docs, description },
            "basic" => Auth::Basic { docs, description },
            "digest" => Auth::Digest { docs, description },
            "mutual_tls" => Auth::MutualTls { docs, description },
            "api_key" => {
                let place = match &a.place {
                    None => Some(KeyPlace::Header),
                    Some(p) => self.one_of(p, &f("in"), &KeyPlace::NAMES, KeyPlace::parse),
                };
                // A header key is named by `header` (as it always was) or `name`; a query
                // parameter or cookie by `name`.
                let (name, key) = match (place, a.header, a.name) {
                    (_, Some(_), Some(_)) => {
                        self.error(
                            f("name"),
                            "give the key's name once: `header` or `name`, not both",
                        );
                        return None;
                    }
                    (Some(KeyPlace::Query | KeyPlace::Cookie), Some(_), None) => {
                        self.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                format!(
                                    "`header` names a header, but the key travels in the {}",
                                    place.map_or("", KeyPlace::as_str)
                                ),
                            )
                            .at(f("header"))
                            .help("name the query parameter or cookie with `name = \"…\"`"),
                        );
                        return None;
                    }
                    (_, Some(h), None) => (Some(h), "header"),
                    (_, None, Some(n)) => (Some(n), "name"),
                    (Some(KeyPlace::Header) | None, None, None) => {
                        (self.required(None, &f("header")), "header")
                    }
                    (_, None, None) => (self.required(None, &f("name")), "name"),
                };
                if let Some(h) = &name {
                    let bad = match place {
                        Some(KeyPlace::Header) => !is_header_name(h),
                        _ => h.is_empty() || !is_header_name(h),
                    };
                    if bad || looks_like_key(h) {
                        // Not echoed: a value here is likely the key itself.
                        let shown: String = h.chars().take(4).collect();
                        let (what, help) = match place {
                            Some(KeyPlace::Query) => (
                                "a query parameter name",
                                "give the query parameter's name (e.g. `api_key`), never a key itself",
                            ),
                            Some(KeyPlace::Cookie) => (
                                "a cookie name",
                                "give the cookie's name (e.g. `session`), never a key itself",
                            ),
                            _ => (
                                "an HTTP header name",
                                "give the header's name (e.g. `X-API-Key`), never a key itself",
                            ),
                        };
                        self.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                format!(
                                    "`{shown}…` ({} characters) is not {what}; a key here would \
                                 be published",
                                    h.chars().count()
                                ),
                            )
                            .at(f(key))
                            .concealed()
                            .help(help),
                        );
                    }
                }
                Auth::ApiKey {
                    name: name?,
                    place: place?,
                    docs,
                    key_url: self.https(a.key_url, &f("key_url")),
                    description,
                }
            }
            "bearer" => Auth::Bearer {
                docs,
                token_url: self.https(a.token_url, &f("token_url")),
                token_lifetime: self.positive(a.token_lifetime, &f("token_lifetime")),
                description,
            },
            "oauth2" => {
                let grant_types = a
                    .grant_types
                    .unwrap_or_else(|| vec!["authorization_code".into()]);
                let uses = |names: &[&str]| grant_types.iter().any(|g| names.contains(&g.as_str()));
                // An authorization URL is where a user is sent: the authorization code and
                // implicit grants only; client credentials and password need only the token
                // URL (targets that want an authorization URL regardless say so themselves).
                let none = grant_types.is_empty();
                let needs_authorization = none || uses(&["authorization_code", "implicit"]);
                let needs_token =
                    none || uses(&["authorization_code", "client_credentials", "password"]);
                let authorization_url = if needs_authorization {
                    self.required(a.authorization_url, &f("authorization_url"))
                } else {
                    a.authorization_url
                };
                let authorization_url = self.https(authorization_url, &f("authorization_url"));
                let token_url = if needs_token {
                    self.required(a.token_url, &f("token_url"))
                } else {
                    a.token_url
                };
                let token_url = self.https(token_url, &f("token_url"));
                // An API description may declare no scopes (`scopes: {}`): the scheme is
                // still OAuth 2, and targets that need a scope say it their nearest way.
                let scopes = Some(a.scopes.unwrap_or_default());
                for (i, g) in grant_types.iter().enumerate() {
                    let names = Auth::GRANT_TYPES;
                    self.one_of(g, &format!("{at}.grant_types.{i}"), &names, |g| {
                        names.contains(&g).then_some(())
                    });
                }
                if (needs_authorization && authorization_url.is_none())
                    || (needs_token && token_url.is_none())
                {
                    return None;
                }
                let authorization_servers =
                    self.issuers(a.authorization_servers, &f("authorization_servers"));
                Auth::OAuth2 {
                    docs,
                    authorization_url,
                    token_url,
                    authorization_servers: authorization_servers?,
                    scopes: scopes?,
                    grant_types,
                    pkce: a.pkce.unwrap_or(true),
                    description,
                }
            }
            "openid" => {
                let url = self.required(a.discovery_url, &f("discovery_url"));
                let authorization_servers =
                    self.issuers(a.authorization_servers, &f("authorization_servers"));
                Auth::OpenIdConnect {
                    docs,
                    discovery_url: self.https(url, &f("discovery_url"))?,
                    authorization_servers: authorization_servers?,
                    description,
                }
            }
            "other" => {
                let description = self.required(a.description, &f("description"));
                let description = self.text(description, &f("description"), 1, 500)?;
                if docs.is_none() {
                    self.push(
                        Diagnostic::new(
                            Code::AuthOtherUndocumented,
                            "a scheme said only in words: agents need its documentation",
                        )
                        .at(f("type"))
                        .help("add `docs_url = \"https://…\"`, the page that says how to authenticate"),
                    );
                }
                Auth::Other { docs, description }
            }
            _ => {
                let register_url = self.required(a.key_url, &f("key_url"));
                let register_url = self.https(register_url, &f("key_url"));
                let algorithm = a.algorithm.unwrap_or_else(|| "sha256".into());
                let names = ["sha256", "sha512"];
                self.one_of(&algorithm, &f("algorithm"), &names, |g| {
                    names.contains(&g).then_some(())
                });
                let header_prefix = a.header_prefix.unwrap_or_else(|| "X-IA-".into());
                if !is_header_name(&header_prefix) || looks_like_key(&header_prefix) {
                    self.push(
                        Diagnostic::new(Code::InvalidValue, "not the start of an HTTP header name")
                            .at(f("header_prefix"))
                            .concealed()
                            .help("the prefix of the signature headers, e.g. `X-IA-`"),
                    );
                }
                Auth::SignedKey {
                    docs,
                    register_url: register_url?,
                    algorithm,
                    header_prefix,
                    key_rotation_days: self.positive(a.key_rotation_days, &f("key_rotation_days")),
                    description,
                }
            }
        })
    }

    fn meta(&mut self, m: raw::MetaTable) -> Meta {
        let last_updated = m.last_updated.and_then(|d| {
            let text = match d {
                toml::Value::Datetime(dt) => dt.to_string(),
                toml::Value::String(t) => t,
                _ => {
                    self.error("meta.last_updated", "must be a date such as 2026-03-10");
                    return None;
                }
            };
            text.parse::<MetaDate>()
                .map_err(|e| {
                    self.push(Diagnostic::new(Code::InvalidValue, e).at("meta.last_updated"))
                })
                .ok()
        });
        Meta {
            last_updated,
            changelog: self.https(m.changelog, "meta.changelog"),
            status: self.https(m.status, "meta.status"),
        }
    }

    fn security(&mut self, s: raw::SecurityTable) -> Security {
        if let Some(size) = &s.max_request_size
            && !is_request_size(size)
        {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("`{size}` is not a size like `512kb` or `10mb`"),
                )
                .at("security.max_request_size"),
            );
        }
        let auto_block = s.auto_block.and_then(|b| {
            let f = "security.auto_block";
            let failed = self.required(b.failed_attempts, &format!("{f}.failed_attempts"));
            let window = self.required(b.window_minutes, &format!("{f}.window_minutes"));
            let duration = self.required(
                b.block_duration_minutes,
                &format!("{f}.block_duration_minutes"),
            );
            Some(AutoBlock {
                failed_attempts: self.positive(failed, &format!("{f}.failed_attempts"))?,
                window_minutes: self.positive(window, &format!("{f}.window_minutes"))?,
                block_duration_minutes: self
                    .positive(duration, &format!("{f}.block_duration_minutes"))?,
            })
        });
        Security {
            https_required: s.https_required,
            verify_signature: s.verify_signature,
            max_request_size: s.max_request_size,
            allowed_origins: s.allowed_origins.unwrap_or_default(),
            ip_allowlist: s.ip_allowlist.unwrap_or_default(),
            auto_block,
        }
    }

    fn features(&mut self, f: IndexMap<String, bool>) -> IndexMap<String, bool> {
        for key in f.keys() {
            let custom = key.strip_prefix("x_").is_some_and(is_snake_case);
            if !FEATURES.contains(&key.as_str()) && !custom {
                let mut d =
                    Diagnostic::new(Code::InvalidValue, format!("`{key}` is not a feature flag"))
                        .at(format!("features.{key}"));
                d = d.help(match did_you_mean(key, FEATURES) {
                    Some(s) => format!("did you mean `{s}`? Custom flags start with `x_`"),
                    None => format!("use one of {}, or a custom `x_name`", FEATURES.join(", ")),
                });
                self.push(d);
            }
        }
        f
    }

    fn webhooks(&mut self, list: Vec<raw::WebhookTable>) -> Vec<Webhook> {
        let mut out: Vec<Webhook> = Vec::new();
        for (i, w) in list.into_iter().enumerate() {
            let f = format!("webhooks.{i}");
            let name = self.required(w.name, &format!("{f}.name"));
            if let Some(n) = &name {
                if !is_snake_case(n) {
                    self.error(
                        format!("{f}.name"),
                        format!("`{n}` is not a snake_case event name"),
                    );
                } else if out.iter().any(|o| &o.name == n) {
                    self.error(
                        format!("{f}.name"),
                        format!("event `{n}` is declared twice"),
                    );
                }
            }
            let description = self.required(w.description, &format!("{f}.description"));
            let description = self.text(description, &format!("{f}.description"), 1, 500);
            let payload = w
                .payload
                .into_iter()
                .filter_map(|(k, v)| self.param(k, v, &format!("{f}.payload"), ParamIn::Body))
                .collect();
            if let (Some(name), Some(description)) = (name, description) {
                out.push(Webhook {
                    name,
                    description,
                    payload,
                });
            }
        }
        out
    }

    /// `[auth] authorization_servers`: RFC 8414 issuer identifiers (https, no query or
    /// fragment), at least one when the key is given; empty when it is not.
    fn issuers(&mut self, list: Option<Vec<String>>, field: &str) -> Option<Vec<String>> {
        let Some(list) = list else {
            return Some(Vec::new());
        };
        let before = self.diags.error_count();
        if list.is_empty() {
            self.push(
                Diagnostic::new(Code::InvalidValue, "lists no authorization server")
                    .at(field)
                    .help(
                        "name the issuer of the API's tokens (`[\"https://auth.example.com\"]`), \
                         or remove the key to derive it from the authorization URL",
                    ),
            );
        }
        for (i, issuer) in list.iter().enumerate() {
            let at = format!("{field}.{i}");
            match check_https(issuer) {
                Err(e) => self.error(at, e),
                Ok(_) if issuer.contains(['?', '#']) => self.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        "an issuer identifier has no query or fragment (RFC 8414 §2)",
                    )
                    .at(at)
                    .help("give the issuer URL alone, e.g. `https://auth.example.com`"),
                ),
                Ok(_) => {}
            }
            if list[..i].contains(issuer) {
                self.error(format!("{field}.{i}"), "listed twice");
            }
        }
        (self.diags.error_count() == before).then_some(list)
    }

    /// `[mcp]`: the remote MCP server. `site` and `service_name` give the default `name`.
    fn mcp(
        &mut self,
        m: raw::McpTable,
        site: Option<&HttpsUrl>,
        service_name: Option<&str>,
    ) -> Option<McpServer> {
        let before = self.diags.error_count();
        let endpoint = self.required(m.endpoint, "mcp.endpoint");
        let variables = self.mcp_inputs(m.variables.unwrap_or_default(), "mcp.variables");
        if let Some(e) = &endpoint {
            self.mcp_endpoint(e, &variables);
        }
        let transport = match &m.transport {
            None => Some(McpTransport::StreamableHttp),
            Some(t) => self.one_of(
                t,
                "mcp.transport",
                &McpTransport::NAMES,
                McpTransport::parse,
            ),
        };
        let named = m.name.is_some();
        let name = match m.name {
            Some(n) => {
                if !is_mcp_name(&n) {
                    self.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            format!("`{n}` is not an MCP server name"),
                        )
                        .at("mcp.name")
                        .help(
                            "write `namespace/name` in reverse-DNS form, 3 to 200 letters, digits, \
                             `.`, `-` (and `_` after the slash), e.g. `com.example/weather`",
                        ),
                    );
                }
                Some(n)
            }
            None => site.zip(service_name).and_then(|(site, service)| {
                let name = default_mcp_name(site, service);
                if name.is_none() {
                    self.push(
                        Diagnostic::new(
                            Code::MissingKey,
                            "no MCP server name can be derived from the site's host",
                        )
                        .at("mcp")
                        .help("add `name = \"com.example/weather\"` (namespace/name, reverse DNS)"),
                    );
                }
                name
            }),
        };
        let protocol_versions = m.protocol_versions.unwrap_or_default();
        for (i, v) in protocol_versions.iter().enumerate() {
            let date = v.len() == 10
                && v.bytes().enumerate().all(|(j, b)| {
                    if j == 4 || j == 7 {
                        b == b'-'
                    } else {
                        b.is_ascii_digit()
                    }
                });
            if !date {
                self.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        format!("`{v}` is not an MCP protocol version"),
                    )
                    .at(format!("mcp.protocol_versions.{i}"))
                    .help("MCP versions are dates, e.g. `2025-11-25`"),
                );
            } else if protocol_versions[..i].contains(v) {
                self.error(format!("mcp.protocol_versions.{i}"), "listed twice");
            }
        }
        let mut headers = Vec::new();
        for (i, h) in m.headers.unwrap_or_default().into_iter().enumerate() {
            let at = format!("mcp.headers.{i}");
            let header_name = self.required(h.name, &format!("{at}.name"));
            if let Some(n) = &header_name
                && !is_header_name(n)
            {
                self.error(
                    format!("{at}.name"),
                    format!("`{n}` is not an HTTP header name"),
                );
            }
            if let Some(n) = &header_name
                && headers
                    .iter()
                    .any(|o: &McpHeader| o.name.eq_ignore_ascii_case(n))
            {
                self.error(
                    format!("{at}.name"),
                    format!("the `{n}` header is described twice"),
                );
            }
            let variables =
                self.mcp_inputs(h.variables.unwrap_or_default(), &format!("{at}.variables"));
            let secret = h.secret.unwrap_or(false);
            if let Some(v) = &h.value {
                self.mcp_template(
                    v,
                    &variables,
                    &format!("{at}.value"),
                    &format!("{at}.variables"),
                );
                if secret && template_names(v).is_empty() {
                    self.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            "a secret header's value would be published as written",
                        )
                        .at(format!("{at}.value"))
                        .concealed()
                        .help(
                            "write the value as a template (`Bearer {token}`) and declare \
                             `token` under `variables` with `secret = true`",
                        ),
                    );
                }
            }
            let input = McpInput {
                description: h.description,
                required: h.required.unwrap_or(false),
                secret,
                default: None,
                choices: Vec::new(),
            };
            if let Some(name) = header_name {
                headers.push(McpHeader {
                    name,
                    input,
                    value: h.value,
                    variables,
                });
            }
        }
        (self.diags.error_count() == before).then(|| McpServer {
            name: name.unwrap_or_default(),
            named,
            endpoint: endpoint.unwrap_or_default(),
            transport: transport.unwrap_or(McpTransport::StreamableHttp),
            protocol_versions,
            variables,
            headers,
        })
    }

    /// The MCP endpoint: an https URL once its `{name}` parts are filled in (it may start with
    /// one, a whole origin the user gives), each part declared.
    fn mcp_endpoint(&mut self, endpoint: &str, variables: &IndexMap<String, McpInput>) {
        self.mcp_template(endpoint, variables, "mcp.endpoint", "mcp.variables");
        let names = template_names(endpoint);
        if endpoint.starts_with('{') {
            return;
        }
        // Each part filled with a host-safe word, so the rest of the URL is checked as it is.
        let mut filled = endpoint.to_string();
        for n in &names {
            filled = filled.replace(&format!("{{{n}}}"), "x");
        }
        match check_https(&filled) {
            Err(e) => self.push(
                Diagnostic::new(Code::InvalidValue, e)
                    .at("mcp.endpoint")
                    .help("the URL MCP clients connect to, e.g. `https://mcp.example.com/mcp`"),
            ),
            Ok(_) if filled.contains('#') => {
                self.error("mcp.endpoint", "an MCP endpoint has no fragment")
            }
            Ok(_) => {}
        }
    }

    /// `{name}` parts of `template` each declared in `variables`, and each variable used.
    fn mcp_template(
        &mut self,
        template: &str,
        variables: &IndexMap<String, McpInput>,
        field: &str,
        variables_field: &str,
    ) {
        let names = template_names(template);
        if template.matches('{').count() != names.len()
            || template.matches('}').count() != names.len()
        {
            self.push(
                Diagnostic::new(Code::InvalidValue, "unbalanced `{` or `}`")
                    .at(field)
                    .help("mark each part the user fills in as `{name}`: a letter or `_`, then letters, digits or `_`"),
            );
        }
        for n in &names {
            if !variables.contains_key(n.as_str()) {
                self.push(
                    Diagnostic::new(Code::MissingKey, format!("`{{{n}}}` is not declared"))
                        .at(field)
                        .help(format!(
                            "add `[{variables_field}.{n}]` with its `description`"
                        )),
                );
            }
        }
        for n in variables.keys() {
            if !names.contains(n) {
                self.error(
                    format!("{variables_field}.{n}"),
                    format!(
                        "`{n}` is declared but `{{{n}}}` is not in `{}`",
                        field.rsplit('.').next().unwrap_or(field)
                    ),
                );
            }
        }
    }

    fn mcp_inputs(
        &mut self,
        inputs: IndexMap<String, raw::McpInputTable>,
        field: &str,
    ) -> IndexMap<String, McpInput> {
        let mut out = IndexMap::new();
        for (name, i) in inputs {
            let at = format!("{field}.{name}");
            if !is_template_name(&name) {
                self.error(
                    &at,
                    format!("`{name}` is not a variable name: a letter or `_`, then letters, digits or `_`"),
                );
            }
            let choices = i.choices.unwrap_or_default();
            if let Some(d) = &i.default
                && !choices.is_empty()
                && !choices.contains(d)
            {
                self.error(
                    format!("{at}.default"),
                    format!("`{d}` is not one of `choices`"),
                );
            }
            let secret = i.secret.unwrap_or(false);
            if secret && i.default.is_some() {
                self.push(
                    Diagnostic::new(Code::InvalidValue, "a secret has no published default")
                        .at(format!("{at}.default"))
                        .concealed()
                        .help("remove `default`: the user gives the secret when connecting"),
                );
            }
            out.insert(
                name,
                McpInput {
                    description: i.description,
                    required: i.required.unwrap_or(false),
                    secret,
                    default: i.default,
                    choices,
                },
            );
        }
        out
    }

    fn rfc002(&mut self, r: raw::Rfc002Table) -> Rfc002 {
        let issuer = r.issuer.and_then(|i| {
            let jurisdiction = self.required(i.jurisdiction, "rfc002.issuer.jurisdiction");
            let kind = self.required(i.kind, "rfc002.issuer.type");
            if let Some(c) = &i.operator_cuit
                && !is_cuit(c)
            {
                self.error(
                    "rfc002.issuer.operator_cuit",
                    format!("`{c}` is not a CUIT of the form XX-XXXXXXXX-X"),
                );
            }
            Some(Issuer {
                jurisdiction: jurisdiction?,
                kind: kind?,
                operator_name: i.operator_name,
                operator_cuit: i.operator_cuit,
                denominacion: i.denominacion,
                supervision_regime: i.supervision_regime,
            })
        });
        let instructions = r.instructions.unwrap_or_default();
        for (i, rule) in instructions.iter().enumerate() {
            if rule.trim().is_empty() || rule.contains(';') {
                self.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        "an instruction must be non-empty and hold no `;`",
                    )
                    .at(format!("rfc002.instructions.{i}"))
                    .help("agentInstructions joins the rules with `; `: write one rule per entry"),
                );
            }
        }
        Rfc002 {
            issuer,
            conformance: r.conformance.unwrap_or_default(),
            instructions,
            governance: r.governance.map(|g| {
                g.into_iter()
                    .filter_map(|(k, v)| {
                        let v = self.json(v, &format!("rfc002.governance.{k}"))?;
                        Some((k, v))
                    })
                    .collect()
            }),
        }
    }

    fn plugin(&mut self, p: raw::PluginTable) -> Plugin {
        if let Some(n) = &p.name_for_model
            && !(n.len() <= 50 && !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("`{n}` must be 1-50 letters and digits"),
                )
                .at("plugin.name_for_model")
                .help("OpenAI's manifest allows no spaces, `_` or `-` here"),
            );
        }
        Plugin {
            name_for_model: p.name_for_model,
            name_for_human: self.text(p.name_for_human, "plugin.name_for_human", 1, 20),
            description_for_human: self.text(
                p.description_for_human,
                "plugin.description_for_human",
                1,
                100,
            ),
            description_for_model: self.text(
                p.description_for_model,
                "plugin.description_for_model",
                1,
                8000,
            ),
        }
    }

    fn pricing(&mut self, p: raw::PricingTable) -> Option<Pricing> {
        let kinds = ["free", "freemium", "paid"];
        let kind = self.required(p.kind, "pricing.type")?;
        self.one_of(&kind, "pricing.type", &kinds, |k| {
            kinds.contains(&k).then_some(())
        })?;
        let plans = p
            .plans
            .into_iter()
            .enumerate()
            .filter_map(|(i, plan)| {
                Some(Plan {
                    name: self.required(plan.name, &format!("pricing.plans.{i}.name"))?,
                    price: plan.price,
                    limits: plan.limits,
                })
            })
            .collect();
        Some(Pricing {
            kind,
            plans_url: self.https(p.plans_url, "pricing.plans_url"),
            plans,
        })
    }

    fn agis(&mut self, a: raw::AgisTable) -> Agis {
        if let Some(addr) = &a.agtp
            && !addr
                .strip_prefix("agtp://")
                .is_some_and(|h| !h.is_empty() && !h.contains(char::is_whitespace))
        {
            self.error(
                "agis.agtp",
                format!("`{addr}` is not an `agtp://host` address"),
            );
        }
        let protocols = ["request", "negotiate", "confirm", "query"];
        let interaction_protocols = a.interaction_protocols.unwrap_or_default();
        for (i, p) in interaction_protocols.iter().enumerate() {
            self.one_of(
                p,
                &format!("agis.interaction_protocols.{i}"),
                &protocols,
                |p| protocols.contains(&p).then_some(()),
            );
        }
        let data_manifest = a.data_manifest.map(|m| DataManifest {
            pre_auth_discovery: m.pre_auth_discovery.unwrap_or(false),
            available_data: m
                .available_data
                .into_iter()
                .enumerate()
                .filter_map(|(i, d)| {
                    Some(DataClass {
                        class: self.required(
                            d.class,
                            &format!("agis.data_manifest.available_data.{i}.class"),
                        )?,
                        description: d.description,
                        formats: d.formats.unwrap_or_default(),
                        sensitivity: d.sensitivity,
                        requires_authorization: d.requires_authorization,
                    })
                })
                .collect(),
        });
        let negotiable = a.negotiable.unwrap_or(false);
        if negotiable && data_manifest.is_none() {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    "`negotiable = true` requires a data manifest (AGIS §8.2)",
                )
                .at("agis.negotiable")
                .help(
                    "add `[agis.data_manifest]` listing the data classes agents may negotiate for",
                ),
            );
        }
        Agis {
            agtp: a.agtp,
            domain: a.domain,
            namespace: a.namespace,
            negotiable,
            interaction_protocols,
            related_services: a.related_services.unwrap_or_default(),
            data_manifest,
        }
    }

    /// `[schemas]`: each a JSON Schema object, referring only to names the table holds.
    fn named_schemas(&mut self, schemas: &Schemas) {
        let cycles: std::collections::HashSet<&str> =
            schemas.only_self_referring().into_iter().collect();
        for (name, schema) in schemas.iter() {
            let field = format!("schemas.{}", crate::diag::field_key(name));
            if !schema.is_object() {
                self.error(&field, "must be a table holding a JSON Schema");
            }
            if cycles.contains(name) {
                self.error(
                    &field,
                    "is only a reference, and its references lead back to it: it says nothing of a value",
                );
            }
            self.known_references(&field, schema, schemas);
        }
    }

    /// An error for each `#/schemas/<name>` reference in `schema` (at `field`) to a name
    /// `[schemas]` does not define.
    fn known_references(&mut self, field: &str, schema: &serde_json::Value, schemas: &Schemas) {
        for name in schemas.unknown(schema) {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("refers to `{PREFIX}{name}`, which `[schemas]` does not define"),
                )
                .at(field)
                .help(format!(
                    "add a `[schemas.\"{name}\"]` table, or fix the name"
                )),
            );
        }
    }

    /// A parameter's `schema` (of the parameter at `field`): each reference names a schema
    /// `[schemas]` defines, and the type it states, its own or the one it refers to, is one the
    /// parameter's type shares values with; else a target that writes both (OpenAPI, MCP) would
    /// publish a schema no value meets, or one other targets contradict.
    fn param_schema(&mut self, field: &str, p: &Param, schemas: &Schemas) {
        let Some(schema) = &p.schema else {
            return;
        };
        let at = format!("{field}.schema");
        self.known_references(&at, schema, schemas);
        let stated: Vec<&str> = match schemas.keyword(schema, "type") {
            Some(serde_json::Value::String(t)) => vec![t.as_str()],
            Some(serde_json::Value::Array(list)) => {
                list.iter().filter_map(|t| t.as_str()).collect()
            }
            _ => return,
        };
        let stated: Vec<&str> = stated.into_iter().filter(|t| *t != "null").collect();
        let numeric = |t: &str| matches!(t, "integer" | "number");
        let own = p.kind.as_str();
        let shares = |t: &&str| *t == own || numeric(t) && numeric(own);
        if stated.is_empty() || stated.iter().any(shares) {
            return;
        }
        let through = match schema.get("type") {
            Some(_) => String::new(),
            None => Schemas::name_of(schema)
                .map(|n| format!(" (through `{PREFIX}{n}`)"))
                .unwrap_or_default(),
        };
        self.push(
            Diagnostic::new(
                Code::InvalidValue,
                format!(
                    "states type `{}`{through}, but the parameter is {}: no value is both",
                    stated.join("`, `"),
                    p.kind.with_article()
                ),
            )
            .at(at)
            .help("give the parameter the schema's type, or a schema of the parameter's type"),
        );
    }

    fn capabilities(
        &mut self,
        list: Vec<raw::CapabilityTable>,
        auth: Option<&Auth>,
        schemas: &Schemas,
    ) -> Vec<Capability> {
        let mut out: Vec<Capability> = Vec::new();
        let mut first_seen: IndexMap<String, usize> = IndexMap::new();
        for (index, c) in list.into_iter().enumerate() {
            let f = |key: &str| format!("capabilities.{index}.{key}");
            let id = self.required(c.id, &f("id"));
            if let Some(id) = &id {
                self.capability_id(id, &f("id"));
                if let Some(first) = first_seen.get(id) {
                    self.push(
                        Diagnostic::new(Code::InvalidValue, format!("capability id `{id}` is already used by capabilities[{first}]"))
                            .at(f("id"))
                            .help("ids must be unique within a service: every target keys capabilities by id"),
                    );
                } else {
                    first_seen.insert(id.clone(), index);
                }
            }
            let description = self.required(c.description, &f("description"));
            let description = self.text(description, &f("description"), 1, 200);
            let details = self.details(c.details, description.as_deref(), &f("details"));
            let method = match c.method {
                None => Some(Method::Get),
                Some(m) => {
                    let parsed = Method::parse(&m);
                    if parsed.is_none() {
                        let upper = m.to_ascii_uppercase();
                        let help = if Method::parse(&upper).is_some() {
                            format!("write it in capitals: `{upper}`")
                        } else {
                            format!("one of {}", Method::NAMES.join(", "))
                        };
                        self.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                format!("`{m}` is not a supported HTTP method"),
                            )
                            .at(f("method"))
                            .help(help),
                        );
                    }
                    parsed
                }
            };
            let path = self.required(c.path, &f("path"));
            let (host, template) = match path.map(|p| split_endpoint(&p)) {
                Some(Ok(pair)) => (pair.0, Some(pair.1)),
                Some(Err(e)) => {
                    self.error(f("path"), e);
                    (None, None)
                }
                None => (None, None),
            };
            let access = c
                .access
                .and_then(|a| self.one_of(&a, &f("access"), &Access::NAMES, Access::parse));
            let scopes = c.scopes.unwrap_or_default();
            self.scopes(&scopes, auth, &f("scopes"));
            let returns = self.text(c.returns, &f("returns"), 1, 300);
            let rate_limit = c.rate_limit.and_then(|r| match parse_rate_limit(&r) {
                Some(rl) => Some(rl),
                None => {
                    self.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            format!("`{r}` is not a rate limit like `100/minute`"),
                        )
                        .at(f("rate_limit"))
                        .help("write N/second, N/minute, N/hour or N/day with N ≥ 1"),
                    );
                    None
                }
            });
            let semantic = c
                .semantic
                .map(|s| self.semantic(s, &f("semantic")))
                .unwrap_or_default();
            let errors = self.errors(c.errors, &f("errors"));
            let example = c.example.map(|e| Example {
                request: e.request.and_then(|v| self.json(v, &f("example.request"))),
                response: e
                    .response
                    .and_then(|v| self.json(v, &f("example.response"))),
                status: match e.status {
                    Some(s) if (100..=599).contains(&s) => s as u16,
                    Some(s) => {
                        self.error(
                            f("example.status"),
                            format!("{s} is not an HTTP status code"),
                        );
                        200
                    }
                    None => 200,
                },
            });
            let output_schema = c.output_schema;
            if let Some(schema) = &output_schema
                && !schema.is_object()
            {
                self.error(f("output_schema"), "must be a table holding a JSON Schema");
            }
            if let Some(schema) = &output_schema {
                self.known_references(&f("output_schema"), schema, schemas);
            }

            // Parameters are checked even when the path is broken, so every error shows at once.
            let probe = template
                .clone()
                .unwrap_or_else(|| PathTemplate::parse("/").expect("root path"));
            let params_method = method.unwrap_or(Method::Get);
            let mut params = Vec::new();
            for (name, value) in c.params {
                let default_in = if probe.params().any(|p| p == name) {
                    ParamIn::Path
                } else if params_method.writes() && params_method != Method::Delete {
                    ParamIn::Body
                } else {
                    ParamIn::Query
                };
                if let Some(p) = self.param(name, value, &f("params"), default_in) {
                    self.param_schema(&format!("{}.{}", f("params"), p.name), &p, schemas);
                    params.push(p);
                }
            }
            self.wire_clashes(&params, &f("params"));
            let (Some(id), Some(description), Some(method), Some(path)) =
                (id, description, method, template)
            else {
                continue;
            };
            self.path_params(&path, &mut params, &f("params"));
            // Defaults, last: they depend on auth, scopes, method and the semantic block.
            let access = access.unwrap_or(if !scopes.is_empty() {
                Access::UserRequired
            } else if auth.is_some_and(|a| !a.is_none()) {
                Access::Protected
            } else {
                Access::Public
            });
            let body_required = c.body_required.unwrap_or(false);
            if body_required && !params.iter().any(|p| p.location == ParamIn::Body) {
                self.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        "`body_required` asks for a request body, and this capability has no body field",
                    )
                    .at(f("body_required"))
                    .help("give it a parameter `in = \"body\"` (the default on POST, PUT and PATCH), or leave `body_required` out"),
                );
            }
            let confirm = c.confirm.unwrap_or(
                semantic.impact == Some(Impact::Irreversible) || method == Method::Delete,
            );
            out.push(Capability {
                index,
                id,
                description,
                details,
                method,
                host,
                path,
                access,
                scopes,
                params,
                returns,
                output_schema,
                deprecated: c.deprecated.unwrap_or(false),
                rate_limit,
                content_type: c.content_type,
                body_required,
                confirm,
                tags: c.tags.unwrap_or_default(),
                example,
                errors,
                semantic,
            });
        }
        out
    }

    /// A capability's `details`: trimmed, left out when empty or the same as its description,
    /// and cut to `DETAILS_MAX` characters at a sentence or word with a note.
    fn details(
        &mut self,
        value: Option<String>,
        description: Option<&str>,
        field: &str,
    ) -> Option<String> {
        let value = value?;
        let text = value.trim();
        if text.is_empty() || Some(text) == description.map(str::trim) {
            return None;
        }
        let (text, cut) = cut_details(text, DETAILS_MAX);
        if cut {
            self.push(
                Diagnostic::new(
                    Code::DetailsShortened,
                    format!(
                        "`{field}` is longer than {DETAILS_MAX} characters: published cut after the last \
                         sentence (else word) within them"
                    ),
                )
                .at(field)
                .help("shorten it; put long documentation behind a link"),
            );
        }
        Some(text)
    }

    fn capability_id(&mut self, id: &str, field: &str) {
        let valid = id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("`{id}` is not a valid capability id"),
                )
                .at(field)
                .help(format!(
                    "use lowercase letters, digits and `_`, starting with a letter (e.g. `{}`)",
                    crate::detect::secrets::safe_suggestion(
                        id,
                        snake_id(id, "my_capability"),
                        "my_capability"
                    )
                )),
            );
        } else if id.len() > 64 {
            self.error(
                field,
                format!("`{field}` is {} characters long; the limit is 64", id.len()),
            );
        }
    }

    fn scopes(&mut self, scopes: &[String], auth: Option<&Auth>, field: &str) {
        if scopes.is_empty() {
            return;
        }
        let declared: Vec<String> = match (auth.and_then(Auth::scopes), &self.failed_auth) {
            (Some(d), _) => d.keys().cloned().collect(),
            (None, FailedAuth::OAuth2(d)) => d.clone(),
            (None, FailedAuth::Unknown) => return,
            (None, FailedAuth::None) => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        "scopes need `auth.type = \"oauth2\"` with the scopes declared",
                    )
                    .at(field),
                );
                return;
            }
        };
        for (i, s) in scopes.iter().enumerate() {
            if !declared.contains(s) {
                let mut d = Diagnostic::new(
                    Code::InvalidValue,
                    format!("scope `{s}` is not declared in `auth.scopes`"),
                )
                .at(format!("{field}.{i}"));
                if let Some(m) = did_you_mean(s, declared.iter().map(String::as_str)) {
                    d = d.help(format!("did you mean `{m}`?"));
                }
                self.push(d);
            }
        }
    }

    /// Every `{name}` in the path is a required path parameter; derive the missing ones.
    fn path_params(&mut self, path: &PathTemplate, params: &mut Vec<Param>, field: &str) {
        for p in params.iter().filter(|p| p.location == ParamIn::Path) {
            if !path.params().any(|n| n == p.name) {
                self.error(
                    format!("{field}.{}", p.name),
                    format!(
                        "`{}` is a path parameter but the path has no `{{{}}}`",
                        p.name, p.name
                    ),
                );
            } else if !p.required {
                self.error(
                    format!("{field}.{}", p.name),
                    "a path parameter is always required",
                );
            }
        }
        for p in params.iter().filter(|p| p.location != ParamIn::Path) {
            if path.params().any(|n| n == p.name) {
                self.error(
                    format!("{field}.{}", p.name),
                    format!(
                        "`{}` is a placeholder in the path, so it must be a path parameter, not {}",
                        p.name,
                        p.location.as_str()
                    ),
                );
            }
        }
        self.lost_placeholders(path, params, field);
        for name in path.params() {
            if !params.iter().any(|p| p.name == name) {
                self.push(
                    Diagnostic::new(
                        Code::ParamUndescribed,
                        format!(
                            "path parameter `{name}` is not described; assuming a required string"
                        ),
                    )
                    .at(field
                        .rsplit_once('.')
                        .map_or(field, |(cap, _)| cap)
                        .to_string()
                        + ".path")
                    .help(format!(
                        "add `{name} = \"string, required -- …\"` under params"
                    )),
                );
                params.push(Param::plain(name, ParamType::String, true, ParamIn::Path));
            }
        }
    }

    /// A query parameter named like a path placeholder the path lost (`/todos/` with `id`, or
    /// `/todos/{todo_id}` with the old `id` left) would silently become a query parameter.
    fn lost_placeholders(&mut self, path: &PathTemplate, params: &[Param], field: &str) {
        let written = path.as_written();
        let undeclared: Vec<&str> = path
            .params()
            .filter(|n| !params.iter().any(|p| p.name == *n))
            .collect();
        let id_like = |n: &str| n == "id" || n.ends_with("_id");
        for p in params.iter().filter(|p| p.location == ParamIn::Query) {
            let renamed = undeclared.iter().find(|u| {
                u.ends_with(&format!("_{}", p.name)) || p.name.ends_with(&format!("_{u}"))
            });
            let (message, help) = match renamed {
                Some(u) => (
                    format!(
                        "`{}` is not in the path `{written}`, which has `{{{u}}}`: it is sent as a \
                         query parameter",
                        p.name
                    ),
                    format!("rename the parameter `{}` to `{u}`", p.name),
                ),
                None if written.len() > 1 && written.ends_with('/') && id_like(&p.name) => (
                    format!(
                        "`{}` looks like a path parameter, but the path `{written}` has no \
                         `{{{}}}`: it is sent as a query parameter",
                        p.name, p.name
                    ),
                    format!("write the path as `{written}{{{}}}`", p.name),
                ),
                None => continue,
            };
            self.push(
                Diagnostic::new(Code::ParamNotInPath, message)
                    .at(format!("{field}.{}", p.name))
                    .help(help),
            );
        }
    }

    fn param(
        &mut self,
        name: String,
        value: raw::ParamValue,
        table: &str,
        default_in: ParamIn,
    ) -> Option<Param> {
        let field = format!("{table}.{name}");
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
            self.error(&field, format!("`{name}` is not a parameter name"));
            return None;
        }
        match value {
            raw::ParamValue::Compact(text) => {
                let c = match parse_compact(&text) {
                    Ok(c) => c,
                    Err(e) => {
                        self.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                format!("not in compact notation: {e}"),
                            )
                            .at(&field)
                            .help(
                                "write `<type>, required|optional[, constraints] [-- description]`",
                            ),
                        );
                        return None;
                    }
                };
                let kind = c.kind.unwrap_or(ParamType::String);
                let typed = |v: String| crate::values::param::typed_value(kind, v);
                // `in cookie` and `body` are read, but the model has no place for them.
                let location = match c.location.as_deref().map(|l| (l, ParamIn::parse(l))) {
                    None => default_in,
                    Some((_, Some(l))) => l,
                    Some((l, None)) => {
                        self.error(&field, format!("`in {l}` is not a place a service.toml parameter can go (one of {})", ParamIn::NAMES.join(", ")));
                        default_in
                    }
                };
                let schema = c.schema_keywords();
                let param = Param {
                    name,
                    kind,
                    required: c.required || location == ParamIn::Path,
                    location,
                    description: c.description,
                    default: c.default.map(typed),
                    allowed: c.allowed.into_iter().map(typed).collect(),
                    min: c.min,
                    max: c.max,
                    pattern: c.pattern,
                    example: c.example.map(typed),
                    items: c.items.map(|i| i.kind),
                    nullable: false,
                    schema,
                    compact: Some(text),
                    wire_name: c.wire_name,
                };
                if location == ParamIn::Path && !c.required {
                    self.error(&field, "a path parameter is always required");
                }
                self.check_param(&param, &field);
                Some(param)
            }
            raw::ParamValue::Table(t) => {
                let kind = self.required(t.kind, &format!("{field}.type"))?;
                let kind = self.one_of(
                    &kind,
                    &format!("{field}.type"),
                    &ParamType::NAMES,
                    ParamType::parse,
                )?;
                let location = match t.location {
                    Some(l) => {
                        self.one_of(&l, &format!("{field}.in"), &ParamIn::NAMES, ParamIn::parse)?
                    }
                    None => default_in,
                };
                let items = t.items.and_then(|i| {
                    self.one_of(
                        &i,
                        &format!("{field}.items"),
                        &ParamType::NAMES,
                        ParamType::parse,
                    )
                });
                if items.is_some() && kind != ParamType::Array {
                    self.error(format!("{field}.items"), "`items` applies to arrays only");
                }
                let wire_name = self.wire_name(t.wire_name, &name, location, &field);
                let param = Param {
                    name,
                    kind,
                    required: t.required.unwrap_or(location == ParamIn::Path),
                    location,
                    description: t.description,
                    default: t
                        .default
                        .and_then(|v| self.json(v, &format!("{field}.default"))),
                    allowed: t
                        .allowed
                        .unwrap_or_default()
                        .into_iter()
                        .enumerate()
                        .filter_map(|(i, v)| self.json(v, &format!("{field}.enum.{i}")))
                        .collect(),
                    min: t.min,
                    max: t.max,
                    pattern: t.pattern,
                    example: t
                        .example
                        .and_then(|v| self.json(v, &format!("{field}.example"))),
                    items,
                    nullable: t.nullable.unwrap_or(false),
                    schema: t.schema.and_then(|v| {
                        let at = format!("{field}.schema");
                        match self.json(v, &at)? {
                            m @ Value::Object(_) => Some(m),
                            _ => {
                                self.error(at, "`schema` is a table of JSON Schema keywords");
                                None
                            }
                        }
                    }),
                    compact: None,
                    wire_name,
                };
                self.check_param(&param, &field);
                Some(param)
            }
        }
    }

    /// Two parameters that a request would carry under one name in one place: a `wire_name`
    /// that is another parameter's name (or wire name) there.
    fn wire_clashes(&mut self, params: &[Param], field: &str) {
        for (i, p) in params.iter().enumerate() {
            let Some(wire) = &p.wire_name else {
                continue;
            };
            if let Some(other) = params
                .iter()
                .enumerate()
                // A pair of wire names is reported once, at the first of them.
                .find(|(j, o)| {
                    *j != i
                        && (*j > i || o.wire_name.is_none())
                        && o.location == p.location
                        && o.wire() == wire
                })
                .map(|(_, o)| o)
            {
                self.error(
                    format!("{field}.{}.wire_name", p.name),
                    format!(
                        "`{}` and `{}` would both be sent as `{wire}` in the {}",
                        p.name,
                        other.name,
                        p.location.as_str()
                    ),
                );
            }
        }
    }

    /// A parameter's `wire_name`: a name a request can carry, on a parameter that is not in
    /// the path (a placeholder is a path parameter's name). The parameter's own name is no
    /// other name: `None` then.
    fn wire_name(
        &mut self,
        wire: Option<String>,
        name: &str,
        location: ParamIn,
        field: &str,
    ) -> Option<String> {
        let wire = wire?;
        let at = format!("{field}.wire_name");
        if wire.is_empty() || wire.chars().any(|c| c.is_whitespace() || c.is_control()) {
            self.error(at, format!("`{wire}` is not a name a request can carry"));
            return None;
        }
        if location == ParamIn::Path {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    "a path parameter is named by its placeholder: it has no other wire name",
                )
                .at(at)
                .help("rename the parameter and the path's `{placeholder}` together"),
            );
            return None;
        }
        (wire != name).then_some(wire)
    }

    fn check_param(&mut self, p: &Param, field: &str) {
        let numeric = matches!(p.kind, ParamType::Integer | ParamType::Number);
        if (p.min.is_some() || p.max.is_some()) && !numeric {
            self.error(
                field,
                format!(
                    "min and max apply to numbers, not to {}",
                    p.kind.with_article()
                ),
            );
        }
        for (key, bound) in [("min", p.min), ("max", p.max)] {
            if let Some(b) = bound.filter(|b| !b.is_finite()) {
                // A compact parameter has no `.min` key to point at: the string holds it.
                let at = match p.compact {
                    Some(_) => field.to_string(),
                    None => format!("{field}.{key}"),
                };
                self.push(
                    Diagnostic::new(Code::InvalidValue, raw::non_finite_message(b))
                        .at(at)
                        .help(format!("give a finite {key}, or leave it out")),
                );
            }
        }
        if let (Some(lo), Some(hi)) = (p.min, p.max)
            && lo > hi
        {
            self.error(field, format!("min {lo} is greater than max {hi}"));
        }
        if p.pattern.is_some() && p.kind != ParamType::String {
            self.error(
                format!("{field}.pattern"),
                "`pattern` applies to strings only",
            );
        }
        if let Some(pattern) = &p.pattern
            && !crate::text::is_ecma_regex(pattern)
        {
            self.push(
                Diagnostic::new(Code::InvalidValue, format!("`{pattern}` uses regex syntax JSON Schema does not have"))
                    .at(format!("{field}.pattern"))
                    .help("write it as an ECMA-262 regex: no inline flags like (?i), no \\A or \\Z anchors, no POSIX classes like \\p{Alnum}, and a `-` after `\\w` in a class escaped (`[\\w\\- ]`)"),
            );
        }
        let checks = [
            ("default", p.default.as_ref()),
            ("example", p.example.as_ref()),
        ];
        for (key, value) in checks
            .into_iter()
            .chain(p.allowed.iter().map(|v| ("enum", Some(v))))
        {
            if let Some(v) = value
                && !p.kind.admits(v)
            {
                self.error(
                    format!("{field}.{key}"),
                    format!("{v} is not {}", p.kind.with_article()),
                );
            }
        }
        if let Some(d) = &p.default
            && !p.allowed.is_empty()
            && !p.allowed.contains(d)
        {
            self.error(
                format!("{field}.default"),
                format!("the default {d} is not one of the allowed values"),
            );
        }
        if p.required && p.default.is_some() {
            self.push(
                Diagnostic::new(
                    Code::RequiredDefault,
                    "a required parameter with a default: the default never applies",
                )
                .at(format!("{field}.default")),
            );
        }
    }

    fn errors(&mut self, list: Vec<raw::ErrorTable>, field: &str) -> Vec<NamedError> {
        let mut out: Vec<NamedError> = Vec::new();
        for (i, e) in list.into_iter().enumerate() {
            let f = format!("{field}.{i}");
            let Some(name) = self.required(e.name, &format!("{f}.name")) else {
                continue;
            };
            if !is_snake_case(&name) {
                self.error(
                    format!("{f}.name"),
                    format!("`{name}` is not a snake_case error name"),
                );
            }
            if out.iter().any(|o| o.name == name) {
                self.error(
                    format!("{f}.name"),
                    format!("error `{name}` is listed twice"),
                );
            }
            let status = e.status.and_then(|s| {
                if (400..=599).contains(&s) {
                    Some(s as u16)
                } else {
                    self.error(
                        format!("{f}.status"),
                        format!("{s} is not an HTTP error status (400–599)"),
                    );
                    None
                }
            });
            out.push(NamedError {
                name,
                status,
                description: e.description,
            });
        }
        out
    }

    fn semantic(&mut self, s: raw::SemanticTable, field: &str) -> Semantic {
        let f = |k: &str| format!("{field}.{k}");
        if let Some(v) = &s.verb
            && (v.is_empty() || !v.chars().all(|c| c.is_ascii_uppercase()))
        {
            self.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("`{v}` is not an AGIS method: one word in capitals A–Z"),
                )
                .at(f("verb"))
                .help("e.g. FIND, BOOK, RETRIEVE"),
            );
        }
        let actors = ACTORS;
        if let Some(a) = &s.actor {
            self.one_of(a, &f("actor"), &actors, |a| {
                actors.contains(&a).then_some(())
            });
        }
        let classes = CAPABILITY_CLASSES;
        if let Some(c) = &s.capability {
            self.one_of(c, &f("capability"), &classes, |c| {
                classes.contains(&c).then_some(())
            });
        }
        if let Some(c) = s.confidence
            && !(0.0..=1.0).contains(&c)
        {
            self.error(f("confidence"), format!("{c} is not between 0.0 and 1.0"));
        }
        let impact = s
            .impact
            .and_then(|i| self.one_of(&i, &f("impact"), &Impact::NAMES, Impact::parse));
        for key in ["intent", "outcome"] {
            let value = if key == "intent" {
                &s.intent
            } else {
                &s.outcome
            };
            if let Some(v) = value
                && v.chars().count() > 500
            {
                let field = f(key);
                let message = format!(
                    "`{field}` is {} characters long; AGIS caps it at 500",
                    v.chars().count()
                );
                self.error(field, message);
            }
        }
        Semantic {
            verb: s.verb,
            path: s.path,
            intent: s.intent,
            actor: s.actor,
            outcome: s.outcome,
            capability: s.capability,
            confidence: s.confidence,
            impact,
            idempotent: s.idempotent,
            parameter_hints: s.parameter_hints.unwrap_or_default(),
            state_transition: s.state_transition.unwrap_or_default(),
            mcp_tool_name: s.mcp_tool_name,
        }
    }
}

/// A capability's `path`: an absolute path, or an https URL on another host.
fn split_endpoint(text: &str) -> Result<(Option<HttpsUrl>, PathTemplate), String> {
    if text.starts_with('/') {
        return Ok((None, PathTemplate::parse(text)?));
    }
    if !text.contains("://") {
        return Err(format!(
            "`{text}` must start with `/` (or be an https URL on another host)"
        ));
    }
    let after = &text[text.find("://").map_or(0, |i| i + 3)..];
    let split = after
        .find('/')
        .map_or(text.len(), |i| text.len() - after.len() + i);
    let host = HttpsUrl::parse_base(&text[..split])?;
    let path = if split == text.len() {
        "/"
    } else {
        &text[split..]
    };
    Ok((Some(host), PathTemplate::parse(path)?))
}

fn parse_rate_limit(text: &str) -> Option<RateLimit> {
    let (n, period) = text.split_once('/')?;
    let count: u64 = n.parse().ok().filter(|c| *c >= 1 && !n.starts_with('0'))?;
    Some(RateLimit {
        count,
        period: Period::parse(period)?,
    })
}

fn is_cuit(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 3
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && parts[0].len() == 2
        && (7..=8).contains(&parts[1].len())
        && parts[2].len() == 1
}

/// A long run of letters and digits with no word separator: a key, not a header's name
/// (`X-API-Key`, `Ocp-Apim-Subscription-Key`, `apikey`).
fn looks_like_key(s: &str) -> bool {
    s.len() >= 20
        && s.chars().all(|c| c.is_ascii_alphanumeric())
        && s.chars().any(|c| c.is_ascii_digit())
}

fn is_header_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// The `{name}` parts of a template, in order, each once.
fn template_names(template: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = &after[..close];
        if is_template_name(name) && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
        rest = &after[close + 1..];
    }
    names
}

/// A template variable's name, as the Server Card schema's URL pattern has it.
fn is_template_name(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An MCP server name (SEP-2127 `ServerCard.name`): `namespace/name`, 3 to 200 characters.
pub fn is_mcp_name(s: &str) -> bool {
    let Some((namespace, name)) = s.split_once('/') else {
        return false;
    };
    (3..=200).contains(&s.len())
        && !namespace.is_empty()
        && !name.is_empty()
        && namespace
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The site's host reversed (`api.example.com` → `com.example.api`) and the service name as
/// a slug: `com.example.api/weather`. `None` for a host that has no such form (an IP literal).
fn default_mcp_name(site: &HttpsUrl, service: &str) -> Option<String> {
    let host = site.host();
    if host.is_empty()
        || host.starts_with('[')
        || host.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    let namespace: Vec<&str> = host.trim_end_matches('.').split('.').rev().collect();
    // Lower case first: a letter whose lower case is ASCII (the Kelvin sign) stays a letter.
    let slug = crate::text::slug(&service.to_lowercase(), &[]);
    let name = format!(
        "{}/{}",
        namespace.join("."),
        if slug.is_empty() { "server" } else { &slug }
    );
    is_mcp_name(&name).then_some(name)
}

fn is_request_size(s: &str) -> bool {
    let n = s.strip_suffix("kb").or_else(|| s.strip_suffix("mb"));
    n.is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_validators() {
        assert!(is_request_size("10mb") && !is_request_size("10MB") && !is_request_size("mb"));
        assert!(!is_request_size("10kbkb") && !is_request_size("10mbkb"));
        assert_eq!(
            parse_rate_limit("100/minute").unwrap().to_string(),
            "100/minute"
        );
        assert!(parse_rate_limit("0/minute").is_none() && parse_rate_limit("5/minutes").is_none());
        assert!(is_snake_case("a_b1") && !is_snake_case("a__b") && !is_snake_case("A"));
    }

    #[test]
    fn details_are_cut_after_a_sentence_else_at_a_word() {
        assert_eq!(
            cut_details("Short.\n\nText.", 100),
            ("Short.\n\nText.".into(), false)
        );
        let text = format!(
            "{}\n\n{}",
            "One sentence here. ".repeat(4).trim(),
            "word ".repeat(40)
        );
        let (cut, was) = cut_details(&text, 100);
        assert!(was && cut.ends_with("here."), "{cut}");
        let (cut, was) = cut_details(&"word ".repeat(40), 50);
        assert!(
            was && cut.ends_with("word…") && cut.chars().count() <= 50,
            "{cut}"
        );
        let (cut, _) = cut_details(&"é".repeat(80), 50);
        assert_eq!(cut.chars().count(), 50);
        // The half is counted in characters, not bytes: a sentence past half of 100
        // characters of three-byte CJK is kept whole; a full-width stop ends one too.
        let cjk = format!("{}. {}", "字".repeat(60), "字".repeat(100));
        let (cut, was) = cut_details(&cjk, 100);
        assert!(was && cut.chars().count() == 61, "{cut}");
        let cjk = format!("{}。{}", "字".repeat(60), "字".repeat(100));
        let (cut, _) = cut_details(&cjk, 100);
        assert!(cut.ends_with("字。") && cut.chars().count() == 61, "{cut}");
    }

    #[test]
    fn details_are_trimmed_dropped_when_they_repeat_and_cut_with_a_note() {
        let lower_one = |details: &str| {
            let text = format!(
                "[service]\nname = \"S\"\ndescription = \"A service.\"\nbase_url = \"https://s.example\"\n\n\
                 [[capabilities]]\nid = \"find\"\ndescription = \"Find things\"\npath = \"/things\"\ndetails = '''{details}'''\n"
            );
            let mut diags = Diagnostics::default();
            let raw = crate::source::parse_service_toml(&text).unwrap();
            let service = lower(raw, &mut diags).unwrap();
            let codes: Vec<String> = diags.iter().map(|d| d.code.to_string()).collect();
            (service.capabilities[0].details.clone(), codes)
        };
        assert_eq!(lower_one("  Find things \n"), (None, vec![]));
        assert_eq!(lower_one("   "), (None, vec![]));
        assert_eq!(
            lower_one("\n  More about it.\n\nAnd more.\n"),
            (Some("More about it.\n\nAnd more.".into()), vec![])
        );
        let (details, codes) = lower_one(&"Long sentence. ".repeat(200));
        assert!(details.unwrap().chars().count() <= DETAILS_MAX);
        assert_eq!(codes, ["N-details-shortened"]);
    }

    #[test]
    fn endpoints_on_other_hosts_keep_their_origin() {
        let (host, path) = split_endpoint("https://api.github.com/search/repositories").unwrap();
        assert_eq!(host.unwrap().as_str(), "https://api.github.com");
        assert_eq!(path.braces(), "/search/repositories");
        assert!(split_endpoint("api/x").is_err());
        assert!(split_endpoint("http://x.com/a").is_err());
    }
}
