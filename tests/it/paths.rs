//! Paths: a hostile capability id never becomes a file outside the output folder, and a
//! tampered or stale `.wellgen-manifest` never makes wellgen delete or replace a file it did
//! not write.

use std::fs;
use std::path::Path;

use crate::common::*;
use wellgen::write::{self, MANIFEST};

const SERVICE: &str = r#"[service]
name = "Paths"
description = "A service for path tests."
base_url = "https://paths.example.com"

[auth]
type = "none"

[[capabilities]]
id = "ID"
description = "Find a thing"
method = "GET"
path = "/api/things"
"#;

fn service(id: &str) -> String {
    SERVICE.replace("\"ID\"", &toml::Value::String(id.into()).to_string())
}

fn build(source: &Path, out: &Path) -> (i32, String) {
    let (code, _, stderr) = run(wellgen().arg("build").arg(source).arg("-o").arg(out));
    (code, stderr)
}

#[test]
fn a_hostile_capability_id_is_refused_before_any_file_is_named() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let out = work.path().join("site/dist");
    for id in [
        "../../../escape",
        "/etc/passwd",
        "a/../../b",
        "..",
        "x\\..\\y",
        "ok\u{1}",
    ] {
        fs::write(&source, service(id)).unwrap();
        let (code, stderr) = build(&source, &out);
        assert_eq!(code, 1, "{id:?}: {stderr}");
        assert!(stderr.contains("is not a valid capability id"), "{stderr}");
        assert!(!out.exists(), "{id:?}: nothing is written");
    }
    // Only the output folder's own files ever appear.
    let listed: Vec<_> = walkdir::WalkDir::new(work.path())
        .into_iter()
        .map(|e| e.unwrap().path().to_path_buf())
        .collect();
    assert_eq!(listed.len(), 2, "{listed:?}");
}

#[test]
fn the_writer_refuses_artifact_paths_that_are_not_plain() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("dist");
    for hostile in [
        "/api/capabilities/../../../escape",
        "/../escape",
        "relative",
        "/a/./b",
        "/.wellgen-manifest",
    ] {
        let artifact = wellgen::emit::Artifact {
            path: hostile.to_string(),
            body: b"x".to_vec().into(),
            serving: None,
        };
        let err = write::write(&out, &[artifact], &[]).unwrap_err();
        assert!(err.message.contains("not a plain path"), "{}", err.message);
    }
    assert!(!work.path().join("escape").exists());
    assert!(!out.exists(), "a refused build leaves no folder behind");
}

/// A built site plus a file outside it, for tampering tests.
struct Site {
    work: tempfile::TempDir,
    source: std::path::PathBuf,
    out: std::path::PathBuf,
}

fn site() -> Site {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    fs::write(&source, service("find_thing")).unwrap();
    let out = work.path().join("dist");
    assert_eq!(build(&source, &out).0, 0);
    Site { work, source, out }
}

fn add_to_manifest(out: &Path, lines: &[String]) {
    let mut text = fs::read_to_string(out.join(MANIFEST)).unwrap();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    fs::write(out.join(MANIFEST), text).unwrap();
}

#[test]
fn a_tampered_manifest_deletes_nothing_outside_or_foreign() {
    let s = site();
    let outside = s.work.path().join("victim.txt");
    fs::write(&outside, "not yours").unwrap();
    fs::write(s.out.join("user.txt"), "my notes").unwrap();
    fs::write(s.out.join("edited.json"), "{}").unwrap();
    let hash = |b: &[u8]| write::content_hash(b);
    let victim = hash(b"not yours");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, s.out.join("link.txt")).unwrap();
    add_to_manifest(
        &s.out,
        &[
            format!("/../victim.txt {victim}"),
            format!("{} {victim}", outside.display()),
            format!("//{} {victim}", outside.display()),
            format!("/link.txt {victim}"),
            "/user.txt".to_string(),
            format!("/edited.json {}", hash(b"{\"old\": true}")),
            format!("/{MANIFEST} {}", hash(b"")),
        ],
    );
    let (code, stderr) = build(&s.source, &s.out);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read_to_string(&outside).unwrap(), "not yours");
    assert_eq!(
        fs::read_to_string(s.out.join("user.txt")).unwrap(),
        "my notes"
    );
    assert_eq!(fs::read_to_string(s.out.join("edited.json")).unwrap(), "{}");
    #[cfg(unix)]
    assert!(s.out.join("link.txt").is_symlink());
    for why in [
        "`/../victim.txt`, which is not a file wellgen writes; ignored",
        "`/user.txt`, but the manifest has no content hash for it; left in place",
        "`/edited.json`, but it was changed since wellgen wrote it; left in place",
        "`/link.txt`, but it is a symbolic link; left in place",
    ] {
        assert!(stderr.contains(why), "missing `{why}` in:\n{stderr}");
    }
    // The rewritten manifest no longer lists what it does not own.
    let manifest = fs::read_to_string(s.out.join(MANIFEST)).unwrap();
    assert!(!manifest.contains("victim") && !manifest.contains("user.txt"));
}

#[test]
fn a_stale_file_with_its_recorded_hash_is_removed() {
    let s = site();
    fs::create_dir_all(s.out.join("old")).unwrap();
    fs::write(s.out.join("old/doc.json"), "{}").unwrap();
    add_to_manifest(
        &s.out,
        &[format!("/old/doc.json {}", write::content_hash(b"{}"))],
    );
    fs::create_dir_all(s.out.join("site/old")).unwrap();
    fs::write(s.out.join("site/old/doc.json"), "{}").unwrap();
    add_to_manifest(
        &s.out,
        &[
            "/old/ folder".to_string(),
            format!("/site/old/doc.json {}", write::content_hash(b"{}")),
        ],
    );
    let (code, stderr) = build(&s.source, &s.out);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 stale removed"), "{stderr}");
    assert!(
        !s.out.join("old").exists(),
        "the emptied folder wellgen made goes too"
    );
    assert!(
        s.out.join("site/old").is_dir(),
        "a folder wellgen did not make stays, even empty"
    );
}

#[test]
fn an_edit_that_keeps_a_file_s_length_is_still_an_edit() {
    let s = site();
    let ai = s.out.join(".well-known/ai");
    let mut bytes = fs::read(&ai).unwrap();
    let at = bytes.len() / 2;
    bytes[at] = if bytes[at] == b' ' { b'\t' } else { b' ' };
    fs::write(&ai, &bytes).unwrap();
    let (code, stderr) = build(&s.source, &s.out);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("was changed since wellgen wrote it"),
        "{stderr}"
    );
    assert_eq!(fs::read(&ai).unwrap(), bytes);
}

#[test]
fn an_output_file_edited_by_hand_is_not_overwritten() {
    let s = site();
    let ai = s.out.join(".well-known/ai");
    fs::write(&ai, "{\"edited\": true}\n").unwrap();
    let (code, stderr) = build(&s.source, &s.out);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("was changed since wellgen wrote it; to keep it, add \"ai\""),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&ai).unwrap(), "{\"edited\": true}\n");
    // Deleting it hands it back to wellgen.
    fs::remove_file(&ai).unwrap();
    assert_eq!(build(&s.source, &s.out).0, 0);
    assert!(fs::read_to_string(&ai).unwrap().contains("\"Paths\""));
}

#[test]
fn a_manifest_without_hashes_is_upgraded_only_where_nothing_changes() {
    let s = site();
    let manifest = fs::read_to_string(s.out.join(MANIFEST)).unwrap();
    let legacy: String = manifest
        .lines()
        .map(|l| l.split(' ').next().unwrap().to_string() + "\n")
        .collect();
    fs::write(s.out.join(MANIFEST), legacy).unwrap();
    let (code, stderr) = build(&s.source, &s.out);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read_to_string(s.out.join(MANIFEST)).unwrap(), manifest);

    // Without a hash, a file whose bytes differ from the new ones is not wellgen's to replace.
    let legacy: String = manifest
        .lines()
        .map(|l| l.split(' ').next().unwrap().to_string() + "\n")
        .collect();
    fs::write(s.out.join(MANIFEST), legacy).unwrap();
    fs::write(
        &s.source,
        service("find_thing").replace("Find a thing", "Find a thing by name"),
    )
    .unwrap();
    let (code, stderr) = build(&s.source, &s.out);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("has no content hash in the manifest"),
        "{stderr}"
    );
}

/// The home folder of the user running the tests, as the user database names it.
fn home_in_user_database() -> Option<std::path::PathBuf> {
    let (_, uid, _) = run(std::process::Command::new("id").arg("-u"));
    let uid = uid.trim().to_string();
    fs::read_to_string("/etc/passwd")
        .ok()?
        .lines()
        .find_map(|line| {
            let f: Vec<&str> = line.split(':').collect();
            (f.len() > 5 && f[2] == uid).then(|| f[5].into())
        })
}

#[test]
fn the_home_folder_is_refused_when_home_is_unset() {
    let Some(home) = home_in_user_database().filter(|h| h.is_dir()) else {
        eprintln!("skipped: no home folder in /etc/passwd");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    // An invalid source: should the refusal ever fail, the build stops before writing.
    fs::write(&source, "[service\n").unwrap();
    for home_var in [None, Some(work.path())] {
        let mut cmd = wellgen();
        cmd.arg("build").arg(&source).arg("-o").arg(&home);
        match home_var {
            None => cmd.env_remove("HOME"),
            Some(h) => cmd.env("HOME", h),
        };
        let (code, _, stderr) = run(&mut cmd);
        assert_eq!(code, 2, "HOME={home_var:?}: {stderr}");
        assert!(stderr.contains("(your home folder)"), "{stderr}");
    }
}

/// `[source] openapi` is held to the same folder as `$ref`s, with one refusal whether the file
/// outside exists or not, and nothing of it quoted.
#[test]
fn a_service_toml_cannot_import_an_openapi_file_outside_its_project() {
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join("project");
    fs::create_dir_all(project.join(".git")).unwrap();
    let elsewhere = work.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::write(
        elsewhere.join("internal.yaml"),
        "openapi: SECRET-VERSION\ninfo: {title: Internal, version: '1'}\npaths: {}\n",
    )
    .unwrap();
    let source = project.join("service.toml");
    let mut answers = Vec::new();
    for (openapi, ref_root) in [
        ("../elsewhere/internal.yaml", Some(&project)),
        ("../elsewhere/internal.yaml", None),
        ("../elsewhere/missing.yaml", None),
        ("/etc/hostname", None),
        ("/etc/no-such-file", None),
    ] {
        fs::write(
            &source,
            format!("[source]\nopenapi = \"{openapi}\"\n\n[service]\nbase_url = \"https://x.example.com\"\n"),
        )
        .unwrap();
        let mut cmd = wellgen();
        cmd.arg("check").arg(&source);
        if let Some(root) = ref_root {
            cmd.arg("--ref-root").arg(root);
        }
        let (code, _, stderr) = run(&mut cmd);
        assert_eq!(code, 1, "{openapi}: {stderr}");
        assert!(
            stderr.contains("`[source] openapi` leaves"),
            "{openapi}: {stderr}"
        );
        assert!(!stderr.contains("SECRET-VERSION") && !stderr.contains("Internal"));
        // The caret under the value is as long as the value: left out.
        let message: Vec<&str> = stderr.lines().filter(|l| !l.contains('^')).collect();
        answers.push(message.join("\n").replace(openapi, "PATH"));
    }
    // Existing and missing files outside get the same answer.
    assert_eq!(answers[1], answers[2]);
    assert_eq!(answers[3], answers[4]);
}

/// `[deploy] server_config` is confined to the project: no absolute path, no `..` out of it,
/// no symlink out of it, and nothing is created when refused.
#[test]
fn server_config_cannot_be_written_outside_the_project() {
    let work = tempfile::tempdir().unwrap();
    let project = work.path().join("project");
    fs::create_dir_all(project.join(".git")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(work.path(), project.join("link")).unwrap();
    let source = project.join("service.toml");
    let out = project.join("dist");
    let base = service("find_thing").replace(
        "[auth]",
        "[deploy]\nhost = \"generic\"\nserver_config = \"DIR\"\n\n[auth]",
    );
    for dir in ["../../x/a/b", "/", "/dev", "../outside", "link/escaped"] {
        fs::write(&source, base.replace("DIR", dir)).unwrap();
        let (code, stderr) = build(&source, &out);
        assert_eq!(code, 2, "{dir}: {stderr}");
        assert!(
            stderr.contains("`[deploy] server_config` leaves"),
            "{dir}: {stderr}"
        );
    }
    assert!(!work.path().join("x").exists() && !work.path().join("outside").exists());
    assert!(!work.path().join("escaped").exists());
    // Inside the project, a new folder is made.
    fs::write(&source, base.replace("DIR", "deploy/nginx")).unwrap();
    let (code, stderr) = build(&source, &out);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        project
            .join("deploy/nginx")
            .read_dir()
            .unwrap()
            .next()
            .is_some()
    );
}
