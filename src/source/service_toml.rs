//! The serde mirror of service.toml: exactly what the author may write, nothing resolved.
//!
//! Every table denies unknown keys so a typo is an error (with a "did you mean"), and nothing
//! here has defaults beyond `Option`: defaults are applied last, by `model::lower`.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// service.toml: the one source wellgen builds every AI-agent discovery document from.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServiceToml {
    /// What the service is; required unless `[source]` imports it from an OpenAPI document.
    // Defaulted so a file that only completes an OpenAPI import (`[source]`) may omit it.
    #[serde(default)]
    pub service: ServiceTable,
    /// How agents authenticate; `type` decides which other keys are allowed.
    pub auth: Option<AuthTable>,
    /// The API's request limits.
    pub rate_limits: Option<RateLimitsTable>,
    /// aiendpoint token hints; each key defaults to false when the table is present.
    pub token_hints: Option<TokenHintsTable>,
    /// When the description last changed, and where its changelog and status page are.
    pub meta: Option<MetaTable>,
    /// The security policy the API declares (ia.json only).
    pub security: Option<SecurityTable>,
    /// ia.json capability flags that cannot be derived (checkout, real_time, x_… custom flags).
    pub features: Option<IndexMap<String, bool>>,
    /// One table per event the API can push (ia.json `webhooks`).
    #[serde(default)]
    pub webhooks: Vec<WebhookTable>,
    pub rfc002: Option<Rfc002Table>,
    pub plugin: Option<PluginTable>,
    pub pricing: Option<PricingTable>,
    pub agis: Option<AgisTable>,
    /// Where the output is deployed.
    pub deploy: Option<DeployTable>,
    /// What a build publishes: its targets, and the documents and host files it leaves out.
    pub build: Option<BuildTable>,
    /// wellgen's section of robots.txt: the AI agents it names, their access, Content-Signal.
    pub robots: Option<RobotsTable>,
    /// One table per operation; at least one is required.
    #[serde(default)]
    pub capabilities: Vec<CapabilityTable>,
    pub a2a: Option<A2aTable>,
    /// The service's remote MCP server, described by an MCP Server Card
    /// (`/.well-known/mcp/server-card.json`); no table, no card.
    pub mcp: Option<McpTable>,
    /// An OpenAPI document this file completes and corrects (see docs/openapi-import.md).
    pub source: Option<SourceTable>,
    /// How `wellgen check` and `build` report: the diagnostic codes this project silences.
    pub check: Option<CheckTable>,
    /// The size in bytes of the OpenAPI document this was imported from: never written by an
    /// author (a plain service.toml has none), set by the import, and the budget of the
    /// documents that would otherwise outgrow their source (`emit::budget::source_budget`).
    #[serde(skip)]
    #[schemars(skip)]
    pub source_bytes: Option<usize>,
    /// Named JSON Schemas that output schemas (and one another) refer to with
    /// `{ "$ref" = "#/schemas/<name>" }`; `wellgen import` keeps the OpenAPI document's
    /// response components here, under their names (see docs/service-toml.md).
    #[serde(
        default,
        skip_serializing_if = "crate::values::schemas::Schemas::is_empty",
        deserialize_with = "schemas_from_toml"
    )]
    #[schemars(with = "Option<IndexMap<String, serde_json::Map<String, serde_json::Value>>>")]
    pub schemas: crate::values::schemas::Schemas,
}

/// `[check]`: diagnostics a project has reviewed and does not want to hear about again.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckTable {
    /// Codes of warnings and notes to silence (docs/diagnostics.md), e.g. `W-agis-rule`.
    #[serde(default)]
    pub allow: Vec<String>,
}

/// A2A agent card options.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct A2aTable {
    /// Also publish the card at the pre-1.0 path `/.well-known/agent.json`.
    pub legacy_alias: Option<bool>,
}

/// `[mcp]`: the remote MCP server that serves the capabilities (SEP-2127 Server Card `remotes`).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpTable {
    /// Required: the server's URL, `https://…`; `{name}` marks a part the user fills in, each
    /// declared under `[mcp.variables]`.
    pub endpoint: Option<String>,
    /// `streamable-http` (default) or `sse`.
    pub transport: Option<String>,
    /// The server's name, `namespace/name` in reverse-DNS form (`com.example/weather`); default
    /// the site's host reversed and the service name.
    pub name: Option<String>,
    /// MCP protocol versions the server supports (`2025-11-25`), newest last.
    pub protocol_versions: Option<Vec<String>>,
    /// The `{name}` parts of `endpoint`: name = their description, default and choices.
    pub variables: Option<IndexMap<String, McpInputTable>>,
    /// HTTP headers the server requires or accepts, one `[[mcp.headers]]` table each.
    pub headers: Option<Vec<McpHeaderTable>>,
}

/// A value the user supplies when connecting: a `{name}` of the endpoint or of a header value.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpInputTable {
    /// What it is, for the user who fills it in.
    pub description: Option<String>,
    /// Whether the connection needs it; default false.
    pub required: Option<bool>,
    /// Whether it is a secret (a token, a password); default false.
    pub secret: Option<bool>,
    /// The value used when the user gives none.
    pub default: Option<String>,
    /// The only values allowed.
    pub choices: Option<Vec<String>>,
}

/// `[[mcp.headers]]`: one HTTP header sent to the MCP server.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpHeaderTable {
    /// Required: the header's name (`Authorization`).
    pub name: Option<String>,
    /// What it carries.
    pub description: Option<String>,
    /// Whether the connection needs it; default false.
    pub required: Option<bool>,
    /// Whether its value is a secret; default false. A secret's value is never written: only a
    /// template of `{name}`s (`Bearer {token}`).
    pub secret: Option<bool>,
    /// The value's template: `{name}` parts are declared under `variables`.
    pub value: Option<String>,
    /// The `{name}` parts of `value`.
    pub variables: Option<IndexMap<String, McpInputTable>>,
}

/// `[source]`: import capabilities from an OpenAPI document; this file's values win per key.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceTable {
    /// Path of the OpenAPI (or Swagger 2.0) document, relative to this file.
    pub openapi: Option<String>,
    /// Operations to keep: globs `tag:<glob>` or `op:<glob>` (`*` and `?`); default all.
    pub include: Option<Vec<String>>,
    /// Operations to drop, after `include`.
    pub exclude: Option<Vec<String>>,
    /// `"tag"`: also write one /.well-known/ai sub-service document per tag, and an index.
    pub split: Option<String>,
    /// Compact /.well-known/ai (first sentences, optional parameters by name and type, returns
    /// by name): `true` always, `false` never; unset, only a document over 64 KB is compacted.
    pub compact: Option<bool>,
}

/// `[deploy]`: where the output is deployed.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeployTable {
    /// netlify, cloudflare, vercel, github-pages or generic; `--host` overrides it.
    pub host: Option<String>,
    /// Generic host: the folder (relative to this file) to write wellgen-nginx.conf into,
    /// outside the published folder; `--server-config` overrides it.
    pub server_config: Option<String>,
}

/// `[robots]`: wellgen's section of the site's robots.txt (RFC 9309). Every key has a default.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RobotsTable {
    /// What each named AI agent may read: `site` (default: what the site's own rules let every
    /// crawler read, and the discovery documents) or `documents` (only the discovery documents).
    pub access: Option<String>,
    /// AI agents by their robots.txt token, each `site`, `documents` or `none` (no group for
    /// it): added to, or changing, wellgen's list (GPTBot, ClaudeBot, Google-Extended, …).
    pub agents: Option<IndexMap<String, String>>,
    /// contentsignals.org: how the site's content may be used once fetched, `yes` or `no`
    /// each; written as a `Content-Signal:` line in every group of wellgen's. None by default.
    pub content_signals: Option<ContentSignalsTable>,
    /// The site's sitemap, an absolute URL; by default `<site_url>/sitemap.xml` when the
    /// output folder has a sitemap.xml and the site's robots.txt names none.
    pub sitemap: Option<String>,
}

/// `[robots.content_signals]`: the three signals of contentsignals.org.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentSignalsTable {
    /// Building a search index and linking to the content (not AI summaries).
    pub search: Option<String>,
    /// Using the content as input to an AI model's answer (retrieval, grounding).
    #[serde(rename = "ai-input")]
    pub ai_input: Option<String>,
    /// Training or fine-tuning AI models.
    #[serde(rename = "ai-train")]
    pub ai_train: Option<String>,
}

/// `[build]`: what a build publishes. `--target` overrides `targets` and `exclude`.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildTable {
    /// The targets to build (the `--target` names); default all. The targets they link to are
    /// built too.
    pub targets: Option<Vec<String>>,
    /// Targets to leave out of the build (the `--target` names).
    pub exclude: Option<Vec<String>>,
    /// Documents and host files not to write, by URL path: an alias or twin (`/ai`,
    /// `/.well-known/ia.json`) or a host file (`/_worker.js`, `/404.html`, `/_redirects`, …).
    pub skip: Option<Vec<String>>,
}

/// RFC-002 (agents.json) fields the model cannot derive.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rfc002Table {
    /// Who operates the service; `jurisdiction` and `type` are required here.
    pub issuer: Option<IssuerTable>,
    /// RFC conformance claims (`rfc-002-v1`, …).
    pub conformance: Option<Vec<String>>,
    /// Rules for agents, joined with "; " into `agentInstructions`.
    pub instructions: Option<Vec<String>>,
    /// Free-form pointers to audit log, human-in-the-loop gates, liability framework.
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub governance: Option<toml::Table>,
}

/// `[rfc002.issuer]`: who operates the service.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IssuerTable {
    /// Required: `AR`, `US-DE`, …
    pub jurisdiction: Option<String>,
    /// Required: `corporation`, `sociedad-ia`, …
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// agents.json `operatorName`.
    pub operator_name: Option<String>,
    /// `NN-NNNNNNN-N` or `NN-NNNNNNNN-N`.
    pub operator_cuit: Option<String>,
    /// agents.json `denominacion`.
    pub denominacion: Option<String>,
    /// agents.json `supervisionRegime`.
    pub supervision_regime: Option<String>,
}

/// OpenAI plugin manifest (ai-plugin.json) wording.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PluginTable {
    /// 1-50 ASCII letters and digits; derived (with a warning) when absent.
    pub name_for_model: Option<String>,
    /// 1-20 characters; derived when absent.
    pub name_for_human: Option<String>,
    /// 1-100 characters; derived when absent.
    pub description_for_human: Option<String>,
    /// 1-8000 characters: when to use the service and when not (RFC-002 asks ~500-1000).
    pub description_for_model: Option<String>,
}

/// Agent Discovery Protocol pricing.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PricingTable {
    /// Required: `free`, `freemium` or `paid`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// https URL of the pricing page.
    pub plans_url: Option<String>,
    #[serde(default)]
    pub plans: Vec<PlanTable>,
}

/// One pricing plan.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanTable {
    /// Required in each plan.
    pub name: Option<String>,
    /// Free text (`$4/mo`).
    pub price: Option<String>,
    /// Free text (`100 books`).
    pub limits: Option<String>,
}

/// AGIS document-level fields (vocabulary block, data manifest, AGTP address).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgisTable {
    /// `agtp://host`; derived when absent.
    pub agtp: Option<String>,
    /// Vocabulary domain (`publishing`).
    pub domain: Option<String>,
    /// Vocabulary namespace.
    pub namespace: Option<String>,
    /// `true` requires `[agis.data_manifest]` (AGIS §8.2); default false.
    pub negotiable: Option<bool>,
    /// Each `request`, `negotiate`, `confirm` or `query`.
    pub interaction_protocols: Option<Vec<String>>,
    /// AGTP URIs of related services.
    pub related_services: Option<Vec<String>>,
    /// The data the service can hand out (AGIS §8).
    pub data_manifest: Option<DataManifestTable>,
}

/// `[agis.data_manifest]`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataManifestTable {
    /// Default false.
    pub pre_auth_discovery: Option<bool>,
    #[serde(default)]
    pub available_data: Vec<DataClassTable>,
}

/// One class of data in the AGIS data manifest.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataClassTable {
    /// Required in each entry.
    pub class: Option<String>,
    pub description: Option<String>,
    /// `json`, `csv`, …
    pub formats: Option<Vec<String>>,
    /// Free text (`informational`, …).
    pub sensitivity: Option<String>,
    pub requires_authorization: Option<bool>,
}

/// `[service]`: what the service is. Required.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServiceTable {
    /// Required: 1-100 characters.
    pub name: Option<String>,
    /// Required: 1-300 characters (under 200 for /.well-known/ai).
    pub description: Option<String>,
    /// Required: https base URL; capability paths are appended to it.
    pub base_url: Option<String>,
    /// Origin the documents are published at (`https://host[:port]`); default the origin of `base_url`.
    pub site_url: Option<String>,
    /// ia.json site type: ecommerce, saas, blog, api (default), marketplace, social, finance, education, healthcare, government or other.
    #[serde(rename = "type")]
    pub site_type: Option<String>,
    /// aiendpoint categories: productivity, ecommerce, finance, news, weather, maps, search, data, communication, calendar, storage, media, health, education, travel, food, government, developer.
    pub categories: Option<Vec<String>>,
    /// Language tags, each `ll` or `ll-CC` (`en`, `pt-BR`).
    pub languages: Option<Vec<String>>,
    /// API version; default `1.0.0`.
    pub version: Option<String>,
    /// https URL of a logo (ia.json, ai-plugin.json).
    pub logo_url: Option<String>,
    /// https URL of the API documentation.
    pub docs_url: Option<String>,
    /// https URL of the terms of service.
    pub terms_url: Option<String>,
    /// https URL of the privacy policy.
    pub privacy_url: Option<String>,
    /// https URL of support.
    pub support_url: Option<String>,
    /// https URL of the source repository.
    pub repository_url: Option<String>,
    /// Free text, such as an SPDX id (`Apache-2.0`).
    pub license: Option<String>,
    /// ISO 4217 code: three capital letters.
    pub currency: Option<String>,
    /// An IANA name such as `UTC`.
    pub timezone: Option<String>,
    /// A2A skill tags.
    pub tags: Option<Vec<String>>,
    /// A human-monitored contact.
    pub contact: Option<ContactTable>,
}

/// `[service.contact]`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactTable {
    pub name: Option<String>,
    /// A plain address (`api@example.com`).
    pub email: Option<String>,
    /// https URL of a contact page.
    pub url: Option<String>,
}

/// `[auth]`: how agents authenticate; `type` decides which other keys are allowed.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuthTable {
    /// Required: none, api_key, bearer, oauth2, signed_key, basic, digest, openid, mutual_tls
    /// or other.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// api_key: where the key travels: `header` (default), `query` or `cookie`.
    #[serde(rename = "in")]
    pub place: Option<String>,
    /// api_key: the query parameter's or cookie's name (or the header's, instead of `header`).
    pub name: Option<String>,
    /// api_key: the header's name (never a key).
    pub header: Option<String>,
    /// https URL of the authentication docs.
    pub docs_url: Option<String>,
    /// api_key: where to get a key. signed_key: where to register.
    pub key_url: Option<String>,
    /// bearer, oauth2: the token endpoint (required for oauth2).
    pub token_url: Option<String>,
    /// oauth2: the authorization endpoint (required).
    pub authorization_url: Option<String>,
    /// oauth2: scope name = description; at least one.
    pub scopes: Option<IndexMap<String, String>>,
    /// oauth2: `authorization_code` (default), `client_credentials`, `implicit`, `password`.
    pub grant_types: Option<Vec<String>>,
    /// oauth2: whether PKCE is required; default true.
    pub pkce: Option<bool>,
    /// bearer: token lifetime in seconds.
    pub token_lifetime: Option<i64>,
    /// signed_key: `sha256` (default) or `sha512`.
    pub algorithm: Option<String>,
    /// signed_key: header prefix; default `X-IA-`.
    pub header_prefix: Option<String>,
    /// signed_key: days between key rotations.
    pub key_rotation_days: Option<i64>,
    /// openid: https URL of the OpenID Connect discovery document.
    pub discovery_url: Option<String>,
    /// oauth2, openid: the issuer URLs of the authorization servers (RFC 8414) that issue the
    /// API's tokens; default the origin of `authorization_url` (else `token_url`), or the issuer
    /// the `discovery_url` names.
    pub authorization_servers: Option<Vec<String>>,
    /// How to authenticate, in words, up to 500 characters: required for `other` (e.g. "AWS
    /// Signature Version 4"); for any other type, what agents should know beyond the type
    /// (e.g. "The API key with format `Token token=<API_KEY>`"). Published text.
    pub description: Option<String>,
    /// Further schemes the service accepts, each an alternative to this one: `[[auth.also]]`
    /// tables with the same keys (but no `also`).
    pub also: Option<Vec<AuthTable>>,
    /// Further schemes every request sends together with this one (an API key and a client
    /// id in two headers): `[[auth.with]]` tables with the same keys (but no `also` or `with`).
    pub with: Option<Vec<AuthTable>>,
}

/// `[rate_limits]`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateLimitsTable {
    /// A positive integer.
    pub requests_per_minute: Option<i64>,
    /// Whether a higher tier for agents exists.
    pub agent_tier_available: Option<bool>,
}

/// `[token_hints]`: aiendpoint token hints.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenHintsTable {
    pub compact_mode: Option<bool>,
    pub field_filtering: Option<bool>,
    pub delta_support: Option<bool>,
}

/// `[meta]`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetaTable {
    /// A TOML date (`2026-03-10`) or a string.
    #[schemars(with = "Option<serde_json::Value>")]
    pub last_updated: Option<toml::Value>,
    /// https URL of the changelog.
    pub changelog: Option<String>,
    /// https URL of the status page.
    pub status: Option<String>,
}

/// `[security]`: the security policy the API declares.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityTable {
    /// `false` is an error from the ia.json target.
    pub https_required: Option<bool>,
    pub verify_signature: Option<bool>,
    /// Digits then `kb` or `mb` (`512kb`, `10mb`).
    pub max_request_size: Option<String>,
    pub allowed_origins: Option<Vec<String>>,
    /// IPs or CIDR ranges.
    pub ip_allowlist: Option<Vec<String>>,
    /// Blocking after failed attempts; all three keys required.
    pub auto_block: Option<AutoBlockTable>,
}

/// `[security.auto_block]`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AutoBlockTable {
    pub failed_attempts: Option<i64>,
    pub window_minutes: Option<i64>,
    pub block_duration_minutes: Option<i64>,
}

/// One event the API can push.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookTable {
    /// Required: strict snake_case, unique among webhooks.
    pub name: Option<String>,
    /// Required: 1-500 characters.
    pub description: Option<String>,
    /// Payload fields, each a compact parameter string or a parameter table.
    #[serde(default)]
    pub payload: IndexMap<String, ParamValue>,
}

/// One operation of the API.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapabilityTable {
    /// Required: lowercase letters, digits and `_`, starting with a letter; at most 64; unique.
    pub id: Option<String>,
    /// Required: 1-200 characters.
    pub description: Option<String>,
    /// The full description, plain text over several lines if need be: published where a
    /// format allows long text (the OpenAPI document, MCP tools, A2A skills); `description`
    /// stays the short one-line text every format can carry. At most 2000 characters are
    /// published.
    pub details: Option<String>,
    /// GET (default), POST, PUT, PATCH or DELETE, in capitals.
    pub method: Option<String>,
    /// Required: an absolute path template (`/items/{id}` or `/items/:id`) or an https URL on another host.
    pub path: Option<String>,
    /// public, protected or user_required; derived from auth and scopes when absent.
    pub access: Option<String>,
    /// OAuth scopes, each a key of `auth.scopes`.
    pub scopes: Option<Vec<String>>,
    /// Compact shape of the response (`books[] {id, title}`), 1-300 characters.
    pub returns: Option<String>,
    pub deprecated: Option<bool>,
    /// `N/second`, `N/minute`, `N/hour` or `N/day`.
    pub rate_limit: Option<String>,
    /// Media type of the request body.
    pub content_type: Option<String>,
    /// The request carries a body even when it gives none of the body's fields: an agent then
    /// sends an empty one (`{}`). Default false; a required body field implies it.
    pub body_required: Option<bool>,
    /// Whether an agent must ask the user first; default true for DELETE or irreversible impact.
    pub confirm: Option<bool>,
    /// OpenAPI tags.
    pub tags: Option<Vec<String>>,
    /// Parameters by name, each a compact string (`string, required -- what`) or a table.
    #[serde(default)]
    pub params: IndexMap<String, ParamValue>,
    /// A real call and its answer.
    pub example: Option<ExampleTable>,
    /// Named failure conditions.
    #[serde(default)]
    pub errors: Vec<ErrorTable>,
    pub semantic: Option<SemanticTable>,
    /// JSON Schema of the success response, when the compact `returns` is not enough.
    // JSON already: the importer's schemas can be megabytes, and lowering wants JSON. Shared:
    // the importer makes one for every operation that returns the same component.
    #[serde(default, deserialize_with = "json_from_toml")]
    pub output_schema: Option<std::sync::Arc<serde_json::Value>>,
}

/// A parameter: the compact aiendpoint string, or a table.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ParamValue {
    /// aiendpoint's compact notation: `<type>, required|optional[, constraints] [-- description]`.
    Compact(String),
    /// A parameter table.
    Table(Box<ParamTable>),
}

// By hand rather than `untagged`, so that a typo inside a parameter table is reported as
// the unknown key it is, not as "did not match any variant".
impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = ParamValue;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a compact parameter string (\"string, required -- …\") or a table")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<ParamValue, E> {
                Ok(ParamValue::Compact(s.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<ParamValue, A::Error> {
                ParamTable::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|t| ParamValue::Table(Box::new(t)))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// A parameter as a table.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamTable {
    /// Required: string, integer, number, boolean, array or object.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Default true for a path parameter, else false.
    pub required: Option<bool>,
    pub description: Option<String>,
    /// A value of the parameter's type.
    #[schemars(with = "Option<serde_json::Value>")]
    pub default: Option<toml::Value>,
    /// Allowed values, each of the parameter's type.
    #[serde(rename = "enum")]
    #[schemars(with = "Option<Vec<serde_json::Value>>")]
    pub allowed: Option<Vec<toml::Value>>,
    /// integer and number only.
    pub min: Option<f64>,
    /// integer and number only.
    pub max: Option<f64>,
    /// string only: a regular expression.
    pub pattern: Option<String>,
    /// A value of the parameter's type.
    #[schemars(with = "Option<serde_json::Value>")]
    pub example: Option<toml::Value>,
    /// Element type of an array.
    pub items: Option<String>,
    /// Whether `null` is a value too (OpenAPI 3.0 `nullable`, a `null` alternative).
    pub nullable: Option<bool>,
    /// More of the value's JSON Schema than the fields above say (`format`, nested
    /// `properties`, `items`, `anyOf`/`oneOf`, `{ "$ref" = "#/schemas/<name>" }` to a named
    /// schema): typed targets publish these keywords too.
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub schema: Option<toml::Value>,
    /// path, query, header or body; derived when absent.
    #[serde(rename = "in")]
    pub location: Option<String>,
    /// The name the request carries (query key, header, body field) when it differs from the
    /// parameter's key, e.g. `wire_name = "id"` for a body field kept as `body_id` beside the
    /// path parameter `id`. Not for path parameters: the placeholder is their name.
    pub wire_name: Option<String>,
}

/// A real call and its answer.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExampleTable {
    /// The request's parameters, copied as JSON.
    #[schemars(with = "Option<serde_json::Value>")]
    pub request: Option<toml::Value>,
    /// The response body, copied as JSON.
    #[schemars(with = "Option<serde_json::Value>")]
    pub response: Option<toml::Value>,
    /// HTTP status, 100-599; default 200.
    pub status: Option<i64>,
}

/// A named failure condition.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorTable {
    /// Required: strict snake_case, unique within the capability.
    pub name: Option<String>,
    /// An HTTP error status, 400-599.
    pub status: Option<i64>,
    pub description: Option<String>,
}

/// AGIS semantic declaration of a capability (draft-hood-independent-agis-01 §6–7).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticTable {
    /// The AGIS method: one imperative verb (BOOK, FIND, …); derived from the id when absent.
    pub verb: Option<String>,
    /// The AGIS path (lowercase hyphenated nouns); derived from the HTTP path when absent.
    pub path: Option<String>,
    /// At most 500 characters.
    pub intent: Option<String>,
    /// agent, user or system.
    pub actor: Option<String>,
    /// At most 500 characters.
    pub outcome: Option<String>,
    /// discovery, transaction, modification, retrieval, analysis or notification.
    pub capability: Option<String>,
    /// 0.0-1.0.
    pub confidence: Option<f64>,
    /// informational, reversible or irreversible.
    pub impact: Option<String>,
    pub idempotent: Option<bool>,
    /// Parameter name = phrases that suggest it.
    pub parameter_hints: Option<IndexMap<String, Vec<String>>>,
    /// `"field.path" = "FROM -> TO"`.
    pub state_transition: Option<IndexMap<String, String>>,
    /// Name of the MCP tool.
    pub mcp_tool_name: Option<String>,
}

/// A TOML value read as JSON (dates become their RFC 3339 text).
/// `[schemas]`: each named schema as JSON, refused where a number has no JSON spelling.
fn schemas_from_toml<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<crate::values::schemas::Schemas, D::Error> {
    let tables = IndexMap::<String, toml::Value>::deserialize(d)?;
    let mut schemas = Vec::with_capacity(tables.len());
    for (name, value) in tables {
        if let Some((f, at)) = non_finite(&value) {
            let at = if at.is_empty() {
                name.clone()
            } else {
                format!("{name}.{at}")
            };
            return Err(serde::de::Error::custom(format!(
                "{} (at `{at}`)",
                non_finite_message(f)
            )));
        }
        schemas.push((name, std::sync::Arc::new(to_json(value))));
    }
    Ok(crate::values::schemas::Schemas::new(schemas))
}

fn json_from_toml<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<std::sync::Arc<serde_json::Value>>, D::Error> {
    let value = Option::<toml::Value>::deserialize(d)?;
    if let Some((f, at)) = value.as_ref().and_then(non_finite) {
        // The caret lands on the whole table: name the key inside it.
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" (at `{at}`)")
        };
        return Err(serde::de::Error::custom(format!(
            "{}{at}",
            non_finite_message(f)
        )));
    }
    Ok(value.map(|v| std::sync::Arc::new(to_json(v))))
}

/// The first `nan` or `inf` in a TOML value, and the dotted path to it: JSON has no such numbers,
/// so [`to_json`] could only make it `null`, publishing another value than the author wrote.
pub fn non_finite(v: &toml::Value) -> Option<(f64, String)> {
    non_finite_all(v).into_iter().next()
}

/// Every `nan` and `inf` in a TOML value, each with its dotted path.
pub fn non_finite_all(v: &toml::Value) -> Vec<(f64, String)> {
    enum Step<'a> {
        Key(&'a str),
        Index(usize),
    }
    // The path is spelled out only for a hit: this walks every output schema of a large import.
    fn walk<'a>(v: &'a toml::Value, at: &mut Vec<Step<'a>>, out: &mut Vec<(f64, String)>) {
        match v {
            toml::Value::Float(f) if !f.is_finite() => {
                let path: Vec<String> = at
                    .iter()
                    .map(|s| match s {
                        Step::Key(k) => k.to_string(),
                        Step::Index(i) => i.to_string(),
                    })
                    .collect();
                out.push((*f, path.join(".")));
            }
            toml::Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    at.push(Step::Index(i));
                    walk(v, at, out);
                    at.pop();
                }
            }
            toml::Value::Table(t) => {
                for (k, v) in t {
                    at.push(Step::Key(k));
                    walk(v, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// The error for a `nan` or `inf` at `field`.
pub fn non_finite_error(f: f64, field: String) -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::new(crate::diag::Code::InvalidValue, non_finite_message(f))
        .at(field)
        .help("write a finite number, or the text as a string (\"NaN\")")
}

pub fn non_finite_message(f: f64) -> String {
    let text = if f.is_nan() {
        "nan"
    } else if f > 0.0 {
        "inf"
    } else {
        "-inf"
    };
    format!("`{text}` cannot be published: JSON has no NaN or infinity")
}

/// TOML → JSON; dates become their RFC 3339 text. Check [`non_finite`] first.
pub fn to_json(v: toml::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.into_iter().map(|(k, v)| (k, to_json(v))).collect())
        }
    }
}
