//! The serde mirror of service.toml: exactly what the author may write, nothing resolved.
//!
//! Every table denies unknown keys so a typo is an error (with a "did you mean"), and nothing
//! here has defaults beyond `Option`: defaults are applied last, by `model::lower`.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceToml {
    /// Defaulted so a file that only completes an OpenAPI import (`[source]`) may omit it.
    #[serde(default)]
    pub service: ServiceTable,
    pub auth: Option<AuthTable>,
    pub rate_limits: Option<RateLimitsTable>,
    pub token_hints: Option<TokenHintsTable>,
    pub meta: Option<MetaTable>,
    pub security: Option<SecurityTable>,
    /// ia.json capability flags that cannot be derived (checkout, real_time, x_… custom flags).
    pub features: Option<IndexMap<String, bool>>,
    #[serde(default)]
    pub webhooks: Vec<WebhookTable>,
    pub rfc002: Option<Rfc002Table>,
    pub plugin: Option<PluginTable>,
    pub pricing: Option<PricingTable>,
    pub agis: Option<AgisTable>,
    pub deploy: Option<DeployTable>,
    #[serde(default)]
    pub capabilities: Vec<CapabilityTable>,
    pub a2a: Option<A2aTable>,
    /// An OpenAPI document this file completes and corrects (see docs/openapi-import.md).
    pub source: Option<SourceTable>,
}

/// A2A agent card options.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct A2aTable {
    /// Also publish the card at the pre-1.0 path `/.well-known/agent.json`.
    pub legacy_alias: Option<bool>,
}

/// `[source]`: import capabilities from an OpenAPI document; this file's values win per key.
#[derive(Debug, Default, Deserialize, Serialize)]
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
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeployTable {
    /// netlify, cloudflare or generic; `--host` overrides it.
    pub host: Option<String>,
}

/// RFC-002 (agents.json) fields the model cannot derive.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Rfc002Table {
    pub issuer: Option<IssuerTable>,
    pub conformance: Option<Vec<String>>,
    /// Rules for agents, joined with "; " into `agentInstructions`.
    pub instructions: Option<Vec<String>>,
    /// Free-form pointers to audit log, human-in-the-loop gates, liability framework.
    pub governance: Option<toml::Table>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IssuerTable {
    pub jurisdiction: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub operator_name: Option<String>,
    pub operator_cuit: Option<String>,
    pub denominacion: Option<String>,
    pub supervision_regime: Option<String>,
}

/// OpenAI plugin manifest (ai-plugin.json) wording.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PluginTable {
    pub name_for_model: Option<String>,
    pub name_for_human: Option<String>,
    pub description_for_human: Option<String>,
    pub description_for_model: Option<String>,
}

/// Agent Discovery Protocol pricing.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PricingTable {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub plans_url: Option<String>,
    #[serde(default)]
    pub plans: Vec<PlanTable>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlanTable {
    pub name: Option<String>,
    pub price: Option<String>,
    pub limits: Option<String>,
}

/// AGIS document-level fields (vocabulary block, data manifest, AGTP address).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgisTable {
    pub agtp: Option<String>,
    pub domain: Option<String>,
    pub namespace: Option<String>,
    pub negotiable: Option<bool>,
    pub interaction_protocols: Option<Vec<String>>,
    pub related_services: Option<Vec<String>>,
    pub data_manifest: Option<DataManifestTable>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DataManifestTable {
    pub pre_auth_discovery: Option<bool>,
    #[serde(default)]
    pub available_data: Vec<DataClassTable>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DataClassTable {
    pub class: Option<String>,
    pub description: Option<String>,
    pub formats: Option<Vec<String>>,
    pub sensitivity: Option<String>,
    pub requires_authorization: Option<bool>,
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceTable {
    pub name: Option<String>,
    pub description: Option<String>,
    pub base_url: Option<String>,
    pub site_url: Option<String>,
    #[serde(rename = "type")]
    pub site_type: Option<String>,
    pub categories: Option<Vec<String>>,
    pub languages: Option<Vec<String>>,
    pub version: Option<String>,
    pub logo_url: Option<String>,
    pub docs_url: Option<String>,
    pub terms_url: Option<String>,
    pub privacy_url: Option<String>,
    pub support_url: Option<String>,
    pub repository_url: Option<String>,
    pub license: Option<String>,
    pub currency: Option<String>,
    pub timezone: Option<String>,
    pub tags: Option<Vec<String>>,
    pub contact: Option<ContactTable>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContactTable {
    pub name: Option<String>,
    pub email: Option<String>,
    pub url: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AuthTable {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub header: Option<String>,
    pub docs_url: Option<String>,
    /// api_key: where to get a key. signed_key: where to register.
    pub key_url: Option<String>,
    pub token_url: Option<String>,
    pub authorization_url: Option<String>,
    pub scopes: Option<IndexMap<String, String>>,
    pub grant_types: Option<Vec<String>>,
    pub pkce: Option<bool>,
    pub token_lifetime: Option<i64>,
    pub algorithm: Option<String>,
    pub header_prefix: Option<String>,
    pub key_rotation_days: Option<i64>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitsTable {
    pub requests_per_minute: Option<i64>,
    pub agent_tier_available: Option<bool>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TokenHintsTable {
    pub compact_mode: Option<bool>,
    pub field_filtering: Option<bool>,
    pub delta_support: Option<bool>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MetaTable {
    /// A TOML date (`2026-03-10`) or a string.
    pub last_updated: Option<toml::Value>,
    pub changelog: Option<String>,
    pub status: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SecurityTable {
    pub https_required: Option<bool>,
    pub verify_signature: Option<bool>,
    pub max_request_size: Option<String>,
    pub allowed_origins: Option<Vec<String>>,
    pub ip_allowlist: Option<Vec<String>>,
    pub auto_block: Option<AutoBlockTable>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AutoBlockTable {
    pub failed_attempts: Option<i64>,
    pub window_minutes: Option<i64>,
    pub block_duration_minutes: Option<i64>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookTable {
    pub name: Option<String>,
    pub description: Option<String>,
    #[serde(default)]
    pub payload: IndexMap<String, ParamValue>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityTable {
    pub id: Option<String>,
    pub description: Option<String>,
    pub method: Option<String>,
    pub path: Option<String>,
    pub access: Option<String>,
    pub scopes: Option<Vec<String>>,
    pub returns: Option<String>,
    pub deprecated: Option<bool>,
    pub rate_limit: Option<String>,
    pub content_type: Option<String>,
    pub confirm: Option<bool>,
    pub tags: Option<Vec<String>>,
    #[serde(default)]
    pub params: IndexMap<String, ParamValue>,
    pub example: Option<ExampleTable>,
    #[serde(default)]
    pub errors: Vec<ErrorTable>,
    pub semantic: Option<SemanticTable>,
    /// JSON Schema of the success response, when the compact `returns` is not enough.
    pub output_schema: Option<toml::Value>,
}

/// A parameter: the compact aiendpoint string, or a table.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ParamValue {
    Compact(String),
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

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ParamTable {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub required: Option<bool>,
    pub description: Option<String>,
    pub default: Option<toml::Value>,
    #[serde(rename = "enum")]
    pub allowed: Option<Vec<toml::Value>>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub pattern: Option<String>,
    pub example: Option<toml::Value>,
    pub items: Option<String>,
    #[serde(rename = "in")]
    pub location: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleTable {
    pub request: Option<toml::Value>,
    pub response: Option<toml::Value>,
    pub status: Option<i64>,
}

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorTable {
    pub name: Option<String>,
    pub status: Option<i64>,
    pub description: Option<String>,
}

/// AGIS semantic declaration of a capability (draft-hood-independent-agis-01 §6–7).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SemanticTable {
    /// The AGIS method: one imperative verb (BOOK, FIND, …); derived from the id when absent.
    pub verb: Option<String>,
    /// The AGIS path (lowercase hyphenated nouns); derived from the HTTP path when absent.
    pub path: Option<String>,
    pub intent: Option<String>,
    pub actor: Option<String>,
    pub outcome: Option<String>,
    pub capability: Option<String>,
    pub confidence: Option<f64>,
    pub impact: Option<String>,
    pub idempotent: Option<bool>,
    pub parameter_hints: Option<IndexMap<String, Vec<String>>>,
    pub state_transition: Option<IndexMap<String, String>>,
    pub mcp_tool_name: Option<String>,
}
