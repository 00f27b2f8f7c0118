//! Back ends: each target lowers the model into artifacts (a URL path, bytes and how to serve
//! them). Emitters are pure; `write` is the only code that touches the disk.

pub mod budget;
pub mod catalog;
pub mod derive;
pub mod hosts;
pub mod publish;
pub mod schemas;
pub mod security;
pub mod targets;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::diag::{Code, Diagnostics};
use crate::model::{Host, Service, SiteFiles};
pub use targets::Target;

/// How a host should serve one artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Serving {
    pub content_type: &'static str,
    pub cache_control: &'static str,
    pub cors: bool,
}

/// One generated file, addressed by its URL path on the published site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// URL path, e.g. `/.well-known/ai`; the file sits at the same path under the output folder.
    pub path: String,
    /// Shared: twins (`/ia.json` and `/.well-known/ia.json`, …) and the writer hold the same
    /// bytes, which for a large API are tens of megabytes. A `Vec` in the `Arc`, not a slice:
    /// the serialiser's buffer is kept, where `Arc<[u8]>` would copy it.
    pub body: Arc<Vec<u8>>,
    /// `None` for host configuration files (`_headers`), which are not served as documents.
    pub serving: Option<Serving>,
}

impl Artifact {
    pub fn document(
        path: impl Into<String>,
        body: impl Into<Arc<Vec<u8>>>,
        serving: Serving,
    ) -> Self {
        Self {
            path: path.into(),
            body: body.into(),
            serving: Some(serving),
        }
    }

    /// Whether hosts need to be told the Content-Type: they send application/octet-stream for
    /// extensionless files and guess from the extension otherwise (`.agis` they do not know).
    pub fn needs_content_type(&self) -> bool {
        let Some(serving) = &self.serving else {
            return false;
        };
        let name = self.path.rsplit('/').next().unwrap_or_default();
        let inferred = match name.rsplit_once('.').map(|(_, ext)| ext) {
            Some("json") => "application/json",
            Some("txt") => "text/plain",
            Some("html") => "text/html",
            Some("js") => "text/javascript",
            _ => return true,
        };
        serving
            .content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            != inferred
    }
}

pub const JSON: &str = "application/json; charset=utf-8";

/// What a build publishes: its targets and the files it leaves out, resolved from `[build]`
/// and `--target` (`publish::resolve`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// In target order.
    pub targets: Vec<Target>,
    /// URL paths (or, for a family, the display path with `<id>`) not to write.
    pub skip: BTreeSet<String>,
}

impl Choice {
    /// Every document of `targets`, nothing skipped.
    pub fn all(targets: &[Target]) -> Self {
        Self {
            targets: targets.to_vec(),
            skip: BTreeSet::new(),
        }
    }

    /// Whether the build leaves out the file at `path`.
    pub fn skips(&self, path: &str) -> bool {
        self.skip.contains(path) || (self.skip.contains(TWINS) && is_twin(path))
    }
}

/// GitHub Pages' `.json` twins of the ADP detail files, as `[build] skip` names them.
pub const TWINS: &str = "/api/capabilities/<id>.json";

/// Whether `path` is one of [`TWINS`]: a `.json` file where ADP's detail files are. The place
/// is read from ADP's descriptor (`Target::member_path`).
pub(crate) fn is_twin(path: &str) -> bool {
    let member = Target::Adp.member_path("<id>");
    let prefix = member.trim_end_matches("<id>");
    path.starts_with(prefix) && path.ends_with(".json")
}

/// What a build decided beyond the model, handed to the targets' and the hosts' lowering: the
/// targets it publishes and the files it leaves out, the host it builds for, whether it leaves
/// the query route unrouted, the site's own files in its output folder and the build's epoch.
/// The model says what the service is and where its author deploys it; this says what one
/// build of it does.
#[derive(Debug, Clone, Copy)]
pub struct Build<'a> {
    /// The targets of the build, with those they require, in target order (documents that
    /// link to other documents link only to those), and the files it leaves out.
    pub choice: &'a Choice,
    /// The host `--host` or the build environment chose (`pipeline::host_from_env`) over the
    /// service's `[deploy] host`; `None` for that one ([`Build::host`]).
    pub host: Option<Host>,
    /// The build does not route the query route ([`targets::rfc002::QUERY`]) although the host
    /// could: it leaves the routing file out, or the site has its own worker
    /// ([`hosts::route_left_out`]).
    pub route_left_out: bool,
    /// The site's own files in the output folder that a document lists (those the last build's
    /// manifest does not list).
    pub site: &'a SiteFiles,
    /// `SOURCE_DATE_EPOCH` (`pipeline::Options::source_date_epoch`).
    pub source_date_epoch: Option<&'a str>,
}

/// The files of an output folder that holds none of the site's own.
static NO_SITE_FILES: SiteFiles = SiteFiles {
    skills: Vec::new(),
    skills_index: false,
    robots: None,
    sitemap: false,
    own_routers: Vec::new(),
};

impl<'a> Build<'a> {
    /// A build of `choice` for the service's own host, into a folder with none of the site's
    /// files, that leaves nothing of its host's routing out.
    pub fn of(choice: &'a Choice) -> Self {
        Self {
            choice,
            host: None,
            route_left_out: false,
            site: &NO_SITE_FILES,
            source_date_epoch: None,
        }
    }

    /// The targets of the build ([`Build::choice`]).
    pub fn targets(&self) -> &'a [Target] {
        &self.choice.targets
    }

    /// Whether the build leaves out the file at `path`.
    pub fn skips(&self, path: &str) -> bool {
        self.choice.skips(path)
    }

    /// The host this build of `service` is for.
    pub fn host(&self, service: &Service) -> Host {
        self.host.unwrap_or(service.host)
    }

    /// Whether this build of `service` answers the query route; where it does not, documents
    /// link to the file the query is routed to.
    pub fn routes_query(&self, service: &Service) -> bool {
        self.host(service).routes_query() && !self.route_left_out
    }
}

/// Services at least this large lower and render their targets on several threads: below it,
/// a build takes about a millisecond and threads would only cost (and batch builds are
/// parallel already).
const PARALLEL_FROM: usize = 64;

/// Whether `service` is large enough for its work to be spread over threads.
pub fn is_large(service: &Service) -> bool {
    service.capabilities.len() >= PARALLEL_FROM
}

fn workers(service: &Service, targets: usize) -> usize {
    if !is_large(service) {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(targets))
    }
}

/// Every document of `build`, or `None` when a check (before or during the targets' lowering)
/// reports an error. Each target is lowered and, unless something is an error already, at once
/// rendered on the same worker: a target never waits for the others' lowering, and the dearest
/// start first, so that no core idles at the end. Diagnostics and artifacts come in target order,
/// whatever the number of workers (by default one per core for a large service).
pub fn lower_and_render<'a>(
    service: &'a Service,
    build: Build<'a>,
    shared: &'a targets::Shared<'a>,
    workers: Option<usize>,
    diags: &mut Diagnostics,
) -> Option<Vec<Artifact>> {
    let built = build.targets();
    let workers = workers.unwrap_or_else(|| self::workers(service, built.len()));
    let render = !diags.has_errors();
    let mut order: Vec<usize> = (0..built.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cost(built[i])));
    let mut done = crate::parallel::map_here(&order, workers, |&i| {
        let mut d = Diagnostics::default();
        let mut lowered = built[i].lower(service, &build, shared, &mut d);
        lowered.fit(service, &mut d);
        let artifacts = (render && !d.has_errors()).then(|| lowered.render(service, built));
        (i, d, artifacts)
    });
    done.sort_by_key(|(i, ..)| *i);
    let mut rendered = Vec::with_capacity(done.len());
    for (_, mut d, artifacts) in done {
        stated_elsewhere(built, &mut d);
        diags.append(d);
        rendered.push(artifacts);
    }
    if diags.has_errors() {
        return None;
    }
    Some(rendered.into_iter().flatten().flatten().collect())
}

/// A target that publishes the nearest scheme its vocabulary has loses nothing an agent needs
/// when the OpenAPI document, built beside it, states every scheme exactly: then the
/// approximation is a note, not a warning to act on.
fn stated_elsewhere(built: &[Target], d: &mut Diagnostics) {
    if built.contains(&Target::OpenApi) {
        for d in d.iter_mut().filter(|d| d.code == Code::AuthSchemeLost) {
            d.code = Code::AuthApproximated;
            d.severity = Code::AuthApproximated.info().severity;
        }
    }
}

/// A target's share, in percent, of a large build's lowering and rendering (GitHub's
/// description under `perf record -g`, docs/PERFORMANCE.md): only the order in which [`lower_and_render`]
/// starts them. The dearest first, so that the last to finish are small ones and no core
/// idles long at the end (ADP, a tenth of the work, would otherwise start after four smaller ones).
fn cost(target: Target) -> u8 {
    match target {
        Target::OpenApi => 33,
        Target::Agis => 32,
        Target::Adp => 10,
        Target::Mcp | Target::IaJson => 5,
        Target::AiEndpoint => 4,
        Target::LlmsTxt | Target::AgentSkills => 2,
        Target::Rfc002 | Target::A2a => 1,
        Target::ApiCatalog
        | Target::AiCatalog
        | Target::McpServerCard
        | Target::OAuthResource
        | Target::AiPlugin => 0,
    }
}

/// Documents whose compact form is larger than this are written compact. aiendpoint's size
/// guidance (a document SHOULD stay under 64 KB) marks where a document stops being read by
/// people: past it, indentation is a third or more of the bytes (stripe's OpenAPI description:
/// 19 MB pretty, 5 MB compact), costs agents tokens as well as bytes, and makes a large
/// document larger than the OpenAPI source it was built from. Below it, documents stay pretty.
pub const COMPACT_FROM: usize = 64 * 1024;

/// JSON with a trailing newline, pretty unless its compact form is over `COMPACT_FROM`: the
/// one serialisation every JSON target uses.
pub fn to_json_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    // Nearly every document is small: written pretty at once, the compact form is never made.
    if let Some(pretty) = capped(value, COMPACT_FROM, true) {
        return pretty;
    }
    let mut out = serde_json::to_vec(value).expect("model views serialise to JSON");
    if out.len() <= COMPACT_FROM {
        out = serde_json::to_vec_pretty(value).expect("model views serialise to JSON");
    }
    out.push(b'\n');
    out
}

/// `to_json_bytes` for a document with a byte budget (`source_budget`): compact as soon as
/// its pretty form would be over the budget, as indentation is the cheapest thing to leave out.
pub fn to_json_bytes_budgeted<T: serde::Serialize>(value: &T, budget: Option<usize>) -> Vec<u8> {
    let Some(budget) = budget else {
        return to_json_bytes(value);
    };
    to_json_bytes_within(value, budget).unwrap_or_else(|| {
        let mut out = serde_json::to_vec(value).expect("model views serialise to JSON");
        out.push(b'\n');
        out
    })
}

/// What `to_json_bytes` writes, if that takes at most `limit` bytes, else `None`: what is past
/// the limit is never serialised.
pub fn to_json_bytes_within<T: serde::Serialize>(value: &T, limit: usize) -> Option<Vec<u8>> {
    laid_out_within(value, limit, false)
}

/// What `to_json_bytes` writes if that takes at most `limit` bytes, else the compact document
/// if that does, else `None`: each form is serialised once at most.
pub fn to_json_bytes_or_compact_within<T: serde::Serialize>(
    value: &T,
    limit: usize,
) -> Option<Vec<u8>> {
    laid_out_within(value, limit, true)
}

fn laid_out_within<T: serde::Serialize>(
    value: &T,
    limit: usize,
    or_compact: bool,
) -> Option<Vec<u8>> {
    if let Some(pretty) = capped(value, limit.min(COMPACT_FROM), true) {
        return Some(pretty);
    }
    // Pretty is over `COMPACT_FROM` (or `limit`): compact when its compact form is too.
    let compact = capped(value, limit, false)?;
    if compact.len() > COMPACT_FROM {
        return Some(compact);
    }
    // Compact within `COMPACT_FROM`: `to_json_bytes` writes it pretty, which may still fit.
    capped(value, limit, true).or(or_compact.then_some(compact))
}

/// The compact document (with its newline) if it takes at most `limit` bytes.
pub fn compact_json_bytes_within<T: serde::Serialize>(value: &T, limit: usize) -> Option<Vec<u8>> {
    capped(value, limit, false)
}

fn capped<T: serde::Serialize>(value: &T, limit: usize, pretty: bool) -> Option<Vec<u8>> {
    struct Capped(Vec<u8>, usize);
    impl std::io::Write for Capped {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            // One byte is kept for the trailing newline.
            if self.0.len() + bytes.len() >= self.1 {
                return Err(std::io::ErrorKind::FileTooLarge.into());
            }
            self.0.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped(Vec::new(), limit);
    if pretty {
        serde_json::to_writer_pretty(&mut out, value).ok()?;
    } else {
        serde_json::to_writer(&mut out, value).ok()?;
    }
    out.0.push(b'\n');
    Some(out.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_pretty_up_to_the_compact_threshold_and_compact_beyond() {
        let small = serde_json::json!({"name": "x", "tags": ["a", "b"]});
        let text = String::from_utf8(to_json_bytes(&small)).unwrap();
        assert_eq!(
            text,
            "{\n  \"name\": \"x\",\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ]\n}\n"
        );

        // Just over the threshold in compact form: written compact, one line.
        let item = "y".repeat(1000);
        let n = COMPACT_FROM / (item.len() + 3) + 1;
        let big = serde_json::json!({ "items": vec![item; n] });
        let bytes = to_json_bytes(&big);
        assert!(bytes.len() > COMPACT_FROM);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(bytes.ends_with(b"]}\n"));
        let back: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, big);

        // Just under it: still pretty.
        let under = serde_json::json!({ "items": vec!["y".repeat(1000); n - 2] });
        assert!(serde_json::to_vec(&under).unwrap().len() <= COMPACT_FROM);
        assert!(to_json_bytes(&under).starts_with(b"{\n  \"items\": [\n"));
    }

    #[test]
    fn a_document_over_64_kib_is_compact_and_a_budget_compacts_sooner() {
        // aiendpoint's guidance, not ia.json's 1 MB: 100 KB is written compact.
        let big = serde_json::json!({ "items": vec!["y".repeat(1000); 100] });
        let bytes = to_json_bytes(&big);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        assert_eq!(to_json_bytes_within(&big, bytes.len()), Some(bytes.clone()));
        assert_eq!(to_json_bytes_within(&big, bytes.len() - 1), None);

        // Small and within its budget: pretty, as without one; over it: compact.
        let small = serde_json::json!({"name": "x", "tags": ["a", "b"]});
        let pretty = to_json_bytes(&small);
        assert_eq!(to_json_bytes_budgeted(&small, None), pretty);
        assert_eq!(to_json_bytes_budgeted(&small, Some(pretty.len())), pretty);
        assert_eq!(
            to_json_bytes_budgeted(&small, Some(pretty.len() - 1)),
            b"{\"name\":\"x\",\"tags\":[\"a\",\"b\"]}\n"
        );
    }

    #[test]
    fn a_capped_document_is_the_same_bytes_or_none() {
        let v = serde_json::json!({"name": "x", "tags": ["a", "b"]});
        let full = to_json_bytes(&v);
        assert_eq!(to_json_bytes_within(&v, full.len()), Some(full.clone()));
        assert_eq!(to_json_bytes_within(&v, full.len() - 1), None);
        assert_eq!(to_json_bytes_within(&v, 1), None);
        let compact = b"{\"name\":\"x\",\"tags\":[\"a\",\"b\"]}\n".to_vec();
        assert_eq!(
            compact_json_bytes_within(&v, compact.len()),
            Some(compact.clone())
        );
        assert_eq!(compact_json_bytes_within(&v, compact.len() - 1), None);
        // Pretty when it fits, else compact when that fits.
        let or_compact = |limit| to_json_bytes_or_compact_within(&v, limit);
        assert_eq!(or_compact(full.len()), Some(full.clone()));
        assert_eq!(or_compact(full.len() - 1), Some(compact.clone()));
        assert_eq!(or_compact(compact.len()), Some(compact.clone()));
        assert_eq!(or_compact(compact.len() - 1), None);
        let big = serde_json::json!({ "items": vec!["y".repeat(1000); 100] });
        let bytes = to_json_bytes(&big);
        assert_eq!(
            to_json_bytes_or_compact_within(&big, bytes.len()),
            Some(bytes.clone())
        );
        assert_eq!(to_json_bytes_or_compact_within(&big, bytes.len() - 1), None);
    }
}
