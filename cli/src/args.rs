//! The command line, declared with clap: the top layer, with `main.rs`.
//!
//! `vutf8 [OPTIONS] [PATH]...` checks; `vutf8 info`, `vutf8 bench` and `vutf8 repair` are
//! subcommands. A file that happens to be called `info` is checked as `./info`.
//!
//! The options shared by every command are here; each command declares its own
//! ([`CheckArgs`], [`RepairArgs`], [`BenchArgs`], in `commands/`), and the values of
//! `--bom` and `--color` are types of the layers that use them ([`BomPolicy`] in
//! `scan/bom.rs`, `ColorWhen` in `report/color.rs`). Nothing below imports this module.

use clap::{Parser, Subcommand};

use crate::commands::bench::BenchArgs;
use crate::commands::check::CheckArgs;
use crate::commands::repair::RepairArgs;
use crate::scan::bom::BomPolicy;

const AFTER_HELP: &str = "\
Each error is reported as PATH:LINE:COLUMN: byte OFFSET: REASON (bytes: ..), with LINE and
COLUMN from 1 (a column counts characters, and an ill-formed part counts as one) and
OFFSET in bytes from 0. Standard input is reported as <stdin>.

Exit status: 0 if every input is valid UTF-8, 1 if some input is not, 2 if an input
could not be read or the command line is wrong (2 wins over 1).";

/// Checks that files are valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF), and says exactly where they are not.
#[derive(Debug, Parser)]
#[command(
    name = "vutf8",
    version,
    args_conflicts_with_subcommands = true,
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub check: CheckArgs,

    /// Use this validator instead of the best one for this CPU (scalar, sse4.2, avx2,
    /// avx512 [with the default feature avx512], neon, simd128) to find whether and where an
    /// input first goes wrong; an error if this CPU cannot run it.
    #[arg(long, value_name = "NAME", global = true)]
    pub backend: Option<String>,

    /// Threads, for checking and for walking directories (default: one per core).
    #[arg(short = 'j', long, value_name = "N", global = true)]
    pub threads: Option<usize>,

    /// What a UTF-8 signature (BOM, EF BB BF) at the start of an input is: `accept`ed as
    /// valid (never counted as a character or column), `strip`ped from `repair`'s output
    /// (otherwise like accept), or `report`ed as a finding that makes the input invalid.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = BomPolicy::Accept, global = true)]
    pub bom: BomPolicy,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show this CPU's SIMD features, the validators it can run and the one chosen.
    Info,
    /// Measure each validator's throughput (GB/s) beside the standard library's.
    Bench(BenchArgs),
    /// Copy an input with its invalid UTF-8 repaired by a policy (by default each
    /// ill-formed part replaced with U+FFFD, exactly like `String::from_utf8_lossy`), in
    /// constant memory, flushing whenever the input waits; line by line with the other
    /// policies, --json, --delimiter or --max-line; --follow reads a growing file. Exit
    /// status 0 if nothing changed, 1 if something did, 2 on a read or write error.
    Repair(RepairArgs),
}
