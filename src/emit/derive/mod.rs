//! What several targets derive from the model alike, in one layer between the model and the
//! targets, so that no target imports another: AGIS endpoints and their MCP tool names
//! (`agis`), how a request is sent and whether it is rate limited (`request`), and where the
//! documents that targets link across each other live and how they are served (`published`).
//! A target finds another's primary document with `Target::path` and a family member with
//! `Target::member_path`; this layer never imports a target.

pub mod agis;
pub mod published;
pub mod request;
