//! AGIS (draft-hood-independent-agis-01): the full document and /.well-known/agis.json.

use super::Artifact;
use crate::diag::Diagnostics;
use crate::model::Service;

// PLACEHOLDER: being written on its own branch; replaced before this lands.
pub fn emit(_service: &Service, _diags: &mut Diagnostics) -> Vec<Artifact> {
    Vec::new()
}
