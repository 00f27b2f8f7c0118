//! Token accounting, the metric these specs exist for: what each document costs an agent to
//! read, counted offline with the o200k_base and cl100k_base encodings.
//!
//! Loading the two encodings costs more than counting a small build (docs/PERFORMANCE.md has the
//! figures), so a build starts loading them in the background (`preload`) while it compiles.

use std::sync::{LazyLock, Mutex, PoisonError};

use serde::Serialize;

use crate::emit::{Artifact, Target};

/// The `ai` target's documents the accounting tells apart, as its descriptor lists them.
struct AiDocuments {
    /// `/.well-known/ai`: the document whose size the source is compared with.
    document: &'static str,
    /// The folder of its parts, where it is the index of a split.
    parts: &'static str,
    /// `[source] split`'s index in that folder: its sub-services repeat the whole document.
    split_index: &'static str,
}

fn ai_documents() -> AiDocuments {
    let ai = Target::AiEndpoint.descriptor();
    let path = |d: Option<&'static crate::emit::targets::Document>| {
        d.expect("the ai target publishes its parts and a split's index")
            .path
    };
    AiDocuments {
        document: Target::AiEndpoint.path(),
        parts: path(ai.family()),
        split_index: path(ai.family_index()),
    }
}

/// Files listed one by one in a table: a big API's build writes hundreds.
pub const TABLE_ROWS: usize = 6;

/// One document as an agent reads it: its bytes, served at `path` and at each of `also`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub path: String,
    /// The other paths serving the same bytes (twins and aliases: `/.well-known/ia.json` of
    /// `/ia.json`): an agent reads one of them, so they are counted once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    pub bytes: usize,
    pub o200k_base: usize,
    pub cl100k_base: usize,
}

/// Sizes summed over several rows (or services).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Total {
    pub bytes: usize,
    pub o200k_base: usize,
    pub cl100k_base: usize,
}

impl Total {
    pub fn of(rows: &[Row]) -> Self {
        let mut t = Self::default();
        for r in rows {
            t.add(&Self::from(r));
        }
        t
    }

    pub fn add(&mut self, other: &Total) {
        self.bytes += other.bytes;
        self.o200k_base += other.o200k_base;
        self.cl100k_base += other.cl100k_base;
    }
}

impl From<&Row> for Total {
    fn from(r: &Row) -> Self {
        Self {
            bytes: r.bytes,
            o200k_base: r.o200k_base,
            cl100k_base: r.cl100k_base,
        }
    }
}

/// How many times more tokens the source takes than the /.well-known/ai document, rounded to
/// two decimals so the JSON summary is byte-stable.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Ratio {
    pub o200k_base: f64,
    pub cl100k_base: f64,
}

impl Ratio {
    /// Over every /.well-known/ai document an agent reads: the document, and its parts when
    /// it is the index of a split (no `index.json` of an opt-in split beside them, whose
    /// parts repeat the whole document). `None` when there is no /.well-known/ai row or it is
    /// empty.
    pub fn of(source: &Row, rows: &[Row]) -> Option<Self> {
        let ai = ai_documents();
        rows.iter().find(|r| r.path == ai.document)?;
        let opt_in = rows.iter().any(|r| r.path == ai.split_index);
        let ai = Total::of(
            &rows
                .iter()
                .filter(|r| r.path == ai.document || (!opt_in && r.path.starts_with(ai.parts)))
                .cloned()
                .collect::<Vec<_>>(),
        );
        let div = |s: usize, d: usize| (s as f64 / d as f64 * 100.0).round() / 100.0;
        (ai.o200k_base > 0 && ai.cl100k_base > 0).then(|| Self {
            o200k_base: div(source.o200k_base, ai.o200k_base),
            cl100k_base: div(source.cl100k_base, ai.cl100k_base),
        })
    }
}

/// Starts loading both encodings on background threads, so a later `count` finds them ready.
pub fn preload() {
    std::thread::spawn(|| {
        tiktoken_rs::o200k_base_singleton();
    });
    std::thread::spawn(|| {
        tiktoken_rs::cl100k_base_singleton();
    });
}

/// Counts every served document; identical bodies (twins and aliases) are one row, listing
/// each path, and counted once.
///
/// On the calling thread: with the segment cache (`counts`) a second thread cost more than it
/// saved on GitHub's build (docs/PERFORMANCE.md), each new thread warming its own copy of
/// tiktoken's regex.
pub fn count(artifacts: &[Artifact]) -> Vec<Row> {
    let (docs, texts) = served(artifacts);
    rows(&docs, &counts(&texts))
}

/// `count`, which runs on the calling thread too: for batch builds, whose workers already
/// fill every core.
pub fn count_serial(artifacts: &[Artifact]) -> Vec<Row> {
    count(artifacts)
}

fn served(artifacts: &[Artifact]) -> (Vec<&Artifact>, Vec<std::borrow::Cow<'_, str>>) {
    let docs: Vec<&Artifact> = artifacts.iter().filter(|a| a.serving.is_some()).collect();
    // Borrowed: documents are UTF-8, and a large build's are tens of megabytes.
    let texts = docs
        .iter()
        .map(|a| String::from_utf8_lossy(&a.body))
        .collect();
    (docs, texts)
}

fn rows(docs: &[&Artifact], counts: &[(usize, usize)]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::with_capacity(docs.len());
    let mut first: HashMap<&[u8], usize> = HashMap::default();
    for (a, &(o200k_base, cl100k_base)) in docs.iter().zip(counts) {
        match first.entry(a.body.as_slice()) {
            std::collections::hash_map::Entry::Occupied(row) => {
                rows[*row.get()].also.push(a.path.clone());
            }
            std::collections::hash_map::Entry::Vacant(row) => {
                row.insert(rows.len());
                rows.push(Row {
                    path: a.path.clone(),
                    also: Vec::new(),
                    bytes: a.body.len(),
                    o200k_base,
                    cl100k_base,
                });
            }
        }
    }
    rows
}

impl Row {
    /// The paths as the table lists them: `/ia.json, /.well-known/ia.json`.
    fn paths(&self) -> String {
        std::iter::once(&self.path)
            .chain(&self.also)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Tokens of a text in both encodings, `(o200k_base, cl100k_base)`.
pub fn count_text(text: &str) -> (usize, usize) {
    counts(&[text])[0]
}

/// `(o200k_base, cl100k_base)` of each text.
///
/// A text counts as the sum of its segments (`segments`: cut where no token can cross). JSON
/// and YAML repeat the same segments (`"description`, `":"string`, ` the`) so often that
/// tiktoken itself needs to see only the distinct ones: a few percent of the text. Identical
/// texts (aliases) are counted once.
fn counts<S: AsRef<str>>(texts: &[S]) -> Vec<(usize, usize)> {
    let mut first: HashMap<&str, usize> = HashMap::default();
    let mut ids: HashMap<&str, u32> = HashMap::default();
    let mut distinct: Vec<&str> = Vec::new();
    // Each text as the ids of its segments, or the text it repeats.
    let mut texts_as_ids: Vec<Result<Vec<u32>, usize>> = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let t = t.as_ref();
        let o = *first.entry(t).or_insert(i);
        if o != i {
            texts_as_ids.push(Err(o));
            continue;
        }
        let seq = segments(t)
            .map(|seg| {
                *ids.entry(seg).or_insert_with(|| {
                    distinct.push(seg);
                    (distinct.len() - 1) as u32
                })
            })
            .collect();
        texts_as_ids.push(Ok(seq));
    }
    let per_segment = segment_counts(&distinct);
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(texts.len());
    for t in &texts_as_ids {
        let sum = match t {
            Ok(seq) => seq.iter().fold((0, 0), |(o, c), &id| {
                let (so, sc) = per_segment[id as usize];
                (o + so as usize, c + sc as usize)
            }),
            Err(o) => out[*o],
        };
        out.push(sum);
    }
    out
}

/// Counts of the segments this process has seen: a build counts its documents, then the
/// OpenAPI source they came from, most of whose segments the documents repeat.
static SEEN: LazyLock<Mutex<Seen>> = LazyLock::new(Mutex::default);
type Seen = HashMap<Box<str>, (u32, u32)>;

/// Past this many segments, `SEEN` starts again: a long `wellgen serve` or batch run must not
/// grow without end. With `SEEN_SEGMENT_MAX`, that bounds it near 50 MB; GitHub's source and
/// build together have about 60 k distinct segments.
const SEEN_MAX: usize = 1 << 18;
/// Longer segments are counted but not remembered: they seldom repeat (CJK prose, or text with
/// no ASCII word end, makes one segment of a whole paragraph) and would unbound the memory.
const SEEN_SEGMENT_MAX: usize = 128;

/// `(o200k_base, cl100k_base)` of each segment: those not seen yet are tokenised by tiktoken.
fn segment_counts(segments: &[&str]) -> Vec<(u32, u32)> {
    let seen = || SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    let mut out: Vec<Option<(u32, u32)>> = {
        let seen = seen();
        segments.iter().map(|s| seen.get(*s).copied()).collect()
    };
    let todo: Vec<usize> = (0..segments.len()).filter(|&k| out[k].is_none()).collect();
    let o200k = tiktoken_rs::o200k_base_singleton();
    let cl100k = tiktoken_rs::cl100k_base_singleton();
    let len = |bpe: &tiktoken_rs::CoreBPE, seg: &str| {
        u32::try_from(bpe.encode_ordinary(seg).len()).unwrap_or(u32::MAX)
    };
    let counted: Vec<(u32, u32)> = todo
        .iter()
        .map(|&k| (len(o200k, segments[k]), len(cl100k, segments[k])))
        .collect();
    let mut seen = seen();
    if seen.len() + counted.len() > SEEN_MAX {
        seen.clear();
    }
    for (&k, &c) in todo.iter().zip(&counted) {
        out[k] = Some(c);
        if segments[k].len() <= SEEN_SEGMENT_MAX && seen.len() < SEEN_MAX {
            seen.insert(segments[k].into(), c);
        }
    }
    out.into_iter().map(|c| c.unwrap_or_default()).collect()
}

type HashMap<K, V> = foldhash::HashMap<K, V>;

/// Whether a text may be cut before byte `p` (0 < `p` < its length), its tokens in both
/// encodings being those of the two sides: byte `p - 1` is an ASCII letter or digit, and
/// byte `p` is ASCII and none of a letter, a digit or `'`.
///
/// Why this is exact: both encodings split a text with a pre-tokenizer regex, left to right,
/// into pieces that cover it, and encode each piece alone. Every alternative of either regex
/// that can take a letter or a digit (letter runs with an optional leading non-letter and a
/// contraction suffix, `'s`-style contractions, `\p{N}{1,3}`) can only go on with another
/// letter, digit, mark (never ASCII) or an apostrophe; so a piece ends at `p`, and the pieces
/// after it are found from `p` on alone (no alternative looks behind). The pieces before `p`
/// are found alike in `text[..p]`: the only parts of the regexes that take the end of the text
/// differently from a character there (`\s+$`, `\s+(?!\S)`) must have consumed whitespace
/// just before it, and byte `p - 1` is a letter or a digit. The tests compare with whole-text
/// tiktoken on texts made to break this.
fn cut_before(b: &[u8], p: usize) -> bool {
    CLASS[usize::from(b[p - 1])] & AFTER != 0 && CLASS[usize::from(b[p])] & BEFORE != 0
}

/// `cut_before` as a table (a cut may come after an `AFTER` byte, before a `BEFORE` byte):
/// the scan runs over every byte of a build.
const CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 128 {
        let c = i as u8;
        t[i] = if c.is_ascii_alphanumeric() {
            AFTER
        } else if c == b'\'' {
            0
        } else {
            BEFORE
        };
        i += 1;
    }
    t
};
const AFTER: u8 = 1;
const BEFORE: u8 = 2;

/// The text in segments whose token counts add up to the text's (`cut_before`).
fn segments(text: &str) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= b.len() {
            return None;
        }
        let end = next_cut(text, start + 1);
        let seg = &text[start..end];
        start = end;
        Some(seg)
    })
}

/// The first cut at or after byte `at` (`cut_before`), or the text's end.
fn next_cut(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut p = at.max(1);
    while p < b.len() {
        if cut_before(b, p) {
            return p;
        }
        p += 1;
    }
    b.len()
}

/// A plain-text table, aligned, with a total line; then the source and its ratio to
/// /.well-known/ai when the build came from an OpenAPI document. With `limit`, only that many
/// files are listed (/.well-known/ai and the largest by o200k_base tokens, in build order),
/// and one line counts the rest.
pub fn table(rows: &[Row], source: Option<&Row>, limit: Option<usize>) -> String {
    let total = Total::of(rows);
    let ai = ai_documents();
    let width = rows
        .iter()
        .map(|r| r.paths().chars().count())
        .chain(source.map(|s| s.path.chars().count()))
        .max()
        .unwrap_or(0)
        .max("document".len());
    let line = |name: &str, bytes: usize, o: usize, c: usize| {
        format!("{name:<width$}  {bytes:>9}  {o:>10}  {c:>11}\n")
    };
    let mut out = format!(
        "{:<width$}  {:>9}  {:>10}  {:>11}\n",
        "document", "bytes", "o200k_base", "cl100k_base"
    );
    let shown: Vec<&Row> = match limit {
        Some(n) if rows.len() > n => {
            // /.well-known/ai always, the document the ratio is about; then the largest.
            let mut largest: Vec<usize> = (0..rows.len()).collect();
            largest.sort_by_key(|&i| {
                (
                    rows[i].path != ai.document,
                    std::cmp::Reverse(rows[i].o200k_base),
                )
            });
            largest.truncate(n);
            largest.sort_unstable();
            largest.into_iter().map(|i| &rows[i]).collect()
        }
        _ => rows.iter().collect(),
    };
    for r in &shown {
        out.push_str(&line(&r.paths(), r.bytes, r.o200k_base, r.cl100k_base));
    }
    if shown.len() < rows.len() {
        let rest: Vec<Row> = rows
            .iter()
            .filter(|r| !shown.iter().any(|s| std::ptr::eq(*s, *r)))
            .cloned()
            .collect();
        let t = Total::of(&rest);
        out.push_str(&line(
            &format!("… {} more (--verbose lists them)", rest.len()),
            t.bytes,
            t.o200k_base,
            t.cl100k_base,
        ));
    }
    out.push_str(&line(
        "total",
        total.bytes,
        total.o200k_base,
        total.cl100k_base,
    ));
    if let Some(s) = source {
        out.push_str(&line(&s.path, s.bytes, s.o200k_base, s.cl100k_base));
        if let Some(r) = Ratio::of(s, rows) {
            out.push_str(&format!(
                "the source takes {}x the tokens of {}{} (o200k_base; {}x cl100k_base)\n",
                r.o200k_base,
                ai.document,
                if rows.iter().any(|r| r.path.starts_with(ai.parts))
                    && !rows.iter().any(|r| r.path == ai.split_index)
                {
                    " and its parts"
                } else {
                    ""
                },
                r.cl100k_base
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{JSON, Serving};

    fn doc(path: &str, body: &str) -> Artifact {
        let serving = Serving {
            content_type: JSON,
            cache_control: "public",
            cors: true,
        };
        Artifact::document(path, body.as_bytes().to_vec(), serving)
    }

    fn row(path: &str, bytes: usize, o: usize, c: usize) -> Row {
        Row {
            path: path.into(),
            also: Vec::new(),
            bytes,
            o200k_base: o,
            cl100k_base: c,
        }
    }

    #[test]
    fn counts_documents_in_both_encodings() {
        let body = "{\"aiendpoint\": \"1.0\", \"service\": {\"name\": \"Notes\"}}\n";
        let arts = [
            doc("/.well-known/ai", body),
            doc("/llms.txt", "# Notes\n"),
            doc("/ai", body),
        ];
        let rows = count(&arts);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].bytes, body.len());
        assert!(rows[0].o200k_base > 5 && rows[0].o200k_base < body.len());
        assert!(rows[0].cl100k_base > 5);
        assert_eq!(count_serial(&arts), rows);
        // A twin is one row with both paths, counted once in the total.
        assert_eq!(rows[0].also, ["/ai"]);
        let t = table(&rows, None, None);
        assert!(t.contains("/.well-known/ai, /ai "), "{t}");
        assert_eq!(Total::of(&rows).bytes, body.len() + "# Notes\n".len());
    }

    #[test]
    fn host_files_are_not_counted() {
        let mut headers = doc("/_headers", "/ai\n  Content-Type: application/json\n");
        headers.serving = None;
        let rows = count(&[headers, doc("/ai", "{}\n")]);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].path, "/ai");
    }

    #[test]
    fn table_aligns_columns_and_totals() {
        let rows = vec![row("/ai", 10, 3, 4), row("/llms.txt", 20, 5, 6)];
        let t = table(&rows, None, None);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("document  "), "{t}");
        assert!(lines[1].ends_with("          4"), "{t}");
        assert_eq!(
            lines[3], "total             30           8           10",
            "{t}"
        );
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{t}");
    }

    #[test]
    fn ratio_compares_the_source_with_the_ai_document() {
        let rows = vec![row("/ai", 10, 3, 4), row(ai_documents().document, 10, 3, 4)];
        let source = row("openapi.json", 300, 100, 90);
        let r = Ratio::of(&source, &rows).unwrap();
        assert_eq!((r.o200k_base, r.cl100k_base), (33.33, 22.5));
        let t = table(&rows, Some(&source), None);
        assert!(t.contains("33.33x the tokens of /.well-known/ai"), "{t}");
        assert!(Ratio::of(&source, &rows[..1]).is_none());
        assert!(Ratio::of(&source, &[row(ai_documents().document, 0, 0, 0)]).is_none());
    }

    /// A split /.well-known/ai is read with its parts; an opt-in split's parts repeat the
    /// whole document, so they are not counted.
    #[test]
    fn ratio_counts_the_parts_of_a_split_document() {
        let source = row("openapi.json", 300, 100, 100);
        let mut rows = vec![
            row(ai_documents().document, 10, 5, 5),
            row("/.well-known/ai-services/a.json", 10, 5, 5),
        ];
        assert_eq!(Ratio::of(&source, &rows).unwrap().o200k_base, 10.0);
        let t = table(&rows, Some(&source), None);
        assert!(t.contains("of /.well-known/ai and its parts"), "{t}");
        rows.push(row(ai_documents().split_index, 10, 1, 1));
        assert_eq!(Ratio::of(&source, &rows).unwrap().o200k_base, 20.0);
    }

    /// Whole-text tiktoken, the reference the segment cache must match.
    fn tiktoken(text: &str) -> (usize, usize) {
        (
            tiktoken_rs::o200k_base_singleton()
                .encode_ordinary(text)
                .len(),
            tiktoken_rs::cl100k_base_singleton()
                .encode_ordinary(text)
                .len(),
        )
    }

    /// Texts made to break `cut_before`: every kind of character on either side of a cut,
    /// contractions, case changes, whitespace runs, line ends, marks, CJK, emoji.
    fn awkward() -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for n in [1, 2, 3, 4, 7, 100, 1000] {
            for unit in [
                " ",
                "\t",
                "\n",
                "\r\n",
                " \n",
                "\u{a0}",
                "\u{3000}",
                "0123456789",
                "a",
                "Ab",
                "ABC",
                "aBcDeF",
                "😀👨\u{200d}👩\u{200d}👧🇺🇸",
                "漢字かなカナ한국어",
                "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
                "/",
                "it's THEY'RE we'll I'D 's 't ",
                "e\u{301}a\u{308}x\u{20dd}",
                "مرحبا بالعالم ",
                "a\u{200b}b\u{feff}c",
                " \t\u{a0}\u{2003}\r\n\u{85}\u{2028}\u{b}\u{c}",
                "١٢٣四五六Ⅻ²½",
                "x'",
                "a1'b2\"",
                "{\"a\": [1, 2.5e10, null], \"b\\n\": \"x\\u00e9\"}\r\n",
                "word ",
                "ß İ ǅ ʰ ",
            ] {
                v.push(unit.repeat(n));
                v.push(format!("x{}y", unit.repeat(n)));
                v.push(format!("9{}'s", unit.repeat(n)));
            }
        }
        // Deterministic mixes of the same pieces.
        let pieces = [
            " ", "  ", "\n", "\r\n", "\t", "a", "Ab", "ABC", "1", "12345", "'s", "'LL", "😀", "漢",
            "é", "e\u{301}", "\u{a0}", ".", "/", "//", "\"", "{", "}", "-", "_", "\u{3000}", "x'",
            " '", "ß", "İ", "ǅ", "ʰ", "\u{300}",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..600 {
            let mut s = String::new();
            for _ in 0..1 + i % 150 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            v.push(s);
        }
        v
    }

    #[test]
    fn counts_equal_whole_text_tiktoken() {
        for t in awkward() {
            assert_eq!(count_text(&t), tiktoken(&t), "{t:?}");
        }
    }

    /// Counts computed by tiktoken (tiktoken-rs 0.12.1, whole text) before the segment cache.
    #[test]
    fn known_counts() {
        for (text, counts) in [
            ("hello world", (2, 2)),
            (
                "{\"aiendpoint\": \"1.0\", \"service\": {\"name\": \"Notes\", \"description\": \"Keeps notes; it's fast.\"}}\n",
                (30, 31),
            ),
            ("  don't STOP\r\n\r\n  12345 😀 漢字 it's'll", (14, 17)),
        ] {
            assert_eq!(count_text(text), counts, "{text:?}");
        }
    }

    /// A big text and many documents count as whole-text tiktoken does, then again from the
    /// cache.
    #[test]
    fn big_texts_and_many_documents() {
        let mut big = String::from("{\n");
        let mut i = 0;
        while big.len() < 3 << 20 {
            big.push_str(&format!(
                "  \"op{i}\": {{\"description\": \"Lists the {i} repos'  items.\\nSee https://x.y/z?q={i}\", \"type\": \"string\", \"é{i}\": [{i}, -{i}.5e3]}},\n"
            ));
            i += 1;
        }
        big.push('}');
        assert_eq!(segments(&big).collect::<String>(), big);
        assert_eq!(count_text(&big), tiktoken(&big));
        let texts: Vec<String> = awkward()
            .into_iter()
            .step_by(7)
            .chain([big.clone(), "{}".into(), big])
            .collect();
        let want: Vec<(usize, usize)> = texts.iter().map(|t| tiktoken(t)).collect();
        assert_eq!(counts(&texts), want);
        assert_eq!(counts(&texts), want, "from the cache");
        assert_eq!(counts::<&str>(&[]), vec![]);
        assert_eq!(count_text(""), (0, 0));
    }

    #[test]
    fn segments_cut_only_after_a_letter_or_digit() {
        let t = "{\"type\":\"object\", \"x1\": it's  ok\n}";
        let segs: Vec<&str> = segments(t).collect();
        assert_eq!(
            segs,
            [
                "{\"type",
                "\":\"object",
                "\", \"x1",
                "\": it's",
                "  ok",
                "\n}"
            ]
        );
        assert_eq!(segments("é\"é").count(), 1);
        for c in 0..=255u8 {
            let want = |after: bool| {
                if after {
                    c.is_ascii_alphanumeric()
                } else {
                    c.is_ascii() && !c.is_ascii_alphanumeric() && c != b'\''
                }
            };
            assert_eq!(cut_before(&[c, b' '], 1), want(true), "{c}");
            assert_eq!(cut_before(&[b'a', c], 1), want(false), "{c}");
        }
        assert_eq!(next_cut("ab cd", 0), 2);
        assert_eq!(next_cut("ab cd", 3), 5);
    }

    /// A build of hundreds of files lists the largest and counts the rest on one line.
    #[test]
    fn a_long_table_lists_the_largest_files() {
        let mut rows: Vec<Row> = (0..40).map(|i| row(&format!("/f{i}"), i, i, i)).collect();
        rows.push(row(ai_documents().document, 1, 1, 1));
        let n = TABLE_ROWS;
        let t = table(&rows, None, Some(n));
        assert_eq!(t.lines().count(), 1 + n + 1 + 1, "{t}");
        // /.well-known/ai always, then the largest.
        assert!(t.contains(&format!("{} ", ai_documents().document)), "{t}");
        assert!(
            t.contains("/f39 ") && !t.contains(&format!("/f{} ", 40 - n)),
            "{t}"
        );
        assert!(
            t.contains(&format!("… {} more (--verbose lists them)", 41 - n)),
            "{t}"
        );
        assert!(t.lines().last().unwrap().starts_with("total"), "{t}");
        // In build order.
        let first = format!("/f{} ", 41 - n);
        assert!(t.find(&first).unwrap() < t.find("/f39 ").unwrap(), "{t}");
    }
}
