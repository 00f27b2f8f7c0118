//! Back ends: each target lowers the model into artifacts (a URL path, bytes and how to serve
//! them). Emitters are pure; `write` is the only code that touches the disk.

pub mod aiendpoint;
pub mod headers;

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
    pub body: Vec<u8>,
    /// `None` for host configuration files (`_headers`), which are not served as documents.
    pub serving: Option<Serving>,
}

impl Artifact {
    pub fn document(path: impl Into<String>, body: Vec<u8>, serving: Serving) -> Self {
        Self {
            path: path.into(),
            body,
            serving: Some(serving),
        }
    }

    /// Extensionless files need an explicit Content-Type: hosts send octet-stream otherwise.
    pub fn is_extensionless(&self) -> bool {
        let name = self.path.rsplit('/').next().unwrap_or_default();
        !name.contains('.')
    }
}

pub const JSON: &str = "application/json; charset=utf-8";

/// Every target wellgen can emit. Adding one: a variant here, a module, a fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Target {
    /// /.well-known/ai and /ai (draft-aiendpoint-ai-discovery-00)
    #[value(name = "ai")]
    AiEndpoint,
}

impl Target {
    pub const ALL: [Target; 1] = [Target::AiEndpoint];

    pub fn name(self) -> &'static str {
        match self {
            Self::AiEndpoint => "ai",
        }
    }

    pub fn emit(self, service: &Service, diags: &mut Diagnostics) -> Vec<Artifact> {
        match self {
            Self::AiEndpoint => aiendpoint::emit(service, diags),
        }
    }
}

/// Runs the chosen targets and adds the host files that serve their artifacts.
pub fn emit_all(service: &Service, targets: &[Target], diags: &mut Diagnostics) -> Vec<Artifact> {
    let mut artifacts: Vec<Artifact> = targets
        .iter()
        .flat_map(|t| t.emit(service, diags))
        .collect();
    if let Some(h) = headers::emit(&artifacts, diags) {
        artifacts.push(h);
    }
    artifacts
}

/// Pretty JSON with a trailing newline: the one serialisation every JSON target uses.
pub fn to_json_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(value).expect("model views serialise to JSON");
    out.push(b'\n');
    out
}
