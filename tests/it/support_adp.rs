//! The ADP 1.0 rules, checked on published JSON documents: the tests run them on every build's
//! output, the checked-in goldens and fixtures, and the upstream examples; examples/corpus.rs
//! runs them on a corpus of imported APIs. The back end checks the same rules on what it
//! derives before it renders (src/emit/adp/rules.rs); this checker reads only the JSON, so it
//! can catch what that misses.
//!
//! No JSON Schema exists upstream: the rules are the spec page's "Requirements" list, the
//! README's field tables, and the registry's hand-written validator (`validate.ts`), which is
//! stricter in places. Where they differ the checker takes the intersection that satisfies all
//! three (manifest description 20–200 characters). Each problem is one string,
//! `<field path>: <what is wrong>`, so tests and `wellgen check --dist` can report it as is.

use serde_json::{Map, Value};

const SPEC_VERSION: &str = "1.0";
/// Spec page: 10–200; registry: 20–500. Both hold inside 20–200.
const DESCRIPTION_MIN: usize = 20;
const DESCRIPTION_MAX: usize = 200;
/// Registry: a name of at most 100 characters, after HTML stripping.
const NAME_MAX: usize = 100;
/// Registry: a capability description of at least 10 characters.
const CAPABILITY_DESCRIPTION_MIN: usize = 10;
/// Registry: `detail_url` of at most 2048 characters.
const DETAIL_URL_MAX: usize = 2048;
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const AUTH_TYPES: [&str; 3] = ["none", "api_key", "oauth2"];
const PRICING_TYPES: [&str; 3] = ["free", "freemium", "paid"];
/// The README's parameter types, then `number[]` and `boolean[]`: the same `<type>[]` spelling
/// for arrays of the two scalars the README's list leaves out (see docs/targets/adp.md).
const PARAMETER_TYPES: [&str; 8] = [
    "string",
    "number",
    "boolean",
    "object",
    "string[]",
    "object[]",
    "number[]",
    "boolean[]",
];

const MANIFEST_FIELDS: [&str; 7] = [
    "spec_version",
    "name",
    "description",
    "base_url",
    "auth",
    "pricing",
    "capabilities",
];
const CAPABILITY_FIELDS: [&str; 3] = ["name", "description", "detail_url"];
const DETAIL_FIELDS: [&str; 9] = [
    "name",
    "description",
    "endpoint",
    "method",
    "parameters",
    "request_example",
    "response_example",
    "auth_scopes",
    "rate_limits",
];
const PARAMETER_FIELDS: [&str; 6] = [
    "name",
    "type",
    "description",
    "required",
    "example",
    "default",
];

/// Every rule a `/.well-known/agent` manifest breaks; empty when it is valid.
pub fn check_manifest(doc: &Value) -> Vec<String> {
    let mut out = Problems::default();
    let Some(obj) = doc.as_object() else {
        out.push("(document)", "must be a JSON object");
        return out.0;
    };
    out.unknown_keys(obj, "", &MANIFEST_FIELDS);
    match obj.get("spec_version") {
        Some(Value::String(v)) if v == SPEC_VERSION => {}
        Some(v) => out.push("spec_version", format!("must be \"1.0\", not {v}")),
        None => out.missing("spec_version"),
    }
    if let Some(name) = out.string(obj, "name", "name") {
        let len = visible_len(name);
        if len == 0 {
            out.push("name", "must not be empty (after removing HTML tags)");
        } else if len > NAME_MAX {
            out.push(
                "name",
                format!("is {len} characters; the registry allows at most {NAME_MAX}"),
            );
        }
    }
    if let Some(d) = out.string(obj, "description", "description") {
        let len = visible_len(d);
        if !(DESCRIPTION_MIN..=DESCRIPTION_MAX).contains(&len) {
            out.push("description", description_length_message(len));
        }
    }
    let base_host = out.string(obj, "base_url", "base_url").and_then(|url| {
        let host = match secure_host(url) {
            Ok(host) => Some(host),
            Err(e) => {
                out.push("base_url", e);
                None
            }
        };
        if url.ends_with('/') {
            out.push(
                "base_url",
                "must not end with `/`: agents resolve `base_url + detail_url` by concatenation",
            );
        }
        host
    });
    match obj.get("auth") {
        Some(Value::Object(auth)) => check_auth(auth, &mut out),
        Some(_) => out.push("auth", "must be an object"),
        None => out.missing("auth"),
    }
    match obj.get("pricing") {
        None => {}
        Some(Value::Object(p)) => check_pricing(p, &mut out),
        Some(_) => out.push("pricing", "must be an object"),
    }
    match obj.get("capabilities") {
        Some(Value::Array(caps)) if caps.is_empty() => {
            out.push("capabilities", "must list at least one capability")
        }
        Some(Value::Array(caps)) => check_capabilities(caps, base_host.as_deref(), &mut out),
        Some(_) => out.push("capabilities", "must be an array"),
        None => out.missing("capabilities"),
    }
    out.0
}

/// Every rule a capability detail document breaks; empty when it is valid.
pub fn check_detail(doc: &Value) -> Vec<String> {
    let mut out = Problems::default();
    let Some(obj) = doc.as_object() else {
        out.push("(document)", "must be a JSON object");
        return out.0;
    };
    out.unknown_keys(obj, "", &DETAIL_FIELDS);
    if let Some(name) = out.string(obj, "name", "name")
        && !is_capability_name(name)
    {
        out.push(
            "name",
            format!("`{name}` is not snake_case (^[a-z][a-z0-9_]*$)"),
        );
    }
    if let Some(d) = out.string(obj, "description", "description")
        && d.trim().is_empty()
    {
        out.push("description", "must not be empty");
    }
    if let Some(e) = out.string(obj, "endpoint", "endpoint")
        && !e.starts_with('/')
        && let Err(why) = secure_host(e)
    {
        out.push(
            "endpoint",
            format!("must be a path starting with `/` or an https URL: {why}"),
        );
    }
    let method = out.string(obj, "method", "method");
    if let Some(m) = method
        && !METHODS.contains(&m)
    {
        out.push(
            "method",
            format!("`{m}` is not one of {}", METHODS.join(", ")),
        );
    }
    match obj.get("parameters") {
        Some(Value::Array(params)) => check_parameters(params, &mut out),
        Some(_) => out.push("parameters", "must be an array"),
        None => out.missing("parameters"),
    }
    match obj.get("request_example") {
        Some(Value::Object(r)) => check_request_example(r, method, &mut out),
        Some(_) => out.push("request_example", "must be an object"),
        None => out.missing("request_example"),
    }
    match obj.get("response_example") {
        Some(Value::Object(r)) => {
            out.unknown_keys(r, "response_example.", &["status", "body"]);
            match r.get("status") {
                Some(s) if s.as_u64().is_some_and(|s| (100..=599).contains(&s)) => {}
                Some(s) => out.push(
                    "response_example.status",
                    format!("{s} is not an HTTP status code"),
                ),
                None => out.missing("response_example.status"),
            }
            if !r.contains_key("body") {
                out.missing("response_example.body");
            }
        }
        Some(_) => out.push("response_example", "must be an object"),
        None => out.missing("response_example"),
    }
    if let Some(scopes) = obj.get("auth_scopes") {
        out.strings(scopes, "auth_scopes");
    }
    match obj.get("rate_limits") {
        None => {}
        Some(Value::Object(r)) => {
            let keys = ["requests_per_minute", "daily_limit"];
            out.unknown_keys(r, "rate_limits.", &keys);
            for key in keys {
                if let Some(v) = r.get(key)
                    && v.as_u64().is_none_or(|n| n < 1)
                {
                    out.push(
                        format!("rate_limits.{key}"),
                        format!("{v} is not a positive whole number"),
                    );
                }
            }
        }
        Some(_) => out.push("rate_limits", "must be an object"),
    }
    out.0
}

/// The message for a manifest description outside 20–200 characters.
pub fn description_length_message(len: usize) -> String {
    format!(
        "is {len} characters; ADP needs {DESCRIPTION_MIN}–{DESCRIPTION_MAX} (the spec page requires \
         10–200, the registry at least 20)"
    )
}

/// Characters as the registry counts them: after removing HTML tags and trimming.
fn visible_len(text: &str) -> usize {
    strip_tags(text).trim().chars().count()
}

/// The registry's sanitiser: every `<…>` run removed.
fn strip_tags(text: &str) -> String {
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

/// `^[a-z][a-z0-9_]*$`, the registry's capability name rule.
fn is_capability_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The lowercased host of an https URL that is safe for the registry to fetch.
fn secure_host(url: &str) -> Result<String, String> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(format!("`{url}` is not an absolute https URL"));
    };
    if !scheme.eq_ignore_ascii_case("https") {
        return Err(format!("`{url}` must use https"));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("`{url}` contains white space"));
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
        return Err(format!("`{url}` has no host"));
    }
    if is_private_host(&host) {
        return Err(format!("`{host}` is a local or private address"));
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

fn check_auth(auth: &Map<String, Value>, out: &mut Problems) {
    let Some(kind) = out.string(auth, "type", "auth.type") else {
        return;
    };
    match kind {
        "none" => out.unknown_keys(auth, "auth.", &["type"]),
        "api_key" => {
            out.unknown_keys(auth, "auth.", &["type", "header", "prefix", "setup_url"]);
            match auth.get("header") {
                Some(Value::String(h)) if !h.trim().is_empty() => {}
                Some(_) => out.push("auth.header", "must be a non-empty header name"),
                None => out.missing("auth.header"),
            }
            if let Some(p) = auth.get("prefix")
                && !p.is_string()
            {
                out.push("auth.prefix", "must be a string");
            }
            out.optional_url(auth, "setup_url", "auth.setup_url");
        }
        "oauth2" => {
            out.unknown_keys(
                auth,
                "auth.",
                &["type", "authorization_url", "token_url", "scopes"],
            );
            for key in ["authorization_url", "token_url"] {
                let field = format!("auth.{key}");
                if auth.contains_key(key) {
                    out.optional_url(auth, key, &field);
                } else {
                    out.missing(&field);
                }
            }
            if let Some(scopes) = auth.get("scopes") {
                out.strings(scopes, "auth.scopes");
            }
        }
        other => out.push(
            "auth.type",
            format!("`{other}` is not one of {}", AUTH_TYPES.join(", ")),
        ),
    }
}

fn check_pricing(p: &Map<String, Value>, out: &mut Problems) {
    out.unknown_keys(p, "pricing.", &["type", "plans", "plans_url"]);
    if let Some(kind) = out.string(p, "type", "pricing.type")
        && !PRICING_TYPES.contains(&kind)
    {
        out.push(
            "pricing.type",
            format!("`{kind}` is not one of {}", PRICING_TYPES.join(", ")),
        );
    }
    match p.get("plans") {
        None => {}
        Some(Value::Array(plans)) => {
            for (i, plan) in plans.iter().enumerate() {
                let field = format!("pricing.plans[{i}]");
                let Some(plan) = plan.as_object() else {
                    out.push(field, "must be an object");
                    continue;
                };
                out.unknown_keys(plan, &format!("{field}."), &["name", "price", "limits"]);
                out.string(plan, "name", &format!("{field}.name"));
                for key in ["price", "limits"] {
                    if plan.get(key).is_some_and(|v| !v.is_string()) {
                        out.push(format!("{field}.{key}"), "must be a string");
                    }
                }
            }
        }
        Some(_) => out.push("pricing.plans", "must be an array"),
    }
    out.optional_url(p, "plans_url", "pricing.plans_url");
}

fn check_capabilities(caps: &[Value], base_host: Option<&str>, out: &mut Problems) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, cap) in caps.iter().enumerate() {
        let field = |k: &str| format!("capabilities[{i}].{k}");
        let Some(cap) = cap.as_object() else {
            out.push(format!("capabilities[{i}]"), "must be an object");
            continue;
        };
        out.unknown_keys(cap, &format!("capabilities[{i}]."), &CAPABILITY_FIELDS);
        if let Some(name) = out.string(cap, "name", &field("name")) {
            if !is_capability_name(name) {
                out.push(
                    field("name"),
                    format!("`{name}` is not snake_case (^[a-z][a-z0-9_]*$)"),
                );
            }
            if seen.contains(&name) {
                out.push(
                    field("name"),
                    format!("`{name}` is used by an earlier capability"),
                );
            }
            seen.push(name);
        }
        if let Some(d) = out.string(cap, "description", &field("description")) {
            let len = visible_len(d);
            if len < CAPABILITY_DESCRIPTION_MIN {
                out.push(
                    field("description"),
                    format!(
                        "is {len} characters; the registry needs at least {CAPABILITY_DESCRIPTION_MIN}"
                    ),
                );
            }
        }
        if let Some(url) = out.string(cap, "detail_url", &field("detail_url"))
            && let Err(why) = check_detail_url(url, base_host)
        {
            out.push(field("detail_url"), why);
        }
    }
}

/// The registry's `isValidDetailUrl`: a path from the root, or https on base_url's host or a
/// subdomain of it.
fn check_detail_url(url: &str, base_host: Option<&str>) -> Result<(), String> {
    let len = url.chars().count();
    if len > DETAIL_URL_MAX {
        return Err(format!(
            "is {len} characters; the limit is {DETAIL_URL_MAX}"
        ));
    }
    if url.starts_with('/') {
        return Ok(());
    }
    let lower = url.to_ascii_lowercase();
    if ["javascript:", "data:", "ftp:", "file:"]
        .iter()
        .any(|s| lower.starts_with(s))
    {
        return Err(format!("`{url}` uses a forbidden scheme"));
    }
    if !url.contains("://") {
        return Err(format!(
            "`{url}` must start with `/` (agents concatenate it to base_url) or be an https URL"
        ));
    }
    let host = secure_host(url)?;
    match base_host {
        Some(base) if host != base && !host.ends_with(&format!(".{base}")) => Err(format!(
            "`{host}` is neither base_url's host `{base}` nor a subdomain of it"
        )),
        _ => Ok(()),
    }
}

fn check_parameters(params: &[Value], out: &mut Problems) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let field = |k: &str| format!("parameters[{i}].{k}");
        let Some(p) = p.as_object() else {
            out.push(format!("parameters[{i}]"), "must be an object");
            continue;
        };
        out.unknown_keys(p, &format!("parameters[{i}]."), &PARAMETER_FIELDS);
        if let Some(name) = out.string(p, "name", &field("name")) {
            if name.is_empty() {
                out.push(field("name"), "must not be empty");
            } else if seen.contains(&name) {
                out.push(field("name"), format!("`{name}` is listed twice"));
            }
            seen.push(name);
        }
        let kind = out.string(p, "type", &field("type"));
        if let Some(k) = kind
            && !PARAMETER_TYPES.contains(&k)
        {
            out.push(
                field("type"),
                format!("`{k}` is not one of {}", PARAMETER_TYPES.join(", ")),
            );
        }
        out.string(p, "description", &field("description"));
        match p.get("required") {
            Some(Value::Bool(_)) => {}
            Some(_) => out.push(field("required"), "must be true or false"),
            None => out.missing(&field("required")),
        }
        if !p.contains_key("example") {
            out.missing(&field("example"));
        }
        for key in ["example", "default"] {
            if let (Some(k), Some(v)) = (kind, p.get(key))
                && PARAMETER_TYPES.contains(&k)
                && !admits(k, v)
            {
                let kind = wellgen::values::param::with_article(k);
                out.push(field(key), format!("{v} is not {kind}"));
            }
        }
    }
}

/// Whether a JSON value has an ADP parameter type.
fn admits(kind: &str, v: &Value) -> bool {
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

fn check_request_example(r: &Map<String, Value>, method: Option<&str>, out: &mut Problems) {
    out.unknown_keys(r, "request_example.", &["method", "url", "headers", "body"]);
    if let Some(m) = out.string(r, "method", "request_example.method")
        && let Some(expected) = method
        && m != expected
    {
        out.push(
            "request_example.method",
            format!("`{m}` differs from the capability's method `{expected}`"),
        );
    }
    if let Some(url) = out.string(r, "url", "request_example.url") {
        if let Err(why) = secure_host(url) {
            out.push("request_example.url", why);
        } else if url.contains(['{', '}']) {
            out.push(
                "request_example.url",
                "still holds a `{param}` placeholder: a complete example fills it in",
            );
        }
    }
    match r.get("headers") {
        None => {}
        Some(Value::Object(h)) => {
            for (name, v) in h {
                if !v.is_string() {
                    out.push(
                        format!("request_example.headers.{name}"),
                        "must be a string",
                    );
                }
            }
        }
        Some(_) => out.push("request_example.headers", "must be an object"),
    }
}

#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn push(&mut self, field: impl AsRef<str>, message: impl AsRef<str>) {
        self.0
            .push(format!("{}: {}", field.as_ref(), message.as_ref()));
    }

    fn missing(&mut self, field: &str) {
        self.push(field, "is required");
    }

    /// The string at `key`, reporting it when absent or not a string.
    fn string<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<&'v str> {
        match obj.get(key) {
            Some(Value::String(s)) => Some(s),
            Some(_) => {
                self.push(field, "must be a string");
                None
            }
            None => {
                self.missing(field);
                None
            }
        }
    }

    fn strings(&mut self, v: &Value, field: &str) {
        match v.as_array() {
            Some(a) if a.iter().all(Value::is_string) => {}
            _ => self.push(field, "must be an array of strings"),
        }
    }

    fn optional_url(&mut self, obj: &Map<String, Value>, key: &str, field: &str) {
        match obj.get(key) {
            None => {}
            Some(Value::String(url)) => {
                if let Err(why) = secure_host(url) {
                    self.push(field, why);
                }
            }
            Some(_) => self.push(field, "must be a string"),
        }
    }

    /// ADP defines no other fields; the registry ignores extra ones, wellgen emits none.
    fn unknown_keys(&mut self, obj: &Map<String, Value>, prefix: &str, known: &[&str]) {
        for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
            self.push(format!("{prefix}{key}"), "is not an ADP 1.0 field");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_stripped_like_the_registry_does() {
        assert_eq!(strip_tags("<b>Bold</b> move"), "Bold move");
        assert_eq!(strip_tags("a < b"), "a < b");
        assert_eq!(visible_len("  <p>twelve chars</p> "), 12);
    }

    #[test]
    fn hosts_are_checked_for_https_and_privacy() {
        assert_eq!(
            secure_host("https://API.Example.com:8443/x").unwrap(),
            "api.example.com"
        );
        for bad in [
            "http://example.com",
            "https://localhost/x",
            "https://127.0.0.1",
            "https://10.1.2.3",
            "https://172.20.0.1",
            "https://192.168.1.1",
            "https://169.254.1.1",
            "https://[::1]/",
            "example.com",
        ] {
            assert!(secure_host(bad).is_err(), "{bad}");
        }
        assert!(secure_host("https://172.32.0.1").is_ok());
    }

    #[test]
    fn detail_urls_follow_the_registry() {
        let base = Some("api.example.com");
        assert!(check_detail_url("/capabilities/x", base).is_ok());
        assert!(check_detail_url("https://api.example.com/c/x", base).is_ok());
        assert!(check_detail_url("https://docs.api.example.com/c/x", base).is_ok());
        assert!(check_detail_url("capabilities/x", base).is_err());
        assert!(check_detail_url("https://example.com/c/x", base).is_err());
        assert!(check_detail_url("https://evilapi.example.com/c/x", base).is_err());
        assert!(check_detail_url("javascript:alert(1)", base).is_err());
        let long = format!("/{}", "a".repeat(2048));
        assert!(check_detail_url(&long, base).is_err());
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
