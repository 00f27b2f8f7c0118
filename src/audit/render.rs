//! An audit printed: for people (the level, then each failed requirement's reason and fix), or
//! as the Agent-Adoption Specification's scanner output (`output-v1.schema.json`), scored and
//! levelled as its §7 and §8 say, wellgen's ladder under `meta.ladder`.

use serde_json::{Map, Value, json};

use super::checks::{CATEGORIES, Outcome};
use super::{Audit, Status, ladder};
use crate::diag::shown;

pub const SPEC_VERSION: &str = "1.0.0";
pub const PROFILE: &str = "b2b-saas";

/// The specification's level names (its §8.1), from 1.
const SPEC_LEVELS: [&str; 3] = ["Basic Web Presence", "AI-Aware", "Agent-Optimized"];

/// `round(100 * pass / (pass + fail))`, half up; 0 when nothing counts (§7.1).
fn ratio(pass: u32, fail: u32) -> u32 {
    if pass + fail == 0 {
        0
    } else {
        (200 * pass + (pass + fail)) / (2 * (pass + fail))
    }
}

fn status_of(outcomes: &[Outcome], id: &str) -> Status {
    outcomes
        .iter()
        .find(|o| o.id() == id)
        .map_or(Status::Neutral, |o| o.status)
}

/// The score, its clusters (§7.3) and the level (§8).
pub struct Scored {
    pub score: u32,
    pub level: u8,
    pub clusters: Value,
}

pub fn score(outcomes: &[Outcome]) -> Scored {
    let rendering = outcomes.iter().find(|o| o.id() == "rendering-strategy");
    let rendering_failed = rendering.is_some_and(|o| o.status == Status::Fail);
    let (mut pass, mut fail) = (0, 0);
    for o in outcomes {
        let weight = if rendering_failed && o.id() == "page-size-html" {
            0
        } else {
            u32::from(o.spec.weight)
        };
        match o.status {
            Status::Pass => pass += weight,
            Status::Fail => fail += weight,
            Status::Neutral => {}
        }
    }
    let mut score = ratio(pass, fail);
    // Without a renderer a failure is always the SPA-shell short circuit: the severe cap.
    if rendering_failed {
        score = score.min(39);
    }
    let viable = [
        "llms-txt-exists",
        "rendering-strategy",
        "markdown-url-support",
        "markdown-negotiation",
    ];
    let no_viable = viable
        .iter()
        .all(|id| status_of(outcomes, id) != Status::Pass)
        && viable
            .iter()
            .filter(|id| status_of(outcomes, id) == Status::Fail)
            .count()
            >= 2;
    if no_viable {
        score = score.min(39);
    }
    let mut spa = json!({"name": "spaRenderingCap", "kind": "cap", "triggered": rendering_failed,
        "message": if rendering_failed { "the home page is an SPA shell: the score is capped at 39" } else { "rendering-strategy did not fail" }});
    if rendering_failed {
        spa["capScore"] = json!(39);
    }
    let mut viable_cap = json!({"name": "noViablePathCap", "kind": "cap", "triggered": no_viable,
        "message": if no_viable { "no Markdown or llms.txt path for agents: the score is capped at 39" } else { "an agent has a content path, or too few checks failed to tell" }});
    if no_viable {
        viable_cap["capScore"] = json!(39);
    }
    let clusters = json!([
        {"name": "htmlPath", "kind": "coefficient", "triggered": rendering_failed,
         "coefficient": if rendering_failed { 0 } else { 1 }, "appliesTo": ["page-size-html"],
         "message": if rendering_failed { "rendering-strategy failed: page-size-html is not scored" } else { "rendering-strategy did not fail: weights unchanged" }},
        spa,
        viable_cap,
    ]);
    let level = if status_of(outcomes, "content-signals") != Status::Pass {
        1
    } else if status_of(outcomes, "markdown-negotiation") != Status::Pass {
        2
    } else {
        3
    };
    Scored {
        score,
        level,
        clusters,
    }
}

/// The scanner output of the Agent-Adoption Specification v1.0.
pub fn json(audit: &Audit) -> Value {
    let scored = score(&audit.checks);
    let reports: Vec<Value> = CATEGORIES
        .iter()
        .map(|(category, description)| {
            let checks: Vec<&Outcome> = audit
                .checks
                .iter()
                .filter(|o| o.spec.category == *category)
                .collect();
            let count = |s: Status| checks.iter().filter(|o| o.status == s).count();
            let weight = |s: Status| -> u32 {
                checks
                    .iter()
                    .filter(|o| o.status == s)
                    .map(|o| u32::from(o.spec.weight))
                    .sum()
            };
            json!({
                "category": category,
                "description": description,
                "score": ratio(weight(Status::Pass), weight(Status::Fail)),
                "passed": count(Status::Pass),
                "failed": count(Status::Fail),
                "neutral": count(Status::Neutral),
                "checks": checks.iter().map(|o| check_json(o)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut out = Map::new();
    out.insert("specVersion".into(), json!(SPEC_VERSION));
    out.insert("profile".into(), json!(PROFILE));
    out.insert(
        "scanner".into(),
        json!({"name": "wellgen audit", "version": env!("CARGO_PKG_VERSION")}),
    );
    out.insert("domain".into(), json!(audit.domain));
    out.insert("finalUrl".into(), json!(audit.final_url));
    out.insert("scannedAt".into(), json!(now()));
    out.insert("score".into(), json!(scored.score));
    out.insert("level".into(), json!(scored.level));
    out.insert(
        "levelName".into(),
        json!(SPEC_LEVELS[usize::from(scored.level) - 1]),
    );
    if scored.level < 3 {
        let (requirement, next) = if scored.level == 1 {
            ("content-signals", 2)
        } else {
            ("markdown-negotiation", 3)
        };
        out.insert(
            "nextLevel".into(),
            json!({"level": next, "levelName": SPEC_LEVELS[next - 1], "requirements": [requirement]}),
        );
    }
    out.insert("categoryReports".into(), Value::Array(reports));
    out.insert(
        "meta".into(),
        json!({
            "checksEvaluated": audit.checks.len(),
            "checksSkipped": 0,
            "scanDurationMs": audit.duration_ms,
            "counters": {"fetches": {"total": audit.requests}},
            "ladder": {
                "level": audit.ladder.level,
                "levelName": ladder::name(audit.ladder.level),
                "top": ladder::TOP,
                "requirements": audit.ladder.requirements,
            },
        }),
    );
    out.insert("clusters".into(), scored.clusters);
    Value::Object(out)
}

fn check_json(o: &Outcome) -> Value {
    let mut v = json!({
        "id": o.id(),
        "category": o.spec.category,
        "status": o.status,
        "scored": o.spec.weight > 0,
        "weight": o.spec.weight,
        "message": o.message,
        "description": o.spec.description,
        "durationMs": o.duration_ms,
        "specUrls": o.spec.spec_urls,
        "dependsOn": o.spec.depends_on,
    });
    if let Some(d) = &o.details {
        let mut d = d.clone();
        if o.status == Status::Fail {
            d.insert("fix".into(), json!(o.spec.fix));
        }
        v["details"] = Value::Object(d);
    }
    v
}

/// The time now as ISO 8601 UTC, whole seconds, with `Z`.
fn now() -> String {
    let now = jiff::Timestamp::now();
    jiff::Timestamp::from_second(now.as_second())
        .unwrap_or(now)
        .to_string()
}

/// The report for people: the level, the requirements of each level, then every failure's
/// reason and fix; text from the site escaped.
pub fn text(audit: &Audit) -> String {
    let line = |s: &str| shown::untrusted(s, shown::TEXT_MAX).into_owned();
    let mut out = String::new();
    out.push_str(&format!("audit of {}\n", line(&audit.target)));
    out.push_str(&format!(
        "level {} of {}: {}\n",
        audit.ladder.level,
        ladder::TOP,
        ladder::name(audit.ladder.level)
    ));
    for n in 1..=ladder::TOP {
        let reqs: Vec<_> = audit
            .ladder
            .requirements
            .iter()
            .filter(|r| r.level == n)
            .collect();
        let mark = if reqs.iter().all(|r| r.passed) {
            "pass"
        } else {
            "FAIL"
        };
        let ids: Vec<String> = reqs
            .iter()
            .map(|r| format!("{}{}", if r.passed { "" } else { "!" }, r.id))
            .collect();
        out.push_str(&format!(
            "  {n} {:<20} {mark}  {}\n",
            ladder::name(n),
            ids.join(" ")
        ));
    }
    let failed: Vec<_> = audit.ladder.failed().collect();
    if !failed.is_empty() {
        out.push_str("\nto reach the next levels:\n");
    }
    for r in &failed {
        out.push_str(&format!(
            "  level {} {}: {}\n",
            r.level,
            r.id,
            line(&r.reason)
        ));
        if let Some(fix) = &r.fix {
            out.push_str(&format!("    fix: {}\n", line(fix)));
        }
    }
    let scored = score(&audit.checks);
    out.push_str(&format!(
        "\nAgent-Adoption Specification {SPEC_VERSION}: score {}/100, level {} ({})\n",
        scored.score,
        scored.level,
        SPEC_LEVELS[usize::from(scored.level) - 1]
    ));
    for o in audit
        .checks
        .iter()
        .filter(|o| o.status == Status::Fail && !failed.iter().any(|r| r.id == o.id()))
    {
        out.push_str(&format!(
            "  {} (weight {}): {}\n",
            o.id(),
            o.spec.weight,
            line(&o.message)
        ));
        out.push_str(&format!("    fix: {}\n", line(o.spec.fix)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_half_up() {
        assert_eq!(ratio(0, 0), 0);
        assert_eq!(ratio(1, 1), 50);
        assert_eq!(ratio(1, 199), 1); // 0.5 → 1
        assert_eq!(ratio(7, 0), 100);
        assert_eq!(ratio(11, 69), 14);
    }
}
