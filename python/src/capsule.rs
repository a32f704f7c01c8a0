//! The Arrow PyCapsule interface, both ways, on the C Data Interface of arrow-rs itself:
//! arrays (`__arrow_c_array__`: a schema capsule and an array capsule) and streams
//! (`__arrow_c_stream__`: one stream capsule, whose arrays may be of any type, not only
//! the struct arrays of record batches), imported and exported without copying a buffer.
//!
//! This is what the package took from `pyo3-arrow` before (the stream reader and writer
//! below follow its `ffi_stream.rs`, MIT OR Apache-2.0, itself derived from arrow-rs's),
//! without its casts and conversions, whose crates (arrow-cast, chrono-tz, NumPy's
//! bindings) made most of the wheel and of its build time. A `requested_schema` is not
//! honoured (the Arrow PyCapsule protocol lets a producer ignore it): results are given in
//! their own type.
//!
//! Next: `arrow.rs`, which runs the kernels over what is imported here.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::Arc;

use arrow_array::ffi::{from_ffi, from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{make_array, ArrayRef};
use arrow_schema::{ArrowError, Field, FieldRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";
const STREAM: &CStr = c"arrow_array_stream";

/// An Arrow error as a Python `ValueError`.
fn arrow_error(e: ArrowError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The array and field of `obj.__arrow_c_array__()`.
pub fn import_array(obj: &Bound<'_, PyAny>) -> PyResult<(ArrayRef, FieldRef)> {
    let py = obj.py();
    let pair = obj.call_method0(intern!(py, "__arrow_c_array__"))?;
    let pair = pair
        .cast::<PyTuple>()
        .map_err(|_| PyTypeError::new_err("__arrow_c_array__ must return a tuple"))?;
    let schema = pair.get_item(0)?.cast_into::<PyCapsule>()?;
    let array = pair.get_item(1)?.cast_into::<PyCapsule>()?;
    let schema_ptr = schema
        .pointer_checked(Some(SCHEMA))?
        .cast::<FFI_ArrowSchema>();
    let array_ptr = array.pointer_checked(Some(ARRAY))?.cast::<FFI_ArrowArray>();
    // SAFETY: the capsules are named as the protocol says, so they hold an ArrowSchema and
    // an ArrowArray; the schema is borrowed while `schema` lives, and the array is moved
    // out (`from_raw` leaves it released, so the capsule's destructor does not release it
    // again), which is how a consumer takes ownership.
    let (data, field) = unsafe {
        let schema = schema_ptr.as_ref();
        let array = FFI_ArrowArray::from_raw(array_ptr.as_ptr());
        (from_ffi(array, schema), Field::try_from(schema))
    };
    Ok((
        make_array(data.map_err(arrow_error)?),
        Arc::new(field.map_err(arrow_error)?),
    ))
}

/// Every array of `obj.__arrow_c_stream__()`, and their field.
pub fn import_stream(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<ArrayRef>, FieldRef)> {
    let py = obj.py();
    let capsule = obj
        .call_method0(intern!(py, "__arrow_c_stream__"))?
        .cast_into::<PyCapsule>()?;
    let ptr = capsule
        .pointer_checked(Some(STREAM))?
        .cast::<FFI_ArrowArrayStream>();
    // SAFETY: the capsule is named as the protocol says, so it holds an ArrowArrayStream,
    // which is moved out (left released) to be read and released here.
    let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(ptr.as_ptr()) };
    let (Some(get_schema), Some(get_next)) = (stream.get_schema, stream.get_next) else {
        return Err(PyValueError::new_err(
            "the Arrow stream was already released",
        ));
    };
    let mut schema = FFI_ArrowSchema::empty();
    // SAFETY: the stream's own callback, on the stream, into an empty schema it fills.
    if unsafe { get_schema(&mut stream, &mut schema) } != 0 {
        return Err(stream_error(&mut stream));
    }
    let field = Arc::new(Field::try_from(&schema).map_err(arrow_error)?);
    let mut chunks = Vec::new();
    loop {
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: as above, into an empty array the callback fills (released at the end).
        if unsafe { get_next(&mut stream, &mut array) } != 0 {
            return Err(stream_error(&mut stream));
        }
        if array.is_released() {
            break;
        }
        // SAFETY: the array came from the stream, whose schema is `field`'s type.
        let data = unsafe { from_ffi_and_data_type(array, field.data_type().clone()) };
        chunks.push(make_array(data.map_err(arrow_error)?));
    }
    Ok((chunks, field))
}

/// The stream's last error as a Python exception.
fn stream_error(stream: &mut FFI_ArrowArrayStream) -> PyErr {
    let message = stream.get_last_error.and_then(|last_error| {
        // SAFETY: the stream's own callback; it returns null or a C string it owns, valid
        // until the next call, which is read at once.
        unsafe {
            let text = last_error(stream);
            (!text.is_null()).then(|| CStr::from_ptr(text).to_string_lossy().into_owned())
        }
    });
    PyValueError::new_err(message.unwrap_or_else(|| "the Arrow stream failed".to_owned()))
}

/// `field` as a schema capsule.
pub fn export_schema<'py>(py: Python<'py>, field: &Field) -> PyResult<Bound<'py, PyCapsule>> {
    let schema = FFI_ArrowSchema::try_from(field).map_err(arrow_error)?;
    PyCapsule::new_with_value(py, schema, SCHEMA)
}

/// `array` of `field` as the pair of capsules of `__arrow_c_array__`.
pub fn export_array<'py>(
    py: Python<'py>,
    field: &Field,
    array: &ArrayRef,
) -> PyResult<Bound<'py, PyTuple>> {
    let schema = export_schema(py, field)?;
    let array = PyCapsule::new_with_value(py, FFI_ArrowArray::new(&array.to_data()), ARRAY)?;
    PyTuple::new(py, [schema, array])
}

/// `chunks` of `field` as the capsule of `__arrow_c_stream__`.
pub fn export_stream<'py>(
    py: Python<'py>,
    field: FieldRef,
    chunks: Vec<ArrayRef>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let private = Box::new(Exported {
        field,
        chunks: chunks.into_iter(),
        last_error: None,
    });
    let stream = FFI_ArrowArrayStream {
        get_schema: Some(get_schema),
        get_next: Some(get_next),
        get_last_error: Some(get_last_error),
        release: Some(release),
        private_data: Box::into_raw(private).cast::<c_void>(),
    };
    PyCapsule::new_with_value(py, stream, STREAM)
}

/// What an exported stream holds.
struct Exported {
    field: FieldRef,
    chunks: std::vec::IntoIter<ArrayRef>,
    last_error: Option<CString>,
}

/// The private data of an exported stream.
///
/// # Safety
/// `stream` is a live stream made by [`export_stream`].
unsafe fn exported<'a>(stream: *mut FFI_ArrowArrayStream) -> &'a mut Exported {
    // SAFETY: by the caller's promise, `private_data` is the `Exported` boxed there.
    unsafe { &mut *(*stream).private_data.cast::<Exported>() }
}

/// The stream's `get_schema`.
unsafe extern "C" fn get_schema(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowSchema,
) -> c_int {
    // SAFETY: a consumer calls this on the stream it got from `export_stream`.
    let private = unsafe { exported(stream) };
    match FFI_ArrowSchema::try_from(private.field.as_ref()) {
        Ok(schema) => {
            // SAFETY: `out` is the consumer's room for a schema, which takes ownership.
            unsafe { std::ptr::write(out, schema) };
            0
        }
        Err(e) => {
            private.last_error = CString::new(e.to_string()).ok();
            EINVAL
        }
    }
}

/// The stream's `get_next`: the next array, or a released one at the end.
unsafe extern "C" fn get_next(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowArray,
) -> c_int {
    // SAFETY: a consumer calls this on the stream it got from `export_stream`.
    let private = unsafe { exported(stream) };
    let array = match private.chunks.next() {
        Some(chunk) => FFI_ArrowArray::new(&chunk.to_data()),
        None => FFI_ArrowArray::empty(),
    };
    // SAFETY: `out` is the consumer's room for an array, which takes ownership.
    unsafe { std::ptr::write(out, array) };
    0
}

/// The stream's `get_last_error`.
unsafe extern "C" fn get_last_error(stream: *mut FFI_ArrowArrayStream) -> *const c_char {
    // SAFETY: a consumer calls this on the stream it got from `export_stream`.
    let private = unsafe { exported(stream) };
    private
        .last_error
        .as_ref()
        .map_or(std::ptr::null(), |e| e.as_ptr())
}

/// The stream's `release`.
unsafe extern "C" fn release(stream: *mut FFI_ArrowArrayStream) {
    if stream.is_null() {
        return;
    }
    // SAFETY: called once, by the owner of the stream, which `export_stream` made with a
    // boxed `Exported` as its private data.
    unsafe {
        let stream = &mut *stream;
        drop(Box::from_raw(stream.private_data.cast::<Exported>()));
        stream.get_schema = None;
        stream.get_next = None;
        stream.get_last_error = None;
        stream.release = None;
    }
}

/// `EINVAL`: what the C Stream Interface returns for an error that is no I/O error.
const EINVAL: c_int = 22;
