//! A `_headers` file read the way Netlify and Cloudflare Pages read it: blocks of a path
//! pattern followed by indented `Name: value` lines (and Cloudflare's `! Name` to detach a
//! header an earlier block set). Every block whose pattern matches applies, in file order; a
//! header set twice is joined with `, `.

use super::pattern::Pattern;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    pub pattern: Pattern,
    pub set: Vec<(String, String)>,
    pub detach: Vec<String>,
}

/// A parsed file and what in it could not be read (line numbers are 1-based).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct HeadersFile {
    pub rules: Vec<HeaderRule>,
    pub problems: Vec<String>,
}

impl HeadersFile {
    pub fn parse(text: &str) -> Self {
        let mut file = Self::default();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if !line.starts_with([' ', '\t']) {
                file.rules.push(HeaderRule {
                    pattern: Pattern::parse(trimmed),
                    set: Vec::new(),
                    detach: Vec::new(),
                });
                continue;
            }
            let Some(rule) = file.rules.last_mut() else {
                file.problems
                    .push(format!("_headers:{n}: a header line before any path"));
                continue;
            };
            if let Some(name) = trimmed.strip_prefix('!') {
                rule.detach.push(name.trim().to_string());
            } else if let Some((name, value)) = trimmed.split_once(':') {
                let name = name.trim();
                if name.is_empty() || name.contains(char::is_whitespace) {
                    file.problems
                        .push(format!("_headers:{n}: `{name}` is not a header name"));
                    continue;
                }
                rule.set.push((name.to_string(), value.trim().to_string()));
            } else {
                file.problems.push(format!(
                    "_headers:{n}: expected `Name: value`, found `{trimmed}`"
                ));
            }
        }
        file
    }

    /// The headers for a request path, names as written by the first block that set them.
    pub fn headers_for(&self, path: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for rule in self
            .rules
            .iter()
            .filter(|r| r.pattern.matches(path).is_some())
        {
            for (name, value) in &rule.set {
                match out.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
                    Some((_, existing)) => {
                        existing.push_str(", ");
                        existing.push_str(value);
                    }
                    None => out.push((name.clone(), value.clone())),
                }
            }
            for name in &rule.detach {
                out.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# BEGIN wellgen\n/*\n  X-Frame-Options: DENY\n  Access-Control-Allow-Origin: https://a.example\n\n\
        /.well-known/ai\n  Content-Type: application/json; charset=utf-8\n  Cache-Control: public, max-age=86400\n\n\
        /api/:name\n  X-Api: yes\n\n/public/*\n  ! X-Frame-Options\n";

    #[test]
    fn every_matching_block_applies_and_repeats_are_joined() {
        let f = HeadersFile::parse(TEXT);
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        assert_eq!(f.rules.len(), 4);
        let h = f.headers_for("/.well-known/ai");
        assert_eq!(
            h,
            vec![
                ("X-Frame-Options".into(), "DENY".into()),
                (
                    "Access-Control-Allow-Origin".into(),
                    "https://a.example".into()
                ),
                (
                    "Content-Type".into(),
                    "application/json; charset=utf-8".into()
                ),
                ("Cache-Control".into(), "public, max-age=86400".into()),
            ]
        );
        let twice = HeadersFile::parse("/a\n  X: 1\n/*\n  x: 2\n");
        assert_eq!(twice.headers_for("/a"), vec![("X".into(), "1, 2".into())]);
    }

    #[test]
    fn placeholders_splats_and_detaching() {
        let f = HeadersFile::parse(TEXT);
        assert!(
            f.headers_for("/api/users")
                .iter()
                .any(|(n, _)| n == "X-Api")
        );
        assert!(
            !f.headers_for("/api/users/1")
                .iter()
                .any(|(n, _)| n == "X-Api")
        );
        let public = f.headers_for("/public/a.txt");
        assert!(
            !public.iter().any(|(n, _)| n == "X-Frame-Options"),
            "{public:?}"
        );
        assert!(
            public
                .iter()
                .any(|(n, _)| n == "Access-Control-Allow-Origin")
        );
    }

    #[test]
    fn unreadable_lines_are_reported_with_their_number() {
        let f = HeadersFile::parse("  X: 1\n/a\n  no colon here\n  Bad Name: 1\n");
        assert_eq!(
            f.problems,
            vec![
                "_headers:1: a header line before any path",
                "_headers:3: expected `Name: value`, found `no colon here`",
                "_headers:4: `Bad Name` is not a header name",
            ]
        );
    }
}
