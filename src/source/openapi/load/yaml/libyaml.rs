//! libyaml's event parser, as a safe iterator of owned events.
//!
//! The parser is the one serde_norway reads with (`unsafe-libyaml-norway`, libyaml translated
//! to Rust), so a document reads, and fails, exactly as it did; but serde_norway hands out only
//! whole documents, built from a stored list of every event. The pure-Rust alternatives were
//! tried on ../shared/corpus and refused: saphyr-parser (and yaml-rust2, whose scanner it
//! shares) applies YAML 1.2's indentation rules where libyaml does not, and refuses real
//! documents (Docker's Swagger file, more than forty of InfluxData's files); libyaml-safer
//! panics on a block scalar at the end of a file without a final line break.
//!
//! This is wellgen's only `unsafe` code: the calls serde_norway's own wrapper makes (its
//! `libyaml/parser.rs`), each with what makes it sound.

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
        // SAFETY: `parser` is a live, aligned allocation for a parser that libyaml initialises
        // (it only writes it); the input is UTF-8 and lives as long as `'input`.
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
        // SAFETY: the parser is initialised and has not failed; libyaml writes the whole event
        // when it returns success, the event is read only then, and deleted once converted.
        unsafe {
            if unsafe_yaml::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
                self.failed = true;
                return Err(error(&*parser));
            }
            let event = event.as_mut_ptr();
            let converted = convert(&*event);
            let start = Mark::from((*event).start_mark);
            unsafe_yaml::yaml_event_delete(event);
            converted.map(|e| (e, start))
        }
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
    // SAFETY (for every union field read): the field read is the one `type_` says is filled;
    // strings are libyaml's NUL-terminated copies, a scalar's value `length` bytes long.
    Ok(match event.type_ {
        unsafe_yaml::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
        unsafe_yaml::YAML_STREAM_END_EVENT => Event::StreamEnd,
        unsafe_yaml::YAML_ALIAS_EVENT => {
            Event::Alias(unsafe { c_string(event.data.alias.anchor) }.unwrap_or_default())
        }
        unsafe_yaml::YAML_SCALAR_EVENT => {
            let data = unsafe { event.data.scalar };
            let bytes = unsafe { std::slice::from_raw_parts(data.value, data.length as usize) };
            // libyaml writes UTF-8 for UTF-8 input.
            let value = String::from_utf8(bytes.to_vec()).map_err(|_| Error {
                message: format!("a scalar that is not UTF-8 at {start}"),
                at: start.index,
            })?;
            Event::Scalar {
                anchor: unsafe { c_string(data.anchor) },
                tag: unsafe { c_string(data.tag) },
                value,
                plain: data.style == unsafe_yaml::YAML_PLAIN_SCALAR_STYLE,
            }
        }
        unsafe_yaml::YAML_SEQUENCE_START_EVENT => Event::SequenceStart {
            anchor: unsafe { c_string(event.data.sequence_start.anchor) },
            tag: unsafe { c_string(event.data.sequence_start.tag) },
        },
        unsafe_yaml::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
        unsafe_yaml::YAML_MAPPING_START_EVENT => Event::MappingStart {
            anchor: unsafe { c_string(event.data.mapping_start.anchor) },
            tag: unsafe { c_string(event.data.mapping_start.tag) },
        },
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
    let problem = unsafe { c_string(parser.problem.cast()) }
        .unwrap_or_else(|| "the YAML parser failed".to_owned());
    let mut message = problem;
    let marked = |m: Mark| m.line != 0 || m.column != 0;
    if marked(problem_mark) {
        message.push_str(&format!(" at {problem_mark}"));
    } else if parser.problem_offset != 0 {
        message.push_str(&format!(" at position {}", parser.problem_offset));
    }
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
