//! wellgen's marked section inside a host file the user may also edit (`_headers`,
//! `_redirects`): replaced in place on each build, everything around it kept.

pub const BEGIN: &str = "# BEGIN wellgen";
pub const END: &str = "# END wellgen";

/// Where a new section goes in a file that has none yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// At the end of the file.
    Append,
    /// At the start of the file.
    Prepend,
}

/// Puts `section` into `existing`, keeping everything else. Errors when the user's part already
/// has a rule for a path the section covers: the host would apply only one of them.
pub fn merge(existing: &str, section: &str, placement: Placement) -> Result<String, String> {
    // Two sections cannot both be wellgen's: replacing one would leave the other, and the text
    // between them (the site's own rules) would be taken for wellgen's.
    if existing.matches(BEGIN).count() > 1 || existing.matches(END).count() > 1 {
        return Err(format!(
            "it has more than one `{BEGIN}` / `{END}` section; keep one (or none) and remove \
             the other markers"
        ));
    }
    let (before, after, had_section) = match (existing.find(BEGIN), existing.find(END)) {
        (Some(b), Some(e)) if b < e => {
            let end_line = existing[e..]
                .find('\n')
                .map_or(existing.len(), |i| e + i + 1);
            (&existing[..b], &existing[end_line..], true)
        }
        (None, None) => match placement {
            Placement::Append => (existing, "", false),
            Placement::Prepend => ("", existing, false),
        },
        _ => return Err("its `# BEGIN wellgen` / `# END wellgen` markers are damaged".into()),
    };
    let ours: Vec<&str> = rule_paths(section).collect();
    if let Some(p) = rule_paths(before)
        .chain(rule_paths(after))
        .find(|p| ours.contains(p))
    {
        return Err(format!(
            "it already has a rule for `{p}` outside wellgen's section; remove it so the host \
             applies wellgen's"
        ));
    }
    let mut out = before.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !had_section && !out.is_empty() && !section.is_empty() {
        out.push('\n');
    }
    out.push_str(section);
    if !had_section && !after.is_empty() && !section.is_empty() {
        out.push('\n');
    }
    out.push_str(after);
    Ok(out)
}

/// The path each rule starts with: the first word of an unindented, non-comment line. A
/// robots.txt record (`Allow: /x`) starts with its field, not a path: groups naming the same
/// agent combine, so robots.txt has no rule of one path to clash with.
fn rule_paths(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with([' ', '\t', '#']))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| !w.ends_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECTION: &str = "# BEGIN wellgen\n/.well-known/ai\n  Cache-Control: x\n# END wellgen\n";

    #[test]
    fn append_keeps_the_users_rules_and_replaces_in_place() {
        let user = "/*\n  X-Frame-Options: DENY\n";
        let merged = merge(user, SECTION, Placement::Append).unwrap();
        assert_eq!(merged, format!("{user}\n{SECTION}"));
        let newer = SECTION.replace("x\n", "y\n");
        let again = merge(&merged, &newer, Placement::Append).unwrap();
        assert_eq!(again, format!("{user}\n{newer}"));
        let sandwiched = format!("/a\n  A: 1\n{SECTION}/b\n  B: 2\n");
        assert_eq!(
            merge(&sandwiched, SECTION, Placement::Append).unwrap(),
            sandwiched
        );
    }

    #[test]
    fn prepend_puts_our_rules_before_the_users_catch_all() {
        let ours =
            "# BEGIN wellgen\n/api/discovery format=openapi /openapi.json 200!\n# END wellgen\n";
        let user = "/*  /index.html  200\n";
        let merged = merge(user, ours, Placement::Prepend).unwrap();
        assert_eq!(merged, format!("{ours}\n{user}"));
        assert_eq!(merge(&merged, ours, Placement::Prepend).unwrap(), merged);
    }

    #[test]
    fn removing_the_section_leaves_the_users_part() {
        let user = "/*\n  X-Frame-Options: DENY\n";
        let merged = merge(user, SECTION, Placement::Append).unwrap();
        assert_eq!(
            merge(&merged, "", Placement::Append).unwrap().trim_end(),
            user.trim_end()
        );
    }

    #[test]
    fn refuses_a_second_rule_for_our_path_and_broken_markers() {
        let user = "/.well-known/ai\n  Cache-Control: no-store\n";
        let err = merge(user, SECTION, Placement::Append).unwrap_err();
        assert!(err.contains("`/.well-known/ai`"), "{err}");
        let err = merge(
            "# END wellgen\n# BEGIN wellgen\n",
            SECTION,
            Placement::Append,
        )
        .unwrap_err();
        assert!(err.contains("damaged"), "{err}");
    }

    #[test]
    fn refuses_a_file_with_two_sections() {
        let doubled = format!("{SECTION}/y\n  Y: 1\n{SECTION}");
        let err = merge(&doubled, SECTION, Placement::Append).unwrap_err();
        assert!(err.contains("more than one"), "{err}");
        let err = merge(&doubled, "", Placement::Append).unwrap_err();
        assert!(err.contains("more than one"), "{err}");
        let two_ends = format!("{SECTION}# END wellgen\n");
        assert!(merge(&two_ends, SECTION, Placement::Append).is_err());
    }
}
