//! Names and texts made to fit: snake_case capability ids, unique and at most 64 characters,
//! texts shortened at a word boundary, JSON pointers, and the tiny `*`/`?` glob of `[source]`.

use std::collections::{HashMap, HashSet};

pub const ID_MAX: usize = 64;

/// The capability id an operation's name gives: `listPets`, `get-HTTPStatus`,
/// `GET /pets/{id}` → `list_pets`, `get_http_status`, `get_pets_id` ([`crate::text::snake_id`]).
pub fn capability_id(text: &str) -> String {
    crate::text::snake_id(text, "operation")
}

/// Cuts an id to `max` characters, preferring a `_` boundary, never ending in `_`.
fn cut_id(id: &str, max: usize) -> String {
    if id.len() <= max {
        return id.to_string();
    }
    let head = &id[..max];
    let cut = match head.rfind('_') {
        Some(i) if i >= max / 2 => &head[..i],
        _ => head,
    };
    cut.trim_end_matches('_').to_string()
}

/// Hands out capability ids: snake_case, ≤ 64 characters, unique (`_2`, `_3` on collisions,
/// in document order). Ids reserved beforehand (every id the document asks for) are never
/// handed out as a suffixed one, so an operation named `list_2` keeps its name even when it
/// comes after two `list`s.
#[derive(Default)]
pub struct IdAllocator {
    used: HashSet<String>,
    reserved: HashSet<String>,
    /// The first suffix not yet tried for each base: every smaller one was taken, and `used`
    /// and `reserved` never shrink, so n copies of one id cost n steps, not n²/2.
    next_suffix: HashMap<String, usize>,
}

impl IdAllocator {
    /// An allocator that keeps each of `wanted`'s ids for whoever asks for it.
    pub fn reserving<'a>(wanted: impl IntoIterator<Item = &'a str>) -> Self {
        Self {
            used: HashSet::new(),
            next_suffix: HashMap::new(),
            reserved: wanted
                .into_iter()
                .map(|w| cut_id(&capability_id(w), ID_MAX))
                .collect(),
        }
    }

    pub fn allocate(&mut self, wanted: &str) -> String {
        let base = cut_id(&capability_id(wanted), ID_MAX);
        if self.used.insert(base.clone()) {
            return base;
        }
        let mut n = self.next_suffix.get(&base).copied().unwrap_or(2);
        loop {
            let suffix = format!("_{n}");
            let candidate = format!("{}{suffix}", cut_id(&base, ID_MAX - suffix.len()));
            n += 1;
            if !self.reserved.contains(&candidate) && self.used.insert(candidate.clone()) {
                self.next_suffix.insert(base, n);
                return candidate;
            }
        }
    }
}

pub use crate::text::{one_line, shorten};

/// Escapes one JSON-pointer segment (RFC 6901).
pub fn escape(segment: &str) -> String {
    // Nearly every segment needs no escaping: skip the two copies `replace` would make.
    if !segment.contains(['~', '/']) {
        return segment.to_string();
    }
    segment.replace('~', "~0").replace('/', "~1")
}

/// Un-escapes one JSON-pointer segment.
pub fn unescape(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    unescape_into(segment, &mut out);
    out
}

/// [`unescape`] appended to `out`.
pub fn unescape_into(segment: &str, out: &mut String) {
    // One pass: `~01` is `~1`, which two `replace`s in the other order would get wrong. Bytes,
    // not `find`: a path's segment holds an escape for every `/` of the path.
    let bytes = segment.as_bytes();
    out.reserve(segment.len());
    let (mut copied, mut i) = (0, 0);
    while i < bytes.len() {
        let decoded = match (bytes[i], bytes.get(i + 1)) {
            (b'~', Some(b'1')) => '/',
            (b'~', Some(b'0')) => '~',
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&segment[copied..i]);
        out.push(decoded);
        i += 2;
        copied = i;
    }
    out.push_str(&segment[copied..]);
}

/// `pointer` + `/segment`: one allocation, as the importer makes one for every node it visits.
pub fn child(pointer: &str, segment: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + 1 + segment.len());
    out.push_str(pointer);
    out.push('/');
    if segment.contains(['~', '/']) {
        out.push_str(&escape(segment));
    } else {
        out.push_str(segment);
    }
    out
}

/// A glob with `*` (any run) and `?` (one character).
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A naive English plural for `returns` nouns (`product` → `products`).
pub fn plural(noun: &str) -> String {
    if noun.ends_with('s') {
        noun.to_string()
    } else if let Some(stem) = noun.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        format!("{stem}ies")
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_names_become_capability_ids() {
        assert_eq!(capability_id("listPets"), "list_pets");
        assert_eq!(capability_id("getHTTPStatus"), "get_http_status");
        assert_eq!(capability_id("GET /pets/{petId}"), "get_pets_pet_id");
        assert_eq!(capability_id("repos/get-content"), "repos_get_content");
        assert_eq!(capability_id("2fa.enable"), "op_2fa_enable");
        assert_eq!(capability_id("$$$"), "operation");
    }

    #[test]
    fn ids_are_unique_and_short() {
        let mut ids = IdAllocator::default();
        assert_eq!(ids.allocate("listPets"), "list_pets");
        assert_eq!(ids.allocate("list_pets"), "list_pets_2");
        assert_eq!(ids.allocate("ListPets"), "list_pets_3");
        let long = "a_very_long_operation_name_".repeat(5);
        let first = ids.allocate(&long);
        let second = ids.allocate(&long);
        assert!(first.len() <= 64 && second.len() <= 64, "{first} {second}");
        assert_ne!(first, second);
        assert!(second.ends_with("_2"));
    }

    #[test]
    fn many_copies_of_one_id_take_linear_time() {
        let mut ids = IdAllocator::reserving(vec!["listItems"; 5_000]);
        let last = (0..5_000).map(|_| ids.allocate("listItems")).last();
        assert_eq!(last.as_deref(), Some("list_items_5000"));
        // Each copy resumes where the last one stopped instead of retrying every suffix from 2
        // (12 million candidates for these 5,000).
        assert_eq!(ids.next_suffix.get("list_items"), Some(&5_001));
    }

    #[test]
    fn ids_asked_for_are_kept_from_suffixed_ones() {
        let wanted = ["getThing", "getThing", "get_thing_2", "getThing"];
        let mut ids = IdAllocator::reserving(wanted);
        let got: Vec<String> = wanted.iter().map(|w| ids.allocate(w)).collect();
        assert_eq!(
            got,
            ["get_thing", "get_thing_3", "get_thing_2", "get_thing_4"]
        );
    }

    #[test]
    fn shortening_cuts_at_a_word() {
        assert_eq!(shorten("short\n text", 20), ("short text".into(), false));
        let (s, cut) = shorten("one two three four five six", 15);
        assert!(cut);
        assert_eq!(s, "one two three…");
        assert!(s.chars().count() <= 15);
    }

    #[test]
    fn globs() {
        assert!(glob("get_*", "get_pet"));
        assert!(glob("*pet?", "list_pets"));
        assert!(!glob("get_*", "list_pets"));
        assert!(glob("*", ""));
        assert!(glob("a*b*c", "aXXbYYc") && !glob("a*b*c", "aXXbYY"));
    }

    #[test]
    fn pointers_and_plurals() {
        assert_eq!(child("#/paths", "/pets/{id}"), "#/paths/~1pets~1{id}");
        assert_eq!(unescape("~1pets~0x"), "/pets~x");
        // RFC 6901: `~1` first, then `~0`; stray tildes stay.
        for s in [
            "", "~", "~~", "~01", "~10", "a~2b", "x~", "~0~1~", "é~1ü", "~~1~0~",
        ] {
            assert_eq!(unescape(s), s.replace("~1", "/").replace("~0", "~"), "{s}");
        }
        for s in ["a/b~c", "~1", "/~0/", ""] {
            assert_eq!(unescape(&escape(s)), s);
        }
        assert_eq!(plural("product"), "products");
        assert_eq!(plural("category"), "categories");
        assert_eq!(plural("key"), "keys");
    }
}
