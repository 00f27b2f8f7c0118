//! The fixture harness: every example and fixture is built and compared with its checked-in
//! expected output, file by file. Changed, missing and extra files fail; `WELLGEN_BLESS=1`
//! rewrites the expected folders for a reviewer to read in the diff.

use crate::common::*;

#[test]
fn every_source_builds_to_its_golden_output() {
    let mut failures = Vec::new();
    let sources = sources();
    assert!(sources.len() >= 3, "the examples are found");
    for source in sources {
        let dir = source.parent().unwrap();
        let expected = golden_dir(dir);
        let out = build(&source, &[]);
        if blessing() {
            bless_dir(out.path(), &expected);
            continue;
        }
        if !expected.exists() {
            failures.push(format!(
                "{}: no golden output; run with WELLGEN_BLESS=1 and review it",
                dir.display()
            ));
            continue;
        }
        for problem in diff_dirs(out.path(), &expected) {
            failures.push(format!("{}: {problem}", dir.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Goldens sit in `tests/golden/<name>/` for examples and `<fixture>/expected/` for fixtures.
fn golden_dir(source_dir: &std::path::Path) -> std::path::PathBuf {
    let name = source_dir.file_name().unwrap();
    if source_dir.starts_with(root().join("examples")) {
        root().join("tests/golden").join(name)
    } else {
        source_dir.join("expected")
    }
}
