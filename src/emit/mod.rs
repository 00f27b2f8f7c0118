//! Back ends: each target lowers the model into artifacts (a URL path, bytes and how to serve
//! them). Emitters are pure; `write` is the only code that touches the disk.

pub mod a2a;
pub mod adp;
pub mod agis;
pub mod ai_split;
pub mod aiendpoint;
pub mod api_catalog;
pub mod catalog;
pub mod headers;
pub mod host_files;
pub mod iajson;
pub mod llms_txt;
pub mod mcp;
pub mod openapi;
pub mod rfc002;
pub mod section;
pub mod server_config;
pub mod vercel;

use std::sync::Arc;

use crate::diag::Diagnostics;
use crate::model::Service;

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
    /// bytes, which for a large API are tens of megabytes.
    pub body: Arc<[u8]>,
    /// `None` for host configuration files (`_headers`), which are not served as documents.
    pub serving: Option<Serving>,
}

impl Artifact {
    pub fn document(path: impl Into<String>, body: impl Into<Arc<[u8]>>, serving: Serving) -> Self {
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

/// Every target wellgen can emit. Adding one: a variant here, a module, a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Target {
    /// /.well-known/ai and /ai (draft-aiendpoint-ai-discovery-00)
    #[value(name = "ai")]
    AiEndpoint,
    /// /ia.json and /.well-known/ia.json (ia.json 1.0.0)
    #[value(name = "ia-json")]
    IaJson,
    /// /.well-known/agents.json, /.well-known/ai-plugin.json, /api/discovery (RFC-002)
    #[value(name = "rfc002")]
    Rfc002,
    /// The OpenAPI 3.1 document of the API (RFC-002 `?format=openapi`)
    #[value(name = "openapi")]
    OpenApi,
    /// /.well-known/agent and one detail file per capability (Agent Discovery Protocol 1.0)
    #[value(name = "adp")]
    Adp,
    /// The AGIS document and /.well-known/agis.json (draft-hood-independent-agis-01)
    #[value(name = "agis")]
    Agis,
    /// A static MCP tools/list result (MCP 2026-07-28, AGIS Appendix C)
    #[value(name = "mcp")]
    Mcp,
    /// /.well-known/agent-card.json (A2A 1.0.1)
    #[value(name = "a2a")]
    A2a,
    /// /llms.txt (llms.txt proposal)
    #[value(name = "llms-txt")]
    LlmsTxt,
    /// /.well-known/api-catalog (RFC 9727)
    #[value(name = "api-catalog")]
    ApiCatalog,
}

impl Target {
    pub const ALL: [Target; 10] = [
        Target::AiEndpoint,
        Target::IaJson,
        Target::Rfc002,
        Target::OpenApi,
        Target::Adp,
        Target::Agis,
        Target::Mcp,
        Target::A2a,
        Target::LlmsTxt,
        Target::ApiCatalog,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::AiEndpoint => "ai",
            Self::IaJson => "ia-json",
            Self::Rfc002 => "rfc002",
            Self::OpenApi => "openapi",
            Self::Adp => "adp",
            Self::Agis => "agis",
            Self::Mcp => "mcp",
            Self::A2a => "a2a",
            Self::LlmsTxt => "llms-txt",
            Self::ApiCatalog => "api-catalog",
        }
    }

    pub fn emit(self, service: &Service, diags: &mut Diagnostics) -> Vec<Artifact> {
        self.emit_among(service, &Self::ALL, diags)
    }

    /// Emits this target when `built` are the targets of the build: documents that link to
    /// other documents link only to those.
    pub fn emit_among(
        self,
        service: &Service,
        built: &[Target],
        diags: &mut Diagnostics,
    ) -> Vec<Artifact> {
        match self {
            Self::AiEndpoint => aiendpoint::emit(service, diags),
            Self::IaJson => iajson::emit(service, diags),
            Self::Rfc002 => rfc002::emit(service, diags),
            Self::OpenApi => openapi::emit(service, diags),
            Self::Adp => adp::emit(service, diags),
            Self::Agis => agis::emit(service, diags),
            Self::Mcp => mcp::emit(service, diags),
            Self::A2a => a2a::emit(service, diags),
            Self::LlmsTxt => llms_txt::emit(service, built, diags),
            Self::ApiCatalog => api_catalog::emit(service, built, diags),
        }
    }
}

/// Runs the chosen targets and adds the host files that serve their artifacts (`_headers`
/// among them, for the hosts that read it).
pub fn emit_all(service: &Service, targets: &[Target], diags: &mut Diagnostics) -> Vec<Artifact> {
    emit_all_split(service, targets, None, diags)
}

/// `emit_all`, with `/.well-known/ai` also split into sub-service documents when asked
/// (`[source] split`); their `_headers` rules come from their serving like any document's.
pub fn emit_all_split(
    service: &Service,
    targets: &[Target],
    split: Option<ai_split::Split>,
    diags: &mut Diagnostics,
) -> Vec<Artifact> {
    let workers = if service.capabilities.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    let mut artifacts = emit_targets(service, targets, workers, diags);
    if let Some(split) = split.filter(|_| targets.contains(&Target::AiEndpoint)) {
        artifacts.extend(ai_split::emit(service, split, diags));
    }
    let host_files = host_files::emit(service, &artifacts, diags);
    artifacts.extend(host_files);
    artifacts
}

/// Services at least this large emit their targets on several threads: below it, a build
/// takes about a millisecond and threads would only cost (and batch builds are parallel already).
const PARALLEL_FROM: usize = 64;

/// Every target's artifacts, in target order, the targets shared among `workers` threads (a
/// large service gets one per core). Each target keeps its own diagnostics, appended in target
/// order, so artifacts and messages are the same whatever the number of workers.
pub fn emit_targets(
    service: &Service,
    targets: &[Target],
    workers: usize,
    diags: &mut Diagnostics,
) -> Vec<Artifact> {
    let workers = workers.min(targets.len());
    if workers < 2 {
        return targets
            .iter()
            .flat_map(|t| t.emit_among(service, targets, diags))
            .collect();
    }
    let done = crate::parallel::map(
        targets,
        workers,
        &std::sync::atomic::AtomicUsize::new(0),
        |t| {
            let mut d = Diagnostics::default();
            (t.emit_among(service, targets, &mut d), d)
        },
        || {},
    );
    let mut artifacts = Vec::new();
    for (a, d) in done {
        artifacts.extend(a);
        diags.append(d);
    }
    artifacts
}

/// Documents whose compact form is larger than this are written compact. Indentation is most
/// of a large document (stripe's OpenAPI description: 19 MB pretty, 5 MB compact), costs
/// tokens as well as bytes, and helps nobody at a size no one reads by hand; ia.json's own
/// limit for a whole document is 1 MB.
pub const COMPACT_FROM: usize = 1 << 20;

/// JSON with a trailing newline, pretty unless its compact form is over `COMPACT_FROM`: the
/// one serialisation every JSON target uses.
pub fn to_json_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    // Nearly every document is small: written pretty at once, the compact form is never made.
    if let Some(pretty) = to_json_bytes_within(value, COMPACT_FROM) {
        return pretty;
    }
    let mut out = serde_json::to_vec(value).expect("model views serialise to JSON");
    if out.len() <= COMPACT_FROM {
        out = serde_json::to_vec_pretty(value).expect("model views serialise to JSON");
    }
    out.push(b'\n');
    out
}

/// `to_json_bytes` of a value whose document must stay within `limit` bytes (at most
/// `COMPACT_FROM`, so it is pretty), or `None` as soon as it would not: what is past the limit
/// is never serialised.
pub fn to_json_bytes_within<T: serde::Serialize>(value: &T, limit: usize) -> Option<Vec<u8>> {
    debug_assert!(limit <= COMPACT_FROM);
    capped(value, limit, true)
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
    }
}
