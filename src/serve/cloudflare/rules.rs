//! `_headers` and `_redirects` as Cloudflare Pages reads them, which is not Netlify's reading
//! (`crate::emit::hosts::headers_file`, `super::super::redirects_file`). Measured with `wrangler pages
//! dev` 4.86.0 and read in its bundled parsers:
//!
//! - A rule's path is a regular expression: `*` is `(?<splat>.*)` (across `/`, anywhere in the
//!   path; two of them make the rule invalid and it is skipped), `:name` is `([^/]+)`, and the
//!   whole path must match: `/about` does not match `/about/`.
//! - `_headers`: lines are trimmed (indenting is optional); a line starting with `/` or
//!   `scheme://` starts a block; names are lower-cased, a name given twice in a block is joined
//!   with `, `; `! Name` (no colon) detaches; a block without headers is skipped; a second block
//!   for the same path replaces the first where the first stood; at most 100 blocks (in fact
//!   101: the limit is checked before the pending block is added).
//! - `_redirects`: `from to [status]`, 2 or 3 words after a ` #` comment is cut; status 200,
//!   301, 302 (the default, where Netlify's is 301), 303, 307 or 308 (`200!` and Netlify's query
//!   conditions are invalid and skipped); `to` must start with `/` or `https://`; a second rule
//!   for the same `from` is skipped, as is one that would loop through `/index` or `.html`.
//!   Rules without `*` or `:name` standing before the first one with them are "static" and are
//!   looked up first, by exact path, whatever their line; the others are tried in file order.
//!
//! Rules for another origin (`https://host/*`) are kept but never match here: the preview has
//! no public host name to compare.

use std::collections::BTreeSet;

use crate::emit::hosts::pattern::{Captures, substitute};

/// Pages' limits, as its parsers count them.
const MAX_LINE: usize = 2000;
const MAX_HEADER_RULES: usize = 100;
const MAX_STATIC_REDIRECTS: usize = 2000;
const MAX_DYNAMIC_REDIRECTS: usize = 100;

/// A rule's path compiled as Pages compiles it (a path without `*` or `:name` compares as a
/// string, which is what its expression would do, without building one per request).
#[derive(Debug)]
enum Matcher {
    /// Another origin, or a path Pages cannot compile.
    Never,
    Exact(String),
    Pattern(fancy_regex::Regex),
}

impl Matcher {
    fn new(path: &str) -> Self {
        if path.contains("://") {
            Self::Never
        } else if !path.contains('*') && !has_placeholder(path) {
            Self::Exact(path.to_string())
        } else {
            rule_regex(path).map_or(Self::Never, Self::Pattern)
        }
    }

    fn captures(&self, pathname: &str) -> Option<Captures> {
        let regex = match self {
            Self::Never => return None,
            Self::Exact(path) => return (path == pathname).then(Captures::new),
            Self::Pattern(regex) => regex,
        };
        let found = regex.captures(pathname).ok()??;
        Some(
            regex
                .capture_names()
                .flatten()
                .filter_map(|name| Some((name.to_string(), found.name(name)?.as_str().to_string())))
                .collect(),
        )
    }
}

/// `^…$` with `*` as `(?<splat>.*)` and `:name` (`[A-Za-z]\w*`) as `(?<name>[^/]+)`, the rest
/// literal; `None` where a group name repeats (JavaScript refuses such an expression, and Pages
/// then skips the rule).
fn rule_regex(path: &str) -> Option<fancy_regex::Regex> {
    let mut names = BTreeSet::new();
    let mut re = String::from("^");
    for (i, piece) in path.split('*').enumerate() {
        if i > 0 {
            re.push_str("(?<splat>.*)");
            if !names.insert("splat".to_string()) {
                return None;
            }
        }
        let mut rest = piece;
        while let Some(at) = rest.find(':') {
            re.push_str(&fancy_regex::escape(&rest[..at]));
            let after = &rest[at + 1..];
            let len = after
                .char_indices()
                .find(|&(j, c)| {
                    !(c.is_ascii_alphanumeric() || c == '_') || (j == 0 && !c.is_ascii_alphabetic())
                })
                .map_or(after.len(), |(j, _)| j);
            if len == 0 {
                re.push(':');
            } else {
                let name = &after[..len];
                if !names.insert(name.to_string()) {
                    return None;
                }
                re.push_str(&format!("(?<{name}>[^/]+)"));
            }
            rest = &after[len..];
        }
        re.push_str(&fancy_regex::escape(rest));
    }
    re.push('$');
    fancy_regex::Regex::new(&re).ok()
}

/// A path as Pages' parsers store it: the URL parser's path of it (dot segments resolved,
/// spaces and other bytes percent-encoded), with a leading `/`.
fn url_path(path: &str) -> String {
    let path = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("/{path}")
    };
    url::Url::parse("relative://")
        .and_then(|base| base.join(&format!("//{path}")))
        .map_or(path, |u| u.path().to_string())
}

/// A `_headers` block as read, before it is compiled.
struct Pending {
    path: String,
    line: usize,
    set: Vec<(String, String)>,
    unset: Vec<String>,
}

#[derive(Debug)]
struct HeaderRule {
    matcher: Matcher,
    set: Vec<(String, String)>,
    unset: Vec<String>,
}

/// A `_redirects` rule that Pages keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub status: u16,
    /// The destination with the request's captures put in.
    pub to: String,
}

#[derive(Debug)]
struct RedirectRule {
    from: String,
    matcher: Matcher,
    to: String,
    status: u16,
}

/// One folder's `_headers` and `_redirects`, read as Pages reads them.
#[derive(Debug, Default)]
pub struct Rules {
    headers: Vec<HeaderRule>,
    static_redirects: Vec<RedirectRule>,
    dynamic_redirects: Vec<RedirectRule>,
    /// What Pages skips, and why (its own words), with the file and line.
    pub problems: Vec<String>,
}

/// The headers one matching `_headers` block sets and detaches, its placeholders filled in.
pub struct HeaderBlock {
    pub set: Vec<(String, String)>,
    pub unset: Vec<String>,
}

impl Rules {
    pub fn parse(headers: &str, redirects: &str) -> Self {
        let mut rules = Self::default();
        rules.parse_headers(headers);
        rules.parse_redirects(redirects);
        rules
    }

    /// The redirect or rewrite for a request's URL path (as the URL parser gives it, not
    /// decoded): a static rule by exact path first, then the others in file order.
    pub fn redirect(&self, pathname: &str) -> Option<Redirect> {
        if let Some(rule) = self.static_redirects.iter().find(|r| r.from == pathname) {
            return Some(Redirect {
                status: rule.status,
                to: rule.to.clone(),
            });
        }
        self.dynamic_redirects.iter().find_map(|rule| {
            let captures = rule.matcher.captures(pathname)?;
            Some(Redirect {
                status: rule.status,
                to: substitute(&rule.to, &captures),
            })
        })
    }

    /// The `_headers` blocks that match a request's URL path, in file order.
    pub fn headers(&self, pathname: &str) -> Vec<HeaderBlock> {
        self.headers
            .iter()
            .filter_map(|rule| {
                let captures = rule.matcher.captures(pathname)?;
                Some(HeaderBlock {
                    set: rule
                        .set
                        .iter()
                        .map(|(n, v)| (n.clone(), substitute(v, &captures)))
                        .collect(),
                    unset: rule.unset.clone(),
                })
            })
            .collect()
    }

    fn problem(&mut self, file: &str, line: usize, message: impl std::fmt::Display) {
        self.problems.push(format!(
            "{file}:{line}: {message} (Cloudflare Pages skips it)"
        ));
    }

    fn parse_headers(&mut self, text: &str) {
        let mut kept: Vec<Pending> = Vec::new();
        let mut pushed = 0;
        let mut pending: Option<Pending> = None;
        let lines: Vec<&str> = text.split('\n').collect();
        for (i, raw) in lines.iter().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.chars().count() > MAX_LINE {
                self.problem("_headers", n, format!("longer than {MAX_LINE} characters"));
                continue;
            }
            let scheme = line
                .find("://")
                .is_some_and(|at| at > 0 && !line[..at].contains(char::is_whitespace));
            if line.starts_with('/') || scheme {
                if pushed >= MAX_HEADER_RULES {
                    let after = lines.len() - n;
                    let why = format!(
                        "more than {MAX_HEADER_RULES} rules: this line and the {after} after it"
                    );
                    self.problem("_headers", n, why);
                    break;
                }
                if let Some(block) = pending.take() {
                    pushed += usize::from(self.keep(&mut kept, block));
                }
                let why = if !scheme {
                    None
                } else if !line.starts_with("https://") {
                    Some("a path must be relative (start with `/`) or use https://")
                } else if host_of(line).is_some_and(has_port) {
                    Some("a port in the host is not supported")
                } else {
                    None
                };
                if let Some(why) = why {
                    self.problem("_headers", n, why);
                    continue;
                }
                let path = if scheme {
                    line.to_string()
                } else {
                    url_path(line)
                };
                pending = Some(Pending {
                    path,
                    line: n,
                    set: Vec::new(),
                    unset: Vec::new(),
                });
                continue;
            }
            let Some((name, value)) = line.split_once(':') else {
                match (&mut pending, line.strip_prefix("! ")) {
                    (Some(block), Some(name)) => block.unset.push(name.to_string()),
                    (None, _) => self.problem("_headers", n, "a header line before any path"),
                    (Some(_), None) => {
                        self.problem("_headers", n, "expected `Name: value` or `! Name`")
                    }
                }
                continue;
            };
            let name = name.trim().to_ascii_lowercase();
            let value = value.trim();
            let why = if name.contains(' ') {
                Some("a header name cannot include spaces")
            } else if name.is_empty() {
                Some("no header name")
            } else if value.is_empty() {
                Some("no header value")
            } else if pending.is_none() {
                Some("a header line before any path")
            } else {
                None
            };
            if let Some(why) = why {
                self.problem("_headers", n, why);
                continue;
            }
            if let Some(block) = &mut pending {
                match block.set.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, existing)) => {
                        existing.push_str(", ");
                        existing.push_str(value);
                    }
                    None => block.set.push((name, value.to_string())),
                }
            }
        }
        if let Some(block) = pending.take() {
            self.keep(&mut kept, block);
        }
        self.headers = kept
            .into_iter()
            .map(|b| HeaderRule {
                matcher: Matcher::new(&b.path),
                set: b.set,
                unset: b.unset,
            })
            .collect();
    }

    /// Adds a finished `_headers` block (a second one for a path replaces the first where it
    /// stood); whether it had anything to add.
    fn keep(&mut self, kept: &mut Vec<Pending>, block: Pending) -> bool {
        if block.set.is_empty() && block.unset.is_empty() {
            self.problem("_headers", block.line, "no headers specified");
            return false;
        }
        match kept.iter_mut().find(|b| b.path == block.path) {
            Some(same) => *same = block,
            None => kept.push(block),
        }
        true
    }

    fn parse_redirects(&mut self, text: &str) {
        let mut seen = BTreeSet::new();
        let (mut statics, mut dynamics) = (0, 0);
        // Counted as the parser counts, over every line that gets this far...
        let mut counted_static = true;
        // ...and placed as the rules are then built, over the rules kept.
        let mut placed_static = true;
        let lines: Vec<&str> = text.split('\n').collect();
        for (i, raw) in lines.iter().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.chars().count() > MAX_LINE {
                self.problem(
                    "_redirects",
                    n,
                    format!("longer than {MAX_LINE} characters"),
                );
                continue;
            }
            let words: Vec<&str> = strip_comment(line).split_whitespace().collect();
            if !(2..=3).contains(&words.len()) {
                let found = words.len();
                let why = format!("expected 2 or 3 words (from, to, status), found {found}");
                self.problem("_redirects", n, why);
                continue;
            }
            if words[0].starts_with("https://") {
                self.problem("_redirects", n, "only relative paths can be redirected");
                continue;
            }
            let from = url_path(words[0]);
            let dynamic = from.contains('*') || has_placeholder(&from);
            if counted_static && !dynamic {
                statics += 1;
                if statics > MAX_STATIC_REDIRECTS {
                    let why = format!("more than {MAX_STATIC_REDIRECTS} static rules");
                    self.problem("_redirects", n, why);
                    continue;
                }
            } else {
                dynamics += 1;
                counted_static = false;
                if dynamics > MAX_DYNAMIC_REDIRECTS {
                    let after = lines.len() - n;
                    let why = format!(
                        "more than {MAX_DYNAMIC_REDIRECTS} dynamic rules: this line and the {after} after it"
                    );
                    self.problem("_redirects", n, why);
                    break;
                }
            }
            let to = words[1];
            let absolute = to.starts_with("https://");
            if !absolute && !to.starts_with('/') {
                let why = format!("`{to}`: a destination starts with `/` or https://");
                self.problem("_redirects", n, why);
                continue;
            }
            let status = match words.get(2).map(|w| (w, w.parse::<u16>())) {
                None => 302,
                Some((_, Ok(s))) if [200, 301, 302, 303, 307, 308].contains(&s) => s,
                Some((word, _)) => {
                    let why = format!(
                        "`{word}`: valid statuses are 200, 301, 302 (the default), 303, 307 and 308"
                    );
                    self.problem("_redirects", n, why);
                    continue;
                }
            };
            let to_index = to.ends_with("/index") || to.ends_with("/index.html");
            if !absolute && to_index && (from.ends_with("/*") || from.ends_with('/')) {
                let why = "a loop: Pages strips `/index` and `.html` and the rule applies again";
                self.problem("_redirects", n, why);
                continue;
            }
            if !seen.insert(from.clone()) {
                self.problem("_redirects", n, format!("a second rule for {from}"));
                continue;
            }
            if status == 200 && absolute {
                let why = "a rewrite (200) can only point at a path of this site";
                self.problem("_redirects", n, why);
                continue;
            }
            let rule = RedirectRule {
                matcher: Matcher::new(&from),
                from,
                to: to.to_string(),
                status,
            };
            if placed_static && !dynamic {
                self.static_redirects.push(rule);
            } else {
                placed_static = false;
                self.dynamic_redirects.push(rule);
            }
        }
    }
}

/// The rule without a trailing ` #comment`.
fn strip_comment(line: &str) -> &str {
    line.char_indices()
        .find(|&(i, c)| c == '#' && line[..i].ends_with(char::is_whitespace))
        .map_or(line, |(i, _)| line[..i].trim_end())
}

fn has_placeholder(path: &str) -> bool {
    path.split(':')
        .skip(1)
        .any(|after| after.starts_with(|c: char| c.is_ascii_alphabetic()))
}

fn has_port(host: &str) -> bool {
    host.rsplit_once(':')
        .is_some_and(|(_, port)| !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()))
}

fn host_of(rule: &str) -> Option<&str> {
    let rest = rule.strip_prefix("https://")?.trim_start_matches('/');
    Some(rest.split('/').next().unwrap_or(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(blocks: &[HeaderBlock]) -> Vec<Vec<(String, String)>> {
        blocks.iter().map(|b| b.set.clone()).collect()
    }

    #[test]
    fn paths_match_whole_with_splats_and_placeholders() {
        let r = Rules::parse(
            "/about\n  X: about\n/img/:name\n  Link: </img/:name.webp>\n/blog*\n  Y: :splat\n/a*b*\n  Z: never\n",
            "",
        );
        assert_eq!(
            names(&r.headers("/about")),
            [[("x".into(), "about".into())]]
        );
        assert!(
            r.headers("/about/").is_empty(),
            "no trailing-slash equivalence"
        );
        assert_eq!(
            names(&r.headers("/img/cat.png")),
            [[("link".into(), "</img/cat.png.webp>".into())]]
        );
        assert!(r.headers("/img/a/b").is_empty());
        assert_eq!(
            names(&r.headers("/blog/2024/post")),
            [[("y".into(), "/2024/post".into())]]
        );
        assert!(r.headers("/ab").is_empty(), "two splats: skipped");
    }

    #[test]
    fn headers_are_read_without_indenting_and_a_later_block_replaces() {
        let r = Rules::parse(
            "/*\nX-Multi: a\nx-multi: b\n! Referrer-Policy\n/sub/*\n  A: 1\n/sub/*\n  B: 2\n/none\n",
            "",
        );
        let blocks = r.headers("/sub/x");
        assert_eq!(
            names(&blocks),
            [
                vec![("x-multi".to_string(), "a, b".to_string())],
                vec![("b".into(), "2".into())]
            ]
        );
        assert_eq!(blocks[0].unset, ["Referrer-Policy"]);
        assert_eq!(
            r.problems,
            ["_headers:9: no headers specified (Cloudflare Pages skips it)"]
        );
    }

    #[test]
    fn redirects_default_to_302_and_skip_what_pages_skips() {
        let r = Rules::parse(
            "",
            "/a /b\nold /new 301\n/x http://e.example/ 301\n/loop/* /index.html 301\n\
             /api/discovery format=openapi /x 200!\n/y /z 999\n/f /g 200!\n/a /c\n\
             /p/:a/:b /q/:b/:a 307 # swap\n/late /l 308\n",
        );
        let to = |p: &str| r.redirect(p).map(|x| (x.status, x.to));
        assert_eq!(to("/a"), Some((302, "/b".into())));
        assert_eq!(to("/old"), Some((301, "/new".into())));
        assert_eq!(to("/p/1/2"), Some((307, "/q/2/1".into())));
        assert_eq!(to("/late"), Some((308, "/l".into())));
        for skipped in ["/x", "/loop/1", "/api/discovery", "/y", "/f"] {
            assert_eq!(to(skipped), None, "{skipped}");
        }
        assert_eq!(r.problems.len(), 6, "{:?}", r.problems);
        assert!(r.problems[0].starts_with("_redirects:3:"));
    }

    #[test]
    fn static_rules_are_looked_up_before_dynamic_ones() {
        let r = Rules::parse("", "/* /all 302\n/exact /one 302\n");
        // `/exact` comes after a dynamic rule, so it is dynamic too and loses to `/*`.
        assert_eq!(r.redirect("/exact").unwrap().to, "/all");
        let r = Rules::parse("", "/exact /one 302\n/* /all 302\n");
        assert_eq!(r.redirect("/exact").unwrap().to, "/one");
        assert_eq!(r.redirect("/other").unwrap().to, "/all");
    }
}
