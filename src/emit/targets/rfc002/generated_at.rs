//! `generatedAt` without a clock: `meta.last_updated`, else `SOURCE_DATE_EPOCH`, else a fixed
//! date, so two builds of the same source give the same bytes.

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::model::MetaDate;

/// Used when neither the source nor the environment gives a date; said in a warning.
pub const FALLBACK: &str = "1970-01-01T00:00:00Z";

/// RFC 3339 UTC. `epoch` is the value of `SOURCE_DATE_EPOCH`, passed in so this stays testable.
pub fn generated_at(
    last_updated: Option<&MetaDate>,
    epoch: Option<&str>,
    diags: &mut Diagnostics,
) -> String {
    if let Some(d) = last_updated {
        return d.rfc3339();
    }
    match epoch.map(|e| e.trim().parse::<u64>()) {
        Some(Ok(secs)) => match rfc3339(secs) {
            Some(t) => return t,
            None => diags.push(Diagnostic::new(
                Code::EpochInvalid,
                format!("SOURCE_DATE_EPOCH={secs} is past the year 9999; ignoring it"),
            )),
        },
        Some(Err(_)) => diags.push(Diagnostic::new(
            Code::EpochInvalid,
            format!(
                "SOURCE_DATE_EPOCH=`{}` is not a count of seconds; ignoring it",
                epoch.unwrap_or_default()
            ),
        )),
        None => {}
    }
    diags.push(
        Diagnostic::new(Code::Rfc002Defaulted, format!(
            "no date for /api/discovery's generatedAt: writing the fixed {FALLBACK} so builds stay reproducible"
        ))
        .help("set `[meta] last_updated = 2026-01-31`, or SOURCE_DATE_EPOCH in the build environment"),
    );
    FALLBACK.to_string()
}

/// Seconds since 1970 as `YYYY-MM-DDThh:mm:ssZ`; `None` past the year 9999.
pub fn rfc3339(secs: u64) -> Option<String> {
    let at = jiff::Timestamp::from_second(i64::try_from(secs).ok()?).ok()?;
    Some(at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> MetaDate {
        text.parse().unwrap()
    }

    #[test]
    fn epoch_seconds_render_as_utc() {
        assert_eq!(rfc3339(0).unwrap(), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400).unwrap(), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_767_225_599).unwrap(), "2025-12-31T23:59:59Z");
        assert_eq!(rfc3339(1_709_210_096).unwrap(), "2024-02-29T12:34:56Z");
        assert_eq!(rfc3339(u64::MAX), None);
    }

    #[test]
    fn the_source_date_wins_then_the_environment_then_the_fallback() {
        let mut d = Diagnostics::default();
        assert_eq!(
            generated_at(Some(&date("2026-03-10")), Some("0"), &mut d),
            "2026-03-10T00:00:00Z"
        );
        assert_eq!(
            generated_at(Some(&date("2026-03-10T08:00:00Z")), None, &mut d),
            "2026-03-10T08:00:00Z"
        );
        assert_eq!(
            generated_at(Some(&date("2024-02-29")), None, &mut d),
            "2024-02-29T00:00:00Z"
        );
        assert_eq!(
            generated_at(Some(&date("1999-12-31T23:59:59Z")), Some("0"), &mut d),
            "1999-12-31T23:59:59Z"
        );
        assert_eq!(
            generated_at(None, Some(" 1700000000\n"), &mut d),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(
            generated_at(None, Some("1700000000"), &mut d),
            "2023-11-14T22:13:20Z"
        );
        assert!(d.is_empty());
        assert_eq!(generated_at(None, None, &mut d), FALLBACK);
        // The fallback is a note (a value filled in); an unusable SOURCE_DATE_EPOCH a warning.
        assert_eq!((d.warning_count(), d.note_count()), (0, 1));
        assert_eq!(generated_at(None, Some("yesterday"), &mut d), FALLBACK);
        assert_eq!((d.warning_count(), d.note_count()), (1, 2));
    }
}
