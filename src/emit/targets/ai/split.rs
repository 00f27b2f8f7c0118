//! Splits of `/.well-known/ai` into one sub-service document per tag (aiendpoint §4.5:
//! "splitting their service into logical sub-services, each with its own AI Discovery
//! Document") and an index listing them. `/.well-known/ai` itself stays one document beside
//! them: in full, or compact where it is over the guidance in full.
//!
//! Layout (docs/openapi-import.md says why): `/.well-known/ai-services/<tag>.json` for each
//! sub-service and `/.well-known/ai-services/index.json` for the index. `/ai` is a file (the
//! alias of `/.well-known/ai`), so nothing can live below it; a folder of its own under
//! `.well-known` collides with no document any target writes.
//!
//! A service over the draft's guidance even in compact form is split whatever the author
//! chose (`parts`): then `/.well-known/ai` is itself the index, an aiendpoint document whose
//! capabilities are the parts (`GET` one to read its capabilities), so an agent that knows only
//! the draft still reaches every capability.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{Artifact, to_json_bytes};
use crate::model::{Service, Split};

/// The folder of the parts and of `[source] split`'s sub-services, and that split's index.
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

/// `[source] split`'s sub-service documents and their index, made by `render`: their size
/// decides nothing (each holds a part of a document within the guidance).
pub struct ByTag<'a> {
    sub_services: Vec<TagDocument>,
    index: Index<'a>,
    built: Vec<crate::emit::targets::Target>,
}

/// One tag's sub-service document: where it goes, what it is called, its capabilities.
struct TagDocument {
    path: String,
    name: String,
    description: String,
    members: Vec<usize>,
}

/// One sub-service document, at its path.
struct SubService {
    path: String,
    body: Vec<u8>,
}

/// The capabilities of `service` by their first tag (`untagged` for those without one), in
/// the order the tags first appear: every capability is in exactly one group.
fn groups(service: &Service) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, c) in service.capabilities.iter().enumerate() {
        let tag = c.tags.first().map_or(UNTAGGED, String::as_str);
        match groups.iter_mut().find(|(t, _)| t == tag) {
            Some((_, members)) => members.push(i),
            None => groups.push((tag.to_string(), vec![i])),
        }
    }
    groups
}

/// The split's own rule: a split that gives fewer than two sub-services splits nothing. The
/// main document's diagnostics already cover the capabilities and the service, so the
/// sub-services add none of their own.
pub fn check(service: &Service, split: Split, diags: &mut Diagnostics) {
    let Split::ByTag = split;
    let groups = groups(service).len();
    if groups < 2 {
        diags.push(
            Diagnostic::new(Code::AiSplitUntagged, format!(
                "`split = \"tag\"` gives {groups} sub-service: the capabilities {} no tags to split by",
                if groups == 0 {
                    "have"
                } else {
                    "share one tag or have"
                }
            ))
            .at("source.split")
            .help("tag the capabilities (`tags = [\"…\"]`, or the OpenAPI operations' tags)"),
        );
    }
}

/// The sub-service documents, one per first tag, and their index: made only for a service whole
/// in one document (`parts` splits any other); each sub-service holds a part of it.
pub fn by_tag<'a>(
    service: &'a Service,
    built: &[crate::emit::targets::Target],
    split: Split,
) -> ByTag<'a> {
    let Split::ByTag = split;
    let groups = groups(service);
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
        entries.push(Entry {
            tag,
            document: path.clone(),
            capabilities: members.len(),
        });
        sub_services.push(TagDocument {
            path,
            name,
            description,
            members,
        });
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
    ByTag {
        sub_services,
        index,
        built: built.to_vec(),
    }
}

/// The sub-service documents, then the index.
pub fn render(service: &Service, by_tag: &ByTag) -> Vec<Artifact> {
    let views = super::views(service, super::Form::Full);
    let mut artifacts: Vec<Artifact> = by_tag
        .sub_services
        .iter()
        .map(|s| {
            let document = super::document(
                service,
                s.name.as_str().into(),
                s.description.as_str().into(),
                s.members.iter().copied(),
                &views,
                super::Form::Full,
                super::published_auth(service, &by_tag.built),
            );
            Artifact::document(s.path.as_str(), to_json_bytes(&document), super::SERVING)
        })
        .collect();
    artifacts.push(Artifact::document(
        INDEX_PATH,
        to_json_bytes(&by_tag.index),
        super::SERVING,
    ));
    artifacts
}

/// A file name for a tag: lower case ASCII letters, digits, `-` and `_`; runs of anything else
/// become one `-`.
pub fn slug(tag: &str) -> String {
    let out: String = crate::text::slug(tag, &['_']).chars().take(64).collect();
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
    crate::text::shorten(text, max).0
}

/// A service's capabilities in parts of at most 64 KB and 100 capabilities each, and the
/// index document that lists them.
pub struct Parts {
    parts: Vec<SubService>,
    index: Vec<u8>,
}

impl Parts {
    /// Each part's path and size, for the size checks.
    pub fn sizes(&self) -> impl Iterator<Item = (&str, usize)> {
        self.parts.iter().map(|p| (p.path.as_str(), p.body.len()))
    }

    /// The index, published as `/.well-known/ai`.
    pub fn index(&self) -> Vec<u8> {
        self.index.clone()
    }

    pub fn render(&self) -> Vec<Artifact> {
        self.parts
            .iter()
            .map(|s| Artifact::document(s.path.as_str(), s.body.clone(), super::SERVING))
            .collect()
    }
}

/// The parts of a service too large for one document: grouped by first tag, else by the first
/// path segment that names something (`/v1/customers/{id}` → `customers`), and each group cut
/// where a part would pass the guidance.
pub(super) fn parts<'a>(
    service: &'a Service,
    form: super::Form,
    views: &'a [super::CapabilityView<'a>],
    auth: Option<super::AuthView<'a>>,
) -> Parts {
    let serialise = |doc: &super::Document<'_>| match form {
        super::Form::Compact => super::compact_json(doc),
        super::Form::Full => to_json_bytes(doc),
    };
    let mut groups: IndexMap<String, Vec<usize>> = IndexMap::new();
    for (i, c) in service.capabilities.iter().enumerate() {
        let group = match c.tags.first() {
            Some(tag) => tag.clone(),
            None => resource(&c.path.as_written())
                .unwrap_or(UNTAGGED)
                .to_string(),
        };
        groups.entry(group).or_default().push(i);
    }
    let total = service.capabilities.len();
    let document = |label: &str, members: &[usize]| {
        let name = fit(&format!("{}: {label}", service.name), 100);
        let description = fit(
            &format!(
                "The {label} capabilities of {} ({} of {total}); every part is listed at /.well-known/ai.",
                service.name,
                members.len(),
            ),
            300,
        );
        // The part's name already says its label: where repeating it in the description leaves
        // no room for a common parameter, the description goes without it.
        let description = match form {
            super::Form::Compact => {
                let caps: Vec<_> = members.iter().map(|&i| &service.capabilities[i]).collect();
                let short = fit(
                    &format!(
                        "{} of the {total} capabilities of {}; every part is listed at /.well-known/ai.",
                        members.len(),
                        service.name,
                    ),
                    300,
                );
                let common = super::compact::common(&caps, &description, &service.schemas);
                if super::compact::common(&caps, &short, &service.schemas).len() > common.len() {
                    short
                } else {
                    description
                }
            }
            super::Form::Full => description,
        };
        super::document(
            service,
            name.into(),
            description.into(),
            members.iter().copied(),
            views,
            form,
            auth.clone(),
        )
    };
    // Whole groups are packed into parts while they fit, by each capability's measured size
    // (pretty JSON takes about half as much again); a group too large for one part is cut.
    // The optional parameters every capability of the service takes are every part's common
    // ones too, stated once in its description: they weigh nothing per capability.
    let shared = match form {
        super::Form::Compact => {
            let all: Vec<_> = service.capabilities.iter().collect();
            super::compact::common(&all, "", &service.schemas)
        }
        super::Form::Full => Vec::new(),
    };
    let weight = |i: usize| {
        let view = super::without(&views[i], &shared);
        let bytes = serde_json::to_vec(&view).map_or(0, |b| b.len() + 1);
        match form {
            super::Form::Compact => bytes,
            super::Form::Full => bytes * 3 / 2,
        }
    };
    let room = super::SIZE_GUIDANCE - serialise(&document(&service.name, &[])).len() - 512;
    let mut bundles: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
    let mut open: (Vec<String>, Vec<usize>, usize) = (Vec::new(), Vec::new(), 0);
    for (label, members) in groups {
        let size: usize = members.iter().map(|&i| weight(i)).sum();
        let fits =
            |count: usize, bytes: usize| count <= super::CAPABILITY_GUIDANCE && bytes <= room;
        // The index names every group a part holds: a part takes no more than its entry can name.
        let named = labels_len(&open.0) + 2 + label.chars().count() <= LABEL_MAX;
        let joins = fits(open.1.len() + members.len(), open.2 + size) && named;
        if !joins && !open.1.is_empty() {
            let (labels, members, _) = std::mem::take(&mut open);
            bundles.push((labels, members));
        }
        open.0.push(label);
        open.1.extend(members);
        open.2 += size;
    }
    if !open.1.is_empty() {
        bundles.push((open.0, open.1));
    }
    let mut slugs: Vec<String> = Vec::new();
    let mut parts = Vec::new();
    let mut listed = Vec::new();
    for (labels, members) in bundles {
        let label = fit(&labels.join(", "), LABEL_MAX);
        let base = unique(slug(&labels[0]), &slugs);
        slugs.push(base.clone());
        let chunks = chunks(&members, &|m| serialise(&document(&label, m)).len());
        let count = chunks.len();
        for (n, chunk) in chunks.into_iter().enumerate() {
            let (file, label) = if count == 1 {
                (base.clone(), label.clone())
            } else {
                (
                    format!("{base}-{}", n + 1),
                    format!("{label} ({} of {count})", n + 1),
                )
            };
            let path = format!("{DIR}{file}.json");
            let body = serialise(&document(&label, &chunk));
            listed.push((file, label, chunk.len(), path.clone()));
            parts.push(SubService { path, body });
        }
    }
    let mut index = super::document(
        service,
        Cow::Borrowed(&service.name),
        Cow::Borrowed(&service.description),
        [],
        views,
        form,
        None,
    );
    // The parts are documents on this site, not calls to the API: no credential goes to them.
    index.auth = None;
    index.token_hints = None;
    index.rate_limits = None;
    // An API of hundreds of parts (Microsoft Graph's beta: 296) lists them past the guidance
    // too: the parts' descriptions are then cut shorter until the index fits, if it can.
    let index = within(super::SIZE_GUIDANCE, |max| {
        index.capabilities = listed
            .iter()
            .map(|(file, label, count, path)| {
                Cow::Owned(super::CapabilityView {
                    id: Cow::Owned(part_id(file)),
                    description: Cow::Owned(part_description(label, *count, max)),
                    endpoint: service.site_url.join(path),
                    method: "GET",
                    params: IndexMap::new(),
                    returns: None,
                    heads: IndexMap::new(),
                })
            })
            .collect();
        serialise(&index)
    });
    Parts { parts, index }
}

/// The longest label of a part (its groups' names), so that its index entry names every group
/// it holds within the draft's 200 characters (with its count and `(n of m)`).
const LABEL_MAX: usize = 140;

/// The length of `labels` joined as a part's label.
fn labels_len(labels: &[String]) -> usize {
    labels.iter().map(|l| l.chars().count() + 2).sum::<usize>()
}

/// The longest description of a part in the index, tried in turn while the index is over the
/// draft's size guidance.
const INDEX_DESCRIPTION_MAX: [usize; 4] = [200, 100, 60, 30];

/// A part's entry in the index: what it holds, at most `max` characters.
fn part_description(label: &str, count: usize, max: usize) -> String {
    fit(
        &format!("The {label} capabilities ({count}): GET for the list."),
        max,
    )
}

/// The first document `write` makes, description length by description length
/// ([`INDEX_DESCRIPTION_MAX`]), that is within `limit` bytes; the shortest one if none is.
fn within(limit: usize, mut write: impl FnMut(usize) -> Vec<u8>) -> Vec<u8> {
    let mut body = Vec::new();
    for max in INDEX_DESCRIPTION_MAX {
        body = write(max);
        if body.len() <= limit {
            break;
        }
    }
    body
}

/// `members` cut into runs whose document (`size`) stays within the guidance, halving a run
/// that does not: sizes are measured, never estimated.
fn chunks(members: &[usize], size: &dyn Fn(&[usize]) -> usize) -> Vec<Vec<usize>> {
    let fits =
        |m: &[usize]| m.len() <= super::CAPABILITY_GUIDANCE && size(m) <= super::SIZE_GUIDANCE;
    if members.len() <= 1 || fits(members) {
        return vec![members.to_vec()];
    }
    // As many runs as the size asks for, of equal length, then halved where one still is over.
    let runs = size(members)
        .div_ceil(super::SIZE_GUIDANCE)
        .max(members.len().div_ceil(super::CAPABILITY_GUIDANCE))
        .max(2);
    let len = members.len().div_ceil(runs);
    let mut out = Vec::new();
    for run in members.chunks(len) {
        if fits(run) || run.len() == 1 {
            out.push(run.to_vec());
        } else {
            let (a, b) = run.split_at(run.len() / 2);
            out.extend(chunks(a, size));
            out.extend(chunks(b, size));
        }
    }
    out
}

/// The first path segment that names a resource: not a version (`v1`, `2010-04-01`), not a
/// `{placeholder}`.
fn resource(path: &str) -> Option<&str> {
    path.split('/').find(|s| {
        let version = s.starts_with('v')
            && s[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
            && s.len() > 1;
        let date = s.chars().all(|c| c.is_ascii_digit() || c == '-');
        !s.is_empty() && !version && !date && !s.starts_with(['{', ':'])
    })
}

/// A capability id for a part file (`issues-2` → `issues_2_capabilities`), within the draft's
/// `^[a-z][a-z0-9_]*$` and 64 characters.
fn part_id(file: &str) -> String {
    let mut id = crate::text::ascii_lower_or_underscore(file);
    if !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        id.insert_str(0, "part_");
    }
    id.truncate(64 - "_capabilities".len());
    format!("{}_capabilities", id.trim_end_matches('_'))
}

#[cfg(test)]
mod tests {
    /// Microsoft Graph's beta API has 296 parts: their entries at 200 characters made an index
    /// of 78 KB. Shorter descriptions bring such an index within the guidance; each still names
    /// its part and its count.
    #[test]
    fn an_index_of_hundreds_of_parts_is_cut_to_the_guidance() {
        let labels: Vec<String> = (0..296)
            .map(|i| format!("accessReviewDecisions{i}.accessReviewDecision, accessReviews.accessReview, admin.serviceAnnouncement, admin.sharepoint"))
            .collect();
        let write = |max: usize| -> Vec<u8> {
            let entries: Vec<serde_json::Value> = labels
                .iter()
                .enumerate()
                .map(|(i, l)| serde_json::json!({
                    "id": format!("access_reviews_{i}_capabilities"),
                    "description": part_description(l, 91, max),
                    "endpoint": format!("https://graph.microsoft.com/.well-known/ai-services/access-reviews-{i}.json"),
                    "method": "GET",
                }))
                .collect();
            serde_json::to_vec(&entries).unwrap()
        };
        assert!(write(INDEX_DESCRIPTION_MAX[0]).len() > super::super::SIZE_GUIDANCE);
        let index = within(super::super::SIZE_GUIDANCE, write);
        assert!(
            index.len() <= super::super::SIZE_GUIDANCE,
            "{}",
            index.len()
        );
        let entries: Vec<serde_json::Value> = serde_json::from_slice(&index).unwrap();
        let d = entries[7]["description"].as_str().unwrap();
        assert!(
            d.starts_with("The accessReviewDecisions7") && d.ends_with('…'),
            "{d}"
        );
        // Whatever the limit, the shortest form is what is left.
        assert_eq!(within(0, write), write(INDEX_DESCRIPTION_MAX[3]));
    }

    use super::*;

    #[test]
    fn resources_skip_versions_and_placeholders() {
        assert_eq!(resource("/v1/customers/{id}"), Some("customers"));
        assert_eq!(resource("/2010-04-01/Accounts"), Some("Accounts"));
        assert_eq!(resource("/{org}/repos"), Some("repos"));
        assert_eq!(resource("/v2.1/"), None);
        assert_eq!(resource("/vault"), Some("vault"));
    }

    #[test]
    fn part_ids_follow_the_drafts_pattern() {
        assert_eq!(part_id("issues-2"), "issues_2_capabilities");
        assert_eq!(part_id("3d_secure"), "part_3d_secure_capabilities");
        let long = part_id(&"x".repeat(100));
        assert!(
            long.len() <= 64 && long.ends_with("_capabilities"),
            "{long}"
        );
    }

    #[test]
    fn chunks_fit_by_measured_size() {
        let members: Vec<usize> = (0..10).collect();
        // Each member weighs 20 KB: three fit in 64 KB.
        let parts = chunks(&members, &|m| m.len() * 20 * 1024);
        assert!(parts.iter().all(|p| p.len() <= 3), "{parts:?}");
        assert_eq!(parts.concat(), members);
    }
}
