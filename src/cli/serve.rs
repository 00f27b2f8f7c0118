//! `wellgen serve`: the preview server's command line, HTTP glue and `--watch` rebuilds. What
//! a request gets is decided by `serve::Site`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use clap::{Args, Parser};

use super::{EXIT_OK, EXIT_USAGE, Input};
use crate::diag::shown;
use crate::model::Host;
use crate::serve::Site;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The output folder to serve.
    #[arg(value_name = "DIR", default_value = "dist")]
    pub dir: PathBuf,
    /// Build this service.toml into DIR before serving.
    #[arg(long, value_name = "FILE")]
    pub source: Option<PathBuf>,
    /// Rebuild when the source changes (polls its modification time).
    #[arg(long, requires = "source")]
    pub watch: bool,
    /// Host preset for the builds (overrides `[deploy] host`), and the host whose way of
    /// combining `_headers` rules the preview reproduces (default: the one the folder was
    /// built for).
    #[arg(long, value_name = "HOST")]
    pub host: Option<Host>,
    /// Address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: String,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
}

/// `Input` as the build command would parse it, so fields added to `Input` keep their own
/// defaults here.
#[derive(Parser)]
struct BuildInput {
    #[command(flatten)]
    input: Input,
}

pub(super) fn serve(args: &ServeArgs, quiet: bool) -> u8 {
    let input = match &args.source {
        Some(source) => {
            let mut argv = vec!["wellgen".into(), source.as_os_str().to_owned()];
            if let Some(host) = args.host {
                argv.extend(["--host".into(), host.name().into()]);
            }
            match BuildInput::try_parse_from(argv) {
                Ok(b) => Some(b.input),
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_USAGE;
                }
            }
        }
        None => None,
    };
    if let Some(input) = &input {
        let code = super::build::build(
            input,
            Some(&args.dir),
            &super::Report {
                summary_off: true,
                ..Default::default()
            },
            quiet,
        );
        if code != EXIT_OK && !args.watch {
            return code;
        }
    }
    if !args.dir.is_dir() {
        eprintln!("error: {} is not a folder", args.dir.display());
        eprintln!(
            "  = help: build first (`wellgen build -o {0}`) or pass `--source service.toml`",
            args.dir.display()
        );
        return EXIT_USAGE;
    }
    let listener = match std::net::TcpListener::bind((args.bind.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", args.bind, args.port);
            eprintln!("  = help: choose another port with --port (0 picks a free one)");
            return EXIT_USAGE;
        }
    };
    let Ok(addr) = listener.local_addr() else {
        eprintln!("error: not listening on an IP address");
        return EXIT_USAGE;
    };
    let site = match args.host {
        Some(host) => Site::new(&args.dir).with_host(host),
        None => Site::new(&args.dir),
    };
    let base = format!("http://{addr}");
    print_urls(&site, &base);
    for problem in site.problems() {
        eprintln!("warning: {}", shown::message(&problem));
    }
    if let (Some(input), true) = (input, args.watch) {
        let dir = args.dir.clone();
        std::thread::spawn(move || watch(&input, &dir, &base, quiet));
    }
    // The method and target are the client's: escaped so they cannot drive the terminal.
    let log = |method: &str, target: &str, status: u16| {
        if !quiet {
            let (method, target) = (shown::message(method), shown::message(target));
            eprintln!("{method} {target} -> {status}");
        }
    };
    crate::serve::http::run(
        &listener,
        &site,
        crate::serve::http::Limits::default(),
        &log,
    );
    EXIT_OK
}

fn print_urls(site: &Site, base: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "serving {} (composing headers as {} does) at {base}/",
        site.root().display(),
        site.host().name()
    );
    let docs = site.documents();
    if docs.is_empty() {
        let _ = writeln!(out, "  (no .wellgen-manifest here: not a wellgen build)");
    }
    for path in docs {
        let _ = writeln!(out, "  {base}{path}");
    }
    let _ = out.flush();
}

/// Rebuilds whenever the source's (or its OpenAPI document's) modification time changes.
fn watch(input: &Input, dir: &Path, base: &str, quiet: bool) {
    let files: Vec<PathBuf> = std::iter::once(input.source.clone())
        .chain(input.openapi.clone())
        .collect();
    let stamp = || -> Vec<Option<SystemTime>> {
        files
            .iter()
            .map(|f| std::fs::metadata(f).and_then(|m| m.modified()).ok())
            .collect()
    };
    let mut last = stamp();
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = stamp();
        if now == last {
            continue;
        }
        last = now;
        eprintln!("{} changed: rebuilding", shown::path(&input.source));
        if super::build::build(
            input,
            Some(dir),
            &super::Report {
                summary_off: true,
                ..Default::default()
            },
            quiet,
        ) == EXIT_OK
        {
            print_urls(&Site::new(dir), base);
        }
    }
}
