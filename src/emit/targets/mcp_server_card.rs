//! /.well-known/mcp/server-card.json: the MCP Server Card (SEP-2127, schema `v1`) of the
//! remote MCP server a service declares in `[mcp]`. No `[mcp]`, no card.
//!
//! The card is the schema's `ServerCard`: identity (`name`, `version`, `description`, `title`,
//! `icons`, `repository`, `websiteUrl`) and one `remotes` entry. Scanners of 2026 read older
//! shapes too (a top-level `endpoint` string; `serverInfo` and `transport`, as the
//! Agent-Adoption Specification's `mcp-server-card` check asks): the schema leaves the card
//! open, so the card carries those members as well, with the same values.

use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::targets::{Descriptor, Document, Link, Relation};
use crate::emit::{Artifact, Serving, to_json_bytes};
use crate::model::{McpInput, McpServer, Service, cut_details};

pub const PATH: &str = "/.well-known/mcp/server-card.json";
/// The card's media type (SEP-2127 discovery: clients ask for it with `Accept`).
pub const MEDIA_TYPE: &str = "application/mcp-server-card+json";
/// The only `$schema` the `v1` schema accepts.
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/// The schema's bound on `description` and `title`.
pub const TEXT_MAX: usize = 100;
pub const SERVING: Serving = Serving {
    content_type: MEDIA_TYPE,
    cache_control: "public, max-age=3600",
    cors: true,
};

pub const DESCRIPTOR: Descriptor = Descriptor {
    name: "mcp-server-card",
    documents: &[Document::linked(
        PATH,
        SERVING,
        Link {
            title: "MCP server card",
            note: "the service's remote MCP server: its endpoint, transport and headers",
            media_type: MEDIA_TYPE,
            relation: Relation::ServiceMeta,
            ai_catalog: Some(MEDIA_TYPE),
        },
    )
    .when(written)],
    spec: "MCP Server Card, SEP-2127 (schema v1)",
    status: "experimental MCP extension, under review",
    opt_in: None,
    requires: &[],
};

/// Whether the service declares a remote MCP server.
pub fn written(service: &Service) -> bool {
    service.mcp.is_some()
}

#[derive(Serialize)]
struct ServerCard<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    name: &'a str,
    version: &'a str,
    description: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(rename = "websiteUrl")]
    website_url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    repository: Option<Repository<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    icons: Vec<Icon<'a>>,
    remotes: [Remote<'a>; 1],
    /// For scanners that read the endpoint at the top level.
    endpoint: &'a str,
    /// For scanners that read the MCP `initialize` result's shape.
    #[serde(rename = "serverInfo")]
    server_info: ServerInfo<'a>,
    transport: Transport<'a>,
}

#[derive(Serialize)]
struct Repository<'a> {
    url: &'a str,
    source: &'static str,
}

#[derive(Serialize)]
struct Icon<'a> {
    src: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Remote<'a> {
    #[serde(rename = "type")]
    transport: &'static str,
    url: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    headers: Vec<Header<'a>>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    variables: IndexMap<&'a str, Input<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    supported_protocol_versions: &'a [String],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Header<'a> {
    name: &'a str,
    #[serde(flatten)]
    input: Input<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    variables: IndexMap<&'a str, Input<'a>>,
}

/// SEP-2127 `Input`: only what the author said, `false` flags left out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Input<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    is_required: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    is_secret: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    choices: &'a [String],
}

impl<'a> From<&'a McpInput> for Input<'a> {
    fn from(i: &'a McpInput) -> Self {
        Self {
            description: i.description.as_deref(),
            is_required: i.required,
            is_secret: i.secret,
            default: i.default.as_deref(),
            choices: &i.choices,
        }
    }
}

fn inputs(map: &IndexMap<String, McpInput>) -> IndexMap<&str, Input<'_>> {
    map.iter().map(|(k, v)| (k.as_str(), v.into())).collect()
}

#[derive(Serialize)]
struct ServerInfo<'a> {
    name: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
struct Transport<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    url: &'a str,
}

/// What the card derives: its description within the schema's 100 characters.
pub struct Lowered<'a> {
    server: Option<&'a McpServer>,
    description: String,
}

/// The schema's bounds on what the card takes from the service, and what was derived, as
/// notes (lowering already checked `[mcp]` itself).
pub fn lower<'a>(service: &'a Service, diags: &mut Diagnostics) -> Lowered<'a> {
    let Some(server) = &service.mcp else {
        return Lowered {
            server: None,
            description: String::new(),
        };
    };
    let (description, cut) = cut_details(&service.description, TEXT_MAX);
    if cut {
        diags.push(
            Diagnostic::new(
                Code::McpCardDerived,
                format!(
                    "the server card's description is cut to the schema's {TEXT_MAX} characters: \
                     \"{description}\""
                ),
            )
            .at("service.description"),
        );
    }
    if !server.named {
        diags.push(
            Diagnostic::new(
                Code::McpCardDerived,
                format!(
                    "the server card names the server `{}`, from the site's host and the service \
                     name",
                    server.name
                ),
            )
            .at("mcp")
            .help("set `[mcp] name = \"com.example/weather\"` to choose it"),
        );
    }
    Lowered {
        server: Some(server),
        description,
    }
}

/// A repository host the schema's `source` names.
fn forge(url: &str) -> Option<&'static str> {
    let host = url.strip_prefix("https://")?.split('/').next()?;
    match host {
        "github.com" => Some("github"),
        "gitlab.com" => Some("gitlab"),
        "bitbucket.org" => Some("bitbucket"),
        _ => None,
    }
}

/// The card, or nothing for a service without `[mcp]`.
pub fn render(service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let Some(server) = lowered.server else {
        return Vec::new();
    };
    let transport = server.transport.as_str();
    let card = ServerCard {
        schema: SCHEMA,
        name: &server.name,
        version: &service.version,
        description: &lowered.description,
        // `[service] name` is at most 100 characters, the schema's bound.
        title: Some(&service.name),
        website_url: service
            .links
            .docs
            .as_deref()
            .unwrap_or(service.site_url.as_str()),
        repository: service.links.repository.as_deref().and_then(|url| {
            Some(Repository {
                url,
                source: forge(url)?,
            })
        }),
        icons: service.links.logo.iter().map(|src| Icon { src }).collect(),
        remotes: [Remote {
            transport,
            url: &server.endpoint,
            headers: server
                .headers
                .iter()
                .map(|h| Header {
                    name: &h.name,
                    input: (&h.input).into(),
                    value: h.value.as_deref(),
                    variables: inputs(&h.variables),
                })
                .collect(),
            variables: inputs(&server.variables),
            supported_protocol_versions: &server.protocol_versions,
        }],
        endpoint: &server.endpoint,
        server_info: ServerInfo {
            name: &server.name,
            version: &service.version,
        },
        transport: Transport {
            kind: transport,
            url: &server.endpoint,
        },
    };
    vec![Artifact::document(PATH, to_json_bytes(&card), SERVING)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forges_are_named_by_host() {
        assert_eq!(forge("https://github.com/a/b"), Some("github"));
        assert_eq!(forge("https://git.example.com/a/b"), None);
    }
}
