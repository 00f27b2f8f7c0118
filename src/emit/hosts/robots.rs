//! robots.txt (RFC 9309): wellgen's section names the major AI agents in groups of their own
//! (`[robots]`), lets them and every crawler read the discovery documents, and adds the site's
//! `Content-Signal:` (contentsignals.org) and `Sitemap:` lines. The site's own lines are never
//! changed; where they keep a crawler from a document, the build stops with the edit to make.
//!
//! Two rules of RFC 9309 shape the section. A crawler follows only the groups that name it
//! (§2.2.1), falling back to `User-agent: *` when none does: so a named group of wellgen's for an
//! agent the site does not name repeats the site's `*` rules, or the agent would read what the
//! site keeps from every crawler. And groups naming the same agent are combined, the longest
//! matching rule winning (§2.2.2): so wellgen's `Allow:` lines would quietly override a site's
//! `Disallow:` of a document, which is why that is an error instead.

use std::fmt::Write as _;

use super::section::{BEGIN, END, Placement};
use super::{Artifact, HostFile, Merge};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::Target;
use crate::model::Service;
use crate::model::robots::Access;

pub const PATH: &str = "/robots.txt";
/// Groups of robots.txt that name the same agent are combined wherever they stand: wellgen's
/// section is appended to the site's file.
pub const FILE: HostFile = HostFile::published(PATH, Merge::Section(Placement::Append));
/// Where a site's sitemap is looked for (and where scanners look without a `Sitemap:` line).
pub const SITEMAP_PATH: &str = "/sitemap.xml";

/// One `Allow:` or `Disallow:` line of the site's.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    allow: bool,
    pattern: String,
    /// 1-based line in robots.txt.
    line: usize,
}

#[derive(Debug, Default)]
struct Group {
    agents: Vec<String>,
    rules: Vec<Rule>,
}

/// The site's robots.txt as a crawler reads it.
#[derive(Debug, Default)]
struct Parsed {
    groups: Vec<Group>,
    sitemaps: Vec<String>,
}

fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    // Whether the last record was a `user-agent` line: the next one joins the same group.
    let mut in_agents = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim().to_ascii_lowercase().as_str() {
            "user-agent" => {
                if !in_agents {
                    parsed.groups.push(Group::default());
                    in_agents = true;
                }
                if let Some(g) = parsed.groups.last_mut() {
                    g.agents.push(value.to_string());
                }
            }
            key @ ("allow" | "disallow") => {
                in_agents = false;
                // An empty `Disallow:` disallows nothing; rules before any group apply to none.
                if let (Some(g), false) = (parsed.groups.last_mut(), value.is_empty()) {
                    g.rules.push(Rule {
                        allow: key == "allow",
                        pattern: value.to_string(),
                        line: i + 1,
                    });
                }
            }
            // Not a group member (RFC 9309 §2.2.4): it neither starts nor ends a group.
            "sitemap" => parsed.sitemaps.push(value.to_string()),
            _ => in_agents = false,
        }
    }
    parsed
}

impl Parsed {
    /// The groups naming `agent` (its product token, case-insensitively), or, when none does
    /// (and for `*`), the `*` groups.
    fn groups_for(&self, agent: &str) -> Vec<&Group> {
        let names = |g: &&Group, name: &str| {
            g.agents.iter().any(|a| {
                let token = a.split(['/', ' ']).next().unwrap_or("");
                token.eq_ignore_ascii_case(name)
            })
        };
        let own: Vec<&Group> = self.groups.iter().filter(|g| names(g, agent)).collect();
        if own.is_empty() && agent != "*" {
            return self.groups.iter().filter(|g| names(g, "*")).collect();
        }
        own
    }

    /// Whether a group of the site's names `agent` itself.
    fn names(&self, agent: &str) -> bool {
        agent != "*"
            && self
                .groups_for(agent)
                .iter()
                .any(|g| !g.agents.iter().any(|a| a == "*"))
    }
}

/// Whether `pattern` (RFC 9309 §2.2.3: `*` any characters, a final `$` the end) matches `path`.
fn matches(pattern: &str, path: &str) -> bool {
    fn go(p: &[u8], s: &[u8]) -> bool {
        match p.split_first() {
            None => true,
            Some((b'$', [])) => s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|i| go(rest, &s[i..])),
            Some((c, rest)) => s.first() == Some(c) && go(rest, &s[1..]),
        }
    }
    go(pattern.as_bytes(), path.as_bytes())
}

/// The rule deciding `path` among `rules`: the longest match, `Allow` on a tie (§2.2.2).
fn deciding<'a>(rules: &[&'a Rule], path: &str) -> Option<&'a Rule> {
    rules
        .iter()
        .filter(|r| matches(&r.pattern, path))
        .max_by_key(|r| (r.pattern.len(), r.allow))
        .copied()
}

/// The path wellgen's `Allow:` line names for the document at `path`: a per-capability,
/// per-skill or per-part family's folder (its descriptor's prefix), else `path` itself.
fn allow_path(path: &str) -> String {
    Target::ALL
        .iter()
        .flat_map(|t| t.descriptor().documents)
        .find(|d| d.family.is_some() && path.starts_with(d.path))
        .map_or(path, |d| d.path)
        .to_string()
}

/// The paths of wellgen's `Allow:` lines, in document order.
fn allowed_paths(documents: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for path in documents.iter().map(|d| allow_path(d)) {
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// wellgen's section of robots.txt for `documents`, given the site's own text outside it
/// (`site`) and whether the folder has a sitemap.xml. A site rule that keeps `*` or an agent
/// wellgen names from a document is an error naming the line and the edit.
pub fn lower(
    service: &Service,
    documents: &[Artifact],
    site: Option<&str>,
    sitemap_in_folder: bool,
    diags: &mut Diagnostics,
) -> Option<String> {
    let robots = &service.robots;
    let parsed = parse(site.unwrap_or(""));
    let documents: Vec<&str> = documents
        .iter()
        .filter(|a| a.serving.is_some())
        .map(|a| a.path.as_str())
        .collect();
    let paths = allowed_paths(&documents);
    contradictions(&parsed, service, &documents, diags);

    let star_rules: Vec<&Rule> = parsed
        .groups_for("*")
        .iter()
        .flat_map(|g| &g.rules)
        .collect();
    // Agents by the group they go into: the site's rules for every crawler repeated, the
    // documents allowed only (an agent the site names: groups combine), the documents only.
    let (mut repeat, mut combine, mut only) = (Vec::new(), Vec::new(), Vec::new());
    for (agent, access) in &robots.agents {
        match access {
            Access::Documents => only.push(agent.as_str()),
            Access::Site if star_rules.is_empty() || parsed.names(agent) => {
                combine.push(agent.as_str())
            }
            Access::Site => repeat.push(agent.as_str()),
        }
    }
    let signal = (!robots.content_signals.is_empty()).then(|| {
        let list: Vec<String> = robots
            .content_signals
            .iter()
            .map(|(s, yes)| format!("{s}={}", if *yes { "yes" } else { "no" }))
            .collect();
        format!("Content-Signal: {}\n", list.join(", "))
    });
    let group = |out: &mut String, agents: &[&str], tail: &str| {
        if agents.is_empty() {
            return;
        }
        out.push('\n');
        for a in agents {
            let _ = writeln!(out, "User-agent: {a}");
        }
        out.push_str(signal.as_deref().unwrap_or(""));
        for p in &paths {
            let _ = writeln!(out, "Allow: {p}");
        }
        out.push_str(tail);
    };

    let mut out = format!(
        "{BEGIN}\n# Generated by wellgen: edits inside this section are replaced on the next build.\n\
         # Every crawler may read the discovery documents; the AI agents named below follow\n\
         # `[robots]` in service.toml (a group naming an agent replaces `User-agent: *` for it).\n"
    );
    group(&mut out, &["*"], "");
    group(&mut out, &combine, "");
    let repeated: String = star_rules
        .iter()
        .map(|r| {
            format!(
                "{}: {}\n",
                if r.allow { "Allow" } else { "Disallow" },
                r.pattern
            )
        })
        .collect();
    if !repeat.is_empty() {
        let lines: Vec<String> = star_rules.iter().map(|r| r.line.to_string()).collect();
        let _ = write!(
            out,
            "\n# The site's `User-agent: *` rules (robots.txt line{} {}), repeated.",
            if lines.len() == 1 { "" } else { "s" },
            lines.join(", ")
        );
    }
    group(&mut out, &repeat, &repeated);
    group(&mut out, &only, "Disallow: /\n");

    let mut sitemaps: Vec<String> = Vec::new();
    if let Some(url) = &robots.sitemap {
        sitemaps.push(url.clone());
    } else if sitemap_in_folder && parsed.sitemaps.is_empty() {
        sitemaps.push(service.site_url.join(SITEMAP_PATH));
    }
    sitemaps.retain(|s| !parsed.sitemaps.contains(s));
    if !sitemaps.is_empty() {
        out.push('\n');
        for s in sitemaps {
            let _ = writeln!(out, "Sitemap: {s}");
        }
    }
    out.push_str(END);
    out.push('\n');
    Some(out)
}

/// One error per site rule that keeps `*`, or an agent wellgen names, from a document.
fn contradictions(parsed: &Parsed, service: &Service, documents: &[&str], diags: &mut Diagnostics) {
    // By the deciding rule's line: the agents it keeps out and the documents.
    let mut found: Vec<(&Rule, Vec<&str>, Vec<&str>)> = Vec::new();
    let agents = std::iter::once("*").chain(service.robots.agents.iter().map(|(a, _)| a.as_str()));
    for agent in agents {
        let rules: Vec<&Rule> = parsed
            .groups_for(agent)
            .iter()
            .flat_map(|g| &g.rules)
            .collect();
        for doc in documents {
            let Some(rule) = deciding(&rules, doc).filter(|r| !r.allow) else {
                continue;
            };
            let entry = match found.iter_mut().position(|(r, _, _)| *r == rule) {
                Some(i) => &mut found[i],
                None => {
                    found.push((rule, Vec::new(), Vec::new()));
                    found.last_mut().expect("just pushed")
                }
            };
            if !entry.1.contains(&agent) {
                entry.1.push(agent);
            }
            if !entry.2.contains(doc) {
                entry.2.push(doc);
            }
        }
    }
    for (rule, agents, docs) in found {
        let more = match docs.len() {
            1 => String::new(),
            n => format!(" and {} more of wellgen's documents", n - 1),
        };
        let who = if agents.len() > 3 {
            format!("{} and {} more", agents[..3].join(", "), agents.len() - 3)
        } else {
            agents.join(", ")
        };
        let allow: Vec<String> = allowed_paths(&docs)
            .iter()
            .map(|p| format!("Allow: {p}"))
            .collect();
        let mut help = format!(
            "to let them discover the service, delete line {line} of robots.txt or add these \
             lines right after it: `{}`",
            allow.join("`, `"),
            line = rule.line
        );
        if !agents.contains(&"*") {
            let none: Vec<String> = agents.iter().map(|a| format!("{a} = \"none\"")).collect();
            let _ = write!(
                help,
                "; to keep them out, add `{}` under `[robots.agents]` in service.toml (wellgen \
                 then names them in no group)",
                none.join("`, `")
            );
        }
        diags.push(
            Diagnostic::new(
                Code::RobotsContradiction,
                format!(
                    "robots.txt:{}: the site's `Disallow: {}` keeps {who} from {}{more}; \
                     wellgen's `Allow:` lines would override it (groups naming the same agent \
                     combine and the longer rule wins), so wellgen leaves the choice to you",
                    rule.line, rule.pattern, docs[0]
                ),
            )
            .help(help),
        );
    }
}

/// The robots.txt artifact holding wellgen's section only; the writer merges it into the
/// site's file.
pub fn render(section: &str) -> Artifact {
    Artifact {
        path: PATH.into(),
        body: section.as_bytes().to_vec().into(),
        serving: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_follow_rfc_9309() {
        assert!(matches("/.well-known/", "/.well-known/ai"));
        assert!(matches("/*.json$", "/ia.json"));
        assert!(!matches("/*.json$", "/ia.json.bak"));
        assert!(matches("/", "/anything"));
        assert!(!matches("/a$", "/ab"));
        let parsed = parse("User-agent: *\nDisallow: /.well-known/\nAllow: /.well-known/ai\n");
        let rules: Vec<&Rule> = parsed.groups_for("GPTBot")[0].rules.iter().collect();
        assert!(deciding(&rules, "/.well-known/ai").unwrap().allow);
        assert!(!deciding(&rules, "/.well-known/api-catalog").unwrap().allow);
        // A tie goes to Allow.
        let tie = parse("User-agent: *\nDisallow: /a\nAllow: /a\n");
        let rules: Vec<&Rule> = tie.groups[0].rules.iter().collect();
        assert!(deciding(&rules, "/a").unwrap().allow);
    }

    #[test]
    fn groups_are_matched_by_product_token() {
        let parsed = parse(
            "User-agent: gptbot/1.0\nUser-agent: CCBot\nDisallow: /x\n\nSitemap: https://a/s.xml\n\
             User-agent: *\nCrawl-delay: 3\nUser-agent: other\nDisallow: /y\n",
        );
        assert_eq!(parsed.groups.len(), 3);
        assert!(parsed.names("GPTBot") && parsed.names("ccbot"));
        assert!(!parsed.names("ClaudeBot"));
        assert_eq!(parsed.groups_for("ClaudeBot")[0].agents, ["*"]);
        assert_eq!(parsed.sitemaps, ["https://a/s.xml"]);
        assert_eq!(parsed.groups[1].rules.len(), 0);
    }
}
