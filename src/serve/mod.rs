//! `wellgen serve`: a local preview of an output folder over HTTP that answers the way its host
//! does (Cloudflare Pages header for header, Netlify where its docs say), `_headers` and
//! `_redirects` applied, so what agents will get can be checked before deploying.

pub mod cloudflare;
pub mod http;
pub(crate) mod redirects_file;
pub mod site;

pub use site::{Reply, Site};
