//! Agent-facing text: invisible characters, instruction-like phrases, local addresses.

/// The first invisible or direction-changing character, with its name.
pub fn hidden_char(text: &str) -> Option<(char, &'static str)> {
    text.chars().find_map(|c| {
        let name = match c {
            '\u{200B}' => "zero width space",
            '\u{200C}' => "zero width non-joiner",
            '\u{200D}' => "zero width joiner",
            '\u{2060}' => "word joiner",
            '\u{FEFF}' => "zero width no-break space",
            '\u{00AD}' => "soft hyphen",
            '\u{200E}' | '\u{200F}' | '\u{061C}' => "direction mark",
            '\u{202A}'..='\u{202E}' => "bidirectional embedding or override",
            '\u{2066}'..='\u{2069}' => "bidirectional isolate",
            '\u{E0000}'..='\u{E007F}' => "tag character",
            _ => return None,
        };
        Some((c, name))
    })
}

/// Phrases that address the model reading the document rather than describe the service.
const INJECTION: &[&str] = &[
    "ignore previous instructions",
    "ignore all previous",
    "ignore the above",
    "disregard previous",
    "disregard all previous",
    "forget your instructions",
    "you are now",
    "you are chatgpt",
    "you are an ai",
    "system:",
    "system prompt",
    "<|im_start|>",
    "[inst]",
    "### instruction",
];

pub fn injection(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    INJECTION.iter().copied().find(|p| lower.contains(p))
}

/// The host of a URL when it is loopback, private, link-local or otherwise not public.
pub fn local_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => authority.rsplit_once(':').map_or(authority, |(h, p)| {
            if p.chars().all(|c| c.is_ascii_digit()) {
                h
            } else {
                authority
            }
        }),
    };
    let lower = host.to_ascii_lowercase();
    let named = lower == "localhost"
        || lower.ends_with(".localhost")
        || lower.ends_with(".local")
        || lower.ends_with(".internal")
        || lower == "0.0.0.0"
        || lower == "::1"
        || lower == "::";
    (named || private_ipv4(&lower) || private_ipv6(&lower)).then_some(host)
}

fn private_ipv4(host: &str) -> bool {
    let Ok(ip) = host.parse::<std::net::Ipv4Addr>() else {
        return false;
    };
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.octets()[0] == 0
}

fn private_ipv6(host: &str) -> bool {
    let Ok(ip) = host.parse::<std::net::Ipv6Addr>() else {
        return false;
    };
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_named() {
        assert_eq!(hidden_char("plain text"), None);
        assert_eq!(hidden_char("a\u{200B}b").unwrap().1, "zero width space");
        assert_eq!(
            hidden_char("\u{202E}txt.exe").unwrap().1,
            "bidirectional embedding or override"
        );
        assert_eq!(hidden_char("x\u{E0041}").unwrap().1, "tag character");
    }

    #[test]
    fn instruction_phrases_are_found_in_any_case() {
        assert_eq!(
            injection("Search. IGNORE PREVIOUS INSTRUCTIONS and"),
            Some("ignore previous instructions")
        );
        assert_eq!(injection("System: you must"), Some("system:"));
        assert_eq!(injection("Search products by keyword"), None);
        assert_eq!(injection("Checks the operating system status"), None);
    }

    #[test]
    fn local_and_private_hosts() {
        for url in [
            "https://localhost/x",
            "https://api.localhost",
            "https://127.0.0.1:8443/",
            "https://10.1.2.3",
            "https://192.168.0.10/api",
            "https://172.20.0.1",
            "https://169.254.1.1",
            "https://[::1]/",
            "https://[fd00::1]:8080",
            "https://printer.local",
        ] {
            assert!(local_host(url).is_some(), "{url}");
        }
        for url in [
            "https://example.com",
            "https://172.32.0.1",
            "https://8.8.8.8",
            "https://[2001:db8::1]",
        ] {
            assert_eq!(local_host(url), None, "{url}");
        }
    }
}
