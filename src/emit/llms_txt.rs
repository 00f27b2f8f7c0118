//! /llms.txt, rendered from a template (the llms.txt proposal).

use super::Artifact;
use crate::diag::Diagnostics;
use crate::model::Service;

// PLACEHOLDER: being written on its own branch; replaced before this lands.
pub fn emit(_service: &Service, _diags: &mut Diagnostics) -> Vec<Artifact> {
    Vec::new()
}
