//! `_headers` for Netlify and Cloudflare Pages: one block per generated document.

use serde::Serialize;

use super::Artifact;
use super::section::{BEGIN, END};
use crate::diag::{Diagnostic, Diagnostics};
use crate::templates;

pub const PATH: &str = "/_headers";
/// Cloudflare Pages' limits; Netlify has none lower.
const MAX_RULES: usize = 100;
const MAX_LINE: usize = 2000;

#[derive(Serialize)]
struct Rule {
    path: String,
    headers: Vec<Header>,
}

#[derive(Serialize, PartialEq)]
struct Header {
    name: &'static str,
    value: String,
}

/// The `_headers` artifact holding wellgen's section only; `merge` fits it into an existing file.
pub fn emit(artifacts: &[Artifact], diags: &mut Diagnostics) -> Option<Artifact> {
    let mut rules: Vec<Rule> = artifacts
        .iter()
        .filter_map(|a| {
            let s = a.serving.as_ref()?;
            let mut headers = Vec::new();
            if a.needs_content_type() {
                headers.push(Header {
                    name: "Content-Type",
                    value: s.content_type.to_string(),
                });
            }
            headers.push(Header {
                name: "Cache-Control",
                value: s.cache_control.to_string(),
            });
            if s.cors {
                headers.push(Header {
                    name: "Access-Control-Allow-Origin",
                    value: "*".into(),
                });
            }
            Some(Rule {
                path: a.path.clone(),
                headers,
            })
        })
        .collect();
    if rules.is_empty() {
        return None;
    }
    if rules.len() > MAX_RULES {
        rules = collapse(rules);
    }
    if rules.len() > MAX_RULES {
        diags.push(
            Diagnostic::error(format!(
                "{} header rules: Cloudflare Pages accepts at most {MAX_RULES} in _headers",
                rules.len()
            ))
            .help("build fewer targets (--target), or fewer per-capability documents"),
        );
    }
    let ctx = minijinja::context! { rules, begin => BEGIN, end => END };
    let text = match templates::render(templates::HEADERS, ctx) {
        Ok(text) => text,
        Err(e) => {
            diags.push(Diagnostic::error(e));
            return None;
        }
    };
    for line in text.lines().filter(|l| l.len() > MAX_LINE) {
        diags.push(Diagnostic::error(format!(
            "a _headers line is {} characters; Cloudflare Pages accepts at most {MAX_LINE}: {}…",
            line.len(),
            &line[..line.floor_char_boundary(60)]
        )));
    }
    Some(Artifact {
        path: PATH.into(),
        body: text.into_bytes(),
        serving: None,
    })
}

/// Over the limit (a large API's one ADP detail per capability), the rules of a folder whose
/// documents are all served alike become one splat rule (`/api/capabilities/*`), which both
/// hosts read as "everything below". A folder is collapsed only when no other rule matches
/// below it, since both hosts apply every matching rule.
fn collapse(rules: Vec<Rule>) -> Vec<Rule> {
    let folder = |p: &str| p[..=p.rfind('/').unwrap_or(0)].to_string();
    let mut folders: Vec<String> = Vec::new();
    for r in &rules {
        let f = folder(&r.path);
        if f.len() > 1 && !folders.contains(&f) {
            folders.push(f);
        }
    }
    let mut splats: Vec<String> = Vec::new();
    for f in folders {
        let below: Vec<&Rule> = rules.iter().filter(|r| r.path.starts_with(&f)).collect();
        let alike = below.iter().all(|r| r.headers == below[0].headers);
        // Only the folder's own files: a sub-folder is its own candidate.
        let own = below.iter().filter(|r| folder(&r.path) == f).count();
        if alike && own > 1 && below.len() == own {
            splats.push(f);
        }
    }
    let mut out: Vec<Rule> = Vec::new();
    for r in rules {
        match splats.iter().find(|f| folder(&r.path) == **f) {
            Some(f) => {
                let path = format!("{f}*");
                if !out.iter().any(|o| o.path == path) {
                    out.push(Rule {
                        path,
                        headers: r.headers,
                    });
                }
            }
            None => out.push(r),
        }
    }
    out
}
