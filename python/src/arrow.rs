//! Arrow columns in, Arrow columns out: the kernels of `vutf8-arrow` (arrow/src/kernels.rs)
//! over any object that exports the Arrow PyCapsule interface (pyarrow, Polars, DuckDB,
//! nanoarrow, arro3). Values cross without a copy, both ways: `capsule.rs` imports the
//! C Data Interface's buffers as they are, the kernels share them in their results where
//! rows stay as they are, and the results are exported the same way.
//!
//! An object with `__arrow_c_array__` is one array and gives an [`ArrowArray`]; one with
//! only `__arrow_c_stream__` (a chunked array, a Polars Series) is read chunk by chunk and
//! gives an [`ArrowChunkedArray`] with one result chunk per input chunk. A table (a
//! `RecordBatch`, `Table`, DataFrame, or any stream of struct arrays) gives the column
//! named by `column=` (or its only column). A dictionary-encoded column is checked once
//! per dictionary value: the results per row follow the keys (`to_string` keeps the
//! dictionary, its values converted). The pure-Python `vutf8.arrow` turns results into
//! pyarrow or Polars objects when the input was one.
//!
//! Errors: a strict conversion of an invalid row raises `vutf8.Utf8Error` as
//! `row_value.decode('utf-8')` would, with `row` (from 0, across chunks) added; a column
//! that holds neither bytes nor text raises `TypeError`.
//!
//! Next: arrow/src/kernels.rs for what each kernel does and copies;
//! python/python/vutf8/arrow.py for the conversion of results to pyarrow and Polars.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    new_empty_array, Array, ArrayRef, BooleanArray, Int64Array, StringArray, StructArray,
};
use arrow_schema::{DataType, Field, FieldRef};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyTuple};
use vutf8::records::Policy;
use vutf8_arrow::kernels;
use vutf8_arrow::{RowError, Utf8ArrayError};

use crate::buffer::{run_sized, type_name};
use crate::capsule::{export_array, export_schema, export_stream, import_array, import_stream};
use crate::errors::Span;
use crate::records::policy_named;

/// One kernel: an array in, an array out.
type Kernel<'a> = &'a (dyn Fn(&dyn Array) -> Result<ArrayRef, Utf8ArrayError> + Sync);

/// What a kernel's result is to a dictionary-encoded column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Per {
    /// One value per row: the result of each dictionary value, given to the rows that
    /// point to it (`is_valid`, `error_offsets`, `error_reasons`).
    Row,
    /// The dictionary with its values converted, the keys kept (`to_string`); `strict`
    /// fails at the first row that points to an invalid value.
    Dictionary(Policy),
}

/// The column of a Python Arrow object: one array, or the chunks of a stream.
struct Column {
    chunks: Vec<ArrayRef>,
    field: FieldRef,
    /// Whether it came as one array (`__arrow_c_array__`).
    single: bool,
}

impl Column {
    /// The column of `obj`, imported without copying its buffers; of a table, the column
    /// called `name` (or its only column).
    fn from_py(obj: &Bound<'_, PyAny>, name: Option<&str>) -> PyResult<Self> {
        let py = obj.py();
        let (chunks, field, single) = if obj.hasattr(intern!(py, "__arrow_c_array__"))? {
            let (array, field) = import_array(obj)?;
            (vec![array], field, true)
        } else if obj.hasattr(intern!(py, "__arrow_c_stream__"))? {
            let (chunks, field) = import_stream(obj)?;
            (chunks, field, false)
        } else {
            return Err(PyTypeError::new_err(format!(
                "expected an Arrow array, table or stream (an object with __arrow_c_array__ \
                 or __arrow_c_stream__: pyarrow, Polars, DuckDB, nanoarrow), not {}",
                type_name(obj)
            )));
        };
        let column = Column {
            chunks,
            field,
            single,
        };
        match column.field.data_type() {
            DataType::Struct(_) => column.child(name),
            _ => match name {
                None => Ok(column),
                Some(name) => Err(PyTypeError::new_err(format!(
                    "column={name:?} names a column of a table, and this is one column"
                ))),
            },
        }
    }

    /// The column of a table (struct arrays: a record batch, a table's stream) called
    /// `name`, or its only one.
    fn child(self, name: Option<&str>) -> PyResult<Self> {
        let DataType::Struct(fields) = self.field.data_type() else {
            unreachable!("only called on struct columns");
        };
        let names = || {
            let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
            names.join(", ")
        };
        let index = match name {
            Some(name) => fields
                .iter()
                .position(|f| f.name() == name)
                .ok_or_else(|| {
                    PyKeyError::new_err(format!("no column {name:?}; the table has {}", names()))
                })?,
            None if fields.len() == 1 => 0,
            None => {
                return Err(PyTypeError::new_err(format!(
                    "a table of {} columns: name one with column= (the table has {})",
                    fields.len(),
                    names()
                )))
            }
        };
        let field = fields[index].clone();
        let chunks = self
            .chunks
            .iter()
            .map(|chunk| {
                let table: &StructArray = chunk.as_struct();
                table.column(index).clone()
            })
            .collect();
        Ok(Column {
            chunks,
            field,
            single: self.single,
        })
    }

    /// The column after `kernel`, chunk by chunk, without the GIL for large columns.
    fn map(self, py: Python<'_>, kernel: Kernel<'_>, per: Per) -> PyResult<Output> {
        // The result's type, from the kernel on an empty array of the input's type (the
        // same for every chunk, and known even for a stream without chunks).
        let empty = new_empty_array(self.field.data_type());
        let data_type = run_sized(py, 0, || apply_one(&empty, kernel, per))?
            .map_err(|e| array_error(py, &empty, 0, e))?
            .data_type()
            .clone();
        let field = Arc::new(Field::new(self.field.name(), data_type, true));
        let size = self.chunks.iter().map(|c| c.get_array_memory_size()).sum();
        let chunks = &self.chunks;
        let results = run_sized(py, size, || apply(chunks, kernel, per))?;
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
    per: Per,
) -> Result<Vec<ArrayRef>, (usize, usize, Utf8ArrayError)> {
    let mut first_row = 0;
    let mut out = Vec::with_capacity(chunks.len());
    for (i, chunk) in chunks.iter().enumerate() {
        out.push(apply_one(chunk, kernel, per).map_err(|e| (i, first_row, e))?);
        first_row += chunk.len();
    }
    Ok(out)
}

/// `kernel` over one chunk; a dictionary-encoded chunk as `per` says.
fn apply_one(chunk: &ArrayRef, kernel: Kernel<'_>, per: Per) -> Result<ArrayRef, Utf8ArrayError> {
    let Some(dictionary) = chunk.as_any_dictionary_opt() else {
        return kernel(chunk.as_ref());
    };
    let values = dictionary.values();
    let keys = keys_of(dictionary);
    let key_of = |row: usize| {
        chunk
            .is_valid(row)
            .then(|| keys.get(row).copied())
            .flatten()
    };
    match per {
        Per::Dictionary(policy) => {
            if policy == Policy::Strict {
                let valid = kernels::is_valid_utf8(values.as_ref())?;
                for row in 0..chunk.len() {
                    if let Some(k) = key_of(row) {
                        if valid.is_valid(k) && !valid.value(k) {
                            let value = row_value(values.as_ref(), k).unwrap_or_default();
                            let error = vutf8::from_utf8(value).err();
                            return Err(Utf8ArrayError::InvalidRow(RowError {
                                row,
                                offset: error.map_or(0, |e| e.valid_up_to()),
                                kind: error.map_or(vutf8::ErrorKind::Incomplete, |e| e.kind()),
                                bytes: value.to_vec(),
                            }));
                        }
                    }
                }
                // Every value a row points to is valid; the others are never seen, and
                // are replaced so that the dictionary is all text.
                let values = kernels::repair_utf8(values.as_ref(), Policy::Replace)?;
                return Ok(dictionary.with_values(values));
            }
            Ok(dictionary.with_values(kernel(values.as_ref())?))
        }
        Per::Row => {
            let result = kernel(values.as_ref())?;
            let rows = 0..chunk.len();
            let present = |k: Option<usize>| k.filter(|&k| result.is_valid(k));
            Ok(match result.data_type() {
                DataType::Boolean => {
                    let r = result.as_boolean();
                    Arc::new(
                        rows.map(|row| present(key_of(row)).map(|k| r.value(k)))
                            .collect::<BooleanArray>(),
                    )
                }
                DataType::Int64 => {
                    let r = result.as_primitive::<arrow_array::types::Int64Type>();
                    Arc::new(
                        rows.map(|row| present(key_of(row)).map(|k| r.value(k)))
                            .collect::<Int64Array>(),
                    )
                }
                _ => {
                    let r = result.as_string::<i32>();
                    Arc::new(
                        rows.map(|row| present(key_of(row)).map(|k| r.value(k)))
                            .collect::<StringArray>(),
                    )
                }
            })
        }
    }
}

/// The keys of a dictionary array as indices into its values (arbitrary for null rows);
/// none if it has no values (arrow-rs's `normalized_keys` panics there).
fn keys_of(dictionary: &dyn arrow_array::AnyDictionaryArray) -> Vec<usize> {
    if dictionary.values().is_empty() {
        return Vec::new();
    }
    dictionary.normalized_keys()
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
    if let Some(dictionary) = array.as_any_dictionary_opt() {
        let key = *keys_of(dictionary).get(i)?;
        return row_value(dictionary.values().as_ref(), key);
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

/// Runs `kernel` over the column `obj` (of a table: the column `name`).
fn over<'py>(
    obj: &Bound<'py, PyAny>,
    name: Option<&str>,
    kernel: Kernel<'_>,
    per: Per,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    Column::from_py(obj, name)?
        .map(py, kernel, per)?
        .into_py(py)
}

/// Each row valid UTF-8 (True) or not (False), null rows null: a boolean column.
#[pyfunction]
#[pyo3(signature = (data, *, column = None))]
pub fn arrow_is_valid<'py>(
    data: &Bound<'py, PyAny>,
    column: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let kernel = |a: &dyn Array| Ok(Arc::new(kernels::is_valid_utf8(a)?) as ArrayRef);
    over(data, column, &kernel, Per::Row)
}

/// For each invalid row, the byte offset of its first error (the `start` that
/// `value.decode('utf-8')` reports); null for valid and null rows: an int64 column.
#[pyfunction]
#[pyo3(signature = (data, *, column = None))]
pub fn arrow_error_offsets<'py>(
    data: &Bound<'py, PyAny>,
    column: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let kernel = |a: &dyn Array| Ok(Arc::new(kernels::utf8_error_offsets(a)?) as ArrayRef);
    over(data, column, &kernel, Per::Row)
}

/// For each invalid row, vutf8's reason (e.g. 'overlong encoding', the `kind` of
/// `vutf8.Utf8Error`); null for valid and null rows: a string column.
#[pyfunction]
#[pyo3(signature = (data, *, column = None))]
pub fn arrow_error_reasons<'py>(
    data: &Bound<'py, PyAny>,
    column: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let kernel = |a: &dyn Array| Ok(Arc::new(kernels::utf8_error_reasons(a)?) as ArrayRef);
    over(data, column, &kernel, Per::Row)
}

/// The column as strings (Binary gives Utf8, LargeBinary LargeUtf8, BinaryView Utf8View;
/// a dictionary keeps its keys), sharing its values where rows are valid; an invalid row as
/// `policy` says ("strict": raise `vutf8.Utf8Error` with `row`; "drop": null; "replace",
/// "escape" (or "backslashreplace"), "windows-1252", "utf8-or-windows-1252": that text).
#[pyfunction]
#[pyo3(signature = (data, policy = "strict", *, column = None))]
pub fn arrow_to_string<'py>(
    data: &Bound<'py, PyAny>,
    policy: &str,
    column: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let policy: Policy = policy_named(policy)?;
    let kernel = move |a: &dyn Array| kernels::repair_utf8(a, policy);
    over(data, column, &kernel, Per::Dictionary(policy))
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
        let _ = requested_schema; // (may be ignored: results keep their own type)
        export_array(py, &self.field, &self.array)
    }

    /// The Arrow C Data Interface: the schema capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        export_schema(py, self.field.as_ref())
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
        let _ = requested_schema; // (may be ignored: results keep their own type)
        export_stream(py, self.field.clone(), self.chunks.clone())
    }

    /// The Arrow C Data Interface: the schema capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        export_schema(py, self.field.as_ref())
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
