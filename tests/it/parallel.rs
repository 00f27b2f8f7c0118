//! A large service's targets are emitted on several threads: the artifacts and the diagnostics
//! must be exactly those of one thread, in the same order.

use std::fmt::Write as _;

use wellgen::diag::Diagnostics;
use wellgen::emit::{self, Target};

/// A service with `n` capabilities and no semantic fields, so every target derives values and
/// warns: the diagnostics' order is tested too.
fn big_service(n: usize) -> String {
    let mut s = String::from(
        "[service]\nname = \"Big\"\ndescription = \"A generated service with many capabilities.\"\n\
         base_url = \"https://api.big.example\"\n\n[auth]\ntype = \"bearer\"\n",
    );
    for i in 0..n {
        let method = ["GET", "POST", "DELETE"][i % 3];
        let _ = write!(
            s,
            "\n[[capabilities]]\nid = \"op_{i}\"\ndescription = \"Operation number {i} of the generated service.\"\n\
             method = \"{method}\"\npath = \"/things/{i}/{{id}}\"\nreturns = \"thing {{id, name}}\"\n\
             [capabilities.params]\nid = \"string, required -- the thing\"\n"
        );
    }
    s
}

#[test]
fn several_workers_emit_what_one_does() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("service.toml");
    std::fs::write(&file, big_service(100)).unwrap();
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(&file, &mut diags).expect("the service lowers");
    assert!(!diags.has_errors());

    // The build's schedule: each target lowered and rendered at once, the dearest first.
    let every = emit::Choice::all(&Target::ALL);
    let fused = |workers| {
        let mut d = Diagnostics::default();
        let shared = emit::targets::Shared::default();
        let artifacts = emit::lower_and_render(
            &service,
            emit::Build::of(&every),
            &shared,
            Some(workers),
            &mut d,
        )
        .expect("no check fails");
        let files: Vec<(String, std::sync::Arc<Vec<u8>>)> =
            artifacts.into_iter().map(|a| (a.path, a.body)).collect();
        let messages: Vec<String> = d.iter().map(|m| format!("{m:?}")).collect();
        (files, messages)
    };
    let one = fused(1);
    assert!(one.0.len() > 100, "every capability has an ADP detail file");
    assert!(!one.1.is_empty(), "derived values are warned about");
    for workers in [2, 3, 16] {
        assert_eq!(fused(workers), one, "{workers} workers");
    }
}

#[test]
fn an_error_renders_nothing() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("service.toml");
    std::fs::write(&file, big_service(80)).unwrap();
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(&file, &mut diags).expect("the service lowers");
    let shared = emit::targets::Shared::default();
    let every = emit::Choice::all(&Target::ALL);
    let mut d = Diagnostics::default();
    d.push(wellgen::diag::Diagnostic::new(
        wellgen::diag::Code::InvalidValue,
        "an error found before the targets",
    ));
    let before = d.iter().count();
    assert!(
        emit::lower_and_render(&service, emit::Build::of(&every), &shared, Some(2), &mut d)
            .is_none()
    );
    assert!(
        d.iter().count() > before,
        "every target still lowers and reports"
    );
}

/// A large service's checks run beside its targets: an error they find still drops every
/// document, and the diagnostics are those of the checks, then the targets, run one by one.
#[test]
fn a_check_error_beside_the_targets_drops_the_documents() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("service.toml");
    let text = big_service(80).replacen(
        "description = \"Operation number 7 of",
        "description = \"Key sk_live_51HqLyjWDarjtT1zdp7dcAbCdEf, operation number 7 of",
        1,
    );
    assert!(text.contains("sk_live_"));
    std::fs::write(&file, &text).unwrap();
    let options = wellgen::pipeline::Options::default();
    let sources = wellgen::pipeline::Sources {
        path: &file,
        text: &text,
        openapi: None,
    };
    let (compiled, _) = wellgen::pipeline::compile(sources, &options);
    assert!(compiled.diags.has_errors());
    assert!(
        compiled.artifacts.is_empty(),
        "no document of a failed check"
    );

    let mut one_by_one = Diagnostics::default();
    let service = wellgen::pipeline::load(&file, &mut one_by_one).expect("the service lowers");
    wellgen::check::run(&service, &options.policy, &mut one_by_one);
    assert!(one_by_one.has_errors(), "the key is an error");
    assert!(wellgen::pipeline::emit(&service, &Target::defaults(), &mut one_by_one).is_empty());
    let messages = |d: &Diagnostics| d.iter().map(|m| format!("{m:?}")).collect::<Vec<_>>();
    assert_eq!(messages(&compiled.diags), messages(&one_by_one));
}
