//! A `_redirects` file read the way Netlify reads it: `from [key=value …] to [status][!]`, the
//! first matching rule wins, a rule does not apply where a file exists unless forced with `!`,
//! and `key=value` pairs after the path match the query string (`:name` values capture).
//! Cloudflare Pages reads the same lines its own way (no query conditions, no `!`, 302 by
//! default: `super::cloudflare::rules`, which the preview of Pages uses); `cloudflare_limits`
//! says what it would reject.

use std::collections::BTreeMap;

use crate::emit::hosts::pattern::{Captures, Pattern, substitute};

/// Cloudflare Pages' limits on `_redirects`.
pub const MAX_STATIC: usize = 2000;
pub const MAX_DYNAMIC: usize = 100;
pub const MAX_LINE: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedirectRule {
    pub from: Pattern,
    /// Query parameters the request must carry: a literal value, or `:name` to capture any.
    pub query: Vec<(String, String)>,
    pub to: String,
    pub status: u16,
    pub force: bool,
    pub line: usize,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct RedirectsFile {
    pub rules: Vec<RedirectRule>,
    pub problems: Vec<String>,
}

/// Where a request goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub to: String,
    pub status: u16,
    pub line: usize,
}

impl RedirectsFile {
    pub fn parse(text: &str) -> Self {
        let mut file = Self::default();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.split_once(" #").map_or(line, |(rule, _)| rule).trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match parse_rule(line, n) {
                Ok(rule) => file.rules.push(rule),
                Err(e) => file.problems.push(format!("_redirects:{n}: {e}")),
            }
        }
        file
    }

    /// The first rule that applies to `path?query`. `exists` says whether a file is published
    /// at a path: an unforced rule does not shadow it.
    pub fn resolve(
        &self,
        path: &str,
        query: &[(String, String)],
        exists: impl Fn(&str) -> bool,
    ) -> Option<Resolved> {
        self.rules.iter().find_map(|rule| {
            let mut captures = rule.from.matches(path)?;
            if !query_matches(&rule.query, query, &mut captures) {
                return None;
            }
            if !rule.force && exists(path) {
                return None;
            }
            Some(Resolved {
                to: substitute(&rule.to, &captures),
                status: rule.status,
                line: rule.line,
            })
        })
    }

    /// What Cloudflare Pages would reject in this file.
    pub fn cloudflare_limits(&self, text: &str) -> Vec<String> {
        let mut problems = Vec::new();
        let dynamic = self.rules.iter().filter(|r| r.from.is_dynamic()).count();
        let fixed = self.rules.len() - dynamic;
        if fixed > MAX_STATIC {
            problems.push(format!(
                "{fixed} static redirects: Cloudflare Pages accepts at most {MAX_STATIC}"
            ));
        }
        if dynamic > MAX_DYNAMIC {
            problems.push(format!(
                "{dynamic} dynamic redirects: Cloudflare Pages accepts at most {MAX_DYNAMIC}"
            ));
        }
        for (i, line) in text.lines().enumerate() {
            if line.chars().count() > MAX_LINE {
                problems.push(format!(
                    "_redirects:{}: longer than Cloudflare's {MAX_LINE} characters",
                    i + 1
                ));
            }
        }
        problems
    }
}

fn parse_rule(line: &str, n: usize) -> Result<RedirectRule, String> {
    let mut words = line.split_whitespace();
    let from = words.next().ok_or("an empty rule")?;
    let mut query = Vec::new();
    let mut to = None;
    for word in words.by_ref() {
        if word.starts_with('/') || word.contains("://") {
            to = Some(word);
            break;
        }
        match word.split_once('=') {
            Some((k, v)) if !k.is_empty() => query.push((k.to_string(), v.to_string())),
            _ => {
                return Err(format!(
                    "`{word}` is neither a query condition nor a destination"
                ));
            }
        }
    }
    let to = to.ok_or_else(|| format!("`{line}` has no destination"))?;
    let (status, force) = match words.next() {
        None => (301, false),
        Some(word) => {
            let (digits, force) = match word.strip_suffix('!') {
                Some(d) => (d, true),
                None => (word, false),
            };
            let status: u16 = digits
                .parse()
                .ok()
                .filter(|s| (200..600).contains(s))
                .ok_or_else(|| format!("`{word}` is not a status code"))?;
            (status, force)
        }
    };
    if let Some(extra) = words.next() {
        return Err(format!(
            "`{extra}`: conditions (country, language, role) are not previewed"
        ));
    }
    Ok(RedirectRule {
        from: Pattern::parse(from),
        query,
        to: to.to_string(),
        status,
        force,
        line: n,
    })
}

fn query_matches(
    wanted: &[(String, String)],
    query: &[(String, String)],
    captures: &mut Captures,
) -> bool {
    let given: BTreeMap<&str, &str> = query
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    wanted.iter().all(|(key, value)| {
        let Some(actual) = given.get(key.as_str()) else {
            return false;
        };
        match value.strip_prefix(':').filter(|name| !name.is_empty()) {
            Some(name) => {
                captures.insert(name.to_string(), actual.to_string());
                true
            }
            None => value == actual,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    const TEXT: &str = "# BEGIN wellgen\n\
        /api/discovery format=openapi /api/discovery.openapi.json 200!\n\
        # END wellgen\n\
        /old/:id  /new/:id\n\
        /docs/*   /guide/:splat  302\n\
        /search q=:term /find/:term 200 # a comment\n\
        /*  /index.html  200\n";

    #[test]
    fn parses_status_force_and_query_conditions() {
        let f = RedirectsFile::parse(TEXT);
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let r = &f.rules[0];
        assert_eq!(r.query, q(&[("format", "openapi")]));
        assert_eq!((r.status, r.force, r.line), (200, true, 2));
        assert_eq!((f.rules[1].status, f.rules[1].force), (301, false));
    }

    #[test]
    fn the_first_match_wins_and_files_shadow_unforced_rules() {
        let f = RedirectsFile::parse(TEXT);
        let exists = |p: &str| p == "/api/discovery" || p == "/about";
        let r = f
            .resolve(
                "/api/discovery",
                &q(&[("format", "openapi"), ("x", "1")]),
                exists,
            )
            .unwrap();
        assert_eq!(
            (r.to.as_str(), r.status),
            ("/api/discovery.openapi.json", 200)
        );
        // Without the query the forced rule does not match, and the file shadows the catch-all.
        assert_eq!(f.resolve("/api/discovery", &[], exists), None);
        assert_eq!(
            f.resolve("/api/discovery", &q(&[("format", "yaml")]), exists),
            None
        );
        assert_eq!(f.resolve("/about", &[], exists), None);
        assert_eq!(f.resolve("/old/7", &[], exists).unwrap().to, "/new/7");
        let docs = f.resolve("/docs/a/b", &[], exists).unwrap();
        assert_eq!((docs.to.as_str(), docs.status), ("/guide/a/b", 302));
        assert_eq!(
            f.resolve("/search", &q(&[("q", "tea")]), exists)
                .unwrap()
                .to,
            "/find/tea"
        );
        assert_eq!(
            f.resolve("/missing", &[], exists).unwrap().to,
            "/index.html"
        );
    }

    #[test]
    fn a_bare_colon_in_a_query_condition_is_a_literal_value() {
        let f = RedirectsFile::parse("/s q=: /found 200\n");
        let none = |_: &str| false;
        assert_eq!(
            f.resolve("/s", &q(&[("q", ":")]), none).unwrap().to,
            "/found"
        );
        assert_eq!(f.resolve("/s", &q(&[("q", "x")]), none), None);
    }

    #[test]
    fn bad_lines_are_reported_and_cloudflare_limits_counted() {
        let f = RedirectsFile::parse("/a\n/b /c abc\n/d /e 301 Country=us\n/f nope /g\n");
        assert_eq!(f.rules.len(), 0);
        assert_eq!(f.problems.len(), 4, "{:?}", f.problems);
        assert!(f.problems[0].starts_with("_redirects:1:"));
        let many: String = (0..101).map(|i| format!("/d{i}/* /x 301\n")).collect();
        let f = RedirectsFile::parse(&many);
        assert_eq!(
            f.cloudflare_limits(&many),
            vec!["101 dynamic redirects: Cloudflare Pages accepts at most 100"]
        );
        let f = RedirectsFile::parse(TEXT);
        assert!(f.cloudflare_limits(TEXT).is_empty());
    }
}
