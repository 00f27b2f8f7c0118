//! What a build refuses on purpose: secrets (and never printing them), local URLs, dangerous
//! output folders, special files where host files go; and what a build that fails half-way
//! through leaves behind.

use std::fs;
use std::path::Path;

use crate::common::*;

const SECRET: &str = "sk_live_51HqLyjWDarjtT1zdp7dcAbCdEf";

fn case(name: &str) -> std::path::PathBuf {
    root().join("tests/cases").join(name).join("service.toml")
}

fn example(name: &str) -> std::path::PathBuf {
    root().join("examples").join(name).join("service.toml")
}

#[test]
fn a_secret_is_masked_in_every_output_format_and_a_reviewed_field_is_accepted() {
    let source = case("secret-in-example");
    for format in ["human", "json", "github", "sarif"] {
        let (code, stdout, stderr) = run(wellgen()
            .args(["check", "--target", "ai", "--format", format])
            .arg(&source));
        assert_eq!(code, 1, "{format}: {stderr}");
        assert!(
            !stdout.contains("51HqLyj") && !stderr.contains("51HqLyj"),
            "{format} printed the secret:\n{stdout}\n{stderr}"
        );
        assert!(
            stdout.contains("Stripe secret key") || stderr.contains("Stripe secret key"),
            "{format}: {stdout}{stderr}"
        );
    }
    let field = "capabilities.0.example.request.key";
    let (code, _, stderr) = run(wellgen()
        .args(["check", "--target", "ai", "--allow-secret-like", field])
        .arg(&source));
    assert_eq!(code, 0, "{stderr}");
    // Allowing another field does not allow this one.
    let (code, _, stderr) = run(wellgen()
        .args([
            "check",
            "--target",
            "ai",
            "--allow-secret-like",
            "service.description",
        ])
        .arg(&source));
    assert_eq!(code, 1, "{stderr}");
}

fn with_auth_header(header: &str) -> tempfile::TempDir {
    with_auth(&format!("type = \"api_key\"\nheader = \"{header}\""))
}

/// The `secret-in-example` case with its `[auth]` keys replaced by `auth` and its secret removed.
fn with_auth(auth: &str) -> tempfile::TempDir {
    let work = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(case("secret-in-example"))
        .unwrap()
        .replace("type = \"api_key\"\nheader = \"Authorization\"", auth)
        .replace(&format!("key = \"{SECRET}\""), "key = \"k\"");
    fs::write(work.path().join("service.toml"), text).unwrap();
    work
}

#[test]
fn a_key_given_as_the_auth_header_is_refused_and_not_echoed() {
    for header in [
        format!("Bearer {SECRET}"),
        "4f3a9c2b7d1e8f6a0b5c4d3e2f1a0b9c8d7e6f5a".to_string(),
        SECRET.to_string(),
    ] {
        let work = with_auth_header(&header);
        let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
            "check",
            "--target",
            "ai",
            "service.toml",
        ]));
        assert_eq!(code, 1, "{header}: {stderr}");
        assert!(stderr.contains("auth.header"), "{stderr}");
        let hidden = &header[header.len() - 12..];
        assert!(!stderr.contains(hidden), "printed the key:\n{stderr}");
    }
    for header in ["X-API-Key", "Ocp-Apim-Subscription-Key", "apikey"] {
        let work = with_auth_header(header);
        let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
            "check",
            "--target",
            "ai",
            "service.toml",
        ]));
        assert_eq!(code, 0, "{header}: {stderr}");
    }
}

#[test]
fn a_key_given_as_the_signature_header_prefix_is_refused_and_not_echoed() {
    let with_prefix = |prefix: &str| {
        let work = with_auth(&format!(
            "type = \"signed_key\"\nkey_url = \"https://pay.example/keys\"\n\
             header_prefix = \"{prefix}\""
        ));
        let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
            "check",
            "--target",
            "ia-json",
            "service.toml",
        ]));
        (code, stderr)
    };
    for prefix in [SECRET, "4f3a9c2b7d1e8f6a0b5c4d3e2f1a0b9c8d7e6f5a", "X IA "] {
        let (code, stderr) = with_prefix(prefix);
        assert_eq!(code, 1, "{prefix}: {stderr}");
        assert!(stderr.contains("auth.header_prefix"), "{stderr}");
        if let Some(hidden) = prefix.get(12..) {
            assert!(!stderr.contains(hidden), "printed the key:\n{stderr}");
        }
    }
    let (code, stderr) = with_prefix("X-Sig-");
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn local_urls_pass_only_with_allow_local() {
    let source = case("local-url");
    let (code, _, stderr) = run(wellgen().args(["check", "--target", "ai"]).arg(&source));
    assert_eq!(code, 1, "{stderr}");
    let (code, _, stderr) = run(wellgen()
        .args(["check", "--target", "ai", "--allow-local"])
        .arg(&source));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn an_output_folder_that_resolves_to_the_source_folder_is_refused_before_anything_is_made() {
    let work = tempfile::tempdir().unwrap();
    fs::copy(example("worldweather"), work.path().join("service.toml")).unwrap();
    for out in ["new/..", "./new/../.", "a/b/../../"] {
        let (code, _, stderr) = run(wellgen()
            .current_dir(work.path())
            .args(["build", "-o", out]));
        assert_eq!(code, 2, "{out}: {stderr}");
        assert!(stderr.contains("the folder of the source file"), "{stderr}");
        let names: Vec<_> = fs::read_dir(work.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "{out} left {names:?}");
    }
}

#[test]
fn the_folder_of_an_imported_openapi_document_is_a_source_folder_too() {
    let work = tempfile::tempdir().unwrap();
    let api = work.path().join("api");
    fs::create_dir(&api).unwrap();
    fs::copy(
        root().join("tests/fixtures/import-petstore30/openapi.json"),
        api.join("openapi.json"),
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "build",
        "--openapi",
        "api/openapi.json",
        "-o",
        "api",
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the folder of the source file"), "{stderr}");
    assert_eq!(fs::read_dir(&api).unwrap().count(), 1);
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "build",
        "--openapi",
        "api/openapi.json",
        "-o",
        "dist",
    ]));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn the_root_and_the_home_folder_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let below_home = home.path().join("new");
    let to_root = format!("{}/{}", work.path().display(), "../".repeat(40));
    let home_by_detour = format!("{}/../{}", below_home.display(), "new/..");
    for (out, why) in [
        ("/", "the file system root"),
        (to_root.as_str(), "the file system root"),
        (home.path().to_str().unwrap(), "your home folder"),
        (home_by_detour.as_str(), "your home folder"),
    ] {
        let (code, _, stderr) = run(wellgen()
            .env("HOME", home.path())
            .args(["build", "-o", out])
            .arg(example("worldweather")));
        assert_eq!(code, 2, "{out}: {stderr}");
        assert!(stderr.contains(why), "{out}: {stderr}");
    }
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_fifo_where_a_host_file_goes_is_an_error_not_a_hang() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("dist");
    fs::create_dir(&out).unwrap();
    let fifo = out.join("_headers");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Without the check the build blocks forever opening the FIFO; the time limit would not
    // stop it, as the writer runs after the watchdog is disarmed.
    let (code, _, stderr) = run(wellgen()
        .args(["build", "-o"])
        .arg(&out)
        .arg(example("worldweather")));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    assert!(!out.join(".well-known").exists());
}

/// Builds `source` into a fresh folder, then the `changed` text of it with `obstacle` (found
/// from the output folder) in the way: a folder, not wellgen's to remove, where a file is
/// staged. The build fails naming it; the previous output is as it was, with no staged file
/// left (the obstacle holds only a folder); once the obstacle is gone the build goes through.
fn a_failed_staging_leaves_the_previous_output(
    source: &Path,
    changed: &str,
    obstacle: impl FnOnce(&Path) -> std::path::PathBuf,
) {
    let out = source.with_file_name("dist");
    let (code, _, stderr) = run(wellgen().arg("build").arg(source).arg("-o").arg(&out));
    assert_eq!(code, 0, "{stderr}");
    let before = files(&out);

    assert_ne!(fs::read_to_string(source).unwrap(), changed);
    fs::write(source, changed).unwrap();
    let obstacle = obstacle(&out);
    fs::create_dir_all(obstacle.join("inside")).unwrap();
    let (code, _, stderr) = run(wellgen().arg("build").arg(source).arg("-o").arg(&out));
    assert_eq!(code, 2, "{stderr}");
    let name = obstacle.file_name().unwrap().to_string_lossy();
    assert!(stderr.contains(name.as_ref()), "{stderr}");
    assert_eq!(
        files(&out),
        before,
        "the previous output changed, or a staged file was left"
    );
    assert!(
        obstacle.join("inside").is_dir(),
        "removed a folder it did not make"
    );

    fs::remove_dir_all(&obstacle).unwrap();
    let (code, _, stderr) = run(wellgen().arg("build").arg(source).arg("-o").arg(&out));
    assert_eq!(code, 0, "{stderr}");
    assert_ne!(files(&out), before);
}

#[test]
fn a_build_that_fails_while_staging_leaves_the_previous_output_and_no_staged_file() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let text = fs::read_to_string(example("worldweather")).unwrap();
    fs::write(&source, &text).unwrap();
    // The next build changes every document; the manifest, staged last, cannot be staged.
    let changed = text.replacen("description = \"", "description = \"Now: ", 1);
    a_failed_staging_leaves_the_previous_output(&source, &changed, |out| {
        out.join(".wellgen-.wellgen-manifest.tmp")
    });
}

/// An OpenAPI document of `n` operations whose descriptions start with `lead`: enough files
/// (one ADP detail per operation) for the writer to stage them on every core.
fn many_operations(n: usize, lead: &str) -> String {
    let paths: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#""/items{i}": {{"get": {{"operationId": "listItems{i}",
                  "description": "{lead} the items of list {i}.",
                  "responses": {{"200": {{"description": "The items."}}}}}}}}"#
            )
        })
        .collect();
    format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "Items", "version": "1"}},
            "servers": [{{"url": "https://api.example.com"}}],
            "paths": {{{}}}}}"#,
        paths.join(",")
    )
}

#[test]
fn a_large_build_that_fails_while_staging_leaves_the_previous_output_and_no_staged_file() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("openapi.json");
    fs::write(&source, many_operations(120, "Lists")).unwrap();
    // The next build changes every detail; one in the middle cannot be staged, while the
    // files around it are staged on other threads.
    a_failed_staging_leaves_the_previous_output(&source, &many_operations(120, "Returns"), |out| {
        let details = out.join("api/capabilities");
        let mut names: Vec<String> = fs::read_dir(&details)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert!(names.len() >= 120, "{names:?}");
        details.join(format!(".wellgen-{}.tmp", names[60]))
    });
}

#[test]
fn control_characters_from_an_openapi_document_are_printed_escaped() {
    // The `$ref` text reaches the message of the error about the file it names.
    let work = tempfile::tempdir().unwrap();
    fs::write(work.path().join("broken.json"), "{ not json").unwrap();
    fs::write(
        work.path().join("openapi.json"),
        r##"{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
            "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
              "content": {"application/json": {"schema":
                {"$ref": "broken.json#/x\u001b[2J"}}}}}}}}}"##,
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen().current_dir(work.path()).args([
        "build",
        "--openapi",
        "openapi.json",
        "-o",
        "dist",
    ]));
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("broken.json#/x\\u{1b}[2J"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

/// Strings that drive a terminal or forge CI log lines when printed raw: a line break then a
/// GitHub Actions command, OSC 8 and CSI escapes, a bidi override, C1 controls, Unicode line
/// separators.
const HOSTILE: &[&str] = &[
    "api\n::error file=src/main.rs,line=1::forged\n::stop-commands::x",
    "a\r::warning::forged\r\n::add-mask::x",
    "\u{1b}]8;;https://evil.example\u{7}click\u{1b}]8;;\u{7}",
    "\u{1b}[2J\u{1b}[31mred\u{1b}[0m",
    "abc\u{202e}gnp.exe\u{2066}",
    "x\u{2028}::error::ls\u{2029}::notice::y\u{85}::debug::z",
    "\u{9b}31m c1 \u{7f}\u{0}",
];

/// `text` as a TOML basic string's content: every character but printable ASCII escaped.
fn toml_escaped(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ' '..='~' if c != '"' && c != '\\' => c.to_string(),
            c if (c as u32) < 0x10000 => format!("\\u{:04X}", c as u32),
            c => format!("\\U{:08X}", c as u32),
        })
        .collect()
}

/// Services with `{H}` in one place each: a key of a field path, values the model validates
/// (type, id, method, path), free text, a language and a contact address.
const PLACES: &[&str] = &[
    "[[capabilities]]\nid = \"find\"\ndescription = \"Find things\"\npath = \"/things\"\n[capabilities.params]\n\"{H}\" = \"strung, optional -- x\"\n",
    "[auth]\ntype = \"{H}\"\n",
    "[[capabilities]]\nid = \"{H}\"\ndescription = \"Find things\"\npath = \"/things\"\n",
    "[[capabilities]]\nid = \"find\"\nmethod = \"{H}\"\ndescription = \"Find things\"\npath = \"/things\"\n",
    "[[capabilities]]\nid = \"find\"\ndescription = \"Find things\"\npath = \"/things{H}\"\n",
    "[[capabilities]]\nid = \"find\"\ndescription = \"{H}\"\npath = \"/things\"\n",
    "[service.contact]\nemail = \"{H}\"\n",
];

fn hostile_service(place: &str, value: &str) -> String {
    let extra = place.replace("{H}", &toml_escaped(value));
    let (service, rest) = if extra.starts_with("[service.") {
        (extra.as_str(), "")
    } else {
        ("", extra.as_str())
    };
    format!(
        "[service]\nname = \"Notes\"\ndescription = \"Create and retrieve notes.\"\n\
         base_url = \"https://notes.example\"\n{service}\n{rest}"
    )
}

/// What no output may hold: a control character but a line break (a tab only in a source
/// line), an invisible format character, a line that starts a workflow command (in the GitHub
/// format, a line that starts anything but one of wellgen's annotations).
fn printing_problem(format: &str, output: &str) -> Option<String> {
    if let Some(c) = output.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }) {
        return Some(format!("raw U+{:04X}", c as u32));
    }
    for line in output.lines() {
        let ours = ["::error file=", "::warning file=", "::notice file="]
            .iter()
            .any(|p| line.starts_with(p));
        let bad = if format == "github" {
            !ours
        } else {
            line.trim_start().starts_with("::")
        };
        if bad {
            return Some(format!("line {line:?}"));
        }
    }
    None
}

#[test]
fn hostile_strings_reach_no_output_raw_in_any_format() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    let mut failures = Vec::new();
    for place in PLACES {
        for value in HOSTILE {
            fs::write(&source, hostile_service(place, value)).unwrap();
            for format in ["human", "json", "github", "sarif"] {
                let (_, stdout, stderr) = run(wellgen()
                    .args(["check", "--notes", "--format", format])
                    .arg(&source));
                if stdout.is_empty() && stderr.is_empty() {
                    failures.push(format!("{place:?} {value:?} {format}: no output"));
                }
                if let Some(p) =
                    printing_problem(format, &stdout).or_else(|| printing_problem("human", &stderr))
                {
                    failures.push(format!(
                        "{place:?} {value:?} {format}: {p}\n{stdout}{stderr}"
                    ));
                }
                if matches!(format, "json" | "sarif") {
                    assert!(
                        serde_json::from_str::<serde_json::Value>(&stdout).is_ok(),
                        "{stdout}"
                    );
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn one_huge_value_gives_a_short_output() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("service.toml");
    // Printed whole, 100,000 characters gave 200,000 to 800,000 bytes of output.
    let huge = "A-b".repeat(33_334);
    for place in PLACES {
        fs::write(&source, hostile_service(place, &huge)).unwrap();
        for format in ["human", "json"] {
            let (_, stdout, stderr) = run(wellgen()
                .args(["check", "--notes", "--format", format])
                .arg(&source));
            let size = stdout.len() + stderr.len();
            assert!(
                size < 40_000,
                "{place:?} {format}: {size} bytes\n{}",
                &stderr[..stderr.len().min(3000)]
            );
            // A quoted value is cut at 160 characters, a source line at 120.
            assert!(
                !format!("{stdout}{stderr}").contains(&"A-b".repeat(60)),
                "{place:?} {format}: a long run of the value\n{}{}",
                &stdout[..stdout.len().min(3000)],
                &stderr[..stderr.len().min(3000)]
            );
        }
    }
}

/// `wellgen serve` prints a site's own `_headers` problems and logs each request's method and
/// target, all three the input's: escaped like every other printed value, so a client's
/// method cannot write a line of its own into the log.
#[test]
fn serve_escapes_a_sites_headers_and_a_clients_method() {
    use std::io::{BufRead as _, BufReader, Read as _, Write as _};
    let site = tempfile::tempdir().unwrap();
    fs::write(site.path().join("index.html"), "<p>home</p>\n").unwrap();
    fs::write(
        site.path().join("_headers"),
        "/x\n  X-Bad\u{1b}]8;;https://evil.example\u{7} no colon\n",
    )
    .unwrap();
    let log = site.path().join("serve.log");
    let mut child = wellgen()
        .arg("serve")
        .arg(site.path())
        .args(["--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    let addr = first
        .trim()
        .rsplit_once("http://")
        .map(|(_, a)| a.trim_end_matches('/').to_string())
        .unwrap_or_else(|| panic!("{first}"));
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream
        .write_all(
            b"GE\x1b[2JT\rFORGED-LOG-LINE /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = child.kill();
    let _ = child.wait();
    let logged = fs::read_to_string(&log).unwrap();
    assert!(
        !logged.contains('\u{1b}') && !logged.contains('\u{7}'),
        "{logged:?}"
    );
    assert!(!logged.contains('\r'), "{logged:?}");
    for line in logged.lines() {
        assert!(!line.starts_with("FORGED"), "{logged:?}");
    }
}
