//! The MCP side of each endpoint: the tool's name and what its hints read from the operation.
//!
//! A tool is named after its capability id, which says what the operation does (an imported id
//! is the operationId in snake_case). AGIS Appendix C's default, `METHOD_firstsegment`, names
//! every operation under a resource alike, so the first one took the name whatever it did
//! (`list_channels` for a list of a channel's invites); the AGIS document states the published
//! name as `mcp_tool_name` wherever it differs from that default.

use super::Endpoint;
use crate::model::{Capability, Method};

/// An endpoint's MCP tool name. `explicit` when it is not the Appendix C default, so the AGIS
/// document must carry it as `mcp_tool_name`; the other fields say what the MCP target reports.
pub struct ToolName {
    pub name: String,
    pub explicit: bool,
    /// A declared `mcp_tool_name` that breaks MCP's name rule or is not lowercase.
    pub invalid: bool,
    /// A declared `mcp_tool_name` an earlier capability already declared.
    pub declared_twice: bool,
    /// The capability id this endpoint would have been named, already declared as another
    /// capability's `mcp_tool_name`, so a number follows it.
    pub replaces: Option<String>,
}

/// MCP's tool-name rule (tools.mdx "Tool Names").
pub fn is_mcp_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Appendix C(a)'s name when `mcp_tool_name` is absent: the AGIS method and the first segment
/// of the AGIS path, lowercased (`BOOK /reservation` → `book_reservation`).
pub fn appendix_c_default(e: &Endpoint) -> String {
    let mut name: String = format!("{}_{}", e.method, e.entity()).to_lowercase();
    name.retain(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    name.truncate(128);
    name
}

/// `mcp_tool_name` when declared, else the capability id. Ids are unique and already valid
/// tool names (lowercase letters, digits and `_`, at most 64 characters); an id that another
/// capability declared as its `mcp_tool_name` takes `_2`, `_3`, … Declared names are reserved
/// first, so an id never takes one.
pub fn tool_names(endpoints: &[Endpoint]) -> Vec<ToolName> {
    // A set: a large API has thousands of names.
    let mut taken: foldhash::HashSet<String> = Default::default();
    let mut out: Vec<ToolName> = Vec::with_capacity(endpoints.len());
    for e in endpoints {
        let Some(n) = &e.capability.semantic.mcp_tool_name else {
            continue;
        };
        out.push(ToolName {
            name: n.clone(),
            explicit: true,
            invalid: !is_mcp_tool_name(n) || n.chars().any(|c| c.is_ascii_uppercase()),
            declared_twice: taken.contains(n),
            replaces: None,
        });
        taken.insert(n.clone());
    }
    // `out` holds the declared names in order; the others go in between them.
    let mut declared = std::mem::take(&mut out).into_iter();
    for e in endpoints {
        let c = e.capability;
        if c.semantic.mcp_tool_name.is_some() {
            out.extend(declared.next());
            continue;
        }
        let mut name = c.id.clone();
        let mut replaces = None;
        if taken.contains(&name) {
            let mut n = 2;
            while taken.contains(&name) {
                name = format!("{}_{n}", c.id);
                n += 1;
            }
            replaces = Some(c.id.clone());
        }
        taken.insert(name.clone());
        out.push(ToolName {
            explicit: name != appendix_c_default(e),
            name,
            invalid: false,
            declared_twice: false,
            replaces,
        });
    }
    out
}

/// Words that say an operation deletes, ends or takes back what it acts on, matched as the
/// start of a word (`deletes`, `removal`, `cancellation`).
const DESTROYING: &[&str] = &[
    "delet", "remov", "purg", "destroy", "revok", "revoc", "eras", "cancel", "wipe", "terminat",
    "void", "expunge", "truncat",
];

/// Whether a capability that is not a DELETE says it destroys something: a word of its id or
/// of its path's literal segments, or one of the first three words of its description (the
/// verb a description leads with: "Bulk delete messages", "Permanently removes …"). Then its
/// impact is irreversible and MCP calls it destructive.
pub fn destroys(c: &Capability) -> bool {
    if c.method == Method::Get {
        return false;
    }
    let path = c.path.braces();
    let literal = path.split('/').filter(|s| !s.starts_with('{'));
    let lead = c.description.split_whitespace().take(3);
    std::iter::once(c.id.as_str())
        .chain(literal)
        .chain(lead)
        .flat_map(words)
        .any(|w| DESTROYING.iter().any(|d| w.starts_with(d)))
}

/// The lowercase words of an id, a path segment or a word of prose (`bulkDelete`,
/// `bulk-delete`): its [`snake_case`](crate::text::snake_case) split at `_`.
fn words(text: &str) -> Vec<String> {
    crate::text::snake_case(text)
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Access, PathTemplate, Semantic};

    fn capability(id: &str, method: Method, path: &str, description: &str) -> Capability {
        Capability {
            index: 0,
            id: id.into(),
            description: description.into(),
            details: None,
            method,
            host: None,
            path: PathTemplate::parse(path).unwrap(),
            access: Access::Protected,
            scopes: vec![],
            params: vec![],
            returns: None,
            output_schema: None,
            deprecated: false,
            rate_limit: None,
            content_type: None,
            body_required: false,
            confirm: false,
            tags: vec![],
            example: None,
            errors: vec![],
            semantic: Semantic::default(),
        }
    }

    #[test]
    fn words_split_ids_paths_and_camel_case() {
        assert_eq!(
            words("bulk_delete_messages"),
            ["bulk", "delete", "messages"]
        );
        assert_eq!(words("bulk-delete"), ["bulk", "delete"]);
        assert_eq!(words("bulkDelete"), ["bulk", "delete"]);
        assert_eq!(words("Deletes,"), ["deletes"]);
        assert_eq!(words("v1"), ["v1"]);
        assert_eq!(words("HTTPDelete"), ["http", "delete"]);
    }

    /// Operations of the shared corpus (Discord, Stripe, Twilio, GitHub): what each says it does.
    #[test]
    fn writes_that_delete_or_end_something_are_destructive() {
        let post = Method::Post;
        for (id, method, path, description) in [
            // Discord's bulk-delete is a POST.
            (
                "bulk_delete_messages",
                post,
                "/channels/{channel_id}/messages/bulk-delete",
                "Bulk delete messages",
            ),
            // Stripe.
            (
                "post_payment_intents_intent_cancel",
                post,
                "/v1/payment_intents/{intent}/cancel",
                "Cancel a PaymentIntent",
            ),
            (
                "post_invoices_invoice_void",
                post,
                "/v1/invoices/{invoice}/void",
                "Void an invoice",
            ),
            // The description alone says it.
            (
                "update_key",
                Method::Put,
                "/keys/{id}",
                "Permanently revokes a key",
            ),
            (
                "remove_member",
                Method::Patch,
                "/teams/{id}",
                "Update a team",
            ),
        ] {
            let c = capability(id, method, path, description);
            assert!(destroys(&c), "{id}");
        }
        for (id, method, path, description) in [
            (
                "create_message",
                post,
                "/channels/{channel_id}/messages",
                "Create a message",
            ),
            // Stripe: the word comes late in the description, about something else.
            (
                "post_customers",
                post,
                "/v1/customers",
                "Creates a new customer object. Deleted customers are kept",
            ),
            (
                "create_address",
                post,
                "/2010-04-01/Accounts/{AccountSid}/Addresses.json",
                "Create an address",
            ),
            // A GET never destroys, whatever it is called.
            ("get_deleted_items", Method::Get, "/deleted", "Delete log"),
            // A path parameter is a value, not a word of the operation.
            (
                "update_thing",
                Method::Put,
                "/things/{remove_after}",
                "Update a thing",
            ),
        ] {
            let c = capability(id, method, path, description);
            assert!(!destroys(&c), "{id}");
        }
    }
}
