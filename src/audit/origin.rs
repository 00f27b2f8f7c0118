//! Where an audit's requests go: a built folder answered in-process as its host answers it, or
//! a served site over HTTP (https, or http on a loopback address only).

use std::net::IpAddr;
use std::time::Duration;

use url::Url;

use super::{Answer, BODY_CAP, Fetched};
use crate::model::Host;
use crate::serve::Site;

/// The longest one request may take, connection and body included.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);

/// One site's answers, by path.
pub trait Origin {
    /// One `GET` of `path` (a path with an optional query) with this `Accept`; a redirect is
    /// returned, not followed.
    fn get(&self, path: &str, accept: &str) -> Fetched;
    /// The site's origin URL (`https://example.com`).
    fn base(&self) -> &Url;
    /// What the report calls the audited thing.
    fn describe(&self) -> String;

    fn url_of(&self, path: &str) -> String {
        self.base()
            .join(path)
            .map_or_else(|_| self.base().to_string(), String::from)
    }

    fn domain(&self) -> String {
        self.base()
            .host_str()
            .unwrap_or("localhost")
            .to_ascii_lowercase()
    }

    /// The path (and query) `link` names, resolved against the path `from`, when it is on this
    /// origin.
    fn same_origin_path(&self, from: &str, link: &str) -> Option<String> {
        let base = self.base().join(from).ok()?;
        let url = base.join(link.trim()).ok()?;
        if url.origin() != self.base().origin() {
            return None;
        }
        Some(match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        })
    }
}

/// A built folder, answered by `serve`'s site logic for its host.
pub struct Folder {
    site: Site,
    base: Url,
}

impl Folder {
    /// `site_url`: the origin the folder is published at (links to it are looked up in the
    /// folder); without one, only links relative to the site are.
    pub fn new(site: Site, site_url: Option<&Url>) -> Self {
        let base = site_url
            .cloned()
            .unwrap_or_else(|| Url::parse("http://localhost/").expect("a URL"));
        Self { site, base }
    }

    pub fn host(&self) -> Host {
        self.site.host()
    }
}

impl Origin for Folder {
    fn get(&self, path: &str, accept: &str) -> Fetched {
        let reply = answer(&self.site, path, accept);
        Ok(Answer {
            status: reply.status,
            headers: reply.headers,
            body: reply.body,
        })
    }

    fn base(&self) -> &Url {
        &self.base
    }

    fn describe(&self) -> String {
        format!(
            "{} as {} answers it",
            crate::diag::shown::path(self.site.root()),
            self.site.host().name()
        )
    }
}

/// The one place a request reaches `serve`: a host that negotiates on `Accept` answers it here.
fn answer(site: &Site, path: &str, _accept: &str) -> crate::serve::Reply {
    site.respond_to("GET", path)
}

/// A served site over HTTP.
pub struct Remote {
    agent: ureq::Agent,
    base: Url,
}

impl Remote {
    /// The site at `url` (its origin is what is audited), or why it is refused: only http(s),
    /// and http only on a loopback address.
    pub fn new(url: &str) -> Result<Self, String> {
        let parsed = Url::parse(url).map_err(|e| format!("`{url}` is not a URL: {e}"))?;
        match parsed.scheme() {
            "https" => {}
            "http" if is_loopback(&parsed) => {}
            "http" => {
                return Err(format!(
                    "`{url}`: plain http is audited on a loopback address only (127.0.0.1, \
                     [::1], localhost); use https"
                ));
            }
            other => {
                return Err(format!(
                    "`{url}`: `{other}` URLs are not audited; use https"
                ));
            }
        }
        if parsed.host_str().is_none_or(str::is_empty) {
            return Err(format!("`{url}` names no host"));
        }
        let base = Url::parse(&parsed.origin().ascii_serialization())
            .map_err(|e| format!("`{url}`: {e}"))?;
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(REQUEST_TIME))
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent(concat!("wellgen-audit/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Self {
            agent: config.into(),
            base,
        })
    }
}

/// Whether the URL's host is a loopback address or `localhost`.
fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost") || d.to_ascii_lowercase().ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

impl Origin for Remote {
    fn get(&self, path: &str, accept: &str) -> Fetched {
        let url = self.url_of(path);
        let mut response = self
            .agent
            .get(&url)
            .header("Accept", accept)
            .call()
            .map_err(|e| format!("`{url}`: {e}"))?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let body = response
            .body_mut()
            .with_config()
            .limit(BODY_CAP)
            .read_to_vec()
            .map_err(|e| format!("`{url}`: {e} (the cap is {BODY_CAP} bytes)"))?;
        Ok(Answer {
            status,
            headers,
            body,
        })
    }

    fn base(&self) -> &Url {
        &self.base
    }

    fn describe(&self) -> String {
        self.base.as_str().trim_end_matches('/').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_is_for_loopback_only() {
        for ok in [
            "http://127.0.0.1:8080/",
            "http://[::1]/",
            "http://localhost:3000",
            "https://example.com/docs",
        ] {
            assert!(Remote::new(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://example.com/",
            "http://10.0.0.1/",
            "ftp://example.com/",
            "file:///etc",
        ] {
            assert!(Remote::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_links_on_the_origin_are_paths() {
        let site = Remote::new("https://example.com/x").unwrap();
        assert_eq!(
            site.same_origin_path("/a/b", "c.json").as_deref(),
            Some("/a/c.json")
        );
        assert_eq!(
            site.same_origin_path("/", "https://example.com/q?x=1")
                .as_deref(),
            Some("/q?x=1")
        );
        assert_eq!(site.same_origin_path("/", "https://other.example/"), None);
        assert_eq!(site.same_origin_path("/", "http://example.com/"), None);
    }
}
