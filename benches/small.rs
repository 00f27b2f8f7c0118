//! (a) One small service.toml (examples/bookshelf) into every target: in memory, and as the
//! command line does it (written to a folder). `WELLGEN_BENCH_ONCE=tokens-load` instead prints
//! how long loading the two token encodings takes; `WELLGEN_BENCH_ONCE=tokens-count` with
//! `WELLGEN_BENCH_TOKENS=PATH` (a file, or a folder such as a build's output) how long
//! counting its files takes, against whole-text tiktoken, whose counts it checks.

mod support;

use std::path::Path;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use wellgen::cli::{Cli, run};

fn bookshelf() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bookshelf/service.toml")
}

fn small(c: &mut Criterion) {
    let source = bookshelf();
    let mut g = c.benchmark_group("small");
    g.bench_function("bookshelf/emit_all", |b| {
        b.iter(|| support::build_all(&source))
    });
    let out = tempfile::tempdir().expect("tempdir");
    let args = [
        "wellgen",
        "build",
        source.to_str().expect("UTF-8 path"),
        "-o",
        out.path().to_str().expect("UTF-8 path"),
        "--quiet",
    ];
    let cli = <Cli as clap::Parser>::parse_from(args);
    g.bench_function("bookshelf/build_cli", |b| {
        b.iter(|| assert_eq!(run(&cli), 0))
    });
    g.finish();
}

criterion_group!(benches, small);

fn main() {
    if std::env::var("WELLGEN_BENCH_ONCE").as_deref() == Ok("tokens-load") {
        let t = Instant::now();
        tiktoken_rs::o200k_base_singleton();
        let o = t.elapsed();
        let t = Instant::now();
        tiktoken_rs::cl100k_base_singleton();
        let c = t.elapsed();
        let artifacts = support::build_all(&bookshelf());
        let t = Instant::now();
        let rows = wellgen::tokens::count(&artifacts);
        println!(
            "token encodings: o200k_base loads in {:.0} ms, cl100k_base in {:.0} ms; counting bookshelf's {} documents then takes {:.1} ms",
            o.as_secs_f64() * 1e3,
            c.as_secs_f64() * 1e3,
            rows.len(),
            t.elapsed().as_secs_f64() * 1e3
        );
        return;
    }
    if std::env::var("WELLGEN_BENCH_ONCE").as_deref() == Ok("tokens-count") {
        tokens_count();
        return;
    }
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}

/// Counting every file under `WELLGEN_BENCH_TOKENS` as a build's documents, cold then warm,
/// against tiktoken on each whole text (one thread).
fn tokens_count() {
    use wellgen::emit::{Artifact, JSON, Serving};
    let root = std::env::var("WELLGEN_BENCH_TOKENS").expect("WELLGEN_BENCH_TOKENS=PATH");
    let serving = Serving {
        content_type: JSON,
        cache_control: "public",
        cors: true,
    };
    let artifacts: Vec<Artifact> = walkdir::WalkDir::new(&root)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("readable folder"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let body = std::fs::read(e.path()).expect("readable file");
            Artifact::document(e.path().display().to_string(), body, serving.clone())
        })
        .collect();
    let bytes: usize = artifacts.iter().map(|a| a.body.len()).sum();
    let t = Instant::now();
    let (o200k, cl100k) = (
        tiktoken_rs::o200k_base_singleton(),
        tiktoken_rs::cl100k_base_singleton(),
    );
    let load = t.elapsed();
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    // The first count is cold (every distinct segment tokenised), later ones find them seen.
    let t = Instant::now();
    let rows = wellgen::tokens::count(&artifacts);
    let cold = ms(t);
    let t = Instant::now();
    let serial = wellgen::tokens::count_serial(&artifacts);
    let warm = ms(t);
    let t = Instant::now();
    let whole: Vec<(usize, usize)> = artifacts
        .iter()
        .map(|a| {
            let text = String::from_utf8_lossy(&a.body);
            (
                o200k.encode_ordinary(&text).len(),
                cl100k.encode_ordinary(&text).len(),
            )
        })
        .collect();
    let tiktoken = ms(t);
    let got: Vec<(usize, usize)> = rows.iter().map(|r| (r.o200k_base, r.cl100k_base)).collect();
    assert_eq!(got, whole, "counts differ from whole-text tiktoken");
    assert_eq!(serial, rows);
    let total = whole.iter().fold((0, 0), |s, c| (s.0 + c.0, s.1 + c.1));
    println!(
        "{} files, {bytes} bytes, {} o200k_base and {} cl100k_base tokens (equal to whole-text tiktoken)\n\
         encodings load in {:.0} ms (one thread); count: {cold:.0} ms (cold), {warm:.0} ms again; \
         whole-text tiktoken, both encodings on one thread: {tiktoken:.0} ms",
        artifacts.len(),
        total.0,
        total.1,
        load.as_secs_f64() * 1e3,
    );
}
