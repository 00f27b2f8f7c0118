//! (c) A batch of 1,000 generated small service.toml files built by `wellgen build DIR`, as the
//! command line does it: fresh (no output yet) and again (every file unchanged).

mod support;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use wellgen::cli::{Cli, run};

const SERVICES: usize = 1_000;

fn cli(dir: &std::path::Path) -> Cli {
    let args = [
        "wellgen",
        "build",
        dir.to_str().expect("UTF-8 path"),
        "--quiet",
    ];
    <Cli as clap::Parser>::parse_from(args)
}

fn batch(c: &mut Criterion) {
    let mut g = c.benchmark_group("batch");
    g.sample_size(10);
    g.bench_function("1000_services/fresh", |b| {
        b.iter_batched(
            || {
                let dir = tempfile::tempdir().expect("tempdir");
                support::write_services(dir.path(), SERVICES);
                dir
            },
            |dir| {
                assert_eq!(run(&cli(dir.path())), 0);
                dir
            },
            BatchSize::PerIteration,
        )
    });
    let dir = tempfile::tempdir().expect("tempdir");
    support::write_services(dir.path(), SERVICES);
    let again = cli(dir.path());
    assert_eq!(run(&again), 0);
    g.bench_function("1000_services/unchanged", |b| {
        b.iter(|| assert_eq!(run(&again), 0))
    });
    g.finish();
}

criterion_group!(benches, batch);
criterion_main!(benches);
