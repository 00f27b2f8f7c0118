//! (a) One small service.toml (examples/bookshelf) into every target: in memory, and as the
//! command line does it (written to a folder). `WELLGEN_BENCH_ONCE=tokens-load` instead prints
//! how long loading the two token encodings takes.

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
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
