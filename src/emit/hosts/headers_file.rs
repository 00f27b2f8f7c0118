//! A `_headers` file read the way Netlify reads it: blocks of a path pattern followed by
//! indented `Name: value` lines (and Cloudflare's `! Name` to detach a header an earlier block
//! set). The preview of Cloudflare Pages reads it as Pages does instead, paths as regular
//! expressions (`crate::serve::cloudflare::rules`); this reading also serves the hosts that do
//! not read `_headers` and the build's overlap warnings. Every block whose pattern matches
//! applies, in file order; what a header set by two blocks becomes depends on the host
//! (`Composition`), as measured in docs/hosting.md: Cloudflare joins the values with `, `,
//! Netlify's later block replaces. It is the hosts' format, read by the build and by `serve`.

use super::pattern::Pattern;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    pub pattern: Pattern,
    /// The 1-based line of the pattern.
    pub line: usize,
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
                    line: n,
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

    /// The headers for a request path as `composition` combines the matching blocks, names as
    /// written by the first block that set them.
    pub fn headers_for(&self, path: &str, composition: Composition) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for rule in self
            .rules
            .iter()
            .filter(|r| r.pattern.matches(path).is_some())
        {
            if composition == Composition::Join {
                // wrangler 4: a block's `! Name` drops what earlier blocks set, wherever the
                // line stands in the block; the block's own value stays.
                for name in &rule.detach {
                    out.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                }
            }
            for (name, value) in &rule.set {
                match out.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
                    Some((_, existing)) if composition == Composition::Join => {
                        existing.push_str(", ");
                        existing.push_str(value);
                    }
                    Some((_, existing)) => value.clone_into(existing),
                    None => out.push((name.clone(), value.clone())),
                }
            }
        }
        out
    }
}

/// How a host combines a header that several matching `_headers` blocks set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Composition {
    /// Cloudflare Pages (its docs, and `wrangler pages dev`): the values are joined with `, `
    /// in file order; `! Name` detaches what earlier blocks set.
    Join,
    /// Netlify (`netlify dev`: its `headersForPath`): the later block's value replaces the
    /// earlier one; `! Name` lines are ignored (its parser drops them without an error).
    Replace,
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
        let h = f.headers_for("/.well-known/ai", Composition::Join);
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
        assert_eq!(
            twice.headers_for("/a", Composition::Join),
            vec![("X".into(), "1, 2".into())]
        );
        assert_eq!(
            twice.headers_for("/a", Composition::Replace),
            vec![("X".into(), "2".into())]
        );
    }

    #[test]
    fn placeholders_splats_and_detaching() {
        let f = HeadersFile::parse(TEXT);
        assert!(
            f.headers_for("/api/users", Composition::Join)
                .iter()
                .any(|(n, _)| n == "X-Api")
        );
        assert!(
            !f.headers_for("/api/users/1", Composition::Join)
                .iter()
                .any(|(n, _)| n == "X-Api")
        );
        let public = f.headers_for("/public/a.txt", Composition::Join);
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
    fn a_detach_line_drops_earlier_values_but_not_its_own_blocks() {
        // What wrangler 4.86.0 answered for both orders of the lines in wellgen's block.
        for block in ["/x\n  ! A\n  A: mine\n", "/x\n  A: mine\n  ! A\n"] {
            let f = HeadersFile::parse(&format!("/*\n  A: site\n  B: site\n{block}"));
            assert_eq!(
                f.headers_for("/x", Composition::Join),
                vec![("B".into(), "site".into()), ("A".into(), "mine".into())],
                "{block}"
            );
        }
        // Netlify ignores the detach line: the later block replaces.
        let f = HeadersFile::parse("/*\n  A: site\n/x\n  ! A\n  A: mine\n");
        assert_eq!(
            f.headers_for("/x", Composition::Replace),
            vec![("A".into(), "mine".into())]
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
