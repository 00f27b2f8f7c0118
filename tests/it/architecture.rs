//! The arrows ARCHITECTURE.md draws, checked over the source: a top-level module imports only
//! modules of the layers below its own, no target imports another, and the derivations the
//! targets share import no target. A new arrow the other way fails here with the file and the
//! path it names; move the shared fact down a layer (ARCHITECTURE.md, "What may import what").

use std::path::{Path, PathBuf};

/// The top-level modules from the top down. A module may import modules of later layers only:
/// none of its own layer, none above.
const LAYERS: &[&[&str]] = &[
    &["main", "cli", "fuzzing"],
    &["audit"],
    &["serve"],
    &["pipeline", "tokens"],
    &["write"],
    &["emit"],
    &["check"],
    &["model"],
    &["source"],
    &["confine", "json", "parallel", "values", "watchdog"],
    &["diag"],
    &["detect"],
    &["text"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The module path of a source file: `src/emit/targets/ai/mod.rs` is `emit::targets::ai`.
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file without its unit tests (a trailing `#[cfg(test)] mod …`, which may reach
/// anywhere) and without whole-line comments (docs name modules in prose).
fn code(text: &str) -> String {
    let body = text
        .find("\n#[cfg(test)]\nmod ")
        .map_or(text, |at| &text[..at]);
    body.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &[u8], mut i: usize) -> (String, usize) {
    let start = i;
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        i += 1;
    }
    (String::from_utf8_lossy(&s[start..i]).into_owned(), i)
}

/// The paths a `use` tree or an expression path names from `i` on, braces expanded.
fn paths_at(s: &[u8], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < s.len() && s[i] == b'{' {
            i += 1;
            loop {
                i = paths_at(s, i, path.clone(), out);
                while i < s.len() && s[i] != b',' && s[i] != b'}' {
                    i += 1;
                }
                if i >= s.len() || s[i] == b'}' {
                    return i + 1;
                }
                i += 1;
            }
        }
        let (ident, end) = ident_at(s, i);
        if ident.is_empty() {
            break;
        }
        path.push(ident);
        i = end;
        if s[i..].starts_with(b"::") {
            i += 2;
        } else {
            break;
        }
    }
    out.push(path);
    i
}

/// Every module path the code names, made absolute: `crate::a::b`, and `super::` chains
/// resolved against the file's own module.
fn references(file_module: &[String], code: &str) -> Vec<Vec<String>> {
    let s = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_');
        if boundary && s[i..].starts_with(b"crate::") {
            i = paths_at(s, i + "crate::".len(), Vec::new(), &mut out);
        } else if boundary && s[i..].starts_with(b"super::") {
            let mut up = 0;
            while s[i..].starts_with(b"super::") {
                up += 1;
                i += "super::".len();
            }
            let base = file_module[..file_module.len().saturating_sub(up)].to_vec();
            i = paths_at(s, i, base, &mut out);
        } else {
            i += 1;
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// The target modules: every file and folder in `src/emit/targets` but the registry.
fn target_modules(src: &Path) -> Vec<String> {
    std::fs::read_dir(src.join("emit/targets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != "mod")
        .collect()
}

/// What is wrong with one file's imports, one line each.
fn violations(file: &Path, text: &str, targets: &[String]) -> Vec<String> {
    let module = module_of(file);
    let code = code(text);
    let mut found = Vec::new();
    let own_target = match module.as_slice() {
        [e, t, name, ..] if e == "emit" && t == "targets" => Some(name.clone()),
        _ => None,
    };
    let in_derive = module.len() >= 2 && module[0] == "emit" && module[1] == "derive";
    let mut named: Vec<Vec<String>> = references(&module, &code);
    // `use crate::emit::targets;` then `targets::ai::PATH`.
    if own_target.is_some() {
        for (at, _) in code.match_indices("targets::") {
            let before = code[..at].chars().next_back();
            if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':')) {
                let (ident, _) = ident_at(code.as_bytes(), at + "targets::".len());
                named.push(vec!["emit".into(), "targets".into(), ident]);
            }
        }
    }
    for path in named {
        let shown = path.join("::");
        let (top, own) = (&path[0], &module[0]);
        if top != own
            && let (Some(to), Some(from)) = (layer(top), layer(own))
            && to <= from
        {
            found.push(format!(
                "{}: `{own}` imports `{shown}`, a module of its own layer or above",
                file.display()
            ));
        }
        let names_target = path.len() >= 3 && path[0] == "emit" && path[1] == "targets";
        if let Some(me) = &own_target
            && names_target
            && targets.contains(&path[2])
            && &path[2] != me
        {
            found.push(format!(
                "{}: the `{me}` target imports `{shown}`, another target",
                file.display()
            ));
        }
        if own_target.is_some() && path.len() >= 2 && path[0] == "emit" && path[1] == "hosts" {
            found.push(format!(
                "{}: a target imports `{shown}`: hosts read targets, not the other way",
                file.display()
            ));
        }
        if in_derive
            && path.len() >= 2
            && path[0] == "emit"
            && (path[1] == "targets" || path[1] == "hosts")
        {
            found.push(format!(
                "{}: `emit::derive` imports `{shown}`: it sits below the targets",
                file.display()
            ));
        }
    }
    found.sort();
    found.dedup();
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_arrow_points_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let targets = target_modules(&src);
    assert!(targets.len() >= 15, "{targets:?}");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    let mut seen = 0;
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        let module = module_of(rel);
        assert!(
            module.is_empty() || layer(&module[0]).is_some(),
            "{}: a top-level module with no layer: add it to LAYERS and ARCHITECTURE.md",
            rel.display()
        );
        let text = std::fs::read_to_string(path).unwrap();
        seen += references(&module, &code(&text)).len();
        found.extend(violations(rel, &text, &targets));
    }
    assert!(
        seen > 1000,
        "only {seen} paths read: is the scanner broken?"
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_sees_each_kind_of_wrong_arrow() {
    let targets: Vec<String> = ["ai", "openapi", "rfc002"].map(String::from).to_vec();
    let cases = [
        (
            "diag.rs",
            "use crate::check::redact;\n",
            "imports `check::redact`",
        ),
        (
            "source/x.rs",
            "use crate::model::{Method, agis};\n",
            "`model::Method`",
        ),
        (
            "emit/targets/ai/mod.rs",
            "use super::openapi::PATHS;\n",
            "another target",
        ),
        (
            "emit/targets/ai/split.rs",
            "use super::super::openapi::PATHS;\n",
            "another target",
        ),
        (
            "emit/targets/rfc002/mod.rs",
            "use crate::emit::targets::{self, Link, openapi};\n",
            "imports `emit::targets::openapi`",
        ),
        (
            "emit/targets/ai.rs",
            "use crate::emit::targets;\nfn f() { targets::rfc002::PATH }\n",
            "`emit::targets::rfc002`",
        ),
        (
            "emit/targets/ai.rs",
            "use crate::emit::hosts::vercel;\n",
            "hosts read targets",
        ),
        (
            "emit/derive/x.rs",
            "use crate::emit::targets::Target;\n",
            "below the targets",
        ),
    ];
    for (file, text, expected) in cases {
        let found = violations(Path::new(file), text, &targets);
        assert!(
            found.iter().any(|f| f.contains(expected)),
            "{file}: {text:?} gave {found:?}"
        );
    }
    // What may stay: a target's own modules, lower layers, the registry's names, tests.
    let fine = [
        (
            "emit/targets/ai/split.rs",
            "use super::compact::common;\nuse super::super::Target;\n",
        ),
        (
            "emit/targets/openapi/mod.rs",
            "use crate::emit::targets::{Descriptor, Target};\n",
        ),
        (
            "model/lower.rs",
            "use crate::source::service_toml::{self as raw};\n",
        ),
        (
            "diag.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::check::run;\n}\n",
        ),
        (
            "emit/targets/ai.rs",
            "// see crate::emit::targets::openapi\n",
        ),
    ];
    for (file, text) in fine {
        let found = violations(Path::new(file), text, &targets);
        assert!(found.is_empty(), "{file}: {found:?}");
    }
}
