//! `$ref` resolution: local pointers, other files below a root folder the user controls (the
//! repository or current folder holding the entry document, or `--ref-root`), and schema
//! expansion that stops at cycles instead of recursing forever. Network refs are refused.

use crate::confine::{RefRoot, Refusal, RootKind, confine, lexical};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value};

use super::load;
use super::naming::{unescape, unescape_into};
use crate::diag::{Code, Diagnostic};
use crate::json::Field;
use crate::values::schemas::{Schemas, circular};

/// The responses made so far ([`Documents::responses`]).
pub(super) type Responses = HashMap<(usize, String), Arc<super::operation::Response>>;

/// The component schemas response schemas refer to ([`Documents::components`]), by the name
/// the model keeps each under ([`Documents::component_name`]).
pub(super) type Components = HashMap<String, Component>;

/// A component schema as the model keeps it (`values::schemas`): made once, its own `$ref`s to
/// components kept.
pub(super) struct Component {
    /// Where it is, in the numbering of files of the view that registered it (and makes it).
    pub place: Place,
    /// `file#/pointer`, as diagnostics name it.
    pub at: String,
    /// `None` while a thread makes it, and where making it failed (the model then holds `{}`).
    pub schema: Option<Arc<Value>>,
    /// What making it rewrote or cut, reported once, at the component.
    pub met: Met,
}

/// What an expansion rewrote or cut, for the importer's notes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Met {
    pub misfit_defaults: bool,
    pub file_types: bool,
    /// `required` names no property described, kept as properties that take any value.
    pub opened_required: bool,
    pub random_examples: bool,
    pub cut: bool,
    pub foreign_patterns: bool,
}

/// A place in one of the loaded documents: the file's index and a JSON pointer (`/paths/…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    pub file: usize,
    pub pointer: String,
}

/// A node of a loaded document, addressed by its place; cheap to clone.
#[derive(Clone)]
pub struct Node {
    doc: Arc<Value>,
    pub place: Place,
}

static NULL: Value = Value::Null;

impl Node {
    pub fn value(&self) -> &Value {
        lookup(&self.doc, &self.place.pointer).unwrap_or(&NULL)
    }

    /// The node under `key` (an object key or an array index).
    pub fn child(&self, key: &str) -> Node {
        Node {
            doc: self.doc.clone(),
            place: Place {
                file: self.place.file,
                pointer: super::naming::child(&self.place.pointer, key),
            },
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.value().get(key)
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    /// The children of an array node.
    pub fn items(&self) -> Vec<Node> {
        let n = self.value().as_array().map_or(0, Vec::len);
        (0..n).map(|i| self.child(&i.to_string())).collect()
    }

    /// The (key, child) pairs of an object node, in document order.
    pub fn entries(&self) -> Vec<(String, Node)> {
        self.value().as_object().map_or_else(Vec::new, |m| {
            m.keys().map(|k| (k.clone(), self.child(k))).collect()
        })
    }

    /// The last pointer segment: a component's name for `#/components/schemas/Pet`.
    pub fn name(&self) -> String {
        unescape(self.place.pointer.rsplit('/').next().unwrap_or_default())
    }
}

/// `rest.split('/')` by bytes: `str::split` costs more per segment than a short segment takes
/// to scan.
fn segments(rest: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    std::iter::from_fn(move || {
        let tail = rest.get(start..)?;
        let end = tail.bytes().position(|b| b == b'/').unwrap_or(tail.len());
        start += end + 1;
        Some(&tail[..end])
    })
}

/// `Value::pointer` without its two string copies per segment: every node access of the
/// importer walks a pointer (12% of stripe's build). Segments with an escape (every path's, in
/// `/paths/~1pets`) are unescaped into one buffer.
fn lookup<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let Some(rest) = pointer.strip_prefix('/') else {
        return pointer.is_empty().then_some(root);
    };
    let mut unescaped = String::new();
    let mut node = root;
    for segment in segments(rest) {
        let key = if segment.as_bytes().contains(&b'~') {
            unescaped.clear();
            unescape_into(segment, &mut unescaped);
            unescaped.as_str()
        } else {
            segment
        };
        node = match node {
            Value::Object(map) => crate::json::get(map, key)?,
            Value::Array(list) => {
                // RFC 6901 array indices: no sign, no leading zero.
                if key.starts_with('+') || (key.starts_with('0') && key.len() > 1) {
                    return None;
                }
                list.get(key.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(node)
}

#[derive(Clone)]
struct File {
    path: Option<PathBuf>,
    name: String,
    doc: Arc<Value>,
    /// A file a ref names below the root that does not exist: every ref into it is read as
    /// the open schema `{}` (with one warning per file, [`Documents::missing_files`]).
    missing: bool,
}

/// A ref to a file that does not exist: the file's name and the ref's place and text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MissingRef {
    pub file: String,
    pub at: String,
    pub reference: String,
}

/// The files refs reached, shared by an import and its forks: each file is read once, and all
/// of them together count against one input limit, however many threads follow refs.
struct Loaded {
    files: Vec<File>,
    /// Bytes all referenced files may still add (the entry document is counted by its reader).
    input_left: u64,
    /// Reads that failed. Threads may read files in another order than one thread would: a
    /// failed read spends bytes without keeping the file, so which read the limit refuses
    /// can depend on that order (see [`Documents::rewind`]).
    failures: usize,
    /// Refs met to files that do not exist, by every view.
    missing: Vec<MissingRef>,
}

/// Where [`Documents::rewind`] goes back to.
pub struct LoadMark {
    files: usize,
    input_left: u64,
    failures: usize,
    missing: usize,
}

impl LoadMark {
    /// How many referenced files had been read.
    #[cfg(test)]
    pub fn files(&self) -> usize {
        self.files
    }
}

/// Every document loaded so far: the entry first, then files reached through `$ref`.
pub struct Documents {
    /// External refs must stay below this folder; `None` refuses them (in-memory documents).
    root: Option<RefRoot>,
    /// The entry, then the files this view has reached so far, in the order it reached them.
    files: Vec<File>,
    loaded: Arc<Mutex<Loaded>>,
    /// Bytes expanded schemas may still copy out of the documents, over the whole import.
    expansion_left: usize,
    expansion_limit: usize,
    /// Expansions of a `$ref`'s target, by target, depth, depth limit and whether references
    /// are kept, for the next operation that names it (large APIs name the same components
    /// hundreds of times).
    expanded: HashMap<(Place, usize, usize, u8), Arc<Expanded>>,
    /// Off only where tests compare remembered expansions with plain ones.
    remember: bool,
    /// Each response schema, by its file and `$ref` or small inline text, as made for the first
    /// operation returning it, for the next ones (`Lx::response`): a big API returns one
    /// resource from many operations (Stripe's 417 operations return 203 schemas), and the
    /// model then holds it once. Shared by every view: what a schema makes depends on its text
    /// and file alone, whichever thread makes it.
    pub(super) responses: Arc<Mutex<Responses>>,
    /// The component schemas response schemas refer to, made once for every view: the model
    /// keeps them by name (`values::schemas`).
    pub(super) components: Arc<Mutex<Components>>,
}

/// A `$ref`'s target as an `Expander` expanded it, with what the expansion spent and met, so
/// that a later expansion of the same target at the same depth can replay it exactly: only
/// when it has the nodes and stack room that expansion used, and none of the targets it
/// went through is on its own stack (that would be a cycle the first one did not meet).
struct Expanded {
    value: Value,
    nodes: usize,
    bytes: usize,
    /// How much deeper than at its start the `$ref` stack went.
    hops: usize,
    /// Every `$ref` target followed inside.
    targets: Vec<Place>,
    cut: bool,
    foreign_patterns: usize,
}

/// An `Expander`'s counters where an expansion starts: what it spent and met is the difference.
struct Mark {
    nodes_left: usize,
    expansion_left: usize,
    followed: usize,
    cycles: usize,
    budget_cuts: usize,
    cuts: usize,
    foreign_patterns: usize,
}

/// The longest chain of `$ref`s followed in one place, and the deepest nesting of `$ref`s
/// inside one expanded schema: far beyond any real document, short enough that a chain of
/// refs cannot exhaust the stack.
pub const MAX_HOPS: usize = 64;

/// How much expanded schemas may copy in all, in bytes: a multiple of the input, so that a
/// "billion laughs" of `$ref`s (each naming a large value many times) fails fast instead of
/// filling memory; real APIs expand to a small fraction of this.
pub fn expansion_limit(input_len: usize) -> usize {
    input_len.saturating_mul(16).max(32 << 20)
}

impl Documents {
    /// `path` is where the entry document was read from (`None` for an in-memory text).
    pub fn new(path: Option<&Path>, name: &str, doc: Value) -> Self {
        let canonical = path.and_then(|p| p.canonicalize().ok());
        Self {
            root: canonical.as_deref().and_then(RefRoot::default_for),
            files: vec![File {
                path: canonical,
                name: name.to_string(),
                doc: Arc::new(doc),
                missing: false,
            }],
            loaded: Arc::new(Mutex::new(Loaded {
                files: Vec::new(),
                input_left: crate::source::DEFAULT_MAX_INPUT_SIZE,
                failures: 0,
                missing: Vec::new(),
            })),
            expansion_left: expansion_limit(0),
            expansion_limit: expansion_limit(0),
            expanded: HashMap::new(),
            remember: true,
            responses: Arc::default(),
            components: Arc::default(),
        }
    }

    /// Sets the input limits: `max_input` bytes for the entry document (`entry_len` of them
    /// already read) and every file its refs reach together.
    pub fn with_limits(mut self, max_input: u64, entry_len: usize) -> Self {
        self.loads().input_left = max_input.saturating_sub(entry_len as u64);
        self.expansion_limit = expansion_limit(entry_len);
        self.expansion_left = self.expansion_limit;
        self
    }

    /// Lets refs reach the files below `root` instead of the default root.
    pub fn with_ref_root(mut self, root: RefRoot) -> Self {
        self.root = Some(root);
        self
    }

    /// The folder refs may reach files under, if any.
    /// The documents' values and remembered expansions, to be dropped elsewhere
    /// (`parallel::drop_aside`); a value a node still shares is dropped here instead.
    pub fn into_values(self) -> Vec<Value> {
        let docs = self.files.into_iter().map(|f| Arc::try_unwrap(f.doc));
        let expanded = self
            .expanded
            .into_values()
            .map(|e| Arc::try_unwrap(e).map(|e| e.value));
        docs.filter_map(Result::ok)
            .chain(expanded.filter_map(Result::ok))
            .collect()
    }

    /// Another view of the same documents, for an importer on another thread: the files loaded
    /// so far and the responses made (shared, not copied) and the expansion budget as it is
    /// now, with remembered expansions of its own. Its expansion spending is its own too
    /// ([`Documents::expansion_left`]); files it reads are shared with every view, and count
    /// against the one input limit.
    pub fn fork(&self) -> Self {
        Self {
            root: self.root.clone(),
            files: self.files.clone(),
            loaded: Arc::clone(&self.loaded),
            expansion_left: self.expansion_left,
            expansion_limit: self.expansion_limit,
            expanded: HashMap::new(),
            remember: self.remember,
            responses: Arc::clone(&self.responses),
            components: Arc::clone(&self.components),
        }
    }

    fn loads(&self) -> std::sync::MutexGuard<'_, Loaded> {
        // The lock is held only while a file is read and parsed, which cannot panic halfway.
        self.loaded.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The files read so far and the input budget left, to rewind to.
    pub fn load_mark(&self) -> LoadMark {
        let loaded = self.loads();
        LoadMark {
            files: loaded.files.len(),
            input_left: loaded.input_left,
            failures: loaded.failures,
            missing: loaded.missing.len(),
        }
    }

    /// Whether a read of a referenced file failed since `mark`.
    pub fn failed_since(&self, mark: &LoadMark) -> bool {
        self.loads().failures > mark.failures
    }

    /// Forgets the files read since `mark` (by this view's forks: this view reads none while
    /// they run) and gives their bytes back, so that one thread can read them again in its
    /// own order and be refused where it always was.
    pub fn rewind(&mut self, mark: LoadMark) {
        let mut loaded = self.loads();
        loaded.files.truncate(mark.files);
        loaded.input_left = mark.input_left;
        loaded.failures = mark.failures;
        loaded.missing.truncate(mark.missing);
        // Made while files were read in another order: one may hold `{}` for a file this
        // thread will read, or be refused.
        self.responses
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.components
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// The name the model keeps a component schema under (`values::schemas`): its own in the
    /// entry document, `file#name` in another file (a whole file: its name). `None` where
    /// `place` is no component (or in a file that does not exist). Two places of one name (an
    /// entry component named like another file) are one schema, the first made.
    pub fn component_name(&self, place: &Place) -> Option<String> {
        // A file that is not there expands to `{}`, reported once, as it always has.
        if self.files[place.file].missing {
            return None;
        }
        let name = self.source_name(place)?;
        Some(match place.file {
            0 => name,
            _ if place.pointer.is_empty() => self.files[place.file].name.clone(),
            _ => format!("{}#{name}", self.files[place.file].name),
        })
    }

    /// The component schemas made, sorted by name, with each one's name, where it is
    /// (`file#/pointer`, as diagnostics name places) and what making it met. A component being
    /// made when its maker failed is `{}`; one that only refers back to itself is the cycle's
    /// description.
    pub(super) fn take_components(&self) -> (Schemas, Vec<(String, String, Met)>) {
        let table = std::mem::take(
            &mut *self
                .components
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        let mut list: Vec<(String, Component)> = table.into_iter().collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        let made = list
            .iter()
            .map(|(name, c)| (name.clone(), c.at.clone(), c.met))
            .collect();
        let schemas = list.into_iter().map(|(name, c)| {
            let schema = c
                .schema
                .unwrap_or_else(|| Arc::new(Value::Object(Map::new())));
            (name, schema)
        });
        (Schemas::new(schemas).self_reference_cut(), made)
    }

    /// Every ref met so far to a file that does not exist, sorted and without repeats: the
    /// same list however many threads followed the refs.
    pub fn missing_files(&self) -> Vec<MissingRef> {
        let mut list = self.loads().missing.clone();
        list.sort();
        list.dedup();
        list
    }

    /// Whether expansions are remembered (off only where tests compare them with plain ones).
    pub fn remembers(&self) -> bool {
        self.remember
    }

    /// Bytes expanded schemas may still copy.
    pub fn expansion_left(&self) -> usize {
        self.expansion_left
    }

    /// Counts `bytes` that forks copied into expanded schemas (at most what is left).
    pub fn spend(&mut self, bytes: usize) {
        self.expansion_left = self.expansion_left.saturating_sub(bytes);
    }

    /// Counts `bytes` copied into an expanded schema; an error once the import's budget is spent.
    fn spend_expansion(&mut self, bytes: usize, at: &Place) -> Result<(), Diagnostic> {
        match self.expansion_left.checked_sub(bytes) {
            Some(left) => {
                self.expansion_left = left;
                Ok(())
            }
            None => Err(Diagnostic::new(Code::OpenapiRef, format!(
                "{}: expanding `$ref`s copies more than {} MB of schemas; refusing to expand further (a `$ref` bomb?)",
                self.describe(at),
                self.expansion_limit >> 20
            ))
            .help("refer to large values (enums, defaults) from fewer places, or import fewer operations with --include")),
        }
    }

    pub fn root(&self) -> Node {
        self.node(Place {
            file: 0,
            pointer: String::new(),
        })
    }

    pub fn node(&self, place: Place) -> Node {
        Node {
            doc: self.files[place.file].doc.clone(),
            place,
        }
    }

    /// A component's name: the last pointer segment, or the file's stem for a whole file.
    pub fn name(&self, place: &Place) -> String {
        if place.pointer.is_empty() {
            let file = &self.files[place.file].name;
            let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
            return base.split('.').next().unwrap_or(base).to_string();
        }
        self.node(place.clone()).name()
    }

    /// The name the source gave the schema at `place`: a component's
    /// (`#/components/schemas/<name>`, Swagger's `#/definitions/<name>`) or a whole referenced
    /// file's (`pet.yaml`: `pet`).
    pub fn source_name(&self, place: &Place) -> Option<String> {
        let pointer = place.pointer.as_str();
        if pointer.is_empty() {
            return (place.file > 0).then(|| self.name(place));
        }
        let name = ["/components/schemas/", "/definitions/"]
            .iter()
            .find_map(|prefix| pointer.strip_prefix(prefix))?;
        (!name.is_empty() && !name.contains('/')).then(|| unescape(name))
    }

    /// `file#/pointer`, as every import diagnostic names a place.
    pub fn describe(&self, place: &Place) -> String {
        format!("{}#{}", self.files[place.file].name, place.pointer)
    }

    /// Follows `$ref` chains until a node that is not a reference.
    pub fn deref(&mut self, node: Node) -> Result<Node, Diagnostic> {
        let start = node.place.clone();
        let mut node = node;
        let mut seen: Vec<Place> = Vec::new();
        while let Some(target) = self.ref_target(&node)? {
            if seen.contains(&target) || seen.len() >= MAX_HOPS {
                return Err(Diagnostic::new(
                    Code::OpenapiRef,
                    format!(
                        "{}/$ref: the `$ref` chain from here is circular (it comes back to {})",
                        self.describe(&start),
                        self.describe(&target)
                    ),
                ));
            }
            seen.push(target.clone());
            node = self.node(target);
        }
        Ok(node)
    }

    /// Where the node's `$ref` points, if it is a reference.
    pub fn ref_target(&mut self, node: &Node) -> Result<Option<Place>, Diagnostic> {
        match node.get("$ref") {
            Some(Value::String(r)) => {
                let r = r.clone();
                self.resolve(&r, &node.place).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// Resolves one `$ref` string written at `from`.
    pub fn resolve(&mut self, reference: &str, from: &Place) -> Result<Place, Diagnostic> {
        let at = |this: &Self| format!("{}/$ref", this.describe(from));
        let (file_part, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let remote = file_part.contains("://") || file_part.starts_with("//");
        if remote {
            return Err(Diagnostic::new(
                Code::OpenapiRef,
                format!(
                    "{}: `{reference}` is a network reference; remote refs are refused",
                    at(self)
                ),
            )
            .help("download the file next to the document and refer to it by a relative path"));
        }
        let file = if file_part.is_empty() {
            from.file
        } else {
            self.load(&percent_decode(file_part), from, reference)?
        };
        let fragment = percent_decode(fragment);
        if !fragment.is_empty() && !fragment.starts_with('/') {
            return Err(Diagnostic::new(
                Code::OpenapiRef,
                format!(
                    "{}: `{reference}` uses a plain-name fragment; only JSON-pointer refs (`#/…`) are supported",
                    at(self)
                ),
            ));
        }
        if self.files[file].missing {
            return Ok(Place {
                file,
                pointer: String::new(),
            });
        }
        if lookup(&self.files[file].doc, &fragment).is_none() {
            return Err(Diagnostic::new(
                Code::OpenapiRef,
                format!(
                    "{}: `$ref` `{reference}` points to nothing (no {} in {})",
                    at(self),
                    if fragment.is_empty() { "/" } else { &fragment },
                    self.files[file].name
                ),
            )
            .help("fix the reference or add the missing definition"));
        }
        Ok(Place {
            file,
            pointer: fragment,
        })
    }

    /// Loads a file named by a ref, relative to the referring file, confined to the root folder.
    fn load(&mut self, relative: &str, from: &Place, reference: &str) -> Result<usize, Diagnostic> {
        let at = format!("{}/$ref", self.describe(from));
        let (Some(root), Some(base)) = (&self.root, &self.files[from.file].path) else {
            return Err(Diagnostic::new(
                Code::OpenapiRef,
                format!(
                    "{at}: `{reference}` refers to another file, but this document was not read from a folder"
                ),
            ));
        };
        let dir = base.parent().unwrap_or(&root.dir);
        let wanted = dir.join(relative);
        let path = match confine(&root.dir, dir, Path::new(relative)) {
            Err(Refusal::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(self.missing(&wanted, at, reference));
            }
            other => other,
        };
        let path = path.map_err(|refusal| match refusal {
            Refusal::Leaves => Diagnostic::new(Code::OpenapiRef, format!(
                "{at}: `{reference}` leaves {}, {}; refs may only reach files below it",
                root.dir.display(),
                root.what()
            ))
            .help(match root.kind {
                RootKind::Given => {
                    "pass a --ref-root DIR that holds the file too (refs never leave DIR, nor follow a symlink out of it)"
                }
                _ => {
                    "pass --ref-root DIR to allow refs to every file below DIR (refs never leave DIR, nor follow a symlink out of it)"
                }
            }),
            Refusal::Io(e) => Diagnostic::new(Code::OpenapiRef, format!(
                "{at}: `{reference}` names {}, which cannot be read: {}",
                wanted.display(),
                crate::diag::io_reason(&e)
            )),
        })?;
        // Only a regular file is opened: opening a FIFO blocks until something writes to it
        // (the import hung until the time limit), and a device or folder is no document.
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(self.missing(&wanted, at, reference));
            }
            Ok(m) => {
                return Err(Diagnostic::new(
                    Code::OpenapiRef,
                    format!(
                        "{at}: `{reference}` names {}, which is {}, not a regular file; refs may only name files",
                        wanted.display(),
                        file_kind(&m.file_type())
                    ),
                ));
            }
            Err(e) => {
                return Err(Diagnostic::new(
                    Code::OpenapiRef,
                    format!(
                        "{at}: `{reference}` names {}, which cannot be read: {}",
                        wanted.display(),
                        crate::diag::io_reason(&e)
                    ),
                ));
            }
        }
        if let Some(i) = self
            .files
            .iter()
            .position(|f| f.path.as_ref() == Some(&path))
        {
            return Ok(i);
        }
        // Named from the entry document's folder, as the entry's own refs name it.
        let entry_dir = self.files[0]
            .path
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(&root.dir);
        let name = relative_name(&path, entry_dir);
        let file = self.read(path, name, &at, reference)?;
        self.files.push(file);
        Ok(self.files.len() - 1)
    }

    /// A file a ref names inside the root that does not exist (`wanted`, the ref's path as
    /// written joined to the referring file's folder): its stand-in, and the ref recorded.
    fn missing(&mut self, wanted: &Path, at: String, reference: &str) -> usize {
        let path = lexical(wanted);
        let entry_dir = self.files[0]
            .path
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""));
        let name = relative_name(&path, entry_dir);
        self.loads().missing.push(MissingRef {
            file: name.clone(),
            at,
            reference: reference.to_string(),
        });
        if let Some(i) = self
            .files
            .iter()
            .position(|f| f.missing && f.path.as_ref() == Some(&path))
        {
            return i;
        }
        self.files.push(File {
            path: Some(path),
            name,
            doc: Arc::new(Value::Object(Map::new())),
            missing: true,
        });
        self.files.len() - 1
    }

    /// The file at `path` (canonical, confined), as another view read it or read now.
    fn read(
        &self,
        path: PathBuf,
        name: String,
        at: &str,
        reference: &str,
    ) -> Result<File, Diagnostic> {
        let mut loaded = self.loads();
        if let Some(file) = loaded.files.iter().find(|f| f.path.as_ref() == Some(&path)) {
            return Ok(file.clone());
        }
        let read = crate::source::read_limited(&path, loaded.input_left)
            .map_err(|d| Diagnostic::new(Code::OpenapiRef, format!("{at}: {}", d.message)))
            .and_then(|text| {
                loaded.input_left = loaded.input_left.saturating_sub(text.len() as u64);
                load::parse_text(&text, &name).map_err(|d| Diagnostic {
                    span: None,
                    message: crate::diag::printable(format!("{at}: `{reference}`: {}", d.message)),
                    ..d
                })
            });
        let doc = read.inspect_err(|_| loaded.failures += 1)?;
        let file = File {
            path: Some(path),
            name,
            doc: Arc::new(doc),
            missing: false,
        };
        loaded.files.push(file.clone());
        Ok(file)
    }
}

/// `path` as seen from the folder `from` (both canonical): below it, the names under it as
/// always; elsewhere with a `..` per folder to climb (`../../common-types/types.json`).
fn relative_name(path: &Path, from: &Path) -> String {
    let common = from
        .ancestors()
        .find(|a| path.starts_with(a))
        .unwrap_or(Path::new(""));
    let ups = from.components().count() - common.components().count();
    let mut out = PathBuf::new();
    for _ in 0..ups {
        out.push("..");
    }
    out.push(path.strip_prefix(common).unwrap_or(path));
    out.display().to_string()
}

/// What a file that is not a regular file is, for the refusal.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

/// A ref's file part or fragment with its `%XX` escapes decoded (RFC 3986); left as written
/// when the bytes decoded are not UTF-8.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map_or_else(|_| s.to_string(), std::borrow::Cow::into_owned)
}

/// Limits that keep an expanded schema readable and bounded on huge APIs.
pub const MAX_SCHEMA_DEPTH: usize = 5;
pub const MAX_SCHEMA_NODES: usize = 200;
/// Schema descriptions are kept this many levels deep, shortened to `DESCRIPTION_MAX`.
pub const MAX_DESCRIBED_DEPTH: usize = 1;
pub const DESCRIPTION_MAX: usize = 200;

/// Keywords whose value is one schema.
const SCHEMA_KEYS: [&str; 11] = [
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value maps names to schemas.
const SCHEMA_MAP_KEYS: [&str; 4] = [
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];
/// Keywords whose value is a list of schemas.
const SCHEMA_LIST_KEYS: [&str; 4] = ["allOf", "oneOf", "anyOf", "prefixItems"];
/// Documentation and tooling keywords left out of an agent-facing schema.
const DROPPED_KEYS: [&str; 9] = [
    "example",
    "examples",
    "xml",
    "externalDocs",
    "discriminator",
    "readOnly",
    "writeOnly",
    "definitions",
    "$schema",
];

/// Inlines the `$ref`s of a schema: cycles become `{}` with a note, and nesting deeper than
/// `MAX_SCHEMA_DEPTH` or larger than `MAX_SCHEMA_NODES` is cut to `{}`.
pub struct Expander<'a> {
    pub docs: &'a mut Documents,
    stack: Vec<Place>,
    /// The deepest `stack` has been, and every target pushed on it: what a memo records.
    deepest: usize,
    followed: Vec<Place>,
    /// Cycles met and cuts for want of nodes: an expansion that met either depends on more
    /// than its target and depth, and is not remembered.
    cycles: usize,
    budget_cuts: usize,
    cuts: usize,
    nodes_left: usize,
    max_depth: usize,
    /// Whether examples and descriptions at every depth are kept (parameters and request
    /// bodies, where they are what an agent fills a value from).
    keep_docs: bool,
    /// Whether a limit cut something (the caller reports it once).
    pub cut: bool,
    /// Whether a cycle was met.
    pub circular: bool,
    /// Patterns left out because they are not ECMA-262 regular expressions.
    pub foreign_patterns: usize,
    /// Swagger 2.0 `type: file` schemas rewritten as binary strings.
    pub file_types: usize,
    /// `required` names no property has, kept as properties that take any value (`{}`),
    /// since a call must still send them (inputs and components; not `new`'s).
    pub opened_required: Vec<String>,
    /// `default`s and examples dropped because they are not values of their schema.
    pub misfit_defaults: usize,
    /// Examples left out for looking random.
    pub random_examples: usize,
    /// Whether a `$ref` to a component schema stays a reference to it, the component made once
    /// into [`Documents::components`] (response schemas), instead of being expanded.
    keep_refs: bool,
    /// The schema being expanded is a member of an `allOf`: folded into its parent, so a
    /// reference there is expanded even when `keep_refs`.
    all_of_member: bool,
    /// Components registered and not made yet, by name ([`Expander::make_components`]).
    pending: Vec<String>,
    /// An input schema's level where the walk is ([`Level`]); `None` outside inputs.
    level: Option<Level>,
}

/// The member an input expansion adds to a schema the importer reads that is a whole component
/// (a parameter's, its items', an alternative's, a body's that is not split into fields:
/// [`Level`]), holding the component's name for
/// the importer to refer to once it has read it ([`refer_to_components`]). No source schema
/// holds it: the expansion drops every `x-` member.
pub const COMPONENT_MARK: &str = "x-wellgen-component";

/// Replaces each schema marked [`COMPONENT_MARK`] with a reference to its component; returns
/// whether `v` itself was one.
pub fn refer_to_components(v: &mut Value) -> bool {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(name)) = map.get(COMPONENT_MARK) {
                let reference = format!("{}{name}", crate::values::schemas::PREFIX);
                *map = Map::from_iter([("$ref".to_string(), Value::String(reference))]);
                return true;
            }
            for child in map.values_mut() {
                refer_to_components(child);
            }
            false
        }
        Value::Array(items) => {
            for item in items {
                refer_to_components(item);
            }
            false
        }
        _ => false,
    }
}

/// Where an input schema's walk is. The importer reads a parameter's facts from its own schema
/// and from the types of its items and alternatives, so those are expanded; below them a `$ref`
/// to a component stays a reference to it, as in a response, the component made once for both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A request body, whose properties become parameters.
    Body,
    /// A parameter's own schema (an `allOf` member is folded into it, so it is one too).
    Param,
    /// An item or alternative of a parameter, whose type the importer reads.
    Facts,
    /// Below all of those: published as it is.
    Below,
}

impl Level {
    /// The level of the schema under `key`.
    fn child(self, key: &str) -> Self {
        match (self, key) {
            (level, "allOf") => level,
            (Self::Body, "properties") => Self::Param,
            (Self::Body | Self::Param, "items" | "anyOf" | "oneOf") => Self::Facts,
            (Self::Facts, "anyOf" | "oneOf") => Self::Facts,
            _ => Self::Below,
        }
    }

    /// Part of what a remembered expansion is keyed by.
    fn mode(self) -> u8 {
        2 + self as u8
    }
}

impl<'a> Expander<'a> {
    pub fn new(docs: &'a mut Documents) -> Self {
        Self {
            docs,
            stack: Vec::new(),
            deepest: 0,
            followed: Vec::new(),
            cycles: 0,
            budget_cuts: 0,
            cuts: 0,
            nodes_left: MAX_SCHEMA_NODES,
            max_depth: MAX_SCHEMA_DEPTH,
            keep_docs: false,
            cut: false,
            circular: false,
            foreign_patterns: 0,
            file_types: 0,
            opened_required: Vec::new(),
            misfit_defaults: 0,
            random_examples: 0,
            keep_refs: false,
            all_of_member: false,
            pending: Vec::new(),
            level: None,
        }
    }

    /// For response schemas: a `$ref` to a component schema stays a reference to it
    /// (`values::schemas::PREFIX`), the component made once for the whole import.
    pub fn referring(docs: &'a mut Documents) -> Self {
        Self {
            keep_refs: true,
            ..Self::new(docs)
        }
    }

    /// For parameters and request bodies, starting at `level` (a body or a parameter): deep
    /// enough for nested objects (the importer keeps `NESTED_DEPTH` levels of their properties,
    /// under `allOf`/`anyOf` wrappers), with their descriptions and examples; below the levels
    /// the importer reads ([`Level`]) a `$ref` to a component stays a reference. Its own
    /// `max_depth` keeps its memo apart from `new`'s. The importer rewrites these schemas into
    /// parameters, so it takes their marks out itself.
    pub fn input(docs: &'a mut Documents, level: Level) -> Self {
        Self {
            max_depth: 6,
            nodes_left: 4 * MAX_SCHEMA_NODES,
            keep_docs: true,
            level: Some(level),
            ..Self::new(docs)
        }
    }

    pub fn expand(&mut self, node: &Node) -> Result<Value, Diagnostic> {
        let mut v = self.schema(node, node.value(), 0)?;
        merge_all_of(&mut v);
        // After the merge: `allOf` members may bring the properties a `required` names. An
        // input or a component keeps them: a call that leaves one out is refused.
        let mut done = Rewrites::default();
        rewrite(&mut v, &mut done, self.keep_docs || self.keep_refs);
        self.file_types += done.files;
        self.opened_required.append(&mut done.opened);
        self.misfit_defaults += done.defaults;
        self.random_examples += done.random;
        Ok(v)
    }

    /// `value` is `node.value()`, passed along so that no pointer is walked twice.
    fn schema(&mut self, node: &Node, value: &Value, depth: usize) -> Result<Value, Diagnostic> {
        let all_of_member = std::mem::take(&mut self.all_of_member);
        if let Some(Value::String(r)) = value.field("$ref") {
            let target = self.docs.resolve(r, &node.place)?;
            let name = self.docs.component_name(&target).filter(|_| !all_of_member);
            let refer = self.keep_refs || self.level == Some(Level::Below);
            if let Some(name) = name.as_ref().filter(|_| refer) {
                return self.component(target, name.clone());
            }
            // A parameter, item or alternative that is a whole component is expanded for the
            // facts the importer reads, then refers to the component, made for it: marked
            // here, outside `follow`'s memo, so that a remembered expansion registers it too.
            let whole = name.filter(|_| self.level.is_some_and(|l| l != Level::Below));
            if self.stack.contains(&target) {
                self.circular = true;
                self.cycles += 1;
                return Ok(circular(&self.docs.name(&target)));
            }
            if self.stack.len() >= MAX_HOPS {
                return Err(Diagnostic::new(
                    Code::OpenapiRef,
                    format!(
                        "{}/$ref: `$ref`s nest more than {MAX_HOPS} deep here; refusing to follow further",
                        self.docs.describe(&node.place)
                    ),
                ));
            }
            let Some(name) = whole else {
                return self.follow(target, depth);
            };
            let mut value = self.follow(target.clone(), depth)?;
            // A body of fields is split into parameters, none of them the component, and a
            // closed object with none is no body.
            let fields = |o: &Map<String, Value>| {
                o.contains_key("properties")
                    || o.contains_key("allOf")
                    || o.get("additionalProperties") == Some(&Value::Bool(false))
            };
            let split = self.level == Some(Level::Body);
            if let Some(object) = value
                .as_object_mut()
                .filter(|o| !(o.is_empty() || split && fields(o)))
            {
                self.component(target, name.clone())?;
                object.shift_insert(0, COMPONENT_MARK.into(), Value::String(name));
            }
            return Ok(value);
        }
        let Some(object) = value.as_object() else {
            // `true`/`false` schemas of 3.1, or junk: keep booleans, drop the rest.
            return Ok(match value {
                Value::Bool(b) => Value::Bool(*b),
                _ => Value::Object(Map::new()),
            });
        };
        if depth > self.max_depth || self.nodes_left == 0 {
            self.cut = true;
            self.cuts += 1;
            self.budget_cuts += usize::from(depth <= self.max_depth);
            return Ok(Value::Object(Map::new()));
        }
        self.nodes_left -= 1;
        self.docs.spend_expansion(64, &node.place)?;
        let mut out = Map::with_capacity(object.len());
        let here = self.level;
        for (key, sub) in object {
            self.level = here.map(|l| l.child(key));
            // Examples are what an agent fills a value from: an input and a component keep
            // them, as JSON Schema's `examples` (`rewrite` leaves out the random-looking ones).
            let doc = (self.keep_docs || self.keep_refs)
                && matches!(key.as_str(), "example" | "examples");
            if (DROPPED_KEYS.contains(&key.as_str()) && !doc) || key.starts_with("x-") {
                continue;
            }
            // `example` beside a list of `examples`, or `examples` that are not a list.
            if doc
                && match key.as_str() {
                    "example" => object.get("examples").is_some_and(Value::is_array),
                    _ => !sub.is_array(),
                }
            {
                continue;
            }
            // The child's pointer is built only where the walk goes down: most keys are leaves.
            let value = if SCHEMA_KEYS.contains(&key.as_str()) && sub.is_object() {
                self.schema(&node.child(key), sub, depth + 1)?
            } else if SCHEMA_MAP_KEYS.contains(&key.as_str()) && sub.is_object() {
                let child = node.child(key);
                let mut map = Map::with_capacity(sub.as_object().map_or(0, Map::len));
                for (name, s) in sub.as_object().into_iter().flatten() {
                    map.insert(name.clone(), self.schema(&child.child(name), s, depth + 1)?);
                }
                Value::Object(map)
            } else if (SCHEMA_LIST_KEYS.contains(&key.as_str()) || key == "items") && sub.is_array()
            {
                let child = node.child(key);
                let mut list = Vec::with_capacity(sub.as_array().map_or(0, Vec::len));
                for (i, s) in sub.as_array().into_iter().flatten().enumerate() {
                    self.all_of_member = key == "allOf";
                    list.push(self.schema(&child.child(&i.to_string()), s, depth + 1)?);
                }
                Value::Array(list)
            } else if key == "description" {
                // Descriptions are most of a big API's bulk: kept short, and only near the top.
                match sub.as_str() {
                    // Whole, for the importer to reduce to plain text and summarise.
                    Some(d) if self.keep_docs => Value::String(d.to_string()),
                    Some(d) if depth <= MAX_DESCRIBED_DEPTH => {
                        Value::String(super::naming::shorten(d, DESCRIPTION_MAX).0)
                    }
                    _ => continue,
                }
            } else if key == "pattern" && !sub.as_str().is_some_and(crate::text::is_portable_regex)
            {
                // JSON Schema regexes are ECMA-262: a pattern in another dialect would make
                // every generated document that carries the schema invalid, and one with
                // `\p{L}` unreadable to Python's validators.
                self.foreign_patterns += 1;
                continue;
            } else {
                self.docs
                    .spend_expansion(size_at_most(sub, self.docs.expansion_left), &node.place)?;
                sub.clone()
            };
            if doc && key == "example" {
                out.insert("examples".into(), Value::Array(vec![value]));
                continue;
            }
            out.insert(key.clone(), value);
        }
        self.level = here;
        normalise_30(&mut out);
        Ok(Value::Object(out))
    }

    /// A reference to the component at `target`; one no view has met yet is registered and
    /// left for [`Expander::make_components`], so that a chain of components is made one
    /// after the other, never nested on the stack.
    fn component(&mut self, target: Place, name: String) -> Result<Value, Diagnostic> {
        let reference = Value::Object(Map::from_iter([(
            "$ref".to_string(),
            Value::String(format!("{}{name}", crate::values::schemas::PREFIX)),
        )]));
        let mut table = self
            .docs
            .components
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !table.contains_key(&name) {
            let component = Component {
                at: self.docs.describe(&target),
                place: target,
                schema: None,
                met: Met::default(),
            };
            table.insert(name.clone(), component);
            self.pending.push(name);
        }
        Ok(reference)
    }

    /// What the expansions since the counters were last reset rewrote or cut.
    pub fn met(&self) -> Met {
        Met {
            misfit_defaults: self.misfit_defaults > 0,
            file_types: self.file_types > 0,
            opened_required: !self.opened_required.is_empty(),
            random_examples: self.random_examples > 0,
            cut: self.cut,
            foreign_patterns: self.foreign_patterns > 0,
        }
    }

    /// Makes the components registered by the expansions so far, and those they refer to in
    /// turn: each expanded as a whole response schema is, from depth 0 with a budget and
    /// counters of its own, what it met kept to be reported once, at the component. Whichever
    /// expansion met a component first (a response's or an input's, on any import thread),
    /// it is made the same way: one component serves both sides.
    pub fn make_components(&mut self) -> Result<(), Diagnostic> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let input = (self.keep_docs, self.max_depth, self.level);
        (self.keep_docs, self.max_depth, self.level) = (false, MAX_SCHEMA_DEPTH, None);
        let keep_refs = std::mem::replace(&mut self.keep_refs, true);
        let made = self.make_pending();
        (self.keep_docs, self.max_depth, self.level) = input;
        self.keep_refs = keep_refs;
        made
    }

    fn make_pending(&mut self) -> Result<(), Diagnostic> {
        while let Some(name) = self.pending.pop() {
            let Some(target) = self
                .docs
                .components
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&name)
                .map(|c| c.place.clone())
            else {
                continue;
            };
            self.nodes_left = MAX_SCHEMA_NODES;
            self.cut = false;
            self.foreign_patterns = 0;
            self.file_types = 0;
            self.opened_required.clear();
            self.misfit_defaults = 0;
            self.random_examples = 0;
            let mut schema = self.expand(&self.docs.node(target))?;
            let met = self.met();
            let shaped = super::schema::toml_shape(&mut schema) && schema.is_object();
            let schema = if shaped {
                schema
            } else {
                Value::Object(Map::new())
            };
            if let Some(c) = self
                .docs
                .components
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_mut(&name)
            {
                c.schema = Some(Arc::new(schema));
                c.met = met;
            }
        }
        Ok(())
    }

    /// A `$ref`'s target, expanded or replayed from an earlier expansion of it.
    fn follow(&mut self, target: Place, depth: usize) -> Result<Value, Diagnostic> {
        let mode = self.level.map_or(u8::from(self.keep_refs), Level::mode);
        let key = (target, depth, self.max_depth, mode);
        if let Some(memo) = self
            .docs
            .expanded
            .get(&key)
            .cloned()
            .filter(|_| self.docs.remember)
            && memo.nodes <= self.nodes_left
            && self.stack.len() + memo.hops < MAX_HOPS
            && !memo.targets.iter().any(|t| self.stack.contains(t))
            // Where the budget runs out, plain expansion fails at the node it runs out on.
            && memo.bytes <= self.docs.expansion_left
        {
            self.docs.spend_expansion(memo.bytes, &key.0)?;
            self.nodes_left -= memo.nodes;
            self.deepest = self.deepest.max(self.stack.len() + memo.hops);
            self.followed.extend(memo.targets.iter().cloned());
            if memo.cut {
                self.cut = true;
                self.cuts += 1;
            }
            self.foreign_patterns += memo.foreign_patterns;
            return Ok(memo.value.clone());
        }
        let (target, ..) = &key;
        let before = Mark {
            nodes_left: self.nodes_left,
            expansion_left: self.docs.expansion_left,
            followed: self.followed.len(),
            cycles: self.cycles,
            budget_cuts: self.budget_cuts,
            cuts: self.cuts,
            foreign_patterns: self.foreign_patterns,
        };
        let outer_deepest = std::mem::replace(&mut self.deepest, self.stack.len());
        let start = self.stack.len();
        self.stack.push(target.clone());
        self.followed.push(target.clone());
        self.deepest = self.deepest.max(self.stack.len());
        let node = self.docs.node(target.clone());
        let out = self.schema(&node, node.value(), depth);
        self.stack.pop();
        let hops = self.deepest - start;
        self.deepest = self.deepest.max(outer_deepest);
        let value = out?;
        if self.docs.remember
            && self.cycles == before.cycles
            && self.budget_cuts == before.budget_cuts
        {
            let mut targets = self.followed[before.followed..].to_vec();
            targets.sort_by(|a, b| (a.file, &a.pointer).cmp(&(b.file, &b.pointer)));
            targets.dedup();
            let memo = Expanded {
                value: value.clone(),
                nodes: before.nodes_left - self.nodes_left,
                bytes: before.expansion_left - self.docs.expansion_left,
                hops,
                targets,
                cut: self.cuts > before.cuts,
                foreign_patterns: self.foreign_patterns - before.foreign_patterns,
            };
            self.docs.expanded.insert(key, Arc::new(memo));
        }
        Ok(value)
    }
}

pub(super) use crate::values::schemas::size_at_most;

/// OpenAPI 3.0 / Swagger keywords rewritten into JSON Schema 2020-12: `nullable` and the
/// boolean `exclusiveMinimum`/`exclusiveMaximum`.
fn normalise_30(schema: &mut Map<String, Value>) {
    // Most schemas have none of these: a look at the keys costs less than three lookups.
    let keys = ["nullable", "exclusiveMinimum", "exclusiveMaximum"];
    if !schema.keys().any(|k| keys.contains(&k.as_str())) {
        return;
    }
    if let Some(Value::Bool(nullable)) = schema.remove("nullable")
        && nullable
        && let Some(Value::String(t)) = schema.get("type").cloned()
    {
        schema.insert("type".into(), Value::from(vec![t, "null".to_string()]));
    }
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(Value::Bool(exclusive)) = schema.get(flag).cloned() {
            schema.remove(flag);
            if exclusive && let Some(b) = schema.remove(bound) {
                schema.insert(flag.into(), b);
            }
        }
    }
}

/// What [`json_schema_only`] rewrote, everywhere in a schema.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rewrites {
    /// Swagger 2.0's `type: file`, now a binary string.
    pub files: usize,
    /// `required` names no property has, dropped.
    pub required: usize,
    /// `required` names no property has, given one that takes any value (inputs only).
    pub opened: Vec<String>,
    /// `default`s and examples that are not values of their schema, dropped (`fit`).
    pub defaults: usize,
    /// Examples that only look random, left out: the credential check would refuse them.
    pub random: usize,
}

/// Rewrites what OpenAPI allows in a schema but JSON Schema validators refuse: Swagger 2.0's
/// `type: file` becomes a binary string; `required` names that no property has are dropped
/// when the schema lists its properties and does not allow others (a `required` that can never
/// be met, or one naming a property the document forgot); a `default` that is not a value of
/// its schema is converted when it spells one (`"10"` for an integer) and dropped otherwise.
pub fn json_schema_only(schema: &mut Value) -> Rewrites {
    let mut done = Rewrites::default();
    rewrite(schema, &mut done, false);
    done
}

/// `open_required`: a `required` name no property has gets a property that takes any value
/// (`{}`) instead of being dropped, as an input schema needs (the call must send it).
fn rewrite(schema: &mut Value, done: &mut Rewrites, open_required: bool) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    // A whole component an input expanded for its facts is rewritten alike, but what is met
    // there is the component's to report, once, where the import makes it: not at each input.
    // The mark is its first member.
    let mut its_own = Rewrites::default();
    let done = match object.keys().next() {
        Some(k) if k == COMPONENT_MARK => &mut its_own,
        _ => done,
    };
    // One pass over the members notes what the rewrites below need: most schemas need none,
    // and looking each keyword up (a hash of it) cost more than the walk.
    let (mut file_type, mut listed, mut names, mut default) = (false, false, false, false);
    let mut examples = false;
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        each_subschema(key, value, |child| rewrite(child, done, open_required));
        examples |= key == "examples";
        match (key, &*value) {
            ("type", Value::String(t)) => file_type = t == "file",
            ("type", Value::Array(ts)) => file_type = ts.iter().any(|t| t == "file"),
            ("properties", Value::Object(_)) => listed = true,
            ("required", Value::Array(_)) => names = true,
            ("default", _) => default = true,
            _ => {}
        }
    }
    if examples {
        fit_examples(object, done);
    }
    if !(file_type || listed && names || default) {
        return;
    }
    match object.get_mut("type") {
        Some(t @ Value::String(_)) if t == "file" => {
            *t = Value::String("string".into());
            object.insert("format".into(), Value::String("binary".into()));
            done.files += 1;
        }
        Some(Value::Array(ts)) if ts.iter().any(|t| t == "file") => {
            for t in ts.iter_mut().filter(|t| *t == "file") {
                *t = Value::String("string".into());
            }
            ts.dedup();
            object.insert("format".into(), Value::String("binary".into()));
            done.files += 1;
        }
        _ => {}
    }
    if open_required
        && let (Some(Value::Object(_)), Some(Value::Array(names))) =
            (object.get("properties"), object.get("required"))
    {
        let names: Vec<String> = names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        if let Some(Value::Object(props)) = object.get_mut("properties") {
            for name in names {
                if !props.contains_key(&name) {
                    props.insert(name.clone(), Value::Object(Map::new()));
                    done.opened.push(name);
                }
            }
        }
    }
    let others_allowed = matches!(
        object.get("additionalProperties"),
        Some(Value::Bool(true) | Value::Object(_))
    );
    if !others_allowed
        && let (Some(Value::Object(props)), Some(Value::Array(names))) =
            (object.get("properties"), object.get("required"))
        // An empty list goes too, as it always has.
        && (names.is_empty()
            || !names
                .iter()
                .all(|n| n.as_str().is_some_and(|n| props.contains_key(n))))
    {
        let kept: Vec<Value> = names
            .iter()
            .filter(|n| n.as_str().is_some_and(|n| props.contains_key(n)))
            .cloned()
            .collect();
        done.required += names.len() - kept.len();
        if kept.is_empty() {
            object.remove("required");
        } else {
            object.insert("required".into(), Value::Array(kept));
        }
    }
    // After the rewrites above: a file default is checked against the binary string.
    if default && super::fit::fit_default(object) == super::fit::Fitted::Dropped {
        done.defaults += 1;
    }
}

/// Leaves out the examples of `schema` that only look random (the credential check would
/// refuse them) and those that are not values of it (an agent would send them).
fn fit_examples(schema: &mut Map<String, Value>, done: &mut Rewrites) {
    let Some(Value::Array(list)) = schema.get_mut("examples") else {
        return;
    };
    let mut list = std::mem::take(list);
    let before = list.len();
    list.retain(|v| !super::schema::entropy_only(v));
    done.random += before - list.len();
    let random = list.len();
    // A `$ref` inside an example is a reference the source meant to an Example Object, never a
    // value: every reader that resolves references would look for it.
    list.retain(|v| !holds_reference(v) && super::fit::fits(v, schema));
    done.defaults += random - list.len();
    if list.is_empty() {
        schema.shift_remove("examples");
    } else {
        schema.insert("examples".into(), Value::Array(list));
    }
}

/// Whether `v` holds an object with a `$ref` member, at any depth.
fn holds_reference(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("$ref") || m.values().any(holds_reference),
        Value::Array(a) => a.iter().any(holds_reference),
        _ => false,
    }
}

/// Whether a later `allOf` member's property schema narrows an earlier one's to one of its
/// types (OpenAI's `top_logprobs`: `integer | null`, then `integer`): both hold, so the later
/// one's type is the property's.
fn narrows(later: &Value, first: &Value) -> bool {
    let (Some(Value::String(t)), Some(types)) =
        (later.get("type"), super::schema::json_types(first))
    else {
        return false;
    };
    types.len() > 1 && types.contains(t)
}

/// Calls `f` on each schema inside member `key` of a schema: the member itself, each value of a
/// map of schemas, or each item of a list of schemas.
fn each_subschema(key: &str, value: &mut Value, mut f: impl FnMut(&mut Value)) {
    if SCHEMA_KEYS.contains(&key) || key == "items" && value.is_object() {
        f(value);
    } else if SCHEMA_MAP_KEYS.contains(&key) {
        value
            .as_object_mut()
            .into_iter()
            .flatten()
            .for_each(|(_, v)| f(v));
    } else if SCHEMA_LIST_KEYS.contains(&key) || key == "items" {
        value.as_array_mut().into_iter().flatten().for_each(f);
    }
}

/// Folds `allOf` members into their parent (properties and `required` united), everywhere in
/// an expanded schema; members that are not objects stay in `allOf`.
pub fn merge_all_of(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    // Only schema positions: a property that happens to be named `allOf` is left alone.
    let mut all_of = false;
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        all_of |= key == "allOf";
        each_subschema(key, value, merge_all_of);
    }
    // Most schemas have none: not looked up (hashed) then.
    if !all_of {
        return;
    }
    let Some(Value::Array(members)) = object.remove("allOf") else {
        return;
    };
    let mut kept = Vec::new();
    for member in members {
        let Value::Object(member) = member else {
            kept.push(member);
            continue;
        };
        for (key, value) in member {
            match (key.as_str(), object.get_mut(&key), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    for (k, v) in theirs {
                        match mine.get_mut(&k) {
                            Some(first) if narrows(&v, first) => *first = v,
                            Some(_) => {}
                            None => {
                                mine.insert(k, v);
                            }
                        }
                    }
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    for v in theirs {
                        if !mine.contains(&v) {
                            mine.push(v);
                        }
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    object.insert(key, value);
                }
            }
        }
    }
    if !kept.is_empty() {
        object.insert("allOf".into(), Value::Array(kept));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn docs(v: Value) -> Documents {
        Documents::new(None, "api.json", v)
    }

    #[test]
    fn lookup_walks_pointers_as_value_pointer_does() {
        let mut doc = json!({"a": {"b/c": [10, {"~d": 1}], "": 2, "0": 3}, "list": [1, 2]});
        // Objects larger than `json::get` scans: looked up by hash.
        for i in 0..20 {
            doc[format!("k/{i}")] = json!({"x~y": i});
        }
        for p in [
            "/k~10/x~0y",
            "/k~119/x~0y",
            "/k~120",
            "/k/1",
            "",
            "/",
            "/a",
            "/a/b~1c",
            "/a/b~1c/0",
            "/a/b~1c/1/~0d",
            "/a/",
            "/a/0",
            "/list/1",
            "/list/01",
            "/list/+1",
            "/list/2",
            "/list/x",
            "/a/b~1c/0/x",
            "a",
            "/missing",
            "/a/b~1c/1/~01d",
            "/list/-1",
        ] {
            assert_eq!(lookup(&doc, p), doc.pointer(p), "{p}");
        }
    }

    #[test]
    fn ref_escapes_decode_as_rfc_3986_says() {
        for (text, decoded) in [
            ("%2e%2e/shared.yaml", "../shared.yaml"),
            ("%2E%2E%2Fx", "../x"),
            ("/paths/~1items~1%7Bid%7D", "/paths/~1items~1{id}"),
            ("a%20b", "a b"),
            ("%c3%a9", "\u{e9}"),
            // Not an escape: kept as written.
            ("%", "%"),
            ("a%2", "a%2"),
            ("%zz", "%zz"),
            ("%%41", "%A"),
            ("%\u{e9}", "%\u{e9}"),
            // `u8::from_str_radix` takes a sign: `%+1` is not byte 1.
            ("%+1", "%+1"),
            // Not UTF-8 once decoded: the whole text is kept as written.
            ("%e9", "%e9"),
            ("x%ff%fe", "x%ff%fe"),
        ] {
            assert_eq!(percent_decode(text), decoded, "{text}");
        }
    }

    #[test]
    fn an_input_expands_what_a_plain_expansion_does_marking_the_components_it_reads() {
        let mut d = docs(json!({
            "components": {"schemas": {
                "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Owner"}},
                        "allOf": [{"$ref": "#/components/schemas/Base"}]},
                "Owner": {"type": "object", "properties": {"name": {"type": "string"}}},
                "Base": {"required": ["owner"]},
            }},
            "body": {"$ref": "#/components/schemas/Pet"},
        }));
        let body = d.root().child("body");
        let pet = Expander::new(&mut d).expand(&body).unwrap();
        assert_eq!(pet["required"], json!(["owner"]), "Base folded in: {pet}");
        // A field that is a whole component is marked with it, to refer to once it is read;
        // the body, split into fields, is not.
        let mut input = Expander::input(&mut d, Level::Body).expand(&body).unwrap();
        assert!(input.get(COMPONENT_MARK).is_none(), "{input}");
        let owner = input["properties"]["owner"].as_object_mut().unwrap();
        assert_eq!(owner.shift_remove(COMPONENT_MARK), Some(json!("Owner")));
        assert_eq!(input, pet);
    }

    #[test]
    fn an_input_refers_to_components_only_below_the_levels_the_importer_reads() {
        let mut d = docs(json!({
            "components": {"schemas": {
                "Owner": {"type": "object", "required": ["name", "id"], "properties": {
                    "name": {"type": "string", "example": "Ann"},
                    "home": {"$ref": "#/components/schemas/Address"}}},
                "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
                "Tag": {"type": "string", "enum": ["a", "b"]},
                "Base": {"type": "object", "properties": {"kind": {"$ref": "#/components/schemas/Tag"}}},
            }},
            "body": {"type": "object", "properties": {
                "owner": {"$ref": "#/components/schemas/Owner"},
                "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
                "either": {"anyOf": [{"$ref": "#/components/schemas/Tag"}, {"type": "integer"}]},
                "based": {"allOf": [{"$ref": "#/components/schemas/Base"}]},
            }},
        }));
        let body = d.root().child("body");
        let mut x = Expander::input(&mut d, Level::Body);
        let v = x.expand(&body).unwrap();
        x.make_components().unwrap();
        let refer =
            |name: &str| json!({"$ref": format!("{}{name}", crate::values::schemas::PREFIX)});
        {
            // A field's own schema, its items and its alternatives are expanded for the facts
            // the importer reads, `example` as JSON Schema's `examples`; those that are whole
            // components are marked with the name to refer to.
            let props = &v["properties"];
            assert_eq!(
                props["owner"]["properties"]["name"]["examples"],
                json!(["Ann"])
            );
            assert_eq!(props["owner"][COMPONENT_MARK], "Owner");
            assert_eq!(props["tags"]["items"]["enum"], json!(["a", "b"]));
            assert_eq!(props["tags"]["items"][COMPONENT_MARK], "Tag");
            assert_eq!(props["either"]["anyOf"][0]["type"], "string");
            // Below them a component stays a reference, an `allOf` member's fields too.
            assert_eq!(props["owner"]["properties"]["home"], refer("Address"));
            assert_eq!(props["based"]["properties"]["kind"], refer("Tag"));
            // An input opens the `required` names no property describes.
            assert_eq!(props["owner"]["properties"]["id"], json!({}));
        }
        // Once read, each marked schema becomes its reference.
        let mut tags = v["properties"]["tags"].clone();
        assert!(!refer_to_components(&mut tags));
        assert_eq!(tags["items"], refer("Tag"));
        let mut owner = v["properties"]["owner"].clone();
        assert!(refer_to_components(&mut owner));
        assert_eq!(owner, refer("Owner"));
        // Every component referred to is made once, as a response's: no examples kept that
        // look random, the `required` names opened.
        let (made, _) = d.take_components();
        let names: Vec<&str> = made.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["Address", "Owner", "Tag"]);
        let owner = made.get("Owner").unwrap();
        assert_eq!(owner["properties"]["name"]["examples"], json!(["Ann"]));
        assert_eq!(owner["properties"]["home"], refer("Address"));
        assert_eq!(owner["properties"]["id"], json!({}));
    }

    #[test]
    fn examples_are_kept_as_a_list_of_values_of_their_schema_that_do_not_look_random() {
        let token = "hBT5WZEj8ZoOv6TYJsfWq7MxTEQopZO5c4ZQ2kCm0Hk=";
        let mut d = docs(json!({
            "components": {"schemas": {"Key": {"type": "object", "properties": {
                "key": {"type": "string", "example": token},
                "id": {"type": "string", "example": "1234", "examples": ["a"]},
                "at": {"type": "string", "examples": {"one": {"value": "x"}}},
                "n": {"type": "integer", "minimum": 1, "examples": [0, 2, "3"]},
                "o": {"type": "object", "example": {"$ref": "#/components/examples/O"}},
            }}}},
            "response": {"$ref": "#/components/schemas/Key"},
        }));
        let node = d.root().child("response");
        let mut x = Expander::referring(&mut d);
        x.expand(&node).unwrap();
        x.make_components().unwrap();
        let (made, met) = d.take_components();
        let key = made.get("Key").unwrap();
        assert_eq!(key["properties"]["key"], json!({"type": "string"}));
        assert_eq!(key["properties"]["id"]["examples"], json!(["a"]));
        assert_eq!(key["properties"]["at"], json!({"type": "string"}));
        assert_eq!(key["properties"]["n"]["examples"], json!([2]));
        assert_eq!(key["properties"]["o"], json!({"type": "object"}));
        assert!(met[0].2.random_examples, "{met:?}");
        assert!(met[0].2.misfit_defaults, "{met:?}");
    }

    #[test]
    fn local_refs_resolve_and_dangling_ones_name_the_place() {
        let mut d = docs(json!({
            "a": {"$ref": "#/b"}, "b": {"$ref": "#/c"}, "c": 1, "bad": {"$ref": "#/nope"}
        }));
        let root = d.root();
        let n = d.deref(root.child("a")).unwrap();
        assert_eq!(n.value(), &json!(1));
        let err = d.deref(root.child("bad")).err().unwrap();
        assert!(
            err.message.contains("api.json#/bad/$ref"),
            "{}",
            err.message
        );
        assert!(err.message.contains("#/nope"), "{}", err.message);
    }

    #[test]
    fn circular_ref_chains_are_errors_not_hangs() {
        let mut d = docs(json!({"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}}));
        let root = d.root();
        assert!(
            d.deref(root.child("a"))
                .err()
                .unwrap()
                .message
                .contains("circular")
        );
    }

    /// Expanding with the `$ref` memo of earlier expansions gives what plain expansion gives:
    /// cycles met only from another starting point, node budgets spent by siblings, depth cuts,
    /// left-out patterns and the shallow expander all replay exactly.
    #[test]
    fn remembered_expansions_equal_fresh_ones() {
        let many: Map<String, Value> = (0..60)
            .map(|i| (format!("f{i}"), json!({"$ref": "#/C"})))
            .collect();
        let doc = json!({
            "A": {"type": "object", "properties": {"b": {"$ref": "#/B"}, "p": {"type": "string", "pattern": "(?i)x"}}},
            "B": {"type": "object", "description": "b", "properties": {"a": {"$ref": "#/A"}, "c": {"$ref": "#/C"}}},
            "C": {"type": "object", "properties": {"deep": {"$ref": "#/D"}}},
            "D": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "object",
                  "properties": {"y": {"type": "object", "properties": {"z": {"type": "object"}}}}}}}},
            "Big": {"type": "object", "properties": many},
            // R reached at the depth limit cuts X; reached from inside X, the same R meets X.
            "R": {"type": "object", "properties": {"x": {"$ref": "#/X"}}},
            "X": {"type": "object", "properties": {"r": {"$ref": "#/R"}}},
            "at5": {"properties": {"a": {"properties": {"b": {"properties": {"c": {"properties": {
                "d": {"properties": {"r": {"$ref": "#/R"}}}}}}}}}}},
            "at4": {"properties": {"a": {"properties": {"b": {"properties": {"c": {"properties": {
                "x": {"$ref": "#/X"}}}}}}}}},
            "ops": [
                {"$ref": "#/C"}, {"$ref": "#/A"}, {"$ref": "#/B"}, {"$ref": "#/Big"},
                {"type": "object", "properties": {"x": {"$ref": "#/Big"}, "y": {"$ref": "#/C"}}},
                {"type": "array", "items": {"$ref": "#/B"}}, {"$ref": "#/A"}, {"$ref": "#/D"},
                {"type": "object", "properties": {"one": {"$ref": "#/C"}, "two": {"$ref": "#/A"}}},
                {"$ref": "#/at5"}, {"$ref": "#/at4"}
            ]
        });
        let mut shared = docs(doc.clone());
        let ops = shared.root().child("ops").items();
        for shallow in [false, true, false] {
            for op in &ops {
                let expand = |d: &mut Documents| {
                    let mut x = if shallow {
                        Expander::input(d, Level::Body)
                    } else {
                        Expander::new(d)
                    };
                    let v = x.expand(op).unwrap();
                    (v, x.cut, x.circular, x.foreign_patterns)
                };
                let mut plain = docs(doc.clone());
                plain.remember = false;
                assert_eq!(
                    expand(&mut shared),
                    expand(&mut plain),
                    "{}",
                    op.place.pointer
                );
            }
        }
        assert!(shared.expanded.len() > 5, "the memo was used");
    }

    /// A replay that would overrun the expansion budget expands plainly instead, so the error
    /// names the node where the budget ran out and the budget left is the same.
    #[test]
    fn remembered_expansions_fail_where_plain_ones_do() {
        let values: Vec<String> = (0..20).map(|i| format!("{i:0>200}")).collect();
        let props: Map<String, Value> = (0..10)
            .map(|i| (format!("p{i}"), json!({"type": "string", "enum": values})))
            .collect();
        let doc = json!({
            "Big": {"type": "object", "properties": props},
            "ops": [{"$ref": "#/Big"}, {"$ref": "#/Big"}, {"$ref": "#/Big"}]
        });
        let spent = {
            let mut d = docs(doc.clone());
            let left = d.expansion_left;
            let op = d.root().child("ops").child("0");
            Expander::new(&mut d).expand(&op).unwrap();
            left - d.expansion_left
        };
        let run = |remember: bool| {
            let mut d = docs(doc.clone());
            d.remember = remember;
            d.expansion_left = spent + spent / 2;
            let ops = d.root().child("ops").items();
            ops.iter()
                .map(|op| {
                    let out = Expander::new(&mut d).expand(op).map_err(|e| e.message);
                    (out, d.expansion_left)
                })
                .collect::<Vec<_>>()
        };
        let plain = run(false);
        assert!(
            plain[1].0.is_err(),
            "the budget runs out in the second: {plain:?}"
        );
        assert_eq!(run(true), plain);
    }

    #[test]
    fn circular_schemas_expand_once() {
        let mut d = docs(json!({"Node": {"type": "object", "properties": {
            "next": {"$ref": "#/Node"}, "value": {"type": "integer", "example": 3}
        }}}));
        let root = d.root();
        let mut x = Expander::new(&mut d);
        let v = x.expand(&root.child("Node")).unwrap();
        assert!(x.circular);
        let next = &v["properties"]["next"]["properties"]["next"];
        assert!(
            next["description"].as_str().unwrap().contains("circular"),
            "{v}"
        );
        assert!(v["properties"]["value"].get("example").is_none());
    }

    #[test]
    fn required_names_only_of_listed_properties_and_never_an_empty_list() {
        let mut v = json!({"type": "object", "properties": {
            "known": {"type": "object", "properties": {"a": {}}, "required": ["a"]},
            "unknown": {"type": "object", "properties": {"a": {}}, "required": ["a", "b", 3]},
            "empty": {"type": "object", "properties": {"a": {}}, "required": []},
            "open": {"type": "object", "properties": {"a": {}}, "required": ["b"], "additionalProperties": true}
        }});
        assert_eq!(
            json_schema_only(&mut v),
            Rewrites {
                required: 2,
                ..Rewrites::default()
            }
        );
        let p = &v["properties"];
        assert_eq!(p["known"]["required"], json!(["a"]));
        assert_eq!(p["unknown"]["required"], json!(["a"]));
        assert!(p["empty"].get("required").is_none(), "{v}");
        assert_eq!(p["open"]["required"], json!(["b"]));
        // An input keeps each name, with a property that takes any value.
        let mut v = json!({"type": "object", "properties": {"a": {}}, "required": ["a", "b"]});
        let mut done = Rewrites::default();
        rewrite(&mut v, &mut done, true);
        assert_eq!(done.opened, ["b"]);
        assert_eq!(done.required, 0);
        assert_eq!(
            v,
            json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a", "b"]})
        );
    }

    #[test]
    fn all_of_is_merged_and_nullable_rewritten() {
        let mut v = json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "integer"}}, "required": ["b"]}
        ]});
        merge_all_of(&mut v);
        assert_eq!(v["required"], json!(["a", "b"]));
        assert!(v["properties"]["b"].is_object() && v.get("allOf").is_none());
        let mut m = json!({"type": "string", "nullable": true})
            .as_object()
            .unwrap()
            .clone();
        normalise_30(&mut m);
        assert_eq!(Value::Object(m), json!({"type": ["string", "null"]}));
    }

    #[test]
    fn long_ref_chains_are_errors_not_stack_overflows() {
        let mut schemas = Map::new();
        for i in 0..100_000 {
            schemas.insert(format!("C{i}"), json!({"$ref": format!("#/C{}", i + 1)}));
        }
        schemas.insert("C100000".into(), json!({"type": "string"}));
        let mut d = docs(Value::Object(schemas));
        let root = d.root();
        let err = Expander::new(&mut d).expand(&root.child("C0")).unwrap_err();
        assert!(err.message.contains("nest more than 64"), "{}", err.message);
    }

    #[test]
    fn copying_a_large_value_through_many_refs_fails_fast() {
        let big: Vec<String> = (0..20_000).map(|i| format!("value-{i:060}")).collect();
        let props: Map<String, Value> = (0..150)
            .map(|i| (format!("p{i}"), json!({"$ref": "#/Big"})))
            .collect();
        let mut d = docs(
            json!({"Big": {"type": "string", "enum": big}, "Many": {"type": "object", "properties": props}}),
        );
        let root = d.root();
        let mut failed = None;
        for _ in 0..100 {
            if let Err(e) = Expander::new(&mut d).expand(&root.child("Many")) {
                failed = Some(e);
                break;
            }
        }
        let err = failed.expect("the budget is spent");
        assert!(err.message.contains("`$ref` bomb"), "{}", err.message);
    }

    #[test]
    fn files_are_named_from_the_entry_documents_folder() {
        let from = Path::new("/r/specification/network/stable/2023-09-01");
        for (path, name) in [
            (
                "/r/specification/network/stable/2023-09-01/types.json",
                "types.json",
            ),
            (
                "/r/specification/network/stable/2023-09-01/a/b.json",
                "a/b.json",
            ),
            ("/r/specification/network/common.json", "../../common.json"),
            (
                "/r/specification/common-types/v1/types.json",
                "../../../common-types/v1/types.json",
            ),
        ] {
            assert_eq!(relative_name(Path::new(path), from), name, "{path}");
        }
    }

    #[test]
    fn network_refs_are_refused() {
        let mut d = docs(json!({"a": {"$ref": "https://example.com/x.json#/y"}}));
        let root = d.root();
        let err = d.deref(root.child("a")).err().unwrap();
        assert!(
            err.message.contains("remote refs are refused"),
            "{}",
            err.message
        );
    }

    #[test]
    fn forks_read_each_file_once_and_rewind_gives_the_bytes_back() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), r#"{"x": "aaaaaaaaaa"}"#).unwrap();
        std::fs::write(dir.path().join("b.json"), r#"{"y": "bbbbbbbbbb"}"#).unwrap();
        let entry = json!({"a": {"$ref": "a.json#/x"}, "b": {"$ref": "b.json#/y"}});
        let path = dir.path().join("api.json");
        std::fs::write(&path, entry.to_string()).unwrap();
        // Room for one of the two 20-byte files.
        let mut d = Documents::new(Some(&path), "api.json", entry.clone()).with_limits(30, 0);
        let mark = d.load_mark();
        let (mut first, mut second) = (d.fork(), d.fork());
        let (a, b) = (first.root().child("a"), second.root().child("b"));
        assert_eq!(second.deref(b).unwrap().value(), &json!("bbbbbbbbbb"));
        let again = first.root().child("b");
        assert_eq!(first.deref(again).unwrap().value(), &json!("bbbbbbbbbb"));
        let refused = |read: Result<Node, Diagnostic>, file: &str| {
            let message = read.err().expect("refused").message;
            assert!(
                message.contains(&format!("{file} is larger than")),
                "{message}"
            );
        };
        refused(first.deref(a), "a.json");
        assert!(d.failed_since(&mark));
        d.rewind(mark);
        assert!(!d.failed_since(&d.load_mark()));
        // One thread reads in document order: `a` first, then `b` is refused.
        let (a, b) = (d.root().child("a"), d.root().child("b"));
        assert_eq!(d.deref(a).unwrap().value(), &json!("aaaaaaaaaa"));
        refused(d.deref(b), "b.json");
    }
}
