//! Imports every OpenAPI document under a folder, builds every target from it through the
//! library, and prints counts: built, rejected by reason, panics (each file runs under
//! `catch_unwind`, so one panic is counted, not fatal).
//!
//! `cargo run --release --example corpus -- /work/shared/corpus`
//!
//! Files that are not entry documents (fragments of multi-file APIs, reached only by `$ref`)
//! are counted apart. Each document is also built a second time with `base_url` supplied, as a
//! completing service.toml would, to show what the import gives once that one key is set.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use wellgen::diag::Diagnostics;
use wellgen::emit::{self, Target};
use wellgen::source::openapi::{self, Options};

#[derive(Default)]
struct Counts {
    built: usize,
    rejected: BTreeMap<String, usize>,
    panics: Vec<PathBuf>,
    warnings: usize,
}

enum Outcome {
    Built { warnings: usize },
    Rejected(String),
    NotEntry,
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpus".into());
    let mut files = Vec::new();
    walk(Path::new(&root), &mut files);
    files.sort();
    // Keep panic messages short: the count is what matters, the file is printed below.
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let started = Instant::now();
    let (mut plain, mut with_base) = (Counts::default(), Counts::default());
    let mut fragments = 0;
    let mut slowest = (0.0, PathBuf::new());
    for file in &files {
        let t = Instant::now();
        for (counts, set_base) in [(&mut plain, false), (&mut with_base, true)] {
            match catch_unwind(AssertUnwindSafe(|| build(file, set_base))) {
                Ok(Outcome::Built { warnings }) => {
                    counts.built += 1;
                    counts.warnings += warnings;
                }
                Ok(Outcome::Rejected(reason)) => *counts.rejected.entry(reason).or_default() += 1,
                Ok(Outcome::NotEntry) => {
                    if !set_base {
                        fragments += 1;
                    }
                }
                Err(_) => counts.panics.push(file.clone()),
            }
        }
        let secs = t.elapsed().as_secs_f64();
        if secs > slowest.0 {
            slowest = (secs, file.clone());
        }
    }
    println!("corpus: {root}");
    println!(
        "files: {} ({} entry documents, {fragments} fragments or other files)",
        files.len(),
        files.len() - fragments
    );
    report("as imported", &plain);
    report("with base_url supplied by service.toml", &with_base);
    println!(
        "time: {:.1}s in all, slowest {:.2}s ({})",
        started.elapsed().as_secs_f64(),
        slowest.0,
        slowest.1.display()
    );
    if !plain.panics.is_empty() || !with_base.panics.is_empty() {
        std::process::exit(1);
    }
}

fn report(title: &str, c: &Counts) {
    let rejected: usize = c.rejected.values().sum();
    println!(
        "\n{title}: built {}, rejected {rejected}, panics {} ({} warnings in built ones)",
        c.built,
        c.panics.len(),
        c.warnings
    );
    let mut reasons: Vec<(&String, &usize)> = c.rejected.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (reason, n) in reasons {
        println!("  {n:5}  {reason}");
    }
    for p in &c.panics {
        println!("  PANIC  {}", p.display());
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("json" | "yaml" | "yml")
        ) {
            out.push(p);
        }
    }
}

fn build(file: &Path, set_base: bool) -> Outcome {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Outcome::Rejected("not UTF-8 text".into());
    };
    if !is_entry(&text) {
        return Outcome::NotEntry;
    }
    let mut diags = Diagnostics::default();
    let Some(imported) = openapi::import_text(Some(file), &text, &Options::default(), &mut diags)
    else {
        return Outcome::Rejected(format!("import: {}", first_error(&diags)));
    };
    let mut doc = if set_base {
        let mut d = imported.doc;
        d.service.base_url = Some("https://api.example.com".into());
        for (key, diag) in imported.deferred {
            if key != "service.base_url" {
                diags.push(diag);
            }
        }
        d
    } else {
        openapi::finish(imported, &mut diags)
    };
    if diags.has_errors() {
        return Outcome::Rejected(format!("import: {}", first_error(&diags)));
    }
    doc.source = None;
    let Some(service) = wellgen::model::lower(doc, &mut diags) else {
        return Outcome::Rejected(format!("model: {}", first_error(&diags)));
    };
    let artifacts = emit::emit_all(&service, &Target::ALL, &mut diags);
    if diags.has_errors() || artifacts.is_empty() {
        return Outcome::Rejected(format!("emit: {}", first_error(&diags)));
    }
    Outcome::Built {
        warnings: diags.warning_count(),
    }
}

/// An entry document names its version at the top level; fragments do not.
fn is_entry(text: &str) -> bool {
    let head: String = text.chars().take(2000).collect();
    head.lines().any(|l| {
        let l = l.trim_start_matches('\u{feff}');
        l.starts_with("openapi:")
            || l.starts_with("swagger:")
            || l.starts_with("\"openapi\"")
            || l.starts_with("\"swagger\"")
    }) || (head.trim_start().starts_with('{')
        && (head.contains("\"openapi\"") || head.contains("\"swagger\"")))
}

/// The first error, with file names, pointers and quoted values taken out so that like
/// problems count together.
fn first_error(diags: &Diagnostics) -> String {
    let Some(d) = diags.iter().find(|d| d.is_error()) else {
        return "no error reported".into();
    };
    let mut m = d.message.clone();
    // `file#/pointer: message` → `message`.
    if let Some((head, rest)) = m.split_once(": ")
        && (head.contains('#')
            || head.contains('/')
            || head.ends_with(".yaml")
            || head.ends_with(".json"))
    {
        m = rest.to_string();
    }
    if let Some(i) = m.find(" (imported from") {
        m.truncate(i);
    }
    // Absolute paths name files of this machine: fold them too.
    let m: Vec<&str> = m
        .split(' ')
        .map(|w| {
            if w.starts_with('/') && w[1..].contains('/') {
                "…"
            } else {
                w
            }
        })
        .collect();
    let m = m.join(" ");
    let mut out = String::new();
    let mut quoted = false;
    for c in m.chars() {
        if c == '`' {
            quoted = !quoted;
            if quoted {
                out.push_str("`…`");
            }
        } else if !quoted {
            out.push(if c.is_ascii_digit() { '#' } else { c });
        }
    }
    let field = d
        .field
        .as_deref()
        .map(|f| {
            let parts: Vec<&str> = f
                .split('.')
                .map(|p| {
                    if p.chars().all(|c| c.is_ascii_digit()) {
                        "N"
                    } else {
                        p
                    }
                })
                .collect();
            format!(" [{}]", parts.join("."))
        })
        .unwrap_or_default();
    let mut line = format!("{out}{field}");
    if line.chars().count() > 150 {
        line = line.chars().take(150).collect::<String>() + "…";
    }
    line
}
