//! What a build publishes: `[build]` of service.toml (or `--target`, which wins) resolved into
//! the targets to build and the documents and host files to leave out. Resolved before any
//! target is lowered, so a target that is not chosen is never lowered and never reports.

use std::collections::BTreeSet;

use super::hosts;
use super::{Choice, TWINS, Target, is_twin};
use crate::diag::{Code, Diagnostic, Diagnostics, did_you_mean};
use crate::source::service_toml::{BuildTable, ServiceToml};

/// Every path `[build] skip` accepts: each target's aliases and twins, then each host file.
pub fn skippable() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Target::ALL
        .iter()
        .flat_map(|t| t.descriptor().documents)
        .filter(|d| d.alias)
        .map(|d| d.path)
        .collect();
    all.extend(hosts::files());
    all.push(TWINS);
    all
}

/// The `[build]` switch that leaves out the file at `path`, for messages: `None` for a path
/// that is no file wellgen writes.
pub fn switch_for(path: &str) -> Option<String> {
    let skip = |p: &str| format!("add \"{p}\" to `[build] skip` in service.toml");
    if skippable().contains(&path) {
        return Some(skip(path));
    }
    if is_twin(path) {
        return Some(skip(TWINS));
    }
    let target = Target::ALL.into_iter().find(|t| {
        t.descriptor().documents.iter().any(|d| {
            d.path == path
                || (d.family.is_some() && path.starts_with(d.path) && path.len() > d.path.len())
        })
    })?;
    // Excluding a target that a kept one links to is an error: name those too.
    let mut out = vec![target];
    let mut i = 0;
    while let Some(&t) = out.get(i) {
        for linking in Target::ALL {
            if linking.descriptor().requires.contains(&t) && !out.contains(&linking) {
                out.push(linking);
            }
        }
        i += 1;
    }
    let names: Vec<String> = out.iter().map(|t| format!("\"{}\"", t.name())).collect();
    let (one, linking) = names.split_first()?;
    Some(if linking.is_empty() {
        format!("add {one} to `[build] exclude` in service.toml")
    } else {
        format!(
            "add {one} to `[build] exclude` in service.toml, and {}, which link{} to it",
            linking.join(", "),
            if linking.len() == 1 { "s" } else { "" }
        )
    })
}

/// The opt-in targets a service.toml asks for by writing their table: `[plugin]`, the
/// manifest's wording, asks for ai-plugin.json.
pub fn asked_for(raw: &ServiceToml) -> Vec<Target> {
    let mut asked = Vec::new();
    if raw.plugin.is_some() {
        asked.push(Target::AiPlugin);
    }
    asked
}

/// Resolves `[build]` (its diagnostics into `diags`); `asked` are the opt-in targets the file
/// asks for by other tables ([`asked_for`]), added to the default ones; `cli` are the targets
/// of `--target`, if any were given: they replace `targets` and `exclude`.
pub fn resolve(
    build: Option<&BuildTable>,
    asked: &[Target],
    cli: Option<&[Target]>,
    diags: &mut Diagnostics,
) -> Choice {
    let empty = BuildTable::default();
    let build = build.unwrap_or(&empty);
    let targets = match cli {
        Some(chosen) => Target::with_requirements(chosen),
        None => from_file(build, asked, diags),
    };
    let mut skip = BTreeSet::new();
    let names = skippable();
    for (i, path) in build.skip.iter().flatten().enumerate() {
        let field = format!("build.skip.{i}");
        if names.contains(&path.as_str()) {
            skip.insert(path.clone());
            continue;
        }
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            format!("`{path}` is not a document alias or host file wellgen writes"),
        )
        .at(field);
        d = match switch_for(path) {
            Some(exclude) => d.help(format!(
                "`{path}` is a target's own document; to leave it out, {exclude}"
            )),
            None => match did_you_mean(path, names.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("`[build] skip` takes: {}", names.join(", "))),
            },
        };
        diags.push(d);
    }
    Choice { targets, skip }
}

fn target_names() -> Vec<&'static str> {
    Target::ALL.iter().map(|t| t.name()).collect()
}

/// The targets named at `field` (`build.targets`, `build.exclude`), each unknown name an error.
fn named(list: &[String], key: &str, diags: &mut Diagnostics) -> Vec<Target> {
    let mut out = Vec::new();
    for (i, name) in list.iter().enumerate() {
        match Target::named(name) {
            Some(t) => out.push(t),
            None => {
                let names = target_names();
                let mut d = Diagnostic::new(
                    Code::InvalidValue,
                    format!(
                        "`{name}` is not a target; the targets are: {}",
                        names.join(", ")
                    ),
                )
                .at(format!("build.{key}.{i}"));
                if let Some(s) = did_you_mean(&name.to_ascii_lowercase(), names.iter().copied()) {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                diags.push(d);
            }
        }
    }
    out
}

fn from_file(build: &BuildTable, asked: &[Target], diags: &mut Diagnostics) -> Vec<Target> {
    let chosen = build
        .targets
        .as_deref()
        .map(|list| named(list, "targets", diags));
    let excluded = build
        .exclude
        .as_deref()
        .map(|list| named(list, "exclude", diags))
        .unwrap_or_default();
    let mut targets = match &chosen {
        Some(list) if !list.is_empty() => Target::with_requirements(list),
        Some(_) => Vec::new(),
        None => {
            let mut wanted = Target::defaults();
            wanted.extend(asked);
            Target::with_requirements(&wanted)
        }
    };
    targets.retain(|t| !excluded.contains(t));
    for &kept in &targets {
        for needed in kept.descriptor().requires {
            if excluded.contains(needed) {
                diags.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        format!(
                            "`{}` is excluded, but `{}` links to its documents",
                            needed.name(),
                            kept.name()
                        ),
                    )
                    .at("build.exclude")
                    .help(format!(
                        "exclude `{}` too, or keep `{}`",
                        kept.name(),
                        needed.name()
                    )),
                );
            }
        }
    }
    let misnamed = chosen.as_ref().map_or(0, Vec::len) < build.targets.as_ref().map_or(0, Vec::len);
    if targets.is_empty() && !misnamed && (build.targets.is_some() || build.exclude.is_some()) {
        diags.push(
            Diagnostic::new(Code::InvalidValue, "`[build]` leaves no target to build")
                .at(if build.exclude.is_some() {
                    "build.exclude"
                } else {
                    "build.targets"
                })
                .help("name at least one target in `targets`, or exclude fewer"),
        );
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(targets: Option<&[&str]>, exclude: Option<&[&str]>, skip: &[&str]) -> BuildTable {
        let own = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        BuildTable {
            targets: targets.map(own),
            exclude: exclude.map(own),
            skip: Some(own(skip)),
        }
    }

    #[test]
    fn targets_add_their_requirements_and_exclude_removes() {
        let mut d = Diagnostics::default();
        let c = resolve(
            Some(&table(Some(&["rfc002"]), None, &[])),
            &[],
            None,
            &mut d,
        );
        assert_eq!(c.targets, [Target::Rfc002, Target::OpenApi]);
        let c = resolve(
            Some(&table(None, Some(&["agis", "mcp"]), &[])),
            &[],
            None,
            &mut d,
        );
        assert!(!c.targets.contains(&Target::Agis) && c.targets.contains(&Target::Adp));
        assert!(!d.has_errors());
    }

    #[test]
    fn a_plugin_table_asks_for_the_opt_in_manifest() {
        let mut d = Diagnostics::default();
        let c = resolve(None, &[], None, &mut d);
        assert_eq!(c.targets, Target::defaults());
        assert!(!c.targets.contains(&Target::AiPlugin));
        let c = resolve(None, &[Target::AiPlugin], None, &mut d);
        assert!(c.targets.contains(&Target::AiPlugin) && c.targets.contains(&Target::Rfc002));
        // A list of targets, in the file or on the command line, is the whole choice.
        let c = resolve(
            Some(&table(Some(&["ai"]), None, &[])),
            &[Target::AiPlugin],
            None,
            &mut d,
        );
        assert_eq!(c.targets, [Target::AiEndpoint]);
        let c = resolve(
            None,
            &[Target::AiPlugin],
            Some(&[Target::AiEndpoint]),
            &mut d,
        );
        assert_eq!(c.targets, [Target::AiEndpoint]);
        let c = resolve(
            Some(&table(None, Some(&["ai-plugin"]), &[])),
            &[Target::AiPlugin],
            None,
            &mut d,
        );
        assert_eq!(c.targets, Target::defaults());
        assert!(!d.has_errors());
    }

    #[test]
    fn the_command_line_wins() {
        let mut d = Diagnostics::default();
        let c = resolve(
            Some(&table(Some(&["agis"]), None, &[])),
            &[],
            Some(&[Target::AiEndpoint]),
            &mut d,
        );
        assert_eq!(c.targets, [Target::AiEndpoint]);
    }

    #[test]
    fn unknown_names_are_errors_with_a_suggestion() {
        let mut d = Diagnostics::default();
        resolve(
            Some(&table(Some(&["agsi"]), None, &["/ai.json"])),
            &[],
            None,
            &mut d,
        );
        let all: Vec<String> = d
            .iter()
            .map(|d| format!("{} {:?}", d.message, d.help))
            .collect();
        assert!(
            all[0].contains("`agsi` is not a target") && all[0].contains("`agis`"),
            "{all:?}"
        );
        assert!(all[1].contains("did you mean `/ai`"), "{all:?}");
        assert_eq!(all.len(), 2, "{all:?}");
    }

    #[test]
    fn a_primary_document_is_left_out_by_excluding_its_target() {
        let mut d = Diagnostics::default();
        resolve(Some(&table(None, None, &["/llms.txt"])), &[], None, &mut d);
        let help = d.iter().next().unwrap().help.clone().unwrap();
        assert!(help.contains("\"llms-txt\" to `[build] exclude`"), "{help}");
    }

    #[test]
    fn excluding_a_required_target_is_an_error() {
        let mut d = Diagnostics::default();
        resolve(
            Some(&table(None, Some(&["openapi"]), &[])),
            &[],
            None,
            &mut d,
        );
        assert!(d.has_errors());
    }

    #[test]
    fn twins_are_skipped_as_a_family() {
        let mut d = Diagnostics::default();
        let c = resolve(Some(&table(None, None, &[TWINS, "/ai"])), &[], None, &mut d);
        assert!(c.skips("/api/capabilities/search.json") && c.skips("/ai"));
        assert!(!c.skips("/api/capabilities/search") && !d.has_errors());
    }

    #[test]
    fn twins_are_named_where_adp_writes_its_detail_files() {
        assert_eq!(TWINS, format!("{}.json", Target::Adp.member_path("<id>")));
    }
}
