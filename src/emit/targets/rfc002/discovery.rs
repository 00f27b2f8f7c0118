//! `/api/discovery`: RFC-002 §3.3's JSON inventory of packages, tools and endpoints.

use serde::Serialize;

use crate::diag::Diagnostics;
use crate::emit::to_json_bytes;
use crate::model::Service;

/// The URL the reference implementation serves as `$schema`; no schema file exists behind it
/// (the RFC's own example writes "..."), so it names the format rather than validating it.
pub const SCHEMA: &str = "https://ar-agents.ar/schemas/discovery.v1.json";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Document<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    generated_at: &'a str,
    name: &'a str,
    /// The model has no npm packages: every tool is an HTTP endpoint of the service.
    packages: [(); 0],
    package_count: usize,
    endpoints: Vec<Endpoint<'a>>,
    /// Every capability is one tool an agent can call.
    total_tools: usize,
}

#[derive(Serialize)]
struct Endpoint<'a> {
    name: &'a str,
    url: String,
    method: &'static str,
    description: &'a str,
}

/// `generatedAt`: the one value /api/discovery derives (from the source, else `epoch`, the
/// build's `SOURCE_DATE_EPOCH`), and its warnings.
pub fn lower(service: &Service, epoch: Option<&str>, diags: &mut Diagnostics) -> String {
    super::generated_at(service.meta.last_updated.as_ref(), epoch, diags)
}

pub fn render(service: &Service, generated_at: &str) -> Vec<u8> {
    let doc = Document {
        schema: SCHEMA,
        generated_at,
        name: &service.name,
        packages: [],
        package_count: 0,
        endpoints: service
            .capabilities
            .iter()
            .map(|c| Endpoint {
                name: &c.id,
                url: c.url(&service.base_url),
                method: c.method.as_str(),
                description: &c.description,
            })
            .collect(),
        total_tools: service.capabilities.len(),
    };
    to_json_bytes(&doc)
}
