//! wellgen: one service description in, every AI-agent discovery document out.
//!
//! The pipeline reads like a small compiler: `source` (service.toml) → `model` (validated, one
//! typed model) → `emit` (one back end per target, pure) → `write` (the output folder).

pub(crate) mod audit;
pub mod check;
pub mod cli;
pub(crate) mod confine;
pub(crate) mod detect;
pub mod diag;
pub mod emit;
#[doc(hidden)]
pub mod fuzzing;
pub(crate) mod json;
pub mod model;
pub(crate) mod parallel;
pub mod pipeline;
pub mod serve;
pub mod source;
pub(crate) mod text;
pub mod tokens;
pub mod values;
pub(crate) mod watchdog;
pub mod write;
