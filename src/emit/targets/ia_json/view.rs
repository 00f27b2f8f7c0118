//! The ia.json document as `Serialize` structs: one per schema object, fields in the spec's
//! order, optional members skipped when absent so the output carries nothing the author did not
//! say or wellgen did not derive.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

#[derive(Serialize)]
pub struct Document<'a> {
    pub version: &'static str,
    pub site: Site<'a>,
    pub api: Api<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth: Option<Auth<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security: Option<Security<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<IndexMap<&'a str, bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhooks: Option<IndexMap<&'a str, WebhookEvent<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata<'a>>,
}

#[derive(Serialize)]
pub struct Site<'a> {
    pub name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a str>,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timezone: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<&'a str>,
}

/// An endpoint group (`public`, `protected`, `user_required`): name → endpoint.
pub type Group<'a> = IndexMap<&'a str, Endpoint<'a>>;

#[derive(Serialize)]
pub struct Api<'a> {
    pub base_url: &'a str,
    // The schema rejects an empty group (`minProperties: 1`), so empty ones are left out.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub public: Group<'a>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub protected: Group<'a>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub user_required: Group<'a>,
}

impl<'a> Api<'a> {
    fn endpoints(&mut self) -> impl Iterator<Item = &mut Endpoint<'a>> {
        [
            &mut self.public,
            &mut self.protected,
            &mut self.user_required,
        ]
        .into_iter()
        .flat_map(|g| g.values_mut())
    }

    /// Leaves out the descriptions and examples of the optional parameters and body fields
    /// (`required` too: every one); returns how many fields lost something. What a document
    /// still larger than its source leaves out after the response schemas: Google's
    /// descriptions repeat a dozen optional query parameters, described, in every endpoint.
    pub fn drop_parameter_texts(&mut self, required: bool) -> usize {
        let mut n = 0;
        for e in self.endpoints() {
            for p in e.parameters.values_mut().chain(e.body.values_mut()) {
                if (required || !p.required) && (p.description.is_some() || p.example.is_some()) {
                    p.description = None;
                    p.example = None;
                    n += 1;
                }
            }
        }
        n
    }

    /// Leaves only the compact description in every `response`: the schemas and examples
    /// are what make a large API's ia.json outgrow §3.6's 1 MB. Returns how many it shortened.
    pub fn shorten_responses(&mut self) -> usize {
        let mut shortened = 0;
        for e in self.endpoints() {
            if let Some(r) = &mut e.response
                && (r.schema.is_some() || r.example.is_some())
            {
                r.schema = None;
                r.example = None;
                shortened += 1;
                if r.description.is_none() {
                    e.response = None;
                }
            }
        }
        shortened
    }
}

#[derive(Serialize)]
pub struct Endpoint<'a> {
    pub method: &'static str,
    pub path: String,
    pub description: &'a str,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub parameters: IndexMap<&'a str, Parameter<'a>>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub body: IndexMap<&'a str, Parameter<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<Response<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<String>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub scopes: &'a [String],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
}

/// `response`, free-form in the spec: plain keys for what the model knows, borrowed (a large
/// API's response schemas are most of the document).
#[derive(Serialize)]
pub struct Response<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a str>,
    /// Whole: ia.json has no place for shared schemas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<std::sync::Arc<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<&'a Value>,
}

/// The schema's `parameter`: exactly these keys (`additionalProperties: false`), `type` and
/// `required` always present.
#[derive(Serialize)]
pub struct Parameter<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<&'a Value>,
    #[serde(rename = "enum", skip_serializing_if = "<[_]>::is_empty")]
    pub allowed: &'a [Value],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<&'a str>,
}

/// At most one scheme: the model has one `Auth`; `none` becomes no `auth` object at all
/// (the schema rejects `{}`).
#[derive(Serialize, Default)]
pub struct Auth<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_key: Option<SignedKey<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oauth2: Option<OAuth2<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_key: Option<ApiKey<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bearer: Option<Bearer<'a>>,
}

#[derive(Serialize)]
pub struct SignedKey<'a> {
    pub register_url: &'a str,
    pub algorithm: &'a str,
    pub header_prefix: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_rotation_days: Option<u64>,
}

#[derive(Serialize)]
pub struct OAuth2<'a> {
    pub authorization_url: &'a str,
    pub token_url: &'a str,
    pub scopes: &'a IndexMap<String, String>,
    /// Always written: the schema's default (`["authorization_code"]`) is only an annotation.
    pub grant_types: Vec<&'a str>,
    /// Always written: the spec RECOMMENDS `true`, the schema's default is `false`.
    pub pkce_required: bool,
}

#[derive(Serialize)]
pub struct ApiKey<'a> {
    pub header: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_url: Option<&'a str>,
}

#[derive(Serialize)]
pub struct Bearer<'a> {
    pub token_url: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in: Option<u64>,
}

#[derive(Serialize, Default)]
pub struct Security<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub https_required: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_signature: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_request_size: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub allowed_origins: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub ip_whitelist: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_block: Option<AutoBlock>,
}

#[derive(Serialize)]
pub struct AutoBlock {
    pub failed_attempts: u64,
    pub window_minutes: u64,
    pub block_duration_minutes: u64,
}

#[derive(Serialize)]
pub struct WebhookEvent<'a> {
    pub description: &'a str,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub payload: IndexMap<&'a str, Parameter<'a>>,
}

#[derive(Serialize)]
pub struct Metadata<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    pub spec_version: &'static str,
    pub generator: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docs_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support_url: Option<&'a str>,
}
