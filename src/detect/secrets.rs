//! Credential shapes: well-known key formats and long high-entropy tokens.

/// Known prefixes, the characters that follow them, and how many at least.
const PREFIXES: &[(&str, &str, usize)] = &[
    ("sk_live_", "Stripe secret key", 16),
    ("rk_live_", "Stripe restricted key", 16),
    ("sk_test_", "Stripe test key", 16),
    ("sk-proj-", "OpenAI key", 20),
    ("sk-ant-", "Anthropic key", 20),
    ("ghp_", "GitHub token", 30),
    ("gho_", "GitHub token", 30),
    ("ghu_", "GitHub token", 30),
    ("ghs_", "GitHub token", 30),
    ("ghr_", "GitHub token", 30),
    ("github_pat_", "GitHub token", 30),
    ("glpat-", "GitLab token", 20),
    ("xoxa-", "Slack token", 10),
    ("xoxb-", "Slack token", 10),
    ("xoxp-", "Slack token", 10),
    ("xoxr-", "Slack token", 10),
    ("xoxs-", "Slack token", 10),
    // A refresh token of token rotation; its access tokens (`xoxe.xoxp-…`) are found by `xoxp-`.
    ("xoxe-", "Slack token", 10),
    ("AKIA", "AWS access key", 16),
    ("ASIA", "AWS access key", 16),
    ("AIza", "Google API key", 35),
    // `SG.` + 22 characters + `.` + 43 characters: checked as two parts, 16 and 30 at least.
    ("SG.", "SendGrid key", 16),
    // 34 letters of both cases.
    ("hf_", "Hugging Face token", 30),
    // 32 hexadecimal digits each: an Admin API access token, a shared secret, a custom app's
    // and a private app's access token.
    ("shpat_", "Shopify token", 32),
    ("shpss_", "Shopify token", 32),
    ("shpca_", "Shopify token", 32),
    ("shppa_", "Shopify token", 32),
    // `dapi` + 32 hexadecimal digits (and `-2` and such after them).
    ("dapi", "Databricks token", 32),
    // A Twilio API key's SID: `SK` + 32 lower-case hexadecimal digits.
    ("SK", "Twilio API key", 32),
    // The URL is the credential: `https://hooks.slack.com/services/T…/B…/…`.
    ("hooks.slack.com/services/", "Slack webhook URL", 20),
];

/// What `find` calls the password of a `scheme://user:password@host` URL.
pub const URL_PASSWORD: &str = "password in a URL";

/// Byte classes, looked up once per byte.
const TOKEN: u8 = 1;
const KEY: u8 = 2;
const CANDIDATE: u8 = 4;

/// `TOKEN`: a byte of a candidate random token. `KEY`: a byte a key of one of `PREFIXES` is
/// made of; any other byte (`=`, `/`, `.`, `?`, `&`, `:`, quotes, white space, non-ASCII) ends
/// one, and so is a boundary before one. `CANDIDATE`: the first byte of a prefix, a JWT or a
/// private key block.
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' {
            t[b] = TOKEN | KEY;
        } else if matches!(c, b'.' | b'+' | b'/' | b'=') {
            t[b] = TOKEN;
        }
        if matches!(
            c,
            b's' | b'r' | b'g' | b'x' | b'A' | b'S' | b'e' | b'P' | b'h' | b'd'
        ) {
            t[b] |= CANDIDATE;
        }
        b += 1;
    }
    t
};

fn is_key_byte(b: u8) -> bool {
    CLASS[b as usize] & KEY != 0
}

/// What `find` calls a long high-entropy token of no known format: the one finding that may
/// be a random-looking example rather than a credential (the importer drops such values).
pub const RANDOM_TOKEN: &str = "long random token";

/// The shortest text that can hold a finding (`xoxb-` and ten characters).
pub const SHORTEST: usize = 15;

/// The kind of credential `text` appears to hold, if any. One pass over the bytes: every
/// schema and example string of an imported API goes through here.
pub fn find(text: &str) -> Option<&'static str> {
    if text.len() < SHORTEST {
        return None;
    }
    if text.contains('@') && !url_passwords(text).is_empty() {
        return Some(URL_PASSWORD);
    }
    let bytes = text.as_bytes();
    let mut random = false;
    // Where the current run of token bytes started (a candidate random token).
    let mut run = 0;
    let mut prev = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        let class = CLASS[b as usize];
        if class & TOKEN == 0 {
            random = random || (i - run >= 32 && looks_random(&text[run..i]));
            run = i + 1;
        } else if class & CANDIDATE != 0 {
            if b == b'P' {
                // PEM (`-----BEGIN RSA PRIVATE KEY-----`) and OpenPGP armor
                // (`-----BEGIN PGP PRIVATE KEY BLOCK-----`).
                let key = &bytes[i..];
                let header = [&b"PRIVATE KEY-----"[..], b"PRIVATE KEY BLOCK-----"]
                    .into_iter()
                    .find(|h| key.starts_with(h));
                if let Some(h) = header
                    && holds_key_material(&key[h.len()..])
                {
                    return Some("private key block");
                }
            } else if prev & KEY == 0
                && let Some(kind) = key_at(&text[i..])
            {
                return Some(kind);
            }
        }
        prev = class;
    }
    if random || (bytes.len() - run >= 32 && looks_random(&text[run..])) {
        return Some(RANDOM_TOKEN);
    }
    None
}

/// The kind of credential a name holds that wellgen derived from a value (an id, an MCP tool
/// name, a file name) or that a value may be derived into, once reshaped: lower case, every
/// other character a `_`, a `_` before each capital (`glpat-xY7kQ2…` → `glpat_x_y7k_q2…`).
/// `find` sees no key format in that form, nor mixed case in a random token; this sees a
/// known prefix in that form with digits in its key, or the pieces of a random token: short
/// pieces of letters and digits, changing between them often, with the entropy of random data.
/// No operationId of the corpus of real APIs is found.
pub fn find_reshaped(text: &str) -> Option<&'static str> {
    if text.len() < 16
        || !text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
    {
        return None;
    }
    let boundaries = std::iter::once(0).chain(
        text.bytes()
            .enumerate()
            .filter(|(_, b)| matches!(b, b'_' | b'-'))
            .map(|(i, _)| i + 1),
    );
    for at in boundaries {
        if let Some(kind) = reshaped_key_at(&text[at..]) {
            return Some(kind);
        }
    }
    reshaped_random(text).then_some(RANDOM_TOKEN)
}

/// `text` reshaped as wellgen derives a name from a value (the ids it suggests and imports):
/// its snake_case, the one converter those names come from.
pub fn reshape(text: &str) -> String {
    crate::text::snake_case(text)
}

/// `suggestion`, a name made from `value`, unless either holds a credential (`find`,
/// `find_reshaped`): then `neutral`. A suggestion made from a secret repeats it in a shape
/// nothing else knows as one (`glpat_x_y7k_q2m_…`: each `_x` marks a capital).
pub fn safe_suggestion(value: &str, suggestion: String, neutral: &str) -> String {
    let secret = find(value).is_some()
        || find(&suggestion).is_some()
        || find_reshaped(&reshape(value)).is_some()
        || find_reshaped(&suggestion).is_some();
    if secret {
        neutral.to_string()
    } else {
        suggestion
    }
}

/// A key of `PREFIXES` at the start of `at`, in reshaped form.
fn reshaped_key_at(at: &str) -> Option<&'static str> {
    for (prefix, kind, min) in PREFIXES {
        let reshaped = crate::text::ascii_lower_or_underscore(prefix);
        let Some(rest) = at.strip_prefix(reshaped.as_str()) else {
            continue;
        };
        let body: Vec<u8> = rest.bytes().filter(|b| b.is_ascii_alphanumeric()).collect();
        let digits = body.iter().filter(|b| b.is_ascii_digit()).count();
        let changes = body
            .windows(2)
            .filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit())
            .count();
        let ok = match *prefix {
            // Upper case and digits only: the one `_` snake_case puts in is after a digit
            // that a capital follows (`…NN7EXAMPLE` → `…nn7_example`).
            "AKIA" | "ASIA" => aws_key_bodies(rest)
                .any(|key| key.len() == *min && key.bytes().any(|b| b.is_ascii_digit())),
            // Random keys mix letters and digits; a name made of words rarely does
            // (`sk_list_invoices_v2_2024`).
            _ => body.len() >= *min && digits >= 2 && (changes >= 3 || digits >= 10),
        };
        if ok {
            return Some(kind);
        }
    }
    None
}

/// What an AWS key id's body at the start of `rest`, a reshaped name, may be: the letters and
/// digits up to each `_` or `-`, or the end, reading on past a `_` that follows a digit (where
/// snake_case may have put one inside the key) and stopping at any other.
fn aws_key_bodies(rest: &str) -> impl Iterator<Item = String> + '_ {
    let mut key = String::new();
    let mut after_digit = false;
    let mut bytes = rest.bytes();
    std::iter::from_fn(move || {
        for b in bytes.by_ref() {
            if b.is_ascii_alphanumeric() {
                key.push(char::from(b));
                after_digit = b.is_ascii_digit();
                continue;
            }
            let go_on = b == b'_' && after_digit;
            after_digit = false;
            if key.is_empty() {
                return None;
            }
            if go_on {
                return Some(key.clone());
            }
            // The key ends here: this is the last candidate.
            bytes = "".bytes();
            return Some(std::mem::take(&mut key));
        }
        (!key.is_empty()).then(|| std::mem::take(&mut key))
    })
}

/// Whether a reshaped name is a random token's pieces (see `find_reshaped`).
fn reshaped_random(text: &str) -> bool {
    let pieces: Vec<&str> = text.split(['_', '-']).filter(|p| !p.is_empty()).collect();
    let joined: String = pieces.concat();
    if joined.len() < 20 || joined.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let changes = joined
        .as_bytes()
        .windows(2)
        .filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit())
        .count();
    let short = pieces.len() >= 6 && joined.len() * 10 <= pieces.len() * 32;
    entropy(&joined) >= 3.9 && (changes * 4 >= joined.len() || short)
}

/// Whether what follows a private key block's header is a key: base64 lines (64 characters
/// each in PEM), at least [`KEY_MATERIAL`] characters before the end line. The placeholders
/// real API descriptions show (`-----BEGIN PRIVATE KEY-----\n...`, `…\nPRIVATE_KEY_INFORMATION
/// \n…`, a regular expression matching the header) hold none; a body too short to be a key
/// but random is still found as a random token.
fn holds_key_material(after: &[u8]) -> bool {
    let (mut total, mut run, mut longest) = (0, 0, 0);
    for &b in after {
        if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=') {
            total += 1;
            run += 1;
            longest = longest.max(run);
        } else if b.is_ascii_whitespace() {
            run = 0;
        } else {
            break;
        }
    }
    total >= KEY_MATERIAL && longest >= KEY_LINE
}

/// The fewest base64 characters of a private key block that make it a key: an EC P-256 key
/// has 164, RSA keys over 1,000.
const KEY_MATERIAL: usize = 100;
/// The longest line of one has at least this many (PEM writes 64 a line; words are shorter).
const KEY_LINE: usize = 40;

/// The well-known key format or JWT `at` starts with, if any.
fn key_at(at: &str) -> Option<&'static str> {
    let head = at.as_bytes();
    for (prefix, kind, min) in PREFIXES {
        let p = prefix.as_bytes();
        // Two bytes first: most words starting with `s` or `g` are not keys.
        if head.len() < p.len() + min || head[..2] != p[..2] || !head.starts_with(p) {
            continue;
        }
        let rest = &at[p.len()..];
        let body = &rest[..rest
            .bytes()
            .position(|b| !is_key_byte(b))
            .unwrap_or(rest.len())];
        let ok = match *prefix {
            "AKIA" | "ASIA" => {
                body.len() == *min
                    && body
                        .bytes()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            }
            "hf_" => {
                body.bytes().all(|c| c.is_ascii_alphanumeric())
                    && body.len() >= *min
                    && body.bytes().any(|c| c.is_ascii_uppercase())
                    && body.bytes().any(|c| c.is_ascii_lowercase())
            }
            "shpat_" | "shpss_" | "shpca_" | "shppa_" | "dapi" => hex_run(body) == *min,
            "SK" => {
                body.len() == *min
                    && body
                        .bytes()
                        .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
            }
            "hooks.slack.com/services/" => {
                rest.bytes()
                    .take_while(|&b| is_key_byte(b) || b == b'/')
                    .filter(|&b| b != b'/')
                    .count()
                    >= *min
            }
            "SG." => {
                body.len() >= *min
                    && rest[body.len()..].strip_prefix('.').is_some_and(|tail| {
                        tail.bytes().take_while(|&b| is_key_byte(b)).count() >= 30
                    })
            }
            _ => body.len() >= *min,
        };
        if ok {
            return Some(kind);
        }
    }
    (at.starts_with("eyJ") && is_jwt(at)).then_some("JSON Web Token")
}

/// How many hexadecimal digits `body` starts with, when they are all of it or followed by
/// `-` (Databricks' `dapi…-2`).
fn hex_run(body: &str) -> usize {
    let n = body.bytes().take_while(u8::is_ascii_hexdigit).count();
    if n == body.len() || body.as_bytes()[n] == b'-' {
        n
    } else {
        0
    }
}

/// The byte ranges of the passwords of each `scheme://user:password@host` in `text`, and of
/// each protocol-relative `//user:password@host` (at the start of the text or after white
/// space, a quote or a bracket). A placeholder is no password: `${password}`, `{pw}`,
/// `<password>`, `xxxxx`, `****`.
pub fn url_passwords(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("//") {
        let slashes = from + i;
        let start = slashes + 2;
        let before = text[..slashes].chars().next_back();
        let opens = match before {
            None => true,
            Some(c) => {
                c == ':'
                    || c.is_whitespace()
                    || matches!(c, '"' | '\'' | '`' | '(' | '[' | '<' | '=' | ',')
            }
        };
        let end = text[start..]
            .find(|c: char| {
                c.is_whitespace() || matches!(c, '/' | '?' | '#' | '`' | '"' | '\'' | '<' | '>')
            })
            .map_or(text.len(), |j| start + j);
        let authority = &text[start..end];
        if opens
            && let Some(at) = authority.rfind('@')
            && let Some(colon) = authority[..at].find(':')
            && colon + 1 < at
            && !placeholder(&authority[colon + 1..at])
        {
            out.push(start + colon + 1..start + at);
        }
        from = end.max(start);
    }
    out
}

/// A password written as a placeholder: a template variable, a run of one character
/// (`xxxxx`, `****`), or the word itself (`username:password@`, `user:your-password@`, as
/// Google's API descriptions write a URL's shape).
fn placeholder(password: &str) -> bool {
    let first = password.chars().next().unwrap_or('x');
    let word: String = password
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .collect::<String>()
        .to_ascii_lowercase();
    let word = word
        .strip_prefix("your")
        .or_else(|| word.strip_prefix("my"))
        .unwrap_or(&word);
    matches!(first, '$' | '{' | '<' | '[')
        || (password.len() >= 3 && password.chars().all(|c| c == first))
        || matches!(word, "password" | "passwd" | "pass" | "pwd" | "secret")
}

/// `header.payload.signature`, base64url, the first two JSON objects (`eyJ` is `{"`).
fn is_jwt(at: &str) -> bool {
    let end = at
        .bytes()
        .position(|b| !(is_key_byte(b) || b == b'.'))
        .unwrap_or(at.len());
    // A sentence may end right after the token.
    let mut parts = at[..end].trim_end_matches('.').split('.');
    let mut n = 0;
    let ok = parts.by_ref().take(3).all(|p| {
        n += 1;
        p.len() >= 10 && (n == 3 || p.starts_with("eyJ"))
    });
    ok && n == 3 && parts.next().is_none()
}

/// 32+ characters mixing letters and digits with the entropy of random data (hex digests, at
/// 4 bits a character, stay below the bar; so do words and paths). A word with `/` is a path
/// or a file name, judged by its pieces, unless it ends in one base64 token.
fn looks_random(word: &str) -> bool {
    let word = word.trim_matches(|c: char| matches!(c, '.' | '/' | '='));
    if word.contains('/') {
        // Padding only ends base64: what follows an `=` inside (`secret=…`) is the token.
        let token = word.rsplit('=').next().unwrap_or(word);
        let token = token.trim_start_matches('/');
        if token.len() >= 32 && base64_token(token) && random_text(token) {
            return true;
        }
        // A path or a URL: only a piece of its own can be a token. Judged whole, a long host
        // name beside a file name has the letters, digits and entropy of random data.
        return word.split('/').any(|p| p.len() >= 32 && looks_random(p));
    }
    // `name=value`: the value is judged alone, its name would lower the changes of kind.
    match word.rsplit_once('=') {
        Some((_, value)) => value.len() >= 32 && random_text(value),
        None => word.len() >= 32 && random_text(word),
    }
}

/// Letters of both cases and digits, with the entropy of random data, changing kind as often
/// as random data does: camel-case names of real APIs (`AWSEC2InstanceConnectService.
/// SendSSHPublicKey`, `Microsoft.WindowsAzure.ApiManagement.Gateway.Protocols.Server.Http2`)
/// have the letters and the entropy, but change kind at 1 in 3 neighbours at most.
fn random_text(word: &str) -> bool {
    let has = |f: fn(&char) -> bool| word.chars().any(|c| f(&c));
    // Hexadecimal in mixed case is a checksummed address (Ethereum's `0x…`), public by design;
    // secrets written in hex are digests' lower case, below the entropy bar.
    let hex = word.strip_prefix("0x").unwrap_or(word);
    if hex.bytes().all(|b| b.is_ascii_hexdigit()) || camel_case(word) {
        return false;
    }
    // The separators of names (`dss_SIGN_29182_SlideUpBar`, `xapp-icon-180.png`) change kind
    // at every word; random data rarely holds them.
    let letters: String = word
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | '_'))
        .collect();
    has(char::is_ascii_digit)
        && has(char::is_ascii_lowercase)
        && has(char::is_ascii_uppercase)
        && entropy(word) > 4.3
        && changes_kind_often(&letters)
}

/// Whether most of `word` is capitalised words (`IAMUser/S3BucketReplicatedExternally`: `User`,
/// `Bucket`, `Replicated`, `Externally`): a capital and two lower-case letters or more. Random
/// base64 rarely holds one such run (`wJalrXUtnFEMI/K7MDENG/bPxRfiCY…`: `Jalr`, `Utn`), names
/// are made of them.
fn camel_case(word: &str) -> bool {
    let bytes = word.as_bytes();
    let mut in_words = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_uppercase() {
            let lower = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_lowercase())
                .count();
            if lower >= 2 {
                in_words += 1 + lower;
                i += 1 + lower;
                continue;
            }
        }
        i += 1;
    }
    in_words * 5 >= bytes.len() * 3
}

/// Whether `word` reads as one base64 token (an AWS secret access key, half of which hold a
/// `/`; a base64-encoded key) rather than a path: base64 characters only, no empty piece
/// between `/`s, and upper case, lower case, digits and symbols alternating as often as in
/// random data. Random base64 changes kind at about 2 of 3 neighbours (a 40-character key at
/// 0.4 or more in 998 of 1,000), paths of words and camel-case names at 1 in 3 at most
/// (`components/schemas/GoogleIamV1AuditLogConfig`: 0.35, the most in a corpus of real APIs).
fn base64_token(word: &str) -> bool {
    if word.contains("//")
        || !word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
    {
        return false;
    }
    changes_kind_often(word)
}

/// Upper case, lower case, digits and symbols alternate at 2 of 5 neighbours or more.
fn changes_kind_often(word: &str) -> bool {
    let kind = |b: u8| match b {
        b'A'..=b'Z' => 0,
        b'a'..=b'z' => 1,
        b'0'..=b'9' => 2,
        _ => 3,
    };
    let bytes = word.as_bytes();
    let changes = bytes
        .windows(2)
        .filter(|w| kind(w[0]) != kind(w[1]))
        .count();
    changes * 5 >= bytes.len().saturating_sub(1) * 2
}

fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 128];
    let mut n = 0.0;
    for b in s.bytes().filter(u8::is_ascii) {
        counts[b as usize] += 1;
        n += 1.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// The value with all but its first four characters hidden.
pub fn mask(text: &str) -> String {
    let shown: String = text.chars().take(4).collect();
    format!("`{shown}…` ({} characters)", text.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_well_known_credentials() {
        let cases = [
            ("key: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "Stripe secret key"),
            ("ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "GitHub token"),
            ("xoxb-123456789012-abcdefABCDEF", "Slack token"),
            ("AKIAIOSFODNN7EXAMPLE", "AWS access key"),
            (
                "-----BEGIN RSA PRIVATE KEY-----\nUvImZaYMEtKJGF2VDuiBNgkWb2sRPReNbA/TkB/yOaGglfIPk5VlDPk4C47bIkpr\nJIoekk6P0K4uGpSSozBfGIy2EJAPnjR/rohtxlB3lex0XEw/yy6yxz4Uk0yGfuBX",
                "private key block",
            ),
            (
                "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "JSON Web Token",
            ),
            (
                "token=Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eK",
                "long random token",
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(find(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn finds_keys_after_punctuation() {
        let cases = [
            ("key=glpat-abcdefghij0123456789", "GitLab token"),
            ("pw=AKIAIOSFODNN7EXAMPLE", "AWS access key"),
            (
                "https://docs.example/?key=AKIAIOSFODNN7EXAMPLE&x=1",
                "AWS access key",
            ),
            (
                "https://hooks.example/services/xoxb-123456789012-abcdefABCDEF",
                "Slack token",
            ),
            (
                "config.sk_live_4eC39HqLyjWDarjtT1zdp7dc",
                "Stripe secret key",
            ),
            (
                "\"AIzaSyD-abcdefghijklmnopqrstuvwxyz012345\"",
                "Google API key",
            ),
            (
                "key:SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
                "SendGrid key",
            ),
            (
                "token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U.",
                "JSON Web Token",
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(find(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn leaves_ordinary_text_alone() {
        for text in [
            "Search products by keyword",
            "https://api.example.com/v1/products/search",
            "X-API-Key",
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "ThisIsAVeryLongCamelCaseIdentifierName",
            "sk_live_",
            "AKIA is how AWS keys start",
            "/api/capabilities/search_products_by_category_and_price",
            "https://example.com/docs/sk_live_keys",
            "key=value&mode=AKIA",
            "task-ant-colony-simulation-parameters-long",
            "risk_live_feed_of_prices_for_all_markets",
            "/v1/regions/ASIA_PACIFIC_NORTHEAST_1",
            "SG.some.dotted.configuration.name.that.is.quite.long",
            "https://sk-proj-docs.example/guide",
            "eyJ is how a JSON object starts in base64",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }

    #[test]
    fn finds_every_key_format() {
        let cases = [
            ("sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1w", "OpenAI key"),
            ("sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8t", "Anthropic key"),
            ("rk_live_51HqLyjWDarjtT1zdp7dc", "Stripe restricted key"),
            ("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "Stripe test key"),
            ("xoxe-1-My0xLTEyMzQ1Njc4OTAxMjM0", "Slack token"),
            ("xoxe.xoxp-1-My0xLTEyMzQ1Njc4OTAxMjM0", "Slack token"),
            (
                "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nUvImZaYMEtKJGF2VDuiBNgkWb2sRPReNbA/TkB/yOaGglfIPk5VlDPk4C47bIkpr\nJIoekk6P0K4uGpSSozBfGIy2EJAPnjR/rohtxlB3lex0XEw/yy6yxz4Uk0yGfuBX\n=Xb4Q\n-----END PGP PRIVATE KEY BLOCK-----",
                "private key block",
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(find(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn a_base64_key_with_slashes_is_judged_whole() {
        for text in [
            // AWS secret access keys: 40 base64 characters, half of them with a `/`.
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz8Q2mK4nLp",
            "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "/9Kq2mXv7RtLp4Wz8NbYc3Hd6Fj1Gs5Ae0UoIi+T",
            // 32 random bytes in base64.
            "q3Zr/8Xv1Lm+Tb9Wc2Nd/Hf7Yk4Pj6Gs0Ae5UoIiRk=",
        ] {
            assert_eq!(find(text), Some("long random token"), "{text}");
        }
    }

    /// Real API descriptions show where a key goes without one: a placeholder body, a regular
    /// expression for the header, a body too short to be a key (random, it is still a token).
    #[test]
    fn a_private_key_header_without_a_key_is_no_key() {
        for text in [
            "-----BEGIN PRIVATE KEY-----\n...",
            "-----BEGIN PRIVATE KEY-----\nPRIVATE_KEY_INFORMATION\n-----END PRIVATE KEY-----",
            "(?ms)\\s*^-----BEGIN (?-s:.*)PRIVATE KEY-----$.*?^-----END (?-s:.*)PRIVATE KEY-----$\\s*",
            "Paste the -----BEGIN PRIVATE KEY----- block that your certificate authority gave you, all of it including the end line",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
        let short = "For example, `-----BEGIN RSA PRIVATE KEY-----MIIEpQIBAAKCAQEAuyf/lNrH9ck8DmNyo3fGgvCI1l9s+cmBY3WIz+cUDqmxiieR\n.-----END RSA PRIVATE KEY-----`";
        assert_eq!(find(short), Some(RANDOM_TOKEN));
    }

    /// Public addresses and names: a logo's URL on a CDN, a checksummed Ethereum address, a
    /// setting named with underscores.
    #[test]
    fn urls_addresses_and_names_are_not_tokens() {
        for text in [
            "https://greip.io/img/xapp-icon-180.png.pagespeed.ic.ZTdYRFWWyQ.png",
            "https://paypi-default-images.s3.eu-west-1.amazonaws.com/EV-Img.png",
            "https://eep.io/images/yzco4xsimv0y/10ZRu9hZ1QQ5u1QQMu7qN1/57f679c6e8f6dd60a01d54f870fae6b7/MC_50-50_-_Brand_Assets_03.png?w=980",
            "https://images.prismic.io/impala-v2/8d1fd8ad-ef74-46e6-99b8-a8dca8265c60_IM_LI_POST_LAUNCH.jpg",
            "https://help.vtex.com/en/tutorial/setting-up-the-notify-me-option--2VqVifQuf6Co2KG048Yu6e",
            "https://corrently.de/service/quittung.html?token=0x3C4750bf93aa96e55A0d60be334B6b6E14DCe5bc",
            "dss_SIGN_29182_SlideUpBar_RadminOption",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
        // A random piece of a URL is still a token.
        assert_eq!(
            find("https://files.example/share/Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eK/report.pdf"),
            Some(RANDOM_TOKEN)
        );
    }

    #[test]
    fn paths_and_words_with_slashes_are_not_tokens() {
        for text in [
            "#/components/schemas/GoogleIamV1AuditLogConfig",
            "#/components/schemas/NonEmptyMaxLength2048String",
            "/v20180820/configuration/publicAccessBlock",
            "/v1/Accounts/AC123/Messages/SM456/Media",
            "https://api.example.com/v1/CustomerAccounts/Invoices/LineItems2024",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "2024/01/31 2024/02/29 2024/03/31 2024/04/30",
            "/usr/local/lib/python3.12/site-packages/Django",
            "AAAAAAAAAAAAAAAA/BBBBBBBBBBBBBBBB/CCCC1234",
            "src/main/java/com/Example/Service/Api/V2/Handler",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }

    /// Dotted and camel-case names of real APIs (AWS's `X-Amz-Target` values, Azure's
    /// settings) have the letters and the entropy of random data, not its changes of kind.
    #[test]
    fn camel_case_names_are_not_tokens() {
        for text in [
            "AWSEC2InstanceConnectService.SendSSHPublicKey",
            "Lightsail_20161128.AllocateStaticIp",
            "Microsoft.WindowsAzure.ApiManagement.Gateway.Security.Ciphers.TripleDes168",
            "AmazonSSM.DescribeInstancePatchStatesForPatchGroup",
            // An Amazon Macie finding type, an enum value.
            "Policy:IAMUser/S3BucketReplicatedExternally",
            "Policy:IAMUser/S3BucketSharedWithCloudFront",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
        // Random data of the same length still is a token.
        assert_eq!(
            find("Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eKxW2"),
            Some(RANDOM_TOKEN)
        );
    }

    #[test]
    fn finds_hugging_face_shopify_databricks_twilio_and_slack_webhooks() {
        let cases = [
            (
                "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
                "Hugging Face token",
            ),
            (
                "token: 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",
                "Shopify token",
            ),
            ("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", "Shopify token"),
            ("dapi0a1b2c3d4e5f67890a1b2c3d4e5f6789", "Databricks token"),
            ("dapi0a1b2c3d4e5f67890a1b2c3d4e5f6789-2", "Databricks token"),
            ("sid=SK0a1b2c3d4e5f67890a1b2c3d4e5f6789", "Twilio API key"),
            (
                "POST to https://hooks.slack.com/services/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",
                "Slack webhook URL",
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(find(text), Some(kind), "{text}");
        }
        for text in [
            "hf_download_model_weights_by_name",
            "shpat_is_how_a_shopify_admin_token_starts",
            "dapi_client_configuration_reference",
            "SKU0a1b2c3d4e5f67890a1b2c3d4e5f6789",
            "SK-ABCDEFABCDEFABCDEFABCDEFABCDEFAB",
            "https://hooks.slack.com/services/",
            "see https://api.slack.com/messaging/webhooks for hooks",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }

    #[test]
    fn passwords_in_urls_are_credentials() {
        for text in [
            "Data lives in postgres://admin:Pg4dm1n@db.example/notes.",
            "https://bot:x@mirror.example",
            "mirror: //reader:R3ad3r@cdn.example/x",
            "(//u:p@h.example)",
            "https://admin:Passw0rd1@db.example",
            "https://admin:passwords@db.example",
        ] {
            assert_eq!(find(text), Some(URL_PASSWORD), "{text}");
        }
        for text in [
            "postgresql://${username}:${password}@localhost:5432",
            "https://{user}:{password}@host.example",
            "https://user:<password>@host.example",
            "https://xxxxx:xxxxx@proxy.example",
            "accessed at https://username:password@endpoint/.",
            "https://user:your-password@host.example",
            "https://user:PASSWORD@host.example",
            "https://user@host.example/a:b@c",
            "https://host.example//x:y@z",
            "mailto:someone@example.com",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }

    #[test]
    fn secrets_reshaped_into_names_are_found() {
        for raw in [
            "glpat-xY7kQ2mN9pL4vB8cR3tZ",
            "sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8t",
            "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1w",
            "xoxb-120456789012-ab3dEf6hIj9kLm2n",
            "xoxe-1-My0xLTEyMzQ1Njc4OTAxMjM0",
            "AKIAIOSFODNN7EXAMPLE",
            "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz8Q2mK4nLp",
            "Zk3Jq9LmX2vR7tPq8WbN4cY6hD1sF5gA0eK",
            // A key ending in a digit, then more of the name: `…exampl3_file`.
            "AKIAIOSFODNN7EXAMPL3 file",
        ] {
            let name = reshape(raw);
            assert!(find(&name).is_none() || raw.starts_with("ghp_"), "{name}");
            assert!(find_reshaped(&name).is_some(), "{raw} → {name}");
        }
        for name in [
            "list_accounts_v2_invoices_line_items_2024",
            "get_v20180820_configuration_public_access_block",
            "sk_list_invoices_v2_2024",
            "search_products_by_category_and_price",
            "akia_is_how_aws_keys_start",
            "describe_instance_patch_states_for_patch_group",
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "get_s3_bucket_replication_v2_config",
        ] {
            assert_eq!(find_reshaped(name), None, "{name}");
        }
    }

    #[test]
    fn no_suggestion_is_made_from_a_secret() {
        let id = "glpat-xY7kQ2mN9pL4vB8cR3tZ";
        assert_eq!(
            safe_suggestion(id, reshape(id), "my_capability"),
            "my_capability"
        );
        assert_eq!(
            safe_suggestion("SearchProducts", reshape("SearchProducts"), "my_capability"),
            "search_products"
        );
    }

    #[test]
    fn masks_all_but_a_hint() {
        assert_eq!(mask("sk_live_abcdef"), "`sk_l…` (14 characters)");
    }
}
