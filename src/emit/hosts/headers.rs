//! `_headers` for Netlify and Cloudflare Pages: one block per generated document. The same
//! per-document header list feeds every other host's configuration (vercel.json, nginx, Apache).
//!
//! A site's own blocks (a `/*` block, most often) also match wellgen's paths, and both hosts
//! apply every matching block: Cloudflare joins a header set twice (`https://site, *`, which
//! browsers reject). So on Cloudflare each of wellgen's blocks first detaches (`! Name`) the
//! headers it sets, and `overlaps` names every site rule whose value a host could still add.

use std::fmt::Write as _;

use super::headers_file::Composition;
use super::section::{BEGIN, END, Placement};
use super::{Artifact, HostFile, Merge};
use crate::diag::{Code, Diagnostic, Diagnostics};

pub const PATH: &str = "/_headers";
/// Every matching `_headers` block applies, so order does not matter: wellgen's section is
/// appended to the site's file.
pub const FILE: HostFile = HostFile::config(PATH, Merge::Section(Placement::Append));

/// How a host reads `_headers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// How it combines a header several matching blocks set.
    pub composition: Composition,
    /// Whether each of wellgen's blocks first detaches (`! Name`) the headers it sets, so a
    /// site's broader block cannot join its value to wellgen's.
    pub detach: bool,
    /// What Cloudflare's limits on the file ([`MAX_RULES`], [`MAX_LINE`]) mean here.
    pub limits: Limits,
}

/// What `_headers` over Cloudflare Pages' limits means on a host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limits {
    /// The host's own limits: an error.
    Enforced,
    /// The folder may be deployed to Cloudflare Pages after all: a warning.
    Elsewhere,
    /// The host has none lower: nothing to say.
    None,
}
/// Cloudflare Pages' limits on `_headers`; Netlify has none lower.
pub const MAX_RULES: usize = 100;
pub const MAX_LINE: usize = 2000;

struct Rule {
    path: String,
    /// Cloudflare's `! Name` lines: what earlier (the site's) blocks set for these names is
    /// dropped, so the block's own value is the only one. Netlify has no such syntax.
    detach: Vec<&'static str>,
    headers: Vec<Header>,
}

/// One response header a host must set on a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub name: &'static str,
    pub value: String,
}

/// The headers a host must add to serve `a` right: a Content-Type where the host cannot infer
/// it from the name, the spec's Cache-Control, and CORS. `None` for host files.
pub fn document_headers(a: &Artifact) -> Option<Vec<Header>> {
    let s = a.serving.as_ref()?;
    let mut headers = Vec::new();
    if a.needs_content_type() {
        headers.push(Header {
            name: "Content-Type",
            value: s.content_type.to_string(),
        });
    }
    headers.push(Header {
        name: "Cache-Control",
        value: s.cache_control.to_string(),
    });
    if s.cors {
        headers.push(Header {
            name: "Access-Control-Allow-Origin",
            value: "*".into(),
        });
    }
    Some(headers)
}

/// wellgen's section of `_headers` for `documents` and the home page's `Link` value (`home`),
/// or `None` when nothing needs a header. Over Cloudflare's limits it is an error on Cloudflare
/// and a warning on a generic host (which may turn out to be Cloudflare); Netlify has no such
/// limits.
pub fn lower(
    dialect: &Dialect,
    documents: &[Artifact],
    home: Option<&str>,
    diags: &mut Diagnostics,
) -> Option<String> {
    // The home page's links: not detached on Cloudflare, where a site's own `Link` on `/`
    // (a preload) and wellgen's join into one list, as the header means.
    let home = home.map(|value| Rule {
        path: super::links::HOME.into(),
        detach: Vec::new(),
        headers: vec![Header {
            name: "Link",
            value: value.to_string(),
        }],
    });
    let mut rules: Vec<Rule> = documents
        .iter()
        .filter_map(|a| {
            let headers = document_headers(a)?;
            let detach = if dialect.detach {
                headers.iter().map(|h| h.name).collect()
            } else {
                Vec::new()
            };
            Some(Rule {
                path: a.path.clone(),
                detach,
                headers,
            })
        })
        .collect();
    if rules.is_empty() && home.is_none() {
        return None;
    }
    if rules.len() + usize::from(home.is_some()) > MAX_RULES {
        rules = collapse(rules);
    }
    rules.splice(0..0, home);
    let text = section_text(&rules);
    let limit = |message: String| match dialect.limits {
        Limits::Enforced => Some(Diagnostic::new(Code::HostRule, message)),
        Limits::Elsewhere => Some(Diagnostic::new(
            Code::HeaderRuleSkipped,
            format!("{message} (this matters if the folder is deployed there)"),
        )),
        Limits::None => None,
    };
    for problem in cloudflare_limits(&text) {
        if let Some(d) = limit(problem) {
            diags.push(d.help("build fewer targets (--target), or fewer per-capability documents"));
        }
    }
    Some(text)
}

/// wellgen's section: its markers, then a block per rule, each after a blank line.
fn section_text(rules: &[Rule]) -> String {
    let mut text = format!(
        "{BEGIN}\n# Generated by wellgen: edits inside this section are replaced on the next build.\n"
    );
    for rule in rules {
        let _ = write!(text, "\n{}\n", rule.path);
        for name in &rule.detach {
            let _ = writeln!(text, "  ! {name}");
        }
        for h in &rule.headers {
            let _ = writeln!(text, "  {}: {}", h.name, h.value);
        }
    }
    text.push_str(END);
    text.push('\n');
    text
}

/// The `_headers` artifact holding wellgen's section only; the writer merges it into an
/// existing file.
pub fn render(section: &str) -> Artifact {
    Artifact {
        path: PATH.into(),
        body: section.as_bytes().to_vec().into(),
        serving: None,
    }
}

/// Over the limit (a large API's one ADP detail per capability), the rules of a folder whose
/// documents are all served alike become one splat rule (`/api/capabilities/*`), which both
/// hosts read as "everything below". A folder is collapsed only when no other rule matches
/// below it, since both hosts apply every matching rule.
fn collapse(rules: Vec<Rule>) -> Vec<Rule> {
    let folder = |p: &str| p[..=p.rfind('/').unwrap_or(0)].to_string();
    let mut folders: Vec<String> = Vec::new();
    for r in &rules {
        let f = folder(&r.path);
        if f.len() > 1 && !folders.contains(&f) {
            folders.push(f);
        }
    }
    let mut splats: Vec<String> = Vec::new();
    for f in folders {
        let below: Vec<&Rule> = rules.iter().filter(|r| r.path.starts_with(&f)).collect();
        let alike = below.iter().all(|r| r.headers == below[0].headers);
        // Only the folder's own files: a sub-folder is its own candidate.
        let own = below.iter().filter(|r| folder(&r.path) == f).count();
        if alike && own > 1 && below.len() == own {
            splats.push(f);
        }
    }
    let mut out: Vec<Rule> = Vec::new();
    for r in rules {
        match splats.iter().find(|f| folder(&r.path) == **f) {
            Some(f) => {
                let path = format!("{f}*");
                if !out.iter().any(|o| o.path == path) {
                    out.push(Rule {
                        path,
                        detach: r.detach,
                        headers: r.headers,
                    });
                }
            }
            None => out.push(r),
        }
    }
    out
}

/// What in a `_headers` text Cloudflare Pages would reject: more than 100 rules, or a line
/// over 2,000 characters. Used on wellgen's section and (by `wellgen serve`) on whole files.
pub fn cloudflare_limits(text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let rules = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with([' ', '\t', '#']))
        .count();
    if rules > MAX_RULES {
        problems.push(format!(
            "{rules} header rules: Cloudflare Pages accepts at most {MAX_RULES} in _headers"
        ));
    }
    for line in text.lines().filter(|l| l.chars().count() > MAX_LINE) {
        problems.push(format!(
            "a _headers line is {} characters; Cloudflare Pages accepts at most {MAX_LINE}: {}…",
            line.chars().count(),
            &line[..line.floor_char_boundary(60)]
        ));
    }
    problems
}

/// Every rule of the site's own (outside wellgen's section of a whole `_headers` text) that
/// sets, on one of wellgen's paths, a header wellgen's block for it sets too, with a different
/// value, where a host can still add it: any such rule when wellgen's section has no detach
/// lines (Netlify, generic), and rules below the section on Cloudflare (a `! Name` drops only
/// what came before). One message per rule and header, naming the edit that settles it.
pub fn overlaps(text: &str) -> Vec<String> {
    use super::headers_file::HeadersFile;
    let line_of = |marker: &str| text.lines().position(|l| l.trim_end() == marker);
    let (Some(begin), Some(end)) = (line_of(BEGIN), line_of(END)) else {
        return Vec::new();
    };
    let (begin, end) = (begin + 1, end + 1);
    let file = HeadersFile::parse(text);
    let (ours, site): (Vec<_>, Vec<_>) = file
        .rules
        .iter()
        .partition(|r| r.line > begin && r.line < end);
    let mut out = Vec::new();
    for rule in site {
        // A `Link` header is a list: joined values are what both rules mean.
        for (name, value) in rule
            .set
            .iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("Link"))
        {
            let mut paths: Vec<&str> = Vec::new();
            for our in &ours {
                // A collapsed splat rule (`/api/capabilities/*`) stands for the files below it.
                let path = our.pattern.as_str().replace('*', "x");
                let Some((_, ours_value)) =
                    our.set.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))
                else {
                    continue;
                };
                if rule.pattern.matches(&path).is_none() || ours_value == value {
                    continue;
                }
                let detached =
                    rule.line < begin && our.detach.iter().any(|d| d.eq_ignore_ascii_case(name));
                if !detached {
                    paths.push(our.pattern.as_str());
                }
            }
            if paths.is_empty() {
                continue;
            }
            let more = match paths.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            let why = if ours.iter().any(|r| !r.detach.is_empty()) {
                format!(
                    "it comes after wellgen's section, so Cloudflare joins the values \
                     (`{value}, …`); move the `{}` block above `{BEGIN}` (wellgen's `! {name}` \
                     then drops it there) or delete that line",
                    rule.pattern.as_str()
                )
            } else {
                format!(
                    "Cloudflare joins the values (`{value}, …`) and Netlify documents no \
                     precedence, so agents may get both; delete the `{name}: {value}` line from \
                     `{}` or limit that block to your own pages",
                    rule.pattern.as_str()
                )
            };
            out.push(format!(
                "_headers:{}: `{}` also sets {name} on wellgen's {}{more}: {why}",
                rule.line,
                rule.pattern.as_str(),
                paths[0]
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str =
        "/*\n  Access-Control-Allow-Origin: https://a.example\n  X-Frame-Options: DENY\n";

    fn section(detach: bool) -> String {
        let d = if detach {
            "  ! Access-Control-Allow-Origin\n"
        } else {
            ""
        };
        format!(
            "{BEGIN}\n/.well-known/ai\n{d}  Access-Control-Allow-Origin: *\n\n\
             /api/capabilities/*\n{d}  Access-Control-Allow-Origin: *\n{END}\n"
        )
    }

    #[test]
    fn overlaps_name_site_rules_a_host_can_still_join() {
        // Above a section without detach lines (Netlify, generic): one warning per header.
        let found = overlaps(&format!("{SITE}\n{}", section(false)));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "_headers:1: `/*` also sets Access-Control-Allow-Origin on wellgen's \
                 /.well-known/ai and 1 more: "
            ),
            "{}",
            found[0]
        );
        // Above Cloudflare's detaching section: settled. Below it: not.
        assert!(overlaps(&format!("{SITE}\n{}", section(true))).is_empty());
        let below = overlaps(&format!("{}\n{SITE}", section(true)));
        assert!(below[0].starts_with("_headers:11: "), "{below:?}");
        assert!(below[0].contains("move the `/*` block above"), "{below:?}");
        // Rules that miss wellgen's paths, a file without a section, and odd text are quiet.
        assert!(
            overlaps(&format!(
                "/blog/*\n  Access-Control-Allow-Origin: x\n{}",
                section(false)
            ))
            .is_empty()
        );
        assert!(overlaps(SITE).is_empty());
        assert!(overlaps(&format!("{END}\n{BEGIN}\n  ! \n/*\n")).is_empty());
    }

    #[test]
    fn limits_count_rules_and_long_lines_only() {
        let ok: String = (0..100)
            .map(|i| format!("/p{i}\n  A: b\n# c\n\n"))
            .collect();
        assert!(cloudflare_limits(&ok).is_empty());
        let over = format!("{ok}/p100\n  A: b\n");
        let p = cloudflare_limits(&over);
        assert_eq!(p.len(), 1);
        assert!(p[0].starts_with("101 header rules"), "{p:?}");
        let long = format!("/a\n  X: {}\n", "é".repeat(1995));
        assert!(cloudflare_limits(&long).is_empty(), "2,000 characters fit");
        let longer = format!("/a\n  X: {}\n", "é".repeat(1996));
        assert!(cloudflare_limits(&longer)[0].contains("2001 characters"));
    }
}
