//! `_headers` for Netlify and Cloudflare Pages: one block per generated document.

use serde::Serialize;

use super::Artifact;
use crate::diag::{Diagnostic, Diagnostics};
use crate::templates;

pub const PATH: &str = "/_headers";
pub const BEGIN: &str = "# BEGIN wellgen";
pub const END: &str = "# END wellgen";
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
            if a.is_extensionless() {
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

/// Puts wellgen's section into an existing `_headers`, keeping everything else. Errors when
/// the user's part already has a block for a path wellgen serves: hosts would apply only one.
pub fn merge(existing: &str, section: &str) -> Result<String, String> {
    let (before, after) = match (existing.find(BEGIN), existing.find(END)) {
        (Some(b), Some(e)) if b < e => {
            let end_line = existing[e..]
                .find('\n')
                .map_or(existing.len(), |i| e + i + 1);
            (&existing[..b], &existing[end_line..])
        }
        (None, None) => (existing, ""),
        _ => return Err("its `# BEGIN wellgen` / `# END wellgen` markers are damaged".into()),
    };
    let ours: Vec<&str> = paths(section).collect();
    if let Some(p) = paths(before).chain(paths(after)).find(|p| ours.contains(p)) {
        return Err(format!(
            "it already has a block for `{p}` outside wellgen's section; remove that block so the \
             host applies wellgen's headers"
        ));
    }
    let mut out = before.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.is_empty() && !out.ends_with("\n\n") && after.is_empty() {
        out.push('\n');
    }
    out.push_str(section);
    out.push_str(after);
    Ok(out)
}

/// Paths that open a block: unindented, non-comment lines.
fn paths(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with([' ', '\t', '#']) && !l.trim().is_empty())
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECTION: &str = "# BEGIN wellgen\n/.well-known/ai\n  Cache-Control: x\n# END wellgen\n";

    #[test]
    fn merge_keeps_the_users_rules_around_the_section() {
        let user = "/*\n  X-Frame-Options: DENY\n";
        let merged = merge(user, SECTION).unwrap();
        assert_eq!(merged, format!("{user}\n{SECTION}"));
        let again = merge(&merged, &SECTION.replace("x\n", "y\n")).unwrap();
        assert_eq!(again, format!("{user}\n{}", SECTION.replace("x\n", "y\n")));
        let sandwiched = format!("/a\n  A: 1\n{SECTION}/b\n  B: 2\n");
        assert_eq!(merge(&sandwiched, SECTION).unwrap(), sandwiched);
    }

    #[test]
    fn merge_refuses_a_second_block_for_our_path_and_broken_markers() {
        let user = "/.well-known/ai\n  Cache-Control: no-store\n";
        assert!(
            merge(user, SECTION)
                .unwrap_err()
                .contains("`/.well-known/ai`")
        );
        assert!(
            merge("# END wellgen\n# BEGIN wellgen\n", SECTION)
                .unwrap_err()
                .contains("damaged")
        );
    }
}
