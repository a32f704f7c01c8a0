//! How a command ends: the exit statuses, the one-line message on stderr ([`warn`]), and
//! what a failed write of the output means for the status ([`output_status`]).
//!
//! Used by `main.rs` and the commands ([`crate::commands::check`] above all).

use std::io::{self, Write};

/// Exit status: every input valid.
pub const VALID: u8 = 0;
/// Exit status: some input is not valid UTF-8.
pub const INVALID: u8 = 1;
/// Exit status: an input could not be read, or the command line is wrong.
pub const TROUBLE: u8 = 2;

/// Writes `vutf8: MESSAGE` to stderr, ignoring a closed stderr.
pub fn warn(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "vutf8: {message}");
}

/// The exit status after writing some output failed, or not.
pub fn output_status(result: io::Result<()>) -> u8 {
    match result {
        Ok(()) => VALID,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => VALID,
        Err(e) => {
            warn(format_args!("cannot write the output: {e}"));
            TROUBLE
        }
    }
}
