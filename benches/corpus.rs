//! (b) The largest OpenAPI files of ../shared/corpus into every target, each beside its floor:
//! reading the file and parsing + re-serialising it with serde_json alone (YAML parsed with
//! libyaml into a `serde_json::Value`). Skips, with a message, when ../shared is absent.
//!
//! `WELLGEN_BENCH_ONCE=floor|build|output FILE` runs one of them once and exits: scripts/bench
//! runs that under callgrind (instruction counts) and `/usr/bin/time -v` (peak RSS). `output`
//! serialises the build's JSON documents from ready values: callgrind with
//! `--toggle-collect=*serialise_outputs*` counts that alone, the cost of the output's size.

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
        let source = support::source_for(file);
        g.bench_with_input(BenchmarkId::new("all_targets", name), &source, |b, f| {
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
        let original = Path::new(&file);
        let source = support::source_for(original);
        let file = source.as_path();
        match mode.as_str() {
            "floor" => println!("floor: {} bytes re-serialised", support::floor(original)),
            "build" => println!("build: {} artifacts", support::build_all(file).len()),
            "output" => {
                let values = support::output_values(&support::build_all(file));
                let bytes = support::serialise_outputs(&values);
                println!("output: {} JSON documents, {bytes} bytes", values.len());
            }
            other => panic!("WELLGEN_BENCH_ONCE is floor, build or output, not {other}"),
        }
        return;
    }
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
