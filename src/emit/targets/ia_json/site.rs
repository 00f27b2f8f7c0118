//! The `site` and `metadata` sections, with the format checks the schema asserts (`email`,
//! `uri`, `date-time`) re-done here so a value the model let through never yields an invalid file.

use super::SPEC_VERSION;
use super::view::{Metadata, Site};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::Service;

pub fn site<'a>(service: &'a Service, diags: &mut Diagnostics) -> Site<'a> {
    let contact = service.contact.email.as_deref().filter(|e| {
        let ok = is_addr_spec(e);
        if !ok {
            diags.push(
                Diagnostic::new(
                    Code::IajsonEmail,
                    format!("`{e}` is not a plain email address (ia.json checks `format: email`)"),
                )
                .at("service.contact.email")
                .help("write just `name@example.com`: no display name, no quoted parts"),
            );
        }
        ok
    });
    uri("service.base_url", service.base_url.as_str(), diags);
    Site {
        name: &service.name,
        description: Some(service.description.as_str()),
        kind: service.site_type.as_str(),
        url: service.site_url.as_str(),
        logo: service.links.logo.as_deref(),
        currency: service.currency.as_deref(),
        // ia.json has one language: the first the author lists is the main one.
        language: service
            .languages
            .as_deref()
            .and_then(|l| l.first())
            .map(|l| l.as_str()),
        timezone: service.timezone.as_deref(),
        contact,
    }
}

pub fn metadata<'a>(service: &'a Service, diags: &mut Diagnostics) -> Option<Metadata<'a>> {
    // Lowering checked that the date exists.
    let updated = service.meta.last_updated.as_ref().map(|d| d.rfc3339());
    let links = &service.links;
    Some(Metadata {
        updated,
        spec_version: SPEC_VERSION,
        generator: "wellgen",
        docs_url: links
            .docs
            .as_deref()
            .filter(|u| uri("service.docs_url", u, diags)),
        support_url: links
            .support
            .as_deref()
            .filter(|u| uri("service.support_url", u, diags)),
    })
}

/// An RFC 5322 addr-spec in its plain dot-atom form, which every `format: email` checker accepts.
pub fn is_addr_spec(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    let dot_atom = |p: &str, ok: &dyn Fn(char) -> bool| {
        !p.is_empty() && p.split('.').all(|a| !a.is_empty() && a.chars().all(ok))
    };
    let label = |c: char| c.is_ascii_alphanumeric() || c == '-';
    dot_atom(local, &atext)
        && dot_atom(domain, &label)
        && domain.contains('.')
        && domain
            .split('.')
            .all(|l| !l.starts_with('-') && !l.ends_with('-'))
}

/// Pushes an error unless `url` uses only characters a URI may hold (RFC 3986), so that
/// `format: uri` holds; returns whether it does.
fn uri(field: &str, url: &str, diags: &mut Diagnostics) -> bool {
    let bad = url
        .chars()
        .find(|c| !c.is_ascii_graphic() || "\"<>\\^`{|}".contains(*c));
    if let Some(c) = bad {
        diags.push(
            Diagnostic::new(
                Code::IajsonUri,
                format!("`{c}` may not appear in a URI (ia.json checks `format: uri`)"),
            )
            .at(field)
            .help("percent-encode it"),
        );
    }
    bad.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_only() {
        assert!(is_addr_spec("api@example.com") && is_addr_spec("first.last+tag@mail.example.io"));
        for bad in [
            "a..b@x.io",
            ".a@x.io",
            "a@x",
            "a@-x.io",
            "A <a@x.io>",
            "a@x..io",
            "@x.io",
        ] {
            assert!(!is_addr_spec(bad), "{bad}");
        }
    }
}
