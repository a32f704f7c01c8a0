//! `vutf8`: checks that files are valid UTF-8, fast, strictly (RFC 3629) and with exact
//! error positions. See `docs/CLI.md` for usage and output.
//!
//! How a run goes ([`check`]): the paths become a list of inputs ([`walk`]); they are
//! checked in batches, each batch on all cores (a large file is itself split over all
//! cores, [`slicing`]; streams are read in constant memory, [`streams`]), stopping at each
//! input's first error; then, in input order, the findings ([`findings`]) are written
//! ([`report`], in colour on a terminal, [`color`]). With `--all`, an input found invalid
//! is scanned once more, in order, writing every error as it is found, so no error list is
//! ever held in memory.
//!
//! Subcommands: `vutf8 repair` ([`repair`]), `vutf8 info` ([`info`]), `vutf8 bench`
//! ([`bench`]).
//!
//! Exit status: 0 all valid, 1 some input invalid, 2 an input could not be read or the
//! command line is wrong (2 wins over 1). A closed stdout (`vutf8 -l . | head -1`) ends the
//! run quietly.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(test)]
mod agreement;
mod args;
mod bench;
mod bom;
mod check;
mod color;
mod engine;
mod findings;
mod info;
mod position;
mod progress;
mod reading;
mod repair;
mod report;
mod slicing;
mod streams;
mod walk;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::engine::Engine;

/// Exit status: every input valid.
const VALID: u8 = 0;
/// Exit status: some input is not valid UTF-8.
const INVALID: u8 = 1;
/// Exit status: an input could not be read, or the command line is wrong.
const TROUBLE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { TROUBLE } else { VALID });
        }
    };
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
        {
            warn(format_args!("cannot start {threads} threads: {e}"));
            return ExitCode::from(TROUBLE);
        }
    }
    let engine = match Engine::from_option(cli.backend.as_deref()) {
        Ok(engine) => engine,
        Err(message) => {
            warn(format_args!("{message}"));
            return ExitCode::from(TROUBLE);
        }
    };
    let status = match &cli.command {
        None => check::run(&cli.check, engine, cli.bom, cli.threads.unwrap_or(0)),
        Some(Command::Info) => output_status(info::run(engine)),
        Some(Command::Bench(args)) => bench::run(args, engine),
        Some(Command::Repair(args)) => repair::run(args, engine, cli.bom),
    };
    ExitCode::from(status)
}

/// Writes `vutf8: MESSAGE` to stderr, ignoring a closed stderr.
fn warn(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "vutf8: {message}");
}

/// The exit status after writing some output failed, or not.
fn output_status(result: io::Result<()>) -> u8 {
    match result {
        Ok(()) => VALID,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => VALID,
        Err(e) => {
            warn(format_args!("cannot write the output: {e}"));
            TROUBLE
        }
    }
}
