//! The command line: argument definitions, dispatch and exit codes. Each command lives in its
//! own module; `compile` is the pipeline they share.

mod audit;
mod batch;
mod build;
mod check;
mod compile;
mod completions;
mod import;
mod init;
mod schema;
mod serve;
mod site;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::diag::report::{Format, Shown};
use crate::emit::{self, Target};
use crate::model::Host;
use crate::source::openapi;

pub use init::STARTER;
pub use schema::{SCHEMA_URL, service_schema};

/// Exit codes: documented in README.md and `--help`.
pub const EXIT_OK: u8 = 0;
pub const EXIT_INVALID: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
/// `audit --min-level N`: the site reaches a lower level.
pub const EXIT_BELOW_LEVEL: u8 = 3;

const AFTER_HELP: &str = "\
Examples:
  wellgen init                     write a starter service.toml here
  wellgen build                    ./service.toml -> ./dist
  wellgen build api/service.toml -o public
  wellgen build services/ --out site   every service.toml below services/, in parallel
  wellgen check --strict           fail CI on errors and warnings
  wellgen check --format github    annotate a GitHub Actions run (also json, sarif)
  wellgen schema                   the JSON Schema of service.toml, for editors
  wellgen audit dist --min-level 3 grade a built folder (or an https URL) for agents

Exit codes: 0 success, 1 invalid input (or warnings with --strict), 2 usage or I/O error,
3 `audit --min-level` not reached.";

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
        /// Output folder: a fresh dist/ or an existing site folder (only wellgen's own files are
        /// touched). Default: dist; for a SOURCE folder, dist beside each service.toml, or with
        /// --out, OUT/<folder of the service.toml relative to SOURCE>.
        #[arg(short, long, value_name = "DIR")]
        out: Option<PathBuf>,
        #[command(flatten)]
        report: Report,
    },
    /// Run every check without writing anything.
    Check {
        #[command(flatten)]
        input: Input,
        /// Exit 1 on warnings too.
        #[arg(long)]
        strict: bool,
        /// How to print diagnostics: human (stderr), json, github (Actions annotations) or sarif (stdout).
        #[arg(long, value_name = "FORMAT", default_value = "human")]
        format: Format,
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
        /// Refuse inputs larger than this (the document and every file its refs reach, together): bytes, or with K, M or G.
        #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
        max_input_size: u64,
        /// Give up (exit 2) if reading and converting take longer than this many seconds; nothing is written then.
        #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
        time_limit: u64,
        /// The folder whose files `$ref`s may reach (default: the repository or current folder holding OPENAPI, else its folder).
        #[arg(long, value_name = "DIR")]
        ref_root: Option<PathBuf>,
        /// The API's https base URL, for a document that names no https server (its base path without a host is kept).
        #[arg(long, value_name = "URL", value_parser = parse_base_url)]
        base_url: Option<String>,
        /// The https origin the documents are published at, written as `[service] site_url` (default: the base URL's origin, listed for review).
        #[arg(long, value_name = "URL", value_parser = parse_site_url)]
        site_url: Option<String>,
        /// Also print notes: what the import rewrote into a form service.toml holds.
        #[arg(long)]
        notes: bool,
        /// Print every diagnostic in full instead of grouping the warnings and notes of one kind.
        #[arg(long)]
        verbose: bool,
    },
    /// Print the JSON Schema of service.toml (for editors; see docs/editors.md).
    Schema,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of wellgen, or of one command (`wellgen man check`).
    Man {
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
    /// Grade a built folder or a served site for AI agents: the level it reaches (1-5), each
    /// failed check's reason and fix.
    Audit(audit::AuditArgs),
    /// Preview an output folder over HTTP with its `_headers` and `_redirects` applied.
    Serve(serve::ServeArgs),
    /// Write a commented starter service.toml that builds as it is.
    Init {
        /// Folder to write service.toml into.
        #[arg(value_name = "DIR", default_value = ".")]
        dir: PathBuf,
    },
}

/// What `build` reports after writing, where server configuration goes, and how a batch runs.
#[derive(Debug, Clone, Default, Args)]
pub struct Report {
    /// Generic host: write the nginx snippet (wellgen-nginx.conf) into this folder, which must
    /// be outside the output folder (overrides `[deploy] server_config`). Without either it is
    /// not written: the output folder is published, configuration is not.
    #[arg(long, value_name = "DIR")]
    pub server_config: Option<PathBuf>,
    /// Print the summary (files, bytes, tokens, source-to-/.well-known/ai ratio) as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Batch builds: how many services to build at once (default: one per core).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<std::num::NonZeroUsize>,
    /// Batch builds: count tokens too (a single build always counts them, unless --quiet).
    #[arg(long)]
    pub tokens: bool,
    /// No summary at all (for `serve`'s rebuilds, whose output is the server's).
    #[arg(skip)]
    pub summary_off: bool,
}

#[derive(Debug, Clone, Args)]
pub struct Input {
    /// The service description, or a folder: every service.toml below it is built.
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
    /// Refuse inputs larger than this (each source, and an OpenAPI document with every file its refs reach): bytes, or with K, M or G.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub max_input_size: u64,
    /// Give up (exit 2) if reading, checking and generating take longer than this many seconds; nothing is written then.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub time_limit: u64,
    /// The folder whose files an OpenAPI document's `$ref`s may reach (default: the repository or current folder holding the document, else its folder).
    #[arg(long, value_name = "DIR")]
    pub ref_root: Option<PathBuf>,
    /// The output folder a build writes into, looked at (never changed) before compiling: a
    /// `_worker.js` of the site's own there is kept.
    #[arg(skip)]
    pub site: Option<PathBuf>,
    /// The API's https base URL, as `[service] base_url` sets it; for an OpenAPI document, over its servers (its base path without a host is kept).
    #[arg(long, value_name = "URL", value_parser = parse_base_url)]
    pub base_url: Option<String>,
    /// The https origin the documents are published at, as `[service] site_url` sets it (and over it): every link between them starts with it.
    #[arg(long, value_name = "URL", value_parser = parse_site_url)]
    pub site_url: Option<String>,
    /// Silence a warning or note code (docs/diagnostics.md), as `[check] allow` does; repeatable.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Also print notes: the values wellgen filled in that the source does not say.
    #[arg(long)]
    pub notes: bool,
    /// Print every diagnostic in full instead of grouping the warnings and notes of one kind.
    #[arg(long)]
    pub verbose: bool,
    /// For an OpenAPI source: keep only these operations, `tag:<glob>` or `op:<glob>` (`*`, `?`), as `[source] include` does. Repeatable.
    #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
    pub include: Vec<String>,
    /// For an OpenAPI source: leave out these operations (same patterns), as `[source] exclude` does. Repeatable.
    #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
    pub exclude: Vec<String>,
}

/// `--base-url`: an https URL without query or fragment, its trailing `/` dropped.
fn parse_base_url(text: &str) -> Result<String, String> {
    crate::model::HttpsUrl::parse_base(text.trim())
        .map(|u| u.as_str().to_string())
        .map_err(|e| format!("`{text}`: {e} (e.g. --base-url https://api.example.com/v1)"))
}

/// `--site-url`: an https origin (`https://host[:port]`), its trailing `/` dropped.
fn parse_site_url(text: &str) -> Result<String, String> {
    crate::model::HttpsUrl::parse_origin(text.trim())
        .map(|u| u.as_str().to_string())
        .map_err(|e| format!("`{text}`: {e} (e.g. --site-url https://www.example.com)"))
}

/// `1048576`, `512K`, `64M`, `1G` (also `64MB`, `64MiB`): a size in bytes.
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as 64M"))?;
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("`{text}`: the unit must be K, M or G")),
    };
    number
        .checked_mul(1 << shift)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{text}` is not a usable size"))
}

impl Input {
    pub(crate) fn targets(&self) -> Vec<Target> {
        Target::with_requirements(&self.targets)
    }

    /// The site's own files in the output folder that a document lists (skills) or a host
    /// file merges with (robots.txt, and whether there is a sitemap).
    pub(crate) fn site_files(&self) -> crate::model::SiteFiles {
        match &self.site {
            Some(site) => site::read(site, &crate::write::manifest_paths(site)),
            None => crate::model::SiteFiles::default(),
        }
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(dispatch(&cli, true))
}

/// Runs `cli`'s command in a process that goes on afterwards.
pub fn run(cli: &Cli) -> u8 {
    dispatch(cli, false)
}

/// `exiting`: the process ends when the command is done. For one source (not a batch, not
/// `serve`), what is large is then left for the exit to free (`parallel::release`).
fn dispatch(cli: &Cli, exiting: bool) -> u8 {
    let one = |input: &Input| {
        if exiting {
            crate::parallel::exits_after_command();
        }
        input.clone()
    };
    match &cli.command {
        // A folder as SOURCE: every service.toml below it.
        Command::Build { input, out, report } if input.source.is_dir() => {
            batch::build_all(input, out.as_deref(), report, cli.quiet)
        }
        Command::Build { input, out, report } => {
            build::build(&one(input), out.as_deref(), report, cli.quiet)
        }
        Command::Check {
            input,
            strict,
            format,
        } => check::check(&one(input), *strict, *format, cli.quiet),
        Command::Init { dir } => init::init(dir, cli.quiet),
        Command::Schema => schema::schema(),
        Command::Completions { shell } => completions::completions(*shell),
        Command::Man { command } => completions::man(command.as_deref()),
        Command::Serve(args) => serve::serve(args, cli.quiet),
        Command::Audit(args) => audit::audit(args),
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
            max_input_size,
            time_limit,
            ref_root,
            base_url,
            site_url,
            notes,
            verbose,
        } => {
            if exiting {
                crate::parallel::exits_after_command();
            }
            let options = openapi::Options {
                max_input_size: *max_input_size,
                ref_root: ref_root.clone(),
                filter: openapi::Filter {
                    include: include.clone(),
                    exclude: exclude.clone(),
                },
                base_url: base_url.clone(),
                command: "import",
            };
            let shown = Shown {
                errors_only: cli.quiet,
                notes: *notes,
                verbose: *verbose,
            };
            import::import(
                source,
                out,
                &options,
                site_url.as_deref(),
                *time_limit,
                shown,
            )
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

    #[test]
    fn a_site_url_is_an_https_origin() {
        assert_eq!(
            parse_site_url(" https://docs.example.com/ "),
            Ok("https://docs.example.com".into())
        );
        assert_eq!(
            parse_site_url("https://docs.example.com:8443"),
            Ok("https://docs.example.com:8443".into())
        );
        for bad in [
            "http://docs.example.com",
            "https://docs.example.com/site",
            "https://docs.example.com/#top",
            "docs.example.com",
        ] {
            let e = parse_site_url(bad).unwrap_err();
            assert!(e.contains("--site-url https://"), "{bad}: {e}");
        }
    }

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("512kb"), Ok(512 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("0").is_err() && parse_size("5T").is_err() && parse_size("M").is_err());
        assert!(parse_size("99999999999G").is_err());
    }
}
