//! Token accounting, the metric these specs exist for: what each document costs an agent to
//! read, counted offline with the o200k_base and cl100k_base encodings.
//!
//! Loading the two encodings costs more than counting a small build (docs/PERFORMANCE.md has the
//! figures), so a build starts loading them in the background (`preload`) while it compiles.

use serde::Serialize;

use crate::emit::Artifact;

/// The path of the document whose size the source is compared with.
pub const AI_DOCUMENT: &str = crate::emit::targets::ai::PATHS[0];
const PARTS: &str = crate::emit::targets::ai::split::DIR;
const SPLIT_INDEX: &str = crate::emit::targets::ai::split::INDEX_PATH;

/// Files listed one by one in a table: a big API's build writes hundreds.
pub const TABLE_ROWS: usize = 6;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub path: String,
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
        rows.iter().find(|r| r.path == AI_DOCUMENT)?;
        let opt_in = rows.iter().any(|r| r.path == SPLIT_INDEX);
        let ai = Total::of(
            &rows
                .iter()
                .filter(|r| r.path == AI_DOCUMENT || (!opt_in && r.path.starts_with(PARTS)))
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

/// Counts every served document; identical bodies (aliases) are tokenised once. The two
/// encodings run on one thread each.
pub fn count(artifacts: &[Artifact]) -> Vec<Row> {
    let (docs, texts) = served(artifacts);
    let (o200k, cl100k) = std::thread::scope(|s| {
        let o = s.spawn(|| counts(tiktoken_rs::o200k_base_singleton(), &texts));
        let c = s.spawn(|| counts(tiktoken_rs::cl100k_base_singleton(), &texts));
        (
            o.join().expect("o200k counting"),
            c.join().expect("cl100k counting"),
        )
    });
    rows(&docs, &o200k, &cl100k)
}

/// `count` on the calling thread: for batch builds, whose workers already fill every core.
pub fn count_serial(artifacts: &[Artifact]) -> Vec<Row> {
    let (docs, texts) = served(artifacts);
    let o200k = counts(tiktoken_rs::o200k_base_singleton(), &texts);
    let cl100k = counts(tiktoken_rs::cl100k_base_singleton(), &texts);
    rows(&docs, &o200k, &cl100k)
}

fn served(artifacts: &[Artifact]) -> (Vec<&Artifact>, Vec<String>) {
    let docs: Vec<&Artifact> = artifacts.iter().filter(|a| a.serving.is_some()).collect();
    let texts = docs
        .iter()
        .map(|a| String::from_utf8_lossy(&a.body).into_owned())
        .collect();
    (docs, texts)
}

fn rows(docs: &[&Artifact], o200k: &[usize], cl100k: &[usize]) -> Vec<Row> {
    docs.iter()
        .enumerate()
        .map(|(i, a)| Row {
            path: a.path.clone(),
            bytes: a.body.len(),
            o200k_base: o200k[i],
            cl100k_base: cl100k[i],
        })
        .collect()
}

/// Tokens of a text in both encodings, `(o200k_base, cl100k_base)`.
pub fn count_text(text: &str) -> (usize, usize) {
    let t = [text.to_string()];
    std::thread::scope(|s| {
        let o = s.spawn(|| counts(tiktoken_rs::o200k_base_singleton(), &t)[0]);
        let c = s.spawn(|| counts(tiktoken_rs::cl100k_base_singleton(), &t)[0]);
        (
            o.join().expect("o200k counting"),
            c.join().expect("cl100k counting"),
        )
    })
}

fn counts(bpe: &tiktoken_rs::CoreBPE, texts: &[String]) -> Vec<usize> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    texts
        .iter()
        .map(|t| {
            if let Some((_, n)) = seen.iter().find(|(s, _)| *s == t.as_str()) {
                return *n;
            }
            let n = bpe.encode_ordinary(t).len();
            seen.push((t, n));
            n
        })
        .collect()
}

/// A plain-text table, aligned, with a total line; then the source and its ratio to
/// /.well-known/ai when the build came from an OpenAPI document. With `limit`, only that many
/// files are listed (/.well-known/ai and the largest by o200k_base tokens, in build order),
/// and one line counts the rest.
pub fn table(rows: &[Row], source: Option<&Row>, limit: Option<usize>) -> String {
    let total = Total::of(rows);
    let width = rows
        .iter()
        .chain(source)
        .map(|r| r.path.len())
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
                    rows[i].path != AI_DOCUMENT,
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
        out.push_str(&line(&r.path, r.bytes, r.o200k_base, r.cl100k_base));
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
                "the source takes {}x the tokens of {AI_DOCUMENT}{} (o200k_base; {}x cl100k_base)\n",
                r.o200k_base,
                if rows.iter().any(|r| r.path.starts_with(PARTS))
                    && !rows.iter().any(|r| r.path == SPLIT_INDEX)
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
            bytes,
            o200k_base: o,
            cl100k_base: c,
        }
    }

    #[test]
    fn counts_documents_in_both_encodings() {
        let body = "{\"aiendpoint\": \"1.0\", \"service\": {\"name\": \"Notes\"}}\n";
        let arts = [doc("/.well-known/ai", body), doc("/ai", body)];
        let rows = count(&arts);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].bytes, body.len());
        assert!(rows[0].o200k_base > 5 && rows[0].o200k_base < body.len());
        assert!(rows[0].cl100k_base > 5);
        assert_eq!(rows[0].o200k_base, rows[1].o200k_base);
        assert_eq!(count_serial(&arts), rows);
        assert_eq!(count_text("hello world"), (2, 2));
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
        let rows = vec![row("/ai", 10, 3, 4), row(AI_DOCUMENT, 10, 3, 4)];
        let source = row("openapi.json", 300, 100, 90);
        let r = Ratio::of(&source, &rows).unwrap();
        assert_eq!((r.o200k_base, r.cl100k_base), (33.33, 22.5));
        let t = table(&rows, Some(&source), None);
        assert!(t.contains("33.33x the tokens of /.well-known/ai"), "{t}");
        assert!(Ratio::of(&source, &rows[..1]).is_none());
        assert!(Ratio::of(&source, &[row(AI_DOCUMENT, 0, 0, 0)]).is_none());
    }

    /// A split /.well-known/ai is read with its parts; an opt-in split's parts repeat the
    /// whole document, so they are not counted.
    #[test]
    fn ratio_counts_the_parts_of_a_split_document() {
        let source = row("openapi.json", 300, 100, 100);
        let mut rows = vec![
            row(AI_DOCUMENT, 10, 5, 5),
            row("/.well-known/ai-services/a.json", 10, 5, 5),
        ];
        assert_eq!(Ratio::of(&source, &rows).unwrap().o200k_base, 10.0);
        let t = table(&rows, Some(&source), None);
        assert!(t.contains("of /.well-known/ai and its parts"), "{t}");
        rows.push(row(SPLIT_INDEX, 10, 1, 1));
        assert_eq!(Ratio::of(&source, &rows).unwrap().o200k_base, 20.0);
    }

    /// A build of hundreds of files lists the largest and counts the rest on one line.
    #[test]
    fn a_long_table_lists_the_largest_files() {
        let mut rows: Vec<Row> = (0..40).map(|i| row(&format!("/f{i}"), i, i, i)).collect();
        rows.push(row(AI_DOCUMENT, 1, 1, 1));
        let n = TABLE_ROWS;
        let t = table(&rows, None, Some(n));
        assert_eq!(t.lines().count(), 1 + n + 1 + 1, "{t}");
        // /.well-known/ai always, then the largest.
        assert!(t.contains(&format!("{AI_DOCUMENT} ")), "{t}");
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
