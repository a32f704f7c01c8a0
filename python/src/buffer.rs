//! The bytes of any Python object with the buffer protocol, without copying them, and the
//! one rule for running work on them: without the GIL when the input is long enough to pay
//! for releasing it, and with a panic turned into a Python exception.
//!
//! `bytes` are read directly (`PyBytes::as_bytes`, no buffer request: the cheapest path,
//! which the 100-byte target of docs/PYTHON.md needs); everything else (`bytearray`,
//! `memoryview`, `mmap`, `array.array`, NumPy arrays, ...) through `PyObject_GetBuffer`, held
//! for as long as the bytes are read, so the exporter cannot free or resize them. A buffer
//! that is not C-contiguous (`memoryview(b)[::2]`) is refused with a `ValueError`: reading
//! it would need a copy, which the caller can make explicitly with `bytes(view)`.
//!
//! Next: `validate.rs`, `records.rs` and `stream.rs` use [`Input`] and [`run`].

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Inputs of at least this many bytes are read without the GIL (`Python::detach`).
///
/// Releasing and taking back the GIL costs tens of nanoseconds, and a thread waiting for
/// the GIL needs microseconds to wake and use it (after which the caller may wait for the
/// switch interval); from here the validation takes microseconds, so releasing costs a few
/// per cent and can let another thread run (docs/PYTHON.md, "Releasing the GIL", has the
/// measurements).
pub const DETACH_MIN: usize = 64 * 1024;

/// The bytes of a Python object, borrowed for as long as this value lives.
pub enum Input<'a> {
    /// The contents of a `bytes` object (immutable, kept alive by the caller's reference).
    Bytes(&'a [u8]),
    /// A C-contiguous buffer exported by the object (released when this is dropped).
    Buffer(PyUntypedBuffer),
}

impl<'a> Input<'a> {
    /// The bytes of `obj`: a `bytes` object directly, anything else through the buffer
    /// protocol. A `TypeError` for an object without it (CPython's message: "a bytes-like
    /// object is required, not 'str'"), a `ValueError` for a buffer that is not
    /// C-contiguous.
    #[inline]
    pub fn new(obj: &'a Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            return Ok(Input::Bytes(bytes.as_bytes()));
        }
        let buffer = PyUntypedBuffer::get(obj)?;
        if holds_objects(buffer.format().to_bytes()) {
            return Err(PyTypeError::new_err(format!(
                "a bytes-like object is required, not a {} of Python objects (buffer format \
                 {:?}): its bytes are the objects' addresses; pass bytes (b''.join(...)) or \
                 one element",
                type_name(obj),
                buffer.format().to_string_lossy()
            )));
        }
        if !buffer.is_c_contiguous() {
            return Err(PyValueError::new_err(format!(
                "vutf8 reads buffers without copying them, and this {} is not C-contiguous \
                 (a strided view such as memoryview(b)[::2]); pass bytes(obj) to copy it",
                type_name(obj)
            )));
        }
        Ok(Input::Buffer(buffer))
    }

    /// The bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        match self {
            Input::Bytes(bytes) => bytes,
            Input::Buffer(buffer) => buffer_bytes(buffer),
        }
    }

    /// The input as a `bytes` object: `obj` itself when it is one, else a copy of its bytes.
    pub fn to_py_bytes<'py>(&self, obj: &Bound<'py, PyAny>) -> Bound<'py, PyBytes> {
        match obj.cast::<PyBytes>() {
            Ok(bytes) => bytes.clone(),
            Err(_) => PyBytes::new(obj.py(), self.bytes()),
        }
    }
}

/// Whether a buffer of struct-module `format` holds Python objects (the code `O`, e.g. a
/// NumPy array of `dtype=object`), whose bytes are pointers: `bytes(x)` reads them, but no
/// text is there, and what they are depends on addresses. Field names (`:name:`) are
/// skipped.
fn holds_objects(format: &[u8]) -> bool {
    let mut in_name = false;
    format.iter().any(|&c| {
        if c == b':' {
            in_name = !in_name;
        }
        !in_name && c == b'O'
    })
}

/// The bytes of a C-contiguous buffer.
fn buffer_bytes(buffer: &PyUntypedBuffer) -> &[u8] {
    let len = buffer.len_bytes();
    let ptr = buffer.buf_ptr().cast::<u8>().cast_const();
    if len == 0 || ptr.is_null() {
        return &[];
    }
    // SAFETY: `Input::new` keeps only C-contiguous buffers, whose `len_bytes()` bytes lie at
    // `buf_ptr()` in one block; the exporter keeps that memory alive (and, for `bytearray`,
    // unresized) until the buffer is released, which happens when `buffer` is dropped, and
    // the slice borrows `buffer`. Another thread may write into a writable buffer while the
    // GIL is released: that changes what is read (docs/PYTHON.md), never where.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |name| name.to_string())
}

/// Runs `work` on `bytes`: without the GIL when there are at least [`DETACH_MIN`] of them.
///
/// A panic in `work` becomes a `RuntimeError` naming it, never a crash. None is expected on
/// any input; one known way to cause one is another thread writing into the buffer while
/// it is read (the vector pass and the exact-error pass then disagree).
#[inline]
pub fn run<T, F>(py: Python<'_>, bytes: &[u8], work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&[u8]) -> T + Send,
{
    run_sized(py, bytes.len(), || work(bytes))
}

/// Runs `work`, which reads `size` bytes: without the GIL when there are at least
/// [`DETACH_MIN`] of them; a panic becomes a `RuntimeError` (see [`run`]).
#[inline]
pub fn run_sized<T, F>(py: Python<'_>, size: usize, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let guarded = || catch_unwind(AssertUnwindSafe(work));
    let result = if size >= DETACH_MIN {
        py.detach(guarded)
    } else {
        guarded()
    };
    result.map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic");
        PyRuntimeError::new_err(format!(
            "vutf8: internal error ({what}); this is a bug, unless another thread changed \
             the input while vutf8 read it"
        ))
    })
}
