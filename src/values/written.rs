//! Typed values the model holds instead of checked strings: an e-mail address, a language tag,
//! the `[meta] last_updated` date. Each parses with `FromStr`, keeps the author's text exactly as
//! written (that is what every target publishes), and reads as that `str` (`Deref`, `Display`,
//! `Serialize`).

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

/// The text-as-written accessors every value here shares.
macro_rules! as_written {
    ($ty:ident) => {
        impl $ty {
            pub fn as_str(&self) -> &str {
                &self.text
            }
        }

        impl Deref for $ty {
            type Target = str;
            fn deref(&self) -> &str {
                &self.text
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.text)
            }
        }

        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.text)
            }
        }
    };
}

/// A contact e-mail address: `local@domain.tld`, one `@`, a dotted domain, no white space and
/// none of `<>,;` (so no display name or list).
///
/// Why not a crate: this is deliberately a plausibility check, not RFC 5322. `email_address`
/// accepts what this refuses (`ops@localhost`, quoted local parts with spaces) and refuses what
/// this accepts (`a..b@x.io`); ia.json's stricter dot-atom rule is that target's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    text: String,
}

as_written!(Email);

impl FromStr for Email {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let plausible = s.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        }) && !s
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '<' | '>' | ',' | ';'));
        if plausible {
            Ok(Self { text: s.into() })
        } else {
            Err(format!("`{s}` is not an email address"))
        }
    }
}

/// A language as aiendpoint and ia.json accept it: a two-letter ISO 639-1 language in lower
/// case, optionally a hyphen and a two-letter ISO 3166 region in upper case (`en`, `pt-BR`).
///
/// Why not a crate: BCP 47 parsers (`oxilangtag`, `language-tags`) accept far more (`zh-Hant-TW`,
/// `x-klingon`, any case) than these targets do; this shape is the whole rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageTag {
    text: String,
}

as_written!(LanguageTag);

impl FromStr for LanguageTag {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (language, region) = s.split_once('-').unwrap_or((s, "AA"));
        let two =
            |part: &str, case: fn(&u8) -> bool| part.len() == 2 && part.bytes().all(|b| case(&b));
        if two(language, u8::is_ascii_lowercase) && two(region, u8::is_ascii_uppercase) {
            Ok(Self { text: s.into() })
        } else {
            Err(format!(
                "`{s}` is not a language tag of the form `en` or `pt-BR`"
            ))
        }
    }
}

/// `[meta] last_updated`: a day on the calendar (`YYYY-MM-DD`), or a UTC date and time of day
/// (`YYYY-MM-DDThh:mm:ssZ`), checked to exist (no 30 February, no 24:00:00, no leap second).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaDate {
    text: String,
}

as_written!(MetaDate);

impl MetaDate {
    /// As an RFC 3339 UTC date-time: a bare date is midnight (`2026-03-10T00:00:00Z`).
    pub fn rfc3339(&self) -> String {
        if self.text.len() == 10 {
            format!("{}T00:00:00Z", self.text)
        } else {
            self.text.clone()
        }
    }
}

impl FromStr for MetaDate {
    type Err = String;

    /// The shape is checked here, byte by byte, because jiff's parsers accept more than the
    /// targets publish (offsets, fractions, a lowercase `t`); jiff then decides whether the
    /// day and time exist.
    fn from_str(s: &str) -> Result<Self, String> {
        let b = s.as_bytes();
        let at = |i: usize, c: u8| b.get(i) == Some(&c);
        let digits = |r: std::ops::Range<usize>| {
            b.get(r.clone())
                .filter(|d| d.iter().all(u8::is_ascii_digit))
                .map(|_| s[r].parse::<i16>().unwrap_or_default())
        };
        let shape =
            || format!("`{s}` is not a date of the form YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ");
        let (Some(year), true, Some(month), true, Some(day)) = (
            digits(0..4),
            at(4, b'-'),
            digits(5..7),
            at(7, b'-'),
            digits(8..10),
        ) else {
            return Err(shape());
        };
        let time = match b.len() {
            10 => (0, 0, 0),
            20 if at(10, b'T') && at(13, b':') && at(16, b':') && at(19, b'Z') => {
                match (digits(11..13), digits(14..16), digits(17..19)) {
                    (Some(h), Some(m), Some(s)) => (h, m, s),
                    _ => return Err(shape()),
                }
            }
            _ => return Err(shape()),
        };
        // Two digits each: the casts cannot truncate.
        jiff::civil::Date::new(year, month as i8, day as i8).map_err(|_| {
            let why = match jiff::civil::Date::new(year, month as i8, 1) {
                Ok(first) => format!(
                    "{} {year:04} has {} days",
                    first.strftime("%B"),
                    first.days_in_month()
                ),
                Err(_) => format!("there is no month {month:02}"),
            };
            format!("`{s}` is not a calendar date: {why}")
        })?;
        let (h, m, sec) = time;
        jiff::civil::Time::new(h as i8, m as i8, sec as i8, 0).map_err(|_| {
            format!("`{s}` is not a calendar date: {h:02}:{m:02}:{sec:02} is not a time of day")
        })?;
        Ok(Self { text: s.into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_as_lowering_always_took_them() {
        for ok in [
            "ops@example.com",
            "first.last+tag@mail.example.io",
            "a..b@x.io",
            "jos\u{e9}@x.io",
            "\"q\"@x.io",
        ] {
            let e: Email = ok.parse().unwrap();
            assert_eq!(e.as_str(), ok);
        }
        for bad in [
            "ops@example",
            "a b@x.io",
            "@x.io",
            "a@.x.io",
            "a@x.io.",
            "a@b@x.io",
            "A <a@x.io>",
            "a,b@x.io",
            "a;b@x.io",
            "a\t@x.io",
            "a@x.io\n",
        ] {
            assert_eq!(
                bad.parse::<Email>().unwrap_err(),
                format!("`{bad}` is not an email address")
            );
        }
    }

    #[test]
    fn language_tags_are_a_language_and_an_optional_region() {
        for ok in ["en", "en-US", "pt-BR"] {
            assert_eq!(ok.parse::<LanguageTag>().unwrap().as_str(), ok);
        }
        // Valid BCP 47, but not what aiendpoint and ia.json take.
        for bad in [
            "zh-Hant-TW",
            "x-klingon",
            "EN",
            "En",
            "en-us",
            "eng",
            "en-USA",
            "en-419",
            "en_US",
            "e1",
            "",
            "en-",
            "-US",
        ] {
            assert!(bad.parse::<LanguageTag>().is_err(), "{bad}");
        }
    }

    #[test]
    fn dates_must_exist() {
        for (ok, rfc3339) in [
            ("2024-02-29", "2024-02-29T00:00:00Z"),
            ("2026-03-10T09:00:00Z", "2026-03-10T09:00:00Z"),
            ("2026-12-31T23:59:59Z", "2026-12-31T23:59:59Z"),
            ("0000-01-01", "0000-01-01T00:00:00Z"),
            ("9999-12-31", "9999-12-31T00:00:00Z"),
        ] {
            let d: MetaDate = ok.parse().unwrap();
            assert_eq!((d.as_str(), d.rfc3339().as_str()), (ok, rfc3339));
        }
        for (bad, why) in [
            ("2023-02-29", "February 2023 has 28 days"),
            ("2026-02-30", "February 2026 has 28 days"),
            ("2026-04-31", "April 2026 has 30 days"),
            ("2026-03-00", "March 2026 has 31 days"),
            ("2026-13-01", "there is no month 13"),
            ("2026-00-10", "there is no month 00"),
            ("2026-03-10T24:00:00Z", "24:00:00 is not a time of day"),
            ("2026-03-10T23:60:00Z", "23:60:00 is not a time of day"),
            ("2026-12-31T23:59:60Z", "23:59:60 is not a time of day"),
        ] {
            assert_eq!(
                bad.parse::<MetaDate>().unwrap_err(),
                format!("`{bad}` is not a calendar date: {why}")
            );
        }
        // Dates jiff would read, in shapes the targets do not publish.
        for bad in [
            "2026-3-10",
            "+2026-03-10",
            "2026-03-10t09:00:00z",
            "2026-03-10T09:00:00+01:00",
            "2026-03-10 09:00:00Z",
            "2026-03-10T09:00Z",
            "2026-03-10T09:00:00.5Z",
            "20260310",
            "\u{ff12}\u{ff10}\u{ff12}\u{ff16}-03-10",
            "2026-03-10T",
            "",
        ] {
            assert!(
                bad.parse::<MetaDate>()
                    .unwrap_err()
                    .ends_with("is not a date of the form YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ"),
                "{bad}"
            );
        }
    }

    #[test]
    fn values_publish_as_written() {
        let e: Email = "ops@example.com".parse().unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), "\"ops@example.com\"");
        let l: Vec<LanguageTag> = vec!["en".parse().unwrap(), "pt-BR".parse().unwrap()];
        assert_eq!(serde_json::to_string(&l).unwrap(), "[\"en\",\"pt-BR\"]");
        let d: MetaDate = "2026-03-10".parse().unwrap();
        assert_eq!((&*d, d.to_string().as_str()), ("2026-03-10", "2026-03-10"));
    }
}
