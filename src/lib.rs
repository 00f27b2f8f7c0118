//! wellgen: one service description in, every AI-agent discovery document out.
//!
//! The pipeline reads like a small compiler: `source` (service.toml) → `model` (validated, one
//! typed model) → `emit` (one back end per target, pure) → `write` (the output folder).

pub mod audit;
pub mod check;
pub mod cli;
pub mod confine;
pub mod detect;
pub mod diag;
pub mod emit;
#[doc(hidden)]
pub mod fuzzing;
pub mod json;
pub mod model;
pub mod parallel;
pub mod pipeline;
pub mod serve;
pub mod source;
mod templates;
pub mod text;
pub mod tokens;
pub mod watchdog;
pub mod write;
