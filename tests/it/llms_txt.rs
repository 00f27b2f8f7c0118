//! /llms.txt on every example and fixture, read back with a port of the proposal's reference
//! parser (llms_txt/miniparse.py): title, summary, details, and sections of link lists.

use crate::common::*;
use regex::Regex;
use wellgen::diag::Diagnostics;
use wellgen::emit::{Artifact, Target};
use wellgen::model::Service;

const PATH: &str = "/llms.txt";

#[derive(Debug)]
struct Link {
    title: String,
    url: String,
    desc: Option<String>,
}

#[derive(Debug)]
struct LlmsTxt {
    title: String,
    summary: Option<String>,
    info: String,
    sections: Vec<(String, Vec<Link>)>,
}

/// `parse_llms_txt` of miniparse.py, regex for regex. Where Python would fail (a section line
/// that is not a link, no H1) this returns an error instead. Stricter than the reference in
/// one way: a link line must *start* with the list marker, not merely contain a link.
fn parse(txt: &str) -> Result<LlmsTxt, String> {
    let link_pat =
        Regex::new(r"-\s*\[(?P<title>[^\]]+)\]\((?P<url>[^\)]+)\)(?::\s*(?P<desc>.*))?").unwrap();
    let section_pat = Regex::new(r"(?m)^##\s*(.*?$)").unwrap();
    let head_pat =
        Regex::new(r"(?ms)^#\s*(?P<title>.+?$)\n+(?:^>\s*(?P<summary>.+?$)$)?\n+(?P<info>.*)")
            .unwrap();

    // re.split with one group: start, then (name, body) pairs.
    let matches: Vec<_> = section_pat.captures_iter(txt).collect();
    let start_end = matches
        .first()
        .map_or(txt.len(), |m| m.get(0).unwrap().start());
    let start = &txt[..start_end];
    let mut sections = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        let body_end = matches
            .get(i + 1)
            .map_or(txt.len(), |n| n.get(0).unwrap().start());
        let body = &txt[m.get(0).unwrap().end()..body_end];
        let mut links = Vec::new();
        for line in body.trim().split('\n').filter(|l| !l.trim().is_empty()) {
            let c = link_pat
                .captures(line)
                .ok_or_else(|| format!("not a link line: {line:?}"))?;
            if !line.starts_with("- [") {
                return Err(format!("a link line must start with `- [`: {line:?}"));
            }
            links.push(Link {
                title: c["title"].to_string(),
                url: c["url"].to_string(),
                desc: c.name("desc").map(|d| d.as_str().to_string()),
            });
        }
        sections.push((m[1].to_string(), links));
    }
    let d = head_pat
        .captures(start.trim())
        .ok_or("no H1 title where the file starts")?;
    Ok(LlmsTxt {
        title: d["title"].to_string(),
        summary: d.name("summary").map(|s| s.as_str().to_string()),
        info: d["info"].to_string(),
        sections,
    })
}

fn load(source: &std::path::Path) -> (Service, Vec<Artifact>) {
    let mut diags = Diagnostics::default();
    let service = wellgen::pipeline::load(source, &mut diags).unwrap();
    let artifacts = Target::LlmsTxt.emit(&service, &mut diags);
    assert!(!diags.has_errors(), "{}: {diags:?}", source.display());
    (service, artifacts)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn section<'a>(doc: &'a LlmsTxt, name: &str) -> Option<&'a [Link]> {
    doc.sections
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, l)| l.as_slice())
}

/// The documents the other targets publish for others to link to, as their descriptors say.
fn documents(service: &Service) -> Vec<&'static str> {
    wellgen::emit::targets::linked(service, &Target::ALL)
        .into_iter()
        .filter(|d| d.target != Target::LlmsTxt)
        .map(|d| d.path)
        .collect()
}

#[test]
fn the_port_reads_the_proposals_sample_as_intended() {
    let text =
        std::fs::read_to_string(root().join("tests/schemas/llms-txt/llms-sample.txt")).unwrap();
    let doc = parse(&text).unwrap();
    assert_eq!(doc.title, "FastHTML");
    assert!(
        doc.summary
            .as_deref()
            .is_some_and(|s| s.starts_with("FastHTML is a python library")),
        "{doc:?}"
    );
    assert!(doc.info.starts_with("Remember:"), "{:?}", doc.info);
    let names: Vec<(&str, usize)> = doc
        .sections
        .iter()
        .map(|(n, l)| (n.as_str(), l.len()))
        .collect();
    assert_eq!(names, [("Docs", 3), ("Examples", 1), ("Optional", 1)]);
    assert_eq!(doc.sections[0].1[2].desc, None);
    // Without text after it, the reference pattern does not see the summary at all: the
    // reason wellgen always writes a details paragraph.
    let bare = parse("# T\n\n> S\n\n## A\n\n- [x](https://x.example)\n").unwrap();
    assert_eq!((bare.summary, bare.info.as_str()), (None, "> S"));
    // And a stray line in a section is refused, as Python would fail on it.
    assert!(parse("# T\n\n> S\n\ninfo\n\n## A\n\nnot a link\n").is_err());
}

#[test]
fn every_llms_txt_parses_back_to_the_model() {
    for source in sources() {
        let (service, artifacts) = load(&source);
        let name = source.display();
        assert_eq!(artifacts.len(), 1, "{name}");
        let a = &artifacts[0];
        assert_eq!(a.path, PATH);
        let serving = a.serving.as_ref().unwrap();
        assert_eq!(serving.content_type, "text/plain; charset=utf-8");
        assert_eq!(serving.cache_control, "public, max-age=3600");

        let text = String::from_utf8(a.body.to_vec()).unwrap();
        assert!(
            text.ends_with('\n') && !text.ends_with("\n\n"),
            "{name}: one final newline"
        );
        assert!(!text.contains("\n\n\n"), "{name}: no double blank lines");
        assert!(
            text.lines().all(|l| l == l.trim_end()),
            "{name}: trailing spaces"
        );

        let doc = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(doc.title, one_line(&service.name), "{name}");
        assert_eq!(
            doc.summary.as_deref(),
            Some(one_line(&service.description).as_str())
        );
        assert!(
            doc.info.trim().contains(service.base_url.as_str()),
            "{name}"
        );
        assert!(!doc.info.trim().is_empty());

        let mut seen = std::collections::BTreeSet::new();
        for (section, links) in &doc.sections {
            assert!(seen.insert(section), "{name}: section {section} twice");
            assert!(!links.is_empty(), "{name}: empty section {section}");
            for l in links {
                assert!(l.url.starts_with("https://"), "{name}: {}", l.url);
                assert!(!l.url.contains(char::is_whitespace), "{name}: {}", l.url);
            }
        }

        // Capabilities: one link each, to the ADP detail file, noted with the description.
        let site = service.site_url.as_str();
        let caps = section(&doc, "Capabilities").unwrap();
        assert_eq!(caps.len(), service.capabilities.len(), "{name}");
        for (l, c) in caps.iter().zip(&service.capabilities) {
            assert_eq!(l.title, c.id);
            assert_eq!(l.url, format!("{site}/api/capabilities/{}", c.id));
            let desc = l.desc.as_deref().unwrap_or_default();
            assert!(
                desc.starts_with(&one_line(&c.description)),
                "{name}: {desc}"
            );
            assert!(desc.contains(c.method.as_str()), "{name}: {desc}");
        }

        // Every published document, absolute on the site.
        let docs: Vec<&str> = section(&doc, "Discovery documents")
            .unwrap()
            .iter()
            .map(|l| l.url.as_str())
            .collect();
        for path in documents(&service) {
            let url = format!("{site}{path}");
            assert!(
                docs.contains(&url.as_str()),
                "{name}: {url} not in {docs:?}"
            );
        }
        assert!(
            !docs.iter().any(|u| u.ends_with(PATH)),
            "{name}: links to itself"
        );

        // Optional: the secondary links, last, exactly when the model has any.
        let wanted: Vec<&str> = [
            &service.links.docs,
            &service.links.terms,
            &service.links.privacy,
            &service.links.support,
            &service.links.repository,
            &service.meta.status,
            &service.meta.changelog,
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
        match section(&doc, "Optional") {
            None => assert!(wanted.is_empty(), "{name}: no Optional section"),
            Some(links) => {
                assert_eq!(doc.sections.last().unwrap().0, "Optional", "{name}");
                let urls: Vec<String> = links
                    .iter()
                    .map(|l| l.url.replace("%28", "(").replace("%29", ")"))
                    .collect();
                assert_eq!(urls, wanted, "{name}");
            }
        }
    }
}

#[test]
fn multi_line_text_and_parentheses_survive_the_parser() {
    let (_, artifacts) = load(&root().join("tests/fixtures/beyond-api-key/service.toml"));
    let text = String::from_utf8(artifacts[0].body.to_vec()).unwrap();
    let doc = parse(&text).unwrap();
    assert_eq!(
        doc.summary.as_deref(),
        Some("Track parcels across carriers. Also [prints] labels (as PDF).")
    );
    let optional = section(&doc, "Optional").unwrap();
    assert_eq!(optional[0].url, "https://parcels.example/docs/%28v2%29");
    let caps = section(&doc, "Capabilities").unwrap();
    assert_eq!(
        caps[1].desc.as_deref(),
        Some(
            "Render a shipping label as PDF (POST https://labels.parcels.example/labels). Deprecated"
        )
    );
}
