//! `vutf8.is_valid`, `vutf8.validate` and `vutf8.backend`: one buffer, one verdict.
//!
//! Both read the buffer in place (`buffer.rs`) and release the GIL for long inputs.
//! `is_valid` is the lean path (for `bytes`: a type check, `PyBytes::as_bytes`, the
//! validator); `validate` raises `vutf8.Utf8Error` (`errors.rs`), whose `object` is the
//! input itself when it is `bytes`, else a copy of its bytes, made only on this error path.
//!
//! Next: `buffer.rs` (reading buffers, the GIL), `errors.rs` (the exception's fields).

use pyo3::prelude::*;

use crate::buffer::{run, Input};
use crate::errors::Span;

/// Whether `data` (any object with the buffer protocol: bytes, bytearray, memoryview, mmap,
/// array.array, a NumPy array, ...) is valid UTF-8. Reads it in place; releases the GIL
/// for inputs of 64 KiB and more.
#[pyfunction]
pub fn is_valid(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<bool> {
    let input = Input::new(data)?;
    run(py, input.bytes(), vutf8::is_valid)
}

/// Checks that `data` (any object with the buffer protocol) is valid UTF-8; raises
/// `vutf8.Utf8Error` (a `UnicodeDecodeError`) with the start, end and reason that
/// `bytes(data).decode('utf-8')` gives, plus vutf8's `kind` and `code_point`. Its `object`
/// is `data` when it is `bytes`, else a copy of all of its bytes.
#[pyfunction]
pub fn validate(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
    check(py, &Input::new(data)?, data)
}

/// [`validate`] on an input already read: `Ok` or the `Utf8Error` of its first error.
pub fn check(py: Python<'_>, input: &Input<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
    let bytes = input.bytes();
    match run(py, bytes, |b| vutf8::from_utf8(b).map(|_| ()))? {
        Ok(()) => Ok(()),
        Err(error) => Err(Span::in_data(error, bytes).to_pyerr(input.to_py_bytes(data))),
    }
}

/// The name of the implementation vutf8 chose for this CPU: "avx512", "avx2", "sse4.2",
/// "neon", "simd128" or "scalar".
#[pyfunction]
pub fn backend() -> &'static str {
    vutf8::Backend::selected().name()
}

/// Adds the functions of this module to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)
}
