//! Token accounting, the metric these specs exist for: what each document costs an agent to
//! read, counted offline with the o200k_base and cl100k_base encodings.

use serde::Serialize;

use crate::emit::Artifact;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub path: String,
    pub bytes: usize,
    pub o200k_base: usize,
    pub cl100k_base: usize,
}

/// Counts every served document; identical bodies (aliases) are tokenised once.
pub fn count(artifacts: &[Artifact]) -> Vec<Row> {
    let docs: Vec<&Artifact> = artifacts.iter().filter(|a| a.serving.is_some()).collect();
    let texts: Vec<String> = docs
        .iter()
        .map(|a| String::from_utf8_lossy(&a.body).into_owned())
        .collect();
    // The two encodings load and run independently: one thread each.
    let (o200k, cl100k) = std::thread::scope(|s| {
        let o = s.spawn(|| counts(tiktoken_rs::o200k_base_singleton(), &texts));
        let c = s.spawn(|| counts(tiktoken_rs::cl100k_base_singleton(), &texts));
        (
            o.join().expect("o200k counting"),
            c.join().expect("cl100k counting"),
        )
    });
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

/// A plain-text table, aligned, with a total line.
pub fn table(rows: &[Row]) -> String {
    let width = rows.iter().map(|r| r.path.len()).max().unwrap_or(4).max(8);
    let mut out = format!(
        "{:<width$}  {:>8}  {:>10}  {:>11}\n",
        "document", "bytes", "o200k_base", "cl100k_base"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<width$}  {:>8}  {:>10}  {:>11}\n",
            r.path, r.bytes, r.o200k_base, r.cl100k_base
        ));
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
        assert_eq!(count_text("hello world"), (2, 2));
    }

    #[test]
    fn table_aligns_columns() {
        let rows = vec![Row {
            path: "/ai".into(),
            bytes: 10,
            o200k_base: 3,
            cl100k_base: 4,
        }];
        let t = table(&rows);
        assert!(t.starts_with("document  "), "{t}");
        assert!(t.lines().nth(1).unwrap().ends_with("          4"), "{t}");
    }
}
