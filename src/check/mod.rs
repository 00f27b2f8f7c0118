//! Publication checks on the whole model, before any back end runs: discovery documents are
//! public and read by LLM agents, so nothing secret, hidden or local may reach them.

mod secrets;
mod strings;
mod text;

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::Service;
use strings::Use;

/// What the user has reviewed and allowed.
#[derive(Debug, Default, Clone)]
pub struct Policy {
    /// Fields (source field paths, e.g. `capabilities.0.example.request.token`) whose
    /// secret-like value is a reviewed false positive.
    pub allow_secret_like: Vec<String>,
    /// Allow localhost and private-network addresses (for staging builds).
    pub allow_local: bool,
}

pub fn run(service: &Service, policy: &Policy, diags: &mut Diagnostics) {
    for item in strings::collect(service) {
        if let Some(kind) = secrets::find(item.text)
            && !policy.allow_secret_like.iter().any(|f| f == &item.field)
        {
            diags.push(
                Diagnostic::error(format!(
                    "looks like a credential ({kind}): {}; discovery documents are public",
                    secrets::mask(item.text)
                ))
                .at(&item.field)
                .help(format!(
                    "remove it; if it is not a secret, pass `--allow-secret-like {}`",
                    item.field
                )),
            );
        }
        if let Some((c, name)) = text::hidden_char(item.text) {
            diags.push(
                Diagnostic::error(format!(
                    "contains an invisible character U+{:04X} ({name}) that can hide text from \
                     reviewers but not from agents",
                    c as u32
                ))
                .at(&item.field)
                .help("delete it; retype the text if you cannot see where it is"),
            );
        }
        match item.usage {
            Use::AgentText => {
                if let Some(phrase) = text::injection(item.text) {
                    diags.push(
                        Diagnostic::warning(format!(
                            "reads like an instruction to the agent (`{phrase}`): agents treat \
                             this text as data, and some will flag the service"
                        ))
                        .at(&item.field)
                        .help("describe what the service does, not how the agent should behave"),
                    );
                }
            }
            Use::Url => {
                if !policy.allow_local
                    && let Some(host) = text::local_host(item.text)
                {
                    diags.push(
                        Diagnostic::error(format!(
                            "`{host}` is a local or private address; agents cannot reach it"
                        ))
                        .at(&item.field)
                        .help("use the public URL, or pass `--allow-local` for a staging build"),
                    );
                }
            }
            Use::Plain => {}
        }
    }
}
