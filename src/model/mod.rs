//! The one model every target lowers from: typed, ordered, validated, with defaults applied.
//!
//! It has no `Deserialize` on purpose: the only way in is `lower`, which checks everything and
//! collects every diagnostic first.

mod lower;
pub mod returns;
pub mod robots;

pub use crate::values::param::{Param, ParamIn, ParamType};
pub use crate::values::path::PathTemplate;
pub use crate::values::url::HttpsUrl;
pub use crate::values::{CATEGORIES, Email, LanguageTag, MetaDate, Method};
pub use lower::{DETAILS_MAX, FEATURES, cut_details, lower};

use indexmap::IndexMap;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct Service {
    pub name: String,
    pub description: String,
    /// The API base: capability paths resolve against it.
    pub base_url: HttpsUrl,
    /// The origin the documents are published at.
    pub site_url: HttpsUrl,
    pub site_type: SiteType,
    /// aiendpoint categories (closed list), in the author's order.
    pub categories: Vec<String>,
    /// Two-letter languages with an optional region (`en`, `pt-BR`), when the author declared them.
    pub languages: Option<Vec<LanguageTag>>,
    pub version: String,
    pub links: Links,
    pub contact: Contact,
    pub license: Option<String>,
    pub currency: Option<String>,
    pub timezone: Option<String>,
    pub tags: Vec<String>,
    pub auth: Option<Auth>,
    /// Schemes every request sends together with `auth` (a key and a client id): the first
    /// security requirement is `auth` and these, all at once.
    pub auth_with: Vec<Auth>,
    /// Further schemes the service accepts, each an alternative to `auth` (and its `auth_with`).
    pub auth_also: Vec<Auth>,
    pub rate_limits: Option<RateLimits>,
    pub token_hints: Option<TokenHints>,
    pub meta: Meta,
    pub security: Option<Security>,
    pub features: IndexMap<String, bool>,
    pub webhooks: Vec<Webhook>,
    pub rfc002: Rfc002,
    pub plugin: Plugin,
    pub pricing: Option<Pricing>,
    pub agis: Agis,
    /// wellgen's section of robots.txt.
    pub robots: robots::Robots,
    /// `[deploy] host`: where the author deploys dist/. A build's host (`emit::Build::host`)
    /// is this unless `--host` or the build environment says otherwise.
    pub host: Host,
    pub capabilities: Vec<Capability>,
    pub a2a: A2a,
    /// `[mcp]`: the remote MCP server the service runs, if it declares one.
    pub mcp: Option<McpServer>,
    /// `[source] split`: `/.well-known/ai` also as one sub-service document per tag.
    pub split: Option<Split>,
    /// `[source] compact`: `None` compacts /.well-known/ai only when its full form is over
    /// aiendpoint's 64 KB guidance.
    pub compact: Option<bool>,
    /// The size in bytes of the OpenAPI document the service was imported from (`None` for a
    /// plain service.toml): large documents that would outgrow it leave out what their
    /// specification lets them leave out (`emit::budget::source_budget`).
    pub source_bytes: Option<usize>,
    /// The imported document's component schemas that response schemas refer to, by name.
    pub schemas: crate::values::schemas::Schemas,
}

/// The site's own files in the output folder (those the last build's manifest does not list)
/// that a document lists: not the model's (a fact of one build, `emit::Build::site`), read from
/// the folder by the command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteFiles {
    /// Each `/.well-known/agent-skills/<folder>/SKILL.md` of the site's own, by folder name.
    pub skills: Vec<SiteSkill>,
    /// The site has its own `/.well-known/agent-skills/index.json`.
    pub skills_index: bool,
    /// The site's robots.txt, without wellgen's section, which wellgen's is merged into.
    pub robots: Option<String>,
    /// The folder has a sitemap.xml, which robots.txt names.
    pub sitemap: bool,
    /// The hosts' routing files (`HostDescriptor::route`) that are wellgen's own, not merged,
    /// and that the site has its own of (a Cloudflare adapter's `_worker.js`): wellgen keeps
    /// them and writes none, so the query route is not routed there.
    pub own_routers: Vec<String>,
}

impl SiteFiles {
    /// Whether the site has its own routing file at `path`.
    pub fn routes_itself(&self, path: &str) -> bool {
        self.own_routers.iter().any(|p| p == path)
    }
}

/// A skill of the site's own: kept byte for byte, listed in the skills index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteSkill {
    /// Its folder's name, which the Agent Skills format asks to be the skill's `name`.
    pub folder: String,
    /// The front matter's `name` and `description`, or why they could not be read.
    pub front: Result<SkillFront, String>,
    /// `sha256:<hex>` of the file's bytes, as they are served.
    pub digest: String,
}

/// The front matter fields of a SKILL.md that the skills index repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFront {
    pub name: Option<String>,
    pub description: Option<String>,
}

/// A2A agent card options.
#[derive(Debug, Clone, Copy, Default)]
pub struct A2a {
    /// Also publish the card at the pre-1.0 path `/.well-known/agent.json`.
    pub legacy_alias: bool,
}

/// A remote MCP server (`[mcp]`), as its Server Card describes it (SEP-2127 `Remote`).
#[derive(Debug, Clone, PartialEq)]
pub struct McpServer {
    /// `namespace/name`, reverse-DNS (`com.example/weather`).
    pub name: String,
    /// Whether the author wrote `name` (else it is derived from the site's host).
    pub named: bool,
    /// The endpoint URL, `{name}` parts included.
    pub endpoint: String,
    pub transport: McpTransport,
    pub protocol_versions: Vec<String>,
    /// The endpoint's `{name}` parts, in the author's order.
    pub variables: IndexMap<String, McpInput>,
    pub headers: Vec<McpHeader>,
}

/// How an MCP client talks to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpTransport {
    StreamableHttp,
    Sse,
}

impl McpTransport {
    pub const NAMES: [&'static str; 2] = ["streamable-http", "sse"];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::StreamableHttp => "streamable-http",
            Self::Sse => "sse",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "streamable-http" => Some(Self::StreamableHttp),
            "sse" => Some(Self::Sse),
            _ => None,
        }
    }
}

/// A value the user supplies when connecting to the MCP server.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct McpInput {
    pub description: Option<String>,
    pub required: bool,
    pub secret: bool,
    pub default: Option<String>,
    pub choices: Vec<String>,
}

/// An HTTP header sent to the MCP server.
#[derive(Debug, Clone, PartialEq)]
pub struct McpHeader {
    pub name: String,
    pub input: McpInput,
    /// The value's template, `{name}` parts included.
    pub value: Option<String>,
    pub variables: IndexMap<String, McpInput>,
}

/// How `/.well-known/ai` is split into sub-service documents (aiendpoint §4.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// One sub-service per capability's first tag.
    ByTag,
}

impl Split {
    /// The only value `[source] split` takes.
    pub const BY_TAG: &'static str = "tag";
}

/// Declares the hosts: the enum, `Host::ALL` in host order (the order of every listing) and
/// each one's name as `--host` and `[deploy] host` spell it, from one line per host. What a host
/// needs beside the documents is its descriptor in `emit::hosts` (`Host::descriptor`, whose
/// `match` the compiler makes name every host).
macro_rules! hosts {
    ($($variant:ident => $name:literal),+ $(,)?) => {
        /// Where the output folder is deployed: decides the host files written beside the
        /// documents.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Host {
            $($variant),+
        }

        impl Host {
            /// Every host, in the order listings show them.
            pub const ALL: [Host; [$($name),+].len()] = [$(Host::$variant),+];
            /// Every host's name, as `--host` and `[deploy] host` spell it.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];
        }
    };
}

hosts! {
    Netlify => "netlify",
    Cloudflare => "cloudflare",
    Vercel => "vercel",
    GithubPages => "github-pages",
    Generic => "generic",
}

/// A service that names no host is built for any static host.
impl Default for Host {
    fn default() -> Self {
        Self::Generic
    }
}

impl Host {
    /// As `--host` and `[deploy] host` spell it.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The host named `name`, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }
}

impl Service {
    /// The note a target with room for one scheme gives when requests carry more
    /// (`auth_with`), which it leaves out.
    pub fn auth_with_left_out(&self, target: &str) -> Option<crate::diag::Diagnostic> {
        (!self.auth_with.is_empty()).then(|| {
            let with: Vec<String> = self.auth_with.iter().map(Auth::what).collect();
            crate::diag::Diagnostic::new(
                crate::diag::Code::AuthWithLost,
                format!(
                    "{target} cannot say that requests also carry {}",
                    with.join(" and ")
                ),
            )
            .at("auth.with")
        })
    }
}

#[derive(Debug, Clone, Default)]
pub struct Rfc002 {
    pub issuer: Option<Issuer>,
    pub conformance: Vec<String>,
    pub instructions: Vec<String>,
    pub governance: Option<serde_json::Map<String, Value>>,
}

#[derive(Debug, Clone, Default)]
pub struct Issuer {
    pub jurisdiction: String,
    pub kind: String,
    pub operator_name: Option<String>,
    pub operator_cuit: Option<String>,
    pub denominacion: Option<String>,
    pub supervision_regime: Option<String>,
}

/// ai-plugin.json wording; absent values are derived by that back end, with a warning.
#[derive(Debug, Clone, Default)]
pub struct Plugin {
    pub name_for_model: Option<String>,
    pub name_for_human: Option<String>,
    pub description_for_human: Option<String>,
    pub description_for_model: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Pricing {
    /// `free`, `freemium` or `paid`.
    pub kind: String,
    pub plans_url: Option<String>,
    pub plans: Vec<Plan>,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub name: String,
    pub price: Option<String>,
    pub limits: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Agis {
    /// `agtp://…`; absent for plain HTTPS services (the back end derives one and says so).
    pub agtp: Option<String>,
    pub domain: Option<String>,
    pub namespace: Option<String>,
    pub negotiable: bool,
    pub interaction_protocols: Vec<String>,
    pub related_services: Vec<String>,
    pub data_manifest: Option<DataManifest>,
}

#[derive(Debug, Clone, Default)]
pub struct DataManifest {
    pub pre_auth_discovery: bool,
    pub available_data: Vec<DataClass>,
}

#[derive(Debug, Clone)]
pub struct DataClass {
    pub class: String,
    pub description: Option<String>,
    pub formats: Vec<String>,
    pub sensitivity: Option<String>,
    pub requires_authorization: Option<bool>,
}

#[derive(Debug, Clone, Default)]
pub struct Links {
    pub logo: Option<String>,
    pub docs: Option<String>,
    pub terms: Option<String>,
    pub privacy: Option<String>,
    pub support: Option<String>,
    pub repository: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Contact {
    pub name: Option<String>,
    pub email: Option<Email>,
    pub url: Option<String>,
}

/// ia.json's closed list of site types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteType {
    Ecommerce,
    Saas,
    Blog,
    Api,
    Marketplace,
    Social,
    Finance,
    Education,
    Healthcare,
    Government,
    Other,
}

impl SiteType {
    pub const NAMES: [&'static str; 11] = [
        "ecommerce",
        "saas",
        "blog",
        "api",
        "marketplace",
        "social",
        "finance",
        "education",
        "healthcare",
        "government",
        "other",
    ];
    const ALL: [Self; 11] = [
        Self::Ecommerce,
        Self::Saas,
        Self::Blog,
        Self::Api,
        Self::Marketplace,
        Self::Social,
        Self::Finance,
        Self::Education,
        Self::Healthcare,
        Self::Government,
        Self::Other,
    ];

    pub fn parse(s: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Self::ALL[i])
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Where an API key travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPlace {
    Header,
    Query,
    Cookie,
}

impl KeyPlace {
    pub const NAMES: [&'static str; 3] = ["header", "query", "cookie"];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Header => "header",
            Self::Query => "query",
            Self::Cookie => "cookie",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "header" => Some(Self::Header),
            "query" => Some(Self::Query),
            "cookie" => Some(Self::Cookie),
            _ => None,
        }
    }
}

/// One way agents authenticate. A service has a primary scheme and may accept others
/// (`Service::auth_also`): any one of them authenticates a request. Every scheme may carry the
/// API's own words about it (`description`, e.g. a key's format `Token token=<API_KEY>`);
/// a vendor scheme (`Other`) is nothing but words.
#[derive(Debug, Clone, PartialEq)]
pub enum Auth {
    None {
        docs: Option<String>,
        description: Option<String>,
    },
    /// A key sent as the header, query parameter or cookie called `name`.
    ApiKey {
        name: String,
        place: KeyPlace,
        docs: Option<String>,
        key_url: Option<String>,
        description: Option<String>,
    },
    /// HTTP Basic (RFC 7617): a user name and password in the Authorization header.
    Basic {
        docs: Option<String>,
        description: Option<String>,
    },
    /// HTTP Digest (RFC 7616).
    Digest {
        docs: Option<String>,
        description: Option<String>,
    },
    Bearer {
        docs: Option<String>,
        token_url: Option<String>,
        token_lifetime: Option<u64>,
        description: Option<String>,
    },
    /// OAuth 2.0. `authorization_url` is set when a grant needs it (authorization code,
    /// implicit), `token_url` likewise (authorization code, client credentials, password);
    /// lowering guarantees both for the authorization-code flow.
    OAuth2 {
        docs: Option<String>,
        authorization_url: Option<String>,
        token_url: Option<String>,
        /// `[auth] authorization_servers`: issuer URLs, when the author names them.
        authorization_servers: Vec<String>,
        scopes: IndexMap<String, String>,
        grant_types: Vec<String>,
        pkce: bool,
        description: Option<String>,
    },
    /// OpenID Connect, found through its discovery document.
    OpenIdConnect {
        docs: Option<String>,
        discovery_url: String,
        /// `[auth] authorization_servers`: issuer URLs, when the author names them.
        authorization_servers: Vec<String>,
        description: Option<String>,
    },
    /// Mutual TLS: the client presents a certificate.
    MutualTls {
        docs: Option<String>,
        description: Option<String>,
    },
    /// A vendor scheme (e.g. AWS Signature Version 4) no vocabulary names: said in words.
    Other {
        docs: Option<String>,
        description: String,
    },
    SignedKey {
        docs: Option<String>,
        register_url: String,
        algorithm: String,
        header_prefix: String,
        key_rotation_days: Option<u64>,
        description: Option<String>,
    },
}

impl Auth {
    pub const KINDS: [&'static str; 10] = [
        "none",
        "api_key",
        "bearer",
        "oauth2",
        "signed_key",
        "basic",
        "digest",
        "openid",
        "mutual_tls",
        "other",
    ];
    /// The OAuth 2 grant types service.toml spells.
    pub const GRANT_TYPES: [&'static str; 4] = [
        "authorization_code",
        "client_credentials",
        "implicit",
        "password",
    ];

    /// The service.toml `type` of this scheme.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::None { .. } => "none",
            Self::ApiKey { .. } => "api_key",
            Self::Basic { .. } => "basic",
            Self::Digest { .. } => "digest",
            Self::Bearer { .. } => "bearer",
            Self::OAuth2 { .. } => "oauth2",
            Self::OpenIdConnect { .. } => "openid",
            Self::MutualTls { .. } => "mutual_tls",
            Self::Other { .. } => "other",
            Self::SignedKey { .. } => "signed_key",
        }
    }

    pub fn docs(&self) -> Option<&str> {
        match self {
            Self::None { docs, .. }
            | Self::ApiKey { docs, .. }
            | Self::Basic { docs, .. }
            | Self::Digest { docs, .. }
            | Self::Bearer { docs, .. }
            | Self::OAuth2 { docs, .. }
            | Self::OpenIdConnect { docs, .. }
            | Self::MutualTls { docs, .. }
            | Self::Other { docs, .. }
            | Self::SignedKey { docs, .. } => docs.as_deref(),
        }
    }

    /// The API's own words about the scheme (`[auth] description`, an OpenAPI security
    /// scheme's `description`): published text, checked as such (`check::strings`).
    pub fn description(&self) -> Option<&str> {
        match self {
            Self::Other { description, .. } => Some(description),
            Self::None { description, .. }
            | Self::ApiKey { description, .. }
            | Self::Basic { description, .. }
            | Self::Digest { description, .. }
            | Self::Bearer { description, .. }
            | Self::OAuth2 { description, .. }
            | Self::OpenIdConnect { description, .. }
            | Self::MutualTls { description, .. }
            | Self::SignedKey { description, .. } => description.as_deref(),
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Self::None { .. })
    }

    pub fn scopes(&self) -> Option<&IndexMap<String, String>> {
        match self {
            Self::OAuth2 { scopes, .. } => Some(scopes),
            _ => None,
        }
    }

    /// The scheme in a few words, for warnings.
    pub fn what(&self) -> String {
        match self {
            Self::None { .. } => "no authentication".into(),
            Self::ApiKey { name, place, .. } => match place {
                KeyPlace::Header => format!("an API key in the `{name}` header"),
                KeyPlace::Query => format!("an API key in the `{name}` query parameter"),
                KeyPlace::Cookie => format!("an API key in the `{name}` cookie"),
            },
            Self::Basic { .. } => "HTTP Basic authentication".into(),
            Self::Digest { .. } => "HTTP Digest authentication".into(),
            Self::Bearer { .. } => "a bearer token".into(),
            Self::OAuth2 { grant_types, .. } => {
                format!("OAuth 2 with the {} grant", grant_types.join(", "))
            }
            Self::OpenIdConnect { .. } => "OpenID Connect".into(),
            Self::MutualTls { .. } => "mutual TLS".into(),
            Self::Other { description, .. } => format!("\"{description}\""),
            Self::SignedKey { .. } => "signed requests".into(),
        }
    }

    /// The one warning a target gives when its vocabulary cannot say this scheme and it
    /// publishes `published_as` instead (plus the docs URL where it has a place for one).
    pub fn approximated(&self, target: &str, published_as: &str) -> crate::diag::Diagnostic {
        let d = crate::diag::Diagnostic::new(
            crate::diag::Code::AuthSchemeLost,
            format!(
                "{target} cannot say {}: published as {published_as}",
                self.what()
            ),
        )
        .at("auth.type");
        if self.docs().is_some() {
            d
        } else {
            d.help(
                "set `auth.docs_url` to the page that says how to authenticate: agents follow it",
            )
        }
    }

    /// One sentence that says how to authenticate, for targets whose vocabulary has no word
    /// for the scheme (and for prose targets). Never a secret: only names and URLs.
    pub fn describe(&self) -> String {
        let mut text = match self {
            Self::None { .. } => "No authentication is needed.".to_string(),
            Self::ApiKey { name, place, .. } => match place {
                KeyPlace::Header => format!("Send an API key in the `{name}` header."),
                KeyPlace::Query => format!("Send an API key in the `{name}` query parameter."),
                KeyPlace::Cookie => format!("Send an API key in the `{name}` cookie."),
            },
            Self::Basic { .. } => {
                "Use HTTP Basic authentication (a user name and password in the Authorization header).".to_string()
            }
            Self::Digest { .. } => "Use HTTP Digest authentication.".to_string(),
            Self::Bearer { .. } => "Send a bearer token in the Authorization header.".to_string(),
            Self::OAuth2 {
                authorization_url,
                token_url,
                grant_types,
                ..
            } => {
                let mut t = format!(
                    "Send an OAuth 2.0 access token (grant types: {}).",
                    grant_types.join(", ")
                );
                if let Some(u) = authorization_url {
                    t.push_str(&format!(" Authorize at {u}."));
                }
                if let Some(u) = token_url {
                    t.push_str(&format!(" Get tokens at {u}."));
                }
                t
            }
            Self::OpenIdConnect { discovery_url, .. } => format!(
                "Send an OpenID Connect token; the provider is described at {discovery_url}."
            ),
            Self::MutualTls { .. } => {
                "Use mutual TLS: present a client certificate.".to_string()
            }
            Self::Other { description, .. } => {
                let d = description.trim_end();
                if d.ends_with('.') {
                    d.to_string()
                } else {
                    format!("{d}.")
                }
            }
            Self::SignedKey {
                algorithm,
                header_prefix,
                ..
            } => format!(
                "Sign requests with {algorithm}; send the key id in `{header_prefix}Key`."
            ),
        };
        if let Some(d) = self.docs() {
            text.push_str(&format!(" See {d}"));
        }
        text
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RateLimits {
    pub requests_per_minute: Option<u64>,
    pub agent_tier_available: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenHints {
    pub compact_mode: bool,
    pub field_filtering: bool,
    pub delta_support: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`, as written, and a real day and time.
    pub last_updated: Option<MetaDate>,
    pub changelog: Option<String>,
    pub status: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Security {
    pub https_required: Option<bool>,
    pub verify_signature: Option<bool>,
    pub max_request_size: Option<String>,
    pub allowed_origins: Vec<String>,
    pub ip_allowlist: Vec<String>,
    pub auto_block: Option<AutoBlock>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutoBlock {
    pub failed_attempts: u64,
    pub window_minutes: u64,
    pub block_duration_minutes: u64,
}

#[derive(Debug, Clone)]
pub struct Webhook {
    pub name: String,
    pub description: String,
    pub payload: Vec<Param>,
}

/// ia.json's access groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    Protected,
    UserRequired,
}

impl Access {
    pub const NAMES: [&'static str; 3] = ["public", "protected", "user_required"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "public" => Self::Public,
            "protected" => Self::Protected,
            "user_required" => Self::UserRequired,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// `N/period`, as ia.json writes rate limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub count: u64,
    pub period: Period,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Second,
    Minute,
    Hour,
    Day,
}

impl Period {
    pub const NAMES: [&'static str; 4] = ["second", "minute", "hour", "day"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "second" => Self::Second,
            "minute" => Self::Minute,
            "hour" => Self::Hour,
            "day" => Self::Day,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl std::fmt::Display for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.count, self.period.as_str())
    }
}

#[derive(Debug, Clone)]
pub struct Capability {
    /// Position in the source, for diagnostics (`capabilities.N.field`).
    pub index: usize,
    pub id: String,
    /// One line, at most 200 characters: every format can carry it.
    pub description: String,
    /// The full description (plain text, paragraphs apart by a blank line), for formats with
    /// room for long text; never equal to `description`, at most `DETAILS_MAX` characters.
    pub details: Option<String>,
    pub method: Method,
    /// The origin serving this capability when it is not the base URL's.
    pub host: Option<HttpsUrl>,
    pub path: PathTemplate,
    pub access: Access,
    pub scopes: Vec<String>,
    pub params: Vec<Param>,
    pub returns: Option<String>,
    /// Shared by the capabilities that return the same imported component.
    pub output_schema: Option<std::sync::Arc<Value>>,
    pub deprecated: bool,
    pub rate_limit: Option<RateLimit>,
    pub content_type: Option<String>,
    /// The request carries a body even when it gives none of its fields (OpenAPI's
    /// `requestBody.required` with every field optional): an example call sends one with no
    /// field, or the whole-body parameter's value.
    pub body_required: bool,
    /// An agent should ask a human before calling it.
    pub confirm: bool,
    pub tags: Vec<String>,
    pub example: Option<Example>,
    pub errors: Vec<NamedError>,
    pub semantic: Semantic,
}

impl Capability {
    /// The source field path of one of this capability's keys.
    pub fn field(&self, key: &str) -> String {
        format!("capabilities.{}.{key}", self.index)
    }

    /// The text a format with room for long text publishes: `lead` (the short description, or
    /// an intent written from it) and the `details` after a blank line, or the details alone
    /// when they begin with the lead's words (the lead is then their first words).
    pub fn long_text<'a>(&'a self, lead: &'a str) -> std::borrow::Cow<'a, str> {
        let Some(details) = &self.details else {
            return lead.into();
        };
        let bare = lead.trim_end_matches(|c: char| c == '…' || c == '.' || c.is_whitespace());
        let flat = crate::text::one_line(details);
        let begins = flat
            .strip_prefix(bare)
            .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric));
        if begins {
            details.into()
        } else {
            format!("{lead}\n\n{details}").into()
        }
    }

    /// The absolute URL template of this capability, `{param}` spelling.
    pub fn url(&self, base: &HttpsUrl) -> String {
        let base = self.host.as_ref().unwrap_or(base);
        format!("{}{}", base.as_str(), self.path.braces())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub request: Option<Value>,
    pub response: Option<Value>,
    pub status: u16,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NamedError {
    pub name: String,
    pub status: Option<u16>,
    pub description: Option<String>,
}

/// AGIS semantic declaration; everything optional here, derived per target where absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Semantic {
    pub verb: Option<String>,
    pub path: Option<String>,
    pub intent: Option<String>,
    pub actor: Option<String>,
    pub outcome: Option<String>,
    pub capability: Option<String>,
    pub confidence: Option<f64>,
    pub impact: Option<Impact>,
    pub idempotent: Option<bool>,
    pub parameter_hints: IndexMap<String, Vec<String>>,
    pub state_transition: IndexMap<String, String>,
    pub mcp_tool_name: Option<String>,
}

/// AGIS's actors (§6.1) and capability classes (§6.2).
pub const ACTORS: [&str; 3] = ["agent", "user", "system"];
pub const CAPABILITY_CLASSES: [&str; 6] = [
    "discovery",
    "transaction",
    "modification",
    "retrieval",
    "analysis",
    "notification",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Impact {
    Informational,
    Reversible,
    Irreversible,
}

impl Impact {
    pub const NAMES: [&'static str; 3] = ["informational", "reversible", "irreversible"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "informational" => Self::Informational,
            "reversible" => Self::Reversible,
            "irreversible" => Self::Irreversible,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}
