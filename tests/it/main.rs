//! The integration tests, one binary: linking one test executable instead of 26 keeps a clean
//! `cargo test` to a fraction of the disk and link time (each binary carries every dependency).
//! tests/README.md says what each module checks.

mod common;
mod support_adp;
mod support_agis;
mod support_rfc002;

mod a2a;
mod adp;
mod adp_invalid;
mod agent_skills;
mod agis;
mod ai_catalog;
mod ai_split;
mod aiendpoint;
mod api_catalog;
mod architecture;
mod audit;
mod auth_schemes;
mod batch;
mod cli;
mod composition;
mod detection;
mod docs;
mod editor;
mod error_roundtrip;
mod golden;
mod help_edits;
mod home;
mod hosts;
mod iajson;
mod import;
mod import_paths;
mod kill;
mod lenient;
mod llms_txt;
mod mcp;
mod mcp_server_card;
mod oauth_resource;
mod openapi;
mod parallel;
mod paths;
mod proptest_model;
mod publish;
mod regressions;
mod rfc002;
mod robots;
mod roundtrip;
mod schema;
mod secret_masking;
mod security;
mod serve;
mod shared_schemas;
mod site_url;
mod tokens;
mod types;
