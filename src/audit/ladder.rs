//! wellgen's five levels, each a set of requirements built on the specification's checks plus
//! what scanners leave out: skill digests that verify, documents that hold their required
//! members, and links between documents that resolve on the site with the media type they
//! promise. A site reaches level N when every requirement of levels 1 to N holds.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::checks::{self, ACCEPT_ANY, ACCEPT_JSON, ACCEPT_LINKSET, Outcome, parse_links};
use super::robots::Robots;
use super::{Prober, Status};

pub const TOP: u8 = 5;

/// Each level's name, from 1.
pub const NAMES: [&str; 5] = [
    "Basic Web Presence",
    "Bot-Aware",
    "Agent-Readable",
    "Agent-Integrated",
    "Agent-Native",
];

/// The name of level `n` (0: none reached).
pub fn name(n: u8) -> &'static str {
    match n {
        1..=TOP => NAMES[usize::from(n) - 1],
        _ => "no level",
    }
}

/// Link relations that point an agent somewhere useful (RFC 9727 and RFC 8631).
pub const AGENT_RELS: [&str; 4] = ["api-catalog", "service-desc", "service-doc", "describedby"];

/// One requirement of one level.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Requirement {
    pub level: u8,
    pub id: &'static str,
    pub passed: bool,
    /// Why it passed or failed.
    pub reason: String,
    /// What to change, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Ladder {
    pub level: u8,
    pub requirements: Vec<Requirement>,
}

impl Ladder {
    pub fn failed(&self) -> impl Iterator<Item = &Requirement> {
        self.requirements.iter().filter(|r| !r.passed)
    }
}

/// Grades the site on the five levels.
pub fn grade(p: &Prober, outcomes: &[Outcome]) -> Ladder {
    let check = |id: &str| {
        outcomes
            .iter()
            .find(|o| o.id() == id)
            .expect("every check ran")
    };
    let from_check = |level: u8, id: &'static str| {
        let o = check(id);
        let passed = o.status == Status::Pass;
        requirement(level, id, passed, o.message.clone(), o.spec.fix)
    };
    let robots = p
        .get("/robots.txt", "text/plain, */*;q=0.5")
        .ok()
        .filter(|_| check("robots-txt-exists").status == Status::Pass)
        .map(|a| Robots::parse(&a.text()));
    let soft = check("http-status-codes");
    let mut reqs = vec![
        from_check(1, "robots-txt-exists"),
        from_check(1, "sitemap-exists"),
        requirement(
            1,
            "http-status-codes",
            soft.status != Status::Fail,
            soft.message.clone(),
            soft.spec.fix,
        ),
        ai_agents_named(robots.as_ref()),
        content_signals(robots.as_ref()),
        from_check(3, "markdown-negotiation"),
        agent_link_header(p),
        skills_verified(p, check("agent-skills")),
        catalog_links(p, check("api-catalog")),
        protected_resource(p, check("oauth-protected-resource")),
        mcp_card(p, check("mcp-server-card")),
        a2a_card(check("a2a-agent-card")),
    ];
    reqs.sort_by_key(|r| r.level);
    let level = (1..=TOP)
        .take_while(|n| reqs.iter().filter(|r| r.level == *n).all(|r| r.passed))
        .last()
        .unwrap_or(0);
    Ladder {
        level,
        requirements: reqs,
    }
}

fn requirement(
    level: u8,
    id: &'static str,
    passed: bool,
    reason: String,
    fix: &str,
) -> Requirement {
    Requirement {
        level,
        id,
        passed,
        reason,
        fix: (!passed).then(|| fix.to_string()),
    }
}

fn ai_agents_named(robots: Option<&Robots>) -> Requirement {
    let fix = "add a group naming the AI agents to robots.txt, with a rule: `User-agent: GPTBot` / \
               `User-agent: ClaudeBot` / `User-agent: Google-Extended` / `User-agent: PerplexityBot` / \
               `User-agent: CCBot` / `Allow: /` (or `Disallow:` what they may not read)";
    let Some(robots) = robots else {
        return requirement(2, "ai-agents-named", false, "no robots.txt".into(), fix);
    };
    let agents = robots.ai_agents_with_rules();
    if agents.is_empty() {
        let wildcard = robots
            .groups
            .iter()
            .any(|g| g.agents.iter().any(|a| a == "*"));
        let reason = if wildcard {
            "robots.txt has only a `User-agent: *` group: no AI agent is named".into()
        } else {
            "robots.txt names no AI agent in a group with rules".into()
        };
        return requirement(2, "ai-agents-named", false, reason, fix);
    }
    requirement(
        2,
        "ai-agents-named",
        true,
        format!("robots.txt sets rules for {}", agents.join(", ")),
        fix,
    )
}

fn content_signals(robots: Option<&Robots>) -> Requirement {
    let fix = "add `Content-Signal: search=yes, ai-input=yes, ai-train=no` (each value `yes` or `no`) \
               to robots.txt's `User-agent: *` group";
    let Some(robots) = robots else {
        return requirement(2, "content-signals", false, "no robots.txt".into(), fix);
    };
    if robots.signals.is_empty() {
        return requirement(
            2,
            "content-signals",
            false,
            "robots.txt has no `Content-Signal:` line".into(),
            fix,
        );
    }
    // contentsignals.org: comma-separated `name=yes|no` pairs.
    let bad: Vec<&str> = robots
        .signals
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|pair| {
            !pair
                .split_once('=')
                .is_some_and(|(k, v)| !k.trim().is_empty() && matches!(v.trim(), "yes" | "no"))
        })
        .collect();
    if let Some(first) = bad.first() {
        return requirement(
            2,
            "content-signals",
            false,
            format!("`Content-Signal` holds `{first}`: each signal is `name=yes` or `name=no`"),
            fix,
        );
    }
    requirement(
        2,
        "content-signals",
        true,
        "robots.txt declares content signals".into(),
        fix,
    )
}

/// Whether the answer's media type is the one a link promised (parameters aside).
fn media_matches(promised: &str, got: &str) -> bool {
    super::media_type(promised) == got
}

/// Fetches an on-site link and says what is wrong with it: not 2xx, or another media type.
/// `None` when it resolves as promised; off-site links are not fetched (and not wrong).
fn resolve(
    p: &Prober,
    from: &str,
    href: &str,
    promised: Option<&str>,
    accept: &str,
) -> Option<String> {
    let path = p.on_site(from, href)?;
    match p.get(&path, promised.unwrap_or(accept)) {
        Err(e) => Some(e),
        Ok(a) if !a.ok() => Some(format!("`{href}` answers {}", a.status)),
        Ok(a) => match promised {
            Some(t) if !media_matches(t, &a.media_type()) => Some(format!(
                "`{href}` is served as `{}`, not the `{t}` its link says",
                a.media_type()
            )),
            _ => None,
        },
    }
}

fn agent_link_header(p: &Prober) -> Requirement {
    let fix = "send a `Link` header on `/` with agent relations, e.g. \
               `Link: </.well-known/api-catalog>; rel=\"api-catalog\", </openapi.json>; rel=\"service-desc\"; type=\"application/json\", </index.md>; rel=\"alternate\"; type=\"text/markdown\"` \
               (a `_headers` rule for `/`, or the host's headers setting), each target published with that type";
    let id = "agent-link-header";
    let Ok(home) = p.get("/", checks::ACCEPT_HTML) else {
        return requirement(
            4,
            id,
            false,
            "the home page could not be fetched".into(),
            fix,
        );
    };
    let links = parse_links(home.header_values("link"));
    let useful: Vec<_> = links
        .iter()
        .filter(|l| {
            l.rels.iter().any(|r| AGENT_RELS.contains(&r.as_str()))
                || (l.rels.iter().any(|r| r == "alternate")
                    && l.media_type.as_deref() == Some("text/markdown"))
        })
        .collect();
    if useful.is_empty() {
        return requirement(
            4,
            id,
            false,
            "the home page's Link header names no api-catalog, service-desc, service-doc, describedby or Markdown alternate".into(),
            fix,
        );
    }
    for link in &useful {
        let promised = if link.rels.iter().any(|r| r == "api-catalog") {
            link.media_type
                .clone()
                .or(Some("application/linkset+json".into()))
        } else {
            link.media_type.clone()
        };
        if let Some(problem) = resolve(p, "/", &link.target, promised.as_deref(), ACCEPT_ANY) {
            return requirement(4, id, false, format!("Link header: {problem}"), fix);
        }
    }
    let rels: Vec<String> = useful.iter().flat_map(|l| l.rels.clone()).collect();
    requirement(
        4,
        id,
        true,
        format!("the home page links {} and each resolves", rels.join(", ")),
        fix,
    )
}

/// An Agent Skills name: 1-64 of `a-z0-9-`, no hyphen at either end or twice.
fn skill_name_ok(n: &str) -> bool {
    (1..=64).contains(&n.len())
        && n.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !n.starts_with('-')
        && !n.ends_with('-')
        && !n.contains("--")
}

fn skills_verified(p: &Prober, check: &Outcome) -> Requirement {
    let fix = "publish `/.well-known/agent-skills/index.json` (Agent Skills discovery 0.2.0): `$schema`, and `skills[]` \
               entries with `name`, `type` (`skill-md` or `archive`), `description`, `url` and `digest` \
               `sha256:<hex of the artifact's bytes>`; rebuild the index whenever a skill changes";
    let id = "agent-skills";
    if check.status != Status::Pass {
        return requirement(4, id, false, check.message.clone(), fix);
    }
    let path = check
        .details
        .as_ref()
        .and_then(|d| d.get("path"))
        .and_then(Value::as_str)
        .unwrap_or(checks::SKILLS_PATHS[0])
        .to_string();
    let Some(index) = p.get(&path, ACCEPT_JSON).ok().and_then(|a| a.json()) else {
        return requirement(4, id, false, format!("{path} could not be read again"), fix);
    };
    let skills = index
        .get("skills")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut verified = 0;
    for (i, skill) in skills.iter().enumerate() {
        let field = |k: &str| skill.get(k).and_then(Value::as_str);
        let name = field("name").unwrap_or_default();
        if !skill_name_ok(name) {
            return requirement(
                4,
                id,
                false,
                format!("skills[{i}]: `name` `{name}` is not 1-64 of a-z, 0-9 and single hyphens"),
                fix,
            );
        }
        if !matches!(field("type"), Some("skill-md" | "archive")) {
            return requirement(
                4,
                id,
                false,
                format!("skill `{name}`: `type` is not `skill-md` or `archive`"),
                fix,
            );
        }
        if field("description").is_none_or(|d| d.trim().is_empty() || d.chars().count() > 1024) {
            return requirement(
                4,
                id,
                false,
                format!("skill `{name}`: `description` is missing or over 1024 characters"),
                fix,
            );
        }
        let (Some(url), Some(digest)) = (field("url"), field("digest")) else {
            return requirement(4, id, false, format!("skill `{name}`: no `url`"), fix);
        };
        let Some(target) = p.on_site(&path, url) else {
            continue;
        };
        match p.get(&target, ACCEPT_ANY) {
            Ok(a) if a.ok() => {
                let hex: String = Sha256::digest(&a.body)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                if digest != format!("sha256:{hex}") {
                    return requirement(
                        4,
                        id,
                        false,
                        format!(
                            "skill `{name}`: `{url}` has digest sha256:{hex}, the index says `{digest}`"
                        ),
                        fix,
                    );
                }
                verified += 1;
            }
            Ok(a) => {
                return requirement(
                    4,
                    id,
                    false,
                    format!("skill `{name}`: `{url}` answers {}", a.status),
                    fix,
                );
            }
            Err(e) => return requirement(4, id, false, format!("skill `{name}`: {e}"), fix),
        }
    }
    requirement(
        4,
        id,
        true,
        format!(
            "{path}: {verified} of {} skill digest(s) verified (links off the site are not fetched)",
            skills.len()
        ),
        fix,
    )
}

fn catalog_links(p: &Prober, check: &Outcome) -> Requirement {
    let fix = "publish `/.well-known/api-catalog` (wellgen's `api-catalog` target, RFC 9727) as \
               `application/linkset+json`, each link's target published with the `type` the link gives";
    let id = "api-catalog";
    if check.status != Status::Pass {
        return requirement(5, id, false, check.message.clone(), fix);
    }
    let path = "/.well-known/api-catalog";
    let Ok(answer) = p.get(path, ACCEPT_LINKSET) else {
        return requirement(5, id, false, format!("{path} could not be read again"), fix);
    };
    if answer.media_type() != "application/linkset+json" {
        return requirement(
            5,
            id,
            false,
            format!(
                "{path} is served as `{}`, not application/linkset+json (RFC 9727 §2)",
                answer.media_type()
            ),
            fix,
        );
    }
    let doc = answer.json().unwrap_or_default();
    let contexts = doc
        .get("linkset")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut count = 0;
    for context in &contexts {
        let Some(object) = context.as_object() else {
            continue;
        };
        for (rel, targets) in object {
            if rel == "anchor" {
                continue;
            }
            for target in targets.as_array().into_iter().flatten() {
                let Some(href) = target.get("href").and_then(Value::as_str) else {
                    return requirement(
                        5,
                        id,
                        false,
                        format!("{path}: a `{rel}` link has no `href`"),
                        fix,
                    );
                };
                let promised = target.get("type").and_then(Value::as_str);
                if let Some(problem) = resolve(p, path, href, promised, ACCEPT_ANY) {
                    return requirement(5, id, false, format!("{path} `{rel}`: {problem}"), fix);
                }
                count += 1;
            }
        }
    }
    requirement(
        5,
        id,
        true,
        format!("{path} is a linkset; its {count} link(s) on the site resolve with their types"),
        fix,
    )
}

fn protected_resource(p: &Prober, check: &Outcome) -> Requirement {
    let fix = "publish `/.well-known/oauth-protected-resource` (RFC 9728) as application/json: \
               `{\"resource\": \"https://api.example.com\", \"authorization_servers\": [\"https://auth.example.com\"]}`";
    let id = "oauth-protected-resource";
    if check.status != Status::Pass {
        return requirement(5, id, false, check.message.clone(), fix);
    }
    let path = "/.well-known/oauth-protected-resource";
    let Ok(answer) = p.get(path, ACCEPT_JSON) else {
        return requirement(5, id, false, format!("{path} could not be read again"), fix);
    };
    if answer.media_type() != "application/json" {
        return requirement(
            5,
            id,
            false,
            format!(
                "{path} is served as `{}`, not application/json (RFC 9728 §3.2)",
                answer.media_type()
            ),
            fix,
        );
    }
    let doc = answer.json().unwrap_or_default();
    let strings = |k: &str| {
        doc.get(k)
            .is_none_or(|v| v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
    };
    for k in [
        "authorization_servers",
        "scopes_supported",
        "bearer_methods_supported",
    ] {
        if !strings(k) {
            return requirement(
                5,
                id,
                false,
                format!("{path}: `{k}` is not an array of strings"),
                fix,
            );
        }
    }
    requirement(
        5,
        id,
        true,
        format!("{path} is protected resource metadata"),
        fix,
    )
}

/// What an SEP-2127 server card lacks: its schema's required members and each remote's.
fn sep2127_missing(card: &Value) -> Vec<String> {
    let mut missing: Vec<String> = ["$schema", "name", "version", "description"]
        .into_iter()
        .filter(|k| !card.get(*k).is_some_and(Value::is_string))
        .map(String::from)
        .collect();
    match card.get("remotes") {
        None => {}
        Some(Value::Array(remotes)) => {
            for (i, r) in remotes.iter().enumerate() {
                for k in ["type", "url"] {
                    if !r.get(k).is_some_and(Value::is_string) {
                        missing.push(format!("remotes[{i}].{k}"));
                    }
                }
            }
        }
        Some(_) => missing.push("remotes (an array)".into()),
    }
    missing
}

fn mcp_card(p: &Prober, check: &Outcome) -> Requirement {
    let fix = "publish `/.well-known/mcp/server-card.json` as application/json with `$schema`, `name`, `version`, \
               `description` and `remotes: [{\"type\": \"streamable-http\", \"url\": ...}]` (SEP-2127), and for \
               scanners `serverInfo.name` and `transport: {\"type\", \"url\"}`";
    let id = "mcp-server-card";
    let path = checks::MCP_CARD_PATHS[0];
    let answer = match p.get(path, ACCEPT_JSON) {
        Ok(a) if a.ok() => a,
        Ok(a) => return requirement(5, id, false, format!("{path} answers {}", a.status), fix),
        Err(e) => return requirement(5, id, false, e, fix),
    };
    let Some(card) = answer.json().filter(Value::is_object) else {
        return requirement(5, id, false, format!("{path} is not a JSON object"), fix);
    };
    let missing = sep2127_missing(&card);
    if !missing.is_empty() && check.status != Status::Pass {
        return requirement(
            5,
            id,
            false,
            format!(
                "{path} lacks {} (SEP-2127) and {}",
                missing.join(", "),
                check.message
            ),
            fix,
        );
    }
    if answer.media_type() != "application/json" {
        return requirement(
            5,
            id,
            false,
            format!(
                "{path} is served as `{}`, not application/json",
                answer.media_type()
            ),
            fix,
        );
    }
    requirement(5, id, true, format!("{path} is an MCP server card"), fix)
}

fn a2a_card(check: &Outcome) -> Requirement {
    let fix = check.spec.fix;
    requirement(
        5,
        "a2a-agent-card",
        check.status == Status::Pass,
        check.message.clone(),
        fix,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_names_follow_agent_skills() {
        assert!(skill_name_ok("code-review"));
        for bad in ["", "-a", "a-", "a--b", "Code", "a_b"] {
            assert!(!skill_name_ok(bad), "{bad}");
        }
    }

    #[test]
    fn levels_have_names() {
        assert_eq!(name(0), "no level");
        assert_eq!(name(5), "Agent-Native");
    }
}
