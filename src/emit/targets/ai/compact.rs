//! The compact form of a capability, for documents over aiendpoint's 64 KB guidance (§4.5):
//! the draft's own aim is a document an agent reads in a few hundred tokens (§5), and a big
//! API's full descriptions cost more than its source's. Every capability and every required
//! parameter is kept; what is cut is prose: the first plain sentence of a description,
//! optional parameters by name and type, the returns by name, and the optional parameters every
//! capability of a document takes named once in its description (`common`).
//! docs/openapi-import.md lists it.

use std::borrow::Cow;

use foldhash::HashSet;

use crate::model::Capability;
use crate::text::{plain_text, shorten};
use crate::values::param::{Compact, Param, ParamIn, ParamType, whole_body};
use crate::values::schemas::Schemas;

/// A description's first sentence, as plain text.
pub const DESCRIPTION_MAX: usize = 160;
/// A required parameter's description, after its type.
const PARAM_DESCRIPTION_MAX: usize = 100;
/// `returns`, usually a type name with its fields: the name is what is kept.
const RETURNS_MAX: usize = 80;

/// The first sentence of `text` without markup, on one line, at most `max` characters.
pub fn first_sentence(text: &str, max: usize) -> String {
    let plain = plain_text(text);
    let plain = plain.trim();
    let end = sentence_end(plain).unwrap_or(plain.len());
    shorten(&plain[..end], max).0
}

/// The byte index just past the first sentence's full stop, when a sentence follows it.
fn sentence_end(text: &str) -> Option<usize> {
    text.char_indices().find_map(|(i, c)| {
        let rest = &text[i + c.len_utf8()..];
        let stop = matches!(c, '.' | '!' | '?');
        let spaced = rest.starts_with(char::is_whitespace);
        let capital = rest.trim_start().starts_with(char::is_uppercase);
        (stop && spaced && capital).then_some(i + 1)
    })
}

/// The draft's notation with every constraint a call needs (its place, name, format, items,
/// fields, values, pattern and bounds): a required parameter keeps the first sentence of its
/// description, an optional one none; defaults and examples, which no call needs, are left
/// out. Also where the description starts (` -- …`; the text's length when it has none), for
/// [`said_once`].
pub fn param(
    p: &Param,
    default_in: ParamIn,
    whole_body: bool,
    schemas: &Schemas,
) -> (String, usize) {
    let mut facts = call_facts(p, default_in, whole_body, schemas);
    let head = facts.write().len();
    if p.required
        && let Some(d) = &p.description
    {
        let d = first_sentence(d, PARAM_DESCRIPTION_MAX);
        if !d.is_empty() {
            facts.description = Some(d);
        }
    }
    (facts.write(), head)
}

/// What a call needs to know of `p`: its facts without description, default or example.
fn call_facts(p: &Param, default_in: ParamIn, whole_body: bool, schemas: &Schemas) -> Compact {
    Compact {
        default: None,
        example: None,
        ..p.facts(default_in, whole_body, schemas).facts_only()
    }
}

/// What `p` says to a call in `c` after `type, optional` (`items string`, `in query`): the
/// part a common parameter's entry in the description carries.
fn constraints(p: &Param, c: &Capability, schemas: &Schemas) -> String {
    let default_in = ParamIn::default_for(c.method, p.location == ParamIn::Path);
    let whole = whole_body(&c.params, c.content_type.as_deref(), schemas)
        .is_some_and(|i| std::ptr::eq(&c.params[i], p));
    let text = call_facts(p, default_in, whole, schemas).write();
    let head = format!("{}, optional", p.kind.as_str());
    text.strip_prefix(&head)
        .map(|rest| rest.trim_start_matches(", ").to_string())
        .unwrap_or(text)
}

/// Each required parameter's description said once in a document: a later capability taking
/// the same parameter, described in the same words, keeps its type and values only (GitHub's
/// `owner` and `repo`, described alike in some 500 capabilities, were a sixth of its
/// documents' bytes).
pub(super) fn said_once(capabilities: &mut [Cow<'_, super::CapabilityView<'_>>]) {
    let mut said: HashSet<(String, String)> = HashSet::default();
    for view in capabilities.iter_mut() {
        let repeated: Vec<(usize, usize)> = view
            .params
            .iter()
            .enumerate()
            .filter_map(|(i, (name, text))| {
                let head = *view.heads.get(name)?;
                let described = head < text.len();
                (described && !said.insert(((*name).to_string(), text.clone())))
                    .then_some((i, head))
            })
            .collect();
        if repeated.is_empty() {
            continue;
        }
        let view = view.to_mut();
        for (i, head) in repeated {
            if let Some((_, text)) = view.params.get_index_mut(i) {
                text.truncate(head);
            }
        }
    }
}

/// The draft's limit on `service.description` (§3.2): the common parameters must fit in it.
pub const SERVICE_DESCRIPTION_MAX: usize = 300;
/// Fewer capabilities than this share too little for the sentence to pay for itself.
const COMMON_MIN_CAPABILITIES: usize = 4;
const COMMON_LEAD: &str = "Every capability also takes optional parameters:";

/// An optional parameter that every capability of a document takes, with the same compact
/// value (`type, optional[, constraints]`): it is named once in the document's description
/// instead, its constraints in brackets after its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Common<'a> {
    pub name: &'a str,
    pub kind: ParamType,
    /// The constraints after `type, optional`, empty for none.
    pub constraints: String,
}

/// The optional parameters every one of `capabilities` takes (same name, same type and
/// constraints, never a required one), as many as `description` has room for in the draft's
/// 300 characters, the largest saving first; in the order the first capability lists them.
/// Only *every*: a parameter most capabilities take would be claimed for the others too
/// (docs/openapi-import.md gives the measurements).
pub fn common<'a>(
    capabilities: &[&'a Capability],
    description: &str,
    schemas: &Schemas,
) -> Vec<Common<'a>> {
    let Some((first, rest)) = capabilities.split_first() else {
        return Vec::new();
    };
    if capabilities.len() < COMMON_MIN_CAPABILITIES {
        return Vec::new();
    }
    // A name is shared when each capability has it, and every parameter of that name is the
    // same optional type with the same constraints (a capability may list a name twice, in
    // two places).
    let takes = |c: &Capability, name: &str, kind: ParamType, said: &str| {
        let mut same = c.params.iter().filter(|p| p.name == name).peekable();
        same.peek().is_some()
            && same.all(|p| !p.required && p.kind == kind && constraints(p, c, schemas) == said)
    };
    let mut candidates: Vec<Common<'a>> = Vec::new();
    for p in &first.params {
        // A name with a separator of the list in it would read as two.
        let plain = !p.name.contains([',', ';', ' ', '(']);
        let said = constraints(p, first, schemas);
        let shared = plain
            && !said.contains(')')
            && takes(first, &p.name, p.kind, &said)
            && rest.iter().all(|c| takes(c, &p.name, p.kind, &said))
            && !candidates.iter().any(|c| c.name == p.name);
        if shared {
            candidates.push(Common {
                name: &p.name,
                kind: p.kind,
                constraints: said,
            });
        }
    }
    // Each capability saves `"name":"type, optional[, constraints]",`; the sentence costs
    // `name (constraints), `.
    let saving = |c: &Common<'_>| {
        let said = c.constraints.len();
        let entry = c.name.len() + c.kind.as_str().len() + 16 + if said > 0 { said + 2 } else { 0 };
        let cost = c.name.len() + 2 + if said > 0 { said + 3 } else { 0 };
        (capabilities.len() * entry).saturating_sub(cost)
    };
    let mut by_saving: Vec<usize> = (0..candidates.len()).collect();
    by_saving.sort_by_key(|&i| std::cmp::Reverse(saving(&candidates[i])));
    let mut chosen: Vec<usize> = Vec::new();
    for i in by_saving {
        let mut trial = chosen.clone();
        trial.push(i);
        trial.sort_unstable();
        let params: Vec<Common<'_>> = trial.iter().map(|&i| candidates[i].clone()).collect();
        if described(description, &params).chars().count() <= SERVICE_DESCRIPTION_MAX {
            chosen = trial;
        }
    }
    let common: Vec<Common<'a>> = chosen.iter().map(|&i| candidates[i].clone()).collect();
    let saved: usize = common.iter().map(saving).sum();
    let cost = described(description, &common)
        .len()
        .saturating_sub(description.len());
    if saved > cost { common } else { Vec::new() }
}

/// `description`, then the sentence that names the `common` parameters by type, as a
/// declaration reads (`string a, b; array c (items string)`): a type is said once, not after
/// each name; a parameter's constraints follow its name in brackets.
pub fn described(description: &str, common: &[Common<'_>]) -> String {
    if common.is_empty() {
        return description.to_string();
    }
    let mut kinds: Vec<ParamType> = Vec::new();
    for c in common {
        if !kinds.contains(&c.kind) {
            kinds.push(c.kind);
        }
    }
    let groups: Vec<String> = kinds
        .iter()
        .map(|&kind| {
            let names: Vec<String> = common
                .iter()
                .filter(|c| c.kind == kind)
                .map(|c| {
                    if c.constraints.is_empty() {
                        c.name.to_string()
                    } else {
                        format!("{} ({})", c.name, c.constraints)
                    }
                })
                .collect();
            format!("{} {}", kind.as_str(), names.join(", "))
        })
        .collect();
    let text = description.trim_end();
    let stop = if text.is_empty() || text.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!("{text}{stop} {COMMON_LEAD} {}.", groups.join("; "))
        .trim_start()
        .to_string()
}

/// `returns` by name: the text before a field list (`customer {id, …}` → `customer`), else
/// its first sentence.
pub fn returns(text: &str) -> Cow<'_, str> {
    if text.chars().count() <= RETURNS_MAX {
        return Cow::Borrowed(text);
    }
    let head = text.split(" {").next().unwrap_or(text);
    Cow::Owned(first_sentence(head, RETURNS_MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentences_are_plain_and_short() {
        assert_eq!(
            first_sentence("<p>Retrieves a 3D Secure object.</p> More text.", 160),
            "Retrieves a 3D Secure object."
        );
        assert_eq!(
            first_sentence("Lists e.g. items. Then more.", 160),
            "Lists e.g. items."
        );
        assert_eq!(first_sentence("a < b &amp; c", 160), "a < b & c");
        assert_eq!(first_sentence("No stop at all", 160), "No stop at all");
        assert!(first_sentence(&"word ".repeat(100), 40).chars().count() <= 40);
        assert_eq!(first_sentence("Café… done. Next", 160), "Café… done.");
    }

    /// A service whose capabilities take `params` (one `[capabilities.params]` body each).
    fn service(params: &[&str]) -> crate::model::Service {
        let mut text = String::from(
            "[service]\nname = \"Shared\"\ndescription = \"A service.\"\n\
             base_url = \"https://shared.example.com\"\n\n[auth]\ntype = \"bearer\"\n",
        );
        for (i, p) in params.iter().enumerate() {
            text.push_str(&format!(
                "\n[[capabilities]]\nid = \"op{i}\"\ndescription = \"Operation {i}\"\n\
                 method = \"GET\"\npath = \"/things/{i}/{{id}}\"\n\n[capabilities.params]\n\
                 id = \"string, required -- the id\"\n{p}\n"
            ));
        }
        let raw = crate::source::parse_service_toml(&text).unwrap();
        let mut diags = crate::diag::Diagnostics::default();
        crate::model::lower(raw, &mut diags).unwrap()
    }

    fn names(service: &crate::model::Service, description: &str) -> Vec<String> {
        let caps: Vec<_> = service.capabilities.iter().collect();
        common(&caps, description, &service.schemas)
            .iter()
            .map(|c| format!("{} ({})", c.name, c.kind.as_str()))
            .collect()
    }

    #[test]
    fn optional_parameters_every_capability_takes_are_common() {
        let shared = "token = \"string, optional\"\npretty = \"boolean, optional\"";
        let s = service(&[shared; 4]);
        assert_eq!(
            names(&s, "A service."),
            ["token (string)", "pretty (boolean)"]
        );
        let caps: Vec<_> = s.capabilities.iter().collect();
        assert_eq!(
            described("A service", &common(&caps, "", &Schemas::default())),
            "A service. Every capability also takes optional parameters: string token; boolean pretty."
        );
        // Three capabilities share too little for the sentence to pay.
        assert!(names(&service(&[shared; 3]), "").is_empty());
    }

    #[test]
    fn a_parameter_one_capability_lacks_or_requires_is_not_common() {
        let shared = "token = \"string, optional\"\nlimit = \"integer, optional\"";
        let lacks = "limit = \"integer, optional\"";
        assert_eq!(
            names(&service(&[shared, shared, shared, shared, lacks]), ""),
            ["limit (integer)"]
        );
        let required = "token = \"string, required\"\nlimit = \"integer, optional\"";
        assert_eq!(
            names(&service(&[shared, shared, shared, required]), ""),
            ["limit (integer)"]
        );
        let other_type = "token = \"integer, optional\"\nlimit = \"integer, optional\"";
        assert_eq!(
            names(&service(&[shared, shared, shared, other_type]), ""),
            ["limit (integer)"]
        );
        // The required `id` every capability takes is never common.
        assert!(
            !names(&service(&[shared; 4]), "")
                .iter()
                .any(|n| n.starts_with("id "))
        );
    }

    #[test]
    fn common_parameters_fit_the_drafts_300_characters() {
        let many: String = (0..40)
            .map(|i| format!("parameter_with_a_long_name_{i} = \"string, optional\"\n"))
            .collect();
        let s = service(&[many.as_str(); 4]);
        let caps: Vec<_> = s.capabilities.iter().collect();
        for description in ["", "A service.", &"word ".repeat(30)] {
            let common = common(&caps, description, &Schemas::default());
            assert!(!common.is_empty());
            let text = described(description, &common);
            assert!(text.chars().count() <= SERVICE_DESCRIPTION_MAX, "{text}");
        }
        // No room at all: nothing is common.
        assert!(common(&caps, &"x".repeat(290), &Schemas::default()).is_empty());
    }

    #[test]
    fn returns_keep_their_name() {
        let long = format!("customer {{{}}}", "field, ".repeat(30));
        assert_eq!(returns(&long), "customer");
        assert_eq!(returns("short {a, b}"), "short {a, b}");
    }
}
