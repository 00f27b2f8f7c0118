//! A static MCP tools/list result (MCP 2026-07-28), per AGIS Appendix C.

use super::Artifact;
use crate::diag::Diagnostics;
use crate::model::Service;

// PLACEHOLDER: being written on its own branch; replaced before this lands.
pub fn emit(_service: &Service, _diags: &mut Diagnostics) -> Vec<Artifact> {
    Vec::new()
}
