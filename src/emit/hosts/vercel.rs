//! `vercel.json` for Vercel: a `headers` entry per document, the query route, and
//! the home page's `Link` header and Markdown answer, merged into the user's own vercel.json
//! without losing any of their entries.
//!
//! Vercel checks the filesystem before `rewrites`, so a rewrite of `/api/discovery` (a file)
//! never applies; `redirects` run before the filesystem, so the query route is a redirect. So
//! is the Markdown answer: `Accept: text/markdown` on the home page gets a temporary redirect
//! to `/index.md`, which Vercel serves as `text/markdown` (an answer at the same URL needs
//! Routing Middleware, a function outside the published folder).
//!
//! The home page's entries have a `source` of wellgen's own, [`HOME_SOURCE`]: `/` and
//! `/index.html`, spelled so that no entry of the site's for `/` is taken for wellgen's.
//!
//! The editor of the site's text (`text` below) is wellgen's own. jsonc-parser's CST (0.34), the
//! format-preserving JSON editor on crates.io, does not give the site's bytes back once
//! wellgen's entries leave, as tests/it/hosts.rs demands: `[ ]`, `[\n    ]` and `{ }` come back
//! as `[]` and `{}`, and an entry taken out of a one-line array leaves a line break before its
//! `]`; its `get` also edits the first of two members of one name, where Vercel's `JSON.parse`
//! keeps the last. Crates that patch a `serde_json::Value` (json-patch) re-serialise the file.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::headers::document_headers;
use super::{Answers, Artifact, HostDescriptor, HostFile, Lowered, Merge, Merged};
use crate::emit::targets::rfc002;

pub const PATH: &str = "/vercel.json";
/// wellgen's entries inside the site's own vercel.json.
pub const FILE: HostFile = HostFile::config(PATH, Merge::VercelJson);

pub const DESCRIPTOR: HostDescriptor = HostDescriptor {
    called: "Vercel",
    help: "Vercel: `vercel.json` headers and redirects, merged into the user's",
    env: Some("VERCEL=1"),
    files: &[FILE],
    route: Some(PATH),
    headers: None,
    marks: &[PATH],
    answers: Answers::PLAIN,
    lower: super::no_checks,
    render: render_host,
};

/// vercel.json: the documents' headers, the query route where the build routes it, the home
/// page's `Link` and Markdown answer.
fn render_host(documents: &[Artifact], lowered: &Lowered) -> Vec<Artifact> {
    vec![emit(
        documents,
        lowered.route,
        lowered.home.as_deref(),
        lowered.markdown(documents),
    )]
}
const SCHEMA: &str = "https://openapi.vercel.sh/vercel.json";
/// The member naming the schema: wellgen writes it only into a vercel.json it creates.
const SCHEMA_KEY: &str = "$schema";
/// The arrays whose entries wellgen may own, each identified by its `source`.
const LISTS: [&str; 3] = ["headers", "redirects", "rewrites"];
/// The home page, `/` or `/index.html`, as a path-to-regexp pattern (`@vercel/routing-utils`
/// 6.6 makes it `^/(?:index\.html)?$`): the `source` of wellgen's entries for it, which a
/// site is unlikely to spell the same way.
pub const HOME_SOURCE: &str = "/{index.html}?";
/// The `Accept` values the Markdown redirect answers (a header condition is a regular
/// expression over the whole value).
const MARKDOWN_ACCEPT: &str = "(.*)text/markdown(.*)";

/// wellgen's own vercel.json: only its entries. `route_query` adds the query route's
/// redirect ([`rfc002::QUERY`]); `home` (a `Link` value) the home page's header, with `Vary: Accept` and, with
/// `markdown`, the redirect of a Markdown request to `/index.md`.
pub fn emit(
    artifacts: &[Artifact],
    route_query: bool,
    home: Option<&str>,
    markdown: bool,
) -> Artifact {
    let headers: Vec<Value> = artifacts
        .iter()
        .filter_map(|a| {
            let list: Vec<Value> = document_headers(a)?
                .into_iter()
                .map(|h| json!({ "key": h.name, "value": h.value }))
                .collect();
            Some(json!({ "source": a.path, "headers": list }))
        })
        .collect();
    let mut headers = headers;
    let mut home_headers = Vec::new();
    if let Some(link) = home {
        home_headers.push(json!({ "key": "Link", "value": link }));
    }
    if markdown {
        home_headers.push(json!({ "key": "Vary", "value": "Accept" }));
    }
    if !home_headers.is_empty() {
        headers.push(json!({ "source": HOME_SOURCE, "headers": home_headers }));
    }
    let mut redirects = Vec::new();
    if markdown {
        redirects.push(json!({
            "source": HOME_SOURCE,
            "has": [{ "type": "header", "key": "accept", "value": MARKDOWN_ACCEPT }],
            "destination": super::markdown::INDEX_PATH,
            "permanent": false
        }));
    }
    if route_query {
        let query = rfc002::QUERY;
        redirects.push(json!({
            "source": query.path,
            "has": [{ "type": "query", "key": query.param, "value": query.value }],
            "destination": query.serves,
            "permanent": false
        }));
    }
    let mut doc = Map::new();
    doc.insert(SCHEMA_KEY.into(), SCHEMA.into());
    // Only lists with entries: an empty one would be a member wellgen created that no entry
    // of its marks as its own, and so the site's at the next build.
    if !headers.is_empty() {
        doc.insert("headers".into(), headers.into());
    }
    if !redirects.is_empty() {
        doc.insert("redirects".into(), redirects.into());
    }
    Artifact {
        path: PATH.into(),
        body: crate::emit::to_json_bytes(&doc).into(),
        serving: None,
    }
}

/// Fits `ours` (wellgen's vercel.json, or "" to take wellgen's entries out) into `existing`.
///
/// `owned` holds the `source` paths of entries wellgen wrote before (the documents of its last
/// build): those entries are replaced. Any other entry is the user's and is kept as it was, in
/// its place; a user's entry for one of wellgen's paths is refused rather than silently merged.
/// Our headers go after the user's (later entries win on Vercel), our redirects before (the
/// first match wins).
///
/// `created` names the members the last build created (`Merged::created`): a list there that
/// still holds wellgen's entries goes once they go, and `$schema` goes when wellgen leaves; the
/// file goes (`text` empty) when it was wellgen's and nothing else is left. Every other list is
/// the user's and stays when wellgen's entries leave it, even empty, with the very whitespace
/// it had: a list wellgen created but the user has since emptied by hand, or replaced, cannot
/// be told from one the user wrote, so it is theirs from then on.
///
/// The user's file is edited, not re-serialised: every byte outside wellgen's entries stays as
/// the user wrote it (numbers beyond `f64`, duplicate keys, `\u` escapes, odd whitespace). Where
/// a key appears twice, the last one is edited, as Vercel's `JSON.parse` reads the last one.
pub fn merge(
    existing: &str,
    ours: &str,
    owned: &BTreeSet<String>,
    created: &BTreeSet<String>,
) -> Result<Merged, String> {
    let ours: Map<String, Value> = if ours.trim().is_empty() {
        Map::new()
    } else {
        serde_json::from_str(ours).map_err(|e| format!("internal error: {e}"))?
    };
    if existing.trim().is_empty() {
        let text = render(&ours);
        let created = if text.is_empty() {
            BTreeSet::new()
        } else {
            ours.keys().cloned().collect()
        };
        return Ok(Merged { text, created });
    }
    // Checked, not read into a `Value`: that would refuse numbers past `f64` (valid JSON).
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(existing) {
        return Err(format!("it is not valid JSON ({e})"));
    }
    if !existing.trim_start().starts_with('{') {
        return Err("it is not a JSON object".into());
    }
    let mut doc = text::Object::parse(existing);
    let our_sources: BTreeSet<&str> = LISTS
        .iter()
        .flat_map(|k| entries(&ours, k))
        .filter_map(source)
        .collect();
    // The indent of a member's line, as it was when wellgen's entries went in.
    let member = doc.layout();
    // Each list wellgen's entries were taken out of, and whether it is wellgen's own.
    let mut taken: BTreeMap<&str, (text::Array, bool)> = BTreeMap::new();
    for key in LISTS {
        let Some(value) = doc.value(key) else {
            continue;
        };
        let Some(mut items) = text::Array::parse(value) else {
            return Err(format!("its `{key}` is not an array"));
        };
        let before = items.len();
        // The home page's entries are wellgen's when its last build wrote the file at all.
        let ours_before = |s: &str| owned.contains(s) || (s == HOME_SOURCE && !owned.is_empty());
        items.retain(
            |e| source_of(e).is_none_or(|s| !ours_before(&s)),
            member.as_deref(),
        );
        if let Some(s) = items
            .texts()
            .filter_map(source_of)
            .find(|s| our_sources.contains(s.as_str()))
        {
            return Err(format!(
                "its `{key}` already has an entry for `{s}` outside wellgen's; remove it so \
                 Vercel applies wellgen's"
            ));
        }
        if items.len() < before {
            // Created by wellgen and still holding its entries: wellgen's. Otherwise the user's.
            taken.insert(key, (items, created.contains(key)));
        }
    }
    let mut now_created = BTreeSet::new();
    for key in LISTS {
        let mine: Vec<Value> = entries(&ours, key).cloned().collect();
        let (mut items, wellgens) = match (taken.remove(key), doc.value(key)) {
            (Some(list), _) => list,
            // The user's list, untouched so far: edited only to add wellgen's entries.
            (None, Some(value)) if !mine.is_empty() => (
                text::Array::parse(value).unwrap_or_else(text::Array::empty),
                false,
            ),
            (None, None) if !mine.is_empty() => (text::Array::empty(), true),
            (None, _) => continue,
        };
        if mine.is_empty() {
            if wellgens && items.len() == 0 {
                doc.remove(key);
            } else {
                doc.set(key, items.render());
            }
            continue;
        }
        if wellgens {
            now_created.insert(key.to_string());
        }
        let member = doc.layout();
        let layout = items.layout_filled(member.as_deref());
        let mine = mine
            .iter()
            .map(|e| text::render(e, layout.as_deref()))
            .collect();
        if key == "redirects" {
            items.prepend(mine, member.as_deref());
        } else {
            items.append(mine, member.as_deref());
        }
        doc.set(key, items.render());
    }
    // `$schema` is wellgen's only in a file it created, and leaves with wellgen.
    if created.contains(SCHEMA_KEY) && doc.value(SCHEMA_KEY).is_some() {
        if ours.is_empty() {
            doc.remove(SCHEMA_KEY);
        } else {
            now_created.insert(SCHEMA_KEY.to_string());
        }
        if doc.keys().all(|k| k == SCHEMA_KEY) {
            return Ok(Merged::default());
        }
    }
    Ok(Merged {
        text: doc.render(),
        created: now_created,
    })
}

fn render(doc: &Map<String, Value>) -> String {
    if doc.keys().all(|k| k == SCHEMA_KEY) {
        return String::new();
    }
    String::from_utf8(crate::emit::to_json_bytes(doc)).unwrap_or_default()
}

fn entries<'a>(doc: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a Value> {
    doc.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn source(entry: &Value) -> Option<&str> {
    entry.get("source").and_then(Value::as_str)
}

/// The `source` of an entry as the user wrote it (escapes decoded; the last one if repeated).
fn source_of(entry: &str) -> Option<String> {
    if !entry.starts_with('{') {
        return None;
    }
    serde_json::from_str(text::Object::parse(entry).value("source")?).ok()
}

/// JSON text cut into spans, so that an edit touches only the entries it adds or removes.
/// Parsed only after serde_json has accepted the whole text, so it can assume valid JSON.
mod text {
    use serde::Serialize;
    use serde_json::Value;

    pub const INDENT: &str = "  ";

    fn skip_ws(s: &[u8], mut i: usize) -> usize {
        while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        i
    }

    /// The end of the value that starts at `i`.
    fn value_end(s: &[u8], i: usize) -> usize {
        match s[i] {
            b'"' => {
                let mut j = i + 1;
                while s[j] != b'"' {
                    j += if s[j] == b'\\' { 2 } else { 1 };
                }
                j + 1
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut j = i;
                loop {
                    match s[j] {
                        b'"' => {
                            j = value_end(s, j);
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return j + 1;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
            }
            _ => {
                let mut j = i;
                while j < s.len()
                    && !matches!(s[j], b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
                {
                    j += 1;
                }
                j
            }
        }
    }

    /// The items of a JSON object or array that starts at `open`: for each, the span of its text
    /// (for a member, from its key to the end of its value) and, for a member, its value's
    /// span; then the position of the closing bracket.
    fn items(s: &[u8], open: usize, members: bool) -> (Vec<Item>, usize) {
        let mut out = Vec::new();
        let mut i = skip_ws(s, open + 1);
        if matches!(s[i], b'}' | b']') {
            return (out, i);
        }
        loop {
            let start = i;
            let mut value = i;
            if members {
                let key_end = value_end(s, i);
                i = skip_ws(s, key_end);
                // The colon.
                value = skip_ws(s, i + 1);
            }
            let end = value_end(s, value);
            out.push(Item { start, value, end });
            i = skip_ws(s, end);
            if s[i] == b',' {
                i = skip_ws(s, i + 1);
            } else {
                return (out, i);
            }
        }
    }

    #[derive(Clone, Copy)]
    struct Item {
        start: usize,
        value: usize,
        end: usize,
    }

    /// A sequence of items as text: what comes before the first, the items with the text
    /// between them, what comes after the last.
    struct Seq {
        open: String,
        lead: String,
        items: Vec<String>,
        gaps: Vec<String>,
        trail: String,
        close: String,
    }

    impl Seq {
        fn cut(text: &str, open: usize, members: bool) -> (Self, Vec<Item>) {
            let s = text.as_bytes();
            let (spans, close) = items(s, open, members);
            let mut seq = Seq {
                open: text[..=open].to_string(),
                lead: String::new(),
                items: Vec::new(),
                gaps: Vec::new(),
                trail: String::new(),
                close: text[close..].to_string(),
            };
            match (spans.first(), spans.last()) {
                (Some(first), Some(last)) => {
                    seq.lead = text[open + 1..first.start].to_string();
                    seq.trail = text[last.end..close].to_string();
                    for (n, item) in spans.iter().enumerate() {
                        seq.items.push(text[item.start..item.end].to_string());
                        if let Some(next) = spans.get(n + 1) {
                            seq.gaps.push(text[item.end..next.start].to_string());
                        }
                    }
                }
                _ => seq.trail = text[open + 1..close].to_string(),
            }
            (seq, spans)
        }

        /// The separator an added item gets: a comma and the whitespace before the first item.
        fn separator(&self) -> String {
            format!(",{}", self.lead)
        }

        /// Removes item `n`; the last one leaves the text between the brackets as it was
        /// before [`Seq::fill`] (see there).
        fn remove(&mut self, n: usize, outer: Option<&str>) {
            self.items.remove(n);
            // With the text that joined it to its neighbour: inserting and removing are inverse.
            if n > 0 {
                self.gaps.remove(n - 1);
            } else if !self.gaps.is_empty() {
                self.gaps.remove(0);
            }
            if self.items.is_empty() {
                self.lead.clear();
                if let Some(outer) = outer
                    && let Some(before) = self.trail.strip_suffix(&format!("\n{outer}"))
                {
                    self.trail = before.to_string();
                }
            }
        }

        /// Lays out a sequence without items for its first: each item on a line of its own
        /// indented one step past `outer`, the closing bracket on a line indented by `outer`
        /// (`None`: all on one line). The whitespace the user had between the brackets stays,
        /// before that last line break, so that removing the last item gives it back whole:
        /// `[ ]` filled and emptied again is `[ ]`, not `[]`.
        fn fill(&mut self, outer: Option<&str>) {
            if let Some(outer) = outer {
                self.lead = format!("\n{outer}{INDENT}");
                self.trail = format!("{}\n{outer}", self.trail);
            }
        }

        fn push(&mut self, item: String, outer: Option<&str>) {
            if self.items.is_empty() {
                self.fill(outer);
            } else {
                self.gaps.push(self.separator());
            }
            self.items.push(item);
        }

        fn insert_first(&mut self, item: String, outer: Option<&str>) {
            if self.items.is_empty() {
                self.fill(outer);
            } else {
                self.gaps.insert(0, self.separator());
            }
            self.items.insert(0, item);
        }

        fn render(&self) -> String {
            let mut out = format!("{}{}", self.open, self.lead);
            for (n, item) in self.items.iter().enumerate() {
                out.push_str(item);
                if let Some(gap) = self.gaps.get(n) {
                    out.push_str(gap);
                }
            }
            out.push_str(&self.trail);
            out.push_str(&self.close);
            out
        }

        /// The whitespace an item starts its line with, or `None` when the items share one line.
        fn layout(&self) -> Option<String> {
            self.lead
                .rsplit_once('\n')
                .map(|(_, indent)| indent.to_string())
        }
    }

    /// The user's top-level object.
    pub struct Object {
        seq: Seq,
        /// Each member's key (decoded) and where its value starts within its text.
        keys: Vec<(String, usize)>,
    }

    impl Object {
        pub fn parse(text: &str) -> Self {
            let open = skip_ws(text.as_bytes(), 0);
            let (seq, spans) = Seq::cut(text, open, true);
            let keys = spans
                .iter()
                .map(|item| {
                    let key_end = value_end(text.as_bytes(), item.start);
                    let key = serde_json::from_str(&text[item.start..key_end]).unwrap_or_default();
                    (key, item.value - item.start)
                })
                .collect();
            Object { seq, keys }
        }

        /// The last member named `key` (the one `JSON.parse` keeps).
        fn position(&self, key: &str) -> Option<usize> {
            self.keys.iter().rposition(|(k, _)| k == key)
        }

        pub fn value(&self, key: &str) -> Option<&str> {
            let n = self.position(key)?;
            Some(&self.seq.items[n][self.keys[n].1..])
        }

        /// The indent of a member's line, or `None` when the members share one line. Members
        /// added to `{}` get a line each.
        pub fn layout(&self) -> Option<String> {
            if self.seq.items.is_empty() {
                return Some(INDENT.into());
            }
            self.seq.layout()
        }

        pub fn set(&mut self, key: &str, value: String) {
            match self.position(key) {
                Some(n) => {
                    let at = self.keys[n].1;
                    self.seq.items[n].replace_range(at.., &value);
                }
                None => {
                    let colon = if self.layout().is_some() { ": " } else { ":" };
                    let name = serde_json::to_string(key).unwrap_or_default();
                    self.keys.push((key.into(), name.len() + colon.len()));
                    self.seq.push(format!("{name}{colon}{value}"), Some(""));
                }
            }
        }

        pub fn remove(&mut self, key: &str) {
            if let Some(n) = self.position(key) {
                self.keys.remove(n);
                self.seq.remove(n, Some(""));
            }
        }

        pub fn keys(&self) -> impl Iterator<Item = &str> {
            self.keys.iter().map(|(k, _)| k.as_str())
        }

        pub fn render(&self) -> String {
            self.seq.render()
        }
    }

    /// One of the user's arrays.
    pub struct Array {
        seq: Seq,
    }

    impl Array {
        pub fn parse(value: &str) -> Option<Self> {
            if !value.starts_with('[') {
                return None;
            }
            Some(Array {
                seq: Seq::cut(value, 0, false).0,
            })
        }

        pub fn empty() -> Self {
            Array {
                seq: Seq {
                    open: "[".into(),
                    lead: String::new(),
                    items: Vec::new(),
                    gaps: Vec::new(),
                    trail: String::new(),
                    close: "]".into(),
                },
            }
        }

        /// The indent of an item's line once the array has items (`None`: on one line), for
        /// an array in a member indented by `member`: its own, or the one it will be given.
        pub fn layout_filled(&self, member: Option<&str>) -> Option<String> {
            if self.seq.items.is_empty() {
                return member.map(|m| format!("{m}{INDENT}"));
            }
            self.seq.layout()
        }

        pub fn len(&self) -> usize {
            self.seq.items.len()
        }

        pub fn texts(&self) -> impl Iterator<Item = &str> {
            self.seq.items.iter().map(String::as_str)
        }

        /// Keeps the items `keep` accepts. `member` (as for [`Array::append`]) is the indent
        /// of the member holding the array.
        pub fn retain(&mut self, keep: impl Fn(&str) -> bool, member: Option<&str>) {
            let mut n = 0;
            while n < self.seq.items.len() {
                if keep(&self.seq.items[n]) {
                    n += 1;
                } else {
                    self.seq.remove(n, member);
                }
            }
        }

        /// Adds `items` after the others; the first item of an empty array is laid out below
        /// `member`, the indent of the member holding the array (`None`: on one line).
        pub fn append(&mut self, items: Vec<String>, member: Option<&str>) {
            for item in items {
                self.seq.push(item, member);
            }
        }

        /// Adds `items` before the others, laid out as by [`Array::append`].
        pub fn prepend(&mut self, items: Vec<String>, member: Option<&str>) {
            for item in items.into_iter().rev() {
                self.seq.insert_first(item, member);
            }
        }

        pub fn render(&self) -> String {
            self.seq.render()
        }
    }

    /// `value` as wellgen writes JSON (two-space indent), its lines after the first indented
    /// by `indent`; on one line when there is none.
    pub fn render(value: &Value, indent: Option<&str>) -> String {
        let Some(indent) = indent else {
            return serde_json::to_string(value).unwrap_or_default();
        };
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(
            &mut out,
            serde_json::ser::PrettyFormatter::with_indent(INDENT.as_bytes()),
        );
        let _ = value.serialize(&mut ser);
        String::from_utf8(out)
            .unwrap_or_default()
            .replace('\n', &format!("\n{indent}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours() -> String {
        json!({
            "$schema": SCHEMA,
            "headers": [{ "source": "/ai", "headers": [{ "key": "Cache-Control", "value": "x" }] }],
            "redirects": [{ "source": "/api/discovery", "destination": "/o.json" }]
        })
        .to_string()
    }

    fn owned(paths: &[&str]) -> BTreeSet<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    /// A merge by a build that follows one which created nothing in the file.
    fn merged(existing: &str, ours: &str, owned: &BTreeSet<String>) -> Result<String, String> {
        merge(existing, ours, owned, &BTreeSet::new()).map(|m| m.text)
    }

    #[test]
    fn the_home_page_gets_its_link_and_markdown_redirect_beside_a_sites_own_entry_for_slash() {
        let ours = emit(&[], true, Some("</llms.txt>; rel=\"describedby\""), true);
        let ours = String::from_utf8(ours.body.to_vec()).unwrap();
        let v: Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(v["headers"][0]["source"], HOME_SOURCE);
        assert_eq!(v["headers"][0]["headers"][0]["key"], "Link");
        assert_eq!(v["headers"][0]["headers"][1]["value"], "Accept");
        let markdown = &v["redirects"][0];
        assert_eq!(markdown["source"], HOME_SOURCE);
        assert_eq!(markdown["has"][0]["key"], "accept");
        assert_eq!(markdown["destination"], "/index.md");
        assert_eq!(markdown["permanent"], false);
        assert_eq!(v["redirects"][1]["source"], "/api/discovery");
        // A site's own entry for `/` is not wellgen's: it stays through every build.
        let user = json!({
            "headers": [{ "source": "/", "headers": [{ "key": "X-Home", "value": "1" }] }]
        })
        .to_string();
        let first = merge(&user, &ours, &owned(&[]), &BTreeSet::new()).unwrap();
        let written = owned(&["/vercel.json", "/api/discovery"]);
        let second = merge(&first.text, &ours, &written, &first.created).unwrap();
        assert_eq!(second.text, first.text);
        let v2: Value = serde_json::from_str(&second.text).unwrap();
        assert_eq!(v2["headers"][0]["source"], "/");
        assert_eq!(v2["headers"][1]["source"], HOME_SOURCE);
        let gone = merge(&second.text, "", &written, &second.created).unwrap();
        assert_eq!(gone.text, user);
        // Without a Markdown twin, neither `Vary` nor the redirect.
        let plain = emit(&[], false, Some("</llms.txt>; rel=\"describedby\""), false);
        let plain: Value = serde_json::from_slice(&plain.body).unwrap();
        assert_eq!(plain["headers"][0]["headers"].as_array().unwrap().len(), 1);
        assert!(plain.get("redirects").is_none());
    }

    #[test]
    fn a_new_file_is_ours_alone() {
        let new = merge("", &ours(), &owned(&[]), &BTreeSet::new()).unwrap();
        let v: Value = serde_json::from_str(&new.text).unwrap();
        assert_eq!(v["$schema"], SCHEMA);
        assert_eq!(v["headers"][0]["source"], "/ai");
        assert!(new.text.ends_with("}\n"));
        assert_eq!(new.created, owned(&["$schema", "headers", "redirects"]));
    }

    #[test]
    fn the_users_entries_and_keys_survive_in_place_and_ours_are_replaced() {
        let user = json!({
            "cleanUrls": true,
            "headers": [{ "source": "/(.*)", "headers": [{ "key": "X-Frame-Options", "value": "DENY" }] }],
            "redirects": [{ "source": "/old", "destination": "/new" }],
            "rewrites": [{ "source": "/(.*)", "destination": "/index.html" }]
        })
        .to_string();
        let first = merged(&user, &ours(), &owned(&[])).unwrap();
        let v: Value = serde_json::from_str(&first).unwrap();
        assert_eq!(v["cleanUrls"], true);
        assert_eq!(v["headers"][0]["source"], "/(.*)");
        assert_eq!(v["headers"][1]["source"], "/ai");
        assert_eq!(v["redirects"][0]["source"], "/api/discovery");
        assert_eq!(v["redirects"][1]["source"], "/old");
        assert_eq!(v["rewrites"][0]["destination"], "/index.html");
        assert!(
            v.get("$schema").is_none(),
            "the user's file gets no $schema"
        );
        // The next build replaces our entries in place of appending a second copy.
        let owned = owned(&["/ai", "/api/discovery", "/vercel.json"]);
        let newer = ours().replace("\"x\"", "\"y\"");
        let second = merged(&first, &newer, &owned).unwrap();
        let v2: Value = serde_json::from_str(&second).unwrap();
        assert_eq!(v2["headers"].as_array().unwrap().len(), 2);
        assert_eq!(v2["headers"][1]["headers"][0]["value"], "y");
        assert_eq!(merged(&second, &newer, &owned).unwrap(), second);
        // Taking ours out leaves exactly the user's entries.
        assert_eq!(merged(&second, "", &owned).unwrap(), user);
    }

    /// The user's text outside wellgen's entries is kept byte for byte: numbers past `f64`,
    /// repeated keys (Vercel reads the last), `\u` escapes, odd whitespace; taking wellgen's
    /// entries out gives back the very file the user wrote.
    #[test]
    fn the_users_text_is_kept_byte_for_byte() {
        let users = [
            "{\"build\": {\"env\": {\"N\": 12345678901234567890123, \"F\": 1.50e+300, \"Z\": -0.0}},\n\
             \"cleanUrls\": true, \"cleanUrls\": false,\n\
             \"headers\" :\t[ { \"source\": \"/caf\\u00e9\", \"headers\": [] } ,\r\n\t{\"source\":\"/x\",\"source\":\"/y\",\"headers\":[]}  ],\n\
             \"redirects\":[],\"n\": 1E2 }\n\n",
            "  {\n    \"headers\": [\n        {\"source\": \"/(.*)\", \"headers\": [{\"key\": \"X-A\", \"value\": \"\\ud83d\\ude00\"}]}\n    ],\n    \"headers\": [\n        {\"source\": \"/b\", \"headers\": []}\n    ]\n  }",
            "{\"rewrites\":[{\"source\":\"/(.*)\",\"destination\":\"/index.html\"}],\"redirects\":[{\"source\":\"/old\",\"destination\":\"/new\"}]}",
            "{}",
        ];
        let owned = owned(&["/ai", "/api/discovery", "/vercel.json"]);
        for user in users {
            let m = merge(user, &ours(), &owned, &BTreeSet::new()).unwrap();
            let merged = m.text.clone();
            let v: Value = serde_json::from_str(&merged).unwrap();
            let headers = v["headers"].as_array().unwrap();
            assert_eq!(headers.last().unwrap()["source"], "/ai", "{merged}");
            assert_eq!(v["redirects"][0]["source"], "/api/discovery", "{merged}");
            if user.contains("12345678901234567890123") {
                assert!(merged.contains("\"N\": 12345678901234567890123, \"F\": 1.50e+300"));
                assert!(merged.contains("\"cleanUrls\": true, \"cleanUrls\": false"));
                assert!(merged.contains("\"/caf\\u00e9\""));
                assert!(merged.contains("{\"source\":\"/x\",\"source\":\"/y\",\"headers\":[]}"));
            }
            if user.contains("\"/b\"") {
                // The first `headers` is not read by Vercel: it stays as it was, ours go in the last.
                assert!(
                    merged.starts_with(&user[..user.find("],").unwrap()]),
                    "{merged}"
                );
                assert_eq!(headers[0]["source"], "/b");
            }
            let again = merge(&merged, &ours(), &owned, &m.created).unwrap();
            assert_eq!(again, m, "stable");
            // Lists wellgen added go with its entries; the user's stay, `[]` and `{}` too.
            let back = merge(&merged, "", &owned, &m.created).unwrap();
            assert_eq!(back.text, user, "{merged}");
            assert!(back.created.is_empty());
        }
    }

    /// An empty list or object the user wrote comes back with its very whitespace once
    /// wellgen's entries leave it, build after build; a list wellgen writes nothing into is
    /// not touched at all.
    #[test]
    fn the_users_empty_lists_come_back_with_their_whitespace() {
        let owned = owned(&["/ai", "/api/discovery"]);
        for user in [
            "{\n  \"headers\": [],\n  \"rewrites\": []\n}\n",
            "{\n  \"headers\": [ ],\n  \"redirects\": [\n  ],\n  \"rewrites\": [ ]\n}\n",
            "{\n\t\"headers\": [\n\n\t],\n\t\"redirects\": [\t]\n}",
            "{\"headers\":[ ],\"redirects\":[\n],\"rewrites\":[]}",
            "{}",
            "{ }",
            "{\n}\n",
            " {\r\n} ",
        ] {
            let mut text = user.to_string();
            let mut created = BTreeSet::new();
            for _ in 0..2 {
                let m = merge(&text, &ours(), &owned, &created).unwrap();
                let v: Value = serde_json::from_str(&m.text).unwrap();
                assert_eq!(v["headers"][0]["source"], "/ai", "{}", m.text);
                if let Some(rewrites) = user.find("\"rewrites\"") {
                    let list = &user[rewrites..];
                    let list = &list[..=list.find(']').unwrap()];
                    assert!(m.text.contains(list), "{}", m.text);
                }
                let back = merge(&m.text, "", &owned, &m.created).unwrap();
                assert_eq!(back.text, user, "{}", m.text);
                assert!(back.created.is_empty());
                (text, created) = (back.text, back.created);
            }
        }
    }

    /// A list wellgen created that the user has since emptied of wellgen's entries cannot be
    /// told from a `[]` of the user's: it stays, and is the user's from then on. One the user
    /// added an entry to stays with that entry.
    #[test]
    fn a_created_list_the_user_changed_is_theirs() {
        let owned = owned(&["/ai", "/api/discovery"]);
        let user = "{\n  \"cleanUrls\": true\n}\n";
        let first = merge(user, &ours(), &owned, &BTreeSet::new()).unwrap();
        assert_eq!(first.created, self::owned(&["headers", "redirects"]));
        let mut v: Value = serde_json::from_str(&first.text).unwrap();
        v["headers"] = json!([]);
        v["redirects"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "source": "/old", "destination": "/new" }));
        let edited = serde_json::to_string_pretty(&v).unwrap();
        let next = merge(&edited, &ours(), &owned, &first.created).unwrap();
        assert_eq!(next.created, self::owned(&["redirects"]));
        let left = merge(&next.text, "", &owned, &next.created).unwrap();
        assert_eq!(
            left.text,
            "{\n  \"cleanUrls\": true,\n  \"headers\": [],\n  \"redirects\": [\n    {\n      \
             \"source\": \"/old\",\n      \"destination\": \"/new\"\n    }\n  ]\n}"
        );
        assert!(left.created.is_empty());
    }

    #[test]
    fn only_ours_removed_leaves_nothing() {
        let new = merge("", &ours(), &owned(&[]), &BTreeSet::new()).unwrap();
        let owned = owned(&["/ai", "/api/discovery"]);
        assert_eq!(
            merge(&new.text, "", &owned, &new.created).unwrap(),
            Merged::default()
        );
    }

    #[test]
    fn refuses_a_users_entry_for_our_path_and_bad_files() {
        let user = json!({ "headers": [{ "source": "/ai", "headers": [] }] }).to_string();
        let err = merged(&user, &ours(), &owned(&[])).unwrap_err();
        assert!(err.contains("`/ai`"), "{err}");
        assert!(
            merged("[1]", &ours(), &owned(&[]))
                .unwrap_err()
                .contains("object")
        );
        assert!(
            merged("{", &ours(), &owned(&[]))
                .unwrap_err()
                .contains("not valid JSON")
        );
        let bad = json!({ "headers": {} }).to_string();
        assert!(
            merged(&bad, &ours(), &owned(&[]))
                .unwrap_err()
                .contains("not an array")
        );
    }
}
