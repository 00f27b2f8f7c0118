//! Agent Skills: the generated SKILL.md's front matter against the format's rules, the index
//! (Agent Skills Discovery 0.2.0) against the bytes written, the site's own skills kept and
//! listed, the size guidance on a large imported API, and byte-stable output.

use std::fs;
use std::path::Path;

use crate::common::*;
use wellgen::emit::targets::agent_skills::{
    self, BYTES_MAX, DIR, INDEX_PATH, LINES_MAX, SCHEMA, check_description, check_name,
    front_matter,
};

fn at(out: &Path, url: &str) -> std::path::PathBuf {
    out.join(url.trim_start_matches('/'))
}

fn index(out: &Path) -> serde_json::Value {
    read_json(&at(out, INDEX_PATH))
}

/// The index's digest of `bytes` (`sha256:` and 64 lower-case hex digits), computed here
/// rather than by wellgen's own function, which the test checks.
fn sha256_digest(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    let hex: String = sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Every entry's digest is the SHA-256 of the bytes at its URL, its name follows the format's
/// rules and is its folder's, and its description is the SKILL.md's own.
fn check_index(out: &Path) -> usize {
    let index = index(out);
    assert_eq!(index["$schema"], SCHEMA);
    let skills = index["skills"].as_array().unwrap();
    for s in skills {
        let name = s["name"].as_str().unwrap();
        assert_eq!(check_name(name), Ok(()), "{name}");
        assert_eq!(s["type"], "skill-md");
        let url = s["url"].as_str().unwrap();
        assert_eq!(url, format!("{DIR}{name}/SKILL.md"));
        let bytes = fs::read(at(out, url)).unwrap();
        assert_eq!(
            s["digest"].as_str().unwrap(),
            sha256_digest(&bytes),
            "{url}"
        );
        let digest = s["digest"].as_str().unwrap();
        assert!(digest.len() == 7 + 64 && digest[7..].bytes().all(|b| b.is_ascii_hexdigit()));
        let front = front_matter(&bytes).unwrap();
        let description = s["description"].as_str().unwrap();
        assert_eq!(check_description(description), Ok(()));
        assert_eq!(front.description.as_deref(), Some(description), "{url}");
    }
    skills.len()
}

/// The generated SKILL.md of a build, by its path.
fn generated(out: &Path) -> (String, String) {
    let index = index(out);
    let url = index["skills"][0]["url"].as_str().unwrap().to_string();
    (url.clone(), fs::read_to_string(at(out, &url)).unwrap())
}

#[test]
fn every_example_and_fixture_has_a_valid_skill_and_an_index_of_its_bytes() {
    for source in sources_with_fixtures("") {
        let out = build(&source, &["--target", "agent-skills", "-q"]);
        assert_eq!(check_index(out.path()), 1, "{}", source.display());
        let (url, text) = generated(out.path());
        let front = front_matter(text.as_bytes()).unwrap();
        let name = front.name.unwrap();
        assert_eq!(url, format!("{DIR}{name}/SKILL.md"));
        assert!(text.lines().count() <= LINES_MAX, "{url}");
        assert!(text.len() <= BYTES_MAX, "{url}");
    }
}

#[test]
fn made_up_example_values_fit_their_parameters() {
    for source in sources_with_fixtures("") {
        let mut diags = wellgen::diag::Diagnostics::default();
        let Some(service) = wellgen::pipeline::load(&source, &mut diags) else {
            continue;
        };
        for p in service.capabilities.iter().flat_map(|c| &c.params) {
            let v = agent_skills::value_for(p, &service.schemas);
            let placeholder = v == serde_json::Value::String(format!("<{}>", p.name));
            assert!(
                placeholder || agent_skills::admits(p, &v, &service.schemas),
                "{}: {} for {p:?}",
                source.display(),
                v
            );
        }
    }
}

#[test]
fn a_hand_written_skill_is_kept_byte_for_byte_and_listed_over_two_builds() {
    let source = root().join("examples/bookshelf/service.toml");
    let out = tempfile::tempdir().unwrap();
    let own = "---\nname: returns\ndescription: \"Handle returns: \\\"late\\\" books.\"\n---\n\nHand-written.\r\n";
    let own_path = at(out.path(), &format!("{DIR}returns/SKILL.md"));
    fs::create_dir_all(own_path.parent().unwrap()).unwrap();
    fs::write(&own_path, own).unwrap();
    for _ in 0..2 {
        let (code, _, stderr) = run(wellgen()
            .args(["build", "-q", "-o"])
            .arg(out.path())
            .arg(&source));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(fs::read_to_string(&own_path).unwrap(), own);
        assert_eq!(check_index(out.path()), 2);
        let index = index(out.path());
        let names: Vec<&str> = index["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["bookshelf", "returns"]);
        assert_eq!(
            index["skills"][1]["description"],
            "Handle returns: \"late\" books."
        );
        let manifest = fs::read_to_string(out.path().join(".wellgen-manifest")).unwrap();
        assert!(!manifest.contains("/returns/"), "{manifest}");
    }
}

#[test]
fn a_site_skill_of_the_generated_name_wins_and_a_broken_one_is_kept_unlisted() {
    let source = root().join("examples/bookshelf/service.toml");
    let out = tempfile::tempdir().unwrap();
    let own = "---\nname: bookshelf\ndescription: Our own guide to the shelf.\n---\nMine.\n";
    let broken = "no front matter\n";
    for (folder, text) in [("bookshelf", own), ("Broken", broken)] {
        let path = at(out.path(), &format!("{DIR}{folder}/SKILL.md"));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let (code, _, stderr) = run(wellgen()
        .args(["build", "--notes", "-o"])
        .arg(out.path())
        .arg(&source)
        .args(["--target", "agent-skills"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("N-skill-name-taken"), "{stderr}");
    assert!(stderr.contains("W-skill-site-invalid"), "{stderr}");
    assert_eq!(
        fs::read_to_string(at(out.path(), &format!("{DIR}bookshelf/SKILL.md"))).unwrap(),
        own
    );
    assert_eq!(
        fs::read_to_string(at(out.path(), &format!("{DIR}Broken/SKILL.md"))).unwrap(),
        broken
    );
    assert_eq!(check_index(out.path()), 1);
    assert_eq!(
        index(out.path())["skills"][0]["description"],
        "Our own guide to the shelf."
    );
}

#[test]
fn a_site_skill_named_unlike_its_folder_is_listed_by_the_folder_with_its_own_warning() {
    let source = root().join("examples/bookshelf/service.toml");
    let out = tempfile::tempdir().unwrap();
    let path = at(out.path(), &format!("{DIR}returns/SKILL.md"));
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(
        path,
        "---\nname: Returns\ndescription: Handle returns.\n---\nSteps.\n",
    )
    .unwrap();
    let (code, _, stderr) = run(wellgen()
        .args(["build", "-o"])
        .arg(out.path())
        .arg(&source)
        .args(["--target", "agent-skills"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("W-skill-site-name"), "{stderr}");
    assert!(!stderr.contains("W-skill-site-invalid"), "{stderr}");
    let listed: Vec<String> = index(out.path())["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert!(listed.contains(&"returns".to_string()), "{listed:?}");
}

#[test]
fn a_site_index_of_its_own_is_kept() {
    let source = root().join("examples/bookshelf/service.toml");
    let out = tempfile::tempdir().unwrap();
    let path = at(out.path(), INDEX_PATH);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, "{\"skills\": []}\n").unwrap();
    let (code, _, stderr) = run(wellgen()
        .args(["build", "-o"])
        .arg(out.path())
        .arg(&source)
        .args(["--target", "agent-skills"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("W-skill-index-kept"), "{stderr}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "{\"skills\": []}\n");
    assert!(at(out.path(), &format!("{DIR}bookshelf/SKILL.md")).is_file());
}

/// An OpenAPI document of `tags` tags with `per_tag` operations each, three parameters apiece.
fn large_openapi(tags: usize, per_tag: usize) -> serde_json::Value {
    let mut paths = serde_json::Map::new();
    for t in 0..tags {
        for o in 0..per_tag {
            paths.insert(
                format!("/v1/resource{t}/items{o}/{{item_id}}"),
                serde_json::json!({
                    "get": {
                        "operationId": format!("get_resource{t}_item{o}"),
                        "summary": format!("Get item {o} of resource group {t} with its details"),
                        "tags": [format!("group{t}")],
                        "parameters": [
                            {"name": "item_id", "in": "path", "required": true,
                             "schema": {"type": "string", "pattern": "^it_[0-9]+$"},
                             "example": "it_1"},
                            {"name": "limit", "in": "query",
                             "schema": {"type": "integer", "minimum": 5, "maximum": 50}},
                            {"name": "expand", "in": "query",
                             "schema": {"type": "string", "enum": ["owner", "history"]}}
                        ],
                        "responses": {"200": {"description": "the item"}}
                    }
                }),
            );
        }
    }
    serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Large", "version": "1.0.0",
                 "description": "A large API of many resource groups."},
        "servers": [{"url": "https://api.large.example"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
        "security": [{"key": []}],
        "paths": paths
    })
}

#[test]
fn a_large_imported_api_keeps_its_skill_within_the_size_guidance() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("openapi.json");
    fs::write(&spec, large_openapi(60, 12).to_string()).unwrap();
    let out = dir.path().join("dist");
    let (code, _, stderr) = run(wellgen()
        .args(["build", "--notes", "-o"])
        .arg(&out)
        .arg(&spec)
        .args(["--target", "agent-skills,ai,openapi"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("N-skill-shortened"), "{stderr}");
    check_index(&out);
    let (_, text) = generated(&out);
    assert!(
        text.lines().count() <= LINES_MAX,
        "{} lines",
        text.lines().count()
    );
    assert!(text.len() <= BYTES_MAX, "{} bytes", text.len());
    let (o200k, cl100k) = wellgen::tokens::count_text(&text);
    assert!(o200k < 5000 && cl100k < 5000, "{o200k} / {cl100k} tokens");
    // Every group is named, and the full documents are linked.
    for t in 0..60 {
        assert!(text.contains(&format!("**group{t}** (12)")), "group{t}");
    }
    assert!(text.contains("/.well-known/ai)"), "{text}");
    assert!(text.contains("/openapi.json)"), "{text}");
    assert!(text.contains("find its parameters in the full documents listed at the end"));
}

#[test]
fn a_mid_sized_api_lists_its_capabilities_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("openapi.json");
    fs::write(&spec, large_openapi(5, 10).to_string()).unwrap();
    let out = dir.path().join("dist");
    let (code, _, stderr) = run(wellgen()
        .args(["build", "--notes", "-o"])
        .arg(&out)
        .arg(&spec)
        .args(["--target", "agent-skills"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("one line each"), "{stderr}");
    let (_, text) = generated(&out);
    assert!(text.len() <= BYTES_MAX);
    // With no example call in it, and built alone (no document to send the agent to), it
    // sends the agent to the API's own documentation.
    assert!(!text.contains("```http"), "{text}");
    assert!(
        !text.contains("its example") && !text.contains("examples below"),
        "{text}"
    );
    assert!(
        text.contains("find its parameters in the API's own documentation"),
        "{text}"
    );
    assert!(!text.contains("## Full documents"), "{text}");
    assert!(text.contains("Ask the user for the credential"), "{text}");
    for t in 0..5 {
        for o in 0..10 {
            let line = format!(
                "- `get_resource{t}_item{o}` `GET https://api.large.example/v1/resource{t}/items{o}/{{item_id}}`"
            );
            assert!(text.contains(&line), "{line}\n{text}");
        }
    }
}

#[test]
fn a_real_imported_api_stays_within_the_guidance_with_full_examples_where_they_fit() {
    let source = root().join("tests/fixtures/import-real-adyen/service.toml");
    let out = build(&source, &["--target", "agent-skills", "-q"]);
    let (_, text) = generated(out.path());
    assert!(text.lines().count() <= LINES_MAX);
    assert!(text.len() <= BYTES_MAX);
    assert!(
        text.contains("send the request as its example shows"),
        "{text}"
    );
    assert!(text.contains("```http"), "{text}");
    let (o200k, _) = wellgen::tokens::count_text(&text);
    assert!(o200k < 5000, "{o200k} tokens");
}

/// Each example call carries every credential a request needs (a scheme and the one sent with
/// it), and its body as its media type encodes it.
#[test]
fn example_calls_carry_every_credential_and_encode_their_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("service.toml");
    fs::write(
        &source,
        r#"[service]
name = "Forms"
description = "Sends forms to an API that wants a key and a client id."
base_url = "https://api.forms.example"

[auth]
type = "api_key"
header = "X-Api-Key"

[[auth.with]]
type = "api_key"
header = "X-Client-Id"

[[capabilities]]
id = "send_form"
description = "Send a form"
method = "POST"
path = "/forms"
content_type = "application/x-www-form-urlencoded"
params.name = "string, required -- Who sends it"
params.tags = "array, required, items string -- Its tags"

[[capabilities]]
id = "upload_note"
description = "Upload a note"
method = "POST"
path = "/notes"
content_type = "multipart/form-data"
params.note = "string, required -- The note's text"

[[capabilities]]
id = "set_tags"
description = "Set the tags, none by default"
method = "PUT"
path = "/tags"
body_required = true
params.body = "array, optional, items string -- The tags"
"#,
    )
    .unwrap();
    let out = build(&source, &["--target", "agent-skills", "-q"]);
    let (_, text) = generated(out.path());
    let call = |id: &str| {
        let at = text.find(&format!("**`{id}`**")).unwrap();
        let block = &text[at..];
        let start = block.find("```http\n").unwrap() + "```http\n".len();
        block[start..start + block[start..].find("```").unwrap()].to_string()
    };
    assert_eq!(
        call("send_form"),
        "POST https://api.forms.example/forms\nX-Api-Key: <API key>\nX-Client-Id: <API key: X-Client-Id>\n\
         Content-Type: application/x-www-form-urlencoded\n\nname=example&tags=example\n"
    );
    assert_eq!(
        call("upload_note"),
        "POST https://api.forms.example/notes\nX-Api-Key: <API key>\nX-Client-Id: <API key: X-Client-Id>\n\
         Content-Type: multipart/form-data; boundary=example-boundary\n\n\
         --example-boundary\nContent-Disposition: form-data; name=\"note\"\n\nexample\n\
         --example-boundary--\n"
    );
    // A required body of an optional whole-body parameter is sent with that parameter's value.
    let key = "X-Api-Key: <API key>\nX-Client-Id: <API key: X-Client-Id>\n";
    assert_eq!(
        call("set_tags"),
        format!(
            "PUT https://api.forms.example/tags\n{key}Content-Type: application/json\n\n[\"example\"]\n"
        )
    );
}

#[test]
fn builds_are_byte_identical() {
    for source in [
        root().join("examples/bookshelf/service.toml"),
        root().join("tests/fixtures/import-real-adyen/service.toml"),
    ] {
        let a = build(&source, &["--target", "agent-skills", "-q"]);
        let b = build(&source, &["--target", "agent-skills", "-q"]);
        let (fa, fb) = (files(a.path()), files(b.path()));
        assert_eq!(fa, fb, "{}", source.display());
        assert!(fa.keys().any(|k| k.ends_with("SKILL.md")));
    }
}
