//! `wellgen serve`: a local preview of an output folder over HTTP that applies its `_headers`
//! and `_redirects` the way Netlify and Cloudflare Pages do, so what agents will get can be
//! checked before deploying.

pub mod headers_file;
pub mod http;
pub mod pattern;
pub mod redirects_file;
pub mod site;

pub use site::{Reply, Site};
