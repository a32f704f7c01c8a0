//! The one error type of the kernels, and how it becomes Arrow's (`vutf8-datafusion` maps it
//! to DataFusion's).

use std::fmt;

use arrow_schema::{ArrowError, DataType};
use vutf8::ErrorKind;

/// How many bytes of an invalid value an error message shows, from where the error starts.
const SHOWN_BYTES: usize = 8;

/// Where and why one row of an array is not valid UTF-8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    /// The row (0 is the array's first row, after any slicing).
    pub row: usize,
    /// The byte offset of the first error within the row's value: std's `valid_up_to`.
    pub offset: usize,
    /// Why the bytes there are ill-formed.
    pub kind: ErrorKind,
    /// Up to 8 bytes of the value from `offset` on, for messages.
    pub bytes: Vec<u8>,
}

impl RowError {
    /// The first error of `value`, the value of row `row`, if it has one.
    pub(crate) fn of(row: usize, value: &[u8]) -> Option<Self> {
        let error = vutf8::from_utf8(value).err()?;
        let offset = error.valid_up_to();
        let shown = &value[offset..value.len().min(offset + SHOWN_BYTES)];
        Some(RowError {
            row,
            offset,
            kind: error.kind(),
            bytes: shown.to_vec(),
        })
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid UTF-8 in row {} at byte {}: {} (bytes",
            self.row, self.offset, self.kind
        )?;
        for byte in &self.bytes {
            write!(f, " {byte:02X}")?;
        }
        f.write_str(")")
    }
}

/// What can go wrong in a kernel: never a panic.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Utf8ArrayError {
    /// A row that had to be valid UTF-8 is not.
    InvalidRow(RowError),
    /// The array holds neither bytes nor text.
    UnsupportedType(DataType),
    /// The result does not fit the layout: repaired values of a `Binary` array that pass
    /// 2 GiB in all (each replaced byte can take 3), or one value past 4 GiB in a view.
    TooLarge {
        /// The output layout.
        layout: &'static str,
        /// What would not fit.
        what: String,
    },
}

impl fmt::Display for Utf8ArrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Utf8ArrayError::InvalidRow(row) => row.fmt(f),
            Utf8ArrayError::UnsupportedType(t) => {
                write!(f, "expected a binary or string array, got {t}")
            }
            Utf8ArrayError::TooLarge { layout, what } => write!(
                f,
                "the result does not fit a {layout} array: {what}; use the Large or View \
                 types, or smaller batches"
            ),
        }
    }
}

impl std::error::Error for Utf8ArrayError {}

impl From<Utf8ArrayError> for ArrowError {
    fn from(e: Utf8ArrayError) -> Self {
        match e {
            Utf8ArrayError::TooLarge { .. } => ArrowError::ComputeError(e.to_string()),
            _ => ArrowError::InvalidArgumentError(e.to_string()),
        }
    }
}
