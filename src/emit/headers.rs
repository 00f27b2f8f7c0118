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
struct Rule<'a> {
    path: &'a str,
    headers: Vec<Header>,
}

#[derive(Serialize)]
struct Header {
    name: &'static str,
    value: String,
}

/// The `_headers` artifact holding wellgen's section only; `merge` fits it into an existing file.
pub fn emit(artifacts: &[Artifact], diags: &mut Diagnostics) -> Option<Artifact> {
    let rules: Vec<Rule> = artifacts
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
                path: &a.path,
                headers,
            })
        })
        .collect();
    if rules.is_empty() {
        return None;
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
