//! Where documents that more than one target writes or links to live, and the serving policy
//! the documents of one spec share across targets.

use crate::emit::{JSON, Serving};

/// RFC-002 §4's "recommended cache headers", for all four of its documents: agents.json and
/// `/api/discovery` (the `rfc002` target), the OpenAPI variant (`openapi`) and ai-plugin.json
/// (`ai-plugin`).
pub const RFC002_CACHE_CONTROL: &str =
    "public, max-age=300, s-maxage=600, stale-while-revalidate=86400";
/// The RFC names no media type or CORS policy: the documents are public JSON (§8), so JSON
/// with `Access-Control-Allow-Origin: *` for browser-based agents.
pub const RFC002_SERVING: Serving = Serving {
    content_type: JSON,
    cache_control: RFC002_CACHE_CONTROL,
    cors: true,
};

/// The OpenAPI target's second URL for its document, which RFC-002's query route
/// (`/api/discovery?format=openapi`, `rfc002::QUERY`) serves.
pub const OPENAPI_DISCOVERY_PATH: &str = "/api/discovery.openapi.json";

/// Where the MCP target publishes the tools/list result, which the AGIS summary points at.
pub const MCP_TOOLS_PATH: &str = "/.well-known/mcp/tools.json";
