//! `vutf8`: checks that files are valid UTF-8, fast, strictly (RFC 3629) and with exact
//! error positions. See `docs/CLI.md` for usage and output.
//!
//! How a run goes ([`commands::check`]): the paths become a list of inputs
//! ([`inputs::walk`]); they are checked in batches, each batch on all cores (a large file
//! is itself split over all cores, [`read::slicing`]; streams are read in constant memory,
//! [`read::streams`]), stopping at each input's first error; then, in input order, the
//! findings ([`scan::findings`]) are written ([`report::finding`], in colour on a
//! terminal, [`report::color`]). With `--all`, an input found invalid is scanned once
//! more, in order, writing every error as it is found, so no error list is ever held in
//! memory.
//!
//! Subcommands: `vutf8 repair` ([`commands::repair`]), `vutf8 info` ([`commands::info`]),
//! `vutf8 bench` ([`commands::bench`]).
//!
//! Exit status: 0 all valid, 1 some input invalid, 2 an input could not be read or the
//! command line is wrong (2 wins over 1). A closed stdout (`vutf8 -l . | head -1`) ends the
//! run quietly.
//!
//! ## The layers
//!
//! Each folder is a layer and imports only the layers below it, never one above:
//!
//! ```text
//! main.rs, args.rs   the command line (clap) and the choice of command     (top)
//! commands/          check (the default), repair, info, bench; exit statuses
//! report/            what a finding looks like: text, JSON, colour, summary, progress bar
//! read/              reading bytes: mapped files split over all cores, streams
//! inputs/            which inputs: paths and directories walked, in order
//! scan/              the check engine: validator, BOM policy, findings, positions (bottom)
//! ```
//!
//! `read/` and `report/` never name each other's types: they meet through the check
//! engine's sinks, `Emit` (each finding) and `Meter` (bytes done). Read upwards from
//! [`scan`], or downwards from [`commands::check::run`].

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod args;
mod commands;
mod inputs;
mod read;
mod report;
mod scan;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::commands::exit::{output_status, warn, TROUBLE, VALID};
use crate::commands::{bench, info, repair};
use crate::scan::engine::Engine;

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
        None => commands::check::run(&cli.check, engine, cli.bom, cli.threads.unwrap_or(0)),
        Some(Command::Info) => output_status(info::run(engine)),
        Some(Command::Bench(args)) => bench::run(args, engine),
        Some(Command::Repair(args)) => repair::run(args, cli.bom),
    };
    ExitCode::from(status)
}
