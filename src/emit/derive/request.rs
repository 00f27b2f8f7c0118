//! How a capability's request is sent and limited, as agents.json and the OpenAPI document
//! both state it.

use crate::model::{Capability, Service};

/// The media type of the request body: the declared one, else JSON.
pub fn body_content_type(c: &Capability) -> &str {
    c.content_type.as_deref().unwrap_or("application/json")
}

/// A capability is rate limited when a limit is declared for it or for the whole service, or
/// when it names a 429 (Too Many Requests) error.
pub fn rate_limited(service: &Service, c: &Capability) -> bool {
    c.rate_limit.is_some()
        || c.errors.iter().any(|e| e.status == Some(429))
        || service
            .rate_limits
            .is_some_and(|r| r.requests_per_minute.is_some())
}
