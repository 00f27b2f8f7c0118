//! `wellgen audit`: grades a built folder (answered in-process as its host answers it, through
//! `serve::Site`) or a served site (an http(s) URL) on the Agent-Adoption Specification's 25
//! checks (`checks.rs`) and on wellgen's five-level ladder (`ladder.rs`), which adds what the
//! scanners leave out: digests that verify, documents that hold their required members, links
//! between documents that resolve with the media type they promise.
//!
//! Every request goes through one [`Prober`]: same-origin redirects are followed (five at most),
//! a redirect off the origin is a failure, nothing is fetched off the origin.

pub mod checks;
pub mod ladder;
pub mod origin;
pub mod render;
pub mod robots;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Instant;

pub use origin::{Folder, Origin, Remote};

/// The most bytes of one answer that are read; a larger answer is a failure to fetch (the
/// specification's recommended pre-parse cap).
pub const BODY_CAP: u64 = 2 * 1024 * 1024;

/// Same-origin redirects followed for one request.
const REDIRECTS: usize = 5;

/// One HTTP answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every value of a header that may be sent several times (`Link`).
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The media type, lowercased, without parameters; empty without a `Content-Type`.
    pub fn media_type(&self) -> String {
        media_type(self.header("content-type").unwrap_or_default())
    }

    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// `text/html; charset=utf-8` → `text/html`.
pub fn media_type(value: &str) -> String {
    value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// A request that got no answer: a network failure, a refused redirect, an answer too large.
pub type Fetched = Result<Answer, String>;

/// The requests of one audit, each made once (by path and `Accept`), redirects followed
/// within the origin.
pub struct Prober<'a> {
    origin: &'a dyn Origin,
    cache: RefCell<BTreeMap<(String, String), Fetched>>,
    requests: RefCell<u64>,
}

impl<'a> Prober<'a> {
    pub fn new(origin: &'a dyn Origin) -> Self {
        Self {
            origin,
            cache: RefCell::default(),
            requests: RefCell::new(0),
        }
    }

    /// How many requests the origin was sent.
    pub fn requests(&self) -> u64 {
        *self.requests.borrow()
    }

    /// `GET path` with `Accept: accept`, same-origin redirects followed.
    pub fn get(&self, path: &str, accept: &str) -> Fetched {
        let key = (path.to_string(), accept.to_string());
        if let Some(hit) = self.cache.borrow().get(&key) {
            return hit.clone();
        }
        let fetched = self.follow(path, accept);
        self.cache.borrow_mut().insert(key, fetched.clone());
        fetched
    }

    /// `GET path` without following a redirect.
    pub fn get_once(&self, path: &str, accept: &str) -> Fetched {
        *self.requests.borrow_mut() += 1;
        self.origin.get(path, accept)
    }

    fn follow(&self, path: &str, accept: &str) -> Fetched {
        let mut path = path.to_string();
        for _ in 0..=REDIRECTS {
            let answer = self.get_once(&path, accept)?;
            if !(300..400).contains(&answer.status) {
                return Ok(answer);
            }
            let Some(location) = answer.header("location") else {
                return Ok(answer);
            };
            path = self
                .origin
                .same_origin_path(&path, location)
                .ok_or_else(|| {
                    format!("`{path}` redirects off the site to `{location}`, which is not fetched")
                })?;
        }
        Err(format!("more than {REDIRECTS} redirects from `{path}`"))
    }

    /// The path of `link` (absolute, or relative to the path `base`) when it is on the audited
    /// origin; `None` for a link elsewhere, which is never fetched.
    pub fn on_site(&self, base: &str, link: &str) -> Option<String> {
        self.origin.same_origin_path(base, link)
    }
}

/// A pass, a fail or neither (the specification's `neutral`: not observed, or informational).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    Neutral,
}

/// What one audit found: the specification's checks, then the ladder built on them.
#[derive(Debug, Clone)]
pub struct Audit {
    /// What was audited, as the report names it.
    pub target: String,
    /// The URL the home page was answered at.
    pub final_url: String,
    pub domain: String,
    pub checks: Vec<checks::Outcome>,
    pub ladder: ladder::Ladder,
    pub requests: u64,
    pub duration_ms: u64,
}

impl Audit {
    /// The wellgen level reached (0 to [`ladder::TOP`]).
    pub fn level(&self) -> u8 {
        self.ladder.level
    }
}

/// Audits whatever `origin` answers.
pub fn audit(origin: &dyn Origin) -> Audit {
    let started = Instant::now();
    let prober = Prober::new(origin);
    let checks = checks::run(&prober);
    let ladder = ladder::grade(&prober, &checks);
    Audit {
        target: origin.describe(),
        final_url: origin.url_of("/"),
        domain: origin.domain(),
        checks,
        ladder,
        requests: prober.requests(),
        duration_ms: started.elapsed().as_millis().try_into().unwrap_or(u64::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A site that redirects `/old` to `/new`, `/away` off the origin, and `/loop` to itself.
    struct Redirecting(url::Url);

    impl Origin for Redirecting {
        fn get(&self, path: &str, _accept: &str) -> Fetched {
            let to = match path {
                "/old" => "/new",
                "/away" => "https://elsewhere.example/new",
                "/loop" => "/loop",
                _ => {
                    return Ok(Answer {
                        status: 200,
                        headers: vec![("Content-Type".into(), "text/plain".into())],
                        body: path.as_bytes().to_vec(),
                    });
                }
            };
            Ok(Answer {
                status: 301,
                headers: vec![("Location".into(), to.into())],
                body: Vec::new(),
            })
        }
        fn base(&self) -> &url::Url {
            &self.0
        }
        fn describe(&self) -> String {
            "test".into()
        }
    }

    #[test]
    fn redirects_are_followed_only_on_the_origin() {
        let site = Redirecting(url::Url::parse("https://example.com/").unwrap());
        let p = Prober::new(&site);
        assert_eq!(p.get("/old", "*/*").unwrap().body, b"/new");
        let away = p.get("/away", "*/*").unwrap_err();
        assert!(away.contains("off the site"), "{away}");
        assert!(p.get("/loop", "*/*").is_err());
        // Each (path, Accept) is requested once.
        let before = p.requests();
        let _ = p.get("/old", "*/*");
        assert_eq!(p.requests(), before);
    }
}
