//! `wellgen completions <SHELL>` and `wellgen man`: generated from the same clap definition
//! that parses the arguments, so they always list the commands and options that exist.

use std::io::Write as _;

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, EXIT_OK, EXIT_USAGE};

pub(super) fn completions(shell: Shell) -> u8 {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "wellgen", &mut out);
    write_stdout(&out)
}

/// The page of `wellgen`, or with a command name the page of that command (`wellgen-check(1)`,
/// which the main page's SUBCOMMANDS section refers to).
pub(super) fn man(command: Option<&str>) -> u8 {
    // Built as clap_mangen's own `generate_to` builds it, so pages name each other the same way.
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                eprintln!(
                    "error: no command `{name}`; man pages exist for: {}",
                    names.join(", ")
                );
                return EXIT_USAGE;
            }
        },
    };
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(page).source(format!("wellgen {}", env!("CARGO_PKG_VERSION")));
    match man.render(&mut out) {
        Ok(()) => write_stdout(&out),
        Err(e) => {
            eprintln!("error: cannot render the man page: {e}");
            EXIT_USAGE
        }
    }
}

/// A closed pipe (`wellgen man | head`) is not an error worth a panic.
fn write_stdout(bytes: &[u8]) -> u8 {
    match std::io::stdout().lock().write_all(bytes) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("error: cannot write to stdout: {e}");
            EXIT_USAGE
        }
    }
}
