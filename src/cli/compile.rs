//! The pipeline every command shares: read the source, lower it, run the checks, emit every
//! chosen target. Diagnostics are printed here, once.

use super::Input;
use crate::diag::report::{self, Format};
use crate::diag::{Diagnostics, SourceText};
use crate::emit::{self, Artifact};
use crate::source::{self, openapi};
use crate::watchdog::Watchdog;
use crate::{check, model};

/// Everything up to the artifacts: read, parse, lower, emit.
pub(super) enum Compiled {
    Ok(Vec<Artifact>, Diagnostics),
    Invalid,
    Unreadable,
}

/// Reads, checks and emits `input`, printing its diagnostics in `format`.
pub(super) fn compile_as(input: &Input, quiet: bool, strict: bool, format: Format) -> Compiled {
    compile_into(input, quiet, strict, format, &mut std::io::stderr())
}

/// `compile_as`, with human diagnostics written to `err`: batch builds collect each service's
/// diagnostics and print them whole, in path order.
pub(super) fn compile_into(
    input: &Input,
    quiet: bool,
    strict: bool,
    format: Format,
    err: &mut dyn std::io::Write,
) -> Compiled {
    let _watchdog = Watchdog::start(
        input.time_limit,
        format!("reading and checking {}", input.source.display()),
    );
    // `--openapi FILE` alone (no service.toml here) builds from the OpenAPI file.
    let (path, openapi) = match &input.openapi {
        Some(o) if !input.source.exists() => (o, None),
        o => (&input.source, o.as_deref()),
    };
    let text = match source::read_limited(path, input.max_input_size) {
        Ok(t) => t,
        Err(d) => {
            let src = SourceText {
                path,
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
                    report::print_to(format, &src, &diags, false, err);
                }
            }
            return Compiled::Unreadable;
        }
    };
    let mut diags = Diagnostics::default();
    let options = openapi::Options {
        allow_remote_refs: input.allow_remote_refs,
        max_input_size: input.max_input_size,
        ..Default::default()
    };
    let (raw, provenance) = openapi::read_source(path, &text, openapi, &options, &mut diags);
    let locator = openapi::SourceLocator::new(&text, &provenance);
    let src = SourceText {
        path,
        text: &text,
        locator: Some(&locator),
    };
    let artifacts = raw.and_then(|raw| {
        let split = emit::ai_split::Split::of(&raw);
        model::lower(raw, &mut diags).map(|mut service| {
            if let Some(host) = input.host {
                service.host = host;
            }
            let policy = check::Policy {
                allow_secret_like: input.allow_secret_like.clone(),
                allow_local: input.allow_local,
            };
            check::run(&service, &policy, &mut diags);
            emit::emit_all_split(&service, &input.targets(), split, &mut diags)
        })
    });
    provenance.annotate(&mut diags);
    let failed = diags.has_errors() || (strict && diags.warning_count() > 0);
    report::print_to(format, &src, &diags, quiet && !failed, err);
    match artifacts {
        Some(a) if !diags.has_errors() => Compiled::Ok(a, diags),
        _ => Compiled::Invalid,
    }
}

pub(super) fn summary(diags: &Diagnostics) -> String {
    let (e, w) = (diags.error_count(), diags.warning_count());
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (e, w) {
        (0, 0) => "no problems".into(),
        (0, w) => plural(w, "warning"),
        (e, 0) => plural(e, "error"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}
