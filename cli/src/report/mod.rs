//! What the user sees: each finding as a line, a JSON object or a name ([`finding`]), in
//! colour on a terminal ([`color`]), the `--summary` line ([`summary`]), the progress
//! bar on stderr ([`progress`]), and what `vutf8 repair` writes ([`repair`]: its output,
//! JSON records and summaries).
//!
//! Imports only the check engine ([`crate::scan`]): it writes findings, never reads an
//! input, and the read layer (`read/`) never names its types (the bar is moved through
//! [`crate::scan::findings::Meter`]). The commands (`commands/`) put reading and
//! reporting together.

pub mod color;
pub mod finding;
pub mod progress;
pub mod repair;
pub mod summary;
