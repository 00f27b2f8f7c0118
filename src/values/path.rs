//! Path templates: parsed once from `{param}` or `:param` spelling, rendered per target.

use std::fmt::Write as _;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Literal(String),
    Param(String),
}

/// How the author spelled parameters, kept for targets whose spec leaves the syntax open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamStyle {
    Braces,
    Colon,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathTemplate {
    segments: Vec<Segment>,
    style: ParamStyle,
}

impl PathTemplate {
    /// Parses an absolute path (`/a/{id}/b` or `/a/:id/b`). Query strings and fragments are refused.
    pub fn parse(path: &str) -> Result<Self, String> {
        if !path.starts_with('/') {
            return Err("a path must start with `/`".into());
        }
        // Every target publishes the path inside a URL: a control character or a space of any
        // kind (U+00A0, U+3000…) would make it invalid there.
        if let Some(c) = path
            .chars()
            .find(|&c| matches!(c, '?' | '#') || c.is_whitespace() || c.is_control())
        {
            let what = match c {
                '?' => "a query string".to_string(),
                '#' => "a fragment".to_string(),
                c if c.is_control() => format!("a control character (U+{:04X})", c as u32),
                c => format!("white space (U+{:04X})", c as u32),
            };
            return Err(format!("a path must not contain {what}"));
        }
        let mut segments = Vec::new();
        let mut literal = String::new();
        let mut style = None;
        let mut rest = path;
        while let Some(c) = rest.chars().next() {
            let (name, after, this_style) = if c == '{' {
                let end = rest.find('}').ok_or("an unclosed `{` in the path")?;
                (&rest[1..end], &rest[end + 1..], ParamStyle::Braces)
            } else if c == ':' && literal.ends_with('/') {
                // `:name` only opens a parameter at the start of a segment: `/v1/items:batch` is literal.
                let end = rest[1..]
                    .find(|c: char| !is_name_char(c))
                    .map_or(rest.len(), |i| i + 1);
                (&rest[1..end], &rest[end..], ParamStyle::Colon)
            } else if c == '}' {
                return Err("a `}` without a matching `{` in the path".into());
            } else {
                literal.push(c);
                rest = &rest[c.len_utf8()..];
                continue;
            };
            check_name(name)?;
            set_style(&mut style, this_style)?;
            segments.push(Segment::Literal(std::mem::take(&mut literal)));
            segments.push(Segment::Param(name.to_string()));
            rest = after;
        }
        segments.push(Segment::Literal(literal));
        segments.retain(|s| !matches!(s, Segment::Literal(l) if l.is_empty()));
        let mut names: Vec<&str> = Vec::new();
        for name in segments.iter().filter_map(|s| match s {
            Segment::Param(n) => Some(n.as_str()),
            Segment::Literal(_) => None,
        }) {
            if names.contains(&name) {
                return Err(format!("the path names `{name}` twice"));
            }
            names.push(name);
        }
        Ok(Self {
            segments,
            style: style.unwrap_or(ParamStyle::Braces),
        })
    }

    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Param(n) => Some(n.as_str()),
            Segment::Literal(_) => None,
        })
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// `/items/{id}`: OpenAPI, ia.json, ADP.
    pub fn braces(&self) -> String {
        self.render(ParamStyle::Braces)
    }

    /// The author's own spelling.
    pub fn as_written(&self) -> String {
        self.render(self.style)
    }

    pub fn render(&self, style: ParamStyle) -> String {
        let mut out = String::new();
        for s in &self.segments {
            match (s, style) {
                (Segment::Literal(l), _) => out.push_str(l),
                (Segment::Param(n), ParamStyle::Braces) => {
                    let _ = write!(out, "{{{n}}}");
                }
                (Segment::Param(n), ParamStyle::Colon) => {
                    let _ = write!(out, ":{n}");
                }
            }
        }
        if out.is_empty() { "/".into() } else { out }
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || !name.chars().all(is_name_char) {
        return Err(format!(
            "`{name}` is not a parameter name (letters, digits, `_` and `-`)"
        ));
    }
    Ok(())
}

fn set_style(style: &mut Option<ParamStyle>, new: ParamStyle) -> Result<(), String> {
    match style {
        Some(old) if *old != new => Err("the path mixes `{param}` and `:param` spelling".into()),
        _ => {
            *style = Some(new);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_parse_to_the_same_segments() {
        let a = PathTemplate::parse("/api/products/{id}/reviews").unwrap();
        let b = PathTemplate::parse("/api/products/:id/reviews").unwrap();
        assert_eq!(a.segments(), b.segments());
        assert_eq!(a.braces(), "/api/products/{id}/reviews");
        assert_eq!(b.braces(), "/api/products/{id}/reviews");
        assert_eq!(b.as_written(), "/api/products/:id/reviews");
        assert_eq!(a.render(ParamStyle::Colon), "/api/products/:id/reviews");
        assert_eq!(a.params().collect::<Vec<_>>(), ["id"]);
    }

    #[test]
    fn params_inside_a_segment_and_the_root() {
        let t = PathTemplate::parse("/files/{name}.{ext}").unwrap();
        assert_eq!(t.params().collect::<Vec<_>>(), ["name", "ext"]);
        assert_eq!(t.braces(), "/files/{name}.{ext}");
        assert_eq!(PathTemplate::parse("/").unwrap().braces(), "/");
        assert_eq!(PathTemplate::parse("/a/").unwrap().braces(), "/a/");
        let t = PathTemplate::parse("/v1/items:batchGet").unwrap();
        assert_eq!(t.params().count(), 0);
        assert_eq!(t.braces(), "/v1/items:batchGet");
    }

    #[test]
    fn bad_paths_are_refused_with_a_reason() {
        for (path, why) in [
            ("api/x", "start with `/`"),
            ("/x?y=1", "query string"),
            ("/x#y", "fragment"),
            ("/x y", "white space (U+0020)"),
            ("/x\ty", "control character (U+0009)"),
            ("/x\u{a0}y", "white space (U+00A0)"),
            ("/x\u{3000}y", "white space (U+3000)"),
            ("/x\ry", "control character (U+000D)"),
            ("/x\0y", "control character (U+0000)"),
            ("/x\u{7f}y", "control character (U+007F)"),
            ("/x\u{85}y", "control character (U+0085)"),
            ("/x/{id", "unclosed"),
            ("/x/id}", "without a matching"),
            ("/x/{}", "not a parameter name"),
            ("/x/{id}/:y", "mixes"),
            ("/x/{id}/{id}", "twice"),
        ] {
            let err = PathTemplate::parse(path).unwrap_err();
            assert!(err.contains(why), "{path}: {err}");
        }
    }
}
