//! Arrow columns in, Arrow columns out: the kernels of `vutf8-arrow` (arrow/src/kernels.rs)
//! over any object that exports the Arrow PyCapsule interface (pyarrow, Polars, DuckDB,
//! nanoarrow, arro3). Values cross without a copy, both ways: `pyo3-arrow` imports the
//! C Data Interface's buffers as they are, the kernels share them in their results where
//! rows stay as they are, and the results are exported the same way.
//!
//! An object with `__arrow_c_array__` is one array and gives an [`ArrowArray`]; one with
//! only `__arrow_c_stream__` (a chunked array, a Polars Series) is read chunk by chunk and
//! gives an [`ArrowChunkedArray`] with one result chunk per input chunk. The pure-Python
//! `vutf8.arrow` turns these into pyarrow or Polars objects when the input was one.
//!
//! Errors: a strict conversion of an invalid row raises `vutf8.Utf8Error` as
//! `row_value.decode('utf-8')` would, with `row` (from 0, across chunks) added; a column
//! that holds neither bytes nor text raises `TypeError`.
//!
//! Next: arrow/src/kernels.rs for what each kernel does and copies;
//! python/python/vutf8/arrow.py for the conversion of results to pyarrow and Polars.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{new_empty_array, Array, ArrayRef};
use arrow_schema::{DataType, Field, FieldRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyTuple};
use pyo3_arrow::ffi::ArrayIterator;
use pyo3_arrow::ffi::{to_array_pycapsules, to_schema_pycapsule, to_stream_pycapsule};
use pyo3_arrow::{PyArray, PyChunkedArray};
use vutf8::records::Policy;
use vutf8_arrow::kernels;
use vutf8_arrow::{RowError, Utf8ArrayError};

use crate::buffer::{run_sized, type_name};
use crate::errors::Span;
use crate::records::policy_named;

/// One kernel: an array in, an array out.
type Kernel<'a> = &'a (dyn Fn(&dyn Array) -> Result<ArrayRef, Utf8ArrayError> + Sync);

/// The column of a Python Arrow object: one array, or the chunks of a stream.
struct Column {
    chunks: Vec<ArrayRef>,
    field: FieldRef,
    /// Whether it came as one array (`__arrow_c_array__`).
    single: bool,
}

impl Column {
    /// The column of `obj`, imported without copying its buffers.
    fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = obj.py();
        if obj.hasattr(intern!(py, "__arrow_c_array__"))? {
            let (array, field) = obj.extract::<PyArray>()?.into_inner();
            return Ok(Column {
                chunks: vec![array],
                field,
                single: true,
            });
        }
        if obj.hasattr(intern!(py, "__arrow_c_stream__"))? {
            let (chunks, field) = obj.extract::<PyChunkedArray>()?.into_inner();
            return Ok(Column {
                chunks,
                field,
                single: false,
            });
        }
        Err(PyTypeError::new_err(format!(
            "expected an Arrow array or stream (an object with __arrow_c_array__ or \
             __arrow_c_stream__: pyarrow, Polars, DuckDB, nanoarrow), not {}",
            type_name(obj)
        )))
    }

    /// The column after `kernel`, chunk by chunk, without the GIL for large columns.
    fn map(self, py: Python<'_>, kernel: Kernel<'_>) -> PyResult<Output> {
        // The result's type, from the kernel on an empty array of the input's type (the
        // same for every chunk, and known even for a stream without chunks).
        let empty = new_empty_array(self.field.data_type());
        let data_type = run_sized(py, 0, || kernel(&empty))?
            .map_err(|e| array_error(py, &empty, 0, e))?
            .data_type()
            .clone();
        let field = Arc::new(Field::new(self.field.name(), data_type, true));
        let size = self.chunks.iter().map(|c| c.get_array_memory_size()).sum();
        let chunks = &self.chunks;
        let results = run_sized(py, size, || apply(chunks, kernel))?;
        let chunks =
            results.map_err(|(i, first_row, e)| array_error(py, &chunks[i], first_row, e))?;
        Ok(Output {
            chunks,
            field,
            single: self.single,
        })
    }
}

/// `kernel` over each chunk; on an error, the chunk's index, its first row in the column,
/// and the error.
fn apply(
    chunks: &[ArrayRef],
    kernel: Kernel<'_>,
) -> Result<Vec<ArrayRef>, (usize, usize, Utf8ArrayError)> {
    let mut first_row = 0;
    let mut out = Vec::with_capacity(chunks.len());
    for (i, chunk) in chunks.iter().enumerate() {
        out.push(kernel(chunk.as_ref()).map_err(|e| (i, first_row, e))?);
        first_row += chunk.len();
    }
    Ok(out)
}

/// A kernel's error as a Python exception; `chunk` is the array it came from, whose first
/// row is row `first_row` of the column.
fn array_error(py: Python<'_>, chunk: &ArrayRef, first_row: usize, e: Utf8ArrayError) -> PyErr {
    match e {
        Utf8ArrayError::InvalidRow(row) => invalid_row(py, chunk, first_row, &row),
        Utf8ArrayError::UnsupportedType(_) => PyTypeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The `vutf8.Utf8Error` of an invalid row: what `value.decode('utf-8')` raises for the
/// row's value, with `row` set to its row in the column.
fn invalid_row(py: Python<'_>, chunk: &ArrayRef, first_row: usize, row: &RowError) -> PyErr {
    let Some(value) = row_value(chunk.as_ref(), row.row) else {
        return PyValueError::new_err(row.to_string());
    };
    let Err(error) = vutf8::from_utf8(value) else {
        return PyValueError::new_err(row.to_string());
    };
    let err = Span::in_data(error, value).to_pyerr(PyBytes::new(py, value));
    match err
        .value(py)
        .setattr(intern!(py, "row"), first_row + row.row)
    {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// The bytes of row `i` of a binary or string array.
fn row_value(array: &dyn Array, i: usize) -> Option<&[u8]> {
    if i >= array.len() {
        return None;
    }
    Some(match array.data_type() {
        DataType::Binary => array.as_binary::<i32>().value(i),
        DataType::LargeBinary => array.as_binary::<i64>().value(i),
        DataType::BinaryView => array.as_binary_view().value(i),
        DataType::Utf8 => array.as_string::<i32>().value(i).as_bytes(),
        DataType::LargeUtf8 => array.as_string::<i64>().value(i).as_bytes(),
        DataType::Utf8View => array.as_string_view().value(i).as_bytes(),
        _ => return None,
    })
}

/// A kernel's result, before it becomes a Python object.
struct Output {
    chunks: Vec<ArrayRef>,
    field: FieldRef,
    single: bool,
}

impl Output {
    /// The result as an [`ArrowArray`] (the input was one array) or an
    /// [`ArrowChunkedArray`].
    fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        let Output {
            chunks,
            field,
            single,
        } = self;
        match chunks.as_slice() {
            [array] if single => {
                let array = array.clone();
                Ok(Bound::new(py, ArrowArray { array, field })?.into_any())
            }
            _ => Ok(Bound::new(py, ArrowChunkedArray { chunks, field })?.into_any()),
        }
    }
}

/// Runs `kernel` over the column `obj`.
fn over<'py>(obj: &Bound<'py, PyAny>, kernel: Kernel<'_>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    Column::from_py(obj)?.map(py, kernel)?.into_py(py)
}

/// Each row valid UTF-8 (True) or not (False), null rows null: a boolean column.
#[pyfunction]
pub fn arrow_is_valid<'py>(column: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    over(column, &|a| {
        Ok(Arc::new(kernels::is_valid_utf8(a)?) as ArrayRef)
    })
}

/// For each invalid row, the byte offset of its first error (the `start` that
/// `value.decode('utf-8')` reports); null for valid and null rows: an int64 column.
#[pyfunction]
pub fn arrow_error_offsets<'py>(column: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    over(column, &|a| {
        Ok(Arc::new(kernels::utf8_error_offsets(a)?) as ArrayRef)
    })
}

/// For each invalid row, vutf8's reason (e.g. 'overlong encoding', the `kind` of
/// `vutf8.Utf8Error`); null for valid and null rows: a string column.
#[pyfunction]
pub fn arrow_error_reasons<'py>(column: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    over(column, &|a| {
        Ok(Arc::new(kernels::utf8_error_reasons(a)?) as ArrayRef)
    })
}

/// The column as strings (Binary gives Utf8, LargeBinary LargeUtf8, BinaryView Utf8View),
/// sharing its values where rows are valid; an invalid row as `policy` says ("strict":
/// raise `vutf8.Utf8Error` with `row`; "drop": null; "replace", "escape", "windows-1252":
/// that text).
#[pyfunction]
#[pyo3(signature = (column, policy = "strict"))]
pub fn arrow_to_string<'py>(
    column: &Bound<'py, PyAny>,
    policy: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let policy: Policy = policy_named(policy)?;
    over(column, &move |a| kernels::repair_utf8(a, policy))
}

/// A result array: exports the Arrow PyCapsule interface (`__arrow_c_array__`), so that
/// `pyarrow.array(result)`, `polars.Series(result)` or any other Arrow library can take it
/// without a copy.
#[pyclass(module = "vutf8", name = "ArrowArray", frozen)]
pub struct ArrowArray {
    array: ArrayRef,
    field: FieldRef,
}

#[pymethods]
impl ArrowArray {
    /// The Arrow C Data Interface: (schema capsule, array capsule).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyCapsule>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        Ok(to_array_pycapsules(
            py,
            self.field.clone(),
            &self.array,
            requested_schema,
        )?)
    }

    /// The Arrow C Data Interface: the schema capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        Ok(to_schema_pycapsule(py, self.field.as_ref())?)
    }

    /// The number of rows.
    fn __len__(&self) -> usize {
        self.array.len()
    }

    /// E.g. `<vutf8.ArrowArray: 3 rows of Boolean>`.
    fn __repr__(&self) -> String {
        format!(
            "<vutf8.ArrowArray: {} rows of {}>",
            self.array.len(),
            self.field.data_type()
        )
    }
}

/// A result with one chunk per input chunk: exports the Arrow PyCapsule stream interface
/// (`__arrow_c_stream__`, which can be read any number of times), so that
/// `pyarrow.chunked_array(result)` or `polars.Series(result)` take it without a copy.
#[pyclass(module = "vutf8", name = "ArrowChunkedArray", frozen)]
pub struct ArrowChunkedArray {
    chunks: Vec<ArrayRef>,
    field: FieldRef,
}

#[pymethods]
impl ArrowChunkedArray {
    /// The Arrow C Stream Interface: a stream capsule over the chunks.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyCapsule>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let chunks = self.chunks.clone().into_iter().map(Ok);
        let reader = Box::new(ArrayIterator::new(chunks, self.field.clone()));
        Ok(to_stream_pycapsule(py, reader, requested_schema)?)
    }

    /// The Arrow C Data Interface: the schema capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        Ok(to_schema_pycapsule(py, self.field.as_ref())?)
    }

    /// The number of rows, all chunks together.
    fn __len__(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    /// E.g. `<vutf8.ArrowChunkedArray: 3 chunks, 10 rows of Utf8View>`.
    fn __repr__(&self) -> String {
        format!(
            "<vutf8.ArrowChunkedArray: {} chunks, {} rows of {}>",
            self.chunks.len(),
            self.__len__(),
            self.field.data_type()
        )
    }
}

/// Adds the functions and result classes of this module to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrow_is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_error_offsets, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_error_reasons, m)?)?;
    m.add_function(wrap_pyfunction!(arrow_to_string, m)?)?;
    m.add_class::<ArrowArray>()?;
    m.add_class::<ArrowChunkedArray>()
}
