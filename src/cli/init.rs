//! `wellgen init`: a commented starter service.toml that builds as it is.

use std::io::Write as _;
use std::path::Path;

use super::{EXIT_OK, EXIT_USAGE};

pub const STARTER: &str = include_str!("../../templates/service.toml");

pub(super) fn init(dir: &Path, quiet: bool) -> u8 {
    let path = dir.join("service.toml");
    let result = std::fs::create_dir_all(dir).and_then(|()| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| f.write_all(STARTER.as_bytes()))
    });
    match result {
        Ok(()) => {
            if !quiet {
                eprintln!(
                    "wrote {}; next: edit it, then run `wellgen build`",
                    path.display()
                );
            }
            EXIT_OK
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!(
                "error: {} already exists; refusing to overwrite it",
                path.display()
            );
            EXIT_USAGE
        }
        Err(e) => {
            eprintln!(
                "error: cannot write {}: {}",
                path.display(),
                crate::diag::io_reason(&e)
            );
            EXIT_USAGE
        }
    }
}
