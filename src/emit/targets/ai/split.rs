//! Opt-in split of `/.well-known/ai` into one sub-service document per tag (aiendpoint §4.5:
//! "splitting their service into logical sub-services, each with its own AI Discovery
//! Document") and an index listing them. `/.well-known/ai` itself is still written in full.
//!
//! Layout (docs/openapi-import.md says why): `/.well-known/ai-services/<tag>.json` for each
//! sub-service and `/.well-known/ai-services/index.json` for the index. `/ai` is a file (the
//! alias of `/.well-known/ai`), so nothing can live below it; a folder of its own under
//! `.well-known` collides with no document any target writes.

use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{Artifact, to_json_bytes};
use crate::model::{Service, Split};

pub const DIR: &str = "/.well-known/ai-services/";
pub const INDEX_PATH: &str = "/.well-known/ai-services/index.json";
/// The group of capabilities that have no tag.
pub const UNTAGGED: &str = "untagged";
#[derive(Serialize)]
struct Index<'a> {
    /// What this file is: no draft defines an index of sub-services, so it says so itself.
    description: String,
    service: &'a str,
    /// The full document, which lists every capability.
    main: &'static str,
    split: &'static str,
    sub_services: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    tag: String,
    document: String,
    capabilities: usize,
}

/// The sub-service documents and the index, once the split has been checked.
pub struct Lowered<'a> {
    sub_services: Vec<SubService>,
    index: Index<'a>,
}

/// One sub-service document, at its path.
struct SubService {
    path: String,
    body: Vec<u8>,
}

/// The diagnostics of the split (too few sub-services, sub-services over the draft's guidance)
/// and its documents. Every capability is in exactly one sub-service: the one of its first
/// tag, or `untagged`. The main document's diagnostics already cover the capabilities and the
/// service, so the sub-services add none of their own.
pub fn lower<'a>(service: &'a Service, split: Split, diags: &mut Diagnostics) -> Lowered<'a> {
    let Split::ByTag = split;
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, c) in service.capabilities.iter().enumerate() {
        let tag = c.tags.first().map_or(UNTAGGED, String::as_str);
        match groups.iter_mut().find(|(t, _)| t == tag) {
            Some((_, members)) => members.push(i),
            None => groups.push((tag.to_string(), vec![i])),
        }
    }
    if groups.len() < 2 {
        diags.push(
            Diagnostic::new(Code::AiSplitUntagged, format!(
                "`split = \"tag\"` gives {} sub-service: the capabilities {} no tags to split by",
                groups.len(),
                if groups.is_empty() {
                    "have"
                } else {
                    "share one tag or have"
                }
            ))
            .at("source.split")
            .help("tag the capabilities (`tags = [\"…\"]`, or the OpenAPI operations' tags)"),
        );
    }
    let mut sub_services = Vec::new();
    let mut entries = Vec::new();
    let mut slugs: Vec<String> = Vec::new();
    for (tag, members) in groups {
        let slug = unique(slug(&tag), &slugs);
        slugs.push(slug.clone());
        let path = format!("{DIR}{slug}.json");
        let name = fit(&format!("{}: {tag}", service.name), 100);
        let description = fit(
            &format!(
                "The {tag} capabilities of {} ({} of {}); the full list is at /.well-known/ai.",
                service.name,
                members.len(),
                service.capabilities.len()
            ),
            300,
        );
        let document = super::document(
            service,
            name.into(),
            description.into(),
            members.iter().map(|&i| &service.capabilities[i]),
        );
        let body = to_json_bytes(&document);
        let size = body.len();
        if size > super::SIZE_GUIDANCE || members.len() > super::CAPABILITY_GUIDANCE {
            diags.push(
                Diagnostic::new(Code::AiTooLarge, format!(
                    "{path} is {} KB with {} capabilities, over aiendpoint's 64 KB / 100 capabilities guidance (§4.5, §6.5)",
                    size.div_ceil(1024),
                    members.len()
                ))
                .at("source.split")
                .help("give this tag's operations finer tags, or leave some out with `exclude`"),
            );
        }
        entries.push(Entry {
            tag,
            document: path.clone(),
            capabilities: members.len(),
        });
        sub_services.push(SubService { path, body });
    }
    let index = Index {
        description: format!(
            "Sub-service documents of {}: each is an aiendpoint 1.0 document holding the capabilities of one tag (aiendpoint §4.5).",
            service.name
        ),
        service: &service.name,
        main: super::PATHS[0],
        split: Split::BY_TAG,
        sub_services: entries,
    };
    Lowered {
        sub_services,
        index,
    }
}

/// The sub-service documents, then the index.
pub fn render(_service: &Service, lowered: &Lowered) -> Vec<Artifact> {
    let mut artifacts: Vec<Artifact> = lowered
        .sub_services
        .iter()
        .map(|s| Artifact::document(s.path.as_str(), s.body.clone(), super::SERVING))
        .collect();
    artifacts.push(Artifact::document(
        INDEX_PATH,
        to_json_bytes(&lowered.index),
        super::SERVING,
    ));
    artifacts
}

/// A file name for a tag: lower case ASCII letters, digits, `-` and `_`; runs of anything else
/// become one `-`.
pub fn slug(tag: &str) -> String {
    let mut out = String::new();
    for c in tag.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-');
    let out: String = out.chars().take(64).collect();
    // `index` is the index's own name.
    match out.as_str() {
        "" => "tag".into(),
        "index" => "index-tag".into(),
        _ => out,
    }
}

fn unique(slug: String, taken: &[String]) -> String {
    if !taken.contains(&slug) {
        return slug;
    }
    (2..)
        .map(|n| format!("{slug}-{n}"))
        .find(|s| !taken.contains(s))
        .expect("some suffix is free")
}

/// `text` cut to `max` characters at a word boundary when it is longer.
fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => cut[..i].to_string(),
        _ => cut,
    };
    format!("{}…", cut.trim_end())
}
