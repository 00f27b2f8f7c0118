//! `wellgen targets` and the README's table (a test keeps the two equal), both read from the
//! targets' descriptors, so they cannot drift from what is emitted. An opt-in target is marked
//! so in both.

use std::fmt::Write as _;

use super::Target;
use super::targets::{Descriptor, Document};

fn paths(d: &Descriptor) -> Vec<String> {
    d.documents.iter().map(|doc| doc.display_path()).collect()
}

/// Each distinct value of one document field, in document order.
fn distinct(d: &Descriptor, field: impl Fn(&Document) -> &'static str) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for doc in d.documents {
        let value = field(doc);
        if !seen.contains(&value) {
            seen.push(value);
        }
    }
    seen.join(", ")
}

fn media_types(d: &Descriptor) -> String {
    // What hosts send, as `wellgen serve` does: not always the type the target declares.
    distinct(d, Document::served_content_type)
}

fn cache(d: &Descriptor) -> String {
    distinct(d, |doc| doc.serving.cache_control)
}

/// The README's targets table.
pub fn markdown() -> String {
    let mut out = String::from(
        "| target (`--target`) | paths | media type | Cache-Control | spec | spec status |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for t in Target::ALL {
        let d = t.descriptor();
        let paths: Vec<String> = paths(d).iter().map(|p| format!("`{p}`")).collect();
        let opt_in = if d.opt_in.is_some() { " (opt-in)" } else { "" };
        let _ = writeln!(
            out,
            "| `{}`{opt_in} | {} | `{}` | `{}` | {} | {} |",
            d.name,
            paths.join(", "),
            media_types(d),
            cache(d),
            d.spec,
            d.status
        );
    }
    out
}

/// The plain listing `wellgen targets` prints.
pub fn text() -> String {
    let mut out = String::new();
    for t in Target::ALL {
        let d = t.descriptor();
        let _ = writeln!(out, "{}", d.name);
        let _ = writeln!(out, "  paths:         {}", paths(d).join(", "));
        let _ = writeln!(out, "  media type:    {}", media_types(d));
        let _ = writeln!(out, "  cache-control: {}", cache(d));
        let _ = writeln!(out, "  spec:          {}", d.spec);
        let _ = writeln!(out, "  status:        {}", d.status);
        let _ = match d.opt_in {
            None => writeln!(out, "  built:         by default"),
            Some(how) => writeln!(out, "  built:         when asked for: {how}"),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_a_row_per_target() {
        assert_eq!(markdown().lines().count(), Target::ALL.len() + 2);
    }
}
