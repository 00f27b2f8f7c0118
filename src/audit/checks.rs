//! The Agent-Adoption Specification v1.0's 25 checks (its §5), each classified as the
//! specification says, with a fix for each failure. Headless rendering is not done: the
//! `rendering-strategy` check is `neutral` unless the home page is an SPA shell, as its §C.2
//! requires of a scanner without a renderer.

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::robots::Robots;
use super::{Answer, Fetched, Prober, Status};

pub const DISCOVERABILITY: &str = "discoverability";
pub const ACCESS_CONTROL: &str = "accessControl";
pub const CONTENT_READABILITY: &str = "contentReadability";
pub const AGENT_ENDPOINTS: &str = "agentEndpoints";

/// The categories in the specification's order, with its description of each.
pub const CATEGORIES: [(&str, &str); 4] = [
    (
        DISCOVERABILITY,
        "Can agents find the signals they need to navigate the site? robots.txt, XML sitemap and Link response headers.",
    ),
    (
        ACCESS_CONTROL,
        "Is the site telling AI systems what they may and may not do with its content? Per-bot robots.txt rules, content-usage signals, bot authentication and blanket-allow posture.",
    ),
    (
        CONTENT_READABILITY,
        "Once an agent is inside, can it read what it fetches? Markdown availability, page size, rendering strategy, status-code honesty, redirects, llms.txt, AGENTS.md and cache headers.",
    ),
    (
        AGENT_ENDPOINTS,
        "Does the site expose the surfaces agents need to call it programmatically? MCP Server Cards, A2A Agent Cards, Agent Skills indexes, OAuth discovery, Protected Resource Metadata and the API catalog.",
    ),
];

/// One check of the catalog: what never changes between audits.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub id: &'static str,
    pub category: &'static str,
    pub weight: u8,
    pub description: &'static str,
    pub spec_urls: &'static [&'static str],
    pub depends_on: &'static [&'static str],
    /// What to add or change when the check fails.
    pub fix: &'static str,
}

const RFC9309: &str = "https://www.rfc-editor.org/rfc/rfc9309";
const ROBOTS: &[&str] = &["robots-txt-exists"];
const LLMS: &[&str] = &["llms-txt-exists"];
const LLMSTXT: &str = "https://llmstxt.org/";

/// The 25 checks, in the specification's order (by category, then weight, then id).
pub const CATALOG: [Spec; 25] = [
    Spec {
        id: "robots-txt-exists",
        category: DISCOVERABILITY,
        weight: 7,
        description: "Whether /robots.txt is reachable, served as text/* and holds at least one User-agent line (RFC 9309).",
        spec_urls: &[RFC9309],
        depends_on: &[],
        fix: "publish `robots.txt` at the site's root, served as text/plain, with a `User-agent: *` group (e.g. `User-agent: *` / `Allow: /`)",
    },
    Spec {
        id: "sitemap-exists",
        category: DISCOVERABILITY,
        weight: 4,
        description: "Whether an XML sitemap (<urlset> or <sitemapindex>) is reachable, from robots.txt's Sitemap: lines or at /sitemap.xml.",
        spec_urls: &["https://www.sitemaps.org/protocol.html"],
        depends_on: &[],
        fix: "publish `sitemap.xml` (a `<urlset>` of the site's pages) and name it in robots.txt with `Sitemap: https://<site>/sitemap.xml`",
    },
    Spec {
        id: "link-headers",
        category: DISCOVERABILITY,
        weight: 0,
        description: "Whether the home page sends Link headers (RFC 8288) pointing at agent-relevant resources rather than only browser presentation hints.",
        spec_urls: &["https://www.rfc-editor.org/rfc/rfc8288"],
        depends_on: &[],
        fix: "send a `Link` header on `/` naming agent resources, e.g. `Link: </.well-known/api-catalog>; rel=\"api-catalog\"` (a `_headers` rule for `/`)",
    },
    Spec {
        id: "ai-bot-rules",
        category: ACCESS_CONTROL,
        weight: 7,
        description: "Whether robots.txt sets rules for named AI crawlers or carries Content-Signal / Content-Usage directives.",
        spec_urls: &[
            RFC9309,
            "https://developers.cloudflare.com/bots/additional-configurations/content-signals/",
        ],
        depends_on: ROBOTS,
        fix: "add a group naming AI agents to robots.txt, e.g. `User-agent: GPTBot` / `User-agent: ClaudeBot` / `Allow: /`",
    },
    Spec {
        id: "content-signals",
        category: ACCESS_CONTROL,
        weight: 0,
        description: "Whether robots.txt carries a Content-Signal or Content-Usage directive declaring the permitted uses of the content.",
        spec_urls: &[
            "https://developers.cloudflare.com/bots/additional-configurations/content-signals/",
            "https://datatracker.ietf.org/doc/draft-ietf-aipref-vocab/",
        ],
        depends_on: ROBOTS,
        fix: "add a `Content-Signal: search=yes, ai-input=yes, ai-train=no` line to the `User-agent: *` group of robots.txt",
    },
    Spec {
        id: "web-bot-auth",
        category: ACCESS_CONTROL,
        weight: 0,
        description: "Whether the site publishes an HTTP Message Signatures key directory for bot authentication (only sites that run a crawler need one).",
        spec_urls: &[
            "https://datatracker.ietf.org/doc/html/draft-meunier-http-message-signatures-directory-05",
        ],
        depends_on: &[],
        fix: "only a site that runs its own crawler needs this: publish `/.well-known/http-message-signatures-directory` with a `keys` array of JWKs",
    },
    Spec {
        id: "robots-allow-all",
        category: ACCESS_CONTROL,
        weight: 0,
        description: "Whether robots.txt's User-agent: * group does not block and no other group blocks everything.",
        spec_urls: &[RFC9309],
        depends_on: ROBOTS,
        fix: "give robots.txt a `User-agent: *` group with `Allow: /`, and no group with `Disallow: /`",
    },
    Spec {
        id: "rendering-strategy",
        category: CONTENT_READABILITY,
        weight: 10,
        description: "Whether the home page's HTML carries its content without JavaScript (an SPA shell fails; without a headless renderer, anything else is neutral).",
        spec_urls: &[],
        depends_on: &[],
        fix: "render the home page's content into its HTML (server-side or at build time) instead of an empty root element filled by JavaScript",
    },
    Spec {
        id: "markdown-url-support",
        category: CONTENT_READABILITY,
        weight: 8,
        description: "Whether pages have .md twins (/page.md beside /page.html), sampling up to 5 URLs from the sitemap and the home page.",
        spec_urls: &[
            LLMSTXT,
            "https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/",
        ],
        depends_on: &[],
        fix: "publish a Markdown twin of each page: `index.md` for `/`, `page.md` for `/page.html` or `/page`",
    },
    Spec {
        id: "http-status-codes",
        category: CONTENT_READABILITY,
        weight: 6,
        description: "Whether a path that does not exist answers 4xx rather than a 200 soft 404.",
        spec_urls: &["https://www.rfc-editor.org/rfc/rfc9110#section-15.5.5"],
        depends_on: &[],
        fix: "answer missing paths with 404: publish a `404.html` (Cloudflare Pages serves the home page with 200 without one) and remove catch-all `/* /index.html 200` rewrites",
    },
    Spec {
        id: "page-size-html",
        category: CONTENT_READABILITY,
        weight: 6,
        description: "Whether sampled pages (up to 10) convert to at most 50,000 characters of text each, a size that fits an agent's context.",
        spec_urls: &[],
        depends_on: &[],
        fix: "split pages whose text exceeds 50,000 characters",
    },
    Spec {
        id: "markdown-negotiation",
        category: CONTENT_READABILITY,
        weight: 5,
        description: "Whether the home page answers Accept: text/markdown with Markdown (Content-Type: text/markdown).",
        spec_urls: &[
            LLMSTXT,
            "https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/",
        ],
        depends_on: &[],
        fix: "answer `GET /` with `Accept: text/markdown` by a Markdown version of the home page sent as `Content-Type: text/markdown` (a host rule or worker that varies on Accept, with `Vary: Accept`)",
    },
    Spec {
        id: "redirect-behavior",
        category: CONTENT_READABILITY,
        weight: 4,
        description: "Whether sampled URLs (up to 5) redirect, if at all, with HTTP 3xx within the same site rather than off the site or by JavaScript.",
        spec_urls: &["https://www.rfc-editor.org/rfc/rfc9110#section-15.4"],
        depends_on: &[],
        fix: "redirect with an HTTP 3xx to a URL on the same site; drop JavaScript and meta-refresh redirects",
    },
    Spec {
        id: "agents-md-detection",
        category: CONTENT_READABILITY,
        weight: 0,
        description: "Whether /AGENTS.md is published as Markdown or plain text, at least 50 bytes.",
        spec_urls: &["https://agents.md/"],
        depends_on: &[],
        fix: "publish `AGENTS.md` at the site's root (Markdown, at least 50 bytes) for coding agents",
    },
    Spec {
        id: "cache-header-hygiene",
        category: CONTENT_READABILITY,
        weight: 0,
        description: "Whether the home page sends Cache-Control, ETag or Last-Modified, so agents can re-fetch efficiently.",
        spec_urls: &["https://www.rfc-editor.org/rfc/rfc9111"],
        depends_on: &[],
        fix: "send `Cache-Control` on `/` (a `_headers` rule such as `/` / `  Cache-Control: public, max-age=300`)",
    },
    Spec {
        id: "llms-txt-exists",
        category: CONTENT_READABILITY,
        weight: 0,
        description: "Whether llms.txt is reachable at /llms.txt or /docs/llms.txt (informational; the files found are in details).",
        spec_urls: &[LLMSTXT],
        depends_on: &[],
        fix: "publish `/llms.txt` (wellgen's `llms-txt` target)",
    },
    Spec {
        id: "llms-txt-has-optional-section",
        category: CONTENT_READABILITY,
        weight: 0,
        description: "Whether the llms.txt found has an `## Optional` section.",
        spec_urls: &[LLMSTXT],
        depends_on: LLMS,
        fix: "add an `## Optional` section to llms.txt for links an agent may skip",
    },
    Spec {
        id: "llms-txt-size",
        category: CONTENT_READABILITY,
        weight: 0,
        description: "The llms.txt's size against context windows (details.tier: pass up to 50,000 bytes, warn to 100,000, fail beyond).",
        spec_urls: &[LLMSTXT],
        depends_on: LLMS,
        fix: "keep llms.txt under 50,000 bytes",
    },
    Spec {
        id: "llms-txt-valid",
        category: CONTENT_READABILITY,
        weight: 0,
        description: "The llms.txt's structure (details.verdict: structured, minimal, unstructured or skipped).",
        spec_urls: &[LLMSTXT],
        depends_on: LLMS,
        fix: "start llms.txt with an H1, then a `> ` summary and `## ` sections of links",
    },
    Spec {
        id: "mcp-server-card",
        category: AGENT_ENDPOINTS,
        weight: 10,
        description: "Whether an MCP server card at /.well-known/mcp/server-card.json (or server-cards.json, mcp.json) declares serverInfo.name and a transport with a URL.",
        spec_urls: &[
            "https://modelcontextprotocol.io/community/server-card/charter",
            "https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127",
        ],
        depends_on: &[],
        fix: "publish `/.well-known/mcp/server-card.json` with `serverInfo.name`, `transport.type` and `transport.url` (and, for SEP-2127, `name`, `version`, `description` and `remotes[]`)",
    },
    Spec {
        id: "oauth-protected-resource",
        category: AGENT_ENDPOINTS,
        weight: 7,
        description: "Whether /.well-known/oauth-protected-resource is OAuth 2.0 Protected Resource Metadata (RFC 9728) with an http(s) `resource`.",
        spec_urls: &["https://www.rfc-editor.org/rfc/rfc9728"],
        depends_on: &[],
        fix: "publish `/.well-known/oauth-protected-resource` (RFC 9728): JSON with `resource` (the API's URL) and `authorization_servers`",
    },
    Spec {
        id: "oauth-discovery",
        category: AGENT_ENDPOINTS,
        weight: 6,
        description: "Whether OAuth Authorization Server Metadata (RFC 8414) or OpenID Connect discovery names an https issuer, response types and an endpoint (neutral when neither exists).",
        spec_urls: &[
            "https://www.rfc-editor.org/rfc/rfc8414",
            "https://openid.net/specs/openid-connect-discovery-1_0.html",
        ],
        depends_on: &[],
        fix: "serve valid `/.well-known/oauth-authorization-server` metadata (`issuer`, `response_types_supported`, `authorization_endpoint` or `token_endpoint`) or remove the broken document",
    },
    Spec {
        id: "a2a-agent-card",
        category: AGENT_ENDPOINTS,
        weight: 0,
        description: "Whether /.well-known/agent-card.json is an A2A Agent Card with name, description, url, capabilities and skills.",
        spec_urls: &[
            "https://a2a-protocol.org/latest/specification/",
            "https://a2a-protocol.org/latest/topics/agent-discovery/",
        ],
        depends_on: &[],
        fix: "publish `/.well-known/agent-card.json` (wellgen's `a2a` target) with `name`, `description`, `url`, `capabilities` and `skills`",
    },
    Spec {
        id: "agent-skills",
        category: AGENT_ENDPOINTS,
        weight: 0,
        description: "Whether /.well-known/agent-skills/index.json is an Agent Skills discovery index with a known $schema and sha256 digests.",
        spec_urls: &[
            "https://github.com/cloudflare/agent-skills-discovery-rfc",
            "https://agentskills.io/",
        ],
        depends_on: &[],
        fix: "publish `/.well-known/agent-skills/index.json` with `$schema` `https://schemas.agentskills.io/discovery/0.2.0/schema.json` and `skills[]` entries carrying `sha256:` digests",
    },
    Spec {
        id: "api-catalog",
        category: AGENT_ENDPOINTS,
        weight: 0,
        description: "Whether /.well-known/api-catalog (RFC 9727) answers a linkset (RFC 9264).",
        spec_urls: &[
            "https://www.rfc-editor.org/rfc/rfc9727",
            "https://www.rfc-editor.org/rfc/rfc9264",
        ],
        depends_on: &[],
        fix: "publish `/.well-known/api-catalog` (wellgen's `api-catalog` target): a linkset served as application/linkset+json",
    },
];

/// One check's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub spec: &'static Spec,
    pub status: Status,
    pub message: String,
    /// Absent on a dependency skip, as the specification's §10.2 says.
    pub details: Option<Map<String, Value>>,
    pub duration_ms: u64,
}

impl Outcome {
    pub fn id(&self) -> &'static str {
        self.spec.id
    }
}

/// What a check decides: a status, a message, details.
type Verdict = (Status, String, Option<Map<String, Value>>);

fn details(kind: &str, value: Value) -> Option<Map<String, Value>> {
    let mut map = match value {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    map.insert("kind".into(), Value::String(kind.into()));
    Some(map)
}

pub const ACCEPT_HTML: &str = "text/html,application/xhtml+xml,*/*;q=0.8";
pub const ACCEPT_ANY: &str = "*/*";
pub const ACCEPT_JSON: &str = "application/json, */*;q=0.5";

/// What several checks read: fetched once.
struct Seen {
    robots: Option<(Answer, Robots)>,
    robots_pass: bool,
    home: Fetched,
    samples: Vec<String>,
    llms: Option<(String, String)>,
}

/// Runs every check of [`CATALOG`], in its order.
pub fn run(prober: &Prober) -> Vec<Outcome> {
    let home = prober.get("/", ACCEPT_HTML);
    let robots = prober
        .get("/robots.txt", "text/plain, */*;q=0.5")
        .ok()
        .map(|a| {
            let r = Robots::parse(&a.text());
            (a, r)
        });
    let mut seen = Seen {
        robots_pass: false,
        robots,
        home,
        samples: Vec::new(),
        llms: None,
    };
    let mut out = Vec::with_capacity(CATALOG.len());
    for spec in &CATALOG {
        let started = Instant::now();
        let (status, message, details) = decide(spec.id, prober, &mut seen);
        let duration_ms = started.elapsed().as_millis().try_into().unwrap_or(u64::MAX);
        if spec.id == "robots-txt-exists" {
            seen.robots_pass = status == Status::Pass;
        }
        out.push(Outcome {
            spec,
            status,
            message,
            details,
            duration_ms,
        });
    }
    out
}

fn skipped(dep: &str) -> Verdict {
    (
        Status::Neutral,
        format!("skipped: `{dep}` did not pass"),
        None,
    )
}

fn decide(id: &str, p: &Prober, seen: &mut Seen) -> Verdict {
    match id {
        "robots-txt-exists" => robots_exists(p),
        "sitemap-exists" => {
            let (verdict, urls) = sitemap(p, seen);
            seen.samples = urls;
            verdict
        }
        "link-headers" => link_headers(&seen.home),
        "ai-bot-rules" | "content-signals" | "robots-allow-all" => {
            if !seen.robots_pass {
                return skipped("robots-txt-exists");
            }
            let Some((_, robots)) = &seen.robots else {
                return skipped("robots-txt-exists");
            };
            robots_rules(id, robots)
        }
        "web-bot-auth" => web_bot_auth(p),
        "rendering-strategy" => rendering(&seen.home),
        "markdown-url-support" => markdown_twins(p, &seen.samples),
        "http-status-codes" => soft_404(p),
        "page-size-html" => page_size(p, &seen.samples),
        "markdown-negotiation" => negotiation(p),
        "redirect-behavior" => redirects(p, &seen.samples),
        "agents-md-detection" => agents_md(p),
        "cache-header-hygiene" => cache_headers(&seen.home),
        "llms-txt-exists" => {
            let (verdict, found) = llms_exists(p);
            seen.llms = found;
            verdict
        }
        "llms-txt-has-optional-section" | "llms-txt-size" | "llms-txt-valid" => match &seen.llms {
            Some((_, body)) => llms_shape(id, body),
            None => (
                Status::Neutral,
                "no llms.txt was found".into(),
                details(id, json!({})),
            ),
        },
        "mcp-server-card" => mcp_card(p),
        "oauth-protected-resource" => protected_resource(p),
        "oauth-discovery" => oauth_discovery(p),
        "a2a-agent-card" => a2a_card(p),
        "agent-skills" => agent_skills(p),
        "api-catalog" => api_catalog(p),
        _ => (Status::Neutral, "not evaluated".into(), None),
    }
}

fn robots_exists(p: &Prober) -> Verdict {
    let kind = "robots-txt-exists";
    let answer = match p.get("/robots.txt", "text/plain, */*;q=0.5") {
        Ok(a) => a,
        Err(e) => {
            return (
                Status::Fail,
                format!("/robots.txt: {e}"),
                details(kind, json!({})),
            );
        }
    };
    let d = details(
        kind,
        json!({"status": answer.status, "contentType": answer.media_type()}),
    );
    if !answer.ok() {
        return (
            Status::Fail,
            format!("/robots.txt answers {}", answer.status),
            d,
        );
    }
    if !answer.media_type().starts_with("text/") {
        return (
            Status::Fail,
            format!(
                "/robots.txt is served as `{}`, not text/* (a soft 404's HTML page?)",
                answer.media_type()
            ),
            d,
        );
    }
    if !Robots::parse(&answer.text()).has_user_agent() {
        return (
            Status::Fail,
            "/robots.txt has no `User-agent:` line".into(),
            d,
        );
    }
    (
        Status::Pass,
        "/robots.txt is served with User-agent rules".into(),
        d,
    )
}

/// The name of the XML document's root element, its prefix left out.
pub fn xml_root(text: &str) -> Option<String> {
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("<?") {
            rest = r.split_once("?>")?.1.trim_start();
        } else if let Some(r) = rest.strip_prefix("<!--") {
            rest = r.split_once("-->")?.1.trim_start();
        } else if let Some(r) = rest.strip_prefix("<!") {
            rest = r.split_once('>')?.1.trim_start();
        } else {
            break;
        }
    }
    let name: String = rest
        .strip_prefix('<')?
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
        .collect();
    let local = name.rsplit(':').next().unwrap_or_default();
    (!local.is_empty()).then(|| local.to_string())
}

/// The `<loc>` values of a sitemap.
fn locs(text: &str) -> Vec<String> {
    text.split("<loc>")
        .skip(1)
        .filter_map(|s| {
            s.split_once("</loc>")
                .map(|(v, _)| v.trim().replace("&amp;", "&"))
        })
        .collect()
}

fn sitemap(p: &Prober, seen: &Seen) -> (Verdict, Vec<String>) {
    let kind = "sitemap-exists";
    let mut candidates: Vec<String> = Vec::new();
    let mut elsewhere = Vec::new();
    if seen.robots_pass
        && let Some((_, robots)) = &seen.robots
    {
        for s in &robots.sitemaps {
            match p.on_site("/robots.txt", s) {
                Some(path) => candidates.push(path),
                None => elsewhere.push(s.clone()),
            }
        }
    }
    if !candidates.iter().any(|c| c == "/sitemap.xml") {
        candidates.push("/sitemap.xml".into());
    }
    let mut reachable = false;
    let mut probed = Vec::new();
    for path in &candidates {
        let Ok(answer) = p.get(path, "application/xml, text/xml, */*;q=0.5") else {
            probed.push(json!({"path": path, "reached": false}));
            continue;
        };
        reachable = true;
        probed.push(json!({"path": path, "status": answer.status}));
        let text = answer.text();
        let root = xml_root(&text);
        if answer.ok() && matches!(root.as_deref(), Some("urlset" | "sitemapindex")) {
            let urls = locs(&text)
                .iter()
                .filter_map(|u| p.on_site(path, u))
                .collect();
            return (
                (
                    Status::Pass,
                    format!("{path} is a sitemap (<{}>)", root.unwrap_or_default()),
                    details(kind, json!({"probed": probed, "offSite": elsewhere})),
                ),
                urls,
            );
        }
    }
    let d = details(kind, json!({"probed": probed, "offSite": elsewhere}));
    if !reachable {
        return (
            (Status::Neutral, "no sitemap could be fetched".into(), d),
            Vec::new(),
        );
    }
    (
        (
            Status::Fail,
            format!(
                "no sitemap: {} answered without a <urlset> or <sitemapindex>",
                candidates.join(", ")
            ),
            d,
        ),
        Vec::new(),
    )
}

/// One link of an RFC 8288 `Link` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub target: String,
    /// Its `rel` values, lowercased.
    pub rels: Vec<String>,
    /// Its `type`, lowercased.
    pub media_type: Option<String>,
}

/// The links of `Link` header values (RFC 8288 §3): `<target>; param=value, ...`, commas
/// inside `<>` and quotes kept.
pub fn parse_links<'a>(values: impl Iterator<Item = &'a str>) -> Vec<Link> {
    let mut out = Vec::new();
    for value in values {
        let mut parts = Vec::new();
        let (mut current, mut quoted, mut angled) = (String::new(), false, false);
        for c in value.chars() {
            match c {
                '"' if !angled => quoted = !quoted,
                '<' if !quoted => angled = true,
                '>' if !quoted => angled = false,
                ',' if !quoted && !angled => {
                    parts.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        parts.push(current);
        for part in parts {
            let part = part.trim();
            let Some(rest) = part.strip_prefix('<') else {
                continue;
            };
            let Some((target, params)) = rest.split_once('>') else {
                continue;
            };
            let mut link = Link {
                target: target.trim().to_string(),
                rels: Vec::new(),
                media_type: None,
            };
            for param in params.split(';') {
                let Some((name, value)) = param.split_once('=') else {
                    continue;
                };
                let value = value.trim().trim_matches('"').to_ascii_lowercase();
                match name.trim().to_ascii_lowercase().as_str() {
                    "rel" => link.rels = value.split_whitespace().map(String::from).collect(),
                    "type" => link.media_type = Some(value),
                    _ => {}
                }
            }
            out.push(link);
        }
    }
    out
}

const PRESENTATION_RELS: [&str; 9] = [
    "preload",
    "prefetch",
    "stylesheet",
    "icon",
    "dns-prefetch",
    "preconnect",
    "modulepreload",
    "apple-touch-icon",
    "unknown",
];

fn link_headers(home: &Fetched) -> Verdict {
    let kind = "link-headers";
    let Ok(home) = home else {
        return (
            Status::Neutral,
            "the home page could not be fetched".into(),
            None,
        );
    };
    let links = parse_links(home.header_values("link"));
    let rels: Vec<&String> = links.iter().flat_map(|l| &l.rels).collect();
    let d = details(kind, json!({"rels": rels}));
    if home.header("link").is_none() {
        return (
            Status::Neutral,
            "the home page sends no Link header".into(),
            d,
        );
    }
    if rels
        .iter()
        .any(|r| !PRESENTATION_RELS.contains(&r.as_str()))
    {
        return (
            Status::Pass,
            "the home page's Link header names agent resources".into(),
            d,
        );
    }
    (
        Status::Fail,
        "the home page's Link header holds browser hints only".into(),
        d,
    )
}

fn robots_rules(id: &str, robots: &Robots) -> Verdict {
    let agents = robots.ai_agents_with_rules();
    let d = details(
        id,
        json!({"aiAgents": agents, "signals": robots.signals.len(), "groups": robots.groups.len()}),
    );
    match id {
        "ai-bot-rules" if !agents.is_empty() || !robots.signals.is_empty() => (
            Status::Pass,
            if agents.is_empty() {
                "robots.txt has a Content-Signal / Content-Usage directive".into()
            } else {
                format!("robots.txt sets rules for {}", agents.join(", "))
            },
            d,
        ),
        "ai-bot-rules" => (
            Status::Fail,
            "robots.txt names no AI agent and has no Content-Signal line".into(),
            d,
        ),
        "content-signals" if !robots.signals.is_empty() => (
            Status::Pass,
            "robots.txt declares content signals".into(),
            d,
        ),
        "content-signals" => (
            Status::Neutral,
            "robots.txt has no Content-Signal or Content-Usage line".into(),
            d,
        ),
        _ if robots.allows_all() => (Status::Pass, "robots.txt allows every agent".into(), d),
        _ => (
            Status::Fail,
            "robots.txt has no permissive `User-agent: *` group, or blocks an agent entirely"
                .into(),
            d,
        ),
    }
}

fn web_bot_auth(p: &Prober) -> Verdict {
    let kind = "web-bot-auth";
    let path = "/.well-known/http-message-signatures-directory";
    let answer = match p.get(
        path,
        "application/http-message-signatures-directory+json, application/json",
    ) {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let d = details(kind, json!({"status": answer.status}));
    if !answer.ok() {
        return (Status::Fail, format!("{path} answers {}", answer.status), d);
    }
    let keys_ok = answer
        .json()
        .and_then(|v| v.get("keys").and_then(Value::as_array).cloned())
        .is_some_and(|keys| {
            !keys.is_empty()
                && keys.iter().all(|k| {
                    k.get("kty")
                        .and_then(Value::as_str)
                        .is_some_and(|s| !s.is_empty())
                })
        });
    if keys_ok {
        (Status::Pass, format!("{path} lists signing keys"), d)
    } else {
        (
            Status::Fail,
            format!("{path} is not a key directory (a `keys` array of JWKs)"),
            d,
        )
    }
}

/// The text a page shows: scripts, styles and tags taken out, whitespace collapsed.
pub fn visible_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    while i < html.len() {
        let rest = &lower[i..];
        let skip_to = ["script", "style", "noscript"].iter().find_map(|tag| {
            rest.starts_with(&format!("<{tag}")).then(|| {
                rest.find(&format!("</{tag}"))
                    .and_then(|e| rest[e..].find('>').map(|g| i + e + g + 1))
                    .unwrap_or(html.len())
            })
        });
        if let Some(end) = skip_to {
            i = end.min(html.len());
            continue;
        }
        if rest.starts_with('<') {
            i += rest.find('>').map_or(rest.len(), |e| e + 1);
            out.push(' ');
            continue;
        }
        let c = html[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn is_html(body: &str) -> bool {
    let head: String = body
        .trim_start()
        .chars()
        .take(1024)
        .collect::<String>()
        .to_ascii_lowercase();
    head.starts_with("<!doctype html")
        || head.starts_with("<html")
        || head.contains("<html")
        || head.contains("<body")
}

pub fn is_markdown(body: &str) -> bool {
    !body.trim().is_empty()
        && !is_html(body)
        && body.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with('#') || l.starts_with("- ") || l.starts_with("* ") || l.starts_with("```") || l.starts_with("> ")
        } || l.contains("]("))
}

/// An HTML page whose content JavaScript fills in: an empty mount element and scripts.
pub fn is_spa_shell(body: &str) -> bool {
    if !is_html(body) {
        return false;
    }
    let lower = body.to_ascii_lowercase();
    let mount = [
        "id=\"root\"",
        "id=\"app\"",
        "id=\"__next\"",
        "id=\"__nuxt\"",
        "id=\"svelte\"",
        "id='root'",
        "id='app'",
    ]
    .iter()
    .any(|m| lower.contains(m));
    mount && lower.contains("<script") && visible_text(body).chars().count() < 100
}

fn rendering(home: &Fetched) -> Verdict {
    let kind = "rendering-strategy";
    let Ok(home) = home else {
        return (
            Status::Neutral,
            "the home page could not be fetched".into(),
            None,
        );
    };
    let body = home.text();
    if home.ok() && is_spa_shell(&body) {
        return (
            Status::Fail,
            "the home page is an SPA shell: its content needs JavaScript".into(),
            details(kind, json!({"spaShell": true})),
        );
    }
    (
        Status::Neutral,
        "no headless renderer: the HTML is not an SPA shell, the render was not compared".into(),
        details(kind, json!({"spaShell": false, "rendered": false})),
    )
}

/// The sampled page paths: the sitemap's, then the home page.
fn sample(samples: &[String], n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in samples.iter().map(String::as_str).chain(["/"]) {
        if out.len() == n {
            break;
        }
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    out
}

/// The `.md` twin of a page's path.
pub fn md_twin(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or("/");
    if path.ends_with('/') {
        format!("{path}index.md")
    } else if let Some(stem) = path
        .strip_suffix(".html")
        .or_else(|| path.strip_suffix(".htm"))
    {
        format!("{stem}.md")
    } else if path.ends_with(".md") {
        path.to_string()
    } else {
        format!("{path}.md")
    }
}

fn markdown_twins(p: &Prober, samples: &[String]) -> Verdict {
    let kind = "markdown-url-support";
    let (mut served, mut missing, mut unmeasurable) = (0u32, 0u32, 0u32);
    let mut probes = Vec::new();
    let pages = sample(samples, 5);
    for page in &pages {
        let twin = md_twin(page);
        match p.get(&twin, "text/markdown, text/plain;q=0.9, */*;q=0.5") {
            Err(_) => unmeasurable += 1,
            Ok(a) if matches!(a.status, 403 | 429) || a.status >= 500 => unmeasurable += 1,
            Ok(a) if a.ok() && is_markdown(&a.text()) => served += 1,
            Ok(_) => missing += 1,
        }
        probes.push(twin);
    }
    let measurable = served + missing;
    let d = details(
        kind,
        json!({"probes": probes, "served": served, "missing": missing, "unmeasurable": unmeasurable}),
    );
    if measurable < 3 || unmeasurable * 2 >= pages.len() as u32 {
        return (
            Status::Neutral,
            format!("{measurable} measurable page(s): fewer than the 3 the check needs"),
            d,
        );
    }
    if served * 2 >= measurable {
        (
            Status::Pass,
            format!("{served} of {measurable} pages have a .md twin"),
            d,
        )
    } else {
        (
            Status::Fail,
            format!("{served} of {measurable} pages have a .md twin"),
            d,
        )
    }
}

/// A path under a sentinel prefix that no site publishes (no leading dot: Netlify hides
/// dotfiles whatever its rewrites say, which would mask a soft 404).
fn missing_path() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("/wellgen-audit-missing-{nanos:08x}/not-found")
}

fn soft_404(p: &Prober) -> Verdict {
    let kind = "http-status-codes";
    let path = missing_path();
    let answer = match p.get(&path, ACCEPT_HTML) {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let d = details(kind, json!({"probe": path, "status": answer.status}));
    match answer.status {
        400..=499 => (
            Status::Pass,
            format!("a missing page answers {}", answer.status),
            d,
        ),
        200..=299 if is_spa_shell(&answer.text()) => (
            Status::Neutral,
            "a missing page answers 200 with an SPA shell (which may say 404 itself)".into(),
            d,
        ),
        200..=299 => (
            Status::Fail,
            format!(
                "soft 404: a missing page answers {} with content",
                answer.status
            ),
            d,
        ),
        s => (Status::Neutral, format!("a missing page answers {s}"), d),
    }
}

fn page_size(p: &Prober, samples: &[String]) -> Verdict {
    let kind = "page-size-html";
    let (mut pass, mut fail) = (0u32, 0u32);
    let mut sizes = Vec::new();
    for page in sample(samples, 10) {
        let Ok(a) = p.get(&page, ACCEPT_HTML) else {
            continue;
        };
        if !a.ok() || !is_html(&a.text()) {
            continue;
        }
        let size = visible_text(&a.text()).chars().count();
        sizes.push(json!({"path": page, "characters": size}));
        if size <= 50_000 {
            pass += 1;
        } else {
            fail += 1;
        }
    }
    let ok = pass + fail;
    let d = details(kind, json!({"pages": sizes}));
    if ok < 3 {
        return (
            Status::Neutral,
            format!("{ok} HTML page(s) sampled: fewer than 3"),
            d,
        );
    }
    if fail == 0 && pass * 2 > ok {
        (
            Status::Pass,
            format!("{pass} sampled pages fit in 50,000 characters"),
            d,
        )
    } else {
        (
            Status::Fail,
            format!("{fail} of {ok} sampled pages exceed 50,000 characters"),
            d,
        )
    }
}

fn negotiation(p: &Prober) -> Verdict {
    let kind = "markdown-negotiation";
    let answer = match p.get("/", "text/markdown") {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let media = answer.media_type();
    let d = details(kind, json!({"status": answer.status, "contentType": media}));
    let body = answer.text();
    match answer.status {
        403 | 429 => (
            Status::Neutral,
            format!("`/` answers {} (a firewall?)", answer.status),
            d,
        ),
        500.. => (Status::Neutral, format!("`/` answers {}", answer.status), d),
        200..=299 if (media == "text/markdown" && !is_html(&body)) || is_markdown(&body) => (
            Status::Pass,
            "`/` answers Accept: text/markdown with Markdown".into(),
            d,
        ),
        200..=299 => (
            Status::Fail,
            format!("`/` answers Accept: text/markdown with `{media}`, not Markdown"),
            d,
        ),
        s => (
            Status::Fail,
            format!("`/` answers Accept: text/markdown with {s}"),
            d,
        ),
    }
}

/// Whether a page redirects by script or meta refresh.
fn script_redirect(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    lower.contains("http-equiv=\"refresh\"")
        || lower.contains("http-equiv='refresh'")
        || lower.contains("window.location.replace(")
        || lower.contains("window.location.href=")
        || lower.contains("window.location.href =")
        || lower.contains("window.location =")
}

fn redirects(p: &Prober, samples: &[String]) -> Verdict {
    let kind = "redirect-behavior";
    let (mut good, mut bad) = (0u32, 0u32);
    let mut seen = Vec::new();
    for page in sample(samples, 5) {
        let Ok(a) = p.get_once(&page, ACCEPT_HTML) else {
            continue;
        };
        let ok = if (300..400).contains(&a.status) {
            a.header("location")
                .is_some_and(|l| p.on_site(&page, l).is_some())
        } else {
            !(a.ok() && script_redirect(&a.text()))
        };
        seen.push(json!({"path": page, "status": a.status, "ok": ok}));
        if ok {
            good += 1;
        } else {
            bad += 1;
        }
    }
    let n = good + bad;
    let d = details(kind, json!({"samples": seen}));
    if n < 3 {
        return (
            Status::Neutral,
            format!("{n} URL(s) sampled: fewer than 3"),
            d,
        );
    }
    if bad == 0 {
        (
            Status::Pass,
            format!("{n} sampled URLs redirect, if at all, within the site"),
            d,
        )
    } else {
        (
            Status::Fail,
            format!("{bad} of {n} sampled URLs redirect off the site or by script"),
            d,
        )
    }
}

fn agents_md(p: &Prober) -> Verdict {
    let kind = "agents-md-detection";
    let answer = match p.get("/AGENTS.md", "text/markdown, text/plain, */*;q=0.5") {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let media = answer.media_type();
    let body = answer.text();
    let first = body.lines().next().unwrap_or_default().to_ascii_lowercase();
    let d = details(kind, json!({"status": answer.status, "contentType": media}));
    let ok = answer.ok()
        && matches!(
            media.as_str(),
            "text/markdown" | "text/plain" | "text/x-markdown"
        )
        && !body.trim().is_empty()
        && !body.trim_start().starts_with('<')
        && !first.contains("not found")
        && !first.contains("404")
        && body.len() >= 50;
    if ok {
        (Status::Pass, "/AGENTS.md is published".into(), d)
    } else {
        (
            Status::Fail,
            format!(
                "/AGENTS.md answers {} as `{media}`: not an AGENTS.md",
                answer.status
            ),
            d,
        )
    }
}

fn cache_headers(home: &Fetched) -> Verdict {
    let kind = "cache-header-hygiene";
    let Ok(home) = home else {
        return (
            Status::Neutral,
            "the home page could not be fetched".into(),
            None,
        );
    };
    if home.headers.is_empty() {
        return (
            Status::Neutral,
            "the home page sends no headers".into(),
            None,
        );
    }
    let found: Vec<&str> = ["cache-control", "etag", "last-modified"]
        .into_iter()
        .filter(|h| home.header(h).is_some())
        .collect();
    let d = details(kind, json!({"found": found}));
    if found.is_empty() {
        (
            Status::Fail,
            "the home page sends no Cache-Control, ETag or Last-Modified".into(),
            d,
        )
    } else {
        (
            Status::Pass,
            format!("the home page sends {}", found.join(", ")),
            d,
        )
    }
}

fn llms_exists(p: &Prober) -> (Verdict, Option<(String, String)>) {
    let kind = "llms-txt-exists";
    for path in ["/llms.txt", "/docs/llms.txt"] {
        if let Ok(a) = p.get(path, "text/plain, text/markdown, */*;q=0.5")
            && a.ok()
            && !is_html(&a.text())
            && !a.body.is_empty()
        {
            return (
                (
                    Status::Neutral,
                    format!("{path} is published"),
                    details(kind, json!({"discoveredFiles": [path]})),
                ),
                Some((path.to_string(), a.text())),
            );
        }
    }
    (
        (
            Status::Neutral,
            "no llms.txt at /llms.txt or /docs/llms.txt".into(),
            details(kind, json!({"discoveredFiles": []})),
        ),
        None,
    )
}

fn llms_shape(id: &str, body: &str) -> Verdict {
    match id {
        "llms-txt-has-optional-section" => {
            let found = body.lines().any(|l| {
                l.strip_prefix("##")
                    .filter(|r| r.starts_with(char::is_whitespace))
                    .is_some_and(|r| {
                        let word = r.trim_start();
                        word.len() >= 8 && word[..8].eq_ignore_ascii_case("optional")
                    })
            });
            if found {
                (
                    Status::Pass,
                    "llms.txt has an `## Optional` section".into(),
                    details(id, json!({})),
                )
            } else {
                (
                    Status::Fail,
                    "llms.txt has no `## Optional` section".into(),
                    details(id, json!({})),
                )
            }
        }
        "llms-txt-size" => {
            let tier = match body.len() {
                0..=50_000 => "pass",
                50_001..=100_000 => "warn",
                _ => "fail",
            };
            (
                Status::Neutral,
                format!("llms.txt is {} bytes ({tier})", body.len()),
                details(id, json!({"bytes": body.len(), "tier": tier})),
            )
        }
        _ => {
            let mut lines = body.lines().filter(|l| !l.trim().is_empty());
            let h1 = lines.next().is_some_and(|l| l.starts_with("# "));
            let quote = body.lines().any(|l| l.starts_with("> "));
            let section = body.lines().any(|l| l.starts_with("## "));
            let link = body.contains("](https://") || body.contains("](http://");
            let verdict = match (h1, quote || (section && link)) {
                (true, true) => "structured",
                (true, false) => "minimal",
                (false, _) => "unstructured",
            };
            (
                Status::Neutral,
                format!("llms.txt is {verdict}"),
                details(id, json!({"verdict": verdict})),
            )
        }
    }
}

/// The first parseable JSON of `paths`: `Ok((path, value))`; `Err(true)` when every path
/// failed at the network level, `Err(false)` when none answered JSON.
fn first_json(p: &Prober, paths: &[&str], accept: &str) -> Result<(String, Answer, Value), bool> {
    let mut all_failed = true;
    for path in paths {
        let Ok(a) = p.get(path, accept) else { continue };
        all_failed = false;
        if a.ok()
            && let Some(v) = a.json()
        {
            return Ok((path.to_string(), a, v));
        }
    }
    Err(all_failed)
}

pub const MCP_CARD_PATHS: [&str; 3] = [
    "/.well-known/mcp/server-card.json",
    "/.well-known/mcp/server-cards.json",
    "/.well-known/mcp.json",
];

fn str_at<'a>(v: &'a Value, pointer: &str) -> Option<&'a str> {
    v.pointer(pointer).and_then(Value::as_str)
}

fn mcp_card(p: &Prober) -> Verdict {
    let kind = "mcp-server-card";
    match first_json(p, &MCP_CARD_PATHS, ACCEPT_JSON) {
        Err(true) => (Status::Neutral, "no MCP server card path could be fetched".into(), None),
        Err(false) => (
            Status::Fail,
            "no MCP server card at /.well-known/mcp/server-card.json, server-cards.json or mcp.json".into(),
            details(kind, json!({})),
        ),
        Ok((path, _, v)) => {
            let ok = str_at(&v, "/serverInfo/name").is_some()
                && str_at(&v, "/transport/type").is_some()
                && (str_at(&v, "/transport/url").is_some()
                    || str_at(&v, "/transport/endpoint").is_some());
            let d = details(kind, json!({"path": path}));
            if ok {
                (Status::Pass, format!("{path} declares an MCP server and its transport"), d)
            } else {
                (
                    Status::Fail,
                    format!("{path} lacks `serverInfo.name`, `transport.type` or `transport.url`"),
                    d,
                )
            }
        }
    }
}

fn is_http_url(s: &str) -> bool {
    url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

fn protected_resource(p: &Prober) -> Verdict {
    let kind = "oauth-protected-resource";
    let path = "/.well-known/oauth-protected-resource";
    let answer = match p.get(path, ACCEPT_JSON) {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let d = details(kind, json!({"status": answer.status}));
    if !answer.ok() {
        return (Status::Fail, format!("{path} answers {}", answer.status), d);
    }
    match answer.json() {
        Some(v)
            if v.get("resource")
                .and_then(Value::as_str)
                .is_some_and(is_http_url) =>
        {
            (Status::Pass, format!("{path} names its resource"), d)
        }
        Some(_) => (Status::Fail, format!("{path} has no http(s) `resource`"), d),
        None => (Status::Fail, format!("{path} is not JSON"), d),
    }
}

fn oauth_discovery(p: &Prober) -> Verdict {
    let kind = "oauth-discovery";
    let valid = |v: &Value| {
        v.get("issuer")
            .and_then(Value::as_str)
            .is_some_and(|s| s.starts_with("https://") && is_http_url(s))
            && v.get("response_types_supported")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
            && (v.get("authorization_endpoint").is_some() || v.get("token_endpoint").is_some())
    };
    let paths = [
        "/.well-known/oauth-authorization-server",
        "/.well-known/openid-configuration",
    ];
    let mut clean_404 = 0;
    let mut invalid = false;
    for path in paths {
        let Ok(a) = p.get(path, ACCEPT_JSON) else {
            continue;
        };
        if a.status == 404 {
            clean_404 += 1;
            continue;
        }
        match a.json() {
            Some(v) if valid(&v) => {
                return (
                    Status::Pass,
                    format!("{path} is OAuth metadata"),
                    details(kind, json!({"path": path})),
                );
            }
            Some(_) => {
                return (
                    Status::Fail,
                    format!("{path} is JSON but not valid OAuth metadata"),
                    details(kind, json!({"path": path})),
                );
            }
            None => invalid = true,
        }
    }
    if clean_404 == 2 {
        return (
            Status::Neutral,
            "no OAuth authorization server metadata (both paths answer 404)".into(),
            details(kind, json!({})),
        );
    }
    if invalid {
        return (
            Status::Fail,
            "the OAuth metadata paths answer, but with no metadata (a soft 404?)".into(),
            details(kind, json!({})),
        );
    }
    (
        Status::Neutral,
        "the OAuth metadata paths could not be fetched".into(),
        None,
    )
}

/// What an A2A agent card lacks of what the specification checks.
pub fn a2a_missing(v: &Value) -> Vec<&'static str> {
    let nonempty = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    };
    let mut missing = Vec::new();
    for k in ["name", "description", "url"] {
        if !nonempty(k) {
            missing.push(k);
        }
    }
    if !v.get("capabilities").is_some_and(Value::is_object) {
        missing.push("capabilities");
    }
    if !v.get("skills").is_some_and(Value::is_array) {
        missing.push("skills");
    }
    missing
}

pub const A2A_CARD_PATH: &str = "/.well-known/agent-card.json";

fn a2a_card(p: &Prober) -> Verdict {
    let kind = "a2a-agent-card";
    let path = A2A_CARD_PATH;
    let answer = match p.get(path, ACCEPT_JSON) {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let d = details(kind, json!({"status": answer.status}));
    if !answer.ok() {
        return (Status::Fail, format!("{path} answers {}", answer.status), d);
    }
    match answer.json() {
        Some(v) if v.is_object() => {
            let missing = a2a_missing(&v);
            if missing.is_empty() {
                (Status::Pass, format!("{path} is an A2A agent card"), d)
            } else {
                (
                    Status::Fail,
                    format!("{path} lacks {}", missing.join(", ")),
                    d,
                )
            }
        }
        _ => (Status::Fail, format!("{path} is not a JSON object"), d),
    }
}

pub const SKILLS_PATHS: [&str; 2] = [
    "/.well-known/agent-skills/index.json",
    "/.well-known/skills/index.json",
];
pub const SKILLS_SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

fn is_sha256_digest(s: &str) -> bool {
    s.strip_prefix("sha256:")
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

fn agent_skills(p: &Prober) -> Verdict {
    let kind = "agent-skills";
    let (path, v) = match first_json(p, &SKILLS_PATHS, ACCEPT_JSON) {
        Err(true) => {
            return (
                Status::Neutral,
                "no skills index path could be fetched".into(),
                None,
            );
        }
        Err(false) => {
            return (
                Status::Fail,
                "no Agent Skills index at /.well-known/agent-skills/index.json".into(),
                details(kind, json!({})),
            );
        }
        Ok((path, _, v)) => (path, v),
    };
    let d = details(kind, json!({"path": path}));
    if !v.is_object() {
        return (Status::Fail, format!("{path} is not a JSON object"), d);
    }
    let (Some(schema), Some(skills)) = (
        v.get("$schema").and_then(Value::as_str),
        v.get("skills").and_then(Value::as_array),
    ) else {
        return (
            Status::Fail,
            format!("{path} lacks `$schema` or `skills`"),
            d,
        );
    };
    let semver = |s: &str| {
        let parts: Vec<&str> = s.split('.').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()))
            && matches!(parts[0], "0" | "1")
    };
    if schema != SKILLS_SCHEMA && !semver(schema) {
        return (
            Status::Neutral,
            format!("{path} names an unknown `$schema`"),
            d,
        );
    }
    let bad = skills
        .iter()
        .filter(|s| {
            !s.get("digest")
                .and_then(Value::as_str)
                .is_some_and(is_sha256_digest)
        })
        .count();
    if bad > 0 {
        return (
            Status::Fail,
            format!("{bad} skill(s) in {path} lack a `sha256:` digest"),
            d,
        );
    }
    (
        Status::Pass,
        format!("{path} lists {} skill(s)", skills.len()),
        d,
    )
}

pub const ACCEPT_LINKSET: &str = "application/linkset+json, application/json";

fn api_catalog(p: &Prober) -> Verdict {
    let kind = "api-catalog";
    let path = "/.well-known/api-catalog";
    let answer = match p.get(path, ACCEPT_LINKSET) {
        Ok(a) => a,
        Err(e) => return (Status::Neutral, e, details(kind, json!({}))),
    };
    let d = details(
        kind,
        json!({"status": answer.status, "contentType": answer.media_type()}),
    );
    if !answer.ok() {
        return (Status::Fail, format!("{path} answers {}", answer.status), d);
    }
    match answer.json() {
        Some(v) if v.get("linkset").is_some_and(Value::is_array) || v.is_array() => {
            (Status::Pass, format!("{path} is a linkset"), d)
        }
        Some(_) => (Status::Fail, format!("{path} has no `linkset` array"), d),
        None => (Status::Fail, format!("{path} is not JSON"), d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_is_the_specifications() {
        assert_eq!(CATALOG.len(), 25);
        let total: u32 = CATALOG.iter().map(|c| u32::from(c.weight)).sum();
        assert_eq!(total, 80);
        for (category, _) in CATEGORIES {
            assert!(CATALOG.iter().any(|c| c.category == category));
        }
    }

    #[test]
    fn link_headers_parse_as_rfc_8288() {
        let links = parse_links(
            [
                "</.well-known/api-catalog>; rel=\"api-catalog\", </index.md>; rel=alternate; type=\"text/markdown\"",
                "<https://x.example/a,b>; rel=\"service-desc describedby\"",
            ]
            .into_iter(),
        );
        assert_eq!(links.len(), 3);
        assert_eq!(links[0].rels, ["api-catalog"]);
        assert_eq!(links[1].media_type.as_deref(), Some("text/markdown"));
        assert_eq!(links[2].target, "https://x.example/a,b");
        assert_eq!(links[2].rels, ["service-desc", "describedby"]);
    }

    #[test]
    fn shapes_of_bodies() {
        assert_eq!(
            xml_root("<?xml version=\"1.0\"?>\n<!-- x -->\n<urlset xmlns=\"x\">").as_deref(),
            Some("urlset")
        );
        assert_eq!(
            xml_root("<sm:sitemapindex>").as_deref(),
            Some("sitemapindex")
        );
        assert!(is_markdown("# Title\n\nText"));
        assert!(!is_markdown("<!DOCTYPE html><html><body># x</body></html>"));
        assert!(is_spa_shell(
            "<!doctype html><html><body><div id=\"root\"></div><script src=\"/a.js\"></script></body></html>"
        ));
        assert!(!is_spa_shell(
            "<html><body><h1>Hello</h1><p>Real words here.</p></body></html>"
        ));
        assert_eq!(md_twin("/"), "/index.md");
        assert_eq!(md_twin("/docs/a.html"), "/docs/a.md");
        assert_eq!(md_twin("/docs/a"), "/docs/a.md");
        assert_eq!(
            visible_text("<p>a <b>b</b></p><script>x()</script>c"),
            "a b c"
        );
    }
}
