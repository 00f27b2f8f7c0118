//! GitHub Pages: no custom headers, so `.nojekyll`, `.json` twins where a URL is ours to
//! choose, and a warning for each document whose media type it will get wrong.

use super::{Answers, Artifact, Context, HostDescriptor, HostFile, Lowered, Merge, links};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::targets::adp;

pub const NOJEKYLL_PATH: &str = "/.nojekyll";
/// A default: the site's own `.nojekyll` stops Jekyll as well.
pub const NOJEKYLL: HostFile = HostFile::config(NOJEKYLL_PATH, Merge::Default);

pub const DESCRIPTOR: HostDescriptor = HostDescriptor {
    called: "GitHub Pages",
    help: "GitHub Pages: no custom headers; `.nojekyll` and `.json` twins",
    // A Pages build is a GitHub Actions run like any other.
    env: None,
    files: &[NOJEKYLL],
    route: None,
    headers: None,
    marks: &[NOJEKYLL_PATH],
    answers: Answers::PLAIN,
    lower: lower_host,
    render: render_host,
};

/// The home page's links it cannot send, and the `.json` twins.
fn lower_host(context: &Context, lowered: &mut Lowered, diags: &mut Diagnostics) {
    if !context.home_links.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::HostLinkHeader,
                format!(
                    "GitHub Pages sets no `Link` header on the home page ({}), where agents look \
                     for the API catalog, the API description and llms.txt",
                    links::HOME
                ),
            )
            .at("deploy.host")
            .help(format!(
                "add these lines to the <head> of the site's home page: {}",
                links::html(context.home_links)
                    .trim_end()
                    .replace('\n', " ")
            )),
        );
    }
    let mut twins = lower(context.documents, diags);
    twins.retain(|t| !context.choice.skips(&format!("{t}.json")));
    lowered.twins = twins;
}

fn render_host(documents: &[Artifact], lowered: &Lowered) -> Vec<Artifact> {
    render(documents, &lowered.twins)
}

/// GitHub Pages sets no custom headers and guesses the media type from the extension: every
/// extensionless document is sent as application/octet-stream. `.nojekyll` keeps Jekyll from
/// dropping `/.well-known/` (it skips dot folders). A `.json` twin is added where a document's
/// URL is the publisher's choice (ADP detail files, reached through the index's `detail_url`);
/// the fixed well-known paths cannot move, so each gets a warning instead.
pub fn lower(documents: &[Artifact], diags: &mut Diagnostics) -> Vec<String> {
    let mut twins = Vec::new();
    let has = |path: &str| documents.iter().any(|a| a.path == path);
    for a in documents
        .iter()
        .filter(|a| a.needs_content_type() && !markdown_known(a))
    {
        let Some(serving) = &a.serving else {
            continue;
        };
        let twin = format!("{}.json", a.path);
        let json = serving.content_type.starts_with("application/json");
        let movable = a.path.starts_with(adp::DETAIL_PREFIX);
        // It knows `.json`; an extensionless file it sends as bytes.
        let sent = if a.path.ends_with(".json") {
            "application/json"
        } else {
            "application/octet-stream"
        };
        let mut d = Diagnostic::new(
            Code::HostHeaders,
            format!(
                "GitHub Pages will serve {} as {sent}, not {}: it cannot set headers",
                a.path, serving.content_type
            ),
        )
        .at("deploy.host");
        if json && movable && !has(&twin) {
            d = d.help(format!(
                "{twin} holds the same bytes and is served as application/json; agents reach {} \
                 at its fixed URL, so host on Netlify, Cloudflare Pages or Vercel if they must \
                 see the right type",
                a.path
            ));
            twins.push(a.path.clone());
        } else {
            d = d.help(
                "the spec fixes this URL, so it cannot be renamed; agents that check the media \
                 type need a host that sets headers (Netlify, Cloudflare Pages, Vercel)",
            );
        }
        diags.push(d);
    }
    twins
}

/// `.nojekyll` and the `.json` twin of each document `lower` chose.
pub fn render(documents: &[Artifact], twins: &[String]) -> Vec<Artifact> {
    let mut out = vec![Artifact {
        path: NOJEKYLL_PATH.into(),
        body: Vec::new().into(),
        serving: None,
    }];
    for a in documents.iter().filter(|a| twins.contains(&a.path)) {
        if let Some(serving) = &a.serving {
            out.push(Artifact::document(
                format!("{}.json", a.path),
                a.body.clone(),
                serving.clone(),
            ));
        }
    }
    out
}

/// GitHub Pages sends `.md` files (a skill's SKILL.md) as `text/markdown`, from their
/// extension, the type they declare: nothing to warn about.
fn markdown_known(a: &Artifact) -> bool {
    a.path.ends_with(".md")
        && a.serving
            .as_ref()
            .is_some_and(|s| s.content_type.starts_with("text/markdown"))
}
