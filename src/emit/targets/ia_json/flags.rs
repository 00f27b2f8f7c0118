//! The `capabilities` flags and the `webhooks` events.
//!
//! Flags the model shows are derived (GET → read, POST/PUT/PATCH → write, DELETE → delete, a
//! search-like capability → search, declared events → webhooks); `[features]` overrides them and
//! adds the rest (checkout, real_time, `x_` custom flags). Only what is derived true or written
//! by the author appears: an absent flag claims nothing.

use indexmap::IndexMap;

use super::api::parameter;
use super::view::WebhookEvent;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::{Capability, Method, Service};

/// The standard flags, in the spec's order (§4.6): the same list lowering accepts.
const STANDARD: [&str; 9] = crate::model::FEATURES;

pub fn capabilities<'a>(
    service: &'a Service,
    diags: &mut Diagnostics,
) -> Option<IndexMap<&'a str, bool>> {
    let caps = &service.capabilities;
    let derived = |flag: &str| match flag {
        "read" => caps.iter().any(|c| c.method == Method::Get),
        "write" => caps
            .iter()
            .any(|c| matches!(c.method, Method::Post | Method::Put | Method::Patch)),
        "delete" => caps.iter().any(|c| c.method == Method::Delete),
        "search" => caps.iter().any(is_search),
        "webhooks" => !service.webhooks.is_empty(),
        _ => false,
    };
    let mut out = IndexMap::new();
    for flag in STANDARD {
        match service.features.get(flag) {
            Some(&set) => {
                out.insert(flag, set);
            }
            None if derived(flag) => {
                out.insert(flag, true);
            }
            None => {}
        }
    }
    for (flag, &set) in &service.features {
        if flag.starts_with("x_") {
            out.insert(flag.as_str(), set);
        }
    }
    check_claims(service, &out, diags);
    (!out.is_empty()).then_some(out)
}

/// A capability an agent would use to search: its id or description says so.
fn is_search(c: &Capability) -> bool {
    let words = [
        c.id.to_ascii_lowercase(),
        c.description.to_ascii_lowercase(),
    ];
    words
        .iter()
        .any(|w| w.contains("search") || w.contains("find"))
}

/// The upstream validator's warnings about flags that nothing backs up.
fn check_claims(service: &Service, flags: &IndexMap<&str, bool>, diags: &mut Diagnostics) {
    let checkout_like = |c: &Capability| {
        ["checkout", "order", "cart"]
            .iter()
            .any(|w| c.id.contains(w))
    };
    if flags.get("checkout") == Some(&true) && !service.capabilities.iter().any(checkout_like) {
        diags.push(
            Diagnostic::new(
                Code::IajsonFlag,
                "`checkout` is declared but no capability id mentions checkout, order or cart",
            )
            .at("features.checkout"),
        );
    }
    if flags.get("webhooks") == Some(&true) && service.webhooks.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::IajsonFlag,
                "`webhooks` is declared but no `[[webhooks]]` event is",
            )
            .at("features.webhooks")
            .help("describe each event in a `[[webhooks]]` table, or drop the flag"),
        );
    }
}

pub fn webhooks(service: &Service) -> Option<IndexMap<&str, WebhookEvent<'_>>> {
    let events: IndexMap<_, _> = service
        .webhooks
        .iter()
        .map(|w| {
            let event = WebhookEvent {
                description: &w.description,
                payload: w
                    .payload
                    .iter()
                    .map(|p| (p.name.as_str(), parameter(p)))
                    .collect(),
            };
            (w.name.as_str(), event)
        })
        .collect();
    (!events.is_empty()).then_some(events)
}
