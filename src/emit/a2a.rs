//! The A2A agent card: /.well-known/agent-card.json (A2A 1.0.1).

use super::Artifact;
use crate::diag::Diagnostics;
use crate::model::Service;

// PLACEHOLDER: being written on its own branch; replaced before this lands.
pub fn emit(_service: &Service, _diags: &mut Diagnostics) -> Vec<Artifact> {
    Vec::new()
}
