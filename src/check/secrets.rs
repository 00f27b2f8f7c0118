//! Credential shapes: well-known key formats and long high-entropy tokens.

/// Known prefixes, the characters that follow them, and how many at least.
const PREFIXES: &[(&str, &str, usize)] = &[
    ("sk_live_", "Stripe secret key", 16),
    ("rk_live_", "Stripe restricted key", 16),
    ("sk_test_", "Stripe test key", 16),
    ("sk-proj-", "OpenAI key", 20),
    ("sk-ant-", "Anthropic key", 20),
    ("ghp_", "GitHub token", 30),
    ("gho_", "GitHub token", 30),
    ("ghu_", "GitHub token", 30),
    ("ghs_", "GitHub token", 30),
    ("ghr_", "GitHub token", 30),
    ("github_pat_", "GitHub token", 30),
    ("glpat-", "GitLab token", 20),
    ("xoxa-", "Slack token", 10),
    ("xoxb-", "Slack token", 10),
    ("xoxp-", "Slack token", 10),
    ("xoxr-", "Slack token", 10),
    ("xoxs-", "Slack token", 10),
    ("AKIA", "AWS access key", 16),
    ("ASIA", "AWS access key", 16),
    ("AIza", "Google API key", 35),
    ("SG.", "SendGrid key", 40),
];

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+' | '/' | '=')
}

/// The kind of credential `text` appears to hold, if any.
pub fn find(text: &str) -> Option<&'static str> {
    if text.contains("PRIVATE KEY-----") {
        return Some("private key block");
    }
    for word in text
        .split(|c: char| !is_token_char(c))
        .filter(|w| w.len() >= 12)
    {
        for (prefix, kind, min) in PREFIXES {
            if let Some(rest) = word.strip_prefix(prefix) {
                let aws = prefix.starts_with('A') && prefix.len() == 4 && prefix != &"AIza";
                let ok = if aws {
                    rest.len() == *min
                        && rest
                            .chars()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                } else {
                    rest.len() >= *min
                };
                if ok {
                    return Some(kind);
                }
            }
        }
        if is_jwt(word) {
            return Some("JSON Web Token");
        }
        if looks_random(word) {
            return Some("long random token");
        }
    }
    None
}

fn is_jwt(word: &str) -> bool {
    let parts: Vec<&str> = word.split('.').collect();
    parts.len() == 3
        && parts[0].starts_with("eyJ")
        && parts[1].starts_with("eyJ")
        && parts.iter().all(|p| p.len() >= 10)
}

/// 32+ characters mixing letters and digits with the entropy of random data (hex digests, at
/// 4 bits a character, stay below the bar; so do words and paths).
fn looks_random(word: &str) -> bool {
    let word = word.trim_matches(|c: char| matches!(c, '.' | '/' | '='));
    if word.len() < 32 || word.contains('/') && word.split('/').all(|p| p.len() < 32) {
        return false;
    }
    let has = |f: fn(&char) -> bool| word.chars().any(|c| f(&c));
    if !(has(char::is_ascii_digit)
        && has(char::is_ascii_lowercase)
        && has(char::is_ascii_uppercase))
    {
        return false;
    }
    entropy(word) > 4.3
}

fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 128];
    let mut n = 0.0;
    for b in s.bytes().filter(u8::is_ascii) {
        counts[b as usize] += 1;
        n += 1.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// The value with all but its first four characters hidden.
pub fn mask(text: &str) -> String {
    let shown: String = text.chars().take(4).collect();
    format!("`{shown}…` ({} characters)", text.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_well_known_credentials() {
        let cases = [
            ("key: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "Stripe secret key"),
            ("ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "GitHub token"),
            ("xoxb-123456789012-abcdefABCDEF", "Slack token"),
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key"),
            ("-----BEGIN RSA PRIVATE KEY-----\nMIIE", "private key block"),
            (
                "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "JSON Web Token",
            ),
            (
                "token=Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eK",
                "long random token",
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(find(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn leaves_ordinary_text_alone() {
        for text in [
            "Search products by keyword",
            "https://api.example.com/v1/products/search",
            "X-API-Key",
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "ThisIsAVeryLongCamelCaseIdentifierName",
            "sk_live_",
            "AKIA is how AWS keys start",
            "/api/capabilities/search_products_by_category_and_price",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }

    #[test]
    fn masks_all_but_a_hint() {
        assert_eq!(mask("sk_live_abcdef"), "`sk_l…` (14 characters)");
    }
}
