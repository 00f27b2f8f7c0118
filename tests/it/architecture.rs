//! The arrows ARCHITECTURE.md draws, checked over the source: a top-level module imports only
//! modules of the layers below its own, no target imports another, the derivations the targets
//! share import no target, and emit's shared modules reach a target only through the
//! descriptors. A new arrow the other way fails here with the file and the path it names; move
//! the shared fact down a layer (ARCHITECTURE.md, "What may import what").
//!
//! Each file is read as the compiler would name things in it, short of expanding macros: every
//! path that starts with `crate`, `super`, `self`, a module the file declares (`mod x;`) or a
//! name a `use` brings in (renamed with `as`, or from a group) is made absolute, so
//! `use crate::emit;` then `emit::targets::agis::X` names `emit::targets::agis`. A glob brings
//! in the child modules of what it names (`use super::*;` in a target brings its sibling
//! targets), and is the weaker name, as in Rust.
//!
//! Left unchecked: what a glob brings beyond those modules (the names the globbed module itself
//! imports or re-exports, which the compiler lets a glob pass on; the globbed module's own
//! imports are still checked where it is written), paths made by macros, and `#[path]`
//! attributes. Inline `mod x { … }` blocks and function-local `use`s are read as if at the
//! file's top, so a `super::` inside an inline module is read one level too high.

use std::collections::HashMap;
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

/// The parts of `emit` that are neither a target, a host nor a shared derivation: the driver
/// (`emit/mod.rs`) and the modules the targets import (budget, schemas, security, publish,
/// catalog). They sit below the targets, so they name a target only through the registry's
/// descriptors (`Target::path`, `Target::member_path`).
const EMIT_LAYERS_OF_THEIR_OWN: &[&str] = &["targets", "hosts", "derive"];

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

/// The target modules: every module directly in `emit::targets` (the registry is
/// `emit::targets` itself).
fn targets_of(modules: &[Vec<String>]) -> Vec<String> {
    let mut targets: Vec<String> = modules
        .iter()
        .filter(|m| m.len() >= 3 && m[0] == "emit" && m[1] == "targets")
        .map(|m| m[2].clone())
        .collect();
    targets.sort();
    targets.dedup();
    targets
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `text` with its comments and its string and character literals blanked out, lines and
/// offsets kept: docs name modules in prose, and a `"{"` would throw the brace matching off.
fn blank(text: &str) -> String {
    let s = text.as_bytes();
    let mut out = s.to_vec();
    let wipe = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to.min(s.len())] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < s.len() {
        let after_ident = i > 0 && is_ident_byte(s[i - 1]);
        let raw = match s[i..] {
            [b'r', b'#' | b'"', ..] => Some(i + 1),
            [b'b', b'r', b'#' | b'"', ..] => Some(i + 2),
            _ => None,
        }
        .filter(|_| !after_ident)
        .and_then(|at| {
            let hashes = s[at..].iter().take_while(|&&b| b == b'#').count();
            (s.get(at + hashes) == Some(&b'"')).then_some((at + hashes + 1, hashes))
        });
        if s[i..].starts_with(b"//") {
            let end = s[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(s.len(), |n| i + n);
            wipe(&mut out, i, end);
            i = end;
        } else if s[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (0, i);
            while j < s.len() {
                if s[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if s[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            wipe(&mut out, i, j);
            i = j;
        } else if let Some((body, hashes)) = raw {
            let close = [b"\"".as_slice(), &vec![b'#'; hashes]].concat();
            let end = s[body..]
                .windows(close.len())
                .position(|w| w == close)
                .map_or(s.len(), |n| body + n + close.len());
            wipe(&mut out, i, end);
            i = end;
        } else if s[i] == b'"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != b'"' {
                j += if s[j] == b'\\' { 2 } else { 1 };
            }
            wipe(&mut out, i, j + 1);
            i = j + 1;
        } else if s[i] == b'\'' {
            // A character literal, or a lifetime or label, which stays.
            let len = if s.get(i + 1) == Some(&b'\\') {
                s[i + 2..]
                    .iter()
                    .skip(1)
                    .position(|&b| b == b'\'')
                    .map(|n| n + 2)
            } else {
                text[i + 1..]
                    .chars()
                    .next()
                    .map(char::len_utf8)
                    .filter(|&n| s.get(i + 1 + n) == Some(&b'\''))
            };
            match len {
                Some(n) => {
                    wipe(&mut out, i, i + n + 2);
                    i += n + 2;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only whole characters are blanked")
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Whether the keyword `word` stands at `i`, followed by white space.
fn keyword_at(s: &[u8], i: usize, word: &str) -> bool {
    (i == 0 || !is_ident_byte(s[i - 1]))
        && s[i..].starts_with(word.as_bytes())
        && s.get(i + word.len()).is_some_and(u8::is_ascii_whitespace)
}

/// The code of a file, blanked (see [`blank`]), without its unit tests: each `#[cfg(test)]`
/// module, its block matched brace by brace (a test module may reach anywhere). Code after a
/// test module is still read.
fn code(text: &str) -> String {
    const TEST: &[u8] = b"#[cfg(test)]";
    let mut s = blank(text).into_bytes();
    let mut from = 0;
    while let Some(n) = s[from..].windows(TEST.len()).position(|w| w == TEST) {
        let at = from + n;
        let mut i = skip_space(&s, at + TEST.len());
        if keyword_at(&s, i, "pub") || s[i..].starts_with(b"pub(") {
            i += 3;
            if s.get(i) == Some(&b'(') {
                i += s[i..].iter().position(|&b| b == b')').map_or(0, |n| n + 1);
            }
            i = skip_space(&s, i);
        }
        if keyword_at(&s, i, "mod") {
            let (_, end) = ident_at(&s, skip_space(&s, i + 3));
            let mut j = skip_space(&s, end);
            if s.get(j) == Some(&b'{') {
                let mut depth = 0;
                while j < s.len() {
                    match s[j] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                    if depth == 0 {
                        break;
                    }
                }
            } else {
                j += 1;
            }
            let end = j.min(s.len());
            for b in &mut s[at..end] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        from = at + 1;
    }
    String::from_utf8(s).expect("only whole characters are blanked")
}

fn ident_at(s: &[u8], mut i: usize) -> (String, usize) {
    let start = i;
    while i < s.len() && is_ident_byte(s[i]) {
        i += 1;
    }
    (String::from_utf8_lossy(&s[start..i]).into_owned(), i)
}

/// The paths an expression path or a `use` tree names from `i` on, braces expanded, as
/// written (`self` and `as` renames as they stand; see [`imports`] for what a `use` binds).
fn paths_at(s: &[u8], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        i = skip_space(s, i);
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
        i = skip_space(s, end);
        if s[i..].starts_with(b"::") {
            i += 2;
        } else {
            break;
        }
    }
    out.push(path);
    i
}

/// What one leaf of a `use` tree brings into the file's scope.
#[derive(Debug)]
enum Binds {
    /// The name it goes by: its last segment, or the name after `as`.
    Name(String),
    /// Everything the path names (`*`).
    Glob,
    /// Nothing (`as _`).
    Nothing,
}

/// The leaves of the `use` tree at `i`: each path as written and what it binds.
fn use_tree(
    s: &[u8],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Binds)>,
) -> usize {
    let mut path = prefix;
    loop {
        i = skip_space(s, i);
        match s.get(i) {
            Some(b'{') => {
                i += 1;
                loop {
                    i = skip_space(s, i);
                    if s.get(i).is_none_or(|&b| b == b'}') {
                        return i + 1;
                    }
                    i = skip_space(s, use_tree(s, i, path.clone(), out));
                    match s.get(i) {
                        Some(b',') => i += 1,
                        Some(b'}') => return i + 1,
                        _ => return i,
                    }
                }
            }
            Some(b'*') => {
                out.push((path, Binds::Glob));
                return i + 1;
            }
            _ => {}
        }
        let (ident, end) = ident_at(s, i);
        if ident.is_empty() {
            return i;
        }
        path.push(ident);
        i = skip_space(s, end);
        if s[i..].starts_with(b"::") {
            i += 2;
            continue;
        }
        if path.last().is_some_and(|p| p == "self") {
            path.pop();
        }
        let mut binds = Binds::Name(path.last().cloned().unwrap_or_default());
        if keyword_at(s, i, "as") {
            let (name, end) = ident_at(s, skip_space(s, i + 2));
            binds = if name == "_" {
                Binds::Nothing
            } else {
                Binds::Name(name)
            };
            i = end;
        }
        out.push((path, binds));
        return i;
    }
}

/// Every leaf of every `use` in the code.
fn imports(code: &str) -> Vec<(Vec<String>, Binds)> {
    let s = code.as_bytes();
    let mut out = Vec::new();
    for i in 0..s.len() {
        if keyword_at(s, i, "use") {
            use_tree(s, i + 3, Vec::new(), &mut out);
        }
    }
    out
}

/// The names a file can start a path with, each with the absolute module path it stands for.
struct Scope {
    module: Vec<String>,
    /// Declared (`mod x;`) or brought in by name (`use a::b;`, `use a::b as c;`).
    named: HashMap<String, Vec<String>>,
    /// Brought in by a glob: the weaker name, which a named one shadows.
    globbed: HashMap<String, Vec<String>>,
}

impl Scope {
    fn of(module: &[String], code: &str, modules: &[Vec<String>]) -> Scope {
        let s = code.as_bytes();
        let mut scope = Scope {
            module: module.to_vec(),
            named: HashMap::new(),
            globbed: HashMap::new(),
        };
        for i in 0..s.len() {
            if keyword_at(s, i, "mod") {
                let (name, _) = ident_at(s, skip_space(s, i + 3));
                let path = [module, std::slice::from_ref(&name)].concat();
                scope.named.insert(name, path);
            }
        }
        let imports = imports(code);
        // A `use` may start from a name another brings in, in any order: settle them in turn.
        for _ in 0..4 {
            for (path, binds) in &imports {
                let Some(absolute) = scope.resolve(path) else {
                    continue;
                };
                match binds {
                    Binds::Name(name) => {
                        scope.named.insert(name.clone(), absolute);
                    }
                    Binds::Glob => {
                        for child in modules
                            .iter()
                            .filter(|m| m.len() == absolute.len() + 1 && m.starts_with(&absolute))
                        {
                            let name = child.last().unwrap().clone();
                            scope.globbed.insert(name, child.clone());
                        }
                    }
                    Binds::Nothing => {}
                }
            }
        }
        scope
    }

    /// The absolute module path `path` names, or `None` for one outside the crate (`std::…`)
    /// or starting with a name the file does not bring in (a type parameter, `Self`).
    fn resolve(&self, path: &[String]) -> Option<Vec<String>> {
        let (first, rest) = path.split_first()?;
        let (base, rest) = match first.as_str() {
            "crate" => (Vec::new(), rest),
            "self" => (self.module.clone(), rest),
            "super" => {
                let up = path.iter().take_while(|p| *p == "super").count();
                let kept = self.module.len().saturating_sub(up);
                (self.module[..kept].to_vec(), &path[up..])
            }
            name => (
                self.named
                    .get(name)
                    .or_else(|| self.globbed.get(name))?
                    .clone(),
                rest,
            ),
        };
        let mut absolute = [base, rest.to_vec()].concat();
        if absolute.last().is_some_and(|p| p == "self") {
            absolute.pop();
        }
        Some(absolute)
    }
}

/// Every module path the code names, made absolute (see the module's doc).
fn references(scope: &Scope, code: &str) -> Vec<Vec<String>> {
    let s = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if !is_ident_byte(s[i]) || s[i].is_ascii_digit() || (i > 0 && is_ident_byte(s[i - 1])) {
            i += 1;
            continue;
        }
        let (_, end) = ident_at(s, i);
        // The rest of a path already read (`<T as Trait>::Item`), or a method's turbofish.
        let before = s[..i].iter().rposition(|b| !b.is_ascii_whitespace());
        let continues =
            before.is_some_and(|b| s[b] == b'.' || (s[b] == b':' && b > 0 && s[b - 1] == b':'));
        if continues || !s[skip_space(s, end)..].starts_with(b"::") {
            i = end;
            continue;
        }
        let mut written = Vec::new();
        i = paths_at(s, i, Vec::new(), &mut written);
        out.extend(written.iter().filter_map(|p| scope.resolve(p)));
    }
    out.retain(|p| !p.is_empty());
    out
}

/// What is wrong with one file's imports, one line each. `modules` are the crate's modules,
/// which say what the targets are and what a glob brings in.
fn violations(file: &Path, text: &str, modules: &[Vec<String>]) -> Vec<String> {
    let module = module_of(file);
    let code = code(text);
    let targets = targets_of(modules);
    let mut found = Vec::new();
    let own_target = match module.as_slice() {
        [e, t, name, ..] if e == "emit" && t == "targets" => Some(name.clone()),
        _ => None,
    };
    let in_derive = module.len() >= 2 && module[0] == "emit" && module[1] == "derive";
    let in_emit_shared = module.first().is_some_and(|m| m == "emit")
        && module
            .get(1)
            .is_none_or(|m| !EMIT_LAYERS_OF_THEIR_OWN.contains(&m.as_str()));
    let scope = Scope::of(&module, &code, modules);
    for path in references(&scope, &code) {
        let shown = path.join("::");
        let top = &path[0];
        // lib.rs is the root, of no layer: it declares every module.
        if let Some(own) = module.first()
            && top != own
            && let (Some(to), Some(from)) = (layer(top), layer(own))
            && to <= from
        {
            found.push(format!(
                "{}: `{own}` imports `{shown}`, a module of its own layer or above",
                file.display()
            ));
        }
        let names_target = path.len() >= 3
            && path[0] == "emit"
            && path[1] == "targets"
            && targets.contains(&path[2]);
        if let Some(me) = &own_target
            && names_target
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
        if in_emit_shared && names_target {
            found.push(format!(
                "{}: `{}` imports `{shown}`, a target: emit's shared modules sit below the \
                 targets and reach one through the descriptors (`Target::path`, \
                 `Target::member_path`)",
                file.display(),
                module.join("::")
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
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: Vec<Vec<String>> = files
        .iter()
        .map(|f| module_of(f.strip_prefix(&src).unwrap()))
        .collect();
    let targets = targets_of(&modules);
    assert!(targets.len() >= 15, "{targets:?}");
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
        let code = code(&text);
        seen += references(&Scope::of(&module, &code, &modules), &code).len();
        found.extend(violations(rel, &text, &modules));
    }
    assert!(
        seen > 2000,
        "only {seen} paths read: is the scanner broken?"
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The modules the self-tests read against: a few targets, the registry, emit's own.
fn sample_modules() -> Vec<Vec<String>> {
    [
        "lib.rs",
        "diag.rs",
        "check/mod.rs",
        "pipeline.rs",
        "source/mod.rs",
        "model/mod.rs",
        "emit/mod.rs",
        "emit/publish.rs",
        "emit/derive/mod.rs",
        "emit/derive/agis/mod.rs",
        "emit/hosts/mod.rs",
        "emit/targets/mod.rs",
        "emit/targets/adp/mod.rs",
        "emit/targets/ai/mod.rs",
        "emit/targets/ai/split.rs",
        "emit/targets/agis/mod.rs",
        "emit/targets/openapi/mod.rs",
        "emit/targets/rfc002/mod.rs",
    ]
    .map(|f| module_of(Path::new(f)))
    .to_vec()
}

#[test]
fn the_check_sees_each_kind_of_wrong_arrow() {
    let modules = sample_modules();
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
        // A path in the code, with no `use`.
        (
            "source/x.rs",
            "fn f() { crate::pipeline::load() }\n",
            "imports `pipeline::load`",
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
            "imports `emit::targets::rfc002::PATH`",
        ),
        // A name a `use` brings in, starting a longer path.
        (
            "emit/targets/ai.rs",
            "use crate::emit;\nfn f() { emit::targets::agis::X }\n",
            "imports `emit::targets::agis::X`",
        ),
        // Renamed, alone and in a group.
        (
            "emit/targets/ai.rs",
            "use crate::emit::targets as t;\nfn f() { t::openapi::X }\n",
            "imports `emit::targets::openapi::X`",
        ),
        (
            "emit/targets/ai/split.rs",
            "use crate::emit::{derive, targets as t};\nfn f() { t::rfc002::QUERY }\n",
            "imports `emit::targets::rfc002::QUERY`",
        ),
        (
            "emit/targets/ai.rs",
            "use crate::emit::{self as e};\nfn f() { e::targets::agis::X }\n",
            "imports `emit::targets::agis::X`",
        ),
        // Globs: a target's parent, the registry, `emit` (which brings `targets`).
        (
            "emit/targets/ai.rs",
            "use super::*;\nfn f() { agis::X }\n",
            "imports `emit::targets::agis::X`",
        ),
        (
            "emit/targets/ai/split.rs",
            "use crate::emit::targets::*;\nfn f() { openapi::PATHS }\n",
            "imports `emit::targets::openapi::PATHS`",
        ),
        (
            "emit/derive/agis/mod.rs",
            "use crate::emit::*;\nfn f() { targets::Target::Ai }\n",
            "below the targets",
        ),
        // Code after a test module is read.
        (
            "diag.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::check::run;\n}\nuse crate::check::redact;\n",
            "imports `check::redact`",
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
        // emit's shared modules reach a target through the descriptors only.
        (
            "emit/publish.rs",
            "use super::targets::adp;\n",
            "emit's shared modules sit below the targets",
        ),
        (
            "emit/mod.rs",
            "pub mod targets;\nfn f() { targets::rfc002::QUERY }\n",
            "emit's shared modules sit below the targets",
        ),
    ];
    let missed: Vec<String> = cases
        .iter()
        .filter_map(|(file, text, expected)| {
            let found = violations(Path::new(file), text, &modules);
            (!found.iter().any(|f| f.contains(expected)))
                .then(|| format!("{file}: {text:?} gave {found:?}"))
        })
        .collect();
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn what_may_stay_passes() {
    let modules = sample_modules();
    // A target's own modules, lower layers, the registry's names, tests, prose and strings.
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
            "use crate::source::service_toml::{self as raw};\nfn f() { raw::x() }\n",
        ),
        (
            "diag.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::check::run;\n}\n",
        ),
        (
            "diag.rs",
            "#[cfg(test)]\npub(crate) mod meter {\n    const S: &str = \"}\";\n    const C: char = '}';\n    use crate::check::run;\n}\n",
        ),
        (
            "emit/targets/ai.rs",
            "// see crate::emit::targets::openapi\n",
        ),
        (
            "emit/targets/ai.rs",
            "/* crate::emit::targets::openapi */ const S: &str = r#\"crate::emit::targets::agis\"#;\n",
        ),
        // The root names every module.
        ("lib.rs", "pub mod cli;\npub use crate::cli::run;\n"),
        // A module of its own, or a derivation, of a target's name wins over a glob.
        (
            "emit/targets/ai/mod.rs",
            "use super::*;\nmod openapi;\nfn f() { openapi::x() }\n",
        ),
        (
            "emit/targets/agis/mod.rs",
            "use super::*;\nuse crate::emit::derive::agis;\nfn f() { agis::x() }\n",
        ),
        (
            "emit/publish.rs",
            "use super::Target;\nfn f() { Target::Adp.member_path(\"<id>\") }\n",
        ),
    ];
    let wrong: Vec<String> = fine
        .iter()
        .filter_map(|(file, text)| {
            let found = violations(Path::new(file), text, &modules);
            (!found.is_empty()).then(|| format!("{file}: {found:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
