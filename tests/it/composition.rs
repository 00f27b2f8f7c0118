//! A site's own `_headers` beside wellgen's section, and the host a build picks from its
//! environment: Cloudflare builds detach what the site's earlier blocks set, every build names
//! the site rules a host could still join with wellgen's values, and NETLIFY / CF_PAGES /
//! VERCEL choose the host only where neither `--host` nor `[deploy] host` does.

use std::fs;
use std::path::Path;

use crate::common::{root, run, wellgen};

const STAR_BLOCK: &str = "/*\n  Cache-Control: public, max-age=0, must-revalidate\n  \
    Access-Control-Allow-Origin: https://mysite.example\n  X-Site: kept\n";

fn build(out: &Path, source: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let source = root().join(source);
    let mut cmd = wellgen();
    cmd.arg("build")
        .arg(&source)
        .arg("-o")
        .arg(out)
        .args(args)
        .envs(env.iter().copied());
    let (code, _, stderr) = run(&mut cmd);
    (code, stderr)
}

fn overlap_warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("warning[W-output-kept]: _headers:"))
        .collect()
}

#[test]
fn cloudflare_detaches_the_sites_values_and_warns_only_below_its_section() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("_headers"), STAR_BLOCK).unwrap();
    let bookshelf = "examples/bookshelf/service.toml";
    let (code, stderr) = build(dir.path(), bookshelf, &["--host", "cloudflare"], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(overlap_warnings(&stderr).is_empty(), "{stderr}");
    let text = fs::read_to_string(dir.path().join("_headers")).unwrap();
    assert!(text.starts_with(STAR_BLOCK), "{text}");
    assert!(
        text.contains(
            "/.well-known/ai\n  ! Content-Type\n  ! Cache-Control\n  ! Access-Control-Allow-Origin\n  Content-Type:"
        ),
        "{text}"
    );

    // The same block below wellgen's section: a detach line cannot reach it.
    let below = format!("{text}\n{STAR_BLOCK}");
    fs::write(dir.path().join("_headers"), &below).unwrap();
    let (code, stderr) = build(dir.path(), bookshelf, &["--host", "cloudflare"], &[]);
    assert_eq!(code, 0, "{stderr}");
    let warnings = overlap_warnings(&stderr);
    assert_eq!(warnings.len(), 2, "{stderr}");
    let line = below.lines().count() - 3;
    assert!(
        warnings[1].starts_with(&format!(
            "warning[W-output-kept]: _headers:{line}: `/*` also sets Access-Control-Allow-Origin on wellgen's /.well-known/ai and "
        )),
        "{}",
        warnings[1]
    );
    assert!(
        warnings[1].contains("Cloudflare joins the values (`https://mysite.example, …`)"),
        "{}",
        warnings[1]
    );
}

#[test]
fn netlify_and_generic_builds_name_the_line_to_delete() {
    for host in ["netlify", "generic"] {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("_headers"), STAR_BLOCK).unwrap();
        let (code, stderr) = build(
            dir.path(),
            "examples/bookshelf/service.toml",
            &["--host", host],
            &[],
        );
        assert_eq!(code, 0, "{stderr}");
        let text = fs::read_to_string(dir.path().join("_headers")).unwrap();
        assert!(
            !text.contains("  ! "),
            "Netlify has no detach syntax:\n{text}"
        );
        let warnings = overlap_warnings(&stderr);
        assert_eq!(warnings.len(), 2, "{host}: {stderr}");
        assert!(
            warnings[0].contains(
                "delete the `Cache-Control: public, max-age=0, must-revalidate` line from `/*`"
            ),
            "{}",
            warnings[0]
        );
        assert!(
            warnings[1].starts_with(
                "warning[W-output-kept]: _headers:1: `/*` also sets Access-Control-Allow-Origin"
            ),
            "{}",
            warnings[1]
        );
    }
    // A site rule with wellgen's own value, or a header wellgen does not set, is no overlap.
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("_headers"),
        "/*\n  Access-Control-Allow-Origin: *\n  X-Frame-Options: DENY\n",
    )
    .unwrap();
    let (code, stderr) = build(
        dir.path(),
        "examples/bookshelf/service.toml",
        &["--host", "netlify"],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(overlap_warnings(&stderr).is_empty(), "{stderr}");
}

/// The host files only one host's build writes (a generic build none of them).
fn host_files(dir: &Path) -> Vec<&'static str> {
    ["_redirects", "_worker.js", "vercel.json"]
        .into_iter()
        .filter(|f| dir.join(f).exists())
        .collect()
}

#[test]
fn a_hosts_build_environment_picks_the_host_and_says_so() {
    // simplenotes has no [deploy] host.
    let simplenotes = "examples/simplenotes/service.toml";
    for (var, value, host, file) in [
        ("NETLIFY", "true", "netlify", "_redirects"),
        ("CF_PAGES", "1", "cloudflare", "_worker.js"),
        ("VERCEL", "1", "vercel", "vercel.json"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (code, stderr) = build(dir.path(), simplenotes, &[], &[(var, value)]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(host_files(dir.path()), [file], "{var}={value}");
        let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note:")).collect();
        assert_eq!(
            notes,
            [format!(
                "note: host {host} ({var}={value} is set); --host or [deploy] host chooses another"
            )],
            "{stderr}"
        );
        // --host wins, silently.
        let dir = tempfile::tempdir().unwrap();
        let (code, stderr) = build(
            dir.path(),
            simplenotes,
            &["--host", "generic"],
            &[(var, value)],
        );
        assert_eq!(code, 0, "{stderr}");
        assert!(host_files(dir.path()).is_empty());
        assert!(!stderr.contains("note: host"), "{stderr}");
    }
    // Elsewhere (or a value the host does not set) the default stays generic.
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = build(dir.path(), simplenotes, &[], &[("NETLIFY", "1")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(host_files(dir.path()).is_empty());
    assert!(!stderr.contains("note: host"), "{stderr}");
    // [deploy] host wins over the environment: bookshelf says netlify.
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = build(
        dir.path(),
        "examples/bookshelf/service.toml",
        &[],
        &[("CF_PAGES", "1")],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(host_files(dir.path()), ["_redirects"]);
    assert!(!stderr.contains("note: host"), "{stderr}");
}

#[test]
fn host_from_env_reads_only_the_documented_values() {
    use wellgen::model::Host;
    use wellgen::pipeline::host_from_env;
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(host_from_env(env(&[])), None);
    assert_eq!(host_from_env(env(&[("CF_PAGES", "0")])), None);
    assert_eq!(host_from_env(env(&[("GITHUB_ACTIONS", "true")])), None);
    let found = host_from_env(env(&[("VERCEL", "1")])).unwrap();
    assert_eq!((found.host, found.by), (Host::Vercel, "VERCEL=1"));
}
