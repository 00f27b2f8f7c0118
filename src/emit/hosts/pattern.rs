//! The path patterns of `_headers` and `_redirects`: literal segments, `:name` placeholders
//! (one segment) and a `*` splat (the rest of the path, available as `:splat`).

use std::collections::BTreeMap;

/// A parsed path pattern such as `/api/:version/*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    text: String,
    segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Placeholder(String),
    /// `*` at the end of a segment, after an optional literal prefix (`/blog*`, `/blog/*`).
    Splat(String),
}

/// What a match captured: placeholders by name, the splat as `splat`.
pub type Captures = BTreeMap<String, String>;

impl Pattern {
    pub fn parse(text: &str) -> Self {
        let segments = text
            .trim_start_matches('/')
            .split('/')
            .map(|s| {
                if let Some(prefix) = s.strip_suffix('*') {
                    Segment::Splat(prefix.to_string())
                } else if let Some(name) = s.strip_prefix(':').filter(|n| !n.is_empty()) {
                    Segment::Placeholder(name.to_string())
                } else {
                    Segment::Literal(s.to_string())
                }
            })
            .collect();
        Self {
            text: text.to_string(),
            segments,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the pattern has placeholders or a splat (a "dynamic" rule for Cloudflare).
    pub fn is_dynamic(&self) -> bool {
        self.segments
            .iter()
            .any(|s| !matches!(s, Segment::Literal(_)))
    }

    /// Matches a decoded URL path (without query), returning the captures.
    pub fn matches(&self, path: &str) -> Option<Captures> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut captures = Captures::new();
        for (i, segment) in self.segments.iter().enumerate() {
            match segment {
                Segment::Splat(prefix) => {
                    let rest = parts.get(i..).map(|p| p.join("/")).unwrap_or_default();
                    let splat = rest.strip_prefix(prefix.as_str())?;
                    captures.insert("splat".into(), splat.to_string());
                    return Some(captures);
                }
                Segment::Literal(text) => {
                    if parts.get(i) != Some(&text.as_str()) {
                        return None;
                    }
                }
                Segment::Placeholder(name) => {
                    let part = parts.get(i).filter(|p| !p.is_empty())?;
                    captures.insert(name.clone(), part.to_string());
                }
            }
        }
        // A trailing slash is the same path to Netlify (Cloudflare's paths match whole:
        // `super::cloudflare::rules`).
        let extra = &parts[self.segments.len().min(parts.len())..];
        (parts.len() >= self.segments.len()
            && extra.iter().all(|p| p.is_empty())
            && extra.len() <= 1)
            .then_some(captures)
    }
}

/// Replaces `:name` (and `:splat`) in a destination with what the match captured, in one pass:
/// a captured value is never searched again (it comes from the request, and re-expanding it
/// could multiply its size once per placeholder). The longest name wins, so `:id` does not eat
/// the start of `:identity`.
pub fn substitute(destination: &str, captures: &Captures) -> String {
    let mut out = String::with_capacity(destination.len());
    let mut rest = destination;
    while let Some(colon) = rest.find(':') {
        out.push_str(&rest[..colon]);
        let after = &rest[colon + 1..];
        let name = captures
            .iter()
            .filter(|(name, _)| !name.is_empty() && after.starts_with(name.as_str()))
            .max_by_key(|(name, _)| name.len());
        match name {
            Some((name, value)) => {
                out.push_str(value);
                rest = &after[name.len()..];
            }
            None => {
                out.push(':');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_match_exactly_and_a_trailing_slash_is_the_same_path() {
        let p = Pattern::parse("/.well-known/ai");
        assert!(p.matches("/.well-known/ai").is_some());
        assert!(p.matches("/.well-known/ai/").is_some());
        assert!(p.matches("/.well-known/ai/x").is_none());
        assert!(p.matches("/.well-known").is_none());
        assert!(p.matches("/.well-known/aix").is_none());
        assert!(!p.is_dynamic());
    }

    #[test]
    fn placeholders_take_one_segment_and_splats_the_rest() {
        let p = Pattern::parse("/api/:version/*");
        let c = p.matches("/api/v2/a/b.json").unwrap();
        assert_eq!(c["version"], "v2");
        assert_eq!(c["splat"], "a/b.json");
        assert!(p.matches("/api//a").is_none());
        assert!(p.is_dynamic());
        let all = Pattern::parse("/*");
        assert_eq!(all.matches("/").unwrap()["splat"], "");
        assert_eq!(all.matches("/x/y").unwrap()["splat"], "x/y");
        let prefix = Pattern::parse("/blog*");
        assert_eq!(prefix.matches("/blog-post").unwrap()["splat"], "-post");
        assert!(prefix.matches("/news").is_none());
    }

    #[test]
    fn substitution_fills_placeholders_and_the_splat() {
        let p = Pattern::parse("/old/:id/*");
        let c = p.matches("/old/42/x/y").unwrap();
        assert_eq!(substitute("/new/:id/:splat", &c), "/new/42/x/y");
        let mut c = Captures::new();
        c.insert("id".into(), "1".into());
        c.insert("identity".into(), "me".into());
        assert_eq!(substitute("/:identity/:id", &c), "/me/1");
        assert_eq!(
            substitute("https://a.example/:nothing", &c),
            "https://a.example/:nothing"
        );
    }

    #[test]
    fn captured_values_are_not_substituted_again() {
        let mut c = Captures::new();
        c.insert("aa".into(), ":a:a".into());
        c.insert("a".into(), "x".repeat(1000));
        assert_eq!(
            substitute("/:aa/:a", &c),
            format!("/:a:a/{}", "x".repeat(1000))
        );
    }
}
