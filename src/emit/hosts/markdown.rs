//! Markdown for agents: a request with `Accept: text/markdown` gets the Markdown twin of the
//! page (`/page.md` or `/page/index.md`, the site's own), and for `/` the `index.md` wellgen
//! writes (llms.txt's text: what the service is, what an agent can do, where the documents
//! are) unless the site has its own. Answered with `Content-Type: text/markdown` and
//! `Vary: Accept`, by the Cloudflare Pages worker, the Apache `.htaccess` and the nginx snippet.

use super::{Artifact, HostFile, Merge};
use crate::emit::Target;

/// The Markdown twin of `/`.
pub const INDEX_PATH: &str = "/index.md";
/// A default: the site's own `index.md` is the twin of its home page and wins.
pub const INDEX: HostFile = HostFile::published(INDEX_PATH, Merge::Default);
/// What a Markdown answer is sent as.
pub const CONTENT_TYPE: &str = "text/markdown; charset=utf-8";
/// The media type a request asks for, and a `Link` names.
pub const MEDIA_TYPE: &str = "text/markdown";

/// wellgen's `index.md`: the text of llms.txt, when the build writes it. A default: the site's
/// own `index.md` is the twin of its home page and wins.
pub fn index(documents: &[Artifact]) -> Option<Artifact> {
    let llms = Target::LlmsTxt.descriptor().documents.first()?.path;
    let text = documents.iter().find(|a| a.path == llms)?;
    Some(Artifact {
        path: INDEX_PATH.into(),
        body: text.body.clone(),
        serving: None,
    })
}
