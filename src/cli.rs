//! The command line: argument parsing and the three commands, printing and exit codes.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::diag::{Diagnostic, Diagnostics, SourceText};
use crate::emit::{self, Artifact, Target};
use crate::model::Host;
use crate::source::{self, openapi};
use crate::{check, model, write};

/// Exit codes: documented in README.md and `--help`.
pub const EXIT_OK: u8 = 0;
pub const EXIT_INVALID: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

const AFTER_HELP: &str = "\
Examples:
  wellgen init                     write a starter service.toml here
  wellgen build                    ./service.toml -> ./dist
  wellgen build api/service.toml -o public
  wellgen check --strict           fail CI on errors and warnings

Exit codes: 0 success, 1 invalid input (or warnings with --strict), 2 usage or I/O error.";

#[derive(Debug, Parser)]
#[command(name = "wellgen", version, about = "Publish AI-agent discovery documents from one service.toml", after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Print errors only: no warnings, no summary.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build every target's documents and host files into an output folder.
    Build {
        #[command(flatten)]
        input: Input,
        /// Output folder: a fresh dist/ or an existing site folder (only wellgen's own files are touched).
        #[arg(short, long, value_name = "DIR", default_value = "dist")]
        out: PathBuf,
    },
    /// Run every check without writing anything.
    Check {
        #[command(flatten)]
        input: Input,
        /// Exit 1 on warnings too.
        #[arg(long)]
        strict: bool,
    },
    /// List every target: its paths, media type, cache policy and the spec it follows.
    Targets {
        /// Print the Markdown table used in README.md.
        #[arg(long)]
        markdown: bool,
    },
    /// Write an editable service.toml from an OpenAPI (or Swagger 2.0) document.
    Import {
        /// The OpenAPI document (JSON or YAML).
        #[arg(value_name = "OPENAPI")]
        source: PathBuf,
        /// Where to write the service.toml (never overwritten).
        #[arg(short, long, value_name = "FILE", default_value = "service.toml")]
        out: PathBuf,
        /// Keep only these operations: `tag:<glob>` or `op:<glob>` (`*`, `?`). Repeatable.
        #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
        include: Vec<String>,
        /// Leave out these operations (same patterns). Repeatable.
        #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
        exclude: Vec<String>,
        /// Allow `$ref`s into the network (not implemented: such refs are still refused).
        #[arg(long)]
        allow_remote_refs: bool,
    },
    /// Write a commented starter service.toml that builds as it is.
    Init {
        /// Folder to write service.toml into.
        #[arg(value_name = "DIR", default_value = ".")]
        dir: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct Input {
    /// The service description.
    #[arg(value_name = "SOURCE", default_value = "service.toml")]
    pub source: PathBuf,
    /// Targets to build (default: all). Repeat or separate with commas.
    #[arg(short, long = "target", value_name = "TARGET", value_delimiter = ',')]
    pub targets: Vec<Target>,
    /// Where the output is deployed (overrides `[deploy] host`): decides host-specific files.
    #[arg(long, value_name = "HOST")]
    pub host: Option<Host>,
    /// Accept a secret-like value in this field (a reviewed false positive); repeatable.
    #[arg(long, value_name = "FIELD")]
    pub allow_secret_like: Vec<String>,
    /// Accept localhost and private-network URLs (staging builds).
    #[arg(long)]
    pub allow_local: bool,
    /// An OpenAPI document to import; SOURCE (when it exists) completes and overrides it.
    #[arg(long, value_name = "FILE")]
    pub openapi: Option<PathBuf>,
    /// Allow `$ref`s into the network (not implemented: such refs are still refused).
    #[arg(long)]
    pub allow_remote_refs: bool,
}

impl Input {
    fn targets(&self) -> Vec<Target> {
        if self.targets.is_empty() {
            return Target::ALL.to_vec();
        }
        let mut t = self.targets.clone();
        // agents.json and ai-plugin.json link to the OpenAPI document: build it with them.
        if t.contains(&Target::Rfc002) {
            t.push(Target::OpenApi);
        }
        // agis.json's mcp_tools_list names the MCP tools file.
        if t.contains(&Target::Agis) {
            t.push(Target::Mcp);
        }
        t.sort();
        t.dedup();
        t
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(run(&cli))
}

pub fn run(cli: &Cli) -> u8 {
    match &cli.command {
        Command::Build { input, out } => build(input, out, cli.quiet),
        Command::Check { input, strict } => check(input, *strict, cli.quiet),
        Command::Init { dir } => init(dir, cli.quiet),
        Command::Targets { markdown } => {
            let text = if *markdown {
                emit::catalog::markdown()
            } else {
                emit::catalog::text()
            };
            print!("{text}");
            EXIT_OK
        }
        Command::Import {
            source,
            out,
            include,
            exclude,
            allow_remote_refs,
        } => {
            let options = openapi::Options {
                allow_remote_refs: *allow_remote_refs,
                filter: openapi::Filter {
                    include: include.clone(),
                    exclude: exclude.clone(),
                },
            };
            openapi::command::import(source, out, &options, cli.quiet)
        }
    }
}

/// Everything up to the artifacts: read, parse, lower, emit. Diagnostics are printed here.
enum Compiled {
    Ok(Vec<Artifact>, Diagnostics),
    Invalid,
    Unreadable,
}

fn compile(input: &Input, quiet: bool, strict: bool) -> Compiled {
    // `--openapi FILE` alone (no service.toml here) builds from the OpenAPI file.
    let (path, openapi) = match &input.openapi {
        Some(o) if !input.source.exists() => (o, None),
        o => (&input.source, o.as_deref()),
    };
    let text = match source::read(path) {
        Ok(t) => t,
        Err(d) => {
            eprint!(
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
    print_diagnostics(&src, &diags, quiet && !failed);
    match artifacts {
        Some(a) if !diags.has_errors() => Compiled::Ok(a, diags),
        _ => Compiled::Invalid,
    }
}

fn print_diagnostics(src: &SourceText, diags: &Diagnostics, errors_only: bool) {
    let mut err = std::io::stderr().lock();
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| std::cmp::Reverse(d.severity));
    sorted.dedup();
    for d in sorted.into_iter().filter(|d| d.is_error() || !errors_only) {
        let _ = writeln!(err, "{}", src.render(d));
    }
}

fn summary(diags: &Diagnostics) -> String {
    let (e, w) = (diags.error_count(), diags.warning_count());
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (e, w) {
        (0, 0) => "no problems".into(),
        (0, w) => plural(w, "warning"),
        (e, 0) => plural(e, "error"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

fn build(input: &Input, out: &Path, quiet: bool) -> u8 {
    let (artifacts, diags) = match compile(input, quiet, false) {
        Compiled::Ok(a, d) => (a, d),
        Compiled::Invalid => {
            eprintln!("error: build failed; {} left unchanged", out.display());
            return EXIT_INVALID;
        }
        Compiled::Unreadable => return EXIT_USAGE,
    };
    let source_dir = input.source.parent().map(|p| {
        if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        }
    });
    match write::write(out, &artifacts, source_dir) {
        Ok(report) => {
            if !quiet {
                let mut line = format!(
                    "built {} files into {} ({} written, {} unchanged",
                    artifacts.len(),
                    out.display(),
                    report.written,
                    report.unchanged
                );
                if !report.removed.is_empty() {
                    line.push_str(&format!(", {} stale removed", report.removed.len()));
                }
                line.push_str(&format!("; {})", summary(&diags)));
                eprintln!("{line}");
            }
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: {}", e.message);
            if let Some(h) = e.help {
                eprintln!("  = help: {h}");
            }
            eprintln!("error: build failed; {} left unchanged", out.display());
            EXIT_USAGE
        }
    }
}

fn check(input: &Input, strict: bool, quiet: bool) -> u8 {
    match compile(input, quiet, strict) {
        Compiled::Ok(artifacts, diags) => {
            let failed = strict && diags.warning_count() > 0;
            if !quiet || failed {
                let docs = artifacts.iter().filter(|a| a.serving.is_some()).count();
                eprintln!(
                    "{}: {} ({docs} documents)",
                    input.source.display(),
                    summary(&diags)
                );
            }
            if failed { EXIT_INVALID } else { EXIT_OK }
        }
        Compiled::Invalid => EXIT_INVALID,
        Compiled::Unreadable => EXIT_USAGE,
    }
}

pub const STARTER: &str = include_str!("../templates/service.toml");

fn init(dir: &Path, quiet: bool) -> u8 {
    let path = dir.join("service.toml");
    let result = std::fs::create_dir_all(dir).and_then(|()| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| f.write_all(STARTER.as_bytes()))
    });
    match result {
        Ok(()) => {
            if !quiet {
                eprintln!(
                    "wrote {}; next: edit it, then run `wellgen build`",
                    path.display()
                );
            }
            EXIT_OK
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!(
                "error: {} already exists; refusing to overwrite it",
                path.display()
            );
            EXIT_USAGE
        }
        Err(e) => {
            eprintln!(
                "error: cannot write {}: {}",
                path.display(),
                source::io_reason(&e)
            );
            EXIT_USAGE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
