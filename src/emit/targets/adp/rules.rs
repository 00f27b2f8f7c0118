//! The ADP 1.0 rules, checked by `lower` on what the back end derives, so the documents
//! `render` writes cannot break them: each broken rule is an error at the service.toml field
//! behind it, known where it is found.
//!
//! No JSON Schema exists upstream: the rules are the spec page's "Requirements" list, the
//! README's field tables, and the registry's hand-written validator (`validate.ts`), which is
//! stricter in places. Where they differ the back end takes the intersection that satisfies all
//! three (manifest description 20–200 characters). The views' types already settle the rest:
//! field names, JSON types, `spec_version`, the method and auth type words, the parameter type
//! words, the example request's method. The same rules, read off the published JSON alone, are
//! the tests' checker (tests/it/support_adp.rs).

use serde_json::Value;

use super::{Detail, Manifest};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Capability, Service};
use crate::values::param::with_article;

pub const SPEC_VERSION: &str = "1.0";
/// Spec page: 10–200; registry: 20–500. Both hold inside 20–200.
pub const DESCRIPTION_MIN: usize = 20;
pub const DESCRIPTION_MAX: usize = 200;
/// Registry: a name of at most 100 characters, after HTML stripping.
pub const NAME_MAX: usize = 100;
/// Registry: a capability description of at least 10 characters.
pub const CAPABILITY_DESCRIPTION_MIN: usize = 10;
/// Registry: `detail_url` of at most 2048 characters.
pub const DETAIL_URL_MAX: usize = 2048;
pub const PRICING_TYPES: [&str; 3] = ["free", "freemium", "paid"];

/// Why the registry would not accept a URL.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// On localhost or a private network: the publication checks (`crate::check`) refuse
    /// those unless a staging build allows them (`--allow-local`), so it is not ADP's to report.
    Local,
    /// An absolute detail_url on neither base_url's host nor a subdomain of it: warned about on
    /// `service.site_url` (agents follow such links; only the registry refuses them).
    Foreign,
    /// Anything else, in words.
    Invalid(String),
}

/// Reports a broken rule: `path` is the field in the ADP document, `field` the service.toml
/// field behind it.
fn broken(diags: &mut Diagnostics, field: impl Into<String>, path: &str, problem: &str) {
    diags.push(
        Diagnostic::new(
            Code::AdpRule,
            format!("the ADP document would break ADP's rules: {path}: {problem}"),
        )
        .at(field)
        .help("change this value so the published document is valid"),
    );
}

/// An https URL the registry fetches; `Local` is left to the publication checks.
fn check_url(diags: &mut Diagnostics, field: &str, path: &str, url: &str) {
    if let Err(Refusal::Invalid(why)) = secure_host(url) {
        broken(diags, field, path, &why);
    }
}

/// The manifest's rules, in the order the registry's validator reads its fields.
pub fn check_manifest(service: &Service, m: &Manifest, diags: &mut Diagnostics) {
    let len = visible_len(&m.name);
    if len == 0 {
        let problem = "must not be empty (after removing HTML tags)";
        broken(diags, "service.name", "name", problem);
    } else if len > NAME_MAX {
        let problem = format!("is {len} characters; the registry allows at most {NAME_MAX}");
        broken(diags, "service.name", "name", &problem);
    }
    let len = visible_len(&m.description);
    if !(DESCRIPTION_MIN..=DESCRIPTION_MAX).contains(&len) {
        let problem = description_length_message(len);
        broken(diags, "service.description", "description", &problem);
    }
    // `base_url` is an origin, so it never ends with `/`.
    let base_host = match secure_host(&m.base_url) {
        Ok(host) => Some(host),
        Err(Refusal::Invalid(why)) => {
            broken(diags, "service.base_url", "base_url", &why);
            None
        }
        Err(_) => None,
    };
    if let Some(header) = &m.auth.header
        && header.trim().is_empty()
    {
        broken(
            diags,
            "auth",
            "auth.header",
            "must be a non-empty header name",
        );
    }
    for (key, url) in [
        ("setup_url", m.auth.setup_url),
        ("authorization_url", m.auth.authorization_url),
        ("token_url", m.auth.token_url),
    ] {
        if let Some(url) = url {
            check_url(diags, "auth", &format!("auth.{key}"), url);
        }
    }
    if let Some(p) = &m.pricing {
        if !PRICING_TYPES.contains(&p.kind) {
            let problem = format!("`{}` is not one of {}", p.kind, PRICING_TYPES.join(", "));
            broken(diags, "pricing", "pricing.type", &problem);
        }
        if let Some(url) = p.plans_url {
            check_url(diags, "pricing", "pricing.plans_url", url);
        }
    }
    if m.capabilities.is_empty() {
        let problem = "must list at least one capability";
        broken(diags, "capabilities", "capabilities", problem);
    }
    // A set: a large API has thousands of capabilities.
    let mut seen: foldhash::HashSet<&str> = Default::default();
    for (i, (cap, c)) in m.capabilities.iter().zip(&service.capabilities).enumerate() {
        let path = |key: &str| format!("capabilities[{i}].{key}");
        if !is_capability_name(cap.name) {
            let problem = format!("`{}` is not snake_case (^[a-z][a-z0-9_]*$)", cap.name);
            broken(diags, c.field("id"), &path("name"), &problem);
        }
        if !seen.insert(cap.name) {
            let problem = format!("`{}` is used by an earlier capability", cap.name);
            broken(diags, c.field("id"), &path("name"), &problem);
        }
        let len = visible_len(&cap.description);
        if len < CAPABILITY_DESCRIPTION_MIN {
            let problem = format!(
                "is {len} characters; the registry needs at least {CAPABILITY_DESCRIPTION_MIN}"
            );
            broken(
                diags,
                c.field("description"),
                &path("description"),
                &problem,
            );
        }
        if let Err(Refusal::Invalid(why)) = check_detail_url(&cap.detail_url, base_host.as_deref())
        {
            // An absolute detail_url is on site_url; a relative one is made of the id.
            let field = if service.site_url != service.base_url.origin() {
                "service.site_url".to_string()
            } else {
                c.field("id")
            };
            broken(diags, field, &path("detail_url"), &why);
        }
    }
}

/// A capability detail document's rules, in the order the registry's validator reads its fields.
pub fn check_detail(c: &Capability, d: &Detail, diags: &mut Diagnostics) {
    if !is_capability_name(d.name) {
        let problem = format!("`{}` is not snake_case (^[a-z][a-z0-9_]*$)", d.name);
        broken(diags, c.field("id"), "name", &problem);
    }
    if d.description.trim().is_empty() {
        broken(
            diags,
            c.field("description"),
            "description",
            "must not be empty",
        );
    }
    if !d.endpoint.starts_with('/')
        && let Err(Refusal::Invalid(why)) = secure_host(&d.endpoint)
    {
        let problem = format!("must be a path starting with `/` or an https URL: {why}");
        broken(diags, c.field("path"), "endpoint", &problem);
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, (p, view)) in c.params.iter().zip(&d.parameters).enumerate() {
        let field = || format!("{}.{}", c.field("params"), p.name);
        let path = |key: &str| format!("parameters[{i}].{key}");
        let name = view.name.as_str();
        if name.is_empty() {
            broken(diags, field(), &path("name"), "must not be empty");
        } else if seen.contains(&name) {
            broken(
                diags,
                field(),
                &path("name"),
                &format!("`{name}` is listed twice"),
            );
        }
        seen.push(name);
        for (key, value) in [
            ("example", Some(&view.example)),
            ("default", view.default.as_ref()),
        ] {
            if let Some(v) = value
                && !admits(view.kind, v)
            {
                let problem = format!("{v} is not {}", with_article(view.kind));
                broken(diags, field(), &path(key), &problem);
            }
        }
    }
    let url = &d.request_example.url;
    match secure_host(url) {
        Err(Refusal::Invalid(why)) => broken(diags, c.field("path"), "request_example.url", &why),
        Ok(_) if url.contains(['{', '}']) => broken(
            diags,
            c.field("path"),
            "request_example.url",
            "still holds a `{param}` placeholder: a complete example fills it in",
        ),
        _ => {}
    }
    let status = d.response_example.status;
    if !(100..=599).contains(&status) {
        let problem = format!("{status} is not an HTTP status code");
        broken(
            diags,
            c.field("example"),
            "response_example.status",
            &problem,
        );
    }
    if let Some(r) = &d.rate_limits {
        for (key, v) in [
            ("requests_per_minute", r.requests_per_minute),
            ("daily_limit", r.daily_limit),
        ] {
            if v == Some(0) {
                let path = format!("rate_limits.{key}");
                broken(
                    diags,
                    c.field("rate_limit"),
                    &path,
                    "0 is not a positive whole number",
                );
            }
        }
    }
}

/// The message for a manifest description outside 20–200 characters.
pub fn description_length_message(len: usize) -> String {
    format!(
        "is {len} characters; ADP needs {DESCRIPTION_MIN}–{DESCRIPTION_MAX} (the spec page requires \
         10–200, the registry at least 20)"
    )
}

/// Characters as the registry counts them: after removing HTML tags and trimming.
pub fn visible_len(text: &str) -> usize {
    strip_tags(text).trim().chars().count()
}

/// The registry's sanitiser: every `<…>` run removed.
pub fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        match rest[open..].find('>') {
            Some(close) => {
                out.push_str(&rest[..open]);
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// The first `<…>` run `strip_tags` removes from `text` (empty when there is none).
pub fn first_tag_like(text: &str) -> String {
    text.find('<')
        .and_then(|open| Some(&text[open..=open + text[open..].find('>')?]))
        .unwrap_or_default()
        .to_string()
}

/// `^[a-z][a-z0-9_]*$`, the registry's capability name rule.
fn is_capability_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The lowercased host of an https URL that is safe for the registry to fetch.
pub fn secure_host(url: &str) -> Result<String, Refusal> {
    let invalid = |why: String| Err(Refusal::Invalid(why));
    let Some((scheme, rest)) = url.split_once("://") else {
        return invalid(format!("`{url}` is not an absolute https URL"));
    };
    if !scheme.eq_ignore_ascii_case("https") {
        return invalid(format!("`{url}` must use https"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return invalid(format!("`{url}` contains white space"));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if authority.starts_with('[') {
        authority
            .find(']')
            .map_or(authority, |end| &authority[..=end])
    } else {
        authority.split(':').next().unwrap_or_default()
    };
    let host = host.to_ascii_lowercase();
    if host.is_empty() {
        return invalid(format!("`{url}` has no host"));
    }
    if is_private_host(&host) {
        return Err(Refusal::Local);
    }
    Ok(host)
}

fn is_private_host(host: &str) -> bool {
    if matches!(host, "localhost" | "[::1]" | "::1" | "0.0.0.0") {
        return true;
    }
    let octets: Vec<u8> = host.split('.').filter_map(|p| p.parse().ok()).collect();
    if octets.len() != 4 || host.split('.').count() != 4 {
        return false;
    }
    matches!(
        (octets[0], octets[1]),
        (10, _) | (127, _) | (192, 168) | (169, 254)
    ) || (octets[0] == 172 && (16..=31).contains(&octets[1]))
}

/// The registry's `isValidDetailUrl`: a path from the root, or https on base_url's host or a
/// subdomain of it.
fn check_detail_url(url: &str, base_host: Option<&str>) -> Result<(), Refusal> {
    let len = url.chars().count();
    if len > DETAIL_URL_MAX {
        return Err(Refusal::Invalid(format!(
            "is {len} characters; the limit is {DETAIL_URL_MAX}"
        )));
    }
    if url.starts_with('/') {
        return Ok(());
    }
    // wellgen writes a path or an https URL on site_url (see `detail_origin`): the registry's
    // refusal of other schemes never applies.
    let host = secure_host(url)?;
    match base_host {
        Some(base) if host != base && !host.ends_with(&format!(".{base}")) => Err(Refusal::Foreign),
        _ => Ok(()),
    }
}

/// Whether a JSON value has an ADP parameter type.
pub fn admits(kind: &str, v: &Value) -> bool {
    let scalar = |k: &str, v: &Value| match k {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        _ => false,
    };
    match kind.strip_suffix("[]") {
        Some(item) => v
            .as_array()
            .is_some_and(|a| a.iter().all(|e| scalar(item, e))),
        None => scalar(kind, v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_stripped_like_the_registry_does() {
        assert_eq!(strip_tags("<b>Bold</b> move"), "Bold move");
        assert_eq!(strip_tags("a < b"), "a < b");
        assert_eq!(first_tag_like("a < b, <id> and <x>"), "< b, <id>");
        assert_eq!(first_tag_like("a < b"), "");
        assert_eq!(visible_len("  <p>twelve chars</p> "), 12);
    }

    #[test]
    fn hosts_are_checked_for_https_and_privacy() {
        assert_eq!(
            secure_host("https://API.Example.com:8443/x"),
            Ok("api.example.com".to_string())
        );
        for local in [
            "https://localhost/x",
            "https://127.0.0.1",
            "https://10.1.2.3",
            "https://172.20.0.1",
            "https://192.168.1.1",
            "https://169.254.1.1",
            "https://[::1]/",
        ] {
            assert_eq!(secure_host(local), Err(Refusal::Local), "{local}");
        }
        for bad in [
            "http://example.com",
            "example.com",
            "https://a b.example",
            "https:///x",
        ] {
            assert!(
                matches!(secure_host(bad), Err(Refusal::Invalid(_))),
                "{bad}"
            );
        }
        assert!(secure_host("https://172.32.0.1").is_ok());
    }

    #[test]
    fn detail_urls_follow_the_registry() {
        let base = Some("api.example.com");
        assert!(check_detail_url("/api/capabilities/x", base).is_ok());
        assert!(check_detail_url("https://api.example.com/c/x", base).is_ok());
        assert!(check_detail_url("https://docs.api.example.com/c/x", base).is_ok());
        for foreign in ["https://example.com/c/x", "https://evilapi.example.com/c/x"] {
            assert_eq!(
                check_detail_url(foreign, base),
                Err(Refusal::Foreign),
                "{foreign}"
            );
        }
        assert_eq!(
            check_detail_url("https://10.0.0.1/c/x", base),
            Err(Refusal::Local)
        );
        let long = format!("https://api.example.com/{}", "a".repeat(2048));
        assert!(matches!(
            check_detail_url(&long, base),
            Err(Refusal::Invalid(_))
        ));
    }

    #[test]
    fn parameter_types_admit_matching_values() {
        assert!(admits("string[]", &serde_json::json!(["a"])));
        assert!(!admits("string[]", &serde_json::json!([1])));
        assert!(admits("number", &serde_json::json!(1.5)));
        assert!(admits("object[]", &serde_json::json!([{}])));
        assert!(!admits("integer", &serde_json::json!(1)));
    }
}
