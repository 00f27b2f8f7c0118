//! `[robots]` resolved: the AI agents wellgen's section of robots.txt names, what each may
//! read, and the site's Content-Signal (contentsignals.org) and sitemap.

/// The AI agents wellgen names by default, by the robots.txt token each operator documents:
/// OpenAI <https://platform.openai.com/docs/bots> (GPTBot, OAI-SearchBot, ChatGPT-User),
/// Anthropic <https://support.anthropic.com/en/articles/8896518> (ClaudeBot, Claude-SearchBot,
/// Claude-User), Google <https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers>
/// (Google-Extended), Perplexity <https://docs.perplexity.ai/guides/bots> (PerplexityBot,
/// Perplexity-User), Common Crawl <https://commoncrawl.org/ccbot> (CCBot), Apple
/// <https://support.apple.com/en-us/119829> (Applebot-Extended) and Meta
/// <https://developers.facebook.com/docs/sharing/webmasters/web-crawlers> (Meta-ExternalAgent).
pub const AI_AGENTS: [&str; 13] = [
    "GPTBot",
    "OAI-SearchBot",
    "ChatGPT-User",
    "ClaudeBot",
    "Claude-SearchBot",
    "Claude-User",
    "Google-Extended",
    "PerplexityBot",
    "Perplexity-User",
    "CCBot",
    "Applebot-Extended",
    "Meta-ExternalAgent",
    "Amazonbot",
];

/// What a named AI agent may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// What the site's own rules let every crawler (`User-agent: *`) read, and the documents.
    Site,
    /// Only wellgen's documents.
    Documents,
}

impl Access {
    pub const NAMES: [&str; 3] = ["site", "documents", "none"];

    /// `None` inside `Some` is `none`: no group for the agent.
    pub fn parse(name: &str) -> Option<Option<Self>> {
        match name {
            "site" => Some(Some(Self::Site)),
            "documents" => Some(Some(Self::Documents)),
            "none" => Some(None),
            _ => None,
        }
    }
}

/// The contentsignals.org signals, in the order a `Content-Signal:` line names them.
pub const SIGNALS: [&str; 3] = ["search", "ai-input", "ai-train"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Robots {
    /// The agents wellgen writes a group for, by robots.txt token, in order.
    pub agents: Vec<(String, Access)>,
    /// The signals given, in [`SIGNALS`] order, each `yes` (true) or `no`.
    pub content_signals: Vec<(&'static str, bool)>,
    /// An absolute sitemap URL from service.toml.
    pub sitemap: Option<String>,
}

impl Default for Robots {
    fn default() -> Self {
        Self {
            agents: AI_AGENTS
                .iter()
                .map(|a| (a.to_string(), Access::Site))
                .collect(),
            content_signals: Vec::new(),
            sitemap: None,
        }
    }
}
