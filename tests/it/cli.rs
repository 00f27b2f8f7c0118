//! The command line as a user meets it: bad input cases as data, exit codes, determinism,
//! and what a build does to the output folder.

use std::fs;
use std::path::Path;

use crate::common::*;

/// `tests/cases/<name>/service.toml` is checked with `wellgen check service.toml [args]` from
/// inside its folder (`args` is an optional file); `expected.txt` holds the exit code and the
/// exact stderr.
#[test]
fn bad_input_cases() {
    let mut failures = Vec::new();
    let dir = root().join("tests/cases");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 9);
    for case in cases {
        // An optional `args` file adds arguments, e.g. `--target ai` to keep a case to one target.
        let extra = fs::read_to_string(case.join("args")).unwrap_or_default();
        let (code, stdout, stderr) = run(wellgen()
            .current_dir(&case)
            .args(["check", "service.toml"])
            .args(extra.split_whitespace()));
        assert!(stdout.is_empty(), "diagnostics go to stderr");
        let actual = format!("exit: {code}\n---\n{stderr}");
        let expected_path = case.join("expected.txt");
        if blessing() {
            fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "{}:\n--- expected\n{expected}\n--- actual\n{actual}",
                case.display()
            ));
        }
        if code == 0 {
            failures.push(format!("{}: a bad input passed the check", case.display()));
        }
        if stderr.contains("panicked") {
            failures.push(format!("{}: panicked", case.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn example(name: &str) -> std::path::PathBuf {
    root().join("examples").join(name).join("service.toml")
}

#[test]
fn same_input_same_bytes() {
    for source in sources() {
        let a = build(&source, &[]);
        let b = build(&source, &[]);
        assert_eq!(files(a.path()), files(b.path()), "{}", source.display());
    }
}

#[test]
fn a_failed_build_leaves_the_previous_output_untouched() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let out = work.path().join("dist");
    fs::copy(example("exampleshop"), &source).unwrap();
    let (code, _, _) = run(wellgen().arg("build").arg(&source).arg("-o").arg(&out));
    assert_eq!(code, 0);
    let before = files(&out);

    let text = fs::read_to_string(&source).unwrap();
    fs::write(
        &source,
        text.replace("id = \"get_product\"", "id = \"Get Product\""),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().arg("build").arg(&source).arg("-o").arg(&out));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("left unchanged"), "{stderr}");
    assert_eq!(files(&out), before);
    assert_no_temporaries(&out);
}

#[test]
fn check_writes_nothing_and_strict_fails_on_warnings() {
    let work = tempfile::tempdir().unwrap();
    // `[plugin]` asks for ai-plugin.json, which simplenotes lacks a logo and an e-mail for.
    let text = fs::read_to_string(example("simplenotes")).unwrap();
    fs::write(
        work.path().join("service.toml"),
        format!("{text}\n[plugin]\n"),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).arg("check"));
    assert_eq!(code, 0, "{stderr}");
    // A value filled in is a note: counted, not printed, and never fails --strict.
    assert!(!stderr.contains("no [auth] table"), "{stderr}");
    assert!(stderr.contains("values derived for ai, "), "{stderr}");
    let (_, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "--notes"]));
    assert!(
        stderr.contains("note[N-auth-undeclared]: no [auth] table"),
        "{stderr}"
    );
    let (code, _, _) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "--strict"]));
    assert_eq!(code, 1);
    let (code, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "--strict", "--target", "ai"]));
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "check",
        "--strict",
        "--allow",
        "W-plugin-not-written",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "--quiet"]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        fs::read_dir(work.path()).unwrap().count(),
        1,
        "check wrote a file"
    );
}

#[test]
fn missing_source_and_usage_errors_exit_2() {
    let work = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).arg("build"));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("cannot read service.toml: no such file"),
        "{stderr}"
    );
    assert!(stderr.contains("wellgen init"), "{stderr}");
    let (code, _, _) = run(wellgen().args(["build", "--target", "nope"]));
    assert_eq!(code, 2);
    assert!(!work.path().join("dist").exists());
}

#[test]
fn init_writes_a_starter_that_builds_and_never_overwrites() {
    let work = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen().arg("init").arg(work.path()));
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["check", "--strict"]));
    assert_eq!(code, 0, "the starter is clean: {stderr}");
    fs::write(work.path().join("service.toml"), "mine").unwrap();
    let (code, _, stderr) = run(wellgen().arg("init").arg(work.path()));
    assert_eq!(code, 2);
    assert!(stderr.contains("already exists"), "{stderr}");
    assert_eq!(
        fs::read_to_string(work.path().join("service.toml")).unwrap(),
        "mine"
    );
}

#[test]
fn an_existing_site_folder_keeps_everything_wellgen_does_not_own() {
    let site = tempfile::tempdir().unwrap();
    let out = site.path();
    fs::write(out.join("index.html"), "<h1>hi</h1>").unwrap();
    fs::create_dir(out.join(".well-known")).unwrap();
    fs::write(out.join(".well-known/security.txt"), "Contact: x").unwrap();
    fs::write(out.join("_headers"), "/*\n  X-Frame-Options: DENY\n").unwrap();

    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(example("worldweather"))
        .arg("-o")
        .arg(out));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("index.html")).unwrap(),
        "<h1>hi</h1>"
    );
    assert_eq!(
        fs::read_to_string(out.join(".well-known/security.txt")).unwrap(),
        "Contact: x"
    );
    let headers = fs::read_to_string(out.join("_headers")).unwrap();
    assert!(
        headers.starts_with("/*\n  X-Frame-Options: DENY\n\n# BEGIN wellgen\n"),
        "{headers}"
    );
    assert_eq!(headers.matches("# BEGIN wellgen").count(), 1);

    // A second build with fewer targets removes wellgen's stale files, and only those.
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(example("worldweather"))
        .arg("-o")
        .arg(out)
        .args(["--target", "ai"]));
    assert_eq!(code, 0, "{stderr}");
    let again = fs::read_to_string(out.join("_headers")).unwrap();
    assert_eq!(again.matches("# BEGIN wellgen").count(), 1, "{again}");
    assert!(again.starts_with("/*\n  X-Frame-Options: DENY\n"));
    assert!(out.join("index.html").exists() && out.join(".well-known/security.txt").exists());
    assert_no_temporaries(out);
}

#[test]
fn a_file_wellgen_did_not_write_is_never_replaced() {
    let site = tempfile::tempdir().unwrap();
    let out = site.path();
    fs::write(out.join("ai"), "the site's own /ai page").unwrap();
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(example("worldweather"))
        .arg("-o")
        .arg(out));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("ai is the site's own; to keep it, add \"/ai\" to `[build] skip`"),
        "{stderr}"
    );
    assert!(!stderr.contains("delete"), "{stderr}");
    assert_eq!(
        fs::read_to_string(out.join("ai")).unwrap(),
        "the site's own /ai page"
    );
    assert!(
        !out.join(".well-known").exists(),
        "nothing was added either"
    );
    assert!(!out.join("_headers").exists());
}

#[test]
fn stale_files_of_the_previous_build_are_removed() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let out = work.path().join("dist");
    fs::copy(example("exampleshop"), &source).unwrap();
    run(wellgen().arg("build").arg(&source).arg("-o").arg(&out));
    let manifest = fs::read_to_string(out.join(".wellgen-manifest")).unwrap();
    assert!(
        manifest
            .lines()
            .any(|l| l.starts_with("/.well-known/ai sha256:")),
        "{manifest}"
    );
    fs::write(out.join("keep.txt"), "user file").unwrap();
    // Pretend an earlier build wrote a file this one no longer produces.
    fs::write(out.join("old.json"), "{}").unwrap();
    fs::write(
        out.join(".wellgen-manifest"),
        format!(
            "{manifest}/old.json {}\n",
            wellgen::write::content_hash(b"{}")
        ),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().arg("build").arg(&source).arg("-o").arg(&out));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("1 stale removed"), "{stderr}");
    assert!(!out.join("old.json").exists());
    assert_eq!(
        fs::read_to_string(out.join("keep.txt")).unwrap(),
        "user file"
    );
}

#[test]
fn refuses_to_write_into_the_source_folder() {
    let work = tempfile::tempdir().unwrap();
    fs::copy(example("worldweather"), work.path().join("service.toml")).unwrap();
    let (code, _, stderr) = run(wellgen()
        .current_dir(work.path())
        .args(["build", "-o", "."]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the folder of the source file"), "{stderr}");
    assert_eq!(fs::read_dir(work.path()).unwrap().count(), 1);
}

/// `wellgen build` of the worldweather example into `out`: exit code, stdout, stderr.
fn build_worldweather_into(out: &Path) -> (i32, String, String) {
    run(wellgen()
        .arg("build")
        .arg(example("worldweather"))
        .arg("-o")
        .arg(out))
}

#[cfg(unix)]
#[test]
fn never_writes_through_a_symlink_leading_outside() {
    let work = tempfile::tempdir().unwrap();
    let outside = work.path().join("outside");
    let out = work.path().join("dist");
    fs::create_dir_all(&outside).unwrap();
    fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&outside, out.join(".well-known")).unwrap();
    let (code, _, stderr) = build_worldweather_into(&out);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("leads outside the output folder"),
        "{stderr}"
    );
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
}

/// A link where a document goes is refused, whether wellgen wrote that file before or not:
/// the file it points at is never written, and nothing else of the build is.
#[cfg(unix)]
#[test]
fn never_writes_through_a_symlinked_file() {
    for built_before in [false, true] {
        let work = tempfile::tempdir().unwrap();
        let target = work.path().join("target.txt");
        let out = work.path().join("dist");
        fs::write(&target, "mine").unwrap();
        if built_before {
            let (code, _, stderr) = build_worldweather_into(&out);
            assert_eq!(code, 0, "{stderr}");
            fs::remove_file(out.join("llms.txt")).unwrap();
        } else {
            fs::create_dir_all(&out).unwrap();
        }
        std::os::unix::fs::symlink(&target, out.join("llms.txt")).unwrap();
        let before = files(&out);
        let (code, _, stderr) = build_worldweather_into(&out);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("llms.txt: it is a symbolic link"),
            "{stderr}"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
        assert_eq!(files(&out), before, "built before: {built_before}");
    }
}

#[cfg(unix)]
#[test]
fn published_files_are_world_readable() {
    use std::os::unix::fs::PermissionsExt;
    let out = build(&example("worldweather"), &[]);
    let mode = fs::metadata(out.path().join(".well-known/ai"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);
}

fn assert_no_temporaries(dir: &Path) {
    let leftovers: Vec<String> = files(dir)
        .into_keys()
        .filter(|p| p.contains(".wellgen-") && p.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn the_readme_targets_table_is_the_generated_one() {
    let (code, table, _) = run(wellgen().args(["targets", "--markdown"]));
    assert_eq!(code, 0);
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("<!-- targets:begin").expect("begin marker");
    let start = start + readme[start..].find('\n').unwrap() + 1;
    let end = readme.find("<!-- targets:end -->").expect("end marker");
    assert_eq!(
        &readme[start..end],
        table,
        "README's table is stale: paste the output of `wellgen targets --markdown`"
    );
    let (code, text, _) = run(wellgen().arg("targets"));
    assert_eq!(code, 0);
    assert!(
        text.contains("RFC 9727") && text.contains("superseded"),
        "{text}"
    );
}

#[test]
fn documents_link_only_to_documents_of_the_same_build() {
    let out = build(
        &example("worldweather"),
        &["--target", "llms-txt,api-catalog"],
    );
    let llms = fs::read_to_string(out.path().join("llms.txt")).unwrap();
    let catalog = fs::read_to_string(out.path().join(".well-known/api-catalog")).unwrap();
    for doc in [
        "/.well-known/ai",
        "/ia.json",
        "/.well-known/agent\"",
        "/openapi.json",
    ] {
        assert!(
            !catalog.contains(doc),
            "api-catalog links to unbuilt {doc}:\n{catalog}"
        );
    }
    assert!(
        !llms.contains("/.well-known/ai)") && !llms.contains("/api/capabilities/"),
        "{llms}"
    );
    assert!(
        llms.contains("https://worldweather.example/api/weather/current"),
        "{llms}"
    );
    let all = build(&example("worldweather"), &[]);
    let llms = fs::read_to_string(all.path().join("llms.txt")).unwrap();
    assert!(
        llms.contains("/.well-known/ai)") && llms.contains("/api/capabilities/forecast"),
        "{llms}"
    );
}

/// A rebuild that changes a few documents of a folder wellgen owns whole is still one swap (a
/// reader sees the old output or the new one), but the files it leaves as they were keep their
/// inode instead of being written again; the swapped-out folder goes, and the next build of the
/// same source changes nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_rebuild_swaps_in_the_files_it_leaves_as_they_were_without_copying_them() {
    use std::os::unix::fs::MetadataExt;
    let work = tempfile::tempdir().unwrap();
    let source = |version: &str| {
        let mut text = format!(
            "[service]\nname = \"Many\"\ndescription = \"A catalogue of many items to look up.\"\n\
             base_url = \"https://many.example.com\"\nversion = \"{version}\"\n\n[auth]\ntype = \"none\"\n"
        );
        for i in 0..70 {
            text.push_str(&format!(
                "\n[[capabilities]]\nid = \"item_{i}\"\ndescription = \"Get item number {i}\"\n\
                 method = \"GET\"\npath = \"/items/{i}\"\nreturns = \"item {{id, name}}\"\n"
            ));
        }
        let path = work.path().join(format!("service-{version}.toml"));
        fs::write(&path, text).unwrap();
        path
    };
    let (one, two) = (source("1.0.0"), source("2.0.0"));
    let out = work.path().join("dist");
    let build_into = |source: &Path| {
        let (code, _, stderr) = run(wellgen().arg("build").arg(source).arg("-o").arg(&out));
        assert_eq!(code, 0, "{stderr}");
    };
    build_into(&one);
    let inodes = |dir: &Path| -> std::collections::BTreeMap<String, u64> {
        files(dir)
            .into_keys()
            .map(|p| {
                let ino = fs::metadata(dir.join(&p)).unwrap().ino();
                (p, ino)
            })
            .collect()
    };
    let before = files(&out);
    let before_inodes = inodes(&out);
    build_into(&two);
    let after = files(&out);
    let after_inodes = inodes(&out);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    let changed: Vec<&String> = after.keys().filter(|p| before[*p] != after[*p]).collect();
    let kept: Vec<&String> = after.keys().filter(|p| before[*p] == after[*p]).collect();
    assert!(!changed.is_empty() && kept.len() >= 70, "{changed:?}");
    for p in &kept {
        assert_eq!(before_inodes[*p], after_inodes[*p], "{p} was written again");
        assert_eq!(fs::metadata(out.join(p)).unwrap().nlink(), 1, "{p}");
    }
    for p in &changed {
        assert_ne!(
            before_inodes[*p], after_inodes[*p],
            "{p} was changed in place"
        );
    }
    assert_no_temporaries(work.path());
    // Building the same source again finds every file as it should be.
    let (code, stdout, stderr) = run(wellgen().arg("build").arg(&two).arg("-o").arg(&out));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(files(&out), after);
    assert_eq!(inodes(&out), after_inodes, "{stdout}");
}

/// An OpenAPI document whose path-level query parameter `id` shadows the path's `{id}` for three
/// operations (one finding, at one place), with 15 `HEAD` operations (one finding at 15: more
/// than the terminal shows in full).
fn document_with_repeated_findings(dir: &Path) -> std::path::PathBuf {
    let mut paths = serde_json::Map::new();
    paths.insert(
        "/users/{id}".into(),
        serde_json::json!({
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "id", "in": "query", "schema": {"type": "string"}}
            ],
            "get": {"operationId": "getUser", "summary": "Get a user", "responses": {"200": {"description": "ok"}}},
            "put": {"operationId": "putUser", "summary": "Replace a user", "responses": {"200": {"description": "ok"}}},
            "delete": {"operationId": "deleteUser", "summary": "Delete a user", "responses": {"200": {"description": "ok"}}}
        }),
    );
    for i in 0..15 {
        paths.insert(
            format!("/things{i}"),
            serde_json::json!({
                "get": {"operationId": format!("listThings{i}"), "summary": "List things", "responses": {"200": {"description": "ok"}}},
                "head": {"operationId": format!("headThings{i}"), "responses": {"200": {"description": "ok"}}}
            }),
        );
    }
    let doc = serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Users", "version": "1", "description": "Users and their things."},
        "servers": [{"url": "https://users.example"}],
        "paths": paths
    });
    let path = dir.join("openapi.json");
    fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    path
}

/// Each kind of import finding has its own code, so allowing one leaves the others reporting.
#[test]
fn allowing_one_kind_of_import_finding_leaves_the_others() {
    let work = tempfile::tempdir().unwrap();
    let spec = document_with_repeated_findings(work.path());
    let codes = |extra: &[&str]| -> Vec<String> {
        let (code, stdout, _) = run(wellgen()
            .arg("check")
            .arg(&spec)
            .args(["--format", "json"])
            .args(extra));
        assert_eq!(code, 0, "{stdout}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let mut codes: Vec<String> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_string())
            .filter(|c| c.starts_with("W-import"))
            .collect();
        codes.sort();
        codes.dedup();
        codes
    };
    assert_eq!(
        codes(&[]),
        ["W-import-lost", "W-import-operation-skipped"],
        "the HEAD operations and the shadowed parameter are two rules"
    );
    assert_eq!(
        codes(&["--allow", "W-import-operation-skipped"]),
        ["W-import-lost"]
    );
    assert_eq!(
        codes(&["--allow", "W-import-lost"]),
        ["W-import-operation-skipped"]
    );
}

/// A finding of the import at several places is one diagnostic per place, each place once:
/// grouped on the terminal, every one with `--verbose` (on `import` too) and in `--format json`.
#[test]
fn findings_of_the_import_are_one_diagnostic_per_place_each_place_once() {
    let work = tempfile::tempdir().unwrap();
    let spec = document_with_repeated_findings(work.path());
    let (code, stdout, _) = run(wellgen().arg("check").arg(&spec).args(["--format", "json"]));
    assert_eq!(code, 0, "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let found = |words: &str| -> Vec<String> {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["message"].as_str().unwrap().starts_with(words))
            .map(|d| d["origin"].as_str().unwrap_or("no origin").to_string())
            .collect()
    };
    let shadowed = found("header and query parameters named like a path placeholder");
    assert_eq!(
        shadowed,
        [format!(
            "{}#/paths/~1users~1{{id}}/parameters/1",
            spec.display()
        )],
        "{stdout}"
    );
    let skipped = found("HEAD, OPTIONS, TRACE and QUERY operations are skipped");
    assert_eq!(skipped.len(), 15, "{stdout}");
    for (i, origin) in skipped.iter().enumerate() {
        assert!(
            origin.ends_with(&format!("#/paths/~1things{i}/head")),
            "{origin}"
        );
    }
    // The terminal: the place leads the line, the rest of a kind is counted.
    let (_, _, grouped) = run(wellgen().arg("check").arg(&spec));
    let head = format!(
        "{}#/paths/~1things0/head: warning[W-import-operation-skipped]: HEAD",
        spec.display()
    );
    assert!(grouped.contains(&head), "{grouped}");
    assert!(
        grouped.contains("more like this: #/paths/~1things"),
        "{grouped}"
    );
    let (_, _, verbose) = run(wellgen().arg("check").arg(&spec).arg("--verbose"));
    assert_eq!(
        verbose.matches("operations are skipped").count(),
        15,
        "{verbose}"
    );
    assert_eq!(
        verbose.matches("path placeholder are left out").count(),
        1,
        "{verbose}"
    );
    // `import` groups alike, and takes `--verbose`.
    let (code, _, imported) = run(wellgen()
        .arg("import")
        .arg(&spec)
        .arg("-o")
        .arg(work.path().join("a.toml")));
    assert_eq!(code, 0, "{imported}");
    assert!(
        imported.contains("more like this: #/paths/~1things"),
        "{imported}"
    );
    let (code, _, imported) = run(wellgen()
        .arg("import")
        .arg(&spec)
        .arg("-o")
        .arg(work.path().join("b.toml"))
        .arg("--verbose"));
    assert_eq!(code, 0, "{imported}");
    assert_eq!(
        imported.matches("operations are skipped").count(),
        15,
        "{imported}"
    );
}

/// A note on its own line says its message once, with the place it is at: not the message
/// again after it (`no [auth] table: … (§3.4): no [auth] table`).
#[test]
fn a_note_on_one_line_says_its_message_once() {
    let (code, _, stderr) = run(wellgen()
        .args(["check", "--notes"])
        .arg(example("simplenotes")));
    assert_eq!(code, 0, "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("note[N-auth-undeclared]"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(line.matches("no [auth] table").count(), 1, "{line}");
}

/// A length message says what is too long, also where no caret shows it (an OpenAPI source,
/// a grouped line, `--format json`).
#[test]
fn a_length_message_names_what_it_is_about() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let text = fs::read_to_string(example("simplenotes")).unwrap();
    let long = "Keeps notes. ".repeat(20);
    let (before, after) = text.split_once("description = \"").unwrap();
    let (_, after) = after.split_once('"').unwrap();
    fs::write(
        &source,
        format!("{before}description = \"{}\"{after}", long.trim()),
    )
    .unwrap();
    let (_, stdout, _) = run(wellgen()
        .arg("check")
        .arg(&source)
        .args(["--format", "json"]));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .filter(|m| m.contains(" characters"))
        .collect();
    assert!(!messages.is_empty(), "{stdout}");
    for m in messages {
        assert!(!m.starts_with("is "), "{m}");
        assert!(
            m.starts_with("`service.description` is 259 characters"),
            "{m}"
        );
    }
}

/// `--include` and `--exclude` choose the operations of an OpenAPI source on `build` and
/// `check` as on `import`; on a service.toml that imports nothing they are a usage error.
#[test]
fn build_takes_include_and_exclude_for_an_openapi_source() {
    let work = tempfile::tempdir().unwrap();
    let spec = document_with_repeated_findings(work.path());
    let out = work.path().join("dist");
    let (code, _, stderr) = run(wellgen().arg("build").arg(&spec).arg("-o").arg(&out).args([
        "--include",
        "op:listThings*",
        "--exclude",
        "op:listThings4",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let tools: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join(".well-known/mcp/tools.json")).unwrap()).unwrap();
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = (0..15)
        .filter(|&i| i != 4)
        .map(|i| format!("list_things{i}"))
        .collect();
    assert_eq!(names, expected);
    let (code, _, stderr) = run(wellgen()
        .arg("check")
        .arg(example("simplenotes"))
        .args(["--include", "op:x"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("imports no OpenAPI document") && stderr.contains("drop --include"),
        "{stderr}"
    );
}

/// ai-plugin.json is opt-in: the examples without `[plugin]` neither publish it nor warn that
/// they cannot; `[plugin]` or `--target ai-plugin` ask for it.
#[test]
fn the_plugin_manifest_is_built_only_when_asked_for() {
    for name in ["exampleshop", "simplenotes", "worldweather"] {
        let (code, _, stderr) = run(wellgen().args(["check", "--strict"]).arg(example(name)));
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(!stderr.contains("plugin"), "{name}: {stderr}");
        let dir = tempfile::tempdir().unwrap();
        let (code, _, stderr) = run(wellgen()
            .arg("build")
            .arg(example(name))
            .arg("-o")
            .arg(dir.path()));
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(
            !dir.path().join(".well-known/ai-plugin.json").exists(),
            "{name}"
        );
        let agents = fs::read_to_string(dir.path().join(".well-known/agents.json")).unwrap();
        assert!(!agents.contains("aiPlugin"), "{name}: {agents}");
    }
    // bookshelf has a `[plugin]` table, a logo and an e-mail address.
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(wellgen()
        .arg("build")
        .arg(example("bookshelf"))
        .arg("-o")
        .arg(dir.path()));
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.path().join(".well-known/ai-plugin.json").exists());
    // Asked for on the command line, without a logo: the warning says what is missing.
    let (code, _, stderr) = run(wellgen()
        .arg("check")
        .arg(example("simplenotes"))
        .args(["--target", "ai-plugin"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("warning[W-plugin-not-written]"), "{stderr}");
    let (code, text, _) = run(wellgen().arg("targets"));
    assert_eq!(code, 0);
    assert!(
        text.contains("ai-plugin\n")
            && text.contains("built:         when asked for: a `[plugin]` table"),
        "{text}"
    );
}
