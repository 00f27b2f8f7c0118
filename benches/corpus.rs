//! (b) The largest OpenAPI files of ../shared/corpus into every target, each beside its floor:
//! reading the file and parsing + re-serialising it with serde_json alone (YAML parsed with
//! serde_norway into a `serde_json::Value`). Skips, with a message, when ../shared is absent.
//!
//! `WELLGEN_BENCH_ONCE=floor|build FILE` runs one of the two once and exits: scripts/bench runs
//! that under callgrind (instruction counts) and `/usr/bin/time -v` (peak RSS).

mod support;

use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group};

fn corpus(c: &mut Criterion) {
    let Some(files) = support::big_corpus() else {
        return;
    };
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10);
    for file in &files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        g.bench_with_input(BenchmarkId::new("floor", name), file, |b, f| {
            b.iter(|| support::floor(f))
        });
        g.bench_with_input(BenchmarkId::new("all_targets", name), file, |b, f| {
            b.iter(|| support::build_all(f))
        });
    }
    g.finish();
}

criterion_group!(benches, corpus);

fn main() {
    if let Ok(mode) = std::env::var("WELLGEN_BENCH_ONCE") {
        let file = std::env::args()
            .skip(1)
            .find(|a| !a.starts_with('-'))
            .expect("WELLGEN_BENCH_ONCE needs a FILE argument");
        let file = Path::new(&file);
        match mode.as_str() {
            "floor" => println!("floor: {} bytes re-serialised", support::floor(file)),
            "build" => println!("build: {} artifacts", support::build_all(file).len()),
            other => panic!("WELLGEN_BENCH_ONCE is floor or build, not {other}"),
        }
        return;
    }
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
