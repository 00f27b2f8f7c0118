//! What each target publishes and which spec it follows: the data behind `wellgen targets`
//! and the README's table (a test keeps the two equal). Paths and serving come from each back
//! end's own constants, so this cannot drift from what is emitted.

use std::fmt::Write as _;

use super::{
    Serving, Target, a2a, adp, agis, aiendpoint, api_catalog, iajson, llms_txt, mcp, openapi,
    rfc002,
};

pub struct TargetInfo {
    pub target: Target,
    pub paths: Vec<String>,
    pub serving: Vec<Serving>,
    /// The exact spec version or draft followed.
    pub spec: &'static str,
    /// Where that spec stands.
    pub status: &'static str,
}

impl Target {
    pub fn info(self) -> TargetInfo {
        let own = |paths: &[&str]| paths.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        let (paths, serving, spec, status) = match self {
            Self::AiEndpoint => (
                own(&aiendpoint::PATHS),
                vec![aiendpoint::SERVING],
                "draft-aiendpoint-ai-discovery-00 (aiendpoint 1.0)",
                "individual Internet-Draft, expired 2026-09-24",
            ),
            Self::IaJson => (
                own(&iajson::PATHS),
                vec![iajson::SERVING],
                "ia.json 1.0.0",
                "community specification",
            ),
            Self::Rfc002 => (
                own(&[
                    rfc002::AGENTS_PATH,
                    rfc002::AI_PLUGIN_PATH,
                    rfc002::DISCOVERY_PATH,
                ]),
                vec![rfc002::SERVING],
                "RFC-002 Agent-Discovery-By-Default (ar-agents, 2026-05); OpenAI plugin manifest v1",
                "draft, not an IETF RFC; the plugin manifest is retired by OpenAI",
            ),
            Self::OpenApi => (
                own(&openapi::PATHS),
                vec![rfc002::SERVING],
                "OpenAPI 3.1.0",
                "published standard",
            ),
            Self::Adp => (
                vec![
                    adp::MANIFEST_PATH.to_string(),
                    format!("{}<id>", adp::DETAIL_PREFIX),
                ],
                vec![adp::SERVING],
                "Agent Discovery Protocol 1.0",
                "community specification",
            ),
            Self::Agis => (
                own(&[agis::SUMMARY_PATH, agis::YAML_PATH, agis::JSON_PATH]),
                vec![agis::SERVING_JSON, agis::SERVING_YAML],
                "AGIS draft-hood-independent-agis-01",
                "superseded by draft-hood-agtp-api-00, which deprecates it",
            ),
            Self::Mcp => (
                own(&[mcp::PATH]),
                vec![mcp::SERVING],
                "MCP tools/list result, schema 2026-07-28 (AGIS Appendix C mapping)",
                "published specification",
            ),
            Self::A2a => (
                own(&[a2a::PATH]),
                vec![a2a::SERVING],
                "A2A 1.0.1",
                "released specification",
            ),
            Self::LlmsTxt => (
                own(&[llms_txt::PATH]),
                vec![llms_txt::SERVING],
                "llms.txt proposal (llmstxt.org)",
                "informal proposal",
            ),
            Self::ApiCatalog => (
                own(&[api_catalog::PATH]),
                vec![api_catalog::SERVING],
                "RFC 9727 (api-catalog)",
                "IETF RFC, Standards Track",
            ),
        };
        TargetInfo {
            target: self,
            paths,
            serving,
            spec,
            status,
        }
    }
}

fn media_types(info: &TargetInfo) -> String {
    let mut types: Vec<&str> = info.serving.iter().map(|s| s.content_type).collect();
    types.dedup();
    types.join(", ")
}

fn cache(info: &TargetInfo) -> String {
    let mut c: Vec<&str> = info.serving.iter().map(|s| s.cache_control).collect();
    c.dedup();
    c.join(", ")
}

/// The README's targets table.
pub fn markdown() -> String {
    let mut out = String::from(
        "| target (`--target`) | paths | media type | Cache-Control | spec | spec status |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for t in Target::ALL {
        let info = t.info();
        let paths: Vec<String> = info.paths.iter().map(|p| format!("`{p}`")).collect();
        let _ = writeln!(
            out,
            "| `{}` | {} | `{}` | `{}` | {} | {} |",
            t.name(),
            paths.join(", "),
            media_types(&info),
            cache(&info),
            info.spec,
            info.status
        );
    }
    out
}

/// The plain listing `wellgen targets` prints.
pub fn text() -> String {
    let mut out = String::new();
    for t in Target::ALL {
        let info = t.info();
        let _ = writeln!(out, "{}", t.name());
        let _ = writeln!(out, "  paths:         {}", info.paths.join(", "));
        let _ = writeln!(out, "  media type:    {}", media_types(&info));
        let _ = writeln!(out, "  cache-control: {}", cache(&info));
        let _ = writeln!(out, "  spec:          {}", info.spec);
        let _ = writeln!(out, "  status:        {}", info.status);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_lists_its_paths_and_spec() {
        for t in Target::ALL {
            let info = t.info();
            assert!(
                !info.paths.is_empty() && !info.serving.is_empty(),
                "{}",
                t.name()
            );
            assert!(
                info.paths.iter().all(|p| p.starts_with('/')),
                "{}",
                t.name()
            );
        }
        assert_eq!(markdown().lines().count(), Target::ALL.len() + 2);
    }
}
