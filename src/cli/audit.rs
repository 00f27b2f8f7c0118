//! `wellgen audit DIR|URL`: grades a built folder or a served site (src/audit/) and prints the
//! level it reaches, with the reason and the fix for each failed requirement.

use std::path::Path;

use clap::{Args, ValueEnum};

use super::{EXIT_BELOW_LEVEL, EXIT_OK, EXIT_USAGE};
use crate::audit::{self, Folder, Origin, Remote, ladder, render};
use crate::diag::shown;
use crate::model::Host;
use crate::serve::Site;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// The level, each failed requirement's reason and fix (stdout).
    #[default]
    Text,
    /// The Agent-Adoption Specification's scanner output (output-v1.schema.json), wellgen's
    /// level under `meta.ladder`.
    Json,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// A built folder (answered as its host answers it, nothing fetched) or a served site's
    /// URL (https; http on a loopback address only).
    #[arg(value_name = "DIR|URL", default_value = "dist")]
    pub target: String,
    /// Folder mode: the host whose rules answer requests (default: the one the folder was built for).
    #[arg(long, value_name = "HOST")]
    pub host: Option<Host>,
    /// Folder mode: the https origin the folder is published at; links to it are looked up in
    /// the folder (others are never fetched).
    #[arg(long, value_name = "URL", value_parser = super::parse_site_url)]
    pub site_url: Option<String>,
    /// How to print the result.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: AuditFormat,
    /// Exit 3 when the site reaches a lower level than this (for CI).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=i64::from(ladder::TOP)))]
    pub min_level: Option<u8>,
}

pub(super) fn audit(args: &AuditArgs) -> u8 {
    let is_url = args.target.contains("://");
    let origin: Box<dyn Origin> = if is_url {
        if args.host.is_some() || args.site_url.is_some() {
            eprintln!(
                "error: --host and --site-url are for a folder; a URL is audited as it answers"
            );
            return EXIT_USAGE;
        }
        match Remote::new(&args.target) {
            Ok(remote) => {
                if let Err(e) = remote.get("/", crate::audit::checks::ACCEPT_HTML) {
                    eprintln!("error: {}", shown::message(&e));
                    return EXIT_USAGE;
                }
                Box::new(remote)
            }
            Err(e) => {
                eprintln!("error: {}", shown::message(&e));
                return EXIT_USAGE;
            }
        }
    } else {
        let dir = Path::new(&args.target);
        if !dir.is_dir() {
            eprintln!(
                "error: {} is not a folder (or an http(s) URL)",
                shown::path(dir)
            );
            return EXIT_USAGE;
        }
        match folder(dir, args.host, args.site_url.as_deref()) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("error: {}", shown::message(&e));
                return EXIT_USAGE;
            }
        }
    };
    let result = audit::audit(origin.as_ref());
    let text = match args.format {
        AuditFormat::Text => render::text(&result),
        AuditFormat::Json => {
            let mut bytes = crate::emit::to_json_bytes(&render::json(&result));
            bytes.push(b'\n');
            String::from_utf8(bytes).unwrap_or_default()
        }
    };
    print!("{text}");
    match args.min_level {
        Some(min) if result.level() < min => {
            eprintln!(
                "error: level {} ({}) is below --min-level {min}",
                result.level(),
                ladder::name(result.level())
            );
            EXIT_BELOW_LEVEL
        }
        _ => EXIT_OK,
    }
}

fn folder(dir: &Path, host: Option<Host>, site_url: Option<&str>) -> Result<Folder, String> {
    let mut site = Site::new(dir);
    if let Some(host) = host {
        site = site.with_host(host);
    }
    let url = site_url
        .map(|u| url::Url::parse(u).map_err(|e| format!("`{u}`: {e}")))
        .transpose()?;
    Ok(Folder::new(site, url.as_ref()))
}

/// The line a build ends with: the level its folder reaches, as its host answers it.
pub(super) fn level_line(dir: &Path) -> String {
    let Ok(origin) = folder(dir, None, None) else {
        return String::new();
    };
    let result = audit::audit(&origin);
    let next = result
        .ladder
        .failed()
        .next()
        .map(|r| format!("; next: {} (`wellgen audit {}`)", r.id, shown::path(dir)))
        .unwrap_or_default();
    format!(
        "level {} of {} ({}) as {} answers it{next}",
        result.level(),
        ladder::TOP,
        ladder::name(result.level()),
        origin.host().name()
    )
}
