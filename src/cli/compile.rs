//! The CLI's side of the pipeline every command shares: read the source within the time
//! limit, run `pipeline::compile`, print its diagnostics once.

use std::path::PathBuf;

use super::Input;
use crate::diag::report::{self, Format};
use crate::diag::{Diagnostic, Diagnostics, Severity, SourceText};
use crate::emit::Artifact;
use crate::pipeline::{self, Sources};
use crate::source::{self, openapi};
use crate::{check, watchdog};

/// Everything up to the artifacts: read, parse, lower, emit.
pub(super) enum Compiled {
    Ok(Vec<Artifact>, Diagnostics),
    Invalid,
    /// Unreadable, or out of time: exit 2.
    Unreadable,
}

/// Reads, checks and emits `input`, printing its diagnostics in `format`.
pub(super) fn compile_as(input: &Input, quiet: bool, format: Format) -> Compiled {
    compile_into(input, quiet, format, &mut std::io::stderr())
}

/// What the timed part produced: the text read and its compile, or why it could not be read.
struct Read {
    path: PathBuf,
    text: String,
    compiled: Result<(pipeline::Compiled, openapi::Provenance), Diagnostic>,
}

/// `compile_as`, with human diagnostics written to `err`: batch builds collect each service's
/// diagnostics and print them whole, in path order.
pub(super) fn compile_into(
    input: &Input,
    quiet: bool,
    format: Format,
    err: &mut dyn std::io::Write,
) -> Compiled {
    let (path, openapi) = sources(input);
    let doing = match &openapi {
        Some(o) => format!(
            "reading and checking {} with {}",
            path.display(),
            o.display()
        ),
        None => format!("reading and checking {}", path.display()),
    };
    let owned = input.clone();
    let read = watchdog::within(input.time_limit, move || {
        read_and_compile(&owned, path, openapi)
    });
    let Some(read) = read else {
        let _ = writeln!(err, "{}", watchdog::gave_up(input.time_limit, &doing));
        return Compiled::Unreadable;
    };
    let (compiled, provenance) = match read.compiled {
        Ok(c) => c,
        Err(d) => {
            let src = SourceText {
                path: &read.path,
                text: "",
                locator: None,
            };
            match format {
                Format::Human => {
                    let _ = write!(err, "{}", src.render(&d));
                }
                Format::Json | Format::Github | Format::Sarif => {
                    let mut diags = Diagnostics::default();
                    diags.push(d);
                    report::print_to(format, &src, &diags, report::Shown::default(), err);
                }
            }
            return Compiled::Unreadable;
        }
    };
    let locator = openapi::SourceLocator::new(&read.text, &provenance);
    let src = SourceText {
        path: &read.path,
        text: &read.text,
        locator: Some(&locator),
    };
    let diags = compiled.diags;
    if let (Some(env), false, Format::Human) = (compiled.env_host, quiet, format) {
        let _ = writeln!(
            err,
            "note: host {} ({} is set); --host or [deploy] host chooses another",
            env.host.name(),
            env.by
        );
    }
    let shown = report::Shown {
        errors_only: quiet,
        notes: input.notes,
        verbose: input.verbose,
    };
    report::print_to(format, &src, &diags, shown, err);
    let valid = compiled.service.is_some() && !diags.has_errors();
    // The model of a large service takes tens of milliseconds to free; the write needs none of it.
    if let Some(service) = compiled.service
        && service.capabilities.len() >= DROP_ASIDE_FROM
    {
        crate::parallel::release(service);
    }
    if valid {
        Compiled::Ok(compiled.artifacts, diags)
    } else {
        Compiled::Invalid
    }
}

/// Services with this many capabilities are dropped on a thread of their own.
const DROP_ASIDE_FROM: usize = 256;

/// The file to read and the OpenAPI document it completes, if any: `--openapi FILE` alone (no
/// service.toml here) builds from the OpenAPI file.
fn sources(input: &Input) -> (PathBuf, Option<PathBuf>) {
    match &input.openapi {
        Some(o) if !input.source.exists() => (o.clone(), None),
        o => (input.source.clone(), o.clone()),
    }
}

/// `--ref-root`, `--include` or `--exclude` given where no OpenAPI document is imported (no
/// `--openapi`, SOURCE a service.toml without `[source] openapi`): the usage error saying that
/// the flag would do nothing, as for other flags that do not apply. A source that cannot be
/// read or parsed is left to the compile, which reports it in place.
pub(super) fn unused_import_flags(input: &Input) -> Option<String> {
    let (flag, what) = if let Some(dir) = &input.ref_root {
        (
            "--ref-root",
            format!(
                "--ref-root {} names the folder an OpenAPI document's `$ref`s may reach",
                dir.display()
            ),
        )
    } else if !input.include.is_empty() {
        (
            "--include",
            "--include keeps only some operations of an OpenAPI document".to_string(),
        )
    } else if !input.exclude.is_empty() {
        (
            "--exclude",
            "--exclude leaves out operations of an OpenAPI document".to_string(),
        )
    } else {
        return None;
    };
    let (path, openapi) = sources(input);
    if openapi.is_some() {
        return None;
    }
    let limit = input.max_input_size;
    let source = path.clone();
    let imports = watchdog::within(input.time_limit, move || {
        let text = source::read_limited(&source, limit).ok()?;
        if openapi::is_openapi_path(&source, &text) {
            return Some(true);
        }
        let overlay = source::parse_service_toml(&text).ok()?;
        Some(overlay.source.is_some_and(|s| s.openapi.is_some()))
    })
    .flatten();
    (imports == Some(false)).then(|| {
        format!(
            "error: {what}, but {} imports no OpenAPI document: pass one with --openapi or \
             `[source] openapi`, or drop {flag}",
            path.display()
        )
    })
}

fn read_and_compile(input: &Input, path: PathBuf, openapi: Option<PathBuf>) -> Read {
    let text = match source::read_limited(&path, input.max_input_size) {
        Ok(t) => t,
        Err(d) => {
            return Read {
                path,
                text: String::new(),
                compiled: Err(d),
            };
        }
    };
    let options = pipeline::Options {
        targets: (!input.targets.is_empty()).then(|| input.targets()),
        host: input.host,
        env_host: pipeline::host_from_env(|name| std::env::var(name).ok()),
        site_files: input.site_files(),
        policy: check::Policy {
            allow_secret_like: input.allow_secret_like.clone(),
            allow_local: input.allow_local,
        },
        import: openapi::Options {
            filter: openapi::Filter {
                include: input.include.clone(),
                exclude: input.exclude.clone(),
            },
            max_input_size: input.max_input_size,
            ref_root: input.ref_root.clone(),
            base_url: input.base_url.clone(),
            ..Default::default()
        },
        site_url: input.site_url.clone(),
        allow: input.allow.clone(),
        source_date_epoch: std::env::var("SOURCE_DATE_EPOCH").ok(),
    };
    let sources = Sources {
        path: &path,
        text: &text,
        openapi: openapi.as_deref(),
    };
    let compiled = pipeline::compile(sources, &options);
    Read {
        path,
        text,
        compiled: Ok(compiled),
    }
}

/// The line after a run whose notes were not shown: `23 values derived for agis, adp, a2a
/// (wellgen check --notes lists them)`; `command` is the one that lists them.
pub(super) fn notes_line(diags: &Diagnostics, shown: bool, command: &str) -> Option<String> {
    let n = diags.note_count();
    if n == 0 || shown {
        return None;
    }
    let mut areas: Vec<&str> = Vec::new();
    for d in diags.iter().filter(|d| d.severity == Severity::Note) {
        let area = d.code.info().area;
        if !areas.contains(&area) {
            areas.push(area);
        }
    }
    Some(format!(
        "{} value{} derived for {} (wellgen {command} --notes lists {})",
        report::thousands(n),
        if n == 1 { "" } else { "s" },
        areas.join(", "),
        if n == 1 { "it" } else { "them" }
    ))
}

/// `kept`: warnings printed outside `diags` (the output folder's own files, found on writing).
pub(super) fn summary(diags: &Diagnostics, kept: usize) -> String {
    let (e, w) = (diags.error_count(), diags.warning_count() + kept);
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (e, w) {
        (0, 0) => "no problems".into(),
        (0, w) => plural(w, "warning"),
        (e, 0) => plural(e, "error"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}
