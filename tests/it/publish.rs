//! Choosing what a build publishes (`[build]`), and coexisting with a real site: every clash
//! reported at once with the switch that avoids it, the site's own `_worker.js` kept, server
//! configuration kept out of the published folder, and `wellgen targets` promising the
//! Content-Type that hosts and `wellgen serve` send.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{files, root, run, wellgen};
use serde_json::Value;

/// A copy of an example with `extra` appended (a `[build]` table), in a fresh folder.
fn source(example: &str, extra: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(root().join(format!("examples/{example}/service.toml"))).unwrap();
    let path = dir.path().join("service.toml");
    fs::write(&path, format!("{text}\n{extra}")).unwrap();
    (dir, path)
}

fn build(source: &Path, out: &Path, extra: &[&str]) -> (i32, String) {
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(source)
        .arg("-o")
        .arg(out)
        .args(extra));
    (code, stderr)
}

fn published(out: &Path) -> Vec<String> {
    files(out).into_keys().collect()
}

#[test]
fn build_targets_in_the_file_choose_the_documents_and_silence_the_others() {
    let (_all, plain) = source("worldweather", "");
    let (code, _, stderr) = run(wellgen().arg("check").arg(&plain));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.to_lowercase().contains("agis"),
        "the control hears of AGIS"
    );

    let (dir, src) = source("worldweather", "[build]\ntargets = [\"ai\"]\n");
    let (code, _, stderr) = run(wellgen().arg("check").arg(&src));
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.to_lowercase().contains("agis"), "{stderr}");
    assert!(stderr.contains("no problems"), "{stderr}");

    let out = dir.path().join("dist");
    assert_eq!(build(&src, &out, &["--host", "netlify"]).0, 0);
    let docs = published(&out);
    assert!(docs.contains(&".well-known/ai".to_string()), "{docs:?}");
    assert!(
        !docs.iter().any(|p| p.contains("agis") || p == "llms.txt"),
        "{docs:?}"
    );

    // `--target` wins over the file.
    let out2 = dir.path().join("dist2");
    assert_eq!(build(&src, &out2, &["--target", "llms-txt"]).0, 0);
    let docs = published(&out2);
    assert!(docs.contains(&"llms.txt".to_string()) && !docs.contains(&"ai".to_string()));
}

#[test]
fn exclude_and_skip_leave_documents_out() {
    let (dir, src) = source(
        "worldweather",
        "[build]\nexclude = [\"agis\", \"mcp\"]\nskip = [\"/ai\", \"/.well-known/ia.json\"]\n",
    );
    let out = dir.path().join("dist");
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    let docs = published(&out);
    for gone in [
        "ai",
        ".well-known/ia.json",
        ".well-known/agis.json",
        ".well-known/mcp/tools.json",
    ] {
        assert!(!docs.contains(&gone.to_string()), "{gone} in {docs:?}");
    }
    for kept in [".well-known/ai", "ia.json", "llms.txt"] {
        assert!(docs.contains(&kept.to_string()), "{kept} not in {docs:?}");
    }
    let headers = fs::read_to_string(out.join("_headers")).unwrap();
    assert!(
        !headers.contains("\n/ai\n"),
        "no rule for a skipped alias:\n{headers}"
    );
}

#[test]
fn unknown_names_in_build_are_errors_that_point_at_the_value() {
    let (_dir, src) = source(
        "worldweather",
        "[build]\ntargets = [\"ai\", \"agsi\"]\nskip = [\"/ai.json\", \"/llms.txt\"]\n",
    );
    let (code, _, stderr) = run(wellgen().arg("check").arg(&src));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("`agsi` is not a target"), "{stderr}");
    assert!(stderr.contains("did you mean `agis`?"), "{stderr}");
    assert!(stderr.contains("did you mean `/ai`?"), "{stderr}");
    assert!(
        stderr.contains("to leave it out, add \"llms-txt\" to `[build] exclude`"),
        "{stderr}"
    );
    let at = format!("{}:", src.display());
    assert!(
        stderr.matches(&at).count() >= 3,
        "each error has its place:\n{stderr}"
    );
}

#[test]
fn every_clash_is_reported_at_once_with_the_switch_that_avoids_it() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("public");
    // A Hugo section folder at /ai and the site's own llms.txt.
    fs::create_dir_all(out.join("ai")).unwrap();
    fs::write(out.join("ai/index.html"), "<h1>AI</h1>").unwrap();
    fs::write(out.join("llms.txt"), "# the site's own\n").unwrap();
    let before = files(&out);
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("2 paths wellgen would write are taken"),
        "{stderr}"
    );
    assert!(
        stderr.contains("ai is the site's own folder; to keep it, add \"/ai\" to `[build] skip`"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "llms.txt is the site's own; to keep it, add \"llms-txt\" to `[build] exclude`"
        ),
        "{stderr}"
    );
    assert!(
        !stderr.contains("delete"),
        "never advise deleting the site's files:\n{stderr}"
    );
    assert_eq!(files(&out), before, "nothing written");

    // Applying the switches named builds, and the site's files stay.
    fs::write(
        &src,
        fs::read_to_string(&src).unwrap()
            + "\n[build]\nskip = [\"/ai\"]\nexclude = [\"llms-txt\"]\n",
    )
    .unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("ai/index.html")).unwrap(),
        "<h1>AI</h1>"
    );
    assert_eq!(
        fs::read_to_string(out.join("llms.txt")).unwrap(),
        "# the site's own\n"
    );
}

const ASTRO_WORKER: &str = "export default { fetch() { return new Response('astro'); } };\n";
const ASTRO_ROUTES: &str = "{\n  \"version\": 1,\n  \"include\": [\"/*\"],\n  \"exclude\": [\"/_astro/*\", \"/favicon.svg\"]\n}\n";

#[test]
fn the_sites_own_worker_is_kept_and_routes_json_sends_wellgens_documents_past_it() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("dist");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("_worker.js"), ASTRO_WORKER).unwrap();
    fs::write(out.join("_routes.json"), ASTRO_ROUTES).unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "cloudflare"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("_worker.js")).unwrap(),
        ASTRO_WORKER
    );
    assert!(
        stderr.contains("wellgen keeps it and writes none"),
        "{stderr}"
    );
    assert!(
        stderr.contains("add \"/_worker.js\" to `[build] skip`"),
        "{stderr}"
    );

    let routes: Value =
        serde_json::from_slice(&fs::read(out.join("_routes.json")).unwrap()).unwrap();
    let exclude: Vec<&str> = routes["exclude"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        &exclude[..2],
        ["/_astro/*", "/favicon.svg"],
        "the site's rules first, kept"
    );
    assert!(exclude.contains(&"/.well-known/ai") && exclude.contains(&"/llms.txt"));

    // Without a route, agents.json links to the OpenAPI file itself.
    let agents = fs::read_to_string(out.join(".well-known/agents.json")).unwrap();
    assert!(!agents.contains("format=openapi"), "{agents}");
    assert!(agents.contains("/api/discovery.openapi.json"), "{agents}");

    // A rebuild changes nothing; skipping the worker says so and silences the warning.
    let (code, stderr) = build(&src, &out, &["--host", "cloudflare"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("0 written"), "{stderr}");
    fs::write(
        &src,
        fs::read_to_string(&src).unwrap() + "\n[build]\nskip = [\"/_worker.js\"]\n",
    )
    .unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "cloudflare"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("keeps it"), "{stderr}");

    // Leaving Cloudflare takes wellgen's rules out and leaves the site's file as it was.
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    let routes: Value =
        serde_json::from_slice(&fs::read(out.join("_routes.json")).unwrap()).unwrap();
    let original: Value = serde_json::from_str(ASTRO_ROUTES).unwrap();
    assert_eq!(routes, original);
    assert_eq!(
        fs::read_to_string(out.join("_worker.js")).unwrap(),
        ASTRO_WORKER
    );
}

#[test]
fn a_worker_folder_of_an_adapter_is_kept_too() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("dist");
    fs::create_dir_all(out.join("_worker.js")).unwrap();
    fs::write(out.join("_worker.js/index.js"), ASTRO_WORKER).unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "cloudflare"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("_worker.js/index.js")).unwrap(),
        ASTRO_WORKER
    );
    assert!(out.join("_routes.json").is_file());
    // The `_routes.json` wellgen made alone goes when no longer needed; the worker stays.
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("_routes.json").exists());
    assert!(out.join("_worker.js/index.js").is_file());
}

#[test]
fn the_starters_build_table_works_once_uncommented() {
    let text: String = wellgen::cli::STARTER
        .lines()
        .map(|l| match l.strip_prefix("# ") {
            Some(rest)
                if rest.starts_with("[build]")
                    || rest.starts_with("targets =")
                    || rest.starts_with("skip =") =>
            {
                format!("{rest}\n")
            }
            _ => format!("{l}\n"),
        })
        .collect();
    assert!(
        text.contains("\n[build]\ntargets = ["),
        "the starter shows [build]"
    );
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("service.toml");
    fs::write(&src, text).unwrap();
    let out = dir.path().join("dist");
    let (code, stderr) = build(&src, &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.to_lowercase().contains("agis"), "{stderr}");
    assert!(!out.join("ai").exists() && out.join(".well-known/ai").exists());
}

#[test]
fn wellgens_own_worker_hides_the_manifest() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("dist");
    assert_eq!(build(&src, &out, &["--host", "cloudflare"]).0, 0);
    let js = fs::read_to_string(out.join("_worker.js")).unwrap();
    assert!(
        js.contains("const PRIVATE = \"/.wellgen-manifest\";"),
        "{js}"
    );
    assert!(js.contains("if (path === PRIVATE)"), "{js}");
    assert!(
        !out.join("_routes.json").exists(),
        "no site worker, no _routes.json"
    );
}

#[test]
fn the_nginx_snippet_goes_only_where_the_user_says_never_into_the_web_root() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("public");
    let (code, stderr) = build(&src, &out, &["--host", "generic"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("wellgen-nginx.conf").exists());
    assert!(
        !stderr.contains("wellgen-nginx.conf"),
        "a default build says nothing of it:\n{stderr}"
    );

    let inside = out.join("conf");
    let (code, stderr) = build(
        &src,
        &out,
        &[
            "--host",
            "generic",
            "--server-config",
            inside.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("inside the output folder"), "{stderr}");
    assert!(!inside.exists());

    // `[deploy] server_config`, relative to the service.toml.
    let text = fs::read_to_string(&src)
        .unwrap()
        .replace("[deploy]", "[deploy]\nserver_config = \"deploy\"");
    let text = if text.contains("[deploy]") {
        text
    } else {
        text + "\n[deploy]\nserver_config = \"deploy\"\n"
    };
    fs::write(&src, text).unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "generic"]);
    assert_eq!(code, 0, "{stderr}");
    let conf = dir.path().join("deploy/wellgen-nginx.conf");
    assert!(
        fs::read_to_string(&conf)
            .unwrap()
            .contains("location = /.well-known/ai {")
    );

    // A file of the user's of that name is never replaced.
    fs::write(&conf, "server { }\n").unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "generic"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(fs::read_to_string(&conf).unwrap(), "server { }\n");
}

#[test]
fn a_web_root_nginx_snippet_of_an_older_build_is_removed_with_a_note() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("public");
    assert_eq!(build(&src, &out, &["--host", "generic"]).0, 0);
    // What an older wellgen wrote: the snippet in the web root, listed in the manifest.
    let body = "# Generated by wellgen; old\n";
    fs::write(out.join("wellgen-nginx.conf"), body).unwrap();
    let manifest = out.join(".wellgen-manifest");
    let text = fs::read_to_string(&manifest).unwrap()
        + &format!(
            "/wellgen-nginx.conf {}\n",
            wellgen::write::content_hash(body.as_bytes())
        );
    fs::write(&manifest, text).unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "generic"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("wellgen-nginx.conf").exists());
    assert!(
        stderr.contains("wellgen-nginx.conf is no longer written into"),
        "{stderr}"
    );
}

#[test]
fn targets_promise_the_content_type_that_serve_sends() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("dist");
    assert_eq!(build(&src, &out, &["--host", "netlify"]).0, 0);
    let site = wellgen::serve::site::Site::new(&out);
    let mut checked = 0;
    for target in wellgen::emit::Target::ALL {
        for doc in target.descriptor().documents {
            let url = if let Some(suffix) = doc.family_suffix() {
                // The first member of the family that is there (a skill's folder holds its
                // SKILL.md; the index beside them is another document).
                let dir = out.join(doc.path.trim_start_matches('/'));
                let mut names: Vec<String> = fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                let Some(url) = names
                    .iter()
                    .map(|n| format!("{}{n}{suffix}", doc.path))
                    .find(|u| out.join(u.trim_start_matches('/')).is_file())
                else {
                    continue;
                };
                url
            } else {
                doc.path.to_string()
            };
            if !out.join(url.trim_start_matches('/')).is_file() {
                continue;
            }
            let reply = site.respond(&url);
            let sent: Vec<&str> = reply
                .headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.as_str())
                .collect();
            assert_eq!(sent, [doc.served_content_type()], "{url}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn folders_wellgen_did_not_create_are_never_removed() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("public");
    // The site already has /.well-known/ (say, for security.txt, removed later).
    fs::create_dir_all(out.join(".well-known")).unwrap();
    assert_eq!(build(&src, &out, &["--host", "netlify"]).0, 0);
    let manifest = fs::read_to_string(out.join(".wellgen-manifest")).unwrap();
    assert!(!manifest.contains("/.well-known/ folder"), "{manifest}");
    assert!(manifest.contains("/.well-known/mcp/ folder"), "{manifest}");
    // Publishing nothing under /.well-known/ any more: wellgen's files and the folders it made
    // go, the site's folder stays.
    fs::write(
        &src,
        fs::read_to_string(&src).unwrap() + "\n[build]\ntargets = [\"llms-txt\"]\n",
    )
    .unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.join(".well-known").is_dir(), "the site's folder stays");
    assert!(
        !out.join(".well-known/mcp").exists(),
        "wellgen's emptied folder goes"
    );
    assert!(!out.join("api").exists(), "{:?}", published(&out));
}

#[test]
fn an_older_manifest_adopts_the_folders_that_hold_only_its_files() {
    let (dir, src) = source("worldweather", "");
    let out = dir.path().join("dist");
    assert_eq!(build(&src, &out, &["--host", "netlify"]).0, 0);
    let manifest = out.join(".wellgen-manifest");
    let text = fs::read_to_string(&manifest).unwrap();
    // The same manifest as the previous format wrote it: one head line, no folder lines.
    let old: String = text
        .lines()
        .enumerate()
        .filter(|(i, l)| *i != 1 && !l.ends_with(" folder"))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    fs::write(&manifest, &old).unwrap();
    let (code, stderr) = build(&src, &out, &["--host", "netlify"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read_to_string(&manifest).unwrap(), text);
}
