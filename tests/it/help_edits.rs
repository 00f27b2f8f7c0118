//! No hint leads into an error (issue 22 item 6): each case is a source that prints a `help:`,
//! the edit that help says, and a rebuild; the edited source has no diagnostic of that code and
//! no error. The examples of the aiendpoint draft give no warning with `--target ai`, and with
//! every target at most one per target that cannot be published, with the keys to add.

use serde_json::Value;

use crate::common::{root, run, wellgen};

const HEAD: &str = "[service]\nname = \"Todos\"\ndescription = \"Keep a list of things to do.\"\n\
                    base_url = \"https://todos.example\"\n";

const READ: &str = "\n[[capabilities]]\nid = \"list_todos\"\ndescription = \"List the todos\"\n\
                    path = \"/todos\"\n";

const WRITE: &str = "\n[[capabilities]]\nid = \"create_todo\"\ndescription = \"Create a todo\"\n\
                     method = \"POST\"\npath = \"/todos\"\n";

/// `wellgen check --format json` on `text`: the exit code and every diagnostic.
fn check(text: &str, args: &[&str]) -> (i32, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("service.toml");
    std::fs::write(&source, text).unwrap();
    let (code, stdout, stderr) = run(wellgen()
        .arg("check")
        .arg(&source)
        .args(["--format", "json"])
        .args(args));
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    (code, report["diagnostics"].as_array().unwrap().clone())
}

fn of<'a>(diags: &'a [Value], code: &str) -> Vec<&'a Value> {
    diags.iter().filter(|d| d["code"] == code).collect()
}

struct Case {
    name: &'static str,
    text: String,
    args: &'static [&'static str],
    code: &'static str,
    /// Words the help holds: the edit below is the one it says.
    help: &'static str,
    edit: fn(&str) -> String,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "no [auth], reads only: add type = none",
            text: format!("{HEAD}{READ}"),
            args: &["--target", "ai"],
            code: "N-auth-undeclared",
            help: "`type = \"none\"`",
            edit: |t| {
                t.replacen(
                    "\n[[capabilities]]",
                    "\n[auth]\ntype = \"none\"\n\n[[capabilities]]",
                    1,
                )
            },
        },
        Case {
            name: "no [auth], a write: add bearer, never none (aiendpoint §6.2)",
            text: format!("{HEAD}{WRITE}"),
            args: &["--target", "ai"],
            code: "N-auth-undeclared",
            help: "`type = \"bearer\"`",
            edit: |t| {
                t.replacen(
                    "\n[[capabilities]]",
                    "\n[auth]\ntype = \"bearer\"\n\n[[capabilities]]",
                    1,
                )
            },
        },
        Case {
            name: "none with a write: declare the real auth",
            text: format!("{HEAD}\n[auth]\ntype = \"none\"\n{WRITE}"),
            args: &["--target", "ai"],
            code: "E-auth-none-write",
            help: "`type = \"bearer\"`",
            edit: |t| t.replace("type = \"none\"", "type = \"bearer\""),
        },
        Case {
            name: "a placeholder never declared",
            text: format!("{HEAD}{READ}").replace("path = \"/todos\"", "path = \"/todos/{id}\""),
            args: &["--target", "ai"],
            code: "W-param-undeclared",
            help: "add `id = \"string, required -- …\"` under",
            edit: |t| {
                t.to_string() + "\n[capabilities.params]\nid = \"string, required -- the todo\"\n"
            },
        },
        Case {
            name: "a parameter left behind by a renamed placeholder",
            text: format!("{HEAD}{READ}")
                .replace("path = \"/todos\"", "path = \"/todos/{todo_id}\"")
                + "\n[capabilities.params]\nid = \"string, required -- the todo\"\n",
            args: &["--target", "ai"],
            code: "W-param-not-in-path",
            help: "rename the parameter `id` to `todo_id`",
            edit: |t| t.replace("\nid = \"string", "\ntodo_id = \"string"),
        },
        Case {
            name: "a placeholder lost from the path",
            text: format!("{HEAD}{READ}").replace("path = \"/todos\"", "path = \"/todos/\"")
                + "\n[capabilities.params]\nid = \"string, required -- the todo\"\n",
            args: &["--target", "ai"],
            code: "W-param-not-in-path",
            help: "write the path as `/todos/{id}`",
            edit: |t| t.replace("path = \"/todos/\"", "path = \"/todos/{id}\""),
        },
        Case {
            name: "ai-plugin.json cannot be written",
            text: format!("{HEAD}{READ}"),
            args: &["--target", "rfc002"],
            code: "W-plugin-not-written",
            help: "set `logo_url` and `[service.contact] email`",
            edit: |t| {
                t.replacen(
                    "\n[[capabilities]]",
                    "logo_url = \"https://todos.example/logo.png\"\n\n[service.contact]\n\
                     email = \"help@todos.example\"\n\n[[capabilities]]",
                    1,
                )
            },
        },
        Case {
            name: "an integer written as a string",
            text: format!("{HEAD}\n[rate_limits]\nrequests_per_minute = \"60\"\n{READ}"),
            args: &["--target", "ai"],
            code: "E-toml-type",
            help: "`requests_per_minute = 60`",
            edit: |t| t.replace("requests_per_minute = \"60\"", "requests_per_minute = 60"),
        },
        Case {
            name: "[capabilities] written for [[capabilities]]",
            text: format!("{HEAD}{READ}").replace("[[capabilities]]", "[capabilities]"),
            args: &["--target", "ai"],
            code: "E-toml-table-array",
            help: "write `[[capabilities]]`",
            edit: |t| t.replace("[capabilities]", "[[capabilities]]"),
        },
        Case {
            name: "a misspelt key",
            text: format!("{HEAD}{READ}").replace("description = \"List", "descripton = \"List"),
            args: &["--target", "ai"],
            code: "E-unknown-key",
            help: "did you mean `description`?",
            edit: |t| t.replace("descripton", "description"),
        },
        Case {
            name: "a misspelt code in [check] allow",
            text: format!("{HEAD}\n[check]\nallow = [\"N-agis-derivd\"]\n{READ}"),
            args: &["--target", "ai"],
            code: "E-unknown-code",
            help: "did you mean `N-agis-derived`?",
            edit: |t| t.replace("N-agis-derivd", "N-agis-derived"),
        },
    ]
}

#[test]
fn every_help_applied_removes_its_diagnostic() {
    for case in cases() {
        let (_, before) = check(&case.text, case.args);
        let found = of(&before, case.code);
        assert!(
            !found.is_empty(),
            "{}: no {} in {before:#?}",
            case.name,
            case.code
        );
        assert!(
            found
                .iter()
                .any(|d| d["help"].as_str().is_some_and(|h| h.contains(case.help))),
            "{}: no help saying {:?} in {found:#?}",
            case.name,
            case.help
        );
        let edited = (case.edit)(&case.text);
        assert_ne!(edited, case.text, "{}: the edit changed nothing", case.name);
        let (code, after) = check(&edited, case.args);
        assert!(
            of(&after, case.code).is_empty(),
            "{}: still {after:#?}",
            case.name
        );
        let errors: Vec<&Value> = after.iter().filter(|d| d["severity"] == "error").collect();
        assert!(
            errors.is_empty(),
            "{}: the help led into {errors:#?}",
            case.name
        );
        assert_eq!(code, 0, "{}", case.name);
    }
}

/// The aiendpoint draft's §8 examples are correct as written.
#[test]
fn the_draft_examples_give_no_warning_for_ai_and_one_per_unpublishable_target() {
    for name in ["exampleshop", "simplenotes", "worldweather"] {
        let text = std::fs::read_to_string(root().join("examples").join(name).join("service.toml"))
            .unwrap();
        let (code, diags) = check(&text, &["--target", "ai", "--strict"]);
        let warnings: Vec<&Value> = diags.iter().filter(|d| d["severity"] != "note").collect();
        assert!(warnings.is_empty(), "{name} --target ai: {warnings:#?}");
        assert_eq!(code, 0, "{name}");

        let (_, diags) = check(&text, &[]);
        let warnings: Vec<&Value> = diags.iter().filter(|d| d["severity"] != "note").collect();
        // ai-plugin.json alone cannot be published from the file: one warning, naming the keys.
        assert_eq!(warnings.len(), 1, "{name}: {warnings:#?}");
        assert_eq!(warnings[0]["code"], "W-plugin-not-written");
        let message = warnings[0]["message"].as_str().unwrap();
        assert!(
            message.contains("`service.logo_url`") && message.contains("`service.contact.email`"),
            "{message}"
        );
        assert!(
            diags.iter().any(|d| d["severity"] == "note"),
            "{name}: no notes"
        );
    }
}

/// `--strict` fails on warnings, never on notes; `--allow` silences a code, not an error.
#[test]
fn strict_ignores_notes_and_allow_names_real_codes() {
    let text = format!("{HEAD}{READ}");
    let (code, diags) = check(&text, &["--strict", "--target", "ai,agis"]);
    assert!(of(&diags, "N-agis-derived").len() > 1);
    assert_eq!(code, 0);
    let (_, diags) = check(&text, &["--target", "ai,agis", "--allow", "N-agis-derived"]);
    assert!(of(&diags, "N-agis-derived").is_empty());
    let (code, diags) = check(&text, &["--allow", "W-agis-rul"]);
    assert_eq!(code, 1);
    let e = of(&diags, "E-unknown-code");
    assert_eq!(e[0]["help"], "did you mean `W-agis-rule`?");
    let (code, diags) = check(&text, &["--allow", "E-secret"]);
    assert_eq!(code, 1);
    assert!(
        of(&diags, "E-unknown-code")[0]["message"]
            .as_str()
            .unwrap()
            .contains("errors cannot be allowed")
    );
}
