//! Small text helpers shared by front and back ends.

/// Folds white space, line breaks included, into single spaces.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` on one line and at most `max` characters, cut at a word boundary with `…` when
/// longer; the flag says whether it was cut.
pub fn shorten(text: &str, max: usize) -> (String, bool) {
    let text = one_line(text);
    if text.chars().count() <= max {
        return (text, false);
    }
    let keep: String = text.chars().take(max - 1).collect();
    let cut = match keep.rfind(' ') {
        Some(i) if i > max / 2 => &keep[..i],
        _ => keep.as_str(),
    };
    let cut = cut.trim_end_matches(|c: char| c.is_whitespace() || ",;:.-".contains(c));
    (format!("{cut}…"), true)
}

/// Whether a regular expression avoids the syntax that JSON Schema's dialect (ECMA-262) lacks
/// but other engines accept: inline flags `(?i)`, Python's `(?P<name>` and `(?#comments)`,
/// and the anchors `\A`, `\Z`, `\z`. Validators reject schemas holding such patterns.
pub fn is_ecma_regex(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if matches!(chars.next(), Some('A' | 'Z' | 'z')) {
                    return false;
                }
            }
            '(' if chars.peek() == Some(&'?') => {
                chars.next();
                match chars.peek() {
                    Some(':' | '=' | '!' | '<') => {
                        // `(?<name>` and look-behind are ECMA-262; Python's `(?P<` is not.
                    }
                    _ => return false,
                }
            }
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecma_regexes_are_told_from_other_dialects() {
        for ok in [
            "^[a-z]+$",
            "(?:a|b)",
            "x(?=y)",
            "(?<year>\\d{4})",
            "(?<!a)b",
            "a\\.b",
        ] {
            assert!(is_ecma_regex(ok), "{ok}");
        }
        for bad in [
            "([^\\s]+(\\.(?i)(jpeg|pdf))$)",
            "(?P<x>a)",
            "\\Aabc\\z",
            "a(?#note)b",
            "(?s).*",
        ] {
            assert!(!is_ecma_regex(bad), "{bad}");
        }
    }

    #[test]
    fn shortening_cuts_at_a_word_and_says_so() {
        assert_eq!(shorten("short\n text", 20), ("short text".into(), false));
        let (s, cut) = shorten("one two three four five six", 15);
        assert!(cut && s.chars().count() <= 15, "{s}");
        assert_eq!(s, "one two three…");
    }
}
