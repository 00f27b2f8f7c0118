//! `wellgen build`: compile, then write the output folder, then report what was written and
//! what it costs an agent to read (bytes and tokens per document). `batch` builds many with
//! `build_one`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::compile::{Compiled, compile_into, notes_line, summary, unused_import_flags};
use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, Input, Report};
use crate::diag::Code;
use crate::diag::report::Format;
use crate::emit::{Artifact, hosts};
use crate::source::{self, openapi};
use crate::tokens::{self, Ratio, Row, Total};
use crate::write;

/// The output folder when `--out` is not given.
pub(super) const DEFAULT_OUT: &str = "dist";

pub(super) fn build(input: &Input, out: Option<&Path>, report: &Report, quiet: bool) -> u8 {
    if let Some(error) = unused_import_flags(input) {
        eprintln!("{error}");
        return EXIT_USAGE;
    }
    let out = out.unwrap_or(Path::new(DEFAULT_OUT));
    let summarise = !quiet && !report.summary_off;
    if summarise {
        // Loading the encodings overlaps the compile instead of following it.
        tokens::preload();
    }
    // So does counting the OpenAPI source: the import leaves a core idle. Not joined when the
    // build fails: the process ends without the table.
    let source = summarise
        .then(|| openapi_source(input))
        .flatten()
        .map(|p| std::thread::spawn(move || source_row(&p)));
    let mut err = std::io::stderr();
    let server_config = report.server_config.as_deref();
    let mut built = match build_one(input, out, server_config, quiet, summarise, &mut err) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if !summarise {
        return EXIT_OK;
    }
    eprintln!("{}", built.line(out));
    if let Some(line) = &built.notes {
        eprintln!("{line}");
    }
    eprintln!("{}", super::audit::level_line(out));
    let rows = built
        .counted
        .take()
        .and_then(|counting| counting.join().ok())
        .unwrap_or_else(|| tokens::count(&built.artifacts));
    let source = source.and_then(|counting| counting.join().ok().flatten());
    let text = if report.json {
        json_summary(input, out, &built, rows, source)
    } else {
        tokens::table(
            &rows,
            source.as_ref(),
            (!input.verbose).then_some(tokens::TABLE_ROWS),
        )
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    EXIT_OK
}

/// One service compiled and written.
pub(super) struct Built {
    pub artifacts: Vec<Artifact>,
    pub written: write::Report,
    /// "no problems", "2 warnings", ...
    pub problems: String,
    /// "23 values derived for agis, adp (…)", when notes were not shown.
    pub notes: Option<String>,
    /// The tokens of its documents, counted beside the write (`build_one`'s `count`).
    pub counted: Option<std::thread::JoinHandle<Vec<Row>>>,
}

impl Built {
    /// "built 22 files into dist (3 written, 19 unchanged; no problems)".
    pub fn line(&self, out: &Path) -> String {
        let mut line = format!(
            "built {} files into {} ({} written, {} unchanged",
            self.artifacts.len(),
            crate::diag::shown::path(out),
            self.written.written,
            self.written.unchanged
        );
        if !self.written.removed.is_empty() {
            line.push_str(&format!(", {} stale removed", self.written.removed.len()));
        }
        line.push_str(&format!("; {})", self.problems));
        line
    }
}

/// Compiles `input` and writes it into `out`, and its server configuration into
/// `server_config` (else `[deploy] server_config`, else nowhere); diagnostics and errors go to
/// `err`. On failure, the exit code. `count`: the documents' tokens are counted on a thread of
/// their own while the write runs, which leaves a core half idle (GitHub's 19 MB took the
/// build's main thread about 0.1 s after the write).
pub(super) fn build_one(
    input: &Input,
    out: &Path,
    server_config: Option<&Path>,
    quiet: bool,
    count: bool,
    err: &mut dyn std::io::Write,
) -> Result<Built, u8> {
    let input = &Input {
        site: Some(out.to_path_buf()),
        ..input.clone()
    };
    // An output folder wellgen refuses stops everything: said before any other diagnostic.
    let source_dirs = source_dirs(input);
    let dirs: Vec<&Path> = source_dirs.iter().map(PathBuf::as_path).collect();
    if let Err(e) = write::refuse_dangerous_root(out, &dirs) {
        let _ = writeln!(
            err,
            "error[{}]: {}",
            Code::OutputUnsafe,
            crate::diag::shown::message(&e.message)
        );
        if let Some(h) = e.help {
            let _ = writeln!(err, "  = help: {}", crate::diag::shown::message(&h));
        }
        return Err(EXIT_USAGE);
    }
    let (mut artifacts, diags) = match compile_into(input, quiet, Format::Human, err) {
        Compiled::Ok(a, d) => (a, d),
        Compiled::Invalid => {
            let _ = writeln!(
                err,
                "error: build failed; {} left unchanged",
                crate::diag::shown::path(out)
            );
            return Err(EXIT_INVALID);
        }
        Compiled::Unreadable => return Err(EXIT_USAGE),
    };
    let (config, published): (Vec<Artifact>, Vec<Artifact>) = artifacts
        .into_iter()
        .partition(|a| hosts::is_server_config(&a.path));
    artifacts = published;
    let counted = count.then(|| {
        let documents = artifacts.clone();
        std::thread::spawn(move || tokens::count(&documents))
    });
    let config_dir = match server_config {
        Some(dir) => Some(dir.to_path_buf()),
        None => match deploy_server_config(input) {
            Ok(dir) => dir,
            Err((message, help)) => {
                let _ = writeln!(err, "error[{}]: {message}", Code::OutputUnsafe);
                let _ = writeln!(err, "  = help: {help}");
                return Err(EXIT_USAGE);
            }
        },
    };
    let written = write::write(out, &artifacts, &dirs).and_then(|report| {
        let Some(dir) = &config_dir else {
            return Ok((report, Vec::new()));
        };
        let mut placed = Vec::new();
        for a in &config {
            placed.push(write::write_server_config(dir, out, a)?);
        }
        Ok((report, placed))
    });
    match written {
        Ok((written, placed)) => {
            if !quiet {
                for path in &placed {
                    let _ = writeln!(err, "note: wrote {}", crate::diag::shown::path(path));
                }
                if config_dir.is_none()
                    && let Some(a) = config.first()
                    && written.removed.contains(&a.path)
                {
                    let _ = writeln!(
                        err,
                        "note: {} is no longer written into {} (the folder is published, server \
                         configuration is not): pass --server-config DIR or set `[deploy] \
                         server_config` to write it outside it",
                        a.path.trim_start_matches('/'),
                        crate::diag::shown::path(out)
                    );
                }
            }
            match written.recovered {
                Some(write::Recovered::Finished) => {
                    let _ = writeln!(
                        err,
                        "note[{}]: finished the renames of a build interrupted earlier in {}",
                        Code::OutputRecovered,
                        crate::diag::shown::path(out)
                    );
                }
                Some(write::Recovered::Undone) => {
                    let _ = writeln!(
                        err,
                        "note[{}]: removed the staged files of a build interrupted earlier in {}",
                        Code::OutputRecovered,
                        crate::diag::shown::path(out)
                    );
                }
                None => {}
            }
            if !quiet {
                for why in &written.kept {
                    let _ = writeln!(
                        err,
                        "warning[{}]: {}",
                        Code::OutputKept,
                        crate::diag::shown::message(why)
                    );
                }
            }
            // The site's own page is kept, as it should be: a note, shown as notes are.
            if !quiet && input.notes {
                for path in &written.site_files {
                    let _ = writeln!(
                        err,
                        "note[{}]: `{path}` is the site's own, which is kept; wellgen's default \
                         is not written\n  = help: nothing to do; to record the choice, add \
                         \"{path}\" to `[build] skip` in service.toml",
                        Code::OutputSiteFile,
                    );
                }
            }
            let problems = summary(&diags, written.kept.len());
            Ok(Built {
                artifacts,
                written,
                problems,
                notes: notes_line(&diags, input.notes, "check"),
                counted,
            })
        }
        Err(e) => {
            let _ = writeln!(
                err,
                "error[{}]: {}",
                Code::OutputWrite,
                crate::diag::shown::message(&e.message)
            );
            if let Some(h) = e.help {
                let _ = writeln!(err, "  = help: {}", crate::diag::shown::message(&h));
            }
            if e.pending {
                let _ = writeln!(
                    err,
                    "error: build interrupted; {} is completed by the next build",
                    crate::diag::shown::path(out)
                );
            } else {
                let _ = writeln!(
                    err,
                    "error: build failed; {} left unchanged",
                    crate::diag::shown::path(out)
                );
            }
            Err(EXIT_USAGE)
        }
    }
}

/// `[deploy] server_config` of the service.toml, relative to its folder and confined to its
/// project (`confine::service_path`).
fn deploy_server_config(input: &Input) -> Result<Option<PathBuf>, (String, String)> {
    // An OpenAPI source has no `[deploy]`; reading a 13 MB JSON file as TOML took a tenth of
    // GitHub's build.
    if input.openapi.is_none() && openapi_source(input).as_ref() == Some(&input.source) {
        return Ok(None);
    }
    let Some(rel) = std::fs::read_to_string(&input.source)
        .ok()
        .and_then(|text| {
            source::parse_service_toml(&text)
                .ok()?
                .deploy?
                .server_config
        })
    else {
        return Ok(None);
    };
    crate::confine::service_path(
        &input.source,
        "[deploy] server_config",
        Path::new(&rel),
        input.ref_root.as_deref(),
        true,
    )
    .map(Some)
}

/// The folders of the service.toml and of the OpenAPI document it imports: both are sources.
fn source_dirs(input: &Input) -> Vec<PathBuf> {
    let openapi = openapi_source(input);
    [Some(input.source.as_path()), openapi.as_deref()]
        .into_iter()
        .flatten()
        .filter_map(Path::parent)
        .map(|p| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p.to_path_buf()
            }
        })
        .collect()
}

/// The token counts of the OpenAPI document at `path`.
fn source_row(path: &Path) -> Option<Row> {
    let text = std::fs::read_to_string(path).ok()?;
    let (o200k_base, cl100k_base) = tokens::count_text(&text);
    Some(Row {
        path: path.display().to_string(),
        also: Vec::new(),
        bytes: text.len(),
        o200k_base,
        cl100k_base,
    })
}

/// The OpenAPI document a build imported, if any: the source itself, `--openapi`, or the
/// service.toml's `[source] openapi`.
fn openapi_source(input: &Input) -> Option<PathBuf> {
    if let Some(o) = &input.openapi {
        return Some(o.clone());
    }
    // By its extension, without reading a large document once more.
    if openapi::is_openapi_by_name(&input.source) == Some(true) {
        return Some(input.source.clone());
    }
    let text = std::fs::read_to_string(&input.source).ok()?;
    if openapi::is_openapi_path(&input.source, &text) {
        return Some(input.source.clone());
    }
    let rel = source::parse_service_toml(&text).ok()?.source?.openapi?;
    Some(input.source.parent().unwrap_or(Path::new(".")).join(rel))
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    source: String,
    out: String,
    files: usize,
    written: usize,
    unchanged: usize,
    removed: &'a [String],
    problems: &'a str,
    documents: Vec<Row>,
    total: Total,
    #[serde(skip_serializing_if = "Option::is_none")]
    openapi: Option<Row>,
    /// The OpenAPI document's tokens over /.well-known/ai's.
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio: Option<Ratio>,
}

fn json_summary(
    input: &Input,
    out: &Path,
    built: &Built,
    documents: Vec<Row>,
    openapi: Option<Row>,
) -> String {
    let ratio = openapi.as_ref().and_then(|s| Ratio::of(s, &documents));
    let summary = JsonSummary {
        source: input.source.display().to_string(),
        out: out.display().to_string(),
        files: built.artifacts.len(),
        written: built.written.written,
        unchanged: built.written.unchanged,
        removed: &built.written.removed,
        problems: &built.problems,
        total: Total::of(&documents),
        documents,
        openapi,
        ratio,
    };
    String::from_utf8(crate::emit::to_json_bytes(&summary)).unwrap_or_default()
}
