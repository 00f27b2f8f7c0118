//! The typed values a description is made of, each parsed once and kept as its author wrote
//! it: parameters and their types (with aiendpoint's compact notation), path templates,
//! `https://` URLs, e-mail addresses, language tags, dates, HTTP methods, the fixed
//! vocabularies the drafts define, and the named JSON Schemas (`[schemas]`). The readers
//! (`source`) and the lowering (`model`) both parse with these, so this module imports nothing
//! of wellgen's but `text`.

pub mod param;
pub mod path;
pub mod pattern;
pub(crate) mod schema_names;
pub mod schemas;
pub mod url;
mod written;

pub use written::{Email, LanguageTag, MetaDate};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    pub const NAMES: [&'static str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "GET" => Self::Get,
            "POST" => Self::Post,
            "PUT" => Self::Put,
            "PATCH" => Self::Patch,
            "DELETE" => Self::Delete,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Whether the method changes state on the server.
    pub fn writes(self) -> bool {
        !matches!(self, Self::Get)
    }
}

/// aiendpoint's category vocabulary (draft §3.2).
pub const CATEGORIES: [&str; 18] = [
    "productivity",
    "ecommerce",
    "finance",
    "news",
    "weather",
    "maps",
    "search",
    "data",
    "communication",
    "calendar",
    "storage",
    "media",
    "health",
    "education",
    "travel",
    "food",
    "government",
    "developer",
];

/// AGIS §7: error names too generic to name a condition. The AGIS target refuses them; the
/// importer does not derive one from a response.
pub const GENERIC_ERRORS: &[&str] = &[
    "error",
    "errors",
    "failure",
    "fail",
    "failed",
    "err",
    "exception",
    "unknown",
    "unknown_error",
    "generic_error",
    "internal_error",
    "server_error",
    "bad_request",
    "other",
    "problem",
    "invalid",
    "not_found",
    "unexpected_error",
];
