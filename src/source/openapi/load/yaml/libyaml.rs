//! libyaml's event parser, as a safe iterator of owned events: wellgen's only `unsafe` code.
//!
//! The parser is the one serde_norway reads with (`unsafe-libyaml-norway`, libyaml translated
//! to Rust), so a document reads, and fails, exactly as it did; but serde_norway hands out only
//! whole documents, built from a stored list of every event. The safe parsers were tried on
//! ../shared/corpus and refuse real specifications: saphyr-parser (and yaml-rust2, whose
//! scanner it shares) applies YAML 1.2's indentation rules where libyaml does not, and refuses
//! Docker's Swagger file (docker-swagger2.yaml) and more than forty of InfluxData's files;
//! libyaml-safer panics on a block scalar at the end of a file without a final line break.
//!
//! So the crate denies `unsafe_code` (Cargo.toml's `[lints]`) and this module alone allows it,
//! for the calls serde_norway's own wrapper makes (its `libyaml/parser.rs`) and, in tests, the
//! counting allocator the reader's memory tests measure with ([`meter`]). Every `unsafe` block
//! says why it is sound (`// SAFETY:`, which clippy checks here). Nothing outside this file
//! touches a pointer: the rest of the reader sees owned [`Event`]s and [`Error`]s. The reader
//! is fuzzed (`fuzz/fuzz_targets/openapi_yaml_read.rs`, docs/fuzzing.md).
#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::ptr::NonNull;

use unsafe_libyaml_norway as unsafe_yaml;

/// A position: byte offset, and line and column from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mark {
    pub index: usize,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Mark {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "line {} column {}", self.line + 1, self.column + 1)
    }
}

impl From<unsafe_yaml::yaml_mark_t> for Mark {
    fn from(m: unsafe_yaml::yaml_mark_t) -> Self {
        Self {
            index: m.index as usize,
            line: m.line as usize,
            column: m.column as usize,
        }
    }
}

#[derive(Debug)]
pub enum Event {
    DocumentStart,
    /// Stream start, document end: nothing a value needs.
    Other,
    StreamEnd,
    Alias(String),
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        value: String,
        plain: bool,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    MappingEnd,
}

/// libyaml's error, worded as serde_norway words it (`… at line 3 column 5, while parsing a
/// block mapping at line 1 column 1`); `at` is the byte offset it is about.
#[derive(Debug)]
pub struct Error {
    pub message: String,
    pub at: usize,
}

pub struct Parser<'input> {
    /// Boxed because libyaml keeps a pointer to the parser in the parser (its read handler's
    /// data): it must not move once initialised.
    parser: NonNull<unsafe_yaml::yaml_parser_t>,
    /// libyaml reads the input through a pointer: it must outlive the parser.
    input: PhantomData<&'input [u8]>,
    /// Whether an error has been returned: libyaml's parser is not to be called after one.
    failed: bool,
}

impl<'input> Parser<'input> {
    pub fn new(input: &'input str) -> Self {
        let parser = Box::into_raw(Box::new(MaybeUninit::<unsafe_yaml::yaml_parser_t>::uninit()))
            .cast::<unsafe_yaml::yaml_parser_t>();
        // SAFETY: `parser` is a live, aligned allocation for a parser, which libyaml zeroes
        // before anything else; once initialised it is given the input, which is UTF-8, not
        // null (even when empty), `len` bytes long and borrowed for `'input`, as long as the
        // parser (`Parser<'input>`) lives. The parser never moves: it stays in its box.
        unsafe {
            if unsafe_yaml::yaml_parser_initialize(parser).fail {
                // libyaml fails here only when it cannot allocate its buffers.
                std::alloc::handle_alloc_error(
                    std::alloc::Layout::new::<unsafe_yaml::yaml_parser_t>(),
                );
            }
            unsafe_yaml::yaml_parser_set_encoding(parser, unsafe_yaml::YAML_UTF8_ENCODING);
            unsafe_yaml::yaml_parser_set_input_string(parser, input.as_ptr(), input.len() as u64);
        }
        Self {
            parser: NonNull::new(parser).expect("Box::into_raw is not null"),
            input: PhantomData,
            failed: false,
        }
    }

    /// The next event and where it starts.
    pub fn next_event(&mut self) -> Result<(Event, Mark), Error> {
        if self.failed {
            return Err(Error {
                message: "the YAML parser failed already".into(),
                at: 0,
            });
        }
        let parser = self.parser.as_ptr();
        let mut event = MaybeUninit::<unsafe_yaml::yaml_event_t>::uninit();
        // SAFETY: the parser was initialised in `new`, is not shared (`&mut self`) and has not
        // failed; `event` is writable room for an event, which libyaml zeroes before anything
        // else.
        if unsafe { unsafe_yaml::yaml_parser_parse(parser, event.as_mut_ptr()) }.fail {
            self.failed = true;
            // SAFETY: the parser failed just now, so its problem and context are set or null;
            // nothing else refers to it while the error is copied.
            return Err(unsafe { error(&*parser) });
        }
        // SAFETY: libyaml returned success, so it wrote a whole event.
        let event = unsafe { event.assume_init_mut() };
        // SAFETY: the event was filled by a successful parse and is deleted only below.
        let converted = unsafe { convert(event) };
        let start = Mark::from(event.start_mark);
        // SAFETY: the event's strings were copied out (`convert` keeps no pointer) and it is
        // deleted once; it is not read after.
        unsafe { unsafe_yaml::yaml_event_delete(event) };
        converted.map(|e| (e, start))
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        let parser = self.parser.as_ptr();
        // SAFETY: the parser was initialised in `new` and is deleted once, then its box freed
        // as the `MaybeUninit` it was allocated as.
        unsafe {
            unsafe_yaml::yaml_parser_delete(parser);
            drop(Box::from_raw(
                parser.cast::<MaybeUninit<unsafe_yaml::yaml_parser_t>>(),
            ));
        }
    }
}

/// An owned copy of an event's data.
///
/// # Safety
/// `event` was filled by a successful `yaml_parser_parse` and not yet deleted.
unsafe fn convert(event: &unsafe_yaml::yaml_event_t) -> Result<Event, Error> {
    let start = Mark::from(event.start_mark);
    // In every arm, the union field read is the one `type_` says libyaml filled, and its
    // strings are libyaml's NUL-terminated copies (or null), alive until the event is deleted.
    Ok(match event.type_ {
        unsafe_yaml::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
        unsafe_yaml::YAML_STREAM_END_EVENT => Event::StreamEnd,
        unsafe_yaml::YAML_ALIAS_EVENT => {
            // SAFETY: an alias event's data is `alias`; its anchor is a C string or null.
            Event::Alias(unsafe { c_string(event.data.alias.anchor) }.unwrap_or_default())
        }
        unsafe_yaml::YAML_SCALAR_EVENT => {
            // SAFETY: a scalar event's data is `scalar` (plain data, copied).
            let data = unsafe { event.data.scalar };
            let bytes = if data.value.is_null() || data.length == 0 {
                &[][..]
            } else {
                // SAFETY: a scalar's value is `length` initialised bytes that libyaml
                // allocated for the event and frees only when it is deleted.
                unsafe { std::slice::from_raw_parts(data.value, data.length as usize) }
            };
            // libyaml writes UTF-8 for UTF-8 input.
            let value = String::from_utf8(bytes.to_vec()).map_err(|_| Error {
                message: format!("a scalar that is not UTF-8 at {start}"),
                at: start.index,
            })?;
            Event::Scalar {
                // SAFETY: the scalar's anchor and tag are C strings or null.
                anchor: unsafe { c_string(data.anchor) },
                // SAFETY: as above.
                tag: unsafe { c_string(data.tag) },
                value,
                plain: data.style == unsafe_yaml::YAML_PLAIN_SCALAR_STYLE,
            }
        }
        unsafe_yaml::YAML_SEQUENCE_START_EVENT => {
            // SAFETY: a sequence start's data is `sequence_start` (plain data, copied).
            let data = unsafe { event.data.sequence_start };
            Event::SequenceStart {
                // SAFETY: its anchor and tag are C strings or null.
                anchor: unsafe { c_string(data.anchor) },
                // SAFETY: as above.
                tag: unsafe { c_string(data.tag) },
            }
        }
        unsafe_yaml::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
        unsafe_yaml::YAML_MAPPING_START_EVENT => {
            // SAFETY: a mapping start's data is `mapping_start` (plain data, copied).
            let data = unsafe { event.data.mapping_start };
            Event::MappingStart {
                // SAFETY: its anchor and tag are C strings or null.
                anchor: unsafe { c_string(data.anchor) },
                // SAFETY: as above.
                tag: unsafe { c_string(data.tag) },
            }
        }
        unsafe_yaml::YAML_MAPPING_END_EVENT => Event::MappingEnd,
        _ => Event::Other,
    })
}

/// # Safety
/// `ptr` is null or points to a NUL-terminated string that lives while this runs.
unsafe fn c_string(ptr: *const u8) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: as the caller promises.
    let bytes = unsafe { std::ffi::CStr::from_ptr(ptr.cast()) }.to_bytes();
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// # Safety
/// `parser` has just failed, so its problem and context are set (or null).
unsafe fn error(parser: &unsafe_yaml::yaml_parser_t) -> Error {
    let problem_mark = Mark::from(parser.problem_mark);
    let context_mark = Mark::from(parser.context_mark);
    // SAFETY: `problem` is one of libyaml's static messages, or null.
    let problem = unsafe { c_string(parser.problem.cast()) }
        .unwrap_or_else(|| "the YAML parser failed".to_owned());
    let mut message = problem;
    let marked = |m: Mark| m.line != 0 || m.column != 0;
    if marked(problem_mark) {
        message.push_str(&format!(" at {problem_mark}"));
    } else if parser.problem_offset != 0 {
        message.push_str(&format!(" at position {}", parser.problem_offset));
    }
    // SAFETY: `context` is one of libyaml's static messages, or null.
    if let Some(context) = unsafe { c_string(parser.context.cast()) } {
        message.push_str(&format!(", {context}"));
        if marked(context_mark)
            && (context_mark.line, context_mark.column) != (problem_mark.line, problem_mark.column)
        {
            message.push_str(&format!(" at {context_mark}"));
        }
    }
    // A reader error (a character YAML does not allow) has no mark, only a byte offset.
    let at = if marked(problem_mark) {
        problem_mark.index
    } else {
        parser.problem_offset as usize
    };
    Error { message, at }
}

/// The system allocator, counting the bytes each thread holds and the most it held, so that a
/// test can say what reading a text cost. The test build's global allocator.
#[cfg(test)]
pub mod meter {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    struct Meter;

    thread_local! {
        static HELD: Cell<isize> = const { Cell::new(0) };
        static PEAK: Cell<isize> = const { Cell::new(0) };
    }

    fn count(bytes: isize) {
        let held = HELD.get() + bytes;
        HELD.set(held);
        PEAK.set(PEAK.get().max(held));
    }

    // SAFETY: every call is passed on to `System` unchanged, so `System`'s guarantees are
    // Meter's; the counting allocates nothing (const thread-locals of `Cell`s, no destructor).
    unsafe impl GlobalAlloc for Meter {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            count(layout.size() as isize);
            // SAFETY: the caller keeps `alloc`'s contract, which is `System`'s.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            count(-(layout.size() as isize));
            // SAFETY: `ptr` came from this allocator, so from `System`, with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            count(new_size as isize - layout.size() as isize);
            // SAFETY: `ptr` came from `System` with `layout`; the caller keeps `realloc`'s
            // contract for `new_size`.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static METER: Meter = Meter;

    /// What `f` returns, and the most this thread held at once while it ran, beyond what it
    /// held before.
    pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
        let before = HELD.get();
        PEAK.set(before);
        let out = f();
        (out, (PEAK.get() - before) as usize)
    }
}
