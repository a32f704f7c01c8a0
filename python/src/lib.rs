//! `vutf8._vutf8`: the native half of the Python package `vutf8` (docs/PYTHON.md), built
//! by maturin as one abi3 wheel for CPython 3.11 and later. The pure-Python half,
//! `python/python/vutf8/`, re-exports everything here and adds the conveniences (Arrow
//! results as pyarrow or Polars objects, files and streams).
//!
//! Where things are, from the top down (each file imports only from those below it):
//!
//! - `arrow.rs`: `arrow_is_valid`, `arrow_error_offsets`, `arrow_error_reasons`,
//!   `arrow_to_string`: Arrow columns (a table's by name) through the kernels of
//!   `vutf8-arrow`;
//! - `capsule.rs`: the Arrow PyCapsule interface, imported and exported;
//! - `records.rs`: `line_verdicts`, `invalid_lines`, `repair`: every line of a buffer;
//! - `decode.rs`: `decode`, `bytes.decode('utf-8', errors)` made fast;
//! - `validate.rs`: `is_valid`, `validate`, `backend`: one buffer, one verdict;
//! - `stream.rs`: `Validator`, a stream in chunks;
//! - `errors.rs`: `Utf8Error` and the one mapping to CPython's start, end and reason;
//! - `pystr.rs`: `str` objects made in their final PEP 393 form;
//! - `buffer.rs`: the bytes of any buffer without a copy, and the rule for releasing the GIL.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod arrow;
mod buffer;
mod capsule;
mod decode;
mod errors;
mod latin1;
mod pystr;
mod records;
mod stream;
mod validate;
mod wide;

use pyo3::prelude::*;

/// The module `vutf8._vutf8`.
#[pymodule]
fn _vutf8(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    validate::register(m)?;
    decode::register(m)?;
    records::register(m)?;
    stream::register(m)?;
    arrow::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DETACH_MIN", buffer::DETACH_MIN)
}
