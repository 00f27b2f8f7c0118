//! The OpenAPI 3.1.0 document of the API, as RFC-002's `?format=openapi` variant.

use super::Artifact;
use crate::diag::Diagnostics;
use crate::model::Service;

// PLACEHOLDER: being written on its own branch; replaced before this lands.
pub fn emit(_service: &Service, _diags: &mut Diagnostics) -> Vec<Artifact> {
    Vec::new()
}
