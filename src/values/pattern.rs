//! Regular expressions of schemas (`pattern`, ECMA-262): whether a string matches, and a short,
//! plain string that does, for example values.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Whether `pattern` (ECMA-262, read by fancy-regex) matches `s`. A pattern that cannot be read
/// or run is no proof: the value is not claimed valid.
pub fn matches(pattern: &str, s: &str) -> bool {
    fancy_regex::RegexBuilder::new(pattern)
        .backtrack_limit(100_000)
        .build()
        .ok()
        .and_then(|re| re.is_match(s).ok())
        == Some(true)
}

/// A string `pattern` matches, of `min..=max` characters: made from the first branch of each
/// alternation, a lower-case letter (else a digit, else a capital) of each class where it has
/// one, and each repetition as few times as it allows, then more (1, 2, 4, … times, within its
/// bounds) until the string is long enough; checked against the pattern itself. `None` for a
/// pattern the parser does not read (look-around, back-references), or where no such string is
/// `SAMPLE_MAX` characters or fewer.
pub fn sample(pattern: &str, min: usize, max: Option<usize>) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(64)
        .build()
        .parse(pattern)
        .ok()?;
    let max = max.unwrap_or(SAMPLE_MAX).min(SAMPLE_MAX);
    for times in [0, 1, 2, 4, 8, 16, 32, 64] {
        let mut out = String::new();
        write(&hir, times, &mut out)?;
        let length = out.chars().count();
        if length > max {
            return None;
        }
        if length >= min {
            return matches(pattern, &out).then_some(out);
        }
    }
    None
}

/// The longest string `sample` makes.
const SAMPLE_MAX: usize = 256;

/// `hir`'s string with each repetition made `times` times, within its bounds.
fn write(hir: &Hir, times: u32, out: &mut String) -> Option<()> {
    if out.len() > 4 * SAMPLE_MAX {
        return None;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(l) => out.push_str(std::str::from_utf8(&l.0).ok()?),
        HirKind::Class(c) => out.push(class_char(c)?),
        HirKind::Repetition(r) => {
            let n = times.max(r.min).min(r.max.unwrap_or(u32::MAX));
            for _ in 0..n {
                let before = out.len();
                write(&r.sub, times, out)?;
                // What writes nothing once writes nothing every time: `(a{0}){4000000000}`.
                if out.len() == before {
                    break;
                }
            }
        }
        HirKind::Capture(c) => write(&c.sub, times, out)?,
        HirKind::Concat(parts) => {
            for p in parts {
                write(p, times, out)?;
            }
        }
        HirKind::Alternation(branches) => write(branches.first()?, times, out)?,
    }
    Some(())
}

/// A lower-case letter, else a digit, else a capital, else the first printable character the
/// class holds.
fn class_char(class: &Class) -> Option<char> {
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .filter(|r| r.start().is_ascii())
            .map(|r| (char::from(r.start()), char::from(r.end().min(0x7f))))
            .collect(),
    };
    let within = |lo: char, hi: char| {
        ranges
            .iter()
            .find(|(s, e)| *s <= hi && *e >= lo)
            .map(|(s, _)| (*s).max(lo))
    };
    within('a', 'z')
        .or_else(|| within('0', '9'))
        .or_else(|| within('A', 'Z'))
        .or_else(|| {
            ranges
                .iter()
                .flat_map(|(s, e)| (*s..=*e).take(256))
                .find(|c| !c.is_control() && !c.is_whitespace())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_match_their_patterns() {
        for (pattern, expected) in [
            ("^i-[a-f0-9]{8,17}$", "i-aaaaaaaa"),
            ("^[A-Z]{2}\\d{3}$", "AA000"),
            ("^(abc|xyz)+-v[0-9]*$", "abc-v"),
            (
                "^arn:aws:forecast:[a-z0-9-]+:\\d{12}:.+$",
                "arn:aws:forecast:a:000000000000:a",
            ),
            ("^/subscriptions/[^/]+$", "/subscriptions/a"),
            ("\\w+@\\w+\\.com", "a@a.com"),
        ] {
            assert_eq!(
                sample(pattern, 0, None).as_deref(),
                Some(expected),
                "{pattern}"
            );
        }
        // Repetitions grow to the length asked for, and no further than they may.
        assert_eq!(
            sample("^i-[a-f0-9]+$", 10, Some(32)).as_deref(),
            Some("i-aaaaaaaa")
        );
        assert_eq!(sample("^[a-z]{2,3}$", 4, None), None);
        assert_eq!(sample("^x[0-9]*$", 0, Some(0)), None);
    }

    #[test]
    fn patterns_it_cannot_read_or_fill_give_nothing() {
        assert_eq!(sample("^(?!x)a$", 0, None), None, "look-around");
        assert_eq!(sample("^(a)\\1$", 0, None), None, "a back-reference");
        assert_eq!(sample("^a{300}$", 0, None), None, "too long");
        assert_eq!(sample("[z-a]", 0, None), None, "not a pattern");
        // Repetitions of nothing end at once, however many they ask for.
        assert_eq!(
            sample("^((a{0}){4000000000}){4000000000}b$", 0, None).as_deref(),
            Some("b")
        );
    }
}
