//! The records API in Python form (`vutf8::records`, docs/RECORDS.md): the verdict of every
//! line of a buffer (`line_verdicts`, `invalid_lines`) and the repair policies per line
//! (`repair`), from one pass over the buffer.
//!
//! Records are those of `vutf8::records::lines` (cut at `\n`, a `\r` before it left out of
//! the record) or, with `delimiter=`, of `vutf8::records::split` (any ASCII byte; another
//! byte is refused with a `ValueError`). `repair` writes each record with the line end it
//! had, as `vutf8 repair --policy` does (cli/src/commands/repair_lines.rs): a dropped record
//! loses its line end too. Next: `vutf8::records` in the core for how records are found.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyTuple};
use std::borrow::Cow;

use vutf8::records::{lines, split, DelimiterError, Policy, Records};

use crate::buffer::{run, type_name, Input};
use crate::decode::ignored;
use crate::validate::check;

/// How a buffer is cut into records.
#[derive(Clone, Copy, Debug)]
enum Framing {
    /// `vutf8::records::lines`: at `\n`, a `\r` before it left out of the record.
    Lines,
    /// `vutf8::records::split` at this byte.
    Split(u8),
}

impl Framing {
    /// The framing a Python `delimiter` argument asks for: `None` for lines, else one byte
    /// (an `int` or a `bytes` of length 1), which must be ASCII.
    fn from_py(delimiter: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(obj) = delimiter else {
            return Ok(Framing::Lines);
        };
        let byte = if obj.is_instance_of::<PyInt>() {
            obj.extract::<u8>()
                .map_err(|_| PyValueError::new_err("delimiter must be a byte, 0 to 127"))?
        } else {
            match obj.cast::<PyBytes>().map(|b| b.as_bytes()) {
                Ok(&[byte]) => byte,
                _ => {
                    return Err(PyTypeError::new_err(format!(
                        "delimiter must be an int or a bytes of length 1, not {}",
                        type_name(obj)
                    )))
                }
            }
        };
        // The rule (ASCII only) is vutf8's: ask it with an empty buffer.
        let framing = Framing::Split(byte);
        framing.records(b"").map_err(delimiter_error)?;
        Ok(framing)
    }

    /// The records of `bytes`.
    fn records(self, bytes: &[u8]) -> Result<Records<'_>, DelimiterError> {
        match self {
            Framing::Lines => Ok(lines(bytes)),
            Framing::Split(byte) => split(bytes, byte),
        }
    }
}

/// A refused delimiter as a Python exception.
fn delimiter_error(e: DelimiterError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The verdict of every record of `data` (any object with the buffer protocol), in order:
/// True for a valid line, False for one that is not valid UTF-8 on its own. Lines end at
/// `\n` (a `\r` before it is not part of the line; there is no line after a final `\n`);
/// with `delimiter` (an ASCII byte, as an int or a bytes of length 1), records end there.
#[pyfunction]
#[pyo3(signature = (data, delimiter = None))]
pub fn line_verdicts(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    delimiter: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<bool>> {
    let framing = Framing::from_py(delimiter)?;
    let input = Input::new(data)?;
    run(py, input.bytes(), |bytes| {
        Ok(framing.records(bytes)?.map(|r| r.is_valid()).collect())
    })?
    .map_err(delimiter_error)
}

/// The indices (from 0) of the records of `data` that are not valid UTF-8, in order: the
/// records of `line_verdicts`, for buffers where few lines are damaged. With `offsets`,
/// the byte offset in `data` where each such record starts, instead of its index.
#[pyfunction]
#[pyo3(signature = (data, delimiter = None, *, offsets = false))]
pub fn invalid_lines(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    delimiter: Option<&Bound<'_, PyAny>>,
    offsets: bool,
) -> PyResult<Vec<usize>> {
    let framing = Framing::from_py(delimiter)?;
    let input = Input::new(data)?;
    run(py, input.bytes(), |bytes| {
        let records = framing.records(bytes)?.enumerate();
        Ok(records
            .filter(|(_, r)| !r.is_valid())
            .map(|(i, r)| if offsets { r.offset() } else { i })
            .collect())
    })?
    .map_err(delimiter_error)
}

/// `data` as UTF-8 `bytes`, each invalid record changed by `policy`, each record keeping
/// its line end (`\n`, `\r\n`, the delimiter, or none for a last record without one):
///
/// - "replace": each ill-formed part becomes U+FFFD, as `line.decode('utf-8', 'replace')`;
/// - "escape" or "backslashreplace": each byte of each ill-formed part becomes `\xNN`, as
///   `line.decode('utf-8', 'backslashreplace')`;
/// - "ignore": the ill-formed parts are left out, as `line.decode('utf-8', 'ignore')`;
/// - "windows-1252": an invalid record is decoded whole as windows-1252 (the WHATWG table);
/// - "utf8-or-windows-1252": each ill-formed part is decoded as windows-1252;
/// - "drop": an invalid record is left out, with its line end;
/// - "strict": raises the `vutf8.Utf8Error` of the first error, as `validate(data)` does.
///
/// Valid input comes back unchanged (the same object when it is `bytes`). "surrogateescape"
/// is refused: lone surrogates have no UTF-8 (`decode` gives them in a `str`).
#[pyfunction]
#[pyo3(signature = (data, policy = "replace", delimiter = None))]
pub fn repair<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    policy: &str,
    delimiter: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let policy = repair_named(policy)?;
    let framing = Framing::from_py(delimiter)?;
    let input = Input::new(data)?;
    if run(py, input.bytes(), vutf8::is_valid)? {
        return Ok(input.to_py_bytes(data));
    }
    if policy == Repair::Policy(Policy::Strict) {
        check(py, &input, data)?;
    }
    let text = run(py, input.bytes(), |bytes| repaired(bytes, framing, policy))?;
    Ok(PyBytes::new(py, &text.map_err(delimiter_error)?))
}

/// What `repair` does with an invalid record: one of vutf8's policies, or CPython's
/// `ignore` (the ill-formed parts left out, the rest of the record kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repair {
    /// `vutf8::records::Policy`.
    Policy(Policy),
    /// `bytes.decode('utf-8', 'ignore')` per record.
    Ignore,
}

impl Repair {
    /// The text of `record` (not valid UTF-8), `None` when it is left out.
    fn text(self, record: &[u8]) -> Option<Cow<'_, str>> {
        match self {
            Repair::Policy(policy) => policy.text(record),
            Repair::Ignore => Some(Cow::Owned(ignored(record))),
        }
    }
}

/// The handler names of CPython that name a policy too: `backslashreplace` is `escape`;
/// `strict` and `replace` are the same words.
fn cpython_alias(name: &str) -> &str {
    match name {
        "backslashreplace" => "escape",
        other => other,
    }
}

/// The policy called `name` (`vutf8::records::Policy::name`, or a CPython handler name
/// that means one), or a `ValueError`.
pub fn policy_named(name: &str) -> PyResult<Policy> {
    Policy::from_name(cpython_alias(name)).ok_or_else(|| unknown_policy(name))
}

/// What `repair` does for the policy or handler called `name`, or a `ValueError`.
pub fn repair_named(name: &str) -> PyResult<Repair> {
    if name == "ignore" {
        return Ok(Repair::Ignore);
    }
    policy_named(name).map(Repair::Policy)
}

/// The `ValueError` of a name that is no policy.
fn unknown_policy(name: &str) -> PyErr {
    if name == "surrogateescape" {
        return PyValueError::new_err(
            "policy \"surrogateescape\" writes lone surrogates, which UTF-8 cannot hold: \
             use vutf8.decode(data, \"surrogateescape\") for a str",
        );
    }
    let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
    PyValueError::new_err(format!(
        "unknown policy {name:?}: expected one of {}, or CPython's \"backslashreplace\" \
         (escape) and \"ignore\" where bytes are written",
        names.join(", ")
    ))
}

/// Every record of `bytes` under `policy` (not `Strict`: its refusals are left out here),
/// each followed by its line end: the bytes up to where the next record starts
/// (`Records::remaining`), so that no byte is searched twice. A record the policy leaves
/// out (`Drop`) goes with its line end. Where the policy writes each ill-formed part on
/// its own (`Policy::repairs_each_part`, and `ignore`), no part holds a line end, and the
/// whole buffer is repaired in one pass.
fn repaired(bytes: &[u8], framing: Framing, policy: Repair) -> Result<Vec<u8>, DelimiterError> {
    let mut records = framing.records(bytes)?;
    let whole = match policy {
        Repair::Policy(p) if p.repairs_each_part() => p.text(bytes),
        Repair::Ignore => Some(Cow::Owned(ignored(bytes))),
        Repair::Policy(_) => None,
    };
    if let Some(text) = whole {
        return Ok(text.into_owned().into_bytes());
    }
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    while let Some(record) = records.next() {
        let text = match record.to_str() {
            Ok(text) => Some(Cow::Borrowed(text)),
            Err(_) => policy.text(record.bytes()),
        };
        if let Some(text) = text {
            let next = bytes.len() - records.remaining().len();
            out.extend_from_slice(text.as_bytes());
            out.extend_from_slice(&bytes[record.offset() + record.bytes().len()..next]);
        }
    }
    Ok(out)
}

/// Adds the functions of this module to `m`, `POLICIES` (vutf8's policies' names) and
/// `ERROR_HANDLERS` (CPython's handlers that vutf8 runs itself), as tuples.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(line_verdicts, m)?)?;
    m.add_function(wrap_pyfunction!(invalid_lines, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    let names = Policy::ALL.iter().map(|p| p.name());
    m.add("POLICIES", PyTuple::new(m.py(), names)?)?;
    m.add(
        "ERROR_HANDLERS",
        PyTuple::new(m.py(), crate::decode::HANDLER_NAMES)?,
    )
}
