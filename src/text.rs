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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortening_cuts_at_a_word_and_says_so() {
        assert_eq!(shorten("short\n text", 20), ("short text".into(), false));
        let (s, cut) = shorten("one two three four five six", 15);
        assert!(cut && s.chars().count() <= 15, "{s}");
        assert_eq!(s, "one two three…");
    }
}
