//! The output side: a string array made from a checked byte array, sharing its buffers
//! where every row stays as it is, and otherwise copying as little as the layout allows.
//!
//! Each row is kept, emptied (a row that becomes or is null, whose bytes must not stay in
//! a string array if they are not valid), or repaired by a [`Policy`] (`Replace`: each
//! ill-formed part replaced by U+FFFD, as `String::from_utf8_lossy` does).
//!
//! - Nothing to change: the result shares the values buffer (or the views and data
//!   buffers) of the input. For a sliced offset array only the offsets are rebased.
//! - Views: the views are copied (16 bytes a row); kept rows still point into the input's
//!   buffers, and only repaired values are written, into new buffers.
//! - Offsets: the values must lie back to back in one buffer, so a new one is written;
//!   runs of kept rows are copied in one piece each.

use std::sync::Arc;

use arrow_array::builder::make_view;
use arrow_array::{
    Array, ArrayRef, BinaryViewArray, GenericBinaryArray, GenericStringArray, OffsetSizeTrait,
    StringViewArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};

use crate::column::{ByteColumn, MAX_INLINE};
use crate::error::Utf8ArrayError;

use vutf8::records::Policy;

/// The replacement character, U+FFFD, in UTF-8.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// New data buffers of a view array are started when the current one reaches this size.
const VIEW_BLOCK: usize = 2 << 20;

/// What becomes of one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowOut {
    /// Valid: its bytes stay as they are.
    Keep,
    /// Becomes the empty string (a null row's bytes, not valid, dropped).
    Empty,
    /// Invalid, and written as the policy says: one that gives text (`Replace`, `Escape`,
    /// `Windows1252`; a policy that gives none, `Drop` or `Strict`, empties the row).
    Repair(Policy),
}

/// The text of `bytes` (not valid UTF-8) under `policy`, appended to `out`.
fn push_repaired(out: &mut Vec<u8>, bytes: &[u8], policy: Policy) {
    if policy == Policy::Replace {
        push_replaced(out, bytes);
    } else if let Some(text) = policy.text(bytes) {
        out.extend_from_slice(text.as_bytes());
    }
}

/// `bytes` with each ill-formed part (maximal subpart) replaced by U+FFFD, appended to
/// `out`: the bytes of `String::from_utf8_lossy(bytes)`, without a `String` between.
fn push_replaced(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut done = 0;
    for error in vutf8::errors(bytes) {
        let start = error.valid_up_to();
        out.extend_from_slice(&bytes[done..start]);
        out.extend_from_slice(REPLACEMENT);
        done = start + error.error_len().unwrap_or(bytes.len() - start);
    }
    out.extend_from_slice(&bytes[done..]);
}

/// The string array of `column` (`Binary` gives `Utf8`, `LargeBinary` gives `LargeUtf8`,
/// `BinaryView` gives `Utf8View`) with null rows `nulls`, each row as `out` says. `out`
/// must say [`RowOut::Keep`] only of rows whose bytes are valid UTF-8, and `unchanged`
/// must be true only if it says so of every row.
pub(crate) fn strings(
    column: &ByteColumn,
    nulls: Option<NullBuffer>,
    unchanged: bool,
    out: impl Fn(usize) -> RowOut,
) -> Result<ArrayRef, Utf8ArrayError> {
    Ok(match column {
        ByteColumn::Offsets32(a) => Arc::new(offset_strings(a, nulls, unchanged, out, "Utf8")?),
        ByteColumn::Offsets64(a) => {
            Arc::new(offset_strings(a, nulls, unchanged, out, "LargeUtf8")?)
        }
        ByteColumn::Views(a) => Arc::new(view_strings(a, nulls, unchanged, out)?),
    })
}

fn offset_strings<O: OffsetSizeTrait>(
    array: &GenericBinaryArray<O>,
    nulls: Option<NullBuffer>,
    unchanged: bool,
    out: impl Fn(usize) -> RowOut,
    layout: &'static str,
) -> Result<GenericStringArray<O>, Utf8ArrayError> {
    if array.is_empty() {
        // (Its values buffer may end before its one offset: see `column::offset_verdicts`.)
        return Ok(GenericStringArray::new(
            OffsetBuffer::new_empty(),
            Buffer::from_vec(Vec::<u8>::new()),
            nulls,
        ));
    }
    let offsets = array.value_offsets();
    let first = offsets[0].as_usize();
    let last = offsets[array.len()].as_usize();
    if unchanged {
        // Share the bytes the rows cover; rebase the offsets if the array is a slice.
        let values = array.values().slice_with_length(first, last - first);
        let offsets = if first == 0 {
            array.offsets().clone()
        } else {
            let rebased: Vec<O> = offsets
                .iter()
                .map(|&o| O::usize_as(o.as_usize() - first))
                .collect();
            // SAFETY: the input's offsets are monotonic and start at `first`; less `first`
            // they are monotonic and start at 0, which is all `OffsetBuffer` requires.
            unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::from(rebased)) }
        };
        debug_assert!(std::str::from_utf8(&values).is_ok());
        // SAFETY: `unchanged` means every row is valid UTF-8 (the caller's promise, from
        // `Verdicts`); the rows cover `values` exactly, back to back, so `values` is valid
        // UTF-8 as a whole and every offset falls between characters: what `try_new`
        // checks. Offsets and length come from a valid array of the same layout.
        return Ok(unsafe { GenericStringArray::new_unchecked(offsets, values, nulls) });
    }
    let data = array.value_data();
    let mut values: Vec<u8> = Vec::with_capacity(last - first);
    let mut new_offsets: Vec<O> = Vec::with_capacity(array.len() + 1);
    new_offsets.push(O::usize_as(0));
    // Kept rows are copied in runs: `run` is where the current run started.
    let mut run = first;
    for i in 0..array.len() {
        let (start, end) = (offsets[i].as_usize(), offsets[i + 1].as_usize());
        let row_out = out(i);
        if row_out != RowOut::Keep {
            values.extend_from_slice(&data[run..start]);
            if let RowOut::Repair(policy) = row_out {
                push_repaired(&mut values, &data[start..end], policy);
            }
            run = end;
        }
        let end_out = values.len() + (end - run);
        new_offsets.push(
            O::from_usize(end_out).ok_or_else(|| Utf8ArrayError::TooLarge {
                layout,
                what: format!("row {i} would end at byte {end_out}"),
            })?,
        );
    }
    values.extend_from_slice(&data[run..last]);
    debug_assert!(std::str::from_utf8(&values).is_ok());
    // SAFETY: the offsets start at 0, grow with each row and end at `values.len()`; every
    // row of `values` is a kept row (valid, the caller's promise), the empty string, or
    // the output of `push_repaired` (valid by construction), so `values` is valid UTF-8
    // and each offset falls between characters.
    Ok(unsafe {
        GenericStringArray::new_unchecked(
            OffsetBuffer::new_unchecked(ScalarBuffer::from(new_offsets)),
            Buffer::from_vec(values),
            nulls,
        )
    })
}

fn view_strings(
    array: &BinaryViewArray,
    nulls: Option<NullBuffer>,
    unchanged: bool,
    out: impl Fn(usize) -> RowOut,
) -> Result<StringViewArray, Utf8ArrayError> {
    let old_buffers = array.data_buffers();
    if unchanged {
        // SAFETY: every view is valid UTF-8 (the caller's promise); views and buffers come
        // from a valid view array, so lengths, buffer indices and ranges are sound.
        return Ok(unsafe {
            StringViewArray::new_unchecked(array.views().clone(), old_buffers.to_vec(), nulls)
        });
    }
    let mut views: Vec<u128> = array.views().to_vec();
    let mut new_buffers: Vec<Buffer> = Vec::new();
    let mut block: Vec<u8> = Vec::new();
    let mut repaired: Vec<u8> = Vec::new();
    let too_large = |what: String| Utf8ArrayError::TooLarge {
        layout: "Utf8View",
        what,
    };
    for (i, view) in views.iter_mut().enumerate() {
        match out(i) {
            RowOut::Keep => {}
            RowOut::Empty => *view = 0,
            RowOut::Repair(policy) => {
                repaired.clear();
                push_repaired(&mut repaired, array.value(i), policy);
                if repaired.len() > u32::MAX as usize {
                    return Err(too_large(format!(
                        "row {i} repaired is {} bytes",
                        repaired.len()
                    )));
                }
                if repaired.len() <= MAX_INLINE {
                    *view = make_view(&repaired, 0, 0);
                    continue;
                }
                if !block.is_empty() && block.len() + repaired.len() > VIEW_BLOCK {
                    new_buffers.push(Buffer::from_vec(std::mem::take(&mut block)));
                }
                let index = old_buffers.len() + new_buffers.len();
                let index =
                    u32::try_from(index).map_err(|_| too_large(format!("{index} data buffers")))?;
                *view = make_view(&repaired, index, block.len() as u32);
                block.extend_from_slice(&repaired);
            }
        }
    }
    if !block.is_empty() {
        new_buffers.push(Buffer::from_vec(block));
    }
    let buffers: Vec<Buffer> = old_buffers.iter().cloned().chain(new_buffers).collect();
    // SAFETY: kept views are valid UTF-8 (the caller's promise) and sound views of the
    // input's buffers, which keep their indices; emptied views are the empty inline view;
    // repaired views are made by `make_view` over bytes written by `push_repaired` (valid)
    // into a buffer at the index they name, at the offset they name (a block is at most
    // `VIEW_BLOCK` bytes or one value, which fits `u32` as checked).
    Ok(unsafe { StringViewArray::new_unchecked(ScalarBuffer::from(views), buffers, nulls) })
}
