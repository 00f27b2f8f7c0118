//! Shared by the rfc002 and openapi modules: the sources every RFC-002 test runs on, and
//! one in-process build of the RFC-002 + OpenAPI targets plus their host files.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;
use wellgen::diag::{Diagnostic, Diagnostics, Severity};
use wellgen::emit::{Artifact, Target, hosts};
use wellgen::model::{self, Service};

pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every example and every fixture: `examples/*/service.toml`, `tests/fixtures/*/service.toml`.
pub fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["examples", "tests/fixtures"] {
        let entries =
            std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let before = out.len();
        for e in entries.flatten() {
            let file = e.path().join("service.toml");
            if file.is_file() {
                out.push(file);
            }
        }
        // Callers loop over what is found: finding nothing must fail, not pass.
        assert!(out.len() > before, "no {dir}/*/service.toml");
    }
    out.sort();
    out
}

pub fn fixture(name: &str) -> String {
    read(
        &Path::new(ROOT)
            .join("tests/fixtures")
            .join(name)
            .join("service.toml"),
    )
}

pub fn example(name: &str) -> String {
    read(
        &Path::new(ROOT)
            .join("examples")
            .join(name)
            .join("service.toml"),
    )
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub struct Built {
    pub service: Service,
    pub diags: Diagnostics,
    pub artifacts: Vec<Artifact>,
}

impl Built {
    pub fn artifact(&self, path: &str) -> Option<&Artifact> {
        self.artifacts.iter().find(|a| a.path == path)
    }

    pub fn json(&self, path: &str) -> Value {
        let a = self
            .artifact(path)
            .unwrap_or_else(|| panic!("{path} was not generated"));
        serde_json::from_slice(&a.body).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    pub fn text(&self, path: &str) -> String {
        String::from_utf8(self.artifact(path).expect(path).body.to_vec()).expect("UTF-8")
    }

    pub fn errors(&self) -> Vec<&Diagnostic> {
        self.diags.iter().filter(|d| d.is_error()).collect()
    }

    /// Warnings and notes (values filled in) whose message holds `words`.
    pub fn warnings_mentioning(&self, words: &str) -> Vec<&Diagnostic> {
        self.diags
            .iter()
            .filter(|d| d.severity != Severity::Error && d.message.contains(words))
            .collect()
    }
}

/// Lowers the source (which must be valid) and runs the given targets plus the host files;
/// as in a build, no document when a target reports an error.
pub fn build_targets(text: &str, targets: &[Target]) -> Built {
    let raw = wellgen::source::parse_service_toml(text).expect("service.toml parses");
    let mut diags = Diagnostics::default();
    let service = model::lower(raw, &mut diags).expect("service.toml lowers");
    let lowering_errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(lowering_errors.is_empty(), "{lowering_errors:#?}");
    let shared = wellgen::emit::targets::Shared::default();
    let choice = wellgen::emit::Choice::all(targets);
    let mut artifacts: Vec<Artifact> = wellgen::emit::lower_and_render(
        &service,
        wellgen::emit::Build::of(&choice),
        &shared,
        None,
        &mut diags,
    )
    .unwrap_or_default();
    let hosts = hosts::emit(&service, &artifacts, &mut diags);
    artifacts.extend(hosts);
    Built {
        service,
        diags,
        artifacts,
    }
}

/// RFC-002's documents with ai-plugin.json (which its §3.2 describes) and the OpenAPI one.
pub fn build(text: &str) -> Built {
    build_targets(text, &[Target::Rfc002, Target::AiPlugin, Target::OpenApi])
}

/// Sources that lower without errors (bad-input fixtures of other targets are left out).
pub fn valid_sources() -> Vec<(PathBuf, String)> {
    sources()
        .into_iter()
        .map(|p| {
            let text = read(&p);
            (p, text)
        })
        .filter(|(_, text)| {
            let Ok(raw) = wellgen::source::parse_service_toml(text) else {
                return false;
            };
            let mut d = Diagnostics::default();
            model::lower(raw, &mut d).is_some() && !d.has_errors()
        })
        .collect()
}
