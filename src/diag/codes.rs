//! The one table of diagnostic codes: each code's text, severity, what it is about, an example
//! and the fix. A diagnostic is built from a code (`Diagnostic::new`), so its severity comes
//! from here, `[check] allow` and `--allow` name codes from here, and docs/diagnostics.md is
//! checked against this table (`tests/it/docs.rs`).
//!
//! Severities: an *error* stops the build (nothing is written); a *warning* says something is
//! wrong or worse than it could be in what is published; a *note* says wellgen filled in a
//! value the author did not write. `fatal` errors stop everything (an unsafe output folder, an
//! unreadable source) and are shown before any other diagnostic.

use super::Severity;

/// What a code says about its diagnostics beyond the severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    pub code: &'static str,
    pub severity: Severity,
    /// Errors that stop everything, shown first.
    pub fatal: bool,
    /// The target or stage it is about (`agis`, `adp`, `import`, ...): notes are counted by it.
    pub area: &'static str,
    pub summary: &'static str,
    pub example: &'static str,
    pub fix: &'static str,
}

macro_rules! severity {
    (fatal) => {
        (Severity::Error, true)
    };
    (error) => {
        (Severity::Error, false)
    };
    (warning) => {
        (Severity::Warning, false)
    };
    (note) => {
        (Severity::Note, false)
    };
}

macro_rules! codes {
    ($( $variant:ident = $code:literal, $kind:ident, $area:literal,
        $summary:literal, $example:literal, $fix:literal; )*) => {
        /// Every diagnostic code wellgen prints.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant),*
        }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            pub fn info(self) -> Info {
                match self {
                    $(Code::$variant => {
                        let (severity, fatal) = severity!($kind);
                        Info {
                            code: $code,
                            severity,
                            fatal,
                            area: $area,
                            summary: $summary,
                            example: $example,
                            fix: $fix,
                        }
                    })*
                }
            }
        }
    };
}

/// Codes renamed when their severity changed: a renamed MCP tool name is a derived value, a
/// note (a large API's paths share their first segment, so most of its derived names are).
const FORMER: [(&str, Code); 2] = [
    ("W-mcp-renamed", Code::McpRenamed),
    // A value shortened or rewritten to fit ai-plugin.json's limits is one wellgen chose, not
    // a fault in the source to act on: a note, as every value wellgen fills in is.
    ("W-plugin-shortened", Code::PluginShortened),
];

impl Code {
    pub fn as_str(self) -> &'static str {
        self.info().code
    }

    pub fn severity(self) -> Severity {
        self.info().severity
    }

    /// The code written as `text`, e.g. `W-adp-example-made-up`, or by a name it had before
    /// (an allow list written then still works).
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == text)
            .or_else(|| {
                FORMER
                    .iter()
                    .find(|(name, _)| *name == text)
                    .map(|(_, c)| *c)
            })
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

codes! {
    // ---- reading: nothing else can be checked ------------------------------------------------
    SourceUnreadable = "E-source-unreadable", fatal, "source",
        "the source file cannot be read (missing, too large, not UTF-8)",
        "cannot read service.toml: no such file or directory",
        "name an existing file, run `wellgen init`, or raise `--max-input-size`";
    OutputUnsafe = "E-output-unsafe", fatal, "output",
        "the output folder is one wellgen refuses to write into",
        "refusing to write into /home/me (your home folder)",
        "choose an output folder with --out, e.g. `--out dist`";
    OutputWrite = "E-output-write", fatal, "output",
        "the output folder cannot be written (permissions, a file in the way, a link leading out)",
        "cannot create dist: permission denied",
        "fix the folder's permissions or choose another with --out";
    TomlSyntax = "E-toml-syntax", error, "service.toml",
        "service.toml is not valid TOML",
        "expected `=`, found newline",
        "fix the TOML syntax at the caret";
    TomlType = "E-toml-type", error, "service.toml",
        "a key holds a value of the wrong type",
        "`rate_limits.requests_per_minute` must be an integer, not a string: `requests_per_minute = 60`",
        "write the value in the type shown, e.g. a number without quotes";
    TableArray = "E-toml-table-array", error, "service.toml",
        "`[capabilities]` (or `[webhooks]`) written where an array of tables is expected",
        "use `[[capabilities]]`: each capability is an array-of-tables entry",
        "write `[[capabilities]]` with double brackets before each capability";
    UnknownKey = "E-unknown-key", error, "service.toml",
        "a key service.toml does not have",
        "unknown key `nmae`",
        "fix the spelling (the help suggests the closest key), or remove it";
    MissingKey = "E-missing-key", error, "service.toml",
        "a required key is missing",
        "missing required key `description`",
        "add the key";
    InvalidValue = "E-invalid-value", error, "service.toml",
        "a value breaks a rule of its key (empty, too long, not one of the allowed values, malformed)",
        "`PATCHY` is not a supported HTTP method",
        "write a value the help names";
    UnknownCode = "E-unknown-code", error, "check",
        "`[check] allow` or `--allow` names a code wellgen does not have",
        "`W-adp-exmple` is not a diagnostic code",
        "use a code from docs/diagnostics.md (the help suggests the closest)";
    OpenapiParse = "E-openapi-parse", error, "import",
        "the OpenAPI document is not valid JSON or YAML, or not OpenAPI",
        "invalid JSON: expected value at line 1 column 1",
        "fix the document at the place named";
    OpenapiRef = "E-openapi-ref", error, "import",
        "a `$ref` cannot be followed (missing, outside the folder, a cycle)",
        "`$ref` `../secret.yaml` leaves the folder of the document",
        "point the `$ref` at a file inside the document's folder, or inline the schema";
    OpenapiInvalid = "E-openapi-invalid", error, "import",
        "the OpenAPI document holds something that cannot be imported",
        "the server URL `ftp://x` is not http(s)",
        "fix the document, or override the value in service.toml";
    AuthNoneWrite = "E-auth-none-write", error, "ai",
        "a write capability with `auth.type = \"none\"` (aiendpoint §6.2 forbids it)",
        "`create_todo` is a POST capability but auth is `none`",
        "declare the authentication the endpoint really needs in [auth] (`bearer`, `api_key`, `oauth2`)";
    Secret = "E-secret", error, "check",
        "a value looks like a secret (a key, a token, a password) and would be published",
        "looks like a GitHub token",
        "remove the secret; if it is a reviewed false positive, pass `--allow-secret-like FIELD@FINGERPRINT`";
    LocalUrl = "E-local-url", error, "check",
        "a URL points at localhost or a private network",
        "`http://localhost:8080` is a local address",
        "use the public URL, or pass `--allow-local` for a staging build";
    Unpublishable = "E-unpublishable", error, "check",
        "text that must not be published (control or hidden characters, instructions to agents)",
        "holds a hidden character U+202E",
        "remove the character or phrase at the caret";

    // ---- targets: a rule of a target's spec that the document would break --------------------
    IajsonNameTwice = "E-iajson-name-twice", error, "ia-json",
        "two capabilities have one id: ia.json endpoint names are unique across public, protected and user_required (§4.3.2)",
        "endpoint name `list_todos` is already used by capabilities[0]; ia.json names must be unique across public, protected and user_required (§4.3.2)",
        "give each capability an id of its own";
    IajsonNameCase = "E-iajson-name-case", error, "ia-json",
        "a capability id is not snake_case, as ia.json endpoint names must be (§4.3.2)",
        "`todos_` is not snake_case: ia.json endpoint names MUST be (§4.3.2)",
        "use words of [a-z0-9] joined by single underscores, e.g. `search_products`";
    IajsonScopeUndeclared = "E-iajson-scope-undeclared", error, "ia-json",
        "a capability needs an OAuth 2 scope that `[auth] scopes` does not declare",
        "scope `todos:write` is not declared in auth.oauth2.scopes",
        "declare the scope in `[auth] scopes`, or drop it from the capability";
    IajsonAuthMissing = "E-iajson-auth-missing", error, "ia-json",
        "a protected or user_required capability, and no [auth]: ia.json needs `auth` for it (§4.4)",
        "`list_todos` is protected but the service declares no authentication: ia.json needs `auth` for it (§4.4)",
        "declare the scheme in [auth], or set `access = \"public\"`";
    IajsonNoEndpoint = "E-iajson-no-endpoint", error, "ia-json",
        "no capability is served under service.base_url, and ia.json needs at least one endpoint (§4.3)",
        "ia.json needs at least one endpoint under service.base_url (§4.3), and none is",
        "set base_url to the origin (or prefix) the capabilities are served under";
    IajsonGrantTypes = "E-iajson-grant-types", error, "ia-json",
        "OAuth 2 auth with an empty `grant_types`: ia.json needs at least one",
        "must list at least one grant type",
        "list the grants the authorization server offers, e.g. `grant_types = [\"authorization_code\"]`";
    IajsonHttps = "E-iajson-https", error, "ia-json",
        "`security.https_required = false`: ia.json requires HTTPS for the file and every endpoint (§8.1)",
        "ia.json requires HTTPS for the file and every endpoint (§8.1 MUST)",
        "remove the key or set it to true";
    IajsonEmail = "E-iajson-email", error, "ia-json",
        "the contact email is not a plain address, which ia.json's `format: email` needs",
        "`\"help\"@todos.example` is not a plain email address (ia.json checks `format: email`)",
        "write just `name@example.com`: no display name, no quoted parts";
    IajsonUri = "E-iajson-uri", error, "ia-json",
        "a URL holds a character a URI may not (RFC 3986), which ia.json's `format: uri` refuses",
        "`{` may not appear in a URI (ia.json checks `format: uri`)",
        "percent-encode the character";
    McpToolName = "E-mcp-tool-name", error, "mcp",
        "`semantic.mcp_tool_name` is not an MCP tool name",
        "`List Todos` is not an MCP tool name",
        "write 1–128 characters: lowercase letters, digits, `_`, `-` or `.`";
    McpToolNameTwice = "E-mcp-tool-name-twice", error, "mcp",
        "two capabilities declare one `semantic.mcp_tool_name`; tool names are unique (AGIS §6.2)",
        "MCP tool name `todos` is used twice",
        "give each capability a tool name of its own";
    OpenapiPathClash = "E-openapi-path-clash", error, "openapi",
        "two capabilities' paths differ only in parameter names, which one OpenAPI document cannot hold",
        "`/todos/{todo_id}` differs from `/todos/{id}` only in parameter names; OpenAPI cannot hold both",
        "name the parameter the same way in every capability on this path";
    PluginNameForModel = "E-plugin-name-for-model", error, "ai-plugin",
        "ai-plugin.json's name_for_model cannot be derived from service.name: its letters and digits are none, or over 50",
        "ai-plugin.json's name_for_model cannot be derived from the name: without its other characters it is empty",
        "set `[plugin] name_for_model` (letters and digits only, at most 50)";
    PluginDescriptionForModel = "E-plugin-description-for-model", error, "ai-plugin",
        "ai-plugin.json's description_for_model, derived from the capabilities, would be over its 8,000 characters",
        "ai-plugin.json's description_for_model derived from the capabilities would be 9120 characters (at most 8000)",
        "write `[plugin] description_for_model` (RFC-002 asks for 500-1000 characters)";
    AgisPass = "E-agis-pass", error, "agis",
        "an endpoint or the data manifest breaks a rule of AGIS's validation passes (§9.1); the message names the pass and the rule",
        "AGIS Pass 8 (Schema Completeness), endpoint `FIND /todos`: `error` is a generic error name; name the condition (§7)",
        "declare the value AGIS asks for under the capability's `[semantic]`, or fix the value at the caret";
    AdpRule = "E-adp-rule", error, "adp",
        "the ADP document or a detail document would break a rule of the ADP registry's validator; the message names the field",
        "the ADP document would break ADP's rules: capabilities[0].name: `2fa` is not snake_case (^[a-z][a-z0-9_]*$)",
        "change the value at the caret so the published document is valid";
    A2aBlank = "E-a2a-blank", error, "a2a",
        "service.name, description or version is blank, and the A2A agent card requires each (a2a.proto AgentCard)",
        "is blank; the A2A agent card requires it (a2a.proto AgentCard)",
        "write the value";
    PrmAuthorizationServer = "E-prm-authorization-server", error, "oauth-protected-resource",
        "an OAuth scheme names no authorization server, and oauth-protected-resource must list the one that issues the API's tokens",
        "oauth-protected-resource needs the authorization server that issues the API's tokens, and this scheme names none",
        "set the scheme's `authorization_servers`, `authorization_url` or `token_url`";
    // ---- hosts: what the chosen host cannot serve ---------------------------------------------
    HostRule = "E-host-rule", error, "hosts",
        "the chosen host cannot serve what is built",
        "Cloudflare Pages allows at most 100 header rules",
        "change the host or the value the help names";
    RobotsContradiction = "E-robots-contradiction", error, "hosts",
        "the site's own robots.txt keeps crawlers or a named AI agent from wellgen's documents",
        "robots.txt:2: `Disallow: /.well-known/` keeps `*` from /.well-known/api-catalog",
        "make the edit the help names, or set the agent to `none` in `[robots] agents`";

    // ---- warnings: something is wrong or lost in what is published ---------------------------
    ParamUndescribed = "W-param-undeclared", warning, "service.toml",
        "a `{placeholder}` of the path has no parameter: it is published as a required string",
        "path parameter `id` is not described; assuming a required string",
        "add `id = \"string, required -- …\"` under the capability's params";
    ParamNotInPath = "W-param-not-in-path", warning, "service.toml",
        "a parameter is named like a path placeholder that the path no longer has",
        "`todo_id` is declared `in = \"path\"` but the path `/todos/{id}` has no `{todo_id}`",
        "put `{todo_id}` back into the path, or rename the parameter to the placeholder";
    RequiredDefault = "W-required-default", warning, "service.toml",
        "a required parameter has a default that never applies",
        "a required parameter with a default: the default never applies",
        "drop `required` or drop the default";
    LongText = "W-long-text", warning, "check",
        "text an agent reads is longer than agents should pay tokens for",
        "`capabilities.0.details` is 2400 characters long; text an agent reads stays under 2000 here",
        "shorten the text";
    InstructionLike = "W-instruction-like", warning, "check",
        "text reads like an instruction to the agent",
        "reads like an instruction to the agent (`ignore previous`)",
        "describe the service; do not address the agent";
    AiDescriptionLong = "W-ai-description-long", warning, "ai",
        "service.description is over aiendpoint's 200 characters (§3.2)",
        "`service.description` is 240 characters; aiendpoint asks for under 200",
        "shorten `service.description` to under 200 characters";
    AiTooLarge = "W-ai-too-large", warning, "ai",
        "/.well-known/ai (or a sub-service) is over aiendpoint's 64 KB or 100 capabilities guidance",
        "/.well-known/ai is 80 KB; aiendpoint says it SHOULD NOT exceed 64 KB",
        "split the service (`[source] split = \"tag\"`) or trim descriptions";
    AiSplitUntagged = "W-ai-split-untagged", warning, "ai",
        "`split = \"tag\"` finds capabilities without tags",
        "`split = \"tag\"` gives 1 sub-service",
        "give each capability `tags`";
    AuthSchemeLost = "W-auth-scheme-lost", warning, "targets",
        "a target has no equivalent of the declared auth scheme and publishes a nearer one, and no OpenAPI document built beside it states the scheme",
        "/.well-known/ai has no signed-key scheme: published as `apikey`",
        "set `auth.docs_url` so agents can find how to authenticate";
    AuthOtherUndocumented = "W-auth-other-undocumented", warning, "service.toml",
        "`auth.type = \"other\"` without `docs_url`: the scheme is said only in words, and agents need its documentation to authenticate",
        "a scheme said only in words: agents need its documentation",
        "add `docs_url = \"https://…\"` to [auth], the page that says how to authenticate";
    AuthUnverified = "W-auth-unverified", warning, "ia-json",
        "signed_key auth whose signatures are not verified",
        "auth is `signed_key` but signatures are not verified",
        "set `security.verify_signature = true`, or use another scheme";
    IajsonTooLarge = "W-iajson-too-large", warning, "ia-json",
        "ia.json is over 1 MB (§3.6), or was shortened to stay under it",
        "ia.json is 1200 KB",
        "trim response schemas or descriptions";
    IajsonFlag = "W-iajson-flag", warning, "ia-json",
        "a feature flag that nothing in the file supports",
        "`webhooks` is declared but no `[[webhooks]]` event is",
        "describe what the flag says, or drop it";
    IajsonScopes = "W-iajson-scopes", warning, "ia-json",
        "scopes on an endpoint that is not user_required, to which ia.json gives none (§4.3.3)",
        "`x` lists scopes but is public",
        "make the capability `user_required` with oauth2, or drop its scopes";
    IajsonUserNotOauth2 = "W-iajson-user-not-oauth2", warning, "ia-json",
        "a user_required endpoint with an auth that is not OAuth 2, through which ia.json agents act for a user",
        "`x` is user_required but auth is not oauth2",
        "use `type = \"oauth2\"` in [auth], or `access = \"protected\"`";
    IajsonOutside = "W-iajson-outside", warning, "ia-json",
        "a capability served outside `base_url` is left out of ia.json, whose paths are relative to it",
        "`export` is served outside `https://api.example`: it is left out of ia.json",
        "serve the capability under `base_url`, or accept that ia.json leaves it out";
    IajsonBodyMethod = "W-iajson-body-method", warning, "ia-json",
        "a body field of a request other than POST, PUT or PATCH, for which ia.json describes no `body` (§4.3.5)",
        "`q` is a body field of a GET request",
        "send it in the query (`in = \"query\"`) if the API accepts that";
    McpRenamed = "N-mcp-renamed", note, "mcp",
        "the capability's id, its MCP tool name, is another capability's `mcp_tool_name`; a number follows it",
        "MCP tool name `get_a` is already taken; `get_a` is published as `get_a_2`",
        "set `semantic.mcp_tool_name` to choose another name";
    OpenapiLost = "W-openapi-lost", warning, "openapi",
        "a header parameter OpenAPI ignores (Accept, Content-Type, Authorization) is left out of the OpenAPI document",
        "OpenAPI ignores a header parameter named `Accept`; it is left out of the OpenAPI document",
        "describe Authorization through [auth], and content types through `content_type`";
    OpenapiOperationTwice = "W-openapi-operation-twice", warning, "openapi",
        "two capabilities share a method and path, and OpenAPI has one operation for each: the second is listed at its path with `#` and its id, which no request carries",
        "`GET /todos` is also capability `list_todos`: OpenAPI has one operation per method and path, so this one is listed at `/todos#list_all`",
        "give the capabilities different paths, or leave one out";
    OpenapiSummaryCut = "W-openapi-summary-cut", warning, "openapi",
        "a capability's description is over 200 characters, where OpenAI's plugin tooling cuts operation summaries (said only where the build publishes `/.well-known/ai-plugin.json`, which links the document)",
        "is over 200 characters: OpenAI's plugin tooling cuts operation summaries there",
        "shorten the description to 200 characters; put the rest in `details`";
    OpenapiParamDescriptionCut = "W-openapi-param-description-cut", warning, "openapi",
        "a parameter's description is over 200 characters, where OpenAI's plugin tooling cuts parameter descriptions (said only where the build publishes `/.well-known/ai-plugin.json`, which links the document)",
        "the description is over 200 characters: OpenAI's plugin tooling cuts parameter descriptions there",
        "shorten the parameter's description to 200 characters";
    OpenapiGetBody = "W-openapi-get-body", warning, "openapi",
        "a GET capability with body parameters: OpenAPI 3.1 allows a GET request body, but many clients and proxies drop it",
        "a GET capability with body parameters: OpenAPI 3.1 allows it, but many clients and proxies drop GET bodies",
        "send them as query parameters (`in = \"query\"`), or use POST";
    AgisProcessVerb = "W-agis-rule", warning, "agis",
        "an endpoint's verb is PROCESS, which AGIS calls borderline (it may read as a state) and for which it recommends a more specific verb (§4.2)",
        "PROCESS is borderline in AGIS: it may read as a state; a more specific verb is RECOMMENDED (§4.2)",
        "set `semantic.verb` to a verb that says what the endpoint does (e.g. TRANSFORM, EVALUATE, GENERATE)";
    AgisConfidence = "W-agis-confidence", warning, "agis",
        "an irreversible endpoint's confidence is under the 0.85 AGIS asks for (§6.2)",
        "irreversible endpoint `DELETE /x` has confidence 0.6; AGIS asks for 0.85 or more (§6.2)",
        "set `semantic.confidence` to 0.85 or more, or declare the impact the endpoint really has";
    AgisParameterHint = "W-agis-parameter-hint", warning, "agis",
        "`semantic.parameter_hints` names a parameter the capability does not have",
        "parameter_hints names `qurey`, which is not a parameter",
        "name one of the capability's parameters, or drop the hint";
    AgisPreAuthDiscovery = "W-agis-pre-auth-discovery", warning, "agis",
        "the data manifest says `pre_auth_discovery = false`, but the AGIS documents are public files anyone can read before authenticating",
        "`pre_auth_discovery = false`, but the AGIS documents are published as public files",
        "set `pre_auth_discovery = true`: wellgen publishes the AGIS documents for anyone to read";
    AgisSensitivity = "W-agis-sensitivity", warning, "agis",
        "a data class's sensitivity is neither an impact tier (informational, reversible, irreversible) nor low, medium or high (AGIS §8.3)",
        "sensitivity `secret` is neither an impact tier nor low/medium/high (AGIS §8.3)",
        "write one of informational, reversible, irreversible, low, medium, high";
    AgisRequiresAuthorization = "W-agis-requires-authorization", warning, "agis",
        "a high-sensitivity data class does not declare `requires_authorization = true`, which AGIS asks of it (§8.3)",
        "high-sensitivity data classes SHOULD declare `requires_authorization = true` (AGIS §8.3)",
        "set `requires_authorization = true` on the data class";
    A2aTagsDerived = "N-a2a-tags-derived", note, "a2a",
        "A2A skill tags derived from the method and path",
        "A2A skills need tags; derived from the method and path for: search",
        "give each capability `tags`";
    PluginNotWritten = "W-plugin-not-written", warning, "ai-plugin",
        "ai-plugin.json cannot be written from what the file says",
        "/.well-known/ai-plugin.json is not written: `service.logo_url` not set",
        "set the keys the message names (`service.logo_url`, `service.contact.email`)";
    EpochInvalid = "W-epoch-invalid", warning, "rfc002",
        "SOURCE_DATE_EPOCH is set but unusable",
        "SOURCE_DATE_EPOCH=`x` is not a count of seconds; ignoring it",
        "set SOURCE_DATE_EPOCH to a count of seconds, or unset it";
    AdpTextChanged = "W-adp-text-changed", warning, "adp",
        "a description under the ADP registry's minimum length is published lengthened, from the service's name or the capability's method and path",
        "`capabilities.0.description` is 4 characters; the ADP registry needs at least 10, so `List (GET /todos)` is published",
        "write a description that says what it does and when to use it, at least as long as ADP asks";
    AdpTextShortened = "W-adp-text-shortened", warning, "adp",
        "service.description is over the ADP registry's 200 characters: /.well-known/agent publishes it shortened at a word boundary",
        "`service.description` is 240 characters; ADP needs 20–200 (…); /.well-known/agent publishes it shortened at a word boundary",
        "write a description of at most 200 characters to choose the words yourself";
    AdpHtmlStripped = "W-adp-html-stripped", warning, "adp",
        "a name or description holds HTML tags or `<…>` placeholders, which the ADP registry strips (a name that is nothing else is replaced by the API's host)",
        "holds `<id>`, which the ADP registry strips as it strips every `<…>`",
        "write plain text; write a placeholder without angle brackets, e.g. `{id}` for `<id>`";
    AdpDetailHost = "W-adp-detail-host", warning, "adp",
        "ADP detail documents published on a host the ADP registry refuses",
        "the ADP detail documents are published on `www.a.example`, which is neither base_url's host nor a subdomain",
        "serve the site from base_url's host or a subdomain of it";
    AdpValueDropped = "W-adp-value-dropped", warning, "adp",
        "a value that does not fit its ADP type is left out or replaced",
        "the default \"x\" is not a `number`",
        "give the parameter a default and examples of its type";
    AdpTypeLost = "W-adp-type-lost", warning, "adp",
        "a parameter type ADP cannot express (an array of arrays) is published approximately",
        "ADP's parameter types have no array of arrays: published as `string[]`",
        "make the items objects with named fields to publish an exact type";
    AdpHourlyLimit = "W-adp-hourly-limit", warning, "adp",
        "ADP has no hourly rate limit: an hourly limit is published per minute, rounded down, or left out",
        "ADP has no hourly rate limit: published as requests_per_minute = 1 (rounded down)",
        "give the limit per minute or per day if the API has one";
    HostHeaders = "W-host-headers", warning, "hosts",
        "the host cannot serve a document with its media type: GitHub Pages sets no headers and guesses from the extension",
        "GitHub Pages will serve /.well-known/ai as application/octet-stream, not application/json: it cannot set headers",
        "choose a host that honours `_headers` (`[deploy] host`)";
    HostLinkHeader = "W-host-link-header", warning, "hosts",
        "the host sets no `Link` header on the home page, where agents look for the API catalog, the API description and llms.txt",
        "GitHub Pages sets no `Link` header on the home page (/), where agents look for the API catalog, the API description and llms.txt",
        "add the `<link>` elements the help gives to the `<head>` of the site's home page, or choose a host that honours `_headers`";
    HostWorkerKept = "W-host-worker-kept", warning, "hosts",
        "the site has its own Cloudflare `_worker.js`, which wellgen keeps, so the query route is not routed and the documents link to the file it serves",
        "the output folder has the site's own _worker.js: wellgen keeps it and writes none, so /api/discovery?format=openapi is not routed",
        "nothing to fix; to record the choice and silence this, add \"/_worker.js\" to `[build] skip`";
    HostRoutesLimit = "W-host-routes-limit", warning, "hosts",
        "the documents need more `_routes.json` rules than wellgen allows itself of Cloudflare's 100, leaving the rest to the site's own",
        "120 documents need 60 `_routes.json` rules, over the 50 wellgen allows itself of Cloudflare's 100",
        "publish fewer targets (`[build] exclude`), or route them in your worker";
    HostMissingTarget = "W-host-missing-target", warning, "hosts",
        "a document links to another that is not built",
        "/api/discovery and agents.json link to the OpenAPI document, but the `openapi` target is not built",
        "build the `openapi` target too";
    ImportLost = "W-import-lost", warning, "import",
        "something in the OpenAPI document cannot be carried into service.toml",
        "cookie parameters are left out (3 places: …)",
        "describe it in service.toml, or accept that it is left out";
    ImportOperationSkipped = "W-import-operation-skipped", warning, "import",
        "an operation is not imported: the agent documents do not describe its method (HEAD, OPTIONS, TRACE, QUERY), or its path cannot be written as a URL path",
        "HEAD, OPTIONS, TRACE and QUERY operations are skipped (2 places: …)",
        "describe it by hand in service.toml, or accept that it is left out";
    ImportRefMissing = "W-import-ref-missing", warning, "import",
        "a `$ref` names a file that does not exist: what it refers to is read as a schema that allows any value",
        "`schemas/pet.yaml#/Pet` names the file schemas/pet.yaml, which does not exist",
        "add the file beside the document, or fix the reference";
    ImportAuthLost = "W-import-auth-lost", warning, "import",
        "a security requirement or scheme of the OpenAPI document cannot be held as it is: described in words, one flow left out, or schemes required together published as alternatives",
        "security scheme `oauth`: its implicit flow lacks an https authorizationUrl or tokenUrl; that flow is left out",
        "set [auth] in service.toml to describe it exactly";
    ImportTextWithheld = "W-import-text-withheld", warning, "import",
        "an operation description is not carried into `details`: it quotes a credential-like value, holds an invisible character, or reads like an instruction to the agent",
        "operation descriptions that read like an instruction to the agent are not carried into `details` (2 places: …)",
        "rewrite the description in the OpenAPI document, or set `details` in service.toml";
    ImportRandomLeftOut = "W-import-random-left-out", warning, "import",
        "values that look like random tokens (no known key format) are left out of examples, defaults, enums and descriptions; known key formats stay errors",
        "example, default and enum values, and words of descriptions, that look like random tokens (no known key format) are left out",
        "nothing to do if they are not secrets; if they are, take them out of the document and rotate them";
    ImportTextShortened = "W-import-text-shortened", warning, "import",
        "a title or description is longer than the service.toml key that holds it, and is shortened",
        "the title is shortened to 100 characters for `service.name`",
        "set a shorter one in service.toml";
    ImportFiltered = "W-import-filtered", warning, "import",
        "`[source] include/exclude` leave operations out, or apply to nothing",
        "12 of 40 operations left out by [source] include/exclude",
        "nothing to do if intended";

    OutputKept = "W-output-kept", warning, "output",
        "a file in the output folder that wellgen would replace is kept",
        "kept dist/_headers: it was changed by hand",
        "remove or merge the file by hand";
    SkillSiteInvalid = "W-skill-site-invalid", warning, "agent-skills",
        "a skill of the site's own breaks the Agent Skills front matter rules: kept in the folder, and left out of the skills index",
        "/.well-known/agent-skills/deploy/SKILL.md has no `description` in its front matter: the skills index leaves it out",
        "give the folder a name a skill may have (lower-case letters, digits and `-`) and the front matter a `description` of 1-1024 characters";
    SkillSiteName = "W-skill-site-name", warning, "agent-skills",
        "a skill of the site's own whose front matter `name` is not its folder's: the skills index lists it by its folder's name",
        "/.well-known/agent-skills/deploy/SKILL.md: its front matter's `name` is `Deploy`, not its folder's `deploy`",
        "set `name` to the folder's name, as the Agent Skills format asks";
    SkillIndexKept = "W-skill-index-kept", warning, "agent-skills",
        "the site has its own /.well-known/agent-skills/index.json: wellgen keeps it and writes none, so its skill is not listed",
        "the site's own /.well-known/agent-skills/index.json is kept: it does not list /.well-known/agent-skills/bookshelf/SKILL.md",
        "list wellgen's skill in the site's index, or delete that index to have wellgen write one listing every skill";

    // ---- notes: values wellgen filled in -------------------------------------------------------
    PluginShortened = "N-plugin-shortened", note, "ai-plugin",
        "a value too long or not allowed in ai-plugin.json is published changed",
        "`service.name` is 120 characters, too long for ai-plugin.json's name_for_human (at most 20)",
        "set `[plugin]` values that fit";
    DetailsShortened = "N-details-shortened", note, "service.toml",
        "a capability's `details` is published shortened to 2000 characters",
        "`capabilities.0.details` is longer than 2000 characters: published cut after the last sentence (else word) within them",
        "shorten it; put long documentation behind a link";
    ImportDerived = "N-import-derived", note, "import",
        "the OpenAPI document lacks a value service.toml needs, and the import derives it: the service's name from its server's host, its description from its name, https for a Swagger 2.0 document without `schemes`",
        "no `info.title`: the service is named `api.example.com` after its server",
        "nothing to do; set the value in service.toml to choose another";
    ImportAdjusted = "N-import-adjusted", note, "import",
        "the import rewrote something of the OpenAPI document into a form the model holds, losing nothing an agent needs",
        "query strings written into paths (`/rest?method=x`) become required constant query parameters (2 places: …)",
        "nothing to do; set it in service.toml to choose another form";
    SizedToSource = "N-sized-to-source", note, "targets",
        "a document built from a large OpenAPI file leaves out what its format lets it leave out, to stay no larger than the file",
        "ia.json would be larger than its 180 KB OpenAPI source: the `response` of 40 endpoints keeps only its compact description",
        "nothing to do: the OpenAPI description keeps everything; import fewer operations (`[source] include`/`exclude`) to keep it here too";
    SkillNameTaken = "N-skill-name-taken", note, "agent-skills",
        "the site has its own skill of the name wellgen's would have: the site's is kept and listed, wellgen's is not written",
        "the site's own skill `bookshelf` is kept and listed; wellgen writes no skill of that name",
        "nothing to do; rename the site's skill (its folder and `name`) to publish both";
    SkillShortened = "N-skill-shortened", note, "agent-skills",
        "SKILL.md lists the capabilities more briefly, to stay within the Agent Skills size guidance (500 lines, about 5,000 tokens)",
        "SKILL.md lists 900 capabilities by tag only: with their parameters it would be over 500 lines or 15 KB",
        "nothing to do: the SKILL.md links /.well-known/ai and the OpenAPI document, which describe every capability";
    AuthUndeclared = "N-auth-undeclared", note, "ai",
        "no [auth] table: agents assume authentication may be required; ADP says `none`",
        "no [auth] table: agents will assume authentication may be required (§3.4)",
        "add `[auth]` with the API's scheme (`type = \"none\"` only if no capability writes)";
    AiAuthPointer = "N-ai-auth-pointer", note, "ai",
        "/.well-known/ai cannot name the auth scheme: `auth` is `apikey` with no header, its `docs` the scheme in the OpenAPI document or the docs URL",
        "/.well-known/ai cannot say an API key in the `api_key` query parameter: `auth.docs` points at /openapi.json#/components/securitySchemes/apiKeyQuery",
        "nothing to do: agents that find `apikey` without `header` follow `docs`";
    AuthApproximated = "N-auth-approximated", note, "targets",
        "a target has no word for the auth scheme and publishes the nearest it has, while the OpenAPI document built beside it states the scheme exactly",
        "ia.json cannot say OAuth 2 with the implicit grant: published as an api_key in the `Authorization` header with its request_url",
        "nothing to do: agents that need the exact scheme read the OpenAPI document (`/.well-known/ai` points at it)";
    AuthWithLost = "N-auth-with-lost", note, "targets",
        "a target has room for one scheme: the schemes requests carry together with `[auth]` ([[auth.with]]) are left out of it, as the OpenAPI document, the MCP tools list and /.well-known/ai state them",
        "agents.json cannot say that requests also carry an API key in the `X-Client-Id` header",
        "nothing to do: agents that need every credential read the OpenAPI document or the MCP tools list";
    AgisDerived = "N-agis-derived", note, "agis",
        "an AGIS value derived from the capability or service (method, namespace, domain, AGTP address, ...)",
        "AGIS endpoint `SEARCH /products` for `search_products`: derived method SEARCH …",
        "set the value under `[agis]` or the capability's `[semantic]`";
    AdpExampleMadeUp = "N-adp-example-made-up", note, "adp",
        "an ADP example or parameter description made up from types and names",
        "ADP needs complete examples: example values for `q` were made up from their types",
        "give each parameter `example`, and the capability `returns` or `output_schema`";
    AdpAuthDefault = "N-adp-auth-default", note, "adp",
        "ADP's required `auth` written as `none` because there is no [auth]",
        "no [auth] table: ADP requires `auth`, so /.well-known/agent says `{\"type\": \"none\"}`",
        "add `[auth]` with the API's real scheme";
    Rfc002Defaulted = "N-rfc002-defaulted", note, "rfc002",
        "an RFC-002 value wellgen filled in or left out (instructions, generatedAt; issuer)",
        "no [rfc002.issuer]: agents.json leaves out `issuer` (RFC-002 §3.1 does not ask for one) and `$schema`",
        "set the `[rfc002]` or `[meta]` key the message names";
    PluginDefaulted = "N-plugin-defaulted", note, "ai-plugin",
        "an ai-plugin.json value wellgen filled in: description_for_model derived from the capabilities, legal_info_url pointed at the site's home page",
        "no `plugin.description_for_model`: ai-plugin.json gets 640 characters derived from the capabilities",
        "set `[plugin] description_for_model`, or `terms_url` under [service]";
    LinkSubstituted = "N-link-substituted", note, "hosts",
        "a link rewritten because the host cannot answer a query-string URL",
        "a generic static host cannot answer /api/discovery?format=openapi",
        "deploy to a host with redirects (`[deploy] host`) if the exact URL matters";
    OutputSiteFile = "N-output-site-file", note, "output",
        "a host file wellgen writes by default (404.html, .nojekyll, index.md) is the site's own, which is kept",
        "`/404.html` is the site's own, which is kept; wellgen's default is not written",
        "nothing to do; to record the choice, add the path to `[build] skip` in service.toml";
    OutputRecovered = "N-output-recovered", note, "output",
        "a build interrupted earlier was completed or undone",
        "finished the renames of a build interrupted earlier in dist",
        "nothing to do";
    HeaderRuleSkipped = "N-host-rule-skipped", note, "hosts",
        "a header rule the generic host may not apply",
        "… (this matters if the folder is deployed there)",
        "set `[deploy] host` to where the folder is deployed";
    PrmDerived = "N-prm-derived", note, "oauth-protected-resource",
        "an OAuth protected resource metadata value derived: the authorization server from the authorization or token URL, or the issuer from the OpenID discovery URL",
        "`authorization_servers` is https://auth.example.com, the origin of `auth.authorization_url`",
        "set `[auth] authorization_servers` to the issuer the authorization server publishes";
    PrmLocation = "N-prm-location", note, "oauth-protected-resource",
        "the resource is not the site's origin: RFC 9728 §3.1 clients that start from it look for its metadata at another URL",
        "clients that start from https://api.example.com/v1 look at https://api.example.com/.well-known/oauth-protected-resource/v1",
        "serve the same document there too, or name it in the API's `WWW-Authenticate: Bearer resource_metadata=…` (RFC 9728 §5.1)";
    McpCardDerived = "N-mcp-card-derived", note, "mcp-server-card",
        "an MCP Server Card value derived: the server name from the site's host, the description shortened to the card's 100 characters",
        "the server card names the server `example.api/weather`, from the site's host and the service name",
        "set `[mcp] name`; write a `[service] description` whose first sentence fits in 100 characters";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_former_name_still_parses_and_no_code_takes_it() {
        for (name, code) in FORMER {
            assert_eq!(Code::parse(name), Some(code));
            assert!(Code::ALL.iter().all(|c| c.as_str() != name));
        }
        assert_eq!(Code::parse("N-mcp-renamed"), Some(Code::McpRenamed));
        assert_eq!(Code::McpRenamed.severity(), Severity::Note);
        assert_eq!(
            Code::parse("W-plugin-shortened"),
            Some(Code::PluginShortened)
        );
        assert_eq!(Code::PluginShortened.severity(), Severity::Note);
    }

    #[test]
    fn codes_are_unique_and_prefixed_by_severity() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            let info = c.info();
            assert!(seen.insert(info.code), "{} twice", info.code);
            let prefix = match info.severity {
                Severity::Error => "E-",
                Severity::Warning => "W-",
                Severity::Note => "N-",
            };
            assert!(info.code.starts_with(prefix), "{}", info.code);
            assert_eq!(Code::parse(info.code), Some(*c));
        }
    }
}
