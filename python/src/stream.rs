//! `vutf8.Validator`: a stream validated in chunks of any size, split anywhere (the core's
//! `vutf8::Validator`, src/streams/validator.rs), for sockets, pipes and files read piece by piece.
//!
//! Errors are `vutf8.Utf8Error`s equal to what CPython's incremental decoder
//! (`codecs.getincrementaldecoder('utf-8')`) raises for the same chunks: `object` is the
//! bytes held back from earlier chunks (the start of a character cut by the chunk's start,
//! at most 3 bytes) followed by the chunk, `start` and `end` index it, and `reason` and the
//! message are CPython's; `stream_offset` adds where `start` is in the whole stream.
//! After an error, every later `update` or `finish` raises the same error again (as the
//! core does); after `finish`, `update` raises a `ValueError` until `reset`.
//!
//! Next: `errors.rs` for the exception, `buffer.rs` for how chunks are read; the core's
//! src/streams/validator.rs for how a chunk boundary inside a character is handled.

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
    /// The first error, once raised, with its `object` (the bytes held back, then the
    /// chunk).
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
    /// error as soon as it is certain, as CPython's incremental decoder does for the same
    /// chunks (its `object` is the bytes held back from earlier chunks, then this chunk; its
    /// `stream_offset`, where `start` is in the stream), and the same error at every later
    /// call. A chunk that ends inside a character is not an error: the next chunk may
    /// complete it.
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
            return self.raise_failure(py);
        }
        // The core may hold back the start of an ill-formed sequence whose error is
        // certain but whose kind depends on the next bytes (a final `C0`, `ED A0`);
        // CPython's decoder raises it now, with this chunk, except a final `ED A0..BF`
        // (the start of an encoded surrogate, which it keeps for the next chunk, for its
        // `surrogatepass` handler): so does this.
        let kept = self.inner.pending();
        let surrogate_start = matches!(kept, [0xED, 0xA0..=0xBF]);
        if let (Err(error), false) = (vutf8::from_utf8(kept), surrogate_start) {
            if error.error_len().is_some() {
                let at = self.inner.valid_up_to();
                self.fail_at(error, at, &pending[..held], chunk, base);
                return self.raise_failure(py);
            }
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
        match &self.failure {
            Some((span, _)) => span.stream_offset,
            None => self.inner.bytes_seen(),
        }
    }

    /// The number of bytes at the start of the stream known to be valid UTF-8 and to end on
    /// a character boundary; after an error, the error's `start`.
    #[getter]
    fn valid_up_to(&self) -> u64 {
        match &self.failure {
            Some((span, _)) => span.stream_offset,
            None => self.inner.valid_up_to(),
        }
    }

    /// A short description, e.g. `<vutf8.Validator: 12 bytes seen, valid so far>`.
    fn __repr__(&self) -> String {
        let state = match &self.failure {
            Some((span, _)) => format!("error at byte {}", span.start),
            None => "valid so far".to_owned(),
        };
        let seen = self.bytes_seen();
        format!("<vutf8.Validator: {seen} bytes seen, {state}>")
    }
}

impl Validator {
    /// Records `error`, found in the stream bytes `before ++ chunk`, which start at stream
    /// offset `base`: its positions in those bytes, which are its `object`.
    fn fail(&mut self, error: vutf8::Utf8Error, before: &[u8], chunk: &[u8], base: u64) {
        let mut object = Vec::with_capacity(before.len() + chunk.len());
        object.extend_from_slice(before);
        object.extend_from_slice(chunk);
        let at = u64::try_from(error.valid_up_to()).unwrap_or(u64::MAX);
        let start = usize::try_from(at.saturating_sub(base))
            .unwrap_or(usize::MAX)
            .min(object.len());
        let end = error
            .error_len()
            .map_or(object.len(), |len| (start + len).min(object.len()));
        self.record(error, start, end, at, object);
    }

    /// Records `error`, found in the bytes held back (`error`'s positions are from their
    /// start), which start at stream offset `at`, after `before ++ chunk` was seen from
    /// stream offset `base`.
    fn fail_at(
        &mut self,
        error: vutf8::Utf8Error,
        at: u64,
        before: &[u8],
        chunk: &[u8],
        base: u64,
    ) {
        let mut object = Vec::with_capacity(before.len() + chunk.len());
        object.extend_from_slice(before);
        object.extend_from_slice(chunk);
        let start = usize::try_from(at.saturating_sub(base))
            .unwrap_or(usize::MAX)
            .min(object.len());
        let end = (start + error.error_len().unwrap_or(0)).min(object.len());
        self.record(error, start, end, at, object);
    }

    /// Records the error `error` at `start..end` of `object`, `start` being stream offset
    /// `at`.
    fn record(
        &mut self,
        error: vutf8::Utf8Error,
        start: usize,
        end: usize,
        at: u64,
        object: Vec<u8>,
    ) {
        let first_byte = object.get(start).copied().unwrap_or(0);
        let span = Span {
            error,
            start,
            end,
            reason: crate::errors::cpython_reason(first_byte, error.error_len()),
            stream_offset: at,
        };
        self.failure = Some((span, object));
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
