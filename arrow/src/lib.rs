//! # vutf8-arrow: vutf8 over Arrow arrays
//!
//! Arrow keeps a column of text or bytes as ranges of a few large buffers. This crate checks
//! such columns ([`kernels`]): a verdict per row, the first error of each invalid row, and
//! the column as strings that **share the input's buffers** where rows are valid, with
//! invalid rows handled by one of vutf8's repair policies ([`vutf8::records::Policy`]).
//!
//! The idea that makes the kernels fast: each buffer is validated **once**, at vutf8's full
//! speed, and each row is then decided in constant time from the errors found and the bytes
//! at its two ends ([`vutf8::records::RangeMap`] explains why that is exact), where
//! row-by-row code pays a call and a tail per row.
//!
//! Where to go next: [`kernels`] for the functions; `column` reads the three layouts and
//! decides rows, `output` builds the string arrays. Built on it: `vutf8-datafusion` (SQL
//! functions for DataFusion and Ballista) and the Python package (`python/`). Figures:
//! `docs/PERFORMANCE.md#records-verdict-bits`; the rules: `docs/DATAFUSION.md`.

#![warn(missing_docs)]

mod column;
mod error;
pub mod kernels;
mod output;

pub use error::{RowError, Utf8ArrayError};
