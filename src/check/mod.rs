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

/// The longest agent-facing text (descriptions, intents, outcomes, instructions) accepted
/// without a warning, for fields the specs give no tighter bound.
pub const MAX_AGENT_TEXT: usize = 2000;

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
                let chars = item.text.chars().count();
                if chars > MAX_AGENT_TEXT {
                    diags.push(
                        Diagnostic::warning(format!(
                            "is {chars} characters long; text an agent reads stays under \
                             {MAX_AGENT_TEXT} here, as long text costs every agent tokens and can hide instructions"
                        ))
                        .at(&item.field)
                        .help("shorten it; put long documentation behind a link"),
                    );
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostics(extra: &str) -> Vec<String> {
        let text = format!(
            "[service]\nname = \"Long\"\ndescription = \"A service.\"\nbase_url = \"https://long.example.com\"\n\n\
             [auth]\ntype = \"none\"\n\n[[capabilities]]\nid = \"find\"\ndescription = \"Find things\"\n\
             method = \"GET\"\npath = \"/things\"\n{extra}"
        );
        let mut diags = Diagnostics::default();
        let raw = crate::source::parse_service_toml(&text).unwrap();
        let service = crate::model::lower(raw, &mut diags).unwrap();
        let mut found = Diagnostics::default();
        run(&service, &Policy::default(), &mut found);
        found.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn long_agent_text_is_a_warning() {
        let long = "word ".repeat(500);
        let found = diagnostics(&format!(
            "\n[capabilities.params]\nq = {{ type = \"string\", description = \"{long}\" }}\n"
        ));
        assert!(
            found.iter().any(|m| m.contains("2500 characters long")),
            "{found:?}"
        );
        assert!(diagnostics("").is_empty());
    }
}
