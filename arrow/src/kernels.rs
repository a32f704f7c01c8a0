//! Arrow kernels: UTF-8 checks over whole arrays of bytes.
//!
//! Every kernel takes a `Binary`, `LargeBinary` or `BinaryView` array, or one of the string
//! types (checked as the bytes they are, see [`crate::column`]), and returns, row by row:
//!
//! | kernel | result (null rows stay null) | copies |
//! |---|---|---|
//! | [`validate_utf8`] | the same rows as a string array, or the first invalid row's error | nothing: shares the values (a slice's offsets are rebased) |
//! | [`try_validate_utf8`] | the string array, invalid rows null | views: the views; offsets: the values, unless all are valid |
//! | [`is_valid_utf8`] | `BooleanArray` | - |
//! | [`make_valid_utf8`] | the string array, invalid rows repaired exactly as `String::from_utf8_lossy` | views: only repaired values; offsets: the values, unless all are valid |
//! | [`repair_utf8`] | the string array, invalid rows as a [`Policy`] says (escaped, read as windows-1252, null, or the error) | as above |
//! | [`utf8_error_offsets`] | `Int64Array`: std's `valid_up_to` of invalid rows, null for valid ones | - |
//! | [`utf8_error_reasons`] | `StringArray`: why invalid rows are, null for valid ones | - |
//!
//! `Binary` gives `Utf8`, `LargeBinary` gives `LargeUtf8`, `BinaryView` gives `Utf8View`
//! (and each string type gives itself). How rows are decided with one pass over each
//! buffer: [`vutf8::records::RangeMap`]; how results share the input's buffers: [`crate::output`].

use arrow_array::{
    Array, ArrayRef, BinaryViewArray, BooleanArray, GenericBinaryArray, GenericStringArray,
    Int64Array, OffsetSizeTrait, StringArray, StringViewArray,
};
use arrow_buffer::NullBuffer;

use crate::column::ByteColumn;
use crate::error::{RowError, Utf8ArrayError};
use crate::output::{strings, RowOut};
use vutf8::records::Policy;

/// Each row valid UTF-8 or not; null rows stay null.
///
/// ```
/// use arrow_array::{Array, BinaryArray};
/// let rows = BinaryArray::from_opt_vec(vec![Some(b"ok"), Some(b"\xC0\xAF"), None]);
/// let valid = vutf8_arrow::kernels::is_valid_utf8(&rows).unwrap();
/// assert!(valid.value(0) && !valid.value(1) && valid.is_null(2));
/// ```
pub fn is_valid_utf8(array: &dyn Array) -> Result<BooleanArray, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    Ok(BooleanArray::new(verdicts.valid, column.nulls().cloned()))
}

/// The array as strings, sharing its buffers, if every row that is not null is valid
/// UTF-8; otherwise the first row that is not, with its byte offset and reason.
///
/// Arrow requires every byte a string array's rows cover to be valid, null rows
/// included: if only null rows hold invalid bytes, the result is a copy with those rows
/// emptied (offset layouts; views are emptied in a copy of the views).
pub fn validate_utf8(array: &dyn Array) -> Result<ArrayRef, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    if verdicts.all_valid() {
        return strings(&column, column.nulls().cloned(), true, |_| RowOut::Keep);
    }
    if let Some(row) = verdicts.first_invalid(column.nulls()) {
        return Err(Utf8ArrayError::InvalidRow(
            RowError::of(row, column.value(row)).expect("a row found invalid has an error"),
        ));
    }
    strings(&column, column.nulls().cloned(), false, |i| {
        if verdicts.is_valid(i) {
            RowOut::Keep
        } else {
            RowOut::Empty
        }
    })
}

/// The array as strings, invalid rows null.
pub fn try_validate_utf8(array: &dyn Array) -> Result<ArrayRef, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    if verdicts.all_valid() {
        return strings(&column, column.nulls().cloned(), true, |_| RowOut::Keep);
    }
    let valid = NullBuffer::new(verdicts.valid.clone());
    let nulls = NullBuffer::union(column.nulls(), Some(&valid));
    strings(&column, nulls, false, |i| {
        if verdicts.is_valid(i) {
            RowOut::Keep
        } else {
            RowOut::Empty
        }
    })
}

/// The array as strings, each ill-formed part of an invalid row replaced by U+FFFD: per
/// row, exactly `String::from_utf8_lossy`. Valid rows are not copied where the layout
/// allows (views), and nothing is copied if every row is valid.
///
/// ```
/// use arrow_array::{cast::AsArray, Array, BinaryArray};
/// let rows = BinaryArray::from_vec(vec![b"caf\xC3\xA9", b"caf\xE9!"]);
/// let repaired = vutf8_arrow::kernels::make_valid_utf8(&rows).unwrap();
/// let repaired = repaired.as_string::<i32>();
/// assert_eq!((repaired.value(0), repaired.value(1)), ("café", "caf\u{FFFD}!"));
/// ```
pub fn make_valid_utf8(array: &dyn Array) -> Result<ArrayRef, Utf8ArrayError> {
    written(array, Policy::Replace)
}

/// The array as strings, each invalid row handled by `policy` ([`Policy`]; valid rows are
/// never changed): `Replace` is [`make_valid_utf8`], `Drop` is [`try_validate_utf8`] (the
/// row becomes null, so the array keeps its length), `Strict` is [`validate_utf8`] (the
/// first invalid row is the error), and `Escape` and `Windows1252` write each invalid row
/// as that policy's text. Valid rows are shared, not copied, as [`make_valid_utf8`] says.
///
/// ```
/// use arrow_array::{cast::AsArray, Array, BinaryArray};
/// use vutf8::records::Policy;
/// let rows = BinaryArray::from_vec(vec![b"caf\xC3\xA9", b"caf\xE9!"]);
/// let escaped = vutf8_arrow::kernels::repair_utf8(&rows, Policy::Escape).unwrap();
/// let escaped = escaped.as_string::<i32>();
/// assert_eq!((escaped.value(0), escaped.value(1)), ("café", "caf\\xe9!"));
/// let dropped = vutf8_arrow::kernels::repair_utf8(&rows, Policy::Drop).unwrap();
/// assert!(dropped.is_valid(0) && dropped.is_null(1));
/// ```
pub fn repair_utf8(array: &dyn Array, policy: Policy) -> Result<ArrayRef, Utf8ArrayError> {
    match policy {
        Policy::Strict => validate_utf8(array),
        Policy::Drop => try_validate_utf8(array),
        Policy::Replace => make_valid_utf8(array),
        _ => written(array, policy),
    }
}

/// The array as strings, each invalid row that is not null written by `policy` (a
/// policy that gives no text empties it), null rows with invalid bytes emptied.
fn written(array: &dyn Array, policy: Policy) -> Result<ArrayRef, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    let unchanged = verdicts.all_valid();
    strings(&column, column.nulls().cloned(), unchanged, |i| {
        if verdicts.is_valid(i) {
            RowOut::Keep
        } else if column.is_null(i) {
            RowOut::Empty
        } else {
            RowOut::Repair(policy)
        }
    })
}

/// For each invalid row, the byte offset of its first error (std's `valid_up_to`); null
/// for valid and null rows.
pub fn utf8_error_offsets(array: &dyn Array) -> Result<Int64Array, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    Ok((0..column.len())
        .map(|i| row_error(&column, &verdicts, i).map(|e| e.offset as i64))
        .collect())
}

/// For each invalid row, why it is invalid (e.g. `overlong encoding`, see
/// [`vutf8::ErrorKind`]); null for valid and null rows.
pub fn utf8_error_reasons(array: &dyn Array) -> Result<StringArray, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    Ok((0..column.len())
        .map(|i| row_error(&column, &verdicts, i).map(|e| e.kind.description()))
        .collect())
}

/// The first row that is not null and not valid UTF-8, with its error.
pub fn first_invalid_row(array: &dyn Array) -> Result<Option<RowError>, Utf8ArrayError> {
    let column = ByteColumn::of(array)?;
    let verdicts = column.verdicts();
    Ok(verdicts
        .first_invalid(column.nulls())
        .and_then(|row| RowError::of(row, column.value(row))))
}

/// The error of row `i`, if it is not null and not valid.
fn row_error(
    column: &ByteColumn,
    verdicts: &crate::column::Verdicts,
    i: usize,
) -> Option<RowError> {
    if verdicts.is_valid(i) || column.is_null(i) {
        return None;
    }
    RowError::of(i, column.value(i))
}

/// [`validate_utf8`] typed: a binary array as the string array sharing its values.
pub fn binary_to_string<O: OffsetSizeTrait>(
    array: &GenericBinaryArray<O>,
) -> Result<GenericStringArray<O>, Utf8ArrayError> {
    let strings = validate_utf8(array)?;
    Ok(strings
        .as_any()
        .downcast_ref::<GenericStringArray<O>>()
        .expect("validate_utf8 keeps the offset width")
        .clone())
}

/// [`validate_utf8`] typed: a binary view array as the string view array sharing its views
/// and buffers.
pub fn binary_view_to_string_view(
    array: &BinaryViewArray,
) -> Result<StringViewArray, Utf8ArrayError> {
    let strings = validate_utf8(array)?;
    Ok(strings
        .as_any()
        .downcast_ref::<StringViewArray>()
        .expect("validate_utf8 keeps the view layout")
        .clone())
}
