//! `vutf8.Validator`: a stream validated in chunks of any size, split anywhere (the core's
//! `vutf8::Validator`, src/stream.rs), for sockets, pipes and files read piece by piece.
//!
//! Errors are `vutf8.Utf8Error`s whose `start`, `end` and `reason` are those of
//! `b''.join(chunks).decode('utf-8')`, counted from the start of the stream; since the
//! stream is not kept, their `object` is the bytes at fault only, `stream[start:end]`.
//! After an error, every later `update` or `finish` raises the same error again (as the
//! core does); after `finish`, `update` raises a `ValueError` until `reset`.
//!
//! Next: `errors.rs` for the exception, `buffer.rs` for how chunks are read; the core's
//! src/stream.rs for how a chunk boundary inside a character is handled.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{run, Input};
use crate::errors::Span;

/// UTF-8 validation of a stream that arrives in chunks: `update(chunk)` for each chunk (any
/// object with the buffer protocol, split anywhere, also inside a character), then
/// `finish()`. Errors are raised as soon as they are certain, positions from the stream's
/// start.
#[pyclass(module = "vutf8", name = "Validator")]
#[derive(Default)]
pub struct Validator {
    inner: vutf8::Validator,
    /// The first error, once raised, with the bytes at fault (its `object`).
    failure: Option<(Span, Vec<u8>)>,
    /// Whether `finish` was called.
    finished: bool,
}

#[pymethods]
impl Validator {
    /// A validator at the start of a stream.
    #[new]
    fn new() -> Self {
        Validator::default()
    }

    /// Checks the next chunk of the stream. Raises `vutf8.Utf8Error` at the stream's first
    /// error as soon as it is certain (which can be an error that started in an earlier
    /// chunk), and the same error at every later call. A chunk that ends inside a character
    /// is not an error: the next chunk may complete it.
    fn update(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.finished {
            return Err(PyValueError::new_err(
                "update() after finish(): call reset() to check another stream",
            ));
        }
        self.raise_failure(py)?;
        let input = Input::new(chunk)?;
        let chunk = input.bytes();
        // The bytes held back from earlier chunks (at most 3): an error can start there.
        let mut pending = [0u8; 4];
        let held = self.inner.pending().len().min(pending.len());
        pending[..held].copy_from_slice(&self.inner.pending()[..held]);
        let base = self.inner.valid_up_to();
        let inner = &mut self.inner;
        if let Err(error) = run(py, chunk, |bytes| inner.update(bytes))? {
            self.fail(error, &pending[..held], chunk, base);
            self.raise_failure(py)?;
        }
        Ok(())
    }

    /// Ends the stream: raises `vutf8.Utf8Error` if it had an error or ends inside a
    /// character ("unexpected end of data", as `bytes.decode` says). Calling it again gives
    /// the same answer.
    fn finish(&mut self, py: Python<'_>) -> PyResult<()> {
        self.finished = true;
        self.raise_failure(py)?;
        if let Some(error) = self.inner.check_end() {
            let pending = self.inner.pending().to_vec();
            self.fail(error, &pending, b"", self.inner.valid_up_to());
            self.raise_failure(py)?;
        }
        Ok(())
    }

    /// Forgets the stream: the validator is at the start of a new one.
    fn reset(&mut self) {
        *self = Validator::default();
    }

    /// The number of bytes passed to `update` so far; after an error, the error's `start`.
    #[getter]
    fn bytes_seen(&self) -> u64 {
        self.inner.bytes_seen()
    }

    /// The number of bytes at the start of the stream known to be valid UTF-8 and to end on
    /// a character boundary; after an error, the error's `start`.
    #[getter]
    fn valid_up_to(&self) -> u64 {
        self.inner.valid_up_to()
    }

    /// A short description, e.g. `<vutf8.Validator: 12 bytes seen, valid so far>`.
    fn __repr__(&self) -> String {
        let state = match &self.failure {
            Some((span, _)) => format!("error at byte {}", span.start),
            None => "valid so far".to_owned(),
        };
        let seen = self.inner.bytes_seen();
        format!("<vutf8.Validator: {seen} bytes seen, {state}>")
    }
}

impl Validator {
    /// Records `error`, found in the stream bytes `before ++ chunk`, which start at stream
    /// offset `base`, with the bytes at fault.
    fn fail(&mut self, error: vutf8::Utf8Error, before: &[u8], chunk: &[u8], base: u64) {
        let at = usize::try_from(base).unwrap_or(usize::MAX);
        let from = error.valid_up_to().saturating_sub(at);
        let stream_end = at.saturating_add(before.len() + chunk.len());
        let len = error
            .error_len()
            .unwrap_or(stream_end.saturating_sub(error.valid_up_to()));
        let at_fault: Vec<u8> = before
            .iter()
            .chain(chunk)
            .skip(from)
            .take(len)
            .copied()
            .collect();
        let first_byte = at_fault.first().copied().unwrap_or(0);
        self.failure = Some((Span::new(error, first_byte, stream_end), at_fault));
    }

    /// `Err` with the stream's error, if it has one.
    fn raise_failure(&self, py: Python<'_>) -> PyResult<()> {
        match &self.failure {
            Some((span, at_fault)) => Err(span.to_pyerr(PyBytes::new(py, at_fault))),
            None => Ok(()),
        }
    }
}

/// Adds `Validator` to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Validator>()
}
