//! Detectors of what published or printed text must not carry: credentials (`secrets`),
//! invisible characters, instruction-like phrases and local addresses (`text`). Leaves that
//! know nothing of the model: the publication checks, the diagnostics' redaction, the
//! lowering's id suggestions and the importer all ask the same detector.

pub mod secrets;
pub mod text;

pub use text::{hidden_char, injection};
