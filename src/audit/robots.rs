//! robots.txt read as RFC 9309 groups (user-agent lines, then their rules), with the lines
//! outside the RFC that AI policies add: `Sitemap:`, `Content-Signal:`, `Content-Usage:`.

/// AI agents' user-agent tokens that a robots.txt names to set rules for them (the operators'
/// published crawler names).
pub const AI_AGENTS: [&str; 22] = [
    "GPTBot",
    "ChatGPT-User",
    "OAI-SearchBot",
    "ClaudeBot",
    "Claude-User",
    "Claude-SearchBot",
    "anthropic-ai",
    "Google-Extended",
    "Google-CloudVertexBot",
    "PerplexityBot",
    "Perplexity-User",
    "CCBot",
    "Applebot-Extended",
    "Bytespider",
    "Meta-ExternalAgent",
    "Meta-ExternalFetcher",
    "Amazonbot",
    "cohere-ai",
    "MistralAI-User",
    "DuckAssistBot",
    "YouBot",
    "Diffbot",
];

/// One group: the user agents it names and its `Allow`/`Disallow` rules.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Group {
    pub agents: Vec<String>,
    /// `(allow, path)`.
    pub rules: Vec<(bool, String)>,
}

#[derive(Debug, Default, Clone)]
pub struct Robots {
    pub groups: Vec<Group>,
    pub sitemaps: Vec<String>,
    /// `Content-Signal:` and `Content-Usage:` values, as written.
    pub signals: Vec<String>,
}

impl Robots {
    pub fn parse(text: &str) -> Self {
        let mut out = Self::default();
        let mut current: Option<Group> = None;
        for raw in text.lines() {
            let line = raw.split('#').next().unwrap_or_default().trim();
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim().to_string();
            match key.trim().to_ascii_lowercase().as_str() {
                "user-agent" => match &mut current {
                    Some(g) if g.rules.is_empty() => g.agents.push(value),
                    _ => {
                        out.groups.extend(current.take());
                        current = Some(Group {
                            agents: vec![value],
                            rules: Vec::new(),
                        });
                    }
                },
                "allow" | "disallow" => {
                    if let Some(g) = &mut current {
                        g.rules
                            .push((key.trim().eq_ignore_ascii_case("allow"), value));
                    }
                }
                "sitemap" => out.sitemaps.push(value),
                "content-signal" | "content-usage" if !value.is_empty() => {
                    out.signals.push(value);
                }
                _ => {}
            }
        }
        out.groups.extend(current);
        out
    }

    /// Whether any line is a `User-agent:` line.
    pub fn has_user_agent(&self) -> bool {
        !self.groups.is_empty()
    }

    /// The AI agents named by a group with at least one rule.
    pub fn ai_agents_with_rules(&self) -> Vec<String> {
        let mut out = Vec::new();
        for g in self.groups.iter().filter(|g| !g.rules.is_empty()) {
            for a in &g.agents {
                if AI_AGENTS.iter().any(|known| known.eq_ignore_ascii_case(a)) && !out.contains(a) {
                    out.push(a.clone());
                }
            }
        }
        out
    }

    /// `User-agent: *` does not block (`Allow: /`, or no `Disallow` with a path), and no
    /// other group has `Disallow: /`.
    pub fn allows_all(&self) -> bool {
        let star = self
            .groups
            .iter()
            .filter(|g| g.agents.iter().any(|a| a == "*"));
        let permissive = star.clone().any(|g| {
            g.rules.iter().any(|(allow, p)| *allow && p == "/")
                || !g.rules.iter().any(|(allow, p)| !allow && !p.is_empty())
        });
        let has_star = star.count() > 0;
        let blanket_block = self
            .groups
            .iter()
            .filter(|g| !g.agents.iter().any(|a| a == "*"))
            .any(|g| g.rules.iter().any(|(allow, p)| !allow && p == "/"));
        has_star && permissive && !blanket_block
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_rules_and_signals() {
        let r = Robots::parse(
            "User-agent: GPTBot\nUser-agent: ClaudeBot # two agents\nDisallow: /private\n\n\
             User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\
             Sitemap: https://example.com/sitemap.xml\n",
        );
        assert_eq!(r.groups.len(), 2);
        assert_eq!(r.ai_agents_with_rules(), ["GPTBot", "ClaudeBot"]);
        assert_eq!(r.signals, ["search=yes, ai-train=no"]);
        assert_eq!(r.sitemaps, ["https://example.com/sitemap.xml"]);
        assert!(r.allows_all());
        assert!(!Robots::parse("User-agent: *\nDisallow: /\n").allows_all());
        assert!(
            Robots::parse("User-agent: *\nAllow: /\n")
                .ai_agents_with_rules()
                .is_empty()
        );
    }
}
