//! An absolute `https://` URL, checked the way the specs need it: no credentials, no query or
//! fragment on a base, no trailing slash (so `base + path` never doubles it).
//!
//! The `url` crate decides what a host is (IPv4 in all its WHATWG spellings, IPv6, IDNA); the
//! text is kept exactly as the author wrote it, because the crate's serialisation normalises
//! (lower case, a trailing `/`, punycode) and every target publishes the author's URL.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpsUrl(String);

impl HttpsUrl {
    /// Checks a base URL (`https://host[:port][/prefix]`).
    pub fn parse_base(text: &str) -> Result<Self, String> {
        let url = check_https(text)?;
        if url.contains(['?', '#']) {
            return Err("a base URL must not have a query string or fragment".into());
        }
        Ok(Self(url.trim_end_matches('/').to_string()))
    }

    /// Checks an origin (`https://host[:port]`): a base URL without a path.
    pub fn parse_origin(text: &str) -> Result<Self, String> {
        let url = Self::parse_base(text)?;
        if !url.path_prefix().is_empty() {
            return Err("must be an origin (`https://host`), without a path".into());
        }
        Ok(url)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `https://host[:port]`, without any path.
    pub fn origin(&self) -> HttpsUrl {
        Self(format!("https://{}", self.authority()))
    }

    /// `host[:port]`, as written.
    pub fn authority(&self) -> &str {
        let after = &self.0["https://".len()..];
        &after[..after.find('/').unwrap_or(after.len())]
    }

    /// The host, as written, without a port: an IPv6 literal keeps its brackets.
    pub fn host(&self) -> &str {
        let authority = self.authority();
        let end = match authority.strip_prefix('[') {
            Some(rest) => rest.find(']').map_or(authority.len(), |i| i + 2),
            None => authority.find(':').unwrap_or(authority.len()),
        };
        &authority[..end]
    }

    /// The path prefix after the origin (`/v1`), or "".
    pub fn path_prefix(&self) -> &str {
        let after = &self.0["https://".len()..];
        after.find('/').map_or("", |i| &after[i..])
    }

    /// `self` joined with an absolute path.
    pub fn join(&self, path: &str) -> String {
        format!("{}{}", self.0, path)
    }
}

impl std::fmt::Display for HttpsUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks any absolute `https://` URL (links, docs, token endpoints) and returns it unchanged.
pub fn check_https(text: &str) -> Result<&str, String> {
    let rest = match text.split_once("://") {
        Some(("https", rest)) => rest,
        Some((scheme, _)) => {
            return Err(format!("the URL must use https, not `{scheme}`"));
        }
        None => return Err("expected an absolute URL starting with `https://`".into()),
    };
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("a URL must not contain white space".into());
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err("a URL must not carry credentials (`user:pass@`)".into());
    }
    let (host, port) = split_authority(authority)?;
    if host.is_empty() {
        return Err("the URL has no host".into());
    }
    if let Some(port) = port
        && !(port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok_and(|p| p > 0))
    {
        return Err(format!(
            "`{port}` is not a port: it must be a number from 1 to 65535"
        ));
    }
    // The host as a WHATWG URL parser (a browser, an agent's HTTP client) reads it. Names are
    // held to letters, digits and hyphens first: the parser would take `_`, `!` or Unicode.
    let bracketed = host.starts_with('[');
    if !bracketed
        && host
            .strip_suffix('.')
            .unwrap_or(host)
            .split('.')
            .any(|label| {
                label.is_empty() || !label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            })
    {
        return Err(format!("`{host}` is not a host name"));
    }
    match url::Host::parse(host) {
        Ok(_) => {}
        Err(_) if bracketed => return Err(format!("`{host}` is not an IPv6 address")),
        // A host whose last label is a number is an IPv4 address (`127.1`, `0x7f.0.0.1`).
        Err(url::ParseError::InvalidIpv4Address) => {
            return Err(format!(
                "`{host}` is not an IPv4 address, and a host name cannot end in a number"
            ));
        }
        Err(_) => return Err(format!("`{host}` is not a host name")),
    }
    // Every part was checked above with its own message; this is the whole-URL safety net.
    if let Err(e) = url::Url::parse(text) {
        return Err(format!("`{text}` is not a URL: {e}"));
    }
    Ok(text)
}

/// `host[:port]` or `[v6]:port`. A name cannot hold a colon, so the first one (after an IPv6
/// literal's `]`) starts the port.
fn split_authority(authority: &str) -> Result<(&str, Option<&str>), String> {
    let end = if authority.starts_with('[') {
        match authority.find(']') {
            Some(i) => i + 1,
            None => {
                return Err(format!(
                    "`{authority}` opens an IPv6 address it never closes"
                ));
            }
        }
    } else {
        authority.find(':').unwrap_or(authority.len())
    };
    let (host, rest) = authority.split_at(end);
    match rest.strip_prefix(':') {
        Some(port) => Ok((host, Some(port))),
        None if rest.is_empty() => Ok((host, None)),
        None => Err(format!("`{authority}` is not a host and port")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_come_without_their_port() {
        for (url, authority, host) in [
            (
                "https://api.example.com/v1",
                "api.example.com",
                "api.example.com",
            ),
            (
                "https://example.com:8443",
                "example.com:8443",
                "example.com",
            ),
            (
                "https://[2001:db8::1]:8443/x",
                "[2001:db8::1]:8443",
                "[2001:db8::1]",
            ),
            ("https://[2001:db8::1]", "[2001:db8::1]", "[2001:db8::1]"),
            ("https://10.0.0.1:80", "10.0.0.1:80", "10.0.0.1"),
        ] {
            let u = HttpsUrl::parse_base(url).unwrap();
            assert_eq!((u.authority(), u.host()), (authority, host), "{url}");
        }
    }

    #[test]
    fn base_urls_are_normalised_and_split() {
        let u = HttpsUrl::parse_base("https://api.example.com/v1/").unwrap();
        assert_eq!(u.as_str(), "https://api.example.com/v1");
        assert_eq!(u.origin().as_str(), "https://api.example.com");
        assert_eq!(u.path_prefix(), "/v1");
        assert_eq!(u.join("/items"), "https://api.example.com/v1/items");
        let u = HttpsUrl::parse_base("https://example.com:8443").unwrap();
        assert_eq!(u.path_prefix(), "");
        for ok in [
            "https://example.com.",
            "https://x-1.example.com:65535/a:b",
            "https://[2001:db8::1]:8443/v1",
            "https://[2001:db8::1]",
            // Every IPv4 spelling stays a host (the local-address check reads what it is).
            "https://127.1",
            "https://0x7f.0.0.1",
            "https://2130706433/v1",
            "https://0177.0.0.1.",
            "https://1e1.example",
            "https://xn--caf-dma.example",
            "https://EXAMPLE.com:08443",
        ] {
            assert!(check_https(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn unsafe_or_malformed_urls_are_refused() {
        for (url, why) in [
            ("http://example.com", "must use https"),
            ("example.com", "absolute URL"),
            ("https://user:pw@example.com", "credentials"),
            ("https://", "no host"),
            ("https://exa mple.com", "white space"),
            ("https://ex_ample!.com/", "not a host name"),
            // Found by fuzzing: these passed, and the documents built on them were broken.
            ("https://:example.com", "no host"),
            ("https://example.com:+80", "`+80` is not a port"),
            ("https://example.com:abc/v1", "`abc` is not a port"),
            ("https://example.com:99999", "`99999` is not a port"),
            ("https://example.com:0", "`0` is not a port"),
            ("https://example.com:", "`` is not a port"),
            ("https://example..com", "not a host name"),
            ("https://.example.com", "not a host name"),
            ("https://[::1", "never closes"),
            ("https://[::1]x", "not a host and port"),
            ("https://[nope]/", "not an IPv6 address"),
            ("https://[::1%25eth0]/", "not an IPv6 address"),
            // Read as IPv4 by a URL parser, and no address: they passed as host names.
            ("https://1.2.3.4.5", "`1.2.3.4.5` is not an IPv4 address"),
            ("https://256.0.0.1/v1", "`256.0.0.1` is not an IPv4 address"),
            ("https://08.0.0.1", "`08.0.0.1` is not an IPv4 address"),
            ("https://0x100.0.0.1", "not an IPv4 address"),
            ("https://4294967296", "not an IPv4 address"),
            (
                "https://api.example.1",
                "a host name cannot end in a number",
            ),
            // Punycode that decodes to nothing.
            (
                "https://xn--zz.example",
                "`xn--zz.example` is not a host name",
            ),
        ] {
            let err = HttpsUrl::parse_base(url).unwrap_err();
            assert!(err.contains(why), "{url}: {err}");
        }
        assert!(
            HttpsUrl::parse_base("https://example.com/?a=1")
                .unwrap_err()
                .contains("query")
        );
    }
}
