//! `wellgen build DIR`: every service.toml below a folder, each built into its own output
//! folder, in parallel. One failure does not stop the others; every problem is printed, each
//! service's whole and in path order once all are done, so the output is the same run to run.
//!
//! Layout: `<folder of the service.toml>/dist`, or with `--out OUT`,
//! `OUT/<folder of the service.toml relative to DIR>`. The walk skips hidden folders, `target`,
//! `node_modules` and output folders (any folder holding a `.wellgen-manifest`).

use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

use super::build::{DEFAULT_OUT, build_one};
use super::{EXIT_OK, EXIT_USAGE, Input, Report};
use crate::tokens::{self, Total};
use crate::write::MANIFEST;

/// One service.toml and the folder it builds into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Job {
    pub source: PathBuf,
    pub out: PathBuf,
}

/// What happened to one job.
struct Outcome {
    /// Diagnostics and errors, already rendered, each naming the service's file.
    messages: Vec<u8>,
    /// `None` on success, else the job's exit code.
    failure: Option<u8>,
    files: usize,
    tokens: Option<Total>,
}

pub(super) fn build_all(input: &Input, out: Option<&Path>, report: &Report, quiet: bool) -> u8 {
    let root = &input.source;
    if input.openapi.is_some() {
        eprintln!(
            "error: --openapi names one document; a batch build ({} is a folder) reads each service.toml's `[source] openapi`",
            root.display()
        );
        return EXIT_USAGE;
    }
    if report.server_config.is_some() {
        eprintln!(
            "error: --server-config names one folder; a batch build ({} is a folder) reads each service.toml's `[deploy] server_config`",
            root.display()
        );
        return EXIT_USAGE;
    }
    let (sources, walk_errors) = find_services(root);
    if sources.is_empty() && walk_errors.is_empty() {
        eprintln!("error: no service.toml found below {}", root.display());
        return EXIT_USAGE;
    }
    let jobs = plan(root, out, sources);
    let workers = report
        .jobs
        .map(std::num::NonZeroUsize::get)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1);
    if report.tokens {
        tokens::preload();
    }
    let progress = !quiet && std::io::stderr().is_terminal();
    let outcomes = run(input, &jobs, workers, report.tokens, quiet, progress);

    let mut err = std::io::stderr().lock();
    for e in &walk_errors {
        let _ = writeln!(err, "error: {e}");
    }
    for o in &outcomes {
        let _ = err.write_all(&o.messages);
    }
    let failed = outcomes.iter().filter(|o| o.failure.is_some()).count() + walk_errors.len();
    let code = outcomes
        .iter()
        .filter_map(|o| o.failure)
        .chain((!walk_errors.is_empty()).then_some(EXIT_USAGE))
        .max()
        .unwrap_or(EXIT_OK);
    let files: usize = outcomes.iter().map(|o| o.files).sum();
    let built = jobs.len() - outcomes.iter().filter(|o| o.failure.is_some()).count();
    let mut total = None::<Total>;
    for t in outcomes.iter().filter_map(|o| o.tokens.as_ref()) {
        total.get_or_insert_default().add(t);
    }
    if !quiet {
        let _ = writeln!(
            err,
            "built {built} of {} services ({files} files){}",
            jobs.len(),
            if failed > 0 {
                format!("; {failed} failed")
            } else {
                String::new()
            }
        );
        drop(err);
        let text = if report.json {
            json_summary(&jobs, &outcomes, total)
        } else {
            total.map(|t| {
                format!(
                    "documents of {built} services: {} bytes, {} o200k_base tokens, {} cl100k_base tokens\n",
                    t.bytes, t.o200k_base, t.cl100k_base
                )
            }).unwrap_or_default()
        };
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    }
    code
}

/// Every service.toml below `root`, sorted by path, and the folders that could not be read.
pub(crate) fn find_services(root: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    let walk = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_type().is_dir() || !skipped(e.path()));
    for entry in walk {
        match entry {
            Ok(e) if e.file_type().is_file() && e.file_name() == "service.toml" => {
                found.push(e.into_path());
            }
            Ok(_) => {}
            Err(e) => errors.push(match e.path() {
                Some(p) => format!("cannot read {}: {}", p.display(), walk_reason(&e)),
                None => e.to_string(),
            }),
        }
    }
    (found, errors)
}

fn walk_reason(e: &walkdir::Error) -> String {
    match e.io_error() {
        Some(io) => crate::diag::io_reason(io),
        None => e.to_string(),
    }
}

/// Folders the walk does not enter: hidden ones, build folders, and wellgen's own output.
fn skipped(dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.starts_with('.')
        || name == "target"
        || name == "node_modules"
        || dir.join(MANIFEST).exists()
}

/// Where each service builds: beside it (`dist`) or under `out`, mirroring `root`'s folders.
pub(crate) fn plan(root: &Path, out: Option<&Path>, sources: Vec<PathBuf>) -> Vec<Job> {
    sources
        .into_iter()
        .map(|source| {
            let dir = source.parent().unwrap_or(Path::new("."));
            let out = match out {
                None => dir.join(DEFAULT_OUT),
                Some(o) => o.join(dir.strip_prefix(root).unwrap_or(Path::new(""))),
            };
            Job { source, out }
        })
        .collect()
}

/// Builds every job on `workers` threads; outcomes in job order.
fn run(
    input: &Input,
    jobs: &[Job],
    workers: usize,
    count_tokens: bool,
    quiet: bool,
    progress: bool,
) -> Vec<Outcome> {
    let done = AtomicUsize::new(0);
    crate::parallel::map(
        jobs,
        workers,
        &done,
        |job| build_job(input, job, count_tokens, quiet),
        || {
            if progress {
                draw_progress(&done, jobs.len());
            }
        },
    )
}

fn build_job(input: &Input, job: &Job, count_tokens: bool, quiet: bool) -> Outcome {
    let input = Input {
        source: job.source.clone(),
        ..input.clone()
    };
    let mut messages = Vec::new();
    let built = build_one(&input, &job.out, None, quiet, false, &mut messages);
    // Lines the pipeline writes without a file name get this service's.
    let mut messages = name_lines(&messages, &job.source);
    match built {
        Ok(b) => Outcome {
            messages: {
                // The values this service's build derived, as a single build ends with them.
                if let Some(line) = b.notes.as_ref().filter(|_| !quiet) {
                    messages.extend(
                        format!("{}: {line}\n", crate::diag::shown::path(&job.source)).into_bytes(),
                    );
                }
                messages
            },
            failure: None,
            files: b.artifacts.len(),
            tokens: count_tokens.then(|| Total::of(&tokens::count_serial(&b.artifacts))),
        },
        Err(code) => Outcome {
            messages,
            failure: Some(code),
            files: 0,
            tokens: None,
        },
    }
}

/// Prefixes `error: …` lines (write errors, "build failed") with the service's file, as
/// rendered diagnostics already are.
fn name_lines(messages: &[u8], source: &Path) -> Vec<u8> {
    let text = String::from_utf8_lossy(messages);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if line.starts_with("error: ") {
            out.push_str(&format!("{}: ", crate::diag::shown::path(source)));
        }
        out.push_str(line);
    }
    out.into_bytes()
}

/// Redraws a one-line bar on stderr until every job is done, then clears it. A batch that
/// ends within the first tick never shows one.
fn draw_progress(done: &AtomicUsize, total: usize) {
    let tick = Duration::from_millis(100);
    let mut shown = false;
    loop {
        std::thread::sleep(tick);
        let n = done.load(Ordering::Relaxed);
        if n >= total {
            break;
        }
        eprint!("\r{}", bar(n, total, 30));
        shown = true;
    }
    if shown {
        eprint!("\r\x1b[K");
    }
}

/// `[#########.....] 512/1000 services`.
fn bar(done: usize, total: usize, width: usize) -> String {
    let filled = (done * width)
        .checked_div(total)
        .unwrap_or(width)
        .min(width);
    format!(
        "[{}{}] {done}/{total} services",
        "#".repeat(filled),
        ".".repeat(width - filled)
    )
}

#[derive(Serialize)]
struct JsonService {
    source: String,
    out: String,
    ok: bool,
    files: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<Total>,
}

#[derive(Serialize)]
struct JsonBatch {
    built: usize,
    failed: usize,
    services: Vec<JsonService>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<Total>,
}

fn json_summary(jobs: &[Job], outcomes: &[Outcome], total: Option<Total>) -> String {
    let services: Vec<JsonService> = jobs
        .iter()
        .zip(outcomes)
        .map(|(j, o)| JsonService {
            source: j.source.display().to_string(),
            out: j.out.display().to_string(),
            ok: o.failure.is_none(),
            files: o.files,
            tokens: o.tokens,
        })
        .collect();
    let failed = services.iter().filter(|s| !s.ok).count();
    let summary = JsonBatch {
        built: services.len() - failed,
        failed,
        services,
        total,
    };
    String::from_utf8(crate::emit::to_json_bytes(&summary)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_fills_in_proportion() {
        assert_eq!(bar(0, 4, 8), "[........] 0/4 services");
        assert_eq!(bar(2, 4, 8), "[####....] 2/4 services");
        assert_eq!(bar(4, 4, 8), "[########] 4/4 services");
        assert_eq!(bar(0, 0, 8), "[########] 0/0 services");
    }

    #[test]
    fn layout_beside_or_under_out() {
        let root = Path::new("svc");
        let sources = vec![
            PathBuf::from("svc/service.toml"),
            PathBuf::from("svc/a/b/service.toml"),
        ];
        let beside = plan(root, None, sources.clone());
        assert_eq!(beside[0].out, PathBuf::from("svc/dist"));
        assert_eq!(beside[1].out, PathBuf::from("svc/a/b/dist"));
        let under = plan(root, Some(Path::new("site")), sources);
        assert_eq!(under[0].out, PathBuf::from("site"));
        assert_eq!(under[1].out, PathBuf::from("site/a/b"));
    }

    #[test]
    fn unnamed_error_lines_get_the_file() {
        let m = b"svc/service.toml:1:1: error: x\nerror: build failed; dist left unchanged\n";
        let named = String::from_utf8(name_lines(m, Path::new("svc/service.toml"))).unwrap();
        assert_eq!(
            named,
            "svc/service.toml:1:1: error: x\nsvc/service.toml: error: build failed; dist left unchanged\n"
        );
    }
}
