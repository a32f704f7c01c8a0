//! The commands, each one pipeline through the layers below: [`check`], the default
//! command (inputs, then reading and checking them, then the report), and the
//! subcommands [`repair`] (with [`repair_lines`] for its copies by records), [`info`] and
//! [`bench`](mod@bench); [`exit`] is how each ends
//! (exit status, messages).
//!
//! Each command declares its own options (with clap's `Args`); `args.rs` above puts them
//! together into the command line. Start with [`check::run`].

pub mod bench;
pub mod check;
pub mod exit;
pub mod info;
pub mod repair;
pub mod repair_lines;
