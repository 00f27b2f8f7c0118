//! AGIS method vocabulary: a deterministic lexicon of action verbs grouped by what they do,
//! the word lists the rules in `rules` need (§4.1–§4.3, §5, §13), and the derivation of a method
//! identifier and an AGIS path from a capability that does not declare them.
//!
//! The lexicon stands in for the embedding model §9.1 suggests for Pass 6: it knows only the
//! English verbs listed here, and judges an intent by its first word. It is a floor, not an
//! oracle — an intent whose first word is unknown is never flagged.

use crate::model::{Capability, Method};
use crate::text::{kebab_case, snake_case};
use crate::values::path::Segment;

/// What a verb does to the world, coarse enough that two classes either plainly contradict each
/// other (creating vs reading) or are left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerbClass {
    Create,
    Read,
    Modify,
    Remove,
    Analyse,
    Notify,
}

impl VerbClass {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Create => "creating or committing something",
            Self::Read => "returning information without changing it",
            Self::Modify => "changing an existing resource",
            Self::Remove => "ending or removing something",
            Self::Analyse => "deriving a result from data",
            Self::Notify => "sending a communication",
        }
    }

    /// The §6 capability class an endpoint of this verb class most likely has.
    pub fn capability(self, names_one_instance: bool) -> &'static str {
        match self {
            Self::Create => "transaction",
            Self::Read if names_one_instance => "retrieval",
            Self::Read => "discovery",
            Self::Modify | Self::Remove => "modification",
            Self::Analyse => "analysis",
            Self::Notify => "notification",
        }
    }
}

/// Pairs of classes whose meanings exclude each other (§6.3: BOOK + "Returns a list…",
/// FIND + "Creates…", CANCEL + "Retrieves…"). Analysis and notification overlap with reading
/// and writing too often to be judged, except against removal.
const CONFLICTS: [(VerbClass, VerbClass); 8] = [
    (VerbClass::Create, VerbClass::Read),
    (VerbClass::Create, VerbClass::Remove),
    (VerbClass::Read, VerbClass::Modify),
    (VerbClass::Read, VerbClass::Remove),
    (VerbClass::Read, VerbClass::Notify),
    (VerbClass::Modify, VerbClass::Remove),
    (VerbClass::Remove, VerbClass::Analyse),
    (VerbClass::Remove, VerbClass::Notify),
];

pub fn conflicts(a: VerbClass, b: VerbClass) -> bool {
    CONFLICTS
        .iter()
        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

/// Valid AGIS methods (lowercase here), by class. Every entry passes Passes 2 and 3.
const LEXICON: &[(VerbClass, &[&str])] = &[
    (
        VerbClass::Create,
        &[
            "create",
            "add",
            "book",
            "reserve",
            "register",
            "submit",
            "place",
            "order",
            "purchase",
            "buy",
            "pay",
            "transfer",
            "schedule",
            "upload",
            "import",
            "publish",
            "issue",
            "open",
            "start",
            "launch",
            "subscribe",
            "enroll",
            "admit",
            "dispatch",
            "deliver",
            "ship",
            "authorize",
            "approve",
            "grant",
            "confirm",
            "sign",
            "apply",
            "request",
            "claim",
            "redeem",
            "deposit",
            "withdraw",
            "charge",
            "refund",
            "save",
            "store",
            "copy",
            "duplicate",
            "clone",
            "attach",
            "join",
            "follow",
            "like",
            "vote",
            "rate",
            "comment",
            "record",
            "log",
            "allocate",
            "sync",
            "trigger",
            "run",
            "execute",
            "perform",
            "make",
            "build",
            "compose",
            "draft",
            "write",
            "initiate",
            "onboard",
            "provision",
            "deploy",
            "checkin",
            "invoice",
            "bill",
            "fund",
            "lend",
            "borrow",
            "rent",
            "lease",
            "hire",
            "recruit",
            "assign",
            "install",
        ],
    ),
    (
        VerbClass::Read,
        &[
            "retrieve", "fetch", "find", "search", "query", "list", "locate", "browse", "read",
            "view", "show", "display", "describe", "inspect", "explore", "discover", "count",
            "check", "verify", "validate", "download", "export", "track", "monitor", "watch",
            "poll", "obtain", "load", "preview", "return", "consult", "scan", "see", "peek",
            "examine", "review", "audit",
        ],
    ),
    (
        VerbClass::Modify,
        &[
            "update",
            "edit",
            "modify",
            "change",
            "set",
            "rename",
            "replace",
            "amend",
            "adjust",
            "reschedule",
            "move",
            "reassign",
            "mark",
            "toggle",
            "enable",
            "disable",
            "activate",
            "deactivate",
            "configure",
            "reset",
            "restore",
            "resume",
            "pause",
            "suspend",
            "lock",
            "unlock",
            "merge",
            "reorder",
            "upgrade",
            "downgrade",
            "extend",
            "renew",
            "reject",
            "decline",
            "complete",
            "finish",
            "resolve",
            "mute",
            "flag",
            "pin",
            "star",
            "tag",
            "label",
            "link",
            "rotate",
            "refresh",
            "correct",
            "fix",
            "revise",
            "upsert",
        ],
    ),
    (
        VerbClass::Remove,
        &[
            "remove",
            "cancel",
            "revoke",
            "terminate",
            "close",
            "discard",
            "erase",
            "purge",
            "clear",
            "unsubscribe",
            "leave",
            "unfollow",
            "unlink",
            "detach",
            "destroy",
            "drop",
            "expire",
            "void",
            "archive",
            "stop",
            "abort",
            "abandon",
            "dismiss",
            "retire",
            "deregister",
            "uninstall",
            "end",
        ],
    ),
    (
        VerbClass::Analyse,
        &[
            "summarize",
            "summarise",
            "analyze",
            "analyse",
            "reconcile",
            "recommend",
            "extract",
            "translate",
            "convert",
            "calculate",
            "compute",
            "estimate",
            "forecast",
            "predict",
            "classify",
            "compare",
            "evaluate",
            "assess",
            "score",
            "rank",
            "triage",
            "detect",
            "diagnose",
            "parse",
            "transform",
            "format",
            "generate",
            "transcribe",
            "render",
            "suggest",
            "optimize",
            "simulate",
            "match",
            "quote",
            "price",
            "geocode",
            "measure",
            "interpret",
            "infer",
            "identify",
            "recognize",
            "answer",
            "plan",
            "solve",
            "test",
            "benchmark",
            "sort",
            "filter",
            "aggregate",
            "report",
            "chat",
            "ask",
            "explain",
            "resize",
            "crop",
            "encode",
            "decode",
            "encrypt",
            "decrypt",
            "hash",
            "process",
        ],
    ),
    (
        VerbClass::Notify,
        &[
            "notify",
            "alert",
            "remind",
            "email",
            "message",
            "text",
            "call",
            "broadcast",
            "announce",
            "escalate",
            "ping",
            "page",
            "send",
            "share",
            "invite",
            "signal",
            "warn",
            "contact",
            "reply",
            "forward",
            "respond",
            "tell",
            "inform",
        ],
    ),
];

/// Words that are verbs in a sentence but not acceptable AGIS methods, and the method that
/// says the same thing (Appendix B: `get_data` → RETRIEVE; §4.3 prohibits DELETE).
const ALIASES: &[(&str, &str)] = &[
    ("get", "retrieve"),
    ("delete", "remove"),
    ("post", "submit"),
    ("put", "update"),
    ("patch", "update"),
    ("head", "check"),
    ("options", "describe"),
    ("lookup", "find"),
    ("look", "find"),
    ("checkout", "purchase"),
    ("insert", "add"),
    ("new", "create"),
    ("del", "remove"),
    ("rm", "remove"),
    ("upd", "update"),
];

/// §4.3: never AGIS methods, whatever the case.
pub const PROHIBITED: [&str; 9] = [
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE",
];

/// §4.2 and §9.2(b): states, conditions, existence and nouns — not actions. OPEN is left out:
/// it is an ordinary verb ("open an account") as often as a state.
pub const STOPLIST: &[&str] = &[
    "AVAILABLE",
    "ACTIVE",
    "EXISTS",
    "EXIST",
    "STATUS",
    "DATA",
    "INFO",
    "INFORMATION",
    "VALID",
    "INVALID",
    "IS",
    "HAS",
    "HAVE",
    "BE",
    "ARE",
    "WAS",
    "WERE",
    "BEEN",
    "DETAILS",
    "DETAIL",
    "READY",
    "ENABLED",
    "DISABLED",
    "PENDING",
    "NULL",
    "NONE",
    "TRUE",
    "FALSE",
    "OK",
    "HEALTH",
    "STATE",
    "METADATA",
    "RESULT",
    "RESULTS",
    "ITEM",
    "ITEMS",
    "RESOURCE",
    "OBJECT",
    "ENTITY",
    "API",
    "ENDPOINT",
    "SERVICE",
];

/// Base forms that only look inflected (§4.1(b) heuristics misfire on them).
const ING_BASE: &[&str] = &[
    "BRING", "STRING", "RING", "PING", "SING", "SPRING", "SWING", "STING", "WRING", "CLING",
    "FLING", "SLING",
];
const ED_BASE: &[&str] = &["EMBED", "SHRED", "SHED", "WED", "BED", "SLED"];
const S_BASE: &[&str] = &["FOCUS", "CANVAS", "BIAS", "ALIAS", "GAS", "BUS"];

/// Path words that can only be verbs or HTTP methods (§5(b): `/get-restaurant` is invalid).
/// Words that are also nouns (`order`, `search`, `list`, `report`) are not here on purpose.
pub const PATH_VERBS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "connect", "trace", "fetch",
    "retrieve", "create", "update", "remove", "find", "add", "edit", "modify", "cancel", "do",
    "make", "lookup", "insert",
];

/// Leading path segments that carry no entity: API prefixes and versions.
fn is_prefix_segment(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "api" | "apis" | "rest" | "ai" | "latest" | "public"
    ) || (lower.len() > 1
        && lower.starts_with('v')
        && lower[1..].chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// §13 mitigation (1): instruction patterns that have no place in an intent or outcome.
pub const INJECTION_PATTERNS: [&str; 6] = [
    "ignore previous instructions",
    "ignore all previous instructions",
    "disregard previous instructions",
    "you are",
    "system:",
    "assistant:",
];

fn resolve(word: &str) -> &str {
    ALIASES
        .iter()
        .find(|(w, _)| *w == word)
        .map_or(word, |(_, m)| m)
}

/// The class of a lowercase verb, aliases included (`get` reads).
pub fn class_of(word: &str) -> Option<VerbClass> {
    let word = resolve(word);
    LEXICON
        .iter()
        .find(|(_, words)| words.contains(&word))
        .map(|(class, _)| *class)
}

/// The AGIS method a lowercase word stands for, when the lexicon knows it as a verb.
pub fn method_for(word: &str) -> Option<String> {
    let word = resolve(word);
    class_of(word).map(|_| word.to_ascii_uppercase())
}

/// The base form and class of the verb an intent sentence opens with ("Books…" → book).
pub fn intent_verb(intent: &str) -> Option<(String, VerbClass)> {
    let first: String = intent
        .split_whitespace()
        .next()?
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    base_forms(&first)
        .into_iter()
        .find_map(|w| class_of(&w).map(|c| (w, c)))
}

/// Candidate base forms of an English verb in the third person singular.
fn base_forms(word: &str) -> Vec<String> {
    let mut out = vec![word.to_string()];
    if let Some(stem) = word.strip_suffix("ies") {
        out.push(format!("{stem}y"));
    }
    if let Some(stem) = word.strip_suffix("es") {
        out.push(stem.to_string());
    }
    if let Some(stem) = word.strip_suffix('s') {
        out.push(stem.to_string());
    }
    out
}

/// "book" → "Books", "search" → "Searches", "query" → "Queries": the third person an intent
/// sentence uses.
pub fn third_person(verb: &str) -> String {
    let lower = verb.to_ascii_lowercase();
    let inflected = if lower.ends_with(['s', 'x', 'z', 'o'])
        || lower.ends_with("sh")
        || lower.ends_with("ch")
    {
        format!("{lower}es")
    } else if lower.ends_with('y') && !lower[..lower.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        format!("{}ies", &lower[..lower.len() - 1])
    } else {
        format!("{lower}s")
    };
    let mut chars = inflected.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// §4.1(b): the inflection a method shows, if any.
pub fn inflection(method: &str) -> Option<&'static str> {
    let m = method.to_ascii_uppercase();
    if m.len() > 4 && m.ends_with("ING") && !ING_BASE.contains(&m.as_str()) {
        return Some("a present participle (-ING)");
    }
    if m.len() > 3 && m.ends_with("ED") && !m.ends_with("EED") && !ED_BASE.contains(&m.as_str()) {
        return Some("a past tense (-ED)");
    }
    if m.len() > 3
        && m.ends_with('S')
        && !m.ends_with("SS")
        && !m.ends_with("US")
        && !m.ends_with("IS")
        && !S_BASE.contains(&m.as_str())
    {
        return Some("a third-person singular (-S)");
    }
    None
}

/// How a method was chosen, for the warning that says so.
pub struct DerivedMethod {
    pub method: String,
    pub how: String,
}

/// Picks a method for a capability without `semantic.verb`: the verb the id starts with, else
/// the verb the intent (or description) opens with, else one implied by the HTTP method.
/// `intent` is the text the method must stay consistent with (Pass 6).
pub fn derive_method(c: &Capability, intent: &str) -> DerivedMethod {
    let intent_class = intent_verb(intent).map(|(_, class)| class);
    // The HTTP method says something too: a GET only reads, a DELETE removes.
    let http_class = match c.method {
        Method::Get => Some(VerbClass::Read),
        Method::Delete => Some(VerbClass::Remove),
        _ => None,
    };
    let agrees = |m: &str, other: Option<VerbClass>| {
        let class = class_of(&m.to_ascii_lowercase());
        !matches!((class, other), (Some(a), Some(b)) if conflicts(a, b))
    };
    let mut candidates: Vec<DerivedMethod> = Vec::new();
    let first_token =
        c.id.split(['_', '-', '.'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
    if let Some(m) = method_for(&first_token) {
        let how = if m.eq_ignore_ascii_case(&first_token) {
            format!("the id `{}` starts with it", c.id)
        } else {
            format!("`{first_token}` in the id `{}` is not an AGIS method", c.id)
        };
        candidates.push(DerivedMethod { method: m, how });
    }
    if let Some((word, _)) = intent_verb(intent)
        && let Some(m) = method_for(&word)
    {
        candidates.push(DerivedMethod {
            method: m,
            how: format!("the intent opens with `{word}`"),
        });
    }
    let one = names_one_instance(c);
    let (m, why) = match c.method {
        Method::Get if one => ("RETRIEVE", "a GET of one resource"),
        Method::Get => ("FIND", "a GET of a collection"),
        Method::Post => ("SUBMIT", "a POST"),
        Method::Put | Method::Patch => ("UPDATE", "a PUT or PATCH"),
        Method::Delete => ("REMOVE", "a DELETE"),
    };
    candidates.push(DerivedMethod {
        method: m.to_string(),
        how: format!("the capability is {why}"),
    });
    // Agreeing with the intent is what Pass 6 checks, so it comes first; the intent's own verb
    // (when known) always agrees with it, so the search never comes back empty-handed.
    let pick = candidates
        .iter()
        .position(|d| agrees(&d.method, intent_class) && agrees(&d.method, http_class))
        .or_else(|| {
            candidates
                .iter()
                .position(|d| agrees(&d.method, intent_class))
        })
        .unwrap_or(candidates.len() - 1);
    candidates.swap_remove(pick)
}

/// Whether the HTTP path ends in a parameter (`/products/{id}`): one instance, not a collection.
pub fn names_one_instance(c: &Capability) -> bool {
    matches!(c.path.segments().last(), Some(Segment::Param(_)))
}

/// The AGIS path for a capability without `semantic.path`: the HTTP path without API prefixes
/// and verb segments, lowercased and hyphenated, parameters in braces (§5).
pub fn derive_path(c: &Capability, method: &str) -> String {
    let method_word = method.to_ascii_lowercase();
    let braces = c.path.braces();
    let mut segments: Vec<String> = Vec::new();
    let mut leading = true;
    for raw in braces.split('/').filter(|s| !s.is_empty()) {
        if leading && is_prefix_segment(raw) {
            continue;
        }
        leading = false;
        if let Some(open) = raw.find('{') {
            let name = raw[open + 1..].split('}').next().unwrap_or_default();
            let name = snake_case(name);
            if !name.is_empty() && name.starts_with(|c: char| c.is_ascii_lowercase()) {
                segments.push(format!("{{{name}}}"));
            }
            continue;
        }
        let seg = kebab_case(raw);
        let is_verb = seg
            .split('-')
            .any(|w| w == method_word || PATH_VERBS.contains(&w));
        if seg.is_empty() || is_verb || !seg.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        segments.push(seg);
    }
    if segments.first().is_none_or(|s| s.starts_with('{')) {
        segments.insert(0, noun_from_id(&c.id, &method_word));
    }
    format!("/{}", segments.join("/"))
}

/// The entity an id names once its verb is taken off: `get_product` → `product`.
pub fn noun_from_id(id: &str, method_word: &str) -> String {
    let words: Vec<String> = id
        .split(['_', '-', '.'])
        .map(str::to_ascii_lowercase)
        .filter(|w| {
            !w.is_empty()
                && w != method_word
                && !PATH_VERBS.contains(&w.as_str())
                && class_of(w).is_none()
        })
        .collect();
    // A word may split further once hyphenated (`users/find`): its verbs go too.
    let noun = noun_words(&words.join("-"), method_word);
    if noun.starts_with(|c: char| c.is_ascii_lowercase()) {
        noun
    } else {
        "resource".into()
    }
}

/// The words of `text` (an id, a path word) that may stand in an AGIS path, hyphenated: its
/// verbs and the method left out (§5(b), §5(e)). Empty when nothing is left; it may open with a
/// digit, which callers check (§5(c)).
pub fn noun_words(text: &str, method_word: &str) -> String {
    let kebabbed = kebab_case(text);
    let words: Vec<&str> = kebabbed
        .split('-')
        .filter(|w| !w.is_empty() && *w != method_word && !PATH_VERBS.contains(w))
        .collect();
    words.join("-")
}

/// Every lexicon entry, uppercased: for the test that each passes Passes 2 and 3.
#[cfg(test)]
pub fn all_methods() -> impl Iterator<Item = String> {
    LEXICON
        .iter()
        .flat_map(|(_, words)| words.iter())
        .map(|w| w.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_are_read_by_their_first_verb() {
        assert_eq!(
            intent_verb("Books a table").map(|v| v.1),
            Some(VerbClass::Create)
        );
        assert_eq!(
            intent_verb("Returns a list of x").map(|v| v.1),
            Some(VerbClass::Read)
        );
        assert_eq!(
            intent_verb("Searches products").map(|v| v.0),
            Some("search".into())
        );
        assert_eq!(
            intent_verb("Queries the index").map(|v| v.0),
            Some("query".into())
        );
        assert_eq!(
            intent_verb("Get current weather").map(|v| v.1),
            Some(VerbClass::Read)
        );
        assert_eq!(
            intent_verb("Assesses a patient").map(|v| v.0),
            Some("assess".into())
        );
        assert_eq!(intent_verb("Lets agents do things"), None);
    }

    #[test]
    fn third_person_follows_english_spelling() {
        assert_eq!(third_person("BOOK"), "Books");
        assert_eq!(third_person("SEARCH"), "Searches");
        assert_eq!(third_person("QUERY"), "Queries");
        assert_eq!(third_person("PROCESS"), "Processes");
        assert_eq!(third_person("PAY"), "Pays");
    }

    #[test]
    fn inflections_with_their_exceptions() {
        assert!(inflection("BOOKING").is_some());
        assert!(inflection("BOOKED").is_some());
        assert!(inflection("BOOKS").is_some());
        assert!(inflection("FINDS").is_some());
        for ok in [
            "BRING", "FEED", "PROCEED", "ACCESS", "PROCESS", "FOCUS", "EMBED", "BOOK", "RING",
        ] {
            assert_eq!(inflection(ok), None, "{ok}");
        }
    }

    #[test]
    fn noun_words_leave_verbs_and_the_method_out() {
        assert_eq!(noun_words("findPetsByTags", "find"), "pets-by-tags");
        assert_eq!(noun_words("search_users", "search"), "users");
        assert_eq!(noun_words("get-remove", "fetch"), "");
        assert_eq!(noun_from_id("users/find", "retrieve"), "users");
        assert_eq!(noun_from_id("get", "retrieve"), "resource");
    }
}
