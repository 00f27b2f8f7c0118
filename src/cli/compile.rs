//! The pipeline every command shares: read the source, lower it, run the checks, emit every
//! chosen target. Diagnostics are printed here, once.

use super::Input;
use crate::diag::{Diagnostic, Diagnostics, SourceText};
use crate::emit::{self, Artifact};
use crate::source::{self, openapi};
use crate::{check, model};

/// Everything up to the artifacts: read, parse, lower, emit.
pub(super) enum Compiled {
    Ok(Vec<Artifact>, Diagnostics),
    Invalid,
    Unreadable,
}

pub(super) fn compile(input: &Input, quiet: bool, strict: bool) -> Compiled {
    compile_into(input, quiet, strict, &mut std::io::stderr().lock())
}

/// `compile`, with the diagnostics written to `err`: batch builds collect each service's
/// diagnostics and print them whole, in path order.
pub(super) fn compile_into(
    input: &Input,
    quiet: bool,
    strict: bool,
    err: &mut dyn std::io::Write,
) -> Compiled {
    // `--openapi FILE` alone (no service.toml here) builds from the OpenAPI file.
    let (path, openapi) = match &input.openapi {
        Some(o) if !input.source.exists() => (o, None),
        o => (&input.source, o.as_deref()),
    };
    let text = match source::read(path) {
        Ok(t) => t,
        Err(d) => {
            let _ = write!(
                err,
                "{}",
                SourceText {
                    path,
                    text: "",
                    locator: None
                }
                .render(&d)
            );
            return Compiled::Unreadable;
        }
    };
    let mut diags = Diagnostics::default();
    let options = openapi::Options {
        allow_remote_refs: input.allow_remote_refs,
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
        model::lower(raw, &mut diags).map(|mut service| {
            if let Some(host) = input.host {
                service.host = host;
            }
            let policy = check::Policy {
                allow_secret_like: input.allow_secret_like.clone(),
                allow_local: input.allow_local,
            };
            check::run(&service, &policy, &mut diags);
            emit::emit_all(&service, &input.targets(), &mut diags)
        })
    });
    provenance.annotate(&mut diags);
    let failed = diags.has_errors() || (strict && diags.warning_count() > 0);
    print_diagnostics(&src, &diags, quiet && !failed, err);
    match artifacts {
        Some(a) if !diags.has_errors() => Compiled::Ok(a, diags),
        _ => Compiled::Invalid,
    }
}

fn print_diagnostics(
    src: &SourceText,
    diags: &Diagnostics,
    errors_only: bool,
    err: &mut dyn std::io::Write,
) {
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| std::cmp::Reverse(d.severity));
    sorted.dedup();
    for d in sorted.into_iter().filter(|d| d.is_error() || !errors_only) {
        let _ = writeln!(err, "{}", src.render(d));
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
