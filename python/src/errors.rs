//! `vutf8.Utf8Error`, the exception of every invalid input, and the one mapping from
//! vutf8's error to what CPython's UTF-8 decoder reports.
//!
//! `Utf8Error` is a subclass of `UnicodeDecodeError`, so code that catches what
//! `bytes.decode('utf-8')` raises catches it too; its `encoding`, `object`, `start`, `end`
//! and `reason` are exactly those of `bytes(data).decode('utf-8')` (tested against CPython
//! in python/tests/). vutf8's own, more precise reason is added: `kind` (`"overlong
//! encoding"`, `"encoded surrogate"`, ...) and `code_point` (the value an overlong, surrogate
//! or too-large sequence encodes, else `None`).
//!
//! How CPython's fields follow from vutf8's `valid_up_to()` and `error_len()`, both of which
//! follow the Unicode maximal-subpart rule as CPython does ([`Span::new`]):
//!
//! | vutf8 | `start` | `end` | `reason` |
//! |---|---|---|---|
//! | `error_len() == None` | `valid_up_to` | the end of the data | `unexpected end of data` |
//! | `Some(n)`, a lead byte `C2..=F4` at `start` | `valid_up_to` | `start + n` | `invalid continuation byte` |
//! | `Some(n)`, any other byte at `start` | `valid_up_to` | `start + n` | `invalid start byte` |
//!
//! Next: the core's src/error.rs for `valid_up_to`, `error_len`, `kind` and `code_point`.

use pyo3::create_exception;
use pyo3::exceptions::PyUnicodeDecodeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

create_exception!(
    vutf8,
    Utf8Error,
    PyUnicodeDecodeError,
    "The input is not valid UTF-8: a UnicodeDecodeError whose encoding, object, start, end and\n\
     reason are those of bytes(data).decode('utf-8'), plus vutf8's precise reason:\n\
     kind (e.g. 'overlong encoding') and code_point (the value an overlong, surrogate or\n\
     too-large sequence encodes, else None)."
);

/// CPython's `reason` for an error whose maximal subpart starts with `first_byte` and is
/// `error_len` bytes long (`None`: the data ends inside a sequence).
///
/// CPython's decoder says "invalid continuation byte" when the byte at `start` is a lead
/// byte of strict UTF-8 (`C2..=F4`) whose sequence is broken, "invalid start byte" for any
/// other byte (continuation bytes, `C0`, `C1`, `F5..=FF`), and "unexpected end of data" when
/// the data ends inside a sequence.
pub fn cpython_reason(first_byte: u8, error_len: Option<usize>) -> &'static str {
    match (error_len, first_byte) {
        (None, _) => "unexpected end of data",
        (Some(_), 0xC2..=0xF4) => "invalid continuation byte",
        (Some(_), _) => "invalid start byte",
    }
}

/// Where an error is and why, as CPython's UTF-8 decoder reports it, with vutf8's error.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// vutf8's error (positions as found).
    pub error: vutf8::Utf8Error,
    /// The offset of the first byte at fault (vutf8's `valid_up_to`).
    pub start: usize,
    /// The offset after the last byte at fault.
    pub end: usize,
    /// CPython's reason.
    pub reason: &'static str,
    /// Where `start` is in the whole stream (`stream_offset`): `start` itself, except for
    /// `Validator`'s errors, whose positions are those of the chunk (with the bytes held
    /// back from earlier chunks before it), as CPython's incremental decoder gives them.
    pub stream_offset: u64,
}

impl Span {
    /// The span of `error`, whose first byte at fault is `first_byte`, in data that ends at
    /// `data_end` (the same origin as `error.valid_up_to()`).
    pub fn new(error: vutf8::Utf8Error, first_byte: u8, data_end: usize) -> Self {
        let start = error.valid_up_to();
        let end = error.error_len().map_or(data_end, |len| start + len);
        Span {
            error,
            start,
            end,
            reason: cpython_reason(first_byte, error.error_len()),
            stream_offset: start as u64,
        }
    }

    /// The span of `error`, found in `data` (positions from its start).
    pub fn in_data(error: vutf8::Utf8Error, data: &[u8]) -> Self {
        let first_byte = data.get(error.valid_up_to()).copied().unwrap_or(0);
        Span::new(error, first_byte, data.len())
    }

    /// The `vutf8.Utf8Error` of this span, with `object` as its `object`.
    pub fn to_pyerr(self, object: Bound<'_, PyBytes>) -> PyErr {
        let py = object.py();
        let args = ("utf-8", object, self.start, self.end, self.reason);
        let made = py.get_type::<Utf8Error>().call1(args);
        match made.and_then(|value| self.add_details(&value).map(|()| value)) {
            Ok(value) => PyErr::from_value(value),
            Err(e) => e,
        }
    }

    /// Sets vutf8's details (`kind`, `code_point`, `stream_offset`) on the exception
    /// `value`.
    fn add_details(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = value.py();
        value.setattr(intern!(py, "kind"), self.error.kind().description())?;
        value.setattr(intern!(py, "code_point"), self.error.code_point())?;
        value.setattr(intern!(py, "stream_offset"), self.stream_offset)
    }
}

/// Adds `Utf8Error` to the module, with a default (`None`) for each attribute vutf8 adds,
/// so that every instance has them, also one made by other code or unpickled from an
/// older version.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let class = py.get_type::<Utf8Error>();
    for name in ["kind", "code_point", "row", "stream_offset"] {
        class.setattr(name, py.None())?;
    }
    m.add("Utf8Error", class)
}
